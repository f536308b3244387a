#!/usr/bin/env python3
"""Incident 1: one H100's GSP stops answering RPCs (Xid 119) on gpu-r4-n03, the
synchronous Megatron-LM job (16 nodes x 8 H100) hangs in an ALLREDUCE, the NCCL
watchdog kills it after 600 s, the operators exclude the host and restart the job on
15 nodes about 35 minutes after the fault.

Writes /tmp/p/blind_15/h100-gsp-xid119-hang/ :
  incident.yaml, truth.yaml
  metrics/dcgm-exporter.csv      long format, one row per raw dcgm-exporter sample
  metrics/node-exporter.om       OpenMetrics text (node_exporter + Prometheus `up`)
  logs/<host>/dmesg-T.txt        `dmesg -T` of each host (whole ring buffer since boot)
  logs/slurm-48213.out           the job's output (srun -l), the run that hung
  logs/slurm-48297.out           the restarted run on 15 nodes

Fixed seed: the output is the same on every run.
"""
from __future__ import annotations

import math
import os
import shutil
from datetime import datetime, timedelta, timezone

import numpy as np
import polars as pl
import yaml

SEED = 15017
rng = np.random.default_rng(SEED)

ID = "h100-gsp-xid119-hang"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc


def T(s: str) -> datetime:
    return datetime.fromisoformat(s).replace(tzinfo=UTC)


# ----------------------------------------------------------------------------- layout
HOSTS = [f"gpu-r3-n{i:02d}" for i in range(1, 9)] + [f"gpu-r4-n{i:02d}" for i in range(1, 9)]
IPS = {h: (f"10.41.3.{10 + i + 1}" if i < 8 else f"10.41.4.{10 + i - 8 + 1}") for i, h in enumerate(HOSTS)}
BAD_HOST = "gpu-r4-n03"
BAD_IDX = HOSTS.index(BAD_HOST)          # srun task 10
BAD_GPU = 4                              # local rank 4 -> global rank 84
BAD_RANK = BAD_IDX * 8 + BAD_GPU
GPU_BUS = ["18", "2a", "3a", "5d", "9b", "bb", "cb", "db"]   # Dell XE9680 style, GPU4 at 0000:9b:00
HCA_BUS = ["1a", "2c", "3c", "5f", "9d", "bd", "cd", "dd"]
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.90.07"
BAD_UUID = "GPU-509665ad-b600-ac93-3616-d754b23d636d"   # as printed in the real dmesg block


def rand_uuid() -> str:
    b = rng.integers(0, 256, 16)
    h = "".join(f"{x:02x}" for x in b)
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


UUIDS = {(h, g): rand_uuid() for h in HOSTS for g in range(8)}
UUIDS[(BAD_HOST, BAD_GPU)] = BAD_UUID

# ----------------------------------------------------------------------------- timeline
WIN_START = T("2025-09-17T05:40:00")
WIN_END = T("2025-09-17T07:55:00")
BASE_END = T("2025-09-17T06:30:00")
JOB1_SRUN = T("2025-09-16T22:04:12")
JOB1_TRAIN0 = T("2025-09-16T22:09:55")        # first training step after loading iter 4500
ONSET = T("2025-09-17T06:41:31")              # GSP stops answering (first RPC that never returns)
FIRST_XID = ONSET + timedelta(seconds=6)      # "Timeout after 6s" -> first Xid 119 line
WATCHDOG = T("2025-09-17T06:51:37")           # collective started ~06:41:37 + 600 s
KILL = WATCHDOG + timedelta(seconds=2.5)      # processes abort
JOB2_SRUN = T("2025-09-17T07:15:04")
COLLECT = T("2025-09-17T07:58:40")            # when logs were collected

GBS1, GBS2 = 512, 480
SEQ = 8192
FLOPS_PER_TOKEN = 6.148e10
TRAIN_ITERS = 250000
LOG_INTERVAL = 5
SAVE_INTERVAL = 1000
BASE_DT = 4.60
CKPT_DIR = "/lustre/fs1/proj/llm/ckpt/llama3-8b-r7"


def lr_at(it: int) -> float:
    mx, mn, warm = 3.0e-4, 3.0e-5, 2000
    if it < warm:
        return mx * it / warm
    return mn + 0.5 * (mx - mn) * (1 + math.cos(math.pi * (it - warm) / (TRAIN_ITERS - warm)))


def ar1(n: int, phi: float, sd: float) -> np.ndarray:
    e = rng.normal(0, sd * math.sqrt(1 - phi * phi), n)
    x = np.empty(n)
    x[0] = rng.normal(0, sd)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


# ----------------------------------------------------------------------------- trainer simulation
def simulate_run(start_time: datetime, start_iter: int, end_time: datetime, gbs: int, world: int,
                 stop_at: datetime | None, base_dt: float):
    """Return list of (end_time_of_iteration, iteration, dt, saved_ckpt_seconds)."""
    iters = []
    t = start_time
    it = start_iter
    noise = 0.0
    while True:
        noise = 0.85 * noise + rng.normal(0, 0.006)
        dt = base_dt * (1 + noise) * (1 + (0.07 if rng.random() < 0.004 else 0.0))
        it += 1
        save = 0.0
        if it % SAVE_INTERVAL == 0:
            save = float(rng.uniform(31, 39))
        t_end = t + timedelta(seconds=dt + save)
        if stop_at is not None and t_end > stop_at:
            return iters, it  # iteration `it` never finished
        if t_end > end_time:
            return iters, it
        iters.append((t_end, it, dt, save))
        t = t_end


run1, hung_iter = simulate_run(JOB1_TRAIN0, 4500, COLLECT, GBS1, 128, ONSET, BASE_DT)
# job 2 loads the last checkpoint before the hang
last_ckpt = max(i for (_, i, _, s) in run1 if s > 0)
JOB2_TRAIN0 = T("2025-09-17T07:20:41")
run2, _ = simulate_run(JOB2_TRAIN0, last_ckpt, COLLECT, GBS2, 120, None, BASE_DT * 0.996)

# job state timeline used for the metrics: list of (t0, t1, state, gbs)
save_windows = [(t - timedelta(seconds=s), t) for (t, i, d, s) in run1 + run2 if s > 0]


def job_state(h: str, t: datetime) -> str:
    """train | save | hang | idle | init | gone (the bad GPU)"""
    if t < ONSET:
        for a, b in save_windows:
            if a <= t < b:
                return "save"
        return "train"
    if t < KILL:
        return "hang"
    if h == BAD_HOST:
        return "idle"
    if t < JOB2_SRUN + timedelta(seconds=20):
        return "idle"
    if t < JOB2_TRAIN0:
        return "init"
    for a, b in save_windows:
        if a <= t < b:
            return "save"
    return "train"


# ----------------------------------------------------------------------------- metrics: dcgm-exporter
def fmt_ts(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def scrape_times(offset: float, interval: float, start: datetime, end: datetime):
    out = []
    k = 0
    while True:
        t = start + timedelta(milliseconds=round((offset + k * interval + float(rng.normal(0, 0.004))) * 1000))
        if t >= end:
            return out
        out.append(t)
        k += 1


DCGM_INTERVAL = 30.0
NODE_INTERVAL = 30.0
host_temp_off = {h: float(rng.normal(0, 2.8)) for h in HOSTS}
host_pow_off = {h: float(rng.normal(0, 9)) for h in HOSTS}
gpu_pow_off = {(h, g): float(rng.normal(0, 11)) for h in HOSTS for g in range(8)}
slot_temp = [-2.5, -1.5, -1.0, 0.0, 1.0, 1.5, 2.5, 3.0]

dcgm_rows = {k: [] for k in ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device",
                              "modelName", "pci_bus_id", "DCGM_FI_DRIVER_VERSION", "instance", "job"]}
up_samples = []   # (job, instance, t, value)

# the bad host's dcgm-exporter scrapes partly time out while DCGM waits on the dead GPU
BAD_FLAT_UNTIL = FIRST_XID + timedelta(seconds=140)    # GPU4 values repeat (stale) until here
BAD_FLAKY_UNTIL = T("2025-09-17T06:47:50")


def add_dcgm(t, metric, value, h, g):
    dcgm_rows["timestamp"].append(fmt_ts(t))
    dcgm_rows["metric"].append(metric)
    dcgm_rows["value"].append(value)
    dcgm_rows["Hostname"].append(h)
    dcgm_rows["gpu"].append(str(g))
    dcgm_rows["UUID"].append(UUIDS[(h, g)])
    dcgm_rows["device"].append(f"nvidia{g}")
    dcgm_rows["modelName"].append(MODEL)
    dcgm_rows["pci_bus_id"].append(f"00000000:{GPU_BUS[g].upper()}:00.0")
    dcgm_rows["DCGM_FI_DRIVER_VERSION"].append(DRIVER)
    dcgm_rows["instance"].append(f"{IPS[h]}:9400")
    dcgm_rows["job"].append("dcgm-exporter")


for h in HOSTS:
    off = float(rng.uniform(0, DCGM_INTERVAL))
    times = scrape_times(off, DCGM_INTERVAL, WIN_START, WIN_END)
    n = len(times)
    states = [job_state(h, t) for t in times]
    for g in range(8):
        pnoise = ar1(n, 0.6, 14.0)
        tnoise = ar1(n, 0.8, 0.6)
        tens_noise = ar1(n, 0.5, 0.018)
        temp = 58.0 + host_temp_off[h] + slot_temp[g]
        last = None
        for k, (t, st) in enumerate(zip(times, states)):
            if st in ("train",):
                util = 100 if rng.random() > 0.06 else int(rng.integers(96, 100))
                power = 652 + host_pow_off[h] + gpu_pow_off[(h, g)] + pnoise[k]
                tensor = 0.487 + tens_noise[k] + (host_pow_off[h] / 2000)
            elif st == "save":
                util = int(rng.integers(0, 35))
                power = 160 + abs(pnoise[k]) * 2
                tensor = abs(tens_noise[k]) * 0.2
            elif st == "hang":
                util = 100
                power = 168 + host_pow_off[h] * 0.3 + gpu_pow_off[(h, g)] * 0.2 + pnoise[k] * 0.35
                tensor = abs(tens_noise[k]) * 0.004
            elif st == "init":
                util = int(rng.choice([0, 0, 0, 3, 11, 24, 57]))
                power = 96 + abs(pnoise[k]) * 1.5
                tensor = 0.0
            else:  # idle
                util = 0
                power = 71.5 + gpu_pow_off[(h, g)] * 0.08 + pnoise[k] * 0.12
                tensor = 0.0
            power = float(min(power, 699.0))
            if st in ("train",):
                sm = 1980 - max(0.0, power - 655) * 7.0 + rng.normal(0, 20)
                sm = int(round(min(sm, 1980) / 15) * 15)
            elif st in ("hang", "save", "init"):
                sm = 1980
            else:
                sm = 345
            target = 26.0 + host_temp_off[h] + slot_temp[g] + power * 0.058
            temp = temp + 0.42 * (target - temp)
            gtemp = int(round(temp + tnoise[k]))
            tensor = float(max(0.0, min(1.0, tensor)))
            vals = {
                "DCGM_FI_DEV_GPU_UTIL": float(util),
                "DCGM_FI_DEV_POWER_USAGE": round(power, 3),
                "DCGM_FI_DEV_GPU_TEMP": float(gtemp),
                "DCGM_FI_DEV_SM_CLOCK": float(sm),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": round(tensor, 6),
                "DCGM_FI_DEV_XID_ERRORS": 0.0,
            }
            if h == BAD_HOST:
                if FIRST_XID <= t < BAD_FLAKY_UNTIL and (k % 3 != 0):
                    continue  # scrape of this host timed out: no samples at all from it
                if g == BAD_GPU and t >= ONSET:
                    if t < BAD_FLAT_UNTIL and last is not None:
                        vals = dict(last)          # DCGM keeps serving the last cached readings
                    else:
                        vals = {}                  # blank values: the exporter skips them
                    if t >= FIRST_XID:
                        vals["DCGM_FI_DEV_XID_ERRORS"] = 119.0
            for m, v in vals.items():
                add_dcgm(t, m, v, h, g)
            if not (h == BAD_HOST and g == BAD_GPU and t >= ONSET):
                last = vals
    for k, t in enumerate(times):
        ok = not (h == BAD_HOST and FIRST_XID <= t < BAD_FLAKY_UNTIL and (k % 3 != 0))
        up_samples.append(("dcgm-exporter", f"{IPS[h]}:9400", t, 1.0 if ok else 0.0))

# ----------------------------------------------------------------------------- metrics: node_exporter
BOOT = {h: T("2025-09-02T09:00:00") + timedelta(hours=float(rng.uniform(0, 200))) for h in HOSTS}
om_series = {}   # (family, labels-string) -> list[(t, value)]


def lbl(d: dict) -> str:
    return "{" + ",".join(f'{k}="{v}"' for k, v in d.items()) + "}"


for h in HOSTS:
    inst = f"{IPS[h]}:9100"
    off = float(rng.uniform(0, NODE_INTERVAL))
    times = scrape_times(off, NODE_INTERVAL, WIN_START, WIN_END)
    n = len(times)
    base = {"instance": inst, "job": "node"}
    uname = dict(domainname="(none)", machine="x86_64", nodename=h, release="5.15.0-112-generic",
                 sysname="Linux", version="#122-Ubuntu SMP Thu May 23 07:48:21 UTC 2024", **base)
    load = 20 + ar1(n, 0.9, 2.0)
    for k, t in enumerate(times):
        om_series.setdefault(("node_uname_info", lbl(uname)), []).append((t, 1.0))
        om_series.setdefault(("node_boot_time_seconds", lbl(base)), []).append((t, float(int(BOOT[h].timestamp()))))
        st = job_state(h, t)
        lv = {"train": 18.5, "save": 24.0, "hang": 9.2, "idle": 0.6, "init": 6.0}[st]
        om_series.setdefault(("node_load1", lbl(base)), []).append((t, round(max(0.02, lv + load[k] * (0.3 if st != "idle" else 0.05) - 6), 2)))
        up_samples.append(("node", inst, t, 1.0))
    host_rate_off = float(rng.normal(0, 0.012))
    for d in range(8):
        for fam, frac in (("node_infiniband_port_data_received_bytes", 1.0), ("node_infiniband_port_data_transmitted_bytes", 0.998)):
            cnt = float(rng.uniform(2.0e14, 6.0e14))
            rnoise = ar1(n, 0.7, 0.03)
            prev_t = times[0] - timedelta(seconds=NODE_INTERVAL)
            lab = lbl({"device": f"mlx5_{d}", "instance": inst, "job": "node", "port": "1"})
            for k, t in enumerate(times):
                st = job_state(h, t)
                rate = {"train": 7.05e9, "save": 1.1e9, "hang": 2.3e4, "idle": 1.4e3, "init": 3.0e5}[st]
                rate *= frac * (1 + host_rate_off + rnoise[k]) if st == "train" else (1 + abs(rnoise[k]))
                cnt += rate * (t - prev_t).total_seconds()
                prev_t = t
                om_series.setdefault((fam, lab), []).append((t, float(int(cnt))))

for job, inst, t, v in up_samples:
    om_series.setdefault(("up", lbl({"instance": inst, "job": job})), []).append((t, v))

# ----------------------------------------------------------------------------- logs: dmesg -T
def dmesg_T(t: datetime) -> str:
    return "[" + t.strftime("%a %b ") + f"{t.day:2d}" + t.strftime(" %H:%M:%S %Y") + "]"


BOOT_LINES = [
    (0.000000, "Linux version 5.15.0-112-generic (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #122-Ubuntu SMP Thu May 23 07:48:21 UTC 2024 (Ubuntu 5.15.0-112.122-generic 5.15.152)"),
    (0.000000, "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-112-generic root=UUID={rootuuid} ro console=tty0 console=ttyS0,115200n8 intel_iommu=on iommu=pt pci=realloc=off"),
    (0.000000, "KERNEL supported cpus:"),
    (0.000000, "  Intel GenuineIntel"),
    (0.000000, "  AMD AuthenticAMD"),
    (0.000000, "DMI: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS 2.3.5 09/10/2024"),
    (0.000000, "tsc: Detected 2000.000 MHz processor"),
    (0.000000, "Memory: 2113306740K/2147005228K available (16393K kernel code, 4383K rwdata, 10804K rodata, 3400K init, 6576K bss, 33698228K reserved, 0K cma-reserved)"),
    (0.184213, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs"),
    (1.412338, "smpboot: CPU0: Intel(R) Xeon(R) Platinum 8480+ (family: 0x6, model: 0x8f, stepping: 0x8)"),
    (2.087730, "ACPI: PCI Root Bridge [PC00] (domain 0000 [bus 00-14])"),
    (2.771002, "pci 0000:18:00.0: [10de:2330] type 00 class 0x030200"),
    (2.773418, "pci 0000:2a:00.0: [10de:2330] type 00 class 0x030200"),
    (2.775871, "pci 0000:3a:00.0: [10de:2330] type 00 class 0x030200"),
    (2.778102, "pci 0000:5d:00.0: [10de:2330] type 00 class 0x030200"),
    (2.791224, "pci 0000:9b:00.0: [10de:2330] type 00 class 0x030200"),
    (2.793517, "pci 0000:bb:00.0: [10de:2330] type 00 class 0x030200"),
    (2.795849, "pci 0000:cb:00.0: [10de:2330] type 00 class 0x030200"),
    (2.798156, "pci 0000:db:00.0: [10de:2330] type 00 class 0x030200"),
    (3.504217, "iommu: Default domain type: Passthrough (set via kernel command line)"),
    (4.018830, "Freeing initrd memory: 108740K"),
    (6.281443, "nvme nvme0: pci function 0000:c1:00.0"),
    (6.402117, "nvme nvme0: 128/0/0 default/read/poll queues"),
    (6.410982, " nvme0n1: p1 p2"),
    (9.118273, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
    (11.902117, "systemd[1]: systemd 249.11-0ubuntu3.12 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)"),
    (11.934508, "systemd[1]: Hostname set to <{host}>."),
    (14.402551, "mlx5_core 0000:1a:00.0: firmware version: 28.39.2048"),
    (14.402663, "mlx5_core 0000:1a:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (14.988217, "mlx5_core 0000:2c:00.0: firmware version: 28.39.2048"),
    (14.988330, "mlx5_core 0000:2c:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (15.571093, "mlx5_core 0000:3c:00.0: firmware version: 28.39.2048"),
    (15.571207, "mlx5_core 0000:3c:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (16.160414, "mlx5_core 0000:5f:00.0: firmware version: 28.39.2048"),
    (16.160529, "mlx5_core 0000:5f:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (16.744871, "mlx5_core 0000:9d:00.0: firmware version: 28.39.2048"),
    (16.744983, "mlx5_core 0000:9d:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (17.329302, "mlx5_core 0000:bd:00.0: firmware version: 28.39.2048"),
    (17.329418, "mlx5_core 0000:bd:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (17.915561, "mlx5_core 0000:cd:00.0: firmware version: 28.39.2048"),
    (17.915677, "mlx5_core 0000:cd:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (18.502009, "mlx5_core 0000:dd:00.0: firmware version: 28.39.2048"),
    (18.502121, "mlx5_core 0000:dd:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (21.660318, "nvidia: loading out-of-tree module taints kernel."),
    (21.660341, "nvidia: module license 'NVIDIA' taints kernel."),
    (21.660342, "Disabling lock debugging due to kernel taint"),
    (21.778914, "nvidia-nvlink: Nvlink Core is being initialized, major device number 507"),
    (21.780114, "nvidia 0000:18:00.0: enabling device (0000 -> 0002)"),
    (22.913007, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024"),
    (23.208816, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.90.07  Fri May 31 09:30:47 UTC 2024"),
    (23.521187, "nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint."),
    (23.577450, "nvidia-uvm: Loaded the UVM driver, major device number 505."),
    (27.118362, "mlx5_core 0000:1a:00.0 ibp26s0: renamed from ib0"),
    (27.201473, "mlx5_core 0000:2c:00.0 ibp44s0: renamed from ib1"),
    (29.880213, "NFS: Registering the id_resolver key type"),
    (41.226108, "nvidia-nvswitch0: open (major=510)"),
    (41.226254, "nvidia-nvswitch1: open (major=510)"),
    (41.226391, "nvidia-nvswitch2: open (major=510)"),
    (41.226519, "nvidia-nvswitch3: open (major=510)"),
    (44.772019, "IPv6: ADDRCONF(NETDEV_CHANGE): ibp26s0: link becomes ready"),
    (44.772891, "IPv6: ADDRCONF(NETDEV_CHANGE): ibp44s0: link becomes ready"),
]

RUNTIME_BENIGN = [
    "perf: interrupt took too long (2508 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
    "perf: interrupt took too long (3147 > 3135), lowering kernel.perf_event_max_sample_rate to 63500",
    "hrtimer: interrupt took 41276 ns",
    "audit: type=1400 audit({epoch}:{seq}): apparmor=\"DENIED\" operation=\"open\" class=\"file\" profile=\"/usr/sbin/chronyd\" name=\"/proc/{pid}/status\" pid={pid} comm=\"chronyd\" requested_mask=\"r\" denied_mask=\"r\" fsuid=0 ouid=0",
    "workqueue: drm_fb_helper_damage_work hogged CPU for >10000us 4 times, consider switching to WQ_UNBOUND",
]

# The fault block: verbatim lines of leptonai/gpud
#   components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log (commit 4a8de33a),
# a real Dell PowerEdge XE9680 dmesg -T. Offsets are seconds after the first Xid line;
# only the timestamps change (same host hardware, same PCI address 0000:9b:00, GPU4).
GSP_BLOCK = [
    (0, "NVRM: GPU at PCI:0000:9b:00: GPU-509665ad-b600-ac93-3616-d754b23d636d"),
    (0, "NVRM: GPU Board Serial Number: 1650124014249"),
    (0, "NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4)."),
    (0, "NVRM: GPU4 GSP RPC buffer contains function 103 (GSP_RM_ALLOC) and data 0x0000000000002081 0x0000000000000004."),
    (0, "NVRM: GPU4 RPC history (CPU -> GSP):"),
    (0, "NVRM:     entry function                   data0              data1              ts_start           ts_end             duration actively_polling"),
    (0, "NVRM:      0    103  GSP_RM_ALLOC          0x0000000000002081 0x0000000000000004 0x00062ed1a6bd61fa 0x0000000000000000          y"),
    (0, "NVRM:     -1    103  GSP_RM_ALLOC          0x0000000000002080 0x0000000000000004 0x00062ed1a6b51c6f 0x00062ed1a6b51f2a    699us"),
    (0, "NVRM:     -2    103  GSP_RM_ALLOC          0x0000000000000080 0x0000000000000038 0x00062ed1a6b51a22 0x00062ed1a6b51c28    518us"),
    (0, "NVRM:     -3    103  GSP_RM_ALLOC          0x0000000000000000 0x000000000000006c 0x00062ed1a6b517d9 0x00062ed1a6b51a20    583us"),
    (0, "NVRM:     -4    76   GSP_RM_CONTROL        0x0000000020802a02 0x0000000000000008 0x00062ed1a6b480ff 0x00062ed1a6b48273    372us"),
    (0, "NVRM:     -5    76   GSP_RM_CONTROL        0x0000000020803039 0x0000000000000020 0x00062ed1a6b47f8a 0x00062ed1a6b480fc    370us"),
    (0, "NVRM:     -6    76   GSP_RM_CONTROL        0x000000002080302a 0x0000000000000004 0x00062ed1a6b476cc 0x00062ed1a6b478d3    519us"),
    (0, "NVRM:     -7    76   GSP_RM_CONTROL        0x0000000020802a02 0x0000000000000008 0x00062ed1a6b47540 0x00062ed1a6b476b3    371us"),
    (0, "NVRM: GPU4 RPC event history (CPU <- GSP):"),
    (0, "NVRM:     entry function                   data0              data1              ts_start           ts_end             duration during_incomplete_rpc"),
    (0, "NVRM:      0    4115 NVLINK_INBAND_RECEIVE 0x0000000000000000 0x0000000000000000 0x00062e099d8f14e7 0x00062e099d8f14eb      4us"),
    (0, "NVRM:     -1    4124 GSP_LOCKDOWN_NOTICE   0x0000000000000000 0x0000000000000000 0x00062e099220bc3a 0x00062e099220bc3a"),
    (0, "NVRM:     -2    4124 GSP_LOCKDOWN_NOTICE   0x0000000000000001 0x0000000000000000 0x00062e09922080cf 0x00062e09922080cf"),
    (0, "NVRM:     -3    4124 GSP_LOCKDOWN_NOTICE   0x0000000000000000 0x0000000000000000 0x00062e0992208089 0x00062e0992208089"),
    (0, "NVRM:     -4    4124 GSP_LOCKDOWN_NOTICE   0x0000000000000001 0x0000000000000000 0x00062e0992207ffb 0x00062e0992207ffb"),
    (0, "NVRM:     -5    4108 UCODE_LIBOS_PRINT     0x0000000000000000 0x0000000000000000 0x00062e09921f64c0 0x00062e09921f64c0"),
    (0, "NVRM:     -6    4108 UCODE_LIBOS_PRINT     0x0000000000000000 0x0000000000000000 0x00062e09921f64ab 0x00062e09921f64ab"),
    (0, "NVRM:     -7    4108 UCODE_LIBOS_PRINT     0x0000000000000000 0x0000000000000000 0x00062e09921f15c0 0x00062e09921f15c0"),
    (0, "CPU: 17 PID: 2024380 Comm: nvidia-smi Tainted: P           OE     5.15.0-112-generic #122-Ubuntu"),
    (0, "Hardware name: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS 2.3.5 09/10/2024"),
    (0, "Call Trace:"),
    (0, " <TASK>"),
    (0, " show_stack+0x52/0x5c"),
    (0, " dump_stack_lvl+0x4a/0x63"),
    (0, " dump_stack+0x10/0x16"),
    (0, " os_dump_stack+0xe/0x14 [nvidia]"),
    (0, " _nv012454rm+0x437/0x4b0 [nvidia]"),
    (0, "WARNING: kernel stack frame pointer at 000000005611dc97 in nvidia-smi:2024380 has bad value 00000000ec717e66"),
    (0, "unwind stack type:0 next_sp:0000000000000000 mask:0x2 graph_idx:0"),
    (0, " ? entry_SYSCALL_64_after_hwframe+0x67/0xd1"),
    (0, " </TASK>"),
    (6, "NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 10 (FREE) (0xa55a0210 0x0)."),
    (12, "clocksource: Long readout interval, skipping watchdog check: cs_nsec: 1584036171 wd_nsec: 1584036160"),
    (12, "NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 10 (FREE) (0xa55a0090 0x0)."),
    (18, "NVRM: Rate limiting GSP RPC error prints for GPU at PCI:0000:9b:00 (printing 1 of every 30).  The GPU likely needs to be reset."),
    (174, "NVRM: Xid (PCI:0000:9b:00): 119, pid=1263500, name=cache_mgr_main, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20801813 0x4c)."),
    (355, "NVRM: Xid (PCI:0000:9b:00): 119, pid=1240590, name=gpud, Timeout after 6s of waiting for RPC response from GPU4 GSP! Expected function 76 (GSP_RM_CONTROL) (0x20803032 0x58c)."),
]


def extra_boot_lines():
    """Ordinary early-boot noise of a 2-socket Sapphire Rapids server (benign)."""
    L = []
    t = 0.0
    e820 = [("0x0000000000000000", "0x000000000009ffff", "usable"), ("0x00000000000a0000", "0x00000000000fffff", "reserved"),
            ("0x0000000000100000", "0x000000005d8aafff", "usable"), ("0x000000005d8ab000", "0x000000006f8aafff", "reserved"),
            ("0x000000006f8ab000", "0x000000006fdfefff", "ACPI data"), ("0x000000006fdff000", "0x000000006fffefff", "ACPI NVS"),
            ("0x000000006ffff000", "0x000000006fffffff", "usable"), ("0x0000000070000000", "0x000000008fffffff", "reserved"),
            ("0x00000000fe000000", "0x00000000fe010fff", "reserved"), ("0x0000000100000000", "0x000000407fffffff", "usable")]
    L.append((t, "BIOS-provided physical RAM map:"))
    for a, b, k in e820:
        L.append((t, f"BIOS-e820: [mem {a}-{b}] {k}"))
    L.append((t, "NX (Execute Disable) protection: active"))
    L.append((t, "SMBIOS 3.6.0 present."))
    for tab in ["RSDP", "XSDT", "FACP", "DSDT", "FACS", "SSDT", "MCEJ", "WSMT", "SSDT", "APIC", "SRAT", "SLIT", "HMAT", "MCFG", "HPET", "DMAR", "HEST", "BERT", "ERST", "EINJ"]:
        L.append((t, f"ACPI: {tab} 0x{int(rng.integers(0x5d000000, 0x6fd00000)):016X} {int(rng.integers(0x24, 0x9000)):06X} (v{int(rng.integers(1, 6)):02d} DELL   PE_SC3   00000002 DELL 00000001)"))
    L.append((t, "NUMA: Initialized distance table, cnt=2"))
    L.append((t, "Zone ranges:"))
    L.append((t, "  DMA      [mem 0x0000000000001000-0x0000000000ffffff]"))
    L.append((t, "  DMA32    [mem 0x0000000001000000-0x00000000ffffffff]"))
    L.append((t, "  Normal   [mem 0x0000000100000000-0x000000407fffffff]"))
    L.append((t, "Kernel/User page tables isolation: disabled"))
    t = 0.31
    L.append((t, "x86: Booting SMP configuration:"))
    for node in range(2):
        L.append((t, f".... node  #{node}, CPUs:        #{1 + node * 56:>3d}"))
    t = 1.41
    L.append((t, "smp: Brought up 2 nodes, 224 CPUs"))
    L.append((t, "smpboot: Max logical packages: 2"))
    L.append((t, "smpboot: Total of 224 processors activated (896000.00 BogoMIPS)"))
    t = 1.98
    for r, bus in enumerate(["00", "15", "26", "37", "48", "59", "6a", "80", "97", "a7", "b7", "c7", "d7", "e7"]):
        L.append((t, f"ACPI: PCI Root Bridge [PC{r:02d}] (domain 0000 [bus {bus}-{int(bus, 16) + 0x10:02x}])"))
        L.append((t, f"acpi PNP0A08:{r:02x}: _OSC: OS supports [ExtendedConfig ASPM ClockPM Segments MSI EDR HPX-Type3]"))
        L.append((t, f"PCI host bridge to bus 0000:{bus}"))
        t += 0.01
    for bus in ["16", "27", "38", "49", "5a", "97", "a8", "b8", "c8", "d8"]:
        L.append((t, f"pci 0000:{bus}:00.0: [1000:c030] type 01 class 0x060400"))
        L.append((t, f"pci 0000:{bus}:00.0: PME# supported from D0 D3hot D3cold"))
        t += 0.002
    t = 3.2
    L.append((t, "DMAR: Intel(R) Virtualization Technology for Directed I/O"))
    L.append((t, "PCI-DMA: Using software bounce buffering for IO (SWIOTLB)"))
    L.append((t, "software IO TLB: mapped [mem 0x0000000057000000-0x000000005b000000] (64MB)"))
    L.append((t, "RAPL PMU: API unit is 2^-32 Joules, 2 fixed counters, 655360 ms ovfl timer"))
    L.append((t, "Initialise system trusted keyrings"))
    L.append((t, "Key type blacklist registered"))
    L.append((t, "workingset: timestamp_bits=36 max_order=29 bucket_order=0"))
    L.append((t, "Block layer SCSI generic (bsg) driver version 0.4 loaded (major 243)"))
    L.append((t, "io scheduler mq-deadline registered"))
    L.append((t, "Serial: 8250/16550 driver, 32 ports, IRQ sharing enabled"))
    L.append((t, "00:03: ttyS0 at I/O 0x3f8 (irq = 4, base_baud = 115200) is a 16550A"))
    L.append((t, "RAS: Correctable Errors collector initialized."))
    t = 5.9
    L.append((t, "ahci 0000:00:17.0: AHCI 0001.0301 32 slots 8 ports 6 Gbps 0xff impl SATA mode"))
    for p_ in range(1, 9):
        L.append((t + 0.3 * p_, f"ata{p_}: SATA link down (SStatus 0 SControl 300)"))
    L.append((10.2, "EDAC MC0: Giving out device to module i10nm_edac controller Intel_10nm Socket#0 IMC#0: DEV 0000:7e:0c.0 (INTERRUPT)"))
    L.append((10.2, "EDAC MC1: Giving out device to module i10nm_edac controller Intel_10nm Socket#0 IMC#1: DEV 0000:7e:0d.0 (INTERRUPT)"))
    L.append((10.3, "EDAC i10nm: v0.0.5"))
    L.append((10.4, "ipmi_si IPI0001:00: IPMI kcs interface initialized"))
    L.append((10.5, "ipmi_ssif: IPMI SSIF Interface driver"))
    L.append((12.0, "intel_rapl_common: Found RAPL domain package"))
    L.append((12.0, "intel_rapl_common: Found RAPL domain dram"))
    L.append((25.1, "Bridge firewalling registered"))
    L.append((25.4, "Initializing XFRM netlink socket"))
    L.append((30.2, "RPC: Registered named UNIX socket transport module."))
    L.append((30.2, "RPC: Registered udp transport module."))
    L.append((30.2, "RPC: Registered tcp transport module."))
    return L


def write_dmesg(h: str):
    boot = BOOT[h]
    rootuuid = "%08x-%04x-%04x-%04x-%012x" % tuple(int(x) for x in (rng.integers(0, 2**32), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**48)))
    lines = []
    for off, txt in BOOT_LINES:
        lines.append((boot + timedelta(seconds=off), txt.format(rootuuid=rootuuid, host=h)))
    for off, txt in extra_boot_lines():
        lines.append((boot + timedelta(seconds=off), txt))
    # sparse benign runtime messages from boot to collection
    t = boot + timedelta(minutes=30)
    seq = int(rng.integers(200, 900))
    while t < COLLECT:
        t += timedelta(seconds=float(rng.exponential(1.6 * 3600)))
        if t >= COLLECT:
            break
        msg = RUNTIME_BENIGN[int(rng.integers(0, len(RUNTIME_BENIGN)))]
        seq += int(rng.integers(1, 40))
        pid = int(rng.integers(1500, 3000))
        msg = msg.replace("{epoch}", f"{t.timestamp():.3f}").replace("{seq}", str(seq)).replace("{pid}", str(pid))
        lines.append((t, msg))
    # nvidia-nvswitch opens when fabric manager restarts / jobs start (seen in real kmsg)
    for jt in (JOB1_SRUN, JOB2_SRUN):
        if h == BAD_HOST and jt == JOB2_SRUN:
            continue
        for s in range(4):
            lines.append((jt + timedelta(seconds=18.4 + 0.0002 * s), f"nvidia-nvswitch{s}: open (major=510)"))
    if h == HOSTS[0]:
        for jt in (JOB1_SRUN, JOB2_SRUN):
            lines.append((jt + timedelta(seconds=27.3), "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters."))
    if h == BAD_HOST:
        for off, txt in GSP_BLOCK:
            lines.append((FIRST_XID + timedelta(seconds=off), txt))
    lines.sort(key=lambda x: x[0])
    p = os.path.join(OUT, "logs", h, "dmesg-T.txt")
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        for t, txt in lines:
            f.write(f"{dmesg_T(t)} {txt}\n")


# ----------------------------------------------------------------------------- logs: job output
def glog_time(t: datetime, ns: int) -> str:
    return f"{t.month:d}{t.day:02d} {t:%H:%M:%S}.{ns:09d}"


def label(task: int, width: int) -> str:
    return f"{task:>{width}}: "


def megatron_startup(out, t0, world, gbs, load_iter, width, ntasks):
    lab0 = label(0, width)
    t = t0
    def emit(task, txt, dt=0.0):
        nonlocal t
        t = t + timedelta(seconds=dt)
        out.append((t, label(task, width) + txt))
    for task in range(ntasks):
        pid = int(rng.integers(30000, 90000))
        ts = f"W{t:%m%d} {t:%H:%M:%S}.{int(rng.integers(0, 999)):03d}000 {pid} site-packages/torch/distributed/run.py:793] "
        out.append((t, label(task, width) + ts))
        out.append((t, label(task, width) + ts + "*****************************************"))
        out.append((t, label(task, width) + ts + "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        out.append((t, label(task, width) + ts + "*****************************************"))
    emit(0, f"using world size: {world}, data-parallel size: {world}, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ", 9.2)
    emit(0, "WARNING: Setting args.overlap_p2p_comm and args.align_param_gather to False since non-interleaved schedule does not support overlapping p2p communication and aligned param AG")
    emit(0, "using torch.bfloat16 for parameters ...")
    emit(0, "------------------------ arguments ------------------------")
    args = [("bf16", "True"), ("ckpt_format", "torch_dist"), ("data_parallel_size", str(world)),
            ("ffn_hidden_size", "14336"), ("global_batch_size", str(gbs)), ("hidden_size", "4096"),
            ("load", CKPT_DIR), ("log_interval", str(LOG_INTERVAL)), ("lr", "0.0003"),
            ("lr_decay_style", "cosine"), ("lr_warmup_iters", "2000"), ("micro_batch_size", "1"),
            ("min_lr", "3e-05"), ("num_attention_heads", "32"), ("num_layers", "32"),
            ("num_query_groups", "8"), ("overlap_grad_reduce", "True"), ("overlap_param_gather", "True"),
            ("save", CKPT_DIR), ("save_interval", str(SAVE_INTERVAL)), ("seq_length", str(SEQ)),
            ("tensor_model_parallel_size", "1"), ("train_iters", str(TRAIN_ITERS)),
            ("use_distributed_optimizer", "True"), ("world_size", str(world))]
    for k, v in args:
        emit(0, f"  {k} {'.' * (48 - len(k))} {v}")
    emit(0, "-------------------- end of arguments ---------------------")
    emit(0, "setting number of microbatches to constant 4", 0.01)
    emit(0, "> building HuggingFaceTokenizer tokenizer ...", 0.2)
    emit(0, " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)", 1.1)
    emit(0, "> initializing torch distributed ...", 0.1)
    emit(0, "> initialized tensor model parallel with size 1", 6.8)
    emit(0, "> initialized pipeline model parallel with size 1", 0.0)
    emit(0, "> setting random seeds to 1234 ...", 0.1)
    emit(0, "> compiling dataset index builder ...", 0.2)
    emit(0, ">>> done with dataset index builder. Compilation time: 0.061 seconds", 0.1)
    emit(0, "> compiling and loading fused kernels ...", 0.1)
    emit(0, ">>> done with compiling and loading fused kernels. Compilation time: 3.418 seconds", 3.4)
    emit(0, "building GPT model ...", 2.0)
    emit(0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8030261248", 4.3)
    emit(0, f" loading checkpoint from {CKPT_DIR} at iteration {load_iter}", 3.0)
    emit(0, f"  successfully loaded checkpoint from {CKPT_DIR} [ t 1/1, p 1/1 ] at iteration {load_iter}", 151.0)
    emit(0, "> building train, validation, and test datasets ...", 0.6)
    emit(0, " > datasets target sizes (minimum size):", 0.0)
    emit(0, f"    train:      {TRAIN_ITERS * gbs}", 0.0)
    emit(0, f"    validation: {(TRAIN_ITERS // 1000 + 1) * 10 * gbs}", 0.0)
    emit(0, "    test:       5120", 0.0)
    emit(0, "> finished creating GPT datasets ...", 41.0)
    return t


def megatron_iters(out, run, gbs, world, first_iter_consumed, width, last_task):
    cons = first_iter_consumed
    buf = []
    for (t, it, dt, save) in run:
        cons += gbs
        buf.append(dt + save)
        if save > 0:
            out.append((t - timedelta(seconds=save), label(0, width) + f"saving checkpoint at iteration {it:7d} to {CKPT_DIR} in torch_dist format"))
            out.append((t - timedelta(seconds=0.3), label(0, width) + f"  successfully saved checkpoint from iteration {it:7d} to {CKPT_DIR} [ t 1/1, p 1/1 ]"))
        if it % LOG_INTERVAL == 0:
            avg = sum(buf) / len(buf)
            buf = []
            tflops = FLOPS_PER_TOKEN * gbs * SEQ / (avg * world) / 1e12
            loss = 2.094 - 1.9e-5 * (it - 4500) + rng.normal(0, 0.018)
            gn = abs(0.262 + rng.normal(0, 0.025))
            line = (f" [{t:%Y-%m-%d %H:%M:%S}] iteration {it:8d}/{TRAIN_ITERS:8d} | consumed samples: {cons:12d} |"
                    f" elapsed time per iteration (ms): {avg * 1000:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} |"
                    f" learning rate: {lr_at(it):.6E} | global batch size: {gbs:5d} | lm loss: {loss:.6E} |"
                    f" loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations: {0:3d} |"
                    f" number of nan iterations: {0:3d} |")
            out.append((t, label(last_task, width) + line))


# --- the crash sequence: verbatim lines of lancedb/lance-distributed-training README.md
# (a real PyTorch 2.7 DDP watchdog timeout, ALLREDUCE, Timeout(ms)=600000); only the
# rank, timestamps, pids and host are adapted.
FRAMES_CHECK = [
    "frame #0: c10::Error::Error(c10::SourceLocation, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >) + 0x98 (0x7f92e62535e8 in /opt/conda/lib/python3.10/site-packages/torch/lib/libc10.so)",
    "frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::duration<long, std::ratio<1l, 1000l> > >) + 0x23d (0x7f92e756ea6d in /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
    "frame #2: c10d::ProcessGroupNCCL::watchdogHandler() + 0xc80 (0x7f92e75707f0 in /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
    "frame #3: c10d::ProcessGroupNCCL::ncclCommWatchdog() + 0x14d (0x7f92e7571efd in /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
    "frame #4: <unknown function> + 0xd8198 (0x7f92d7559198 in /opt/conda/bin/../lib/libstdc++.so.6)",
    "frame #5: <unknown function> + 0x7ea7 (0x7f933d48dea7 in /usr/lib/x86_64-linux-gnu/libpthread.so.0)",
    "frame #6: clone + 0x3f (0x7f933d25eadf in /usr/lib/x86_64-linux-gnu/libc.so.6)",
]
FRAMES_WD = [
    "frame #0: c10::Error::Error(c10::SourceLocation, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >) + 0x98 (0x7f92e62535e8 in /opt/conda/lib/python3.10/site-packages/torch/lib/libc10.so)",
    "frame #1: <unknown function> + 0x11b4abe (0x7f92e7540abe in /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
    "frame #2: <unknown function> + 0xe07bed (0x7f92e7193bed in /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so)",
    "frame #3: <unknown function> + 0xd8198 (0x7f92d7559198 in /opt/conda/bin/../lib/libstdc++.so.6)",
    "frame #4: <unknown function> + 0x7ea7 (0x7f933d48dea7 in /usr/lib/x86_64-linux-gnu/libpthread.so.0)",
    "frame #5: clone + 0x3f (0x7f933d25eadf in /usr/lib/x86_64-linux-gnu/libc.so.6)",
]
WORK = "WorkNCCL(SeqNum=20585, OpType=ALLREDUCE, NumelIn=1259621, NumelOut=1259621, Timeout(ms)=600000)"


def watchdog_block(r: int, t: datetime):
    def g(dt, fileline, msg):
        tt = t + timedelta(seconds=dt)
        ns = tt.microsecond * 1000 + int(rng.integers(0, 1000))
        return tt, f"[rank{r}]:[E{glog_time(tt, ns)} ProcessGroupNCCL.cpp:{fileline}] {msg}"
    pg = f"[PG ID 0 PG GUID 0(default_pg) Rank {r}]"
    L = [
        g(0.000, 632, f"[Rank {r}] Watchdog caught collective operation timeout: {WORK} ran for 600000 milliseconds before timing out."),
        g(0.0003, 2271, f"{pg}  failure detected by watchdog at work sequence id: 20585 PG status: last enqueued work: 20589, last completed work: 20584"),
        g(0.0004, 670, "Stack trace of the failed collective not found, potentially because FlightRecorder is disabled. You can enable it by setting TORCH_NCCL_TRACE_BUFFER_SIZE to a non-zero value."),
        g(0.0005, 2106, f"{pg} First PG on this rank to signal dumping."),
        g(0.32, 1746, f"{pg} Received a dump signal due to a collective timeout from this local rank and we will try our best to dump the debug info. Last enqueued NCCL work: 20589, last completed NCCL work: 20584.This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks, the order of collectives is not same for all ranks or the scheduled collective, for some reason, didn't run. Additionally, this can be caused by GIL deadlock or other reasons such as network errors or bugs in the communications library (e.g. NCCL), etc. "),
        g(0.3203, 1536, f"{pg} ProcessGroupNCCL preparing to dump debug info. Include stack trace: 1"),
        g(0.92, 684, f"[Rank {r}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."),
        g(0.9201, 698, f"[Rank {r}] To avoid data inconsistency, we are taking the entire process down."),
        g(0.922, 1899, f"{pg} Process group watchdog thread terminated with exception: [Rank {r}] Watchdog caught collective operation timeout: {WORK} ran for 600000 milliseconds before timing out."),
    ]
    tt = L[-1][0]
    exc = "Exception raised from checkTimeout at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:635 (most recent call first):"
    tail = [exc] + FRAMES_CHECK + ["", "terminate called after throwing an instance of 'c10::DistBackendError'",
            f"  what():  {pg} Process group watchdog thread terminated with exception: [Rank {r}] Watchdog caught collective operation timeout: {WORK} ran for 600000 milliseconds before timing out.",
            exc] + FRAMES_CHECK + ["", "Exception raised from ncclCommWatchdog at /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1905 (most recent call first):"] + FRAMES_WD + [""]
    return L + [(tt, x) for x in tail]


def child_failed_block(task, host, t, pid_agent, pid_child, local_rank, global_rank):
    out = [f"E{t:%m%d} {t:%H:%M:%S}.{int(rng.integers(0, 999)):03d}000 {pid_agent} site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: {local_rank} (pid: {pid_child}) of binary: /opt/conda/bin/python3.10",
           "Traceback (most recent call last):",
           '  File "/opt/conda/bin/torchrun", line 8, in <module>',
           "    sys.exit(main())",
           '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py", line 355, in wrapper',
           "    return f(*args, **kwargs)",
           '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py", line 892, in main',
           "    run(args)",
           '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/run.py", line 883, in run',
           "    elastic_launch(",
           '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 139, in __call__',
           "    return launch_agent(self._config, self._entrypoint, list(args))",
           '  File "/opt/conda/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 270, in launch_agent',
           "    raise ChildFailedError(",
           "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
           "============================================================",
           "pretrain_gpt.py FAILED",
           "------------------------------------------------------------",
           "Failures:",
           "  <NO_OTHER_FAILURES>",
           "------------------------------------------------------------",
           "Root Cause (first observed failure):",
           "[0]:",
           f"  time      : {t:%Y-%m-%d_%H:%M:%S}",
           f"  host      : {host}",
           f"  rank      : {global_rank} (local_rank: {local_rank})",
           f"  exitcode  : -6 (pid: {pid_child})",
           "  error_file: <N/A>",
           f"  traceback : Signal 6 (SIGABRT) received by PID {pid_child}",
           "============================================================"]
    return out


def write_job1():
    out = []
    W = 2
    out.append((JOB1_SRUN - timedelta(seconds=2), "Job 48213 on 16 nodes: gpu-r3-n[01-08],gpu-r4-n[01-08]"))
    out.append((JOB1_SRUN - timedelta(seconds=2), "MASTER_ADDR=gpu-r3-n01 MASTER_PORT=29500 NNODES=16 GPUS_PER_NODE=8"))
    megatron_startup(out, JOB1_SRUN + timedelta(seconds=19), 128, GBS1, 4500, W, 16)
    out.append((JOB1_TRAIN0, label(0, W) + f"[after dataloaders are built] datetime: {(JOB1_TRAIN0 - timedelta(seconds=2)):%Y-%m-%d %H:%M:%S} "))
    out.append((JOB1_TRAIN0, label(0, W) + "done with setup ..."))
    out.append((JOB1_TRAIN0, label(0, W) + "training ..."))
    out.append((JOB1_TRAIN0, label(0, W) + f"[before the start of training step] datetime: {JOB1_TRAIN0:%Y-%m-%d %H:%M:%S} "))
    megatron_iters(out, run1, GBS1, 128, 4500 * GBS1, W, 15)
    # --- hang: nothing is printed until the watchdog fires on every rank but 84 ---
    blocks = []
    for task in range(16):
        for lr_ in range(8):
            r = task * 8 + lr_
            if r == BAD_RANK:
                continue
            t0 = WATCHDOG + timedelta(seconds=0.15 * lr_ + float(rng.uniform(0.0, 0.9)))
            blocks.append((t0, task, watchdog_block(r, t0)))
    blocks.sort(key=lambda b: b[0])
    for t0, task, blk in blocks:
        for tt, txt in blk:
            out.append((tt, label(task, W) + txt))
    agent_pid = {h: int(rng.integers(20000, 60000)) for h in HOSTS}
    child_pid = {(h, l): agent_pid[h] + 9 + l for h in HOSTS for l in range(8)}
    exit_times = {}
    for task, h in enumerate(HOSTS):
        if h == BAD_HOST:
            tt = KILL + timedelta(seconds=1.1)
            ts = f"W{tt:%m%d} {tt:%H:%M:%S}.{int(rng.integers(0, 999)):03d}000 {agent_pid[h]} torch/distributed/elastic/multiprocessing/api.py:900] Sending process {child_pid[(h, BAD_GPU)]} closing signal SIGTERM"
            out.append((tt, label(task, W) + ts))
            continue
        tt = KILL + timedelta(seconds=float(rng.uniform(0.3, 1.6)))
        first_lr = int(rng.integers(0, 8))
        for x in child_failed_block(task, h, tt, agent_pid[h], child_pid[(h, first_lr)], first_lr, task * 8 + first_lr):
            out.append((tt, label(task, W) + x))
        exit_times[task] = tt + timedelta(seconds=0.4)
    first = min(exit_times.values())
    order = sorted(exit_times.items(), key=lambda kv: kv[1])
    out.append((first, f"srun: error: {HOSTS[order[0][0]]}: task {order[0][0]}: Exited with exit code 1"))
    out.append((first + timedelta(seconds=0.01), "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
    canc = first + timedelta(seconds=0.2)
    out.append((canc, label(0, W) + f"[{canc:%Y-%m-%dT%H:%M:%S}.{canc.microsecond // 1000:03d}] error: *** STEP 48213.0 ON gpu-r3-n01 CANCELLED AT {canc:%Y-%m-%dT%H:%M:%S} DUE TO TASK FAILURE ***"))
    for task, tt in order[1:]:
        out.append((tt + timedelta(seconds=0.3), f"srun: error: {HOSTS[task]}: task {task}: Exited with exit code 1"))
    out.append((first + timedelta(seconds=32.4), f"srun: error: {BAD_HOST}: task {BAD_IDX}: Killed"))
    out.append((first + timedelta(seconds=32.5), "srun: error: Timed out waiting for job step to complete"))
    write_sorted(out, os.path.join(OUT, "logs", "slurm-48213.out"))


def write_job2():
    out = []
    W = 2
    hosts2 = [h for h in HOSTS if h != BAD_HOST]
    out.append((JOB2_SRUN - timedelta(seconds=2), "Job 48297 on 15 nodes: gpu-r3-n[01-08],gpu-r4-n[01-02,04-08]"))
    out.append((JOB2_SRUN - timedelta(seconds=2), "MASTER_ADDR=gpu-r3-n01 MASTER_PORT=29500 NNODES=15 GPUS_PER_NODE=8"))
    megatron_startup(out, JOB2_SRUN + timedelta(seconds=19), 120, GBS2, last_ckpt, W, 15)
    out.append((JOB2_TRAIN0, label(0, W) + f"[after dataloaders are built] datetime: {(JOB2_TRAIN0 - timedelta(seconds=2)):%Y-%m-%d %H:%M:%S} "))
    out.append((JOB2_TRAIN0, label(0, W) + "done with setup ..."))
    out.append((JOB2_TRAIN0, label(0, W) + "training ..."))
    out.append((JOB2_TRAIN0, label(0, W) + f"[before the start of training step] datetime: {JOB2_TRAIN0:%Y-%m-%d %H:%M:%S} "))
    megatron_iters(out, run2, GBS2, 120, last_ckpt * GBS1, W, 14)
    write_sorted(out, os.path.join(OUT, "logs", "slurm-48297.out"))
    return hosts2


def write_sorted(out, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    out = sorted(enumerate(out), key=lambda x: (x[1][0], x[0]))
    with open(path, "w") as f:
        for _, (_, txt) in out:
            f.write(txt + "\n")


# ----------------------------------------------------------------------------- write everything
def write_metrics():
    os.makedirs(os.path.join(OUT, "metrics"), exist_ok=True)
    df = pl.DataFrame(dcgm_rows).sort(["timestamp", "Hostname", "gpu", "metric"])
    df.write_csv(os.path.join(OUT, "metrics", "dcgm-exporter.csv"))
    helps = {
        "node_uname_info": ("gauge", "Labeled system information as provided by the uname system call."),
        "node_boot_time_seconds": ("gauge", "Node boot time, in unixtime."),
        "node_load1": ("gauge", "1m load average."),
        "node_infiniband_port_data_received_bytes": ("counter", "Number of data octets received on all links"),
        "node_infiniband_port_data_transmitted_bytes": ("counter", "Number of data octets transmitted on all links"),
        "up": ("gauge", "Whether the scrape of the target succeeded (1) or not (0)."),
    }
    with open(os.path.join(OUT, "metrics", "node-exporter.om"), "w") as f:
        for fam, (typ, hlp) in helps.items():
            f.write(f"# HELP {fam} {hlp}\n# TYPE {fam} {typ}\n")
            name = fam + ("_total" if typ == "counter" else "")
            for (fm, lab), samples in om_series.items():
                if fm != fam:
                    continue
                for t, v in samples:
                    vs = f"{int(v)}" if float(v).is_integer() else repr(float(v))
                    f.write(f"{name}{lab} {vs} {t.timestamp():.3f}\n")
        f.write("# EOF\n")


def write_yaml():
    inc = {
        "id": ID,
        "title": "Llama-3-8B pretraining hangs, NCCL watchdog kills the job, restarted on 15 nodes",
        "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
        "baseline": {"start": WIN_START.isoformat(), "end": BASE_END.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "h100-a", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    last_it_before = run1[-1][1]
    truth = {
        "id": ID,
        "cause": ("The GSP firmware of GPU 4 (PCI 0000:9b:00.0, " + BAD_UUID + ") on gpu-r4-n03 stopped answering "
                  "RPCs (Xid 119), rank 84 never reached the ALLREDUCE, so all 128 ranks of the synchronous job hung "
                  "until the NCCL watchdog aborted them 600 s later."),
        "cause_metrics": ["DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE",
                          "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "up"],
        "cause_metrics_note": ("Only gpu-r4-n03 GPU 4 shows the cause: its XID gauge goes to 119, its other fields repeat the "
                               "last value for ~2.5 min and then vanish; the host's dcgm-exporter scrape fails 2 of 3 times "
                               "(up=0) until 06:47:50. Every other GPU stays at 100% utilisation during the hang (NCCL "
                               "kernels spinning) while power drops from ~650 W to ~170 W and tensor activity to ~0: that "
                               "is the effect, not the cause. IB byte counters on all hosts flatten at the same time."),
        "cause_log_evidence": [
            {"file": f"logs/{BAD_HOST}/dmesg-T.txt", "first_line_time": FIRST_XID.isoformat(),
             "lines": [t for o, t in GSP_BLOCK if "Xid" in t or "Rate limiting" in t],
             "full_block": "44 lines incl. the RPC history and call trace, verbatim",
             "source": "leptonai/gpud, components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log @ 4a8de33a3f02e207f39e9023d67125592d599731 (real Dell PowerEdge XE9680 dmesg -T, Apache-2.0); copy at /work/shared/reference/formats/gpu_kernel_logs_gpud/components__accelerator__nvidia__xid__dmesg-with-xid-119.log",
             "adapted": "timestamps only (shifted by a constant; relative spacing kept). Host hardware, PCI address 0000:9b:00, GPU4, UUID and pids are the source's."},
            {"file": "logs/slurm-48213.out", "first_line_time": WATCHDOG.isoformat(),
             "lines": ["[rank0]:[E917 06:51:37.xxxxxxxxx ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=20585, OpType=ALLREDUCE, NumelIn=1259621, NumelOut=1259621, Timeout(ms)=600000) ran for 600000 milliseconds before timing out.",
                       "... failure detected by watchdog at work sequence id: 20585 ...; Some NCCL operations have failed or timed out ...; To avoid data inconsistency, we are taking the entire process down.; Process group watchdog thread terminated with exception ...; terminate called after throwing an instance of 'c10::DistBackendError' (+ frames)",
                       "E0917 06:51:4x ... site-packages/torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -6) local_rank: N (pid: P) of binary: /opt/conda/bin/python3.10 (+ ChildFailedError report)"],
             "source": "lancedb/lance-distributed-training README.md (committed log of a real PyTorch 2.7 DDP run hitting the NCCL watchdog: ProcessGroupNCCL.cpp:632/2271/670/2106/1746/1536/684/698/1899, api.py:874 failed (exitcode: -6)); same wording as hiyouga/LlamaFactory#7396 and #8261 (https://github.com/hiyouga/LlamaFactory/issues/7396)",
             "adapted": "rank numbers (127 ranks, all but the hung rank 84), timestamps, pids, host name and the script name in the ChildFailedError report (trainer.py -> pretrain_gpt.py)"},
            {"file": "logs/slurm-48213.out",
             "lines": [f"W0917 06:51:4x ... torch/distributed/elastic/multiprocessing/api.py:900] Sending process P closing signal SIGTERM (task {BAD_IDX}, the hung rank's agent)"],
             "source": "ROCm/ROCm#5259 (https://github.com/ROCm/ROCm/issues/5259), torchrun output", "adapted": "timestamp, pids"},
            {"file": "logs/slurm-48213.out",
             "lines": ["srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                       "[2025-09-17T06:51:4x.xxx] error: *** STEP 48213.0 ON gpu-r3-n01 CANCELLED AT 2025-09-17T06:51:4x DUE TO TASK FAILURE ***",
                       "srun: error: Timed out waiting for job step to complete",
                       "srun: error: <host>: task N: Exited with exit code 1 / srun: error: gpu-r4-n03: task 10: Killed"],
             "source": "Slurm srun/slurmstepd messages as quoted in desispec/desihub#2744 (https://github.com/desihub/desispec/issues/2744), open-mpi/mtt#913, ZettaAI/zetta_utils#671",
             "adapted": "job/step id, host names, task numbers, timestamps"},
        ],
        "hosts": [BAD_HOST],
        "gpu": {"host": BAD_HOST, "index": BAD_GPU, "pci_bus_id": "00000000:9B:00.0", "uuid": BAD_UUID, "global_rank": BAD_RANK},
        "onset": ONSET.isoformat().replace("+00:00", "Z"),
        "onset_note": "GSP stops answering at 06:41:31; the first Xid 119 line is printed 6 s later (06:41:37). Last completed iteration "
                      f"{last_it_before} logged at {run1[-1][0]:%H:%M:%S}; iteration {hung_iter} never finished.",
        "timeline": {
            "fault": ONSET.isoformat(), "first_xid_line": FIRST_XID.isoformat(),
            "nccl_watchdog_abort": WATCHDOG.isoformat(), "job_48213_gone": (KILL + timedelta(seconds=35)).isoformat(),
            "job_48297_srun": JOB2_SRUN.isoformat(), "job_48297_first_step": JOB2_TRAIN0.isoformat(),
            "checkpoint_reloaded_iteration": last_ckpt, "iterations_redone": last_it_before - last_ckpt,
        },
        "job_throughput_loss_pct": 100.0,
        "job_throughput_loss_note": ("100% (no iteration completes) from 06:41:31 until the restarted job's first step at "
                                     f"{JOB2_TRAIN0:%H:%M:%S} (~{(JOB2_TRAIN0 - ONSET).total_seconds() / 60:.0f} min), plus "
                                     f"{last_it_before - last_ckpt} iterations (~{(last_it_before - last_ckpt) * BASE_DT / 60:.0f} min) recomputed from checkpoint "
                                     f"{last_ckpt}. After the restart the job runs on 120 GPUs with global batch 480: tokens/s is 6.25% "
                                     "lower than before because of the missing node, per-GPU throughput unchanged (not a slowdown)."),
        "what_a_good_postmortem_says": (
            "At 06:41:31 UTC GPU 4 (PCI 0000:9b:00) of gpu-r4-n03 stopped answering its GSP firmware (Xid 119, 'Timeout after 6s of "
            "waiting for RPC response from GPU4 GSP', then 'The GPU likely needs to be reset'), so rank 84 never joined the ALLREDUCE "
            "and the whole 128-GPU synchronous job stalled with every other GPU spinning at 100% utilisation but low power. "
            "The NCCL watchdog aborted all ranks 600 s later (06:51:37) and the operators restarted from checkpoint "
            f"{last_ckpt} on the 15 remaining nodes at 07:15 (first step 07:20), losing ~39 min of the cluster plus the recomputed "
            "iterations; the GPU must be reset/RMA'd before the node returns, and a Xid 119 alert with automatic drain plus a shorter "
            "NCCL timeout would have cut the loss."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=140, allow_unicode=True)


if __name__ == "__main__":
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    write_metrics()
    for h in HOSTS:
        write_dmesg(h)
    write_job1()
    write_job2()
    write_yaml()
    print("wrote", OUT)
