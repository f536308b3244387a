"""Benchmark: pulling a window of series out of a real Prometheus.

    python -m bench.prometheus_pull [--repeat 3] [--folder DIR]

The full-scale SmolLM3 folder (48 nodes x 8 GPUs, 24 h at 15 s) is generated once by the
simulator into out/bench/ unless --folder names one; it is exported to OpenMetrics and
backfilled by promtool once into out/bench/prometheus-pull/. Debian's prometheus is
started over that TSDB on a free loopback port for the run and stopped by its PID.

For the 2-hour and the 24-hour window, at the data's 15 s step, the same series are
pulled by:

  incidentbook      PrometheusSource.query_range(): POST, Accept-Encoding: identity,
                    the JSON cut into series on its text and parsed by polars
  incidentbook x4   the same, the window split into 4 chunks fetched concurrently
                    (what max_points does when a window exceeds 11,000 points a series)
  pac               prometheus-api-client: PrometheusConnect.custom_query_range() and
                    MetricRangeDataFrame, as its README shows (requests' default gzip)
  pac identity      the same with an `Accept-Encoding: identity` header

Queries: `DCGM_FI_DEV_GPU_UTIL` raw (384 series, one per GPU) and the gpu_util signal's
`min by (node) (DCGM_FI_DEV_GPU_UTIL)` (48 series, aggregated on the server). Each
measurement runs in a fresh process (imports before the clock starts), so its peak
memory is its own (VmHWM: ru_maxrss carries the parent's peak over into a child);
medians of --repeat runs; ratios from the same run.

At 15 s a 24-hour window is 5,760 points a series, under Prometheus' 11,000 (about 45 h
at 15 s), so neither client needs to chunk it; the x4 rows show what chunking costs or
saves when it is needed.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

from bench.common import bench_window

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "out" / "bench" / "prometheus-pull"
STEP = 15
QUERIES = {
    "raw": "DCGM_FI_DEV_GPU_UTIL",
    "by node": "min by (node) (DCGM_FI_DEV_GPU_UTIL)",
}
METHODS = ("incidentbook", "incidentbook x4", "pac", "pac identity")


_window = bench_window


def _mib(field: str) -> float:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return int(status[field].split()[0]) / 1024


def _peak_mib() -> float:
    """This process's own peak resident memory. VmHWM, not ru_maxrss: Linux carries
    ru_maxrss over from the parent through fork and exec, so a worker started by a parent
    that once held a big export would report the parent's peak."""
    return max(_mib("VmHWM"), 0.0)


def _work(method: str, url: str, folder: Path, hours: float, query: str) -> dict:
    """One measurement, inside a fresh worker process; imports before the clock."""
    window = _window(folder, hours)
    expr = QUERIES[query]
    if method.startswith("incidentbook"):
        from incidentbook.sources.prometheus import PrometheusSource

        points = int(window.duration.total_seconds() // STEP)
        max_points = math.ceil(points / 4) if method.endswith("x4") else 11_000
        source = PrometheusSource("prometheus+" + url, max_points=max_points, concurrency=4)
        before = _mib("VmRSS")
        began = time.perf_counter()
        frame = source.query_range(expr, window, STEP)
        samples = frame.height
    else:
        from prometheus_api_client import MetricRangeDataFrame, PrometheusConnect

        headers = {"Accept-Encoding": "identity"} if method.endswith("identity") else None
        client = PrometheusConnect(url, headers=headers, disable_ssl=True)
        before = _mib("VmRSS")
        began = time.perf_counter()
        # The same evaluation times as the half-open window [start, end) at 15 s.
        data = client.custom_query_range(
            expr, window.start, window.end - timedelta(seconds=STEP), f"{STEP}s"
        )
        frame = MetricRangeDataFrame(data)
        samples = len(frame)
    seconds = time.perf_counter() - began
    peak = _peak_mib()
    return {"seconds": seconds, "samples": samples, "peak_mib": peak, "work_mib": peak - before}


def _measure(method: str, url: str, folder: Path, hours: float, query: str) -> dict:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.prometheus_pull",
            "--worker",
            method,
            url,
            str(folder),
            str(hours),
            query,
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"worker {method} {hours}h {query} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- the server ------------------------------------------------------------------------------


def _folder(given: Path | None) -> Path:
    if given:
        return given
    folder = REPO / "out" / "bench" / "smollm3-storage-full"
    if not (folder / "truth.json").exists():
        from incidentbook.scenarios.simulator import synthesize

        print(f"generating the full-scale folder into {folder} (once) ...", file=sys.stderr)
        synthesize("smollm3-storage", folder, scale="full", seed=0)
    return folder


def _backfilled(folder: Path) -> Path:
    """The folder's samples in a Prometheus TSDB (export and promtool once)."""
    from incidentbook.outputs.export import export_openmetrics

    tsdb, stamp = WORK / "tsdb", WORK / "backfilled.json"
    source = {"folder": str(folder.resolve()), "mtime": (folder / "truth.json").stat().st_mtime}
    if stamp.exists() and json.loads(stamp.read_text()).get("source") == source:
        return tsdb
    WORK.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(tsdb, ignore_errors=True)
    print(f"exporting {folder} to OpenMetrics and backfilling (once) ...", file=sys.stderr)
    began = time.perf_counter()
    path, samples = export_openmetrics(folder, WORK / "metrics.om")
    exported = time.perf_counter() - began
    done = subprocess.run(
        ["promtool", "tsdb", "create-blocks-from", "openmetrics", str(path), str(tsdb)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"promtool failed: {done.stderr[-2000:]}")
    path.unlink()  # the TSDB is what the runs need; the text is ~1 GB
    stamp.write_text(json.dumps({"source": source, "samples": samples}))
    print(
        f"  {samples:,} samples: export {exported:.1f} s, "
        f"backfill {time.perf_counter() - began - exported:.1f} s",
        file=sys.stderr,
    )
    return tsdb


def _start_prometheus(tsdb: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = WORK / "prometheus.yml"
    config.write_text("global:\n  scrape_interval: 15s\nscrape_configs: []\n")
    log = (WORK / "prometheus.log").open("wb")
    process = subprocess.Popen(
        [
            "prometheus",
            f"--config.file={config}",
            f"--storage.tsdb.path={tsdb}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--storage.tsdb.retention.time=100y",
            "--log.level=warn",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=WORK,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"prometheus exited with {process.returncode}; see {log.name}")
        try:
            with urllib.request.urlopen(url + "/-/ready", timeout=2) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            pass
        time.sleep(0.1)
    process.terminate()
    raise SystemExit(f"prometheus not ready after 60 s; see {log.name}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- main ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        method, url, folder, hours, query = args.worker
        print(json.dumps(_work(method, url, Path(folder), float(hours), query)))
        return

    folder = _folder(args.folder)
    tsdb = _backfilled(folder)
    process, url = _start_prometheus(tsdb)
    try:
        results = {}
        print(f"Prometheus {url} over {tsdb}; step {STEP} s; medians of {args.repeat} runs")
        print(
            f"{'window':>6} {'query':<8} {'method':<16} {'median s':>9} {'samples/s':>11} "
            f"{'peak MiB':>9} {'work MiB':>9} {'samples':>10}"
        )
        for hours in (2.0, 24.0):
            for query in QUERIES:
                for method in METHODS:
                    runs = [_measure(method, url, folder, hours, query) for _ in range(args.repeat)]
                    med = {
                        k: statistics.median(r[k] for r in runs)
                        for k in ("seconds", "peak_mib", "work_mib")
                    }
                    med["samples"] = runs[0]["samples"]
                    results[hours, query, method] = med
                    print(
                        f"{hours:>5.0f}h {query:<8} {method:<16} {med['seconds']:>9.3f} "
                        f"{med['samples'] / med['seconds']:>11,.0f} {med['peak_mib']:>9.0f} "
                        f"{med['work_mib']:>9.0f} {med['samples']:>10,}"
                    )
        print()
        for hours in (2.0, 24.0):
            for query in QUERIES:
                ours = results[hours, query, "incidentbook"]
                counts = {results[hours, query, m]["samples"] for m in METHODS}
                same = "same samples" if len(counts) == 1 else f"SAMPLE COUNTS DIFFER {counts}"
                for other in ("pac", "pac identity"):
                    theirs = results[hours, query, other]
                    print(
                        f"{hours:.0f}h {query}: {other}/incidentbook "
                        f"time {theirs['seconds'] / ours['seconds']:.1f}x, "
                        f"peak memory {theirs['peak_mib'] / ours['peak_mib']:.1f}x, "
                        f"working memory {theirs['work_mib'] / max(ours['work_mib'], 1):.1f}x "
                        f"({same})"
                    )
        print(
            "samples/s: samples in the frame per second, request to frame in hand; peak MiB: "
            "the process's peak resident memory; work MiB: that peak minus the memory after "
            "imports"
        )
    finally:
        _stop(process)


if __name__ == "__main__":
    main()
