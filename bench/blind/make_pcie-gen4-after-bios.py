#!/usr/bin/env python3
"""Incident pcie-gen4-after-bios: a rolling BIOS/firmware maintenance of 16 HGX H100 hosts; on
one host (gpu-c2-06) the GPUs come back with their PCIe links trained at Gen4 (16 GT/s) instead
of Gen5, limited at the upstream PCIe switch ports. The job (which offloads activations to host
memory) restarts after the maintenance and every rank waits on that host's slower host-device
copies: ~8% slower iterations for the whole job.

Writes /tmp/p/blind_INC10/pcie-gen4-after-bios/ (fixed seed). Metrics: long CSV, epoch-ms
timestamps (one file per exporter). Logs: per-host syslog (Ubuntu rsyslog, all facilities) and
the job's srun --label output.
"""
import os, shutil, uuid as _uuid
from datetime import datetime, timezone, timedelta
import numpy as np
import yaml

SEED = 20251008
rng = np.random.default_rng(SEED)
ID = "pcie-gen4-after-bios"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
UTC = timezone.utc
W0 = datetime(2025, 10, 8, 5, 0, 0, tzinfo=UTC)
W1 = datetime(2025, 10, 8, 8, 0, 0, tzinfo=UTC)
STEP = 30.0
JOB1_STOP = datetime(2025, 10, 8, 5, 38, 52, tzinfo=UTC)
MAINT0 = datetime(2025, 10, 8, 5, 44, 0, tzinfo=UTC)
RESTART = datetime(2025, 10, 8, 6, 31, 5, tzinfo=UTC)
TRAIN2 = datetime(2025, 10, 8, 6, 34, 22, tzinfo=UTC)
MS_OK, MS_SLOW = 4800.0, 5212.0

NH = 16
HOSTS = [f"gpu-c2-{i:02d}" for i in range(1, NH + 1)]
IPS = [f"10.52.2.{20 + i}" for i in range(1, NH + 1)]
BAD = 5  # gpu-c2-06
BUS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
UPSTREAM = ["15", "27", "37", "5a", "97", "a8", "b7", "d8"]   # PCIe switch downstream ports above each GPU
NICBUS = ["0c", "1d", "43", "54", "8a", "9f", "c7", "e4"]
HCAS = [f"mlx5_{i}" for i in (0, 3, 4, 5, 6, 9, 10, 11)]
MODEL = "NVIDIA H100 80GB HBM3"
UUIDS = [[f"GPU-{_uuid.UUID(bytes=rng.bytes(16))}" for g in range(8)] for h in range(NH)]

# each host's reboot: down from REBOOT[h] for DOWN[h] seconds (staggered, 4 at a time)
REBOOT = [MAINT0 + timedelta(minutes=int(h // 4) * 11 + float(rng.uniform(0, 2))) for h in range(NH)]
DOWN = [float(rng.uniform(430, 560)) for h in range(NH)]
UP = [REBOOT[h] + timedelta(seconds=DOWN[h]) for h in range(NH)]

def ts(d):
    return d.timestamp()

def phase(t):
    p = np.ones_like(t, dtype=int)          # 1 idle
    p[t < ts(JOB1_STOP)] = 0                 # job 7710 training (pre-maintenance)
    p[(t >= ts(RESTART)) & (t < ts(TRAIN2))] = 2
    p[t >= ts(TRAIN2)] = 3                   # job 7744 training (post-maintenance)
    return p

def smooth(n, s, a=0.9):
    e = rng.normal(0, s, n); o = np.empty(n); acc = 0.0
    for i in range(n):
        acc = a * acc + (1 - a) * e[i] * 4; o[i] = acc
    return o

def write_metrics():
    md = os.path.join(OUT, "metrics"); os.makedirs(md, exist_ok=True)
    dc = open(os.path.join(md, "dcgm-exporter.csv"), "w")
    dc.write("timestamp,metric,value,Hostname,gpu,UUID,device,modelName,pci_bus_id,instance,job\n")
    nc = open(os.path.join(md, "node-exporter.csv"), "w")
    nc.write("timestamp,metric,value,instance,job,device,port,nodename,release\n")
    rows_d, rows_n = [], []
    for h in range(NH):
        off = rng.uniform(0, STEP)
        t = np.arange(ts(W0) + off, ts(W1), STEP) + rng.normal(0, 0.04, 1).item()
        t = t + rng.normal(0, 0.03, t.size)
        alive = ~((t >= ts(REBOOT[h])) & (t < ts(UP[h]) + 55))   # exporters start ~1 min after boot
        t = t[alive]
        tms = np.round(t * 1000).astype(np.int64)
        ph = phase(t); n = t.size
        post = t >= ts(UP[h])
        bad_now = (h == BAD) & post
        hoff = rng.normal(0, 1.8)
        per_metric = {}
        for g in range(8):
            goff = rng.normal(0, 2.2) + hoff + (2.5 if g in (3, 7) else 0)
            train = (ph == 0) | (ph == 3)
            slow = ph == 3
            init = ph == 2
            util = np.where(train, np.clip(99.5 + rng.normal(0, 0.7, n), 92, 100), 0)
            if h == BAD:
                util = np.where(slow, np.clip(92.6 + smooth(n, 1.0) + rng.normal(0, 1.2, n), 80, 100), util)
            util = np.where(init, rng.choice([0, 2, 9, 35, 70], n), util)
            tens = np.where(train, 0.418 + rng.normal(0, 0.008, n) + goff * 0.001, 0)
            tens = np.where(slow, tens * (MS_OK / MS_SLOW), tens)
            tens = np.where(init, rng.uniform(0, 0.05, n), tens)
            pb = 655 + rng.normal(0, 15) + goff * 2
            power = np.where(train, pb + smooth(n, 10) + rng.normal(0, 8, n), 108 + goff + rng.normal(0, 3, n))
            power = np.where(slow, power - 38 - (14 if h == BAD else 0), power)
            power = np.where(init, 140 + rng.uniform(0, 150, n), power)
            power = np.clip(power, 60, 700)
            target = np.where(train, 59 + goff - np.where(slow, 2, 0), np.where(init, 43 + goff * 0.6, 33 + goff * 0.6))
            temp = np.empty(n); cur = target[0]
            for i in range(n):
                dt = t[i] - t[i - 1] if i else 0
                if i and dt > 120:  # came back from reboot: cold
                    cur = 30 + goff * 0.5
                cur += (target[i] - cur) * (1 - np.exp(-dt / 140.0)) if i else 0
                temp[i] = cur + rng.normal(0, 0.3)
            smclk = np.where(train, np.clip(1980 - np.abs(rng.normal(0, 30, n)) * (power > 665), 1740, 1980), 345)
            smclk = np.where(init, rng.choice([345, 1980], n), smclk)
            smclk = np.round(smclk / 15) * 15
            busy = train | init
            gen = np.where(busy, np.where(bad_now, 4, 5), 1)     # H100 drops its link to Gen1 when idle
            width = np.full(n, 16)
            rx = np.where(train, 12.4e9 + rng.normal(0, 2.9e9, n), np.where(init, rng.uniform(0.5e9, 9e9, n), rng.uniform(1e5, 6e5, n)))
            tx = np.where(train, 12.1e9 + rng.normal(0, 2.8e9, n), np.where(init, rng.uniform(0.1e9, 1e9, n), rng.uniform(1e5, 4e5, n)))
            if h == BAD:
                rx = np.where(slow, 11.4e9 + rng.normal(0, 0.9e9, n), rx)
                tx = np.where(slow, 11.2e9 + rng.normal(0, 0.9e9, n), tx)
            rx = np.clip(rx, 0, None); tx = np.clip(tx, 0, None)
            # replay counter: reset by reboot, a couple of GPUs accumulate a few retries
            rep = np.zeros(n)
            if rng.random() < 0.15:
                rep = np.where(~post, 3 + int(rng.integers(0, 9)), 0) + np.where(post & (t > ts(TRAIN2) + rng.uniform(0, 4000)), 1, 0)
            lab = [HOSTS[h], str(g), UUIDS[h][g], f"nvidia{g}", MODEL, f"00000000:{BUS[g].upper()}:00.0", f"{IPS[h]}:9400", "dcgm-exporter"]
            labs = ",".join(lab)
            for name, v, fmt in (("DCGM_FI_DEV_GPU_UTIL", util, "%d"),
                                 ("DCGM_FI_DEV_GPU_TEMP", np.round(temp), "%d"), ("DCGM_FI_DEV_POWER_USAGE", power, "%.3f"),
                                 ("DCGM_FI_DEV_PCIE_LINK_GEN", gen, "%d"), ("DCGM_FI_DEV_PCIE_LINK_WIDTH", width, "%d"),
                                 ("DCGM_FI_PROF_PCIE_RX_BYTES", rx, "%d"), ("DCGM_FI_PROF_PCIE_TX_BYTES", tx, "%d"),
                                 ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", np.clip(tens, 0, 1), "%.6f"),
                                 ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", rep, "%d")):
                for a, b in zip(tms, v):
                    rows_d.append((a, f"{a},{name},{fmt % b},{labs}"))
        # node_exporter
        inst = f"{IPS[h]}:9100"
        boot = np.where(post, ts(UP[h]) - 48, ts(W0) - rng.uniform(9, 30) * 86400)
        rel = "5.15.0-122-generic"
        dt = np.diff(t, prepend=t[0] - STEP)
        for a, b, p in zip(tms, boot, post):
            rows_n.append((a, f"{a},node_boot_time_seconds,{int(b)},{inst},node,,,,"))
            rows_n.append((a, f"{a},node_uname_info,1,{inst},node,,,{HOSTS[h]},{rel}"))
        load = np.where((ph == 0) | (ph == 3), 22 + rng.normal(0, 1.6, n), np.where(ph == 2, 8 + rng.normal(0, 3, n), 0.8 + rng.random(n)))
        for a, b in zip(tms, np.abs(load)):
            rows_n.append((a, f"{a},node_load1,{b:.2f},{inst},node,,,,"))
        for direction in ("received", "transmitted"):
            for k, hca in enumerate(HCAS):
                r = np.where((ph == 0) | (ph == 3), 1.17e10 * (1 + rng.normal(0, 0.03, n)), np.where(ph == 2, 3e8, 2e4))
                r = np.where(ph == 3, r * MS_OK / MS_SLOW, r)
                base_pre = 9.3e14 * (1 + 0.1 * rng.random())
                c = np.empty(n); acc = 0.0
                for i in range(n):
                    if i and post[i] and not post[i - 1]:
                        acc = float(rng.uniform(1e6, 5e7))     # counters start over after the reboot
                    else:
                        acc += r[i] * dt[i]
                    c[i] = acc + (0 if post[i] else base_pre)
                lab = f"{inst},node,{hca},1,,"
                for a, b in zip(tms, c):
                    rows_n.append((a, f"{a},node_infiniband_port_data_{direction}_bytes_total,{int(b)},{lab}"))
    rows_d.sort(key=lambda x: x[0]); rows_n.sort(key=lambda x: x[0])
    dc.write("\n".join(r for _, r in rows_d)); dc.write("\n"); dc.close()
    nc.write("\n".join(r for _, r in rows_n)); nc.write("\n"); nc.close()

# ---------------------------------------------------------------- syslog
def sfmt(d):
    s = d.strftime("%b %d %H:%M:%S")
    return s[:4] + (" " + s[5] if s[4] == "0" else s[4:6]) + s[6:]

def write_syslogs():
    for h in range(NH):
        host = HOSTS[h]
        d = os.path.join(OUT, "logs", host); os.makedirs(d, exist_ok=True)
        ev = []
        up_old = ts(W0) - rng.uniform(9, 30) * 86400
        def add(dt, s):
            ev.append((dt, f"{sfmt(dt)} {host} {s}"))
        def kern(dt, s, up0):
            add(dt, f"kernel: [{ts(dt) - up0:12.6f}] {s}")
        t = W0 + timedelta(seconds=float(rng.uniform(0, 50)))
        while t < W1:
            if not (REBOOT[h] - timedelta(seconds=20) <= t < UP[h] + timedelta(seconds=60)):
                r = rng.random()
                if r < 0.3:
                    add(t, f"CRON[{int(rng.integers(100000, 999999))}]: (root) CMD (/usr/local/sbin/node-health-check.sh >/dev/null 2>&1)")
                elif r < 0.5:
                    add(t, f"systemd[1]: Started Session {int(rng.integers(2000, 9000))} of User slurm.")
                elif r < 0.65:
                    add(t, "chronyd[1402]: Selected source 10.52.0.2 (ntp1.c2.local)")
                elif r < 0.8:
                    add(t, f"systemd[1]: session-{int(rng.integers(2000, 9000))}.scope: Deactivated successfully.")
                elif r < 0.9:
                    add(t, "nvidia-persistenced[2611]: Started (2611)" if False else f"systemd-logind[1491]: New session {int(rng.integers(2000, 9000))} of user monitor.")
                else:
                    add(t, "systemd[1]: Starting Cleanup of Temporary Directories...")
            t += timedelta(seconds=float(rng.exponential(110)))
        # job 7710 ends (scancel for maintenance)
        add(JOB1_STOP + timedelta(seconds=float(rng.uniform(0.2, 1))), f"slurmstepd[{700100 + h}]: error: *** STEP 7710.0 ON {host} CANCELLED AT 2025-10-08T05:38:52 ***")
        add(JOB1_STOP + timedelta(seconds=float(rng.uniform(2, 4))), f"slurmstepd[{700100 + h}]: done with job")
        rb = REBOOT[h]
        add(rb - timedelta(seconds=14), "sudo[912233]: opsadmin : TTY=pts/1 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/sbin/reboot")
        add(rb - timedelta(seconds=13), "systemd-logind[1491]: System is rebooting.")
        for i, (u, desc) in enumerate([("slurmd", "Slurm node daemon"), ("dcgm-exporter", "NVIDIA DCGM Exporter"),
                                       ("prometheus-node-exporter", "Prometheus exporter for machine metrics"),
                                       ("nvidia-fabricmanager", "NVIDIA fabric manager service"),
                                       ("nvidia-persistenced", "NVIDIA Persistence Daemon")]):
            add(rb - timedelta(seconds=12 - i), f"systemd[1]: Stopping {desc}...")
            add(rb - timedelta(seconds=11.5 - i), f"systemd[1]: Stopped {desc}.")
        kern(rb - timedelta(seconds=2), "reboot: Restarting system", up_old)
        # ---- boot (BIOS/firmware updated out of band during the reboot)
        b0 = ts(UP[h]) - 48.0   # kernel start
        B = lambda sec: datetime.fromtimestamp(b0 + sec, UTC)
        kern(B(0.0), "Linux version 5.15.0-122-generic (buildd@lcy02-amd64-034) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024 (Ubuntu 5.15.0-122.132-generic 5.15.163)", b0)
        kern(B(0.0), "Command line: BOOT_IMAGE=/vmlinuz-5.15.0-122-generic root=UUID=6d1f8b0e-3c2a-4d7e-9b1a-0f5c2e8d4a71 ro iommu=pt pci=realloc=off quiet", b0)
        kern(B(0.0), "DMI: Supermicro SYS-821GE-TNHR/X13DEG-OAD, BIOS 2.1a 06/27/2025", b0)
        kern(B(0.0), "tsc: Detected 2000.000 MHz processor", b0)
        kern(B(0.41), "ACPI: PCI Root Bridge [PC00] (domain 0000 [bus 00-14])", b0)
        sec = 2.1
        for g in range(8):
            sec += float(rng.uniform(0.05, 0.12))
            kern(B(sec), f"pci 0000:{BUS[g]}:00.0: [10de:2330] type 00 class 0x030200", b0)
            kern(B(sec + 0.0001), f"pci 0000:{BUS[g]}:00.0: reg 0x10: [mem 0x{0x9c000000 + g * 0x4000000:x}-0x{0x9cffffff + g * 0x4000000:x} 64bit pref]", b0)
        sec = 10.2
        if h == BAD:
            # the kernel reports each GPU's constrained link when it enumerates the device
            for g in range(8):
                sec += float(rng.uniform(0.2, 0.45))
                kern(B(sec), f"pci 0000:{BUS[g]}:00.0: 252.048 Gb/s available PCIe bandwidth, limited by 16.0 GT/s PCIe x16 link at 0000:{UPSTREAM[g]}:00.0 (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)", b0)
        sec = 16.3
        for k, nb in enumerate(NICBUS):
            sec += float(rng.uniform(0.3, 0.6))
            kern(B(sec), f"mlx5_core 0000:{nb}:00.0: firmware version: 28.41.1000", b0)
            kern(B(sec + 0.2), f"mlx5_core 0000:{nb}:00.0: 504.112 Gb/s available PCIe bandwidth (32.0 GT/s PCIe x16 link)", b0)
        kern(B(24.8), "nvidia: loading out-of-tree module taints kernel.", b0)
        kern(B(25.1), "nvidia-nvlink: Nvlink Core is being initialized, major device number 507", b0)
        kern(B(26.0), "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.90.07  Fri May 31 09:35:42 UTC 2024", b0)
        kern(B(30.5), "nvidia-uvm: Loaded the UVM driver, major device number 505.", b0)
        for k, hca in enumerate(HCAS):
            kern(B(36 + k * 0.05), f"mlx5_core 0000:{NICBUS[k]}:00.0 ibp{NICBUS[k]}s0: renamed from ib{k}", b0)
        for k, hca in enumerate(HCAS):
            kern(B(41.5 + k * 0.1), f"mlx5_core 0000:{NICBUS[k]}:00.0 {hca}: Port: 1 Link ACTIVE", b0)
        add(B(44.0), "systemd[1]: Started NVIDIA Persistence Daemon.")
        add(B(47.0), "systemd[1]: Started NVIDIA fabric manager service.")
        add(B(52.0), "systemd[1]: Started Prometheus exporter for machine metrics.")
        add(B(55.0), "systemd[1]: Started NVIDIA DCGM Exporter.")
        add(B(56.0), "systemd[1]: Started Slurm node daemon.")
        add(B(57.3), f"slurmd[3012]: slurmd: CPUs=224 Boards=1 Sockets=2 Cores=56 Threads=2 Memory=2063937 TmpDisk=3515718 Uptime=57 CPUSpecList=(null) FeaturesAvail=(null) FeaturesActive=(null)")
        add(RESTART + timedelta(seconds=float(rng.uniform(0.2, 1.5))),
            f"slurmd[3012]: slurmd: launch task StepId=7744.0 request from UID:21003 GID:21003 HOST:10.52.2.21 PORT:40122")
        ev.sort(key=lambda x: x[0])
        with open(os.path.join(d, "syslog"), "w") as f:
            for _, s in ev:
                f.write(s + "\n")

def megatron_line(when, it, ms, lr, loss, gn):
    tok = 1024 * 4096 / 128 / (ms / 1000)
    tfl = tok * 6 * 8.03e9 / 1e12 * 1.12
    return (f"127: [{when.strftime('%Y-%m-%d %H:%M:%S')}] iteration {it:>8d}/  250000 | consumed samples: {it*1024:>12d} | "
            f"elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tfl:.1f} | learning rate: {lr:.6E} | "
            f"global batch size:  1024 | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {gn:.3f} | "
            f"number of skipped iterations:   0 | number of nan iterations:   0 |")

def write_trainer():
    d = os.path.join(OUT, "logs", "trainer"); os.makedirs(d, exist_ok=True)
    lr_at = lambda i: 3e-4 * (0.1 + 0.45 * (1 + np.cos(np.pi * i / 250000)))
    loss_at = lambda i: 1.9 + 2.6 * (i / 1000 + 1) ** -0.45 + rng.normal(0, 0.012)
    CK = "/lustre/c2/ckpt/llama3-8b-offload"
    # job 7710
    L = []; it = 40320; t = W0 - timedelta(seconds=2.1)
    while True:
        ms = MS_OK + rng.normal(0, 24); t2 = t + timedelta(seconds=10 * ms / 1000)
        if t2 >= JOB1_STOP - timedelta(seconds=32): break
        t = t2; it += 10
        L.append((t, megatron_line(t, it, ms, lr_at(it), loss_at(it), 0.19 + abs(rng.normal(0, 0.02)))))
        if it % 400 == 0 and t + timedelta(seconds=23) < JOB1_STOP - timedelta(seconds=32):
            L.append((t, f"  0: saving checkpoint at iteration   {it:>5d} to {CK} in torch_dist format"))
            t += timedelta(seconds=22.4)
            L.append((t, f"  0:   successfully saved checkpoint from iteration   {it:>5d} to {CK} [ t 1/8, p 1/1 ]"))
    # operators checkpoint on demand before stopping for maintenance (Megatron's exit signal handler)
    last = it
    L.append((JOB1_STOP - timedelta(seconds=31), "  0: exiting program after receiving SIGTERM."))
    L.append((JOB1_STOP - timedelta(seconds=30), f"  0: saving checkpoint at iteration   {last:>5d} to {CK} in torch_dist format"))
    L.append((JOB1_STOP - timedelta(seconds=8), f"  0:   successfully saved checkpoint from iteration   {last:>5d} to {CK} [ t 1/8, p 1/1 ]"))
    L.append((JOB1_STOP, "slurmstepd: error: *** STEP 7710.0 ON gpu-c2-01 CANCELLED AT 2025-10-08T05:38:52 ***"))
    L.append((JOB1_STOP + timedelta(seconds=1), "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
    L.sort(key=lambda x: x[0])
    with open(os.path.join(d, "slurm-7710.out"), "w") as f:
        f.write("\n".join(s for _, s in L) + "\n")
    # job 7744
    L = []
    for h in range(NH):
        for g in range(8):
            r = h * 8 + g
            L.append((RESTART + timedelta(seconds=float(rng.uniform(14, 18))),
                      f"{r:>3d}: {HOSTS[h]}:{2440000 + r}:{2440410 + r} [{g}] NCCL INFO comm 0x55d0c1a0 rank {r} nRanks 128 nNodes 16 localRanks 8 localRank {g} MNNVL 0"))
    L.append((RESTART + timedelta(seconds=50), f"  0: loading distributed checkpoint from {CK} at iteration {last}"))
    L.append((RESTART + timedelta(seconds=171), f"  0:   successfully loaded checkpoint from {CK} [ t 1/8, p 1/1 ] at iteration {last}"))
    L.append((RESTART + timedelta(seconds=178), "  0: [after model, optimizer, and learning rate scheduler are built] datetime: 2025-10-08 06:34:03 "))
    L.append((RESTART + timedelta(seconds=180), "  0: training ..."))
    it = last; t = TRAIN2; first = True
    while True:
        ms = MS_SLOW + rng.normal(0, 26) + (1700 if first else 0); first = False
        t2 = t + timedelta(seconds=10 * ms / 1000)
        if t2 >= W1 + timedelta(minutes=1): break
        t = t2; it += 10
        L.append((t, megatron_line(t, it, ms, lr_at(it), loss_at(it), 0.19 + abs(rng.normal(0, 0.02)))))
        if it % 400 == 0:
            L.append((t, f"  0: saving checkpoint at iteration   {it:>5d} to {CK} in torch_dist format"))
            t += timedelta(seconds=22.6)
            L.append((t, f"  0:   successfully saved checkpoint from iteration   {it:>5d} to {CK} [ t 1/8, p 1/1 ]"))
    L.sort(key=lambda x: x[0])
    with open(os.path.join(d, "slurm-7744.out"), "w") as f:
        f.write("\n".join(s for _, s in L) + "\n")

def main():
    if os.path.exists(OUT): shutil.rmtree(OUT)
    os.makedirs(OUT)
    write_metrics(); write_syslogs(); write_trainer()
    inc = dict(id=ID, title="Llama-3-8B (activation offload) slower after the c2 rack BIOS/firmware maintenance",
               window=dict(start=W0.isoformat(), end=W1.isoformat()),
               baseline=dict(start=W0.isoformat(), end=(W0 + timedelta(minutes=35)).isoformat()),
               primary_signal="throughput",
               cluster=dict(name="c2-h100", nodes=NH, gpus_per_node=8, gpu_model="H100"),
               timestamp_unit="ms",
               trainer=dict(seq_length=4096, global_batch_size=1024, gpus=128))
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    loss = (1 - MS_OK / MS_SLOW) * 100
    truth = dict(
        id=ID,
        cause=("After the BIOS/firmware maintenance, the eight H100s of gpu-c2-06 trained their PCIe links at Gen4 (16 GT/s) instead of Gen5 "
               "(32 GT/s), limited at the upstream switch ports, halving host-device bandwidth; the job offloads activations to host memory, "
               "so that host's copies take longer and every rank of the synchronous job waits for it."),
        cause_metrics=["DCGM_FI_DEV_PCIE_LINK_GEN", "DCGM_FI_PROF_PCIE_RX_BYTES", "DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_DEV_GPU_UTIL"],
        cause_metrics_note=("DCGM_FI_DEV_PCIE_LINK_GEN is 4 on gpu-c2-06 vs 5 on the other 15 hosts while the GPUs are busy (all hosts read 1 when idle, "
                            "H100 lowers its link speed at idle); DCGM_FI_DEV_PCIE_LINK_WIDTH stays 16 everywhere. gpu-c2-06 is the only host whose "
                            "GPU utilisation falls (~92-93% vs ~99.5%: its GPUs sit waiting for copies while the others spin in NCCL)."),
        cause_log_evidence=[dict(
            file="logs/gpu-c2-06/syslog",
            text="pci 0000:18:00.0: 252.048 Gb/s available PCIe bandwidth, limited by 16.0 GT/s PCIe x16 link at 0000:15:00.0 (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)  (x8, one per GPU)",
            source=("https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/nvidia/debug.md "
                    "('How to check if your GPU's PCIe generation is supported': `[   10.735323] pci 0000:04:00.0: 252.048 Gb/s available PCIe bandwidth, "
                    "limited by 16.0 GT/s PCIe x16 link at 0000:01:00.0 (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)` on an H100 node)"),
            adapted=["PCI address of the GPU and of the limiting port", "kernel uptime stamp", "syslog time/host prefix"])],
        supporting_lines_not_copied=("Boot lines (Linux version, DMI with the new BIOS, pci enumeration, mlx5 'available PCIe bandwidth (32.0 GT/s PCIe x16 link)', "
                                     "NVRM load), systemd/slurmd/cron lines, Megatron iteration/checkpoint lines and NCCL INFO lines are written in "
                                     "those programs' formats for this incident; they are context, not fault evidence."),
        hosts=["gpu-c2-06"],
        gpu=None,
        gpu_note="all 8 GPUs of gpu-c2-06 (PCI 18,2a,3a,5d,9a,ab,ba,db)",
        onset=TRAIN2.isoformat().replace("+00:00", "Z"),
        onset_note=(f"gpu-c2-06 came back from its reboot at {UP[BAD].isoformat()} with the links already at Gen4; the slowdown begins with the "
                    f"first iterations of job 7744 at {TRAIN2.strftime('%H:%M:%S')} UTC (job 7710 ran at full speed before the maintenance)."),
        job_throughput_loss_pct=round(loss, 1),
        job_throughput_loss_note=f"iteration time {MS_OK/1000:.2f} s before the maintenance -> {MS_SLOW/1000:.2f} s after (tokens/s -{loss:.1f}%), all ranks alike.",
        timeline={"job 7710 stopped for maintenance": JOB1_STOP.isoformat(),
                  "hosts rebooted (4 at a time)": f"{REBOOT[0].isoformat()} .. {UP[-1].isoformat()}",
                  "gpu-c2-06 rebooted": f"{REBOOT[BAD].isoformat()} .. {UP[BAD].isoformat()}",
                  "job 7744 launched": RESTART.isoformat(), "first iteration of 7744": TRAIN2.isoformat()},
        what_a_good_postmortem_says=(
            f"After the c2 BIOS/firmware maintenance, job 7744 resumed ~{loss:.0f}% slower than job 7710 (5.21 s vs 4.80 s per iteration) on all 128 ranks. "
            "The cause is one host, gpu-c2-06, whose eight H100s came back with PCIe links at Gen4 x16 instead of Gen5 x16 (DCGM PCIe link generation 4 vs 5; "
            "the kernel's 'limited by 16.0 GT/s PCIe x16 link ... capable of 504.112 Gb/s with 32.0 GT/s' at boot), halving its host-device bandwidth for the "
            "job's activation offload, so the whole synchronous job waits on it. Fix the PCIe link-speed setting (BIOS / switch firmware) on gpu-c2-06 and re-check "
            "`nvidia-smi -q | grep -A2 'Link Gen'` under load; add a post-maintenance check of link generation and width before returning hosts to the job."),
    )
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=200, allow_unicode=True)

if __name__ == "__main__":
    main()
