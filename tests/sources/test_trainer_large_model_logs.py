"""Large-model trainers' logs of 2024-2025 as repositories keep them (tests/data/trainer,
SOURCES.md: the fifth blind set): pasted into Markdown, padded, behind a tqdm bar."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from conftest import TRAINER_DATA, trainer_rows

DATA = TRAINER_DATA
START = datetime(2025, 1, 1, tzinfo=UTC)


def rows(name: str) -> tuple[pl.DataFrame, str]:
    return trainer_rows(name, start=START)


@pytest.mark.parametrize(
    "name",
    [
        "nemo2_bionemo-esm2-hyperpod-readme.log",
        "nemo2_evo2-finetune-readme-indented.log",
        "megatron-core_moe-exp-readme.log",
        "maxtext-gpu_llama2-pgo-script.log",
        "maxtext-gpu_llama2-pre-pgo-script.log",
        "torchtune_nebius-cookbook-tqdm.log",
        "megatron-deepspeed_alcf-auroragpt-cooldown.log",
        "torchtitan-fork_auroragpt-start.log",
        "torchtitan-fork_auroragpt-padded-end.log",
    ],
)
def test_each_log_gives_a_loss_and_a_speed(name):
    got, _ = rows(name)
    assert got.height >= 2
    assert got.get_column("loss").drop_nulls().len() == got.height
    speed = ("step_time", "tokens_per_second_per_gpu", "tflops_per_gpu")
    assert got.select(pl.any_horizontal(pl.col(c).is_not_null() for c in speed).all()).item()


def test_a_log_pasted_into_markdown_keeps_its_lines_with_their_indentation():
    # Every line indented by the code block: not a block trainer's `name: value` lines.
    got, notes = rows("nemo2_evo2-finetune-readme-indented.log")
    first = got.sort("iteration").row(0, named=True)
    # `Training epoch 0, iteration 45/99 | ... | reduced_train_loss: 1.288 |
    #  train_step_timing in s: 0.2382 | consumed_samples: 184`
    assert (first["iteration"], first["loss"], first["step_time"]) == (45, 1.288, 0.2382)
    # after the checkpoint save the steps take 0.6-0.7 s instead of 0.24
    after = got.filter(pl.col("iteration") >= 50).get_column("step_time")
    assert after.min() > 0.6
    assert "megatron read no number here" in notes


def test_torchtitan_values_padded_after_their_colon():
    got, _ = rows("torchtitan-fork_auroragpt-padded-end.log")
    # `step: 86  loss:  5.4076  grad_norm:  2.0268  ...  tps: 6,623  tflops: 61.46  mfu: 20.61%`
    first = got.sort("iteration").row(0, named=True)
    assert (first["iteration"], first["loss"], first["grad_norm"]) == (86, 5.4076, 2.0268)
    assert first["tokens_per_second_per_gpu"] == 6623.0 and first["mfu"] == pytest.approx(0.2061)


def test_torchtunes_tqdm_bar_gives_its_step_loss_and_rate():
    got, _ = rows("torchtune_nebius-cookbook-tqdm.log")
    # `1|2|Loss: 1.2548030614852905:   0%|          | 2/1367 [05:03<49:53:19, 131.58s/it]`
    by_step = {r["iteration"]: r for r in got.iter_rows(named=True)}
    assert sorted(by_step) == [1, 2]
    assert by_step[2]["loss"] == pytest.approx(1.2548030614852905)
    assert by_step[2]["step_time"] == 131.58


def test_lingua_two_digit_years_and_a_fractional_iter_as_the_step_time():
    # `0: INFO    24-10-19 18:47:38.013923 - 0:00:49 - step: 1  acc: 0  loss: 12.2087 ...
    # iter:  8.2273  data: 33.1016`: the lines are dated by their two-digit year (placed
    # without trainer.start), and an `iter` with a fraction is seconds per step (Lingua's),
    # not the counter (once: no time read, every line left out)
    got, notes = trainer_rows("lingua_fork-two-ranks.log")
    assert got.get_column("iteration").to_list() == [1, 2, 3], notes
    assert str(got.get_column("ts")[0]) == "2024-10-19 18:47:38.013923+00:00"
    assert got.get_column("step_time").to_list() == pytest.approx([8.2273, 0.8907, 0.898])
