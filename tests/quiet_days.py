"""Quiet days of the two library clusters, as incident folders, for the checks' tests.

`incidentbook synth` has no quiet scenario yet (the scenario suite of issue 16 adds one),
and neither incident's own baseline is quiet for its checks: SmolLM3's filesystem was
already 90% full at launch, and Imbue's broken hosts were broken from boot. So these are
the same clusters on a healthy day, built with the simulator's own framework and the
scenarios' own generators where they apply (SmolLM3's read counters, training run and
GPUs with no evictions; Imbue's exporters with every host up and no fault planted): the
same hosts, exporters and label sets as the incidents, with nothing wrong.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from incidentbook.scenarios import simulator as sim
from incidentbook.scenarios.imbue_bringup import imbue_hosts
from incidentbook.scenarios.smollm3_storage import (
    FS_SIZE,
    _decoy_load,
    _starved_gpus,
    _training_run,
    _weka_reads,
    smollm3_hosts,
)

QUIET_SMOLLM3_START = datetime(2025, 3, 21, 8, tzinfo=UTC)  # a week after the incident
QUIET_IMBUE_START = datetime(2024, 6, 3, 14, tzinfo=UTC)  # two weeks after bring-up


def _write(incident: sim.Incident, out: Path, name: str) -> Path:
    truth = {"generator": "tests/quiet_days.py", "scenario": name, "seed": 0, "scale": "small"}
    out.mkdir(parents=True, exist_ok=True)
    sim._write(incident, out, truth, lambda _m: None)
    return out


def smollm3_quiet_day(out: Path, seed: int = 0, minutes: int = 120) -> Path:
    """48 nodes training on WekaFS at 60% used: no eviction, no drop, no decoy spike."""
    rng = np.random.default_rng(seed)
    grid = sim.Grid(QUIET_SMOLLM3_START, 30, minutes * 60 // 30)
    hosts = smollm3_hosts()
    run = _training_run(rng, grid, [])
    _, disk = _weka_reads(rng, grid, hosts, [])
    _, load = _decoy_load(rng, grid, hosts, [], 0)
    used = 0.60 + 0.004 * np.linspace(0, 1, grid.n)  # checkpoints add a little
    avail = np.floor(FS_SIZE * (1 - used) / 4096) * 4096
    labels = [{"node": h, "mountpoint": "/fsx", "fstype": "wekafs"} for h in hosts]
    trainer = [{"node": hosts[0], "job": "smollm3"}]
    metrics = {
        "trainer.parquet": [
            sim.Block("trainer_tokens_per_second", trainer, run["tps"][None, :]),
            sim.Block("trainer_step_time_seconds", trainer, run["step_time"][None, :]),
            sim.Block("trainer_dataloader_seconds", trainer, run["dl_seen"][None, :]),
        ],
        "node.parquet": [
            *disk,
            sim.Block("node_filesystem_size_bytes", labels, np.full((48, grid.n), float(FS_SIZE))),
            sim.Block("node_filesystem_avail_bytes", labels, np.tile(avail, (48, 1))),
            load,
            sim.Block("up", [{"node": h, "job": "node"} for h in hosts], np.ones((48, grid.n))),
        ],
        "dcgm.parquet": _starved_gpus(rng, grid, hosts, run),
    }
    kern = {h: sim.KernLog() for h in hosts}
    for log in kern.values():
        log.noise(rng, grid.us_at(0), grid.us_at(grid.seconds), 4)
    logs = {f"{h}/kern.log": log.lines for h, log in kern.items()}
    spec = sim._spec(
        "smollm3-quiet",
        "SmolLM3 pretraining, a quiet day (simulated)",
        grid,
        (0, 3600),
        "throughput",
        name="hf-smollm3",
        nodes=48,
    )
    return _write(sim.Incident(spec, grid, metrics, logs, {}, {}, 3), out, "smollm3-quiet")


def imbue_quiet_day(out: Path, seed: int = 0, minutes: int = 120) -> Path:
    """All 511 hosts up and healthy, the job running: every exporter the bring-up had."""
    rng = np.random.default_rng(seed)
    grid = sim.Grid(QUIET_IMBUE_START, 90, minutes * 60 // 90)
    hosts = imbue_hosts()
    n, t = len(hosts), grid.n
    gpus = [{"node": h, "gpu": str(g)} for h in hosts for g in range(8)]
    util = np.clip(np.rint(95 + rng.normal(0, 1.5, (len(gpus), t))), 0, 100)
    temp = np.rint(rng.uniform(55, 68, (len(gpus), 1)) + rng.normal(0, 0.8, (len(gpus), t)))
    power = np.round(rng.uniform(560, 640, (len(gpus), 1)) + rng.normal(0, 8, (len(gpus), t)), 3)
    fans = [{"node": h, "name": f"Fan{k}"} for h in hosts for k in range(1, 7)]
    fan = np.rint(rng.uniform(7600, 9200, (len(fans), 1)) + rng.normal(0, 120, (len(fans), t)))
    cpus = [{"node": h, "cpu": str(c)} for h in hosts for c in range(4)]
    freq = np.rint(3.6e9 + rng.normal(0, 2.5e7, (len(cpus), t)))
    ports = [{"node": h, "device": f"mlx5_{g}", "port": "1"} for h in hosts for g in range(8)]
    downed = np.tile(rng.integers(0, 2, (len(ports), 1)).astype(float), (1, t))  # old, no new
    up = [{"node": h, "job": "node"} for h in hosts]
    metrics = {
        "up.parquet": [sim.Block("up", up, np.ones((n, t)))],
        "dcgm.parquet": [
            sim.Block("DCGM_FI_DEV_GPU_UTIL", gpus, util),
            sim.Block("DCGM_FI_DEV_GPU_TEMP", gpus, temp),
            sim.Block("DCGM_FI_DEV_POWER_USAGE", gpus, power),
            sim.Block("DCGM_FI_DEV_PCIE_LINK_WIDTH", gpus, np.full((len(gpus), t), 16.0)),
            sim.Block("DCGM_FI_DEV_XID_ERRORS", gpus, np.zeros((len(gpus), t))),
        ],
        "ipmi.parquet": [sim.Block("ipmi_fan_speed_rpm", fans, fan)],
        "node.parquet": [
            sim.Block("node_cpu_scaling_frequency_hertz", cpus, freq),
            sim.Block("node_infiniband_link_downed_total", ports, downed),
            sim.Block("node_infiniband_state_id", ports, np.full((len(ports), t), 4.0)),
        ],
        "trainer.parquet": [
            sim.Block(
                "trainer_mfu",
                [{"node": hosts[0], "job": "first-multinode"}],
                np.round(0.41 + rng.normal(0, 0.004, (1, t)), 4),
            )
        ],
    }
    kern = {h: sim.KernLog() for h in hosts}
    for log in kern.values():
        log.noise(rng, grid.us_at(0), grid.us_at(grid.seconds), 2)
    logs = {f"{h}/kern.log": log.lines for h, log in kern.items()}
    spec = sim._spec(
        "imbue-quiet",
        "Imbue H100 cluster, a quiet day (simulated)",
        grid,
        (0, 3600),
        "mfu",
        name="imbue-h100",
        nodes=n,
    )
    return _write(sim.Incident(spec, grid, metrics, logs, {}, {}, 3), out, "imbue-quiet")
