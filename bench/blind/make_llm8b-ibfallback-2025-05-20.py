#!/usr/bin/env python3
"""Generator for incident llm8b-ibfallback-2025-05-20 (fixed seed).

A Megatron-LM pretraining job (Llama-3-8B class model, pure data parallel with the
distributed optimizer, 24 nodes x 8 H100 SXM, Slurm, srun --label) hits its 10 h time
limit at 07:34:52 UTC.  In the gap, gpu014 is rebooted (a queued `scontrol reboot ASAP`
for a BIOS/BMC update).  After the reboot the BIOS no longer advertises PCIe slot power
to the ConnectX-7 HCAs and their firmware powers the (optical) ports down: the eight IB
ports of gpu014 stay Down.  The follow-up job (same 24 nodes) starts at 07:48:05; NCCL on
gpu014 finds no active IB port ("NET/IB : No device found."), falls back to the Socket
transport over the front-end bond0, and every iteration of the synchronous job now waits
for gpu014's TCP traffic: ~4.45 s -> ~7.6 s per iteration on every rank.

Writes  ./llm8b-ibfallback-2025-05-20/{incident.yaml,truth.yaml,metrics/*.parquet,logs/...}
Run:    /work/main/.venv/bin/python make_llm8b-ibfallback-2025-05-20.py
"""
import math
import os
import random
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250520
rng = np.random.default_rng(SEED)
prng = random.Random(SEED)

ID = "llm8b-ibfallback-2025-05-20"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ID)

UTC = timezone.utc
T0 = datetime(2025, 5, 20, 5, 0, 0, tzinfo=UTC)       # window start
T1 = datetime(2025, 5, 20, 10, 30, 0, tzinfo=UTC)     # window end
STEP = 15                                              # scrape interval (s)
EPOCH0 = T0.timestamp()
NSEC = int((T1 - T0).total_seconds())

def ts(dt):
    return dt.timestamp() - EPOCH0

# --- cluster -----------------------------------------------------------------
NN = 24
HOSTS = [f"gpu{i:03d}" for i in range(1, NN + 1)]
BAD = 13                      # gpu014
PREV, NEXT = BAD - 1, BAD + 1  # ring neighbours gpu013 / gpu015
IP = {h: f"10.40.1.{20 + i}" for i, h in enumerate(HOSTS)}
GPU_MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.90.07"
GPU_BUS = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
           "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
NCCL_BUSID = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
HCA_PCI = ["0000:19:00.0", "0000:29:00.0", "0000:39:00.0", "0000:5c:00.0",
           "0000:99:00.0", "0000:a9:00.0", "0000:b9:00.0", "0000:da:00.0"]
KERNEL = "5.15.0-119-generic"

def uuid():
    h = "%032x" % prng.getrandbits(128)
    return f"GPU-{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
UUIDS = {(h, g): uuid() for h in HOSTS for g in range(8)}

# --- timeline ----------------------------------------------------------------
JOB1, JOB2 = 4417731, 4418090
JOB1_START = datetime(2025, 5, 19, 21, 34, 52, tzinfo=UTC)
JOB1_END = datetime(2025, 5, 20, 7, 34, 52, tzinfo=UTC)           # TIMEOUT (10 h)
BAD_DOWN = datetime(2025, 5, 20, 7, 35, 41, tzinfo=UTC)           # reboot begins
BAD_BOOT = datetime(2025, 5, 20, 7, 44, 49, tzinfo=UTC)           # kernel starts (after BIOS flash)
BAD_NODEEXP_UP = datetime(2025, 5, 20, 7, 45, 38, tzinfo=UTC)
BAD_DCGM_UP = datetime(2025, 5, 20, 7, 46, 12, tzinfo=UTC)
JOB2_START = datetime(2025, 5, 20, 7, 48, 5, tzinfo=UTC)
ONSET = datetime(2025, 5, 20, 7, 50, 44, tzinfo=UTC)               # first degraded iteration

STEP_OK = 4.45       # s / iteration, healthy
STEP_BAD = 7.60      # s / iteration, gpu014 on TCP
CKPT_EVERY = 500
CKPT_SAVE_S = 23.0
TRAIN_ITERS = 250000
GBS, SEQ = 1536, 4096
FLOPS_PER_ITER_PER_GPU = 403.0e12 * STEP_OK   # Megatron's own count -> ~403 TFLOP/s/GPU healthy

# ---------------------------------------------------------------------------
# 1. simulate the job at iteration level (shared by metrics and the trainer log)
# ---------------------------------------------------------------------------
def simulate_job(start_iter, t_start, t_end, mean_step, jitter, first_save_after_load=False):
    """Return list of (iteration, t_end_of_iteration, kind) where kind in {'it','ckpt'}"""
    out = []
    it = start_iter
    t = t_start
    while True:
        it += 1
        d = mean_step * (1.0 + rng.normal(0, jitter))
        if rng.random() < 0.004:
            d += rng.uniform(0.5, 2.5)        # the odd slow step (GC, dataloader)
        t += d
        if t > t_end:
            break
        out.append((it, t, "it"))
        if it % CKPT_EVERY == 0:
            t += CKPT_SAVE_S * (1 + rng.normal(0, 0.05))
            out.append((it, t, "ckpt"))
    return out

# job 1: starts from checkpoint 41000 at 21:34:52 + 3 min of init
J1_TRAIN_START = ts(JOB1_START) + 188.0
job1 = simulate_job(41000, J1_TRAIN_START, ts(JOB1_END), STEP_OK, 0.006)
last_ckpt_j1 = max(i for i, t, k in job1 if k == "ckpt")
# job 2: resumes from the last saved checkpoint of job 1
J2_TRAIN_START = ts(ONSET) - STEP_BAD
job2 = simulate_job(last_ckpt_j1, J2_TRAIN_START, NSEC + 30, STEP_BAD, 0.03)

# per-second activity profile (job-wide) inside the window --------------------
sec = np.arange(NSEC + 1, dtype=float)
compute = np.zeros(NSEC + 1)   # share of the second spent in compute kernels
commwait = np.zeros(NSEC + 1)  # share spent in NCCL kernels waiting for the network
training = np.zeros(NSEC + 1, dtype=bool)
ckpt_save = np.zeros(NSEC + 1, dtype=bool)
ckpt_load = np.zeros(NSEC + 1, dtype=bool)
degraded = np.zeros(NSEC + 1, dtype=bool)
iters_done = np.zeros(NSEC + 1)          # cumulative iterations (for counters)

def mark(events, step_mean, is_deg):
    prev_t = None
    for it, t, kind in events:
        if prev_t is None:
            prev_t = t - step_mean
        a, b = int(max(prev_t, 0)), int(min(t, NSEC))
        if b > a:
            if kind == "ckpt":
                ckpt_save[a:b] = True
            else:
                training[a:b] = True
                if is_deg:
                    degraded[a:b] = True
        if kind == "it" and 0 <= t <= NSEC:
            iters_done[int(t):] += 1
        prev_t = t

mark(job1, STEP_OK, False)
mark(job2, STEP_BAD, True)
# job 2 start-up: python import + NCCL init (07:48:05-07:49:05), checkpoint load (07:49:05-07:50:30)
ckpt_load[int(ts(JOB2_START)) + 62:int(ts(JOB2_START)) + 146] = True

compute[training & ~degraded] = 0.93
commwait[training & ~degraded] = 0.07
compute[training & degraded] = STEP_OK * 0.93 / STEP_BAD
commwait[training & degraded] = 1 - compute[training & degraded]
compute[ckpt_save] = 0.02
compute[ckpt_load] = 0.01

# ---------------------------------------------------------------------------
# 2. metrics
# ---------------------------------------------------------------------------
phase_node = {h: rng.uniform(0, STEP) for h in HOSTS}
phase_dcgm = {h: rng.uniform(0, STEP) for h in HOSTS}

def scrape_times(phase, alive=None):
    t = np.arange(phase, NSEC, STEP) + rng.normal(0, 0.004, size=len(np.arange(phase, NSEC, STEP)))
    t = np.clip(t, 0, NSEC - 0.001)
    if alive is not None:
        t = t[alive(t)]
    return t

def alive_node(h):
    if h != HOSTS[BAD]:
        return None
    return lambda t: (t < ts(BAD_DOWN)) | (t >= ts(BAD_NODEEXP_UP))

def alive_dcgm(h):
    if h != HOSTS[BAD]:
        return None
    return lambda t: (t < ts(BAD_DOWN) - 20) | (t >= ts(BAD_DCGM_UP))

def lag(x, tau):
    """first-order lag at 1 s resolution"""
    y = np.empty_like(x)
    a = 1.0 - math.exp(-1.0 / tau)
    acc = x[0]
    for i, v in enumerate(x):
        acc += a * (v - acc)
        y[i] = acc
    return y

def at(arr, t):
    return arr[np.clip(t.astype(int), 0, NSEC)]

def cum_at(rate_per_s, t):
    c = np.concatenate([[0.0], np.cumsum(rate_per_s)])
    ti = np.clip(t, 0, NSEC)
    i = ti.astype(int)
    frac = ti - i
    return c[i] + frac * rate_per_s[np.clip(i, 0, NSEC)]

bad_host_down = (sec >= ts(BAD_DOWN)) & (sec < ts(BAD_BOOT) + 40)

DC_ROWS = []   # list of dict-of-arrays chunks for dcgm
ND_ROWS = []   # node_exporter + up

def add(rows, metric, t, v, **labels):
    n = len(t)
    d = {"timestamp": (EPOCH0 + np.asarray(t)) * 1000.0, "metric": metric, "value": np.asarray(v, dtype=float)}
    for k, lv in labels.items():
        d[k] = lv
    d["_n"] = n
    rows.append(d)

# GPU model -------------------------------------------------------------------
host_temp_off = {h: rng.normal(0, 1.6) for h in HOSTS}
inlet = 22.5
for hi, h in enumerate(HOSTS):
    al = alive_dcgm(h)
    t = scrape_times(phase_dcgm[h], al)
    inst = f"{IP[h]}:9400"
    boot_rel = ts(BAD_BOOT) if hi == BAD else -21.3 * 86400 - rng.uniform(0, 3) * 86400
    for g in range(8):
        u = UUIDS[(h, g)]
        lbl = dict(gpu=str(g), UUID=u, pci_bus_id=GPU_BUS[g], device=f"nvidia{g}", modelName=GPU_MODEL,
                   Hostname=h, DCGM_FI_DRIVER_VERSION=DRIVER, instance=inst, job="dcgm")
        p_off = rng.normal(0, 11)
        t_off = rng.normal(0, 2.3) + host_temp_off[h]
        # per-second power (W)
        p_full = 655 + p_off
        p_wait = 215 + p_off * 0.3
        p_idle = 71 + rng.normal(0, 2.5)
        P = p_idle + (p_full - p_idle) * compute + (p_wait - p_idle) * commwait
        P = np.where(ckpt_save | ckpt_load, p_idle + 45 + 30 * rng.random(NSEC + 1), P)
        jobs_on = training | ckpt_save | ckpt_load
        P = np.where(~jobs_on & (sec > ts(JOB1_END) - 1), p_idle, P)
        P = P + rng.normal(0, 9, NSEC + 1) * (P > 150)
        if hi == BAD:
            P = np.where(bad_host_down, 0.0, P)
        T_gpu = lag(inlet + 8.5 + t_off + 0.058 * P, 75.0)
        T_mem = lag(inlet + 12.0 + t_off * 0.8 + 0.066 * P, 90.0)
        util_ps = np.clip(100 * (compute + commwait) + rng.normal(0, 0.6, NSEC + 1), 0, 100)
        util_ps = np.where(ckpt_save, rng.uniform(0, 25, NSEC + 1), util_ps)
        util_ps = np.where(ckpt_load, rng.uniform(0, 8, NSEC + 1), util_ps)
        tensor = 0.47 * compute * (1 + rng.normal(0, 0.015, NSEC + 1))
        gr_act = np.clip(compute + commwait * 0.98, 0, 1)
        dram = 0.31 * compute + 0.04 * commwait
        busy = jobs_on | ((sec > ts(JOB2_START)) & (sec < ts(JOB2_START) + 70))
        sm = np.where(busy, 1980.0, 345.0)
        # occasional power-cap excursions at full load
        pc = (P > 690) & (rng.random(NSEC + 1) < 0.5)
        sm = np.where(pc, 1980 - rng.integers(15, 120, NSEC + 1), sm)
        fb_used = np.where(busy | (sec < ts(JOB1_END)), 71630 + rng.integers(-40, 40), 0.0)
        if hi == BAD:
            fb_used = np.where(sec >= ts(BAD_DOWN), np.where(sec > ts(JOB2_START) + 40, 71630, 0.0), fb_used)
        # sample
        add(DC_ROWS, "DCGM_FI_DEV_POWER_USAGE", t, np.round(at(P, t) + rng.normal(0, 3, len(t)), 3), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_GPU_TEMP", t, np.round(at(T_gpu, t) + rng.normal(0, 0.35, len(t))), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_MEMORY_TEMP", t, np.round(at(T_mem, t) + rng.normal(0, 0.35, len(t))), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_GPU_UTIL", t, np.round(at(util_ps, t)), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_SM_CLOCK", t, at(sm, t), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_MEM_CLOCK", t, np.full(len(t), 2619.0), **lbl)
        fbu = at(fb_used, t)
        add(DC_ROWS, "DCGM_FI_DEV_FB_USED", t, fbu, **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_FB_FREE", t, 81559 - 481 - fbu, **lbl)
        add(DC_ROWS, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", t, np.round(np.clip(at(gr_act, t) + rng.normal(0, 0.01, len(t)), 0, 1), 6), **lbl)
        add(DC_ROWS, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", t, np.round(np.clip(at(tensor, t), 0, 1), 6), **lbl)
        add(DC_ROWS, "DCGM_FI_PROF_DRAM_ACTIVE", t, np.round(np.clip(at(dram, t) + rng.normal(0, 0.005, len(t)), 0, 1), 6), **lbl)
        pcie_tx = (2.1e9 * compute + 1.2e9 * commwait) * (1 + rng.normal(0, 0.08, NSEC + 1))
        pcie_rx = (2.3e9 * compute + 1.3e9 * commwait) * (1 + rng.normal(0, 0.08, NSEC + 1))
        add(DC_ROWS, "DCGM_FI_PROF_PCIE_TX_BYTES", t, np.round(np.maximum(at(pcie_tx, t), 1e5)), **lbl)
        add(DC_ROWS, "DCGM_FI_PROF_PCIE_RX_BYTES", t, np.round(np.maximum(at(pcie_rx, t), 1e5)), **lbl)
        # energy counter (mJ since driver load)
        e0 = (0.0 if hi == BAD else rng.uniform(0.9e12, 1.2e12))
        Pe = np.where(sec >= ts(BAD_BOOT) + 40, P, 0.0) if hi == BAD else P
        energy = cum_at(Pe * 1000.0, t)
        if hi == BAD:
            e_before = rng.uniform(0.9e12, 1.2e12)
            energy = np.where(t < ts(BAD_DOWN), e_before + cum_at(P * 1000.0, t), energy)
        else:
            energy = e0 + energy
        add(DC_ROWS, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", t, np.round(energy), **lbl)
        replay = float(rng.choice([0, 0, 0, 0, 1, 3]))
        add(DC_ROWS, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", t, np.full(len(t), replay), **lbl)
        add(DC_ROWS, "DCGM_FI_DEV_XID_ERRORS", t, np.zeros(len(t)), **lbl)

# node_exporter ----------------------------------------------------------------
RAIL_BYTES_PER_IT = 30.6e9 / 8        # inter-node bytes per iteration per rail (each direction)
for hi, h in enumerate(HOSTS):
    inst = f"{IP[h]}:9100"
    t = scrape_times(phase_node[h], alive_node(h))
    base = dict(instance=inst, job="node")
    boot = (BAD_BOOT.timestamp() if hi == BAD else
            (T0 - timedelta(days=21, hours=rng.uniform(0, 30))).timestamp())
    boot_old = (T0 - timedelta(days=21, hours=rng.uniform(0, 30))).timestamp()
    bt = np.where((t >= ts(BAD_NODEEXP_UP)), boot, boot_old) if hi == BAD else np.full(len(t), boot)
    add(ND_ROWS, "node_boot_time_seconds", t, np.round(bt, 3), **base)
    rel = np.full(len(t), KERNEL, dtype=object)
    add(ND_ROWS, "node_uname_info", t, np.ones(len(t)), **base, domainname="(none)", machine="x86_64",
        nodename=h, release=KERNEL, sysname="Linux", version="#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024")
    add(ND_ROWS, "node_load1", t, np.round(np.clip(at(14 + 6 * compute + 3 * commwait, t) + rng.normal(0, 1.2, len(t)), 0.2, None), 2), **base)
    add(ND_ROWS, "node_memory_MemAvailable_bytes", t, np.round(1.62e12 - at((training | ckpt_save | ckpt_load) * 3.1e11, t) + rng.normal(0, 2e9, len(t))), **base)

    # --- InfiniBand, 8 rails ---
    iters_rate = np.zeros(NSEC + 1)
    iters_rate[training] = 1.0 / np.where(degraded[training], STEP_BAD, STEP_OK)
    port_down_after = ts(BAD_BOOT) if hi == BAD else None
    for r in range(8):
        lbl = dict(base, device=f"mlx5_{r}", port="1")
        share = (1 + rng.normal(0, 0.03))
        tx_rate = iters_rate * RAIL_BYTES_PER_IT * share * (1 + rng.normal(0, 0.04, NSEC + 1))
        rx_rate = iters_rate * RAIL_BYTES_PER_IT * share * (1 + rng.normal(0, 0.04, NSEC + 1))
        tx_rate += 1800.0          # SMPs / background
        rx_rate += 1900.0
        # checkpoint load at job-2 start arrives over IB? no: storage is on the front-end network
        if hi == BAD:
            tx_rate = np.where(sec >= ts(BAD_DOWN), 0.0, tx_rate)
            rx_rate = np.where(sec >= ts(BAD_DOWN), 0.0, rx_rate)
        if hi == PREV:   # gpu013 sends its ring traffic to gpu014, which now only speaks TCP
            tx_rate = np.where(degraded, 1800.0, tx_rate)
        if hi == NEXT:   # gpu015 receives its ring traffic from gpu014
            rx_rate = np.where(degraded, 1900.0, rx_rate)
        c_tx0 = rng.uniform(1.2e15, 1.8e15)
        c_rx0 = c_tx0 * rng.uniform(0.98, 1.02)
        ctx = c_tx0 + cum_at(tx_rate, t)
        crx = c_rx0 + cum_at(rx_rate, t)
        if hi == BAD:
            after = t >= ts(BAD_NODEEXP_UP)
            # counters restart from zero at the reboot and stay (almost) flat: ports are Down
            ctx = np.where(after, 0.0, ctx)
            crx = np.where(after, 0.0, crx)
        add(ND_ROWS, "node_infiniband_port_data_transmitted_bytes_total", t, np.round(ctx), **lbl)
        add(ND_ROWS, "node_infiniband_port_data_received_bytes_total", t, np.round(crx), **lbl)
        add(ND_ROWS, "node_infiniband_port_packets_transmitted_total", t, np.round(ctx / 4136.0), **lbl)
        add(ND_ROWS, "node_infiniband_port_packets_received_total", t, np.round(crx / 4136.0), **lbl)
        tw0 = rng.uniform(2e9, 6e9)
        tw = tw0 + cum_at(iters_rate * rng.uniform(2.0e4, 4.0e4), t)
        if hi == BAD:
            tw = np.where(t >= ts(BAD_NODEEXP_UP), 0.0, tw)
        add(ND_ROWS, "node_infiniband_port_transmit_wait_total", t, np.round(tw), **lbl)
        ld = float(rng.choice([0, 0, 0, 1, 2]))
        add(ND_ROWS, "node_infiniband_link_downed_total", t,
            np.where((hi == BAD) & (t >= ts(BAD_NODEEXP_UP)), 0.0, ld), **lbl)
        add(ND_ROWS, "node_infiniband_link_error_recovery_total", t,
            np.where((hi == BAD) & (t >= ts(BAD_NODEEXP_UP)), 0.0, float(rng.choice([0, 0, 1]))), **lbl)
        st = np.full(len(t), 4.0)
        ph = np.full(len(t), 5.0)
        rate = np.full(len(t), 5e10)
        if hi == BAD:
            after = t >= ts(BAD_NODEEXP_UP)
            st = np.where(after, 1.0, st)        # DOWN
            ph = np.where(after, 3.0, ph)        # Disabled (ports powered down by firmware)
            rate = np.where(after, 1.25e9, rate)
        add(ND_ROWS, "node_infiniband_state_id", t, st, **lbl)
        add(ND_ROWS, "node_infiniband_physical_state_id", t, ph, **lbl)
        add(ND_ROWS, "node_infiniband_rate_bytes_per_second", t, rate, **lbl)
    for r in range(8):
        add(ND_ROWS, "node_infiniband_info", t, np.ones(len(t)), **dict(base, device=f"mlx5_{r}"),
            board_id="MT_0000000838", firmware_version="28.41.1000", hca_type="MT4129")

    # --- front-end Ethernet: bond0 = 2 x 100GbE (ens21f0np0, ens21f1np1) ---
    rx_base = 2.2e7 * (1 + 0.4 * rng.random(NSEC + 1)) * (training | ckpt_save) + 2.0e5
    tx_base = 4.0e6 * (1 + 0.5 * rng.random(NSEC + 1)) * (training | ckpt_save) + 1.5e5
    ck_tx = ckpt_save * (4.7e9 / CKPT_SAVE_S)        # shard write to NFS
    ck_rx = ckpt_load * (4.9e9 / 84.0)               # shard read at restart
    eth_tx = tx_base + ck_tx
    eth_rx = rx_base + ck_rx
    ring_bytes_s = np.zeros(NSEC + 1)
    ring_bytes_s[degraded] = (RAIL_BYTES_PER_IT * 8) / STEP_BAD
    ring_bytes_s *= (1 + rng.normal(0, 0.05, NSEC + 1))
    if hi == BAD:
        eth_tx = eth_tx + ring_bytes_s
        eth_rx = eth_rx + ring_bytes_s
        eth_tx = np.where(bad_host_down, 0.0, eth_tx)
        eth_rx = np.where(bad_host_down, 0.0, eth_rx)
    if hi == PREV:
        eth_tx = eth_tx + ring_bytes_s
    if hi == NEXT:
        eth_rx = eth_rx + ring_bytes_s
    c0tx, c0rx = rng.uniform(3e13, 6e13), rng.uniform(8e13, 1.4e14)
    for dev, frac in (("bond0", 1.0), ("ens21f0np0", 0.52), ("ens21f1np1", 0.48)):
        lbl = dict(base, device=dev)
        ctx = c0tx * frac + cum_at(eth_tx * frac, t)
        crx = c0rx * frac + cum_at(eth_rx * frac, t)
        if hi == BAD:
            # counters restart at boot: bytes since the interface came up (07:45:10)
            t_up = np.array([ts(BAD_BOOT) + 21.0])
            after = t >= ts(BAD_NODEEXP_UP)
            ctx = np.where(after, 3.1e6 * frac + cum_at(eth_tx * frac, t) - cum_at(eth_tx * frac, t_up)[0], ctx)
            crx = np.where(after, 9.4e6 * frac + cum_at(eth_rx * frac, t) - cum_at(eth_rx * frac, t_up)[0], crx)
        add(ND_ROWS, "node_network_transmit_bytes_total", t, np.round(ctx), **lbl)
        add(ND_ROWS, "node_network_receive_bytes_total", t, np.round(crx), **lbl)
        add(ND_ROWS, "node_network_transmit_packets_total", t, np.round(ctx / 8400.0), **lbl)
        add(ND_ROWS, "node_network_receive_packets_total", t, np.round(crx / 8400.0), **lbl)
        add(ND_ROWS, "node_network_up", t, np.ones(len(t)), **lbl)
        add(ND_ROWS, "node_network_speed_bytes", t, np.full(len(t), 2.5e10 if dev == "bond0" else 1.25e10), **lbl)
        add(ND_ROWS, "node_network_mtu_bytes", t, np.full(len(t), 9000.0), **lbl)
    # IPoIB netdevs on the HCAs
    for r in range(8):
        lbl = dict(base, device=f"ibp{[25, 41, 57, 92, 153, 169, 185, 218][r]}s0")
        up = np.ones(len(t))
        if hi == BAD:
            up = np.where(t >= ts(BAD_NODEEXP_UP), 0.0, 1.0)
        add(ND_ROWS, "node_network_up", t, up, **lbl)

    # Prometheus "up" for both targets
    for job, ph_, port in (("node", phase_node[h], 9100), ("dcgm", phase_dcgm[h], 9400)):
        tu = scrape_times(ph_)
        v = np.ones(len(tu))
        if hi == BAD:
            upat = ts(BAD_NODEEXP_UP) if job == "node" else ts(BAD_DCGM_UP)
            v = np.where((tu >= ts(BAD_DOWN) - (20 if job == "dcgm" else 0)) & (tu < upat), 0.0, 1.0)
        add(ND_ROWS, "up", tu, v, instance=f"{IP[h]}:{port}", job=job)

def write_parquet(rows, path, label_cols):
    # one row group per metric, each sorted by time
    metrics = sorted(set(r["metric"] for r in rows))
    schema = pa.schema([("timestamp", pa.timestamp("ms", tz="UTC")), ("metric", pa.string()),
                        ("value", pa.float64())] + [(c, pa.string()) for c in label_cols])
    with pq.ParquetWriter(path, schema, compression="zstd") as w:
        for m in metrics:
            parts = [r for r in rows if r["metric"] == m]
            n = sum(p["_n"] for p in parts)
            tsv = np.concatenate([p["timestamp"] for p in parts])
            val = np.concatenate([p["value"] for p in parts])
            cols = {}
            for c in label_cols:
                col = []
                for p in parts:
                    v = p.get(c)
                    col.extend([v] * p["_n"])
                cols[c] = np.array(col, dtype=object)
            order = np.argsort(tsv, kind="stable")
            arrays = [pa.array(tsv[order].astype("int64"), type=pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
                      pa.array([m] * n, type=pa.string()),
                      pa.array(val[order], type=pa.float64())]
            arrays += [pa.array(cols[c][order].tolist(), type=pa.string()) for c in label_cols]
            w.write_table(pa.Table.from_arrays(arrays, schema=schema), row_group_size=n)

# ---------------------------------------------------------------------------
# 3. logs
# ---------------------------------------------------------------------------
def fmt_syslog(dt):
    return dt.strftime("%b %d %H:%M:%S").replace(" 0", "  ", 1) if dt.day < 10 else dt.strftime("%b %d %H:%M:%S")

NCCL_VER = "NCCL version 2.21.5+cuda12.4"
IB_LINE = ("NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB "
           "[4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB bond0:{ip}<0>")
AFF = ["00000000,00000000,000000ff,ffffffff,ffff0000,00000000,00ffffff,ffffffff",
       "00000000,00000000,000000ff,ffffffff,ffff0000,00000000,00ffffff,ffffffff",
       "00000000,00000000,000000ff,ffffffff,ffff0000,00000000,00ffffff,ffffffff",
       "00000000,00000000,000000ff,ffffffff,ffff0000,00000000,00ffffff,ffffffff",
       "ffffffff,ffffff00,00000000,0000ffff,ffffffff,ff000000,00000000,00000000",
       "ffffffff,ffffff00,00000000,0000ffff,ffffffff,ff000000,00000000,00000000",
       "ffffffff,ffffff00,00000000,0000ffff,ffffffff,ff000000,00000000,00000000",
       "ffffffff,ffffff00,00000000,0000ffff,ffffffff,ff000000,00000000,00000000"]

def nccl_init_block(job_bad_host, ntask=192):
    """NCCL_DEBUG=INFO output of every rank for the world communicator (NCCL 2.21.5).
    Returns list of (task, text) in a plausible interleaving."""
    lines = []
    commid = "0x%016x" % prng.getrandbits(64)
    pids = {}
    for node in range(NN):
        base_pid = prng.randint(180000, 3900000)
        for lr in range(8):
            pids[node * 8 + lr] = base_pid + lr * prng.randint(1, 3) + lr
    addr = {r: "0x%x" % prng.randrange(0x55d0a0000000, 0x55f0ffffffff, 16) for r in range(ntask)}
    phase1, phase2, phase3, phase4 = [], [], [], []
    for r in range(ntask):
        node, lr = divmod(r, 8)
        h = HOSTS[node]
        pid = pids[r]
        p = f"{h}:{pid}:{pid} [{lr}] "
        bad = (node == job_bad_host)
        phase1 += [(r, p + f"NCCL INFO Bootstrap : Using bond0:{IP[h]}<0>"),
                   (r, p + "NCCL INFO NET/Plugin: No plugin found (libnccl-net.so)"),
                   (r, p + "NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory : when loading libnccl-net.so"),
                   (r, p + "NCCL INFO NET/Plugin: Using internal network plugin."),
                   (r, p + "NCCL INFO cudaDriverVersion 12040"),
                   (r, NCCL_VER)]
        if bad:
            # real lines: pytorch/pytorch#111424 ("NET/IB : No device found."),
            # open-compass/VLMEvalKit#975 (NET/Socket : Using ..., non-device plugin, Using network Socket)
            phase2 += [(r, p + "NCCL INFO NET/IB : No device found."),
                       (r, p + f"NCCL INFO NET/Socket : Using [0]bond0:{IP[h]}<0>"),
                       (r, p + "NCCL INFO Using non-device net plugin version 0"),
                       (r, p + "NCCL INFO Using network Socket")]
        else:
            # real lines: stas00/ml-engineering network/debug/README.md (NET/IB : Using ... [RO]; OOB ...),
            # NVIDIA/nccl-tests#185 (non-device plugin, Using network IB)
            phase2 += [(r, p + IB_LINE.format(ip=IP[h])),
                       (r, p + "NCCL INFO Using non-device net plugin version 0"),
                       (r, p + "NCCL INFO Using network IB")]
        phase2 += [(r, p + f"NCCL INFO DMA-BUF is available on GPU device {lr}"),
                   (r, p + f"NCCL INFO ncclCommInitRank comm {addr[r]} rank {r} nranks {ntask} cudaDev {lr} nvmlDev {lr} busId {NCCL_BUSID[lr]} commId {commid} - Init START")]
        phase3 += [(r, p + f"NCCL INFO Setting affinity for GPU {lr} to {AFF[lr]}"),
                   (r, p + f"NCCL INFO NVLS multicast support is available on dev {lr}"),
                   (r, p + f"NCCL INFO comm {addr[r]} rank {r} nRanks {ntask} nNodes {NN} localRanks 8 localRank {lr} MNNVL 0")]
        prv = (r - 1) % ntask
        nxt = (r + 1) % ntask
        t2 = pid + prng.randint(180, 400)
        q = f"{h}:{pid}:{t2} [{lr}] "
        if r == 0:
            order = " ".join("%3d" % x for x in range(ntask))
            for c in range(4):
                phase3.append((r, p + f"NCCL INFO Channel {c:02d}/32 :  {order}"))
        phase3 += [(r, p + f"NCCL INFO Trees [0] {nxt if lr < 7 else -1}/-1/-1->{r}->{prv if lr > 0 else -1} [1] {nxt if lr < 7 else -1}/-1/-1->{r}->{prv if lr > 0 else -1}"),
                   (r, p + "NCCL INFO P2P Chunksize set to 131072")]
        for c in range(2):
            if lr == 0:
                tr = "NET/Socket/0" if bad else f"NET/IB/{c % 8}/GDRDMA"
                phase4.append((r, q + f"NCCL INFO Channel {c:02d}/0 : {prv}[{prv % 8}] -> {r}[{lr}] [receive] via {tr}"))
            if lr == 7:
                tr = "NET/Socket/0" if bad else f"NET/IB/{(c + 7) % 8}/GDRDMA"
                phase4.append((r, q + f"NCCL INFO Channel {c:02d}/0 : {r}[{lr}] -> {nxt}[{nxt % 8}] [send] via {tr}"))
            if lr < 7:
                phase4.append((r, q + f"NCCL INFO Channel {c:02d}/0 : {r}[{lr}] -> {nxt}[{nxt % 8}] via P2P/CUMEM/read"))
        if bad and lr == 0:
            phase4.append((r, q + "NCCL INFO NET/Socket: Using 2 threads and 8 sockets per thread"))
        phase4 += [(r, p + "NCCL INFO Connected all rings"),
                   (r, p + "NCCL INFO Connected all trees"),
                   (r, p + "NCCL INFO threadThresholds 8/8/64 | 1536/8/64 | 512 | 512"),
                   (r, p + "NCCL INFO 32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer"),
                   (r, p + f"NCCL INFO ncclCommInitRank comm {addr[r]} rank {r} nranks {ntask} cudaDev {lr} nvmlDev {lr} busId {NCCL_BUSID[lr]} commId {commid} - Init COMPLETE")]
    out = []
    for ph in (phase1, phase2, phase3, phase4):
        # interleave ranks but keep each rank's own order
        by_rank = {}
        for r, s in ph:
            by_rank.setdefault(r, []).append(s)
        queues = list(by_rank.items())
        prng.shuffle(queues)
        idx = {r: 0 for r, _ in queues}
        remaining = sum(len(v) for _, v in queues)
        while remaining:
            r, v = queues[prng.randrange(len(queues))]
            if idx[r] < len(v):
                out.append((r, v[idx[r]]))
                idx[r] += 1
                remaining -= 1
    return out

def lab(task):
    return f"{task:3d}: "

def megatron_iter_line(dt, it, elapsed_ms, loss, gn, lr):
    thr = FLOPS_PER_ITER_PER_GPU / (elapsed_ms / 1000.0) / 1e12
    return (f" [{dt.strftime('%Y-%m-%d %H:%M:%S')}] iteration {it:8d}/{TRAIN_ITERS:8d} |"
            f" consumed samples: {it * GBS:12d} | elapsed time per iteration (ms): {elapsed_ms:.1f} |"
            f" throughput per GPU (TFLOP/s/GPU): {thr:.1f} | learning rate: {lr:.6E} |"
            f" global batch size: {GBS:5d} | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {gn:.3f} |"
            f" number of skipped iterations:   0 | number of nan iterations:   0 |")

def lr_at(it):
    mx, mn, wu = 3.0e-4, 3.0e-5, 2000
    if it < wu:
        return mx * it / wu
    return mn + 0.5 * (mx - mn) * (1 + math.cos(math.pi * (it - wu) / (TRAIN_ITERS - wu)))

def dt_of(rel):
    return T0 + timedelta(seconds=rel)

def job_output(jobid, start_dt, events, start_iter, bad_node, end_kind):
    L = []
    L.append(f"+ srun --label --cpu-bind=none --kill-on-bad-exit=1 python -u pretrain_gpt.py --tensor-model-parallel-size 1 --pipeline-model-parallel-size 1 --use-distributed-optimizer --num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 --group-query-attention --num-query-groups 8 --seq-length {SEQ} --max-position-embeddings 8192 --micro-batch-size 1 --global-batch-size {GBS} --train-iters {TRAIN_ITERS} --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --lr-warmup-iters 2000 --bf16 --log-interval 10 --log-throughput --save-interval {CKPT_EVERY} --save /lustre/ckpt/llama8b-pt --load /lustre/ckpt/llama8b-pt --ckpt-format torch_dist --data-path /lustre/data/pt-mix-v3/text_document")
    L.append(f"MASTER_ADDR=gpu001 MASTER_PORT=6{jobid % 1000:03d} WORLD_SIZE=192 NCCL_DEBUG=INFO")
    # rank 0 start-up
    L.append(lab(0) + "using world size: 192, data-parallel size: 192, context-parallel size: 1, hierarchical context-parallel sizes: Nonetensor-model-parallel size: 1, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 1, encoder-pipeline-model-parallel size: 0")
    L.append(lab(0) + "Number of virtual stages per pipeline stage: None")
    L.append(lab(0) + "using torch.bfloat16 for parameters ...")
    L.append(lab(0) + "> initializing torch distributed ...")
    # NCCL world init
    for task, s in nccl_init_block(bad_node):
        L.append(lab(task) + s)
    L.append(lab(0) + "> initialized tensor model parallel with size 1")
    L.append(lab(0) + "> initialized pipeline model parallel with size 1")
    L.append(lab(0) + "> setting random seeds to 1234 ...")
    L.append(lab(0) + "> compiling dataset index builder ...")
    L.append(lab(0) + ">>> done with dataset index builder. Compilation time: 0.071 seconds")
    L.append(lab(0) + "time to initialize megatron (seconds): 41.892")
    L.append(lab(0) + f"[after megatron is initialized] datetime: {(start_dt + timedelta(seconds=55)).strftime('%Y-%m-%d %H:%M:%S')} ")
    L.append(lab(0) + "building GPT model ...")
    L.append(lab(0) + " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8030261248")
    L.append(lab(0) + f" loading distributed checkpoint from /lustre/ckpt/llama8b-pt at iteration {start_iter}")
    L.append(lab(0) + f"  successfully loaded checkpoint from /lustre/ckpt/llama8b-pt [ t 1/1, p 1/1 ] at iteration {start_iter}")
    L.append(lab(0) + f"[after model, optimizer, and learning rate scheduler are built] datetime: {(start_dt + timedelta(seconds=148)).strftime('%Y-%m-%d %H:%M:%S')} ")
    L.append(lab(0) + "> building train, validation, and test datasets ...")
    L.append(lab(0) + " > datasets target sizes (minimum size):")
    L.append(lab(0) + f"    train:      {TRAIN_ITERS * GBS}")
    L.append(lab(0) + f"    validation: {(TRAIN_ITERS // 1000 + 1) * 100 * GBS}")
    L.append(lab(0) + "    test:       153600")
    L.append(lab(0) + f"[after dataloaders are built] datetime: {(start_dt + timedelta(seconds=152)).strftime('%Y-%m-%d %H:%M:%S')} ")
    L.append(lab(0) + "done with setup ...")
    L.append(lab(0) + "training ...")
    L.append(lab(0) + f"[before the start of training step] datetime: {(start_dt + timedelta(seconds=153)).strftime('%Y-%m-%d %H:%M:%S')} ")
    # iterations
    last_log_t = None
    acc = []
    loss0 = 2.131 - (start_iter - 41000) * 2.2e-6
    first = True
    for it, t, kind in events:
        tt = dt_of(t)
        if kind == "ckpt":
            L.append(lab(0) + f"saving checkpoint at iteration {it:7d} to /lustre/ckpt/llama8b-pt in torch_dist format")
            L.append(lab(0) + f"  successfully saved checkpoint from iteration {it:7d} to /lustre/ckpt/llama8b-pt [ t 1/1, p 1/1 ]")
            L.append(lab(191) + "(min, max) time across ranks (ms):")
            L.append(lab(191) + f"    save-checkpoint ................................: ({(CKPT_SAVE_S - 0.4 + rng.random()*0.3) * 1000:.2f}, {(CKPT_SAVE_S + rng.random() * 0.3) * 1000:.2f})")
            continue
        if last_log_t is None:
            last_log_t = t - (STEP_OK if not degraded_any(events) else STEP_BAD)
            last_it = it - 1
        if it % 10 == 0:
            el = (t - last_log_t) / (it - last_it) * 1000.0
            loss = loss0 - (it - start_iter) * 2.2e-6 + rng.normal(0, 0.018)
            gn = abs(0.21 + rng.normal(0, 0.018))
            L.append(lab(191) + megatron_iter_line(tt, it, el, loss, gn, lr_at(it)))
            if first:
                L.append(lab(0) + f"[Rank 0] (after {it} iterations) memory (MB) | allocated: 42613.21484375 | max allocated: 63950.8486328125 | reserved: 70368.0 | max reserved: 70368.0")
                first = False
            last_log_t, last_it = t, it
    if end_kind == "timeout":
        end = JOB1_END.strftime("%Y-%m-%dT%H:%M:%S")
        L.append(f"slurmstepd: error: *** JOB {jobid} ON gpu001 CANCELLED AT {end} DUE TO TIME LIMIT ***")
        L.append(f"slurmstepd: error: *** STEP {jobid}.0 ON gpu001 CANCELLED AT {end} DUE TO TIME LIMIT ***")
        L.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
    return L

def degraded_any(events):
    return events is job2

# kernel boot of gpu014 (rsyslog kern.log) ------------------------------------
def boot_lines():
    b = []
    def k(t, s):
        b.append((t, s))
    k(0.000000, f"Linux version {KERNEL} (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024 (Ubuntu 5.15.0-119.129-generic 5.15.160)")
    k(0.000000, f"Command line: BOOT_IMAGE=/boot/vmlinuz-{KERNEL} root=UUID=3d1f7b0e-6a9c-4b55-9b1e-2f0f5f2a6c11 ro intel_iommu=on iommu=pt pci=realloc=off")
    k(0.000000, "KERNEL supported cpus:")
    k(0.000000, "  Intel GenuineIntel")
    k(0.000000, "  AMD AuthenticAMD")
    k(0.000000, "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'")
    k(0.000000, "BIOS-provided physical RAM map:")
    k(0.000000, "BIOS-e820: [mem 0x0000000000000000-0x000000000009ffff] usable")
    k(0.000000, "NX (Execute Disable) protection: active")
    k(0.000000, "SMBIOS 3.3.0 present.")
    k(0.000000, "DMI: Dell Inc. PowerEdge XE9680/0K7Y1R, BIOS 2.3.5 05/13/2025")
    k(0.000000, "tsc: Detected 2000.000 MHz processor")
    k(0.000000, "ACPI: Early table checksum verification disabled")
    k(0.000000, "ACPI: SRAT 0x000000006F2C8000 0005F0 (v03 DELL   PE_SC3   00000001 DELL 00000001)")
    k(0.000000, "NUMA: Initialized distance table, cnt=2")
    k(0.000000, "Kernel command line: BOOT_IMAGE=/boot/vmlinuz-" + KERNEL + " root=UUID=3d1f7b0e-6a9c-4b55-9b1e-2f0f5f2a6c11 ro intel_iommu=on iommu=pt pci=realloc=off")
    k(0.000000, "Memory: 2112946140K/2147022856K available (16393K kernel code, 4373K rwdata, 10836K rodata, 3332K init, 6552K bss, 34076576K reserved, 0K cma-reserved)")
    k(0.000000, "rcu: Hierarchical RCU implementation.")
    k(0.000000, "NR_IRQS: 524544, nr_irqs: 4648, preallocated irqs: 16")
    k(0.131222, "Calibrating delay loop (skipped), value calculated using timer frequency.. 4000.00 BogoMIPS (lpj=8000000)")
    k(0.358001, "smpboot: CPU0: Intel(R) Xeon(R) Platinum 8480+ (family: 0x6, model: 0x8f, stepping: 0x8)")
    k(0.412118, "smp: Brought up 2 nodes, 224 CPUs")
    k(0.412118, "smpboot: Max logical packages: 2")
    k(0.412118, "smpboot: Total of 224 processors activated (896358.40 BogoMIPS)")
    k(1.022301, "ACPI: PCI Root Bridge [PC00] (domain 0000 [bus 00-14])")
    k(1.514772, "pci 0000:18:00.0: [10de:2330] type 00 class 0x030200")
    k(1.522304, "pci 0000:19:00.0: [15b3:1021] type 00 class 0x020700")
    k(2.881733, "iommu: Default domain type: Passthrough (set via kernel command line)")
    k(3.402201, "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)")
    k(3.912117, "Freeing unused kernel image (initmem) memory: 3332K")
    k(3.990117, "Run /init as init process")
    k(4.611203, "nvme nvme0: pci function 0000:c1:00.0")
    k(4.703308, "nvme nvme0: 32/0/0 default/read/poll queues")
    k(4.705512, " nvme0n1: p1 p2")
    k(4.952210, "mlx5_core 0000:0d:00.0: firmware version: 22.39.2048")
    k(4.952290, "mlx5_core 0000:0d:00.0: 126.016 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x8 link)")
    k(5.301772, "mlx5_core 0000:0d:00.0: E-Switch: Total vports 2, per vport: max uc(128) max mc(2048)")
    k(5.318330, "mlx5_core 0000:0d:00.0: Port module event: module 0, Cable plugged")
    k(5.341905, "mlx5_core 0000:0d:00.1: firmware version: 22.39.2048")
    k(5.698201, "mlx5_core 0000:0d:00.1: Port module event: module 1, Cable plugged")
    t0 = 5.74
    for i, pci in enumerate(HCA_PCI):
        t = t0 + i * 0.41
        k(t, f"mlx5_core {pci}: firmware version: 28.41.1000")
        k(t + 0.0004, f"mlx5_core {pci}: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)")
        # real line (NVIDIA/gpu-operator#2511), PCI address adapted
        k(t + 0.3121, f"mlx5_core {pci}: mlx5_pcie_event:297:(pid 2071): PCIe slot power capability was not advertised.")
        k(t + 0.3307, f"mlx5_core {pci}: Rate limit: 127 rates are supported, range: 0Mbps to 195312Mbps")
        # real line (NVIDIA ConnectX docs, Troubleshooting), PCI address adapted
        k(t + 0.3598, f"mlx5_core {pci}: port_module:254:(pid 0): Port module event[error]: module 0, Cable error, One or more network ports have been powered down due to insufficient/unadvertised power on the PCIe slot")
    t = t0 + 8 * 0.41 + 0.1
    k(t, "mlx5_core 0000:0d:00.0 ens21f0np0: renamed from eth0")
    k(t + 0.02, "mlx5_core 0000:0d:00.1 ens21f1np1: renamed from eth1")
    for i, pci in enumerate(HCA_PCI):
        k(t + 0.3 + i * 0.05, f"mlx5_core {pci} ibp{[25, 41, 57, 92, 153, 169, 185, 218][i]}s0: renamed from ib{i}")
    k(11.48, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    k(12.93, "systemd[1]: systemd 249.11-0ubuntu3.12 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS -OPENSSL +ACL +BLKID +CURL +ELFUTILS -FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)")
    k(13.01, "systemd[1]: Detected architecture x86-64.")
    k(13.05, f"systemd[1]: Hostname set to <{HOSTS[BAD]}>.")
    k(16.22, "nvidia: loading out-of-tree module taints kernel.")
    k(16.22, "nvidia: module license 'NVIDIA' taints kernel.")
    k(16.22, "Disabling lock debugging due to kernel taint")
    k(16.41, "nvidia-nvlink: Nvlink Core is being initialized, major device number 507")
    for g, bus in enumerate(GPU_BUS):
        k(16.42 + g * 0.01, f"nvidia {bus[4:].lower()}: enabling device (0000 -> 0002)")
    k(16.88, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Fri May 31 09:35:42 UTC 2024")
    k(17.02, f"nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {DRIVER}  Fri May 31 09:30:57 UTC 2024")
    k(17.31, "nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint.")
    k(17.44, "nvidia-uvm: Loaded the UVM driver, major device number 505.")
    k(18.02, "nvidia-nvswitch: Probing device 0000:05:00.0, Vendor Id = 0x10de, Device Id = 0x22a3, Class = 0x68000")
    k(21.37, "bonding: bond0 is being created...")
    k(21.52, "bond0: (slave ens21f0np0): Enslaving as a backup interface with a down link")
    k(21.55, "bond0: (slave ens21f1np1): Enslaving as a backup interface with a down link")
    k(24.61, "mlx5_core 0000:0d:00.0 ens21f0np0: Link up")
    k(24.66, "mlx5_core 0000:0d:00.1 ens21f1np1: Link up")
    k(24.71, "bond0: (slave ens21f0np0): link status definitely up, 100000 Mbps full duplex")
    k(24.72, "bond0: (slave ens21f1np1): link status definitely up, 100000 Mbps full duplex")
    k(24.72, "bond0: active interface up!")
    k(24.73, "IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready")
    k(31.92, "NFSD: Using UMH upcall client tracking operations.")
    k(33.40, "FS-Cache: Netfs 'nfs' registered for caching")
    k(36.77, "Key type dns_resolver registered")
    k(37.12, "NFS: Registering the id_resolver key type")
    return b

def write_logs():
    logs = os.path.join(OUT, "logs")
    os.makedirs(logs, exist_ok=True)
    # --- trainer output (Slurm stdout files, srun --label) ---
    out1 = job_output(JOB1, JOB1_START, job1, 41000, bad_node=None, end_kind="timeout")
    with open(os.path.join(logs, f"slurm-{JOB1}.out"), "w") as f:
        f.write("\n".join(out1) + "\n")
    out2 = job_output(JOB2, JOB2_START, job2, last_ckpt_j1, bad_node=BAD, end_kind=None)
    with open(os.path.join(logs, f"slurm-{JOB2}.out"), "w") as f:
        f.write("\n".join(out2) + "\n")
    # --- sacct ---
    with open(os.path.join(logs, "sacct.txt"), "w") as f:
        f.write("JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|Start|End|Elapsed|NNodes|NodeList\n")
        f.write(f"{JOB1}|llama8b-pt|train|llm-pt|5376|TIMEOUT|0:0|2025-05-19T21:34:52|2025-05-20T07:34:58|10:00:06|24|gpu[001-024]\n")
        f.write(f"{JOB1}.batch|batch||llm-pt|224|CANCELLED|0:15|2025-05-19T21:34:52|2025-05-20T07:34:59|10:00:07|1|gpu001\n")
        f.write(f"{JOB1}.extern|extern||llm-pt|5376|COMPLETED|0:0|2025-05-19T21:34:52|2025-05-20T07:34:58|10:00:06|24|gpu[001-024]\n")
        f.write(f"{JOB1}.0|python||llm-pt|5376|CANCELLED|0:15|2025-05-19T21:34:55|2025-05-20T07:35:30|10:00:35|24|gpu[001-024]\n")
        f.write(f"{JOB2}|llama8b-pt|train|llm-pt|5376|RUNNING|0:0|2025-05-20T07:48:05|Unknown|02:41:55|24|gpu[001-024]\n")
        f.write(f"{JOB2}.batch|batch||llm-pt|224|RUNNING|0:0|2025-05-20T07:48:05|Unknown|02:41:55|1|gpu001\n")
        f.write(f"{JOB2}.extern|extern||llm-pt|5376|RUNNING|0:0|2025-05-20T07:48:05|Unknown|02:41:55|24|gpu[001-024]\n")
        f.write(f"{JOB2}.0|python||llm-pt|5376|RUNNING|0:0|2025-05-20T07:48:08|Unknown|02:41:52|24|gpu[001-024]\n")
    # --- kern.log per host (rsyslog, RFC 3164 with the kernel's [uptime]) ---
    for hi, h in enumerate(HOSTS):
        d = os.path.join(logs, h)
        os.makedirs(d, exist_ok=True)
        boot = T0 - timedelta(days=21, hours=prng.uniform(0, 30)) if hi != BAD else BAD_BOOT
        ents = []
        start = T0 - timedelta(minutes=40)
        # benign background lines
        tt = start + timedelta(seconds=prng.uniform(0, 3000))
        while tt < T1:
            kind = prng.random()
            if hi == BAD and BAD_DOWN <= tt < BAD_BOOT + timedelta(minutes=3):
                tt += timedelta(seconds=prng.uniform(600, 2400))
                continue
            b = boot if not (hi == BAD and tt < BAD_DOWN) else T0 - timedelta(days=22, hours=3)
            up = (tt - b).total_seconds()
            if kind < 0.45:
                _a = prng.randint(2505, 4200); msg = f"perf: interrupt took too long ({_a} > {_a - prng.randint(3, 600)}), lowering kernel.perf_event_max_sample_rate to {prng.choice([79750, 63750, 50750, 47750])}"
            elif kind < 0.75:
                msg = f"audit: type=1400 audit({tt.timestamp():.3f}:{prng.randint(300, 9000)}): apparmor=\"DENIED\" operation=\"open\" class=\"file\" profile=\"/usr/sbin/chronyd\" name=\"/sys/devices/system/clocksource/clocksource0/current_clocksource\" pid={prng.randint(2000, 9000)} comm=\"chronyd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=118 ouid=0"
            else:
                msg = f"IPv4: martian source 10.40.1.{prng.randint(20, 44)} from 10.40.0.1, on dev bond0"
            ents.append((tt, up, msg))
            tt += timedelta(seconds=prng.expovariate(1 / 3000.0))
        if hi == BAD:
            for kt, s in boot_lines():
                ents.append((BAD_BOOT + timedelta(seconds=kt), kt, s))
        ents.sort(key=lambda e: e[0])
        with open(os.path.join(d, "kern.log"), "w") as f:
            for tt, up, msg in ents:
                f.write(f"{tt.strftime('%b %d %H:%M:%S')} {h} kernel: [{up:12.6f}] {msg}\n")

def write_yaml():
    inc = {
        "id": ID,
        "title": "llama8b-pt ~40% slower since the 07:48 restart",
        "window": {"start": T0.isoformat(), "end": T1.isoformat()},
        "baseline": {"start": T0.isoformat(), "end": (T0 + timedelta(hours=2)).isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "hx1", "nodes": NN, "gpus_per_node": 8, "gpu_model": "H100"},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    thr_ok = FLOPS_PER_ITER_PER_GPU / STEP_OK / 1e12
    thr_bad = FLOPS_PER_ITER_PER_GPU / STEP_BAD / 1e12
    truth = {
        "id": ID,
        "cause": ("After a maintenance reboot of gpu014 (BIOS/BMC update) the BIOS no longer advertised PCIe slot power "
                  "to its eight ConnectX-7 HCAs, whose firmware powered their ports down; NCCL on gpu014's ranks found no "
                  "active IB port and fell back to TCP sockets over the front-end bond0, so the restarted synchronous job "
                  "ran every iteration at the pace of gpu014's TCP traffic."),
        "cause_metrics": [
            "node_infiniband_port_data_transmitted_bytes_total",
            "node_infiniband_port_data_received_bytes_total",
            "node_infiniband_state_id",
            "node_infiniband_physical_state_id",
            "node_network_transmit_bytes_total",
            "node_network_receive_bytes_total",
        ],
        "effect_metrics": ["DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP",
                           "Megatron 'elapsed time per iteration (ms)' / 'throughput per GPU (TFLOP/s/GPU)'"],
        "cause_log_evidence": [
            {"text": "gpu014:<pid>:<pid> [<n>] NCCL INFO NET/IB : No device found.",
             "file": f"logs/slurm-{JOB2}.out (tasks 104-111)",
             "source": "https://github.com/pytorch/pytorch/issues/111424 (node013:37715:38896 [0] NCCL INFO NET/IB : No device found.); same text in https://github.com/NVIDIA/nccl/issues/952",
             "adapted": "host, pid/tid, device index"},
            {"text": "gpu014:<pid>:<pid> [<n>] NCCL INFO NET/Socket : Using [0]bond0:10.40.1.33<0>",
             "file": f"logs/slurm-{JOB2}.out",
             "source": "https://github.com/open-compass/VLMEvalKit/issues/975 (12f0e56ac84d:2338970:2339157 [0] NCCL INFO NET/Socket : Using [0]eth0:172.17.0.2<0>)",
             "adapted": "host, pid/tid, interface name (eth0 -> bond0), IP"},
            {"text": "gpu014:<pid>:<pid> [<n>] NCCL INFO Using non-device net plugin version 0",
             "file": f"logs/slurm-{JOB2}.out",
             "source": "https://github.com/open-compass/VLMEvalKit/issues/975",
             "adapted": "host, pid/tid"},
            {"text": "gpu014:<pid>:<pid> [<n>] NCCL INFO Using network Socket",
             "file": f"logs/slurm-{JOB2}.out",
             "source": "https://github.com/open-compass/VLMEvalKit/issues/975",
             "adapted": "host, pid/tid"},
            {"text": "gpu0NN:<pid>:<pid> [<n>] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB bond0:10.40.1.NN<0>",
             "file": f"logs/slurm-{JOB1}.out and logs/slurm-{JOB2}.out (all other hosts: the healthy contrast)",
             "source": "https://github.com/stas00/ml-engineering/blob/master/network/debug/README.md (NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ... [7]mlx5_7:1/IB [RO]; OOB eno1:101.262.0.9<0>)",
             "adapted": "host/pid prefix, interface name (eno1 -> bond0), IP"},
            {"text": "gpu0NN:<pid>:<pid> [<n>] NCCL INFO Using network IB",
             "file": f"logs/slurm-{JOB2}.out",
             "source": "https://github.com/NVIDIA/nccl-tests/issues/185 (dgxh100-4:460770:460842 [0] NCCL INFO Using network IB)",
             "adapted": "host, pid/tid"},
            {"text": "mlx5_core 0000:19:00.0: mlx5_pcie_event:297:(pid 2071): PCIe slot power capability was not advertised.",
             "file": "logs/gpu014/kern.log (once per HCA, 8 PCI addresses)",
             "source": "https://github.com/NVIDIA/gpu-operator/issues/2511 (mlx5_core 0000:63:00.0: mlx5_pcie_event:297:(pid 2071): PCIe slot power capability was not advertised.)",
             "adapted": "PCI address, timestamp, host"},
            {"text": "mlx5_core 0000:19:00.0: port_module:254:(pid 0): Port module event[error]: module 0, Cable error, One or more network ports have been powered down due to insufficient/unadvertised power on the PCIe slot",
             "file": "logs/gpu014/kern.log (once per HCA, 8 PCI addresses)",
             "source": "https://docs.nvidia.com/networking/display/connectx6dxen/troubleshooting (quoted message: mlx5_core 0003:01:00.0: port_module:254:(pid 0): Port module event[error]: ...)",
             "adapted": "PCI address, timestamp, host"},
        ],
        "format_only_lines": ("NCCL 'Channel NN/0 : a[x] -> b[y] [send|receive] via NET/Socket/0' and 'via NET/IB/k/GDRDMA' lines, "
                              "'NET/Socket: Using 2 threads and 8 sockets per thread' and all other NCCL, Megatron-LM, slurmstepd "
                              "and kernel boot lines are generated from the programs' own format strings (NCCL v2.21.5 "
                              "src/transport/net.cc:195/235, net_socket.cc:282, init.cc; Megatron-LM core_r0.11.0 "
                              "megatron/training/training.py:1058-1106, checkpointing.py) with values of this incident; "
                              "they are not copied from a public log."),
        "hosts": [HOSTS[BAD]],
        "secondary_hosts_affected": {
            HOSTS[PREV]: "ring predecessor of gpu014: its inter-node sends now go to gpu014 over TCP (bond0 tx up, IB tx flat)",
            HOSTS[NEXT]: "ring successor of gpu014: its inter-node receives now come from gpu014 over TCP (bond0 rx up, IB rx flat)",
        },
        "gpu": None,
        "onset": ONSET.isoformat().replace("+00:00", "Z"),
        "onset_notes": ("gpu014 rebooted 07:35:41-07:44:49Z (IB ports down from boot, kern.log 07:44:5x); the restarted job "
                        f"{JOB2} initialised NCCL at ~07:48:50Z and its first slow iteration ended ~{ONSET.strftime('%H:%M:%S')}Z. "
                        "07:34:52-07:50:44Z is a scheduled gap (job 1 TIMEOUT, node reboot, job 2 start-up), not part of the fault."),
        "job_throughput_loss_pct": round(100 * (1 - STEP_OK / STEP_BAD), 1),
        "throughput_numbers": {"healthy_s_per_iteration": STEP_OK, "degraded_s_per_iteration": STEP_BAD,
                               "healthy_tflops_per_gpu": round(thr_ok, 1), "degraded_tflops_per_gpu": round(thr_bad, 1),
                               "tokens_per_second_healthy": round(GBS * SEQ / STEP_OK),
                               "tokens_per_second_degraded": round(GBS * SEQ / STEP_BAD)},
        "what_a_good_postmortem_says": (
            "Job 4418090 ran ~41% slower than its predecessor from its first iteration on every rank because gpu014 came "
            "back from its 07:35 maintenance reboot with all eight ConnectX-7 IB ports powered down (kernel: 'PCIe slot "
            "power capability was not advertised' / 'ports have been powered down due to insufficient/unadvertised power'), "
            "so NCCL on gpu014 printed 'NET/IB : No device found.' and used the Socket transport over bond0 while every other "
            "host used NET/IB. gpu014's IB counters stayed flat with state Down while its bond0 carried ~4 GB/s each way "
            "(and its ring neighbours gpu013/gpu015 moved their traffic to it onto Ethernet); fix the BIOS slot-power setting "
            "(or HCA firmware), verify 8 active IB ports before returning a node to service, and add an NCCL-transport / "
            "ibstat check to the job prolog."),
        "realism_note": (
            "With stock NCCL a communicator mixing IB ranks and Socket ranks normally fails at connection setup "
            "('socketFinalizeAccept: wrong type 4 != 3', see NVIDIA/nccl-tests#188 where the maintainer says IB must work on "
            "both nodes or NCCL_IB_DISABLE=1 must be set); this incident follows the brief and assumes the job ran degraded. "
            "The metrics model the physically consistent consequence (gpu014's ring neighbours also exchange its traffic over "
            "Ethernet)."),
        "benign_noise": ["job 4417731 TIMEOUT at 07:34:52Z and the ~16 min gap before the restart (GPUs idle)",
                         "checkpoint saves every 500 iterations (~23 s, GPUs idle, bond0 write burst)",
                         "one interval after each checkpoint shows a longer elapsed time per iteration",
                         "benign kernel lines (perf sample-rate lowering, AppArmor denials, martian source)"],
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140)

def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    dcgm_labels = ["instance", "job", "Hostname", "gpu", "UUID", "pci_bus_id", "device", "modelName", "DCGM_FI_DRIVER_VERSION"]
    node_labels = ["instance", "job", "device", "port", "board_id", "firmware_version", "hca_type",
                   "domainname", "machine", "nodename", "release", "sysname", "version"]
    write_parquet(DC_ROWS, os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), dcgm_labels)
    write_parquet(ND_ROWS, os.path.join(OUT, "metrics", "node-exporter.parquet"), node_labels)
    write_logs()
    write_yaml()

if __name__ == "__main__":
    main()
