#!/usr/bin/env python3
"""Incident 2: Slurm cluster, 16 nodes x 8 A100 80GB PCIe, Megatron-LM GPT pretraining launched with srun --label.
GPU 5 of gpu-node-09 (0000:a1:00.0) develops a bad PCIe link: AER correctable Data-Link-Layer errors (replay timer
timeouts, bad TLPs) and a rising PCIe replay counter from 01:47 UTC; its GPU<->NIC traffic crawls and the whole
job loses ~5%. At 02:52 the GPU falls off the bus (Xid 79); the other ranks hang in NCCL until the 10-minute watchdog
fires at 03:02; the job is resubmitted without gpu-node-09 and trains again from 03:08 on 15 nodes.
Metrics as OpenMetrics text. Fixed seed."""
import os, shutil, uuid, random
from datetime import datetime, timezone, timedelta
import numpy as np
import yaml

SEED = 20251104
rng = np.random.default_rng(SEED)
random.seed(SEED)
ID = "slurm-a100-pcie-xid79"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(f"{OUT}/metrics", exist_ok=True)
os.makedirs(f"{OUT}/logs/slurm", exist_ok=True)

UTC = timezone.utc
T0 = datetime(2025, 11, 4, 1, 10, 0, tzinfo=UTC)
T1 = datetime(2025, 11, 4, 3, 30, 0, tzinfo=UTC)
JOB1_START = datetime(2025, 11, 4, 0, 41, 12, tzinfo=UTC)
ONSET = datetime(2025, 11, 4, 1, 47, 12, tzinfo=UTC)       # first AER correctable burst / replays start
XID = datetime(2025, 11, 4, 2, 52, 38, tzinfo=UTC)         # GPU falls off the bus
WATCHDOG = XID + timedelta(seconds=600, milliseconds=61)   # NCCL watchdog (600 s) fires on the other ranks
JOB1_END = WATCHDOG + timedelta(seconds=7)
JOB2_START = datetime(2025, 11, 4, 3, 5, 9, tzinfo=UTC)
TRAIN2 = datetime(2025, 11, 4, 3, 8, 21, tzinfo=UTC)
STEP = 30
N = int((T1 - T0).total_seconds() // STEP)

NODES = [f"gpu-node-{i:02d}" for i in range(1, 17)]
BAD, BADGPU = "gpu-node-09", 5
BUS = ["01", "21", "41", "61", "81", "a1", "c1", "e1"]
PCI = [f"00000000:{b.upper()}:00.0" for b in BUS]
MODEL = "NVIDIA A100 80GB PCIe"
DRIVER = "535.183.01"
UUIDS = {(h, g): "GPU-" + str(uuid.UUID(int=(int(rng.integers(0, 2**63)) << 64) | int(rng.integers(0, 2**63)))) for h in NODES for g in range(8)}
BOOT = {h: T0 - timedelta(seconds=float(rng.uniform(3.5e5, 2.6e6))) for h in NODES}

def phase_times(phase):
    return T0.timestamp() + phase + np.arange(N) * STEP + rng.normal(0, 0.003, N)

def sev(ts):
    """fraction of the PCIe fault's severity 0..1 while degrading"""
    return np.clip((ts - ONSET.timestamp()) / (XID.timestamp() - ONSET.timestamp()), 0, 1)

def job_state(ts):
    """0 = training (16 nodes), 1 = hung in NCCL, 2 = down, 3 = training (15 nodes)"""
    s = np.zeros(len(ts), dtype=int)
    s[(ts >= XID.timestamp()) & (ts < JOB1_END.timestamp())] = 1
    s[(ts >= JOB1_END.timestamp()) & (ts < TRAIN2.timestamp())] = 2
    s[ts >= TRAIN2.timestamp()] = 3
    return s

def slow_factor(ts):
    """step-time multiplier while degraded: ~4% at onset rising to ~6.5% before the crash"""
    d = ts >= ONSET.timestamp()
    f = np.ones(len(ts))
    f[d] = 1.04 + 0.025 * sev(ts[d]) + 0.006 * np.sin(ts[d] / 400.0)
    return f

series = {}   # metric -> list of (labelstr, ts array, values array)
def add(metric, labels, ts, vals):
    lab = ",".join(f'{k}="{v}"' for k, v in labels.items())
    series.setdefault(metric, []).append((lab, ts, vals))

def fmt(v):
    if float(v).is_integer():
        return str(int(v))
    return repr(float(v))

def write_om(path, metrics_order):
    with open(path, "w") as f:
        for m in metrics_order:
            for lab, ts, vals in series.get(m, []):
                for t, v in zip(ts, vals):
                    if np.isnan(v):
                        continue
                    f.write(f"{m}{{{lab}}} {fmt(v)} {t:.3f}\n")
        f.write("# EOF\n")
    series.clear()

# ---------------- dcgm-exporter ----------------
DCGM = ["DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_SM_CLOCK",
        "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        "DCGM_FI_PROF_PCIE_RX_BYTES"]
for h in NODES:
    ts = phase_times(float(rng.uniform(0, STEP)))
    st = job_state(ts)
    slow = slow_factor(ts)
    in_job2 = h != BAD
    for g in range(8):
        lab = {"gpu": str(g), "UUID": UUIDS[(h, g)], "pci_bus_id": PCI[g], "device": f"nvidia{g}",
               "modelName": MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER,
               "instance": f"{h}:9400", "job": "dcgm-exporter"}
        off = rng.normal(0, 9)
        is_bad = (h == BAD and g == BADGPU)
        training = (st == 0) | ((st == 3) & in_job2)
        hung = st == 1
        tensor = np.where(training, 0.52 / slow + rng.normal(0, 0.01, N), 0.0)
        tensor = np.where(hung, rng.uniform(0, 0.002, N), tensor)
        util = np.where(training | hung, np.clip(np.round(100 - np.abs(rng.normal(0, 0.8, N))), 0, 100), 0)
        power = np.where(training, 262 + off + 160 * (tensor - 0.52) + rng.normal(0, 8, N),
                 np.where(hung, 96 + off * 0.3 + rng.normal(0, 2, N), 61 + off * 0.2 + rng.normal(0, 1.5, N)))
        temp = np.where(training, 56 + off * 0.25, np.where(hung, 47, 38) + off * 0.1) + rng.normal(0, 0.5, N)
        # temperature relaxes with a few minutes' lag
        for i in range(1, N):
            temp[i] = temp[i - 1] + (temp[i] - temp[i - 1]) * 0.35
        sm = np.where(training | hung, np.where(rng.random(N) < 0.03, 1275.0, 1410.0), 210.0)
        rx = np.where(training, 2.6e9 / slow + rng.normal(0, 1.5e8, N), 2e5 + rng.normal(0, 2e4, N))
        tx = np.where(training, 2.5e9 / slow + rng.normal(0, 1.5e8, N), 1e5 + rng.normal(0, 1e4, N))
        rep0 = float(rng.choice([0, 0, 0, 0, 1, 3]))
        replay = np.full(N, rep0)
        xid = np.zeros(N)
        if is_bad:
            s = sev(ts)
            d = ts >= ONSET.timestamp()
            rate = np.where(d, rng.poisson(6 + 140 * s ** 1.5), 0)
            replay = rep0 + np.cumsum(rate)
            rx = np.where(d & training, rx * (1 - 0.12 - 0.1 * s), rx)
            tx = np.where(d & training, tx * (1 - 0.12 - 0.1 * s), tx)
            gone = ts >= XID.timestamp() + 2
            xid = np.where(gone, 79.0, 0.0)
            for arr in (util, power, temp, sm, rx, tx, tensor, replay):
                arr[gone] = np.nan
        vals = {"DCGM_FI_DEV_GPU_UTIL": util, "DCGM_FI_DEV_POWER_USAGE": np.round(power, 3),
                "DCGM_FI_DEV_GPU_TEMP": np.round(temp), "DCGM_FI_DEV_SM_CLOCK": sm,
                "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": replay, "DCGM_FI_DEV_XID_ERRORS": xid,
                "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": np.round(np.clip(tensor, 0, 1), 6),
                "DCGM_FI_PROF_PCIE_TX_BYTES": np.round(np.maximum(tx, 0)),
                "DCGM_FI_PROF_PCIE_RX_BYTES": np.round(np.maximum(rx, 0))}
        for m in DCGM:
            add(m, lab, ts, vals[m])
write_om(f"{OUT}/metrics/dcgm-exporter.om", DCGM)

# ---------------- node_exporter ----------------
NE = ["up", "node_boot_time_seconds", "node_load1", "node_memory_MemAvailable_bytes",
      "node_infiniband_port_data_received_bytes_total", "node_infiniband_port_data_transmitted_bytes_total"]
for h in NODES:
    ts = phase_times(float(rng.uniform(0, STEP)))
    st = job_state(ts)
    slow = slow_factor(ts)
    training = (st == 0) | ((st == 3) & (h != BAD))
    lab = {"instance": f"{h}:9100", "job": "node"}
    add("up", {"instance": f"{h}:9100", "job": "node"}, ts, np.ones(N))
    add("node_boot_time_seconds", lab, ts, np.full(N, round(BOOT[h].timestamp(), 2)))
    add("node_load1", lab, ts, np.round(np.where(training, 19 + rng.normal(0, 1.5, N), np.where(st == 1, 9, 0.6) + rng.normal(0, 0.3, N)), 2))
    add("node_memory_MemAvailable_bytes", lab, ts,
        np.round(np.where(training | (st == 1), 3.71e11, 4.82e11) + rng.normal(0, 4e8, N), -3))
    for d in range(4):
        ilab = {**lab, "device": f"mlx5_{d}", "port": "1"}
        for m, base in (("node_infiniband_port_data_received_bytes_total", 5.35e9),
                        ("node_infiniband_port_data_transmitted_bytes_total", 5.31e9)):
            rate = np.where(training, base / slow * (1 + rng.normal(0, 0.02, N)), 2e4)
            if h == BAD and d == 2:  # the HCA that GPU 5 pairs with for GPUDirect RDMA
                rate = np.where(training & (ts >= ONSET.timestamp()), rate * (1 - 0.15 * sev(ts) - 0.05), rate)
            add(m, ilab, ts, np.round(rng.uniform(1e14, 9e14) + np.cumsum(rate * STEP)))
write_om(f"{OUT}/metrics/node-exporter.om", NE)

# ---------------- kernel logs (/var/log/kern.log, rsyslog with the kernel's [uptime]) ----------------
def klog(host, t, msg):
    up = (t - BOOT[host]).total_seconds()
    return f"{t.strftime('%b %e %H:%M:%S')} {host} kernel: [{up:12.6f}] {msg}"

for h in NODES:
    os.makedirs(f"{OUT}/logs/{h}", exist_ok=True)
    L = []
    t = T0 - timedelta(minutes=30)
    while t < T1:
        t += timedelta(seconds=float(rng.exponential(1500)))
        if rng.random() < 0.7:
            L.append((t, f"perf: interrupt took too long ({random.randint(2501, 3900)} > 2500), lowering kernel.perf_event_max_sample_rate to {random.choice([79750, 63750, 50750, 39750])}"))
        else:
            L.append((t, "TCP: request_sock_TCP: Possible SYN flooding on port 6818. Sending cookies.  Check SNMP counters."))
    if h == BAD:
        rp = "0000:a0:03.1"   # root port above GPU 5
        src = "0000:a1:00.0"
        t = ONSET
        while t < XID - timedelta(seconds=20):
            us = 0
            nb = 1 + int(rng.poisson(1 + 4 * float(sev(np.array([t.timestamp()]))[0])))
            for _ in range(nb):
                kind = rng.random() < 0.7
                tt = t + timedelta(microseconds=us)
                L.append((tt, f"pcieport {rp}: AER: Correctable error message received from {src}"))
                if kind:
                    L.append((tt + timedelta(microseconds=20), f"pcieport {rp}: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Transmitter ID)"))
                    L.append((tt + timedelta(microseconds=28), f"pcieport {rp}:   device [1022:1453] error status/mask=00001000/00006000"))
                    L.append((tt + timedelta(microseconds=36), f"pcieport {rp}:    [12] Timeout               "))
                else:
                    L.append((tt + timedelta(microseconds=14), f"pcieport {rp}: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Receiver ID)"))
                    L.append((tt + timedelta(microseconds=19), f"pcieport {rp}:   device [1022:1453] error status/mask=00000040/00006000"))
                    L.append((tt + timedelta(microseconds=24), f"pcieport {rp}:    [ 6] BadTLP                "))
                us += int(rng.integers(9000, 110000))
            s = float(sev(np.array([t.timestamp()]))[0])
            t += timedelta(seconds=float(rng.exponential(420 * (1 - 0.85 * s) + 20)))
        x = XID
        L.append((x, "NVRM: GPU at PCI:0000:a1:00: GPU-" + UUIDS[(BAD, BADGPU)][4:]))
        L.append((x + timedelta(microseconds=8), "NVRM: GPU Board Serial Number: 1653723052734"))
        L.append((x + timedelta(microseconds=11), "NVRM: Xid (PCI:0000:a1:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."))
        L.append((x + timedelta(microseconds=15), "NVRM: GPU 0000:a1:00.0: GPU has fallen off the bus."))
        L.append((x + timedelta(microseconds=18), "NVRM: GPU 0000:a1:00.0: GPU serial number is 1653723052734."))
    L.sort(key=lambda z: z[0])
    with open(f"{OUT}/logs/{h}/kern.log", "w") as f:
        for t, m in L:
            f.write(klog(h, t, m) + "\n")

# ---------------- trainer output (sbatch .out, srun --label) ----------------
def megatron_run(path, job_nodes, start, first_iter, t_train, t_stop, jobid, hang=False):
    ntask = len(job_nodes)
    last = ntask - 1
    gpus = 8 * ntask
    out = []
    w = len(str(ntask - 1))
    lbl = lambda r: f"{r:>{w}}: "
    out.append(f"{lbl(0)}using world size: {gpus}, data-parallel size: {gpus}, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1 ")
    out.append(f"{lbl(0)}> building GPT2BPETokenizer tokenizer ...")
    out.append(f"{lbl(0)}> initializing torch distributed ...")
    out.append(f"{lbl(0)}> compiling dataset index builder ...")
    out.append(f"{lbl(0)}[after model, optimizer, and learning rate scheduler are built] datetime: {(t_train - timedelta(seconds=71)).strftime('%Y-%m-%d %H:%M:%S')} ")
    out.append(f"{lbl(0)} loading checkpoint from /lustre/proj/gpt13b/checkpoints at iteration {first_iter}")
    out.append(f"{lbl(0)}  successfully loaded checkpoint from /lustre/proj/gpt13b/checkpoints [ t 1/1, p 1/1 ] at iteration {first_iter}")
    out.append(f"{lbl(0)}[after dataloaders are built] datetime: {(t_train - timedelta(seconds=4)).strftime('%Y-%m-%d %H:%M:%S')} ")
    out.append(f"{lbl(0)}done with setup ...")
    out.append(f"{lbl(0)}training ...")
    out.append(f"{lbl(0)}[before the start of training step] datetime: {t_train.strftime('%Y-%m-%d %H:%M:%S')} ")
    it = first_iter
    t = t_train
    base_ms = 7365.0 * 16 / ntask
    gbs = 1024
    tps = []
    while True:
        it += 5
        slow = float(slow_factor(np.array([t.timestamp()]))[0]) if ntask == 16 else 1.0
        ms = base_ms * slow * (1 + rng.normal(0, 0.004))
        if it - first_iter == 5:
            ms *= 1.06
        t = t + timedelta(milliseconds=5 * ms)
        if t >= t_stop:
            break
        tflops = 0.0 + 152.6 * (7365.0 * 16 / ntask) / ms
        loss = 2.21 - 0.04 * np.log1p((it - 15000) / 500) + rng.normal(0, 0.012)
        gn = abs(0.19 + rng.normal(0, 0.015))
        out.append(f"{lbl(last)} [{t.strftime('%Y-%m-%d %H:%M:%S')}] iteration {it:>8d}/  250000 | consumed samples: {it * gbs:>12d} | "
                   f"elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
                   f"learning rate: {1.5e-4 * (1 - it / 250000 * 0.9):.6E} | global batch size: {gbs:>5d} | lm loss: {loss:.6E} | "
                   f"loss scale: 1.0 | grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
        tps.append((t, gbs * 4096 / (ms / 1000)))
        if it % 500 == 0:
            out.append(f"{lbl(0)}saving checkpoint at iteration {it:>7d} to /lustre/proj/gpt13b/checkpoints in torch_dist format")
            out.append(f"{lbl(0)}  successfully saved checkpoint from iteration {it:>7d} to /lustre/proj/gpt13b/checkpoints [ t 1/1, p 1/1 ]")
            t += timedelta(seconds=float(rng.uniform(18, 26)))
    if hang:
        # the other ranks' NCCL watchdogs fire 600 s after the GPU vanished (verbatim shape: hiyouga/LlamaFactory#7396)
        wt = WATCHDOG
        for r in [0, 8, 16, 24, 32, 40, 48, 56]:
            node_i = r // 8
            ns = f"{int(rng.integers(100000000, 999999999))}"
            out.append(f"{lbl(node_i)}[rank{r}]:[E{wt.strftime('%m%d %H:%M:%S')}.{ns} ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")
        for r in [0, 8, 16, 24]:
            ns = f"{int(rng.integers(100000000, 999999999))}"
            out.append(f"{lbl(r // 8)}[rank{r}]:[E{(wt + timedelta(milliseconds=57)).strftime('%m%d %H:%M:%S')}.{ns} ProcessGroupNCCL.cpp:1664] [PG 1 Rank {r}] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return it, tps

last_it, tps1 = megatron_run(f"{OUT}/logs/slurm/slurm-48213.out", NODES, JOB1_START, 20500,
                             JOB1_START + timedelta(seconds=140), XID, jobid=48213, hang=True)
resume = (last_it // 500) * 500
_, tps2 = megatron_run(f"{OUT}/logs/slurm/slurm-48231.out", [n for n in NODES if n != BAD], JOB2_START, resume,
                       TRAIN2, T1 + timedelta(seconds=60), jobid=48231)
pre = np.mean([v for t, v in tps1 if T0 + timedelta(minutes=5) <= t < ONSET])
deg = np.mean([v for t, v in tps1 if ONSET + timedelta(minutes=2) <= t < XID])
post = np.mean([v for t, v in tps2 if t >= TRAIN2 + timedelta(minutes=2)])
loss_pct = round(100 * (1 - deg / pre), 1)

inc = {
    "id": ID,
    "title": "GPT-13B pretraining on 16 x 8 A100 PCIe slows, then crashes and restarts on 15 nodes",
    "window": {"start": T0.isoformat(), "end": T1.isoformat()},
    "baseline": {"start": T0.isoformat(), "end": (T0 + timedelta(minutes=35)).isoformat()},
    "primary_signal": "throughput",
    "cluster": {"name": "hpc-a100", "nodes": 16, "gpus_per_node": 8, "gpu_model": "A100"},
    "trainer": {"seq_length": 4096, "global_batch_size": 1024},
}
with open(f"{OUT}/incident.yaml", "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

truth = {
    "id": ID,
    "cause": "The PCIe link of GPU 5 on gpu-node-09 (0000:a1:00.0, behind root port 0000:a0:03.1) degraded, logging AER correctable data-link-layer errors and PCIe replays that slowed that GPU's transfers and so the whole job, until the GPU fell off the bus (Xid 79) and the job died and was restarted without the node.",
    "cause_metrics": ["DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_PROF_PCIE_RX_BYTES",
                      "node_infiniband_port_data_received_bytes_total"],
    "cause_log_evidence": [
        {"text": "pcieport 0000:00:03.1: AER: Correctable error message received from 0000:00:00.0", "source": "https://github.com/pop-os/pop/issues/3363",
         "adapted": "host, timestamp/uptime, PCI addresses (root port -> 0000:a0:03.1, source -> 0000:a1:00.0)"},
        {"text": "pcieport 0000:00:03.1: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Transmitter ID)", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "pcieport 0000:00:03.1:   device [1022:1453] error status/mask=00001000/00006000", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "pcieport 0000:00:03.1:    [12] Timeout               ", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "pcieport 0000:00:03.1: PCIe Bus Error: severity=Correctable, type=Data Link Layer, (Receiver ID)", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "pcieport 0000:00:03.1:   device [1022:1453] error status/mask=00000040/00006000", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "pcieport 0000:00:03.1:    [ 6] BadTLP                ", "source": "https://github.com/pop-os/pop/issues/3363", "adapted": "host, timestamp, PCI address"},
        {"text": "NVRM: GPU at PCI:0000:91:00: GPU-b6c3b2be-c55b-d076-fa0e-d464e4c7e08b", "source": "https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/sxid/README.md", "adapted": "host, timestamp, PCI address, GPU UUID (matches the dcgm UUID label)"},
        {"text": "NVRM: GPU Board Serial Number: 1653723052734", "source": "https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/sxid/README.md", "adapted": "host, timestamp"},
        {"text": "NVRM: Xid (PCI:0000:91:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", "source": "https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/sxid/README.md", "adapted": "host, timestamp, PCI address"},
        {"text": "NVRM: GPU 0000:91:00.0: GPU has fallen off the bus.", "source": "https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/sxid/README.md", "adapted": "host, timestamp, PCI address"},
        {"text": "NVRM: GPU 0000:91:00.0: GPU serial number is 1653723052734.", "source": "https://github.com/leptonai/gpud/blob/main/components/accelerator/nvidia/sxid/README.md", "adapted": "host, timestamp, PCI address"},
        {"text": "[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600060 milliseconds before timing out.",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/7396", "adapted": "timestamp, rank; srun --label prefix added (consequence, not cause)"},
        {"text": "[rank0]:[E321 02:07:08.465150152 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] Exception (either an error or timeout) detected by watchdog at work: 1580, last enqueued NCCL work: 1582, last completed NCCL work: 1579.",
         "source": "https://github.com/hiyouga/LlamaFactory/issues/7396", "adapted": "timestamp, rank; srun --label prefix added (consequence)"},
    ],
    "benign_log_sources": ["Megatron-LM timestamped iteration line shape (e.g. the 2024-09-03 log quoted in public Megatron usage notes)",
                           "perf 'interrupt took too long' and TCP SYN-cookie kernel messages (standard kernel wording)"],
    "hosts": [BAD],
    "gpu": {"host": BAD, "index": BADGPU, "pci_bus_id": "00000000:A1:00.0", "uuid": UUIDS[(BAD, BADGPU)]},
    "onset": ONSET.isoformat().replace("+00:00", "Z"),
    "xid79_at": XID.isoformat().replace("+00:00", "Z"),
    "job_crash_at": JOB1_END.isoformat().replace("+00:00", "Z"),
    "job_restart_training_at": TRAIN2.isoformat().replace("+00:00", "Z"),
    "job_throughput_loss_pct": float(loss_pct),
    "job_throughput_after_restart_vs_baseline_pct": float(round(100 * (post / pre - 1), 1)),
    "what_a_good_postmortem_says": (
        "From 01:47 UTC GPU 5 of gpu-node-09 (PCI 0000:a1:00.0) showed a climbing PCIe replay counter while its root port logged AER "
        "correctable Data Link Layer errors (replay timer timeouts, bad TLPs); the synchronous job slowed about 5% for an hour. "
        "At 02:52 the GPU fell off the bus (Xid 79), all ranks hung until the NCCL watchdog fired 10 minutes later, and the job "
        "restarted at 03:08 without gpu-node-09 at ~15/16 of the old speed: the GPU/riser/slot of that node needs reseating or replacing "
        "before it returns to service; the 1-hour AER/replay trail was an early warning that could have drained it."),
}
with open(f"{OUT}/truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=200)
print("loss", loss_pct, "after restart", round(100 * (post / pre - 1), 1), "last_it", last_it, "resume", resume)
