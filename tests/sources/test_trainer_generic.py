"""The generic trainer reader on real output of trainers without a parser of their own
(tests/data/trainer, see SOURCES.md): OLMo, MaxText, fairseq, torchtune, NeMo, LitGPT,
nanoGPT, and two sets of other trainers gathered blind."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from conftest import REPO, trainer_rows
from incidentbook.sources.trainer import generic
from incidentbook.sources.trainer.base import Context, read_text
from incidentbook.sources.trainer.read import formats_of, read_trainer_file
from incidentbook.sources.trainer.timeline import Given
from incidentbook.window import TimeWindow

DATA = REPO / "tests" / "data" / "trainer"
ALL_TIME = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))
START = datetime(2025, 1, 1, tzinfo=UTC)


def parsed(name: str) -> pl.DataFrame:
    """The generic parser's records, before the timeline places them in time."""
    return generic.parse(read_text(DATA / name, Context()), Context()).records


def rows(name: str, **trainer) -> tuple[pl.DataFrame, str]:
    return trainer_rows(name, **trainer)


@pytest.mark.parametrize(
    "name",
    [
        "olmo_ai-on-aks.log",
        "olmo_issue692-zero-loss.log",
        "maxtext_understand-logs-doc.log",
        "maxtext_dpo-qwen3-notebook.log",
        "fairseq_fsdp-readme-json.log",
        "fairseq_issue2338-train-inner.log",
        "fairseq_issue940-legacy-pipe.log",
        "torchtune_pr1358-codellama.log",
        "litgpt_0-to-litgpt-tutorial.log",
        "litgpt_issue689-legacy-iter.log",
        "nanogpt_pr682-tt-train-readme.log",
        "nanogpt_issue110-8xA100.log",
    ],
)
def test_trainers_without_a_parser_are_read_by_the_generic_one(name):
    assert [f.name for f in formats_of(DATA / name)] == ["generic"]


def test_the_generic_reader_stands_aside_for_a_trainer_with_its_own_parser():
    # A Megatron log names steps and a loss too: its own parser reads it, alone.
    assert [f.name for f in formats_of(DATA / "megatron_lm_2024-09_timestamped.log")] == [
        "megatron"
    ]
    # and files that are not a trainer's are claimed by no trainer format
    for path in (REPO / "data" / "incidents" / "imbue-bringup" / "logs").rglob("*"):
        if path.is_file():
            assert formats_of(path) == [], path


def test_olmo_blocks_thousands_separators_and_running_totals():
    got, notes = rows("olmo_ai-on-aks.log")
    assert got.get_column("iteration").to_list() == list(range(1, 11))
    first, second = got.row(0, named=True), got.row(1, named=True)
    assert first["loss"] == 11.25 and first["ts"] == datetime(2024, 4, 17, 9, 42, 26, tzinfo=UTC)
    assert not first["inferred"]
    # `throughput/device/tokens_per_second=45,538`: one number, not 45 and 538
    assert second["tokens_per_second_per_gpu"] == 45538
    assert second["step_time"] == pytest.approx(1 / 0.0869)  # batches per second
    # the job's tokens/s from the running total (4,194,304 tokens a step) over the step time
    assert second["tokens_per_second"] == pytest.approx(4194304 * 0.0869)
    assert "consumed tokens" in notes


def test_olmo_newer_header_and_a_block_cut_at_the_excerpts_start():
    got, _ = rows("olmo_issue692-zero-loss.log")
    assert got.get_column("iteration").to_list() == [1, 2, 3]
    assert got.get_column("loss").to_list()[0] == 12.18
    assert got.get_column("grad_norm").to_list()[0] == 231.7


def test_maxtext_per_device_numbers_and_seconds_per_step():
    got, notes = rows("maxtext_understand-logs-doc.log", start=START, gpus=8)
    assert got.get_column("iteration").to_list() == list(range(10))
    row = got.filter(pl.col("iteration") == 2).row(0, named=True)
    assert row["step_time"] == 5.658 and row["tflops_per_gpu"] == 135.158
    assert row["tokens_per_second"] == pytest.approx(8 * 8687.815)
    assert row["loss"] == 11.689 and row["inferred"]
    # without the GPUs the per-device rate is kept, and the notes say what is missing
    alone, notes = rows("maxtext_understand-logs-doc.log", start=START)
    assert alone.get_column("tokens_per_second").is_null().all()
    assert "set trainer.gpus" in notes


def test_maxtext_loss_wins_over_lm_loss_on_the_same_line():
    got, _ = rows("maxtext_dpo-qwen3-notebook.log")
    row = got.filter(pl.col("iteration") == 3).row(0, named=True)
    assert row["loss"] == pytest.approx(0.708, abs=1e-3)  # not lm_loss: 0.000
    assert row["tflops_per_gpu"] == 84.318 and row["step_time"] == 0.254


def test_fairseq_counts_updates_not_the_epochs_batches():
    got, _ = rows("fairseq_issue940-legacy-pipe.log", start=START)
    assert got.get_column("iteration").to_list() == [445, 495, 545, 595, 645]
    row = got.row(0, named=True)
    assert row["tokens_per_second"] == 52922 and row["step_time"] == 2.0  # ups=0.5
    assert row["learning_rate"] == pytest.approx(8.90889e-05) and row["grad_norm"] == 1.543
    timed, _ = rows("fairseq_issue2338-train-inner.log")
    assert timed.get_column("iteration").to_list() == [2800, 2900, 3000, 3100, 3200]
    assert timed.row(0, named=True)["ts"] == datetime(2020, 7, 17, 7, 11, 2, tzinfo=UTC)


def test_fairseq_json_log_and_its_unmeasured_first_update():
    got, _ = rows("fairseq_fsdp-readme-json.log")
    assert got.height == 10
    first, second = got.row(0, named=True), got.row(1, named=True)
    assert first["iteration"] == 1 and first["loss"] == 16.475
    assert first["tokens_per_second"] is None  # `"wps": "0"` on the first update
    assert second["tokens_per_second"] == 288.7 and second["step_time"] == pytest.approx(50.0)


def test_nanogpt_and_litgpt_milliseconds_and_percentages():
    got, _ = rows("nanogpt_pr682-tt-train-readme.log", start=START)
    row = got.filter(pl.col("iteration") == 4900).row(0, named=True)
    assert row["loss"] == 1.2428 and row["step_time"] == pytest.approx(0.01637)
    assert row["mfu"] == pytest.approx(0.2273)
    lit, _ = rows("litgpt_0-to-litgpt-tutorial.log", start=START)
    assert lit.row(0, named=True)["step_time"] == pytest.approx(0.82031)  # `820.31 ms`
    assert lit.row(0, named=True)["loss"] == 1.646  # `loss train: 1.646, val: n/a`
    old, _ = rows("litgpt_issue689-legacy-iter.log", start=START)
    assert old.filter(pl.col("iteration") == 77).item(0, "step_time") == pytest.approx(0.2144)


def test_nemo_is_read_when_megatrons_parser_finds_nothing_in_it():
    path = DATA / "nemo_bionemo-pr740-progressprinter.log"
    assert [f.name for f in formats_of(path)] == ["megatron"]
    read = read_trainer_file(path, Context(), Given(), start=START)
    assert read.formats == ["generic"]
    assert "megatron read no number here" in "\n".join(read.notes)
    assert read.rows.get_column("iteration").to_list() == [120, 121, 122, 123, 124, 125]
    assert read.rows.get_column("step_time").to_list()[0] == 0.03146  # `in s: 0.03146`
    assert read.rows.get_column("loss").to_list()[0] == 1.233  # reduced_train_loss


def test_nemo_run_prefix_and_nemos_own_times_anchor_the_steps():
    got, _ = rows("nemo_resiliency-demo-notebook.log")
    first = got.row(0, named=True)
    # `[NeMo W 2025-03-07 22:34:10 ...]` before iteration 0, which took 10.31 s
    assert first["ts"] == datetime(2025, 3, 7, 22, 34, 20, 310000, tzinfo=UTC)
    assert first["loss"] == 11.03 and first["learning_rate"] == pytest.approx(1.499e-07)


def test_torchtune_lines_without_any_time_are_counted_not_guessed():
    got, notes = rows("torchtune_pr1358-codellama.log")
    assert got.height == 0
    assert "12 iteration lines could not be placed in time" in notes
    assert "learning rate, loss, tokens per second per gpu" in notes


def test_a_megatron_log_cut_in_its_first_iteration_line_reads_as_no_rows(tmp_path):
    # Only the argument dump's anchor and half an iteration line: nothing to read, said so.
    path = tmp_path / "train.log"
    path.write_text(
        "[before the start of training step] datetime: 2024-09-03 15:52:43\n"
        " [2024-09-03 15:54:54] iteration       10/  500000 | consumed samples:        10240 |"
        " elapsed time per iter"
    )
    read = read_trainer_file(path, Context(), Given())
    assert read.rows.height == 0
    notes = "\n".join(read.notes)
    assert "cut short" in notes and "cannot be read" not in notes


def test_a_progress_log_cut_in_its_only_step_line_reads_as_no_rows(tmp_path):
    # MaxText's first line, cut while it was written (and nothing else): no rows, no error.
    path = tmp_path / "train.log"
    path.write_text(
        "completed step: 0, seconds: 44.923, TFLOP/s/device: 17.022, Tokens/s/device: "
        "1094.129, total_weights: 196608, loss: 12"
    )
    read = read_trainer_file(path, Context(), Given(), start=START)
    assert read.formats == ["generic"] and read.rows.height == 0
    notes = "\n".join(read.notes)
    assert "cut short" in notes and "no complete progress line" in notes


# Trainers the generic reader met blind (SOURCES.md): read after it was widened for them.


def test_openmmlab_torchvision_and_detectron2_counters_and_times():
    mm, _ = rows("mmengine_deepspeed-example.log")
    assert mm.get_column("iteration").to_list()[:3] == [10, 20, 30]  # `[1][ 10/196]`
    assert mm.row(0, named=True)["step_time"] == 0.4073 and mm.row(0, named=True)["loss"] == 6.1887
    old, _ = rows("mmcv-runner_mmaction-issue199-k400.log")
    assert old.row(0, named=True)["ts"] == datetime(2020, 7, 27, 5, 30, 0, 56000, tzinfo=UTC)
    assert old.row(0, named=True)["iteration"] == 640 and old.row(0, named=True)["loss"] == 3.7828
    tv, _ = rows("torchvision-references_maskrcnn-finetune.log", start=START)
    first = tv.row(0, named=True)
    assert first["loss"] == 7.5953 and first["step_time"] == 2.2824  # `loss: 7.5953 (7.9363)`
    d2, _ = rows("detectron2_tx2dl-r50fpn.log")
    first = d2.row(0, named=True)
    assert first["loss"] == 1.986 and first["iteration"] == 19  # total_loss
    assert (first["ts"].month, first["ts"].day, first["ts"].hour) == (9, 2, 2)  # `[09/02 02:37:24`


def test_timm_evaluation_lines_and_an_epochs_end_are_no_restart():
    got, notes = rows("timm_vitae-monarch-imagenet.log", start=START)
    assert "restarts" not in notes
    steps = got.get_column("iteration").to_list()
    assert steps == sorted(steps) and len(steps) == len(set(steps))
    # epoch 0's counter ran to 10009 batches, epoch 1's starts again: one count across them
    assert steps[0] == 9550 and 10009 in steps
    assert got.row(0, named=True)["loss"] == pytest.approx(6.880851)  # `Loss:  6.880851`
    # `Time: 0.699s,  183.22/s  (1.094s,  117.02/s)`: the step's time and images/s, not
    # the running averages in parentheses after them (1.094 s was read as the step's)
    assert got.row(0, named=True)["step_time"] == pytest.approx(0.699)
    assert got.row(0, named=True)["samples_per_second"] == pytest.approx(183.22)


def test_paddle_samples_per_second_and_slashed_dates():
    seg, _ = rows("paddleseg_pr928-fp32.log")
    row = seg.row(0, named=True)
    assert row["samples_per_second"] == 3.7425 and row["step_time"] == 0.5344
    ocr, _ = rows("paddleocr_pr1181-benchmark-log.log")
    assert ocr.row(0, named=True)["ts"] == datetime(2020, 11, 16, 11, 11, 26, tzinfo=UTC)
    assert not ocr.row(0, named=True)["inferred"]


def test_internlm_comma_joined_fields():
    got, _ = rows("internlm_usage-7b-demo.log")
    row = got.filter(pl.col("iteration") == 1).row(0, named=True)
    assert row["tokens_per_second_per_gpu"] == 4274.45  # `tgs (tokens/gpu/second)=4274.45`
    assert row["loss"] == pytest.approx(11.613704681396484) and row["grad_norm"] > 65


def test_marian_time_since_the_line_before_is_made_per_update():
    got, notes = rows("marian_issue376-streaming.log")
    assert got.get_column("iteration").to_list()[:2] == [14000, 16000]  # `Up. 16000`
    row = got.filter(pl.col("iteration") == 16000).row(0, named=True)
    assert row["loss"] == pytest.approx(6.59608603)  # `Cost`
    assert row["tokens_per_second"] == 1942.28  # `1942.28 words/s`
    assert row["step_time"] == pytest.approx(1153.11 / 2000)  # `Time 1153.11s` over 2000 updates
    assert "time since the line before" in notes


# A second blind set (SOURCES.md): 1 of 14 read with a loss and a speed before the reader
# was widened for them, 8 after.


def test_a_step_line_with_no_quantity_read_is_no_rows_not_an_error():
    # tf.estimator's `loss = X, step = N (S sec)` once named nothing the reader knew: the
    # empty table of numbers was one row long and the file `cannot be read`
    read = read_trainer_file(DATA / "tensor2tensor-estimator_issue67.log", Context(), Given())
    assert "cannot be read" not in "\n".join(read.notes)
    # (no time and no step time: the timeline cannot place them; the parser reads them)
    losses = parsed("tensor2tensor-estimator_issue67.log").filter(pl.col("loss").is_not_null())
    assert losses.get_column("iteration").to_list()[:2] == [54901, 55001]
    assert losses.get_column("loss").to_list()[:2] == [1.96779, 1.96174]  # `INFO:tensorflow:loss`


def test_open_mpi_tags_and_a_rate_of_iterations():
    got, _ = rows("horovod-tf2_aws-deep-learning-models_issue45.log")
    first = got.row(0, named=True)
    # `[1,0]<stdout>:2020-12-23 23:07:21,094 __main__ : INFO Train step 1040 -- Loss: 11.174`
    assert first["ts"] == datetime(2020, 12, 23, 23, 7, 21, 94000, tzinfo=UTC)
    assert not first["inferred"] and first["rank"] == 0
    assert first["iteration"] == 1040 and first["loss"] == 11.174
    assert first["step_time"] == pytest.approx(1 / 1.69)  # `It/s: 1.69`


def test_units_say_what_a_number_is():
    voice, _ = rows("clearervoice_issue4.log", start=START)
    first = voice.row(0, named=True)
    assert first["step_time"] == 2.057  # `2.057s/batch`
    assert first["loss"] == 1.678  # `Mask_Loss 1.6780`: a name ending in loss, none other
    slim, _ = rows("tf-slim_tensorflow-models_issue2980.log", start=START)
    first = slim.row(0, named=True)
    assert first["loss"] == 79.3501 and first["step_time"] == 57.126  # `(57.126 sec/step)`
    mlx, _ = rows("mlx-lm_pr330.log", start=START)
    assert mlx.get_column("iteration").to_list()[:2] == [10, 20]  # not `Iter 1: Val loss`
    first = mlx.row(0, named=True)
    assert first["loss"] == 2.662 and first["step_time"] == pytest.approx(1 / 0.490)
    assert first["tokens_per_second"] == 161.374  # `Tokens/sec 161.374`


def test_dllogger_name_space_colon_value():
    got, _ = rows("dllogger_nvidia-dle-bert_issue1107.log")
    first = got.row(0, named=True)
    # `DLL 2022-04-05 02:22:54.614486 - Training Epoch: 1 Training Iteration: 2872  step_loss : ...`
    assert first["ts"] == datetime(2022, 4, 5, 2, 22, 54, 614486, tzinfo=UTC)
    assert first["iteration"] == 2872 and first["loss"] == pytest.approx(0.6953772306442261)
    assert first["learning_rate"] == pytest.approx(1.5844598709048836e-05)


def test_llama_factory_step_time_from_the_runs_clock():
    got, _ = rows("llama-factory_luojiu-7b-base_trainer_log.log", start=START)
    assert got.get_column("iteration").to_list()[:3] == [5, 10, 15]  # `current_steps`
    second = got.row(1, named=True)
    assert second["loss"] == 1.7329
    # `elapsed_time`: 0:03:29 at step 5, 0:07:03 at step 10
    assert second["step_time"] == pytest.approx((423 - 209) / 5)


def test_opennmt_cross_entropy_and_a_leading_step_number():
    nmt, _ = rows("opennmt-py_issue1362.log")
    first = nmt.row(0, named=True)
    assert first["iteration"] == 2250 and first["loss"] == 4.05  # `xent: 4.05`
    assert [f.name for f in formats_of(DATA / "llama2c-style_modded-llama2_issue10.log")] == [
        "generic"
    ]
    steps = parsed("llama2c-style_modded-llama2_issue10.log")
    assert steps.get_column("iteration").to_list()[:2] == [40, 50]  # `40 | loss 6.6875 |`
    assert steps.get_column("loss").to_list()[:2] == [6.6875, 6.3125]


def test_counts_written_short():
    # nanotron's `consumed_tokens: 85.8G`, `elapsed_time_per_iteration_ms: 4.71K` read by the
    # generic reader as it would any trainer's (before, values it could not read)
    tiny = parsed("nanotron_tiny_llama_head.log").row(0, named=True)
    assert tiny["step_time"] == pytest.approx(4.71)  # 4.71K ms
    assert parsed("nanotron_issue390.log").row(0, named=True)["consumed_tokens"] == 85.8e9


def test_a_value_it_cannot_read_under_a_name_it_knows_is_said(tmp_path):
    # (a made-up line: no real log in tests/data holds one now that short counts are read)
    path = tmp_path / "train.log"
    path.write_text("step 10 | loss: n/a | lr: 3e-4\nstep 20 | loss: 2.5 | lr: 3e-4\n")
    read = generic.parse(read_text(path, Context()), Context())
    assert read.records.get_column("loss").to_list() == [None, 2.5]
    assert any(
        "1 values under names the reader knows" in n and "`loss: n/a`" in n for n in read.notes
    )


# A third blind set, of LLM trainers (SOURCES.md): 4 of 5 read before, 5 after.


def test_verl_fields_joined_by_dashes():
    got, _ = rows("verl_dstack-configs-ppo-qwen7b.log", start=START)
    first = got.row(0, named=True)
    # `step:101 - ... - actor/pg_loss:0.019 - ... - timing_s/step:11.376 - ...`
    assert first["iteration"] == 101 and first["loss"] == 0.019  # the policy's, not entropy's
    assert first["step_time"] == 11.376
    assert first["tokens_per_second_per_gpu"] == 326.485  # `perf/throughput`


def test_a_level_word_before_the_time_and_rates_by_their_units():
    got, _ = rows("custom-fsdp2_gke-b200-llama70b.log")
    first = got.row(0, named=True)
    # `INFO 2025-09-09T16:10:48.625736211Z [resource.labels.containerName: job] ...`
    assert first["ts"] == datetime(2025, 9, 9, 16, 10, 48, 625736, tzinfo=UTC)
    assert not first["inferred"]
    prime, _ = rows("prime-rl_pr999-sft-moe.log", start=START)
    step1 = prime.filter(pl.col("iteration") == 1).row(0, named=True)
    assert step1["tokens_per_second"] == 3324 and step1["mfu"] == pytest.approx(0.01)
    assert step1["step_time"] == 0.6 and step1["loss"] == 12.3125


def test_a_time_of_day_is_not_a_step_time():
    # PyTorch/XLA's `Time=22:00:43` is when the line was printed, not how long a step took
    # (once read as 79,243 s): a clock's growth over the steps is (22:00:43 -> 22:00:47
    # over 20 steps)
    xla = parsed("pytorch-xla_pr4324-mp-mnist.log")
    assert xla.get_column("loss").drop_nulls().len() > 0
    assert xla.get_column("step_time").drop_nulls().to_list() == pytest.approx([4 / 20])
    # LLaMA-Factory's `elapsed_time: 0:07:03` is one
    assert parsed("llama-factory_luojiu-7b-base_trainer_log.log").get_column("step_time").max() > 0


def test_a_json_object_per_line_is_dated_by_its_time_field(tmp_path):
    # A blind incident folder's trainer wrote one JSON object per line, its time in a
    # `timestamp` field: 242 iteration lines "could not be placed in time", and the run's
    # 10% loss read as nothing to explain. Structured loggers put the field first or last,
    # and with a zone or none.
    first = '{"timestamp": "2025-05-20T05:30:05.149Z", "step": 18130, "loss": 2.2055}'
    last = (
        '{"event": "train_step", "step": 18140, "loss": 2.21, "time": "2025-05-20 07:31:00+02:00"}'
    )
    bare = '{"ts": "2025-05-20T05:32:00", "step": 18150, "loss": 2.2}'
    path = tmp_path / "train.jsonl"
    path.write_text("\n".join([first, last, bare]) + "\n")
    ts = read_text(path, Context()).lines.get_column("ts").to_list()
    assert ts == [
        datetime(2025, 5, 20, 5, 30, 5, 149000, tzinfo=UTC),
        datetime(2025, 5, 20, 5, 31, tzinfo=UTC),
        datetime(2025, 5, 20, 5, 32, tzinfo=UTC),
    ]
