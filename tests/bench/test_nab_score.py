"""NAB's scoring (bench/nab_score.py): hand-made cases, then NAB's own published scores.

The second part scores what NAB's windowedGaussian, numenta and null detectors flagged on
the realAWSCloudwatch files (an extract of NAB's committed results, made by
scripts/nab-reference.py, in bench/data/nab_reference.json) and compares with the per-file
standard-profile scores NAB reported for them, and with the normalised totals those imply.
"""

from __future__ import annotations

import json
import math
import sys

import pytest

from conftest import REPO

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import nab_score as ns

REFERENCE = REPO / "bench" / "data" / "nab_reference.json"


def test_scaled_sigmoid_shape():
    assert ns.scaled_sigmoid(0.0) == 0.0
    assert ns.scaled_sigmoid(-1.0) == pytest.approx(2 / (1 + math.exp(-5)) - 1)
    assert ns.scaled_sigmoid(1e6) == -1.0
    assert ns.scaled_sigmoid(-0.5) > ns.scaled_sigmoid(-0.1) > 0 > ns.scaled_sigmoid(0.2)


def test_detection_on_a_windows_first_record_is_perfect():
    result = ns.score_file([100], [(100, 199)], probation=10)
    assert result.raw == pytest.approx(1.0)
    assert (result.null, result.perfect) == (-1.0, 1.0)
    assert ns.normalised([result]) == pytest.approx(100.0)


def test_later_in_the_window_earns_less_and_only_the_first_counts():
    early = ns.score_file([120], [(100, 199)], 10).raw
    late = ns.score_file([190], [(100, 199)], 10).raw
    assert 1.0 > early > late > 0
    # more detections in the same window change nothing
    assert ns.score_file([120, 130, 190], [(100, 199)], 10).raw == pytest.approx(early)
    # the position is in records: 80 records left of a 100-record window
    expected = ns.scaled_sigmoid(-80 / 100) / ns.scaled_sigmoid(-1)
    assert early == pytest.approx(expected)


def test_false_positives_cost_by_where_they_fall():
    window = [(100, 199)]
    before = ns.score_file([50], window, 10)
    assert before.raw == pytest.approx(-1.0 - 0.11)  # a miss and a full false positive
    assert before.false_positives == 1
    just_after = ns.score_file([200], window, 10).raw
    far_after = ns.score_file([900], window, 10).raw
    assert -1.0 > just_after > far_after
    assert far_after == pytest.approx(-1.11, abs=1e-6)
    assert just_after == pytest.approx(-1.0 + 0.11 * ns.scaled_sigmoid(1 / 99))


def test_probation_detections_are_not_scored():
    result = ns.score_file([5, 150], [(100, 199)], probation=10)
    assert result.ignored == 1
    assert result.detections == 1
    assert result.false_positives == 0
    assert ns.probation_length(4032) == 604
    assert ns.probation_length(1243) == 186
    assert ns.probation_length(20000) == 750


def test_a_file_without_windows_only_loses_on_false_positives():
    result = ns.score_file([700, 800], [], probation=600)
    assert result.raw == pytest.approx(-0.22)
    assert (result.null, result.perfect) == (0.0, 0.0)
    assert ns.normalised([result]) is None


def test_profiles_weigh_misses_and_false_alarms():
    window = [(100, 199)]
    assert ns.score_file([], window, 10, ns.REWARD_LOW_FN).raw == -2.0
    assert ns.score_file([50, 150], window, 10, ns.REWARD_LOW_FP).raw == pytest.approx(
        ns.score_file([150], window, 10).raw - 0.22
    )


def test_timestamps_become_records():
    from datetime import UTC, datetime, timedelta

    t0 = datetime(2014, 2, 14, tzinfo=UTC)
    stamps = [t0 + timedelta(minutes=5 * i) for i in range(100)]
    windows = ns.window_records(stamps, [(stamps[10], stamps[20]), (stamps[50], stamps[60])])
    assert windows == [(10, 20), (50, 60)]
    # a detection between two records is made at the next one; past the end, dropped
    between = stamps[30] + timedelta(minutes=2)
    assert ns.detection_records(stamps, [stamps[12], between, t0 + timedelta(days=30)]) == [12, 31]


# --- NAB's own detectors, scored here and by NAB ---------------------------------------------


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads(REFERENCE.read_text())


def _scores(reference: dict, detector: str) -> dict[str, ns.FileScore]:
    out = {}
    for name, entry in reference["series"].items():
        windows = [(w["first"], w["last"]) for w in entry["windows"]]
        flagged = [i for i, _ in entry["detectors"][detector]["detections"]]
        out[name] = ns.score_file(flagged, windows, ns.probation_length(entry["records"]))
    return out


@pytest.mark.parametrize("detector", ["windowedGaussian", "numenta", "null"])
def test_per_file_scores_match_what_nab_reported(reference, detector):
    scores = _scores(reference, detector)
    assert len(scores) == 17
    for name, result in scores.items():
        reported = reference["series"][name]["detectors"][detector]["reported_score"]
        assert result.raw == pytest.approx(reported, abs=1e-6), name


def test_normalised_totals_on_the_aws_files(reference):
    # From NAB's reported per-file scores: null -30 raw over the 30 windows, perfect +30.
    totals = {}
    for detector in ("windowedGaussian", "numenta", "null"):
        reported = [
            e["detectors"][detector]["reported_score"] for e in reference["series"].values()
        ]
        implied = 100 * (sum(reported) + 30) / 60
        scores = _scores(reference, detector)
        totals[detector] = ns.normalised(scores.values())
        assert totals[detector] == pytest.approx(implied, abs=1e-5)
    assert totals["null"] == 0.0
    assert totals["windowedGaussian"] == pytest.approx(31.24, abs=0.01)
    assert totals["numenta"] == pytest.approx(73.42, abs=0.01)
