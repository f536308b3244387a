from datetime import timedelta

import numpy as np
import polars as pl
import yaml
from incidents import STEP, T0, samples, storage_story, write_incident

from incidentbook.investigation import investigate
from incidentbook.metrics.analysis import DEFAULT_CONFIG, detect_intervals, robust_scale
from incidentbook.metrics.signals import load_pack
from incidentbook.window import TimeWindow


def test_drops_are_found_where_they_were_planted_and_latency_ranks_first(tmp_path):
    root, planted = storage_story(tmp_path)
    analysis = investigate(root, signals=["throughput", "disk_read_latency", "load"]).analysis
    drops = [f for f in analysis.findings if f.kind == "drop" and f.signal == "throughput"]
    assert len(drops) == len(planted)
    for found, (a, b) in zip(drops, planted, strict=True):
        assert abs(found.start - (T0 + STEP * a)) <= STEP
        assert abs(found.end - (T0 + STEP * b)) <= STEP
        assert -0.65 < found.magnitude < -0.55  # planted: throughput x 0.4
    best = analysis.correlations[0]
    assert best.signal == "disk_read_latency"
    assert best.score == 1.0
    assert best.lag_seconds == -30.0  # the latency spike leads each drop by one sample
    assert "5 of 5" in best.explanation
    # the decoy's spikes fall at unrelated times: it ranks low, or not at all
    decoy = next((c for c in analysis.correlations if c.signal == "load"), None)
    assert decoy is None or decoy.score < 0.3
    spikes = [f for f in analysis.findings if f.kind == "spike" and f.signal == "disk_read_latency"]
    assert all(len(f.hosts) == 6 for f in spikes)


def test_detector_ignores_noise_and_follows_slow_drift():
    rng = np.random.default_rng(1)
    n = 2000
    drift = np.linspace(100, 160, n)  # a slow rise is not a spike
    values = drift + rng.normal(0, 1, n)
    values[1500:1510] += 40
    series = pl.DataFrame({"ts": [T0 + STEP * i for i in range(n)], "value": values}).with_columns(
        pl.col("ts").dt.cast_time_unit("us")
    )
    baseline = TimeWindow(start=T0, end=T0 + STEP * 300)
    found = detect_intervals(series, "both", baseline, DEFAULT_CONFIG)
    assert found.height == 1
    assert found.item(0, "start") == T0 + STEP * 1500
    assert found.item(0, "direction") == "up"


def test_robust_scale_is_floored_for_flat_series():
    assert robust_scale(np.full(100, 16.0), 16.0) == 0.16
    assert robust_scale(np.zeros(10), 0.0) == 1e-12


def _fleet(tmp_path, n_hosts=20, n=240):
    """A bring-up: two hosts never up, one lost mid-window, two with x4 links, one slow CPU."""
    frames = []
    for h in range(n_hosts):
        node = f"h{h:02d}"
        up = np.ones(n)
        if h in (0, 1):
            up[:] = 0
        if h == 2:
            up[120:] = 0
        frames.append(samples("up", up, node, job="node"))
        if h in (0, 1):
            continue
        for gpu in range(2):
            width = 4.0 if (h, gpu) in {(5, 1), (9, 0)} else 16.0
            frames.append(
                samples("DCGM_FI_DEV_PCIE_LINK_WIDTH", np.full(n, width), node, gpu=str(gpu))
            )
        hz = 2.0e9 if h == 7 else 3.5e9 + (h % 3) * 1e7
        frames.append(samples("node_cpu_scaling_frequency_hertz", np.full(n, hz), node, cpu="0"))
        flaps = np.cumsum(np.where(np.arange(n) % 20 == 0, 1.0, 0.0)) if h == 11 else np.zeros(n)
        frames.append(
            samples("node_infiniband_link_downed_total", flaps, node, device="mlx5_0", port="1")
        )
    return write_incident(tmp_path, frames, hours=2, primary="node_up", nodes=n_hosts)


def test_failure_rates_and_outlier_hosts(tmp_path):
    root = _fleet(tmp_path)
    signals = ["node_up", "pcie_link_width", "cpu_freq", "ib_port_errors"]
    findings = investigate(root, signals=signals).findings
    by = {(f.kind, f.signal, f.start == T0): f for f in findings}
    never = by[("failure_rate", "node_up", True)]
    assert never.hosts == ["h00", "h01"]
    assert never.value == 0.1
    lost = next(f for f in findings if f.kind == "failure_rate" and f.hosts == ["h02"])
    assert lost.start == T0 + STEP * 120
    assert by[("outlier_host", "pcie_link_width", True)].hosts == ["h05", "h09"]
    assert by[("outlier_host", "cpu_freq", True)].hosts == ["h07"]
    # Link-downs are events: counted per host, said as events, dated from the first.
    flaps = next(f for f in findings if f.kind == "events" and f.signal == "ib_port_errors")
    assert flaps.hosts == ["h11"]
    assert flaps.magnitude >= 10


def test_liveness_is_a_role_not_a_name(tmp_path):
    """Any signal of role liveness gives failure rates; `node_up` without it gives none."""
    root = _fleet(tmp_path)
    spec = yaml.safe_load((root / "incident.yaml").read_text())
    up = load_pack().get("node_up").model_dump(exclude={"name"}, exclude_none=True)
    spec["signals"] = {"hosts_alive": {**up, "label": "Hosts alive"}, "node_up": {"role": "cause"}}
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    inv = investigate(root, signals=["hosts_alive", "node_up", "pcie_link_width"])
    rates = {(f.signal, tuple(f.hosts)) for f in inv.findings if f.kind == "failure_rate"}
    assert rates == {("hosts_alive", ("h00", "h01")), ("hosts_alive", ("h02",))}
    assert inv.analysis.liveness == ("hosts_alive",)
    outliers = {f.signal for f in inv.findings if f.kind == "outlier_host"}
    assert "hosts_alive" not in outliers


def test_trend_and_level_shift(tmp_path):
    rng = np.random.default_rng(2)
    n = 720
    loader = np.linspace(0.05, 0.25, n) + rng.normal(0, 0.005, n)
    util = np.full(n, 95.0) + rng.normal(0, 0.5, n)
    util[400:] = 70 + rng.normal(0, 0.5, n - 400)
    root = write_incident(
        tmp_path,
        [
            samples("trainer_dataloader_seconds", loader),
            samples("trainer_tokens_per_second", np.full(n, 1000.0) + rng.normal(0, 5, n)),
            samples("DCGM_FI_DEV_GPU_UTIL", util, gpu="0"),
        ],
    )
    findings = investigate(
        root, signals=["throughput", "dataloader_time", "gpu_util"]
    ).analysis.findings
    trend = next(f for f in findings if f.kind == "trend" and f.signal == "dataloader_time")
    assert trend.value > 0.2
    shift = next(f for f in findings if f.kind == "level_shift" and f.signal == "gpu_util")
    assert abs(shift.start - (T0 + STEP * 400)) <= timedelta(minutes=5)
    assert -0.3 < shift.magnitude < -0.2


def test_rows_by_signal_are_each_signals_rows_in_order_sorted_or_not():
    """Each signal's part is exactly frame.filter(signal == name): slices of a frame sorted
    by signal (as the sources give it), partitions of one in any other order."""
    import polars as pl

    from incidentbook.metrics.analysis import rows_by_signal

    frame = pl.DataFrame(
        {
            "signal": ["a", "a", "b", "c", "c", "c"],
            "node": ["n1", "n2", "n1", "n3", "n1", "n2"],
            "value": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        }
    )
    for shuffled in (frame, frame.sample(fraction=1.0, shuffle=True, seed=3)):
        parts = rows_by_signal(shuffled)
        assert sorted(parts) == ["a", "b", "c"]
        for name, part in parts.items():
            assert part.equals(shuffled.filter(pl.col("signal") == name))
    assert rows_by_signal(frame.clear()) == {}


def test_a_step_time_stands_in_for_throughput_a_log_does_not_give(tmp_path):
    # A trainer whose log states a step time but no tokens/s (Keras, the vision toolkits):
    # the primary signal, throughput, has no data; the step time stands in for it, so a
    # slowdown is the verdict's symptom rather than "nothing to explain".
    rng = np.random.default_rng(3)
    step = 0.5 + rng.normal(0, 0.005, 720)
    step[400:460] *= 1.8  # 30 min at 1.8x the step time
    root = write_incident(tmp_path / "inc", [samples("trainer_step_time_seconds", step)])
    analysis = investigate(root).analysis
    assert analysis.primary == "step_time"
    assert "'step_time', which measures the same another way, stands in" in analysis.notes[0]
    assert "nothing to explain" not in analysis.diagnosis.verdict["summary"].lower()
    assert any(f.signal == "step_time" and f.kind == "spike" for f in analysis.findings)
    # with no stand-in's data either, the note says the primary has none
    root = write_incident(tmp_path / "bare", [samples("node_load1", 1 + rng.normal(0, 0.01, 720))])
    analysis = investigate(root).analysis
    assert analysis.primary == "throughput"
    assert analysis.notes[0] == "the primary signal 'throughput' has no data in the window"


def test_tokens_per_gpu_stand_in_before_a_step_time_a_larger_batch_lengthens(tmp_path):
    # A blind folder: torchtitan prints tokens/s per GPU only; the run was restarted with a
    # global batch half as large again, and each step took 48% longer at the same tokens/s
    # per GPU. The step time stood in for throughput and the change was taken for a loss.
    rng = np.random.default_rng(5)
    per_gpu = 6900 + rng.normal(0, 20, 720)
    per_gpu[400:] += 100
    step = 2.37 + rng.normal(0, 0.01, 720)
    step[400:] = 3.51 + rng.normal(0, 0.01, 320)
    root = write_incident(
        tmp_path / "inc",
        [
            samples("trainer_tokens_per_second_per_gpu", per_gpu),
            samples("trainer_step_time_seconds", step),
        ],
    )
    analysis = investigate(root).analysis
    assert analysis.primary == "throughput_per_gpu"
    assert "nothing to explain" in analysis.diagnosis.verdict["summary"].lower()


def test_a_primary_departure_is_reported_when_it_costs_the_least_loss_worth_reporting(tmp_path):
    """The primary signal's drops are findings when the work they lose is at least
    min_effect of the level held for the shortest departure the analysis is built to find
    (1% for 10 minutes: 6 seconds of work): a healthy job's pace wavers by a percent or so
    for a few minutes (a burst of slower all-reduces, in the noisy-day scenario), which
    loses less; a loss of a few percent for most of an hour, or a one-minute stall, is
    reported (and a 3% loss for 10 minutes: test_departures)."""
    rng = np.random.default_rng(7)
    n = 720  # six hours of 30 s samples
    pace = 10_000 + rng.normal(0, 20, n)
    pace[300:308] *= 0.985  # 1.5% for 4 minutes: 3.6 seconds of work lost
    pace[450:530] *= 0.96  # 4% for 40 minutes: 96 seconds lost
    pace[640:642] = 0.0  # stalled for a minute: 60 seconds lost
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", pace, job="train")])
    analysis = investigate(root, signals=["throughput"]).analysis
    drops = sorted(
        (f for f in analysis.findings if f.kind == "drop" and f.signal == "throughput"),
        key=lambda f: f.start,
    )
    starts = [round((f.start - T0) / STEP) for f in drops]
    assert all(abs(s - 300) > 2 for s in starts), starts
    assert any(abs(s - 450) <= 2 for s in starts), starts
    assert any(abs(s - 640) <= 2 for s in starts), starts


def _megatron_untimed(pause_at: int, pause_s: float, lines: int = 480) -> str:
    """Megatron's console as it was in 2023: a line every 10 iterations of 3 s and no time
    on it, so the lines are dated from the start line plus the elapsed times; the pause
    (a checkpoint) is inside the elapsed time of the line after it."""
    rng = np.random.default_rng(7)
    out = [f"[before the start of training step] datetime: {T0:%Y-%m-%d %H:%M:%S} "]
    for k in range(1, lines + 1):
        ms = 3000 + rng.normal(0, 10) + (pause_s * 100 if k == pause_at else 0)
        out.append(
            f" iteration {10 * k:8d}/  100000 | consumed samples: {5120 * k:12d} | "
            f"elapsed time per iteration (ms): {ms:.1f} | learning rate: 3.000E-04 | "
            "global batch size:   512 | lm loss: 2.000000E+00 | loss scale: 1.0 |"
        )
    return "\n".join(out) + "\n"


def test_a_logged_pause_is_dated_from_the_line_before_it_so_the_hardware_does_not_lead(tmp_path):
    # A blind incident folder's Megatron log: a checkpoint's 2 min pause shows in the line
    # after it, 2 min after the GPUs' power fell for it, and the verdict named GPU power as
    # the cause. A logged value is the mean since the line before, so the dip began after
    # that line: dated from there, power falls with the symptom, as waiting GPUs do.
    rng = np.random.default_rng(1)
    n = 480  # 30 s samples, four hours
    line_before = 239 * 30  # seconds from T0 of the line before the pause
    a, b = (line_before + 5 + 29) // 30, (line_before + 125) // 30 + 1
    frames = []
    for h in range(8):
        power = 600 + rng.normal(0, 3, n)
        tensor = 0.5 + rng.normal(0, 0.005, n)
        power[a:b], tensor[a:b] = 90, 0.0
        frames.append(samples("DCGM_FI_DEV_POWER_USAGE", power, f"h{h}", gpu="0"))
        frames.append(samples("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", tensor, f"h{h}", gpu="0"))
    root = write_incident(tmp_path / "inc", frames, hours=4, nodes=8)
    (root / "logs").mkdir()
    (root / "logs" / "train.log").write_text(_megatron_untimed(240, 120))
    diagnosis = investigate(root).analysis.diagnosis
    power = next(c for c in diagnosis.ranked if c.signal == "gpu_power")
    assert not power.cause_like and "activity fell with it" in power.why_effect
    assert diagnosis.verdict["cause"] is None
    # the symptom is dated from the line before the pause (09:59:30), not after it
    assert "from 2025-03-14 09:59 UTC" in diagnosis.verdict["summary"]


def test_a_run_that_hung_and_restarted_has_its_stop_for_symptom(tmp_path):
    # A blind incident folder: one GPU fell off the bus, every other rank blocked in its
    # all-reduce until the watchdog ended the job 10 min later, and the job resumed from
    # its checkpoint 15 min after that. The trainer logged nothing while it hung, so its
    # throughput had no sample to fall in, and the verdict was "Nothing to explain".
    rng = np.random.default_rng(2)
    lines = ["  seq_length ...................................... 4096"]
    at, it = T0, 0
    for k in range(300):
        if k == 150:
            at += timedelta(minutes=25)  # the hang, the abort and the requeue
            it -= 40  # back to the last checkpoint
        at += timedelta(seconds=30)
        it += 10
        ms = 3000 + rng.normal(0, 10)
        lines.append(
            f" [{at:%Y-%m-%d %H:%M:%S}] iteration {it:8d}/  100000 | consumed samples: "
            f"{512 * it:12d} | elapsed time per iteration (ms): {ms:.1f} | global batch "
            "size:   512 | lm loss: 2.000000E+00 | loss scale: 1.0 |"
        )
    power = [
        samples("DCGM_FI_DEV_POWER_USAGE", 600 + rng.normal(0, 3, 720), f"h{h}", gpu="0")
        for h in range(4)
    ]
    root = write_incident(tmp_path / "inc", power, hours=3, nodes=4)
    (root / "logs").mkdir()
    (root / "logs" / "train.log").write_text("\n".join(lines) + "\n")
    analysis = investigate(root).analysis
    assert any(f.kind == "restart" for f in analysis.findings)
    summary = analysis.diagnosis.verdict["summary"]
    assert not summary.startswith("Nothing to explain"), summary
    assert "fell 100% from 2025-03-14 09:15 UTC for 26 min" in summary, summary


def test_a_climb_back_to_no_more_than_normal_is_not_a_rise(tmp_path):
    # Two blind folders: the job stopped for maintenance (GPUs idle at 30 °C) and went on
    # slower, so its GPUs ran cooler than before (56 °C against 60 °C). The climb from
    # idle was found as "GPU temperature rose" and named the cause of the slowdown.
    rng = np.random.default_rng(4)
    n = 720  # six hours at 30 s
    temp = np.full(n, 60.0) + rng.normal(0, 0.4, n)
    temp[300:360] = 30 + rng.normal(0, 0.4, 60)  # the stop: idle
    temp[360:] = 56 + rng.normal(0, 0.4, n - 360)  # on again, cooler
    hot = temp.copy()
    hot[500:560] = 68 + rng.normal(0, 0.4, 60)  # a real rise, above the baseline's level
    for series, rises in ((temp, 0), (hot, 1)):
        root = write_incident(
            tmp_path / str(rises),
            [
                samples("trainer_tokens_per_second", np.full(n, 1000.0) + rng.normal(0, 5, n)),
                samples("DCGM_FI_DEV_GPU_TEMP", series, gpu="0"),
            ],
        )
        found = investigate(root, signals=["throughput", "gpu_temp"]).analysis.findings
        ups = [f for f in found if f.signal == "gpu_temp" and f.kind == "spike"]
        assert len(ups) == rises, [f.summary for f in ups]
        assert all(f.value > 60 for f in ups)


def test_a_fall_back_to_within_a_hair_of_normal_is_not_a_drop(tmp_path):
    # A blind folder: between two runs the hosts' memory was freed (19% more available);
    # the new run took it again, ending 0.02% below the baseline's level, and that "drop"
    # was named the cause of the run's slowdown. A move that ends within the least change
    # worth a finding of the baseline's level is a return to normal.
    rng = np.random.default_rng(5)
    n = 720  # six hours at 30 s
    level = 1.6e12
    mem = np.full(n, level) + rng.normal(0, 2e8, n)
    mem[300:385] += 0.19 * level  # the gap between the runs
    deeper = mem.copy()
    mem[385:] -= 0.0002 * level  # back, a hair below where it was
    deeper[385:] -= 0.05 * level  # back, and 5% below: a drop
    for series, drops in ((mem, 0), (deeper, 1)):
        root = write_incident(
            tmp_path / str(drops),
            [
                samples("trainer_tokens_per_second", np.full(n, 1000.0) + rng.normal(0, 5, n)),
                samples("node_memory_MemAvailable_bytes", series),
            ],
        )
        found = investigate(root, signals=["throughput", "mem_available"]).analysis.findings
        falls = [f for f in found if f.signal == "mem_available" and f.kind in ("drop",)]
        assert len(falls) == drops, [f.summary for f in falls]


def _job_slower(rng, n: int, start: int, end: int, by: float) -> pl.DataFrame:
    """The job's tokens/s, `n` samples at 30 s, `by` lower over [start, end)."""
    tokens = 1000 + rng.normal(0, 4, n)
    tokens[start:end] *= 1 - by
    return samples("trainer_tokens_per_second", tokens)


def _verdict_of(tmp_path, frames: list[pl.DataFrame]) -> dict:
    root = write_incident(tmp_path / "inc", frames, nodes=8)
    return investigate(root).analysis.diagnosis.verdict


def test_a_device_that_retrained_narrower_on_one_host_is_named(tmp_path):
    # A blind folder: one host's HCA link retrained from x16 to x8 after corrected PCIe
    # errors; node_exporter's pcidevice collector reported it, and the verdict could not
    # decide (no GPU link moved). Every device's lanes, summed per host, show it.
    rng = np.random.default_rng(8)
    n, at = 720, 400  # six hours at 30 s; the link retrains at sample 400
    frames = [_job_slower(rng, n, at, n, 0.04)]
    for h in range(8):
        for bus, width in (("17", 16.0), ("8a", 16.0), ("c3", 4.0)):
            lanes = np.full(n, width)
            if h == 3 and bus == "8a":
                lanes[at:] = 8.0
            frames.append(
                samples("node_pcidevice_current_link_width", lanes, f"h{h}", bus=bus, device="00")
            )
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "pcie_lanes" and verdict["hosts"] == ["h3"], verdict["summary"]


def test_a_port_that_came_back_at_a_tenth_of_its_speed_on_one_host_is_named(tmp_path):
    # A blind folder: after a switch-port reset one host's front-end NIC (the data
    # loaders' path to object storage) came back at 10 Gb/s instead of 100; the job ran 8%
    # slower and the verdict could not decide. node_exporter's negotiated speed of every
    # interface, summed per host, shows it.
    rng = np.random.default_rng(10)
    n, at = 720, 400
    frames = [_job_slower(rng, n, at, n, 0.08)]
    for h in range(8):
        for device, speed in (("eno1", 125e6), ("p3p2", 12.5e9)):
            got = np.full(n, speed)
            if h == 6 and device == "p3p2":
                got[at:] = 1.25e9
            frames.append(samples("node_network_speed_bytes", got, f"h{h}", device=device))
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "nic_speed" and verdict["hosts"] == ["h6"], verdict["summary"]


def test_a_host_whose_nvlink_fell_silent_while_its_gpus_worked_is_named(tmp_path):
    # A blind folder: Fabric Manager failed on one host after a driver update, its GPUs
    # lost NVLink and NCCL went over shared memory; the job ran 13% slower and memory
    # available (0.02% lower) was named. DCGM's NVLink counter stopped rising there.
    rng = np.random.default_rng(9)
    n, at = 720, 400
    frames = [_job_slower(rng, n, at, n, 0.13)]
    for h in range(8):
        rate = np.full(n, 4.0e6) * (1 + rng.normal(0, 0.02, n))
        if h == 5:
            rate[at:] = 0.0
        for gpu in ("0", "1"):
            frames.append(
                samples(
                    "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", np.cumsum(rate * 30), f"h{h}", gpu=gpu
                )
            )
            frames.append(
                samples("DCGM_FI_DEV_GPU_UTIL", 97 + rng.normal(0, 1, n), f"h{h}", gpu=gpu)
            )
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "nvlink_traffic" and verdict["hosts"] == ["h5"], verdict["summary"]


def test_an_nfs_server_slowing_is_named_by_its_clients_operation_latency(tmp_path):
    # A blind folder: the checkpoints' NFS server degraded and the checkpoint pauses grew
    # from 1 to 5 min; load average was named (no NFS signal). node_exporter's mountstats
    # counters give each client's time per operation.
    rng = np.random.default_rng(10)
    n, at = 720, 400
    frames = [_job_slower(rng, n, at, n, 0.15)]
    for h in range(8):
        for op in ("WRITE", "GETATTR"):
            ops = np.full(n, 200.0 * 30)  # operations per scrape
            seconds = ops * 0.002 * (1 + rng.normal(0, 0.03, n))
            seconds[at:] *= 12  # 2 ms -> 24 ms per operation
            labels = {"export": "nfs01:/ckpt", "mountpoint": "/ckpt", "operation": op}
            frames.append(
                samples(
                    "node_mountstats_nfs_operations_requests_total",
                    np.cumsum(ops),
                    f"h{h}",
                    **labels,
                )
            )
            frames.append(
                samples(
                    "node_mountstats_nfs_operations_request_time_seconds_total",
                    np.cumsum(seconds),
                    f"h{h}",
                    **labels,
                )
            )
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "nfs_latency" and verdict["hosts"] == [], verdict["summary"]


def test_the_gpu_that_keeps_its_memory_busy_while_its_peers_wait_is_named(tmp_path):
    # A blind folder: another user's process on one GPU for an hour. That GPU's memory
    # bandwidth activity rose (two processes' traffic) while the other GPUs', waiting for
    # it, fell; nothing else of the pack moved on its host.
    rng = np.random.default_rng(11)
    n, a, b = 720, 400, 520
    frames = [_job_slower(rng, n, a, b, 0.07)]
    for h in range(8):
        for gpu in ("0", "1", "2"):
            dram = 0.35 + rng.normal(0, 0.01, n)
            dram[a:b] += 0.1 if (h, gpu) == (2, "1") else -0.02
            frames.append(samples("DCGM_FI_PROF_DRAM_ACTIVE", dram, f"h{h}", gpu=gpu))
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "dram_active" and verdict["hosts"] == ["h2"], verdict["summary"]
    assert verdict["gpus"] == ["h2/1"]


def test_a_roce_nic_sending_pause_frames_is_named(tmp_path):
    # A blind folder: one host's RoCE NIC paused the switch continuously (a pause storm),
    # backing up every host's RDMA traffic; nothing of the pack moved on that host alone.
    # node_exporter's ethtool collector counts the pause frames each port sent.
    rng = np.random.default_rng(12)
    n, a, b = 720, 400, 520
    frames = [_job_slower(rng, n, a, b, 0.14)]
    for h in range(8):
        rate = 100 * (1 + rng.normal(0, 0.3, n)).clip(0)
        if h == 4:
            rate[a:b] = 24000
        frames.append(
            samples(
                "node_ethtool_transmitted_pause_ctrl_phy",
                np.cumsum(rate * 30),
                f"h{h}",
                device="eth0",
            )
        )
    verdict = _verdict_of(tmp_path, frames)
    assert verdict["cause"] == "pause_frames_sent" and verdict["hosts"] == ["h4"], verdict[
        "summary"
    ]
