#!/usr/bin/env python3
"""Blind incident 1: a flapping RoCE rail on one host of a 16-node H100 job.

Writes /tmp/p/blind_INC2/pretrain8b-2025-09-16-throughput-dips/ (fixed seed):
  incident.yaml, truth.yaml
  metrics/dcgm-exporter.csv, metrics/node-exporter.csv, metrics/trainer.csv
  logs/journal/<host>.log          journalctl -k -b -o short-iso, every host
  logs/gpu-b11.dmesg-T.txt         dmesg -T taken by the on-call engineer on gpu-b11
  logs/slurm-48213.out             the job's output (srun --label, Megatron-LM, NCCL)

The fault lines are real lines from public sources (see SOURCES); only the host name,
timestamp and PCI address (with the interface name the PCI address implies) are adapted.
"""

import os
import shutil
import sys

import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common_sim as cs  # noqa: E402

SEED = 20250916
ID = "pretrain8b-2025-09-16-throughput-dips"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

W0 = cs.parse("2025-09-16T06:00:00+00:00")
W1 = cs.parse("2025-09-16T08:45:00+00:00")
COLLECT = cs.parse("2025-09-16T08:55:02+00:00")  # when the logs were pulled
JOB_START = cs.parse("2025-09-16T03:52:04+00:00")
JOBID = 48213
FAULT_HOST = "gpu-b11"
FAULT_RAIL = 2

# ---- the real lines (verbatim in the sources; see truth.yaml for the adaptations)
LINK_DOWN_SRC = "[18865.848172] mlx5_core 0000:01:00.0 enp1s0f0np0: Link down"
LINK_UP_SRC = "<6>[   14.952018] mlx5_core 0000:41:00.0 enp65s0f0np0: Link up"
NCCL_SRC = [  # (pid, tid) as in the source, one line per local rank
    (34050, 34121), (34052, 34141), (34055, 34140), (34051, 34143),
    (34054, 34130), (34057, 34142), (34053, 34129), (34056, 34135),
]
LINK_DOWN = "mlx5_core 0000:41:00.0 enp65s0f0np0: Link down"
LINK_UP = "mlx5_core 0000:41:00.0 enp65s0f0np0: Link up"
NCCL_FMT = "{host}:{pid}:{tid} [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error"

SOURCES = {
    "link_down": dict(
        url="https://lore.kernel.org/all/Z1CVTJ5jzIyNiB1R@x1/",
        what="LKML, Arnaldo Carvalho de Melo, '[REGRESSION] perf mem record on a Intel hybrid system broken' (2024-12-04), dmesg excerpt",
        original=LINK_DOWN_SRC,
        adapted="PCI address 0000:01:00.0 -> 0000:41:00.0 and the interface name it implies (enp1s0f0np0 -> enp65s0f0np0); timestamp; host",
    ),
    "link_up": dict(
        url="https://github.com/leptonai/gpud/blob/4a8de33a3f02e207f39e9023d67125592d599731/pkg/pstore/testdata/7530486857247/dmesg.txt",
        what="leptonai/gpud testdata: a real host's pstore dmesg (also /work/shared/reference/formats/gpu_kernel_logs_gpud/pkg__pstore__7530486857247__dmesg.txt)",
        original=LINK_UP_SRC,
        adapted="timestamp and host only (same PCI address and interface name as the source)",
    ),
    "nccl_port_error": dict(
        url="https://github.com/Lightning-AI/lit-llama/issues/380",
        what="lit-llama issue #380 'transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error' (4-node Slurm job; 8 local ranks each print it); NCCL maintainer on the same symptom: https://github.com/NVIDIA/nccl/issues/905 ('You seem to have a flapping link')",
        original="...-48:34050:34121 [0] transport/net_ib.cc:93 NCCL WARN NET/IB : Got async event : port error",
        adapted="host name ('...-48' -> gpu-b11); pid:tid pairs kept as in the source; srun --label prefix added by the launcher",
    ),
}

# link flaps of mlx5_2 on gpu-b11: (down, seconds down, RC retransmit wait after link up)
FLAPS = [
    ("07:38:47.412", 6.0, 9.2), ("07:44:02.137", 11.0, 4.1), ("07:44:51.806", 4.0, 12.8),
    ("07:52:16.554", 23.0, 7.7), ("07:57:40.019", 8.0, 15.1), ("08:03:05.662", 33.0, 3.3),
    ("08:03:58.301", 7.0, 10.4), ("08:09:31.847", 15.0, 6.6), ("08:14:12.233", 27.0, 11.9),
    ("08:20:44.908", 9.0, 8.5),
]

GPU_BUSES = [0x19, 0x3B, 0x4C, 0x5D, 0x9B, 0xBB, 0xCB, 0xDB]  # PowerEdge XE9680 layout
RAIL_BUSES = [0x1D, 0x39, 0x41, 0x5F, 0x9D, 0xB9, 0xC1, 0xDD]
NVSWITCH_BUSES = [0x04, 0x05, 0x06, 0x07]

DCGM_METRICS = [
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_MEMORY_TEMP",
    "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
    "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
]


def T(hms):
    return cs.parse(f"2025-09-16T{hms}+00:00")


def main():
    rng = np.random.default_rng(SEED)
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    for d in ("metrics", "logs/journal"):
        os.makedirs(os.path.join(OUT, d))

    names = [f"gpu-b{i:02d}" for i in range(1, 17)]
    rails = [dict(dev=f"mlx5_{i}", bus=b, netdev=f"enp{b}s0f0np0") for i, b in enumerate(RAIL_BUSES)]
    frontend = [cs.Rail(dev="mlx5_8", bus=0x0C, netdev="enp12s0f0np0"), cs.Rail(dev="mlx5_9", bus=0x0C, netdev="enp12s0f1np1")]
    hosts = cs.make_hosts(rng, names, GPU_BUSES, rails,
                          (cs.parse("2025-08-27T09:00:00+00:00"), cs.parse("2025-09-09T18:00:00+00:00")))
    hosts[names.index(FAULT_HOST)].boot = cs.parse("2025-09-02T14:21:37+00:00")

    flaps = [cs.Flap(T(a), d, e) for a, d, e in FLAPS]
    cfg = cs.JobCfg(
        start=JOB_START, train_start=JOB_START + 86.4, end=COLLECT, it0=61200, train_iters=250000,
        gbs=512, seq=8192, world=128, iter_s=4.965, save_interval=1200, eval_interval=2400, eval_s=61.0,
        ckpt_s=43.0)
    tl = cs.simulate_job(rng, cfg, flaps)

    # ------------------------------------------------------------------ metrics
    dcgm_frames, node_frames, trainer_frames = [], [], []
    fault = cs.RailFault(rail=FAULT_RAIL, flaps=flaps,
                         errs=[int(x) for x in rng.integers(3, 41, len(flaps))],
                         recov=[int(x) for x in (rng.random(len(flaps)) < 0.4)])
    for h in hosts:
        pm = cs.gpu_power_mean(h, tl.state)
        pf_gpu = cs.lag(pm, 24.0)
        pf_mem = cs.lag(pm, 70.0)
        e0 = (tl.t0 - h.boot) * rng.uniform(380, 430, 8)
        nv0 = (tl.t0 - h.boot) * rng.uniform(2.0e10, 2.6e10, 8)
        t_dcgm = cs.scrape_times(rng, W0, W1, 30.0)
        dcgm_frames += cs.dcgm_host_frames(rng, h, tl, t_dcgm, pf_gpu, pf_mem, e0, nv0, "550.90.07",
                                           "NVIDIA H100 80GB HBM3", DCGM_METRICS)
        for f in cs.up_frames(None, t_dcgm, f"{h.name}:9400", "dcgm-exporter", dur=(0.012, 0.041), rng=rng):
            dcgm_frames.append(f.with_columns(
                *[cs.pl.lit("").alias(c) for c in ("Hostname", "gpu", "UUID", "device", "modelName", "pci_bus_id", "DCGM_FI_DRIVER_VERSION")]))
        t_node = cs.scrape_times(rng, W0, W1, 30.0)
        node_frames += cs.node_host_frames(rng, h, tl, t_node, f"{h.name}:9100", fault=fault if h.name == FAULT_HOST else None,
                                           fabric="roce", frontend_dev="bond0", ckpt_bytes=8.0e9)
        node_frames += cs.up_frames(None, t_node, f"{h.name}:9100", "node", dur=(0.21, 0.47), rng=rng)
    # dcgm rows carry instance/job too
    dcgm_frames = [f if "instance" in f.columns else f.with_columns(
        cs.pl.lit(f"{f['Hostname'][0]}:9400").alias("instance"), cs.pl.lit("dcgm-exporter").alias("job")) for f in dcgm_frames]
    cs.write_csv(os.path.join(OUT, "metrics", "dcgm-exporter.csv"), dcgm_frames,
                 ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device", "modelName", "pci_bus_id",
                  "DCGM_FI_DRIVER_VERSION", "instance", "job"])
    cs.write_csv(os.path.join(OUT, "metrics", "node-exporter.csv"), node_frames,
                 ["timestamp", "metric", "value", "instance", "job", "device", "port", "fstype", "mountpoint"])
    # trainer exporter in rank 0's process on gpu-b01
    t_tr = cs.scrape_times(rng, W0, W1, 30.0)
    ok, tok, step, its = cs.gauge_series(tl, t_tr)
    lab = dict(instance="gpu-b01:9464", job="megatron-trainer", slurm_job_id=str(JOBID))
    ts = cs.iso_ms(t_tr)
    trainer_frames.append(cs.series_frame("trainer_tokens_per_second", ts, t_tr, "f1", tok, lab))
    trainer_frames.append(cs.series_frame("trainer_step_time_seconds", ts, t_tr, "f4", step, lab))
    trainer_frames.append(cs.series_frame("trainer_iteration", ts, t_tr, "i", its, lab))
    trainer_frames += [f.with_columns(cs.pl.lit(str(JOBID)).alias("slurm_job_id"))
                       for f in cs.up_frames(None, t_tr, "gpu-b01:9464", "megatron-trainer", dur=(0.002, 0.006), rng=rng)]
    cs.write_csv(os.path.join(OUT, "metrics", "trainer.csv"), trainer_frames,
                 ["timestamp", "metric", "value", "instance", "job", "slurm_job_id"])

    # ------------------------------------------------------------------ kernel logs
    prior_job_ends = [cs.parse(s) for s in ("2025-09-04T11:17:40+00:00", "2025-09-08T02:51:13+00:00",
                                            "2025-09-11T19:05:32+00:00", "2025-09-14T22:10:08+00:00",
                                            "2025-09-16T03:44:51+00:00")]
    prior_job_starts = [cs.parse(s) for s in ("2025-09-04T11:31:02+00:00", "2025-09-08T03:02:44+00:00",
                                              "2025-09-11T19:20:15+00:00", "2025-09-14T22:24:51+00:00")]
    benign_in_window = {
        "gpu-b04": [(T("06:52:31.118"), "clocksource: Long readout interval, skipping watchdog check: cs_nsec: 1584036171 wd_nsec: 1584036160")],
        "gpu-b14": [(T("07:26:09.540"), "hrtimer: interrupt took 5692433 ns")],
    }
    dmesg_b11 = None
    for h in hosts:
        rootuuid = "%08x-%04x-%04x-%04x-%012x" % tuple(int(x) for x in (rng.integers(0, 2**32), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**16), rng.integers(0, 2**48)))
        boot = cs.xe9680_boot(rng, h, frontend, NVSWITCH_BUSES, rootuuid)
        ev = [(h.boot + mo, ident, msg) for mo, ident, msg in boot]
        starts = [(s, 6000) for s in prior_job_starts + [JOB_START + 40.3]] if h.name == "gpu-b01" else []
        ev += cs.runtime_kernel_events(rng, h, COLLECT, job_ends=prior_job_ends, job_starts_master=starts,
                                       perf_times=int(rng.integers(1, 4)))
        for t_, msg in benign_in_window.get(h.name, []):
            ev.append((t_, "kernel", msg))
        if h.name == FAULT_HOST:
            for f in flaps:
                ev.append((f.down, "kernel", LINK_DOWN))
                ev.append((f.down + f.dur, "kernel", LINK_UP))
        ev = sorted((e for e in ev if e[0] <= COLLECT), key=lambda e: e[0])
        first_journal = h.boot - rng.uniform(8, 25) * 86400
        hdr = "-- Journal begins at {}, ends at {}. --".format(
            cs.utc(first_journal).strftime("%a %Y-%m-%d %H:%M:%S UTC"), cs.utc(COLLECT + rng.uniform(0, 20)).strftime("%a %Y-%m-%d %H:%M:%S UTC"))
        with open(os.path.join(OUT, "logs", "journal", f"{h.name}.log"), "w") as fh:
            fh.write(hdr + "\n")
            for t_, ident, msg in ev:
                fh.write(f"{cs.short_iso(t_)} {h.name} {ident}: {msg}\n")
        if h.name == FAULT_HOST:
            dmesg_b11 = ev
    # the on-call engineer's `sudo dmesg -T` on gpu-b11 at 08:52 (dmesg -T's clock is ~1 s off)
    with open(os.path.join(OUT, "logs", f"{FAULT_HOST}.dmesg-T.txt"), "w") as fh:
        for t_, ident, msg in dmesg_b11:
            if t_ > T("08:52:17"):
                continue
            text = msg if ident == "kernel" else f"{ident}: {msg}"
            fh.write(f"{cs.dmesg_T(t_ + 1.0)} {text}\n")

    # ------------------------------------------------------------------ job output
    lines = cs.megatron_lines(rng, cfg, tl, "/mnt/vast/ckpt/llama3-8b-cpt-v2", "/mnt/vast/ckpt/llama3-8b-cpt-v2",
                              "/mnt/vast/data/tokenized/mix-v7_text_document",
                              extra_args=dict(eval_iters=32, tensorboard_dir="/mnt/vast/tb/llama3-8b-cpt-v2",
                                              tokenizer_model="/mnt/vast/tokenizers/llama3", exit_duration_in_mins=2850))
    t_loaded = next(t_ for t_, r, x in lines if "successfully loaded checkpoint" in x)
    lines += cs.per_rank_noise(rng, cfg.world, JOB_START + 12.0, t_loaded - 24.0)
    fi = names.index(FAULT_HOST)
    for f in flaps:
        order = list(range(8))
        rng.shuffle(order)
        for k, j in enumerate(order):
            pid, tid = NCCL_SRC[j]
            local = pid - 34050
            rank = fi * 8 + local
            t_ = f.down + 0.004 + 0.0021 * k
            lines.append((t_, rank, ""))
            lines.append((t_ + 1e-6, rank, NCCL_FMT.format(host=FAULT_HOST, pid=pid, tid=tid)))
    head = [
        (JOB_START - 1.0, None, "START TIME: Tue Sep 16 03:52:03 UTC 2025"),
        (JOB_START - 0.9, None, "SLURM_JOB_ID=48213 SLURM_JOB_NODELIST=gpu-b[01-16] SLURM_NNODES=16 SLURM_NTASKS=128"),
        (JOB_START - 0.8, None, "MASTER_ADDR=gpu-b01 MASTER_PORT=6000"),
        (JOB_START - 0.7, None, "NCCL_DEBUG=WARN NCCL_IB_HCA=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7 NCCL_IB_GID_INDEX=3 NCCL_IB_TIMEOUT=22 NCCL_SOCKET_IFNAME=bond0"),
        (JOB_START - 0.6, None, "+ srun --label --kill-on-bad-exit=1 --cpu-bind=none --container-image=/mnt/vast/images/nemo-24.07.sqsh python /opt/megatron-lm/pretrain_gpt.py ..."),
    ]
    text = cs.render_stream(head + [l for l in lines if l[0] <= COLLECT - 3], lambda r: cs.srun_label(r, 3))
    with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as fh:
        fh.write(text)

    # ------------------------------------------------------------------ incident.yaml
    inc = {
        "id": ID,
        "title": "8B pretraining (Slurm job 48213): tokens/s dropping in bursts on 16 x H100",
        "window": {"start": "2025-09-16T06:00:00+00:00", "end": "2025-09-16T08:45:00+00:00"},
        "baseline": {"start": "2025-09-16T06:00:00+00:00", "end": "2025-09-16T07:10:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "h100-east-b", "nodes": 16, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as fh:
        yaml.safe_dump(inc, fh, sort_keys=False)

    # ------------------------------------------------------------------ truth
    base_tok = np.mean([l["tok_s"] for l in tl.logs if W0 <= l["t"] < T("07:10:00")])
    onset = flaps[0].down
    end_fault = max(b for a, b in tl.stalls)

    def loss_between(a, b):
        done = 0.0
        for it, s, e, st in tl.iters:
            lo, hi = max(s, a), min(e, b)
            if hi > lo:
                done += (hi - lo) / (e - s) * cfg.gbs * cfg.seq
        # expected at the healthy rate; pauses for checkpoints count as healthy
        pause = sum(max(0, min(e, b) - max(s, a)) for _, s, e in tl.ckpts) + sum(max(0, min(e, b) - max(s, a)) for _, s, e, _ in tl.evals)
        healthy = [(e - s) for it, s, e, st in tl.iters if W0 <= s < T("07:10:00") and st == 0]
        busy_rate = cfg.gbs * cfg.seq * len(healthy) / sum(healthy)
        exp = busy_rate * ((b - a) - pause)
        return 100.0 * (1 - done / exp)

    stall_total = sum(b - a for a, b in tl.stalls)
    truth = {
        "id": ID,
        "cause": ("The RoCE rail NIC mlx5_2 (0000:41:00.0, enp65s0f0np0) of gpu-b11 flapped: its link went down and "
                  "up 10 times between 07:38:47 and 08:21:02 UTC (a marginal cable/transceiver), and each drop stalled "
                  "the NCCL collectives of the whole synchronous job for ~15-40 s until the link and the RC "
                  "retransmissions recovered."),
        "cause_metrics": [
            "node_network_carrier_changes_total{instance=gpu-b11:9100,device=enp65s0f0np0} (+2 per flap, 20 in all)",
            "node_infiniband_link_downed_total{instance=gpu-b11:9100,device=mlx5_2} (+10)",
            "node_infiniband_port_errors_received_total{instance=gpu-b11:9100,device=mlx5_2}",
            "node_infiniband_link_error_recovery_total{instance=gpu-b11:9100,device=mlx5_2}",
            "node_infiniband_state_id / node_infiniband_physical_state_id (1 / 2 in the scrapes that fell while the link was down)",
            "node_infiniband_port_data_{received,transmitted}_bytes_total (flat on gpu-b11 mlx5_2 while down; all rails of all hosts slow during stalls)",
            "effects: trainer_tokens_per_second, trainer_step_time_seconds, DCGM_FI_DEV_POWER_USAGE and DCGM_FI_PROF_PIPE_TENSOR_ACTIVE (all GPUs idle-spin in NCCL while GPU_UTIL stays ~100)",
        ],
        "cause_log_evidence": [
            {"line": LINK_DOWN, "where": "logs/journal/gpu-b11.log, logs/gpu-b11.dmesg-T.txt (10 times)", **{k: SOURCES["link_down"][k] for k in ("url", "what", "original", "adapted")}},
            {"line": LINK_UP, "where": "logs/journal/gpu-b11.log, logs/gpu-b11.dmesg-T.txt (10 times)", **{k: SOURCES["link_up"][k] for k in ("url", "what", "original", "adapted")}},
            {"line": NCCL_FMT.format(host=FAULT_HOST, pid=34050, tid=34121), "where": "logs/slurm-48213.out, ranks 80-87 (8 lines per flap, 80 in all, each pid:tid pair from the source)",
             **{k: SOURCES["nccl_port_error"][k] for k in ("url", "what", "original", "adapted")}},
        ],
        "not_included": ("NCCL also prints 'NET/IB : Got async event : port active' when a port comes back; no public log line "
                         "with that text was found to copy, so the trainer output carries only the 'port error' lines."),
        "hosts": [FAULT_HOST],
        "gpu": None,
        "nic": {"host": FAULT_HOST, "device": "mlx5_2", "pci": "0000:41:00.0", "netdev": "enp65s0f0np0"},
        "onset": cs.utc(onset).isoformat(timespec="seconds"),
        "recovered": cs.utc(end_fault).isoformat(timespec="seconds"),
        "job_throughput_loss_pct": round(loss_between(onset, end_fault), 1),
        "job_throughput_loss_pct_over_window": round(loss_between(W0, W1), 1),
        "stalled_seconds_total": round(stall_total, 1),
        "baseline_tokens_per_second": round(float(base_tok), 0),
        "flaps": [{"down": cs.utc(f.down).isoformat(timespec="milliseconds"), "down_s": f.dur,
                   "job_stalled_s": round(f.dur + f.extra, 1)} for f in flaps],
        "notes": ["dmesg -T in logs/gpu-b11.dmesg-T.txt runs ~1 s ahead of the journal's timestamps (dmesg -T derives wall time from boot time + uptime)",
                  "trainer_tokens_per_second is the job's own exporter: tokens of the last Megatron log interval (10 iterations) over its wall time, so it holds its value during a stall and drops one interval later; Megatron's printed 'elapsed time per iteration' includes the stalls but excludes checkpoint time"],
        "benign_noise": [
            "checkpoint of iteration 63600 at ~07:14 UTC (save ~45 s, throughput gauge dips once, GPUs idle, frontend bond0 TX burst on every host)",
            "nvidia-peermem 'ERROR detected invalid context' bursts at 03:44:51 when the previous job exited (every host)",
            "TCP SYN flooding message on gpu-b01 at job start (torch rendezvous on port 6000)",
            "clocksource watchdog message on gpu-b04, hrtimer message on gpu-b14, perf sample-rate messages",
            "'nvidia: module verification failed' and 'Cable unplugged' on the unused second ports at boot",
        ],
        "what_a_good_postmortem_says": (
            "Between 07:38 and 08:21 UTC the synchronous job stalled ten times, for "
            f"{min(f.dur + f.extra for f in flaps):.0f}-{max(f.dur + f.extra for f in flaps):.0f} s each, whenever one RoCE "
            "rail on gpu-b11 (mlx5_2 / enp65s0f0np0) went down: the kernel logged 'Link down'/'Link up' there and "
            "gpu-b11's 8 ranks logged NCCL 'Got async event : port error' at the same moments, and only that host's "
            "carrier-change and link-downed counters moved. About "
            f"{stall_total / 60:.0f} minutes of training were lost (~{loss_between(onset, end_fault):.0f}% of the affected "
            f"42 minutes, ~{loss_between(W0, W1):.1f}% of the window; the 07:14 checkpoint dip is normal). Drain gpu-b11 "
            "and check rail 2's cable/transceiver and switch port (mlxlink, switch-side error counters) before "
            "returning it to service."),
        "generator": f"make_{ID}.py (seed {SEED})",
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as fh:
        yaml.safe_dump(truth, fh, sort_keys=False, width=120, allow_unicode=True)
    print("done", OUT)


if __name__ == "__main__":
    main()
