#!/usr/bin/env python3
"""Generate the incident folder inc-2025-06-14-llama8b-crash beside this script.

Story (ground truth, also in truth.yaml): a torchtitan Llama-3-8B FSDP pretraining job runs on
32 DGX H100 (racks r01-r08, four hosts per rack). At 09:47:23 UTC the breaker feeding rack r06's
PDU trips and gpu-r06-01..04 lose power at once. The surviving ranks' NCCL connections to them
fail (IB retry-exceeded) and the job crashes; slurmctld marks the four hosts DOWN after
SlurmdTimeout and the job ends NODE_FAIL. 25 minutes after the crash the team resubmits it on
the remaining 28 hosts (224 GPUs); it resumes from the step-43500 checkpoint at 12.5% lower
tokens/s. Facilities reset the breaker at 10:41; the four hosts boot and come back idle.

Metrics layout (different from the other incident): node_exporter and Prometheus `up` as
OpenMetrics text (what promtool backfills), dcgm-exporter as one Parquet file per host, in
scrape order (many metrics per row group). Fixed seed.
"""
import datetime as dt
import math
import os
import shutil
import uuid

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

SEED = 20250614
HERE = os.path.dirname(os.path.abspath(__file__))
IID = "inc-2025-06-14-llama8b-crash"
OUT = os.path.join(HERE, IID)
UTC = dt.timezone.utc
rng = np.random.default_rng(SEED)


def T(s):
    return dt.datetime.fromisoformat(s).replace(tzinfo=UTC).timestamp()


def iso(t):
    return dt.datetime.fromtimestamp(t, UTC)


WIN0, WIN1 = T("2025-06-14T08:30:00"), T("2025-06-14T11:00:00")
LOG0, LOG1 = T("2025-06-14T08:00:00"), T("2025-06-14T11:10:00")
JOB1_START = T("2025-06-14T06:02:09")
TRIP = T("2025-06-14T09:47:23")
SLURM_DOWN = T("2025-06-14T09:52:28")
RESUBMIT = T("2025-06-14T10:12:41")
POWER_BACK = T("2025-06-14T10:41:30")

RACKS = [f"r{r:02d}" for r in range(1, 9)]
HOSTS = [f"gpu-{r}-{s:02d}" for r in RACKS for s in range(1, 5)]
DEAD = [h for h in HOSTS if h.startswith("gpu-r06-")]
ALIVE = [h for h in HOSTS if h not in DEAD]
IP = {h: f"10.40.{int(h[5:7])}.{10 + int(h[-2:])}" for h in HOSTS}
GPN = 8
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.90.07"
PCI = ["00000000:1B:00.0", "00000000:43:00.0", "00000000:52:00.0", "00000000:61:00.0",
       "00000000:9D:00.0", "00000000:C3:00.0", "00000000:D1:00.0", "00000000:DF:00.0"]
JOB1, JOB2 = 481237, 481262
LOCAL_BS, SEQ = 2, 8192
TOK_PER_GPU_STEP = LOCAL_BS * SEQ
CKPT_EVERY = 500
NODELIST_ALL = ",".join(f"gpu-{r}-[01-04]" for r in RACKS)
NODELIST_28 = ",".join(f"gpu-{r}-[01-04]" for r in RACKS if r != "r06")


# --------------------------------------------------------------------------------------
# 1. the two runs
# --------------------------------------------------------------------------------------
def run(start_step, t_first, t_stop, step_s, ngpu):
    steps, saves = [], []
    t, s = t_first, start_step
    while t < t_stop:
        d = step_s * (1 + rng.normal(0, 0.006)) + (rng.random() < 0.004) * rng.uniform(0.3, 1.5)
        if t + d > t_stop:
            break
        t += d
        s += 1
        steps.append((s, t, d))
        if s % CKPT_EVERY == 0:
            dur = 11.5 + rng.normal(0, 0.8)
            saves.append((s, t, dur))
            t += dur
    return steps, saves


JOB1_TRAIN0 = T("2025-06-14T06:05:47")
STEPS1, SAVES1 = run(38000, JOB1_TRAIN0, TRIP, 2.372, 256)
LAST_SAVE1 = max(s for s, _, _ in SAVES1)
JOB2_TRAIN0 = RESUBMIT + 214.0
STEPS2, SAVES2 = run(LAST_SAVE1, JOB2_TRAIN0, LOG1, 2.351, 224)


def busy_from(steps, saves, t0, t1, first):
    """fraction of [t0,t1) spent computing, for one run"""
    t0 = np.asarray(t0, float)
    t1 = np.asarray(t1, float)
    if not steps:
        return np.zeros_like(t0)
    a, b = first, steps[-1][1]
    frac = np.clip(np.minimum(t1, b) - np.maximum(t0, a), 0, None) / (t1 - t0)
    for _, ts, dur in saves:
        frac -= np.clip(np.minimum(t1, ts + dur) - np.maximum(t0, ts), 0, None) / (t1 - t0)
    return np.clip(frac, 0, 1)


def busy(host, t0, t1):
    b = busy_from(STEPS1, SAVES1, t0, t1, JOB1_TRAIN0)
    if host not in DEAD:
        b = b + busy_from(STEPS2, SAVES2, t0, t1, JOB2_TRAIN0)
    return np.clip(b, 0, 1)


def job_holds_gpu(host, t):
    """the job's processes hold GPU memory (from start until the crash, and in run 2)"""
    t = np.asarray(t, float)
    held = (t >= JOB1_START + 60) & (t < TRIP + 35)
    if host not in DEAD:
        held |= (t >= RESUBMIT + 40) & (t < LOG1 + 999)
    return held


def host_up(host, t):
    t = np.asarray(t, float)
    if host in DEAD:
        return (t < TRIP) | (t >= BOOT2[host])
    return np.ones_like(t, bool)


BOOT = {h: T("2025-06-14T08:30:00") - rng.uniform(6, 40) * 86400 for h in HOSTS}
BOOT2 = {h: POWER_BACK + rng.uniform(8, 20) for h in DEAD}


# --------------------------------------------------------------------------------------
# 2. metrics: node_exporter + up as OpenMetrics, dcgm-exporter as Parquet per host
# --------------------------------------------------------------------------------------
def scrape_times(offset, interval=30):
    n = int((WIN1 - WIN0) // interval)
    return WIN0 + offset + interval * np.arange(n) + rng.integers(0, 60, n) / 1000.0


def lag(x, dts, tau):
    a = 1 - math.exp(-dts / tau)
    y = np.empty_like(x)
    acc = x[0]
    for i, v in enumerate(x):
        acc += a * (v - acc)
        y[i] = acc
    return y


def fmt_labels(d):
    return ",".join(f'{k}="{v}"' for k, v in sorted(d.items()))


def fmt_val(v, integer=False):
    if integer:
        return str(int(v))
    r = repr(float(v))
    return r


families = {}   # name -> (type, [(labels, ts, values, integer)])


def om_add(family, typ, sample_name, labels, ts, vals, integer=False):
    families.setdefault(family, (typ, []))[1].append((sample_name, labels, ts, vals, integer))


dcgm_rows = {}
for hi, h in enumerate(HOSTS):
    ip = IP[h]
    off_n = (hi * 0.93 + 3) % 30
    off_d = (hi * 0.93 + 17) % 30
    # -------------------- node_exporter
    ts = scrape_times(off_n)
    up = host_up(h, ts)
    # node_exporter starts ~52 s after power-on on the returned hosts (see their journal)
    if h in DEAD:
        up &= ~((ts >= TRIP) & (ts < BOOT2[h] + 53))
    inst = f"{ip}:9100"
    base_l = {"instance": inst, "job": "node"}
    om_add("up", "gauge", "up", base_l, ts, up.astype(float), True)
    t = ts[up]
    n = len(t)
    boot = np.where(t < TRIP, BOOT[h], BOOT2.get(h, BOOT[h]))
    uptime = t - boot
    b = busy(h, t - 30, t)
    held = job_holds_gpu(h, t)
    om_add("node_uname_info", "gauge", "node_uname_info",
           dict(base_l, nodename=h, domainname="(none)", machine="x86_64", release="5.15.0-127-generic",
                sysname="Linux", version="#137-Ubuntu SMP Fri Nov 8 15:21:01 UTC 2024"), t, np.ones(n), True)
    om_add("node_boot_time_seconds", "gauge", "node_boot_time_seconds", base_l, t, np.floor(boot), True)
    load = 9.0 * held + 2.5 * b + np.abs(rng.normal(0.4, 0.3, n))
    load = lag(load, 30, 60)
    om_add("node_load1", "gauge", "node_load1", base_l, t, np.round(load, 2))
    memtot = 2163574833152.0
    avail = memtot * (0.93 - 0.21 * held) + rng.normal(0, 4e8, n)
    om_add("node_memory_MemAvailable_bytes", "gauge", "node_memory_MemAvailable_bytes", base_l, t, np.round(avail), True)
    # management bond: scrapes, slurm, logging, checkpoint metadata
    for fam, rate in (("node_network_receive_bytes", 1.9e5), ("node_network_transmit_bytes", 3.1e5)):
        v = np.cumsum(rate * 30 * rng.uniform(0.6, 1.4, n)) + uptime[0] * rate
        v = np.where(t >= TRIP, v - (v[t >= TRIP][0] if (t >= TRIP).any() and h in DEAD else 0), v) if h in DEAD else v
        v = np.maximum(v, 0)
        om_add(fam, "counter", fam + "_total", dict(base_l, device="bond0"), t, np.floor(v), True)
    # InfiniBand compute rails (FSDP all-gather / reduce-scatter); counters restart at 0 after the reboot
    for k in range(8):
        dev = f"mlx5_{k}"
        for fam, rate in (("node_infiniband_port_data_received_bytes", 9.1e9),
                          ("node_infiniband_port_data_transmitted_bytes", 9.0e9)):
            inc = b * rate * 30 * rng.uniform(0.97, 1.03, n) + 2.0e3 * 30
            if h in DEAD:
                pre = t < TRIP
                v = np.empty(n)
                v[pre] = uptime[0] * 3.1e9 + np.cumsum(inc[pre])
                v[~pre] = np.cumsum(inc[~pre]) + (t[~pre] - BOOT2[h])[0:1].repeat((~pre).sum()) * 1.5e3
            else:
                v = uptime[0] * 3.1e9 + np.cumsum(inc)
            om_add(fam, "counter", fam + "_total", dict(base_l, device=dev, port="1"), t, np.floor(v), True)
    # -------------------- dcgm-exporter (Parquet, one file per host, rows in scrape order)
    ts = scrape_times(off_d)
    upd = host_up(h, ts)
    if h in DEAD:
        upd &= ~((ts >= TRIP) & (ts < BOOT2[h] + 95))    # dcgm-exporter waits for the driver and DCGM
    dinst = f"{ip}:9400"
    om_add("up", "gauge", "up", {"instance": dinst, "job": "dcgm-exporter"}, ts, upd.astype(float), True)
    t = ts[upd]
    n = len(t)
    b = busy(h, t - 30, t)
    held = job_holds_gpu(h, t)
    rows = {k: [] for k in ("timestamp", "metric", "value", "gpu", "UUID", "pci_bus_id", "device")}
    warm = rng.normal(0, 1.2) + (2.5 if h in ("gpu-r03-02", "gpu-r03-03") else 0.0)  # top-of-rack inlet
    per_gpu = []
    for g in range(GPN):
        uid = "GPU-" + str(uuid.UUID(bytes=rng.bytes(16), version=4))
        p_off = rng.normal(0, 14)
        t_off = rng.normal(0, 2.2) + warm
        util = np.clip(np.round(b * rng.uniform(97, 100, n)), 0, 100)
        power = 72 + (590 + p_off) * b + rng.normal(0, 9, n) * b + rng.normal(0, 1.2, n) + 42 * held * (b < 0.05)
        power = np.clip(power, 65, 700)
        tgt = 27 + t_off + 0.052 * power
        temp = np.round(lag(tgt, 30, 70))
        mtemp = np.round(lag(tgt + 5 + 0.012 * power + rng.normal(0, 1.2), 30, 90))
        sm = np.where(b > 0.3, 1980 - 15 * rng.integers(0, 9, n) - 30 * (power > 660), 345 + 1635 * b)
        sm = np.round(sm / 15) * 15
        fb = np.where(held, 71800 + int(rng.integers(-700, 700)), 0.0) + 519
        energy = rng.uniform(1e11, 9e11) + np.cumsum(power * 30 * 1000)
        if h in DEAD:
            post = t >= TRIP
            if post.any():
                energy[post] = np.cumsum(power[post] * 30 * 1000)   # counter is since boot
        gr = np.round(np.clip(b * rng.normal(0.955, 0.01, n), 0, 1), 6)
        replay = np.zeros(n)
        per_gpu.append((g, uid, dict(DCGM_FI_DEV_GPU_UTIL=util, DCGM_FI_DEV_POWER_USAGE=np.round(power, 3),
                                     DCGM_FI_DEV_GPU_TEMP=temp, DCGM_FI_DEV_MEMORY_TEMP=mtemp,
                                     DCGM_FI_DEV_SM_CLOCK=sm, DCGM_FI_DEV_MEM_CLOCK=np.full(n, 2619.0),
                                     DCGM_FI_DEV_FB_USED=fb, DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION=np.round(energy),
                                     DCGM_FI_DEV_XID_ERRORS=np.zeros(n), DCGM_FI_DEV_PCIE_REPLAY_COUNTER=replay,
                                     DCGM_FI_PROF_GR_ENGINE_ACTIVE=gr)))
    for i in range(n):       # scrape order: each scrape dumps every metric of every GPU
        for metric in per_gpu[0][2]:
            for g, uid, m in per_gpu:
                rows["timestamp"].append(int(t[i] * 1000))
                rows["metric"].append(metric)
                rows["value"].append(float(m[metric][i]))
                rows["gpu"].append(str(g))
                rows["UUID"].append(uid)
                rows["pci_bus_id"].append(PCI[g])
                rows["device"].append(f"nvidia{g}")
    dcgm_rows[h] = (rows, dinst)


def write_metrics():
    mdir = os.path.join(OUT, "metrics")
    os.makedirs(os.path.join(mdir, "dcgm"), exist_ok=True)
    # OpenMetrics: families contiguous, each series' samples in time order, ts in seconds
    with open(os.path.join(mdir, "node_exporter.om"), "w") as f:
        for fam in sorted(families):
            typ, series = families[fam]
            f.write(f"# TYPE {fam} {typ}\n")
            for sample_name, labels, ts, vals, integer in sorted(series, key=lambda s: fmt_labels(s[1])):
                lab = fmt_labels(labels)
                for t, v in zip(ts, vals):
                    f.write(f"{sample_name}{{{lab}}} {fmt_val(v, integer)} {t:.3f}\n")
        f.write("# EOF\n")
    for h, (rows, dinst) in dcgm_rows.items():
        n = len(rows["timestamp"])
        tab = pa.table({
            "timestamp": pa.array(rows["timestamp"], pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
            "metric": pa.array(rows["metric"], pa.string()),
            "value": pa.array(rows["value"], pa.float64()),
            "gpu": pa.array(rows["gpu"], pa.string()),
            "UUID": pa.array(rows["UUID"], pa.string()),
            "pci_bus_id": pa.array(rows["pci_bus_id"], pa.string()),
            "device": pa.array(rows["device"], pa.string()),
            "modelName": pa.array([MODEL] * n, pa.string()),
            "Hostname": pa.array([h] * n, pa.string()),
            "DCGM_FI_DRIVER_VERSION": pa.array([DRIVER] * n, pa.string()),
            "instance": pa.array([dinst] * n, pa.string()),
            "job": pa.array(["dcgm-exporter"] * n, pa.string()),
        })
        pq.write_table(tab, os.path.join(mdir, "dcgm", f"{h}.parquet"), compression="zstd", row_group_size=65536)


# --------------------------------------------------------------------------------------
# 3. logs
# --------------------------------------------------------------------------------------
def ensure(p):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    return p


def stamp_py(t):
    d = iso(t)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{int((t % 1) * 1000):03d}"


def fmt_int(x):
    return f"{int(round(x)):,}"


def trainer_log(jobid, hosts, steps, saves, t_sbatch, t_first, resume_step, crash):
    L = []
    ngpu = len(hosts) * GPN
    nodelist = NODELIST_ALL if len(hosts) == 32 else NODELIST_28
    L.append((t_sbatch, f"+ srun --nodes={len(hosts)} --ntasks-per-node=1 --kill-on-bad-exit=1 torchrun --nnodes={len(hosts)} "
                        f"--nproc_per_node=8 --rdzv_backend c10d --rdzv_id {jobid} --rdzv_endpoint gpu-r01-01:29500 "
                        "--local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train "
                        "--job.config_file ./train_configs/llama3_8b_pt.toml"))
    L.append((t_sbatch + 0.01, f"+ echo 'SLURM_JOB_NODELIST={nodelist}'"))
    L.append((t_sbatch + 0.02, f"SLURM_JOB_NODELIST={nodelist}"))
    t = t_sbatch + 24
    for k, h in enumerate(hosts):
        r = k * GPN

        def P(dt_, msg):
            L.append((t + dt_ + 0.001 * k, f"[rank{r}]:{stamp_py(t + dt_ + 0.001 * k)} - root - {msg}"))
        P(0.0, "INFO - Starting job: Llama 3 8B pretraining (pt-mix-v4)")
        P(0.9, "WARNING - ENV[TORCH_NCCL_ASYNC_ERROR_HANDLING] = 1 will be overridden to 3 based on job config")
        P(0.9, f"INFO - CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory")
        P(0.9, "INFO - Peak FLOPS used for computing MFU: 9.890e+14")
        P(0.9, f"INFO - Building 1-D device mesh with ['dp_shard'], [{ngpu}]")
        L.append((t + 3.1 + 0.001 * k, f"[rank{r}]:NCCL version 2.20.5+cuda12.4"))
        P(7.2, "INFO - Building tiktoken tokenizer locally from ./assets/tokenizer/original/tokenizer.model")
        P(7.4, "INFO - TikTokenizer built: #words 128256, BOS ID 128000, EOS ID 128001")
        P(7.4, "INFO - Preparing pt-mix-v4 dataset from /lustre/proj/llm/data/pt-mix-v4")
        P(17.6, "INFO - Building llama3 8B with ModelArgs(dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, norm_type='rmsnorm')")
        P(17.8, "INFO - Model llama3 8B size: 8,030,261,248 total parameters")
        P(17.9, "INFO - Applied selective activation checkpointing to the model")
        P(18.4, "INFO - Applied FSDP to the model")
        P(19.1, f"INFO - CUDA memory usage for model: 3.77GiB(4.77%)")
        P(19.2, f"INFO - Loading the checkpoint at step {resume_step}.")
        P(96.0, f"INFO - Finished loading the checkpoint in {76.8 + rng.normal(0, 1.5):.2f} seconds.")
        P(96.1, f"INFO - Training starts at step {resume_step + 1}.")
    # steps: torchtitan logs every 10 steps, and the first one
    mem = {h: 61.4 + rng.normal(0, 0.05) for h in hosts}
    first = True
    for s, ts, d in steps:
        if not (first or s % 10 == 0):
            continue
        loss = 1.98 + 0.4 * math.exp(-(s - 30000) / 20000) + rng.normal(0, 0.025)
        window = [x for x in steps if s - 10 < x[0] <= s]
        tps = TOK_PER_GPU_STEP * len(window) / sum(x[2] for x in window)
        if first:
            tps = TOK_PER_GPU_STEP / (ts - t_first + 31.0)
        for k, h in enumerate(hosts):
            r = k * GPN
            tt = ts + 0.002 * k + rng.uniform(0, 0.004)
            v = tps * rng.uniform(0.9995, 1.0005)
            mfu = 100 * v * 6 * 8.03e9 * 1.0 / 9.89e14 * 1.07
            L.append((tt, f"[rank{r}]:{stamp_py(tt)} - root - INFO - step: {s:2d}  loss: {loss:7.4f}  "
                          f"memory: {mem[h]:.2f}GiB({mem[h] / 79.11 * 100:.2f}%)  tps: {fmt_int(v)}  mfu: {mfu:.2f}%"))
        if first:
            for k, h in enumerate(hosts):
                tt = ts + 0.003 + 0.002 * k
                L.append((tt, f"[rank{k * GPN}]:{stamp_py(tt)} - root - INFO - Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40"))
        first = False
    for s, ts, dur in saves:
        for k, h in enumerate(hosts):
            L.append((ts + 0.01, f"[rank{k * GPN}]:{stamp_py(ts + 0.01)} - root - INFO - Saving the checkpoint (or staging if async is enabled)."))
            L.append((ts + dur, f"[rank{k * GPN}]:{stamp_py(ts + dur)} - root - INFO - Finished saving the checkpoint (or staging if async is enabled)in {dur:.2f} seconds."))
    if crash:
        L += crash_lines(hosts)
    L.sort(key=lambda z: z[0])
    p = ensure(os.path.join(OUT, "logs", f"slurm-{jobid}.out"))
    with open(p, "w") as f:
        for _, line in L:
            f.write(line + "\n")


def gid(h, k):
    return f"fe80::a288:c203:{int(h[5:7]):02x}{int(h[-2:]):02x}:{0x1c0 + k:x}"


def crash_lines(hosts):
    """what the surviving ranks (local rank 0 of each live host) print when rack r06 vanishes"""
    L = []
    neighbours = {"gpu-r05-04", "gpu-r07-01", "gpu-r05-03", "gpu-r07-02", "gpu-r02-02", "gpu-r04-01"}
    order = []
    for k, h in enumerate(hosts):
        if h in DEAD:
            continue
        r = k * GPN
        pid = int(rng.integers(180000, 260000))
        tid_a = pid + int(rng.integers(700, 900))
        if h in neighbours:
            t = TRIP + 30.2 + rng.uniform(0, 1.8)                   # IB retry budget, then retry-exceeded
            peer = DEAD[int(rng.integers(0, 4))]
        else:
            t = TRIP + 31.5 + rng.uniform(0.5, 9.0) + rng.uniform(0, 30.0) * (rng.random() < 0.5)
            peer = [x for x in hosts if x not in DEAD and x != h][int(rng.integers(0, 27))]
        order.append((t, h))
        port = int(rng.integers(32768, 60999))
        dev = int(rng.integers(0, 8))
        warn = (f"NET/IB : Got completion from peer {IP[peer]}<{port}> with status=12 opcode=0 len=0 vendor err 129 "
                f"(Recv) localGid {gid(h, dev)} remoteGids{gid(peer, dev)}")
        L.append((t, f"[rank{r}]:{h}:{pid}:{tid_a} [0] ib_plugin.c:1615 NCCL WARN {warn}"))
        L.append((t + 0.0001, f"[rank{r}]:{h}:{pid}:{tid_a} [0] NCCL INFO transport/net.cc:1302 -> 6"))
        L.append((t + 0.0002, f"[rank{r}]:{h}:{pid}:{tid_a} [0] NCCL INFO proxy.cc:698 -> 6"))
        L.append((t + 0.0003, f"[rank{r}]:{h}:{pid}:{tid_a} [0] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]"))
        L.append((t + 0.0004, f"[rank{r}]:"))
        t2 = t + rng.uniform(0.8, 2.0)
        L.append((t2, f"[rank{r}]:{h}:{pid}:{pid + 36} [0] NCCL INFO [Service thread] Connection closed by localRank 0"))
        L.append((t2 + 0.6, f"[rank{r}]:{h}:{pid}:{pid + 16} [0] NCCL INFO comm 0x{int(rng.integers(0x5500000, 0x9000000)):x} rank {r} nranks {len(hosts) * GPN} cudaDev 0 busId 1b000 - Abort COMPLETE"))
        t3 = t2 + 0.7
        L.append((t3, f"[rank{r}]:[E ProcessGroupNCCL.cpp:577] [Rank {r}] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data."))
        L.append((t3, f"[rank{r}]:[E ProcessGroupNCCL.cpp:583] [Rank {r}] To avoid data inconsistency, we are taking the entire process down."))
        L.append((t3, f"[rank{r}]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank {r}] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.20.5"))
        L.append((t3, f"[rank{r}]:ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."))
        L.append((t3, f"[rank{r}]:Last error:"))
        L.append((t3, f"[rank{r}]:{warn}"))
    # torchrun exits on each surviving host; srun reports each task, then waits for the dead ones
    order.sort()
    for t, h in order:
        task = hosts.index(h)
        L.append((t + rng.uniform(6, 9), f"srun: error: {h}: task {task}: Exited with exit code 1"))
    L.append((SLURM_DOWN + 1.2, "srun: error: Node failure on gpu-r06-01"))
    L.append((SLURM_DOWN + 1.3, "srun: Job step aborted: Waiting up to 62 seconds for job step to finish."))
    L.append((SLURM_DOWN + 1.4, f"slurmstepd: error: *** STEP {JOB1}.0 ON gpu-r01-01 CANCELLED AT "
                                f"{iso(SLURM_DOWN).strftime('%Y-%m-%dT%H:%M:%S')} DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***"))
    return L


def slurmctld_log():
    L = []

    def s(t, msg):
        d = iso(t)
        L.append((t, f"[{d.strftime('%Y-%m-%dT%H:%M:%S')}.{int((t % 1) * 1000):03d}] {msg}"))
    # routine scheduling traffic from the CPU partition and small GPU jobs
    t = LOG0 + 40
    jid = 481190
    running = []
    while t < LOG1:
        if rng.random() < 0.55 or not running:
            jid += 1
            s(t, f"_slurm_rpc_submit_batch_job: JobId={jid} InitPrio={int(rng.integers(4200, 9800))} usec={int(rng.integers(400, 2400))}")
            node = f"cpu-c{int(rng.integers(1, 49)):02d}"
            s(t + rng.uniform(0.2, 30), f"sched: Allocate JobId={jid} NodeList={node} #CPUs={int(rng.choice([8, 16, 32, 64]))} Partition=cpu")
            running.append(jid)
        else:
            j = running.pop(int(rng.integers(0, len(running))))
            s(t, f"_job_complete: JobId={j} WEXITSTATUS {int(rng.choice([0, 0, 0, 0, 0, 1]))}")
            s(t + 0.001, f"_job_complete: JobId={j} done")
        t += rng.exponential(140)
    s(TRIP + 100.6, "error: Nodes gpu-r06-[01-04] not responding")
    s(TRIP + 200.6, "error: Nodes gpu-r06-[01-04] not responding")
    s(SLURM_DOWN, "error: Nodes gpu-r06-[01-04] not responding, setting DOWN")
    for k, h in enumerate(DEAD):
        s(SLURM_DOWN + 0.0002 * (k + 1), f"Killing JobId={JOB1} on failed node {h}")
    s(SLURM_DOWN + 35.0, f"_job_complete: JobId={JOB1} WEXITSTATUS 1")
    s(SLURM_DOWN + 35.0005, f"_job_complete: JobId={JOB1} done")
    s(RESUBMIT, f"_slurm_rpc_submit_batch_job: JobId={JOB2} InitPrio=6211 usec=1187")
    s(RESUBMIT + 0.9, f"sched: Allocate JobId={JOB2} NodeList={NODELIST_28} #CPUs=6272 Partition=h100")
    for k, h in enumerate(DEAD):
        s(BOOT2[h] + 62.4 + 0.3 * k, f"Node {h} rebooted {int(62 + rng.uniform(0, 2))} secs ago")
    t_adm = POWER_BACK + 560
    for h in DEAD:
        s(t_adm, f"update_node: node {h} reason set to: rack r06 PDU trip 09:47 - burn-in before return (FAC-5521)")
        s(t_adm + 0.0003, f"update_node: node {h} state set to DRAINED")
        t_adm += 0.0007
    L.sort(key=lambda z: z[0])
    p = ensure(os.path.join(OUT, "logs", "slurm", "slurmctld.log"))
    with open(p, "w") as f:
        for _, line in L:
            f.write(line + "\n")
    # what the on-call engineer saved from the controller after the crash
    with open(ensure(os.path.join(OUT, "logs", "slurm", "sinfo-R.txt")), "w") as f:
        f.write("REASON               USER      TIMESTAMP           NODELIST\n")
        f.write(f"Not responding       slurm     {iso(SLURM_DOWN).strftime('%Y-%m-%dT%H:%M:%S')} gpu-r06-[01-04]\n")
    e1 = STEPS1[-1][1]
    with open(ensure(os.path.join(OUT, "logs", "slurm", "sacct.txt")), "w") as f:
        f.write("JobID|JobName|Partition|State|Start|End|Elapsed|NNodes|NodeList|ExitCode\n")
        el = int(SLURM_DOWN + 35 - JOB1_START)
        f.write(f"{JOB1}|llama3-8b-pt|h100|NODE_FAIL|{iso(JOB1_START).strftime('%Y-%m-%dT%H:%M:%S')}|"
                f"{iso(SLURM_DOWN + 35).strftime('%Y-%m-%dT%H:%M:%S')}|{el // 3600:02d}:{el % 3600 // 60:02d}:{el % 60:02d}|32|{NODELIST_ALL}|0:0\n")
        f.write(f"{JOB2}|llama3-8b-pt|h100|RUNNING|{iso(RESUBMIT + 1).strftime('%Y-%m-%dT%H:%M:%S')}|Unknown|"
                f"00:57:18|28|{NODELIST_28}|0:0\n")


def journal_kernel():
    """journalctl -o short-iso (all units) for each host over the collection window.

    journald syncs to disk every 5 minutes (SyncIntervalSec default), so the four hosts that lost
    power lose the tail of their journal before the cut."""
    for h in HOSTS:
        L = []

        def k(t, unit, msg):
            L.append((t, unit, msg))
        pid_cron = int(rng.integers(300000, 400000))
        # NHC every 5 min and sysstat every 10 min from cron
        t = LOG0 + (int(h[5:7]) * 4 + int(h[-2:])) % 7 + 1.0
        while t < LOG1:
            pid_cron += int(rng.integers(40, 400))
            k(t, f"CRON[{pid_cron}]", "(root) CMD (/usr/sbin/nhc-wrapper -X 5m >/dev/null 2>&1)")
            if int((t - LOG0) // 300) % 2 == 0:
                k(t + 0.01, f"CRON[{pid_cron + 1}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)")
            t += 300
        # ssh checks from the monitoring host, chrony, and kernel chatter
        t = LOG0 + rng.uniform(0, 600)
        sess = int(rng.integers(4000, 9000))
        while t < LOG1:
            r = rng.random()
            if r < 0.3:
                port = int(rng.integers(33000, 61000))
                k(t, f"sshd[{int(rng.integers(100000, 900000))}]", f"Accepted publickey for root from 10.40.0.5 port {port} ssh2: ED25519 SHA256:q3TcW1xR0bZ8mJ7nYk2Lh9cVfP4sA6dE5uG1iO0wXyQ")
                k(t + 0.05, "systemd-logind[2011]", f"New session {sess} of user root.")
                k(t + 0.06, "systemd[1]", f"Started Session {sess} of User root.")
                k(t + 2.4, "systemd-logind[2011]", f"Session {sess} logged out. Waiting for processes to exit.")
                k(t + 2.5, "systemd-logind[2011]", f"Removed session {sess}.")
                sess += 1
            elif r < 0.45:
                k(t, "chronyd[1650]", f"Selected source 10.40.0.{int(rng.integers(2, 4))} (ntp{int(rng.integers(1, 3))}.hopper-east.internal)")
            elif r < 0.6:
                a = 2500 + int(rng.integers(3, 900))
                k(t, "kernel", f"perf: interrupt took too long ({a} > {a - int(rng.integers(1, 30))}), lowering kernel.perf_event_max_sample_rate to {int(rng.integers(40, 79)) * 1000 + 750}")
            elif r < 0.75:
                k(t, "kernel", f"IPv4: martian source 10.40.{int(rng.integers(1, 9))}.255 from 10.40.0.{int(rng.integers(2, 9))}, on dev bond0")
                k(t, "kernel", f"ll header: 00000000: ff ff ff ff ff ff 0c 42 a1 {int(rng.integers(16, 255)):02x} 5e 10 08 06")
            elif r < 0.9:
                k(t, "systemd[1]", "Starting Cleanup of Temporary Directories...")
                k(t + 0.1, "systemd[1]", "systemd-tmpfiles-clean.service: Deactivated successfully.")
                k(t + 0.1, "systemd[1]", "Finished Cleanup of Temporary Directories.")
            else:
                k(t, "systemd[1]", "Starting Daily apt download activities...")
                k(t + 1.7, "systemd[1]", "apt-daily.service: Deactivated successfully.")
                k(t + 1.7, "systemd[1]", "Finished Daily apt download activities.")
            t += rng.exponential(420)
        if h in DEAD:
            last_sync = TRIP - rng.uniform(60, 280)
            L = [x for x in L if x[0] < last_sync or x[0] > BOOT2[h] + 200]
            newpid = 3391       # pids start low again after the reboot
            for i, (t, unit, msg) in enumerate(L):
                if t > BOOT2[h] and unit.startswith("CRON["):
                    L[i] = (t, f"CRON[{newpid}]", msg)
                    newpid += int(rng.integers(40, 400))
        L.sort(key=lambda z: z[0])
        lines = []
        boot_done = False
        for t, unit, msg in L:
            if h in DEAD and t > TRIP and not boot_done:
                lines += boot_lines(h, BOOT2[h])
                boot_done = True
            lines.append((t, unit, msg))
        if h in DEAD and not boot_done:
            lines += boot_lines(h, BOOT2[h])
        p = ensure(os.path.join(OUT, "logs", "journal", f"{h}.log"))
        with open(p, "w") as f:
            for t, unit, msg in lines:
                if t is None:  # journalctl's boot separator
                    f.write(msg + "\n")
                else:
                    f.write(f"{iso(t).strftime('%Y-%m-%dT%H:%M:%S')}+0000 {h} {unit}: {msg}\n")


def boot_lines(h, b):
    bid = uuid.UUID(bytes=rng.bytes(16)).hex
    msgs = [
        (0.0, "Linux version 5.15.0-127-generic (buildd@lcy02-amd64-062) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #137-Ubuntu SMP Fri Nov 8 15:21:01 UTC 2024 (Ubuntu 5.15.0-127.137-generic 5.15.167)"),
        (0.0, "Command line: BOOT_IMAGE=/boot/vmlinuz-5.15.0-127-generic root=UUID=4c1e4a61-0bd7-4a56-9a0e-2b3f52f7e0a1 ro console=tty0 console=ttyS0,115200n8 pci=realloc=off iommu=pt"),
        (0.0, "DMI: NVIDIA DGXH100/DGXH100, BIOS 1.5.1 03/20/2024"),
        (0.1, "tsc: Detected 2000.000 MHz processor"),
        (0.9, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs"),
        (4.2, "mlx5_core 0000:18:00.0: firmware version: 28.39.2048"),
        (6.8, "mlx5_core 0000:18:00.0: Rate limit: 127 rates are supported, range: 0Mbps to 97656Mbps"),
        (9.3, "nvidia: loading out-of-tree module taints kernel."),
        (9.6, f"nvidia-nvlink: Nvlink Core is being initialized, major device number 509"),
        (10.2, f"NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {DRIVER}  Fri May 31 09:35:42 UTC 2024"),
        (12.8, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.90.07  Fri May 31 09:30:47 UTC 2024"),
        (21.5, "EXT4-fs (md0): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
        (38.1, "Lustre: Lustre: Build Version: 2.15.5"),
        (39.7, "Lustre: Mounted proj-client"),
        (47.0, "NET: Registered PF_ALG protocol family"),
    ]
    out = [(None, None, f"-- Boot {bid} --")]
    for dtb, m in msgs:
        out.append((b + dtb, "kernel", m))
    out += [(b + 52.3, "systemd[1]", "Started Prometheus exporter for machine metrics."),
            (b + 52.4, "node_exporter[2688]", "ts=" + iso(b + 52.4).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z caller=node_exporter.go:193 level=info msg=\"Starting node_exporter\" version=\"(version=1.8.2, branch=HEAD, revision=f1e0e8360aa60b6cb5e5cc1560bed348fc2c1895)\""),
            (b + 61.0, "slurmd[2734]", "slurmd: slurmd version 23.11.10 started"),
            (b + 95.0, "systemd[1]", "Started NVIDIA DCGM Exporter.")]
    return out


# --------------------------------------------------------------------------------------
# 4. yaml
# --------------------------------------------------------------------------------------
def tokens_per_s(steps, ngpu, a, b):
    n = sum(1 for s, t, d in steps if a <= t < b)
    return n * TOK_PER_GPU_STEP * ngpu / (b - a)


def write_yaml():
    inc = {
        "id": IID,
        "title": "Llama-3-8B pretraining job 481237 crashed mid-morning; resubmitted as 481262",
        "window": {"start": "2025-06-14T08:30:00+00:00", "end": "2025-06-14T11:00:00+00:00"},
        "baseline": {"start": "2025-06-14T08:30:00+00:00", "end": "2025-06-14T09:30:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "hopper-east", "nodes": 32, "gpus_per_node": GPN, "gpu_model": "H100"},
        "signal_pack": "default",
        "trainer": {"seq_length": SEQ, "logs": ["logs/slurm-*.out"]},
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    before = tokens_per_s(STEPS1, 256, T("2025-06-14T08:35:00"), T("2025-06-14T09:40:00"))
    after = tokens_per_s(STEPS2, 224, T("2025-06-14T10:20:00"), T("2025-06-14T10:59:00"))
    crash_t = TRIP + 31
    first2 = STEPS2[0][1]
    truth = {
        "id": IID,
        "cause": ("The breaker feeding rack r06's PDU tripped at 09:47:23 UTC and the rack's four hosts gpu-r06-01..04 "
                  "lost power at once, killing 32 of the job's 256 ranks; the surviving ranks failed in NCCL and the "
                  "job ended NODE_FAIL."),
        "cause_metrics": ["up", "node_boot_time_seconds", "node_uname_info"],
        "cause_metrics_note": ("up drops to 0 for both exporters of the four r06 hosts at 09:47:35-09:47:55 and stays 0 "
                               "until they boot (power back 10:41:30; node_exporter up ~10:42:30, dcgm-exporter ~10:43:15); their series stop, then return with a new "
                               "node_boot_time_seconds and reset counters. Effects: DCGM_FI_DEV_GPU_UTIL, "
                               "DCGM_FI_DEV_POWER_USAGE, DCGM_FI_DEV_FB_USED and the IB port counters of all 28 "
                               "survivors go to idle at ~09:48 and back at ~10:16."),
        "cause_log_evidence": [
            {"file": "logs/slurm/slurmctld.log", "text": "error: Nodes gpu-r06-[01-04] not responding",
             "source": "github.com/SchedMD/slurm/issues/131 ('[2015-10-13T20:13:00.675] error: Nodes node-cpu4-1 not responding')",
             "adapted": "timestamp, host list"},
            {"file": "logs/slurm/slurmctld.log", "text": "error: Nodes gpu-r06-[01-04] not responding, setting DOWN",
             "source": "slurmctld.log grep in a public Slurm course text ('error: Nodes node03 not responding, setting DOWN'), stored in the public code index as file id 68914818616; same wording in aws-parallelcluster's integration test comment ('error: Nodes q2-st-t2large-[1-2] not responding, setting DOWN')",
             "adapted": "timestamp, host list"},
            {"file": "logs/slurm/slurmctld.log", "text": f"Killing JobId={JOB1} on failed node gpu-r06-01",
             "source": "same course text (file id 68914818616): 'Killing JobId=48 on failed node node03'",
             "adapted": "timestamp, job id, host"},
            {"file": "logs/slurm/slurmctld.log", "text": "Node gpu-r06-01 rebooted 62 secs ago",
             "source": "github.com/SchedMD/slurm/issues/131 ('[2015-10-14T13:56:09.152] Node node-cpu4-1 rebooted 106 secs ago')",
             "adapted": "timestamp, host, seconds"},
            {"file": f"logs/slurm-{JOB1}.out",
             "text": f"[rankN]:<host>:<pid>:<tid> [0] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.40.6.1x<port> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fe80::... remoteGidsfe80::...  (+ 'NCCL INFO transport/net.cc:1302 -> 6', 'proxy.cc:698 -> 6', 'proxy.cc:878 -> 6 [Progress Thread]')",
             "source": "github.com/NVIDIA/nccl/issues/1405 (kp-ddp-worker-0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid fd00:... remoteGidsfd00:...)",
             "adapted": "host names, pid/tid, peer IP and port, GIDs (the hosts' port addresses), GPU index; torchrun's [rankN]: tag added"},
            {"file": f"logs/slurm-{JOB1}.out",
             "text": "[rankN]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank N] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.20.5  (with the preceding ':577 Some NCCL operations have failed or timed out...', ':583 To avoid data inconsistency...' and the following 'ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.' / 'Last error:' lines)",
             "source": "a committed Slurm job .err/.out of a 2-node PyTorch 2.3 run (gpu-node1/gpu-node2, NCCL 2.20.5), public code index file id 14056908231; the same lines in a p2p_test README (file id 5090677315) and, cut at the start, in github.com/deepseek-ai/DeepEP/issues/106",
             "adapted": "rank numbers, 'Last error:' text (the NET/IB line above)"},
            {"file": f"logs/slurm-{JOB1}.out",
             "text": "<host>:<pid>:<tid> [0] NCCL INFO [Service thread] Connection closed by localRank 0 / NCCL INFO comm 0x... rank N nranks 256 cudaDev 0 busId 1b000 - Abort COMPLETE",
             "source": "same job .out (file id 14056908231): 'gpu-node2:2985003:2985022 [0] NCCL INFO [Service thread] Connection closed by localRank 0', 'NCCL INFO comm 0x8e01d00 rank 1 nranks 2 cudaDev 0 busId 100000 - Abort COMPLETE'",
             "adapted": "host, pid/tid, comm address, rank, nranks, busId"},
            {"file": f"logs/slurm-{JOB1}.out",
             "text": "srun: error: gpu-r01-01: task 0: Exited with exit code 1",
             "source": "same job .err (file id 14056908231): 'srun: error: gpu-node1: task 0: Exited with exit code 1'",
             "adapted": "host, task number"},
            {"file": f"logs/slurm-{JOB1}.out",
             "text": f"srun: error: Node failure on gpu-r06-01 / srun: Job step aborted: Waiting up to 62 seconds for job step to finish. / slurmstepd: error: *** STEP {JOB1}.0 ON gpu-r01-01 CANCELLED AT 2025-06-14T09:52:28 DUE TO NODE FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***",
             "source": "github.com/huggingface/m4-logs:tr_141-hanging/tr_141_cm409xPMD01_scale_leap_of_faith_v5_num_workers_06/README.md (jean-zay-iam37 node failure)",
             "adapted": "hosts, step id, timestamp"},
            {"file": "logs/slurm/sinfo-R.txt", "text": "Not responding       slurm     2025-06-14T09:52:28 gpu-r06-[01-04]",
             "source": "format of 'sinfo -R' as shown in the same course text (file id 68914818616)", "adapted": "timestamp, host list"},
        ],
        "hosts": DEAD,
        "gpu": None,
        "onset": iso(TRIP).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_crash": iso(crash_t).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_restart_first_step": iso(first2).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "job_throughput_loss_pct": round(100 * (1 - after / before), 1),
        "job_throughput_loss_note": (f"sustained loss after the restart on 224 of 256 GPUs ({after:,.0f} vs {before:,.0f} "
                                     "tokens/s, per-GPU rate unchanged); in addition the job made no progress for "
                                     f"{(first2 - TRIP) / 60:.0f} min (09:47:23 to the first step of job {JOB2}) and redid "
                                     f"steps {LAST_SAVE1 + 1}-{STEPS1[-1][0]} lost since the step-{LAST_SAVE1} checkpoint"),
        "what_a_good_postmortem_says": (
            "At 09:47:23 UTC the four hosts of rack r06 (gpu-r06-01..04) went silent at the same instant - both "
            "exporters down, kernel logs ending mid-stream with no shutdown, hung-task or Xid messages, and later a "
            "fresh boot with a new boot time - which is a loss of power to the whole rack (its PDU breaker), not a "
            "GPU, NCCL or network fault; the NCCL retry-exceeded errors on the survivors and slurmctld's 'not "
            "responding, setting DOWN' are consequences. The job crashed ~30 s later, was resubmitted 25 minutes "
            "after the crash on the remaining 28 hosts and runs ~12% slower only because it has 224 instead of 256 "
            "GPUs; actions are on the rack's power feed (breaker sizing/load balancing, A+B feeds), alerting on "
            "whole-rack up==0, and automatic requeue with node exclusion to shorten the 25-minute outage."),
        "not_the_cause": ["gpu-r03-02 and gpu-r03-03 run ~2.5 C warmer than the rest all day (top of rack inlet)",
                          "the NCCL 'remote process exited or there was a network error' lines on 28 hosts"],
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=110, allow_unicode=True)
    return truth["job_throughput_loss_pct"], before, after


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    write_metrics()
    trainer_log(JOB1, HOSTS, STEPS1, SAVES1, JOB1_START, JOB1_TRAIN0, 38000, crash=True)
    trainer_log(JOB2, ALIVE, STEPS2, SAVES2, RESUBMIT + 2.0, JOB2_TRAIN0, LAST_SAVE1, crash=False)
    slurmctld_log()
    journal_kernel()
    loss, b, a = write_yaml()
    print(f"wrote {OUT}; loss after restart {loss}% ({b:,.0f} -> {a:,.0f} tokens/s)")


if __name__ == "__main__":
    main()
