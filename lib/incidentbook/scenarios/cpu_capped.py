"""Three hosts' CPUs are capped at 1.9 GHz; their dataloaders fall behind (simulated).

Imbue (2024): hosts whose CPUs ran capped at 2 GHz.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import CPUCap
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="cpu-capped",
    summary="Three hosts' CPUs are capped at 1.9 GHz; their dataloaders fall behind",
    hosts=32,
    start=START,
    faults=lambda rng, c: [CPUCap(pick(rng, c, 3), onset(rng, c))],
    cause=cause(["cpu_freq", "dataloader_time"]),
    source="Imbue (2024): hosts whose CPUs ran capped at 2 GHz.",
)
SCENARIO = FLEET.as_scenario()
