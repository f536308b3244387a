#!/usr/bin/env python3
"""Generator for incident rack4-rdhx-cooling-2025-08-07 (fixed seed).

24 x (8 x H100 SXM) hosts in 6 racks of 4 (hgx-r1-n1 .. hgx-r6-n4) run one torchtitan
Llama-3-8B FSDP job (Slurm, srun --label, torchrun --local-ranks-filter 0).  At 10:05 UTC the
rear-door heat exchanger of rack r4 loses chilled-water flow: the inlet air of the four r4
hosts climbs ~20 C over ~25 min, their GPUs reach their max operating temperature and are
clocked down by SW thermal slowdown (a few HW thermal slowdown excursions on the hottest),
and because the job is synchronous every step waits for the slowest r4 GPU: the job loses
~9% until the water flow is restored at 11:05 and temperatures settle (~11:25).

Ordinary noise: checkpoints every 650 steps (~30 min) that stall training ~50 s (also in the
baseline hour); hgx-r2-n3 was rebooted the day before (its boot time / uptime differ);
neighbouring racks r3/r5 see ~1.5 C of recirculated heat; benign kernel lines.

Writes ./rack4-rdhx-cooling-2025-08-07/{incident.yaml,truth.yaml,metrics/*.om,logs/...}
Run:   /work/main/.venv/bin/python make_rack4-rdhx-cooling-2025-08-07.py
"""
import math
import os
import random
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import yaml

SEED = 20250807
rng = np.random.default_rng(SEED)
prng = random.Random(SEED)

ID = "rack4-rdhx-cooling-2025-08-07"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ID)
UTC = timezone.utc

T0 = datetime(2025, 8, 7, 9, 0, 0, tzinfo=UTC)
T1 = datetime(2025, 8, 7, 12, 0, 0, tzinfo=UTC)
SIM0 = datetime(2025, 8, 7, 8, 30, 47, tzinfo=UTC)   # training (re)starts at step 15601; simulate from here
SCRAPE = 30
NS = int((T1 - SIM0).total_seconds()) + 1
def rel(dt):
    return (dt - SIM0).total_seconds()

T_FAIL = datetime(2025, 8, 7, 10, 5, 0, tzinfo=UTC)      # RDHx on r4 loses water flow
T_FIX = datetime(2025, 8, 7, 11, 5, 0, tzinfo=UTC)       # flow restored

RACKS = 6
HOSTS = [f"hgx-r{r}-n{n}" for r in range(1, RACKS + 1) for n in range(1, 5)]
NH = len(HOSTS)
RACK = {h: int(h.split("-")[1][1:]) for h in HOSTS}
BAD_RACK = 4
BAD_HOSTS = [h for h in HOSTS if RACK[h] == BAD_RACK]
REBOOTED = "hgx-r2-n3"
GPU_MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.127.05"
GPU_BUS = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
           "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]

def uuid():
    h = "%032x" % prng.getrandbits(128)
    return f"GPU-{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"
UUIDS = [[uuid() for g in range(8)] for h in HOSTS]

# ---------------------------------------------------------------------------
# environment: inlet air per host (1 s)
# ---------------------------------------------------------------------------
t = np.arange(NS, dtype=float)
tf, tx = rel(T_FAIL), rel(T_FIX)
def rise(tau_up, tau_down, amp):
    y = np.zeros(NS)
    on = (t >= tf) & (t < tx)
    y[on] = amp * (1 - np.exp(-(t[on] - tf) / tau_up))
    peak = amp * (1 - math.exp(-(tx - tf) / tau_up))
    off = t >= tx
    y[off] = peak * np.exp(-(t[off] - tx) / tau_down)
    return y

inlet = np.zeros((NH, NS))
fan = np.zeros((NH, NS))
for i, h in enumerate(HOSTS):
    base = 22.3 + 0.35 * (RACK[h] - 3.5) * 0.3 + rng.normal(0, 0.45)
    slow = 0.4 * np.sin(2 * np.pi * t / 5400.0 + rng.uniform(0, 6))      # CRAC cycling
    x = base + slow + rng.normal(0, 0.12, NS)
    if RACK[h] == BAD_RACK:
        amp = 22.3 + rng.normal(0, 0.6) + (1.2 if h.endswith(("n2", "n3")) else 0.0)
        x = x + rise(560.0 + rng.normal(0, 30), 480.0, amp)
    elif abs(RACK[h] - BAD_RACK) == 1:
        x = x + rise(700.0, 400.0, 1.6 + rng.normal(0, 0.2))
    inlet[i] = x
    fan[i] = 11200 + 260 * (x - 22.3) + rng.normal(0, 60, NS)
    fan[i] = np.clip(fan[i], 9000, 16800)

# ---------------------------------------------------------------------------
# GPUs + job, simulated together at 1 s (GPU thermals <-> synchronous step time)
# ---------------------------------------------------------------------------
G = NH * 8
host_of = np.repeat(np.arange(NH), 8)
slot = np.tile(np.arange(8), NH)
t_off = rng.normal(0, 1.6, G) + np.array([0.0, 1.2, 2.0, 0.6, 0.4, 1.6, 2.4, 0.9])[slot]   # persistent per-GPU
p_full = 648 + rng.normal(0, 12, G)
p_idle = 72 + rng.normal(0, 2.5, G)
R = 0.0595 + rng.normal(0, 0.0015, G)            # C per W, die to air
TMAX_SW = 87.0                                    # GPU max operating temp -> SW thermal slowdown
THW = 88.7                                        # HW slowdown temp
COMP, EXPOSED = 2.457, 0.32                       # s of compute / exposed comm per step at full clock
MEMB = 0.30                                       # share of compute that does not scale with SM clock
TOK_STEP = 2 * 8192                               # local batch 2 x seq 8192 per GPU
CKPT_EVERY, CKPT_S = 650, 52.0
LOG_FREQ = 10
START_STEP = 15600                                # step count at SIM0 (resumed from checkpoint step-15600)

Tg = np.empty((G, NS), dtype=np.float32)
Tm = np.empty((G, NS), dtype=np.float32)
Ck = np.empty((G, NS), dtype=np.float32)
Pw = np.empty((G, NS), dtype=np.float32)
Ut = np.empty((G, NS), dtype=np.float32)
Ten = np.empty((G, NS), dtype=np.float32)
Rsn = np.zeros((G, NS), dtype=np.int32)           # clock event reasons bitmask
thermal_ns = np.zeros(G)
power_ns = np.zeros(G)
TV = np.empty((G, NS), dtype=np.float64)
PV = np.empty((G, NS), dtype=np.float64)

temp = inlet[host_of, 0] + 9.5 + t_off + R * p_full
mtemp = temp + 6.0
clk = np.full(G, 1980.0)
P = p_full.copy()
steps = float(START_STEP)
step_times = []        # (step, t_end)
in_ckpt_until = -1.0
ckpt_events = []       # (step, t_start, t_end)
speed_log = np.zeros(NS)
a_dec = 1 - math.exp(-1 / 55.0)
m_dec = 1 - math.exp(-1 / 80.0)
hw_left = np.zeros(G)
# step-time jitter: AR(1) (dataloader, NCCL, Python) plus rare slow seconds
jit = np.zeros(NS)
e = rng.normal(0, 0.006, NS)
for i in range(1, NS):
    jit[i] = 0.93 * jit[i - 1] + e[i]
jit += np.where(rng.random(NS) < 0.004, rng.uniform(0.1, 0.6, NS), 0.0)
for s in range(NS):
    inl = inlet[host_of, s]
    # --- job progress this second ---
    if s < in_ckpt_until:
        act = np.full(G, 0.03)
        step_time = None
    else:
        rel_speed = 1.0 / (MEMB + (1 - MEMB) * 1980.0 / np.maximum(clk, 200.0))
        step_time = (EXPOSED + COMP / rel_speed.min()) * (1.0 + jit[s])
        own = COMP / rel_speed
        act = np.clip(own / step_time, 0, 1) * 0.96 + 0.04
        prev = steps
        steps += 1.0 / step_time
        if int(steps) > int(prev):
            k = int(steps)
            step_times.append((k, s + (k - prev) * step_time))
            if k % CKPT_EVERY == 0:
                dur = CKPT_S * (1 + rng.normal(0, 0.04))
                ckpt_events.append((k, s + 1, s + 1 + dur))
                in_ckpt_until = s + 1 + dur
        speed_log[s] = 1.0 / step_time
    # --- power, thermals ---
    P = p_idle + (p_full - p_idle) * act * (clk / 1980.0) ** 2.2 + rng.normal(0, 7, G)
    tss = inl + 9.5 + t_off + R * P
    temp = temp + (tss - temp) * a_dec
    mtemp = mtemp + (tss + 4.0 + 0.1 * (tss - 60).clip(0) - mtemp) * m_dec
    # --- clock control (SW thermal slowdown holds the GPU at its max operating temp) ---
    reasons = np.zeros(G, dtype=np.int32)
    hot = temp > TMAX_SW
    clk = np.where(hot, clk - 3.5 * (temp - TMAX_SW + 0.3), clk)
    cool = temp < TMAX_SW - 1.5
    clk = np.where(cool, np.minimum(1980.0, clk + 6.0), clk)
    clk = np.clip(clk, 1110.0, 1980.0)
    sw = clk < 1979.0
    reasons |= np.where(sw & (s >= tf), 0x20, 0)
    # HW thermal slowdown: short excursions when the die crosses the slowdown temp
    start_hw = (temp >= THW) & (hw_left <= 0) & (rng.random(G) < 0.15)
    hw_left = np.where(start_hw, rng.integers(2, 7, G), hw_left - 1)
    hw = hw_left > 0
    clk_eff = np.where(hw, clk * 0.5, clk)
    reasons |= np.where(hw, 0x48, 0)
    # SW power cap at full load on the hungrier boards
    pc = (P > 612) & (rng.random(G) < 0.5)
    reasons |= np.where(pc, 0x4, 0)
    if step_time is None:
        reasons |= np.where(rng.random(G) < 0.7, 0x1, 0)
    thermal_ns += np.where(reasons & 0x60, 1e9, 0.0)
    power_ns += np.where(reasons & 0x4, 1e9 * rng.uniform(0.2, 0.8), 0.0)
    Tg[:, s] = temp
    Tm[:, s] = mtemp
    Ck[:, s] = clk_eff
    Pw[:, s] = P
    Ut[:, s] = np.clip(100 * act + rng.normal(0, 0.5, G), 0, 100) if step_time else rng.uniform(0, 12, G)
    Ten[:, s] = 0.455 * act * (clk_eff / 1980.0) * (1 + rng.normal(0, 0.01, G)) if step_time else 0.002
    Rsn[:, s] = reasons
    TV[:, s] = thermal_ns
    PV[:, s] = power_ns

# throughput summary (for truth)
step_arr = np.array(step_times)
def mean_step_time(a, b):
    sel = (step_arr[:, 1] >= rel(a)) & (step_arr[:, 1] < rel(b))
    x = step_arr[sel]
    return (x[-1, 1] - x[0, 1]) / (x[-1, 0] - x[0, 0])
# exclude checkpoint stalls from the per-step comparison
def pure_step_time(a, b):
    sel = (step_arr[:, 1] >= rel(a)) & (step_arr[:, 1] < rel(b))
    x = step_arr[sel]
    d = np.diff(x[:, 1])
    return float(np.median(d))
BASE_STEP = pure_step_time(T0, T0 + timedelta(minutes=60))
PLATEAU = pure_step_time(datetime(2025, 8, 7, 10, 40, tzinfo=UTC), datetime(2025, 8, 7, 11, 5, tzinfo=UTC))
LOSS = 100 * (1 - BASE_STEP / PLATEAU)
# first time the job is >=1% slower than baseline (smoothed over 2 min)
_nz = (speed_log > 0).astype(float)
sl = np.convolve(speed_log, np.ones(300), mode="same") / np.maximum(np.convolve(_nz, np.ones(300), mode="same"), 1.0)
base_speed = 1 / BASE_STEP
cand = np.where((t > tf) & (sl < base_speed * 0.98) & (sl > 0.5 * base_speed))[0]
THR_ONSET = SIM0 + timedelta(seconds=int(cand[0])) if len(cand) else None
_thr_any = ((Rsn & 0x60) != 0).any(axis=0)
CLK_BACK = SIM0 + timedelta(seconds=int(np.where(_thr_any)[0].max()) + 1)
_r4 = np.isin(host_of, [HOSTS.index(h) for h in BAD_HOSTS])
_base_t = Tg[_r4, int(rel(T0)):int(rel(T0)) + 3600].mean()
_mt = Tg[_r4].mean(axis=0)
TEMP_SETTLED = None
for _s in range(int(tx), NS - 300, 10):
    if abs(np.median(_mt[_s:_s + 300]) - _base_t) < 1.5:
        TEMP_SETTLED = SIM0 + timedelta(seconds=_s + 150)
        break
_thr = (Rsn & 0x20) != 0
CLK_P5, CLK_P50 = np.percentile(Ck[_thr], [5, 50])
HW_SECONDS = int(((Rsn & 0x40) != 0).sum())
HW_GPUS = sorted({(HOSTS[int(k) // 8], int(k) % 8) for k in np.where(((Rsn & 0x40) != 0).any(axis=1))[0]})
hot_gpus = []
for hi in range(NH):
    for g in range(8):
        k = hi * 8 + g
        thr = (Rsn[k] & 0x60) != 0
        if thr.sum() >= 60:
            hot_gpus.append((HOSTS[hi], g, float(np.percentile(Ck[k][thr], 5))))

# ---------------------------------------------------------------------------
# OpenMetrics writers
# ---------------------------------------------------------------------------
phase = {h: (rng.uniform(0, SCRAPE), rng.uniform(0, SCRAPE), rng.uniform(0, SCRAPE)) for h in HOSTS}
def scrape_idx(ph):
    ts = np.arange(rel(T0) + ph, rel(T1), SCRAPE) + rng.normal(0, 0.003, len(np.arange(rel(T0) + ph, rel(T1), SCRAPE)))
    return ts

EP0 = SIM0.timestamp()
def fmt_ts(ts):
    return ["%.3f" % (EP0 + x) for x in ts]

def lblstr(d):
    return "{" + ",".join(f'{k}="{v}"' for k, v in d.items()) + "}"

class OM:
    def __init__(self, path):
        self.f = open(path, "w")
    def family(self, name, typ, help_, series):
        """series: list of (sample_name, labels dict, ts array (rel s), values list of str)"""
        self.f.write(f"# HELP {name} {help_}\n# TYPE {name} {typ}\n")
        for sname, labels, ts, vals in series:
            l = lblstr(labels)
            tss = fmt_ts(ts)
            self.f.write("".join(f"{sname}{l} {v} {s}\n" for v, s in zip(vals, tss)))
    def close(self):
        self.f.write("# EOF\n")
        self.f.close()

def sample(arr, ts):
    return arr[np.clip(ts.astype(int), 0, NS - 1)]

def fint(x):
    return [str(int(round(v))) for v in x]

def write_dcgm(path):
    om = OM(path)
    fams = [
        ("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).", Ck, lambda v: fint(v)),
        ("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).", Tg, lambda v: fint(v + rng.normal(0, 0.3, len(v)))),
        ("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C).", Tm, lambda v: fint(v + rng.normal(0, 0.3, len(v)))),
        ("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", Pw, lambda v: ["%.3f" % x for x in v]),
        ("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", Ut, lambda v: fint(v)),
        ("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "gauge", "Current clock event reasons (bitmask of DCGM_CLOCKS_EVENT_REASON_*)", Rsn, lambda v: fint(v)),
        ("DCGM_FI_DEV_THERMAL_VIOLATION", "unknown", "Throttling duration due to thermal constraints (in ns).", TV, lambda v: fint(v)),
        ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", "Ratio of cycles the tensor (HMMA) pipe is active.", Ten, lambda v: ["%.6f" % max(0.0, x) for x in v]),
    ]
    scr = {h: scrape_idx(phase[h][0]) for h in HOSTS}
    for name, typ, hlp, arr, f in fams:
        series = []
        for hi, h in enumerate(HOSTS):
            ts = scr[h]
            for g in range(8):
                k = hi * 8 + g
                labels = {"gpu": str(g), "UUID": UUIDS[hi][g], "pci_bus_id": GPU_BUS[g], "device": f"nvidia{g}",
                          "modelName": GPU_MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER,
                          "instance": f"{h}:9400", "job": "dcgm-exporter"}
                series.append((name, labels, ts, f(sample(arr[k], ts).astype(float))))
        om.family(name, typ, hlp, series)
    om.close()

BOOT = {}
for h in HOSTS:
    if h == REBOOTED:
        BOOT[h] = datetime(2025, 8, 6, 15, 12, 7, tzinfo=UTC).timestamp() + 0.482
    else:
        BOOT[h] = (datetime(2025, 7, 14, 6, 0, tzinfo=UTC) + timedelta(hours=rng.uniform(0, 20))).timestamp()

def write_node(path):
    om = OM(path)
    scr = {h: scrape_idx(phase[h][1]) for h in HOSTS}
    # CPU package temperature: follows inlet; the r4 hosts get hot
    cpu_t = {}
    for hi, h in enumerate(HOSTS):
        for pk in range(2):
            base = 58.0 + 2.5 * pk + rng.normal(0, 1.5)
            gain = 1.3 + (0.42 if h in ("hgx-r4-n2", "hgx-r4-n3") else 0.0)
            cpu_t[(h, pk)] = base + gain * (inlet[hi] - 22.3) + rng.normal(0, 0.8, NS)
    series = []
    for h in HOSTS:
        series.append(("node_boot_time_seconds", {"instance": f"{h}:9100", "job": "node"}, scr[h], ["%.3f" % BOOT[h]] * len(scr[h])))
    om.family("node_boot_time_seconds", "gauge", "Node boot time, in unixtime.", series)
    series = []
    for h in HOSTS:
        series.append(("node_time_seconds", {"instance": f"{h}:9100", "job": "node"}, scr[h], ["%.3f" % (EP0 + x + rng.normal(0, 0.002)) for x in scr[h]]))
    om.family("node_time_seconds", "gauge", "System time in seconds since epoch (1970).", series)
    series = []
    for h in HOSTS:
        series.append(("node_uname_info", {"instance": f"{h}:9100", "job": "node", "domainname": "(none)", "machine": "x86_64",
                                           "nodename": h, "release": "5.15.0-126-generic", "sysname": "Linux",
                                           "version": "#136-Ubuntu SMP Wed Nov 6 10:38:22 UTC 2024"}, scr[h], ["1"] * len(scr[h])))
    om.family("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.", series)
    series = []
    for hi, h in enumerate(HOSTS):
        for pk in range(2):
            series.append(("node_hwmon_temp_celsius", {"instance": f"{h}:9100", "job": "node", "chip": f"platform_coretemp_{pk}", "sensor": "temp1"},
                           scr[h], ["%.0f" % v for v in sample(cpu_t[(h, pk)], scr[h])]))
    om.family("node_hwmon_temp_celsius", "gauge", "Hardware monitor for temperature (input)", series)
    series = []
    for hi, h in enumerate(HOSTS):
        for pk in range(2):
            hot = cpu_t[(h, pk)] > 88.5
            cnt = np.cumsum(hot * (rng.random(NS) < 0.03)) + int(rng.integers(0, 4))
            series.append(("node_cpu_package_throttles_total", {"instance": f"{h}:9100", "job": "node", "package": str(pk)},
                           scr[h], fint(sample(cnt.astype(float), scr[h]))))
    om.family("node_cpu_package_throttles", "counter", "Number of times this CPU package has been throttled.", series)
    series = []
    for hi, h in enumerate(HOSTS):
        ld = 21 + rng.normal(0, 1.5) + rng.normal(0, 1.2, NS)
        series.append(("node_load1", {"instance": f"{h}:9100", "job": "node"}, scr[h], ["%.2f" % max(0.5, v) for v in sample(ld, scr[h])]))
    om.family("node_load1", "gauge", "1m load average.", series)
    series = []
    for hi, h in enumerate(HOSTS):
        mem = 1.58e12 + rng.normal(0, 5e9) + rng.normal(0, 1.5e9, NS)
        series.append(("node_memory_MemAvailable_bytes", {"instance": f"{h}:9100", "job": "node"}, scr[h], ["%.7e" % v for v in sample(mem, scr[h])]))
    om.family("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.", series)
    series = []
    for h in HOSTS:
        for job, ph, port in (("node", phase[h][1], 9100), ("dcgm-exporter", phase[h][0], 9400)):
            ts = scrape_idx(ph)
            series.append(("up", {"instance": f"{h}:{port}", "job": job}, ts, ["1"] * len(ts)))
        ts = scrape_idx(phase[h][2])
        series.append(("up", {"instance": f"{h}-bmc.mgmt", "job": "ipmi", "node": h}, ts, ["1"] * len(ts)))
    om.family("up", "gauge", "Target is up.", series)
    om.close()
    return cpu_t

def write_ipmi(path):
    om = OM(path)
    scr = {h: scrape_idx(phase[h][2]) for h in HOSTS}
    exh = {}
    series_t, series_s = [], []
    for hi, h in enumerate(HOSTS):
        lb = {"instance": f"{h}-bmc.mgmt", "job": "ipmi", "node": h}
        gpu_p = Pw[hi * 8:(hi + 1) * 8].sum(axis=0)
        ex = inlet[hi] + 8.0 + gpu_p * 0.0046 + rng.normal(0, 0.4, NS)
        exh[h] = ex
        for sid, name, arr, warn, crit in (("4", "Inlet Temp", inlet[hi], 42.0, 47.0), ("5", "Exhaust Temp", ex, 70.0, 75.0)):
            v = sample(arr, scr[h])
            series_t.append(("ipmi_temperature_celsius", dict(lb, id=sid, name=name), scr[h], fint(v)))
            series_s.append(("ipmi_temperature_state", dict(lb, id=sid, name=name), scr[h],
                             ["2" if round(x) >= crit else ("1" if round(x) >= warn else "0") for x in v]))
    om.family("ipmi_temperature_celsius", "gauge", "Temperature reading in degree Celsius.", series_t)
    om.family("ipmi_temperature_state", "gauge", "Reported state of a temperature sensor (0=nominal, 1=warning, 2=critical).", series_s)
    series_f, series_fs = [], []
    for hi, h in enumerate(HOSTS):
        lb = {"instance": f"{h}-bmc.mgmt", "job": "ipmi", "node": h}
        for j in range(6):
            name = f"Fan{j + 1}"
            v = sample(fan[hi] * (1 + rng.normal(0, 0.02)) + rng.normal(0, 90, NS), scr[h])
            v = np.round(v / 120.0) * 120.0          # BMC reports in 120 RPM steps
            series_f.append(("ipmi_fan_speed_rpm", dict(lb, id=str(30 + j), name=name), scr[h], fint(v)))
            series_fs.append(("ipmi_fan_speed_state", dict(lb, id=str(30 + j), name=name), scr[h], ["0"] * len(v)))
    om.family("ipmi_fan_speed_rpm", "gauge", "Fan speed in rotations per minute.", series_f)
    om.family("ipmi_fan_speed_state", "gauge", "Reported state of a fan speed sensor (0=nominal, 1=warning, 2=critical).", series_fs)
    series = []
    for h in HOSTS:
        series.append(("ipmi_up", {"instance": f"{h}-bmc.mgmt", "job": "ipmi", "node": h, "collector": "ipmi"}, scr[h], ["1"] * len(scr[h])))
    om.family("ipmi_up", "gauge", "'1' if a scrape of the IPMI device was successful, '0' otherwise.", series)
    om.close()
    return exh

# ---------------------------------------------------------------------------
# logs
# ---------------------------------------------------------------------------
C = {"red": "\033[31m", "green": "\033[32m", "yellow": "\033[33m", "blue": "\033[34m",
     "magenta": "\033[35m", "cyan": "\033[36m", "reset": "\033[39m"}
JOBID = 2291544
JOB_START = datetime(2025, 8, 7, 8, 29, 41, tzinfo=UTC)
FLOPS_TOK = 5.79e10
PEAK = 9.89e14

def tt_ts(dt):
    return dt.strftime("%Y-%m-%d %H:%M:%S") + ",%03d" % (dt.microsecond // 1000)

def write_trainer(path):
    lines = []
    node_ip = {h: f"10.52.{RACK[h]}.{10 + int(h[-1])}" for h in HOSTS}
    lines.append(f"+ srun --label --kill-on-bad-exit=1 torchrun --nnodes 24 --nproc_per_node 8 --rdzv_id {JOBID} --rdzv_backend c10d --rdzv_endpoint {node_ip['hgx-r1-n1']}:29500 --local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train --job.config_file ./torchtitan/models/llama3/train_configs/llama3_8b.toml --training.local_batch_size 2 --training.seq_len 8192 --training.steps 60000 --checkpoint.enable_checkpoint --checkpoint.interval {CKPT_EVERY} --metrics.log_freq {LOG_FREQ}")
    def L(task, dt, msg, lvl="INFO"):
        lines.append((dt, f"{task:2d}: [rank0]:[titan] {tt_ts(dt)} - root - {lvl} - {msg}"))
    boot = []
    for task, h in enumerate(HOSTS):
        d0 = SIM0 - timedelta(seconds=42.3 + rng.uniform(0, 0.4))
        L(task, d0, "Starting job: Llama 3 8B training")
        L(task, d0 + timedelta(seconds=0.41), "Building 1-D device mesh with ['dp_shard'], [192]")
        L(task, d0 + timedelta(seconds=0.43), "[GC] Initial GC collection. 0.00 seconds.")
        L(task, d0 + timedelta(seconds=2.2), "Loading tokenizer from tokenizer.model")
        L(task, d0 + timedelta(seconds=2.5), "Preparing c4 dataset from /datasets/c4")
        L(task, d0 + timedelta(seconds=9.8), "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
        L(task, d0 + timedelta(seconds=10.1), f"CUDA capacity: {GPU_MODEL} with 79.11GiB memory")
        L(task, d0 + timedelta(seconds=10.2), f"{C['blue']}Model llama3 8B {C['red']}size: 8,030,261,248 total parameters{C['reset']}")
        L(task, d0 + timedelta(seconds=10.6), "Applied selective activation checkpointing to the model")
        L(task, d0 + timedelta(seconds=11.0), "Compiling each TransformerBlock with torch.compile")
        L(task, d0 + timedelta(seconds=11.3), "Applied FSDP to the model")
        L(task, d0 + timedelta(seconds=12.9), "Peak FLOPS used for computing MFU: 9.890e+14")
        L(task, d0 + timedelta(seconds=12.9), "CUDA memory usage for model: 3.78GiB(4.78%)")
        L(task, d0 + timedelta(seconds=13.0), "Checkpointing active. Checkpoints will be loaded from and saved to /vast/ckpt/llama3-8b-c4-v7/checkpoint")
        L(task, d0 + timedelta(seconds=13.1), "Trainer is initialized with local batch size 2, global batch size 384, gradient accumulation steps 1, sequence length 8192, total steps 60000 (warmup 2000).")
        L(task, d0 + timedelta(seconds=13.2), "Loading the checkpoint from /vast/ckpt/llama3-8b-c4-v7/checkpoint/step-15600.")
        L(task, d0 + timedelta(seconds=41.9), "[GC] GC collection for checkpoint loading. 0.02 seconds.")
        L(task, d0 + timedelta(seconds=41.9), "Finished loading the checkpoint in 28.71 seconds.")
        L(task, d0 + timedelta(seconds=42.0), "Training starts at step 15601.")
    # simulated steps before SIM0 are not kept; steps inside the simulation drive the log
    loss0 = 2.412
    ck_by_step = {k: (a, b) for k, a, b in ckpt_events}
    prev = {}
    for k, te in step_times:
        dt = SIM0 + timedelta(seconds=te)
        if k % 50 == 0:
            for task in range(NH):
                L(task, dt + timedelta(milliseconds=rng.uniform(1, 40)), f"[GC] Peforming periodical GC collection. {rng.choice([0.03, 0.04, 0.04, 0.05, 0.06]):.2f} seconds.")
        if k % LOG_FREQ == 0:
            loss = loss0 - (k - 15600) * 6.5e-6 + rng.normal(0, 0.022)
            if k in prev:
                pass
            for task in range(NH):
                t_last = prev.get(task)
                d = dt + timedelta(milliseconds=rng.uniform(2, 60))
                if t_last is not None:
                    delta = (d - t_last).total_seconds()
                    tps = TOK_STEP * LOG_FREQ / delta
                    tfl = FLOPS_TOK * tps / 1e12
                    mfu = 100 * FLOPS_TOK * tps / PEAK
                    mem = 58.43 + (0.02 if task % 3 == 0 else 0.0)
                    L(task, d, f"{C['red']}step: {k:2}  {C['green']}loss: {loss:7.4f}  {C['yellow']}memory: {mem:5.2f}GiB({mem / 79.11 * 100:.2f}%)  {C['blue']}tps: {round(tps):,}  {C['cyan']}tflops: {tfl:,.2f}  {C['magenta']}mfu: {mfu:.2f}%{C['reset']}")
                prev[task] = d
        if k in ck_by_step:
            a, b = ck_by_step[k]
            L(0, SIM0 + timedelta(seconds=a), "Saving the checkpoint (or staging if async is enabled).")
            L(0, SIM0 + timedelta(seconds=b), f"Finished saving the checkpoint (or staging if async is enabled)in {b - a:.2f} seconds.")
    hdr = [x for x in lines if isinstance(x, str)]
    body = sorted([x for x in lines if not isinstance(x, str)], key=lambda x: x[0])
    # the job is still running at the end of the window
    with open(path, "w") as f:
        f.write("\n".join(hdr) + "\n")
        f.write("\n".join(s for _, s in body) + "\n")

def write_kernel(cpu_t):
    base = os.path.join(OUT, "logs")
    start = T0 - timedelta(minutes=30)
    for hi, h in enumerate(HOSTS):
        d = os.path.join(base, h)
        os.makedirs(d, exist_ok=True)
        ents = []
        tt = start + timedelta(seconds=prng.uniform(0, 2500))
        while tt < T1:
            r = prng.random()
            if r < 0.5:
                a = prng.randint(2505, 4300)
                msg = f"perf: interrupt took too long ({a} > {a - prng.randint(3, 700)}), lowering kernel.perf_event_max_sample_rate to {prng.choice([79750, 63750, 50750, 47750, 39750])}"
            elif r < 0.8:
                msg = (f"audit: type=1400 audit({tt.timestamp():.3f}:{prng.randint(300, 9000)}): apparmor=\"DENIED\" operation=\"capable\" "
                       f"class=\"cap\" profile=\"/usr/sbin/cupsd\" pid={prng.randint(1500, 4000)} comm=\"cupsd\" capability=12  capname=\"net_admin\"")
            else:
                msg = f"nfs: server vast-vip{prng.randint(1, 8)}.stor OK"
                if prng.random() < 0.999:
                    msg = f"TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters." if prng.random() < 0.3 else f"IPv4: martian source 10.52.{RACK[h]}.{prng.randint(11, 14)} from 10.52.0.1, on dev bond0"
            ents.append((tt, msg))
            tt += timedelta(seconds=prng.expovariate(1 / 2600.0))
        # CPU thermal throttling on the two hottest r4 hosts (real lines, LKML 2022-06-02, Arnd Bergmann)
        if h in ("hgx-r4-n2", "hgx-r4-n3"):
            pk0 = cpu_t[(h, 0)]
            idx = np.where(pk0 > 90.0)[0]
            if len(idx):
                first = SIM0 + timedelta(seconds=int(idx[0]) + prng.uniform(0, 5))
                last = SIM0 + timedelta(seconds=int(idx[-1]) + prng.uniform(20, 60))
                ents.append((first, "CPU11: Core temperature is above threshold, cpu clock is throttled (total events = 3)"))
                ents.append((last, "CPU11: Core temperature/speed normal (total events = 42)"))
                ents.append((last, "CPU23: Core temperature/speed normal (total events = 42)"))
        ents.sort(key=lambda e: e[0])
        jb = datetime(2025, 6, 30, 2, 11, 37, tzinfo=UTC) if h != REBOOTED else datetime(2025, 7, 2, 4, 55, 12, tzinfo=UTC)
        with open(os.path.join(d, "journalctl-k.txt"), "w") as f:
            f.write(f"-- Journal begins at {jb.strftime('%a %Y-%m-%d %H:%M:%S')} UTC, ends at {(T1 + timedelta(minutes=7, seconds=13)).strftime('%a %Y-%m-%d %H:%M:%S')} UTC. --\n")
            for tt, msg in ents:
                f.write(f"{tt.strftime('%b %d %H:%M:%S')} {h} kernel: {msg}\n")

def write_yaml(exh):
    inc = {
        "id": ID,
        "title": "llama3-8b-c4-v7 throughput dip mid-morning 2025-08-07",
        "window": {"start": T0.isoformat(), "end": T1.isoformat()},
        "baseline": {"start": T0.isoformat(), "end": (T0 + timedelta(hours=1)).isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "orca", "nodes": NH, "gpus_per_node": 8, "gpu_model": "H100"},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    worst = sorted(hot_gpus, key=lambda x: x[2])[:6]
    truth = {
        "id": ID,
        "cause": ("The rear-door heat exchanger of rack r4 lost chilled-water flow at 10:05Z, so the inlet air of the four r4 hosts "
                  "rose ~20 C within ~25 min, their GPUs reached their 87 C max operating temperature and were clocked down by SW "
                  "(and briefly HW) thermal slowdown, and the synchronous FSDP job ran at the pace of the slowest r4 GPU until the "
                  "flow was restored at 11:05Z."),
        "cause_metrics": ["ipmi_temperature_celsius (name=\"Inlet Temp\", \"Exhaust Temp\")", "ipmi_fan_speed_rpm",
                          "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS",
                          "DCGM_FI_DEV_THERMAL_VIOLATION", "DCGM_FI_DEV_SM_CLOCK", "node_hwmon_temp_celsius",
                          "node_cpu_package_throttles_total"],
        "effect_metrics": ["torchtitan tps / tflops / mfu (logs/slurm-%d.out)" % JOBID, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
                           "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_UTIL (non-r4 GPUs wait)"],
        "cause_log_evidence": [
            {"text": "CPU11: Core temperature is above threshold, cpu clock is throttled (total events = 3)",
             "file": "logs/hgx-r4-n2/journalctl-k.txt, logs/hgx-r4-n3/journalctl-k.txt",
             "source": "LKML, Arnd Bergmann, 2022-06-02, 'x86/mce/therm_throt incorrect THERM_STATUS_CLEAR_CORE_MASK?', "
                       "https://lore.kernel.org/all/CAK8P3a1mkHEjRJgJPsRy+kuN=48=JEDJAeR2z9n+O71qbJ8hSA@mail.gmail.com/ "
                       "(May 31 13:57:59 kernel: [15517.333445] CPU11: Core temperature is above threshold, cpu clock is throttled (total events = 3))",
             "adapted": "host, timestamp (journalctl -k short format drops the [uptime])"},
            {"text": "CPU11: Core temperature/speed normal (total events = 42)",
             "file": "logs/hgx-r4-n2/journalctl-k.txt, logs/hgx-r4-n3/journalctl-k.txt",
             "source": "same LKML message ([177765.371180] CPU11: Core temperature/speed normal (total events = 42))",
             "adapted": "host, timestamp"},
            {"text": "CPU23: Core temperature/speed normal (total events = 42)",
             "file": "logs/hgx-r4-n2/journalctl-k.txt, logs/hgx-r4-n3/journalctl-k.txt",
             "source": "same LKML message ([177765.371180] CPU23: Core temperature/speed normal (total events = 42))",
             "adapted": "host, timestamp"},
        ],
        "log_evidence_note": ("The NVIDIA driver logs nothing for GPU thermal slowdown, so the GPU side is visible only in the "
                              "DCGM metrics; the CPU lines are secondary (2 of the 4 r4 hosts). torchtitan, kernel-noise and "
                              "'-- Journal begins' lines are generated from the programs' format strings (torchtitan v0.1.0 "
                              "metrics.py/checkpoint.py/train.py, systemd 249 journalctl), not copied."),
        "hosts": BAD_HOSTS,
        "gpu": None,
        "gpus_throttled": [{"host": h, "gpu": g, "p5_sm_clock_mhz_while_throttled": round(c)} for h, g, c in sorted(hot_gpus)],
        "hottest_gpus": [{"host": h, "gpu": g, "p5_sm_clock_mhz_while_throttled": round(c)} for h, g, c in worst],
        "hw_slowdown_gpus": [{"host": h, "gpu": g} for h, g in HW_GPUS],
        "onset": T_FAIL.isoformat().replace("+00:00", "Z"),
        "onset_notes": (f"inlet of r4 starts rising at 10:05Z; first GPUs reach 87 C and SW thermal slowdown starts ~10:14Z; "
                        f"job throughput >=2% below baseline (5-min mean) from {THR_ONSET.strftime('%H:%M:%S')}Z; flow restored 11:05Z; "
                        f"last thermal clock event {CLK_BACK.strftime('%H:%M:%S')}Z; r4 GPU temperatures back within 1.5 C of baseline "
                        f"at {TEMP_SETTLED.strftime('%H:%M:%S')}Z."),
        "end": T_FIX.isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": round(LOSS, 1),
        "throughput_numbers": {"baseline_s_per_step": round(BASE_STEP, 3), "plateau_s_per_step_10:40-11:05Z": round(PLATEAU, 3),
                               "baseline_tps_per_gpu": round(TOK_STEP / BASE_STEP), "plateau_tps_per_gpu": round(TOK_STEP / PLATEAU)},
        "what_a_good_postmortem_says": (
            "From about %s to %s the whole job lost up to ~%.0f%% of its throughput because the four hosts of rack r4 "
            "(hgx-r4-n1..n4) overheated: their BMC inlet temperature rose from ~23 C to 45-48 C after 10:05Z, their GPUs hit 87 C "
            "and reported SW thermal slowdown (clock event reason 0x20; %d s of 0x48 HW thermal slowdown on %d GPU(s)) with SM clocks "
            "down to ~%d MHz (median %d MHz while throttled), "
            "and every synchronous step waited for them. The cause is rack-level cooling (the r4 rear-door heat exchanger lost "
            "water flow until 11:05Z), not the GPUs: other racks stayed at 22-24 C inlet, and the ~1 min dips every ~30 min are "
            "checkpoints present in the baseline too; facilities should alarm on per-rack inlet temperature." %
            (THR_ONSET.strftime("%H:%MZ"), CLK_BACK.strftime("%H:%MZ"), LOSS, HW_SECONDS, len(HW_GPUS), round(CLK_P5, -1), round(CLK_P50, -1))),
        "benign_noise": ["checkpoint saves every 650 steps (~30 min, ~50 s stall, also in the baseline hour)",
                         f"{REBOOTED} rebooted the day before (node_boot_time_seconds = 2025-08-06T15:12:07Z; uptime ~1 day vs ~24 days elsewhere)",
                         "racks r3 and r5 inlet +1.5 C from recirculation (no throttling)",
                         "SW power cap (0x4) clock events at full load on several boards throughout",
                         "benign kernel lines (perf sample rate, AppArmor, martian source, SYN cookies on the rendezvous port)"],
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140)

def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    write_dcgm(os.path.join(OUT, "metrics", "dcgm-exporter.om"))
    cpu_t = write_node(os.path.join(OUT, "metrics", "node-exporter.om"))
    exh = write_ipmi(os.path.join(OUT, "metrics", "ipmi-exporter.om"))
    write_trainer(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"))
    write_kernel(cpu_t)
    write_yaml(exh)
    print("baseline step %.3f s, plateau %.3f s, loss %.1f%%, throughput onset %s" % (BASE_STEP, PLATEAU, LOSS, THR_ONSET))
    print("throttled GPUs:", len(hot_gpus), sorted(hot_gpus, key=lambda x: x[2])[:5])

if __name__ == "__main__":
    main()
