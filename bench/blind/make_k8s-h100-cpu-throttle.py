#!/usr/bin/env python3
"""Incident 1: Kubernetes H100 cluster, 20 nodes x 8 GPUs, torchtitan Llama-3 8B pretraining.
One node (h100-n041) has its second CPU package thermally throttling (CPU-side cooling fault):
its CPU clocks fall, its input pipeline / kernel launches lag, its 8 GPUs wait, and the
synchronous job loses ~4% from 02:07 UTC. Metrics as Parquet (dcgm-exporter DaemonSet, node-exporter),
throughput only in the trainer's own log. Fixed seed."""
import os, shutil, uuid, random
from datetime import datetime, timezone, timedelta
import numpy as np
import pyarrow as pa, pyarrow.parquet as pq
import yaml

SEED = 20250916
rng = np.random.default_rng(SEED)
random.seed(SEED)
ID = "k8s-h100-cpu-throttle"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(f"{OUT}/metrics", exist_ok=True)
os.makedirs(f"{OUT}/logs/trainer", exist_ok=True)

T0 = datetime(2025, 9, 16, 1, 0, 0, tzinfo=timezone.utc)
T1 = datetime(2025, 9, 16, 4, 0, 0, tzinfo=timezone.utc)
JOB_START = datetime(2025, 9, 16, 0, 51, 37, tzinfo=timezone.utc)
ONSET = datetime(2025, 9, 16, 2, 7, 31, tzinfo=timezone.utc)    # first throttle event
HEAT = datetime(2025, 9, 16, 2, 1, 0, tzinfo=timezone.utc)      # package temp starts climbing
STEP = 30
N = int((T1 - T0).total_seconds() // STEP)
LOSS = 0.042

pool = [n for n in range(3, 64) if n != 41]
nums = sorted(random.sample(pool, 19) + [41])
NODES = [f"h100-n{n:03d}" for n in nums]
BAD = "h100-n041"
NODE_IP = {h: f"10.20.{4 + i // 10}.{20 + (i * 7) % 200}" for i, h in enumerate(NODES)}
POD_IP = {h: f"10.244.{i + 2}.{random.randint(5, 250)}" for i, h in enumerate(NODES)}
POD_SUFFIX = lambda: "".join(random.choice("bcdfghjklmnpqrstvwxz2456789") for _ in range(5))
DCGM_POD = {h: f"nvidia-dcgm-exporter-{POD_SUFFIX()}" for h in NODES}
NE_POD = {h: f"kube-prometheus-stack-prometheus-node-exporter-{POD_SUFFIX()}" for h in NODES}
WORKER = {h: ("llama3-8b-pretrain-master-0" if i == 0 else f"llama3-8b-pretrain-worker-{i - 1}")
          for i, h in enumerate(NODES)}
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
MODEL = "NVIDIA H100 80GB HBM3"
DRIVER = "550.127.05"
UUIDS = {(h, g): "GPU-" + str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)))) for h in NODES for g in range(8)}

# per-node scrape phase (targets are scraped at a fixed offset within the interval)
phase_dcgm = {h: float(rng.uniform(0, STEP)) for h in NODES}
phase_ne = {h: float(rng.uniform(0, STEP)) for h in NODES}

def times(h, phase):
    base = T0.timestamp() + phase
    return base + np.arange(N) * STEP + rng.normal(0, 0.004, N)

# ---------------- fault model ----------------
def heat_curve(ts):
    """package-1 temperature excess on the bad node, 0..1"""
    x = (ts - HEAT.timestamp()) / 600.0
    return np.clip(x, 0, 1)

def throttle_active(ts):
    return ts >= ONSET.timestamp()

# job-wide slowdown factor (step-time multiplier) as a function of time
def job_slow(ts):
    f = np.ones_like(ts)
    on = throttle_active(ts)
    # throttling is intermittent: duty cycle wanders 0.7..1
    duty = 0.85 + 0.15 * np.sin((ts - ONSET.timestamp()) / 900.0) * 0.8
    f[on] = 1 + LOSS * duty[on] / 0.85 * 0.98
    return f

rows = {k: [] for k in ["timestamp", "metric", "value"]}
label_cols = {}

def add(metric, ts, vals, labels):
    n = len(ts)
    rows["timestamp"].append(ts)
    rows["metric"].append(np.full(n, metric, dtype=object))
    rows["value"].append(np.asarray(vals, dtype=float))
    for k in set(label_cols) | set(labels):
        if k not in label_cols:
            # back-fill earlier chunks with None
            label_cols[k] = [np.full(len(c), None, dtype=object) for c in rows["timestamp"][:-1]]
        label_cols[k].append(np.full(n, labels.get(k), dtype=object))

def flush(path):
    ts = np.concatenate(rows["timestamp"])
    tbl = {"timestamp": pa.array((ts * 1e6).astype("int64"), type=pa.timestamp("us", tz="UTC")),
           "metric": pa.array(np.concatenate(rows["metric"]).tolist(), type=pa.string()),
           "value": pa.array(np.concatenate(rows["value"]))}
    for k, chunks in label_cols.items():
        tbl[k] = pa.array(np.concatenate(chunks).tolist(), type=pa.string())
    t = pa.table(tbl)
    order = pa.compute.sort_indices(t, sort_keys=[("timestamp", "ascending"), ("metric", "ascending")])
    t = t.take(order)
    t = t.cast(pa.schema([pa.field(f.name, pa.dictionary(pa.int32(), pa.string())) if f.type == pa.string() and f.name not in ("metric",) else f for f in t.schema]))
    pq.write_table(t, path, compression="zstd", row_group_size=250_000)
    for k in rows:
        rows[k].clear()
    label_cols.clear()

# ---------------- dcgm-exporter ----------------
for hi, h in enumerate(NODES):
    ts = times(h, phase_dcgm[h])
    slow = job_slow(ts)
    bad = h == BAD
    on = throttle_active(ts)
    # fraction of time the node's GPUs compute vs. wait
    busy_factor = 1 / slow                       # everyone computes less per wall second
    # bad node: its GPUs additionally sit idle waiting for their own host (lower util)
    node_pow_off = rng.normal(0, 12)
    for g in range(8):
        lab = {"gpu": str(g), "UUID": UUIDS[(h, g)], "pci_bus_id": PCI[g], "device": f"nvidia{g}",
               "modelName": MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER,
               "container": "nvidia-dcgm-exporter", "endpoint": "gpu-metrics",
               "instance": f"{POD_IP[h]}:9400", "job": "nvidia-dcgm-exporter", "namespace": "gpu-operator",
               "pod": DCGM_POD[h], "service": "nvidia-dcgm-exporter",
               "exported_container": "pytorch", "exported_namespace": "llm-training", "exported_pod": WORKER[h]}
        gpu_off = rng.normal(0, 18) + node_pow_off
        # utilisation: NCCL spin keeps util high on healthy nodes, slight drop
        util = 99.0 - 0.6 * (slow - 1) / LOSS + rng.normal(0, 0.7, N)
        if bad:
            util = np.where(on, util - 5.5 * (slow - 1) / LOSS + rng.normal(0, 1.6, N), util)
        # periodic checkpoint stalls (every ~42 min, ~15 s) visible as dips in some samples
        util = np.clip(np.round(util), 0, 100)
        tensor = 0.455 * busy_factor + rng.normal(0, 0.008, N) + rng.normal(0, 0.004)
        if bad:
            tensor = np.where(on, tensor * (1 - 0.035 * (slow - 1) / LOSS), tensor)
        dram = 0.372 * busy_factor + rng.normal(0, 0.009, N)
        gr = np.clip(0.975 - 0.01 * (slow - 1) / LOSS + rng.normal(0, 0.006, N), 0, 1)
        if bad:
            gr = np.where(on, gr - 0.05 * (slow - 1) / LOSS, gr)
        power = 612 + gpu_off + 260 * (tensor - 0.455) + rng.normal(0, 14, N)
        power = np.clip(power, 90, 700)
        temp = 58 + (power - 600) * 0.06 + gpu_off * 0.08 + rng.normal(0, 0.5, N)
        mtemp = temp + 7 + rng.normal(0, 0.4, N)
        sm = np.where(rng.random(N) < 0.04, 1755.0, 1980.0)
        fb_used = 71563 + int(rng.integers(-300, 300)) + rng.integers(-4, 4, N)
        energy0 = 3.1e11 + rng.uniform(0, 4e10)
        energy = energy0 + np.cumsum(power * STEP * 1000)
        replay0 = int(rng.choice([0, 0, 0, 0, 0, 2, 7]))
        nvl0 = rng.uniform(1e14, 3e14)
        nvl = nvl0 + np.cumsum(np.maximum(0, 2.9e11 * busy_factor * STEP + rng.normal(0, 4e9, N)))
        pcie_rx = np.maximum(0, 3.1e8 * busy_factor + rng.normal(0, 2.5e7, N))
        pcie_tx = np.maximum(0, 1.2e8 * busy_factor + rng.normal(0, 1.2e7, N))
        corr_rows = 1.0 if (hi == 4 and g == 2) else 0.0
        add("DCGM_FI_DEV_GPU_UTIL", ts, util, lab)
        add("DCGM_FI_DEV_POWER_USAGE", ts, np.round(power, 3), lab)
        add("DCGM_FI_DEV_GPU_TEMP", ts, np.round(temp), lab)
        add("DCGM_FI_DEV_MEMORY_TEMP", ts, np.round(mtemp), lab)
        add("DCGM_FI_DEV_SM_CLOCK", ts, sm, lab)
        add("DCGM_FI_DEV_MEM_CLOCK", ts, np.full(N, 2619.0), lab)
        add("DCGM_FI_DEV_FB_USED", ts, fb_used, lab)
        add("DCGM_FI_DEV_FB_FREE", ts, 81559 - 531 - fb_used, lab)
        add("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", ts, np.round(energy), lab)
        add("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", ts, np.full(N, float(replay0)), lab)
        add("DCGM_FI_DEV_XID_ERRORS", ts, np.zeros(N), lab)
        add("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", ts, np.round(nvl), lab)
        add("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", ts, np.full(N, corr_rows), lab)
        add("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", ts, np.zeros(N), lab)
        add("DCGM_FI_DEV_ROW_REMAP_FAILURE", ts, np.zeros(N), lab)
        add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", ts, np.round(gr, 6), lab)
        add("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", ts, np.round(np.clip(tensor, 0, 1), 6), lab)
        add("DCGM_FI_PROF_DRAM_ACTIVE", ts, np.round(np.clip(dram, 0, 1), 6), lab)
        add("DCGM_FI_PROF_PCIE_TX_BYTES", ts, np.round(pcie_tx), lab)
        add("DCGM_FI_PROF_PCIE_RX_BYTES", ts, np.round(pcie_rx), lab)
flush(f"{OUT}/metrics/dcgm-exporter.parquet")

# ---------------- node-exporter ----------------
NCPU = 96   # 2 x Xeon Platinum 8468, SMT off
boot = {h: (T0 - timedelta(days=float(rng.uniform(6, 40)))).timestamp() for h in NODES}
pkg_events = {}
for h in NODES:
    ts = times(h, phase_ne[h])
    bad = h == BAD
    on = throttle_active(ts)
    slow = job_slow(ts)
    lab = {"container": "node-exporter", "endpoint": "http-metrics", "instance": f"{NODE_IP[h]}:9100",
           "job": "node-exporter", "namespace": "monitoring", "pod": NE_POD[h],
           "service": "kube-prometheus-stack-prometheus-node-exporter"}
    add("node_uname_info", ts, np.ones(N), {**lab, "domainname": "(none)", "machine": "x86_64",
        "nodename": h, "release": "5.15.0-122-generic", "sysname": "Linux",
        "version": "#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024"})
    add("node_boot_time_seconds", ts, np.full(N, round(boot[h])), lab)
    add("up", ts, np.ones(N), lab)
    # package temperatures (coretemp hwmon)
    heat = heat_curve(ts) if bad else np.zeros(N)
    for p in (0, 1):
        base = 61 + rng.normal(0, 2.5) + p * 1.5
        tt = base + rng.normal(0, 1.1, N)
        if bad and p == 1:
            tt = tt + heat * (99 - base) + np.where(on, rng.normal(0, 1.2, N), 0)
            tt = np.minimum(tt, 101)
        add("node_hwmon_temp_celsius", ts, np.round(tt), {**lab, "chip": f"platform_coretemp_{p}", "sensor": "temp1"})
        add("node_hwmon_temp_crit_celsius", ts, np.full(N, 100.0), {**lab, "chip": f"platform_coretemp_{p}", "sensor": "temp1"})
    # per-CPU frequency
    for c in range(NCPU):
        p = 0 if c < 48 else 1
        busy = c % 6 == 0 or c in (1, 49)   # dataloader / launch threads
        f = (3.7e9 if busy else 3.1e9) + rng.normal(0, 1.2e8, N)
        f = np.where(rng.random(N) < 0.25, 8e8 + rng.normal(0, 5e7, N), f) if not busy else f
        if bad and p == 1:
            thr = 1.55e9 + rng.normal(0, 2.5e8, N)
            f = np.where(on, np.minimum(f, thr), f)
        if bad and p == 0:
            f = np.where(on, f - 0.15e9, f)   # package 0 shares the uncore/memory stalls a little
        add("node_cpu_scaling_frequency_hertz", ts, np.round(np.clip(f, 8e8, 3.8e9), -3), {**lab, "cpu": str(c)})
    # throttle counters (thermal_throttle sysfs), per core and per package
    for p in (0, 1):
        base_pkg = float(rng.integers(0, 4))
        inc = np.zeros(N)
        if bad and p == 1:
            inc = np.where(on, rng.poisson(38, N), 0)
        pkg = base_pkg + np.cumsum(inc)
        pkg_events[(h, p)] = (ts, pkg)
        add("node_cpu_package_throttles_total", ts, pkg, {**lab, "package": str(p)})
        for core in range(48):
            cb = float(rng.integers(0, 2))
            cinc = np.where(on, rng.poisson(9, N), 0) if (bad and p == 1) else np.zeros(N)
            add("node_cpu_core_throttles_total", ts, cb + np.cumsum(cinc), {**lab, "package": str(p), "core": str(core)})
    load = 14 + rng.normal(0, 1.2, N) + (np.where(on, 9 + rng.normal(0, 1.5, N), 0) if bad else 0)
    add("node_load1", ts, np.round(load, 2), lab)
    cpw = rng.uniform(1e4, 5e4) + np.cumsum(np.maximum(0, rng.normal(0.9, 0.3, N) + (np.where(on, 6.5, 0) if bad else 0)) * STEP)
    add("node_pressure_cpu_waiting_seconds_total", ts, np.round(cpw, 6), lab)
    memav = 1.68e12 + rng.normal(0, 2e9) + rng.normal(0, 3e8, N)
    add("node_memory_MemAvailable_bytes", ts, np.round(memav, -3), lab)
    add("node_memory_MemTotal_bytes", ts, np.full(N, 2164197691392.0), lab)
    rd = rng.uniform(1e12, 5e12) + np.cumsum(np.maximum(0, rng.normal(2.1e8, 3e7, N) / slow) * STEP)
    add("node_disk_read_bytes_total", ts, np.round(rd), {**lab, "device": "nvme1n1"})
    rt = rng.uniform(1e4, 3e4) + np.cumsum(np.maximum(0, rng.normal(0.35, 0.05, N)) * STEP)
    add("node_disk_read_time_seconds_total", ts, np.round(rt, 3), {**lab, "device": "nvme1n1"})
    rc = rng.uniform(1e8, 3e8) + np.cumsum(np.maximum(0, rng.normal(1650, 120, N) / slow) * STEP)
    add("node_disk_reads_completed_total", ts, np.round(rc), {**lab, "device": "nvme1n1"})
flush(f"{OUT}/metrics/node-exporter.parquet")

# ---------------- kernel logs (journalctl -k, short) ----------------
def jts(t):
    return t.strftime("%b %d %H:%M:%S")

benign = [
    "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready",
    "IPv6: ADDRCONF(NETDEV_CHANGE): cali{cali}: link becomes ready",
    "nvidia-nvswitch{sw}: open (major=510)",
    "Initializing XFRM netlink socket",
]
for h in NODES:
    os.makedirs(f"{OUT}/logs/{h}", exist_ok=True)
    lines = []
    t = T0 - timedelta(minutes=40)
    # the job's pods starting before the window
    lines.append((JOB_START - timedelta(seconds=41), "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready"))
    lines.append((JOB_START - timedelta(seconds=41), f"IPv6: ADDRCONF(NETDEV_CHANGE): cali{random.getrandbits(44):011x}: link becomes ready"))
    for sw in range(4):
        lines.append((JOB_START - timedelta(seconds=30), f"nvidia-nvswitch{sw}: open (major=510)"))
    while t < T1 + timedelta(minutes=5):
        t += timedelta(seconds=float(rng.exponential(900)))
        r = rng.random()
        if r < 0.45:
            lines.append((t, "IPv6: ADDRCONF(NETDEV_CHANGE): eth0: link becomes ready"))
            lines.append((t, f"IPv6: ADDRCONF(NETDEV_CHANGE): cali{random.getrandbits(44):011x}: link becomes ready"))
        elif r < 0.8:
            for sw in (3, 2, 1, 0):
                lines.append((t + timedelta(milliseconds=120 * (3 - sw)), f"nvidia-nvswitch{sw}: open (major=510)"))
        elif r < 0.9:
            lines.append((t, "Initializing XFRM netlink socket"))
        else:
            lines.append((t, f"perf: interrupt took too long ({random.randint(2501, 3300)} > 2500), lowering kernel.perf_event_max_sample_rate to {random.choice([79750, 63750, 50000])}"))
    if h == BAD:
        # rate-limited (5 min) bursts from arch/x86/kernel/cpu/mce/therm_throt.c, package 1 = CPU48-95
        tt = ONSET
        core_tot = {c: 0 for c in range(48, 96)}
        pkg_tot = 0
        while tt < T1:
            pkg_tot += int(rng.integers(1800, 3200)) if pkg_tot else 1
            cpus = list(range(48, 96))
            random.shuffle(cpus)
            k = 0
            # a few cores report core-level first
            for c in sorted(random.sample(range(48, 96), 2)):
                core_tot[c] += int(rng.integers(300, 700)) if core_tot[c] else 1
                lines.append((tt + timedelta(microseconds=k), f"mce: CPU{c}: Core temperature above threshold, cpu clock throttled (total events = {core_tot[c]})")); k += 1
            for c in cpus:
                lines.append((tt + timedelta(microseconds=k), f"mce: CPU{c}: Package temperature above threshold, cpu clock throttled (total events = {pkg_tot})")); k += 1
            back = tt + timedelta(seconds=float(rng.uniform(0.2, 40)))
            for c in cpus[:6]:
                lines.append((back, f"mce: CPU{c}: Core temperature/speed normal"))
                lines.append((back, f"mce: CPU{c}: Package temperature/speed normal"))
            tt += timedelta(seconds=300 + float(rng.uniform(0, 40)))
    lines.sort(key=lambda x: x[0])
    with open(f"{OUT}/logs/{h}/kern.log", "w") as f:
        for t, msg in lines:
            f.write(f"{jts(t)} {h} kernel: {msg}\n")

# ---------------- trainer log (kubectl logs of the master pod; torchrun --role rank --tee 3) ----------------
GPUS = 8 * len(NODES)
TPS0 = 6418.0
TOK_PER_STEP_GPU = 2 * 8192
lines = []
def tl(t, msg):
    lines.append(f"[rank0]:[titan] {t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d} - root - INFO - {msg}")
pre = JOB_START
lines.append(f"W0916 00:51:37.612000 1 torch/distributed/run.py:793] ")
lines.append("W0916 00:51:37.612000 1 torch/distributed/run.py:793] *****************************************")
lines.append("W0916 00:51:37.612000 1 torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ")
lines.append("W0916 00:51:37.612000 1 torch/distributed/run.py:793] *****************************************")
t = pre + timedelta(seconds=9.3)
tl(t, "Starting job: Llama 3 8B training")
tl(t + timedelta(seconds=0.4), f"Building 1-D device mesh with ['dp_shard'], [{GPUS}]")
tl(t + timedelta(seconds=1.1), "[GC] Initial GC collection. 0.00 seconds.")
tl(t + timedelta(seconds=8.2), "Loading tokenizer from tokenizer.json")
tl(t + timedelta(seconds=9.0), "Preparing c4 dataset from /mnt/local-nvme/datasets/c4")
tl(t + timedelta(seconds=21.5), "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
tl(t + timedelta(seconds=22.0), "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.19GiB memory")
tl(t + timedelta(seconds=22.3), "Model llama3 8B size: 8,030,261,248 total parameters")
tl(t + timedelta(seconds=22.9), "Applied selective activation checkpointing to the model")
tl(t + timedelta(seconds=23.4), "Applied FSDP to the model")
tl(t + timedelta(seconds=25.8), "Peak FLOPS used for computing MFU: 9.890e+14")
tl(t + timedelta(seconds=25.8), "CUDA memory usage for model: 0.38GiB(0.48%)")
tl(t + timedelta(seconds=26.0), "Checkpointing active. Checkpoints are loaded from and saved to ./outputs/checkpoint")
tl(t + timedelta(seconds=26.1), "Loading the checkpoint at step 14000.")
tl(t + timedelta(seconds=61.7), "[GC] GC collection for checkpoint loading. 0.02 seconds.")
tl(t + timedelta(seconds=61.7), "Finished loading the checkpoint in 35.62 seconds.")
tl(t + timedelta(seconds=61.9), "Training starts at step 14001.")
t = t + timedelta(seconds=95)
step = 14000
loss = 2.412
tps_series = []
pending_ckpt = 0.0
while t < T1 + timedelta(seconds=30):
    step += 10
    ts_ = t.timestamp()
    slow = float(job_slow(np.array([ts_]))[0])
    tps = TPS0 / slow * (1 + rng.normal(0, 0.0035))
    if step == 14010:
        tps *= 0.93
    dt = 10 * TOK_PER_STEP_GPU / tps
    if pending_ckpt:
        dt += pending_ckpt; tps = 10 * TOK_PER_STEP_GPU / dt; pending_ckpt = 0.0
    t = t + timedelta(seconds=dt)
    loss = 2.41 - 0.055 * np.log1p((step - 14000) / 800.0) + rng.normal(0, 0.021)
    gn = abs(0.31 + rng.normal(0, 0.03))
    tflops = tps * 6 * 8.03e9 * 1.045 / 1e12
    mfu = tflops * 1e12 / 9.89e14 * 100
    if step % 50 == 0:
        tl(t - timedelta(seconds=dt * 0.42), f"[GC] Peforming periodical GC collection. {rng.uniform(0.04, 0.09):.2f} seconds.")
    tl(t, f"step: {step:2d}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: 58.32GiB(73.64%)  tps: {round(tps):,}  tflops: {tflops:.2f}  mfu: {mfu:.2f}%")
    tps_series.append((t, tps))
    if step % 1000 == 0:
        tl(t + timedelta(seconds=0.2), "Saving the checkpoint (or staging if async is enabled).")
        tt = rng.uniform(11, 16)
        tl(t + timedelta(seconds=0.2 + tt), f"[GC] GC collection invoked by checkpointer. 0.0{random.randint(2, 6)} seconds.")
        tl(t + timedelta(seconds=0.25 + tt), f"Finished saving the checkpoint (or staging if async is enabled)in {tt:.2f} seconds.")
        pending_ckpt = tt + 0.3
with open(f"{OUT}/logs/trainer/llama3-8b-pretrain-master-0.log", "w") as f:
    f.write("\n".join(lines) + "\n")

pre_tps = np.mean([v for (tt_, v) in tps_series if T0 + timedelta(minutes=5) <= tt_ < ONSET])
post_tps = np.mean([v for (tt_, v) in tps_series if ONSET + timedelta(minutes=3) <= tt_ < T1])
loss_pct = round(100 * (1 - post_tps / pre_tps), 1)

# ---------------- incident.yaml, truth.yaml ----------------
inc = {
    "id": ID,
    "title": "Llama-3 8B pretraining (torchtitan, 160 x H100, Kubernetes) runs a few percent slower",
    "window": {"start": T0.isoformat(), "end": T1.isoformat()},
    "baseline": {"start": T0.isoformat(), "end": (T0 + timedelta(minutes=55)).isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "sjc-k8s-h100", "nodes": len(NODES), "gpus_per_node": 8, "gpu_model": "H100"},
    "trainer": {"gpus": GPUS, "seq_length": 8192},
}
with open(f"{OUT}/incident.yaml", "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

truth = {
    "id": ID,
    "cause": "CPU package 1 of node h100-n041 overheated (CPU-side cooling fault) and the kernel thermally throttled its cores to ~1.5 GHz, so that node's data loading and kernel launches lagged and its 8 GPUs held back every rank of the synchronous FSDP job.",
    "cause_metrics": ["node_cpu_package_throttles_total", "node_cpu_core_throttles_total",
                      "node_cpu_scaling_frequency_hertz", "node_hwmon_temp_celsius",
                      "node_pressure_cpu_waiting_seconds_total", "node_load1"],
    "effect_metrics": ["trainer tps (torchtitan log)", "DCGM_FI_DEV_GPU_UTIL (lower on h100-n041)",
                       "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_DEV_POWER_USAGE"],
    "cause_log_evidence": [
        {"text": "mce: CPU2: Core temperature above threshold, cpu clock throttled (total events = 2675)",
         "source": "https://github.com/erpalma/throttled/issues/186",
         "adapted": "host name, timestamp (journalctl short prefix added), CPU index, total-events count"},
        {"text": "mce: CPU6: Package temperature above threshold, cpu clock throttled (total events = 3654)",
         "source": "https://github.com/erpalma/throttled/issues/186",
         "adapted": "host name, timestamp, CPU index, total-events count"},
        {"text": "mce: CPU6: Core temperature/speed normal",
         "source": "https://github.com/erpalma/throttled/issues/186", "adapted": "host name, timestamp, CPU index"},
        {"text": "mce: CPU6: Package temperature/speed normal",
         "source": "https://github.com/erpalma/throttled/issues/186", "adapted": "host name, timestamp, CPU index"},
    ],
    "benign_log_sources": ["leptonai/gpud pkg/kmsg/testdata/kmsg.1.log (calico/eth0 link becomes ready, nvidia-nvswitch open, XFRM)",
                           "torchtitan log line shapes: pytorch/torchtitan PR #1287 and #3393 output"],
    "hosts": [BAD],
    "gpu": None,
    "onset": ONSET.isoformat().replace("+00:00", "Z"),
    "heating_starts": HEAT.isoformat().replace("+00:00", "Z"),
    "job_throughput_loss_pct": float(loss_pct),
    "what_a_good_postmortem_says": (
        "From 02:07 UTC the job's tokens/s fell about 4% and stayed down; every rank slowed because one node, h100-n041, "
        "was behind: its CPU package 1 hit ~99 C, the kernel logged package/core thermal throttling every few minutes, and its "
        "cores ran at ~1.5 GHz instead of 3+ GHz, while its GPUs showed lower utilisation than their peers. It is a host-side "
        "(CPU cooling) fault, not GPUs, network or storage; cordon the node, check its CPU fans/heatsink and BMC thermal logs."),
}
with open(f"{OUT}/truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=200)
print("nodes", NODES, "loss", loss_pct)
