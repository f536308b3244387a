"""The imbue-bringup scenario: Imbue's 4,088-GPU H100 cluster brought up.

511 Dell XE9680 hosts x 8 H100 brought up together: a tenth never come up, and among the
rest a few hosts each carry one fault (downtrained PCIe links, NVMe drives that hang the
host, wrong temperature readings, CPUs capped at 2 GHz, flapping InfiniBand ports, Xids)
while the first multi-node job runs and its MFU dips whenever one of them stalls it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from incidentbook.scenarios import kernel_lines as kl
from incidentbook.scenarios.simulator import (
    ZSTD,
    Block,
    Grid,
    Incident,
    KernLog,
    Scale,
    Scenario,
    _ema,
    _inside,
    _place,
    _r,
    _spec,
)

IMBUE = {  # job: minutes to the job's start; baseline: its first quiet minutes
    "small": dict(minutes=270, interval=90, job=45, baseline=40, bursts=(1, 3), noise=2),
    "full": dict(minutes=1440, interval=15, job=120, baseline=60, bursts=(3, 6), noise=2100),
}
# The same day on 2,048 hosts (16,384 GPUs), four times Imbue's cluster: what one machine
# should still analyse. The same faults, on more hosts.
IMBUE["16k"] = IMBUE["full"] | {"hosts": 2048}
IMBUE_START = datetime(2024, 5, 20, 14, tzinfo=UTC)
GPU_BUSES = (0x19, 0x3B, 0x4C, 0x5D, 0x9B, 0xBB, 0xCB, 0xDB)  # XE9680-like topology
FAILURES = (
    ("miswired or unconnected ethernet cable", 14),
    ("iDRAC hardware fault", 8),
    ("broken power supply", 6),
    ("bad NVMe drive", 7),
    ("missing internal cable", 6),
    ("GPU not detected", 5),
    ("network card not detected", 5),
)
N_FAILED = sum(c for _, c in FAILURES)
FAULTY = {"downtrained": 6, "nvme": 3, "thermal": 4, "cpu": 5, "flap": 5, "xid": 3}
FAN_MAX_RPM = 16_800.0
JOB = "first-multinode"
STREAMS = {name: k for k, name in enumerate(("util", "temp", "power", "cpu", "fan", "log"))}


def imbue_hosts(count: int = 511) -> list[str]:
    """Hosts by rack and slot, 16 to a rack (racks past 99 take a third digit)."""
    racks = -(-count // 16)
    return [f"h100-r{r:02d}-n{s:02d}" for r in range(1, racks + 1) for s in range(1, 17)][:count]


def gpu_bdf(g: int) -> str:
    return f"0000:{GPU_BUSES[g]:02x}:00.0"


def hca(g: int) -> tuple[str, str]:
    """The InfiniBand HCA beside GPU g (mlx5_g): PCI address and IPoIB interface name."""
    bus = GPU_BUSES[g] + 4
    return f"0000:{bus:02x}:00.0", f"ibp{bus}s0"


def _flap_burst(rng, dt: int) -> list[tuple[int, int]]:
    """A port flapping a few times in a row: (down, up) offsets in seconds. The first outage
    outlasts a scrape interval so that the port-state gauge sees it."""
    out, at = [], 0
    for k in range(int(rng.integers(2, 5))):
        down = int(rng.uniform(1.2, 2.0) * dt) if k == 0 else int(rng.integers(10, 41))
        out.append((at, at + down))
        at += down + int(rng.integers(10, 41))
    return out


@dataclass
class Bringup:
    """The bring-up day's plan: who is broken, how, and when (seconds from the start)."""

    seed: int
    p: dict[str, Any]
    grid: Grid
    hosts: list[str]
    failed: list[int]  # never come up
    reasons: list[str]
    live: list[int]
    groups: dict[str, list[int]]  # fault -> hosts, disjoint
    rank0: int
    boot: np.ndarray  # per host; inf for failed hosts
    gone: np.ndarray  # the node exporter stops answering for good (NVMe hang)
    drained: np.ndarray  # the job goes on without the host
    job_start: int
    base_end: int
    dips: list[tuple[int, int, float, str, int]] = field(default_factory=list)
    xid: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # host -> code, gpu, at
    outages: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    downtrained: dict[int, list[int]] = field(default_factory=dict)
    thermal: dict[int, float] = field(default_factory=dict)
    mfu_base: float = 0.0

    def present(self) -> np.ndarray:
        """(host, time): the node exporter answers, from a little after boot until a hang."""
        t = self.grid.t[None, :]
        return (t >= self.boot[:, None] + 45) & (t < self.gone[:, None])


def _bringup_plan(seed: int, scale: Scale, rng) -> Bringup:
    p = IMBUE[scale]
    grid = Grid(IMBUE_START, p["interval"], p["minutes"] * 60 // p["interval"])
    hosts, end = imbue_hosts(p.get("hosts", 511)), grid.seconds
    # Who is broken, and how: disjoint groups so that each fault is attributable.
    perm, groups, k = rng.permutation(len(hosts)).tolist(), {}, N_FAILED
    for name, count in FAULTY.items():
        groups[name], k = sorted(perm[k : k + count]), k + count
    reasons = [r for r, c in FAILURES for _ in range(c)]
    failed = sorted(perm[:N_FAILED])
    live = sorted(set(range(len(hosts))) - set(failed))
    boot = np.full(len(hosts), np.inf)
    boot[live] = rng.integers(0, 601, len(live))  # all boot in the first ten minutes
    job_start, base_end = p["job"] * 60, (p["job"] + p["baseline"]) * 60
    plan = Bringup(
        seed=seed,
        p=p,
        grid=grid,
        hosts=hosts,
        failed=failed,
        reasons=[reasons[j] for j in rng.permutation(len(reasons))],
        live=live,
        groups=groups,
        rank0=next(h for h in live if h not in set(perm[N_FAILED:k])),  # a healthy host
        boot=boot,
        gone=np.full(len(hosts), np.inf),
        drained=np.full(len(hosts), np.inf),
        job_start=job_start,
        base_end=base_end,
    )
    # Faults that stop the job come after the baseline: an NVMe hang stalls it until the
    # NCCL timeout (10 min) and the restart; an Xid 79 or 94 crashes it until the restart.
    xid79, xid94, xid48 = groups["xid"]
    stops = [(h, "nvme_hang", 600 + int(rng.integers(180, 361))) for h in groups["nvme"]]
    stops += [(xid79, "xid_79", int(rng.integers(480, 721)))]
    stops += [(xid94, "xid_94", int(rng.integers(300, 481)))]
    spans = _place(rng, [d for *_, d in stops], base_end + 300, end - 1200, 600)
    for (h, cause, _), (a, b) in zip(stops, spans, strict=True):
        plan.dips.append((a, b, _r(rng.uniform(0.93, 0.99)), cause, h))
        if cause == "nvme_hang":
            plan.gone[h] = plan.drained[h] = a
        else:
            plan.xid[h] = (int(cause[-2:]), int(rng.integers(0, 8)), a)
    plan.drained[xid79] = plan.xid[xid79][2]
    burn_in = int(boot[xid48]) + 180 + int(rng.integers(60, 540))
    plan.xid[xid48] = (48, int(rng.integers(0, 8)), burn_in)
    plan.drained[xid48] = 0  # its Xid 48 in burn-in keeps it out of the job

    # Flapping ports: bursts any time after boot, but outside the baseline and other dips.
    bursts = []
    for h in groups["flap"]:
        g = int(rng.integers(0, 8))
        bursts += [
            (h, g, _flap_burst(rng, grid.interval)) for _ in range(int(rng.integers(*p["bursts"])))
        ]
    taken = [*spans, (job_start, base_end)]
    starts = _place(rng, [b[-1][1] for *_, b in bursts], 900, end - 600, 180, taken)
    for (h, g, burst), (a, b) in zip(bursts, starts, strict=True):
        plan.outages.setdefault((h, g), []).extend((a + d, a + u) for d, u in burst)
        if a >= job_start:
            plan.dips.append(
                (a, b + int(rng.integers(30, 91)), _r(rng.uniform(0.3, 0.6)), "ib_flap", h)
            )
    plan.dips.sort()
    for h in groups["downtrained"]:
        plan.downtrained[h] = sorted(rng.choice(8, int(rng.integers(1, 3)), replace=False).tolist())
    for j, h in enumerate(groups["thermal"]):  # the driver bug: a constant 0, or > 100 C
        plan.thermal[h] = 0.0 if j < 2 else float(rng.integers(118, 128))
    plan.mfu_base = float(rng.uniform(0.41, 0.445))
    return plan


def _bringup_mfu(rng, plan: Bringup) -> np.ndarray:
    """MFU per scrape, from the batches completed since the last one (so a stalled job
    reports ~0, not a stale value); absent before the job starts."""
    t = plan.grid.t
    mfu = plan.mfu_base * (1 + rng.normal(0, 0.01, t.size))
    for a, b, depth, *_ in plan.dips:
        hit = (t >= a) & (t < b)
        mfu[hit] = plan.mfu_base * (1 - depth) * (1 + rng.normal(0, 0.05, int(hit.sum())))
    return np.where(t >= plan.job_start, np.round(mfu, 4), np.nan)


def _bringup_load(plan: Bringup, present: np.ndarray) -> tuple[np.ndarray, ...]:
    """(host, time) GPU utilisation and power levels and the heat they leave. GPUs idle
    after boot, burn in for ten minutes (single-node tests), then run the job; a stalled
    collective keeps them busy-waiting (utilisation stays, power falls), a crashed job
    leaves them idle until the restart."""
    t, dips = plan.grid.t, plan.dips
    spin = _inside(t, [(a, b) for a, b, _, c, _ in dips if c in ("nvme_hang", "ib_flap")])
    idle = _inside(t, [(a, b) for a, b, _, c, _ in dips if c.startswith("xid")])
    tt, boot = t[None, :], plan.boot[:, None]
    burn = (tt >= boot + 180) & (tt < boot + 780)
    job = (tt >= plan.job_start) & (tt < plan.drained[:, None]) & present
    util_lvl = np.where(burn, 100.0, 0.0)
    util_lvl[job & ~idle] = 99.6  # a training GPU reads ~100%
    power_lvl = np.where(burn, 1.0, 0.0)
    power_lvl[job] = 0.85
    power_lvl[job & spin] = 0.3
    power_lvl[job & idle] = 0.0
    heat = _ema(power_lvl, 1 - np.exp(-plan.grid.interval / 120), first=0.0)
    return util_lvl, power_lvl, heat


def _bringup_gpus(rng, plan: Bringup, present: np.ndarray, load: tuple) -> list[Block]:
    """DCGM per GPU of the live hosts."""
    t, seed, (util_lvl, power_lvl, heat) = plan.grid.t, plan.seed, load
    gh, gg = np.repeat(plan.live, 8), np.tile(np.arange(8), len(plan.live))
    row = {h: j * 8 for j, h in enumerate(plan.live)}  # the first GPU's series of each host
    gpus = [
        {"node": plan.hosts[h], "gpu": str(g)}
        for h, g in zip(gh.tolist(), gg.tolist(), strict=True)
    ]
    p_max, hot = rng.uniform(640, 700, (gh.size, 1)), rng.uniform(60, 72, (gh.size, 1))
    misread = np.array([plan.thermal.get(h, np.nan) for h in gh.tolist()])[:, None]
    width = np.full((gh.size, 1), 16.0)
    for h, bad in plan.downtrained.items():
        width[[row[h] + g for g in bad]] = 4.0
    xid_since, xid_value = np.full((gh.size, 1), np.inf), np.zeros((gh.size, 1))
    for h, (code, g, at) in plan.xid.items():
        xid_since[row[h] + g], xid_value[row[h] + g] = at, code
    xid79 = plan.groups["xid"][0]
    lost, lost_at = row[xid79] + plan.xid[xid79][1], plan.xid[xid79][2]  # fell off the bus

    def per_gpu(stream: str | None, make: Callable) -> Callable[[int, int], np.ndarray]:
        def values(i0: int, i1: int) -> np.ndarray:
            r = np.random.default_rng([seed, STREAMS.get(stream, 99), i0])
            v = make(r, slice(i0, i1)).astype(float)
            if stream is not None:  # a GPU off the bus has no sensor readings
                v[lost, t[i0:i1] >= lost_at] = np.nan
            return np.where(present[gh, i0:i1], v, np.nan)

        return values

    def util(r, s):
        lvl = util_lvl[gh, s]
        return np.where(lvl > 0, np.clip(np.rint(lvl + r.normal(0, 1.0, lvl.shape)), 0, 100), 0)

    def power(r, s):
        lvl = power_lvl[gh, s]
        return np.round(70 + (p_max - 70) * lvl + r.normal(0, 1, lvl.shape) * (1.5 + 5 * lvl))

    def temp(r, s):
        v = np.rint(31 + (hot - 31) * heat[gh, s] + r.normal(0, 0.2, (gh.size, s.stop - s.start)))
        return np.where(np.isnan(misread), v, misread)

    return [
        Block("DCGM_FI_DEV_GPU_UTIL", gpus, per_gpu("util", util)),
        Block("DCGM_FI_DEV_GPU_TEMP", gpus, per_gpu("temp", temp)),
        Block("DCGM_FI_DEV_POWER_USAGE", gpus, per_gpu("power", power)),
        Block(
            "DCGM_FI_DEV_PCIE_LINK_WIDTH",
            gpus,
            per_gpu(None, lambda r, s: np.repeat(width, s.stop - s.start, axis=1)),
        ),
        Block(
            "DCGM_FI_DEV_XID_ERRORS",  # the last Xid seen on the GPU
            gpus,
            per_gpu(None, lambda r, s: np.where(t[s] >= xid_since, xid_value, 0.0)),
        ),
    ]


def _bringup_hosts(rng, plan: Bringup, present: np.ndarray, heat) -> dict[str, list[Block]]:
    """Host-level series: CPU clocks and InfiniBand ports (node_exporter, while the host
    answers), fans (from the BMC, which answers even when the OS has hung), and `up`."""
    t, seed, hosts, live = plan.grid.t, plan.seed, plan.hosts, plan.live
    ch, ph, fh = np.repeat(live, 4), np.repeat(live, 8), np.repeat(live, 6)
    row = {h: j * 8 for j, h in enumerate(live)}
    capped = np.isin(ch, plan.groups["cpu"])[:, None]
    pinned = np.isin(fh, plan.groups["thermal"])[:, None]
    downed0 = (rng.random((ph.size, 1)) < 0.03).astype(float)  # a link-down or two at boot
    fan_base = rng.uniform(8000, 10000, (fh.size, 1))

    def cpu(i0: int, i1: int) -> np.ndarray:
        r = np.random.default_rng([seed, STREAMS["cpu"], i0])
        v = np.where(capped, 2.0e9, r.integers(34, 39, (ch.size, i1 - i0)) * 1e8)
        return np.where(present[ch, i0:i1], v, np.nan)

    def downed(i0: int, i1: int) -> np.ndarray:
        v = np.repeat(downed0, i1 - i0, axis=1)
        for (h, g), outs in plan.outages.items():
            went_down = np.array([a for a, _ in outs])[:, None]
            v[row[h] + g] += (t[None, i0:i1] >= went_down).sum(axis=0)
        return np.where(present[ph, i0:i1], v, np.nan)

    def state(i0: int, i1: int) -> np.ndarray:
        v = np.full((ph.size, i1 - i0), 4.0)  # 4: ACTIVE
        for (h, g), outs in plan.outages.items():
            v[row[h] + g, _inside(t[i0:i1], outs)] = 1.0  # 1: DOWN
        return np.where(present[ph, i0:i1], v, np.nan)

    def fan(i0: int, i1: int) -> np.ndarray:
        r = np.random.default_rng([seed, STREAMS["fan"], i0])
        v = fan_base * (0.85 + 0.15 * heat[fh, i0:i1]) + r.normal(0, 25, (fh.size, i1 - i0))
        v = np.where(pinned, FAN_MAX_RPM, np.rint(v / 120) * 120)  # the BMC reads in steps
        return np.where(t[None, i0:i1] >= plan.boot[fh, None], v, np.nan)

    ports = [{"node": hosts[h], "device": f"mlx5_{g}", "port": "1"} for h in live for g in range(8)]
    everyone = np.arange(len(hosts))
    return {
        "node.parquet": [
            Block(
                "node_cpu_scaling_frequency_hertz",
                [{"node": hosts[h], "cpu": str(c)} for h in live for c in range(4)],
                cpu,
            ),
            Block("node_infiniband_link_downed_total", ports, downed),
            Block("node_infiniband_state_id", ports, state),
        ],
        "ipmi.parquet": [
            Block(
                "ipmi_fan_speed_rpm",
                [{"node": hosts[h], "name": f"Fan{f}"} for h in live for f in range(1, 7)],
                fan,
            )
        ],
        "up.parquet": [
            Block(
                "up",
                [{"node": h, "job": "node"} for h in hosts],
                lambda i0, i1: present[everyone, i0:i1].astype(float),
            )
        ],
    }


def _bringup_logs(rng, plan: Bringup) -> dict[str, Callable[[], list[str]]]:
    """Each live host's kernel log: its boot (with the x4 links), background noise until
    the end or the hang, and the messages of its fault. Built when written, one at a time."""
    grid, hosts, end = plan.grid, plan.hosts, plan.grid.seconds
    events: dict[int, list[tuple[int, str, str]]] = {}

    def when(s: float) -> int:  # kernel timestamps have microseconds
        return grid.us_at(s) + int(rng.integers(0, 1_000_000))

    for a, _, _, cause, h in plan.dips:
        if cause == "nvme_hang":  # the I/O times out, the abort times out, the host locks up
            tag, qid = int(rng.integers(0, 1024)), int(rng.integers(1, 65))
            events.setdefault(h, []).extend(
                [
                    (when(a - 62), kl.nvme_timeout("nvme1", tag, qid, "aborting"), "warn"),
                    (
                        when(a - 31),
                        kl.nvme_timeout("nvme1", tag, qid, "reset controller"),
                        "warn",
                    ),
                ]
            )
    for h, (code, g, at) in plan.xid.items():
        # Xid 79 comes from the driver itself; 94 kills the trainer, 48 the burn-in test.
        name = {79: None, 94: "pt_main_thread", 48: "dcgmproftester12"}[code]
        pid = None if name is None else int(rng.integers(5_000, 90_000))
        message = kl.xid(gpu_bdf(g)[:-2], code, pid, name)
        us = when(at)
        events.setdefault(h, []).append((us, message, "warn"))
        if code == 79:
            events[h].append((us + 1_071, kl.gpu_fallen_off_bus(gpu_bdf(g)), "err"))
    for (h, g), outs in plan.outages.items():
        bdf, netdev = hca(g)
        for a, b in outs:
            events.setdefault(h, []).append((when(a), kl.mlx5_link(bdf, netdev, False), "info"))
            events[h].append((when(b), kl.mlx5_link(bdf, netdev, True), "info"))

    def host_log(h: int) -> Callable[[], list[str]]:
        def lines() -> list[str]:
            log, boot = KernLog(), grid.us_at(plan.boot[h])
            ports = {
                gpu_bdf(g): (f"0000:{GPU_BUSES[g] - 1:02x}:01.0", 4)
                for g in plan.downtrained.get(h, [])
            }
            gpus, nics = [gpu_bdf(g) for g in range(8)], [hca(g)[0] for g in range(8)]
            log.extend(boot, kl.boot_sequence(hosts[h], gpus, nics, ports))
            stop = min(end, plan.gone[h])
            n_noise = plan.p["noise"] * (stop - plan.boot[h]) / end
            r = np.random.default_rng([plan.seed, STREAMS["log"], h])
            log.noise(r, boot + 30_000_000, grid.us_at(stop), n_noise)
            for us, message, level in events.get(h, []):
                log.add(us, message, level)
            return log.lines()

        return lines

    return {f"{hosts[h]}/kern.log": host_log(h) for h in plan.live}


def _imbue(seed: int, scale: Scale) -> Incident:
    rng = np.random.default_rng(seed)
    plan = _bringup_plan(seed, scale, rng)
    grid, hosts, present = plan.grid, plan.hosts, plan.present()
    load = _bringup_load(plan, present)
    metrics = {"dcgm.parquet": _bringup_gpus(rng, plan, present, load)}
    metrics |= _bringup_hosts(rng, plan, present, load[2])
    mfu = _bringup_mfu(rng, plan)
    metrics["trainer.parquet"] = [
        Block("trainer_mfu", [{"node": hosts[plan.rank0], "job": JOB}], mfu[None, :])
    ]
    logs = _bringup_logs(rng, plan)
    spec = _spec(
        "imbue-bringup",
        "Imbue H100 cluster bring-up and first multi-node jobs (simulated)",
        grid,
        (plan.job_start, plan.base_end),
        "mfu",
        name="imbue-h100",
        nodes=len(hosts),
    )
    extra = {
        "hosts": len(hosts),
        "job": {"name": JOB, "start": grid.iso(plan.job_start), "rank0": hosts[plan.rank0]},
        "boots": grid.span(
            float(np.min(plan.boot[plan.live])), float(np.max(plan.boot[plan.live]))
        ),
    }
    return Incident(spec, grid, metrics, logs, _bringup_truth(plan), extra, ZSTD[scale])


def _bringup_truth(plan: Bringup) -> dict[str, Any]:
    hosts, iso, span, groups = plan.hosts, plan.grid.iso, plan.grid.span, plan.groups
    return {
        "failed_hosts": [
            {"host": hosts[h], "reason": r} for h, r in zip(plan.failed, plan.reasons, strict=True)
        ],
        "failed_fraction": _r(len(plan.failed) / len(hosts), 4),
        "downtrained": [
            {"host": hosts[h], "gpu": str(g), "pci": gpu_bdf(g), "width": 4, "expected_width": 16}
            for h, bad in sorted(plan.downtrained.items())
            for g in bad
        ],
        "nvme_hangs": [
            {"host": hosts[h], "at": iso(plan.gone[h]), "device": "nvme1"} for h in groups["nvme"]
        ],
        "thermal_misreading": [
            {"host": hosts[h], "reading_c": c, "fan_rpm": FAN_MAX_RPM}
            for h, c in sorted(plan.thermal.items())
        ],
        "cpu_capped": [{"host": hosts[h], "hz": 2.0e9} for h in groups["cpu"]],
        "flapping_ports": [
            dict(host=hosts[h], device=f"mlx5_{g}", port="1", pci=hca(g)[0], netdev=hca(g)[1])
            | {"flaps": len(outs), "outages": [span(a, b) for a, b in sorted(outs)]}
            for (h, g), outs in sorted(plan.outages.items())
        ],
        "xid": [
            {"host": hosts[h], "at": iso(at), "code": code, "gpu": str(g), "pci": gpu_bdf(g)}
            for h, (code, g, at) in sorted(plan.xid.items(), key=lambda kv: kv[1][2])
        ],
        "mfu_dips": [
            {**span(a, b), "depth": depth, "cause": cause, "host": hosts[h]}
            for a, b, depth, cause, h in plan.dips
        ],
        "baseline_mfu": _r(plan.mfu_base, 4),
    }


SCENARIO = Scenario(
    "imbue-bringup",
    "511 hosts x 8 H100 bring-up: failed boots, x4 PCIe links, hanging NVMe, wrong "
    "temperatures, capped CPUs, flapping InfiniBand ports, Xids, MFU dips",
    _imbue,
    bundled=True,
    scales=("small", "full", "16k"),
)
