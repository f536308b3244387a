#!/usr/bin/env python3
"""Incident: periodic synchronous checkpoints to an NFS server; in the second half of the window
the server (nfs-ckpt01) degrades and each save takes 4-6 min instead of ~1 min.
Writes /tmp/p/blind_INC9/ckpt-nfs-slowdown/. Fixed seed."""
import csv, os, shutil, uuid
from datetime import datetime, timedelta, timezone
import numpy as np
import yaml

SEED = 90902
rng = np.random.default_rng(SEED)
ID = "ckpt-nfs-slowdown"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
shutil.rmtree(OUT, ignore_errors=True)
os.makedirs(OUT + "/metrics"); os.makedirs(OUT + "/logs")
UTC = timezone.utc
W0 = datetime(2025, 6, 3, 2, 0, tzinfo=UTC)
W1 = datetime(2025, 6, 3, 7, 0, tzinfo=UTC)
T_DEGRADE = datetime(2025, 6, 3, 4, 26, 0, tzinfo=UTC)   # nfs-ckpt01 write path degrades (not visible until a save)
SERVER, SERVER_IP, EXPORT = "nfs-ckpt01", "10.60.0.20", "nfs-ckpt01:/export/checkpoints"
hosts = [f"gpu-node-{i}" for i in range(101, 117)]
NGPU = 128
MODEL = "NVIDIA H100 80GB HBM3"
uuids = {(h, g): "GPU-" + str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)))) for h in hosts for g in range(8)}
CKPT_BYTES_NODE = 8.05e9          # 8B params, bf16 weights + fp32 master + Adam moments, /16 nodes
INTERVAL = 600                    # steps between checkpoints (~30 min)
TOK_DEV_STEP = 3 * 8192

def ts(t): return t.timestamp()
def fmt(t):  # RFC 3339, UTC offset
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

# ---------------- training timeline (rank 0 view) ----------------
step = 41420 - 41420 % 10 + 3
t = ts(W0) - 11.0
step_base = 2.93
train_lines = []     # (t, text)
saves = []           # (start, end, step)
def tl(t, msg): train_lines.append((t, msg))
acc = []; nst = 0
while t < ts(W1) + 60:
    dt = step_base * rng.lognormal(0, 0.01)
    if rng.random() < 0.003: dt += rng.uniform(0.8, 2.5)
    t += dt; step += 1; acc.append(dt); nst += 1
    if step % 10 == 0:
        st = float(np.sum(acc)) / nst; acc = []; nst = 0
        tps = TOK_DEV_STEP / st
        loss = 2.31 - (step - 41000) * 2.2e-6 + rng.normal(0, 0.018)
        tl(t, f"step: {step}  loss: {loss:7.4f}  memory: {58.2 + rng.normal(0, 0.03):.2f}GiB({73.28 + rng.normal(0, 0.04):.2f}%)  "
              f"tps: {int(round(tps)):,}  tflops: {tps * 6 * 8.03e9 / 1e12 * 1.06:.2f}  mfu: {tps * 6 * 8.03e9 / 1e12 * 1.06 / 989 * 100:.2f}%")
    if step % INTERVAL == 0:
        s0 = t + 0.05
        tl(s0, "Saving the checkpoint (or staging if async is enabled).")
        if s0 < ts(T_DEGRADE):
            d = float(rng.normal(57, 4))
        else:
            d = float(rng.uniform(245, 350))
        t = s0 + d
        saves.append((s0, t, step))
        tl(t, f"Finished saving the checkpoint (or staging if async is enabled)in {d:.2f} seconds.")
        acc = [d]   # torchtitan's next log interval includes the time spent saving
def in_save(x):
    for a, b, _ in saves:
        if a <= x < b: return (a, b)
    return None

# ---------------- metrics ----------------
dc = open(OUT + "/metrics/dcgm-exporter.csv", "w", newline="")
dw = csv.writer(dc); dw.writerow(["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device", "modelName", "pod"])
nc = open(OUT + "/metrics/node-exporter.csv", "w", newline="")
nw = csv.writer(nc); nw.writerow(["timestamp", "metric", "value", "instance", "job", "device", "port", "export", "mountaddr", "protocol", "operation", "method", "proto"])
STEP = 30
N = int((W1 - W0).total_seconds() // STEP)
grid = [ts(W0) + STEP * i for i in range(N)]
def frac_save(a, b):
    """fraction of [a,b) spent inside a save, and the save's rate scale"""
    tot = 0.0
    for s0, s1, _ in saves:
        lo, hi = max(a, s0), min(b, s1)
        if hi > lo: tot += hi - lo
    return tot / (b - a)
for hi_, h in enumerate(hosts):
    pod = f"llama3-8b-pt-{'master' if hi_ == 0 else 'worker'}-{max(0, hi_ - 1) if hi_ else 0}"
    offd = rng.uniform(1, 29); offn = rng.uniform(1, 29)
    hb = rng.normal(0, 2.2)
    gpus = [dict(clk=rng.normal(1845, 30), pw=rng.normal(640, 15), tmp=61 + hb + rng.normal(0, 1.8), temp=60.0) for _ in range(8)]
    # node counters
    c = dict(wbytes=float(rng.uniform(2e12, 6e12)), wreq=0.0, wrt=0.0, wqt=0.0, maj=float(rng.integers(0, 3)),
             gareq=float(rng.uniform(1e6, 3e6)), gart=0.0, retr=float(rng.integers(10, 60)), nfsw=0.0,
             ethtx=float(rng.uniform(5e13, 9e13)), ethrx=float(rng.uniform(3e13, 5e13)),
             ibtx=[float(rng.uniform(2e15, 4e15)) for _ in range(4)], dw=float(rng.uniform(1e7, 3e7)), dwb=float(rng.uniform(4e11, 9e11)), dio=float(rng.uniform(2e4, 6e4)),
             gc=0.0)
    c["wreq"] = c["wbytes"] / 1.05e6; c["nfsw"] = c["wreq"] * 1.0; c["wrt"] = c["wreq"] * 0.021; c["wqt"] = c["wreq"] * 0.0009
    c["gart"] = c["gareq"] * 0.0006
    dirty = 2e7
    for i in range(N):
        a = grid[i] - STEP; b = grid[i]
        fs = frac_save(a, b)
        sv = in_save(b - 1) or in_save(a + 1)
        slow = sv is not None and (sv[1] - sv[0]) > 120
        # ---- DCGM ----
        tt = b + offd + rng.uniform(-0.05, 0.05)
        for g, G in enumerate(gpus):
            busy = 1 - fs
            util = 0 if busy < 0.05 else min(100, busy * rng.normal(99.2, 0.6) + (1 - busy) * 2)
            pw = busy * (G["pw"] + rng.normal(0, 12)) + (1 - busy) * rng.normal(118, 5)
            clk = (G["clk"] + rng.normal(0, 20)) if busy > 0.5 else (1980 if rng.random() < 0.5 else 1965)
            G["temp"] += ((busy * G["tmp"] + (1 - busy) * (G["tmp"] - 22)) - G["temp"]) * 0.45 + rng.normal(0, 0.35)
            row = [h, g, uuids[(h, g)], f"nvidia{g}", MODEL, pod]
            dw.writerow([fmt(tt), "DCGM_FI_DEV_GPU_UTIL", int(round(util))] + row)
            dw.writerow([fmt(tt), "DCGM_FI_DEV_POWER_USAGE", f"{min(700, pw):.3f}"] + row)
            dw.writerow([fmt(tt), "DCGM_FI_DEV_SM_CLOCK", int(round(min(1980, clk) / 15) * 15)] + row)
            dw.writerow([fmt(tt), "DCGM_FI_DEV_GPU_TEMP", int(round(G["temp"]))] + row)
        # ---- node_exporter ----
        tn = b + offn + rng.uniform(-0.05, 0.05)
        wbytes = 0.0; lat = 0.021; maj = 0
        if fs > 0:
            for s0, s1, _ in saves:
                lo, hi = max(a, s0), min(b, s1)
                if hi > lo:
                    rate = CKPT_BYTES_NODE / (s1 - s0) * rng.uniform(0.85, 1.15)
                    wbytes += rate * (hi - lo)
                    degraded = (s1 - s0) > 120
                    lat = rng.uniform(1.8, 6.5) if degraded else rng.uniform(0.035, 0.06)
                    if degraded and rng.random() < 0.22: maj += int(rng.integers(1, 4))
        nreq = wbytes / 1.048576e6
        c["wbytes"] += wbytes; c["wreq"] += nreq; c["nfsw"] += nreq; c["wrt"] += nreq * lat; c["wqt"] += nreq * lat * 0.04
        c["maj"] += maj; c["retr"] += maj * int(rng.integers(1, 3))
        gn = rng.poisson(40 * STEP / 30) + (rng.poisson(900) if fs > 0 else 0)
        c["gareq"] += gn; c["gart"] += gn * (rng.uniform(0.0004, 0.0009) if not slow else rng.uniform(0.4, 2.5))
        c["ethtx"] += wbytes * 1.03 + rng.normal(3.2e6, 3e5) * STEP
        c["ethrx"] += rng.normal(5.1e6, 4e5) * STEP + wbytes * 0.004
        for p in range(4):
            c["ibtx"][p] += max(0.0, (1 - fs) * rng.normal(2.45e10, 6e8)) * STEP + rng.uniform(0, 1e5)
        c["dw"] += rng.poisson(45 * STEP); c["dwb"] += rng.normal(2.1e6, 3e5) * STEP; c["dio"] += rng.uniform(0.4, 1.2)
        target_dirty = (min(6e9, wbytes * 2.5) if fs > 0 and slow else (9e8 if fs > 0 else 2e7))
        dirty += (target_dirty - dirty) * 0.6 + rng.normal(0, 2e6)
        wb = (dirty * 0.35 if fs > 0 else abs(rng.normal(1e5, 5e4)))
        base = [h + "", "node-exporter"]
        inst = h
        def nwr(m, v, device="", port="", mount=False, operation="", method="", proto=""):
            nw.writerow([fmt(tn), m, v, inst, "node-exporter", device, port,
                         EXPORT if mount else "", SERVER_IP if mount else "", "tcp" if mount else "", operation, method, proto])
        nwr("node_mountstats_nfs_write_bytes_total", f"{c['wbytes']:.0f}", mount=True)
        nwr("node_mountstats_nfs_operations_requests_total", f"{c['wreq']:.0f}", mount=True, operation="WRITE")
        nwr("node_mountstats_nfs_operations_request_time_seconds_total", f"{c['wrt']:.3f}", mount=True, operation="WRITE")
        nwr("node_mountstats_nfs_operations_queue_time_seconds_total", f"{c['wqt']:.3f}", mount=True, operation="WRITE")
        nwr("node_mountstats_nfs_operations_major_timeouts_total", f"{c['maj']:.0f}", mount=True, operation="WRITE")
        nwr("node_mountstats_nfs_operations_requests_total", f"{c['gareq']:.0f}", mount=True, operation="GETATTR")
        nwr("node_mountstats_nfs_operations_request_time_seconds_total", f"{c['gart']:.3f}", mount=True, operation="GETATTR")
        nwr("node_nfs_requests_total", f"{c['nfsw']:.0f}", method="Write", proto="4")
        nwr("node_nfs_rpc_retransmissions_total", f"{c['retr']:.0f}")
        nwr("node_network_transmit_bytes_total", f"{c['ethtx']:.0f}", device="eth0")
        nwr("node_network_receive_bytes_total", f"{c['ethrx']:.0f}", device="eth0")
        for p in range(4):
            nwr("node_infiniband_port_data_transmitted_bytes_total", f"{c['ibtx'][p]:.0f}", device=f"mlx5_{p}", port="1")
        nwr("node_disk_writes_completed_total", f"{c['dw']:.0f}", device="nvme0n1")
        nwr("node_disk_written_bytes_total", f"{c['dwb']:.0f}", device="nvme0n1")
        nwr("node_disk_io_time_seconds_total", f"{c['dio']:.3f}", device="nvme0n1")
        nwr("node_memory_Dirty_bytes", f"{max(0, dirty):.0f}")
        nwr("node_memory_Writeback_bytes", f"{max(0, wb):.0f}")
        nwr("node_load1", f"{max(0, rng.normal(38, 3) + (12 if slow else 0)):.2f}")
dc.close(); nc.close()

# ---------------- trainer output (torchrun, rank 0, kubectl logs of the master pod) ----------------
os.makedirs(OUT + "/logs/trainer")
def tt_(x):
    d = datetime.fromtimestamp(x, UTC); return d.strftime("%Y-%m-%d %H:%M:%S,") + f"{d.microsecond // 1000:03d}"
pre = [
 (ts(W0) - 600, "Starting job: Llama 3 8B pretraining (resumed)"),
 (ts(W0) - 599.2, "Building 1-D device mesh with ['dp_shard'], [128]"),
 (ts(W0) - 598.7, "[GC] Initial GC collection. 0.00 seconds."),
 (ts(W0) - 590.1, "Loading tokenizer from tokenizer.model"),
 (ts(W0) - 571.9, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"),
 (ts(W0) - 570.3, "Model llama3 8B size: 8,030,261,248 total parameters"),
 (ts(W0) - 566.0, "Applied selective activation checkpointing to the model"),
 (ts(W0) - 565.1, "Applied FSDP to the model"),
 (ts(W0) - 560.4, "Checkpointing active. Checkpoints will be loaded from and saved to /mnt/ckpt/llama3-8b-pt/checkpoint"),
 (ts(W0) - 557.2, "Loading the checkpoint at step 40800."),
 (ts(W0) - 502.6, "Finished loading the checkpoint in 54.61 seconds."),
 (ts(W0) - 501.9, "Training starts at step 40801."),
]
with open(OUT + "/logs/trainer/llama3-8b-pt-master-0.log", "w") as f:
    for x, m in pre + sorted(train_lines):
        if x > ts(W1) + 30: break
        f.write(f"[rank0]:[titan] {tt_(x)} - root - INFO - {m}\n")

# ---------------- per-host journal (journalctl --utc -o short-iso) ----------------
# REAL lines (openzfs/zfs#15734, nfs-ganesha/nfs-ganesha#1295, linux-surface/linux-surface#1494), server name adapted:
NR = f"nfs: server {SERVER} not responding, still trying"
OK = f"nfs: server {SERVER} OK"
def jt(x):
    d = datetime.fromtimestamp(x, UTC); return d.strftime("%Y-%m-%dT%H:%M:%S+00:00")
first_nr = None
for h in hosts:
    d = os.path.join(OUT, "logs", h); os.makedirs(d)
    L = []
    kpid = int(rng.integers(2000, 4000)); cpid = int(rng.integers(1000, 2000))
    x = ts(W0) - 300
    while x < ts(W1):
        x += float(rng.exponential(55))
        r = rng.random()
        if r < 0.30:
            L.append((x, f"kubelet[{kpid}]: I0603 {datetime.fromtimestamp(x, UTC).strftime('%H:%M:%S.%f')} {kpid:7d} kubelet_getters.go:218] \"Pod status updated\" pod=\"kube-system/node-exporter-{h[-3:]}x9\" status=\"Running\""))
        elif r < 0.45:
            L.append((x, f"containerd[{cpid}]: time=\"{datetime.fromtimestamp(x, UTC).strftime('%Y-%m-%dT%H:%M:%S.%f')}000Z\" level=info msg=\"ExecSync for \\\"{rng.bytes(16).hex()}\\\" returns with exit code 0\""))
        elif r < 0.60:
            L.append((x, f"systemd[1]: run-containerd-runc-k8s.io-{rng.bytes(16).hex()}-runc.{''.join(rng.choice(list('abcdefghijklmnopqrstuvwxyz0123456789'), 6))}.mount: Deactivated successfully."))
        elif r < 0.72:
            L.append((x, f"kernel: hrtimer: interrupt took {int(rng.integers(60000, 700000))} ns" if rng.random() < 0.15 else
                      f"kernel: IPv6: ADDRCONF(NETDEV_CHANGE): cali{rng.bytes(16).hex()[:11]}: link becomes ready"))
        elif r < 0.84:
            L.append((x, f"CRON[{int(rng.integers(10000, 99999))}]: (root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"))
        else:
            L.append((x, f"chronyd[1102]: Selected source 10.60.0.{int(rng.integers(2, 4))} (ntp.k8s-train.internal)"))
    for s0, s1, stp in saves:
        if s0 > ts(W1): continue
        if s1 - s0 > 120:
            k = int(rng.integers(2, 8))
            x0 = s0 + float(rng.uniform(62, 118))
            for j in range(k):
                xx = x0 + float(rng.uniform(0, 1.5)); L.append((xx, "kernel: " + NR))
                first_nr = xx if first_nr is None else min(first_nr, xx)
            if s1 - s0 > 280 and rng.random() < 0.7:
                x1 = x0 + float(rng.uniform(120, 170))
                if x1 < s1 - 5:
                    for j in range(int(rng.integers(1, 4))):
                        L.append((x1 + float(rng.uniform(0, 1.0)), "kernel: " + NR)); k += 1
            xe = s1 - float(rng.uniform(0.5, 4.0))
            for j in range(k):
                L.append((xe + float(rng.uniform(0, 0.8)), "kernel: " + OK))
    L.sort()
    with open(os.path.join(d, "journal.log"), "w") as f:
        for x, m in L:
            if ts(W0) - 400 <= x <= ts(W1):
                f.write(f"{jt(x)} {h} {m}\n")

# ---------------- incident.yaml ----------------
inc = {
 "id": ID,
 "title": "llama3-8b-pt: checkpoint stalls grew from ~1 min to ~5 min",
 "window": {"start": W0.isoformat(), "end": W1.isoformat()},
 "baseline": {"start": W0.isoformat(), "end": datetime(2025, 6, 3, 4, 0, tzinfo=UTC).isoformat()},
 "primary_signal": "throughput",
 "cluster": {"name": "k8s-train-east", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
 "signal_pack": "default",
 "trainer": {"logs": ["logs/trainer/*.log"], "gpus": NGPU, "host": "gpu-node-101", "seq_length": 8192},
}
with open(OUT + "/incident.yaml", "w") as f:
    yaml.safe_dump(inc, f, sort_keys=False)

# ---------------- truth ----------------
# throughput loss: tokens trained per wall second, degraded half vs baseline (both include their saves)
def tokens_between(a, b):
    # training seconds in [a,b) minus save time
    tot = b - a
    for s0, s1, _ in saves:
        lo, hi = max(a, s0), min(b, s1)
        if hi > lo: tot -= hi - lo
    return tot
eff_base = tokens_between(ts(W0), ts(datetime(2025, 6, 3, 4, 0, tzinfo=UTC))) / (ts(datetime(2025, 6, 3, 4, 0, tzinfo=UTC)) - ts(W0))
first_slow = min(s0 for s0, s1, _ in saves if s1 - s0 > 120)
eff_deg = tokens_between(first_slow, ts(W1)) / (ts(W1) - first_slow)
loss_pct = round(100 * (1 - eff_deg / eff_base), 1)
sv = [{"start": fmt(s0), "duration_s": round(s1 - s0, 1), "step": stp} for s0, s1, stp in saves if s0 < ts(W1)]
truth = {
 "id": ID,
 "cause": f"The NFS server {SERVER} ({SERVER_IP}, export /export/checkpoints) degraded around 04:26 UTC, so the job's "
          "synchronous checkpoint writes, which had taken ~1 min every 30 min, took 4-6 min and stalled every rank for that long.",
 "cause_metrics": ["node_mountstats_nfs_operations_request_time_seconds_total", "node_mountstats_nfs_operations_requests_total",
                   "node_mountstats_nfs_operations_major_timeouts_total", "node_mountstats_nfs_write_bytes_total",
                   "node_nfs_rpc_retransmissions_total", "node_memory_Dirty_bytes", "node_network_transmit_bytes_total"],
 "cause_log_evidence": [
   {"text": NR, "files": "logs/gpu-node-*/journal.log (all 16 hosts, during each save after 04:26)",
    "source": "https://github.com/openzfs/zfs/issues/15734 (comment by manio, 2024-04-10: "
              "'nfs: server 192.168.0.1 not responding, still trying'); also https://github.com/nfs-ganesha/nfs-ganesha/issues/1295 "
              "and https://github.com/linux-surface/linux-surface/issues/1494 ('nfs: server thinkcentre not responding, still trying'). "
              "Verbatim; server name changed to nfs-ckpt01."},
   {"text": OK, "files": "logs/gpu-node-*/journal.log",
    "source": "https://github.com/openzfs/zfs/issues/15734 ('nfs: server 192.168.0.1 OK'); "
              "https://github.com/linux-surface/linux-surface/issues/1494 ('nfs: server thinkcentre OK'). Verbatim; server name changed."},
 ],
 "hosts": [SERVER],
 "hosts_note": "the host at fault is the storage server, which is not one of the job's 16 nodes; no GPU node is at fault "
               "(the NFS client lines and slow writes appear on all 16 equally)",
 "gpu": None,
 "onset": fmt(first_slow),
 "onset_note": "first checkpoint save that ran slow (the server degraded at ~04:26 but nothing wrote to it until this save); "
               f"first 'not responding' line at {fmt(first_nr)}",
 "job_throughput_loss_pct": float(loss_pct),
 "loss_note": "tokens per wall-clock second from the first slow save to the window end vs the baseline "
              "(both including their checkpoint stalls; baseline saves cost ~3%)",
 "checkpoints": sv,
 "red_herrings": ["the ~1-minute dips every 30 min before 04:26 are the routine synchronous checkpoints, present in the baseline"],
 "what_a_good_postmortem_says": (
   "Throughput dips at every 30-minute checkpoint; before ~04:26 each save stalls training for about a minute, which is "
   f"expected, but from the {datetime.fromtimestamp(first_slow, UTC).strftime('%H:%M')} save on each save took 4-6 minutes "
   f"(~{loss_pct:.0f}% of job throughput lost). All 16 nodes show the same thing at the same moments: NFS WRITE latency "
   "(request time per request) up ~50-100x, major timeouts and RPC retransmissions, dirty pages piling up, and kernel "
   f"'nfs: server {SERVER} not responding, still trying' / 'OK' pairs, so the cause is the storage server {SERVER}, "
   "not any GPU node or the checkpoint schedule; fix or fail over the NFS server and consider async checkpointing."),
}
with open(OUT + "/truth.yaml", "w") as f:
    yaml.safe_dump(truth, f, sort_keys=False, width=1000)
print("loss", loss_pct, "saves", [(s["start"][11:19], s["duration_s"]) for s in sv])
