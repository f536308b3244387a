"""A host's NVLinks retry on CRC errors; intra-node all-reduce and the job slow (simulated).

Llama 3 (2024) lists NVLink among the GPU-side interruptions.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import NVLinkErrors
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="nvlink-errors",
    summary="A host's NVLinks retry on CRC errors; intra-node all-reduce and the job slow",
    hosts=32,
    start=START,
    faults=lambda rng, c: [NVLinkErrors(pick(rng, c, 1)[0], onset(rng, c))],
    cause=cause(["nvlink_errors", "nvlink_replays", "xid_errors"]),
    source="Llama 3 (2024) lists NVLink among the GPU-side interruptions.",
)
SCENARIO = FLEET.as_scenario()
