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


def test_logs_named_for_their_file_are_no_host_where_logs_and_metrics_agree(tmp_path):
    # A job's output at the top of logs/ is named after itself (its file's stem); beside
    # per-host kernel logs named as the metrics name hosts, it is told apart as no host.
    from incidents import samples, write_incident

    from incidentbook.investigation import investigate

    frames = [samples("DCGM_FI_DEV_GPU_UTIL", [99.0] * 240, f"n{k}", gpu="0") for k in range(6)]
    root = write_incident(tmp_path / "inc", frames, hours=2)
    line = (
        "2025-03-14T08:30:00+00:00 n{} kernel: NVRM: Xid (PCI:0000:18:00): 79, "
        "GPU has fallen off the bus.\n"
    )
    for k in (0, 1):
        (root / "logs" / f"n{k}").mkdir(parents=True)
        (root / "logs" / f"n{k}" / "syslog").write_text(line.format(k))
    (root / "logs" / "slurm-99.out").write_text(
        "2025-03-14 08:31:00,000 - train - ERROR - RuntimeError: CUDA error: "
        "an illegal memory access was encountered\n"
    )
    inv = investigate(root)
    assert inv.logs is not None and "slurm-99" in inv.logs.matched.get_column("host").to_list()
    assert inv._not_hosts() == frozenset({"slurm-99"})
    # logs named only by a name the metrics do not use: nothing can be told apart
    for k in (0, 1):
        (root / "logs" / f"n{k}" / "syslog").write_text(
            line.format(k).replace(f" n{k} ", " gpu-x ")
        )
        (root / "logs" / f"n{k}" / "syslog").rename(root / "logs" / f"n{k}.syslog")
        (root / "logs" / f"n{k}").rmdir()
    inv = investigate(root)
    assert inv._not_hosts() == frozenset()
