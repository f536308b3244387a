"""Fleet scenarios: a cluster, its faults, and the truth an analysis is scored against.

Each scenario module (thermal_throttle, slow_gpu, ...) defines one FleetScenario; the
simulator's registry lists them. truth.json gains `cause`: the signals of the pack that
name the cause (any of them is right), the hosts and GPUs it is confined to (None:
cluster-wide), and its onset; `quiet` marks days with nothing to find.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from incidentbook.scenarios.fleet.model import (
    Cluster,
    Fault,
    Logs,
    new_state,
    observe,
    simulate,
)
from incidentbook.scenarios.simulator import Grid, Incident, Scenario, _r


@dataclass(frozen=True)
class FleetScenario:
    """A cluster, its faults, and what an analysis should find (truth.json's `cause`)."""

    name: str
    summary: str
    hosts: int
    start: datetime
    faults: Callable[[np.random.Generator, Cluster], list[Fault]]
    cause: Callable[[list[Fault], Cluster], dict[str, Any] | None]
    minutes: dict[str, int] = field(default_factory=lambda: {"small": 360, "full": 1440})
    interval: dict[str, int] = field(default_factory=lambda: {"small": 30, "full": 15})
    noise_lines: float = 6.0
    source: str = ""

    def build(self, seed: int, scale: str) -> Incident:
        rng = np.random.default_rng([seed, sum(map(ord, self.name))])
        grid = Grid(
            self.start, self.interval[scale], self.minutes[scale] * 60 // self.interval[scale]
        )
        cluster = Cluster(self.name, fleet_hosts(self.name, self.hosts), grid)
        faults = self.faults(rng, cluster)
        state = new_state(cluster, rng)
        for f in faults:
            f.apply(state, cluster, rng)
        run = simulate(cluster, state, rng)
        metrics = observe(run, rng)
        for f in faults:
            f.counters(run, metrics, rng)
        logs = Logs(cluster, rng, self.noise_lines)
        for f in faults:
            f.logs(run, logs, rng)
        spec = {
            "id": self.name,
            "title": f"{self.summary} (simulated)",
            "window": grid.span(0, grid.seconds),
            "baseline": grid.span(0, cluster.baseline_s),
            "primary_signal": "throughput",
            "cluster": {
                "name": self.name,
                "nodes": len(cluster.hosts),
                "gpus_per_node": 8,
                "gpu_model": "H100",
            },
        }
        cause = self.cause(faults, cluster)
        base = float(np.median(run.throughput[grid.t < cluster.baseline_s]))
        after = run.throughput[grid.t >= (cause or {}).get("onset_s", cluster.baseline_s)]
        loss = 1 - float(np.mean(after)) / base if base else 0.0
        truth_cause = None
        if cause is not None:
            truth_cause = {
                **{k: v for k, v in cause.items() if k != "onset_s"},
                "onset": grid.iso(cause["onset_s"]),
            }
        extra = {
            "hosts": len(cluster.hosts),
            "source": self.source,
            "cause": truth_cause,
            "throughput_loss": _r(loss, 3),
            "quiet": cause is None,
        }
        planted = [{"fault": type(f).__name__, **_public(f, cluster)} for f in faults]
        return Incident(spec, grid, metrics.files, logs.files(run), planted, extra, 9)

    def as_scenario(self) -> Scenario:
        """The simulator's registry entry for this scenario."""
        return Scenario(self.name, self.summary, self.build, scored=True)


def _public(fault: Fault, cluster: Cluster) -> dict[str, Any]:
    out = {}
    for k, v in vars(fault).items():
        if k == "hosts":
            out[k] = [cluster.hosts[h] for h in v]
        elif k == "host":
            out[k] = cluster.hosts[v]
        elif k in ("onset",):
            out[k] = cluster.grid.iso(v)
        elif isinstance(v, (int, float, str)):
            out[k] = v
        elif isinstance(v, list):
            out[k] = [list(map(float, e)) if isinstance(e, tuple) else e for e in v]
    return out


def fleet_hosts(name: str, count: int) -> list[str]:
    return [f"gpu-r{1 + i // 16:02d}-n{1 + i % 16:02d}" for i in range(count)]


def onset(rng: np.random.Generator, cluster: Cluster, lo: float = 0.30, hi: float = 0.55) -> float:
    """An onset after the baseline, on a scrape boundary."""
    g = cluster.grid
    s = rng.uniform(max(lo * g.seconds, cluster.baseline_s + 900), hi * g.seconds)
    return float(int(s // g.interval) * g.interval)


def pick(rng: np.random.Generator, cluster: Cluster, k: int) -> list[int]:
    return sorted(rng.choice(np.arange(1, len(cluster.hosts)), k, replace=False).tolist())


def names(cluster: Cluster, hosts: list[int]) -> list[str]:
    return [cluster.hosts[h] for h in hosts]


def cause(signals: list[str], hosts: bool = True, gpu: bool = False):
    def cause(faults: list[Fault], c: Cluster) -> dict[str, Any]:
        f = faults[0]
        hs = getattr(f, "hosts", None)
        if hs is None and hasattr(f, "host"):
            hs = [f.host]
        onset = getattr(f, "onset", None)
        if onset is None:
            onset = f.episodes[0][0]
        out: dict[str, Any] = {
            "signals": signals,
            "hosts": names(c, hs) if hosts and hs is not None else None,
            "gpus": [f"{c.hosts[f.host]}/{f.gpu}"] if gpu else None,
            "onset_s": float(onset),
        }
        return out

    return cause


START = datetime(2025, 6, 2, 6, tzinfo=UTC)
"""Fleet scenarios share a start: a Monday morning, six hours (small) or a day (full)."""
