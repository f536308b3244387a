"""Checkpoints to a slow shared filesystem stall training for 3 minutes every 45 (simulated).

OPT-175B's logbook and MegaScale (ByteDance, 2024): saving checkpoints to shared storage
stalls training.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import CheckpointStalls
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset

FLEET = FleetScenario(
    name="checkpoint-stalls",
    summary="Checkpoints to a slow shared filesystem stall training for 3 minutes every 45",
    hosts=32,
    start=START,
    faults=lambda rng, c: [CheckpointStalls(onset(rng, c, 0.25, 0.35))],
    cause=cause(
        ["disk_write_latency", "checkpoint_time", "disk_io_time", "cpu_iowait"], hosts=False
    ),
    source=(
        "OPT-175B's logbook and MegaScale (ByteDance, 2024): saving checkpoints to shared"
        " storage stalls training."
    ),
)
SCENARIO = FLEET.as_scenario()
