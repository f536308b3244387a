"""Checks drafted from the analysis, and evaluated on an incident's own data."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from conftest import LIBRARY, REPO
from incidentbook.investigation import investigate
from incidentbook.metrics.signals import load_pack
from incidentbook.record.check_draft import FoundSignature, draft_checks
from incidentbook.record.check_eval import evaluate_folder, lead, symptom_onset
from incidentbook.record.checks import compile_case
from incidentbook.record.draft import draft_record
from incidentbook.record.store import load_record

INCIDENTS = REPO / "data" / "incidents"
PACK = load_pack("default")


def test_a_cause_signal_becomes_a_check_that_fires_on_the_way_there():
    checks = draft_checks(PACK.get("disk_read_latency"), 0.04, 0.0008, timedelta(minutes=3), [])
    (check,) = checks
    assert check.drafted and check.kind == "promql"
    assert (check.signal, check.op, check.threshold) == ("disk_read_latency", ">", 0.0204)
    assert check.for_ == "1m" and check.rate_window == "2m"
    assert check.expr == PACK.get("disk_read_latency").promql
    # A signal that hurts when it falls is checked from below.
    (cpu,) = draft_checks(PACK.get("cpu_freq"), 2.0e9, 3.6e9, timedelta(hours=2), [])
    assert (cpu.op, cpu.threshold, cpu.for_) == ("<", 2.8e9, "30m")


def test_signatures_found_become_log_checks_errors_first():
    found = [
        FoundSignature("nvme-io-timeout", "error", "An NVMe command did not complete."),
        FoundSignature("pcie-link-downtrained", "warning"),
        FoundSignature("nvidia-xid", "critical", xid=79, label="Xid 79"),
    ]
    checks = draft_checks(None, None, None, None, found)
    assert [(c.id, c.signature, c.xid, c.severity) for c in checks] == [
        ("log-nvme-io-timeout", "nvme-io-timeout", None, "warning"),
        ("log-nvidia-xid-79", "nvidia-xid", 79, "critical"),
    ]
    assert all(c.drafted and c.window == "10m" and c.count == 1 for c in checks)


@pytest.fixture(scope="module")
def smollm3():
    return investigate(INCIDENTS / "smollm3-storage")


def test_the_workbook_drafts_checks_from_its_analysis(smollm3):
    record = draft_record(smollm3, library=LIBRARY)
    assert "checks" in record.drafted
    (check,) = record.checks  # disk read latency, today's top cause; no error signature
    assert check.signal == "disk_read_latency" and check.drafted
    assert 0.0008 < check.threshold < 0.05


def test_the_report_lists_the_checks_that_would_have_caught_it(smollm3):
    record = draft_record(smollm3, library=LIBRARY)
    ev = record.evidence
    assert ev.symptom_onset.isoformat() == "2025-03-14T09:18:00+00:00"
    hits = {(h.case, h.check): h for h in ev.checks_fired}
    near = hits[("smollm3-storage-throughput-drops", "shared-fs-near-capacity")]
    latency = hits[("smollm3-storage-throughput-drops", "shared-fs-read-latency")]
    assert near.lead_seconds == 68 * 60  # 08:10, once 90% full had held for 10 minutes
    assert -180 <= latency.lead_seconds <= 60  # with the first eviction, not before it
    assert len(near.hosts) == 48
    assert ("smollm3-storage", "disk-read-latency") in hits
    assert not any(h.case == "imbue-h100-cluster-bringup" for h in ev.checks_fired)


def test_the_imbue_checks_on_its_own_data():
    record = load_record(LIBRARY / "imbue-h100-cluster-bringup.yaml")
    inv = investigate(INCIDENTS / "imbue-bringup", logs=False)
    onset = symptom_onset(inv.findings, inv.spec.primary_signal)
    firings = {f.rule.id: f for f in evaluate_folder(compile_case(record), inv.folder)}
    assert len(firings["host-not-up"].hosts) == 54  # 51 never up, 3 hung by their NVMe
    assert len(firings["pcie-link-downtrained"].hosts) == 6
    assert len(firings["infiniband-link-flaps"].hosts) == 5
    assert len(firings["fans-pinned"].hosts) == 4
    assert len(firings["cpu-clock-capped"].hosts) == 5
    assert firings["nvme-hang"].hosts == ["h100-r14-n13", "h100-r15-n06", "h100-r23-n10"]
    for check_id in ("host-not-up", "pcie-link-downtrained", "fans-pinned", "cpu-clock-capped"):
        assert lead(firings[check_id], onset) > timedelta(hours=1), check_id


def test_rules_reading_the_same_signals_share_one_read_of_the_files(monkeypatch):
    """The drafted latency check and the library case's latency check read the same
    counters over the same span: the folder's files are read once for both, and each
    fires as it does alone."""
    from incidentbook.sources.folder import FolderSource

    record = load_record(LIBRARY / "smollm3-storage-throughput-drops.yaml")
    (latency,) = [r for r in compile_case(record) if r.id == "shared-fs-read-latency"]
    twin = dataclasses.replace(latency, case="another-case")
    folder = INCIDENTS / "smollm3-storage"
    alone = evaluate_folder([latency], folder)
    reads = []
    real = FolderSource.metrics

    def counted(self, *args, **kwargs):
        reads.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(FolderSource, "metrics", counted)
    both = evaluate_folder([latency, twin], folder)
    assert len(reads) == 1
    assert [f.hosts for f in both] == [alone[0].hosts] * 2
    assert both[0].first_fired == both[1].first_fired == alone[0].first_fired


def test_the_rules_of_one_span_are_read_in_one_read_and_fire_as_they_do_alone(monkeypatch):
    """Every read of a folder lists its files, reads the trainer's log and plans its scans
    again: the rules that read the same span share one read, however many signals they
    read, and each fires exactly as it does when evaluated alone."""
    from incidentbook.sources.folder import FolderSource

    record = load_record(LIBRARY / "imbue-h100-cluster-bringup.yaml")
    rules = [r for r in compile_case(record) if r.signal is not None]
    folder = INCIDENTS / "imbue-bringup"
    alone = [evaluate_folder([rule], folder)[0] for rule in rules]
    reads = []
    real = FolderSource.metrics

    def counted(self, *args, **kwargs):
        reads.append(args[0])
        return real(self, *args, **kwargs)

    monkeypatch.setattr(FolderSource, "metrics", counted)
    together = evaluate_folder(rules, folder)
    spans = {(w.start, w.end) for w in reads}
    assert len(rules) > len(spans) and len(reads) == len(spans)
    for one, many in zip(alone, together, strict=True):
        assert (one.rule.id, one.hosts, one.first_fired) == (
            many.rule.id,
            many.hosts,
            many.first_fired,
        )
        assert one.episodes.equals(many.episodes)
