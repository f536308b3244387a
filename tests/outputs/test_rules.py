"""Prometheus rules from the library's checks, checked by promtool; and the promtool unit
tests generated from each case's own incident folder, run by promtool.

The quiet days are those of tests/quiet_days.py (no quiet scenario in `incidentbook synth`
yet); the incident's own baseline is shown not to be one for SmolLM3's filesystem check.
"""

from __future__ import annotations

import subprocess
from datetime import timedelta

import pytest
import yaml
from click.testing import CliRunner
from quiet_days import imbue_quiet_day, smollm3_quiet_day

from conftest import LIBRARY, REPO, require_binary
from incidentbook.cli import main
from incidentbook.incident import IncidentFolder
from incidentbook.outputs.rules import rule_tests, rule_tests_text
from incidentbook.record.store import load_record
from incidentbook.window import TimeWindow

INCIDENTS = REPO / "data" / "incidents"
CASES = {
    "smollm3-storage-throughput-drops": "smollm3-storage",
    "imbue-h100-cluster-bringup": "imbue-bringup",
}


@pytest.fixture(scope="module")
def promtool() -> str:
    return require_binary("promtool", "prometheus")


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("rules") / "rules.yml"
    result = CliRunner().invoke(main, ["checks", "export", str(LIBRARY), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out, yaml.safe_load(out.read_text())


@pytest.fixture(scope="module")
def quiet_days(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("quiet")
    return {
        "smollm3-storage": smollm3_quiet_day(out / "smollm3"),
        "imbue-bringup": imbue_quiet_day(out / "imbue", minutes=60),
    }


def promtool_run(promtool: str, *args) -> subprocess.CompletedProcess:
    return subprocess.run([promtool, *map(str, args)], capture_output=True, text=True, timeout=600)


def test_promtool_accepts_the_rules(rules, promtool):
    path, _ = rules
    done = promtool_run(promtool, "check", "rules", path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 8 rules found" in done.stdout


def test_one_group_per_case_with_its_labels_and_link(rules):
    _, doc = rules
    groups = {g["name"]: g["rules"] for g in doc["groups"]}
    assert set(groups) == set(CASES)
    smol = {r["alert"]: r for r in groups["smollm3-storage-throughput-drops"]}
    assert set(smol) == {"SharedFsReadLatency", "SharedFsNearCapacity"}
    rule = smol["SharedFsNearCapacity"]
    assert rule["for"] == "10m"
    assert rule["expr"] == (
        "max by (node) (1 - node_filesystem_avail_bytes / node_filesystem_size_bytes) > 0.9"
    )
    assert rule["labels"] == {
        "severity": "warning",
        "case": "smollm3-storage-throughput-drops",
        "check": "shared-fs-near-capacity",
        "root_causes": "shared-filesystem-capacity,cache-eviction,dataloader-scaling-bug",
        "components": "shared-filesystem,dataloader,training-framework",
        "symptom_tags": "throughput-drop,disk-read-latency-spike,noisy-loss",
        "contributing_factors": (
            "ablations-not-representative-of-scale,storage-near-capacity,deadline-pressure"
        ),
        "signal": "fs_used_ratio",
    }
    notes = rule["annotations"]
    assert notes["case_url"] == "cases/smollm3-storage-throughput-drops.html"
    assert notes["summary"].startswith("{{ $labels.node }}: fs_used_ratio > 0.9 for 10m")
    assert "90% full" in notes["description"]
    imbue = {r["alert"]: r for r in groups["imbue-h100-cluster-bringup"]}
    assert "for" not in imbue["NvmeHang"]  # a log line is news at once
    assert 'signature="nvme-io-timeout"' in imbue["NvmeHang"]["expr"]


def test_base_url_and_selectors(tmp_path, promtool):
    out = tmp_path / "rules.yml"
    args = ["checks", "export", "-o", str(out), "--base-url", "https://wiki.example/library/"]
    result = CliRunner().invoke(main, [*args, "--selector", "cluster=hf-smollm3"])
    assert result.exit_code == 0, result.output
    doc = yaml.safe_load(out.read_text())
    rule = doc["groups"][1]["rules"][1]
    assert rule["annotations"]["case_url"] == (
        "https://wiki.example/library/cases/smollm3-storage-throughput-drops.html"
    )
    assert 'node_filesystem_avail_bytes{cluster="hf-smollm3"}' in rule["expr"]
    assert promtool_run(promtool, "check", "rules", out).returncode == 0


def _generate(case: str, rules_path, quiet, tmp_path, window=None) -> tuple:
    record = load_record(LIBRARY / f"{case}.yaml")
    tests = rule_tests(record, INCIDENTS / CASES[case], rules_path.name, window=window, quiet=quiet)
    path = rules_path.parent / f"{case}.test.yml"
    path.write_text(rule_tests_text(tests))
    return tests, path


def test_smollm3_rules_fire_on_its_incident_and_not_on_a_quiet_day(rules, quiet_days, promtool):
    rules_path, _ = rules
    tests, path = _generate(
        "smollm3-storage-throughput-drops", rules_path, quiet_days["smollm3-storage"], None
    )
    assert tests.notes == []
    assert set(tests.fires) == {"shared-fs-read-latency", "shared-fs-near-capacity"}
    assert len(tests.fires["shared-fs-near-capacity"][1]) == 48  # the one shared filesystem
    assert all(n >= 5 for n in tests.quiet_times.values())
    done = promtool_run(promtool, "test", "rules", path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_imbue_rules_fire_on_its_incident_and_not_on_a_quiet_day(rules, quiet_days, promtool):
    rules_path, _ = rules
    # The first two hours hold every precursor (boots, x4 links, flaps, the first NVMe
    # hang at 15:51) and keep promtool's run short.
    spec = IncidentFolder(INCIDENTS / "imbue-bringup").spec
    window = TimeWindow(start=spec.window.start, end=spec.window.start + timedelta(hours=2))
    tests, path = _generate(
        "imbue-h100-cluster-bringup", rules_path, quiet_days["imbue-bringup"], None, window
    )
    assert tests.notes == []
    assert set(tests.fires) == {
        "host-not-up",
        "pcie-link-downtrained",
        "infiniband-link-flaps",
        "fans-pinned",
        "cpu-clock-capped",
        "nvme-hang",
    }
    assert len(tests.fires["host-not-up"][1]) == 51  # the tenth that never came up
    assert len(tests.fires["pcie-link-downtrained"][1]) == 6
    done = promtool_run(promtool, "test", "rules", path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_the_generated_tests_fail_when_a_rule_no_longer_catches_its_incident(
    rules, quiet_days, promtool, tmp_path
):
    rules_path, doc = rules
    _, path = _generate(
        "smollm3-storage-throughput-drops", rules_path, quiet_days["smollm3-storage"], None
    )
    for group in doc["groups"]:
        for rule in group["rules"]:
            rule["expr"] = rule["expr"].replace("> 0.9", "> 0.99")  # never reached
    (tmp_path / rules_path.name).write_text(yaml.safe_dump(doc))
    (tmp_path / path.name).write_text(path.read_text())
    done = promtool_run(promtool, "test", "rules", tmp_path / path.name)
    assert done.returncode == 1
    said = done.stdout + done.stderr
    assert "SharedFsNearCapacity" in said and "got:[]" in said


def test_the_incidents_own_baseline_is_no_quiet_day_for_the_filesystem_check(
    rules, promtool, tmp_path
):
    rules_path, _ = rules
    record = load_record(LIBRARY / "smollm3-storage-throughput-drops.yaml")
    tests = rule_tests(record, INCIDENTS / "smollm3-storage", rules_path.name)
    assert tests.notes == [
        "shared-fs-near-capacity: fires on the quiet data of smollm3-storage (48 episodes); "
        "its quiet-day test will fail"
    ]
    path = rules_path.parent / "baseline.test.yml"
    path.write_text(rule_tests_text(tests))
    done = promtool_run(promtool, "test", "rules", path)
    assert done.returncode == 1
    failed = [
        ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip().startswith("name:")
    ]
    assert failed and all("shared-fs-near-capacity on a quiet day" in ln for ln in failed)


def test_checks_tests_cli(rules, quiet_days, promtool):
    rules_path, _ = rules
    out = rules_path.parent / "cli.test.yml"
    result = CliRunner().invoke(
        main,
        [
            "checks",
            "tests",
            str(LIBRARY / "smollm3-storage-throughput-drops.yaml"),
            str(INCIDENTS / "smollm3-storage"),
            "-o",
            str(out),
            "--rules",
            rules_path.name,
            "--quiet",
            str(quiet_days["smollm3-storage"]),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "shared-fs-near-capacity: fires at" in result.stderr
    assert promtool_run(promtool, "test", "rules", out).returncode == 0
