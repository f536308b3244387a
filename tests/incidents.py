"""Tiny incident folders built in a test's tmp_path, so each test states its own data."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl
import yaml

T0 = datetime(2025, 3, 14, 8, tzinfo=UTC)
STEP = timedelta(seconds=30)


def times(n: int, step: timedelta = STEP, start: datetime = T0) -> list[datetime]:
    return [start + step * i for i in range(n)]


def samples(metric: str, values, node: str = "n0", start: datetime = T0, **labels) -> pl.DataFrame:
    values = np.asarray(values, dtype=float)
    frame = pl.DataFrame(
        {
            "timestamp": times(len(values), start=start),
            "metric": metric,
            "value": values,
            "node": node,
        }
    ).with_columns(pl.col("timestamp").dt.cast_time_unit("us"))
    return frame.with_columns(**{k: pl.lit(v, pl.String) for k, v in labels.items()})


def write_incident(
    root: Path,
    frames: list[pl.DataFrame] | None = None,
    *,
    hours: float = 6,
    baseline_hours: float | None = 1,
    primary: str = "throughput",
    nodes: int = 6,
    name: str = "metrics.parquet",
) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    spec = {
        "id": "test-incident",
        "title": "A test incident",
        "window": {"start": T0.isoformat(), "end": (T0 + timedelta(hours=hours)).isoformat()},
        "primary_signal": primary,
        "cluster": {"name": "test", "nodes": nodes, "gpus_per_node": 8},
    }
    if baseline_hours:
        spec["baseline"] = {
            "start": T0.isoformat(),
            "end": (T0 + timedelta(hours=baseline_hours)).isoformat(),
        }
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    (root / "metrics").mkdir(exist_ok=True)
    if frames:
        pl.concat(frames, how="diagonal").sort("timestamp").write_parquet(root / "metrics" / name)
    return root


def storage_story(root: Path, seed: int = 0) -> tuple[Path, list[tuple[int, int]]]:
    """Throughput drops, each led by a read-latency spike on every node, and a decoy load."""
    rng = np.random.default_rng(seed)
    n, nodes = 720, 6
    drops = [(150, 160), (250, 262), (400, 405), (500, 515), (600, 608)]
    throughput = 13_700 + rng.normal(0, 100, n)
    latency = 0.0008 + rng.normal(0, 0.00005, (nodes, n))
    for a, b in drops:
        throughput[a:b] *= 0.4
        latency[:, a - 1 : b] = 0.05
    frames = [samples("trainer_tokens_per_second", throughput, job="train")]
    for k in range(nodes):
        reads = np.cumsum(np.full(n, 3000.0))
        frames.append(samples("node_disk_reads_completed_total", reads, f"n{k}", device="weka0"))
        frames.append(
            samples(
                "node_disk_read_time_seconds_total",
                np.cumsum(3000 * latency[k]),
                f"n{k}",
                device="weka0",
            )
        )
        load = 1 + rng.normal(0, 0.05, n)
        load[rng.integers(0, n, 5)] += 5
        frames.append(samples("node_load1", load, f"n{k}"))
    return write_incident(root, frames), drops


def unreadable_file(path: Path) -> bool:
    """Make `path` a file this process really cannot read: mode 000 for a normal user;
    for root, whom file modes do not stop, a link to a write-only file of /proc/sys,
    whose permission check applies to root too. False when neither is possible."""
    if os.geteuid() != 0:
        path.write_text("id: x\n")
        path.chmod(0)
        return True
    for target in (Path("/proc/sys/vm/compact_memory"), Path("/proc/sys/vm/drop_caches")):
        try:
            target.read_bytes()
        except PermissionError:
            path.symlink_to(target)
            return True
        except OSError:
            continue
    return False
