"""One InfiniBand port drops to half its lanes and stays up; the job slows a few percent
(simulated).

Llama 3 (2024) and Imbue (2024): InfiniBand links that degrade rather than fail, and the
stragglers a slow rail makes of a synchronous job.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import LinkWidthReduced
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="ib-link-width",
    summary="One InfiniBand port drops to half its lanes and stays up; the job slows a few percent",
    hosts=32,
    start=START,
    faults=lambda rng, c: [
        LinkWidthReduced(pick(rng, c, 1)[0], int(rng.integers(0, 8)), onset(rng, c))
    ],
    cause=cause(["ib_link_rate", "ib_symbol_errors"]),
    source=(
        "Llama 3 (2024) and Imbue (2024): InfiniBand links that degrade rather than fail,"
        " and the stragglers a slow rail makes of a synchronous job."
    ),
)
SCENARIO = FLEET.as_scenario()
