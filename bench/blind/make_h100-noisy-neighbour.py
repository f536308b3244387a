#!/usr/bin/env python3
"""Write the incident folder h100-noisy-neighbour/ (fixed seed).

16 x HGX H100 (128 GPUs), one torchtitan Llama-3-8B FSDP job (dp_shard=128). At 14:07 UTC
another user, logged in over ssh on g0238, starts an evaluation process on GPU 5 (the GPU
of the job's rank 61): ~24 GB more GPU memory on that GPU only; its kernels time-slice
with rank 61's, which during the neighbour's bursts gets about half of the GPU, so every
step of the synchronous job waits for rank 61 and the job loses ~7% until the process
ends an hour later. No kernel fault lines; the trainer only shows slower steps.

Layout: metrics/dcgm_<host>.csv and metrics/node_<host>.csv (long format, raw scrape
times as epoch seconds with milliseconds, 30 s scrapes, Prometheus labels as columns),
logs/journal/<host>.log (journalctl -o short-iso-precise, Ubuntu 24.04),
logs/dmesg/<host>.txt (dmesg -T), logs/slurm-512907.out (torchrun --tee, [rankN]: tags).
"""
from __future__ import annotations

import base64
import csv
import datetime as dt
import hashlib
import math
import os
import shutil

import numpy as np
import yaml

SEED = 20251203
rng = np.random.default_rng(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
ID = "h100-noisy-neighbour"
OUT = os.path.join(HERE, ID)
UTC = dt.timezone.utc

W0 = dt.datetime(2025, 12, 3, 13, 0, 0, tzinfo=UTC)
W1 = dt.datetime(2025, 12, 3, 15, 40, 0, tzinfo=UTC)
BASE1 = dt.datetime(2025, 12, 3, 13, 55, 0, tzinfo=UTC)
JOB_START = dt.datetime(2025, 12, 3, 12, 34, 51, tzinfo=UTC)
LOG_END = dt.datetime(2025, 12, 3, 15, 52, 30, tzinfo=UTC)
ts = lambda d: d.timestamp()
T0, T1 = ts(W0), ts(W1)

# the neighbour
SSH_IN = ts(dt.datetime(2025, 12, 3, 14, 4, 12, 318000, tzinfo=UTC))
NB_START = ts(dt.datetime(2025, 12, 3, 14, 7, 41, 602000, tzinfo=UTC))     # CUDA context created
NB_COMPUTE = ts(dt.datetime(2025, 12, 3, 14, 8, 27, 900000, tzinfo=UTC))   # weights loaded, kernels start
SSH_OUT = ts(dt.datetime(2025, 12, 3, 14, 12, 55, 41000, tzinfo=UTC))
NB_END = ts(dt.datetime(2025, 12, 3, 15, 8, 52, 377000, tzinfo=UTC))
NB_USER, NB_UID = "dkowalski", 31427
NB_MEM = 24_318.0     # MiB the neighbour holds once loaded

SCRAPE = 30.0
NH = 16
HOSTS = [f"g0{231 + i}" for i in range(NH)]
VH, VG = 7, 5                       # g0238, GPU 5
VICTIM = HOSTS[VH]
VRANK = VH * 8 + VG                 # 61
PCI = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.127.05"
FB_TOTAL, FB_RES = 81559.0, 537.0
BOOT = np.round(T0 - rng.uniform(6, 9, NH) * 86400, 6)

# --- job timeline ---------------------------------------------------------------------
STEP_BASE = 2.402
LOCAL_TOK = 2 * 8192
FLOPS_PER_TOK = 5.79e10
TRAIN_START = ts(JOB_START) + 212.4
START_STEP = 3000
CKPT_EVERY = 500
CKPT_SEC = 7.4


def slow_factor(t):
    if NB_COMPUTE <= t < NB_END:
        return SLOW[int((t - NB_COMPUTE) // 120)]
    return 0.0


# neighbour's load varies batch to batch (2-minute blocks)
SLOW = np.clip(rng.normal(0.072, 0.011, 40), 0.05, 0.095)


def build_steps():
    steps = []
    t = TRAIN_START + 9.6            # compile / first step
    s = START_STEP
    extra = 0.0
    while t < ts(LOG_END) - 3:
        s += 1
        d = STEP_BASE * (1 + rng.normal(0, 0.004)) * (1 + slow_factor(t)) + extra
        if s == START_STEP + 1:
            d += 31.0                # torch.compile of the blocks
        extra = 0.0
        t += d
        ck = s % CKPT_EVERY == 0
        if ck:
            extra = CKPT_SEC + rng.normal(0, 0.5)
        steps.append((s, t, d, ck))
    return steps


STEPS = build_steps()
CKPTS = [(te, te + 7.4) for (s, te, d, ck) in STEPS if ck]


def job_rate(tarr):
    """relative step rate (1 = baseline)"""
    r = np.ones_like(tarr)
    for i, t in enumerate(tarr):
        r[i] = 1.0 / (1.0 + slow_factor(t))
    return r


def in_ckpt(tarr):
    m = np.zeros_like(tarr, dtype=bool)
    for a, b in CKPTS:
        m |= (tarr >= a) & (tarr < b)
    return m


def gpu_uuid(h, g):
    x = hashlib.sha1(f"{SEED}-{h}-{g}".encode()).hexdigest()
    return f"GPU-{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


def scrape_times(off):
    n = int((T1 - T0 - off) // SCRAPE) + 1
    return np.round(T0 + off + np.arange(n) * SCRAPE + rng.normal(0, 0.003, n), 3)


def smooth(x, tau):
    a = 1 - math.exp(-SCRAPE / tau)
    y = np.empty_like(x)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = y[i - 1] + a * (x[i] - y[i - 1])
    return y


def fmtv(v):
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(round(float(v), 6))


# ======================================================================================
DCGM_HDR = ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "pci_bus_id", "device",
            "modelName", "DCGM_FI_DRIVER_VERSION", "instance", "job"]
NODE_HDR = ["timestamp", "metric", "value", "instance", "job", "device", "port", "mountpoint", "fstype", "nodename"]


def gen_dcgm(hi, h, path):
    off = rng.uniform(0.5, 29.5)
    t = scrape_times(off)
    n = len(t)
    ck = in_ckpt(t)
    rate = job_rate(t)
    inlet = rng.normal(25.0, 1.2)
    inst = f"{h}:9400"
    rows = []

    def add(name, vals, lab):
        for tt, v in zip(t, vals):
            rows.append([f"{tt:.3f}", name, fmtv(v)] + lab)

    add("up", np.ones(n), [""] * 7 + [inst, "dcgm"])
    for g in range(8):
        lab = [h, str(g), gpu_uuid(h, g), f"00000000:{PCI[g]}:00.0", f"nvidia{g}", MODEL, DRIVER, inst, "dcgm"]
        victim = (hi == VH and g == VG)
        nb_mem = np.zeros(n)
        nb_on = np.zeros(n, dtype=bool)
        nb_busy = np.zeros(n)
        if victim:
            for i, tt in enumerate(t):
                if NB_START <= tt < NB_END:
                    nb_on[i] = True
                    if tt < NB_COMPUTE:
                        nb_mem[i] = 520 + (NB_MEM - 520) * min(1.0, (tt - NB_START) / (NB_COMPUTE - NB_START))
                    else:
                        nb_mem[i] = NB_MEM + rng.choice([0, 0, 512, 1024, 1536])
                        nb_busy[i] = 1.0
        hungry = rng.normal(0, 1)
        # power/clock: an 8B FSDP job sits near, not at, 700 W
        slow = 1 / rate - 1                                 # 0 .. ~0.09
        pwr = rng.normal(618 + 12 * hungry, 30, n) * (1 - 0.45 * slow)
        if victim:
            pwr = pwr * (1 + 0.5 * slow) + nb_busy * rng.normal(14, 6, n)
        pwr = np.minimum(pwr, 699.0)
        reason = np.where(rng.random(n) < 0.05 + 0.03 * max(hungry, 0), 4, 0)
        pwr = np.where(reason == 4, 700 - np.abs(rng.normal(0, 4, n)), pwr)
        clk = np.where(reason == 4, np.round(rng.uniform(1785, 1935, n) / 15) * 15, 1980.0)
        pwr = np.where(ck, rng.normal(131, 9, n), pwr)
        clk = np.where(ck, 1980.0, clk)
        util = np.where(rng.random(n) < 0.92, 100.0, rng.choice([97.0, 98.0, 99.0], n))
        util = np.where(ck & ~nb_busy.astype(bool), rng.choice([0.0, 0.0, 4.0, 19.0], n), util)
        gtemp = np.round(inlet + rng.normal(0.061, 0.003) * smooth(pwr, 70) + rng.normal(0, 0.45, n) + 0.5 * g / 7)
        mtemp = np.round(inlet + 4 + rng.normal(0.071, 0.003) * smooth(pwr, 140) + rng.normal(0, 0.4, n))
        fb_job = 55_706.0 + rng.integers(-420, 380)
        fb_used = np.round(fb_job + np.where(rng.random(n) < 0.04, 2, 0) + nb_mem)
        fb_free = FB_TOTAL - FB_RES - fb_used
        e0 = rng.uniform(3e11, 5e11)
        energy = e0 + np.cumsum(pwr * SCRAPE * 1000.0)
        nvl = rng.uniform(1e9, 3e9) + np.cumsum(np.where(ck, 0, rate) * rng.normal(3.1e4, 9e2, n) * SCRAPE)
        gr = np.where(ck, 0.03, np.clip(rng.normal(0.955, 0.012, n), 0, 1))
        tens = np.where(ck, 0.0, np.clip(rng.normal(0.405, 0.015, n) * rate, 0, 1))
        dram = np.where(ck, 0.01, np.clip(rng.normal(0.352, 0.018, n) * rate, 0, 1))
        mcu = np.where(ck, 0.0, np.round(np.clip(rng.normal(41, 3.5, n) * rate, 0, 100)))
        if victim:
            # the neighbour's kernels fill the time rank 61 would otherwise wait in NCCL
            gr = np.where(nb_busy > 0, np.clip(rng.normal(0.992, 0.004, n), 0, 1), gr)
            tens = np.where(nb_busy > 0, np.clip(rng.normal(0.431, 0.015, n), 0, 1), tens)
            dram = np.where(nb_busy > 0, np.clip(rng.normal(0.447, 0.02, n), 0, 1), dram)
            mcu = np.where(nb_busy > 0, np.round(np.clip(rng.normal(52, 4, n), 0, 100)), mcu)
            util = np.where(nb_on, 100.0, util)
        pcie_tx = np.where(ck, rng.normal(1.9e9, 1e8, n), rng.normal(1.32e9, 1.2e8, n) * rate)
        pcie_rx = np.where(ck, rng.normal(2.0e7, 2e6, n), rng.normal(1.29e9, 1.2e8, n) * rate)
        if victim:
            load = np.array([NB_START <= tt < NB_COMPUTE for tt in t])
            pcie_rx = pcie_rx + load * rng.normal(1.05e10, 6e8, n) + nb_busy * rng.normal(3.1e7, 5e6, n)
        add("DCGM_FI_DEV_SM_CLOCK", clk, lab)
        add("DCGM_FI_DEV_MEM_CLOCK", np.full(n, 2619.0), lab)
        add("DCGM_FI_DEV_MEMORY_TEMP", mtemp, lab)
        add("DCGM_FI_DEV_GPU_TEMP", gtemp, lab)
        add("DCGM_FI_DEV_POWER_USAGE", np.round(pwr, 3), lab)
        add("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(energy), lab)
        add("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", np.full(n, float(rng.choice([0, 0, 0, 0, 1, 3]))), lab)
        add("DCGM_FI_DEV_GPU_UTIL", util, lab)
        add("DCGM_FI_DEV_MEM_COPY_UTIL", mcu, lab)
        add("DCGM_FI_DEV_XID_ERRORS", np.zeros(n), lab)
        add("DCGM_FI_DEV_FB_FREE", fb_free, lab)
        add("DCGM_FI_DEV_FB_USED", fb_used, lab)
        add("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl), lab)
        add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6), lab)
        add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6), lab)
        add("DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6), lab)
        add("DCGM_FI_PROF_PCIE_TX_BYTES", np.round(np.maximum(pcie_tx, 0)), lab)
        add("DCGM_FI_PROF_PCIE_RX_BYTES", np.round(np.maximum(pcie_rx, 0)), lab)
    rows.sort(key=lambda r: float(r[0]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(DCGM_HDR)
        w.writerows(rows)
    return len(rows)


def gen_node(hi, h, path):
    off = rng.uniform(0.5, 29.5)
    t = scrape_times(off)
    n = len(t)
    ck = in_ckpt(t)
    rate = job_rate(t)
    inst = f"{h}:9100"
    rows = []

    def add(name, vals, lab):
        lab = [lab.get(k, "") for k in NODE_HDR[3:]]
        for tt, v in zip(t, vals):
            rows.append([f"{tt:.3f}", name, fmtv(v)] + lab)

    base = {"instance": inst, "job": "node"}
    nb = np.array([(NB_START <= x < NB_END) for x in t]) if hi == VH else np.zeros(n, bool)
    nbload = np.array([(NB_START - 20 <= x < NB_COMPUTE) for x in t]) if hi == VH else np.zeros(n, bool)
    add("up", np.ones(n), base)
    add("node_boot_time_seconds", np.full(n, round(BOOT[hi], 6)), base)
    add("node_uname_info", np.ones(n), dict(base, nodename=h))
    add("node_load1", np.round(np.clip(rng.normal(17.2, 1.5, n) + nb * rng.normal(1.1, 0.3, n), 0, None), 2), base)
    add("node_memory_MemTotal_bytes", np.full(n, 2164180000768.0), base)
    memav = 1.71e12 + rng.normal(0, 3e9) + np.cumsum(rng.normal(0, 3e7, n)) - nb * 3.32e10 - nbload * 1.1e10
    add("node_memory_MemAvailable_bytes", np.round(memav), base)
    for p in range(8):
        lab = dict(base, device=f"mlx5_{p}", port="1")
        r = np.where(ck, 1.5e6, rng.normal(2.63e9, 9e7, n) * rate)
        add("node_infiniband_port_data_received_bytes_total", np.round(rng.uniform(1e14, 5e14) + np.cumsum(r * SCRAPE)), lab)
        r = np.where(ck, 1.5e6, rng.normal(2.63e9, 9e7, n) * rate)
        add("node_infiniband_port_data_transmitted_bytes_total", np.round(rng.uniform(1e14, 5e14) + np.cumsum(r * SCRAPE)), lab)
        add("node_infiniband_link_downed_total", np.zeros(n), lab)
        add("node_infiniband_port_transmit_wait_total",
            np.round(rng.uniform(1e9, 5e9) + np.cumsum(np.abs(rng.normal(4.1e5, 6e4, n)) * rate * SCRAPE)), lab)
        add("node_infiniband_port_errors_received_total", np.zeros(n), lab)
    lab = dict(base, device="bond0")
    rx = rng.normal(2.3e7, 4e6, n) * rate + nbload * rng.normal(1.02e9, 5e7, n) + nb * 4e5
    tx = np.where(ck, rng.normal(5.6e8, 3e7, n), rng.normal(1.9e6, 3e5, n))
    add("node_network_receive_bytes_total", np.round(rng.uniform(5e12, 2e13) + np.cumsum(np.abs(rx) * SCRAPE)), lab)
    add("node_network_transmit_bytes_total", np.round(rng.uniform(5e12, 2e13) + np.cumsum(np.abs(tx) * SCRAPE)), lab)
    lab = dict(base, device="nvme0n1")
    add("node_disk_read_bytes_total", np.round(rng.uniform(4e10, 9e10) + np.cumsum(np.abs(rng.normal(1.5e4, 1e4, n)) * SCRAPE)), lab)
    add("node_disk_written_bytes_total", np.round(rng.uniform(3e11, 9e11) + np.cumsum(np.abs(rng.normal(5.2e5, 1.5e5, n)) * SCRAPE)), lab)
    add("node_disk_io_time_seconds_total", np.round(rng.uniform(5e3, 3e4) + np.cumsum(np.abs(rng.normal(0.003, 0.0015, n)) * SCRAPE), 3), lab)
    for mp, dev, fs, size, used in (("/", "/dev/md0", "ext4", 1.89e12, 0.27), ("/raid", "/dev/md1", "ext4", 2.75e13, 0.08)):
        lab = dict(base, device=dev, mountpoint=mp, fstype=fs)
        av = size * (1 - used - rng.uniform(0, 0.05)) - np.cumsum(np.abs(rng.normal(2e3, 1e3, n)))
        add("node_filesystem_avail_bytes", np.round(av / 4096) * 4096, lab)
    rows.sort(key=lambda r: float(r[0]))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(NODE_HDR)
        w.writerows(rows)
    return len(rows)


# ======================================================================================
def iso_precise(t):
    return dt.datetime.fromtimestamp(t, UTC).isoformat(timespec="microseconds")


def gen_journal(hi, h):
    L = []
    start = ts(dt.datetime(2025, 12, 3, 12, 0, 0, tzinfo=UTC))
    end = ts(LOG_END)
    pids = {"logind": int(rng.integers(1500, 1700)), "journald": int(rng.integers(600, 800)),
            "chronyd": int(rng.integers(1700, 1900)), "slurmd": int(rng.integers(2500, 2900)),
            "dcgm": int(rng.integers(3000, 3300))}
    pid0 = int(rng.integers(2_400_000, 2_500_000))

    def npid(t):
        # pids grow with time (~0.3 new processes per second on a busy node)
        return pid0 + int((t - start) * 0.31) + int(rng.integers(0, 12))

    def J(t, ident, msg):
        L.append((t, f"{iso_precise(t)} {h} {ident}: {msg}"))

    m = math.ceil(start / 60) * 60
    while m < end:
        d = dt.datetime.fromtimestamp(m, UTC)
        if d.minute % 10 == 0:
            tt = m + rng.uniform(0.02, 1.1)
            J(tt, "systemd[1]", "Starting sysstat-collect.service - system activity accounting tool...")
            J(tt + 0.021, "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
            J(tt + 0.022, "systemd[1]", "Finished sysstat-collect.service - system activity accounting tool.")
        if d.minute % 5 == 0:
            tt = m + rng.uniform(0.001, 0.05)
            p = npid(tt)
            J(tt, f"CRON[{p}]", "pam_unix(cron:session): session opened for user root(uid=0) by root(uid=0)")
            J(tt + 0.002, f"CRON[{p + 1}]", "(root) CMD (/opt/nhc/sbin/nhc -q -t 60 >/dev/null 2>&1)")
            J(tt + rng.uniform(2, 9), f"CRON[{p}]", "pam_unix(cron:session): session closed for user root")
        if d.minute == 17:
            tt = m + rng.uniform(0.001, 0.05)
            p = npid(tt)
            J(tt, f"CRON[{p}]", "pam_unix(cron:session): session opened for user root(uid=0) by root(uid=0)")
            J(tt + 0.002, f"CRON[{p + 1}]", "(root) CMD (cd / && run-parts --report /etc/cron.hourly)")
            J(tt + 0.01, f"CRON[{p}]", "pam_unix(cron:session): session closed for user root")
        m += 60
    for k in range(int(rng.integers(2, 5))):
        J(rng.uniform(start, end), f"chronyd[{pids['chronyd']}]",
          str(rng.choice(["Selected source 10.7.0.2 (ntp1.pod3.internal)", "Selected source 10.7.0.3 (ntp2.pod3.internal)",
                          "Source 10.7.0.4 online", "Can't synchronise: no majority"][:3])))
    if rng.random() < 0.35:
        tt = rng.uniform(start, end)
        a = int(rng.integers(2501, 3300))
        J(tt, "kernel", f"perf: interrupt took too long ({a} > {a - int(rng.integers(5, 40))}), lowering kernel.perf_event_max_sample_rate to {int(rng.choice([63000, 79750, 50000]))}")
    # job start on each node (12:34)
    js = ts(JOB_START) + rng.uniform(0.3, 1.2)
    if hi == 0:
        J(js - 0.3, f"slurmd[{pids['slurmd']}]", "slurmd: Launching batch job 512907 for UID 20961")
    J(js + 1.1, f"slurmd[{pids['slurmd']}]", f"slurmd: launch task StepId=512907.0 request from UID:20961 GID:20961 HOST:10.7.3.31 PORT:{int(rng.integers(40000, 60000))}")

    def ssh_session(t_in, t_out, user, uid, src, port, sess, closes_at=None, first=False):
        sp = npid(tt)
        J(t_in, f"sshd[{sp}]", f"Accepted publickey for {user} from {src} port {port} ssh2: ED25519 SHA256:{base64.b64encode(hashlib.sha256((user + '@pod3').encode()).digest()).decode().rstrip('=')}")
        J(t_in + 0.011, f"sshd[{sp}]", f"pam_unix(sshd:session): session opened for user {user}(uid={uid}) by {user}(uid=0)")
        J(t_in + 0.018, f"systemd-logind[{pids['logind']}]", f"New session {sess} of user {user}.")
        if first:
            J(t_in + 0.031, "systemd[1]", f"Created slice user-{uid}.slice - User Slice of UID {uid}.")
            J(t_in + 0.035, "systemd[1]", f"Starting user-runtime-dir@{uid}.service - User Runtime Directory /run/user/{uid}...")
            J(t_in + 0.052, "systemd[1]", f"Finished user-runtime-dir@{uid}.service - User Runtime Directory /run/user/{uid}.")
            J(t_in + 0.055, "systemd[1]", f"Starting user@{uid}.service - User Manager for UID {uid}...")
            J(t_in + 0.071, f"(systemd)[{sp + 3}]", f"pam_unix(systemd-user:session): session opened for user {user}(uid={uid}) by {user}(uid=0)")
            J(t_in + 0.241, f"systemd[{sp + 3}]", "Queued start job for default target default.target.")
            J(t_in + 0.262, f"systemd[{sp + 3}]", "Reached target default.target - Main User Target.")
            J(t_in + 0.263, f"systemd[{sp + 3}]", "Startup finished in 182ms.")
            J(t_in + 0.264, "systemd[1]", f"Started user@{uid}.service - User Manager for UID {uid}.")
        J(t_in + 0.27, "systemd[1]", f"Started session-{sess}.scope - Session {sess} of User {user}.")
        J(t_out, f"sshd[{sp}]", f"Received disconnect from {src} port {port}:11: disconnected by user")
        J(t_out + 0.0003, f"sshd[{sp}]", f"Disconnected from user {user} {src} port {port}")
        J(t_out + 0.0012, f"sshd[{sp}]", f"pam_unix(sshd:session): session closed for user {user}")
        J(t_out + 0.0041, f"systemd-logind[{pids['logind']}]", f"Session {sess} logged out. Waiting for processes to exit.")
        fin = t_out + 0.006 if closes_at is None else closes_at
        cpu = (fin - t_in) * (0.004 if closes_at is None else 0.97)
        J(fin, "systemd[1]", f"session-{sess}.scope: Deactivated successfully.")
        mins = int(cpu // 60)
        J(fin + 0.0002, "systemd[1]", f"session-{sess}.scope: Consumed {str(mins) + 'min ' if mins else ''}{cpu - 60 * mins:.3f}s CPU time.")
        J(fin + 0.0009, f"systemd-logind[{pids['logind']}]", f"Removed session {sess}.")

    # job owner and admins look at nodes now and then (benign)
    for k in range(int(rng.integers(0, 3))):
        tt = rng.uniform(start + 600, end - 600)
        ssh_session(tt, tt + rng.uniform(20, 400), "mfernand", 20961, "10.7.0.58",
                    int(rng.integers(33000, 61000)), int(rng.integers(1200, 1900)))
    if hi in (2, 11):
        tt = rng.uniform(start + 600, end - 600)
        ssh_session(tt, tt + rng.uniform(5, 30), "svc-nhc", 998, "10.7.0.9",
                    int(rng.integers(33000, 61000)), int(rng.integers(1200, 1900)))
    if hi == VH:
        ssh_session(SSH_IN, SSH_OUT, NB_USER, NB_UID, "10.7.0.61", 51744, 1847, closes_at=NB_END + 0.21, first=True)
        J(NB_END + 10.4, "systemd[1]", f"Stopping user@{NB_UID}.service - User Manager for UID {NB_UID}...")
        J(NB_END + 10.52, "systemd[1]", f"user@{NB_UID}.service: Deactivated successfully.")
        J(NB_END + 10.53, "systemd[1]", f"Stopped user@{NB_UID}.service - User Manager for UID {NB_UID}.")
        J(NB_END + 10.56, "systemd[1]", f"Stopping user-runtime-dir@{NB_UID}.service - User Runtime Directory /run/user/{NB_UID}...")
        J(NB_END + 10.58, "systemd[1]", f"run-user-{NB_UID}.mount: Deactivated successfully.")
        J(NB_END + 10.59, "systemd[1]", f"user-runtime-dir@{NB_UID}.service: Deactivated successfully.")
        J(NB_END + 10.59, "systemd[1]", f"Stopped user-runtime-dir@{NB_UID}.service - User Runtime Directory /run/user/{NB_UID}.")
        J(NB_END + 10.60, "systemd[1]", f"Removed slice user-{NB_UID}.slice - User Slice of UID {NB_UID}.")
    L.sort(key=lambda x: x[0])
    return "\n".join(x[1] for x in L) + "\n"


def gen_dmesg(hi, h):
    b = BOOT[hi]
    out = []

    def K(up, msg):
        d = dt.datetime.fromtimestamp(b + up, UTC)
        out.append(f"[{d:%a %b} {d.day:2d} {d:%H:%M:%S %Y}] {msg}")

    K(0, "Linux version 6.8.0-49-generic (buildd@lcy02-amd64-103) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) 13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #49-Ubuntu SMP PREEMPT_DYNAMIC Mon Nov  4 02:06:24 UTC 2024 (Ubuntu 6.8.0-49.49-generic 6.8.12)")
    K(0, "Command line: BOOT_IMAGE=/vmlinuz-6.8.0-49-generic root=/dev/md0 ro iommu=pt pci=realloc=off mitigations=off transparent_hugepage=madvise")
    K(0, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 04/18/2024")
    K(0.000004, "tsc: Detected 2000.000 MHz processor")
    K(0.61, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs")
    K(1.92, "smp: Brought up 2 nodes, 224 CPUs")
    K(2.31, "Memory: 2113216540K/2147155836K available (22528K kernel code, 4426K rwdata, 14832K rodata, 4916K init, 17900K bss, 33615484K reserved, 0K cma-reserved)")
    for g, p in enumerate(PCI):
        K(4.1 + 0.01 * g, f"pci 0000:{p.lower()}:00.0: [10de:2330] type 00 class 0x030200 PCIe Endpoint")
    K(7.93, "mlx5_core 0000:1a:00.0: firmware version: 28.39.1002")
    K(7.94, "mlx5_core 0000:1a:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)")
    K(9.6, "md/raid1:md0: active with 2 out of 2 mirrors")
    K(11.21, "nvidia: loading out-of-tree module taints kernel.")
    K(11.21, "nvidia: module license 'NVIDIA' taints kernel.")
    K(11.22, "Disabling lock debugging due to kernel taint")
    K(11.38, "nvidia-nvlink: Nvlink Core is being initialized, major device number 508")
    for g in range(8):
        K(11.39 + 0.001 * g, f"nvidia {('0000:' + PCI[g].lower())}:00.0: enabling device (0000 -> 0002)")
    K(11.61, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Tue Oct  8 03:26:07 UTC 2024")
    K(11.70, "nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint.")
    K(11.72, "nvidia-uvm: Loaded the UVM driver, major device number 506.")
    K(12.03, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.127.05  Tue Oct  8 02:56:05 UTC 2024")
    K(14.8, "EXT4-fs (md0): mounted filesystem 1b8e5e4a-7a0e-4d0b-9d1c-93b0b2b1f6a0 ro with ordered data mode. Quota mode: none.")
    K(17.1, "EXT4-fs (md1): mounted filesystem 6a3f2d11-8c4e-4f37-a3b2-0e7f52a9d441 r/w with ordered data mode. Quota mode: none.")
    K(19.4, "mlx5_core 0000:1a:00.0 ibp26s0: renamed from ib0")
    K(21.7, "nvidia_peermem: loading out-of-tree module taints kernel.")
    K(38.2, "bond0: (slave enp41s0f0np0): Enslaving as a backup interface with an up link")
    K(38.3, "bond0: (slave enp41s0f0np0): making interface the new active one")
    K(38.3, "bond0: active interface up!")
    # later, benign
    if rng.random() < 0.5:
        up = T0 - b + rng.uniform(1000, 9000)
        a = int(rng.integers(2501, 3300))
        K(up, f"perf: interrupt took too long ({a} > {a - int(rng.integers(5, 40))}), lowering kernel.perf_event_max_sample_rate to 63000")
    return "\n".join(out) + "\n"


def tt_fmt(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int(d.microsecond / 1000):03d}"


def gen_trainer():
    out = []  # (t, line)
    ranks = [i * 8 for i in range(NH)]

    def T(t, rank, msg, level="INFO"):
        out.append((t, f"[rank{rank}]:[titan] {tt_fmt(t)} - root - {level} - {msg}"))

    # torchrun warning on each node
    for i in range(NH):
        t = ts(JOB_START) + 3.1 + rng.uniform(0, 0.8)
        pid = int(rng.integers(1_800_000, 2_600_000))
        d = dt.datetime.fromtimestamp(t, UTC)
        pre = f"W{d:%m%d %H:%M:%S}.{(d.microsecond // 1000) * 1000:06d} {pid} torch/distributed/run.py:793] "
        out.append((t, pre))
        out.append((t, pre + "*****************************************"))
        out.append((t, pre + "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        out.append((t, pre + "*****************************************"))
    t0 = ts(JOB_START) + 19.0
    for r in ranks:
        t = t0 + rng.uniform(0, 0.4)
        T(t, r, "Starting job: Llama 3 8B continued pretraining (pod3)")
        T(t + 1.3, r, "Building 1-D device mesh with ['dp_shard'], [128]")
        T(t + 1.31, r, "[GC] Initial GC collection. 0.00 seconds.")
        T(t + 1.9, r, "Preparing fineweb_edu_mix dataset from /weka/datasets/fineweb-edu-mix")
        T(t + 6.2, r, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
        T(t + 6.5, r, "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.18GiB memory")
        T(t + 6.6, r, "Model llama3 8B size: 8,030,261,248 total parameters")
        T(t + 6.7, r, "Applied selective activation checkpointing to the model")
        T(t + 6.8, r, "Compiling each TransformerBlock with torch.compile")
        T(t + 7.2, r, "Applied FSDP to the model")
        T(t + 7.9, r, "Peak FLOPS used for computing MFU: 9.890e+14")
        T(t + 7.9, r, "CUDA memory usage for model: 0.23GiB(0.29%)")
        T(t + 8.0, r, "Checkpointing active. Checkpoints will be loaded from and saved to /weka/ckpt/l3-8b-cpt-pod3/checkpoint")
        T(t + 8.0, r, "Mixed precision training is handled by fully_shard")
        T(t + 8.0, r, "Trainer is initialized with local batch size 2, global batch size 256, gradient accumulation steps 1, sequence length 8192, total steps 20000 (warmup 2000).")
        T(t + 8.1, r, f"Loading the checkpoint from /weka/ckpt/l3-8b-cpt-pod3/checkpoint/step-{START_STEP}.")
        tl = TRAIN_START - rng.uniform(0.0, 0.05)
        T(tl - 0.01, r, "[GC] GC collection for checkpoint loading. 0.01 seconds.")
        T(tl, r, f"Finished loading the checkpoint in {tl - (t + 8.1):.2f} seconds.")
        T(tl + 0.001, r, f"Training starts at step {START_STEP + 1}.")
    loss = 2.214
    mem_r = {r: 52.14 + rng.uniform(-0.03, 0.03) for r in ranks}
    last_t = TRAIN_START
    last_s = START_STEP
    for s, te, d, ck in STEPS:
        loss -= 1.1e-6
        if s == START_STEP + 1:
            for r in ranks:
                T(te + rng.uniform(0, 0.02), r, "Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40")
        if s % 10 == 0:
            lv = loss + rng.normal(0, 0.018)
            gn = abs(rng.normal(0.287, 0.03))
            dtm = te - last_t
            for r in ranks:
                tpsr = LOCAL_TOK * (s - last_s) / (dtm * (1 + rng.normal(0, 0.0015)))
                tfl = FLOPS_PER_TOK * tpsr / 1e12
                mem = mem_r[r]
                T(te + rng.uniform(0.0005, 0.03), r,
                  f"step: {s:2}  loss: {lv:7.4f}  grad_norm: {gn:7.4f}  memory: {mem:5.2f}GiB({100 * mem / 79.18:.2f}%)  "
                  f"tps: {round(tpsr):,}  tflops: {tfl:,.2f}  mfu: {100 * tfl * 1e12 / 9.89e14:.2f}%")
            last_t, last_s = te, s
        if s % 50 == 0:
            for r in ranks:
                T(te + rng.uniform(0.04, 0.09), r, f"[GC] Peforming periodical GC collection. {rng.choice([0.04, 0.05, 0.05, 0.06]):.2f} seconds.")
        if ck:
            for r in ranks:
                T(te + 0.1 + rng.uniform(0, 0.01), r, "Saving the checkpoint (or staging if async is enabled).")
                T(te + 7.4 + rng.uniform(-0.2, 0.2), r, f"Finished saving the checkpoint (or staging if async is enabled)in {7.4 + rng.normal(0, 0.2):.2f} seconds.")
    out.sort(key=lambda x: x[0])
    return "\n".join(x[1] for x in out) + "\n"


# ======================================================================================
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    for d in ("metrics", "logs/journal", "logs/dmesg"):
        os.makedirs(os.path.join(OUT, d))
    nrows = 0
    for hi, h in enumerate(HOSTS):
        nrows += gen_dcgm(hi, h, os.path.join(OUT, "metrics", f"dcgm_{h}.csv"))
        nrows += gen_node(hi, h, os.path.join(OUT, "metrics", f"node_{h}.csv"))
        with open(os.path.join(OUT, "logs", "journal", f"{h}.log"), "w") as f:
            f.write(gen_journal(hi, h))
        with open(os.path.join(OUT, "logs", "dmesg", f"{h}.txt"), "w") as f:
            f.write(gen_dmesg(hi, h))
    with open(os.path.join(OUT, "logs", "slurm-512907.out"), "w") as f:
        f.write(gen_trainer())

    incident = {
        "id": ID,
        "title": "Llama-3-8B continued pretraining (job 512907) ~7% slower for an hour, then back to normal",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": W0.isoformat(), "end": BASE1.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "pod3-h100", "nodes": NH, "gpus_per_node": 8, "gpu_model": "H100"},
        "trainer": {"seq_length": 8192, "global_batch_size": 256, "gpus": 128},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)

    pre = [d for (s, te, d, ck) in STEPS if T0 <= te < NB_COMPUTE and d < 5]
    dur = [d for (s, te, d, ck) in STEPS if NB_COMPUTE + 30 <= te < NB_END and d < 5]
    post = [d for (s, te, d, ck) in STEPS if NB_END + 30 <= te < T1 and d < 5]
    loss_pct = round(100 * (1 - np.median(pre) / np.median(dur)), 1)
    iso = lambda x: dt.datetime.fromtimestamp(x, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    truth = {
        "id": ID,
        "cause": (f"A noisy neighbour: user {NB_USER}, logged in over ssh on {VICTIM}, ran an evaluation process on "
                  f"GPU {VG} (PCI 00000000:{PCI[VG]}:00.0) - the GPU of the job's rank {VRANK} - from {iso(NB_START)} to "
                  f"{iso(NB_END)}; it took ~24 GB of that GPU's memory and, time-sliced with rank {VRANK}, about half "
                  "of the GPU during its bursts, so every synchronous FSDP step waited for rank "
                  f"{VRANK} and the whole job ran ~{loss_pct}% slower for that hour."),
        "cause_metrics": ["DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_PROF_DRAM_ACTIVE",
                          "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_PROF_PCIE_RX_BYTES"],
        "cause_metrics_note": (f"On {VICTIM} GPU {VG} only: FB_USED ~55.9k -> ~80.7k MiB (+{NB_MEM / 1024:.1f} GiB and "
                               "batch buffers; FB_FREE ~25.2k -> ~0.3k MiB) from 14:07:41 to 15:08:52; PCIe RX ~10 GB/s while the neighbour loads its "
                               "weights (14:07:41-14:08:28); afterwards DRAM activity 0.35 -> 0.45, graphics-engine activity "
                               "0.955 -> 0.99, memory-copy utilisation 41 -> 52%, power +~20 W, while the other 127 GPUs' "
                               "tensor/DRAM activity, NVLink/IB/PCIe byte rates fall ~7% (an effect: they wait for rank 61). "
                               "DCGM_FI_DEV_GPU_UTIL reads 100% on the victim and ~100% everywhere else throughout: it "
                               f"does not show the contention. {VICTIM}'s node_load1 +1 and MemAvailable -33 GB (the "
                               "neighbour's Python process) over the same hour; bond0 receive ~1 GB/s for ~45 s at its start "
                               "(weights read from the home filesystem)."),
        "cause_log_evidence": [],
        "cause_log_evidence_note": (
            "No kernel or driver line marks the fault (none exists for a second CUDA context on a GPU). The trainer "
            "output shows only slower steps (tps ~6,820 -> ~6,360 per GPU on all 16 printing ranks). The journal of "
            f"{VICTIM} holds the circumstantial trail: sshd 'Accepted publickey for {NB_USER} from 10.7.0.61' at "
            f"{iso(SSH_IN)}, logout at {iso(SSH_OUT)} with systemd-logind 'Session 1847 logged out. Waiting for processes "
            f"to exit.', and 'session-1847.scope: Deactivated successfully.' / 'Removed session 1847.' only at "
            f"{iso(NB_END + 0.21)}, when the neighbour's process exited and the job recovered. These sshd/pam/logind/"
            "systemd lines are the programs' standard wording (as in e.g. https://github.com/systemd/systemd/issues/17266: "
            "'sshd[903]: Accepted publickey for root from 192.168.0.192 port 60398 ssh2: ED25519 SHA256:...', "
            "'pam_unix(sshd:session): session opened for user root(uid=0) by (uid=0)'; "
            "https://github.com/mempodippy/vlany/issues/28: 'systemd-logind[856]: New session c3 of user root.', "
            "'Removed session c3.'), with user, uid, address, port, session number, pid and time written for this "
            "incident; they are context, not copied fault lines."),
        "supporting_lines_not_copied": ("All journal (cron, sysstat, chrony, slurmd, sshd/logind/systemd), dmesg boot lines "
                                        "and the torchtitan/torchrun output are written in those programs' formats for this "
                                        "incident. torchtitan wordings follow public logs: 'step: 10  loss: 10.7069  memory: "
                                        "30.99GiB(32.62%)  tps: 7,034  tflops: 407.35  mfu: 41.19%' (pytorch tutorials, float8 "
                                        "recipe page), '[GC] Peforming periodical GC collection. 0.02 seconds.', 'CUDA capacity: "
                                        "NVIDIA H100 80GB HBM3 with 79.18GiB memory', 'Finished saving the checkpoint (or staging "
                                        "if async is enabled)in 5.53 seconds.'"),
        "hosts": [VICTIM],
        "gpu": {"host": VICTIM, "index": VG, "pci_bus_id": f"00000000:{PCI[VG]}:00.0",
                "uuid": gpu_uuid(VICTIM, VG), "job_rank": VRANK},
        "onset": iso(NB_START),
        "onset_note": (f"The neighbour's CUDA context and weights land on GPU {VG} from {iso(NB_START)} (FB_USED jumps); its "
                       f"kernels, and the job's slowdown, start at {iso(NB_COMPUTE)}; both end at {iso(NB_END)}."),
        "end": iso(NB_END),
        "job_throughput_loss_pct": float(loss_pct),
        "job_throughput_loss_note": (f"Median step {np.median(pre):.3f} s before, {np.median(dur):.3f} s during, "
                                     f"{np.median(post):.3f} s after (tokens/s per GPU {LOCAL_TOK / np.median(pre):,.0f} -> "
                                     f"{LOCAL_TOK / np.median(dur):,.0f} -> {LOCAL_TOK / np.median(post):,.0f}); the loss varies "
                                     "5-9% with the neighbour's batches. Checkpoints every 500 steps (~7.4 s, one slow "
                                     "logging interval) are normal."),
        "timeline": {
            "job 512907 started": JOB_START.isoformat(),
            f"{NB_USER} ssh login on {VICTIM}": iso(SSH_IN),
            f"neighbour process on GPU {VG} (memory)": iso(NB_START),
            "neighbour kernels start / job slows": iso(NB_COMPUTE),
            f"{NB_USER} logs out (process keeps running)": iso(SSH_OUT),
            "neighbour process exits / job recovers": iso(NB_END),
            "checkpoint saves (step end)": [iso(a) for a, b in CKPTS if T0 <= a < T1],
        },
        "what_a_good_postmortem_says": (
            f"From 14:08 to 15:09 UTC job 512907 ran ~{loss_pct:.0f}% slower on all 128 ranks, then recovered by itself; no "
            f"hardware fault. The one GPU that differs is GPU {VG} of {VICTIM} (rank {VRANK}): its framebuffer use jumped "
            f"by ~24 GB at 14:07:41 and dropped back at 15:08:52 exactly when the slowdown ended, its DRAM/engine activity "
            "rose while every other GPU's fell, and its utilisation stayed at 100% - a second process from another user "
            f"({NB_USER}, ssh session 1847 whose scope only ended when that process exited) sharing the GPU with the job. "
            "Prevent it by enforcing exclusive GPU access (Slurm cgroup ConstrainDevices, pam_slurm_adopt for ssh, or "
            "EXCLUSIVE_PROCESS compute mode) and alert on a GPU whose memory use departs from its peers mid-job."),
        "layout": {"metrics": "CSV per exporter per host (metrics/dcgm_<host>.csv, metrics/node_<host>.csv), long format, "
                              "epoch-seconds timestamps with ms (raw 30 s scrapes), Prometheus labels as columns",
                   "logs": "logs/journal/<host>.log (journalctl -o short-iso-precise), logs/dmesg/<host>.txt (dmesg -T), "
                           "logs/slurm-512907.out (torchrun --tee 3 --local-ranks-filter 0, one [rankN] per node)",
                   "rows": nrows},
        "seed": SEED,
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)
    print("wrote", OUT, nrows, "loss", loss_pct)


if __name__ == "__main__":
    main()
