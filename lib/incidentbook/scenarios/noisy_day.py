"""A noisy but healthy day: jitter, routine checkpoints, stray correctable errors (simulated).

A control: noise that costs nothing, which an analysis must not report as an incident.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import HealthyNoise
from incidentbook.scenarios.fleet.scenario import START, FleetScenario

FLEET = FleetScenario(
    name="noisy-day",
    summary="A noisy but healthy day: jitter, routine checkpoints, stray correctable errors",
    hosts=32,
    start=START,
    faults=lambda rng, c: [HealthyNoise()],
    cause=lambda faults, c: None,
    source=(
        "A control: noise that costs nothing, which an analysis must not report as an incident."
    ),
)
SCENARIO = FLEET.as_scenario()
