"""Trainers' logs from the twelfth blind set, log files committed to repositories
(tests/data/trainer/SOURCES.md). Each test names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_verls_actor_loss_is_its_whole_loss():
    # `actor/pg_loss:0.0 - actor/entropy_loss:0.46... - actor/kl_loss:0.0 -
    # actor/loss:-0.00046340361586771905`: the policy gradient's share was read as the loss
    rows, notes = trainer_rows("verl_grpo-actor-total-loss.log")
    first = rows.row(0, named=True)
    assert first["iteration"] == 1, notes
    assert first["loss"] == pytest.approx(-0.00046340361586771905)
    assert first["tokens_per_second_per_gpu"] == pytest.approx(71.0802164788118)


def test_ray_workers_lines_date_verls_steps_in_their_order():
    # verl's step lines carry no time; its workers' lines between them do, as Python
    # logging's `INFO:2026-04-03 07:03:02,229:` (level first) and vLLM's yearless `WARNING
    # 04-03 07:02:23`. Read, they date the steps; a step is never placed after the
    # timestamped line printed after it (step 1's 36 s put it after step 2)
    rows, notes = trainer_rows("verl_grpo-actor-total-loss.log")
    assert rows.height == 14, notes
    assert rows.get_column("ts").is_sorted()
    assert rows.get_column("iteration").to_list() == list(range(1, 15))
    assert str(rows.item(0, "ts")) == "2026-04-03 07:03:15.486000+00:00"


def test_a_rate_written_short_and_a_headers_tokens_per_step_place_an_untimed_log():
    # `step   47710 | loss 13.8450 | lr 1.79e-04 | grad 0.768 | 37.5k tok/s | mfu 37.67%`,
    # no time anywhere; the header says `Tokens / optimizer step : 32,768`. The rate was
    # not read, and with no step time none of the 36 lines could be spread from the start.
    rows, notes = trainer_rows("qwen3-pretrain_kilo-tok-s-untimed.log", start=START)
    assert rows.height == 36, notes
    second = rows.filter(rows["iteration"] == 47710).row(0, named=True)
    assert second["loss"] == pytest.approx(13.845)
    assert second["tokens_per_second"] == pytest.approx(37_500)
    assert second["step_time"] == pytest.approx(32_768 / 37_500)
    # ten steps between lines, each a step's time long
    gap = (rows.item(2, "ts") - rows.item(1, "ts")).total_seconds()
    assert gap == pytest.approx(10 * 32_768 / 37_400, rel=1e-3)
    assert "the header says a step takes 32,768 tokens" in notes


def test_a_scripts_own_loss_lines_beside_deepspeeds_speed_lines():
    # DeepSpeed's timestamped `step=3, skipped=2, lr=[1e-05]` and `CurrSamplesPerSec=6.64`
    # lines recognised the file as DeepSpeed's, which prints no loss; the script's untimed
    # `[Step 3/100] Loss: 5.0037 | Global Tokens/s: 2317.00 | ...` lines were never read
    rows, notes = trainer_rows("deepspeed-zero3_own-step-lines.log")
    third = rows.filter(rows["iteration"] == 3).row(0, named=True)
    assert third["loss"] == pytest.approx(5.0037), notes
    assert third["tokens_per_second"] == pytest.approx(2317.0)
    assert third["samples_per_second"] == pytest.approx(6.641474760886006)
    # every step's loss but the last's, whose script line is past the excerpt's end
    assert rows.filter(rows["iteration"] < 17).get_column("loss").null_count() == 0
    assert "deepspeed read no loss; the generic reader's added" in notes
    # DeepSpeed's one-group learning rate list is read as its number, not counted unread
    assert rows.item(0, "learning_rate") == pytest.approx(1e-05)
    assert "not numbers it can read" not in notes


def test_times_of_day_date_untimed_steps_on_the_runs_day():
    # openpi: `Step 100: grad_norm=1.5392, loss=0.2281, ...` every 100 steps with no time,
    # between progress-bar lines that carry only a time of day (`05:20:24.273 [I] Progress
    # on: 96.0it/200kit rate:2.2s/it ...`), every 10 s. Without a day for those times, and
    # with no step time to count from, none of the steps could be placed.
    rows, notes = trainer_rows("openpi_jax-time-of-day-progress.log", start=START)
    assert rows.get_column("iteration").to_list() == [0, 100, 200, 300], notes
    assert rows.get_column("loss").to_list() == pytest.approx([0.2315, 0.2281, 0.1779, 0.1514])
    # each placed at the timestamped line before it, on trainer.start's day
    assert str(rows.item(1, "ts")) == "2025-01-01 05:20:24.273000+00:00"
    assert rows.get_column("inferred").all()
    # 100 steps between lines known to within ~11 s of each other: a step time of about
    # 2.1 s, as the bar's own rate says (2.1-2.4 s/it)
    times = rows.get_column("step_time").drop_nulls()
    assert times.len() == 2
    assert times.to_list() == pytest.approx([2.13, 2.08], abs=0.02)
    assert "step time from the timestamped lines around the untimed step lines" in notes


def test_a_time_of_day_without_the_runs_day_dates_nothing():
    # with no trainer.start there is no day for `05:16:41.449`: the steps stay unplaced
    # and the note says what would place them
    rows, notes = trainer_rows("openpi_jax-time-of-day-progress.log")
    assert rows.height == 0
    assert "no trainer.start in incident.yaml" in notes


def test_a_log_with_no_time_and_no_step_time_is_not_piled_at_the_start(tmp_path):
    # Untimed step lines with no step time are placed at the timestamped line before them;
    # in a file with no timestamped line, trainer.start is no such line: the steps are
    # left out with a note, not all put at the start.
    from datetime import UTC, datetime

    import polars as pl

    from incidentbook.incident import TrainerSpec
    from incidentbook.sources.trainer import TrainerLogSource
    from incidentbook.window import TimeWindow

    path = tmp_path / "untimed.log"
    path.write_text("".join(f"step {i} | loss {4.0 - i / 10:.2f}\n" for i in range(1, 6)))
    every = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))
    got, said = TrainerLogSource([path], trainer=TrainerSpec(start=START)).rows(every)
    rows, notes = got.filter(pl.col("iteration").is_not_null()), "\n".join(said)
    assert rows.height == 0
    assert "5 iteration lines could not be placed in time" in notes
    assert "no step time to spread them from the start by" in notes
