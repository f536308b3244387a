"""The Loghub benchmark (bench/loghub.py): GA on hand-made groupings, then the real run."""

from __future__ import annotations

import json
import random
import sys

import polars as pl
import pytest

from conftest import REPO, missing

if str(REPO) not in sys.path:  # `pytest` (not `python -m pytest`) leaves the root off the path
    sys.path.insert(0, str(REPO))

from bench import loghub
from incidentbook.logs.signatures import load_catalog

GA = loghub.grouping_accuracy


def brute_force_ga(predicted: list, truth: list) -> float:
    """Zhu et al.'s definition read literally: message i is right iff its two groups are equal."""
    n = len(truth)
    correct = 0
    for i in range(n):
        in_pred = {j for j in range(n) if predicted[j] == predicted[i]}
        in_true = {j for j in range(n) if truth[j] == truth[i]}
        correct += in_pred == in_true
    return correct / n


# --- grouping accuracy on hand-made groupings -----------------------------------------------


def test_perfect_grouping_is_one_whatever_the_labels_are_called():
    truth = ["E1", "E1", "E2", "E3", "E3", "E3"]
    assert GA([7, 7, 3, 1, 1, 1], truth) == 1.0
    assert GA(truth, truth) == 1.0


def test_one_merged_pair_loses_both_groups():
    # E1 (2 lines) and E2 (2 lines) share predicted group 1: all four lines are wrong.
    truth = ["E1", "E1", "E2", "E2", "E3"]
    assert GA([1, 1, 1, 1, 2], truth) == pytest.approx(1 / 5)


def test_one_split_group_loses_all_its_lines():
    # E1's three lines fall in two predicted groups: none of them is right, E2's line is.
    truth = ["E1", "E1", "E1", "E2"]
    assert GA([1, 1, 2, 3], truth) == pytest.approx(1 / 4)


def test_a_singleton_split_off_costs_the_whole_group():
    truth = ["E1"] * 9 + ["E2"]
    assert GA([1] * 8 + [2, 3], truth) == pytest.approx(1 / 10)


def test_label_permutation_and_role_swap_change_nothing():
    rng = random.Random(7)
    truth = [rng.choice("abcdef") for _ in range(60)]
    predicted = [rng.choice(range(5)) if rng.random() < 0.3 else "abcdef".index(t) for t in truth]
    base = GA(predicted, truth)
    relabel = dict(zip(range(6), rng.sample(range(100, 106), 6), strict=True))
    assert GA([relabel[p] for p in predicted], truth) == base
    assert GA(predicted, [t.upper() for t in truth]) == base
    assert GA(truth, predicted) == base  # set equality is symmetric


def test_agrees_with_the_literal_definition_on_random_groupings():
    rng = random.Random(2019)
    for _ in range(30):
        n = rng.randint(1, 40)
        truth = [rng.randint(0, 6) for _ in range(n)]
        predicted = [t if rng.random() < 0.7 else rng.randint(0, 6) for t in truth]
        assert GA(predicted, truth) == pytest.approx(brute_force_ga(predicted, truth))


def test_accepts_polars_series_and_rejects_bad_input():
    assert GA(pl.Series([1, 1, 2]), pl.Series(["a", "a", "b"])) == 1.0
    with pytest.raises(ValueError, match="predicted labels"):
        GA([1, 2], ["a"])
    with pytest.raises(ValueError, match="undefined"):
        GA([], [])


# --- pieces without the data ----------------------------------------------------------------


def test_alert_rule_flags_error_and_critical_signatures_only():
    # A positive control: the pipeline does flag lines the catalog knows, so a zero on
    # Loghub is the catalog's reach, not broken plumbing.
    catalog = load_catalog()
    severities = {s.id: s.severity for s in catalog.signatures}
    assert severities["kernel-panic"] == "critical"
    assert severities["hung-task"] == "warning"
    frame = pl.DataFrame(
        {
            "Content": [
                "Kernel panic - not syncing: Fatal exception",
                "INFO: task python:123 blocked for more than 120 seconds.",
                "instruction cache parity error corrected",
            ]
        }
    )
    flagged = loghub.flag_alerts(frame, "Content", catalog)
    assert flagged.get_column("signature").to_list() == ["kernel-panic", "hung-task", None]
    assert flagged.get_column("alert").to_list() == [True, False, False]


def test_missing_data_exits_2(tmp_path, capsys):
    assert loghub.main(["--data", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert "Loghub data not found" in err
    assert "absent" in err


def test_incomplete_data_exits_2(tmp_path, capsys):
    (tmp_path / "BGL").mkdir()
    assert loghub.main(["--data", str(tmp_path)]) == 2
    assert "BGL_2k.log" in capsys.readouterr().err


# --- the real run ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loghub_data(shared):
    data = shared / "data" / "loghub"
    if not (data / "BGL" / "BGL_2k.log_structured.csv").is_file():
        missing(f"needs Loghub's 2k samples at {data}")
    return data


@pytest.fixture(scope="module")
def result(loghub_data):
    return loghub.evaluate(loghub_data)


def test_every_data_set_is_evaluated(result):
    names = ["BGL", "HPC", "Linux", "OpenSSH", "HDFS", "Thunderbird"]
    assert [r["name"] for r in result["grouping"]["rows"]] == names
    assert [r["name"] for r in result["alerts"]["rows"]] == names
    for row in result["grouping"]["rows"]:
        assert row["lines"] == 2000
        assert 0.0 <= row["ga"] <= 1.0
        assert row["published_drain"] == loghub.PUBLISHED_DRAIN[row["name"]]
    labelled = [r["name"] for r in result["alerts"]["rows"] if r["labelled"]]
    # HPC's Flag column is not a label (shared/data/README.md); Thunderbird's tags are
    assert labelled == ["BGL", "Thunderbird"]


def test_grouping_accuracy_floors(result):
    # Measured (mine_templates defaults, similarity 0.4, depth 4; the same on both ground
    # truths except OpenSSH 0.7195 on the corrected one): BGL 0.9685, HPC 0.8870,
    # Linux 0.6840, OpenSSH 0.7180, HDFS 0.9975. Published Drain (per-data-set settings):
    # 0.963, 0.887, 0.690, 0.788, 0.998. Floors sit about 0.02 below what was measured.
    # Thunderbird (kept in tests/logs/corpus): measured 0.9575.
    floors = {
        "BGL": 0.95,
        "HPC": 0.865,
        "Linux": 0.66,
        "OpenSSH": 0.70,
        "HDFS": 0.975,
        "Thunderbird": 0.935,
    }
    for row in result["grouping"]["rows"]:
        assert row["ga"] >= floors[row["name"]], row
        assert row["ga_corrected"] >= floors[row["name"]], row


def test_bgl_grouping_matches_published_drain(result):
    bgl = next(r for r in result["grouping"]["rows"] if r["name"] == "BGL")
    assert abs(bgl["ga"] - loghub.PUBLISHED_DRAIN["BGL"]) <= 0.05


def test_bgl_alerts_counted_honestly(result):
    bgl = next(r for r in result["alerts"]["rows"] if r["name"] == "BGL")
    assert bgl["alerts"] == 143  # shared/data/README.md
    assert sum(c["lines"] for c in bgl["categories"]) == 143
    assert len(bgl["categories"]) == 12
    scored = bgl["content"]
    assert scored["tp"] + scored["fn"] == 143
    # Measured: the GPU-cluster catalog takes no BGL line at all (TP 0, FP 0, FN 143 on
    # Content), so precision is undefined and recall is 0.0; every category (KERNDTLB,
    # KERNSTOR, APPSEV, ...) is missed. What is stable: no false alarm from a signature.
    assert scored["fp"] == 0
    # The pipeline (log readers + catalog + is_alert) reads the Blue Gene RAS level the
    # format states, as the line's words bear it out (register dumps, the job's own
    # errors such as a missing program image, and err lines that name no failure are not
    # alerts). Measured: TP 143, FP 25, FN 0: precision 0.851, recall 1.0, F1 0.920 (it was
    # precision 0.362 on the stated level alone).
    pipeline = bgl["raw"]
    assert pipeline["recall"] == 1.0
    assert pipeline["f1"] >= 0.9
    # The labels are reachable: BGL's own Level field finds every alert (precision 0.41).
    assert bgl["reference_level"]["recall"] == 1.0


def test_thunderbird_is_read_whole_and_raises_no_alert(result):
    # All 2,000 lines of the sample are tagged "-" (no alert) by Loghub.
    tb = next(r for r in result["alerts"]["rows"] if r["name"] == "Thunderbird")
    assert tb["alerts"] == 0
    assert tb["flagged_raw"] == 0 and tb["raw"]["fp"] == 0
    assert tb["read_raw"] == 2000


def test_render_and_json_report_the_same_run(result):
    text = loghub.render(result)
    for name in ("BGL", "HPC", "Linux", "OpenSSH", "HDFS", "KERNDTLB", "ALL"):
        assert name in text
    assert "logpai/loghub" in text
    assert "no labels" in text
    assert "Wall time" in text
    assert json.loads(json.dumps(result)) == result
