#!/usr/bin/env python3
"""Generate incident folder gpt6p7b-2025-05-14 (INC8 incident 1).

Slurm cluster, 16 x DGX-A100-class nodes (8 x A100-SXM4-80GB, 1 TB RAM, no swap), Megatron-LM
GPT 6.7B pure data parallel (128 ranks, distributed optimizer), launched with
`srun --label --kill-on-bad-exit=1 torchrun --tee 3 ...` from an sbatch retry wrapper.

Fault: the data-loader workers of the ranks on cn0611 leak memory from 06:34:40; host memory
falls for ~1h45m, the page cache is squeezed out, the host thrashes (major faults, PSI
memory), its ranks wait on data and every step of the synchronous job slows a few percent;
at 08:22:17 the kernel OOM killer kills one DataLoader worker, rank 82 raises the DataLoader
RuntimeError, srun kills the step, the wrapper restarts from the iteration-23000 checkpoint
~11 min later, and the leak starts again.

Fixed seed; writes incident.yaml, metrics/*.om (promtool tsdb dump-openmetrics style),
logs/<host>/syslog, logs/slurm/slurm-48213.out and truth.yaml.
"""
import math
import os
import shutil
import sys

import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inc8_common import (ts, dt, write_openmetrics, scrape_times, gpu_uuid, syslog_stamp,
                         ema, counter_from_rate)

SEED = 20250514
rng = np.random.default_rng(SEED)
ID = "gpt6p7b-2025-05-14"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

W0, W1 = ts("2025-05-14T06:00:00Z"), ts("2025-05-14T09:00:00Z")
HOSTS = [f"cn06{i:02d}" for i in range(1, 17)]
IPS = {h: f"10.16.6.{i + 1}" for i, h in enumerate(HOSTS)}
BAD = "cn0611"
BAD_IDX = HOSTS.index(BAD)          # srun task 10 -> global ranks 80..87
VICTIM_LOCAL = 2                     # rank 82's DataLoader worker is killed
NGPU = 8
GB = 1e9
SCRAPE = 30.0

# ---------------------------------------------------------------- key times
JOB_START = ts("2025-05-14T03:05:08Z")
A_TRAIN0 = ts("2025-05-14T03:12:41Z")       # run A first iteration (from ckpt 19000)
L0 = ts("2025-05-14T06:34:40Z")             # leak starts on cn0611
T_OOM = ts("2025-05-14T08:22:17.491Z")      # kernel OOM kill
T_ERR = T_OOM + 0.31                         # rank 82 raises
T_EXIT = ts("2025-05-14T08:22:52Z")          # all tasks gone
T_B0 = ts("2025-05-14T08:32:55Z")            # srun step 48213.1
T_B_TRAIN = ts("2025-05-14T08:36:21Z")       # first iteration of run B starts
CKPT_EVERY, CKPT_SAVE_S = 1000, 37.0
BASE_STEP = 4.212
GBS, SEQ, TRAIN_ITERS = 1024, 2048, 300000

# ---------------------------------------------------------------- memory model of the bad host
MEMTOTAL = 1056284736 * 1024.0
U_OTHER = 130 * GB            # kernel, slab, page tables, pinned/registered buffers
SHMEM = 45 * GB               # /dev/shm tensors of the loaders
A0_BAD = 182.4 * GB
C0_BAD = 255 * GB
A_OOM = 886.0 * GB
LEAK_RATE = (A_OOM - A0_BAD) / (T_OOM - L0)   # bytes/s  (~6.5 GB/min)
F_LOW = 4.2 * GB
C_MIN = 62 * GB


def bad_host_memory(t):
    """Return anon, cached, free for cn0611 at times t (vectorised)."""
    t = np.asarray(t, dtype=float)
    anon = np.full_like(t, A0_BAD)
    lk = (t >= L0) & (t < T_OOM)
    anon[lk] += LEAK_RATE * (t[lk] - L0)
    # crash: processes exit; restart: processes back, leak again from T_B_TRAIN
    ex = (t >= T_OOM) & (t < T_EXIT)
    frac = np.clip((t[ex] - T_OOM) / (T_EXIT - T_OOM), 0, 1)
    anon[ex] = (A_OOM - 13.2 * GB) * (1 - frac) + 6 * GB * frac
    down = (t >= T_EXIT) & (t < T_B0 + 25)
    anon[down] = 6 * GB
    up = (t >= T_B0 + 25) & (t < T_B_TRAIN)
    anon[up] = 6 * GB + (A0_BAD + 12 * GB - 6 * GB) * np.clip((t[up] - T_B0 - 25) / (T_B_TRAIN - T_B0 - 25), 0, 1)
    b = t >= T_B_TRAIN
    anon[b] = A0_BAD + LEAK_RATE * (t[b] - T_B_TRAIN)
    # cache and free
    cached = C0_BAD + 3 * GB * np.sin((t - W0) / 2100.0 + 1.3) + 0.4 * GB * np.sin(t / 97.0) \
        + 0.25 * GB * np.sin(t / 13.3)
    free = MEMTOTAL - U_OTHER - anon - cached
    squeeze = free < F_LOW + 1.5 * GB
    f_target = F_LOW + 1.2 * GB * np.sin(t / 37.0) ** 2
    cached[squeeze] = MEMTOTAL - U_OTHER - anon[squeeze] - f_target[squeeze]
    cached = np.maximum(cached, C_MIN)
    # after the crash the cache is what survived; it refills as the dataset is re-read
    post = t >= T_OOM
    c_after = C_MIN + 1.5 * GB + 0.09 * GB * np.clip(t[post] - T_B_TRAIN, 0, None) \
        + 18 * GB * np.clip((t[post] - T_B0 - 60) / 150.0, 0, 1)     # checkpoint read (Lustre pages)
    cached[post] = np.minimum(c_after, C0_BAD)
    free = MEMTOTAL - U_OTHER - anon - cached
    return anon, cached, free


def thrash_intensity(t):
    """0..1: how hard cn0611 pages (file pages of mmapped dataset, libs) - from the cache squeeze."""
    _, cached, _ = bad_host_memory(t)
    x = np.clip((190 * GB - cached) / (190 * GB - C_MIN), 0, 1)
    x[np.asarray(t) >= T_OOM] = 0.0
    return x


def slowdown(t):
    """Step-time multiplier of the whole synchronous job (>= 1)."""
    x = thrash_intensity(np.atleast_1d(t))
    return 1.0 + 0.09 * x ** 1.7


# ---------------------------------------------------------------- iteration schedule
def run_schedule(t_start, it_first, t_stop, first_step_extra=0.0):
    """Iteration end times from it_first while before t_stop. Returns (iters, end_times, ckpt_times)."""
    iters, ends, ckpts = [], [], []
    t, it = t_start, it_first
    ar = 0.0
    while True:
        ar = 0.85 * ar + rng.normal(0, 0.004)
        st = BASE_STEP * (1 + ar + rng.normal(0, 0.006)) * float(slowdown(t)[0])
        if rng.random() < 0.004:
            st += rng.uniform(0.6, 2.2)          # occasional hiccup (GC, straggling read)
        if it == it_first:
            st += first_step_extra
        if t + st > t_stop:
            break
        t += st
        iters.append(it)
        ends.append(t)
        if it % CKPT_EVERY == 0:
            save = CKPT_SAVE_S + rng.normal(0, 1.5)
            ckpts.append((it, t, t + save))
            t += save
        it += 1
    return np.array(iters), np.array(ends), ckpts


ITA, ENDA, CKA = run_schedule(A_TRAIN0, 19001, T_OOM + 0.25, first_step_extra=5.0)
ITB, ENDB, CKB = run_schedule(T_B_TRAIN, 23001, W1 + 600, first_step_extra=6.5)
LAST_CKPT_BEFORE_CRASH = max(c[0] for c in CKA)
assert LAST_CKPT_BEFORE_CRASH == 23000, LAST_CKPT_BEFORE_CRASH
CRASH_ITER = int(ITA[-1])

# phase intervals for GPU state
CKPT_WIN = [(c[1], c[2]) for c in CKA + CKB]


def in_ckpt(t):
    m = np.zeros_like(t, dtype=bool)
    for a, b in CKPT_WIN:
        m |= (t >= a) & (t < b)
    return m


def phase(t):
    """0 idle(no procs) 1 init 2 train 3 ckpt 4 spin(blocked) for arrays of t."""
    p = np.full(t.shape, 2, dtype=int)
    p[(t >= T_OOM) & (t < T_ERR + 3.0)] = 4
    p[(t >= T_ERR + 3.0) & (t < T_B0 + 25)] = 0
    p[(t >= T_B0 + 25) & (t < T_B_TRAIN)] = 1
    p[in_ckpt(t)] = 3
    p[t < A_TRAIN0] = 1
    return p


# ---------------------------------------------------------------- static inventory
DRIVER = "535.161.08"
BUS = ["07", "0F", "47", "4E", "87", "90", "B7", "BD"]
HCA_PCI = ["0c", "12", "4b", "54", "8d", "94", "ba", "cc"]
inv = {}
for hi, h in enumerate(HOSTS):
    inv[h] = dict(
        boot=JOB_START - rng.uniform(18, 64) * 86400,
        amb=rng.normal(24.5, 1.2),
        uuids=[gpu_uuid(rng) for _ in range(NGPU)],
        pw_off=rng.normal(0, 9, NGPU),
        t_off=rng.normal(0, 2.2, NGPU) + np.array([0, 1.5, 3, 4.5, 0.5, 2, 3.5, 5.0]),
        fb_off=rng.normal(0, 180, NGPU),
        nvl0=rng.uniform(2e9, 9e9, NGPU),
        a0=rng.normal(181, 3) * GB,
        c0=rng.uniform(205, 262) * GB,
        pgf_rate=rng.uniform(1.3e5, 2.1e5),
        ib_scale=rng.normal(1.0, 0.02),
    )
inv[BAD]["a0"] = A0_BAD
inv[BAD]["c0"] = C0_BAD

# ---------------------------------------------------------------- dcgm metrics
series_dcgm, series_node = [], []


def dcgm_for_host(h):
    hi = HOSTS.index(h)
    I = inv[h]
    tt = scrape_times(rng, W0, W1, SCRAPE)
    ph = phase(tt)
    sd = slowdown(tt)
    stall = 1 - 1 / sd                        # fraction of a step spent waiting on cn0611's data
    inst = f"{IPS[h]}:9400"
    out = []
    for g in range(NGPU):
        labels = {"DCGM_FI_DRIVER_VERSION": DRIVER, "Hostname": h, "UUID": I["uuids"][g],
                  "device": f"nvidia{g}", "gpu": str(g), "instance": inst, "job": "dcgm-exporter",
                  "modelName": "NVIDIA A100-SXM4-80GB", "pci_bus_id": f"00000000:{BUS[g]}:00.0"}
        n = len(tt)
        util = np.zeros(n); pw = np.zeros(n); clk = np.zeros(n); fb = np.zeros(n); ten = np.zeros(n)
        nvl_rate = np.zeros(n)
        tr = ph == 2
        # training
        u = np.clip(rng.normal(98.3, 1.2, n), 88, 100)
        dips = rng.random(n) < 0.05
        u[dips] = rng.uniform(55, 92, dips.sum())
        p_train = 342 + I["pw_off"][g] + rng.normal(0, 11, n)
        if h == BAD:
            # this host's ranks sit idle while their loaders page data in
            waiting = rng.random(n) < stall * 1.6
            u_b = np.where(waiting, rng.uniform(0, 35, n), u)
            p_b = np.where(waiting, rng.normal(96, 8, n), p_train)
            util[tr] = u_b[tr]; pw[tr] = p_b[tr]
            ten[tr] = np.where(waiting, rng.uniform(0, 0.08, n), rng.normal(0.43, 0.02, n))[tr]
        else:
            util[tr] = u[tr]
            # blocked in the all-reduce for the stall fraction: NCCL spins, util stays up, power drops
            pw[tr] = (p_train * (1 - stall) + 118 * stall)[tr]
            ten[tr] = (rng.normal(0.43, 0.02, n) * (1 - stall))[tr]
        clk[tr] = np.where(rng.random(n) < 0.07, rng.choice([1380, 1395], n), 1410)[tr]
        fb[tr] = 76540 + I["fb_off"][g] + rng.normal(0, 40, n)[tr]
        nvl_rate[tr] = 5.35e3 * (1 - stall[tr]) * rng.normal(1, 0.03, tr.sum())   # MiB/s
        ck = ph == 3
        util[ck] = rng.uniform(0, 6, ck.sum()); pw[ck] = rng.normal(84, 5, ck.sum())
        clk[ck] = 1410; fb[ck] = 76540 + I["fb_off"][g]; ten[ck] = 0.0
        sp = ph == 4
        util[sp] = 100; pw[sp] = rng.normal(118, 6, sp.sum()); clk[sp] = 1410
        fb[sp] = 76540 + I["fb_off"][g]; ten[sp] = 0
        idl = ph == 0
        util[idl] = 0; pw[idl] = rng.normal(59, 1.5, idl.sum()) + I["pw_off"][g] * 0.1
        clk[idl] = 210; fb[idl] = 0; ten[idl] = 0
        ini = ph == 1
        prog = np.clip((tt - T_B0 - 25) / (T_B_TRAIN - T_B0 - 25), 0, 1)
        util[ini] = np.where(rng.random(n) < 0.3, rng.uniform(5, 60, n), 0)[ini]
        pw[ini] = rng.normal(78, 6, n)[ini]
        clk[ini] = 1410
        fb[ini] = (2100 + prog * 70000)[ini]
        ten[ini] = 0
        pw = np.clip(pw, 52, 400)
        temp_raw = I["amb"] + 6.5 + 0.094 * pw + I["t_off"][g]
        temp = np.round(ema(temp_raw, 0.55) + rng.normal(0, 0.4, n))
        nvl = counter_from_rate(tt, nvl_rate, I["nvl0"][g])
        for name, vals in (("DCGM_FI_DEV_GPU_UTIL", np.round(util)),
                           ("DCGM_FI_DEV_POWER_USAGE", np.round(pw, 3)),
                           ("DCGM_FI_DEV_GPU_TEMP", temp),
                           ("DCGM_FI_DEV_SM_CLOCK", clk),
                           ("DCGM_FI_DEV_FB_USED", np.round(np.clip(fb, 0, 81037))),
                           ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(np.clip(ten, 0, 1), 6)),
                           ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.floor(nvl)),
                           ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n))):
            out.append((name, labels, tt, vals))
    out.append(("up", {"instance": inst, "job": "dcgm-exporter"}, tt, np.ones(len(tt))))
    return out


# ---------------------------------------------------------------- node_exporter metrics
def node_for_host(h):
    I = inv[h]
    inst = f"{IPS[h]}:9100"
    tt = scrape_times(rng, W0, W1, SCRAPE)
    n = len(tt)
    ph = phase(tt)
    if h == BAD:
        anon, cached, free = bad_host_memory(tt)
        x = thrash_intensity(tt)
    else:
        anon = np.full(n, I["a0"]) + rng.normal(0, 0.25 * GB, n)
        ex = (tt >= T_OOM) & (tt < T_EXIT)
        anon[ex] = I["a0"] * (1 - np.clip((tt[ex] - T_OOM) / (T_EXIT - T_OOM), 0, 1)) + 6 * GB
        anon[(tt >= T_EXIT) & (tt < T_B0 + 25)] = 6 * GB + rng.normal(0, 0.05 * GB)
        up = (tt >= T_B0 + 25) & (tt < T_B_TRAIN)
        anon[up] = 6 * GB + (I["a0"] + 12 * GB - 6 * GB) * np.clip((tt[up] - T_B0 - 25) / (T_B_TRAIN - T_B0 - 25), 0, 1)
        cached = I["c0"] + 3 * GB * np.sin((tt - W0) / 2100.0 + I["c0"] / GB) + rng.normal(0, 0.3 * GB, n)
        post = tt >= T_B0 + 60
        cached[post] += 18 * GB * np.clip((tt[post] - T_B0 - 60) / 150.0, 0, 1)
        cached = np.minimum(cached, MEMTOTAL - U_OTHER - anon - 40 * GB)
        free = MEMTOTAL - U_OTHER - anon - cached
        x = np.zeros(n)
    free = free + rng.normal(0, 0.05 * GB, n)
    srecl = np.where(x > 0, 7.5 * GB * (1 - 0.75 * x), 7.5 * GB) + rng.normal(0, 0.02 * GB, n)
    avail = free - 1.1 * GB + np.maximum(cached - SHMEM - 2 * GB, 0) * 0.97 + srecl
    avail = np.maximum(avail, 1.9 * GB + rng.uniform(0, 0.6 * GB, n))
    memfree_out = np.maximum(free, 2.8 * GB)
    # vmstat / psi rates
    train_act = np.isin(ph, [1, 2, 3]).astype(float)
    majf = 1.5 + 0.8 * train_act + 2600 * x ** 2 * rng.lognormal(0, 0.25, n)
    pgin = 24000 * train_act * rng.lognormal(0, 0.2, n) + 3000 + 128 * majf
    pgin[(ph == 1)] += 350000                      # checkpoint read at restart
    pgout = 1800 + 900 * rng.random(n) + 60000 * (ph == 3)
    pgf = I["pgf_rate"] * (0.2 + 0.8 * train_act) * rng.lognormal(0, 0.08, n) + 40000 * x
    mem_wait = 0.92 * x ** 1.4 * rng.lognormal(0, 0.15, n)
    mem_stall = 0.38 * x ** 2.0 * rng.lognormal(0, 0.2, n)
    io_wait = 0.004 + 0.02 * (ph == 3) + 0.35 * x * rng.lognormal(0, 0.2, n)
    io_stall = 0.001 + 0.01 * (ph == 3) + 0.12 * x ** 1.5
    cpu_wait = 0.03 + 0.04 * train_act + 0.35 * x
    boot = I["boot"]
    up_s = W0 - boot
    base = dict(pgfault=I["pgf_rate"] * up_s * 0.5, pgmajfault=up_s * 1.1, pgpgin=up_s * 9000,
                pgpgout=up_s * 2100)
    load1 = ema(74 * train_act + 3 + 60 * x + 25 * (ph == 1), 0.6) + rng.normal(0, 2.0, n)
    blocked = np.round(np.clip(rng.poisson(0.4 + 38 * x ** 1.5), 0, None))
    running = np.round(np.clip(rng.normal(70 * train_act + 2, 4, n) + 20 * x, 1, None))
    oomk = np.zeros(n) + (0 if h != "cn0603" else 1)   # cn0603 had an old OOM kill weeks ago
    if h == BAD:
        oomk[tt >= T_OOM] += 1
    S = []
    lab = {"instance": inst, "job": "node"}
    # scrapes that timed out on the thrashing host: no samples, up == 0
    keep = np.ones(n, dtype=bool)
    upv = np.ones(n)
    if h == BAD:
        to = (tt > T_OOM - 170) & (tt < T_OOM - 20) & (rng.random(n) < 0.75)
        keep &= ~to
        upv[to] = 0
    k = keep

    def add(name, vals, extra=None):
        L = dict(lab)
        if extra:
            L.update(extra)
        S.append((name, L, tt[k], np.asarray(vals)[k]))

    add("node_memory_MemTotal_bytes", np.full(n, MEMTOTAL))
    add("node_memory_MemAvailable_bytes", np.round(avail / 1024) * 1024)
    add("node_memory_MemFree_bytes", np.round(memfree_out / 1024) * 1024)
    add("node_memory_Cached_bytes", np.round(cached / 1024) * 1024)
    add("node_memory_AnonPages_bytes", np.round(anon / 1024) * 1024)
    add("node_memory_Shmem_bytes", np.round((SHMEM * np.where(np.isin(ph, [0]), 0.02, 1.0) + rng.normal(0, 0.05 * GB, n)) / 1024) * 1024)
    add("node_memory_SwapTotal_bytes", np.zeros(n))
    add("node_memory_SwapFree_bytes", np.zeros(n))
    add("node_vmstat_pgfault", np.floor(counter_from_rate(tt, pgf, base["pgfault"])))
    add("node_vmstat_pgmajfault", np.floor(counter_from_rate(tt, majf, base["pgmajfault"])))
    add("node_vmstat_pgpgin", np.floor(counter_from_rate(tt, pgin, base["pgpgin"])))
    add("node_vmstat_pgpgout", np.floor(counter_from_rate(tt, pgout, base["pgpgout"])))
    add("node_vmstat_pswpin", np.zeros(n))
    add("node_vmstat_pswpout", np.zeros(n))
    add("node_vmstat_oom_kill", oomk)
    add("node_pressure_memory_waiting_seconds_total", np.round(counter_from_rate(tt, mem_wait, up_s * 0.0002), 6))
    add("node_pressure_memory_stalled_seconds_total", np.round(counter_from_rate(tt, mem_stall, up_s * 0.00005), 6))
    add("node_pressure_io_waiting_seconds_total", np.round(counter_from_rate(tt, io_wait, up_s * 0.004), 6))
    add("node_pressure_io_stalled_seconds_total", np.round(counter_from_rate(tt, io_stall, up_s * 0.001), 6))
    add("node_pressure_cpu_waiting_seconds_total", np.round(counter_from_rate(tt, cpu_wait, up_s * 0.05), 6))
    add("node_load1", np.round(np.clip(load1, 0, None), 2))
    add("node_procs_blocked", blocked)
    add("node_procs_running", running)
    add("node_boot_time_seconds", np.full(n, float(int(boot))))
    add("node_uname_info", np.ones(n), {"domainname": "(none)", "machine": "x86_64", "nodename": h,
                                        "release": "5.15.0-105-generic", "sysname": "Linux",
                                        "version": "#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024"})
    # InfiniBand (8 compute HCAs, HDR 200G)
    ib_active = np.isin(ph, [2]).astype(float) * (1 - (1 - 1 / slowdown(tt)))
    for j in range(8):
        r_rx = 3.05e9 * I["ib_scale"] * ib_active * rng.normal(1, 0.02, n) + 2e5
        r_tx = 3.05e9 * I["ib_scale"] * ib_active * rng.normal(1, 0.02, n) + 2e5
        c0 = rng.uniform(2e14, 9e14)
        add("node_infiniband_port_data_received_bytes_total", np.floor(counter_from_rate(tt, r_rx, c0)),
            {"device": f"mlx5_{j}", "port": "1"})
        add("node_infiniband_port_data_transmitted_bytes_total", np.floor(counter_from_rate(tt, r_tx, c0 * 1.01)),
            {"device": f"mlx5_{j}", "port": "1"})
    S.append(("up", lab, tt, upv))
    return S


for h in HOSTS:
    series_dcgm += dcgm_for_host(h)
    series_node += node_for_host(h)

# ---------------------------------------------------------------- trainer output (slurm-48213.out)
TRAINER = []   # (time, text)
W_LABEL = 2


def lab(task):
    return f"{task:>{W_LABEL}d}: "


def rk(task, local):
    return f"{lab(task)}[default{local}]:"


PIDS = {h: int(rng.integers(1_600_000, 2_100_000)) for h in HOSTS}
PIDS_B = {h: PIDS[h] + int(rng.integers(40_000, 90_000)) for h in HOSTS}
VICTIM_WORKER_PID = PIDS[BAD] + 8 + VICTIM_LOCAL * 8 + 5 + 207   # a loader worker of local rank 2


def lr_at(i):
    warm, lo, hi = 2000, 3.0e-5, 3.0e-4
    if i < warm:
        return hi * i / warm
    return lo + 0.5 * (hi - lo) * (1 + math.cos(math.pi * (i - warm) / (TRAIN_ITERS - warm)))


def loss_at(i):
    r = np.random.default_rng(1_000_003 + i)           # same data order -> same loss on replay
    return 2.118 - 0.061 * math.log(i / 19000.0) + r.normal(0, 0.016)


def gnorm_at(i):
    r = np.random.default_rng(7_000_001 + i)
    g = 0.214 + r.normal(0, 0.012)
    if r.random() < 0.01:
        g += r.uniform(0.08, 0.4)
    return g


def megatron_line(t, it, elapsed_ms):
    tflops = 6 * 6.74e9 * GBS * SEQ / (elapsed_ms / 1000.0) / 128 / 1e12
    stamp = dt(t).strftime("%Y-%m-%d %H:%M:%S")
    return (f" [{stamp}] iteration {it:8d}/{TRAIN_ITERS:8d} | consumed samples: {it * GBS:12d} | "
            f"elapsed time per iteration (ms): {elapsed_ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
            f"learning rate: {lr_at(it):.6E} | global batch size: {GBS:5d} | lm loss: {loss_at(it):.6E} | "
            f"loss scale: 1.0 | grad norm: {gnorm_at(it):.3f} | number of skipped iterations:   0 | "
            f"number of nan iterations:   0 |")


def emit_iterations(iters, ends, ckpts):
    ck = {c[0]: c for c in ckpts}
    prev_t = None
    for idx, (it, te) in enumerate(zip(iters, ends)):
        if it % 10 == 0 and idx >= 10:
            span = te - ends[idx - 10]
            for c in ckpts:
                if ends[idx - 10] < c[1] + 0.01 <= te:
                    span -= (c[2] - c[1])
            TRAINER.append((te + 0.002, rk(15, 7) + megatron_line(te, int(it), span / 10 * 1000)))
        if it in ck:
            _, a, b = ck[it]
            TRAINER.append((a + 0.01, rk(0, 0) + f"saving checkpoint at iteration {it:7d} to /lustre/fsw/llm/gpt-6.7b-v3/checkpoints in torch_dist format"))
            TRAINER.append((b - 0.02, rk(0, 0) + f"  successfully saved checkpoint from iteration {it:7d} to /lustre/fsw/llm/gpt-6.7b-v3/checkpoints [ t 1/1, p 1/1 ]"))
            TRAINER.append((b - 0.01, rk(0, 0) + "(min, max) time across ranks (ms):"))
            TRAINER.append((b, rk(0, 0) + f"    save-checkpoint ................................: ({(b - a) * 1000 - 41.7:.2f}, {(b - a) * 1000:.2f})"))


def startup(t0, step, pids, it_ckpt):
    L = []
    L.append((t0 - 0.5, f"[launcher] {dt(t0).strftime('%Y-%m-%dT%H:%M:%S+00:00')} attempt {step + 1}/5: srun step {step} on cn[0601-0616] (16 nodes x 8 GPUs)"))
    for task, h in enumerate(HOSTS):
        tb = t0 + 1.2 + task * 0.01
        L.append((tb, lab(task) + "WARNING:torch.distributed.run:"))
        L.append((tb + 0.001, lab(task) + "*****************************************"))
        L.append((tb + 0.002, lab(task) + "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        L.append((tb + 0.003, lab(task) + "*****************************************"))
    tn = t0 + 24
    L.append((tn, rk(0, 0) + f"cn0601:{pids['cn0601']}:{pids['cn0601']} [0] NCCL INFO Bootstrap : Using ibp12s0:10.16.6.1<0>"))
    L.append((tn + 0.01, rk(0, 0) + f"cn0601:{pids['cn0601']}:{pids['cn0601']} [0] NCCL INFO cudaDriverVersion 12020"))
    L.append((tn + 0.02, rk(0, 0) + "NCCL version 2.18.5+cuda12.2"))
    for task, h in enumerate(HOSTS):
        for l in range(NGPU):
            r = task * NGPU + l
            pid = pids[h] + l
            tt0 = tn + 1.5 + rng.uniform(0, 2.5)
            L.append((tt0, rk(task, l) + f"{h}:{pid}:{pid} [{l}] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB ibp12s0:{IPS[h]}<0>"))
            L.append((tt0 + 0.01, rk(task, l) + f"{h}:{pid}:{pid} [{l}] NCCL INFO Using network IB"))
            tid = pid + 197 + l
            bus = BUS[l].lower().lstrip("0") + "000"
            L.append((tn + 9 + rng.uniform(0, 1.5), rk(task, l) + f"{h}:{pid}:{tid} [{l}] NCCL INFO comm 0x{int(rng.integers(0x55d000000000, 0x55dfffffffff)):x} rank {r} nranks 128 cudaDev {l} nvmlDev {l} busId {bus} commId 0x6c2bd7a3f0e1c8a9 - Init COMPLETE"))
    tl = tn + 14
    L.append((tl, rk(0, 0) + f" loading checkpoint from /lustre/fsw/llm/gpt-6.7b-v3/checkpoints at iteration {it_ckpt}"))
    return L, tl


# run A (start of the job)
S, tl = startup(JOB_START, 0, PIDS, 19000)
TRAINER += S
TRAINER.append((A_TRAIN0 - 20, rk(0, 0) + f"  successfully loaded checkpoint from /lustre/fsw/llm/gpt-6.7b-v3/checkpoints [ t 1/1, p 1/1 ] at iteration 19000"))
TRAINER.append((A_TRAIN0 - 5, rk(0, 0) + "[after dataloaders are built] datetime: " + dt(A_TRAIN0 - 5).strftime("%Y-%m-%d %H:%M:%S") + " "))
TRAINER.append((A_TRAIN0 - 4, rk(0, 0) + "training ..."))
emit_iterations(ITA, ENDA, CKA)

# ---- the crash on rank 82 (task 10, local rank 2): verbatim traceback lines, pid adapted
PYLIB = "/usr/local/lib/python3.10/dist-packages"
tb_lines = [
    "Traceback (most recent call last):",
    f'  File "{PYLIB}/torch/utils/data/dataloader.py", line 1133, in _try_get_data',
    "    data = self._data_queue.get(timeout=timeout)",
    '  File "/usr/lib/python3.10/queue.py", line 180, in get',
    "    self.not_empty.wait(remaining)",
    '  File "/usr/lib/python3.10/threading.py", line 324, in wait',
    "    gotit = waiter.acquire(True, timeout)",
    f'  File "{PYLIB}/torch/utils/data/_utils/signal_handling.py", line 66, in handler',
    "    _error_if_any_worker_fails()",
    f"RuntimeError: DataLoader worker (pid {VICTIM_WORKER_PID}) is killed by signal: Killed. ",
    "",
    "The above exception was the direct cause of the following exception:",
    "",
    "Traceback (most recent call last):",
    '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 243, in <module>',
    "    pretrain(",
    '  File "/workspace/Megatron-LM/megatron/training/training.py", line 343, in pretrain',
    "    iteration, num_floating_point_operations_so_far = train(",
    '  File "/workspace/Megatron-LM/megatron/training/training.py", line 1240, in train',
    "    train_step(forward_step_func,",
    '  File "/workspace/Megatron-LM/megatron/training/training.py", line 707, in train_step',
    "    losses_reduced = forward_backward_func(",
    '  File "/workspace/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", line 423, in forward_backward_no_pipelining',
    "    output_tensor, num_tokens = forward_step(",
    '  File "/workspace/Megatron-LM/megatron/core/pipeline_parallel/schedules.py", line 254, in forward_step',
    "    output_tensor, loss_func = forward_step_func(data_iterator, model)",
    '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 163, in forward_step',
    "    tokens, labels, loss_mask, attention_mask, position_ids = get_batch(",
    '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 88, in get_batch',
    "    batch = get_batch_on_this_tp_rank(data_iterator)",
    '  File "/workspace/Megatron-LM/megatron/training/utils.py", line 312, in get_batch_on_this_tp_rank',
    "    data = next(data_iterator)",
    f'  File "{PYLIB}/torch/utils/data/dataloader.py", line 631, in __next__',
    "    data = self._next_data()",
    f'  File "{PYLIB}/torch/utils/data/dataloader.py", line 1329, in _next_data',
    "    idx, data = self._get_data()",
    f'  File "{PYLIB}/torch/utils/data/dataloader.py", line 1285, in _get_data',
    "    success, data = self._try_get_data()",
    f'  File "{PYLIB}/torch/utils/data/dataloader.py", line 1146, in _try_get_data',
    "    raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e",
    f"RuntimeError: DataLoader worker (pid(s) {VICTIM_WORKER_PID}) exited unexpectedly",
]
for j, line in enumerate(tb_lines):
    TRAINER.append((T_ERR + j * 0.0005, rk(BAD_IDX, VICTIM_LOCAL) + line))
# torchrun agent on cn0611 (torch 2.1 logging format)
ta = T_ERR + 1.4
for l in range(NGPU):
    if l != VICTIM_LOCAL:
        TRAINER.append((ta + l * 0.001, lab(BAD_IDX) + f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {PIDS[BAD] + l} closing signal SIGTERM"))
ta2 = ta + 1.1
agent = [
    f"ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: {VICTIM_LOCAL} (pid: {PIDS[BAD] + VICTIM_LOCAL}) of binary: /usr/bin/python",
    "Traceback (most recent call last):",
    '  File "/usr/local/bin/torchrun", line 33, in <module>',
    "    sys.exit(load_entry_point('torch==2.1.0a0+32f93b1', 'console_scripts', 'torchrun')())",
    f'  File "{PYLIB}/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 346, in wrapper',
    "    return f(*args, **kwargs)",
    f'  File "{PYLIB}/torch/distributed/run.py", line 806, in main',
    "    run(args)",
    f'  File "{PYLIB}/torch/distributed/run.py", line 797, in run',
    "    elastic_launch(",
    f'  File "{PYLIB}/torch/distributed/launcher/api.py", line 134, in __call__',
    "    return launch_agent(self._config, self._entrypoint, list(args))",
    f'  File "{PYLIB}/torch/distributed/launcher/api.py", line 264, in launch_agent',
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
    f"  time      : {dt(ta2).strftime('%Y-%m-%d_%H:%M:%S')}",
    f"  host      : {BAD}",
    f"  rank      : {BAD_IDX * 8 + VICTIM_LOCAL} (local_rank: {VICTIM_LOCAL})",
    f"  exitcode  : 1 (pid: {PIDS[BAD] + VICTIM_LOCAL})",
    "  error_file: <N/A>",
    "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
    "============================================================",
]
for j, line in enumerate(agent):
    TRAINER.append((ta2 + j * 0.0005, lab(BAD_IDX) + line))
ts_fail = ta2 + 0.9
TRAINER.append((ts_fail, f"srun: error: {BAD}: task {BAD_IDX}: Exited with exit code 1"))
TRAINER.append((ts_fail + 0.01, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
TRAINER.append((ts_fail + 0.05, lab(0) + f"slurmstepd: error: *** STEP 48213.0 ON cn0601 CANCELLED AT {dt(ts_fail).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO TASK FAILURE ***"))
for task, h in enumerate(HOSTS):
    if task == BAD_IDX:
        continue
    TRAINER.append((T_EXIT - 1.5 + task * 0.01, f"srun: error: {h}: task {task}: Terminated"))
TRAINER.append((T_EXIT - 1.0, "srun: Force Terminated StepId=48213.0"))
TRAINER.append((T_EXIT + 1.0, f"[launcher] {dt(T_EXIT + 1).strftime('%Y-%m-%dT%H:%M:%S+00:00')} srun step 0 exited with status 1; relaunching from latest checkpoint in 600 s"))

# run B
S, tl = startup(T_B0, 1, PIDS_B, 23000)
TRAINER += S
TRAINER.append((T_B_TRAIN - 18, rk(0, 0) + f"  successfully loaded checkpoint from /lustre/fsw/llm/gpt-6.7b-v3/checkpoints [ t 1/1, p 1/1 ] at iteration 23000"))
TRAINER.append((T_B_TRAIN - 3, rk(0, 0) + "[after dataloaders are built] datetime: " + dt(T_B_TRAIN - 3).strftime("%Y-%m-%d %H:%M:%S") + " "))
TRAINER.append((T_B_TRAIN - 2, rk(0, 0) + "training ..."))
emit_iterations(ITB[ENDB <= W1 + 420], ENDB[ENDB <= W1 + 420], [c for c in CKB if c[2] <= W1 + 420])
COLLECT = W1 + 420       # the .out was copied at 09:07

TRAINER.sort(key=lambda x: x[0])
header = [
    "+ export NCCL_DEBUG=INFO NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 CUDA_DEVICE_MAX_CONNECTIONS=1",
    "+ MASTER_ADDR=cn0601 MASTER_PORT=6000",
    "+ srun --label --kill-on-bad-exit=1 --container-image=/lustre/fsw/images/nemo-24.01.sqsh torchrun --nnodes 16 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint cn0601:6000 --tee 3 /workspace/Megatron-LM/pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 2048 --max-position-embeddings 2048 --micro-batch-size 8 --global-batch-size 1024 --train-iters 300000 --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --lr-warmup-iters 2000 --bf16 --use-distributed-optimizer --num-workers 8 --data-path /raid/data/pile_v2_text_document --split 990,8,2 --save-interval 1000 --save /lustre/fsw/llm/gpt-6.7b-v3/checkpoints --load /lustre/fsw/llm/gpt-6.7b-v3/checkpoints --log-interval 10 --log-throughput --eval-interval 5000 --eval-iters 20",
]

# ---------------------------------------------------------------- host syslogs
def host_syslog(h):
    I = inv[h]
    hi = HOSTS.index(h)
    L = []
    t0 = JOB_START - 3 * 3600
    t1 = COLLECT
    boot = I["boot"]

    def k(t, msg):
        L.append((t, f"{syslog_stamp(t)} {h} kernel: [{t - boot:12.6f}] {msg}"))

    def d(t, prog, msg):
        L.append((t, f"{syslog_stamp(t)} {h} {prog}: {msg}"))

    cron_pid = int(rng.integers(300000, 900000))
    # sysstat every 10 min at 5-55/10, hourly run-parts at :17
    m = int(t0 // 60) * 60
    while m < t1:
        mm = dt(m).minute
        if mm % 10 == 5:
            cron_pid += int(rng.integers(40, 400))
            d(m + rng.uniform(0.0, 0.4), f"CRON[{cron_pid}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        if mm == 17:
            cron_pid += int(rng.integers(40, 400))
            d(m + rng.uniform(0.0, 0.4), f"CRON[{cron_pid}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
        m += 60
    # node-health ssh checks from the monitoring host every 15 min
    sess = int(rng.integers(8000, 30000))
    sshd = int(rng.integers(100000, 900000))
    tt = t0 + rng.uniform(0, 900)
    while tt < t1:
        sess += 1
        sshd += int(rng.integers(200, 2000))
        d(tt, f"sshd[{sshd}]", f"Accepted publickey for root from 10.16.0.5 port {int(rng.integers(32768, 60999))} ssh2: ED25519 SHA256:r4v1Q0kq8m3hQdC0tYwq2b7n7o2k3Zr8b6oCkqJ6Jc8")
        d(tt + 0.02, "systemd-logind[1843]", f"New session {sess} of user root.")
        d(tt + 0.03, "systemd[1]", f"Started Session {sess} of User root.")
        d(tt + 2.4, "systemd-logind[1843]", f"Session {sess} logged out. Waiting for processes to exit.")
        d(tt + 2.45, "systemd-logind[1843]", f"Removed session {sess}.")
        tt += 900 + rng.normal(0, 4)
    # apt timers / tmpfiles once
    ta = JOB_START + rng.uniform(2000, 12000)
    d(ta, "systemd[1]", "Starting Daily apt download activities...")
    d(ta + 3.1, "systemd[1]", "apt-daily.service: Deactivated successfully.")
    d(ta + 3.1, "systemd[1]", "Finished Daily apt download activities.")
    tf = JOB_START + rng.uniform(1000, 14000)
    d(tf, "systemd[1]", "Starting Cleanup of Temporary Directories...")
    d(tf + 0.2, "systemd[1]", "systemd-tmpfiles-clean.service: Deactivated successfully.")
    d(tf + 0.2, "systemd[1]", "Finished Cleanup of Temporary Directories.")
    # slurmd step launches
    d(JOB_START + 0.4, "slurmd[2210]", f"slurmd: launch task StepId=48213.0 request from UID:1000 GID:1000 HOST:10.16.6.1 PORT:{int(rng.integers(40000, 60000))}")
    d(T_B0 + 0.4, "slurmd[2210]", f"slurmd: launch task StepId=48213.1 request from UID:1000 GID:1000 HOST:10.16.6.1 PORT:{int(rng.integers(40000, 60000))}")
    # ordinary kernel chatter
    if rng.random() < 0.6:
        k(t0 + rng.uniform(0, t1 - t0), "perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500")
    for _ in range(int(rng.integers(0, 3))):
        tt = t0 + rng.uniform(0, t1 - t0)
        k(tt, f"hrtimer: interrupt took {int(rng.integers(90000, 900000))} ns")
    # the OOM kill: verbatim lines (ShengcaiLiao/QAConv#19), host/pid/time adapted
    if h == BAD:
        pid = VICTIM_WORKER_PID
        k(T_OOM, f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice/user@1000.service,task=python,pid={pid},uid=1000")
        k(T_OOM + 0.000106, f"Out of memory: Killed process {pid} (python) total-vm:49978204kB, anon-rss:12918388kB, file-rss:68668kB, shmem-rss:53352kB, UID:1000 pgtables:49772kB oom_score_adj:0")
        k(T_OOM + 0.786590, f"oom_reaper: reaped process {pid} (python), now anon-rss:0kB, file-rss:68664kB, shmem-rss:53172kB")
    L.sort(key=lambda x: x[0])
    return [s for _, s in L]


# ---------------------------------------------------------------- write folder
if os.path.exists(OUT):
    shutil.rmtree(OUT)
os.makedirs(os.path.join(OUT, "metrics"))
os.makedirs(os.path.join(OUT, "logs", "slurm"))
write_openmetrics(os.path.join(OUT, "metrics", "dcgm-exporter.om"), series_dcgm)
write_openmetrics(os.path.join(OUT, "metrics", "node-exporter.om"), series_node)
with open(os.path.join(OUT, "logs", "slurm", "slurm-48213.out"), "w") as f:
    f.write("\n".join(header) + "\n")
    f.write("\n".join(s for t, s in TRAINER if t <= COLLECT) + "\n")
for h in HOSTS:
    os.makedirs(os.path.join(OUT, "logs", h))
    with open(os.path.join(OUT, "logs", h, "syslog"), "w") as f:
        f.write("\n".join(host_syslog(h)) + "\n")

incident = {
    "id": ID,
    "title": "GPT-6.7B pretraining (job 48213) slowed down, crashed and auto-restarted",
    "window": {"start": "2025-05-14T06:00:00+00:00", "end": "2025-05-14T09:00:00+00:00"},
    "baseline": {"start": "2025-05-14T06:00:00+00:00", "end": "2025-05-14T07:00:00+00:00"},
    "primary_signal": "throughput",
    "cluster": {"name": "sc-a100-r06", "nodes": 16, "gpus_per_node": 8, "gpu_model": "A100"},
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(incident, f, sort_keys=False)

# ---------------------------------------------------------------- truth
# throughput loss over the window: useful (non-repeated) iterations vs. what the baseline rate gives
base_mask = (ENDA >= W0) & (ENDA < ts("2025-05-14T07:00:00Z"))
base_rate = base_mask.sum() / 3600.0                          # it/s incl. normal checkpoint stalls
it_at_w0 = ITA[ENDA >= W0][0] - 1
it_at_w1 = ITB[ENDB <= W1][-1]
useful = it_at_w1 - it_at_w0
ideal = base_rate * (W1 - W0)
loss_pct = float(round(100 * (1 - useful / ideal), 1))
slow_mask = (ENDA >= ts("2025-05-14T08:02:00Z"))
sd_mean = float(np.mean(np.diff(ENDA[slow_mask])) / np.median(np.diff(ENDA[base_mask])))
t_first_slow = float(ENDA[np.argmax(slowdown(ENDA) > 1.01)])
_tg = np.arange(L0, T_OOM, 5.0)
T_SQUEEZE = float(_tg[np.argmax(bad_host_memory(_tg)[1] < C0_BAD - 10 * GB)])
truth = {
    "id": ID,
    "cause": ("A memory leak in the PyTorch DataLoader worker processes of the ranks on cn0611 "
              "(ranks 80-87) exhausted that host's RAM; it paged, slowed every step of the synchronous "
              "job, and the kernel OOM killer then killed a DataLoader worker of rank 82, crashing the job."),
    "cause_metrics": ["node_memory_MemAvailable_bytes", "node_memory_MemFree_bytes", "node_memory_Cached_bytes",
                      "node_memory_AnonPages_bytes", "node_vmstat_pgmajfault", "node_vmstat_pgpgin",
                      "node_pressure_memory_waiting_seconds_total", "node_pressure_memory_stalled_seconds_total",
                      "node_vmstat_oom_kill"],
    "cause_log_evidence": [
        {"file": f"logs/{BAD}/syslog", "time": dt(T_OOM).isoformat(),
         "text": f"oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice/user-1000.slice/user@1000.service,task=python,pid={VICTIM_WORKER_PID},uid=1000",
         "source": "https://github.com/ShengcaiLiao/QAConv/issues/19 (dmesg pasted by huangpan2507, 2021-12-30); pid, host and time adapted"},
        {"file": f"logs/{BAD}/syslog", "time": dt(T_OOM).isoformat(),
         "text": f"Out of memory: Killed process {VICTIM_WORKER_PID} (python) total-vm:49978204kB, anon-rss:12918388kB, file-rss:68668kB, shmem-rss:53352kB, UID:1000 pgtables:49772kB oom_score_adj:0",
         "source": "https://github.com/ShengcaiLiao/QAConv/issues/19; pid, host and time adapted"},
        {"file": f"logs/{BAD}/syslog", "time": dt(T_OOM + 0.79).isoformat(),
         "text": f"oom_reaper: reaped process {VICTIM_WORKER_PID} (python), now anon-rss:0kB, file-rss:68664kB, shmem-rss:53172kB",
         "source": "https://github.com/ShengcaiLiao/QAConv/issues/19; pid, host and time adapted"},
        {"file": "logs/slurm/slurm-48213.out", "time": dt(T_ERR).isoformat(),
         "text": f"RuntimeError: DataLoader worker (pid {VICTIM_WORKER_PID}) is killed by signal: Killed. ",
         "source": ("BiaPyX/BiaPy docs/source/get_started/faq.rst (a user's error trace, torch 2.1 / Python 3.10: "
                    "'RuntimeError: DataLoader worker (pid 1285) is killed by signal: Killed.'); same line in "
                    "https://github.com/pytorch/pytorch/issues/8976 (comment 2024-07-22). pid adapted; the torch/stdlib "
                    "frames around it are that trace's, with the site-packages prefix changed to the container's "
                    "/usr/local/lib/python3.10/dist-packages; the Megatron frames are the job's own.")},
        {"file": "logs/slurm/slurm-48213.out", "time": dt(T_ERR).isoformat(),
         "text": f"RuntimeError: DataLoader worker (pid(s) {VICTIM_WORKER_PID}) exited unexpectedly",
         "source": "BiaPyX/BiaPy docs/source/get_started/faq.rst (same trace); pid adapted"},
    ],
    "other_real_lines_used": [
        {"text": "srun: error: <host>: task <n>: Exited with exit code 1",
         "source": "https://github.com/facebookresearch/ParlAI/issues/3084"},
        {"text": "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
         "source": "https://github.com/ufs-community/ufs-weather-model/pull/907"},
        {"text": "*** STEP <id> ON <host> CANCELLED AT <time> DUE TO TASK FAILURE ***; srun: error: <host>: task <n>: Terminated; srun: Force Terminated StepId=<id>",
         "source": "https://github.com/desihub/desispec/issues/2744"},
        {"text": "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: ... of binary: ...; ChildFailedError block",
         "source": "https://github.com/ai4d-iasc/trixie/issues/87, https://github.com/pytorch/pytorch/issues/130113"},
        {"text": "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process <pid> closing signal SIGTERM",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/163"},
    ],
    "hosts": [BAD],
    "gpu": None,
    "onset": dt(L0).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "key_times": {
        "leak_start_memory_starts_falling": dt(L0).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "page_cache_squeezed_paging_starts": dt(T_SQUEEZE).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_steps_slower_than_1pct": dt(t_first_slow).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "oom_kill": dt(T_OOM).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "job_step_cancelled": dt(ts_fail).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "restart_srun_step_1": dt(T_B0).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "training_resumed_from_iteration_23000": dt(T_B_TRAIN).strftime("%Y-%m-%dT%H:%M:%SZ"),
    },
    "crash_iteration": CRASH_ITER,
    "last_checkpoint_before_crash": int(LAST_CKPT_BEFORE_CRASH),
    "iterations_recomputed": int(CRASH_ITER - LAST_CKPT_BEFORE_CRASH),
    "mean_step_slowdown_pct_0802_to_crash": round(100 * (sd_mean - 1), 1),
    "job_throughput_loss_pct": loss_pct,
    "job_throughput_loss_definition": ("share of the window's expected training progress (baseline 06:00-07:00 rate of "
                                       "iterations, checkpoint stalls included) not achieved: slowdown + downtime + "
                                       "recomputation of iterations after the last checkpoint"),
    "what_a_good_postmortem_says": (
        "The crash at 08:22 was a host OOM on cn0611: a DataLoader worker of rank 82 was killed by the kernel OOM "
        "killer and the DataLoader RuntimeError took the whole job down; it was not a GPU, network or storage fault. "
        "cn0611's available memory had been falling steadily since ~06:35 (anonymous memory of the loader workers "
        "growing ~6.5 GB/min) while the other 15 hosts stayed flat, and from ~07:55 the page cache was squeezed, "
        "major faults and memory pressure rose and every step of the synchronous job slowed by a few percent. "
        "The leak restarted with the job at 08:36, so the same crash will recur in ~1h45m unless the loader leak "
        "is fixed (or workers recycled / num_workers reduced); " + f"{CRASH_ITER - LAST_CKPT_BEFORE_CRASH} iterations were recomputed from checkpoint 23000."),
    "red_herrings": ["cn0603 shows node_vmstat_oom_kill=1 throughout (an old, unrelated OOM kill before the window)",
                     "occasional hrtimer / perf sample-rate kernel lines on several hosts",
                     "GPU power dips on the other 15 hosts during the slowdown are an effect (NCCL waiting), not a cause"],
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=4096, allow_unicode=True)
print("crash iteration", CRASH_ITER, "loss pct", loss_pct, "slowdown pct", truth["mean_step_slowdown_pct_0802_to_crash"],
      "first slow", truth["key_times"]["job_steps_slower_than_1pct"])
