"""Issue 12's proof: an incident folder whose throughput is only in the trainer's log, or
only in TensorBoard files, beside the node metrics, runs through the workbook (papermill)
to a report with its throughput chart and its findings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest
import yaml

from conftest import REPO
from incidentbook.incident import IncidentFolder
from incidentbook.notebook.runner import run_workbook
from incidentbook.record.store import load_record
from incidentbook.sources.trainer import TrainerLogSource

VARIANT = REPO / "data" / "incidents" / "smollm3-storage-trainer-log"


def _story(run) -> None:
    record = load_record(run.case)
    ev = record.evidence
    drops = [f for f in ev.findings if f.kind == "drop" and f.signal == "throughput"]
    assert len(drops) == 7
    assert ev.correlations[0].signal == "disk_read_latency"
    assert "throughput-drop" in record.symptom_tags
    assert ev.charts[0].path == "charts/story.svg"
    story = (run.case.parent / "charts" / "story.svg").read_text()
    assert story.startswith("<svg") and "throughput" in story.lower()
    page = run.report.read_text()
    assert page.count("<svg") >= 3


@pytest.fixture(scope="module")
def trainer_log_run(tmp_path_factory):
    return run_workbook(VARIANT, tmp_path_factory.mktemp("trainer-log"))


def test_a_trainer_log_alone_gives_the_throughput_chart_and_findings(trainer_log_run):
    _story(trainer_log_run)
    notebook = json.loads(trainer_log_run.notebook.read_text())
    text = json.dumps(notebook["cells"])
    assert "the trainer log" in text  # the notes say where the throughput came from


@pytest.fixture(scope="module")
def tensorboard_run(tmp_path_factory):
    """The same incident with the nanotron numbers written as TensorBoard scalars by a
    real writer, and no trainer log."""
    tensorboardX = pytest.importorskip("tensorboardX")
    root = tmp_path_factory.mktemp("tensorboard") / "incident"
    shutil.copytree(VARIANT, root, ignore=shutil.ignore_patterns("trainer.log"))
    spec = yaml.safe_load((root / "incident.yaml").read_text())
    spec["id"] = "smollm3-storage-tensorboard"
    spec["trainer"] = {"host": "ip-26-0-161-1"}
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    rows, _ = TrainerLogSource([VARIANT / "logs" / "trainer.log"]).rows(
        IncidentFolder(VARIANT).spec.window
    )
    writer = tensorboardX.SummaryWriter(str(root / "tensorboard"))
    for row in rows.filter(pl.col("iteration").is_not_null()).iter_rows(named=True):
        wall = row["ts"].timestamp()
        writer.add_scalar("tokens_per_sec", row["tokens_per_second"], row["iteration"], wall)
        writer.add_scalar("train/loss", row["loss"], row["iteration"], wall)
    writer.close()
    assert not (root / "logs" / "trainer.log").exists()
    return run_workbook(root, tmp_path_factory.mktemp("tensorboard-out"))


def test_tensorboard_files_alone_give_the_throughput_chart_and_findings(tensorboard_run):
    _story(tensorboard_run)
    record = load_record(tensorboard_run.case)
    assert Path(record.evidence.charts[0].path).name == "story.svg"
