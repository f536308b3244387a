#!/usr/bin/env python3
"""Generate the incident folder `thermal-paste-hw-slowdown` beside this script.

A 24-node x 8 H100 synchronous Megatron-LM job (TP=2, DP=96).  GPU 6 of gpu-r08-n05 has
dried-out thermal interface material: under load it runs ~10-11 C hotter than its
peers.  In the early afternoon the data hall's inlet air warms by ~2 C and from then on
the GPU reaches its slowdown temperature at the top of every cooling cycle: the driver
enters SW thermal slowdown and, at the peaks, HW thermal slowdown, clipping its SM clock
for seconds to minutes.  Every rank of the synchronous job waits for it, so the whole
job loses about 2% over the 5-hour window.  No log line mentions it.

Metrics layout (different from the other incident): dcgm-exporter 3.1 (pre-rename field
DCGM_FI_DEV_CLOCK_THROTTLE_REASONS, no pci_bus_id label) as one Parquet file per host,
rows in scrape order; node_exporter as one OpenMetrics text file, targets by IP address.
Fixed seed: the output is the same on every run.
"""
from __future__ import annotations

import datetime as dt
import math
import os
import shutil

import numpy as np
import polars as pl
import yaml

ID = "thermal-paste-hw-slowdown"
SEED = 7_18_2024
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ID)
rng = np.random.default_rng(SEED)
UTC = dt.timezone.utc


def ts(s):
    return dt.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def dtu(t):
    return dt.datetime.fromtimestamp(t, UTC)


def iso(t):
    return dtu(t).strftime("%Y-%m-%dT%H:%M:%SZ")


# ------------------------------------------------------------------------------------
# inventory
# ------------------------------------------------------------------------------------
HOSTS = [f"gpu-r{r:02d}-n{n:02d}" for r in (7, 8, 9) for n in range(1, 9)]
BAD_HOST, BAD_GPU = "gpu-r08-n05", 6
IP = {h: f"10.31.{int(h[5:7])}.{10 + int(h[-2:])}" for h in HOSTS}
MODEL = "NVIDIA H100 80GB HBM3"
NG = 8
NH = len(HOSTS)


def uuid():
    s = "".join("0123456789abcdef"[x] for x in rng.integers(0, 16, 32))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


UUIDS = {(h, g): uuid() for h in HOSTS for g in range(NG)}
BOOT = {h: ts("2024-07-09T06:00:00Z") + float(rng.uniform(0, 3 * 86400)) for h in HOSTS}

WIN_START, WIN_END = ts("2024-07-18T12:30:00Z"), ts("2024-07-18T17:30:00Z")
M_START, M_END = WIN_START - 600, WIN_END + 600
JOB_START = ts("2024-07-18T11:52:06Z")
JOBID = 771204
SIM0 = JOB_START
GRID = np.arange(SIM0, M_END + 60, 1.0)
NT = GRID.size

# ------------------------------------------------------------------------------------
# environment: inlet air (CRAH cycling + afternoon warm-up) and per-GPU personalities
# ------------------------------------------------------------------------------------
tt = GRID - GRID[0]
RISE_MID = ts("2024-07-18T13:38:00Z")
inlet = (22.0 + 0.75 * np.sin(2 * np.pi * tt / 1330.0 + 0.6)
         + 2.5 / (1 + np.exp(-(GRID - RISE_MID) / 420.0)))
# slow, small random drift common to the row
drift = np.cumsum(rng.normal(0, 0.012, NT))
drift -= np.convolve(drift, np.ones(1801) / 1801, mode="same")
inlet = inlet + 0.6 * drift

G_BASE = rng.normal(0, 1.1, (NH, NG)) + np.array([0, 0.4, 1.2, 1.8, 1.6, 1.1, 0.5, 0.0])[None, :]
H_BASE = rng.normal(0, 1.0, NH)
PEER_RISE = 41.0
BAD_EXTRA = 10.0
G_RISE = PEER_RISE + rng.normal(0, 1.1, (NH, NG))    # load-to-idle rise, C
bi = HOSTS.index(BAD_HOST)
G_RISE[bi, BAD_GPU] = PEER_RISE + BAD_EXTRA          # dried TIM: ~+10 C at full load
G_BASE[bi, BAD_GPU] = G_BASE[bi].mean() + 0.4        # idle: barely different
G_POW = 640 + rng.normal(0, 16, (NH, NG))
G_CAPPED = rng.random((NH, NG)) < 0.28
G_CAPPED[bi, BAD_GPU] = False

# ------------------------------------------------------------------------------------
# job load per second (1 = training, 0.15 = checkpoint save); filled by the trainer sim
# ------------------------------------------------------------------------------------
ITER_BASE = 4.952
LOG_INTERVAL = 10
SAVE_INTERVAL = 500
START_ITER = 61000
TRAIN_ITERS = 250000
GBS, SEQ = 1152, 4096
FLOPS_ITER = 3.951e17
WORLD = NH * NG
T_TRAIN0 = ts("2024-07-18T11:56:31Z")

# bad GPU thermal/clock dynamics, per second ----------------------------------------
SLOW_T, HW_T = 87.0, 89.0
FANK = 1.5
SWK = 0.04
HWTH = 1.2
fan_walk = np.cumsum(rng.normal(0, 0.035, NT))
fan_walk -= np.convolve(fan_walk, np.ones(601) / 601, mode="same")


def lag1(x, tau):
    a = 1.0 - math.exp(-1.0 / tau)
    y = np.empty_like(x)
    acc = x[0]
    for i in range(x.size):
        acc += a * (x[i] - acc)
        y[i] = acc
    return y


def bad_gpu_dynamics(load):
    """Return clock factor f, reason bitmask, reported temp, thermal-throttled flag per second."""
    heat = lag1(load, 50.0)
    # local fluctuation: fan-speed hunting (minutes) and per-phase power swings (tens of seconds)
    ar = lag1(rng.normal(0, 1.0, NT), 18.0)
    ar *= 0.75 / ar.std()
    t_un = 30.5 + H_BASE[bi] + G_BASE[bi, BAD_GPU] + heat * G_RISE[bi, BAD_GPU] + (inlet - 22.0) + FANK * fan_walk + ar
    t_un = t_un + rng.normal(0, 0.25, NT)
    f = np.ones(NT)
    reasons = np.zeros(NT, dtype=np.int64)
    temp = t_un.copy()
    exc = t_un - SLOW_T
    sw = exc > 0
    f = np.where(sw, 1.0 - 0.03 - SWK * exc - rng.uniform(0, 0.02, NT), f)
    reasons = np.where(sw, 0x20, reasons)
    # HW thermal slowdown when the controller cannot hold it: above ~88.7 C unthrottled
    p_hw = np.clip((exc - HWTH) / 1.4, 0, 1) * 0.75
    hw = rng.random(NT) < p_hw
    # HW slowdown episodes last a few seconds: dilate
    for k in (1, 2, 3):
        hw[k:] |= hw[:-k] & (rng.random(NT - k) < 0.55)
    f = np.where(hw, rng.uniform(0.46, 0.62, NT), f)
    reasons = np.where(hw, 0x20 | 0x40 | 0x08, reasons)
    temp = np.where(sw, SLOW_T + 0.55 * np.sqrt(np.clip(exc, 0, None)) + rng.normal(0, 0.3, NT), temp)
    temp = np.where(hw, HW_T + rng.uniform(0, 0.9, NT), temp)
    f = np.clip(f, 0.45, 1.0)
    return f, reasons, temp, (sw | hw), t_un


def simulate(load):
    f, reasons, temp, thr, t_un = bad_gpu_dynamics(load)
    # the step waits for the slowest GPU: compute part scales with 1/f, comm does not
    m = 0.13 + 0.87 / f
    cm = np.concatenate([[0.0], np.cumsum(m)])
    t = T_TRAIN0 + 3.2
    it = START_ITER
    ends, saves, durs = [], [], []
    while t < M_END + 30:
        base = ITER_BASE * (1 + rng.normal(0, 0.006))
        if it - START_ITER < 3:
            base += [21.0, 6.5, 1.2][it - START_ITER]
        if rng.random() < 0.003:
            base += float(rng.uniform(0.5, 2.0))
        i0 = int(t - GRID[0])
        # effective duration: integrate the slowdown over the step
        mm = (cm[min(i0 + int(base) + 1, NT)] - cm[min(i0, NT - 1)]) / max(1, min(i0 + int(base) + 1, NT) - min(i0, NT - 1))
        d = base * mm
        t += d
        it += 1
        ends.append(t)
        durs.append(d)
        if it % SAVE_INTERVAL == 0:
            sd = float(rng.uniform(27, 36))
            saves.append((it, t, t + sd))
            t += sd
    return dict(ends=np.array(ends), iters=np.arange(START_ITER + 1, START_ITER + 1 + len(ends)), saves=saves,
                f=f, reasons=reasons, temp=temp, thr=thr, m=m, t_un=t_un, durs=np.array(durs))


def load_from(run):
    L = np.zeros(NT)
    i0 = int(T_TRAIN0 - GRID[0])
    L[i0:] = 1.0
    L[: int(JOB_START + 30 - GRID[0])] = 0.0
    L[int(JOB_START + 30 - GRID[0]): i0] = 0.3
    for (_, s0, s1) in run["saves"]:
        a, b = int(s0 - GRID[0]), int(s1 - GRID[0])
        L[max(a, 0):max(b, 0)] = 0.15
    return L


# two passes: saves shift with the slowdown, load depends on saves
state = rng.bit_generator.state
L0 = np.ones(NT)
RUN = simulate(L0)
LOAD = load_from(RUN)
rng.bit_generator.state = state
RUN = simulate(LOAD)
LOAD = load_from(RUN)
# counterfactual: same GPU with healthy paste (no throttling) for the truth figures
state2 = rng.bit_generator.state
saved_rise = G_RISE[bi, BAD_GPU]
G_RISE[bi, BAD_GPU] = PEER_RISE + 0.5
CF = simulate(LOAD)
G_RISE[bi, BAD_GPU] = saved_rise
rng.bit_generator.state = state2

F, REASONS, BTEMP, THR, M = RUN["f"], RUN["reasons"], RUN["temp"], RUN["thr"], RUN["m"]


def iters_between(run, a, b):
    e = run["ends"]
    return int(np.searchsorted(e, b) - np.searchsorted(e, a))


ideal = iters_between(CF, WIN_START, WIN_END)
actual = iters_between(RUN, WIN_START, WIN_END)
LOSS = 100 * (1 - actual / ideal)
win_idx = (GRID >= WIN_START) & (GRID < WIN_END)
first_thr = GRID[np.argmax(THR & (GRID >= M_START))]
first_hw = GRID[np.argmax(((REASONS & 0x40) > 0) & (GRID >= M_START))]
print(f"loss {LOSS:.2f}%  ideal {ideal} actual {actual}  throttled frac in window {THR[win_idx].mean():.3f}  "
      f"HW frac {((REASONS & 0x40) > 0)[win_idx].mean():.4f}  first SW {iso(first_thr)} first HW {iso(first_hw)}")
pre = (GRID >= WIN_START) & (GRID < RISE_MID - 1800)
_tr = LOAD > 0.99
print("bad t_un mean pre", round(float(RUN["t_un"][pre & _tr].mean()), 2), "post", round(float(RUN["t_un"][(GRID > RISE_MID + 1200) & (GRID < WIN_END) & _tr].mean()), 2),
      "SW share post-onset", round(float(THR[(GRID >= first_thr) & (GRID < WIN_END)].mean()), 3),
      "throttled s before 13:20:", int(THR[GRID < ts("2024-07-18T13:20:00Z")].sum()), "HW s:", int(((REASONS & 0x40) > 0)[win_idx].sum()))
post = (GRID >= first_thr) & (GRID < WIN_END)
print(f"loss before onset {100 * (1 - iters_between(RUN, WIN_START, first_thr) / max(1, iters_between(CF, WIN_START, first_thr))):.2f}%  "
      f"after {100 * (1 - iters_between(RUN, first_thr, WIN_END) / iters_between(CF, first_thr, WIN_END)):.2f}%")

# ------------------------------------------------------------------------------------
# per-GPU per-second quantities
# ------------------------------------------------------------------------------------
# peers wait in NCCL while the bad GPU is slow: lower power/tensor activity, slightly cooler
wait_frac = 1.0 - 1.0 / M              # share of wall time spent waiting for the straggler
PF = LOAD * (1.0 - 0.45 * wait_frac)   # power fraction of full compute
HEAT_PEER = lag1(PF, 50.0)
HEAT_MEM = lag1(PF, 130.0)

SCRAPE = 30.0
DCGM = []
THERM_VIOL = {}
POW_VIOL = {}
for hi, h in enumerate(HOSTS):
    phase = float(rng.uniform(0, SCRAPE))
    T = np.arange(M_START + phase, M_END, SCRAPE)
    T = np.round(T + rng.normal(0, 0.015, T.size), 3)
    idx = np.clip((T - GRID[0]).astype(int), 0, NT - 1)
    n = T.size
    L = LOAD[idx]
    train = L >= 0.99
    save = (L > 0.1) & (L < 0.2)
    for g in range(NG):
        bad = (hi == bi and g == BAD_GPU)
        lab = dict(gpu=str(g), UUID=UUIDS[(h, g)], device=f"nvidia{g}", modelName=MODEL, Hostname=h,
                   instance=f"{IP[h]}:9400", job="dcgm")
        if bad:
            f = F[idx]
            rs = REASONS[idx].astype(float)
            gt = np.round(BTEMP[idx])
            util = np.where(train, np.where(rng.random(n) < 0.85, 100, rng.integers(97, 100, n)), rng.integers(0, 12, n))
            pw = np.where(train, (G_POW[hi, g] + 22) * f ** 2.1 + rng.normal(0, 20, n), 140 + rng.normal(0, 12, n))
            smc = np.where(train, np.round(1980 * f / 15) * 15, 1980)
            tens = np.where(train, np.clip(rng.normal(0.44, 0.02, n), 0, 1), rng.uniform(0, 0.03, n))
            mt = np.round(BTEMP[idx] - 4.5 + 0.4 * rng.normal(0, 1, n) - 7.0 * (1 - lag1(LOAD, 130.0)[idx]))
            viol_sec = THR.astype(float)
        else:
            heat = HEAT_PEER[idx]
            gt = 30.5 + H_BASE[hi] + G_BASE[hi, g] + heat * G_RISE[hi, g] + (inlet[idx] - 22.0)
            gt = np.round(gt + rng.normal(0, 0.45, n))
            mt = 33.0 + H_BASE[hi] + 0.8 * G_BASE[hi, g] + HEAT_MEM[idx] * (G_RISE[hi, g] - 9.5) + (inlet[idx] - 22.0)
            mt = np.round(mt + rng.normal(0, 0.4, n))
            wf = wait_frac[idx]
            util = np.where(train, np.where(rng.random(n) < 0.8, 100, rng.integers(96, 100, n)), rng.integers(0, 12, n))
            pw = np.where(train, G_POW[hi, g] * (1 - 0.45 * wf) + rng.normal(0, 22, n), 138 + rng.normal(0, 12, n))
            rs = np.zeros(n)
            smc = np.full(n, 1980.0)
            if G_CAPPED[hi, g]:
                pw = np.where(train, np.minimum(pw + 40, 700 - rng.uniform(0, 5, n)), pw)
                dip = train & (rng.random(n) < 0.45) & (wf < 0.05)
                smc = np.where(dip, 1980 - 15 * rng.integers(2, 13, n), smc)
                rs = np.where(dip, 4.0, rs)
            tens = np.where(train, np.clip(rng.normal(0.44, 0.02, n) * (1 - wf), 0, 1), rng.uniform(0, 0.03, n))
            viol_sec = np.zeros(NT)
        rs = np.where(save & (util < 3), 1.0, rs)
        pw = np.round(pw, 3)
        energy = (T[0] - BOOT[h]) * 230.0 * 1000.0 + np.cumsum(np.where(LOAD > 0.9, G_POW[hi, g], 150.0))[idx] * 1000.0
        tv = float(rng.uniform(0, 3e9)) * (bad * 40 + 1) + np.cumsum(viol_sec)[idx] * 1e9
        pv_sec = (LOAD > 0.9) * (0.45 if G_CAPPED[hi, g] else 0.0)
        pvv = float(rng.uniform(1e12, 6e12)) * (1 if G_CAPPED[hi, g] else 0.01) + np.cumsum(pv_sec)[idx] * 1e9
        nvl = 2.2e15 + float(rng.uniform(0, 1e14)) + np.cumsum(LOAD * 38e9)[idx]
        fb = np.where(L > 0.1, 71240 + int(rng.integers(-300, 300)) + rng.integers(-2, 3, n) * 2, 0).astype(float)
        vals = {
            "DCGM_FI_DEV_SM_CLOCK": smc, "DCGM_FI_DEV_MEM_CLOCK": np.full(n, 2619.0),
            "DCGM_FI_DEV_MEMORY_TEMP": mt, "DCGM_FI_DEV_GPU_TEMP": gt, "DCGM_FI_DEV_POWER_USAGE": pw,
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.floor(energy),
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": np.full(n, float(rng.choice([0, 0, 0, 0, 0, 1, 3]))),
            "DCGM_FI_DEV_GPU_UTIL": util.astype(float),
            "DCGM_FI_DEV_MEM_COPY_UTIL": np.where(train, rng.integers(30, 46, n), 0).astype(float),
            "DCGM_FI_DEV_XID_ERRORS": np.zeros(n), "DCGM_FI_DEV_FB_FREE": 81559 - 329 - fb, "DCGM_FI_DEV_FB_USED": fb,
            "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": np.floor(nvl),
            "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS": rs.astype(float),
            "DCGM_FI_DEV_THERMAL_VIOLATION": np.floor(tv), "DCGM_FI_DEV_POWER_VIOLATION": np.floor(pvv),
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(np.where(train, np.clip(rng.normal(0.968, 0.01, n), 0, 1), rng.uniform(0, 0.1, n)), 6),
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tens, 6),
            "DCGM_FI_PROF_DRAM_ACTIVE": np.round(np.where(train, np.clip(rng.normal(0.37, 0.02, n), 0, 1), rng.uniform(0, 0.02, n)), 6),
        }
        for m_, v in vals.items():
            DCGM.append((h, m_, T, np.asarray(v, float), lab))

# ------------------------------------------------------------------------------------
# write
# ------------------------------------------------------------------------------------
if os.path.exists(OUT):
    shutil.rmtree(OUT)
os.makedirs(os.path.join(OUT, "metrics", "dcgm"))
os.makedirs(os.path.join(OUT, "logs", "dmesg"))

LABS = ["gpu", "UUID", "device", "modelName", "Hostname", "instance", "job"]
for h in HOSTS:
    parts = [p for p in DCGM if p[0] == h]
    frames = []
    for (_, m_, T, v, lab) in parts:
        k = T.size
        frames.append(pl.DataFrame({
            "timestamp": (T * 1000).astype("int64"), "metric": [m_] * k, "value": v,
            **{c: [lab[c]] * k for c in LABS}}))
    df = pl.concat(frames).with_columns(pl.col("timestamp").cast(pl.Datetime("ms")).dt.replace_time_zone("UTC"))
    # rows in scrape order, as a remote-write sink dumps them
    df = df.sort(["timestamp", "gpu", "metric"])
    df.write_parquet(os.path.join(OUT, "metrics", "dcgm", f"{h}.parquet"), compression="zstd", row_group_size=200_000)

# node_exporter -> OpenMetrics -------------------------------------------------------
FAM = []   # (family, type, help, [(labels, T, values)])


def fam(name, typ, help_):
    FAM.append([name, typ, help_, []])
    return FAM[-1][3]


s_up = fam("up", "gauge", "")
s_uname = fam("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.")
s_load = fam("node_load1", "gauge", "1m load average.")
s_mem = fam("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.")
s_cpuw = fam("node_pressure_cpu_waiting_seconds", "counter", "Total time in seconds that processes have waited for CPU time")
s_hw = fam("node_hwmon_temp_celsius", "gauge", "Hardware monitor for temperature (input)")
s_ib = fam("node_infiniband_port_data_received_bytes", "counter", "Number of data octets received on all links")
for hi, h in enumerate(HOSTS):
    T = np.arange(M_START + float(rng.uniform(0, 30)), M_END, 30.0)
    T = np.round(T + rng.normal(0, 0.02, T.size), 3)
    idx = np.clip((T - GRID[0]).astype(int), 0, NT - 1)
    n = T.size
    inst = f'instance="{IP[h]}:9100",job="node"'
    s_up.append((inst, T, np.ones(n)))
    s_uname.append((f'domainname="(none)",{inst},machine="x86_64",nodename="{h}",release="5.15.0-105-generic",sysname="Linux",version="#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024"', T, np.ones(n)))
    s_load.append((inst, T, np.round(np.where(LOAD[idx] > 0.9, 18.5 + rng.normal(0, 1.5, n), 6 + rng.normal(0, 1, n)), 2)))
    s_mem.append((inst, T, np.floor(1.74e12 + rng.normal(0, 2e9, n) - (LOAD[idx] < 0.2) * 3.1e11)))
    s_cpuw.append((inst, T, np.round(3.3e4 + np.cumsum(0.3 * LOAD)[idx] + rng.uniform(0, 0.01, n), 6)))
    cpu_off = float(rng.normal(0, 2))
    for sk in (0, 1):
        s_hw.append((f'chip="platform_coretemp_{sk}",{inst},sensor="temp1"', T,
                     np.round(48 + cpu_off + 3 * sk + 9 * LOAD[idx] + 0.8 * (inlet[idx] - 22) + rng.normal(0, 0.7, n))))
    for k in range(8):
        wf = 1.0 - 1.0 / M
        ib_rate = LOAD * 3.2e9 * (1 - 0.4 * wf) * (1 + 0.01 * k)
        base = float(rng.uniform(1e14, 9e14))
        s_ib.append((f'device="mlx5_{k}",{inst},port="1"', T, np.floor(base + np.cumsum(ib_rate)[idx] + rng.uniform(0, 3e6, n))))

with open(os.path.join(OUT, "metrics", "node_exporter.om"), "w") as f:
    for (name, typ, help_, series) in FAM:
        if help_:
            f.write(f"# HELP {name} {help_}\n")
        f.write(f"# TYPE {name} {typ}\n")
        sample = name + ("_total" if typ == "counter" else "")
        for (lab, T, v) in series:
            vs = [f"{x:.17g}" if x != int(x) else f"{int(x)}" for x in v]
            f.write("".join(f"{sample}{{{lab}}} {a} {t:.3f}\n" for a, t in zip(vs, T)))
    f.write("# EOF\n")

# ------------------------------------------------------------------------------------
# Megatron-LM job output (srun --label, 192 tasks)
# ------------------------------------------------------------------------------------
OUTL = []


def lab_(rank):
    return f"{rank:3d}: "


def o(t, rank, s):
    OUTL.append((t, lab_(rank) + s if rank is not None else s))


CK = "/lustre/fsw/pretrain/ckpt/gpt13b-v2"
o(JOB_START, None, f"+ srun --label --ntasks-per-node=8 --cpu-bind=verbose,map_ldom:0,0,0,0,1,1,1,1 python pretrain_gpt.py @args-gpt13b.txt")
t = JOB_START + 24.0
o(t, 0, f"using world size: {WORLD}, data-parallel size: {WORLD // 2}, context-parallel size: 1, tensor-model-parallel size: 2, pipeline-model-parallel size: 1 ")
o(t, 0, "using torch.bfloat16 for parameters ...")
o(t, 0, "------------------------ arguments ------------------------")
ARGS = {
    "accumulate_allreduce_grads_in_fp32": "True", "adam_beta1": "0.9", "adam_beta2": "0.95", "adam_eps": "1e-08",
    "attention_dropout": "0.0", "bf16": "True", "ckpt_format": "torch_dist", "clip_grad": "1.0",
    "data_parallel_size": str(WORLD // 2), "distributed_backend": "nccl", "eval_interval": "2000", "eval_iters": "10",
    "ffn_hidden_size": "13824", "global_batch_size": str(GBS), "hidden_dropout": "0.0", "hidden_size": "5120",
    "load": CK, "log_interval": str(LOG_INTERVAL), "log_throughput": "True", "lr": "0.0003", "lr_decay_style": "cosine",
    "lr_warmup_iters": "2000", "micro_batch_size": "1", "min_lr": "3e-05", "num_attention_heads": "40",
    "num_layers": "40", "overlap_grad_reduce": "True", "overlap_param_gather": "True",
    "pipeline_model_parallel_size": "1", "position_embedding_type": "rope", "save": CK,
    "save_interval": str(SAVE_INTERVAL), "seq_length": str(SEQ), "sequence_parallel": "True",
    "swiglu": "True", "tensor_model_parallel_size": "2", "tokenizer_type": "HuggingFaceTokenizer",
    "train_iters": str(TRAIN_ITERS), "use_distributed_optimizer": "True", "use_flash_attn": "True",
    "weight_decay": "0.1", "world_size": str(WORLD),
}
for k in sorted(ARGS):
    o(t, 0, f"  {k} {'.' * max(3, 48 - len(k))} {ARGS[k]}")
o(t, 0, "-------------------- end of arguments ---------------------")
o(t + 0.4, 0, f"setting number of micro-batches to constant {GBS // (WORLD // 2)}")
o(t + 0.5, 0, "> building HuggingFaceTokenizer tokenizer ...")
o(t + 1.2, 0, "> initializing torch distributed ...")
o(t + 9.0, 0, "> initialized tensor model parallel with size 2")
o(t + 9.0, 0, "> initialized pipeline model parallel with size 1")
o(t + 9.1, 0, "> setting random seeds to 1234 ...")
o(t + 9.3, 0, "> compiling dataset index builder ...")
o(t + 12.1, 0, ">>> done with dataset index builder. Compilation time: 2.804 seconds")
o(t + 12.2, 0, "> compiling and loading fused kernels ...")
o(t + 14.9, 0, ">>> done with compiling and loading fused kernels. Compilation time: 2.702 seconds")
o(t + 22.0, 0, "building GPT model ...")
o(t + 31.0, 0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6519582720")
o(t + 31.0, 1, " > number of parameters on (tensor, pipeline) model parallel rank (1, 0): 6519582720")
o(t + 96.0, 0, f" loading distributed checkpoint from {CK} at iteration {START_ITER}")
o(t + 181.0, 0, f"  successfully loaded checkpoint from {CK} [ t 1/2, p 1/1 ] at iteration {START_ITER}")
o(t + 182.0, 0, f"(min, max) time across ranks (ms):")
o(t + 182.0, 0, f"    load-checkpoint ................................: (85012.41, 85019.88)")
o(t + 182.3, 0, f"[after model, optimizer, and learning rate scheduler are built] datetime: {dtu(t + 182.3):%Y-%m-%d %H:%M:%S} ")
o(t + 182.4, 0, "> building train, validation, and test datasets ...")
o(t + 182.4, 0, " > datasets target sizes (minimum size):")
o(t + 182.4, 0, f"    train:      {TRAIN_ITERS * GBS}")
o(t + 182.4, 0, f"    validation: {(TRAIN_ITERS // 2000 + 1) * 10 * GBS}")
o(t + 182.4, 0, f"    test:       {10 * GBS}")
o(t + 190.8, 0, "> finished creating GPT datasets ...")
o(t + 191.0, 0, f"[after dataloaders are built] datetime: {dtu(t + 191.0):%Y-%m-%d %H:%M:%S} ")
o(t + 191.0, 0, "done with setup ...")
o(t + 191.0, 0, "(min, max) time across ranks (ms):")
o(t + 191.0, 0, "    model-and-optimizer-setup ......................: (180201.55, 180477.91)")
o(t + 191.0, 0, "    train/valid/test-data-iterators-setup ..........: (8402.36, 8611.20)")
o(t + 191.1, 0, "training ...")
o(T_TRAIN0, 0, f"[before the start of training step] datetime: {dtu(T_TRAIN0):%Y-%m-%d %H:%M:%S} ")

ends, iters = RUN["ends"], RUN["iters"]
saves = {s[0]: s for s in RUN["saves"]}
prev_t = T_TRAIN0
prev_i = START_ITER
last = WORLD - 1
for k in range(len(iters)):
    i = int(iters[k])
    te = float(ends[k])
    if te > WIN_END + 660:
        break
    if i % LOG_INTERVAL == 0:
        el = (te - prev_t) / (i - prev_i)
        thr = FLOPS_ITER / (el * WORLD * 1e12)
        prog = (i - 2000) / (TRAIN_ITERS - 2000)
        lr = 3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + math.cos(math.pi * prog))
        loss = 2.262 - 0.028 * (i - START_ITER) / 3000 + rng.normal(0, 0.011)
        gn = abs(rng.normal(0.205, 0.018))
        line = (f" [{dtu(te):%Y-%m-%d %H:%M:%S}] iteration {i:8d}/{TRAIN_ITERS:8d} | consumed samples: {i * GBS:12d} |"
                f" elapsed time per iteration (ms): {el * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): {thr:.1f} |"
                f" learning rate: {lr:.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | loss scale: 1.0 |"
                f" grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        o(te, last, line)
        if i == START_ITER + LOG_INTERVAL:
            o(te + 0.05, 0, f"[Rank 0] (after {i} iterations) memory (MB) | allocated: 31844.16 | max allocated: 56101.88 | reserved: 60994.00 | max reserved: 60994.00")
        prev_t, prev_i = te, i
    if i in saves:
        _, s0, s1 = saves[i]
        o(s0 + 0.02, 0, f"saving checkpoint at iteration {i:7d} to {CK} in torch_dist format")
        o(s1 - 0.3, 0, f"  successfully saved checkpoint from iteration {i:7d} to {CK} [ t 1/2, p 1/1 ]")
        o(s1 - 0.2, last, "(min, max) time across ranks (ms):")
        o(s1 - 0.2, last, f"    save-checkpoint ................................: ({(s1 - s0) * 1000 - float(rng.uniform(2, 9)):.2f}, {(s1 - s0) * 1000:.2f})")

with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as f:
    f.write("\n".join(s for _, s in sorted(OUTL, key=lambda x: x[0])) + "\n")

# ------------------------------------------------------------------------------------
# kernel ring buffers, collected with `dmesg -T` after the incident
# ------------------------------------------------------------------------------------
COLLECT = WIN_END + 1020
HCA_BUS = ["0c", "1a", "3c", "4d", "8c", "9a", "bc", "cd"]
GPU_BUS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]


def dmesg_T(h):
    lines = []
    b = BOOT[h]

    def k(up, msg):
        lines.append((b + up, msg))

    mac = ":".join(f"{x:02x}" for x in rng.integers(0, 256, 6))
    k(0.0, "Linux version 5.15.0-105-generic (buildd@lcy02-amd64-054) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024 (Ubuntu 5.15.0-105.115-generic 5.15.149)")
    k(0.0, "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-105-generic root=UUID=6f1d2c8e-1a4b-4c7e-9a53-0f2d7b6c1e90 ro pci=realloc=off iommu=pt intel_iommu=on nvme_core.multipath=n console=tty0 console=ttyS1,115200n8")
    k(0.0, "KERNEL supported cpus:")
    k(0.0, "  Intel GenuineIntel")
    k(0.0, "  AMD AuthenticAMD")
    k(0.0, "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'")
    k(0.0, "x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'")
    k(0.0, "x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'")
    k(0.0, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 02/21/2024")
    k(0.0, "tsc: Detected 2000.000 MHz processor")
    k(0.412, "Memory: 2113081256K/2147023412K available (16393K kernel code, 4385K rwdata, 10772K rodata, 3364K init, 6552K bss, 33942156K reserved, 0K cma-reserved)")
    k(0.593, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs")
    k(1.911, "smpboot: Total of 224 processors activated (896000.00 BogoMIPS)")
    k(2.734, "ACPI: PCI Root Bridge [PC00] (domain 0000 [bus 00-14])")
    for g, bus in enumerate(GPU_BUS):
        k(3.1 + 0.01 * g, f"pci 0000:{bus}:00.0: [10de:2330] type 00 class 0x030200")
    k(4.8, "iommu: Default domain type: Passthrough (set via kernel command line)")
    k(6.02, "nvme nvme0: pci function 0000:e4:00.0")
    k(6.35, "nvme nvme0: 64/0/0 default/read/poll queues")
    k(6.37, " nvme0n1: p1 p2")
    for j, bus in enumerate(HCA_BUS):
        k(7.2 + 0.3 * j, f"mlx5_core 0000:{bus}:00.0: firmware version: 28.39.2048")
        k(7.21 + 0.3 * j, f"mlx5_core 0000:{bus}:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)")
        k(7.6 + 0.3 * j, f"mlx5_core 0000:{bus}:00.0: Rate limit: 127 rates are supported, range: 0Mbps to 195312Mbps")
        k(7.65 + 0.3 * j, f"mlx5_core 0000:{bus}:00.0: E-Switch: Total vports 2, per vport: max uc(128) max mc(2048)")
    k(11.109698, "ast 0000:02:00.0: [drm] P2A bridge disabled, using default configuration")
    k(11.109703, "ast 0000:02:00.0: [drm] AST 2600 detected")
    k(11.121649, "hid: raw HID events driver (C) Jiri Kosina")
    k(11.22, f"cdc_ether 1-1.3:2.0 eth0: register 'cdc_ether' at usb-0000:cd:00.4-1.3, CDC Ethernet Device, {mac}")
    for j in range(8):
        k(12.4 + 0.05 * j, f"mlx5_core 0000:{HCA_BUS[j]}:00.0 ibp{int(HCA_BUS[j], 16)}s0: renamed from ib{j}")
    k(15.88, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    k(19.2, "nvidia: loading out-of-tree module taints kernel.")
    k(19.2, "nvidia: module license 'NVIDIA' taints kernel.")
    k(19.2, "Disabling lock debugging due to kernel taint")
    k(19.37, "nvidia-nvlink: Nvlink Core is being initialized, major device number 509")
    for g, bus in enumerate(GPU_BUS):
        k(19.38 + 0.001 * g, f"nvidia 0000:{bus}:00.0: enabling device (0000 -> 0002)")
    k(19.9, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.08  Tue Mar  5 22:42:15 UTC 2024")
    k(20.1, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  535.161.08  Tue Mar  5 22:40:39 UTC 2024")
    k(20.4, "[drm] [nvidia-drm] [GPU ID 0x00001800] Loading driver")
    k(20.9, "nvidia_uvm: module uses symbols from proprietary module nvidia, inheriting taint.")
    k(21.0, "nvidia-uvm: Loaded the UVM driver, major device number 507.")
    for j in range(8):
        k(22.5 + 0.3 * j, f"infiniband mlx5_{j}: mlx5_ib_test_wc:290:(pid {1500 + 7 * j}): Error -110 while trying to test write-combining support")
    k(31.2, "LNet: HW NUMA nodes: 2, HW CPU cores: 224, npartitions: 2")
    k(31.9, f"LNet: Added LNI {IP[h]}@o2ib [8/256/0/180]")
    k(32.4, "Lustre: Lustre: Build Version: 2.15.4")
    k(33.8, "Lustre: Mounted fsw-client")
    for s in range(4):
        k(41.0 + s * 0.002, f"nvidia-nvswitch{s}: open (major=508)")
    for j in range(8):
        k(44.1 + 0.001 * j, f"mlx5_core 0000:{HCA_BUS[j]}:00.0: mlx5_fw_tracer_handle_traces:737:(pid 0): FWTracer: Events were lost")
    # runtime: earlier jobs ending (peer-memory teardown), perf throttling, Lustre reconnects
    upnow = COLLECT - b
    job_ends = np.sort(rng.uniform(3600, JOB_START - b - 600, int(rng.integers(3, 9))))
    for e in job_ends:
        for r in range(int(rng.integers(2, 8))):
            k(e + r * 0.0003, "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
    if rng.random() < 0.6:
        a = int(rng.integers(2501, 3200))
        k(float(rng.uniform(upnow - 3 * 86400, upnow)), f"perf: interrupt took too long ({a} > {a - int(rng.integers(1, 30))}), lowering kernel.perf_event_max_sample_rate to {int(100000 * 2500 / a) // 250 * 250}")
    n_lus = int(rng.poisson(1.2)) + (int(rng.poisson(1.5)) if rng.random() < 0.3 else 0)
    for _ in range(n_lus):
        e = float(rng.uniform(JOB_START - b - 86400 * 0.3, upnow - 60))
        ost = int(rng.integers(0, 24))
        k(e, f"Lustre: fsw-OST{ost:04x}-osc-ffff9b6f4a2d8800: Connection to fsw-OST{ost:04x} (at 10.31.0.{40 + ost % 6}@o2ib) was lost; in progress operations using this service will wait for recovery to complete")
        k(e + float(rng.uniform(4, 40)), f"Lustre: fsw-OST{ost:04x}-osc-ffff9b6f4a2d8800: Connection restored to 10.31.0.{40 + ost % 6}@o2ib (at 10.31.0.{40 + ost % 6}@o2ib)")
    for _ in range(int(rng.poisson(0.5))):
        k(float(rng.uniform(JOB_START - b, upnow)), f"hrtimer: interrupt took {int(rng.integers(110000, 2900000))} ns")
    lines = [(t, m) for (t, m) in lines if t <= COLLECT]
    lines.sort(key=lambda x: x[0])
    return [f"[{dtu(t):%a %b %d %H:%M:%S %Y}] {m}" for t, m in lines]


for h in HOSTS:
    with open(os.path.join(OUT, "logs", "dmesg", f"{h}.txt"), "w") as f:
        f.write("\n".join(dmesg_T(h)) + "\n")

# ------------------------------------------------------------------------------------
# incident.yaml, truth.yaml
# ------------------------------------------------------------------------------------
incident = {
    "id": ID,
    "title": "gpt13b pretraining a little slower since early afternoon",
    "window": {"start": "2024-07-18T12:30:00+00:00", "end": "2024-07-18T17:30:00+00:00"},
    "primary_signal": "throughput",
    "cluster": {"name": "r07-r09-h100", "nodes": NH, "gpus_per_node": NG, "gpu_model": "H100"},
    "signal_pack": "default",
    "trainer": {"seq_length": SEQ, "global_batch_size": GBS, "gpus": WORLD},
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(incident, f, sort_keys=False)

pre_i = (GRID >= WIN_START) & (GRID < first_thr)
post_i = (GRID >= first_thr) & (GRID < WIN_END)
bad_load = (GRID >= WIN_START) & (GRID < WIN_END) & (LOAD > 0.99)
peer_idx = [(hi, g) for hi in range(NH) for g in range(NG) if not (hi == bi and g == BAD_GPU)]
truth = {
    "id": ID,
    "cause": ("GPU 6 of gpu-r08-n05 has dried-out thermal paste: under load it runs ~11 C hotter than its peers (median), and "
              "once the hall's inlet air warmed ~2 C in the early afternoon it hit its slowdown temperature at the top of "
              "each cooling cycle, entering SW and HW thermal slowdown and clipping its SM clock, which paced every rank "
              "of the synchronous job."),
    "cause_metrics": ["DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_GPU_TEMP",
                      "DCGM_FI_DEV_THERMAL_VIOLATION", "DCGM_FI_DEV_MEMORY_TEMP"],
    "cause_log_evidence": [],
    "cause_log_evidence_note": "None: the driver logs nothing for thermal slowdown; the dmesg and job output hold only benign lines.",
    "hosts": [BAD_HOST],
    "gpu": {"host": BAD_HOST, "index": BAD_GPU, "uuid": UUIDS[(BAD_HOST, BAD_GPU)]},
    "onset": iso(first_thr),
    "onset_note": (f"first SW thermal slowdown on that GPU at {iso(first_thr)}, first HW thermal slowdown at {iso(first_hw)}; "
                   "the GPU was ~11 C hotter than the median GPU under load for the whole window (a persistent difference), "
                   "the slowdowns begin after the inlet-air warm-up centred on 13:38 UTC."),
    "job_throughput_loss_pct": round(LOSS, 2),
    "job_throughput_loss_note": (f"{actual} iterations in the window where {ideal} would have run with a healthy GPU "
                                 f"(same seed, same checkpoints); the loss is concentrated after onset."),
    "thermal_slowdown_share_of_time_after_onset": round(float(THR[post_i].mean()), 3),
    "hw_thermal_slowdown_share_of_time_after_onset": round(float(((REASONS & 0x40) > 0)[post_i].mean()), 4),
    "what_a_good_postmortem_says": (
        "The job lost about 2% throughput from early afternoon because one GPU, GPU 6 of gpu-r08-n05, kept entering "
        "thermal slowdown: dcgm-exporter shows its clock-throttle reasons set to SW thermal slowdown (0x20) and, at the peaks, "
        "SW thermal + HW slowdown + HW thermal slowdown (0x68 = 104) while its SM clock dips and its thermal-violation counter climbs, with its temperature "
        "sitting ~11-12 C above the median GPU at the same load (and ~7 C above the hottest other GPU); every other GPU only waited for it (lower power and "
        "tensor activity, no throttle bits). The trigger was a ~2 C rise in inlet temperature that pushed this already "
        "hot GPU over its slowdown threshold, but the cause is the GPU's own cooling (dried thermal paste/heatsink "
        "contact): drain the node, re-paste or replace the heatsink, and alert on per-GPU temperature offset from peers "
        "and on thermal-violation time, since no log line reports it."),
    "stats": {
        "bad_gpu_mean_temp_train_C": round(float(BTEMP[bad_load].mean()), 1),
        "bad_gpu_max_temp_C": round(float(BTEMP[bad_load].max()), 1),
        "peer_gpu_mean_rise_C": round(float(np.mean([G_RISE[a, b] for a, b in peer_idx])), 1),
        "bad_gpu_rise_C": round(float(G_RISE[bi, BAD_GPU]), 1),
        "first_sw_thermal": iso(first_thr), "first_hw_thermal": iso(first_hw),
    },
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120)
