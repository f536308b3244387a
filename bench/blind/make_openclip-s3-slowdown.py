#!/usr/bin/env python3
"""Generate incident folder `openclip-s3-slowdown` (fixed seed).

Story: an OpenCLIP ViT-L/14 job (32 x p5.48xlarge, 8 x H100 each, 256 ranks, plain DDP,
srun --label, one task per GPU) streams LAION-style webdataset shards from S3 with
`pipe:aws s3 cp s3://... - || true`.  From 08:12:40Z to about 09:13:50Z the bucket
answers GetObject with 503 SlowDown; aws-cli gives up after its retries, the shard is
skipped, data-loader waits grow, every rank waits for the slowest loader and GPU
utilisation sags on all hosts in steps.  No host is at fault.

Writes:
  openclip-s3-slowdown/incident.yaml
  openclip-s3-slowdown/truth.yaml
  openclip-s3-slowdown/metrics/dcgm-exporter.parquet   (15 s scrapes, long format)
  openclip-s3-slowdown/metrics/node-exporter.parquet   (30 s scrapes, long format)
  openclip-s3-slowdown/logs/slurm-7781234.out           (srun --label trainer output)
  openclip-s3-slowdown/logs/dmesg/<host>.txt            (dmesg -T per host)
"""
import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 1201
rng = np.random.default_rng(SEED)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "openclip-s3-slowdown")
UTC = timezone.utc

WIN_START = datetime(2025, 9, 16, 6, 0, 0, tzinfo=UTC)
WIN_END = datetime(2025, 9, 16, 11, 0, 0, tzinfo=UTC)
BASE_END = datetime(2025, 9, 16, 8, 0, 0, tzinfo=UTC)
SIM_START = datetime(2025, 9, 16, 5, 40, 0, tzinfo=UTC)      # simulation origin (s = 0)
JOB_START = datetime(2025, 9, 16, 5, 41, 12, tzinfo=UTC)     # srun starts the 256 tasks
TRAIN_START = datetime(2025, 9, 16, 5, 44, 9, tzinfo=UTC)    # first training step
THR_START = datetime(2025, 9, 16, 8, 12, 40, tzinfo=UTC)
THR_END = datetime(2025, 9, 16, 9, 13, 50, tzinfo=UTC)

JOBID = 7781234
BUCKET_PREFIX = "s3://mlr-datasets-use2/laion2b-en-wds"
N_SHARDS = 231350

N_HOSTS = 32
GPUS = 8
WORLD = N_HOSTS * GPUS
BATCH = 256
GLOBAL_BATCH = BATCH * WORLD
NUM_BATCHES = 6103
SAMPLES_PER_EPOCH = NUM_BATCHES * GLOBAL_BATCH
TOTAL_EPOCHS = 32
WARMUP = 10000
BASE_LR = 1e-3
LOG_EVERY = 20
COMPUTE_S = 0.858        # compute time of one step when data is never late

MODEL_NAME = "NVIDIA H100 80GB HBM3"
DRIVER = "535.183.01"
PCI_IDS = ["00000000:53:00.0", "00000000:64:00.0", "00000000:75:00.0", "00000000:86:00.0",
           "00000000:97:00.0", "00000000:A8:00.0", "00000000:B9:00.0", "00000000:CA:00.0"]
FB_TOTAL = 81559

# ---------------------------------------------------------------- hosts
used = set()
HOSTS = []
while len(HOSTS) < N_HOSTS:
    a = int(rng.integers(32, 48))
    b = int(rng.integers(4, 252))
    if (a, b) in used:
        continue
    used.add((a, b))
    HOSTS.append({"ip": f"10.1.{a}.{b}", "name": f"ip-10-1-{a}-{b}"})
HOSTS.sort(key=lambda h: tuple(int(x) for x in h["ip"].split(".")))


def uuid():
    h = rng.integers(0, 16, 32)
    s = "".join("0123456789abcdef"[i] for i in h)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


for h in HOSTS:
    h["uuids"] = [uuid() for _ in range(GPUS)]
    h["boot"] = int((datetime(2025, 9, 4, tzinfo=UTC) + timedelta(seconds=int(rng.integers(0, 5 * 86400)))).timestamp())
    h["dcgm_phase"] = float(rng.uniform(0, 15))
    h["node_phase"] = float(rng.uniform(0, 30))

# ---------------------------------------------------------------- throttle profile
# step-wise severity: (minutes, efficiency of the input pipeline relative to compute)
SEGMENTS = [(4.0, 0.93), (6.5, 0.83), (3.0, 0.90), (7.5, 0.77), (5.0, 0.88), (8.0, 0.81),
            (4.0, 0.92), (6.0, 0.79), (5.5, 0.86), (6.0, 0.84), (5.67, 0.91)]
seg_edges = [THR_START]
for m, _ in SEGMENTS:
    seg_edges.append(seg_edges[-1] + timedelta(minutes=m))
assert abs((seg_edges[-1] - THR_END).total_seconds()) < 5, seg_edges[-1]


def sec(dt):
    return (dt - SIM_START).total_seconds()


THR_S0, THR_S1 = sec(THR_START), sec(THR_END)
SEG_S = [(sec(seg_edges[i]), sec(seg_edges[i + 1]), SEGMENTS[i][1]) for i in range(len(SEGMENTS))]


def efficiency(s):
    for a, b, f in SEG_S:
        if a <= s < b:
            return f
    return 1.0


# ---------------------------------------------------------------- step simulation
END_S = sec(WIN_END) + 30
RES = 0.01
busy = np.zeros(int(END_S / RES) + 10, dtype=np.float32)   # job-level busy flag at 10 ms
steps = []            # (epoch, i, t_start, t_end, data_time, batch_time)
epoch_marks = []      # (epoch, t_start_s)
t = sec(TRAIN_START)
epoch = 11
loss_level = 2.231
while t < END_S:
    epoch_marks.append((epoch, t))
    # first step of an epoch: new iterator, workers respawn, first shards opened
    for i in range(NUM_BATCHES):
        c = COMPUTE_S * (1 + rng.normal(0, 0.012))
        f = efficiency(t)
        if i == 0:
            wait = rng.uniform(7.5, 12.0)
        elif f < 1.0:
            # starved loader: the slowest of 256 ranks sets the pace; bursty
            mean_wait = c * (1.0 / f - 1.0)
            wait = max(0.0, rng.gamma(2.0, mean_wait / 2.0))
        else:
            wait = abs(rng.normal(0.004, 0.003))
            if rng.random() < 0.0015:           # ordinary hiccup: slow shard open somewhere
                wait += rng.uniform(0.3, 2.5)
        t0 = t
        t1 = t + wait + c
        a = int((t0 + wait) / RES)
        b = int(t1 / RES)
        if b > len(busy):
            break
        busy[a:b] = 1.0
        steps.append((epoch, i, t0, t1, wait, wait + c))
        t = t1
        if t >= END_S:
            break
    if t >= END_S:
        break
    # end of epoch: rank 0 writes epoch_N.pt while the others wait at the barrier
    t += rng.uniform(16, 24)
    epoch += 1

steps_arr = np.array([(s[2], s[3], s[4], s[5]) for s in steps])
print("steps simulated:", len(steps), "epochs:", [e for e, _ in epoch_marks])

# per-second busy fraction
per_sec = busy[: int(END_S)* 100].reshape(-1, 100).mean(axis=1)   # index s -> [s, s+1)
cum_busy = np.concatenate([[0.0], np.cumsum(per_sec)])


def busy_avg(t0, t1):
    """mean busy fraction over [t0, t1) (seconds since SIM_START), vectorised"""
    t0 = np.clip(t0, 0, len(per_sec) - 1)
    t1 = np.clip(t1, 0, len(per_sec) - 1)
    i0 = np.floor(t0).astype(int)
    i1 = np.floor(t1).astype(int)
    return (cum_busy[i1] - cum_busy[i0]) / np.maximum(i1 - i0, 1)


# samples consumed per second (for ingest / network)
step_end = steps_arr[:, 1]
cum_steps_at = lambda tt: np.searchsorted(step_end, tt)    # steps finished before tt


# ---------------------------------------------------------------- helpers
def ts_grid(phase, interval):
    s0 = sec(WIN_START)
    s1 = sec(WIN_END)
    first = s0 + ((phase - s0) % interval)
    tt = np.arange(first, s1, interval)
    tt = tt + rng.normal(0, 0.04, len(tt))   # scrape jitter
    return tt


def ar1(n, phi, sd):
    e = rng.normal(0, sd, n)
    out = np.empty(n)
    acc = 0.0
    for k in range(n):
        acc = phi * acc + e[k]
        out[k] = acc
    return out


def lag(x, alpha):
    out = np.empty_like(x)
    acc = x[0]
    for k in range(len(x)):
        acc = acc + alpha * (x[k] - acc)
        out[k] = acc
    return out


def to_ts(tt):
    return [SIM_START + timedelta(seconds=float(v)) for v in tt]


# ---------------------------------------------------------------- DCGM
DCGM_LABELS = ["gpu", "UUID", "device", "modelName", "Hostname", "pci_bus_id",
               "DCGM_FI_DRIVER_VERSION", "instance", "job"]
dcgm_chunks = []
up_rows = []


def add_dcgm(metric, host, g, tt, vals):
    dcgm_chunks.append((np.round(tt, 3), metric, np.asarray(vals, dtype=float), {
        "gpu": str(g), "UUID": host["uuids"][g], "device": f"nvidia{g}", "modelName": MODEL_NAME,
        "Hostname": host["name"], "pci_bus_id": PCI_IDS[g], "DCGM_FI_DRIVER_VERSION": DRIVER,
        "instance": f"{host['ip']}:9400", "job": "dcgm-exporter"}))


gpu_truth_util = []
for hi, host in enumerate(HOSTS):
    tt = ts_grid(host["dcgm_phase"], 15.0)
    n = len(tt)
    up_rows.append((tt, host, "dcgm-exporter", f"{host['ip']}:9400"))
    host_inlet = rng.normal(0, 1.8)            # rack position / inlet air
    host_pw = rng.normal(0, 0.015)
    for g in range(GPUS):
        b1 = busy_avg(tt - 1.0, tt)            # driver's ~1 s utilisation sample
        bw = busy_avg(tt - 15.0, tt)           # scrape-interval mean (profiling fields)
        # utilisation
        util = 100.0 * b1 * rng.uniform(0.992, 1.0) + rng.normal(0, 0.8, n)
        util = np.clip(np.round(util), 0, 100) + 0.0
        gpu_truth_util.append(util)
        # power
        p_idle = 112 + rng.normal(0, 4)
        p_busy = 606 * (1 + host_pw + rng.normal(0, 0.02))
        pw = p_idle + (p_busy - p_idle) * np.power(np.clip(b1 * 0.5 + bw * 0.5, 0, 1), 0.92)
        pw = pw + ar1(n, 0.6, 9.0) + rng.normal(0, 6, n)
        pw = np.round(pw, 3)
        # temperatures with thermal lag
        t_off = host_inlet + rng.normal(0, 2.6) + (2.0 if g in (2, 5) else 0.0)
        gt = 31.0 + t_off + 0.052 * pw
        gt = lag(gt, 0.22) + rng.normal(0, 0.35, n)
        mt = 35.0 + t_off * 0.8 + rng.normal(0, 1.5) + 0.058 * pw
        mt = lag(mt, 0.18) + rng.normal(0, 0.35, n)
        # clocks
        sm = np.full(n, 1980.0)
        hot = gt > 70.5
        sm[hot] = np.round(1980 - rng.uniform(15, 120, hot.sum()) / 15) * 15
        dips = rng.random(n) < 0.004
        sm[dips] = rng.choice([1755.0, 1845.0, 1890.0, 1935.0], dips.sum())
        mem = np.full(n, 2619.0)
        # memory
        fb_used = 70120 + (2150 if (hi == 0 and g == 0) else 0) + int(rng.integers(-300, 300))
        fbu = np.full(n, float(fb_used))
        fbu += np.where(rng.random(n) < 0.01, rng.integers(-64, 64, n), 0)
        fbf = FB_TOTAL - fbu - 512
        # energy (mJ) counter since driver load
        e0 = float(rng.uniform(3.1e11, 5.9e11))
        dt = np.diff(np.concatenate([[tt[0] - 15.0], tt]))
        energy = np.round(e0 + np.cumsum(pw * dt * 1000.0))
        # NVLink bandwidth counter (MiB) - DDP all-reduce traffic scales with steps
        nvl0 = float(rng.uniform(2.0e8, 6.0e8))
        nvl_rate = 3420.0 * (1 + rng.normal(0, 0.01))
        nvl = np.round(nvl0 + np.cumsum(nvl_rate * bw * dt * (1 + rng.normal(0, 0.01, n))))
        # PCIe replay counter: mostly flat, a few GPUs carry an old non-zero value
        rep0 = float(rng.choice([0, 0, 0, 0, 0, 0, 1, 2, 3, 7]))
        rep = np.full(n, rep0)
        if rng.random() < 0.03:
            k = int(rng.integers(0, n))
            rep[k:] += 1
        # DCP fields
        gr = np.clip(bw * 0.985 + rng.normal(0, 0.006, n), 0, 1)
        tensor = np.clip(bw * (0.452 + rng.normal(0, 0.004)) + rng.normal(0, 0.006, n), 0, 1)
        dram = np.clip(bw * (0.371 + rng.normal(0, 0.004)) + rng.normal(0, 0.006, n), 0, 1)
        pcie_rx = np.clip(bw * 1.06e9 * (1 + rng.normal(0, 0.03)) + rng.normal(0, 2.5e7, n), 1e6, None)
        pcie_tx = np.clip(bw * 6.1e8 * (1 + rng.normal(0, 0.03)) + rng.normal(0, 1.8e7, n), 1e6, None)
        copy_util = np.clip(np.round(bw * 38 + rng.normal(0, 2.2, n)), 0, 100)

        add_dcgm("DCGM_FI_DEV_GPU_UTIL", host, g, tt, util)
        add_dcgm("DCGM_FI_DEV_MEM_COPY_UTIL", host, g, tt, copy_util)
        add_dcgm("DCGM_FI_DEV_SM_CLOCK", host, g, tt, sm)
        add_dcgm("DCGM_FI_DEV_MEM_CLOCK", host, g, tt, mem)
        add_dcgm("DCGM_FI_DEV_GPU_TEMP", host, g, tt, np.round(gt))
        add_dcgm("DCGM_FI_DEV_MEMORY_TEMP", host, g, tt, np.round(mt))
        add_dcgm("DCGM_FI_DEV_POWER_USAGE", host, g, tt, pw)
        add_dcgm("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", host, g, tt, energy)
        add_dcgm("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", host, g, tt, rep)
        add_dcgm("DCGM_FI_DEV_FB_USED", host, g, tt, fbu)
        add_dcgm("DCGM_FI_DEV_FB_FREE", host, g, tt, fbf)
        add_dcgm("DCGM_FI_DEV_XID_ERRORS", host, g, tt, np.zeros(n))
        add_dcgm("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", host, g, tt, nvl)
        add_dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE", host, g, tt, np.round(gr, 6))
        add_dcgm("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", host, g, tt, np.round(tensor, 6))
        add_dcgm("DCGM_FI_PROF_DRAM_ACTIVE", host, g, tt, np.round(dram, 6))
        add_dcgm("DCGM_FI_PROF_PCIE_TX_BYTES", host, g, tt, np.round(pcie_tx))
        add_dcgm("DCGM_FI_PROF_PCIE_RX_BYTES", host, g, tt, np.round(pcie_rx))


def write_parquet(chunks, path, label_cols):
    """chunks: list of (times_s, metric, values, {label: value}); one chunk = one series"""
    ts = np.concatenate([c[0] for c in chunks])
    vals = np.concatenate([c[2] for c in chunks])
    lens = np.array([len(c[0]) for c in chunks])
    metrics = sorted({c[1] for c in chunks})
    mcode = {m: i for i, m in enumerate(metrics)}
    mc = np.repeat(np.array([mcode[c[1]] for c in chunks], dtype=np.int32), lens)
    order = np.lexsort((ts, mc))
    data = {}
    data["timestamp"] = pa.array(np.round((ts[order] + SIM_START.timestamp()) * 1000).astype("int64"),
                                 type=pa.timestamp("ms", tz="UTC"))
    data["metric"] = pa.DictionaryArray.from_arrays(pa.array(mc[order]), pa.array(metrics))
    data["value"] = pa.array(vals[order], type=pa.float64())
    for col in label_cols:
        dic = sorted({c[3].get(col) for c in chunks if c[3].get(col) is not None})
        code = {v: i for i, v in enumerate(dic)}
        per = np.array([code.get(c[3].get(col), -1) for c in chunks], dtype=np.int32)
        idx = np.repeat(per, lens)[order]
        mask = idx < 0
        data[col] = pa.DictionaryArray.from_arrays(pa.array(np.where(mask, 0, idx), mask=mask),
                                                   pa.array(dic if dic else [""], type=pa.string()))
    table = pa.table(data)
    pq.write_table(table, path, compression="zstd", row_group_size=500_000)
    return table.num_rows


# ---------------------------------------------------------------- node_exporter
NODE_LABELS = ["instance", "job", "device", "mountpoint", "fstype", "nodename", "release",
               "sysname", "machine", "domainname", "version"]
node_chunks = []


def add_node(metric, host, tt, vals, **labels):
    lab = {"instance": labels.pop("instance", f"{host['ip']}:9100"), "job": labels.pop("job", "node")}
    lab.update(labels)
    node_chunks.append((np.round(tt, 3), metric, np.asarray(vals, dtype=float), lab))


RELEASE = "6.8.0-1015-aws"
UNAME_VER = "#16~22.04.1-Ubuntu SMP Mon Aug 19 19:38:17 UTC 2024"
BYTES_PER_SAMPLE = 118_500.0
for tt_up, host, job, inst in up_rows:
    add_node("up", host, tt_up, np.ones(len(tt_up)), instance=inst, job=job)

for host in HOSTS:
    tt = ts_grid(host["node_phase"], 30.0)
    n = len(tt)
    add_node("up", host, tt, np.ones(n))
    add_node("node_uname_info", host, tt, np.ones(n), nodename=host["name"], release=RELEASE,
             sysname="Linux", machine="x86_64", domainname="(none)", version=UNAME_VER)
    add_node("node_boot_time_seconds", host, tt, np.full(n, float(host["boot"])))
    # ingest: samples consumed by the 8 local ranks, plus misc traffic
    dt = np.diff(np.concatenate([[tt[0] - 30.0], tt]))
    steps_done = cum_steps_at(tt) - cum_steps_at(tt - dt)
    ingest = steps_done * BATCH * GPUS * BYTES_PER_SAMPLE * (1 + rng.normal(0, 0.035, n))
    misc_rx = rng.uniform(1.4e6, 2.6e6, n) * dt
    in_thr = (tt >= THR_S0) & (tt < THR_S1)
    retry_rx = np.where(in_thr, rng.uniform(0.2e6, 0.9e6, n) * dt, 0.0)   # 503 bodies, retries
    rx0 = float(rng.uniform(4e13, 9e13))
    rx = np.round(rx0 + np.cumsum(ingest + misc_rx + retry_rx))
    tx_rate = 3.1e6 + steps_done / dt * 0.9e4
    tx = np.round(float(rng.uniform(3e12, 8e12)) + np.cumsum(tx_rate * dt * (1 + rng.normal(0, 0.05, n))))
    rxp = np.round(float(rng.uniform(4e10, 9e10)) + np.cumsum((ingest + misc_rx) / 8400.0))
    add_node("node_network_receive_bytes_total", host, tt, rx, device="ens32")
    add_node("node_network_transmit_bytes_total", host, tt, tx, device="ens32")
    add_node("node_network_receive_packets_total", host, tt, rxp, device="ens32")
    lo = np.round(float(rng.uniform(1e11, 3e11)) + np.cumsum(rng.uniform(0.8e6, 1.6e6, n) * dt))
    add_node("node_network_receive_bytes_total", host, tt, lo, device="lo")
    add_node("node_network_transmit_bytes_total", host, tt, lo, device="lo")
    # CPU load: 8 ranks x 8 loader workers decoding JPEGs + aws-cli processes
    bw = busy_avg(tt - 60, tt)
    load1 = 61 + 14 * bw + ar1(n, 0.8, 2.2) + rng.normal(0, 1.2, n)
    load1 = np.where(in_thr, load1 + rng.uniform(2, 9, n), load1)   # retrying aws processes
    add_node("node_load1", host, tt, np.round(np.clip(load1, 0, None), 2))
    add_node("node_load5", host, tt, np.round(lag(np.clip(load1, 0, None), 0.1), 2))
    memtot = 2_164_132_093_952.0
    mavail = 1.71e12 + ar1(n, 0.95, 2.0e9) + rng.normal(0, 4e8, n)
    add_node("node_memory_MemTotal_bytes", host, tt, np.full(n, memtot))
    add_node("node_memory_MemAvailable_bytes", host, tt, np.round(mavail))
    add_node("node_filesystem_avail_bytes", host, tt,
             np.round(np.full(n, float(rng.uniform(1.2e12, 1.9e12))) - np.cumsum(rng.uniform(0, 2e5, n))),
             device="/dev/root", mountpoint="/", fstype="ext4")
    rd = np.round(float(rng.uniform(1e12, 3e12)) + np.cumsum(rng.uniform(0, 3e5, n) * dt))
    wr = np.round(float(rng.uniform(5e11, 2e12)) + np.cumsum(rng.uniform(2e5, 9e5, n) * dt))
    add_node("node_disk_read_bytes_total", host, tt, rd, device="nvme0n1")
    add_node("node_disk_written_bytes_total", host, tt, wr, device="nvme0n1")

os.makedirs(OUT, exist_ok=True)
for sub in ("metrics", "logs"):
    p = os.path.join(OUT, sub)
    if os.path.exists(p):
        shutil.rmtree(p)
os.makedirs(os.path.join(OUT, "metrics"))
os.makedirs(os.path.join(OUT, "logs", "dmesg"))

nd = write_parquet(dcgm_chunks, os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), DCGM_LABELS)
nn = write_parquet(node_chunks, os.path.join(OUT, "metrics", "node-exporter.parquet"), NODE_LABELS)
print("dcgm rows", nd, "node rows", nn)

# ---------------------------------------------------------------- trainer output
lines = []   # (t_seconds, seq, text)
seq = [0]


def emit(t_s, text):
    seq[0] += 1
    lines.append((t_s, seq[0], text))


def oc_ts(t_s):
    return (SIM_START + timedelta(seconds=t_s)).strftime("%Y-%m-%d,%H:%M:%S")


def lab(rank):
    return f"{rank:>3}: "        # srun --label, width = digits of (ntasks - 1)


def info(t_s, msg, rank=0, level="INFO"):
    emit(t_s, f"{lab(rank)}{oc_ts(t_s)} | {level} | {msg}")


js = sec(JOB_START)
ranks_host = [HOSTS[r // GPUS] for r in range(WORLD)]
pids = [int(rng.integers(120000, 990000)) for _ in range(WORLD)]
# per-rank start-up
for r in range(WORLD):
    h = ranks_host[r]
    lr = r % GPUS
    t0 = js + 9.5 + rng.uniform(0, 4.0)
    info(t0, f"Running in distributed mode with multiple processes. Device: cuda:{lr}."
             f"Process (global: {r}, local {lr}), total {WORLD}.", rank=r)
comm_id = "0x" + "".join("0123456789abcdef"[i] for i in rng.integers(0, 16, 16))
for r in range(WORLD):
    h = ranks_host[r]
    lr = r % GPUS
    pid = pids[r]
    t0 = js + 31 + rng.uniform(0, 6)
    pre = f"{lab(r)}{h['name']}:{pid}:{pid} [{lr}] NCCL INFO"
    if lr == 0 or r < 8:
        emit(t0, f"{pre} Bootstrap : Using enp71s0:{h['ip']}<0>")
    emit(t0 + 0.2, f"{pre} cudaDriverVersion 12020")
    if r == 0:
        emit(t0 + 0.21, f"{pre} NCCL version 2.21.5+cuda12.4")
    emit(t0 + 0.4, f"{pre} NET/OFI Selected Provider is efa (found 32 nics)")
    tid = pid + int(rng.integers(60, 400))
    emit(t0 + 9 + rng.uniform(0, 2),
         f"{lab(r)}{h['name']}:{pid}:{tid} [{lr}] NCCL INFO ncclCommInitRank comm 0x{int(rng.integers(0x55a000000000, 0x56ffffffffff)):x} "
         f"rank {r} nranks {WORLD} cudaDev {lr} nvmlDev {lr} busId {PCI_IDS[lr][9:11].lower()}000 commId {comm_id} - Init COMPLETE")

params = [
    ("accum_freq", 1), ("aug_cfg", {}), ("batch_size", BATCH), ("beta1", 0.9), ("beta2", 0.98),
    ("checkpoint_path", "/fsx/openclip/logs/vitl14-laion2b-s32b/checkpoints"), ("coca_caption_loss_weight", 2.0),
    ("coca_contrastive_loss_weight", 1.0), ("copy_codebase", False), ("csv_caption_key", "title"),
    ("csv_img_key", "filepath"), ("csv_separator", "\t"), ("dataset_resampled", True),
    ("dataset_type", "webdataset"), ("ddp_static_graph", True), ("debug", False), ("delete_previous_checkpoint", False),
    ("device", "cuda:0"), ("dist_backend", "nccl"), ("dist_url", "env://"), ("distill", False),
    ("distributed", True), ("epochs", TOTAL_EPOCHS), ("eps", 1e-06), ("force_quick_gelu", False),
    ("gather_with_grad", True), ("grad_checkpointing", True), ("grad_clip_norm", None),
    ("horovod", False), ("image_mean", None), ("image_std", None), ("imagenet_v2", None), ("imagenet_val", None),
    ("local_loss", True), ("local_rank", 0), ("lock_image", False), ("lock_text", False),
    ("log_every_n_steps", LOG_EVERY), ("log_level", 20), ("log_local", False),
    ("log_path", "/fsx/openclip/logs/vitl14-laion2b-s32b/out.log"), ("logs", "/fsx/openclip/logs"),
    ("lr", BASE_LR), ("lr_cooldown_end", 0.0), ("lr_cooldown_power", 1.0), ("lr_scheduler", "cosine"),
    ("model", "ViT-L-14"), ("name", "vitl14-laion2b-s32b"), ("no_set_device_rank", False),
    ("precision", "amp_bf16"), ("pretrained", ""), ("pretrained_image", False), ("rank", 0),
    ("remote_sync", None), ("report_to", "tensorboard"),
    ("resume", "/fsx/openclip/logs/vitl14-laion2b-s32b/checkpoints/epoch_11.pt"), ("save_frequency", 1),
    ("save_most_recent", True), ("seed", 0), ("skip_scheduler", False), ("tensorboard", True),
    ("torchcompile", False), ("torchscript", False), ("trace", False),
    ("train_data", f"pipe:aws s3 cp {BUCKET_PREFIX}/{{000000..{N_SHARDS - 1:06d}}}.tar - || true"),
    ("train_num_samples", 400000000), ("use_bn_sync", False), ("val_data", None), ("val_frequency", 1),
    ("wandb", False), ("warmup", WARMUP), ("wd", 0.2), ("workers", 8), ("world_size", WORLD),
    ("zeroshot_frequency", 0),
]
tp = js + 46
info(tp, "Model: ViT-L-14")
info(tp + 0.1, "Params:")
for k, v in params:
    info(tp + 0.1, f"  {k}: {v}")
info(tp + 52, f"=> resuming checkpoint '/fsx/openclip/logs/vitl14-laion2b-s32b/checkpoints/epoch_11.pt' (epoch 11)")

# epoch starts and train lines
total_steps = TOTAL_EPOCHS * NUM_BATCHES


def lr_at(step):
    if step < WARMUP:
        return BASE_LR * (step + 1) / WARMUP
    e = step - WARMUP
    es = total_steps - WARMUP
    return 0.5 * (1 + math.cos(math.pi * e / es)) * BASE_LR


epoch_of = {}
for ep, t0 in epoch_marks:
    info(t0 - rng.uniform(0.5, 1.5), f"Start epoch {ep}")

cur = None
loss_avg = {}
win_dt, win_bt = [], []
for ep, i, t0, t1, wt, bt in steps:
    if cur != ep:
        cur = ep
        loss_avg[ep] = [0.0, 0]
        win_dt, win_bt = [], []
    win_dt.append(wt)
    win_bt.append(bt)
    batch_count = i + 1
    if i % LOG_EVERY == 0 or batch_count == NUM_BATCHES:
        step = NUM_BATCHES * ep + i
        prog = step / total_steps
        lval = 2.58 - 0.62 * prog + rng.normal(0, 0.045)
        s, c = loss_avg[ep]
        s += lval
        c += 1
        loss_avg[ep] = [s, c]
        avg = s / c
        num_samples = batch_count * BATCH * WORLD
        pct = 100.0 * batch_count / NUM_BATCHES
        sps = GLOBAL_BATCH / bt
        spg = BATCH / bt
        dt_avg = float(np.mean(win_dt))
        bt_avg = float(np.mean(win_bt))
        msg = (f"Train Epoch: {ep} [{num_samples:>9}/{SAMPLES_PER_EPOCH} ({pct:.0f}%)] "
               f"Data (t): {dt_avg:.3f} Batch (t): {bt_avg:.3f}, {sps:#g}/s, {spg:#g}/s/gpu "
               f"LR: {lr_at(step):5f} Logit Scale: 100.000 "
               f"Contrastive_loss: {lval:#.5g} ({avg:#.5g}) Loss: {lval:#.5g} ({avg:#.5g})")
        info(t1 + 0.002, msg)
        win_dt, win_bt = [], []

# aws-cli lines --------------------------------------------------------------
shard_pool = rng.permutation(N_SHARDS)
sp = [0]


def shard():
    sp[0] += 1
    return f"{BUCKET_PREFIX}/{int(shard_pool[sp[0] % N_SHARDS]):06d}.tar"


SLOWDOWN = "An error occurred (SlowDown) when calling the GetObject operation (reached max retries: 2): Please reduce your request rate."
n_slow = 0
# throttle: failures arrive as a Poisson process whose rate follows severity
for a, b, f in SEG_S:
    rate = 7.6 * (1.0 - f) * 1.25          # failed GetObject per second, cluster-wide
    t = a
    while True:
        t += rng.exponential(1.0 / rate)
        if t >= b:
            break
        r = int(rng.integers(0, WORLD))
        emit(t, f"{lab(r)}download failed: {shard()} to - {SLOWDOWN}")
        n_slow += 1
n_slow_thr = n_slow
# a few sporadic throttles in otherwise healthy hours (S3 does this)
for when in ["06:37:12", "07:51:40", "10:22:05"]:
    hh, mm, ss = map(int, when.split(":"))
    t = sec(datetime(2025, 9, 16, hh, mm, ss, tzinfo=UTC))
    emit(t, f"{lab(int(rng.integers(0, WORLD)))}download failed: {shard()} to - {SLOWDOWN}")
    n_slow += 1
# broken pipes when the previous epoch's iterators are torn down (open_clip#845 behaviour)
for ep, t0 in epoch_marks[1:]:
    for _ in range(int(rng.integers(20, 60))):
        r = int(rng.integers(0, WORLD))
        emit(t0 - rng.uniform(0, 12), f"{lab(r)}download failed: {shard()} to - [Errno 32] Broken pipe")
print("SlowDown lines:", n_slow)

# a couple of benign warnings at start
emit(js + 58, "  0: /opt/conda/lib/python3.11/site-packages/torch/utils/data/dataloader.py:617: UserWarning: This DataLoader will create 8 worker processes in total. Our suggested max number of worker in current system is 6, which is smaller than what this DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.")
emit(js + 58.01, "  0:   warnings.warn(_create_warning_msg(")

lines.sort(key=lambda x: (x[0], x[1]))
with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as fh:
    for t_s, _, text in lines:
        if t_s <= sec(WIN_END) + 5:
            fh.write(text + "\n")
# output after window end is still being written when the folder was collected
print("trainer lines:", len(lines))

# ---------------------------------------------------------------- dmesg -T per host


def dmesg_ts(t_s):
    d = SIM_START + timedelta(seconds=t_s)
    return d.strftime("[%a %b %e %H:%M:%S %Y]")


for hi, host in enumerate(HOSTS):
    ev = []
    # older lines from earlier jobs
    for k in range(int(rng.integers(3, 7))):
        t = sec(datetime(2025, 9, 15, 18, 0, tzinfo=UTC)) + rng.uniform(0, 10 * 3600)
        for s in range(4):
            for _ in range(int(rng.integers(3, 6))):
                ev.append((t + rng.uniform(0, 0.01), f"nvidia-nvswitch{s}: open (major=510)"))
    for s in range(4):
        for _ in range(GPUS):
            ev.append((js + 14 + rng.uniform(0, 1.5), f"nvidia-nvswitch{s}: open (major=510)"))
    if hi == 0:
        ev.append((js + 20.3, "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters."))
    if rng.random() < 0.35:
        ev.append((sec(WIN_START) + rng.uniform(0, 5 * 3600),
                   f"perf: interrupt took too long ({int(rng.integers(2501, 3200))} > 2500), lowering kernel.perf_event_max_sample_rate to {int(rng.choice([79750, 63750, 50000]))}"))
    if rng.random() < 0.2:
        ev.append((sec(WIN_START) + rng.uniform(0, 5 * 3600),
                   f"INFO: NMI handler (perf_event_nmi_handler) took too long to run: {rng.uniform(1.0, 3.5):.3f} msecs"))
    if rng.random() < 0.15:
        cs = int(rng.integers(1_200_000_000, 1_700_000_000))
        ev.append((sec(WIN_START) + rng.uniform(0, 5 * 3600),
                   f"clocksource: Long readout interval, skipping watchdog check: cs_nsec: {cs} wd_nsec: {cs - int(rng.integers(5, 20))}"))
    ev.sort()
    with open(os.path.join(OUT, "logs", "dmesg", f"{host['name']}.txt"), "w") as fh:
        for t, msg in ev:
            if t <= sec(WIN_END):
                fh.write(f"{dmesg_ts(t)} {msg}\n")

# ---------------------------------------------------------------- incident.yaml + truth
incident = {
    "id": "openclip-s3-slowdown",
    "title": "OpenCLIP ViT-L/14 (job 7781234) samples/s down on all 32 nodes, Sep 16 morning",
    "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
    "baseline": {"start": WIN_START.isoformat(), "end": BASE_END.isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "use2-p5-research", "nodes": N_HOSTS, "gpus_per_node": GPUS, "gpu_model": "H100"},
}
with open(os.path.join(OUT, "incident.yaml"), "w") as fh:
    yaml.safe_dump(incident, fh, sort_keys=False)

# measured loss from the simulated steps
def mean_rate(a, b):
    m = (steps_arr[:, 1] >= a) & (steps_arr[:, 1] < b)
    return m.sum() / (b - a)


base_rate = mean_rate(sec(datetime(2025, 9, 16, 7, 20, tzinfo=UTC)), sec(datetime(2025, 9, 16, 8, 12, tzinfo=UTC)))
thr_rate = mean_rate(THR_S0, THR_S1)
worst = min(mean_rate(a, b) for a, b, _ in SEG_S)
loss_pct = float(round(100 * (1 - thr_rate / base_rate), 1))
worst_pct = float(round(100 * (1 - worst / base_rate), 1))
print("baseline steps/s", base_rate, "throttle", thr_rate, "loss%", loss_pct, "worst segment", worst_pct)

truth = {
    "id": "openclip-s3-slowdown",
    "cause": ("The S3 bucket serving the webdataset shards throttled GetObject (HTTP 503 SlowDown) from about "
              "08:12:40Z to 09:13:50Z; aws-cli gave up on shards, data-loader waits grew on every rank and the "
              "synchronous DDP job slowed cluster-wide. No host or GPU was at fault."),
    "cause_metrics": [
        "trainer Data (t) / Batch (t) / samples per second (OpenCLIP log)",
        "DCGM_FI_DEV_GPU_UTIL (all GPUs, step-wise sag)",
        "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "node_network_receive_bytes_total{device=\"ens32\"} (ingest rate down ~10-15% on all hosts)",
    ],
    "cause_log_evidence": [
        {
            "text": "download failed: s3://<bucket>/<shard>.tar to - An error occurred (SlowDown) when calling the GetObject operation (reached max retries: 2): Please reduce your request rate.",
            "count_in_trainer_output": f"{n_slow} ({n_slow_thr} between onset and end, 3 isolated ones outside)",
            "source": "https://github.com/commoncrawl/cc-crawl-statistics/issues/31 (aws-cli line, verbatim message)",
            "adapted": ("object URL and destination only: the original reads 'download failed: s3://commoncrawl/crawl-analysis/"
                        "CC-MAIN-2025-38/stats/part-00000.gz to stats/CC-MAIN-2025-38.gz An error occurred (SlowDown) ...'; "
                        "destination '-' as aws-cli prints it for a webdataset pipe, per the OpenCLIP line "
                        "'download failed: s3://bucket-name/directory/shard-000077.tar to - [Errno 32] Broken pipe' "
                        "in https://github.com/mlfoundations/open_clip/issues/845"),
        },
    ],
    "benign_lookalikes": [
        "3 isolated SlowDown lines at 06:37, 07:51 and 10:22 (normal background throttling, no throughput effect)",
        "'download failed: ... to - [Errno 32] Broken pipe' bursts at every epoch boundary (iterator teardown, "
        "source line shape: https://github.com/mlfoundations/open_clip/issues/845)",
        "a ~30 s throughput gap at each epoch boundary (checkpoint save + loader restart)",
    ],
    "hosts": [],
    "gpu": None,
    "onset": THR_START.isoformat().replace("+00:00", "Z"),
    "end": THR_END.isoformat().replace("+00:00", "Z"),
    "job_throughput_loss_pct": loss_pct,
    "job_throughput_loss_note": (f"mean over the throttled hour vs 07:20-08:12; worst step {worst_pct}% "
                                 "(segments of 3-8 min at different severities)"),
    "what_a_good_postmortem_says": (
        "Training throughput fell by about {:.0f}% on all 32 nodes at once between 08:12 and 09:14 UTC, in "
        "step-wise dips, with GPU utilisation, power and tensor activity sagging uniformly and OpenCLIP's "
        "Data (t) rising while compute per step stayed the same: the job was input-bound, not compute- or "
        "network-bound, and no host stands out. The trainer output shows thousands of aws-cli 'SlowDown ... "
        "Please reduce your request rate' failures in exactly that hour, so the S3 bucket throttled the "
        "shard reads; fixes are request-rate hygiene (fewer concurrent GetObject per prefix, more prefixes, "
        "adaptive retries, a local shard cache) rather than any node action."
    ).format(loss_pct),
}
with open(os.path.join(OUT, "truth.yaml"), "w") as fh:
    yaml.safe_dump(truth, fh, sort_keys=False, width=120)
print("done")
