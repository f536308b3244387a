"""Trainers' logs from the thirteenth blind set, log files committed to repositories
(tests/data/trainer/SOURCES.md). Each test names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_the_trainers_dicts_take_step_and_pace_from_the_bar_before_them():
    # `  2%|▏  | 10/573 [14:31<12:43:55, 81.41s/it]` then `{'loss': 0.0037, ...}`: with
    # no train_runtime summary the dicts were numbered 1, 2, 3 and had no speed
    rows, notes = trainer_rows("hf-trainer_zero3-bar-before-each-dict.log", start=START)
    assert rows.get_column("iteration").to_list() == [10, 20, 30], notes
    assert rows.get_column("loss").to_list() == pytest.approx([0.0037, 0.0035, 0.0032])
    assert rows.get_column("step_time").to_list() == pytest.approx([81.41, 91.74, 90.91])
    # each placed at the bar's elapsed time after the start (14:31, 30:16, 44:41)
    assert [t.strftime("%H:%M:%S") for t in rows.get_column("ts")] == [
        "00:14:31",
        "00:30:16",
        "00:44:41",
    ]
    assert "training progress bar drawn just before it" in notes


def test_a_loss_right_aligned_after_its_name_is_read_even_as_nan():
    # llm.c: `step    1/19560 | loss     nan (+nanz)| norm    nan (+nanz)| lr 8.57e-07 |
    # 3914.05 ms | ...`: the padding cut the name from its value, so the run's NaN loss
    # from its first step went unseen
    rows, notes = trainer_rows("llm-c_nan-right-aligned.log", start=START)
    assert rows.height == 32, notes
    assert rows.get_column("nan").to_list() == [1.0] * 32
    assert "32 lines print a loss that is not a number (NaN/inf)" in notes
    assert rows.item(0, "step_time") == pytest.approx(3.91405)
    assert rows.item(0, "tokens_per_second") == 133950


def test_paddlenlps_interval_rates():
    # `loss: 0.70674629, ..., global_step: 10, interval_runtime: 2.6107,
    # interval_samples_per_second: 3.064, interval_steps_per_second: 3.83` in ANSI colours
    rows, notes = trainer_rows("paddlenlp-trainer_interval-rates-ansi.log")
    first = rows.row(0, named=True)
    assert (first["iteration"], first["loss"]) == (10, pytest.approx(0.70674629)), notes
    assert first["samples_per_second"] == pytest.approx(3.064)
    assert first["step_time"] == pytest.approx(1 / 3.83)


def test_a_step_counter_written_short_is_counted_on_from_the_exact_ones():
    # LeRobot (from the tenth blind set): `step:800` then `step:1K` for steps 1000, 1200
    # and 1400, `step:2K` for the next five: all 55 short ones were left out. Counted on
    # by the 200 steps between the exact counters, where that agrees with the rounding;
    # a checkpoint line naming `step 5000` restarts the count from there.
    rows, notes = trainer_rows("lerobot_step-written-short.log")
    steps = rows.get_column("iteration").to_list()
    assert steps == list(range(400, 11801, 200)), notes
    assert rows.filter(rows["iteration"] == 5200).item(0, "loss") == pytest.approx(0.108)
    # `updt_s:0.504`: the update's seconds, LeRobot's step time
    assert rows.item(0, "step_time") == pytest.approx(0.504)
    assert "55 step counters written short (`step:1K`) are counted on" in notes


def test_a_progress_bar_drawn_without_its_rate_still_has_its_postfix_read():
    # NeMo 1 (fourteenth blind set): `Epoch 0: :  10%|█ | 2/20 [00:31<04:46, v_num=None,
    # reduced_train_loss=13.00, global_step=1.000, ..., train_step_timing in s=15.90]DLL
    # ...`: a bar with no rate was no bar, and `15.90]DLL` no number, so no step time
    rows, notes = trainer_rows("nemo1_lightning-bar-without-rate-dll.log")
    assert rows.get_column("iteration").to_list()[:3] == [0, 1, 2], notes
    assert rows.get_column("step_time").to_list()[:3] == pytest.approx([25.5, 15.9, 12.8])
    assert "not numbers it can read" not in notes


def test_an_evaluation_report_gives_way_to_the_steps_own_line():
    # nanoGPT (sixteenth blind set): `step 2: train loss 10.9370, val loss 10.9377` (the
    # evaluation, over held-out batches) before `iter 2: loss 10.9481, time 20176.69ms,
    # ...`: both name step 2, and the report's train loss was taken as the step's
    rows, notes = trainer_rows("nanogpt_ddp-eval-reports-between-iters.log", start=START)
    assert rows.get_column("iteration").to_list() == list(range(10)), notes
    step2 = rows.filter(rows["iteration"] == 2).row(0, named=True)
    assert step2["loss"] == pytest.approx(10.9481)
    assert step2["step_time"] == pytest.approx(20.17669)
    assert "5 evaluation reports" in notes


def test_a_trainer_whose_only_line_names_both_losses_keeps_it(tmp_path):
    # where the step's one line prints the train and the validation loss, it is the step's
    from datetime import UTC, datetime

    import polars as pl

    from incidentbook.incident import TrainerSpec
    from incidentbook.sources.trainer import TrainerLogSource
    from incidentbook.window import TimeWindow

    path = tmp_path / "both.log"
    lines = (f"step {i} | train_loss {3 - i / 10:.2f} | val_loss 3.1 | 1.5s/it" for i in range(3))
    path.write_text("".join(f"{line}\n" for line in lines))
    every = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))
    got, said = TrainerLogSource([path], trainer=TrainerSpec(start=START)).rows(every)
    rows = got.filter(pl.col("iteration").is_not_null())
    assert rows.get_column("loss").to_list() == pytest.approx([3.0, 2.9, 2.8]), said


def test_a_relaunched_trainers_dicts_still_take_step_and_pace_from_its_new_bar(tmp_path):
    # A blind folder: a crashed run relaunched in the same output file drew a new bar
    # from the start, so the bar's steps went back at the relaunch and none of the dicts
    # of either run took a step or a pace: "no tokens/s", and the whole incident read
    # "Nothing to explain". The same real output twice is a run and its relaunch.
    from conftest import TRAINER_DATA

    once = (TRAINER_DATA / "hf-trainer_zero3-bar-before-each-dict.log").read_text()
    twice = tmp_path / "relaunched.log"
    twice.write_text(once + once)
    rows, notes = trainer_rows(twice, start=START)
    assert rows.get_column("iteration").to_list() == [10, 20, 30, 10, 20, 30], notes
    assert rows.get_column("step_time").to_list() == pytest.approx([81.41, 91.74, 90.91] * 2)
    assert "training progress bar drawn just before it" in notes
