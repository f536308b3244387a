#!/usr/bin/env python3
"""Writes the incident folder sjc2-llama8b-slow-after-maint (fixed seed).

Story: a 16-node x 8 H100 torchtitan job (Llama-3 8B, FSDP over 128 GPUs).  Operators
stop it at 02:58 UTC after a checkpoint so that two hosts (sjc2-gpu-047, sjc2-gpu-053)
can get a vendor BIOS/BMC firmware update.  The update resets their BIOS to defaults
and the hosts come back from the vendor procedure with the base OS image, without the
fleet's node tuning: Ubuntu's stock ondemand.service sets the intel_pstate governor
to "powersave" and, with the BIOS-default energy/performance bias, their cores sit near
the 800 MHz floor.  The job is relaunched at 03:41 on the same 16 hosts; the dataloader
workers on the two hosts saturate, their GPUs wait for batches, and every rank of the
synchronous job waits for them: tokens/s drop ~7% from the restart on.

Layout: one Parquet file, long format, one row group per metric (rows sorted by time),
raw scrape timestamps (dcgm-exporter every 15 s, node_exporter every 30 s, each target
at its own phase), labels exactly as the exporters + Prometheus attach them.
Logs: central rsyslog files per host (RFC 3164), the job's Slurm output files.
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250520
rng = np.random.default_rng(SEED)
UTC = timezone.utc

ID = "sjc2-llama8b-slow-after-maint"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

T0 = datetime(2025, 5, 20, 2, 0, 0, tzinfo=UTC)
T1 = datetime(2025, 5, 20, 6, 30, 0, tzinfo=UTC)
E0 = T0.timestamp()
E1 = T1.timestamp()

HOSTS = [f"sjc2-gpu-{i:03d}" for i in range(41, 57)]
FAULTY = ["sjc2-gpu-047", "sjc2-gpu-053"]
NH = len(HOSTS)
NGPU = 8
NCPU = 128  # 2 x Xeon Platinum 8462Y+ (32C), SMT on
HOST_IP = {h: f"10.20.{4 + i // 32}.{41 + i}" for i, h in enumerate(HOSTS)}

# ----------------------------------------------------------------------------------
# Timeline
# ----------------------------------------------------------------------------------
def ep(h, m, s=0.0):
    return datetime(2025, 5, 20, h, m, 0, tzinfo=UTC).timestamp() + s

# host down windows (firmware update + reimage + reboot) and the boot times after it
DOWN = {
    "sjc2-gpu-047": (ep(3, 4, 11.0), ep(3, 27, 2.0)),
    "sjc2-gpu-053": (ep(3, 5, 3.0), ep(3, 29, 20.0)),
}
BOOT_NEW = {"sjc2-gpu-047": ep(3, 26, 18.6), "sjc2-gpu-053": ep(3, 28, 37.1)}
# boot times of the long-running hosts (days ago, differing)
BOOT_OLD = {}
for i, h in enumerate(HOSTS):
    BOOT_OLD[h] = datetime(2025, 4, 23, 9, 12, tzinfo=UTC).timestamp() + rng.uniform(0, 6 * 3600) + (i % 3) * 86400

# ---------------------------- trainer simulation ---------------------------------
TOK_PER_STEP_GPU = 2 * 8192
FLOP_PER_TOKEN = 6 * (8_030_261_248 - 128_256 * 4096) + 12 * 32 * 32 * 128 * 8192
PEAK = 989e12
TPS0 = 6840.0       # tokens/s per GPU, healthy
SLOW = 0.0728       # fractional throughput loss after the restart
TPS1 = TPS0 * (1 - SLOW)

steps = []  # (step, t_end, job)
ckpts = []  # (step, t_start, t_end, job)

# job 1: resumed from step 31000 the evening before; simulate from its start, then shift it so
# that the step-43000 checkpoint (after which the operators cancel it) ends at 02:58:19.6
t = 0.0
JOB1_TRAIN0 = 0.0
step = 31000
job1_cancel = None
first = True
while True:
    if first:
        dur = 43.9
        first = False
    else:
        dur = TOK_PER_STEP_GPU / TPS0 * (1 + rng.normal(0, 0.0035))
    t += dur
    step += 1
    steps.append((step, t, 1))
    if step % 1000 == 0:
        cdur = rng.uniform(26, 33)
        ckpts.append((step, t, t + cdur, 1))
        t += cdur
        if step == 43000:
            shift = ep(2, 58, 19.6) - t
            job1_cancel = t + 21.7
            while True:
                dur = TOK_PER_STEP_GPU / TPS0 * (1 + rng.normal(0, 0.0035))
                if t + dur > job1_cancel:
                    break
                t += dur
                step += 1
                steps.append((step, t, 1))
            break
steps = [(a, b + shift, c) for (a, b, c) in steps]
ckpts = [(a, b + shift, c + shift, d) for (a, b, c, d) in ckpts]
job1_cancel += shift
JOB1_TRAIN0 = shift
JOB1_LAUNCH = JOB1_TRAIN0 - 96.4
JOB1_LAST_STEP = step

JOB2_LAUNCH = ep(3, 41, 5.3)
JOB2_CKPT_LOAD0 = ep(3, 41, 58.9)
JOB2_CKPT_LOAD1 = JOB2_CKPT_LOAD0 + 37.86
JOB2_TRAIN0 = JOB2_CKPT_LOAD1 + 4.1
t = JOB2_TRAIN0
step = 43000
first = True
while t < E1 + 120:
    if first:
        dur = 41.7  # compile / first step
        first = False
    else:
        dur = TOK_PER_STEP_GPU / TPS1 * (1 + rng.normal(0, 0.0035))
    t += dur
    step += 1
    steps.append((step, t, 2))
    if step % 1000 == 0:
        cdur = rng.uniform(26, 33)
        ckpts.append((step, t, t + cdur, 2))
        t += cdur

STEP_T = np.array([s[1] for s in steps])
STEP_N = np.array([s[0] for s in steps])
STEP_J = np.array([s[2] for s in steps])
ONSET = datetime.fromtimestamp(STEP_T[STEP_J == 2][0], UTC)  # first step of the relaunched job


def job_state(ts):
    """0 no process, 1 training, 2 checkpoint stall, 3 init/loading (process alive, little work)."""
    st = np.zeros(ts.shape, dtype=np.int8)
    st[(ts >= JOB1_LAUNCH + 12) & (ts < JOB1_TRAIN0 + 43.9)] = 3
    st[(ts >= JOB1_TRAIN0 + 43.9) & (ts < job1_cancel)] = 1
    st[(ts >= JOB2_LAUNCH + 12) & (ts < JOB2_TRAIN0 + 41.7)] = 3
    st[ts >= JOB2_TRAIN0 + 41.7] = 1
    for (_s, a, b, _j) in ckpts:
        st[(ts >= a) & (ts < b)] = 2
    return st


def slow_phase(ts):
    return ts >= JOB2_TRAIN0


def host_down(h, ts):
    if h not in DOWN:
        return np.zeros(ts.shape, bool)
    a, b = DOWN[h]
    return (ts >= a) & (ts < b)


def boot_time(h, ts):
    bt = np.full(ts.shape, BOOT_OLD[h])
    if h in BOOT_NEW:
        bt[ts >= DOWN[h][1]] = BOOT_NEW[h]
    return bt


# ----------------------------------------------------------------------------------
# Sample table builder
# ----------------------------------------------------------------------------------
LABELS = [
    "Hostname", "gpu", "UUID", "pci_bus_id", "device", "modelName", "DCGM_FI_DRIVER_VERSION",
    "instance", "job", "cpu", "mode", "governor", "chip", "sensor", "port",
    "nodename", "release", "version", "machine", "sysname", "domainname",
    "bios_date", "bios_release", "bios_vendor", "bios_version", "board_name", "board_vendor",
    "product_name", "product_family", "system_vendor", "chassis_vendor",
]
SCHEMA = pa.schema(
    [("timestamp", pa.timestamp("ms", tz="UTC")), ("metric", pa.string()), ("value", pa.float64())]
    + [(c, pa.string()) for c in LABELS]
)


class Family:
    """Collects the series of one metric: per series its labels, timestamps (s) and values."""

    def __init__(self, name):
        self.name = name
        self.series = []

    def add(self, labels, ts, vals):
        ts = np.asarray(ts, dtype=np.float64)
        vals = np.asarray(vals, dtype=np.float64)
        assert ts.shape == vals.shape
        if len(ts):
            self.series.append((labels, ts, vals))

    def table(self):
        n = sum(len(s[1]) for s in self.series)
        ts = np.concatenate([s[1] for s in self.series])
        vals = np.concatenate([s[2] for s in self.series])
        order = np.argsort(ts, kind="stable")
        cols = {
            "timestamp": pa.array((ts[order] * 1000).round().astype("int64"), type=pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
            "metric": pa.DictionaryArray.from_arrays(np.zeros(n, np.int32), [self.name]).cast(pa.string()),
            "value": pa.array(vals[order]),
        }
        for c in LABELS:
            uniq = []
            idx = {}
            codes = np.empty(n, np.int32)
            pos = 0
            for labels, sts, _ in self.series:
                v = labels.get(c)
                if v not in idx:
                    idx[v] = len(uniq)
                    uniq.append(v)
                codes[pos:pos + len(sts)] = idx[v]
                pos += len(sts)
            codes = codes[order]
            if uniq == [None]:
                cols[c] = pa.nulls(n, pa.string())
            else:
                mask = np.array([u is None for u in uniq])[codes]
                dic = pa.array([u if u is not None else "" for u in uniq], pa.string())
                arr = pa.DictionaryArray.from_arrays(pa.array(codes, pa.int32(), mask=mask), dic)
                cols[c] = arr.cast(pa.string())
        return pa.table(cols, schema=SCHEMA)


FAMILIES: dict[str, Family] = {}


def fam(name):
    if name not in FAMILIES:
        FAMILIES[name] = Family(name)
    return FAMILIES[name]


def scrape_times(period, phase):
    first = E0 + ((phase - (E0 % period)) % period)
    ts = np.arange(first, E1 + 1e-9, period)
    ts = ts + rng.normal(0.004, 0.002, ts.shape).clip(0.0005, 0.03)  # scrape latency jitter
    return ts[(ts >= E0) & (ts <= E1)]


def lag(x, dt, tau):
    """First-order lag of a series sampled every dt seconds."""
    a = 1 - math.exp(-dt / tau)
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc += a * (v - acc)
        y[i] = acc
    return y


def smooth_noise(n, scale, tau_samples):
    w = rng.normal(0, 1, n)
    a = 1 - math.exp(-1 / tau_samples)
    y = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc += a * (w[i] - acc)
        y[i] = acc
    sd = y.std() or 1.0
    return y / sd * scale


# ----------------------------------------------------------------------------------
# dcgm-exporter (15 s)
# ----------------------------------------------------------------------------------
DRIVER = "550.90.07"
MODEL = "NVIDIA H100 80GB HBM3"
PCI = ["00000000:19:00.0", "00000000:3B:00.0", "00000000:4C:00.0", "00000000:5D:00.0",
       "00000000:9B:00.0", "00000000:BB:00.0", "00000000:CB:00.0", "00000000:DB:00.0"]


def uuid():
    b = rng.integers(0, 256, 16)
    hx = "".join(f"{x:02x}" for x in b)
    return f"GPU-{hx[0:8]}-{hx[8:12]}-{hx[12:16]}-{hx[16:20]}-{hx[20:32]}"


FB_TOTAL = 81559
FB_RES = 528
host_temp_off = {h: rng.normal(0, 1.6) for h in HOSTS}
host_temp_off["sjc2-gpu-052"] += 3.5  # top-of-rack host, always a bit warmer
host_pow_off = {h: rng.normal(0, 6) for h in HOSTS}
host_busy_off = {h: rng.normal(0, 1.3) for h in HOSTS}   # agents, exporters, sysstat...

dcgm_phase = {h: rng.uniform(0, 15) for h in HOSTS}
node_phase = {h: rng.uniform(0, 30) for h in HOSTS}

for hi, h in enumerate(HOSTS):
    ts = scrape_times(15.0, dcgm_phase[h])
    down = host_down(h, ts)
    st = job_state(ts)
    slow = slow_phase(ts)
    faulty = h in FAULTY
    inst = f"{h}:9400"
    # up
    fam("up").add({"instance": inst, "job": "dcgm-exporter"}, ts, np.where(down, 0.0, 1.0))
    keep = ~down
    tk = ts[keep]
    stk = st[keep]
    slk = slow[keep]
    n = len(tk)
    run = (stk == 1)
    ck = (stk == 2)
    init = (stk == 3)
    none = (stk == 0)
    after_boot = np.zeros(n, bool)
    if h in DOWN:
        after_boot = tk >= DOWN[h][1]
    for g in range(NGPU):
        lab = {"gpu": str(g), "UUID": uuid(), "pci_bus_id": PCI[g], "device": f"nvidia{g}",
               "modelName": MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER,
               "instance": inst, "job": "dcgm-exporter"}
        gpow = rng.normal(0, 9)
        # ---- utilisation -------------------------------------------------------
        util = np.zeros(n)
        util[run] = 99.3 + rng.uniform(-0.7, 0.3) + rng.normal(0, 0.7, run.sum())
        if faulty:
            sel = run & slk
            # GPU idles while its rank waits for the next batch from the dataloader
            util[sel] = 91.0 + rng.normal(0, 2.6, sel.sum())
        util[ck] = rng.choice([0, 0, 0, 2, 7], ck.sum())
        util[init] = rng.choice([0, 0, 3, 11, 26, 40], init.sum())
        util[none] = 0
        util = np.clip(np.round(util), 0, 100)
        # ---- engine activity (DCP) ----------------------------------------------
        gr = np.zeros(n)
        gr[run] = 0.985 + rng.normal(0, 0.006, run.sum())
        tens = np.zeros(n)
        tens[run] = 0.437 + rng.normal(0, 0.012, run.sum())
        dram = np.zeros(n)
        dram[run] = 0.352 + rng.normal(0, 0.015, run.sum())
        sel = run & slk
        tens[sel] *= (1 - SLOW)
        dram[sel] *= (1 - SLOW)
        if faulty:
            gr[sel] = 0.905 + rng.normal(0, 0.022, sel.sum())
        else:
            gr[sel] = 0.981 + rng.normal(0, 0.007, sel.sum())
        gr[init] = rng.uniform(0, 0.3, init.sum())
        tens[init] = rng.uniform(0, 0.05, init.sum())
        dram[init] = rng.uniform(0, 0.08, init.sum())
        gr[ck] = rng.uniform(0, 0.04, ck.sum())
        dram[ck] = rng.uniform(0.0, 0.02, ck.sum())
        gr, tens, dram = (np.clip(x, 0, 1) for x in (gr, tens, dram))
        # ---- power, clocks, temperature ------------------------------------------
        p = np.full(n, 71.0) + rng.normal(0, 1.2, n)           # no process
        p[run] = 652 + host_pow_off[h] + gpow + rng.normal(0, 14, run.sum())
        if faulty:
            p[sel] = (652 + host_pow_off[h] + gpow) * 0.905 + rng.normal(0, 22, sel.sum())
        else:
            p[sel] = (652 + host_pow_off[h] + gpow) * 0.958 + rng.normal(0, 14, sel.sum())
        p[ck] = 118 + rng.normal(0, 5, ck.sum())
        p[init] = 96 + rng.uniform(0, 160, init.sum())
        p = np.clip(p, 60, 700)
        sm = np.full(n, 345.0)
        busy = run | ck | init
        sm[busy] = 1980
        sm[run] = np.clip(np.round(1842 + gpow * 2.2 - (p[run] - 650) * 1.1 + rng.normal(0, 25, run.sum())), 1500, 1980)
        memclk = np.full(n, 2619.0)
        temp_target = 31 + host_temp_off[h] + rng.normal(0, 0.6) + 0.049 * p
        temp = lag(temp_target, 15.0, 55.0) + rng.normal(0, 0.35, n)
        if h in DOWN:
            # cold start after the reboot
            ab = np.where(after_boot)[0]
            if len(ab):
                temp[ab] = lag(np.concatenate([[26.0], temp_target[ab][1:]]), 15.0, 55.0) + rng.normal(0, 0.35, len(ab))
        temp = np.round(temp)
        memtemp = np.round(temp + 6.5 + rng.normal(0, 0.4) + rng.normal(0, 0.3, n))
        # ---- memory ------------------------------------------------------------------
        used = np.zeros(n)
        fb_job = 66_400 + rng.integers(-900, 900)
        used[run | ck] = fb_job
        used[init] = rng.uniform(2000, fb_job, init.sum())
        used[none] = 0
        used = np.round(used)
        free = FB_TOTAL - FB_RES - used
        copy = np.zeros(n)
        copy[run] = 31 + rng.normal(0, 3, run.sum())
        copy[ck] = rng.uniform(0, 12, ck.sum())
        copy = np.clip(np.round(copy), 0, 100)
        # ---- counters ------------------------------------------------------------------
        dt = np.diff(np.concatenate([[tk[0] - 15], tk]))
        # energy since driver load (mJ)
        uptime0 = tk[0] - BOOT_OLD[h]
        e = np.cumsum(p * dt * 1000.0) + 455.0 * uptime0 * 1000.0
        if h in DOWN:
            ab = np.where(after_boot)[0]
            if len(ab):
                e_after = np.cumsum(p[ab] * dt[ab] * 1000.0)
                e_after = e_after - e_after[0] + p[ab[0]] * (tk[ab[0]] - BOOT_NEW[h] - 40) * 1000.0
                e[ab] = e_after
        nvl_rate = np.where(run, 1.62e11 * np.where(slk, 1 - SLOW, 1.0), 0.0) * (1 + rng.normal(0, 0.03, n))
        nvl_rate = np.where(init, 2e9, nvl_rate)
        nvl = np.cumsum(np.clip(nvl_rate, 0, None) * dt) / 1024.0 + rng.uniform(1e13, 4e13)
        if h in DOWN:
            ab = np.where(after_boot)[0]
            if len(ab):
                x = np.cumsum(np.clip(nvl_rate[ab], 0, None) * dt[ab]) / 1024.0
                nvl[ab] = x - x[0]
        replay0 = float(rng.choice([0, 0, 0, 0, 0, 0, 1, 3]))
        replay = np.full(n, replay0)
        if h in DOWN:
            replay[after_boot] = 0
        pcie_tx = np.where(run, 1.31e10 * np.where(slk, 1 - SLOW, 1.0), 0.0) * (1 + rng.normal(0, 0.05, n))
        pcie_rx = np.where(run, 1.36e10 * np.where(slk, 1 - SLOW, 1.0), 0.0) * (1 + rng.normal(0, 0.05, n))
        pcie_tx = np.where(init, rng.uniform(1e8, 4e9, n), pcie_tx)
        pcie_rx = np.where(init, rng.uniform(4e8, 9e9, n), pcie_rx)
        pcie_tx = np.where(ck, rng.uniform(2e9, 2.4e10, n), pcie_tx)  # D2H copies of the state
        pcie_tx = np.round(np.clip(pcie_tx, 0, None) + rng.uniform(2e5, 9e5, n))
        pcie_rx = np.round(np.clip(pcie_rx, 0, None) + rng.uniform(2e5, 9e5, n))

        for name, v in [
            ("DCGM_FI_DEV_SM_CLOCK", sm), ("DCGM_FI_DEV_MEM_CLOCK", memclk),
            ("DCGM_FI_DEV_MEMORY_TEMP", memtemp), ("DCGM_FI_DEV_GPU_TEMP", temp),
            ("DCGM_FI_DEV_POWER_USAGE", np.round(p, 3)),
            ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(e)),
            ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", replay),
            ("DCGM_FI_DEV_GPU_UTIL", util), ("DCGM_FI_DEV_MEM_COPY_UTIL", copy),
            ("DCGM_FI_DEV_ENC_UTIL", np.zeros(n)), ("DCGM_FI_DEV_DEC_UTIL", np.zeros(n)),
            ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n)),
            ("DCGM_FI_DEV_FB_FREE", free), ("DCGM_FI_DEV_FB_USED", used),
            ("DCGM_FI_DEV_FB_RESERVED", np.full(n, float(FB_RES))),
            ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl)),
            ("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", np.zeros(n)),
            ("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", np.zeros(n)),
            ("DCGM_FI_DEV_ROW_REMAP_FAILURE", np.zeros(n)),
            ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6)),
            ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6)),
            ("DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6)),
            ("DCGM_FI_PROF_PCIE_TX_BYTES", pcie_tx), ("DCGM_FI_PROF_PCIE_RX_BYTES", pcie_rx),
        ]:
            fam(name).add(lab, tk, v)

# ----------------------------------------------------------------------------------
# node_exporter (30 s)
# ----------------------------------------------------------------------------------
KREL = "5.15.0-105-generic"
KVER = "#115~20.04.1-Ubuntu SMP Mon Apr 15 17:33:04 UTC 2024"
BIOS_OLD = ("2.2.8", "05/21/2024", "2.2")
BIOS_NEW = ("2.3.5", "09/10/2024", "2.3")
MEMTOTAL = 2_112_917_913_600
CPU_MAX = 4.1e9
CPU_MIN = 8.0e8

for hi, h in enumerate(HOSTS):
    ts = scrape_times(30.0, node_phase[h])
    down = host_down(h, ts)
    inst = f"{h}:9100"
    base = {"instance": inst, "job": "node"}
    fam("up").add(base, ts, np.where(down, 0.0, 1.0))
    keep = ~down
    tk = ts[keep]
    n = len(tk)
    st = job_state(tk)
    slk = slow_phase(tk)
    faulty = h in FAULTY
    after_boot = tk >= DOWN[h][1] if h in DOWN else np.zeros(n, bool)
    bt = boot_time(h, tk)
    run = st == 1
    lowfreq = after_boot  # the two hosts after their BIOS reset + reimage: powersave
    dt = np.diff(np.concatenate([[tk[0] - 30], tk]))

    fam("node_boot_time_seconds").add(base, tk, bt)
    # uname / dmi
    fam("node_uname_info").add({**base, "nodename": h, "release": KREL, "version": KVER, "machine": "x86_64",
                                "sysname": "Linux", "domainname": "(none)"}, tk, np.ones(n))
    for sel, bios in [(~after_boot, BIOS_OLD), (after_boot, BIOS_NEW)]:
        if sel.any():
            fam("node_dmi_info").add({**base, "bios_date": bios[1], "bios_release": bios[2], "bios_vendor": "Dell Inc.",
                                      "bios_version": bios[0], "board_name": "0KK0RG", "board_vendor": "Dell Inc.",
                                      "product_name": "PowerEdge XE9680", "product_family": "PowerEdge",
                                      "system_vendor": "Dell Inc.", "chassis_vendor": "Dell Inc."}, tk[sel], np.ones(sel.sum()))

    # ---- CPU demand model ------------------------------------------------------------
    # busy logical CPUs (core-equivalents) on the host
    busy = np.full(n, 1.6) + rng.normal(0, 0.25, n) + 0.3 * host_busy_off[h]   # idle host: daemons, exporters
    busy[run] = 21.5 + host_busy_off[h] + rng.normal(0, 1.6, run.sum())   # 8 trainer procs + 64 dataloader workers @ ~21%
    busy[st == 2] = 9.5 + rng.normal(0, 1.0, (st == 2).sum())
    busy[st == 3] = 14 + rng.normal(0, 3, (st == 3).sum())
    if faulty:
        sel = run & slk
        busy[sel] = 71.0 + rng.normal(0, 2.5, sel.sum())     # workers saturated at ~0.95 GHz
    busy = np.clip(busy, 0.3, NCPU)
    # per-CPU share: cpus 0-7 carry the trainer main threads (pinned), the rest share workers
    w = np.ones(NCPU)
    w[:8] = 0.0
    w = w / w.sum()
    cpu_busy = np.empty((NCPU, n))
    main_busy = np.where(run | (st == 3), 0.97, np.where(st == 2, 0.6, 0.03))
    for c in range(NCPU):
        if c < 8:
            cpu_busy[c] = np.clip(main_busy + rng.normal(0, 0.02, n), 0, 1)
        else:
            rest = np.clip(busy - 8 * main_busy, 0.2, None)
            cpu_busy[c] = np.clip(rest * w[c] * rng.lognormal(0, 0.35, n), 0, 1)
    # ---- cpu seconds counters ----------------------------------------------------------
    uptime0 = tk[0] - bt[0]
    modes = ["idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"]
    for c in range(NCPU):
        b = cpu_busy[c]
        frac = {
            "user": b * 0.81,
            "system": b * 0.155,
            "softirq": b * 0.02 + 0.0015,
            "irq": np.full(n, 0.0004),
            "iowait": np.abs(rng.normal(0.0008, 0.0006, n)),
            "nice": np.zeros(n),
            "steal": np.zeros(n),
        }
        frac["idle"] = np.clip(1 - sum(frac.values()), 0, 1)
        # counters start from a plausible lifetime value, reset at the new boot
        for m in modes:
            inc = frac[m] * dt
            life_share = {"idle": 0.78, "user": 0.19, "system": 0.025, "softirq": 0.004, "irq": 0.0004,
                          "iowait": 0.0008, "nice": 0.00002, "steal": 0.0}[m]
            v = np.cumsum(inc) + life_share * uptime0 * rng.uniform(0.9, 1.1)
            if h in DOWN:
                ab = np.where(after_boot)[0]
                if len(ab):
                    x = np.cumsum(inc[ab])
                    v[ab] = x - x[0] + frac[m][ab[0]] * (tk[ab[0]] - BOOT_NEW[h]) * 0.6
            fam("node_cpu_seconds_total").add({**base, "cpu": str(c), "mode": m}, tk, np.floor(v * 100) / 100)
    # ---- cpufreq -----------------------------------------------------------------------------
    for c in range(NCPU):
        lab = {**base, "cpu": str(c)}
        f = 3.35e9 + 0.45e9 * cpu_busy[c] + rng.normal(0, 0.22e9, n)     # performance governor, HWP
        f = np.clip(f, 2.4e9, CPU_MAX)
        if h in DOWN:
            # powersave + BIOS-default EPB: held near the floor, brief climbs under load
            lf = lowfreq
            fl = CPU_MIN + np.abs(rng.normal(0, 0.06e9, n)) + 0.55e9 * cpu_busy[c] * rng.uniform(0.2, 0.7, n)
            fl = np.where(rng.random(n) < 0.35, CPU_MIN + rng.uniform(0, 3e6, n), fl)
            f = np.where(lf, np.clip(fl, CPU_MIN, 1.9e9), f)
        f = np.round(f / 1000) * 1000  # kHz resolution of scaling_cur_freq
        fam("node_cpu_scaling_frequency_hertz").add(lab, tk, f)
        fam("node_cpu_scaling_frequency_max_hertz").add(lab, tk, np.full(n, CPU_MAX))
        fam("node_cpu_scaling_frequency_min_hertz").add(lab, tk, np.full(n, CPU_MIN))
        fam("node_cpu_frequency_max_hertz").add(lab, tk, np.full(n, CPU_MAX))
        fam("node_cpu_frequency_min_hertz").add(lab, tk, np.full(n, CPU_MIN))
        perf = np.where(lowfreq, 0.0, 1.0)
        fam("node_cpu_scaling_governor").add({**lab, "governor": "performance"}, tk, perf)
        fam("node_cpu_scaling_governor").add({**lab, "governor": "powersave"}, tk, 1 - perf)
    # ---- load, procs, pressure, context switches -----------------------------------------------
    runnable = busy * rng.uniform(0.97, 1.06, n) + np.abs(rng.normal(0, 1.2, n))
    if faulty:
        sel = run & slk
        runnable[sel] = busy[sel] + 6 + np.abs(rng.normal(0, 3.0, sel.sum()))
    def load(tau):
        a = math.exp(-30.0 / tau)
        out = np.empty(n)
        acc = 0.0 if h in DOWN else runnable[:20].mean()
        acc = runnable[:20].mean()
        for i in range(n):
            if h in DOWN and i > 0 and after_boot[i] and not after_boot[i - 1]:
                acc = 0.9
            acc = acc * a + runnable[i] * (1 - a)
            out[i] = acc
        return np.round(out, 2)
    fam("node_load1").add(base, tk, load(60.0))
    fam("node_load5").add(base, tk, load(300.0))
    fam("node_load15").add(base, tk, load(900.0))
    fam("node_procs_running").add(base, tk, np.maximum(1, np.round(runnable * rng.uniform(0.55, 0.95, n))))
    fam("node_procs_blocked").add(base, tk, rng.choice([0, 0, 0, 0, 0, 1], n).astype(float))
    press_rate = 0.015 + 0.002 * busy
    if faulty:
        sel = run & slk
        press_rate[sel] = 0.55 + rng.normal(0, 0.08, sel.sum())
    press = np.cumsum(np.clip(press_rate, 0, None) * dt) + 0.02 * uptime0
    cs_rate = 22000 + 7400 * busy + rng.normal(0, 3000, n)
    if faulty:
        sel = run & slk
        cs_rate[sel] = 160000 + rng.normal(0, 9000, sel.sum())
    cs = np.cumsum(np.clip(cs_rate, 0, None) * dt) + 1.1e5 * uptime0
    if h in DOWN:
        ab = np.where(after_boot)[0]
        for arr, rate in ((press, press_rate), (cs, cs_rate)):
            x = np.cumsum(np.clip(rate[ab], 0, None) * dt[ab])
            arr[ab] = x - x[0] + rate[ab[0]] * (tk[ab[0]] - BOOT_NEW[h])
    fam("node_pressure_cpu_waiting_seconds_total").add(base, tk, np.round(press, 6))
    fam("node_context_switches_total").add(base, tk, np.round(cs))
    # ---- memory ----------------------------------------------------------------------------
    avail = np.where(run | (st == 2), 1.512e12, np.where(st == 3, 1.7e12, 1.93e12)) + smooth_noise(n, 4e9, 6)
    if h in DOWN:
        avail = np.where(after_boot & (st == 0), 2.04e12, avail)
    fam("node_memory_MemTotal_bytes").add(base, tk, np.full(n, float(MEMTOTAL)))
    fam("node_memory_MemAvailable_bytes").add(base, tk, np.round(avail / 4096) * 4096)
    # ---- temperatures (CPU packages) ---------------------------------------------------------
    for pk in (0, 1):
        pkg_busy = cpu_busy[pk * 64:(pk + 1) * 64].mean(axis=0)
        freqfac = np.where(lowfreq, 0.25, 1.0)
        tt = 36 + rng.normal(0, 1.0) + 52 * pkg_busy * freqfac + 6 * freqfac * (run | (st == 3))
        tt = lag(tt, 30.0, 60.0) + rng.normal(0, 0.6, n)
        fam("node_hwmon_temp_celsius").add({**base, "chip": f"platform_coretemp_{pk}", "sensor": "temp1"}, tk, np.round(tt))
    # ---- InfiniBand (8 x NDR rails) ------------------------------------------------------------
    for k in range(8):
        dev = f"mlx5_{k}"
        lab = {**base, "device": dev, "port": "1"}
        rate = np.where(run, 1.19e10 * np.where(slk, 1 - SLOW, 1.0), 0.0) * (1 + rng.normal(0, 0.04, n))
        rate = np.where(st == 3, 3e8, rate) + rng.uniform(2e4, 8e4, n)
        for nm in ("node_infiniband_port_data_received_bytes_total", "node_infiniband_port_data_transmitted_bytes_total"):
            r = np.clip(rate * rng.uniform(0.985, 1.015), 0, None)
            v = np.cumsum(r * dt) + rng.uniform(2e15, 9e15)
            if h in DOWN:
                ab = np.where(after_boot)[0]
                x = np.cumsum(r[ab] * dt[ab])
                v[ab] = x - x[0] + 4.1e7
            fam(nm).add(lab, tk, np.floor(v / 4) * 4)
        pk_rate = rate / 4096 * 1.04
        v = np.cumsum(pk_rate * dt) + rng.uniform(5e11, 2e12)
        if h in DOWN:
            ab = np.where(after_boot)[0]
            x = np.cumsum(pk_rate[ab] * dt[ab])
            v[ab] = x - x[0] + 1e4
        fam("node_infiniband_port_packets_transmitted_total").add(lab, tk, np.round(v))
        ld = 0.0 if h in DOWN else float(rng.choice([0, 0, 0, 1]))
        fam("node_infiniband_link_downed_total").add(lab, tk, np.full(n, ld))
        fam("node_infiniband_port_errors_received_total").add(lab, tk, np.zeros(n))
    # ---- front-end Ethernet, local NVMe ---------------------------------------------------------
    for nm, r0 in (("node_network_receive_bytes_total", 3.1e6), ("node_network_transmit_bytes_total", 1.4e6)):
        r = np.where(run, r0, 2.2e5) * rng.lognormal(0, 0.3, n)
        v = np.cumsum(r * dt) + r0 * uptime0 * 0.7
        if h in DOWN:
            ab = np.where(after_boot)[0]
            x = np.cumsum(r[ab] * dt[ab])
            v[ab] = x - x[0] + 3.3e8
        fam(nm).add({**base, "device": "bond0"}, tk, np.round(v))
    for d in ("nvme0n1", "nvme1n1", "nvme2n1"):
        lab = {**base, "device": d}
        rd = np.where(run, 2.3e6 * np.where(slk, 1 - SLOW, 1.0), 1e3) * rng.lognormal(0, 0.4, n)
        if d == "nvme0n1":
            rd = rng.lognormal(8, 1, n)  # OS disk
        ops = rd / 131072 + 0.05
        rt = ops * 0.00011
        io = ops * 0.00016
        for nm, r in (("node_disk_read_bytes_total", rd), ("node_disk_reads_completed_total", ops),
                      ("node_disk_read_time_seconds_total", rt), ("node_disk_io_time_seconds_total", io)):
            v = np.cumsum(r * dt) + r.mean() * uptime0
            if h in DOWN:
                ab = np.where(after_boot)[0]
                x = np.cumsum(r[ab] * dt[ab])
                v[ab] = x - x[0] + r[ab].mean() * 200
            if nm in ("node_disk_read_bytes_total", "node_disk_reads_completed_total"):
                v = np.round(v)
            else:
                v = np.round(v, 3)
            fam(nm).add(lab, tk, v)

# ----------------------------------------------------------------------------------
# write metrics
# ----------------------------------------------------------------------------------
if os.path.exists(OUT):
    shutil.rmtree(OUT)
os.makedirs(os.path.join(OUT, "metrics"))
os.makedirs(os.path.join(OUT, "logs", "syslog"))
mpath = os.path.join(OUT, "metrics", "prometheus-export-2025-05-20T0200Z-0630Z.parquet")
with pq.ParquetWriter(mpath, SCHEMA, compression="zstd", compression_level=6, write_statistics=True) as w:
    for name in sorted(FAMILIES):
        tb = FAMILIES[name].table()
        w.write_table(tb, row_group_size=max(1, tb.num_rows))
        FAMILIES[name].series = []  # free memory

# ----------------------------------------------------------------------------------
# trainer output (Slurm .out files)
# ----------------------------------------------------------------------------------
def ttl(ts):
    d = datetime.fromtimestamp(ts, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S,") + f"{d.microsecond // 1000:03d}"


def glog(ts):
    d = datetime.fromtimestamp(ts, UTC)
    return d.strftime("%m%d %H:%M:%S.") + f"{d.microsecond // 1000:03d}000"


PFX = "[rank0]:[titan] "


def titan(ts, msg, level="INFO"):
    return f"{PFX}{ttl(ts)} - root - {level} - {msg}"


def loss_at(stp):
    return 2.262 + 3.9e-6 * (45000 - stp)


def step_line(ts, stp, tps, mem="58.43GiB(73.94%)"):
    loss = loss_at(stp) + rng.normal(0, 0.035)
    gn = abs(0.27 + rng.normal(0, 0.04))
    tfl = tps * FLOP_PER_TOKEN / 1e12
    mfu = tfl * 1e12 / PEAK * 100
    return titan(ts, f"step: {stp:2}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: {mem}  tps: {round(tps):,}  tflops: {tfl:,.2f}  mfu: {mfu:.2f}%")


def emit_steps(job, lines):
    sel = np.where(STEP_J == job)[0]
    last_t = None
    last_s = None
    ck_by_step = {c[0]: c for c in ckpts if c[3] == job}
    for i in sel:
        s, tt = int(STEP_N[i]), float(STEP_T[i])
        if last_t is None:
            last_t = JOB2_TRAIN0 if job == 2 else JOB1_TRAIN0
            last_s = s - 1
        if s % 10 == 0:
            tps = (s - last_s) * TOK_PER_STEP_GPU / (tt - last_t)
            lines.append((tt + 0.002, step_line(tt + 0.002, s, tps)))
            last_t, last_s = tt, s
        if s in ck_by_step:
            c = ck_by_step[s]
            lines.append((c[1] + 0.01, titan(c[1] + 0.01, "Saving the checkpoint (or staging if async is enabled).")))
            lines.append((c[2], titan(c[2], f"Finished saving the checkpoint (or staging if async is enabled)in {c[2] - c[1]:.2f} seconds.")))
    return lines


def job_header(launch, train0, load_step, load0, load1, pid0):
    lines = []
    t = launch + 3.9
    for k, h in enumerate(HOSTS):
        pid = pid0 + 17 * k + int(rng.integers(0, 9))
        tt = t + rng.uniform(0, 0.9)
        g = glog(tt)
        lines.append((tt, f"W{g} {pid} torch/distributed/run.py:793]"))
        for msg in ["*****************************************",
                    "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
                    "*****************************************"]:
            lines.append((tt, f"W{g} {pid} torch/distributed/run.py:793] {msg}"))
    t0 = launch + 16.2
    seq = [
        (0.0, "Starting job: Llama 3 8B training"),
        (2.1, "Building 1-D device mesh with ['dp_shard'], [128]"),
        (2.2, "[GC] Initial GC collection. 0.00 seconds."),
        (2.3, "Building tiktoken tokenizer locally from ./assets/tokenizer/original/tokenizer.model"),
        (2.6, "TikTokenizer built: #words 128256, BOS ID 128000, EOS ID 128001"),
        (2.6, "Preparing c4 dataset from /lustre/datasets/c4"),
        (5.9, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"),
        (6.1, "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory"),
        (6.3, "Model llama3 8B size: 8,030,261,248 total parameters"),
        (6.4, "Applied selective activation checkpointing to the model"),
        (6.5, "Applied FSDP to the model"),
        (7.4, "Peak FLOPS used for computing MFU: 9.890e+14"),
        (7.4, "CUDA memory usage for model: 3.77GiB(4.77%)"),
        (7.6, "Checkpointing active. Checkpoints will be loaded from and saved to /lustre/ckpt/llama3-8b-c4/checkpoint"),
        (7.7, "Mixed precision training is handled by fully_shard"),
        (7.7, "Trainer is initialized with local batch size 2, global batch size 256, gradient accumulation steps 1, sequence length 8192, total steps 120000 (warmup 2000)."),
    ]
    for dtt, msg in seq:
        tt = t0 + dtt + rng.uniform(0, 0.08)
        lines.append((tt, titan(tt, msg)))
    lines.append((load0, titan(load0, f"Loading the checkpoint at step {load_step}.")))
    lines.append((load1 - 0.4, titan(load1 - 0.4, "[GC] GC collection for checkpoint loading. 0.41 seconds.")))
    lines.append((load1, titan(load1, f"Finished loading the checkpoint in {load1 - load0:.2f} seconds.")))
    lines.append((train0 - 0.3, titan(train0 - 0.3, f"Training starts at step {load_step + 1}.")))
    return lines


os.makedirs(os.path.join(OUT, "logs", "slurm"), exist_ok=True)
# --- job 2291734 (started the evening before; cancelled by the operators at 02:58) ---
lines = job_header(JOB1_LAUNCH, JOB1_TRAIN0, 31000, JOB1_LAUNCH + 53.6, JOB1_TRAIN0 - 4.1, 1870)
lines = emit_steps(1, lines)
lines.sort(key=lambda x: x[0])
out = [l for _, l in lines]
c = datetime.fromtimestamp(job1_cancel, UTC).strftime("%Y-%m-%dT%H:%M:%S")
out.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
out.append(f"slurmstepd: error: *** JOB 2291734 ON sjc2-gpu-041 CANCELLED AT {c} ***")
for k, h in enumerate(HOSTS[:4]):
    pid = 1870 + 17 * k + 3
    out.append(f"W{glog(job1_cancel + 0.05 + 0.013 * k)} {pid} torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death signal, shutting down workers")
    for r in range(2):
        out.append(f"W{glog(job1_cancel + 0.06 + 0.013 * k)} {pid} torch/distributed/elastic/multiprocessing/api.py:897] Sending process {pid + 41 + r} closing signal SIGTERM")
out.append(f"slurmstepd: error: *** STEP 2291734.0 ON sjc2-gpu-041 CANCELLED AT {c} ***")
with open(os.path.join(OUT, "logs", "slurm", "slurm-2291734.out"), "w") as f:
    f.write("\n".join(out) + "\n")

# --- job 2291980 (relaunch on the same 16 hosts) ---
lines = job_header(JOB2_LAUNCH, JOB2_TRAIN0, 43000, JOB2_CKPT_LOAD0, JOB2_CKPT_LOAD1, 2180)
lines = emit_steps(2, lines)
lines = [x for x in lines if x[0] <= E1 + 30]
lines.sort(key=lambda x: x[0])
with open(os.path.join(OUT, "logs", "slurm", "slurm-2291980.out"), "w") as f:
    f.write("\n".join(l for _, l in lines) + "\n")

# ----------------------------------------------------------------------------------
# syslog (central rsyslog, one file per host)
# ----------------------------------------------------------------------------------
def sy(ts):
    d = datetime.fromtimestamp(ts, UTC)
    return d.strftime("%b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S")


REAL_SOURCE = ("team-supersafe/hayek-validator-kit@c625b1982dca7c353a676937916498030c8df354:"
               "docs/validator-operations/hardware-tunning-info.md (lines 132-134, `systemctl status ondemand` "
               "output of an Ubuntu 20.04 host: 'Feb 28 18:37:14 v-sw01 systemd[1]: Started Set the CPU Frequency "
               "Scaling governor.' / 'Feb 28 18:37:19 v-sw01 set-cpufreq[1586]: Setting powersave scheduler for all "
               "CPUs' / 'Feb 28 18:37:19 v-sw01 systemd[1]: ondemand.service: Succeeded.')")


def kernel_boot_lines(h, bt):
    """Kernel ring buffer of a boot as rsyslog writes it when it starts (one syslog time, own uptimes)."""
    ks = []
    u = 0.0
    def k(msg, du):
        nonlocal u
        u += du
        ks.append((u, msg))
    k(f"Linux version {KREL} (buildd@lcy02-amd64-010) (gcc (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) {KVER} (Ubuntu 5.15.0-105.115~20.04.1-generic 5.15.148)", 0.0)
    k(f"Command line: BOOT_IMAGE=/vmlinuz-{KREL} root=UUID=4be0c6e1-7d29-4d57-9b7e-0c2f4d1a7e55 ro quiet splash vt.handoff=7", 0.0)
    k("KERNEL supported cpus:", 0.0)
    k("  Intel GenuineIntel", 0.0)
    k("  AMD AuthenticAMD", 0.0)
    k("x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'", 0.0)
    k("BIOS-provided physical RAM map:", 0.0)
    k(f"DMI: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS {BIOS_NEW[0]} {BIOS_NEW[1]}", 0.0)
    k("tsc: Detected 2800.000 MHz processor", 0.000012)
    k("ACPI: SRAT: Node 0 PXM 0 [mem 0x00000000-0x7fffffff]", 0.01)
    k("smpboot: Allowing 128 CPUs, 0 hotplug CPUs", 0.02)
    k(f"Kernel command line: BOOT_IMAGE=/vmlinuz-{KREL} root=UUID=4be0c6e1-7d29-4d57-9b7e-0c2f4d1a7e55 ro quiet splash vt.handoff=7", 0.05)
    k("Memory: 2063242840K/2146938500K available (16393K kernel code, 4398K rwdata, 10820K rodata, 3308K init, 18724K bss, 20834348K reserved, 0K cma-reserved)", 0.4)
    k("smpboot: CPU0: Intel(R) Xeon(R) Platinum 8462Y+ (family: 0x6, model: 0x8f, stepping: 0x8)", 0.6)
    k("smp: Brought up 2 nodes, 128 CPUs", 0.4)
    k("smpboot: Max logical packages: 2", 0.0)
    k("ACPI: Interpreter enabled", 0.3)
    k("PCI: Using host bridge windows from ACPI; if necessary, use \"pci=nocrs\" and report a bug", 0.01)
    k(f"rtc_cmos 00:01: setting system clock to {datetime.fromtimestamp(bt + 3.9, UTC).strftime('%Y-%m-%dT%H:%M:%S')} UTC ({int(bt + 3.9)})", 2.9)
    k("intel_pstate: Intel P-state driver initializing", 0.0004)
    k("intel_pstate: HWP enabled", 0.0011)
    k("ledtrig-cpu: registered to indicate activity on CPUs", 0.0001)
    k("Freeing unused kernel image (initmem) memory: 3308K", 0.5)
    k("Run /init as init process", 0.0001)
    k("mlx5_core 0000:1a:00.0: firmware version: 28.39.1002", 2.2)
    for j, bus in enumerate(["1a", "3c", "4d", "5e", "9c", "bc", "cc", "dc"]):
        k(f"mlx5_core 0000:{bus}:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)", 0.35)
    k("EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.", 1.2)
    k("systemd[1]: systemd 245.4-4ubuntu3.23 running in system mode. (+PAM +AUDIT +SELINUX +IMA +APPARMOR +SMACK +SYSVINIT +UTMP +LIBCRYPTSETUP +GCRYPT +GNUTLS +ACL +XZ +LZ4 +SECCOMP +BLKID +ELFUTILS +KMOD +IDN2 -IDN +PCRE2 default-hierarchy=hybrid)", 0.4)
    k(f"systemd[1]: Set hostname to <{h}>.", 0.02)
    k("nvidia: loading out-of-tree module taints kernel.", 3.1)
    k("nvidia: module license 'NVIDIA' taints kernel.", 0.0)
    k("nvidia-nvlink: Nvlink Core is being initialized, major device number 509", 0.02)
    k(f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Tue Jun  4 15:13:32 UTC 2024", 0.9)
    k("nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.90.07  Tue Jun  4 15:14:33 UTC 2024", 0.06)
    k("[drm] [nvidia-drm] [GPU ID 0x00001900] Loading driver", 0.02)
    k("mlx5_core 0000:1a:00.0 ibp26s0: renamed from ib0", 1.4)
    k("IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready", 2.0)
    return ks


PID_BASE = {h: int(rng.integers(1_150_000, 1_450_000)) for h in HOSTS}


def pidat(h, ts):
    """PIDs handed out on the host by time ts (monotonic within a boot, restart low after a reboot)."""
    if h in BOOT_NEW and ts >= DOWN[h][1]:
        return int(1900 + 11.0 * (ts - BOOT_NEW[h]) + rng.integers(0, 6))
    return int(PID_BASE[h] + 10.5 * (ts - (E0 - 1800)) + rng.integers(0, 6))


def write_syslog(h):
    rows = []  # (ts, text)
    def add(ts, prog, msg):
        rows.append((ts, f"{sy(ts)} {h} {prog}: {msg}"))
    start = E0 - 1800
    end = E1 + 60
    # cron every 10 min (sysstat) and hourly run-parts
    t = math.ceil(start / 600) * 600
    while t < end:
        if not (h in DOWN and DOWN[h][0] - 60 <= t < DOWN[h][1] + 120):
            add(t + rng.uniform(0.1, 0.9), f"CRON[{pidat(h, t)}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        t += 600
    t = math.ceil((start - 17 * 60) / 3600) * 3600 + 17 * 60
    while t < end:
        if not (h in DOWN and DOWN[h][0] - 60 <= t < DOWN[h][1] + 120):
            add(t + rng.uniform(0.1, 0.9), f"CRON[{pidat(h, t)}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
        t += 3600
    # slurmd around the job steps
    slurmd_pid = 2241 + HOSTS.index(h)
    add(job1_cancel + 33.1, f"slurmstepd[{PID_BASE[h] - 230517}]", "done with job")
    # operator session on the two hosts before the firmware work; other hosts: a monitoring check
    if h in DOWN:
        a, b = DOWN[h]
        add(a - 95, "systemd-logind[1811]", "New session 3712 of user ops-fw.")
        add(a - 95, "systemd[1]", "Started Session 3712 of user ops-fw.")
        add(a - 12.6, f"sudo[{pidat(h, a - 12.6)}]", "   ops-fw : TTY=pts/0 ; PWD=/home/ops-fw ; USER=root ; COMMAND=/usr/sbin/reboot")
        add(a - 12, "systemd[1]", "Stopping Session 3712 of user ops-fw.")
        add(a - 12, "systemd[1]", "Stopping Slurm node daemon...")
        add(a - 11, "systemd[1]", "slurmd.service: Succeeded.")
        add(a - 11, "systemd[1]", "Stopped Slurm node daemon.")
        add(a - 10, "systemd[1]", "Stopping NVIDIA DCGM service...")
        add(a - 9, "systemd[1]", "Stopped target Multi-User System.")
        add(a - 3, "rsyslogd", '[origin software="rsyslogd" swVersion="8.2001.0" x-pid="1402" x-info="https://www.rsyslog.com"] exiting on signal 15.')
        # new boot: kernel buffer flushed when rsyslog comes up
        bt = BOOT_NEW[h]
        rs_t = bt + 24.8
        rows.append((rs_t - 0.001, f"{sy(rs_t)} {h} rsyslogd: [origin software=\"rsyslogd\" swVersion=\"8.2001.0\" x-pid=\"1388\" x-info=\"https://www.rsyslog.com\"] start"))
        for (u, msg) in kernel_boot_lines(h, bt):
            rows.append((rs_t + u * 1e-9, f"{sy(rs_t)} {h} kernel: [{u:12.6f}] {msg}"))
        tt = rs_t
        sd = datetime.fromtimestamp(rs_t + 8.6, UTC).strftime("%a, %d %b %Y %H:%M:%S +0000")
        scf_pid = 1586 + HOSTS.index(h)
        for prog, msg, at in [
            ("systemd[1]", "Started Journal Service.", 0.05),
            ("systemd[1]", "Starting Flush Journal to Persistent Storage...", 0.15),
            ("systemd[1]", "Finished Flush Journal to Persistent Storage.", 0.31),
            ("systemd[1]", "Started Set the CPU Frequency Scaling governor.", 1.02),
            ("systemd[1]", "Starting NVIDIA Persistence Daemon...", 1.10),
            ("nvidia-persistenced[1730]", "Started (1730)", 1.52),
            ("systemd[1]", "Started NVIDIA Persistence Daemon.", 1.60),
            ("systemd[1]", "Starting NVIDIA fabric manager service...", 1.74),
            ("systemd[1]", "Started NVIDIA fabric manager service.", 5.31),
            ("systemd[1]", "Started NVIDIA DCGM service.", 5.90),
            (f"set-cpufreq[{scf_pid}]", "Setting powersave scheduler for all CPUs", 6.02),
            ("systemd[1]", "ondemand.service: Succeeded.", 6.02),
            ("systemd[1]", "Started Slurm node daemon.", 8.40),
            ("slurmd[2290]", "slurmd: slurmd version 23.02.7 started", 8.61),
            ("slurmd[2290]", f"slurmd: slurmd started on {sd}", 8.62),
            ("slurmd[2290]", "slurmd: CPUs=128 Boards=1 Sockets=2 Cores=32 Threads=2 Memory=2063712 TmpDisk=3665487 Uptime=33 CPUSpecList=(null) FeaturesAvail=(null) FeaturesActive=(null)", 8.63),
            ("systemd[1]", "Reached target Multi-User System.", 8.90),
            ("systemd[1]", "Startup finished in 1min 12.433s (firmware) + 8.104s (loader) + 6.931s (kernel) + 21.470s (userspace) = 1min 48.939s.", 9.01),
        ]:
            tt = rs_t + at
            rows.append((tt, f"{sy(tt)} {h} {prog}: {msg}"))
    else:
        # a benign kernel line on one host
        if h == "sjc2-gpu-044":
            rows.append((ep(4, 12, 37.2), f"{sy(ep(4, 12, 37.2))} {h} kernel: [{ep(4, 12, 37.2) - BOOT_OLD[h]:12.6f}] perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500"))
    add(JOB2_LAUNCH + 1.1, f"slurmd[{slurmd_pid if h not in DOWN else 2290}]", "slurmd: launch task StepId=2291980.0 request from UID:4102 GID:4100 HOST:10.20.0.10 PORT:41772")
    add(JOB2_LAUNCH + 1.2, f"slurmd[{slurmd_pid if h not in DOWN else 2290}]", "slurmd: task/affinity: lllp_distribution: JobId=2291980 implicit auto binding: cores,one_thread, dist 8192")
    # ssh health probe every 15 min by the monitoring system
    t = math.ceil(start / 900) * 900 + 41
    sess = int(rng.integers(3000, 3600))
    while t < end:
        if not (h in DOWN and DOWN[h][0] - 60 <= t < DOWN[h][1] + 120):
            sess += 1
            sp = pidat(h, t)
            add(t, f"sshd[{sp}]", f"Accepted publickey for nodecheck from 10.20.0.5 port {int(rng.integers(33000, 60999))} ssh2: ED25519 SHA256:Qm1c7l0m5d8eXyN4s2hQeKk3pQ9T2Vb6F0aZr8uYt1w")
            add(t + 0.02, f"sshd[{sp}]", "pam_unix(sshd:session): session opened for user nodecheck by (uid=0)")
            add(t + 0.03, "systemd-logind[1811]", f"New session {sess} of user nodecheck.")
            add(t + 1.4, f"sshd[{sp}]", "pam_unix(sshd:session): session closed for user nodecheck")
            add(t + 1.4, "systemd-logind[1811]", f"Session {sess} logged out. Waiting for processes to exit.")
            add(t + 1.41, "systemd-logind[1811]", f"Removed session {sess}.")
        t += 900
    rows.sort(key=lambda r: r[0])
    with open(os.path.join(OUT, "logs", "syslog", f"{h}.log"), "w") as f:
        for _, line in rows:
            f.write(line + "\n")


for h in HOSTS:
    write_syslog(h)

# ----------------------------------------------------------------------------------
# incident.yaml, truth.yaml
# ----------------------------------------------------------------------------------
incident = {
    "id": ID,
    "title": "Llama-3 8B pretraining on sjc2 slower after the 03:40 maintenance restart",
    "window": {"start": T0.isoformat(), "end": T1.isoformat()},
    "baseline": {"start": T0.isoformat(), "end": datetime(2025, 5, 20, 2, 50, tzinfo=UTC).isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "sjc2-h100", "nodes": NH, "gpus_per_node": NGPU, "gpu_model": "H100"},
    "signal_pack": "default",
    "trainer": {"gpus": NH * NGPU, "seq_length": 8192, "global_batch_size": 256},
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(incident, f, sort_keys=False)

tps_b = TPS0
tps_a = TPS1
truth = {
    "id": ID,
    "cause": ("After a vendor BIOS/firmware update that reset their BIOS to defaults (and came back with the base OS "
              "image, without the fleet's node tuning), sjc2-gpu-047 and sjc2-gpu-053 rejoined the job at the 03:41 "
              "restart with the intel_pstate 'powersave' governor set by Ubuntu's ondemand.service and cores held near "
              "the 800 MHz floor, so their dataloader workers could not keep up and the synchronous job ran ~7% slower."),
    "cause_metrics": [
        "node_cpu_scaling_frequency_hertz", "node_cpu_scaling_governor", "node_cpu_seconds_total",
        "node_load1", "node_pressure_cpu_waiting_seconds_total", "node_hwmon_temp_celsius",
        "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "node_dmi_info", "node_boot_time_seconds",
    ],
    "cause_log_evidence": [
        {"host": h, "file": f"logs/syslog/{h}.log", "lines": [
            "systemd[1]: Started Set the CPU Frequency Scaling governor.",
            f"set-cpufreq[{1586 + HOSTS.index(h)}]: Setting powersave scheduler for all CPUs",
            "systemd[1]: ondemand.service: Succeeded.",
        ], "source": REAL_SOURCE,
         "adapted": "host name, syslog time stamp and the set-cpufreq pid only"}
        for h in FAULTY
    ],
    "cause_log_evidence_note": ("No public kernel (cpufreq/intel_pstate/acpi-cpufreq) line says that a governor is "
                                "'powersave' or that cores are held at their minimum; the kernel lines on the rebooted "
                                "hosts ('intel_pstate: Intel P-state driver initializing', 'intel_pstate: HWP enabled', "
                                "the DMI line with the new BIOS 2.3.5) are ordinary boot lines any host prints. The only "
                                "log evidence is the stock ondemand.service's userspace message above."),
    "hosts": FAULTY,
    "gpu": None,
    "onset": ONSET.strftime("%Y-%m-%dT%H:%M:%SZ"),
    "onset_note": ("first training step of the relaunched job 2291980; the governor was set at boot "
                   "(sjc2-gpu-047 ~03:26:50, sjc2-gpu-053 ~03:29:10) while the job was stopped"),
    "job_throughput_loss_pct": round(100 * (1 - tps_a / tps_b), 1),
    "throughput": {"before_tps_per_gpu": round(tps_b), "after_tps_per_gpu": round(tps_a),
                   "source": "torchtitan 'tps' in logs/slurm/slurm-2291734.out and slurm-2291980.out"},
    "timeline": {
        "job_2291734_cancelled": datetime.fromtimestamp(job1_cancel, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "hosts_down": {h: [datetime.fromtimestamp(a, UTC).strftime("%H:%M:%SZ"), datetime.fromtimestamp(b, UTC).strftime("%H:%M:%SZ")] for h, (a, b) in DOWN.items()},
        "job_2291980_launched": datetime.fromtimestamp(JOB2_LAUNCH, UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    },
    "distractors": [
        "planned stop and restart (02:58-03:43): GPUs idle on every host, not a fault",
        "checkpoint stalls of ~30 s every 1000 steps",
        "sjc2-gpu-052 runs ~3.5 C warmer GPUs throughout (rack position)",
        "GPU power falls a few % on all hosts after the restart: the healthy ranks wait in NCCL for the two slow hosts",
        "the two rebooted hosts' counters (cpu seconds, IB bytes, GPU energy) restart from zero; BIOS 2.3.5 in node_dmi_info",
    ],
    "what_a_good_postmortem_says": (
        "From the 03:43 restart the job's tokens/s per GPU fell from ~6,840 to ~6,340 (about 7%) on every rank, "
        "and the only hosts that changed are sjc2-gpu-047 and sjc2-gpu-053, which came back from the firmware "
        "update with the powersave governor (ondemand.service logged 'Setting powersave scheduler for all CPUs'), "
        "cores at ~0.8-1.2 GHz instead of ~3.5 GHz, CPUs and load several times busier than their peers and GPUs "
        "idle ~9% of the time waiting for data while the other hosts' GPUs stayed busy (in NCCL waits). "
        "Set the governor back to performance (and restore the fleet's BIOS profile/node tuning) on both hosts, "
        "and add a governor/CPU-frequency check to the post-maintenance host validation before hosts rejoin jobs."),
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120)

print("wrote", OUT)
