"""Trainers' logs from the nineteenth blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_buffered_trainer_dicts_are_dated_by_the_progress_bar():
    # TRL's GRPO under nohup: the dicts reach the file in bursts, long after their steps;
    # tqdm's bar, unbuffered, was drawn as the steps ran (`40/1875 [49:32<33:21:31,
    # 65.44s/it]`). Before, each dict had only train_runtime's average pace (77 s a step
    # over the whole run) and no step time at all
    rows, notes = trainer_rows("trl-grpo_nohup-buffered-dicts-bar-clock.log", start=START)
    assert rows.height == 93
    assert rows.get_column("iteration").to_list()[:3] == [20, 40, 60]
    second = rows.row(1, named=True)
    assert (second["loss"], second["step_time"]) == (pytest.approx(0.0002), 65.44)
    # the bar's clock at step 40 (49:32 since the start), not the average pace's
    assert (second["ts"] - rows.get_column("ts").min()).total_seconds() == pytest.approx(
        49 * 60 + 32 - (25 * 60 + 47)
    )
    assert rows.get_column("step_time").null_count() == 0
    assert "bar's elapsed time and rate" in notes


def test_ultralytics_own_progress_bar_is_read():
    # Ultralytics 8.4 draws its own bar, the count and rate after it (`640: 4% ━──────
    # 300/6848 2.7it/s 1:50<39:58`), not tqdm's brackets: 0 rows were read before
    rows, notes = trainer_rows("ultralytics_own-progress-bar-oom-fallback.log", start=START)
    assert rows.height == 608, notes
    at = rows.filter(rows["iteration"] == 6848 + 300).row(0, named=True)
    # the epoch's running box, cls and dfl losses (3.575 + 9.152 + 0.0225)
    assert at["loss"] == pytest.approx(12.7495)
    assert at["step_time"] == pytest.approx(1 / 2.7)


def test_a_scripts_own_steps_beside_deepspeeds_are_not_restarts():
    # `[Step 3/100] Loss: 5.4418 | Tokens/s: 131.45 | ...` counted from 0, between
    # DeepSpeed's `step=4, skipped=2, ...` lines counted from 1: read as one sequence, the
    # count went back at every other line and the run "restarted 13 times"
    rows, notes = trainer_rows("deepspeed_script-steps-from-0-beside-ds-steps.log", start=START)
    assert "restarts" not in notes, notes
    assert sorted(rows.get_column("iteration").to_list()) == list(range(14))
    at = rows.filter(rows["iteration"] == 3).row(0, named=True)
    assert (at["loss"], at["tokens_per_second"]) == (pytest.approx(5.4418), 131.45)
