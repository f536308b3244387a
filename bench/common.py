"""What the benchmarks share: the repository's place and the full-scale folders."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "out" / "bench"


def full_scale(scenario: str) -> Path:
    """The full-scale folder of a scenario, generated into out/bench/ the first time."""
    folder = BENCH / f"{scenario}-full"
    if not (folder / "truth.json").exists():
        from incidentbook.synth import synthesize

        print(f"generating the full-scale folder into {folder} (once) ...", file=sys.stderr)
        synthesize(scenario, folder, scale="full", seed=0)
    return folder
