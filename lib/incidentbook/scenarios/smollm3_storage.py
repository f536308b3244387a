"""The smollm3-storage scenario: SmolLM3's pretraining on shared WekaFS storage.

48 nodes x 8 H100 on shared WekaFS near capacity: cache evictions stall the dataloader
(sharp throughput drops led by read-latency spikes on most nodes), while nanosets' index,
growing with the step count, slowly lengthens every step.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from incidentbook.scenarios import kernel_lines as kl
from incidentbook.scenarios.simulator import (
    ZSTD,
    Block,
    Grid,
    Incident,
    KernLog,
    Scale,
    Scenario,
    _counter,
    _coverage,
    _ema,
    _place,
    _r,
    _spec,
)

SMOLLM3 = {
    "small": {"minutes": 360, "interval": 30, "drops": (6, 8), "decoys": 5, "noise": 4},
    "full": {"minutes": 1440, "interval": 15, "drops": (15, 25), "decoys": 14, "noise": 40},
}
SMOLLM3_START = datetime(2025, 3, 14, 8, tzinfo=UTC)
SEQ, GBS_SEQS, WORLD = 4096, 576, 384
TOKENS_PER_GPU_STEP = SEQ * GBS_SEQS // WORLD  # 6,144: a 2.36M-token batch over 384 GPUs
DATALOADER_START_S, DATALOADER_END_S = 0.05, 0.18
FS_SIZE = 300 * 2**40  # the WekaFS filesystem, bytes


def smollm3_hosts() -> list[str]:
    return [f"ip-26-0-{161 + i // 16}-{1 + 16 * (i % 16)}" for i in range(48)]


def _eviction_drops(rng, grid: Grid, base_end: int, count: tuple[int, int]) -> list[tuple]:
    """(start, end, depth) of each drop: the first within an hour of the baseline's end,
    the rest more frequent as the filesystem fills."""
    durations = [int(d) for d in rng.integers(120, 601, int(rng.integers(count[0], count[1] + 1)))]
    spans = _place(rng, durations[:1], base_end + 300, base_end + 3600, 600)
    spans += _place(rng, durations[1:], base_end + 300, grid.seconds - 900, 600, spans, late=True)
    return [(a, b, _r(rng.uniform(0.40, 0.85))) for a, b in sorted(spans)]


def _training_run(rng, grid: Grid, drops: list[tuple]) -> dict[str, Any]:
    """Throughput per GPU, step time and dataloader time, stepped forward in time because
    the dataloader's cost grows with the step count, which depends on the throughput so far.
    During a drop the GPUs wait for data: throughput falls to (1 - depth) of the baseline."""
    t, n = grid.t, grid.n
    base = float(rng.uniform(13_600, 13_900))
    compute = TOKENS_PER_GPU_STEP / base - DATALOADER_START_S
    mean_step = compute + (DATALOADER_START_S + DATALOADER_END_S) / 2
    slope = (DATALOADER_END_S - DATALOADER_START_S) / (grid.seconds / mean_step)
    depth = np.full(n, np.nan)
    for a, b, d in drops:
        depth[(t >= a) & (t < b)] = d
    noise = rng.normal(0, 0.006, n)
    dl, tps, trend, steps = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    done = 0.0
    for i in range(n):
        steps[i], dl[i] = done, DATALOADER_START_S + slope * done
        trend[i] = TOKENS_PER_GPU_STEP / (compute + dl[i])
        stalled = base * (1 - depth[i]) * (1 + 5 * noise[i])
        tps[i] = (trend[i] if np.isnan(depth[i]) else stalled) * (1 + noise[i])
        done += grid.interval * tps[i] / TOKENS_PER_GPU_STEP
    tps = np.round(tps, 1)
    return {
        "base": base,
        "tps": tps,
        "trend": trend,
        "steps": steps,
        "dl": dl,
        "step_time": np.round(TOKENS_PER_GPU_STEP / tps, 4),
        "dl_seen": np.round(dl * (1 + rng.normal(0, 0.03, n)), 4),
    }


def _weka_reads(rng, grid: Grid, hosts: list[str], drops: list[tuple]) -> tuple[list, list]:
    """Read counters of the shared filesystem. Each eviction episode starts up to a minute
    before its drop on 70-100% of nodes and ends about when throughput recovers; counters
    integrate the part of each scrape interval that the episode covers."""
    t, n, dt, nodes = grid.t, grid.n, grid.interval, len(hosts)
    spikes, cover, level = [], np.zeros((nodes, n)), np.zeros((nodes, n))
    for a, b, _ in drops:
        s, e = a - int(rng.integers(0, 61)), b + int(rng.integers(-30, 31))
        hit = np.sort(rng.choice(nodes, round(float(rng.uniform(0.7, 1.0)) * nodes), replace=False))
        peak = float(rng.uniform(20, 200))
        spikes.append({**grid.span(s, e), "hosts": [hosts[h] for h in hit], "peak_ms": _r(peak, 1)})
        frac = _coverage(t, dt, s, e)
        cover[hit] = np.maximum(cover[hit], frac)
        level[hit] = np.where(frac > 0, peak * rng.uniform(0.5, 1.0, (len(hit), 1)), level[hit])
    rate = rng.uniform(1200, 2200, (nodes, 1)) * (1 + rng.normal(0, 0.05, (nodes, n)))
    normal, stalled = rate * dt * (1 - cover), rate * 0.25 * dt * cover  # stalled reads crawl
    normal_ms = rng.uniform(0.5, 0.9, (nodes, 1)) * rng.lognormal(0, 0.12, (nodes, n))
    spike_ms = level * rng.uniform(0.8, 1.0, (nodes, n))
    reads = rng.poisson(normal + stalled).astype(float)
    ms = np.rint(reads * (normal * normal_ms + stalled * spike_ms) / (normal + stalled))
    reads0 = rng.integers(20_000_000, 90_000_000, nodes).astype(float)
    labels = [{"node": h, "device": "weka0"} for h in hosts]
    return spikes, [
        Block("node_disk_reads_completed_total", labels, _counter(reads0, reads)),
        Block(
            "node_disk_read_time_seconds_total", labels, _counter(np.rint(reads0 * 0.7), ms) / 1e3
        ),
    ]


def _weka_capacity(rng, grid: Grid, hosts: list[str]) -> tuple[dict, list]:
    """The shared filesystem filling from 90% to 97.5%, unevenly (checkpoints, cache fills),
    seen the same by every node."""
    fill = np.cumsum(rng.gamma(0.5, 1.0, grid.n))
    used = 0.90 + 0.075 * (fill - fill[0]) / (fill[-1] - fill[0])
    avail = np.floor(FS_SIZE * (1 - used) / 4096) * 4096
    labels = [{"node": h, "mountpoint": "/fsx", "fstype": "wekafs"} for h in hosts]
    ratio = {"start": _r(1 - avail[0] / FS_SIZE, 4), "end": _r(1 - avail[-1] / FS_SIZE, 4)}
    return ratio, [
        Block("node_filesystem_size_bytes", labels, np.full((len(hosts), grid.n), float(FS_SIZE))),
        Block("node_filesystem_avail_bytes", labels, np.tile(avail, (len(hosts), 1))),
    ]


def _decoy_load(rng, grid: Grid, hosts: list[str], drops: list[tuple], count: int):
    """node_load1 with spikes on a few nodes at times at least ten minutes from any drop:
    something for a correlation ranking to reject."""
    t, nodes = grid.t, len(hosts)
    runnable = rng.uniform(10, 18, (nodes, 1)) + rng.normal(0, 1.5, (nodes, grid.n))
    spans = _place(
        rng,
        [int(d) for d in rng.integers(180, 601, count)],
        600,
        grid.seconds - 600,
        600,
        [(a, b) for a, b, _ in drops],
    )
    decoys = []
    for a, b in sorted(spans):
        hit = np.sort(rng.choice(nodes, int(rng.integers(1, 7)), replace=False))
        runnable[np.ix_(hit, np.flatnonzero((t >= a) & (t < b)))] += rng.uniform(60, 150)
        decoys.append({**grid.span(a, b), "hosts": [hosts[h] for h in hit]})
    load = np.round(_ema(runnable, 1 - np.exp(-grid.interval / 60)), 2)  # a 1-minute average
    return decoys, Block("node_load1", [{"node": h} for h in hosts], load)


def _starved_gpus(rng, grid: Grid, hosts: list[str], run: dict) -> list[Block]:
    """GPUs waiting for data: utilisation falls with throughput, power follows at once,
    temperature with a lag."""
    gpus = [{"node": h, "gpu": str(g)} for h in hosts for g in range(8)]
    shape = (len(gpus), grid.n)
    ratio = np.clip(run["tps"] / run["trend"], 0, 1)
    util = np.clip(np.rint(96.5 * ratio + rng.normal(0, 1.0, shape)), 0, 100)
    power = 95 + (rng.uniform(560, 640, (len(gpus), 1)) - 95) * util / 100
    power = np.round(power + rng.normal(0, 8, shape), 3)
    heat = _ema(util / 100, 1 - np.exp(-grid.interval / 90))
    temp = np.rint(
        34 + (rng.uniform(58, 70, (len(gpus), 1)) - 34) * heat + rng.normal(0, 0.5, shape)
    )
    return [
        Block("DCGM_FI_DEV_GPU_UTIL", gpus, util),
        Block("DCGM_FI_DEV_GPU_TEMP", gpus, temp),
        Block("DCGM_FI_DEV_POWER_USAGE", gpus, power),
    ]


def _smollm3(seed: int, scale: Scale) -> Incident:
    p = SMOLLM3[scale]
    rng = np.random.default_rng(seed)
    grid = Grid(SMOLLM3_START, p["interval"], p["minutes"] * 60 // p["interval"])
    hosts, nodes = smollm3_hosts(), 48
    base_end = 60 * int(rng.integers(45, 61))  # a quiet first hour after launch
    drops = _eviction_drops(rng, grid, base_end, p["drops"])
    run = _training_run(rng, grid, drops)
    spikes, disk = _weka_reads(rng, grid, hosts, drops)
    fs_used, fs = _weka_capacity(rng, grid, hosts)
    decoys, load = _decoy_load(rng, grid, hosts, drops, p["decoys"])
    trainer = [{"node": hosts[0], "job": "smollm3"}]
    metrics = {
        "trainer.parquet": [
            Block("trainer_tokens_per_second", trainer, run["tps"][None, :]),
            Block("trainer_step_time_seconds", trainer, run["step_time"][None, :]),
            Block("trainer_dataloader_seconds", trainer, run["dl_seen"][None, :]),
        ],
        "node.parquet": [
            *disk,
            *fs,
            load,
            Block("up", [{"node": h, "job": "node"} for h in hosts], np.ones((nodes, grid.n))),
        ],
        "dcgm.parquet": _starved_gpus(rng, grid, hosts, run),
    }

    # Kernel logs: a little ordinary noise, and the hung-task watchdog on a node or two
    # when an eviction stalls reads for more than two minutes.
    kern = {h: KernLog() for h in hosts}
    for log in kern.values():
        log.noise(rng, grid.us_at(0), grid.us_at(grid.seconds), p["noise"])
    hung = []
    for (a, b, _), spike in zip(drops, spikes, strict=True):
        if b - a < 240:
            continue
        for h in rng.choice(spike["hosts"], int(rng.integers(1, 3)), replace=False):
            at = a + 122 + int(rng.integers(0, 30))
            us = grid.us_at(at) + int(rng.integers(0, 1_000_000))
            for level, msg in kl.hung_task("python3", int(rng.integers(20_000, 90_000))):
                kern[h].add(us, msg, level)
            hung.append({"host": str(h), "at": grid.iso(at)})
    logs = {f"{h}/kern.log": log.lines for h, log in kern.items()}
    trainer_log = _nanotron_log(rng, grid, hosts[0], run)
    logs["trainer.log"] = lambda: trainer_log

    planted = {
        "baseline_tokens_per_second": _r(run["base"], 1),
        "drops": [{**grid.span(a, b), "depth": d} for a, b, d in drops],
        "latency_spikes": spikes,
        "fs_used_ratio": fs_used,
        "dataloader_trend": {"start_s": _r(run["dl"][0], 4), "end_s": _r(run["dl"][-1], 4)},
        "decoy_spikes": decoys,
        "hung_tasks": hung,
    }
    spec = _spec(
        "smollm3-storage",
        "SmolLM3 pretraining: throughput drops on shared WekaFS storage (simulated)",
        grid,
        (0, base_end),
        "throughput",
        name="hf-smollm3",
        nodes=nodes,
    )
    extra = {"hosts": len(hosts), "rank0": hosts[0], "throughput_unit": "tokens/s per GPU"}
    return Incident(spec, grid, metrics, logs, planted, extra, ZSTD[scale])


def _human(num: float) -> str:
    """nanotron's humanised numbers: 2.35K, 634K, 85.8G, 1e-05."""
    if abs(num) < 1:
        return f"{num:.3g}"
    num, mag = float(f"{num:.3g}"), 0
    while abs(num) >= 1000 and mag < 6:
        num, mag = num / 1000, mag + 1
    return f"{num:f}".rstrip("0").rstrip(".") + ("", "K", "M", "G", "T", "P", "E")[mag]


def _nanotron_log(rng, grid: Grid, rank0: str, run: dict) -> list[str]:
    """One nanotron iteration line a minute, its numbers taken from the trainer's gauges
    (tokens_per_sec_per_gpu is the gauge; tokens_per_sec is the whole job's)."""
    total = 11 * 10**12 // (SEQ * GBS_SEQS)
    lines = []
    for i in np.flatnonzero((grid.t % 60 == 0) & (grid.t > 0)).tolist():
        it, tps = int(run["steps"][i]) + 1, float(run["tps"][i])
        tflops = _human(6 * 3.08e9 * tps / 1e12)
        fields = {
            "iteration": f"{it} / {total}",
            "consumed_tokens": _human(it * SEQ * GBS_SEQS),
            "elapsed_time_per_iteration_ms": _human(run["step_time"][i] * 1000),
            "tokens_per_sec": _human(tps * WORLD),
            "tokens_per_sec_per_gpu": _human(tps),
            "global_batch_size": str(GBS_SEQS),
            "lm_loss": _human(2.1 + 8.7 * np.exp(-it / 2500) + rng.normal(0, 0.02)),
            "lr": _human(2e-4 * min(1.0, it / 2000)),
            "model_tflops_per_gpu": tflops,
            "hardware_tflops_per_gpu": tflops,
            "grad_norm": _human(0.3 + abs(rng.normal(0, 0.05))),
        }
        when = grid.start + timedelta(seconds=int(grid.t[i]))
        body = " | ".join(f"{k}: {v}" for k, v in fields.items())
        lines.append(f"{when:%m/%d/%Y %H:%M:%S} [INFO|DP=0|PP=0|TP=0|{rank0}]: {body}")
    return lines


def _smollm3_trainer_log(seed: int, scale: Scale) -> Incident:
    """The same incident with no trainer gauges: throughput, step time and the rest come
    only from nanotron's log (logs/trainer.log), as in a team that never exported them."""
    base = _smollm3(seed, scale)
    metrics = {name: blocks for name, blocks in base.metrics.items() if name != "trainer.parquet"}
    spec = {
        **base.spec,
        "id": "smollm3-storage-trainer-log",
        "title": (
            "SmolLM3 pretraining: throughput drops on shared WekaFS storage, the throughput "
            "from nanotron's log only (simulated)"
        ),
    }
    extra = {
        **base.extra_truth,
        "throughput_unit": "tokens/s of the whole job (nanotron's tokens_per_sec)",
        "throughput_interval_seconds": 60,  # one nanotron line a minute
    }
    return replace(base, spec=spec, metrics=metrics, extra_truth=extra)


TRAINER_LOG_SCENARIO = Scenario(
    "smollm3-storage-trainer-log",
    "smollm3-storage without trainer gauges: its throughput only from nanotron's log",
    _smollm3_trainer_log,
)

SCENARIO = Scenario(
    "smollm3-storage",
    "48 nodes x 8 H100: throughput drops from WekaFS cache evictions near capacity, "
    "a slow decline from a dataloader index growing with the step count",
    _smollm3,
)
