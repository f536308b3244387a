"""Trainers' logs from the seventh blind set (tests/data/trainer/SOURCES.md): layouts the
readers were not written for. Each test names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_mxnet_speedometer_counts_batches_and_reads_samples_per_second():
    # `2016-10-18 11:11:28,846 Epoch[0] Batch [100]<TAB>Speed: 15.69 samples/sec<TAB>
    # Train-loss=0.387482`: the batch is the step (once: no counter, nothing read)
    rows, notes = trainer_rows("mxnet_issue3554-speedometer.log", start=START)
    assert rows.get_column("iteration").to_list()[:3] == [100, 200, 300], notes
    assert rows.get_column("samples_per_second").to_list()[0] == pytest.approx(15.69)
    assert rows.get_column("loss").to_list()[0] == pytest.approx(0.387482)


def test_a_duration_with_no_name_is_the_step_time():
    # llama2.c: `490 | loss 5.7543 | lr 4.900000e-05 | 8060.78ms | mfu 0.21%`
    rows, notes = trainer_rows("llama2c_issue461-nameless-ms.log", start=START)
    first = rows.row(0, named=True)
    assert first["iteration"] == 490, notes
    assert first["step_time"] == pytest.approx(8.06078)
    assert first["loss"] == pytest.approx(5.7543)


def test_a_step_printed_by_two_loggers_is_one_step_not_a_restart():
    # `INFO:tensorflow:Step 200 per-step time 0.831s loss=1.192` (untimed), then absl's
    # `I0912 11:41:51.976096 ... Step 200 per-step time 0.831s loss=1.192`: a copy (once
    # read as seven restarts of the run), and `per-step time` is the step time
    rows, notes = trainer_rows("tf-od-api_issue6-printed-twice.log", start=START)
    assert "restarts" not in notes
    assert rows.get_column("iteration").to_list() == list(range(100, 1000, 100))
    assert rows.get_column("step_time").to_list()[1] == pytest.approx(0.831)


def test_the_estimator_hooks_time_since_its_line_before_gives_the_step_time():
    # `INFO:tensorflow:loss = 61.09418, step = 1101 (47.340 sec)`: 100 steps in 47.34 s
    rows, notes = trainer_rows("opennmt-tf_issue50-estimator-hook.log", start=START)
    assert rows.get_column("iteration").to_list() == [1001, 1101, 1201], notes
    assert rows.get_column("step_time").to_list()[1:] == pytest.approx([0.4734, 0.4728])


def test_ultralytics_rows_with_no_header_sum_the_losses_before_instances_and_size():
    # `1/20  4.27G  1.004  2.754  1.409  83  640:  38%|███▊ | 97/253 [01:50<00:41,  3.80it/s]`
    rows, notes = trainer_rows("ultralytics-yolov8_issue7531-no-header.log", start=START)
    first = rows.row(0, named=True)
    assert first["loss"] == pytest.approx(1.004 + 2.754 + 1.409), notes
    assert first["step_time"] == pytest.approx(1 / 3.80)
    assert first["iteration"] == 1 * 253 + 97
