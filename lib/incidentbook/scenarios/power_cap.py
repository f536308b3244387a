"""Two hosts' GPUs get a 400 W power limit: busy GPUs clock down (simulated).

MegaScale (2024) and Llama 3 (2024): power limits and clock changes that slow training.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import PowerCap
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="power-cap",
    summary="Two hosts' GPUs get a 400 W power limit: busy GPUs clock down",
    hosts=32,
    start=START,
    faults=lambda rng, c: [PowerCap(pick(rng, c, 2), onset(rng, c))],
    cause=cause(["clocks_power", "power_violation", "gpu_power", "sm_clock"]),
    source=(
        "MegaScale (2024) and Llama 3 (2024): power limits and clock changes that slow training."
    ),
)
SCENARIO = FLEET.as_scenario()
