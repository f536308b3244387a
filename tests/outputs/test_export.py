"""OpenMetrics export, checked by the tool it is for: promtool backfills it."""

import re
import subprocess
import sys
from pathlib import Path

import polars as pl

from conftest import REPO, require_binary
from incidentbook.outputs.export import export_openmetrics
from incidentbook.sources.files import _scan_openmetrics

SMOLLM3 = REPO / "data" / "incidents" / "smollm3-storage"
EXE = Path(sys.executable).with_name("incidentbook")


def test_every_sample_is_exported_once_with_its_labels(tmp_path):
    path, samples = export_openmetrics(SMOLLM3, tmp_path / "s.om")
    rows = sum(
        pl.scan_parquet(p).select(pl.len()).collect().item()
        for p in (SMOLLM3 / "metrics").glob("*.parquet")
    )
    assert samples == rows
    lines = path.read_text().splitlines()
    assert lines[-1] == "# EOF"
    assert len(lines) == rows + 1
    sample = re.compile(
        r'^[a-zA-Z_:][a-zA-Z0-9_:]*\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\} \S+ \d+(\.\d+)?$'
    )
    assert all(sample.match(line) for line in lines[:-1:997])


def test_the_export_reads_back_as_the_same_metrics(tmp_path):
    from incidentbook.incident import IncidentFolder
    from incidentbook.metrics.signals import load_pack

    path, _ = export_openmetrics(SMOLLM3, tmp_path / "s.om")
    spec = IncidentFolder(SMOLLM3).spec
    signal = load_pack().get("throughput")
    back = _scan_openmetrics(path, spec.window, [signal]).rows.collect().sort("ts")
    original = (
        pl.read_parquet(SMOLLM3 / "metrics" / "trainer.parquet")
        .filter(pl.col("metric") == "trainer_tokens_per_second")
        .sort("timestamp")
    )
    assert back.height == original.height
    assert back.get_column("value").to_list() == original.get_column("value").to_list()


def test_promtool_backfills_the_export(tmp_path):
    promtool = require_binary("promtool", "prometheus")
    result = subprocess.run(
        [
            str(EXE),
            "export",
            "openmetrics",
            str(SMOLLM3),
            "-o",
            str(tmp_path / "s.om"),
            "--start",
            "2025-03-14T09:00:00Z",
            "--end",
            "2025-03-14T10:00:00Z",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == str(tmp_path / "s.om")
    done = subprocess.run(
        [
            promtool,
            "tsdb",
            "create-blocks-from",
            "openmetrics",
            str(tmp_path / "s.om"),
            str(tmp_path / "tsdb"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert any((tmp_path / "tsdb").iterdir())
