#!/usr/bin/env python3
"""Write the incident folder h100-site-powercap/ (fixed seed).

24 x HGX H100 (192 GPUs) running one Megatron-LM job (TP8 PP2 DP12). At 11:35 UTC the
site's power controller lowers the GPU budget; each node's gpu-power-policy timer
(5 min, RandomizedDelaySec=60) applies `nvidia-smi -pl 500` within the next minute, so
every GPU goes from a 700 W to a 500 W enforced limit, clocks drop, and the synchronous
job loses ~11% of its throughput on all hosts at once. No host is at fault.

Layout: metrics/dcgm-exporter.parquet and metrics/node-exporter.parquet (long format,
raw scrape timestamps at 15 s, Prometheus labels as columns), logs/<host>/syslog
(rsyslog traditional format, Ubuntu 22.04), logs/slurm-881342.out (srun --label).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import math
import os
import shutil
import uuid

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import yaml

SEED = 20251118
rng = np.random.default_rng(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
ID = "h100-site-powercap"
OUT = os.path.join(HERE, ID)

UTC = dt.timezone.utc
W0 = dt.datetime(2025, 11, 18, 9, 0, 0, tzinfo=UTC)
W1 = dt.datetime(2025, 11, 18, 13, 0, 0, tzinfo=UTC)
BASE1 = dt.datetime(2025, 11, 18, 10, 30, 0, tzinfo=UTC)
POLICY = dt.datetime(2025, 11, 18, 11, 35, 0, tzinfo=UTC)   # site controller lowers budget
JOB_START = dt.datetime(2025, 11, 18, 7, 12, 9, tzinfo=UTC)
TRAIN_START = dt.datetime(2025, 11, 18, 7, 20, 41, tzinfo=UTC)
LOG_END = dt.datetime(2025, 11, 18, 13, 21, 40, tzinfo=UTC)  # when logs were collected
SCRAPE = 15.0

NH = 24
HOSTS = [f"hgx-b2-{i:02d}" for i in range(1, NH + 1)]
IPS = [f"10.42.2.{20 + i}" for i in range(1, NH + 1)]
PCI = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.127.05"
FB_TOTAL = 81559.0
FB_RES = 537.0

ts = lambda d: d.timestamp()
T0, T1 = ts(W0), ts(W1)
TPOL = ts(POLICY)

# --- when each host applied the cap (timer fires at :35:00 + randomized delay) -------
cap_delay = np.sort(rng.uniform(2.0, 58.0, NH))
rng.shuffle(cap_delay)
CAP_T = TPOL + cap_delay          # the nvidia-smi -pl call on each host
ONSET = float(CAP_T.min())
BOOT = np.round(T0 - rng.uniform(9, 21, NH) * 86400 - rng.uniform(0, 1, NH), 3)  # per host

# --- the training job: iteration end times --------------------------------------------
ITER_PRE = 16.10
ITER_POST = 18.15
GBS, SEQ, WORLD = 1536, 4096, 192
START_ITER = 40000
SAVE_INTERVAL = 500
SAVE_SECONDS = 27.6


def build_iterations():
    """Return list of (iteration, end_time, elapsed_s, saved_after)."""
    out = []
    t = ts(TRAIN_START)
    it = START_ITER
    extra = 0.0
    while t < ts(LOG_END) - 5:
        it += 1
        # a step is as slow as its slowest rank: once any host is capped, the step is slow
        frac_capped = 0.0
        if t + ITER_PRE > ONSET:
            frac_capped = min(1.0, max(0.0, (t + ITER_PRE - ONSET) / ITER_PRE))
        base = ITER_PRE + (ITER_POST - ITER_PRE) * frac_capped
        sd = 0.055 if frac_capped < 1 else 0.075
        el = base * (1 + rng.normal(0, sd / base)) + (0.25 if rng.random() < 0.02 else 0.0)
        if it == START_ITER + 1:
            el += 9.8                      # first iteration after the load: warm-up
        el += extra
        extra = 0.0
        t += el
        saved = it % SAVE_INTERVAL == 0
        out.append((it, t, el, saved))
        if saved:
            extra = SAVE_SECONDS + rng.normal(0, 0.6)
            t_save_end = t + extra
            out[-1] = (it, t, el, (t, t_save_end))
    return out


ITERS = build_iterations()
SAVES = [s for (_, _, _, s) in ITERS if s]


def in_save(tarr):
    m = np.zeros_like(tarr, dtype=bool)
    for a, b in SAVES:
        m |= (tarr >= a) & (tarr < b)
    return m


def gpu_uuid(h, g):
    x = hashlib.sha1(f"{SEED}-{h}-{g}".encode()).hexdigest()
    return f"GPU-{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


# ======================================================================================
# metrics
# ======================================================================================
def scrape_times(offset):
    n = int((T1 - T0 - offset) // SCRAPE) + 1
    k = np.arange(n)
    t = T0 + offset + k * SCRAPE + rng.normal(0, 0.004, n)
    return np.round(t, 3)


def smooth(x, dtt, tau):
    y = np.empty_like(x)
    a = 1 - math.exp(-dtt / tau)
    y[0] = x[0]
    for i in range(1, len(x)):
        y[i] = y[i - 1] + a * (x[i] - y[i - 1])
    return y


def quant15(x):
    return np.round(x / 15.0) * 15.0


def step_rate_factor(tarr):
    """Relative rate of work (1 before the cap, ITER_PRE/ITER_POST after)."""
    return np.where(tarr >= ONSET + 8, ITER_PRE / ITER_POST, 1.0)


DCGM_COLS = ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "pci_bus_id", "device",
             "modelName", "DCGM_FI_DRIVER_VERSION", "instance", "job"]


def gen_dcgm():
    cols = {c: [] for c in DCGM_COLS}

    def add(tarr, name, vals, labels):
        n = len(tarr)
        cols["timestamp"].append(tarr)
        cols["metric"].append(np.full(n, name, dtype=object))
        cols["value"].append(np.asarray(vals, dtype=np.float64))
        for k in DCGM_COLS[3:]:
            cols[k].append(np.full(n, labels.get(k), dtype=object))

    for hi, h in enumerate(HOSTS):
        off = rng.uniform(0.2, 14.8)
        t = scrape_times(off)
        n = len(t)
        capped = t >= CAP_T[hi] + 1.0
        sv = in_save(t)
        rate = step_rate_factor(t)
        inlet = rng.normal(26.5, 1.4)                      # host's inlet air (persistent)
        inst = f"{IPS[hi]}:9400"
        add(t, "up", np.ones(n), {"instance": inst, "job": "dcgm-exporter"})
        for g in range(8):
            lab = {"Hostname": h, "gpu": str(g), "UUID": gpu_uuid(h, g),
                   "pci_bus_id": f"00000000:{PCI[g]}:00.0", "device": f"nvidia{g}",
                   "modelName": MODEL, "DCGM_FI_DRIVER_VERSION": DRIVER,
                   "instance": inst, "job": "dcgm-exporter"}
            hungry = rng.normal(0, 1)                      # silicon: leakier parts draw more
            p_mean = 636 + 14 * hungry
            p_cap_base = float(np.clip(0.12 + 0.07 * hungry, 0.02, 0.35))
            clk_capped = 1470 - 28 * hungry                # at 500 W
            rth = rng.normal(0.059, 0.004)
            # --- clock event reasons + clocks + power ---------------------------------
            u = rng.random(n)
            reason = np.where(capped, np.where(u < 0.93, 4, 0), np.where(u < p_cap_base, 4, 0))
            clk = np.where(reason == 4,
                           np.where(capped, rng.normal(clk_capped, 32, n), rng.uniform(1740, 1925, n)),
                           np.where(capped, rng.uniform(1650, 1980, n), 1980.0))
            clk = np.minimum(clk, 1980)
            pwr = np.where(reason == 4,
                           np.where(capped, 500 - np.abs(rng.normal(0, 5.5, n)) + rng.choice([0, 0, 0, 1.6], n),
                                    700 - np.abs(rng.normal(0, 6.0, n)) + rng.choice([0, 0, 0, 2.1], n)),
                           np.where(capped, np.minimum(rng.normal(441, 26, n), 499.5), np.minimum(rng.normal(p_mean, 38, n), 697)))
            util = np.where(rng.random(n) < 0.9, 100.0, rng.choice([98.0, 99.0], n))
            # checkpoint save: the GPUs sit almost idle while rank 0.. write torch_dist shards
            pwr = np.where(sv, rng.normal(142, 12, n), pwr)
            clk = np.where(sv, 1980.0, clk)
            reason = np.where(sv, 0, reason)
            util = np.where(sv, rng.choice([0.0, 0.0, 3.0, 11.0, 27.0], n), util)
            clk = quant15(clk)
            pwr = np.round(pwr, 3)
            psm = smooth(pwr, SCRAPE, 70.0)
            gtemp = np.round(inlet + rth * psm + rng.normal(0, 0.45, n) + 0.6 * g / 7)
            psm2 = smooth(pwr, SCRAPE, 140.0)
            mtemp = np.round(inlet + 3.5 + (rth + 0.011) * psm2 + rng.normal(0, 0.4, n))
            limit = np.where(t >= CAP_T[hi], 500.0, 700.0)
            # --- counters ---------------------------------------------------------------
            e0 = rng.uniform(6.0e11, 1.3e12)
            energy = e0 + np.cumsum(pwr * SCRAPE * 1000.0)           # mJ
            viol0 = rng.uniform(2.0e13, 9.0e13)
            vfrac = np.where(capped, rng.normal(0.93, 0.02, n), rng.normal(p_cap_base, 0.03, n))
            vfrac = np.clip(np.where(sv, 0.0, vfrac), 0, 1)
            viol = viol0 + np.cumsum(vfrac * SCRAPE * 1e9)               # ns
            nvl0 = rng.uniform(3e9, 8e9)
            nvl = nvl0 + np.cumsum(np.where(sv, 0.0, rate) * rng.normal(5.52e4, 1.5e3, n) * SCRAPE)
            replay0 = float(rng.choice([0, 0, 0, 0, 0, 1, 2, 4]))
            # --- activity ---------------------------------------------------------------
            gr = np.where(sv, util / 100 * 0.9, np.clip(rng.normal(0.972, 0.012, n), 0, 1))
            sm = np.where(sv, util / 100 * 0.5, np.clip(rng.normal(0.893, 0.02, n) - 0.004 * (1 - rate) * 0, 0, 1))
            tens = np.where(sv, 0.0, np.clip(rng.normal(0.416, 0.018, n) * np.where(capped, 1.16, 1.0), 0, 1))
            dram = np.where(sv, 0.01, np.clip(rng.normal(0.312, 0.02, n) * rate, 0, 1))
            mcu = np.where(sv, 0.0, np.round(np.clip(rng.normal(38, 3.5, n) * rate, 0, 100)))
            pcie_tx = np.where(sv, rng.normal(2.2e8, 2e7, n), rng.normal(9.4e8, 1.1e8, n) * rate)
            pcie_rx = np.where(sv, rng.normal(1.5e7, 2e6, n), rng.normal(9.1e8, 1.1e8, n) * rate)
            fb_used = np.round(71840 + rng.integers(-300, 300) + np.where(rng.random(n) < 0.05, 2, 0))
            add(t, "DCGM_FI_DEV_SM_CLOCK", clk, lab)
            add(t, "DCGM_FI_DEV_MEM_CLOCK", np.full(n, 2619.0), lab)
            add(t, "DCGM_FI_DEV_GPU_TEMP", gtemp, lab)
            add(t, "DCGM_FI_DEV_MEMORY_TEMP", mtemp, lab)
            add(t, "DCGM_FI_DEV_POWER_USAGE", pwr, lab)
            add(t, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(energy), lab)
            add(t, "DCGM_FI_DEV_ENFORCED_POWER_LIMIT", limit, lab)
            add(t, "DCGM_FI_DEV_POWER_MGMT_LIMIT", limit, lab)
            add(t, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", reason.astype(float), lab)
            add(t, "DCGM_FI_DEV_POWER_VIOLATION", np.round(viol), lab)
            add(t, "DCGM_FI_DEV_THERMAL_VIOLATION", np.zeros(n), lab)
            add(t, "DCGM_FI_DEV_GPU_UTIL", util, lab)
            add(t, "DCGM_FI_DEV_MEM_COPY_UTIL", mcu, lab)
            add(t, "DCGM_FI_DEV_FB_USED", fb_used, lab)
            add(t, "DCGM_FI_DEV_FB_FREE", FB_TOTAL - FB_RES - fb_used, lab)
            add(t, "DCGM_FI_DEV_XID_ERRORS", np.zeros(n), lab)
            add(t, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", np.full(n, replay0), lab)
            add(t, "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl), lab)
            add(t, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6), lab)
            add(t, "DCGM_FI_PROF_SM_ACTIVE", np.round(sm, 6), lab)
            add(t, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6), lab)
            add(t, "DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6), lab)
            add(t, "DCGM_FI_PROF_PCIE_TX_BYTES", np.round(np.maximum(pcie_tx, 0)), lab)
            add(t, "DCGM_FI_PROF_PCIE_RX_BYTES", np.round(np.maximum(pcie_rx, 0)), lab)
    return cols


NODE_COLS = ["timestamp", "metric", "value", "instance", "job", "device", "port", "mountpoint",
             "fstype", "nodename", "release", "version", "machine", "sysname", "domainname"]


def gen_node():
    cols = {c: [] for c in NODE_COLS}

    def add(tarr, name, vals, labels):
        n = len(tarr)
        cols["timestamp"].append(tarr)
        cols["metric"].append(np.full(n, name, dtype=object))
        cols["value"].append(np.asarray(vals, dtype=np.float64))
        for k in NODE_COLS[3:]:
            cols[k].append(np.full(n, labels.get(k), dtype=object))

    for hi, h in enumerate(HOSTS):
        off = rng.uniform(0.2, 14.8)
        t = scrape_times(off)
        n = len(t)
        sv = in_save(t)
        rate = step_rate_factor(t)
        inst = f"{IPS[hi]}:9100"
        base = {"instance": inst, "job": "node-exporter"}
        boot = BOOT[hi]
        add(t, "up", np.ones(n), base)
        add(t, "node_boot_time_seconds", np.full(n, round(boot, 0)), base)
        add(t, "node_uname_info", np.ones(n), dict(base, nodename=h, release="5.15.0-125-generic",
                                                  version="#135-Ubuntu SMP Fri Sep 27 13:53:58 UTC 2024",
                                                  machine="x86_64", sysname="Linux", domainname="(none)"))
        add(t, "node_load1", np.round(np.clip(rng.normal(21.5, 1.8, n) - sv * 6, 0, None), 2), base)
        memtot = 2164180000768.0
        memav = 1.612e12 + rng.normal(0, 2e9) + np.cumsum(rng.normal(0, 4e7, n)) - sv * 3.1e10
        add(t, "node_memory_MemTotal_bytes", np.full(n, memtot), base)
        add(t, "node_memory_MemAvailable_bytes", np.round(memav), base)
        for kind, r in (("cpu", 0.0021), ("io", 0.0004), ("memory", 0.0)):
            c0 = rng.uniform(1e3, 5e4)
            add(t, f"node_pressure_{kind}_waiting_seconds_total",
                np.round(c0 + np.cumsum(np.abs(rng.normal(r, r / 3 + 1e-9, n)) * SCRAPE), 6), base)
        # InfiniBand compute rails mlx5_0..7 (one per GPU; GPUDirect RDMA)
        for p in range(8):
            lab = dict(base, device=f"mlx5_{p}", port="1")
            b_rx = rng.uniform(2e14, 9e14)
            b_tx = b_rx * rng.uniform(0.98, 1.02)
            r_rx = np.where(sv, 2e6, rng.normal(7.65e8, 4.5e7, n) * rate)
            r_tx = np.where(sv, 2e6, rng.normal(7.63e8, 4.5e7, n) * rate)
            add(t, "node_infiniband_port_data_received_bytes_total", np.round(b_rx + np.cumsum(r_rx * SCRAPE)), lab)
            add(t, "node_infiniband_port_data_transmitted_bytes_total", np.round(b_tx + np.cumsum(r_tx * SCRAPE)), lab)
            add(t, "node_infiniband_link_downed_total", np.full(n, float(rng.choice([0, 0, 0, 1]))), lab)
            add(t, "node_infiniband_link_error_recovery_total", np.zeros(n), lab)
            add(t, "node_infiniband_port_errors_received_total", np.zeros(n), lab)
            w0 = rng.uniform(1e9, 8e9)
            add(t, "node_infiniband_port_transmit_wait_total",
                np.round(w0 + np.cumsum(np.abs(rng.normal(1.9e5, 4e4, n)) * rate * SCRAPE)), lab)
        # front-end / storage ethernet (Lustre over bond0)
        lab = dict(base, device="bond0")
        rx = np.where(sv, rng.normal(3.5e6, 5e5, n), rng.normal(4.1e7, 6e6, n) * rate)
        tx = np.where(sv, rng.normal(7.2e8, 4e7, n), rng.normal(2.4e6, 4e5, n))
        add(t, "node_network_receive_bytes_total", np.round(rng.uniform(1e13, 4e13) + np.cumsum(np.abs(rx) * SCRAPE)), lab)
        add(t, "node_network_transmit_bytes_total", np.round(rng.uniform(1e13, 4e13) + np.cumsum(np.abs(tx) * SCRAPE)), lab)
        add(t, "node_network_receive_errs_total", np.zeros(n), lab)
        # OS disk
        lab = dict(base, device="nvme0n1")
        add(t, "node_disk_read_bytes_total", np.round(rng.uniform(5e10, 2e11) + np.cumsum(np.abs(rng.normal(2e4, 2e4, n)) * SCRAPE)), lab)
        add(t, "node_disk_written_bytes_total", np.round(rng.uniform(5e11, 2e12) + np.cumsum(np.abs(rng.normal(6.1e5, 2e5, n)) * SCRAPE)), lab)
        add(t, "node_disk_io_time_seconds_total", np.round(rng.uniform(1e4, 6e4) + np.cumsum(np.abs(rng.normal(0.004, 0.002, n)) * SCRAPE), 3), lab)
        for mp, dev, fs, size, used in (("/", "/dev/md0", "ext4", 1.89e12, 0.31), ("/raid", "/dev/md1", "ext4", 2.75e13, 0.12)):
            lab = dict(base, device=dev, mountpoint=mp, fstype=fs)
            av = size * (1 - used - rng.uniform(0, 0.05)) - np.cumsum(np.abs(rng.normal(3e3, 1e3, n)))
            add(t, "node_filesystem_avail_bytes", np.round(av / 4096) * 4096, lab)
    return cols


def write_parquet(cols, path, names):
    arrays = []
    for c in names:
        if c == "timestamp":
            tms = (np.concatenate(cols[c]) * 1000).round().astype("int64")
            arrays.append(pa.array(tms, type=pa.timestamp("ms", tz="UTC")))
        elif c == "value":
            arrays.append(pa.array(np.concatenate(cols[c]), type=pa.float64()))
        else:
            arrays.append(pa.array(np.concatenate(cols[c]), type=pa.string()))
    tab = pa.Table.from_arrays(arrays, names=names)
    idx = pc.sort_indices(tab, sort_keys=[("metric", "ascending"), ("timestamp", "ascending")])
    tab = tab.take(idx)
    pq.write_table(tab, path, compression="zstd", row_group_size=250_000)
    return tab.num_rows


# ======================================================================================
# logs
# ======================================================================================
MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def syslog_ts(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{MON[d.month - 1]} {d.day:2d} {d:%H:%M:%S}"


def gen_syslog(hi, h):
    lines = []   # (t, text)
    day0 = ts(dt.datetime(2025, 11, 18, 0, 0, 0, tzinfo=UTC))
    end = ts(LOG_END)
    pid0 = int(rng.integers(3_100_000, 3_200_000))

    def npid(t):
        # pids grow with time (~0.4 new processes per second)
        return pid0 + int((t - day0) * 0.37) + int(rng.integers(0, 9))

    def L(t, prog, msg):
        lines.append((t, f"{syslog_ts(t)} {h} {prog}: {msg}"))

    boot_pids = {"rsyslogd": 1311, "systemd-journald": int(rng.integers(700, 900)),
                 "chronyd": int(rng.integers(1300, 1500)), "snapd": int(rng.integers(1500, 1700)),
                 "slurmd": int(rng.integers(2200, 2600)), "systemd-logind": int(rng.integers(1400, 1500))}
    t = day0 + rng.uniform(0.5, 2.5)
    L(t, f"rsyslogd", '[origin software="rsyslogd" swVersion="8.2112.0" x-pid="%d" x-info="https://www.rsyslog.com"] rsyslogd was HUPed' % boot_pids["rsyslogd"])
    L(t + 0.4, "systemd[1]", "logrotate.service: Deactivated successfully.")
    L(t + 0.4, "systemd[1]", "Finished Rotate log files.")
    # every minute: the node_exporter textfile collector via cron
    m = math.ceil(day0 / 60) * 60
    while m < end:
        tt = m + rng.uniform(0.01, 0.4)
        p = npid(tt)
        L(tt, f"CRON[{p}]", "(root) CMD (/usr/local/sbin/nvme-textfile.sh > /var/lib/prometheus/node-exporter/nvme.prom.$$ && mv /var/lib/prometheus/node-exporter/nvme.prom.$$ /var/lib/prometheus/node-exporter/nvme.prom)")
        d = dt.datetime.fromtimestamp(m, UTC)
        if d.minute == 17:
            L(tt + 0.01, f"CRON[{npid(tt) + 2}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
        if d.minute % 10 == 0:
            t2 = m + rng.uniform(0.0, 1.2)
            L(t2, "systemd[1]", "Starting system activity accounting tool...")
            L(t2 + 0.03, "systemd[1]", "sysstat-collect.service: Deactivated successfully.")
            L(t2 + 0.03, "systemd[1]", "Finished system activity accounting tool.")
        if d.minute % 5 == 0:
            # the site GPU power policy timer (RandomizedDelaySec=60)
            delay = rng.uniform(1, 59)
            if abs(m - TPOL) < 1:
                delay = CAP_T[hi] - m - 0.45
            t3 = m + delay
            L(t3, "systemd[1]", "Starting Apply site GPU power policy...")
            if abs(m - TPOL) < 1:
                pp = npid(CAP_T[hi])
                for g in range(8):
                    L(CAP_T[hi] + 0.05 * g, f"gpu-power-policy[{pp}]",
                      f"Power limit for GPU 00000000:{PCI[g]}:00.0 was set to 500.00 W from 700.00 W.")
                L(CAP_T[hi] + 0.42, f"gpu-power-policy[{pp}]", "All done.")
                t3 = CAP_T[hi] + 0.43
            L(t3 + 0.38, "systemd[1]", "gpu-power-policy.service: Deactivated successfully.")
            L(t3 + 0.38, "systemd[1]", "Finished Apply site GPU power policy.")
        m += 60
    # chrony, snapd, journald, kernel noise
    for k in range(int(rng.integers(3, 6))):
        tt = rng.uniform(day0, end)
        L(tt, f"chronyd[{boot_pids['chronyd']}]", rng.choice([
            "Selected source 10.42.0.2 (ntp1.b2.cluster.local)",
            "Source 10.42.0.3 replaced with 10.42.0.4 (ntp3.b2.cluster.local)",
            "Selected source 10.42.0.3 (ntp2.b2.cluster.local)"]))
    for k in range(2):
        tt = rng.uniform(day0, end)
        L(tt, f"snapd[{boot_pids['snapd']}]", "storehelpers.go:769: cannot refresh: snap has no updates available: \"core20\", \"lxd\", \"snapd\"")
        L(tt + 0.2, "systemd[1]", "snapd.service: Deactivated successfully.") if rng.random() < 0.3 else None
    if rng.random() < 0.45:
        tt = rng.uniform(day0, end)
        a = int(rng.integers(2501, 3300))
        L(tt, "kernel", f"[{tt - BOOT[hi]:12.6f}] perf: interrupt took too long ({a} > {a - int(rng.integers(5, 40))}), lowering kernel.perf_event_max_sample_rate to {int(rng.choice([63000, 79750, 50000]))}")
    tt = rng.uniform(day0 + 3600, end)
    L(tt, f"systemd-journald[{boot_pids['systemd-journald']}]",
      f"Data hash table of /var/log/journal/{hashlib.md5(h.encode()).hexdigest()}/system.journal has a fill level at 75.0 (174763 of 233016 items, 134217728 file size, 767 bytes per hash table item), suggesting rotation.")
    L(tt, f"systemd-journald[{boot_pids['systemd-journald']}]",
      f"/var/log/journal/{hashlib.md5(h.encode()).hexdigest()}/system.journal: Journal header limits reached or header out-of-date, rotating.")
    # job launch (07:12) on every node
    js = ts(JOB_START) + rng.uniform(0.3, 1.5)
    if hi == 0:
        L(js - 0.2, f"slurmd[{boot_pids['slurmd']}]", "slurmd: Launching batch job 881342 for UID 20417")
    L(js + 1.3, f"slurmd[{boot_pids['slurmd']}]",
      f"slurmd: launch task StepId=881342.0 request from UID:20417 GID:20417 HOST:10.42.2.21 PORT:{int(rng.integers(40000, 60000))}")
    # an admin's monitoring ssh login now and then (ansible facts)
    for k in range(int(rng.integers(1, 3))):
        tt = rng.uniform(day0 + 3600, end)
        sp = npid(tt)
        port = int(rng.integers(33000, 61000))
        sess = int(rng.integers(30000, 39000))
        L(tt, f"sshd[{sp}]", f"Accepted publickey for svc-ansible from 10.42.0.9 port {port} ssh2: ED25519 SHA256:q4m0xVbQ2v9yF3h1T1kR7dD0pYc8aW5nE6sLzJ2oUuA")
        L(tt + 0.02, f"sshd[{sp}]", "pam_unix(sshd:session): session opened for user svc-ansible(uid=1101) by (uid=0)")
        L(tt + 0.03, f"systemd-logind[{boot_pids['systemd-logind']}]", f"New session {sess} of user svc-ansible.")
        L(tt + 0.05, "systemd[1]", f"Started Session {sess} of User svc-ansible.")
        t2 = tt + rng.uniform(4, 11)
        L(t2, f"sshd[{sp}]", f"Received disconnect from 10.42.0.9 port {port}:11: disconnected by user")
        L(t2, f"sshd[{sp}]", f"Disconnected from user svc-ansible 10.42.0.9 port {port}")
        L(t2 + 0.01, f"sshd[{sp}]", "pam_unix(sshd:session): session closed for user svc-ansible")
        L(t2 + 0.02, "systemd[1]", f"session-{sess}.scope: Deactivated successfully.")
        L(t2 + 0.02, f"systemd-logind[{boot_pids['systemd-logind']}]", f"Session {sess} logged out. Waiting for processes to exit.")
        L(t2 + 0.03, f"systemd-logind[{boot_pids['systemd-logind']}]", f"Removed session {sess}.")
    lines.sort(key=lambda x: x[0])
    return "\n".join(x[1] for x in lines) + "\n"


def fmt_dt(t):
    return dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def gen_trainer():
    W = 3  # srun --label width for 192 tasks
    out = []

    def P(rank, text):
        for ln in text.split("\n"):
            out.append(f"{rank:>{W}}: {ln}")

    last = WORLD - 1
    P(0, "using world size: 192, data-parallel size: 12, context-parallel size: 1, hierarchical context-parallel sizes: Nonetensor-model-parallel size: 8, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 2, encoder-pipeline-model-parallel size: 0")
    P(0, "Number of virtual stages per pipeline stage: None")
    P(0, "using torch.bfloat16 for parameters ...")
    P(0, "------------------------ arguments ------------------------")
    args = [
        ("accumulate_allreduce_grads_in_fp32", "True"), ("adam_beta1", "0.9"), ("adam_beta2", "0.95"),
        ("adam_eps", "1e-08"), ("attention_dropout", "0.0"), ("attention_softmax_in_fp32", "False"),
        ("bf16", "True"), ("ckpt_format", "torch_dist"), ("clip_grad", "1.0"),
        ("data_parallel_size", "12"), ("data_path", "['/lustre/b2/datasets/mix-v7/text_document']"),
        ("distributed_backend", "nccl"), ("eval_interval", "2000"), ("eval_iters", "0"),
        ("ffn_hidden_size", "22016"), ("global_batch_size", "1536"), ("group_query_attention", "True"),
        ("hidden_dropout", "0.0"), ("hidden_size", "8192"), ("init_method_std", "0.008"),
        ("load", "/lustre/b2/ckpt/ml34b-v7"), ("log_interval", "1"), ("log_throughput", "True"),
        ("lr", "0.0003"), ("lr_decay_style", "cosine"), ("lr_warmup_iters", "2000"),
        ("max_position_embeddings", "4096"), ("micro_batch_size", "1"), ("min_lr", "3e-05"),
        ("normalization", "RMSNorm"), ("num_attention_heads", "64"), ("num_layers", "48"),
        ("num_query_groups", "8"), ("overlap_grad_reduce", "True"), ("overlap_param_gather", "True"),
        ("pipeline_model_parallel_size", "2"), ("position_embedding_type", "rope"),
        ("rank", "0"), ("save", "/lustre/b2/ckpt/ml34b-v7"), ("save_interval", "500"),
        ("seed", "1234"), ("seq_length", "4096"), ("sequence_parallel", "True"),
        ("swiglu", "True"), ("tensor_model_parallel_size", "8"), ("timing_log_level", "0"),
        ("tokenizer_type", "HuggingFaceTokenizer"), ("train_iters", "120000"),
        ("transformer_impl", "transformer_engine"), ("untie_embeddings_and_output_weights", "True"),
        ("use_distributed_optimizer", "True"), ("use_flash_attn", "True"), ("weight_decay", "0.1"),
        ("world_size", "192"),
    ]
    for k, v in args:
        P(0, f"  {k} {'.' * max(1, 47 - len(k))} {v}")
    P(0, "-------------------- end of arguments ---------------------")
    P(0, "> building HuggingFaceTokenizer tokenizer ...")
    P(0, " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)")
    P(0, "> initializing torch distributed ...")
    P(0, "> initialized tensor model parallel with size 8")
    P(0, "> initialized pipeline model parallel with size 2")
    P(0, "> setting random seeds to 1234 ...")
    P(0, "> compiling dataset index builder ...")
    P(0, ">>> done with dataset index builder. Compilation time: 0.087 seconds")
    P(0, f"time to initialize megatron (seconds): 41.822")
    P(0, f"[after megatron is initialized] datetime: {fmt_dt(ts(JOB_START) + 118)} ")
    P(0, "building GPT model ...")
    P(0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 2194341888")
    P(last, " > number of parameters on (tensor, pipeline) model parallel rank (7, 1): 2177171456")
    P(0, f" loading distributed checkpoint from /lustre/b2/ckpt/ml34b-v7 at iteration {START_ITER}")
    P(0, f"  successfully loaded checkpoint from /lustre/b2/ckpt/ml34b-v7 [ t 1/8, p 1/2 ] at iteration {START_ITER}")
    P(0, "(min, max) time across ranks (ms):")
    P(0, f"    load-checkpoint ................................: (201411.27, 201412.90)")
    P(0, f"[after model, optimizer, and learning rate scheduler are built] datetime: {fmt_dt(ts(TRAIN_START) - 61)} ")
    P(0, "> building train, validation, and test datasets ...")
    P(0, " > datasets target sizes (minimum size):")
    P(0, "    train:      184320000")
    P(0, "> finished creating GPT datasets ...")
    P(0, f"[after dataloaders are built] datetime: {fmt_dt(ts(TRAIN_START) - 3)} ")
    P(0, "done with setup ...")
    P(0, "(min, max) time across ranks (ms):")
    P(0, "    model-and-optimizer-setup ......................: (239408.11, 239437.45)")
    P(0, "    train/valid/test-data-iterators-setup ..........: (56921.40, 57188.02)")
    P(0, "training ...")
    P(0, f"[before the start of training step] datetime: {fmt_dt(ts(TRAIN_START))} ")
    loss = 1.962
    for it, tend, el, saved in ITERS:
        lr = 3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + math.cos(math.pi * (it - 2000) / 118000))
        loss = loss - 2.2e-6 + rng.normal(0, 0.0)
        lm = loss + rng.normal(0, 0.021)
        gn = abs(rng.normal(0.231, 0.022))
        tflops = 452.3 * ITER_PRE / el
        P(last, f" [{fmt_dt(tend)}] iteration {it:8d}/  120000 | consumed samples: {it * GBS:12d} | "
                f"elapsed time per iteration (ms): {el * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
                f"learning rate: {lr:.6E} | global batch size: {GBS:5d} | lm loss: {lm:.6E} | loss scale: 1.0 | "
                f"grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        fb = el * 1000 - rng.normal(402, 6)
        P(last, "(min, max) time across ranks (ms):")
        P(last, f"    forward-backward ...............................: ({fb - rng.uniform(3, 12):.2f}, {fb:.2f})")
        op = rng.normal(398, 5)
        P(last, f"    optimizer ......................................: ({op - rng.uniform(0.5, 3):.2f}, {op:.2f})")
        if saved:
            a, b = saved
            P(0, f"saving checkpoint at iteration {it:7d} to /lustre/b2/ckpt/ml34b-v7 in torch_dist format")
            P(0, f"  successfully saved checkpoint from iteration {it:7d} to /lustre/b2/ckpt/ml34b-v7 [ t 1/8, p 1/2 ]")
            P(0, "(min, max) time across ranks (ms):")
            P(0, f"    save-checkpoint ................................: ({(b - a) * 1000 - rng.uniform(5, 40):.2f}, {(b - a) * 1000:.2f})")
    return "\n".join(out) + "\n"


# ======================================================================================
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))

    nd = write_parquet(gen_dcgm(), os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), DCGM_COLS)
    nn = write_parquet(gen_node(), os.path.join(OUT, "metrics", "node-exporter.parquet"), NODE_COLS)

    for hi, h in enumerate(HOSTS):
        os.makedirs(os.path.join(OUT, "logs", h))
        text = gen_syslog(hi, h)
        with open(os.path.join(OUT, "logs", h, "syslog"), "w") as f:
            f.write(text)
        # /var/log/kern.log: the kernel's lines of the same day (rsyslog kern.* rule)
        with open(os.path.join(OUT, "logs", h, "kern.log"), "w") as f:
            f.write("".join(ln + "\n" for ln in text.splitlines() if f" {h} kernel: " in ln))
    with open(os.path.join(OUT, "logs", "slurm-881342.out"), "w") as f:
        f.write(gen_trainer())

    incident = {
        "id": ID,
        "title": "ml34b-v7 pretraining (job 881342) ~11% slower on all 24 nodes from late morning",
        "window": {"start": W0.isoformat(), "end": W1.isoformat()},
        "baseline": {"start": W0.isoformat(), "end": BASE1.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "b2-h100", "nodes": NH, "gpus_per_node": 8, "gpu_model": "H100"},
        "trainer": {"seq_length": SEQ, "global_batch_size": GBS, "gpus": WORLD},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)

    pre = [el for (it, te, el, s) in ITERS if ts(W0) <= te < ONSET - 20 and el < 30]
    post = [el for (it, te, el, s) in ITERS if ONSET + 60 <= te < ts(W1) and el < 30]
    loss_pct = round(100 * (1 - np.median(pre) / np.median(post)), 1)
    onset_s = dt.datetime.fromtimestamp(ONSET, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    first_host = HOSTS[int(np.argmin(CAP_T))]
    last_t = dt.datetime.fromtimestamp(float(CAP_T.max()), UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    truth = {
        "id": ID,
        "cause": ("A facility-wide power cap: at 11:35 UTC the site's power controller lowered the GPU "
                  "budget and every node's gpu-power-policy service ran `nvidia-smi -pl 500` within the "
                  "next minute, so all 192 H100s went from a 700 W to a 500 W enforced power limit, ran "
                  "pinned at the SW power cap at ~1.45 GHz instead of ~1.95 GHz SM clock, and the synchronous "
                  "job slowed by ~11% on every host at once."),
        "cause_metrics": ["DCGM_FI_DEV_ENFORCED_POWER_LIMIT", "DCGM_FI_DEV_POWER_MGMT_LIMIT",
                          "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "DCGM_FI_DEV_POWER_VIOLATION",
                          "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_POWER_USAGE"],
        "cause_metrics_note": ("Enforced and management power limit 700 -> 500 W on all 192 GPUs between "
                               f"{onset_s} and {last_t}; clock-event reasons = 4 (SW power cap) in ~93% of samples "
                               "after (vs ~12% before); power violation counter rises ~0.93 s/s; SM clock "
                               "~1960 -> ~1500 MHz mean (~1450 MHz in the capped samples); power ~636 -> ~490 W; GPU temperature falls ~8-9 C and "
                               "memory temperature ~10 C (an effect); tensor-pipe activity per cycle rises "
                               "(same work over fewer cycles); IB, NVLink and PCIe byte rates fall ~11% (an effect). "
                               "GPU utilisation stays ~100% throughout."),
        "cause_log_evidence": [
            {"file": f"logs/<each host>/syslog (first: logs/{first_host}/syslog)",
             "text": "gpu-power-policy[PID]: Power limit for GPU 00000000:18:00.0 was set to 500.00 W from 700.00 W.  "
                     "(one per GPU: 18, 2A, 3A, 5D, 9A, AB, BA, DB) then 'All done.'",
             "source": ("nvidia-smi -pl output. '... was set to 500.00 W from 700.00 W' on an H100 is verbatim in a "
                        "committed GitHub report (find_string index id 70422398662: 'nvidia-smi -i 0 -pl 500 ... "
                        "Power limit for GPU 00000000:07:00.0 was set to 500.00 W from 700.00 W') and in a "
                        "committed lesson file (id 62068331289, 'Power limit for GPU 00000000:9D:00.0 was set to "
                        "500.00 W from 700.00 W.'); the per-GPU lines of a multi-GPU `nvidia-smi -pl` followed by "
                        "'All done.' are as in h2oai/h2ogpt docs/FAQ.md (commit 553ddd3f57231db58bd3acc38afa0daa9e0dc0a8, "
                        "'Throttle GPUs in case of reset/reboot': 'Power limit for GPU 00000000:3B:00.0 was set to "
                        "250.00 W from 300.00 W.' x4, 'All done.')."),
             "adapted": ["PCI address (one line per GPU)", "syslog timestamp/host/ident prefix (the service's stdout in the journal)"]},
        ],
        "supporting_lines_not_copied": ("The systemd Starting/Deactivated/Finished lines of the 5-minute "
                                        "gpu-power-policy timer (which prints nothing when the budget does not "
                                        "change), cron, sysstat, chrony, snapd, journald, slurmd, sshd/logind lines "
                                        "and the Megatron-LM output (argument dump, iteration and timer lines, "
                                        "checkpoint saves) are written in those programs' formats for this incident; "
                                        "they are context, not fault evidence. No kernel line explains the slowdown."),
        "hosts": [],
        "gpu": None,
        "onset": onset_s,
        "onset_note": (f"First host capped ({first_host}); all 24 capped by {last_t}. The job slows from the first "
                       "capped host's next iteration (a synchronous step is as slow as its slowest rank)."),
        "job_throughput_loss_pct": float(loss_pct),
        "job_throughput_loss_note": (f"Megatron iteration time {np.median(pre):.2f} s -> {np.median(post):.2f} s "
                                     f"(median), tokens/s {GBS * SEQ / np.median(pre):,.0f} -> "
                                     f"{GBS * SEQ / np.median(post):,.0f}; TFLOP/s/GPU ~452 -> ~401. Persists to the "
                                     "end of the window (the cap was not lifted). Checkpoint saves every 500 "
                                     "iterations (~28 s, GPUs idle) are normal and not part of the incident."),
        "timeline": {
            "job 881342 started": JOB_START.isoformat(),
            "site controller lowers GPU budget": POLICY.isoformat(),
            "first host capped": onset_s,
            "last host capped": last_t,
            "checkpoint saves (iteration end, save end)": [
                [dt.datetime.fromtimestamp(a, UTC).isoformat(timespec="seconds"),
                 dt.datetime.fromtimestamp(b, UTC).isoformat(timespec="seconds")] for a, b in SAVES],
        },
        "what_a_good_postmortem_says": (
            "From ~11:35 UTC job 881342 ran ~11% slower (16.1 s -> 18.2 s per iteration) on all 24 nodes at once; "
            "no host, GPU or link was faulty. DCGM shows every GPU's enforced power limit dropping from 700 W to "
            "500 W within one minute, the SW-power-cap clock-event reason becoming almost permanent and SM clocks "
            "falling to ~1.45 GHz, and each node's syslog shows the site's gpu-power-policy service running "
            "`nvidia-smi -pl 500` at that moment - a deliberate facility power cap, not a hardware fault. The fix is "
            "with facilities/power management (restore 700 W or schedule around the budget) and an alert when the "
            "enforced power limit differs from the default, so a cap is announced rather than discovered as a slowdown."),
        "layout": {"metrics": "Parquet by exporter, long format, raw 15 s scrape timestamps, Prometheus labels as columns "
                              "(DCGM host = Hostname; node_exporter host via instance IP + node_uname_info nodename)",
                   "logs": "logs/<host>/syslog and logs/<host>/kern.log (rsyslog traditional, UTC) and logs/slurm-881342.out (srun --label, Megatron-LM)",
                   "rows": {"dcgm-exporter.parquet": nd, "node-exporter.parquet": nn}},
        "seed": SEED,
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)
    print("wrote", OUT, nd, nn, "loss", loss_pct, "onset", onset_s)


if __name__ == "__main__":
    main()
