"""A synchronous training job on a GPU cluster, and faults injected into it.

The library's two cases are simulated by hand (synth.py); every other kind of incident is
simulated here from one model of how a data-parallel job runs, so that a fault on one host
or one GPU reaches the whole job the way it does on a real cluster:

* Every step each GPU computes for `compute_s / speed` seconds, where `speed` is its clock
  factor (thermal or power limits bring it down) times any silent slowness of the chip;
  a host whose dataloader cannot keep up (slow CPUs, killed workers) makes its GPUs wait
  for data. Then all GPUs meet in the gradient all-reduce, whose time depends on the
  network (congestion, a flapping port, NVLink retries). The step takes as long as the
  slowest GPU plus the all-reduce: one slow rank slows everyone.
* The exporters then see what that implies: the GPUs that wait at the all-reduce spin in
  NCCL kernels (utilisation stays near 100%, tensor activity and power fall); the slowest
  GPU never waits (its tensor activity is the highest); GPUs waiting for data run no
  kernels at all (utilisation falls). Power follows activity and the clock, temperature
  follows power through each GPU's thermal resistance, and a GPU above its slowdown
  temperature is clocked down until it cools: heat becomes lost throughput.
* Checkpoints, crashes and restarts stall the whole job; nothing moves while they last.

Faults are small objects that change the model's inputs (a host's cooling, a GPU's speed,
a port's health) from their onset and add the log lines a real host would print. A
scenario is a cluster, a few faults and the truth to score an analysis against.

Everything is drawn from one numpy generator seeded by the scenario's seed: the same
(scenario, scale, seed) gives byte-identical folders.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from incidentbook.scenarios.simulator import Block, Grid, KernLog, _counter

IDLE_CLOCK_MHZ = 345.0
BOOST_CLOCK_MHZ = 1980.0
MEM_CLOCK_MHZ = 2619.0
NDR_RATE = 400e9 / 8  # an NDR InfiniBand port's rate in bytes per second (4 lanes)
SLOWDOWN_C = 87.0  # where an H100's firmware starts clocking down to protect itself
P_IDLE, P_MAX = 70.0, 700.0  # W: an H100 SXM idling, and its default power limit
GPU_BUSES = (0x18, 0x2A, 0x3A, 0x5D, 0x9A, 0xAB, 0xBA, 0xDB)

# NVML's clock-event (throttle) reason bits, as DCGM reports them.
REASON_IDLE, REASON_SW_POWER, REASON_HW_SLOWDOWN = 0x1, 0x4, 0x8
REASON_SW_THERMAL, REASON_HW_THERMAL = 0x20, 0x40


def gpu_pci(g: int) -> str:
    return f"0000:{GPU_BUSES[g % 8]:02x}:00.0"


def nvrm_pci(g: int) -> str:
    """The GPU's address as NVRM prints it in Xid lines (no function)."""
    return gpu_pci(g)[:-2]


def hca_pci(g: int) -> str:
    return f"0000:{GPU_BUSES[g % 8] + 3:02x}:00.0"


@dataclass(frozen=True)
class Job:
    """The training job's shape: how long a step computes, communicates and loads data."""

    compute_s: float = 0.80
    comm_s: float = 0.22
    dataloader_s: float = 0.55  # hidden behind compute while it is below `prefetch` of it
    prefetch: float = 0.9
    tokens_per_step: int = 512 * 4096  # global batch of 512 sequences of 4,096 tokens
    seq_length: int = 4096
    parameters: float = 7e9
    tensor_share: float = 0.62  # tensor-pipe activity while computing


@dataclass
class State:
    """The model's inputs over time, (host, time) or (gpu, time); faults edit them."""

    hosts: int
    gpus_per_host: int
    n: int
    cooling: np.ndarray  # (gpu, t) thermal resistance multiplier: 1 healthy, >1 worse
    ambient: np.ndarray  # (host, t) inlet air, degrees C
    power_limit: np.ndarray  # (gpu, t) W
    slowness: np.ndarray  # (gpu, t) silent chip slowness: compute takes 1/x longer
    pcie_width: np.ndarray  # (gpu, t) trained lanes
    dataloader: np.ndarray  # (host, t) multiplier of the dataloader's time per step
    comm: np.ndarray  # (t,) multiplier of the all-reduce's time (fabric-wide)
    host_comm: np.ndarray  # (host, t) multiplier of the all-reduce's time due to one host
    stall: np.ndarray  # (t,) fraction of each interval the whole job makes no progress
    down: np.ndarray  # (t,) the job is not running (crashed, restarting): GPUs idle
    hang: np.ndarray  # (t,) the job hangs in a collective: GPUs spin in NCCL, no progress
    cpu_freq: np.ndarray  # (host, t) Hz
    mem_used: np.ndarray  # (host, t) bytes used by the job's processes beyond the usual
    fs_write_ms: np.ndarray  # (t,) shared filesystem write latency, ms
    fs_write_load: np.ndarray  # (t,) checkpoint bytes written per second per host
    xmit_wait: np.ndarray  # (host, t) multiplier of IB transmit-wait ticks (congestion)

    @property
    def gpus(self) -> int:
        return self.hosts * self.gpus_per_host


@dataclass
class Cluster:
    """What the scenario simulates: the hosts, the job, and where its logs go."""

    name: str
    hosts: list[str]
    grid: Grid
    job: Job = field(default_factory=Job)
    gpus_per_host: int = 8
    baseline_s: int = 3600

    def host_of(self, gpu: int) -> int:
        return gpu // self.gpus_per_host


class Fault:
    """Something that goes wrong: edits the model's inputs, adds log lines, says the truth."""

    def apply(self, state: State, cluster: Cluster, rng: np.random.Generator) -> None:
        """Change the inputs before the job is simulated."""

    def logs(self, run: Run, logs: Logs, rng: np.random.Generator) -> None:
        """Add the lines hosts and the trainer print, once the run is known."""

    def counters(self, run: Run, metrics: Metrics, rng: np.random.Generator) -> None:
        """Change the exporters' counters that the run does not imply (error counters)."""


@dataclass
class Run:
    """The simulated job: per-sample outcomes that the exporters then observe."""

    cluster: Cluster
    state: State
    step_time: np.ndarray  # (t,) seconds per step while running
    throughput: np.ndarray  # (t,) tokens/s of the whole job (0 while stalled or down)
    compute: np.ndarray  # (gpu, t) seconds of compute per step
    wait_data: np.ndarray  # (host, t) seconds per step the GPUs wait for data
    clock: np.ndarray  # (gpu, t) clock factor 0..1
    power: np.ndarray  # (gpu, t) W
    temp: np.ndarray  # (gpu, t) degrees C
    reasons: np.ndarray  # (gpu, t) clock-event reason bits
    thermal_ns: np.ndarray  # (gpu, t) ns of thermal throttling in each interval
    power_ns: np.ndarray  # (gpu, t) ns of power throttling in each interval
    steps: np.ndarray  # (t,) iterations completed by each sample


def new_state(cluster: Cluster, rng: np.random.Generator) -> State:
    h, g, n = len(cluster.hosts), cluster.gpus_per_host, cluster.grid.n
    return State(
        hosts=h,
        gpus_per_host=g,
        n=n,
        cooling=np.ones((h * g, n)),
        ambient=np.repeat(rng.uniform(22.0, 26.0, (h, 1)), n, axis=1),
        power_limit=np.full((h * g, n), P_MAX),
        slowness=np.ones((h * g, n)),
        pcie_width=np.full((h * g, n), 16.0),
        dataloader=np.ones((h, n)),
        comm=np.ones(n),
        host_comm=np.ones((h, n)),
        stall=np.zeros(n),
        down=np.zeros(n, dtype=bool),
        hang=np.zeros(n, dtype=bool),
        cpu_freq=np.repeat(rng.uniform(3.3e9, 3.6e9, (h, 1)), n, axis=1),
        mem_used=np.zeros((h, n)),
        fs_write_ms=np.full(n, 1.5),
        fs_write_load=np.zeros(n),
        xmit_wait=np.ones((h, n)),
    )


def simulate(cluster: Cluster, state: State, rng: np.random.Generator) -> Run:
    """Step the job through the window; the thermal loop is the only state carried over."""
    job, grid = cluster.job, cluster.grid
    n, gph = grid.n, cluster.gpus_per_host
    ng = state.gpus
    host = np.repeat(np.arange(state.hosts), gph)
    # Each GPU's own thermal resistance (C/W) and a little per-sample noise on the job.
    r_th = rng.uniform(0.062, 0.072, ng)
    # Ranks do not all carry the same work (pipeline stages, embeddings): a little spread.
    work = 1 + rng.normal(0, 0.004, ng)
    jitter = 1 + rng.normal(0, 0.004, n)
    alpha = 1 - np.exp(-grid.interval / 90.0)  # heat sinks settle in about a minute and a half
    temp_now = state.ambient[host, 0] + r_th * (P_IDLE + 0.6 * (P_MAX - P_IDLE))
    thermal_cf = np.ones(ng)
    out = {k: np.zeros((ng, n)) for k in ("compute", "clock", "power", "temp", "reasons")}
    out |= {k: np.zeros((ng, n)) for k in ("thermal_ns", "power_ns")}
    step_time, wait_data = np.zeros(n), np.zeros((state.hosts, n))
    for i in range(n):
        # PCIe downtraining slows each step's host<->device traffic a little.
        pcie = 1 - 0.08 * np.log2(16 / np.clip(state.pcie_width[:, i], 1, 16)) / 2
        cf = thermal_cf.copy()
        # Power limit: dynamic power grows about with the square of the clock.
        for _ in range(2):
            compute = job.compute_s * work / (cf * state.slowness[:, i] * pcie)
            wait = np.maximum(
                0,
                job.dataloader_s * state.dataloader[:, i] * 3.45e9 / state.cpu_freq[:, i]
                - job.prefetch * job.compute_s,
            )
            comm = job.comm_s * state.comm[i] * state.host_comm[:, i].max()
            t_step = (compute + wait[host]).max() + comm
            active = (compute / t_step) * job.tensor_share / 0.62
            demand = P_IDLE + (P_MAX - P_IDLE) * (0.80 * active + 0.12) * cf**2
            limit = state.power_limit[:, i]
            capped = demand > limit
            allowed = np.sqrt(
                np.clip((limit - P_IDLE) / ((P_MAX - P_IDLE) * (0.80 * active + 0.12)), 0.05, 1)
            )
            cf = np.where(capped, np.minimum(cf, allowed), cf)
        running = not state.down[i]
        busy = (1 - state.stall[i]) if running else 0.0
        if state.hang[i] and running:
            # Spinning in a stuck collective: no math, a fraction of the power.
            active = np.zeros(ng)
        demand = P_IDLE + (P_MAX - P_IDLE) * (0.80 * active + 0.12) * cf**2
        power = P_IDLE + (np.minimum(demand, limit) - P_IDLE) * busy
        target = state.ambient[host, i] + r_th * state.cooling[:, i] * power
        temp_now = temp_now + alpha * (target - temp_now)
        # The firmware clocks down while the GPU is above its slowdown temperature.
        hot = temp_now > SLOWDOWN_C
        thermal_cf = np.where(
            hot, np.maximum(0.45, thermal_cf - 0.015 * (temp_now - SLOWDOWN_C)), thermal_cf
        )
        thermal_cf = np.where(
            ~hot & (temp_now < SLOWDOWN_C - 2), np.minimum(1, thermal_cf + 0.02), thermal_cf
        )
        reasons = np.where(capped & (busy > 0), REASON_SW_POWER, 0)
        reasons |= np.where(
            (thermal_cf < 0.999) & (busy > 0), REASON_SW_THERMAL | REASON_HW_THERMAL, 0
        )
        reasons = np.where(busy == 0, REASON_IDLE, reasons)
        step_time[i] = t_step * jitter[i]
        wait_data[:, i] = wait
        out["compute"][:, i] = compute
        out["clock"][:, i] = cf
        out["power"][:, i] = power
        out["temp"][:, i] = temp_now
        out["reasons"][:, i] = reasons
        ns = grid.interval * 1e9 * busy
        out["thermal_ns"][:, i] = np.where(thermal_cf < 0.999, ns, 0)
        out["power_ns"][:, i] = np.where(capped, ns, 0)
    running = (~state.down & ~state.hang).astype(float) * (1 - state.stall)
    throughput = job.tokens_per_step / step_time * running
    steps = np.cumsum(grid.interval / step_time * running)
    return Run(
        cluster=cluster,
        state=state,
        step_time=step_time,
        throughput=throughput,
        compute=out["compute"],
        wait_data=wait_data,
        clock=out["clock"],
        power=out["power"],
        temp=out["temp"],
        reasons=out["reasons"].astype(np.int64),
        thermal_ns=out["thermal_ns"],
        power_ns=out["power_ns"],
        steps=steps,
    )


# --- what the exporters see ---------------------------------------------------------------


@dataclass
class Metrics:
    """The exporters' series of one run, by file, editable by faults before writing."""

    files: dict[str, list[Block]] = field(default_factory=dict)

    def block(self, metric: str) -> Block:
        for blocks in self.files.values():
            for b in blocks:
                if b.metric == metric:
                    return b
        raise KeyError(metric)


def observe(run: Run, rng: np.random.Generator) -> Metrics:
    """dcgm-exporter, node_exporter and the trainer's gauges for one run."""
    c, s = run.cluster, run.state
    grid, n, gph = c.grid, c.grid.n, c.gpus_per_host
    ng, nh = s.gpus, s.hosts
    host = np.repeat(np.arange(nh), gph)
    busy = ((~s.down).astype(float) * (1 - s.stall))[None, :]  # kernels on the GPUs
    running = busy * (~s.hang)[None, :]  # and the job making progress
    t_step = run.step_time[None, :]
    wait = run.wait_data[host]
    gpus = [{"node": c.hosts[h], "gpu": str(g)} for h in range(nh) for g in range(gph)]

    def noisy(x: np.ndarray, sd: float) -> np.ndarray:
        return x + rng.normal(0, sd, x.shape)

    # NCCL kernels spin while a GPU waits at the all-reduce: only waiting for data (no
    # kernel at all) or a stalled job lowers utilisation.
    util = np.clip(np.rint(noisy(100 * (1 - wait / t_step) * busy, 0.8)), 0, 100)
    tensor = np.clip(noisy(c.job.tensor_share * run.compute / t_step * running, 0.004), 0, 1)
    sm_active = np.clip(noisy(0.97 * (1 - wait / t_step) * busy, 0.005), 0, 1)
    idle = busy < 0.5
    clock = np.where(idle, IDLE_CLOCK_MHZ, BOOST_CLOCK_MHZ * run.clock)
    clock = np.rint(noisy(clock, 4.0) / 15) * 15  # reported in 15 MHz steps
    power = np.round(noisy(run.power, 6.0), 3)
    temp = np.rint(noisy(run.temp, 0.4))
    mem_temp = np.rint(noisy(run.temp + 6, 0.5))
    ecc_sbe0 = rng.integers(0, 3, ng).astype(float)
    zeros = np.zeros((ng, n))
    dcgm = [
        Block("DCGM_FI_DEV_GPU_UTIL", gpus, util),
        Block("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", gpus, np.round(tensor, 4)),
        Block("DCGM_FI_PROF_SM_ACTIVE", gpus, np.round(sm_active, 4)),
        Block("DCGM_FI_DEV_SM_CLOCK", gpus, clock),
        Block("DCGM_FI_DEV_MEM_CLOCK", gpus, np.full((ng, n), MEM_CLOCK_MHZ)),
        Block("DCGM_FI_DEV_POWER_USAGE", gpus, power),
        Block("DCGM_FI_DEV_GPU_TEMP", gpus, temp),
        Block("DCGM_FI_DEV_MEMORY_TEMP", gpus, mem_temp),
        Block("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", gpus, run.reasons.astype(float)),
        Block("DCGM_FI_DEV_THERMAL_VIOLATION", gpus, np.cumsum(run.thermal_ns, axis=1)),
        Block("DCGM_FI_DEV_POWER_VIOLATION", gpus, np.cumsum(run.power_ns, axis=1)),
        Block("DCGM_FI_DEV_XID_ERRORS", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", gpus, np.repeat(ecc_sbe0[:, None], n, axis=1)),
        Block("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_ROW_REMAP_FAILURE", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", gpus, zeros.copy()),
        Block("DCGM_FI_DEV_PCIE_LINK_WIDTH", gpus, s.pcie_width.copy()),
        Block("DCGM_FI_DEV_PCIE_LINK_GEN", gpus, np.full((ng, n), 5.0)),
    ]

    nodes = [{"node": h} for h in c.hosts]
    cpus = [{"node": h, "cpu": str(k)} for h in c.hosts for k in range(4)]
    freq = np.repeat(s.cpu_freq, 4, axis=0)
    freq = np.rint(noisy(freq, 2.5e7) / 1e6) * 1e6
    # CPU seconds per mode: the dataloader's workers and the job's launcher keep cores busy;
    # time lost waiting on I/O shows as iowait.
    dt = grid.interval
    io_share = np.clip(0.002 + 0.3 * np.repeat(s.fs_write_load[None, :] > 0, nh, axis=0), 0, 1)
    modes = {"user": 0.35, "system": 0.05, "iowait": None, "steal": 0.0, "idle": None}
    cpu_blocks = []
    for mode, share in modes.items():
        if mode == "iowait":
            inc = np.repeat(io_share, 4, axis=0) * dt
        elif mode == "idle":
            inc = np.clip(1 - 0.40 - np.repeat(io_share, 4, axis=0), 0, 1) * dt
        else:
            inc = np.full((nh * 4, n), share * dt)
        inc = np.clip(noisy(inc, 0.01 * dt), 0, None)
        start = rng.uniform(1e5, 1e6, nh * 4)
        cpu_blocks.append(
            Block(
                "node_cpu_seconds_total",
                [{**x, "mode": mode} for x in cpus],
                np.round(_counter(start, inc), 2),
            )
        )
    mem_total = 2.0 * 2**40
    avail = mem_total - 1.7 * 2**40 - s.mem_used  # the job holds most of the host
    avail = np.clip(noisy(avail, 2e8), 1e9, None)
    # Memory pressure stalls grow sharply once little memory is left (reclaim, swap-less).
    short = np.clip(1 - avail / (0.05 * mem_total), 0, 1)
    psi_inc = dt * short**2 * 0.6
    disk_dev = [{"node": h, "device": d} for h in c.hosts for d in ("nvme0n1", "weka0")]
    reads = rng.poisson(200 * dt, (2 * nh, n)).astype(float)
    writes = rng.poisson(60 * dt, (2 * nh, n)).astype(float)
    ckpt_writes = np.repeat(s.fs_write_load[None, :] / 2**20 * dt, nh, axis=0)
    writes[1::2] += ckpt_writes  # one write a MiB of checkpoint, on the shared filesystem
    write_ms = np.vstack([np.full(n, 0.05), s.fs_write_ms])[np.tile([0, 1], nh)]
    write_ms = np.clip(write_ms * rng.lognormal(0, 0.1, write_ms.shape), 0.01, None)
    read_ms = rng.uniform(0.2, 0.5, (2 * nh, 1)) * rng.lognormal(0, 0.1, (2 * nh, n))
    io_busy = np.clip((reads * read_ms + writes * write_ms) / 1e3 / dt, 0, 1) * dt
    ib_ports = [{"node": h, "device": f"mlx5_{g}", "port": "1"} for h in c.hosts for g in range(8)]
    port_host = np.repeat(np.arange(nh), 8)
    # Each step moves the same gradient bytes; slower steps move them less often.
    per_step = 2.0e9
    ib_bytes = np.repeat(per_step * dt / t_step * running, 8 * nh, axis=0)
    ib_bytes = ib_bytes * rng.uniform(0.98, 1.02, (8 * nh, n))
    wait_ticks = rng.poisson(2e4 * dt, (8 * nh, n)) * s.xmit_wait[port_host]
    node = [
        *cpu_blocks,
        Block("node_cpu_scaling_frequency_hertz", cpus, freq),
        Block("node_load1", nodes, np.round(noisy(np.full((nh, n), 24.0), 1.5), 2)),
        Block("node_memory_MemTotal_bytes", nodes, np.full((nh, n), mem_total)),
        Block("node_memory_MemAvailable_bytes", nodes, np.floor(avail / 4096) * 4096),
        Block("node_pressure_memory_waiting_seconds_total", nodes, _counter(np.zeros(nh), psi_inc)),
        Block("node_vmstat_oom_kill", nodes, np.zeros((nh, n))),
        Block(
            "node_disk_reads_completed_total",
            disk_dev,
            _counter(rng.uniform(1e6, 1e7, 2 * nh), reads),
        ),
        Block(
            "node_disk_read_time_seconds_total",
            disk_dev,
            _counter(rng.uniform(1e3, 1e4, 2 * nh), reads * read_ms / 1e3),
        ),
        Block(
            "node_disk_writes_completed_total",
            disk_dev,
            _counter(rng.uniform(1e6, 1e7, 2 * nh), writes),
        ),
        Block(
            "node_disk_write_time_seconds_total",
            disk_dev,
            _counter(rng.uniform(1e3, 1e4, 2 * nh), writes * write_ms / 1e3),
        ),
        Block(
            "node_disk_io_time_seconds_total",
            disk_dev,
            _counter(rng.uniform(1e3, 1e4, 2 * nh), io_busy),
        ),
        Block(
            "node_filesystem_size_bytes",
            [{"node": h, "mountpoint": "/fsx", "fstype": "wekafs"} for h in c.hosts],
            np.full((nh, n), 500.0 * 2**40),
        ),
        Block(
            "node_filesystem_avail_bytes",
            [{"node": h, "mountpoint": "/fsx", "fstype": "wekafs"} for h in c.hosts],
            np.repeat((500.0 * 2**40 * (0.40 - 0.0005 * np.arange(n) / n))[None, :], nh, axis=0),
        ),
        Block(
            "node_infiniband_port_data_transmitted_bytes_total",
            ib_ports,
            _counter(rng.uniform(1e12, 1e13, 8 * nh), ib_bytes),
        ),
        Block(
            "node_infiniband_port_data_received_bytes_total",
            ib_ports,
            _counter(rng.uniform(1e12, 1e13, 8 * nh), ib_bytes),
        ),
        Block(
            "node_infiniband_port_transmit_wait_total",
            ib_ports,
            _counter(rng.uniform(1e8, 1e9, 8 * nh), wait_ticks),
        ),
        Block(
            "node_infiniband_link_downed_total",
            ib_ports,
            np.repeat(rng.integers(0, 2, (8 * nh, 1)).astype(float), n, axis=1),
        ),
        Block("node_infiniband_symbol_error_total", ib_ports, np.zeros((8 * nh, n))),
        Block("node_infiniband_port_errors_received_total", ib_ports, np.zeros((8 * nh, n))),
        Block("node_infiniband_state_id", ib_ports, np.full((8 * nh, n), 4.0)),
        # NDR: 400 Gb/s, 4 lanes of 100 Gb/s, in bytes per second as node_exporter gives it
        Block("node_infiniband_rate_bytes_per_second", ib_ports, np.full((8 * nh, n), NDR_RATE)),
        Block(
            "node_network_up", [{"node": h, "device": "eth0"} for h in c.hosts], np.ones((nh, n))
        ),
        Block(
            "node_boot_time_seconds",
            nodes,
            np.repeat(
                (grid.start.timestamp() - rng.uniform(3, 30, (nh, 1)) * 86400).round(), n, axis=1
            ),
        ),
        Block("up", [{"node": h, "job": "node"} for h in c.hosts], np.ones((nh, n))),
    ]
    # The trainer reports on its first rank only, as most trainers' loggers do.
    rank0 = [{"node": c.hosts[0], "job": c.name}]
    per_gpu_tps = run.throughput / ng
    tps = np.round(noisy(per_gpu_tps, 0.0) * (1 + rng.normal(0, 0.003, n)), 1)
    step = np.where(running[0] > 0, run.step_time, np.nan)
    trainer = [
        Block("trainer_tokens_per_second", rank0, tps[None, :]),
        Block("trainer_step_time_seconds", rank0, np.round(step, 4)[None, :]),
        Block(
            "trainer_dataloader_seconds",  # rank 0's own wait: other hosts' is unseen here
            rank0,
            np.round(np.where(running[0] > 0, 0.01 + run.wait_data[0], np.nan), 4)[None, :],
        ),
    ]
    return Metrics({"dcgm.parquet": dcgm, "node.parquet": node, "trainer.parquet": trainer})


def bump_counter(
    block: Block, row: int, t: np.ndarray, at: np.ndarray | list, by: float = 1.0
) -> None:
    """Add `by` to a cumulative counter's series from each time in `at` (seconds) on."""
    values = block.values
    for a in np.atleast_1d(at):
        values[row, t >= a] += by


def set_gauge(block: Block, row: int, t: np.ndarray, at: float, value: float) -> None:
    block.values[row, t >= at] = value


# --- logs -----------------------------------------------------------------------------------


class Logs:
    """Kernel logs per host and the trainer's stdout, collected then written sorted."""

    def __init__(self, cluster: Cluster, rng: np.random.Generator, noise: float):
        self.cluster = cluster
        self.kern = {h: KernLog() for h in cluster.hosts}
        self.trainer: list[tuple[int, str]] = []
        grid = cluster.grid
        for log in self.kern.values():
            log.noise(rng, grid.us_at(0), grid.us_at(grid.seconds), noise)

    def kernel(self, host: int, at_s: float, message: str, level: str = "info", rng=None) -> None:
        us = self.cluster.grid.us_at(at_s) + (
            int(rng.integers(0, 1_000_000)) if rng is not None else 0
        )
        self.kern[self.cluster.hosts[host]].add(us, message, level)

    def train(self, at_s: float, line: str) -> None:
        self.trainer.append((self.cluster.grid.us_at(at_s), line))

    def files(self, run: Run) -> dict[str, Callable[[], list[str]]]:
        out: dict[str, Callable[[], list[str]]] = {
            f"{h}/kern.log": log.lines for h, log in self.kern.items()
        }
        # Megatron stamps its iteration lines; the other lines (checkpoints, NCCL's
        # watchdog, launcher errors) come as they are printed, with no time of their own.
        stamped = [
            (us, f" [{datetime.fromtimestamp(us / 1e6, UTC):%Y-%m-%d %H:%M:%S}]{text}")
            for us, text in iteration_lines(run)
        ]
        lines = sorted(stamped + self.trainer)
        out["trainer.log"] = lambda: [text for _, text in lines]
        return out


def iteration_lines(run: Run, every_s: int = 60) -> list[tuple[int, str]]:
    """Megatron-style iteration lines from rank 0, one a minute while the job runs."""
    c = run.cluster
    grid, t = c.grid, c.grid.t
    out = []
    for i in np.flatnonzero((t % every_s == 0) & (t > 0)).tolist():
        if run.throughput[i] <= 0:
            continue
        it = int(run.steps[i])
        ms = run.step_time[i] * 1000
        batch = c.job.tokens_per_step // c.job.seq_length
        # Megatron's model TFLOP/s per GPU: 6 x parameters x tokens per second per GPU.
        tflops = 6 * c.job.parameters * run.throughput[i] / run.state.gpus / 1e12
        loss = 2.2 + 1.5 * np.exp(-it / 4000)
        out.append(
            (
                grid.us_at(t[i]),
                f" iteration {it:8d}/  500000 | consumed samples: {it * batch:12d} | "
                f"elapsed time per iteration (ms): {ms:.1f} | "
                f"throughput per GPU (TFLOP/s/GPU): {tflops:.1f} | "
                f"learning rate: 3.000000E-04 | global batch size: {batch:5d} | "
                f"lm loss: {loss:.6E} | loss scale: 1.0 | grad norm: 0.312 | "
                "number of skipped iterations:   0 | number of nan iterations:   0 |",
            )
        )
    return out
