"""Trainers' logs from the twenty-first blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from conftest import TRAINER_DATA, trainer_rows


def test_mlperf_mllog_events_give_the_loss_and_the_pace():
    # `:::MLLOG {"time_ms": ..., "key": "train_loss", "value": 1.28, "metadata": {...,
    # "step_num": 20}}`: every MLPerf result log is written so; no reader knew it and the
    # file was left out
    rows, notes = trainer_rows("mlperf-hpc_deepcam-mllog-events.log")
    assert rows.height == 97, notes
    first = rows.row(0, named=True)
    assert (first["iteration"], first["loss"]) == (10, pytest.approx(1.5666680335998535))
    assert first["ts"] == datetime.fromtimestamp(1633477920.984, tz=UTC)
    # the learning rate's and accuracy's events of the same step are not rows of their own
    assert rows.get_column("iteration").is_unique().all()
    # the pace from the events' own times: ten steps in 4.549 s
    second = rows.row(1, named=True)
    assert second["step_time"] == pytest.approx((1633477925533 - 1633477920984) / 1e3 / 10)


def test_an_epochs_batch_counted_in_parentheses_is_the_step():
    # MiniMind through loguru: `Epoch:[1/1](100/44173) loss:6.460 lr:0.000549993677
    # epoch_Time:115.0min:`, each line followed by a dump of a training sample; no counter
    # the reader knew, and none of its 15 progress lines was read
    rows, notes = trainer_rows("minimind_loguru-epoch-paren-counter-sample-dumps.log")
    assert rows.height == 15, notes
    assert rows.get_column("iteration").to_list()[:3] == [0, 100, 200]
    second = rows.row(1, named=True)
    assert second["loss"] == pytest.approx(6.46)
    # no speed printed: the step time from loguru's times, 15.105 s over 100 steps
    assert second["step_time"] == pytest.approx(0.15105)


def test_a_comma_between_date_and_time_dates_the_lines():
    # OpenCLIP's logger (and timm's) write `2023-04-21,12:03:13 | INFO | Train Epoch: ...`:
    # in a blind folder's 32-node job, none of its 1,066 progress lines could be placed in
    # time, and the slowdown they showed read as nothing to explain.
    rows, notes = trainer_rows("openclip_jubench-mmoclip-comma-date.log")
    assert rows.height == 3, notes
    assert [str(t) for t in rows.get_column("ts")] == [
        "2023-04-21 12:03:13+00:00",
        "2023-04-21 12:03:20+00:00",
        "2023-04-21 12:03:26+00:00",
    ]
    assert rows.get_column("loss").to_list() == pytest.approx([9.7031] * 3)
    # `Batch (t): 6.655, 2461.78/s, 76.9308/s/gpu`: a rate of nothing named is samples/s
    assert rows.get_column("samples_per_second").to_list() == [119.065, 2461.78, 2533.71]


def test_openclips_lines_are_timed_in_the_log_stage_too():
    # The same logger's lines in a job's output: the log stage found no time in them and
    # dated the whole file (its S3 SlowDown errors with it) by its modification time.
    from incidentbook.logs.read import read_log_file
    from incidentbook.window import make_window

    lines, _ = read_log_file(
        TRAINER_DATA / "openclip_jubench-mmoclip-comma-date.log",
        make_window("2023-04-21T12:00:00Z", "2023-04-21T13:00:00Z"),
    )
    assert lines.height == 3
    assert [t.second for t in lines.get_column("ts")] == [13, 20, 26]
    assert not lines.get_column("inferred").any()
    assert lines.get_column("severity").to_list() == ["info"] * 3
