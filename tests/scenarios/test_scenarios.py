"""The proof of issue 3: on both bundled scenarios the findings match what was planted.

Tolerances: times within two sampling intervals (the detector sees samples, the
simulator plants events between them); magnitudes within 0.1 of the planted depth.
"""

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.metrics.signals import load_pack

INCIDENTS = REPO / "data" / "incidents"


def _truth(name: str) -> dict:
    return json.loads((INCIDENTS / name / "truth.json").read_text())


def _t(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.fixture(scope="module")
def smollm3():
    return _truth("smollm3-storage"), investigate(INCIDENTS / "smollm3-storage").analysis


@pytest.fixture(scope="module", params=["smollm3-storage", "smollm3-storage-trainer-log"])
def smollm3_any(request):
    """The bundled incident, and its variant whose throughput comes only from nanotron's
    log (no trainer gauges in metrics/): the same story either way."""
    return _truth(request.param), investigate(INCIDENTS / request.param).analysis


@pytest.fixture(scope="module")
def imbue():
    return _truth("imbue-bringup"), investigate(INCIDENTS / "imbue-bringup").analysis


def test_smollm3_every_planted_drop_is_found_and_nothing_else(smollm3_any):
    truth, analysis = smollm3_any
    every = max(truth["interval_seconds"], truth.get("throughput_interval_seconds", 0))
    slack = timedelta(seconds=2 * every)
    found = [f for f in analysis.findings if f.kind == "drop" and f.signal == "throughput"]
    planted = truth["planted"]["drops"]
    assert len(found) == len(planted)
    for f, p in zip(found, planted, strict=True):
        assert abs(f.start - _t(p["start"])) <= slack
        assert abs(f.end - _t(p["end"])) <= slack
        assert abs(-f.magnitude - p["depth"]) <= 0.1


def test_smollm3_disk_read_latency_is_named_as_what_coincided(smollm3_any):
    _, analysis = smollm3_any
    best = analysis.correlations[0]
    assert best.signal == "disk_read_latency"
    assert best.score >= 0.9
    assert best.lag_seconds <= 0  # it leads the drops
    ranked = [c.signal for c in analysis.correlations]
    assert "load" not in ranked[:3]  # the decoy spikes at unrelated times


def test_smollm3_trainer_log_variant_has_no_trainer_gauges():
    folder = INCIDENTS / "smollm3-storage-trainer-log"
    names = {p.name for p in (folder / "metrics").iterdir()}
    assert "trainer.parquet" not in names
    analysis = investigate(folder, signals=["throughput", "disk_read_latency"]).analysis
    assert analysis.receipt.origins["throughput"] == "trainer_log"
    assert analysis.receipt.origins["disk_read_latency"] == "metrics"


def test_smollm3_slow_causes_show_as_trends(smollm3):
    truth, analysis = smollm3
    loader = next(
        f for f in analysis.findings if f.kind == "trend" and f.signal == "dataloader_time"
    )
    planted = truth["planted"]["dataloader_trend"]
    assert loader.value == pytest.approx(planted["end_s"], rel=0.15)
    fs = [
        f
        for f in analysis.findings
        if f.signal == "fs_used_ratio" and f.kind in {"trend", "level_shift"}
    ]
    assert fs
    assert max(f.value for f in fs) == pytest.approx(
        truth["planted"]["fs_used_ratio"]["end"], abs=0.02
    )


def _hosts(analysis, kind: str, signal: str, direction: str | None = None) -> set[str]:
    out = set()
    for f in analysis.findings:
        wanted = direction is None or (direction == "up") == (f.magnitude > 0)
        if f.kind == kind and f.signal == signal and wanted:
            out |= set(f.hosts)
    return out


def test_imbue_failed_host_fraction_and_hosts(imbue):
    truth, analysis = imbue
    planted = {h["host"] for h in truth["planted"]["failed_hosts"]}
    never = next(
        f for f in analysis.findings if f.kind == "failure_rate" and "never came up" in f.summary
    )
    assert set(never.hosts) == planted
    assert never.value == pytest.approx(truth["planted"]["failed_fraction"], abs=0.005)


def test_imbue_hosts_lost_to_nvme_hangs(imbue):
    truth, analysis = imbue
    hangs = truth["planted"]["nvme_hangs"]
    lost = next(
        f for f in analysis.findings if f.kind == "failure_rate" and "went down" in f.summary
    )
    assert set(lost.hosts) == {h["host"] for h in hangs}
    first = min(_t(h["at"]) for h in hangs)
    assert abs(lost.start - first) <= timedelta(seconds=2 * truth["interval_seconds"])


def test_imbue_downtrained_flapping_capped_and_hot_hosts(imbue):
    truth, analysis = imbue
    planted = truth["planted"]
    assert _hosts(analysis, "outlier_host", "pcie_link_width") == {
        d["host"] for d in planted["downtrained"]
    }
    assert _hosts(analysis, "outlier_host", "ib_port_errors") == {
        d["host"] for d in planted["flapping_ports"]
    }
    assert _hosts(analysis, "outlier_host", "cpu_freq") == {
        d["host"] for d in planted["cpu_capped"]
    }
    assert _hosts(analysis, "outlier_host", "fan_speed") == {
        d["host"] for d in planted["thermal_misreading"]
    }


def test_imbue_mfu_dips_are_found(imbue):
    truth, analysis = imbue
    slack = timedelta(seconds=2 * truth["interval_seconds"])
    found = [f for f in analysis.findings if f.kind == "drop" and f.signal == "mfu"]
    planted = truth["planted"]["mfu_dips"]
    matched = [
        p for p in planted if any(f.start - slack <= _t(p["start"]) <= f.end + slack for f in found)
    ]
    assert len(matched) >= len(planted) - 1  # two dips three minutes apart may merge
    assert len(found) <= len(planted)


def test_analyze_json_is_the_users_contract():
    exe = Path(sys.executable).with_name("incidentbook")
    out = subprocess.run(
        [str(exe), "analyze", str(INCIDENTS / "smollm3-storage"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    assert {"findings", "correlations"} <= set(data)
    keys = {"kind", "signal", "start", "end", "magnitude", "hosts"}
    assert all(keys <= set(f) for f in data["findings"])
    assert data["correlations"][0]["signal"] == "disk_read_latency"
    assert all({"signal", "score"} <= set(c) for c in data["correlations"])
    # best first: candidate causes by score, then the effects (signals that move with the
    # job's own pace), each group by score
    roles = {name: s.role for name, s in load_pack().signals.items()}
    keys = [(roles[c["signal"]] != "cause", -round(c["score"], 2)) for c in data["correlations"]]
    assert keys == sorted(keys)


def test_analysis_is_deterministic(smollm3):
    _, first = smollm3
    second = investigate(INCIDENTS / "smollm3-storage").analysis
    assert first.findings == second.findings
    assert first.correlations == second.correlations


@pytest.fixture(scope="module")
def imbue_logs():
    inv = investigate(INCIDENTS / "imbue-bringup", signals=["mfu", "node_up"])
    return _truth("imbue-bringup"), inv


def _signature_hosts(inv, key: str) -> set[str]:
    return {h for f in inv.findings if f.kind == "signature" and f.signal == key for h in f.hosts}


def test_imbue_logs_name_the_broken_hosts_and_their_signatures(imbue_logs):
    truth, inv = imbue_logs
    planted = truth["planted"]
    assert _signature_hosts(inv, "pcie-link-downtrained") == {
        d["host"] for d in planted["downtrained"]
    }
    assert _signature_hosts(inv, "nvme-io-timeout") == {d["host"] for d in planted["nvme_hangs"]}
    assert _signature_hosts(inv, "nic-link-down") == {d["host"] for d in planted["flapping_ports"]}
    for xid in planted["xid"]:
        assert _signature_hosts(inv, f"nvidia-xid:{xid['code']}") == {xid["host"]}
    # every line was read, none was lost
    assert inv.log_receipt.lines_read == inv.log_receipt.in_window + inv.log_receipt.outside_window
    assert not inv.log_receipt.unreadable


def test_imbue_log_rates_are_counted_per_host_and_bucket(imbue_logs):
    truth, inv = imbue_logs
    counts = inv.logs.counts
    flaps = counts.filter(pl.col("key") == "nic-link-down")
    assert set(flaps.get_column("host")) == {d["host"] for d in truth["planted"]["flapping_ports"]}
    assert flaps.get_column("count").sum() == inv.logs.signatures.filter(
        pl.col("key") == "nic-link-down"
    ).item(0, "count")
