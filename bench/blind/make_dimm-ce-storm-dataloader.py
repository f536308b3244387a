#!/usr/bin/env python3
"""Incident 2: a DIMM on one host starts a corrected-error storm (EDAC/CMCI); the kernel's
error handling eats CPU time, that host's wav2vec 2.0 data-loader workers fall behind and the
synchronous 128-GPU fairseq job loses ~5 % of its throughput for two hours, until the host is
drained and the job restarted on a spare node.

Layout written (different from incident 1):
  metrics/node_exporter/<host>.om    OpenMetrics text, one file per host, timestamps on samples;
                                     node_exporter known by its address (instance=IP:9100),
                                     node_uname_info gives the node name
  metrics/dcgm_exporter.csv          CSV exported from Prometheus, epoch-millisecond timestamps
  logs/<host>/syslog                 rsyslog RFC 3164 (kernel + daemons), every host
  logs/gpu-c11/ras-mc-ctl--errors.txt  rasdaemon report captured after the drain
  logs/slurm-88231.out, logs/slurm-88247.out   the job's output (fairseq/hydra logging)

Fixed seed: running it twice gives byte-identical files.
"""
import datetime as dt
import json
import os
import shutil

import numpy as np
import yaml

SEED = 20250916
rng = np.random.default_rng(SEED)
ID = "dimm-ce-storm-dataloader"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = dt.timezone.utc


def T(h, m, s=0, us=0):
    return dt.datetime(2025, 9, 16, h, m, s, us, tzinfo=UTC)


W_START, W_END = T(6, 30), T(11, 0)
SCRAPE = 30.0
HOSTS = [f"gpu-c{i:02d}" for i in range(1, 18)]
BAD = "gpu-c11"
SPARE = "gpu-c17"
JOB1_HOSTS = [h for h in HOSTS if h != SPARE]
JOB2_HOSTS = [h for h in HOSTS if h != BAD]

T_ONSET = T(7, 41, 8, 412000)          # first corrected-error report on gpu-c11
T_STORM = T(7, 43, 51, 907000)         # CMCI storm detected
T_SLOW_FULL = T(7, 49, 30)
T_DRAIN = T(9, 47, 12)                 # scontrol update nodename=gpu-c11 state=drain
T_CANCEL = T(9, 51, 40)
T_JOB2_START = T(9, 53, 12)
T_TRAIN2 = T(9, 57, 31, 204000)        # first update of the restarted job
T_RAS_CAPTURE = T(10, 12, 37)

MODEL = "Tesla V100-SXM2-32GB"
NCPU = 80                               # 2 x Xeon Gold 6148 (Skylake-SP), HT on
IB = ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]

# ---------------------------------------------------------------------------
# Job pace: fairseq wav2vec 2.0 LARGE pretraining, 128 x V100, fp16
# ---------------------------------------------------------------------------
T0 = 1.2052            # seconds per update at full speed
LOG_INTERVAL = 100
SAVE_EVERY = 2500
EPOCH_START_UPD, EPOCH_LEN = 157482, 22410


def slow_frac(t, ar):
    """Relative step-time increase caused by gpu-c11's starving data loaders."""
    if t < T_ONSET or t >= T_CANCEL:
        return 0.0
    if t < T_SLOW_FULL:
        x = (t - T_ONSET).total_seconds() / (T_SLOW_FULL - T_ONSET).total_seconds()
        return 0.052 * max(0.0, x) ** 1.3 + ar * x
    return 0.052 + 0.007 * np.sin((t - T_SLOW_FULL).total_seconds() / 1900.0) + ar


def build_run(start_t, start_upd, end_t, r):
    """Simulate updates; return list of log intervals and checkpoint saves."""
    t, upd = start_t, start_upd
    ar_noise = 0.0
    ar_storm = 0.0
    intervals, saves = [], []
    while t < end_t:
        ar_noise = 0.5 * ar_noise + r.normal(0, 0.0026)
        ar_storm = 0.85 * ar_storm + r.normal(0, 0.0028)
        sf = slow_frac(t, ar_storm)
        dur = LOG_INTERVAL * T0 * (1 + sf + ar_noise)
        t_end = t + dt.timedelta(seconds=dur)
        if t_end > end_t:
            break
        upd += LOG_INTERVAL
        wpb = r.normal(236150, 1400)
        intervals.append(dict(t=t_end, upd=upd, dur=dur, wpb=wpb, slow=sf))
        t = t_end
        if upd % SAVE_EVERY == 0:
            w = float(r.uniform(13.5, 16.5))
            saves.append(dict(upd=upd, t0=t, t1=t + dt.timedelta(seconds=w + 1.2), write=w))
            t = t + dt.timedelta(seconds=w + 1.2)
    return intervals, saves


R1 = np.random.default_rng(SEED + 1)
RUN1_START = T(1, 14, 31, 660000)
RUN1, SAVES1 = build_run(RUN1_START, 160000, T_CANCEL, R1)
LAST_SAVE = max(s["upd"] for s in SAVES1)
R2 = np.random.default_rng(SEED + 2)
RUN2, SAVES2 = build_run(T_TRAIN2, LAST_SAVE, W_END + dt.timedelta(minutes=5), R2)


def job_state(h, t):
    """'busy', 'ckpt' (checkpoint write), or 'idle' for a host at time t."""
    for saves in (SAVES1, SAVES2):
        for s in saves:
            if s["t0"] <= t <= s["t1"]:
                return "ckpt" if ((h in JOB1_HOSTS and t < T_CANCEL) or (h in JOB2_HOSTS and t >= T_TRAIN2)) else "idle"
    if h in JOB1_HOSTS and t < T_CANCEL:
        return "busy"
    if h in JOB2_HOSTS and t >= T_TRAIN2:
        return "busy"
    return "idle"


def slow_at(t):
    runs = RUN1 if t < T_CANCEL else RUN2
    for iv in runs:
        if iv["t"] >= t:
            return iv["slow"]
    return 0.0


# ---------------------------------------------------------------------------
# Kernel: EDAC corrected-error reports on gpu-c11
# (ledkk/ledkk.github.io, source/_posts/mem-ecc-error-cause-sys-load-high.md, verbatim but time)
# ---------------------------------------------------------------------------
EDAC_READ = [
    "EDAC skx MC0: HANDLING MCE MEMORY ERROR",
    "EDAC skx MC0: CPU 0: Machine Check Event: 0x0 Bank 7: 0xdc10000001010090",
    "EDAC skx MC0: TSC 0x0",
    "EDAC skx MC0: ADDR 0x20edba94c0",
    "EDAC skx MC0: MISC 0x200006c307e01086",
    "EDAC skx MC0: PROCESSOR 0:0x50654 TIME {epoch} SOCKET 0 APIC 0x0",
    "EDAC MC0: 16384 CE memory read error on CPU_SrcID#0_MC#0_Chan#0_DIMM#1 (channel:0 slot:1 page:0x20edba9 offset:0x4c0 grain:32 syndrome:0x0 -  OVERFLOW err_code:0x0101:0x0090 socket:0 imc:0 rank:0 bg:3 ba:2 row:0x106ce col:0x258 retry_rd_err_log[0000a20d 00000000 0000ffff 0476f10f 0000fb4b] correrrcnt[0000 0000 0000 0000 a9b4 0000 0000 0000])",
]
EDAC_SCRUB = [
    "EDAC skx MC0: HANDLING MCE MEMORY ERROR",
    "EDAC skx MC0: CPU 0: Machine Check Event: 0x0 Bank 13: 0xcc001380000800c0",
    "EDAC skx MC0: TSC 0x0",
    "EDAC skx MC0: ADDR 0xd6db0b8c0",
    "EDAC skx MC0: MISC 0x12213fffffffc086",
    "EDAC skx MC0: PROCESSOR 0:0x50654 TIME {epoch} SOCKET 0 APIC 0x0",
    "EDAC MC0: 78 CE memory scrubbing error on CPU_SrcID#0_MC#0_Chan#0_DIMM#1 (channel:0 slot:1 page:0xd6db0b offset:0x8c0 grain:32 syndrome:0x0 -  OVERFLOW err_code:0x0008:0x00c0 socket:0 imc:0 rank:0 bg:3 ba:2 row:0x6ecc col:0xe8 retry_rd_err_log[0000a20d 00000000 ffff0000 0434f10f 000091dd] correrrcnt[0000 0000 0000 0000 b424 0000 0000 0000])",
]
MCE_LOGGED = "mce: [Hardware Error]: Machine check events logged"   # openstreetmap/operations#300
CMCI_ON = "CMCI storm detected: switching to poll mode"             # oberstet/scratchbox; Tony Luck RFC
CMCI_OFF = "CMCI storm subsided: switching to interrupt mode"       # Tony Luck RFC (linux-edac, 2021-06-01)


def edac_events():
    r = np.random.default_rng(SEED + 10)
    ev = []
    t = T_ONSET
    # a few sparse reports, then the storm (poll mode every few seconds), calmer once the host idles
    while t < W_END + dt.timedelta(minutes=20):
        kind = "read" if r.random() < 0.74 else "scrub"
        ev.append((t, kind))
        if t < T_STORM:
            gap = r.exponential(38)
        elif t < T_CANCEL:
            gap = r.exponential(19)
        else:
            gap = r.exponential(170)
        t = t + dt.timedelta(seconds=float(gap) + 0.3)
    return ev


EDAC_EV = edac_events()


def storm_windows():
    """CMCI storm on/off toggles while the errors keep coming."""
    r = np.random.default_rng(SEED + 11)
    out = [(T_STORM, "on")]
    t = T_STORM
    while t < T(10, 40):
        on_len = r.uniform(900, 2400) if t < T_CANCEL else r.uniform(300, 700)
        t = t + dt.timedelta(seconds=float(on_len))
        out.append((t, "off"))
        off_len = r.uniform(20, 140) if t < T_CANCEL else r.uniform(900, 2200)
        t = t + dt.timedelta(seconds=float(off_len))
        out.append((t, "on"))
    return out


STORM = storm_windows()


def storm_load(t):
    """0..1 intensity of kernel error handling on gpu-c11 (drives system CPU time)."""
    if t < T_ONSET:
        return 0.0
    if t < T_STORM:
        return 0.25
    return 1.0 if t < T_CANCEL else 0.55


# ---------------------------------------------------------------------------
# OpenMetrics per host (node_exporter)
# ---------------------------------------------------------------------------
HELP = {
    "node_cpu_seconds": ("counter", "Seconds the CPUs spent in each mode."),
    "node_load1": ("gauge", "1m load average."),
    "node_memory_MemAvailable_bytes": ("gauge", "Memory information field MemAvailable_bytes."),
    "node_context_switches": ("counter", "Total number of context switches."),
    "node_intr": ("counter", "Total number of interrupts serviced."),
    "node_pressure_cpu_waiting_seconds": ("counter", "Total time in seconds that processes have waited for CPU time"),
    "node_edac_correctable_errors": ("counter", "Total correctable memory errors."),
    "node_edac_uncorrectable_errors": ("counter", "Total uncorrectable memory errors."),
    "node_edac_csrow_correctable_errors": ("counter", "Total correctable memory errors for this csrow."),
    "node_infiniband_port_data_received_bytes": ("counter", "Number of data octets received on all links"),
    "node_infiniband_port_data_transmitted_bytes": ("counter", "Number of data octets transmitted on all links"),
    "node_boot_time_seconds": ("gauge", "Node boot time, in unixtime."),
    "node_uname_info": ("gauge", "Labeled system information as provided by the uname system call."),
    "up": ("gauge", None),
}


def fnum(v):
    v = float(v)
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def lab(d):
    # label names sorted, as Prometheus writes them
    return "{" + ",".join(f'{k}="{d[k]}"' for k in sorted(d)) + "}"


def host_times(r):
    off = r.uniform(0.5, 29.5)
    n = int((W_END - W_START).total_seconds() // SCRAPE)
    return np.round(W_START.timestamp() + off + np.arange(n) * SCRAPE + r.normal(0, 0.003, n), 3)


EDAC_TIMES = np.array([e[0].timestamp() for e in EDAC_EV])
EDAC_INC = np.array([16384 if e[1] == "read" else 78 for e in EDAC_EV])


def node_series(h, hi):
    r = np.random.default_rng(SEED + 100 + hi)
    ip = f"10.20.4.{20 + hi}"
    inst = dict(instance=f"{ip}:9100", job="node")
    times = host_times(r)
    n = len(times)
    dts = np.r_[SCRAPE, np.diff(times)]
    states = [job_state(h, dt.datetime.fromtimestamp(x, UTC)) for x in times]
    busy = np.array([s == "busy" for s in states])
    ckpt = np.array([s == "ckpt" for s in states])
    storm = np.array([storm_load(dt.datetime.fromtimestamp(x, UTC)) for x in times]) if h == BAD else np.zeros(n)
    slow = np.array([slow_at(dt.datetime.fromtimestamp(x, UTC)) for x in times])
    boot = dt.datetime(2025, 8, 5, 2, 14, 33, tzinfo=UTC).timestamp() + hi * 41.0
    up0 = W_START.timestamp() - boot
    S = []  # (family, metric, labels, values)
    # CPU
    user_b = 0.418 + r.normal(0, 0.012)
    sys_b = 0.054 + r.normal(0, 0.004)
    user = np.where(busy, user_b * (1 - 0.6 * slow) + r.normal(0, 0.01, n), np.where(ckpt, 0.09, 0.006))
    system = np.where(busy, sys_b + r.normal(0, 0.003, n), np.where(ckpt, 0.03, 0.009))
    if h == BAD:
        # the kernel's machine-check/EDAC handling: system time up, data-loader user time squeezed
        system = system + storm * (0.142 + r.normal(0, 0.014, n))
        user = np.where(busy, user - storm * 0.045, user)
    iowait = np.clip(0.004 + r.normal(0, 0.0012, n) + ckpt * 0.02, 0, None)
    softirq = np.where(busy, 0.0061, 0.0009) + np.abs(r.normal(0, 0.0005, n))
    irq = np.where(busy, 0.0011, 0.0002) + storm * 0.0032
    nice = np.full(n, 0.00001)
    steal = np.zeros(n)
    idle = 1 - (user + system + iowait + softirq + irq + nice)
    for mode, frac, start in (("idle", idle, 0.61), ("iowait", iowait, 0.003), ("irq", irq, 0.001),
                              ("nice", nice, 0.0), ("softirq", softirq, 0.005), ("steal", steal, 0.0),
                              ("system", system, 0.05), ("user", user, 0.33)):
        vals = np.round(start * NCPU * up0 + np.cumsum(frac * NCPU * dts), 2)
        S.append(("node_cpu_seconds", "node_cpu_seconds_total", dict(inst, mode=mode), vals))
    load = np.where(busy, 52 + r.normal(0, 3, n), 1.5 + np.abs(r.normal(0, 0.8, n))) + storm * (34 + r.normal(0, 5, n))
    S.append(("node_load1", "node_load1", dict(inst), np.round(np.clip(load, 0, None), 2)))
    memav = 6.12e11 + r.normal(0, 4e9) + np.where(busy, -1.9e11, 0) + np.cumsum(r.normal(0, 1e8, n))
    S.append(("node_memory_MemAvailable_bytes", "node_memory_MemAvailable_bytes", dict(inst), np.round(memav)))
    cs_rate = np.where(busy, 2.05e5, 9e3) * (1 + r.normal(0, 0.03, n)) + storm * 2.1e4
    S.append(("node_context_switches", "node_context_switches_total", dict(inst), np.round(4.4e11 + hi * 1e9 + np.cumsum(cs_rate * dts))))
    in_rate = np.where(busy, 1.31e5, 1.1e4) * (1 + r.normal(0, 0.03, n)) + storm * 1.6e3
    S.append(("node_intr", "node_intr_total", dict(inst), np.round(2.9e11 + hi * 2e9 + np.cumsum(in_rate * dts))))
    pw = np.abs(np.where(busy, 0.021, 0.001) + r.normal(0, 0.004, n)) + storm * np.abs(0.71 + r.normal(0, 0.08, n))
    S.append(("node_pressure_cpu_waiting_seconds", "node_pressure_cpu_waiting_seconds_total", dict(inst), np.round(40211.7 + hi * 311 + np.cumsum(pw * dts), 6)))
    # EDAC (4 memory controllers: 2 sockets x 2 iMC; csrow = DIMM slot)
    hist = {("gpu-c05", "2"): 1, ("gpu-c14", "1"): 3}
    for ctl in ("0", "1", "2", "3"):
        base = hist.get((h, ctl), 0)
        ce = np.full(n, float(base))
        if h == BAD and ctl == "0":
            ce = ce + np.array([EDAC_INC[EDAC_TIMES <= x].sum() for x in times], dtype=float)
        S.append(("node_edac_correctable_errors", "node_edac_correctable_errors_total", dict(inst, controller=ctl), ce))
    for ctl in ("0", "1", "2", "3"):
        S.append(("node_edac_uncorrectable_errors", "node_edac_uncorrectable_errors_total", dict(inst, controller=ctl), np.zeros(n)))
    for ctl in ("0", "1", "2", "3"):
        for row in ("0", "1"):
            base = hist.get((h, ctl), 0) if row == "0" else 0
            ce = np.full(n, float(base))
            if h == BAD and ctl == "0" and row == "1":
                ce = ce + np.array([EDAC_INC[EDAC_TIMES <= x].sum() for x in times], dtype=float)
            S.append(("node_edac_csrow_correctable_errors", "node_edac_csrow_correctable_errors_total", dict(inst, controller=ctl, csrow=row), ce))
    # InfiniBand (4 x EDR); traffic follows the update rate
    for d in IB:
        rate = np.where(busy, 2.46e9 / (1 + slow), 1.1e5) * (1 + r.normal(0, 0.02, n))
        for fam, mname in (("node_infiniband_port_data_received_bytes", "node_infiniband_port_data_received_bytes_total"),
                           ("node_infiniband_port_data_transmitted_bytes", "node_infiniband_port_data_transmitted_bytes_total")):
            S.append((fam, mname, dict(inst, device=d, port="1"), np.round(r.uniform(5e14, 9e14) + np.cumsum(rate * dts))))
    S.append(("node_boot_time_seconds", "node_boot_time_seconds", dict(inst), np.full(n, float(int(boot)))))
    S.append(("node_uname_info", "node_uname_info", dict(inst, domainname="(none)", machine="x86_64", nodename=h,
                                                        release="5.4.0-196-generic", sysname="Linux",
                                                        version="#216-Ubuntu SMP Thu Aug 29 13:26:53 UTC 2024"), np.ones(n)))
    S.append(("up", "up", dict(inst), np.ones(n)))
    return times, S, ip


def write_om(path, times, S):
    fams = []
    for fam, *_ in S:
        if fam not in fams:
            fams.append(fam)
    tstr = [f"{x:.3f}" for x in times]
    with open(path, "w") as f:
        for fam in fams:
            typ, hlp = HELP[fam]
            f.write(f"# TYPE {fam} {typ}\n")
            if hlp:
                f.write(f"# HELP {fam} {hlp}\n")
            for fam2, mname, labels, vals in S:
                if fam2 != fam:
                    continue
                ls = lab(labels)
                f.write("".join(f"{mname}{ls} {fnum(v)} {t}\n" for v, t in zip(vals, tstr)))
        f.write("# EOF\n")


# ---------------------------------------------------------------------------
# DCGM CSV
# ---------------------------------------------------------------------------
def uuid_for(hi, g):
    r = np.random.default_rng(SEED + 5000 + hi * 8 + g)
    s = "".join(f"{x:02x}" for x in r.integers(0, 256, 16))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:32]}"


def dcgm_rows():
    rows = []
    for hi, h in enumerate(HOSTS):
        r = np.random.default_rng(SEED + 200 + hi)
        times = host_times(r)
        n = len(times)
        st = [job_state(h, dt.datetime.fromtimestamp(x, UTC)) for x in times]
        busy = np.array([s == "busy" for s in st])
        slow = np.array([slow_at(dt.datetime.fromtimestamp(x, UTC)) for x in times])
        starve = np.zeros(n)
        if h == BAD:
            starve = np.array([min(1.0, max(0.0, s / 0.052)) for s in slow]) * busy
        # temperature lags the load: first-order filter over the busy/idle pattern
        host_t = r.normal(0, 1.8)
        host_p = r.normal(0, 6.0)
        for g in range(8):
            gp = r.normal(0, 7.0)
            gt = r.normal(0, 1.3)
            e = r.normal(0, 1, n)
            ar = np.zeros(n)
            for i in range(1, n):
                ar[i] = 0.6 * ar[i - 1] + e[i]
            power_busy = 256 + host_p + gp + 6 * ar
            power = np.where(busy, power_busy * (1 - 0.035 * slow / 0.052) * (1 - 0.11 * starve), 54.5 + r.normal(0, 1.2, n))
            power = np.clip(power, 38, 300)
            util = np.where(busy, np.clip(np.round(99.2 + r.normal(0, 0.9, n) - starve * (9 + r.normal(0, 3, n))), 60, 100),
                            0.0)
            gr = np.where(busy, np.clip((0.861 + r.normal(0, 0.008, n)) * (1 - 0.045 * slow / 0.052) * (1 - 0.14 * starve), 0, 1),
                          0.0)
            target = np.where(busy, 63 + host_t + gt + 0.05 * (power - 256), 36 + host_t + gt)
            temp = np.zeros(n)
            temp[0] = target[0]
            for i in range(1, n):
                temp[i] = temp[i - 1] + 0.35 * (target[i] - temp[i - 1])
            temp = np.round(temp + r.normal(0, 0.3, n))
            uu = uuid_for(hi, g)
            for mname, vals in (("DCGM_FI_DEV_GPU_UTIL", util), ("DCGM_FI_DEV_POWER_USAGE", np.round(power, 3)),
                                ("DCGM_FI_DEV_GPU_TEMP", temp), ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6))):
                for x, v in zip(times, vals):
                    rows.append((int(round(x * 1000)), mname, v, h, str(g), f"nvidia{g}", MODEL, uu))
    rows.sort(key=lambda x: (x[0], x[1], x[3], x[4]))
    return rows


# ---------------------------------------------------------------------------
# Logs
# ---------------------------------------------------------------------------
def sys_ts(t):
    return t.strftime("%b %e %H:%M:%S")


BOOT = {h: dt.datetime(2025, 8, 5, 2, 14, 33, tzinfo=UTC) + dt.timedelta(seconds=hi * 41) for hi, h in enumerate(HOSTS)}


def kline(h, t, msg):
    up = (t - BOOT[h]).total_seconds()
    return (t, f"{sys_ts(t)} {h} kernel: [{up:13.6f}] {msg}")


def syslog_for(h, hi):
    r = np.random.default_rng(SEED + 600 + hi)
    L = []
    start, end = W_START - dt.timedelta(minutes=20), W_END + dt.timedelta(minutes=10)

    def add(t, prog, msg):
        L.append((t, f"{sys_ts(t)} {h} {prog}: {msg}"))

    t = start.replace(minute=(start.minute // 10) * 10 + 5, second=1, microsecond=0)  # sysstat: 5-55/10
    while t < end:
        add(t, f"CRON[{r.integers(100000, 999999)}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        t += dt.timedelta(minutes=10)
    for hh in range(6, 12):
        tt = T(hh, 17, 1)
        if start <= tt <= end:
            add(tt, f"CRON[{r.integers(100000, 999999)}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
    tt = start + dt.timedelta(seconds=int(r.integers(0, 15000)))
    add(tt, "chronyd[1207]", "Selected source 10.20.0.3")
    # node health check every 5 minutes (Slurm HealthCheckProgram is also run by slurmd; this is the cron copy)
    t = start.replace(minute=(start.minute // 5) * 5, second=0, microsecond=0) + dt.timedelta(minutes=5)
    while t < end:
        add(t + dt.timedelta(seconds=1), f"CRON[{r.integers(100000, 999999)}]", "(root) CMD (/usr/sbin/nhc -t 120 >/dev/null 2>&1)")
        t += dt.timedelta(minutes=5)
    tt = T(6, 25, 1)
    if start <= tt:
        add(tt, f"CRON[{r.integers(100000, 999999)}]", "(root) CMD (test -x /usr/sbin/anacron || ( cd / && run-parts --report /etc/cron.daily ))")
        add(tt + dt.timedelta(seconds=2), "rsyslogd", '[origin software="rsyslogd" swVersion="8.2001.0" x-pid="1121" x-info="https://www.rsyslog.com"] rsyslogd was HUPed')
    tt = T(8, 40, 0) + dt.timedelta(seconds=int(r.integers(0, 5400)))
    add(tt, "systemd[1]", "Starting Message of the Day...")
    add(tt + dt.timedelta(milliseconds=410), "systemd[1]", "motd-news.service: Succeeded.")
    add(tt + dt.timedelta(milliseconds=415), "systemd[1]", "Finished Message of the Day.")
    tt = T(7, 3, 0) + dt.timedelta(seconds=int(r.integers(0, 2400)))
    add(tt, "systemd[1]", "Starting Cleanup of Temporary Directories...")
    add(tt + dt.timedelta(milliseconds=60), "systemd[1]", "systemd-tmpfiles-clean.service: Succeeded.")
    add(tt + dt.timedelta(milliseconds=70), "systemd[1]", "Finished Cleanup of Temporary Directories.")
    if hi % 4 == 1:
        L.append(kline(h, start + dt.timedelta(seconds=int(r.integers(0, 15000))),
                       "perf: interrupt took too long (2504 > 2500), lowering kernel.perf_event_max_sample_rate to 79750"))
    # slurmd: the restarted job's batch script and step on its first node / all nodes
    if h in JOB2_HOSTS:
        if h == "gpu-c01":
            add(T_JOB2_START, "slurmd[2311]", "slurmd: Launching batch job 88247 for UID 1040")
        add(T_JOB2_START + dt.timedelta(seconds=2, milliseconds=int(r.integers(0, 800))), "slurmd[2311]",
            f"slurmd: launch task StepId=88247.0 request from UID:1040 GID:1040 HOST:10.20.4.20 PORT:{r.integers(40000, 60000)}")
    if h == BAD:
        # admin logs in after the drain and reads the RAS records
        sess = 4412
        t1 = T(10, 9, 55)
        add(t1, "sshd[1802233]", "Accepted publickey for hpcadm from 10.20.0.15 port 50822 ssh2: ED25519 SHA256:3yYh1n8o0gQwq1sW1m3V5m0yJpC0xM2eQ2cN9lV0oQ4")
        add(t1, "sshd[1802233]", "pam_unix(sshd:session): session opened for user hpcadm by (uid=0)")
        add(t1, "systemd-logind[1391]", f"New session {sess} of user hpcadm.")
        add(t1, "systemd[1]", f"Started Session {sess} of user hpcadm.")
        add(T(10, 12, 36), "sudo", "  hpcadm : TTY=pts/0 ; PWD=/home/hpcadm ; USER=root ; COMMAND=/usr/sbin/ras-mc-ctl --errors")
        t2 = T(10, 21, 3)
        add(t2, "sshd[1802233]", "pam_unix(sshd:session): session closed for user hpcadm")
        add(t2, "systemd[1]", f"session-{sess}.scope: Succeeded.")
        add(t2, "systemd-logind[1391]", f"Session {sess} logged out. Waiting for processes to exit.")
        add(t2, "systemd-logind[1391]", f"Removed session {sess}.")
        # the corrected-error storm
        storm_iter = iter(STORM)
        nxt = next(storm_iter, None)
        last_mce = None
        for (t, kind) in EDAC_EV:
            if t > end:
                break
            while nxt is not None and nxt[0] <= t:
                L.append(kline(h, nxt[0], CMCI_ON if nxt[1] == "on" else CMCI_OFF))
                nxt = next(storm_iter, None)
            if last_mce is None or (t - last_mce).total_seconds() > 300:
                L.append(kline(h, t - dt.timedelta(milliseconds=3), MCE_LOGGED))
                last_mce = t
            block = EDAC_READ if kind == "read" else EDAC_SCRUB
            offs = np.cumsum(r.integers(2, 9, len(block)))
            offs[-1] += int(r.integers(200, 600))
            for i, line in enumerate(block):
                tt = t + dt.timedelta(microseconds=int(offs[i]))
                L.append(kline(h, tt, line.replace("{epoch}", str(int(t.timestamp())))))
    L.sort(key=lambda x: x[0])
    return "\n".join(x for _, x in L) + "\n"


def ras_mc_ctl_errors():
    """ras-mc-ctl --errors as captured after the drain (rasdaemon records every EDAC report)."""
    out = ["Memory controller events:"]
    i = 0
    for (t, kind) in EDAC_EV:
        if t > T_RAS_CAPTURE:
            break
        i += 1
        ts = t.strftime("%Y-%m-%d %H:%M:%S +0000")
        if kind == "read":
            out.append(f"{i} {ts} 16384 Corrected error(s): memory read error at CPU_SrcID#0_MC#0_Chan#0_DIMM#1 location: 0:0:1:-1, addr {0x20edba94c0}, grain 5, syndrome 0  err_code:0x0101:0x0090 socket:0 imc:0 rank:0 bg:3 ba:2 row:0x106ce col:0x258")
        else:
            out.append(f"{i} {ts} 78 Corrected error(s): memory scrubbing error at CPU_SrcID#0_MC#0_Chan#0_DIMM#1 location: 0:0:1:-1, addr {0xd6db0b8c0}, grain 5, syndrome 0  err_code:0x0008:0x00c0 socket:0 imc:0 rank:0 bg:3 ba:2 row:0x6ecc col:0xe8")
    out += ["", "No PCIe AER errors.", "", "No Extlog errors.", "", "No devlink errors.", "", "No disk errors.", ""]
    return "\n".join(out) + "\n"


def hydra_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"


def fairseq_out(run, saves, start_upd, t_launch, nodes_expr, jobid, first_host, wall0, r, cancelled):
    L = []

    def log(t, name, msg):
        L.append((t, f"[{hydra_ts(t)}][{name}][INFO] - {msg}"))

    t = t_launch + dt.timedelta(seconds=41, milliseconds=int(r.integers(0, 900)))
    log(t, "fairseq.distributed.utils", f"distributed init (rank 0): tcp://{first_host}:29671")
    log(t + dt.timedelta(milliseconds=880), "fairseq.distributed.utils", f"initialized host {first_host} as rank 0")
    t = t + dt.timedelta(seconds=9)
    log(t, "fairseq_cli.train", "task: AudioPretrainingTask")
    log(t, "fairseq_cli.train", "model: Wav2Vec2Model")
    log(t, "fairseq_cli.train", "criterion: Wav2vecCriterion")
    log(t, "fairseq_cli.train", "num. shared model params: 317,390,592 (num. trained: 317,390,592)")
    log(t, "fairseq_cli.train", "num. expert model params: 0 (num. trained: 0)")
    t = t + dt.timedelta(seconds=2)
    log(t, "fairseq.utils", "***********************CUDA enviroments for all 128 workers***********************")
    for k in range(128):
        log(t, "fairseq.utils", f"rank {k:3d}: capabilities =  7.0  ; total memory = 31.749 GB ; name = Tesla V100-SXM2-32GB            ")
    log(t, "fairseq.utils", "***********************CUDA enviroments for all 128 workers***********************")
    log(t, "fairseq_cli.train", "training on 128 devices (GPUs/TPUs)")
    log(t, "fairseq_cli.train", "max tokens per device = 1200000 and max sentences per device = None")
    log(t, "fairseq.trainer", "Preparing to load checkpoint /checkpoint/w2v2_large_lv60k/checkpoint_last.pt")
    t = t + dt.timedelta(seconds=float(r.uniform(25, 40)))
    ep = 31 + (start_upd - EPOCH_START_UPD) // EPOCH_LEN
    log(t, "fairseq.trainer", f"Loaded checkpoint /checkpoint/w2v2_large_lv60k/checkpoint_last.pt (epoch {ep} @ {start_upd} updates)")
    log(t, "fairseq.trainer", f"loading train data for epoch {ep}")
    t = t + dt.timedelta(seconds=float(r.uniform(40, 70)))
    log(t, "fairseq.data.audio.raw_audio_dataset", "loaded 10766931, skipped 2419 samples")
    log(t + dt.timedelta(seconds=3), "fairseq.trainer", f"begin training epoch {ep}")
    log(t + dt.timedelta(seconds=3), "fairseq_cli.train", "Start iterating over samples")
    # training lines
    loss = 2.0412 - (start_upd - 160000) * 2.2e-7
    wall = wall0
    prev_t = run[0]["t"] - dt.timedelta(seconds=run[0]["dur"]) if run else t
    for iv in run:
        upd = iv["upd"]
        loss = 2.1043 - (upd - 160000) * 4.1e-7 + r.normal(0, 0.0045)
        l1 = 0.0605 + r.normal(0, 0.001)
        l2 = 0.0067 + r.normal(0, 0.0002)
        l0 = loss - l1 - l2
        epoch = 31 + (upd - EPOCH_START_UPD) // EPOCH_LEN
        frac = (epoch - 1) + ((upd - EPOCH_START_UPD) % EPOCH_LEN) / EPOCH_LEN
        wall += (iv["t"] - prev_t).total_seconds()
        prev_t = iv["t"]
        d = {
            "epoch": int(epoch), "update": round(frac, 3), "loss": f"{loss:.3f}", "ntokens": f"{iv['wpb']:.1f}",
            "nsentences": f"{640.4 + r.normal(0, 6):.1f}", "prob_perplexity": f"{641.2 + r.normal(0, 3):.3f}",
            "code_perplexity": f"{632.9 + r.normal(0, 3):.3f}", "temp": f"{max(2 * 0.999995 ** upd, 0.1):.3f}",
            "loss_0": f"{l0:.3f}", "loss_1": f"{l1:.3f}", "loss_2": f"{l2:.3f}",
            "accuracy": f"{0.6241 + r.normal(0, 0.002):.5f}",
            "wps": f"{iv['wpb'] * LOG_INTERVAL / iv['dur']:.1f}".rstrip("0").rstrip("."),
            "ups": f"{LOG_INTERVAL / iv['dur']:.2f}", "wpb": f"{iv['wpb']:.1f}",
            "bsz": f"{640.4 + r.normal(0, 6):.1f}", "num_updates": str(upd),
            "lr": f"{3e-4 * (1 - (upd - 32000) / 968000):.6g}", "gnorm": f"{abs(r.normal(0.412, 0.03)):.3f}",
            "loss_scale": "8", "train_wall": str(int(round(iv["dur"] * 0.996))),
            "gb_free": f"{9.6 + r.normal(0, 0.2):.1f}", "wall": str(int(wall)),
        }
        d["nsentences"] = d["bsz"]
        L.append((iv["t"], f"[{hydra_ts(iv['t'])}][train_inner][INFO] - {json.dumps(d)}"))
        for s in saves:
            if s["upd"] == upd:
                t0 = s["t0"] + dt.timedelta(milliseconds=int(r.integers(5, 40)))
                ep_s = 31 + (upd - EPOCH_START_UPD) // EPOCH_LEN
                path = f"/checkpoint/w2v2_large_lv60k/checkpoint_{ep_s}_{upd}.pt"
                log(t0, "fairseq.trainer", f"Preparing to save checkpoint for epoch {ep_s} @ {upd} updates")
                log(t0, "fairseq.trainer", f"Saving checkpoint to {path}")
                log(t0 + dt.timedelta(seconds=s["write"] - 0.4), "fairseq.trainer", f"Finished saving checkpoint to {path}")
                log(t0 + dt.timedelta(seconds=s["write"]), "fairseq.checkpoint_utils",
                    f"Saved checkpoint {path} (epoch {ep_s} @ {upd} updates, score None) (writing took {s['write']:.10f} seconds)")
                wall += (s["t1"] - s["t0"]).total_seconds()
                prev_t = s["t1"]
    L.sort(key=lambda x: x[0])
    lines = [x for _, x in L]
    if cancelled:
        ts_ = T_CANCEL.strftime("%Y-%m-%dT%H:%M:%S")
        lines += [f"slurmstepd: error: *** JOB {jobid} ON {first_host} CANCELLED AT {ts_} ***",
                  "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  f"slurmstepd: error: *** STEP {jobid}.0 ON {first_host} CANCELLED AT {ts_} ***"]
    return "\n".join(lines) + "\n"


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics", "node_exporter"))
    os.makedirs(os.path.join(OUT, "logs"))
    for hi, h in enumerate(HOSTS):
        times, S, _ip = node_series(h, hi)
        write_om(os.path.join(OUT, "metrics", "node_exporter", f"{h}.om"), times, S)
    with open(os.path.join(OUT, "metrics", "dcgm_exporter.csv"), "w") as f:
        f.write("timestamp,metric,value,Hostname,gpu,device,modelName,UUID\n")
        for row in dcgm_rows():
            f.write(f"{row[0]},{row[1]},{fnum(row[2])},{row[3]},{row[4]},{row[5]},{row[6]},{row[7]}\n")
    for hi, h in enumerate(HOSTS):
        d = os.path.join(OUT, "logs", h)
        os.makedirs(d)
        with open(os.path.join(d, "syslog"), "w") as f:
            f.write(syslog_for(h, hi))
    with open(os.path.join(OUT, "logs", BAD, "ras-mc-ctl--errors.txt"), "w") as f:
        f.write(ras_mc_ctl_errors())
    r = np.random.default_rng(SEED + 900)
    with open(os.path.join(OUT, "logs", "slurm-88231.out"), "w") as f:
        f.write(fairseq_out(RUN1, SAVES1, 160000, T(1, 11, 2), "gpu-c[01-16]", 88231, "gpu-c01", 98412.0, r, True))
    # restarted job: wall restored from the checkpoint's meters
    wall_ck = 98412.0 + sum(iv["dur"] for iv in RUN1 if iv["upd"] <= LAST_SAVE) + sum((s["t1"] - s["t0"]).total_seconds() for s in SAVES1 if s["upd"] < LAST_SAVE)
    with open(os.path.join(OUT, "logs", "slurm-88247.out"), "w") as f:
        f.write(fairseq_out(RUN2, SAVES2, LAST_SAVE, T_JOB2_START, "gpu-c[01-10,12-17]", 88247, "gpu-c01", wall_ck, r, False))

    inc = {
        "id": ID,
        "title": "wav2vec2-large pretraining ~5% slower for two hours; gpu-c11 drained",
        "window": {"start": W_START.isoformat(), "end": W_END.isoformat()},
        "baseline": {"start": W_START.isoformat(), "end": "2025-09-16T07:35:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "speech-v100", "nodes": 17, "gpus_per_node": 8, "gpu_model": "V100"},
        "signal_pack": "default",
        "timestamp_unit": "ms",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    base = [iv for iv in RUN1 if W_START <= iv["t"] < T_ONSET]
    fault = [iv for iv in RUN1 if T_SLOW_FULL <= iv["t"] < T_CANCEL]
    wps_b = np.mean([iv["wpb"] * LOG_INTERVAL / iv["dur"] for iv in base])
    wps_f = np.mean([iv["wpb"] * LOG_INTERVAL / iv["dur"] for iv in fault])
    loss_pct = round(100 * (1 - wps_f / wps_b), 1)
    ce_total = int(EDAC_INC[EDAC_TIMES <= T_CANCEL.timestamp()].sum())
    truth = {
        "id": ID,
        "cause": ("A DIMM on gpu-c11 (CPU_SrcID#0_MC#0_Chan#0_DIMM#1) began a corrected-ECC-error storm; the kernel's "
                  "machine-check/EDAC handling took CPU time from the host's wav2vec2 data-loader workers, so its 8 ranks "
                  "fed late and the whole synchronous job slowed until gpu-c11 was drained and the job restarted on a spare."),
        "cause_metrics": ["node_edac_correctable_errors_total", "node_edac_csrow_correctable_errors_total",
                          "node_cpu_seconds_total{mode=\"system\"}", "node_load1", "node_pressure_cpu_waiting_seconds_total"],
        "effect_metrics": ["fairseq train_inner wps/ups (logs/slurm-88231.out)", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
                           "DCGM_FI_DEV_GPU_UTIL on gpu-c11 (its GPUs wait for data: idle-ish, not a GPU straggler)"],
        "cause_log_evidence": [
            {"text": EDAC_READ[6], "also": EDAC_READ[:6],
             "source": "https://github.com/ledkk/ledkk.github.io/blob/7f8ec906b30107dc401a3c2d77ef5b6ee7e0d60f/source/_posts/mem-ecc-error-cause-sys-load-high.md (dmesg -T of a production host whose load went high from memory ECC errors)",
             "adapted": "timestamps (moved into syslog lines with the kernel's uptime stamp) and the TIME epoch on the PROCESSOR line"},
            {"text": EDAC_SCRUB[6], "also": EDAC_SCRUB[:6],
             "source": "same post, second report", "adapted": "timestamps, TIME epoch"},
            {"text": CMCI_ON,
             "source": "https://github.com/oberstet/scratchbox/blob/dc13420b887864d40bff5bde608178da589ce170/freebsd/cruncher/cruncher_ubuntu.md (section 'Memory Errors', bvr-sql18 kern.log); also quoted in Tony Luck's '[RFC PATCH] x86/mce: Provide sysfs interface to show CMCI storm state', linux-edac 2021-06-01, Message-Id <20210601200505.966849-1-tony.luck@intel.com>",
             "adapted": "host name, timestamp"},
            {"text": CMCI_OFF,
             "source": "Tony Luck, '[RFC PATCH] x86/mce: Provide sysfs interface to show CMCI storm state', linux-edac 2021-06-01, Message-Id <20210601200505.966849-1-tony.luck@intel.com> (quotes both console messages)",
             "adapted": "host name, timestamp"},
            {"text": MCE_LOGGED,
             "source": "https://github.com/openstreetmap/operations/issues/300 (errol kern.log); also https://github.com/radiasoft/devops/issues/134",
             "adapted": "host name, timestamp"},
            {"text": "N <date> +0000 16384 Corrected error(s): memory read error at CPU_SrcID#0_MC#0_Chan#0_DIMM#1 location: 0:0:1:-1, addr " + str(0x20edba94c0) + ", grain 5, syndrome 0  err_code:0x0101:0x0090 socket:0 imc:0 rank:0 bg:3 ba:2 row:0x106ce col:0x258",
             "where": "logs/gpu-c11/ras-mc-ctl--errors.txt (rasdaemon report, captured 10:12 UTC after the drain)",
             "source": "wording and layout of rasdaemon's 'ras-mc-ctl --errors' memory-controller lines verbatim from https://github.com/openstreetmap/operations/issues/759 (snap-02, skx_edac); the trailing 'No PCIe AER errors.' ... 'No disk errors.' lines from https://github.com/mchehab/rasdaemon/issues/121",
             "adapted": ("NOT a verbatim line: besides timestamps, the per-event fields (error count, DIMM label, location, addr, "
                         "err_code, socket/imc/rank/bg/ba/row/col) are taken from the ledkk kernel EDAC line above so that the "
                         "rasdaemon record describes the same DIMM and event as the kernel log (the snap-02 lines name another DIMM).")},
        ],
        "benign_log_lines_note": "CRON, systemd, chronyd, sshd, sudo and slurmd lines in logs/*/syslog and fairseq/Slurm lines in logs/slurm-*.out are ordinary background written in those programs' usual formats, not fault evidence.",
        "hosts": [BAD],
        "gpu": None,
        "onset": T_ONSET.isoformat(),
        "storm_detected": T_STORM.isoformat(),
        "slowdown_full_by": T_SLOW_FULL.isoformat(),
        "drained": T_DRAIN.isoformat(),
        "job_cancelled": T_CANCEL.isoformat(),
        "job_restarted_training": T_TRAIN2.isoformat(),
        "restart_detail": ("job 88247 on gpu-c[01-10,12-17] (spare gpu-c17 replaces gpu-c11), same 128 GPUs; resumed from "
                           f"checkpoint_last at update {LAST_SAVE}, so the updates after it (to ~{RUN1[-1]['upd']}) were recomputed"),
        "job_throughput_loss_pct": float(loss_pct),
        "job_throughput_loss_note": ("mean fairseq wps from full slowdown to the cancel vs the baseline; the restart itself "
                                     "cost ~6 minutes of no training plus the recomputed updates since the last checkpoint"),
        "correctable_errors_reported_before_cancel": ce_total,
        "what_a_good_postmortem_says": (
            "From 07:41 UTC gpu-c11 logged a storm of corrected memory errors on one DIMM (EDAC MC0, "
            "CPU_SrcID#0_MC#0_Chan#0_DIMM#1; CMCI storm, node_edac_correctable_errors_total climbing only there) and its "
            "system CPU time and load rose while its GPUs sat partly idle waiting for data. Because the job is synchronous, "
            "all 128 GPUs slowed: fairseq's wps fell about 5% until gpu-c11 was drained at 09:47 and the job restarted on the "
            "spare at 09:57, after which the pace was back to baseline. The DIMM should be replaced (and the node kept out), "
            "and a rule on node_edac_correctable_errors_total rate would have caught it within minutes instead of two hours."),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120)


if __name__ == "__main__":
    main()
