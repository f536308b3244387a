"""Small incident folders for the hostile-input suite, each built in a test's tmp_path.

The log lines are real: copied verbatim from leptonai/gpud at commit
4a8de33a3f02e207f39e9023d67125592d599731, components/memory/testdata/dmesg.decode.iso.log
(an H100 host's `dmesg --decode --time-format=iso` with a burst of Xid 13 on
2025-01-21), so the incidents' window is set around them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl
import yaml

START = datetime(2025, 1, 21, 4, 0, tzinfo=UTC)
HOURS = 2
STEP = timedelta(seconds=30)
N = int(HOURS * 3600 / STEP.total_seconds())

# leptonai/gpud@4a8de33 components/memory/testdata/dmesg.decode.iso.log, lines 1-3.
DMESG = (
    "kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, "
    "pid='<unknown>', name=<unknown>, Graphics SM Global Exception on (GPC 8, TPC 5, SM 1): "
    "Multiple Warp Errors\n"
    "kern  :warn  : 2025-01-21T04:41:44,283390+00:00 NVRM: Xid (PCI:0000:38:00): 13, "
    "pid='<unknown>', name=<unknown>, Graphics Exception: ESR 0x546fb0=0x11f000e 0x546fb4=0x24 "
    "0x546fa8=0xf81eb60 0x546fac=0x1174\n"
    "kern  :warn  : 2025-01-21T04:41:44,283575+00:00 NVRM: Xid (PCI:0000:38:00): 13, "
    "pid='<unknown>', name=<unknown>, Graphics SM Warp Exception on (GPC 9, TPC 1, SM 1): "
    "Out Of Range Address\n"
)


def spec(**changes) -> dict:
    """incident.yaml's fields; `changes` replace (None removes)."""
    base = {
        "id": "hostile",
        "title": "A hostile but fair input",
        "window": {"start": START.isoformat(), "end": (START + timedelta(hours=HOURS)).isoformat()},
        "baseline": {
            "start": START.isoformat(),
            "end": (START + timedelta(minutes=30)).isoformat(),
        },
        "primary_signal": "throughput",
        "cluster": {"name": "h", "nodes": 2, "gpus_per_node": 8, "gpu_model": "H100"},
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def frame(metric: str = "trainer_tokens_per_second", values=None, node: str = "n0", **labels):
    """One series of the window in long format (timestamp, metric, value, node, labels)."""
    rng = np.random.default_rng(len(metric) + len(node))
    values = np.asarray(values if values is not None else 1000 + rng.normal(0, 10, N), dtype=float)
    out = pl.DataFrame(
        {
            "timestamp": [START + STEP * i for i in range(len(values))],
            "metric": metric,
            "value": values,
            "node": node,
        }
    ).with_columns(pl.col("timestamp").dt.cast_time_unit("us"))
    return out.with_columns(**{k: pl.lit(v, pl.String) for k, v in labels.items()})


def good_frames() -> list[pl.DataFrame]:
    throughput = 1000 + np.random.default_rng(1).normal(0, 10, N)
    throughput[150:170] = 400  # one drop, so there is something to find
    return [
        frame("trainer_tokens_per_second", throughput, "n0"),
        frame("trainer_tokens_per_second", throughput, "n1"),
        frame("node_load1", np.ones(N), "n0"),
        frame("node_load1", np.ones(N), "n1"),
    ]


def incident(
    root: Path,
    frames: list[pl.DataFrame] | None = None,
    *,
    logs: dict[str, bytes | str] | None = None,
    **changes,
) -> Path:
    """A small but complete incident folder: incident.yaml, metrics/m.parquet, logs/."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "incident.yaml").write_text(yaml.safe_dump(spec(**changes), sort_keys=False))
    (root / "metrics").mkdir(exist_ok=True)
    frames = good_frames() if frames is None else frames
    if frames:
        pl.concat(frames, how="diagonal").sort("timestamp").write_parquet(
            root / "metrics" / "m.parquet"
        )
    for name, content in (logs if logs is not None else {"n0/kern.log": DMESG}).items():
        path = root / "logs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
    return root
