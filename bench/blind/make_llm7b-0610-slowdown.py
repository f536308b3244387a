#!/usr/bin/env python3
"""Generator for incident llm7b-0610-slowdown (fixed seed).

One HGX H100 host (gpu-b11) is rebooted between two runs of a 128-GPU synchronous
data-parallel job after its NVIDIA driver is updated 530.30.02 -> 530.41.03 while the
nvidia-fabricmanager package stays at 530.30.02.  Fabric Manager refuses to start
(version mismatch), the host's NVSwitch fabric is never configured, its GPUs lose NVLink
peer access and NCCL routes that host's intra-node hops through shared memory.  The job
started after the reboot runs ~13% slower on every rank.
"""
import os, sys, math, uuid, datetime as dt
import numpy as np
import pyarrow as pa, pyarrow.parquet as pq
import yaml

SEED = 20250610
rng = np.random.default_rng(SEED)
ID = "llm7b-0610-slowdown"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = dt.timezone.utc

def T(s):
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC).timestamp()

W0, W1 = T("2025-06-10T05:00:00"), T("2025-06-10T10:30:00")
JOBA_START, JOBA_END = T("2025-06-10T02:10:02"), T("2025-06-10T06:40:02")
JOBB_START = T("2025-06-10T07:18:31")       # srun launches
JOBB_TRAIN = T("2025-06-10T07:24:47")       # first iteration logged after init + ckpt load
REBOOT_DOWN, REBOOT_UP = T("2025-06-10T06:52:41"), T("2025-06-10T06:58:52")
KBOOT = T("2025-06-10T06:55:01")             # kernel boot of gpu-b11
FM_FAIL = T("2025-06-10T06:55:49")

HOSTS = [f"gpu-b{i:02d}" for i in range(1, 17)]
BAD = "gpu-b11"
BADI = HOSTS.index(BAD)
WARM = "gpu-b05"                               # sits by the hot aisle end, always warmer
BUS = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
MODEL = "NVIDIA H100 80GB HBM3"
STEP_A, STEP_B = 2.60, 3.00                    # seconds per iteration
LOSS_PCT = round((1 - STEP_A / STEP_B) * 100, 1)

def uid():
    return "GPU-" + str(uuid.UUID(bytes=rng.bytes(16), version=4))

UUIDS = {(h, g): uid() for h in HOSTS for g in range(8)}
BOOT = {h: T("2025-05-27T14:02:10") + rng.uniform(0, 3600 * 30) for h in HOSTS}
BOOT_NEW = KBOOT


def state(h, t):
    """Cluster state as seen on host h at time t."""
    if h == BAD and REBOOT_DOWN <= t < REBOOT_UP:
        return "down"
    if t < JOBA_END:
        return "trainA"
    if t < JOBB_START:
        return "idle"
    if t < JOBB_TRAIN:
        return "init"
    return "trainB"

# ---------- trainer timeline (iterations) ----------
def build_iterations():
    """Return list of (time, iteration, elapsed_ms, is_ckpt, job)."""
    out = []
    ck = []
    # job A: resumed at iteration 31000 at 02:16:30; step STEP_A
    t = T("2025-06-10T02:16:30"); it = 31000
    while True:
        dur = 0.0
        for _ in range(10):
            dur += STEP_A * (1 + rng.normal(0, 0.006))
        it += 10
        extra = 0.0
        if it % 500 == 0:
            extra = rng.uniform(31, 38)
            ck.append((t + dur, it, extra, "A"))
        t += dur + extra
        if t >= JOBA_END:
            break
        out.append((t, it, (dur + extra) / 10 * 1000, "A"))
    last_ckpt_A = max(c[1] for c in ck if c[3] == "A" and c[0] < JOBA_END)
    # job B resumes from the last checkpoint job A wrote
    t = JOBB_TRAIN - STEP_B * 10; it = last_ckpt_A
    first = True
    while True:
        dur = 0.0
        for _ in range(10):
            dur += STEP_B * (1 + rng.normal(0, 0.006))
        if first:
            dur += 9.0     # first iterations include warm-up / graph capture
            first = False
        it += 10
        extra = 0.0
        if it % 500 == 0:
            extra = rng.uniform(31, 38)
            ck.append((t + dur, it, extra, "B"))
        t += dur + extra
        if t > W1 + 60:
            break
        out.append((t, it, (dur + extra) / 10 * 1000, "B"))
    return out, ck, last_ckpt_A

ITERS, CKPTS, RESUME_IT = build_iterations()
CK_WINDOWS = [(c[0], c[0] + c[2]) for c in CKPTS]

def in_ckpt(t):
    for a, b in CK_WINDOWS:
        if a <= t < b:
            return True
    return False

# ---------- metrics ----------
def scrape_times(phase, interval):
    n0 = math.ceil((W0 - phase) / interval)
    n1 = math.floor((W1 - phase) / interval)
    ts = phase + np.arange(n0, n1 + 1) * interval
    return ts + rng.uniform(0.002, 0.180, size=ts.size)

ROWS = {}
def add(metric, ts, vals, labels):
    d = ROWS.setdefault(metric, {"timestamp": [], "value": [], "labels": []})
    d["timestamp"].append(np.asarray(ts))
    d["value"].append(np.asarray(vals, dtype="float64"))
    d["labels"].append((len(ts), labels))

def dcgm_host(hi, h):
    phase = rng.uniform(0, 30)
    ts = scrape_times(phase, 30.0)
    st = np.array([state(h, t) for t in ts])
    ck = np.array([in_ckpt(t) for t in ts])
    up = st != "down"
    add("up", ts, up.astype(float), dict(instance=f"{h}:9400", job="dcgm-exporter"))
    ts_up = ts[up]; st = st[up]; ck = ck[up]
    n = ts_up.size
    host_temp = 4.0 if h == WARM else rng.normal(0, 1.0)
    for g in range(8):
        drv = np.where((h == BAD) & (ts_up >= REBOOT_UP), "530.41.03", "530.30.02")
        base = dict(gpu=str(g), UUID=UUIDS[(h, g)], pci_bus_id=BUS[g], device=f"nvidia{g}",
                    modelName=MODEL, Hostname=h, instance=f"{h}:9400", job="dcgm-exporter")
        p_off = rng.normal(0, 11); t_off = rng.normal(0, 2.2) + host_temp
        train = np.isin(st, ["trainA", "trainB"]) & ~ck
        trainB = (st == "trainB") & ~ck
        util = np.where(train, np.clip(np.round(rng.normal(99.2, 1.2, n)), 88, 100), 0)
        util = np.where(ck, np.round(rng.uniform(0, 35, n)), util)
        util = np.where(st == "init", np.round(rng.uniform(0, 60, n)), util)
        pw = np.full(n, 71.0 + p_off * 0.1) + rng.normal(0, 1.2, n)
        pw = np.where(train, 598 + p_off + rng.normal(0, 16, n), pw)
        pw = np.where(trainB, pw - 27 - (6 if h == BAD else 0), pw)
        pw = np.where(ck, 118 + rng.normal(0, 9, n), pw)
        pw = np.where(st == "init", 95 + rng.uniform(0, 140, n), pw)
        pw = np.clip(pw, 60, 700)
        temp = 30.5 + t_off + (pw - 70) * 0.056 + rng.normal(0, 0.6, n)
        # thermal lag: smooth
        for i in range(1, n):
            temp[i] = temp[i - 1] + 0.55 * (temp[i] - temp[i - 1])
        mtemp = temp + 7.0 + rng.normal(0, 0.5, n)
        sm = np.where(train, rng.choice([1980, 1980, 1980, 1980, 1980, 1965, 1950, 1935, 1905], n), 345)
        sm = np.where(st == "init", rng.choice([345, 1980], n), sm)
        fb = np.where(np.isin(st, ["trainA", "trainB"]), 74211 + rng.integers(-64, 64, n), 1)
        fb = np.where(st == "init", rng.integers(500, 70000, n), fb)
        # energy since boot (mJ)
        boot = np.where((h == BAD) & (ts_up >= REBOOT_UP), BOOT_NEW, BOOT[h])
        e = np.empty(n)
        acc = (ts_up[0] - BOOT[h]) * 410.0 * 1000
        for i in range(n):
            if i > 0:
                if boot[i] != boot[i - 1]:
                    acc = (ts_up[i] - boot[i]) * 90.0 * 1000
                else:
                    acc += pw[i] * (ts_up[i] - ts_up[i - 1]) * 1000
            e[i] = acc
        # NVLink bandwidth counter (cumulative, reset at driver reload)
        rate = np.where(st == "trainA", 7.9e9, 0.0)
        rate = np.where(st == "trainB", 7.9e9 * STEP_A / STEP_B, rate)
        rate = np.where(ck, 0.05e9, rate)
        rate = np.where(st == "init", 0.3e9, rate)
        rate = np.where(st == "idle", 0.0, rate)
        after = (h == BAD) & (ts_up >= REBOOT_UP)
        rate = np.where(after, 0.0, rate)
        rate = rate * (1 + rng.normal(0, 0.015, n))
        nv = np.empty(n); acc = rng.uniform(2e15, 6e15)
        for i in range(n):
            if i > 0:
                if boot[i] != boot[i - 1]:
                    acc = 0.0
                else:
                    acc += rate[i] * (ts_up[i] - ts_up[i - 1])
            nv[i] = acc
        tensor = np.where(st == "trainA", 0.412 + rng.normal(0, 0.008, n), 0.0)
        tensor = np.where(trainB, 0.412 * STEP_A / STEP_B + rng.normal(0, 0.008, n), tensor)
        tensor = np.where(ck, rng.uniform(0, 0.05, n), tensor)
        tensor = np.where(st == "init", rng.uniform(0, 0.1, n), tensor)
        gr = np.where(train, 0.975 + rng.normal(0, 0.006, n), 0.0)
        gr = np.where(ck, rng.uniform(0.0, 0.3, n), gr)
        gr = np.where(st == "init", rng.uniform(0, 0.5, n), gr)
        dram = np.where(st == "trainA", 0.31 + rng.normal(0, 0.01, n), 0.0)
        dram = np.where(trainB, 0.31 * 0.9 + rng.normal(0, 0.01, n), dram)
        pcie = np.where(st == "trainA", 8.6e9, 2.1e6)
        pcie = np.where(trainB, 8.6e9 * STEP_A / STEP_B, pcie)
        pcie = np.where(trainB & after, 8.6e9 * STEP_A / STEP_B + 11.8e9, pcie)
        pcie = np.where(ck, 0.6e9, pcie)
        pcie = np.where(st == "init", rng.uniform(0.2e9, 6e9, n), pcie)
        ptx = pcie * (1 + rng.normal(0, 0.03, n)); prx = pcie * (1 + rng.normal(0, 0.03, n))
        replay0 = int(rng.choice([0, 0, 0, 0, 1, 3, 12]))
        replay = np.full(n, replay0, float)
        if rng.random() < 0.05:
            replay[rng.integers(0, n):] += 1
        replay = np.where(after, 0.0, replay)
        # labels differ only by driver version: split in two label sets
        for drv_v in np.unique(drv):
            m = drv == drv_v
            lab = dict(base, DCGM_FI_DRIVER_VERSION=str(drv_v))
            tsm = ts_up[m]
            add("DCGM_FI_DEV_GPU_UTIL", tsm, util[m], lab)
            add("DCGM_FI_DEV_POWER_USAGE", tsm, np.round(pw[m], 3), lab)
            add("DCGM_FI_DEV_GPU_TEMP", tsm, np.round(temp[m]), lab)
            add("DCGM_FI_DEV_MEMORY_TEMP", tsm, np.round(mtemp[m]), lab)
            add("DCGM_FI_DEV_SM_CLOCK", tsm, sm[m], lab)
            add("DCGM_FI_DEV_MEM_CLOCK", tsm, np.full(m.sum(), 2619.0), lab)
            add("DCGM_FI_DEV_FB_USED", tsm, fb[m], lab)
            add("DCGM_FI_DEV_FB_FREE", tsm, 81559 - 592 - fb[m], lab)
            add("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", tsm, np.round(e[m]), lab)
            add("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", tsm, np.round(nv[m]), lab)
            add("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", tsm, replay[m], lab)
            add("DCGM_FI_DEV_XID_ERRORS", tsm, np.zeros(m.sum()), lab)
            add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", tsm, np.round(np.clip(gr[m], 0, 1), 6), lab)
            add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tsm, np.round(np.clip(tensor[m], 0, 1), 6), lab)
            add("DCGM_FI_PROF_DRAM_ACTIVE", tsm, np.round(np.clip(dram[m], 0, 1), 6), lab)
            add("DCGM_FI_PROF_PCIE_TX_BYTES", tsm, np.round(ptx[m]), lab)
            add("DCGM_FI_PROF_PCIE_RX_BYTES", tsm, np.round(prx[m]), lab)

def node_host(hi, h):
    phase = rng.uniform(0, 15)
    ts = scrape_times(phase, 15.0)
    st = np.array([state(h, t) for t in ts])
    ck = np.array([in_ckpt(t) for t in ts])
    up = st != "down"
    inst = f"{h}:9100"
    add("up", ts, up.astype(float), dict(instance=inst, job="node"))
    ts = ts[up]; st = st[up]; ck = ck[up]; n = ts.size
    after = (h == BAD) & (ts >= REBOOT_UP)
    base = dict(instance=inst, job="node")
    add("node_boot_time_seconds", ts, np.where(after, round(KBOOT, 3) - 0.41, round(BOOT[h], 3)), base)
    add("node_uname_info", ts, np.ones(n), dict(base, domainname="(none)", machine="x86_64", nodename=h,
        release="5.15.0-105-generic", sysname="Linux", version="#115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024"))
    train = np.isin(st, ["trainA", "trainB"])
    load = np.where(train, 22 + rng.normal(0, 2.5, n), 1.2 + rng.normal(0, 0.3, n))
    load = np.where(st == "init", 9 + rng.normal(0, 2, n), load)
    load1 = load.copy()
    for i in range(1, n):
        load1[i] = load1[i - 1] * 0.78 + load[i] * 0.22
    add("node_load1", ts, np.round(np.clip(load1, 0, None), 2), base)
    memav = np.where(train, 1.62e12, 1.93e12) + rng.normal(0, 3e9, n)
    add("node_memory_MemAvailable_bytes", ts, np.round(memav), base)
    add("node_memory_MemTotal_bytes", ts, np.full(n, 2163761434624.0), base)
    # InfiniBand: 8 x NDR (mlx5_0..mlx5_7) compute rails, counters only rise
    boot = np.where(after, KBOOT, BOOT[h])
    for d in range(8):
        rate = np.where(st == "trainA", 8.4e9, 1.5e3)
        rate = np.where(st == "trainB", 8.4e9 * STEP_A / STEP_B, rate)
        rate = np.where(ck, 0.02e9, rate)
        rate = np.where(st == "init", 0.4e9, rate)
        for name, r in (("node_infiniband_port_data_received_bytes_total", rate),
                        ("node_infiniband_port_data_transmitted_bytes_total", rate)):
            rr = r * (1 + rng.normal(0, 0.02, n))
            c = np.empty(n); acc = rng.uniform(1e16, 4e16)
            for i in range(n):
                if i > 0:
                    acc = (ts[i] - KBOOT) * 2e3 if boot[i] != boot[i - 1] else acc + rr[i] * (ts[i] - ts[i - 1])
                c[i] = acc
            add(name, ts, np.round(c), dict(base, device=f"mlx5_{d}", port="1"))
        ld = 1.0 if (h == "gpu-b03" and d == 5) else 0.0
        add("node_infiniband_link_downed_total", ts, np.where(after, 0.0, ld), dict(base, device=f"mlx5_{d}", port="1"))
    # front-end ethernet (checkpoints go to the parallel filesystem over it)
    for nm, r0, rck in (("node_network_transmit_bytes_total", 2.5e6, 1.05e9), ("node_network_receive_bytes_total", 3.1e6, 0.02e9)):
        r = np.where(ck, rck, r0) * (1 + rng.normal(0, 0.05, n))
        r = np.where(st == "init", 0.6e9 if "receive" in nm else 4e6, r)   # checkpoint load
        c = np.empty(n); acc = rng.uniform(1e13, 5e13)
        for i in range(n):
            if i > 0:
                acc = 1e5 if boot[i] != boot[i - 1] else acc + r[i] * (ts[i] - ts[i - 1])
            c[i] = acc
        add(nm, ts, np.round(c), dict(base, device="bond0"))
    avail = 3.41e11 - (ts - W0) * 1100 + rng.normal(0, 1e6, n)
    add("node_filesystem_avail_bytes", ts, np.round(avail), dict(base, device="/dev/md0", fstype="ext4", mountpoint="/"))

for hi, h in enumerate(HOSTS):
    dcgm_host(hi, h)
    node_host(hi, h)

def write_parquet(path, metrics):
    tabs = []
    for m in metrics:
        d = ROWS[m]
        ts = np.concatenate(d["timestamp"]); vals = np.concatenate(d["value"])
        cols = {}
        keys = sorted({k for _, lab in d["labels"] for k in lab})
        for k in keys:
            cols[k] = np.concatenate([np.full(nn, lab.get(k), dtype=object) for nn, lab in d["labels"]])
        order = np.argsort(ts, kind="stable")
        arrs = {"timestamp": pa.array((ts[order] * 1000).astype("int64"), pa.timestamp("ms", tz="UTC")),
                "metric": pa.array(np.full(ts.size, m, dtype=object), pa.string()),
                "value": pa.array(vals[order])}
        for k in keys:
            arrs[k] = pa.array(cols[k][order], pa.string())
        tabs.append(pa.table(arrs))
    t = pa.concat_tables(tabs, promote_options="default")
    pq.write_table(t, path, compression="zstd", row_group_size=400_000, use_dictionary=True)

os.makedirs(os.path.join(OUT, "metrics"), exist_ok=True)
dcgm_m = sorted(m for m in ROWS if m.startswith("DCGM"))
node_m = sorted(m for m in ROWS if m.startswith("node_"))
# 'up' series from both jobs go with node
write_parquet(os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), dcgm_m)
write_parquet(os.path.join(OUT, "metrics", "node-exporter.parquet"), node_m + ["up"])

# ---------- logs ----------
MON = ["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"]
def jts(t):          # journalctl short
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{MON[d.month-1]} {d.day:02d} {d.strftime('%H:%M:%S')}"
def glog(t):         # torch glog W0610 06:40:02.511000
    d = dt.datetime.fromtimestamp(t, UTC)
    return f"{d.strftime('%m%d %H:%M:%S')}.{d.microsecond:06d}"
def mts(t):
    return dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")

# ---- real fault-evidence lines (verbatim; only host/time/PCI/GPU index adapted) ----
SRC = {
 "fm_mismatch": ("nv-fabricmanager[3228]: fabric manager NVIDIA GPU driver interface version 530.30.02 don't match with driver version 530.41.03. Please update with matching NVIDIA driver package.",
                 "https://github.com/NVIDIA/gpu-operator/issues/544"),
 "fm_starting": ("systemd[1]: Starting NVIDIA fabric manager service...", "https://github.com/NVIDIA/gpu-operator/issues/610"),
 "fm_exited": ("systemd[1]: nvidia-fabricmanager.service: Control process exited, code=exited, status=1/FAILURE",
               "https://github.com/NVIDIA/gpu-operator/issues/610"),
 "nvrm_load": ("NVRM: loading NVIDIA UNIX x86_64 Kernel Module  530.41.03  Thu Mar 16 19:48:20 UTC 2023",
               "boot log quoted in a public blog post (find_string 'Kernel Module  530.41.03'); the version string of the 530.41.03 driver"),
}
SXID = [
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Data {0x0000002b, 0x0000002b, 0x00000000, 0x0000002b, 0x80005302, 0x00000000, 0x00000000, 0x00000000, 0x00000000}",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Non-fatal, Link 44 Minion Link DLREQ interrupt",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Severity 0 Engine instance 44 Sub-engine instance 00",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Data {0x0000002c, 0x0000002c, 0x00000000, 0x0000002c, 0x80005302, 0x00000000, 0x00000000, 0x00000000, 0x00000000}",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Non-fatal, Link 45 Minion Link DLREQ interrupt",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Severity 0 Engine instance 45 Sub-engine instance 00",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Data {0x0000002d, 0x0000002d, 0x00000000, 0x0000002d, 0x80005302, 0x00000000, 0x00000000, 0x00000000, 0x00000000}",
 "nvidia-nvswitch3: SXid (PCI:0000:04:00.0): 22013, Non-fatal, Link 46 Minion Link DLREQ interrupt",
]
SXID_SRC = "https://github.com/NVIDIA/nvtrust/issues/124"
PEERMEM = "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"

def journal(h):
    L = []
    def J(t, msg):
        L.append((t, f"{jts(t)} {h} {msg}"))
    t0 = W0 - 1800
    pid = int(rng.integers(200000, 400000))
    # periodic benign
    for k in range(int((W1 + 300 - t0) // 600) + 1):
        t = math.floor(t0 / 600) * 600 + k * 600 + rng.uniform(0.5, 2)
        if t < t0 or (h == BAD and REBOOT_DOWN - 20 <= t < REBOOT_UP + 60):
            continue
        pid += int(rng.integers(20, 900))
        J(t, f"CRON[{pid}]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
        if k % 6 == 1:
            J(t + 0.2, f"CRON[{pid+2}]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)")
    for k in range(int((W1 - t0) // 1024)):
        t = t0 + k * 1024 + rng.uniform(0, 900)
        J(t, f"chronyd[1187]: Selected source 10.20.0.2 (ntp1.cluster.internal)")
    for t in np.sort(rng.uniform(t0, W1, 6)):
        J(t, f"systemd[1]: Started Session {int(rng.integers(300, 900))} of User prometheus.")
    for t in np.sort(rng.uniform(t0, W1, 2)):
        J(t, "kernel: perf: interrupt took too long (2511 > 2500), lowering kernel.perf_event_max_sample_rate to 79500")
    t = t0 + rng.uniform(600, 2400)
    J(t, "systemd[1]: Starting Cleanup of Temporary Directories...")
    J(t + 0.3, "systemd[1]: systemd-tmpfiles-clean.service: Deactivated successfully.")
    J(t + 0.3, "systemd[1]: Finished Cleanup of Temporary Directories.")
    # job A end
    t = JOBA_END + rng.uniform(0, 1.2)
    if h == "gpu-b01":
        J(t, "slurmstepd[1184433]: error: *** JOB 48213 ON gpu-b01 CANCELLED AT 2025-06-10T06:40:02 DUE TO TIME LIMIT ***")
    J(t + 0.5, f"slurmstepd[{1184400+HOSTS.index(h)}]: error: *** STEP 48213.0 ON gpu-b01 CANCELLED AT 2025-06-10T06:40:02 DUE TO TIME LIMIT ***")
    for k in range(int(rng.integers(3, 9))):
        J(t + 6 + k * 0.001, "kernel: " + PEERMEM)
    J(t + 31, f"slurmd[2231]: slurmd: epilog for job 48213 ran for 4 seconds")
    # job B start
    if not (h == BAD):
        pass
    t = JOBB_START + rng.uniform(0, 0.8)
    J(t, f"slurmd[{2231 if h != BAD else 2164}]: slurmd: Launching batch job 48240 for UID 1043" if h == "gpu-b01"
      else f"slurmd[{2231 if h != BAD else 2164}]: slurmd: launch task StepId=48240.0 request from UID:1043 GID:1043 HOST:10.20.1.11 PORT:{int(rng.integers(33000, 60000))}")
    J(t + 0.1, f"slurmd[{2231 if h != BAD else 2164}]: slurmd: task/affinity: lllp_distribution: JobId=48240 manual binding: none,one_thread")
    if h == BAD:
        bad_boot_journal(J)
    L.sort(key=lambda x: x[0])
    lines = [x[1] for x in L if x[0] >= t0]
    # journalctl marks the boot change
    out = []
    done = False
    for (t, line) in sorted(L, key=lambda x: x[0]):
        if t < t0:
            continue
        if h == BAD and not done and t >= KBOOT:
            out.append("-- Boot 6f0c3d2a9e1b47d2b3f1a0c8e54d7b19 --")
            done = True
        out.append(line)
    return out

BAD_EVIDENCE = []

def bad_boot_journal(J):
    t = T("2025-06-10T06:44:12")
    J(t, "sshd[1883012]: Accepted publickey for ops from 10.20.0.9 port 51022 ssh2: ED25519 SHA256:q0wq6oKJw1B0f1cE0W3y5jH1bz5tGk8N0VqXcV3rD8s")
    J(t + 0.1, "systemd-logind[1402]: New session 311 of user ops.")
    J(t + 41, "sudo[1883190]:      ops : TTY=pts/0 ; PWD=/home/ops ; USER=root ; COMMAND=/usr/bin/apt-get install -y --only-upgrade nvidia-driver-530 nvidia-dkms-530")
    J(t + 42, "sudo[1883190]: pam_unix(sudo:session): session opened for user root(uid=0) by ops(uid=1001)")
    J(t + 388, "sudo[1883190]: pam_unix(sudo:session): session closed for user root")
    J(REBOOT_DOWN - 1.2, "sudo[1887711]:      ops : TTY=pts/0 ; PWD=/home/ops ; USER=root ; COMMAND=/usr/sbin/reboot")
    J(REBOOT_DOWN - 0.9, "systemd-logind[1402]: The system will reboot now!")
    J(REBOOT_DOWN - 0.5, "systemd[1]: Stopping NVIDIA fabric manager service...")
    J(REBOOT_DOWN - 0.4, "systemd[1]: Stopping Slurm node daemon...")
    J(REBOOT_DOWN - 0.2, "systemd[1]: Stopped target Graphical Interface.")
    # new boot (kernel lines carry the boot time)
    k = KBOOT
    boot_kernel = [
        (0.0, "kernel: Linux version 5.15.0-105-generic (buildd@lcy02-amd64-054) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024 (Ubuntu 5.15.0-105.115-generic 5.15.149)"),
        (0.0, "kernel: Command line: BOOT_IMAGE=/vmlinuz-5.15.0-105-generic root=UUID=2b6f0e1c-37d4-4a51-9d0e-58c1f2a7e9b3 ro iommu=pt pci=realloc=off"),
        (0.0, "kernel: DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 11/03/2023"),
        (2.1, "kernel: rtc_cmos 00:01: setting system clock to 2025-06-10T06:55:03 UTC (1749538503)"),
        (9.8, "kernel: nvidia: loading out-of-tree module taints kernel."),
        (9.8, "kernel: nvidia: module license 'NVIDIA' taints kernel."),
        (9.9, "kernel: nvidia-nvlink: Nvlink Core is being initialized, major device number 509"),
        (10.3, "kernel: " + SRC["nvrm_load"][0]),
    ]
    for off, msg in boot_kernel:
        J(k + off, msg)
    for i, s in enumerate(SXID):
        J(k + 14.2 + i * 0.002, "kernel: " + s)
        BAD_EVIDENCE.append(s)
    J(k + 19.0, "kernel: nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  530.41.03  Thu Mar 16 19:23:04 UTC 2023")
    J(k + 31.0, "systemd[1]: Starting NVIDIA Persistence Daemon...")
    J(k + 31.4, "systemd[1]: Started NVIDIA Persistence Daemon.")
    J(FM_FAIL - 1.1, SRC["fm_starting"][0])
    J(FM_FAIL, SRC["fm_mismatch"][0])
    J(FM_FAIL + 0.01, SRC["fm_exited"][0])
    J(k + 58.0, "systemd[1]: Started Slurm node daemon.")
    J(k + 58.4, "slurmd[2164]: slurmd: slurmd version 23.02.7 started")
    J(k + 58.6, "slurmd[2164]: slurmd: CPUs=224 Boards=1 Sockets=2 Cores=56 Threads=2 Memory=2063570 TmpDisk=325110 Uptime=58 CPUSpecList=(null) FeaturesAvail=(null) FeaturesActive=(null)")
    J(k + 62.0, "systemd[1]: Started NVIDIA DCGM exporter.")
    J(k + 63.0, "systemd[1]: Started Prometheus exporter for machine metrics.")

def dmesg_bad():
    """Raw dmesg of gpu-b11 taken by the on-call engineer after the incident."""
    out = []
    def D(off, msg):
        out.append(f"[{off:12.6f}] {msg}")
    D(0.0, "Linux version 5.15.0-105-generic (buildd@lcy02-amd64-054) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #115-Ubuntu SMP Mon Apr 15 09:52:04 UTC 2024 (Ubuntu 5.15.0-105.115-generic 5.15.149)")
    D(0.0, "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-105-generic root=UUID=2b6f0e1c-37d4-4a51-9d0e-58c1f2a7e9b3 ro iommu=pt pci=realloc=off")
    D(0.0, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 11/03/2023")
    D(0.000000, "tsc: Detected 2000.000 MHz processor")
    D(0.412217, "ACPI: Core revision 20210730")
    D(1.902233, "PCI: Using configuration type 1 for base access")
    D(2.104118, "rtc_cmos 00:01: setting system clock to 2025-06-10T06:55:03 UTC (1749538503)")
    D(3.520913, "mlx5_core 0000:1a:00.0: firmware version: 28.39.1002")
    D(3.981044, "mlx5_core 0000:1a:00.0: Rate limit: 127 rates are supported, range: 0Mbps to 97656Mbps")
    D(5.203871, "EXT4-fs (md0): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none.")
    D(9.812337, "nvidia: loading out-of-tree module taints kernel.")
    D(9.812351, "nvidia: module license 'NVIDIA' taints kernel.")
    D(9.903342, "nvidia-nvlink: Nvlink Core is being initialized, major device number 509")
    D(10.301887, SRC["nvrm_load"][0])
    for i, s in enumerate(SXID):
        D(14.204410 + i * 0.00213, s)
    D(19.005127, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  530.41.03  Thu Mar 16 19:23:04 UTC 2023")
    D(22.117402, "mlx5_core 0000:1a:00.0 ibp26s0: renamed from ib0")
    D(25.550018, "IPv6: ADDRCONF(NETDEV_CHANGE): bond0: link becomes ready")
    return out

HOST_IP = {h: f"10.20.1.{11+i}" for i, h in enumerate(HOSTS)}

def nccl_block(job, t_anchor):
    """NCCL_DEBUG=INFO init lines from every rank of the job's first communicator."""
    per_rank = []
    comm = "0x" + rng.bytes(8).hex()
    for hi, h in enumerate(HOSTS):
        fault = (job == "B" and h == BAD)
        pid0 = int(rng.integers(40000, 90000))
        for l in range(8):
            r = hi * 8 + l
            lines = []
            per_rank.append(lines)
            pid = pid0 + l * 3; tid = pid + int(rng.integers(400, 900))
            pre = f"[default{l}]:{h}:{pid}:{tid} [{l}] NCCL INFO "
            pre0 = f"[default{l}]:{h}:{pid}:{pid} [{l}] NCCL INFO "
            if r == 0:
                lines.append(f"[default0]:{h}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using bond0:{HOST_IP[h]}<0>")
                lines.append(f"[default0]:NCCL version 2.18.1+cuda12.1")
            lines.append(pre0 + "cudaDriverVersion 12010")
            lines.append(pre + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB [5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB ; OOB bond0:" + HOST_IP[h] + "<0>")
            lines.append(pre + "Using network IB")
            bus = BUS[l][4:].split(":")[1].lower() + "000"
            lines.append(pre + f"comm {'0x' + rng.bytes(6).hex()} rank {r} nranks 128 cudaDev {l} nvmlDev {l} busId {bus} commId {comm} - Init START")
            if fault:
                lines.append(pre + f"NVLS multicast support is not available on dev {l}")
            else:
                lines.append(pre + f"NVLS multicast support is available on dev {l}")
            nxt = hi * 8 + (l + 1) % 8; ln = (l + 1) % 8
            for ch in range(2):
                if fault:
                    lines.append(pre + f"Channel {ch:02d} : {r}[{l}] -> {nxt}[{ln}] via SHM/direct/direct")
                else:
                    lines.append(pre + f"Channel {ch:02d}/0 : {r}[{l}] -> {nxt}[{ln}] via P2P/IPC/read")
            if l == 7:
                peer = ((hi + 1) % 16) * 8
                lines.append(pre + f"Channel 03/0 : {r}[7] -> {peer}[0] [send] via NET/IB/7")
            if l == 0:
                peer = ((hi - 1) % 16) * 8 + 7
                lines.append(pre + f"Channel 03/0 : {peer}[7] -> {r}[0] [receive] via NET/IB/0")
            lines.append(pre + "Connected all rings")
            lines.append(pre + "Connected all trees")
            lines.append(pre + f"comm {'0x' + rng.bytes(6).hex()} rank {r} nranks 128 cudaDev {l} nvmlDev {l} busId {bus} commId {comm} - Init COMPLETE")
    # ranks print concurrently: merge their streams, each rank's own order kept
    out, pos = [], [0] * len(per_rank)
    live = [i for i in range(len(per_rank))]
    while live:
        w = np.array([1.0 / (1 + abs(i - live[0])) ** 0.3 for i in live])
        k = live[int(rng.choice(len(live), p=w / w.sum()))]
        out.append(per_rank[k][pos[k]]); pos[k] += 1
        if pos[k] == len(per_rank[k]):
            live.remove(k)
    return out

ARGS = """------------------------ arguments ------------------------
  accumulate_allreduce_grads_in_fp32 .............. True
  adam_beta1 ...................................... 0.9
  adam_beta2 ...................................... 0.95
  attention_dropout ............................... 0.0
  bf16 ............................................ True
  clip_grad ....................................... 1.0
  data_parallel_size .............................. 128
  distributed_backend ............................. nccl
  eval_interval ................................... 2000
  ffn_hidden_size ................................. 11008
  global_batch_size ............................... 512
  hidden_size ..................................... 4096
  log_interval .................................... 10
  lr .............................................. 0.0003
  lr_decay_style .................................. cosine
  micro_batch_size ................................ 1
  num_attention_heads ............................. 32
  num_layers ...................................... 32
  overlap_grad_reduce ............................. True
  pipeline_model_parallel_size .................... 1
  save ............................................ /lustre/fsw/llm7b/checkpoints
  save_interval ................................... 500
  seq_length ...................................... 4096
  tensor_model_parallel_size ...................... 1
  use_distributed_optimizer ....................... True
  world_size ...................................... 128
-------------------- end of arguments ---------------------"""

def trainer_file(job):
    out = []
    if job == "A":
        t_launch, jobid = JOBA_START, 48213
    else:
        t_launch, jobid = JOBB_START, 48240
    # torchrun banner from each node
    for hi, h in enumerate(HOSTS):
        tt = t_launch + 5.2 + rng.uniform(0, 1.5); p = int(rng.integers(100000, 999999))
        out.append(f"W{glog(tt)} 1400{p} torch/distributed/run.py:757] ")
        out.append(f"W{glog(tt)} 1400{p} torch/distributed/run.py:757] *****************************************")
        out.append(f"W{glog(tt)} 1400{p} torch/distributed/run.py:757] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ")
        out.append(f"W{glog(tt)} 1400{p} torch/distributed/run.py:757] *****************************************")
    out.append("[default0]:using world size: 128, data-parallel size: 128, context-parallel size: 1 tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ")
    for a in ARGS.splitlines():
        out.append("[default0]:" + a)
    out.append(f"[default0]:> initializing torch distributed ...")
    out += nccl_block(job, t_launch + 40)
    out.append(f"[default0]:[after megatron is initialized] datetime: {mts(t_launch + 58)} ")
    out.append("[default0]:building GPT model ...")
    out.append("[default0]: > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 6738415616")
    if job == "A":
        out.append("[default0]: loading checkpoint from /lustre/fsw/llm7b/checkpoints at iteration 31000")
        out.append("[default0]:  successfully loaded checkpoint from /lustre/fsw/llm7b/checkpoints [ t 1/1, p 1/1 ] at iteration 31000")
        out.append(f"[default0]:[after model, optimizer, and learning rate scheduler are built] datetime: {mts(T('2025-06-10T02:15:41'))} ")
        out.append(f"[default0]:[before the start of training step] datetime: {mts(T('2025-06-10T02:16:29'))} ")
    else:
        out.append(f"[default0]: loading checkpoint from /lustre/fsw/llm7b/checkpoints at iteration {RESUME_IT}")
        out.append(f"[default0]:  successfully loaded checkpoint from /lustre/fsw/llm7b/checkpoints [ t 1/1, p 1/1 ] at iteration {RESUME_IT}")
        out.append(f"[default0]:[after model, optimizer, and learning rate scheduler are built] datetime: {mts(JOBB_TRAIN - 75)} ")
        out.append(f"[default0]:[before the start of training step] datetime: {mts(JOBB_TRAIN - STEP_B*10 - 9)} ")
    ck = {c[1]: c for c in CKPTS if c[3] == job}
    loss0 = 2.41
    for (t, it, ems, j) in ITERS:
        if j != job:
            continue
        if it in ck:
            out.append(f"[default0]:saving checkpoint at iteration {it:7d} to /lustre/fsw/llm7b/checkpoints in torch_dist format")
            out.append(f"[default0]:  successfully saved checkpoint from iteration {it:7d} to /lustre/fsw/llm7b/checkpoints [ t 1/1, p 1/1 ]")
        tf = 9.62e16 / 128 / (ems / 1000) / 1e12
        loss = loss0 - 0.000004 * (it - 31000) + rng.normal(0, 0.025)
        gn = abs(0.24 + rng.normal(0, 0.03))
        lr = 3e-5 + 0.5 * (3e-4 - 3e-5) * (1 + math.cos(math.pi * it / 250000))
        out.append(f"[default7]: [{mts(t)}] iteration {it:8d}/  250000 | consumed samples: {it*512:12d} | elapsed time per iteration (ms): {ems:.1f} | throughput per GPU (TFLOP/s/GPU): {tf:.1f} | learning rate: {lr:.6E} | global batch size:   512 | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
    if job == "A":
        out.append("slurmstepd: error: *** JOB 48213 ON gpu-b01 CANCELLED AT 2025-06-10T06:40:02 DUE TO TIME LIMIT ***")
        out.append("slurmstepd: error: *** STEP 48213.0 ON gpu-b01 CANCELLED AT 2025-06-10T06:40:02 DUE TO TIME LIMIT ***")
        for hi, h in enumerate(HOSTS[:16]):
            out.append(f"W{glog(JOBA_END + 0.4 + rng.uniform(0, 0.3))} 1400{int(rng.integers(100000,999999))} torch/distributed/elastic/agent/server/api.py:741] Received Signals.SIGTERM death signal, shutting down workers")
    return out

os.makedirs(os.path.join(OUT, "logs", "trainer"), exist_ok=True)
for job, jid in (("A", 48213), ("B", 48240)):
    with open(os.path.join(OUT, "logs", "trainer", f"slurm-{jid}.out"), "w") as f:
        f.write("\n".join(trainer_file(job)) + "\n")
for h in HOSTS:
    os.makedirs(os.path.join(OUT, "logs", h), exist_ok=True)
    with open(os.path.join(OUT, "logs", h, "journal.txt"), "w") as f:
        f.write("\n".join(journal(h)) + "\n")
with open(os.path.join(OUT, "logs", BAD, "dmesg.txt"), "w") as f:
    f.write("\n".join(dmesg_bad()) + "\n")

first_B = min(t for (t, it, ems, j) in ITERS if j == "B")
def iso(t):
    return dt.datetime.fromtimestamp(round(t), UTC).isoformat().replace("+00:00", "Z")

inc = {
  "id": ID,
  "title": "7B pretraining (Slurm 48240) slower than the run before it",
  "window": {"start": "2025-06-10T05:00:00+00:00", "end": "2025-06-10T10:30:00+00:00"},
  "baseline": {"start": "2025-06-10T05:00:00+00:00", "end": "2025-06-10T06:30:00+00:00"},
  "primary_signal": "throughput",
  "cluster": {"name": "hgx-b", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
  "signal_pack": "default",
}
with open(os.path.join(OUT, "incident.yaml"), "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

truth = {
  "id": ID,
  "cause": ("After its NVIDIA driver was updated from 530.30.02 to 530.41.03 while nvidia-fabricmanager stayed at "
            "530.30.02, Fabric Manager on gpu-b11 refused to start (version mismatch), the host's NVSwitch fabric was "
            "never configured and its GPUs lost NVLink peer access, so NCCL routed gpu-b11's intra-node ring hops through "
            "host shared memory and the whole synchronous job ran ~13% slower from its start."),
  "cause_metrics": ["DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES",
                    "node_boot_time_seconds"],
  "cause_log_evidence": [
    {"text": SRC["fm_mismatch"][0], "source": SRC["fm_mismatch"][1], "file": f"logs/{BAD}/journal.txt"},
    {"text": SRC["fm_starting"][0], "source": SRC["fm_starting"][1], "file": f"logs/{BAD}/journal.txt"},
    {"text": SRC["fm_exited"][0], "source": SRC["fm_exited"][1], "file": f"logs/{BAD}/journal.txt"},
    {"text": SRC["nvrm_load"][0], "source": SRC["nvrm_load"][1], "file": f"logs/{BAD}/journal.txt, logs/{BAD}/dmesg.txt"},
  ] + [{"text": s, "source": SXID_SRC + " (raw dmesg of an HGX H100 at driver load; PCI address kept)", "file": f"logs/{BAD}/journal.txt, logs/{BAD}/dmesg.txt"} for s in SXID] + [
    {"text": "gpu-b11:<pid>:<tid> [<l>] NCCL INFO Channel 00 : <r>[<l>] -> <r'>[<l'>] via SHM/direct/direct",
     "source": "https://github.com/NVIDIA/nccl/issues/1609 (e.g. 'tj5-sc-ai-h800r-dev01:533:1765 [2] NCCL INFO Channel 07 : 2[6] -> 3[7] via SHM/direct/direct'); ranks/host adapted",
     "file": "logs/trainer/slurm-48240.out"},
    {"text": "gpu-b11:<pid>:<tid> [<l>] NCCL INFO NVLS multicast support is not available on dev <l>",
     "source": "https://github.com/NVIDIA/nccl/issues/1466 ('pod-id:num:num [3] NCCL INFO NVLS multicast support is not available on dev 3'); host/dev adapted",
     "file": "logs/trainer/slurm-48240.out"},
  ],
  "contrast_lines_on_healthy_hosts": [
    {"text": "NCCL INFO Channel 01/0 : 8[0] -> 15[7] via P2P/IPC/read", "source": "https://github.com/NVIDIA/nccl/issues/952"},
    {"text": "NCCL INFO NVLS multicast support is available on dev 4", "source": "nccl-tests log of an NF5688M7 (H800) host found via find_string; format as in NCCL init.cc"},
    {"text": "NCCL INFO Channel 03/0 : 5[5] -> 12[4] [send] via NET/IB/3", "source": "https://github.com/NVIDIA/nccl/issues/1412"},
    {"text": PEERMEM + " (benign, every host at job end)", "source": "leptonai/gpud pkg/kmsg/testdata/kmsg.2.peermem.log (in /work/shared/reference/formats)"},
  ],
  "hosts": [BAD],
  "gpu": None,
  "onset": iso(first_B),
  "fault_began": iso(FM_FAIL),
  "job_throughput_loss_pct": LOSS_PCT,
  "what_a_good_postmortem_says": (
    "Job 48240 ran about 13% slower than job 48213 on every rank from its first iteration (step time 2.60 s -> 3.00 s); "
    "no GPU was throttled or faulty. The cause is gpu-b11: it was rebooted at 06:52 after a driver-only update to 530.41.03, "
    "nv-fabricmanager 530.30.02 then refused to start on a version mismatch, so the host's NVSwitches were never configured: "
    "DCGM's NVLink counter stays at 0 on gpu-b11 while its GPUs' PCIe traffic more than doubles, and NCCL on gpu-b11 alone "
    "chose SHM/direct/direct and had no NVLS. Fix: install the matching nvidia-fabricmanager-530 (530.41.03) or pin driver "
    "and FM together, restart FM (GPU reset/reboot) and drain a host whenever its FM service is not active."),
}
with open(os.path.join(OUT, "truth.yaml"), "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=200, allow_unicode=True)
print("written", OUT, "loss", LOSS_PCT, "onset", iso(first_B))
