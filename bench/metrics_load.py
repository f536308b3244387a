"""Benchmark: loading an incident window from the full-scale SmolLM3 folder.

    python -m bench.metrics_load [--repeat 5] [--folder DIR]

The folder (48 nodes x 8 GPUs, 24 h at 15 s) is generated once by the simulator into
out/bench/ unless --folder names one. Each measurement runs in a fresh process so its
peak memory (ru_maxrss) is its own. Compared, for the 2-hour and the 24-hour window:

  incidentbook   FolderSource.metrics(): lazy scans, window and metrics pushed down,
                 reduced to signals (what the workbook does)
  pandas         what a user does by hand: pd.read_parquet() every file whole, then
                 filter rows to the window and the wanted metrics
  + analysis     incidentbook's load followed by analyze() on the loaded signals

Prints medians and the pandas/incidentbook ratios, all from the same run. Times start
after the imports, for every method. Then the full-scale Imbue day (511 hosts, its whole
window): every signal of the pack loaded and analysed, the logs left out, timed and its
peak memory taken the same way (--no-imbue skips it). Goals 2 and 3 of issue 14 go to
the goals table (bench.goals).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.common import REPO, bench_window, full_scale
from bench.goals import report_goal

SIGNALS = [
    "throughput",
    "disk_read_latency",
    "fs_used_ratio",
    "gpu_util",
    "dataloader_time",
    "load",
]


_window = bench_window


def _rss_mib() -> float:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(status["VmRSS"].split()[0]) / 1024


def _work(kind: str, folder: Path, hours: float) -> dict:
    """One measurement, run inside a fresh worker process.

    Imports happen before the clock starts for every method (a notebook user has pandas
    or incidentbook imported already), so the times compare the work itself.
    """
    import pandas as pd

    from incidentbook.incident import IncidentFolder
    from incidentbook.metrics.analysis import analyze
    from incidentbook.metrics.signals import load_pack
    from incidentbook.sources.folder import FolderSource

    if kind == "day":
        return _day(folder)
    window = _window(folder, hours)
    pack = load_pack()
    wanted = [pack.get(n) for n in SIGNALS]
    before = _rss_mib()
    began = time.perf_counter()
    if kind == "pandas":
        metrics = {m for signal in wanted for m in signal.metrics}
        frames = [pd.read_parquet(p) for p in sorted((folder / "metrics").glob("*.parquet"))]
        whole = pd.concat(frames, ignore_index=True)
        ts = whole["timestamp"]
        rows = whole[(ts >= window.start) & (ts < window.end) & whole["metric"].isin(metrics)]
        count = len(rows)
    else:
        loaded = FolderSource(IncidentFolder(folder)).metrics(window, wanted)
        count = loaded.receipt.rows_read
        if kind == "analysis":
            analyze(loaded, {s.name: s for s in wanted}, "throughput")
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "rows": count, "peak_mib": peak, "work_mib": peak - before}


def _day(folder: Path) -> dict:
    """The whole window of a folder: every signal of its pack loaded and analysed."""
    from incidentbook.investigation import investigate

    before = _rss_mib()
    began = time.perf_counter()
    inv = investigate(folder, logs=False)
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = inv.metrics.receipt.rows_read
    return {"seconds": seconds, "rows": rows, "peak_mib": peak, "work_mib": peak - before}


def _measure(kind: str, folder: Path, hours: float) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "bench.metrics_load", "--worker", kind, str(hours), str(folder)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _folder(given: Path | None) -> Path:
    return given or full_scale("smollm3-storage")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--no-imbue", action="store_true", help="skip the full-scale Imbue day")
    parser.add_argument(
        "--worker", nargs=3, metavar=("KIND", "HOURS", "FOLDER"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.worker:
        kind, hours, folder = args.worker
        print(json.dumps(_work(kind, Path(folder), float(hours))))
        return

    folder = _folder(args.folder)
    size = sum(p.stat().st_size for p in (folder / "metrics").glob("*")) / 2**20
    print(f"folder: {folder} ({size:.0f} MiB of metrics files)")
    print(
        f"{'window':>7} {'method':<14} {'median s':>9} {'peak MiB':>9} {'work MiB':>9} {'rows':>11}"
    )
    results: dict[tuple[float, str], dict] = {}
    for hours in (2.0, 24.0):
        for kind in ("incidentbook", "pandas", "analysis"):
            runs = [_measure(kind, folder, hours) for _ in range(args.repeat)]
            median = {
                "seconds": statistics.median(r["seconds"] for r in runs),
                "peak_mib": statistics.median(r["peak_mib"] for r in runs),
                "work_mib": statistics.median(r["work_mib"] for r in runs),
                "rows": runs[0]["rows"],
            }
            results[hours, kind] = median
            label = "+ analysis" if kind == "analysis" else kind
            print(
                f"{hours:>6.0f}h {label:<14} {median['seconds']:>9.3f} "
                f"{median['peak_mib']:>9.0f} {median['work_mib']:>9.0f} {median['rows']:>11,}"
            )
    print()
    for hours in (2.0, 24.0):
        ours, theirs = results[hours, "incidentbook"], results[hours, "pandas"]
        print(
            f"{hours:.0f}h window: pandas/incidentbook "
            f"time {theirs['seconds'] / ours['seconds']:.1f}x, "
            f"peak memory {theirs['peak_mib'] / ours['peak_mib']:.1f}x, "
            f"working memory {theirs['work_mib'] / max(ours['work_mib'], 1):.1f}x"
        )
    print(
        "peak MiB: the process's peak resident memory; work MiB: that peak minus the "
        "memory after imports, i.e. what the load itself needed"
    )
    ours, theirs = results[24.0, "incidentbook"], results[24.0, "pandas"]
    ratio = theirs["seconds"] / ours["seconds"]
    report_goal(
        "3 24h window vs pandas",
        ">= 5x faster",
        f"{ratio:.1f}x ({ours['seconds']:.2f} s vs {theirs['seconds']:.2f} s)",
        ratio >= 5,
        f"{folder.name}, medians of {args.repeat}, same run",
    )
    if not args.no_imbue:
        _imbue_day(args.repeat)


def _imbue_day(repeat: int) -> None:
    folder = full_scale("imbue-bringup")
    runs = [_measure("day", folder, 24.0) for _ in range(max(1, min(repeat, 3)))]
    seconds = statistics.median(r["seconds"] for r in runs)
    peak = statistics.median(r["peak_mib"] for r in runs)
    print()
    print(
        f"full-scale Imbue day ({folder.name}, {runs[0]['rows']:,} rows read): "
        f"{seconds:.1f} s, peak {peak:.0f} MiB (median of {len(runs)}; metrics loaded and "
        "analysed, logs left out)"
    )
    report_goal(
        "2 full-scale Imbue day",
        "<= 10 s, <= 2 GiB peak",
        f"{seconds:.1f} s, {peak / 1024:.2f} GiB",
        seconds <= 10 and peak <= 2048,
        f"metrics of the whole window loaded and analysed, median of {len(runs)}",
    )


if __name__ == "__main__":
    main()
