#!/usr/bin/env python3
"""Writes the incident folder a100-spine-congestion-2023-06-14 (fixed seed).

Story (ground truth, also in truth.yaml):
  Slurm job 1450231 trains a 13B GPT with Megatron-DeepSpeed (TP=2, DP=96, ZeRO-1) on 24
  DGX A100 hosts (dgxa-[041-064], 192 GPUs, 8 x HDR InfiniBand each). At 10:34:48 UTC another
  tenant's 64-node job (1450377, dgxa-[101-164]) starts; from ~10:37:30 its all-to-all traffic
  congests the spine switches the two jobs share. InfiniBand transmit wait climbs on 21 of
  our 24 hosts at once, the job's NCCL collectives take longer and every iteration slows ~6%
  until the other job ends at 11:33:41. No host logs an error.
  Meanwhile dgxa-052 GPU 5 (in our job) has a burst of 177 correctable DRAM ECC errors from
  10:29, the driver logs Xid 63 (row remapping pending) at 10:47:12 and the on-call pulls
  nvidia-smi -q at 11:02. That GPU kept pace with its peers throughout: it is a distractor.

Only numpy, polars, pyarrow (through polars) and pyyaml are used.
"""
import datetime as dt
import os
import shutil

import numpy as np
import polars as pl
import yaml

SEED = 140623
ID = "a100-spine-congestion-2023-06-14"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ID)
UTC = dt.timezone.utc
rng = np.random.default_rng(SEED)

T0 = dt.datetime(2023, 6, 14, 9, 0, 0, tzinfo=UTC)
T1 = dt.datetime(2023, 6, 14, 13, 0, 0, tzinfo=UTC)
WIN = (T1 - T0).total_seconds()
SCRAPE = 15.0


def ts(s):
    return T0 + dt.timedelta(seconds=float(s))


def sec(h, m, s=0.0, day=14):
    return (dt.datetime(2023, 6, day, h, m, 0, tzinfo=UTC) - T0).total_seconds() + s


HOSTS = [f"dgxa-{i:03d}" for i in range(41, 65)]
IP = {h: f"10.31.4.{int(h[-3:])}" for h in HOSTS}
GPUS = 8
PCI = ["07", "0F", "47", "4E", "87", "90", "B7", "BD"]
MODEL = "NVIDIA A100-SXM4-80GB"
DRIVER = "510.73.08"
JOBID = 1450231
OTHER_JOB = 1450377
ECC_HOST, ECC_GPU = "dgxa-052", 5
MILD = {"dgxa-046", "dgxa-047", "dgxa-059"}       # hosts whose uplinks saw little of the congestion
IB_COMPUTE = ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9"]
IB_STORAGE = ["mlx5_4", "mlx5_5"]

JOB_START = sec(22, 14, 3, day=13)
FIRST_STEP = sec(22, 18, 43.4, day=13)
START_ITER = 12000
TRAIN_ITERS = 286102
GBS, SEQ = 1536, 2048
OTHER_ALLOC = sec(10, 34, 48.6)
CONG_ON = sec(10, 37, 30)
CONG_OFF = sec(11, 33, 30)
OTHER_END = sec(11, 33, 41.2)
OTHER_PAUSE = (sec(11, 5, 10), sec(11, 9, 40))       # the other job's checkpoint: fabric quiet
SBE_START, SBE_END = sec(10, 29, 31), sec(10, 52, 8)
XID_T = sec(10, 47, 12)
SMI_T = sec(11, 2, 41)


def congestion(t):
    """0..1 intensity of the other tenant's traffic on the shared spines"""
    on = np.clip((t - CONG_ON) / 75.0, 0, 1) * np.clip((CONG_OFF + 40 - t) / 40.0, 0, 1)
    pause = ((t > OTHER_PAUSE[0]) & (t < OTHER_PAUSE[1])).astype(float) if np.ndim(t) else float(OTHER_PAUSE[0] < t < OTHER_PAUSE[1])
    return on * (1 - 0.85 * pause)


# ---------------------------------------------------------------- iteration simulation
def simulate():
    steps = []
    t = FIRST_STEP
    it = START_ITER
    cong_noise = 0.0
    while t < WIN + 400:
        c = 7.06 * (1 + 0.004 * rng.standard_normal())
        m_intra = 0.17 * (1 + 0.03 * rng.standard_normal())
        m_inter = 1.12 * (1 + 0.025 * rng.standard_normal())
        cong_noise = 0.85 * cong_noise + 0.25 * rng.standard_normal()
        k = congestion(t)
        slow = 1 + k * max(0.08, 0.55 * (1 + cong_noise * 0.5))
        m_inter *= slow
        opt = 0.105 * (1 + 0.02 * rng.standard_normal())
        hic = rng.uniform(0.05, 0.5) if rng.random() < 0.01 else 0.0
        dur = c + m_intra + m_inter + opt + hic
        rec = dict(it=it + 1, start=t, c=c, comm=m_intra + m_inter, opt=opt, dur=dur, ckpt=0.0, k=k)
        t += dur
        it += 1
        if it % 1000 == 0:
            ck = 78.0 + 6 * rng.standard_normal()
            rec["ckpt"] = ck
            t += ck
        rec["end"] = t
        steps.append(rec)
    return steps


STEPS = simulate()


def rate(a, b):
    """tokens per second of training time (checkpoint saves left out)"""
    rs = [r for r in STEPS if a <= r["start"] and r["end"] <= b]
    return len(rs) * GBS * SEQ / sum(r["dur"] for r in rs)


BASE = rate(0, sec(10, 20))
CONG = rate(CONG_ON, CONG_OFF)
AFTER = rate(CONG_OFF + 120, sec(12, 15))
LOSS = 100 * (1 - CONG / BASE)

# ---------------------------------------------------------------- fine grid states
DTF = 0.5
GRID = np.arange(-180.0, WIN + 60, DTF)
ST_IDLE, ST_COMP, ST_COMM, ST_CKPT = range(4)


def build_state():
    b = [-1e9]
    s = [ST_IDLE]
    for r in STEPS:
        b += [r["start"], r["start"] + r["c"], r["start"] + r["c"] + r["comm"]]
        s += [ST_COMP, ST_COMM, ST_COMP]
        if r["ckpt"] > 0:
            b.append(r["end"] - r["ckpt"])
            s.append(ST_CKPT)
    b = np.array(b)
    s = np.array(s)
    return s[np.searchsorted(b, GRID, side="right") - 1]


STATE = build_state()
CONG_GRID = congestion(GRID)
# activity per state: util, tensor, gr, dram, power above idle (W), nvlink B/s, ib B/s per port
ACT = {ST_IDLE: (0, 0, 0, 0, 0, 0, 0),
       ST_COMP: (1.0, 0.47, 0.985, 0.52, 295.0, 35e9, 1.9e9),
       ST_COMM: (1.0, 0.015, 0.955, 0.12, 120.0, 140e9, 11.5e9),
       ST_CKPT: (0.05, 0.0, 0.04, 0.01, 22.0, 0.1e9, 0.0)}


def lut(k):
    return np.array([ACT[s][k] for s in range(4)])[STATE]


def target_times(off):
    r = np.random.default_rng(SEED + off)
    t = np.arange(r.uniform(0, SCRAPE), WIN, SCRAPE)
    t = t + r.normal(0, 0.003, t.size)
    keep = r.random(t.size) > 0.001
    return np.round(t[keep], 3)


def grid_avg(x, t, span):
    c = np.concatenate([[0.0], np.cumsum(x) * DTF])
    i1 = np.clip(np.searchsorted(GRID, t, side="right"), 0, GRID.size)
    i0 = np.clip(np.searchsorted(GRID, t - span, side="right"), 0, GRID.size)
    return (c[i1] - c[i0]) / np.maximum((i1 - i0) * DTF, 1e-9)


def grid_int(x, t):
    c = np.concatenate([[0.0], np.cumsum(x) * DTF])
    return c[np.clip(np.searchsorted(GRID, t, side="right"), 0, GRID.size)]


def ar1(n, phi, sigma, r):
    e = r.normal(0, sigma, n)
    y = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc = phi * acc + e[i]
        y[i] = acc
    return y


def to_dt(tsec):
    base = np.datetime64("2023-06-14T09:00:00", "ms")
    return base + (np.asarray(tsec) * 1000).astype("int64").astype("timedelta64[ms]")


def uuid(r):
    s = "".join("0123456789abcdef"[i] for i in r.integers(0, 16, 32))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}"


def frame(tt, metric, v, labels):
    n = tt.size
    return pl.DataFrame({"timestamp": to_dt(tt), "metric": [metric] * n, "value": np.asarray(v, float),
                         **{k: [val] * n for k, val in labels.items()}})


# ---------------------------------------------------------------- DCGM
def build_dcgm():
    util_i, ten_i, gr_i, dram_i, pw_i, nv_i = (lut(k) for k in range(6))
    frames = []
    for hi, h in enumerate(HOSTS):
        tt = target_times(100 + hi)
        n = tt.size
        r = np.random.default_rng(SEED + 1000 + hi)
        h_toff = r.normal(0, 2.0)
        util_s = grid_avg(util_i, tt, 1.0)
        ten_s = grid_avg(ten_i, tt, 1.0)
        gr_s = grid_avg(gr_i, tt, 1.0)
        dram_s = grid_avg(dram_i, tt, 1.0)
        for g in range(GPUS):
            rg = np.random.default_rng(SEED + 5000 + hi * 10 + g)
            gid = uuid(rg)
            p_idle = 57.0 + rg.normal(0, 2.0)
            eff = 1 + rg.normal(0, 0.03)              # silicon lottery: power for the same work
            p_inst = p_idle + eff * pw_i
            # A100 power cap 400 W: clocks come down when the demand would exceed it
            demand = grid_avg(p_inst, tt, 1.0)
            cap = 400.0
            over = np.clip(demand - (cap - 8), 0, None)
            p_s = np.minimum(demand, cap - 2 + rg.normal(0, 2.5, n)) + rg.normal(0, 3.5, n) * (demand > 100)
            sm = np.where(util_s > 0.05, 1410.0 - 15.0 * np.round(over / 6.0 + np.abs(rg.normal(0, 0.5, n))), 210.0)
            sm = np.clip(sm, 1095.0, 1410.0)
            p45 = grid_avg(p_inst, tt, 45.0)
            t_off = h_toff + rg.normal(0, 1.7) + (2.0 if g in (2, 3) else 0.0)
            gtemp = 24.0 + t_off + 0.095 * p45 + ar1(n, 0.8, 0.3, rg)
            mtemp = 26.0 + 1.1 * t_off + 0.11 * p45 + ar1(n, 0.8, 0.35, rg)
            util = np.clip(np.round(util_s * 100 - np.abs(rg.normal(0, 0.7, n)) * (util_s > 0.05)), 0, 100)
            ten = np.clip(ten_s * (1 + rg.normal(0, 0.012, n)), 0, 1)
            gr = np.clip(gr_s * (1 + rg.normal(0, 0.004, n)), 0, 1)
            dram = np.clip(dram_s * (1 + rg.normal(0, 0.02, n)), 0, 1)
            energy = np.floor(rg.uniform(1.05e11, 1.25e11) + grid_int(p_inst, tt) * 1000.0)
            nvl = np.floor(rg.uniform(6e15, 9e15) + grid_int(nv_i, tt) / 1024.0)
            replay = np.full(n, 0.0 if rg.random() < 0.85 else float(rg.integers(1, 12)))
            fb = np.round(np.where(STATE[np.searchsorted(GRID, tt) - 1] >= 0, 61873 + 900 * rg.random(), 0) + rg.integers(-4, 4, n))
            sbe_v = np.zeros(n)
            sbe_a = np.full(n, 0.0)
            corr_rows = np.zeros(n)
            pend = np.zeros(n)
            xid = np.zeros(n)
            if h == ECC_HOST and g == ECC_GPU:
                # 177 correctable DRAM errors in bursts between SBE_START and SBE_END
                re = np.random.default_rng(SEED + 66)
                times = np.sort(np.concatenate([
                    re.uniform(SBE_START, SBE_START + 240, 21),
                    re.uniform(sec(10, 38), sec(10, 41), 38),
                    re.uniform(sec(10, 44, 30), XID_T, 71),
                    re.uniform(XID_T, SBE_END, 47)]))
                assert times.size == 177
                sbe_v = np.searchsorted(times, tt, side="right").astype(float)
                sbe_a = sbe_v.copy()
                corr_rows = (tt >= XID_T + 0.4).astype(float)
                pend = (tt >= XID_T + 0.4).astype(float)
                xid = np.where(tt >= XID_T + 0.4, 63.0, 0.0)
            labels = dict(gpu=str(g), UUID=gid, device=f"nvidia{g}", modelName=MODEL, Hostname=h,
                          pci_bus_id=f"00000000:{PCI[g]}:00.0", DCGM_FI_DRIVER_VERSION=DRIVER,
                          instance=f"{IP[h]}:9400", job="dcgm")
            cols = {
                "DCGM_FI_DEV_GPU_UTIL": util,
                "DCGM_FI_DEV_SM_CLOCK": sm,
                "DCGM_FI_DEV_GPU_TEMP": np.round(gtemp),
                "DCGM_FI_DEV_MEMORY_TEMP": np.round(mtemp),
                "DCGM_FI_DEV_POWER_USAGE": np.round(p_s, 3),
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": energy,
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
                "DCGM_FI_DEV_XID_ERRORS": xid,
                "DCGM_FI_DEV_FB_USED": fb,
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": nvl,
                "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL": sbe_v,
                "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL": np.zeros(n),
                "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL": sbe_a,
                "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL": np.zeros(n),
                "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": corr_rows,
                "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": np.zeros(n),
                "DCGM_FI_DEV_ROW_REMAP_FAILURE": np.zeros(n),
                "DCGM_FI_DEV_ROW_REMAP_PENDING": pend,
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(ten, 6),
                "DCGM_FI_PROF_DRAM_ACTIVE": np.round(dram, 6),
            }
            for name, v in cols.items():
                frames.append(frame(tt, name, v, labels))
    return pl.concat(frames)


# ---------------------------------------------------------------- node_exporter
def build_node():
    frames = []
    ib_i = lut(6)
    for hi, h in enumerate(HOSTS):
        tt = target_times(300 + hi)
        n = tt.size
        r = np.random.default_rng(SEED + 9000 + hi)
        inst = f"{IP[h]}:9100"
        base = dict(instance=inst, job="node")
        dts = np.diff(np.concatenate([[tt[0] - SCRAPE], tt]))
        ib_act = grid_avg(ib_i, tt, SCRAPE)
        cong = grid_avg(CONG_GRID, tt, SCRAPE)
        for p in IB_COMPUTE:
            rp = np.random.default_rng(SEED + 20000 + hi * 20 + IB_COMPUTE.index(p))
            bal = 1 + rp.normal(0, 0.025)
            tx = np.floor(rp.uniform(1.1e15, 1.6e15) + np.cumsum(ib_act * bal * dts * (1 + rp.normal(0, 0.015, n)) + 3e4 * dts))
            rx = np.floor(rp.uniform(1.1e15, 1.6e15) + np.cumsum(ib_act * bal * dts * (1 + rp.normal(0, 0.015, n)) + 3e4 * dts))
            base_rate = rp.uniform(2.6e3, 8.5e3) * (ib_act / 3.1e9)
            amp = rp.uniform(2.2e5, 5.8e5) if h not in MILD else rp.uniform(1.0e4, 2.6e4)
            burst = np.exp(rp.normal(0, 0.35, n))
            xw_rate = base_rate + amp * cong * burst
            start = rp.uniform(6e8, 2.2e9)
            if (h, p) in {("dgxa-057", "mlx5_2"), ("dgxa-043", "mlx5_8")}:
                start = rp.uniform(3.05e9, 3.2e9)        # these will hit the 32-bit ceiling
            xw = np.minimum(np.floor(start + np.cumsum(rp.poisson(np.maximum(xw_rate * dts, 0)))), 4294967295.0)
            perr = np.full(n, float(rp.choice([0, 0, 0, 0, 0, 3])))
            down = np.full(n, float(rp.choice([0, 0, 0, 0, 0, 0, 1])))
            rec = np.full(n, 0.0)
            lab = dict(base, device=p, port="1")
            for name, v in [("node_infiniband_port_data_transmitted_bytes_total", tx),
                            ("node_infiniband_port_data_received_bytes_total", rx),
                            ("node_infiniband_port_transmit_wait_total", xw),
                            ("node_infiniband_port_errors_received_total", perr),
                            ("node_infiniband_link_downed_total", down),
                            ("node_infiniband_link_error_recovery_total", rec)]:
                frames.append(frame(tt, name, v, lab))
            frames.append(frame(tt, "node_infiniband_rate_bytes_per_second", np.full(n, 2.5e10), lab))
        for p in IB_STORAGE:
            rp = np.random.default_rng(SEED + 21000 + hi * 20 + IB_STORAGE.index(p))
            lr = rp.uniform(2e7, 6e7) * (1 + 0.5 * np.abs(rp.normal(0, 1, n)))
            tx = np.floor(rp.uniform(3e13, 6e13) + np.cumsum(lr * 0.2 * dts))
            rx = np.floor(rp.uniform(8e13, 1.4e14) + np.cumsum(lr * dts))
            xw = np.floor(rp.uniform(1e7, 9e7) + np.cumsum(rp.poisson(35 * dts)))
            lab = dict(base, device=p, port="1")
            for name, v in [("node_infiniband_port_data_transmitted_bytes_total", tx),
                            ("node_infiniband_port_data_received_bytes_total", rx),
                            ("node_infiniband_port_transmit_wait_total", xw),
                            ("node_infiniband_port_errors_received_total", np.zeros(n)),
                            ("node_infiniband_link_downed_total", np.zeros(n)),
                            ("node_infiniband_link_error_recovery_total", np.zeros(n))]:
                frames.append(frame(tt, name, v, lab))
            frames.append(frame(tt, "node_infiniband_rate_bytes_per_second", np.full(n, 2.5e10), lab))
        # local RAID0 of NVMe (/raid), data cache; OS disk md0 on nvme0/1 is quiet
        for d, rr, lat in [("nvme2n1", 38.0, 0.00016), ("nvme0n1", 0.3, 0.00009)]:
            ri = r.poisson(rr * dts)
            wi = r.poisson((1.5 if d == "nvme2n1" else 6.0) * dts)
            lab = dict(base, device=d)
            frames += [frame(tt, "node_disk_reads_completed_total", np.floor(r.uniform(1e7, 9e7) + np.cumsum(ri)), lab),
                       frame(tt, "node_disk_read_time_seconds_total", np.round(r.uniform(2e3, 9e3) + np.cumsum(ri * lat * (1 + 0.1 * r.standard_normal(n)) ** 2), 3), lab),
                       frame(tt, "node_disk_writes_completed_total", np.floor(r.uniform(1e6, 5e6) + np.cumsum(wi)), lab),
                       frame(tt, "node_disk_write_time_seconds_total", np.round(r.uniform(200, 900) + np.cumsum(wi * 0.00003), 3), lab),
                       frame(tt, "node_disk_io_time_seconds_total", np.round(r.uniform(2e3, 8e3) + np.cumsum(ri * lat * 0.8 + wi * 0.00002), 3), lab)]
        boot = dt.datetime(2023, 6, 10, 6, 12, 1, tzinfo=UTC) + dt.timedelta(seconds=int(r.integers(0, 3600)))
        load = 19 + ar1(n, 0.9, 0.9, r)
        frames += [frame(tt, "node_load1", np.round(np.maximum(load, 1), 2), base),
                   frame(tt, "node_memory_MemAvailable_bytes", np.floor((1.71e12 + ar1(n, 0.98, 1e9, r)) / 4096) * 4096, base),
                   frame(tt, "node_boot_time_seconds", np.full(n, float(int(boot.timestamp()))), base),
                   frame(tt, "node_uname_info", np.ones(n), dict(base, nodename=h, release="5.15.0-73-generic",
                                                                  version="#80~20.04.1-Ubuntu SMP Wed May 17 14:58:14 UTC 2023",
                                                                  machine="x86_64", sysname="Linux", domainname="(none)")),
                   frame(tt, "up", np.ones(n), base)]
    return pl.concat(frames, how="diagonal")


# ---------------------------------------------------------------- logs
XID63 = "NVRM: Xid (PCI:0000:90:00): 63, pid=1896, Row Remapper: New row marked for remapping, reset gpu to activate."
SMI_BLOCK = """Timestamp                                 : Wed Jun 14 11:02:41 2023
Driver Version                            : 510.73.08
CUDA Version                              : 11.6

Attached GPUs                             : 8
GPU 00000000:90:00.0
    Product Name                          : NVIDIA A100-SXM4-80GB
    ECC Errors
        Volatile
            SRAM Correctable              : 0
            SRAM Uncorrectable            : 0
            DRAM Correctable              : 177
            DRAM Uncorrectable            : 0
        Aggregate
            SRAM Correctable              : 0
            SRAM Uncorrectable            : 0
            DRAM Correctable              : 177
            DRAM Uncorrectable            : 0
    Retired Pages
        Single Bit ECC                    : N/A
        Double Bit ECC                    : N/A
        Pending Page Blacklist            : N/A
    Remapped Rows
        Correctable Error                 : 1
        Uncorrectable Error               : 0
        Pending                           : Yes
        Remapping Failure Occurred        : No
        Bank Remap Availability Histogram
            Max                           : 639 bank(s)
            High                          : 1 bank(s)
            Partial                       : 0 bank(s)
            Low                           : 0 bank(s)
            None                          : 0 bank(s)
"""

HCA_PCI = {"mlx5_0": "0000:0c:00.0", "mlx5_1": "0000:12:00.0", "mlx5_2": "0000:4b:00.0", "mlx5_3": "0000:54:00.0",
           "mlx5_4": "0000:61:00.0", "mlx5_5": "0000:61:00.1", "mlx5_6": "0000:8d:00.0", "mlx5_7": "0000:94:00.0",
           "mlx5_8": "0000:ba:00.0", "mlx5_9": "0000:cc:00.0"}
IB_IF = {"mlx5_0": "ibp12s0", "mlx5_1": "ibp18s0", "mlx5_2": "ibp75s0", "mlx5_3": "ibp84s0", "mlx5_4": "ibp97s0f0",
         "mlx5_5": "ibp97s0f1", "mlx5_6": "ibp141s0", "mlx5_7": "ibp148s0", "mlx5_8": "ibp186s0", "mlx5_9": "ibp204s0"}


def dmesg_T(boot_dt, up, msg):
    d = boot_dt + dt.timedelta(seconds=up)
    return f"[{d.strftime('%a %b')} {d.day:2d} {d.strftime('%H:%M:%S %Y')}] {msg}"


def build_dmesg():
    out = {}
    for hi, h in enumerate(HOSTS):
        r = np.random.default_rng(SEED + 40000 + hi)
        boot = dt.datetime(2023, 6, 10, 6, 12, 1, tzinfo=UTC) + dt.timedelta(seconds=int(np.random.default_rng(SEED + 9000 + hi).integers(0, 3600)))
        L = []
        boot_msgs = [
            (0.0, "Linux version 5.15.0-73-generic (buildd@bos03-amd64-060) (gcc (Ubuntu 9.4.0-1ubuntu1~20.04.1) 9.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) #80~20.04.1-Ubuntu SMP Wed May 17 14:58:14 UTC 2023 (Ubuntu 5.15.0-73.80~20.04.1-generic 5.15.99)"),
            (0.0, "Command line: BOOT_IMAGE=/boot/vmlinuz-5.15.0-73-generic root=UUID=5c3b7f0e-9d1c-4b8e-a7b3-2f1d3c9e0a41 ro console=tty0 console=ttyS1,115200n8 pci=realloc=off iommu=pt"),
            (0.0, "DMI: NVIDIA DGXA100 920-23687-2530-000/DGXA100, BIOS 1.21 06/21/2022"),
            (0.4, "smpboot: CPU0: AMD EPYC 7742 64-Core Processor (family: 0x17, model: 0x31, stepping: 0x0)"),
            (2.9, "nvme nvme0: pci function 0000:22:00.0"),
            (2.9, "nvme nvme1: pci function 0000:23:00.0"),
            (3.1, "nvme nvme0: 64/0/0 default/read/poll queues"),
            (3.1, "nvme nvme1: 64/0/0 default/read/poll queues"),
        ]
        tb = 3.6
        for dv in ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9"]:
            pci = HCA_PCI[dv]
            boot_msgs.append((tb, f"mlx5_core {pci}: firmware version: 20.35.1012"))
            boot_msgs.append((tb + 0.001, f"mlx5_core {pci}: 252.048 Gb/s available PCIe bandwidth (16.0 GT/s PCIe x16 link)"))
            tb += 0.37
        for dv in HCA_PCI:
            boot_msgs.append((tb + 2.5, f"mlx5_core {HCA_PCI[dv]} {IB_IF[dv]}: renamed from ib{list(HCA_PCI).index(dv)}"))
        boot_msgs += [
            (9.8, "md/raid1:md0: active with 2 out of 2 mirrors"),
            (10.2, "EXT4-fs (md0p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
            (14.6, "nvidia: loading out-of-tree module taints kernel."),
            (14.6, "nvidia: module license 'NVIDIA' taints kernel."),
            (14.7, "nvidia-nvlink: Nvlink Core is being initialized, major device number 508"),
            (17.9, "md/raid0:md1: md_size is 30004846592 sectors."),
            (18.3, "EXT4-fs (md1): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
            (33.0, "IPv6: ADDRCONF(NETDEV_CHANGE): ibp12s0: link becomes ready"),
        ]
        for up, msg in boot_msgs:
            L.append((up, msg))
        # runtime, sparse and benign
        now0 = (T0 - boot).total_seconds()
        if r.random() < 0.4:
            L.append((now0 - r.uniform(3e4, 2e5), "perf: interrupt took too long (2507 > 2500), lowering kernel.perf_event_max_sample_rate to 79750"))
        if h == HOSTS[0]:
            L.append(((dt.datetime(2023, 6, 13, 22, 14, 31, tzinfo=UTC) - boot).total_seconds() + 0.37,
                      "TCP: request_sock_TCP: Possible SYN flooding on port 6000. Sending cookies.  Check SNMP counters."))
        if h == ECC_HOST:
            L.append((XID_T - (boot - T0).total_seconds() + 0.283417, XID63))
        L.sort(key=lambda x: x[0])
        out[h] = [dmesg_T(boot, up, msg) for up, msg in L]
    return out


def hostlist(nodes):
    nums = sorted(int(n[-3:]) for n in nodes)
    parts, a = [], nums[0]
    for i in range(1, len(nums) + 1):
        if i == len(nums) or nums[i] != nums[i - 1] + 1:
            b = nums[i - 1]
            parts.append(f"{a:03d}" if a == b else f"{a:03d}-{b:03d}")
            if i < len(nums):
                a = nums[i]
    return "dgxa-[" + ",".join(parts) + "]"


def build_slurmctld():
    r = np.random.default_rng(SEED + 777)
    L = []

    def add(t, msg):
        d = ts(t)
        L.append((t, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{int((t % 1) * 1000):03d}] {msg}"))
    busy = {f"dgxa-{i:03d}": sec(8, 0) + r.uniform(0, 5000) for i in list(range(1, 41)) + list(range(65, 101))}
    jid = 1450302
    t = sec(8, 30) + r.uniform(0, 100)
    while t < WIN + 1800:
        free = sorted(n for n, u in busy.items() if u < t)
        k = int(r.choice([1, 1, 1, 2, 4, 8]))
        if len(free) >= k:
            start = int(r.integers(0, len(free) - k + 1))
            nodes = free[start:start + k]
            nl = nodes[0] if k == 1 else hostlist(nodes)
            add(t, f"sched: Allocate {'JobId=%d' % jid} NodeList={nl} #CPUs={256 * k} Partition=batch")
            dur = r.uniform(900, 9000)
            for nn in nodes:
                busy[nn] = t + dur + 2
            if t + dur < WIN + 1800:
                ec = 0 if r.random() < 0.85 else int(r.choice([1, 137]))
                add(t + dur, f"_job_complete: JobId={jid} WEXITSTATUS {ec}")
                add(t + dur + 0.001, f"_job_complete: JobId={jid} done")
        jid += int(r.integers(1, 7))
        if jid == OTHER_JOB:
            jid += 1
        t += r.uniform(240, 1500)
    add(OTHER_ALLOC, f"sched: Allocate JobId={OTHER_JOB} NodeList=dgxa-[101-164] #CPUs=16384 Partition=batch")
    add(OTHER_END, f"_job_complete: JobId={OTHER_JOB} WEXITSTATUS 0")
    add(OTHER_END + 0.001, f"_job_complete: JobId={OTHER_JOB} done")
    L.sort(key=lambda x: x[0])
    return [x[1] for x in L if x[0] > sec(8, 30)]


def ds_ts(t):
    d = ts(t)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int((t % 1) * 1000):03d}"


def build_trainer():
    r = np.random.default_rng(SEED + 31337)
    out = []
    d0 = ts(JOB_START)
    out.append(f"START TIME: {d0.strftime('%a %b %d %H:%M:%S UTC %Y')}")
    out.append("using world size: 192, data-parallel-size: 96, tensor-model-parallel size: 2, pipeline-model-parallel size: 1 ")
    out.append("using torch.bfloat16 for parameters ...")
    args = {"bf16": True, "clip_grad": 1.0, "data_parallel_size": 96, "deepspeed": True, "distributed_backend": "nccl",
            "eval_interval": 5000, "eval_iters": 10, "ffn_hidden_size": 20480, "global_batch_size": GBS,
            "hidden_size": 5120, "load": "/lustre/fsw/gpt13b/checkpoints", "log_interval": 10, "lr": 0.0002,
            "lr_decay_style": "cosine", "lr_warmup_iters": 2000, "micro_batch_size": 2, "min_lr": 2e-05,
            "num_attention_heads": 40, "num_layers": 40, "pipeline_model_parallel_size": 1, "save": "/lustre/fsw/gpt13b/checkpoints",
            "save_interval": 1000, "seq_length": SEQ, "tensor_model_parallel_size": 2, "train_iters": TRAIN_ITERS,
            "world_size": 192, "zero_stage": 1}
    out.append("------------------------ arguments ------------------------")
    for k in sorted(args, key=str.lower):
        out.append("  {} {} {}".format(k, "." * (48 - len(k)), args[k]))
    out.append("-------------------- end of arguments ---------------------")
    out.append(f"[{ds_ts(JOB_START + 48.2)}] [INFO] [comm.py:622:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl")
    out.append("> initializing torch distributed ...")
    out.append(f"time to initialize megatron (seconds): 41.382")
    out.append(f"[after megatron is initialized] datetime: {ts(JOB_START + 96.0).strftime('%Y-%m-%d %H:%M:%S')} ")
    out.append("building GPT model ...")
    out.append(f" loading checkpoint from /lustre/fsw/gpt13b/checkpoints at iteration {START_ITER}")
    out.append(f"[after model, optimizer, and learning rate scheduler are built] datetime: {ts(JOB_START + 251.7).strftime('%Y-%m-%d %H:%M:%S')} ")
    out.append("> building train, validation, and test datasets ...")
    out.append(" > datasets target sizes (minimum size):")
    out.append(f"    train:      {TRAIN_ITERS * GBS}")
    out.append(f"    validation: {(TRAIN_ITERS // 5000 + 1) * 10 * GBS}")
    out.append(f"    test:       {10 * GBS}")
    out.append(f"[after dataloaders are built] datetime: {ts(FIRST_STEP - 1.1).strftime('%Y-%m-%d %H:%M:%S')} ")
    out.append("done with setup ...")
    out.append("training ...")
    out.append(f"[before the start of training step] datetime: {ts(FIRST_STEP - 0.3).strftime('%Y-%m-%d %H:%M:%S')} ")
    tot_samples, tot_time = 0, 0.0
    lr_hist = []
    interval_t = 0.0
    nint = 0
    for i, s in enumerate(STEPS):
        it = s["it"]
        interval_t += s["dur"]
        nint += 1
        frac = max(0.0, (it - 2000) / (TRAIN_ITERS - 2000))
        lr = float(2e-5 + 0.5 * (2e-4 - 2e-5) * (1 + np.cos(np.pi * frac)))
        if i >= 2:
            tot_samples += GBS
            tot_time += s["dur"] - s["opt"] * 0.0
        t_end = s["end"] - s["ckpt"]
        if it % 10 == 0:
            # DeepSpeed (rank 0, timestamped)
            tstep = t_end - 0.012
            out.append(f"[{ds_ts(tstep)}] [INFO] [logging.py:96:log_dist] [Rank 0] step={it}, skipped=0, lr=[{lr!r}, {lr!r}], mom=[(0.9, 0.95), (0.9, 0.95)]")
            gs = it - START_ITER
            ra = float(tot_samples / tot_time) if tot_time else 0.0
            cur = float(GBS / (s["dur"] - 0.004))
            out.append(f"[{ds_ts(tstep + 0.0006)}] [INFO] [timer.py:215:stop] epoch=0/micro_step={gs * 8}/global_step={gs}, "
                       f"RunningAvgSamplesPerSec={ra!r}, CurrSamplesPerSec={cur!r}, MemAllocated=27.83GB, MaxMemAllocated=61.47GB")
            # Megatron iteration line (last rank, no timestamp)
            loss = 1.985 + 0.9 * np.exp(-it / 6000) + 0.012 * r.standard_normal()
            gn = 0.21 + 0.025 * r.standard_normal() + 0.05 * (r.random() < 0.02)
            line = ' iteration {:8d}/{:8d} |'.format(it, TRAIN_ITERS)
            line += ' consumed samples: {:12d} |'.format(it * GBS)
            line += ' elapsed time per iteration (ms): {:.1f} |'.format(interval_t / nint * 1000.0)
            line += ' learning rate: {:.3E} |'.format(lr)
            line += ' global batch size: {:5d} |'.format(GBS)
            line += ' {}: {:.6E} |'.format('lm loss', loss)
            line += ' loss scale: {:.1f} |'.format(1.0)
            line += ' grad norm: {:.3f} |'.format(gn)
            line += ' number of skipped iterations: {:3d} |'.format(0)
            line += ' number of nan iterations: {:3d} |'.format(0)
            out.append(line)
            interval_t, nint = 0.0, 0
        if s["ckpt"] > 0:
            out.append('saving checkpoint at iteration {:7d} to {}'.format(it, args["save"]))
            out.append('  successfully saved checkpoint at iteration {:7d} to {}'.format(it, args["save"]))
            interval_t += s["ckpt"]          # Megatron's interval timer keeps running through the save
    # the file is copied at 13:05 while the job keeps running
    cut = []
    for ln in out:
        if ln.startswith("[2023-06-14 ") and ln[1:20] > "2023-06-14 13:05:00":
            break
        cut.append(ln)
    # drop the iteration lines after the last kept DeepSpeed line
    return cut


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs", "dmesg"))

    dcgm = build_dcgm().with_columns(pl.col("timestamp").dt.replace_time_zone("UTC"))
    dcgm.sort(["timestamp", "Hostname", "gpu", "metric"]).write_parquet(
        os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), compression="zstd", statistics=True)
    node = build_node().with_columns(pl.col("timestamp").dt.replace_time_zone("UTC"))
    node.sort(["timestamp", "instance", "metric"]).write_parquet(
        os.path.join(OUT, "metrics", "node-exporter.parquet"), compression="zstd", statistics=True)

    for h, lines in build_dmesg().items():
        with open(os.path.join(OUT, "logs", "dmesg", f"{h}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(OUT, "logs", f"{ECC_HOST}.nvidia-smi-q.txt"), "w") as f:
        f.write("\n==============NVSMI LOG==============\n\n" + SMI_BLOCK)
    with open(os.path.join(OUT, "logs", "slurmctld.log"), "w") as f:
        f.write("\n".join(build_slurmctld()) + "\n")
    with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as f:
        f.write("\n".join(build_trainer()) + "\n")

    inc_text = f"""# Slurm job {JOBID}: GPT-13B pretraining with Megatron-DeepSpeed (TP=2, DP=96, ZeRO-1) on
# dgxa-[041-064] (24 x DGX A100 80GB, 8 x HDR InfiniBand per host), running since 2023-06-13 22:14 UTC.
# metrics/: Prometheus export (15 s scrape) of dcgm-exporter and node_exporter, as Parquet.
# logs/dmesg/<host>.txt: `dmesg -T` collected at 13:20 UTC; logs/slurmctld.log; logs/slurm-{JOBID}.out;
# logs/{ECC_HOST}.nvidia-smi-q.txt: pulled by the on-call at 11:02 UTC.
"""
    inc = {
        "id": ID,
        "title": "GPT-13B job 1450231 iterations ~6% slower for an hour",
        "window": {"start": T0.isoformat(), "end": T1.isoformat()},
        "baseline": {"start": T0.isoformat(), "end": ts(sec(10, 20)).isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "orca", "nodes": len(HOSTS), "gpus_per_node": 8, "gpu_model": "A100"},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        f.write(inc_text)
        yaml.safe_dump(inc, f, sort_keys=False, width=100)

    z = lambda t: ts(t).isoformat().replace("+00:00", "Z")
    truth = {
        "id": ID,
        "cause": "Fabric congestion: another tenant's 64-node job (1450377 on dgxa-[101-164]) shared the spine "
                 "switches and its traffic slowed this job's inter-node NCCL collectives on every rank, raising "
                 "InfiniBand transmit wait on most of the job's hosts at once; no host or GPU was at fault.",
        "cause_metrics": ["node_infiniband_port_transmit_wait_total (21 of 24 hosts rise together, mlx5_0-3,6-9)",
                          "node_infiniband_port_data_transmitted_bytes_total / _received_bytes_total (rate down with the step rate)",
                          "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE and DCGM_FI_DEV_POWER_USAGE (down on all GPUs alike, GPU_UTIL unchanged: waiting in NCCL)",
                          "trainer: elapsed time per iteration (ms), CurrSamplesPerSec"],
        "cause_log_evidence": [],
        "cause_log_note": "Congestion leaves no error line anywhere: the only log trace is slurmctld's "
                          f"'sched: Allocate JobId={OTHER_JOB} NodeList=dgxa-[101-164] #CPUs=16384 Partition=batch' at "
                          f"{ts(OTHER_ALLOC).strftime('%H:%M:%S')} and its '_job_complete' at {ts(OTHER_END).strftime('%H:%M:%S')} "
                          "(formats from SchedMD/slurm src/slurmctld/job_scheduler.c and job_mgr.c), which bracket the slowdown.",
        "distractor": {
            "host": ECC_HOST, "gpu": ECC_GPU, "pci": "0000:90:00.0",
            "what": "177 correctable DRAM ECC errors (10:29-10:52), Xid 63 row remapping pending at 10:47:12, "
                    "DCGM_FI_DEV_ROW_REMAP_PENDING=1, DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS=1, DCGM_FI_DEV_XID_ERRORS=63. "
                    "The GPU's utilisation, tensor activity, power and clocks track its peers throughout: it did not slow the job. "
                    "Action: reset the GPU (or reboot) at the next maintenance to activate the remap; no RMA.",
            "metrics": ["DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", "DCGM_FI_DEV_ROW_REMAP_PENDING",
                        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_XID_ERRORS"],
            "log_evidence": [
                {"text": XID63, "file": f"logs/dmesg/{ECC_HOST}.txt",
                 "source": "https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/nvidia/debug.md "
                           "(section 'Xid Errors'); copied verbatim, only the PCI address 0000:10:1c -> 0000:90:00 and the dmesg -T stamp are ours"},
                {"text": "nvidia-smi -q block (ECC Errors: DRAM Correctable 177; Remapped Rows: Correctable Error 1, Pending Yes, "
                         "Bank Remap Availability Max 639)", "file": f"logs/{ECC_HOST}.nvidia-smi-q.txt",
                 "source": "same page, the `nvidia-smi -q` output shown for that Xid 63 (A100-SXM4-80GB, driver 510.73.08); "
                           "lines verbatim, '[...]' elisions dropped, Timestamp and GPU bus id adapted; the NVSMI LOG banner is nvidia-smi's usual header"},
            ],
        },
        "hosts": [],
        "gpu": None,
        "onset": z(CONG_ON),
        "onset_notes": {"other_job_allocated": z(OTHER_ALLOC), "congestion_starts": z(CONG_ON),
                        "congestion_ends": z(CONG_OFF), "other_job_complete": z(OTHER_END),
                        "other_job_checkpoint_pause": [z(OTHER_PAUSE[0]), z(OTHER_PAUSE[1])],
                        "distractor_sbe_burst": [z(SBE_START), z(SBE_END)], "distractor_xid63": z(XID_T)},
        "job_throughput_loss_pct": round(float(LOSS), 2),
        "loss_period": {"start": z(CONG_ON), "end": z(CONG_OFF)},
        "baseline_tokens_per_s": round(BASE),
        "congested_tokens_per_s": round(CONG),
        "after_tokens_per_s": round(AFTER),
        "realism_notes": ["port_transmit_wait is a 32-bit counter that saturates at 4294967295: dgxa-057 mlx5_2 and "
                          "dgxa-043 mlx5_8 hit the ceiling during the congestion and stay flat there",
                          "dgxa-046, dgxa-047 and dgxa-059 saw only a small transmit-wait rise",
                          "Megatron iteration lines carry no timestamp; DeepSpeed's rank-0 lines do, and its timer's "
                          "global_step counts from the resume at iteration 12000"],
        "what_a_good_postmortem_says": (
            "From %s UTC to %s UTC every iteration of job %d was ~%.1f%% slower because its inter-node NCCL collectives "
            "were slowed by congestion on the shared spine switches: InfiniBand transmit wait rose together on most of the "
            "job's hosts while no host, GPU or link logged an error, and the window matches the other tenant's job %d "
            "(allocated %s, completed %s). The cause is cluster-wide (no host at fault); the remedy is fabric isolation, "
            "adaptive routing or placement, not draining nodes. The correctable ECC burst and Xid 63 row-remap pending on "
            "%s GPU %d is a coincidental hardware finding to schedule a GPU reset for, not the cause of the slowdown."
            % (ts(CONG_ON).strftime("%H:%M"), ts(CONG_OFF).strftime("%H:%M"), JOBID, LOSS, OTHER_JOB,
               ts(OTHER_ALLOC).strftime("%H:%M"), ts(OTHER_END).strftime("%H:%M"), ECC_HOST, ECC_GPU)),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)
    print("loss %.2f%% base %.0f cong %.0f after %.0f" % (LOSS, BASE, CONG, AFTER))


if __name__ == "__main__":
    main()
