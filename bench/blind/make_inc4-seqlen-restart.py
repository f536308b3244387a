#!/usr/bin/env python3
"""Generate incident inc4-seqlen-restart: a torchtitan Llama-3 8B job on 16 x 8 H100 is
cancelled and resubmitted from its latest checkpoint with seq_len 8192 (was 4096,
local batch halved). tokens/s falls ~8% on every host at once; hardware stays healthy
(GPU utilisation rises). Metrics as Parquet. Fixed seed."""
import os, math, datetime as dt, shutil
import numpy as np, polars as pl, yaml

rng = np.random.default_rng(20250610)
HERE = os.path.dirname(os.path.abspath(__file__))
ID = "inc4-seqlen-restart"
OUT = os.path.join(HERE, ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(f"{OUT}/metrics"); os.makedirs(f"{OUT}/logs/train"); os.makedirs(f"{OUT}/logs/journal")
UTC = dt.timezone.utc
T0 = dt.datetime(2025, 6, 10, 8, 30, tzinfo=UTC)
WIN, STEP = 3 * 3600, 30
STOP = T0 + dt.timedelta(minutes=97, seconds=12)       # scancel of job 7741
RESUB = T0 + dt.timedelta(minutes=103, seconds=40)     # job 7752 starts
FIRST = T0 + dt.timedelta(minutes=106, seconds=55)     # first step after checkpoint load + compile
NH, NG = 16, 8
hosts = [f"gpu-a{i:02d}" for i in range(1, NH + 1)]
ips = [f"10.20.0.{100 + i}" for i in range(1, NH + 1)]
MODEL = "NVIDIA H100 80GB HBM3"
PCI = ["00000000:19:00.0", "00000000:3B:00.0", "00000000:4C:00.0", "00000000:5D:00.0",
       "00000000:9B:00.0", "00000000:BB:00.0", "00000000:CB:00.0", "00000000:DB:00.0"]
def uuid():
    s = "".join("0123456789abcdef"[x] for x in rng.integers(0, 16, 32))
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"
UUIDS = [[uuid() for _ in range(NG)] for _ in range(NH)]
grid = [T0 + dt.timedelta(seconds=s) for s in range(0, WIN + 1, STEP)]
ph = lambda t: 0 if t < STOP else (1 if t < FIRST else 2)   # run1 / down / run2

TPS1, TPS2 = 7400.0, 6810.0          # per-GPU tokens/s, seq 4096 vs 8192
tpsg = {1: TPS1, 2: TPS2}
# ---- DCGM ----
toff = rng.normal(0, 2.0, (NH, NG)) + rng.normal(0, 1.3, (NH, 1)); poff = rng.normal(0, 11, (NH, NG))
temp = np.full((NH, NG), 58.0) + toff; E = rng.uniform(1.5e12, 2e12, (NH, NG))
nvl = rng.uniform(1e15, 3e15, (NH, NG))
rec = {k: [] for k in ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device", "modelName",
                       "pci_bus_id", "DCGM_FI_DRIVER_VERSION", "instance", "job"]}
def add(t, m, v, h, g):
    for k, x in zip(rec, [t, m, float(v), hosts[h], str(g), UUIDS[h][g], f"nvidia{g}", MODEL, PCI[g],
                          "550.127.05", f"{ips[h]}:9400", "dcgm-exporter"]):
        rec[k].append(x)
for t in grid:
    p = ph(t)
    for h in range(NH):
        for g in range(NG):
            if p == 1:
                util, pw, ten, fb = 0, 71 + rng.normal(0, 2), 0.0, 1
            elif p == 0:
                util = 100 if rng.random() < 0.72 else rng.integers(90, 100)
                pw = 602 + poff[h, g] + rng.normal(0, 20); ten = 0.43 + rng.normal(0, 0.015); fb = 63411 + rng.integers(-40, 40)
            else:
                util = 100 if rng.random() < 0.88 else rng.integers(95, 100)
                pw = 626 + poff[h, g] + rng.normal(0, 20); ten = 0.455 + rng.normal(0, 0.015); fb = 71890 + rng.integers(-40, 40)
            pw = min(pw, 699.0)
            temp[h, g] += (29 + pw * 0.05 + toff[h, g] - temp[h, g]) * 0.3
            E[h, g] += pw * STEP * 1000
            nvl[h, g] += (0 if p == 1 else (2.1e11 if p == 0 else 1.93e11) * (1 + rng.normal(0, 0.01))) * STEP / 1e3
            for m, v in (("DCGM_FI_DEV_GPU_UTIL", util), ("DCGM_FI_DEV_POWER_USAGE", round(pw, 3)),
                         ("DCGM_FI_DEV_GPU_TEMP", round(temp[h, g] + rng.normal(0, 0.4))),
                         ("DCGM_FI_DEV_MEMORY_TEMP", round(temp[h, g] - 8 + rng.normal(0, 0.4))),
                         ("DCGM_FI_DEV_SM_CLOCK", 1980), ("DCGM_FI_DEV_MEM_CLOCK", 2619),
                         ("DCGM_FI_DEV_FB_USED", fb), ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", round(max(ten, 0), 6)),
                         ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", round(E[h, g])),
                         ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", round(nvl[h, g])),
                         ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", 0), ("DCGM_FI_DEV_XID_ERRORS", 0)):
                add(t, m, v, h, g)
def write(rec, path):
    df = pl.DataFrame(rec).with_columns(pl.col("timestamp").cast(pl.Datetime("us", "UTC"))).sort(["metric", "timestamp"])
    # one row group per metric, sorted by time inside
    import pyarrow.parquet as pq
    w = None
    for part in df.partition_by("metric", maintain_order=True):
        tb = part.to_arrow()
        if w is None: w = pq.ParquetWriter(path, tb.schema, compression="zstd")
        w.write_table(tb)
    w.close()
write(rec, f"{OUT}/metrics/dcgm-exporter.parquet")

# ---- node_exporter ----
nrec = {k: [] for k in ["timestamp", "metric", "value", "instance", "job", "device", "port", "mode", "mountpoint", "fstype"]}
def nadd(t, m, v, h, device="", port="", mode="", mp="", fs=""):
    for k, x in zip(nrec, [t, m, float(v), f"{ips[h]}:9100", "node", device, port, mode, mp, fs]):
        nrec[k].append(x)
ib = rng.uniform(1e14, 3e14, (NH, 8, 2)); cpu = {m: rng.uniform(1e6, 5e7, NH) for m in ("idle", "iowait", "system", "user")}
dr = rng.uniform(1e6, 3e6, (NH, 4)); psi = rng.uniform(100, 900, NH); boot = [T0.timestamp() - rng.uniform(5, 40) * 86400 for _ in range(NH)]
for t in grid:
    p = ph(t)
    for h in range(NH):
        r = {0: 3.05e9, 1: 0.0, 2: 2.83e9}[p]
        for d in range(8):
            ib[h, d, 0] += r * (1 + rng.normal(0, 0.02)) * STEP; ib[h, d, 1] += r * (1 + rng.normal(0, 0.02)) * STEP
            nadd(t, "node_infiniband_port_data_received_bytes_total", round(ib[h, d, 0]), h, f"mlx5_{d}", "1")
            nadd(t, "node_infiniband_port_data_transmitted_bytes_total", round(ib[h, d, 1]), h, f"mlx5_{d}", "1")
        busy = 0 if p == 1 else 30
        inc = {"user": busy + rng.normal(0, 1) + 0.5, "system": 4 + rng.normal(0, 0.3), "iowait": 0.1 + rng.exponential(0.05)}
        inc["idle"] = 224 - sum(inc.values())
        for m in cpu:
            cpu[m][h] += max(inc[m], 0) * STEP; nadd(t, "node_cpu_seconds_total", round(cpu[m][h], 2), h, mode=m)
        psi[h] += (0.001 + rng.exponential(0.001)) * STEP
        nadd(t, "node_pressure_io_waiting_seconds_total", round(psi[h], 6), h)
        nadd(t, "node_load1", round(12 + rng.normal(0, 0.8) if p != 1 else 0.6 + rng.exponential(0.3), 2), h)
        nr, nw = rng.poisson(30), rng.poisson(150)
        dr[h] += [nr, nr * 0.0001, nw, nw * 0.00002]
        for m, k in (("node_disk_reads_completed_total", 0), ("node_disk_read_time_seconds_total", 1),
                     ("node_disk_writes_completed_total", 2), ("node_disk_write_time_seconds_total", 3)):
            nadd(t, m, round(dr[h, k], 3), h, "nvme0n1")
        nadd(t, "node_filesystem_avail_bytes", 1.66e12 - h * 2e9, h, "/dev/nvme0n1p2", mp="/", fs="ext4")
        nadd(t, "node_filesystem_avail_bytes", 3.1e14 - (t - T0).total_seconds() * 2e5, h, "weka01/home", mp="/mnt/weka", fs="wekafs")
        nadd(t, "node_boot_time_seconds", round(boot[h]), h)
write(nrec, f"{OUT}/metrics/node-exporter.parquet")

# ---- trainer gauges + log ----
trec = {k: [] for k in ["timestamp", "metric", "value", "instance", "job"]}
steps = []   # (time, step, seq, tps_gpu)
t, s = T0 - dt.timedelta(minutes=40), 0
TOKSTEP = 128 * 2 * 4096     # global tokens per step (unchanged: 128 GPUs x lbs 2 x 4096 == 128 x 1 x 8192)
while t < STOP:
    tp = TPS1 * (1 + rng.normal(0, 0.006)); t += dt.timedelta(seconds=TOKSTEP / (tp * 128)); s += 1
    if t < STOP: steps.append((t, s, 4096, tp))
last_ckpt = (steps[-1][1] // 500) * 500
t, s = FIRST, last_ckpt
while t < T0 + dt.timedelta(seconds=WIN + 30):
    tp = TPS2 * (1 + rng.normal(0, 0.006)); t += dt.timedelta(seconds=TOKSTEP / (tp * 128)); s += 1
    steps.append((t, s, 8192, tp))
for g in grid:
    w = [x for x in steps if g - dt.timedelta(seconds=STEP) < x[0] <= g]
    if not w: continue
    tp = float(np.mean([x[3] for x in w])) * 128
    for m, v in (("trainer_tokens_per_second", round(tp, 1)), ("trainer_step_time_seconds", round(TOKSTEP / tp, 4)),
                 ("trainer_iteration", w[-1][1])):
        for k, x in zip(trec, [g, m, float(v), f"{ips[0]}:9464", "torchtitan-llama3-8b"]): trec[k].append(x)
write(trec, f"{OUT}/metrics/trainer.parquet")

def ckpt_plus40(st): return last_ckpt + 40
def stamp(t): return t.strftime("%Y-%m-%d %H:%M:%S,") + f"{t.microsecond // 1000:03d}"
def run_log(job, start, first, seq, lbs, ckpt, endt, cancelled):
    L = []
    def I(t, msg): L.append(f"[rank0]:[titan] {stamp(t + dt.timedelta(milliseconds=int(rng.integers(0, 900))))} - root - INFO - {msg}")
    L.append(f"+ srun --nodes=16 --ntasks-per-node=1 torchrun --nnodes 16 --nproc_per_node 8 --rdzv_backend c10d "
             f"--rdzv_endpoint gpu-a01:29500 --local-ranks-filter 0 --role rank --tee 3 -m torchtitan.train "
             f"--job.config_file ./torchtitan/models/llama3/train_configs/llama3_8b.toml "
             f"--training.seq_len {seq} --training.local_batch_size {lbs} --checkpoint.enable_checkpoint "
             f"--checkpoint.folder /mnt/weka/ckpt/llama3-8b-fw")
    I(start + dt.timedelta(seconds=21), "Starting job: Llama 3 8B training")
    I(start + dt.timedelta(seconds=23), "Building 1-D device mesh with ['dp_shard'], [128]")
    I(start + dt.timedelta(seconds=24), "[GC] Initial GC collection. 0.00 seconds.")
    I(start + dt.timedelta(seconds=31), f"Preparing c4 dataset from /mnt/weka/data/fineweb-edu")
    I(start + dt.timedelta(seconds=38), f"Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len={seq}, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")
    I(start + dt.timedelta(seconds=40), "Model llama3 8B size: 8,030,261,248 total parameters")
    I(start + dt.timedelta(seconds=41), "Applied selective activation checkpointing to the model")
    I(start + dt.timedelta(seconds=41), "Applied FSDP to the model")
    I(start + dt.timedelta(seconds=44), "CUDA memory usage for model: 3.77GiB(3.97%)")
    if ckpt:
        I(start + dt.timedelta(seconds=46), f"Loading the checkpoint at step {ckpt}.")
        I(start + dt.timedelta(seconds=101), "Finished loading the checkpoint in 54.87 seconds.")
    I(first - dt.timedelta(seconds=40), f"Trainer is initialized with local batch size {lbs}, global batch size {lbs * 128}, gradient accumulation steps 1, sequence length {seq}, total steps 30000 (warmup 2000).")
    I(first - dt.timedelta(seconds=40), f"Training starts at step {(ckpt or 0) + 1}.")
    for (tt, st, sq, tp) in steps:
        if sq != seq or tt < first or tt > endt: continue
        if st % 10 and st != (ckpt or 0) + 1: continue
        loss = 2.36 - 0.00001 * (st - 1000) + (0.03 if seq == 8192 and st < ckpt_plus40(st) else 0) + rng.normal(0, 0.02)
        mem = 58.71 if seq == 4096 else 67.02
        mfu = tp * (6 * 8.03e9 + 12 * 32 * 4096 * seq) / 989e12 * 100
        I(tt, f"step: {st:2d}  loss: {loss:7.4f}  grad_norm: {0.26 + abs(rng.normal(0, 0.03)):7.4f}  memory: {mem:5.2f}GiB({mem / 95 * 100:.2f}%)  "
              f"tps: {tp:,.0f}  tflops: {mfu * 9.89:,.2f}  mfu: {mfu:.2f}%")
        if st % 500 == 0:
            I(tt, "Saving the checkpoint (or staging if async is enabled).")
            I(tt + dt.timedelta(seconds=9), "Finished saving the checkpoint (or staging if async is enabled)in 8.96 seconds.")
    if cancelled:
        L.append(f"slurmstepd: error: *** JOB {job} ON gpu-a01 CANCELLED AT {STOP.strftime('%Y-%m-%dT%H:%M:%S')} ***")
        L.append("W0610 10:07:12.418000 2281904 torch/distributed/elastic/agent/server/api.py:719] Received Signals.SIGTERM death signal, shutting down workers")
    return L
open(f"{OUT}/logs/train/llama3-8b-7741.out", "w").write("\n".join(run_log(7741, T0 - dt.timedelta(minutes=43), T0 - dt.timedelta(minutes=40), 4096, 2, 0, STOP, True)) + "\n")
open(f"{OUT}/logs/train/llama3-8b-7752.out", "w").write("\n".join(run_log(7752, RESUB, FIRST, 8192, 1, last_ckpt, T0 + dt.timedelta(seconds=WIN), False)) + "\n")

# ---- kernel journals (journalctl -k -o short-iso), benign only ----
BEN = ["perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
       "hrtimer: interrupt took 15207 ns",
       "process 'opt/conda/bin/python3.11' started with executable stack",
       "clocksource: Long readout interval, skipping watchdog check: cs_nsec: 1584036171 wd_nsec: 1584036160",
       "nvidia-nvswitch1: open (major=509)",
       "audit: type=1400 audit(%d.412:%d): apparmor=\"STATUS\" operation=\"profile_replace\" info=\"same as current profile, skipping\" profile=\"unconfined\" name=\"nvidia_modprobe\" pid=%d comm=\"apparmor_parser\""]
for h in range(NH):
    ev = []; t = T0 - dt.timedelta(minutes=20)
    while t < T0 + dt.timedelta(seconds=WIN):
        t += dt.timedelta(seconds=float(rng.exponential(1100)))
        m = str(rng.choice(BEN))
        if "%d" in m: m = m % (int(t.timestamp()), rng.integers(100, 999), rng.integers(100000, 999999))
        ev.append((t, m))
    # the job's restart leaves the usual traces: the UVM / peermem modules stay, nothing else
    with open(f"{OUT}/logs/journal/{hosts[h]}.log", "w") as f:
        for t, m in sorted(ev):
            f.write(f"{t.strftime('%Y-%m-%dT%H:%M:%S')}+00:00 {hosts[h]} kernel: {m}\n")

def ts(t): return t.strftime("%Y-%m-%dT%H:%M:%S+00:00")
tp_tr = pl.DataFrame(trec).filter(pl.col("metric") == "trainer_tokens_per_second")
b = tp_tr.filter(pl.col("timestamp") < STOP)["value"].mean(); a = tp_tr.filter(pl.col("timestamp") > FIRST + dt.timedelta(minutes=2))["value"].mean()
loss = round((b - a) / b * 100, 1)
yaml.safe_dump({"id": ID, "title": "Llama-3 8B pretraining slower after the 10:07 restart",
                "window": {"start": ts(T0), "end": ts(T0 + dt.timedelta(seconds=WIN))},
                "baseline": {"start": ts(T0), "end": ts(T0 + dt.timedelta(minutes=60))},
                "primary_signal": "throughput",
                "cluster": {"name": "a-h100", "nodes": NH, "gpus_per_node": NG, "gpu_model": "H100"},
                "trainer": {"gpus": NH * NG, "host": "gpu-a01"}},
               open(f"{OUT}/incident.yaml", "w"), sort_keys=False)
yaml.safe_dump({"id": ID,
    "cause": f"The job was cancelled and resubmitted from its step-{last_ckpt} checkpoint with seq_len 8192 instead of 4096 (local batch 2 -> 1, same tokens per step); the longer sequences' extra attention work lowers tokens/s by about 8% on every GPU, with no hardware fault.",
    "cause_metrics": [], "cause_log_evidence": [
        {"text": f"--training.seq_len 8192 --training.local_batch_size 1 (launch line of job 7752) vs --training.seq_len 4096 --training.local_batch_size 2 (job 7741); 'Loading the checkpoint at step {last_ckpt}.'; 'Trainer is initialized with ... sequence length 8192'",
         "source": "the job's own output (logs/train/*.out); no kernel or hardware fault line exists in this incident"}],
    "hosts": [], "gpu": None, "onset": ts(FIRST), "job_throughput_loss_pct": loss,
    "what_a_good_postmortem_says": (f"Throughput fell about {loss}% on all 16 hosts at once when job 7752 resumed from the step-{last_ckpt} checkpoint at {FIRST.strftime('%H:%M')} UTC, after job 7741 was cancelled at {STOP.strftime('%H:%M')}. "
        "No hardware signal explains it: GPU utilisation, power and memory use rose, clocks, temperatures, Xid, PCIe and InfiniBand counters stayed healthy and the kernel logs are clean. "
        "The cause is the job's own change (seq_len 4096 -> 8192); the postmortem should name no hardware cause and point at that config change and its expected cost.")},
    open(f"{OUT}/truth.yaml", "w"), sort_keys=False, width=200)
print(ID, "loss", loss)
