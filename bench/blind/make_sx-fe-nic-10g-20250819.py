#!/usr/bin/env python3
"""Generate incident folder `sx-fe-nic-10g-20250819` (fixed seed).

16 nodes x 8 H100, one synchronous data-parallel OpenCLIP ViT-L/14 job (Slurm 902114) whose
webdataset loaders stream image shards from object storage over each host's front-end
Ethernet port (Intel E810, ice driver, p3p2, normally 100 Gb/s).  At 12:58:03Z the switch
port facing sx-gpu-109 is reset; the link comes back at 10 Gb/s.  That host can no longer
pull its ~1.3 GB/s share of shards, its receive rate flattens at the 10 Gb/s cap and every
rank waits for it at each allreduce: the job runs ~8 % slower until the port is fixed at
14:59:37Z (link flaps again and returns at 100 Gb/s).

Layout (different from the other incident):
  metrics/dcgm/<host>.parquet          dcgm-exporter samples, 30 s, one file per host, rows in time order
  metrics/node_exporter/<host>.om      node_exporter samples, 30 s, OpenMetrics text with timestamps
  logs/dmesg/<host>.txt                `dmesg -T`
  logs/journal/<host>.log              `journalctl -o short-iso` for the window
  logs/slurm-902114.out                the job's output (OpenCLIP logging format)
"""
import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250819
rng = np.random.default_rng(SEED)
ID = "sx-fe-nic-10g-20250819"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc


def T(s):
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


def ep(d):
    return d.timestamp()


W0, W1 = T("2025-08-19T12:00:00"), T("2025-08-19T16:00:00")
N_NODES, GPN = 16, 8
HOSTS = [f"sx-gpu-{100 + i}" for i in range(1, N_NODES + 1)]
IPS = [f"10.80.3.{100 + i}" for i in range(1, N_NODES + 1)]
BAD = 8                                   # sx-gpu-109
FE_DEV, FE_PCI = "p3p2", "0000:81:00.1"
MGMT_DEV = "em1"
JOB = 902114
JOB_START = T("2025-08-19T11:18:40")
TRAIN_START = T("2025-08-19T11:22:51")
LINK_DOWN1 = ep(T("2025-08-19T12:58:03")) + 0.412
LINK_UP1 = LINK_DOWN1 + 4.487             # comes back at 10 Gb/s
LINK_DOWN2 = ep(T("2025-08-19T14:59:37")) + 0.188
LINK_UP2 = LINK_DOWN2 + 3.962             # back at 100 Gb/s
SPEED_100G, SPEED_10G = 12500000000, 1250000000

# ------------------------------------------------------------------ the job's pace
BATCH, WORLD = 256, N_NODES * GPN
SAMPLES_STEP = BATCH * WORLD              # 32768
T_COMPUTE = 1.050                          # s/step when data is not the bottleneck
BYTES_STEP_HOST = 1.3616e9                 # shard payload pulled per host per step (2048 samples)
WIRE = 1.007                               # interface bytes / payload bytes (TCP/IP/HTTP overhead, MTU 9000)
CAP_PAYLOAD_10G = 1.193e9                  # achievable payload B/s over the 10G link
T_SLOW = BYTES_STEP_HOST / CAP_PAYLOAD_10G # ~1.141 s/step
EPOCH_SAMPLES = 480_000_000
STEPS_EPOCH = math.ceil(EPOCH_SAMPLES / SAMPLES_STEP)


def step_duration(t):
    if LINK_DOWN1 <= t < LINK_UP1 or LINK_DOWN2 <= t < LINK_UP2:
        return None
    if LINK_UP1 <= t < LINK_DOWN2:
        return T_SLOW * (1 + rng.normal(0, 0.004))
    return T_COMPUTE * (1 + rng.normal(0, 0.012)) + (rng.uniform(0.05, 0.6) if rng.random() < 0.003 else 0)


steps = []          # (epoch, batch_in_epoch, end_time, duration, data_wait_rank0)
t = ep(TRAIN_START)
epoch, b = 3, 0
resume_b = 0
epoch_ends = []
while t < ep(W1) + 120:
    d = step_duration(t)
    if d is None:                          # link down: loaders stall until it is back (prefetch covers ~1.5 s)
        d = (LINK_UP1 if t < LINK_UP1 else LINK_UP2) - t + 1.1 + T_COMPUTE
    t += d
    b += 1
    dw = abs(rng.normal(0.011, 0.003))
    steps.append((epoch, b, t, d, dw))
    if b == STEPS_EPOCH:
        epoch_ends.append((epoch, t))
        t += 24.0 + rng.normal(0, 2)       # save epoch checkpoint, rebuild loaders
        epoch += 1
        b = 0
steps_arr = np.array([s[2] for s in steps])
dur_arr = np.array([s[3] for s in steps])


def pace_at(ts):
    """step duration in effect at times ts (seconds/step)."""
    i = np.clip(np.searchsorted(steps_arr, ts), 0, len(steps_arr) - 1)
    return dur_arr[i]


def state_at(ts):
    """0 idle/pre-job, 1 init, 2 train, 3 epoch-end checkpoint."""
    st = np.zeros(len(ts), dtype=np.int8)
    st[(ts >= ep(JOB_START) + 20) & (ts < ep(TRAIN_START))] = 1
    st[ts >= ep(TRAIN_START)] = 2
    for _, te in epoch_ends:
        st[(ts >= te) & (ts < te + 24)] = 3
    return st


# ------------------------------------------------------------------ DCGM
MODEL, DRIVER = "NVIDIA H100 80GB HBM3", "535.183.06"
BUS = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
FB_USABLE, FB_RES = 81009, 550


def uuid():
    s = "".join("0123456789abcdef"[x] for x in rng.integers(0, 16, 32))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


UUIDS = [[uuid() for _ in range(GPN)] for _ in range(N_NODES)]
temp_off = (np.array([1.0, 0.0, -0.5, 2.0, 2.5, 1.5, -1.0, 0.5])[None, :]
            + rng.normal(0, 1.3, (N_NODES, GPN)) + rng.normal(0, 1.5, N_NODES)[:, None])
pow_off = rng.normal(0, 13, (N_NODES, GPN))
fb_off = np.round(rng.normal(0, 30, (N_NODES, GPN)) / 2) * 2
energy0 = rng.uniform(2.6e11, 3.4e11, (N_NODES, GPN))
SCRAPE = 30.0
dcgm_phase = rng.uniform(0, SCRAPE, N_NODES)
node_phase = rng.uniform(0, SCRAPE, N_NODES)


def lag(x, dt, tau):
    out = np.empty_like(x)
    a = 1 - math.exp(-dt / tau)
    c = x[0]
    for i, v in enumerate(x):
        c += a * (v - c)
        out[i] = c
    return out


def scrape_times(phase):
    n = int((ep(W1) - ep(W0)) / SCRAPE) + 1
    base = ep(W0) + phase + np.arange(n) * SCRAPE
    base = base[base <= ep(W1)]
    return np.round(base + rng.uniform(0.002, 0.030, len(base)), 3)


def gen_dcgm():
    d = os.path.join(OUT, "metrics", "dcgm")
    os.makedirs(d)
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(dcgm_phase[hi])
        k = len(ts)
        st = state_at(ts)
        pace = pace_at(ts)
        slow = np.clip(T_COMPUTE / pace, 0.2, 1.0)            # fraction of time computing
        tr = st == 2
        rows = []
        for g in range(GPN):
            if hi == BAD:
                util = np.where(tr, np.round(100 * np.clip(slow + 0.012, 0, 1) - np.abs(rng.normal(0, 0.8, k))), 0)
            else:
                util = np.where(tr, np.round(99.7 - np.abs(rng.normal(0, 0.9, k))), 0)   # NCCL waits count as busy
            util = np.where(st == 1, np.round(rng.uniform(0, 30, k)), util)
            util = np.where(st == 3, np.round(rng.uniform(0, 15, k)), util)
            power = np.where(tr, (548 + pow_off[hi, g]) * (0.40 + 0.60 * slow) + rng.normal(0, 16, k), 71 + rng.normal(0, 1.2, k))
            power = np.where(st == 3, 112 + rng.normal(0, 7, k), power)
            power = np.round(power, 3)
            tt = np.where(tr, 33 + 29 * (0.40 + 0.60 * slow) + temp_off[hi, g], 36 + 0.5 * temp_off[hi, g])
            gt = np.round(lag(tt, SCRAPE, 80) + rng.normal(0, 0.4, k))
            mt = np.round(lag(tt + 5.5 + 0.4 * temp_off[hi, g], SCRAPE, 110) + rng.normal(0, 0.4, k))
            sm = np.where(tr, np.clip(np.round((1950 - np.abs(rng.normal(0, 45, k)) - 0.2 * pow_off[hi, g]) / 15) * 15, 1665, 1980), 345)
            sm = np.where(st == 3, 1980, sm)
            fb = np.where((st == 2) | (st == 3), 71236 + fb_off[hi, g] + (410 if g == 0 else 0) + rng.choice([0, 0, 2, -2], k), 0)
            tensor = np.where(tr, np.clip(0.382 * slow + rng.normal(0, 0.011, k), 0, 1), 0)
            gr = np.where(tr, np.clip(0.955 * np.where(hi == BAD, slow, 1.0) + rng.normal(0, 0.008, k), 0, 1), 0)
            pcie_rx = np.where(tr, (2048 // GPN) * 3 * 224 * 224 / pace * (1 + rng.normal(0, 0.05, k)) + 2.1e8 * rng.uniform(0.8, 1.2, k), rng.uniform(1e5, 4e5, k))
            pcie_tx = np.where(tr, 1.4e8 * rng.uniform(0.8, 1.2, k), rng.uniform(1e5, 3e5, k))
            dt = np.diff(ts, prepend=ts[0] - SCRAPE)
            energy = np.round(energy0[hi, g] + np.cumsum(power * dt * 1000))
            vals = {
                "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": np.full(k, 2619.0),
                "DCGM_FI_DEV_MEMORY_TEMP": mt, "DCGM_FI_DEV_GPU_TEMP": gt, "DCGM_FI_DEV_POWER_USAGE": power,
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": energy, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": np.zeros(k),
                "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_XID_ERRORS": np.zeros(k),
                "DCGM_FI_DEV_FB_FREE": FB_USABLE - fb, "DCGM_FI_DEV_FB_USED": fb,
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6), "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(tensor, 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(pcie_tx), "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(pcie_rx),
            }
            for m, v in vals.items():
                for i in range(k):
                    rows.append((ts[i], m, float(v[i]), g))
        rows.sort(key=lambda r: (r[0], r[3], r[1]))
        tsv = np.array([r[0] for r in rows])
        tbl = pa.table({
            "timestamp": pa.array((tsv * 1000).round().astype("int64")).cast(pa.timestamp("ms", tz="UTC")),
            "metric": [r[1] for r in rows],
            "value": [r[2] for r in rows],
            "gpu": [str(r[3]) for r in rows],
            "UUID": [UUIDS[hi][r[3]] for r in rows],
            "pci_bus_id": [BUS[r[3]] for r in rows],
            "device": [f"nvidia{r[3]}" for r in rows],
            "modelName": [MODEL] * len(rows),
            "Hostname": [h] * len(rows),
            "DCGM_FI_DRIVER_VERSION": [DRIVER] * len(rows),
            "instance": [f"{IPS[hi]}:9400"] * len(rows),
            "job": ["dcgm"] * len(rows),
        })
        pq.write_table(tbl, os.path.join(d, f"{h}.parquet"), compression="snappy")


# ------------------------------------------------------------------ node_exporter (OpenMetrics)
BOOT = [ep(T("2025-08-05T03:12:00")) + rng.uniform(0, 5400) for _ in range(N_NODES)]
MACS = [f"b4:83:51:{rng.integers(0, 256):02x}:{rng.integers(0, 256):02x}:{rng.integers(0, 256):02x}" for _ in range(N_NODES)]
MACS_M = [f"c4:cb:e1:{rng.integers(0, 256):02x}:{rng.integers(0, 256):02x}:{rng.integers(0, 256):02x}" for _ in range(N_NODES)]
KREL, KVER = "5.15.0-119-generic", "#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024"


def fmt(v):
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


def gen_node():
    d = os.path.join(OUT, "metrics", "node_exporter")
    os.makedirs(d)
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(node_phase[hi])
        k = len(ts)
        st = state_at(ts)
        pace = pace_at(ts)
        dt = np.diff(ts, prepend=ts[0] - SCRAPE)
        inst = f'instance="{IPS[hi]}:9100",job="node"'
        fam = {}   # family -> (type, help, list of (labels, values))

        def add(name, typ, help_, labels, values, sample=None):
            fam.setdefault(name, (typ, help_, []))[2].append((labels, values, sample or name))

        train = (st == 2)
        # front-end port p3p2: shard streaming from object storage
        demand = np.where(train, BYTES_STEP_HOST * WIRE / pace, 0.0)
        demand = demand * np.where(train, 1 + rng.normal(0, 0.035, k), 1) + rng.uniform(1.5e5, 6e5, k)
        if hi == BAD:
            capped = (ts >= LINK_UP1) & (ts < LINK_DOWN2) & train
            demand = np.where(capped, CAP_PAYLOAD_10G * WIRE * (1 + rng.normal(0, 0.0035, k)), demand)
        down_frac = np.zeros(k)
        if hi == BAD:
            for a, b_ in ((LINK_DOWN1, LINK_UP1), (LINK_DOWN2, LINK_UP2)):
                lo = ts - dt
                ov = np.clip(np.minimum(ts, b_) - np.maximum(lo, a), 0, None)
                down_frac += ov / dt
        rx = np.round(rng.uniform(3e14, 9e14) + np.cumsum(demand * (1 - down_frac) * dt))
        tx = np.round(rng.uniform(8e12, 3e13) + np.cumsum((0.0165 * demand + rng.uniform(2e5, 9e5, k)) * (1 - down_frac) * dt))
        speed = np.full(k, SPEED_100G, dtype=float)
        carrier = np.full(k, 4.0)
        if hi == BAD:
            speed[(ts >= LINK_UP1) & (ts < LINK_UP2)] = SPEED_10G
            carrier[ts >= LINK_DOWN1] += 1
            carrier[ts >= LINK_UP1] += 1
            carrier[ts >= LINK_DOWN2] += 1
            carrier[ts >= LINK_UP2] += 1
        drops = np.round(np.cumsum(rng.poisson(0.02, k)) + 117)
        # management port (1GbE, onboard Broadcom)
        mrx = np.round(rng.uniform(2e10, 9e10) + np.cumsum(rng.uniform(2.5e4, 6e4, k) * dt))
        mtx = np.round(rng.uniform(2e10, 9e10) + np.cumsum(rng.uniform(4e4, 9e4, k) * dt))
        for dev, spd, r, x, c, dr, mac in ((FE_DEV, speed, rx, tx, carrier, drops, MACS[hi]),
                                          (MGMT_DEV, np.full(k, 125000000.0), mrx, mtx, np.full(k, 2.0), np.zeros(k), MACS_M[hi])):
            lab = f'device="{dev}",{inst}'
            add("node_network_speed_bytes", "gauge", "Network device property: speed_bytes", lab, spd)
            add("node_network_up", "gauge", "Value is 1 if operstate is 'up', 0 otherwise.", lab, np.ones(k))
            add("node_network_carrier_changes", "counter", "Network device property: carrier_changes_total", lab, c,
                "node_network_carrier_changes_total")
            add("node_network_receive_bytes", "counter", "Network device statistic receive_bytes.", lab, r,
                "node_network_receive_bytes_total")
            add("node_network_transmit_bytes", "counter", "Network device statistic transmit_bytes.", lab, x,
                "node_network_transmit_bytes_total")
            add("node_network_receive_drop", "counter", "Network device statistic receive_drop.", lab, dr,
                "node_network_receive_drop_total")
            add("node_network_info", "gauge", "Non-numeric data from /sys/class/net/<iface>, value is always 1.",
                f'address="{mac}",adminstate="up",broadcast="ff:ff:ff:ff:ff:ff",device="{dev}",duplex="full",ifalias="",operstate="up",{inst}',
                np.ones(k))
        add("node_network_up", "gauge", "", f'device="p3p1",{inst}', np.zeros(k))
        # InfiniBand (NCCL allreduce of gradients)
        for i in range(8):
            for kind, help_ in (("received", "Number of data octets received on all links"),
                                ("transmitted", "Number of data octets transmitted on all links")):
                rate = np.where(train, 6.1e8 * T_COMPUTE / pace * (1 + rng.normal(0, 0.02, k)), 0) + rng.uniform(200, 900, k)
                rate = np.where(st == 3, 2e6, rate)
                cum = np.round(rng.uniform(1e14, 6e14) + np.cumsum(rate * dt))
                add(f"node_infiniband_port_data_{kind}_bytes", "counter", help_, f'device="mlx5_{i}",{inst},port="1"', cum,
                    f"node_infiniband_port_data_{kind}_bytes_total")
        load = np.abs(lag(np.where(train, 41 + rng.normal(0, 3.5, k), 1.0 + rng.normal(0, 0.3, k)), SCRAPE, 60))
        add("node_load1", "gauge", "1m load average.", inst, np.round(load, 2))
        mem = lag(np.where(train, 1.38e12, 1.9e12) + rng.normal(0, 3e9, k), SCRAPE, 45)
        add("node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.", inst, np.round(mem))
        add("node_boot_time_seconds", "gauge", "Node boot time, in unixtime.", inst, np.full(k, round(BOOT[hi])))
        add("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.",
            f'domainname="(none)",{inst},machine="x86_64",nodename="{h}",release="{KREL}",sysname="Linux",version="{KVER}"',
            np.ones(k))
        with open(os.path.join(d, f"{h}.om"), "w") as f:
            for name in sorted(fam):
                typ, help_, series = fam[name]
                f.write(f"# HELP {name} {help_ or fam[name][1]}\n# TYPE {name} {typ}\n")
                for lab, vals, sample in series:
                    for i in range(k):
                        f.write(f"{sample}{{{lab}}} {fmt(vals[i])} {ts[i]:.3f}\n")
            f.write("# EOF\n")


# ------------------------------------------------------------------ logs
ICE_DOWN = f"ice {FE_PCI} {FE_DEV}: NIC Link is Down"
ICE_UP_10G = (f"ice {FE_PCI} {FE_DEV}: NIC Link is up 10 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: NONE, "
              "Autoneg Advertised: Off, Autoneg Negotiated: False, Flow Control: None")
ICE_UP_100G = (f"ice {FE_PCI} {FE_DEV}: NIC Link is up 100 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, "
               "Autoneg Advertised: Off, Autoneg Negotiated: False, Flow Control: None")


def dmesg_T(t):
    d = datetime.fromtimestamp(t, UTC)
    return f"[{d.strftime('%a %b')} {d.day:2d} {d.strftime('%H:%M:%S %Y')}]"


def iso_j(t):
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S+0000")


BOOT_LINES = [
    "Linux version 5.15.0-119-generic (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024 (Ubuntu 5.15.0-119.129-generic 5.15.160)",
    "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-119-generic root=UUID=5d1c0e7e-2f4b-4d8e-9a51-3c0f6c2b8e11 ro biosdevname=1 iommu=pt pci=realloc=off",
    "DMI: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS 2.3.5 09/10/2024",
    "ice: Intel(R) Ethernet Connection E800 Series Linux Driver",
    "ice: Copyright (c) 2018, Intel Corporation.",
    f"ice 0000:81:00.0: The DDP package was successfully loaded: ICE OS Default Package version 1.3.36.0",
    f"ice 0000:81:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)",
    f"ice {FE_PCI}: The DDP package was successfully loaded: ICE OS Default Package version 1.3.36.0",
    f"ice {FE_PCI}: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)",
    "ice 0000:81:00.0 p3p1: renamed from eth2",
    f"ice {FE_PCI} {FE_DEV}: renamed from eth3",
    "mlx5_core 0000:1a:00.0: firmware version: 28.39.1002",
    "mlx5_core 0000:1a:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)",
    "nvidia: loading out-of-tree module taints kernel.",
    "nvidia-nvlink: Nvlink Core is being initialized, major device number 508",
    "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.06  Wed Jun 26 06:46:07 UTC 2024",
    "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  535.183.06  Wed Jun 26 06:31:49 UTC 2024",
    ICE_UP_100G,
    f"IPv6: ADDRCONF(NETDEV_CHANGE): {FE_DEV}: link becomes ready",
]


def gen_host_logs():
    dd = os.path.join(OUT, "logs", "dmesg"); os.makedirs(dd)
    jd = os.path.join(OUT, "logs", "journal"); os.makedirs(jd)
    for hi, h in enumerate(HOSTS):
        K, J = [], []          # (time, msg) kernel; (time, tag, msg) journal
        boot = BOOT[hi]
        for i, m in enumerate(BOOT_LINES):
            K.append((boot + 2.0 + i * 0.71 + (9 if "Link is up" in m or "ADDRCONF" in m else 0), m))
        # job start on every node (before the window)
        for sw in range(4):
            K.append((ep(JOB_START) + 41 + sw * 0.002, f"nvidia-nvswitch{sw}: open (major=510)"))
        # occasional benign kernel chatter
        if rng.random() < 0.5:
            tt = ep(W0) + rng.uniform(0, 14000)
            a = int(rng.integers(2501, 3300))
            K.append((tt, f"perf: interrupt took too long ({a} > {a - 4}), lowering kernel.perf_event_max_sample_rate to {int(rng.choice([63750, 79750, 50000]))}"))
        if hi == BAD:
            K.append((LINK_DOWN1, ICE_DOWN))
            K.append((LINK_UP1, ICE_UP_10G))
            K.append((LINK_DOWN2, ICE_DOWN))
            K.append((LINK_UP2, ICE_UP_100G))
            J.append((LINK_DOWN1 + 0.002, "systemd-networkd[1681]", f"{FE_DEV}: Lost carrier"))
            J.append((LINK_UP1 + 0.003, "systemd-networkd[1681]", f"{FE_DEV}: Gained carrier"))
            J.append((LINK_DOWN2 + 0.002, "systemd-networkd[1681]", f"{FE_DEV}: Lost carrier"))
            J.append((LINK_UP2 + 0.003, "systemd-networkd[1681]", f"{FE_DEV}: Gained carrier"))
            # the network team's remediation session on the host
            J.append((LINK_DOWN2 - 840, "sshd[2931877]", "Accepted publickey for netops from 10.80.0.21 port 51422 ssh2: ED25519 SHA256:Xq7mI0b6Sg1qN4vQ2pZt8dE5cF9aR3uL0yWkHjB2nTs"))
            J.append((LINK_DOWN2 - 839.9, "systemd-logind[1731]", "New session 4127 of user netops."))
            J.append((LINK_DOWN2 - 839.8, "systemd[1]", "Started Session 4127 of User netops."))
            J.append((LINK_DOWN2 - 611, "sudo[2932410]", f"  netops : TTY=pts/0 ; PWD=/home/netops ; USER=root ; COMMAND=/usr/sbin/ethtool {FE_DEV}"))
            J.append((LINK_DOWN2 - 598, "sudo[2932452]", f"  netops : TTY=pts/0 ; PWD=/home/netops ; USER=root ; COMMAND=/usr/sbin/ethtool -m {FE_DEV}"))
            J.append((LINK_UP2 + 95, "sudo[2934013]", f"  netops : TTY=pts/0 ; PWD=/home/netops ; USER=root ; COMMAND=/usr/sbin/ethtool {FE_DEV}"))
            J.append((LINK_UP2 + 160, "systemd-logind[1731]", "Session 4127 logged out. Waiting for processes to exit."))
            J.append((LINK_UP2 + 160.2, "systemd-logind[1731]", "Removed session 4127."))
        # journal-only lines
        t = ep(W0) - 300
        while t < ep(W1):
            t = (math.floor((t - 300) / 600) + 1) * 600 + 300
            J.append((t + rng.uniform(0.01, 0.4), f"CRON[{rng.integers(100000, 4000000)}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"))
        for hh in range(12, 16):
            J.append((ep(T(f"2025-08-19T{hh:02d}:17:01")) + rng.uniform(0, 0.3), f"CRON[{rng.integers(100000, 4000000)}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)"))
        sid = int(rng.integers(3000, 4000))
        for tt in sorted(ep(W0) + rng.uniform(0, 14000, int(rng.integers(1, 4)))):
            sid += int(rng.integers(1, 25))
            J.append((tt, "systemd-logind[1731]", f"New session {sid} of user root."))
            J.append((tt + 0.02, "systemd[1]", f"Started Session {sid} of User root."))
            J.append((tt + 6.5, "systemd-logind[1731]", f"Session {sid} logged out. Waiting for processes to exit."))
            J.append((tt + 6.6, "systemd-logind[1731]", f"Removed session {sid}."))
        tt = ep(W0) + rng.uniform(1800, 3600)
        J.append((tt, "systemd[1]", "Starting Cleanup of Temporary Directories..."))
        J.append((tt + 0.04, "systemd[1]", "systemd-tmpfiles-clean.service: Deactivated successfully."))
        J.append((tt + 0.04, "systemd[1]", "Finished Cleanup of Temporary Directories."))
        tt = ep(W0) + rng.uniform(7200, 9000)
        J.append((tt, "systemd[1]", "Starting Daily apt download activities..."))
        J.append((tt + 1.9, "systemd[1]", "apt-daily.service: Deactivated successfully."))
        J.append((tt + 1.9, "systemd[1]", "Finished Daily apt download activities."))
        K.sort()
        with open(os.path.join(dd, f"{h}.txt"), "w") as f:
            for t_, m in K:
                f.write(f"{dmesg_T(t_)} {m}\n")
        allj = [(t_, "kernel", m) for t_, m in K if ep(W0) <= t_ <= ep(W1)] + [x for x in J if ep(W0) <= x[0] <= ep(W1)]
        allj.sort(key=lambda x: x[0])
        with open(os.path.join(jd, f"{h}.log"), "w") as f:
            f.write(f"-- Journal begins at {datetime.fromtimestamp(boot, UTC).strftime('%a %Y-%m-%d %H:%M:%S')} UTC, ends at "
                    f"{datetime.fromtimestamp(ep(W1) + 31, UTC).strftime('%a %Y-%m-%d %H:%M:%S')} UTC. --\n")
            for t_, tag, m in allj:
                f.write(f"{iso_j(t_)} {h} {tag}: {m}\n")


def oc_ts(t):
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d,%H:%M:%S")


def gen_job_log():
    L = []
    t0 = ep(JOB_START)
    for r in range(WORLD):
        tt = t0 + 52 + rng.uniform(0, 3)
        L.append((tt, f"{oc_ts(tt)} | INFO | Running in distributed mode with multiple processes. Device: cuda:{r % GPN}."
                      f"Process (global: {r}, local {r % GPN}), total {WORLD}."))
    tp = t0 + 58
    L.append((tp, f"{oc_ts(tp)} | INFO | Loaded ViT-L-14 model config."))
    L.append((tp + 9, f"{oc_ts(tp + 9)} | INFO | Params:"))
    params = [("accum_freq", 1), ("batch_size", BATCH), ("beta1", 0.9), ("beta2", 0.98), ("dataset_resampled", True),
              ("dataset_type", "webdataset"), ("epochs", 32), ("grad_checkpointing", True), ("local_loss", True),
              ("gather_with_grad", True), ("log_every_n_steps", 100), ("lr", 0.0005), ("model", "ViT-L-14"),
              ("precision", "amp_bf16"), ("resume", "s3://sx-ml-ckpt/clip/vitl14-hr-r2/checkpoints/epoch_3.pt"),
              ("train_data", "pipe:aws s3 cp --quiet s3://sx-ml-data/hr-img/shards/{000000..281249}.tar -"),
              ("train_num_samples", EPOCH_SAMPLES), ("warmup", 2000), ("wd", 0.2), ("workers", 10), ("world_size", WORLD)]
    for k, v in params:
        L.append((tp + 9, f"{oc_ts(tp + 9)} | INFO |   {k}: {v}"))
    tr = t0 + 212
    L.append((tr, f"{oc_ts(tr)} | INFO | => resuming checkpoint 's3://sx-ml-ckpt/clip/vitl14-hr-r2/checkpoints/epoch_3.pt' (epoch 3)"))
    L.append((ep(TRAIN_START) - 2, f"{oc_ts(ep(TRAIN_START) - 2)} | INFO | Start epoch 3"))
    digits = math.ceil(math.log(EPOCH_SAMPLES + 1, 10))
    acc_b, acc_d = [], []
    loss_avg_n, loss_sum = 0, 0.0
    cur_epoch = 3
    total_steps_done = 3 * STEPS_EPOCH
    for (e, b, te, d, dw) in steps:
        if e != cur_epoch:
            cur_epoch = e
            ts_ = te - d - 0.5
            L.append((ts_, f"{oc_ts(ts_)} | INFO | Start epoch {e}"))
            loss_avg_n, loss_sum = 0, 0.0
            acc_b, acc_d = [], []
        acc_b.append(d)
        acc_d.append(dw)
        g_step = total_steps_done + (e - 3) * STEPS_EPOCH + b
        loss = 1.402 - 0.0000019 * (g_step - 3 * STEPS_EPOCH) + rng.normal(0, 0.035)
        loss_sum += loss
        loss_avg_n += 1
        i_accum = b - 1
        if i_accum % 100 == 0 or b == STEPS_EPOCH:
            num_samples = b * BATCH * WORLD
            pct = 100.0 * b / STEPS_EPOCH
            sps = SAMPLES_STEP / d
            lr = 0.00005 + 0.5 * (0.0005 - 0.00005) * (1 + math.cos(math.pi * (g_step - 2000) / (32 * STEPS_EPOCH - 2000)))
            loss_log = f"Contrastive_loss: {loss:#.5g} ({loss_sum / loss_avg_n:#.5g}) Loss: {loss:#.5g} ({loss_sum / loss_avg_n:#.5g}) "
            msg = (f"Train Epoch: {e} [{num_samples:>{digits}}/{EPOCH_SAMPLES} ({pct:.0f}%)] "
                   f"Data (t): {np.mean(acc_d):.3f} "
                   f"Batch (t): {np.mean(acc_b):.3f}, {sps:#g}/s, {sps / WORLD:#g}/s/gpu "
                   f"LR: {lr:5f} Logit Scale: 100.000 " + loss_log)
            L.append((te, f"{oc_ts(te)} | INFO | {msg}"))
            acc_b, acc_d = [], []
    L = [x for x in L if x[0] <= ep(W1) + 30]
    L.sort(key=lambda x: x[0])
    with open(os.path.join(OUT, "logs", f"slurm-{JOB}.out"), "w") as f:
        for _, s in L:
            f.write(s + "\n")


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    gen_dcgm()
    gen_node()
    gen_host_logs()
    gen_job_log()
    incident = {
        "id": ID,
        "title": "OpenCLIP ViT-L/14 job about 8% slower for two hours",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": "2025-08-19T12:00:00+00:00", "end": "2025-08-19T12:55:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "sx-h100-b", "nodes": N_NODES, "gpus_per_node": GPN, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)
    loss_pct = round(100 * (1 - T_COMPUTE / T_SLOW), 1)
    onset = datetime.fromtimestamp(LINK_DOWN1, UTC)
    fixed = datetime.fromtimestamp(LINK_UP2, UTC)
    truth = {
        "id": ID,
        "cause": (f"The front-end Ethernet port of {HOSTS[BAD]} ({FE_DEV}, Intel E810/ice at {FE_PCI}) came back at 10 Gb/s instead of "
                  "100 Gb/s after a switch-port reset, capping that host's shard streaming from object storage and slowing the "
                  "synchronous job until the port was fixed."),
        "cause_metrics": ["node_network_speed_bytes", "node_network_receive_bytes_total", "node_network_carrier_changes_total"],
        "cause_log_evidence": [
            {"text": ICE_DOWN, "file": f"logs/dmesg/{HOSTS[BAD]}.txt, logs/journal/{HOSTS[BAD]}.log",
             "source": ("intel-wired-lan list, thread 'ice: E810-XXV: Dell GBIC S28-10G-25G-SR-85C does not work', Paul Menzel, "
                        "message <d30060f0-e7aa-4d3e-8e7d-98e7ca176f9c@molgen.mpg.de> (2026-02-12), quoted in "
                        "<b235e4e1-3a1c-4b09-bf4f-bd23d308e3e7@molgen.mpg.de>: '[13888.522978] ice 0000:81:00.1 net05: NIC Link is Down' "
                        "(https://lore.kernel.org/intel-wired-lan/b235e4e1-3a1c-4b09-bf4f-bd23d308e3e7@molgen.mpg.de/); adapted: "
                        "timestamp, interface name net05 -> p3p2 (the same port 0000:81:00.1 is named p3p2 later in the same thread)")},
            {"text": ICE_UP_10G, "file": f"logs/dmesg/{HOSTS[BAD]}.txt, logs/journal/{HOSTS[BAD]}.log",
             "source": ("intel-wired-lan list, same thread, message <73aab9d3-996f-4df6-8f04-9f216cf51e92@molgen.mpg.de> (2026-02-18), "
                        "quoted in <8a2c98aa-6366-4cc9-b199-ae5051696ddf@molgen.mpg.de>: 'ice 0000:81:00.1 p3p2: NIC Link is up 10 Gbps "
                        "Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: NONE, Autoneg Advertised: Off, Autoneg Negotiated: False, "
                        "Flow Control: None' (https://lore.kernel.org/intel-wired-lan/8a2c98aa-6366-4cc9-b199-ae5051696ddf@molgen.mpg.de/); "
                        "verbatim, only the timestamp and host added")},
            {"text": f"{FE_DEV}: Lost carrier / {FE_DEV}: Gained carrier", "file": f"logs/journal/{HOSTS[BAD]}.log",
             "source": "systemd-networkd's own carrier messages (log_link_info 'Lost carrier' / 'Gained carrier' in src/network/networkd-link.c); corroborating, not the fault line"},
            {"text": ICE_UP_100G, "file": f"logs/dmesg/{HOSTS[BAD]}.txt (boot and 14:59 fix), logs/journal/{HOSTS[BAD]}.log",
             "source": ("NOT a fault line (the healthy link after the fix). No public ice line at 100 Gbps was found; this is the real ice "
                        "wording 'ice 0000:01:00.0 ice0: NIC Link is up 25 Gbps Full Duplex, Requested FEC: RS-FEC, Negotiated FEC: RS-FEC, "
                        "Autoneg Advertised: Off, Autoneg Negotiated: False, Flow Control: None' (dmesg quoted on the kernel mailing lists with "
                        "https://bugzilla.kernel.org/show_bug.cgi?id=216959) with the speed field rendered as ice_print_link_msg() prints "
                        "it for 100 Gb/s, interface and PCI address adapted")},
        ],
        "hosts": [HOSTS[BAD]],
        "gpu": None,
        "onset": onset.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "resolved": fixed.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": loss_pct,
        "job_throughput_loss_definition": (f"samples/s during the 10 Gb/s period vs before: step time {T_COMPUTE:.3f} s -> "
                                           f"{T_SLOW:.3f} s ({SAMPLES_STEP / T_COMPUTE:.0f} -> {SAMPLES_STEP / T_SLOW:.0f} samples/s)"),
        "details": {
            "node_network_speed_bytes": {"before": SPEED_100G, "during": SPEED_10G, "device": FE_DEV, "host": HOSTS[BAD]},
            "receive_rate_bytes_per_s": {"all_hosts_before": round(BYTES_STEP_HOST * WIRE / T_COMPUTE),
                                         "all_hosts_during": round(BYTES_STEP_HOST * WIRE / T_SLOW),
                                         "faulty_host_during": "flat at ~%.3g (10 Gb/s link, MTU 9000)" % (CAP_PAYLOAD_10G * WIRE)},
            "gpu_signature": ("every GPU's tensor-pipe activity and power fall ~8%; GPU utilisation stays ~100% on the 15 healthy hosts "
                              "(ranks spin in NCCL waiting) but drops to ~92% on sx-gpu-109, whose GPUs wait for data; rank 0 "
                              "(sx-gpu-101) reports Data (t) unchanged"),
        },
        "what_a_good_postmortem_says": (
            f"From {onset.strftime('%H:%M')}Z to {fixed.strftime('%H:%M')}Z the job ran about {loss_pct:.0f}% slower because one host, "
            f"{HOSTS[BAD]}, had its front-end port {FE_DEV} renegotiated at 10 Gb/s after a switch-port reset (ice 'NIC Link is up 10 Gbps', "
            "node_network_speed_bytes 12.5e9 -> 1.25e9): its receive rate flattened at the 10 Gb/s cap while it needed ~10.5 Gb/s of shards, "
            "and in a synchronous job every rank waited for it. "
            "The GPUs, InfiniBand and storage servers were healthy; the fix was on the switch port (link back at 100 Gb/s at "
            f"{fixed.strftime('%H:%M')}Z), and an alert on node_network_speed_bytes below the port's nominal speed would have caught it "
            "in minutes instead of two hours."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140, allow_unicode=True)


if __name__ == "__main__":
    main()
