"""Benchmark: the workbook end to end, and batch regeneration.

    python -m bench.workbook [--repeat 3] [--no-full] [--copies 6]

1. `incidentbook run` on the small bundled incidents and on the full-scale ones (generated
   once into out/bench/), split by where the time goes. Wall time is the whole command;
   the cells' own durations come from papermill's metadata in the executed notebook;
   what is left over is Python, papermill and the kernel starting ("overhead"). The
   executed notebook's size is printed beside it.
2. `incidentbook regen` of several copies of the small SmolLM3 incident, sequential
   beside -j 2: what a fresh kernel per notebook costs in a batch.
Medians of --repeat runs for the small cases, one run for the full-scale ones.
Goals 1 and 4 of issue 14 go to the goals table (bench.goals): the bundled incident's
wall time; the full-scale SmolLM3 run beyond the start (the small run's overhead: the
same Python, papermill and kernel start); and regen's cost per incident beyond its own
cells' work with kept kernels.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import yaml

from bench.common import BENCH, REPO, full_scale
from bench.goals import report_goal

EXE = Path(sys.executable).with_name("incidentbook")

STAGES = {
    "load+analysis": ("wb.load",),
    "charts": ("wb.chart(", "wb.more_charts(", "charts.", "wb.host_heatmaps"),
    "record+write": ("record = wb.draft", "outputs = wb.write"),
}


def _seconds(cell: dict) -> float:
    """A code cell's duration: papermill's, or else nbclient's timing (kept kernels run
    the notebook through nbclient alone)."""
    duration = cell["metadata"].get("papermill", {}).get("duration")
    if duration is not None:
        return duration
    timing = cell["metadata"].get("execution", {})
    began, ended = timing.get("iopub.status.busy"), timing.get("shell.execute_reply")
    if not (began and ended):
        return 0.0
    return (datetime.fromisoformat(ended) - datetime.fromisoformat(began)).total_seconds()


def cells_seconds(notebook: Path) -> float:
    """The time an executed notebook's code cells took, all together."""
    nb = json.loads(notebook.read_text())
    return sum(_seconds(c) for c in nb["cells"] if c["cell_type"] == "code")


def _cells(notebook: Path) -> dict[str, float]:
    nb = json.loads(notebook.read_text())
    out = {stage: 0.0 for stage in STAGES} | {"tables": 0.0}
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        duration = _seconds(cell)
        source = "".join(cell["source"])
        stage = next((s for s, keys in STAGES.items() if any(k in source for k in keys)), "tables")
        out[stage] += duration
    return out


def run_once(incident: Path, out: Path) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    began = time.perf_counter()
    subprocess.run(
        [str(EXE), "run", str(incident), "--out", str(out)], check=True, capture_output=True
    )
    wall = time.perf_counter() - began
    cells = _cells(out / "incident.ipynb")
    return {
        "wall": wall,
        **cells,
        "overhead": wall - sum(cells.values()),
        "notebook_kib": (out / "incident.ipynb").stat().st_size / 1024,
    }


def median_of(runs: list[dict]) -> dict:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def regen_copies(copies: int) -> Path:
    root = BENCH / "regen-src"
    shutil.rmtree(root, ignore_errors=True)
    for i in range(copies):
        target = root / f"smollm3-copy-{i}"
        shutil.copytree(REPO / "data" / "incidents" / "smollm3-storage", target)
        spec = yaml.safe_load((target / "incident.yaml").read_text())
        spec["id"] = f"smollm3-copy-{i}"
        (target / "incident.yaml").write_text(yaml.safe_dump(spec))
    return root


def regen_out(jobs: int, fresh: bool) -> Path:
    return BENCH / f"regen-out-j{jobs}-{'fresh' if fresh else 'kept'}"


def time_regen(source: Path, jobs: int, fresh: bool) -> float:
    out = regen_out(jobs, fresh)
    shutil.rmtree(out, ignore_errors=True)
    began = time.perf_counter()
    subprocess.run(
        [str(EXE), "regen", str(source), "--out", str(out), "-j", str(jobs)]
        + (["--fresh-kernels"] if fresh else []),
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - began


def regen_beyond_cells(wall: float, out: Path, copies: int) -> float:
    """Seconds per incident that regen spent outside the notebooks' own cells."""
    cells = sum(cells_seconds(nb) for nb in out.glob("*/incident.ipynb"))
    return (wall - cells) / copies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-full", action="store_true", help="skip the full-scale incidents")
    parser.add_argument("--copies", type=int, default=6)
    args = parser.parse_args()

    cases = [
        ("smollm3 small", REPO / "data" / "incidents" / "smollm3-storage", args.repeat),
        ("imbue small", REPO / "data" / "incidents" / "imbue-bringup", args.repeat),
    ]
    if not args.no_full:
        cases += [
            ("smollm3 full", full_scale("smollm3-storage"), 1),
            ("imbue full", full_scale("imbue-bringup"), 1),
        ]
    columns = ["wall", "overhead", "load+analysis", "charts", "record+write", "tables"]
    print(f"{'incident':<14}" + "".join(f"{c:>14}" for c in columns) + f"{'notebook KiB':>14}")
    medians = {}
    for name, folder, repeat in cases:
        runs = [run_once(folder, BENCH / "runs" / name.replace(" ", "-")) for _ in range(repeat)]
        m = medians[name] = median_of(runs)
        print(
            f"{name:<14}"
            + "".join(f"{m[c]:>13.2f}s" for c in columns)
            + f"{m['notebook_kib']:>14.0f}"
        )
    print("(seconds; overhead = Python, papermill and the kernel starting)")
    print()
    small = medians["smollm3 small"]
    report_goal(
        "1 run, bundled SmolLM3",
        "<= 4 s wall",
        f"{small['wall']:.1f} s",
        small["wall"] <= 4.0,
        f"median of {args.repeat}; overhead {small['overhead']:.1f} s, "
        f"cells {small['wall'] - small['overhead']:.1f} s",
    )
    if "smollm3 full" in medians:
        beyond = medians["smollm3 full"]["wall"] - small["overhead"]
        report_goal(
            "1 run, full-scale SmolLM3",
            "<= start + 3 s",
            f"start + {beyond:.1f} s",
            beyond <= 3.0,
            f"one run, {medians['smollm3 full']['wall']:.1f} s wall; start = the small "
            "run's overhead",
        )
    source = regen_copies(args.copies)
    print(f"regen of {args.copies} small incidents (seconds, whole command):")
    print(f"{'kernels':<30}{'-j 1':>8}{'-j 2':>8}{'per incident, -j 1':>22}")
    results = {}
    for fresh in (True, False):
        label = "fresh per notebook (papermill)" if fresh else "one kept per worker"
        one, two = time_regen(source, 1, fresh), time_regen(source, 2, fresh)
        results[fresh] = (one, two)
        print(f"{label:<30}{one:>8.1f}{two:>8.1f}{one / args.copies:>22.1f}")
    (f1, f2), (k1, k2) = results[True], results[False]
    print(
        f"kept kernels vs fresh: {f1 / k1:.2f}x at -j 1, {f2 / k2:.2f}x at -j 2; "
        f"-j 2 vs -j 1: {f1 / f2:.2f}x fresh, {k1 / k2:.2f}x kept"
    )
    beyond = regen_beyond_cells(k1, regen_out(1, False), args.copies)
    print(f"kept kernels, -j 1: {beyond:.2f} s per incident beyond its own cells' work")
    report_goal(
        "4 regen beyond the cells",
        "<= 1 s per small incident",
        f"{beyond:.2f} s",
        beyond <= 1.0,
        f"kept kernels, -j 1, {args.copies} copies of the bundled SmolLM3",
    )


if __name__ == "__main__":
    main()
