"""Shared helpers for the two blind incident generators (make_*.py).

Models a synchronous data-parallel Megatron-LM job on 8-GPU H100 hosts, second by
second, and renders what the cluster's exporters and logs would have recorded:
dcgm-exporter and node_exporter series (as scraped by Prometheus, each target at its
own phase), the trainer's own gauge, kernel logs and the job's Slurm output.

Nothing here is read by the tool; the generated folders are.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from dataclasses import dataclass, field

import numpy as np
import polars as pl

UTC = dt.timezone.utc

IDLE, TRAIN, STALL, EVAL, CKPT = 0, 1, 2, 3, 4


def parse(s: str) -> float:
    return dt.datetime.fromisoformat(s).timestamp()


def utc(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, UTC)


def gpu_uuid(rng) -> str:
    h = "".join(rng.choice(list("0123456789abcdef"), 32))
    return f"GPU-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


# --------------------------------------------------------------------------------------
# hosts
# --------------------------------------------------------------------------------------


@dataclass
class Rail:
    dev: str  # mlx5_N
    bus: int
    netdev: str
    fn: int = 0


@dataclass
class Host:
    name: str
    idx: int
    gpu_buses: list
    uuids: list
    rails: list
    boot: float
    # persistent per-host / per-GPU character
    inlet: float = 0.0
    gpu_toff: np.ndarray = None
    mem_toff: np.ndarray = None
    pwr_off: np.ndarray = None
    tensor_off: np.ndarray = None
    clk_throttle: np.ndarray = None
    fb_used: np.ndarray = None
    replay: np.ndarray = None
    remapped: np.ndarray = None
    rail_rate: np.ndarray = None
    carrier0: np.ndarray = None
    pids: list = field(default_factory=list)


def make_hosts(rng, names, gpu_buses, rails, boot_range, warm=None):
    hosts = []
    for i, n in enumerate(names):
        boot = rng.uniform(*boot_range)
        h = Host(
            name=n,
            idx=i,
            gpu_buses=list(gpu_buses),
            uuids=[gpu_uuid(rng) for _ in range(8)],
            rails=[Rail(**r) if isinstance(r, dict) else r for r in rails],
            boot=boot,
        )
        # rack position: inlet temperature differs by host and persists
        h.inlet = rng.normal(0.0, 1.3)
        # GPU position in the chassis (airflow): the back row runs warmer
        pos = np.array([0.0, 0.6, 1.1, 1.8, 2.4, 2.9, 3.3, 3.9])
        h.gpu_toff = pos + rng.normal(0, 1.2, 8)
        h.mem_toff = pos * 1.2 + rng.normal(0, 1.5, 8)
        h.pwr_off = rng.normal(0, 14, 8)  # silicon/leakage differences, W
        h.tensor_off = rng.normal(0, 0.006, 8)
        h.clk_throttle = np.clip(0.30 + h.pwr_off / 60.0, 0.1, 0.7)
        h.fb_used = (rng.normal(74100, 650, 8) // 2 * 2).astype(int)
        h.replay = np.where(rng.random(8) < 0.08, rng.integers(1, 40, 8), 0)
        h.remapped = np.where(rng.random(8) < 0.04, 1, 0)
        h.rail_rate = 1.0 + rng.normal(0, 0.025, len(h.rails))
        h.carrier0 = rng.choice([2, 2, 2, 4, 4, 6], len(h.rails))
        if warm is not None and n == warm["host"]:
            h.inlet += warm["dT"]
            h.gpu_toff = h.gpu_toff + warm.get("dGPU", 0.0)
            h.mem_toff = h.mem_toff + warm.get("dMEM", 0.0)
            h.pwr_off = h.pwr_off + warm.get("dP", 0.0)
        hosts.append(h)
    return hosts


# --------------------------------------------------------------------------------------
# the job, second by second
# --------------------------------------------------------------------------------------


@dataclass
class JobCfg:
    start: float  # srun start (epoch s)
    train_start: float  # first iteration starts
    end: float  # simulate until
    it0: int  # iteration of the loaded checkpoint
    train_iters: int
    gbs: int
    seq: int
    world: int
    iter_s: float
    log_interval: int = 10
    save_interval: int = 1200
    eval_interval: int = 2400
    eval_s: float = 62.0
    ckpt_s: float = 44.0
    gc_interval: int = 100
    gc_s: float = 0.45
    hiccup_p: float = 0.0015
    flops_per_token: float = 6.108e10
    lr_max: float = 3.0e-4
    lr_min: float = 3.0e-5
    warmup: int = 2000
    loss0: float = 2.05


@dataclass
class Flap:
    down: float  # link down (epoch s)
    dur: float  # seconds the link stayed down
    extra: float  # RC retransmit wait after link up before traffic resumed


@dataclass
class Timeline:
    t0: int
    state: np.ndarray  # per second from t0
    link_down: np.ndarray  # per second: 1 while the faulty link is down
    iters: list  # (it, start, end, stalled_s)
    logs: list  # dict per log event
    evals: list  # (it, start, end, loss)
    ckpts: list  # (it, start, end)
    stalls: list  # (start, end)

    def idx(self, t):
        return np.clip((np.asarray(t) - self.t0).astype(np.int64), 0, len(self.state) - 1)


def lr_at(cfg: JobCfg, it: int) -> float:
    if it < cfg.warmup:
        return cfg.lr_max * it / cfg.warmup
    p = min(1.0, (it - cfg.warmup) / (cfg.train_iters - cfg.warmup))
    return cfg.lr_min + 0.5 * (cfg.lr_max - cfg.lr_min) * (1 + math.cos(math.pi * p))


def _pause_flaps(pending, a, b, stalls):
    add = 0.0
    while pending and pending[0].down < b + add:
        f = pending.pop(0)
        if f.down < a:
            continue
        stalls.append((f.down, f.down + f.dur + f.extra))
        add += f.dur + f.extra
    return add


def simulate_job(rng, cfg: JobCfg, flaps=()):
    t0 = int(cfg.start) - 60
    n = int(cfg.end - t0) + 120
    state = np.zeros(n, dtype=np.int8)
    link_down = np.zeros(n, dtype=np.int8)
    flaps = sorted(flaps, key=lambda f: f.down)
    for f in flaps:
        a, b = int(f.down - t0), int(f.down + f.dur - t0)
        link_down[a:b] = 1

    def mark(a, b, s):
        ia, ib = int(math.floor(a - t0)), int(math.ceil(b - t0))
        state[max(ia, 0):max(ib, 0)] = s

    iters, logs, evals, ckpts, stalls = [], [], [], [], []
    t = cfg.train_start
    it = cfg.it0
    slow = 0.0
    interval_busy = 0.0
    last_log_t = t
    pending = list(flaps)
    while t < cfg.end:
        it += 1
        slow = 0.996 * slow + rng.normal(0, 0.00027)
        d = cfg.iter_s * math.exp(rng.normal(0, 0.011) + slow)
        if rng.random() < cfg.hiccup_p:  # a slow batch now and then (data loading, GC in a worker)
            d += rng.uniform(0.8, 3.5)
        if cfg.gc_interval and it % cfg.gc_interval == 0:
            d += cfg.gc_s * rng.uniform(0.8, 1.2)
        s, e = t, t + d
        stalled = 0.0
        while pending and pending[0].down < e:
            f = pending.pop(0)
            if f.down < s:
                continue
            st = f.dur + f.extra
            stalls.append((f.down, f.down + st))
            stalled += st
            e += st
        mark(s, e, TRAIN)
        for a, b in stalls[-3:]:
            if a >= s and b <= e + 1e-9:
                mark(a, b, STALL)
        iters.append((it, s, e, stalled))
        interval_busy += e - s
        t = e
        if it % cfg.log_interval == 0:
            elapsed = interval_busy / cfg.log_interval
            wall = t - last_log_t
            toks = cfg.log_interval * cfg.gbs * cfg.seq
            logs.append(
                dict(
                    it=it,
                    t=t,
                    elapsed_ms=elapsed * 1000.0,
                    tflops=cfg.gbs * cfg.seq * cfg.flops_per_token / (elapsed * 1e12 * cfg.world),
                    tok_s=toks / wall,
                    lr=lr_at(cfg, it),
                    loss=cfg.loss0 - 0.045 * math.log1p((it - cfg.it0) / 4000.0) + rng.normal(0, 0.018),
                    gnorm=abs(0.205 + rng.normal(0, 0.025)) + (0.05 if stalled else 0.0) * 0,
                )
            )
            interval_busy = 0.0
            last_log_t = t
            # Megatron stops 'interval-time' around eval and checkpointing: the printed
            # time per iteration excludes them; the exporter's wall-clock gauge does not
            if cfg.eval_interval and it % cfg.eval_interval == 0:
                ed = cfg.eval_s * rng.uniform(0.95, 1.06)
                ed += _pause_flaps(pending, t, t + ed, stalls)
                mark(t, t + ed, EVAL)
                evals.append((it, t, t + ed, logs[-1]["loss"] + 0.035 + rng.normal(0, 0.01)))
                t += ed
            if cfg.save_interval and it % cfg.save_interval == 0:
                cd = cfg.ckpt_s * rng.uniform(0.9, 1.15)
                cd += _pause_flaps(pending, t, t + cd, stalls)
                mark(t, t + cd, CKPT)
                ckpts.append((it, t, t + cd))
                t += cd
            logs[-1]["resume_t"] = t
    return Timeline(t0, state, link_down, iters, logs, evals, ckpts, stalls)


def gauge_series(tl: Timeline, times):
    """The trainer exporter's gauges at scrape times: trainer_tokens_per_second is the
    tokens of the last completed log interval over its wall time (an eval or checkpoint
    pause after a log is charged to the next interval); the step time is Megatron's
    printed time per iteration (pauses excluded)."""
    lt = np.array([l["t"] for l in tl.logs])
    tok = np.array([l["tok_s"] for l in tl.logs])
    step = np.array([l["elapsed_ms"] / 1000.0 for l in tl.logs])
    its = np.array([l["it"] for l in tl.logs])
    i = np.searchsorted(lt, np.asarray(times), side="right") - 1
    ok = i >= 0
    i = np.clip(i, 0, len(lt) - 1)
    return ok, tok[i], step[i], its[i]


# --------------------------------------------------------------------------------------
# scrape times
# --------------------------------------------------------------------------------------


def scrape_times(rng, w0, w1, interval, phase=None):
    phase = rng.uniform(0, interval) if phase is None else phase
    first = w0 + ((phase - (w0 % interval)) % interval)
    t = np.arange(first, w1, interval)
    t = t + rng.normal(0, 0.0025, len(t))  # scrape start jitter, ms-level
    return np.round(t, 3)


def iso_ms(times):
    out = []
    for t in times:
        d = dt.datetime.fromtimestamp(round(float(t), 3), UTC)
        out.append(d.isoformat(timespec="milliseconds"))
    return out


# --------------------------------------------------------------------------------------
# GPU physics per second
# --------------------------------------------------------------------------------------

P_STATE = {IDLE: 72.0, TRAIN: 641.0, STALL: 196.0, EVAL: 478.0, CKPT: 118.0}
P_SD = {IDLE: 2.0, TRAIN: 37.0, STALL: 11.0, EVAL: 29.0, CKPT: 9.0}


def gpu_power_mean(h: Host, state):
    """Per-second mean power for the host's 8 GPUs, shape (8, n)."""
    base = np.vectorize(P_STATE.get)(state).astype(float)
    scale = np.where(state == TRAIN, 1.0, np.where(state == EVAL, 0.75, np.where(state == STALL, 0.1, 0.02)))
    return base[None, :] + h.pwr_off[:, None] * scale[None, :]


def lag(x, tau):
    """first-order lag along the last axis (1-s steps)"""
    a = 1.0 - math.exp(-1.0 / tau)
    y = np.empty_like(x)
    acc = x[..., 0].copy()
    for i in range(x.shape[-1]):
        acc += a * (x[..., i] - acc)
        y[..., i] = acc
    return y


# --------------------------------------------------------------------------------------
# series builders
# --------------------------------------------------------------------------------------


def fmt_int(v):
    return pl.Series(np.round(v).astype(np.int64)).cast(pl.Utf8)


def fmt_float(v, nd):
    return pl.Series(np.round(np.asarray(v, dtype=float), nd)).cast(pl.Utf8)


def dcgm_host_frames(rng, h: Host, tl: Timeline, times, pf_gpu, pf_mem, energy0, nvl0, driver, model,
                     metrics, prof_extra=False, string_values=True):
    """Rows of one dcgm-exporter target (8 GPUs). Returns a list of DataFrames."""
    n = len(times)
    lagged = times - rng.uniform(0.2, 1.5, n)  # DCGM collects on its own clock
    si = tl.idx(lagged)
    st = tl.state[si]
    pmean = gpu_power_mean(h, tl.state)
    ecum = np.cumsum(pmean, axis=1)  # J since t0
    frames = []
    ts = iso_ms(times) if string_values else None
    for g in range(8):
        labels = dict(
            Hostname=h.name,
            gpu=str(g),
            UUID=h.uuids[g],
            device=f"nvidia{g}",
            modelName=model,
            pci_bus_id=f"00000000:{h.gpu_buses[g]:02X}:00.0",
            DCGM_FI_DRIVER_VERSION=driver,
        )
        vals = {}
        # utilisation
        u = np.full(n, 100.0)
        tr = st == TRAIN
        u[tr] = np.where(rng.random(tr.sum()) < 0.87, 100, rng.integers(95, 100, tr.sum()))
        ck = st == CKPT
        u[ck] = np.where(rng.random(ck.sum()) < 0.55, 0, rng.integers(1, 14, ck.sum()))
        u[st == IDLE] = 0
        vals["DCGM_FI_DEV_GPU_UTIL"] = ("i", u)
        # power
        p = pmean[g, si] + np.vectorize(P_SD.get)(st) * rng.standard_normal(n)
        # power-capped at 700 W: readings bunch up just below the cap, a few overshoot
        over = p > 676.0
        p = np.where(over, 676.0 + (p - 676.0) * 0.32 + rng.normal(0, 2.2, n), p)
        p = np.clip(p, 55.0, 708.5)
        vals["DCGM_FI_DEV_POWER_USAGE"] = ("f3", p)
        # temperatures from lagged power
        tg = 27.5 + h.inlet + h.gpu_toff[g] + 0.0565 * pf_gpu[g, si] + rng.normal(0, 0.35, n)
        tm = 31.0 + h.inlet + h.mem_toff[g] + 0.0640 * pf_mem[g, si] + rng.normal(0, 0.35, n)
        vals["DCGM_FI_DEV_GPU_TEMP"] = ("i", tg)
        vals["DCGM_FI_DEV_MEMORY_TEMP"] = ("i", tm)
        # SM clock: power-capped GPUs dip below max boost under load
        c = np.full(n, 1980.0)
        thr = tr & (rng.random(n) < h.clk_throttle[g])
        c[thr] = 1980 - 15 * rng.integers(1, 17, thr.sum())
        vals["DCGM_FI_DEV_SM_CLOCK"] = ("i", c)
        if "DCGM_FI_DEV_MEM_CLOCK" in metrics:
            vals["DCGM_FI_DEV_MEM_CLOCK"] = ("i", np.full(n, 2619.0))
        vals["DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"] = ("i", (energy0[g] + ecum[g, si]) * 1000.0)
        vals["DCGM_FI_DEV_PCIE_REPLAY_COUNTER"] = ("i", np.full(n, float(h.replay[g])))
        vals["DCGM_FI_DEV_XID_ERRORS"] = ("i", np.zeros(n))
        vals["DCGM_FI_DEV_FB_USED"] = ("i", np.where(st == IDLE, 1.0, float(h.fb_used[g])))
        vals["DCGM_FI_DEV_FB_FREE"] = ("i", 81559 - 587 - vals["DCGM_FI_DEV_FB_USED"][1])
        rate = np.select([tl.state == TRAIN, tl.state == EVAL], [5.6e10, 9.0e8], 2.0e6)
        nvl = nvl0[g] + np.cumsum(rate * (1 + 0.01 * g))
        vals["DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL"] = ("i", nvl[si])
        ta = np.select([st == TRAIN, st == EVAL, st == STALL], [0.432 + h.tensor_off[g], 0.318, 0.0012], 0.0)
        ta = np.clip(ta + np.where(st == TRAIN, rng.normal(0, 0.021, n), rng.normal(0, 0.0004, n)), 0, 1)
        vals["DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"] = ("f6", ta)
        ga = np.select([st == TRAIN, st == EVAL, st == STALL, st == CKPT], [0.978, 0.962, 0.995, 0.045], 0.0)
        ga = np.clip(ga + rng.normal(0, 0.009, n), 0, 1)
        vals["DCGM_FI_PROF_GR_ENGINE_ACTIVE"] = ("f6", ga)
        da = np.select([st == TRAIN, st == EVAL, st == STALL, st == CKPT], [0.38, 0.29, 0.002, 0.02], 0.0)
        vals["DCGM_FI_PROF_DRAM_ACTIVE"] = ("f6", np.clip(da + rng.normal(0, 0.02, n) * (da > 0.1), 0, 1))
        vals["DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS"] = ("i", np.full(n, float(h.remapped[g])))
        vals["DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"] = ("i", np.zeros(n))
        vals["DCGM_FI_DEV_ROW_REMAP_FAILURE"] = ("i", np.zeros(n))
        for m in metrics:
            kind, v = vals[m]
            frames.append(series_frame(m, ts, times, kind, v, labels, string_values))
    return frames


def series_frame(metric, ts, times, kind, v, labels, string_values=True):
    n = len(times)
    if string_values:
        if kind == "i":
            vs = fmt_int(v)
        else:
            vs = fmt_float(v, int(kind[1:]))
        d = {"timestamp": ts, "metric": [metric] * n, "value": vs}
    else:
        vv = np.round(np.asarray(v, dtype=float), 0 if kind == "i" else int(kind[1:]))
        d = {
            "timestamp": pl.Series((np.asarray(times) * 1000).round().astype(np.int64)).cast(pl.Datetime("ms")).dt.replace_time_zone("UTC"),
            "metric": [metric] * n,
            "value": vv,
        }
    for k, val in labels.items():
        d[k] = [val] * n
    return pl.DataFrame(d)


def write_csv(path, frames, columns):
    with open(path, "wb") as fh:
        first = True
        for f in frames:
            for c in columns:
                if c not in f.columns:
                    f = f.with_columns(pl.lit("").alias(c))
            f = f.select(columns)
            f.write_csv(fh, include_header=first)
            first = False


def write_parquet(path, frames, columns):
    out = []
    for f in frames:
        for c in columns:
            if c not in f.columns:
                f = f.with_columns(pl.lit(None, dtype=pl.Utf8).alias(c))
        out.append(f.select(columns))
    df = pl.concat(out, how="vertical")
    df.write_parquet(path, compression="zstd", statistics=True, row_group_size=250_000)
    return df.height


# --------------------------------------------------------------------------------------
# kernel / syslog formatting
# --------------------------------------------------------------------------------------


def short_iso(t):
    # journalctl -o short-iso, systemd 249 (Ubuntu 22.04): 2025-09-16T07:41:12+0000
    return utc(t).strftime("%Y-%m-%dT%H:%M:%S%z")


def dmesg_T(t):
    d = utc(t)
    return "[" + d.strftime("%a %b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S %Y") + "]"


def syslog_trad(t):
    d = utc(t)
    return d.strftime("%b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S")


def mono(x):
    return f"[{x:12.6f}]"


# --------------------------------------------------------------------------------------
# boot messages (Ubuntu 22.04, 5.15.0-112-generic, Dell PowerEdge XE9680, H100 SXM5)
# --------------------------------------------------------------------------------------


def xe9680_boot(rng, h: Host, frontend, nvswitch_buses, rootuuid):
    """[(mono_seconds, ident, message)] of one boot; ident 'kernel' or 'systemd[1]'."""
    L = []
    m = [0.0]

    def k(dtm, msg, ident="kernel"):
        m[0] += dtm
        L.append((m[0], ident, msg))

    cmd = (f"BOOT_IMAGE=/vmlinuz-5.15.0-112-generic root=UUID={rootuuid} ro console=tty0 "
           "console=ttyS1,115200n8 iommu=pt intel_iommu=on transparent_hugepage=madvise")
    k(0, "Linux version 5.15.0-112-generic (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #122-Ubuntu SMP Thu May 23 07:48:21 UTC 2024 (Ubuntu 5.15.0-112.122-generic 5.15.152)")
    k(0, "Command line: " + cmd)
    for s in ["KERNEL supported cpus:", "  Intel GenuineIntel", "  AMD AuthenticAMD", "  Hygon HygonGenuine",
              "  Centaur CentaurHauls", "  zhaoxin   Shanghai  ",
              "x86/split lock detection: #AC: crashing the kernel on kernel split_locks and warning on user-space split_locks",
              "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'",
              "x86/fpu: Supporting XSAVE feature 0x002: 'SSE registers'",
              "x86/fpu: Supporting XSAVE feature 0x004: 'AVX registers'",
              "x86/fpu: Supporting XSAVE feature 0x020: 'AVX-512 opmask'",
              "x86/fpu: Supporting XSAVE feature 0x040: 'AVX-512 Hi256'",
              "x86/fpu: Supporting XSAVE feature 0x080: 'AVX-512 ZMM_Hi256'",
              "x86/fpu: Supporting XSAVE feature 0x200: 'Protection Keys User registers'",
              "x86/fpu: Supporting XSAVE feature 0x20000: 'AMX Tile config'",
              "x86/fpu: Supporting XSAVE feature 0x40000: 'AMX Tile data'",
              "x86/fpu: Enabled xstate features 0x602e7, context size is 11008 bytes, using 'compacted' format.",
              "signal: max sigframe size: 11008",
              "BIOS-provided physical RAM map:",
              "BIOS-e820: [mem 0x0000000000000000-0x000000000009ffff] usable",
              "BIOS-e820: [mem 0x0000000000100000-0x000000005b8f1fff] usable",
              "BIOS-e820: [mem 0x000000005b8f2000-0x000000006f3fefff] reserved",
              "BIOS-e820: [mem 0x000000006f3ff000-0x000000006fbfefff] ACPI NVS",
              "BIOS-e820: [mem 0x000000006fbff000-0x000000006fffefff] ACPI data",
              "BIOS-e820: [mem 0x000000006ffff000-0x000000006fffffff] usable",
              "BIOS-e820: [mem 0x0000000070000000-0x000000008fffffff] reserved",
              "BIOS-e820: [mem 0x00000000fe010000-0x00000000fe010fff] reserved",
              "BIOS-e820: [mem 0x0000000100000000-0x000000207fffffff] usable",
              "NX (Execute Disable) protection: active",
              "SMBIOS 3.5.0 present.",
              "DMI: Dell Inc. PowerEdge XE9680/0KK0RG, BIOS 2.3.5 09/10/2024",
              "tsc: Detected 2000.000 MHz processor"]:
        k(0, s)
    k(0.000019, "tsc: Detected 1999.998 MHz TSC")
    k(0.000004, "e820: update [mem 0x00000000-0x00000fff] usable ==> reserved")
    k(0.000003, "e820: remove [mem 0x000a0000-0x000fffff] usable")
    k(0.000007, "last_pfn = 0x2080000 max_arch_pfn = 0x400000000")
    k(0.001011, "x86/PAT: Configuration [0-7]: WB  WC  UC- UC  WB  WP  UC- WT  ")
    k(0.000791, "last_pfn = 0x70000 max_arch_pfn = 0x400000000")
    k(0.011702, "Using GB pages for direct mapping")
    k(0.002321, "RAMDISK: [mem 0x2c8b6000-0x3203cfff]")
    k(0.000012, "ACPI: Early table checksum verification disabled")
    k(0.000006, "ACPI: RSDP 0x00000000000F05B0 000024 (v02 DELL  )")
    k(0.000006, "ACPI: XSDT 0x000000006FFC6188 00010C (v01 DELL   PE_SC3   00000002 DELL 00000001)")
    for tbl, addr, ln in [("FACP", "6FFC1000", "000114"), ("DSDT", "6FD9B000", "1D3C9C"), ("FACS", "6FA8B000", "000040"),
                          ("SSDT", "6FFC4000", "000652"), ("MCEJ", "6FFC3000", "000130"), ("WD__", "6FFC2000", "000134"),
                          ("SLIC", "6FFC0000", "000024"), ("HPET", "6FFBF000", "000038"), ("APIC", "6FFBC000", "00244E"),
                          ("MCFG", "6FFBB000", "00003C"), ("MIGT", "6FFBA000", "000040"), ("MSCT", "6FFB9000", "000090"),
                          ("PCAT", "6FFB8000", "000088"), ("PCCT", "6FFB7000", "00006E"), ("RASF", "6FFB6000", "000030"),
                          ("SLIT", "6FFB5000", "00002D"), ("SRAT", "6FFB2000", "002830"), ("SVOS", "6FFB1000", "000032"),
                          ("WSMT", "6FFB0000", "000028"), ("OEM4", "6FF6A000", "045F93"), ("SSDT", "6FF63000", "006C7A"),
                          ("SPCR", "6FF62000", "000050"), ("DMAR", "6FF61000", "000290"), ("HEST", "6FF60000", "00017C"),
                          ("BERT", "6FF5F000", "000030"), ("ERST", "6FF5E000", "000230"), ("EINJ", "6FF5D000", "000150")]:
        k(0.000004, f"ACPI: {tbl} 0x00000000{addr} {ln} (v01 DELL   PE_SC3   00000002 DELL 00000001)")
    k(0.000531, "SRAT: PXM 0 -> APIC 0x00 -> Node 0")
    k(0.002211, "NUMA: Initialized distance table, cnt=2")
    k(0.000701, "NODE_DATA(0) allocated [mem 0x107ffd5000-0x107fffffff]")
    k(0.000089, "NODE_DATA(1) allocated [mem 0x207ffd4000-0x207fffefff]")
    k(0.001201, "Zone ranges:")
    k(0.000002, "  DMA      [mem 0x0000000000001000-0x0000000000ffffff]")
    k(0.000001, "  DMA32    [mem 0x0000000001000000-0x00000000ffffffff]")
    k(0.000001, "  Normal   [mem 0x0000000100000000-0x000000207fffffff]")
    k(0.000001, "  Device   empty")
    k(0.182301, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs")
    k(0.006120, "Booting paravirtualized kernel on bare hardware")
    k(0.006371, "setup_percpu: NR_CPUS:8192 nr_cpumask_bits:224 nr_cpu_ids:224 nr_node_ids:2")
    k(0.054230, "Built 2 zonelists, mobility grouping on.  Total pages: 528157441")
    k(0.000004, "Policy zone: Normal")
    k(0.000002, "Kernel command line: " + cmd)
    k(0.000191, 'Unknown kernel command line parameters "BOOT_IMAGE=/vmlinuz-5.15.0-112-generic", will be passed to user space.')
    k(3.761201, "Memory: 2112874844K/2146922152K available (16393K kernel code, 4393K rwdata, 10872K rodata, 3336K init, 6288K bss, 34047048K reserved, 0K cma-reserved)")
    k(0.412011, "SLUB: HWalign=64, Order=0-3, MinObjects=0, CPUs=224, Nodes=2")
    k(0.000021, "ftrace: allocating 50633 entries in 198 pages")
    k(0.041201, "ftrace: allocated 198 pages with 4 groups")
    k(0.001821, "rcu: Hierarchical RCU implementation.")
    k(0.000002, "rcu: \tRCU restricting CPUs from NR_CPUS=8192 to nr_cpu_ids=224.")
    k(0.011300, "Console: colour dummy device 80x25")
    k(0.000501, "printk: console [tty0] enabled")
    k(0.412001, "printk: console [ttyS1] enabled")
    k(0.005021, "mempolicy: Enabling automatic NUMA balancing. Configure with numa_balancing= or the kernel.numa_balancing sysctl")
    k(0.000210, "ACPI: Core revision 20210730")
    k(0.004421, "clocksource: hpet: mask: 0xffffffff max_cycles: 0xffffffff, max_idle_ns: 79635855245 ns")
    k(0.000201, "APIC: Switch to symmetric I/O mode setup")
    k(0.000002, "DMAR: Host address width 52")
    k(0.021201, "x2apic enabled")
    k(0.001101, "Switched APIC routing to cluster x2apic.")
    k(0.003312, "clocksource: tsc-early: mask: 0xffffffffffffffff max_cycles: 0x39a84e6b4a6, max_idle_ns: 881590452541 ns")
    k(0.000021, "Calibrating delay loop (skipped), value calculated using timer frequency.. 3999.99 BogoMIPS (lpj=7999996)")
    k(0.004011, "CPU0: Thermal monitoring enabled (TM1)")
    k(0.000101, "x86/cpu: User Mode Instruction Prevention (UMIP) activated")
    k(0.000003, "process: using mwait in idle threads")
    k(0.000002, "Spectre V1 : Mitigation: usercopy/swapgs barriers and __user pointer sanitization")
    k(0.000002, "Spectre V2 : Mitigation: Enhanced IBRS")
    k(0.000001, "Spectre V2 : Spectre v2 / SpectreRSB mitigation: Filling RSB on context switch")
    k(0.000001, "Spectre V2 : mitigation: Enabling conditional Indirect Branch Prediction Barrier")
    k(0.000001, "Speculative Store Bypass: Mitigation: Speculative Store Bypass disabled via prctl and seccomp")
    k(0.120021, "smpboot: CPU0: Intel(R) Xeon(R) Platinum 8480+ (family: 0x6, model: 0x8f, stepping: 0x8)")
    k(0.000401, "Performance Events: XSAVE Architectural LBR, PEBS fmt4+-baseline,  AnyThread deprecated, Sapphire Rapids events, 32-deep LBR, full-width counters, Intel PMU driver.")
    k(0.000101, "rcu: Hierarchical SRCU implementation.")
    k(0.009101, "smp: Bringing up secondary CPUs ...")
    k(0.000210, "x86: Booting SMP configuration:")
    k(1.601201, "smp: Brought up 2 nodes, 224 CPUs")
    k(0.000002, "smpboot: Max logical packages: 2")
    k(0.000003, "smpboot: Total of 224 processors activated (895998.72 BogoMIPS)")
    k(1.081201, "devtmpfs: initialized")
    k(0.000511, "x86/mm: Memory block size: 2048MB")
    k(0.012021, "NET: Registered PF_NETLINK/PF_ROUTE protocol family")
    k(0.009101, "PCI: MMCONFIG for domain 0000 [bus 00-ff] at [mem 0x80000000-0x8fffffff] (base 0x80000000)")
    k(0.000201, "PCI: Using configuration type 1 for base access")
    k(0.301201, "ACPI: Added _OSI(Module Device)")
    k(0.000002, "ACPI: Added _OSI(Processor Device)")
    k(0.210121, "ACPI: 25 ACPI AML tables successfully acquired and loaded")
    k(0.101211, "ACPI: Interpreter enabled")
    k(0.000021, "ACPI: PM: (supports S0 S5)")
    k(0.000011, "ACPI: Using IOAPIC for interrupt routing")
    roots = ["00-15", "16-2f", "30-47", "48-5f", "60-7e", "80-95", "96-af", "b0-c7", "c8-df", "e0-fe"]
    for i, r in enumerate(roots):
        k(0.012011, f"ACPI: PCI Root Bridge [PC{i:02d}] (domain 0000 [bus {r}])")
    for b in h.gpu_buses:
        k(0.001201, f"pci 0000:{b:02x}:00.0: [10de:2330] type 00 class 0x030200")
    for r in h.rails:
        k(0.000901, f"pci 0000:{r.bus:02x}:00.0: [15b3:1021] type 00 class 0x020000")
        k(0.000301, f"pci 0000:{r.bus:02x}:00.1: [15b3:1021] type 00 class 0x020000")
    for b in nvswitch_buses:
        k(0.000601, f"pci 0000:{b:02x}:00.0: [10de:22a3] type 00 class 0x068000")
    k(0.312001, "iommu: Default domain type: Passthrough (set via kernel command line)")
    k(0.004021, "SCSI subsystem initialized")
    k(0.000201, "libata version 3.00 loaded.")
    k(0.100201, "clocksource: Switched to clocksource tsc-early")
    k(0.120201, "NET: Registered PF_INET protocol family")
    k(0.601201, "Initialise system trusted keyrings")
    k(0.220001, "Block layer SCSI generic (bsg) driver version 0.4 loaded (major 243)")
    k(0.000101, "io scheduler mq-deadline registered")
    k(0.300201, "ERST: Error Record Serialization Table (ERST) support is initialized.")
    k(0.000012, "pstore: Registered erst as persistent store backend")
    k(0.000201, "Serial: 8250/16550 driver, 32 ports, IRQ sharing enabled")
    k(0.400201, "RAS: Correctable Errors collector initialized.")
    k(0.020121, "Freeing unused decrypted memory: 2036K")
    k(0.010101, "Freeing unused kernel image (initmem) memory: 3336K")
    k(0.040101, "Write protecting the kernel read-only data: 30720k")
    k(0.001201, "Run /init as init process")
    k(0.910201, "nvme nvme0: pci function 0000:01:00.0")
    k(0.002101, "nvme nvme0: 32/0/0 default/read/poll queues")
    k(0.001101, " nvme0n1: p1 p2")
    # mlx5 probes: 8 dual-port rail cards (port 2 not cabled) and the dual-port frontend card
    cards = [(r.bus, r.netdev, r.netdev.replace("f0np0", "f1np1"), False) for r in h.rails]
    cards.append((frontend[0].bus, frontend[0].netdev, frontend[1].netdev, True))
    for bus, _, _, both in cards:
        for fn in (0, 1):
            bdf = f"0000:{bus:02x}:00.{fn}"
            k(0.030101, f"mlx5_core {bdf}: firmware version: 28.39.1002")
            k(0.000021, f"mlx5_core {bdf}: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)")
            k(0.201101, f"mlx5_core {bdf}: Rate limit: 127 rates are supported, range: 0Mbps to 195312Mbps")
            k(0.004101, f"mlx5_core {bdf}: E-Switch: Total vports 18, per vport: max uc(128) max mc(2048)")
            if fn == 0 or both:
                k(0.002001, f"mlx5_core {bdf}: Port module event: module {fn}, Cable plugged")
            else:
                k(0.002001, f"mlx5_core {bdf}: Port module event: module {fn}, Cable unplugged")
            k(0.001101, f"mlx5_core {bdf}: mlx5_pcie_event:301:(pid {int(rng.integers(900, 1100))}): PCIe slot advertised sufficient power (75W).")
            k(0.090101, f"mlx5_core {bdf}: MLX5E: StrdRq(1) RqSz(8) StrdSz(2048) RxCqeCmprss(0 basic)")
    eth = 0
    for bus, n0, n1, _ in cards:
        k(0.011201, f"mlx5_core 0000:{bus:02x}:00.0 {n0}: renamed from eth{eth}")
        k(0.000801, f"mlx5_core 0000:{bus:02x}:00.1 {n1}: renamed from eth{eth + 1}")
        eth += 2
    k(1.210201, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    k(0.180201, "Inserted module 'autofs4'", "systemd[1]")
    k(0.021201, "systemd 249.11-0ubuntu3.12 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT +GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY -P11KIT -QRENCODE +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)", "systemd[1]")
    k(0.020201, "Detected architecture x86-64.", "systemd[1]")
    k(0.021201, f"Hostname set to <{h.name}>.", "systemd[1]")
    k(0.160201, "Queued start job for default target Multi-User System.", "systemd[1]")
    for s in ["Created slice Slice /system/modprobe.", "Created slice Slice /system/serial-getty.",
              "Created slice User and Session Slice.", "Started Forward Password Requests to Wall Directory Watch.",
              "Reached target Slice Units.", "Reached target Swaps.", "Listening on Journal Socket (/dev/log).",
              "Listening on Journal Socket.", "Listening on udev Control Socket.", "Listening on udev Kernel Socket.",
              "Mounting Huge Pages File System...", "Starting Journal Service...", "Starting Load Kernel Modules...",
              "Started Journal Service."]:
        k(0.001101, s, "systemd[1]")
    k(0.041201, "EXT4-fs (nvme0n1p2): re-mounted. Opts: (null). Quota mode: none.")
    k(0.210201, "RPC: Registered named UNIX socket transport module.")
    k(0.000101, "RPC: Registered udp transport module.")
    k(0.000101, "RPC: Registered tcp transport module.")
    k(0.000101, "RPC: Registered tcp NFSv4.1 backchannel transport module.")
    k(0.600201, "ipmi_si IPI0001:00: IPMI message handler: Found new BMC (man_id: 0x0002a2, prod_id: 0x0100, dev_id: 0x20)")
    k(0.101201, "ipmi_si IPI0001:00: IPMI kcs interface initialized")
    k(0.201201, "intel_rapl_common: Found RAPL domain package")
    k(0.000011, "intel_rapl_common: Found RAPL domain dram")
    k(0.101201, "power_meter ACPI000D:00: Found ACPI power meter.")
    k(0.000021, "power_meter ACPI000D:00: Ignoring unsafe software power cap!")
    k(0.000021, "power_meter ACPI000D:00: hwmon_device_register() is deprecated. Please convert the driver to use hwmon_device_register_with_info().")
    k(2.101201, "nvidia: loading out-of-tree module taints kernel.")
    k(0.000018, "nvidia: module license 'NVIDIA' taints kernel.")
    k(0.000002, "Disabling lock debugging due to kernel taint")
    k(0.012101, "nvidia: module verification failed: signature and/or required key missing - tainting kernel")
    k(0.027101, "nvidia-nvlink: Nvlink Core is being initialized, major device number 507")
    k(0.000006, "")
    for b in nvswitch_buses:
        k(0.021201, f"nvidia-nvswitch: Probing device 0000:{b:02x}:00.0, Vendor Id = 0x10de, Device Id = 0x22a3, Class = 0x68000")
    for b in h.gpu_buses:
        k(0.001201, f"nvidia 0000:{b:02x}:00.0: enabling device (0000 -> 0002)")
    k(0.120201, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024")
    k(0.302101, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.90.07  Fri May 31 09:30:47 UTC 2024")
    for i, b in enumerate(h.gpu_buses):
        k(0.021201, f"[drm] [nvidia-drm] [GPU ID 0x0000{b:02x}00] Loading driver")
        k(0.000401, f"[drm] Initialized nvidia-drm 0.0.0 20160202 for 0000:{b:02x}:00.0 on minor {i + 1}")
    k(0.610201, "nvidia_uvm: module uses symbols from proprietary module nvidia, inheriting taint.")
    k(0.005121, "nvidia-uvm: Loaded the UVM driver, major device number 505.")
    for r in h.rails:
        k(0.101201, f"mlx5_core 0000:{r.bus:02x}:00.0 {r.netdev}: Link up")
        k(0.000401, f"IPv6: ADDRCONF(NETDEV_CHANGE): {r.netdev}: link becomes ready")
    for f_ in frontend:
        k(0.300201, f"bond0: (slave {f_.netdev}): Enslaving as a backup interface with a down link")
    for fn, f_ in enumerate(frontend):
        k(0.801201, f"mlx5_core 0000:{f_.bus:02x}:00.{fn} {f_.netdev}: Link up")
        k(0.101201, f"bond0: (slave {f_.netdev}): link status definitely up, 100000 Mbps full duplex")
    k(0.000101, "bond0: active interface up!")
    k(0.000301, "IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready")
    k(3.201201, "FS-Cache: Loaded")
    k(0.020101, "FS-Cache: Netfs 'nfs' registered for caching")
    k(0.003101, "Key type dns_resolver registered")
    k(0.020101, "NFS: Registering the id_resolver key type")
    k(0.000006, "Key type id_resolver registered")
    k(0.000001, "Key type id_legacy registered")
    for i in range(len(nvswitch_buses)):
        for _ in range(int(rng.integers(3, 6))):
            k(rng.uniform(0.000002, 0.00003), f"nvidia-nvswitch{i}: open (major=510)")
    return L


def runtime_kernel_events(rng, h: Host, until, job_ends=(), job_starts_master=(), perf_times=2):
    """Sporadic kernel messages of a long-running host, absolute times."""
    ev = []
    up = h.boot
    t = up + rng.uniform(3000, 30000)
    # the sequence seen in leptonai/gpud pkg/kmsg/testdata/kmsg.1.log
    vals = [(2509, 2500, 79500), (3141, 3136, 63500), (7156, 3926, 27750), (9494, 8945, 21000)]
    for i in range(perf_times):
        if t < until:
            a, prev, b = vals[i]
            ev.append((t, "kernel", f"perf: interrupt took too long ({a} > {prev}), lowering kernel.perf_event_max_sample_rate to {b}"))
        t += rng.uniform(20000, 200000)
    # snap refreshes
    tt = up + rng.uniform(20000, 60000)
    while tt < until:
        lo = int(rng.integers(3, 9))
        ev.append((tt, "kernel", f"loop{lo}: detected capacity change from 0 to {int(rng.choice([8, 130960, 106608, 81688]))}"))
        tt += rng.uniform(5 * 86400, 9 * 86400)
    # a process that used GPUDirect RDMA exits: nvidia-peermem complains (benign)
    for te in job_ends:
        if up < te < until:
            nrep = int(rng.integers(6, 25))
            for j in range(nrep):
                ev.append((te + j * rng.uniform(0.00001, 0.002), "kernel",
                           "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"))
    for ts_, port in job_starts_master:
        if up < ts_ < until:
            ev.append((ts_, "kernel", f"TCP: request_sock_TCP: Possible SYN flooding on port {port}. Sending cookies.  Check SNMP counters."))
    return ev


# --------------------------------------------------------------------------------------
# node_exporter
# --------------------------------------------------------------------------------------


@dataclass
class RailFault:
    rail: int  # index into host.rails
    flaps: list  # [Flap]
    errs: list  # port_rcv_errors added at each flap
    recov: list  # link_error_recovery added at each flap


def node_host_frames(rng, h: Host, tl: Timeline, times, instance, job="node", fault: RailFault = None,
                     fabric="roce", frontend_dev="bond0", ckpt_bytes=8.0e9, xmit_wait=False,
                     string_values=True, drop=None):
    """Rows of one node_exporter target. `drop`: boolean mask of scrapes that failed
    (no samples at all from this target then)."""
    keep = np.ones(len(times), bool) if drop is None else ~drop
    times = np.asarray(times)[keep]
    n = len(times)
    si = tl.idx(times)
    st = tl.state[si]
    frames = []
    ts = iso_ms(times) if string_values else None
    base = dict(instance=instance, job=job)

    def add(metric, kind, v, **lab):
        frames.append(series_frame(metric, ts, times, kind, v, {**base, **lab}, string_values))

    uptime0 = tl.t0 - h.boot
    S = tl.state
    train = S == TRAIN
    # ---- rails (RDMA counters via /sys/class/infiniband)
    for ri, r in enumerate(h.rails):
        rate = np.select([S == TRAIN, S == EVAL, S == CKPT, S == STALL], [8.6e8, 4.0e6, 3.0e4, 2.0e4], 1.0e3)
        rate = rate * h.rail_rate[ri]
        down = np.zeros_like(S, dtype=bool)
        if fault is not None and fault.rail == ri:
            down = tl.link_down.astype(bool)
            rate = np.where(down, 0.0, rate)
        rx = uptime0 * 3.05e8 * h.rail_rate[ri] + np.cumsum(rate * (1.0 + 0.004 * math.sin(ri)))
        tx = uptime0 * 3.08e8 * h.rail_rate[ri] + np.cumsum(rate * 1.011)
        rx = np.floor(rx[si] / 4) * 4
        tx = np.floor(tx[si] / 4) * 4
        lab = dict(device=r.dev, port="1")
        add("node_infiniband_port_data_received_bytes_total", "i", rx, **lab)
        add("node_infiniband_port_data_transmitted_bytes_total", "i", tx, **lab)
        ld0 = float(h.idx % 5 == 3 and ri == 6)  # an old, long-settled link down
        ev_down = np.array([f.down for f in fault.flaps]) if (fault is not None and fault.rail == ri) else np.array([])
        ev_up = np.array([f.down + f.dur for f in fault.flaps]) if (fault is not None and fault.rail == ri) else np.array([])
        cnt_down = np.searchsorted(np.sort(ev_down), times, side="right") if len(ev_down) else np.zeros(n)
        cnt_up = np.searchsorted(np.sort(ev_up), times, side="right") if len(ev_up) else np.zeros(n)
        add("node_infiniband_link_downed_total", "i", ld0 + cnt_down, **lab)
        if len(ev_down):
            errs = np.concatenate([[0], np.cumsum(fault.errs)])[cnt_down.astype(int)]
            rec = np.concatenate([[0], np.cumsum(fault.recov)])[cnt_down.astype(int)]
        else:
            errs = np.zeros(n)
            rec = np.zeros(n)
        add("node_infiniband_link_error_recovery_total", "i", rec, **lab)
        add("node_infiniband_port_errors_received_total", "i", errs + (2 if ld0 else 0), **lab)
        dn = down[si]
        add("node_infiniband_state_id", "i", np.where(dn, 1, 4), **lab)
        add("node_infiniband_physical_state_id", "i", np.where(dn, 2, 5), **lab)
        if xmit_wait:
            wr = np.select([S == TRAIN, S == EVAL], [2.6e5, 1.2e3], 8.0) * (1 + 0.3 * rng.standard_normal(len(S)) ** 2)
            wv = uptime0 * 9.0e4 + np.cumsum(wr)
            add("node_infiniband_port_transmit_wait_total", "i", wv[si], **lab)
        if fabric == "roce":
            add("node_network_carrier_changes_total", "i", h.carrier0[ri] + cnt_down + cnt_up, device=r.netdev)
    # ---- frontend / storage network
    rxr = np.select([S == CKPT, S == TRAIN], [2.1e6, 1.3e6], 6.0e5)
    txr = np.where(S == CKPT, 0.0, np.select([S == TRAIN], [4.1e5], 2.0e5))
    # checkpoint writes: ckpt_bytes per host spread over the checkpoint
    for it_, a, b in tl.ckpts:
        ia, ib = int(a - tl.t0), int(b - tl.t0)
        if ib > ia:
            txr[ia:ib] += ckpt_bytes / (ib - ia)
    rxv = uptime0 * 3.9e6 + np.cumsum(rxr * (1 + 0.2 * rng.standard_normal(len(S)) ** 2))
    txv = uptime0 * 2.7e6 + np.cumsum(txr)
    add("node_network_receive_bytes_total", "i", rxv[si], device=frontend_dev)
    add("node_network_transmit_bytes_total", "i", txv[si], device=frontend_dev)
    # ---- host
    load = np.select([st == TRAIN, st == STALL, st == EVAL, st == CKPT], [11.2, 10.9, 10.1, 16.5], 1.6)
    load = load + rng.normal(0, 0.7, n) + np.where(st == CKPT, rng.normal(0, 1.8, n), 0)
    add("node_load1", "f2", np.clip(load, 0, None))
    blocked = np.where(st == CKPT, rng.poisson(3.2, n), rng.poisson(0.04, n))
    add("node_procs_blocked", "i", blocked)
    mem0 = 1.712e12 + rng.normal(0, 6e9)
    mem = mem0 + np.cumsum(rng.normal(0, 1.5e8, n)) - np.where(st == CKPT, 2.6e10, 0)
    add("node_memory_MemAvailable_bytes", "i", np.floor(mem / 4096) * 4096)
    add("node_memory_MemTotal_bytes", "i", np.full(n, 2163605495808.0))
    fs = 3.41e11 - 4096 * np.floor((times - tl.t0) * 1.8)
    add("node_filesystem_avail_bytes", "i", fs, device="/dev/nvme0n1p2", fstype="ext4", mountpoint="/")
    rr = np.full(len(S), 0.35)
    wr = np.full(len(S), 11.0)
    rc = uptime0 * 0.4 + np.cumsum(rr * (1 + rng.standard_normal(len(S)) ** 2 * 0.5))
    wc = uptime0 * 10.5 + np.cumsum(wr * (1 + rng.standard_normal(len(S)) ** 2 * 0.3))
    add("node_disk_reads_completed_total", "i", np.floor(rc[si]), device="nvme0n1")
    add("node_disk_read_time_seconds_total", "f3", np.floor(rc[si]) * 0.000118, device="nvme0n1")
    add("node_disk_writes_completed_total", "i", np.floor(wc[si]), device="nvme0n1")
    add("node_disk_write_time_seconds_total", "f3", np.floor(wc[si]) * 0.0000271, device="nvme0n1")
    pr = np.select([S == CKPT, S == TRAIN], [0.41, 0.0021], 0.0009)
    pv = uptime0 * 0.004 + np.cumsum(pr)
    add("node_pressure_io_waiting_seconds_total", "f6", pv[si])
    return frames


def up_frames(times_ok, times_all, instance, job, string_values=True, dur=(0.15, 0.4), rng=None, fail=None):
    """Prometheus' own series for a target: up, scrape_duration_seconds."""
    t = np.asarray(times_all)
    n = len(t)
    upv = np.ones(n) if fail is None else np.where(fail, 0.0, 1.0)
    d = rng.uniform(*dur, n)
    if fail is not None:
        d = np.where(fail, 10.0 + rng.uniform(0.0005, 0.003, n), d)
    ts = iso_ms(t) if string_values else None
    lab = dict(instance=instance, job=job)
    return [series_frame("up", ts, t, "i", upv, lab, string_values),
            series_frame("scrape_duration_seconds", ts, t, "f6", d, lab, string_values)]


# --------------------------------------------------------------------------------------
# Megatron-LM output
# --------------------------------------------------------------------------------------


def megatron_args(cfg: JobCfg, extra: dict):
    a = dict(
        accumulate_allreduce_grads_in_fp32=False, adam_beta1=0.9, adam_beta2=0.95, adam_eps=1e-08,
        add_bias_linear=False, async_save=None, attention_dropout=0.0, attention_softmax_in_fp32=False,
        bf16=True, ckpt_format="torch_dist", clip_grad=1.0, context_parallel_size=1,
        data_parallel_size=cfg.world, dataloader_type="single", ddp_bucket_size=None,
        distributed_backend="nccl", distributed_timeout_minutes=10, eval_interval=cfg.eval_interval,
        eval_iters=extra.pop("eval_iters", 32), exit_on_missing_checkpoint=False, ffn_hidden_size=14336, fp16=False,
        global_batch_size=cfg.gbs, group_query_attention=True, hidden_dropout=0.0, hidden_size=4096,
        init_method_std=0.02, log_interval=cfg.log_interval, log_throughput=True, lr=cfg.lr_max,
        lr_decay_iters=cfg.train_iters, lr_decay_style="cosine", lr_warmup_iters=cfg.warmup,
        manual_gc=True, manual_gc_eval=True, manual_gc_interval=cfg.gc_interval,
        max_position_embeddings=cfg.seq, micro_batch_size=1, min_lr=cfg.lr_min, normalization="RMSNorm",
        num_attention_heads=32, num_layers=32, num_query_groups=8, num_workers=2, optimizer="adam",
        overlap_grad_reduce=True, overlap_param_gather=True, padded_vocab_size=128256,
        pipeline_model_parallel_size=1, position_embedding_type="rope", rank=0, rotary_base=500000,
        save_interval=cfg.save_interval, seed=1234, seq_length=cfg.seq, sequence_parallel=False, split="99,1,0",
        swiglu=True, tensor_model_parallel_size=1, timing_log_level=0, tokenizer_type="HuggingFaceTokenizer",
        train_iters=cfg.train_iters, transformer_impl="transformer_engine",
        untie_embeddings_and_output_weights=True, use_distributed_optimizer=True, use_flash_attn=False,
        use_mcore_models=True, weight_decay=0.1, world_size=cfg.world,
    )
    a.update(extra)
    lines = ["------------------------ arguments ------------------------"]
    body = ["  {} {} {}".format(k, "." * (48 - len(k)), v) for k, v in a.items()]
    lines += sorted(body, key=lambda x: x.lower())
    lines.append("-------------------- end of arguments ---------------------")
    return lines


def stamp(t):
    return utc(t).strftime("%Y-%m-%d %H:%M:%S")


def megatron_lines(rng, cfg: JobCfg, tl: Timeline, save_dir, load_dir, data_path, rank_first=0, rank_last=None,
                   extra_args=None, init_s=(40.0, 25.0)):
    """[(t, rank, text)] of what Megatron-LM prints, rank 0 and the last rank."""
    last = cfg.world - 1 if rank_last is None else rank_last
    out = []
    t = cfg.start + 8.0

    def p(rank, text, dtime=0.0):
        nonlocal t
        t += dtime
        out.append((t, rank, text))

    p(0, f"using world size: {cfg.world}, data-parallel size: {cfg.world}, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ", 1.2)
    p(0, "using torch.bfloat16 for parameters ...")
    for ln in megatron_args(cfg, dict(extra_args or {}, save=save_dir, load=load_dir, data_path=[data_path])):
        p(0, ln)
    p(0, "setting number of micro-batches to constant {}".format(cfg.gbs // cfg.world), 0.01)
    p(0, "> building HuggingFaceTokenizer tokenizer ...")
    p(0, " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)", 1.3)
    p(0, "> initializing torch distributed ...", 0.1)
    p(0, "> initialized tensor model parallel with size 1", 6.5)
    p(0, "> initialized pipeline model parallel with size 1")
    p(0, "> setting random seeds to 1234 ...")
    p(0, "> compiling dataset index builder ...", 0.2)
    p(0, "make: Entering directory '/opt/megatron-lm/megatron/core/datasets'")
    p(0, "make: Nothing to be done for 'default'.", 0.05)
    p(0, "make: Leaving directory '/opt/megatron-lm/megatron/core/datasets'")
    p(0, ">>> done with dataset index builder. Compilation time: 0.061 seconds")
    p(0, "> compiling and loading fused kernels ...")
    p(0, ">>> done with compiling and loading fused kernels. Compilation time: 2.107 seconds", 2.1)
    ti = init_s[0] + rng.normal(0, 2)
    p(0, f"time to initialize megatron (seconds): {ti:.3f}", ti - 12)
    p(0, f"[after megatron is initialized] datetime: {stamp(t)} ")
    p(0, "building GPT model ...", 0.3)
    p(0, " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 8030261248", 4.1)
    p(0, f" loading checkpoint from {load_dir} at iteration {cfg.it0}", 3.2)
    lc = init_s[1] + rng.normal(0, 1.5)
    p(0, f"  successfully loaded checkpoint from {load_dir} [ t 1/1, p 1/1 ] at iteration {cfg.it0}", lc)
    p(last, "(min, max) time across ranks (ms):\n    {}: ({:.2f}, {:.2f})".format("load-checkpoint ".ljust(48, "."), lc * 1000 - 0.9, lc * 1000), 0.02)
    p(0, f"[after model, optimizer, and learning rate scheduler are built] datetime: {stamp(t)} ", 0.1)
    p(0, "> building train, validation, and test datasets ...", 0.1)
    p(0, " > datasets target sizes (minimum size):")
    p(0, "    train:      {}".format(cfg.train_iters * cfg.gbs))
    p(0, "    validation: {}".format((cfg.train_iters // cfg.eval_interval + 1) * 32 * cfg.gbs))
    p(0, "    test:       {}".format(32 * cfg.gbs))
    p(0, "> building train, validation, and test datasets for GPT ...")
    p(0, "> finished creating GPT datasets ...", 2.8)
    p(0, f"[after dataloaders are built] datetime: {stamp(t)} ", 0.01)
    p(0, "done with setup ...")
    p(last, "(min, max) time across ranks (ms):\n    {}: ({:.2f}, {:.2f})\n    {}: ({:.2f}, {:.2f})".format(
        "model-and-optimizer-setup ".ljust(48, "."), lc * 1000 + 4810.2, lc * 1000 + 4822.9,
        "train/valid/test-data-iterators-setup ".ljust(48, "."), 2730.11, 2911.38))
    p(0, "training ...")
    p(0, f"[before the start of training step] datetime: {stamp(t)} ", 0.01)
    first = True
    ev = {e[0]: e for e in tl.evals}
    ck = {c[0]: c for c in tl.ckpts}
    for l in tl.logs:
        s = f" [{stamp(l['t'])}]"
        s += " iteration {:8d}/{:8d} |".format(l["it"], cfg.train_iters)
        s += " consumed samples: {:12d} |".format(l["it"] * cfg.gbs)
        s += " elapsed time per iteration (ms): {:.1f} |".format(l["elapsed_ms"])
        s += f" throughput per GPU (TFLOP/s/GPU): {l['tflops']:.1f} |"
        s += f" learning rate: {l['lr']:.6E} |"
        s += f" global batch size: {cfg.gbs:5d} |"
        s += " {}: {:.6E} |".format("lm loss", l["loss"])
        s += " loss scale: 1.0 |"
        s += f" grad norm: {l['gnorm']:.3f} |"
        s += " number of skipped iterations: {:3d} |".format(0)
        s += " number of nan iterations: {:3d} |".format(0)
        out.append((l["t"], last, s))
        if first:
            out.append((l["t"] + 0.01, 0, "[Rank 0] (after {} iterations) memory (MB) | allocated: 19211.41 | max allocated: 61822.65 | reserved: 70112.00 | max reserved: 70112.00".format(l["it"])))
            first = False
        if l["it"] in ev:
            it_, a, b, vl = ev[l["it"]]
            string = f" validation loss at iteration {it_} | "
            string += "{} value: {:.6E} | ".format("lm loss", vl)
            string += "{} PPL: {:.6E} | ".format("lm loss", math.exp(min(20, vl)))
            length = len(string) + 1
            out.append((b, last, "-" * length))
            out.append((b, last, string))
            out.append((b, last, "-" * length))
        if l["it"] in ck:
            it_, a, b = ck[l["it"]]
            out.append((a + 0.02, 0, "saving checkpoint at iteration {:7d} to {} in {} format".format(it_, save_dir, "torch_dist")))
            out.append((b - 0.05, 0, "  successfully saved checkpoint from iteration {:7d} to {} [ t 1/1, p 1/1 ]".format(it_, save_dir)))
            ms = (b - a) * 1000.0
            out.append((b, last, "(min, max) time across ranks (ms):\n    {}: ({:.2f}, {:.2f})".format("save-checkpoint ".ljust(48, "."), ms - rng.uniform(2, 40), ms)))
    return out


def srun_label(rank, width):
    return f"{rank:{width}d}: "


def render_stream(lines, prefix):
    """lines: [(t, rank_or_None, text)] -> text; multi-line texts get the prefix on each
    line, as srun --label / torchrun --tee do."""
    lines = sorted(lines, key=lambda x: x[0])
    buf = []
    for t, r, text in lines:
        for part in text.split("\n"):
            buf.append((prefix(r) if r is not None else "") + part)
    return "\n".join(buf) + "\n"


def per_rank_noise(rng, world, t_import, t_load, site="/usr/local/lib/python3.10/dist-packages",
                   megatron="/opt/megatron-lm"):
    """Warnings every rank prints (real Megatron-LM / torch messages; benign)."""
    out = []
    for r in range(world):
        out.append((t_import + rng.uniform(0, 3.0), r, "Zarr-based strategies will not be registered because of missing packages"))
        tl_ = t_load + rng.uniform(0.5, 6.0)
        out.append((tl_, r, f"{megatron}/megatron/core/dist_checkpointing/strategies/torch.py:956: FutureWarning: `load_state_dict` is deprecated and will be removed in future versions. Please use `load` instead.\n  checkpoint.load_state_dict("))
        out.append((tl_ + 0.001, r, f"{site}/torch/distributed/checkpoint/planner_helpers.py:418: FutureWarning: Please use DTensor instead and we are deprecating ShardedTensor.\n  device = getattr(value, \"device\", None)"))
    return out
