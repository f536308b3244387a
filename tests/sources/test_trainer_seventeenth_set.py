"""Trainers' logs from the seventeenth blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_an_epoch_written_with_the_count_of_epochs_is_not_the_step():
    # DINO's MetricLogger: `Epoch: [0/100]  [1320/1562]  eta: 0:02:02  loss: 7.467288
    # (9.936347) ... time: 0.506123`: the epoch's bracket came first and was taken for the
    # counter, so 49 progress lines were read as two steps, 0 and 1
    rows, notes = trainer_rows("dino_metriclogger-epoch-of-epochs.log", start=START)
    steps = rows.get_column("iteration").to_list()
    assert rows.height == 49, notes
    # epoch 0's batches 1320..1561, then epoch 1's counted on from 1562 (its batches)
    assert steps[:3] == [1320, 1330, 1340]
    assert steps[24:27] == [1560, 1561, 1562]
    assert steps == sorted(steps)
    first = rows.row(0, named=True)
    assert (first["loss"], first["step_time"]) == (pytest.approx(7.467288), 0.506123)
    # epoch 1's first batch waited 4 s for its data
    assert rows.filter(rows["iteration"] == 1562).item(0, "step_time") == pytest.approx(4.085758)


def test_a_progressmeter_behind_a_logging_wrapper_reads_every_record():
    # RTM3D: `Train - Epoch: [127/300][ 35/464]\tTime  0.738 ( 0.738)\t...\tLoss 2.1274e+00
    # (1.5406e+00)`, each after its own timestamped header line: read as one step, 127
    rows, notes = trainer_rows("rtm3d_epoch-of-epochs-two-line-records.log", start=START)
    assert rows.get_column("iteration").to_list() == [35, 85, 135, 185, 235, 285, 335], notes
    assert rows.get_column("loss").to_list()[:2] == pytest.approx([2.1274, 1.2996])
    assert rows.get_column("step_time").to_list()[:2] == pytest.approx([0.738, 0.730])
