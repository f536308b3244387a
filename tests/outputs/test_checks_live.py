"""`incidentbook check` against real servers: Debian's prometheus (backfilled by promtool)
and victoria-metrics (imported over HTTP), each serving the bundled SmolLM3 incident and a
quiet day of the same cluster a week later (tests/quiet_days.py); Prometheus also serves
the first two hours of the Imbue bring-up, log signature counters included.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from click.testing import CliRunner
from quiet_days import smollm3_quiet_day
from servers import backfill, openmetrics_in_ms, prometheus, victoria_metrics, vm_import

from conftest import LIBRARY, REPO, require_binary
from incidentbook.cli import main
from incidentbook.incident import IncidentFolder
from incidentbook.outputs.export import export_openmetrics
from incidentbook.record.check_eval import evaluate_folder
from incidentbook.record.checks import compile_case
from incidentbook.record.store import load_record
from incidentbook.window import TimeWindow

SMOLLM3 = REPO / "data" / "incidents" / "smollm3-storage"
IMBUE = REPO / "data" / "incidents" / "imbue-bringup"
SPEC = IncidentFolder(SMOLLM3).spec
SMOLLM3_CHECKS = {"shared-fs-read-latency", "shared-fs-near-capacity"}


@pytest.fixture(scope="module")
def quiet(tmp_path_factory):
    return smollm3_quiet_day(tmp_path_factory.mktemp("quiet") / "smollm3-quiet")


@pytest.fixture(scope="module")
def exports(quiet, tmp_path_factory):
    out = tmp_path_factory.mktemp("om")
    return [
        export_openmetrics(SMOLLM3, out / "incident.om", logs=True),
        export_openmetrics(quiet, out / "quiet.om", logs=True),
    ]


@pytest.fixture(scope="module")
def prom(exports, tmp_path_factory):
    binary = require_binary("prometheus", "prometheus")
    promtool = require_binary("promtool", "prometheus")
    work = tmp_path_factory.mktemp("prometheus")
    for path, _ in exports:
        backfill(path, work / "tsdb", promtool)
    with prometheus(work / "tsdb", work, binary) as server:
        yield server.url


@pytest.fixture(scope="module")
def victoria(exports, quiet, tmp_path_factory):
    binary = require_binary("victoria-metrics", "victoria-metrics")
    work = tmp_path_factory.mktemp("victoria")
    with victoria_metrics(work / "data", work, binary) as server:
        total = 0
        for path, samples in exports:
            total += samples
            end = IncidentFolder(quiet).spec.window.end.timestamp()
            vm_import(server, openmetrics_in_ms(path), total, end)
        yield server.url


def run_check(url: str, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(
        main, ["check", str(LIBRARY), "--source", f"prometheus+{url}", "--json", *args]
    )
    assert result.exit_code in {0, 1}, result.output
    return result.exit_code, json.loads(result.stdout)


def window_args(window: TimeWindow) -> list[str]:
    return ["--start", window.start.isoformat(), "--end", window.end.isoformat()]


@pytest.mark.parametrize("server", ["prom", "victoria"])
def test_the_smollm3_precursors_are_reported_on_its_incident(server, request):
    url = request.getfixturevalue(server)
    status, found = run_check(url, *window_args(SPEC.window))
    assert status == 1
    fired = {f["check"]: f for f in found["fired"]}
    assert set(fired) == SMOLLM3_CHECKS  # and none of Imbue's
    assert all(f["case"] == "smollm3-storage-throughput-drops" for f in fired.values())
    assert fired["shared-fs-near-capacity"]["case_url"].endswith(
        "cases/smollm3-storage-throughput-drops.html"
    )
    # The same hosts and times as the evaluation of the folder's own data.
    record = load_record(LIBRARY / "smollm3-storage-throughput-drops.yaml")
    local = {f.rule.id: f for f in evaluate_folder(compile_case(record), SMOLLM3)}
    for check_id, got in fired.items():
        hosts = {h["node"] for h in got["hosts"]}
        assert hosts == set(local[check_id].hosts)
        first = min(h["fired"] for h in got["hosts"])
        expected = local[check_id].first_fired
        rate = local[check_id].rule.rate_window or timedelta(0)
        delta = abs(expected - type(expected).fromisoformat(first))
        assert delta <= rate + timedelta(minutes=1), (check_id, first, expected)


@pytest.mark.parametrize("server", ["prom", "victoria"])
def test_at_a_moment_only_what_holds_then(server, request):
    url = request.getfixturevalue(server)
    # In the middle of the first eviction (read latency spike 09:16:49-09:19:54).
    status, found = run_check(url, "--at", "2025-03-14T09:19:30Z")
    assert status == 1
    assert {f["check"] for f in found["fired"]} == SMOLLM3_CHECKS
    latency = next(f for f in found["fired"] if f["check"] == "shared-fs-read-latency")
    assert all(h["since"] >= "2025-03-14T09:1" for h in latency["hosts"])
    near = next(f for f in found["fired"] if f["check"] == "shared-fs-near-capacity")
    assert min(h["since"] for h in near["hosts"]) == "2025-03-14T08:00:00+00:00"
    # Between evictions the filesystem is still full, the reads are fast again.
    status, found = run_check(url, "--at", "2025-03-14T10:15:00Z")
    assert status == 1
    assert {f["check"] for f in found["fired"]} == {"shared-fs-near-capacity"}


@pytest.mark.parametrize("server", ["prom", "victoria"])
def test_nothing_on_a_quiet_day(server, request, quiet):
    url = request.getfixturevalue(server)
    status, found = run_check(url, *window_args(IncidentFolder(quiet).spec.window))
    assert status == 0
    assert found["fired"] == []
    assert len(found["silent"]) == 8  # every check of both cases was evaluated
    text = CliRunner().invoke(
        main,
        [
            "check",
            str(LIBRARY),
            "--source",
            f"prometheus+{url}",
            *window_args(IncidentFolder(quiet).spec.window),
        ],
    )
    assert text.exit_code == 0 and "No past incident's precursors are present" in text.stdout


def test_errors_exit_2(prom):
    dead = CliRunner().invoke(main, ["check", "--source", "prometheus+http://127.0.0.1:1"])
    assert dead.exit_code == 2 and "error:" in dead.output
    both = CliRunner().invoke(
        main,
        [
            "check",
            "--source",
            f"prometheus+{prom}",
            "--at",
            "2025-03-14T09:00:00Z",
            "--start",
            "2025-03-14T09:00:00Z",
            "--end",
            "2025-03-14T10:00:00Z",
        ],
    )
    assert both.exit_code == 2
    bad = CliRunner().invoke(main, ["check", "--source", f"prometheus+{prom}", "--at", "noon"])
    assert bad.exit_code == 2 and "RFC 3339" in bad.output


def test_the_imbue_precursors_on_prometheus(tmp_path):
    binary = require_binary("prometheus", "prometheus")
    promtool = require_binary("promtool", "prometheus")
    spec = IncidentFolder(IMBUE).spec
    window = TimeWindow(start=spec.window.start, end=spec.window.start + timedelta(hours=2))
    path, _ = export_openmetrics(IMBUE, tmp_path / "imbue.om", window, logs=True)
    backfill(path, tmp_path / "tsdb", promtool)
    with prometheus(tmp_path / "tsdb", tmp_path, binary) as server:
        status, found = run_check(server.url, *window_args(window))
    assert status == 1
    fired = {f["check"]: {h["node"] for h in f["hosts"]} for f in found["fired"]}
    record = load_record(LIBRARY / "imbue-h100-cluster-bringup.yaml")
    local = {f.rule.id: set(f.hosts) for f in evaluate_folder(compile_case(record), IMBUE, window)}
    assert (
        set(fired)
        == {k for k, v in local.items() if v}
        == {
            "host-not-up",
            "pcie-link-downtrained",
            "infiniband-link-flaps",
            "fans-pinned",
            "cpu-clock-capped",
            "nvme-hang",  # h100-r23-n10's drive, at 15:51, from the log counter
        }
    )
    assert fired == {k: v for k, v in local.items() if v}
