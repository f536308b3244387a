"""Trainers' logs from the twenty-first blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from conftest import trainer_rows


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
