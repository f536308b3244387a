#!/usr/bin/env python3
"""Generate incident folder gpt7b-2023-10-17 (fixed seed).

Story (ground truth, written to truth.yaml):
  A Megatron-LM GPT 7B pretraining job, pure data parallel (128 ranks, distributed optimizer)
  on 16 HGX A100 nodes with 8 HDR InfiniBand rails each (mlx5_0..mlx5_7, one per GPU),
  launched with `srun --label`, NCCL 2.18 (NCCL_DEBUG=WARN).
  At ~14:06 UTC work in rack b08 disturbs two hosts' rail cables:
    * a100-b08-n03 mlx5_3 (rail 3) flaps twice (14:07:12, 14:07:49), comes back at 2X width
      (100 Gb/s instead of 200) and keeps logging symbol errors; NCCL prints
      "NET/IB : Got async event : port error" on the 8 ranks of that host at each flap.
    * a100-b08-n04 mlx5_5 (rail 5) stays up but from 14:07:31 has a high symbol error rate,
      receive errors and link error recoveries (its 16-bit symbol_error counter saturates at
      65535 later); dropped packets cost RC retransmit timeouts.
  The slow rail and the retransmits slow every inter-node collective of the synchronous job:
  throughput (known only from Megatron's 'elapsed time per iteration') drops ~5.5 %.
  Metrics hold only the exporters' data (node_exporter OpenMetrics, dcgm-exporter CSV).
"""
from __future__ import annotations

import datetime as dt
import math
import shutil
import uuid
from pathlib import Path

import numpy as np
import yaml

SEED = 20231017
RNG = np.random.default_rng(SEED)
INCIDENT_ID = "gpt7b-2023-10-17"
OUT = Path(__file__).resolve().parent / INCIDENT_ID
UTC = dt.timezone.utc


def T(s: str) -> dt.datetime:
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC)


WIN_START = T("2023-10-17T13:10:00")
WIN_END = T("2023-10-17T15:30:00")
EXPORT_START = T("2023-10-17T13:05:00")
EXPORT_END = T("2023-10-17T15:35:00")
SCRAPE = 30.0

JOB_ID = 2211734
SBATCH_START = T("2023-10-17T12:09:27")
FIRST_ITER = 18001
TRAIN_ITERS = 200000

HOSTS = [f"a100-b{r:02d}-n{n:02d}" for r in (7, 8) for n in range(1, 9)]
NH = len(HOSTS)
GPN = 8
RANKS = NH * GPN
HOST_A = "a100-b08-n03"   # mlx5_3 flaps, comes back at 2X
DEV_A = "mlx5_3"
HOST_B = "a100-b08-n04"   # mlx5_5 high symbol error rate, no flap
DEV_B = "mlx5_5"
HA, HB = HOSTS.index(HOST_A), HOSTS.index(HOST_B)
FLAP1 = T("2023-10-17T14:07:12.4")
FLAP1_DOWN = 4.1
FLAP2 = T("2023-10-17T14:07:49.9")
FLAP2_DOWN = 6.3
DISTURB = T("2023-10-17T14:06:20")
B_START = T("2023-10-17T14:07:31")
ONSET = FLAP1
IB_DEVS = [f"mlx5_{i}" for i in range(8)]
DRIVER = "535.104.05"
MODEL = "NVIDIA A100-SXM4-80GB"

GBS = 512
SEQ = 4096
BASE_ITER = 5.104   # s

# IB link error recovery events (short retrain, ~1-2 s stall of the collectives)
LER_A = [T("2023-10-17T14:31:05"), T("2023-10-17T15:02:44")]
LER_B = [T("2023-10-17T14:09:58"), T("2023-10-17T14:21:40"), T("2023-10-17T14:29:12"),
         T("2023-10-17T14:44:31"), T("2023-10-17T14:52:07"), T("2023-10-17T15:06:55"),
         T("2023-10-17T15:19:30"), T("2023-10-17T15:27:48")]


def uid() -> str:
    return "GPU-" + str(uuid.UUID(bytes=RNG.integers(0, 256, 16, dtype=np.uint8).tobytes()))


GPU_UUID = {(h, g): uid() for h in HOSTS for g in range(GPN)}


# ------------------------------------------------------------------ iterations
def build_iterations():
    """Return per-iteration (iteration, t_end, dur, extra_after) with eval/save pauses."""
    t = T("2023-10-17T12:13:41.6").timestamp() + 0.9     # [before the start of training step]
    it = FIRST_ITER - 1
    rows = []
    wander = 0.0
    stop = EXPORT_END.timestamp() + 400
    ler_all = sorted([x.timestamp() for x in LER_A + LER_B])
    li = 0
    while t < stop:
        it += 1
        wander = 0.98 * wander + RNG.normal(0, 0.0007)
        d = BASE_ITER * (1 + wander) * math.exp(RNG.normal(0, 0.0065))
        if t >= ONSET.timestamp():
            d *= 1.041                                    # rail 3 of one host at half rate
            if RNG.random() < 0.075:                      # RC retransmit timeout on rail 5
                d += RNG.uniform(0.85, 1.3)
        # the two flaps stall the collective for as long as the link is down (+ timeout)
        for fl, down in ((FLAP1, FLAP1_DOWN), (FLAP2, FLAP2_DOWN)):
            if t <= fl.timestamp() < t + d:
                d += down + 1.1
        while li < len(ler_all) and ler_all[li] < t + d:
            if ler_all[li] >= t:
                d += RNG.uniform(1.2, 2.2)
            li += 1
        extra = 0.0
        if it % 1000 == 0:
            extra += RNG.uniform(33, 38)        # evaluation, 20 eval iters
        if it % 500 == 0:
            extra += RNG.uniform(44, 52)        # save checkpoint (distributed optimizer, lustre)
        t += d
        rows.append((it, t, d, extra))
        t += extra
    return rows


ITERS = build_iterations()


def pace_at(ts: np.ndarray) -> np.ndarray:
    return np.where(ts >= ONSET.timestamp(), 1 / 1.056, 1.0)


PAUSES = [(r[1], r[1] + r[3]) for r in ITERS if r[3] > 0]


def in_pause(ts):
    m = np.zeros(ts.shape, bool)
    for a, b in PAUSES:
        m |= (ts >= a) & (ts < b)
    return m


# -------------------------------------------------------------------- scrapes
def scrape_times(offset):
    t0 = EXPORT_START.timestamp()
    n = int((EXPORT_END.timestamp() - t0) / SCRAPE) + 1
    ts = t0 + offset + np.arange(n) * SCRAPE + RNG.normal(0, 0.004, n)
    keep = RNG.random(n) > 0.002
    return np.round(ts[keep], 3)


def fmt_val(v: float) -> str:
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(float(v))


def fmt_prom_float(v: float) -> str:
    """Go's strconv.FormatFloat(v, 'g', -1, 64), which the Prometheus exposition uses."""
    from decimal import Decimal
    v = float(v)
    if v == 0:
        return "0"
    sign, digits, exp = Decimal(repr(v)).as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exp += 1
    nd = len(digits)
    dp = nd + exp
    x = dp - 1
    ds = "".join(map(str, digits))
    sg = "-" if sign else ""
    if x < -4 or x >= 6:
        m = ds[0] + ("." + ds[1:] if nd > 1 else "")
        return f"{sg}{m}e{'+' if x >= 0 else '-'}{abs(x):02d}"
    if dp <= 0:
        return f"{sg}0.{'0' * (-dp)}{ds}"
    if dp >= nd:
        return f"{sg}{ds}{'0' * (dp - nd)}"
    return f"{sg}{ds[:dp]}.{ds[dp:]}"


HOST_UPTIME = RNG.uniform(5, 24, NH) * 86400
# transmit wait counters: most were cleared at the last fabric maintenance, some saturated at 2^32-1
XW_SAT = RNG.random((NH, 8)) < 0.22


def node_exporter_om() -> str:
    fam: dict[str, dict] = {}

    def add(name, mtype, help_, labels: dict, ts: np.ndarray, vals: np.ndarray):
        f = fam.setdefault(name, {"type": mtype, "help": help_, "series": []})
        f["series"].append((labels, ts, vals))

    HELP = {
        "node_infiniband_port_data_received_bytes_total": "Number of data octets received on all links",
        "node_infiniband_port_data_transmitted_bytes_total": "Number of data octets transmitted on all links",
        "node_infiniband_symbol_error_total": "Number of minor link errors detected on one or more physical lanes.",
        "node_infiniband_link_error_recovery_total": "Number of times the link successfully recovered from an error state",
        "node_infiniband_link_downed_total": "Number of times the link failed to recover from an error state and went down",
        "node_infiniband_port_errors_received_total": "Number of packets containing an error that were received on this port",
        "node_infiniband_port_receive_remote_physical_errors_total": "Number of packets marked with the EBP (End of Bad Packet) delimiter received on the port.",
        "node_infiniband_local_link_integrity_errors_total": "Number of times that the count of local physical errors exceeded the threshold specified by LocalPhyErrors.",
        "node_infiniband_port_transmit_wait_total": "Number of ticks during which the port had data to transmit but no data was sent during the entire tick",
        "node_infiniband_rate_bytes_per_second": "Maximum signal transfer rate",
        "node_infiniband_state_id": "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)",
        "node_load1": "1m load average.",
        "node_memory_MemAvailable_bytes": "Memory information field MemAvailable_bytes.",
        "node_network_receive_bytes_total": "Network device statistic receive_bytes.",
        "node_network_transmit_bytes_total": "Network device statistic transmit_bytes.",
        "node_pressure_io_waiting_seconds_total": "Total time in seconds that processes have waited due to IO congestion",
        "node_disk_io_time_seconds_total": "Total seconds spent doing I/Os.",
        "node_filesystem_avail_bytes": "Filesystem space available to non-root users in bytes.",
        "up": None,
    }
    TYPES = {k: ("counter" if k.endswith("_total") else "gauge") for k in HELP}

    def A(name, labels, ts, vals):
        add(name, TYPES[name], HELP[name], labels, ts, vals)

    f1, f1e = FLAP1.timestamp(), FLAP1.timestamp() + FLAP1_DOWN
    f2, f2e = FLAP2.timestamp(), FLAP2.timestamp() + FLAP2_DOWN
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(RNG.uniform(0, SCRAPE))
        n = ts.size
        dts = np.diff(ts, prepend=ts[0] - SCRAPE)
        pz = in_pause(ts)
        pc = pace_at(ts)
        inst = f"{h}:9100"
        base = {"instance": inst, "job": "node"}
        A("up", base, ts, np.ones(n))
        A("node_load1", base, ts, np.round(np.clip(21 + RNG.normal(0, 1.6, n), 10, 40), 2))
        A("node_memory_MemAvailable_bytes", base, ts, np.round(8.71e11 + RNG.normal(0, 1.5e9, n) - pz * 4.1e10))
        A("node_pressure_io_waiting_seconds_total", base, ts,
          np.round(HOST_UPTIME[hi] * 0.02 + np.cumsum(dts * np.where(pz, 0.3, 0.004)), 6))
        A("node_disk_io_time_seconds_total", {**base, "device": "nvme0n1"}, ts,
          np.round(HOST_UPTIME[hi] * 0.011 + np.cumsum(dts * 0.012 * RNG.uniform(0.5, 1.5, n)), 3))
        A("node_filesystem_avail_bytes", {**base, "device": "/dev/md0", "fstype": "ext4", "mountpoint": "/"}, ts,
          3.4e11 - hi * 2.1e9 + RNG.integers(-3, 3, n) * 4096.0)
        eth_tx = np.where(pz, 6.1e8, 1.4e6) * RNG.uniform(0.8, 1.2, n)
        A("node_network_transmit_bytes_total", {**base, "device": "bond0"}, ts,
          np.round(HOST_UPTIME[hi] * 3e6 + np.cumsum(eth_tx * dts)))
        A("node_network_receive_bytes_total", {**base, "device": "bond0"}, ts,
          np.round(HOST_UPTIME[hi] * 2.4e6 + np.cumsum(1.1e6 * dts * RNG.uniform(0.8, 1.2, n))))
        for k, dev in enumerate(IB_DEVS):
            lab = {"device": dev, "instance": inst, "job": "node", "port": "1"}
            isA = hi == HA and dev == DEV_A
            isB = hi == HB and dev == DEV_B
            # traffic: ring reduce-scatter/all-gather of the distributed optimizer, ~4.6 GB/s per rail
            rate = 4.62e9 * pc * np.where(pz, 0.003, 1.0) * RNG.uniform(0.9, 1.1, n)
            if isA:
                down = ((ts >= f1) & (ts < f1e)) | ((ts >= f2) & (ts < f2e))
                rate = np.where(down, 0.0, rate)
            rx = HOST_UPTIME[hi] * 2.1e9 * RNG.uniform(0.95, 1.05) + np.cumsum(rate * dts)
            tx = HOST_UPTIME[hi] * 2.1e9 * RNG.uniform(0.95, 1.05) + np.cumsum(rate * dts * RNG.uniform(0.99, 1.01, n))
            A("node_infiniband_port_data_received_bytes_total", lab, ts, np.round(rx))
            A("node_infiniband_port_data_transmitted_bytes_total", lab, ts, np.round(tx))
            # error counters, healthy: constant small values since last clear
            sym0 = float(RNG.choice([0, 0, 0, 0, 0, 1, 3, 12]))
            ler0 = float(RNG.choice([0, 0, 0, 0, 1]))
            lkd0 = float(RNG.choice([0, 0, 0, 1, 2]))
            rcv0 = float(RNG.choice([0, 0, 0, 0, 2, 7]))
            sym = np.full(n, sym0)
            ler = np.full(n, ler0)
            lkd = np.full(n, lkd0)
            rcv = np.full(n, rcv0)
            rph = np.zeros(n)
            lli = np.zeros(n)
            xw_rate = 2.2e4 * pc * np.where(pz, 0.01, 1.0) * RNG.uniform(0.5, 1.5, n)
            rate_b = np.full(n, 2.5e10)
            st = np.full(n, 4.0)
            if isA:
                inc = np.zeros(n)
                inc += np.where((ts >= DISTURB.timestamp()) & (ts - dts < DISTURB.timestamp() + 60), 37, 0)
                inc += np.where((ts >= f1) & (ts - dts < f1), 910, 0)
                inc += np.where((ts >= f2) & (ts - dts < f2), 1473, 0)
                after = ts >= f2e
                inc += np.where(after, RNG.poisson(6, n), 0)
                sym = np.minimum(sym0 + np.cumsum(inc), 65535)
                lk_inc = np.where((ts >= f1) & (ts - dts < f1), 1, 0) + np.where((ts >= f2) & (ts - dts < f2), 1, 0)
                lkd = lkd0 + np.cumsum(lk_inc)
                ler_inc = np.where((ts >= f1 - 20) & (ts - dts < f1 - 20), 2, 0)
                for e in LER_A:
                    ler_inc = ler_inc + np.where((ts >= e.timestamp()) & (ts - dts < e.timestamp()), 1, 0)
                ler = ler0 + np.cumsum(ler_inc)
                rcv = rcv0 + np.cumsum(np.where(after, RNG.poisson(0.4, n), 0) + np.where((ts >= f1) & (ts - dts < f1), 12, 0))
                lli = np.cumsum(np.where((ts >= f1) & (ts - dts < f1), 1, 0) + np.where((ts >= f2) & (ts - dts < f2), 1, 0))
                rate_b = np.where(ts >= f2e, 1.25e10, 2.5e10)
                st = np.where(((ts >= f1) & (ts < f1e)) | ((ts >= f2) & (ts < f2e)), 1.0, 4.0)
                xw_rate = np.where(ts >= f2e, 3.9e5 * RNG.uniform(0.8, 1.2, n), xw_rate) * np.where(pz, 0.01, 1.0)
            if isB:
                on = ts >= B_START.timestamp()
                inc = np.where(on, RNG.gamma(2.0, 210.0, n), 0.0)
                inc = np.round(inc * (1 + 0.6 * np.sin((ts - B_START.timestamp()) / 700.0)))
                inc = np.clip(inc, 0, None)
                sym = np.minimum(sym0 + np.cumsum(inc), 65535)
                ler_inc = np.zeros(n)
                for e in LER_B:
                    ler_inc += np.where((ts >= e.timestamp()) & (ts - dts < e.timestamp()), 1, 0)
                ler = ler0 + np.cumsum(ler_inc)
                rcv = rcv0 + np.cumsum(np.where(on, RNG.poisson(9, n), 0))
                rph = np.cumsum(np.where(on, RNG.poisson(1.5, n), 0))
                lli = np.cumsum(ler_inc + np.where(on & (RNG.random(n) < 0.05), 1, 0))
            A("node_infiniband_symbol_error_total", lab, ts, sym)
            A("node_infiniband_link_error_recovery_total", lab, ts, np.minimum(ler, 255))
            A("node_infiniband_link_downed_total", lab, ts, np.minimum(lkd, 255))
            A("node_infiniband_port_errors_received_total", lab, ts, rcv)
            A("node_infiniband_port_receive_remote_physical_errors_total", lab, ts, rph)
            A("node_infiniband_local_link_integrity_errors_total", lab, ts, lli)
            if XW_SAT[hi, k] and not isA:
                xw = np.full(n, 4294967295.0)
            else:
                xw0 = RNG.uniform(0.4e9, 1.8e9)
                xw = np.minimum(np.round(xw0 + np.cumsum(xw_rate * dts)), 4294967295.0)
            A("node_infiniband_port_transmit_wait_total", lab, ts, xw)
            A("node_infiniband_rate_bytes_per_second", lab, ts, rate_b)
            A("node_infiniband_state_id", lab, ts, st)
    # render OpenMetrics: one family at a time, each series in time order
    out = []
    for name, f in fam.items():
        famname = name[:-6] if f["type"] == "counter" and name.endswith("_total") else name
        if f["help"]:
            out.append(f"# HELP {famname} {f['help']}")
        out.append(f"# TYPE {famname} {f['type'] if name != 'up' else 'gauge'}")
        for labels, ts, vals in f["series"]:
            ls = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
            for t, v in zip(ts, vals):
                if not (EXPORT_START.timestamp() <= t <= EXPORT_END.timestamp()):
                    continue
                out.append(f"{name}{{{ls}}} {fmt_prom_float(v)} {t:.3f}")
    out.append("# EOF")
    return "\n".join(out) + "\n"


def dcgm_csv() -> str:
    rows = ["timestamp,metric,value,instance,job,Hostname,gpu,UUID,device,modelName,DCGM_FI_DRIVER_VERSION"]
    toff = RNG.normal(0, 2.0, (NH, GPN))
    poff = RNG.normal(0, 9.0, (NH, GPN))
    pos = np.array([-1.5, -0.5, 0.5, 1.5, -1.0, 0.0, 1.0, 2.0])
    for hi, h in enumerate(HOSTS):
        ts = scrape_times(RNG.uniform(0, SCRAPE))
        n = ts.size
        pz = in_pause(ts)
        pc = pace_at(ts)
        for g in range(GPN):
            util = np.where(pz, RNG.integers(0, 15, n), 100 - (RNG.random(n) < 0.05) * RNG.integers(1, 6, n))
            sm = np.where(pz, 1410, np.clip(1380 + RNG.normal(0, 22, n), 1275, 1410))
            sm = np.round(sm / 15) * 15
            pw = np.where(pz, 88 + RNG.normal(0, 6, n), (341 + poff[hi, g]) * (0.6 + 0.4 * pc) + RNG.normal(0, 14, n))
            pw = np.minimum(pw, 400)
            temp = np.round(np.where(pz, -4, 0) + 58.5 + toff[hi, g] + pos[g] - (1 - pc) * 18 + RNG.normal(0, 0.5, n))
            tens = np.where(pz, RNG.uniform(0, 0.01, n), (0.512 + RNG.normal(0, 0.009, n)) * (0.05 + 0.95 * pc))
            lab = f"{h}:9400,dcgm,{h},{g},{GPU_UUID[(h, g)]},nvidia{g},{MODEL},{DRIVER}"
            for m, v in (("DCGM_FI_DEV_GPU_UTIL", util), ("DCGM_FI_DEV_SM_CLOCK", sm),
                         ("DCGM_FI_DEV_POWER_USAGE", np.round(pw, 3)), ("DCGM_FI_DEV_GPU_TEMP", temp),
                         ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6)),
                         ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n))):
                for t, x in zip(ts, v):
                    if EXPORT_START.timestamp() <= t <= EXPORT_END.timestamp():
                        rows.append(f"{t:.3f},{m},{fmt_val(x)},{lab}")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------------- logs
def dmesg_T(t: float) -> str:
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"[{d:%a %b} {d.day:2d} {d:%H:%M:%S %Y}]"


BOOT_TEMPLATE = [
    "Linux version 5.15.0-86-generic (buildd@lcy02-amd64-057) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #96-Ubuntu SMP Wed Sep 20 08:23:49 UTC 2023 (Ubuntu 5.15.0-86.96-generic 5.15.122)",
    "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-86-generic root=UUID=4c1f3e2a-9d1b-4c55-8f0e-7d2f1b6a9e30 ro iommu=pt pci=realloc=off numa_balancing=disable",
    "KERNEL supported cpus:",
    "  Intel GenuineIntel",
    "  AMD AuthenticAMD",
    "  Hygon HygonGenuine",
    "  Centaur CentaurHauls",
    "  zhaoxin   Shanghai  ",
    "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'",
    "x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'",
    "x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'",
    "x86/fpu: Enabled xstate features 0x207, context size is 840 bytes, using 'compacted' format.",
    "DMI: Supermicro AS -4124GO-NART/H12DSG-O-CPU, BIOS 2.5 05/30/2023",
    "tsc: Fast TSC calibration using PIT",
    "tsc: Detected 2445.425 MHz processor",
    "ACPI: SRAT: Node 0 PXM 0 [mem 0x00000000-0x7fffffff]",
    "ACPI: SRAT: Node 1 PXM 1 [mem 0x10080000000-0x2007fffffff]",
    "smpboot: Allowing 256 CPUs, 0 hotplug CPUs",
    "Memory: 2113412644K/2147022068K available (16393K kernel code, 4390K rwdata, 10868K rodata, 3340K init, 6552K bss, 33609424K reserved, 0K cma-reserved)",
    "smpboot: CPU0: AMD EPYC 7763 64-Core Processor (family: 0x19, model: 0x1, stepping: 0x1)",
    "smp: Brought up 2 nodes, 256 CPUs",
    "smpboot: Max logical packages: 2",
    "smpboot: Total of 256 processors activated (1252057.60 BogoMIPS)",
    "{PCI_ENUM}",
    "iommu: Default domain type: Passthrough (set via kernel command line)",
    "AMD-Vi: AMD IOMMUv2 loaded and initialized",
    "nvme nvme0: pci function 0000:c1:00.0",
    "nvme nvme0: 64/0/0 default/read/poll queues",
    " nvme0n1: p1 p2",
    "md/raid0:md0: md_size_sectors=7501209600",
    "EXT4-fs (md0): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.",
    "{MLX5_PROBE}",
    "nvidia: loading out-of-tree module taints kernel.",
    "nvidia: module license 'NVIDIA' taints kernel.",
    "nvidia-nvlink: Nvlink Core is being initialized, major device number 508",
    "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023",
    "nvidia-nvswitch: Probing device 0000:c4:00.0, Vendor Id = 0x10de, Device Id = 0x1af1, Class = 0x68000",
    "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  535.104.05  Sat Aug 19 00:59:57 UTC 2023",
    "nvidia_uvm: module uses symbols nvUvmInterfaceDisableAccessCntr from proprietary module nvidia, inheriting taint.",
    "nvidia-uvm: Loaded the UVM driver, major device number 506.",
    "Lustre: Lustre: Build Version: 2.15.3",
    "LNet: Added LNI 10.40.8.{oct}@o2ib [8/256/0/180]",
    "Lustre: Mounted fsw-client",
    "IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready",
]


IB_PCI = ["0c", "12", "4b", "54", "8d", "94", "ba", "cc"]
GPU_PCI = ["07", "0f", "47", "4e", "87", "90", "b7", "bd"]


def expand_boot(msg: str) -> list[str]:
    if msg == "{PCI_ENUM}":
        out = []
        for b in GPU_PCI:
            out.append(f"pci 0000:{b}:00.0: [10de:20b2] type 00 class 0x030200")
        for b in IB_PCI:
            out.append(f"pci 0000:{b}:00.0: [15b3:101b] type 00 class 0x020700")
        return out
    if msg == "{MLX5_PROBE}":
        out = []
        for b in IB_PCI:
            out += [f"mlx5_core 0000:{b}:00.0: firmware version: 20.38.1002",
                    f"mlx5_core 0000:{b}:00.0: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)",
                    f"mlx5_core 0000:{b}:00.0: Rate limit: 127 rates are supported, range: 0Mbps to 97656Mbps",
                    f"mlx5_core 0000:{b}:00.0: E-Switch: Total vports 2, per vport: max uc(128) max mc(2048)",
                    f"mlx5_core 0000:{b}:00.0: Port module event: module 0, Cable plugged",
                    f"mlx5_core 0000:{b}:00.0: mlx5_pcie_event:301:(pid {1400 + IB_PCI.index(b) * 7}): PCIe slot advertised sufficient power (75W)."]
        for i, b in enumerate(IB_PCI):
            out.append(f"mlx5_core 0000:{b}:00.0 ibp{int(b, 16)}s0: renamed from ib{i}")
        return out
    return [msg]


def write_dmesg():
    ddir = OUT / "logs" / "dmesg"
    ddir.mkdir(parents=True, exist_ok=True)
    collected = T("2023-10-17T16:02:00").timestamp()
    for hi, h in enumerate(HOSTS):
        boot = EXPORT_START.timestamp() - HOST_UPTIME[hi]
        lines = []

        def k(t, msg):
            lines.append((t, msg))

        bt = boot
        for i, tmpl in enumerate(BOOT_TEMPLATE):
            for msg in expand_boot(tmpl):
                bt += RNG.uniform(0.0, 0.05) if i < 24 else RNG.uniform(0.01, 0.4)
                k(bt, msg.replace("{oct}", str(20 + hi)))
        # earlier jobs on this host since boot: nvswitch opens at start, peermem at end
        t = boot + RNG.uniform(1200, 4000)
        while t < SBATCH_START.timestamp() - 1800:
            for sw in range(6):
                for _ in range(GPN):
                    k(t + sw * 1e-5, f"nvidia-nvswitch{sw}: open (major=507)")
            dur = RNG.uniform(3, 40) * 3600
            t_end = min(t + dur, SBATCH_START.timestamp() - 300)
            for _ in range(int(RNG.integers(1, 5))):
                k(t_end + _ * 4e-4, "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing")
            t = t_end + RNG.uniform(60, 3600)
        js = SBATCH_START.timestamp() + 5 + RNG.uniform(0, 1)
        for sw in range(6):
            for _ in range(GPN):
                k(js + 14 + sw * 1e-5 + _ * 2e-6, f"nvidia-nvswitch{sw}: open (major=507)")
        if hi == 0:
            k(js + 21.7, "TCP: request_sock_TCP: Possible SYN flooding on port 6000. Sending cookies.  Check SNMP counters.")
        if RNG.random() < 0.35:
            a = int(RNG.integers(2500, 4200))
            k(RNG.uniform(boot + 3600, collected), f"perf: interrupt took too long ({a + int(RNG.integers(1, 60))} > {a}), lowering kernel.perf_event_max_sample_rate to {int(250000 * 1000 / a / 10) * 10}")
        if hi in (5, 12):
            tt = RNG.uniform(WIN_START.timestamp(), WIN_END.timestamp())
            k(tt, "hrtimer: interrupt took 117412 ns" if hi == 5 else "clocksource: timekeeping watchdog on CPU84: hpet wd-wd read-back delay of 52124ns")
        lines = [(t, m) for t, m in lines if t <= collected]
        lines.sort(key=lambda x: x[0])
        (ddir / f"{h}.txt").write_text("\n".join(f"{dmesg_T(t)} {m}" for t, m in lines) + "\n")


def label(rank: int) -> str:
    return f"{rank:3d}: "


# The eight NCCL warnings on the flapping host: verbatim from Lightning-AI/lit-llama#380
# (host name adapted; pid:tid and everything else as in the source, in the source's order).
NCCL_PORT_ERROR = [
    "{host}:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34052:34141 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34055:34140 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34051:34143 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34054:34130 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34057:34142 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34053:34129 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
    "{host}:34056:34135 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
]


def write_trainer_log():
    ev = []   # (t, [lines]) ; lines already labelled

    def p(t, rank, text):
        ev.append((t, [label(rank) + x for x in text.split("\n")]))

    last = RANKS - 1
    t = SBATCH_START.timestamp() + 2.0
    args = {
        "accumulate_allreduce_grads_in_fp32": True, "adam_beta1": 0.9, "adam_beta2": 0.95, "adam_eps": 1e-08,
        "add_bias_linear": False, "apply_query_key_layer_scaling": False, "attention_dropout": 0.0,
        "bf16": True, "clip_grad": 1.0, "consumed_train_samples": 0, "context_parallel_size": 1,
        "data_parallel_size": 128, "data_path": "['/lustre/fsw/data/slimpajama_llama2tok/train_text_document']",
        "distributed_backend": "nccl", "eval_interval": 1000, "eval_iters": 20, "ffn_hidden_size": 11008,
        "fp16": False, "global_batch_size": GBS, "hidden_dropout": 0.0, "hidden_size": 4096,
        "init_method_std": 0.02, "load": "/lustre/fsw/gpt7b/checkpoints", "log_interval": 10,
        "lr": 0.0003, "lr_decay_iters": 200000, "lr_decay_style": "cosine", "lr_warmup_iters": 2000,
        "max_position_embeddings": 4096, "micro_batch_size": 1, "min_lr": 3e-05,
        "normalization": "RMSNorm", "num_attention_heads": 32, "num_layers": 32,
        "overlap_grad_reduce": True, "params_dtype": "torch.bfloat16", "pipeline_model_parallel_size": 1,
        "position_embedding_type": "rope", "rank": 0, "save": "/lustre/fsw/gpt7b/checkpoints",
        "save_interval": 500, "seed": 1234, "seq_length": SEQ, "sequence_parallel": False,
        "split": "990,8,2", "swiglu": True, "tensor_model_parallel_size": 1, "timing_log_level": 0,
        "timing_log_option": "minmax", "tokenizer_model": "/lustre/fsw/tokenizers/llama2/tokenizer.model",
        "tokenizer_type": "Llama2Tokenizer", "train_iters": TRAIN_ITERS, "untie_embeddings_and_output_weights": True,
        "use_distributed_optimizer": True, "use_flash_attn": True, "use_rotary_position_embeddings": True,
        "weight_decay": 0.1, "world_size": RANKS,
    }
    head = ["using world size: 128, data-parallel-size: 128, context-parallel-size: 1 tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ",
            "accumulate and all-reduce gradients in fp32 for bfloat16 data type.",
            "using torch.bfloat16 for parameters ...",
            "------------------------ arguments ------------------------"]
    arglines = sorted([f"  {a} {'.' * (48 - len(a))} {v}" for a, v in args.items()], key=lambda x: x.lower())
    head += arglines + ["-------------------- end of arguments ---------------------",
                        "setting number of micro-batches to constant 4",
                        "> building Llama2Tokenizer tokenizer ...",
                        " > padded vocab (size: 32000) with 0 dummy tokens (new size: 32000)",
                        "> initializing torch distributed ..."]
    p(t, 0, "\n".join(head))
    p(t + 9.1, 0, "> initialized tensor model parallel with size 1\n> initialized pipeline model parallel with size 1\n"
                  "> setting random seeds to 1234 ...\n> compiling dataset index builder ...\n"
                  "make: Entering directory '/workspace/Megatron-LM/megatron/data'\nmake: Nothing to be done for 'default'.\n"
                  "make: Leaving directory '/workspace/Megatron-LM/megatron/data'\n"
                  ">>> done with dataset index builder. Compilation time: 0.061 seconds\n> compiling and loading fused kernels ...")
    p(t + 12.5, 0, ">>> done with compiling and loading fused kernels. Compilation time: 2.904 seconds")
    p(t + 51.8, 0, "time to initialize megatron (seconds): 49.736")
    p(t + 51.9, 0, f"[after megatron is initialized] datetime: {dt.datetime.fromtimestamp(t + 51.9, UTC):%Y-%m-%d %H:%M:%S} ")
    p(t + 52.0, 0, "building GPT model ...")
    p(t + 54.3, 0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6738415616")
    p(t + 54.5, 0, "> learning rate decay style: cosine")
    p(t + 54.6, 0, " loading checkpoint from /lustre/fsw/gpt7b/checkpoints at iteration 18000")
    p(t + 55.0, 0, " checkpoint version 3.0")
    p(t + 78.9, 0, "  successfully loaded checkpoint from /lustre/fsw/gpt7b/checkpoints at iteration 18000")
    p(t + 79.0, last, "(min, max) time across ranks (ms):\n    load-checkpoint ................................: (24231.80, 24236.44)")
    p(t + 79.1, 0, f"[after model, optimizer, and learning rate scheduler are built] datetime: {dt.datetime.fromtimestamp(t + 79.1, UTC):%Y-%m-%d %H:%M:%S} ")
    p(t + 79.2, 0, "> building train, validation, and test datasets ...\n > datasets target sizes (minimum size):\n"
                   f"    train:      {TRAIN_ITERS * GBS}\n    validation: {(TRAIN_ITERS // 1000 + 1) * 20 * GBS}\n    test:       {20 * GBS}\n"
                   "> building train, validation, and test datasets for GPT ...")
    p(t + 240.0, 0, "> finished creating GPT datasets ...")
    t_before = ITERS[0][1] - ITERS[0][2]
    p(t_before - 0.8, 0, f"[after dataloaders are built] datetime: {dt.datetime.fromtimestamp(t_before - 0.8, UTC):%Y-%m-%d %H:%M:%S} ")
    p(t_before - 0.7, 0, "done with setup ...")
    p(t_before - 0.6, last, "(min, max) time across ranks (ms):\n    model-and-optimizer-setup ......................: (27115.62, 27140.03)\n"
                            "    train/valid/test-data-iterators-setup ..........: (160847.14, 161025.92)")
    p(t_before - 0.5, 0, "training ...")
    p(t_before - 0.1, 0, f"[before the start of training step] datetime: {dt.datetime.fromtimestamp(t_before - 0.1, UTC):%Y-%m-%d %H:%M:%S} ")

    # iteration log lines
    acc = 0.0
    nacc = 0
    loss = 2.0932
    lr0 = 3e-4
    first_save = True
    pending_extra = 0.0
    for it, te, d, extra in ITERS:
        acc += d + pending_extra
        pending_extra = 0.0
        nacc += 1
        if it % 10 == 0:
            ms = 1000 * acc / nacc
            loss -= 0.00009
            progress = (it - 2000) / (200000 - 2000)
            lr = 3e-5 + 0.5 * (lr0 - 3e-5) * (1 + math.cos(math.pi * progress))
            lline = (f" iteration {it:8d}/{TRAIN_ITERS:8d} | consumed samples: {it * GBS:12d} | "
                     f"elapsed time per iteration (ms): {ms:.1f} | learning rate: {lr:.3E} | global batch size: {GBS:5d} | "
                     f"lm loss: {loss + RNG.normal(0, 0.012):.6E} | loss scale: 1.0 | grad norm: {abs(0.205 + RNG.normal(0, 0.025)):.3f} | "
                     f"number of skipped iterations:   0 | number of nan iterations:   0 |")
            p(te + 0.01, last, lline)
            if it == FIRST_ITER + 9:
                p(te + 0.02, 0, "[Rank 0] (after 18010 iterations) memory (MB) | allocated: 26411.9365234375 | max allocated: 58716.02880859375 | reserved: 62906.0 | max reserved: 62906.0")
            acc = 0.0
            nacc = 0
        if extra > 0:
            pending_extra = extra   # counted in the next interval's elapsed time
            tt = te + 0.05
            if it % 1000 == 0:
                vl = 2.11 - (it - 18000) * 0.00001 + RNG.normal(0, 0.01)
                s = f" validation loss at iteration {it} | lm loss value: {vl:.6E} | lm loss PPL: {math.exp(vl):.6E} | "
                bar = "-" * (len(s) + 1)
                p(tt + 35.0, last, f"{bar}\n{s}\n{bar}")
                tt += 35.2
            if it % 500 == 0:
                p(tt, 0, f"saving checkpoint at iteration {it:7d} to /lustre/fsw/gpt7b/checkpoints")
                if first_save:
                    for r in range(RANKS):
                        p(tt + 3.0 + r * 0.002, r, "/usr/local/lib/python3.10/dist-packages/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()\n  return self.fget.__get__(instance, owner)()")
                    first_save = False
                save_ms = (te + extra - tt) * 1000
                p(te + extra - 0.3, 0, f"  successfully saved checkpoint at iteration {it:7d} to /lustre/fsw/gpt7b/checkpoints")
                p(te + extra - 0.1, last, f"(min, max) time across ranks (ms):\n    save-checkpoint ................................: ({save_ms - RNG.uniform(2, 9):.2f}, {save_ms:.2f})")
    # NCCL warnings of the flapping port, from the 8 ranks on HOST_A (ranks 80..87)
    base_rank = HA * GPN
    for fl in (FLAP1, FLAP2):
        tt = fl.timestamp() + 0.004
        for j, tmpl in enumerate(NCCL_PORT_ERROR):
            pid = int(tmpl.split(":")[1])
            r = base_rank + (pid - 34050)
            ev.append((tt + j * 0.0003, [label(r), label(r) + tmpl.format(host=HOST_A)]))
    ev.sort(key=lambda x: x[0])
    lines = [
        "++ scontrol show hostnames 'a100-b07-n[01-08],a100-b08-n[01-08]'",
        "++ head -n 1",
        "+ export MASTER_ADDR=a100-b07-n01",
        "+ MASTER_ADDR=a100-b07-n01",
        "+ export MASTER_PORT=6000",
        "+ MASTER_PORT=6000",
        "+ export NCCL_DEBUG=WARN NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 CUDA_DEVICE_MAX_CONNECTIONS=1",
        f"+ srun --label --ntasks-per-node=8 --cpus-per-task=16 --container-image=/lustre/fsw/images/nemo-23.08.sqsh --container-mounts=/lustre/fsw:/lustre/fsw python -u /workspace/Megatron-LM/pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --ffn-hidden-size 11008 --seq-length {SEQ} --max-position-embeddings 4096 --micro-batch-size 1 --global-batch-size {GBS} --train-iters {TRAIN_ITERS} --lr 3.0e-4 --min-lr 3.0e-5 --lr-decay-style cosine --lr-warmup-iters 2000 --weight-decay 0.1 --clip-grad 1.0 --bf16 --use-flash-attn --swiglu --normalization RMSNorm --use-rotary-position-embeddings --untie-embeddings-and-output-weights --disable-bias-linear --use-distributed-optimizer --overlap-grad-reduce --tokenizer-type Llama2Tokenizer --tokenizer-model /lustre/fsw/tokenizers/llama2/tokenizer.model --data-path /lustre/fsw/data/slimpajama_llama2tok/train_text_document --split 990,8,2 --log-interval 10 --eval-interval 1000 --eval-iters 20 --save-interval 500 --save /lustre/fsw/gpt7b/checkpoints --load /lustre/fsw/gpt7b/checkpoints",
    ]
    stop = EXPORT_END.timestamp() + 300
    for t, ls in ev:
        if t > stop:
            break
        lines.extend(ls)
    (OUT / "logs").mkdir(parents=True, exist_ok=True)
    (OUT / "logs" / f"slurm-{JOB_ID}.out").write_text("\n".join(lines) + "\n")


def loss_pct():
    # from the logged elapsed time per iteration, excluding intervals with eval/save
    lg = []
    acc, nacc, pend, pflag = 0.0, 0, 0.0, False
    for it, te, d, extra in ITERS:
        acc += d + pend
        had = pend > 0
        pend = 0.0
        nacc += 1
        pflag = pflag or had
        if it % 10 == 0:
            lg.append((te, acc / nacc, pflag))
            acc, nacc, pflag = 0.0, 0, False
        if extra > 0:
            pend = extra
    lg = np.array([(a, b) for a, b, f in lg if not f])
    base = lg[(lg[:, 0] >= WIN_START.timestamp()) & (lg[:, 0] < ONSET.timestamp())][:, 1]
    aft = lg[(lg[:, 0] >= ONSET.timestamp() + 120) & (lg[:, 0] < WIN_END.timestamp())][:, 1]
    return float(round(100 * (1 - base.mean() / aft.mean()), 2))


def write_yaml():
    inc = {
        "id": INCIDENT_ID,
        "title": "GPT 7B pretraining: iterations slower since early afternoon",
        "window": {"start": WIN_START.isoformat(), "end": WIN_END.isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "a100-fsw", "nodes": NH, "gpus_per_node": GPN, "gpu_model": "A100"},
        "signal_pack": "default",
    }
    with open(OUT / "incident.yaml", "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    lp = loss_pct()
    src = ("https://github.com/Lightning-AI/lit-llama/issues/380 (issue body, 2023-06-10: a 4-node Slurm "
           "LLaMA pretraining whose log shows these eight lines from node '...-48', then 'Got completion from "
           "peer ... with error 12'). Only the host name was adapted (the source redacts it to '...-48'); pid:tid, "
           "cudaDev, file:line and text are verbatim. Same message discussed as a flapping link in "
           "https://github.com/NVIDIA/nccl/issues/905.")
    truth = {
        "id": INCIDENT_ID,
        "cause": (f"Cable disturbance during rack b08 work degraded two hosts' InfiniBand rails: {HOST_A} {DEV_A} "
                  f"flapped twice and came back at 2X width (100 instead of 200 Gb/s) and {HOST_B} {DEV_B} ran with a "
                  f"high symbol/receive error rate and link error recoveries, slowing every inter-node collective of "
                  f"the synchronous data-parallel job."),
        "cause_metrics": [
            "node_infiniband_link_downed_total", "node_infiniband_rate_bytes_per_second",
            "node_infiniband_symbol_error_total", "node_infiniband_link_error_recovery_total",
            "node_infiniband_port_errors_received_total", "node_infiniband_port_receive_remote_physical_errors_total",
            "node_infiniband_local_link_integrity_errors_total", "node_infiniband_port_transmit_wait_total",
            "node_infiniband_state_id",
        ],
        "cause_log_evidence": [
            {"file": f"logs/slurm-{JOB_ID}.out", "host": HOST_A,
             "times": [FLAP1.isoformat().replace("+00:00", "Z"), FLAP2.isoformat().replace("+00:00", "Z")],
             "note": ("8 lines per flap, one per rank 80-87 (srun --label prefixes ' 80: '..' 87: '); NCCL_DEBUG=WARN "
                      "prints an empty line before each WARN, kept. The lines carry no timestamp: they sit between "
                      "Megatron iteration lines."),
             "lines": [x.format(host=HOST_A) for x in NCCL_PORT_ERROR],
             "source": src},
        ],
        "cause_log_evidence_note": (f"{HOST_B} {DEV_B} never went down, so no NCCL async event and no kernel line: its "
                                    f"fault is visible only in the node_exporter InfiniBand counters. Neither host's "
                                    f"dmesg has an InfiniBand line (mlx5 does not log IB port state changes)."),
        "distractors": [
            {"what": "checkpoint saves every 500 iterations (~48 s, inflate the next 'elapsed time per iteration') and evaluation every 1000"},
            {"what": "port_transmit_wait counters saturated at 4294967295 on ~20% of rails (flat, no information)"},
            {"what": f"{HOST_B} {DEV_B} symbol_error counter saturates at 65535 (16-bit) at ~15:27 although errors continue"},
        ],
        "hosts": [HOST_A, HOST_B],
        "devices": [{"host": HOST_A, "device": DEV_A, "port": "1"}, {"host": HOST_B, "device": DEV_B, "port": "1"}],
        "gpu": None,
        "onset": ONSET.isoformat().replace("+00:00", "Z"),
        "job_throughput_loss_pct": lp,
        "throughput_source": ("Megatron-LM 'elapsed time per iteration (ms)' with global batch size 512 and seq_length "
                              "4096 from the argument dump (tokens/s = 512*4096/step time); Megatron 2023 lines carry no "
                              "timestamp: times follow from '[before the start of training step] datetime:' plus elapsed times."),
        "what_a_good_postmortem_says": (
            f"From {ONSET:%H:%M} UTC every iteration of the job took ~{100 * (1 / (1 - lp / 100) - 1):.1f}% longer "
            f"(throughput -{lp:.1f}%) because two InfiniBand rails in rack b08 degraded at the same time: {HOST_A} "
            f"{DEV_A} went down twice (link_downed +2, NCCL 'port error' on ranks 80-87) and came back at 100 Gb/s "
            f"(node_infiniband_rate_bytes_per_second halved, transmit wait climbing), and {HOST_B} {DEV_B} has been "
            f"accumulating symbol errors, receive errors and link error recoveries since 14:07 without going down. "
            f"The GPUs are not at fault (all GPUs slow together, no Xid); reseat or replace the two cables/transceivers "
            f"(check the switch side with ibqueryerrors/UFM) or exclude the two nodes and restart from the last checkpoint."),
    }
    with open(OUT / "truth.yaml", "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "metrics").mkdir(parents=True)
    (OUT / "metrics" / "node-exporter.om").write_text(node_exporter_om())
    (OUT / "metrics" / "dcgm-exporter.csv").write_text(dcgm_csv())
    write_dmesg()
    write_trainer_log()
    write_yaml()
    print("wrote", OUT, "loss", loss_pct())


if __name__ == "__main__":
    main()
