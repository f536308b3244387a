#!/usr/bin/env python3
"""Build the incident folder `roce-pfc-storm-2025-05-13` beside this script.

A 24-node x 8 H100 RoCE (Ethernet RDMA) cluster trains Llama-3 8B with torchtitan
(FSDP, synchronous data parallel).  At 08:52:35 UTC the ConnectX-7 NIC enp156s0np0 of
gpu-c3-14 starts to send PFC priority-3 pause frames continuously (its receive path is
stuck after a firmware fault).  The ToR backs up, every host's RDMA traffic slows and the
job runs ~15% slower for about an hour, until the on-call drains gpu-c3-14 (09:58),
requeues the job onto the spare gpu-c3-25 and reboots gpu-c3-14 (10:24).

Fixed seed: running it twice gives the same folder.  Needs numpy, pyarrow, pyyaml.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import math
import pathlib
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 18_0513
RNG = np.random.default_rng(SEED)
INCIDENT_ID = "roce-pfc-storm-2025-05-13"
HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE / INCIDENT_ID


def ts(s: str) -> float:
    return dt.datetime.fromisoformat(s).replace(tzinfo=dt.timezone.utc).timestamp()


def utc(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, tz=dt.timezone.utc)


# --------------------------------------------------------------------------- timeline
W0 = ts("2025-05-13T07:30:00")          # window start
W1 = ts("2025-05-13T11:30:00")          # window end
BASE_END = ts("2025-05-13T08:45:00")
JOB_ALLOC1 = ts("2025-05-13T05:01:48.551")
STORM_ON = ts("2025-05-13T08:52:35")    # gpu-c3-14 enp156s0np0 starts pausing
DRAIN = ts("2025-05-13T09:58:10.412")
REQUEUE = ts("2025-05-13T09:58:52.116")  # scontrol requeue -> SIGTERM to every rank
JOB_ALLOC2 = ts("2025-05-13T10:01:31.907")
REBOOT = ts("2025-05-13T10:24:06")      # gpu-c3-14 rebooted (storm ends with it)
KERNEL_UP = ts("2025-05-13T10:28:11")   # after ~4 min of BIOS POST
NODE_EXP_UP = ts("2025-05-13T10:28:58")
DCGM_UP = ts("2025-05-13T10:29:44")
LOG_COLLECTED = ts("2025-05-13T11:41:20")

HOSTS = [f"gpu-c3-{i:02d}" for i in range(1, 26)]
BAD_HOST = "gpu-c3-14"
SPARE = "gpu-c3-25"
JOB1_HOSTS = [h for h in HOSTS if h != SPARE]
JOB2_HOSTS = [h for h in HOSTS if h != BAD_HOST]
IP = {h: f"10.42.3.{110 + i}" for i, h in enumerate(HOSTS, start=1)}

# H100 SXM bus ids on the HGX baseboard, and the eight ConnectX-7 400GbE rails
GPU_BUS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
NIC_BUS = ["1c", "2c", "3c", "5e", "9c", "ad", "bc", "dd"]
NICS = [f"enp{int(b, 16)}s0np0" for b in NIC_BUS]
BAD_NIC = "enp156s0np0"  # 0000:9c:00.0, mlx5_4
DRIVER = "550.90.07"
MODEL = "NVIDIA H100 80GB HBM3"
KERNEL_REL = "5.15.0-105-generic"
KERNEL_VER = "#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024"
NIC_FW = "28.39.2048 (MT_0000000838)"

# Hosts booted between Apr 28 and May 2 (uptime ~ 11-15 days at the window)
BOOT = {h: ts("2025-04-28T06:00:00") + float(RNG.uniform(0, 4.3 * 86400)) for h in HOSTS}
BOOT2_BAD = KERNEL_UP

# --------------------------------------------------------------------------- the job's pace
TOK_PER_STEP_GPU = 2 * 8192           # local batch 2 x seq 8192
FLOPS_PER_TOKEN = 5.7912e10           # torchtitan's figure for llama3 8B at seq 8192
PEAK = 989e12
BASE_TPS = 6760.0                      # tokens/s/GPU on this fabric when healthy


def ou(n: int, dtau: float, tau: float, sigma: float, rng) -> np.ndarray:
    """Ornstein-Uhlenbeck noise sampled every dtau seconds."""
    a = math.exp(-dtau / tau)
    out = np.empty(n)
    x = 0.0
    e = rng.normal(0, sigma * math.sqrt(1 - a * a), n)
    for i in range(n):
        x = a * x + e[i]
        out[i] = x
    return out


# storm severity on a 1-s grid: fraction of pace lost while the job runs through it
GRID0 = ts("2025-05-13T04:55:00")
GRID1 = ts("2025-05-13T11:50:00")
GRID_T = np.arange(GRID0, GRID1, 1.0)
_storm_loss = np.clip(0.148 + ou(len(GRID_T), 1.0, 240.0, 0.016, RNG), 0.105, 0.195)
_ramp = np.clip((GRID_T - STORM_ON) / 12.0, 0, 1)
_in_storm = (GRID_T >= STORM_ON) & (GRID_T < REQUEUE)
STORM_LOSS = np.where(_in_storm, _storm_loss * _ramp, 0.0)
# the healthy pace wanders by ~1% over tens of minutes
PACE_WANDER = ou(len(GRID_T), 1.0, 900.0, 0.006, RNG)


def thr_at(t):
    """Relative job pace (1 = healthy) at time(s) t."""
    i = np.clip(((np.asarray(t) - GRID0)).astype(int), 0, len(GRID_T) - 1)
    return (1.0 - STORM_LOSS[i]) * (1.0 + PACE_WANDER[i])


def storm_loss_at(t):
    i = np.clip(((np.asarray(t) - GRID0)).astype(int), 0, len(GRID_T) - 1)
    return STORM_LOSS[i]


def simulate_steps(first_step: int, t_start: float, t_stop: float, compile_s: float):
    """Return arrays (step, t_end) of completed optimizer steps."""
    steps, ends = [], []
    t = t_start
    s = first_step
    base = TOK_PER_STEP_GPU / BASE_TPS
    while True:
        d = base / float(thr_at(t)) * (1.0 + RNG.normal(0, 0.011))
        if s == first_step:
            d += compile_s
        elif s - first_step < 4:
            d += RNG.uniform(0.5, 2.0)
        if s % 500 == 0:                 # async checkpoint staging blocks the step
            d += RNG.uniform(5.8, 7.6)
        if s % 50 == 0:                  # periodic GC
            d += RNG.uniform(0.02, 0.08)
        if t + d > t_stop:
            break
        t += d
        steps.append(s)
        ends.append(t)
        s += 1
    return np.array(steps), np.array(ends)


JOB1_TRAIN_START = ts("2025-05-13T05:04:06.310")
STEPS1, ENDS1 = simulate_steps(14001, JOB1_TRAIN_START, REQUEUE, compile_s=58.0)
LAST_CKPT1 = int(STEPS1[STEPS1 % 500 == 0].max())
JOB2_TRAIN_START = ts("2025-05-13T10:04:27.880")
STEPS2, ENDS2 = simulate_steps(LAST_CKPT1 + 1, JOB2_TRAIN_START, LOG_COLLECTED, compile_s=61.0)


def job_state(host: str, t: np.ndarray) -> np.ndarray:
    """0 idle, 1 training, 2 initialising / compiling, 3 down (no scrape)."""
    st = np.zeros(len(t), dtype=np.int8)
    if host in JOB1_HOSTS:
        st[(t >= JOB1_TRAIN_START) & (t < REQUEUE)] = 1
    if host in JOB2_HOSTS:
        st[(t >= JOB_ALLOC2 + 22) & (t < JOB2_TRAIN_START + 64)] = 2
        st[(t >= JOB2_TRAIN_START + 64)] = 1
    if host == BAD_HOST:
        st[(t >= REBOOT) & (t < NODE_EXP_UP)] = 3
    return st


# --------------------------------------------------------------------------- scrape grids
def scrape_times(host: str, interval: float, salt: int) -> np.ndarray:
    r = np.random.default_rng(SEED + salt + HOSTS.index(host))
    phase = r.uniform(0, interval)
    n = int((W1 - W0) // interval) + 1
    t = W0 + phase + np.arange(n) * interval + r.normal(0, 0.004, n)
    t = t[(t >= W0) & (t <= W1)]
    return np.round(t, 3)


def ema(x: np.ndarray, alpha: float) -> np.ndarray:
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc = alpha * v + (1 - alpha) * acc
        y[i] = acc
    return y


# --------------------------------------------------------------------------- dcgm-exporter
def gpu_uuid(host: str, g: int) -> str:
    r = np.random.default_rng(int(hashlib.sha256(f"{SEED}/{host}/{g}".encode()).hexdigest()[:8], 16))
    hx = "".join(r.choice(list("0123456789abcdef"), 32))
    return f"GPU-{hx[:8]}-{hx[8:12]}-{hx[12:16]}-{hx[16:20]}-{hx[20:32]}"


def build_dcgm() -> pa.Table:
    cols = {k: [] for k in ["timestamp", "metric", "value", "gpu", "UUID", "pci_bus_id", "device",
                            "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION", "instance", "job"]}
    rows_t, rows_m, rows_v, rows_lab = [], [], [], []
    for h in HOSTS:
        t = scrape_times(h, 30.0, 1000)
        st = job_state(h, t)
        if h == BAD_HOST:
            keep = ~((t >= REBOOT) & (t < DCGM_UP))
            t, st = t[keep], st[keep]
        n = len(t)
        t_up = scrape_times(h, 30.0, 1000)
        up_v = np.where((h == BAD_HOST) & (t_up >= REBOOT) & (t_up < DCGM_UP), 0.0, 1.0)
        rows_t.append(t_up)
        rows_m.append(np.full(len(t_up), "up", dtype=object))
        rows_v.append(up_v)
        rows_lab.append(((None, None, None, None, None, None, None, f"{IP[h]}:9400", "dcgm-exporter"), len(t_up)))
        thr = thr_at(t)
        host_inlet = RNG.normal(0, 1.6)
        for g in range(8):
            uuid = gpu_uuid(h, g)
            lab = (str(g), uuid, f"00000000:{GPU_BUS[g].upper()}:00.0", f"nvidia{g}", MODEL, h,
                   DRIVER, f"{IP[h]}:9400", "dcgm-exporter")
            p_off = RNG.normal(0, 16)
            t_off = RNG.normal(0, 2.6) + host_inlet
            ta_off = RNG.normal(0, 0.009)
            busy = st == 1
            init = st == 2
            idle = st == 0
            # intensity of work: the compute share of each step shrinks in the storm
            inten = np.where(busy, 0.30 + 0.70 * thr, 0.0)
            inten = np.where(init, RNG.uniform(0.0, 0.55, n), inten)
            util = np.where(busy, np.clip(100 - RNG.poisson(0.35, n), 96, 100),
                            np.where(init, np.round(RNG.uniform(0, 85, n)), 0)).astype(float)
            power = np.where(busy, 96 + (612 + p_off - 96) * inten + RNG.normal(0, 21, n),
                             np.where(init, 110 + 260 * inten + RNG.normal(0, 12, n),
                                      71.5 + RNG.normal(0, 1.3, n)))
            power = np.clip(power, 62, 699.4)
            load = np.where(busy | init, inten, 0.0)
            temp_target = 31.0 + t_off * 0.5 + (29.0 + t_off) * load / 0.99
            temp = np.round(ema(temp_target, 0.35) + RNG.normal(0, 0.45, n))
            mtemp = np.round(ema(temp_target + 4.0 + 3.0 * load + RNG.normal(0, 0.3), 0.3) + RNG.normal(0, 0.5, n))
            sm = np.where(busy, np.where(RNG.random(n) < 0.06, RNG.choice([1950, 1965, 1935], n), 1980),
                          np.where(init, RNG.choice([1980, 1755, 1410, 345], n), 345)).astype(float)
            memclk = np.full(n, 2619.0)
            fb_used = np.where(busy, 60917 + RNG.integers(-260, 260) + RNG.integers(-6, 6, n),
                               np.where(init, np.round(RNG.uniform(700, 52000, n)), 0)).astype(float)
            fb_res = 598.0
            fb_free = 81559 - fb_res - fb_used
            tensor = np.clip(np.where(busy, (0.474 + ta_off) * thr + RNG.normal(0, 0.012, n),
                                      np.where(init, 0.12 * inten, 0.0)), 0, 1)
            grengine = np.clip(np.where(busy, 0.962 - 0.05 * (1 - thr) + RNG.normal(0, 0.008, n),
                                        np.where(init, inten, 0.0)), 0, 1)
            dram = np.clip(np.where(busy, (0.371 + ta_off) * thr + RNG.normal(0, 0.011, n),
                                    np.where(init, 0.1 * inten, 0.0)), 0, 1)
            pcie = np.where(busy, 1.27e10 * thr * (1 + RNG.normal(0, 0.04, n)),
                            np.where(init, RNG.uniform(1e8, 6e9, n), RNG.uniform(2.0e5, 6.0e5, n)))
            pcie_rx = pcie * RNG.uniform(0.97, 1.03, n)
            copy = np.where(busy, np.clip(34 * thr + RNG.normal(0, 2.0, n), 0, 100),
                            np.where(init, RNG.uniform(0, 20, n), 0)).round()
            # energy counter (mJ since the driver loaded)
            boot = BOOT[h]
            e0 = (t[0] - boot) * 1000.0 * RNG.uniform(300, 420)
            dtv = np.diff(t, prepend=t[0] - 30.0)
            energy = e0 + np.cumsum(power * dtv * 1000.0)
            if h == BAD_HOST:
                after = t >= DCGM_UP
                if after.any():
                    e_after = (t[after][0] - BOOT2_BAD) * 1000.0 * 75.0
                    energy[after] = e_after + np.cumsum(np.r_[0.0, power[after][1:] * np.diff(t[after]) * 1000.0])
            replay = np.full(n, float(RNG.choice([0, 0, 0, 0, 0, 0, 1, 3])))
            if h == BAD_HOST:
                replay[t >= DCGM_UP] = 0.0
            xid = np.zeros(n)
            series = {
                "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": memclk,
                "DCGM_FI_DEV_MEMORY_TEMP": mtemp, "DCGM_FI_DEV_GPU_TEMP": temp,
                "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3),
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.round(energy),
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
                "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_MEM_COPY_UTIL": copy,
                "DCGM_FI_DEV_XID_ERRORS": xid,
                "DCGM_FI_DEV_FB_FREE": fb_free, "DCGM_FI_DEV_FB_USED": fb_used,
                "DCGM_FI_DEV_FB_RESERVED": np.full(n, fb_res),
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(grengine, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tensor, 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(pcie),
                "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(pcie_rx),
            }
            for m, v in series.items():
                rows_t.append(t)
                rows_m.append(np.full(n, m, dtype=object))
                rows_v.append(v.astype(float))
                rows_lab.append((lab, n))
    tcat = np.concatenate(rows_t)
    mcat = np.concatenate(rows_m)
    vcat = np.concatenate(rows_v)
    labs = {k: [] for k in ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname",
                            "DCGM_FI_DRIVER_VERSION", "instance", "job"]}
    for lab, n in rows_lab:
        for k, v in zip(labs, lab):
            labs[k].append(np.full(n, v, dtype=object))
    order = np.argsort(tcat, kind="stable")   # a dump in scrape order, all metrics mixed
    table = pa.table({
        "timestamp": pa.array((tcat[order] * 1000).round().astype("int64"), type=pa.timestamp("ms", tz="UTC")),
        "metric": pa.array(mcat[order].tolist(), type=pa.string()),
        "value": pa.array(vcat[order], type=pa.float64()),
        **{k: pa.array(np.concatenate(v)[order].tolist(), type=pa.string()) for k, v in labs.items()},
    })
    return table


# --------------------------------------------------------------------------- node_exporter
def build_node() -> pa.Table:
    label_names = ["instance", "job", "device", "bus_info", "driver", "expansion_rom_version",
                   "firmware_version", "version", "domainname", "machine", "nodename", "release",
                   "sysname"]
    chunks = []  # (t, metric, value, labels dict)

    def add(t, metric, v, **labels):
        chunks.append((t, metric, np.asarray(v, dtype=float), labels))

    for h in HOSTS:
        t_all = scrape_times(h, 15.0, 2000)
        st_all = job_state(h, t_all)
        inst = f"{IP[h]}:9100"
        up = np.where(st_all == 3, 0.0, 1.0)
        add(t_all, "up", up, instance=inst, job="node")
        ok = st_all != 3
        t, st = t_all[ok], st_all[ok]
        n = len(t)
        rebooted = (h == BAD_HOST) & (t >= KERNEL_UP)
        boot = np.where(rebooted, BOOT2_BAD, BOOT[h])
        add(t, "node_boot_time_seconds", np.round(boot, 0), instance=inst, job="node")
        add(t, "node_uname_info", np.ones(n), instance=inst, job="node", domainname="(none)",
            machine="x86_64", nodename=h, release=KERNEL_REL, sysname="Linux", version=KERNEL_VER)
        busy = st == 1
        init = st == 2
        load1 = np.where(busy, 14.5 + RNG.normal(0, 2.2, n), np.where(init, 9 + RNG.normal(0, 3, n),
                                                                      0.35 + np.abs(RNG.normal(0, 0.25, n))))
        load1 = ema(np.clip(load1, 0.02, None), 0.25)
        add(t, "node_load1", np.round(load1, 2), instance=inst, job="node")
        thr = thr_at(t)
        sl = storm_loss_at(t)
        dtv = np.diff(t, prepend=t[0] - 15.0)
        uptime0 = t[0] - BOOT[h]
        # bond0: storage / management traffic (dataloader, checkpoint writes)
        for m, rate_busy, rate_idle in [("node_network_receive_bytes_total", 4.1e7, 2.0e5),
                                        ("node_network_transmit_bytes_total", 3.6e6, 6.0e4)]:
            rate = np.where(busy, rate_busy * (1 + RNG.normal(0, 0.25, n)).clip(0.2),
                            np.where(init, rate_busy * 6, rate_idle))
            c = uptime0 * rate_busy * 0.6 + np.cumsum(rate * dtv)
            c = np.where(rebooted, np.cumsum(np.where(rebooted, rate * dtv, 0)) + 3.1e6, c)
            add(t, m, np.round(c), instance=inst, job="node", device="bond0")
        for k, nic in enumerate(NICS):
            bus = f"0000:{NIC_BUS[k]}:00.0"
            add(t, "node_ethtool_info", np.ones(n), instance=inst, job="node", device=nic,
                bus_info=bus, driver="mlx5_core", expansion_rom_version="", firmware_version=NIC_FW,
                version=KERNEL_REL)
            nic_fac = RNG.normal(1.0, 0.03)
            is_bad = (h == BAD_HOST) and (nic == BAD_NIC)
            # RDMA payload (GPUDirect) -- scales with the job's pace
            rdma = np.where(busy, 1.31e10 * nic_fac * thr * (1 + RNG.normal(0, 0.035, n)),
                            np.where(init, RNG.uniform(0, 2e8, n), RNG.uniform(0, 2e3, n)))
            for m, f in [("node_ethtool_received_vport_rdma_unicast_bytes", 1.0),
                         ("node_ethtool_transmitted_vport_rdma_unicast_bytes", 1.002)]:
                rate = rdma * f
                c0 = uptime0 * 5.3e9 * nic_fac * RNG.uniform(0.8, 1.2)
                c = c0 + np.cumsum(rate * dtv)
                if h == BAD_HOST:
                    c = np.where(rebooted, np.cumsum(np.where(rebooted, rate * dtv, 0)), c)
                add(t, m, np.round(c), instance=inst, job="node", device=nic)
            # kernel (TCP) traffic on the RoCE netdev: NCCL bootstrap, sshd, small
            for m, base in [("node_network_receive_bytes_total", 3.1e5), ("node_network_transmit_bytes_total", 2.7e5)]:
                rate = np.where(busy | init, base * (1 + np.abs(RNG.normal(0, 0.5, n))), base * 0.05)
                c = uptime0 * base * 0.7 + np.cumsum(rate * dtv)
                if h == BAD_HOST:
                    c = np.where(rebooted, np.cumsum(np.where(rebooted, rate * dtv, 0)) + 4.4e4, c)
                add(t, m, np.round(c), instance=inst, job="node", device=nic)
            # PFC priority 3 (RoCE lossless class)
            tx_base = RNG.uniform(35, 220)
            rx_base = RNG.uniform(140, 520)
            burst = RNG.gamma(2.0, 0.5, n)
            tx_rate = np.where(busy, tx_base * burst * (1 + 0.9 * sl / 0.15), tx_base * 0.01 * burst)
            rx_rate = np.where(busy, rx_base * RNG.gamma(2.0, 0.5, n) + sl / 0.15 * RNG.uniform(3200, 5600, n),
                               rx_base * 0.01)
            txd_rate = tx_rate * RNG.uniform(2.2, 3.4, n)
            rxd_rate = np.where(busy, rx_rate * RNG.uniform(2.4, 3.6, n) + sl / 0.15 * RNG.uniform(8.0e4, 1.4e5, n),
                                rx_rate * 2.8)
            storm_flag = np.zeros(n, dtype=bool)
            if is_bad:
                storm_flag = (t >= STORM_ON) & (t < REBOOT)
                ramp = np.clip((t - STORM_ON) / 8.0, 0, 1)
                tx_rate = np.where(storm_flag, ramp * RNG.normal(23900, 420, n), tx_rate)
                txd_rate = np.where(storm_flag, ramp * np.clip(RNG.normal(936000, 14000, n), 0, 999000), txd_rate)
            disc_rate = np.where(storm_flag, RNG.gamma(1.5, 1.2, n), 0.0)
            warn_rate = np.where(storm_flag, 1 / 95.0, 0.0)
            c0s = uptime0 / 86400.0
            series = [
                ("node_ethtool_transmitted_prio3_pause", tx_rate, c0s * tx_base * 3.6e4),
                ("node_ethtool_received_prio3_pause", rx_rate, c0s * rx_base * 3.6e4),
                ("node_ethtool_transmitted_prio3_pause_duration", txd_rate, c0s * tx_base * 1.0e5),
                ("node_ethtool_received_prio3_pause_duration", rxd_rate, c0s * rx_base * 1.1e5),
            ]
            for m, rate, c0 in series:
                inc = rate * dtv
                c = np.round(c0) + np.floor(np.cumsum(inc))
                if h == BAD_HOST:
                    c = np.where(rebooted, np.floor(np.cumsum(np.where(rebooted, inc, 0))), c)
                add(t, m, c, instance=inst, job="node", device=nic)
                if m.endswith("prio3_pause"):
                    # the global pause counters count every pause frame of the port (PFC here)
                    glob = m.replace("prio3_pause", "pause_ctrl_phy")
                    add(t, glob, c, instance=inst, job="node", device=nic)
            # storm-prevention counters and drops
            warn = np.floor(np.cumsum(np.where(storm_flag, RNG.poisson(15 / 95.0, n), 0)))
            if h == BAD_HOST and is_bad:
                warn = np.where(rebooted, 0.0, warn)
            add(t, "node_ethtool_transmitted_pause_storm_warning_events", warn, instance=inst, job="node", device=nic)
            add(t, "node_ethtool_transmitted_pause_storm_error_events", np.zeros(n), instance=inst, job="node", device=nic)
            disc = np.floor(np.cumsum(disc_rate * dtv)) + (0 if not is_bad else 0)
            if h == BAD_HOST:
                disc = np.where(rebooted, 0.0, disc)
            add(t, "node_ethtool_received_discards_phy", disc, instance=inst, job="node", device=nic)
            add(t, "node_ethtool_transmitted_discards_phy", np.zeros(n), instance=inst, job="node", device=nic)

    # assemble, one series after the other (the order a per-series export gives)
    ts_l, m_l, v_l = [], [], []
    lab_l = {k: [] for k in label_names}
    for t, m, v, labels in chunks:
        n = len(t)
        ts_l.append(t)
        m_l.append(np.full(n, m, dtype=object))
        v_l.append(v)
        for k in label_names:
            lab_l[k].append(np.full(n, labels.get(k), dtype=object))
    table = pa.table({
        "timestamp": pa.array((np.concatenate(ts_l) * 1000).round().astype("int64"), type=pa.timestamp("ms", tz="UTC")),
        "metric": pa.array(np.concatenate(m_l).tolist(), type=pa.string()),
        "value": pa.array(np.concatenate(v_l), type=pa.float64()),
        **{k: pa.array(np.concatenate(v).tolist(), type=pa.string()) for k, v in lab_l.items()},
    })
    return table


# --------------------------------------------------------------------------- trainer log
def tstamp_titan(t: float) -> str:
    d = utc(t)
    return d.strftime("%Y-%m-%d %H:%M:%S,") + f"{d.microsecond // 1000:03d}"


def glog_stamp(t: float, pid: int, src: str) -> str:
    d = utc(t)
    return f"W{d.strftime('%m%d %H:%M:%S')}.{(d.microsecond // 1000) * 1000:06d} {pid} {src}]"


def build_trainer_log() -> str:
    lines: list[tuple[float, str]] = []
    rank_of = {h: 8 * i for i, h in enumerate(JOB1_HOSTS)}
    pids = {h: int(RNG.integers(30000, 90000)) for h in HOSTS}

    def rank_lines(t0: float, hosts, ranks, msg_fn, jitter=0.004):
        for h in hosts:
            r = ranks[h]
            tt = t0 + abs(RNG.normal(0, jitter))
            lines.append((tt, f"[rank{r}]:[titan] {tstamp_titan(tt)} - root - INFO - {msg_fn(h, r)}"))

    def launch(t_alloc: float, hosts, ranks, ckpt_step: int | None, train_start: float, job_idx: int):
        cmd_t = t_alloc + 1.2
        lines.append((cmd_t, "+ srun --kill-on-bad-exit=1 --cpu-bind=none torchrun --nnodes 24 --nproc_per_node 8 "
                             f"--rdzv_id 731944 --rdzv_backend c10d --rdzv_endpoint {hosts[0]}:29500 "
                             "--local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train "
                             "--job.config_file /shared/llm/configs/llama3_8b_c3.toml"))
        for h in hosts:
            pid = pids[h] + 1000 * job_idx
            tt = t_alloc + 14.0 + RNG.uniform(0, 2.5)
            src = "torch/distributed/run.py:793"
            lines.append((tt, glog_stamp(tt, pid, src) + " "))
            lines.append((tt + 1e-6, glog_stamp(tt, pid, src) + " *****************************************"))
            lines.append((tt + 2e-6, glog_stamp(tt, pid, src) + " Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
            lines.append((tt + 3e-6, glog_stamp(tt, pid, src) + " *****************************************"))
        t = t_alloc + 31.0
        rank_lines(t, hosts, ranks, lambda h, r: "Starting job: Llama 3 8B training")
        t += 1.9
        rank_lines(t, hosts, ranks, lambda h, r: "Building 1-D device mesh with ['dp_shard'], [192]")
        rank_lines(t + 0.01, hosts, ranks, lambda h, r: "[GC] Initial GC collection 0.00 seconds")
        t += 2.3
        rank_lines(t, hosts, ranks, lambda h, r: "Preparing c4 dataset from allenai/c4")
        t += 9.5
        rank_lines(t, hosts, ranks, lambda h, r: (
            "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields "
            "have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, "
            "multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, "
            "depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"))
        rank_lines(t + 0.4, hosts, ranks, lambda h, r: "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory")
        rank_lines(t + 0.6, hosts, ranks, lambda h, r: "Model llama3 8B size: 8,030,261,248 total parameters")
        rank_lines(t + 0.7, hosts, ranks, lambda h, r: "Applied selective activation checkpointing to the model")
        rank_lines(t + 1.4, hosts, ranks, lambda h, r: "Compiling each TransformerBlock with torch.compile")
        rank_lines(t + 1.6, hosts, ranks, lambda h, r: "Applied FSDP to the model")
        rank_lines(t + 4.2, hosts, ranks, lambda h, r: "Peak FLOPS used for computing MFU: 9.890e+14")
        rank_lines(t + 4.2, hosts, ranks, lambda h, r: f"CUDA memory usage for model: 3.79GiB(4.79%)")
        rank_lines(t + 4.9, hosts, ranks, lambda h, r: "Checkpointing active. Checkpoints will be loaded from and saved to ./outputs/checkpoint")
        rank_lines(t + 5.0, hosts, ranks, lambda h, r: (
            "Trainer is initialized with local batch size 2, global batch size 384, gradient accumulation "
            "steps 1, sequence length 8192, total steps 60000 (warmup 2000)."))
        if ckpt_step is not None:
            tl = train_start - RNG.uniform(39, 44)
            rank_lines(tl, hosts, ranks, lambda h, r: f"Loading the checkpoint from ./outputs/checkpoint/step-{ckpt_step}.")
            rank_lines(train_start - 0.6, hosts, ranks,
                       lambda h, r: f"Finished loading the checkpoint in {train_start - 0.6 - tl:.2f} seconds.")
            rank_lines(train_start - 0.5, hosts, ranks, lambda h, r: f"Training starts at step {ckpt_step + 1}.")

    def steps_log(steps, ends, hosts, ranks, train_start):
        loss_state = {"l": 2.318 - (steps[0] - 14000) * 1.1e-5}
        gn_base = 0.27
        idx = np.where((steps % 10 == 0))[0]
        t_last_log = train_start
        s_last_log = int(steps[0]) - 1
        for j in idx:
            s = int(steps[j])
            t_end = float(ends[j])
            t_prev = t_last_log
            nsteps = s - s_last_log
            t_last_log, s_last_log = t_end, s
            loss = 2.318 - (s - 14000) * 1.05e-5 + RNG.normal(0, 0.021)
            gnorm = gn_base * RNG.lognormal(0, 0.13)
            if RNG.random() < 0.02:
                gnorm *= RNG.uniform(1.6, 2.4)
            for h in hosts:
                r = ranks[h]
                tt = t_end + abs(RNG.normal(0.004, 0.003))
                dur = (t_end - t_prev) * (1 + RNG.normal(0, 0.0012))
                tps = nsteps * TOK_PER_STEP_GPU / dur
                tfl = tps * FLOPS_PER_TOKEN / 1e12
                mfu = 100 * tfl * 1e12 / PEAK
                mem = 58.37 + (r % 11) * 0.013
                lines.append((tt, f"[rank{r}]:[titan] {tstamp_titan(tt)} - root - INFO - step: {s:2}  "
                                  f"loss: {loss:7.4f}  grad_norm: {gnorm:7.4f}  memory: {mem:5.2f}GiB"
                                  f"({100 * mem / 79.11:.2f}%)  tps: {round(tps):,}  tflops: {tfl:,.2f}  mfu: {mfu:.2f}%"))
        for j, s in enumerate(steps):
            s = int(s)
            if s % 50 == 0:
                rank_lines(float(ends[j]) + 0.05, hosts, ranks,
                           lambda h, r: f"[GC] Performing periodical GC collection {RNG.uniform(0.02, 0.07):.2f} seconds")
            if s % 500 == 0:
                t_s = float(ends[j]) - 6.9
                rank_lines(t_s, hosts, ranks, lambda h, r: "Saving the checkpoint (or staging if async is enabled).")
                rank_lines(float(ends[j]) - 0.2, hosts, ranks,
                           lambda h, r: f"Finished saving the checkpoint (or staging if async is enabled)in {RNG.uniform(6.2, 6.9):.2f} seconds.")

    # job 731944, first run (resumed from the previous job's step-14000)
    launch(JOB_ALLOC1, JOB1_HOSTS, rank_of, 14000, JOB1_TRAIN_START, 0)
    steps_log(STEPS1, ENDS1, JOB1_HOSTS, rank_of, JOB1_TRAIN_START)

    # requeue: SIGTERM to every torchrun agent
    for h in JOB1_HOSTS:
        pid = pids[h]
        tt = REQUEUE + 0.35 + RNG.uniform(0, 0.2)
        lines.append((tt, glog_stamp(tt, pid, "torch/distributed/elastic/agent/server/api.py:719") +
                      " Received Signals.SIGTERM death signal, shutting down workers"))
        for k in range(8):
            t2 = tt + 0.001 + 0.0005 * k
            lines.append((t2, glog_stamp(t2, pid, "torch/distributed/elastic/multiprocessing/api.py:897") +
                          f" Sending process {pid + 79 + k} closing signal SIGTERM"))
        t3 = tt + RNG.uniform(2.0, 4.5)
        tb = [
            "Traceback (most recent call last):",
            '  File "/opt/venv/bin/torchrun", line 8, in <module>',
            "    sys.exit(main())",
            "             ^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper',
            "    return f(*args, **kwargs)",
            "           ^^^^^^^^^^^^^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/run.py", line 919, in main',
            "    run(args)",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/run.py", line 910, in run',
            "    elastic_launch(",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 138, in __call__',
            "    return launch_agent(self._config, self._entrypoint, list(args))",
            "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 260, in launch_agent',
            "    result = agent.run()",
            "             ^^^^^^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/metrics/api.py", line 137, in wrapper',
            "    result = f(*args, **kwargs)",
            "             ^^^^^^^^^^^^^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/agent/server/api.py", line 711, in run',
            "    result = self._invoke_run(role)",
            "             ^^^^^^^^^^^^^^^^^^^^^^",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/agent/server/api.py", line 870, in _invoke_run',
            "    time.sleep(monitor_interval)",
            '  File "/opt/venv/lib/python3.11/site-packages/torch/distributed/elastic/multiprocessing/api.py", line 84, in _terminate_process_handler',
            '    raise SignalException(f"Process {os.getpid()} got signal: {sigval}", sigval=sigval)',
            f"torch.distributed.elastic.multiprocessing.api.SignalException: Process {pid} got signal: 15",
        ]
        for k, ln in enumerate(tb):
            lines.append((t3 + 1e-6 * k, ln))
    lines.append((REQUEUE + 0.21, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
    lines.append((REQUEUE + 0.22, f"slurmstepd: error: *** STEP 731944.0 ON gpu-c3-01 CANCELLED AT {utc(REQUEUE).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO JOB REQUEUE ***"))
    lines.append((REQUEUE + 0.23, f"slurmstepd: error: *** JOB 731944 ON gpu-c3-01 CANCELLED AT {utc(REQUEUE).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO JOB REQUEUE ***"))

    # requeued run (same JobId, output appended), gpu-c3-14 replaced by the spare gpu-c3-25
    rank2 = {h: 8 * i for i, h in enumerate(JOB2_HOSTS)}
    launch(JOB_ALLOC2, JOB2_HOSTS, rank2, LAST_CKPT1, JOB2_TRAIN_START, 1)
    steps_log(STEPS2, ENDS2, JOB2_HOSTS, rank2, JOB2_TRAIN_START)

    lines = [x for x in lines if x[0] <= LOG_COLLECTED]
    lines.sort(key=lambda x: x[0])
    return "\n".join(s for _, s in lines) + "\n"


# --------------------------------------------------------------------------- kernel logs
def syslog_prefix(t: float, host: str) -> str:
    d = utc(t)
    return f"{d.strftime('%b')} {d.day:2d} {d.strftime('%H:%M:%S')} {host} kernel: "


def kstamp(t: float, boot: float) -> str:
    return f"[{t - boot:12.6f}]"


# Real kernel lines (leptonai/gpud testdata, see truth.yaml) used as benign background
PERF_LINES = [
    "perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
    "perf: interrupt took too long (3141 > 3136), lowering kernel.perf_event_max_sample_rate to 63500",
    "perf: interrupt took too long (7156 > 3926), lowering kernel.perf_event_max_sample_rate to 27750",
]
PEERMEM = "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"


def boot_lines(host: str) -> list[tuple[float, str]]:
    """Kernel messages of gpu-c3-14's reboot as rsyslog writes them from the ring buffer."""
    out = []
    seq = [
        (0.000000, f"Linux version {KERNEL_REL} (buildd@lcy02-amd64-007) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) {KERNEL_VER} (Ubuntu 5.15.0-105.115-generic 5.15.149)"),
        (0.000000, f"Command line: BOOT_IMAGE=/vmlinuz-{KERNEL_REL} root=UUID=4e1c7b0a-61f6-4f4c-9c36-7f4d2b0e2c11 ro iommu=pt pci=realloc=off amd_iommu=on console=tty0 console=ttyS1,115200n8"),
        (0.000000, "KERNEL supported cpus:"),
        (0.000000, "  Intel GenuineIntel"),
        (0.000000, "  AMD AuthenticAMD"),
        (0.000000, "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'"),
        (0.000000, "BIOS-provided physical RAM map:"),
        (0.000000, "DMI: Supermicro AS -8125GS-TNHR/H13DSG-O-CPU, BIOS 1.7 02/14/2024"),
        (0.000000, "tsc: Fast TSC calibration using PIT"),
        (0.021544, "ACPI: Early table checksum verification disabled"),
        (0.214733, "smpboot: Allowing 192 CPUs, 0 hotplug CPUs"),
        (1.102331, "smpboot: CPU0: AMD EPYC 9454 48-Core Processor (family: 0x19, model: 0x11, stepping: 0x1)"),
        (2.608284, "mlx5_core 0000:1c:00.0: firmware version: 28.39.2048"),
        (2.608300, "mlx5_core 0000:1c:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)"),
        (11.109698, "ast 0000:c2:00.0: [drm] P2A bridge disabled, using default configuration"),
        (11.109703, "ast 0000:c2:00.0: [drm] AST 2600 detected"),
        (11.109984, "[drm] Initialized ast 0.1.0 20120228 for 0000:c2:00.0 on minor 0"),
        (12.784254, "Btrfs loaded, crc32c=crc32c-intel, zoned=yes, fsverity=yes"),
        (12.833946, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
        (13.273811, "EXT4-fs (nvme0n1p2): re-mounted. Opts: (null). Quota mode: none."),
        (13.279315, "RPC: Registered named UNIX socket transport module."),
        (13.279859, "RPC: Registered udp transport module."),
        (13.280696, "RPC: Registered tcp transport module."),
        (13.281331, "RPC: Registered tcp NFSv4.1 backchannel transport module."),
        (13.586779, "IPMI message handler: version 39.2"),
        (13.588369, "ipmi device interface"),
        (13.591311, "ipmi_si: IPMI System Interface driver"),
        (13.826897, "RAPL PMU: API unit is 2^-32 Joules, 1 fixed counters, 163840 ms ovfl timer"),
        (13.863865, "MCE: In-kernel MCE decoding enabled."),
        (13.868078, "EDAC amd64: MCT channel count: 12"),
        (13.868254, "EDAC amd64: F19h_M10h detected (node 0)."),
        (13.868664, "AMD64 EDAC driver v3.5.0"),
        (14.109256, "ipmi_si IPI0001:00: IPMI kcs interface initialized"),
        (14.110869, "ipmi_ssif: IPMI SSIF Interface driver"),
    ]
    kt = 15.2
    for k, b in enumerate(NIC_BUS):
        seq.append((kt, f"mlx5_core 0000:{b}:00.0: firmware version: 28.39.2048"))
        seq.append((kt + 0.0001, f"mlx5_core 0000:{b}:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)"))
        seq.append((kt + 0.35, f"mlx5_core 0000:{b}:00.0: E-Switch: Total vports 2, per vport: max uc(128) max mc(2048)"))
        seq.append((kt + 0.36, f"mlx5_core 0000:{b}:00.0: Port module event: module 0, Cable plugged"))
        seq.append((kt + 0.42, f"mlx5_core 0000:{b}:00.0: MLX5E: StrdRq(1) RqSz(8) StrdSz(2048) RxCqeCmprss(0 basic)"))
        kt += 0.61
    for k, nic in enumerate(NICS):
        seq.append((kt + 0.01 * k, f"mlx5_core 0000:{NIC_BUS[k]}:00.0 {nic}: renamed from eth{k}"))
    kt += 0.4
    seq += [
        (kt + 0.8, "nvidia: loading out-of-tree module taints kernel."),
        (kt + 0.8, "nvidia: module license 'NVIDIA' taints kernel."),
        (kt + 0.81, "Disabling lock debugging due to kernel taint"),
        (kt + 0.95, "nvidia-nvlink: Nvlink Core is being initialized, major device number 508"),
        (kt + 2.41, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Fri May 31 09:35:42 UTC 2024"),
        (kt + 2.61, f"nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {DRIVER}  Fri May 31 09:30:47 UTC 2024"),
    ]
    kt += 6.0
    for k, nic in enumerate(NICS):
        seq.append((kt + 0.03 * k, f"mlx5_core 0000:{NIC_BUS[k]}:00.0 {nic}: Link up"))
        seq.append((kt + 0.03 * k + 0.004, f"IPv6: ADDRCONF(NETDEV_CHANGE): {nic}: link becomes ready"))
    for k in range(4):
        seq.append((kt + 9.0 + 0.1 * k, f"nvidia-nvswitch{k}: open (major=510)"))
    rsyslog_start = KERNEL_UP + 21.4
    for off, msg in seq:
        out.append((rsyslog_start, syslog_prefix(rsyslog_start, host) + kstamp(KERNEL_UP + off, KERNEL_UP)[0:] + " " + msg))
    return out


def build_kern_logs() -> dict[str, str]:
    logs = {}
    start = ts("2025-05-11T00:00:00")  # weekly rotation
    for h in HOSTS:
        r = np.random.default_rng(SEED + 77 + HOSTS.index(h))
        boot = BOOT[h]
        ev: list[tuple[float, str]] = []

        def k(t, msg, b=boot):
            ev.append((t, syslog_prefix(t, h) + kstamp(t, b) + " " + msg))

        # hourly DCGM health check opens the NVSwitches
        t = start + r.uniform(0, 3600)
        while t < LOG_COLLECTED:
            if not (h == BAD_HOST and REBOOT <= t < KERNEL_UP + 60):
                b = BOOT2_BAD if (h == BAD_HOST and t >= KERNEL_UP) else boot
                for s in range(4):
                    k(t + 0.094 * s + r.uniform(0, 0.03), f"nvidia-nvswitch{3 - s}: open (major=510)", b)
            t += 3600 + r.normal(0, 4)
        # an occasional perf sampling-rate message
        if r.random() < 0.22:
            nmsg = int(r.integers(1, 3))
            for j, tj in enumerate(sorted(r.uniform(start, LOG_COLLECTED - 3600, nmsg))):
                k(float(tj), PERF_LINES[j])
        # job exits: GPUDirect RDMA memory freed under the dying ranks
        if h in JOB1_HOSTS:
            t0 = REQUEUE + r.uniform(1.2, 3.8)
            for j in range(int(r.integers(3, 8))):
                k(t0 + 0.000011 * j, PEERMEM)
        if h == BAD_HOST:
            ev = [e for e in ev if not (REBOOT <= e[0] < KERNEL_UP + 21.4)]
            ev += boot_lines(h)
        ev.sort(key=lambda x: x[0])
        logs[h] = "\n".join(s for _, s in ev if s) + "\n"
    return logs


def build_slurmctld() -> str:
    r = np.random.default_rng(SEED + 5)
    ev = []

    def s(t, msg):
        d = utc(t)
        ev.append((t, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{d.microsecond // 1000:03d}] {msg}"))

    s(JOB_ALLOC1 - 0.2, "_slurm_rpc_submit_batch_job: JobId=731944 InitPrio=4294901387 usec=1184")
    s(JOB_ALLOC1, "sched: Allocate JobId=731944 NodeList=gpu-c3-[01-24] #CPUs=4608 Partition=h100")
    # background: CPU partition array jobs, data prep, evaluation jobs
    jid = 731950
    t = ts("2025-05-13T05:10:00") + r.uniform(0, 300)
    while t < LOG_COLLECTED:
        jid += int(r.integers(1, 9))
        part = r.choice(["cpu", "cpu", "cpu", "debug"])
        node = f"cpu-b{int(r.integers(1, 17)):02d}"
        ncpu = int(r.choice([4, 8, 16, 32, 64]))
        s(t, f"_slurm_rpc_submit_batch_job: JobId={jid} InitPrio={4294901000 + int(r.integers(0, 900))} usec={int(r.integers(300, 2500))}")
        s(t + r.uniform(0.2, 40), f"sched: Allocate JobId={jid} NodeList={node} #CPUs={ncpu} Partition={part}")
        dur = r.uniform(120, 5400)
        if t + dur < LOG_COLLECTED:
            code = 0 if r.random() < 0.9 else int(r.choice([1, 2, 137]))
            s(t + dur, f"_job_complete: JobId={jid} WEXITSTATUS {code}")
            s(t + dur, f"_job_complete: JobId={jid} done")
        t += r.exponential(420)
    s(DRAIN, "update_node: node gpu-c3-14 reason set to: NET-4471 pfc pause storm from enp156s0np0, drain+reboot")
    s(DRAIN, "update_node: node gpu-c3-14 state set to DRAINING")
    s(REQUEUE + 8.6, "cleanup_completing: JobId=731944 completion process took 9 seconds")
    s(JOB_ALLOC2, "sched: Allocate JobId=731944 NodeList=gpu-c3-[01-13,15-25] #CPUs=4608 Partition=h100")
    ev.sort(key=lambda x: x[0])
    return "\n".join(m for _, m in ev) + "\n"


# --------------------------------------------------------------------------- main
def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "metrics").mkdir(parents=True)
    (OUT / "logs").mkdir()

    dcgm = build_dcgm()
    pq.write_table(dcgm, OUT / "metrics" / "dcgm-exporter_2025-05-13.parquet", compression="zstd",
                   row_group_size=400_000)
    node = build_node()
    pq.write_table(node, OUT / "metrics" / "node-exporter_2025-05-13.parquet", compression="zstd")

    (OUT / "logs" / "slurm-731944.out").write_text(build_trainer_log())
    (OUT / "logs" / "slurmctld.log").write_text(build_slurmctld())
    for h, text in build_kern_logs().items():
        d = OUT / "logs" / h
        d.mkdir()
        (d / "kern.log").write_text(text)

    incident = {
        "id": INCIDENT_ID,
        "title": "c3 Llama-3 8B pretraining: throughput drop, node drained, job requeued",
        "window": {"start": "2025-05-13T07:30:00+00:00", "end": "2025-05-13T11:30:00+00:00"},
        "baseline": {"start": "2025-05-13T07:30:00+00:00", "end": "2025-05-13T08:45:00+00:00"},
        "cluster": {"name": "c3-h100-roce", "nodes": 24, "gpus_per_node": 8, "gpu_model": "H100"},
    }
    (OUT / "incident.yaml").write_text(yaml.safe_dump(incident, sort_keys=False))

    # measured throughput loss: mean pace in the storm vs the baseline, from the steps
    def mean_tps(a, b, steps, ends):
        m = (ends >= a) & (ends < b)
        d = np.diff(ends[m])
        return TOK_PER_STEP_GPU / np.median(d) if len(d) else float("nan")
    base = mean_tps(W0, BASE_END, STEPS1, ENDS1)
    storm = mean_tps(STORM_ON + 30, REQUEUE, STEPS1, ENDS1)
    after = mean_tps(JOB2_TRAIN_START + 300, W1, STEPS2, ENDS2)
    loss_pct = float(round(100 * (1 - storm / base), 1))
    truth = {
        "id": INCIDENT_ID,
        "cause": ("The ConnectX-7 NIC enp156s0np0 (0000:9c:00.0) of gpu-c3-14 stopped draining its receive "
                  "buffer after a firmware fault and transmitted PFC priority-3 pause frames continuously (a "
                  "pause storm), which backed up the RoCE ToR and slowed every host's RDMA collectives, so the "
                  "synchronous job ran ~15% slower until the host was drained."),
        "cause_metrics": [
            "node_ethtool_transmitted_prio3_pause",
            "node_ethtool_transmitted_pause_ctrl_phy",
            "node_ethtool_transmitted_prio3_pause_duration",
            "node_ethtool_transmitted_pause_storm_warning_events",
            "node_ethtool_received_prio3_pause",
            "node_ethtool_received_prio3_pause_duration",
            "node_ethtool_received_discards_phy",
        ],
        "cause_metrics_detail": (
            "On gpu-c3-14 device enp156s0np0 the transmitted priority-3 pause counter rises ~24,000 "
            "frames/s from 08:52:35 (other NICs: 35-220/s) and its pause duration ~0.94 s per second; "
            "every job host's received pause counters and pause duration rise at the same moment (the "
            "switch pausing them); RDMA byte counters, DCGM tensor-pipe activity and power fall ~15% on "
            "all hosts while GPU utilisation stays ~100% (NCCL kernels spin while they wait)."),
        "cause_log_evidence": [],
        "cause_log_evidence_note": (
            "No kernel line: mlx5 reports a pause storm only through ethtool counters "
            "(tx_pause_storm_warning_events / tx_pause_storm_error_events, Linux "
            "Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst); no public "
            "verbatim dmesg line for it was found, so none was written.  The only log trace is the "
            "operator's drain reason in slurmctld.log, written after the fact."),
        "hosts": [BAD_HOST],
        "gpu": None,
        "nic": {"host": BAD_HOST, "device": BAD_NIC, "pci": "0000:9c:00.0", "rdma_device": "mlx5_4"},
        "onset": utc(STORM_ON).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "end": utc(REQUEUE).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_throughput_loss_pct": loss_pct,
        "throughput_tokens_per_s_per_gpu": {"baseline": int(round(base)), "storm": int(round(storm)),
                                            "after_requeue": int(round(after))},
        "timeline": {
            "storm_onset": utc(STORM_ON).isoformat(),
            "node_drained": utc(DRAIN).isoformat(),
            "job_requeued": utc(REQUEUE).isoformat(),
            "job_restarted_on_spare": utc(JOB_ALLOC2).isoformat(),
            "training_resumed": utc(JOB2_TRAIN_START).isoformat(),
            "bad_host_rebooted": utc(REBOOT).isoformat(),
            "checkpoint_resumed_from_step": int(LAST_CKPT1),
        },
        "what_a_good_postmortem_says": (
            "From 08:52 UTC the NIC enp156s0np0 on gpu-c3-14 transmitted PFC pause frames continuously "
            "(tx_prio3_pause ~24k/s, paused ~94% of the time, storm-warning events counting), the switch "
            "propagated the back-pressure and every host saw received pauses rise while the synchronous "
            "job lost ~15% of its tokens/s for 66 minutes; GPUs, power and temperatures fell only as an "
            "effect. Draining gpu-c3-14 and requeueing onto the spare restored full speed (cost: the "
            "slowdown plus ~6 minutes of restart and the ~500 steps redone since the step-20500 checkpoint); the NIC "
            "firmware needs a fix and pause-storm counters need an alert (and NIC storm prevention / switch "
            "PFC watchdog should be enabled)."),
        "distractors": [
            "nvidia-peermem 'ERROR detected invalid context' lines on all 24 job hosts at 09:58:5x: "
            "GPUDirect RDMA memory freed as the ranks were killed by the requeue (effect, not cause).",
            "torchrun SignalException tracebacks and 'CANCELLED ... DUE TO JOB REQUEUE': the operator's requeue.",
            "gpu-c3-14 counters reset and a gap in its samples at 10:24-10:29: the remediation reboot.",
            "gpu-c3-25 idle until 10:02 then busy: the spare joining the job.",
            "periodic tps dips every 500 steps: async checkpoint staging.",
        ],
        "real_line_sources": [
            {"lines": PERF_LINES + ["nvidia-nvswitch0: open (major=510)"],
             "source": "leptonai/gpud pkg/kmsg/testdata/kmsg.1.log (commit 4a8de33a)", "role": "benign background"},
            {"lines": [PEERMEM], "source": "leptonai/gpud pkg/kmsg/testdata/kmsg.2.peermem.log (commit 4a8de33a)",
             "role": "benign, at job kill"},
            {"lines": ["boot-time kernel lines of gpu-c3-14 (EXT4, RPC, IPMI, RAPL, EDAC amd64, ast drm, mlx5 PCIe bandwidth/E-Switch/MLX5E)"],
             "source": "leptonai/gpud pkg/pstore/testdata/7530486857247/dmesg.txt (commit 4a8de33a), bus ids adapted",
             "role": "benign, remediation reboot"},
            {"lines": ["W... torch/distributed/elastic/agent/server/api.py:719] Received Signals.SIGTERM death signal, shutting down workers",
                       "W... torch/distributed/elastic/multiprocessing/api.py:... Sending process N closing signal SIGTERM"],
             "source": "format of torch.distributed.elastic as quoted in public logs (e.g. find_string hits for 'death signal, shutting down workers')",
             "role": "benign, requeue"},
            {"lines": ["slurmstepd: error: *** JOB 31182239 ON sh-06-34 CANCELLED AT 2018-11-05T10:35:06 DUE TO JOB REQUEUE ***"],
             "source": "Stanford Sherlock documentation (public), Slurm src/slurmd/slurmstepd/req.c format", "role": "benign, requeue"},
            {"lines": ["[rank0]:[titan] 2025-06-04 08:51:58,557 - root - INFO - step: 10  loss: 10.7069  memory: 30.99GiB(32.62%)  tps: 7,034  tflops: 407.35  mfu: 41.19%"],
             "source": "pytorch/torchtitan docs (tutorial output); step-line format from torchtitan/components/metrics.py (grad_norm field)",
             "role": "trainer format"},
        ],
    }
    (OUT / "truth.yaml").write_text(yaml.safe_dump(truth, sort_keys=False, width=110, allow_unicode=True))
    print(f"wrote {OUT}  loss={loss_pct}%  base={base:.0f} storm={storm:.0f} after={after:.0f}  "
          f"ckpt={LAST_CKPT1} steps1={STEPS1[0]}..{STEPS1[-1]} steps2={STEPS2[0]}..{STEPS2[-1]}")


if __name__ == "__main__":
    main()
