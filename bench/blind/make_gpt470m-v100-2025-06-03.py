#!/usr/bin/env python3
"""Generate incident folder gpt470m-v100-2025-06-03 (INC8 incident 2).

Slurm cluster of 17 older 8 x Tesla V100-SXM2-32GB servers (Broadwell, Ubuntu 18.04 / 4.15,
driver 470), PyTorch 2.5 DDP (fp16 AMP) of a 466M-parameter GPT on 16 nodes (128 ranks) under
`srun torchrun --log-line-prefix-template '[rank${rank}]:'`; v100n17 is an idle spare.

Fault: GPU 5 of v100n09 (PCI 0000:82:00, rank 69) reports PCIe corrected errors, then a
Surprise Down and falls off the bus (Xid 79) at 11:49:37 during iteration 36527. dcgm-exporter's
series for that GPU end; rank 69 is stuck in the driver; the other 127 ranks block in the
gradient all-reduce (SeqNum 1580) with their GPUs at 100 % utilisation but ~80 W; no iteration
completes for 10 minutes; the ProcessGroupNCCL watchdog aborts every rank at 11:59:38; the job
fails; a new job (51874) excluding v100n09 and using the spare v100n17 resumes from iteration
36500 at ~12:14.

Fixed seed; writes incident.yaml, metrics/{dcgm-exporter,node-exporter}.csv (epoch seconds),
logs/dmesg/<host>.txt (dmesg -T), logs/slurm/*.out, logs/slurm/sacct.txt and truth.yaml.
"""
import math
import os
import shutil
import sys

import numpy as np
import polars as pl
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inc8_common import (ts, dt, scrape_times, gpu_uuid, dmesg_T_stamp, ema, counter_from_rate)

SEED = 20250603
rng = np.random.default_rng(SEED)
ID = "gpt470m-v100-2025-06-03"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

W0, W1 = ts("2025-06-03T11:00:00Z"), ts("2025-06-03T14:00:00Z")
HOSTS = [f"v100n{i:02d}" for i in range(1, 18)]
IPS = {h: f"10.20.2.{i + 1}" for i, h in enumerate(HOSTS)}
JOB1_HOSTS = HOSTS[:16]
BAD, BAD_GPU = "v100n09", 5
JOB2_HOSTS = [h for h in HOSTS if h != BAD]
NGPU = 8
BAD_RANK = JOB1_HOSTS.index(BAD) * NGPU + BAD_GPU         # 69
BUS = ["04", "05", "08", "09", "81", "82", "85", "86"]
SCRAPE = 30.0
DRIVER = "470.239.06"
MODEL = "Tesla V100-SXM2-32GB"
BAD_UUID = "GPU-660d987e-5b28-3bf6-2a2d-1d5ecae7f6df"        # as printed by NVRM in the source lines

XID_T = ts("2025-06-03T11:49:37.644Z")
BASE_STEP, CKPT_EVERY, CKPT_SAVE = 4.052, 500, 41.0
GBS_TOK = 2048 * 2048

# ---------------------------------------------------------------- run 1 schedule: ends with iteration 36526
def schedule(n_steps, first_extra):
    st = BASE_STEP * (1 + rng.normal(0, 0.007, n_steps))
    ar = np.zeros(n_steps)
    for i in range(1, n_steps):
        ar[i] = 0.8 * ar[i - 1] + rng.normal(0, 0.003)
    st = st * (1 + ar)
    st[rng.random(n_steps) < 0.004] += rng.uniform(0.5, 1.8)
    st[0] += first_extra
    return st


N1 = 527 - 1                       # iterations 36001..36526 complete
st1 = schedule(N1, 6.2)
its1 = np.arange(36001, 36001 + N1)
ck_extra = np.where(its1 % CKPT_EVERY == 0, CKPT_SAVE + rng.normal(0, 1.2, N1), 0.0)
ends_rel = np.cumsum(st1) + np.concatenate([[0], np.cumsum(ck_extra)[:-1]])
# iteration 36527 starts at end of 36526 (+ its checkpoint if any); the GPU drops 2.3 s into it
t_526_rel = ends_rel[-1]
shift = XID_T - 2.3 - t_526_rel
ENDS1 = ends_rel + shift
TRAIN1_START = shift                        # first iteration starts
CK1 = [(int(i), float(e), float(e + c)) for i, e, c in zip(its1, ENDS1, ck_extra) if c > 0]
J1_START = TRAIN1_START - 7 * 60 - 48       # srun launched
HANG_T = XID_T + 0.9                        # others enqueue the all-reduce of 36527 and block
WD_T = HANG_T + 600.06                      # watchdog fires (ran for ~600060 ms)
ABORT_T = WD_T + 4.6
J1_END = ABORT_T + 41.0                     # slurm gives up on the stuck task on v100n09
J2_SUBMIT = ts("2025-06-03T12:05:51Z")
J2_START = ts("2025-06-03T12:06:28Z")
TRAIN2_START = J2_START + 8 * 60 + 11
N2 = int((W1 + 900 - TRAIN2_START) / BASE_STEP)
st2 = schedule(N2, 7.0)
its2 = np.arange(36501, 36501 + N2)
ck2 = np.where(its2 % CKPT_EVERY == 0, CKPT_SAVE + rng.normal(0, 1.2, N2), 0.0)
ENDS2 = TRAIN2_START + np.cumsum(st2) + np.concatenate([[0], np.cumsum(ck2)[:-1]])
CK2 = [(int(i), float(e), float(e + c)) for i, e, c in zip(its2, ENDS2, ck2) if c > 0]
CKW = [(a, b) for _, a, b in CK1 + CK2]
assert abs(dt(XID_T).minute - 49) < 1


def host_phase(h, t):
    """0 idle, 1 init, 2 train, 3 ckpt, 4 spin (blocked in NCCL), per host."""
    p = np.zeros(t.shape, dtype=int)
    if h in JOB1_HOSTS:
        p[(t >= J1_START + 20) & (t < TRAIN1_START)] = 1
        p[(t >= TRAIN1_START) & (t < HANG_T)] = 2
        p[(t >= HANG_T) & (t < ABORT_T + 2)] = 4
    if h in JOB2_HOSTS:
        p[(t >= J2_START + 20) & (t < TRAIN2_START)] = 1
        p[t >= TRAIN2_START] = 2
    for a, b in CKW:
        m = (t >= a) & (t < b) & (p == 2)
        p[m] = 3
    return p


# ---------------------------------------------------------------- inventory
inv = {}
for h in HOSTS:
    inv[h] = dict(boot=W0 - rng.uniform(9, 71) * 86400, amb=rng.normal(23.5, 1.5),
                  uuids=[gpu_uuid(rng) for _ in range(NGPU)], pw_off=rng.normal(0, 8, NGPU),
                  spin_off=rng.normal(0, 4, NGPU),
                  t_off=rng.normal(0, 2.0, NGPU) + np.array([0, 1, 2.5, 3.5, 0.5, 1.5, 3, 4]),
                  fb_off=rng.normal(0, 60, NGPU), nvl0=rng.uniform(1e8, 9e8, NGPU),
                  replay0=rng.choice([0, 0, 0, 0, 1, 2, 7], NGPU).astype(float),
                  energy0=rng.uniform(3e12, 9e12, NGPU), ib=rng.normal(1, 0.03),
                  mem_avail=rng.uniform(405, 452) * 1e9)
inv[BAD]["uuids"][BAD_GPU] = BAD_UUID

# ---------------------------------------------------------------- dcgm
dcgm_rows = []


def add_rows(rows, name, t, v, labels):
    n = len(t)
    rows.append(pl.DataFrame({"timestamp": np.round(t, 3), "metric": [name] * n, "value": np.asarray(v, dtype=float),
                              **{k: [val] * n for k, val in labels.items()}}))


for h in HOSTS:
    I = inv[h]
    tt = scrape_times(rng, W0, W1, SCRAPE)
    n = len(tt)
    ph = host_phase(h, tt)
    inst = f"{IPS[h]}:9400"
    for g in range(NGPU):
        labels = {"Hostname": h, "gpu": str(g), "UUID": I["uuids"][g], "device": f"nvidia{g}",
                  "modelName": MODEL, "pci_bus_id": f"00000000:{BUS[g]}:00.0",
                  "DCGM_FI_DRIVER_VERSION": DRIVER, "instance": inst, "job": "dcgm-exporter"}
        util = np.zeros(n); pw = np.zeros(n); clk = np.zeros(n); fb = np.zeros(n); ten = np.zeros(n)
        nvl_rate = np.zeros(n)
        tr = ph == 2
        u = np.clip(rng.normal(97.5, 1.6, n), 85, 100)
        dips = rng.random(n) < 0.06
        u[dips] = rng.uniform(45, 90, dips.sum())
        util[tr] = u[tr]
        pw[tr] = (247 + I["pw_off"][g] + rng.normal(0, 13, n))[tr]
        clk[tr] = np.where(rng.random(n) < 0.12, rng.choice([1455, 1485, 1500], n), 1530)[tr]
        fb[tr] = (29870 + I["fb_off"][g] + rng.normal(0, 15, n))[tr]
        ten[tr] = rng.normal(0.27, 0.02, n)[tr]
        nvl_rate[tr] = 1040 * rng.normal(1, 0.03, tr.sum())
        ck = ph == 3
        util[ck] = rng.uniform(0, 4, ck.sum()); pw[ck] = rng.normal(66, 4, ck.sum()); clk[ck] = 1530
        fb[ck] = 29870 + I["fb_off"][g]
        sp = ph == 4                      # NCCL kernels spinning on a peer that never arrives
        util[sp] = 100; pw[sp] = (79 + I["spin_off"][g] + rng.normal(0, 2.5, n))[sp]; clk[sp] = 1530
        fb[sp] = 29870 + I["fb_off"][g]; ten[sp] = 0
        ini = ph == 1
        util[ini] = np.where(rng.random(n) < 0.25, rng.uniform(3, 50, n), 0)[ini]
        pw[ini] = rng.normal(58, 5, n)[ini]; clk[ini] = 1530
        fb[ini] = np.where(rng.random(n) < 0.5, 1620, 24000)[ini]
        idl = ph == 0
        util[idl] = 0; pw[idl] = (42 + 0.15 * I["pw_off"][g] + rng.normal(0, 0.8, n))[idl]
        clk[idl] = 135; fb[idl] = 0
        pw = np.clip(pw, 37, 300)
        temp = np.round(ema(I["amb"] + 9.0 + 0.118 * pw + I["t_off"][g], 0.5) + rng.normal(0, 0.35, n))
        nvl = np.floor(counter_from_rate(tt, nvl_rate, I["nvl0"][g]))
        replay_rate = np.zeros(n)
        keep = np.ones(n, dtype=bool)
        if h == BAD and g == BAD_GPU:
            # link retries start ~20 min before the GPU drops; then the exporter has nothing for it
            w = (tt > XID_T - 1240) & (tt < XID_T)
            replay_rate[w] = rng.uniform(0.02, 0.9, w.sum()) * np.clip((tt[w] - (XID_T - 1240)) / 1240, 0.1, 1) ** 2
            keep = tt < XID_T
        replay = np.floor(counter_from_rate(tt, replay_rate, I["replay0"][g]))
        for name, vals in (("DCGM_FI_DEV_GPU_UTIL", np.round(util)),
                           ("DCGM_FI_DEV_POWER_USAGE", np.round(pw, 3)),
                           ("DCGM_FI_DEV_GPU_TEMP", temp),
                           ("DCGM_FI_DEV_SM_CLOCK", clk),
                           ("DCGM_FI_DEV_FB_USED", np.round(fb)),
                           ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(np.clip(ten, 0, 1), 6)),
                           ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", nvl),
                           ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", replay),
                           ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n))):
            add_rows(dcgm_rows, name, tt[keep], vals[keep], labels)
    add_rows(dcgm_rows, "up", tt, np.ones(n), {"instance": inst, "job": "dcgm-exporter"})

dcgm = pl.concat(dcgm_rows, how="diagonal").sort(["timestamp", "metric"])
dcgm = dcgm.select(["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device", "modelName",
                    "pci_bus_id", "DCGM_FI_DRIVER_VERSION", "instance", "job"])

# ---------------------------------------------------------------- node_exporter
node_rows = []
for h in HOSTS:
    I = inv[h]
    tt = scrape_times(rng, W0, W1, SCRAPE)
    n = len(tt)
    ph = host_phase(h, tt)
    inst = f"{IPS[h]}:9100"
    lab = {"instance": inst, "job": "node"}
    busy = np.isin(ph, [1, 2, 3, 4]).astype(float)
    avail = I["mem_avail"] + (1 - busy) * 95e9 + rng.normal(0, 0.4e9, n)
    add_rows(node_rows, "node_memory_MemTotal_bytes", tt, np.full(n, 540744052736.0), lab)
    add_rows(node_rows, "node_memory_MemAvailable_bytes", tt, np.round(avail / 1024) * 1024, lab)
    load = ema(38 * (ph == 2) + 9 * np.isin(ph, [1, 4]) + 1.2 + 6 * (ph == 3), 0.6) + rng.normal(0, 1.1, n)
    add_rows(node_rows, "node_load1", tt, np.round(np.clip(load, 0.02, None), 2), lab)
    add_rows(node_rows, "node_boot_time_seconds", tt, np.full(n, float(int(I["boot"]))), lab)
    add_rows(node_rows, "node_uname_info", tt, np.ones(n),
             {**lab, "nodename": h, "release": "4.15.0-213-generic", "machine": "x86_64", "sysname": "Linux"})
    ib_act = (ph == 2).astype(float)
    for j in range(4):
        for nm in ("received", "transmitted"):
            r = 0.61e9 * I["ib"] * ib_act * rng.normal(1, 0.03, n) + 1.5e5
            add_rows(node_rows, f"node_infiniband_port_data_{nm}_bytes_total", tt,
                     np.floor(counter_from_rate(tt, r, rng.uniform(1e14, 6e14))),
                     {**lab, "device": f"mlx5_{j}", "port": "1"})
    add_rows(node_rows, "up", tt, np.ones(n), lab)
node = pl.concat(node_rows, how="diagonal").sort(["timestamp", "metric"])
node = node.select(["timestamp", "metric", "value", "instance", "job", "device", "port", "nodename",
                    "release", "machine", "sysname"])

# ---------------------------------------------------------------- trainer output
def rp(r):
    return f"[rank{r}]:"


def glog(t, lvl="E"):
    d = dt(t)
    # c10 logging prints the month without zero padding: "E321 02:07:08.408271257", "E1206 18:44:12..."
    return f"{lvl}{d.month}{d.day:02d} {d.strftime('%H:%M:%S')}.{int(round((t % 1) * 1e9)) % 1000000000:09d}"


def pylog(t):
    d = dt(t)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int((t % 1) * 1000):03d}"


def loss_at(i):
    r = np.random.default_rng(5_000_011 + int(i))
    return 2.652 - 0.048 * math.log(i / 30000.0) + r.normal(0, 0.021)


def lr_at(i):
    return 3.0e-5 + 0.5 * (4.0e-4 - 3.0e-5) * (1 + math.cos(math.pi * (i - 1500) / (60000 - 1500)))


def step_lines(ends, its, cks, collect):
    L = []
    for k in range(10, len(its)):
        it = int(its[k])
        if it % 10 == 0:
            span = ends[k] - ends[k - 10]
            for c in cks:
                if ends[k - 10] < c[1] + 0.01 <= ends[k]:
                    span -= c[2] - c[1]
            stt = span / 10
            tps = GBS_TOK / stt
            r = np.random.default_rng(9_001 + it)
            L.append((ends[k] + 0.003, f"{rp(0)}{pylog(ends[k] + 0.003)} - INFO - train - step={it} loss={loss_at(it):.4f} "
                      f"lr={lr_at(it):.3e} grad_norm={0.31 + r.normal(0, 0.02):.3f} loss_scale=65536.0 "
                      f"step_time={stt:.3f}s tokens_per_sec={tps:.0f}"))
    for i, a, b in cks:
        L.append((a + 0.01, f"{rp(0)}{pylog(a + 0.01)} - INFO - checkpoint - saving step {i} to /mnt/lustre/gpt470m/ckpt/step_{i}"))
        L.append((b - 0.01, f"{rp(0)}{pylog(b - 0.01)} - INFO - checkpoint - saved step {i} in {b - a:.1f}s"))
    return [x for x in L if x[0] <= collect]


def job_start_lines(t0, hosts, jobid, ckpt_iter, t_train):
    L = [(t0 - 1.0, f"{dt(t0 - 1).strftime('%Y-%m-%d %H:%M:%S')} job {jobid} on {nodelist(hosts)}: srun torchrun --nnodes={len(hosts)} --nproc-per-node=8 train_gpt.py --config configs/gpt470m.yaml --resume latest")]
    tn = t0 + 17.0
    base_pid = {h: int(rng.integers(30000, 90000)) for h in hosts}
    L.append((tn, f"{rp(0)}{hosts[0]}:{base_pid[hosts[0]]}:{base_pid[hosts[0]]} [0] NCCL INFO Bootstrap : Using ib0:{IPS[hosts[0]]}<0>"))
    L.append((tn + 0.01, f"{rp(0)}{hosts[0]}:{base_pid[hosts[0]]}:{base_pid[hosts[0]]} [0] NCCL INFO cudaDriverVersion 11040"))
    L.append((tn + 0.02, f"{rp(0)}NCCL version 2.21.5+cuda11.0"))
    for ni, h in enumerate(hosts):
        for l in range(NGPU):
            r = ni * NGPU + l
            pid = base_pid[h] + 10 + l
            tt0 = tn + 1 + rng.uniform(0, 2.0)
            L.append((tt0, f"{rp(r)}{h}:{pid}:{pid} [{l}] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [RO]; OOB ib0:{IPS[h]}<0>"))
            bus = BUS[l].lstrip("0") + "000"
            L.append((tn + 8 + rng.uniform(0, 1.5), f"{rp(r)}{h}:{pid}:{pid + 140 + l} [{l}] NCCL INFO ncclCommInitRank comm 0x{int(rng.integers(0x55a000000000, 0x55afffffffff)):x} rank {r} nranks 128 cudaDev {l} nvmlDev {l} busId {bus} commId 0x{jobid * 7919:x}a31c - Init COMPLETE"))
    L.append((tn + 12, f"{rp(0)}{pylog(tn + 12)} - INFO - checkpoint - resuming from /mnt/lustre/gpt470m/ckpt/step_{ckpt_iter}"))
    L.append((t_train - 9, f"{rp(0)}{pylog(t_train - 9)} - INFO - checkpoint - loaded step {ckpt_iter} (model, optimizer, scaler, dataloader state)"))
    L.append((t_train - 8, f"{rp(0)}{pylog(t_train - 8)} - INFO - train - world_size=128 global_batch=2048 seq_len=2048 params=466.1M precision=fp16-amp"))
    return L, base_pid


def nodelist(hosts):
    nums = sorted(int(h[5:]) for h in hosts)
    ranges, s = [], nums[0]
    prev = s
    for x in nums[1:] + [None]:
        if x is None or x != prev + 1:
            ranges.append(f"{s:02d}" if s == prev else f"{s:02d}-{prev:02d}")
            if x is not None:
                s = x
        if x is not None:
            prev = x
    return "v100n[" + ",".join(ranges) + "]"


OUT1, pids1 = job_start_lines(J1_START, JOB1_HOSTS, 51802, 36000, TRAIN1_START)
OUT1 += step_lines(ENDS1, its1, CK1, J1_END + 5)

# ---- watchdog abort: verbatim line shapes from hiyouga/LlamaFactory#7396 and #6269 (PyTorch 2.5),
#      rank, time and ran-for adapted; SeqNum/NumelIn/last-enqueued/completed as in #7396.
ranforms = [600004, 600013, 600020, 600026, 600060, 600061, 600067, 600089, 600099]
for ni, h in enumerate(JOB1_HOSTS):
    for l in range(NGPU):
        r = ni * NGPU + l
        if r == BAD_RANK:
            continue
        ran = int(rng.choice([600004, 600013, 600020, 600026, 600060, 600061, 600067, 600089, 600099]))
        tw = HANG_T + rng.uniform(0, 0.05) + ran / 1000.0
        OUT1.append((tw, f"{rp(r)}[{glog(tw)} ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for {ran} milliseconds before timing out."))
        te = tw + rng.uniform(0.03, 0.06)
        OUT1.append((te, f"{rp(r)}[{glog(te)} ProcessGroupNCCL.cpp:1664] [PG 1 Rank {r}] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579."))
        t2 = WD_T + 4.2 + rng.uniform(0, 0.3)
        OUT1.append((t2, f"{rp(r)}[{glog(t2)} ProcessGroupNCCL.cpp:1709] [PG 1 Rank {r}] Timeout at NCCL work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579."))
        OUT1.append((t2 + 0.00002, f"{rp(r)}[{glog(t2 + 0.00002)} ProcessGroupNCCL.cpp:621] [Rank {r}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."))
        OUT1.append((t2 + 0.00003, f"{rp(r)}[{glog(t2 + 0.00003)} ProcessGroupNCCL.cpp:627] [Rank {r}] To avoid data inconsistency, we are taking the entire process down."))
        OUT1.append((t2 + 0.2, f"{rp(r)}terminate called after throwing an instance of 'c10::DistBackendError'"))

# torchrun's summary per node (format of open-compass/VLMEvalKit#1131, exitcode -6 / SIGABRT)
for ni, h in enumerate(JOB1_HOSTS):
    tf = ABORT_T + 1.5 + ni * 0.03
    ranks = [ni * NGPU + l for l in range(NGPU) if ni * NGPU + l != BAD_RANK]
    first, others = ranks[0], ranks[1:]
    blk = ["torch.distributed.elastic.multiprocessing.errors.ChildFailedError:",
           "============================================================",
           "train_gpt.py FAILED",
           "------------------------------------------------------------",
           "Failures:"]
    for k, r in enumerate(others, start=1):
        pid = pids1[h] + 10 + (r - ni * NGPU)
        blk += [f"[{k}]:", f"  time      : {dt(tf).strftime('%Y-%m-%d_%H:%M:%S')}", f"  host      : {h}",
                f"  rank      : {r} (local_rank: {r - ni * NGPU})", f"  exitcode  : -6 (pid: {pid})",
                "  error_file: <N/A>", f"  traceback : Signal 6 (SIGABRT) received by PID {pid}"]
    pid = pids1[h] + 10 + (first - ni * NGPU)
    blk += ["------------------------------------------------------------", "Root Cause (first observed failure):", "[0]:",
            f"  time      : {dt(tf).strftime('%Y-%m-%d_%H:%M:%S')}", f"  host      : {h}",
            f"  rank      : {first} (local_rank: {first - ni * NGPU})", f"  exitcode  : -6 (pid: {pid})",
            "  error_file: <N/A>", f"  traceback : Signal 6 (SIGABRT) received by PID {pid}",
            "============================================================"]
    tf2 = tf if h != BAD else J1_END - 2.0        # v100n09's agent waits on the stuck rank 69 first
    for k, line in enumerate(blk):
        OUT1.append((tf2 + k * 1e-4, line))
    if h != BAD:
        OUT1.append((tf + 0.4, f"srun: error: {h}: task {ni}: Exited with exit code 1"))
OUT1.append((J1_END - 1.0, f"srun: error: {BAD}: task {JOB1_HOSTS.index(BAD)}: Killed"))
OUT1.sort(key=lambda x: x[0])

OUT2, pids2 = job_start_lines(J2_START, JOB2_HOSTS, 51874, 36500, TRAIN2_START)
COLLECT2 = W1 + 300
OUT2 += step_lines(ENDS2, its2, CK2, COLLECT2)
OUT2.sort(key=lambda x: x[0])

# ---------------------------------------------------------------- dmesg -T per host
def host_dmesg(h):
    I = inv[h]
    boot = I["boot"]
    L = []

    def k(t, msg):
        L.append((t, f"[{dmesg_T_stamp(t)}] {msg}"))

    # a few boot lines (ring buffer has not wrapped on these quiet hosts)
    k(boot + 0.0, "Linux version 4.15.0-213-generic (buildd@lcy02-amd64-079) (gcc version 7.5.0 (Ubuntu 7.5.0-3ubuntu1~18.04)) #224-Ubuntu SMP Mon Jun 19 13:30:12 UTC 2023 (Ubuntu 4.15.0-213.224-generic 4.15.18)")
    k(boot + 0.0, "Command line: BOOT_IMAGE=/boot/vmlinuz-4.15.0-213-generic root=UUID=3f1d6c2e-8b7a-4f0e-9d2c-5a1b7e4c9f30 ro intel_iommu=off pci=realloc=off quiet splash")
    k(boot + 21.8, f"nvidia: module license 'NVIDIA' taints kernel.")
    k(boot + 22.0, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Thu Feb 29 10:49:14 UTC 2024")
    k(boot + 22.6, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  470.239.06  Thu Feb 29 10:49:17 UTC 2024")
    k(boot + 23.1, "nvidia-uvm: Loaded the UVM driver, major device number 511.")
    for j in range(4):
        k(boot + 30.2 + j * 0.01, f"mlx5_core 0000:{['06', '0c', '84', '8a'][j]}:00.0: Port module event: module 1, Cable plugged")
    k(boot + 64.0, "IPv6: ADDRCONF(NETDEV_UP): ib0: link is not ready")
    k(boot + 66.3, "IPv6: ADDRCONF(NETDEV_CHANGE): ib0: link becomes ready")
    # ordinary chatter since then
    for _ in range(int(rng.integers(1, 4))):
        k(boot + rng.uniform(3600, W0 - boot), "perf: interrupt took too long (2511 > 2500), lowering kernel.perf_event_max_sample_rate to 79500")
    for _ in range(int(rng.integers(0, 3))):
        k(rng.uniform(W0 - 86400, W1), f"hrtimer: interrupt took {int(rng.integers(80000, 700000))} ns")
    if h == BAD:
        # verbatim lines from wilicc/gpu-burn#1 (Tesla card, Broadwell root port 8086:6f04);
        # PCI addresses (and the AER requester id derived from them) and times adapted
        rp_ = "0000:80:02.0"
        for tc in (XID_T - 1139.47, XID_T - 103.984):
            k(tc, f"pcieport {rp_}: AER: Corrected error received: id=8010")
            k(tc + 0.000014, f"pcieport {rp_}: PCIe Bus Error: severity=Corrected, type=Data Link Layer, id=8010(Transmitter ID)")
            k(tc + 0.000130, f"pcieport {rp_}:   device [8086:6f04] error status/mask=00001000/00002000")
            k(tc + 0.000193, f"pcieport {rp_}:    [12] Replay Timer Timeout  ")
        tf = XID_T - 0.102107
        k(tf, f"pcieport {rp_}: AER: Uncorrected (Fatal) error received: id=8010")
        k(tf + 0.000013, f"pcieport {rp_}: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, id=8010(Receiver ID)")
        k(tf + 0.000094, f"pcieport {rp_}:   device [8086:6f04] error status/mask=00000020/00000000")
        k(tf + 0.000153, f"pcieport {rp_}:    [ 5] Surprise Down Error    (First)")
        k(tf + 0.000203, f"pcieport {rp_}: broadcast error_detected message")
        k(tf + 0.000208, "nvidia 0000:82:00.0: device has no AER-aware driver")
        k(XID_T - 0.000026, f"NVRM: GPU at PCI:0000:82:00: {BAD_UUID}")
        k(XID_T - 0.000006, "NVRM: GPU Board Serial Number: 0322716036227")
        k(XID_T, "NVRM: Xid (PCI:0000:82:00): 79, GPU has fallen off the bus.")
    L.sort(key=lambda x: x[0])
    return [s for t, s in L if t <= W1 + 1200]


# ---------------------------------------------------------------- write folder
if os.path.exists(OUT):
    shutil.rmtree(OUT)
for d in ("metrics", "logs/dmesg", "logs/slurm"):
    os.makedirs(os.path.join(OUT, d))
dcgm.write_csv(os.path.join(OUT, "metrics", "dcgm-exporter.csv"), float_precision=None)
node.write_csv(os.path.join(OUT, "metrics", "node-exporter.csv"))
with open(os.path.join(OUT, "logs", "slurm", "slurm-51802.out"), "w") as f:
    f.write("\n".join(s for t, s in OUT1) + "\n")
with open(os.path.join(OUT, "logs", "slurm", "slurm-51874.out"), "w") as f:
    f.write("\n".join(s for t, s in OUT2) + "\n")
for h in HOSTS:
    with open(os.path.join(OUT, "logs", "dmesg", f"{h}.txt"), "w") as f:
        f.write("\n".join(host_dmesg(h)) + "\n")


def iso(t):
    return dt(t).strftime("%Y-%m-%dT%H:%M:%S")


def el(a, b):
    s = int(b - a)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


sacct = ["JobID|JobName|Partition|State|ExitCode|Start|End|Elapsed|NNodes|NodeList",
         f"51802|gpt470m-pt|v100|FAILED|1:0|{iso(J1_START - 2)}|{iso(J1_END + 3)}|{el(J1_START - 2, J1_END + 3)}|16|{nodelist(JOB1_HOSTS)}",
         f"51802.batch|batch||FAILED|1:0|{iso(J1_START - 2)}|{iso(J1_END + 3)}|{el(J1_START - 2, J1_END + 3)}|1|v100n01",
         f"51802.extern|extern||COMPLETED|0:0|{iso(J1_START - 2)}|{iso(J1_END + 3)}|{el(J1_START - 2, J1_END + 3)}|16|{nodelist(JOB1_HOSTS)}",
         f"51802.0|torchrun||FAILED|1:0|{iso(J1_START)}|{iso(J1_END)}|{el(J1_START, J1_END)}|16|{nodelist(JOB1_HOSTS)}",
         f"51874|gpt470m-pt|v100|RUNNING|0:0|{iso(J2_START - 2)}|Unknown|{el(J2_START - 2, W1 + 310)}|16|{nodelist(JOB2_HOSTS)}",
         f"51874.batch|batch||RUNNING|0:0|{iso(J2_START - 2)}|Unknown|{el(J2_START - 2, W1 + 310)}|1|v100n01",
         f"51874.extern|extern||RUNNING|0:0|{iso(J2_START - 2)}|Unknown|{el(J2_START - 2, W1 + 310)}|16|{nodelist(JOB2_HOSTS)}",
         f"51874.0|torchrun||RUNNING|0:0|{iso(J2_START)}|Unknown|{el(J2_START, W1 + 310)}|16|{nodelist(JOB2_HOSTS)}"]
with open(os.path.join(OUT, "logs", "slurm", "sacct.txt"), "w") as f:
    f.write("\n".join(sacct) + "\n")

incident = {
    "id": ID,
    "title": "gpt470m pretraining on the V100 partition hung ~10 min and died (job 51802); resubmitted as 51874",
    "window": {"start": "2025-06-03T11:00:00+00:00", "end": "2025-06-03T14:00:00+00:00"},
    "baseline": {"start": "2025-06-03T11:15:00+00:00", "end": "2025-06-03T11:45:00+00:00"},
    "primary_signal": "throughput",
    "cluster": {"name": "v100-legacy", "nodes": 17, "gpus_per_node": 8, "gpu_model": "V100"},
    "timestamp_unit": "s",
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(incident, f, sort_keys=False)

# ---------------------------------------------------------------- truth
base = (ENDS1 >= ts("2025-06-03T11:15:00Z")) & (ENDS1 < ts("2025-06-03T11:45:00Z"))
base_rate = base.sum() / 1800.0
it_w0 = 36000 if ENDS1[0] > W0 else int(its1[ENDS1 >= W0][0] - 1)
train_before_w0 = max(0.0, (TRAIN1_START - W0))   # job 1 only started training after W0
ideal = base_rate * (W1 - TRAIN1_START)   # what the job would have done from its first iteration to 14:00
useful = int(its2[ENDS2 <= W1][-1]) - it_w0       # net progress 36000 -> last iteration at 14:00
loss_pct = float(round(100 * (1 - useful / ideal), 1))
zero_from, zero_to = float(ENDS1[-1]), float(ENDS2[0])
truth = {
    "id": ID,
    "cause": ("GPU 5 of v100n09 (PCI 0000:82:00, UUID GPU-660d987e-5b28-3bf6-2a2d-1d5ecae7f6df, rank 69) fell off "
              "the PCIe bus (Xid 79 after a PCIe Surprise Down), so the synchronous job hung in its gradient "
              "all-reduce until the NCCL watchdog aborted it 10 minutes later."),
    "cause_metrics": ["DCGM_FI_DEV_PCIE_REPLAY_COUNTER (v100n09 gpu 5 rising in the 20 min before)",
                      "absence of every DCGM_FI_* series of v100n09 gpu 5 from 11:49:37",
                      "DCGM_FI_DEV_POWER_USAGE with DCGM_FI_DEV_GPU_UTIL=100 on all other GPUs 11:49-11:59 (effect: NCCL spin)"],
    "cause_log_evidence": [
        {"file": "logs/dmesg/v100n09.txt", "time": dt(XID_T).isoformat(),
         "text": "NVRM: Xid (PCI:0000:82:00): 79, GPU has fallen off the bus.",
         "source": "https://github.com/wilicc/gpu-burn/issues/1 (dmesg posted 2018-04-12: 'NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the bus.'); PCI address and time adapted"},
        {"file": "logs/dmesg/v100n09.txt", "time": dt(XID_T).isoformat(),
         "text": f"NVRM: GPU at PCI:0000:82:00: {BAD_UUID}  /  NVRM: GPU Board Serial Number: 0322716036227",
         "source": "https://github.com/wilicc/gpu-burn/issues/1; PCI address and time adapted (UUID and serial kept; the dcgm-exporter UUID label of that GPU was set to match)"},
        {"file": "logs/dmesg/v100n09.txt", "time": dt(XID_T - 0.102).isoformat(),
         "text": "pcieport 0000:80:02.0: AER: Uncorrected (Fatal) error received: id=8010 ... [ 5] Surprise Down Error    (First) ... nvidia 0000:82:00.0: device has no AER-aware driver",
         "source": "https://github.com/wilicc/gpu-burn/issues/1; root-port/GPU PCI addresses, the AER id derived from them (0010->8010) and times adapted"},
        {"file": "logs/dmesg/v100n09.txt", "time": dt(XID_T - 103.98).isoformat(),
         "text": "pcieport 0000:80:02.0: AER: Corrected error received: id=8010 / PCIe Bus Error: severity=Corrected, type=Data Link Layer ... [12] Replay Timer Timeout",
         "source": "https://github.com/wilicc/gpu-burn/issues/1 (the group 104 s before the fatal error; repeated once ~19 min earlier); addresses and times adapted"},
        {"file": "logs/slurm/slurm-51802.out", "time": dt(WD_T).isoformat(),
         "text": "[rank0]:[E603 11:59:38.xxxxxxxxx ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 6000xx milliseconds before timing out.",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/7396 (rank, timestamp and ran-for adapted per rank)"},
        {"file": "logs/slurm/slurm-51802.out", "time": dt(WD_T).isoformat(),
         "text": "[PG 1 Rank N] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.  /  [PG 1 Rank N] Timeout at NCCL work: 1580, ...",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/7396 (ProcessGroupNCCL.cpp:1664 and :1709 lines)"},
        {"file": "logs/slurm/slurm-51802.out", "time": dt(WD_T + 4.3).isoformat(),
         "text": "[Rank N] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.  /  [Rank N] To avoid data inconsistency, we are taking the entire process down.",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/6269 (same PyTorch version: ProcessGroupNCCL.cpp:621/:627)"},
        {"file": "logs/slurm/slurm-51802.out", "time": dt(WD_T + 4.5).isoformat(),
         "text": "terminate called after throwing an instance of 'c10::DistBackendError'",
         "source": "https://github.com/NVIDIA/Megatron-LM/issues/935"},
        {"file": "logs/slurm/slurm-51802.out", "time": dt(ABORT_T + 1.5).isoformat(),
         "text": "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: / exitcode  : -6 (pid: <pid>) / traceback : Signal 6 (SIGABRT) received by PID <pid>",
         "source": "https://github.com/open-compass/VLMEvalKit/issues/1131 (host, rank, pid, time adapted)"},
    ],
    "other_real_lines_used": [
        {"text": "srun: error: <host>: task <n>: Exited with exit code 1", "source": "https://github.com/facebookresearch/ParlAI/issues/3084"},
        {"text": "srun: error: <host>: task <n>: Killed", "source": "https://github.com/SWIFTSIM/SWIFT/issues/74"},
    ],
    "hosts": [BAD],
    "gpu": {"host": BAD, "index": BAD_GPU, "pci_bus_id": "00000000:82:00.0", "uuid": BAD_UUID, "rank": BAD_RANK},
    "onset": dt(XID_T).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z",
    "key_times": {
        "first_pcie_corrected_errors_on_v100n09": dt(XID_T - 1139.47).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "xid79_gpu_off_bus": dt(XID_T).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "last_completed_iteration_36526": dt(ENDS1[-1]).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "nccl_watchdog_abort": dt(WD_T).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_51802_ended": dt(J1_END).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_51874_started_without_v100n09_with_spare_v100n17": dt(J2_START).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "training_resumed_from_iteration_36500": dt(TRAIN2_START).strftime("%Y-%m-%dT%H:%M:%SZ"),
    },
    "zero_throughput_interval": [dt(zero_from).strftime("%Y-%m-%dT%H:%M:%SZ"), dt(zero_to).strftime("%Y-%m-%dT%H:%M:%SZ")],
    "iterations_recomputed": 26,
    "job_throughput_loss_pct": loss_pct,
    "job_throughput_loss_definition": ("share of the progress the job would have made from its first iteration (11:13) to "
                                       "14:00 at the 11:15-11:45 iteration rate that was not achieved: the 10-min hang, the "
                                       "~15-min restart and the 26 recomputed iterations"),
    "what_a_good_postmortem_says": (
        "The hang was caused by GPU 5 of v100n09 (PCI 0000:82:00, UUID GPU-660d987e-…, rank 69) falling off the PCIe bus "
        "at 11:49:37 (Xid 79, preceded by PCIe AER corrected Replay Timer Timeouts from ~11:30 and a fatal Surprise Down "
        "on root port 0000:80:02.0); its dcgm-exporter series end there. Every other rank then blocked in the gradient "
        "all-reduce (SeqNum 1580) with GPUs at 100 % utilisation but ~80 W, throughput was zero until the 10-min NCCL "
        "watchdog aborted the job at 11:59:38; the watchdog lines on the 127 healthy ranks are a symptom, not the cause. "
        "Draining v100n09 and restarting on the spare v100n17 was the right action; the GPU/riser/slot of v100n09 gpu 5 "
        "needs hardware inspection (RMA) before the node returns, and a shorter NCCL timeout or GPU-health-driven abort "
        "would have saved most of the 10 idle minutes."),
    "red_herrings": ["all 127 healthy ranks print the watchdog timeout; rank 69 (the faulty GPU) prints nothing",
                     "v100n09's other seven GPUs behave like everyone else's (spin, then idle)",
                     "v100n17 only appears after 12:06 (idle spare before)"],
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=4096, allow_unicode=True)
print("xid", dt(XID_T), "wd", dt(WD_T), "train1 start", dt(TRAIN1_START), "j1 start", dt(J1_START),
      "resume", dt(TRAIN2_START), "loss", loss_pct, "rows", dcgm.height, node.height)
