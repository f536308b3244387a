#!/usr/bin/env python3
"""Writes the incident folder llama8b-containerd-hang/ beside this script.

A torchtitan Llama-3 8B PyTorchJob (16 x 8 H100, HSDP) on Kubernetes. On
hgx-h100-012 containerd starts hanging at 07:38:40 UTC: the kubelet's PLEG relist
times out, the node flaps NotReady twice, the taint manager marks the job's pod
there for deletion, an operator restarts containerd, the kubelet then kills the
pod's container. The other 120 ranks sit in an ALLREDUCE until the NCCL watchdog
(600 s) aborts them; the PyTorchJob controller restarts the whole job ten minutes
after the pod was lost, on the same nodes, from the step-13500 checkpoint.

Fixed seed; the same script always writes the same bytes (apart from file mtimes,
which are set explicitly).
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import polars as pl
import yaml

SEED = 2304
rng = np.random.default_rng(SEED)

ID = "llama8b-containerd-hang"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc


def T(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


W0, W1 = T("2025-04-09T06:30:00"), T("2025-04-09T10:30:00")
EPOCH0 = W0.timestamp()

# ---------------------------------------------------------------- the story
NODES = [f"hgx-h100-{i:03d}" for i in range(1, 17)]
BAD = "hgx-h100-012"
BADI = NODES.index(BAD)
NODE_IP = {n: f"10.20.4.{11 + i}" for i, n in enumerate(NODES)}
POD_OF = {n: ("llama3-8b-pt-master-0" if i == 0 else f"llama3-8b-pt-worker-{i - 1}") for i, n in enumerate(NODES)}

JOB_PODS_START = T("2025-04-09T06:51:58")      # pods of run 1 started (after an image roll-out)
CONTAINERD_HANG = T("2025-04-09T07:38:40")     # containerd stops answering CRI calls
PLEG_LAST_1 = T("2025-04-09T07:38:52")         # last successful relist before episode 1
NOTREADY_1 = PLEG_LAST_1 + timedelta(seconds=188.702564)   # 3m8.702564418s (message quoted verbatim)
PLEG_OK_1 = T("2025-04-09T07:44:05")           # one relist squeezes through
READY_1 = T("2025-04-09T07:44:10.318204")
PLEG_LAST_2 = PLEG_OK_1
NOTREADY_2 = PLEG_LAST_2 + timedelta(seconds=187.629592)   # 3m7.629592089s
EVICT = NOTREADY_2 + timedelta(seconds=300.4)  # taint manager: tolerationSeconds=300
SYSTEMCTL_RESTART = T("2025-04-09T07:53:04")  # on-call runs systemctl restart containerd
CONTAINERD_KILLED = SYSTEMCTL_RESTART + timedelta(seconds=90.0)  # stop-sigterm timed out
CONTAINERD_UP = CONTAINERD_KILLED + timedelta(seconds=0.9)
READY_2 = T("2025-04-09T07:54:47.216533")
POD_KILLED = T("2025-04-09T07:54:51.7")        # kubelet can kill the evicted pod now
REPLACEMENT_START = T("2025-04-09T07:55:27")   # operator re-creates worker-10, same node
WATCHDOG = POD_KILLED + timedelta(seconds=600.06)  # 600060 ms (quoted verbatim)
JOB_RESTART = T("2025-04-09T08:05:06")         # PyTorchJobRestarting
RUN2_PODS_START = T("2025-04-09T08:05:41")

STEP_S = 2.31           # seconds per step at steady state
TOK_PER_GPU_STEP = 2 * 8192
NGPU = 128
FLOP_PER_TOKEN = 6.112e10
PEAK = 9.89e14
CKPT_EVERY = 500
RUN1_FROM = 12000


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S") + "Z"


# ------------------------------------------------------- the trainer timeline
def simulate_run(start_step: int, first_step_end: datetime, stop: datetime | None, end: datetime):
    """Returns [(step, end_time, ckpt_staging_s)] and the list of checkpoint staging intervals."""
    out, ck = [], []
    t = first_step_end
    s = start_step + 1
    out.append((s, t, 0.0))
    while True:
        dt = STEP_S * (1 + rng.normal(0, 0.006))
        if s % 50 == 0:
            dt += 0.06
        stage = 0.0
        if s % CKPT_EVERY == 0:
            stage = float(rng.uniform(8.6, 9.9))
            ck.append((t, t + timedelta(seconds=stage)))
            dt += stage
        t2 = t + timedelta(seconds=dt)
        if stop is not None and t2 > stop:
            break
        if t2 > end:
            break
        s += 1
        t = t2
        out.append((s, t, stage))
    return out, ck


RUN1_FIRST = T("2025-04-09T06:53:44.2")
run1, ck1 = simulate_run(RUN1_FROM, RUN1_FIRST, POD_KILLED, W1)
LAST_STEP_1 = run1[-1][0]
LAST_CKPT_1 = (LAST_STEP_1 // CKPT_EVERY) * CKPT_EVERY
RUN2_FIRST = T("2025-04-09T08:07:26.3")
run2, ck2 = simulate_run(LAST_CKPT_1, RUN2_FIRST, None, W1 + timedelta(minutes=3))
TRAIN_INTERVALS = [(RUN1_FIRST - timedelta(seconds=38), run1[-1][1]), (RUN2_FIRST - timedelta(seconds=37), W1 + timedelta(hours=1))]
CKPT_INTERVALS = ck1 + ck2


def in_intervals(ts: np.ndarray, ivs) -> np.ndarray:
    m = np.zeros(ts.shape, bool)
    for a, b in ivs:
        m |= (ts >= a.timestamp()) & (ts < b.timestamp())
    return m


# GPU activity state per node and time: 0 idle, 1 init, 2 train, 3 ckpt staging, 4 NCCL hang
def gpu_state(node_i: int, ts: np.ndarray) -> np.ndarray:
    st = np.zeros(ts.shape, np.int8)
    e = lambda d: d.timestamp()
    init1 = (ts >= e(JOB_PODS_START) + 8) & (ts < e(RUN1_FIRST) - 38)
    st[init1] = 1
    train1 = (ts >= e(RUN1_FIRST) - 38) & (ts < e(POD_KILLED))
    st[train1] = 2
    if node_i == BADI:
        pass  # killed at POD_KILLED, replacement pod idles (never gets a CUDA context)
    else:
        hang = (ts >= e(POD_KILLED)) & (ts < e(WATCHDOG) + 1.5)
        st[hang] = 4
    init2 = (ts >= e(RUN2_PODS_START) + 9) & (ts < e(RUN2_FIRST) - 37)
    st[init2] = 1
    train2 = ts >= e(RUN2_FIRST) - 37
    st[train2] = 2
    ck = in_intervals(ts, CKPT_INTERVALS) & (st == 2)
    st[ck] = 3
    return st


# Prometheus target visibility: the dcgm-exporter and node-exporter pods of a NotReady
# node are marked not ready, leave the Service endpoints and drop out of discovery.
def target_visible(node: str, ts: np.ndarray) -> np.ndarray:
    if node != BAD:
        return np.ones(ts.shape, bool)
    gone = [(NOTREADY_1 + timedelta(seconds=19), READY_1 + timedelta(seconds=27)),
            (NOTREADY_2 + timedelta(seconds=21), READY_2 + timedelta(seconds=31))]
    return ~in_intervals(ts, gone)


def scrape_times(interval: float, offset: float) -> np.ndarray:
    n = int((W1.timestamp() - EPOCH0 - offset) // interval) + 1
    base = EPOCH0 + offset + np.arange(n) * interval
    jitter = rng.normal(0, 0.004, n)
    return np.round(base + jitter, 3)


def smooth(target: np.ndarray, dt: float, tau: float, x0: float) -> np.ndarray:
    a = 1 - math.exp(-dt / tau)
    out = np.empty_like(target)
    x = x0
    for i, v in enumerate(target):
        x = x + a * (v - x)
        out[i] = x
    return out


def rand_suffix(n=5):
    al = "bcdfghjklmnpqrstvwxz2456789"
    return "".join(al[i] for i in rng.integers(0, len(al), n))


def uuid():
    h = "".join(f"{x:02x}" for x in rng.integers(0, 256, 16))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


# ---------------------------------------------------------------- metrics
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
DRIVER = "570.124.06"
MODEL = "NVIDIA H100 80GB HBM3"
FB_TOTAL = 81559
FB_RES = 527


def build_dcgm() -> pl.DataFrame:
    frames = []
    for ni, node in enumerate(NODES):
        off = float(rng.uniform(0.2, 14.8))
        ts_all = scrape_times(15.0, off)
        vis = target_visible(node, ts_all)
        st = gpu_state(ni, ts_all)
        pod_ip = f"10.244.{ni + 1}.{int(rng.integers(20, 240))}"
        exp_pod = f"nvidia-dcgm-exporter-{rand_suffix()}"
        host_t = float(rng.normal(0, 2.2))
        host_p = float(rng.normal(0, 9))
        # which job pod holds the GPUs (dcgm-exporter's pod mapping)
        holder = np.full(ts_all.shape, None, object)
        e = lambda d: d.timestamp()
        run1 = (ts_all >= e(JOB_PODS_START) - 3) & (ts_all < (e(POD_KILLED) + 4 if ni == BADI else e(WATCHDOG) + 13))
        holder[run1] = POD_OF[node]
        if ni == BADI:
            holder[(ts_all >= e(REPLACEMENT_START) - 2) & (ts_all < e(JOB_RESTART) + 10)] = POD_OF[node]
        holder[ts_all >= e(RUN2_PODS_START) - 3] = POD_OF[node]
        for g in range(8):
            gt = host_t + float(rng.normal(0, 1.3))
            gp = host_p + float(rng.normal(0, 6))
            n = ts_all.size
            util = np.zeros(n)
            power = np.full(n, 69.0) + rng.normal(0, 1.2, n)
            sm = np.full(n, 345.0)
            tensor = np.zeros(n)
            dram = np.zeros(n)
            gr = np.zeros(n)
            copy = np.zeros(n)
            fb = np.zeros(n)
            pcie_rx = rng.uniform(2e4, 9e4, n)
            pcie_tx = rng.uniform(2e4, 9e4, n)
            nvl_rate = np.zeros(n)
            m = st == 1
            util[m] = rng.choice([0, 0, 3, 17, 42, 64, 100], m.sum())
            power[m] = rng.uniform(95, 260, m.sum())
            sm[m] = 1980
            gr[m] = util[m] / 100 * rng.uniform(0.5, 0.9, m.sum())
            fb[m] = rng.uniform(9000, 52000, m.sum())
            m = st == 2
            k = m.sum()
            util[m] = np.where(rng.random(k) < 0.82, 100, rng.integers(96, 100, k))
            power[m] = np.minimum(699.0, 641 + gp + rng.normal(0, 17, k))
            sm[m] = np.where(power[m] > 690, rng.choice([1905, 1890, 1935, 1980], k), 1980)
            tensor[m] = np.clip(rng.normal(0.487, 0.021, k), 0, 1)
            dram[m] = np.clip(rng.normal(0.384, 0.03, k), 0, 1)
            gr[m] = np.clip(rng.normal(0.973, 0.009, k), 0, 1)
            copy[m] = rng.integers(33, 49, k)
            fb[m] = 63412 + rng.integers(-60, 60, k)
            pcie_rx[m] = rng.normal(8.9e9, 0.6e9, k)
            pcie_tx[m] = rng.normal(8.7e9, 0.6e9, k)
            nvl_rate[m] = rng.normal(6.1e7, 0.3e7, k)
            m = st == 3
            k = m.sum()
            util[m] = rng.integers(21, 63, k)
            power[m] = rng.uniform(190, 320, k)
            sm[m] = 1980
            tensor[m] = rng.uniform(0.0, 0.15, k)
            dram[m] = rng.uniform(0.05, 0.2, k)
            gr[m] = rng.uniform(0.2, 0.6, k)
            copy[m] = rng.integers(5, 30, k)
            fb[m] = 63412 + rng.integers(-60, 60, k)
            pcie_tx[m] = rng.normal(1.9e10, 1e9, k)  # staging to host memory
            m = st == 4
            k = m.sum()
            util[m] = 100
            power[m] = 138 + gp * 0.3 + rng.normal(0, 4, k)
            sm[m] = 1980
            tensor[m] = 0.0
            dram[m] = rng.uniform(0.0, 0.004, k)
            gr[m] = rng.uniform(0.985, 1.0, k)
            copy[m] = 0
            fb[m] = 63412 + rng.integers(-60, 60, k)
            pcie_rx[m] = rng.uniform(1e5, 6e5, k)
            pcie_tx[m] = rng.uniform(1e5, 6e5, k)
            # temperatures follow power with a thermal lag
            gtemp = smooth(27.5 + gt + power * 0.054, 15.0, 55.0, 27.5 + gt + 69 * 0.054) + rng.normal(0, 0.35, n)
            mtemp = smooth(30.0 + gt * 0.8 + power * 0.061, 15.0, 70.0, 30 + gt * 0.8 + 69 * 0.061) + rng.normal(0, 0.35, n)
            e0 = float(rng.uniform(1.2e13, 2.6e13))
            dts = np.diff(ts_all, prepend=ts_all[0] - 15.0)
            energy = e0 + np.cumsum(power * dts * 1000.0)
            nvl = float(rng.uniform(2e13, 5e13)) + np.cumsum(nvl_rate * dts)
            replay = np.full(n, float(rng.choice([0, 0, 0, 0, 0, 2, 7])))
            cols = {
                "DCGM_FI_DEV_SM_CLOCK": sm,
                "DCGM_FI_DEV_MEM_CLOCK": np.full(n, 2619.0),
                "DCGM_FI_DEV_MEMORY_TEMP": np.round(mtemp),
                "DCGM_FI_DEV_GPU_TEMP": np.round(gtemp),
                "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3),
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.round(energy),
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
                "DCGM_FI_DEV_GPU_UTIL": util,
                "DCGM_FI_DEV_MEM_COPY_UTIL": copy,
                "DCGM_FI_DEV_XID_ERRORS": np.zeros(n),
                "DCGM_FI_DEV_FB_FREE": FB_TOTAL - FB_RES - np.round(fb),
                "DCGM_FI_DEV_FB_USED": np.round(fb),
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": np.round(nvl),
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tensor, 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(np.maximum(pcie_tx, 0)),
                "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(np.maximum(pcie_rx, 0)),
            }
            uid = uuid()
            ts_v = ts_all[vis]
            hold_v = holder[vis]
            for metric, vals in cols.items():
                frames.append(pl.DataFrame({
                    "timestamp": (ts_v * 1000).astype(np.int64),
                    "metric": metric,
                    "value": vals[vis].astype(float),
                    "DCGM_FI_DRIVER_VERSION": DRIVER,
                    "Hostname": node,
                    "UUID": uid,
                    "container": "nvidia-dcgm-exporter",
                    "device": f"nvidia{g}",
                    "endpoint": "gpu-metrics",
                    "exported_container": pl.Series([("pytorch" if h else None) for h in hold_v], dtype=pl.Utf8),
                    "exported_namespace": pl.Series([("llm-train" if h else None) for h in hold_v], dtype=pl.Utf8),
                    "exported_pod": pl.Series(list(hold_v), dtype=pl.Utf8),
                    "gpu": str(g),
                    "instance": f"{pod_ip}:9400",
                    "job": "nvidia-dcgm-exporter",
                    "modelName": MODEL,
                    "namespace": "gpu-operator",
                    "pci_bus_id": PCI[g],
                    "pod": exp_pod,
                    "service": "nvidia-dcgm-exporter",
                }))
        # the exporter's own target health
        frames.append(pl.DataFrame({
            "timestamp": (ts_all[vis] * 1000).astype(np.int64), "metric": "up", "value": np.ones(int(vis.sum())),
            "container": "nvidia-dcgm-exporter", "endpoint": "gpu-metrics", "instance": f"{pod_ip}:9400",
            "job": "nvidia-dcgm-exporter", "namespace": "gpu-operator", "pod": exp_pod, "service": "nvidia-dcgm-exporter",
        }))
    df = pl.concat(frames, how="diagonal")
    return df


def build_node_exporter() -> pl.DataFrame:
    frames = []

    def add(ts, metric, vals, node, exp_pod, **labels):
        frames.append(pl.DataFrame({
            "timestamp": (ts * 1000).astype(np.int64), "metric": metric, "value": np.asarray(vals, float),
            "container": "node-exporter", "endpoint": "http-metrics", "instance": f"{NODE_IP[node]}:9100",
            "job": "node-exporter", "namespace": "monitoring", "pod": exp_pod,
            "service": "kube-prometheus-stack-prometheus-node-exporter",
            **{k: pl.Series([v] * len(ts), dtype=pl.Utf8) for k, v in labels.items()},
        }))

    for ni, node in enumerate(NODES):
        off = float(rng.uniform(0.2, 14.8))
        ts_all = scrape_times(15.0, off)
        vis = target_visible(node, ts_all)
        ts = ts_all[vis]
        st = gpu_state(ni, ts_all)[vis]
        n = ts.size
        exp_pod = f"kube-prometheus-stack-prometheus-node-exporter-{rand_suffix()}"
        dts = np.diff(ts, prepend=ts[0] - 15)
        busy = (st == 2) | (st == 3)
        load = np.where(busy, 21.5, np.where(st == 4, 17.0, np.where(st == 1, 9.0, 0.9))) + float(rng.normal(0, 1.5))
        load = np.maximum(0.05, smooth(load, 15, 45, 1.0) + rng.normal(0, 0.9, n))
        add(ts, "node_load1", np.round(load, 2), node, exp_pod)
        add(ts, "node_load5", np.round(smooth(load, 15, 200, 1.0), 2), node, exp_pod)
        memtot = 2164173471744.0
        avail = np.where(busy | (st == 4), 1.5412e12, np.where(st == 1, 1.71e12, 2.0431e12)) + rng.normal(0, 2.5e9, n)
        add(ts, "node_memory_MemTotal_bytes", np.full(n, memtot), node, exp_pod)
        add(ts, "node_memory_MemAvailable_bytes", np.round(avail), node, exp_pod)
        add(ts, "node_boot_time_seconds", np.full(n, float(T("2025-03-31T14:02:11").timestamp() + ni * 97.3)), node, exp_pod)
        add(ts, "node_uname_info", np.ones(n), node, exp_pod, domainname="(none)", machine="x86_64",
            nodename=node, release="5.15.0-134-generic", sysname="Linux",
            version="#145-Ubuntu SMP Wed Feb 12 20:08:39 UTC 2025")
        # CPU time, summed over the node's 224 logical CPUs, is not exported here (the
        # responder pulled only the series below), but disks, network and IB are.
        rd_rate = np.where(busy, 4.0, 0.5) + rng.exponential(1.0, n)
        wr_rate = np.where(busy, 38.0, 9.0) + rng.exponential(6.0, n)
        rdc = float(rng.uniform(2e6, 4e6)) + np.cumsum(np.round(rd_rate * dts))
        wrc = float(rng.uniform(2e7, 4e7)) + np.cumsum(np.round(wr_rate * dts))
        add(ts, "node_disk_reads_completed_total", rdc, node, exp_pod, device="nvme0n1")
        add(ts, "node_disk_read_time_seconds_total", np.round(float(rng.uniform(900, 1500)) + np.cumsum(rd_rate * dts * rng.normal(0.00011, 0.00001, n)), 3), node, exp_pod, device="nvme0n1")
        add(ts, "node_disk_writes_completed_total", wrc, node, exp_pod, device="nvme0n1")
        add(ts, "node_disk_write_time_seconds_total", np.round(float(rng.uniform(8000, 12000)) + np.cumsum(wr_rate * dts * rng.normal(0.00021, 0.00002, n)), 3), node, exp_pod, device="nvme0n1")
        add(ts, "node_disk_io_time_seconds_total", np.round(float(rng.uniform(9000, 14000)) + np.cumsum(dts * np.clip(rng.normal(0.012, 0.004, n), 0, 1)), 3), node, exp_pod, device="nvme0n1")
        fs = 3.2e12 - float(rng.uniform(2e11, 9e11)) - np.cumsum(rng.uniform(0, 4e5, n))
        add(ts, "node_filesystem_avail_bytes", np.round(fs), node, exp_pod, device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/")
        eth = np.where(busy, 2.6e7, 3e5) + rng.exponential(2e5, n)
        add(ts, "node_network_receive_bytes_total", float(rng.uniform(1e12, 3e12)) + np.cumsum(np.round(eth * dts)), node, exp_pod, device="bond0")
        add(ts, "node_network_transmit_bytes_total", float(rng.uniform(1e12, 3e12)) + np.cumsum(np.round(eth * 0.4 * dts)), node, exp_pod, device="bond0")
        for h in range(8):
            dev = f"mlx5_{h}"
            ib = np.where(busy, rng.normal(6.3e9, 4e8, n), np.where(st == 1, 2e7, 1.5e4))
            ib = np.where(st == 3, 2e8, ib)
            add(ts, "node_infiniband_port_data_received_bytes_total", float(rng.uniform(3e14, 9e14)) + np.cumsum(np.round(np.maximum(ib, 0) * dts)), node, exp_pod, device=dev, port="1")
            add(ts, "node_infiniband_port_data_transmitted_bytes_total", float(rng.uniform(3e14, 9e14)) + np.cumsum(np.round(np.maximum(ib * 1.002, 0) * dts)), node, exp_pod, device=dev, port="1")
            add(ts, "node_infiniband_link_downed_total", np.zeros(n), node, exp_pod, device=dev, port="1")
            add(ts, "node_infiniband_port_errors_received_total", np.full(n, float(rng.choice([0, 0, 0, 3, 14]))), node, exp_pod, device=dev, port="1")
            add(ts, "node_infiniband_state_id", np.full(n, 4.0), node, exp_pod, device=dev, port="1")
            add(ts, "node_infiniband_rate_bytes_per_second", np.full(n, 5e10), node, exp_pod, device=dev, port="1")
        add(ts, "up", np.ones(n), node, exp_pod)
    return pl.concat(frames, how="diagonal")


def build_kube() -> pl.DataFrame:
    frames = []
    e = lambda d: d.timestamp()
    # kube-state-metrics, 30 s
    ksm_pod = "kube-prometheus-stack-kube-state-metrics-6d9f7b8c5-x2x7k"
    ts = scrape_times(30.0, 11.37)
    notready = in_intervals(ts - 2.0, [(NOTREADY_1, READY_1), (NOTREADY_2, READY_2)])
    for node in NODES:
        bad = notready if node == BAD else np.zeros(ts.shape, bool)
        for status, vals in (("true", (~bad).astype(float)), ("false", bad.astype(float)), ("unknown", np.zeros(ts.size))):
            frames.append(pl.DataFrame({
                "timestamp": (ts * 1000).astype(np.int64), "metric": "kube_node_status_condition", "value": vals,
                "condition": "Ready", "container": "kube-state-metrics", "endpoint": "http", "instance": "10.244.3.17:8080",
                "job": "kube-state-metrics", "namespace": "monitoring", "node": node, "pod": ksm_pod,
                "service": "kube-prometheus-stack-kube-state-metrics", "status": status,
            }))
    # job pods: kube_pod_container_status_running (a new series per pod uid)
    for ni, node in enumerate(NODES):
        pod = POD_OF[node]
        lives = [(JOB_PODS_START - timedelta(seconds=4), (POD_KILLED + timedelta(seconds=3)) if ni == BADI else (WATCHDOG + timedelta(seconds=12)))]
        if ni == BADI:
            lives.append((REPLACEMENT_START, JOB_RESTART + timedelta(seconds=9)))
        lives.append((RUN2_PODS_START, W1 + timedelta(hours=1)))
        for a, b in lives:
            uid_ = "".join(f"{x:02x}" for x in rng.integers(0, 256, 16))
            uid_ = f"{uid_[:8]}-{uid_[8:12]}-{uid_[12:16]}-{uid_[16:20]}-{uid_[20:]}"
            m = (ts >= e(a) - 20) & (ts < e(b) + 60)
            if not m.any():
                continue
            tt = ts[m]
            vals = ((tt >= e(a)) & (tt < e(b))).astype(float)
            frames.append(pl.DataFrame({
                "timestamp": (tt * 1000).astype(np.int64), "metric": "kube_pod_container_status_running", "value": vals,
                "container": "pytorch", "endpoint": "http", "instance": "10.244.3.17:8080", "job": "kube-state-metrics",
                "namespace": "llm-train", "pod": pod, "service": "kube-prometheus-stack-kube-state-metrics", "uid": uid_,
            }))
    # kubelet /metrics, 15 s
    for ni, node in enumerate(NODES):
        ts = scrape_times(15.0, float(rng.uniform(0.2, 14.8)))
        n = ts.size
        last = ts - rng.uniform(0.05, 1.0, n)
        if node == BAD:
            for a, b in ((PLEG_LAST_1, PLEG_OK_1), (PLEG_LAST_2, CONTAINERD_UP + timedelta(seconds=2.1))):
                m = (ts >= e(a)) & (ts < e(b))
                last[m] = e(a)
        lab = {"endpoint": "https-metrics", "instance": f"{NODE_IP[node]}:10250", "job": "kubelet",
               "metrics_path": "/metrics", "namespace": "kube-system", "node": node,
               "service": "kube-prometheus-stack-kubelet"}
        frames.append(pl.DataFrame({"timestamp": (ts * 1000).astype(np.int64), "metric": "kubelet_pleg_last_seen_seconds",
                                    "value": np.round(last, 3), **lab}))
        # runtime operation errors, counters since kubelet start
        base = {"list_containers": 3, "list_podsandbox": 2, "container_status": 41, "podsandbox_status": 6,
                "status": 1, "stop_container": 4, "exec_sync": 17}
        for op, b0 in base.items():
            c = np.full(n, float(b0 + int(rng.integers(0, 9))))
            if node == BAD:
                # failures while containerd hangs: relists and status calls time out (2m runtime-request-timeout)
                rate = {"list_containers": 1 / 120, "list_podsandbox": 1 / 120, "container_status": 6 / 120,
                        "podsandbox_status": 2 / 120, "status": 1 / 120, "stop_container": 1 / 120, "exec_sync": 0.0}[op]
                hang_a, hang_b = e(CONTAINERD_HANG) + 120, e(CONTAINERD_KILLED)
                start = e(EVICT) + 120 if op == "stop_container" else hang_a
                inc = np.floor(np.clip(ts - start, 0, hang_b - start) * rate)
                if op in ("list_containers", "list_podsandbox", "status"):
                    inc += np.where(ts >= e(CONTAINERD_KILLED) + 0.5, 2, 0)  # connection refused during restart
                c = c + inc
            frames.append(pl.DataFrame({"timestamp": (ts * 1000).astype(np.int64), "metric": "kubelet_runtime_operations_errors_total",
                                        "value": c, "operation_type": op, **lab}))
        frames.append(pl.DataFrame({"timestamp": (ts * 1000).astype(np.int64), "metric": "up", "value": np.ones(n), **lab}))
    return pl.concat(frames, how="diagonal")


def to_parquet(df: pl.DataFrame, path: str):
    df = df.with_columns(pl.from_epoch(pl.col("timestamp"), time_unit="ms").dt.replace_time_zone("UTC").alias("timestamp"))
    first = ["timestamp", "metric", "value"]
    df = df.select(first + sorted(c for c in df.columns if c not in first))
    df = df.sort(["metric", "timestamp"], maintain_order=True)
    df.write_parquet(path, compression="zstd", compression_level=9, statistics=True, row_group_size=262144)


# ---------------------------------------------------------------- trainer logs
def ttime(t: datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"


def torchrun_banner(t: datetime) -> list[tuple[datetime, str]]:
    hdr = f"W{t.strftime('%m%d %H:%M:%S')}.{t.microsecond // 1000:03d}000 7 torch/distributed/run.py:793] "
    return [(t, hdr), (t, hdr + "*****************************************"),
            (t, hdr + "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "),
            (t, hdr + "*****************************************")]


def titan_init(rank: int, t0: datetime, load_step: int) -> tuple[list[tuple[datetime, str]], datetime]:
    p = f"[rank{rank}]:[titan] "
    t = t0
    out = []

    def L(dt, lvl, msg):
        nonlocal t
        t = t + timedelta(seconds=dt)
        out.append((t, f"{p}{ttime(t)} - root - {lvl} - {msg}"))

    L(0.0, "INFO", "Starting job: Llama 3 8B pretraining (fineweb-edu, 30k steps)")
    L(0.01, "WARNING", "ENV[TORCH_NCCL_ASYNC_ERROR_HANDLING] = 1 will be overridden to 3 based on job config")
    L(0.6, "INFO", "Building 2-D device mesh with ['dp_replicate', 'dp_shard'], [16, 8]")
    L(0.02, "INFO", "[GC] Initial GC collection. 0.00 seconds.")
    L(0.3, "INFO", "Loading tokenizer from /mnt/shared/tokenizers/llama3/original/tokenizer.model")
    L(0.4, "INFO", "TikTokenizer built: #words 128256, BOS ID 128000, EOS ID 128001")
    L(0.1, "INFO", "Preparing fineweb_edu dataset from /mnt/shared/data/fineweb-edu/sample-350BT")
    L(2.9, "INFO", "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, norm_type='rmsnorm', use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
    L(0.5, "INFO", "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.10GiB memory")
    L(0.01, "INFO", "Model llama3 8B size: 8,030,261,248 total parameters")
    L(0.3, "INFO", "Applied selective activation checkpointing to the model")
    L(0.1, "INFO", "Compiling each TransformerBlock with torch.compile")
    L(0.4, "INFO", "Applied HSDP to the model")
    L(0.2, "INFO", "Peak FLOPS used for computing MFU: 9.890e+14")
    L(0.01, "INFO", "CUDA memory usage for model: 3.77GiB(4.77%)")
    L(0.4, "INFO", "Checkpointing active. Checkpoints will be loaded from and saved to /mnt/shared/runs/llama3-8b-pt/checkpoint")
    L(0.8, "INFO", f"Loading the checkpoint at step {load_step}.")
    d = float(rng.uniform(26, 31))
    L(d, "INFO", "[GC] GC collection invoked by checkpointer. 0.04 seconds.")
    L(0.01, "INFO", f"Finished loading the checkpoint in {d + 0.05:.2f} seconds.")
    L(0.1, "INFO", f"Training starts at step {load_step + 1}, with local batch size 2, global batch size 256, sequence length 8192, total steps 30000 (warmup 2000)")
    return out, t


def step_lines(rank: int, run, node_jitter: float) -> list[tuple[datetime, str]]:
    out = []
    p = f"[rank{rank}]:[titan] "
    prev_t = None
    for i, (s, t, stage) in enumerate(run):
        tj = t + timedelta(seconds=node_jitter + float(rng.uniform(0, 0.004)))
        if s % 10 == 0 or i == 0:
            if prev_t is None:
                dt = 38.0 if i == 0 else STEP_S
                nsteps = 1
            else:
                dt = (t - prev_t[1]).total_seconds()
                nsteps = s - prev_t[0]
            tps = TOK_PER_GPU_STEP * nsteps / dt * (1 + rng.normal(0, 0.0015))
            tfl = tps * FLOP_PER_TOKEN / 1e12
            mfu = tfl * 1e12 / PEAK * 100
            loss = 2.43 - 0.012 * (s - 12000) / 1000 + rng.normal(0, 0.035)
            gn = abs(rng.normal(0.26, 0.03))
            mem = 61.88 + (0 if i > 3 else -2.1)
            out.append((tj, f"{p}{ttime(tj)} - root - INFO - step: {s:5d}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: {mem:5.2f}GiB({mem / 79.10 * 100:.2f}%)  tps: {round(tps):,}  tflops: {tfl:,.2f}  mfu: {mfu:.2f}%"))
            prev_t = (s, t)
        if s % 50 == 0:
            tg = tj + timedelta(seconds=0.002)
            out.append((tg, f"{p}{ttime(tg)} - root - INFO - [GC] Peforming periodical GC collection. 0.06 seconds."))
        if s % CKPT_EVERY == 0:
            ta = tj + timedelta(seconds=0.07)
            out.append((ta, f"{p}{ttime(ta)} - root - INFO - Saving the checkpoint (or staging if async is enabled)."))
            tb = ta + timedelta(seconds=0.05)
            out.append((tb, f"{p}{ttime(tb)} - root - INFO - [GC] GC collection invoked by checkpointer. 0.04 seconds."))
            # staging time of the step that follows
            nxt = run[i + 1][2] if i + 1 < len(run) else 9.0
            tc = tb + timedelta(seconds=max(nxt - 0.2, 1.0))
            out.append((tc, f"{p}{ttime(tc)} - root - INFO - Finished saving the checkpoint (or staging if async is enabled)in {max(nxt - 0.25, 1.0):.2f} seconds."))
    return out


def watchdog_lines(rank: int, pg_rank: int, t: datetime) -> list[tuple[datetime, str]]:
    # Verbatim message text: hiyouga/LlamaFactory#7396 (607, 1664, 1709 lines) and #6269
    # (621, 627 lines); only the rank numbers and the glog time are this incident's.
    t1 = t
    t2 = t1 + timedelta(microseconds=56876)
    t3 = t2 + timedelta(microseconds=35)
    t4 = t3 + timedelta(microseconds=19)
    t5 = t4 + timedelta(microseconds=8)

    def g(tt):  # PyTorch's c10 glog prefix: month without zero padding, nanoseconds
        return f"E{tt.month}{tt.day:02d} {tt.strftime('%H:%M:%S')}.{tt.microsecond:06d}{int(rng.integers(100, 999)):03d}"
    p = f"[rank{rank}]:"
    return [
        (t1, f"{p}[{g(t1)} ProcessGroupNCCL.cpp:607] [Rank {pg_rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out."),
        (t2, f"{p}[{g(t2)} ProcessGroupNCCL.cpp:1664] [PG 1 Rank {pg_rank}] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579."),
        (t3, f"{p}[{g(t3)} ProcessGroupNCCL.cpp:1709] [PG 1 Rank {pg_rank}] Timeout at NCCL work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579."),
        (t4, f"{p}[{g(t4)} ProcessGroupNCCL.cpp:621] [Rank {pg_rank}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."),
        (t5, f"{p}[{g(t5)} ProcessGroupNCCL.cpp:627] [Rank {pg_rank}] To avoid data inconsistency, we are taking the entire process down."),
        (t5 + timedelta(milliseconds=4), f"{p}terminate called after throwing an instance of 'c10::DistBackendError'"),
    ]


def job_logs() -> dict[str, list[str]]:
    files = {}
    for ni, node in enumerate(NODES):
        rank = 8 * ni
        lines: list[tuple[datetime, str]] = []
        j = float(rng.uniform(0.0, 0.03))
        # run 1
        t0 = JOB_PODS_START + timedelta(seconds=float(rng.uniform(1.0, 3.0)))
        lines += torchrun_banner(t0)
        init, _ = titan_init(rank, t0 + timedelta(seconds=17.3), RUN1_FROM)
        lines += init
        lines += step_lines(rank, run1, j)
        if ni != BADI:
            lines += watchdog_lines(rank, ni, WATCHDOG + timedelta(milliseconds=float(rng.uniform(0, 60))))
        else:
            # replacement pod: torchrun waits for a rendezvous the surviving agents never open
            t0 = REPLACEMENT_START + timedelta(seconds=2.2)
            lines += torchrun_banner(t0)
        # run 2
        t0 = RUN2_PODS_START + timedelta(seconds=float(rng.uniform(1.0, 3.0)))
        lines += torchrun_banner(t0)
        init, _ = titan_init(rank, t0 + timedelta(seconds=16.8), LAST_CKPT_1)
        lines += init
        lines += step_lines(rank, [r for r in run2 if r[1] <= W1 + timedelta(minutes=2)], j)
        lines.sort(key=lambda x: x[0])
        files[POD_OF[node]] = [s for _, s in lines]
    return files


# ---------------------------------------------------------------- node logs
def klog(sev: str, t: datetime, pid: int, src: str, msg: str) -> str:
    return f"{sev}{t.strftime('%m%d %H:%M:%S')}.{t.microsecond:06d} {pid:7d} {src}] {msg}"


def jline(t: datetime, host: str, ident: str, msg: str) -> str:
    return f"{t.strftime('%Y-%m-%dT%H:%M:%S')}+0000 {host} {ident}: {msg}"


def cid():
    return "".join(f"{x:02x}" for x in rng.integers(0, 256, 32))


def journal(node: str, ni: int) -> list[str]:
    kpid = 2911 + ni * 13
    cpid = 1744 + ni * 3
    K = f"kubelet[{kpid}]"
    C = f"containerd[{cpid}]"
    ev: list[tuple[datetime, str]] = []

    def kl(t, sev, src, msg):
        ev.append((t, jline(t, node, K, klog(sev, t, kpid, src, msg))))

    def cd(t, level, msg, ident=None):
        if ident is None:
            ident = "containerd[2873305]" if (node == BAD and t >= CONTAINERD_KILLED) else C
        ts_ = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}{int(rng.integers(100, 999))}Z"
        ev.append((t, jline(t, node, ident, f'time="{ts_}" level={level} msg={msg}')))

    def sysd(t, msg):
        ev.append((t, jline(t, node, "systemd[1]", msg)))

    pod = POD_OF[node]
    # benign background: cadvisor housekeeping warnings, probe and log-stats noise
    calico = f"calico-node-{rand_suffix()}"
    nexp = f"kube-prometheus-stack-prometheus-node-exporter-{rand_suffix()}"
    ids = [cid() for _ in range(2)]
    cal_uid, nexp_uid = [f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}" for h in ids]
    t = W0 + timedelta(seconds=float(rng.uniform(0, 300)))
    while t < W1:
        t = t + timedelta(microseconds=int(rng.integers(0, 999999)))
        r = rng.random()
        if r < 0.62:
            kl(t, "W", "container.go:586", f'"Housekeeping took longer than expected" err="housekeeping took too long" expected="1s" actual="{rng.uniform(1.02, 1.9):.3f}s"')
        elif r < 0.80:
            kl(t, "E", "log_metrics.go:66", f'"Failed to get pod stats" err="failed to get pod or container map: open /var/log/pods/gpu-operator_nvidia-cuda-validator-{rand_suffix()}_{cid()[:8]}-{cid()[:4]}-{cid()[:4]}-{cid()[:4]}-{cid()[:12]}: no such file or directory"')
        elif r < 0.93:
            kl(t, "I", "prober.go:107", f'"Probe failed" probeType="Readiness" pod="calico-system/{calico}" podUID="{cal_uid}" containerName="calico-node" probeResult="failure" output="calico/node is not ready: felix is not ready: readiness probe reporting 503\\n"')
        else:
            kl(t, "I", "prober.go:107", f'"Probe failed" probeType="Readiness" pod="monitoring/{nexp}" podUID="{nexp_uid}" containerName="node-exporter" probeResult="failure" output="Get \\"http://{NODE_IP[node]}:9100/\\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)"')
        t += timedelta(seconds=float(rng.exponential(95)))

    def pod_start(t0, podname, uid_, restarts_ok=True):
        c = cid()
        s = cid()
        kl(t0, "I", "kubelet.go:2417", f'"SyncLoop ADD" source="api" pods=["llm-train/{podname}"]')
        kl(t0 + timedelta(seconds=0.02), "I", "topology_manager.go:215", f'"Topology Admit Handler" podUID="{uid_}" podName="{podname}" podNamespace="llm-train"')
        cd(t0 + timedelta(seconds=0.4), "info", f'"RunPodSandbox for &PodSandboxMetadata{{Name:{podname},Uid:{uid_},Namespace:llm-train,Attempt:0,}}"')
        cd(t0 + timedelta(seconds=1.1), "info", f'"RunPodSandbox for &PodSandboxMetadata{{Name:{podname},Uid:{uid_},Namespace:llm-train,Attempt:0,}} returns sandbox id \\"{s}\\""')
        cd(t0 + timedelta(seconds=1.2), "info", f'"CreateContainer within sandbox \\"{s}\\" for container &ContainerMetadata{{Name:pytorch,Attempt:0,}}"')
        cd(t0 + timedelta(seconds=1.5), "info", f'"CreateContainer within sandbox \\"{s}\\" for &ContainerMetadata{{Name:pytorch,Attempt:0,}} returns container id \\"{c}\\""')
        cd(t0 + timedelta(seconds=1.5), "info", f'"StartContainer for \\"{c}\\""')
        cd(t0 + timedelta(seconds=1.8), "info", f'"StartContainer for \\"{c}\\" returns successfully"')
        kl(t0 + timedelta(seconds=2.0), "I", "kubelet.go:2449", f'"SyncLoop (PLEG): event for pod" pod="llm-train/{podname}" event={{"ID":"{uid_}","Type":"ContainerStarted","Data":"{c}"}}')
        return c, s

    def pod_stop(t0, podname, uid_, c, s, exit_code, kill=False):
        if kill:
            kl(t0, "I", "kuberuntime_container.go:779", f'"Killing container with a grace period" pod="llm-train/{podname}" podUID="{uid_}" containerName="pytorch" containerID="containerd://{c}" gracePeriod=30')
            cd(t0 + timedelta(seconds=0.01), "info", f'"StopContainer for \\"{c}\\" with timeout 30 (s)"')
            cd(t0 + timedelta(seconds=0.02), "info", f'"Stop container \\"{c}\\" with signal terminated"')
        te = t0 + timedelta(seconds=3.1 if kill else 0.4)
        cd(te, "info", f'"shim disconnected" id={c} namespace=k8s.io')
        cd(te, "warning", f'"cleaning up after shim disconnected" id={c} namespace=k8s.io')
        cd(te + timedelta(seconds=0.01), "info", '"cleaning up dead shim" namespace=k8s.io')
        if kill:
            cd(te + timedelta(seconds=0.05), "info", f'"StopContainer for \\"{c}\\" returns successfully"')
        kl(te + timedelta(seconds=0.3), "I", "kubelet.go:2449", f'"SyncLoop (PLEG): event for pod" pod="llm-train/{podname}" event={{"ID":"{uid_}","Type":"ContainerDied","Data":"{c}"}}')
        cd(te + timedelta(seconds=0.4), "info", f'"StopPodSandbox for \\"{s}\\""')
        cd(te + timedelta(seconds=0.9), "info", f'"TearDown network for sandbox \\"{s}\\" successfully"')
        cd(te + timedelta(seconds=0.9), "info", f'"StopPodSandbox for \\"{s}\\" returns successfully"')
        kl(te + timedelta(seconds=1.2), "I", "kubelet.go:2433", f'"SyncLoop DELETE" source="api" pods=["llm-train/{podname}"]')
        kl(te + timedelta(seconds=1.3), "I", "kubelet.go:2427", f'"SyncLoop REMOVE" source="api" pods=["llm-train/{podname}"]')

    def U():
        h = cid()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"

    u1 = U()
    c1, s1 = pod_start(JOB_PODS_START - timedelta(seconds=2.1), pod, u1)
    if node != BAD:
        pod_stop(WATCHDOG + timedelta(seconds=11.6), pod, u1, c1, s1, 1)
    u3 = U()
    pod_start(RUN2_PODS_START - timedelta(seconds=2.0), pod, u3)

    if node == BAD:
        stuck = "6da3eb52fc9884f3866a4c9f4489d34ef296ce79b3a30e17b450c0c65843ab56"  # quoted verbatim below
        # containerd stops answering: every CRI call that touches the stuck task waits.
        for k in range(6):
            tt = CONTAINERD_HANG + timedelta(seconds=120.3 + 61.7 * k + float(rng.uniform(0, 3)))
            if tt < SYSTEMCTL_RESTART:
                ev.append((tt, jline(tt, node, C, f'time="{tt.strftime("%Y-%m-%dT%H:%M:%S.")}{tt.microsecond:06d}{int(rng.integers(100, 999))}Z" level=error msg="get state for {stuck}" error="context deadline exceeded: unknown"')))
        for k in range(4):
            tt = CONTAINERD_HANG + timedelta(seconds=121.9 + 120.0 * k + float(rng.uniform(0, 1)))
            kl(tt, "E", "remote_runtime.go:407", '"ListContainers with filter from runtime service failed" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded" filter="&ContainerFilter{Id:,State:nil,PodSandboxId:,LabelSelector:map[string]string{},}"')
            kl(tt + timedelta(milliseconds=1), "E", "generic.go:238", '"GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"')
        # Episode 1: PLEG last seen active 07:38:52; the error texts are verbatim from the
        # sources listed in truth.yaml (durations included), so the lines fall where
        # last-seen + duration puts them.
        ep1 = ["3m0.416753742s", "3m2.325658446s", "3m3.925856965s", "3m5.30015447s", "3m7.126029625s",
               "3m10.30056416s", "3m15.300823802s", "3m20.301094771s", "3m21.3659944s", "3m25.306459083s",
               "3m26.3664198s", "3m31.367361s", "3m36.3678323s", "3m41.463610227s", "3m46.464602826s",
               "3m51.464916622s", "4m38.209858468s", "4m39.81021443s", "4m43.010445647s", "4m51.763621609s",
               "4m56.763892694s", "5m1.764136623s", "5m6.764478598s"]

        def dur(s):
            m, rest = s.split("m")
            return int(m) * 60 + float(rest[:-1])
        for d in ep1:
            tt = PLEG_LAST_1 + timedelta(seconds=dur(d))
            kl(tt, "E", "kubelet.go:2392", f'"Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active {d} ago; threshold is 3m0s"')
        tt = NOTREADY_1
        kl(tt, "I", "kubelet_node_status.go:679", f'"Recording event message for node" node="{node}" event="NodeNotReady"')
        kl(tt, "I", "setters.go:602", f'"Node became not ready" node="{node}" condition={{"type":"Ready","status":"False","lastHeartbeatTime":"{iso(tt)}","lastTransitionTime":"{iso(tt)}","reason":"KubeletNotReady","message":"PLEG is not healthy: pleg was last seen active 3m8.702564418s ago; threshold is 3m0s"}}')
        kl(READY_1, "I", "kubelet_node_status.go:679", f'"Recording event message for node" node="{node}" event="NodeReady"')
        # Episode 2
        ep2 = ["3m0.416753742s", "3m3.928932625s"]
        for d in ep2:
            tt = PLEG_LAST_2 + timedelta(seconds=dur(d))
            kl(tt, "E", "kubelet.go:2392", f'"Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active {d} ago; threshold is 3m0s"')
        tt = NOTREADY_2
        kl(tt, "I", "kubelet_node_status.go:679", f'"Recording event message for node" node="{node}" event="NodeNotReady"')
        kl(tt, "I", "setters.go:602", f'"Node became not ready" node="{node}" condition={{"type":"Ready","status":"False","lastHeartbeatTime":"{iso(tt)}","lastTransitionTime":"{iso(tt)}","reason":"KubeletNotReady","message":"PLEG is not healthy: pleg was last seen active 3m7.629592089s ago; threshold is 3m0s"}}')
        # the runtime status check now fails too (Status RPC timing out): container runtime is down
        tt = NOTREADY_2 + timedelta(seconds=95.3)
        while tt < CONTAINERD_UP:
            kl(tt, "E", "kubelet.go:2392", '"Skipping pod synchronization" err="container runtime is down"')
            tt += timedelta(seconds=float(rng.uniform(4.6, 5.2)) if rng.random() < 0.8 else float(rng.uniform(20, 60)))
        tt = PLEG_LAST_2 + timedelta(seconds=dur("7m51.835147826s"))
        kl(tt, "E", "kubelet.go:2392", '"Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 7m51.835147826s ago; threshold is 3m0s"')
        # taint manager marks the pod for deletion; the kubelet cannot stop it
        kl(EVICT + timedelta(seconds=0.4), "I", "kubelet.go:2433", f'"SyncLoop DELETE" source="api" pods=["llm-train/{pod}"]')
        kl(EVICT + timedelta(seconds=0.5), "I", "kuberuntime_container.go:779", f'"Killing container with a grace period" pod="llm-train/{pod}" podUID="{u1}" containerName="pytorch" containerID="containerd://{c1}" gracePeriod=30')
        # on-call restarts containerd; systemd has to SIGKILL it
        sysd(SYSTEMCTL_RESTART, "Stopping containerd container runtime...")
        sysd(CONTAINERD_KILLED, "containerd.service: State 'stop-sigterm' timed out. Killing.")
        sysd(CONTAINERD_KILLED, f"containerd.service: Killing process {cpid} (containerd) with signal SIGKILL.")
        sysd(CONTAINERD_KILLED + timedelta(seconds=0.08), "containerd.service: Main process exited, code=killed, status=9/KILL")
        sysd(CONTAINERD_KILLED + timedelta(seconds=0.08), "containerd.service: Failed with result 'timeout'.")
        sysd(CONTAINERD_KILLED + timedelta(seconds=0.09), "Stopped containerd container runtime.")
        sysd(CONTAINERD_KILLED + timedelta(seconds=0.09), "containerd.service: Consumed 3h 41min 12.774s CPU time.")
        sysd(CONTAINERD_KILLED + timedelta(seconds=0.11), "Starting containerd container runtime...")
        C2 = "containerd[2873305]"
        t2 = CONTAINERD_KILLED + timedelta(seconds=0.14)
        cd(t2, "info", '"starting containerd" revision=88bf19b2105c8b17560993bee28a01ddc2f97182 version=1.7.24', C2)
        for plug, typ in (("io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1"),
                          ("io.containerd.snapshotter.v1.native", "io.containerd.snapshotter.v1"),
                          ("io.containerd.snapshotter.v1.overlayfs", "io.containerd.snapshotter.v1"),
                          ("io.containerd.content.v1.content", "io.containerd.content.v1"),
                          ("io.containerd.metadata.v1.bolt", "io.containerd.metadata.v1"),
                          ("io.containerd.runtime.v2.task", "io.containerd.runtime.v2"),
                          ("io.containerd.grpc.v1.cri", "io.containerd.grpc.v1")):
            t2 += timedelta(milliseconds=float(rng.uniform(1, 9)))
            cd(t2, "info", f'"loading plugin \\"{plug}\\"..." type={typ}', C2)
        t2 += timedelta(milliseconds=41)
        cd(t2, "info", '"Start cri plugin with config {PluginConfig:{ContainerdConfig:{Snapshotter:overlayfs DefaultRuntimeName:nvidia DefaultRuntime:{Type: Path: Engine: PodAnnotations:[] ContainerAnnotations:[] Root: Options:map[] PrivilegedWithoutHostDevices:false PrivilegedWithoutHostDevicesAllDevicesAllowed:false BaseRuntimeSpec: NetworkPluginConfDir: NetworkPluginMaxConfNum:0 Snapshotter: SandboxMode:}}}}"', C2)
        t2 += timedelta(milliseconds=12)
        cd(t2, "info", "serving... address=/run/containerd/containerd.sock.ttrpc", C2)
        cd(t2, "info", "serving... address=/run/containerd/containerd.sock", C2)
        cd(t2 + timedelta(milliseconds=3), "info", '"Start subscribing containerd event"', C2)
        cd(t2 + timedelta(milliseconds=4), "info", '"Start recovering state"', C2)
        cd(t2 + timedelta(milliseconds=310), "info", '"Start event monitor"', C2)
        cd(t2 + timedelta(milliseconds=311), "info", '"containerd successfully booted in 0.447613s"', C2)
        sysd(t2 + timedelta(milliseconds=312), "Started containerd container runtime.")
        kl(READY_2, "I", "kubelet_node_status.go:679", f'"Recording event message for node" node="{node}" event="NodeReady"')
        pod_stop(POD_KILLED - timedelta(seconds=3.1), pod, u1, c1, s1, 137, kill=True)
        u2 = U()
        c2, s2 = pod_start(REPLACEMENT_START - timedelta(seconds=1.8), pod, u2)
        pod_stop(JOB_RESTART + timedelta(seconds=1.4), pod, u2, c2, s2, 143, kill=True)
    ev.sort(key=lambda x: x[0])
    head = "-- Journal begins at Mon 2025-03-31 14:%02d:%02d UTC, ends at Wed 2025-04-09 10:44:%02d UTC. --" % (
        2 + ni * 97 // 60 % 60, 30 + ni % 29, ni + 3)
    return [head] + [s for t, s in ev if W0 - timedelta(minutes=20) <= t <= W1 + timedelta(minutes=5)]


BOOT = "Linux version 5.15.0-134-generic (buildd@lcy02-amd64-059) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #145-Ubuntu SMP Wed Feb 12 20:08:39 UTC 2025 (Ubuntu 5.15.0-134.145-generic 5.15.178)"


def dmesg(node: str, ni: int) -> list[str]:
    boot = T("2025-03-31T14:02:11") + timedelta(seconds=ni * 97.3)
    ev = []

    def k(sec, msg):
        ev.append((boot + timedelta(seconds=sec), msg))
    k(0.0, BOOT)
    k(0.0, "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-134-generic root=UUID=6f3c3a9e-0b4e-4d47-9b8f-4c2c1f0b7d21 ro iommu=pt pci=realloc=off init_on_alloc=0 transparent_hugepage=madvise")
    k(0.0, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 04/17/2024")
    k(0.52, "Memory: 2111322304K/2147022732K available (16393K kernel code, 4396K rwdata, 10876K rodata, 3312K init, 18596K bss, 35700428K reserved, 0K cma-reserved)")
    k(1.83, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs")
    k(4.91, "nvme nvme0: 64/0/0 default/read/poll queues")
    k(5.12, " nvme0n1: p1 p2")
    k(9.74, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    for h, bus in enumerate(["1a", "3c", "4d", "5e", "9c", "bc", "cc", "dc"]):
        k(11.2 + h * 0.3, f"mlx5_core 0000:{bus}:00.0: firmware version: 28.42.1000")
        k(11.25 + h * 0.3, f"mlx5_core 0000:{bus}:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)")
        k(12.9 + h * 0.05, f"mlx5_core 0000:{bus}:00.0: Port module event: module 0, Cable plugged")
    k(14.33, "nvidia: loading out-of-tree module taints kernel.")
    k(14.33, "nvidia: module license 'NVIDIA' taints kernel.")
    k(14.52, "nvidia-nvlink: Nvlink Core is being initialized, major device number 509")
    for g, p in enumerate(PCI):
        k(14.6 + g * 0.02, f"nvidia {p.lower()[4:]}: enabling device (0000 -> 0002)")
    k(14.91, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Thu Feb 27 17:24:59 UTC 2025")
    k(15.31, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  570.124.06  Thu Feb 27 16:59:46 UTC 2025")
    k(36.02, "NET: Registered PF_ALG protocol family")
    k(41.7, "nvidia_peermem: loading out-of-tree module taints kernel.")
    k(52.4, "IPVS: Registered protocols (TCP, UDP, SCTP, AH, ESP)")
    k(52.4, "IPVS: ipvs loaded.")
    # inside the window: calico interfaces of pods created, and kube-proxy IPVS noise
    def ctime(t):
        return (t - boot).total_seconds()
    starts = [JOB_PODS_START - timedelta(seconds=1.3), RUN2_PODS_START - timedelta(seconds=1.2)]
    if node == BAD:
        starts.append(REPLACEMENT_START - timedelta(seconds=1.0))
    for s in starts:
        iface = "cali" + cid()[:11]
        k(ctime(s), f"IPv6: ADDRCONF(NETDEV_CHANGE): {iface}: link becomes ready")
    t = W0 - timedelta(minutes=30)
    while t < W1:
        t += timedelta(seconds=float(rng.exponential(1900)))
        k(ctime(t), "IPVS: rr: TCP 10.96.114.20:9090 - no destination available")
    ev.sort(key=lambda x: x[0])
    return [f"[{t.strftime('%a %b')} {t.day:2d} {t.strftime('%H:%M:%S %Y')}] {m}" for t, m in ev if t <= W1 + timedelta(minutes=5)]


# ---------------------------------------------------------------- kubectl events
def age(t: datetime, now: datetime) -> str:
    s = int((now - t).total_seconds())
    if s < 120:
        return f"{s}s"
    m = s // 60
    if m < 10:
        return f"{m}m{s % 60}s"
    return f"{m}m"


def events(now: datetime) -> list[str]:
    ev = []  # (last, first, count, ns, type, reason, obj, msg)
    e = lambda *a: ev.append(a)
    pod = POD_OF[BAD]
    e(NOTREADY_2, NOTREADY_1, 2, "default", "Normal", "NodeNotReady", f"node/{BAD}", f"Node {BAD} status is now: NodeNotReady")
    e(READY_2, READY_1, 2, "default", "Normal", "NodeReady", f"node/{BAD}", f"Node {BAD} status is now: NodeReady")
    for p in (pod, "nvidia-dcgm-exporter-" + rand_suffix(), "kube-prometheus-stack-prometheus-node-exporter-" + rand_suffix(),
              "calico-node-" + rand_suffix(), "kube-proxy-" + rand_suffix(), "nvidia-device-plugin-daemonset-" + rand_suffix()):
        ns = "llm-train" if p == pod else ("gpu-operator" if "nvidia" in p else ("monitoring" if "prom" in p else ("calico-system" if "calico" in p else "kube-system")))
        e(NOTREADY_2 + timedelta(seconds=4.8), NOTREADY_1 + timedelta(seconds=4.6), 2, ns, "Warning", "NodeNotReady", f"pod/{p}", "Node is not ready")
    e(EVICT, EVICT, 1, "llm-train", "Normal", "TaintManagerEviction", f"pod/{pod}", f"Marking for deletion Pod llm-train/{pod}")
    e(EVICT + timedelta(seconds=0.5), EVICT + timedelta(seconds=0.5), 1, "llm-train", "Normal", "Killing", f"pod/{pod}", "Stopping container pytorch")
    e(REPLACEMENT_START - timedelta(seconds=3.1), REPLACEMENT_START - timedelta(seconds=3.1), 1, "llm-train", "Normal", "SuccessfulCreatePod", "pytorchjob/llama3-8b-pt", f"Created pod: {pod}")
    e(REPLACEMENT_START - timedelta(seconds=3.0), REPLACEMENT_START - timedelta(seconds=3.0), 1, "llm-train", "Normal", "Scheduled", f"pod/{pod}", f"Successfully assigned llm-train/{pod} to {BAD}")
    img = "registry.ml.internal/llm/torchtitan:2025.03.2-cu126"
    for dt, r, m in ((1.0, "Pulled", f'Container image "{img}" already present on machine'), (1.3, "Created", "Created container pytorch"), (1.8, "Started", "Started container pytorch")):
        e(REPLACEMENT_START - timedelta(seconds=3) + timedelta(seconds=dt), REPLACEMENT_START - timedelta(seconds=3) + timedelta(seconds=dt), 1, "llm-train", "Normal", r, f"pod/{pod}", m)
    e(JOB_RESTART - timedelta(seconds=0.8), JOB_RESTART - timedelta(seconds=0.8), 1, "llm-train", "Normal", "ExitedWithCode", "pytorchjob/llama3-8b-pt", "Pod: llm-train.llama3-8b-pt-master-0 exited with code 1")
    e(JOB_RESTART, JOB_RESTART, 1, "llm-train", "Warning", "PyTorchJobRestarting", "pytorchjob/llama3-8b-pt", "PyTorchJob llama3-8b-pt is restarting because 1 Master replica(s) failed.")
    for ni, node in enumerate(NODES):
        p = POD_OF[node]
        td = JOB_RESTART + timedelta(seconds=0.3 + ni * 0.05)
        e(td, td, 1, "llm-train", "Normal", "SuccessfulDeletePod", "pytorchjob/llama3-8b-pt", f"Deleted pod: {p}")
        if node == BAD:
            e(td + timedelta(seconds=0.1), td + timedelta(seconds=0.1), 1, "llm-train", "Normal", "Killing", f"pod/{p}", "Stopping container pytorch")
        tc = RUN2_PODS_START - timedelta(seconds=4.0) + timedelta(seconds=ni * 0.04)
        e(tc, tc, 1, "llm-train", "Normal", "SuccessfulCreatePod", "pytorchjob/llama3-8b-pt", f"Created pod: {p}")
        e(tc + timedelta(seconds=0.1), tc + timedelta(seconds=0.1), 1, "llm-train", "Normal", "Scheduled", f"pod/{p}", f"Successfully assigned llm-train/{p} to {node}")
        for dt, r, m in ((1.0, "Pulled", f'Container image "{img}" already present on machine'), (1.3, "Created", "Created container pytorch"), (1.8, "Started", "Started container pytorch")):
            e(tc + timedelta(seconds=dt), tc + timedelta(seconds=dt), 1, "llm-train", "Normal", r, f"pod/{p}", m)
    ev = [x for x in ev if (now - x[0]).total_seconds() < 3600]
    ev.sort(key=lambda x: x[0])
    rows = [("NAMESPACE", "LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE")]
    for last, first, cnt, ns, typ, reason, obj, msg in ev:
        ls = age(last, now) if cnt == 1 else f"{age(last, now)} (x{cnt} over {age(first, now)})"
        rows.append((ns, ls, typ, reason, obj, msg))
    w = [max(len(r[i]) for r in rows) for i in range(5)]
    return ["   ".join(r[i].ljust(w[i]) for i in range(5)) + "   " + r[5] for r in rows]


# ---------------------------------------------------------------- write
def write_lines(path: str, lines: list[str], mtime: datetime | None = None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    if mtime is not None:
        os.utime(path, (mtime.timestamp(), mtime.timestamp()))


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))

    # logs first use the rng in a fixed order too
    jl = job_logs()
    for pod, lines in jl.items():
        write_lines(os.path.join(OUT, "logs", "job", f"{pod}.log"), lines, W1 + timedelta(minutes=2))
    for ni, node in enumerate(NODES):
        write_lines(os.path.join(OUT, "logs", node, "journal-kubelet-containerd.log"), journal(node, ni), W1 + timedelta(minutes=14))
        write_lines(os.path.join(OUT, "logs", node, "dmesg-T.txt"), dmesg(node, ni), W1 + timedelta(minutes=14))
    cap = T("2025-04-09T08:21:43")
    write_lines(os.path.join(OUT, "logs", "kubectl", "get-events-A-0821Z.txt"), events(cap), cap)

    to_parquet(build_dcgm(), os.path.join(OUT, "metrics", "prometheus-dcgm-exporter.parquet"))
    to_parquet(build_node_exporter(), os.path.join(OUT, "metrics", "prometheus-node-exporter.parquet"))
    to_parquet(build_kube(), os.path.join(OUT, "metrics", "prometheus-kube.parquet"))

    inc = {
        "id": ID,
        "title": "Llama-3 8B PyTorchJob crashed after containerd hung on one node",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": "2025-04-09T07:00:00+00:00", "end": "2025-04-09T07:35:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "hgx-prod-k8s", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
        "trainer": {"gpus": 128, "seq_length": 8192, "global_batch_size": 256},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    base_tps = NGPU * TOK_PER_GPU_STEP / STEP_S
    down_s = (RUN2_FIRST - POD_KILLED).total_seconds()
    redo_steps = LAST_STEP_1 - LAST_CKPT_1
    truth = {
        "id": ID,
        "cause": "containerd on hgx-h100-012 hung (CRI calls timing out), so the kubelet's PLEG went unhealthy, the node flapped NotReady and the taint manager evicted the job's pod there; losing those 8 ranks left the other 120 ranks blocked in an ALLREDUCE until the NCCL watchdog aborted them and the PyTorchJob controller restarted the whole job.",
        "cause_metrics": ["kube_node_status_condition", "kubelet_pleg_last_seen_seconds", "kubelet_runtime_operations_errors_total",
                          "kube_pod_container_status_running", "up (dcgm-exporter and node-exporter targets of hgx-h100-012 vanish while it is NotReady)"],
        "cause_log_evidence": [
            {"text": 'time="…" level=error msg="get state for 6da3eb52fc9884f3866a4c9f4489d34ef296ce79b3a30e17b450c0c65843ab56" error="context deadline exceeded: unknown"',
             "where": "logs/hgx-h100-012/journal-kubelet-containerd.log (containerd)",
             "source": "https://github.com/containerd/containerd/issues/5274 (comment by paulgmiller, 2021-03-27); verbatim, time adapted"},
            {"text": '"Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m0.416753742s ago; threshold is 3m0s"',
             "where": "logs/hgx-h100-012/journal-kubelet-containerd.log (kubelet)",
             "source": "Netcracker/KubeMarine documentation/Troubleshooting.md ('Nodes Have NotReady Status Periodically'); verbatim message, klog header (time, thread id, kubelet.go line) adapted"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active {3m2.325658446s, 3m3.925856965s, 3m7.126029625s} ago; threshold is 3m0s\"",
             "source": "https://github.com/moby/moby/issues/44300 (kubelet journal in the description); error text verbatim, reframed in the v1.29 structured 'Skipping pod synchronization' form"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active {3m5.30015447s, 3m10.30056416s, 3m15.300823802s, 3m20.301094771s, 3m25.306459083s} ago; threshold is 3m0s\"",
             "source": "https://github.com/kubernetes/kubernetes/issues/61117 (description); error text verbatim, reframed as above"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active {3m21.3659944s, 3m26.3664198s, 3m31.367361s, 3m36.3678323s} ago; threshold is 3m0s\"",
             "source": "https://github.com/kubernetes/kubernetes/issues/110143 (description); error text verbatim, reframed as above"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active {3m41.463610227s, 3m46.464602826s, 3m51.464916622s} ago; threshold is 3m0s\"",
             "source": "bertreyking/bertreyking.github.io src/kubernetes/kubelet-pleg-error.md; error text verbatim, reframed as above"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active {4m38.209858468s, 4m39.81021443s, 4m43.010445647s, 4m51.763621609s, 4m56.763892694s, 5m1.764136623s, 5m6.764478598s} ago; threshold is 3m0s\"",
             "source": "https://github.com/k3s-io/k3s/issues/2370 (kubelet under k3s with a hung containerd); error text verbatim, reframed as above"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active 3m3.928932625s ago; threshold is 3m0s\"",
             "source": "https://github.com/kubernetes/kubernetes/issues/77728 (description); error text verbatim"},
            {"text": "err=\"PLEG is not healthy: pleg was last seen active 7m51.835147826s ago; threshold is 3m0s\"",
             "source": "https://github.com/containerd/containerd/issues/5274 (description); error text verbatim"},
            {"text": '"Skipping pod synchronization" err="container runtime is down"',
             "source": "https://github.com/kubernetes/kubernetes/issues/82346 (comment 2019-10-24, 'skipping pod synchronization - container runtime is down', containerd node) and https://github.com/kubernetes/website/issues/8030; error text verbatim, v1.29 structured form"},
            {"text": '"Node became not ready" … "reason":"KubeletNotReady","message":"PLEG is not healthy: pleg was last seen active 3m8.702564418s ago; threshold is 3m0s"',
             "source": "https://github.com/moby/moby/issues/44300 ('Node became not ready: {... Reason:KubeletNotReady Message:PLEG is not healthy: pleg was last seen active 3m8.702564418s ago; threshold is 3m0s}'); message verbatim, condition printed in the v1.29 JSON form"},
            {"text": '"Node became not ready" … "message":"PLEG is not healthy: pleg was last seen active 3m7.629592089s ago; threshold is 3m0s"',
             "source": "https://github.com/kubernetes/kubernetes/issues/45419 (description); message verbatim, v1.29 form"},
            {"text": "GenericPLEG: Unable to retrieve pods: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
             "source": "https://github.com/k3s-io/k3s/issues/2370 and https://github.com/cri-o/cri-o/issues/1228; error text verbatim, v1.29 structured form (\"GenericPLEG: Unable to retrieve pods\" err=...)"},
            {"text": "ListContainers with filter &ContainerFilter{Id:,State:nil,PodSandboxId:,LabelSelector:map[string]string{},} from runtime service failed: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
             "source": "https://github.com/k3s-io/k3s/issues/2370; filter and error text verbatim, v1.29 structured form"},
            {"text": "Node hgx-h100-012 status is now: NodeNotReady / NodeReady (kubectl get events)",
             "where": "logs/kubectl/get-events-A-0821Z.txt",
             "source": "event wording as in https://github.com/kubernetes/minikube/issues/6822 ('Node docker2 status is now: NodeNotReady'); host adapted"},
            {"text": "Node is not ready (Warning NodeNotReady on the node's pods)",
             "source": "https://github.com/bsycorp/kind/issues/46 (kube-controller-manager 'reason=\"NodeNotReady\" message=\"Node is not ready\"')"},
            {"text": "Marking for deletion Pod llm-train/llama3-8b-pt-worker-10 (TaintManagerEviction)",
             "source": "kubernetes/kubernetes NoExecuteTaintManager.emitPodDeletionEvent: Eventf(..., \"TaintManagerEviction\", \"Marking for deletion Pod %s\", ...); pod adapted"},
            {"text": "PyTorchJob llama3-8b-pt is restarting because 1 Master replica(s) failed. / Pod: llm-train.llama3-8b-pt-master-0 exited with code 1",
             "source": "https://github.com/kubeflow/trainer/issues/2044 ('PyTorchJob kfto-01 is restarting because 1 Master replica(s) failed.', 'Pod: default.kfto-01-master-0 exited with code 1'); job and namespace names adapted"},
            {"text": "[rankN]:[E0409 08:04:5x ProcessGroupNCCL.cpp:607] [Rank K] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.",
             "where": "logs/job/*.log (15 of 16 pods)",
             "source": "https://github.com/hiyouga/LlamaFactory/issues/7396; verbatim, rank numbers and glog time adapted"},
            {"text": "[PG 1 Rank K] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579. / Timeout at NCCL work: 1580, ...",
             "source": "https://github.com/hiyouga/LlamaFactory/issues/7396; verbatim, rank and time adapted"},
            {"text": "[Rank K] Some NCCL operations have failed or timed out. ... / [Rank K] To avoid data inconsistency, we are taking the entire process down.",
             "source": "https://github.com/hiyouga/LlamaFactory/issues/6269; verbatim, rank and time adapted"},
            {"text": "terminate called after throwing an instance of 'c10::DistBackendError'",
             "source": "https://github.com/arrival-ltd/catalyst-rl-tutorial/issues/15 (title and log)"},
        ],
        "hosts": [BAD],
        "gpu": None,
        "onset": CONTAINERD_HANG.isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": 100.0,
        "job_throughput_loss_detail": {
            "throughput_zero_from": POD_KILLED.isoformat().replace("+00:00", "Z"),
            "throughput_back_at": RUN2_FIRST.isoformat().replace("+00:00", "Z"),
            "minutes_without_progress": round(down_s / 60, 1),
            "steps_redone_from_checkpoint": int(redo_steps),
            "last_step_before_crash": int(LAST_STEP_1),
            "checkpoint_restored": int(LAST_CKPT_1),
            "baseline_tokens_per_second": round(base_tps),
            "lost_gpu_hours_including_redone_steps": round((down_s + redo_steps * STEP_S) * NGPU / 3600, 1),
            "note": "throughput is 0 (100% loss) from the pod kill until the restarted run trains again; the containerd hang itself (07:38:40-07:54:48) did not slow training, the running containers were unaffected.",
        },
        "timeline": {
            "containerd_hang_begins": CONTAINERD_HANG.isoformat(),
            "first_pleg_unhealthy": (PLEG_LAST_1 + timedelta(seconds=180.416753742)).isoformat(),
            "notready_1": [NOTREADY_1.isoformat(), READY_1.isoformat()],
            "notready_2": [NOTREADY_2.isoformat(), READY_2.isoformat()],
            "taint_eviction": EVICT.isoformat(),
            "containerd_restart_requested": SYSTEMCTL_RESTART.isoformat(),
            "containerd_sigkilled_and_restarted": CONTAINERD_KILLED.isoformat(),
            "job_pod_killed": POD_KILLED.isoformat(),
            "nccl_watchdog_abort": WATCHDOG.isoformat(),
            "pytorchjob_restarting": JOB_RESTART.isoformat(),
            "training_resumes": RUN2_FIRST.isoformat(),
        },
        "what_a_good_postmortem_says": (
            "The job did not slow down: it stopped. containerd on hgx-h100-012 hung from about 07:38:40 (CRI calls timing out on a stuck task), the kubelet's PLEG went unhealthy, the node flapped NotReady twice and the taint manager evicted worker-10 after 300 s; "
            "once containerd was SIGKILLed and restarted at 07:54:34 the kubelet killed the pod, the other 120 ranks blocked in an ALLREDUCE until the 600 s NCCL watchdog aborted them, and the PyTorchJob controller restarted everything at 08:05, training again at %s on the same nodes from the step-%d checkpoint (about %d min of progress and %d steps lost). "
            "The NCCL timeouts on every rank are a consequence, not the cause, and no GPU, NIC or link is at fault; action items are to find why containerd hung (stuck shim/task 6da3eb52…, version 1.7.24), alert on kubelet_pleg_last_seen_seconds / NotReady before eviction, and lower the collective timeout or enable torchrun fault tolerance so a lost pod does not cost ten idle minutes of 128 GPUs."
            % (RUN2_FIRST.strftime("%H:%M"), LAST_CKPT_1, round(down_s / 60), redo_steps)),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, allow_unicode=True, width=140)


if __name__ == "__main__":
    main()
