"""A GPU's HBM fails: row remaps (Xid 63/64), then the job crashes (simulated).

Llama 3 (2024): HBM3 failures were 17% of the unexpected interruptions of its 54-day run.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import RowRemapCrash
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="row-remap-crash",
    summary="A GPU's HBM fails: row remaps (Xid 63/64), then the job crashes",
    hosts=32,
    start=START,
    faults=lambda rng, c: [
        RowRemapCrash(pick(rng, c, 1)[0], int(rng.integers(0, 8)), onset(rng, c, 0.3, 0.45))
    ],
    cause=cause(["row_remap", "row_remap_failure", "ecc_dbe", "xid_errors"], gpu=True),
    source=(
        "Llama 3 (2024): HBM3 failures were 17% of the unexpected interruptions of its 54-day run."
    ),
)
SCENARIO = FLEET.as_scenario()
