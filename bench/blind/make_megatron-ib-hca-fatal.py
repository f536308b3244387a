#!/usr/bin/env python3
"""Generate incident folder `megatron-ib-hca-fatal` (fixed seed).

Story: a Megatron-LM pretraining job (8B GPT, pure data parallel, 16 nodes x 8 H100 = 128 ranks,
srun --label, one task per GPU, NDR InfiniBand, one ConnectX-7 per GPU) runs fine until
02:07:41Z, when the ConnectX HCA mlx5_3 (0000:5e:00.0) on gpu-c1-09 hits a fatal health error
(mlx5_core poll_health "Fatal error 1 detected", firmware health buffer reads all ones, then
"device's health compromised - reached miss count").  Its IB port goes down.  NCCL on the
node's ranks reports "local catastrophic error"; the all-reduce in flight never completes and
every rank hangs until PyTorch's NCCL watchdog fires at its 600 s timeout (02:17:41Z); the job
aborts.  The operator drains gpu-c1-09 and resubmits 15 minutes later on the remaining 15
nodes (120 GPUs) from the iteration-48000 checkpoint: throughput is 1/16 lower per job,
per-GPU unchanged.

Writes:
  megatron-ib-hca-fatal/incident.yaml, truth.yaml
  megatron-ib-hca-fatal/metrics/dcgm/<host>.parquet      (30 s scrapes, one file per host,
                                                          rows in scrape order, all labels)
  megatron-ib-hca-fatal/metrics/node-exporter.om         (OpenMetrics text, timestamps, # EOF)
  megatron-ib-hca-fatal/logs/slurm-481237.out            (job that hung and died)
  megatron-ib-hca-fatal/logs/slurm-481305.out            (restart on 15 nodes)
  megatron-ib-hca-fatal/logs/slurmctld.log
  megatron-ib-hca-fatal/logs/<host>/messages             (rsyslog /var/log/messages, RFC 3164)
"""
import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 1202
rng = np.random.default_rng(SEED)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "megatron-ib-hca-fatal")
UTC = timezone.utc


def T(s):
    return datetime.strptime(s, "%Y-%m-%d %H:%M:%S.%f" if "." in s else "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


SIM_START = T("2025-10-20 19:00:00")
WIN_START = T("2025-10-21 01:00:00")
WIN_END = T("2025-10-21 03:45:00")
BASE_END = T("2025-10-21 02:00:00")
A_SRUN = T("2025-10-20 19:04:12")
A_TRAIN = T("2025-10-20 19:09:02")
FAULT = T("2025-10-21 02:07:41.318")
COLL_START = T("2025-10-21 02:07:40.951")       # the all-reduce that never completes
WATCHDOG = COLL_START + timedelta(milliseconds=600060)
A_DEAD = T("2025-10-21 02:17:47.500")            # all tasks gone, GPUs released
DRAIN = T("2025-10-21 02:24:37.510")
B_SUBMIT = T("2025-10-21 02:32:58.904")
B_SRUN = T("2025-10-21 02:33:04")
B_TRAIN = T("2025-10-21 02:38:31")


def sec(dt):
    return (dt - SIM_START).total_seconds()


N_HOSTS, GPUS = 16, 8
HOSTS = [{"name": f"gpu-c1-{i:02d}", "ip": f"10.20.1.{100 + i}"} for i in range(1, N_HOSTS + 1)]
BAD = 8                     # index of gpu-c1-09
BAD_HCA = 3
HCA_PCI = ["0000:1a:00.0", "0000:2b:00.0", "0000:3b:00.0", "0000:5e:00.0",
           "0000:9b:00.0", "0000:ac:00.0", "0000:bb:00.0", "0000:dc:00.0"]
GPU_PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
           "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
MODEL_NAME = "NVIDIA H100 80GB HBM3"
DRIVER = "550.90.07"
RELEASE = "4.18.0-513.24.1.el8_9.x86_64"
UNAME_VER = "#1 SMP Thu Apr 4 18:13:02 UTC 2024"

SEQ = 4096
GBS = 1920
ITER_A = 8.532          # s per iteration on 128 GPUs
ITER_B = ITER_A * 16 / 15
TFLOPS = 401.7
TRAIN_ITERS = 500000
START_ITER_A = 45200
SAVE_INTERVAL = 1000
LOG_INTERVAL = 10
CKPT_DIR = "/lustre/fs1/proj/llm8b/checkpoints/gpt8b-base-v3"


def uuid():
    s = "".join("0123456789abcdef"[i] for i in rng.integers(0, 16, 32))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


for h in HOSTS:
    h["uuids"] = [uuid() for _ in range(GPUS)]
    h["boot"] = float(int((T("2025-10-02 00:00:00") + timedelta(seconds=int(rng.integers(0, 9 * 86400)))).timestamp()))
    h["dcgm_phase"] = float(rng.uniform(0, 30))
    h["node_phase"] = float(rng.uniform(0, 30))

# ---------------------------------------------------------------- job timelines (iterations)
iters_a = []   # (iteration, t_end)
t = sec(A_TRAIN) + 17.8          # first iteration: warm-up, allocator, NCCL connections
it = START_ITER_A
ckpt_times = []
while True:
    dt = ITER_A * (1 + rng.normal(0, 0.006))
    if t + dt > sec(COLL_START) + 0.3:
        break
    t += dt
    it += 1
    if it % SAVE_INTERVAL == 0:
        save = rng.uniform(31, 39)
        ckpt_times.append((it, t, t + save))
        t += save
    iters_a.append((it, t))
last_iter_a = iters_a[-1][0]
last_ckpt = max(c[0] for c in ckpt_times)
print("job A: last finished iteration", last_iter_a, "last checkpoint", last_ckpt)

iters_b = []
t = sec(B_TRAIN) + 18.6
it = last_ckpt
while t < sec(WIN_END) + 60:
    dt = ITER_B * (1 + rng.normal(0, 0.006))
    t += dt
    it += 1
    if it % SAVE_INTERVAL == 0:
        save = rng.uniform(31, 39)
        ckpt_times.append((it, t, t + save))
        t += save
    iters_b.append((it, t))

END_S = sec(WIN_END) + 60
# job-level GPU phase per second: 0 idle(no job), 1 training, 2 hang (nccl spin), 3 init/loading
phase_a = np.zeros(int(END_S) + 2, dtype=np.int8)
phase_b = np.zeros(int(END_S) + 2, dtype=np.int8)
phase_a[int(sec(A_SRUN)):int(sec(A_TRAIN))] = 3
phase_a[int(sec(A_TRAIN)):int(sec(FAULT))] = 1
phase_a[int(sec(FAULT)):int(sec(A_DEAD))] = 2
phase_b[int(sec(B_SRUN)):int(sec(B_TRAIN))] = 3
phase_b[int(sec(B_TRAIN)):] = 1
ckpt_mask = np.zeros(int(END_S) + 2, dtype=bool)
for _, a, b in ckpt_times:
    ckpt_mask[int(a):int(b)] = True


def host_phase(hi, tt):
    idx = np.clip(tt.astype(int), 0, len(phase_a) - 1)
    pa_ = phase_a[idx]
    if hi == BAD:
        return pa_, ckpt_mask[idx]
    pb_ = phase_b[idx]
    return np.where(pa_ > 0, pa_, pb_), ckpt_mask[idx]


def active_frac(hi, tt, dt):
    """fraction of [t-dt, t) spent in training steps (not checkpointing), weighted by
    per-iteration traffic rate of the job that was running (job B iterates 16/15 slower)"""
    pa_ = (phase_a == 1)
    pb_ = (phase_b == 1) if hi != BAD else np.zeros_like(pa_)
    w = np.where(pa_, 1.0, np.where(pb_, ITER_A / ITER_B, 0.0)) * (~ckpt_mask)
    cum = np.concatenate([[0.0], np.cumsum(w)])
    t1 = np.clip(tt, 0, len(w) - 1)
    t0 = np.clip(tt - dt, 0, len(w) - 1)
    def c(x):
        i = np.floor(x).astype(int)
        return cum[i] + (x - i) * w[np.clip(i, 0, len(w) - 1)]
    return (c(t1) - c(t0)) / dt


def ts_grid(phase, interval):
    s0, s1 = sec(WIN_START), sec(WIN_END)
    first = s0 + ((phase - s0) % interval)
    tt = np.arange(first, s1, interval)
    return tt + rng.normal(0, 0.03, len(tt))


def ar1(n, phi, sd):
    e = rng.normal(0, sd, n)
    out = np.empty(n)
    acc = 0.0
    for k in range(n):
        acc = phi * acc + e[k]
        out[k] = acc
    return out


def lag(x, alpha, x0=None):
    out = np.empty_like(x)
    acc = x[0] if x0 is None else x0
    for k in range(len(x)):
        acc = acc + alpha * (x[k] - acc)
        out[k] = acc
    return out


# ---------------------------------------------------------------- DCGM, per-host parquet
for sub in ("metrics", "logs"):
    p = os.path.join(OUT, sub)
    if os.path.exists(p):
        shutil.rmtree(p)
os.makedirs(os.path.join(OUT, "metrics", "dcgm"))
os.makedirs(os.path.join(OUT, "logs"))

DCGM_METRICS = ["DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP",
                "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL",
                "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED",
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE"]
dcgm_rows = 0
host_power_truth = {}
for hi, h in enumerate(HOSTS):
    tt = ts_grid(h["dcgm_phase"], 30.0)
    n = len(tt)
    ph, ck = host_phase(hi, tt)
    train = ph == 1
    hang = ph == 2
    init = ph == 3
    idle = ph == 0
    inlet = rng.normal(0, 1.6)
    per = {m: [] for m in DCGM_METRICS}
    for g in range(GPUS):
        busy = np.where(train, 1.0, 0.0)
        busy = np.where(train & ck, rng.uniform(0.0, 0.4, n), busy)       # checkpoint write pause
        util = np.where(train, np.where(ck, rng.integers(0, 60, n), 100 - (rng.random(n) < 0.03) * rng.integers(1, 4, n)), 0)
        util = np.where(hang, 100, util)                                  # spinning NCCL kernel
        util = np.where(init, np.where(rng.random(n) < 0.35, rng.integers(1, 40, n), 0), util)
        p_train = 655 * (1 + rng.normal(0, 0.02)) + ar1(n, 0.5, 10) + rng.normal(0, 7, n)
        p_idle = 69 + rng.normal(0, 2.5) + rng.normal(0, 1.2, n)
        p_hang = 187 + rng.normal(0, 6) + rng.normal(0, 3, n)
        p_init = 118 + rng.normal(0, 15, n)
        pw = np.select([train & ~ck, train & ck, hang, init], [p_train, 120 + 200 * busy, p_hang, p_init], p_idle)
        pw = np.clip(pw, 60, 700)
        pw = np.round(pw, 3)
        off = inlet + rng.normal(0, 2.4)
        gt = lag(27.5 + off + 0.065 * pw, 0.35, 27.5 + off + 0.065 * pw[0]) + rng.normal(0, 0.3, n)
        mt = lag(31 + off * 0.8 + 0.07 * pw, 0.3, 31 + off * 0.8 + 0.07 * pw[0]) + rng.normal(0, 0.3, n)
        sm = np.where(train & ~ck, 1980.0, 1980.0)
        capped = train & (pw > 690)
        sm[capped] = rng.choice([1830.0, 1875.0, 1905.0, 1935.0], capped.sum())
        sm = np.where(idle, 345.0, sm)                                   # idle P-state clocks
        mem = np.where(idle, 2619.0, 2619.0)
        fb = np.where(train | hang, 68842 + int(rng.integers(-250, 250)) + (1400 if g == 0 else 0), 0.0)
        fb = np.where(init, rng.uniform(500, 60000, n).round(), fb)
        fbf = 81559 - fb - np.where(fb > 0, 544, 0)
        dt = np.diff(np.concatenate([[tt[0] - 30], tt]))
        energy = np.round(float(rng.uniform(4e11, 9e11)) + np.cumsum(pw * dt * 1000))
        nvl_rate = 3380.0 * (1 + rng.normal(0, 0.01)) * active_frac(hi, tt, dt)
        nvl = np.round(float(rng.uniform(5e8, 9e8)) + np.cumsum(nvl_rate * dt * (1 + rng.normal(0, 0.01, n))))
        rep = np.full(n, float(rng.choice([0, 0, 0, 0, 0, 0, 0, 1, 2, 5])))
        gr = np.select([train & ~ck, hang], [0.982 + rng.normal(0, 0.004, n), 0.998 + rng.normal(0, 0.001, n)], 0.0)
        gr = np.where(init, rng.uniform(0, 0.2, n), gr)
        tensor = np.where(train & ~ck, 0.561 + rng.normal(0, 0.006, n), 0.0)
        dram = np.select([train & ~ck, hang], [0.412 + rng.normal(0, 0.006, n), 0.004 + rng.normal(0, 0.0005, n)], 0.0)
        copy = np.where(train & ~ck, np.round(41 + rng.normal(0, 2, n)), 0.0)
        vals = {
            "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": mem,
            "DCGM_FI_DEV_MEMORY_TEMP": np.round(mt), "DCGM_FI_DEV_GPU_TEMP": np.round(gt),
            "DCGM_FI_DEV_POWER_USAGE": pw, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": energy,
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": rep, "DCGM_FI_DEV_GPU_UTIL": util.astype(float),
            "DCGM_FI_DEV_MEM_COPY_UTIL": np.clip(copy, 0, 100), "DCGM_FI_DEV_XID_ERRORS": np.zeros(n),
            "DCGM_FI_DEV_FB_FREE": fbf, "DCGM_FI_DEV_FB_USED": fb.astype(float),
            "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": nvl,
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(np.clip(gr, 0, 1), 6),
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(np.clip(tensor, 0, 1), 6),
            "DCGM_FI_PROF_DRAM_ACTIVE": np.round(np.clip(dram, 0, 1), 6),
        }
        for m in DCGM_METRICS:
            per[m].append(vals[m])
    # rows in scrape order: for each scrape, every metric for every GPU (as the exposition lists them)
    ts_col, met_col, val_col, gpu_col = [], [], [], []
    for k in range(n):
        for m in DCGM_METRICS:
            for g in range(GPUS):
                ts_col.append(tt[k])
                met_col.append(m)
                val_col.append(per[m][g][k])
                gpu_col.append(g)
    gpu_arr = np.array(gpu_col)
    N = len(ts_col)
    table = pa.table({
        "timestamp": pa.array(np.round((np.array(ts_col) + SIM_START.timestamp()) * 1000).astype("int64") * 1_000_000,
                              type=pa.timestamp("ns", tz="UTC")),
        "metric": pa.array(met_col, type=pa.string()),
        "value": pa.array(val_col, type=pa.float64()),
        "gpu": pa.array([str(x) for x in gpu_arr]),
        "UUID": pa.array([h["uuids"][x] for x in gpu_arr]),
        "pci_bus_id": pa.array([GPU_PCI[x] for x in gpu_arr]),
        "device": pa.array([f"nvidia{x}" for x in gpu_arr]),
        "modelName": pa.array([MODEL_NAME] * N),
        "Hostname": pa.array([h["name"]] * N),
        "DCGM_FI_DRIVER_VERSION": pa.array([DRIVER] * N),
        "instance": pa.array([f"{h['ip']}:9400"] * N),
        "job": pa.array(["dcgm-exporter"] * N),
    })
    pq.write_table(table, os.path.join(OUT, "metrics", "dcgm", f"{h['name']}.parquet"), compression="snappy")
    dcgm_rows += N
print("dcgm rows", dcgm_rows)

# ---------------------------------------------------------------- node_exporter, OpenMetrics
families = {}   # name -> (type, help, list of (labels_str, times, values))


def fam(name, typ, help_):
    if name not in families:
        families[name] = (typ, help_, [])
    return families[name][2]


def lbl(**kw):
    return "{" + ",".join(f'{k}="{v}"' for k, v in kw.items()) + "}"


BYTES_PER_ITER_PER_HCA = 4.03e9     # all-reduce share of one rail per iteration
for hi, h in enumerate(HOSTS):
    tt = ts_grid(h["node_phase"], 30.0)
    n = len(tt)
    inst = f"{h['ip']}:9100"
    ph, ck = host_phase(hi, tt)
    dt = np.diff(np.concatenate([[tt[0] - 30], tt]))
    fam("up", "gauge", "1 if the target is up (recorded by Prometheus)").append(
        (lbl(instance=inst, job="node"), tt, np.ones(n)))
    fam("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.").append(
        (lbl(domainname="(none)", instance=inst, job="node", machine="x86_64", nodename=h["name"],
             release=RELEASE, sysname="Linux", version=UNAME_VER), tt, np.ones(n)))
    fam("node_boot_time_seconds", "gauge", "Node boot time, in unixtime.").append(
        (lbl(instance=inst, job="node"), tt, np.full(n, h["boot"])))
    load = np.select([ph == 1, ph == 2, ph == 3], [22 + rng.normal(0, 1.5, n), 9.5 + rng.normal(0, 0.6, n),
                                                  14 + rng.normal(0, 3, n)], 0.6 + np.abs(rng.normal(0, 0.3, n)))
    fam("node_load1", "gauge", "1m load average.").append((lbl(instance=inst, job="node"), tt, np.round(lag(load, 0.5), 2)))
    memav = np.where(ph > 0, 1.62e12, 1.98e12) + ar1(n, 0.9, 1.5e9)
    fam("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.").append(
        (lbl(instance=inst, job="node"), tt, np.round(memav)))
    rxr = np.where(ph > 0, 2.1e6, 0.35e6) * (1 + rng.normal(0, 0.1, n))
    txr = np.where(ph > 0, 1.4e6, 0.25e6) * (1 + rng.normal(0, 0.1, n))
    fam("node_network_receive_bytes_total", "counter", "Network device statistic receive_bytes.").append(
        (lbl(device="eno1", instance=inst, job="node"), tt, np.round(float(rng.uniform(1e12, 5e12)) + np.cumsum(rxr * dt))))
    fam("node_network_transmit_bytes_total", "counter", "Network device statistic transmit_bytes.").append(
        (lbl(device="eno1", instance=inst, job="node"), tt, np.round(float(rng.uniform(1e12, 5e12)) + np.cumsum(txr * dt))))
    af = active_frac(hi, tt, dt)
    for c in range(8):
        dev = f"mlx5_{c}"
        L = lbl(device=dev, instance=inst, job="node", port="1")
        rate = BYTES_PER_ITER_PER_HCA / ITER_A * af * (1 + rng.normal(0, 0.04, n))
        rate = rate + 2.2e3     # subnet management / perf query MADs
        dead = np.zeros(n, dtype=bool)
        if hi == BAD and c == BAD_HCA:
            dead = tt >= sec(FAULT)
            rate = np.where(dead, 0.0, rate)
        rx = np.round(float(rng.uniform(2e14, 9e14)) + np.cumsum(rate * dt))
        tx = np.round(float(rng.uniform(2e14, 9e14)) + np.cumsum(rate * dt * (1 + rng.normal(0, 0.005, n))))
        wait_rate = rng.uniform(1.5e5, 4e5) * af * (1 + rng.normal(0, 0.2, n))
        if hi == BAD and c == BAD_HCA:
            wait_rate = np.where(dead, 0.0, wait_rate)
        xw = np.round(float(rng.uniform(1e9, 4e9)) + np.cumsum(np.clip(wait_rate, 0, None) * dt))
        state = np.where(dead, 1.0, 4.0)
        phys = np.where(dead, 3.0, 5.0)
        ld0 = float(rng.choice([0, 0, 0, 0, 0, 1, 1, 2]))
        ld = np.where(dead, ld0 + 1, ld0)
        fam("node_infiniband_port_data_received_bytes_total", "counter",
            "Number of data octets received on all links").append((L, tt, rx))
        fam("node_infiniband_port_data_transmitted_bytes_total", "counter",
            "Number of data octets transmitted on all links").append((L, tt, tx))
        fam("node_infiniband_port_transmit_wait_total", "counter",
            "Number of ticks during which the port had data to transmit but no data was sent during the entire tick").append((L, tt, xw))
        fam("node_infiniband_link_downed_total", "counter",
            "Number of times the link failed to recover from an error state and went down").append((L, tt, ld))
        fam("node_infiniband_state_id", "gauge",
            "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)").append((L, tt, state))
        fam("node_infiniband_physical_state_id", "gauge",
            "Physical state of the InfiniBand port (0: no change, 1: sleep, 2: polling, 3: disable, 4: shift, 5: link up, 6: link error recover, 7: phytest)").append((L, tt, phys))


def fmt_val(v):
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    r = repr(float(v))
    return r


om_lines = 0
with open(os.path.join(OUT, "metrics", "node-exporter.om"), "w") as fh:
    for name, (typ, help_, series) in families.items():
        fname = name[:-6] if (typ == "counter" and name.endswith("_total")) else name
        fh.write(f"# HELP {fname} {help_}\n# TYPE {fname} {typ}\n")
        for L, tt, vv in series:
            for t_, v_ in zip(tt, vv):
                fh.write(f"{name}{L} {fmt_val(v_)} {SIM_START.timestamp() + t_:.3f}\n")
                om_lines += 1
    fh.write("# EOF\n")
print("openmetrics samples", om_lines)

# ---------------------------------------------------------------- trainer outputs


def lab(r):
    return f"{r:>3}: "


def mtime(t_s):
    return (SIM_START + timedelta(seconds=t_s)).strftime("%Y-%m-%d %H:%M:%S")


def glog_ts(t_s):
    d = SIM_START + timedelta(seconds=t_s)
    return d.strftime("%m%d %H:%M:%S") + f".{int((t_s % 1) * 1e9):09d}"


def lr_at(i):
    warm, lmax, lmin = 2000, 3.0e-4, 3.0e-5
    if i < warm:
        return lmax * i / warm
    return lmin + 0.5 * (lmax - lmin) * (1 + math.cos(math.pi * (i - warm) / (TRAIN_ITERS - warm)))


ARGS = {
    "adam_beta1": 0.9, "adam_beta2": 0.95, "adam_eps": 1e-08, "attention_dropout": 0.0, "bf16": True,
    "ckpt_format": "torch_dist", "clip_grad": 1.0, "context_parallel_size": 1, "data_parallel_size": None,
    "data_path": ["/lustre/fs1/proj/llm8b/data/mix-v3_text_document"], "distributed_backend": "nccl",
    "distributed_timeout_minutes": 10, "eval_interval": 2000, "eval_iters": 10, "ffn_hidden_size": 14336,
    "global_batch_size": GBS, "group_query_attention": True, "hidden_dropout": 0.0, "hidden_size": 4096,
    "init_method_std": 0.008, "load": CKPT_DIR, "log_interval": LOG_INTERVAL, "log_throughput": True,
    "lr": 0.0003, "lr_decay_style": "cosine", "lr_warmup_iters": 2000, "max_position_embeddings": 8192,
    "micro_batch_size": 1, "min_lr": 3e-05, "normalization": "RMSNorm", "num_attention_heads": 32,
    "num_layers": 32, "num_query_groups": 8, "overlap_grad_reduce": True, "pipeline_model_parallel_size": 1,
    "position_embedding_type": "rope", "rank": 0, "recompute_granularity": "selective", "save": CKPT_DIR,
    "save_interval": SAVE_INTERVAL, "seed": 1234, "seq_length": SEQ, "swiglu": True,
    "tensor_model_parallel_size": 1, "tokenizer_type": "HuggingFaceTokenizer", "train_iters": TRAIN_ITERS,
    "use_distributed_optimizer": True, "use_flash_attn": True, "use_mcore_models": True,
    "weight_decay": 0.1, "world_size": None,
}


def megatron_start(emit, t0, world, first_iter):
    dp = world
    emit(t0, lab(0) + f"using world size: {world}, data-parallel size: {dp}, context-parallel size: 1, "
                      f"hierarchical context-parallel sizes: Nonetensor-model-parallel size: 1, "
                      f"encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 1, "
                      f"encoder-pipeline-model-parallel size: 0")
    emit(t0, lab(0) + "using torch.bfloat16 for parameters ...")
    emit(t0, lab(0) + "------------------------ arguments ------------------------")
    a = dict(ARGS)
    a["data_parallel_size"] = dp
    a["world_size"] = world
    rows = []
    for k, v in a.items():
        rows.append("  {} {} {}".format(k, "." * (48 - len(k)), v))
    for r in sorted(rows, key=lambda x: x.lower()):
        emit(t0, lab(0) + r)
    emit(t0, lab(0) + "-------------------- end of arguments ---------------------")
    emit(t0 + 0.5, lab(0) + "> initializing torch distributed ...")
    emit(t0 + 21, lab(0) + "> initialized tensor model parallel with size 1")
    emit(t0 + 21, lab(0) + "> initialized pipeline model parallel with size 1")
    emit(t0 + 22, lab(0) + "> compiling dataset index builder ...")
    emit(t0 + 24, lab(0) + ">>> done with dataset index builder. Compilation time: 0.061 seconds")
    emit(t0 + 31, lab(0) + "time to initialize megatron (seconds): 33.912")
    emit(t0 + 31, lab(0) + f"[after megatron is initialized] datetime: {mtime(t0 + 31)} ")
    emit(t0 + 33, lab(0) + "building GPT model ...")
    emit(t0 + 41, lab(0) + " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8030261248")
    emit(t0 + 60, lab(0) + f" loading checkpoint from {CKPT_DIR} at iteration {first_iter}")
    emit(t0 + 188, lab(0) + f"  successfully loaded checkpoint from {CKPT_DIR} [ t 1/1, p 1/1 ] at iteration {first_iter}")
    emit(t0 + 189, lab(0) + f"[after model, optimizer, and learning rate scheduler are built] datetime: {mtime(t0 + 189)} ")
    emit(t0 + 190, lab(0) + "> building train, validation, and test datasets ...")
    emit(t0 + 190, lab(0) + f" > datasets target sizes (minimum size):")
    emit(t0 + 190, lab(0) + f"    train:      {TRAIN_ITERS * GBS}")
    emit(t0 + 190, lab(0) + f"    validation: {(TRAIN_ITERS // 2000 + 1) * 10 * GBS}")
    emit(t0 + 190, lab(0) + f"    test:       {10 * GBS}")
    emit(t0 + 262, lab(0) + "> finished creating GPT datasets ...")
    emit(t0 + 263, lab(0) + f"[after dataloaders are built] datetime: {mtime(t0 + 263)} ")
    emit(t0 + 263, lab(0) + "done with setup ...")
    emit(t0 + 264, lab(0) + "training ...")
    emit(t0 + 264, lab(0) + f"[before the start of training step] datetime: {mtime(t0 + 264)} ")


def iteration_lines(emit, iters, world, last_rank, iter_nominal):
    prev_t = None
    acc = []
    for k, (i, te) in enumerate(iters):
        if prev_t is not None:
            acc.append(te - prev_t)
        prev_t = te
        if i % LOG_INTERVAL == 0 and acc:
            el = float(np.mean(acc[-LOG_INTERVAL:])) * 1000
            thr = TFLOPS * (iter_nominal * 1000 / el) * (1 + rng.normal(0, 0.001))
            loss = 2.31 - 0.27 * (i - 40000) / 20000 + rng.normal(0, 0.022)
            gn = abs(0.205 + rng.normal(0, 0.02) + (rng.random() < 0.01) * rng.uniform(0.1, 0.5))
            emit(te + 0.003, lab(last_rank) +
                 f" [{mtime(te)}] iteration {i:8d}/{TRAIN_ITERS:8d} | consumed samples: {i * GBS:12d} | "
                 f"elapsed time per iteration (ms): {el:.1f} | throughput per GPU (TFLOP/s/GPU): {thr:.1f} | "
                 f"learning rate: {lr_at(i):.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | "
                 f"loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | "
                 f"number of nan iterations:   0 |")
            acc = []


# ---- job A
linesA = []
seqc = [0]


def emitA(t_s, text):
    seqc[0] += 1
    linesA.append((t_s, seqc[0], text))


megatron_start(emitA, sec(A_SRUN) + 26, 128, START_ITER_A)
iteration_lines(emitA, iters_a, 128, 127, ITER_A)
for it_, a, b in ckpt_times:
    if b < sec(FAULT):
        emitA(a + 0.2, lab(0) + f"saving checkpoint at iteration {it_:7d} to {CKPT_DIR} in torch_dist format")
        emitA(b - 0.3, lab(0) + f"  successfully saved checkpoint from iteration {it_:7d} to {CKPT_DIR} [ t 1/1, p 1/1 ]")

pids = {r: int(rng.integers(1_700_000, 2_300_000)) for r in range(128)}
# NCCL on the faulty node: every rank there holds an async-event thread on mlx5_3
bad_ranks = list(range(BAD * GPUS, BAD * GPUS + GPUS))
for r in bad_ranks:
    lr_ = r % GPUS
    tid = pids[r] + int(rng.integers(300, 900))
    tw = sec(FAULT) + 0.004 + rng.uniform(0, 0.02)
    emitA(tw, lab(r))
    emitA(tw + 1e-6, lab(r) + f"gpu-c1-09:{pids[r]}:{tid} [{lr_}] transport/net_ib.cc:100 NCCL WARN NET/IB : "
                              f"mlx5_{BAD_HCA}:1 Got async event : local catastrophic error")

SEQNUM = 63217
wd = sec(WATCHDOG)
lib = "/usr/local/lib/python3.10/dist-packages/torch/lib"
for r in range(128):
    t0 = wd + rng.uniform(0, 0.09)
    ran = 600004 + int(rng.integers(0, 90))
    g = glog_ts(t0)
    work = (f"WorkNCCL(SeqNum={SEQNUM}, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, "
            f"Timeout(ms)=600000)")
    emitA(t0, lab(r) + f"[rank{r}]:[E{g} ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: "
                       f"{work} ran for {ran} milliseconds before timing out.")
    g2 = glog_ts(t0 + 0.00006)
    emitA(t0 + 6e-5, lab(r) + f"[rank{r}]:[E{g2} ProcessGroupNCCL.cpp:1664] [PG 1 Rank {r}] Exception (either an error or "
                              f"timeout) detected by watchdog at work: {SEQNUM}, last enqueued NCCL work: {SEQNUM + 2}, "
                              f"last completed NCCL work: {SEQNUM - 1}.")
    emitA(t0 + 8e-5, lab(r) + f"[rank{r}]:[E{glog_ts(t0 + 8e-5)} ProcessGroupNCCL.cpp:1709] [PG 1 Rank {r}] Timeout at NCCL "
                              f"work: {SEQNUM}, last enqueued NCCL work: {SEQNUM + 2}, last completed NCCL work: {SEQNUM - 1}.")
    emitA(t0 + 9e-5, lab(r) + f"[rank{r}]:[E{glog_ts(t0 + 9e-5)} ProcessGroupNCCL.cpp:621] [Rank {r}] Some NCCL operations "
                              f"have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU "
                              f"operations might run on corrupted/incomplete data.")
    emitA(t0 + 1e-4, lab(r) + f"[rank{r}]:[E{glog_ts(t0 + 1e-4)} ProcessGroupNCCL.cpp:627] [Rank {r}] To avoid data "
                              f"inconsistency, we are taking the entire process down.")
    t1 = t0 + 0.004
    emitA(t1, lab(r) + f"[rank{r}]:[E{glog_ts(t1)} ProcessGroupNCCL.cpp:1515] [PG 1 Rank {r}] Process group watchdog thread "
                       f"terminated with exception: [Rank {r}] Watchdog caught collective operation timeout: {work} ran for "
                       f"{ran} milliseconds before timing out.")
    base_c10 = int(rng.integers(0x7f0000000000, 0x7fffffffffff)) & ~0xfff
    fr = [
        "Exception raised from checkTimeout at ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:609 (most recent call first):",
        f"frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x{base_c10 + 0xf86:x} in {lib}/libc10.so)",
        f"frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x{base_c10 - 0x4e018000 + 0x8d2:x} in {lib}/libtorch_cuda.so)",
        f"frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0x233 (0x{base_c10 - 0x4e011000 + 0x313:x} in {lib}/libtorch_cuda.so)",
        f"frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x10c (0x{base_c10 - 0x4e00f000 + 0x6fc:x} in {lib}/libtorch_cuda.so)",
        f"frame #4: <unknown function> + 0xdbbf4 (0x{base_c10 - 0x8b0000 + 0xbf4:x} in /lib/x86_64-linux-gnu/libstdc++.so.6)",
        f"frame #5: <unknown function> + 0x94ac3 (0x{base_c10 + 0xe5eac3:x} in /lib/x86_64-linux-gnu/libc.so.6)",
        f"frame #6: clone + 0x44 (0x{base_c10 + 0xeefa04:x} in /lib/x86_64-linux-gnu/libc.so.6)",
        "",
    ]
    for j, f_ in enumerate(fr):
        emitA(t1 + 1e-5 * (j + 1), lab(r) + f_)
    emitA(t1 + 0.0002, lab(r) + "terminate called after throwing an instance of 'c10::DistBackendError'")
    emitA(t1 + 0.00021, lab(r) + f"  what():  [PG 1 Rank {r}] Process group watchdog thread terminated with exception: "
                                 f"[Rank {r}] Watchdog caught collective operation timeout: {work} ran for {ran} milliseconds "
                                 f"before timing out.")
t_end = wd + 2.6
for hi, h in enumerate(HOSTS):
    a, b = hi * 8, hi * 8 + 7
    emitA(t_end + rng.uniform(0, 1.5), f"srun: error: {h['name']}: tasks {a}-{b}: Aborted")
emitA(t_end + 0.2, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
stamp = (SIM_START + timedelta(seconds=t_end + 1.0)).strftime("%Y-%m-%dT%H:%M:%S")
emitA(t_end + 1.0, f"slurmstepd: error: *** STEP 481237.0 ON gpu-c1-01 CANCELLED AT {stamp} ***")
linesA.sort(key=lambda x: (x[0], x[1]))
with open(os.path.join(OUT, "logs", "slurm-481237.out"), "w") as fh:
    for _, _, s in linesA:
        fh.write(s + "\n")

# ---- job B
linesB = []


def emitB(t_s, text):
    seqc[0] += 1
    linesB.append((t_s, seqc[0], text))


megatron_start(emitB, sec(B_SRUN) + 14, 120, last_ckpt)
iteration_lines(emitB, iters_b, 120, 119, ITER_B)
for it_, a, b in ckpt_times:
    if a > sec(B_TRAIN) and b < sec(WIN_END):
        emitB(a + 0.2, lab(0) + f"saving checkpoint at iteration {it_:7d} to {CKPT_DIR} in torch_dist format")
        emitB(b - 0.3, lab(0) + f"  successfully saved checkpoint from iteration {it_:7d} to {CKPT_DIR} [ t 1/1, p 1/1 ]")
linesB.sort(key=lambda x: (x[0], x[1]))
with open(os.path.join(OUT, "logs", "slurm-481305.out"), "w") as fh:
    for t_s, _, s in linesB:
        if t_s <= sec(WIN_END):
            fh.write(s + "\n")

# ---------------------------------------------------------------- slurmctld.log


def sl_ts(t_s):
    d = SIM_START + timedelta(seconds=t_s)
    return "[" + d.strftime("%Y-%m-%dT%H:%M:%S") + f".{int((t_s % 1) * 1000):03d}]"


ctl = []
ctl.append((sec(A_SRUN) - 6.2, "_slurm_rpc_submit_batch_job: JobId=481237 InitPrio=4294840661 usec=1184"))
ctl.append((sec(A_SRUN) - 5.9, "sched: Allocate JobId=481237 NodeList=gpu-c1-[01-16] #CPUs=1792 Partition=train"))
subs = sorted(list(rng.uniform(sec(A_SRUN) + 600, sec(B_SUBMIT) - 30, 481305 - 481238))
              + list(rng.uniform(sec(B_SUBMIT) + 60, sec(WIN_END), 5)))
jid = 481238
for t_ in subs:
    if jid == 481305:
        jid = 481306
    ctl.append((t_, f"_slurm_rpc_submit_batch_job: JobId={jid} InitPrio=4294840{int(rng.integers(100, 999))} usec={int(rng.integers(300, 2500))}"))
    ctl.append((t_ + 0.4, f"sched/backfill: _start_job: Started JobId={jid} in cpu on cpu-a{int(rng.integers(1, 24)):02d}"))
    ctl.append((t_ + rng.uniform(200, 3000), f"_job_complete: JobId={jid} WEXITSTATUS 0"))
    jid += 1
ctl.append((sec(A_DEAD) + 0.6, "_job_complete: JobId=481237 WEXITSTATUS 134"))
ctl.append((sec(A_DEAD) + 0.61, "_job_complete: JobId=481237 done"))
ctl.append((sec(DRAIN), "update_node: node gpu-c1-09 reason set to: mlx5_3 dead (fw health), IB port down, NCCL hang job 481237"))
ctl.append((sec(DRAIN) + 0.001, "update_node: node gpu-c1-09 state set to DRAINED"))
ctl.append((sec(B_SUBMIT), "_slurm_rpc_submit_batch_job: JobId=481305 InitPrio=4294840612 usec=1307"))
ctl.append((sec(B_SUBMIT) + 0.5, "sched: Allocate JobId=481305 NodeList=gpu-c1-[01-08,10-16] #CPUs=1680 Partition=train"))
ctl.sort()
with open(os.path.join(OUT, "logs", "slurmctld.log"), "w") as fh:
    for t_, s in ctl:
        if t_ <= sec(WIN_END):
            fh.write(f"{sl_ts(t_)} {s}\n")

# ---------------------------------------------------------------- /var/log/messages per host


def syslog_ts(t_s):
    d = SIM_START + timedelta(seconds=t_s)
    return d.strftime("%b %e %H:%M:%S")


BAD_PCI = HCA_PCI[BAD_HCA]
for hi, h in enumerate(HOSTS):
    ev = []
    host = h["name"]
    # sysstat timer every 10 min
    t_ = sec(T("2025-10-20 19:00:00"))
    while t_ < sec(WIN_END):
        j = t_ + 1 + rng.uniform(0, 0.4)
        ev.append((j, "systemd[1]: Starting system activity accounting tool..."))
        ev.append((j + 0.05, "systemd[1]: sysstat-collect.service: Succeeded."))
        ev.append((j + 0.06, "systemd[1]: Started system activity accounting tool."))
        t_ += 600
    # chrony source reselection, rare
    for _ in range(int(rng.integers(0, 3))):
        ev.append((sec(WIN_START) + rng.uniform(-3 * 3600, 2.7 * 3600), f"chronyd[{int(rng.integers(1500, 2100))}]: Selected source 10.20.0.{int(rng.choice([2, 3]))}"))
    sl_pid = int(rng.integers(2100, 2600))
    ev.append((sec(A_SRUN) + 0.3, f"slurmd[{sl_pid}]: slurmd: launch task StepId=481237.0 request from UID:20417 GID:20417 HOST:10.20.1.101 PORT:{int(rng.integers(30000, 60000))}"))
    ev.append((sec(A_SRUN) + 0.35, f"slurmd[{sl_pid}]: slurmd: task/affinity: lllp_distribution: JobId=481237 manual binding: none,one_thread"))
    for s in range(4):
        for _ in range(GPUS):
            ev.append((sec(A_SRUN) + 18 + rng.uniform(0, 2), f"kernel: nvidia-nvswitch{s}: open (major=507)"))
    # end of job A: GPUDirect RDMA mappings torn down
    dead_t = sec(A_DEAD) - rng.uniform(1, 4)
    for _ in range(int(rng.integers(3, 9))):
        ev.append((dead_t + rng.uniform(0, 0.01), "kernel: nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"))
    ev.append((sec(A_DEAD) + 0.5, f"slurmstepd[{int(rng.integers(3_000_000, 3_900_000))}]: done with job"))
    if hi != BAD:
        ev.append((sec(B_SRUN) + 0.3, f"slurmd[{sl_pid}]: slurmd: launch task StepId=481305.0 request from UID:20417 GID:20417 HOST:10.20.1.101 PORT:{int(rng.integers(30000, 60000))}"))
        for s in range(4):
            for _ in range(GPUS):
                ev.append((sec(B_SRUN) + 17 + rng.uniform(0, 2), f"kernel: nvidia-nvswitch{s}: open (major=507)"))
    if hi == BAD:
        tf = sec(FAULT)
        ent = [
            ("poll_health:694:(pid 0): Fatal error 1 detected", 0.0),
            ("print_health_info:372:(pid 0): assert_var[0] 0xffffffff", 8e-6),
            ("print_health_info:372:(pid 0): assert_var[1] 0xffffffff", 1.1e-5),
            ("print_health_info:372:(pid 0): assert_var[2] 0xffffffff", 1.3e-5),
            ("print_health_info:372:(pid 0): assert_var[3] 0xffffffff", 1.6e-5),
            ("print_health_info:372:(pid 0): assert_var[4] 0xffffffff", 1.9e-5),
            ("print_health_info:375:(pid 0): assert_exit_ptr 0xffffffff", 2.1e-5),
            ("print_health_info:377:(pid 0): assert_callra 0xffffffff", 2.5e-5),
            ("print_health_info:380:(pid 0): fw_ver 65535.65535.65535", 2.9e-5),
            ("print_health_info:381:(pid 0): hw_id 0xffffffff", 3.3e-5),
            ("print_health_info:382:(pid 0): irisc_index 255", 3.6e-5),
            ("print_health_info:383:(pid 0): synd 0xff: unrecognized error", 5.0e-5),
            ("print_health_info:385:(pid 0): ext_synd 0xffff", 1.79e-4),
            ("print_health_info:387:(pid 0): raw fw_ver 0xffffffff", 1.82e-4),
        ]
        for msg, d in ent:
            ev.append((tf + d, f"kernel: mlx5_core {BAD_PCI}: {msg}"))
        t2 = tf + 10.651778
        ev.append((t2, f"kernel: mlx5_core {BAD_PCI}: poll_health:709:(pid 0): device's health compromised - reached miss count"))
        for msg, d in ent[1:]:
            ev.append((t2 + d, f"kernel: mlx5_core {BAD_PCI}: {msg}"))
        # job teardown after the watchdog abort: QP destroy and counter queries time out
        td = sec(A_DEAD) + 53.4
        ev.append((td, f"kernel: mlx5_core {BAD_PCI}: wait_func:991:(pid 121): 2RST_QP(0x50a) timeout. Will cause a leak of a command resource"))
        ev.append((td + 1.2e-5, f"kernel: infiniband mlx5_{BAD_HCA}: destroy_qp_common:2525:(pid 121): mlx5_ib: modify QP 0x00072c to RESET failed"))
        ev.append((td + 40.96, f"kernel: mlx5_core {BAD_PCI}: wait_func:991:(pid 32): QUERY_VPORT_COUNTER(0x770) timeout. Will cause a leak of a command resource"))
        ev.append((td + 61.44, f"kernel: mlx5_core {BAD_PCI}: wait_func:991:(pid 121): DESTROY_QP(0x501) timeout. Will cause a leak of a command resource"))
        # an admin logs in to look
        ts_ = sec(T("2025-10-21 02:21:12"))
        sp = int(rng.integers(3_900_000, 4_000_000))
        ev.append((ts_, f"sshd[{sp}]: Accepted publickey for hpcadmin from 10.20.0.15 port 52218 ssh2: ED25519 SHA256:3qG1k0yF9m0Vd2nQ8sJw7cX4pLr6tBzUaHe5WfKiN0o"))
        ev.append((ts_ + 0.08, "systemd-logind[1622]: New session 1187 of user hpcadmin."))
        ev.append((ts_ + 0.1, "systemd[1]: Started Session 1187 of user hpcadmin."))
        ev.append((ts_ + 548.0, f"sshd[{sp}]: pam_unix(sshd:session): session closed for user hpcadmin"))
        ev.append((ts_ + 548.1, "systemd-logind[1622]: Session 1187 logged out. Waiting for processes to exit."))
        ev.append((ts_ + 548.2, "systemd-logind[1622]: Removed session 1187."))
    ev.sort()
    os.makedirs(os.path.join(OUT, "logs", host), exist_ok=True)
    with open(os.path.join(OUT, "logs", host, "messages"), "w") as fh:
        for t_, msg in ev:
            if t_ <= sec(WIN_END):
                fh.write(f"{syslog_ts(t_)} {host} {msg}\n")

# ---------------------------------------------------------------- incident.yaml / truth.yaml
incident = {
    "id": "megatron-ib-hca-fatal",
    "title": "gpt8b-base-v3 (job 481237) hung at 02:07 and died on NCCL timeout; restarted as 481305 on 15 nodes",
    "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
    "baseline": {"start": WIN_START.isoformat(), "end": BASE_END.isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "hgx-c1", "nodes": N_HOSTS, "gpus_per_node": GPUS, "gpu_model": "H100"},
}
with open(os.path.join(OUT, "incident.yaml"), "w") as fh:
    yaml.safe_dump(incident, fh, sort_keys=False)

tok_a = GBS * SEQ / ITER_A
tok_b = GBS * SEQ / ITER_B
fault_to_end = sec(WIN_END) - sec(FAULT)
first_b_iter = iters_b[0][1]
zero_s = first_b_iter - sec(FAULT)
# tokens actually lost vs baseline over [fault, window end]: zero throughput until B trains, then -1/16
processed = (sec(WIN_END) - first_b_iter) * tok_b
expected = fault_to_end * tok_a
loss_window = float(round(100 * (1 - processed / expected), 1))
truth = {
    "id": "megatron-ib-hca-fatal",
    "cause": ("The ConnectX InfiniBand HCA mlx5_3 (PCI 0000:5e:00.0) on gpu-c1-09 hit a fatal firmware/health error at "
              "02:07:41Z and its IB port went down; the data-parallel all-reduce hung on all 128 ranks until the 600 s "
              "NCCL watchdog aborted the job, which was restarted 15 minutes later without gpu-c1-09."),
    "cause_metrics": [
        "node_infiniband_state_id{device=\"mlx5_3\",instance=\"10.20.1.109:9100\"} 4 -> 1",
        "node_infiniband_physical_state_id{device=\"mlx5_3\",instance=\"10.20.1.109:9100\"} 5 -> 3",
        "node_infiniband_link_downed_total{device=\"mlx5_3\",instance=\"10.20.1.109:9100\"} +1",
        "node_infiniband_port_data_received_bytes_total / _transmitted_ (all hosts go flat during the hang; mlx5_3 on gpu-c1-09 frozen after)",
        "DCGM_FI_DEV_POWER_USAGE and DCGM_FI_PROF_PIPE_TENSOR_ACTIVE drop on all GPUs while DCGM_FI_DEV_GPU_UTIL stays 100 (NCCL kernels spinning) 02:07:41-02:17:47",
    ],
    "cause_log_evidence": [
        {
            "where": "logs/gpu-c1-09/messages (kernel)",
            "text": [
                "mlx5_core 0000:5e:00.0: poll_health:694:(pid 0): Fatal error 1 detected",
                "mlx5_core 0000:5e:00.0: print_health_info:372:(pid 0): assert_var[0] 0xffffffff  (... assert_var[1..4], assert_exit_ptr, assert_callra)",
                "mlx5_core 0000:5e:00.0: print_health_info:380:(pid 0): fw_ver 65535.65535.65535",
                "mlx5_core 0000:5e:00.0: print_health_info:383:(pid 0): synd 0xff: unrecognized error",
                "mlx5_core 0000:5e:00.0: print_health_info:385:(pid 0): ext_synd 0xffff",
                "mlx5_core 0000:5e:00.0: poll_health:709:(pid 0): device's health compromised - reached miss count",
                "mlx5_core 0000:5e:00.0: wait_func:991:(pid 121): 2RST_QP(0x50a) timeout. Will cause a leak of a command resource",
                "infiniband mlx5_3: destroy_qp_common:2525:(pid 121): mlx5_ib: modify QP 0x00072c to RESET failed",
                "mlx5_core 0000:5e:00.0: wait_func:991:(pid 32): QUERY_VPORT_COUNTER(0x770) timeout. Will cause a leak of a command resource",
                "mlx5_core 0000:5e:00.0: wait_func:991:(pid 121): DESTROY_QP(0x501) timeout. Will cause a leak of a command resource",
            ],
            "source": ("netdev mailing list, Niklas Schnelle, '[REGRESSION] mlx5: Driver remove during hot unplug is broken', "
                       "2020-06-12, Message-ID <f942d546-ee7e-60f6-612a-ae093a9459a5@linux.ibm.com> "
                       "(https://lore.kernel.org/netdev/f942d546-ee7e-60f6-612a-ae093a9459a5@linux.ibm.com/), its '[0] dmesg output'"),
            "adapted": ("PCI address 0000:00:00.0 -> 0000:5e:00.0, 'infiniband mlx5_0' -> 'infiniband mlx5_3', timestamps "
                        "(dmesg seconds -> syslog time, relative spacing kept); two s390-only lines of the original "
                        "(crw_info, zpci) left out; message text, function names, line numbers and pids verbatim"),
        },
        {
            "where": "logs/slurm-481237.out (ranks 64-71 = gpu-c1-09)",
            "text": "gpu-c1-09:<pid>:<tid> [<gpu>] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_3:1 Got async event : local catastrophic error",
            "source": "https://github.com/vllm-project/vllm/issues/7882 ('sophia-gpu-16:2266680:2267692 [0] transport/net_ib.cc:100 NCCL WARN NET/IB : mlx5_1:1 Got async event : local catastrophic error')",
            "adapted": "host name, pid:tid, CUDA device index and HCA name (mlx5_1 -> mlx5_3)",
        },
        {
            "where": "logs/slurm-481237.out (all 128 ranks at 02:17:41)",
            "text": [
                "[rankN]:[E1021 02:17:41.xxx ProcessGroupNCCL.cpp:607] [Rank N] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=63217, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 6000xx milliseconds before timing out.",
                "[rankN]:[E... ProcessGroupNCCL.cpp:1664] [PG 1 Rank N] Exception (either an error or timeout) detected by watchdog at work: 63217, last enqueued NCCL work: 63219, last completed NCCL work: 63216.",
                "[rankN]:[E... ProcessGroupNCCL.cpp:1709] [PG 1 Rank N] Timeout at NCCL work: ...",
                "[rankN]:[E... ProcessGroupNCCL.cpp:621] [Rank N] Some NCCL operations have failed or timed out. ...",
                "[rankN]:[E... ProcessGroupNCCL.cpp:627] [Rank N] To avoid data inconsistency, we are taking the entire process down.",
                "[rankN]:[E... ProcessGroupNCCL.cpp:1515] [PG 1 Rank N] Process group watchdog thread terminated with exception: ...",
            ],
            "source": ("https://github.com/hiyouga/LlamaFactory/issues/7396 (607/1664 lines, the WorkNCCL ALLREDUCE "
                       "NumelIn=466119168 ... Timeout(ms)=600000 record and the c10 frame list); "
                       "https://github.com/hiyouga/LlamaFactory/issues/6269 (1709/621/627 lines); "
                       "https://github.com/GAIR-NLP/DeepResearcher/issues/16 (1515 line)"),
            "adapted": "rank numbers, timestamps, SeqNum / last enqueued / last completed work numbers, 'ran for' milliseconds, frame addresses and library paths",
        },
    ],
    "benign_lookalikes": [
        "nvidia-peermem 'nv_get_p2p_free_callback:127 ERROR detected invalid context' on every host when job 481237 dies "
        "(real line from leptonai/gpud testdata pkg/kmsg/testdata/kmsg.2.peermem.log; GPUDirect teardown, a consequence)",
        "checkpoint saves every 1000 iterations (~35 s pauses, one slow Megatron log interval each)",
        f"the iteration counter goes back from {last_iter_a} to {last_ckpt} when job 481305 resumes from its checkpoint",
    ],
    "hosts": ["gpu-c1-09"],
    "gpu": None,
    "hca": {"host": "gpu-c1-09", "device": "mlx5_3", "pci": "0000:5e:00.0", "port": 1},
    "onset": FAULT.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    "watchdog_timeout_at": WATCHDOG.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    "job_killed_at": A_DEAD.isoformat(timespec="seconds").replace("+00:00", "Z"),
    "restart_submitted_at": B_SUBMIT.isoformat(timespec="seconds").replace("+00:00", "Z"),
    "training_resumed_at": (SIM_START + timedelta(seconds=first_b_iter)).isoformat(timespec="seconds").replace("+00:00", "Z"),
    "job_throughput_loss_pct": loss_window,
    "job_throughput_loss_note": (f"tokens/s over onset..window end vs baseline: 100% for {zero_s / 60:.0f} min (hang, "
                                 f"crash, 15 min wait, restart), then 6.25% lower per job on 15 nodes "
                                 f"({tok_a:,.0f} -> {tok_b:,.0f} tokens/s); per-GPU TFLOP/s unchanged; "
                                 f"iterations {last_ckpt + 1}-{last_iter_a} were lost and redone"),
    "what_a_good_postmortem_says": (
        "At 02:07:41 UTC the ConnectX HCA mlx5_3 on gpu-c1-09 died (mlx5_core fatal health error, health buffer all "
        "ones, port state down, link_downed +1) and NCCL there logged 'local catastrophic error'; the job's all-reduce "
        "never completed, so all 128 GPUs sat at 100% utilisation with low power and zero tensor activity and zero IB "
        "traffic for 10 minutes until PyTorch's 600 s NCCL watchdog aborted every rank. gpu-c1-09 was drained and the "
        "job restarted from the iteration-48000 checkpoint on 15 nodes, about 31 minutes of zero throughput in all, "
        "after which job throughput is 1/16 lower while per-GPU throughput is unchanged; the HCA (or its firmware) "
        "needs replacing/reflashing before the node returns, and a shorter NCCL timeout or an IB health check would "
        "have cut the 10-minute hang."
    ),
}
with open(os.path.join(OUT, "truth.yaml"), "w") as fh:
    yaml.safe_dump(truth, fh, sort_keys=False, width=120)
print("loss over onset..end", loss_window, "zero minutes", zero_s / 60)
