#!/usr/bin/env python3
"""Generate incident inc4-lustre-slow-clients: 3 of 24 hosts lose their Lustre client
path (LNet o2ib timeouts) for ~1 h; their data loaders stall and the synchronous job
loses ~6%. Fixed seed. Writes ./inc4-lustre-slow-clients/ next to this script."""
import os, math, datetime as dt, shutil
import numpy as np, yaml

SEED = 20250409
rng = np.random.default_rng(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
ID = "inc4-lustre-slow-clients"
OUT = os.path.join(HERE, ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(f"{OUT}/metrics"); os.makedirs(f"{OUT}/logs/train")

UTC = dt.timezone.utc
T0 = dt.datetime(2025, 4, 9, 9, 0, 0, tzinfo=UTC)
WIN = 2 * 3600                       # 2 h window
STEP = 30                            # scrape interval
F0 = T0 + dt.timedelta(minutes=47, seconds=10)   # onset of the client-side stalls
F1 = T0 + dt.timedelta(minutes=110, seconds=40)  # path repaired
NH, NG = 24, 8
hosts = [f"node-b2-{i:02d}" for i in range(1, NH + 1)]
ips = [f"10.42.2.{10 + i}" for i in range(1, NH + 1)]
BAD = [13, 14, 15]                   # node-b2-14,15,16 (same leaf, same LNet path)
MODEL = "NVIDIA H100 80GB HBM3"
PCI = ["00000000:18:00.0", "00000000:2A:00.0", "00000000:3A:00.0", "00000000:5D:00.0",
       "00000000:9A:00.0", "00000000:AB:00.0", "00000000:BA:00.0", "00000000:DB:00.0"]

def uuid():
    h = rng.integers(0, 16, 32); s = "".join("0123456789abcdef"[x] for x in h)
    return f"GPU-{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"
UUIDS = [[uuid() for _ in range(NG)] for _ in range(NH)]

def ts(t):  # RFC 3339 with offset
    return t.strftime("%Y-%m-%dT%H:%M:%S+00:00")

# ---------------- step-level simulation of the synchronous job ----------------
BASE_STEP = 4.071      # s, GPT 13B, GBS 1024 x 4096 tokens, 192 H100
TOK = 1024 * 4096
f0s, f1s = (F0 - T0).total_seconds(), (F1 - T0).total_seconds()
# big stall episodes: LNet tx timeouts + RPC failures on the bad hosts (start s, dur s, host)
episodes = [(f0s + 5, 21.0, 13), (f0s + 610, 14.0, 15), (f0s + 1330, 29.0, 14),
            (f0s + 1985, 17.0, 13), (f0s + 2710, 23.0, 15), (f0s + 3340, 16.0, 14)]
CKPT_EVERY = 500
steps = []   # (start, end, iteration, stall_s, stall_host)
t, it = -3.3, 2001
ep_i = 0
while t < WIN + 60:
    d = BASE_STEP * (1 + rng.normal(0, 0.004))
    stall, sh = 0.0, None
    if f0s <= t < f1s:
        if rng.random() < 0.035:                       # dataloader blocked on a Lustre read/open
            stall = rng.exponential(2.0); sh = int(rng.choice(BAD))
        while ep_i < len(episodes) and episodes[ep_i][0] <= t + d:
            stall += episodes[ep_i][1]; sh = episodes[ep_i][2]; ep_i += 1
    ck = 0.0
    if it % CKPT_EVERY == 0:
        ck = 31.0 + rng.normal(0, 1.5)
        if f0s <= t < f1s:
            ck = 84.0 + rng.normal(0, 4)             # the three slow clients hold the collective save
    steps.append((t, t + d + stall + ck, it, stall, sh, ck))
    t += d + stall + ck; it += 1

st = np.array([s[0] for s in steps]); en = np.array([s[1] for s in steps])
stall_arr = np.array([s[3] for s in steps]); ck_arr = np.array([s[5] for s in steps])
n_samp = WIN // STEP + 1
grid = np.arange(n_samp) * STEP

def tokens_rate(a, b):    # tokens completed per second over (a,b]
    done = ((en > a) & (en <= b)).sum()
    return done * TOK / (b - a)

def stalled_at(x):        # is a data-stall (not a checkpoint) in progress at time x? which host
    i = np.searchsorted(st, x, side="right") - 1
    if i < 0: return None
    s = steps[i]
    normal_end = s[0] + (s[1] - s[0] - s[3] - s[5])
    if s[3] > 0 and normal_end <= x < normal_end + s[3]: return s[4]
    return None

def ckpt_at(x):
    i = np.searchsorted(st, x, side="right") - 1
    if i < 0: return False
    s = steps[i]; return s[5] > 0 and s[1] - s[5] <= x < s[1]

# trainer gauge: tokens/s over the last 30 s (exporter scraped with the others)
def last_rate(g):   # the trainer's exporter publishes the rate of the last completed iteration
    j = np.searchsorted(en, g, side="right") - 1
    return TOK / (en[j] - st[j]) if j >= 0 else TOK / BASE_STEP
tps = np.array([last_rate(g) for g in grid])
# per-interval stall fractions for node metrics
def frac_stalled(a, b, host=None):
    tot = 0.0
    for s in steps:
        if s[1] < a or s[0] > b or s[3] <= 0: continue
        if host is not None and s[4] != host: continue
        ne = s[0] + (s[1] - s[0] - s[3] - s[5])
        tot += max(0.0, min(b, ne + s[3]) - max(a, ne))
    return tot / (b - a)

rows = []   # DCGM rows
E = np.zeros((NH, NG))
E += rng.uniform(2.1e12, 2.6e12, (NH, NG))      # mJ since boot (~weeks of uptime)
toff = rng.normal(0, 2.2, (NH, NG)) + rng.normal(0, 1.5, (NH, 1))   # persistent thermal offsets
poff = rng.normal(0, 12, (NH, NG))
temp = np.full((NH, NG), 60.0) + toff
with open(f"{OUT}/metrics/dcgm-exporter.csv", "w") as f:
    f.write("timestamp,metric,value,Hostname,gpu,UUID,device,modelName,pci_bus_id,DCGM_FI_DRIVER_VERSION,instance,job\n")
    for k, g in enumerate(grid):
        tt = ts(T0 + dt.timedelta(seconds=int(g)))
        sh = stalled_at(g); ck = ckpt_at(g)
        for h in range(NH):
            for gi in range(NG):
                if ck:
                    util = rng.uniform(0, 100) if rng.random() < 0.3 else 0.0
                    pw, tens = 135 + rng.normal(0, 6), 0.0
                elif sh is None:
                    util = 100.0 if rng.random() < 0.86 else float(rng.integers(93, 100))
                    pw = 648 + poff[h, gi] + rng.normal(0, 18); tens = 0.47 + rng.normal(0, 0.015)
                elif h == sh:      # this host's ranks wait for a batch: GPUs idle
                    util = float(rng.integers(0, 4)); pw = 128 + rng.normal(0, 5); tens = 0.0
                else:              # everyone else spins in the NCCL all-reduce kernel
                    util = 100.0; pw = 238 + poff[h, gi] * 0.3 + rng.normal(0, 10); tens = 0.0
                pw = min(pw, 699.0)
                temp[h, gi] += (30 + pw * 0.052 + toff[h, gi] - temp[h, gi]) * 0.35
                E[h, gi] += pw * STEP * 1000
                sm = 1980 if pw < 690 else 1965
                lab = f"{hosts[h]},{gi},{UUIDS[h][gi]},nvidia{gi},{MODEL},{PCI[gi]},550.90.07,{ips[h]}:9400,dcgm-exporter"
                rows_ = (("DCGM_FI_DEV_GPU_UTIL", f"{util:.0f}"),
                         ("DCGM_FI_DEV_POWER_USAGE", f"{pw:.3f}"),
                         ("DCGM_FI_DEV_GPU_TEMP", f"{round(temp[h, gi] + rng.normal(0, 0.4)):.0f}"),
                         ("DCGM_FI_DEV_SM_CLOCK", f"{sm}"),
                         ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", f"{max(tens, 0):.6f}"),
                         ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", f"{E[h, gi]:.0f}"))
                for m, v in rows_:
                    f.write(f"{tt},{m},{v},{lab}\n")

# ---------------- node_exporter ----------------
IBDEV = [f"mlx5_{i}" for i in range(9)]     # mlx5_0..7 compute rails, mlx5_8 storage (LNet o2ib)
ibc = rng.uniform(1e14, 3e14, (NH, 9, 2))
cpu = {m: rng.uniform(a, b, NH) for m, (a, b) in
       {"idle": (4e7, 5e7), "user": (2e7, 3e7), "system": (3e6, 5e6), "iowait": (2e4, 6e4)}.items()}
psi_w = rng.uniform(800, 2000, NH); psi_s = psi_w * 0.8
disk = {k: rng.uniform(a, b, NH) for k, (a, b) in
        {"r": (4e6, 6e6), "rt": (900, 1400), "w": (2e7, 3e7), "wt": (9e3, 1.4e4), "io": (2e4, 3e4)}.items()}
lus_avail = 1.412e15 - 3.1e12
load_base = rng.uniform(11, 15, NH)
boot = [T0.timestamp() - rng.uniform(9, 30) * 86400 for _ in range(NH)]
with open(f"{OUT}/metrics/node-exporter.csv", "w") as f:
    f.write("timestamp,metric,value,instance,job,device,port,mode,mountpoint,fstype\n")
    for k, g in enumerate(grid):
        tt = ts(T0 + dt.timedelta(seconds=int(g)))
        a, b = max(0, g - STEP), max(STEP, g)
        fs_all = frac_stalled(a, b)
        in_ck = ckpt_at(g) or any(ckpt_at(x) for x in np.linspace(a, b, 7))
        lus_avail -= rng.uniform(0, 4e9)
        for h in range(NH):
            I = f"{ips[h]}:9100"; J = "node"
            bad = h in BAD and f0s <= g < f1s
            fs_h = frac_stalled(a, b, h) if h in BAD else 0.0
            # compute rails: all-reduce traffic proportional to progress
            prog = 1 - fs_all
            for d in range(8):
                r = 2.9e9 * prog * (1 + rng.normal(0, 0.02))
                ibc[h, d, 0] += r * STEP; ibc[h, d, 1] += r * STEP * (1 + rng.normal(0, 0.004))
            # storage rail: data loader reads (+ checkpoint writes)
            rd = 26e6 * (1 + rng.normal(0, 0.15)); wr = 0.4e6 * (1 + rng.normal(0, 0.2))
            if in_ck: wr += 8.7e9 / 31.0 * (0.25 if bad else 1.0)
            if bad: rd *= max(0.05, 1 - 0.9 * fs_h - rng.uniform(0.1, 0.45))
            ibc[h, 8, 0] += max(rd, 0) * STEP; ibc[h, 8, 1] += max(wr, 0) * STEP
            for d in range(9):
                f.write(f"{tt},node_infiniband_port_data_received_bytes_total,{ibc[h, d, 0]:.0f},{I},{J},{IBDEV[d]},1,,,\n")
                f.write(f"{tt},node_infiniband_port_data_transmitted_bytes_total,{ibc[h, d, 1]:.0f},{I},{J},{IBDEV[d]},1,,,\n")
            # CPU (sum over 224 CPUs, exported with sum by (instance, mode))
            iow = 0.15 + rng.exponential(0.1)
            if bad: iow += 3.5 + 14 * fs_h + rng.exponential(1.5)     # data loader workers in D state
            cpu["iowait"][h] += iow * STEP
            cpu["user"][h] += (38 + rng.normal(0, 1.5)) * STEP
            cpu["system"][h] += (6.5 + rng.normal(0, 0.4) + (1.2 if bad else 0)) * STEP
            cpu["idle"][h] += (224 - 38 - 6.5 - iow) * STEP
            for m in ("idle", "iowait", "system", "user"):
                f.write(f"{tt},node_cpu_seconds_total,{cpu[m][h]:.2f},{I},{J},,,{m},,\n")
            pw_ = 0.002 + rng.exponential(0.002) + ((0.22 + 0.7 * fs_h + rng.uniform(0, 0.15)) if bad else 0)
            psi_w[h] += pw_ * STEP; psi_s[h] += pw_ * 0.35 * STEP
            f.write(f"{tt},node_pressure_io_waiting_seconds_total,{psi_w[h]:.6f},{I},{J},,,,,\n")
            f.write(f"{tt},node_pressure_io_stalled_seconds_total,{psi_s[h]:.6f},{I},{J},,,,,\n")
            ld = load_base[h] + rng.normal(0, 0.8) + ((14 + 20 * fs_h + rng.normal(0, 2)) if bad else 0)
            f.write(f"{tt},node_load1,{max(ld, 0):.2f},{I},{J},,,,,\n")
            # local NVMe (healthy everywhere)
            nr = rng.poisson(40) * STEP / 30; nw = rng.poisson(220) * STEP / 30
            if in_ck: nw += 50
            disk["r"][h] += nr; disk["rt"][h] += nr * 0.00011; disk["w"][h] += nw
            disk["wt"][h] += nw * 0.00002; disk["io"][h] += (nr + nw) * 0.00009
            for m, key in (("node_disk_reads_completed_total", "r"), ("node_disk_read_time_seconds_total", "rt"),
                           ("node_disk_writes_completed_total", "w"), ("node_disk_write_time_seconds_total", "wt"),
                           ("node_disk_io_time_seconds_total", "io")):
                v = disk[key][h]
                f.write(f"{tt},{m},{(f'{v:.0f}' if key in ('r', 'w') else f'{v:.3f}')},{I},{J},nvme0n1,,,,\n")
            # filesystems: / and /raid always; /lustre skipped while statfs hangs (node_exporter's stuck-mount handling)
            f.write(f"{tt},node_filesystem_avail_bytes,{1.71e12 - h * 3.3e9:.0f},{I},{J},/dev/nvme0n1p2,,,/,ext4\n")
            f.write(f"{tt},node_filesystem_avail_bytes,{2.62e13 - h * 1.1e11:.0f},{I},{J},/dev/md0,,,/raid,ext4\n")
            if not (bad and fs_h > 0.3):
                f.write(f"{tt},node_filesystem_avail_bytes,{lus_avail:.0f},{I},{J},172.31.126.87@o2ib:/jmain01,,,/lustre/jmain01,lustre\n")
            f.write(f"{tt},node_boot_time_seconds,{boot[h]:.0f},{I},{J},,,,,\n")

# ---------------- trainer gauges (rank-0 exporter) ----------------
with open(f"{OUT}/metrics/trainer.csv", "w") as f:
    f.write("timestamp,metric,value,instance,job\n")
    for k, g in enumerate(grid):
        tt = ts(T0 + dt.timedelta(seconds=int(g)))
        a = max(0, g - STEP); b = max(STEP, g)
        m = (en > a) & (en <= b)
        stp = float(np.mean(en[m] - st[m])) if m.any() else float("nan")
        f.write(f"{tt},trainer_tokens_per_second,{tps[k]:.1f},{ips[0]}:9464,megatron-gpt13b\n")
        if m.any():
            f.write(f"{tt},trainer_step_time_seconds,{stp:.3f},{ips[0]}:9464,megatron-gpt13b\n")
            f.write(f"{tt},trainer_iteration,{steps[int(np.where(m)[0][-1])][2]},{ips[0]}:9464,megatron-gpt13b\n")

# ---------------- trainer log (Megatron-LM under srun --label) ----------------
JOB = 48213
lines = []
t_start = T0 - dt.timedelta(hours=2, minutes=26)
def L(t, rank, msg): lines.append((t, f"{rank}: {msg}"))
L(t_start, 0, "using world size: 192, data-parallel size: 96, context-parallel size: 1, tensor-model-parallel size: 2, pipeline-model-parallel size: 1 ")
L(t_start, 0, "------------------------ arguments ------------------------")
for k, v in [("global_batch_size", 1024), ("micro_batch_size", 2), ("seq_length", 4096), ("num_layers", 40),
             ("hidden_size", 5120), ("num_attention_heads", 40), ("lr", "0.0003"), ("log_interval", 10),
             ("save", "/lustre/jmain01/proj/gpt13b/ckpt"), ("save_interval", CKPT_EVERY),
             ("data_path", "['/lustre/jmain01/proj/data/pile_dedup_text_document']"),
             ("num_workers", 2), ("tensor_model_parallel_size", 2), ("bf16", True)]:
    L(t_start, 0, f"  {k} {'.' * max(3, 48 - len(k))} {v}")
L(t_start, 0, "-------------------- end of arguments ---------------------")
L(t_start, 0, f"loading checkpoint from /lustre/jmain01/proj/gpt13b/ckpt at iteration 0")
L(t_start, 0, "> building train, validation, and test datasets ...")
last = None
LR = 3e-4
for i, s in enumerate(steps):
    it_ = s[2]
    if it_ % CKPT_EVERY == 0:
        L(T0 + dt.timedelta(seconds=s[1] - s[5]), 0,
          f"saving checkpoint at iteration {it_:8d} to /lustre/jmain01/proj/gpt13b/ckpt in torch_dist format")
        L(T0 + dt.timedelta(seconds=s[1]), 0,
          f"  successfully saved checkpoint from iteration {it_:8d} to /lustre/jmain01/proj/gpt13b/ckpt [ t 1/2, p 1/1 ]")
    if it_ % 10 == 0:
        blk = steps[max(0, i - 9): i + 1]
        el = (blk[-1][1] - blk[0][0]) / len(blk) * 1000
        tfl = 6 * 13.0e9 * TOK / (el / 1000) / 192 / 1e12
        loss = 2.31 - 0.00002 * (it_ - 2000) + rng.normal(0, 0.012)
        gn = 0.19 + abs(rng.normal(0, 0.02))
        lr = LR * (0.5 * (1 + math.cos(math.pi * it_ / 250000)))
        stamp = (T0 + dt.timedelta(seconds=s[1])).strftime("%Y-%m-%d %H:%M:%S")
        L(T0 + dt.timedelta(seconds=s[1]), 191,
          f" [{stamp}] iteration {it_:8d}/  250000 | consumed samples: {it_ * 1024:12d} | "
          f"elapsed time per iteration (ms): {el:.1f} | throughput per GPU (TFLOP/s/GPU): {tfl:.1f} | "
          f"learning rate: {lr:.6E} | global batch size: {1024:5d} | lm loss: {loss:.6E} | loss scale: 1.0 | "
          f"grad norm: {gn:.3f} | number of skipped iterations:   0 | number of nan iterations:   0 |")
lines = [l for l in lines if l[0] <= T0 + dt.timedelta(seconds=WIN + 30)]
with open(f"{OUT}/logs/train/slurm-{JOB}.out", "w") as f:
    for _, l in sorted(lines, key=lambda x: x[0]):
        f.write(l + "\n")

# ---------------- kernel logs (Ubuntu kern.log, rsyslog RFC 3164 with the kernel's uptime stamp) -------
BENIGN = [
    "perf: interrupt took too long (2512 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
    "hrtimer: interrupt took 16813 ns",
    "clocksource: Long readout interval, skipping watchdog check: cs_nsec: 1584036171 wd_nsec: 1584036160",
    "nvidia-nvswitch2: open (major=509)",
    "IPv6: ADDRCONF(NETDEV_CHANGE): ib0: link becomes ready",
    "mlx5_core 0000:0c:00.0: mlx5_pcie_event:301:(pid 1253): PCIe slot advertised sufficient power (27W).",
    "EXT4-fs (md0): re-mounted. Opts: errors=remount-ro",
    "process 'opt/conda/bin/python3.10' started with executable stack",
    "device-mapper: uevent: version 1.0.3",
    "nfs: server nfs-home01 OK",
]
# (the last one is deliberately absent from the pool used below: no NFS in this cluster)
BENIGN = BENIGN[:-1]
FAULT = {
 "tx": "LNet: 2431:0:(o2iblnd_cb.c:3174:kiblnd_check_conns()) Timed out tx for 172.31.126.87@o2ib: 403055 seconds",
 "tx_skip": "LNet: 2431:0:(o2iblnd_cb.c:3174:kiblnd_check_conns()) Skipped 24 previous similar messages",
 "rpc": "Lustre: 2449:0:(client.c:2141:ptlrpc_expire_one_request()) @@@ Request sent has failed due to network error: [sent {s}/real {r}]  req@ffff880eb14da700 x1570198182041824/t0(0) o250->MGC172.31.126.87@o2ib@172.31.126.87@o2ib:26/25 lens 520/544 e 0 to 1 dl {d} ref 1 fl Rpc:eXN/0/ffffffff rc 0/-1",
 "rpc_skip": "Lustre: 2449:0:(client.c:2141:ptlrpc_expire_one_request()) Skipped 23 previous similar messages",
 "ping": "LustreError: 11-0: jmain01-MDT0000-mdc-ffff88203810d800: operation obd_ping to node 172.31.126.88@o2ib failed: rc = -107",
}
os.makedirs(f"{OUT}/logs/nodes", exist_ok=True)
fault_log = []
for h in range(NH):
    ev = []
    t = T0 - dt.timedelta(minutes=30)
    while t < T0 + dt.timedelta(seconds=WIN + 600):
        t += dt.timedelta(seconds=float(rng.exponential(900)))
        ev.append((t, str(rng.choice(BENIGN))))
    if h in BAD:
        for (s0, dur, eh) in episodes:
            if eh != h and rng.random() < 0.5: continue     # the path is shared: others see some of it too
            te = T0 + dt.timedelta(seconds=s0 + rng.uniform(0, 3))
            sent = int(te.timestamp()) - 55
            ev.append((te, FAULT["tx"]))
            ev.append((te, FAULT["tx_skip"]))
            ev.append((te + dt.timedelta(seconds=rng.uniform(3, 9)),
                       FAULT["rpc"].format(s=sent, r=sent + 10, d=sent + 55)))
            ev.append((te + dt.timedelta(seconds=rng.uniform(9, 11)), FAULT["rpc_skip"]))
            if dur > 25:
                ev.append((te + dt.timedelta(seconds=dur * 0.8), FAULT["ping"]))
    ev.sort(key=lambda x: x[0])
    with open(f"{OUT}/logs/nodes/{hosts[h]}.kern.log", "w") as f:
        for t, m in ev:
            up = t.timestamp() - boot[h]
            line = f"{t.strftime('%b %e %H:%M:%S')} {hosts[h]} kernel: [{up:12.6f}] {m}"
            f.write(line + "\n")
            if h in BAD and (m.startswith("L") and ("LNet" in m or "Lustre" in m)):
                fault_log.append(line)

# ---------------- incident.yaml + truth.yaml ----------------
base = tokens_rate(300, f0s - 60)           # tokens actually processed, not the gauge's mean
during = tokens_rate(f0s, f1s)
loss_pct = round(float((base - during) / base * 100), 1)
inc = {
    "id": ID,
    "title": "GPT-13B pretraining (job 48213) loses throughput for about an hour",
    "window": {"start": ts(T0), "end": ts(T0 + dt.timedelta(seconds=WIN))},
    "baseline": {"start": ts(T0), "end": ts(T0 + dt.timedelta(minutes=45))},
    "primary_signal": "throughput",
    "cluster": {"name": "b2-h100", "nodes": NH, "gpus_per_node": NG, "gpu_model": "H100"},
    "trainer": {"seq_length": 4096, "global_batch_size": 1024, "gpus": NH * NG},
}
yaml.safe_dump(inc, open(f"{OUT}/incident.yaml", "w"), sort_keys=False)
SRC = "https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/14"
truth = {
    "id": ID,
    "cause": ("The Lustre client path (LNet over o2ib to the jmain01 MGS/MDS) of three hosts on one leaf, "
              "node-b2-14/15/16, timed out repeatedly for about an hour, so their data-loader reads and the "
              "collective checkpoint save stalled and every rank of the synchronous job waited for them."),
    "cause_metrics": ["node_pressure_io_waiting_seconds_total", "node_cpu_seconds_total{mode=iowait}",
                      "node_load1", "node_infiniband_port_data_received_bytes_total{device=mlx5_8}",
                      "node_infiniband_port_data_transmitted_bytes_total{device=mlx5_8}",
                      "node_filesystem_avail_bytes{mountpoint=/lustre/jmain01} (missing samples: statfs hung)",
                      "DCGM_FI_DEV_GPU_UTIL / DCGM_FI_DEV_POWER_USAGE (the bad hosts' GPUs idle during stalls while the others spin in NCCL)"],
    "cause_log_evidence": [
        {"text": FAULT["tx"], "source": SRC, "adapted": "host name and syslog timestamp only"},
        {"text": FAULT["tx_skip"], "source": SRC, "adapted": "host name and timestamp only"},
        {"text": FAULT["rpc"].format(s=1508144508, r=1508144518, d=1508144563), "source": SRC,
         "adapted": "host name, timestamp, and the epoch seconds inside [sent .../real ...] and dl moved to the incident's time (same offsets)"},
        {"text": FAULT["rpc_skip"], "source": SRC, "adapted": "host name and timestamp only"},
        {"text": FAULT["ping"], "source": SRC, "adapted": "host name and timestamp only"},
    ],
    "hosts": [hosts[i] for i in BAD],
    "gpu": None,
    "onset": ts(F0),
    "end": ts(F1),
    "job_throughput_loss_pct": loss_pct,
    "what_a_good_postmortem_says": (
        "From about 09:47 to 10:51 UTC the whole job lost about " + str(loss_pct) + "% of its tokens/s in bursts, "
        "because node-b2-14, -15 and -16 (one leaf) kept losing their LNet/o2ib path to the Lustre servers: their "
        "kernel logs show kiblnd tx timeouts, ptlrpc requests failing with network errors and an MDT obd_ping failing "
        "with rc -107, and their I/O pressure, iowait and load rose while storage-rail traffic fell. "
        "The GPUs are healthy (the bad hosts' GPUs go idle during the stalls, the others spin in NCCL); "
        "check the storage fabric/LNet route of those three hosts, not the GPUs or the compute fabric."),
    "notes": {"fault_lines_in_logs": len(fault_log), "window": inc["window"],
              "checkpoint_during_fault": "iteration save took ~84 s instead of ~31 s",
              "loss_measure": ("job_throughput_loss_pct is tokens actually processed during the fault hour vs the baseline. "
                               "The trainer_tokens_per_second gauge is the rate of the last completed iteration, so its mean "
                               "understates the loss (long stalls are single slow iterations); the Megatron log's 10-iteration "
                               "averages and trainer_step_time_seconds show it fully.")},
}
yaml.safe_dump(truth, open(f"{OUT}/truth.yaml", "w"), sort_keys=False, width=200)
print(ID, "loss", loss_pct, "fault lines", len(fault_log))
