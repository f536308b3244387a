#!/usr/bin/env python3
"""Incident 1 (control): dcgm-exporter crash-looped on three Kubernetes GPU nodes for
~40 minutes after a DaemonSet rollout; the training job was never affected.

Layout written (one Parquet per exporter job, long format, Prometheus label names):
  metrics/dcgm-exporter.parquet   DCGM_* samples + up{job="nvidia-dcgm-exporter"}
  metrics/node-exporter.parquet   node_* samples + up{job="node-exporter"}
  logs/<host>/journal.log         journalctl -o short-iso, every host
  logs/<host>/nvidia-dcgm-exporter.log   kubectl logs --timestamps (3 affected hosts)
  logs/llama3-70b-pretrain-worker-23.log Megatron-LM output of the last rank's pod

Fixed seed: running it twice gives byte-identical files.
"""
import datetime as dt
import os
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250603
rng = np.random.default_rng(SEED)

ID = "dcgm-exporter-rollout-gap"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = dt.timezone.utc

W_START = dt.datetime(2025, 6, 3, 9, 0, 0, tzinfo=UTC)
W_END = dt.datetime(2025, 6, 3, 13, 0, 0, tzinfo=UTC)
SCRAPE = 30.0
N_HOSTS = 24
HOSTS = [f"hgx-a2-{i:02d}" for i in range(1, N_HOSTS + 1)]
GAP_HOSTS = ["hgx-a2-04", "hgx-a2-13", "hgx-a2-19"]
# rollout of dcgm-exporter 4.8.4 (maxUnavailable: 3) and rollback to 4.3.1-4.4.1
T_OLD_POD_DELETED = dt.datetime(2025, 6, 3, 10, 46, 52, tzinfo=UTC)
T_NEW_POD_START = dt.datetime(2025, 6, 3, 10, 46, 58, tzinfo=UTC)
T_ROLLBACK = dt.datetime(2025, 6, 3, 11, 26, 41, tzinfo=UTC)
T_RECOVERED_READY = T_ROLLBACK + dt.timedelta(seconds=3)

MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "570.172.08"
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
IB_DEVS = [f"mlx5_{i}" for i in range(8)]


def ts(t):
    return t.timestamp()


def uuid_for(h, g):
    r = np.random.default_rng(SEED + 7919 + HOSTS.index(h) * 8 + g)
    b = r.integers(0, 256, 16)
    s = "".join(f"{x:02x}" for x in b)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}"


def pod_suffix(r):
    alphabet = "bcdfghjklmnpqrstvwxz2456789"
    return "".join(alphabet[i] for i in r.integers(0, len(alphabet), 5))


# ---------------------------------------------------------------------------
# The job: Megatron-LM, Llama-3-70B-like, TP8 PP4 DP6 on 24x8 H100, GBS 192 x 8192.
# Steady pace; one checkpoint save at iteration 42000.
# ---------------------------------------------------------------------------
STEP_S = 9.214
LOG_INT = 5
ITER0 = 40500
T_RESUME = dt.datetime(2025, 6, 3, 6, 37, 21, 412000, tzinfo=UTC)
SAVE_ITER = 42000
SAVE_MS = 48214.6


def build_schedule():
    """Return list of (iteration, end_time, interval_ms) and checkpoint interval."""
    t = T_RESUME
    out = []
    ckpt = None
    it = ITER0
    # slow drift + AR(1) noise in step time (ordinary jitter, < 1 %)
    ar = 0.0
    while t < W_END + dt.timedelta(minutes=3):
        ar = 0.6 * ar + rng.normal(0, 0.0032)
        st = STEP_S * (1 + ar + 0.0015 * np.sin(it / 310.0))
        interval = st * LOG_INT
        t = t + dt.timedelta(seconds=interval)
        it += LOG_INT
        out.append((it, t, interval * 1000.0 / LOG_INT))
        if it == SAVE_ITER:
            ckpt = (t, t + dt.timedelta(milliseconds=SAVE_MS + 1900))
            t = ckpt[1]
    return out, ckpt


SCHED, CKPT = build_schedule()


def busy_factor(t):
    """1 while training, ~0 during the checkpoint save (all GPUs wait on storage)."""
    if CKPT[0] <= t <= CKPT[1]:
        return 0.0
    return 1.0


# ---------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------
def scrape_times(offset):
    n = int((W_END - W_START).total_seconds() // SCRAPE)
    base = ts(W_START) + offset
    j = rng.normal(0, 0.004, n)  # scrape jitter in seconds
    return np.round(base + np.arange(n) * SCRAPE + j, 3)


class Cols:
    def __init__(self, label_names):
        self.label_names = label_names
        self.t, self.m, self.v = [], [], []
        self.labels = {k: [] for k in label_names}

    def add(self, times, metric, values, **labels):
        n = len(times)
        self.t.append(np.asarray(times, dtype="float64"))
        self.m.extend([metric] * n)
        self.v.append(np.asarray(values, dtype="float64"))
        for k in self.label_names:
            self.labels[k].extend([labels.get(k)] * n)

    def table(self):
        t = np.concatenate(self.t)
        v = np.concatenate(self.v)
        arrays = {
            "timestamp": pa.array((t * 1000).astype("int64"), type=pa.timestamp("ms", tz="UTC")),
            "metric": pa.array(self.m, type=pa.string()),
            "value": pa.array(v, type=pa.float64()),
        }
        for k in self.label_names:
            arrays[k] = pa.array(self.labels[k], type=pa.string())
        tab = pa.table(arrays)
        idx = np.lexsort((t, np.array(self.m)))
        return tab.take(pa.array(idx))


def write_parquet(tab, path):
    # one row group per metric, rows sorted by time within it
    metrics = tab.column("metric").to_numpy(zero_copy_only=False)
    writer = pq.ParquetWriter(path, tab.schema, compression="zstd")
    start = 0
    n = len(metrics)
    while start < n:
        end = start
        while end < n and metrics[end] == metrics[start]:
            end += 1
        writer.write_table(tab.slice(start, end - start))
        start = end
    writer.close()


def gen_dcgm():
    labels = ["Hostname", "gpu", "UUID", "pci_bus_id", "device", "modelName",
              "DCGM_FI_DRIVER_VERSION", "exported_container", "exported_namespace",
              "exported_pod", "instance", "job", "namespace", "pod", "service", "endpoint"]
    c = Cols(labels)
    prng = np.random.default_rng(SEED + 1)
    for hi, h in enumerate(HOSTS):
        offset = prng.uniform(0.3, 29.5)
        times = scrape_times(offset)
        # exporter pods (old one, crash-looping new one, post-rollback one)
        ip_old = f"10.233.{64 + hi}.{prng.integers(2, 250)}"
        ip_bad = f"10.233.{64 + hi}.{prng.integers(2, 250)}"
        ip_new = f"10.233.{64 + hi}.{prng.integers(2, 250)}"
        pod_old = f"nvidia-dcgm-exporter-{pod_suffix(prng)}"
        pod_bad = f"nvidia-dcgm-exporter-{pod_suffix(prng)}"
        pod_new = f"nvidia-dcgm-exporter-{pod_suffix(prng)}"
        if h in GAP_HOSTS:
            seg_old = times < ts(T_OLD_POD_DELETED)
            seg_bad = (times >= ts(T_NEW_POD_START) + 1) & (times < ts(T_ROLLBACK))
            seg_new = times >= ts(T_RECOVERED_READY) + 2
            GAP_INFO[h] = dict(ip_old=ip_old, ip_bad=ip_bad, ip_new=ip_new,
                               pod_old=pod_old, pod_bad=pod_bad, pod_new=pod_new,
                               last_ok=float(times[seg_old][-1]), first_ok=float(times[seg_new][0]))
        else:
            seg_old = np.ones(len(times), bool)
            seg_bad = np.zeros(len(times), bool)
            seg_new = np.zeros(len(times), bool)
        tgt = dict(job="nvidia-dcgm-exporter", namespace="gpu-operator",
                   service="nvidia-dcgm-exporter", endpoint="gpu-metrics")
        # Prometheus' own up series for the dcgm-exporter targets
        for seg, ip, pod, val in ((seg_old, ip_old, pod_old, 1.0), (seg_bad, ip_bad, pod_bad, 0.0),
                                  (seg_new, ip_new, pod_new, 1.0)):
            if seg.any():
                c.add(times[seg], "up", np.full(seg.sum(), val), instance=f"{ip}:9400", pod=pod, **tgt)
        ok = seg_old | seg_new
        tt = times[ok]
        inst = np.where(seg_old[ok], f"{ip_old}:9400", f"{ip_new}:9400")
        podn = np.where(seg_old[ok], pod_old, pod_new)
        busy = np.array([busy_factor(dt.datetime.fromtimestamp(x, UTC)) for x in tt])
        # smooth the checkpoint idle a little (30 s samples straddle it)
        host_temp = prng.normal(0, 2.0)
        host_pow = prng.normal(0, 8.0)
        for g in range(8):
            lab = dict(Hostname=h, gpu=str(g), UUID=uuid_for(h, g), pci_bus_id=PCI[g],
                       device=f"nvidia{g}", modelName=MODEL, DCGM_FI_DRIVER_VERSION=DRIVER,
                       exported_container="pytorch", exported_namespace="llm",
                       exported_pod=f"llama3-70b-pretrain-worker-{hi}", **tgt)
            n = len(tt)
            gpu_off = prng.normal(0, 1.2)
            pw_off = prng.normal(0, 9.0)
            # power: ~640 W busy, falls to ~115 W during the checkpoint wait
            ar = np.zeros(n)
            e = prng.normal(0, 1, n)
            for i in range(1, n):
                ar[i] = 0.7 * ar[i - 1] + e[i]
            power = np.where(busy > 0, 642 + host_pow + pw_off + 11 * ar, 118 + prng.normal(0, 6, n))
            power = np.clip(power, 70, 700)
            util = np.where(busy > 0, np.clip(np.round(99.3 + prng.normal(0, 0.8, n)), 90, 100),
                            np.round(np.clip(prng.normal(3, 3, n), 0, 15)))
            gtemp = np.round(np.where(busy > 0, 61 + host_temp + gpu_off + 0.012 * (power - 640) + prng.normal(0, 0.5, n),
                                      52 + host_temp + gpu_off + prng.normal(0, 0.6, n)))
            mtemp = np.round(gtemp + 6 + prng.normal(0, 0.4, n))
            sm = np.where(busy > 0, np.clip(np.round(1980 - 0.9 * np.maximum(power - 640, 0) + prng.normal(0, 8, n), 0), 1755, 1980), 1980)
            sm = (np.round(sm / 15) * 15).astype(float)
            memclk = np.full(n, 2619.0)
            fb_used = np.full(n, 76213.0 + (hi % 3) * 128 + g * 2) + np.round(prng.normal(0, 1, n)) * 2
            fb_free = 81559.0 - fb_used - 573.0
            gr = np.where(busy > 0, np.clip(0.962 + prng.normal(0, 0.006, n), 0.90, 0.995), np.clip(prng.normal(0.02, 0.01, n), 0, 0.08))
            tens = np.where(busy > 0, np.clip(0.487 + 0.01 * gpu_off + prng.normal(0, 0.01, n), 0.4, 0.6), 0.0)
            dram = np.where(busy > 0, np.clip(0.412 + prng.normal(0, 0.012, n), 0.3, 0.55), np.clip(prng.normal(0.01, 0.005, n), 0, 0.03))
            copy = np.where(busy > 0, np.round(np.clip(38 + prng.normal(0, 2.5, n), 25, 55)), 0.0)
            pcie_tx = np.where(busy > 0, np.abs(prng.normal(2.1e9, 3e8, n)), np.abs(prng.normal(3.4e9, 5e8, n)))
            pcie_rx = np.where(busy > 0, np.abs(prng.normal(1.6e9, 2.5e8, n)), np.abs(prng.normal(6.2e8, 1e8, n)))
            # counters: energy since boot (mJ), NVLink, PCIe replays (only rise, also across the gap)
            energy0 = prng.uniform(4.1e12, 4.6e12)
            energy = energy0 + np.cumsum(np.r_[0, np.diff(tt)] * power * 1000.0)
            nvl0 = prng.uniform(3e16, 5e16)
            nvl_rate = np.where(busy > 0, 2.9e11 + prng.normal(0, 6e9, n), 1.5e9)
            nvl = nvl0 + np.cumsum(np.r_[0, np.diff(tt)] * nvl_rate)
            replay0 = float(prng.choice([0, 0, 0, 1, 2, 7]))
            replay = replay0 + np.cumsum(prng.random(n) < 0.0004)
            per = [("DCGM_FI_DEV_POWER_USAGE", np.round(power, 3)), ("DCGM_FI_DEV_GPU_UTIL", util),
                   ("DCGM_FI_DEV_GPU_TEMP", gtemp), ("DCGM_FI_DEV_MEMORY_TEMP", mtemp),
                   ("DCGM_FI_DEV_SM_CLOCK", sm), ("DCGM_FI_DEV_MEM_CLOCK", memclk),
                   ("DCGM_FI_DEV_FB_USED", fb_used), ("DCGM_FI_DEV_FB_FREE", fb_free),
                   ("DCGM_FI_DEV_MEM_COPY_UTIL", copy), ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n)),
                   ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6)),
                   ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6)),
                   ("DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6)),
                   ("DCGM_FI_PROF_PCIE_TX_BYTES", np.round(pcie_tx)),
                   ("DCGM_FI_PROF_PCIE_RX_BYTES", np.round(pcie_rx)),
                   ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(energy)),
                   ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl)),
                   ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", replay)]
            for name, vals in per:
                # label columns vary per row for instance/pod -> add per segment
                for segmask, ip, pod in ((seg_old[ok], ip_old, pod_old), (seg_new[ok], ip_new, pod_new)):
                    if segmask.any():
                        c.add(tt[segmask], name, vals[segmask], instance=f"{ip}:9400", pod=pod, **lab)
    return c.table()


GAP_INFO = {}
NODE_INFO = {}


def gen_node():
    labels = ["instance", "job", "mode", "device", "port", "mountpoint", "fstype", "controller",
              "nodename", "domainname", "machine", "release", "sysname", "version"]
    c = Cols(labels)
    prng = np.random.default_rng(SEED + 2)
    ncpu = 224
    for hi, h in enumerate(HOSTS):
        ip = f"10.40.2.{101 + hi}"
        inst = f"{ip}:9100"
        NODE_INFO[h] = ip
        offset = prng.uniform(0.3, 29.5)
        times = scrape_times(offset)
        n = len(times)
        base = dict(instance=inst, job="node-exporter")
        busy = np.array([busy_factor(dt.datetime.fromtimestamp(x, UTC)) for x in times])
        dtv = np.r_[SCRAPE, np.diff(times)]
        boot = ts(dt.datetime(2025, 5, 14, 3, 12, 40, tzinfo=UTC)) + prng.integers(0, 3600) + hi * 37
        uptime0 = ts(W_START) - boot
        # CPU split (fractions of all 224 CPUs); per-host persistent differences
        u = 0.118 + prng.normal(0, 0.006) + prng.normal(0, 0.004, n)
        s = 0.031 + prng.normal(0, 0.002) + prng.normal(0, 0.0015, n)
        u = np.where(busy > 0, u, 0.05)
        s = np.where(busy > 0, s, 0.045)
        io = np.clip(0.0012 + prng.normal(0, 0.0004, n) + np.where(busy > 0, 0, 0.012), 0, None)
        irq = np.full(n, 0.0009)
        sirq = np.clip(0.0065 + prng.normal(0, 0.0006, n), 0, None)
        nice = np.full(n, 0.00002)
        steal = np.zeros(n)
        idle = 1 - (u + s + io + irq + sirq + nice)
        for mode, frac, start in (("user", u, 0.31), ("system", s, 0.08), ("iowait", io, 0.004),
                                  ("irq", irq, 0.002), ("softirq", sirq, 0.015), ("nice", nice, 0.0001),
                                  ("steal", steal, 0.0), ("idle", idle, 0.58)):
            vals = start * ncpu * uptime0 + np.cumsum(frac * ncpu * dtv)
            c.add(times, "node_cpu_seconds_total", np.round(vals, 2), mode=mode, **base)
        load = np.where(busy > 0, 41 + prng.normal(0, 2.5, n), 30) + prng.normal(0, 1.0)
        c.add(times, "node_load1", np.round(np.clip(load, 0, None), 2), **base)
        memtot = 2164207284224.0
        avail = memtot * (0.71 + prng.normal(0, 0.004)) + np.cumsum(prng.normal(0, 2e8, n))
        c.add(times, "node_memory_MemTotal_bytes", np.full(n, memtot), **base)
        c.add(times, "node_memory_MemAvailable_bytes", np.round(avail), **base)
        c.add(times, "node_context_switches_total", np.round(9.1e9 + np.cumsum(dtv * (1.45e5 + prng.normal(0, 4e3, n)))), **base)
        c.add(times, "node_intr_total", np.round(2.2e10 + np.cumsum(dtv * (3.1e5 + prng.normal(0, 8e3, n)))), **base)
        c.add(times, "node_pressure_cpu_waiting_seconds_total", np.round(812.3 + hi + np.cumsum(dtv * np.abs(prng.normal(0.004, 0.002, n))), 6), **base)
        c.add(times, "node_boot_time_seconds", np.full(n, float(boot)), **base)
        c.add(times, "node_uname_info", np.ones(n), nodename=h, domainname="(none)", machine="x86_64",
              release="5.15.0-122-generic", sysname="Linux",
              version="#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024", **base)
        c.add(times, "up", np.ones(n), **base)
        # InfiniBand compute rails (8 x NDR 400G), bytes counters
        for d in IB_DEVS:
            rate = np.where(busy > 0, 1.18e10 + prng.normal(0, 2.5e8, n), 4e6)
            for mname, r0 in (("node_infiniband_port_data_received_bytes_total", prng.uniform(1e14, 3e14)),
                              ("node_infiniband_port_data_transmitted_bytes_total", prng.uniform(1e14, 3e14))):
                c.add(times, mname, np.round(r0 + np.cumsum(dtv * rate * prng.uniform(0.995, 1.005))), device=d, port="1", **base)
            c.add(times, "node_infiniband_link_downed_total", np.full(n, float(prng.choice([0, 0, 0, 1]))), device=d, port="1", **base)
            c.add(times, "node_infiniband_state_id", np.full(n, 4.0), device=d, port="1", **base)
            c.add(times, "node_infiniband_rate_bytes_per_second", np.full(n, 5e10), device=d, port="1", **base)
        # storage NIC / disks / fs
        for mname, r in (("node_network_receive_bytes_total", 3.4e6), ("node_network_transmit_bytes_total", 2.1e6)):
            c.add(times, mname, np.round(prng.uniform(1e12, 4e12) + np.cumsum(dtv * np.abs(prng.normal(r, r * 0.2, n)))), device="bond0", **base)
        reads = np.where(busy > 0, 14.0, 2.0) + np.abs(prng.normal(0, 3, n))
        c.add(times, "node_disk_reads_completed_total", np.round(3.3e7 + np.cumsum(dtv * reads)), device="nvme0n1", **base)
        c.add(times, "node_disk_read_time_seconds_total", np.round(4100.0 + np.cumsum(dtv * reads * 0.00011), 3), device="nvme0n1", **base)
        c.add(times, "node_disk_read_bytes_total", np.round(1.9e12 + np.cumsum(dtv * reads * 131072)), device="nvme0n1", **base)
        wr = np.where(busy > 0, 21.0, 40.0) + np.abs(prng.normal(0, 4, n))
        c.add(times, "node_disk_writes_completed_total", np.round(5.1e7 + np.cumsum(dtv * wr)), device="nvme0n1", **base)
        c.add(times, "node_disk_write_time_seconds_total", np.round(9100.0 + np.cumsum(dtv * wr * 0.00003), 3), device="nvme0n1", **base)
        c.add(times, "node_filesystem_avail_bytes", np.round(1.31e12 - np.cumsum(dtv * 1.1e4)), device="/dev/nvme0n1p2", mountpoint="/", fstype="ext4", **base)
        c.add(times, "node_filesystem_size_bytes", np.full(n, 1.887e12), device="/dev/nvme0n1p2", mountpoint="/", fstype="ext4", **base)
        for ctl in ("0", "1"):
            c.add(times, "node_edac_correctable_errors_total", np.full(n, float(prng.choice([0, 0, 0, 0, 1, 2]))), controller=ctl, **base)
            c.add(times, "node_edac_uncorrectable_errors_total", np.zeros(n), controller=ctl, **base)
    return c.table()


# ---------------------------------------------------------------------------
# Logs
# ---------------------------------------------------------------------------
def j_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S+0000")


def hexid(r, n=64):
    return "".join("0123456789abcdef"[i] for i in r.integers(0, 16, n))


def journal_for(h, hi):
    r = np.random.default_rng(SEED + 100 + hi)
    lines = []
    start = W_START - dt.timedelta(minutes=30)
    end = W_END + dt.timedelta(minutes=10)

    def add(t, text):
        lines.append((t, f"{j_ts(t)} {h} {text}"))

    # sysstat cron every 10 min
    t = start.replace(minute=(start.minute // 10) * 10, second=1)
    while t < end:
        pid = r.integers(300000, 900000)
        add(t, f"CRON[{pid}]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        t += dt.timedelta(minutes=10)
    # kubelet exec probes -> runc mount units, a few per minute
    t = start
    while t < end:
        t += dt.timedelta(seconds=float(r.exponential(47)))
        add(t, f"systemd[1]: run-containerd-runc-k8s.io-{hexid(r)}-runc.{''.join(r.choice(list('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), 6))}.mount: Deactivated successfully.")
    # hourly tmpfiles / apt / logrotate
    for hh in range(8, 14):
        base = dt.datetime(2025, 6, 3, hh, 0, 0, tzinfo=UTC)
        if start <= base + dt.timedelta(minutes=17) <= end:
            tt = base + dt.timedelta(minutes=17, seconds=int(r.integers(0, 50)))
            add(tt, f"CRON[{r.integers(300000, 900000)}]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
    tt = dt.datetime(2025, 6, 3, 9, 41, 7, tzinfo=UTC) + dt.timedelta(seconds=int(r.integers(0, 900)))
    add(tt, "systemd[1]: Starting Cleanup of Temporary Directories...")
    add(tt + dt.timedelta(milliseconds=90), "systemd[1]: systemd-tmpfiles-clean.service: Deactivated successfully.")
    add(tt + dt.timedelta(milliseconds=95), "systemd[1]: Finished Cleanup of Temporary Directories.")
    tt = dt.datetime(2025, 6, 3, 11, 52, 0, tzinfo=UTC) + dt.timedelta(seconds=int(r.integers(0, 1800)))
    add(tt, "systemd[1]: Starting Daily apt download activities...")
    add(tt + dt.timedelta(seconds=3), "systemd[1]: apt-daily.service: Deactivated successfully.")
    add(tt + dt.timedelta(seconds=3, milliseconds=4), "systemd[1]: Finished Daily apt download activities.")
    # chrony
    tt = start + dt.timedelta(seconds=int(r.integers(0, 14000)))
    add(tt, "chronyd[1311]: Selected source 10.40.0.2 (ntp1.a2.cluster.internal)")
    # an operator ssh session on a few hosts
    if hi in (3, 12, 18, 0):
        tt = dt.datetime(2025, 6, 3, 11, 9, 0, tzinfo=UTC) + dt.timedelta(seconds=int(r.integers(0, 900)))
        sess = int(r.integers(900, 1400))
        pid = int(r.integers(1000000, 1300000))
        add(tt, f"sshd[{pid}]: Accepted publickey for ops from 10.40.0.15 port {r.integers(40000, 60000)} ssh2: ED25519 SHA256:Jq7xQy0wz9v0bWkzY8mYk3a4cC2w0vZrGq1pN6yTq5c")
        add(tt, f"sshd[{pid}]: pam_unix(sshd:session): session opened for user ops(uid=1001) by (uid=0)")
        add(tt, f"systemd-logind[1418]: New session {sess} of user ops.")
        add(tt + dt.timedelta(milliseconds=40), f"systemd[1]: Started Session {sess} of User ops.")
        t2 = tt + dt.timedelta(seconds=int(r.integers(120, 600)))
        add(t2, f"sshd[{pid}]: pam_unix(sshd:session): session closed for user ops")
        add(t2, f"systemd[1]: session-{sess}.scope: Deactivated successfully.")
        add(t2, f"systemd-logind[1418]: Session {sess} logged out. Waiting for processes to exit.")
        add(t2, f"systemd-logind[1418]: Removed session {sess}.")
    if hi % 5 == 2:
        tt = start + dt.timedelta(seconds=int(r.integers(0, 14000)))
        add(tt, "kernel: perf: interrupt took too long (2511 > 2500), lowering kernel.perf_event_max_sample_rate to 79500")
    # dcgm-exporter containers starting/stopping under systemd's cgroup driver
    if h in GAP_HOSTS:
        for (t0, t1) in CRASH_TIMES[h]:
            cid = hexid(r)
            add(t0, f"systemd[1]: Started libcontainer container {cid}.")
            add(t1, f"systemd[1]: cri-containerd-{cid}.scope: Deactivated successfully.")
        cid = hexid(r)
        add(T_ROLLBACK, f"systemd[1]: Started libcontainer container {cid}.")
    lines.sort(key=lambda x: x[0])
    return "\n".join(l for _, l in lines) + "\n"


# dcgm-exporter 4.8.4 crash (dcgm-exporter issue #612, comment by JensErat, verbatim but time)
CRASH_MSGS = [
    (0.000, 'level=INFO msg="Starting dcgm-exporter" Version=4.8.4'),
    (0.001, 'level=INFO msg="Attempting to initialize DCGM."'),
    (0.004, 'level=INFO msg="Initialized DCGM Fields module."'),
    (0.004, 'level=INFO msg="DCGM successfully initialized!"'),
    (0.004, 'level=INFO msg="Attempting to initialize NVML library."'),
    (0.004, 'level=ERROR msg="Cannot init NVML library; err: ERROR_LIBRARY_NOT_FOUND"'),
    (0.004, 'level=INFO msg="Attempting to terminate DCGM Fields module."'),
    (0.004, 'level=INFO msg="Attempting to terminate DCGM."'),
    (0.023, "level=ERROR msg=ERROR_LIBRARY_NOT_FOUND"),
]
# start-up of the rolled-back 4.3.1-4.4.1 exporter (NVIDIA/go-nvml issue #164, verbatim but time)
OK_MSGS = [
    (0.000, 'level=INFO msg="Starting dcgm-exporter" Version=4.3.1-4.4.1'),
    (0.003, 'level=INFO msg="Attempting to initialize DCGM."'),
    (0.097, 'level=INFO msg="Initialized DCGM Fields module."'),
    (0.097, 'level=INFO msg="Attempting to initialize NVML library."'),
    (0.098, 'level=INFO msg="DCGM successfully initialized!"'),
    (0.098, 'level=INFO msg="NVML provider successfully initialized!"'),
]
CRASH_TIMES = {}


def crash_schedule(h, hi):
    r = np.random.default_rng(SEED + 300 + hi)
    t = T_NEW_POD_START + dt.timedelta(milliseconds=int(r.integers(0, 900)))
    out = []
    backoff = 10.0
    while t < T_ROLLBACK:
        out.append((t, t + dt.timedelta(milliseconds=120)))
        t = t + dt.timedelta(seconds=backoff + float(r.uniform(0.4, 1.6)))
        backoff = min(backoff * 2, 300.0)
    return out


def kubectl_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond:06d}" + "000Z"


def slog_ts(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def exporter_log(h, hi):
    r = np.random.default_rng(SEED + 400 + hi)
    out = []
    for (t0, _t1) in CRASH_TIMES[h]:
        jit = np.cumsum(r.uniform(0.00002, 0.00012, len(CRASH_MSGS)))
        for (off, msg), jj in zip(CRASH_MSGS, jit):
            t = t0 + dt.timedelta(seconds=off + float(jj))
            out.append(f"{kubectl_ts(t)} time={slog_ts(t)} {msg}")
    t0 = T_ROLLBACK + dt.timedelta(milliseconds=int(r.integers(200, 900)))
    jit = np.cumsum(r.uniform(0.00002, 0.00012, len(OK_MSGS)))
    for (off, msg), jj in zip(OK_MSGS, jit):
        t = t0 + dt.timedelta(seconds=off + float(jj))
        out.append(f"{kubectl_ts(t)} time={slog_ts(t)} {msg}")
    return "\n".join(out) + "\n"


def megatron_log():
    r = np.random.default_rng(SEED + 500)
    L = []
    t0 = T_RESUME - dt.timedelta(minutes=6, seconds=12)
    stamp = lambda t: t.strftime("%Y-%m-%d %H:%M:%S")
    L.append("using world size: 192, data-parallel size: 6, context-parallel size: 1, hierarchical context-parallel sizes: None, tensor-model-parallel size: 8, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 4, encoder-pipeline-model-parallel size: 0")
    L.append("using torch.bfloat16 for parameters ...")
    L.append("------------------------ arguments ------------------------")
    args = [("bf16", "True"), ("ckpt_format", "torch_dist"), ("clip_grad", "1.0"), ("data_parallel_size", "6"),
            ("ffn_hidden_size", "28672"), ("global_batch_size", "192"), ("hidden_size", "8192"),
            ("load", "/lustre/llm/llama3-70b/run7/checkpoints"), ("log_interval", "5"), ("lr", "0.00015"),
            ("max_position_embeddings", "8192"), ("micro_batch_size", "1"), ("min_lr", "1.5e-05"),
            ("num_attention_heads", "64"), ("num_layers", "80"), ("num_query_groups", "8"),
            ("pipeline_model_parallel_size", "4"), ("save", "/lustre/llm/llama3-70b/run7/checkpoints"),
            ("save_interval", "1500"), ("seq_length", "8192"), ("tensor_model_parallel_size", "8"),
            ("train_iters", "250000"), ("world_size", "192")]
    for k, v in args:
        L.append(f"  {k} {'.' * max(3, 48 - len(k))} {v}")
    L.append("-------------------- end of arguments ---------------------")
    L.append("> initializing torch distributed ...")
    L.append(f" loading checkpoint from /lustre/llm/llama3-70b/run7/checkpoints at iteration {ITER0}")
    L.append(f"  successfully loaded checkpoint from /lustre/llm/llama3-70b/run7/checkpoints [ t 1/8, p 1/4 ] at iteration {ITER0}")
    L.append(f"[after model, optimizer, and learning rate scheduler are built] datetime: {stamp(t0 + dt.timedelta(minutes=4))} ")
    L.append(f"[after dataloaders are built] datetime: {stamp(t0 + dt.timedelta(minutes=5, seconds=40))} ")
    L.append("done with setup ...")
    L.append("training ...")
    L.append(f"[before the start of training step] datetime: {stamp(T_RESUME)} ")
    loss = 1.8123
    for it, t, ms in SCHED:
        loss = 1.8123 - (it - ITER0) * 2.1e-6 + r.normal(0, 0.0055)
        gn = abs(r.normal(0.231, 0.018))
        lr = 1.5e-5 + 0.5 * (1.5e-4 - 1.5e-5) * (1 + np.cos(np.pi * it / 250000))
        tflops = 401.3 * (STEP_S * 1000 / ms)
        L.append(f" [{stamp(t)}] iteration {it:8d}/  250000 | consumed samples: {it * 192:12d} | "
                 f"elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
                 f"learning rate: {lr:.6E} | global batch size:   192 | lm loss: {loss:.6E} | loss scale: 1.0 | "
                 f"grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        if it == SAVE_ITER:
            L.append(f"saving checkpoint at iteration   {SAVE_ITER} to /lustre/llm/llama3-70b/run7/checkpoints in torch_dist format")
            L.append(f"  successfully saved checkpoint from iteration   {SAVE_ITER} to /lustre/llm/llama3-70b/run7/checkpoints [ t 1/8, p 1/4 ]")
            L.append("(min, max) time across ranks (ms):")
            L.append(f"    save-checkpoint ................................: ({SAVE_MS - 0.41:.2f}, {SAVE_MS:.2f})")
    return "\n".join(L) + "\n"


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    for hi, h in enumerate(HOSTS):
        if h in GAP_HOSTS:
            CRASH_TIMES[h] = crash_schedule(h, hi)
    write_parquet(gen_dcgm(), os.path.join(OUT, "metrics", "dcgm-exporter.parquet"))
    write_parquet(gen_node(), os.path.join(OUT, "metrics", "node-exporter.parquet"))
    for hi, h in enumerate(HOSTS):
        d = os.path.join(OUT, "logs", h)
        os.makedirs(d)
        with open(os.path.join(d, "journal.log"), "w") as f:
            f.write(journal_for(h, hi))
        if h in GAP_HOSTS:
            with open(os.path.join(d, "nvidia-dcgm-exporter.log"), "w") as f:
                f.write(exporter_log(h, hi))
    with open(os.path.join(OUT, "logs", "llama3-70b-pretrain-worker-23.log"), "w") as f:
        f.write(megatron_log())

    inc = {
        "id": ID,
        "title": "GPU metrics missing on three nodes for 40 minutes during llama3-70b pretraining",
        "window": {"start": W_START.isoformat(), "end": W_END.isoformat()},
        "baseline": {"start": W_START.isoformat(), "end": "2025-06-03T10:15:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "a2-hgx", "nodes": N_HOSTS, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    gap = {h: {"last_sample_before_gap": dt.datetime.fromtimestamp(GAP_INFO[h]["last_ok"], UTC).isoformat(),
               "first_sample_after_gap": dt.datetime.fromtimestamp(GAP_INFO[h]["first_ok"], UTC).isoformat(),
               "exporter_restarts": len(CRASH_TIMES[h])} for h in GAP_HOSTS}
    truth = {
        "id": ID,
        "cause": "no fault in the job (a monitoring gap)",
        "cause_detail": ("A GitOps sync rolled the nvidia-dcgm-exporter DaemonSet to 4.8.4 without the nvidia "
                         "runtimeClass; with maxUnavailable 3 the new pods on hgx-a2-04, hgx-a2-13 and hgx-a2-19 "
                         "could not load NVML and crash-looped (CrashLoopBackOff) until the rollback to "
                         "4.3.1-4.4.1 at 11:26:41 UTC, so those nodes' DCGM series stop for ~40 minutes and "
                         "resume under new pod IPs; node-exporter scraped them throughout and the training "
                         "job (Megatron-LM, 192 H100) kept its pace."),
        "cause_metrics": [],
        "monitoring_gap_metrics": ["DCGM_FI_* on the three hosts (absent 10:46:52-11:27 UTC)",
                                   "up{job=\"nvidia-dcgm-exporter\"} = 0 for the crash-looping pods"],
        "cause_log_evidence": [
            {"text": 'level=ERROR msg="Cannot init NVML library; err: ERROR_LIBRARY_NOT_FOUND"',
             "also": ['level=INFO msg="Starting dcgm-exporter" Version=4.8.4',
                      'level=INFO msg="Attempting to initialize DCGM."',
                      'level=INFO msg="Initialized DCGM Fields module."',
                      'level=INFO msg="DCGM successfully initialized!"',
                      'level=INFO msg="Attempting to initialize NVML library."',
                      'level=INFO msg="Attempting to terminate DCGM Fields module."',
                      'level=INFO msg="Attempting to terminate DCGM."',
                      "level=ERROR msg=ERROR_LIBRARY_NOT_FOUND"],
             "where": "logs/<gap host>/nvidia-dcgm-exporter.log, one block per restart",
             "source": "https://github.com/NVIDIA/dcgm-exporter/issues/612 (comment by JensErat, kubectl logs of dcgm-exporter 4.8.4 without the nvidia runtimeClass)",
             "adapted": "the time= value (and the kubectl --timestamps prefix added in front)"},
            {"text": 'level=INFO msg="NVML provider successfully initialized!"',
             "also": ['level=INFO msg="Starting dcgm-exporter" Version=4.3.1-4.4.1'],
             "where": "recovery start-up after the rollback, same files",
             "source": "https://github.com/NVIDIA/go-nvml/issues/164 (dcgm-exporter 4.3.1-4.4.1 start-up log on H200 nodes)",
             "adapted": "the time= value; the source's 'Cannot init NVML library; err: Unknown Error' line left out"},
        ],
        "benign_log_lines_note": "journal.log lines (cron, systemd, sshd, chronyd, containerd scopes) are ordinary background written for realism, not fault evidence.",
        "hosts": [],
        "gpu": None,
        "onset": None,
        "monitoring_gap_start": T_OLD_POD_DELETED.isoformat(),
        "gap_hosts": GAP_HOSTS,
        "gap": gap,
        "job_throughput_loss_pct": 0,
        "checkpoint_dip": {"iteration": SAVE_ITER, "start": CKPT[0].isoformat(), "end": CKPT[1].isoformat(),
                           "note": "routine torch_dist save, ~48 s, GPUs idle on every host; Megatron's per-iteration time excludes it"},
        "what_a_good_postmortem_says": (
            "Nothing was wrong with the training job: Megatron's step time stayed at ~9.2 s (about 401 TFLOP/s/GPU) "
            "through the whole window apart from the routine ~48 s checkpoint save at iteration 42000. "
            "The missing GPU metrics on hgx-a2-04, -13 and -19 from 10:47 to 11:27 UTC were a monitoring outage: "
            "the dcgm-exporter 4.8.4 rollout crash-looped (Cannot init NVML library; ERROR_LIBRARY_NOT_FOUND) while "
            "node-exporter kept reporting the hosts up and busy, so the gap must not be read as hosts or GPUs failing."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120)


if __name__ == "__main__":
    main()
