"""Level shifts against annotated change points (bench/cpd.py, incidentbook.metrics.shifts)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from conftest import REPO

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import cpd
from incidentbook.metrics.shifts import change_points


def test_f1_follows_tcpdbench_definition():
    # Worked examples of the measure as TCPDBench documents it (0 is a change point in
    # every set; precision against the union, recall averaged over annotators).
    assert cpd.f1({"1": [10, 20], "2": [11, 20], "3": [10], "4": [0, 5]}, [10, 20])[0] == 1.0
    assert cpd.f1({"1": [], "2": [10], "3": [50]}, [10])[0] == pytest.approx(0.9090909)
    assert cpd.f1({"1": [], "2": [10], "3": [50]}, [])[0] == pytest.approx(0.8)
    # each prediction counts once, within the margin only
    assert cpd.true_positives({10, 12}, {11}) == 1
    assert cpd.true_positives({10}, {16}) == 0
    assert cpd.true_positives({10}, {15}) == 1


def test_zero_baseline_on_well_log_matches_tcpdbench():
    # TCPDBench's analysis/output/summaries/summary_well_log.json reports the "zero" method
    # (no change points) at F1 0.23702, precision 1.0, recall 0.13444.
    well = next(s for s in cpd.tcpd_series() if s["name"] == "tcpd/well_log")
    score, precision, recall = cpd.f1(well["annotations"], [])
    assert precision == 1.0
    assert recall == pytest.approx(0.134444, abs=1e-5)
    assert score == pytest.approx(0.237023, abs=1e-5)


def test_one_clear_step_is_one_change_point():
    rng = np.random.default_rng(0)
    y = np.concatenate([rng.normal(10, 1, 200), rng.normal(14, 1, 200)])
    found = change_points(y)
    assert len(found) == 1 and abs(found[0] - 200) <= 2


def test_autocorrelated_noise_alone_has_no_change_points():
    # AR(1) noise with phi = 0.8 wanders in runs that a test for independent samples would
    # read as steps; the long-run variance keeps them out.
    for seed in range(5):
        rng = np.random.default_rng(seed)
        e = rng.normal(0, 1, 1000)
        y = np.empty(1000)
        y[0] = e[0]
        for i in range(1, 1000):
            y[i] = 0.8 * y[i - 1] + e[i]
        assert change_points(y) == [], seed


def test_outliers_do_not_open_segments():
    rng = np.random.default_rng(1)
    y = rng.normal(0, 1, 500)
    y[[50, 120, 121, 300]] = [40, -35, -38, 50]
    assert change_points(y) == []


def test_ours_beats_no_change_and_binary_segmentation_on_the_committed_series():
    # TCPD's well_log, run_log and bank are committed, so this runs in CI; the NAB series
    # join when shared/data/nab is present (and the table in bench.nab shows both).
    result = cpd.evaluate(REPO / "no-such-folder")
    assert not result["nab_included"]
    mean = result["mean_f1"]
    # Measured when written: ours 0.896, zero 0.561, binseg 0.353 on these three.
    assert mean["ours"] > mean["zero"]
    assert mean["ours"] > mean["binseg"]
    bank = next(r for r in result["series"] if r["name"] == "tcpd/bank")
    assert bank["ours"]["cps"] == []  # none of bank's five annotators marked a change
