"""A neighbouring job congests the fabric in episodes; all-reduce slows everywhere (simulated).

MegaScale (2024): network congestion and the stragglers it makes.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import Congestion
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset


def congestion(rng, c) -> list[Congestion]:
    """Four episodes of 7 to 15 minutes, 40 minutes apart, from the first onset on."""
    first = onset(rng, c, 0.25, 0.35)
    spans = [(first + k * 2400, first + k * 2400 + float(rng.uniform(420, 900))) for k in range(4)]
    return [Congestion([(a, b) for a, b in spans if b < c.grid.seconds])]


FLEET = FleetScenario(
    name="fabric-congestion",
    summary="A neighbouring job congests the fabric in episodes; all-reduce slows everywhere",
    hosts=32,
    start=START,
    faults=lambda rng, c: congestion(rng, c),
    cause=cause(["ib_xmit_wait"], hosts=False),
    source="MegaScale (2024): network congestion and the stragglers it makes.",
)
SCENARIO = FLEET.as_scenario()
