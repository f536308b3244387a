"""One InfiniBand port flaps; NCCL's watchdog kills the job, which restarts (simulated).

Imbue (2024) and Llama 3 (2024): flapping InfiniBand ports and the NCCL timeouts they cause.
"""

from __future__ import annotations

from incidentbook.scenarios.fleet.faults import PortFlap
from incidentbook.scenarios.fleet.scenario import START, FleetScenario, cause, onset, pick

FLEET = FleetScenario(
    name="ib-port-flap",
    summary="One InfiniBand port flaps; NCCL's watchdog kills the job, which restarts",
    hosts=32,
    start=START,
    faults=lambda rng, c: [
        PortFlap(pick(rng, c, 1)[0], int(rng.integers(0, 8)), onset(rng, c, 0.25, 0.35))
    ],
    cause=cause(["ib_port_errors", "ib_symbol_errors", "ib_rx_errors", "ib_port_state"]),
    source=(
        "Imbue (2024) and Llama 3 (2024): flapping InfiniBand ports and the NCCL timeouts"
        " they cause."
    ),
)
SCENARIO = FLEET.as_scenario()
