#!/usr/bin/env python3
"""Generate incident folder h100-psu-powerbrake-2025-05-13.

A torchtitan Llama-3-8B FSDP job on 16 HGX H100 nodes (128 GPUs).  At 01:41:49 UTC
power supply PS2 of h100-038 fails; the BMC asserts the GPU power brake (PWRBRK#)
whenever the node's draw exceeds what the remaining supplies can deliver, so all 8
GPUs of h100-038 repeatedly drop into HW Slowdown + HW Power Brake Slowdown
(clock-event reasons 0x88) at ~1.05 GHz and ~330 W.  The synchronous job waits for the
straggler and loses ~13% of its throughput until the node is drained and the job is
requeued at 02:54:10 UTC; it restarts at ~03:00 on a spare (h100-047).

Metrics: per-host OpenMetrics files (promtool tsdb dump-openmetrics style, one
`name{labels} value timestamp` line per sample, `# EOF` at the end), 30 s scrapes of
dcgm-exporter and node_exporter, 60 s scrapes of ipmi_exporter.
Logs: torchtitan output behind torchrun's [rank0]: prefix, per-host syslog, per-host BMC
SEL as FreeIPMI's ipmi-sel prints it, slurmctld.log.

Fixed seed; run:  /work/main/.venv/bin/python make_h100-psu-powerbrake-2025-05-13.py
"""
import math
import os
import shutil
from datetime import datetime, timezone, timedelta

import numpy as np
import yaml

SEED = 20250513
ID = "h100-psu-powerbrake-2025-05-13"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
rng = np.random.default_rng(SEED)


def ts(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()


def dt(t):
    return datetime.fromtimestamp(t, tz=timezone.utc)


# ----------------------------------------------------------------------------- timeline
JOB1_ALLOC = ts("2025-05-12T23:52:09")
JOB1_START = ts("2025-05-12T23:52:10")
W_START = ts("2025-05-13T00:55:00")
W_END = ts("2025-05-13T03:25:00")
BASE_END = ts("2025-05-13T01:35:00")
PSU_FAIL1 = ts("2025-05-13T01:41:49")
PSU_FAIL2 = ts("2025-05-13T01:42:02")
BRAKE_START = ts("2025-05-13T01:41:52")
DRAIN = ts("2025-05-13T02:53:48")
REQUEUE = ts("2025-05-13T02:54:10")
JOB2_START = ts("2025-05-13T02:56:31")

SIM0 = int(JOB1_START - 1200)
SIM1 = int(W_END + 120)
NS = SIM1 - SIM0

HOSTS = [f"h100-{i:03d}" for i in range(31, 48)]  # 17 nodes, 047 is the spare
IPS = {h: f"10.31.4.{int(h[-3:])}" for h in HOSTS}
BMC_IPS = {h: f"10.31.104.{int(h[-3:])}" for h in HOSTS}
BAD = "h100-038"
RUN1 = HOSTS[:16]
RUN2 = [h for h in HOSTS if h != BAD]
JOBID = 2291847
DRIVER = "550.127.05"
MODEL = "NVIDIA H100 80GB HBM3"
PCI_BUS = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]

# ----------------------------------------------------------------------------- trainer
T0 = 2.780            # nominal step time, s (16384 tokens/GPU/step -> ~5,890 tps)
TOK_PER_GPU = 2 * 8192
FLOPS_PER_TOKEN = 5.7917e10
PEAK = 989.0
COMPUTE_SHARE = 0.86
BRAKE_SLOW = 1.50     # compute slowdown while the brake holds clocks at ~0.54x
CKPT_EVERY = 500
LOG_FREQ = 10


def brake_timeline():
    """Two-state Markov power-brake process of h100-038 (1 s resolution)."""
    b = np.zeros(NS, dtype=bool)
    t = int(BRAKE_START - SIM0)
    end = int(REQUEUE - SIM0)
    on = True
    while t < end:
        d = max(3, int(rng.exponential(21.0))) if on else max(4, int(rng.exponential(43.0)))
        if on:
            b[t:min(end, t + d)] = True
        t += d
        on = not on
    return b


BRAKE = brake_timeline()


def run_steps(t_first, step0, t_stop, degraded):
    """Simulate steps from t_first. Returns list of (step, t_start, t_end) and ckpt spans."""
    steps, ckpts = [], []
    t = t_first
    step = step0
    while True:
        step += 1
        T = T0 * math.exp(rng.normal(0, 0.011))
        if step == step0 + 1:
            T += 9.5  # first step: compile / warm-up
        if step % 50 == 0:
            T += 0.06  # torchtitan periodic GC
        if degraded and BRAKE_START <= t < REQUEUE:
            pos = t
            remaining = COMPUTE_SHARE * T
            while remaining > 1e-9:
                sec = int(math.floor(pos))
                i = sec - SIM0
                rate = 1.0 / BRAKE_SLOW if (0 <= i < NS and BRAKE[i]) else 1.0
                avail = (sec + 1) - pos
                if avail * rate >= remaining:
                    pos += remaining / rate
                    remaining = 0
                else:
                    remaining -= avail * rate
                    pos = sec + 1
            t_end = pos + (1 - COMPUTE_SHARE) * T
        else:
            t_end = t + T
        if t_end > t_stop:
            break
        steps.append((step, t, t_end))
        t = t_end
        if step % CKPT_EVERY == 0:
            d = rng.uniform(24.0, 31.0)
            ckpts.append((step, t, t + d))
            t += d
    return steps, ckpts


RUN1_FIRST_STEP_T = JOB1_START + 71.4
RUN1_STEP0 = 18000
steps1, ckpts1 = run_steps(RUN1_FIRST_STEP_T, RUN1_STEP0, REQUEUE, degraded=True)
last1 = steps1[-1][0]
resume2 = (last1 // CKPT_EVERY) * CKPT_EVERY
RUN2_FIRST_STEP_T = JOB2_START + 76.3
steps2, ckpts2 = run_steps(RUN2_FIRST_STEP_T, resume2, W_END + 100, degraded=False)

# ----------------------------------------------------------------------------- per-second host state
# state: 0 idle, 1 init, 2 train, 3 checkpoint/stall
state = {h: np.zeros(NS, dtype=np.int8) for h in HOSTS}
rel = np.ones(NS)  # job speed relative to nominal during training seconds


def mark_run(hosts, t_start, t_first, steps, ckpts, t_stop):
    a, b = int(t_start - SIM0), int(t_first - SIM0)
    for h in hosts:
        state[h][a:b] = 1
    for (_, s0, s1) in steps:
        i0, i1 = int(s0 - SIM0), int(s1 - SIM0) + 1
        r = T0 / (s1 - s0)
        rel[i0:i1] = min(1.0, r)
        for h in hosts:
            state[h][i0:i1] = 2
    for (_, c0, c1) in ckpts:
        for h in hosts:
            state[h][int(c0 - SIM0):int(c1 - SIM0)] = 3
    e = int(t_stop - SIM0)
    for h in hosts:
        state[h][e:] = 0


mark_run(RUN1, JOB1_START, RUN1_FIRST_STEP_T, steps1, ckpts1, REQUEUE + 6)
mark_run(RUN2, JOB2_START, RUN2_FIRST_STEP_T, steps2, ckpts2, SIM1)

# host constants
hostc = {}
for h in HOSTS:
    hostc[h] = dict(
        inlet=rng.normal(24.0, 1.2),
        boot=ts("2025-04-16T09:12:00") + rng.uniform(-86400 * 6, 86400 * 3),
        phase_dcgm=rng.uniform(0, 30), phase_node=rng.uniform(0, 30), phase_ipmi=rng.uniform(0, 60),
        uuids=[f"GPU-{rng.integers(0, 2**32):08x}-{rng.integers(0, 2**16):04x}-{rng.integers(0, 2**16):04x}-"
               f"{rng.integers(0, 2**16):04x}-{rng.integers(0, 2**48):012x}" for _ in range(8)],
        pbase=rng.normal(652, 14, 8).clip(615, 690),
        pidle=rng.normal(72, 3, 8),
        toff=rng.normal(0, 1.8, 8),
        moff=rng.normal(5.5, 1.5, 8),
        pcap=rng.uniform(0.03, 0.22, 8),
        tens=rng.normal(0.418, 0.008, 8),
        nvl=rng.normal(1.0, 0.02, 8),
        hca=rng.normal(1.0, 0.03, 8),
    )


def host_power_nominal(h):
    """Per-second power of a nominal 652 W GPU on host h (W)."""
    st = state[h]
    p = np.full(NS, 72.0)
    p[st == 1] = 215.0
    p[st == 3] = 185.0
    tr = st == 2
    p[tr] = 652.0 * (0.55 + 0.45 * rel[tr])
    if h == BAD:
        deg = np.zeros(NS, dtype=bool)
        deg[int(BRAKE_START - SIM0):int(REQUEUE - SIM0)] = True
        p[tr & deg] = 652.0
        p[tr & deg & BRAKE] = 330.0
    return p


def ema(x, tau):
    a = 1.0 / tau
    y = np.empty_like(x)
    acc = x[0]
    for i in range(len(x)):
        acc += a * (x[i] - acc)
        y[i] = acc
    return y


# ----------------------------------------------------------------------------- write helpers
def fmt(v, kind):
    if kind == "i":
        return str(int(round(v)))
    if kind == "f3":
        return f"{v:.3f}"
    if kind == "f6":
        return f"{v:.6f}"
    if kind == "e":
        return repr(float(v))
    return str(v)


def labelstr(d):
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(d.items())) + "}"


def scrape_times(phase, step):
    first = W_START - 120 + phase  # the dump starts 2 minutes before the window
    n = int((W_END + 120 - first) // step) + 1
    t = first + np.arange(n) * step + rng.normal(0, 0.004, n)
    return t


# ----------------------------------------------------------------------------- metrics per host
def gen_host(h):
    c = hostc[h]
    lines = {}  # metric -> list of lines
    st_all = state[h]
    pnom = host_power_nominal(h)
    pema = ema(np.where(st_all == 0, 72.0, pnom), 80.0)
    hema = ema(np.where(st_all == 0, 72.0, pnom), 150.0)
    is_bad = h == BAD

    # ---------------- dcgm-exporter
    t = scrape_times(c["phase_dcgm"], 30.0)
    si = (t.astype(np.int64) - SIM0).clip(0, NS - 1)
    st = st_all[si]
    br = BRAKE[si] if is_bad else np.zeros(len(si), dtype=bool)
    r = rel[si]
    n = len(t)
    for g in range(8):
        lab = dict(gpu=str(g), UUID=c["uuids"][g], pci_bus_id=f"00000000:{PCI_BUS[g]}:00.0",
                   device=f"nvidia{g}", modelName=MODEL, Hostname=h,
                   instance=f"{IPS[h]}:9400", job="dcgm-exporter")
        L = labelstr(lab)
        scale = c["pbase"][g] / 652.0
        # true per-second power for counters
        p_true = np.where(st_all == 0, c["pidle"][g], pnom * scale)
        energy0 = rng.uniform(1.1e12, 1.9e12)
        energy = energy0 + np.cumsum(p_true) * 1000.0
        brake_arr = BRAKE if is_bad else np.zeros(NS, dtype=bool)
        trainish = (st_all == 2) & ~brake_arr
        pv0 = rng.uniform(2e13, 9e13)
        pviol = pv0 + np.cumsum(np.where(trainish, c["pcap"][g] * 1e9, 0.0))
        nv0 = rng.uniform(2e13, 6e13)
        nvl = nv0 + np.cumsum(np.where(st_all == 2, 5.15e7 * rel * c["nvl"][g], np.where(st_all == 3, 2e5, 0.0)))

        power = p_true[si] + rng.normal(0, 9, n)
        clock = np.full(n, 1980.0)
        reason = np.zeros(n)
        util = np.zeros(n)
        tens = np.zeros(n)
        capm = (st == 2) & ~br & (rng.random(n) < c["pcap"][g])
        clock[capm] = rng.choice(np.arange(1830, 1980, 15), capm.sum())
        reason[capm] = 4
        power[capm] = rng.uniform(692, 699.8, capm.sum())
        power = np.minimum(power, 699.8)
        # training
        trm = st == 2
        util[trm] = rng.choice([100, 100, 100, 100, 100, 100, 99, 98], trm.sum())
        tens[trm] = c["tens"][g] * r[trm] + rng.normal(0, 0.006, trm.sum())
        if is_bad:
            degm = trm & (t >= BRAKE_START) & (t < REQUEUE)
            tens[degm] = c["tens"][g] * rng.uniform(1.0, 1.05, degm.sum())
            bm = trm & br
            clock[bm] = np.round(rng.normal(1065, 40, bm.sum()) / 15) * 15
            reason[bm] = 136  # HW_SLOWDOWN | HW_POWER_BRAKE
            power[bm] = (330 + rng.normal(0, 22, bm.sum())) * scale
            tens[bm] = c["tens"][g] * rng.uniform(1.0, 1.07, bm.sum())
        # init
        im = st == 1
        util[im] = rng.integers(0, 55, im.sum())
        tens[im] = rng.uniform(0, 0.04, im.sum())
        # checkpoint
        cm = st == 3
        util[cm] = rng.integers(2, 28, cm.sum())
        tens[cm] = rng.uniform(0, 0.02, cm.sum())
        # idle
        idm = st == 0
        clock[idm] = 345
        reason[idm] = 1
        util[idm] = 0
        tens[idm] = 0
        power[idm] = c["pidle"][g] + rng.normal(0, 1.5, idm.sum())
        tens = tens.clip(0, 1)
        gtemp = np.round(c["inlet"] + 6.0 + c["toff"][g] + 0.0485 * pema[si] * scale + rng.normal(0, 0.45, n))
        mtemp = np.round(c["inlet"] + 6.0 + c["toff"][g] + c["moff"][g] + 0.0500 * hema[si] * scale + rng.normal(0, 0.45, n))

        series = [
            ("DCGM_FI_DEV_SM_CLOCK", clock, "i"),
            ("DCGM_FI_DEV_GPU_TEMP", gtemp, "i"),
            ("DCGM_FI_DEV_POWER_USAGE", power, "f3"),
            ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", energy[si], "i"),
            ("DCGM_FI_DEV_GPU_UTIL", util, "i"),
            ("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", reason, "i"),
            ("DCGM_FI_DEV_POWER_VIOLATION", pviol[si], "i"),
            ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n), "i"),
            ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tens, "f6"),
            ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", nvl[si], "i"),
        ]
        Lx = labelstr(dict(lab, err_code="0", err_msg="No Error"))  # dcgm-exporter >= 3.3 labels on XID_ERRORS
        for name, vals, kind in series:
            out = lines.setdefault(name, [])
            LL = Lx if name == "DCGM_FI_DEV_XID_ERRORS" else L
            for k in range(n):
                out.append(f"{name}{LL} {fmt(vals[k], kind)} {t[k]:.3f}")
    up = lines.setdefault("up", [])
    L = labelstr(dict(instance=f"{IPS[h]}:9400", job="dcgm-exporter"))
    for k in range(n):
        up.append(f"up{L} 1 {t[k]:.3f}")

    # ---------------- node_exporter
    t = scrape_times(c["phase_node"], 30.0)
    si = (t.astype(np.int64) - SIM0).clip(0, NS - 1)
    st = st_all[si]
    n = len(t)
    inst = dict(instance=f"{IPS[h]}:9100", job="node")
    L = labelstr(inst)
    load = np.where(st == 2, 13.5, np.where(st == 1, 9.0, np.where(st == 3, 6.0, 0.4))) + np.abs(rng.normal(0, 1.1, n))
    mem = np.where(st == 0, 2.012e12, 1.707e12) + rng.normal(0, 2.5e9, n)
    for name, vals, kind in [("node_load1", load, "f3"), ("node_memory_MemAvailable_bytes", mem, "i"),
                             ("node_boot_time_seconds", np.full(n, c["boot"]), "i")]:
        out = lines.setdefault(name, [])
        for k in range(n):
            out.append(f"{name}{L} {fmt(vals[k], kind)} {t[k]:.3f}")
    uname = labelstr(dict(inst, domainname="(none)", machine="x86_64", nodename=h, release="5.15.0-125-generic",
                          sysname="Linux", version="#135-Ubuntu SMP Fri Sep 27 13:53:58 UTC 2024"))
    out = lines.setdefault("node_uname_info", [])
    for k in range(n):
        out.append(f"node_uname_info{uname} 1 {t[k]:.3f}")
    rate_sec = np.where(st_all == 2, 1.42e10 * rel, np.where(st_all == 3, 4e7, np.where(st_all == 1, 2e8, 2.2e3)))
    for dev in range(8):
        for name, f in [("node_infiniband_port_data_transmitted_bytes_total", 1.0),
                        ("node_infiniband_port_data_received_bytes_total", 1.002)]:
            cnt = rng.uniform(3e16, 9e16) + np.cumsum(rate_sec * c["hca"][dev] * f)
            Lh = labelstr(dict(inst, device=f"mlx5_{dev}", port="1"))
            out = lines.setdefault(name, [])
            for k in range(n):
                out.append(f"{name}{Lh} {cnt[si[k]]:.0f} {t[k]:.3f}")
    up = lines.setdefault("up", [])
    for k in range(n):
        up.append(f"up{L} 1 {t[k]:.3f}")

    # ---------------- ipmi_exporter (remote, 60 s)
    t = scrape_times(c["phase_ipmi"], 60.0)
    si = (t.astype(np.int64) - SIM0).clip(0, NS - 1)
    n = len(t)
    inst = dict(instance=BMC_IPS[h], job="ipmi", node=h)
    L = labelstr(inst)
    gsum = sum(np.where(st_all == 0, c["pidle"][g], pnom * c["pbase"][g] / 652.0) for g in range(8))
    sys_w = gsum[si] + np.where(st_all[si] == 0, 1150, 2250) + rng.normal(0, 45, n)
    out = lines.setdefault("ipmi_dcmi_power_consumption_current_watts", [])
    for k in range(n):
        out.append(f"ipmi_dcmi_power_consumption_current_watts{L} {sys_w[k]:.0f} {t[k]:.3f}")
    out = lines.setdefault("ipmi_sensor_state", [])
    for ps in range(1, 7):
        Ls = labelstr(dict(inst, id=str(96 + ps), name=f"PS{ps} Status", type="Power Supply"))
        for k in range(n):
            v = 2 if (h == BAD and ps == 2 and t[k] >= PSU_FAIL1) else 0
            out.append(f"ipmi_sensor_state{Ls} {v} {t[k]:.3f}")
    inlet = np.round(c["inlet"] + rng.normal(0, 0.4, n))
    Li = labelstr(dict(inst, id="18", name="Inlet Temp"))
    out = lines.setdefault("ipmi_temperature_celsius", [])
    for k in range(n):
        out.append(f"ipmi_temperature_celsius{Li} {inlet[k]:.0f} {t[k]:.3f}")
    out = lines.setdefault("ipmi_up", [])
    for col in ("dcmi", "ipmi"):
        Lc = labelstr(dict(inst, collector=col))
        for k in range(n):
            out.append(f"ipmi_up{Lc} 1 {t[k]:.3f}")
    up = lines.setdefault("up", [])
    for k in range(n):
        up.append(f"up{L} 1 {t[k]:.3f}")

    path = os.path.join(OUT, "metrics", f"{h}.om")
    with open(path, "w") as f:
        for name in sorted(lines):
            # group series of a family together, each series' samples in time order
            f.write("\n".join(lines[name]))
            f.write("\n")
        f.write("# EOF\n")


# ----------------------------------------------------------------------------- trainer log
def tt_time(t):
    d = dt(t)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int(d.microsecond / 1000):03d}"


def glog_time(t):
    d = dt(t)
    return d.strftime("%m%d %H:%M:%S") + f".{d.microsecond:06d}"


def trainer_log():
    L = []
    base_loss = 2.318

    def tl(t, msg):
        L.append(f"[rank0]:[titan] {tt_time(t + rng.uniform(0, 0.03))} - root - INFO - {msg}")

    def startup(t0, nodes_str, step0, ckpt_load_s, tpid):
        L.append(f"+ echo 'Job {JOBID} on {nodes_str} starting at {dt(t0).strftime('%a %b %d %H:%M:%S UTC %Y')}'")
        L.append(f"Job {JOBID} on {nodes_str} starting at {dt(t0).strftime('%a %b %d %H:%M:%S UTC %Y')}")
        tw = t0 + 3.2 + rng.uniform(0, 0.8)
        L.append(f"W{glog_time(tw)} {tpid} torch/distributed/run.py:792] ")
        L.append(f"W{glog_time(tw)} {tpid} torch/distributed/run.py:792] *****************************************")
        L.append(f"W{glog_time(tw)} {tpid} torch/distributed/run.py:792] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ")
        L.append(f"W{glog_time(tw)} {tpid} torch/distributed/run.py:792] *****************************************")
        t = t0 + 9.8
        tl(t, "Starting job: Llama 3 8B training"); t += 0.9
        tl(t, "Building 1-D device mesh with ['dp_shard'], [128]"); t += 0.05
        tl(t, "[GC] Initial GC collection. 0.00 seconds."); t += 0.4
        tl(t, "Loading tokenizer from tokenizer.model"); t += 0.3
        tl(t, "Preparing c4 dataset from /lustre/datasets/c4-en"); t += 3.6
        tl(t, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"); t += 0.6
        tl(t, "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory"); t += 0.01
        tl(t, "Model llama3 8B size: 8,030,261,248 total parameters"); t += 0.2
        tl(t, "Applied selective activation checkpointing to the model"); t += 0.3
        tl(t, "Applied FSDP to the model"); t += 1.1
        tl(t, "Peak FLOPS used for computing MFU: 9.890e+14"); t += 0.01
        tl(t, "CUDA memory usage for model: 3.77GiB(4.77%)"); t += 0.2
        tl(t, "Checkpointing active. Checkpoints will be loaded from and saved to /lustre/ckpt/llama3-8b-c4/checkpoint"); t += 0.1
        tl(t, f"Mixed precision training is handled by fully_shard"); t += 0.1
        tl(t, f"Loading the checkpoint at step {step0}."); t += ckpt_load_s
        tl(t, f"Finished loading the checkpoint in {ckpt_load_s:.2f} seconds."); t += 0.4
        tl(t, f"Training starts at step {step0 + 1}, with local batch size 2, global batch size 256, sequence length 8192, total steps 60000 (warmup 2000)")
        tl(t + 0.2, "Profiling active. Traces will be saved at /lustre/ckpt/llama3-8b-c4/profile_trace")

    def steps_out(steps, ckpts, step0, t_last_log):
        ck = {s: (c0, c1) for (s, c0, c1) in ckpts}
        toks = 0
        for (step, s0, s1) in steps:
            toks += TOK_PER_GPU
            if step % 50 == 0:
                tl(s1 - 0.061, f"[GC] Peforming periodical GC collection. 0.06 seconds.")
            if step % LOG_FREQ == 0:
                dtime = s1 - t_last_log
                tps = toks / dtime
                tfl = tps * FLOPS_PER_TOKEN / 1e12
                loss = base_loss - 0.00002 * (step - 18000) + rng.normal(0, 0.035)
                mem = 62.31 + rng.normal(0, 0.004)
                tl(s1 + 0.002, f"step: {step:2d}  loss: {loss:7.4f}  memory: {mem:5.2f}GiB({mem / 79.11 * 100:.2f}%)  "
                               f"tps: {int(round(tps)):,}  tflops: {tfl:,.2f}  mfu: {tfl / PEAK * 100:.2f}%")
                toks = 0
                t_last_log = s1
            if step in ck:
                c0, c1 = ck[step]
                tl(c0 + 0.01, "Saving the checkpoint (or staging if async is enabled).")
                tl(c1, f"Finished saving the checkpoint (or staging if async is enabled)in {c1 - c0 - 0.02:.2f} seconds.")
        return t_last_log

    startup(JOB1_START, "h100-[031-046]", RUN1_STEP0, 21.37, 1843221)
    steps_out(steps1, ckpts1, RUN1_STEP0, RUN1_FIRST_STEP_T - 2.5)
    # requeue (scontrol requeue) : SIGTERM to the batch step
    L.append(f"slurmstepd: error: *** JOB {JOBID} ON h100-031 CANCELLED AT {dt(REQUEUE).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO JOB REQUEUE ***")
    L.append(f"W{glog_time(REQUEUE + 0.21)} 1843221 torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death signal, shutting down workers")
    for lr in range(8):
        L.append(f"W{glog_time(REQUEUE + 0.212 + lr * 0.0004)} 1843221 torch/distributed/elastic/multiprocessing/api.py:897] Sending process {1843290 + lr} closing signal SIGTERM")
    L.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
    L.append(f"slurmstepd: error: *** STEP {JOBID}.0 ON h100-031 CANCELLED AT {dt(REQUEUE).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO JOB REQUEUE ***")
    # run 2 (appended: --open-mode=append)
    startup(JOB2_START, "h100-[031-037,039-047]", resume2, 23.91, 2017534)
    steps_out(steps2, ckpts2, resume2, RUN2_FIRST_STEP_T - 2.5)
    with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as f:
        f.write("\n".join(L) + "\n")


# ----------------------------------------------------------------------------- syslog per host
def syslog_host(h):
    c = hostc[h]
    ev = []  # (t, text)
    pid = [int(rng.integers(400000, 900000))]

    def npid():
        pid[0] += int(rng.integers(3, 400))
        return pid[0]

    t0 = ts("2025-05-12T23:30:00")
    t1 = W_END + 300
    # sysstat every 10 minutes, hourly cron
    m = math.ceil((t0 - 300) / 600) * 600 + 300
    while m < t1:
        ev.append((m + rng.uniform(0.1, 0.9), f"CRON[{npid()}]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"))
        m += 600
    m = math.ceil(t0 / 300) * 300
    while m < t1:
        ev.append((m + rng.uniform(0.05, 0.6), f"CRON[{npid()}]: (root) CMD (/usr/sbin/nhc -q)"))
        m += 300
    hr = math.floor(t0 / 3600) * 3600 + 17 * 60
    while hr < t1:
        if hr > t0:
            ev.append((hr + rng.uniform(0.1, 0.9), f"CRON[{npid()}]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)"))
        hr += 3600
    # log rotation at midnight
    mid = ts("2025-05-13T00:00:00")
    ev.append((mid + 0.41, "systemd[1]: Starting Rotate log files..."))
    ev.append((mid + 0.52, "systemd[1]: Starting Daily man-db regeneration..."))
    ev.append((mid + 1.37, "rsyslogd: [origin software=\"rsyslogd\" swVersion=\"8.2112.0\" x-pid=\"1402\" x-info=\"https://www.rsyslog.com\"] rsyslogd was HUPed"))
    ev.append((mid + 1.44, "systemd[1]: logrotate.service: Deactivated successfully."))
    ev.append((mid + 1.45, "systemd[1]: Finished Rotate log files."))
    ev.append((mid + 2.91, "systemd[1]: man-db.service: Deactivated successfully."))
    ev.append((mid + 2.92, "systemd[1]: Finished Daily man-db regeneration."))
    # node health check over ssh every 15 minutes
    sess = int(rng.integers(3000, 9000))
    q = math.ceil(t0 / 900) * 900
    while q < t1:
        tq = q + rng.uniform(2, 9)
        p = npid()
        port = int(rng.integers(33000, 60999))
        ev.append((tq, f"sshd[{p}]: Accepted publickey for nodecheck from 10.31.0.12 port {port} ssh2: ED25519 SHA256:Xq3v1bq0Jw2k8mXH3w2eXl1c0rB9tq0G4c3w0a8ZpYk"))
        ev.append((tq + 0.02, f"sshd[{p}]: pam_unix(sshd:session): session opened for user nodecheck(uid=997) by (uid=0)"))
        ev.append((tq + 0.03, f"systemd-logind[1711]: New session {sess} of user nodecheck."))
        ev.append((tq + 0.04, f"systemd[1]: Started Session {sess} of User nodecheck."))
        ev.append((tq + 2.7, f"sshd[{p}]: pam_unix(sshd:session): session closed for user nodecheck"))
        ev.append((tq + 2.71, f"systemd[1]: session-{sess}.scope: Deactivated successfully."))
        ev.append((tq + 2.72, f"systemd-logind[1711]: Session {sess} logged out. Waiting for processes to exit."))
        ev.append((tq + 2.73, f"systemd-logind[1711]: Removed session {sess}."))
        sess += 1
        q += 900
    # chrony
    for _ in range(2):
        ev.append((rng.uniform(t0, t1), "chronyd[1288]: Selected source 10.31.0.2 (ntp1.sc4.internal)"))
    # an occasional perf sampling message
    if rng.random() < 0.6:
        a = int(rng.integers(2501, 2600))
        ev.append((rng.uniform(t0, t1), f"kernel: [{{up}}] perf: interrupt took too long ({a} > {a - int(rng.integers(2, 9))}), lowering kernel.perf_event_max_sample_rate to {int(round(199000000 / a / 250) * 250)}"))
    # slurmd: job launch / requeue
    slp = 2840 + int(rng.integers(0, 40))

    def slurm_run(tstart, hosts, first_host):
        if h not in hosts:
            return
        if h == first_host:
            ev.append((tstart - 0.3, f"slurmd[{slp}]: slurmd: Launching batch job {JOBID} for UID 41017"))
        ev.append((tstart + 2.9, f"slurmd[{slp}]: slurmd: launch task StepId={JOBID}.0 request from UID:41017 GID:41017 HOST:{IPS['h100-031']} PORT:{int(rng.integers(33000, 60999))}"))
        ev.append((tstart + 2.91, f"slurmd[{slp}]: slurmd: task/affinity: lllp_distribution: JobId={JOBID} manual binding: none,one_thread"))
        tk = tstart + 3.02
        for sw in range(4):
            for _ in range(int(rng.integers(1, 4))):
                tk += rng.uniform(0.000002, 0.00001)
                ev.append((tk, f"kernel: [{{up}}] nvidia-nvswitch{sw}: open (major=510)"))

    slurm_run(JOB1_START, RUN1, "h100-031")
    if h in RUN1:
        ev.append((REQUEUE + 0.05, f"slurmstepd[{int(rng.integers(1800000, 1900000))}]: error: *** STEP {JOBID}.0 ON {h} CANCELLED AT {dt(REQUEUE).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO JOB REQUEUE ***"))
    slurm_run(JOB2_START, RUN2, "h100-031")

    ev.sort(key=lambda x: x[0])
    out = []
    for (t, msg) in ev:
        d = dt(t)
        stamp = f"{d:%b} {d.day:2d} {d:%H:%M:%S}"
        if "{up}" in msg:
            up = t - c["boot"]
            msg = msg.replace("{up}", f"{up:12.6f}")
        out.append(f"{stamp} {h} {msg}")
    p = os.path.join(OUT, "logs", h)
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "syslog"), "w") as f:
        f.write("\n".join(out) + "\n")


# ----------------------------------------------------------------------------- BMC SEL (FreeIPMI ipmi-sel)
SEL_HDR = "ID   | Date        | Time     | Name                                              | Type              | State    | Event"


def sel_row(i, t, name, typ, state_, event):
    d = dt(t)
    return (f"{str(i).ljust(4)} | {d.strftime('%b-%d-%Y')} | {d.strftime('%H:%M:%S')} | {name.ljust(49)} | "
            f"{typ.ljust(17)} | {state_.ljust(8)} | {event}")


def sel_host(h):
    c = hostc[h]
    rows = []
    i = 1
    boot_prev = c["boot"] - 86400 * rng.uniform(40, 80)
    for ps in range(1, 7):
        rows.append(sel_row(i, boot_prev - 240, f"Power Supply PS{ps} Status", "Power Supply", "Nominal", "Presence detected")); i += 1
    rows.append(sel_row(i, boot_prev + 118, "Sensor #0", "OS Boot", "Nominal", "C: boot completed")); i += 1
    rows.append(sel_row(i, c["boot"] - 95, "Sensor #0", "OS Critical Stop", "Warning", "OS Graceful Shutdown")); i += 1
    rows.append(sel_row(i, c["boot"] + 118, "Sensor #0", "OS Boot", "Nominal", "C: boot completed")); i += 1
    if h == BAD:
        # verbatim wording of the FreeIPMI ipmi-sel line in thomas-krenn/check_ipmi_sensor_v3#26
        rows.append(f"{str(i).ljust(4)} | {dt(PSU_FAIL1).strftime('%b-%d-%Y')} | {dt(PSU_FAIL1).strftime('%H:%M:%S')} | Power Supply PS2 Status                           | Power Supply      | Critical | Power Supply Failure detected"); i += 1
        rows.append(f"{str(i).ljust(4)} | {dt(PSU_FAIL2).strftime('%b-%d-%Y')} | {dt(PSU_FAIL2).strftime('%H:%M:%S')} | Power Supply PS2 Status                           | Power Supply      | Critical | Power Supply Failure detected"); i += 1
    p = os.path.join(OUT, "logs", h)
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "ipmi-sel.txt"), "w") as f:
        f.write(SEL_HDR + "\n" + "\n".join(rows) + "\n")


def slurmctld_log():
    def st(t):
        d = dt(t + 0.137)
        return d.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(d.microsecond / 1000):03d}"
    L = [
        f"[{st(JOB1_ALLOC)}] sched: Allocate JobId={JOBID} NodeList=h100-[031-046] #CPUs=3584 Partition=train",
        f"[{st(ts('2025-05-13T00:00:00') + 1.2)}] Warning: Note very large processing time from _slurmctld_background: usec=1032117 began=00:00:00.153",
        f"[{st(DRAIN)}] update_node: node {BAD} reason set to: PSU2 failed, GPUs power-braked - DCOPS-4471",
        f"[{st(DRAIN)}] update_node: node {BAD} state set to DRAINING",
        f"[{st(REQUEUE + 0.02)}] _job_complete: JobId={JOBID} WTERMSIG 15",
        f"[{st(REQUEUE + 0.02)}] _job_complete: JobId={JOBID} done",
        f"[{st(JOB2_START - 1)}] sched: Allocate JobId={JOBID} NodeList=h100-[031-037,039-047] #CPUs=3584 Partition=train",
    ]
    with open(os.path.join(OUT, "logs", "slurmctld.log"), "w") as f:
        f.write("\n".join(L) + "\n")


# ----------------------------------------------------------------------------- main
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    for h in HOSTS:
        gen_host(h)
    trainer_log()
    for h in HOSTS:
        syslog_host(h)
        sel_host(h)
    slurmctld_log()

    # measured throughput (from the simulated steps)
    def tps_between(steps, a, b):
        s = [(s1 - s0) for (_, s0, s1) in steps if a <= s0 and s1 <= b]
        return TOK_PER_GPU * len(s) / sum(s)
    base = tps_between(steps1, W_START, BRAKE_START)
    deg = tps_between(steps1, BRAKE_START + 60, REQUEUE)
    after = tps_between(steps2, RUN2_FIRST_STEP_T + 60, W_END)
    loss = (1 - deg / base) * 100
    duty = BRAKE[int(BRAKE_START - SIM0):int(REQUEUE - SIM0)].mean()
    print(f"baseline tps/GPU {base:.0f}  degraded {deg:.0f}  after {after:.0f}  loss {loss:.1f}%  brake duty {duty:.2f}")
    print(f"run1 last step {last1}  resume {resume2}")

    inc = {
        "id": ID,
        "title": "Llama-3 8B pretraining on 128 H100 (torchtitan) slowed for over an hour, job requeued",
        "window": {"start": "2025-05-13T00:55:00+00:00", "end": "2025-05-13T03:25:00+00:00"},
        "baseline": {"start": "2025-05-13T00:55:00+00:00", "end": "2025-05-13T01:35:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "sc4-h100", "nodes": 17, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
        "trainer": {"gpus": 128},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    truth = {
        "id": ID,
        "cause": ("Power supply PS2 of h100-038 failed at 01:41:49 UTC and the BMC repeatedly asserted the GPU "
                  "power brake, so all 8 GPUs of h100-038 ran intermittently in HW Slowdown + HW Power Brake "
                  "Slowdown (~1.05 GHz, ~330 W, temperatures normal) and the synchronous FSDP job waited on that "
                  "straggler until the node was drained and the job requeued at 02:54:10 UTC."),
        "cause_metrics": [
            "DCGM_FI_DEV_CLOCKS_EVENT_REASONS (136 = 0x88 = HW_SLOWDOWN 0x8 | HW_POWER_BRAKE 0x80 on all 8 GPUs of h100-038)",
            "DCGM_FI_DEV_SM_CLOCK (h100-038 drops to ~1,020-1,110 MHz vs 1,980 MHz)",
            "DCGM_FI_DEV_POWER_USAGE (h100-038 ~330 W while braked vs ~650 W)",
            "ipmi_sensor_state{name=\"PS2 Status\",type=\"Power Supply\",node=\"h100-038\"} 0 -> 2",
            "ipmi_dcmi_power_consumption_current_watts (h100-038 lower)",
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE (h100-038 stays busy while its peers wait)",
        ],
        "effect_metrics": ["trainer tps (torchtitan log)", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE on the other 15 hosts",
                           "node_infiniband_port_data_*_bytes_total rates", "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL rate"],
        "cause_log_evidence": [
            {"file": "logs/h100-038/ipmi-sel.txt",
             "text": "Power Supply PS2 Status                           | Power Supply      | Critical | Power Supply Failure detected",
             "times": ["2025-05-13T01:41:49Z", "2025-05-13T01:42:02Z"],
             "source": "https://github.com/thomas-krenn/check_ipmi_sensor_v3/issues/26 (FreeIPMI ipmi-sel output, rows 4-5: "
                       "'4    | Jul-20-2017 | 10:29:49 | Power Supply PS2 Status ... | Power Supply      | Critical | Power Supply Failure detected'); "
                       "record ID, date and time adapted; same wording also in thomas-krenn/check_ipmi_sensor_v3#66",
             "adapted": ["record ID", "date", "time"]},
        ],
        "context_log_lines": [
            {"file": f"logs/slurm-{JOBID}.out",
             "text": "slurmstepd: error: *** JOB 2291847 ON h100-031 CANCELLED AT 2025-05-13T02:54:10 DUE TO JOB REQUEUE ***",
             "source": "Slurm format string '*** %s ON %s CANCELLED AT %s DUE TO JOB REQUEUE ***' (SchedMD/slurm src/slurmd/slurmstepd/req.c); job id, host, time adapted"},
            {"file": f"logs/slurm-{JOBID}.out",
             "text": "torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death signal, shutting down workers",
             "source": "PyTorch torch/distributed/elastic/agent/server/api.py logger.warning('Received %s death signal, shutting down workers'); glog prefix time adapted"},
            {"file": "logs/slurmctld.log",
             "text": "update_node: node h100-038 reason set to: PSU2 failed, GPUs power-braked - DCOPS-4471",
             "source": "Slurm slurmctld update_node() message; the reason is the operator's text"},
        ],
        "hosts": [BAD],
        "gpu": None,
        "gpus_affected": {"host": BAD, "indices": list(range(8))},
        "onset": "2025-05-13T01:41:49Z",
        "end": "2025-05-13T02:54:10Z",
        "recovered": "2025-05-13T02:57:50Z (job restarted on h100-[031-037,039-047], resumed from step %d)" % resume2,
        "job_throughput_loss_pct": round(float(loss), 1),
        "job_throughput_detail": {
            "baseline_tokens_per_s_per_gpu": round(float(base)),
            "degraded_tokens_per_s_per_gpu": round(float(deg)),
            "after_restart_tokens_per_s_per_gpu": round(float(after)),
            "degraded_minutes": round((REQUEUE - BRAKE_START) / 60, 1),
            "brake_duty_fraction_h100_038": round(float(duty), 2),
            "restart_gap": "02:54:10 requeue -> 02:57:47 first step; steps %d-%d redone" % (resume2 + 1, last1),
        },
        "distractors": [
            "SW power cap (reason 4) samples on several GPUs of every host, all day, at ~695 W and 1,830-1,965 MHz: normal for H100 at a 700 W limit",
            "GPU temperatures on h100-038 go DOWN (less power), not up: this is not thermal",
            "after the requeue h100-038 is idle (reason 1, 345 MHz, ~72 W) and the spare h100-047 takes its place",
        ],
        "what_a_good_postmortem_says": (
            "Training throughput fell about %d%% from 01:42 UTC for 72 minutes because one node, h100-038, lost power "
            "supply PS2 (BMC SEL 'Power Supply Failure detected' at 01:41:49) and its BMC kept asserting the GPU power "
            "brake: all 8 of its GPUs reported clock-event reasons 0x88 (HW Slowdown + HW Power Brake) at ~1.05 GHz and "
            "~330 W with normal temperatures, and the synchronous job waited on them. Draining h100-038 and requeueing the "
            "job onto a spare at 02:54 restored full speed from 02:58; the PSU must be replaced before h100-038 returns, "
            "and an alert on HW power brake / PSU sensor state would have caught it within minutes." % round(loss)),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)


if __name__ == "__main__":
    main()
