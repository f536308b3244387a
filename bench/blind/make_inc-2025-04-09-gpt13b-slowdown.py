#!/usr/bin/env python3
"""Generate the incident folder inc-2025-04-09-gpt13b-slowdown beside this script.

Story (ground truth, also written to truth.yaml): a Megatron-LM GPT-13B pretraining job on
24 x 8 A100 reads its tokenized data (and writes checkpoints) on the Lustre file system
"scratch". At 07:06:10 UTC the RAID controller of the object storage server scratch-oss05
(serving OST0010..OST0013) hangs, resets at 07:08:41 and comes back with its write cache
discarded; its disks then serve I/O slowly. Every client's reads from those OSTs slow down,
the data loaders fall behind and the synchronous job loses ~13% of its throughput, with
stalls, until the storage admins fail the four OSTs over to scratch-oss06 (08:14:20-08:15:50).

Fixed seed: the same folder byte for byte on every run (except file mtimes).
"""
import datetime as dt
import math
import os
import shutil
import uuid

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250409
HERE = os.path.dirname(os.path.abspath(__file__))
IID = "inc-2025-04-09-gpt13b-slowdown"
OUT = os.path.join(HERE, IID)

UTC = dt.timezone.utc


def T(s):
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC).timestamp()


def iso(t):
    return dt.datetime.fromtimestamp(t, UTC)


WIN0 = T("2025-04-09T06:00:00")
WIN1 = T("2025-04-09T09:00:00")
JOB_START = T("2025-04-09T05:11:48")
TRAIN_START = T("2025-04-09T05:17:55")
FAULT = T("2025-04-09T07:06:10")        # controller hangs, I/O to OST0010-0013 stops
RESET = T("2025-04-09T07:08:41")        # controller reset, cache discarded, write-through
FAILOVER0 = T("2025-04-09T08:14:20")     # admins move the OSTs to scratch-oss06
FAILOVER1 = T("2025-04-09T08:15:50")     # OSTs recovered on scratch-oss06
LOGS_FROM = T("2025-04-09T00:00:00")
LOGS_TO = T("2025-04-09T10:20:00")

rng = np.random.default_rng(SEED)

HOSTS = [f"gpu-a{i:03d}" for i in range(1, 25)]
NH = len(HOSTS)
GPN = 8
NCPU = 64
MODEL = "NVIDIA A100-SXM4-80GB"
DRIVER = "550.127.05"
PCI = ["00000000:07:00.0", "00000000:0F:00.0", "00000000:47:00.0", "00000000:4E:00.0",
       "00000000:87:00.0", "00000000:90:00.0", "00000000:B7:00.0", "00000000:BD:00.0"]
FS = "scratch"
OSS_BAD, OSS_PARTNER = "scratch-oss05", "scratch-oss06"
NID_BAD, NID_PARTNER = "10.60.0.25@o2ib", "10.60.0.26@o2ib"
OSTS_BAD = ["OST0010", "OST0011", "OST0012", "OST0013"]
JOBID = 7713519
ITER0 = 10500                     # resumed from the checkpoint of iteration 10500
BASE_ITER = 16.4                  # seconds per iteration when healthy
GBS, SEQ = 1536, 4096
NGPU = NH * GPN
FLOPS_PER_ITER = 158.0e12 * NGPU * BASE_ITER
SAVE_INTERVAL = 250
CKPT_DIR = "/lustre/scratch/proj-llm/ckpt/gpt13b-v3"


# --------------------------------------------------------------------------------------
# 1. the job: one synchronous iteration after another
# --------------------------------------------------------------------------------------
def degraded(t):
    return FAULT <= t < FAILOVER1


def simulate_iterations():
    """Each iteration: wait for the batch (data stall, GPUs idle) then compute."""
    its = []
    t = TRAIN_START
    it = ITER0 + 1
    saves = []
    while t < LOGS_TO:
        comp = BASE_ITER * (1 + rng.normal(0, 0.0035))
        wait = abs(rng.normal(0.004, 0.002))          # batch-generator, healthy
        if FAULT <= t < RESET:
            # controller hung: reads of the stripes on OST0010-0013 block until the reset
            wait = RESET - t + rng.uniform(3, 9)
        elif RESET <= t < FAILOVER0:
            wait += BASE_ITER * 0.02 * rng.uniform(0.2, 1.8)
            if rng.random() < 0.021:
                wait += float(np.clip(rng.lognormal(math.log(20), 0.5), 7, 80))
        elif FAILOVER0 <= t < FAILOVER1:
            wait = FAILOVER1 - t + rng.uniform(4, 12)
        start = t
        t = start + wait + comp
        its.append(dict(it=it, start=start, wait=wait, comp=comp, end=t))
        if it % SAVE_INTERVAL == 0:
            dur = 95.0 + rng.normal(0, 3)
            if degraded(t):
                dur = 212.0 + rng.normal(0, 5)
            saves.append(dict(it=it, start=t, dur=dur))
            t += dur + 1.2
        it += 1
    return its, saves


ITS, SAVES = simulate_iterations()

# GPU idle intervals (the whole job waits together): data waits and checkpoint saves
idle = [(x["start"], x["start"] + x["wait"]) for x in ITS if x["wait"] > 0.5]
idle += [(s["start"], s["start"] + s["dur"] + 1.2) for s in SAVES]
idle.sort()
IDLE = np.array(idle) if idle else np.zeros((0, 2))


def busy_fraction(t0, t1):
    """fraction of [t0, t1) the GPUs were computing (vectorised over arrays)."""
    t0 = np.asarray(t0, float)
    t1 = np.asarray(t1, float)
    idle_time = np.zeros_like(t0)
    for a, b in IDLE:
        lo = np.maximum(t0, a)
        hi = np.minimum(t1, b)
        idle_time += np.clip(hi - lo, 0, None)
    before = t1 <= TRAIN_START
    frac = 1 - idle_time / (t1 - t0)
    frac[before] = 0.0
    part = (t0 < TRAIN_START) & (t1 > TRAIN_START)
    frac[part] = (t1[part] - TRAIN_START) / (t1[part] - t0[part])
    return np.clip(frac, 0, 1)


def stall_pressure(t0, t1):
    """0..1: how much of [t0,t1) the data loaders spent blocked on Lustre."""
    t0 = np.asarray(t0, float)
    t1 = np.asarray(t1, float)
    out = np.zeros_like(t0)
    for x in ITS:
        if x["wait"] < 0.5 or not degraded(x["start"]):
            continue
        a, b = x["start"], x["start"] + x["wait"]
        out += np.clip(np.minimum(t1, b) - np.maximum(t0, a), 0, None)
    base = np.where((t0 >= RESET) & (t1 <= FAILOVER0), 0.12, 0.0)   # slow reads, hidden by prefetch
    return np.clip(out / (t1 - t0) + base, 0, 1)


def ckpt_write(t0, t1):
    out = np.zeros_like(np.asarray(t0, float))
    for s in SAVES:
        a, b = s["start"], s["start"] + s["dur"]
        out += np.clip(np.minimum(t1, b) - np.maximum(np.asarray(t0, float), a), 0, None) / s["dur"]
    return out


# --------------------------------------------------------------------------------------
# 2. metrics
# --------------------------------------------------------------------------------------
LABELS = ["instance", "job", "Hostname", "gpu", "UUID", "device", "pci_bus_id", "modelName",
          "DCGM_FI_DRIVER_VERSION", "cpu", "mode", "port", "mountpoint", "fstype",
          "nodename", "release", "machine", "sysname", "version", "domainname"]


class Table:
    """long-format samples, written as one row group per metric sorted by time"""

    def __init__(self):
        self.parts = {}

    def add(self, metric, ts, values, **labels):
        n = len(ts)
        cols = {"timestamp": pa.array(np.asarray(ts, "int64"), pa.int64()),
                "value": pa.array(np.asarray(values, "float64"), pa.float64())}
        for k in LABELS:
            v = labels.get(k)
            cols[k] = pa.nulls(n, pa.string()) if v is None else pa.array([v] * n, pa.string())
        self.parts.setdefault(metric, []).append(pa.table(cols))

    def write(self, path):
        schema = pa.schema([("timestamp", pa.timestamp("ms", tz="UTC")), ("metric", pa.string()),
                            ("value", pa.float64())] + [(k, pa.string()) for k in LABELS])
        with pq.ParquetWriter(path, schema, compression="zstd", compression_level=9) as w:
            for metric in sorted(self.parts):
                t = pa.concat_tables(self.parts[metric]).sort_by([("timestamp", "ascending")])
                arrays = [t["timestamp"].cast(pa.timestamp("ms", tz="UTC")),
                          pa.array([metric] * t.num_rows, pa.string()), t["value"]]
                arrays += [t[k] for k in LABELS]
                w.write_table(pa.Table.from_arrays(arrays, schema=schema), row_group_size=1 << 30)


def scrape_times(interval, offset):
    n = int((WIN1 - WIN0) // interval)
    base = WIN0 + offset + interval * np.arange(n)
    jitter = rng.integers(0, 40, n) / 1000.0
    return base + jitter


def counter_round(x, nd):
    return np.round(x, nd)


def ar1(n, phi, sigma):
    e = rng.normal(0, sigma, n)
    out = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc = phi * acc + e[i]
        out[i] = acc
    return out


def lag(x, dt_s, tau):
    a = 1 - math.exp(-dt_s / tau)
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc += a * (v - acc)
        y[i] = acc
    return y


node_tab = Table()
dcgm_tab = Table()

host_boot = {h: WIN0 - rng.uniform(9, 27) * 86400 for h in HOSTS}
host_warm = {h: rng.normal(0, 1.6) for h in HOSTS}
host_warm["gpu-a017"] += 4.5      # a rack position that always runs warmer (benign, persistent)
host_warm["gpu-a004"] -= 2.0
gpu_uuid = {(h, g): "GPU-" + str(uuid.UUID(bytes=rng.bytes(16), version=4)) for h in HOSTS for g in range(GPN)}

# --- dcgm-exporter, 15 s ----------------------------------------------------------------
for hi, h in enumerate(HOSTS):
    off = (hi * 7.3) % 15
    ts = scrape_times(15, off)
    tms = (ts * 1000).astype("int64")
    busy = busy_fraction(ts - 15, ts)
    inst = f"{h}:9400"
    for g in range(GPN):
        lab = dict(instance=inst, job="dcgm-exporter", Hostname=h, gpu=str(g), UUID=gpu_uuid[(h, g)],
                   device=f"nvidia{g}", pci_bus_id=PCI[g], modelName=MODEL, DCGM_FI_DRIVER_VERSION=DRIVER)
        n = len(ts)
        p_off = rng.normal(0, 11)
        t_off = rng.normal(0, 2.6) + host_warm[h]
        util = np.where(busy > 0.02, busy * rng.uniform(96.5, 99.5, n), 0)
        util = np.clip(np.round(util + rng.normal(0, 0.6, n) * (busy > 0.02)), 0, 100)
        power = 61 + p_off * 0.1 + (296 + p_off) * busy + rng.normal(0, 7, n) * busy + rng.normal(0, 0.8, n)
        power = np.clip(power, 55, 400)
        temp_target = 31 + t_off * 0.6 + 0.085 * power + rng.normal(0, 0.25, n)
        temp = np.round(lag(temp_target, 15, 55))
        mtemp = np.round(lag(temp_target + 6 + rng.normal(0, 1.5) + 0.02 * power, 15, 80))
        capped = rng.random() < 0.2
        sm = np.where(busy > 0.3, 1410 - (rng.integers(0, 4, n) * 15 if capped else 0) - 15 * (power > 392), 210 + 1200 * busy)
        sm = np.round(np.clip(sm + 0, 210, 1410) / 15) * 15
        memclk = np.full(n, 1593.0)
        fb = np.full(n, float(int(73500 + rng.integers(-900, 900))))
        fb[busy == 0] = fb[busy == 0]  # job holds its memory through stalls
        energy0 = rng.uniform(2.0e11, 9.0e11)
        energy = energy0 + np.cumsum(power * 15 * 1000)
        tensor = np.round(np.clip(busy * rng.normal(0.43, 0.015, n), 0, 1), 6)
        gr = np.round(np.clip(busy * rng.normal(0.965, 0.01, n), 0, 1), 6)
        dram = np.round(np.clip(busy * rng.normal(0.36, 0.02, n), 0, 1), 6)
        pcie_rx = np.round(np.clip(busy * rng.normal(7.9e9, 4e8, n) + rng.normal(2e7, 5e6, n), 0, None))
        pcie_tx = np.round(np.clip(busy * rng.normal(7.6e9, 4e8, n) + rng.normal(1.5e7, 4e6, n), 0, None))
        nvl0 = rng.uniform(1e12, 8e12)
        nvl = nvl0 + np.cumsum(busy * 15 * rng.normal(2.4e7, 6e5, n))
        replay = np.full(n, float(rng.choice([0, 0, 0, 0, 0, 0, 1, 3])))
        dcgm_tab.add("DCGM_FI_DEV_GPU_UTIL", tms, util, **lab)
        dcgm_tab.add("DCGM_FI_DEV_POWER_USAGE", tms, np.round(power, 3), **lab)
        dcgm_tab.add("DCGM_FI_DEV_GPU_TEMP", tms, temp, **lab)
        dcgm_tab.add("DCGM_FI_DEV_MEMORY_TEMP", tms, mtemp, **lab)
        dcgm_tab.add("DCGM_FI_DEV_SM_CLOCK", tms, sm, **lab)
        dcgm_tab.add("DCGM_FI_DEV_MEM_CLOCK", tms, memclk, **lab)
        dcgm_tab.add("DCGM_FI_DEV_FB_USED", tms, fb, **lab)
        dcgm_tab.add("DCGM_FI_DEV_FB_FREE", tms, 81920 - 556 - fb, **lab)
        dcgm_tab.add("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", tms, np.round(energy), **lab)
        dcgm_tab.add("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", tms, replay, **lab)
        dcgm_tab.add("DCGM_FI_DEV_XID_ERRORS", tms, np.zeros(n), **lab)
        dcgm_tab.add("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", tms, np.round(nvl), **lab)
        dcgm_tab.add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", tms, gr, **lab)
        dcgm_tab.add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tms, tensor, **lab)
        dcgm_tab.add("DCGM_FI_PROF_DRAM_ACTIVE", tms, dram, **lab)
        dcgm_tab.add("DCGM_FI_PROF_PCIE_RX_BYTES", tms, pcie_rx, **lab)
        dcgm_tab.add("DCGM_FI_PROF_PCIE_TX_BYTES", tms, pcie_tx, **lab)
    dcgm_tab.add("up", tms, np.ones(len(ts)), instance=inst, job="dcgm-exporter")

# --- node_exporter, 30 s ----------------------------------------------------------------
MAIN_CPUS = [0, 4, 8, 12, 32, 36, 40, 44]            # one per rank, pinned by --cpu-bind
LOADER_CPUS = [c + d for c in MAIN_CPUS for d in (1, 2, 3)]
for hi, h in enumerate(HOSTS):
    off = (hi * 3.7 + 11) % 30
    ts = scrape_times(30, off)
    tms = (ts * 1000).astype("int64")
    n = len(ts)
    inst = f"{h}:9100"
    job = "node"
    up_s = ts - host_boot[h]
    busy = busy_fraction(ts - 30, ts)
    stall = stall_pressure(ts - 30, ts)
    ck = ckpt_write(ts - 30, ts)
    # ---- CPU (per cpu, idle/iowait/system/user)
    for c in range(NCPU):
        if c in MAIN_CPUS:
            u, s, w = 0.93, 0.05, 0.0008
        elif c in LOADER_CPUS:
            u, s, w = 0.21, 0.035, 0.004
        else:
            u, s, w = 0.012, 0.008, 0.0004
        ru = u * (0.35 + 0.65 * busy) + rng.normal(0, 0.01, n) * (u > 0.1)
        if c in LOADER_CPUS:
            rw = w + 0.42 * stall * rng.uniform(0.5, 1.3, n) + 0.05 * ck
            ru = ru + 0.05 * ck
        elif c in MAIN_CPUS:
            rw = w + 0.02 * stall
        else:
            rw = w + 0.01 * stall * rng.random(n)
        rs = s * (0.6 + 0.4 * busy) + 0.02 * stall * (c in LOADER_CPUS) + rng.normal(0, 0.002, n)
        ru, rs, rw = np.clip(ru, 0, 1), np.clip(rs, 0, 1), np.clip(rw, 0, 1)
        ri = np.clip(1 - ru - rs - rw - 0.004, 0, 1)
        base = up_s[0] - 30
        frac0 = dict(user=u * 0.8, system=s, iowait=w * 1.4, idle=1 - u * 0.8 - s - w * 1.4 - 0.004)
        for mode, r in (("idle", ri), ("iowait", rw), ("system", rs), ("user", ru)):
            v = base * frac0[mode] + np.cumsum(r * 30)
            node_tab.add("node_cpu_seconds_total", tms, counter_round(v, 2), instance=inst, job=job,
                         cpu=str(c), mode=mode)
    # ---- load, blocked procs, pressure (5 s ticks for the load averages)
    tt = np.arange(ts[0] - 1800, ts[-1] + 1, 5.0)
    st5 = stall_pressure(tt - 5, tt)
    bz5 = busy_fraction(tt - 5, tt)
    runnable = 8 + 2.5 * bz5 + rng.poisson(1.2, len(tt))
    dstate = rng.binomial(24, np.clip(st5 * 0.85, 0, 1)) + rng.binomial(2, 0.05, len(tt))
    active = runnable + dstate
    loads = {}
    for name, tau in (("node_load1", 60), ("node_load5", 300), ("node_load15", 900)):
        e = math.exp(-5 / tau)
        acc = 10.5
        arr = np.empty(len(tt))
        for i, a in enumerate(active):
            acc = acc * e + a * (1 - e)
            arr[i] = acc
        loads[name] = np.interp(ts, tt, arr)
        node_tab.add(name, tms, np.round(loads[name], 2), instance=inst, job=job)
    node_tab.add("node_procs_blocked", tms, np.round(np.interp(ts, tt, dstate)), instance=inst, job=job)
    node_tab.add("node_procs_running", tms, np.round(np.interp(ts, tt, runnable)), instance=inst, job=job)
    io_wait_rate = 0.0025 + 0.55 * stall + 0.15 * ck + np.abs(rng.normal(0, 0.001, n))
    io_full_rate = 0.0003 + 0.04 * stall + 0.01 * ck
    cpu_wait_rate = 0.015 + np.abs(rng.normal(0, 0.004, n))
    node_tab.add("node_pressure_io_waiting_seconds_total", tms,
                 np.round(up_s[0] * 0.004 + np.cumsum(io_wait_rate * 30), 6), instance=inst, job=job)
    node_tab.add("node_pressure_io_stalled_seconds_total", tms,
                 np.round(up_s[0] * 0.0005 + np.cumsum(io_full_rate * 30), 6), instance=inst, job=job)
    node_tab.add("node_pressure_cpu_waiting_seconds_total", tms,
                 np.round(up_s[0] * 0.015 + np.cumsum(cpu_wait_rate * 30), 6), instance=inst, job=job)
    # ---- memory
    mem_total = 1081950093312.0
    avail = mem_total * 0.71 + ar1(n, 0.97, 1.5e8) - 2.2e9 * ck
    node_tab.add("node_memory_MemTotal_bytes", tms, np.full(n, mem_total), instance=inst, job=job)
    node_tab.add("node_memory_MemAvailable_bytes", tms, np.round(avail), instance=inst, job=job)
    # ---- local NVMe disks (not on the data path)
    for dev, rr, wr in (("nvme0n1", 0.6, 9.0), ("nvme1n1", 0.2, 1.5)):
        rd_ops = rr * (1 + 0.3 * rng.random(n))
        wr_ops = wr * (1 + 0.4 * rng.random(n))
        r_lat = 0.00011 * (1 + 0.2 * rng.random(n))
        w_lat = 0.00003 * (1 + 0.2 * rng.random(n))
        base_r, base_w = up_s[0] * rr, up_s[0] * wr
        rd = np.floor(base_r + np.cumsum(rd_ops * 30))
        wrc = np.floor(base_w + np.cumsum(wr_ops * 30))
        node_tab.add("node_disk_reads_completed_total", tms, rd, instance=inst, job=job, device=dev)
        node_tab.add("node_disk_writes_completed_total", tms, wrc, instance=inst, job=job, device=dev)
        node_tab.add("node_disk_read_time_seconds_total", tms,
                     np.round(base_r * 0.00011 + np.cumsum(rd_ops * 30 * r_lat), 3), instance=inst, job=job, device=dev)
        node_tab.add("node_disk_write_time_seconds_total", tms,
                     np.round(base_w * 0.00003 + np.cumsum(wr_ops * 30 * w_lat), 3), instance=inst, job=job, device=dev)
        node_tab.add("node_disk_read_bytes_total", tms, np.floor(rd * 28672), instance=inst, job=job, device=dev)
        node_tab.add("node_disk_written_bytes_total", tms, np.floor(wrc * 12288), instance=inst, job=job, device=dev)
        node_tab.add("node_disk_io_time_seconds_total", tms,
                     np.round(up_s[0] * 0.002 + np.cumsum((rd_ops * r_lat + wr_ops * w_lat) * 30 * 1.1), 3),
                     instance=inst, job=job, device=dev)
    for mp, dev, fst, size, used in (("/", "/dev/md0", "ext4", 1.87e12, 0.31), ("/local", "/dev/nvme1n1", "xfs", 6.4e12, 0.12)):
        av = size * (1 - used) - np.cumsum(rng.uniform(0, 2e5, n))
        node_tab.add("node_filesystem_avail_bytes", tms, np.round(av), instance=inst, job=job, device=dev,
                     mountpoint=mp, fstype=fst)
        node_tab.add("node_filesystem_size_bytes", tms, np.full(n, size), instance=inst, job=job, device=dev,
                     mountpoint=mp, fstype=fst)
    # ---- ethernet management + IPoIB
    for dev, rx, tx in (("eno1", 2.1e5, 3.9e5), ("ib0", 4.0e3, 3.5e3)):
        for name, r in (("node_network_receive_bytes_total", rx), ("node_network_transmit_bytes_total", tx)):
            v = up_s[0] * r + np.cumsum(r * 30 * rng.uniform(0.7, 1.3, n))
            node_tab.add(name, tms, np.floor(v), instance=inst, job=job, device=dev)
    # ---- InfiniBand: mlx5_0..7 compute rails (gradient all-reduce), mlx5_8 storage rail (Lustre)
    for k in range(9):
        dev = f"mlx5_{k}"
        if k < 8:
            r = busy * 1.58e9 * rng.uniform(0.97, 1.03, n)
            rx_rate, tx_rate = r, r * rng.uniform(0.995, 1.005, n)
            base = up_s[0] * 9.0e8
        else:
            read = (7.6e5 * busy * (1 - 0.5 * stall)) + 2.0e4 + 2.0e5 * ck
            rx_rate = read * rng.uniform(0.6, 1.4, n)
            tx_rate = 3.0e4 * rng.uniform(0.6, 1.4, n) + ck * (7.6e9 / 30)
            base = up_s[0] * 4.0e6
        for name, r in (("node_infiniband_port_data_received_bytes_total", rx_rate),
                        ("node_infiniband_port_data_transmitted_bytes_total", tx_rate)):
            v = base + np.cumsum(r * 30)
            node_tab.add(name, tms, np.floor(v), instance=inst, job=job, device=dev, port="1")
        node_tab.add("node_infiniband_link_downed_total", tms, np.zeros(n), instance=inst, job=job, device=dev, port="1")
    node_tab.add("node_boot_time_seconds", tms, np.full(n, float(int(host_boot[h]))), instance=inst, job=job)
    node_tab.add("node_uname_info", tms, np.ones(n), instance=inst, job=job, nodename=h, release="5.15.0-122-generic",
                 machine="x86_64", sysname="Linux", version="#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024",
                 domainname="(none)")
    node_tab.add("up", tms, np.ones(n), instance=inst, job=job)


# --------------------------------------------------------------------------------------
# 3. logs
# --------------------------------------------------------------------------------------
def syslog_ts(t):
    d = iso(t)
    return f"{d.strftime('%b')} {d.day:2d} {d.strftime('%H:%M:%S')}"


def ensure(p):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


# ---- 3a. the job's output (Megatron-LM behind srun --label) ------------------------------
def megatron_log():
    L = []

    def at(t, rank, text):
        for line in text.split("\n"):
            L.append((t, f"{rank}: {line}" if rank is not None else line))

    t = JOB_START
    at(t, None, "+ export CUDA_DEVICE_MAX_CONNECTIONS=1")
    at(t, None, "+ export NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7")
    at(t, None, f"+ srun --label --cpu-bind=verbose,map_cpu:0,4,8,12,32,36,40,44 python pretrain_gpt.py --tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 --num-layers 40 --hidden-size 5120 --num-attention-heads 40 --seq-length {SEQ} --max-position-embeddings {SEQ} --micro-batch-size 4 --global-batch-size {GBS} --train-iters 250000 --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --bf16 --use-distributed-optimizer --data-path /lustre/scratch/proj-llm/data/mix-v7_text_document --save {CKPT_DIR} --load {CKPT_DIR} --save-interval {SAVE_INTERVAL} --log-interval 1 --timing-log-level 1 --num-workers 2")
    t += 31
    at(t, 0, "using world size: 192, data-parallel size: 96, context-parallel size: 1, tensor-model-parallel size: 2, pipeline-model-parallel size: 1 ")
    at(t, 0, "using torch.bfloat16 for parameters ...")
    at(t, 0, "------------------------ arguments ------------------------")
    args = [("accumulate_allreduce_grads_in_fp32", "True"), ("adam_beta1", "0.9"), ("adam_beta2", "0.95"),
            ("bf16", "True"), ("clip_grad", "1.0"), ("data_path", "['/lustre/scratch/proj-llm/data/mix-v7_text_document']"),
            ("data_parallel_size", "96"), ("global_batch_size", str(GBS)), ("hidden_size", "5120"),
            ("load", CKPT_DIR), ("log_interval", "1"), ("lr", "0.0003"), ("lr_decay_style", "cosine"),
            ("micro_batch_size", "4"), ("min_lr", "3e-05"), ("num_attention_heads", "40"), ("num_layers", "40"),
            ("num_workers", "2"), ("pipeline_model_parallel_size", "1"), ("save", CKPT_DIR),
            ("save_interval", str(SAVE_INTERVAL)), ("seq_length", str(SEQ)), ("tensor_model_parallel_size", "2"),
            ("timing_log_level", "1"), ("train_iters", "250000"), ("use_distributed_optimizer", "True"),
            ("world_size", "192")]
    for k, v in args:
        at(t, 0, f"  {k} {'.' * (48 - len(k))} {v}")
    at(t, 0, "-------------------- end of arguments ---------------------")
    t += 24
    at(t, 0, "> initializing torch distributed ...")
    at(t + 2, 0, "NCCL version 2.21.5+cuda12.4")
    at(t + 9, 0, "> initialized tensor model parallel with size 2")
    at(t + 9, 0, "> initialized pipeline model parallel with size 1")
    at(t + 40, 0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6528413696")
    at(t + 41, 1, " > number of parameters on (tensor, pipeline) model parallel rank (1, 0): 6528413696")
    at(t + 60, 0, f" loading checkpoint from {CKPT_DIR} at iteration {ITER0}")
    at(t + 251, 0, f"  successfully loaded checkpoint from {CKPT_DIR} [ t 0, p 0 ] at iteration {ITER0}")
    at(t + 255, 0, "> building train, validation, and test datasets ...")
    at(t + 256, 0, " > datasets target sizes (minimum size):")
    at(t + 256, 0, f"    train:      {250000 * GBS}")
    at(t + 275, 0, "> finished creating GPT datasets ...")
    at(TRAIN_START - 1, 0, "training ...")
    at(TRAIN_START, 0, f"[before the start of training step] datetime: {iso(TRAIN_START).strftime('%Y-%m-%d %H:%M:%S')} ")
    last = NGPU - 1
    lr0 = 2.71e-4
    save_by_it = {s["it"]: s for s in SAVES}
    for x in ITS:
        if x["end"] > LOGS_TO:
            break
        it = x["it"]
        el = x["wait"] + x["comp"]
        tput = FLOPS_PER_ITER / (el * NGPU) / 1e12
        lr = 3e-5 + (lr0 - 3e-5) * (0.5 * (1 + math.cos(math.pi * (it - 9000) / 241000)))
        loss = 2.03 + 0.55 * math.exp(-it / 9000) + rng.normal(0, 0.018)
        gn = abs(rng.normal(0.21, 0.025)) + (rng.random() < 0.01) * rng.uniform(0.2, 0.6)
        stamp = iso(x["end"]).strftime("%Y-%m-%d %H:%M:%S")
        line = (f" [{stamp}] iteration {it:8d}/  250000 | consumed samples: {it * GBS:12d} | "
                f"elapsed time per iteration (ms): {el * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): {tput:.1f} | "
                f"learning rate: {lr:.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | "
                f"loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | "
                f"number of nan iterations:   0 |")
        at(x["end"], last, line)
        fb = x["comp"] * 1000 - 385
        bg_max = x["wait"] * 1000 + rng.uniform(4, 30)
        bg_min = rng.uniform(1.6, 4.5)
        timers = [("forward-backward", fb - rng.uniform(0.5, 3), fb),
                  ("forward-compute", fb * 0.318, fb * 0.322),
                  ("backward-compute", fb * 0.655, fb * 0.661),
                  ("batch-generator", bg_min, bg_max),
                  ("layernorm-grads-all-reduce", 0.01, 0.03),
                  ("embedding-grads-all-reduce", 0.02, 0.05),
                  ("all-grads-sync", 102.1 + rng.normal(0, 2), 131.0 + rng.normal(0, 3)),
                  ("params-all-gather", 88.0 + rng.normal(0, 2), 97.2 + rng.normal(0, 2)),
                  ("optimizer-copy-to-main-grad", 3.1, 3.9),
                  ("optimizer-clip-main-grad", 9.8, 11.2),
                  ("optimizer-count-zeros", 0.0, 0.0),
                  ("optimizer-inner-step", 161.0 + rng.normal(0, 2), 166.0 + rng.normal(0, 2)),
                  ("optimizer-copy-main-to-model-params", 12.0, 13.1),
                  ("optimizer", 281.4 + rng.normal(0, 2), 282.0 + rng.normal(0, 2))]
        txt = "(min, max) time across ranks (ms):"
        for name, a, b in timers:
            txt += "\n    {}: ({:.2f}, {:.2f})".format((name + " ").ljust(48, "."), a, max(a, b))
        at(x["end"], last, txt)
        if it in save_by_it:
            s = save_by_it[it]
            at(s["start"] + 0.3, 0, f"saving checkpoint at iteration {it:7d} to {CKPT_DIR} in torch_dist format")
            at(s["start"] + s["dur"], 0, f"  successfully saved checkpoint from iteration {it:7d} to {CKPT_DIR} [ t 1/2, p 1/1 ]")
            at(s["start"] + s["dur"] + 0.5, last, "(min, max) time across ranks (ms):\n    {}: ({:.2f}, {:.2f})".format(
                "save-checkpoint ".ljust(48, "."), s["dur"] * 1000 - rng.uniform(5, 40), s["dur"] * 1000))
    L.sort(key=lambda z: z[0])
    p = ensure(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"))
    with open(p, "w") as f:
        for _, line in L:
            f.write(line + "\n")


# ---- 3b. client kernel logs (Ubuntu kern.log, rsyslog with the kernel's [uptime]) ---------
SRC_DIAS = "gmagklaras/lustre-hpc-test-setup:doc/simulate-an-OST-OSS-failure.md"


def lustre_lines_for_host(h, osc):
    """(t, message) kernel messages: Lustre client reactions to the slow OSS."""
    out = []
    ost_of = lambda: OSTS_BAD[int(rng.integers(0, 4))]

    def ping_timeout(t, ost):
        sent = int(t) - 7
        out.append((t, "Lustre: 3389:0:(client.c:2295:ptlrpc_expire_one_request()) @@@ Request sent has timed out "
                       f"for slow reply: [sent {sent}/real {sent}]  req@0000000044314f25 x1778912219544448/t0(0) "
                       f"o400->{FS}-{ost}-osc-{osc}@{NID_BAD}:28/4 lens 224/224 e 0 to 1 dl {sent + 7} ref 1 fl "
                       "Rpc:XNQr/0/ffffffff rc 0/-1 job:''"))
        out.append((t + 0.00003, f"Lustre: {FS}-{ost}-osc-{osc}: Connection to {FS}-{ost} (at {NID_BAD}) was lost; "
                                 "in progress operations using this service will wait for recovery to complete"))

    def restored(t, ost, nid):
        out.append((t, f"Lustre: {FS}-{ost}-osc-{osc}: Connection restored to {FS}-{ost} (at {nid})"))

    # while the controller hangs, most clients time out pinging one of the OSTs
    if rng.random() < 0.8:
        t = FAULT + rng.uniform(35, 140)
        ost = ost_of()
        ping_timeout(t, ost)
        if rng.random() < 0.4:
            out.append((t + 0.2, "Lustre: Skipped 1 previous similar message"))
        restored(RESET + rng.uniform(2, 25), ost, NID_BAD)
    # the slow weeks' worth of minutes: a few more episodes per client
    for _ in range(int(rng.integers(1, 4))):
        t = rng.uniform(RESET + 120, FAILOVER0 - 60)
        ost = ost_of()
        ping_timeout(t, ost)
        if rng.random() < 0.3:
            out.append((t + 0.1, "Lustre: Skipped 3 previous similar messages"))
        restored(t + rng.uniform(3, 40), ost, NID_BAD)
    # failover: OSTs unmounted on scratch-oss05, mounted and recovered on scratch-oss06
    first = True
    for k, ost in enumerate(OSTS_BAD):
        t = FAILOVER0 + 4 + 6 * k + rng.uniform(0, 8)
        if first:
            out.append((t, f"LustreError: 11-0: {FS}-{ost}-osc-{osc}: operation ost_read to node {NID_BAD} failed: rc = -19"))
            first = False
        out.append((t + 0.0001, f"Lustre: {FS}-{ost}-osc-{osc}: Connection to {FS}-{ost} (at {NID_BAD}) was lost; "
                                "in progress operations using this service will wait for recovery to complete"))
        if k == 1:
            out.append((t + 0.0002, "Lustre: Skipped 1 previous similar message"))
    for k, ost in enumerate(OSTS_BAD):
        over = FAILOVER1 - 20 + 6 * k          # 'Recovery over' on scratch-oss06
        restored(FAILOVER0 + 14 + 1.3 * k + rng.uniform(2, over - FAILOVER0 - 18 - 1.3 * k), ost, NID_PARTNER)
    return out


def benign_kernel_lines(h, t0, t1):
    out = []
    # ufw blocks (IGMP queries from the switch, mDNS from a lab subnet) - frequent
    t = t0 + rng.uniform(0, 200)
    mac = "01:00:5e:00:00:01:0c:42:a1:3f:5e:10:08:00"
    while t < t1:
        if rng.random() < 0.75:
            out.append((t, f"[UFW BLOCK] IN=eno1 OUT= MAC={mac} SRC=10.20.0.1 DST=224.0.0.1 LEN=32 TOS=0x00 "
                           f"PREC=0xC0 TTL=1 ID=0 DF PROTO=2 "))
        else:
            sport = int(rng.integers(32768, 60999))
            out.append((t, f"[UFW BLOCK] IN=eno1 OUT= MAC=ff:ff:ff:ff:ff:ff:3c:ec:ef:1a:22:7b:08:00 SRC=10.20.0.{int(rng.integers(30, 60))} "
                           f"DST=10.20.255.255 LEN=78 TOS=0x00 PREC=0x00 TTL=64 ID={int(rng.integers(1, 65535))} DF PROTO=UDP "
                           f"SPT={sport} DPT=137 LEN=58 "))
        t += rng.exponential(260)
    # perf sample-rate throttling, a classic on busy hosts
    for k in range(int(rng.integers(0, 3))):
        a = 2500 + int(rng.integers(3, 900))
        out.append((rng.uniform(t0, t1), f"perf: interrupt took too long ({a} > {a - int(rng.integers(1, 30))}), "
                                         f"lowering kernel.perf_event_max_sample_rate to {int(rng.integers(40, 79)) * 1000 + 750}"))
    # systemd's hourly apt/snap housekeeping triggers an audit line now and then
    for k in range(int(rng.integers(1, 4))):
        tt = rng.uniform(t0, t1)
        out.append((tt, f'audit: type=1400 audit({tt:.3f}:{int(rng.integers(200, 900))}): apparmor="STATUS" '
                        'operation="profile_replace" info="same as current profile, skipping" profile="unconfined" '
                        f'name="snap-update-ns.lxd" pid={int(rng.integers(100000, 400000))} comm="apparmor_parser"'))
    return out


def write_client_kernlogs():
    for hi, h in enumerate(HOSTS):
        osc = "ffff9" + rng.bytes(4).hex() + "000"
        lines = benign_kernel_lines(h, LOGS_FROM, LOGS_TO) + lustre_lines_for_host(h, osc)
        lines.sort(key=lambda z: z[0])
        boot = host_boot[h]
        p = ensure(os.path.join(OUT, "logs", h, "kern.log"))
        with open(p, "w") as f:
            for t, msg in lines:
                up = t - boot
                f.write(f"{syslog_ts(t)} {h} kernel: [{up:12.6f}] {msg}\n")


# ---- 3c. the storage servers' /var/log/messages (CentOS 7 rsyslog, no uptime) ------------
def write_oss_logs():
    raid_pci = "0000:5e:00.0"
    L = []

    def k(t, msg, host=OSS_BAD):
        L.append((t, host, f"kernel: {msg}"))

    def d(t, prog, msg, host=OSS_BAD):
        L.append((t, host, f"{prog}: {msg}"))

    # benign background on both servers
    for host in (OSS_BAD, OSS_PARTNER):
        t = LOGS_FROM + rng.uniform(0, 600)
        sess = int(rng.integers(20000, 40000))
        while t < LOGS_TO:
            r = rng.random()
            if r < 0.45:
                d(t, "systemd[1]", f"Started Session {sess} of user root.", host)
                d(t + 0.01, "systemd-logind[1702]", f"New session {sess} of user root.", host)
                d(t + 1.9, "systemd-logind[1702]", f"Removed session {sess}.", host)
                sess += 1
            elif r < 0.7:
                d(t, "chronyd[1688]", f"Selected source 10.60.0.{int(rng.integers(1, 3))}", host)
            elif r < 0.85:
                d(t, "systemd[1]", "Starting Cleanup of Temporary Directories...", host)
                d(t + 0.2, "systemd[1]", "Started Cleanup of Temporary Directories.", host)
            else:
                d(t, "systemd[1]", "Started Hostname Service.", host)
            t += rng.exponential(900)
    # --- the fault on scratch-oss05
    k(FAULT + 121.9, "INFO: task jbd2/dm-0-8:356 blocked for more than 120 seconds.")
    seq = [
        "megaraid_sas {p}: NVMe passthru support\t: No",
        "megaraid_sas {p}: FW provided TM TaskAbort/Reset timeout\t: 0 secs/0 secs",
        "megaraid_sas {p}: JBOD sequence map support\t: No",
        "megaraid_sas {p}: PCI Lane Margining support\t: No",
        "megaraid_sas {p}: JBOD sequence map is disabled megasas_setup_jbod_map 5680",
        "megaraid_sas {p}: megasas_enable_intr_fusion is called outbound_intr_mask:0x40000000",
        "megaraid_sas {p}: Adapter is OPERATIONAL for scsi:0",
        "megaraid_sas {p}: Reset successful for scsi0.",
        "megaraid_sas {p}: 9249 (2s/0x0020/CRIT) - Controller encountered a fatal error and was reset",
        "megaraid_sas {p}: 9253 (4s/0x0020/FATAL) - Controller cache discarded due to memory/battery problems",
    ]
    for i, s in enumerate(seq):
        k(RESET + 0.00002 * i + (0.03 if i >= 4 else 0), s.format(p=raid_pci))
    trace = [
        "Lustre: ll_ost_io04_080: service thread pid 55122 was inactive for 80.284 seconds. The thread might be hung, or it might only be slow and will resume later. Dumping the stack trace for debugging purposes:",
        "Pid: 55212, comm: ll_ost_io05_074 4.18.0-305.10.2.x6.1.010.19.x86_64 #1 SMP Thu Jun 30 13:42:51 MDT 2022",
        "Lustre: Skipped 2 previous similar messages",
        "Call Trace TBD:",
        "[<0>] wait_transaction_locked+0x89/0xc0 [jbd2]",
        "[<0>] add_transaction_credits+0xd4/0x290 [jbd2]",
        "[<0>] start_this_handle+0x10a/0x520 [jbd2]",
        "[<0>] jbd2__journal_start+0xea/0x1f0 [jbd2]",
        "[<0>] __ldiskfs_journal_start_sb+0x6e/0x130 [ldiskfs]",
        "[<0>] osd_trans_start+0x13b/0x4f0 [osd_ldiskfs]",
        "[<0>] ofd_commitrw_write+0x620/0x1830 [ofd]",
        "[<0>] ofd_commitrw+0x731/0xd80 [ofd]",
        "[<0>] obd_commitrw+0x1ac/0x370 [ptlrpc]",
        "[<0>] tgt_brw_write+0x1913/0x1d50 [ptlrpc]",
        "[<0>] tgt_request_handle+0xc93/0x1a40 [ptlrpc]",
        "[<0>] ptlrpc_server_handle_request+0x323/0xbd0 [ptlrpc]",
        "[<0>] ptlrpc_main+0xc06/0x1560 [ptlrpc]",
        "[<0>] kthread+0x116/0x130",
        "[<0>] ret_from_fork+0x1f/0x40",
    ]
    for tt in (FAULT + 81.0, RESET + 1540.0, RESET + 2950.0):
        for i, s in enumerate(trace):
            k(tt + 0.00004 * i, s)
    # --- the failover, driven by pacemaker (CentOS 7, pacemaker 1.1)
    t = FAILOVER0
    d(t, "crmd[14999]", "  notice: do_state_transition: State transition S_IDLE -> S_POLICY_ENGINE [ input=I_PE_CALC cause=C_FSA_INTERNAL origin=abort_transition_graph ]")
    res = ["ost16", "ost17", "ost18", "ost19"]
    for r in res:
        d(t + 0.4, "pengine[3549]", f"  notice: LogActions: Move    {r}#011(Started {OSS_BAD} -> {OSS_PARTNER})")
    d(t + 0.4, "pengine[3549]", "  notice: process_pe_message: Calculated Transition 28: /var/lib/pacemaker/pengine/pe-input-152.bz2")
    acts = [87, 104, 121, 138]
    pids = [8132, 8133, 8134, 8135]
    for r, a in zip(res, acts):
        d(t + 0.5, "crmd[14999]", f"  notice: te_rsc_command: Initiating action {a}: stop {r}_stop_0 on {OSS_BAD} (local)")
    for j, (r, pid, ost) in enumerate(zip(res, pids, OSTS_BAD)):
        idx = int(r[3:])
        d(t + 0.6 + j * 0.01, f"Filesystem({r})[{pid}]", f"INFO: Running stop for /dev/mapper/{r} on /srv/lustre/ost/{idx}")
        d(t + 0.7 + j * 0.01, f"Filesystem({r})[{pid}]", f"INFO: Trying to unmount /srv/lustre/ost/{idx}")
        k(t + 0.8 + j * 0.01, f"Lustre: Failing over {FS}-{ost}")
        k(t + 4.2 + j * 0.5, f"Lustre: server umount {FS}-{ost} complete")
        d(t + 4.3 + j * 0.5, f"Filesystem({r})[{pid}]", f"INFO: unmounted /srv/lustre/ost/{idx} successfully")
        d(t + 4.4 + j * 0.5, "crmd[14999]", f"  notice: process_lrm_event: Operation {r}_stop_0: ok (node={OSS_BAD}, call={1116 + 2 * j}, rc=0, cib-update={607 + j}, confirmed=true)")
        d(t + 4.5 + j * 0.5, "crmd[14999]", f"  notice: te_rsc_command: Initiating action {139 + j}: start {r}_start_0 on {OSS_PARTNER}")
    # scratch-oss06 mounts the targets and runs recovery
    nclients = 212
    for j, ost in enumerate(OSTS_BAD):
        tt = t + 9 + j * 1.3
        k(tt, f"Lustre: {FS}-{ost}: Imperative Recovery enabled, recovery window shrunk from 300-900 down to 150-900", OSS_PARTNER)
        k(tt + 3.8, f"Lustre: {FS}-{ost}: Will be in recovery for at least 2:30, or until {nclients} clients reconnect", OSS_PARTNER)
        over = FAILOVER1 - 20 + j * 6
        mm, ss = divmod(int(over - (tt + 3.8)), 60)
        k(over, f"Lustre: {FS}-{ost}: Recovery over after {mm}:{ss:02d}, of {nclients} clients {nclients} recovered and 0 were evicted.", OSS_PARTNER)
    L.sort(key=lambda z: z[0])
    for host in (OSS_BAD, OSS_PARTNER):
        p = ensure(os.path.join(OUT, "logs", host, "messages"))
        with open(p, "w") as f:
            for tt, hh, msg in L:
                if hh == host:
                    f.write(f"{syslog_ts(tt)} {hh} {msg}\n")


# --------------------------------------------------------------------------------------
# 4. incident.yaml, truth.yaml
# --------------------------------------------------------------------------------------
def achieved_throughput(a, b):
    toks = 0.0
    for x in ITS:
        if a <= x["end"] < b:
            toks += GBS * SEQ
    return toks / (b - a)


def write_yaml():
    inc = {
        "id": IID,
        "title": "GPT-13B pretraining (job 7713519): throughput dip and repeated stalls, morning of 2025-04-09",
        "window": {"start": "2025-04-09T06:00:00+00:00", "end": "2025-04-09T09:00:00+00:00"},
        "baseline": {"start": "2025-04-09T06:00:00+00:00", "end": "2025-04-09T07:00:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "atlas-a100", "nodes": NH, "gpus_per_node": GPN, "gpu_model": "A100"},
        "signal_pack": "default",
        "trainer": {"seq_length": SEQ, "global_batch_size": GBS, "gpus": NGPU},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    base = achieved_throughput(T("2025-04-09T06:00:00"), T("2025-04-09T07:00:00"))
    # exclude the checkpoint save from the baseline rate so the comparison is like for like
    deg = achieved_throughput(FAULT, FAILOVER1 + 60)
    loss = round(100 * (1 - deg / base), 1)
    truth = {
        "id": IID,
        "cause": ("The RAID controller of Lustre object storage server scratch-oss05 (OST0010-OST0013 of file "
                  "system 'scratch') hung at 07:06, reset with its write cache discarded and then served I/O slowly, "
                  "so every client's reads from those OSTs stalled, the data loaders fell behind and the synchronous "
                  "job slowed until the OSTs were failed over to scratch-oss06 at 08:14-08:16."),
        "cause_metrics": ["node_cpu_seconds_total", "node_pressure_io_waiting_seconds_total",
                          "node_pressure_io_stalled_seconds_total", "node_procs_blocked", "node_load1"],
        "cause_metrics_note": ("the iowait mode of node_cpu_seconds_total, I/O pressure and blocked tasks rise on "
                               "all 24 clients at once; the storage server itself is not scraped. Effects: "
                               "DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_POWER_USAGE, DCGM_FI_PROF_GR_ENGINE_ACTIVE fall on "
                               "every GPU; node_infiniband_port_data_*_bytes_total of the compute rails fall with the "
                               "step rate"),
        "cause_log_evidence": [
            {"host": OSS_BAD, "file": "logs/scratch-oss05/messages",
             "text": f"kernel: megaraid_sas {'0000:5e:00.0'}: 9249 (2s/0x0020/CRIT) - Controller encountered a fatal error and was reset",
             "source": "Ubuntu Forums thread 'PERC H710 Adapter problem after latest update' (Server Platforms), post by volkswagner 2021-08-17, kern.log excerpt of host somers1; stored in the public code index as file id 56816690916",
             "adapted": "host name, timestamp, PCI address (0000:08:00.0 -> 0000:5e:00.0)"},
            {"host": OSS_BAD, "file": "logs/scratch-oss05/messages",
             "text": "kernel: megaraid_sas 0000:5e:00.0: 9253 (4s/0x0020/FATAL) - Controller cache discarded due to memory/battery problems",
             "source": "same Ubuntu Forums post (file id 56816690916); the reset sequence lines before it (NVMe passthru support ... Reset successful for scsi0.) are from the same excerpt",
             "adapted": "host name, timestamp, PCI address"},
            {"host": OSS_BAD, "file": "logs/scratch-oss05/messages",
             "text": "kernel: INFO: task jbd2/dm-0-8:356 blocked for more than 120 seconds.",
             "source": "same Ubuntu Forums post (file id 56816690916)", "adapted": "host name, timestamp"},
            {"host": OSS_BAD, "file": "logs/scratch-oss05/messages",
             "text": "kernel: Lustre: ll_ost_io04_080: service thread pid 55122 was inactive for 80.284 seconds. The thread might be hung, or it might only be slow and will resume later. Dumping the stack trace for debugging purposes:  (+ the 'Pid:'/'Call Trace TBD:'/[<0>] frames that follow it)",
             "source": "linux-ext4 mailing list, Alexey Lyahkov quoted in 'Re: [PATCH] jbd2: wake up journal waiters in FIFO order, not LIFO' (Ritesh Harjani, 2022-09-08), a Lustre OSS console log; stored in the public code index (linux-mailinglist-archives, file id 24834351280)",
             "adapted": "host name, timestamp (the same block is repeated three times)"},
            {"host": "all 24 job hosts", "file": "logs/gpu-a*/kern.log",
             "text": f"Lustre: 3389:0:(client.c:2295:ptlrpc_expire_one_request()) @@@ Request sent has timed out for slow reply: [sent S/real S]  req@0000000044314f25 x1778912219544448/t0(0) o400->{FS}-OST0011-osc-ffff9...@{NID_BAD}:28/4 lens 224/224 e 0 to 1 dl S+7 ref 1 fl Rpc:XNQr/0/ffffffff rc 0/-1 job:''",
             "source": f"github.com/{SRC_DIAS} (client dmesg during an OSS outage)",
             "adapted": "timestamps (kernel stamp and the sent/real/dl epoch seconds), server NID 192.168.14.178@tcp -> 10.60.0.25@o2ib, target DIAS-OST0002 -> scratch-OST00xx, the client's osc instance suffix per host; pid/req/xid kept verbatim"},
            {"host": "all 24 job hosts", "file": "logs/gpu-a*/kern.log",
             "text": f"Lustre: {FS}-OST0012-osc-ffff9...: Connection to {FS}-OST0012 (at {NID_BAD}) was lost; in progress operations using this service will wait for recovery to complete",
             "source": f"github.com/{SRC_DIAS}; same wording in github.com/eth-cscs/alps-gh200-reproducers:stuck-node-on-io/README.md (capstor dmesg -T)",
             "adapted": "target and NID, timestamp, osc instance"},
            {"host": "all 24 job hosts", "file": "logs/gpu-a*/kern.log",
             "text": f"Lustre: {FS}-OST0012-osc-ffff9...: Connection restored to {FS}-OST0012 (at {NID_PARTNER})",
             "source": "github.com/gc3-uzh-ch/schroedinger-lustre-ha:HA-tests.rst (OSS failover test, 'Lustre: lustre-OST001a-osc-MDT0000: Connection restored to lustre-OST001a (at 10.130.93.23@o2ib)')",
             "adapted": "obd name (osc-MDT0000 -> the client's osc instance), target, NID (the failover partner), timestamp"},
            {"host": "all 24 job hosts", "file": "logs/gpu-a*/kern.log",
             "text": f"LustreError: 11-0: {FS}-OST0010-osc-ffff9...: operation ost_read to node {NID_BAD} failed: rc = -19",
             "source": "FSx for Lustre throughput-change test notes (lustre-client 2.15.6 dmesg, 'LustreError: 11-0: zmuqnb4v-OST0002-osc-xxxx: operation ost_read to node <OST-IP>@tcp failed: rc = -19'); stored in the public code index as file id 57487501051",
             "adapted": "file system/target name, the masked osc instance and NID filled in, timestamp"},
            {"host": OSS_BAD, "file": "logs/scratch-oss05/messages",
             "text": "pengine[3549]:   notice: LogActions: Move    ost16#011(Started scratch-oss05 -> scratch-oss06)  / kernel: Lustre: Failing over scratch-OST0010 / kernel: Lustre: server umount scratch-OST0010 complete",
             "source": "github.com/gc3-uzh-ch/schroedinger-lustre-ha:HA-tests.rst (lustre-oss1 -> lustre-oss2 failover excerpt)",
             "adapted": "host names, resource and target names, timestamps"},
            {"host": OSS_PARTNER, "file": "logs/scratch-oss06/messages",
             "text": "kernel: Lustre: scratch-OST0010: Will be in recovery for at least 2:30, or until 212 clients reconnect / ... Recovery over after m:ss, of 212 clients 212 recovered and 0 were evicted.",
             "source": f"github.com/{SRC_DIAS} (oss1 dmesg after power-on)",
             "adapted": "target name, client count (2 -> 212), recovery duration, timestamps"},
        ],
        "hosts": [OSS_BAD],
        "gpu": None,
        "onset": iso(FAULT).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "end": iso(FAILOVER1).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_throughput_loss_pct": loss,
        "job_throughput_loss_note": ("tokens/s over 07:06:10-08:16:50 against 06:00-07:00 (both include one "
                                     "checkpoint save); the hang at 07:06-07:08 and the failover at 08:14-08:16 "
                                     "are full stops; in between each iteration is ~2-3% slower and ~2% of "
                                     "them stall 7-80 s waiting for data; the 07:40 checkpoint save took ~206 s "
                                     "instead of ~95 s"),
        "what_a_good_postmortem_says": (
            "All 24 job hosts slowed together from 07:06 to 08:16 UTC with no GPU, host or fabric fault on any of "
            "them: GPUs idled while the data loaders waited on I/O (iowait, blocked tasks and I/O pressure rose on "
            "every client, batch-generator time spiked), and every client logged Lustre ping timeouts and lost "
            "connections to scratch-OST0010-0013 at 10.60.0.25@o2ib, i.e. the single OSS scratch-oss05. "
            "That OSS's RAID controller hung and reset with its write cache discarded (megaraid_sas fatal error), "
            "leaving its disks slow, and throughput returned to normal as soon as the OSTs were failed over to "
            "scratch-oss06; the actions are the controller/BBU replacement, alerting on OSS controller events and "
            "client-side Lustre RPC latency, and faster failover."),
        "not_the_cause": ["gpu-a017 runs ~4-5 C warmer than its peers all day (rack position), unrelated",
                          "a few GPUs show a constant non-zero PCIe replay count, unchanged during the incident"],
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)
    return loss


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    node_tab.write(os.path.join(OUT, "metrics", "node_exporter.parquet"))
    dcgm_tab.write(os.path.join(OUT, "metrics", "dcgm_exporter.parquet"))
    megatron_log()
    write_client_kernlogs()
    write_oss_logs()
    loss = write_yaml()
    print(f"wrote {OUT}; throughput loss {loss}%")


if __name__ == "__main__":
    main()
