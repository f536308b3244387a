#!/usr/bin/env python3
"""Generate incident folder ll3-8b-2025-06-11 (fixed seed).

Story (ground truth, written to truth.yaml):
  A 24-node x 8 H100 torchtitan Llama-3-8B FSDP run (Slurm job 481516).
  At 02:44:30 UTC chassis fan FAN6 of h100-r08-n05 fails.  GPU 5 of that node
  (already the warmest GPU of the node) heats up, reaches its slowdown
  temperature at 02:49:10 and from then on runs in SW thermal slowdown with a
  lower SM clock.  The synchronous job waits for it at every step: the job's
  tokens/s drops ~4.8 % for every rank until the end of the window.
  No kernel line records a thermal slowdown (the driver does not log it).
  A benign Xid 63 (row remapping pending) on h100-r09-n02 GPU 3 at 01:37:52 is
  unrelated (no throughput change).

Output layout:
  ll3-8b-2025-06-11/incident.yaml
  ll3-8b-2025-06-11/truth.yaml
  ll3-8b-2025-06-11/metrics/{dcgm-exporter,node-exporter,ipmi-exporter,trainer}.parquet
  ll3-8b-2025-06-11/logs/slurm-481516.out            (srun + torchrun --tee 3, [rankN]: prefixes)
  ll3-8b-2025-06-11/logs/syslog/<host>.log           (rsyslog traditional format, /var/log/syslog)
"""
from __future__ import annotations

import datetime as dt
import math
import os
import shutil
import uuid
from pathlib import Path

import numpy as np
import polars as pl
import yaml

SEED = 20250611
RNG = np.random.default_rng(SEED)

INCIDENT_ID = "ll3-8b-2025-06-11"
OUT = Path(__file__).resolve().parent / INCIDENT_ID
UTC = dt.timezone.utc


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC)


WIN_START = T("2025-06-11T01:00:00")
WIN_END = T("2025-06-11T05:00:00")
EXPORT_START = T("2025-06-11T00:50:00")   # the export query had a margin
EXPORT_END = T("2025-06-11T05:10:00")
BASELINE_END = T("2025-06-11T02:00:00")

JOB_ID = 481516
SRUN_START = T("2025-06-11T00:31:52")
TRAIN_START = T("2025-06-11T00:34:06.412")   # first step after checkpoint load
FIRST_STEP = 12001
FAN_FAIL = T("2025-06-11T02:44:30")
XID63_AT = T("2025-06-11T01:37:52.118")

RACKS = ["r07", "r08", "r09"]
HOSTS = [f"h100-{r}-n{n:02d}" for r in RACKS for n in range(1, 9)]
NH = len(HOSTS)
GPN = 8
BAD_HOST = "h100-r08-n05"
BAD_GPU = 5
BAD_HI = HOSTS.index(BAD_HOST)
XID_HOST = "h100-r09-n02"
XID_GPU = 3
ONCALL_HOST_SSH = T("2025-06-11T04:21:07")

DRIVER = "550.127.08"
MODEL = "NVIDIA H100 80GB HBM3"
PCI_BUS = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]   # HGX H100 on a 2-socket SPR board
IB_DEVS = [f"mlx5_{i}" for i in range(8)]


def uuid_from_rng() -> str:
    b = RNG.integers(0, 256, 16, dtype=np.uint8).tobytes()
    return str(uuid.UUID(bytes=b))


GPU_UUID = {(h, g): "GPU-" + uuid_from_rng() for h in HOSTS for g in range(GPN)}

# ---------------------------------------------------------------- step timeline
SEQ = 8192
LOCAL_BS = 2
WORLD = NH * GPN
TOK_PER_STEP_RANK = SEQ * LOCAL_BS
FLOPS_PER_TOKEN = 5.4795e10          # torchtitan's 6N + 12*l*h*q*t for llama3 8B at seq 8192
PEAK = 9.89e14                       # torchtitan get_peak_flops for H100 SXM (bf16 dense)
BASE_STEP = 2.418                    # s
CKPT_EVERY = 500
LOG_FREQ = 10
GC_FREQ = 50


def slow_factor_fn(t: float) -> float:
    """Extra step time factor from the throttled GPU, t in epoch seconds."""
    t_on = THROTTLE_ON.timestamp()
    if t < t_on:
        return 1.0
    ramp = min(1.0, (t - t_on) / 130.0)
    return 1.0 + 0.0505 * ramp


# GPU 5 thermal model: T(t) = 74 + 19*(1-exp(-dt/243)) after the fan failure,
# slowdown once it reaches 87 C
TAU = 243.0
T0_BAD = 74.2
TINF = 93.5
_dt_on = -TAU * math.log(1 - (87.0 - T0_BAD) / (TINF - T0_BAD))
THROTTLE_ON = FAN_FAIL + dt.timedelta(seconds=round(_dt_on))


def simulate_steps():
    t = TRAIN_START.timestamp()
    step = FIRST_STEP - 1
    rows = []          # (step, t_end, dur, ckpt_after)
    end = EXPORT_END.timestamp() + 120
    # a slow AR(1) wander of the pace (data mix, network neighbours): +-0.4 %
    wander = 0.0
    while t < end:
        step += 1
        wander = 0.985 * wander + RNG.normal(0, 0.0006)
        dur = BASE_STEP * (1 + wander) * math.exp(RNG.normal(0, 0.006))
        dur *= slow_factor_fn(t)
        if t >= THROTTLE_ON.timestamp():
            dur *= math.exp(RNG.normal(0, 0.004))   # thermal control oscillation
        if step % GC_FREQ == 0:
            dur += 0.05 + RNG.uniform(0, 0.02)
        ckpt = 0.0
        if step % CKPT_EVERY == 0:
            ckpt = RNG.uniform(27.0, 34.0)        # sync DCP save to /lustre
        t += dur
        rows.append((step, t, dur, ckpt))
        t += ckpt
    return rows


STEPS = simulate_steps()
STEP_ARR = np.array([r[0] for r in STEPS])
STEP_END = np.array([r[1] for r in STEPS])
STEP_DUR = np.array([r[2] for r in STEPS])
STEP_CKPT = np.array([r[3] for r in STEPS])
CKPT_WINDOWS = [(r[1], r[1] + r[3]) for r in STEPS if r[3] > 0]


def in_ckpt(ts: np.ndarray) -> np.ndarray:
    m = np.zeros(ts.shape, dtype=bool)
    for a, b in CKPT_WINDOWS:
        m |= (ts >= a) & (ts < b)
    return m


def pace(ts: np.ndarray) -> np.ndarray:
    """Relative job pace (1.0 = baseline) at epoch seconds ts, ignoring checkpoints."""
    f = np.array([slow_factor_fn(x) for x in ts])
    return 1.0 / f


# log lines (every LOG_FREQ steps): tps per device from the time since last log
LOG_ROWS = []
last_t = TRAIN_START.timestamp()
acc_tok = 0
loss_level = 2.412
for i, (s, te, d, ck) in enumerate(STEPS):
    acc_tok += TOK_PER_STEP_RANK
    if s % LOG_FREQ == 0:
        delta = te - last_t
        tps = acc_tok / delta
        loss_level -= 0.0000048 * LOG_FREQ
        LOG_ROWS.append(dict(step=s, t=te, delta=delta, tps=tps,
                             loss=loss_level + RNG.normal(0, 0.018)))
        acc_tok = 0
        last_t = te
    # a checkpoint's time is counted in the next interval's time_delta (time_last_log is not reset)

# ----------------------------------------------------------------- scrape grid
def scrape_times(interval: float, offset: float) -> np.ndarray:
    t0 = EXPORT_START.timestamp()
    n = int((EXPORT_END.timestamp() - t0) / interval) + 1
    ts = t0 + offset + np.arange(n) * interval
    ts = ts + RNG.normal(0, 0.003, n)          # scrape start jitter
    ts = np.round(ts, 3)
    keep = RNG.random(n) > 0.0015               # an occasional scrape timeout
    return ts[keep]


def to_dt(ts: np.ndarray) -> pl.Series:
    return pl.Series("timestamp", (ts * 1000).astype(np.int64)).cast(pl.Datetime("ms", "UTC"))


# per-host / per-gpu persistent offsets
POS_TEMP = np.array([-2.0, -1.5, -0.5, 0.5, 1.5, 3.5, 2.0, 1.0])   # airflow position in chassis
HOST_TEMP = RNG.normal(0, 1.4, NH)
GPU_TEMP_OFF = RNG.normal(0, 2.2, (NH, GPN)) + POS_TEMP[None, :] + HOST_TEMP[:, None]
GPU_TEMP_OFF[BAD_HI, BAD_GPU] = 0.0   # handled by its own model
GPU_POWER_OFF = RNG.normal(0, 11.0, (NH, GPN))
GPU_CLOCK_OFF = RNG.normal(0, 12.0, (NH, GPN))
GPU_MEMT_OFF = RNG.normal(0, 2.0, (NH, GPN))
HOST_UPTIME = RNG.uniform(6, 41, NH) * 86400.0      # s since boot at EXPORT_START
REPLAY_BASE = np.where(RNG.random((NH, GPN)) < 0.06, RNG.integers(1, 40, (NH, GPN)), 0)
CORR_ROWS = np.where(RNG.random((NH, GPN)) < 0.05, RNG.integers(1, 3, (NH, GPN)), 0)


def bad_gpu_temp(ts: np.ndarray) -> np.ndarray:
    t_f = FAN_FAIL.timestamp()
    t_on = THROTTLE_ON.timestamp()
    x = np.where(ts < t_f, T0_BAD, T0_BAD + (TINF - T0_BAD) * (1 - np.exp(-(ts - t_f) / TAU)))
    after = ts >= t_on
    # the slowdown controller holds it near 87 with a small limit cycle
    x = np.where(after, 86.6 + 0.7 * np.sin((ts - t_on) / 47.0) + RNG.normal(0, 0.35, ts.shape), x)
    x = np.where(~after, x + RNG.normal(0, 0.45, ts.shape), x)
    return x


def dcgm_frames() -> pl.DataFrame:
    frames = []
    interval = 15.0
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(interval, RNG.uniform(0, 15))
        n = ts.size
        ck = in_ckpt(ts)
        pc = pace(ts)
        fan_after = ts >= FAN_FAIL.timestamp()
        thr_after = ts >= THROTTLE_ON.timestamp()
        for g in range(GPN):
            is_bad = hi == BAD_HI and g == BAD_GPU
            # ---- utilisation and activity
            util = np.where(ck, RNG.integers(0, 12, n), 100 - (RNG.random(n) < 0.04) * RNG.integers(1, 4, n))
            tensor = 0.437 + RNG.normal(0, 0.008, n)
            if is_bad:
                tensor = np.where(thr_after, tensor * 1.018, tensor)
            else:
                tensor = tensor * (0.045 + 0.955 * pc) / 1.0
            tensor = np.where(ck, RNG.uniform(0.0, 0.02, n), tensor)
            gract = np.where(ck, RNG.uniform(0.02, 0.12, n), 0.962 + RNG.normal(0, 0.006, n))
            dram = np.where(ck, RNG.uniform(0.0, 0.02, n), (0.318 + RNG.normal(0, 0.01, n)) * (pc if not is_bad else 1.0))
            # ---- clocks, power, temperature
            if is_bad:
                sm = np.where(thr_after,
                              1772 + RNG.normal(0, 48, n) + 40 * np.sin((ts - THROTTLE_ON.timestamp()) / 47.0 + 1.3),
                              1921 + GPU_CLOCK_OFF[hi, g] + RNG.normal(0, 30, n))
                power = np.where(thr_after, 598 + RNG.normal(0, 22, n), 662 + GPU_POWER_OFF[hi, g] + RNG.normal(0, 17, n))
                temp = bad_gpu_temp(ts)
                memt = temp + 4.8 + RNG.normal(0, 0.5, n)
            else:
                sm = 1921 + GPU_CLOCK_OFF[hi, g] + RNG.normal(0, 30, n)
                power = (662 + GPU_POWER_OFF[hi, g]) * (0.55 + 0.45 * pc) + RNG.normal(0, 17, n)
                tbase = 63.5 + GPU_TEMP_OFF[hi, g] - 3.0 * (1 - pc) / 0.05 * 0.35
                if hi == BAD_HI:
                    # the failed fan also starves its neighbours a little
                    bump = {4: 4.2, 6: 2.6, 7: 1.2, 3: 0.8}.get(g, 0.4)
                    tbase = tbase + np.where(fan_after, bump * (1 - np.exp(-(ts - FAN_FAIL.timestamp()) / 240.0)), 0.0)
                temp = tbase + RNG.normal(0, 0.5, n)
                memt = temp + 5.5 + GPU_MEMT_OFF[hi, g] + RNG.normal(0, 0.5, n)
            sm = np.clip(sm, 1410, 1980)
            sm = np.where(ck, RNG.choice([1980, 1980, 1755], n), sm)
            power = np.where(ck, 118 + RNG.normal(0, 9, n), power)
            power = np.minimum(power, 700.0)
            temp = np.where(ck, temp - RNG.uniform(3, 7, n), temp)
            memt = np.where(ck, memt - RNG.uniform(2, 5, n), memt)
            temp = np.round(temp)
            memt = np.round(memt)
            sm = np.round(sm)
            # throttle reasons bitmask: 0x4 sw power cap now and then, 0x20 sw thermal
            thr = np.where(RNG.random(n) < 0.18, 4, 0)
            if is_bad:
                thr = np.where(thr_after, np.where(RNG.random(n) < 0.85, 32, 36), thr)
            thr = np.where(ck, 1, thr)
            # violation counters (us)
            dt_s = np.diff(ts, prepend=ts[0] - interval)
            pv_inc = np.where(thr == 4, RNG.uniform(0.5e6, 6e6, n), RNG.uniform(0, 0.2e6, n)) * (dt_s / 15.0)
            pviol = 3.1e9 * RNG.uniform(0.5, 1.5) + np.cumsum(np.round(pv_inc))
            tviol_base = 0.0 if not (hi == 11 and g == 2) else 8.4e6   # one GPU has an old thermal event
            tv_inc = np.zeros(n)
            if is_bad:
                tv_inc = np.where(thr_after, dt_s * 1e6 * RNG.uniform(0.86, 0.99, n), 0.0)
            tviol = tviol_base + np.cumsum(np.round(tv_inc))
            # energy counter mJ since boot
            e0 = HOST_UPTIME[hi] * 350.0 * 1000.0 * RNG.uniform(0.9, 1.1)
            energy = e0 + np.cumsum(power * dt_s * 1000.0)
            # NVLink bandwidth counter, PCIe
            nvl_rate = 1.12e5 * pc * np.where(ck, 0.02, 1.0) * RNG.uniform(0.97, 1.03, n)
            nvl = HOST_UPTIME[hi] * 5.0e4 + np.cumsum(nvl_rate * dt_s)
            pcie_tx = np.where(ck, RNG.uniform(1e8, 6e8, n), 1.21e10 * pc * RNG.uniform(0.93, 1.07, n))
            pcie_rx = np.where(ck, RNG.uniform(2e9, 5e9, n), 1.18e10 * pc * RNG.uniform(0.93, 1.07, n))
            replay = np.full(n, float(REPLAY_BASE[hi, g]))
            fb_used = np.where(ck, 71240.0, 71012.0) + RNG.integers(-24, 24, n)
            fb_free = 81559.0 - fb_used - 488
            memcopy = np.where(ck, RNG.integers(0, 3, n), np.round(31 * pc + RNG.normal(0, 2, n)))
            xid = np.zeros(n)
            if h == XID_HOST and g == XID_GPU:
                xid = np.where(ts >= XID63_AT.timestamp(), 63.0, 0.0)
            labels = dict(gpu=str(g), UUID=GPU_UUID[(h, g)], pci_bus_id=f"00000000:{PCI_BUS[g]}:00.0",
                          device=f"nvidia{g}", modelName=MODEL, Hostname=h,
                          DCGM_FI_DRIVER_VERSION=DRIVER, instance=f"{h}:9400", job="dcgm-exporter")
            series = {
                "DCGM_FI_DEV_SM_CLOCK": sm,
                "DCGM_FI_DEV_MEM_CLOCK": np.full(n, 2619.0),
                "DCGM_FI_DEV_MEMORY_TEMP": memt,
                "DCGM_FI_DEV_GPU_TEMP": temp,
                "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3),
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.round(energy),
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
                "DCGM_FI_DEV_GPU_UTIL": util.astype(float),
                "DCGM_FI_DEV_MEM_COPY_UTIL": memcopy.astype(float),
                "DCGM_FI_DEV_XID_ERRORS": xid,
                "DCGM_FI_DEV_FB_FREE": fb_free.astype(float),
                "DCGM_FI_DEV_FB_USED": fb_used.astype(float),
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": np.round(nvl),
                "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": np.zeros(n),
                "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": np.full(n, float(CORR_ROWS[hi, g])),
                "DCGM_FI_DEV_ROW_REMAP_FAILURE": np.zeros(n),
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gract, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(np.clip(tensor, 0, 1), 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": np.round(np.clip(dram, 0, 1), 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(pcie_tx),
                "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(pcie_rx),
                "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS": thr.astype(float),
                "DCGM_FI_DEV_POWER_VIOLATION": pviol,
                "DCGM_FI_DEV_THERMAL_VIOLATION": tviol,
            }
            tcol = to_dt(ts)
            for m, v in series.items():
                frames.append(pl.DataFrame({"timestamp": tcol, "metric": m, "value": np.asarray(v, dtype=float),
                                            **{k: [lv] * n for k, lv in labels.items()}}))
        # the exporter's own up
    df = pl.concat(frames, how="vertical")
    return df


def node_frames() -> pl.DataFrame:
    frames = []
    interval = 15.0

    def add(ts, metric, v, **labels):
        n = ts.size
        frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": metric, "value": np.asarray(v, dtype=float),
                                    **{k: [lv] * n for k, lv in labels.items()}}))

    lustre_used = 812.4e12
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(interval, RNG.uniform(0, 15))
        n = ts.size
        dt_s = np.diff(ts, prepend=ts[0] - interval)
        ck = in_ckpt(ts)
        pc = pace(ts)
        inst = f"{h}:9100"
        base = dict(instance=inst, job="node")
        add(ts, "up", np.ones(n), **base)
        load = 14.2 + 2.2 * RNG.standard_normal(n).cumsum() / np.sqrt(np.arange(1, n + 1)) + RNG.normal(0, 0.8, n)
        add(ts, "node_load1", np.round(np.clip(load, 6, 30), 2), **base)
        memav = 1.512e12 + RNG.normal(0, 2e9, n) + np.where(ck, -6.5e10, 0)
        add(ts, "node_memory_MemAvailable_bytes", np.round(memav), **base)
        add(ts, "node_memory_MemTotal_bytes", np.full(n, 2.11355e12), **base)
        cpuw = HOST_UPTIME[hi] * 0.31 + np.cumsum(dt_s * RNG.uniform(0.15, 0.45, n))
        add(ts, "node_pressure_cpu_waiting_seconds_total", np.round(cpuw, 6), **base)
        iow = HOST_UPTIME[hi] * 0.012 + np.cumsum(dt_s * np.where(ck, 0.4, 0.003) * RNG.uniform(0.5, 1.5, n))
        add(ts, "node_pressure_io_waiting_seconds_total", np.round(iow, 6), **base)
        # local NVMe (dataset cache): steady reads
        rd_rate = 520 * pc * RNG.uniform(0.8, 1.2, n)
        reads = HOST_UPTIME[hi] * 410 + np.cumsum(rd_rate * dt_s)
        rtime = HOST_UPTIME[hi] * 0.046 + np.cumsum(rd_rate * dt_s * 8.8e-5 * RNG.uniform(0.9, 1.1, n))
        wr_rate = 36 * RNG.uniform(0.6, 1.4, n)
        writes = HOST_UPTIME[hi] * 30 + np.cumsum(wr_rate * dt_s)
        wtime = HOST_UPTIME[hi] * 0.0009 + np.cumsum(wr_rate * dt_s * 2.4e-5)
        iot = HOST_UPTIME[hi] * 0.041 + np.cumsum(dt_s * 0.048 * pc * RNG.uniform(0.8, 1.2, n))
        for m, v in [("node_disk_reads_completed_total", np.round(reads)),
                     ("node_disk_read_time_seconds_total", np.round(rtime, 3)),
                     ("node_disk_writes_completed_total", np.round(writes)),
                     ("node_disk_write_time_seconds_total", np.round(wtime, 3)),
                     ("node_disk_io_time_seconds_total", np.round(iot, 3))]:
            add(ts, m, v, device="nvme0n1", **base)
        # filesystems
        root_av = 3.12e11 - hi * 1.7e9 + RNG.integers(-5, 5, n) * 4096.0
        add(ts, "node_filesystem_avail_bytes", root_av, device="/dev/md0", fstype="ext4", mountpoint="/", **base)
        # shared lustre: checkpoint writes (~105 GB each) and purge of the oldest
        lu = np.full(n, lustre_used)
        for a, b in CKPT_WINDOWS:
            lu = lu + np.where(ts >= b, 1.05e11, np.where(ts >= a, 1.05e11 * (ts - a) / (b - a), 0))
            lu = lu - np.where(ts >= b + 40, 1.05e11, 0)
        lu_av = 2.9e15 - lu - 0.2e15 * 0 + RNG.normal(0, 2e9, n)
        add(ts, "node_filesystem_avail_bytes", np.round(lu_av), device="10.31.0.21@o2ib:10.31.0.22@o2ib:/scratch",
            fstype="lustre", mountpoint="/scratch", **base)
        # InfiniBand compute rails (NDR 400): FSDP all-gather / reduce-scatter traffic
        for k, dev in enumerate(IB_DEVS):
            rate = 1.86e10 * pc * np.where(ck, 0.01, 1.0) * RNG.uniform(0.94, 1.06, n)
            rx0 = HOST_UPTIME[hi] * 7.9e9 * RNG.uniform(0.9, 1.1)
            tx0 = rx0 * RNG.uniform(0.98, 1.02)
            rx = rx0 + np.cumsum(rate * dt_s)
            tx = tx0 + np.cumsum(rate * dt_s * RNG.uniform(0.99, 1.01, n))
            lab = dict(device=dev, port="1", **base)
            add(ts, "node_infiniband_port_data_received_bytes_total", np.round(rx), **lab)
            add(ts, "node_infiniband_port_data_transmitted_bytes_total", np.round(tx), **lab)
            add(ts, "node_infiniband_link_downed_total", np.zeros(n), **lab)
            perr = float(RNG.choice([0, 0, 0, 0, 14, 3]))
            add(ts, "node_infiniband_port_errors_received_total", np.full(n, perr), **lab)
            add(ts, "node_infiniband_state_id", np.full(n, 4.0), **lab)
            add(ts, "node_infiniband_rate_bytes_per_second", np.full(n, 5e10), **lab)
        # management / storage ethernet
        eth_tx_rate = np.where(ck, 3.3e9 / 24 * 8, 2.1e6) * RNG.uniform(0.8, 1.2, n)
        eth_rx_rate = np.where(ck, 4e6, 1.3e6) * RNG.uniform(0.8, 1.2, n)
        add(ts, "node_network_transmit_bytes_total", np.round(HOST_UPTIME[hi] * 9e6 + np.cumsum(eth_tx_rate * dt_s)),
            device="bond0", **base)
        add(ts, "node_network_receive_bytes_total", np.round(HOST_UPTIME[hi] * 6e6 + np.cumsum(eth_rx_rate * dt_s)),
            device="bond0", **base)
    return pl.concat(frames, how="diagonal")


def ipmi_frames() -> pl.DataFrame:
    frames = []
    interval = 30.0
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(interval, RNG.uniform(0, 30))
        n = ts.size
        inst = f"{h}-bmc"   # scraped through the exporter's /ipmi endpoint with target=<bmc>
        base = dict(instance=inst, job="ipmi")
        fan_after = ts >= FAN_FAIL.timestamp()
        ck = in_ckpt(ts)
        for f in range(1, 11):
            rpm = 9240 + RNG.normal(0, 60) + RNG.normal(0, 80, n)
            rpm = np.where(ck, rpm - 900, rpm)
            if hi == BAD_HI:
                if f == 6:
                    rpm = np.where(fan_after, np.where(ts < FAN_FAIL.timestamp() + 20, 2100.0, 0.0), rpm)
                else:
                    rpm = np.where(fan_after, rpm + 1150 + RNG.normal(0, 60, n), rpm)
            rpm = np.round(rpm / 120) * 120   # BMC reports in steps
            frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": "ipmi_fan_speed_rpm", "value": rpm,
                                        "id": [str(40 + f)] * n, "name": [f"FAN{f}"] * n,
                                        **{k: [v] * n for k, v in base.items()}}))
            state = np.zeros(n)
            if hi == BAD_HI and f == 6:
                state = np.where(fan_after, 2.0, 0.0)   # 0 nominal, 1 warning, 2 critical
            frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": "ipmi_fan_speed_state", "value": state,
                                        "id": [str(40 + f)] * n, "name": [f"FAN{f}"] * n,
                                        **{k: [v] * n for k, v in base.items()}}))
        for sid, name, lvl in [("1", "Inlet Temp", 23.0), ("2", "Exhaust Temp", 49.0), ("3", "CPU1 Temp", 58.0),
                               ("4", "CPU2 Temp", 61.0)]:
            v = lvl + RNG.normal(0, 0.8) + RNG.normal(0, 0.4, n)
            if name == "Exhaust Temp" and hi == BAD_HI:
                v = np.where(fan_after, v + 3.0, v)
            frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": "ipmi_temperature_celsius",
                                        "value": np.round(v), "id": [sid] * n, "name": [name] * n,
                                        **{k: [vv] * n for k, vv in base.items()}}))
        frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": "ipmi_up", "value": np.ones(n),
                                    "id": [None] * n, "name": [None] * n, "collector": ["ipmi"] * n,
                                    **{k: [v] * n for k, v in base.items()}}))
    return pl.concat(frames, how="diagonal")


def trainer_frames() -> pl.DataFrame:
    """Rank 0 exposes its last logged numbers on :9105 (prometheus_client), scraped every 15 s."""
    ts = scrape_times(15.0, 7.3)
    log_t = np.array([r["t"] for r in LOG_ROWS])
    idx = np.searchsorted(log_t, ts, side="right") - 1
    ok = idx >= 0
    ts = ts[ok]
    idx = idx[ok]
    tps = np.array([r["tps"] for r in LOG_ROWS])[idx]
    loss = np.array([r["loss"] for r in LOG_ROWS])[idx]
    step = np.array([r["step"] for r in LOG_ROWS])[idx]
    gtps = np.round(tps * WORLD, 1)
    mfu = np.round(100 * FLOPS_PER_TOKEN * tps / PEAK, 2)
    n = ts.size
    base = dict(instance="h100-r07-n01:9105", job="trainer", run="ll3-8b-run7", slurm_job_id=str(JOB_ID))
    frames = []
    for m, v in [("trainer_tokens_per_second", gtps), ("trainer_loss", np.round(loss, 4)),
                 ("trainer_step", step.astype(float)), ("trainer_mfu", mfu)]:
        frames.append(pl.DataFrame({"timestamp": to_dt(ts), "metric": m, "value": v,
                                    **{k: [vv] * n for k, vv in base.items()}}))
    return pl.concat(frames)


# --------------------------------------------------------------------- logs
MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def syslog_ts(t: float) -> str:
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{MON[d.month - 1]} {d.day:2d} {d:%H:%M:%S}"


def write_syslogs():
    sysdir = OUT / "logs" / "syslog"
    sysdir.mkdir(parents=True, exist_ok=True)
    t_from = T("2025-06-11T00:00:00").timestamp()
    t_to = T("2025-06-11T05:30:00").timestamp()
    for hi, h in enumerate(HOSTS):
        boot = EXPORT_START.timestamp() - HOST_UPTIME[hi]
        lines = []
        pid0 = int(RNG.integers(180000, 260000))
        AUTO = object()

        def nextpid(step=40):
            return AUTO
        def kern(t, msg):
            lines.append((t, f"{syslog_ts(t)} {h} kernel: [{t - boot:12.6f}] {msg}"))

        def proc(t, name, msg, p=None):
            lines.append((t, (name, p, msg)))

        # sysstat every 10 min, cron hourly, apt/motd noise, chrony
        t = t_from + 60 * 0 + 1.2
        while t < t_to:
            if int((t - t_from) // 60) % 10 == 0:
                s = t + RNG.uniform(0, 1.8)
                proc(s, "systemd", "Starting system activity accounting tool...", 1)
                proc(s + 0.05, "systemd", "sysstat-collect.service: Deactivated successfully.", 1)
                proc(s + 0.05, "systemd", "Finished system activity accounting tool.", 1)
            t += 600
        for hh in range(0, 6):
            t = t_from + hh * 3600 + 17 * 60 + 1
            if t < t_to:
                proc(t, "CRON", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)", nextpid())
        # prometheus textfile collector cron for nvme smart (every 5 min)
        t = t_from + 3.0
        while t < t_to:
            proc(t + RNG.uniform(0, 0.9), "CRON", "(root) CMD (/usr/local/bin/nvme_metrics.sh > /var/lib/node_exporter/textfile/nvme.prom.$$ && mv /var/lib/node_exporter/textfile/nvme.prom.$$ /var/lib/node_exporter/textfile/nvme.prom)", nextpid())
            t += 300
        # daily log rotation just after midnight (this file starts there)
        lr = t_from + RNG.uniform(0.2, 1.0)
        lines.append((lr, f"{syslog_ts(lr)} {h} rsyslogd: [origin software=\"rsyslogd\" swVersion=\"8.2112.0\" x-pid=\"1402\" x-info=\"https://www.rsyslog.com\"] rsyslogd was HUPed"))
        proc(lr + 0.2, "systemd", "logrotate.service: Deactivated successfully.", 1)
        proc(lr + 0.21, "systemd", "Finished Rotate log files.", 1)
        if RNG.random() < 0.5:
            mt = RNG.uniform(t_from + 3600, t_to)
            proc(mt, "systemd", "Starting Message of the Day...", 1)
            proc(mt + 0.6, "systemd", "motd-news.service: Deactivated successfully.", 1)
            proc(mt + 0.61, "systemd", "Finished Message of the Day.", 1)
        if RNG.random() < 0.4:
            ft = RNG.uniform(t_from, t_to)
            proc(ft, "systemd", "Starting Refresh fwupd metadata and update motd...", 1)
            proc(ft + 1.9, "systemd", "fwupd-refresh.service: Deactivated successfully.", 1)
            proc(ft + 1.91, "systemd", "Finished Refresh fwupd metadata and update motd.", 1)
        # chrony: occasional
        for _ in range(int(RNG.integers(0, 3))):
            tt = RNG.uniform(t_from, t_to)
            proc(tt, "chronyd", f"Selected source 10.31.0.{int(RNG.integers(2, 4))} (ntp{int(RNG.integers(1, 3))}.mgmt.cluster)", 1421)
        # end of the previous job (00:30) and the new one
        prev_end = T("2025-06-11T00:30:41").timestamp() + RNG.uniform(0, 2)
        for k in range(int(RNG.integers(2, 6))):
            kern(prev_end + k * 0.0004, "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
        proc(prev_end + 3.1, "slurmd", "slurmd: epilog for job 481277 ran for 4 seconds", 2714)
        js = SRUN_START.timestamp() + RNG.uniform(0.2, 0.9)
        if hi == 0:
            proc(js - 1.6, "slurmd", f"slurmd: Launching batch job {JOB_ID} for UID 2107", 2714)
        proc(js, "slurmd", f"slurmd: _run_prolog: run job script took usec={int(RNG.integers(900000, 1400000))}", 2714)
        proc(js + 0.001, "slurmd", f"slurmd: _run_prolog: prolog with lock for job {JOB_ID} ran for 1 seconds", 2714)
        proc(js + 1.3, "slurmd", f"slurmd: launch task StepId={JOB_ID}.0 request from UID:2107 GID:2107 HOST:10.31.7.1 PORT:{int(RNG.integers(40000, 60000))}", 2714)
        proc(js + 1.31, "slurmd", f"slurmd: task/affinity: lllp_distribution: JobId={JOB_ID} implicit auto binding: sockets,one_thread, dist 8192", 2714)
        so = js + RNG.uniform(20, 26)
        for k in range(4):
            for _ in range(GPN):
                kern(so + k * 0.00003 + _ * 0.00001, f"nvidia-nvswitch{k}: open (major=510)")
        if hi == 0:
            kern(js + 9.7, "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters.")
        # perf sample-rate messages on a few hosts
        if RNG.random() < 0.3:
            tt = RNG.uniform(js + 100, t_to)
            a = int(RNG.integers(2500, 4000))
            kern(tt, f"perf: interrupt took too long ({a + int(RNG.integers(1, 40))} > {a}), lowering kernel.perf_event_max_sample_rate to {int(250000 * 1000 / a / 10) * 10}")
        # the unrelated Xid 63 (row remapping pending) -- real line, see truth.yaml
        if h == XID_HOST:
            kern(XID63_AT.timestamp(), f"NVRM: Xid (PCI:0000:{PCI_BUS[XID_GPU].lower()}:00): 63, pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate")
        # on-call logs in to the hot node to look (no kernel message results)
        if h == BAD_HOST:
            s = ONCALL_HOST_SSH.timestamp()
            p = ("session", "sshd")
            proc(s, "sshd", f"Accepted publickey for oncall from 10.31.0.5 port 53122 ssh2: ED25519 SHA256:q3Zq7m1c0vJ3pT8nL0dE6uJmX2rC9sVbH4kW1yA5fGo", p)
            proc(s + 0.02, "sshd", "pam_unix(sshd:session): session opened for user oncall(uid=1501) by (uid=0)", p)
            proc(s + 0.03, "systemd-logind", "New session 2811 of user oncall.", 1873)
            proc(s + 0.05, "systemd", "Started Session 2811 of User oncall.", 1)
            q = ("session", "sudo1")
            proc(s + 41.2, "sudo", "  oncall : TTY=pts/0 ; PWD=/home/oncall ; USER=root ; COMMAND=/usr/bin/nvidia-smi -q -d TEMPERATURE,PERFORMANCE", q)
            proc(s + 41.21, "sudo", "pam_unix(sudo:session): session opened for user root(uid=0) by oncall(uid=1501)", q)
            proc(s + 42.6, "sudo", "pam_unix(sudo:session): session closed for user root", q)
            q = ("session", "sudo2")
            proc(s + 95.2, "sudo", "  oncall : TTY=pts/0 ; PWD=/home/oncall ; USER=root ; COMMAND=/usr/bin/ipmitool sdr type Fan", q)
            proc(s + 95.21, "sudo", "pam_unix(sudo:session): session opened for user root(uid=0) by oncall(uid=1501)", q)
            proc(s + 97.9, "sudo", "pam_unix(sudo:session): session closed for user root", q)
            proc(s + 402.0, "sshd", "Received disconnect from 10.31.0.5 port 53122:11: disconnected by user", p)
            proc(s + 402.01, "sshd", "Disconnected from user oncall 10.31.0.5 port 53122", p)
            proc(s + 402.02, "sshd", "pam_unix(sshd:session): session closed for user oncall", p)
            proc(s + 402.05, "systemd", "session-2811.scope: Deactivated successfully.", 1)
            proc(s + 402.06, "systemd-logind", "Session 2811 logged out. Waiting for processes to exit.", 1873)
            proc(s + 402.07, "systemd-logind", "Removed session 2811.", 1873)
        lines.sort(key=lambda x: x[0])
        # processes started by name get increasing pids in time order; a session keeps its pid
        out, pid, keyed = [], pid0, {}
        for t, item in lines:
            if isinstance(item, str):
                out.append(item)
                continue
            name, p, msg = item
            if p is AUTO:
                pid += int(RNG.integers(3, 60))
                p = pid
            elif isinstance(p, tuple):          # ("session", key): same pid for a session
                if p not in keyed:
                    pid += int(RNG.integers(3, 60))
                    keyed[p] = pid
                p = keyed[p]
            tag = f"{name}[{p}]" if p is not None else name
            out.append(f"{syslog_ts(t)} {h} {tag}: {msg}")
        (sysdir / f"{h}.log").write_text("\n".join(out) + "\n")


def fmt_titan_ts(t: float) -> str:
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{d:%Y-%m-%d %H:%M:%S},{d.microsecond // 1000:03d}"


def glog_ts(t: float) -> str:
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{d:%m%d %H:%M:%S}.{d.microsecond // 1000:03d}000"


RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, RESET = ("\033[31m", "\033[32m", "\033[33m", "\033[34m",
                                                  "\033[35m", "\033[36m", "\033[39m")


def write_trainer_log():
    out = []   # (t, text)
    node_ranks = [hi * GPN for hi in range(NH)]

    def titan(rank, t, msg, level="INFO"):
        out.append((t, f"[rank{rank}]:[titan] {fmt_titan_ts(t)} - root - {level} - {msg}"))

    t0 = SRUN_START.timestamp() + 6.0
    for hi, h in enumerate(HOSTS):
        tt = t0 + RNG.uniform(0, 1.5)
        pidn = int(RNG.integers(3000, 9000))
        for k, txt in enumerate(["", "*****************************************",
                                 "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
                                 "*****************************************"]):
            out.append((tt, f"W{glog_ts(tt)} {pidn} torch/distributed/run.py:792] {txt}".rstrip()))
    t1 = t0 + 21.0
    for r in node_ranks:
        tt = t1 + RNG.uniform(0, 0.4)
        titan(r, tt, "Starting job: Llama 3 8B training (run 7)")
        titan(r, tt + 0.9, "Building 1-D device mesh with ['dp_shard'], [192]")
        titan(r, tt + 0.95, "[GC] Initial GC collection. 0.00 seconds.")
        titan(r, tt + 1.3, "Loading tokenizer from tokenizer.model")
        titan(r, tt + 2.1, "Preparing fineweb_edu_10bt dataset from /scratch/datasets/fineweb-edu/sample-10BT")
        titan(r, tt + 4.2, f"Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
        titan(r, tt + 4.9, f"{BLUE}Model llama3 8B {RED}size: 8,030,261,248 total parameters{RESET}")
        titan(r, tt + 5.2, "Applied selective activation checkpointing to the model")
        titan(r, tt + 5.6, "Applied FSDP to the model")
        titan(r, tt + 6.3, "Peak FLOPS used for computing MFU: 9.890e+14")
        titan(r, tt + 6.31, "CUDA memory usage for model: 3.80GiB(4.81%)")
        titan(r, tt + 6.9, f"Checkpointing active. Checkpoints are loaded from and saved to ./outputs/checkpoint")
        titan(r, tt + 7.0, f"Trainer is initialized with local batch size {LOCAL_BS}, global batch size {LOCAL_BS * WORLD}, sequence length {SEQ}, total steps 60000 (warmup 2000).")
        titan(r, tt + 7.1, f"Loading the checkpoint at step {FIRST_STEP - 1}.")
        titan(r, tt + 7.15 + 118.0, "[GC] GC collection for checkpoint loading. 0.11 seconds.")
        titan(r, tt + 7.2 + 118.0, f"Finished loading the checkpoint in {118.0 + RNG.uniform(0, 1.5):.2f} seconds.")
        titan(r, tt + 7.3 + 118.0, f"Training starts at step {FIRST_STEP}.")
    # step lines from every node's local rank 0, GC, checkpoints
    log_i = 0
    for s, te, d, ck in STEPS:
        if te > EXPORT_END.timestamp() + 60:
            break
        if s % GC_FREQ == 0:
            for r in node_ranks:
                titan(r, te - d + 0.001 + RNG.uniform(0, 0.004), f"[GC] Peforming periodical GC collection. {RNG.uniform(0.04, 0.07):.2f} seconds.")
        if s % LOG_FREQ == 0:
            row = LOG_ROWS[log_i]
            log_i += 1
            for r in node_ranks:
                tps = row["tps"] * (1 + RNG.normal(0, 0.0009))
                tfl = FLOPS_PER_TOKEN * tps / 1e12
                mfu = 100 * FLOPS_PER_TOKEN * tps / PEAK
                mem = 61.48 + RNG.choice([0.0, 0.0, 0.02])
                msg = (f"{RED}step: {s:2}  {GREEN}loss: {row['loss']:7.4f}  {YELLOW}memory: {mem:5.2f}GiB"
                       f"({mem / 79.11 * 100:.2f}%)  {BLUE}tps: {round(tps):,}  {CYAN}tflops: {tfl:,.2f}  "
                       f"{MAGENTA}mfu: {mfu:.2f}%{RESET}")
                titan(r, te + 0.002 + RNG.uniform(0, 0.01), msg)
        if ck > 0:
            titan(0, te + 0.02, "Saving the checkpoint (or staging if async is enabled).")
            titan(0, te + 0.03, f"[GC] GC collection invoked by checkpointer. {RNG.uniform(0.08, 0.12):.2f} seconds.")
            titan(0, te + ck - 0.01, f"Finished saving the checkpoint (or staging if async is enabled)in {ck - 0.04:.2f} seconds.")
            if s >= FIRST_STEP - 1 + 3 * CKPT_EVERY:
                titan(0, te + ck - 0.005, f"Checkpointer is deleting ./outputs/checkpoint/step-{s - 3 * CKPT_EVERY}.")
    out.sort(key=lambda x: x[0])
    header = [
        f"+ srun --kill-on-bad-exit=1 torchrun --nnodes 24 --nproc_per_node 8 --rdzv_id {JOB_ID} --rdzv_backend c10d --rdzv_endpoint h100-r07-n01:29500 --local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train --job.config_file ./train_configs/llama3_8b_run7.toml",
    ]
    (OUT / "logs").mkdir(parents=True, exist_ok=True)
    with open(OUT / "logs" / f"slurm-{JOB_ID}.out", "w") as f:
        f.write("\n".join(header) + "\n")
        for _, l in out:
            f.write(l + "\n")


# ------------------------------------------------------------------- truth
def loss_pct() -> float:
    lt = np.array([r["t"] for r in LOG_ROWS])
    tp = np.array([r["tps"] for r in LOG_ROWS])
    base = (lt >= WIN_START.timestamp()) & (lt < THROTTLE_ON.timestamp() - 60)
    aft = (lt >= THROTTLE_ON.timestamp() + 300) & (lt < WIN_END.timestamp())
    # exclude intervals containing a checkpoint: use the median
    b = np.median(tp[base])
    a = np.median(tp[aft])
    return float(round(100 * (1 - a / b), 2))


def write_yaml():
    inc = {
        "id": INCIDENT_ID,
        "title": "Llama 3 8B pretraining (run 7): tokens/s down about 5% overnight",
        "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
        "baseline": {"start": WIN_START.isoformat(), "end": BASELINE_END.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "h100-east-b", "nodes": NH, "gpus_per_node": GPN, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(OUT / "incident.yaml", "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    lp = loss_pct()
    truth = {
        "id": INCIDENT_ID,
        "cause": (f"Chassis fan FAN6 of {BAD_HOST} failed at {FAN_FAIL:%H:%M:%S} UTC; GPU {BAD_GPU} of that node "
                  f"(the warmest slot) heated to its slowdown temperature and from {THROTTLE_ON:%H:%M:%S} UTC ran in SW "
                  f"thermal slowdown at a ~8% lower SM clock, making it the straggler that every rank of the "
                  f"synchronous FSDP job waited for."),
        "cause_metrics": [
            "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_SM_CLOCK",
            "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_THERMAL_VIOLATION", "DCGM_FI_DEV_POWER_USAGE",
            "ipmi_fan_speed_rpm", "ipmi_fan_speed_state",
        ],
        "cause_log_evidence": [],
        "cause_log_evidence_note": ("None: the NVIDIA driver does not log thermal clock slowdowns and BMC fan "
                                    "events are not forwarded to the host syslog. The on-call's sudo lines at "
                                    f"{ONCALL_HOST_SSH:%H:%M} on {BAD_HOST} (nvidia-smi -q, ipmitool sdr) are the "
                                    "investigation, not evidence."),
        "distractors": [
            {"what": "Xid 63 (row remapping pending) on h100-r09-n02 GPU 3, no effect on throughput",
             "at": XID63_AT.isoformat(),
             "line": "NVRM: Xid (PCI:0000:5d:00): 63, pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate",
             "source": ("verbatim from the IDEFICS-80B training chronicles (huggingface/m4-logs, tr-190-80b/chronicles.md, "
                        "section 'gpu corrupting memory in the saved checkpoint?': 'Xid errors on instance: ip-26-0-146-100, Error: May 19 07:08:57 ip-26-0-146-100 kernel: [680111.646286] NVRM: Xid (PCI:0000:10:1c): 63, "
                        "pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate'); also quoted in "
                        "stas00/ml-engineering compute/accelerator/nvidia/debug.md (with pid=1896). Host, timestamp and PCI "
                        "address adapted. https://github.com/huggingface/m4-logs/blob/master/tr-190-80b/chronicles.md"),
             "metric": "DCGM_FI_DEV_XID_ERRORS = 63 on that GPU from then on"},
            {"what": "periodic checkpoint saves every 500 steps (~30 s pauses, GPU utilisation to ~0, lustre avail drops)"},
            {"what": "neighbour GPU 4 of the same node warms ~4 C after the fan failure but never throttles"},
        ],
        "hosts": [BAD_HOST],
        "gpu": {"host": BAD_HOST, "index": BAD_GPU, "uuid": GPU_UUID[(BAD_HOST, BAD_GPU)],
                "pci_bus_id": f"00000000:{PCI_BUS[BAD_GPU]}:00.0"},
        "onset": THROTTLE_ON.isoformat().replace("+00:00", "Z"),
        "trigger_at": FAN_FAIL.isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": lp,
        "what_a_good_postmortem_says": (
            f"From {THROTTLE_ON:%H:%M} UTC the whole job ran ~{lp:.1f}% slower (every rank, since FSDP steps are "
            f"synchronous) because one GPU, {BAD_HOST} GPU {BAD_GPU}, was held back by a thermal clock event: its "
            f"temperature climbed to ~87 C after chassis fan FAN6 stopped at {FAN_FAIL:%H:%M}, its clock-event "
            f"reasons show SW thermal slowdown (0x20) and its SM clock fell from ~1920 to ~1770 MHz while its peers "
            f"kept theirs and waited. Replace the fan (and check the GPU's cooling), or drain the node and restart "
            f"from the last checkpoint without it; the Xid 63 on h100-r09-n02 is an unrelated pending row remap."),
    }
    with open(OUT / "truth.yaml", "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)


def write_parquet(df: pl.DataFrame, name: str):
    df = df.filter((pl.col("timestamp") >= EXPORT_START) & (pl.col("timestamp") <= EXPORT_END))
    df = df.sort(["timestamp", "metric"])
    (OUT / "metrics").mkdir(parents=True, exist_ok=True)
    df.write_parquet(OUT / "metrics" / name, compression="zstd", statistics=True, row_group_size=500_000)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    write_parquet(dcgm_frames(), "dcgm-exporter.parquet")
    write_parquet(node_frames(), "node-exporter.parquet")
    write_parquet(ipmi_frames(), "ipmi-exporter.parquet")
    write_parquet(trainer_frames(), "trainer.parquet")
    write_syslogs()
    write_trainer_log()
    write_yaml()
    print("wrote", OUT, "throttle on", THROTTLE_ON.isoformat(), "loss", loss_pct())


if __name__ == "__main__":
    main()
