"""Simulated incidents faithful to the library's cases, for tests and benchmarks.

simulator.py is the framework and `synthesize`; each scenario is a module
(smollm3_storage, imbue_bringup) with one Scenario, registered in SCENARIOS;
kernel_lines formats kernel messages as real hosts print them.
"""

from incidentbook.scenarios.simulator import SCENARIOS, Scenario, SynthError, synthesize

__all__ = ["SCENARIOS", "Scenario", "SynthError", "synthesize"]
