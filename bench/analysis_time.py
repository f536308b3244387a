"""Benchmark: `incidentbook analyze --json` end to end on full-scale folders, against
another checkout in the same run.

    python -m bench.analysis_time [--against DIR] [--repeat 3] [--folder DIR ...]

Each run is a fresh process (`DIR/.venv/bin/incidentbook analyze FOLDER --json`), timed
wall-clock, so it includes the imports,
loading every signal of the pack, the logs, the analysis and the diagnosis: what a user
waits for. `--against` names a checkout of an earlier version with its own .venv (the
issue's "today's"); both are run on the same folders, interleaved, and the table gives
medians and the ratio. Folders default to the full-scale SmolLM3 and Imbue folders, made
once by the simulator into out/bench/.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.common import REPO, full_scale


def run_once(checkout: Path, folder: Path) -> float:
    """Wall seconds of one analyze run."""
    exe = checkout / ".venv" / "bin" / "incidentbook"
    began = time.perf_counter()
    done = subprocess.run(
        [str(exe), "analyze", str(folder), "--json"],
        capture_output=True,
        text=True,
        cwd=checkout,
    )
    wall = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"{exe} analyze {folder} failed:\n{done.stderr[-2000:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="an earlier checkout with its own .venv")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path, action="append")
    args = parser.parse_args()
    folders = args.folder or [full_scale("smollm3-storage"), full_scale("imbue-bringup")]
    checkouts = {"this": REPO} | ({"against": args.against.resolve()} if args.against else {})
    times: dict[tuple[str, str], list[float]] = {}
    for folder in folders:
        for _ in range(args.repeat):
            for name, checkout in checkouts.items():
                wall = run_once(checkout, folder)
                times.setdefault((folder.name, name), []).append(wall)
                print(f"  {folder.name} {name}: {wall:.1f} s", file=sys.stderr)
    print(f"\nincidentbook analyze --json, medians of {args.repeat} fresh runs")
    head = f"{'folder':<28} {'this':>9}"
    if args.against:
        head += f" {'against':>9} {'ratio':>7}"
    print(head)
    for folder in folders:
        this = statistics.median(times[(folder.name, "this")])
        line = f"{folder.name:<28} {this:>8.1f}s"
        if args.against:
            other = statistics.median(times[(folder.name, "against")])
            line += f" {other:>8.1f}s {this / other:>6.2f}x"
        print(line)
    if args.against:
        print(f"(against: {args.against})")


if __name__ == "__main__":
    main()
