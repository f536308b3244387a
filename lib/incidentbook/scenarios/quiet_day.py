"""A quiet day: the job runs as it should (simulated).

A control: what a healthy day looks like, so an analysis is seen to say nothing.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.scenario import START, FleetScenario

FLEET = FleetScenario(
    name="quiet-day",
    summary="A quiet day: the job runs as it should",
    hosts=32,
    start=START,
    faults=lambda rng, c: [],
    cause=lambda faults, c: None,
    source="A control: what a healthy day looks like, so an analysis is seen to say nothing.",
)
SCENARIO = FLEET.as_scenario()
