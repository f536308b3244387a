#!/usr/bin/env python3
"""Generate incident folder `h100-wrong-host-powercap` (fixed seed).

Story: a 32-node x 8 H100 SXM synchronous data-parallel Megatron-LM run. At
07:13:42 UTC an operator's power-capping unit (nvidia-tdp.service, meant for
another host group) is started on hgx-057 and lowers GPU 4 (PCI 9D:00.0) from
700 W to 500 W. That GPU's power flattens at 500 W, its SM clock drops to
~1750 MHz and its clock-event reason reads SW power cap (0x4). Every rank of the
synchronous job waits for it: the job runs ~4 % slower. Nothing crashes.

Layout: metrics/*.parquet (long format: timestamp, metric, value, label
columns; one block per series, as a per-series query_range dump writes it),
logs/<host>/syslog (rsyslog traditional format, Ubuntu 22.04), logs/slurm-731904.out
(torchrun-prefixed Megatron-LM output). No throughput metric exists.
"""
import datetime as dt
import math
import os
import shutil

import numpy as np
import polars as pl
import yaml

SEED = 20250916
ID = "h100-wrong-host-powercap"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
rng = np.random.default_rng(SEED)

UTC = dt.timezone.utc
W0 = dt.datetime(2025, 9, 16, 5, 30, 0, tzinfo=UTC)
W1 = dt.datetime(2025, 9, 16, 9, 30, 0, tzinfo=UTC)
BASE1 = dt.datetime(2025, 9, 16, 6, 30, 0, tzinfo=UTC)
ONSET = dt.datetime(2025, 9, 16, 7, 13, 42, 310000, tzinfo=UTC)
LOG0 = dt.datetime(2025, 9, 16, 4, 30, 0, tzinfo=UTC)      # syslog excerpt start
LOG1 = dt.datetime(2025, 9, 16, 10, 0, 0, tzinfo=UTC)      # syslog excerpt end
JOB_START = dt.datetime(2025, 9, 15, 21, 38, 12, tzinfo=UTC)
SCRAPE = 15.0

HOSTS = [f"hgx-{n:03d}" for n in range(41, 73)]           # 32 nodes
BAD_HOST, BAD_GPU = "hgx-057", 4
PCI = ["1B", "43", "52", "61", "9D", "C3", "D1", "DF"]      # DGX H100 GPU bus ids
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "535.183.06"
FB_TOTAL, FB_RESERVED = 81559, 591
CAP_W = 500.0

t_w0, t_w1, t_on = W0.timestamp(), W1.timestamp(), ONSET.timestamp()


def uuid():
    h = rng.integers(0, 16, 32)
    s = "".join("0123456789abcdef"[i] for i in h)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


# ---------------------------------------------------------------- job timeline
# Megatron-LM iterations from JOB_START: baseline 3.500 s/iter, x1.041 after the
# cap (the capped GPU is the straggler every rank waits for). Checkpoint every
# 1000 iterations; the interval timer is paused while saving (GPUs idle).
T_ITER = 3.500
SLOW = 1.041
ITER0 = 39000
LOG_INTERVAL = 10
SAVE_INTERVAL = 1000
train_start = JOB_START.timestamp() + 212.0    # init, NCCL setup, checkpoint load


def simulate_iterations():
    t = train_start
    it = ITER0
    rows = []          # (iteration, t_end, elapsed_ms_avg)
    saves = []         # (t_start, t_end, iteration)
    acc = 0.0
    hiccup_left = 0
    wander = 0.0                                  # slow AR(1) drift of the pace (+-0.4 %)
    while t < LOG1.timestamp() + 60:
        it += 1
        wander = 0.995 * wander + rng.normal(0, 0.0004)
        d = T_ITER * (SLOW if t >= t_on else 1.0)
        d *= 1.0 + wander + rng.normal(0, 0.006)
        if hiccup_left > 0:
            d *= 1.0 + rng.uniform(0.03, 0.09)
            hiccup_left -= 1
        elif rng.random() < 1 / 1400:            # occasional dataloader/fs hiccup
            hiccup_left = int(rng.integers(1, 4))
        t += d
        acc += d
        if it % LOG_INTERVAL == 0:
            rows.append((it, t, acc / LOG_INTERVAL * 1000.0))
            acc = 0.0
        if it % SAVE_INTERVAL == 0:
            dur = rng.uniform(19.0, 26.0)
            saves.append((t + 0.4, t + 0.4 + dur, it))
            t += dur + 0.8
    return rows, saves


ITER_ROWS, SAVES = simulate_iterations()
SAVE_ARR = np.array([(a, b) for a, b, _ in SAVES])


def in_save(ts):
    m = np.zeros(ts.shape, bool)
    for a, b in SAVE_ARR:
        m |= (ts >= a) & (ts < b)
    return m


# ---------------------------------------------------------------- static per-host/GPU attributes
host_temp_off = {h: rng.normal(0, 2.2) for h in HOSTS}
host_temp_off["hgx-066"] += 6.0                 # top-of-rack, always warmer (persistent)
boot_time = {h: t_w0 - rng.uniform(12, 26) * 86400 for h in HOSTS}
host_ip = {h: f"10.40.1.{int(h[-3:])}" for h in HOSTS}
gpu_attr = {}
for h in HOSTS:
    hp = rng.normal(0, 8)
    for g in range(8):
        mu = rng.normal(604, 18) + hp
        if (h, g) == ("hgx-052", 7):
            mu += 48                            # power-hungry part: often at its 700 W cap
        gpu_attr[(h, g)] = dict(
            uuid=uuid(), mu_p=mu, base_t=rng.normal(61, 2.4) + host_temp_off[h],
            dm=rng.normal(7.0, 1.6), tensor=rng.normal(0.468, 0.008),
            dram=rng.normal(0.381, 0.012), fb=int(rng.normal(74180, 420)),
            pcie=rng.normal(1.05e10, 6e8), nvl=rng.normal(6.6e10, 2.5e9),
        )


def grid(phase):
    n = int((t_w1 - t_w0 - phase) // SCRAPE) + 1
    ts = t_w0 + phase + SCRAPE * np.arange(n) + rng.normal(0, 0.004, n)
    keep = rng.random(n) > 0.0006                      # rare missed scrape
    return ts[keep & (ts < t_w1)]


def lag(x, tau, dt_=SCRAPE):
    a = 1 - math.exp(-dt_ / tau)
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc = acc + a * (v - acc)
        y[i] = acc
    return y


def round15(x):
    return np.round(x / 15.0) * 15.0


# ---------------------------------------------------------------- DCGM series
DCGM_METRICS = [
    "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_GPU_TEMP",
    "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_POWER_MGMT_LIMIT",
    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL",
    "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "DCGM_FI_DEV_POWER_VIOLATION",
    "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_USED",
    "DCGM_FI_DEV_FB_FREE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
    "DCGM_FI_PROF_DRAM_ACTIVE", "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES",
    "DCGM_FI_PROF_NVLINK_TX_BYTES", "DCGM_FI_PROF_NVLINK_RX_BYTES",
]


def dcgm_host(h):
    phase = rng.uniform(0, SCRAPE)
    ts = grid(phase)
    n = len(ts)
    idle = in_save(ts)
    slow = ts >= t_on
    frames = []
    for g in range(8):
        a = gpu_attr[(h, g)]
        capped = (h == BAD_HOST) & (g == BAD_GPU) & (ts >= t_on)
        # power (W)
        p_raw = a["mu_p"] * np.where(slow, 0.975, 1.0) + rng.normal(0, 36, n)
        p_raw = np.where(rng.random(n) < 0.07, p_raw - rng.uniform(60, 200, n), p_raw)
        at_cap = p_raw > 688
        p = np.where(at_cap, rng.uniform(694, 700.5, n), p_raw)
        p = np.clip(p, 170, 700.9)
        pc = np.minimum(rng.normal(497.6, 1.6, n), 500.4)
        dip = rng.random(n) < 0.08
        pc = np.where(dip, rng.normal(452, 22, n), pc)
        p = np.where(capped, pc, p)
        p = np.where(idle, rng.normal(128, 7, n), p)
        # SM clock (MHz) and clock-event reasons
        clk = np.where(at_cap, 1980 - 15 * rng.integers(2, 16, n), 1980.0)
        clk = np.where(rng.random(n) < 0.02, 1965.0, clk)
        cclk = np.clip(round15(rng.normal(1755, 34, n)), 1650, 1830)
        cclk = np.where(dip, np.clip(round15(rng.normal(1890, 40, n)), 1815, 1980), cclk)
        clk = np.where(capped, cclk, clk)
        clk = np.where(idle, 345.0, clk)
        reason = np.where(at_cap, 4.0, 0.0)
        reason = np.where(capped, np.where(dip & (rng.random(n) < 0.5), 0.0, 4.0), reason)
        reason = np.where(idle, 1.0, reason)
        limit = np.where(capped, CAP_W, 700.0)
        # temperatures (integer C), first-order thermal lag on power
        ps = lag(p, 80.0)
        tg = np.round(a["base_t"] + 0.052 * (ps - 600) + rng.normal(0, 0.5, n))
        tm = np.round(a["base_t"] + a["dm"] + 0.036 * (ps - 600) + rng.normal(0, 0.5, n))
        # utilisation and profiling ratios
        util = np.where(rng.random(n) < 0.86, 100.0, rng.integers(96, 100, n).astype(float))
        util = np.where(idle, rng.integers(0, 3, n).astype(float), util)
        mcu = np.where(idle, 0.0, np.round(rng.normal(38, 3.5, n)))
        gr = np.where(idle, rng.uniform(0.0, 0.02, n), np.clip(rng.normal(0.966, 0.009, n), 0, 0.999))
        tfac = np.where(capped, 1.018, np.where(slow, 0.962, 1.0))
        ten = np.where(idle, rng.uniform(0, 0.004, n), np.clip(a["tensor"] * tfac + rng.normal(0, 0.014, n), 0, 1))
        dram = np.where(idle, rng.uniform(0, 0.01, n), np.clip(a["dram"] * np.where(slow & ~capped, 0.965, 1.0) + rng.normal(0, 0.015, n), 0, 1))
        pf = np.where(slow, 1 / SLOW, 1.0)
        ptx = np.where(idle, rng.normal(2.2e7, 4e6, n), a["pcie"] * pf * (1 + rng.normal(0, 0.12, n)))
        prx = np.where(idle, rng.normal(2.6e7, 4e6, n), a["pcie"] * 1.02 * pf * (1 + rng.normal(0, 0.12, n)))
        ntx = np.where(idle, rng.normal(1.1e6, 2e5, n), a["nvl"] * pf * (1 + rng.normal(0, 0.09, n)))
        nrx = np.where(idle, rng.normal(1.1e6, 2e5, n), a["nvl"] * pf * (1 + rng.normal(0, 0.09, n)))
        fb = np.where(rng.random(n) < 0.01, a["fb"] + 2.0, float(a["fb"]))
        # counters
        up_s = ts - boot_time[h]
        dts = np.diff(ts, prepend=ts[0] - SCRAPE)
        energy = up_s[0] * 431.0 * 1000 + np.cumsum(p * dts * 1000.0)
        frac = np.clip((a["mu_p"] - 560) / 900.0, 0.004, 0.2)
        vfrac = np.where(capped, 0.93, np.where(idle, 0.0, frac * np.clip(1 + rng.normal(0, 0.5, n), 0, 3)))
        viol = up_s[0] * frac * 0.55e9 + np.cumsum(vfrac * dts * 1e9)
        replay = np.zeros(n)
        if (h, g) == ("hgx-049", 2):
            replay += 3
        if (h, g) == ("hgx-063", 6):
            replay += 11 + (ts >= dt.datetime(2025, 9, 16, 8, 41, 7, tzinfo=UTC).timestamp())
        series = {
            "DCGM_FI_DEV_SM_CLOCK": clk, "DCGM_FI_DEV_MEM_CLOCK": np.full(n, 2619.0),
            "DCGM_FI_DEV_GPU_TEMP": tg, "DCGM_FI_DEV_MEMORY_TEMP": tm,
            "DCGM_FI_DEV_POWER_USAGE": np.round(p, 3), "DCGM_FI_DEV_POWER_MGMT_LIMIT": limit,
            "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": np.floor(energy),
            "DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_MEM_COPY_UTIL": mcu,
            "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": reason, "DCGM_FI_DEV_POWER_VIOLATION": np.floor(viol),
            "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay, "DCGM_FI_DEV_XID_ERRORS": np.zeros(n),
            "DCGM_FI_DEV_FB_USED": fb, "DCGM_FI_DEV_FB_FREE": FB_TOTAL - FB_RESERVED - fb,
            "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6), "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(ten, 6),
            "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6), "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(ptx),
            "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(prx), "DCGM_FI_PROF_NVLINK_TX_BYTES": np.round(ntx),
            "DCGM_FI_PROF_NVLINK_RX_BYTES": np.round(nrx),
        }
        for m in DCGM_METRICS:
            frames.append(dict(metric=m, gpu=str(g), ts=ts, v=series[m], host=h))
    return frames


DCGM_LABELS = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname",
               "DCGM_FI_DRIVER_VERSION", "err_code", "err_msg", "instance", "job"]


def series_frame(ts, v, metric, labels, label_names):
    df = pl.DataFrame({"timestamp": np.round(ts * 1000).astype("int64"), "value": np.asarray(v, dtype="float64")})
    return df.with_columns(
        pl.col("timestamp").cast(pl.Datetime("ms", "UTC")),
        pl.lit(metric, dtype=pl.String).alias("metric"),
        *[pl.lit(labels.get(k), dtype=pl.String).alias(k) for k in label_names],
    ).select(["timestamp", "metric", "value", *label_names])


def build_dcgm():
    per_metric = {m: [] for m in DCGM_METRICS}
    for h in HOSTS:
        for f in dcgm_host(h):
            per_metric[f["metric"]].append(f)
    frames = []
    for m in DCGM_METRICS:
        for f in per_metric[m]:
            h, g = f["host"], int(f["gpu"])
            labels = {"gpu": str(g), "UUID": gpu_attr[(h, g)]["uuid"], "pci_bus_id": f"00000000:{PCI[g]}:00.0",
                      "device": f"nvidia{g}", "modelName": MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER,
                      "instance": f"{h}:9400", "job": "dcgm-exporter"}
            if m == "DCGM_FI_DEV_XID_ERRORS":
                labels.update(err_code="0", err_msg="No Error")
            frames.append(series_frame(f["ts"], f["v"], m, labels, DCGM_LABELS))
    return pl.concat(frames)


# ---------------------------------------------------------------- node_exporter series
def build_node():
    rows = []
    for h in HOSTS:
        phase = rng.uniform(0, SCRAPE)
        ts = grid(phase)
        n = len(ts)
        idle = in_save(ts)
        slow = ts >= t_on
        dts = np.diff(ts, prepend=ts[0] - SCRAPE)
        up_s = ts - boot_time[h]
        inst = f"{h}:9100"
        act = np.where(idle, 0.02, 1.0) / np.where(slow, SLOW, 1.0)

        def add(metric, v, **lab):
            rows.append(dict(metric=metric, ts=ts, v=v, instance=inst, job="node", **lab))

        add("up", np.ones(n))
        add("node_load1", np.round(np.clip(lag(rng.normal(13.5, 2.5, n), 60), 0, None), 2))
        add("node_memory_MemAvailable_bytes",
            np.round(1.62e12 - 4.1e10 * np.sin(ts / 2900.0) - rng.normal(0, 3e8, n)))
        add("node_network_receive_bytes_total",
            np.floor(up_s[0] * 6.1e7 + np.cumsum(dts * np.clip(rng.normal(7.8e7, 1.2e7, n), 1e6, None))), device="bond0")
        add("node_network_transmit_bytes_total",
            np.floor(up_s[0] * 9.0e6 + np.cumsum(dts * np.clip(rng.normal(1.1e7, 2e6, n), 1e5, None))), device="bond0")
        add("node_filesystem_avail_bytes",
            np.full(n, 2.614e13 - rng.integers(0, 10**9)), device="/dev/md0", fstype="ext4", mountpoint="/raid")
        for d in range(8):
            dev = f"mlx5_{d}"
            base = rng.normal(1.21e10, 3e8)
            rx = np.floor(up_s[0] * base * 0.6 + np.cumsum(dts * base * act * (1 + rng.normal(0, 0.05, n))))
            tx = np.floor(up_s[0] * base * 0.6 + np.cumsum(dts * base * act * (1 + rng.normal(0, 0.05, n))))
            add("node_infiniband_port_data_received_bytes_total", rx, device=dev, port="1")
            add("node_infiniband_port_data_transmitted_bytes_total", tx, device=dev, port="1")
            err = 14.0 if (h, d) == ("hgx-044", 3) else 0.0
            add("node_infiniband_port_errors_received_total", np.full(n, err), device=dev, port="1")
            down = 1.0 if (h, d) == ("hgx-070", 6) else 0.0
            add("node_infiniband_link_downed_total", np.full(n, down), device=dev, port="1")
            add("node_infiniband_state_id", np.full(n, 4.0), device=dev, port="1")
    # DCGM targets' up series too
    for h in HOSTS:
        ts = grid(rng.uniform(0, SCRAPE))
        rows.append(dict(metric="up", ts=ts, v=np.ones(len(ts)), instance=f"{h}:9400", job="dcgm-exporter"))
    labs = ["instance", "job", "device", "port", "fstype", "mountpoint"]
    rows.sort(key=lambda r: r["metric"])
    return pl.concat([series_frame(r["ts"], r["v"], r["metric"], r, labs) for r in rows])


# ---------------------------------------------------------------- syslog per host
MON = "Sep"


def sl_ts(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{MON} {d.day:2d} {d:%H:%M:%S}"


def syslog_host(h, pids):
    """Benign syslog lines for one host; pids and session ids are assigned in time order."""
    ev = []      # (t, prog, pidkey, msg); pidkey None -> prog already has its [pid]
    boot = boot_time[h]
    logind = f"systemd-logind[{1800 + int(rng.integers(0, 200))}]"

    def add(t, prog, msg, key=None):
        ev.append((t, prog, key, msg))

    def kern(t, msg):
        ev.append((t, "kernel", None, f"[{t - boot:12.6f}] {msg}"))

    uniq = iter(range(10**9))
    t0, t1 = LOG0.timestamp(), LOG1.timestamp()
    t = t0 - (t0 % 600)
    while t < t1:                       # sysstat collector every 10 min
        if t >= t0:
            add(t + rng.uniform(0.5, 1.5), "CRON", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)", next(uniq))
        t += 600
    t = t0 - (t0 % 3600) + 17 * 60
    while t < t1:                       # cron.hourly
        if t >= t0:
            add(t + rng.uniform(0.4, 1.2), "CRON", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)", next(uniq))
        t += 3600

    def session(t, src, key_fp, dur, extra=None):
        k = next(uniq)
        port = int(rng.integers(32768, 60999))
        add(t, "sshd", f"Accepted publickey for root from {src} port {port} ssh2: ED25519 SHA256:{key_fp}", k)
        add(t + 0.02, "sshd", "pam_unix(sshd:session): session opened for user root(uid=0) by (uid=0)", k)
        add(t + 0.03, logind, "New session {SESS} of user root.", ("S", k))
        add(t + 0.05, "systemd[1]", "Started Session {SESS} of User root.", ("S", k))
        if extra:
            extra(t)
        e = t + dur
        add(e, "sshd", f"Received disconnect from {src} port {port}:11: disconnected by user", k)
        add(e + 0.001, "sshd", f"Disconnected from user root {src} port {port}", k)
        add(e + 0.002, "sshd", "pam_unix(sshd:session): session closed for user root", k)
        add(e + 0.01, "systemd[1]", "session-{SESS}.scope: Deactivated successfully.", ("S", k))
        add(e + 0.02, logind, "Session {SESS} logged out. Waiting for processes to exit.", ("S", k))
        add(e + 0.03, logind, "Removed session {SESS}.", ("S", k))

    def nvswitch(t):
        k = t + rng.uniform(1.0, 2.5)
        for sw in range(4):
            kern(k + sw * 0.0004 + rng.uniform(0, 0.0002), f"nvidia-nvswitch{sw}: open (major=510)")

    # node health check over ssh from the admin host every ~30 min (runs dcgmi/nvidia-smi)
    t = t0 + rng.uniform(60, 600)
    while t < t1:
        session(t, "10.40.0.12", "q3V8xZbYkKpT0bH4r9nUuJw1s2m7cGfLdA6eRtOiWyE", rng.uniform(7, 14), nvswitch)
        t += 1800 + rng.uniform(-40, 40)
    for (hh, mm, unit, desc) in [(6, 11, "apt-daily-upgrade.service", "Daily apt upgrade and clean activities"),
                                 (5, 2, "motd-news.service", "Message of the Day"),
                                 (8, 47, "apt-daily.service", "Daily apt download activities"),
                                 (9, 5, "systemd-tmpfiles-clean.service", "Cleanup of Temporary Directories")]:
        ts_ = dt.datetime(2025, 9, 16, hh, mm, 0, tzinfo=UTC).timestamp() + rng.uniform(0, 900)
        add(ts_, "systemd[1]", f"Starting {desc}...")
        add(ts_ + rng.uniform(0.5, 6), "systemd[1]", f"{unit}: Deactivated successfully.")
        add(ts_ + rng.uniform(6.1, 7), "systemd[1]", f"Finished {desc}.")
    if rng.random() < 0.25:
        a = int(rng.integers(2501, 3300))
        kern(t0 + rng.uniform(0, t1 - t0), f"perf: interrupt took too long ({a} > {a - int(rng.integers(2, 40))}), "
             f"lowering kernel.perf_event_max_sample_rate to {int(rng.integers(60, 79)) * 1000 + 250}")
    if rng.random() < 0.3:
        add(t0 + rng.uniform(0, t1 - t0), f"chronyd[{1100 + int(rng.integers(0, 300))}]", "Selected source 10.40.0.2 (ntp2.cluster.internal)")
    if h == BAD_HOST:
        # operator's power-cap unit started on the wrong host (sources in truth.yaml)
        def cap_unit(ts_):
            add(ts_ + 3.1, "systemd[1]", "Reloading.")
            add(ts_ + 3.9, "systemd[1]", "Starting Set NVIDIA power limit...")
            k2 = next(uniq)
            add(ONSET.timestamp(), "set-nvidia-power-limit.sh",
                "Power limit for GPU 00000000:9D:00.0 was set to 500.00 W from 700.00 W.", k2)
            add(ONSET.timestamp() + 0.001, "set-nvidia-power-limit.sh", "All done.", k2)
            add(ONSET.timestamp() + 0.05, "systemd[1]", "nvidia-tdp.service: Deactivated successfully.")
            add(ONSET.timestamp() + 0.051, "systemd[1]", "Finished Set NVIDIA power limit.")
        session(ONSET.timestamp() - 4.2, "10.40.0.15", "Zp0Yh2wq9f4Lk7Rb1xDm3cVtE8uNsGaJiQ5oWrUyH6T", 6.8, cap_unit)
    ev.sort(key=lambda x: x[0])
    pidmap, sessmap = {}, {}
    sess = int(rng.integers(3000, 6000))
    out = []
    for t, prog, key, msg in ev:
        if isinstance(key, tuple):
            if key not in sessmap:
                sess += 1
                sessmap[key] = sess
            msg = msg.replace("{SESS}", str(sessmap[key]))
        elif key is not None:
            if key not in pidmap:
                pids[h] += int(rng.integers(20, 700))
                pidmap[key] = pids[h]
            prog = f"{prog}[{pidmap[key]}]"
        out.append(f"{sl_ts(t)} {h} {prog}: {msg}")
    return out


# ---------------------------------------------------------------- trainer output (slurm .out)
def megatron_ts(t):
    return dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def trainer_log():
    t = JOB_START.timestamp()
    out = []   # keep the header simple and consistent: torchrun's OMP warning once per node
    for i, h in enumerate(HOSTS):
        tt = t + 2.0 + rng.uniform(0, 1.5)
        out.append((tt, "*****************************************"))
        out.append((tt + 1e-4, "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        out.append((tt + 2e-4, "*****************************************"))
    t0 = t + 9
    r0 = [
        "using world size: 256, data-parallel size: 256, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ",
        "WARNING: Setting args.overlap_p2p_comm to False since non-interleaved schedule does not support overlapping p2p communication",
        "accumulate and all-reduce gradients in fp32 for bfloat16 data type.",
        "using torch.bfloat16 for parameters ...",
        "> building HuggingFaceTokenizer tokenizer ...",
        " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)",
        "> initializing torch distributed ...",
        "> initialized tensor model parallel with size 1",
        "> initialized pipeline model parallel with size 1",
        "> setting random seeds to 1234 ...",
        "> compiling dataset index builder ...",
        ">>> done with dataset index builder. Compilation time: 0.061 seconds",
        "> compiling and loading fused kernels ...",
        ">>> done with compiling and loading fused kernels. Compilation time: 2.417 seconds",
        f"time to initialize megatron (seconds): 41.829",
        f"[after megatron is initialized] datetime: {megatron_ts(t0 + 42)} ",
        "building GPT model ...",
        " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 13015864320",
        "> learning rate decay style: cosine",
        f" loading checkpoint from /lustre/fs0/ckpt/gpt13b-v3 at iteration {ITER0}",
        f"  successfully loaded checkpoint from /lustre/fs0/ckpt/gpt13b-v3 [ t 0, p 0 ] at iteration {ITER0}",
        f"(min, max) time across ranks (ms):",
        "    load-checkpoint ................................: (93104.22, 93121.87)",
        f"[after model, optimizer, and learning rate scheduler are built] datetime: {megatron_ts(t0 + 160)} ",
        "> building train, validation, and test datasets ...",
        " > datasets target sizes (minimum size):",
        "    train:      256000000",
        "    validation: 1282560",
        "    test:       10240",
        "> finished creating GPT datasets ...",
        f"[after dataloaders are built] datetime: {megatron_ts(t0 + 198)} ",
        "done with setup ...",
        "(min, max) time across ranks (ms):",
        "    model-and-optimizer-setup ......................: (117421.52, 117509.94)",
        "    train/valid/test-data-iterators-setup ..........: (36511.60, 37024.11)",
        "training ...",
        f"[before the start of training step] datetime: {megatron_ts(train_start - 0.5)} ",
    ]
    step = (train_start - 1 - t0) / len(r0)
    for i, s in enumerate(r0):
        out.append((t0 + i * step, "[default0]:" + s))
    # NCCL version banner from rank 0
    out.append((t0 + 44.2, "[default0]:NCCL version 2.21.5+cuda12.4"))
    # iteration lines from the last rank (print_rank_last)
    F = 405.0e12 * T_ITER * 256
    lr_max, lr_min, warm, total = 3.0e-4, 3.0e-5, 2000, 250000
    for it, te, ms in ITER_ROWS:
        lr = lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * (it - warm) / (total - warm)))
        loss = 2.31 - 0.045 * math.log(it / ITER0 + 0.0) + rng.normal(0, 0.018)
        gn = abs(rng.normal(0.228, 0.022)) + (rng.exponential(0.3) if rng.random() < 0.01 else 0)
        tflops = F / (ms / 1000.0) / 256 / 1e12
        line = (f"[default7]: [{megatron_ts(te)}] iteration {it:8d}/{total:8d} | consumed samples: {it * 1024:12d} |"
                f" elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} |"
                f" learning rate: {lr:.6E} | global batch size:  1024 | lm loss: {loss:.6E} | loss scale: 1.0 |"
                f" grad norm: {gn:.3f} | num zeros: 0.0 | number of skipped iterations:   0 | number of nan iterations:   0 |")
        out.append((te, line))
    for a, b, it in SAVES:
        out.append((a + 0.01, f"[default0]:saving checkpoint at iteration {it:7d} to /lustre/fs0/ckpt/gpt13b-v3 in torch_dist format"))
        out.append((b - 0.3, f"[default0]:  successfully saved checkpoint from iteration {it:7d} to /lustre/fs0/ckpt/gpt13b-v3 [ t 1/1, p 1/1 ]"))
        out.append((b - 0.29, "[default0]:(min, max) time across ranks (ms):"))
        out.append((b - 0.28, f"[default0]:    save-checkpoint ................................: ({(b - a) * 1000 - rng.uniform(40, 200):.2f}, {(b - a) * 1000 - rng.uniform(0, 30):.2f})"))
    out.sort(key=lambda x: x[0])
    cut = LOG1.timestamp()
    return [l for t_, l in out if t_ <= cut]


# ---------------------------------------------------------------- main
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))

    dcgm = build_dcgm()
    dcgm.write_parquet(os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), compression="zstd",
                       row_group_size=500_000)
    node = build_node()
    node.write_parquet(os.path.join(OUT, "metrics", "node-exporter.parquet"), compression="zstd",
                       row_group_size=500_000)

    pids = {h: int(rng.integers(2_100_000, 2_300_000)) for h in HOSTS}
    for h in HOSTS:
        d = os.path.join(OUT, "logs", h)
        os.makedirs(d)
        with open(os.path.join(d, "syslog"), "w") as f:
            f.write("\n".join(syslog_host(h, pids)) + "\n")
    with open(os.path.join(OUT, "logs", "slurm-731904.out"), "w") as f:
        f.write("\n".join(trainer_log()) + "\n")

    incident = {
        "id": ID,
        "title": "gpt13b-v3 pretraining on hgx-041..072 running a few percent slower since mid-morning",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": W0.isoformat(), "end": BASE1.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "hgx-pod2", "nodes": 32, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)

    # measured loss from the generated iteration lines
    base = [ms for it, te, ms in ITER_ROWS if t_w0 <= te < t_on]
    after = [ms for it, te, ms in ITER_ROWS if t_on + 120 <= te < t_w1]
    loss = (1 - np.median(base) / np.median(after)) * 100
    truth = {
        "id": ID,
        "cause": ("An operator's power-capping unit (nvidia-tdp.service running set-nvidia-power-limit.sh), "
                  "meant for a different host group, was started on hgx-057 and lowered GPU 4 "
                  "(PCI 00000000:9D:00.0) from 700 W to 500 W; that GPU became the straggler of the "
                  "synchronous data-parallel job."),
        "cause_metrics": ["DCGM_FI_DEV_POWER_MGMT_LIMIT", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK",
                          "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "DCGM_FI_DEV_POWER_VIOLATION"],
        "cause_log_evidence": [
            {"file": "logs/hgx-057/syslog",
             "text": "Power limit for GPU 00000000:9D:00.0 was set to 500.00 W from 700.00 W.",
             "adapted": "host name, timestamp, syslog prefix/pid; message text verbatim (PCI address 9D:00.0 as in source 1)",
             "source": [
                 "nvidia-smi -pl output for an H100 (700 W default), quoted verbatim in a public GitHub markdown lesson "
                 "'02b.7 Power and thermals as measurable undelivered FLOPs' (code-index file id 62068331289): "
                 "'Power limit for GPU 00000000:9D:00.0 was set to 500.00 W from 700.00 W.'",
                 "same message recorded from a real H100 pod in a public GitHub findings file "
                 "'Phase 4.3.0 Sub-phase A - Discovery findings' (code-index file id 70422398662): "
                 "'Power limit for GPU 00000000:07:00.0 was set to 500.00 W from 700.00 W'",
                 "message template (other wattages) in many public logs, e.g. the journal excerpt of source 3 below: "
                 "'set-nvidia-power-limit.sh[1777374]: Power limit for GPU 00000000:01:00.0 was set to 270.00 W from 450.00 W.'",
                 "caveat: the repositories behind code-index ids 62068331289 / 70422398662 could not be resolved to "
                 "owner/name with the available tools; the wording is nvidia-smi's standard -pl confirmation"]},
            {"file": "logs/hgx-057/syslog",
             "text": ["Starting Set NVIDIA power limit...", "All done.",
                      "nvidia-tdp.service: Deactivated successfully.", "Finished Set NVIDIA power limit."],
             "adapted": "host name, timestamps, pids",
             "source": ("journal output of the nvidia-tdp.service / set-nvidia-power-limit.sh unit in the public blog post "
                        "'Easily Limit NVIDIA GPU Power Draw with systemd' (2024-05-17, GitHub-hosted markdown, code-index "
                        "file id 2494023061): 'May 17 14:51:30 node2 systemd[1]: Starting Set NVIDIA power limit...', "
                        "'... set-nvidia-power-limit.sh[1777374]: All done.', '... systemd[1]: nvidia-tdp.service: "
                        "Deactivated successfully.', '... systemd[1]: Finished Set NVIDIA power limit.'")},
        ],
        "hosts": [BAD_HOST],
        "gpu": {"host": BAD_HOST, "index": BAD_GPU, "pci_bus_id": "00000000:9D:00.0",
                "uuid": gpu_attr[(BAD_HOST, BAD_GPU)]["uuid"]},
        "onset": ONSET.replace(microsecond=0).isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": round(float(loss), 1),
        "what_a_good_postmortem_says": (
            "From 07:13:42 UTC the whole 256-GPU job ran about 4% slower (elapsed time per iteration ~3.50 s -> "
            "~3.64 s) because one GPU, hgx-057 GPU 4, had its power management limit lowered from 700 W to 500 W: "
            "its power draw flattened at 500 W, its SM clock fell from 1980 MHz to ~1750 MHz and its clock-event "
            "reason became SW power cap (0x4), and every rank of the synchronous job waited for it. "
            "The trigger was an operator's power-capping unit started on the wrong host (logged in hgx-057's syslog); "
            "restore the limit with nvidia-smi -i 4 -pl 700 and guard the capping script by host group / "
            "alert on DCGM_FI_DEV_POWER_MGMT_LIMIT below default. Other GPUs that touch their own 700 W cap "
            "(e.g. hgx-052 GPU 7) and hgx-066's warmer GPUs are long-standing and unrelated."),
        "notes": {
            "layout": "metrics/*.parquet long format (timestamp UTC ms, metric, value, label columns), one block per series",
            "throughput_signal": "trainer log only (logs/slurm-731904.out, Megatron-LM iteration lines printed by [default7]); no throughput metric",
            "scrape_interval_s": SCRAPE,
            "red_herrings": ["hgx-052 GPU 7 draws more power and often shows clock-event reason 0x4 at its 700 W limit all window",
                             "hgx-066 GPUs run ~6 C warmer all window", "hgx-063 GPU 6 PCIe replay counter +1 at 08:41",
                             "checkpoint saves every 1000 iterations idle all GPUs ~20 s",
                             "periodic root ssh health checks on every host (the 07:13 session on hgx-057 came from 10.40.0.15)"],
        },
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)
    print("wrote", OUT, "loss %.2f%%" % loss, "dcgm rows", dcgm.height, "node rows", node.height)


if __name__ == "__main__":
    main()
