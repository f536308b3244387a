#!/usr/bin/env python3
"""Incident: one H100 left with locked GPU clocks (nvidia-smi -lgc 1500) by a previous
benchmark job joins a 24-node synchronous pretraining job after a requeue.
Writes /tmp/p/blind_INC9/pretrain-lgc-leftover/. Fixed seed."""
import json, os, shutil, uuid
from datetime import datetime, timedelta, timezone
import numpy as np
import polars as pl
import yaml

SEED = 90901
rng = np.random.default_rng(SEED)
ID = "pretrain-lgc-leftover"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT + "/metrics"); os.makedirs(OUT + "/logs")

UTC = timezone.utc
W0 = datetime(2025, 5, 20, 5, 30, tzinfo=UTC)
W1 = datetime(2025, 5, 20, 9, 30, tzinfo=UTC)
T_REQ = datetime(2025, 5, 20, 7, 31, 40, tzinfo=UTC)      # job requeued (maintenance drain)
T_ALLOC2 = datetime(2025, 5, 20, 7, 44, 10, tzinfo=UTC)   # re-allocated on new node set
T_RESUME = datetime(2025, 5, 20, 7, 48, 52, tzinfo=UTC)   # first training step after restart
T_BENCH0 = datetime(2025, 5, 20, 6, 20, 11, tzinfo=UTC)   # other user's benchmark on gpu-h031
T_LGC = datetime(2025, 5, 20, 6, 21, 4, tzinfo=UTC)       # benchmark locks GPU 3 clocks
T_BENCH1 = datetime(2025, 5, 20, 7, 38, 2, tzinfo=UTC)    # benchmark killed at time limit
T_QCAP = datetime(2025, 5, 20, 9, 12, 31, tzinfo=UTC)     # on-call runs nvidia-smi -q

def ts(t):
    return t.timestamp()

set1 = [f"gpu-h{i:03d}" for i in range(1, 25)]
drained = ["gpu-h006", "gpu-h013", "gpu-h019"]
new = ["gpu-h031", "gpu-h032", "gpu-h033"]
set2 = [h for h in set1 if h not in drained] + new
hosts = set1 + new
BAD_HOST, BAD_GPU = "gpu-h031", 3
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]
ip = {h: f"10.31.4.{int(h[-3:])}" for h in hosts}
DRIVER = "535.183.01"
MODEL = "NVIDIA H100 80GB HBM3"
uuids = {(h, g): "GPU-" + str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)))) for h in hosts for g in range(8)}

# ---------------- job state per host over time ----------------
def state(h, t):
    """'train', 'bench', 'idle' """
    if h in set1 and t < T_REQ - timedelta(seconds=0) and t >= W0:
        return "train"
    if h in set2 and t >= T_RESUME:
        return "train"
    if h == BAD_HOST and T_BENCH0 + timedelta(seconds=40) <= t < T_BENCH1:
        return "bench"
    return "idle"

def lgc_active(h, g, t):
    return h == BAD_HOST and g == BAD_GPU and t >= T_LGC

SLOW = 1.118   # step-time factor once the locked GPU is in the job

# ---------------- DCGM (15 s) ----------------
rows = {k: [] for k in ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "pci_bus_id", "device",
                        "modelName", "DCGM_FI_DRIVER_VERSION", "instance", "job", "port"]}

def add(t, metric, value, host=None, gpu=None, instance=None, job=None, device=None, port=None):
    rows["timestamp"].append(t); rows["metric"].append(metric); rows["value"].append(float(value))
    if gpu is not None:
        rows["Hostname"].append(host); rows["gpu"].append(str(gpu)); rows["UUID"].append(uuids[(host, gpu)])
        rows["pci_bus_id"].append(PCI[gpu]); rows["device"].append(f"nvidia{gpu}"); rows["modelName"].append(MODEL)
        rows["DCGM_FI_DRIVER_VERSION"].append(DRIVER)
    else:
        rows["Hostname"].append(None); rows["gpu"].append(None); rows["UUID"].append(None)
        rows["pci_bus_id"].append(None); rows["device"].append(device); rows["modelName"].append(None)
        rows["DCGM_FI_DRIVER_VERSION"].append(None)
    rows["instance"].append(instance); rows["job"].append(job); rows["port"].append(port)

n15 = int((W1 - W0).total_seconds() // 15)
grid15 = np.array([ts(W0) + 15 * i for i in range(n15)])
n30 = n15 // 2
grid30 = np.array([ts(W0) + 30 * i for i in range(n30)])

for h in hosts:
    off = rng.uniform(0.5, 14.0)           # this target's scrape phase
    hbias_t = rng.normal(0, 2.5)           # rack position: persistent temperature offset
    for g in range(8):
        clk_mu = rng.normal(1830, 35)      # persistent per-GPU boost level under load
        pw_mu = rng.normal(655, 18)
        tmp_mu = 60 + hbias_t + rng.normal(0, 2.0)
        mtmp_mu = tmp_mu + rng.normal(7, 1.5)
        tens_mu = rng.normal(0.43, 0.012)
        fb_train = 71230 + int(rng.integers(-400, 400))
        energy = float(rng.uniform(2.0e11, 9.0e11))   # mJ since boot
        nvl = float(rng.uniform(1e12, 5e12))
        replay = int(rng.integers(0, 4))
        temp = 33.0 + rng.normal(0, 1)
        for i in range(n15):
            t = datetime.fromtimestamp(grid15[i], UTC)
            tt = grid15[i] + off + rng.uniform(-0.05, 0.05)
            st = state(h, t)
            locked = lgc_active(h, g, t)
            if st == "train":
                slow_phase = t >= T_RESUME and BAD_HOST in set2
                util = min(100, max(92, rng.normal(99.3, 0.8)))
                if locked:
                    clk = 1500.0
                    pw = rng.normal(478, 9)
                    tens = rng.normal(0.485, 0.008)
                    reasons = 2
                    tgt = tmp_mu - 7
                else:
                    clk = clk_mu + rng.normal(0, 22)
                    pw = pw_mu + rng.normal(0, 14)
                    if slow_phase:          # peers wait for the slow rank each step
                        pw -= 38; tens = tens_mu * 0.895 + rng.normal(0, 0.008); tgt = tmp_mu - 2.5
                    else:
                        tens = tens_mu + rng.normal(0, 0.008); tgt = tmp_mu
                    reasons = 4 if pw > 688 else 0
                    if reasons: clk -= rng.uniform(20, 90)
                    clk = round(min(1980, clk) / 15) * 15
                    pw = min(pw, 700.0)
                fb = fb_train + rng.integers(-60, 60)
                nvl += rng.normal(2.9e10, 1.5e9) * (1 / SLOW if slow_phase else 1) * 15
            elif st == "bench":
                util = min(100, max(60, rng.normal(96, 3)))
                clk = 1500.0 if locked else round((clk_mu + 60 + rng.normal(0, 20)) / 15) * 15
                pw = (455 if locked else 610) + rng.normal(0, 20)
                tens = rng.normal(0.70, 0.03); reasons = 2 if locked else (4 if pw > 688 else 0)
                tgt = tmp_mu + (-5 if locked else 3)
                fb = 40960 + rng.integers(-50, 50)
                nvl += rng.normal(1.1e10, 1e9) * 15
            else:
                util = 0.0
                clk = 1500.0 if locked else 345.0
                pw = (96 if locked else 72) + rng.normal(0, 2.5)
                tens = 0.0; reasons = 3 if locked else 1
                tgt = 31 + hbias_t * 0.5 + (3 if locked else 0)
                fb = 0.0 + (1 if rng.random() < 0.5 else 0)
                nvl += rng.normal(2e5, 1e4) * 15
            temp += (tgt - temp) * 0.35 + rng.normal(0, 0.4)
            energy += pw * 15 * 1000
            if rng.random() < 0.0004: replay += 1
            inst = f"{ip[h]}:9400"
            add(tt, "DCGM_FI_DEV_GPU_UTIL", round(util), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_SM_CLOCK", clk, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_MEM_CLOCK", 2619 if st != "idle" or locked else 2619, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_GPU_TEMP", round(temp), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_MEMORY_TEMP", round(temp + (mtmp_mu - tmp_mu)), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_POWER_USAGE", round(pw, 3), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", round(energy), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", replay, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_XID_ERRORS", 0, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_FB_USED", fb, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", round(nvl), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", reasons, h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", round(max(0, tens), 6), h, g, inst, "dcgm-exporter")
            add(tt, "DCGM_FI_PROF_GR_ENGINE_ACTIVE", round(util / 100 * rng.uniform(0.97, 0.995), 6) if util else 0.0, h, g, inst, "dcgm-exporter")

# ---------------- node_exporter (30 s) ----------------
for h in hosts:
    off = rng.uniform(0.5, 29.0)
    inst = f"{ip[h]}:9100"
    boot = ts(datetime(2025, 5, 2, 14, 7, 33, tzinfo=UTC)) + rng.uniform(-86400 * 3, 0)
    ibtx = [float(rng.uniform(1e14, 4e14)) for _ in range(8)]
    ibrx = [x * rng.uniform(0.98, 1.02) for x in ibtx]
    ethtx = float(rng.uniform(1e12, 3e12)); ethrx = ethtx * 1.7
    memavail = 1.72e12 + rng.normal(0, 5e9)
    for i in range(n30):
        t = datetime.fromtimestamp(grid30[i], UTC)
        tt = grid30[i] + off + rng.uniform(-0.05, 0.05)
        st = state(h, t)
        if st == "train":
            rate = 2.35e10 * ((1 / SLOW) if t >= T_RESUME else 1)
            load = rng.normal(54, 4); ma = 1.31e12 + rng.normal(0, 3e9)
        elif st == "bench":
            rate = 6e8; load = rng.normal(20, 2); ma = 1.58e12 + rng.normal(0, 3e9)
        else:
            rate = 2e3; load = abs(rng.normal(0.6, 0.3)); ma = memavail + rng.normal(0, 1e9)
        for p in range(8):
            ibtx[p] += max(0, rng.normal(rate, rate * 0.03)) * 30
            ibrx[p] += max(0, rng.normal(rate, rate * 0.03)) * 30
            add(tt, "node_infiniband_port_data_transmitted_bytes_total", round(ibtx[p]), instance=inst, job="node", device=f"mlx5_{p}", port="1")
            add(tt, "node_infiniband_port_data_received_bytes_total", round(ibrx[p]), instance=inst, job="node", device=f"mlx5_{p}", port="1")
            add(tt, "node_infiniband_link_downed_total", 0, instance=inst, job="node", device=f"mlx5_{p}", port="1")
        ethtx += max(0, rng.normal(4.1e6, 5e5)) * 30; ethrx += max(0, rng.normal(7.5e6 if st == "train" else 1.2e6, 5e5)) * 30
        add(tt, "node_network_transmit_bytes_total", round(ethtx), instance=inst, job="node", device="eno1")
        add(tt, "node_network_receive_bytes_total", round(ethrx), instance=inst, job="node", device="eno1")
        add(tt, "node_load1", round(max(0, load), 2), instance=inst, job="node")
        add(tt, "node_memory_MemAvailable_bytes", round(ma), instance=inst, job="node")
        add(tt, "node_boot_time_seconds", round(boot), instance=inst, job="node")
        add(tt, "up", 1, instance=inst, job="node")

df = pl.DataFrame(rows).with_columns(
    (pl.col("timestamp") * 1e6).cast(pl.Int64).cast(pl.Datetime("us", "UTC")).alias("timestamp"))
df = df.sort(["metric", "timestamp"])
# one exporter per file, as a recording rule dump would be split
dcgm = df.filter(pl.col("metric").str.starts_with("DCGM_")).drop("port")
node = df.filter(~pl.col("metric").str.starts_with("DCGM_")).select(["timestamp", "metric", "value", "instance", "job", "device", "port"])
dcgm.write_parquet(OUT + "/metrics/dcgm-exporter.parquet", compression="zstd", row_group_size=200_000, statistics=True)
node.write_parquet(OUT + "/metrics/node-exporter.parquet", compression="zstd", row_group_size=200_000, statistics=True)

# node_uname_info (info metric: value 1, nodename label) so instance -> host can be joined
un = {"timestamp": [], "metric": [], "value": [], "instance": [], "job": [], "nodename": [], "release": [], "machine": []}
for h in hosts:
    for i in range(0, n30, 4):
        un["timestamp"].append(datetime.fromtimestamp(grid30[i] + 7.2, UTC)); un["metric"].append("node_uname_info"); un["value"].append(1.0)
        un["instance"].append(f"{ip[h]}:9100"); un["job"].append("node"); un["nodename"].append(h)
        un["release"].append("5.15.0-122-generic"); un["machine"].append("x86_64")
pl.DataFrame(un).with_columns(pl.col("timestamp").cast(pl.Datetime("us", "UTC"))).write_parquet(OUT + "/metrics/node-uname-info.parquet")

# ---------------- trainer output: JSON lines (rank 0, log shipper) ----------------
GBS, SEQ, NGPU = 1024, 4096, 192
TOK = GBS * SEQ
base_step = 5.21
lines = []
def jl(t, level, msg, **kw):
    d = {"timestamp": t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", "level": level,
         "logger": kw.pop("logger", "pretrain"), "host": kw.pop("host", "gpu-h001"), "rank": kw.pop("rank", 0),
         "slurm_job_id": 4471902, "message": msg}
    d.update(kw)
    lines.append(json.dumps(d))

step = 18120
loss = 2.2031
t = W0 - timedelta(seconds=47)
acc_t, acc_n = 0.0, 0
ckpt_every = 500
def run_until(t, tend, slow, host0):
    global step, loss, acc_t, acc_n
    while True:
        dt = base_step * (SLOW if slow else 1.0) * rng.lognormal(0, 0.012)
        if rng.random() < 0.004: dt += rng.uniform(1.5, 4)   # dataloader hiccup
        if t + timedelta(seconds=dt) >= tend: return t
        t += timedelta(seconds=dt); step += 1; acc_t += dt; acc_n += 1
        loss = loss - 0.0000135 + rng.normal(0, 0.0016)
        if step % 10 == 0:
            st = acc_t / acc_n
            jl(t, "INFO", "train_step", host=host0, step=step, loss=round(loss + rng.normal(0, 0.012), 4),
               lr=round(2.8e-4 * (1 - step / 400000), 8), grad_norm=round(abs(rng.normal(0.41, 0.04)), 4),
               step_time_s=round(st, 3), tokens_per_sec=round(TOK / st, 1),
               tokens_per_sec_per_gpu=round(TOK / st / NGPU, 1), mfu=round(0.458 * base_step / st, 4),
               consumed_tokens=step * TOK, mem_allocated_gb=round(61.2 + rng.normal(0, 0.05), 2))
            acc_t, acc_n = 0.0, 0
        if step % ckpt_every == 0:
            jl(t + timedelta(milliseconds=40), "INFO", f"saving checkpoint at step {step} to /lustre/ckpt/llm-13b-v3/step_{step:08d}", host=host0, logger="checkpoint", step=step)
            d = rng.uniform(16, 21); t += timedelta(seconds=d)
            jl(t, "INFO", f"checkpoint saved in {d:.2f}s", host=host0, logger="checkpoint", step=step, duration_s=round(d, 2))
        if rng.random() < 0.0025:
            jl(t + timedelta(milliseconds=5), "WARNING", "dataloader worker 3 slow to respond, waited 2.1s for batch", host=host0, logger="data", step=step)

t = run_until(t, T_REQ, False, "gpu-h001")
jl(T_REQ + timedelta(milliseconds=310), "WARNING", "received signal 15 (SIGTERM) from scheduler; requeue requested", logger="launcher")
jl(T_REQ + timedelta(seconds=2.1), "INFO", "exiting without checkpoint: last checkpoint is step %d" % (step - step % ckpt_every), logger="launcher")
last_ckpt = step - step % ckpt_every
# restart
t2 = T_ALLOC2 + timedelta(seconds=51)
jl(t2, "INFO", "job start: llm-13b-v3 pretrain, 24 nodes x 8 GPUs, world_size=192", logger="launcher",
   nodelist="gpu-h[001-005,007-012,014-018,020-024,031-033]")
jl(t2 + timedelta(seconds=0.4), "INFO", "torch 2.4.1+cu124, NCCL 2.21.5, driver 535.183.01", logger="launcher")
jl(t2 + timedelta(seconds=19.2), "INFO", "process group initialised (nccl), 192 ranks", logger="dist")
jl(t2 + timedelta(seconds=26.8), "INFO", f"loading checkpoint /lustre/ckpt/llm-13b-v3/step_{last_ckpt:08d}", logger="checkpoint")
jl(t2 + timedelta(seconds=214.5), "INFO", f"resumed from step {last_ckpt}; data loader fast-forwarded {last_ckpt * GBS} samples", logger="checkpoint")
step = last_ckpt; acc_t, acc_n = 0.0, 0
t = T_RESUME
jl(t, "INFO", "training resumed", step=step)
t = run_until(t, W1 + timedelta(seconds=30), True, "gpu-h001")
# a couple of startup lines of other ranks naming their hosts (as the shipper forwards them)
for r, h in [(24, "gpu-h004"), (184, "gpu-h031"), (96, "gpu-h014")]:
    jl(t2 + timedelta(seconds=18.9 + r / 1000), "INFO", f"rank {r} local_rank {r % 8} on {h} cuda:{r % 8}", rank=r, host=h, logger="dist")
lines.sort(key=lambda s: json.loads(s)["timestamp"])
os.makedirs(OUT + "/logs/trainer")
with open(OUT + "/logs/trainer/llm-13b-v3-4471902.jsonl", "w") as f:
    f.write("\n".join(lines) + "\n")

# ---------------- slurmctld ----------------
def sl(t): return "[" + t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}" + "]"
ctl = [
 (datetime(2025, 5, 20, 3, 58, 44, 118000, tzinfo=UTC), "sched: Allocate JobId=4471902 NodeList=gpu-h[001-024] #CPUs=2688 Partition=train"),
 (datetime(2025, 5, 20, 5, 41, 2, 7000, tzinfo=UTC), "sched: Allocate JobId=4471988 NodeList=gpu-h[034-035] #CPUs=224 Partition=dev"),
 (T_BENCH0, "sched: Allocate JobId=4472011 NodeList=gpu-h031 #CPUs=112 Partition=bench"),
 (datetime(2025, 5, 20, 6, 55, 13, 402000, tzinfo=UTC), "_job_complete: JobId=4471988 WEXITSTATUS 0"),
 (datetime(2025, 5, 20, 6, 55, 13, 402500, tzinfo=UTC), "_job_complete: JobId=4471988 done"),
 (datetime(2025, 5, 20, 7, 30, 55, 6000, tzinfo=UTC), "update_node: node gpu-h006 reason set to: bios-2.3-rollout"),
 (datetime(2025, 5, 20, 7, 30, 55, 6100, tzinfo=UTC), "update_node: node gpu-h006 state set to DRAINING"),
 (datetime(2025, 5, 20, 7, 30, 55, 6200, tzinfo=UTC), "update_node: node gpu-h013 reason set to: bios-2.3-rollout"),
 (datetime(2025, 5, 20, 7, 30, 55, 6300, tzinfo=UTC), "update_node: node gpu-h013 state set to DRAINING"),
 (datetime(2025, 5, 20, 7, 30, 55, 6400, tzinfo=UTC), "update_node: node gpu-h019 reason set to: bios-2.3-rollout"),
 (datetime(2025, 5, 20, 7, 30, 55, 6500, tzinfo=UTC), "update_node: node gpu-h019 state set to DRAINING"),
 (T_REQ, "_slurm_rpc_requeue: Requeue of JobId=4471902 returned: Success"),
 (T_REQ + timedelta(seconds=31), "_job_complete: JobId=4471902 WTERMSIG 15"),
 (T_BENCH1, "Time limit exhausted for JobId=4472011"),
 (T_BENCH1 + timedelta(seconds=3.8), "_job_complete: JobId=4472011 WTERMSIG 15"),
 (T_BENCH1 + timedelta(seconds=3.9), "_job_complete: JobId=4472011 done"),
 (T_ALLOC2, "sched: Allocate JobId=4471902 NodeList=gpu-h[001-005,007-012,014-018,020-024,031-033] #CPUs=2688 Partition=train"),
 (datetime(2025, 5, 20, 8, 2, 40, 551000, tzinfo=UTC), "update_node: node gpu-h006 state set to DRAINED"),
]
for k in range(int((W1 - W0).total_seconds() // 600)):
    ctl.append((W0 + timedelta(seconds=600 * k + 17.3), "SchedulerParameters=default_queue_depth=100,max_rpc_cnt=0,max_sched_time=2,partition_job_depth=0,sched_max_job_start=0,sched_min_interval=2"))
ctl.sort()
with open(OUT + "/logs/slurmctld.log", "w") as f:
    for t_, m in ctl:
        f.write(f"{sl(t_)} {m}\n")

# ---------------- the benchmark job's output (other user) ----------------
bench = [
 "gemm-sweep: host gpu-h031, 8 x NVIDIA H100 80GB HBM3, driver 535.183.01",
 # REAL line (LeStefduSud/myscripts mining/nvidia-commands.sh), PCI address adapted:
 'GPU clocks set to "(gpuClkMin 1500, gpuClkMax 1500)" for GPU 00000000:5D:00.0',
 "All done.",
]
for m in [256, 512, 1024, 2048, 4096, 8192]:
    bench.append(f"M=N=K={m:<5d} dtype=bf16  dev3 TFLOP/s={rng.normal(520, 10) * (m / 8192) ** 0.15:7.1f}")
bench.append("slurmstepd: error: *** JOB 4472011 ON gpu-h031 CANCELLED AT 2025-05-20T07:38:02 DUE TO TIME LIMIT ***")
os.makedirs(OUT + "/logs/slurm-jobs")
p = OUT + "/logs/slurm-jobs/slurm-4472011.out"
with open(p, "w") as f:
    f.write("\n".join(bench) + "\n")
os.utime(p, (ts(T_BENCH1) + 1, ts(T_BENCH1) + 1))

# ---------------- kernel (dmesg -T) and syslog per host ----------------
def dT(t):
    return "[" + t.strftime("%a %b ") + f"{t.day:2d}" + t.strftime(" %H:%M:%S %Y") + "]"
def syslog_ts(t):
    return t.strftime("%b ") + f"{t.day:2d}" + t.strftime(" %H:%M:%S")
benign_k = [
 "perf: interrupt took too long (3140 > 3132), lowering kernel.perf_event_max_sample_rate to 63500",
 "mlx5_core 0000:0c:00.0: mlx5e_ethtool_get_link_ksettings: query port ptys failed: -5",
 "hrtimer: interrupt took 5692433 ns",
]
for h in hosts:
    d = os.path.join(OUT, "logs", h); os.makedirs(d)
    kl, sy = [], []
    pid_slurmd = int(rng.integers(1800, 3000))
    t = W0 - timedelta(minutes=rng.uniform(5, 25))
    perf_v = int(rng.integers(2500, 3200)); loopn = int(rng.integers(3, 9))
    while t < W1:
        t += timedelta(seconds=float(rng.exponential(240)))
        r = rng.random()
        if r < 0.45:
            a = int(t.timestamp()); kl.append((t, f'audit: type=1400 audit({a}.{int(rng.integers(100,999))}:{int(rng.integers(300,900))}): apparmor="DENIED" operation="open" class="file" profile="snap.lxd.activate" name="/proc/{int(rng.integers(1000,90000))}/mountinfo" pid={int(rng.integers(1000,90000))} comm="snap-exec" requested_mask="r" denied_mask="r" fsuid=0 ouid=0'))
        elif r < 0.55:
            nv = perf_v + int(rng.integers(5, 40))
            kl.append((t, f"perf: interrupt took too long ({nv} > {perf_v}), lowering kernel.perf_event_max_sample_rate to {int(25000000 / nv) // 250 * 250}")); perf_v = nv
        elif r < 0.7:
            kl.append((t, f"hrtimer: interrupt took {int(rng.integers(80000, 900000))} ns"))
        else:
            loopn += 1; kl.append((t, f"loop{loopn}: detected capacity change from 0 to {int(rng.choice([8, 113560, 129600, 155624]))}"))
    # job starts: nvswitch opens + peermem
    starts = []
    if h in set1: starts.append(W0 - timedelta(hours=1, minutes=30))
    if h in set2: starts.append(T_ALLOC2 + timedelta(seconds=40))
    if h == BAD_HOST: starts.append(T_BENCH0 + timedelta(seconds=30))
    for s in starts:
        for sw in range(4):
            for k in range(2):
                kl.append((s + timedelta(milliseconds=3 * (sw * 2 + k)), f"nvidia-nvswitch{sw}: open (major=510)"))
    # syslog
    t = W0
    while t < W1:
        t += timedelta(seconds=float(rng.exponential(75)))
        r = rng.random()
        if r < 0.35:
            sy.append((t, f"CRON[{int(rng.integers(10000,99999))}]: (root) CMD (/usr/local/sbin/node-health-lite >/dev/null 2>&1)"))
        elif r < 0.55:
            sy.append((t, f"systemd[1]: Started Session {int(rng.integers(1000,9000))} of User root."))
        elif r < 0.7:
            sy.append((t, f"systemd-logind[1544]: Session {int(rng.integers(1000,9000))} logged out. Waiting for processes to exit."))
        elif r < 0.85:
            sy.append((t, f"chronyd[1311]: Selected source 10.31.0.{int(rng.integers(2,4))} (ntp1.cluster.local)"))
        else:
            sy.append((t, f"nv-hostengine[2291]: DCGM: profiling module watching 14 fields for 8 GPUs"))
    if h in set1:
        sy.append((T_REQ + timedelta(seconds=0.2), f"slurmd[{pid_slurmd}]: slurmd: Job 4471902: sending SIGTERM to step 4471902.0 due to requeue"))
    if h in set2:
        sy.append((T_ALLOC2 + timedelta(seconds=1.2), f"slurmd[{pid_slurmd}]: slurmd: launch task StepId=4471902.0 request from UID:1043 GID:1043 HOST:10.31.0.2 PORT:50321"))
    if h == BAD_HOST:
        sy.append((T_BENCH0 + timedelta(seconds=1.1), f"slurmd[{pid_slurmd}]: slurmd: Launching batch job 4472011 for UID 1187"))
        sy.append((T_BENCH1 + timedelta(seconds=0.1), f"slurmd[{pid_slurmd}]: slurmd: Job 4472011: timeout: sending SIGTERM"))
        sy.append((T_QCAP - timedelta(seconds=5), f"sshd[{int(rng.integers(40000,60000))}]: Accepted publickey for oncall from 10.31.0.9 port 52214 ssh2: ED25519 SHA256:Xr1Rk3y0Nq0hYp6l2mQvS0d1r8y4bT1cUo9z5fK2aLw"))
    kl.sort(); sy.sort()
    with open(os.path.join(d, "dmesg.txt"), "w") as f:
        for t_, m in kl:
            f.write(f"{dT(t_)} {m}\n")
    with open(os.path.join(d, "syslog"), "w") as f:
        for t_, m in sy:
            f.write(f"{syslog_ts(t_)} {h} {m}\n")

# ---------------- nvidia-smi -q -d PERFORMANCE captured by on-call on gpu-h031 ----------------
q = ["", "==============NVSMI LOG==============", "",
     "Timestamp                                 : " + T_QCAP.strftime("%a %b ") + f"{T_QCAP.day:2d}" + T_QCAP.strftime(" %H:%M:%S %Y"),
     "Driver Version                            : 535.183.01", "CUDA Version                              : 12.2", "",
     "Attached GPUs                             : 8"]
for g in range(8):
    q.append(f"GPU {PCI[g]}")
    q.append("    Performance State               : P0")
    q.append("    Clocks Throttle Reasons")
    q.append("        Idle                        : Not Active")
    if g == BAD_GPU:
        q.append("        Applications Clocks Setting : Active")   # REAL line (xCAT doc nvidia-smi -q)
    else:
        q.append("        Applications Clocks Setting : Not Active")
    q.append("        SW Power Cap                : " + ("Active" if g in (1, 6) else "Not Active"))
    q.append("        HW Slowdown                 : Not Active")
    q.append("            HW Thermal Slowdown     : Not Active")
    q.append("            HW Power Brake Slowdown : Not Active")
    q.append("        Sync Boost                  : Not Active")
    q.append("        SW Thermal Slowdown         : Not Active")
    q.append("")
p = os.path.join(OUT, "logs", BAD_HOST, "nvidia-smi-q-d-PERFORMANCE.txt")
with open(p, "w") as f:
    f.write("\n".join(q) + "\n")
os.utime(p, (ts(T_QCAP) + 1, ts(T_QCAP) + 1))

# ---------------- incident.yaml ----------------
inc = {
 "id": ID,
 "title": "llm-13b-v3 pretraining ~10% slower after the 07:44 requeue onto a new node set",
 "window": {"start": W0.isoformat(), "end": W1.isoformat()},
 "baseline": {"start": (W0 + timedelta(minutes=5)).isoformat(), "end": datetime(2025, 5, 20, 7, 25, tzinfo=UTC).isoformat()},
 "primary_signal": "throughput",
 "cluster": {"name": "hopper-a", "nodes": 40, "gpus_per_node": 8, "gpu_model": "H100"},
 "signal_pack": "default",
 "trainer": {"logs": ["logs/trainer/*.jsonl"], "seq_length": SEQ, "global_batch_size": GBS, "gpus": NGPU, "host": "gpu-h001"},
}
with open(OUT + "/incident.yaml", "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

# ---------------- truth ----------------
tr = [json.loads(s) for s in lines if '"train_step"' in s]
b = [x["tokens_per_sec"] for x in tr if x["timestamp"] < "2025-05-20T07:25"]
a = [x["tokens_per_sec"] for x in tr if x["timestamp"] > "2025-05-20T07:55"]
loss_pct = round(100 * (1 - np.median(a) / np.median(b)), 1)
truth = {
 "id": ID,
 "cause": "GPU 3 of gpu-h031 was left with its graphics clock locked at 1500 MHz by another user's benchmark job "
          "(sudo nvidia-smi -i 3 -lgc 1500, never reset because the job was killed at its time limit), and when the "
          "requeued pretraining job was placed on gpu-h031 that one slow GPU set the pace of every synchronous step.",
 "cause_metrics": ["DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "DCGM_FI_DEV_POWER_USAGE",
                   "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"],
 "cause_log_evidence": [
   {"text": 'GPU clocks set to "(gpuClkMin 1500, gpuClkMax 1500)" for GPU 00000000:5D:00.0',
    "file": "logs/slurm-jobs/slurm-4472011.out",
    "source": "https://github.com/LeStefduSud/myscripts/blob/HEAD/mining/nvidia-commands.sh (output of `sudo nvidia-smi -i 2 -lgc 1500`, "
              "verbatim; PCI address 00000000:28:00.0 changed to 00000000:5D:00.0). The line is in a 2023 version of that file "
              "(search-index file id 42519922805); the version at commit 0ade01bec0da7f653a1e0baf8d0e5fe8ec48ac22 is a stub."},
   {"text": "        Applications Clocks Setting : Active",
    "file": "logs/gpu-h031/nvidia-smi-q-d-PERFORMANCE.txt",
    "source": "xCAT documentation, 'Verification of cuda installation' nvidia-smi -q output of a Tesla K40m "
              "(Clocks Throttle Reasons block), mirrored in GitHub repo junxiawang/xcat-doc (src/*.md; found by "
              "exact-string search, search-index file id 44112996072, path not pinned). Line verbatim; the surrounding block layout follows "
              "https://github.com/kubeflow/kubeflow/issues/68 (nvidia-smi -q | grep -A8 'Clocks Throttle'). "
              "Caveat: a 535 driver prints this section as 'Clocks Event Reasons' with wider padding."},
 ],
 "supporting_log_lines_not_copied": [
   "logs/slurmctld.log allocation/requeue lines (Slurm formats, written for this incident)"],
 "hosts": [BAD_HOST],
 "gpu": {"host": BAD_HOST, "index": BAD_GPU, "pci_bus_id": PCI[BAD_GPU], "uuid": uuids[(BAD_HOST, BAD_GPU)]},
 "onset": T_RESUME.isoformat().replace("+00:00", "Z"),
 "onset_note": "gpu-h031 joined the job at the 07:44:10 allocation; training (and the loss) resumed at 07:48:52. "
               "The clock lock itself dates from 06:21:04, while gpu-h031 ran someone else's benchmark.",
 "job_throughput_loss_pct": float(loss_pct),
 "red_herrings": ["the 07:31-07:48 gap is a planned requeue (BIOS rollout drain of gpu-h006/h013/h019), not a fault",
                  "SW power cap (0x4) bits on healthy GPUs are normal at 700 W"],
 "what_a_good_postmortem_says": (
   "After the job was requeued onto a new node set at 07:44, tokens/s fell by about "
   f"{loss_pct:.0f}% on every rank because one GPU, gpu-h031 GPU 3 (PCI 5D), ran its SM clock pinned at 1500 MHz "
   "while its peers ran ~1800-1900 MHz; its clocks-event-reasons bitmask showed 0x2 (applications clocks setting), "
   "with normal temperatures, power well under the cap and no Xid or other errors. The clocks had been locked by a "
   "previous user's benchmark job (nvidia-smi -lgc 1500) that was killed at its time limit and never reset them; "
   "the fix is nvidia-smi -rgc/-rac on that GPU and a Slurm epilog that resets clocks after every job."),
}
with open(OUT + "/truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=1000)
print("loss", loss_pct, "rows", df.height)
