"""The scenario scoreboard: every simulated incident kind, analysed and scored.

Run from the repository root::

    python -m bench.scenarios [--scale small|full] [--seeds 0,1,2] [--only NAME ...] [--json]

For every scenario of the simulator that writes a `cause` into its truth.json (the fleet
scenarios: thermal throttling, one slow GPU, checkpoint stalls, a flapping port, row
remaps then a crash, a PCIe link training down, NVLink errors, OOM kills, capped CPUs,
power capping, fabric congestion, a quiet day and a noisy but healthy day), the folder is
generated once per (scale, seed) into out/bench/scenarios/, investigated as `analyze`
does, and scored by incidentbook.scenarios.scoring: verdict's cause right (top-1), hosts
precision and recall, the GPU, onset error, findings on the quiet days. One setting for
every scenario; nothing here is tuned to them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bench.common import BENCH
from incidentbook.investigation import investigate
from incidentbook.scenarios.scoring import Score, score
from incidentbook.scenarios.simulator import SCENARIOS, synthesize


def scored_scenarios() -> list[str]:
    """The scenarios that say what an analysis should find (truth.json's `cause`)."""
    return [name for name in sorted(SCENARIOS.names()) if SCENARIOS[name].scored]


def folder_of(name: str, scale: str, seed: int) -> Path:
    folder = BENCH / "scenarios" / f"{name}-{scale}-{seed}"
    if not (folder / "truth.json").exists():
        synthesize(name, folder, scale=scale, seed=seed)
    return folder


def run(names: list[str], scale: str, seeds: list[int]) -> list[dict]:
    rows = []
    for seed in seeds:
        for name in names:
            folder = folder_of(name, scale, seed)
            t0 = time.perf_counter()
            inv = investigate(folder)
            verdict = inv.verdict
            seconds = time.perf_counter() - t0
            truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
            s = score(truth, verdict, inv.findings, inv.spec.primary_signal)
            rows.append({**s.as_dict(), "seed": seed, "seconds": round(seconds, 2)})
            print(f"  {name} seed {seed}: {'right' if s.cause_ok else 'WRONG'}", file=sys.stderr)
    return rows


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def render(rows: list[dict]) -> str:
    head = (
        f"{'scenario':20s} {'seed':>4s} {'cause':>5s} {'named':22s} {'host P':>6s} "
        f"{'host R':>6s} {'gpu':>4s} {'onset':>7s} {'conf':>5s} {'findings':>8s} {'s':>5s}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        onset = "-" if r["onset_error_min"] is None else f"{r['onset_error_min']:+.1f}m"
        gpu = "-" if r["gpu_ok"] is None else ("yes" if r["gpu_ok"] else "no")
        findings = f"{r['findings']}" + (f"/{r['primary_findings']}p" if r["quiet"] else "")
        lines.append(
            f"{r['scenario']:20s} {r['seed']:>4d} {'yes' if r['cause_ok'] else 'NO':>5s} "
            f"{str(r['cause'])[:22]:22s} {_pct(r['host_precision']):>6s} "
            f"{_pct(r['host_recall']):>6s} {gpu:>4s} {onset:>7s} {r['confidence']:>5.2f} "
            f"{findings:>8s} {r['seconds']:>5.1f}"
        )
    faults = [r for r in rows if not r["quiet"]]
    quiet = [r for r in rows if r["quiet"]]
    right = sum(r["cause_ok"] for r in faults)
    precision = [r["host_precision"] for r in faults if r["host_precision"] is not None]
    recall = [r["host_recall"] for r in faults if r["host_recall"] is not None]
    onsets = [abs(r["onset_error_min"]) for r in faults if r["onset_error_min"] is not None]
    gpus = [r["gpu_ok"] for r in faults if r["gpu_ok"] is not None]
    lines += [
        "",
        f"cause right (top-1): {right} of {len(faults)}",
        f"hosts: precision {statistics.mean(precision):.2f}, recall {statistics.mean(recall):.2f}"
        if precision
        else "hosts: -",
        f"GPU named: {sum(gpus)} of {len(gpus)}" if gpus else "GPU named: -",
        f"onset error: median {statistics.median(onsets):.1f} min, worst {max(onsets):.1f} min"
        if onsets
        else "onset error: -",
        f"quiet days: {sum(r['cause_ok'] for r in quiet)} of {len(quiet)} clean, "
        f"{sum(r['findings'] for r in quiet)} findings in all, "
        f"{sum(r['primary_findings'] for r in quiet)} on the primary signal",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scenarios", description=__doc__)
    parser.add_argument("--scale", choices=("small", "full"), default="small")
    parser.add_argument("--seeds", default="0", help="comma-separated seeds (default 0)")
    parser.add_argument("--only", nargs="*", help="scenario names (default: all scored ones)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = args.only or scored_scenarios()
    rows = run(names, args.scale, [int(s) for s in args.seeds.split(",")])
    print(json.dumps(rows, indent=2, default=str) if args.json else render(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Score", "main", "render", "run", "scored_scenarios"]
