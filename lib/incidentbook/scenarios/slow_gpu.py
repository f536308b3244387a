"""One GPU of 384 runs 7% slow with no error; the job loses about 5% (simulated).

BLOOM-176B chronicles, April 2022: one slow GPU held back 384, found by bisecting nodes
with sbatch --exclude.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import SlowGPU
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="slow-gpu",
    summary="One GPU of 384 runs 7% slow with no error; the job loses about 5%",
    hosts=48,
    start=START,
    faults=lambda rng, c: [
        SlowGPU(pick(rng, c, 1)[0], int(rng.integers(0, 8)), onset(rng, c), slowness=0.93)
    ],
    cause=cause(["tensor_active", "gpu_power", "gpu_temp", "memory_temp", "sm_clock"], gpu=True),
    source=(
        "BLOOM-176B chronicles, April 2022: one slow GPU held back 384, found by "
        "bisecting nodes with sbatch --exclude."
    ),
)
SCENARIO = FLEET.as_scenario()
