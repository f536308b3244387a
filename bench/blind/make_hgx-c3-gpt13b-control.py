#!/usr/bin/env python3
"""Writes the incident folder hgx-c3-gpt13b-control (fixed seed): a control case with no fault.

A Megatron-LM GPT 13B pretraining job (TP=2, DP=80) on 20 HGX H100 hosts (160 GPUs) runs
through the whole window.  Every 300 iterations (~30 min) it pauses for an in-loop
evaluation (50 eval iterations, its own 'validation loss' line), and every 600 iterations
(~1 h) it saves a torch_dist checkpoint (2-2.5 min stall).  hgx-c3-14 was rebooted by the
operators between the previous run (job 3318802, ended at its time limit at 19:20) and this
one (job 3318930, 20:05), to boot a pending kernel update: its uptime is shorter, its
counters are smaller, node_boot_time_seconds and node_uname_info differ.  Ordinary noise:
Prometheus was restarted at 01:27 (80 s with no samples from any target), hgx-c3-06 runs
its GPUs ~4 C warmer (rack position), benign kernel and systemd lines.

Layout (different from the other incident): metrics/dcgm/<host>.parquet, one file per
dcgm-exporter target, rows in scrape order (time-major, metrics interleaved);
metrics/node/<ip>_9100.om, one OpenMetrics file per node_exporter target, known by its
address (node_uname_info gives the node name).  Logs: journalctl -o short-iso per host,
the job's srun --label output.
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timezone

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250612
rng = np.random.default_rng(SEED)
UTC = timezone.utc
ID = "hgx-c3-gpt13b-control"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

T0 = datetime(2025, 6, 12, 0, 0, 0, tzinfo=UTC)
T1 = datetime(2025, 6, 12, 3, 30, 0, tzinfo=UTC)
E0, E1 = T0.timestamp(), T1.timestamp()


def ep(d, h, m, s=0.0):
    return datetime(2025, 6, d, h, m, 0, tzinfo=UTC).timestamp() + s


def epd(mo, d, h, m, s=0.0):
    return datetime(2025, mo, d, h, m, 0, tzinfo=UTC).timestamp() + s


HOSTS = [f"hgx-c3-{i:02d}" for i in range(1, 21)]
NH, NGPU = len(HOSTS), 8
IP = {h: f"10.31.3.{100 + i + 1}" for i, h in enumerate(HOSTS)}
REBOOTED = "hgx-c3-14"
WARM = "hgx-c3-06"
BOOT = {h: epd(4, 28, 9, 14) + 60 * i + rng.uniform(0, 50) for i, h in enumerate(HOSTS)}
BOOT["hgx-c3-03"] = epd(5, 2, 16, 41, 12.0)    # had a DIMM replaced in May
BOOT["hgx-c3-17"] = epd(5, 19, 11, 3, 54.0)
BOOT[REBOOTED] = ep(11, 19, 41, 7.35)
SHUTDOWN_14 = ep(11, 19, 37, 52.0)
PROM_GAP = (ep(12, 1, 27, 41.0), ep(12, 1, 29, 1.0))
KREL_OLD, KVER_OLD = "5.15.0-112-generic", "#122-Ubuntu SMP Thu May 23 07:48:21 UTC 2024"
KREL_NEW, KVER_NEW = "5.15.0-113-generic", "#123-Ubuntu SMP Mon Jun 10 08:16:17 UTC 2024"
DRIVER = "535.183.01"
MODEL = "NVIDIA H100 80GB HBM3"

# ----------------------------------------------------------------------------------
# trainer simulation (Megatron-LM, log interval 10, eval 300/50, save 600)
# ----------------------------------------------------------------------------------
GBS, SEQ, TRAIN_ITERS = 960, 4096, 250000
IT_MS = 5600.0
JOB_LAUNCH = ep(11, 20, 5, 33.4)
TRAIN_START = ep(11, 20, 7, 31.2)
it = 54000
t = TRAIN_START
events = []          # (kind, t_start, t_end, iteration)
iters = []           # (iteration, t_end)
while t < E1 + 600:
    d = (IT_MS / 1000) * (1 + rng.normal(0, 0.004))
    if it == 54000:
        d = 29.4
    t += d
    it += 1
    iters.append((it, t))
    if it % 300 == 0:
        ed = rng.uniform(92.5, 97.0)
        events.append(("eval", t + 0.05, t + 0.05 + ed, it))
        t += ed + 0.05
    if it % 600 == 0:
        sd = rng.uniform(118.0, 152.0)
        events.append(("save", t + 0.02, t + 0.02 + sd, it))
        t += sd + 0.02
IT_N = np.array([a for a, _ in iters])
IT_T = np.array([b for _, b in iters])


def state(ts):
    """0 no job, 1 train, 2 eval, 3 checkpoint save, 4 init."""
    st = np.zeros(ts.shape, np.int8)
    st[(ts >= JOB_LAUNCH + 8) & (ts < TRAIN_START + 29.4)] = 4
    st[ts >= TRAIN_START + 29.4] = 1
    for kind, a, b, _ in events:
        st[(ts >= a) & (ts < b)] = 2 if kind == "eval" else 3
    return st


def scrape_times(period, phase):
    first = E0 + ((phase - (E0 % period)) % period)
    ts = np.arange(first, E1 + 1e-9, period)
    ts = ts + rng.normal(0.005, 0.002, ts.shape).clip(0.0005, 0.03)
    ts = ts[(ts >= E0) & (ts <= E1)]
    return ts[~((ts >= PROM_GAP[0]) & (ts < PROM_GAP[1]))]


def lag(x, dt, tau, x0=None):
    a = 1 - math.exp(-dt / tau)
    y = np.empty_like(x)
    acc = x[0] if x0 is None else x0
    for i, v in enumerate(x):
        acc += a * (v - acc)
        y[i] = acc
    return y


def uuid():
    b = rng.integers(0, 256, 16)
    hx = "".join(f"{x:02x}" for x in b)
    return f"GPU-{hx[0:8]}-{hx[8:12]}-{hx[12:16]}-{hx[16:20]}-{hx[20:32]}"


if os.path.exists(OUT):
    shutil.rmtree(OUT)
for d in ("metrics/dcgm", "metrics/node", "logs/journal", "logs/slurm"):
    os.makedirs(os.path.join(OUT, d))

# ----------------------------------------------------------------------------------
# dcgm-exporter: one Parquet file per target, rows as scraped
# ----------------------------------------------------------------------------------
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
DCGM_METRICS = [
    "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_GPU_TEMP",
    "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_ENC_UTIL", "DCGM_FI_DEV_DEC_UTIL",
    "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE",
    "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES",
]
DSCHEMA = pa.schema([
    ("timestamp", pa.timestamp("ms", tz="UTC")), ("metric", pa.string()), ("value", pa.float64()),
    ("gpu", pa.string()), ("UUID", pa.string()), ("pci_bus_id", pa.string()), ("device", pa.string()),
    ("modelName", pa.string()), ("Hostname", pa.string()), ("DCGM_FI_DRIVER_VERSION", pa.string()),
    ("instance", pa.string()), ("job", pa.string()),
])
FB_TOTAL, FB_RES = 81559, 528
host_tmp = {h: rng.normal(0, 1.4) for h in HOSTS}
host_tmp[WARM] += 4.2
host_pw = {h: rng.normal(0, 5) for h in HOSTS}

for h in HOSTS:
    ts = scrape_times(15.0, rng.uniform(0, 15))
    n = len(ts)
    st = state(ts)
    tr, ev, sv = st == 1, st == 2, st == 3
    dt = np.diff(np.concatenate([[ts[0] - 15], ts]))
    vals = np.zeros((n, len(DCGM_METRICS), NGPU))
    uuids = [uuid() for _ in range(NGPU)]
    for g in range(NGPU):
        go = rng.normal(0, 8)
        util = np.zeros(n)
        util[tr] = 99.4 + rng.uniform(-0.5, 0.3) + rng.normal(0, 0.6, tr.sum())
        util[ev] = 97.2 + rng.normal(0, 1.5, ev.sum())
        util[sv] = rng.choice([0, 0, 0, 0, 1, 4, 9], sv.sum())
        util = np.clip(np.round(util), 0, 100)
        p = np.zeros(n)
        p[tr] = 641 + host_pw[h] + go + rng.normal(0, 15, tr.sum())
        p[ev] = 468 + host_pw[h] * 0.7 + go * 0.7 + rng.normal(0, 18, ev.sum())
        p[sv] = 127 + rng.normal(0, 6, sv.sum())
        p = np.clip(p, 65, 700)
        sm = np.where(sv, 1980.0, np.clip(np.round(1850 + go * 2 - (p - 640) * 1.0 + rng.normal(0, 24, n)), 1500, 1980))
        sm[ev] = np.clip(np.round(1960 + rng.normal(0, 15, ev.sum())), 1800, 1980)
        target = 30.5 + host_tmp[h] + rng.normal(0, 0.6) + 0.05 * p
        temp = np.round(lag(target, 15.0, 50.0) + rng.normal(0, 0.35, n))
        mtemp = np.round(temp + 6.8 + rng.normal(0, 0.4) + rng.normal(0, 0.3, n))
        used = np.full(n, 74_210.0 + rng.integers(-700, 700))
        free = FB_TOTAL - FB_RES - used
        copy = np.where(tr, 33 + rng.normal(0, 3, n), np.where(ev, 24 + rng.normal(0, 3, n), rng.uniform(0, 14, n)))
        copy = np.clip(np.round(copy), 0, 100)
        gr = np.where(tr, 0.986 + rng.normal(0, 0.005, n), np.where(ev, 0.95 + rng.normal(0, 0.015, n), rng.uniform(0, 0.05, n)))
        tens = np.where(tr, 0.452 + rng.normal(0, 0.012, n), np.where(ev, 0.338 + rng.normal(0, 0.02, n), rng.uniform(0, 0.01, n)))
        dram = np.where(tr, 0.371 + rng.normal(0, 0.015, n), np.where(ev, 0.30 + rng.normal(0, 0.02, n), rng.uniform(0, 0.03, n)))
        e = np.cumsum(p * dt * 1000.0) + 452.0 * (ts[0] - BOOT[h] - 45) * 1000.0
        nvr = np.where(tr, 1.21e11, np.where(ev, 5.8e10, 0.0)) * (1 + rng.normal(0, 0.03, n))
        nvl = np.cumsum(np.clip(nvr, 0, None) * dt) / 1024.0 + 0.62 * 1.21e11 / 1024.0 * (ts[0] - BOOT[h]) * rng.uniform(0.9, 1.0)
        replay = np.full(n, float(rng.choice([0, 0, 0, 0, 0, 0, 0, 2])))
        tx = np.where(tr, 1.12e10, np.where(ev, 1.6e9, rng.uniform(6e9, 2.1e10, n))) * (1 + rng.normal(0, 0.05, n)) + rng.uniform(2e5, 9e5, n)
        rx = np.where(tr, 1.18e10, np.where(ev, 1.9e9, rng.uniform(1e8, 6e8, n))) * (1 + rng.normal(0, 0.05, n)) + rng.uniform(2e5, 9e5, n)
        cols = {
            "DCGM_FI_DEV_SM_CLOCK": sm, "DCGM_FI_DEV_MEM_CLOCK": np.full(n, 2619.0),
            "DCGM_FI_DEV_MEMORY_TEMP": mtemp, "DCGM_FI_DEV_GPU_TEMP": temp,
            "DCGM_FI_DEV_POWER_USAGE": np.round(p, 3), "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.round(e),
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay, "DCGM_FI_DEV_GPU_UTIL": util,
            "DCGM_FI_DEV_MEM_COPY_UTIL": copy, "DCGM_FI_DEV_ENC_UTIL": np.zeros(n), "DCGM_FI_DEV_DEC_UTIL": np.zeros(n),
            "DCGM_FI_DEV_XID_ERRORS": np.zeros(n), "DCGM_FI_DEV_FB_FREE": free, "DCGM_FI_DEV_FB_USED": used,
            "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": np.round(nvl),
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(np.clip(gr, 0, 1), 6),
            "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(np.clip(tens, 0, 1), 6),
            "DCGM_FI_PROF_DRAM_ACTIVE": np.round(np.clip(dram, 0, 1), 6),
            "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(tx), "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(rx),
        }
        for k, m in enumerate(DCGM_METRICS):
            vals[:, k, g] = cols[m]
    nm, ng = len(DCGM_METRICS), NGPU
    ts_rep = np.repeat(ts, nm * ng)
    met = np.tile(np.repeat(np.arange(nm), ng), n)
    gi = np.tile(np.arange(ng), n * nm)
    inst = f"{IP[h]}:9400"

    def dict_col(codes, values):
        return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(values)).cast(pa.string())

    tbl = pa.table({
        "timestamp": pa.array((ts_rep * 1000).round().astype("int64")).cast(pa.timestamp("ms", tz="UTC")),
        "metric": dict_col(met, DCGM_METRICS),
        "value": pa.array(vals.reshape(-1)),
        "gpu": dict_col(gi, [str(g) for g in range(ng)]),
        "UUID": dict_col(gi, uuids),
        "pci_bus_id": dict_col(gi, PCI),
        "device": dict_col(gi, [f"nvidia{g}" for g in range(ng)]),
        "modelName": dict_col(np.zeros(len(gi)), [MODEL]),
        "Hostname": dict_col(np.zeros(len(gi)), [h]),
        "DCGM_FI_DRIVER_VERSION": dict_col(np.zeros(len(gi)), [DRIVER]),
        "instance": dict_col(np.zeros(len(gi)), [inst]),
        "job": dict_col(np.zeros(len(gi)), ["dcgm-exporter"]),
    }, schema=DSCHEMA)
    up = pa.table({
        "timestamp": pa.array((ts * 1000).round().astype("int64")).cast(pa.timestamp("ms", tz="UTC")),
        "metric": pa.array(["up"] * n), "value": pa.array(np.ones(n)),
        "gpu": pa.nulls(n, pa.string()), "UUID": pa.nulls(n, pa.string()), "pci_bus_id": pa.nulls(n, pa.string()),
        "device": pa.nulls(n, pa.string()), "modelName": pa.nulls(n, pa.string()), "Hostname": pa.nulls(n, pa.string()),
        "DCGM_FI_DRIVER_VERSION": pa.nulls(n, pa.string()),
        "instance": pa.array([inst] * n), "job": pa.array(["dcgm-exporter"] * n),
    }, schema=DSCHEMA)
    pq.write_table(pa.concat_tables([tbl, up]), os.path.join(OUT, "metrics", "dcgm", f"{h}.parquet"),
                   compression="snappy", row_group_size=65536)

# ----------------------------------------------------------------------------------
# node_exporter: one OpenMetrics file per target (30 s)
# ----------------------------------------------------------------------------------
HELP = {
    "up": ("gauge", "1 if the target was scraped (recorded by Prometheus)."),
    "node_boot_time_seconds": ("gauge", "Node boot time, in unixtime."),
    "node_uname_info": ("gauge", "Labeled system information as provided by the uname system call."),
    "node_load1": ("gauge", "1m load average."),
    "node_load5": ("gauge", "5m load average."),
    "node_load15": ("gauge", "15m load average."),
    "node_procs_running": ("gauge", "Number of processes in runnable state."),
    "node_procs_blocked": ("gauge", "Number of processes blocked waiting for I/O to complete."),
    "node_memory_MemTotal_bytes": ("gauge", "Memory information field MemTotal_bytes."),
    "node_memory_MemAvailable_bytes": ("gauge", "Memory information field MemAvailable_bytes."),
    "node_context_switches": ("counter", "Total number of context switches."),
    "node_pressure_cpu_waiting_seconds": ("counter", "Total time in seconds that processes have waited for CPU time"),
    "node_pressure_io_waiting_seconds": ("counter", "Total time in seconds that processes have waited due to IO congestion"),
    "node_hwmon_temp_celsius": ("gauge", "Hardware monitor for temperature (input)"),
    "node_infiniband_port_data_received_bytes": ("counter", "Number of data octets received on all links"),
    "node_infiniband_port_data_transmitted_bytes": ("counter", "Number of data octets transmitted on all links"),
    "node_infiniband_port_transmit_wait": ("counter", "Number of ticks during which the port had data to transmit but no data was sent during the entire tick"),
    "node_infiniband_link_downed": ("counter", "Number of times the link failed to recover from an error state and went down"),
    "node_infiniband_port_errors_received": ("counter", "Number of packets containing an error that were received on this port"),
    "node_network_receive_bytes": ("counter", "Network device statistic receive_bytes."),
    "node_network_transmit_bytes": ("counter", "Network device statistic transmit_bytes."),
    "node_disk_read_bytes": ("counter", "The total number of bytes read successfully."),
    "node_disk_written_bytes": ("counter", "The total number of bytes written successfully."),
    "node_disk_io_time_seconds": ("counter", "Total seconds spent doing I/Os."),
    "node_filesystem_avail_bytes": ("gauge", "Filesystem space available to non-root users in bytes."),
}
MEMTOTAL = 2_164_032_446_464


def fmt_labels(d):
    return "{" + ",".join(f'{k}="{v}"' for k, v in sorted(d.items())) + "}"


def fmtv(v):
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


for h in HOSTS:
    ts = scrape_times(30.0, rng.uniform(0, 30))
    n = len(ts)
    st = state(ts)
    tr, ev, sv = st == 1, st == 2, st == 3
    dt = np.diff(np.concatenate([[ts[0] - 30], ts]))
    up_s = ts - BOOT[h]
    inst = f"{IP[h]}:9100"
    base = {"instance": inst, "job": "node"}
    fams = {k: [] for k in HELP}

    def add(name, labels, v):
        fams[name].append(({**base, **labels}, np.asarray(v, dtype=float)))

    def counter(rate, life_rate):
        return np.cumsum(np.clip(rate, 0, None) * dt) + life_rate * up_s[0]

    add("up", {}, np.ones(n))
    add("node_boot_time_seconds", {}, np.full(n, round(BOOT[h], 0)))
    krel, kver = (KREL_NEW, KVER_NEW) if h == REBOOTED else (KREL_OLD, KVER_OLD)
    add("node_uname_info", {"domainname": "(none)", "machine": "x86_64", "nodename": h, "release": krel,
                            "sysname": "Linux", "version": kver}, np.ones(n))
    busy = np.where(tr, 27.0, np.where(ev, 22.0, 41.0)) + rng.normal(0, 1.8, n) + rng.normal(0, 1.0)
    runnable = busy * rng.uniform(0.95, 1.05, n) + np.abs(rng.normal(0, 1.5, n))
    for nm, tau in (("node_load1", 60.0), ("node_load5", 300.0), ("node_load15", 900.0)):
        add(nm, {}, np.round(lag(runnable, 30.0, tau, runnable[:10].mean()), 2))
    add("node_procs_running", {}, np.maximum(1, np.round(runnable * rng.uniform(0.5, 0.9, n))))
    add("node_procs_blocked", {}, np.where(sv, rng.choice([0, 1, 2, 3, 5], n), rng.choice([0, 0, 0, 0, 1], n)).astype(float))
    add("node_memory_MemTotal_bytes", {}, np.full(n, float(MEMTOTAL)))
    avail = 1.43e12 + rng.normal(0, 1) * 2e10 + np.cumsum(rng.normal(0, 2e8, n)) - np.where(sv, 6.1e10, 0)
    add("node_memory_MemAvailable_bytes", {}, np.round(avail / 4096) * 4096)
    add("node_context_switches", {}, np.round(counter(30000 + 6500 * busy + rng.normal(0, 4000, n), 150000)))
    add("node_pressure_cpu_waiting_seconds", {}, np.round(counter(0.02 + 0.002 * busy, 0.05), 6))
    add("node_pressure_io_waiting_seconds", {}, np.round(counter(np.where(sv, 1.9, 0.004) * rng.uniform(0.7, 1.3, n), 0.01), 6))
    for pk in (0, 1):
        tt = 47 + rng.normal(0, 1.2) + np.where(sv, 6, 0) + rng.normal(0, 0.7, n)
        add("node_hwmon_temp_celsius", {"chip": f"platform_coretemp_{pk}", "sensor": "temp1"}, np.round(lag(tt, 30, 45)))
    for k in range(8):
        lab = {"device": f"mlx5_{k}", "port": "1"}
        rate = np.where(tr, 9.6e9, np.where(ev, 4.1e7, 1.2e6)) * (1 + rng.normal(0, 0.04, n))
        add("node_infiniband_port_data_received_bytes", lab, np.floor(counter(rate * rng.uniform(0.99, 1.01), 4.1e9) / 4) * 4)
        add("node_infiniband_port_data_transmitted_bytes", lab, np.floor(counter(rate * rng.uniform(0.99, 1.01), 4.1e9) / 4) * 4)
        add("node_infiniband_port_transmit_wait", lab, np.round(counter(np.where(tr, 2.1e5, 300) * rng.lognormal(0, 0.5, n), 1.1e5)))
        add("node_infiniband_link_downed", lab, np.full(n, 0.0 if h == REBOOTED else float(rng.choice([0, 0, 0, 0, 1]))))
        add("node_infiniband_port_errors_received", lab, np.zeros(n))
    for nm, r0, ck in (("node_network_receive_bytes", 2.6e6, 1.1e6), ("node_network_transmit_bytes", 1.2e6, 7.2e7)):
        rate = np.where(sv, ck, r0) * rng.lognormal(0, 0.25, n)
        add(nm, {"device": "bond0"}, np.round(counter(rate, r0 * 1.5)))
        add(nm, {"device": "lo"}, np.round(counter(np.full(n, 4.1e5) * rng.lognormal(0, 0.2, n), 4e5)))
    for nm, r in (("node_disk_read_bytes", 3.1e4), ("node_disk_written_bytes", 2.4e5)):
        add(nm, {"device": "nvme0n1"}, np.round(counter(r * rng.lognormal(0, 0.5, n), r) / 512) * 512)
    add("node_disk_io_time_seconds", {"device": "nvme0n1"}, np.round(counter(np.full(n, 0.004) * rng.lognormal(0, 0.4, n), 0.004), 3))
    add("node_filesystem_avail_bytes", {"device": "/dev/nvme0n1p2", "fstype": "ext4", "mountpoint": "/"},
        np.round((3.1e11 + rng.normal(0, 5e9) - np.cumsum(np.abs(rng.normal(0, 4e4, n)))) / 4096) * 4096)
    add("node_filesystem_avail_bytes", {"device": "/dev/md0", "fstype": "ext4", "mountpoint": "/raid"},
        np.round((2.71e13 + rng.normal(0, 1e11)) / 4096) * 4096 + np.zeros(n))
    path = os.path.join(OUT, "metrics", "node", f"{IP[h]}_9100.om")
    with open(path, "w") as f:
        for name, (typ, hlp) in HELP.items():
            if not fams[name]:
                continue
            f.write(f"# TYPE {name} {typ}\n# HELP {name} {hlp}\n")
            sname = name + "_total" if typ == "counter" else name
            for labels, v in fams[name]:
                ls = fmt_labels(labels)
                f.write("".join(f"{sname}{ls} {fmtv(x)} {tt:.3f}\n" for x, tt in zip(v, ts)))
        f.write("# EOF\n")

# ----------------------------------------------------------------------------------
# trainer output: srun --label, Megatron-LM
# ----------------------------------------------------------------------------------
W = 3  # srun pads the task label to the width of the largest task id (159)


def lab(rank):
    return f"{rank:>{W}}: "


def mts(tsec):
    return datetime.fromtimestamp(tsec, UTC).strftime("%Y-%m-%d %H:%M:%S")


def lr_at(i):
    warm, decay, mx, mn = 2000, 248000, 3.0e-4, 3.0e-5
    return mn + 0.5 * (mx - mn) * (1 + math.cos(math.pi * (i - warm) / decay))


def loss_at(i):
    return 1.968 + 95.0 / math.sqrt(i)


out = []  # (t, line)
L = out.append
t = JOB_LAUNCH + 21.5
args = {
    "accumulate_allreduce_grads_in_fp32": "False", "adam_beta1": "0.9", "adam_beta2": "0.95", "adam_eps": "1e-08",
    "attention_dropout": "0.0", "attention_softmax_in_fp32": "False", "bf16": "True", "clip_grad": "1.0",
    "ckpt_format": "torch_dist", "data_parallel_size": "80", "data_path": "['/lustre/fsw/data/mix-v3/tokens_text_document']",
    "distributed_backend": "nccl", "eval_interval": "300", "eval_iters": "50", "ffn_hidden_size": "20480",
    "global_batch_size": str(GBS), "group_query_attention": "False", "hidden_dropout": "0.0", "hidden_size": "5120",
    "init_method_std": "0.008", "load": "/lustre/fsw/gpt13b/checkpoints", "log_interval": "10", "log_throughput": "True",
    "lr": "0.0003", "lr_decay_iters": "250000", "lr_decay_style": "cosine", "lr_warmup_iters": "2000",
    "micro_batch_size": "1", "min_lr": "3e-05", "normalization": "RMSNorm", "num_attention_heads": "40",
    "num_layers": "40", "overlap_grad_reduce": "True", "overlap_param_gather": "True",
    "pipeline_model_parallel_size": "1", "position_embedding_type": "rope", "rank": "0",
    "save": "/lustre/fsw/gpt13b/checkpoints", "save_interval": "600", "seed": "1234", "seq_length": str(SEQ),
    "sequence_parallel": "True", "swiglu": "True", "tensor_model_parallel_size": "2",
    "tokenizer_type": "HuggingFaceTokenizer", "train_iters": str(TRAIN_ITERS), "transformer_impl": "transformer_engine",
    "untie_embeddings_and_output_weights": "True", "use_distributed_optimizer": "True", "use_flash_attn": "True",
    "weight_decay": "0.1", "world_size": "160",
}
L((t, lab(0) + "using world size: 160, data-parallel size: 80, context-parallel size: 1, hierarchical context-parallel sizes: None, tensor-model-parallel size: 2, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 1, encoder-pipeline-model-parallel size: 0"))
L((t, lab(0) + "Number of virtual stages per pipeline stage: None"))
L((t, lab(0) + "using torch.bfloat16 for parameters ..."))
L((t, lab(0) + "------------------------ arguments ------------------------"))
for k in sorted(args):
    L((t, lab(0) + "  {} {} {}".format(k, "." * (48 - len(k)), args[k])))
L((t, lab(0) + "-------------------- end of arguments ---------------------"))
L((t, lab(0) + "setting number of micro-batches to constant 12"))
L((t, lab(0) + "> building HuggingFaceTokenizer tokenizer ..."))
L((t + 0.4, lab(0) + " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)"))
L((t + 0.4, lab(0) + "> initializing torch distributed ..."))
L((t + 6.8, lab(0) + "> initialized tensor model parallel with size 2"))
L((t + 6.8, lab(0) + "> initialized pipeline model parallel with size 1"))
L((t + 6.8, lab(0) + "> setting random seeds to 1234 ..."))
L((t + 6.9, lab(0) + "> compiling dataset index builder ..."))
L((t + 6.9, lab(0) + "make: Entering directory '/opt/megatron-lm/megatron/core/datasets'"))
L((t + 7.0, lab(0) + "make: Nothing to be done for 'default'."))
L((t + 7.0, lab(0) + "make: Leaving directory '/opt/megatron-lm/megatron/core/datasets'"))
L((t + 7.0, lab(0) + ">>> done with dataset index builder. Compilation time: 0.058 seconds"))
L((t + 7.0, lab(0) + "> compiling and loading fused kernels ..."))
L((t + 10.1, lab(0) + ">>> done with compiling and loading fused kernels. Compilation time: 3.127 seconds"))
L((t + 13.6, lab(0) + "time to initialize megatron (seconds): 29.804"))
L((t + 13.6, lab(0) + f"[after megatron is initialized] datetime: {mts(t + 13.6)} "))
L((t + 13.7, lab(0) + "building GPT model ..."))
L((t + 16.2, lab(0) + " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6830161920"))
L((t + 16.2, lab(1) + " > number of parameters on (tensor, pipeline) model parallel rank (1, 0): 6830161920"))
L((t + 19.0, lab(0) + " loading checkpoint from /lustre/fsw/gpt13b/checkpoints at iteration 54000"))
L((t + 57.5, lab(0) + "  successfully loaded checkpoint from /lustre/fsw/gpt13b/checkpoints [ t 1/2, p 1/1 ] at iteration 54000"))
L((t + 57.6, lab(0) + "(min, max) time across ranks (ms):"))
L((t + 57.6, lab(0) + "    load-checkpoint ................................: (38466.12, 38512.90)"))
L((t + 57.6, lab(0) + f"[after model, optimizer, and learning rate scheduler are built] datetime: {mts(t + 57.6)} "))
L((t + 57.7, lab(0) + "> building train, validation, and test datasets ..."))
L((t + 57.7, lab(0) + " > datasets target sizes (minimum size):"))
L((t + 57.7, lab(0) + f"    train:      {TRAIN_ITERS * GBS}"))
L((t + 57.7, lab(0) + f"    validation: {(TRAIN_ITERS // 300 + 1) * 50 * GBS}"))
L((t + 57.7, lab(0) + f"    test:       {50 * GBS}"))
L((TRAIN_START - 0.1, lab(0) + "> finished creating GPT datasets ..."))
L((TRAIN_START - 0.1, lab(0) + f"[after dataloaders are built] datetime: {mts(TRAIN_START - 0.1)} "))
L((TRAIN_START - 0.1, lab(0) + "done with setup ..."))
L((TRAIN_START - 0.1, lab(0) + "(min, max) time across ranks (ms):"))
L((TRAIN_START - 0.1, lab(0) + "    model-and-optimizer-setup ......................: (43890.44, 44051.17)"))
L((TRAIN_START - 0.1, lab(0) + "    train/valid/test-data-iterators-setup ..........: (18411.02, 18530.66)"))
L((TRAIN_START - 0.1, lab(0) + "training ..."))
L((TRAIN_START, lab(0) + "Setting rerun_state_machine.current_iteration to 54000..."))
L((TRAIN_START, lab(0) + f"[before the start of training step] datetime: {mts(TRAIN_START)} "))

LAST = NH * NGPU - 1
ev_by_it = {(k, i): (a, b) for k, a, b, i in events}
prev_t = TRAIN_START
prev_i = 54000
after_save = False
for i, te in zip(IT_N, IT_T):
    i = int(i)
    if i % 10 == 0:
        el = (te - prev_t) * 1000 / (i - prev_i)
        # Megatron stops its interval timer while it evaluates and saves
        for (k, ii), (a, b) in ev_by_it.items():
            if prev_t <= a < te:
                el -= (b - a) * 1000 / (i - prev_i)
        if after_save:
            el *= 1.031
            after_save = False
        tfl = 404.0 * IT_MS / el
        loss = loss_at(i) + rng.normal(0, 0.012)
        gn = abs(0.21 + rng.normal(0, 0.025))
        line = (f" [{mts(te)}] iteration {i:8d}/{TRAIN_ITERS:8d} | consumed samples: {i * GBS:12d} | "
                f"elapsed time per iteration (ms): {el:.1f} | throughput per GPU (TFLOP/s/GPU): {tfl:.1f} | "
                f"learning rate: {lr_at(i):.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | "
                f"loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        L((te + 0.01, lab(LAST) + line))
        if i == 54010:
            L((te + 0.02, lab(0) + "[Rank 0] (after 54010 iterations) memory (MB) | allocated: 33184.60205078125 | max allocated: 58711.48193359375 | reserved: 62614.0 | max reserved: 62614.0"))
        prev_t, prev_i = te, i
    if ("eval", i) in ev_by_it:
        a, b = ev_by_it[("eval", i)]
        L((b, lab(0) + "(min, max) time across ranks (ms):"))
        L((b, lab(0) + "    evaluate .......................................: ({:.2f}, {:.2f})".format((b - a) * 1000 - 0.8, (b - a) * 1000)))
        vl = loss_at(i) + 0.034 + rng.normal(0, 0.004)
        s = f" validation loss at iteration {i} | lm loss value: {vl:.6E} | lm loss PPL: {math.exp(vl):.6E} | "
        L((b + 0.001, lab(LAST) + "-" * (len(s) + 1)))
        L((b + 0.001, lab(LAST) + s))
        L((b + 0.001, lab(LAST) + "-" * (len(s) + 1)))
    if ("save", i) in ev_by_it:
        a, b = ev_by_it[("save", i)]
        L((a, lab(0) + f"saving checkpoint at iteration {i:7d} to /lustre/fsw/gpt13b/checkpoints in torch_dist format"))
        L((b - 0.05, lab(0) + f"  successfully saved checkpoint from iteration {i:7d} to /lustre/fsw/gpt13b/checkpoints [ t 1/2, p 1/1 ]"))
        L((b, lab(0) + "(min, max) time across ranks (ms):"))
        L((b, lab(0) + "    save-checkpoint ................................: ({:.2f}, {:.2f})".format((b - a) * 1000 - 6.1, (b - a) * 1000)))
        after_save = True
out = [x for x in out if x[0] <= E1 + 5]
out.sort(key=lambda x: x[0])
with open(os.path.join(OUT, "logs", "slurm", "slurm-3318930.out"), "w") as f:
    f.write("\n".join(l for _, l in out) + "\n")

# ----------------------------------------------------------------------------------
# journals: journalctl -o short-iso --since "2025-06-11 18:00:00" --until "2025-06-12 03:30:00"
# ----------------------------------------------------------------------------------
J0, J1 = ep(11, 18, 0), E1
PID_RATE = 9.5


def iso(tsec):
    return datetime.fromtimestamp(tsec, UTC).strftime("%Y-%m-%dT%H:%M:%S+0000")


BOOT_PREV_14 = epd(4, 28, 9, 14) + 60 * 13 + 17.2


def pid_at(h, tsec):
    b = BOOT[h]
    if h == REBOOTED and tsec < BOOT[REBOOTED]:
        b = BOOT_PREV_14
    return int((2600 + PID_RATE * (tsec - b)) % 4_194_304 + 300 + rng.integers(0, 5))


PREV_END = ep(11, 19, 20, 4.0)   # job 3318802 reached its time limit


def journal(h):
    rows = []

    def add(tsec, prog, msg):
        rows.append((tsec, f"{iso(tsec)} {h} {prog}: {msg}"))

    boot14 = BOOT[REBOOTED]
    alive = (lambda x: not (SHUTDOWN_14 <= x < boot14 + 30)) if h == REBOOTED else (lambda x: True)
    # sysstat timer every 10 min, cron pam, hourly cron
    tt = math.ceil(J0 / 600) * 600
    while tt < J1:
        if alive(tt):
            add(tt + 0.31, "systemd[1]", "Starting system activity accounting tool...")
            add(tt + 0.36, "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
            add(tt + 0.36, "systemd[1]", "Finished system activity accounting tool.")
        tt += 600
    tt = math.ceil((J0 - 17 * 60) / 3600) * 3600 + 17 * 60
    while tt < J1:
        if alive(tt):
            p = pid_at(h, tt)
            add(tt + 0.02, f"CRON[{p}]", "pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)")
            add(tt + 0.03, f"CRON[{p + 1}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
            add(tt + 0.05, f"CRON[{p}]", "pam_unix(cron:session): session closed for user root")
        tt += 3600
    # daily jobs at midnight
    add(ep(12, 0, 0, 0.8), "systemd[1]", "Starting Rotate log files...")
    add(ep(12, 0, 0, 0.9), "systemd[1]", "Starting Daily man-db regeneration...")
    add(ep(12, 0, 0, 1.2), "systemd[1]", "logrotate.service: Deactivated successfully.")
    add(ep(12, 0, 0, 1.2), "systemd[1]", "Finished Rotate log files.")
    add(ep(12, 0, 0, 2.9), "systemd[1]", "man-db.service: Deactivated successfully.")
    add(ep(12, 0, 0, 2.9), "systemd[1]", "Finished Daily man-db regeneration.")
    # previous job end (time limit) and the new job's start
    sd = 2117 if h != REBOOTED else 2093
    if h == "hgx-c3-01":
        add(PREV_END, f"slurmstepd[{pid_at(h, PREV_END)}]", f"error: *** JOB 3318802 ON {h} CANCELLED AT 2025-06-11T19:20:04 DUE TO TIME LIMIT ***")
    add(PREV_END + 0.2, f"slurmstepd[{pid_at(h, PREV_END) + 3}]", "error: *** STEP 3318802.0 ON %s CANCELLED AT 2025-06-11T19:20:04 DUE TO TIME LIMIT ***" % h)
    add(PREV_END + 31.6, f"slurmstepd[{pid_at(h, PREV_END) + 3}]", "done with job")
    add(JOB_LAUNCH + 0.6, f"slurmd[{sd}]", "slurmd: launch task StepId=3318930.0 request from UID:5012 GID:5000 HOST:10.31.0.10 PORT:51822")
    add(JOB_LAUNCH + 0.7, f"slurmd[{sd}]", "slurmd: task/affinity: lllp_distribution: JobId=3318930 manual binding: map_cpu")
    for k in range(4):
        add(JOB_LAUNCH + 9.3 + 0.001 * k, "kernel", f"nvidia-nvswitch{k}: open (major=510)")
    # benign kernel lines
    if h == "hgx-c3-09":
        add(ep(12, 1, 12, 44.6), "kernel", "perf: interrupt took too long (2531 > 2500), lowering kernel.perf_event_max_sample_rate to 79000")
    if h == "hgx-c3-17":
        add(ep(11, 23, 48, 3.1), "kernel", "perf: interrupt took too long (3167 > 3163), lowering kernel.perf_event_max_sample_rate to 63000")
    if h == "hgx-c3-02":
        add(ep(12, 2, 41, 19.5), "systemd[1]", "Starting Refresh fwupd metadata and update motd...")
        add(ep(12, 2, 41, 21.0), "systemd[1]", "fwupd-refresh.service: Deactivated successfully.")
        add(ep(12, 2, 41, 21.0), "systemd[1]", "Finished Refresh fwupd metadata and update motd.")
    # operator on hgx-c3-14: reboot to boot the pending kernel update
    if h == REBOOTED:
        a = SHUTDOWN_14
        sp = pid_at(h, a - 211)
        add(a - 211, f"sshd[{sp}]", "Accepted publickey for ops from 10.31.0.5 port 50412 ssh2: ED25519 SHA256:fT0hXkq7nB2r3w8Jc5mYv1LzQp9dK4sE6aRgU0iHoWc")
        add(a - 211, f"sshd[{sp}]", "pam_unix(sshd:session): session opened for user ops(uid=1001) by (uid=0)")
        add(a - 211, "systemd-logind[1602]", "New session 812 of user ops.")
        add(a - 210, "systemd[1]", "Started Session 812 of User ops.")
        su = pid_at(h, a - 14.2)
        add(a - 14.2, f"sudo[{su}]", "     ops : TTY=pts/0 ; PWD=/home/ops ; USER=root ; COMMAND=/usr/sbin/reboot")
        add(a - 14.2, f"sudo[{su}]", "pam_unix(sudo:session): session opened for user root(uid=0) by ops(uid=1001)")
        add(a - 13.9, "systemd-logind[1602]", "System is rebooting.")
        add(a - 13.5, "systemd[1]", "Stopping Slurm node daemon...")
        add(a - 13.4, "systemd[1]", "slurmd.service: Deactivated successfully.")
        add(a - 13.4, "systemd[1]", "Stopped Slurm node daemon.")
        add(a - 12.9, "systemd[1]", "Stopping NVIDIA DCGM service...")
        add(a - 11.0, "systemd[1]", "Stopping Prometheus exporter for machine metrics...")
        add(a - 10.8, "systemd[1]", "Stopped Prometheus exporter for machine metrics.")
        add(a - 8.1, "systemd[1]", "Stopped NVIDIA DCGM service.")
        add(a - 3.2, "systemd[1]", "Reached target System Reboot.")
        add(a - 2.9, "systemd[1]", "Shutting down.")
        b = boot14
        rows.append((a + 1, "-- Boot 7d3c41a0be2f4c6b9e5a18d02f6c93e1 --"))
        for u, msg in [
            (0.0, f"Linux version {KREL_NEW} (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) {KVER_NEW} (Ubuntu 5.15.0-113.123-generic 5.15.152)"),
            (0.0, f"Command line: BOOT_IMAGE=/boot/vmlinuz-{KREL_NEW} root=UUID=9c0e2b14-5d3a-4f8e-a6b1-2e7d9f43c0aa ro iommu=pt"),
            (0.0, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 03/08/2024"),
            (0.000011, "tsc: Detected 2000.000 MHz processor"),
            (0.61, "smp: Brought up 2 nodes, 224 CPUs"),
            (3.04, f"rtc_cmos 00:01: setting system clock to {datetime.fromtimestamp(b + 3.6, UTC).strftime('%Y-%m-%dT%H:%M:%S')} UTC ({int(b + 3.6)})"),
            (3.04, "intel_pstate: Intel P-state driver initializing"),
            (3.05, "intel_pstate: HWP enabled"),
            (7.92, "mlx5_core 0000:1a:00.0: firmware version: 28.39.2048"),
            (8.85, "mlx5_core 0000:1a:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)"),
            (9.41, "mlx5_core 0000:1a:00.0: Rate limit: 127 rates are supported, range: 0Mbps to 97656Mbps"),
            (12.13, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
            (16.82, "nvidia: loading out-of-tree module taints kernel."),
            (16.82, "nvidia: module license 'NVIDIA' taints kernel."),
            (16.90, "nvidia-nvlink: Nvlink Core is being initialized, major device number 511"),
            (17.64, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Thu Jun 27 15:34:37 UTC 2024"),
            (18.02, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  535.183.01  Thu Jun 27 15:22:50 UTC 2024"),
            (19.76, "IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready"),
        ]:
            rows.append((b + u, f"{iso(b + u)} {h} kernel: {msg}"))
        for u, prog, msg in [
            (14.1, "systemd[1]", "systemd 249.11-0ubuntu3.12 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)"),
            (14.1, "systemd[1]", f"Hostname set to <{h}>."),
            (21.4, "systemd[1]", "Starting NVIDIA Persistence Daemon..."),
            (21.9, "systemd[1]", "Started NVIDIA Persistence Daemon."),
            (22.0, "systemd[1]", "Starting FabricManager service..."),
            (26.7, "nv-fabricmanager[2004]", "Successfully configured all the available NVSwitches to route GPU NVLink traffic. NVLink Peer-to-Peer support will be enabled once the GPUs are successfully registered with the NVLink fabric."),
            (26.8, "systemd[1]", "Started FabricManager service."),
            (27.3, "systemd[1]", "Started NVIDIA DCGM service."),
            (27.4, "systemd[1]", "Started Prometheus exporter for machine metrics."),
            (27.9, "systemd[1]", "Started Slurm node daemon."),
            (28.1, "slurmd[2093]", "slurmd: slurmd version 23.11.6 started"),
            (28.2, "slurmd[2093]", f"slurmd: slurmd started on {datetime.fromtimestamp(b + 28.2, UTC).strftime('%a, %d %b %Y %H:%M:%S +0000')}"),
            (28.2, "slurmd[2093]", "slurmd: CPUs=224 Boards=1 Sockets=2 Cores=56 Threads=2 Memory=2063721 TmpDisk=28144612 Uptime=29 CPUSpecList=(null) FeaturesAvail=(null) FeaturesActive=(null)"),
            (28.5, "systemd[1]", "Reached target Multi-User System."),
            (28.6, "systemd[1]", "Startup finished in 1min 41.320s (firmware) + 5.112s (loader) + 13.902s (kernel) + 14.682s (userspace) = 2min 15.017s."),
        ]:
            rows.append((b + u, f"{iso(b + u)} {h} {prog}: {msg}"))
    rows = [r for r in rows if J0 <= r[0] <= J1]
    rows.sort(key=lambda r: r[0])
    hdr = (f"-- Journal begins at {datetime.fromtimestamp(epd(4, 28, 9, 14) - 86400 * 9, UTC).strftime('%a %Y-%m-%d %H:%M:%S UTC')}, "
           f"ends at {datetime.fromtimestamp(rows[-1][0], UTC).strftime('%a %Y-%m-%d %H:%M:%S UTC')}. --")
    with open(os.path.join(OUT, "logs", "journal", f"{h}.log"), "w") as f:
        f.write(hdr + "\n")
        for _, line in rows:
            f.write(line + "\n")


for h in HOSTS:
    journal(h)

# ----------------------------------------------------------------------------------
# incident.yaml, truth.yaml
# ----------------------------------------------------------------------------------
incident = {
    "id": ID,
    "title": "GPT-13B pretraining on hgx-c3, overnight 2025-06-12 (routine review)",
    "window": {"start": T0.isoformat(), "end": T1.isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "hgx-c3", "nodes": NH, "gpus_per_node": NGPU, "gpu_model": "H100"},
    "signal_pack": "default",
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(incident, f, sort_keys=False)

in_win = [(k, a, b, i) for k, a, b, i in events if a < E1 and b > E0]
fmt = lambda x: datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
truth = {
    "id": ID,
    "cause": "no fault",
    "cause_metrics": [],
    "cause_log_evidence": [],
    "hosts": [],
    "gpu": None,
    "onset": None,
    "job_throughput_loss_pct": 0.0,
    "throughput_note": (f"Megatron's elapsed time per iteration stays ~{IT_MS:.0f} ms (~404 TFLOP/s/GPU) all window; "
                        "the planned evaluation and checkpoint pauses take ~8% of wall time, as every night."),
    "scheduled_pauses": [
        {"kind": ("in-loop evaluation (50 iterations)" if k == "eval" else "checkpoint save (torch_dist)"),
         "iteration": i, "start": fmt(a), "end": fmt(b), "seconds": round(b - a, 1)}
        for k, a, b, i in in_win
    ],
    "benign_facts": {
        "rebooted_before_window": {"host": REBOOTED, "boot": fmt(BOOT[REBOOTED]),
                                   "why": "operators rebooted it between job 3318802 (time limit 19:20) and job 3318930 (20:05) to boot kernel 5.15.0-113",
                                   "shows_as": "node_boot_time_seconds, node_uname_info release, smaller counters, a boot in its journal"},
        "warmer_host": {"host": WARM, "gpu_temp_offset_c": 4.2},
        "scrape_gap": {"start": fmt(PROM_GAP[0]), "end": fmt(PROM_GAP[1]),
                       "why": "Prometheus restarted; no target has samples then (not a host problem)"},
        "benign_log_lines": ["perf: interrupt took too long ... lowering kernel.perf_event_max_sample_rate (hgx-c3-09, hgx-c3-17)",
                             "nvidia-nvswitchN: open (major=510) at job start", "systemd timers (sysstat, logrotate, man-db), cron"],
    },
    "what_a_good_postmortem_says": (
        "Nothing is wrong: the job's step time and TFLOP/s per GPU are flat through the window, and every dip in GPU power "
        "and utilisation lines up on all 20 hosts with the trainer's own in-loop evaluations (every 300 iterations, "
        "'validation loss at iteration ...') and hourly checkpoint saves ('saving checkpoint at iteration ...', 2-2.5 min). "
        "hgx-c3-14's younger boot time, newer kernel and smaller counters come from its planned reboot before the job, "
        "hgx-c3-06's warmer GPUs are steady, and the 01:27 gap is Prometheus' own restart; none of them is a cause."),
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120)
print("wrote", OUT)
