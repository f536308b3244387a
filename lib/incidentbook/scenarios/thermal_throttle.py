"""Two hosts of 32 lose cooling: their GPUs clock down and the job slows (simulated).

Llama 3 (Meta, 2024) counts thermal slowdowns among its interruptions; hosts that lose a
fan or a cold plate run hot and clock down.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import CoolingLoss
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="thermal-throttle",
    summary="Two hosts of 32 lose cooling: their GPUs clock down and the job slows",
    hosts=32,
    start=START,
    faults=lambda rng, c: [CoolingLoss(pick(rng, c, 2), onset(rng, c))],
    cause=cause(["gpu_temp", "memory_temp", "clocks_thermal", "thermal_violation", "sm_clock"]),
    source=(
        "Llama 3 (Meta, 2024) counts thermal slowdowns among its interruptions; hosts "
        "that lose a fan or a cold plate run hot and clock down."
    ),
)
SCENARIO = FLEET.as_scenario()
