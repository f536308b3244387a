#!/usr/bin/env python3
"""Incident: shared Lustre checkpoint filesystem fills up; DCP save fails with ENOSPC on all ranks.
Writes ./inc13-lustre-ckpt-enospc/ beside this script. Fixed seed."""
import os, sys, shutil, math
import numpy as np, polars as pl, yaml
from datetime import datetime, timedelta
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from inc13_common import ts, scrape_times, interval_overlap, inside, counter, long_frame, UTC

ID = "inc13-lustre-ckpt-enospc"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
rng = np.random.default_rng(1313)

HOSTS = [f"h100-c07-n{i:02d}" for i in range(1, 25)]
NG = 8
W0, W1 = ts("2025-06-11T00:30:00Z").timestamp(), ts("2025-06-11T06:30:00Z").timestamp()
SCR = 30.0
JOB_A, JOB_B = 771204, 771390
A_START = ts("2025-06-10T19:05:12Z").timestamp()
STEP_T = 2.45          # s per step, steady
CKPT_EVERY = 250
TOK_PER_GPU_STEP = 2 * 8192
NGPU = len(HOSTS) * NG
CKPT_BYTES = 96.6e9    # DCP shards of an 8B model + AdamW state (fp32), all ranks together

# ---------------------------------------------------------------- job simulation
def run_job(t_init_done, first_step, stop_at=None, crash_after_time=None):
    """Simulate steps; returns list of (step, t_end), ckpt list (step, t0, t1, ok)."""
    steps, ckpts = [], []
    t, s = t_init_done, first_step
    while True:
        dt = STEP_T * (1 + rng.normal(0, 0.006)) + (0.9 if rng.random() < 0.004 else 0.0)
        t += dt
        if stop_at is not None and t > stop_at:
            break
        steps.append((s, t))
        if s % CKPT_EVERY == 0:
            dur = rng.uniform(38, 52)
            if crash_after_time is not None and t > crash_after_time:
                ckpts.append((s, t, t + 21.7, False))
                return steps, ckpts, t + 21.7
            ckpts.append((s, t, t + dur, True))
            t += dur
        s += 1
    return steps, ckpts, None

stepsA, ckA, t_fail = run_job(A_START + 231.0, 1, crash_after_time=ts("2025-06-11T04:45:00Z").timestamp())
S_FAIL = ckA[-1][0]
S_GOOD = ckA[-2][0]
T_EXIT = t_fail + 9.0                       # all ranks gone, srun done
T_FREE0 = ts("2025-06-11T05:19:40Z").timestamp()   # operator rm -rf old checkpoints
T_FREE1 = T_FREE0 + 380
B_SUB = ts("2025-06-11T05:31:36Z").timestamp()
B_START = B_SUB + 2.0
B_LOAD0 = B_START + 58.0
B_LOAD1 = B_LOAD0 + 71.3
stepsB, ckB, _ = run_job(B_LOAD1 + 6.0, S_GOOD + 1, stop_at=W1 + 600)

# ---------------------------------------------------------------- GPU activity state
def gpu_state(t):
    """returns train (0..1 fraction of the scrape period computing), ckpt flag, up(processes present)."""
    aA = (t >= A_START + 231) & (t < t_fail)
    aB = (t >= B_LOAD1 + 6.0)
    ck = [(c[1], c[2]) for c in ckA + ckB]
    inck = inside(t, [c[0] for c in ck], [c[1] for c in ck])
    train = (aA | aB) & ~inck
    procs = ((t >= A_START) & (t < T_EXIT)) | (t >= B_START + 20)
    loading = (t >= B_LOAD0) & (t < B_LOAD1 + 6)
    return train, inck, procs, loading

# ---------------------------------------------------------------- DCGM
DRIVER = "550.127.08"
BUS = ["18", "2A", "3A", "5D", "9A", "AB", "BA", "DB"]
rows_dcgm = []
host_times = scrape_times(rng, W0, W1, SCR, len(HOSTS))
host_times_node = scrape_times(rng, W0, W1, SCR, len(HOSTS))
for hi, h in enumerate(HOSTS):
    t = host_times[hi]
    train, inck, procs, loading = gpu_state(t)
    host_pwr = rng.normal(0, 12)
    host_temp = rng.normal(0, 2.5) + (3.0 if hi in (6, 7, 17) else 0)   # rack position
    for g in range(NG):
        uuid = "GPU-%08x-%04x-%04x-%04x-%012x" % tuple(int(x) for x in (rng.integers(0, 2**32), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**48)))
        lab = dict(gpu=str(g), UUID=uuid, pci_bus_id=f"00000000:{BUS[g]}:00.0", device=f"nvidia{g}",
                   modelName="NVIDIA H100 80GB HBM3", Hostname=h, DCGM_FI_DRIVER_VERSION=DRIVER,
                   instance=f"{h}:9400", job="dcgm-exporter")
        n = t.size
        gp = host_pwr + rng.normal(0, 18)
        gt = host_temp + rng.normal(0, 2.0) + (2.5 if g in (3, 4) else 0)
        util = np.where(train, np.clip(rng.normal(99, 1.2, n), 0, 100), 0.0)
        util = np.where(inck, rng.uniform(0, 14, n), util)
        util = np.where(loading, rng.uniform(0, 25, n), util)
        util = np.round(util)
        pw = np.where(train, 612 + gp + rng.normal(0, 28, n), np.where(procs, 118 + rng.normal(0, 6, n), 71 + rng.normal(0, 1.5, n)))
        pw = np.where(inck, 132 + rng.normal(0, 10, n), pw)
        pw = np.clip(pw, 60, 700)
        # temperatures follow power with lag
        temp = np.empty(n); mt = np.empty(n)
        cur = 62 + gt; curm = 70 + gt
        for i in range(n):
            target = 31 + gt + 0.055 * (pw[i] - 70)
            cur += (target - cur) * 0.45
            curm += (target + 8 - curm) * 0.35
            temp[i], mt[i] = cur, curm
        temp = np.round(temp + rng.normal(0, 0.4, n)); mt = np.round(mt + rng.normal(0, 0.4, n))
        smclk = np.where(train, 1980 - np.clip(pw - 640, 0, None) * 1.6 + rng.normal(0, 8, n), 1980.0)
        smclk = np.where(~procs, 345.0, smclk)
        smclk = np.minimum(np.round(smclk / 15) * 15, 1980)
        memclk = np.full(n, 2619.0)
        fb_used = np.where(procs, 64420 + hi * 3 + g * 11 + rng.normal(0, 30, n), 0.0)
        fb_used = np.where((t >= B_START) & (t < B_LOAD1) , np.minimum(fb_used, 4100 + (t - B_START) * 200), fb_used)
        fb_used = np.round(np.clip(fb_used, 0, 80000))
        fb_res = np.full(n, 564.0)
        fb_free = 81559 - fb_res - fb_used
        energy = counter(rng, t, pw * 1000, 3.9e12 + rng.uniform(0, 3e11))
        nvl = counter(rng, t, np.where(train, 1.1e5 + rng.normal(0, 4e3, n), np.where(inck, 2e3, 0)), rng.uniform(1e11, 3e11))
        replay = np.full(n, float([0, 0, 0, 2, 0, 0, 0, 0][g] + (5 if (hi == 13 and g == 6) else 0)))
        gr = np.where(train, np.clip(rng.normal(0.965, 0.012, n), 0, 1), util / 100 * 0.8)
        tens = np.where(train, np.clip(rng.normal(0.47, 0.02, n), 0, 1), 0.0)
        dram = np.where(train, np.clip(rng.normal(0.36, 0.02, n), 0, 1), np.where(inck, 0.04, 0.0))
        ptx = np.where(train, rng.normal(1.3e8, 2e7, n), np.where(inck, rng.normal(6.8e9, 6e8, n), 2.1e6))
        prx = np.where(train, rng.normal(3.9e8, 4e7, n), np.where(inck, rng.normal(4.1e8, 5e7, n), 1.9e6))
        for m, v in [("DCGM_FI_DEV_SM_CLOCK", smclk), ("DCGM_FI_DEV_MEM_CLOCK", memclk),
                     ("DCGM_FI_DEV_MEMORY_TEMP", mt), ("DCGM_FI_DEV_GPU_TEMP", temp),
                     ("DCGM_FI_DEV_POWER_USAGE", np.round(pw, 3)), ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", np.round(energy)),
                     ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", replay), ("DCGM_FI_DEV_GPU_UTIL", util),
                     ("DCGM_FI_DEV_MEM_COPY_UTIL", np.round(np.where(train, rng.normal(38, 3, n), util * 0.2))),
                     ("DCGM_FI_DEV_XID_ERRORS", np.zeros(n)),
                     ("DCGM_FI_DEV_FB_FREE", fb_free), ("DCGM_FI_DEV_FB_USED", fb_used), ("DCGM_FI_DEV_FB_RESERVED", fb_res),
                     ("DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.round(nvl)),
                     ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", np.round(gr, 6)), ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.round(tens, 6)),
                     ("DCGM_FI_PROF_DRAM_ACTIVE", np.round(dram, 6)),
                     ("DCGM_FI_PROF_PCIE_TX_BYTES", np.round(np.clip(ptx, 0, None))), ("DCGM_FI_PROF_PCIE_RX_BYTES", np.round(np.clip(prx, 0, None)))]:
            rows_dcgm.append(dict(timestamp=t, metric=m, value=v, **lab))
DCGM_LABELS = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION", "instance", "job"]

# ---------------------------------------------------------------- Lustre usage model
FS_SIZE = 131.94e12
LUSTRE_DEV = "10.20.8.11@o2ib:10.20.8.12@o2ib:/proj"
def ckpt_written(tq):
    """bytes of this job's checkpoints on /lustre/proj at times tq (written linearly during each save)."""
    b = np.zeros_like(tq)
    for (s, c0, c1, ok) in ckA + ckB:
        frac = np.clip((tq - c0) / (c1 - c0), 0, 1)
        b += frac * (CKPT_BYTES if ok else 0.62 * CKPT_BYTES)
    return b
def others(tq):
    # other tenants: steady 55 GB/h + a preprocessing job writing ~0.34 TB/h from 01:12 to 04:36
    base = 55e9 / 3600 * (tq - W0)
    p0, p1 = ts("2025-06-11T01:12:00Z").timestamp(), ts("2025-06-11T04:36:00Z").timestamp()
    pre = 0.34e12 / 3600 * np.clip(np.minimum(tq, p1) - p0, 0, None)
    return base + pre + 4e9 * np.sin((tq - W0) / 1700.0)
def freed(tq):
    # operator removes step-250..step-(S_GOOD-1000) plus the partial failed save
    nrm = len([c for c in ckA if c[3] and c[0] <= S_GOOD - 1000])
    tot = nrm * CKPT_BYTES + 0.62 * CKPT_BYTES
    return tot * np.clip((tq - T_FREE0) / (T_FREE1 - T_FREE0), 0, 1) ** 0.7
# pick starting avail so that the failed save sees ~0.19 TB left when it starts
tf0 = np.array([ckA[-1][1]])
A_AT_W0 = 0.19e12 + (ckpt_written(tf0) - ckpt_written(np.array([W0])))[0] + (others(tf0) - others(np.array([W0])))[0]
def avail(tq):
    return A_AT_W0 - (ckpt_written(tq) - ckpt_written(np.array([W0]))[0]) - (others(tq) - others(np.array([W0]))[0]) + freed(tq)

# ---------------------------------------------------------------- node_exporter
rows_node = []
IBDEV = [f"mlx5_{i}" for i in range(9)]
for hi, h in enumerate(HOSTS):
    t = host_times_node[hi]
    n = t.size
    train, inck, procs, loading = gpu_state(t)
    lab0 = dict(instance=f"{h}:9100", job="node")
    av = avail(t - rng.uniform(0, 1.0, n))               # statfs cache age
    av = np.clip(np.round(av / 4096) * 4096, 0, None)
    fsl = dict(device=LUSTRE_DEV, fstype="lustre", mountpoint="/lustre/proj")
    rows_node += [dict(timestamp=t, metric="node_filesystem_avail_bytes", value=av, **lab0, **fsl),
                  dict(timestamp=t, metric="node_filesystem_free_bytes", value=av + 0.0, **lab0, **fsl),
                  dict(timestamp=t, metric="node_filesystem_size_bytes", value=np.full(n, FS_SIZE), **lab0, **fsl),
                  dict(timestamp=t, metric="node_filesystem_files_free", value=np.round(1.92e9 - (t - W0) * 2.1 + freed(t) / 1e8), **lab0, **fsl),
                  dict(timestamp=t, metric="node_filesystem_files", value=np.full(n, 2.147e9), **lab0, **fsl),
                  dict(timestamp=t, metric="node_filesystem_readonly", value=np.zeros(n), **lab0, **fsl)]
    root = dict(device="/dev/md0", fstype="ext4", mountpoint="/")
    rav = 1.41e12 - hi * 3.3e9 - (t - W0) * 2.2e3
    rows_node += [dict(timestamp=t, metric="node_filesystem_avail_bytes", value=np.round(rav / 4096) * 4096, **lab0, **root),
                  dict(timestamp=t, metric="node_filesystem_size_bytes", value=np.full(n, 1.888e12), **lab0, **root)]
    scr = dict(device="/dev/md1", fstype="xfs", mountpoint="/raid")
    sav = 27.1e12 - hi * 1.1e11 - np.where(t > B_START, 3.0e9, 0)
    rows_node += [dict(timestamp=t, metric="node_filesystem_avail_bytes", value=sav, **lab0, **scr),
                  dict(timestamp=t, metric="node_filesystem_size_bytes", value=np.full(n, 30.7e12), **lab0, **scr)]
    load = np.where(procs, 11.5 + rng.normal(0, 1.2, n), 0.4 + rng.random(n))
    load = np.where(inck, load + 6, load)
    l1 = np.convolve(load, np.ones(2) / 2, "same"); l5 = np.convolve(load, np.ones(10) / 10, "same"); l15 = np.convolve(load, np.ones(30) / 30, "same")
    rows_node += [dict(timestamp=t, metric="node_load1", value=np.round(l1, 2), **lab0),
                  dict(timestamp=t, metric="node_load5", value=np.round(l5, 2), **lab0),
                  dict(timestamp=t, metric="node_load15", value=np.round(l15, 2), **lab0),
                  dict(timestamp=t, metric="node_memory_MemTotal_bytes", value=np.full(n, 2.1617e12), **lab0),
                  dict(timestamp=t, metric="node_memory_MemAvailable_bytes", value=np.where(procs, 1.62e12, 2.04e12) + rng.normal(0, 2e9, n), **lab0),
                  dict(timestamp=t, metric="node_boot_time_seconds", value=np.full(n, float(int(ts("2025-06-02T14:11:07Z").timestamp()) + hi * 41)), **lab0),
                  dict(timestamp=t, metric="up", value=np.ones(n), **lab0)]
    for d in IBDEV:
        lab = dict(**lab0, device=d, port="1")
        if d == "mlx5_8":   # storage / LNet rail
            tx = np.where(inck, CKPT_BYTES / len(HOSTS) / 45, 2e6) + rng.normal(0, 1e5, n)
            rx = np.where(train, 4.5e7, 1e6) + rng.normal(0, 2e6, n)
        else:
            tx = np.where(train, 1.36e10, np.where(procs, 2e7, 1e4)) * (1 + rng.normal(0, 0.03, n))
            rx = tx * (1 + rng.normal(0, 0.01, n))
        rows_node += [dict(timestamp=t, metric="node_infiniband_port_data_transmitted_bytes_total", value=np.round(counter(rng, t, tx, rng.uniform(1e15, 4e15))), **lab),
                      dict(timestamp=t, metric="node_infiniband_port_data_received_bytes_total", value=np.round(counter(rng, t, rx, rng.uniform(1e15, 4e15))), **lab),
                      dict(timestamp=t, metric="node_infiniband_link_downed_total", value=np.full(n, float(rng.integers(0, 2))), **lab),
                      dict(timestamp=t, metric="node_infiniband_port_errors_received_total", value=np.zeros(n), **lab),
                      dict(timestamp=t, metric="node_infiniband_state_id", value=np.full(n, 4.0), **lab)]
NODE_LABELS = ["instance", "job", "device", "fstype", "mountpoint", "port"]

# ---------------------------------------------------------------- write metrics
if os.path.exists(OUT):
    shutil.rmtree(OUT)
os.makedirs(f"{OUT}/metrics"); os.makedirs(f"{OUT}/logs")
dcgm = long_frame(rows_dcgm, DCGM_LABELS).sort("timestamp")
dcgm.write_parquet(f"{OUT}/metrics/dcgm-exporter.parquet", compression="zstd", row_group_size=250_000)
node = long_frame(rows_node, NODE_LABELS).sort("timestamp")
node.write_parquet(f"{OUT}/metrics/node-exporter.parquet", compression="zstd", row_group_size=250_000)

# ---------------------------------------------------------------- trainer output (torchtitan under torchrun, srun)
def fmt_ts(e, sep=" ", ms=True):
    d = datetime.fromtimestamp(e, UTC)
    return d.strftime("%Y-%m-%d" + sep + "%H:%M:%S") + ("," + f"{int(d.microsecond/1000):03d}" if ms else "")
def glog_ts(e):
    d = datetime.fromtimestamp(e, UTC)
    return d.strftime("%m%d %H:%M:%S.") + f"{d.microsecond:06d}"

def titan(e, msg, rank=0):
    return f"[rank{rank}]:[titan] {fmt_ts(e)} - root - INFO - {msg}"

def step_lines(steps, ckpts, first_loss_step):
    out = []
    ckd = {c[0]: c for c in ckpts}
    last_t = None; last_s = None
    for s, te in steps:
        if s % 10 == 0 or s == first_loss_step:
            if last_t is not None:
                dt = te - last_t
                tps = TOK_PER_GPU_STEP * (s - last_s) / dt
            else:
                tps = TOK_PER_GPU_STEP / STEP_T * 0.55
            loss = 2.05 + 2.6 * math.exp(-s / 900) + 0.35 * math.exp(-s / 9000) + rng.normal(0, 0.035)
            gn = 0.21 + 0.5 * math.exp(-s / 700) + abs(rng.normal(0, 0.03))
            flops = tps * 6.1e10 / 1e12
            out.append((te, titan(te, f"step: {s:5d}  loss: {loss:7.4f}  grad_norm: {gn:7.4f}  memory: 61.25GiB(77.41%)  tps: {round(tps):,}  tflops: {flops:,.2f}  mfu: {flops/989*100:.2f}%")))
            last_t, last_s = te, s
        if s in ckd:
            c = ckd[s]
            out.append((c[1] + 0.004, titan(c[1] + 0.004, "Saving the checkpoint (or staging if async is enabled).")))
            if c[3]:
                out.append((c[2], titan(c[2], f"Finished saving the checkpoint (or staging if async is enabled)in {c[2]-c[1]:.2f} seconds.")))
                last_t = c[2] - (c[2] - c[1]) * 0.0 if False else last_t
    return out

def preamble(t0, job, nodes_start, resume_step=None):
    L = []
    L.append((t0 - 1.0, f"W{glog_ts(t0 - 1.0)[:-3]} 3817 torch/distributed/run.py:793] "))
    L[-1] = (t0 - 1.0, f"W{glog_ts(t0 - 1.0)} 3817 site-packages/torch/distributed/run.py:793] ")
    L.append((t0 - 1.0, f"W{glog_ts(t0 - 1.0)} 3817 site-packages/torch/distributed/run.py:793] *****************************************"))
    L.append((t0 - 1.0, f"W{glog_ts(t0 - 1.0)} 3817 site-packages/torch/distributed/run.py:793] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
    L.append((t0 - 1.0, f"W{glog_ts(t0 - 1.0)} 3817 site-packages/torch/distributed/run.py:793] *****************************************"))
    t = t0 + 14
    L.append((t, titan(t, "Starting job: Llama 3 8B training")))
    L.append((t + 0.3, titan(t + 0.3, "Building 2-D device mesh with ['dp_replicate', 'dp_shard'], [24, 8]")))
    L.append((t + 0.4, titan(t + 0.4, "[GC] Initial GC collection. 0.00 seconds.")))
    L.append((t + 4.1, titan(t + 4.1, "Preparing c4 dataset from /lustre/proj/datasets/c4")))
    L.append((t + 9.8, titan(t + 9.8, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)")))
    L.append((t + 10.2, titan(t + 10.2, "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory")))
    L.append((t + 10.3, titan(t + 10.3, "Model llama3 8B size: 8,030,261,248 total parameters")))
    L.append((t + 11.0, titan(t + 11.0, "Applied selective activation checkpointing to the model")))
    L.append((t + 11.5, titan(t + 11.5, "Applied FSDP to the model")))
    L.append((t + 12.9, titan(t + 12.9, "Peak FLOPS used for computing MFU: 9.890e+14")))
    L.append((t + 13.0, titan(t + 13.0, "CUDA memory usage for model: 3.77GiB(4.77%)")))
    L.append((t + 13.1, titan(t + 13.1, "Checkpointing active. Checkpoints are loaded from and saved to /lustre/proj/llm/runs/l3-8b-c4/checkpoint")))
    return L

def srun_tail(t, job, fail_ranks):
    L = []
    for ni, h in enumerate(HOSTS):
        r = ni * 8
        tt = t + 0.05 * ni
        L.append((tt, f"[rank{r}]:Traceback (most recent call last):"))
        for fr in fail_ranks:
            # verbatim lines from saforem2/ezpz docs/guides/autoretry-nodekill.md, rank numbers adapted
            L += [(tt, f"[rank{r}]:Traceback (most recent call last): (RANK {fr})"),
                  (tt, f"[rank{r}]:   File \".../torch/distributed/checkpoint/filesystem.py\", line 422, in _write_files_from_queue"),
                  (tt, f"[rank{r}]:     with create_stream(file_name, \"wb\") as stream:"),
                  (tt, f"[rank{r}]:   File \".../torch/distributed/checkpoint/filesystem.py\", line 520, in create_stream"),
                  (tt, f"[rank{r}]:     with path.open(mode) as stream:"),
                  (tt, f"[rank{r}]: OSError: [Errno 28] No space left on device")]
    te = t + 3.2
    for ni, h in enumerate(HOSTS):
        tt = te + 0.11 * ni
        pid0 = 3817 + ni * 13
        L.append((tt, f"E{glog_ts(tt)} {pid0} site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: {pid0 + 9}) of binary: /usr/bin/python"))
    L.append((te + 3.0, "Traceback (most recent call last):"))
    L.append((te + 3.0, "  File \"/usr/local/bin/torchrun\", line 8, in <module>"))
    L.append((te + 3.0, "    sys.exit(main())"))
    L.append((te + 3.0, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "))
    L.append((te + 3.0, "============================================================"))
    L.append((te + 3.0, "torchtitan/train.py FAILED"))
    L.append((te + 3.0, "------------------------------------------------------------"))
    L.append((te + 3.0, "Root Cause (first observed failure):"))
    L.append((te + 3.0, "[0]:"))
    L.append((te + 3.0, f"  time      : {datetime.fromtimestamp(te, UTC).strftime('%Y-%m-%d_%H:%M:%S')}"))
    L.append((te + 3.0, f"  host      : {HOSTS[2]}"))
    L.append((te + 3.0, f"  rank      : 23 (local_rank: 7)"))
    L.append((te + 3.0, f"  exitcode  : 1 (pid: 3862)"))
    L.append((te + 3.0, "  error_file: <N/A>"))
    L.append((te + 3.0, "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"))
    L.append((te + 3.0, "============================================================"))
    for ni, h in enumerate(HOSTS):
        L.append((te + 4.0 + 0.2 * ni, f"srun: error: {h}: task {ni}: Exited with exit code 1"))
    return L

linesA = preamble(A_START, JOB_A, HOSTS)
linesA.append((A_START + 231, titan(A_START + 231, "Training starts at step 1.")))
linesA += step_lines(stepsA, ckA, 1)
FAIL_RANKS = [23, 61, 150]
linesA += srun_tail(t_fail, JOB_A, FAIL_RANKS)
linesA.sort(key=lambda x: x[0])
with open(f"{OUT}/logs/slurm-{JOB_A}.out", "w") as f:
    for _, l in linesA:
        f.write(l + "\n")

linesB = preamble(B_START, JOB_B, HOSTS)
linesB.append((B_LOAD0, titan(B_LOAD0, f"Loading the checkpoint at step {S_GOOD}.")))
linesB.append((B_LOAD1, titan(B_LOAD1, f"Finished loading the checkpoint in {B_LOAD1-B_LOAD0:.2f} seconds.")))
linesB.append((B_LOAD1 + 0.5, titan(B_LOAD1 + 0.5, f"Training starts at step {S_GOOD + 1}.")))
linesB += step_lines([x for x in stepsB if x[1] < W1 + 300], [c for c in ckB if c[1] < W1 + 300], S_GOOD + 1)
linesB.sort(key=lambda x: x[0])
with open(f"{OUT}/logs/slurm-{JOB_B}.out", "w") as f:
    for _, l in linesB:
        f.write(l + "\n")

# ---------------------------------------------------------------- syslog per host (rsyslog RFC3164)
def sysdate(e):
    d = datetime.fromtimestamp(e, UTC)
    return d.strftime("%b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S")
for hi, h in enumerate(HOSTS):
    boot = ts("2025-06-02T14:11:07Z").timestamp() + hi * 41
    ev = []
    t = W0 - 3600
    while t < W1 + 600:
        ev.append((t, f"CRON[{rng.integers(100000, 999999)}]: (root) CMD (/usr/local/sbin/nhc-lite -q >/dev/null 2>&1)"))
        t += 300 + rng.normal(0, 0.4)
    for k in range(8):
        te = W0 + rng.uniform(-3000, 22000)
        ev.append((te, f"chronyd[1187]: Selected source 10.20.0.5 (ntp1.cluster.local)"))
    for k in range(3):
        te = W0 + rng.uniform(0, 21000)
        ev.append((te, f"systemd[1]: Starting Message of the Day..."))
        ev.append((te + 0.4, f"systemd[1]: motd-news.service: Deactivated successfully."))
        ev.append((te + 0.4, f"systemd[1]: Finished Message of the Day."))
    te = W0 + rng.uniform(1000, 20000)
    up = te - boot
    ev.append((te, f"kernel: [{up:12.6f}] perf: interrupt took too long (3132 > 3130), lowering kernel.perf_event_max_sample_rate to 63750"))
    ev.append((ts("2025-06-11T06:25:01Z").timestamp() + hi * 0.01, "systemd[1]: Starting Daily apt upgrade and clean activities..."))
    ev.append((ts("2025-06-11T06:25:02Z").timestamp() + hi * 0.01, "systemd[1]: apt-daily-upgrade.service: Deactivated successfully."))
    # job end / start
    ev.append((T_EXIT + 1.5 + hi * 0.02, f"slurmstepd[{2800 + hi}]: done with job"))
    ev.append((B_START - 0.4, f"slurmd[2119]: slurmd: launch task StepId={JOB_B}.0 request from UID:1042 GID:1042 HOST:10.20.0.11 PORT:{40000 + hi * 17}"))
    ev.append((B_START - 0.3, f"slurmd[2119]: slurmd: task/affinity: lllp_distribution: JobId={JOB_B} implicit auto binding: sockets,one_thread, dist 8192"))
    ev.append((T_EXIT + 2.0, f"kernel: [{T_EXIT + 2 - boot:12.6f}] nvidia-uvm: Unloaded the UVM driver in 8 mode" if False else f"systemd[1]: session-{9000 + hi}.scope: Deactivated successfully."))
    ev.sort(key=lambda x: x[0])
    os.makedirs(f"{OUT}/logs/{h}", exist_ok=True)
    with open(f"{OUT}/logs/{h}/syslog", "w") as f:
        for e, m in ev:
            f.write(f"{sysdate(e)} {h} {m}\n")

# slurmctld on the head node
hd = "slurm-head01"
os.makedirs(f"{OUT}/logs/{hd}", exist_ok=True)
def sct(e):
    d = datetime.fromtimestamp(e, UTC)
    return "[" + d.strftime("%Y-%m-%dT%H:%M:%S.") + f"{int(d.microsecond/1000):03d}]"
sl = [(W0 + 600, "error: Nodes h100-c02-n[05-06] not responding, setting DOWN" if False else "sched/backfill: _start_job: Started JobId=771188 in cpu on cpu-a01-n07"),
      (T_EXIT + 3.1, f"_job_complete: JobId={JOB_A} WEXITSTATUS 1"),
      (T_EXIT + 3.1, f"_job_complete: JobId={JOB_A} done"),
      (B_SUB, f"_slurm_rpc_submit_batch_job: JobId={JOB_B} InitPrio=4294901741 usec=714"),
      (B_SUB + 1.2, f"sched: Allocate JobId={JOB_B} NodeList=h100-c07-n[01-24] #CPUs=5376 Partition=train")]
with open(f"{OUT}/logs/{hd}/slurmctld.log", "w") as f:
    for e, m in sorted(sl):
        f.write(f"{sct(e)} {m}\n")

# ---------------------------------------------------------------- incident.yaml & truth.yaml
def iso(e):
    return datetime.fromtimestamp(e, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
inc = dict(id=ID, title="Llama-3 8B pretraining on h100-c07 crashed during a checkpoint save and was down ~50 min",
           window=dict(start=iso(W0), end=iso(W1)), baseline=dict(start=iso(W0), end=iso(W0 + 3600)),
           primary_signal="throughput",
           cluster=dict(name="c07-h100", nodes=len(HOSTS), gpus_per_node=NG, gpu_model="H100"))
with open(f"{OUT}/incident.yaml", "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

# throughput accounting (job-level tokens/s as the trainer's tps x GPUs)
base_rate = NGPU * TOK_PER_GPU_STEP * CKPT_EVERY / (CKPT_EVERY * STEP_T + 45.0)
n_steps_win = sum(1 for s, t in stepsA if W0 <= t < W1) + sum(1 for s, t in stepsB if W0 <= t < W1)
got = n_steps_win * NGPU * TOK_PER_GPU_STEP
loss_pct = 100 * (1 - got / (base_rate * (W1 - W0)))
redo = sum(1 for s, t in stepsB if W0 <= t < W1 and s <= S_FAIL)
eff_loss = 100 * (1 - (n_steps_win - redo) * NGPU * TOK_PER_GPU_STEP / (base_rate * (W1 - W0)))
first_b = stepsB[0][1]
truth = dict(
    id=ID,
    cause=("The shared Lustre project filesystem /lustre/proj holding the checkpoints filled up (un-pruned 97 GB "
           "DCP checkpoints every 250 steps plus another tenant's writes; an OST ran full), so the step-%d "
           "checkpoint save failed with OSError [Errno 28] No space left on device and the job crashed on all ranks." % S_FAIL),
    cause_metrics=["node_filesystem_avail_bytes", "node_filesystem_free_bytes"],
    cause_log_evidence=[
        dict(text='[rank0]:Traceback (most recent call last): (RANK 23)',
             source="https://github.com/saforem2/ezpz/blob/main/docs/guides/autoretry-nodekill.md (quoted there as 'Traceback (most recent call last): (RANK 2)'; rank numbers adapted)"),
        dict(text='[rank23]:   File ".../torch/distributed/checkpoint/filesystem.py", line 422, in _write_files_from_queue',
             source="https://github.com/saforem2/ezpz/blob/main/docs/guides/autoretry-nodekill.md (Sunspot /lus/tegu run, Lustre OSTs full)"),
        dict(text='[rank23]:     with create_stream(file_name, "wb") as stream:', source="same ezpz document"),
        dict(text='[rank23]:   File ".../torch/distributed/checkpoint/filesystem.py", line 520, in create_stream', source="same ezpz document"),
        dict(text='[rank23]:     with path.open(mode) as stream:', source="same ezpz document"),
        dict(text='[rank23]: OSError: [Errno 28] No space left on device',
             source="same ezpz document; in our file the prefix is each node's local rank 0 ([rank0]:, [rank8]:, ... [rank184]:), the launcher prefix being adapted like a GPU index"),
    ],
    context_lines_note=("torchtitan progress/checkpoint lines follow torchtitan's logger format (checkpoint messages as in "
                        "pytorch/torchtitan torchtitan/components/checkpoint.py, e.g. 'Finished saving the checkpoint (or staging if async is enabled)in 5.53 seconds.' "
                        "quoted in AICrossSim/NewComputeBench docs); torchrun's ChildFailedError summary follows the block quoted in AICrossSim/NewComputeBench "
                        "(exit code changed to 1); srun/slurmctld lines are Slurm's standard wording. These are context, not fault evidence."),
    hosts=[],
    gpu=None,
    onset=iso(ckA[-1][1]),
    crash_time=iso(t_fail),
    job_resumed_training=iso(first_b),
    downtime_minutes=round((first_b - t_fail) / 60, 1),
    filesystem_fill_start_note="node_filesystem_avail_bytes{mountpoint=\"/lustre/proj\"} falls from %.2f TB at %s to ~%.2f TB when the failing save starts (%s)" % (
        avail(np.array([W0]))[0] / 1e12, iso(W0), avail(np.array([ckA[-1][1]]))[0] / 1e12, iso(ckA[-1][1])),
    job_throughput_loss_pct=round(loss_pct, 1),
    job_throughput_loss_pct_excluding_recomputed_steps=round(eff_loss, 1),
    what_a_good_postmortem_says=(
        "The job did not slow down: it crashed at %s when the step-%d DCP checkpoint save hit ENOSPC (OSError [Errno 28]) on the "
        "shared Lustre filesystem /lustre/proj, which node_filesystem_avail_bytes shows draining to near zero on every host over the "
        "preceding four hours (un-pruned checkpoints plus other tenants' writes); no host or GPU is at fault. "
        "Throughput was zero for ~%d minutes until space was freed and the job was resubmitted from the step-%d checkpoint, losing "
        "another ~%d steps of work; the fix is checkpoint retention (keep_latest_k), a free-space/OST alert and wider striping." % (
            iso(t_fail), S_FAIL, round((first_b - t_fail) / 60), S_GOOD, S_FAIL - S_GOOD)),
)
with open(f"{OUT}/truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=120)
print("written", OUT, "fail step", S_FAIL, "crash", iso(t_fail), "resume", iso(first_b), "loss", round(loss_pct, 1))
