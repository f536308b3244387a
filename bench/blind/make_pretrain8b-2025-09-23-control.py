#!/usr/bin/env python3
"""Blind incident 2: a healthy control day of the same kind of job (24 x DGX H100).

Writes /tmp/p/blind_INC2/pretrain8b-2025-09-23-control/ (fixed seed):
  incident.yaml, truth.yaml
  metrics/dcgm-exporter.parquet, metrics/node-exporter.parquet, metrics/trainer.parquet
  logs/nodes/<host>/syslog     /var/log/syslog of the day (rsyslog traditional format)
  logs/slurm-51877.out         the job's output (torchrun --tee 3 prefixes, Megatron-LM)

Nothing is wrong. The noise a healthy cluster has: checkpoints every ~42 min and
evaluations every ~34 min that briefly lower throughput, one host (dgx-c19) that always
runs warmer, benign kernel/driver/daemon lines with error/fail/timeout words, and a
one-minute node_exporter scrape gap on dgx-c07.
"""

import os
import shutil
import sys

import numpy as np
import polars as pl
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common_sim as cs  # noqa: E402

SEED = 20250923
ID = "pretrain8b-2025-09-23-control"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), ID)

DAY = "2025-09-23"
W0 = cs.parse(f"{DAY}T12:00:00+00:00")
W1 = cs.parse(f"{DAY}T15:30:00+00:00")
COLLECT = cs.parse(f"{DAY}T15:36:40+00:00")
DAY0 = cs.parse(f"{DAY}T00:00:00+00:00")
JOB_START = cs.parse(f"{DAY}T11:05:12+00:00")
PREV_END = cs.parse(f"{DAY}T10:58:31+00:00")
PREV_START = cs.parse(f"{DAY}T03:12:40+00:00")
JOBID = 51877
WARM = "dgx-c19"
GAP_HOST = "dgx-c07"
GAP = (cs.parse(f"{DAY}T14:21:30+00:00"), cs.parse(f"{DAY}T14:22:30+00:00"))

GPU_BUSES = [0x1B, 0x43, 0x52, 0x61, 0x9D, 0xC3, 0xD1, 0xDF]  # DGX H100
IB = [("mlx5_0", 0x18), ("mlx5_3", 0x40), ("mlx5_4", 0x4F), ("mlx5_5", 0x5E),
      ("mlx5_6", 0x9A), ("mlx5_9", 0xC0), ("mlx5_10", 0xCE), ("mlx5_11", 0xDC)]

DCGM_METRICS = [
    "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_GPU_TEMP",
    "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
    "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED",
    "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
    "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE", "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE",
]

# benign lines taken from public logs (not evidence of any fault; listed in truth.yaml)
PEERMEM = "nvidia-peermem nv_get_p2p_free_callback:127 ERROR detected invalid context, skipping further processing"
CLOCKSRC = "clocksource: Long readout interval, skipping watchdog check: cs_nsec: 1584036171 wd_nsec: 1584036160"
NODEEXP_ERR = ('time={ts} level=ERROR source=http.go:231 msg="error encoding and sending metric family: '
               'write tcp {me}:9100->10.41.0.2:{port}: write: broken pipe"')


def T(hms):
    return cs.parse(f"{DAY}T{hms}+00:00")


def syslog_events(rng, h, ip, hostnames):
    """[(t, tag, msg)] of one host's /var/log/syslog for the day until collection."""
    ev = []
    def kern(t, msg):
        s = t - h.boot
        ev.append((t, "kernel", f"[{int(s):5d}.{int((s % 1) * 1e6):06d}] {msg}"))

    # logrotate at midnight
    t = DAY0 + rng.uniform(0.2, 1.5)
    ev += [(t, "systemd[1]", "Starting Rotate log files..."),
           (t + 0.3, "rsyslogd", '[origin software="rsyslogd" swVersion="8.2112.0" x-pid="1873" x-info="https://www.rsyslog.com"] rsyslogd was HUPed'),
           (t + 0.4, "systemd[1]", "logrotate.service: Deactivated successfully."),
           (t + 0.4, "systemd[1]", "Finished Rotate log files.")]
    t = DAY0 + rng.uniform(300, 1500)
    ev += [(t, "systemd[1]", "Starting Daily man-db regeneration..."),
           (t + 2.1, "systemd[1]", "man-db.service: Deactivated successfully."),
           (t + 2.1, "systemd[1]", "Finished Daily man-db regeneration.")]
    # sysstat every 10 minutes, cron.hourly at :17
    cp = int(rng.integers(200000, 300000))
    for k in range(0, int((COLLECT - DAY0) // 600) + 1):
        t = DAY0 + 600 * k + rng.uniform(0.0, 0.9)
        if t < COLLECT:
            cp += int(rng.integers(40, 400))
            ev.append((t, f"CRON[{cp}]", "(root) CMD (command -v debian-sa1 > /dev/null && debian-sa1 1 1)"))
    for hr in range(0, 16):
        t = DAY0 + hr * 3600 + 17 * 60 + rng.uniform(0, 0.9)
        if t < COLLECT:
            cp += int(rng.integers(40, 400))
            ev.append((t, f"CRON[{cp}]", "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)"))
    # apt / motd timers
    t = DAY0 + rng.uniform(6 * 3600, 7 * 3600)
    ev += [(t, "systemd[1]", "Starting Daily apt download activities..."),
           (t + 4.2, "systemd[1]", "apt-daily.service: Deactivated successfully."),
           (t + 4.2, "systemd[1]", "Finished Daily apt download activities.")]
    t = DAY0 + rng.uniform(6.1 * 3600, 6.9 * 3600)
    ev += [(t, "systemd[1]", "Starting Daily apt upgrade and clean activities..."),
           (t + 1.8, "systemd[1]", "apt-daily-upgrade.service: Deactivated successfully."),
           (t + 1.8, "systemd[1]", "Finished Daily apt upgrade and clean activities.")]
    for base in (rng.uniform(2 * 3600, 5 * 3600), rng.uniform(12.5 * 3600, 15.2 * 3600)):
        t = DAY0 + base
        if t < COLLECT:
            ev += [(t, "systemd[1]", "Starting Refresh fwupd metadata and update motd..."),
                   (t + 1.1, "systemd[1]", "fwupd-refresh.service: Main process exited, code=exited, status=1/FAILURE"),
                   (t + 1.1, "systemd[1]", "fwupd-refresh.service: Failed with result 'exit-code'."),
                   (t + 1.1, "systemd[1]", "Failed to start Refresh fwupd metadata and update motd.")]
    # health-check logins from the monitoring host every 15 minutes
    sess = int(rng.integers(4000, 9000))
    sp = int(rng.integers(100000, 200000))
    for k in range(0, int((COLLECT - DAY0) // 900) + 1):
        t = DAY0 + 900 * k + 41 + rng.uniform(0, 4)
        if t >= COLLECT:
            break
        sp += int(rng.integers(200, 3000))
        sess += 1
        port = int(rng.integers(32768, 60999))
        ev += [(t, f"sshd[{sp}]", f"Accepted publickey for svc-health from 10.41.0.5 port {port} ssh2: ED25519 SHA256:r7Q2mJv0b1oX4TqkC9yH0a8cQm6pW3eLr1n5sVt2Zb8"),
               (t + 0.01, f"sshd[{sp}]", "pam_unix(sshd:session): session opened for user svc-health(uid=1201) by (uid=0)"),
               (t + 0.02, "systemd-logind[1402]", f"New session {sess} of user svc-health."),
               (t + 0.03, "systemd[1]", f"Started Session {sess} of User svc-health."),
               (t + 2.4, f"sshd[{sp}]", f"Received disconnect from 10.41.0.5 port {port}:11: disconnected by user"),
               (t + 2.4, f"sshd[{sp}]", f"Disconnected from user svc-health 10.41.0.5 port {port}"),
               (t + 2.41, f"sshd[{sp}]", "pam_unix(sshd:session): session closed for user svc-health"),
               (t + 2.42, "systemd[1]", f"session-{sess}.scope: Deactivated successfully."),
               (t + 2.42, "systemd-logind[1402]", f"Session {sess} logged out. Waiting for processes to exit."),
               (t + 2.43, "systemd-logind[1402]", f"Removed session {sess}.")]
    # a TCP port check from the inventory scanner, twice a day
    for base in (rng.uniform(1 * 3600, 3 * 3600), rng.uniform(13 * 3600, 15 * 3600)):
        t = DAY0 + base
        if t < COLLECT:
            sp += int(rng.integers(200, 3000))
            ev += [(t, f"sshd[{sp}]", "error: kex_exchange_identification: Connection closed by remote host"),
                   (t, f"sshd[{sp}]", f"Connection closed by 10.41.0.9 port {int(rng.integers(32768, 60999))}")]
    # chrony, resolved
    t = DAY0 + rng.uniform(3600, 40000)
    ev.append((t, "chronyd[1544]", "Selected source 10.41.0.3 (ntp2.dgx.cluster)"))
    ev.append((t + rng.uniform(600, 3000), "chronyd[1544]", "Selected source 10.41.0.2 (ntp1.dgx.cluster)"))
    if rng.random() < 0.3:
        ev.append((DAY0 + rng.uniform(3600, 50000), "systemd-resolved[1388]", "Using degraded feature set UDP instead of UDP+EDNS0 for DNS server 10.41.0.2."))
    # Slurm: previous job ends, this one starts
    ev.append((PREV_END + rng.uniform(0.5, 2.0), "slurmstepd[412877]", "done with job"))
    for j in range(int(rng.integers(8, 26))):
        kern(PREV_END + rng.uniform(0.0, 0.08) + j * 0.0004, PEERMEM)
    if h.name == "dgx-c01":
        ev.append((JOB_START - 0.5, "slurmd[3211]", f"slurmd: Launching batch job {JOBID} for UID 1042"))
    ev.append((JOB_START + 1.2 + rng.uniform(0, 0.3), "slurmd[3211]",
               f"slurmd: launch task StepId={JOBID}.0 request from UID:1042 GID:1042 HOST:10.41.0.101 PORT:{int(rng.integers(40000, 60000))}"))
    if h.name == "dgx-c01":
        kern(JOB_START + 8.4, "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters.")
    return ev, kern


def main():
    rng = np.random.default_rng(SEED)
    if os.path.exists(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "metrics"))
    names = [f"dgx-c{i:02d}" for i in range(1, 25)]
    rails = [dict(dev=d, bus=b, netdev=f"ibp{b}s0") for d, b in IB]
    hosts = cs.make_hosts(rng, names, GPU_BUSES, rails,
                          (cs.parse("2025-08-30T08:00:00+00:00"), cs.parse("2025-09-18T20:00:00+00:00")),
                          warm=dict(host=WARM, dT=4.2, dGPU=1.4, dMEM=2.1, dP=9.0))
    cfg = cs.JobCfg(start=JOB_START, train_start=JOB_START + 92.0, end=COLLECT, it0=120000, train_iters=250000,
                    gbs=768, seq=8192, world=192, iter_s=4.965, save_interval=500, eval_interval=400,
                    eval_s=26.0, ckpt_s=52.0, loss0=1.985)
    tl = cs.simulate_job(rng, cfg, [])

    dcgm, node, trainer = [], [], []
    for h in hosts:
        pm = cs.gpu_power_mean(h, tl.state)
        pf_gpu = cs.lag(pm, 24.0)
        pf_mem = cs.lag(pm, 70.0)
        e0 = (tl.t0 - h.boot) * rng.uniform(380, 430, 8)
        nv0 = (tl.t0 - h.boot) * rng.uniform(2.0e10, 2.6e10, 8)
        t_d = cs.scrape_times(rng, W0, W1, 30.0)
        fr = cs.dcgm_host_frames(rng, h, tl, t_d, pf_gpu, pf_mem, e0, nv0, "535.183.06", "NVIDIA H100 80GB HBM3",
                                 DCGM_METRICS, string_values=False)
        dcgm += [f.with_columns(pl.lit(f"{h.name}:9400").alias("instance"), pl.lit("dcgm-exporter").alias("job")) for f in fr]
        dcgm += cs.up_frames(None, t_d, f"{h.name}:9400", "dcgm-exporter", string_values=False, dur=(0.011, 0.044), rng=rng)
        t_n = cs.scrape_times(rng, W0, W1, 15.0)
        fail = None
        if h.name == GAP_HOST:
            fail = (t_n >= GAP[0]) & (t_n < GAP[1])
            h.gap_times = t_n[fail]
        node += cs.node_host_frames(rng, h, tl, t_n, f"{h.name}:9100", fabric="ib", frontend_dev="bond0",
                                    ckpt_bytes=5.4e9, xmit_wait=True, string_values=False, drop=fail)
        node += cs.up_frames(None, t_n, f"{h.name}:9100", "node", string_values=False, dur=(0.19, 0.44), rng=rng, fail=fail)
    dcols = ["timestamp", "metric", "value", "Hostname", "gpu", "UUID", "device", "modelName", "pci_bus_id",
             "DCGM_FI_DRIVER_VERSION", "instance", "job"]
    n_d = cs.write_parquet(os.path.join(OUT, "metrics", "dcgm-exporter.parquet"), dcgm, dcols)
    ncols = ["timestamp", "metric", "value", "instance", "job", "device", "port", "fstype", "mountpoint"]
    n_n = cs.write_parquet(os.path.join(OUT, "metrics", "node-exporter.parquet"), node, ncols)
    t_t = cs.scrape_times(rng, W0, W1, 15.0)
    ok, tok, step, its = cs.gauge_series(tl, t_t)
    lab = dict(instance="dgx-c01:9464", job="megatron-trainer", slurm_job_id=str(JOBID))
    trainer += [cs.series_frame("trainer_tokens_per_second", None, t_t, "f1", tok, lab, False),
                cs.series_frame("trainer_step_time_seconds", None, t_t, "f4", step, lab, False),
                cs.series_frame("trainer_iteration", None, t_t, "i", its, lab, False)]
    trainer += [f.with_columns(pl.lit(str(JOBID)).alias("slurm_job_id"))
                for f in cs.up_frames(None, t_t, "dgx-c01:9464", "megatron-trainer", string_values=False, dur=(0.002, 0.006), rng=rng)]
    cs.write_parquet(os.path.join(OUT, "metrics", "trainer.parquet"), trainer,
                     ["timestamp", "metric", "value", "instance", "job", "slurm_job_id"])

    # ------------------------------------------------------------------ syslog per host
    in_window_kernel = {
        "dgx-c04": [(T("12:41:07.220"), "perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500")],
        "dgx-c12": [(T("13:26:55.318"), CLOCKSRC)],
        "dgx-c22": [(T("14:58:12.904"), "hrtimer: interrupt took 5692433 ns")],
    }
    for h in hosts:
        ip = f"10.41.0.{100 + h.idx + 1}"
        ev, kern = syslog_events(rng, h, ip, names)
        for t_, msg in in_window_kernel.get(h.name, []):
            kern(t_, msg)
        if h.name == GAP_HOST:
            for ts_ in h.gap_times:
                nfam = int(rng.integers(25, 70))
                port = int(rng.integers(40000, 60000))
                t_err = ts_ + 10.0 + rng.uniform(0.6, 2.5)
                for j in range(nfam):
                    tt = t_err + j * 0.00003
                    stamp = cs.utc(tt).isoformat(timespec="milliseconds").replace("+00:00", "Z")
                    ev.append((tt, "node_exporter[2871]", NODEEXP_ERR.format(ts=stamp, me=ip, port=port)))
        ev = sorted((e for e in ev if e[0] <= COLLECT), key=lambda e: e[0])
        d = os.path.join(OUT, "logs", "nodes", h.name)
        os.makedirs(d)
        with open(os.path.join(d, "syslog"), "w") as fh:
            for t_, tag, msg in ev:
                fh.write(f"{cs.syslog_trad(t_)} {h.name} {tag}: {msg}\n")

    # ------------------------------------------------------------------ job output
    lines = cs.megatron_lines(rng, cfg, tl, "/lustre/fsw/pretrain/ckpt/llama3-8b-cpt-v3", "/lustre/fsw/pretrain/ckpt/llama3-8b-cpt-v3",
                              "/lustre/fsw/pretrain/data/mix-v8_text_document",
                              extra_args=dict(eval_iters=16, tensorboard_dir="/lustre/fsw/pretrain/tb/llama3-8b-cpt-v3",
                                              tokenizer_model="/lustre/fsw/pretrain/tokenizers/llama3", exit_duration_in_mins=5700),
                              init_s=(44.0, 31.0))
    t_loaded = next(t_ for t_, r, x in lines if "successfully loaded checkpoint" in x)
    lines += cs.per_rank_noise(rng, cfg.world, JOB_START + 14.0, t_loaded - 30.0, site="/usr/local/lib/python3.12/dist-packages")
    banner = []
    for i in range(len(names)):
        tb = JOB_START + 2.0 + rng.uniform(0, 1.5)
        tid = int(rng.integers(139000000000000, 140999999999999))
        st = cs.utc(tb)
        pre = "W{} {}.{:03d}000 {} torch/distributed/run.py:793] ".format(st.strftime("%m%d"), st.strftime("%H:%M:%S"), st.microsecond // 1000, tid)
        for k, txt in enumerate(["", "*****************************************",
                                 "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
                                 "*****************************************"]):
            banner.append((tb + k * 1e-6, None, pre + txt))
    head = [(JOB_START - 1.0, None, "START TIME: Tue Sep 23 11:05:11 UTC 2025"),
            (JOB_START - 0.9, None, "SLURM_JOB_ID=51877 SLURM_JOB_NODELIST=dgx-c[01-24] SLURM_NNODES=24"),
            (JOB_START - 0.8, None, "NCCL_DEBUG=WARN NCCL_IB_HCA=mlx5_0,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_9,mlx5_10,mlx5_11 NCCL_SOCKET_IFNAME=bond0"),
            (JOB_START - 0.7, None, "+ srun --ntasks-per-node=1 --container-image=/lustre/fsw/images/nemo-25.02.sqsh torchrun --nnodes 24 --nproc-per-node 8 --rdzv-backend c10d --rdzv-endpoint dgx-c01:29500 --tee 3 /opt/megatron-lm/pretrain_gpt.py ...")]
    text = cs.render_stream(head + banner + [l for l in lines if l[0] <= COLLECT - 4], lambda r: f"[rank{r}]:")
    with open(os.path.join(OUT, "logs", f"slurm-{JOBID}.out"), "w") as fh:
        fh.write(text)

    inc = {
        "id": ID,
        "title": "8B pretraining (Slurm job 51877) on 24 x DGX H100: routine review, nothing reported",
        "window": {"start": f"{DAY}T12:00:00+00:00", "end": f"{DAY}T15:30:00+00:00"},
        "baseline": {"start": f"{DAY}T12:00:00+00:00", "end": f"{DAY}T12:50:00+00:00"},
        "primary_signal": "throughput",
        "cluster": {"name": "dgx-c", "nodes": 24, "gpus_per_node": 8, "gpu_model": "H100"},
        "signal_pack": "default",
    }
    with open(os.path.join(OUT, "incident.yaml"), "w") as fh:
        yaml.safe_dump(inc, fh, sort_keys=False)

    base = np.array([l["tok_s"] for l in tl.logs if W0 <= l["t"] < W1])
    train_only = np.array([l["tok_s"] for l in tl.logs if W0 <= l["t"] < W1
                           and not any(abs(l["t"] - b) < 120 for _, a, b in tl.ckpts)
                           and not any(abs(l["t"] - b) < 120 for _, a, b, _ in tl.evals)])
    truth = {
        "id": ID,
        "cause": "none",
        "cause_metrics": [],
        "cause_log_evidence": [],
        "hosts": [],
        "gpu": None,
        "onset": None,
        "job_throughput_loss_pct": 0.0,
        "healthy_tokens_per_second": {"median_train_intervals": round(float(np.median(train_only)), 0),
                                      "p05_all_intervals": round(float(np.percentile(base, 5)), 0)},
        "benign_noise": {
            "checkpoints": [{"iteration": it, "start": cs.utc(a).isoformat(timespec="seconds"), "seconds": round(b - a, 1)}
                            for it, a, b in tl.ckpts if W0 <= a < W1],
            "evaluations": [{"iteration": it, "start": cs.utc(a).isoformat(timespec="seconds"), "seconds": round(b - a, 1)}
                            for it, a, b, _ in tl.evals if W0 <= a < W1],
            "warm_host": f"{WARM}: inlet ~4 C warmer; GPU and HBM temperatures ~5-6 C above its peers all day, power a few W higher; no throttling, no effect on the job",
            "scrape_gap": f"{GAP_HOST}: node_exporter scrapes timed out 14:21:30-14:22:30 (up=0, scrape_duration_seconds=10, no node_* samples); node_exporter logged 'broken pipe' errors; dcgm-exporter and the job unaffected",
            "benign_lines": [
                {"line": PEERMEM, "where": "kernel, every host at 10:58:31 when job 51811 exited (before the window)",
                 "source": "https://github.com/leptonai/gpud/blob/4a8de33a3f02e207f39e9023d67125592d599731/pkg/kmsg/testdata/kmsg.2.peermem.log"},
                {"line": "TCP: request_sock_TCP: Possible SYN flooding on port 29500. Sending cookies.  Check SNMP counters.",
                 "where": "kernel, dgx-c01 at job start (torchrun c10d rendezvous)", "source": "standard Linux message, wording from net/ipv4/tcp_input.c"},
                {"line": CLOCKSRC, "where": "kernel, dgx-c12 13:26:55",
                 "source": "https://github.com/leptonai/gpud/blob/4a8de33a3f02e207f39e9023d67125592d599731/components/accelerator/nvidia/xid/testdata/dmesg-with-xid-119.log"},
                {"line": "perf: interrupt took too long (2509 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
                 "where": "kernel, dgx-c04 12:41:07",
                 "source": "https://github.com/leptonai/gpud/blob/4a8de33a3f02e207f39e9023d67125592d599731/pkg/kmsg/testdata/kmsg.1.log"},
                {"line": "hrtimer: interrupt took 5692433 ns", "where": "kernel, dgx-c22 14:58:12",
                 "source": "https://github.com/nfs-ganesha/nfs-ganesha/issues/1295"},
                {"line": NODEEXP_ERR.format(ts="<ts>", me="10.41.0.107", port="<port>"), "where": f"node_exporter on {GAP_HOST} during the scrape gap",
                 "source": "https://github.com/2i2c-org/infrastructure/pull/8160 (node_exporter 1.9 slog format; IPs adapted)"},
                {"line": "error: kex_exchange_identification: Connection closed by remote host", "where": "sshd, every host, twice (inventory port check)", "source": "OpenSSH sshd message"},
                {"line": "fwupd-refresh.service: Failed with result 'exit-code'.", "where": "systemd, every host (no internet access)", "source": "systemd unit failure messages on Ubuntu 22.04"},
                {"line": "Zarr-based strategies will not be registered because of missing packages", "where": "job output, every rank",
                 "source": "https://github.com/NVIDIA/Megatron-LM/issues/516"},
                {"line": "FutureWarning: `load_state_dict` is deprecated ... / Please use DTensor instead and we are deprecating ShardedTensor.",
                 "where": "job output, every rank at checkpoint load", "source": "https://github.com/NVIDIA/Megatron-LM/issues/1880"},
            ],
        },
        "what_a_good_postmortem_says": (
            "Nothing went wrong in this window: the job ran at its usual ~1.27M tokens/s and every dip lines up with "
            "a scheduled checkpoint (~every 42 min, ~55 s) or evaluation (~every 34 min, ~26 s), which pause all "
            "ranks together and recover at once. dgx-c19 runs a few degrees warmer than its peers all day without "
            "throttling, the one-minute node_exporter gap on dgx-c07 is a monitoring artefact, and the error/fail "
            "lines in the logs are known-benign; no host or GPU stands out, so no action is needed."),
        "generator": f"make_{ID}.py (seed {SEED})",
        "rows": {"dcgm-exporter.parquet": n_d, "node-exporter.parquet": n_n},
    }
    with open(os.path.join(OUT, "truth.yaml"), "w") as fh:
        yaml.safe_dump(truth, fh, sort_keys=False, width=120, allow_unicode=True)
    print("done", OUT)


if __name__ == "__main__":
    main()
