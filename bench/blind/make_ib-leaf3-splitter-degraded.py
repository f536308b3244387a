#!/usr/bin/env python3
"""Generate incident folder `ib-leaf3-splitter-degraded` (fixed seed).

Story: 16 x 8 H100 nodes (gpu-n001..n016), NDR200 to each of 8 compute HCAs
(mlx5_0..mlx5_7, one per rail), four hosts per leaf switch. On leaf-3 the 2x400G
twin-port OSFP -> 4x200G splitter that feeds rail 2 (mlx5_2) of gpu-n009..n012
starts degrading at 12:07:30 UTC: symbol errors, port receive errors and link
error recoveries climb on those four HCA ports, RC retransmissions rise, and
the synchronous FSDP job (torchtitan, Llama-3 8B) slows by ~7 % for ~90 min.
Ops drain the job after a checkpoint, the splitter is replaced (the hosts log
mlx5 "Port module event ... Cable unplugged/plugged"), the job restarts from the
checkpoint and runs at its old pace.

Layout: metrics/*.om OpenMetrics text with a timestamp on every sample
(node_exporter scraped by IP:9100 with node_uname_info, dcgm-exporter by IP:9400,
the trainer's own gauge), logs/kernel/<host>.log (journalctl -k -o short-iso),
logs/slurm/slurm-<jobid>.out (torchrun [rankN]: prefix, torchtitan lines).
"""
import datetime as dt
import math
import os
import shutil

import numpy as np
import yaml

SEED = 20251014
ID = "ib-leaf3-splitter-degraded"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)
rng = np.random.default_rng(SEED)
UTC = dt.timezone.utc


def T(h, m, s=0.0):
    return dt.datetime(2025, 10, 14, h, m, 0, tzinfo=UTC).timestamp() + s


W0, W1 = T(11, 30), T(14, 45)
BASE1 = T(11, 55)
ONSET = T(12, 2, 0)
SCRAPE = 30.0
HOSTS = [f"gpu-n{n:03d}" for n in range(1, 17)]
IP = {h: f"10.31.4.{10 + int(h[-3:])}" for h in HOSTS}
LEAF = {h: (int(h[-3:]) - 1) // 4 + 1 for h in HOSTS}
BAD_HOSTS = [h for h in HOSTS if LEAF[h] == 3]          # gpu-n009..n012
BAD_DEV = "mlx5_2"
HCA_PCI = ["1a", "3c", "4d", "5d", "9b", "bc", "cc", "dc"]
GPU_PCI = ["18", "2a", "3a", "5d", "9a", "ab", "ba", "db"]
DRIVER = "550.127.08"
MODEL = "NVIDIA H100 80GB HBM3"
boot = {h: W0 - rng.uniform(20, 41) * 86400 for h in HOSTS}
severity = dict(zip(BAD_HOSTS, [0.7, 1.35, 1.0, 0.8]))   # the four splitter legs differ
leg_start = {h: ONSET + rng.uniform(-20, 45) for h in BAD_HOSTS}

# ---------------------------------------------------------------- job / step timeline
STEP_T = 2.52                   # s/step baseline (local batch 2 x 8192 tokens per rank)
TOK_RANK = 2 * 8192
NRANK = 128
FLOP_TOK = 5.79e10
LOG_FREQ, GC_FREQ, CKPT = 10, 50, 500


FIXED_AT = float("inf")         # set to the splitter swap time once job 1 has been simulated


def slow_factor(t):
    if t < ONSET or t >= FIXED_AT:
        return 1.0
    ramp = min(1.0, (t - ONSET) / 420.0)
    return 1.0 + ramp * (0.064 + 0.012 * min(1.0, (t - ONSET) / 5400.0))


def run_job(t_train, step0, t_stop_after=None, t_hard_end=None):
    """Simulate steps. Returns log rows, checkpoint rows, end time, last step."""
    t, step = t_train, step0
    logs, ckpts = [], []
    acc_t, acc_tok = 0.0, 0
    wander = 0.0
    last_log_t = t
    stop_at = None
    while True:
        step += 1
        wander = 0.99 * wander + rng.normal(0, 0.0007)
        d = STEP_T * slow_factor(t) * (1 + wander + rng.normal(0, 0.008))
        if step - step0 <= 3:
            d *= 3.5 - (step - step0) * 0.8     # first steps after (re)start are slower
        t += d
        if step % GC_FREQ == 0:
            t += rng.uniform(0.05, 0.09)
        if step % LOG_FREQ == 0:
            delta = t - last_log_t
            tps = TOK_RANK * LOG_FREQ / delta
            logs.append((t, step, tps))
            last_log_t = t
        if step % CKPT == 0:
            dur = rng.uniform(6.5, 11.0)
            ckpts.append((t + 0.002, t + dur, step))
            t += dur
            if t_stop_after is not None and t >= t_stop_after and stop_at is None:
                stop_at = t + rng.uniform(35, 60)
        if stop_at is not None and t >= stop_at:
            return logs, ckpts, stop_at, step
        if t_hard_end is not None and t >= t_hard_end:
            return logs, ckpts, t, step


JOB1, JOB2 = 48213, 48231
J1_START = T(9, 52, 4)
J1_TRAIN = J1_START + 171.0
logs1, ck1, J1_END, last1 = run_job(J1_TRAIN, 8000, t_stop_after=T(13, 25))
RESUME_STEP = max(s for _, _, s in ck1)
UNPLUG = J1_END + rng.uniform(170, 230)
PLUG = UNPLUG + rng.uniform(140, 190)
FIXED_AT = UNPLUG
J2_START = PLUG + rng.uniform(420, 560)
J2_TRAIN = J2_START + 158.0
logs2, ck2, J2_END, last2 = run_job(J2_TRAIN, RESUME_STEP, t_hard_end=T(15, 2))


def job_state(t):
    """'train', 'init', 'off' at wall time t."""
    t = np.asarray(t)
    s = np.full(t.shape, "off", dtype=object)
    s[(t >= J1_START) & (t < J1_TRAIN)] = "init"
    s[(t >= J1_TRAIN) & (t < J1_END)] = "train"
    s[(t >= J2_START) & (t < J2_TRAIN)] = "init"
    s[(t >= J2_TRAIN)] = "train"
    return s


def in_ckpt(t):
    m = np.zeros(np.shape(t), bool)
    for a, b, _ in ck1 + ck2:
        m |= (t >= a) & (t < b)
    return m


def grid(phase):
    n = int((W1 - W0 - phase) // SCRAPE) + 1
    ts = W0 + phase + SCRAPE * np.arange(n) + rng.normal(0, 0.003, n)
    keep = rng.random(n) > 0.0008
    return ts[keep & (ts < W1)]


# ---------------------------------------------------------------- OpenMetrics writer
class OM:
    def __init__(self):
        self.fam = {}      # name -> (type, help, [lines])

    def add(self, family, typ, help_, sample_name, labels, ts, vals):
        f = self.fam.setdefault(family, (typ, help_, []))
        lab = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        pre = f"{sample_name}{{{lab}}} "
        out = f[2]
        for t, v in zip(ts, vals):
            if float(v).is_integer() and abs(v) < 1e17:
                vs = str(int(v))
            else:
                vs = repr(float(round(v, 6)))
            out.append(f"{pre}{vs} {t:.3f}")

    def write(self, path):
        with open(path, "w") as f:
            for name, (typ, help_, lines) in self.fam.items():
                f.write(f"# HELP {name} {help_}\n# TYPE {name} {typ}\n")
                f.write("\n".join(lines))
                f.write("\n")
            f.write("# EOF\n")


IB_HELP = {
    "port_data_received_bytes": "Number of data octets received on all links",
    "port_data_transmitted_bytes": "Number of data octets transmitted on all links",
    "port_errors_received": "Number of packets containing an error that were received on this port",
    "symbol_error": "Number of minor link errors detected on one or more physical lanes.",
    "link_error_recovery": "Number of times the link successfully recovered from an error state",
    "link_downed": "Number of times the link failed to recover from an error state and went down",
    "local_link_integrity_errors": "Number of times that the count of local physical errors exceeded the threshold specified by LocalPhyErrors.",
    "port_transmit_wait": "Number of ticks during which the port had data to transmit but no data was sent during the entire tick",
    "packet_sequence_errors": "The number of received NAK sequence error packets. The QP retry limit was not exceeded.",
    "local_ack_timeout_errors": "The number of times QP's ack timer expired for RC, XRC, DCT QPs at the sender side. The QP retry limit was not exceed, therefore it is still recoverable error.",
    "out_of_sequence_packets_received": "The number of out of sequence packets received.",
}


def poisson_cum(start, rate, dts):
    return start + np.cumsum(rng.poisson(np.clip(rate, 0, None) * dts))


def build_node(om):
    for h in HOSTS:
        ts = grid(rng.uniform(0, SCRAPE))
        n = len(ts)
        dts = np.diff(ts, prepend=ts[0] - SCRAPE)
        st = job_state(ts)
        train = (st == "train") & ~in_ckpt(ts)
        sf = np.array([slow_factor(t) for t in ts])
        inst = {"instance": f"{IP[h]}:9100", "job": "node"}
        up = ts - boot[h]
        om.add("up", "gauge", "1 if the instance is healthy, i.e. reachable, or 0 if the scrape failed.", "up", inst, ts, np.ones(n))
        om.add("node_uname_info", "gauge", "Labeled system information as provided by the uname system call.",
               "node_uname_info", {**inst, "domainname": "(none)", "machine": "x86_64", "nodename": h,
                                   "release": "5.15.0-122-generic", "sysname": "Linux",
                                   "version": "#132-Ubuntu SMP Thu Aug 29 13:45:52 UTC 2024"}, ts, np.ones(n))
        for d in range(8):
            dev = f"mlx5_{d}"
            lab = {**inst, "device": dev, "port": "1"}
            bad = (h in BAD_HOSTS) and dev == BAD_DEV
            rail2 = dev == BAD_DEV
            base = rng.normal(9.4e9, 2.5e8)
            act = np.where(train, 1.0 / sf, np.where(st == "off", 2e-6, 0.004))
            # link down while the splitter is swapped
            down = bad & (ts >= UNPLUG) & (ts < PLUG + 4) if bad else np.zeros(n, bool)
            act = np.where(down, 0.0, act)
            rx = np.floor(up[0] * base * 0.55 + np.cumsum(dts * base * act * (1 + rng.normal(0, 0.04, n))))
            tx = np.floor(up[0] * base * 0.55 + np.cumsum(dts * base * act * (1 + rng.normal(0, 0.04, n))))
            om.add("node_infiniband_port_data_received_bytes", "counter", IB_HELP["port_data_received_bytes"],
                   "node_infiniband_port_data_received_bytes_total", lab, ts, rx)
            om.add("node_infiniband_port_data_transmitted_bytes", "counter", IB_HELP["port_data_transmitted_bytes"],
                   "node_infiniband_port_data_transmitted_bytes_total", lab, ts, tx)
            # physical-layer error process on the degraded legs
            if bad:
                sev = severity[h]
                age = np.clip(ts - leg_start[h], 0, None)
                live = (ts >= leg_start[h]) & (ts < UNPLUG)
                k = math.log(30.0) / 5400.0
                srate = np.where(live, sev * 0.3 * np.exp(k * age) * rng.gamma(2.0, 0.5, n), 0.0)
                srate = np.where(down, 0.0, srate)
                busy = (job_state(ts) == "train")
                rcv_rate = np.where(busy, srate / 12.0 * rng.gamma(3.0, 1 / 3.0, n), srate / 400.0)
                lrec_rate = np.where(live, sev * (1 / 1200.0) * np.exp(k * 0.47 * age), 0.0)
            else:
                srate = np.zeros(n)
                rcv_rate = np.zeros(n)
                lrec_rate = np.zeros(n)
            sym0 = float(rng.choice([0, 0, 0, 0, 1, 3]))
            rcv0 = 14.0 if (h, dev) == ("gpu-n003", "mlx5_5") else float(rng.choice([0, 0, 0, 0, 0, 2]))
            lrec0 = float(rng.choice([0, 0, 0, 1, 2]))
            sym = np.minimum(poisson_cum(sym0, srate, dts), 65535)
            rcv = np.minimum(poisson_cum(rcv0, rcv_rate, dts), 65535)
            lrec = np.minimum(poisson_cum(lrec0, lrec_rate, dts), 255)
            ldown0 = 1.0 if (h, dev) == ("gpu-n014", "mlx5_7") else 0.0
            ldown = np.full(n, ldown0)
            if bad:
                ldown = ldown + (ts >= UNPLUG + rng.uniform(0.5, 3)).astype(float)
            om.add("node_infiniband_symbol_error", "counter", IB_HELP["symbol_error"],
                   "node_infiniband_symbol_error_total", lab, ts, sym)
            om.add("node_infiniband_port_errors_received", "counter", IB_HELP["port_errors_received"],
                   "node_infiniband_port_errors_received_total", lab, ts, rcv)
            om.add("node_infiniband_link_error_recovery", "counter", IB_HELP["link_error_recovery"],
                   "node_infiniband_link_error_recovery_total", lab, ts, lrec)
            om.add("node_infiniband_link_downed", "counter", IB_HELP["link_downed"],
                   "node_infiniband_link_downed_total", lab, ts, ldown)
            # transport-level retransmission evidence
            degraded_all = (ts >= ONSET) & (ts < J1_END) & train
            agg_rcv = 1.0 / 12.0 * 0.3 * np.exp(math.log(30.0) / 5400.0 * np.clip(ts - ONSET, 0, None)) * 3.85
            if bad:
                psn_rate = np.where(train, rcv_rate * 0.65, 0.0)
                oos_rate = np.where(train, rcv_rate * rng.uniform(5, 8), 0.0)
                ack_rate = np.where(train, rcv_rate * 0.05, 0.0)
                xw = 4.2
            elif rail2:
                psn_rate = np.where(degraded_all, agg_rcv * 0.25 / 12.0, 0.0)
                oos_rate = np.where(degraded_all, agg_rcv * 0.08 / 12.0, 0.0)
                ack_rate = np.where(degraded_all, agg_rcv * 0.01 / 12.0, 0.0)
                xw = 1.45
            else:
                psn_rate = oos_rate = ack_rate = np.zeros(n)
                xw = 1.0
            bg = 1.0 / 7200.0 if rng.random() < 0.15 else 0.0     # rare benign increments on some ports
            psn = poisson_cum(float(rng.integers(0, 40)), psn_rate + bg, dts)
            oos = poisson_cum(float(rng.integers(0, 300)), oos_rate + bg * 3, dts)
            ack = poisson_cum(float(rng.integers(0, 6)), ack_rate, dts)
            om.add("node_infiniband_packet_sequence_errors", "counter", IB_HELP["packet_sequence_errors"],
                   "node_infiniband_packet_sequence_errors_total", lab, ts, psn)
            om.add("node_infiniband_out_of_sequence_packets_received", "counter", IB_HELP["out_of_sequence_packets_received"],
                   "node_infiniband_out_of_sequence_packets_received_total", lab, ts, oos)
            om.add("node_infiniband_local_ack_timeout_errors", "counter", IB_HELP["local_ack_timeout_errors"],
                   "node_infiniband_local_ack_timeout_errors_total", lab, ts, ack)
            wf = np.where((ts >= ONSET) & (ts < J1_END), xw, 1.0)
            wrate = 1.1e5 * act * wf * (1 + rng.normal(0, 0.15, n))
            xwait = np.floor(up[0] * 6.0e4 + np.cumsum(np.clip(wrate, 0, None) * dts))
            om.add("node_infiniband_port_transmit_wait", "counter", IB_HELP["port_transmit_wait"],
                   "node_infiniband_port_transmit_wait_total", lab, ts, xwait)
            state = np.where(down, 1.0, 4.0)
            om.add("node_infiniband_state_id", "gauge",
                   "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)",
                   "node_infiniband_state_id", lab, ts, state)


def build_dcgm(om):
    for h in HOSTS:
        ts = grid(rng.uniform(0, SCRAPE))
        n = len(ts)
        st = job_state(ts)
        ck = in_ckpt(ts)
        sf = np.array([slow_factor(t) for t in ts])
        inst = {"instance": f"{IP[h]}:9400", "job": "dcgm-exporter"}
        om.add("up", "gauge", "1 if the instance is healthy, i.e. reachable, or 0 if the scrape failed.", "up", inst, ts, np.ones(n))
        for g in range(8):
            uid = "GPU-" + "-".join("".join("0123456789abcdef"[i] for i in rng.integers(0, 16, k)) for k in (8, 4, 4, 4, 12))
            lab = {**inst, "gpu": str(g), "UUID": uid, "pci_bus_id": f"00000000:{GPU_PCI[g].upper()}:00.0",
                   "device": f"nvidia{g}", "modelName": MODEL, "Hostname": h, "DCGM_FI_DRIVER_VERSION": DRIVER}
            mu = rng.normal(612, 16)
            busy = (st == "train") & ~ck
            p = np.where(busy, np.clip(mu * (1 - 0.5 * (sf - 1)) + rng.normal(0, 34, n), 200, 700), 0)
            p = np.where(busy & (rng.random(n) < 0.06), p - rng.uniform(80, 220, n), p)
            p = np.where(st == "off", rng.normal(71.5, 1.5, n), p)
            p = np.where(st == "init", rng.normal(118, 12, n), p)
            p = np.where((st == "train") & ck, rng.normal(135, 9, n), p)
            u = np.where(rng.random(n) < 0.85, 100.0, rng.integers(95, 100, n).astype(float))
            u = np.where(busy, u, 0.0)
            u = np.where(st == "init", rng.choice([0.0, 0.0, 0.0, 3.0, 11.0], n), u)
            om.add("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", "DCGM_FI_DEV_POWER_USAGE", lab, ts, np.round(p, 3))
            om.add("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", "DCGM_FI_DEV_GPU_UTIL", lab, ts, u)


def build_trainer(om):
    """The trainer's own Prometheus gauges, served by rank 0 on gpu-n001:9464 while the job runs."""
    ts = grid(rng.uniform(0, SCRAPE))
    st = job_state(ts)
    alive = st != "off"
    inst = {"instance": f"{IP['gpu-n001']}:9464", "job": "trainer"}
    om.add("up", "gauge", "1 if the instance is healthy, i.e. reachable, or 0 if the scrape failed.", "up", inst, ts,
           alive.astype(float))
    logs = [(t, s, tps) for t, s, tps in logs1 + logs2]
    lt = np.array([x[0] for x in logs])
    tok, step = [], []
    for t in ts:
        i = np.searchsorted(lt, t) - 1
        in_j2 = t >= J2_START
        if i < 0 or (in_j2 and lt[i] < J2_TRAIN):
            tok.append(0.0)
            step.append(float(RESUME_STEP if in_j2 else 8000))
        else:
            tok.append(round(logs[i][2] * NRANK, 1))
            step.append(float(logs[i][1]))
    tok, step = np.array(tok), np.array(step)
    om.add("trainer_tokens_per_second", "gauge", "Training throughput over the last logging interval, tokens per second, all ranks.",
           "trainer_tokens_per_second", {**inst, "run": "llama3-8b-c4"}, ts[alive], tok[alive])
    om.add("trainer_step", "gauge", "Last completed optimizer step.", "trainer_step",
           {**inst, "run": "llama3-8b-c4"}, ts[alive], step[alive])


# ---------------------------------------------------------------- logs
def iso_k(t):
    return dt.datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S+0000")


def kernel_log(h):
    t0, t1 = W0 - 1800, W1 + 600
    ev = []
    t = t0 + rng.uniform(30, 400)
    while t < t1:                                # DCGM health check opens the NVSwitch devices
        for sw in range(4):
            ev.append((t + sw * 0.0004, f"nvidia-nvswitch{sw}: open (major=509)"))
        t += 1800 + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        a = int(rng.integers(2501, 3200))
        ev.append((t0 + rng.uniform(0, t1 - t0), f"perf: interrupt took too long ({a} > {a - int(rng.integers(3, 30))}), "
                   f"lowering kernel.perf_event_max_sample_rate to {int(rng.integers(60, 79)) * 1000 + 750}"))
    if h == "gpu-n001":
        ev.append((J2_START + 21.4, "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters."))
    if h in BAD_HOSTS:
        pci = f"0000:{HCA_PCI[2]}:00.0"
        u = UNPLUG + rng.uniform(0, 2.5)
        ev.append((u, f"mlx5_core {pci}: Port module event: module 0, Cable unplugged"))
        ev.append((PLUG + rng.uniform(0, 2.5), f"mlx5_core {pci}: Port module event: module 0, Cable plugged"))
    ev.sort()
    return [f"{iso_k(t)} {h} kernel: {m}" for t, m in ev if t0 <= t <= t1]


def titan_ts(t):
    d = dt.datetime.fromtimestamp(t, UTC)
    return d.strftime("%Y-%m-%d %H:%M:%S") + f",{d.microsecond // 1000:03d}"


def slurm_out(job, t_start, t_train, step0, logs, ckpts, t_end, cancelled):
    ranks = list(range(0, NRANK, 8))                # torchrun --local-ranks-filter 0 on each node
    out = []
    for i, h in enumerate(HOSTS):
        tt = t_start + 1.2 + rng.uniform(0, 1.0)
        out.append((tt, "*****************************************"))
        out.append((tt + 1e-4, "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. "))
        out.append((tt + 2e-4, "*****************************************"))
    ck_dir = "/lustre/ckpt/llama3-8b-c4/checkpoint"
    init = [
        (6.0, "Starting job: Llama 3 8B training"),
        (7.9, "Building 1-D device mesh with ['dp_shard'], [128]"),
        (8.0, "[GC] Initial GC collection. 0.00 seconds."),
        (8.3, "Loading tokenizer from tokenizer.json"),
        (9.1, "Preparing c4 dataset from allenai/c4"),
        (24.6, "Building llama3 8B with TransformerModelArgs(_enforced='This field is used to enforce all fields have defaults.', dim=4096, n_layers=32, n_heads=32, n_kv_heads=8, vocab_size=128256, multiple_of=1024, ffn_dim_multiplier=1.3, norm_eps=1e-05, rope_theta=500000, max_seq_len=8192, depth_init=True, use_flex_attn=False, attn_mask_type='causal', eos_id=0)"),
        (26.9, "CUDA capacity: NVIDIA H100 80GB HBM3 with 79.11GiB memory"),
        (27.0, "Model llama3 8B size: 8,030,261,248 total parameters"),
        (27.3, "Applied selective activation checkpointing to the model"),
        (27.9, "Applied FSDP to the model"),
        (28.4, "CUDA memory usage for model: 0.24GiB(0.30%)"),
        (28.6, f"Checkpointing active. Checkpoints will be loaded from and saved to {ck_dir}"),
        (29.0, "Mixed precision training is handled by fully_shard"),
        (29.1, f"Trainer is initialized with local batch size 2, global batch size 256, gradient accumulation steps 1, sequence length 8192, total steps 60000 (warmup 2000)"),
        (29.3, f"Loading the checkpoint from {ck_dir}/step-{step0}."),
    ]
    load_s = t_train - t_start - 29.3 - 2.0
    init += [(29.3 + load_s, f"[GC] GC collection invoked by checkpointer. 0.04 seconds."),
             (29.31 + load_s, f"Finished loading the checkpoint in {load_s:.2f} seconds."),
             (29.35 + load_s, f"Training starts at step {step0 + 1}.")]
    mem = {r: 61.30 + rng.uniform(0, 0.3) for r in ranks}
    for r in ranks:
        off = rng.uniform(0, 0.004)
        for dtl, msg in init:
            out.append((t_start + dtl + off, f"[rank{r}]:[titan] {titan_ts(t_start + dtl + off)} - root - INFO - {msg}"))
    loss = 2.62 - 0.055 * math.log(step0 / 4000.0)
    for t, step, tps in logs:
        if t > t_end:
            break
        loss_v = 2.62 - 0.055 * math.log(step / 4000.0) + rng.normal(0, 0.03)
        gn = abs(rng.normal(0.29, 0.03))
        for r in ranks:
            tr = tps * (1 + rng.normal(0, 0.0004))
            tf = FLOP_TOK * tr / 1e12
            tt = t + rng.uniform(0, 0.003)
            m = mem[r]
            out.append((tt, f"[rank{r}]:[titan] {titan_ts(tt)} - root - INFO - step: {step:2d}  loss: {loss_v:8.5f}  "
                            f"grad_norm: {gn:7.4f}  memory: {m:5.2f}GiB({m / 79.11 * 100:.2f}%)  "
                            f"tps: {round(tr):,}  tflops: {tf:.2f}  mfu: {tf / 989.0 * 100:.2f}%"))
        if step % GC_FREQ == 0:
            for r in ranks:
                tt = t - rng.uniform(0.05, 0.08)
                out.append((tt, f"[rank{r}]:[titan] {titan_ts(tt)} - root - INFO - [GC] Peforming periodical GC collection. {rng.uniform(0.05, 0.08):.2f} seconds."))
    for a, b, step in ckpts:
        if a > t_end:
            break
        for r in ranks:
            out.append((a, f"[rank{r}]:[titan] {titan_ts(a)} - root - INFO - Saving the checkpoint (or staging if async is enabled)."))
            out.append((b, f"[rank{r}]:[titan] {titan_ts(b)} - root - INFO - [GC] GC collection invoked by checkpointer. 0.03 seconds."))
            out.append((b + 0.001, f"[rank{r}]:[titan] {titan_ts(b + 0.001)} - root - INFO - Finished saving the checkpoint (or staging if async is enabled)in {b - a:.2f} seconds."))
    if cancelled:
        c = dt.datetime.fromtimestamp(t_end, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        out.append((t_end + 0.1, f"slurmstepd: error: *** JOB {job} ON gpu-n001 CANCELLED AT {c} ***"))
        out.append((t_end + 0.12, f"slurmstepd: error: *** STEP {job}.0 ON gpu-n001 CANCELLED AT {c} ***"))
        out.append((t_end + 0.2, "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."))
        for i, h in enumerate(HOSTS):
            tt = t_end + 0.25 + rng.uniform(0, 0.2)
            d = dt.datetime.fromtimestamp(tt, UTC)
            out.append((tt, f"W{d:%m%d %H:%M:%S}.{d.microsecond // 1000:03d}000 {int(rng.integers(180000, 260000))} torch/distributed/elastic/agent/server/api.py:704] Received Signals.SIGTERM death signal, shutting down workers"))
    out.sort(key=lambda x: x[0])
    return [l for _, l in out]


# ---------------------------------------------------------------- main
def main():
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    for d in ["metrics", "logs/kernel", "logs/slurm"]:
        os.makedirs(os.path.join(OUT, d))
    om = OM()
    build_node(om)
    om.write(os.path.join(OUT, "metrics", "node_exporter.om"))
    om = OM()
    build_dcgm(om)
    om.write(os.path.join(OUT, "metrics", "dcgm_exporter.om"))
    om = OM()
    build_trainer(om)
    om.write(os.path.join(OUT, "metrics", "trainer.om"))
    for h in HOSTS:
        with open(os.path.join(OUT, "logs", "kernel", f"{h}.log"), "w") as f:
            f.write("\n".join(kernel_log(h)) + "\n")
    with open(os.path.join(OUT, "logs", "slurm", f"slurm-{JOB1}.out"), "w") as f:
        f.write("\n".join(slurm_out(JOB1, J1_START, J1_TRAIN, 8000, logs1, ck1, J1_END, True)) + "\n")
    with open(os.path.join(OUT, "logs", "slurm", f"slurm-{JOB2}.out"), "w") as f:
        f.write("\n".join(slurm_out(JOB2, J2_START, J2_TRAIN, RESUME_STEP, logs2, ck2, W1 + 900, False)) + "\n")

    iso = lambda t: dt.datetime.fromtimestamp(t, UTC).isoformat()
    incident = {
        "id": ID,
        "title": "llama3-8b-c4 FSDP run on gpu-n001..n016: step time up for most of the early afternoon",
        "window": {"start": iso(W0), "end": iso(W1)},
        "baseline": {"start": iso(W0), "end": iso(BASE1)},
        "primary_signal": "throughput",
        "cluster": {"name": "h100-sj2", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as f:
        yaml.safe_dump(incident, f, sort_keys=False)

    base = [tps for t, s, tps in logs1 if W0 <= t < ONSET]
    deg = [tps for t, s, tps in logs1 if ONSET + 600 <= t < J1_END - 60]
    post = [tps for t, s, tps in logs2 if J2_TRAIN + 300 <= t < W1]
    loss = (1 - np.median(deg) / np.median(base)) * 100
    step_up = (np.median(base) / np.median(deg) - 1) * 100
    z = lambda t: dt.datetime.fromtimestamp(round(t), UTC).isoformat().replace("+00:00", "Z")
    truth = {
        "id": ID,
        "cause": ("A degrading 2x400G->4x200G splitter cable on leaf-3's rail-2 port, which fed mlx5_2 of "
                  "gpu-n009..gpu-n012; its link errors forced RC retransmissions on rail 2 and slowed every rank "
                  "of the synchronous FSDP job until the splitter was replaced."),
        "cause_metrics": ["node_infiniband_symbol_error_total", "node_infiniband_port_errors_received_total",
                          "node_infiniband_link_error_recovery_total",
                          "node_infiniband_packet_sequence_errors_total", "node_infiniband_out_of_sequence_packets_received_total",
                          "node_infiniband_local_ack_timeout_errors_total", "node_infiniband_port_transmit_wait_total"],
        "cause_log_evidence": [
            {"files": [f"logs/kernel/{h}.log" for h in BAD_HOSTS],
             "text": f"mlx5_core 0000:{HCA_PCI[2]}:00.0: Port module event: module 0, Cable unplugged",
             "role": "the repair (splitter swapped), not the degradation itself; no kernel line records symbol errors",
             "adapted": "host name, timestamp, PCI address (and module index 1 -> 0 relative to source 1)",
             "source": ["leptonai/gpud pkg/pstore/testdata/7530486857247/dmesg.txt @4a8de33a (copy in "
                        "/work/shared/reference/formats/gpu_kernel_logs_gpud/): "
                        "'mlx5_core 0000:41:00.1: Port module event: module 1, Cable unplugged'",
                        "public dmesg in a GitHub file (code-index file id 57112821425): "
                        "'mlx5_core 0000:08:00.0: Port module event: module 0, Cable unplugged'"]},
            {"files": [f"logs/kernel/{h}.log" for h in BAD_HOSTS],
             "text": f"mlx5_core 0000:{HCA_PCI[2]}:00.0: Port module event: module 0, Cable plugged",
             "role": "the repair (new splitter inserted)",
             "adapted": "host name, timestamp, PCI address",
             "source": ["linux-rdma/netdev list post quoting a boot log (code-index file id 5469319571): "
                        "'May 27 15:47:46 manet.1015granger.net kernel: mlx5_core 0000:81:00.0: Port module event: module 0, Cable plugged'",
                        "public dmesg (code-index file id 20528609102): "
                        "'mlx5_core 0000:04:00.0: Port module event: module 0, Cable plugged'"]},
        ],
        "hosts": list(BAD_HOSTS),
        "gpu": None,
        "device": {"hosts": list(BAD_HOSTS), "hca": BAD_DEV, "pci": f"0000:{HCA_PCI[2]}:00.0", "switch": "leaf-3 rail-2 splitter"},
        "onset": z(ONSET),
        "degraded_until": z(J1_END),
        "repair": {"job_cancelled": z(J1_END), "cable_unplugged": z(UNPLUG), "cable_plugged": z(PLUG),
                   "job_restarted": z(J2_START), "training_resumed": z(J2_TRAIN), "resumed_from_step": int(RESUME_STEP)},
        "job_throughput_loss_pct": round(float(loss), 1),
        "step_time_increase_pct": round(float(step_up), 1),
        "post_repair_vs_baseline_pct": round(float((np.median(post) / np.median(base) - 1) * 100), 1),
        "what_a_good_postmortem_says": (
            f"From ~{dt.datetime.fromtimestamp(ONSET, UTC):%H:%M} UTC the 128-GPU FSDP job's step time rose ~{step_up:.0f}% (tokens/s per GPU "
            f"~{np.median(base):,.0f} -> ~{np.median(deg):,.0f}) for about 90 minutes because the rail-2 HCA ports "
            "(mlx5_2) of the four hosts on leaf-3, gpu-n009..n012, took rising symbol errors, port receive errors and "
            "link error recoveries (with RC retransmission counters rising with them), and every rank of the "
            "synchronous job waited on that rail. The shared component is leaf-3's rail-2 splitter cable; ops drained "
            "the job after a checkpoint, swapped the splitter (mlx5 cable unplugged/plugged on the four hosts), and "
            "after the restart the job ran at its baseline pace. Alert on the rate of node_infiniband_symbol_error_total "
            "/ port_errors_received_total per port and drain/replace before the job pays for it."),
        "notes": {
            "layout": "metrics/*.om OpenMetrics text, timestamp on every sample; node_exporter known by IP:port (see node_uname_info)",
            "throughput_signal": "trainer_tokens_per_second (metrics/trainer.om) and torchtitan step lines in logs/slurm/*.out",
            "scrape_interval_s": SCRAPE,
            "maintenance_gap": "no training between job_cancelled and training_resumed (planned drain for the repair)",
            "red_herrings": ["gpu-n003 mlx5_5 port_errors_received_total constant 14 all window",
                             "gpu-n014 mlx5_7 link_downed_total constant 1 all window",
                             "other hosts' mlx5_2 see a few packet-sequence errors while the bad legs drop packets (they send to them)",
                             "SYN-flooding line on gpu-n001 at the restart is the c10d rendezvous"],
        },
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as f:
        yaml.safe_dump(truth, f, sort_keys=False, width=120, allow_unicode=True)
    print("wrote", OUT, f"loss {loss:.2f}% step+{step_up:.2f}% J1_END {z(J1_END)} UNPLUG {z(UNPLUG)} PLUG {z(PLUG)} J2 {z(J2_START)}")


if __name__ == "__main__":
    main()
