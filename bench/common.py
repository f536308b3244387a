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
        from incidentbook.scenarios.simulator import synthesize

        print(f"generating the full-scale folder into {folder} (once) ...", file=sys.stderr)
        synthesize(scenario, folder, scale="full", seed=0)
    return folder


def bench_window(folder: Path, hours: float):
    """The incident's whole window for 24 h and more, else `hours` from three hours in."""
    from datetime import timedelta

    from incidentbook.incident import IncidentFolder
    from incidentbook.window import TimeWindow

    spec = IncidentFolder(folder).spec
    if hours >= 24:
        return spec.window
    start = spec.window.start + timedelta(hours=3)
    return TimeWindow(start=start, end=start + timedelta(hours=hours))


def scored_main(
    argv: list[str] | None,
    *,
    prog: str,
    description: str,
    default_data: Path,
    what: str,
    evaluate,
    render,
    missing: type[Exception],
) -> int:
    """The command line of a scoring benchmark: --data, --json, exit 2 on missing data."""
    import argparse
    import json

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "--data", type=Path, default=default_data, help=f"{what} folder (default {default_data})"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    try:
        result = evaluate(args.data)
    except missing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0
