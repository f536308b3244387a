"""The faults a fleet scenario injects: each edits the model's inputs from its onset,
adds the counters the run does not imply, and the log lines a real host would print.

Log wording follows the kernel's and the drivers' format strings (NVRM Xid lines, mlx5
carrier messages, AER, the OOM killer, PyTorch's NCCL watchdog), as kernel_lines does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from incidentbook.scenarios import kernel_lines as kl
from incidentbook.scenarios.fleet.model import (
    GPU_BUSES,
    Block,
    Fault,
    Grid,
    bump_counter,
    gpu_pci,
    hca_pci,
    nvrm_pci,
    set_gauge,
)


def _from(grid: Grid, onset: float) -> np.ndarray:
    return grid.t >= onset


@dataclass
class CoolingLoss(Fault):
    """Hosts whose fans or cold plates stop cooling: their GPUs heat up, hit the slowdown
    temperature and are clocked down; the job runs at their pace."""

    hosts: list[int]
    onset: float
    factor: float = 3.0

    def apply(self, state, cluster, rng):
        on = _from(cluster.grid, self.onset)
        for h in self.hosts:
            g0 = h * cluster.gpus_per_host
            ramp = np.clip((cluster.grid.t - self.onset) / 600, 0, 1)  # over ten minutes
            state.cooling[g0 : g0 + cluster.gpus_per_host] = np.where(
                on, 1 + (self.factor - 1) * ramp, 1
            )


@dataclass
class SlowGPU(Fault):
    """One GPU that computes a few percent slower than its peers, with no error anywhere
    (BLOOM-176B, April 2022: found by bisecting nodes)."""

    host: int
    gpu: int
    onset: float
    slowness: float = 0.94

    def apply(self, state, cluster, rng):
        g = self.host * cluster.gpus_per_host + self.gpu
        state.slowness[g, _from(cluster.grid, self.onset)] = self.slowness


@dataclass
class CheckpointStalls(Fault):
    """Checkpoint saves to a slow shared filesystem stall training every `period` seconds
    for `duration` seconds; the filesystem's write latency is high while they last."""

    onset: float
    period: float = 2700
    duration: float = 180
    healthy_s: float = 20  # how long a save took before the filesystem slowed

    def saves(self, grid: Grid, before: bool = True) -> list[tuple[float, float]]:
        first = self.onset - self.period * int(self.onset // self.period) if before else self.onset
        out = []
        at = first
        while at < grid.seconds:
            length = self.duration if at >= self.onset else self.healthy_s
            out.append((at, at + length))
            at += self.period
        return out

    def apply(self, state, cluster, rng):
        grid = cluster.grid
        t, dt = grid.t, grid.interval
        for a, b in self.saves(grid):
            cover = np.clip(np.minimum(b, t + dt) - np.maximum(a, t), 0, dt) / dt
            state.stall = np.maximum(state.stall, cover)
            slow = a >= self.onset
            state.fs_write_ms = np.where(cover > 0, 40.0 if slow else 3.0, state.fs_write_ms)
            state.fs_write_load = np.where(
                cover > 0,
                2.0e9 / (self.duration if slow else self.healthy_s) * 20,
                state.fs_write_load,
            )

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        last = np.full(grid.n, np.nan)  # the trainer's gauge: how long the last save took
        for a, b in self.saves(grid):
            last[grid.t >= b] = round(b - a + float(rng.uniform(-2, 2)), 1)
        rank0 = [{"node": run.cluster.hosts[0], "job": run.cluster.name}]
        metrics.files["trainer.parquet"].append(
            Block("trainer_checkpoint_save_seconds", rank0, last[None, :])
        )

    def logs(self, run, logs, rng):
        it = run.steps
        for a, b in self.saves(run.cluster.grid):
            i = min(int(a // run.cluster.grid.interval), run.cluster.grid.n - 1)
            logs.train(a, f"saving checkpoint at iteration {int(it[i]):8d} to /fsx/checkpoints")
            logs.train(
                b,
                f"  successfully saved checkpoint at iteration {int(it[i]):8d} to /fsx/checkpoints"
                f" [ t 1/8, p 1/1 ] took {b - a:.1f} s",
            )


@dataclass
class PortFlap(Fault):
    """One InfiniBand port that keeps going down and up: collectives through it time out,
    the NCCL watchdog kills the job, which restarts from its last checkpoint."""

    host: int
    port: int
    onset: float
    flaps: int = 3
    restart_s: float = 420
    gap_s: float = 1500

    def times(self, grid: Grid) -> list[float]:
        return [
            self.onset + k * self.gap_s
            for k in range(self.flaps)
            if self.onset + k * self.gap_s < grid.seconds - 600
        ]

    def apply(self, state, cluster, rng):
        t = cluster.grid.t
        for at in self.times(cluster.grid):
            # The collective hangs until NCCL's watchdog fires (ten minutes by default);
            # then the job is down until the restart has loaded its checkpoint.
            state.hang |= (t >= at) & (t < at + 600)
            state.down |= (t >= at + 600) & (t < at + 600 + self.restart_s)

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        row = self.host * 8 + self.port
        for at in self.times(grid):
            bump_counter(
                metrics.block("node_infiniband_link_downed_total"), row, grid.t, [at, at + 40]
            )
            bump_counter(
                metrics.block("node_infiniband_symbol_error_total"),
                row,
                grid.t,
                [at - 30, at - 10, at],
                3000,
            )
            state = metrics.block("node_infiniband_state_id").values
            state[row, (grid.t >= at) & (grid.t < at + 70)] = 1.0

    def logs(self, run, logs, rng):
        c = run.cluster
        bdf, dev = hca_pci(self.port), f"ibp{GPU_BUSES[self.port] + 3}s0"
        for at in self.times(c.grid):
            for down, up in [(at, at + 40), (at + 55, at + 70)]:
                logs.kernel(self.host, down, kl.mlx5_link(bdf, dev, False), "info", rng)
                logs.kernel(self.host, up, kl.mlx5_link(bdf, dev, True), "info", rng)
            rank = self.host * 8 + self.port
            logs.train(
                at + 600,
                f"[rank{rank}]:[E ProcessGroupNCCL.cpp:616] [Rank {rank}] Watchdog caught "
                "collective operation timeout: WorkNCCL(SeqNum=81234, OpType=ALLREDUCE, "
                "NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran for 600042 "
                "milliseconds before timing out.",
            )
            logs.train(
                at + 620,
                "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -6) "
                "local_rank: 3 (pid: 41231) of binary: /usr/bin/python",
            )
            logs.train(
                at + 600 + self.restart_s - 30,
                "loading checkpoint from /fsx/checkpoints at iteration",
            )


@dataclass
class RowRemapCrash(Fault):
    """A GPU whose HBM starts failing: rows marked for remapping (Xid 63), a remapping
    that fails (Xid 64), double-bit errors, then the job crashes on it."""

    host: int
    gpu: int
    onset: float
    crash_after: float = 1500

    def apply(self, state, cluster, rng):
        t = cluster.grid.t
        state.down |= t >= self.onset + self.crash_after

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        t, row = grid.t, self.host * 8 + self.gpu
        remaps = [self.onset, self.onset + 400, self.onset + 900]
        bump_counter(metrics.block("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"), row, t, remaps)
        bump_counter(
            metrics.block("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL"),
            row,
            t,
            [self.onset + self.crash_after - 20],
            2,
        )
        set_gauge(metrics.block("DCGM_FI_DEV_XID_ERRORS"), row, t, self.onset, 63)
        set_gauge(metrics.block("DCGM_FI_DEV_XID_ERRORS"), row, t, self.onset + 900, 64)
        set_gauge(
            metrics.block("DCGM_FI_DEV_XID_ERRORS"), row, t, self.onset + self.crash_after - 20, 48
        )
        set_gauge(metrics.block("DCGM_FI_DEV_ROW_REMAP_FAILURE"), row, t, self.onset + 900, 1)

    def logs(self, run, logs, rng):
        pci = nvrm_pci(self.gpu)
        for at in (self.onset, self.onset + 400):
            logs.kernel(self.host, at, kl.xid(pci, 63, 51234, "python3"), "warn", rng)
        logs.kernel(
            self.host,
            self.onset + 900,
            f"NVRM: Xid (PCI:{pci}): 64, pid=51234, name=python3, Row Remapper Error: Failed to "
            "remap row.",
            "warn",
            rng,
        )
        crash = self.onset + self.crash_after
        logs.kernel(self.host, crash - 20, kl.xid(pci, 48, 51234, "python3"), "warn", rng)
        rank = self.host * 8 + self.gpu
        logs.train(
            crash - 15,
            f"[rank{rank}]: RuntimeError: CUDA error: uncorrectable ECC error encountered",
        )
        logs.train(crash - 14, "terminate called after throwing an instance of 'c10::Error'")


@dataclass
class PCIeDowntrain(Fault):
    """A GPU's PCIe link retrains to fewer lanes mid-run (after correctable errors): its
    host-device traffic slows, and with it every step."""

    host: int
    gpu: int
    onset: float
    width: int = 4

    def apply(self, state, cluster, rng):
        g = self.host * cluster.gpus_per_host + self.gpu
        state.pcie_width[g, _from(cluster.grid, self.onset)] = self.width

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        row = self.host * 8 + self.gpu
        bump_counter(
            metrics.block("DCGM_FI_DEV_PCIE_REPLAY_COUNTER"),
            row,
            grid.t,
            [self.onset - 60, self.onset - 30, self.onset],
            40,
        )

    def logs(self, run, logs, rng):
        bdf = gpu_pci(self.gpu)
        port = f"0000:{GPU_BUSES[self.gpu] - 1:02x}:01.0"
        for k in range(3):
            logs.kernel(
                self.host,
                self.onset - 60 + 30 * k,
                f"pcieport {port}: AER: Corrected error received: {bdf}",
                "warn",
                rng,
            )
            logs.kernel(
                self.host,
                self.onset - 60 + 30 * k + 0.001,
                f"nvidia {bdf}: PCIe Bus Error: severity=Corrected, type=Physical Layer, "
                "(Receiver ID)",
                "warn",
                rng,
            )
        logs.kernel(
            self.host, self.onset + 1, kl.pcie_limited(bdf, port, self.width, 16), "info", rng
        )


@dataclass
class LinkWidthReduced(Fault):
    """One InfiniBand port keeps running on fewer lanes after bit errors on the others (a
    switch's link width reduction): the link never goes down, so nothing fails, but its
    rate drops, and every all-reduce waits on the rail through it."""

    host: int
    port: int
    onset: float
    lanes: int = 2  # of 4

    def apply(self, state, cluster, rng):
        # NCCL stripes its channels over the host's rails; the channels on the slow rail
        # finish last. Part of the all-reduce hides behind the others' compute.
        slower = 1 + 0.35 * (4 / self.lanes - 1)
        state.host_comm[self.host, _from(cluster.grid, self.onset)] *= slower

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        row = self.host * 8 + self.port
        rate = metrics.block("node_infiniband_rate_bytes_per_second").values
        rate[row, _from(grid, self.onset)] *= self.lanes / 4
        # The lanes' bit errors before the switch gave up on them: a few dozen, too few
        # to stand out as an error rate on their own.
        bump_counter(
            metrics.block("node_infiniband_symbol_error_total"),
            row,
            grid.t,
            [self.onset - 45, self.onset - 15],
            20,
        )


@dataclass
class NVLinkErrors(Fault):
    """A host's NVLinks start retrying (CRC errors): intra-node all-reduce slows, so does
    the whole job."""

    host: int
    onset: float
    slowdown: float = 1.6

    def apply(self, state, cluster, rng):
        state.host_comm[self.host, _from(cluster.grid, self.onset)] = self.slowdown

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        t = grid.t
        for g in range(8):
            row = self.host * 8 + g
            rate = rng.uniform(50, 200)
            inc = np.where(t >= self.onset, rng.poisson(rate * grid.interval, t.size), 0)
            metrics.block("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL").values[row] += np.cumsum(
                inc
            )
            metrics.block("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL").values[row] += np.cumsum(
                inc // 10
            )

    def logs(self, run, logs, rng):
        for k, g in enumerate((1, 5)):
            logs.kernel(
                self.host,
                self.onset + 30 * k,
                f"NVRM: Xid (PCI:{nvrm_pci(g)}): 74, pid=61723, name=python3, NVLink: fatal "
                "error detected on link 7(0x0, 0x0, 0x10000, 0x0, 0x0, 0x0, 0x0)",
                "warn",
                rng,
            )


@dataclass
class MemoryLeak(Fault):
    """Dataloader workers on one host leak memory until the kernel's OOM killer takes them:
    each kill stalls that host's input pipeline while the workers respawn."""

    host: int
    onset: float
    rate_gib_per_min: float = 3.0

    def kill_times(self, grid: Grid) -> list[float]:
        # About 300 GiB are available; the leak eats them, a kill frees some.
        budget = 0.28 * 2**40
        per_s = self.rate_gib_per_min * 2**30 / 60
        first = self.onset + budget / per_s
        return [first + k * 600 for k in range(12) if first + k * 600 < grid.seconds]

    def apply(self, state, cluster, rng):
        grid, t = cluster.grid, cluster.grid.t
        per_s = self.rate_gib_per_min * 2**30 / 60
        kills = self.kill_times(grid)
        since = np.full(t.size, -1.0)
        last = self.onset
        for k in [*kills, np.inf]:
            seg = (t >= last) & (t < k)
            since[seg] = t[seg] - last
            last = k
        leak = np.where(since >= 0, since * per_s, 0)
        if kills:
            # After the first kill the respawned workers leak again from a higher floor.
            leak = np.where(t >= kills[0], leak + 0.2 * 2**40, leak)
        state.mem_used[self.host] = np.minimum(leak, 0.295 * 2**40)
        for k in kills:
            hit = (t >= k) & (t < k + 240)
            state.dataloader[self.host, hit] = 6.0  # workers respawning: input starves

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        bump_counter(
            metrics.block("node_vmstat_oom_kill"), self.host, grid.t, self.kill_times(grid), 2
        )

    def logs(self, run, logs, rng):
        for k, at in enumerate(self.kill_times(run.cluster.grid)):
            pid = 70211 + 37 * k
            logs.kernel(
                self.host,
                at - 0.2,
                "pt_data_worker invoked oom-killer: gfp_mask=0x140dca(GFP_HIGHUSER_MOVABLE|"
                "__GFP_COMP|__GFP_ZERO), order=0, oom_score_adj=0",
                "warn",
                rng,
            )
            logs.kernel(
                self.host,
                at,
                "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0-1,"
                f"global_oom,task_memcg=/slurm/uid_0/job_81234,task=pt_data_worker,pid={pid},uid=0",
                "info",
                rng,
            )
            logs.kernel(
                self.host,
                at + 0.001,
                f"Out of memory: Killed process {pid} (pt_data_worker) total-vm:98765432kB, "
                "anon-rss:91234567kB, file-rss:10240kB, shmem-rss:0kB, UID:0 pgtables:180512kB "
                "oom_score_adj:0",
                "err",
                rng,
            )


@dataclass
class CPUCap(Fault):
    """Hosts whose CPUs are capped (a BIOS power profile, a firmware update): the
    dataloader's workers run slower there and the GPUs wait for data."""

    hosts: list[int]
    onset: float
    hz: float = 1.9e9

    def apply(self, state, cluster, rng):
        on = _from(cluster.grid, self.onset)
        for h in self.hosts:
            state.cpu_freq[h, on] = self.hz


@dataclass
class PowerCap(Fault):
    """Hosts whose GPUs were given a lower power limit: busy GPUs are clocked down to stay
    under it, so they draw less power while working as hard."""

    hosts: list[int]
    onset: float
    watts: float = 400.0

    def apply(self, state, cluster, rng):
        on = _from(cluster.grid, self.onset)
        for h in self.hosts:
            g0 = h * cluster.gpus_per_host
            state.power_limit[g0 : g0 + cluster.gpus_per_host, on] = self.watts


@dataclass
class Congestion(Fault):
    """A neighbouring job saturates the fabric in episodes: the all-reduce slows on every
    host and switch ports pile up transmit-wait ticks; no error anywhere."""

    episodes: list[tuple[float, float]]
    slowdown: float = 1.9

    def apply(self, state, cluster, rng):
        t = cluster.grid.t
        for a, b in self.episodes:
            hit = (t >= a) & (t < b)
            state.comm[hit] = self.slowdown * (1 + rng.normal(0, 0.05, int(hit.sum())))
            state.xmit_wait[:, hit] = 40.0


@dataclass
class HealthyNoise(Fault):
    """A noisy but healthy day: bursts of jitter in the job's pace, ordinary checkpoints,
    and now and then a correctable error somewhere, none of which costs throughput."""

    def apply(self, state, cluster, rng):
        grid, t = cluster.grid, cluster.grid.t
        # Routine checkpoints every 30 minutes, saved in the background: the filesystem
        # is busier for a minute, the job does not wait.
        for a in range(1800, grid.seconds, 1800):
            hit = (t >= a) & (t < a + 60)
            state.fs_write_ms[hit] = 4.0
            state.fs_write_load[hit] = 1.5e8
        # Jitter bursts: the all-reduce a little slower for a minute or two at random.
        for a in rng.uniform(0, grid.seconds, 12):
            hit = (t >= a) & (t < a + rng.uniform(60, 180))
            state.comm[hit] *= 1 + rng.uniform(0.02, 0.08)

    def counters(self, run, metrics, rng):
        grid = run.cluster.grid
        ng = run.state.gpus
        for row in rng.choice(ng, 4, replace=False).tolist():
            bump_counter(
                metrics.block("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL"),
                row,
                grid.t,
                [rng.uniform(0, grid.seconds)],
            )
        for row in rng.choice(ng, 3, replace=False).tolist():
            bump_counter(
                metrics.block("DCGM_FI_DEV_PCIE_REPLAY_COUNTER"),
                row,
                grid.t,
                [rng.uniform(0, grid.seconds)],
            )
