"""TensorBoard event files as a source: files written by a real writer (tensorboardX),
read by TensorBoard's own reader."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml

from conftest import REPO
from incidentbook.metrics.signals import load_pack
from incidentbook.sources import open_source
from incidentbook.sources.folder import FolderSource
from incidentbook.window import TimeWindow

tensorboardX = pytest.importorskip("tensorboardX")

PACK = load_pack()
T0 = datetime(2025, 3, 14, 8, tzinfo=UTC)
WINDOW = TimeWindow(start=T0, end=T0 + timedelta(hours=1))


def write_run(
    folder: Path,
    steps: list[int],
    *,
    start: datetime = T0,
    pace: float = 10.0,
    tps: float = 10_000.0,
    writer: str = "tensorboardX",
    extra=None,
) -> Path:
    """Scalars as torchtitan's and Megatron's writers name them, one step every `pace` s.
    tensorboardX writes TF1-style `simple_value` summaries; TensorBoard's own Writer the
    tensor form of its scalars plugin."""
    if writer == "tensorboardX":
        out = tensorboardX.SummaryWriter(str(folder))

        def add(tag, value, step, wall):
            out.add_scalar(tag, value, step, walltime=wall)
    else:
        import tensorboard.summary

        out = tensorboard.summary.Writer(str(folder))

        def add(tag, value, step, wall):
            out.add_scalar(tag, value, step, wall_time=wall)

    for k, step in enumerate(steps):
        wall = start.timestamp() + k * pace
        scalars = {
            "throughput(tps)": tps,
            "loss_metrics/global_avg_loss": 3.0 - 0.001 * step,
            "grad_norm": 1.0,
            "iteration-time": pace,
            "mfu(%)": 38.5,
            **(extra(step) if extra else {}),
        }
        for tag, value in scalars.items():
            add(tag, value, step, wall)
    out.close()
    return next(folder.glob("*tfevents*"))


def incident(root: Path, trainer: dict | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    spec = {
        "id": "tensorboard-only",
        "title": "TensorBoard files and nothing else",
        "window": {"start": WINDOW.start.isoformat(), "end": WINDOW.end.isoformat()},
        "cluster": {"name": "c", "nodes": 2},
        **({"trainer": trainer} if trainer else {}),
    }
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    return root


def test_scalars_become_signals_by_the_packs_tags(tmp_path):
    root = incident(tmp_path / "inc", {"gpus": 8, "host": "node-a"})
    write_run(root / "runs" / "a", list(range(1, 301)))
    got = FolderSource(root).metrics(WINDOW, list(PACK.signals.values()))
    frame = got.frame
    throughput = frame.filter(pl.col("signal") == "throughput")
    assert throughput.height == 300  # from `throughput_tps_`, as the writer cleaned the tag
    assert set(throughput.get_column("value").to_list()) == {80_000.0}  # per device x 8
    assert throughput.get_column("ts").min() == T0
    assert set(throughput.get_column("node").to_list()) == {"node-a"}
    mfu = frame.filter(pl.col("signal") == "mfu").get_column("value")
    assert mfu.to_list()[0] == pytest.approx(0.385)
    iteration = frame.filter(pl.col("signal") == "iteration").get_column("value")
    assert iteration.to_list()[:3] == [1.0, 2.0, 3.0]
    assert got.receipt.origins["loss"] == "tensorboard"
    assert any("loss <- 'loss_metrics/global_avg_loss'" in n for n in got.receipt.notes())


def test_tensorboards_own_writer_reads_the_same(tmp_path):
    root = incident(tmp_path / "inc", {"gpus": 8})
    write_run(root / "runs", list(range(1, 11)), writer="tensorboard")
    got = FolderSource(root).metrics(WINDOW, [PACK.get("loss"), PACK.get("throughput")])
    loss = got.frame.filter(pl.col("signal") == "loss").get_column("value").to_list()
    assert loss[0] == pytest.approx(2.999)


def test_per_gpu_tags_need_the_gpu_count(tmp_path):
    root = incident(tmp_path / "inc")
    write_run(root / "runs", list(range(1, 11)))
    got = FolderSource(root).metrics(WINDOW, [PACK.get("throughput"), PACK.get("loss")])
    assert "throughput" not in got.frame.get_column("signal").to_list()
    assert any("set trainer.gpus" in n for n in got.receipt.notes())


def test_a_restarted_run_shows_as_a_restart(tmp_path):
    from incidentbook.metrics.training import training_findings

    root = incident(tmp_path / "inc", {"gpus": 8})
    write_run(root / "runs" / "first", list(range(1, 201)))
    # Resumed from the checkpoint of step 150, a few minutes later, in a new event file.
    write_run(root / "runs" / "second", list(range(151, 301)), start=T0 + timedelta(seconds=2300))
    got = FolderSource(root).metrics(WINDOW, list(PACK.signals.values()))
    found = training_findings(got.frame, PACK.signals, WINDOW)
    restart = [f for f in found if f.kind == "restart"]
    assert len(restart) == 1 and restart[0].value == 151 and restart[0].baseline == 200


def test_a_loss_spike_in_tensorboard_is_found(tmp_path):
    from incidentbook.metrics.training import training_findings

    root = incident(tmp_path / "inc", {"gpus": 8})
    rng = np.random.default_rng(1)
    noise = rng.normal(0, 0.01, 400)
    write_run(
        root / "runs",
        list(range(1, 301)),
        extra=lambda s: {"loss_metrics/global_avg_loss": (7.5 if s == 250 else 2.5) + noise[s]},
    )
    got = FolderSource(root).metrics(WINDOW, list(PACK.signals.values()))
    found = [
        f for f in training_findings(got.frame, PACK.signals, WINDOW) if f.kind == "loss_spike"
    ]
    assert len(found) == 1 and found[0].value == pytest.approx(7.5 + noise[250])


def test_a_torn_event_file_keeps_what_came_before(tmp_path):
    root = incident(tmp_path / "inc", {"gpus": 8})
    path = write_run(root / "runs", list(range(1, 101)))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 400])  # a writer killed mid-record
    got = FolderSource(root).metrics(WINDOW, [PACK.get("loss")])
    assert 90 <= got.frame.height < 100


def test_tensorboard_wins_over_the_trainer_log_by_default(tmp_path):
    root = incident(tmp_path / "inc", {"gpus": 8})
    write_run(root / "runs", list(range(1, 11)), start=datetime(2025, 10, 17, 16, 31, tzinfo=UTC))
    (root / "logs").mkdir()
    shutil.copy(REPO / "tests" / "data" / "trainer" / "nanotron_issue390.log", root / "logs")
    spec = yaml.safe_load((root / "incident.yaml").read_text())
    spec["window"] = {"start": "2025-10-17T16:30:00Z", "end": "2025-10-17T16:40:00Z"}
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    window = TimeWindow(
        start=datetime(2025, 10, 17, 16, 30, tzinfo=UTC),
        end=datetime(2025, 10, 17, 16, 40, tzinfo=UTC),
    )
    got = FolderSource(root).metrics(window, [PACK.get("loss"), PACK.get("tflops_per_gpu")])
    assert got.receipt.origins == {"loss": "tensorboard", "tflops_per_gpu": "trainer_log"}


def test_the_tensorboard_scheme_opens_a_folder_of_runs(tmp_path):
    write_run(tmp_path / "runs", list(range(1, 11)))
    source = open_source(f"tensorboard://{tmp_path / 'runs'}")
    got = source.metrics(WINDOW, [PACK.get("loss")])
    assert got.frame.height == 10
