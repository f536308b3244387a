#!/usr/bin/env python3
"""Writes the incident folder h100-nvme-shardcache-2025-04-16 (fixed seed).

Story (ground truth, also in truth.yaml):
  Slurm job 884213, a VLM pretraining run on 16 HGX H100 hosts (128 ranks, synchronous
  data parallel / FSDP). Each host's data loader reads webdataset shards from a local
  cache on its NVMe drive (nvme0n1, XFS on /mnt/nvme). On h100-109 that drive degrades
  from about 09:38 UTC: its read latency climbs, and from 09:47 the kernel logs NVMe
  timeouts, aborts and (10:22) a controller reset. h100-109's eight ranks wait for their
  batches, so every step of the job waits for them: the job runs ~4-5% slower for about
  67 minutes. The on-call drains h100-109 at 10:44, waits for the next checkpoint and
  requeues the job, which restarts at ~10:56 on the spare h100-117 at full speed.

Only numpy, polars and pyyaml are used. Run: python make_h100-nvme-shardcache-2025-04-16.py
"""
import datetime as dt
import os
import shutil

import numpy as np
import polars as pl
import yaml

SEED = 7016
ID = "h100-nvme-shardcache-2025-04-16"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, ID)
UTC = dt.timezone.utc
rng = np.random.default_rng(SEED)

T0 = dt.datetime(2025, 4, 16, 8, 0, 0, tzinfo=UTC)      # window start
T1 = dt.datetime(2025, 4, 16, 12, 0, 0, tzinfo=UTC)     # window end
WIN = (T1 - T0).total_seconds()
SCRAPE = 30.0                                            # Prometheus scrape interval


def ts(sec):
    """seconds since T0 -> aware datetime"""
    return T0 + dt.timedelta(seconds=float(sec))


def sec(h, m, s=0.0, day=16):
    return (dt.datetime(2025, 4, day, h, m, 0, tzinfo=UTC) - T0).total_seconds() + s


HOSTS = [f"h100-{i}" for i in range(101, 118)]          # 101..116 job, 117 spare
JOB1 = [f"h100-{i}" for i in range(101, 117)]
BAD = "h100-109"
SPARE = "h100-117"
JOB2 = [h for h in JOB1 if h != BAD] + [SPARE]
IP = {h: f"10.20.1.{int(h[-3:])}" for h in HOSTS}
GPUS = 8
PCI = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]
MODEL = "NVIDIA H100 80GB HBM3"
JOBID = 884213

# ---------------------------------------------------------------- key times (s since T0)
JOB_START = sec(21, 7, 44, day=15)
FIRST_STEP = sec(21, 11, 2, day=15)
START_STEP = 4000
DEGRADE = sec(9, 38, 30)            # drive read latency starts climbing
LOADER_BEHIND = sec(9, 40, 40)      # prefetch buffer exhausted, steps start waiting
DRAIN = sec(10, 44, 12)
BURSTS = [sec(9, 47, 21), sec(9, 53, 2), sec(10, 0, 45), sec(10, 6, 13), sec(10, 14, 58),
          sec(10, 21, 31), sec(10, 29, 47), sec(10, 36, 20), sec(10, 41, 55)]
RESET_BURST = 5                      # index of the burst that ends in a controller reset
CKPT_EVERY = 500
GBS = 512                           # sequences per step
SEQ = 4096
TOK_PER_STEP = GBS * SEQ

# ---------------------------------------------------------------- step simulation


def simulate_run(t_first, step0, t_stop, degraded):
    """Return list of dict per step. Times are seconds since T0."""
    steps = []
    t = t_first
    s = step0
    drift_phase = rng.uniform(0, 2 * np.pi)
    # stalls: a batch read stuck until the kernel's 30 s timeout aborts it (or the reset)
    stall_ends = [b + 0.25 for b in BURSTS] + [BURSTS[RESET_BURST] + 30.78]
    stall_len = {e: rng.uniform(12.0, 21.0) for e in stall_ends}
    pending = sorted(stall_ends) if degraded else []
    while t < t_stop:
        c = 2.618 * (1 + 0.0055 * rng.standard_normal()) * (1 + 0.003 * np.sin(t / 1900 + drift_phase))
        m = 0.236 * (1 + 0.03 * rng.standard_normal())
        wn = 0.0035 + rng.exponential(0.0015)          # rank 0 data wait
        wmax_norm = 0.006 + rng.exponential(0.004)      # slowest healthy rank
        straggle = 0.0
        if rng.random() < 0.012:                        # python GC / page cache hiccup somewhere
            straggle = rng.uniform(0.05, 0.35)
        wbad = 0.0
        wbad_rank = None
        if degraded and LOADER_BEHIND <= t:
            ramp = min(1.0, (t - LOADER_BEHIND) / 300.0)
            if rng.random() < 0.70:
                wbad = rng.exponential(0.016)
            else:
                wbad = rng.exponential(0.14)
            wbad *= ramp
            while pending and t >= pending[0] - stall_len[pending[0]]:
                e = pending.pop(0)
                wbad = max(wbad, e + rng.uniform(0.03, 0.35) - t)
            wbad_rank = 64 + int(rng.integers(0, 8))
        wmax = max(wmax_norm + straggle, wbad)
        dur = wmax + c + m
        rec = dict(step=s + 1, start=t, wait0=wn, wbad=wbad, wmax=wmax, c=c, m=m, dur=dur,
                   wmax_rank=(wbad_rank if wbad > wmax_norm + straggle else int(rng.integers(0, 128))),
                   wmax_val=wmax, ckpt=0.0)
        t += dur
        s += 1
        if s % CKPT_EVERY == 0:
            ck = 44.0 + 3.0 * rng.standard_normal()
            rec["ckpt"] = ck
            t += ck
        rec["end"] = t
        steps.append(rec)
    return steps


run1 = simulate_run(FIRST_STEP, START_STEP, sec(11, 0), degraded=True)
# the on-call waits for the first checkpoint after the drain, then requeues
ck_after = [r for r in run1 if r["ckpt"] > 0 and r["end"] > DRAIN][0]
REQUEUE = ck_after["end"] + 71.3
CKPT_STEP = ck_after["step"]
run1 = [r for r in run1 if r["start"] < REQUEUE]
last = run1[-1]
if last["end"] > REQUEUE:            # the step in flight when SIGTERM arrived never finished
    run1 = run1[:-1]
ALLOC2 = REQUEUE + 138.4
SCRIPT2 = ALLOC2 + 6.9
NCCL2 = SCRIPT2 + 97.0
LOADED2 = SCRIPT2 + 286.0
FIRST2 = SCRIPT2 + 364.0
run2 = simulate_run(FIRST2, CKPT_STEP, WIN + 400, degraded=False)

steps_all = run1 + run2


def tput_loss():
    """throughput in degraded period vs baseline (tokens per wall second)."""
    def rate(a, b):
        rs = [r for r in run1 if a <= r["start"] and r["end"] <= b]
        return len(rs) * TOK_PER_STEP / (rs[-1]["end"] - rs[0]["start"])
    base = rate(0, sec(9, 30))
    deg = rate(LOADER_BEHIND, ck_after["start"] - 1)
    return base, deg, 100 * (1 - deg / base)


BASE_RATE, DEG_RATE, LOSS = tput_loss()

# ---------------------------------------------------------------- fine-grid host states
DTF = 0.5
LEAD = 120.0
GRID = np.arange(-LEAD, WIN + 60, DTF)
ST_IDLE, ST_DATA, ST_COMP, ST_NCCL, ST_CKPT, ST_INIT = range(6)


def host_state(host):
    bounds = [-1e9]
    states = [ST_IDLE]

    def add(t, s):
        bounds.append(t)
        states.append(s)

    def runs_on(run):
        for r in run:
            t = r["start"]
            w = r["wbad"] if (host == BAD and run is run1) else r["wait0"]
            add(t, ST_DATA)
            add(t + w, ST_COMP)
            add(t + w + r["c"], ST_NCCL)
            if r["ckpt"] > 0:
                add(r["end"] - r["ckpt"], ST_CKPT)
    if host in JOB1:
        add(JOB_START + 95, ST_INIT)
        runs_on(run1)
        add(run1[-1]["end"], ST_INIT)      # hung in next step, then killed
        add(REQUEUE + 4, ST_IDLE)
    if host in JOB2:
        add(NCCL2, ST_INIT)
        runs_on(run2)
    b = np.array(bounds)
    s = np.array(states)
    o = np.argsort(b, kind="stable")
    b, s = b[o], s[o]
    return s[np.searchsorted(b, GRID, side="right") - 1]


STATE = {h: host_state(h) for h in HOSTS}

# per-state GPU activity (util indicator, tensor, gr engine, power above idle W, nvlink B/s, ib B/s)
ACT = {
    ST_IDLE: (0.0, 0.0, 0.0, 0.0, 0.0, 0.0),
    ST_DATA: (0.0, 0.0, 0.0, 38.0, 0.0, 0.0),
    ST_COMP: (1.0, 0.585, 0.992, 545.0, 62e9, 2.9e9),
    ST_NCCL: (1.0, 0.018, 0.962, 190.0, 118e9, 7.6e9),
    ST_CKPT: (0.06, 0.0, 0.05, 55.0, 0.2e9, 0.0),
    ST_INIT: (0.12, 0.01, 0.10, 60.0, 1e9, 0.05e9),
}


def lut(arr, k):
    return np.array([ACT[s][k] for s in range(6)])[arr]


def target_times(seed_offset):
    """Prometheus scrape timestamps of one target: fixed phase + few-ms jitter."""
    r = np.random.default_rng(SEED + seed_offset)
    phase = r.uniform(0, SCRAPE)
    t = np.arange(phase, WIN, SCRAPE)
    t = t + r.normal(0, 0.004, t.size)
    keep = r.random(t.size) > 0.0015           # an occasional missed scrape
    return np.round(t[keep], 3)


def fmt_ts(tsec):
    base = np.datetime64("2025-04-16T08:00:00", "ms")
    d = base + (np.asarray(tsec) * 1000).astype("int64").astype("timedelta64[ms]")
    s = np.datetime_as_string(d, unit="ms")
    return np.char.add(s.astype(str), "Z")


def grid_avg(x, t, span):
    """average of fine-grid array x over (t-span, t]"""
    c = np.concatenate([[0.0], np.cumsum(x) * DTF])
    i1 = np.clip(np.searchsorted(GRID, t, side="right"), 0, GRID.size)
    i0 = np.clip(np.searchsorted(GRID, t - span, side="right"), 0, GRID.size)
    return (c[i1] - c[i0]) / np.maximum((i1 - i0) * DTF, 1e-9)


def grid_int(x, t):
    """integral of x from grid start to t"""
    c = np.concatenate([[0.0], np.cumsum(x) * DTF])
    i1 = np.clip(np.searchsorted(GRID, t, side="right"), 0, GRID.size)
    return c[i1]


def ar1(n, phi, sigma, r):
    e = r.normal(0, sigma, n)
    y = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc = phi * acc + e[i]
        y[i] = acc
    return y


# ---------------------------------------------------------------- DCGM metrics
def uuid(r):
    h = r.integers(0, 16, 32)
    s = "".join("0123456789abcdef"[i] for i in h)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}"


def build_dcgm():
    frames = []
    for hi, h in enumerate(HOSTS):
        st = STATE[h]
        util_i = lut(st, 0)
        ten_i = lut(st, 1)
        gr_i = lut(st, 2)
        pw_i = lut(st, 3)
        nv_i = lut(st, 4)
        tt = target_times(100 + hi)
        n = tt.size
        r = np.random.default_rng(SEED + 1000 + hi)
        host_temp_off = r.normal(0, 2.2)          # rack inlet position
        host_pw_off = r.normal(0, 6)
        util_s = grid_avg(util_i, tt, 1.0)
        ten_s = grid_avg(ten_i, tt, 1.0)
        gr_s = grid_avg(gr_i, tt, 1.0)
        for g in range(GPUS):
            rg = np.random.default_rng(SEED + 5000 + hi * 10 + g)
            gid = uuid(rg)
            p_idle = 69.0 + rg.normal(0, 2.5)
            p_scale = 1 + rg.normal(0, 0.025)
            t_off = host_temp_off + rg.normal(0, 1.8) + (1.5 if g in (3, 4) else 0.0)
            # instantaneous power on the grid, smoothed like the sensor (1 s)
            p_inst = p_idle + host_pw_off * (pw_i > 0) + p_scale * pw_i
            p_s = grid_avg(p_inst, tt, 1.0) + rg.normal(0, 7.0, n) * (pw_i[np.searchsorted(GRID, tt) - 1] > 0) + rg.normal(0, 0.6, n)
            # temperature follows a 45 s average of power
            p_45 = grid_avg(p_inst, tt, 45.0)
            gtemp = 27.0 + t_off + 0.060 * p_45 + ar1(n, 0.8, 0.35, rg)
            mtemp = 29.0 + t_off * 1.1 + 0.072 * p_45 + ar1(n, 0.8, 0.4, rg)
            busy = util_s > 0.05
            sm = np.where(busy, 1980.0, 345.0)
            dips = busy & (rg.random(n) < 0.04)
            sm[dips] = rg.choice([1965.0, 1950.0, 1935.0, 1905.0], dips.sum())
            util = np.clip(np.round(util_s * 100 - np.abs(rg.normal(0, 0.6, n)) * busy), 0, 100)
            ten = np.clip(ten_s * (1 + rg.normal(0, 0.015, n)) + rg.normal(0, 0.002, n) * busy, 0, 1)
            gr = np.clip(gr_s * (1 + rg.normal(0, 0.004, n)), 0, 1)
            # energy counter (mJ) since driver load ~14 days ago
            e0 = rg.uniform(3.9e11, 4.6e11)
            energy = e0 + grid_int(p_inst, tt) * 1000.0
            energy = np.floor(energy)
            nv0 = rg.uniform(2.0e16, 3.5e16)
            nvl = np.floor(nv0 + grid_int(nv_i * (1 + 0.02 * g / 8), tt) / 1024.0)  # KiB
            replay0 = 0.0 if rg.random() < 0.8 else float(rg.integers(1, 40))
            replay = np.full(n, replay0)
            if rg.random() < 0.05:
                k = int(rg.integers(0, n))
                replay[k:] += 1
            fb_train = 71544 + 600 * rg.random()
            # FB used: allocated while a job process lives on the GPU
            alive = np.zeros(GRID.size, bool)
            if h in JOB1:
                alive |= (GRID >= JOB_START + 80) & (GRID < REQUEUE + 4)
            if h in JOB2:
                alive |= GRID >= SCRIPT2 + 40
            alive_s = alive[np.clip(np.searchsorted(GRID, tt) - 1, 0, GRID.size - 1)]
            init_ramp = np.clip((tt - (SCRIPT2 + 40)) / 260.0, 0, 1) if h in JOB2 else np.ones(n)
            fb = np.where(alive_s, np.where((h in JOB2) & (tt > SCRIPT2), 1200 + (fb_train - 1200) * init_ramp, fb_train), 0.0)
            fb = np.round(fb + alive_s * rg.integers(-6, 6, n))
            labels = dict(gpu=str(g), UUID=gid, device=f"nvidia{g}", modelName=MODEL,
                          Hostname=h, pci_bus_id=f"00000000:{PCI[g]}:00.0",
                          instance=f"{IP[h]}:9400")
            cols = {
                "DCGM_FI_DEV_GPU_UTIL": util,
                "DCGM_FI_DEV_SM_CLOCK": sm,
                "DCGM_FI_DEV_GPU_TEMP": np.round(gtemp),
                "DCGM_FI_DEV_MEMORY_TEMP": np.round(mtemp),
                "DCGM_FI_DEV_POWER_USAGE": np.round(p_s, 3),
                "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": energy,
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay,
                "DCGM_FI_DEV_XID_ERRORS": np.zeros(n),
                "DCGM_FI_DEV_FB_USED": fb,
                "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": nvl,
                "DCGM_FI_PROF_GR_ENGINE_ACTIVE": np.round(gr, 6),
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(ten, 6),
            }
            tstr = fmt_ts(tt)
            for name, v in cols.items():
                frames.append(pl.DataFrame({"timestamp": tstr, "metric": [name] * n, "value": v.astype(float),
                                            **{k: [val] * n for k, val in labels.items()}}))
    return pl.concat(frames)


# ---------------------------------------------------------------- node_exporter metrics
def build_node():
    disk, ib, misc = [], [], []
    for hi, h in enumerate(HOSTS):
        st = STATE[h]
        tt = target_times(300 + hi)
        n = tt.size
        r = np.random.default_rng(SEED + 9000 + hi)
        inst = f"{IP[h]}:9100"
        tstr = fmt_ts(tt)
        training = np.isin(st, [ST_DATA, ST_COMP, ST_NCCL]).astype(float)
        tr30 = grid_avg(training, tt, SCRAPE)
        # -------- nvme0n1: shard cache reads, proportional to samples consumed
        rate_r = 196.0 * (1 + r.normal(0, 0.06)) * tr30 + 0.3
        dts = np.diff(np.concatenate([[tt[0] - SCRAPE], tt]))
        reads_inc = np.maximum(0, r.poisson(np.maximum(rate_r * dts, 0)))
        lat = np.full(n, 0.00021 * (1 + r.normal(0, 0.08))) * (1 + 0.1 * r.standard_normal(n))
        lat = np.abs(lat)
        io_now = r.poisson(0.25 + 0.5 * tr30)
        busy_frac = np.clip(0.035 * tr30 + 0.004 + 0.003 * r.standard_normal(n), 0.0005, 1)
        psi_some = np.clip(0.0015 + 0.002 * r.standard_normal(n), 0, 1) * (0.3 + tr30)
        psi_full = np.clip(0.0002 * np.abs(r.standard_normal(n)), 0, 1)
        load = 14.0 + 6.0 * tr30 + ar1(n, 0.9, 0.8, r)
        stall_extra = np.zeros(n)
        if h == BAD:
            deg = (tt >= DEGRADE) & (tt < REQUEUE + 30)
            ramp = np.clip((tt - DEGRADE) / 420.0, 0, 1)
            lat_deg = 0.0009 + ramp * np.exp(r.normal(np.log(0.011), 0.6, n))
            lat = np.where(deg, lat_deg, lat)
            busy_frac = np.where(deg, np.clip(0.22 + 0.55 * ramp + 0.1 * r.standard_normal(n), 0.05, 0.995), busy_frac)
            io_now = np.where(deg, r.poisson(2 + 14 * ramp), io_now)
            psi_some = np.where(deg, np.clip(0.15 + 0.45 * ramp + 0.12 * r.standard_normal(n), 0.01, 0.98), psi_some)
            psi_full = np.where(deg, np.clip(0.03 + 0.12 * ramp + 0.05 * r.standard_normal(n), 0.0, 0.9), psi_full)
            load = np.where(deg, load + 18 * ramp + 9 * np.abs(r.standard_normal(n)), load)
            for b in BURSTS:
                # commands stuck until the 30 s timeout (and the reset) inside this scrape interval
                k = np.searchsorted(tt, b + 0.5)
                hold = 30.0 if b != BURSTS[RESET_BURST] else 62.0
                for j in range(k, min(n, k + (3 if hold > 40 else 2))):
                    lat[j] = max(lat[j], 0.09 + r.uniform(0.05, 0.4))
                    stall_extra[j] += (4 + r.integers(0, 5)) * min(hold, 30.0)
                    busy_frac[j] = 1.0
                    io_now[j] = int(r.integers(24, 64))
                    psi_some[j] = min(1.0, 0.85 + 0.1 * r.random())
                    psi_full[j] = min(1.0, 0.5 + 0.3 * r.random())
                    load[j] += 25 + 10 * r.random()
            # after the drain: the job is gone, only the odd metadata read
        read_time_inc = reads_inc * lat + stall_extra
        read_bytes_inc = reads_inc * (131072 - 4096 * r.integers(0, 6, n))
        w_rate = 0.8 + 0.6 * r.random()
        if h == SPARE:   # cold cache after the restart: shards fetched and written
            fill = (tt > FIRST2) * np.exp(-np.clip(tt - FIRST2, 0, None) / 1500.0)
            w_rate = w_rate + 160.0 * fill
            rate_hit = 1 - 0.9 * fill
            reads_inc = np.floor(reads_inc * rate_hit)
            read_time_inc = reads_inc * lat
            read_bytes_inc = reads_inc * 131072
        writes_inc = r.poisson(w_rate * dts)
        write_lat = 0.00003 + 0.00002 * r.random(n)
        if h == BAD:
            write_lat = np.where((tt >= DEGRADE) & (tt < REQUEUE + 30), write_lat * 40, write_lat)
        c0 = r.uniform(2.1e8, 3.3e8)
        reads = np.floor(c0 + np.cumsum(reads_inc))
        rtime = r.uniform(4.0e4, 6.5e4) + np.cumsum(read_time_inc)
        rbytes = np.floor(r.uniform(2.4e13, 3.6e13) + np.cumsum(read_bytes_inc))
        writes = np.floor(r.uniform(1.2e7, 2.0e7) + np.cumsum(writes_inc))
        wtime = r.uniform(900, 1500) + np.cumsum(writes_inc * write_lat)
        wbytes = np.floor(r.uniform(3.0e12, 3.4e12) + np.cumsum(writes_inc * 524288))
        iotime = r.uniform(3.5e4, 5.5e4) + np.cumsum(busy_frac * dts)
        iow = rtime * 1.0 + wtime + r.uniform(100, 300)
        dev = {"nvme0n1": dict(node_disk_reads_completed_total=reads, node_disk_read_time_seconds_total=np.round(rtime, 3),
                               node_disk_read_bytes_total=rbytes, node_disk_writes_completed_total=writes,
                               node_disk_write_time_seconds_total=np.round(wtime, 3),
                               node_disk_written_bytes_total=wbytes,
                               node_disk_io_time_seconds_total=np.round(iotime, 3),
                               node_disk_io_time_weighted_seconds_total=np.round(iow, 3),
                               node_disk_io_now=io_now.astype(float))}
        # -------- sda: OS disk (SATA M.2), journald and logging writes
        s_w = r.poisson(11.0 * dts)
        s_r = r.poisson(0.4 * dts)
        s_wl = 0.00041 + 0.0001 * r.random(n)
        dev["sda"] = dict(node_disk_reads_completed_total=np.floor(r.uniform(2e6, 3e6) + np.cumsum(s_r)),
                          node_disk_read_time_seconds_total=np.round(r.uniform(800, 1400) + np.cumsum(s_r * 0.00022), 3),
                          node_disk_read_bytes_total=np.floor(r.uniform(6e10, 9e10) + np.cumsum(s_r * 16384)),
                          node_disk_writes_completed_total=np.floor(r.uniform(3e7, 4e7) + np.cumsum(s_w)),
                          node_disk_write_time_seconds_total=np.round(r.uniform(9000, 14000) + np.cumsum(s_w * s_wl), 3),
                          node_disk_written_bytes_total=np.floor(r.uniform(8e11, 9e11) + np.cumsum(s_w * 12288)),
                          node_disk_io_time_seconds_total=np.round(r.uniform(1.1e4, 1.6e4) + np.cumsum(s_w * s_wl * 0.9 + s_r * 0.0002), 3),
                          node_disk_io_time_weighted_seconds_total=np.round(r.uniform(2e4, 3e4) + np.cumsum(s_w * s_wl + s_r * 0.00022), 3),
                          node_disk_io_now=r.poisson(0.02, n).astype(float))
        for d, ms in dev.items():
            for name, v in ms.items():
                disk.append(pl.DataFrame({"timestamp": tstr, "metric": [name] * n, "value": v.astype(float),
                                          "instance": [inst] * n, "job": ["node"] * n, "device": [d] * n}))
        # -------- InfiniBand: 8 x NDR compute HCAs
        ib_act = grid_avg(lut(st, 5), tt, SCRAPE) * 1.0
        for p in range(8):
            rp = np.random.default_rng(SEED + 20000 + hi * 10 + p)
            bal = 1 + rp.normal(0, 0.03)
            tx_inc = ib_act * dts * bal * (1 + rp.normal(0, 0.02, n)) + rp.uniform(2e4, 8e4, n) * dts
            rx_inc = ib_act * dts * bal * (1 + rp.normal(0, 0.02, n)) + rp.uniform(2e4, 8e4, n) * dts
            tx = np.floor(rp.uniform(2.2e15, 3.4e15) + np.cumsum(tx_inc))
            rx = np.floor(rp.uniform(2.2e15, 3.4e15) + np.cumsum(rx_inc))
            xw_rate = rp.uniform(1.8e3, 6.5e3) * (ib_act / 4.5e9) + rp.uniform(1, 20)
            xw = np.floor(rp.uniform(2.5e8, 1.6e9) + np.cumsum(rp.poisson(np.maximum(xw_rate * dts, 0))))
            xw = np.minimum(xw, 4294967295.0)
            perr = np.full(n, float(rp.choice([0, 0, 0, 0, 1, 2, 14])))
            down = np.full(n, float(rp.choice([0, 0, 0, 0, 0, 1])))
            for name, v in [("node_infiniband_port_data_transmitted_bytes_total", tx),
                            ("node_infiniband_port_data_received_bytes_total", rx),
                            ("node_infiniband_port_transmit_wait_total", xw),
                            ("node_infiniband_port_errors_received_total", perr),
                            ("node_infiniband_link_downed_total", down)]:
                ib.append(pl.DataFrame({"timestamp": tstr, "metric": [name] * n, "value": v.astype(float),
                                        "instance": [inst] * n, "job": ["node"] * n,
                                        "device": [f"mlx5_{p}"] * n, "port": ["1"] * n}))
        # -------- misc node metrics
        boot = (dt.datetime(2025, 4, 2, 6, 40, tzinfo=UTC) + dt.timedelta(minutes=int(r.integers(0, 90)))).timestamp()
        if h == SPARE:
            boot = dt.datetime(2025, 4, 14, 17, 22, 41, tzinfo=UTC).timestamp()
        psi_w = r.uniform(4000, 9000) + np.cumsum(psi_some * dts)
        psi_s = r.uniform(300, 900) + np.cumsum(psi_full * dts)
        memav = 1.71e12 + ar1(n, 0.98, 1.5e9, r) - 9e10 * tr30
        fs_cache = 8.21e11 + ar1(n, 0.995, 2e8, r) + (-2.6e12 * (1 - np.exp(-np.clip(tt - FIRST2, 0, None) / 1500.0)) * 0.08 if h == SPARE else 0)
        fs_root = 3.12e11 + r.uniform(-4e9, 4e9) - np.cumsum(r.poisson(3, n)) * 4096
        rows = [("node_load1", {}, np.round(np.maximum(load, 0.1), 2)),
                ("node_pressure_io_waiting_seconds_total", {}, np.round(psi_w, 6)),
                ("node_pressure_io_stalled_seconds_total", {}, np.round(psi_s, 6)),
                ("node_memory_MemAvailable_bytes", {}, np.floor(memav / 4096) * 4096),
                ("node_filesystem_avail_bytes", dict(device="/dev/nvme0n1", mountpoint="/mnt/nvme", fstype="xfs"),
                 np.floor(fs_cache / 4096) * 4096),
                ("node_filesystem_avail_bytes", dict(device="/dev/sda2", mountpoint="/", fstype="ext4"),
                 np.floor(fs_root / 4096) * 4096),
                ("node_boot_time_seconds", {}, np.full(n, float(int(boot)))),
                ("node_uname_info", dict(nodename=h, release="5.15.0-119-generic",
                                         version="#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024",
                                         machine="x86_64", sysname="Linux", domainname="(none)"), np.ones(n)),
                ("up", {}, np.ones(n))]
        for name, lab, v in rows:
            misc.append(pl.DataFrame({"timestamp": tstr, "metric": [name] * n, "value": v.astype(float),
                                      "instance": [inst] * n, "job": ["node"] * n,
                                      **{k: [val] * n for k, val in lab.items()}}))
    return pl.concat(disk), pl.concat(ib), pl.concat(misc, how="diagonal")


# ---------------------------------------------------------------- logs
FAULT = {
    # linux-surface/linux-surface#733 (kernel dmesg, nvme0, I/O timeouts on QID 5)
    "ls": ["nvme nvme0: I/O 12 QID 5 timeout, aborting", "nvme nvme0: I/O 13 QID 5 timeout, aborting",
           "nvme nvme0: I/O 14 QID 5 timeout, aborting", "nvme nvme0: I/O 15 QID 5 timeout, aborting",
           "nvme nvme0: I/O 20 QID 5 timeout, aborting", "nvme nvme0: I/O 21 QID 5 timeout, aborting",
           "nvme nvme0: I/O 22 QID 5 timeout, aborting", "nvme nvme0: I/O 23 QID 5 timeout, aborting",
           "nvme nvme0: I/O 29 QID 5 timeout, aborting", "nvme nvme0: I/O 30 QID 5 timeout, aborting",
           "nvme nvme0: I/O 31 QID 5 timeout, aborting", "nvme nvme0: I/O 32 QID 5 timeout, aborting"],
    "abort": "nvme nvme0: Abort status: 0x0",
    # openzfs/zfs#8738 (failing Intel 750 NVMe, long I/O timeouts)
    "zfs": ["nvme nvme0: I/O 416 QID 1 timeout, aborting", "nvme nvme0: I/O 420 QID 1 timeout, aborting"],
    # linux-block list, 2020-05-29 (nvme-pci reset after an I/O timeout)
    "reset": ["nvme nvme0: I/O 960 QID 26 timeout, reset controller",
              "nvme nvme0: Shutdown timeout set to 10 seconds",
              "nvme nvme0: 56/0/0 default/read/poll queues"],
}


def syslog_line(t, host, tag, msg):
    d = ts(t)
    return (d, f"{d.strftime('%b')} {d.day:2d} {d.strftime('%H:%M:%S')} {host} {tag}: {msg}")


def kern(t, host, boot, msg):
    up = t - boot
    return syslog_line(t, host, "kernel", f"[{up:12.6f}] {msg}")


def build_syslogs():
    out = {}
    fault_used = []
    for hi, h in enumerate(HOSTS):
        r = np.random.default_rng(SEED + 40000 + hi)
        boot = (dt.datetime(2025, 4, 2, 6, 40, tzinfo=UTC) - T0).total_seconds() + 60 * int(np.random.default_rng(SEED + 9000 + hi).integers(0, 90)) + 0.0
        if h == SPARE:
            boot = (dt.datetime(2025, 4, 14, 17, 22, 41, tzinfo=UTC) - T0).total_seconds()
        boot += r.uniform(-0.8, 0.8)       # kernel clock vs wall clock
        L = []
        a, b = -300.0, WIN + 300.0
        cron_pid = int(r.integers(180000, 260000))
        # sysstat every 10 min at 5-55/10
        t = sec(7, 55) + r.uniform(0.3, 1.2)
        while t < b:
            cron_pid += int(r.integers(40, 400))
            L.append(syslog_line(t, h, f"CRON[{cron_pid}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"))
            t += 600
        for hh in range(7, 13):
            cron_pid += int(r.integers(40, 400))
            L.append(syslog_line(sec(hh, 17) + r.uniform(0.2, 0.9), h, f"CRON[{cron_pid}]",
                                 "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)"))
        # motd-news / apt timers
        tm = sec(9, int(r.integers(0, 59)), r.uniform(0, 59))
        L += [syslog_line(tm, h, "systemd[1]", "Starting Message of the Day..."),
              syslog_line(tm + 0.6, h, "systemd[1]", "motd-news.service: Deactivated successfully."),
              syslog_line(tm + 0.6, h, "systemd[1]", "Finished Message of the Day.")]
        if r.random() < 0.6:
            ta = sec(11, int(r.integers(0, 59)), r.uniform(0, 59))
            L += [syslog_line(ta, h, "systemd[1]", "Starting Daily apt download activities..."),
                  syslog_line(ta + 2.1, h, "systemd[1]", "apt-daily.service: Deactivated successfully."),
                  syslog_line(ta + 2.1, h, "systemd[1]", "Finished Daily apt download activities.")]
        # chrony
        if r.random() < 0.5:
            L.append(syslog_line(sec(8, int(r.integers(0, 59)), 13.0), h, "chronyd[1488]", "Selected source 10.20.0.2 (ntp1.kestrel.internal)"))
        # perf sampling rate
        if r.random() < 0.35:
            L.append(kern(sec(int(r.integers(8, 12)), int(r.integers(0, 59)), r.uniform(0, 59)), h, boot,
                          "perf: interrupt took too long (3142 > 3135), lowering kernel.perf_event_max_sample_rate to 63500"))
        # node_exporter / dcgm scrapes do not log. Slurm on job hosts:
        slurmd_pid = 2314 + hi
        if h in JOB2:
            if h == JOB2[0]:
                L.append(syslog_line(ALLOC2 + 1.9, h, f"slurmd[{slurmd_pid}]", f"slurmd: Launching batch job {JOBID} for UID 1207"))
            L.append(syslog_line(SCRIPT2 + 2.6 + r.uniform(0, 0.2), h, f"slurmd[{slurmd_pid}]",
                                 f"slurmd: launch task StepId={JOBID}.0 request from UID:1207 GID:1207 HOST:{IP[JOB2[0]]} PORT:{int(r.integers(32768, 60999))}"))
        if h == JOB1[0]:
            L.append(kern(NCCL2 + 3.2, h, boot, "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters."))
        # ssh logins by the on-call on the bad host, and by a user on the head node
        if h == BAD:
            for tl, sess in [(sec(10, 38, 51.2), 4417), (sec(11, 6, 3.9), 4420)]:
                pid = int(r.integers(900000, 990000))
                L += [syslog_line(tl, h, f"sshd[{pid}]", "Accepted publickey for root from 10.20.0.5 port 50112 ssh2: ED25519 SHA256:k3R0xQmV6yq0rJ0c5Pq4b0n6lTQ1cH1k8uV2YwSg9aE"),
                      syslog_line(tl + 0.01, h, f"sshd[{pid}]", "pam_unix(sshd:session): session opened for user root(uid=0) by (uid=0)"),
                      syslog_line(tl + 0.02, h, "systemd-logind[1633]", f"New session {sess} of user root."),
                      syslog_line(tl + 0.03, h, "systemd[1]", f"Started Session {sess} of User root.")]
            # ---- the fault lines (verbatim) ----
            kt = BURSTS
            patterns = [("ls", [0, 1, 2, 3]), ("ls", [4, 5, 6, 7]), ("zfs", [0, 1]), ("ls", [8, 9, 10, 11]),
                        ("ls", [0, 1, 2, 3]), ("reset", None), ("ls", [4, 5, 6, 7]), ("zfs", [0, 1]), ("ls", [8, 9, 10, 11])]
            for bi, (t0, (src, idx)) in enumerate(zip(kt, patterns)):
                tt = t0 + r.uniform(0, 0.3)
                if src == "reset":
                    lines = [FAULT["ls"][i] for i in [0, 1, 2, 3]]
                    for k, ln in enumerate(lines):
                        L.append(kern(tt + 0.00003 * k, h, boot, ln))
                        fault_used.append((ts(tt), ln, "linux-surface"))
                    ta = tt + 0.19
                    for k in range(4):
                        L.append(kern(ta + 0.00002 * k, h, boot, FAULT["abort"]))
                    fault_used.append((ts(ta), FAULT["abort"], "linux-surface"))
                    tr = tt + 30.72
                    L.append(kern(tr, h, boot, FAULT["reset"][0]))
                    L.append(kern(tr + 0.0209, h, boot, FAULT["reset"][1]))
                    L.append(kern(tr + 0.0241, h, boot, FAULT["reset"][2]))
                    for ln in FAULT["reset"]:
                        fault_used.append((ts(tr), ln, "lore"))
                    continue
                lines = [FAULT[src][i] for i in idx]
                for k, ln in enumerate(lines):
                    L.append(kern(tt + 0.00002 * k + (0.09 if (idx[0] == 8 and k >= 1) else 0), h, boot, ln))
                    fault_used.append((ts(tt), ln, src))
                ta = tt + (0.19 if src == "ls" else 0.31)
                for k in range(len(lines)):
                    L.append(kern(ta + 0.00002 * k, h, boot, FAULT["abort"]))
                fault_used.append((ts(ta), FAULT["abort"], "linux-surface"))
        L.sort(key=lambda x: x[0])
        out[h] = [ln for d, ln in L if ts(a) <= d <= ts(b)]
    return out, fault_used


def build_slurmctld():
    r = np.random.default_rng(SEED + 777)
    L = []

    def add(t, msg):
        d = ts(t)
        L.append((t, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{int((t % 1) * 1000):03d}] {msg}"))
    # small jobs on h100-118..h100-124 (outside this folder) come and go
    jid = 884371
    t = sec(7, 58) + r.uniform(0, 60)
    busy_until = {f"h100-{i}": sec(7, 40) + r.uniform(0, 3000) for i in range(118, 125)}
    while t < WIN + 200:
        free = [n for n, u in busy_until.items() if u < t]
        if not free:
            t += r.uniform(120, 600)
            continue
        node = free[int(r.integers(0, len(free)))]
        add(t, f"sched: Allocate JobId={jid} NodeList={node} #CPUs=224 Partition=train")
        dur = r.uniform(600, 5400)
        busy_until[node] = t + dur + 1
        if t + dur < WIN + 200:
            ec = 0 if r.random() < 0.85 else int(r.choice([1, 2]))
            add(t + dur, f"_job_complete: JobId={jid} WEXITSTATUS {ec}")
            add(t + dur + 0.001, f"_job_complete: JobId={jid} done")
        jid += int(r.integers(1, 9))
        t += r.uniform(300, 1500)
    add(DRAIN + 0.531, f"update_node: node {BAD} reason set to: nvme0 I/O timeouts, shard cache slow (ticket OPS-5521)")
    add(DRAIN + 0.531, f"update_node: node {BAD} state set to DRAINED")
    add(REQUEUE, f"Requeuing JobId={JOBID}")
    add(ALLOC2, f"sched: Allocate JobId={JOBID} NodeList=h100-[101-108,110-117] #CPUs=3584 Partition=train")
    L.sort(key=lambda x: x[0])
    return [x[1] for x in L]


def pyts(t):
    d = ts(t)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int((t % 1) * 1000):03d}"


def build_trainer():
    r = np.random.default_rng(SEED + 31337)
    out = []
    lab = lambda k: f"{k:3d}: "

    def run_header(t_script, nodes, restart):
        d = ts(t_script)
        out.append(f"Starting job {JOBID} on {nodes} at {d.strftime('%a %b %d %H:%M:%S UTC %Y')}")
        out.append(f"SLURM_RESTART_COUNT={restart}")
        t = t_script + 31.4
        out.append(lab(0) + f"{pyts(t)} - vlm_train - INFO - world_size=128 local_world_size=8 master={'h100-101'}:29500")
        out.append(lab(0) + f"{pyts(t + 0.01)} - vlm_train - INFO - model=vlm-8b vision_tower=siglip-so400m-patch14-384 fsdp=full_shard bf16=True")
        out.append(lab(0) + f"{pyts(t + 0.02)} - vlm_train - INFO - data=webdataset shards=2912 cache_dir=/mnt/nvme/shard_cache workers=10 prefetch_factor=4")
        out.append(lab(0) + f"{pyts(t + 0.03)} - vlm_train - INFO - global_batch_size={GBS} seq_len={SEQ} micro_batch_size=4 grad_accum=1")

    def nccl_init(t, nodes_list):
        pid0 = int(r.integers(1_500_000, 2_900_000))
        h0 = nodes_list[0]
        out.append(lab(0) + f"{h0}:{pid0}:{pid0} [0] NCCL INFO Bootstrap : Using bond0:{IP[h0]}<0>")
        out.append(lab(0) + f"{h0}:{pid0}:{pid0} [0] NCCL INFO cudaDriverVersion 12040")
        out.append(lab(0) + "NCCL version 2.21.5+cuda12.4")
        out.append(lab(0) + f"{h0}:{pid0}:{pid0 + 381} [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB bond0:{IP[h0]}<0>")
        out.append(lab(0) + f"{h0}:{pid0}:{pid0 + 381} [0] NCCL INFO Using network IB")
        comm = "0x%016x" % int(r.integers(1 << 60, 1 << 62))
        for k in range(128):
            hh = nodes_list[k // 8]
            g = k % 8
            pid = pid0 + 7 * k if hh == h0 else int(r.integers(1_000_000, 2_900_000))
            addr = "0x%x" % int(r.integers(0x55a000000000, 0x55ffffffffff))
            out.append(lab(k) + f"{hh}:{pid}:{pid} [{g}] NCCL INFO ncclCommInitRank comm {addr} rank {k} nranks 128 cudaDev {g} nvmlDev {g} busId {PCI[g].lower()}000 commId {comm} - Init COMPLETE")

    def steps_log(run, ckpt_from):
        lr0 = 3.0e-4
        for i in range(0, len(run)):
            rr = run[i]
            s = rr["step"]
            if s % 10 == 0 and i >= 9:
                win = run[i - 9:i + 1]
                stt = np.mean([w["dur"] for w in win])
                d0 = np.mean([w["wait0"] for w in win])
                # per-rank mean data wait over the interval; report the slowest rank
                bad = np.mean([w["wbad"] for w in win])
                healthy = 0.006 + abs(r.normal(0.003, 0.0015))
                if bad > healthy:
                    dmax, drank = bad, 64 + int(r.integers(0, 8))
                else:
                    dmax, drank = healthy, int(r.integers(0, 128))
                frac = s / 120000
                lr = 1.5e-5 + 0.5 * (lr0 - 1.5e-5) * (1 + np.cos(np.pi * frac))
                loss = 1.62 + 0.55 * np.exp(-s / 9000) + 0.018 * r.standard_normal()
                gn = 0.27 + 0.03 * r.standard_normal() + 0.02 * np.exp(-s / 4000)
                sps = GBS / stt
                tps = TOK_PER_STEP / stt
                mfu = 100 * tps * 6 * 8.3e9 / (128 * 989e12)
                t_line = win[-1]["end"] - win[-1]["ckpt"] + 0.004
                out.append(lab(0) + f"{pyts(t_line)} - vlm_train - INFO - step {s}/120000 | loss {loss:.4f} | lr {lr:.2e} | grad_norm {gn:.3f} | "
                           f"step_time {stt:.3f}s | data_time {d0:.3f}s | data_time_max {dmax:.3f}s (rank {drank}) | samples/s {sps:.1f} | tokens/s {tps:.0f} | mfu {mfu:.1f}%")
            if rr["ckpt"] > 0:
                tck = rr["end"] - rr["ckpt"] + 0.004
                out.append(lab(0) + f"{pyts(tck + 0.002)} - vlm_train - INFO - saving checkpoint to /lustre/vlm8b/ckpt/step_{s:06d}")
                out.append(lab(0) + f"{pyts(rr['end'] - 0.01)} - vlm_train - INFO - saved checkpoint step_{s:06d} in {rr['ckpt']:.1f}s")

    run_header(JOB_START + 4.1, "h100-[101-116]", 0)
    nccl_init(JOB_START + 61.0, JOB1)
    out.append(lab(0) + f"{pyts(JOB_START + 70.3)} - vlm_train - INFO - resuming from /lustre/vlm8b/ckpt/step_{START_STEP:06d}")
    out.append(lab(0) + f"{pyts(FIRST_STEP - 4.2)} - vlm_train - INFO - loaded checkpoint step_{START_STEP:06d} in {FIRST_STEP - 4.2 - JOB_START - 70.3:.1f}s")
    steps_log(run1, None)
    dq = ts(REQUEUE).strftime("%Y-%m-%dT%H:%M:%S")
    out.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
    for hh in JOB1:
        out.append(f"slurmstepd: error: *** STEP {JOBID}.0 ON {hh} CANCELLED AT {dq} DUE TO JOB REQUEUE ***")
    out.append(f"slurmstepd: error: *** JOB {JOBID} ON h100-101 CANCELLED AT {dq} DUE TO JOB REQUEUE ***")
    run_header(SCRIPT2, "h100-[101-108,110-117]", 1)
    nccl_init(NCCL2, JOB2)
    out.append(lab(0) + f"{pyts(NCCL2 + 9.3)} - vlm_train - INFO - resuming from /lustre/vlm8b/ckpt/step_{CKPT_STEP:06d}")
    out.append(lab(0) + f"{pyts(LOADED2)} - vlm_train - INFO - loaded checkpoint step_{CKPT_STEP:06d} in {LOADED2 - NCCL2 - 9.3:.1f}s")
    steps_log(run2, None)
    # cut the file at the time it was copied (12:10)
    keep = []
    for ln in out:
        keep.append(ln)
    # drop lines after 12:10 (file copied then)
    cut = []
    for ln in keep:
        body = ln[5:] if ln[:3].strip().isdigit() and ln[3:5] == ": " else ln
        if body[:4] == "2025" and body[:19] > "2025-04-16 12:10:00":
            continue
        cut.append(ln)
    return cut


# ---------------------------------------------------------------- write everything
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))

    dcgm = build_dcgm()
    dcgm = dcgm.sort(["timestamp", "Hostname", "gpu", "metric"])
    dcgm.write_csv(os.path.join(OUT, "metrics", "dcgm_exporter.csv"))
    disk, ib, misc = build_node()
    disk.sort(["timestamp", "instance", "device", "metric"]).write_csv(os.path.join(OUT, "metrics", "node_exporter_disk.csv"))
    ib.sort(["timestamp", "instance", "device", "metric"]).write_csv(os.path.join(OUT, "metrics", "node_exporter_infiniband.csv"))
    misc.sort(["timestamp", "instance", "metric"]).write_csv(os.path.join(OUT, "metrics", "node_exporter_misc.csv"))

    logs, fault_used = build_syslogs()
    for h, lines in logs.items():
        os.makedirs(os.path.join(OUT, "logs", h), exist_ok=True)
        with open(os.path.join(OUT, "logs", h, "syslog"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(OUT, "logs", "slurmctld.log"), "w") as f:
        f.write("\n".join(build_slurmctld()) + "\n")
    with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as f:
        f.write("\n".join(build_trainer()) + "\n")

    inc_text = f"""# Slurm job {JOBID} (VLM pretraining, 16 x 8 H100, FSDP) ran on h100-[101-116] until it was
# requeued at {ts(REQUEUE).strftime('%H:%M')} UTC; it restarted on h100-[101-108,110-117] (h100-117 was an idle spare).
# metrics/: Prometheus export (30 s scrape) of dcgm-exporter (:9400) and node_exporter (:9100).
# logs/: each host's /var/log/syslog, slurmctld.log, and the job's output file slurm-{JOBID}.out.
"""
    inc = {
        "id": ID,
        "title": "VLM pretraining job 884213 (16 x 8 H100) ran slow, then was requeued",
        "window": {"start": T0.isoformat(), "end": T1.isoformat()},
        "baseline": {"start": T0.isoformat(), "end": ts(sec(9, 30)).isoformat()},
        "primary_signal": "throughput",
        "cluster": {"name": "kestrel", "nodes": len(HOSTS), "gpus_per_node": 8, "gpu_model": "H100"},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        f.write(inc_text)
        yaml.safe_dump(inc, f, sort_keys=False, width=100)

    first_fault = min(d for d, _, _ in fault_used)
    truth = {
        "id": ID,
        "cause": "The local NVMe drive (nvme0n1, data loader shard cache on /mnt/nvme) of h100-109 degraded: "
                 "its reads slowed and timed out (NVMe aborts and a controller reset), h100-109's eight ranks "
                 "waited for their batches and every step of the synchronous job waited for them.",
        "cause_metrics": ["node_disk_read_time_seconds_total", "node_disk_reads_completed_total",
                          "node_disk_io_time_seconds_total", "node_disk_io_time_weighted_seconds_total",
                          "node_disk_io_now", "node_pressure_io_waiting_seconds_total",
                          "node_pressure_io_stalled_seconds_total", "node_load1",
                          "DCGM_FI_DEV_GPU_UTIL (h100-109 lower than its peers while the others wait in NCCL)",
                          "trainer log: data_time_max (ranks 64-71)"],
        "cause_log_evidence": [
            {"text": FAULT["ls"][0], "also": FAULT["ls"][1:],
             "host": BAD, "file": f"logs/{BAD}/syslog",
             "source": "https://github.com/linux-surface/linux-surface/issues/733 (kernel log in the issue body; lines 'nvme nvme0: I/O N QID 5 timeout, aborting' copied verbatim, only the syslog prefix and the [uptime] stamp are ours)"},
            {"text": FAULT["abort"], "host": BAD, "file": f"logs/{BAD}/syslog",
             "source": "https://github.com/linux-surface/linux-surface/issues/733"},
            {"text": FAULT["zfs"][0], "also": FAULT["zfs"][1:], "host": BAD, "file": f"logs/{BAD}/syslog",
             "source": "https://github.com/openzfs/zfs/issues/8738 (failing Intel 750 NVMe slog; lines quoted verbatim)"},
            {"text": FAULT["reset"][0], "also": FAULT["reset"][1:], "host": BAD, "file": f"logs/{BAD}/syslog",
             "source": "linux-block mailing list, Ming Lei quoting Alan Adamson's dmesg, 'Re: [PATCHv3 2/2] nvme: cancel requests for real', 2020-05-29, "
                       "https://lore.kernel.org/linux-block/CACVXFVOTQ7HLV5DCP1XezPqha13LfUrj-fZE8++_BAoTvtPWMA@mail.gmail.com/ (Message-ID CACVXFVOTQ7HLV5DCP1XezPqha13LfUrj-fZE8++_BAoTvtPWMA@mail.gmail.com; three of its dmesg lines copied verbatim, the 'new error during reset' line between them left out)"},
        ],
        "other_evidence": [
            f"logs/slurmctld.log: h100-109 drained at {ts(DRAIN).isoformat()} with reason 'nvme0 I/O timeouts', "
            f"job requeued at {ts(REQUEUE).strftime('%H:%M:%S')} and re-allocated on h100-[101-108,110-117] "
            "(slurmctld message formats from SchedMD/slurm src/slurmctld: update_node, Requeuing %pJ, sched: Allocate)",
            f"logs/slurm-{JOBID}.out: data_time_max names ranks 64-71 (h100-109) from ~09:41; checkpoint step_{CKPT_STEP:06d}; restart",
        ],
        "hosts": [BAD],
        "gpu": None,
        "device": "nvme0n1 on h100-109",
        "onset": ts(DEGRADE).isoformat().replace("+00:00", "Z"),
        "onset_notes": {
            "drive_latency_climbs": ts(DEGRADE).isoformat().replace("+00:00", "Z"),
            "job_throughput_falls": ts(LOADER_BEHIND).isoformat().replace("+00:00", "Z"),
            "first_nvme_timeout_line": first_fault.isoformat().replace("+00:00", "Z"),
            "controller_reset": ts(BURSTS[RESET_BURST] + 30.72).isoformat().replace("+00:00", "Z"),
            "node_drained": ts(DRAIN).isoformat().replace("+00:00", "Z"),
            "job_requeued": ts(REQUEUE).isoformat().replace("+00:00", "Z"),
            "training_resumed": ts(FIRST2).isoformat().replace("+00:00", "Z"),
        },
        "job_throughput_loss_pct": round(float(LOSS), 2),
        "loss_period": {"start": ts(LOADER_BEHIND).isoformat().replace("+00:00", "Z"),
                        "end": ts(ck_after["start"]).isoformat().replace("+00:00", "Z")},
        "baseline_tokens_per_s": round(BASE_RATE),
        "degraded_tokens_per_s": round(DEG_RATE),
        "restart_downtime_s": round(FIRST2 - REQUEUE + (REQUEUE - ck_after["end"])),
        "what_a_good_postmortem_says": (
            "From about 09:38-09:41 UTC the job's throughput fell ~%.1f%% on every rank because h100-109's data loader "
            "was starved: its local NVMe shard-cache drive (nvme0n1) showed read latency and busy time climbing and "
            "the kernel logged NVMe I/O timeouts, aborts and a controller reset, while its GPUs idled more than their peers. "
            "Draining h100-109 and requeueing onto the spare h100-117 at ~%s restored full speed; the drive should be "
            "replaced, and the GPUs and fabric were not at fault." % (LOSS, ts(REQUEUE).strftime("%H:%M"))),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)
    print("loss %.2f%% base %.0f deg %.0f requeue %s ckpt %d first2 %s" % (LOSS, BASE_RATE, DEG_RATE, ts(REQUEUE), CKPT_STEP, ts(FIRST2)))


if __name__ == "__main__":
    main()
