#!/usr/bin/env python3
"""Generate incident folder h100-nvlink-xid74-2025-08-19.

Megatron-LM GPT-40B (TP=8 inside each node, DP=18 across nodes, 144 H100) on Slurm.
From 12:58:40 UTC GPU 5 of node-2111 (PCI 0000:ab:00) has NVLink trouble: bursts of
CRC flit / CRC data errors, replays and link recoveries (DCGM NVLink error counters).
Each burst slows the node's tensor-parallel all-reduces, so every iteration of the
synchronous job takes 5-15% longer while it lasts.  At 14:02:17 the driver logs Xid 74
(NVLink fatal error) twice for that GPU, rank 85 aborts with an uncorrectable NVLink
error and the job dies; node-2111 is drained and the job is resubmitted on the spare
node-2119, running at full speed again from ~14:17.

Distractors: node-2104 always runs 4-6 C warmer than its peers (all day); a 4-minute
scrape gap on node-2115..node-2118 at 13:36 (up == 0, no samples).

Metrics: long-format CSV (timestamp in epoch milliseconds, metric, value, labels), one
file per exporter, sorted by time, 30 s scrapes.
Logs: Megatron output behind `srun --label`, dmesg -T per host, journal per host,
slurmctld.log.

Fixed seed; run:  /work/main/.venv/bin/python make_h100-nvlink-xid74-2025-08-19.py
"""
import math
import os
import shutil
from datetime import datetime, timezone

import numpy as np
import yaml

SEED = 20250819
ID = "h100-nvlink-xid74-2025-08-19"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
rng = np.random.default_rng(SEED)


def ts(s):
    return datetime.strptime(s, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()


def dt(t):
    return datetime.fromtimestamp(t, tz=timezone.utc)


# ----------------------------------------------------------------------------- timeline
JOB1 = 3318842
JOB2 = 3318907
JOB1_START = ts("2025-08-19T10:41:52")
W_START = ts("2025-08-19T12:20:00")
W_END = ts("2025-08-19T15:00:00")
BASE_END = ts("2025-08-19T12:55:00")
ONSET = ts("2025-08-19T12:58:40")
XID1 = ts("2025-08-19T14:02:17")
XID2 = ts("2025-08-19T14:02:24")
CRASH = XID1 + 1.6          # rank 85 aborts
STEP_KILLED = CRASH + 31.0  # srun gives up waiting
DRAIN = ts("2025-08-19T14:09:31")
JOB2_SUBMIT = ts("2025-08-19T14:12:37")
JOB2_START = ts("2025-08-19T14:12:40")
GAP0 = ts("2025-08-19T13:36:10")
GAP1 = ts("2025-08-19T13:40:20")

SIM0 = int(JOB1_START - 900)
SIM1 = int(W_END + 120)
NS = SIM1 - SIM0

HOSTS = [f"node-{i}" for i in range(2101, 2120)]  # 19 nodes; node-2119 is the spare
BAD, BAD_GPU, BAD_PCI = "node-2111", 5, "0000:ab:00"
WARM = "node-2104"
GAP_HOSTS = ["node-2115", "node-2116", "node-2117", "node-2118"]
RUN1 = HOSTS[:18]
RUN2 = [h for h in HOSTS if h != BAD]
PCI_BUS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]

T0 = 10.21            # nominal iteration time (s)
GBS, SEQ = 576, 4096
TFLOPS0 = 392.0
CKPT_EVERY = 250
ITER0 = 39250

# ----------------------------------------------------------------------------- NVLink bursts
# (start offset in s after ONSET, duration s, amplitude = fractional slowdown of the job)
BURSTS = [(0, 130, 0.055), (380, 120, 0.06), (720, 200, 0.07), (1130, 170, 0.075), (1450, 260, 0.085),
          (1880, 200, 0.09), (2200, 290, 0.10), (2600, 230, 0.11), (2900, 300, 0.12), (3230, 200, 0.13),
          (3450, 220, 0.14), (3690, int(XID1 - ONSET) - 3690, 0.15)]
burst = np.zeros(NS)      # instantaneous slowdown of the job
for (o, d, a) in BURSTS:
    i0 = int(ONSET - SIM0) + o
    k = np.arange(d)
    shape = np.clip(np.minimum(k / 12.0, (d - k) / 12.0), 0, 1)  # ramp in/out
    burst[i0:i0 + d] = np.maximum(burst[i0:i0 + d], a * shape * rng.uniform(0.85, 1.15, d))


def run_iters(t_first, it0, t_stop):
    iters, ckpts = [], []
    t = t_first
    it = it0
    while True:
        it += 1
        T = T0 * math.exp(rng.normal(0, 0.006))
        if it == it0 + 1:
            T += 14.0
        i0, i1 = int(t - SIM0), int(t + T - SIM0) + 1
        slow = burst[max(0, i0):max(0, min(NS, i1))].mean() if i1 > i0 else 0.0
        T *= 1 + slow
        if t + T > t_stop:
            break
        iters.append((it, t, t + T, slow))
        t += T
        if it % CKPT_EVERY == 0:
            d = rng.uniform(26.0, 34.0)
            ckpts.append((it, t, t + d))
            t += d
    return iters, ckpts


RUN1_FIRST = JOB1_START + 229.0
iters1, ckpts1 = run_iters(RUN1_FIRST, ITER0, CRASH)
last1 = iters1[-1][0]
resume2 = max(c[0] for c in ckpts1)
RUN2_FIRST = JOB2_START + 226.0
iters2, ckpts2 = run_iters(RUN2_FIRST, resume2, W_END + 100)

# ----------------------------------------------------------------------------- per-second state
state = {h: np.zeros(NS, dtype=np.int8) for h in HOSTS}
rel = np.ones(NS)


def mark(hosts, t_start, t_first, iters, ckpts, t_stop):
    for h in hosts:
        state[h][int(t_start - SIM0):int(t_first - SIM0)] = 1
    for (_, s0, s1, _) in iters:
        i0, i1 = int(s0 - SIM0), int(s1 - SIM0) + 1
        rel[i0:i1] = min(1.0, T0 / (s1 - s0))
        for h in hosts:
            state[h][i0:i1] = 2
    for (_, c0, c1) in ckpts:
        for h in hosts:
            state[h][int(c0 - SIM0):int(c1 - SIM0)] = 3
    for h in hosts:
        state[h][int(t_stop - SIM0):] = 0


mark(RUN1, JOB1_START, RUN1_FIRST, iters1, ckpts1, STEP_KILLED)
mark(RUN2, JOB2_START, RUN2_FIRST, iters2, ckpts2, SIM1)

hostc = {}
for h in HOSTS:
    warm = h == WARM
    hostc[h] = dict(
        inlet=rng.normal(23.0, 1.0) + (3.4 if warm else 0.0),
        phase_dcgm=rng.uniform(0, 30), phase_node=rng.uniform(0, 30),
        uuids=[f"GPU-{rng.integers(0, 2**32):08x}-{rng.integers(0, 2**16):04x}-{rng.integers(0, 2**16):04x}-"
               f"{rng.integers(0, 2**16):04x}-{rng.integers(0, 2**48):012x}" for _ in range(8)],
        pbase=rng.normal(618, 15, 8).clip(580, 665),
        pidle=rng.normal(71, 3, 8),
        toff=rng.normal(0, 1.6, 8) + (rng.uniform(0.2, 1.0, 8) if warm else 0.0),
        moff=rng.normal(6.0, 1.4, 8),
        pcap=rng.uniform(0.0, 0.12, 8),
        tens=rng.normal(0.385, 0.007, 8),
        nvl=rng.normal(1.0, 0.015, 8),
        hca=rng.normal(1.0, 0.03, 8),
        crc_hist=[int(v) for v in rng.poisson(0.6, 8)],
    )


def ema(x, tau):
    a = 1.0 / tau
    y = np.empty_like(x)
    acc = x[0]
    for i in range(len(x)):
        acc += a * (x[i] - acc)
        y[i] = acc
    return y


def scrape_times(phase, step, h):
    first = W_START - 120 + phase
    n = int((W_END + 120 - first) // step) + 1
    t = first + np.arange(n) * step + rng.normal(0, 0.004, n)
    return t


def in_gap(h, t):
    if h not in GAP_HOSTS:
        return np.zeros(len(t), dtype=bool)
    return (t >= GAP0) & (t < GAP1)


DCGM_ROWS = []   # (ts_ms, line)
NODE_ROWS = []


def ms(t):
    return int(round(t * 1000))


def gen_host(h):
    c = hostc[h]
    st_all = state[h]
    pnom = np.full(NS, 71.0)
    pnom[st_all == 1] = 205.0
    pnom[st_all == 3] = 175.0
    tr = st_all == 2
    pnom[tr] = 618.0 * (0.6 + 0.4 * rel[tr])
    pema = ema(pnom, 80.0)
    hema = ema(pnom, 150.0)

    t = scrape_times(c["phase_dcgm"], 30.0, h)
    gap = in_gap(h, t)
    si = (t.astype(np.int64) - SIM0).clip(0, NS - 1)
    st = st_all[si]
    r = rel[si]
    n = len(t)
    inst = f"{h}:9400"
    for k in range(n):
        DCGM_ROWS.append((ms(t[k]), f"{ms(t[k])},up,{0 if gap[k] else 1},,,,{inst},dcgm-exporter,,"))
    for g in range(8):
        scale = c["pbase"][g] / 618.0
        p_true = np.where(st_all == 0, c["pidle"][g], pnom * scale)
        nvrate = np.where(st_all == 2, 1.48e8 * rel * c["nvl"][g], np.where(st_all == 3, 3e5, 0.0))
        crc_f = np.zeros(NS)
        crc_d = np.zeros(NS)
        rep = np.zeros(NS)
        rec = np.zeros(NS)
        if h == BAD and g == BAD_GPU:
            a = burst
            rep = rng.poisson(a * 9000.0)
            crc_f = rng.poisson(a * 640.0)
            crc_d = rng.poisson(a * 95.0)
            # link recoveries at the start of the stronger bursts
            for (o, d, amp) in BURSTS:
                i0 = int(ONSET - SIM0) + o
                if amp >= 0.07:
                    nrec = 1 + int(amp > 0.10) + int(amp > 0.13)
                    for j in range(nrec):
                        rec[i0 + int(rng.integers(5, max(6, d - 5)))] += 1
            nvrate = nvrate * (1 - 0.6 * a)
        elif rng.random() < 0.05:
            # benign: a stray CRC flit error now and then on an otherwise healthy link
            crc_f[int(rng.integers(0, NS))] = 1
        cnt = {
            "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL": c["crc_hist"][g] + np.cumsum(crc_f),
            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL": np.cumsum(crc_d),
            "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL": np.cumsum(rep),
            "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL": np.cumsum(rec),
            "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": rng.uniform(3e13, 9e13) + np.cumsum(nvrate),
        }
        power = p_true[si] + rng.normal(0, 8, n)
        clock = np.full(n, 1980.0)
        reason = np.zeros(n)
        util = np.zeros(n)
        tens = np.zeros(n)
        trm = st == 2
        capm = trm & (rng.random(n) < c["pcap"][g])
        clock[capm] = rng.choice(np.arange(1860, 1980, 15), capm.sum())
        reason[capm] = 4
        power[capm] = rng.uniform(692, 699.6, capm.sum())
        power = np.minimum(power, 699.6)
        util[trm] = rng.choice([100, 100, 100, 100, 100, 99, 98], trm.sum())
        tens[trm] = c["tens"][g] * r[trm] + rng.normal(0, 0.005, trm.sum())
        im = st == 1
        util[im] = rng.integers(0, 50, im.sum())
        tens[im] = rng.uniform(0, 0.04, im.sum())
        cm = st == 3
        util[cm] = rng.integers(1, 25, cm.sum())
        tens[cm] = rng.uniform(0, 0.02, cm.sum())
        idm = st == 0
        clock[idm] = 345
        reason[idm] = 1
        power[idm] = c["pidle"][g] + rng.normal(0, 1.4, idm.sum())
        tens = tens.clip(0, 1)
        gtemp = np.round(c["inlet"] + 7.0 + c["toff"][g] + 0.048 * pema[si] * scale + rng.normal(0, 0.45, n))
        mtemp = np.round(c["inlet"] + 7.0 + c["toff"][g] + c["moff"][g] + 0.050 * hema[si] * scale + rng.normal(0, 0.45, n))
        xid = np.zeros(n)
        if h == BAD and g == BAD_GPU:
            xid[t >= XID1] = 74
        series = [
            ("DCGM_FI_DEV_SM_CLOCK", clock, "i"),
            ("DCGM_FI_DEV_GPU_TEMP", gtemp, "i"),
            ("DCGM_FI_DEV_MEMORY_TEMP", mtemp, "i"),
            ("DCGM_FI_DEV_POWER_USAGE", power, "f3"),
            ("DCGM_FI_DEV_GPU_UTIL", util, "i"),
            ("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", reason, "i"),
            ("DCGM_FI_DEV_XID_ERRORS", xid, "i"),
            ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tens, "f6"),
        ] + [(k, v[si], "i") for k, v in cnt.items()]
        lab = f"{h},{g},{c['uuids'][g]},{inst},dcgm-exporter,nvidia{g},"
        for name, vals, kind in series:
            for k in range(n):
                if gap[k]:
                    continue
                v = vals[k]
                vs = str(int(round(v))) if kind == "i" else (f"{v:.3f}" if kind == "f3" else f"{v:.6f}")
                DCGM_ROWS.append((ms(t[k]), f"{ms(t[k])},{name},{vs},{lab}"))

    # node_exporter
    t = scrape_times(c["phase_node"], 30.0, h)
    gap = in_gap(h, t)
    si = (t.astype(np.int64) - SIM0).clip(0, NS - 1)
    st = st_all[si]
    n = len(t)
    inst = f"{h}:9100"
    load = np.where(st == 2, 11.0, np.where(st == 1, 8.0, np.where(st == 3, 5.0, 0.35))) + np.abs(rng.normal(0, 0.9, n))
    mem = np.where(st == 0, 2.011e12, 1.741e12) + rng.normal(0, 2e9, n)
    for k in range(n):
        NODE_ROWS.append((ms(t[k]), f"{ms(t[k])},up,{0 if gap[k] else 1},,,,{inst},node,,"))
        if gap[k]:
            continue
        NODE_ROWS.append((ms(t[k]), f"{ms(t[k])},node_load1,{load[k]:.2f},,,,{inst},node,,"))
        NODE_ROWS.append((ms(t[k]), f"{ms(t[k])},node_memory_MemAvailable_bytes,{mem[k]:.0f},,,,{inst},node,,"))
    rate = np.where(st_all == 2, 1.9e9 * rel, np.where(st_all == 3, 3.1e7, np.where(st_all == 1, 1.5e8, 1.9e3)))
    for dev in range(8):
        for name, f in [("node_infiniband_port_data_transmitted_bytes_total", 1.0),
                        ("node_infiniband_port_data_received_bytes_total", 1.001)]:
            cnt = rng.uniform(1e16, 6e16) + np.cumsum(rate * c["hca"][dev] * f)
            for k in range(n):
                if gap[k]:
                    continue
                NODE_ROWS.append((ms(t[k]), f"{ms(t[k])},{name},{cnt[si[k]]:.0f},,,,{inst},node,mlx5_{dev},1"))


HEADER = "timestamp,metric,value,Hostname,gpu,UUID,instance,job,device,port"


def write_csv(rows, path):
    rows.sort(key=lambda x: x[0])
    with open(path, "w") as f:
        f.write(HEADER + "\n")
        f.write("\n".join(r[1] for r in rows))
        f.write("\n")


# ----------------------------------------------------------------------------- trainer logs
def mtime(t):
    return dt(t).strftime("%Y-%m-%d %H:%M:%S")


ARGS = [
    ("accumulate_allreduce_grads_in_fp32", "True"), ("adam_beta1", "0.9"), ("adam_beta2", "0.95"),
    ("adam_eps", "1e-08"), ("attention_dropout", "0.0"), ("bf16", "True"), ("ckpt_format", "torch_dist"),
    ("clip_grad", "1.0"), ("data_parallel_size", "18"), ("distributed_backend", "nccl"),
    ("ffn_hidden_size", "24576"), ("global_batch_size", str(GBS)), ("hidden_dropout", "0.0"),
    ("hidden_size", "6144"), ("load", "/lustre/ckpt/gpt-40b"), ("log_interval", "1"),
    ("log_throughput", "True"), ("lr", "0.0003"), ("lr_decay_style", "cosine"), ("lr_warmup_iters", "2000"),
    ("micro_batch_size", "1"), ("min_lr", "3e-05"), ("num_attention_heads", "48"), ("num_layers", "84"),
    ("num_query_groups", "8"), ("overlap_grad_reduce", "True"), ("overlap_param_gather", "True"),
    ("pipeline_model_parallel_size", "1"), ("position_embedding_type", "rope"), ("save", "/lustre/ckpt/gpt-40b"),
    ("save_interval", str(CKPT_EVERY)), ("seed", "1234"), ("seq_length", str(SEQ)),
    ("sequence_parallel", "True"), ("tensor_model_parallel_size", "8"), ("tokenizer_type", "HuggingFaceTokenizer"),
    ("train_iters", "500000"), ("use_distributed_optimizer", "True"), ("use_flash_attn", "True"),
    ("weight_decay", "0.1"), ("world_size", "144"),
]


def megatron_log(jobid, t_start, nodes_str, iters, ckpts, it_resume, nodes, crash):
    L = []
    lbl0 = "  0: "
    last = "143: "
    L.append(f"Job {jobid} running on {nodes_str}")
    L.append(f"MASTER_ADDR={nodes[0]} MASTER_PORT=6000 WORLD_SIZE=144")
    t = t_start + 6.0
    L.append(lbl0 + "using world size: 144, data-parallel size: 18, context-parallel size: 1, tensor-model-parallel size: 8, encoder-tensor-model-parallel size: 0, pipeline-model-parallel size: 1, encoder-pipeline-model-parallel size: 0")
    L.append(lbl0 + "using torch.bfloat16 for parameters ...")
    L.append(lbl0 + "------------------------ arguments ------------------------")
    for k, v in ARGS:
        L.append(lbl0 + f"  {k} {'.' * max(3, 48 - len(k))} {v}")
    L.append(lbl0 + "-------------------- end of arguments ---------------------")
    L.append(lbl0 + "setting number of micro-batches to constant 32")
    L.append(lbl0 + "> building HuggingFaceTokenizer tokenizer ...")
    L.append(lbl0 + " > padded vocab (size: 128256) with 0 dummy tokens (new size: 128256)")
    L.append(lbl0 + "> initializing torch distributed ...")
    L.append(lbl0 + "> initialized tensor model parallel with size 8")
    L.append(lbl0 + "> initialized pipeline model parallel with size 1")
    L.append(lbl0 + "> setting random seeds to 1234 ...")
    L.append(lbl0 + "> compiling dataset index builder ...")
    L.append(lbl0 + ">>> done with dataset index builder. Compilation time: 0.071 seconds")
    L.append(lbl0 + f"time to initialize megatron (seconds): {31.0 + rng.uniform(0, 9):.3f}")
    t += 40
    L.append(lbl0 + f"[after megatron is initialized] datetime: {mtime(t)} ")
    L.append(lbl0 + "building GPT model ...")
    L.append(lbl0 + " > number of parameters on (tensor, pipeline) model parallel rank (0, 0): 5012353024")
    L.append(lbl0 + f" loading distributed checkpoint from /lustre/ckpt/gpt-40b at iteration {it_resume}")
    t += 150
    L.append(lbl0 + f"  successfully loaded checkpoint from /lustre/ckpt/gpt-40b [ t 1/8, p 1/1 ] at iteration {it_resume}")
    L.append(lbl0 + f"[after model, optimizer, and learning rate scheduler are built] datetime: {mtime(t)} ")
    L.append(lbl0 + "> building train, validation, and test datasets ...")
    L.append(lbl0 + " > datasets target sizes (minimum size):")
    L.append(lbl0 + "    train:      288000000")
    L.append(lbl0 + "    validation: 2881152")
    L.append(lbl0 + "    test:       576")
    t += 25
    L.append(lbl0 + f"[after dataloaders are built] datetime: {mtime(t)} ")
    L.append(lbl0 + "done with setup ...")
    L.append(lbl0 + "training ...")
    L.append(lbl0 + f"[before the start of training step] datetime: {mtime(t + 0.5)} ")
    ck = {c[0]: c for c in ckpts}
    lr0 = 2.41e-4
    for (it, s0, s1, slow) in iters:
        el = (s1 - s0) * 1000
        tfl = TFLOPS0 * T0 / (s1 - s0) * math.exp(rng.normal(0, 0.0015))
        loss = 1.874 - 0.00003 * (it - ITER0) + rng.normal(0, 0.018)
        gn = abs(rng.normal(0.215, 0.02))
        lr = lr0 * (1 - (it - ITER0) * 2e-7)
        L.append(last + f" [{mtime(s1)}] iteration {it:8d}/  500000 | consumed samples: {it * GBS:12d} | "
                        f"elapsed time per iteration (ms): {el:.1f} | throughput per GPU (TFLOP/s/GPU): {tfl:.1f} | "
                        f"learning rate: {lr:.6E} | global batch size: {GBS:5d} | lm loss: {loss:.6E} | "
                        f"loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | "
                        f"number of nan iterations:   0 |")
        if it in ck:
            _, c0, c1 = ck[it]
            L.append(lbl0 + f"saving checkpoint at iteration {it:7d} to /lustre/ckpt/gpt-40b in torch_dist format")
            L.append(lbl0 + f"  successfully saved checkpoint from iteration {it:7d} to /lustre/ckpt/gpt-40b [ t 1/8, p 1/1 ]")
            L.append(lbl0 + "(min, max) time across ranks (ms):")
            L.append(lbl0 + f"    save-checkpoint ................................: ({(c1 - c0) * 1000 - 41.2:.2f}, {(c1 - c0) * 1000:.2f})")
    if crash:
        # real wording: easybuilders/easybuild-easyconfigs#13237 (c10 abort on an uncorrectable NVLink error)
        L.append(" 85: terminate called after throwing an instance of 'c10::CUDAError'")
        L.append(" 85:   what():  CUDA error: uncorrectable NVLink error detected during the execution")
        L.append("srun: error: node-2111: task 85: Aborted (core dumped)")
        L.append(f"srun: Terminating StepId={jobid}.0")
        L.append(f"slurmstepd: error: *** STEP {jobid}.0 ON node-2101 CANCELLED AT {dt(CRASH + 1.2).strftime('%Y-%m-%dT%H:%M:%S')} ***")
        L.append("srun: Job step aborted: Waiting up to 32 seconds for job step to finish.")
        for i, h in enumerate(RUN1):
            if h == BAD:
                L.append(f"srun: error: {h}: tasks 80-84,86-87: Terminated")
            else:
                L.append(f"srun: error: {h}: tasks {i * 8}-{i * 8 + 7}: Terminated")
        L.append(f"srun: Force Terminated StepId={jobid}.0")
    with open(os.path.join(OUT, "logs", f"slurm-{jobid}.out"), "w") as f:
        f.write("\n".join(L) + "\n")


# ----------------------------------------------------------------------------- kernel + journal
def dmesg_T(t):
    d = dt(t)
    return f"[{d:%a %b} {d.day:2d} {d:%H:%M:%S %Y}]"


BOOT_TMPL = [
    (0.000000, "Linux version 5.15.0-130-generic (buildd@lcy02-amd64-088) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #140-Ubuntu SMP Wed Dec 18 17:59:53 UTC 2024 (Ubuntu 5.15.0-130.140-generic 5.15.173)"),
    (0.000000, "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-130-generic root=UUID=6b1f0d8e-3c2a-4e57-9d0b-7f4a1c2e9b35 ro console=tty0 console=ttyS0,115200n8 iommu=pt pci=realloc=off init_on_alloc=0"),
    (0.000000, "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1 05/29/2024"),
    (0.000000, "tsc: Detected 2000.000 MHz processor"),
    (0.412316, "smpboot: Allowing 224 CPUs, 0 hotplug CPUs"),
    (0.613804, "Memory: 2113418876K/2147008388K available (16393K kernel code, 4382K rwdata, 10760K rodata, 3356K init, 18808K bss, 33589256K reserved, 0K cma-reserved)"),
    (1.118052, "smp: Brought up 2 nodes, 224 CPUs"),
    (1.905417, "pci 0000:18:00.0: [10de:2330] type 00 class 0x030200"),
    (2.877214, "mlx5_core 0000:1a:00.0: firmware version: 28.41.1000"),
    (2.877990, "mlx5_core 0000:1a:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)"),
    (3.402551, "nvme nvme0: pci function 0000:c1:00.0"),
    (3.611020, "nvme nvme0: 64/0/0 default/read/poll queues"),
    (3.614335, " nvme0n1: p1 p2"),
    (6.310228, "EXT4-fs (nvme0n1p2): mounted filesystem with ordered data mode. Opts: (null). Quota mode: none."),
    (9.201877, "nvidia: loading out-of-tree module taints kernel."),
    (9.201901, "nvidia: module license 'NVIDIA' taints kernel."),
    (9.355470, "nvidia-nvlink: Nvlink Core is being initialized, major device number 510"),
    (9.602113, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05  Tue Oct  8 03:22:07 UTC 2024"),
    (9.711862, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  550.127.05  Tue Oct  8 02:56:05 UTC 2024"),
    (9.913475, "nvidia-uvm: Loaded the UVM driver, major device number 508."),
    (12.881004, "IPv6: ADDRCONF(NETDEV_CHANGE): ibp26s0: link becomes ready"),
    (14.050117, "Lustre: Lustre: Build Version: 2.15.5"),
    (14.402390, "LNet: Added LNI {ip}@o2ib [8/256/0/180]"),
    (15.993601, "Lustre: Mounted lake-client"),
    (31.604412, "nvidia-nvswitch0: open (major=508)"),
    (31.604439, "nvidia-nvswitch1: open (major=508)"),
    (31.604462, "nvidia-nvswitch2: open (major=508)"),
    (31.604488, "nvidia-nvswitch3: open (major=508)"),
]


def host_logs(h):
    c = hostc[h]
    kern, jour = [], []
    boot = ts("2025-07-29T08:00:00") + rng.uniform(0, 86400 * 6)
    ip = f"10.52.21.{int(h[-2:])}"
    for (o, m) in BOOT_TMPL:
        kern.append((boot + o, m.replace("{ip}", ip)))
    t0 = ts("2025-08-19T10:30:00")
    t1 = W_END + 300
    pid = [int(rng.integers(300000, 800000))]

    def npid():
        pid[0] += int(rng.integers(3, 300))
        return pid[0]

    def nvswitch_burst(t):
        for sw in range(4):
            for _ in range(int(rng.integers(1, 4))):
                t += rng.uniform(0.000002, 0.00001)
                kern.append((t, f"nvidia-nvswitch{sw}: open (major=508)"))

    if h in RUN1:
        nvswitch_burst(JOB1_START + 4.1)
    if h in RUN2:
        nvswitch_burst(JOB2_START + 4.3)
    if rng.random() < 0.5:
        a = int(rng.integers(2501, 2650))
        kern.append((rng.uniform(t0, t1), f"perf: interrupt took too long ({a} > {a - int(rng.integers(2, 9))}), lowering kernel.perf_event_max_sample_rate to {int(round(199000000 / a / 250) * 250)}"))
    if h == BAD:
        uuid = c["uuids"][BAD_GPU]
        kern.append((XID1, f"NVRM: GPU at PCI:{BAD_PCI}: {uuid}"))
        kern.append((XID1 + 0.000003, "NVRM: GPU Board Serial Number: 1654223019874"))
        # verbatim wording: NVIDIA/NVSentinel docs/designs/022-workflow-nvlink-err.md (PR #516); PCI adapted
        kern.append((XID1 + 0.000011, f"NVRM: Xid (PCI:{BAD_PCI}): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error detected on link 14(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)"))
        kern.append((XID2, f"NVRM: Xid (PCI:{BAD_PCI}): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error detected on link 14(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)"))
    kern.sort(key=lambda x: x[0])
    p = os.path.join(OUT, "logs", "dmesg")
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, f"{h}.txt"), "w") as f:
        f.write("\n".join(f"{dmesg_T(t)} {m}" for (t, m) in kern) + ("\n" if kern else ""))

    # journal (journalctl -o short-iso, userspace units)
    m = math.ceil(t0 / 600) * 600
    while m < t1:
        tt = m + rng.uniform(0.05, 0.5)
        jour.append((tt, "systemd[1]: Starting sysstat-collect.service - system activity accounting tool..."))
        jour.append((tt + 0.04, "systemd[1]: sysstat-collect.service: Deactivated successfully."))
        jour.append((tt + 0.05, "systemd[1]: Finished sysstat-collect.service - system activity accounting tool."))
        m += 600
    m = math.ceil(t0 / 300) * 300
    while m < t1:
        jour.append((m + rng.uniform(0.05, 0.9), f"CRON[{npid()}]: (root) CMD (/usr/sbin/nhc -q)"))
        m += 300
    q = math.ceil(t0 / 900) * 900
    sess = int(rng.integers(1000, 5000))
    while q < t1:
        tq = q + rng.uniform(3, 11)
        p_ = npid()
        jour.append((tq, f"sshd[{p_}]: Accepted publickey for healthchk from 10.52.0.21 port {int(rng.integers(33000, 60999))} ssh2: ED25519 SHA256:kO8m2h1uC4yP0f7wQe9rVdJ3sXn6aTzL5bGqHc2RwYs"))
        jour.append((tq + 0.03, f"systemd-logind[1650]: New session {sess} of user healthchk."))
        jour.append((tq + 0.04, f"systemd[1]: Started session-{sess}.scope - Session {sess} of User healthchk."))
        jour.append((tq + 3.1, f"sshd[{p_}]: pam_unix(sshd:session): session closed for user healthchk"))
        jour.append((tq + 3.11, f"systemd[1]: session-{sess}.scope: Deactivated successfully."))
        jour.append((tq + 3.12, f"systemd-logind[1650]: Removed session {sess}."))
        sess += 1
        q += 900
    for _ in range(3):
        jour.append((rng.uniform(t0, t1), "chronyd[1301]: Selected source 10.52.0.3 (ntp-b.lake.internal)"))
    jour.append((ts("2025-08-19T12:00:00") + 0.3, "systemd[1]: Starting fstrim.service - Discard unused blocks on filesystems from /etc/fstab..."))
    jour.append((ts("2025-08-19T12:00:00") + 4.9, f"fstrim[{npid()}]: /: 412.6 GiB (443027951616 bytes) trimmed on /dev/nvme0n1p2"))
    jour.append((ts("2025-08-19T12:00:00") + 4.91, "systemd[1]: fstrim.service: Deactivated successfully."))
    jour.append((ts("2025-08-19T12:00:00") + 4.92, "systemd[1]: Finished fstrim.service - Discard unused blocks on filesystems from /etc/fstab."))
    slp = 3111 + int(rng.integers(0, 50))
    if h in RUN1:
        if h == RUN1[0]:
            jour.append((JOB1_START - 0.4, f"slurmd[{slp}]: slurmd: Launching batch job {JOB1} for UID 52214"))
        jour.append((JOB1_START + 3.3, f"slurmd[{slp}]: slurmd: launch task StepId={JOB1}.0 request from UID:52214 GID:52214 HOST:10.52.21.1 PORT:{int(rng.integers(33000, 60999))}"))
        jour.append((CRASH + 1.25, f"slurmstepd[{int(rng.integers(900000, 990000))}]: error: *** STEP {JOB1}.0 ON {h} CANCELLED AT {dt(CRASH + 1.2).strftime('%Y-%m-%dT%H:%M:%S')} ***"))
    if h == BAD:
        jour.append((CRASH + 0.4, f"systemd-coredump[{npid()}]: Process {int(rng.integers(1000000, 1100000))} (python) of user 52214 dumped core."))
    if h in RUN2:
        if h == RUN2[0]:
            jour.append((JOB2_START - 0.4, f"slurmd[{slp}]: slurmd: Launching batch job {JOB2} for UID 52214"))
        jour.append((JOB2_START + 3.5, f"slurmd[{slp}]: slurmd: launch task StepId={JOB2}.0 request from UID:52214 GID:52214 HOST:10.52.21.1 PORT:{int(rng.integers(33000, 60999))}"))
    jour.sort(key=lambda x: x[0])
    p = os.path.join(OUT, "logs", "journal")
    os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, f"{h}.log"), "w") as f:
        for (t, msg) in jour:
            d = dt(t)
            f.write(f"{d:%Y-%m-%dT%H:%M:%S}+0000 {h} {msg}\n")


def slurmctld_log():
    def st(t):
        d = dt(t)
        return d.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(d.microsecond / 1000):03d}"
    L = [
        f"[{st(JOB1_START - 0.746)}] sched: Allocate JobId={JOB1} NodeList=node-[2101-2118] #CPUs=4032 Partition=pretrain",
        f"[{st(STEP_KILLED + 0.617)}] _job_complete: JobId={JOB1} WEXITSTATUS 134",
        f"[{st(STEP_KILLED + 0.618)}] _job_complete: JobId={JOB1} done",
        f"[{st(DRAIN + 0.213)}] update_node: node {BAD} reason set to: Xid74 NVLink GPU5 link14, job {JOB1} died - fieldiag",
        f"[{st(DRAIN + 0.213)}] update_node: node {BAD} state set to DRAINED",
        f"[{st(JOB2_SUBMIT + 0.088)}] _slurm_rpc_submit_batch_job: JobId={JOB2} InitPrio=18102 usec=1877",
        f"[{st(JOB2_START - 0.985)}] sched: Allocate JobId={JOB2} NodeList=node-[2101-2110,2112-2119] #CPUs=4032 Partition=pretrain",
    ]
    with open(os.path.join(OUT, "logs", "slurmctld.log"), "w") as f:
        f.write("\n".join(L) + "\n")


def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    os.makedirs(os.path.join(OUT, "logs"))
    for h in HOSTS:
        gen_host(h)
    write_csv(DCGM_ROWS, os.path.join(OUT, "metrics", "dcgm-exporter.csv"))
    write_csv(NODE_ROWS, os.path.join(OUT, "metrics", "node-exporter.csv"))
    megatron_log(JOB1, JOB1_START, "node-[2101-2118]", iters1, ckpts1, ITER0, RUN1, True)
    megatron_log(JOB2, JOB2_START, "node-[2101-2110,2112-2119]", iters2, ckpts2, resume2, RUN2, False)
    for h in HOSTS:
        host_logs(h)
    slurmctld_log()

    tok = GBS * SEQ

    def rate(iters, a, b):
        s = [(s1 - s0) for (_, s0, s1, _) in iters if a <= s0 and s1 <= b]
        return tok * len(s) / sum(s)
    base = rate(iters1, W_START, ONSET)
    hour = rate(iters1, ONSET, XID1)
    inb = [slow for (_, s0, s1, slow) in iters1 if slow > 0.02]
    after = rate(iters2, RUN2_FIRST + 60, W_END)
    loss = (1 - hour / base) * 100
    burst_losses = [(1 - 1 / (1 + s)) * 100 for s in inb]
    print(f"tokens/s baseline {base:.0f} onset->xid {hour:.0f} after {after:.0f} loss {loss:.1f}%  "
          f"in-burst loss p50 {np.median(burst_losses):.1f}% max {max(burst_losses):.1f}%  last1 {last1} resume {resume2}")

    inc = {
        "id": ID,
        "title": "GPT-40B pretraining (Megatron-LM, 144 H100): throughput dips for an hour, then the job died",
        "window": {"start": "2025-08-19T12:20:00+00:00", "end": "2025-08-19T15:00:00+00:00"},
        "baseline": {"start": "2025-08-19T12:20:00+00:00", "end": "2025-08-19T12:55:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "lake-h100", "nodes": 19, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
        "timestamp_unit": "ms",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)

    truth = {
        "id": ID,
        "cause": ("NVLink link 14 of GPU 5 on node-2111 (PCI 0000:ab:00) degraded from 12:58:40 UTC: bursts of CRC errors, "
                  "replays and link recoveries slowed that node's tensor-parallel all-reduces and with them every "
                  "iteration of the synchronous job, until the link failed fatally (Xid 74) at 14:02:17, the job aborted "
                  "and node-2111 was drained."),
        "cause_metrics": [
            "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL (node-2111 gpu 5 rises in bursts from 12:58:40)",
            "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL (node-2111 gpu 5)",
            "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL (node-2111 gpu 5)",
            "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL (node-2111 gpu 5, one to three per strong burst)",
            "DCGM_FI_DEV_XID_ERRORS (node-2111 gpu 5 -> 74 at 14:02:17)",
        ],
        "effect_metrics": ["Megatron elapsed time per iteration / throughput per GPU (logs/slurm-3318842.out)",
                           "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE on all hosts (dips with each burst)",
                           "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL rate"],
        "cause_log_evidence": [
            {"file": "logs/dmesg/node-2111.txt",
             "text": "NVRM: Xid (PCI:0000:ab:00): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error detected on link 14(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)",
             "times": ["2025-08-19T14:02:17Z", "2025-08-19T14:02:24Z"],
             "source": "https://github.com/NVIDIA/NVSentinel/pull/516 (docs/designs/022-workflow-nvlink-err.md, 'Message Format': "
                       "\"[449410.332316] NVRM: Xid (PCI:0003:00:00): 74, pid='<unknown>', name=<unknown>, NVLink: fatal error "
                       "detected on link 14(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)\"); the same line is a test case in NVSentinel's "
                       "syslog-health-monitor XID parser tests; same shape as the user report "
                       "https://forums.developer.nvidia.com/t/kernel-nvrm-xid-74-name-unknown-nvlink-fatal-error-detected-on-link-rmmod-error-could-not-remove-nvidia-uvm-resource-temporarily-unavail/292539",
             "adapted": ["PCI address 0003:00:00 -> 0000:ab:00", "timestamp (dmesg -T)"]},
            {"file": "logs/slurm-3318842.out",
             "text": " 85: terminate called after throwing an instance of 'c10::CUDAError' /  85:   what():  CUDA error: uncorrectable NVLink error detected during the execution",
             "source": "https://github.com/easybuilders/easybuild-easyconfigs/pull/13237 (comment 2021-06-25: \"terminate called after "
                       "throwing an instance of 'c10::CUDAError'\\n  what():  CUDA error: uncorrectable NVLink error detected during the "
                       "execution\"); also pytorch/pytorch#58155 and MIC-DKFZ/nnUNet#1519",
             "adapted": ["srun --label rank prefix ' 85: ' added"]},
        ],
        "context_log_lines": [
            {"file": "logs/dmesg/node-2111.txt", "text": "NVRM: GPU at PCI:0000:ab:00: GPU-... / NVRM: GPU Board Serial Number: ...",
             "source": "driver preamble before a GPU's first Xid, as in leptonai/gpud components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log "
                       "(/work/shared/reference/formats/gpu_kernel_logs_gpud); PCI, UUID and serial adapted"},
            {"file": "logs/slurm-3318842.out", "text": "srun: error: node-2111: task 85: Aborted (core dumped)",
             "source": "srun task-exit message as in public job outputs ('srun: error: irene1803: task 3: Aborted (core dumped)', "
                       "'srun: error: frontier07200: tasks 0-7: Killed', found through the code index); host and task adapted"},
            {"file": "logs/slurm-3318842.out", "text": "slurmstepd: error: *** STEP 3318842.0 ON node-2101 CANCELLED AT 2025-08-19T14:02:19 ***",
             "source": "Slurm slurmstepd format '*** %s ON %s CANCELLED AT %s ***' (SchedMD/slurm src/slurmd/slurmstepd/req.c)"},
        ],
        "hosts": [BAD],
        "gpu": {"host": BAD, "index": BAD_GPU, "pci": BAD_PCI, "nvlink": 14},
        "onset": "2025-08-19T12:58:40Z",
        "xid74": ["2025-08-19T14:02:17Z", "2025-08-19T14:02:24Z"],
        "job_crash": "2025-08-19T14:02:19Z (rank 85 = node-2111 local rank 5)",
        "recovered": "2025-08-19T14:16:30Z (job %d on node-[2101-2110,2112-2119], resumed from iteration %d)" % (JOB2, resume2),
        "job_throughput_loss_pct": round(float(loss), 1),
        "job_throughput_detail": {
            "baseline_tokens_per_s": round(float(base)),
            "onset_to_xid74_tokens_per_s": round(float(hour)),
            "after_restart_tokens_per_s": round(float(after)),
            "loss_in_bursts_pct_median": round(float(np.median(burst_losses)), 1),
            "loss_in_bursts_pct_max": round(float(max(burst_losses)), 1),
            "bursts": len(BURSTS),
            "crash_cost": "no training from 14:02:19 to ~14:16:30, and iterations %d-%d redone" % (resume2 + 1, last1),
        },
        "distractors": [
            f"{WARM} runs 4-6 C warmer than its peers on every GPU all day (baseline included): a site/rack difference, not the cause",
            "scrape gap 13:36:10-13:40:20 UTC on node-2115..node-2118 (up == 0, no samples): a monitoring blip, the job was unaffected",
            "a stray single CRC flit error on a few healthy GPUs and small pre-existing CRC counts: normal",
            "checkpoint saves every 250 iterations add ~30 s pauses",
        ],
        "what_a_good_postmortem_says": (
            "From 12:58 UTC the DCGM NVLink error counters of GPU 5 on node-2111 (replays, CRC flit/data errors, link recoveries) "
            "rose in a dozen growing bursts; during each burst that node's tensor-parallel all-reduces slowed and the whole "
            "synchronous job ran 5-15%% slower (about %.0f%% lost over the hour). At 14:02:17 the driver logged Xid 74 (NVLink fatal "
            "error on link 14) for PCI 0000:ab:00, rank 85 aborted with an uncorrectable NVLink error and the job died; draining "
            "node-2111 and resubmitting on the spare restored full speed from 14:16. The warm node-2104 and the 13:36 scrape gap "
            "are unrelated; node-2111's GPU 5 / NVLink path needs field diagnostics and reseat or RMA, and an alert on NVLink replay "
            "rate would have flagged it an hour before the crash." % loss),
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)


if __name__ == "__main__":
    main()
