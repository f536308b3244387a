#!/usr/bin/env python3
"""Incident 2: on c08-h05 the PCIe link between Ice Lake root port 0000:89:02.0 and the
ConnectX-6 HDR HCA mlx5_3 (0000:8a:00.0) takes a burst of corrected Physical Layer
receiver errors (AER, RxErr) and retrains from x16 to x8 (Gen4). The HCA can now move
only ~13 GB/s per direction, below what the FSDP job pushes through each rail, so the
whole synchronous 24-node x 8 A100 job runs ~4.4% slower from then on. Corrected errors
keep coming now and then. Nothing crashes.

Writes /tmp/p/blind_15/a100-hca-pcie-x8-slowdown/ :
  incident.yaml, truth.yaml
  metrics/dcgm-exporter.parquet   long format, one row group per metric, sorted by time
  metrics/node-exporter.parquet   node_exporter incl. node_infiniband_* and node_pcidevice_*
  logs/<host>/kern.log            rsyslog kern.log (Ubuntu 20.04, HWE 5.15 kernel)
  logs/slurm-77120.out            torchtitan output, torchrun --tee 3 --role rank prefixes

Fixed seed.
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import yaml

SEED = 15021
rng = np.random.default_rng(SEED)
ID = "a100-hca-pcie-x8-slowdown"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc


def T(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


HOSTS = [f"c07-h{i:02d}" for i in range(1, 13)] + [f"c08-h{i:02d}" for i in range(1, 13)]
IPS = {h: f"10.52.{7 if h.startswith('c07') else 8}.{10 + int(h[-2:])}" for h in HOSTS}
BAD_HOST = "c08-h05"
PRED_HOST = "c08-h04"            # its predecessor on the rail-3 ring
BAD_HCA = 3
ROOT_PORT = "0000:89:02.0"       # verbatim from the source AER lines
HCA_BDF = "0000:8a:00.0"
MODEL = "NVIDIA A100-SXM4-80GB"
DRIVER = "535.183.06"
GPU_BUS = ["07", "0f", "47", "4e", "87", "90", "b7", "bd"]
HCA_BUS = ["0c", "12", "4b", "8a", "53", "95", "a9", "c2"]
HCA_RP = {"0c": ("0b", "02"), "12": ("11", "02"), "4b": ("4a", "02"), "53": ("52", "02"),
          "8a": ("89", "02"), "95": ("94", "02"), "a9": ("a8", "02"), "c2": ("c1", "02")}
GPU_SW = {b: (f"{int(b, 16) - 2:02x}", "00") for b in GPU_BUS}   # PCIe switch downstream port above each GPU

WIN_START = T("2025-10-03T09:30:00")
WIN_END = T("2025-10-03T14:00:00")
BASE_END = T("2025-10-03T10:45:00")
JOB_SRUN = T("2025-10-03T06:12:30")
TRAIN0 = T("2025-10-03T06:17:41")
AER_START = T("2025-10-03T11:07:52.418")
RETRAIN = T("2025-10-03T11:08:14.207")     # link comes back at x8
COLLECT = T("2025-10-03T14:03:20")

# -------------------------------------------------------------------- trainer simulation
LOCAL_BS, SEQ, WORLD = 2, 8192, 192
TOK_PER_GPU_STEP = LOCAL_BS * SEQ
STEP0 = 3500
DT_BEFORE = 6.690
BYTES_PER_HCA_STEP = 92.0e9         # FSDP all-gather x2 + reduce-scatter through each rail per step
CAP = 13.21e9                       # usable bytes/s through a Gen4 x8 link after TLP overhead
DT_AFTER = BYTES_PER_HCA_STEP / CAP + 0.02
LOG_FREQ = 10
CKPT_EVERY = 500
PEAK = 312e12
FLOPS_PER_TOKEN = 6.148e10


def ar1(n, phi, sd):
    e = rng.normal(0, sd * math.sqrt(1 - phi * phi), n)
    x = np.empty(n)
    x[0] = rng.normal(0, sd)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


steps = []          # (t_end, step, dt, ckpt_seconds)
t = TRAIN0
s = STEP0
noise = 0.0
while True:
    noise = 0.8 * noise + rng.normal(0, 0.005)
    base = DT_BEFORE if t < RETRAIN else DT_AFTER
    dt = base * (1 + noise)
    s += 1
    ck = float(rng.uniform(9, 14)) if s % CKPT_EVERY == 0 else 0.0
    te = t + timedelta(seconds=dt + ck)
    if te > COLLECT:
        break
    steps.append((te, s, dt, ck))
    t = te
ckpt_windows = [(te - timedelta(seconds=ck), te) for (te, s_, dt, ck) in steps if ck > 0]


def step_time_at(tt: datetime) -> float:
    return DT_BEFORE if tt < RETRAIN else DT_AFTER


def in_ckpt(tt):
    return any(a <= tt < b for a, b in ckpt_windows)


# -------------------------------------------------------------------- scrape grid helpers
def scrape_times(offset, interval, start, end):
    out, k = [], 0
    while True:
        tt = start + timedelta(milliseconds=round((offset + k * interval + float(rng.normal(0, 0.003))) * 1000))
        if tt >= end:
            return out
        out.append(tt)
        k += 1


def rand_uuid():
    b = rng.integers(0, 256, 16)
    h = "".join(f"{x:02x}" for x in b)
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


UUIDS = {(h, g): rand_uuid() for h in HOSTS for g in range(8)}
BOOT = {h: T("2025-09-19T08:00:00") + timedelta(hours=float(rng.uniform(0, 120))) for h in HOSTS}

# -------------------------------------------------------------------- dcgm-exporter
DCGM_COLS = ["Hostname", "gpu", "UUID", "device", "modelName", "pci_bus_id", "DCGM_FI_DRIVER_VERSION", "instance", "job"]
dcgm = {}   # metric -> dict of columns


def dadd(metric, tt, v, h, g):
    d = dcgm.setdefault(metric, {k: [] for k in ["timestamp", "metric", "value"] + DCGM_COLS})
    d["timestamp"].append(tt)
    d["metric"].append(metric)
    d["value"].append(float(v))
    d["Hostname"].append(h)
    d["gpu"].append(str(g))
    d["UUID"].append(UUIDS[(h, g)])
    d["device"].append(f"nvidia{g}")
    d["modelName"].append(MODEL)
    d["pci_bus_id"].append(f"00000000:{GPU_BUS[g].upper()}:00.0")
    d["DCGM_FI_DRIVER_VERSION"].append(DRIVER)
    d["instance"].append(f"{IPS[h]}:9400")
    d["job"].append("dcgm-exporter")


host_toff = {h: float(rng.normal(0, 2.5)) for h in HOSTS}
host_poff = {h: float(rng.normal(0, 6)) for h in HOSTS}
slot_t = [-2.0, -1.0, -1.5, 0.0, 0.5, 1.5, 2.0, 3.0]
for h in HOSTS:
    times = scrape_times(float(rng.uniform(0, 30)), 30.0, WIN_START, WIN_END)
    n = len(times)
    for g in range(8):
        goff = float(rng.normal(0, 7))
        pn = ar1(n, 0.6, 8.0)
        tn = ar1(n, 0.8, 0.5)
        xn = ar1(n, 0.5, 0.012)
        energy = float(rng.uniform(2.0e11, 4.5e11))     # mJ since driver load
        temp = 60.0
        mtemp = 66.0
        prev = times[0] - timedelta(seconds=30)
        carry = 0.0
        for k, tt in enumerate(times):
            slow = DT_BEFORE / step_time_at(tt)            # 1.0 before, ~0.955 after
            ck = in_ckpt(tt)
            if ck:
                util, power, tensor, dram = int(rng.integers(5, 60)), 140 + abs(pn[k]) * 3, 0.02, 0.05
                pcie_rx = pcie_tx = 1.2e9
            else:
                util = 100 if rng.random() > 0.04 else int(rng.integers(97, 100))
                power = (352 + host_poff[h] + goff + pn[k]) * (1 - 0.9 * (1 - slow))
                tensor = (0.452 + xn[k]) * slow
                dram = (0.311 + xn[k] * 0.6) * slow
                pcie_rx = 13.75e9 * slow * (1 + xn[k] * 0.8) + 0.35e9
                pcie_tx = 13.70e9 * slow * (1 + xn[k] * 0.8) + 0.22e9
                if h == BAD_HOST and g == BAD_HCA and tt >= RETRAIN:
                    want = pcie_rx - 0.35e9 + carry
                    got = min(want, CAP * (1 + float(rng.normal(0, 0.002))))
                    carry = want - got
                    pcie_rx = got + 0.35e9
                    pcie_tx = min(pcie_tx, CAP * (1 + float(rng.normal(0, 0.002))) + 0.22e9)
            power = float(min(power, 399.0))
            sm = 1410 if power < 385 else int(round((1410 - (power - 385) * 9) / 15) * 15)
            target = 27.0 + host_toff[h] + slot_t[g] + power * 0.105
            temp += 0.4 * (target - temp)
            mtemp += 0.35 * (target + 6.5 - mtemp)
            dsec = (tt - prev).total_seconds()
            energy += power * dsec * 1000.0
            prev = tt
            vals = {
                "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_POWER_USAGE": round(power, 3),
                "DCGM_FI_DEV_GPU_TEMP": int(round(temp + tn[k])), "DCGM_FI_DEV_MEMORY_TEMP": int(round(mtemp + tn[k])),
                "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": 1593,
                "DCGM_FI_DEV_FB_USED": 62811 + int(rng.integers(-40, 40)), "DCGM_FI_DEV_XID_ERRORS": 0,
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": 0, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": int(energy),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": round(max(0.0, tensor), 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": round(max(0.0, dram), 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": int(pcie_tx), "DCGM_FI_PROF_PCIE_RX_BYTES": int(pcie_rx),
            }
            for m, v in vals.items():
                dadd(m, tt, v, h, g)

# -------------------------------------------------------------------- node_exporter
NODE_COLS = ["instance", "job", "device", "port", "segment", "bus", "function", "board_id", "firmware_version",
             "hca_type", "class_id", "device_id", "vendor_id", "subsystem_device_id", "subsystem_vendor_id",
             "revision", "parent_segment", "parent_bus", "parent_device", "parent_function",
             "domainname", "machine", "nodename", "release", "sysname", "version"]
node = {}   # metric -> list of (times, values, labels) chunks, one per series


def nseries(metric, times, values, labels):
    node.setdefault(metric, []).append((list(times), [float(v) for v in values], dict(labels)))


def pci_devices():
    """(bus, dev, fn, class, vendor, device, parent(bus,dev,fn), width_max, speed_max)"""
    L = []
    for b in GPU_BUS:
        sb, sd = GPU_SW[b]
        L.append((b, "00", "0", "0x030200", "0x10de", "0x20b2", (sb, sd, "0"), 16, 1.6e10))
        L.append((sb, sd, "0", "0x060400", "0x1000", "0xc010", (f"{int(sb, 16) - 1:02x}", "00", "0"), 16, 1.6e10))
    for b in HCA_BUS:
        rb, rd = HCA_RP[b]
        L.append((b, "00", "0", "0x020700", "0x15b3", "0x101b", (rb, rd, "0"), 16, 1.6e10))
        L.append((rb, rd, "0", "0x060400", "0x8086", "0x347a", ("*", "*", "*"), 16, 1.6e10))
    for b in ["c5", "c6", "e2", "e3"]:
        L.append((b, "00", "0", "0x010802", "0x144d", "0xa824", ("c4" if b < "d0" else "e1", "02", "0"), 4, 1.6e10))
    for b in ["31", "32", "33", "34", "35", "36"]:
        L.append((b, "00", "0", "0x068000", "0x10de", "0x1af1", ("30", "00", "0"), 2, 1.6e10))
    return L


PCI = pci_devices()

for h in HOSTS:
    inst = f"{IPS[h]}:9100"
    base = {"instance": inst, "job": "node"}
    times = scrape_times(float(rng.uniform(0, 15)), 15.0, WIN_START, WIN_END)
    n = len(times)
    uname = dict(base, domainname="(none)", machine="x86_64", nodename=h, release="5.15.0-122-generic",
                 sysname="Linux", version="#132~20.04.1-Ubuntu SMP Fri Aug 30 15:50:07 UTC 2024")
    common = ar1(n, 0.7, 0.012)      # job-wide pace wobble, same on every host within one scrape
    loadn = ar1(n, 0.9, 1.5)
    nseries("node_uname_info", times, [1] * n, uname)
    nseries("node_boot_time_seconds", times, [int(BOOT[h].timestamp())] * n, base)
    nseries("node_load1", times, [round(max(0.1, 21.0 + x), 2) for x in loadn], base)
    # InfiniBand
    for d in range(8):
        lab = dict(base, device=f"mlx5_{d}", port="1")
        info = dict(base, device=f"mlx5_{d}", board_id="MT_0000000223", firmware_version="20.39.1002", hca_type="MT4123")
        cnt = {m: float(rng.uniform(1e14, 9e14)) for m in ("rx", "tx")}
        pk = {m: cnt[m] / 3900.0 for m in ("rx", "tx")}
        wait = float(rng.uniform(1e10, 5e10))
        err = float(int(rng.integers(0, 4)))
        indep = {m: ar1(n, 0.5, 0.015) for m in ("rx", "tx")}
        carry = {"rx": 0.0, "tx": 0.0}
        ser = {k: [] for k in ("rx", "tx", "prx", "ptx", "wait")}
        prev = times[0] - timedelta(seconds=15)
        for k, tt in enumerate(times):
            dsec = (tt - prev).total_seconds()
            prev = tt
            slow = DT_BEFORE / step_time_at(tt)
            for m in ("rx", "tx"):
                if in_ckpt(tt):
                    rate = 0.6e9
                else:
                    rate = BYTES_PER_HCA_STEP / DT_BEFORE * slow * (1 + common[k] + indep[m][k])
                if h == BAD_HOST and d == BAD_HCA and tt >= RETRAIN:
                    want = rate + carry[m]
                    got = min(want, CAP * (1 + float(rng.normal(0, 0.0015))))
                    carry[m] = want - got
                    rate = got
                cnt[m] += rate * dsec
                pk[m] += rate * dsec / float(rng.uniform(3880, 3920))
                ser[m].append(int(cnt[m]))
                ser["p" + m].append(int(pk[m]))
            wrate = 2.1e5 * (1 + abs(float(rng.normal(0, 0.3))))
            if tt >= RETRAIN and d == BAD_HCA and h != BAD_HOST:
                wrate *= 14.0 if h == PRED_HOST else 2.6
            wait += wrate * dsec
            ser["wait"].append(int(wait))
        nseries("node_infiniband_port_data_received_bytes_total", times, ser["rx"], lab)
        nseries("node_infiniband_port_data_transmitted_bytes_total", times, ser["tx"], lab)
        nseries("node_infiniband_port_packets_received_total", times, ser["prx"], lab)
        nseries("node_infiniband_port_packets_transmitted_total", times, ser["ptx"], lab)
        nseries("node_infiniband_port_transmit_wait_total", times, ser["wait"], lab)
        nseries("node_infiniband_port_errors_received_total", times, [err] * n, lab)
        nseries("node_infiniband_link_downed_total", times, [0] * n, lab)
        nseries("node_infiniband_link_error_recovery_total", times, [0] * n, lab)
        nseries("node_infiniband_state_id", times, [4] * n, lab)
        nseries("node_infiniband_physical_state_id", times, [5] * n, lab)
        nseries("node_infiniband_rate_bytes_per_second", times, [2.5e10] * n, lab)
        nseries("node_infiniband_info", times, [1] * n, info)
    # PCI devices (node_exporter pcidevice collector)
    for (bus, dev, fn, cls, ven, did, parent, wmax, smax) in PCI:
        lab = dict(base, segment="0000", bus=bus, device=dev, function=fn)
        info = dict(lab, class_id=cls, device_id=did, vendor_id=ven, revision="0x00",
                    subsystem_device_id="0x0000", subsystem_vendor_id=ven,
                    parent_segment="0000" if parent[0] != "*" else "*", parent_bus=parent[0],
                    parent_device=parent[1], parent_function=parent[2])
        degraded = h == BAD_HOST and (bus, dev) in (("8a", "00"), ("89", "02"))
        nseries("node_pcidevice_current_link_width", times, [8 if (degraded and tt >= RETRAIN) else wmax for tt in times], lab)
        nseries("node_pcidevice_max_link_width", times, [wmax] * n, lab)
        nseries("node_pcidevice_current_link_transfers_per_second", times, [smax] * n, lab)
        nseries("node_pcidevice_max_link_transfers_per_second", times, [smax] * n, lab)
        nseries("node_pcidevice_info", times, [1] * n, info)

# -------------------------------------------------------------------- kern.log
def syslog_ts(tt: datetime) -> str:
    return tt.strftime("%b ") + f"{tt.day:2d}" + tt.strftime(" %H:%M:%S")


def uptime(h, tt):
    u = (tt - BOOT[h]).total_seconds()
    return f"[{u:12.6f}]"


# verbatim AER group (Eric Badger, linux-pci, 2022-03-14, Ice Lake root port [8086:347a])
AER_GROUP = [
    "pcieport 0000:89:02.0: AER: Corrected error received: 0000:89:02.0",
    "pcieport 0000:89:02.0: AER: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)",
    "pcieport 0000:89:02.0: AER:   device [8086:347a] error status/mask=00000001/00000000",
    "pcieport 0000:89:02.0: AER:    [ 0] RxErr                 ",
]
# verbatim (Thomas-Krenn wiki, kernel 5.4): "AER: Multiple Corrected error received" line
AER_MULTI = "pcieport 0000:89:02.0: AER: Multiple Corrected error received: 0000:89:02.0"

RUNTIME_BENIGN = [
    "perf: interrupt took too long (2511 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
    "perf: interrupt took too long (3143 > 3138), lowering kernel.perf_event_max_sample_rate to 63500",
    "hrtimer: interrupt took 38213 ns",
    "audit: type=1400 audit({epoch}:{seq}): apparmor=\"DENIED\" operation=\"open\" profile=\"snap.lxd.activate\" name=\"/proc/{pid}/mountinfo\" pid={pid} comm=\"snap-exec\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0",
    "kauditd_printk_skb: 4 callbacks suppressed",
    "workqueue: drm_fb_helper_damage_work hogged CPU for >10000us 4 times, consider switching to WQ_UNBOUND",
    "NFS: state manager: check lease failed on NFSv4 server 10.52.0.20 with error 10008",
]


def write_kernlog(h):
    start = T("2025-09-28T00:00:05")
    lines = []
    tt = start
    seq = int(rng.integers(1000, 5000))
    while True:
        tt += timedelta(seconds=float(rng.exponential(1.3 * 3600)))
        if tt >= COLLECT:
            break
        msg = RUNTIME_BENIGN[int(rng.integers(0, len(RUNTIME_BENIGN)))]
        seq += int(rng.integers(1, 60))
        pid = int(rng.integers(2000, 90000))
        msg = msg.replace("{epoch}", f"{tt.timestamp():.3f}").replace("{seq}", str(seq)).replace("{pid}", str(pid))
        lines.append((tt, msg))
    for s_ in range(6):
        lines.append((JOB_SRUN + timedelta(seconds=17.2 + 0.0003 * s_), f"nvidia-nvswitch{s_}: open (major=509)"))
    if h == HOSTS[0]:
        lines.append((JOB_SRUN + timedelta(seconds=26.8), "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters."))
    if h == "c07-h09":   # an isolated corrected error on an NVMe root port, long before: a red herring
        t0 = T("2025-10-03T10:12:03.551")
        for j, x in enumerate(AER_GROUP):
            lines.append((t0 + timedelta(microseconds=3 + 9000 * j), x.replace("0000:89:02.0", "0000:c4:02.0")))
    if h == BAD_HOST:
        # the burst: ~22 s of corrected receiver errors, then the link retrains at x8
        tt = AER_START
        n_groups = 0
        def group(t0, lines_):
            off = 0
            for x in lines_:
                lines.append((t0 + timedelta(microseconds=off), x))
                off += int(rng.integers(3000, 9500)) if off else 3
        while tt < RETRAIN - timedelta(seconds=0.3):
            if n_groups and rng.random() < 0.35:
                lines.append((tt, AER_MULTI))
                group(tt + timedelta(microseconds=int(rng.integers(20, 80))), AER_GROUP[1:])
            else:
                group(tt, AER_GROUP)
            n_groups += 1
            tt += timedelta(seconds=float(rng.exponential(0.55)) + 0.04)
        # then "now and then"
        tt = RETRAIN + timedelta(minutes=3.2)
        while tt < COLLECT:
            group(tt, AER_GROUP)
            tt += timedelta(seconds=float(rng.exponential(16 * 60)) + 60)
    lines.sort(key=lambda x: x[0])
    p = os.path.join(OUT, "logs", h, "kern.log")
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        for tt, msg in lines:
            f.write(f"{syslog_ts(tt)} {h} kernel: {uptime(h, tt)} {msg}\n")


# -------------------------------------------------------------------- job output (torchtitan)
def titan_ts(tt):
    return tt.strftime("%Y-%m-%d %H:%M:%S,") + f"{tt.microsecond // 1000:03d}"


def write_job():
    out = []
    out.append((JOB_SRUN - timedelta(seconds=1), "SLURM_JOB_ID=77120 SLURM_JOB_NODELIST=c07-h[01-12],c08-h[01-12]"))
    out.append((JOB_SRUN - timedelta(seconds=1), "+ srun --kill-on-bad-exit=1 torchrun --nnodes 24 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint c07-h01:29500 --local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train --job.config_file ./torchtitan/models/llama3/train_configs/llama3_8b.toml --metrics.disable_color_printing"))
    for i, h in enumerate(HOSTS):
        t0 = JOB_SRUN + timedelta(seconds=18.7 + float(rng.uniform(0, 0.8)))
        pid = int(rng.integers(20000, 90000))
        ts = f"W{t0:%m%d} {t0:%H:%M:%S}.{int(rng.integers(0, 999)):03d}000 {pid} site-packages/torch/distributed/run.py:793] "
        for x in ["", "*****************************************",
                  "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
                  "*****************************************"]:
            out.append((t0, ts + x))
    node_skew = {h: float(rng.uniform(0, 0.09)) for h in HOSTS}

    def all_nodes(tt, msg):
        for h in HOSTS:
            t1 = tt + timedelta(seconds=node_skew[h] + float(rng.uniform(0, 0.01)))
            out.append((t1, f"[rank0]:[titan] {titan_ts(t1)} - root - INFO - {msg}"))

    t = JOB_SRUN + timedelta(seconds=31)
    startup = [
        (0.0, "Starting job: Llama 3 8B training"),
        (0.4, "Building 1-D device mesh with ['dp_shard'], [192]"),
        (0.1, "[GC] Initial GC collection 0.00 seconds"),
        (0.9, "Loading tokenizer from tokenizer.json"),
        (1.2, "Preparing c4 dataset from /lustre/datasets/c4"),
        (3.3, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"),
        (0.2, "CUDA capacity: NVIDIA A100-SXM4-80GB with 79.15GiB memory"),
        (1.8, "Model llama3 8B size: 8,030,261,248 total parameters"),
        (0.3, "Applied selective activation checkpointing to the model"),
        (0.6, "Applied FSDP to the model"),
        (0.1, "Peak FLOPS used for computing MFU: 3.120e+14"),
        (0.2, "CUDA memory usage for model: 3.94GiB(4.98%)"),
        (0.1, "Checkpointing active. Checkpoints are loaded from and saved to /lustre/proj/titan/l3-8b/checkpoint"),
        (0.2, f"Loading the checkpoint from /lustre/proj/titan/l3-8b/checkpoint/step-{STEP0}."),
        (41.3, "Finished loading the checkpoint in 41.27 seconds."),
        (0.1, f"Training starts at step {STEP0 + 1}, with local batch size {LOCAL_BS}, global batch size {LOCAL_BS * WORLD}, sequence length {SEQ}, total steps 60000 (warmup 2000)"),
    ]
    for dt, msg in startup:
        t += timedelta(seconds=dt)
        all_nodes(t, msg)
    all_nodes(TRAIN0 + timedelta(seconds=6.9), "Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40")
    buf_tok, buf_t0 = 0, TRAIN0
    loss0 = 2.412
    gc_next = STEP0 + 1000
    for (te, st, dt, ck) in steps:
        buf_tok += TOK_PER_GPU_STEP
        if ck > 0:
            all_nodes(te - timedelta(seconds=ck), "Saving the checkpoint (or staging if async is enabled).")
            all_nodes(te - timedelta(seconds=0.2), f"Finished saving the checkpoint (or staging if async is enabled)in {ck - 0.3:.2f} seconds.")
        if st >= gc_next:
            all_nodes(te, "[GC] Performing periodic GC collection took 0.03 seconds")
            gc_next += 1000
        if st % LOG_FREQ == 0 or st == STEP0 + 1:
            span = (te - buf_t0).total_seconds()
            loss = loss0 - 1.1e-5 * (st - STEP0) + float(rng.normal(0, 0.021))
            gn = abs(0.231 + float(rng.normal(0, 0.02)))
            for h in HOSTS:
                t1 = te + timedelta(seconds=node_skew[h] + float(rng.uniform(0, 0.012)))
                tps = buf_tok / span * (1 + float(rng.normal(0, 0.0006)))
                tfl = tps * FLOPS_PER_TOKEN / 1e12
                mfu = tfl * 1e12 / PEAK * 100
                mem = 61.34 + float(rng.uniform(-0.02, 0.02))
                msg = (f"step: {st:2}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: {mem:5.2f}GiB({mem / 79.15 * 100:.2f}%)"
                       f"  tps: {round(tps):,}  tflops: {tfl:,.2f}  mfu: {mfu:.2f}%")
                out.append((t1, f"[rank0]:[titan] {titan_ts(t1)} - root - INFO - {msg}"))
            buf_tok, buf_t0 = 0, te
    out.sort(key=lambda x: x[0])
    p = os.path.join(OUT, "logs", "slurm-77120.out")
    with open(p, "w") as f:
        for _, x in out:
            f.write(x + "\n")


# -------------------------------------------------------------------- write
def schema_for(cols):
    return pa.schema([("timestamp", pa.timestamp("us", tz="UTC")), ("metric", pa.string()), ("value", pa.float64())]
                     + [(c, pa.string()) for c in cols])


def write_parquet(tables: dict, path, cols):
    schema = schema_for(cols)
    with pq.ParquetWriter(path, schema, compression="zstd") as w:
        for m in sorted(tables):
            tb = pa.table(tables[m], schema=schema)
            idx = pc.sort_indices(tb, sort_keys=[("timestamp", "ascending")])
            w.write_table(tb.take(idx), row_group_size=len(tb) + 1)


def write_parquet_series(chunks: dict, path, cols):
    schema = schema_for(cols)
    with pq.ParquetWriter(path, schema, compression="zstd") as w:
        for m in sorted(chunks):
            ts, vs, lab = [], [], {c: [] for c in cols}
            for times, values, labels in chunks[m]:
                ts.extend(times)
                vs.extend(values)
                for c in cols:
                    lab[c].extend([labels.get(c)] * len(times))
            d = {"timestamp": ts, "metric": [m] * len(ts), "value": vs, **lab}
            tb = pa.table(d, schema=schema)
            idx = pc.sort_indices(tb, sort_keys=[("timestamp", "ascending")])
            w.write_table(tb.take(idx), row_group_size=len(tb) + 1)


def mean_step(a, b):
    d = [dt for (te, s_, dt, ck) in steps if a <= te < b and ck == 0]
    return sum(d) / len(d)


def write_yaml():
    inc = {
        "id": ID,
        "title": "Llama-3-8B FSDP pretraining on 192 A100s slows ~4% from late morning",
        "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
        "baseline": {"start": WIN_START.isoformat(), "end": BASE_END.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "a100-b", "nodes": 24, "gpus_per_node": 8, "gpu_model": "A100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    before = mean_step(WIN_START, AER_START)
    after = mean_step(RETRAIN + timedelta(minutes=2), WIN_END)
    loss = (1 - before / after) * 100
    truth = {
        "id": ID,
        "cause": ("On c08-h05 the PCIe Gen4 link from root port 0000:89:02.0 to the ConnectX-6 HDR HCA mlx5_3 (0000:8a:00.0) "
                  "took a burst of corrected Physical Layer receiver errors and retrained from x16 to x8, capping that rail near "
                  "13 GB/s per direction, below what the FSDP collectives push through each rail, so the whole synchronous job "
                  f"slowed by ~{loss:.1f}%."),
        "cause_metrics": ["node_pcidevice_current_link_width", "node_infiniband_port_data_received_bytes_total",
                          "node_infiniband_port_data_transmitted_bytes_total", "node_infiniband_port_transmit_wait_total",
                          "DCGM_FI_PROF_PCIE_RX_BYTES"],
        "pcie_link_metric": ("node_exporter's pcidevice collector (node_pcidevice_current_link_width / max_link_width / "
                             "*_link_transfers_per_second, labels segment,bus,device,function; not enabled by default: "
                             "--collector.pcidevice). Width of bus=8a device=00 and of its root port bus=89 device=02 on "
                             "c08-h05 goes 16 -> 8 at 11:08:14; speed stays 16 GT/s. There is no AER counter in node_exporter; "
                             "the AER errors are only in the kernel log."),
        "cause_metrics_note": (f"Per-HCA byte rates fall ~{loss:.1f}% on every host at once (the job is slower, so fewer bytes per second "
                               "everywhere); on c08-h05 mlx5_3 the 15-s rate is pinned flat at ~13.2 GB/s with its variance gone "
                               "(saturated x8 link), and its GPU 3 (GPUDirect partner) shows the same flat-topped PCIe RX rate. "
                               "port_transmit_wait on the rail-3 HCAs of the other hosts rises (x2.6, x14 on c08-h04, the ring "
                               "predecessor) from backpressure. GPU utilisation stays ~100%; power and tensor activity drop ~4% "
                               "cluster-wide (effect). No link_downed, no IB errors, no Xid."),
        "cause_log_evidence": [
            {"file": f"logs/{BAD_HOST}/kern.log", "first_line_time": AER_START.isoformat(),
             "lines": AER_GROUP, "pattern": "burst of ~30 groups in 22 s from 11:07:52, then one group every ~15 min until collection",
             "source": ("Eric Badger (Pure Storage), 'Re: [PATCH v1] PCI/AER: Handle Multi UnCorrectable/Correctable errors properly', "
                        "linux-pci / linuxppc-dev, 2022-03-14, Message-ID <20220314162146.GA1439451@ebps> "
                        "(https://lore.kernel.org/linux-pci/20220314162146.GA1439451@ebps/), Ice Lake root port 0000:89:02.0 [8086:347a]"),
             "adapted": "timestamps and host only; the root port address 0000:89:02.0 and [8086:347a] are the source's (trailing spaces of the RxErr line kept)."},
            {"file": f"logs/{BAD_HOST}/kern.log", "lines": [AER_MULTI],
             "source": "Thomas-Krenn wiki 'AER Multiple Corrected error received 0000:00:1c.4' (https://www.thomas-krenn.com/en/wiki/AER_Multiple_Corrected_error_received_0000:00:1c.4), kernel 5.4 format",
             "adapted": "PCI address 0000:00:1c.4 -> 0000:89:02.0 (both places), timestamp, host"},
            {"file": "logs/c07-h09/kern.log", "lines": [x.replace("0000:89:02.0", "0000:c4:02.0") for x in AER_GROUP],
             "note": "one isolated corrected error at 10:12:03 on an NVMe root port of another host: a red herring, not the cause",
             "source": "same as the first entry", "adapted": "PCI address, timestamp, host"},
        ],
        "hosts": [BAD_HOST],
        "gpu": None,
        "component": {"host": BAD_HOST, "device": "mlx5_3", "pci": HCA_BDF, "root_port": ROOT_PORT,
                      "link": "PCIe Gen4 x16 -> x8 (16 GT/s kept)"},
        "onset": AER_START.isoformat().replace("+00:00", "Z"),
        "onset_note": f"first corrected error 11:07:52.4; link at x8 from {RETRAIN:%H:%M:%S}; the job's steps are slower from then on.",
        "job_throughput_loss_pct": round(loss, 2),
        "job_throughput_loss_note": (f"mean step time {before:.3f} s before, {after:.3f} s after (tps per GPU ~{TOK_PER_GPU_STEP / before:,.0f} -> "
                                     f"~{TOK_PER_GPU_STEP / after:,.0f}); lasts to the end of the window, nobody intervened."),
        "what_a_good_postmortem_says": (
            f"From 11:08 UTC the 192-GPU job ran ~{loss:.1f}% slower because one InfiniBand HCA, mlx5_3 on c08-h05, lost half its PCIe "
            "lanes: a burst of corrected AER receiver errors (RxErr, Physical Layer) on root port 0000:89:02.0 was followed by the "
            "link retraining at x8, and node_pcidevice_current_link_width shows 16 -> 8 for 0000:8a:00.0 while every other link stays x16. "
            "That rail saturates near 13 GB/s and, the job being synchronous, paces every rank; the fix is to reseat/replace the HCA or "
            "riser (check with lspci -vv LnkSta and mlxlink --port_type PCIE) and to alert on link width below max and on AER bursts."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140, allow_unicode=True)


if __name__ == "__main__":
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    write_parquet(dcgm, os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), DCGM_COLS)
    write_parquet_series(node, os.path.join(OUT, "metrics", "node-exporter.parquet"), NODE_COLS)
    for h in HOSTS:
        write_kernlog(h)
    write_job()
    write_yaml()
    print("wrote", OUT)
