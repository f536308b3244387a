#!/usr/bin/env python3
"""Incident h100-xid48-crash: an uncorrectable (double-bit) ECC error on one H100 kills a
128-GPU synchronous Megatron job with no slowdown before it; the GPU is reset and the job
restarts from its last checkpoint on the same 16 hosts ~7.5 minutes later.

Writes /tmp/p/blind_INC10/h100-xid48-crash/ (fixed seed). Metrics: OpenMetrics text, one file
per host (as `promtool tsdb dump-openmetrics` writes them: no TYPE lines, each series' samples
in time order, `# EOF`). Logs: per-host `journalctl` short output and the job's srun output.
"""
import os, shutil, uuid as _uuid
from datetime import datetime, timezone, timedelta
import numpy as np
import yaml

SEED = 20250917
rng = np.random.default_rng(SEED)
ID = "h100-xid48-crash"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

UTC = timezone.utc
W0 = datetime(2025, 9, 17, 6, 0, 0, tzinfo=UTC)
W1 = datetime(2025, 9, 17, 8, 0, 0, tzinfo=UTC)
STEP = 30.0  # scrape interval, s
CRASH = datetime(2025, 9, 17, 6, 58, 37, 512000, tzinfo=UTC)   # Xid 48
JOB_END = CRASH + timedelta(seconds=12)                          # srun tears the step down
EXP_STOP = datetime(2025, 9, 17, 7, 1, 41, tzinfo=UTC)          # ops stop dcgm-exporter etc. on the bad host
GPU_RESET = datetime(2025, 9, 17, 7, 2, 58, tzinfo=UTC)
EXP_START = datetime(2025, 9, 17, 7, 4, 22, tzinfo=UTC)
RESTART = datetime(2025, 9, 17, 7, 6, 14, tzinfo=UTC)           # new job launched (same hosts)
TRAIN2 = datetime(2025, 9, 17, 7, 9, 41, tzinfo=UTC)            # first iteration after restart
LAST_CKPT_IT = 16500

NH = 16
HOSTS = [f"gpu-r4-{i:02d}" for i in range(1, NH + 1)]
IPS = [f"10.40.4.{10 + i}" for i in range(1, NH + 1)]
BAD_H, BAD_G = 10, 5  # gpu-r4-11, GPU 5
BUS = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
MODEL = "NVIDIA H100 80GB HBM3"
HCAS = [f"mlx5_{i}" for i in (0, 3, 4, 5, 6, 9, 10, 11)]

def ts(d):
    return d.timestamp()

UUIDS = [[f"GPU-{_uuid.UUID(bytes=rng.bytes(16))}" for g in range(8)] for h in range(NH)]
SERIALS = [[str(1650123000000 + int(rng.integers(0, 999999))) for g in range(8)] for h in range(NH)]

# ---------------------------------------------------------------- job phase as function of time
def phase(t):
    """0 train, 1 dead/idle, 2 init (restart loading), per timestamp array."""
    p = np.zeros_like(t, dtype=int)
    p[(t >= ts(JOB_END)) & (t < ts(RESTART))] = 1
    p[(t >= ts(RESTART)) & (t < ts(TRAIN2))] = 2
    return p

def host_times(h):
    off = rng.uniform(0, STEP)
    t = np.arange(ts(W0) + off, ts(W1), STEP)
    t = t + rng.normal(0, 0.04, t.size)
    return np.round(t, 3)

def fmt_val(v, nd):
    if nd == 0:
        return str(int(round(v)))
    s = f"{v:.{nd}f}".rstrip("0").rstrip(".")
    return s

def series_lines(name, labels, t, v, nd):
    lab = ",".join(f'{k}="{labels[k]}"' for k in sorted(labels))
    pre = f"{name}{{{lab}}} "
    return [f"{pre}{fmt_val(x, nd)} {y:.3f}" for x, y in zip(v, t)]

def smooth_noise(n, scale, alpha=0.85):
    e = rng.normal(0, scale, n)
    out = np.empty(n)
    acc = 0.0
    for i in range(n):
        acc = alpha * acc + (1 - alpha) * e[i] * 3
        out[i] = acc
    return out

# ---------------------------------------------------------------- metrics
def write_metrics():
    os.makedirs(os.path.join(OUT, "metrics"), exist_ok=True)
    boot = {h: ts(W0) - rng.uniform(5, 40) * 86400 for h in range(NH)}
    for h in range(NH):
        t = host_times(h)
        ph = phase(t)
        n = t.size
        lines = []
        dcgm_mask = np.ones(n, bool)
        if h == BAD_H:
            dcgm_mask = ~((t >= ts(EXP_STOP)) & (t < ts(EXP_START)))
        td = t[dcgm_mask]
        phd = ph[dcgm_mask]
        nd_ = td.size
        host_temp_off = rng.normal(0, 2.0)
        per = {}
        for g in range(8):
            lab = dict(gpu=str(g), UUID=UUIDS[h][g], pci_bus_id=f"00000000:{BUS[g].upper()}:00.0",
                       device=f"nvidia{g}", modelName=MODEL, Hostname=HOSTS[h],
                       instance=f"{IPS[h]}:9400", job="dcgm-exporter")
            goff = rng.normal(0, 2.5) + host_temp_off + (3 if g in (2, 6) else 0)
            train = phd == 0
            idle = phd == 1
            init = phd == 2
            util = np.where(train, np.clip(99.6 + rng.normal(0, 0.6, nd_), 93, 100), 0.0)
            util = np.where(init, rng.choice([0, 0, 3, 12, 41, 77], nd_), util)
            # a few logging/eval dips happen in every host at the same moments (sync job)
            pw_base = 640 + rng.normal(0, 18) + goff * 2
            power = np.where(train, pw_base + smooth_noise(nd_, 12) + rng.normal(0, 9, nd_), 0)
            power = np.where(idle, 112 + rng.normal(0, 3, nd_) + goff, power)
            power = np.where(init, 150 + rng.uniform(0, 140, nd_), power)
            power = np.clip(power, 65, 700)
            temp_tr = 58 + goff + smooth_noise(nd_, 0.8)
            # temperature relaxes after the crash (first-order, ~3 min)
            temp = np.empty(nd_)
            cur = temp_tr[0]
            last_t = td[0]
            for i in range(nd_):
                target = temp_tr[i] if train[i] else (34 + goff * 0.6 if idle[i] else 44 + goff * 0.7)
                dt = td[i] - last_t
                k = 1 - np.exp(-dt / 150.0) if i else 1
                cur = cur + (target - cur) * k
                temp[i] = cur + rng.normal(0, 0.3)
                last_t = td[i]
            smclk = np.where(train, np.clip(1980 - np.abs(rng.normal(0, 25, nd_)) * (power > 660), 1755, 1980), 345)
            smclk = np.where(init, rng.choice([345, 1980, 1980], nd_), smclk)
            smclk = np.round(smclk / 15) * 15
            fb = np.where(train, 71245 + int(rng.integers(-300, 300)), 0)
            fb = np.where(init, rng.choice([1800, 23000, 52000, 70900], nd_), fb)
            # NVLink counter: rises while the job runs
            rate = np.where(train, 9.6e4 + rng.normal(0, 2e3, nd_), np.where(init, 2e3, 0))
            dt = np.diff(td, prepend=td[0] - STEP)
            nvl = 3.1e10 * (1 + 0.2 * rng.random()) + np.cumsum(rate * dt)
            xid = np.zeros(nd_)
            dbe_vol = np.zeros(nd_)
            dbe_agg = np.zeros(nd_)
            rr = np.zeros(nd_)
            if h == 2 and g == 2:
                rr[:] = 1  # an old remapped row from months ago, harmless
            if h == BAD_H and g == BAD_G:
                after = td >= ts(CRASH)
                xid[after & (td < ts(EXP_STOP))] = 94   # last Xid seen: 48, 63, 94 in the same ms
                dbe_vol[after & (td < ts(GPU_RESET))] = 1
                dbe_agg[after] = 1
                rr[after] = 1
            per[g] = (lab, dict(
                DCGM_FI_DEV_GPU_UTIL=(util, 0), DCGM_FI_DEV_SM_CLOCK=(smclk, 0),
                DCGM_FI_DEV_GPU_TEMP=(np.round(temp), 0), DCGM_FI_DEV_POWER_USAGE=(power, 3),
                DCGM_FI_DEV_XID_ERRORS=(xid, 0),
                DCGM_FI_DEV_ECC_DBE_VOL_TOTAL=(dbe_vol, 0), DCGM_FI_DEV_ECC_DBE_AGG_TOTAL=(dbe_agg, 0),
                DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS=(rr, 0),
                DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL=(nvl, 0)))
        for m in per[0][1]:
            for g in range(8):
                lab, ms = per[g]
                v, nd = ms[m]
                lines += series_lines(m, lab, td, v, nd)
        # node_exporter
        nl = dict(instance=f"{IPS[h]}:9100", job="node")
        tr = ph == 0
        load = np.where(tr, 21 + rng.normal(0, 1.5, n), np.where(ph == 2, 9 + rng.normal(0, 3, n), 1.2 + rng.random(n)))
        lines += series_lines("node_load1", nl, t, np.abs(load), 2)
        mem = np.where(tr, 1.41e12, np.where(ph == 2, 1.6e12, 1.93e12)) + rng.normal(0, 2e9, n)
        lines += series_lines("node_memory_MemAvailable_bytes", nl, t, mem, 0)
        lines += series_lines("node_boot_time_seconds", nl, t, np.full(n, int(boot[h])), 0)
        un = dict(nl, domainname="(none)", machine="x86_64", nodename=HOSTS[h],
                  release="5.15.0-119-generic", sysname="Linux",
                  version="#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024")
        lines += series_lines("node_uname_info", un, t, np.ones(n), 0)
        dt = np.diff(t, prepend=t[0] - STEP)
        for direction in ("received", "transmitted"):
            for k, hca in enumerate(HCAS):
                r = np.where(tr, 1.18e10 * (1 + rng.normal(0, 0.03, n)), np.where(ph == 2, 4e8, 2e4))
                c = 8.1e14 * (1 + 0.1 * rng.random()) + np.cumsum(r * dt)
                lines += series_lines(f"node_infiniband_port_data_{direction}_bytes_total",
                                      dict(nl, device=hca, port="1"), t, c, 0)
        with open(os.path.join(OUT, "metrics", f"{HOSTS[h]}.om"), "w") as f:
            f.write("\n".join(lines))
            f.write("\n# EOF\n")

# ---------------------------------------------------------------- logs
def jfmt(d):
    return d.strftime("%b %d %H:%M:%S")

def write_journals():
    d = os.path.join(OUT, "logs", "journal")
    os.makedirs(d, exist_ok=True)
    for h in range(NH):
        host = HOSTS[h]
        ev = []
        def add(dt, s):
            ev.append((dt, f"{jfmt(dt)} {host} {s}"))
        pid_slurmd = 2100 + h * 7
        # periodic benign noise
        t = W0 + timedelta(seconds=float(rng.uniform(0, 60)))
        while t < W1:
            r = rng.random()
            if r < 0.25:
                add(t, f"systemd[1]: Started Session {int(rng.integers(3000, 9000))} of User slurm.")
            elif r < 0.45:
                add(t, f"CRON[{int(rng.integers(100000, 999999))}]: (root) CMD (/usr/local/sbin/node-health-check.sh >/dev/null 2>&1)")
            elif r < 0.6:
                add(t, f"chronyd[1432]: Selected source 10.40.0.2 (ntp1.cluster.local)")
            elif r < 0.72:
                add(t, "systemd[1]: Starting Daily apt download activities..." if rng.random() < 0.1 else
                    f"systemd-logind[1520]: New session {int(rng.integers(3000, 9000))} of user monitor.")
            elif r < 0.85:
                add(t, f"kernel: mlx5_core 0000:{rng.choice(['0c','1d','43','54','8a','9f','c7','d8'])}:00.0: mlx5_fw_tracer_handle_traces:741:(pid {int(rng.integers(100, 900))}): FW tracer has been disabled" if rng.random() < 0.05 else
                    f"systemd[1]: session-{int(rng.integers(3000, 9000))}.scope: Deactivated successfully.")
            else:
                add(t, f"rsyslogd[1388]: action 'action-8-builtin:omfwd' resumed (module 'builtin:omfwd') [v8.2112.0 try https://www.rsyslog.com/e/2359 ]")
            t += timedelta(seconds=float(rng.exponential(95)))
        # job end / restart as slurmd sees it
        add(JOB_END + timedelta(seconds=float(rng.uniform(0.1, 2))), f"slurmstepd[{812000 + h}]: error: *** STEP 4412.0 ON {host} CANCELLED AT 2025-09-17T06:58:49 ***")
        add(JOB_END + timedelta(seconds=float(rng.uniform(3, 6))), f"slurmstepd[{812000 + h}]: done with job")
        add(RESTART + timedelta(seconds=float(rng.uniform(0.2, 1.5))), f"slurmd[{pid_slurmd}]: slurmd: Launching batch job 4431 for UID 20417" if h == 0 else
            f"slurmd[{pid_slurmd}]: slurmd: launch task StepId=4431.0 request from UID:20417 GID:20417 HOST:10.40.4.11 PORT:51094")
        add(RESTART + timedelta(seconds=float(rng.uniform(2, 4))), f"kernel: nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing" if rng.random() < 0.2 else
            f"systemd[1]: Started Session {int(rng.integers(3000, 9000))} of User slurm.")
        if h == BAD_H:
            pci = f"0000:{BUS[BAD_G]}:00"
            c = CRASH
            add(c, f"kernel: NVRM: GPU at PCI:{pci}: {UUIDS[h][BAD_G]}")
            add(c, f"kernel: NVRM: GPU Board Serial Number: {SERIALS[h][BAD_G]}")
            add(c, f"kernel: NVRM: Xid (PCI:{pci}): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x18f31d80 partition 16, subpartition 3.")
            add(c + timedelta(milliseconds=23), f"kernel: NVRM: Xid (PCI:{pci}): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row (0x0000000018f31d80) marked for remapping, reset gpu to activate.")
            add(c + timedelta(milliseconds=25), f"kernel: NVRM: Xid (PCI:{pci}): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: No, D-RST: No")
            a = EXP_STOP - timedelta(seconds=40)
            add(a, "sshd[3419022]: Accepted publickey for opsadmin from 10.40.0.15 port 50522 ssh2: ED25519 SHA256:3nUq0fM1dD4R0bq7b1bH2o2mOq8oV2r8qY7pC1xW0zE")
            add(a + timedelta(seconds=1), "systemd-logind[1520]: New session 8121 of user opsadmin.")
            add(a + timedelta(seconds=14), "sudo[3419101]: opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/nvidia-smi -q -d ECC,ROW_REMAPPER -i 5")
            seq = [("slurmd", "Slurm node daemon"), ("dcgm-exporter", "NVIDIA DCGM Exporter"),
                   ("nvidia-dcgm", "NVIDIA DCGM service"), ("nvidia-fabricmanager", "NVIDIA fabric manager service"),
                   ("nvidia-persistenced", "NVIDIA Persistence Daemon")]
            tt = EXP_STOP
            for unit, desc in seq:
                add(tt, f"sudo[{3419200 + len(ev)}]: opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/systemctl stop {unit}")
                add(tt + timedelta(seconds=1), f"systemd[1]: Stopping {desc}...")
                add(tt + timedelta(seconds=2), f"systemd[1]: {unit}.service: Deactivated successfully.")
                add(tt + timedelta(seconds=2), f"systemd[1]: Stopped {desc}.")
                tt += timedelta(seconds=9)
            add(GPU_RESET - timedelta(seconds=3), "sudo[3419288]: opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/nvidia-smi -r -i 5")
            add(GPU_RESET + timedelta(seconds=6), "kernel: nvidia-nvswitch2: open (major=508)")
            tt = GPU_RESET + timedelta(seconds=20)
            for unit, desc in reversed(seq):
                add(tt, f"sudo[{3419300 + len(ev)}]: opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/systemctl start {unit}")
                add(tt + timedelta(seconds=1), f"systemd[1]: Starting {desc}...")
                add(tt + timedelta(seconds=2), f"systemd[1]: Started {desc}.")
                tt += timedelta(seconds=12)
            add(tt + timedelta(seconds=5), "sudo[3419377]: opsadmin : TTY=pts/0 ; PWD=/home/opsadmin ; USER=root ; COMMAND=/usr/bin/dcgmi diag -r diagnostic,pcie -i 5 -p diagnostic.test_duration=60")
            add(tt + timedelta(seconds=70), "systemd-logind[1520]: Session 8121 logged out. Waiting for processes to exit.")
        ev.sort(key=lambda x: x[0])
        with open(os.path.join(d, f"{host}.log"), "w") as f:
            for _, s in ev:
                f.write(s + "\n")

def megatron_line(prefix, when, it, ms, lr, loss, gn):
    tokens_per_gpu = 1024 * 4096 / 128 / (ms / 1000)
    tflops = tokens_per_gpu * 6 * 8.03e9 / 1e12 * 1.12
    return (f"{prefix} [{when.strftime('%Y-%m-%d %H:%M:%S')}] iteration {it:>8d}/  200000 | consumed samples: {it*1024:>12d} | "
            f"elapsed time per iteration (ms): {ms:.1f} | throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | learning rate: {lr:.6E} | "
            f"global batch size:  1024 | lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: {gn:.3f} | "
            f"number of skipped iterations:   0 | number of nan iterations:   0 |")

def write_trainer():
    d = os.path.join(OUT, "logs", "trainer")
    os.makedirs(d, exist_ok=True)
    L = "127:"
    MS = 4795.0
    # ---- job 4412: started 04:12, running at window start
    out = []
    it = 15980
    t = W0 - timedelta(seconds=3.3)
    lines = []
    def lr_at(i):
        return 3e-4 * (0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * min(i, 200000) / 200000)))
    def loss_at(i):
        return 1.92 + 2.6 * (i / 1000 + 1) ** -0.45 + rng.normal(0, 0.012)
    while True:
        dt = 10 * (MS + rng.normal(0, 22)) / 1000
        if t + timedelta(seconds=dt) >= CRASH:
            break
        t += timedelta(seconds=dt)
        it += 10
        lines.append((t, megatron_line(L, t, it, dt * 100, lr_at(it), loss_at(it), 0.21 + abs(rng.normal(0, 0.02)))))
        if it % 500 == 0:
            t_s = t + timedelta(seconds=0.4)
            lines.append((t_s, f"  0: saving checkpoint at iteration   {it:>5d} to /lustre/fs2/ckpt/llama3-8b-run07 in torch_dist format"))
            t += timedelta(seconds=21.7)
            lines.append((t, f"  0:   successfully saved checkpoint from iteration   {it:>5d} to /lustre/fs2/ckpt/llama3-8b-run07 [ t 1/8, p 1/1 ]"))
            lines.append((t, f"  0: (min, max) time across ranks (ms):\n  0:     save-checkpoint ................................: ({21598.41 + rng.normal(0, 40):.2f}, {21702.93 + rng.normal(0, 40):.2f})"))
    last_it = it
    P = " 85:"
    tb = [
        f"{P} Traceback (most recent call last):",
        f'{P}   File "/workspace/Megatron-LM/pretrain_gpt.py", line 283, in <module>',
        f"{P}     pretrain(",
        f'{P}   File "/workspace/Megatron-LM/megatron/training/training.py", line 386, in pretrain',
        f"{P}     iteration, num_floating_point_operations_so_far = train(",
        f'{P}   File "/workspace/Megatron-LM/megatron/training/training.py", line 1421, in train',
        f"{P}     train_step(forward_step_func,",
        f'{P}   File "/workspace/Megatron-LM/megatron/training/training.py", line 754, in train_step',
        f"{P}     losses_reduced = forward_backward_func(",
        f"{P} RuntimeError: CUDA error: uncorrectable ECC error encountered",
        f"{P} CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
        f"{P} For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        f"{P} Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        f"{P} ",
        f"{P} [E ProcessGroupNCCL.cpp:916] [Rank 85] NCCL watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered",
        f"{P} CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.",
        f"{P} For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        f"{P} Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        f"{P} ",
        f"{P} Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44 (most recent call first):",
        f"{P} frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f2be4e84617 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)",
        f"{P} frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) + 0x64 (0x7f2be4e3f98d in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)",
    ]
    c = CRASH + timedelta(milliseconds=180)
    for i, s in enumerate(tb):
        lines.append((c + timedelta(microseconds=i), s))
    e = JOB_END
    lines.append((e - timedelta(seconds=2), "srun: error: gpu-r4-11: task 85: Aborted (core dumped)"))
    lines.append((e - timedelta(seconds=2), "srun: launch/slurm: _step_signal: Terminating StepId=4412.0"))
    lines.append((e - timedelta(seconds=1), "slurmstepd: error: *** STEP 4412.0 ON gpu-r4-01 CANCELLED AT 2025-09-17T06:58:49 ***"))
    for h in range(NH):
        if h == BAD_H:
            rest = [r for r in range(h * 8, h * 8 + 8) if r != 85]
            lines.append((e, f"srun: error: {HOSTS[h]}: tasks {rest[0]}-84,86-{rest[-1]}: Terminated"))
        else:
            lines.append((e, f"srun: error: {HOSTS[h]}: tasks {h*8}-{h*8+7}: Terminated"))
    lines.append((e, "srun: Force Terminated StepId=4412.0"))
    lines.sort(key=lambda x: x[0])
    with open(os.path.join(d, "slurm-4412.out"), "w") as f:
        for _, s in lines:
            f.write(s + "\n")
    # ---- job 4431: restart from iteration 16500
    lines = []
    t = RESTART + timedelta(seconds=9)
    for h in range(NH):
        for g in range(8):
            r = h * 8 + g
            if g == 0:
                lines.append((t + timedelta(seconds=float(rng.uniform(0, 2))), f"{r:>3d}: {HOSTS[h]}:{3120000 + r}:{3120000 + r} [{g}] NCCL INFO cudaDriverVersion 12040"))
            lines.append((t + timedelta(seconds=float(rng.uniform(12, 16))), f"{r:>3d}: {HOSTS[h]}:{3120000 + r}:{3120410 + r} [{g}] NCCL INFO comm 0x5612a3f0 rank {r} nRanks 128 nNodes 16 localRanks 8 localRank {g} MNNVL 0"))
    t0 = RESTART + timedelta(seconds=48)
    lines.append((t0, f"  0: loading distributed checkpoint from /lustre/fs2/ckpt/llama3-8b-run07 at iteration {LAST_CKPT_IT}"))
    lines.append((t0 + timedelta(seconds=118), f"  0:   successfully loaded checkpoint from /lustre/fs2/ckpt/llama3-8b-run07 [ t 1/8, p 1/1 ] at iteration {LAST_CKPT_IT}"))
    lines.append((t0 + timedelta(seconds=119), f"  0: (min, max) time across ranks (ms):\n  0:     load-checkpoint ................................: (117938.22, 118204.61)"))
    lines.append((t0 + timedelta(seconds=122), "  0: [after model, optimizer, and learning rate scheduler are built] datetime: 2025-09-17 07:09:04 "))
    lines.append((t0 + timedelta(seconds=125), "  0: training ..."))
    it = LAST_CKPT_IT
    t = TRAIN2
    first = True
    while True:
        ms = MS + rng.normal(0, 22) + (1650 if first else 0)
        dt = 10 * ms / 1000
        if t + timedelta(seconds=dt) >= W1 + timedelta(minutes=2):
            break
        t += timedelta(seconds=dt)
        it += 10
        first = False
        lines.append((t, megatron_line(L, t, it, dt * 100, lr_at(it), loss_at(it), 0.21 + abs(rng.normal(0, 0.02)))))
        if it % 500 == 0:
            lines.append((t + timedelta(seconds=0.4), f"  0: saving checkpoint at iteration   {it:>5d} to /lustre/fs2/ckpt/llama3-8b-run07 in torch_dist format"))
            t += timedelta(seconds=21.9)
            lines.append((t, f"  0:   successfully saved checkpoint from iteration   {it:>5d} to /lustre/fs2/ckpt/llama3-8b-run07 [ t 1/8, p 1/1 ]"))
    lines.sort(key=lambda x: x[0])
    with open(os.path.join(d, "slurm-4431.out"), "w") as f:
        for _, s in lines:
            f.write(s + "\n")
    return last_it

def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    write_metrics()
    write_journals()
    last_it = write_trainer()
    inc = dict(id=ID, title="Llama-3-8B pretraining (job 4412) died on gpu-r4-11 and was restarted",
               window=dict(start=W0.isoformat(), end=W1.isoformat()),
               baseline=dict(start=W0.isoformat(), end=(W0 + timedelta(minutes=45)).isoformat()),
               primary_signal="throughput",
               cluster=dict(name="r4-h100", nodes=NH, gpus_per_node=8, gpu_model="H100"),
               trainer=dict(seq_length=4096, global_batch_size=1024, gpus=128))
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(inc, f, sort_keys=False)
    down = (TRAIN2 - CRASH).total_seconds() / 60
    lost = (CRASH - (W0 + timedelta(seconds=0))).total_seconds()  # placeholder, replaced below
    truth = dict(
        id=ID,
        cause="An uncorrectable double-bit ECC error in the HBM of GPU 5 (PCI 0000:ab:00.0) on gpu-r4-11 (Xid 48, followed by Xid 63 row-remap pending and Xid 94) killed rank 85 with 'CUDA error: uncorrectable ECC error encountered', which took down the whole 128-GPU job.",
        cause_metrics=["DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
                       "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_XID_ERRORS"],
        cause_log_evidence=[
            dict(file="logs/journal/gpu-r4-11.log",
                 text="NVRM: Xid (PCI:0000:ab:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at physAddr 0x18f31d80 partition 16, subpartition 3.",
                 source="Committed knowledge-base page 'NVIDIA GPU Uncorrectable Error' (public GitHub file, found via the code index, read_file id 21335815681; `dmesg | grep Xid` block). Adapted: PCI 0000:52:00 -> 0000:ab:00, journal time/host prefix.",
                 adapted=["PCI address", "timestamp", "host"]),
            dict(file="logs/journal/gpu-r4-11.log",
                 text="NVRM: Xid (PCI:0000:ab:00): 63, pid='<unknown>', name=<unknown>, Row Remapper: New row (0x0000000018f31d80) marked for remapping, reset gpu to activate.",
                 source="same page as above (second line of the same dmesg block)", adapted=["PCI address", "timestamp", "host"]),
            dict(file="logs/journal/gpu-r4-11.log",
                 text="NVRM: Xid (PCI:0000:ab:00): 94, pid='<unknown>', name=<unknown>, Contained: SM (0x1). RST: No, D-RST: No",
                 source="same page as above (third line); the identical wording also appears in https://github.com/akash-network/support/issues/244 ([Fri Aug  9 13:32:56 2024] NVRM: Xid (PCI:0000:00:08): 94, ...)",
                 adapted=["PCI address", "timestamp", "host"]),
            dict(file="logs/journal/gpu-r4-11.log",
                 text=f"NVRM: GPU at PCI:0000:ab:00: {UUIDS[BAD_H][BAD_G]}  /  NVRM: GPU Board Serial Number: {SERIALS[BAD_H][BAD_G]}",
                 source="driver's preamble before a GPU's first Xid, as in https://github.com/akash-network/support/issues/244 and leptonai/gpud testdata dmesg-with-xid-119.log",
                 adapted=["PCI address", "GPU UUID", "serial number", "timestamp", "host"]),
            dict(file="logs/trainer/slurm-4412.out",
                 text="RuntimeError: CUDA error: uncorrectable ECC error encountered / CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect. / For debugging consider passing CUDA_LAUNCH_BLOCKING=1. / Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
                 source="https://github.com/kohya-ss/sd-scripts/issues/1434 (also https://github.com/jade-hpc-gpu/jade-hpc-gpu.github.io/issues/194)",
                 adapted=["srun task prefix ' 85:'"]),
            dict(file="logs/trainer/slurm-4412.out",
                 text="[E ProcessGroupNCCL.cpp:916] [Rank 85] NCCL watchdog thread terminated with exception: CUDA error: uncorrectable ECC error encountered",
                 source="https://github.com/kohya-ss/sd-scripts/issues/1434 (rank 1 there)",
                 adapted=["rank number", "srun task prefix"]),
            dict(file="logs/trainer/slurm-4412.out",
                 text="Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44 (most recent call first): / frame #0 / frame #1",
                 source="https://github.com/kohya-ss/sd-scripts/issues/1434",
                 adapted=["library path (venv path -> container path) and load address"]),
        ],
        supporting_lines_not_copied=("The Python traceback frames above the RuntimeError, the srun/slurmstepd teardown lines, "
                                     "Megatron iteration/checkpoint lines, NCCL INFO lines and all journal lines other than the NVRM "
                                     "lines are written in those programs' formats for this incident; they are context, not fault evidence."),
        hosts=["gpu-r4-11"],
        gpu=dict(host="gpu-r4-11", index=BAD_G, pci_bus_id="00000000:AB:00.0", uuid=UUIDS[BAD_H][BAD_G]),
        onset=CRASH.isoformat().replace("+00:00", "Z"),
        job_throughput_loss_pct=0.0,
        job_throughput_loss_note=("No slowdown: the iteration time is ~4.80 s (about 6.8k tokens/s/GPU) before the crash and after the restart. "
                                  f"The cost is an outage: no training from {CRASH.strftime('%H:%M:%S')} to {TRAIN2.strftime('%H:%M:%S')} UTC "
                                  f"(~{down:.0f} min, ~{down/120*100:.1f}% of the 2 h window), plus iterations {LAST_CKPT_IT+1}-{last_it} "
                                  f"(~{(last_it-LAST_CKPT_IT)*4.8/60:.0f} min of work since the 06:41 checkpoint) recomputed."),
        timeline={"last checkpoint": f"iteration {LAST_CKPT_IT} (~06:41 UTC)",
                  "Xid 48/63/94": CRASH.isoformat(), "job step 4412.0 cancelled": JOB_END.isoformat(),
                  "dcgm-exporter etc. stopped on gpu-r4-11": EXP_STOP.isoformat(),
                  "nvidia-smi -r -i 5": GPU_RESET.isoformat(), "dcgm-exporter back": EXP_START.isoformat(),
                  "job 4431 launched (same 16 hosts)": RESTART.isoformat(),
                  "first iteration after restart": TRAIN2.isoformat()},
        what_a_good_postmortem_says=(
            "Job 4412 crashed at 06:58:37 UTC because GPU 5 of gpu-r4-11 hit an uncorrectable double-bit ECC error in its HBM "
            "(Xid 48, row remap pending Xid 63, Xid 94; DCGM DBE counters 0->1, uncorrectable remapped rows 0->1), which surfaced in rank 85 "
            "as 'CUDA error: uncorrectable ECC error encountered' and killed all 128 ranks. There was no slowdown or thermal/power precursor: "
            "throughput was flat before and identical after the restart, so the cost is ~11 minutes of outage plus ~17 minutes of work "
            "since the 06:41 checkpoint. The GPU was reset (activating the row remap) and the job resumed at 07:09 on the same hosts; "
            "watch that GPU's remapped-row and DBE counters and drain/RMA it if another uncorrectable error or a remap failure follows."),
    )
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=200, allow_unicode=True)

if __name__ == "__main__":
    main()
