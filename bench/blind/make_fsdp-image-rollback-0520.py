#!/usr/bin/env python3
"""Generate incident folder `fsdp-image-rollback-0520` beside this script.

Slurm cluster, 16 HGX H100 nodes (128 GPUs), FSDP2 pretraining of an 8B model
launched as `srun --label ... torchrun` inside a retry loop in the batch script.
The job was moved on 2025-05-20 01:31 UTC to a new container image
(llm-train 25.05: torch 2.6.0+cu124, bitsandbytes 0.45.5).  From the step-18000
checkpoint the run crashes each time near step 18,6xx with "CUDA error: an illegal
memory access was encountered" in the 8-bit AdamW step, on a different rank each
time (rank 37, 92, 5, 121), with the matching Xid 13/43 on whichever GPU that rank
ran.  The batch loop restarts it from the checkpoint three times; after the fourth
crash the team resubmits on the previous image (25.03) and it runs clean.
No hardware is at fault.

Fixed seed; byte-for-byte reproducible.  Writes <here>/fsdp-image-rollback-0520/.
"""
from __future__ import annotations

import math
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import yaml

ID = "fsdp-image-rollback-0520"
HERE = Path(__file__).resolve().parent
OUT = HERE / ID
SEED = 5202025
rng = np.random.default_rng(SEED)
UTC = timezone.utc

W0 = datetime(2025, 5, 20, 2, 0, 0, tzinfo=UTC)
W1 = datetime(2025, 5, 20, 8, 0, 0, tzinfo=UTC)
BASE1 = datetime(2025, 5, 20, 2, 45, 0, tzinfo=UTC)
T0, T1 = W0.timestamp(), W1.timestamp()
STEP = 30.0


def at(h, m, s=0.0):
    return datetime(2025, 5, 20, h, m, 0, tzinfo=UTC).timestamp() + s


def ts(x):
    return datetime.fromtimestamp(x, tz=UTC)


def gpu_uuid():
    h = "".join(rng.choice(list("0123456789abcdef"), 32))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


HOSTS = [f"hgx-b{i:02d}" for i in range(1, 17)]
HIDX = {h: i for i, h in enumerate(HOSTS)}
PCI = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.127.05"
UUIDS = {(h, g): gpu_uuid() for h in HOSTS for g in range(8)}
SERIAL = {(h, g): str(int(rng.integers(1650120000000, 1654999999999))) for h in HOSTS for g in range(8)}
BOOT = {h: at(2, 0) - float(rng.uniform(14, 41)) * 86400 for h in HOSTS}

JOB1, JOB2 = 4417702, 4418133
IMG_NEW = "/lustre/fs1/images/llm-train_25.05.sqsh"
IMG_OLD = "/lustre/fs1/images/llm-train_25.03.sqsh"
GBS_TOK = 1024 * 4096
STEP_NEW = 3.95
STEP_OLD = 4.00
CKPT_EVERY = 1000
CKPT_SAVE = 39.0
LOG_EVERY = 10

# crashes: (rank, approx step)
CRASH = [(37, 18617), (92, 18603), (5, 18621), (121, 18609)]


def host_of(rank):
    return HOSTS[rank // 8], rank % 8


# ------------------------------------------------------------------------------
# Timeline of steps (srun attempts) -- computed forward
# ------------------------------------------------------------------------------
def run_steps(start_step, t_train, stop_step=None, t_stop=None, per=STEP_NEW):
    its, ends, ck = [], [], []
    t, s, ar = t_train, start_step, 0.0
    while True:
        ar = 0.8 * ar + rng.normal(0, 0.004)
        dt = per * (1 + ar + rng.normal(0, 0.003))
        t += dt
        s += 1
        if (stop_step is not None and s > stop_step) or (t_stop is not None and t > t_stop):
            break
        its.append(s)
        ends.append(t)
        f = s % CKPT_EVERY == 0
        ck.append(f)
        if f:
            t += CKPT_SAVE + rng.normal(0, 1.5)
    return np.array(its), np.array(ends), np.array(ck)


attempts = []  # dict per srun step
# step .0: launched 01:31:10 from checkpoint 17000 (previous job, old image)
srun0 = at(1, 31, 10.4)
train0 = srun0 + 62.0 + 171.0 + 38.0
its, ends, ck = run_steps(17000, train0, stop_step=CRASH[0][1])
attempts.append(dict(job=JOB1, step=0, srun=srun0, train=train0, resume=17000, its=its, ends=ends, ck=ck,
                     crash_rank=CRASH[0][0], crash_t=ends[-1] + 2.1, image=IMG_NEW))
for k in range(1, 4):
    prev = attempts[-1]
    s0 = prev["crash_t"] + 6.5 + 30.0 + float(rng.uniform(0, 2))  # srun teardown, batch loop sleep 30
    tr = s0 + 58.0 + float(rng.uniform(0, 8)) + 168.0 + float(rng.uniform(0, 9)) + 37.0
    its, ends, ck = run_steps(18000, tr, stop_step=CRASH[k][1])
    attempts.append(dict(job=JOB1, step=k, srun=s0, train=tr, resume=18000, its=its, ends=ends, ck=ck,
                         crash_rank=CRASH[k][0], crash_t=ends[-1] + 2.0 + float(rng.uniform(0, 1)), image=IMG_NEW))
JOB1_END = attempts[-1]["crash_t"] + 38.0
# rollback job
JOB2_SUBMIT = at(6, 18, 41.0)
srun_r = at(6, 19, 2.0) + 14.0
train_r = srun_r + 61.0 + 174.0 + 36.0
its, ends, ck = run_steps(18000, train_r, t_stop=T1 + 200, per=STEP_OLD)
attempts.append(dict(job=JOB2, step=0, srun=srun_r, train=train_r, resume=18000, its=its, ends=ends, ck=ck,
                     crash_rank=None, crash_t=None, image=IMG_OLD))

CKPT_WIN = []
for a in attempts:
    for e in a["ends"][a["ck"]]:
        CKPT_WIN.append((e, e + CKPT_SAVE))


def activity(t):
    """Returns activity a in [0,1] and fb fraction, same for all hosts (synchronous job)."""
    a = np.zeros_like(t)
    fb = np.zeros_like(t)
    for at_ in attempts:
        end = at_["crash_t"] if at_["crash_t"] else T1 + 1e6
        m_init = (t >= at_["srun"] + 58) & (t < at_["train"] - 37)
        frac = np.clip((t - (at_["srun"] + 58)) / 170.0, 0, 1)
        a[m_init] = 0.05
        fb[m_init] = 0.05 + 0.6 * frac[m_init]
        m_warm = (t >= at_["train"] - 37) & (t < at_["train"])
        a[m_warm] = 0.4
        fb[m_warm] = 0.9
        m_tr = (t >= at_["train"]) & (t < end)
        a[m_tr] = 1.0
        fb[m_tr] = 1.0
    for c0, c1 in CKPT_WIN:
        m = (t >= c0) & (t < c1) & (a > 0.9)
        a[m] = 0.07
    return a, fb


# ------------------------------------------------------------------------------
# Metrics
# ------------------------------------------------------------------------------
if OUT.exists():
    shutil.rmtree(OUT)
(OUT / "metrics" / "dcgm").mkdir(parents=True)
(OUT / "logs").mkdir(parents=True)


def scrape_times(off):
    k = np.arange(int((T1 - T0) / STEP) + 1)
    t = T0 + off + k * STEP + rng.normal(0, 0.003, k.size)
    return t[(t >= T0) & (t < T1)]


def lag(target, tau, dt=STEP):
    out = np.empty_like(target)
    x = target[0]
    al = 1 - math.exp(-dt / tau)
    for i, v in enumerate(target):
        x += al * (v - x)
        out[i] = x
    return out


def ar1(n, sigma, phi=0.7):
    e = rng.normal(0, sigma * math.sqrt(1 - phi * phi), n)
    out = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc = phi * acc + e[i]
        out[i] = acc
    return out


DCGM_METRICS = ["DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK",
                "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"]
dcgm_files = {m: open(OUT / "metrics" / "dcgm" / f"{m}.csv", "w") for m in DCGM_METRICS}
for m, f in dcgm_files.items():
    f.write("timestamp,metric,value,Hostname,gpu,UUID,device,modelName,DCGM_FI_DRIVER_VERSION,instance,job\n")

crash_gpu = {}
for a_ in attempts:
    if a_["crash_rank"] is not None:
        crash_gpu[host_of(a_["crash_rank"])] = a_["crash_t"]

print("dcgm ...")
for h in HOSTS:
    off = float(rng.uniform(0, STEP))
    t = scrape_times(off)
    a, fbf = activity(t)
    busy = a > 0.9
    inlet = rng.normal(0, 1.3)
    for g in range(8):
        p_off, t_off, c_off, fb_off = rng.normal(0, 12), rng.normal(0, 2.0) + inlet, rng.normal(0, 20), rng.normal(0, 350)
        util = np.where(busy, np.where(rng.random(t.size) < 0.7, 100, np.clip(np.round(98.6 + rng.normal(0, 1.1, t.size)), 90, 100)), 0)
        util = np.where((a > 0.03) & (a < 0.9), rng.choice([0, 0, 4, 11, 23, 37, 52], t.size), util)
        power = np.where(busy, 641 + p_off + 8 * ar1(t.size, 1), 69.8 + 0.15 * p_off + rng.normal(0, 0.7, t.size))
        power = np.where((a > 0.03) & (a < 0.9), 120 + 250 * a + rng.normal(0, 20, t.size), power)
        power = np.clip(power, 60, 699)
        temp = np.round(lag(29.0 + 0.057 * power + t_off, 80.0) + rng.normal(0, 0.35, t.size))
        clk = np.where(busy, 1920 + c_off - 0.5 * (power - 641) + rng.normal(0, 12, t.size), 345)
        clk = np.where((a > 0.03) & (a < 0.9), 1980, clk)
        clk = np.clip(np.round(clk / 15) * 15, 345, 1980)
        fb = np.round(np.where(fbf > 0, fbf * (70240 + fb_off) + rng.normal(0, 25, t.size) * (fbf > 0.95), 0))
        gr = np.where(busy, np.clip(0.938 + rng.normal(0, 0.009, t.size), 0, 1), util / 100 * 0.85)
        xid = np.zeros(t.size)
        if (h, g) in crash_gpu:
            xid = np.where(t >= crash_gpu[(h, g)] - 0.2, 43.0, 0.0)
        # dcgm-exporter collects every 30 s, equal to the scrape interval: one fresh value per scrape
        cols = {"DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3), "DCGM_FI_DEV_GPU_TEMP": temp,
                "DCGM_FI_DEV_SM_CLOCK": clk, "DCGM_FI_DEV_FB_USED": fb, "DCGM_FI_DEV_XID_ERRORS": xid,
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6)}
        lab = f'{h},{g},{UUIDS[(h, g)]},nvidia{g},{MODEL},{DRIVER},{h}:9400,dcgm'
        for m, v in cols.items():
            f = dcgm_files[m]
            tms = (t * 1000).astype(np.int64)
            for x, val in zip(tms, v):
                sval = f"{val:g}" if m != "DCGM_FI_DEV_POWER_USAGE" else f"{val:.3f}"
                f.write(f"{x},{m},{sval},{lab}\n")
for f in dcgm_files.values():
    f.close()

print("node_exporter ...")
fam = {}  # family -> (type, help, list of lines)


def om_add(family, typ, help_, name, labels, t, v, fmt="{:g}"):
    if family not in fam:
        fam[family] = (typ, help_, [])
    lab = ",".join(f'{k}="{val}"' for k, val in labels.items())
    out = fam[family][2]
    for x, val in zip(t, v):
        out.append(f"{name}{{{lab}}} {fmt.format(val)} {x:.3f}")


KREL = "5.15.0-131-generic"
KVER = "#141-Ubuntu SMP Fri Jan 10 21:18:28 UTC 2025"
for h in HOSTS:
    t = scrape_times(float(rng.uniform(0, STEP)))
    dtv = np.diff(t, prepend=t[0] - STEP)
    a, _ = activity(t)
    busy = a > 0.9
    base = {"instance": f"{h}:9100", "job": "node"}
    om_add("node_load1", "gauge", "1m load average.", "node_load1", base, t,
           np.round(np.where(busy, 33 + 3 * ar1(t.size, 1, 0.9), np.where(a > 0, 14 + rng.exponential(3, t.size), 0.9 + rng.exponential(0.4, t.size))), 2))
    om_add("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.", "node_memory_MemAvailable_bytes", base, t,
           np.round(np.where(a > 0, 1.61e12, 1.95e12) + rng.normal(0, 3e9, t.size)))
    root_sz = 1888573456384
    av = root_sz * rng.uniform(0.78, 0.88) - (t - T0) * rng.uniform(20e3, 60e3)
    om_add("node_filesystem_avail_bytes", "gauge", "Filesystem space available to non-root users in bytes.", "node_filesystem_avail_bytes",
           {**base, "device": "/dev/nvme0n1p2", "fstype": "ext4", "mountpoint": "/"}, t, np.round(av))
    om_add("node_filesystem_size_bytes", "gauge", "Filesystem size in bytes.", "node_filesystem_size_bytes",
           {**base, "device": "/dev/nvme0n1p2", "fstype": "ext4", "mountpoint": "/"}, t, np.full(t.size, float(root_sz)))
    io = float(rng.uniform(2e4, 9e4)) + np.cumsum((0.003 + 0.002 * busy) * dtv)
    om_add("node_disk_io_time_seconds", "counter", "Total seconds spent doing I/Os.", "node_disk_io_time_seconds_total",
           {**base, "device": "nvme0n1"}, t, np.round(io, 3), "{:.3f}")
    rx = np.where(a > 0, 9e6, 1.5e6) * (1 + rng.normal(0, 0.1, t.size)).clip(0.2)
    om_add("node_network_receive_bytes", "counter", "Network device statistic receive_bytes.", "node_network_receive_bytes_total",
           {**base, "device": "bond0"}, t, np.round(float(rng.uniform(1e13, 5e13)) + np.cumsum(rx * dtv)), "{:.0f}")
    for p in range(8):
        dev = {**base, "device": f"mlx5_{p}", "port": "1"}
        r = np.where(busy, 1.12e10, np.where(a > 0, 4e7, 1.5e3)) * (1 + rng.normal(0, 0.03, t.size))
        om_add("node_infiniband_port_data_transmitted_bytes", "counter", "Number of data octets transmitted on all links",
               "node_infiniband_port_data_transmitted_bytes_total", dev, t, np.round(float(rng.uniform(1e16, 6e16)) + np.cumsum(r * dtv)), "{:.0f}")
        om_add("node_infiniband_port_data_received_bytes", "counter", "Number of data octets received on all links",
               "node_infiniband_port_data_received_bytes_total", dev, t, np.round(float(rng.uniform(1e16, 6e16)) + np.cumsum(r * 1.001 * dtv)), "{:.0f}")
        om_add("node_infiniband_link_downed", "counter", "Number of times the link failed to recover from an error state and went down",
               "node_infiniband_link_downed_total", dev, t, np.full(t.size, float(rng.choice([0, 0, 0, 1]))), "{:.0f}")
    om_add("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.", "node_uname_info",
           {**base, "domainname": "(none)", "machine": "x86_64", "nodename": h, "release": KREL, "sysname": "Linux", "version": KVER},
           t, np.ones(t.size), "{:.0f}")
    om_add("up", "gauge", "Scrape target health.", "up", base, t, np.ones(t.size), "{:.0f}")

with open(OUT / "metrics" / "node_exporter.om", "w") as f:
    for family, (typ, help_, lines) in fam.items():
        f.write(f"# HELP {family} {help_}\n# TYPE {family} {typ}\n")
        f.write("\n".join(lines) + "\n")
    f.write("# EOF\n")

# ------------------------------------------------------------------------------
# Logs
# ------------------------------------------------------------------------------
print("logs ...")
out = []  # (t, line) for slurm-JOB1.out ; out2 for JOB2
out2 = []


def L(buf, x, task, line):
    buf.append((x, f"{task:2d}: {line}" if task is not None else line))


def titan(x, msg):
    d = ts(x)
    return f"[rank0]:[llmtrain] {d.strftime('%Y-%m-%d %H:%M:%S')},{d.microsecond // 1000:03d} - root - INFO - {msg}"


def glog_py(sev, x, pid, src, msg):
    d = ts(x)
    return f"{sev}{d.strftime('%m%d %H:%M:%S')}.{(d.microsecond // 1000) * 1000:06d} {pid} {src}] {msg}"


def attempt_logs(buf, a, k, total, versions):
    x = a["srun"] - 0.6
    L(buf, x, None, f"[{ts(x).strftime('%Y-%m-%dT%H:%M:%S+00:00')}] attempt {k}/{total}: image {a['image']} (resume from latest checkpoint)")
    agent_pid = {h: int(rng.integers(2600, 3100)) for h in HOSTS}
    a["agent_pid"] = agent_pid
    a["wpids"] = {h: sorted(int(agent_pid[h] + 40 + 9 * j + rng.integers(0, 6)) for j in range(8)) for h in HOSTS}
    for i, h in enumerate(HOSTS):
        y = a["srun"] + 9.0 + rng.uniform(0, 2.5)
        L(buf, y, i, glog_py("W", y, agent_pid[h], "torch/distributed/run.py:792", ""))
        L(buf, y + 0.0001, i, glog_py("W", y, agent_pid[h], "torch/distributed/run.py:792", "*****************************************"))
        L(buf, y + 0.0002, i, glog_py("W", y, agent_pid[h], "torch/distributed/run.py:792", "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        L(buf, y + 0.0003, i, glog_py("W", y, agent_pid[h], "torch/distributed/run.py:792", "*****************************************"))
    y = a["srun"] + 52.0
    L(buf, y, 0, titan(y, "Starting job: llm-8b pretraining (fsdp2, bf16)"))
    L(buf, y + 0.01, 0, titan(y + 0.01, versions))
    L(buf, y + 0.4, 0, titan(y + 0.4, "Building 1-D device mesh with ['dp_shard'], [128]"))
    L(buf, y + 0.5, 0, titan(y + 0.5, "GPU capacity: NVIDIA H100 80GB HBM3 (0) with 79.11GiB memory"))
    L(buf, y + 1.9, 0, titan(y + 1.9, "Model llama3 8B size: 8,030,261,248 total parameters"))
    L(buf, y + 3.2, 0, titan(y + 3.2, "Applied selective activation checkpointing to the model"))
    L(buf, y + 3.5, 0, titan(y + 3.5, "Applied FSDP to the model"))
    L(buf, y + 5.1, 0, titan(y + 5.1, "CUDA memory usage for model: 3.87GiB(4.89%)"))
    L(buf, y + 5.2, 0, titan(y + 5.2, "Optimizer: bitsandbytes AdamW8bit (lr=3e-04, betas=(0.9, 0.95), weight_decay=0.1)"))
    L(buf, y + 6.0, 0, titan(y + 6.0, f"Loading the checkpoint at step {a['resume']}."))
    L(buf, a["train"] - 37.5, 0, titan(a["train"] - 37.5, f"Finished loading the checkpoint in {a['train'] - 37.5 - (y + 6.0):.2f} seconds."))
    L(buf, a["train"] - 37.4, 0, titan(a["train"] - 37.4, f"Training starts at step {a['resume'] + 1}."))
    L(buf, a["train"] - 1.0, 0, titan(a["train"] - 1.0, "Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40"))
    prev_t = a["train"]
    prev_s = a["resume"]
    for s, e, c in zip(a["its"], a["ends"], a["ck"]):
        if s % LOG_EVERY == 0:
            dt = (e - prev_t) / (s - prev_s)
            tps = GBS_TOK / dt / 128
            tfl = 6 * 8.03e9 * tps / 1e12 * 1.035
            mfu = tfl / 989.0 * 100
            loss = 1.93 + 2.4 / math.sqrt(s / 50 + 1) + rng.normal(0, 0.02)
            gn = 0.21 + abs(rng.normal(0, 0.03))
            mem = 61.37 + rng.normal(0, 0.02)
            L(buf, e + 0.003, 0, titan(e + 0.003, f"step: {s:5d}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: {mem:5.2f}GiB({mem / 79.11 * 100:.2f}%)  tps: {int(round(tps)):,}  tflops: {tfl:.2f}  mfu: {mfu:.2f}%"))
            prev_t, prev_s = e, s
        if c:
            L(buf, e + 0.02, 0, titan(e + 0.02, f"Saving the checkpoint at step {s}."))
            L(buf, e + CKPT_SAVE - 0.3, 0, titan(e + CKPT_SAVE - 0.3, f"Finished saving the checkpoint in {CKPT_SAVE - 0.3 + rng.normal(0, 0.5):.2f} seconds."))


V_NEW = "Versions: torch 2.6.0+cu124, NCCL 2.21.5, bitsandbytes 0.45.5, CUDA driver 550.127.05 (image llm-train:25.05)"
V_OLD = "Versions: torch 2.5.1+cu124, NCCL 2.21.5, bitsandbytes 0.44.1, CUDA driver 550.127.05 (image llm-train:25.03)"

# batch-script header
L(out, at(1, 31, 8.9), None, f"[{ts(at(1, 31, 8.9)).strftime('%Y-%m-%dT%H:%M:%S+00:00')}] job {JOB1} on hgx-b[01-16]: 16 nodes x 8 GPUs, max 4 attempts")
for k, a in enumerate(attempts[:4], start=1):
    attempt_logs(out, a, k, 4, V_NEW)

syslog = {h: [] for h in HOSTS}


def S(h, x, ident, msg, pid=None):
    d = ts(x)
    p = f"[{pid}]" if pid is not None else ""
    syslog[h].append((x, f"{d.strftime('%b')} {d.day:2d} {d.strftime('%H:%M:%S')} {h} {ident}{p}: {msg}"))


def K(h, x, msg):
    up = x - BOOT[h]
    S(h, x, "kernel", f"[{up:12.6f}] {msg}")


# crash sequences
XID13 = [
    "Graphics SM Global Exception on (GPC 8, TPC 5, SM 1): Multiple Warp Errors",
    "Graphics Exception: ESR 0x546fb0=0x11f000e 0x546fb4=0x24 0x546fa8=0xf81eb60 0x546fac=0x1174",
    "Graphics SM Warp Exception on (GPC 9, TPC 1, SM 1): Out Of Range Address",
    "Graphics SM Global Exception on (GPC 9, TPC 1, SM 1): Multiple Warp Errors",
    "Graphics Exception: ESR 0x54cfb0=0x11f000e 0x54cfb4=0x24 0x54cfa8=0xf81eb60 0x54cfac=0x1174",
    "Graphics SM Warp Exception on (GPC 9, TPC 2, SM 0): Out Of Range Address",
    "Graphics Exception: ESR 0x54d730=0x11c000e 0x54d734=0x20 0x54d728=0xf81eb60 0x54d72c=0x1174",
    "Graphics SM Warp Exception on (GPC 9, TPC 5, SM 0): Out Of Range Address",
    "Graphics SM Global Exception on (GPC 9, TPC 5, SM 0): Multiple Warp Errors",
    "Graphics Exception: ESR 0x54ef30=0x117000e 0x54ef34=0x24 0x54ef28=0xf81eb60 0x54ef2c=0x1174",
    "Graphics SM Warp Exception on (GPC 10, TPC 1, SM 1): Out Of Range Address",
    "Graphics SM Global Exception on (GPC 10, TPC 1, SM 1): Multiple Warp Errors",
    "Graphics Exception: ESR 0x554fb0=0x119000e 0x554fb4=0x24 0x554fa8=0xf81eb60 0x554fac=0x1174",
    "Graphics SM Warp Exception on (GPC 10, TPC 4, SM 0): Out Of Range Address",
    "Graphics SM Global Exception on (GPC 10, TPC 4, SM 0): Multiple Warp Errors",
    "Graphics Exception: ESR 0x556730=0x117000e 0x556734=0x24 0x556728=0xf81eb60 0x55672c=0x1174",
]
XID13_DT = [0.0, 0.000088, 0.000273, 0.000369, 0.000456, 0.000635, 0.00074, 0.000948, 0.001043, 0.001131,
            0.001314, 0.001403, 0.00149, 0.001669, 0.001758, 0.001845]
evidence_rows = []
for a in attempts[:4]:
    r = a["crash_rank"]
    h, g = host_of(r)
    task = HIDX[h]
    tc = a["crash_t"]
    wpid = a["wpids"][h][g]
    xk = tc - 0.21
    K(h, xk - 0.0004, f"NVRM: GPU at PCI:0000:{PCI[g]}:00: {UUIDS[(h, g)]}")
    K(h, xk - 0.0003, f"NVRM: GPU Board Serial Number: {SERIAL[(h, g)]}")
    for dt_, m in zip(XID13_DT, XID13):
        K(h, xk + dt_, f"NVRM: Xid (PCI:0000:{PCI[g]}:00): 13, pid='<unknown>', name=<unknown>, {m}")
    K(h, xk + 0.0039, f"NVRM: Xid (PCI:0000:{PCI[g]}:00): 43, pid={wpid}, name=pt_main_thread, Ch 00000008")
    evidence_rows.append(dict(attempt=a["step"], rank=r, host=h, gpu=g, pci=f"0000:{PCI[g]}:00.0", step=int(a["its"][-1] + 1),
                              time=ts(tc).strftime("%Y-%m-%dT%H:%M:%S") + "Z"))
    # trainer side on the faulting rank
    d = ts(tc)
    ns = int((tc % 1) * 1e9)
    L(out, tc, task, f"[rank{r}]:[E{d.strftime('%m%d %H:%M:%S')}.{ns:09d} ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank {r}] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered")
    L(out, tc + 0.00001, task, "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.")
    L(out, tc + 0.00002, task, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1")
    L(out, tc + 0.00003, task, "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")
    tb = [
        "Traceback (most recent call last):",
        '  File "/workspace/llmtrain/train.py", line 512, in <module>',
        "    trainer.train()",
        '  File "/workspace/llmtrain/train.py", line 401, in train',
        "    self.optimizer.step()",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/optim/optimizer.py", line 493, in wrapper',
        "    out = func(*args, **kwargs)",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_contextlib.py", line 116, in decorate_context',
        "    return func(*args, **kwargs)",
        '  File "/usr/local/lib/python3.10/dist-packages/bitsandbytes/optim/optimizer.py", line 292, in step',
        "    torch.cuda.synchronize()",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py", line 985, in synchronize',
        "    return torch._C._cuda_synchronize()",
        "RuntimeError: CUDA error: an illegal memory access was encountered",
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
    ]
    for j, l in enumerate(tb):
        L(out, tc + 0.004 + 0.00001 * j, task, f"[rank{r}]: {l}")
    # local torchrun agent
    ap = a["agent_pid"][h]
    y = tc + 1.3
    for j, wp in enumerate(a["wpids"][h]):
        if j == g:
            continue
        L(out, y + 0.001 * j, task, glog_py("W", y + 0.001 * j, ap, "torch/distributed/elastic/multiprocessing/api.py:900", f"Sending process {wp} closing signal SIGTERM"))
    y2 = tc + 4.6
    L(out, y2, task, glog_py("E", y2, ap, "torch/distributed/elastic/multiprocessing/api.py:874", f"failed (exitcode: 1) local_rank: {g} (pid: {wpid}) of binary: /usr/bin/python"))
    tb2 = [
        "Traceback (most recent call last):",
        '  File "/usr/local/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper',
        "    return f(*args, **kwargs)",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 892, in main',
        "    run(args)",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 883, in run',
        "    elastic_launch(",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 139, in __call__',
        "    return launch_agent(self._config, self._entrypoint, list(args))",
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 270, in launch_agent',
        "    raise ChildFailedError(",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        "/workspace/llmtrain/train.py FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        f"  time      : {ts(tc + 1.2).strftime('%Y-%m-%d_%H:%M:%S')}",
        f"  host      : {h}",
        f"  rank      : {r} (local_rank: {g})",
        f"  exitcode  : 1 (pid: {wpid})",
        "  error_file: <N/A>",
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "============================================================",
    ]
    for j, l in enumerate(tb2):
        L(out, y2 + 0.002 + 0.00001 * j, task, l)
    # srun reacts: kill the step everywhere
    y3 = y2 + 0.35
    L(out, y3, None, f"srun: error: {h}: task {task}: Exited with exit code 1")
    L(out, y3 + 0.001, None, f"srun: Terminating StepId={JOB1}.{a['step']}")
    L(out, y3 + 0.09, None, f"slurmstepd: error: *** STEP {JOB1}.{a['step']} ON hgx-b01 CANCELLED AT {ts(y3 + 0.09).strftime('%Y-%m-%dT%H:%M:%S')} ***")
    for i, hh in enumerate(HOSTS):
        if hh == h:
            continue
        z = y3 + 0.11 + rng.uniform(0, 0.05)
        ap2 = a["agent_pid"][hh]
        L(out, z, i, glog_py("W", z, ap2, "torch/distributed/elastic/agent/server/api.py:719", "Received 15 death signal, shutting down workers"))
        for j, wp in enumerate(a["wpids"][hh]):
            L(out, z + 0.0005 * (j + 1), i, glog_py("W", z + 0.0005 * (j + 1), ap2, "torch/distributed/elastic/multiprocessing/api.py:900", f"Sending process {wp} closing signal SIGTERM"))
    for i, hh in enumerate(HOSTS):
        if hh == h:
            continue
        L(out, y3 + 1.8 + 0.01 * i, None, f"srun: error: {hh}: task {i}: Terminated")
    L(out, y3 + 2.2, None, f"srun: Force Terminated StepId={JOB1}.{a['step']}")
    if a["step"] < 3:
        L(out, y3 + 2.5, None, f"[{ts(y3 + 2.5).strftime('%Y-%m-%dT%H:%M:%S+00:00')}] attempt {a['step'] + 1}/4 failed (srun exit 1); retrying in 30 s")
    else:
        L(out, y3 + 2.5, None, f"[{ts(y3 + 2.5).strftime('%Y-%m-%dT%H:%M:%S+00:00')}] attempt 4/4 failed (srun exit 1); giving up")

# rollback job
L(out2, srun_r - 13.0, None, f"[{ts(srun_r - 13.0).strftime('%Y-%m-%dT%H:%M:%S+00:00')}] job {JOB2} on hgx-b[01-16]: 16 nodes x 8 GPUs, max 4 attempts")
attempt_logs(out2, attempts[4], 1, 4, V_OLD)

(OUT / "logs" / "slurm").mkdir(parents=True)
for job, buf in [(JOB1, out), (JOB2, out2)]:
    buf = [l for x, l in sorted(buf, key=lambda z: z[0]) if x < T1 + 120]
    (OUT / "logs" / "slurm" / f"slurm-{job}.out").write_text("\n".join(buf) + "\n")

# slurmctld excerpt (controller log)
ctl = []


def C(x, msg):
    d = ts(x)
    ctl.append((x, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{d.microsecond // 1000:03d}] {msg}"))


C(at(1, 31, 7.2), f"sched: Allocate JobId={JOB1} NodeList=hgx-b[01-16] #CPUs=3584 Partition=h100")
C(JOB1_END, f"_job_complete: JobId={JOB1} WEXITSTATUS 1")
C(JOB1_END + 0.001, f"_job_complete: JobId={JOB1} done")
C(JOB2_SUBMIT, f"_slurm_rpc_submit_batch_job: JobId={JOB2} InitPrio=4294901433 usec=1712")
C(srun_r - 14.2, f"sched: Allocate JobId={JOB2} NodeList=hgx-b[01-16] #CPUs=3584 Partition=h100")
for x in np.arange(T0 + 211, T1, 1800 + 0.0):
    x = float(x) + float(rng.uniform(-600, 600))
    us = int(rng.integers(1_000_100, 1_900_000))
    if rng.random() < 0.35:
        C(x, f"Warning: Note very large processing time from _slurm_rpc_dump_jobs: usec={us} began=" + ts(x - us / 1e6).strftime("%H:%M:%S.%f")[:-3])
with open(OUT / "logs" / "slurm" / "slurmctld.log", "w") as f:
    for _, l in sorted(ctl):
        f.write(l + "\n")

# sacct -P
sacct = ["JobID|JobName|Partition|State|ExitCode|Start|End|Elapsed|NodeList"]


def fmt(x):
    return ts(x).strftime("%Y-%m-%dT%H:%M:%S")


sacct.append(f"{JOB1}|llm8b-pt|h100|FAILED|1:0|{fmt(at(1, 31, 7))}|{fmt(JOB1_END)}|{str(timedelta(seconds=int(JOB1_END - at(1, 31, 7))))}|hgx-b[01-16]")
sacct.append(f"{JOB1}.batch|batch||FAILED|1:0|{fmt(at(1, 31, 7))}|{fmt(JOB1_END)}|{str(timedelta(seconds=int(JOB1_END - at(1, 31, 7))))}|hgx-b01")
sacct.append(f"{JOB1}.extern|extern||COMPLETED|0:0|{fmt(at(1, 31, 7))}|{fmt(JOB1_END)}|{str(timedelta(seconds=int(JOB1_END - at(1, 31, 7))))}|hgx-b[01-16]")
for a in attempts[:4]:
    e = a["crash_t"] + 7.0
    sacct.append(f"{JOB1}.{a['step']}|torchrun||FAILED|1:0|{fmt(a['srun'])}|{fmt(e)}|{str(timedelta(seconds=int(e - a['srun'])))}|hgx-b[01-16]")
sacct.append(f"{JOB2}|llm8b-pt|h100|RUNNING|0:0|{fmt(srun_r - 14)}|Unknown|{str(timedelta(seconds=int(T1 - srun_r + 14)))}|hgx-b[01-16]")
sacct.append(f"{JOB2}.batch|batch||RUNNING|0:0|{fmt(srun_r - 14)}|Unknown|{str(timedelta(seconds=int(T1 - srun_r + 14)))}|hgx-b01")
sacct.append(f"{JOB2}.0|torchrun||RUNNING|0:0|{fmt(srun_r)}|Unknown|{str(timedelta(seconds=int(T1 - srun_r)))}|hgx-b[01-16]")
(OUT / "logs" / "slurm" / f"sacct-{JOB1}-{JOB2}.txt").write_text("\n".join(sacct) + "\n")

# host syslogs (Ubuntu 22.04 rsyslog /var/log/syslog, traditional timestamps)
S_START, S_END = at(1, 45), T1 + 240
for h in HOSTS:
    cron = int(rng.integers(300000, 900000))
    x = S_START - (S_START % 600) + 300
    while x < S_END:  # sysstat cron 5-55/10
        cron += int(rng.integers(30, 400))
        S(h, x + 1.0, "CRON", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)", cron)
        x += 600
    x = S_START - (S_START % 3600) + 17 * 60
    while x < S_END:
        cron += int(rng.integers(30, 400))
        S(h, x + 1.0, "CRON", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)", cron)
        x += 3600
    for _ in range(int(rng.integers(1, 3))):
        x = float(rng.uniform(S_START, S_END))
        S(h, x, "systemd", "Starting Message of the Day...", 1)
        S(h, x + 0.4, "systemd", "motd-news.service: Deactivated successfully.", 1)
        S(h, x + 0.41, "systemd", "Finished Message of the Day.", 1)
    for _ in range(int(rng.integers(0, 3))):
        x = float(rng.uniform(S_START, S_END))
        S(h, x, "chronyd", f"Selected source 10.60.0.{int(rng.choice([2, 3]))} (ntp{int(rng.choice([1, 2]))}.hpc.internal)", int(rng.integers(900, 1200)))
    sd = int(rng.integers(1900, 2600))
    for a in attempts:
        job = a["job"]
        x = a["srun"] + 0.3 + rng.uniform(0, 0.3)
        S(h, x, "slurmd", f"slurmd: launch task StepId={job}.{a['step']} request from UID:41032 GID:41032 HOST:10.60.1.11 PORT:{int(rng.integers(40000, 60000))}", sd)
        y = a["srun"] + 20.0 + rng.uniform(0, 3)
        for sw in range(4):
            K(h, y + 0.00002 * sw, f"nvidia-nvswitch{sw}: open (major=510)")
        if a["crash_t"]:
            z = a["crash_t"] + 7.0 + rng.uniform(0, 1)
            K(h, z, "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
    S(h, at(6, 19, 2.0) + rng.uniform(0, 0.5), "slurmd", f"slurmd: Launching batch job {JOB2} for UID 41032", sd) if h == "hgx-b01" else None
    if h == "hgx-b01":
        S(h, at(1, 31, 8.0), "slurmd", f"slurmd: Launching batch job {JOB1} for UID 41032", sd)

(OUT / "logs" / "hosts").mkdir(parents=True)
for h in HOSTS:
    p = OUT / "logs" / "hosts" / h
    p.mkdir()
    lines = [l for _, l in sorted(syslog[h], key=lambda z: z[0])]
    (p / "syslog").write_text("\n".join(lines) + "\n")

# ------------------------------------------------------------------------------
# incident.yaml / truth.yaml
# ------------------------------------------------------------------------------
# progress accounting over the window
def latest_step(x):
    last_t, last_s = -1, None
    for a in attempts:
        m = a["ends"] <= x
        if m.any() and a["ends"][m][-1] > last_t:
            last_t, last_s = a["ends"][m][-1], int(a["its"][m][-1])
    return last_s


s_w0, s_w1 = latest_step(T0), latest_step(T1)
ideal = (T1 - T0 - 6 * CKPT_SAVE) / STEP_NEW
loss_pct = round(100 * (1 - (s_w1 - s_w0) / ideal), 1)

incident = {
    "id": ID,
    "title": "llm-8b FSDP2 pretraining crashes repeatedly near step 18,600 after the container image update (128x H100, Slurm)",
    "window": {"start": W0.isoformat(), "end": W1.isoformat()},
    "baseline": {"start": W0.isoformat(), "end": BASE1.isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "hopper-b", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
    "signal_pack": "default",
    "timestamp_unit": "ms",
}
with open(OUT / "incident.yaml", "w") as f:
    f.write("# metrics/dcgm/*.csv: dcgm-exporter samples exported from VictoriaMetrics (epoch ms, one file per metric)\n")
    f.write("# metrics/node_exporter.om: node_exporter samples as OpenMetrics text with timestamps\n")
    f.write("# logs/slurm: the job's output (srun --label, torchrun), slurmctld excerpt, sacct; logs/hosts/*/syslog\n")
    yaml.safe_dump(incident, f, sort_keys=False)

truth = {
    "id": ID,
    "cause": "Software regression in the new container image (llm-train 25.05: torch 2.6.0 + bitsandbytes 0.45.5): the 8-bit AdamW optimizer step under FSDP2 hits a CUDA illegal memory access near step 18,600, on a different rank each time.",
    "cause_metrics": [],
    "cause_metrics_note": ("No metric shows the cause. DCGM_FI_DEV_XID_ERRORS reads 43 after each crash on the GPU that faulted "
                           "(a different GPU and host each time), GPU utilisation/power drop to idle on all hosts at every crash: effects, not a host fault."),
    "cause_log_evidence": [
        {"text": "[rank<N>]: RuntimeError: CUDA error: an illegal memory access was encountered / CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect. / For debugging consider passing CUDA_LAUNCH_BLOCKING=1 / Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.  (with the frames torch/optim/optimizer.py:493 wrapper -> torch/utils/_contextlib.py:116 decorate_context -> bitsandbytes/optim/optimizer.py:292 step -> torch/cuda/__init__.py:985 synchronize)",
         "where": f"logs/slurm/slurm-{JOB1}.out (one traceback per crash, srun task label of the faulting host)",
         "source": "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/1633 (illegal memory access with FSDP2; NGC pytorch:24.07 base, torch 2.6.0+cu124, bitsandbytes 0.45.5, H100 80GB HBM3). Rank number adapted; the two top frames (train.py) are this job's own script."},
        {"text": "[rank<N>]:[E<mmdd hh:mm:ss.ns> ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank <N>] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered (+ the three CUDA hint lines)",
         "where": f"logs/slurm/slurm-{JOB1}.out",
         "source": "https://github.com/bytedance/flux/issues/40 (multi-node torchrun job; illegal memory access surfaced by the NCCL watchdog). Rank and timestamp adapted."},
        {"text": "NVRM: Xid (PCI:0000:<bus>:00): 13, pid='<unknown>', name=<unknown>, Graphics SM Warp Exception on (GPC 9, TPC 1, SM 1): Out Of Range Address  (a burst of 16 Xid 13 lines: SM Warp/Global Exceptions, ESR dumps) followed by NVRM: Xid (PCI:0000:<bus>:00): 43, pid=<pid>, name=pt_main_thread, Ch 00000008",
         "where": "logs/hosts/<faulting host>/syslog (hgx-b05 GPU 5, hgx-b12 GPU 4, hgx-b01 GPU 5, hgx-b16 GPU 1)",
         "source": "leptonai/gpud components/memory/testdata/dmesg.decode.iso.log @ 4a8de33a3f02e207f39e9023d67125592d599731 (copy in /work/shared/reference/formats/gpu_kernel_logs_gpud/), a real Xid 13 burst from a PyTorch process; message text verbatim, PCI bus, pid, timestamps adapted and re-wrapped as rsyslog lines with the kernel uptime prefix."},
        {"text": "NVRM: GPU at PCI:0000:<bus>:00: GPU-<uuid> / NVRM: GPU Board Serial Number: <serial>",
         "where": "logs/hosts/<faulting host>/syslog (printed before the first Xid of that GPU since boot)",
         "source": "leptonai/gpud components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log (same commit); PCI, UUID and serial adapted."},
        {"text": "W... torch/distributed/elastic/multiprocessing/api.py:900] Sending process <pid> closing signal SIGTERM / E... api.py:874] failed (exitcode: 1) local_rank: <l> (pid: <pid>) of binary: /usr/bin/python / torchrun traceback (errors/__init__.py:355, run.py:892/883, launcher/api.py:139) / ChildFailedError summary",
         "where": f"logs/slurm/slurm-{JOB1}.out",
         "source": "https://github.com/OEvortex/unsloth/issues/10 (api.py:900/874, run.py:892/883, api.py:139); launcher/api.py:270 launch_agent from https://github.com/intel/intel-extension-for-pytorch/issues/810; summary layout from https://github.com/pytorch/pytorch/issues/121209. pids, host, rank and install prefix adapted."},
        {"text": "W... torch/distributed/elastic/agent/server/api.py:719] Received 15 death signal, shutting down workers",
         "where": f"logs/slurm/slurm-{JOB1}.out (the other 15 tasks when srun kills the step)",
         "source": "https://github.com/pytorch/pytorch/issues/150916 (also NVIDIA/nvidia-resiliency-ext#18); pid and time adapted."},
        {"text": "srun: error: <host>: task <n>: Exited with exit code 1",
         "where": f"logs/slurm/slurm-{JOB1}.out",
         "source": "Slurm srun message as in public job logs (e.g. 'srun: error: i615-111: task 13: Exited with exit code 1', search-index id 55220986534); host and task adapted."},
    ],
    "hosts": [],
    "gpu": None,
    "crashes": evidence_rows,
    "onset": ts(attempts[0]["crash_t"]).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "onset_note": "first crash of the job on the new image (it had been running on it since 01:31Z); crashes again at "
                  + ", ".join(ts(a["crash_t"]).strftime("%H:%M:%SZ") for a in attempts[1:4])
                  + f"; rollback job {JOB2} trains from {ts(train_r).strftime('%H:%M:%SZ')} and passes step 18,621 without error.",
    "image_change": {"new": "llm-train:25.05 (torch 2.6.0+cu124, bitsandbytes 0.45.5)", "rolled_back_to": "llm-train:25.03 (torch 2.5.1+cu124, bitsandbytes 0.44.1)",
                     "rollback_job_start": ts(srun_r - 14).strftime("%Y-%m-%dT%H:%M:%SZ")},
    "job_throughput_loss_pct": loss_pct,
    "job_throughput_loss_note": (f"Tokens/s while training is unchanged (the rolled-back image is ~1.2% slower per step). The loss is progress: "
                                 f"the window started at step {s_w0} and ended at step {s_w1}, against ~{int(ideal)} steps possible in 6 h "
                                 f"(four runs of ~610 steps thrown away after resuming from step 18000, ~{(attempts[1]['train'] - attempts[0]['crash_t']) / 60:.0f} min per restart, "
                                 f"and a {(train_r - attempts[3]['crash_t']) / 60:.0f}-min gap from the last crash until the rolled-back job trained again)."),
    "what_a_good_postmortem_says": (
        "This is a software regression, not a hardware fault: after the move to image llm-train:25.05 the run died four times at about the same step "
        f"({min(r['step'] for r in evidence_rows):,}-{max(r['step'] for r in evidence_rows):,}, each time resuming from the step-18000 checkpoint) with 'CUDA error: an illegal memory access was encountered' in the "
        "bitsandbytes 8-bit AdamW step, each time on a different rank, host and GPU (37/hgx-b05, 92/hgx-b12, 5/hgx-b01, 121/hgx-b16), and the Xid 13/43 "
        "lines follow the crashing process rather than a device. Draining or replacing those GPUs would not have helped; rolling back to 25.03 fixed it, "
        "so the image change needs a canary run past a checkpoint boundary and a pinned, tested torch/bitsandbytes pair, and the retry loop should stop "
        "retrying a deterministic crash instead of burning ~2.5 hours."),
}
with open(OUT / "truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)

print("crashes:", [(r["rank"], r["host"], r["gpu"], r["step"], r["time"]) for r in evidence_rows])
print("steps window", s_w0, s_w1, "ideal", int(ideal), "loss", loss_pct)
print("done:", OUT)
