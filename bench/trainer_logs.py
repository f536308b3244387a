"""Benchmark: trainer-log parse speed (lines/s) and peak memory on 1M-line logs.

    python -m bench.trainer_logs [--lines 1000000] [--repeat 3]

Each log is a real excerpt from tests/data/trainer repeated with its iteration numbers
(and times, where the lines carry them) moved on, so the millionth line reads like the
first: Megatron-LM 2021 (untimed iteration lines among rank noise, dated from the
`datetime:` anchor), nanotron (every line an iteration line) and torchtitan (ANSI colours,
interleaved warnings). Each measurement runs in a fresh process: `parse` is
TrainerLogSource.rows (sniffing, reading, parsing, dating, deriving), peak memory the
process's ru_maxrss, `work` that peak minus the process's size before parsing. Medians
of --repeat runs.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from bench.common import BENCH, REPO

DATA = REPO / "tests" / "data" / "trainer"


def _megatron(lines: int) -> str:
    text = (DATA / "megatron_lm_2021_n8.log").read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(text) if "before the start of training" in line)
    head, block = "".join(text[: start + 1]), "".join(text[start + 1 :])
    per = block.count("\n")
    copies = []
    for k in range(max(1, (lines - start) // per)):
        shift = 200 * k
        copies.append(
            re.sub(r"iteration +(\d+)/", lambda m, s=shift: f"iteration {int(m[1]) + s:8d}/", block)
        )
    return head + "".join(copies)


def _timed_copies(name: str, lines: int, stamp: str, fmt: str, step: str) -> str:
    block = (DATA / name).read_text()
    per = block.count("\n")
    times = [datetime.strptime(m, fmt) for m in re.findall(stamp, block)]
    span = (max(times) - min(times)) + timedelta(seconds=5)
    steps = [int(s) for s in re.findall(step, block)]
    stride = max(steps) - min(steps) + 1
    out = []
    for k in range(lines // per):
        moved = re.sub(
            stamp,
            lambda m, k=k: (datetime.strptime(m[0], fmt) + span * k).strftime(fmt),
            block,
        )
        out.append(
            re.sub(step, lambda m, k=k: m[0].replace(m[1], str(int(m[1]) + stride * k)), moved)
        )
    return "".join(out)


LOGS = {
    "megatron": _megatron,
    "nanotron": lambda n: _timed_copies(
        "nanotron_tiny_llama_head.log",
        n,
        r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d",
        "%m/%d/%Y %H:%M:%S",
        r"iteration: (\d+) /",
    ),
    "torchtitan": lambda n: _timed_copies(
        "torchtitan_qwen3_10steps_ansi.log",
        n,
        r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d",
        "%Y-%m-%d %H:%M:%S",
        r"step:\s*(\d+)",
    ),
}


def _log(kind: str, lines: int) -> Path:
    path = BENCH / f"trainer-{kind}-{lines}.log"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        print(f"generating {path} (once) ...", file=sys.stderr)
        path.write_text(LOGS[kind](lines))
    return path


def _work(path: str) -> dict:
    import resource
    import time

    from incidentbook.incident import TrainerSpec
    from incidentbook.sources.trainer import TrainerLogSource
    from incidentbook.window import TimeWindow

    window = TimeWindow(start="2000-01-01T00:00:00Z", end="2040-01-01T00:00:00Z")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    began = time.perf_counter()
    rows, _ = TrainerLogSource([Path(path)], trainer=TrainerSpec()).rows(window)
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "rows": rows.height, "peak_mib": peak, "work_mib": peak - before}


def _measure(path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "bench.trainer_logs", "--worker", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import incidentbook.sources.trainer  # noqa: F401  (imports are not the parse)

        print(json.dumps(_work(args.worker)))
        return
    print(
        f"{'log':<11} {'lines':>10} {'MiB':>6} {'median s':>9} {'lines/s':>11} "
        f"{'rows':>9} {'peak MiB':>9} {'work MiB':>9}"
    )
    for kind in LOGS:
        path = _log(kind, args.lines)
        count = sum(1 for _ in path.open("rb"))
        runs = [_measure(path) for _ in range(args.repeat)]
        seconds = statistics.median(r["seconds"] for r in runs)
        print(
            f"{kind:<11} {count:>10,} {path.stat().st_size / 2**20:>6.0f} {seconds:>9.2f} "
            f"{count / seconds:>11,.0f} {runs[0]['rows']:>9,} "
            f"{statistics.median(r['peak_mib'] for r in runs):>9.0f} "
            f"{statistics.median(r['work_mib'] for r in runs):>9.0f}"
        )
    print(
        "lines/s: physical lines of the file over the median parse time (sniff, read, parse, "
        "date, derive); rows: dated iteration rows; peak MiB: the process's peak resident "
        "memory; work MiB: that peak minus the process before parsing"
    )


if __name__ == "__main__":
    main()
