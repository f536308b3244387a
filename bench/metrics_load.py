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
after the imports, for every method.
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


if __name__ == "__main__":
    main()
