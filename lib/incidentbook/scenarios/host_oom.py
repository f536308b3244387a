"""Dataloader workers on one host leak memory until the OOM killer takes them (simulated).

IDEFICS (Hugging Face, 2023): CPU memory leaks in the dataloader and OOM kills on the hosts.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import MemoryLeak
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="host-oom",
    summary="Dataloader workers on one host leak memory until the OOM killer takes them",
    hosts=32,
    start=START,
    faults=lambda rng, c: [MemoryLeak(pick(rng, c, 1)[0], onset(rng, c, 0.2, 0.3))],
    cause=cause(["mem_available", "memory_pressure", "oom_kills"]),
    source=(
        "IDEFICS (Hugging Face, 2023): CPU memory leaks in the dataloader and OOM kills "
        "on the hosts."
    ),
)
SCENARIO = FLEET.as_scenario()
