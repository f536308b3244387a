#!/usr/bin/env python3
"""Writes the incident folder megatron70b-lustre-contention/ beside this script.

A control case. A Megatron-LM continued-pretraining job (Llama-3-70B shape, TP8 PP4
DP6 on 24 x 8 H100, Slurm) runs on the cluster's shared Lustre file system
(/lustre/scratch). At 10:11:30 UTC another team's 128-node job starts a huge
checkpoint storm on the same file system; every client's I/O latency rises (CPU
iowait, PSI io, blocked tasks, dirty pages draining slowly, transmit waits on the
storage HCA) on all 24 job nodes alike. This job's data loader stalls more often
and its own periodic checkpoint inside the storm takes three to four times as long; its throughput
drops about 8% for 45 minutes. No node, GPU or link of this job is at fault.

Layout (different from the Kubernetes case): one Parquet file per scrape target,
node_exporter known only by its address (node_uname_info gives the name),
dcgm-exporter by Hostname, 30 s scrapes, plus `up` for every target as OpenMetrics.
Fixed seed.
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import polars as pl
import yaml

SEED = 2305
rng = np.random.default_rng(SEED)

ID = "megatron70b-lustre-contention"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc


def T(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


W0, W1 = T("2025-05-14T08:30:00"), T("2025-05-14T12:00:00")
EPOCH0 = W0.timestamp()
NODES = [f"gpu-d{i:02d}" for i in range(1, 25)]
IP = {n: f"10.40.3.{11 + i}" for i, n in enumerate(NODES)}
JOBID = 4818265
OTHER_JOB = 4819177
STORM_A = T("2025-05-14T10:11:30")
STORM_B = T("2025-05-14T10:56:30")
JOB_START = T("2025-05-14T06:02:41")

ITER_S = 9.41            # seconds per iteration at baseline
STORM_ITER_FACTOR = 1.036
CKPT_EVERY = 250
GBS, SEQ = 384, 4096
NGPU = 192
FLOP_PER_ITER = 7.105e17


def storm_level(t: np.ndarray | float):
    """0..1 intensity of the other job's checkpoint storm (ramps in 3 min, out in 5 min)."""
    a, b = STORM_A.timestamp(), STORM_B.timestamp()
    t = np.asarray(t, float)
    up = np.clip((t - a) / 180.0, 0, 1)
    down = np.clip((b - t) / 300.0, 0, 1)
    lvl = np.minimum(up, down)
    # the storm comes in waves (ranks of the other job write shard after shard)
    wave = 0.75 + 0.25 * np.sin((t - a) / 410.0 * 2 * math.pi) ** 2
    return np.where((t >= a) & (t <= b + 300), lvl * wave, 0.0)


# ---------------------------------------------------------------- the trainer
def simulate():
    """[(iteration, end_time, kind)] for every iteration; kind 'ckpt' marks the save after it."""
    it = 19250
    t = T("2025-05-14T06:05:21.0") + timedelta(seconds=31.7)  # first iteration (warm-up) ends
    out = []
    saves = []
    while t < W1 + timedelta(minutes=6):
        lvl = float(storm_level(t.timestamp()))
        dt = ITER_S * (1 + rng.normal(0, 0.004))
        if lvl > 0:
            # data-loader stalls: reads of the mmap'd .bin shards wait on busy OSTs
            dt *= 1 + (STORM_ITER_FACTOR - 1) * lvl / 0.875
            if rng.random() < 0.035 * lvl:
                dt += float(rng.exponential(3.5))
        it += 1
        t = t + timedelta(seconds=dt)
        out.append((it, t))
        if it % CKPT_EVERY == 0:
            lvl = float(storm_level(t.timestamp()))
            d = float(rng.normal(41.5, 1.5)) if lvl == 0 else 41.5 + 105.0 * lvl / 0.875 + float(rng.normal(0, 4))
            saves.append((it, t, d))
            t = t + timedelta(seconds=d)
    return out, saves


ITERS, SAVES = simulate()
SAVE_IV = [(t, t + timedelta(seconds=d)) for _, t, d in SAVES]


def in_iv(ts: np.ndarray, ivs) -> np.ndarray:
    m = np.zeros(ts.shape, bool)
    for a, b in ivs:
        m |= (ts >= a.timestamp()) & (ts < b.timestamp())
    return m


def scrape_times(interval: float, offset: float) -> np.ndarray:
    n = int((W1.timestamp() - EPOCH0 - offset) // interval) + 1
    return np.round(EPOCH0 + offset + np.arange(n) * interval + rng.normal(0, 0.003, n), 3)


def smooth(x: np.ndarray, dt: float, tau: float, x0: float) -> np.ndarray:
    a = 1 - math.exp(-dt / tau)
    out = np.empty_like(x)
    v = x0
    for i, xi in enumerate(x):
        v += a * (xi - v)
        out[i] = v
    return out


def uuid():
    h = "".join(f"{x:02x}" for x in rng.integers(0, 256, 16))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def frame(ts, metric, vals, **labels):
    n = len(ts)
    return pl.DataFrame({"timestamp": (np.asarray(ts) * 1000).astype(np.int64), "metric": metric,
                         "value": np.asarray(vals, float),
                         **{k: pl.Series([v] * n, dtype=pl.Utf8) for k, v in labels.items()}})


def write_parquet(frames, path):
    df = pl.concat(frames, how="diagonal")
    df = df.with_columns(pl.from_epoch("timestamp", time_unit="ms").dt.replace_time_zone("UTC"))
    first = ["timestamp", "metric", "value"]
    df = df.select(first + sorted(c for c in df.columns if c not in first)).sort(["metric", "timestamp"], maintain_order=True)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    df.write_parquet(path, compression="zstd", compression_level=9, statistics=True)
    return df.height


# per-target scrape offsets, shared with up.om
NODE_OFF = {n: float(rng.uniform(0.3, 29.7)) for n in NODES}
DCGM_OFF = {n: float(rng.uniform(0.3, 29.7)) for n in NODES}
LUSTRE_SIZE = 5.4037e15
LUSTRE_AVAIL0 = 1.9121e15
LUSTRE_FILES_FREE0 = 1.1772e9


def lustre_avail(ts: np.ndarray) -> np.ndarray:
    # file-system wide: our saves write ~1.0 TB each; the storm writes ~62 GB/s
    used = np.zeros(ts.shape)
    for it, t, d in SAVES:
        used += np.clip((ts - t.timestamp()) / d, 0, 1) * 1.02e12
    a, b = STORM_A.timestamp(), STORM_B.timestamp() + 300
    grid = np.arange(EPOCH0 - 60, W1.timestamp() + 60, 5.0)
    rate = 6.2e10 * storm_level(grid) / 0.875
    cum = np.cumsum(rate * 5.0)
    used += np.interp(ts, grid, cum)
    other = np.interp(ts, [EPOCH0, W1.timestamp()], [0, 2.1e12])  # everybody else
    return LUSTRE_AVAIL0 - used - other


def node_metrics(ni: int, node: str) -> list[pl.DataFrame]:
    ts = scrape_times(30.0, NODE_OFF[node])
    n = ts.size
    lab = {"instance": f"{IP[node]}:9100", "job": "node"}
    F = []
    lvl = storm_level(ts)
    save = in_iv(ts, SAVE_IV)
    save_storm = save & (lvl > 0.05)
    dts = np.full(n, 30.0)
    # --- CPU, per logical CPU (2 x 32 cores, SMT off)
    host_sys = float(rng.uniform(0.025, 0.04))
    for c in range(64):
        if c % 32 < 4:          # one trainer process pinned per 4 cores ... main threads
            user = 0.93
        elif c % 32 < 12:       # data-loader workers and NCCL proxy threads
            user = 0.24
        else:
            user = 0.015
        u = np.clip(user + rng.normal(0, 0.02, n), 0, 1)
        sy = np.clip(host_sys + (0.05 if c % 32 < 12 else 0.004) + rng.normal(0, 0.006, n), 0, 1)
        loader = 4 <= c % 32 < 12
        iow_base = 0.0012 if loader else 0.0002
        iow = iow_base + (0.12 if loader else 0.008) * lvl * rng.uniform(0.6, 1.4, n)
        iow = iow + np.where(save, 0.18 if c % 32 in (12, 13, 14, 15) else 0.01, 0.0)
        iow = iow + np.where(save_storm, 0.22 if c % 32 in (12, 13, 14, 15) else 0.03, 0.0)
        iow = np.clip(iow * rng.uniform(0.8, 1.2, n), 0, 0.9)
        u = np.where(save & (c % 32 < 4), 0.35, u)
        idle = np.clip(1 - u - sy - iow - 0.004, 0, 1)
        base = float(rng.uniform(3.2e5, 3.6e5))
        for mode, frac, b0 in (("idle", idle, base * 0.62), ("iowait", iow, base * 0.0011), ("system", sy, base * 0.035), ("user", u, base * 0.33)):
            F.append(frame(ts, "node_cpu_seconds_total", np.round(b0 + np.cumsum(frac * dts), 2), cpu=str(c), mode=mode, **lab))
    # --- pressure stall information (node-wide, seconds of stall per second)
    io_some = 0.004 + 0.26 * lvl * rng.uniform(0.7, 1.3, n) + np.where(save, 0.55, 0) + np.where(save_storm, 0.3, 0)
    io_full = 0.0008 + 0.045 * lvl * rng.uniform(0.6, 1.4, n) + np.where(save, 0.14, 0) + np.where(save_storm, 0.3, 0)
    io_some = np.clip(io_some * rng.uniform(0.85, 1.15, n), 0, 1)
    io_full = np.clip(np.minimum(io_full, io_some), 0, 1)
    F.append(frame(ts, "node_pressure_io_waiting_seconds_total", np.round(float(rng.uniform(4e3, 9e3)) + np.cumsum(io_some * dts), 6), **lab))
    F.append(frame(ts, "node_pressure_io_stalled_seconds_total", np.round(float(rng.uniform(1e3, 3e3)) + np.cumsum(io_full * dts), 6), **lab))
    cpu_w = np.clip(rng.normal(0.021, 0.004, n), 0, 1)
    F.append(frame(ts, "node_pressure_cpu_waiting_seconds_total", np.round(float(rng.uniform(2e4, 3e4)) + np.cumsum(cpu_w * dts), 6), **lab))
    F.append(frame(ts, "node_pressure_memory_waiting_seconds_total", np.round(np.full(n, float(rng.uniform(1, 40))) + np.cumsum(np.where(rng.random(n) < 0.01, 0.002, 0) * dts), 6), **lab))
    F.append(frame(ts, "node_pressure_memory_stalled_seconds_total", np.round(np.full(n, float(rng.uniform(0.5, 20))), 6), **lab))
    # --- tasks and load
    blocked = rng.poisson(0.35 + 11 * lvl + np.where(save, 12, 0) + np.where(save_storm, 16, 0))
    running = rng.poisson(17.5, n) + 1
    F.append(frame(ts, "node_procs_blocked", blocked, **lab))
    F.append(frame(ts, "node_procs_running", running, **lab))
    ld = smooth(running + blocked + 6.0, 30, 60, 24.0)
    F.append(frame(ts, "node_load1", np.round(ld + rng.normal(0, 0.4, n), 2), **lab))
    F.append(frame(ts, "node_load5", np.round(smooth(ld, 30, 300, 24.0), 2), **lab))
    F.append(frame(ts, "node_load15", np.round(smooth(ld, 30, 900, 24.0), 2), **lab))
    # --- memory: checkpoint writes sit in the page cache until the OSTs take them
    memtot = 2164146810880.0
    dirty = np.full(n, 5.1e7)
    wb = np.full(n, 2e6)
    for it, t, d in SAVES:
        x = ts - t.timestamp()
        m = (x >= 0) & (x < d + 60)
        peak = 1.9e10 if d < 60 else 3.6e10
        dirty[m] += peak * np.exp(-np.clip(x[m] - 8, 0, None) / (d / 3.2)) * np.clip(x[m] / 8, 0, 1)
        wb[m] += (0.35 if d < 60 else 0.5) * peak * np.exp(-np.clip(x[m] - 8, 0, None) / (d / 3.0)) * np.clip(x[m] / 8, 0, 1)
    dirty += rng.normal(0, 8e6, n)
    F.append(frame(ts, "node_memory_MemTotal_bytes", np.full(n, memtot), **lab))
    F.append(frame(ts, "node_memory_MemAvailable_bytes", np.round(1.6221e12 - dirty * 0.2 + rng.normal(0, 1.5e9, n)), **lab))
    F.append(frame(ts, "node_memory_Cached_bytes", np.round(3.071e11 + dirty * 0.9 + rng.normal(0, 4e8, n)), **lab))
    F.append(frame(ts, "node_memory_Dirty_bytes", np.round(np.maximum(dirty, 4096)), **lab))
    F.append(frame(ts, "node_memory_Writeback_bytes", np.round(np.maximum(wb + rng.normal(0, 1e6, n), 0)), **lab))
    # --- local NVMe (OS, /tmp, Slurm spool): untouched by the storm
    rd = 1.2 + rng.exponential(0.8, n)
    wr = 21.0 + rng.exponential(5.0, n)
    F.append(frame(ts, "node_disk_reads_completed_total", float(rng.uniform(5e5, 9e5)) + np.cumsum(np.round(rd * dts)), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_read_time_seconds_total", np.round(float(rng.uniform(180, 260)) + np.cumsum(rd * dts * rng.normal(9.5e-5, 6e-6, n)), 3), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_read_bytes_total", float(rng.uniform(2e10, 4e10)) + np.cumsum(np.round(rd * dts * 24576)), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_writes_completed_total", float(rng.uniform(9e6, 1.4e7)) + np.cumsum(np.round(wr * dts)), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_write_time_seconds_total", np.round(float(rng.uniform(3000, 4500)) + np.cumsum(wr * dts * rng.normal(1.9e-4, 1.5e-5, n)), 3), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_written_bytes_total", float(rng.uniform(4e11, 7e11)) + np.cumsum(np.round(wr * dts * 16384)), device="nvme0n1", **lab))
    F.append(frame(ts, "node_disk_io_time_seconds_total", np.round(float(rng.uniform(3000, 5000)) + np.cumsum(np.clip(rng.normal(0.006, 0.002, n), 0, 1) * dts), 3), device="nvme0n1", **lab))
    # --- file systems
    F.append(frame(ts, "node_filesystem_avail_bytes", np.round(1.52e12 - np.cumsum(rng.uniform(0, 2e5, n))), device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/", **lab))
    F.append(frame(ts, "node_filesystem_size_bytes", np.full(n, 1.88e12), device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/", **lab))
    ldev = "10.40.8.11@o2ib:10.40.8.12@o2ib:/scratch"
    av = lustre_avail(ts - rng.uniform(0.5, 3.0, n))  # statfs is cached for ~1 s by the client
    F.append(frame(ts, "node_filesystem_avail_bytes", np.round(av / 4096) * 4096, device=ldev, fstype="lustre", mountpoint="/lustre/scratch", **lab))
    F.append(frame(ts, "node_filesystem_free_bytes", np.round((av + 2.81e13) / 4096) * 4096, device=ldev, fstype="lustre", mountpoint="/lustre/scratch", **lab))
    F.append(frame(ts, "node_filesystem_size_bytes", np.full(n, LUSTRE_SIZE), device=ldev, fstype="lustre", mountpoint="/lustre/scratch", **lab))
    F.append(frame(ts, "node_filesystem_files_free", np.round(LUSTRE_FILES_FREE0 - np.interp(ts, [EPOCH0, W1.timestamp()], [0, 3.1e5]) - 4.0e5 * np.clip((ts - STORM_A.timestamp()) / 2700, 0, 1)), device=ldev, fstype="lustre", mountpoint="/lustre/scratch", **lab))
    # --- network: compute fabric mlx5_0..7, storage fabric mlx5_8
    iter_rate = 1 / (1 + (STORM_ITER_FACTOR - 1) * lvl / 0.875)
    for h in range(9):
        dev = f"mlx5_{h}"
        if h < 8:
            r = np.where(save, 3e6, rng.normal(1.12e10, 5e8, n) * iter_rate)
            tw = np.where(save, 1e3, rng.normal(3.1e6, 2e5, n))
            rate_bps = 5e10
        else:
            r = 2.1e7 * (1 - 0.25 * lvl) + rng.normal(0, 2e6, n)
            tw = 1.8e4 + 2.6e6 * lvl * rng.uniform(0.7, 1.3, n)
            rate_bps = 2.5e10
        t_ = r.copy()
        if h == 8:
            for it, t, d in SAVES:
                m = (ts >= t.timestamp()) & (ts < t.timestamp() + d)
                t_[m] += 1.02e12 / 24 / d
                tw[m] += 4e5 if d < 60 else 9e6
        F.append(frame(ts, "node_infiniband_port_data_received_bytes_total", float(rng.uniform(1e14, 8e14)) + np.cumsum(np.round(np.maximum(r, 0) * dts)), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_port_data_transmitted_bytes_total", float(rng.uniform(1e14, 8e14)) + np.cumsum(np.round(np.maximum(t_, 0) * dts)), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_port_transmit_wait_total", float(rng.uniform(1e9, 9e9)) + np.cumsum(np.round(np.maximum(tw, 0) * dts)), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_link_downed_total", np.full(n, float(rng.choice([0, 0, 0, 0, 1]))), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_port_errors_received_total", np.full(n, float(rng.choice([0, 0, 0, 2, 9]))), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_state_id", np.full(n, 4.0), device=dev, port="1", **lab))
        F.append(frame(ts, "node_infiniband_rate_bytes_per_second", np.full(n, rate_bps), device=dev, port="1", **lab))
    eth = 1.1e6 + rng.exponential(3e5, n)
    F.append(frame(ts, "node_network_receive_bytes_total", float(rng.uniform(1e12, 2e12)) + np.cumsum(np.round(eth * dts)), device="eno1np0", **lab))
    F.append(frame(ts, "node_network_transmit_bytes_total", float(rng.uniform(1e12, 2e12)) + np.cumsum(np.round(eth * 0.7 * dts)), device="eno1np0", **lab))
    F.append(frame(ts, "node_boot_time_seconds", np.full(n, T("2025-05-09T16:41:07").timestamp() + ni * 61.0), **lab))
    F.append(frame(ts, "node_uname_info", np.ones(n), domainname="(none)", machine="x86_64", nodename=node,
                   release="5.14.0-503.23.1.el9_5.x86_64", sysname="Linux", version="#1 SMP PREEMPT_DYNAMIC Thu Jan 30 06:19:58 EST 2025", **lab))
    return F


PCI = ["00000000:19:00.0", "00000000:3B:00.0", "00000000:4C:00.0", "00000000:5D:00.0",
       "00000000:9B:00.0", "00000000:BB:00.0", "00000000:CB:00.0", "00000000:DB:00.0"]


def dcgm_metrics(ni: int, node: str) -> list[pl.DataFrame]:
    ts = scrape_times(30.0, DCGM_OFF[node])
    n = ts.size
    lvl = storm_level(ts)
    save = in_iv(ts, SAVE_IV)
    stage = ni // 6  # pipeline stage of the node's ranks (tp-dp-pp order)
    host_t = float(rng.normal(0, 2.0))
    host_p = float(rng.normal(0, 8)) + [6, -4, -2, 14][stage]
    F = []
    for g in range(8):
        gp = host_p + float(rng.normal(0, 5))
        gt = host_t + float(rng.normal(0, 1.2))
        stall = rng.random(n) < 0.018 + 0.1 * lvl          # sample lands in a data-loader stall
        util = np.where(stall, rng.integers(0, 40, n), np.where(rng.random(n) < 0.85, 100, rng.integers(97, 100, n))).astype(float)
        power = np.where(stall, rng.uniform(140, 330, n), np.minimum(699, 575 + gp + rng.normal(0, 26, n)))
        tensor = np.where(stall, rng.uniform(0, 0.1, n), np.clip(rng.normal(0.41, 0.025, n), 0, 1))
        dram = np.where(stall, rng.uniform(0, 0.05, n), np.clip(rng.normal(0.33, 0.03, n), 0, 1))
        gr = np.where(stall, rng.uniform(0.02, 0.4, n), np.clip(rng.normal(0.962, 0.012, n), 0, 1))
        # synchronous torch_dist save: GPUs wait until every rank has written its shards
        util = np.where(save, rng.choice([0, 0, 0, 2, 7], n), util)
        power = np.where(save, rng.uniform(108, 126, n), power)
        tensor = np.where(save, 0.0, tensor)
        dram = np.where(save, rng.uniform(0, 0.003, n), dram)
        gr = np.where(save, rng.uniform(0, 0.02, n), gr)
        sm = np.where(save, 1980.0, np.where(power > 690, rng.choice([1920, 1935, 1965], n), 1980.0))
        gtemp = smooth(27.0 + gt + power * 0.056, 30.0, 55.0, 27.0 + gt + 575 * 0.056) + rng.normal(0, 0.4, n)
        mtemp = smooth(29.0 + gt * 0.8 + power * 0.063, 30.0, 70.0, 29.0 + gt * 0.8 + 575 * 0.063) + rng.normal(0, 0.4, n)
        fb = np.full(n, 72914.0) + (stage == 0) * 2210 + rng.integers(-40, 40, n)
        energy = float(rng.uniform(2e14, 3.5e14)) + np.cumsum(power * 30.0 * 1000.0)
        nvl = float(rng.uniform(1e14, 3e14)) + np.cumsum(np.where(save, 1e5, rng.normal(3.9e7, 2e6, n) / (1 + (STORM_ITER_FACTOR - 1) * lvl / 0.875)) * 30.0)
        uid = uuid()
        lab = dict(DCGM_FI_DRIVER_VERSION="570.124.06", Hostname=node, UUID=uid, device=f"nvidia{g}", gpu=str(g),
                   hpc_job=str(JOBID), instance=f"{IP[node]}:9400", job="dcgm", modelName="NVIDIA H100 80GB HBM3",
                   pci_bus_id=PCI[g])
        for metric, v in (("DCGM_FI_DEV_GPU_UTIL", util), ("DCGM_FI_DEV_POWER_USAGE", np.round(power, 3)),
                          ("DCGM_FI_DEV_SM_CLOCK", sm), ("DCGM_FI_DEV_MEM_CLOCK", np.full(n, 2619.0)),
                          ("DCGM_FI_DEV_GPU_TEMP", np.round(gtemp)), ("DCGM_FI_DEV_MEMORY_TEMP", np.round(mtemp)),
                          ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(energy)),
                          ("DCGM_FI_DEV_FB_USED", fb), ("DCGM_FI_DEV_FB_FREE", 81559 - 527 - fb),
                          ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", np.full(n, float(rng.choice([0, 0, 0, 0, 0, 1, 4])))),
                          ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n)),
                          ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl)),
                          ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6)),
                          ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tensor, 6)),
                          ("DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6))):
            F.append(frame(ts, metric, v, **lab))
    return F


def up_openmetrics() -> list[str]:
    out = ["# HELP up The scraping was successful", "# TYPE up gauge"]
    for node in NODES:
        for port, job, off in ((9100, "node", NODE_OFF[node]), (9400, "dcgm", DCGM_OFF[node])):
            t = EPOCH0 + off + np.arange(int((W1.timestamp() - EPOCH0 - off) // 30) + 1) * 30.0
            for x in t:
                out.append(f'up{{instance="{IP[node]}:{port}",job="{job}"}} 1 {x:.3f}')
    out.append("# EOF")
    return out


# ---------------------------------------------------------------- logs
def fmt_iter_line(it, t, elapsed_ms, lr, loss, gn):
    tflops = FLOP_PER_ITER / NGPU / (elapsed_ms / 1000) / 1e12
    return (f" [{t.strftime('%Y-%m-%d %H:%M:%S')}] iteration {it:8d}/  100000 | consumed samples: {it * GBS:12d} | "
            f"elapsed time per iteration (ms): {elapsed_ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
            f"learning rate: {lr:.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | loss scale: 1.0 | "
            f"grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")


TIMERS = ["forward-backward", "forward-compute", "backward-compute", "batch-generator", "layernorm-grads-all-reduce",
          "embedding-grads-all-reduce", "all-grads-sync", "params-all-gather", "optimizer-copy-to-main-grad",
          "optimizer-clip-main-grad", "optimizer-count-zeros", "optimizer-inner-step",
          "optimizer-copy-main-to-model-params", "optimizer"]


def timer_block(per_iter_s, batch_ms):
    fb = per_iter_s * 1000 - 62
    vals = {
        "forward-backward": (fb - 0.9, fb + 0.6),
        "forward-compute": (fb * 0.30, fb * 0.35),
        "backward-compute": (fb * 0.58, fb * 0.645),
        "batch-generator": batch_ms,
        "layernorm-grads-all-reduce": (0.02, 0.05),
        "embedding-grads-all-reduce": (0.03, 11.2 + rng.normal(0, 0.4)),
        "all-grads-sync": (33.9 + rng.normal(0, 0.6), 39.7 + rng.normal(0, 0.6)),
        "params-all-gather": (23.4 + rng.normal(0, 0.5), 27.8 + rng.normal(0, 0.5)),
        "optimizer-copy-to-main-grad": (0.01, 0.02),
        "optimizer-clip-main-grad": (6.71 + rng.normal(0, 0.05), 7.02 + rng.normal(0, 0.05)),
        "optimizer-count-zeros": (0.00, 0.01),
        "optimizer-inner-step": (10.84 + rng.normal(0, 0.08), 11.61 + rng.normal(0, 0.08)),
        "optimizer-copy-main-to-model-params": (0.01, 0.01),
        "optimizer": (21.66 + rng.normal(0, 0.1), 22.43 + rng.normal(0, 0.1)),
    }
    lines = ["(min, max) time across ranks (ms):"]
    for k in TIMERS:
        a, b = vals[k]
        lines.append(f"    {k} {'.' * (48 - len(k))}: ({a:.2f}, {b:.2f})")
    return lines


def slurm_out() -> list[str]:
    L = []
    # job start (before the window): launcher, arguments, model build
    L.append(f"+ srun --kill-on-bad-exit=1 --cpu-bind=none --container-image=/lustre/scratch/proj-llm/images/megatron-lm_25.03-py3.sqsh python -u /opt/megatron-lm/pretrain_gpt.py @/lustre/scratch/proj-llm/runs/llama70b-cpt-v3/args.txt")
    L.append("using world size: 192, data-parallel size: 6, context-parallel size: 1, hierarchical context-parallel sizes: Nonetensor-model-parallel size: 8, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 4, encoder-pipeline-model-parallel size: 0")
    L.append("Number of virtual stages per pipeline stage: 5")
    L.append("using torch.bfloat16 for parameters ...")
    L.append("------------------------ arguments ------------------------")
    args = {"accumulate_allreduce_grads_in_fp32": "False", "async_save": "None", "bf16": "True", "ckpt_format": "torch_dist",
            "clip_grad": "1.0", "context_parallel_size": "1", "data_path": "['/lustre/scratch/proj-llm/data/cpt-mix-v3/text_document']",
            "dataloader_type": "single", "ffn_hidden_size": "28672", "global_batch_size": str(GBS), "hidden_size": "8192",
            "load": "/lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3", "log_interval": "10", "log_throughput": "True", "lr": "0.00015",
            "micro_batch_size": "1", "num_attention_heads": "64", "num_layers": "80", "num_query_groups": "8",
            "num_workers": "2", "pipeline_model_parallel_size": "4", "save": "/lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3",
            "save_interval": str(CKPT_EVERY), "seq_length": str(SEQ), "sequence_parallel": "True",
            "tensor_model_parallel_size": "8", "tokenizer_type": "HuggingFaceTokenizer", "train_iters": "100000",
            "use_distributed_optimizer": "True", "virtual_pipeline_model_parallel_size": "5", "world_size": "192"}
    for k in sorted(args):
        L.append(f"  {k} {'.' * (48 - len(k))} {args[k]}")
    L.append("-------------------- end of arguments ---------------------")
    L.append("> building HuggingFaceTokenizer tokenizer ...")
    L.append(" > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)")
    L.append("> initializing torch distributed ...")
    L.append("> initialized tensor model parallel with size 8")
    L.append("> initialized pipeline model parallel with size 4")
    L.append("> setting random seeds to 1234 ...")
    L.append("> compiling dataset index builder ...")
    L.append(">>> done with dataset index builder. Compilation time: 0.094 seconds")
    L.append("> compiling and loading fused kernels ...")
    L.append(">>> done with compiling and loading fused kernels. Compilation time: 3.121 seconds")
    L.append(f"[after megatron is initialized] datetime: 2025-05-14 06:03:19 ")
    L.append(" > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 2293764096")
    L.append(f" loading checkpoint from /lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3 at iteration 19250")
    L.append(f"  successfully loaded checkpoint from /lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3 [ t 1/8, p 1/4 ] at iteration 19250")
    L.append(f"[after model, optimizer, and learning rate scheduler are built] datetime: 2025-05-14 06:05:02 ")
    L.append("> building train, validation, and test datasets ...")
    L.append(" > datasets target sizes (minimum size):")
    L.append("    train:      38400000")
    L.append("[after dataloaders are built] datetime: 2025-05-14 06:05:21 ")
    L.append("done with setup ...")
    L.append("training ...")
    L.append("[before the start of training step] datetime: 2025-05-14 06:05:21 ")
    # (the iterations 19251..21310 before 08:05 are elided by the simulation start;
    # the file as collected starts its window-relevant part here)
    prev = None
    sv = {it: (t, d) for it, t, d in SAVES}
    for idx, (it, t) in enumerate(ITERS):
        if it % 10 == 0 and prev is not None:
            el = (t - prev[1]).total_seconds() / (it - prev[0]) * 1000
            lvl = float(storm_level(t.timestamp()))
            lr = 1.5e-4 * (0.5 * (1 + math.cos(math.pi * (it - 2000) / 98000)))
            loss = 1.912 - 0.00002 * (it - 21000) + rng.normal(0, 0.018)
            L.append(fmt_iter_line(it, t, el, lr, loss, abs(rng.normal(0.19, 0.02))))
            bm = (1.7 + rng.normal(0, 0.1), 3.6 + rng.exponential(2.0)) if lvl == 0 else (2.4 + 30 * lvl * rng.random(), 180 + 900 * lvl * rng.random())
            per_iter = el / 1000 if el < 15000 else ITER_S
            L.extend(timer_block(per_iter, bm))
        if it % 10 == 0:
            prev = (it, t)
        if it in sv:
            t0, d = sv[it]
            L.append(f"saving checkpoint at iteration {it:7d} to /lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3 in torch_dist format")
            L.append(f"  successfully saved checkpoint from iteration {it:7d} to /lustre/scratch/proj-llm/ckpt/llama70b-cpt-v3 [ t 1/8, p 1/4 ]")
            L.append("(min, max) time across ranks (ms):")
            L.append(f"    save-checkpoint {'.' * 33}: ({d * 1000 - rng.uniform(2, 9):.2f}, {d * 1000:.2f})")
            prev = (it, t + timedelta(seconds=d))
    return L


def syslog(node: str, ni: int) -> tuple[list[str], list[str]]:
    """(messages, cron, secure) as EL9's rsyslog writes them (kernel lines via imjournal carry no printk stamp)."""
    boot = T("2025-05-09T16:41:07") + timedelta(seconds=ni * 61.0)
    kern, sysl, cron, secure = [], [], [], []

    def ts(t):
        return f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}"

    def k(t, msg):
        kern.append((t, f"{ts(t)} {node} kernel: {msg}"))

    def s(t, ident, msg):
        sysl.append((t, f"{ts(t)} {node} {ident}: {msg}"))

    # kernel: last boot (rotated file begins then) and the odd benign message
    b = boot
    for dt, msg in ((0.0, "Linux version 5.14.0-503.23.1.el9_5.x86_64 (mockbuild@x86-64-01.build.eng.rdu2.redhat.com) (gcc (GCC) 11.5.0 20240719 (Red Hat 11.5.0-2), GNU ld version 2.35.2-54.el9) #1 SMP PREEMPT_DYNAMIC Thu Jan 30 06:19:58 EST 2025"),
                    (0.0, "DMI: Dell Inc. PowerEdge XE9680/0FNFP3, BIOS 2.3.5 09/17/2024"),
                    (1.2, "smpboot: Allowing 64 CPUs, 0 hotplug CPUs"),
                    (14.1, "nvidia: loading out-of-tree module taints kernel."),
                    (14.5, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  570.124.06  Thu Feb 27 17:24:59 UTC 2025"),
                    (29.8, "LNet: HW NUMA nodes: 2, HW CPU cores: 64, npartitions: 2"),
                    (30.1, "LNet: Added LNI 10.40.9.%d@o2ib [8/256/0/180]" % (11 + ni)),
                    (31.4, "Lustre: Lustre: Build Version: 2.15.6"),
                    (33.9, "Lustre: Mounted scratch-client")):
        k(b + timedelta(seconds=dt), msg)
    k(b + timedelta(hours=31, seconds=float(rng.uniform(0, 3600))), "perf: interrupt took too long (2503 > 2500), lowering kernel.perf_event_max_sample_rate to 79750")
    k(JOB_START + timedelta(seconds=1.4), "TCP: request_sock_TCP: Possible SYN flooding on port 6818. Sending cookies.  Check SNMP counters.")
    # syslog: the usual daemons
    t = W0 - timedelta(hours=3)
    while t < W1 + timedelta(minutes=5):
        if t.minute % 10 == 0:
            cron.append((t + timedelta(seconds=1), f"{ts(t + timedelta(seconds=1))} {node} CROND[{int(rng.integers(100000, 999999))}]: (root) CMD (/usr/lib64/sa/sa1 1 1)"))
        if t.minute == 1:
            rp = int(rng.integers(100000, 999999))
            cron.append((t + timedelta(seconds=1), f"{ts(t + timedelta(seconds=1))} {node} CROND[{rp - 2}]: (root) CMD (run-parts /etc/cron.hourly)"))
            cron.append((t + timedelta(seconds=1.1), f"{ts(t + timedelta(seconds=1))} {node} run-parts[{rp}]: (/etc/cron.hourly) starting 0anacron"))
            cron.append((t + timedelta(seconds=1.2), f"{ts(t + timedelta(seconds=1))} {node} run-parts[{rp + 7}]: (/etc/cron.hourly) finished 0anacron"))
        if rng.random() < 0.05:
            s(t + timedelta(seconds=float(rng.uniform(0, 59))), "chronyd[1893]", f"Selected source 10.40.0.{int(rng.choice([2, 3]))} (ntp{int(rng.choice([1, 2]))}.arc.internal)")
        if rng.random() < 0.03:
            tt = t + timedelta(seconds=float(rng.uniform(0, 59)))
            pid = int(rng.integers(100000, 999999))
            sid = int(rng.integers(4000, 9000))
            secure.append((tt, f"{ts(tt)} {node} sshd[{pid}]: Accepted publickey for nagios from 10.40.0.5 port {int(rng.integers(30000, 60999))} ssh2: ED25519 SHA256:Qm5d0kq1wCZ0T4r7eH0Vb2sZ6uN4yX8cJ1pL9aD3fGs"))
            secure.append((tt, f"{ts(tt)} {node} sshd[{pid}]: pam_unix(sshd:session): session opened for user nagios(uid=988) by nagios(uid=0)"))
            secure.append((tt + timedelta(seconds=0.4), f"{ts(tt + timedelta(seconds=0.4))} {node} sshd[{pid}]: pam_unix(sshd:session): session closed for user nagios"))
            s(tt, "systemd-logind[1702]", f"New session {sid} of user nagios.")
            s(tt, "systemd[1]", f"Started Session {sid} of User nagios.")
            s(tt + timedelta(seconds=0.4), "systemd[1]", f"session-{sid}.scope: Deactivated successfully.")
            s(tt + timedelta(seconds=0.4), "systemd-logind[1702]", f"Session {sid} logged out. Waiting for processes to exit.")
            s(tt + timedelta(seconds=0.4), "systemd-logind[1702]", f"Removed session {sid}.")
        t += timedelta(minutes=1)
    s(JOB_START + timedelta(seconds=0.6), "slurmd[2214]", f"slurmd: launch task StepId={JOBID}.0 request from UID:31245 GID:31245 HOST:10.40.0.21 PORT:49172")
    s(JOB_START + timedelta(seconds=0.7), "slurmd[2214]", f"slurmd: task/affinity: lllp_distribution: JobId={JOBID} manual binding: none")
    for tt, unit, desc in ((T("2025-05-14T09:12:40") + timedelta(seconds=ni * 7), "dnf-makecache.service", "dnf makecache"),
                           (T("2025-05-14T11:03:02") + timedelta(seconds=ni * 5), "systemd-tmpfiles-clean.service", "Cleanup of Temporary Directories")):
        s(tt, "systemd[1]", f"Starting {desc}...")
        s(tt + timedelta(seconds=2.3), "systemd[1]", f"{unit}: Deactivated successfully.")
        s(tt + timedelta(seconds=2.3), "systemd[1]", f"Finished {desc}.")
    msgs = sorted(kern + sysl, key=lambda x: x[0])
    cron.sort(key=lambda x: x[0])
    secure.sort(key=lambda x: x[0])
    return [x for _, x in msgs], [x for _, x in cron], [x for _, x in secure]


def slurmctld() -> list[str]:
    out = []

    def c(t, msg):
        out.append((t, f"[{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond // 1000:03d}] {msg}"))
    ta = T("2025-05-14T09:58:07.412")
    times, incs = [], []
    t = W0 - timedelta(minutes=30)
    while t < W1:
        t += timedelta(seconds=float(rng.exponential(240)))
        times.append(t)
        incs.append(int(rng.integers(1, 4)))
    before = sum(i for tt, i in zip(times, incs) if tt < ta)
    jid = OTHER_JOB - 1 - before
    c(ta, f"sched: Allocate JobId={OTHER_JOB} NodeList=gpu-e[001-128] #CPUs=16384 Partition=gpu")
    for t, inc in zip(times, incs):
        jid += inc
        if t >= ta and jid <= OTHER_JOB:
            jid = OTHER_JOB + inc
        nn = int(rng.choice([1, 1, 1, 2, 4]))
        part = str(rng.choice(["cpu", "cpu", "gpu-short"]))
        if part == "gpu-short":
            nodes = f"gpu-c{int(rng.integers(1, 40)):02d}"
            cpus = 96
        else:
            st = int(rng.integers(1, 177))
            nodes = f"cpu-b{st:03d}" if nn == 1 else f"cpu-b[{st:03d}-{st + nn - 1:03d}]"
            cpus = nn * 128
        c(t, f"sched: Allocate JobId={jid} NodeList={nodes} #CPUs={cpus} Partition={part}")
        te = t + timedelta(seconds=float(rng.uniform(300, 4000)))
        code = int(rng.choice([0, 0, 0, 0, 1]))
        c(te, f"_job_complete: JobId={jid} WEXITSTATUS {code}")
        c(te + timedelta(microseconds=180), f"_job_complete: JobId={jid} done")
    out.sort(key=lambda x: x[0])
    return [s for t, s in out if t <= W1 + timedelta(minutes=5)]


def write_lines(path, lines, mtime=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    if mtime is not None:
        os.utime(path, (mtime.timestamp(), mtime.timestamp()))


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    rows = 0
    for ni, node in enumerate(NODES):
        rows += write_parquet(node_metrics(ni, node), os.path.join(OUT, "metrics", "node_exporter", f"{IP[node]}_9100.parquet"))
        rows += write_parquet(dcgm_metrics(ni, node), os.path.join(OUT, "metrics", "dcgm_exporter", f"{IP[node]}_9400.parquet"))
    write_lines(os.path.join(OUT, "metrics", "up.om"), up_openmetrics())
    write_lines(os.path.join(OUT, "logs", "slurm", f"slurm-{JOBID}.out"), slurm_out(), W1 + timedelta(minutes=4))
    write_lines(os.path.join(OUT, "logs", "slurm", "slurmctld.log"), slurmctld(), W1 + timedelta(minutes=5))
    for ni, node in enumerate(NODES):
        msgs, cron, secure = syslog(node, ni)
        write_lines(os.path.join(OUT, "logs", node, "messages"), msgs, W1 + timedelta(minutes=5))
        write_lines(os.path.join(OUT, "logs", node, "cron"), cron, W1 + timedelta(minutes=5))
        write_lines(os.path.join(OUT, "logs", node, "secure"), secure, W1 + timedelta(minutes=5))

    inc = {
        "id": ID,
        "title": "Megatron 70B continued pretraining slowed for 45 minutes",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": "2025-05-14T08:40:00+00:00", "end": "2025-05-14T09:55:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "arc", "nodes": 24, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    # loss: iterations done during the storm against the baseline pace
    a, b = STORM_A, STORM_B
    done = [it for it, t in ITERS if a <= t < b]
    base_iters = (b - a).total_seconds() / (ITER_S * (1 + 1 / CKPT_EVERY * 41.5 / ITER_S))
    loss_pct = 100 * (1 - len(done) / base_iters)
    storm_saves = [(it, t.isoformat(), round(d, 1)) for it, t, d in SAVES if a <= t < b]
    base_saves = [round(d, 1) for it, t, d in SAVES if not (a <= t < b + timedelta(minutes=5))]
    truth = {
        "id": ID,
        "cause": "shared filesystem contention from another workload",
        "cause_detail": (f"Slurm job {OTHER_JOB} of another team (128 nodes, gpu-e[001-128]) wrote a huge checkpoint to the same Lustre file system "
                         "/lustre/scratch from about 10:11:30 to 10:56:30 UTC; OST latency rose for every client, so this job's data-loader reads stalled "
                         "and its own checkpoint at iteration %d took %.0f s instead of about %.0f s." % (storm_saves[0][0], storm_saves[0][2], float(np.mean(base_saves)))),
        "cause_metrics": ["node_cpu_seconds_total{mode=\"iowait\"}", "node_pressure_io_waiting_seconds_total", "node_pressure_io_stalled_seconds_total",
                          "node_procs_blocked", "node_load1", "node_memory_Dirty_bytes", "node_memory_Writeback_bytes",
                          "node_filesystem_avail_bytes{fstype=\"lustre\",mountpoint=\"/lustre/scratch\"} (falls ~160 TB in 45 min: someone else is writing)",
                          "node_infiniband_port_transmit_wait_total{device=\"mlx5_8\"} (storage fabric HCA)"],
        "not_cause_metrics": ["node_disk_* (local nvme0n1 unchanged)", "DCGM_FI_DEV_* (GPUs healthy; utilisation and power fall only as a consequence)",
                              "node_infiniband_* on mlx5_0..7 (compute fabric clean)"],
        "cause_log_evidence": [],
        "cause_log_evidence_note": ("No fault line exists: contention on a shared file system leaves no kernel, Lustre or Slurm error on the clients "
                                    "(adaptive timeouts and early replies absorb the latency). The only textual traces are ordinary lines: the job's own "
                                    "Megatron output (save-checkpoint time and the batch-generator timer's max rising, iteration time up) and slurmctld's "
                                    f"'sched: Allocate JobId={OTHER_JOB} NodeList=gpu-e[001-128] ...' at 09:58 for the other team's job. None of these is "
                                    "quoted from a public source; they are generated in the tools' usual formats."),
        "hosts": [],
        "gpu": None,
        "onset": STORM_A.isoformat().replace("+00:00", "Z"),
        "end": STORM_B.isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": round(loss_pct, 1),
        "job_throughput_loss_detail": {
            "iterations_in_storm": len(done),
            "iterations_at_baseline_pace": round(base_iters, 1),
            "baseline_iteration_s": ITER_S,
            "storm_iteration_slowdown_pct": round((STORM_ITER_FACTOR - 1) * 100, 1),
            "checkpoint_saves_in_storm": storm_saves,
            "checkpoint_save_seconds_outside_storm": base_saves,
        },
        "what_a_good_postmortem_says": (
            "Between about 10:12 and 10:57 UTC the job lost about 8% of its throughput because the shared Lustre file system was saturated by another "
            f"team's checkpoint storm (Slurm job {OTHER_JOB}); iowait, PSI io stall, blocked tasks and slow dirty-page writeback rose on all 24 nodes at once "
            "and the scratch file system's free space fell by ~160 TB, while local disks, GPUs and the compute fabric stayed healthy. "
            "No node of this job is at fault and none should be drained; the fixes are on the storage side (QoS/bandwidth limits or a separate "
            "checkpoint tier for large writers, staggered checkpoints) and, for this job, asynchronous checkpointing and a deeper data-loader prefetch."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, allow_unicode=True, width=140)
    print("rows", rows, "loss_pct", round(loss_pct, 2), "storm saves", storm_saves, "base saves", base_saves)


if __name__ == "__main__":
    main()
