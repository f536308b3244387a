#!/usr/bin/env python3
"""Generate incident folder `hgx-c12-oom-20250611` (fixed seed).

A 24-node x 8 H100 Megatron-LM data-parallel pretraining job (Slurm job 481907).
The last rank (rank 191, hgx-c12-n24 GPU 7, the rank that prints the iteration log)
slowly accumulates device memory from the start of the run; ~3 h in it raises
torch.OutOfMemoryError, the 184 ranks on the other 23 nodes hang in an allreduce until
the NCCL watchdog (600 s) aborts them, the job FAILS, and it is resubmitted 15 minutes
later (job 481933) with --micro-batch-size 1 instead of 2, resuming from the last
checkpoint and running normally (about 5 % slower per step).

Writes, beside this script:
  hgx-c12-oom-20250611/incident.yaml
  hgx-c12-oom-20250611/truth.yaml
  hgx-c12-oom-20250611/metrics/dcgm-exporter.parquet   (15 s scrapes, one row group per metric)
  hgx-c12-oom-20250611/metrics/node-exporter.csv       (30 s scrapes, RFC 3339 timestamps)
  hgx-c12-oom-20250611/logs/slurm-481907.out, logs/slurm-481933.out, logs/sacct.txt
  hgx-c12-oom-20250611/logs/<host>/syslog
"""
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250611
rng = np.random.default_rng(SEED)

ID = "hgx-c12-oom-20250611"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

UTC = timezone.utc


def T(s):
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


def ep(dt):
    return dt.timestamp()


# ----------------------------------------------------------------------------- timeline
W0, W1 = T("2025-06-11T06:00:00"), T("2025-06-11T10:30:00")
J1_START = T("2025-06-11T06:04:12")      # sbatch start
J1_SRUN = J1_START + timedelta(seconds=3)
J1_TRAIN = T("2025-06-11T06:07:02")      # first iteration begins
STEP1 = 3.962                            # s / iteration, micro-batch 2
RESUME1 = 30000                          # job resumes from this checkpoint
CKPT_EVERY = 500
CKPT_SECONDS = 36.5
LEAK_RANK = 191
LEAK_HOST_IDX = 23                       # hgx-c12-n24
LEAK_GPU = 7
J2_START = None                          # computed
STEP2 = 4.157                            # s / iteration, micro-batch 1
N_NODES, GPN = 24, 8
HOSTS = [f"hgx-c12-n{i:02d}" for i in range(1, N_NODES + 1)]
IPS = [f"10.64.12.{10 + i}" for i in range(1, N_NODES + 1)]
JOB1, JOB2 = 481907, 481933
CKPT_DIR = "/lustre/fsw/llm/ckpt/llama-7b-v3-run4"

# iteration times for job 1 ---------------------------------------------------------
def iteration_times(t_start, first_iter, step, last_time, jitter=0.028):
    """Return list of (iteration, end_time_epoch, step_seconds) and checkpoint windows."""
    t = ep(t_start)
    it = first_iter
    out, ckpts = [], []
    while t < ep(last_time):
        dt = step + rng.normal(0, jitter)
        if rng.random() < 0.004:
            dt += rng.uniform(0.3, 1.2)  # occasional slow step (dataloader / GC)
        t += dt
        it += 1
        out.append((it, t, dt))
        if it % CKPT_EVERY == 0:
            c0 = t
            t += CKPT_SECONDS + rng.normal(0, 1.5)
            ckpts.append((it, c0, t))
    return out, ckpts


iters1, ckpts1 = iteration_times(J1_TRAIN, RESUME1, STEP1, T("2025-06-11T09:07:40"))
# the OOM happens during the forward pass of the iteration after the last completed one
OOM_ITER = iters1[-1][0] + 1
T_OOM = iters1[-1][1] + 1.84            # seconds into the failing iteration
T_OOM_DT = datetime.fromtimestamp(T_OOM, UTC)
T_HUNG_ALLREDUCE = T_OOM + 0.41          # peers enter the allreduce rank 191 never joins
T_WATCHDOG = T_HUNG_ALLREDUCE + 600.013
T_ABORT_DONE = T_WATCHDOG + 3.6          # processes gone on n01..n23
T_N24_DEAD = T_OOM + 2.2
J1_END = datetime.fromtimestamp(T_WATCHDOG + 9.3, UTC).replace(microsecond=0)
J2_START = (J1_END + timedelta(minutes=15, seconds=9)).replace(microsecond=0)   # resubmitted
J2_TRAIN = J2_START + timedelta(seconds=211)
last_ckpt = max(c[0] for c in ckpts1)    # 32500
iters2, ckpts2 = iteration_times(J2_TRAIN, last_ckpt, STEP2, W1 + timedelta(seconds=60))


def phase_arrays(ts, host_idx):
    """State code per timestamp for a host: 0 idle, 1 init, 2 train, 3 ckpt, 4 hung."""
    st = np.zeros(len(ts), dtype=np.int8)
    init1 = (ts >= ep(J1_SRUN) + 4) & (ts < ep(J1_TRAIN))
    st[init1] = 1
    if host_idx == LEAK_HOST_IDX:
        tr1 = (ts >= ep(J1_TRAIN)) & (ts < T_N24_DEAD)
    else:
        tr1 = (ts >= ep(J1_TRAIN)) & (ts < T_HUNG_ALLREDUCE)
    st[tr1] = 2
    for _, c0, c1 in ckpts1:
        st[(ts >= c0) & (ts < c1) & tr1] = 3
    if host_idx != LEAK_HOST_IDX:
        st[(ts >= T_HUNG_ALLREDUCE) & (ts < T_ABORT_DONE)] = 4
    init2 = (ts >= ep(J2_START) + 6) & (ts < ep(J2_TRAIN))
    st[init2] = 1
    tr2 = ts >= ep(J2_TRAIN)
    st[tr2] = 2
    for _, c0, c1 in ckpts2:
        st[(ts >= c0) & (ts < c1)] = 3
    return st


# ----------------------------------------------------------------------------- GPUs
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.90.07"
BUS = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
FB_TOTAL, FB_RES = 81559, 550            # MiB; used + free = 81009


def uuid():
    h = rng.integers(0, 16, 32)
    s = "".join("0123456789abcdef"[x] for x in h)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


UUIDS = [[uuid() for _ in range(GPN)] for _ in range(N_NODES)]

# persistent per-GPU / per-host differences
host_ambient = rng.normal(0, 1.6, N_NODES)               # inlet temperature differences
gpu_slot_temp = np.array([1.5, 0.5, -0.5, 2.5, 3.0, 1.0, -1.0, 0.0])  # airflow position in chassis
gpu_temp_off = gpu_slot_temp[None, :] + rng.normal(0, 1.4, (N_NODES, GPN)) + host_ambient[:, None]
gpu_pow_off = rng.normal(0, 14, (N_NODES, GPN))
gpu_idle_pow = 69 + rng.normal(0, 2.2, (N_NODES, GPN))
gpu_fb_off = np.round(rng.normal(0, 40, (N_NODES, GPN)) / 2) * 2
replay = np.zeros((N_NODES, GPN))
replay[4, 2] = 3
replay[17, 6] = 11
energy0 = rng.uniform(3.1e11, 3.9e11, (N_NODES, GPN))     # mJ since boot (~14 days)

DCGM_SCRAPE = 15.0
NODE_SCRAPE = 30.0
dcgm_phase = rng.uniform(0, DCGM_SCRAPE, N_NODES)
node_phase = rng.uniform(0, NODE_SCRAPE, N_NODES)

# job-1 framebuffer usage (MiB) per local rank with micro-batch 2, and job 2 with micro-batch 1
FB_J1 = 61718
FB_J2 = 53594
FB_LR0_EXTRA = 612                       # local rank 0 holds a bit more (dataloader pinned, logging)


def leak_curve(ts):
    """Extra MiB held by rank 191 at each timestamp (staircase, monotone)."""
    target = 78336 - (FB_J1 + gpu_fb_off[LEAK_HOST_IDX, LEAK_GPU])
    grid = np.arange(ep(J1_TRAIN), T_OOM + 1, 1.0)
    # growth per second while iterating (not while checkpointing), granular 2 MiB blocks
    rate = np.ones_like(grid)
    for _, c0, c1 in ckpts1:
        rate[(grid >= c0) & (grid < c1)] = 0.0
    jumps = rng.poisson(0.35, len(grid)) * rng.choice([2, 2, 4, 20, 20, 64], len(grid))
    jumps = jumps * rate
    cum = np.cumsum(jumps).astype(float)
    cum *= target / cum[-1]
    cum = np.floor(cum / 2) * 2
    idx = np.clip(np.searchsorted(grid, ts) - 1, 0, len(grid) - 1)
    out = np.where(ts < ep(J1_TRAIN), 0.0, cum[idx])
    return out


def smooth_lag(target, dt, tau):
    out = np.empty_like(target)
    a = 1 - np.exp(-dt / tau)
    cur = target[0]
    for i, v in enumerate(target):
        cur = cur + a * (v - cur)
        out[i] = cur
    return out


DCGM_METRICS = [
    "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_GPU_TEMP",
    "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE",
    "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_RESERVED", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE",
]


def gen_dcgm():
    cols = {m: {k: [] for k in ("ts", "value", "h", "g")} for m in DCGM_METRICS}
    n = int((ep(W1) - ep(W0)) / DCGM_SCRAPE) + 1
    for hi in range(N_NODES):
        base = ep(W0) + dcgm_phase[hi] + np.arange(n) * DCGM_SCRAPE
        base = base[base <= ep(W1)]
        ts = np.round(base + rng.uniform(0.002, 0.034, len(base)), 3)
        st = phase_arrays(ts, hi)
        k = len(ts)
        for g in range(GPN):
            train = st == 2
            idle = st == 0
            init = st == 1
            ck = st == 3
            hung = st == 4
            job2 = ts >= ep(J2_START)
            util = np.zeros(k)
            util[train] = np.clip(np.round(99.6 - np.abs(rng.normal(0, 1.1, train.sum()))), 90, 100)
            util[init] = np.round(rng.uniform(0, 38, init.sum()))
            util[ck] = np.round(rng.uniform(0, 24, ck.sum()))
            util[hung] = 100
            pw_train = 618 + gpu_pow_off[hi, g] + rng.normal(0, 19, k) - np.where(job2, 17, 0)
            power = np.where(idle, gpu_idle_pow[hi, g] + rng.normal(0, 1.1, k), 0.0)
            power = np.where(train, pw_train, power)
            power = np.where(init, rng.uniform(88, 168, k), power)
            power = np.where(ck, 104 + rng.normal(0, 8, k), power)
            power = np.where(hung, 127 + gpu_pow_off[hi, g] * 0.1 + rng.normal(0, 2.5, k), power)
            power = np.round(power, 3)
            ttarget = np.where(train, 64.5 + gpu_temp_off[hi, g] - np.where(job2, 1.0, 0),
                               np.where(hung | ck | init, 40.5 + 0.5 * gpu_temp_off[hi, g], 31.5 + 0.5 * gpu_temp_off[hi, g]))
            gtemp = np.round(smooth_lag(ttarget, DCGM_SCRAPE, 80.0) + rng.normal(0, 0.45, k))
            mtarget = ttarget + np.where(train, 6.0, 4.0) + 0.4 * gpu_temp_off[hi, g]
            mtemp = np.round(smooth_lag(mtarget, DCGM_SCRAPE, 110.0) + rng.normal(0, 0.45, k))
            sm = np.full(k, 345.0)
            busy = train | init | hung | ck
            sm[busy] = 1980
            nt = train.sum()
            sm[train] = np.clip(np.round((1935 - np.abs(rng.normal(0, 55, nt)) - 0.25 * gpu_pow_off[hi, g]) / 15) * 15, 1605, 1980)
            memclk = np.full(k, 2619.0)
            fb = np.zeros(k)
            lr0 = FB_LR0_EXTRA if g == 0 else 0
            fb_j1 = FB_J1 + gpu_fb_off[hi, g] + lr0
            fb_j2 = FB_J2 + gpu_fb_off[hi, g] + lr0
            # init ramps
            i1 = init & ~job2
            if i1.any():
                frac = np.clip((ts[i1] - ep(J1_SRUN) - 4) / (ep(J1_TRAIN) - ep(J1_SRUN) - 4), 0, 1)
                fb[i1] = np.round(530 + frac * (fb_j1 - 2200 - 530))
            i2 = init & job2
            if i2.any():
                frac = np.clip((ts[i2] - ep(J2_START) - 6) / (ep(J2_TRAIN) - ep(J2_START) - 6), 0, 1)
                fb[i2] = np.round(530 + frac * (fb_j2 - 2100 - 530))
            j1run = (train | ck | hung) & ~job2
            fb[j1run] = fb_j1 + rng.choice([0, 0, 0, 2, -2], j1run.sum())
            fb[(train | ck) & job2] = fb_j2 + rng.choice([0, 0, 0, 2, -2], ((train | ck) & job2).sum())
            if hi == LEAK_HOST_IDX and g == LEAK_GPU:
                extra = leak_curve(ts)
                m = j1run
                fb[m] = fb_j1 + extra[m]
            fb = np.clip(fb, 0, FB_TOTAL - FB_RES)
            free = (FB_TOTAL - FB_RES) - fb
            tensor = np.zeros(k)
            tensor[train] = np.clip(0.431 + rng.normal(0, 0.013, nt) - np.where(job2[train], 0.021, 0), 0, 1)
            tensor[init] = rng.uniform(0, 0.03, init.sum())
            tensor[ck] = rng.uniform(0, 0.01, ck.sum())
            gr = np.zeros(k)
            gr[train] = np.clip(0.962 + rng.normal(0, 0.009, nt), 0, 1)
            gr[init] = rng.uniform(0.02, 0.35, init.sum())
            gr[ck] = rng.uniform(0.0, 0.12, ck.sum())
            gr[hung] = np.clip(0.998 + rng.normal(0, 0.001, hung.sum()), 0, 1)
            dram = np.zeros(k)
            dram[train] = np.clip(0.286 + rng.normal(0, 0.011, nt), 0, 1)
            dram[init] = rng.uniform(0, 0.05, init.sum())
            dram[hung] = rng.uniform(0.0005, 0.002, hung.sum())
            memcopy = np.zeros(k)
            memcopy[train] = np.clip(np.round(31 + rng.normal(0, 2.2, nt)), 0, 100)
            memcopy[init] = np.round(rng.uniform(0, 6, init.sum()))
            memcopy[hung] = 0
            dt = np.diff(ts, prepend=ts[0] - DCGM_SCRAPE)
            energy = np.round(energy0[hi, g] + np.cumsum(power * dt * 1000.0))
            vals = {
                "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": memclk,
                "DCGM_FI_DEV_MEMORY_TEMP": mtemp, "DCGM_FI_DEV_GPU_TEMP": gtemp,
                "DCGM_FI_DEV_POWER_USAGE": power, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": energy,
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": np.full(k, replay[hi, g]),
                "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_MEM_COPY_UTIL": memcopy,
                "DCGM_FI_DEV_XID_ERRORS": np.zeros(k), "DCGM_FI_DEV_FB_FREE": free,
                "DCGM_FI_DEV_FB_USED": fb, "DCGM_FI_DEV_FB_RESERVED": np.full(k, float(FB_RES)),
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tensor, 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6),
            }
            for m, v in vals.items():
                c = cols[m]
                c["ts"].append(ts)
                c["value"].append(v.astype(float))
                c["h"].append(np.full(k, hi, dtype=np.int16))
                c["g"].append(np.full(k, g, dtype=np.int16))
    path = os.path.join(OUT, "metrics", "dcgm-exporter.parquet")
    schema = pa.schema([
        ("timestamp", pa.timestamp("ms", tz="UTC")), ("metric", pa.string()), ("value", pa.float64()),
        ("gpu", pa.string()), ("UUID", pa.string()), ("pci_bus_id", pa.string()), ("device", pa.string()),
        ("modelName", pa.string()), ("Hostname", pa.string()), ("DCGM_FI_DRIVER_VERSION", pa.string()),
        ("instance", pa.string()), ("job", pa.string()),
    ])
    writer = pq.ParquetWriter(path, schema, compression="zstd")
    for m in DCGM_METRICS:
        c = cols[m]
        ts = np.concatenate(c["ts"]); v = np.concatenate(c["value"])
        h = np.concatenate(c["h"]); g = np.concatenate(c["g"])
        order = np.lexsort((g, h, ts))
        ts, v, h, g = ts[order], v[order], h[order], g[order]
        tbl = pa.table({
            "timestamp": pa.array((ts * 1000).round().astype("int64"), type=pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
            "metric": pa.array([m] * len(ts)),
            "value": pa.array(v),
            "gpu": pa.array([str(x) for x in g]),
            "UUID": pa.array([UUIDS[a][b] for a, b in zip(h, g)]),
            "pci_bus_id": pa.array([BUS[x] for x in g]),
            "device": pa.array([f"nvidia{x}" for x in g]),
            "modelName": pa.array([MODEL] * len(ts)),
            "Hostname": pa.array([HOSTS[x] for x in h]),
            "DCGM_FI_DRIVER_VERSION": pa.array([DRIVER] * len(ts)),
            "instance": pa.array([f"{IPS[x]}:9400" for x in h]),
            "job": pa.array(["dcgm-exporter"] * len(ts)),
        }, schema=schema)
        writer.write_table(tbl, row_group_size=len(ts))
    writer.close()


# ----------------------------------------------------------------------------- node_exporter
IB_DEVS = [f"mlx5_{i}" for i in range(8)]
BOOT = [ep(T("2025-05-28T03:10:00")) + rng.uniform(0, 7200) for _ in range(N_NODES)]
KREL = "5.15.0-119-generic"
KVER = "#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024"


def rfc3339(t):
    d = datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{d.microsecond // 1000:03d}+00:00"


def gen_node():
    path = os.path.join(OUT, "metrics", "node-exporter.csv")
    hdr = ["timestamp", "metric", "value", "instance", "job", "device", "port", "nodename",
           "domainname", "machine", "release", "sysname", "version"]
    n = int((ep(W1) - ep(W0)) / NODE_SCRAPE) + 1
    allrows = []
    for hi in range(N_NODES):
        inst = f"{IPS[hi]}:9100"
        base = ep(W0) + node_phase[hi] + np.arange(n) * NODE_SCRAPE
        base = base[base <= ep(W1)]
        ts = np.round(base + rng.uniform(0.001, 0.020, len(base)), 3)
        st = phase_arrays(ts, hi)
        k = len(ts)
        dt = np.diff(ts, prepend=ts[0] - NODE_SCRAPE)
        train = st == 2
        lab_dev = lambda d, p="": f"{inst},node,{d},{p},,,,,,"
        uname = f"{inst},node,,,{HOSTS[hi]},(none),x86_64,{KREL},Linux,\"{KVER}\""
        plain = f"{inst},node,,,,,,,,"
        # InfiniBand: gradient reduce-scatter / all-gather traffic (bytes/s per port)
        for d in IB_DEVS:
            for kind in ("received", "transmitted"):
                rate = np.where(train, 3.05e9 * (1 + rng.normal(0, 0.03, k)), 0.0)
                rate = np.where(st == 3, 1.1e9 * (1 + rng.normal(0, 0.1, k)), rate)  # checkpoint shards to Lustre
                rate = np.where(st == 1, rng.uniform(2e6, 6e8, k), rate)
                rate = rate + rng.uniform(200, 900, k)  # SM/MAD traffic
                c0 = rng.uniform(2e14, 9e14)
                cum = np.round(c0 + np.cumsum(rate * dt))
                lab = lab_dev(d, "1")
                allrows += [(t, f"{rfc3339(t)},node_infiniband_port_data_{kind}_bytes_total,{v:.0f},{lab}") for t, v in zip(ts, cum)]
        for d in ("bond0", "enp1s0f0np0", "enp1s0f1np1"):
            share = 1.0 if d == "bond0" else 0.5
            for kind in ("receive", "transmit"):
                rate = rng.uniform(2.5e6, 9e6, k) * (0.4 if kind == "transmit" else 1.0) * share
                cum = np.round(rng.uniform(1e12, 8e12) + np.cumsum(rate * dt))
                lab = lab_dev(d)
                allrows += [(t, f"{rfc3339(t)},node_network_{kind}_bytes_total,{v:.0f},{lab}") for t, v in zip(ts, cum)]
        load = np.where(train | (st == 3), 26 + rng.normal(0, 3, k), np.where(st == 4, 9 + rng.normal(0, 1, k), 1.2 + rng.normal(0, 0.4, k)))
        load = np.abs(smooth_lag(load, NODE_SCRAPE, 60))
        allrows += [(t, f"{rfc3339(t)},node_load1,{v:.2f},{plain}") for t, v in zip(ts, load)]
        mem = np.where(train | (st == 3) | (st == 4), 1.61e12, 1.93e12) + rng.normal(0, 2e9, k)
        mem = smooth_lag(mem, NODE_SCRAPE, 45)
        allrows += [(t, f"{rfc3339(t)},node_memory_MemAvailable_bytes,{v:.0f},{plain}") for t, v in zip(ts, mem)]
        allrows += [(t, f"{rfc3339(t)},node_boot_time_seconds,{BOOT[hi]:.0f},{plain}") for t in ts]
        allrows += [(t, f"{rfc3339(t)},node_uname_info,1,{uname}") for t in ts]
    allrows.sort(key=lambda r: r[0])
    with open(path, "w") as f:
        f.write(",".join(hdr) + "\n")
        for _, line in allrows:
            f.write(line + "\n")


# ----------------------------------------------------------------------------- trainer logs
def glog_ts(t, letter):
    """c10 (C++ glog) prefix: month not zero-padded, nanoseconds, e.g. E816 01:45:40.212150935"""
    d = datetime.fromtimestamp(t, UTC)
    return f"{letter}{d.month}{d.day:02d} {d.strftime('%H:%M:%S')}.{d.microsecond:06d}{int(rng.integers(0, 1000)):03d}"


def glog_ts_py(t, letter):
    """torch.distributed.elastic Python logger prefix, e.g. W1111 04:39:05.501000"""
    d = datetime.fromtimestamp(t, UTC)
    return f"{letter}{d.strftime('%m%d %H:%M:%S')}.{d.microsecond // 1000:03d}000"


def megatron_iter_lines(iters, ckpts, mbs, gbs, train_iters, prefix, lr_at):
    lines = []
    buf = []
    loss_base = 2.0631
    for it, t, dt in iters:
        buf.append(dt)
        if it % 10 == 0:
            el = np.mean(buf) * 1000.0
            buf = []
            tflops = 397.3 * (STEP1 / (el / 1000.0))
            loss = loss_base - 0.0000052 * (it - 30000) + rng.normal(0, 0.012)
            gn = abs(0.21 + rng.normal(0, 0.025))
            ds = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")
            s = (f" [{ds}] iteration {it:8d}/{train_iters:8d} | consumed samples: {it * gbs:12d} |"
                 f" elapsed time per iteration (ms): {el:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} |"
                 f" learning rate: {lr_at(it):.6E} | global batch size: {gbs:5d} | lm loss: {loss:.6E} |"
                 f" loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 |"
                 f" number of nan iterations:   0 |")
            lines.append((t, prefix + s))
    for it, c0, c1 in ckpts:
        lines.append((c0 + 0.002, f"[default0]:saving checkpoint at iteration {it:7d} to {CKPT_DIR} in torch_dist format"))
        lines.append((c1 - 0.4, f"[default0]:  successfully saved checkpoint from iteration {it:7d} to {CKPT_DIR} [ t 1/1, p 1/1 ]"))
        lines.append((c1 - 0.3, "[default0]:(min, max) time across ranks (ms):"))
        ms = (c1 - c0 - 0.45) * 1000
        lines.append((c1 - 0.3, f"[default0]:    save-checkpoint ................................: ({ms - rng.uniform(2, 30):.2f}, {ms:.2f})"))
    return lines


def lr_at(it):
    # cosine decay from 3e-4 to 3e-5 over 250k iterations after 2k warmup
    p = (it - 2000) / 248000
    return 3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + np.cos(np.pi * p))


def startup_lines(t0, job, nodes_pids, mbs, gbs, resume_iter, train_start):
    L = []
    t = ep(t0)
    for hi in range(N_NODES):
        L.append((t + 0.1 + rng.uniform(0, 0.4), "pyxis: importing docker image: nvcr.io#nvidia/pytorch:24.10-py3"))
        L.append((t + 29.0 + rng.uniform(0, 3.5), "pyxis: imported docker image: nvcr.io#nvidia/pytorch:24.10-py3"))
    for hi in range(N_NODES):
        apid = nodes_pids[hi]["agent"]
        ts0 = t + 33.0 + hi * 0.013 + rng.uniform(0, 0.2)
        pre = f"{glog_ts_py(ts0, 'W')} {apid} torch/distributed/run.py:793] "
        L.append((ts0, pre))
        L.append((ts0, pre + "*****************************************"))
        L.append((ts0, pre + "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        L.append((ts0, pre + "*****************************************"))
    ta = t + 52.0
    L.append((ta, "[default0]:using world size: 192, data-parallel size: 192, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1 "))
    L.append((ta, "[default0]:------------------------ arguments ------------------------"))
    args = [("ckpt_format", "torch_dist"), ("data_parallel_size", "192"), ("global_batch_size", str(gbs)),
            ("load", CKPT_DIR), ("log_interval", "10"), ("log_throughput", "True"), ("lr", "0.0003"),
            ("micro_batch_size", str(mbs)), ("save", CKPT_DIR), ("save_interval", str(CKPT_EVERY)),
            ("seq_length", "4096"), ("tensor_model_parallel_size", "1"), ("train_iters", "250000"),
            ("use_distributed_optimizer", "True")]
    for k, v in args:
        L.append((ta, f"[default0]:  {k} {'.' * (48 - len(k))} {v}"))
    L.append((ta, "[default0]:-------------------- end of arguments ---------------------"))
    tn = t + 61.0
    L.append((tn, f"[default0]:{HOSTS[0]}:{nodes_pids[0]['workers'][0]}:{nodes_pids[0]['workers'][0]} [0] NCCL INFO NCCL version 2.21.5+cuda12.4"))
    busids = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
    comm = f"0x{rng.integers(0, 2**63):016x}"
    for hi in range(N_NODES):
        for lr in range(GPN):
            r = hi * GPN + lr
            pid = nodes_pids[hi]["workers"][lr]
            tt = tn + 6.5 + rng.uniform(0, 0.6)
            L.append((tt, f"[default{lr}]:{HOSTS[hi]}:{pid}:{pid} [{lr}] NCCL INFO ncclCommInitRank comm 0x{rng.integers(0x55550000, 0x5655ffff):x}a0 rank {r} nranks 192 cudaDev {lr} nvmlDev {lr} busId {busids[lr]} commId {comm} - Init COMPLETE"))
    tl = tn + 14
    L.append((tl, f"[default0]: loading checkpoint from {CKPT_DIR} at iteration {resume_iter}"))
    L.append((tl + 38, f"[default0]:  successfully loaded checkpoint from {CKPT_DIR} [ t 1/1, p 1/1 ] at iteration {resume_iter}"))
    d = datetime.fromtimestamp(tl + 40, UTC).strftime("%Y-%m-%d %H:%M:%S")
    L.append((tl + 40, f"[default0]:[after model, optimizer, and learning rate scheduler are built] datetime: {d} "))
    d = datetime.fromtimestamp(ep(train_start) - 1.5, UTC).strftime("%Y-%m-%d %H:%M:%S")
    L.append((ep(train_start) - 1.6, "[default0]:training ..."))
    L.append((ep(train_start) - 1.5, f"[default0]:[before the start of training step] datetime: {d} "))
    return L


OOM_LINE = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.63 GiB. GPU 7 has a total capacity of 79.11 GiB "
            "of which 2.61 GiB is free. Including non-PyTorch memory, this process has 0 bytes memory in use. Of the allocated "
            "memory 48.15 GiB is allocated by PyTorch, with 50.00 MiB allocated in private pools (e.g., CUDA Graphs), and 3.49 GiB "
            "is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting "
            "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  "
            "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")
WATCHDOG_FMT = ("[Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=80078, OpType=ALLREDUCE, "
                "NumelIn=2106881, NumelOut=2106881, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.")


def child_failed_block(t, host, rank, lr, pid, exitcode, sig=None):
    d = datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d_%H:%M:%S")
    L = ["Traceback (most recent call last):",
         '  File "/usr/local/bin/torchrun", line 8, in <module>',
         "    sys.exit(main())",
         "             ^^^^^^",
         '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper',
         "    return f(*args, **kwargs)",
         "           ^^^^^^^^^^^^^^^^^^",
         '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 919, in main',
         "    run(args)",
         '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 910, in run',
         "    elastic_launch(",
         '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 138, in __call__',
         "    return launch_agent(self._config, self._entrypoint, list(args))",
         "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
         '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 269, in launch_agent',
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
         f"  time      : {d}",
         f"  host      : {host}",
         f"  rank      : {rank} (local_rank: {lr})",
         f"  exitcode  : {exitcode} (pid: {pid})",
         "  error_file: <N/A>",
         (f"  traceback : Signal {sig} (SIGABRT) received by PID {pid}" if sig else
          "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"),
         "============================================================"]
    return [(t + 1e-7 * i, s) for i, s in enumerate(L)]


def job1_log(pids):
    L = startup_lines(J1_START, JOB1, pids, 2, 1536, RESUME1, J1_TRAIN)
    L += megatron_iter_lines(iters1, ckpts1, 2, 1536, 250000, "[default7]:", lr_at)
    # --- OOM traceback on rank 191
    tr = T_OOM
    pre = "[default7]:[rank191]: "
    tb = ["Traceback (most recent call last):",
          '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 245, in <module>',
          "    pretrain(",
          '  File "/workspace/Megatron-LM/megatron/training/training.py", line 301, in pretrain',
          "    iteration, num_floating_point_operations_so_far = train(",
          "                                                      ^^^^^^",
          '  File "/workspace/Megatron-LM/megatron/training/training.py", line 1115, in train',
          "    train_step(forward_step_func,",
          '  File "/workspace/Megatron-LM/megatron/training/training.py", line 612, in train_step',
          "    losses_reduced = forward_backward_func(",
          "                     ^^^^^^^^^^^^^^^^^^^^^^",
          '  File "/workspace/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", line 392, in forward_backward_no_pipelining',
          "    output_tensor, num_tokens = forward_step(",
          "                                ^^^^^^^^^^^^^",
          '  File "/workspace/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", line 218, in forward_step',
          "    output_tensor, loss_func = forward_step_func(data_iterator, model)",
          "                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
          '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 184, in forward_step',
          "    output_tensor = model(tokens, position_ids, attention_mask,",
          "                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
          OOM_LINE]
    for i, s in enumerate(tb):
        L.append((tr + 0.0005 * i, pre + s))
    n24 = pids[LEAK_HOST_IDX]
    tsig = tr + 0.93
    for lr in range(GPN - 1):
        L.append((tsig + 0.0003 * lr, f"{glog_ts_py(tsig + 0.0003 * lr, 'W')} {n24['agent']} torch/distributed/elastic/multiprocessing/api.py:897] Sending process {n24['workers'][lr]} closing signal SIGTERM"))
    tf = tr + 1.96
    L.append((tf, f"{glog_ts_py(tf, 'E')} {n24['agent']} torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 7 (pid: {n24['workers'][7]}) of binary: /usr/bin/python"))
    L += child_failed_block(tf + 0.01, HOSTS[LEAK_HOST_IDX], 191, 7, n24["workers"][7], 1)
    L.append((tf + 0.6, f"srun: error: {HOSTS[LEAK_HOST_IDX]}: task {LEAK_HOST_IDX}: Exited with exit code 1"))
    # --- watchdog timeouts on the other 23 nodes
    for hi in range(N_NODES):
        if hi == LEAK_HOST_IDX:
            continue
        p = pids[hi]
        for lr in range(GPN):
            r = hi * GPN + lr
            tw = T_WATCHDOG + rng.uniform(0.0, 1.9)
            L.append((tw, f"[default{lr}]:[rank{r}]:[{glog_ts(tw, 'E')} ProcessGroupNCCL.cpp:607] " + WATCHDOG_FMT.format(r=r)))
            L.append((tw + 0.05, f"[default{lr}]:terminate called after throwing an instance of 'c10::DistBackendError'"))
        first_lr = int(rng.integers(0, GPN))
        ta = T_WATCHDOG + 2.3 + rng.uniform(0, 0.8)
        for lr in range(GPN):
            if lr == first_lr:
                continue
            L.append((ta, f"{glog_ts_py(ta, 'W')} {p['agent']} torch/distributed/elastic/multiprocessing/api.py:897] Sending process {p['workers'][lr]} closing signal SIGTERM"))
        te = ta + 1.1 + hi * 0.0003
        L.append((te, f"{glog_ts_py(te, 'E')} {p['agent']} torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -6) local_rank: {first_lr} (pid: {p['workers'][first_lr]}) of binary: /usr/bin/python"))
        L += child_failed_block(te + 0.01, HOSTS[hi], hi * GPN + first_lr, first_lr, p["workers"][first_lr], -6, sig=6)
        L.append((te + 0.7, f"srun: error: {HOSTS[hi]}: task {hi}: Exited with exit code 1"))
    L.sort(key=lambda x: x[0])
    return [s for _, s in L]


def job2_log(pids):
    L = startup_lines(J2_START, JOB2, pids, 1, 1536, last_ckpt, J2_TRAIN)
    L += megatron_iter_lines(iters2, ckpts2, 1, 1536, 250000, "[default7]:", lr_at)
    L = [x for x in L if x[0] <= ep(W1) + 45]
    L.sort(key=lambda x: x[0])
    return [s for _, s in L]


# ----------------------------------------------------------------------------- syslogs
def syslog_ts(t):
    d = datetime.fromtimestamp(t, UTC)
    return f"{d.strftime('%b')} {d.day:2d} {d.strftime('%H:%M:%S')}"


def gen_syslogs(pids):
    for hi, h in enumerate(HOSTS):
        L = []
        boot = BOOT[hi]

        def kern(t, msg):
            L.append((t, f"{syslog_ts(t)} {h} kernel: [{t - boot:12.6f}] {msg}"))

        def prog(t, tag, msg):
            L.append((t, f"{syslog_ts(t)} {h} {tag}: {msg}"))

        # cron: sysstat every 10 min, hourly run-parts
        t = ep(W0) - 600
        while t < ep(W1) + 600:
            t = (np.floor((t - 300) / 600) + 1) * 600 + 300
            prog(t + rng.uniform(0.01, 0.4), f"CRON[{rng.integers(100000, 4000000)}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
            if datetime.fromtimestamp(t, UTC).minute == 10:
                pass
        for hh in range(6, 11):
            tt = ep(T(f"2025-06-11T{hh:02d}:17:01")) + rng.uniform(0, 0.3)
            prog(tt, f"CRON[{rng.integers(100000, 4000000)}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
        # monitoring / ansible ssh sessions
        sid = int(rng.integers(8000, 9000))
        for tt in sorted(ep(W0) + rng.uniform(0, ep(W1) - ep(W0), int(rng.integers(2, 6)))):
            sid += int(rng.integers(1, 40))
            prog(tt, "systemd-logind[1733]", f"New session {sid} of user root.")
            prog(tt + 0.01, "systemd[1]", f"Started Session {sid} of User root.")
            prog(tt + rng.uniform(2, 9), "systemd-logind[1733]", f"Session {sid} logged out. Waiting for processes to exit.")
            prog(tt + rng.uniform(9.1, 10), "systemd-logind[1733]", f"Removed session {sid}.")
        tt = ep(T("2025-06-11T06:38:12")) + rng.uniform(0, 900)
        prog(tt, "systemd[1]", "Starting Cleanup of Temporary Directories...")
        prog(tt + 0.05, "systemd[1]", "systemd-tmpfiles-clean.service: Deactivated successfully.")
        prog(tt + 0.05, "systemd[1]", "Finished Cleanup of Temporary Directories.")
        # slurmd around the two jobs
        for job, t0, step_end in ((JOB1, ep(J1_START), ep(J1_END)), (JOB2, ep(J2_START), None)):
            if hi == 0:
                prog(t0 + 0.2, "slurmd[2214]", f"slurmd: Launching batch job {job} for UID 10433")
            prog(t0 + 3.1, "slurmd[2214]", f"slurmd: launch task StepId={job}.0 request from UID:10433 GID:10433 HOST:10.64.12.11 PORT:{rng.integers(30000, 60000)}")
            prog(t0 + 3.2, "slurmd[2214]", f"slurmd: task/affinity: lllp_distribution: JobId={job} manual binding: none,one_thread")
            for sw in range(4):
                kern(t0 + 36 + sw * 0.0021, f"nvidia-nvswitch{sw}: open (major=510)")
            if hi == 0:
                kern(t0 + 34.8 + rng.uniform(0, 0.5), "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters.")
            if step_end:
                prog(step_end - 1.2, f"slurmstepd[{rng.integers(100000, 200000)}]", f"[{job}.0] done with job")
                if hi == 0:
                    prog(step_end - 0.2, f"slurmstepd[{rng.integers(100000, 200000)}]", f"[{job}.batch] done with job")
        # occasional perf sample-rate lowering
        if rng.random() < 0.4:
            tt = ep(W0) + rng.uniform(0, ep(W1) - ep(W0))
            a = int(rng.integers(2501, 3300))
            kern(tt, f"perf: interrupt took too long ({a} > {a - 3}), lowering kernel.perf_event_max_sample_rate to {int(rng.choice([63750, 79750, 50000]))}")
        L.sort(key=lambda x: x[0])
        d = os.path.join(OUT, "logs", h)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "syslog"), "w") as f:
            for _, s in L:
                f.write(s + "\n")


# ----------------------------------------------------------------------------- main
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    gen_dcgm()
    gen_node()

    def mkpids():
        out = []
        for hi in range(N_NODES):
            a = int(rng.integers(120000, 900000))
            out.append({"agent": a, "workers": [a + 40 + i * int(rng.integers(1, 4)) for i in range(GPN)]})
        return out

    with open(os.path.join(OUT, "logs", f"slurm-{JOB1}.out"), "w") as f:
        f.write("\n".join(job1_log(mkpids())) + "\n")
    with open(os.path.join(OUT, "logs", f"slurm-{JOB2}.out"), "w") as f:
        f.write("\n".join(job2_log(mkpids())) + "\n")
    gen_syslogs(None)
    fmt = "%Y-%m-%dT%H:%M:%S"
    with open(os.path.join(OUT, "logs", "sacct.txt"), "w") as f:
        f.write("JobID|JobName|Partition|Account|AllocNodes|State|ExitCode|Start|End|NodeList\n")
        nl = "hgx-c12-n[01-24]"
        f.write(f"{JOB1}|llama7b-pt|h100|llm-pretrain|24|FAILED|1:0|{J1_START.strftime(fmt)}|{J1_END.strftime(fmt)}|{nl}\n")
        f.write(f"{JOB1}.batch|batch||llm-pretrain|1|FAILED|1:0|{J1_START.strftime(fmt)}|{J1_END.strftime(fmt)}|hgx-c12-n01\n")
        f.write(f"{JOB1}.extern|extern||llm-pretrain|24|COMPLETED|0:0|{J1_START.strftime(fmt)}|{J1_END.strftime(fmt)}|{nl}\n")
        f.write(f"{JOB1}.0|torchrun||llm-pretrain|24|FAILED|1:0|{J1_SRUN.strftime(fmt)}|{(J1_END - timedelta(seconds=1)).strftime(fmt)}|{nl}\n")
        f.write(f"{JOB2}|llama7b-pt|h100|llm-pretrain|24|RUNNING|0:0|{J2_START.strftime(fmt)}|Unknown|{nl}\n")
        f.write(f"{JOB2}.batch|batch||llm-pretrain|1|RUNNING|0:0|{J2_START.strftime(fmt)}|Unknown|hgx-c12-n01\n")
        f.write(f"{JOB2}.extern|extern||llm-pretrain|24|RUNNING|0:0|{J2_START.strftime(fmt)}|Unknown|{nl}\n")
        f.write(f"{JOB2}.0|torchrun||llm-pretrain|24|RUNNING|0:0|{(J2_START + timedelta(seconds=3)).strftime(fmt)}|Unknown|{nl}\n")

    incident = {
        "id": ID,
        "title": "Llama-7B pretraining job 481907 failed after 3 h; resubmitted as 481933",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": "2025-06-11T06:15:00+00:00", "end": "2025-06-11T07:15:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "hgx-c12", "nodes": N_NODES, "gpus_per_node": GPN, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)

    # throughput loss: training progress (new iterations) from the crash to the window's end vs baseline pace
    expected = (ep(W1) - T_OOM) / STEP1
    final_iter = max(i for i, t, _ in iters2 if t <= ep(W1))
    done = final_iter - (OOM_ITER - 1)
    loss_pct = round(100 * (1 - done / expected), 1)
    steady_loss = round(100 * (1 - STEP1 / STEP2), 1)
    oom_s = T_OOM_DT.strftime("%H:%M:%S")
    gap_min = round((ep(J2_TRAIN) - T_OOM) / 60)
    truth = {
        "id": ID,
        "cause": "job software: GPU memory growth in the training code",
        "cause_metrics": ["DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE"],
        "cause_log_evidence": [
            {"text": "[default7]:[rank191]: " + OOM_LINE,
             "file": f"logs/slurm-{JOB1}.out",
             "source": "https://github.com/modelscope/ms-swift/issues/5943 (verbatim line '[rank15]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.63 GiB. GPU 7 has a total capacity of 79.11 GiB ...'; adapted: rank prefix 15 -> 191 and the torchrun tee prefix [default7]: added; GPU 7 kept)"},
            {"text": "[default<L>]:[rank<R>]:[E0611 09:17:3x.xxxxxxxxx ProcessGroupNCCL.cpp:607] " + WATCHDOG_FMT.format(r="<R>"),
             "file": f"logs/slurm-{JOB1}.out",
             "source": "https://github.com/NVIDIA/nccl/issues/1409 (verbatim line '[rank3]:[E816 01:45:40.212150935 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=80078, OpType=ALLREDUCE, NumelIn=2106881, NumelOut=2106881, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.'; adapted: rank number and glog timestamp, one line per hung rank on hgx-c12-n01..n23); a consequence, not the cause"},
            {"text": "torch/distributed/elastic/multiprocessing/api.py ... failed (exitcode: 1) local_rank: 7 (pid: ...) of binary: /usr/bin/python",
             "file": f"logs/slurm-{JOB1}.out",
             "source": "torchrun agent wording as in public logs, e.g. 'E0101 11:10:18.826000 7 site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: 1) local_rank: 0 (pid: 192) of binary: /usr/local/bin/python' and 'W1111 04:39:05.501000 533012 torch/distributed/elastic/multiprocessing/api.py:908] Sending process 533105 closing signal SIGTERM' (GitHub-committed job logs found via code search); pid, line number, time adapted; launcher consequence lines"},
        ],
        "hosts": [],
        "gpu": None,
        "onset": T_OOM_DT.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "precursor_onset": J1_TRAIN.isoformat().replace("+00:00", "Z"),
        "timeline": {
            "job_481907_start": J1_START.isoformat().replace("+00:00", "Z"),
            "training_start": J1_TRAIN.isoformat().replace("+00:00", "Z"),
            "oom_on_rank191": T_OOM_DT.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "nccl_watchdog_aborts": datetime.fromtimestamp(T_WATCHDOG, UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "job_481907_end_failed": J1_END.isoformat().replace("+00:00", "Z"),
            "job_481933_start_resubmitted": J2_START.isoformat().replace("+00:00", "Z"),
            "job_481933_training_resumed_from_iteration": int(last_ckpt),
            "job_481933_training_start": J2_TRAIN.isoformat().replace("+00:00", "Z"),
        },
        "job_throughput_loss_pct": loss_pct,
        "job_throughput_loss_definition": (
            f"training progress lost between the OOM ({T_OOM_DT.strftime('%H:%M:%S')}Z) and the window end (10:30Z): "
            f"{expected:.0f} iterations expected at the baseline pace of {STEP1:.3f} s/iteration, {done} new iterations made "
            f"({gap_min} min without training, {OOM_ITER - 1 - last_ckpt} iterations redone from checkpoint {last_ckpt}, "
            f"then {steady_loss}% slower steps with micro-batch 1)"),
        "steady_state_loss_after_restart_pct": steady_loss,
        "memory_growth_gpu": {"host": HOSTS[LEAK_HOST_IDX], "gpu": LEAK_GPU, "rank": LEAK_RANK,
                               "fb_used_mib_start": int(FB_J1 + gpu_fb_off[LEAK_HOST_IDX, LEAK_GPU]),
                               "fb_used_mib_at_oom": 78336,
                               "note": "the GPU is not at fault; the process on it (the last rank, which also prints the iteration log) accumulated device memory"},
        "what_a_good_postmortem_says": (
            "The job died of a software fault, not hardware: rank 191 (hgx-c12-n24 GPU 7, the last rank that prints the training log) "
            f"raised torch.OutOfMemoryError at {oom_s}Z after its framebuffer use (DCGM_FI_DEV_FB_USED) had climbed steadily from about "
            "61.7 GiB to 76.5 GiB over three hours while every other GPU stayed flat; the NCCL watchdog timeouts on the other 184 ranks "
            "ten minutes later are the consequence, not the cause. "
            f"The job was resubmitted 15 minutes after it failed with micro-batch 1, losing {gap_min} minutes without training plus the "
            f"{OOM_ITER - 1 - last_ckpt} iterations since checkpoint {last_ckpt} and running about {steady_loss:.0f}% slower per step; the fix is to find what the rank-191 code path keeps on the device "
            "(e.g. a logging hook holding tensors), not to drain the node."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140, allow_unicode=True)


if __name__ == "__main__":
    main()
