"""An incident folder with logs and no metrics at all (dmesg and a job's output are often
all that is left): the logs are analysed alone, and the verdict says what cannot be known."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import logs_incident
from incidentbook.investigation import investigate
from incidentbook.metrics.data import MetricsError

EXCERPTS = Path(__file__).parent / "logs" / "corpus" / "excerpts"


def _folder(tmp_path: Path, *logs: str) -> Path:
    return logs_incident(
        tmp_path,
        [EXCERPTS / name for name in logs],
        window={"start": "2026-01-01T00:00:00+00:00", "end": "2027-01-01T00:00:00+00:00"},
        cluster={"name": "c", "nodes": 2},
    )


def test_a_folder_of_logs_alone_is_analysed(tmp_path):
    # a two-node job's NCCL debug output ending in an InfiniBand completion error
    root = _folder(tmp_path, "sglang_2node_nccl_ib_loc_prot_err.log")
    inv = investigate(root)
    signatures = {f.signal for f in inv.findings if f.kind == "signature"}
    assert "nccl-ib-error" in signatures
    assert any("the logs alone are analysed" in n for n in inv.notes)
    verdict = inv.verdict
    assert verdict.summary.startswith("No metrics: whether and when training throughput fell")
    assert "the logs' worst finding: NCCL" in verdict.summary
    assert verdict.confidence == 0.0


def test_without_logs_either_the_missing_metrics_are_an_error(tmp_path):
    root = _folder(tmp_path)
    with pytest.raises(MetricsError, match="has no metrics"):
        investigate(root)


def test_logs_turned_off_keep_the_error(tmp_path):
    root = _folder(tmp_path, "sglang_2node_nccl_ib_loc_prot_err.log")
    with pytest.raises(MetricsError, match="has no metrics"):
        investigate(root, logs=False)


def test_an_untimed_trainer_log_alone_says_what_it_needs(tmp_path):
    # verl's console output has no time on its lines: with no trainer.start in
    # incident.yaml its steps cannot be placed, which used to end the analysis
    root = _folder(tmp_path)
    trainer = Path(__file__).parent / "data" / "trainer" / "verl_dstack-configs-ppo-qwen7b.log"
    shutil.copyfile(trainer, root / "logs" / trainer.name)
    inv = investigate(root)
    note = next(n for n in inv.notes if "has no metrics it can use" in n)
    assert "no trainer.start in incident.yaml" in note and "the logs alone are analysed" in note
    assert inv.verdict.summary.startswith("No metrics:")
