"""Goals the benchmarks measure, gathered for one summary table at the end of `make bench`.

Each benchmark that measures a goal calls `report_goal`; the line is appended to
out/bench/goals.jsonl (or $INCIDENTBOOK_BENCH_GOALS). `python -m bench.goals` prints the
table of the latest figure per goal, and `--reset` empties the file before a run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from bench.common import BENCH


def goals_path() -> Path:
    return Path(os.environ.get("INCIDENTBOOK_BENCH_GOALS", BENCH / "goals.jsonl"))


def report_goal(goal: str, target: str, figure: str, met: bool, note: str = "") -> None:
    """Record one goal's measured figure; the latest line for a goal wins in the table."""
    path = goals_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {"goal": goal, "target": target, "figure": figure, "met": met, "note": note}
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


def latest() -> list[dict]:
    path = goals_path()
    if not path.exists():
        return []
    by_goal: dict[str, dict] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.strip():
            entry = json.loads(raw)
            by_goal[entry["goal"]] = entry
    return list(by_goal.values())


def render(entries: list[dict]) -> str:
    if not entries:
        return "no goal was measured (run the benchmarks first: make bench)"
    rows = [("goal", "target", "measured", "met", "note")]
    rows += [
        (e["goal"], e["target"], e["figure"], "yes" if e["met"] else "NO", e["note"])
        for e in entries
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for row in rows:
        cells = [row[i].ljust(widths[i]) for i in range(4)]
        lines.append("  ".join([*cells, row[4]]).rstrip())
    lines.insert(1, "  ".join("-" * w for w in widths) + "  ----")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--reset" in args:
        goals_path().unlink(missing_ok=True)
        return 0
    print(render(latest()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
