#!/usr/bin/env python3
"""Generate incident folder `k8s-ephemeral-eviction-0611` beside this script.

Kubernetes GPU cluster (25 HGX H100 nodes, kube-prometheus-stack, gpu-operator).
A 24-node (192 GPU) Megatron-LM pretraining run is managed by a JobSet.  Every
trainer pod streams data shards into a local cache in its container's writable
layer; from ~07:04 UTC the data loader enters a new blend phase and the cache
grows ~23 GiB/h on every node.  All nodes have a 1.9 TB root NVMe, except
gpu-h100-007 which was re-imaged with the installer's default 100 GB root LV.
Its root filesystem falls to the kubelet's hard-eviction threshold
(nodefs.available<10%) at 08:06:12 UTC, the kubelet evicts the trainer pod
(global ranks 0-7), the job dies on all ranks (NCCL remote errors), and the
JobSet controller restarts it; the replacement pod lands on spare node
gpu-h100-025 (image pull ~6.6 min) and training resumes at 08:17 from the
iteration-10500 checkpoint.

Fixed seed; byte-for-byte reproducible.  Writes <here>/k8s-ephemeral-eviction-0611/.
"""
from __future__ import annotations

import json
import math
import shutil
import string
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

ID = "k8s-ephemeral-eviction-0611"
HERE = Path(__file__).resolve().parent
OUT = HERE / ID
SEED = 20250611
rng = np.random.default_rng(SEED)
UTC = timezone.utc

W0 = datetime(2025, 6, 11, 6, 0, 0, tzinfo=UTC)
W1 = datetime(2025, 6, 11, 10, 0, 0, tzinfo=UTC)
BASE1 = datetime(2025, 6, 11, 6, 50, 0, tzinfo=UTC)
STEP = 15.0  # Prometheus scrape interval
T0 = W0.timestamp()
T1 = W1.timestamp()


def ts(x: float) -> datetime:
    return datetime.fromtimestamp(x, tz=UTC)


def at(h, m, s=0.0) -> float:
    return datetime(2025, 6, 11, h, m, 0, tzinfo=UTC).timestamp() + s


def rnd_suffix(n=5, alphabet="bcdfghjklmnpqrstvwxz2456789"):
    return "".join(rng.choice(list(alphabet), n))


def uuid4_like():
    h = "".join(rng.choice(list("0123456789abcdef"), 32))
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[int(h[16], 16) % 4]}{h[17:20]}-{h[20:32]}"


def gpu_uuid():
    h = "".join(rng.choice(list("0123456789abcdef"), 32))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


# --------------------------------------------------------------------------------------
# Cluster layout
# --------------------------------------------------------------------------------------
NODES = [f"gpu-h100-{i:03d}" for i in range(1, 26)]
SPARE = "gpu-h100-025"
BAD = "gpu-h100-007"
NODE_IP = {n: f"10.40.12.{10 + i}" for i, n in enumerate(NODES, start=1)}
NODE_IDX = {n: i for i, n in enumerate(NODES)}
PCI = ["18:00.0", "2A:00.0", "3A:00.0", "5D:00.0", "9A:00.0", "AB:00.0", "BA:00.0", "DB:00.0"]
DRIVER = "550.90.07"
MODEL = "NVIDIA H100 80GB HBM3"
FB_TOTAL = 81559
FB_RES = 526
JOBSET = "llama-8b-pt"
NS = "llm-training"
IMAGE = "registry.ml.internal/llm/megatron-train:2.0.1-r17"

# pod i of run1 -> node.  trainer-0 (ranks 0-7) on the node with the small root LV.
job_nodes = [n for n in NODES if n != SPARE]
others = [n for n in job_nodes if n != BAD]
perm = list(rng.permutation(others))
RUN1_NODE = {0: BAD}
for i, n in enumerate(perm, start=1):
    RUN1_NODE[i] = n
RUN2_NODE = dict(RUN1_NODE)
RUN2_NODE[0] = SPARE
RUN1_POD = {i: f"{JOBSET}-trainer-{i}-0-{rnd_suffix()}" for i in range(24)}
RUN2_POD = {i: f"{JOBSET}-trainer-{i}-0-{rnd_suffix()}" for i in range(24)}
RUN1_UID = {i: uuid4_like() for i in range(24)}
RUN2_UID = {i: uuid4_like() for i in range(24)}
DCGM_POD = {n: f"nvidia-dcgm-exporter-{rnd_suffix()}" for n in NODES}
DCGM_IP = {n: f"10.244.{64 + NODE_IDX[n]}.{int(rng.integers(3, 250))}" for n in NODES}
GPU_UUIDS = {(n, g): gpu_uuid() for n in NODES for g in range(8)}

# --------------------------------------------------------------------------------------
# Job timeline
# --------------------------------------------------------------------------------------
RUN1_TRAIN_START = at(3, 16, 2.0)     # first iteration after resume from 6500
RUN1_RESUME_ITER = 6500
T_CACHE = at(7, 4, 31.0)              # data loader enters blend phase 2 -> cache grows
T_EVICT = at(8, 6, 12.412)            # kubelet eviction decision on gpu-h100-007
T_SIGTERM = T_EVICT + 0.71
T_NEWPODS = at(8, 7, 3.0)             # JobSet recreates child Jobs (restartAttempt 1)
T_PULL0 = at(8, 7, 6.2)
T_PULLED = T_PULL0 + 398.5            # 6m38.5s image pull on the spare node
T_START25 = T_PULLED + 3.1
T_RDZV = T_START25 + 19.0
T_CKPT_LOAD0 = T_RDZV + 41.0
T_CKPT_LOAD1 = T_CKPT_LOAD0 + 131.0
T_RUN2_TRAIN = T_CKPT_LOAD1 + 14.0

ITER_S = 4.03
CKPT_EVERY = 500
CKPT_SAVE_S = 24.5
GBS = 1536
SEQ = 4096
TRAIN_ITERS = 250000


def iteration_schedule(start_iter, t_start, t_stop):
    """Return arrays (iteration, end_time, ckpt_flag) for iterations completed before t_stop."""
    its, ends, ck = [], [], []
    t = t_start
    it = start_iter
    ar = 0.0
    while True:
        ar = 0.85 * ar + rng.normal(0, 0.004)
        dt = ITER_S * (1 + ar + rng.normal(0, 0.0025))
        if rng.random() < 0.002:
            dt += rng.uniform(0.3, 1.2)  # occasional dataloader hiccup
        t += dt
        it += 1
        if t > t_stop:
            break
        its.append(it)
        ends.append(t)
        flag = it % CKPT_EVERY == 0
        ck.append(flag)
        if flag:
            t += CKPT_SAVE_S + rng.normal(0, 1.2)
    return np.array(its), np.array(ends), np.array(ck)


R1_IT, R1_END, R1_CK = iteration_schedule(RUN1_RESUME_ITER, RUN1_TRAIN_START, T_EVICT + 1.5)
FAIL_ITER = int(R1_IT[-1])
LAST_CKPT = int(R1_IT[R1_CK][-1])
R2_IT, R2_END, R2_CK = iteration_schedule(LAST_CKPT, T_RUN2_TRAIN, T1 + 120)

# checkpoint save windows (GPUs mostly idle) for both runs
CKPT_WIN = [(e, e + CKPT_SAVE_S) for e in R1_END[R1_CK]] + [(e, e + CKPT_SAVE_S) for e in R2_END[R2_CK]]

# per-node death time of run1 processes
rank_death = {}
for i in range(24):
    n = RUN1_NODE[i]
    if i == 0:
        rank_death[n] = T_SIGTERM + 2.3
    else:
        rank_death[n] = T_EVICT + 6.0 + float(rng.uniform(0.0, 32.0))
# container start of run2 on each node
run2_start = {}
for i in range(24):
    n = RUN2_NODE[i]
    run2_start[n] = T_START25 if n == SPARE else T_NEWPODS + 19.0 + float(rng.uniform(0, 9))


def node_activity(n, t):
    """Activity level per sample time: 1 train, ~0.05 checkpoint pause, 0 idle; plus FB fill fraction."""
    a = np.zeros_like(t)
    fb = np.zeros_like(t)
    if n in rank_death:  # ran run1
        m = t < rank_death[n]
        a[m] = 1.0
        fb[m] = 1.0
    if n in run2_start:
        s0 = run2_start[n]
        m_init = (t >= s0) & (t < T_RDZV)
        a[m_init] = 0.0
        fb[m_init] = 0.0
        m_nccl = (t >= T_RDZV) & (t < T_CKPT_LOAD0)
        a[m_nccl] = 0.03
        fb[m_nccl] = 0.06
        m_load = (t >= T_CKPT_LOAD0) & (t < T_RUN2_TRAIN)
        frac = np.clip((t - T_CKPT_LOAD0) / (T_CKPT_LOAD1 - T_CKPT_LOAD0), 0, 1)
        a[m_load] = 0.08
        fb[m_load] = 0.06 + 0.62 * frac[m_load]
        m_tr = t >= T_RUN2_TRAIN
        a[m_tr] = 1.0
        fb[m_tr] = 1.0
    for c0, c1 in CKPT_WIN:
        m = (t >= c0) & (t < c1) & (a > 0.5)
        a[m] = 0.06
    return a, fb


# --------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------
def scrape_times(offset):
    k = np.arange(int((T1 - T0) / STEP) + 1)
    t = T0 + offset + k * STEP + rng.normal(0, 0.0025, k.size)
    return t[(t >= T0) & (t < T1)]


def ar1(nsamp, sigma, phi=0.8):
    e = rng.normal(0, sigma * math.sqrt(1 - phi * phi), nsamp)
    out = np.empty(nsamp)
    acc = rng.normal(0, sigma)
    for i in range(nsamp):
        acc = phi * acc + e[i]
        out[i] = acc
    return out


def lag(target, tau, dt=STEP, x0=None):
    out = np.empty_like(target)
    x = target[0] if x0 is None else x0
    alpha = 1 - math.exp(-dt / tau)
    for i, v in enumerate(target):
        x = x + alpha * (v - x)
        out[i] = x
    return out


def hold30(v, phase):
    """dcgm-exporter collects every 30 s; a 15 s scrape returns the last collected value."""
    idx = np.arange(v.size)
    src = idx - ((idx + phase) % 2)
    src[src < 0] = 0
    return v[src]


dcgm_rows = {k: [] for k in ["ts", "metric", "value", "gpu", "UUID", "pci_bus_id", "device", "modelName",
                             "Hostname", "DCGM_FI_DRIVER_VERSION", "exported_container", "exported_namespace",
                             "exported_pod", "instance", "job", "namespace", "pod", "service", "endpoint",
                             "container"]}


def add_dcgm(metric, t, v, n, g, exp_pod):
    k = t.size
    d = dcgm_rows
    d["ts"].append((t * 1000).astype(np.int64))
    d["metric"].append(np.full(k, metric, dtype=object))
    d["value"].append(np.asarray(v, dtype=np.float64))
    const = {"gpu": str(g), "UUID": GPU_UUIDS[(n, g)], "pci_bus_id": f"00000000:{PCI[g]}", "device": f"nvidia{g}",
             "modelName": MODEL, "Hostname": n, "DCGM_FI_DRIVER_VERSION": DRIVER,
             "instance": f"{DCGM_IP[n]}:9400", "job": "nvidia-dcgm-exporter", "namespace": "gpu-operator",
             "pod": DCGM_POD[n], "service": "nvidia-dcgm-exporter", "endpoint": "gpu-metrics",
             "container": "nvidia-dcgm-exporter"}
    for key, val in const.items():
        d[key].append(np.full(k, val, dtype=object))
    d["exported_container"].append(np.where(exp_pod != "", "main", None).astype(object))
    d["exported_namespace"].append(np.where(exp_pod != "", NS, None).astype(object))
    d["exported_pod"].append(np.where(exp_pod != "", exp_pod, None).astype(object))


print("dcgm ...")
node_inlet = {n: rng.normal(0, 1.4) for n in NODES}
for n in NODES:
    off = rng.uniform(0, STEP)
    t = scrape_times(off)
    phase = int(rng.integers(0, 2))
    a, fbfrac = node_activity(n, t)
    # which pod owns the GPUs at each sample (pod-resources mapping)
    exp_pod = np.full(t.size, "", dtype=object)
    for i in range(24):
        if RUN1_NODE[i] == n:
            exp_pod[t < rank_death[n] + 20] = RUN1_POD[i]
        if RUN2_NODE[i] == n:
            exp_pod[t >= run2_start[n]] = RUN2_POD[i]
    for g in range(8):
        p_off = rng.normal(0, 13)
        t_off = rng.normal(0, 2.2) + node_inlet[n]
        mt_off = rng.normal(0, 2.0)
        clk_off = rng.normal(0, 22)
        fb_off = rng.normal(0, 420)
        noise = ar1(t.size, 1.0, 0.6)
        busy = a > 0.5
        ck = (a > 0.04) & (a < 0.07)
        # utilisation
        util = np.where(busy, np.clip(99.3 + rng.normal(0, 0.9, t.size), 93, 100), 0.0)
        util = np.where(busy & (rng.random(t.size) < 0.75), 100.0, util)
        util = np.where(ck, rng.uniform(0, 38, t.size), util)
        util = np.where((a > 0.0) & (a < 0.04), rng.choice([0, 0, 0, 2, 7, 14], t.size), util)
        util = np.where((a > 0.07) & (a < 0.5), rng.choice([0, 3, 9, 17, 24, 31], t.size), util)
        util = np.round(util)
        power = np.where(busy, 652 + p_off + 9 * noise, 71.5 + 0.18 * p_off + rng.normal(0, 0.8, t.size))
        power = np.where(ck, 168 + rng.normal(0, 25, t.size), power)
        power = np.where((a > 0) & (a < 0.5) & ~ck, 118 + 40 * a + rng.normal(0, 12, t.size), power)
        power = np.clip(power, 60, 699)
        temp_target = 29.5 + 0.056 * power + t_off
        gtemp = np.round(lag(temp_target, 75.0) + rng.normal(0, 0.35, t.size))
        mtemp = np.round(lag(temp_target + 6.0 + mt_off, 110.0) + rng.normal(0, 0.35, t.size))
        smclk = np.where(busy, 1905 + clk_off - 0.55 * (power - 652) + rng.normal(0, 14, t.size), 345.0)
        smclk = np.where(ck | ((a > 0) & (a < 0.5)), 1980.0, smclk)
        smclk = np.clip(np.round(smclk / 15) * 15, 345, 1980)
        memclk = np.full(t.size, 2619.0)
        fbused = np.round(np.where(fbfrac > 0, fbfrac * (72350 + fb_off) + rng.normal(0, 30, t.size) * (fbfrac > 0.9), 0.0))
        fbused = np.clip(fbused, 0, FB_TOTAL - FB_RES)
        fbfree = FB_TOTAL - FB_RES - fbused
        gr = np.where(busy, np.clip(0.946 + rng.normal(0, 0.008, t.size), 0, 1), util / 100 * 0.9)
        tensor = np.where(busy, np.clip(0.543 + rng.normal(0, 0.012, t.size), 0, 1), util / 100 * 0.2)
        dram = np.where(busy, np.clip(0.418 + rng.normal(0, 0.015, t.size), 0, 1), util / 100 * 0.25)
        pcie_tx = np.where(busy, 7.1e9 * (1 + rng.normal(0, 0.05, t.size)), 1.6e5 * (1 + rng.random(t.size)))
        pcie_rx = np.where(busy, 6.9e9 * (1 + rng.normal(0, 0.05, t.size)), 1.2e5 * (1 + rng.random(t.size)))
        dtv = np.diff(t, prepend=t[0] - STEP)
        energy = float(rng.uniform(2.1e11, 6.4e11)) + np.cumsum(power * dtv * 1000.0)
        nvl = float(rng.uniform(1e15, 4e15)) + np.cumsum(np.where(busy, 2.35e10, 1.0e3) * dtv * (1 + rng.normal(0, 0.03, t.size)))
        replay_base = float(rng.choice([0, 0, 0, 0, 1, 2, 5]))
        replay = np.full(t.size, replay_base)
        if rng.random() < 0.08:
            replay = replay + (t > rng.uniform(T0, T1)).astype(float)
        xid = np.zeros(t.size)
        series = {
            "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3),
            "DCGM_FI_DEV_GPU_TEMP": gtemp, "DCGM_FI_DEV_MEMORY_TEMP": mtemp,
            "DCGM_FI_DEV_SM_CLOCK": smclk, "DCGM_FI_DEV_MEM_CLOCK": memclk,
            "DCGM_FI_DEV_FB_USED": fbused, "DCGM_FI_DEV_FB_FREE": fbfree,
            "DCGM_FI_DEV_XID_ERRORS": xid, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.round(energy), "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": np.round(nvl),
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6), "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tensor, 6),
            "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6), "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(pcie_tx),
            "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(pcie_rx),
        }
        for m, v in series.items():
            add_dcgm(m, t, hold30(np.asarray(v, dtype=float), phase), n, g, exp_pod)


def to_table(d, label_cols):
    cols = {"timestamp": pa.array(np.concatenate(d["ts"]), type=pa.timestamp("ms", tz="UTC")),
            "metric": pa.array(np.concatenate(d["metric"]).tolist()).dictionary_encode(),
            "value": pa.array(np.concatenate(d["value"]))}
    for c in label_cols:
        cols[c] = pa.array(np.concatenate(d[c]).tolist(), type=pa.string()).dictionary_encode()
    return pa.table(cols)


# --------------------------------------------------------------------------------------
# node_exporter
# --------------------------------------------------------------------------------------
print("node_exporter ...")
node_rows = {k: [] for k in ["ts", "metric", "value", "instance", "job", "device", "fstype", "mountpoint", "port",
                             "domainname", "machine", "nodename", "release", "sysname", "version"]}


def add_node(metric, t, v, n, **labels):
    k = t.size
    d = node_rows
    d["ts"].append((t * 1000).astype(np.int64))
    d["metric"].append(np.full(k, metric, dtype=object))
    d["value"].append(np.asarray(v, dtype=np.float64))
    d["instance"].append(np.full(k, f"{NODE_IP[n]}:9100", dtype=object))
    d["job"].append(np.full(k, "node-exporter", dtype=object))
    for key in ["device", "fstype", "mountpoint", "port", "domainname", "machine", "nodename", "release", "sysname", "version"]:
        d[key].append(np.full(k, labels.get(key), dtype=object))


ROOT_SIZE = {n: 1888573456384.0 for n in NODES}
ROOT_SIZE[BAD] = 101203873792.0
ROOT_DEV = {n: "/dev/nvme0n1p2" for n in NODES}
ROOT_DEV[BAD] = "/dev/mapper/ubuntu--vg-ubuntu--lv"
BASE_WL0 = 0.81 * 2**30 + 1.02 * 2**30          # rank-0 pod writable layer + log before the cache grows
CACHE_RATE = (26498512 * 1024 - BASE_WL0) / (T_EVICT - T_CACHE)  # bytes/s per trainer pod (blend phase 2)
TARGET_AVAIL = 9702960 * 1024                     # 'available' in the kubelet's eviction message
KERNEL = {"release": "5.15.0-119-generic", "version": "#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024"}
container_usage_at_evict = None
avail_at_evict = None

for n in NODES:
    off = rng.uniform(0, STEP)
    t = scrape_times(off)
    dtv = np.diff(t, prepend=t[0] - STEP)
    a, _ = node_activity(n, t)
    busy = a > 0.5
    size = ROOT_SIZE[n]
    # root fs: base usage + slowly growing logs + trainer container writable layer (cache + log)
    log_rate = rng.uniform(70e3, 110e3)  # journal, container logs
    reserved = 0.05 * size if n != BAD else 5.26e9
    # trainer pod writable layer (cache + log): grows from blend phase 2 until the pod's processes stop
    wl = np.zeros(t.size)
    if n in rank_death:
        pod0 = [i for i in range(24) if RUN1_NODE[i] == n][0]
        base_wl = BASE_WL0 if pod0 == 0 else 0.81 * 2**30 + 0.13 * 2**30
        rate = CACHE_RATE if n == BAD else CACHE_RATE * (1 + rng.normal(0, 0.02))
        stop = T_SIGTERM + 1.5 if n == BAD else rank_death[n]
        grow = np.clip(np.minimum(t, stop) - T_CACHE, 0, None) * rate
        removed = T_EVICT + 10.9 if n == BAD else T_NEWPODS - 12.0
        wl = np.where(t < removed, base_wl + grow, 0.0)
        if n == BAD:
            container_usage_at_evict = base_wl + (T_EVICT - T_CACHE) * rate
    if n in run2_start:
        s0 = run2_start[n]
        wl = wl + np.where(t >= s0, 0.35 * 2**30 + np.clip(t - T_RUN2_TRAIN, 0, None) * CACHE_RATE, 0.0)
    if n == BAD:
        used0 = size - reserved - TARGET_AVAIL - log_rate * (T_EVICT - T0) - container_usage_at_evict
    else:
        used0 = size * rng.uniform(0.09, 0.16)
    used = np.full(t.size, used0) + (t - T0) * log_rate
    if n == SPARE:  # image pulled onto the spare node
        pulled = np.clip((t - T_PULL0) / (T_PULLED - T_PULL0), 0, 1) * 18.73e9
        used = used + pulled
    used = used + wl + rng.normal(0, 2.0e6, t.size)
    free = size - used
    avail = free - reserved
    if n == BAD:
        i_ev = np.searchsorted(t, T_EVICT)
        avail_at_evict = float(avail[i_ev - 1])
    add_node("node_filesystem_size_bytes", t, np.full(t.size, size), n, device=ROOT_DEV[n], fstype="ext4", mountpoint="/")
    add_node("node_filesystem_free_bytes", t, np.round(free), n, device=ROOT_DEV[n], fstype="ext4", mountpoint="/")
    add_node("node_filesystem_avail_bytes", t, np.round(avail), n, device=ROOT_DEV[n], fstype="ext4", mountpoint="/")
    # other mounts
    for dev, fst, mp, sz, fr in [("/dev/nvme0n1p1", "vfat", "/boot/efi", 1124999168.0, 0.994),
                                 ("/dev/md0", "xfs", "/raid", 30716757327872.0, None),
                                 ("tmpfs", "tmpfs", "/run", 203013820416.0, 0.9985)]:
        if mp == "/boot/efi" and n == BAD:
            dev = "/dev/nvme0n1p1"
        if fr is None:
            fr = rng.uniform(0.41, 0.58)
        fv = np.round(np.full(t.size, sz * fr) - (t - T0) * (2e5 if mp == "/raid" else 0))
        add_node("node_filesystem_size_bytes", t, np.full(t.size, sz), n, device=dev, fstype=fst, mountpoint=mp)
        add_node("node_filesystem_free_bytes", t, fv, n, device=dev, fstype=fst, mountpoint=mp)
        add_node("node_filesystem_avail_bytes", t, fv, n, device=dev, fstype=fst, mountpoint=mp)
    if n == BAD:  # the re-imaged node also mounts /boot separately (LVM layout)
        add_node("node_filesystem_size_bytes", t, np.full(t.size, 2040373248.0), n, device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/boot")
        add_node("node_filesystem_free_bytes", t, np.full(t.size, 1795469312.0), n, device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/boot")
        add_node("node_filesystem_avail_bytes", t, np.full(t.size, 1686622208.0), n, device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/boot")
    # root disk I/O counters (cache writes land here)
    wr_rate = 0.21e6 + np.where(busy & (t > T_CACHE), CACHE_RATE, 0.0) + np.where(busy, 0.05e6, 0)
    if n == SPARE:
        wr_rate = wr_rate + np.where((t > T_PULL0) & (t < T_PULLED + 30), 18.73e9 / (T_PULLED - T_PULL0), 0)
    wr_rate = wr_rate * (1 + rng.normal(0, 0.15, t.size)).clip(0.3)
    wbytes = float(rng.uniform(2e12, 9e12)) + np.cumsum(wr_rate * dtv)
    wops = float(rng.uniform(4e8, 9e8)) + np.cumsum(wr_rate / 98e3 * dtv)
    wtime = float(rng.uniform(2e5, 6e5)) + np.cumsum(wr_rate / 98e3 * dtv * 0.00011)
    rd_rate = (0.9e6 + rng.exponential(0.3e6, t.size))
    rbytes = float(rng.uniform(1e12, 5e12)) + np.cumsum(rd_rate * dtv)
    rops = float(rng.uniform(2e8, 6e8)) + np.cumsum(rd_rate / 24e3 * dtv)
    rtime = float(rng.uniform(5e4, 2e5)) + np.cumsum(rd_rate / 24e3 * dtv * 0.00009)
    iotime = float(rng.uniform(1e5, 4e5)) + np.cumsum((0.004 + wr_rate / 2.0e9) * dtv)
    for m, v in [("node_disk_written_bytes_total", wbytes), ("node_disk_writes_completed_total", wops),
                 ("node_disk_write_time_seconds_total", wtime), ("node_disk_read_bytes_total", rbytes),
                 ("node_disk_reads_completed_total", rops), ("node_disk_read_time_seconds_total", rtime),
                 ("node_disk_io_time_seconds_total", iotime)]:
        add_node(m, t, np.round(v, 3), n, device="nvme0n1")
    # network: front-end (shard downloads) and InfiniBand (NCCL)
    rx = 2.5e6 + np.where(busy & (t > T_CACHE), CACHE_RATE * 1.03, 0.0) + np.where(busy, 0.4e6, 0)
    if n == SPARE:
        rx = rx + np.where((t > T_PULL0) & (t < T_PULLED), 18.73e9 / (T_PULLED - T_PULL0), 0)
    rx = rx * (1 + rng.normal(0, 0.1, t.size)).clip(0.2)
    add_node("node_network_receive_bytes_total", t, np.round(float(rng.uniform(1e13, 4e13)) + np.cumsum(rx * dtv)), n, device="bond0")
    add_node("node_network_transmit_bytes_total", t, np.round(float(rng.uniform(1e12, 4e12)) + np.cumsum(rx * 0.04 * dtv)), n, device="bond0")
    for h in range(8):
        ib_rate = np.where(busy, 7.9e9, 2.0e3) * (1 + rng.normal(0, 0.04, t.size))
        add_node("node_infiniband_port_data_transmitted_bytes_total", t, np.round(float(rng.uniform(1e16, 5e16)) + np.cumsum(ib_rate * dtv)), n, device=f"mlx5_{h}", port="1")
        add_node("node_infiniband_port_data_received_bytes_total", t, np.round(float(rng.uniform(1e16, 5e16)) + np.cumsum(ib_rate * 1.002 * dtv)), n, device=f"mlx5_{h}", port="1")
        add_node("node_infiniband_link_downed_total", t, np.zeros(t.size), n, device=f"mlx5_{h}", port="1")
        add_node("node_infiniband_state_id", t, np.full(t.size, 4.0), n, device=f"mlx5_{h}", port="1")
    # host
    load = np.where(busy, 38 + 4 * ar1(t.size, 1, 0.9), 1.2 + rng.exponential(0.6, t.size))
    add_node("node_load1", t, np.round(load, 2), n)
    memav = np.where(busy, 1.52e12, 1.93e12) + rng.normal(0, 4e9, t.size)
    add_node("node_memory_MemAvailable_bytes", t, np.round(memav), n)
    add_node("node_memory_MemTotal_bytes", t, np.full(t.size, 2.1135e12), n)
    add_node("node_boot_time_seconds", t, np.full(t.size, float(at(6, 0) - rng.uniform(9, 60) * 86400)), n)
    add_node("node_uname_info", t, np.ones(t.size), n, domainname="(none)", machine="x86_64", nodename=n,
             release=KERNEL["release"], sysname="Linux", version=KERNEL["version"])
    add_node("up", t, np.ones(t.size), n)

# --------------------------------------------------------------------------------------
# kube-state-metrics / kubelet
# --------------------------------------------------------------------------------------
print("kube ...")
kube_rows = {k: [] for k in ["ts", "metric", "value", "instance", "job", "namespace", "service", "endpoint",
                             "node", "condition", "status", "pod", "reason", "exported_namespace",
                             "eviction_signal", "metrics_path", "key", "effect"]}
KSM_INST = "10.244.3.17:8080"


def add_kube(metric, t, v, **labels):
    k = t.size
    d = kube_rows
    d["ts"].append((t * 1000).astype(np.int64))
    d["metric"].append(np.full(k, metric, dtype=object))
    d["value"].append(np.asarray(v, dtype=np.float64))
    for key in kube_rows:
        if key in ("ts", "metric", "value"):
            continue
        d[key].append(np.full(k, labels.get(key), dtype=object))


T_DP_ON = T_EVICT + 0.3
T_DP_OFF = T_EVICT + 22.0 + 300.0 + 9.0  # evictionPressureTransitionPeriod 5m after pressure clears
t = scrape_times(rng.uniform(0, STEP))
for n in NODES:
    dp = ((t >= T_DP_ON) & (t < T_DP_OFF) & (n == BAD)).astype(float)
    ksm = dict(instance=KSM_INST, job="kube-state-metrics", namespace="monitoring", service="kube-prometheus-stack-kube-state-metrics", endpoint="http", node=n)
    for cond in ["DiskPressure", "MemoryPressure", "PIDPressure", "Ready"]:
        for st in ["true", "false", "unknown"]:
            if cond == "DiskPressure":
                v = dp if st == "true" else (1 - dp if st == "false" else np.zeros(t.size))
            elif cond == "Ready":
                v = np.ones(t.size) if st == "true" else np.zeros(t.size)
            else:
                v = np.ones(t.size) if st == "false" else np.zeros(t.size)
            add_kube("kube_node_status_condition", t, v, condition=cond, status=st, **ksm)
    if n == BAD:
        m = dp > 0
        add_kube("kube_node_spec_taint", t[m], np.ones(m.sum()), key="node.kubernetes.io/disk-pressure", effect="NoSchedule", **ksm)
# evicted pod status reason (until JobSet deletes the old Job and its pods)
m = (t >= T_EVICT + 9.5) & (t < T_NEWPODS - 6)
add_kube("kube_pod_status_reason", t[m], np.ones(m.sum()), instance=KSM_INST, job="kube-state-metrics", namespace="monitoring",
         service="kube-prometheus-stack-kube-state-metrics", endpoint="http", exported_namespace=NS, pod=RUN1_POD[0], reason="Evicted")
# kubelet_evictions counter only exists on the node after its first eviction
tk = scrape_times(rng.uniform(0, STEP))
m = tk >= T_EVICT + 1.0
add_kube("kubelet_evictions", tk[m], np.ones(m.sum()), instance=f"{NODE_IP[BAD]}:10250", job="kubelet", namespace="kube-system",
         service="kube-prometheus-stack-kubelet", endpoint="https-metrics", node=BAD, eviction_signal="nodefs.available", metrics_path="/metrics")

# --------------------------------------------------------------------------------------
# Write metrics
# --------------------------------------------------------------------------------------
if OUT.exists():
    shutil.rmtree(OUT)
(OUT / "metrics").mkdir(parents=True)
(OUT / "logs").mkdir(parents=True)


def write_parquet(d, labels, path, sort_series=True):
    tbl = to_table(d, labels)
    pq.write_table(tbl, path, compression="zstd", row_group_size=400_000)


write_parquet(dcgm_rows, [c for c in dcgm_rows if c not in ("ts", "metric", "value")], OUT / "metrics" / "dcgm-exporter.parquet")
write_parquet(node_rows, [c for c in node_rows if c not in ("ts", "metric", "value")], OUT / "metrics" / "node-exporter.parquet")
write_parquet(kube_rows, [c for c in kube_rows if c not in ("ts", "metric", "value")], OUT / "metrics" / "kube-state-and-kubelet.parquet")
del dcgm_rows, node_rows

# --------------------------------------------------------------------------------------
# Logs
# --------------------------------------------------------------------------------------
print("logs ...")


def iso_j(x):  # journalctl -o short-iso (systemd 249)
    return ts(x).strftime("%Y-%m-%dT%H:%M:%S+0000")


def klog(sev, x, tid, src, msg):
    d = ts(x)
    d = d.replace(microsecond=d.microsecond - d.microsecond % 100 + int(rng.integers(0, 100)))
    return f"{sev}{d.strftime('%m%d %H:%M:%S')}.{d.microsecond:06d} {tid:7d} {src}] {msg}"


def cri(x, stream, line):
    d = ts(x)
    frac = int(round((x - math.floor(x)) * 1e9)) % 1000000000
    return f"{d.strftime('%Y-%m-%dT%H:%M:%S')}.{frac:09d}Z {stream} F {line}"


def ctrd(x, level, msg):
    d = ts(x)
    frac = int(round((x - math.floor(x)) * 1e9)) % 1000000000
    return f'time="{d.strftime("%Y-%m-%dT%H:%M:%S")}.{frac:09d}Z" level={level} msg="{msg}"'


journal = {n: [] for n in NODES}
PIDS = {n: {"kubelet": int(rng.integers(2400, 3200)), "containerd": int(rng.integers(1500, 2300)),
            "systemd": 1, "sshd": int(rng.integers(900, 1400))} for n in NODES}
J_START = at(5, 45)
J_END = T1 + 300


def J(n, x, ident, msg, pid=None):
    p = f"[{pid}]" if pid is not None else ""
    journal[n].append((x, f"{iso_j(x)} {n} {ident}{p}: {msg}"))


cron_pid = int(rng.integers(100000, 300000))
for n in NODES:
    P = PIDS[n]
    # sysstat every 10 minutes, cron hourly, occasional ssh of monitoring user, timers
    x = J_START - (J_START % 600) + 600
    while x < J_END:
        o = x + rng.uniform(0.05, 0.4)
        J(n, o, "systemd", "Starting system activity accounting tool...", 1)
        J(n, o + 0.02, "systemd", "sysstat-collect.service: Deactivated successfully.", 1)
        J(n, o + 0.03, "systemd", "Finished system activity accounting tool.", 1)
        x += 600
    x = J_START - (J_START % 3600) + 3600 + 17 * 60
    while x < J_END:
        cron_pid += int(rng.integers(50, 900))
        J(n, x + 0.01, "CRON", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)", cron_pid)
        J(n, x + 0.02, "CRON", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)", cron_pid + 1)
        J(n, x + 0.05, "CRON", "pam_unix(cron:session): session closed for user root", cron_pid)
        x += 3600
    for _ in range(int(rng.integers(1, 3))):
        x = rng.uniform(J_START, J_END)
        J(n, x, "systemd", "Starting Daily apt download activities...", 1)
        J(n, x + 1.4, "systemd", "apt-daily.service: Deactivated successfully.", 1)
        J(n, x + 1.41, "systemd", "Finished Daily apt download activities.", 1)
    # an operator's ssh session now and then
    for _ in range(int(rng.integers(0, 3))):
        x = rng.uniform(J_START, J_END)
        sid = int(rng.integers(1200, 9000))
        J(n, x, "systemd-logind", f"New session {sid} of user ops.", int(rng.integers(700, 900)))
        J(n, x + 0.2, "systemd", f"Started Session {sid} of User ops.", 1)
        J(n, x + rng.uniform(30, 600), "systemd", f"session-{sid}.scope: Deactivated successfully.", 1)
    # containerd stats noise
    for _ in range(int(rng.integers(3, 7))):
        x = rng.uniform(J_START, J_END)
        J(n, x, "containerd", ctrd(x, "info", "No cni config template is specified, wait for other system components to drop the config."), P["containerd"])
    # anacron hourly, chrony source changes, kubelet log-stat noise
    x = J_START - (J_START % 3600) + 3600 + 5 * 60 + rng.uniform(0, 40)
    while x < J_END:
        ap = int(rng.integers(100000, 400000))
        J(n, x, "systemd", "Started Run anacron jobs.", 1)
        J(n, x + 0.01, "anacron", f"Anacron 2.3 started on {ts(x).strftime('%Y-%m-%d')}", ap)
        J(n, x + 0.02, "anacron", "Normal exit (0 jobs run)", ap)
        J(n, x + 0.03, "systemd", "anacron.service: Deactivated successfully.", 1)
        x += 3600
    for _ in range(int(rng.integers(1, 4))):
        x = rng.uniform(J_START, J_END)
        J(n, x, "chronyd", f"Selected source 10.40.0.{int(rng.choice([2, 3]))} (ntp{int(rng.choice([1, 2]))}.ml.internal)", int(rng.integers(1000, 1300)))
    # kubelet: log-stat noise for pods of other namespaces that were cleaned up earlier
    for _ in range(int(rng.integers(1, 4))):
        x = rng.uniform(J_START, J_END)
        gname = f"gpu-burn-check-{rnd_suffix()}"
        gone = "monitoring/" + gname
        gpath = "monitoring_" + gname + "_" + uuid4_like()
        msg = f'"Unable to fetch pod log stats" err="open /var/log/pods/{gpath}: no such file or directory" pod="{gone}"'
        J(n, x, "kubelet", klog("E", x, PIDS[n]["kubelet"], "cri_stats_provider.go:643", msg), PIDS[n]["kubelet"])
    # mlx5 / kernel benign
    for _ in range(int(rng.integers(0, 3))):
        x = rng.uniform(J_START, J_END)
        J(n, x, "kernel", "perf: interrupt took too long (2503 > 2500), lowering kernel.perf_event_max_sample_rate to 79750")


def pod_start_journal(n, x, pod, uid, pulled_before=True):
    P = PIDS[n]
    J(n, x, "kubelet", klog("I", x, P["kubelet"], "kubelet.go:2425", f'"SyncLoop ADD" source="api" pods=["{NS}/{pod}"]'), P["kubelet"])
    J(n, x + 0.05, "kubelet", klog("I", x + 0.05, P["kubelet"], "topology_manager.go:215", f'"Topology Admit Handler" podUID="{uid}" podNamespace="{NS}" podName="{pod}"'), P["kubelet"])
    cali = "cali" + "".join(rng.choice(list("0123456789abcdef"), 11))
    J(n, x + 1.2, "kernel", f"IPv6: ADDRCONF(NETDEV_CHANGE): {cali}: link becomes ready")
    J(n, x + 1.21, "kernel", "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready")
    sb = "".join(rng.choice(list("0123456789abcdef"), 64))
    J(n, x + 1.6, "containerd", ctrd(x + 1.6, "info", f"RunPodSandbox for &PodSandboxMetadata{{Name:{pod},Uid:{uid},Namespace:{NS},Attempt:0,}} returns sandbox id \\\"{sb}\\\""), P["containerd"])
    return sb


def container_start_journal(n, x, pod, sb):
    P = PIDS[n]
    cid = "".join(rng.choice(list("0123456789abcdef"), 64))
    J(n, x, "containerd", ctrd(x, "info", f"CreateContainer within sandbox \\\"{sb}\\\" for &ContainerMetadata{{Name:main,Attempt:0,}} returns container id \\\"{cid}\\\""), P["containerd"])
    J(n, x + 0.02, "containerd", ctrd(x + 0.02, "info", f"StartContainer for \\\"{cid}\\\""), P["containerd"])
    J(n, x + 0.31, "containerd", ctrd(x + 0.31, "info", f"StartContainer for \\\"{cid}\\\" returns successfully"), P["containerd"])
    for k, sw in enumerate(range(4)):
        J(n, x + 9.0 + 0.0001 * k, "kernel", f"nvidia-nvswitch{sw}: open (major=510)")
    return cid


# run2 pod starts on all nodes; run1 pods were started before the window (03:12)
run2_cids = {}
for i in range(24):
    n = RUN2_NODE[i]
    x = T_NEWPODS + 1.0 + rng.uniform(0, 1.5)
    sb = pod_start_journal(n, x, RUN2_POD[i], RUN2_UID[i])
    if n == SPARE:
        P = PIDS[n]
        J(n, T_PULL0, "containerd", ctrd(T_PULL0, "info", f"PullImage \\\"{IMAGE}\\\""), P["containerd"])
        J(n, T_PULLED - 0.4, "containerd", ctrd(T_PULLED - 0.4, "info", f"ImageCreate event name:\\\"{IMAGE}\\\" labels:{{key:\\\"io.cri-containerd.image\\\" value:\\\"managed\\\"}}"), P["containerd"])
        J(n, T_PULLED, "containerd", ctrd(T_PULLED, "info", f"PullImage \\\"{IMAGE}\\\" returns image reference \\\"sha256:4c1f9e0a7b3d52e8816c0f2d9e4a61b7c3d08f5e2a9b6c417d0e3f8a2b5c9d61\\\""), P["containerd"])
        run2_cids[n] = container_start_journal(n, T_START25, RUN2_POD[i], sb)
    else:
        run2_cids[n] = container_start_journal(n, run2_start[n], RUN2_POD[i], sb)

# run1 teardown on the surviving nodes: containers exit after NCCL failure, JobSet deletes pods
for i in range(1, 24):
    n = RUN1_NODE[i]
    P = PIDS[n]
    cid = "".join(rng.choice(list("0123456789abcdef"), 64))
    x = rank_death[n] + 1.1
    J(n, x, "kubelet", klog("I", x, P["kubelet"], "kubelet.go:2457", f'"SyncLoop (PLEG): event for pod" pod="{NS}/{RUN1_POD[i]}" event={{"ID":"{RUN1_UID[i]}","Type":"ContainerDied","Data":"{cid}"}}'), P["kubelet"])
    J(n, x + 0.3, "kernel", "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
    xd = T_NEWPODS - 14 + rng.uniform(0, 3)
    J(n, xd, "kubelet", klog("I", xd, P["kubelet"], "kubelet.go:2441", f'"SyncLoop DELETE" source="api" pods=["{NS}/{RUN1_POD[i]}"]'), P["kubelet"])
    J(n, xd + 0.6, "kubelet", klog("I", xd + 0.6, P["kubelet"], "kubelet.go:2435", f'"SyncLoop REMOVE" source="api" pods=["{NS}/{RUN1_POD[i]}"]'), P["kubelet"])

# ---- the fault: kubelet eviction on gpu-h100-007 (message bodies verbatim, see truth.yaml) ----
n = BAD
P = PIDS[n]
kp = P["kubelet"]
e = T_EVICT
cid0 = "".join(rng.choice(list("0123456789abcdef"), 64))
ranked = [f"{NS}/{RUN1_POD[0]}", "monitoring/kube-prometheus-stack-prometheus-node-exporter-" + rnd_suffix(),
          "gpu-operator/" + DCGM_POD[n], "gpu-operator/nvidia-device-plugin-daemonset-" + rnd_suffix(),
          "kube-system/calico-node-" + rnd_suffix(), "kube-system/kube-proxy-" + rnd_suffix()]
J(n, e - 0.0021, "kubelet", klog("I", e - 0.0021, kp, "eviction_manager.go:339", '"Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"'), kp)
J(n, e - 0.0019, "kubelet", klog("I", e - 0.0019, kp, "container_gc.go:85", '"Attempting to delete unused containers"'), kp)
J(n, e + 0.0042, "kubelet", klog("I", e + 0.0042, kp, "image_gc_manager.go:321", '"Attempting to delete unused images"'), kp)
J(n, e + 0.0105, "kubelet", klog("I", e + 0.0105, kp, "eviction_manager.go:350", '"Eviction manager: must evict pod(s) to reclaim" resourceName="ephemeral-storage"'), kp)
J(n, e + 0.0112, "kubelet", klog("I", e + 0.0112, kp, "eviction_manager.go:368", '"Eviction manager: pods ranked for eviction" pods=[' + " ".join(ranked) + "]"), kp)
J(n, e + 0.0131, "kubelet", klog("I", e + 0.0131, kp, "kuberuntime_container.go:709", f'"Killing container with a grace period" pod="{NS}/{RUN1_POD[0]}" podUID={RUN1_UID[0]} containerName="main" containerID="containerd://{cid0}" gracePeriod=30'), kp)
J(n, e + 0.52, "containerd", ctrd(e + 0.52, "info", f"StopContainer for \\\"{cid0}\\\" with timeout 30 (s)"), P["containerd"])
J(n, e + 0.53, "containerd", ctrd(e + 0.53, "info", f"Stop container \\\"{cid0}\\\" with signal terminated"), P["containerd"])
for k in range(8):
    J(n, T_SIGTERM + 1.9 + 0.0003 * k, "kernel", "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
J(n, e + 8.41, "containerd", ctrd(e + 8.41, "info", f"shim disconnected\\\" id={cid0} namespace=k8s.io"), P["containerd"])
J(n, e + 8.62, "kubelet", klog("I", e + 8.62, kp, "kubelet.go:2231", f'"SyncLoop (PLEG): event for pod" pod="{NS}/{RUN1_POD[0]}" event=&{{ID:{RUN1_UID[0]} Type:ContainerDied Data:{cid0}}}'), kp)
J(n, e + 9.05, "kubelet", klog("I", e + 9.05, kp, "eviction_manager.go:575", f'"Eviction manager: pod is evicted successfully" pod="{NS}/{RUN1_POD[0]}"'), kp)
J(n, e + 9.06, "kubelet", klog("I", e + 9.06, kp, "eviction_manager.go:199", f'"Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=[{NS}/{RUN1_POD[0]}]'), kp)
J(n, e + 10.9, "kubelet", klog("I", e + 10.9, kp, "scope.go:111", f'"RemoveContainer" containerID="{cid0}"'), kp)
J(n, e + 21.3, "kubelet", klog("I", e + 21.3, kp, "eviction_manager.go:411", f'"Eviction manager: pods successfully cleaned up" pods=[{NS}/{RUN1_POD[0]}]'), kp)
xd = T_NEWPODS - 12.7
J(n, xd, "kubelet", klog("I", xd, kp, "kubelet.go:2441", f'"SyncLoop DELETE" source="api" pods=["{NS}/{RUN1_POD[0]}"]'), kp)
J(n, xd + 0.4, "kubelet", klog("I", xd + 0.4, kp, "kubelet.go:2435", f'"SyncLoop REMOVE" source="api" pods=["{NS}/{RUN1_POD[0]}"]'), kp)

for n in NODES:
    lines = sorted(journal[n], key=lambda z: z[0])
    p = OUT / "logs" / "nodes" / n
    p.mkdir(parents=True, exist_ok=True)
    with open(p / "journal.log", "w") as f:
        f.write(f"-- Logs begin at {ts(at(5, 45) - 86400*9).strftime('%a %Y-%m-%d %H:%M:%S UTC')}, end at {ts(J_END).strftime('%a %Y-%m-%d %H:%M:%S UTC')}. --\n")
        for _, l in lines:
            f.write(l + "\n")

# ---- pod logs (CRI format, as /var/log/pods/<ns>_<pod>_<uid>/main/0.log) ----
pod_logs = {}


def PL(run, i, x, line, stream="stdout"):
    key = (run, i)
    pod_logs.setdefault(key, []).append((x, cri(x, stream, line)))


def startup_lines(run, i, t0, resume_iter):
    """Launcher banner (all pods) + Megatron startup prints (rank 0)."""
    PL(run, i, t0, "WARNING:torch.distributed.run:", "stderr")
    PL(run, i, t0 + 0.001, "*****************************************", "stderr")
    PL(run, i, t0 + 0.002, "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ", "stderr")
    PL(run, i, t0 + 0.003, "*****************************************", "stderr")
    if i != 0:
        return
    x = t0 + 24.0
    PL(run, i, x, "using world size: 192, data-parallel size: 192, context-parallel size: 1 tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ")
    PL(run, i, x + 0.01, "using torch.bfloat16 for parameters ...")
    PL(run, i, x + 0.02, "------------------------ arguments ------------------------")
    args = [("micro_batch_size", 8), ("global_batch_size", GBS), ("seq_length", SEQ), ("num_layers", 32), ("hidden_size", 4096),
            ("ffn_hidden_size", 14336), ("num_attention_heads", 32), ("num_query_groups", 8), ("train_iters", TRAIN_ITERS),
            ("lr", 0.0003), ("min_lr", 3e-05), ("lr_decay_style", "cosine"), ("save_interval", CKPT_EVERY), ("log_interval", 10),
            ("save", "/mnt/checkpoints/llama-8b-pt"), ("load", "/mnt/checkpoints/llama-8b-pt"), ("use_distributed_optimizer", True),
            ("overlap_grad_reduce", True), ("bf16", True), ("data_cache_path", "/root/.cache/megatron-index")]
    for k, (a, v) in enumerate(args):
        PL(run, i, x + 0.03 + 0.0001 * k, f"  {a} {'.' * max(3, 48 - len(a))} {v}")
    PL(run, i, x + 0.05, "-------------------- end of arguments ---------------------")
    PL(run, i, x + 0.06, "> building HuggingFaceTokenizer tokenizer ...")
    PL(run, i, x + 1.1, " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)")
    PL(run, i, x + 1.2, "> initializing torch distributed ...")
    PL(run, i, x + 9.6, "> initialized tensor model parallel with size 1")
    PL(run, i, x + 9.7, "> initialized pipeline model parallel with size 1")
    PL(run, i, x + 9.8, "> setting random seeds to 1234 ...")
    PL(run, i, x + 10.4, "> compiling dataset index builder ...")
    PL(run, i, x + 10.6, ">>> done with dataset index builder. Compilation time: 0.061 seconds")
    PL(run, i, x + 14.2, "time to initialize megatron (seconds): 38.214")
    PL(run, i, x + 14.3, f"[after megatron is initialized] datetime: {ts(x + 14.3).strftime('%Y-%m-%d %H:%M:%S')} ")
    PL(run, i, x + 14.4, "building GPT model ...")
    PL(run, i, x + 19.9, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8030261248")
    PL(run, i, x + 20.5, f" loading checkpoint from /mnt/checkpoints/llama-8b-pt at iteration {resume_iter}")
    return x


def ckpt_lines(run, i, x, it):
    PL(run, i, x, f"saving checkpoint at iteration {it:7d} to /mnt/checkpoints/llama-8b-pt")
    PL(run, i, x + CKPT_SAVE_S - 0.4, f"  successfully saved checkpoint at iteration {it:7d} to /mnt/checkpoints/llama-8b-pt")


def lr_at(it):
    warm = 2000
    if it < warm:
        return 3e-4 * it / warm
    p = (it - warm) / (TRAIN_ITERS - warm)
    return 3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + math.cos(math.pi * p))


def loss_at(it):
    return 1.86 + 2.9 / math.sqrt(it / 40.0 + 1) + 0.012 * math.sin(it / 37.0)


def iteration_lines(run, i, its, ends, cks, first_log_after):
    prev_t = None
    prev_it = None
    for it, e, ck in zip(its, ends, cks):
        if prev_t is None:
            prev_t, prev_it = e - ITER_S, it - 1
        if it % 10 == 0 and it > first_log_after:
            el = (e - prev_t) / (it - prev_it) * 1000.0
            loss = loss_at(it) + rng.normal(0, 0.018)
            gn = 0.19 + abs(rng.normal(0, 0.025))
            line = (f" iteration {it:8d}/{TRAIN_ITERS:8d} | consumed samples: {it * GBS:12d} | elapsed time per iteration (ms): {el:.1f} |"
                    f" learning rate: {lr_at(it):.3E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | loss scale: 1.0 |"
                    f" grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
            PL(run, i, e + 0.004, line)
            prev_t, prev_it = e, it
        if ck:
            # checkpoint save prints come from rank 0's pod
            ckpt_lines(run, 0, e + 0.01, it)
            prev_t += CKPT_SAVE_S * 0  # interval timer keeps running through the save


# run1: the log files start at container start (03:12); iteration prints from the last rank (pod 23)
RUN1_CSTART = {i: at(3, 12, 1.0) + rng.uniform(0, 6) for i in range(24)}
for i in range(24):
    startup_lines(1, i, RUN1_CSTART[i], RUN1_RESUME_ITER)
PL(1, 0, RUN1_TRAIN_START - 61.0, f"  successfully loaded checkpoint from /mnt/checkpoints/llama-8b-pt [ t 1/1, p 1/1 ] at iteration {RUN1_RESUME_ITER}")
PL(1, 0, RUN1_TRAIN_START - 40.0, "> building train, validation, and test datasets ...")
PL(1, 0, RUN1_TRAIN_START - 8.0, f"[after dataloaders are built] datetime: {ts(RUN1_TRAIN_START - 8.0).strftime('%Y-%m-%d %H:%M:%S')} ")
PL(1, 0, RUN1_TRAIN_START - 7.9, "done with setup ...")
PL(1, 0, RUN1_TRAIN_START - 0.5, "training ...")
PL(1, 0, RUN1_TRAIN_START - 0.4, f"[before the start of training step] datetime: {ts(RUN1_TRAIN_START - 0.4).strftime('%Y-%m-%d %H:%M:%S')} ")
iteration_lines(1, 23, R1_IT, R1_END, R1_CK, RUN1_RESUME_ITER)
# blend phase switch printed by rank 0's dataloader wrapper
it_cache = int(R1_IT[np.searchsorted(R1_END, T_CACHE)])
PL(1, 0, T_CACHE, f"> data blend phase 2 active from iteration {it_cache} (web 0.52, code 0.21, math 0.15, books 0.12); streaming shards to local cache /root/.cache/mds")

# ---- fault on pod trainer-0 (evicted) : torch 2.0 elastic agent lines (verbatim wording) ----
PL(1, 0, T_SIGTERM + 0.012, "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers", "stderr")
w_pids0 = [int(x) for x in rng.integers(140, 400, 8)]
w_pids0 = sorted(set(w_pids0))
while len(w_pids0) < 8:
    w_pids0.append(w_pids0[-1] + 1)
for k, pid in enumerate(w_pids0[:8]):
    PL(1, 0, T_SIGTERM + 0.013 + 0.0004 * k, f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {pid} closing signal SIGTERM", "stderr")

# ---- survivors: NCCL remote errors and process aborts ----
ib_ip = {nn: f"10.50.{NODE_IDX[nn] % 8}.{NODE_IDX[nn] + 11}" for nn in NODES}
for i in range(1, 24):
    n = RUN1_NODE[i]
    host = f"{JOBSET}-trainer-{i}-0"
    d0 = rank_death[n]
    first_local = int(rng.integers(0, 8))
    wp = sorted(set(int(x) for x in rng.integers(120, 420, 12)))[:8]
    while len(wp) < 8:
        wp.append(wp[-1] + 3)
    tid = int(rng.integers(1800, 4200))
    peer = ib_ip[BAD] if i in (1, 23) or rng.random() < 0.3 else ib_ip[RUN1_NODE[int(rng.integers(1, 24))]]
    port = int(rng.integers(33000, 61000))
    x = d0 - 1.6
    PL(1, i, x, f"{host}:{wp[first_local]}:{tid} [{first_local}] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer {peer}<{port}> with error 12, opcode 0, len 0, vendor err 129 (Recv)")
    PL(1, i, x + 0.0001, f"{host}:{wp[first_local]}:{tid} [{first_local}] NCCL INFO transport/net.cc:1134 -> 6")
    PL(1, i, x + 0.0002, f"{host}:{wp[first_local]}:{tid} [{first_local}] NCCL INFO proxy.cc:679 -> 6")
    PL(1, i, x + 0.0003, f"{host}:{wp[first_local]}:{tid} [{first_local}] NCCL INFO proxy.cc:858 -> 6 [Proxy Thread]")
    x = d0 - 0.4
    PL(1, i, x, "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.", "stderr")
    PL(1, i, x + 0.0001, "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down.", "stderr")
    PL(1, i, x + 0.0002, "terminate called after throwing an instance of 'std::runtime_error'", "stderr")
    PL(1, i, x + 0.0003, "  what():  NCCL error: remote process exited or there was a network error, NCCL version 2.14.3", "stderr")
    PL(1, i, x + 0.0004, "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.", "stderr")
    PL(1, i, x + 0.0005, "Last error:", "stderr")
    PL(1, i, x + 0.0006, f"NET/IB : Got completion from peer {peer}<{port}> with error 12, opcode 0, len 0, vendor err 129", "stderr")
    # torchrun agent reaps the group
    x = d0 + 0.6
    for k in range(8):
        if k == first_local:
            continue
        PL(1, i, x + 0.0004 * k, f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {wp[k]} closing signal SIGTERM", "stderr")
    x = d0 + 2.9
    PL(1, i, x, f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: {first_local} (pid: {wp[first_local]}) of binary: /usr/bin/python", "stderr")
    tb = [
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 346, in wrapper',
        "    return f(*args, **kwargs)",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 794, in main',
        "    run(args)",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 785, in run',
        "    elastic_launch(",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 134, in __call__',
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 250, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "pretrain_gpt.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        f"  time      : {ts(d0).strftime('%Y-%m-%d_%H:%M:%S')}",
        f"  host      : {host}",
        f"  rank      : {8 * i + first_local} (local_rank: {first_local})",
        f"  exitcode  : -6 (pid: {wp[first_local]})",
        "  error_file: <N/A>",
        f"  traceback : Signal 6 (SIGABRT) received by PID {wp[first_local]}",
        "============================================================",
    ]
    for k, l in enumerate(tb):
        PL(1, i, x + 0.05 + 0.0001 * k, l, "stderr")

# run2: restart after JobSet recreation
for i in range(24):
    n = RUN2_NODE[i]
    startup_lines(2, i, run2_start[n] + 0.8, LAST_CKPT)
PL(2, 0, T_CKPT_LOAD1 - 0.2, f"  successfully loaded checkpoint from /mnt/checkpoints/llama-8b-pt [ t 1/1, p 1/1 ] at iteration {LAST_CKPT}")
PL(2, 0, T_CKPT_LOAD1 + 0.3, "> building train, validation, and test datasets ...")
PL(2, 0, T_RUN2_TRAIN - 6.0, f"[after dataloaders are built] datetime: {ts(T_RUN2_TRAIN - 6.0).strftime('%Y-%m-%d %H:%M:%S')} ")
PL(2, 0, T_RUN2_TRAIN - 5.9, "done with setup ...")
PL(2, 0, T_RUN2_TRAIN - 0.5, "training ...")
PL(2, 0, T_RUN2_TRAIN - 0.4, f"[before the start of training step] datetime: {ts(T_RUN2_TRAIN - 0.4).strftime('%Y-%m-%d %H:%M:%S')} ")
iteration_lines(2, 23, R2_IT[R2_END < T1 + 60], R2_END[R2_END < T1 + 60], R2_CK[R2_END < T1 + 60], LAST_CKPT)

for (run, i), lines in pod_logs.items():
    pod = RUN1_POD[i] if run == 1 else RUN2_POD[i]
    uid = RUN1_UID[i] if run == 1 else RUN2_UID[i]
    lines = sorted(lines, key=lambda z: z[0])
    lines = [l for x, l in lines if x < T1 + 300]
    p = OUT / "logs" / "pods" / f"{NS}_{pod}_{uid}" / "main"
    p.mkdir(parents=True, exist_ok=True)
    (p / "0.log").write_text("\n".join(lines) + "\n")

# ---- Kubernetes events (as kept by the cluster's event exporter, JSON lines) ----
events = []


def EV(x, kind, name, ns, reason, etype, msg, comp, host=None, uid=None, count=1):
    ev = {
        "metadata": {"name": f"{name}.{int(x * 1e9) % (16**16):016x}", "namespace": ns or "default",
                     "creationTimestamp": ts(x).strftime("%Y-%m-%dT%H:%M:%SZ")},
        "involvedObject": {"kind": kind, "namespace": ns, "name": name, **({"uid": uid} if uid else {})},
        "reason": reason, "message": msg, "source": {"component": comp, **({"host": host} if host else {})},
        "firstTimestamp": ts(x).strftime("%Y-%m-%dT%H:%M:%SZ"), "lastTimestamp": ts(x).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "count": count, "type": etype, "reportingComponent": comp, "reportingInstance": host or "",
    }
    if kind == "Node":
        ev["involvedObject"].pop("namespace", None)
    events.append((x, json.dumps(ev, separators=(",", ":"))))


EV(T_EVICT - 0.002, "Node", BAD, None, "EvictionThresholdMet", "Warning", "Attempting to reclaim ephemeral-storage", "kubelet", BAD, BAD)
EV(T_EVICT + 0.3, "Node", BAD, None, "NodeHasDiskPressure", "Normal", f"Node {BAD} status is now: NodeHasDiskPressure", "kubelet", BAD, BAD)
EV(T_EVICT + 0.014, "Pod", RUN1_POD[0], NS, "Evicted", "Warning",
   "The node was low on resource: ephemeral-storage. Threshold quantity: 10120387530, available: 9702960Ki. Container main was using 26498512Ki, request is 0, has larger consumption of ephemeral-storage. ",
   "kubelet", BAD, RUN1_UID[0])
EV(T_EVICT + 0.015, "Pod", RUN1_POD[0], NS, "Killing", "Normal", "Stopping container main", "kubelet", BAD, RUN1_UID[0])
EV(T_EVICT + 9.9, "Job", f"{JOBSET}-trainer-0", NS, "BackoffLimitExceeded", "Warning", "Job has reached the specified backoff limit", "job-controller")
for i in range(24):
    EV(T_NEWPODS + 0.2 + 0.01 * i, "Job", f"{JOBSET}-trainer-{i}", NS, "SuccessfulCreate", "Normal", f"Created pod: {RUN2_POD[i]}", "job-controller")
    n = RUN2_NODE[i]
    EV(T_NEWPODS + 0.9 + 0.02 * i, "Pod", RUN2_POD[i], NS, "Scheduled", "Normal", f"Successfully assigned {NS}/{RUN2_POD[i]} to {n}", "default-scheduler", None, RUN2_UID[i])
    if n == SPARE:
        EV(T_PULL0, "Pod", RUN2_POD[i], NS, "Pulling", "Normal", f'Pulling image "{IMAGE}"', "kubelet", n, RUN2_UID[i])
        EV(T_PULLED, "Pod", RUN2_POD[i], NS, "Pulled", "Normal", f'Successfully pulled image "{IMAGE}" in 6m38.514s (6m38.514s including waiting). Image size: 18730164933 bytes.', "kubelet", n, RUN2_UID[i])
    else:
        EV(run2_start[n] - 0.4, "Pod", RUN2_POD[i], NS, "Pulled", "Normal", f'Container image "{IMAGE}" already present on machine', "kubelet", n, RUN2_UID[i])
    EV(run2_start[n] - 0.05, "Pod", RUN2_POD[i], NS, "Created", "Normal", "Created container main", "kubelet", n, RUN2_UID[i])
    EV(run2_start[n] + 0.3, "Pod", RUN2_POD[i], NS, "Started", "Normal", "Started container main", "kubelet", n, RUN2_UID[i])
EV(T_DP_OFF - 0.2, "Node", BAD, None, "NodeHasNoDiskPressure", "Normal", f"Node {BAD} status is now: NodeHasNoDiskPressure", "kubelet", BAD, BAD)
(OUT / "logs" / "kubernetes").mkdir(parents=True, exist_ok=True)
with open(OUT / "logs" / "kubernetes" / "events-exporter.jsonl", "w") as f:
    for _, l in sorted(events, key=lambda z: z[0]):
        f.write(l + "\n")

# --------------------------------------------------------------------------------------
# incident.yaml, truth.yaml
# --------------------------------------------------------------------------------------
# throughput loss over the window: time during which the job made no new progress
t_regained = float(R2_END[np.searchsorted(R2_IT, FAIL_ITER)])
lost_s = t_regained - float(R1_END[-1])
loss_pct = round(100.0 * lost_s / (T1 - T0), 1)

incident = {
    "id": ID,
    "title": "llama-8b-pt JobSet failed on all ranks and restarted on a spare node (Kubernetes, 192x H100)",
    "window": {"start": W0.isoformat(), "end": W1.isoformat()},
    "baseline": {"start": W0.isoformat(), "end": BASE1.isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "ams1-gpu-k8s", "nodes": 25, "gpus_per_node": 8, "gpu_model": "H100"},
    "signal_pack": "default",
}
with open(OUT / "incident.yaml", "w") as f:
    f.write("# Postmortem input for the 2025-06-11 llama-8b-pt interruption.\n")
    f.write("# metrics/: Prometheus export (kube-prometheus-stack; dcgm-exporter via gpu-operator ServiceMonitor,\n")
    f.write("#   node-exporter by node InternalIP:9100, kube-state-metrics, kubelet).  logs/: node journals,\n")
    f.write("#   pod logs as written under /var/log/pods (collected by the log shipper), event-exporter output.\n")
    yaml.safe_dump(incident, f, sort_keys=False)

truth = {
    "id": ID,
    "cause": ("The root filesystem of gpu-h100-007 (re-imaged with a 100 GB root LV instead of the fleet's 1.9 TB root) "
              "was filled by the trainer container's local data-shard cache and logs, so the kubelet hit nodefs.available<10% "
              "and evicted the trainer pod holding ranks 0-7, which killed the synchronous job on all 192 ranks."),
    "cause_metrics": ["node_filesystem_avail_bytes", "node_filesystem_free_bytes", "node_filesystem_size_bytes",
                      "node_disk_written_bytes_total", "kube_node_status_condition", "kube_node_spec_taint",
                      "kubelet_evictions", "kube_pod_status_reason"],
    "cause_log_evidence": [
        {"text": '"Eviction manager: attempting to reclaim" resourceName="ephemeral-storage"',
         "where": f"logs/nodes/{BAD}/journal.log (kubelet, eviction_manager.go:339)",
         "source": "Message body verbatim from the kubelet log in the GitHub-hosted post 'How Kubelet Garbage Collection Fails' (public Markdown file, search-index id 48174310626); the same message also in https://github.com/sustainable-computing-io/kepler/issues/1799 (eviction_manager.go:369). klog/journald prefix (time, host, pid) adapted."},
        {"text": '"Attempting to delete unused containers" / "Attempting to delete unused images"',
         "where": f"logs/nodes/{BAD}/journal.log (container_gc.go:85, image_gc_manager.go:321)",
         "source": "same post (search-index id 48174310626); prefixes adapted."},
        {"text": '"Eviction manager: must evict pod(s) to reclaim" resourceName="ephemeral-storage"',
         "where": f"logs/nodes/{BAD}/journal.log (eviction_manager.go:350)",
         "source": "same post (search-index id 48174310626); prefix adapted."},
        {"text": '"Eviction manager: pods ranked for eviction" pods=[...]',
         "where": f"logs/nodes/{BAD}/journal.log (eviction_manager.go:368)",
         "source": "same post (search-index id 48174310626); the pod names in the list are this cluster's pods."},
        {"text": '"Killing container with a grace period" pod=... podUID=... containerName="main" containerID="containerd://..." gracePeriod=30',
         "where": f"logs/nodes/{BAD}/journal.log (kuberuntime_container.go:709)",
         "source": "https://github.com/VijayRod/demo/blob/9c487b61aa044b6c86964480c9bf8eb0d832b899/container-storage/logs/zk8s-pod_state_ExitCode.md (AKS node syslog of a kubelet eviction); pod/uid/container ids adapted."},
        {"text": '"SyncLoop (PLEG): event for pod" pod=... event=&{ID:... Type:ContainerDied Data:...}',
         "where": f"logs/nodes/{BAD}/journal.log (kubelet.go:2231)",
         "source": "same VijayRod/demo file; ids adapted."},
        {"text": '"Eviction manager: pod is evicted successfully" pod="llm-training/<trainer-0 pod>"',
         "where": f"logs/nodes/{BAD}/journal.log (eviction_manager.go:575)",
         "source": "post 'How Kubelet Garbage Collection Fails' (search-index id 48174310626); also in the VijayRod/demo file above (eviction_manager.go:595). Pod name adapted."},
        {"text": '"Eviction manager: pods evicted, waiting for pod to be cleaned up" pods=[...] / "Eviction manager: pods successfully cleaned up" pods=[...]',
         "where": f"logs/nodes/{BAD}/journal.log (eviction_manager.go:199 / :411)",
         "source": "post 'How Kubelet Garbage Collection Fails' (search-index id 48174310626); pod name adapted."},
        {"text": "The node was low on resource: ephemeral-storage. Threshold quantity: 10120387530, available: 9702960Ki. Container main was using 26498512Ki, request is 0, has larger consumption of ephemeral-storage. ",
         "where": "logs/kubernetes/events-exporter.jsonl (reason Evicted, involvedObject the trainer-0 pod)",
         "source": "verbatim (quantities and container name unchanged) from https://github.com/GoogleCloudPlatform/ml-auto-solutions/pull/297 (a torchbench pod on GKE evicted for ephemeral-storage). The root filesystem size in the metrics (101203873792 bytes) was chosen to match its 10% threshold."},
        {"text": "Attempting to reclaim ephemeral-storage (event reason EvictionThresholdMet)",
         "where": "logs/kubernetes/events-exporter.jsonl",
         "source": "kubelet node event text as quoted in https://github.com/actions/actions-runner-controller/issues/1215"},
        {"text": "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers / WARNING:torch.distributed.elastic.multiprocessing.api:Sending process <pid> closing signal SIGTERM",
         "where": "logs/pods/llm-training_<trainer-0-0 run-1 pod>/main/0.log",
         "source": "torch 2.0 elastic agent lines verbatim from the AWS Neuron SDK troubleshooting page 'HOST OOM issues' (public .rst, search-index id 33264964578); pids adapted."},
        {"text": "<pod>:<pid>:<tid> [N] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer <ip><port> with error 12, opcode 0, len 0, vendor err 129 (Recv)  (+ 'NCCL INFO transport/net.cc:1134 -> 6', 'proxy.cc:679 -> 6', 'proxy.cc:858 -> 6 [Proxy Thread]')",
         "where": "logs/pods/llm-training_<trainer-1..23 run-1 pods>/main/0.log",
         "source": "https://github.com/stas00/ml-engineering/blob/744d01e18b79512572f64a6bbd8b5f4a725203a7/debug/pytorch.md (line 3572ff; the source wraps 'len' / '0' over two lines); host, pid:tid, GPU index and peer address adapted."},
        {"text": "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. ... / [E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process down. / terminate called after throwing an instance of 'std::runtime_error' / what():  NCCL error: remote process exited or there was a network error, NCCL version 2.14.3 / ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely. / Last error: / NET/IB : Got completion from peer <ip><port> with error 12, opcode 0, len 0, vendor err 129",
         "where": "logs/pods/llm-training_<trainer-1..23 run-1 pods>/main/0.log",
         "source": "https://github.com/tatsu-lab/stanford_alpaca/issues/207 (the issue body flattens the lines; line breaks restored as PyTorch prints them); peer address adapted."},
        {"text": "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -6) local_rank: N (pid: P) of binary: /usr/bin/python + torchrun traceback + ChildFailedError summary",
         "where": "logs/pods/llm-training_<trainer-1..23 run-1 pods>/main/0.log",
         "source": "format and frames from https://github.com/Facico/Chinese-Vicuna/issues/113 (torch 2.0: errors/__init__.py:346, run.py:794) and https://github.com/hiyouga/LlamaFactory/issues/701 (launcher/api.py:250); summary block layout from https://github.com/pytorch/pytorch/issues/121209. Exit code -6 (SIGABRT after std::terminate), pids, host, rank and the install prefix adapted."},
    ],
    "hosts": [BAD],
    "gpu": None,
    "onset": ts(T_CACHE).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "onset_note": ("07:04:31Z the root filesystem of gpu-h100-007 starts falling (cache growth); the job is stopped by the "
                   f"eviction at {ts(T_EVICT).strftime('%H:%M:%S')}Z and trains again from {ts(T_RUN2_TRAIN).strftime('%H:%M:%S')}Z."),
    "eviction_time": ts(T_EVICT).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
    "training_resumed": ts(T_RUN2_TRAIN).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "replacement_node": SPARE,
    "failed_at_iteration": FAIL_ITER,
    "resumed_from_checkpoint_iteration": LAST_CKPT,
    "job_throughput_loss_pct": loss_pct,
    "job_throughput_loss_note": (f"No throughput slowdown before the failure; the job made no new progress for {lost_s/60:.1f} min "
                                 f"(stop at {ts(R1_END[-1]).strftime('%H:%M:%S')}Z until iteration {FAIL_ITER} was reached again at "
                                 f"{ts(t_regained).strftime('%H:%M:%S')}Z: 11 min down + replay of {FAIL_ITER - LAST_CKPT} iterations), "
                                 f"i.e. {loss_pct}% of the 4-hour window's training progress."),
    "what_a_good_postmortem_says": (
        "The job did not slow down; it stopped at 08:06 UTC because the kubelet on gpu-h100-007 evicted the trainer pod holding ranks 0-7 "
        "for ephemeral-storage, and the NCCL 'remote process exited' aborts on the other 23 pods are consequences, not causes. "
        "node_filesystem_avail_bytes for / on gpu-h100-007 fell steadily from about 07:05 to the 10% eviction threshold because every trainer "
        "pod caches ~23 GiB/h of data shards in its writable layer and only 007 has a 101 GB root (re-imaged with the default LV; 1.9 TB elsewhere). "
        f"Fix the node's layout, move the cache to /raid or a size-limited emptyDir with ephemeral-storage requests, and alert on root free space; "
        f"the JobSet restart on spare gpu-h100-025 cost {(T_RUN2_TRAIN - T_EVICT) / 60:.0f} min plus replay from the iteration-{LAST_CKPT} checkpoint."),
}
with open(OUT / "truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)

print("avail at eviction (GB):", avail_at_evict / 1e9, "container usage at eviction (GiB):", container_usage_at_evict / 2**30)
print("fail iter", FAIL_ITER, "last ckpt", LAST_CKPT, "loss %", loss_pct)
print("done:", OUT)
