"""dcgm-exporter's clock event reasons, a bitmask, read into one signal per kind of cause,
under the field's current name and the one it had before DCGM's 2023 rename, from files
and from a real Prometheus server (Debian's, backfilled by promtool).

The values are nvidia-smi's: 0x4 SW power cap (a GPU working at its power limit, all day
long), 0x8 HW slowdown (set with either of the two below), 0x20 SW thermal slowdown,
0x40 HW thermal slowdown, 0x80 HW power brake (a failing power supply, the BMC).
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import polars as pl
from incidents import T0, samples, write_incident
from servers import backfill, prometheus

from conftest import require_binary
from incidentbook.metrics.signals import load_pack
from incidentbook.sources.folder import FolderSource
from incidentbook.sources.prometheus import PrometheusSource
from incidentbook.window import TimeWindow

PACK = load_pack()
NAMES = ["clocks_thermal", "clocks_power", "clocks_power_brake"]
N = 120  # an hour at 30 s
WINDOW = TimeWindow(start=T0, end=T0 + timedelta(hours=1))


def _reasons() -> dict[str, np.ndarray]:
    """h0 braked (0x88) in the second half hour; h1 hot (0x48) then; h2 at its power cap
    (0x4) every other sample all hour."""
    braked, hot, capped = np.zeros(N), np.zeros(N), np.zeros(N)
    braked[60:], hot[60:], capped[::2] = 0x88, 0x48, 0x4
    return {"h0": braked, "h1": hot, "h2": capped}


def _means(frame: pl.DataFrame) -> dict[tuple[str, str], float]:
    late = frame.filter(pl.col("ts") >= T0 + timedelta(minutes=30))
    rows = late.group_by("signal", "node").agg(pl.col("value").mean()).iter_rows()
    return {(s, n): v for s, n, v in rows}


def _expected(means: dict[tuple[str, str], float]) -> None:
    assert means[("clocks_power_brake", "h0")] == 1.0
    assert means[("clocks_thermal", "h0")] == 0.0  # 0x8 says slowed, not why
    assert means[("clocks_power", "h0")] == 0.0
    assert means[("clocks_thermal", "h1")] == 1.0
    assert means[("clocks_power_brake", "h1")] == 0.0
    assert means[("clocks_power", "h2")] == 0.5
    assert means[("clocks_power_brake", "h2")] == 0.0


def test_the_hw_slowdown_bit_is_read_with_the_bit_that_says_why(tmp_path):
    frames = [
        samples("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", v, host, gpu="0")
        for host, v in _reasons().items()
    ]
    root = write_incident(tmp_path / "inc", frames, hours=1, nodes=3)
    got = FolderSource(root).metrics(WINDOW, [PACK.get(n) for n in NAMES]).frame
    _expected(_means(got))


def test_the_fields_former_name_reads_the_same_from_a_file_and_from_prometheus(tmp_path):
    # dcgm-exporter names a series after the field it collects: DCGM_FI_DEV_CLOCK_THROTTLE_
    # REASONS on DCGM before the rename (dcgm-exporter issue #317 shows one, 2024).
    old = "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS"
    frames = [samples(old, v, host, gpu="0") for host, v in _reasons().items()]
    root = write_incident(tmp_path / "inc", frames, hours=1, nodes=3)
    signals = [PACK.get(n) for n in NAMES]
    from_file = FolderSource(root).metrics(WINDOW, signals).frame
    _expected(_means(from_file))

    lines = [f"# TYPE {old} gauge"]
    for host, values in _reasons().items():
        for i, v in enumerate(values):
            at = (T0 + timedelta(seconds=30 * i)).timestamp()
            lines.append(f'{old}{{node="{host}",gpu="0"}} {v:.0f} {at:.0f}')
    (tmp_path / "m.om").write_text("\n".join(lines) + "\n# EOF\n")
    binary = require_binary("prometheus", "prometheus")
    backfill(tmp_path / "m.om", tmp_path / "tsdb", require_binary("promtool", "prometheus"))
    with prometheus(tmp_path / "tsdb", tmp_path, binary) as server:
        got = PrometheusSource("prometheus+" + server.url).metrics(WINDOW, signals, step=30)
    _expected(_means(got.frame))
