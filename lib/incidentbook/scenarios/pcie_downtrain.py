"""A GPU's PCIe link retrains from x16 to x4 mid-run; the job slows a few percent (simulated).

Imbue (2024): GPUs whose PCIe links trained down to x4.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import PCIeDowntrain
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="pcie-downtrain",
    summary="A GPU's PCIe link retrains from x16 to x4 mid-run; the job slows a few percent",
    hosts=32,
    start=START,
    faults=lambda rng, c: [
        PCIeDowntrain(pick(rng, c, 1)[0], int(rng.integers(0, 8)), onset(rng, c))
    ],
    cause=cause(["pcie_link_width", "pcie_replays", "pcie_link_gen"], gpu=True),
    source="Imbue (2024): GPUs whose PCIe links trained down to x4.",
)
SCENARIO = FLEET.as_scenario()
