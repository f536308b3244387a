"""Benchmark: incident folders built by people who never saw the code, analysed and scored.

    python -m bench.blind_incidents [--only ID ...] [--regenerate] [--json]

Each generator in bench/blind/ was written by a helper given only the README's contract
(the incident folder, its metrics and logs) and the format specimens: a job of 16 to 24
hosts with one fault of its own choosing, real exporters' metric names and labels in its
own layout (CSV, Parquet, OpenMetrics, per-host files), logs as real machines write them
with the fault's lines copied from public threads (each source is in the folder's
truth.yaml), and a truth.yaml saying what a good postmortem concludes. Each was run once
through `analyze` before anyone read it; what it showed was fixed in the code, not in
the folder, and the folders are kept here as they were written.

Every folder is generated once into out/bench/blind/<id>/ (fixed seeds) and investigated
as `analyze` does. Scored against its truth.yaml:

  cause   the verdict's signal reads one of the truth's cause metrics, or its signature
          matches one of the truth's fault lines; on a folder with no fault, no cause
  hosts   the verdict's hosts are the truth's hosts, no more and no fewer
  gpu     the GPU index, where the truth names one
  onset   minutes between the verdict's onset and the truth's
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

import yaml

from bench.common import BENCH

GENERATORS = Path(__file__).parent / "blind"
WORK = BENCH / "blind"


@dataclass
class Scored:
    id: str
    cause: str | None
    hosts: list[str]
    cause_right: bool
    hosts_right: bool
    gpu_right: bool | None  # None: the truth names no GPU
    onset_minutes: float | None
    seconds: float


def _ids() -> list[str]:
    return sorted(p.stem.removeprefix("make_") for p in GENERATORS.glob("make_*.py"))


def generate(incident: str, again: bool = False) -> Path:
    """The folder of one generator, written once (its generator runs where it lies)."""
    folder = WORK / incident
    if (folder / "truth.yaml").exists() and not again:
        return folder
    WORK.mkdir(parents=True, exist_ok=True)
    for script in GENERATORS.glob("*.py"):
        shutil.copy(script, WORK / script.name)
    subprocess.run(
        [sys.executable, str(WORK / f"make_{incident}.py")],
        cwd=WORK,
        check=True,
        capture_output=True,
    )
    return folder


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _signatures_of(lines: list[str]) -> set[str]:
    import polars as pl

    from incidentbook.logs.signatures import load_catalog, match

    if not lines:
        return set()
    got = match(pl.DataFrame({"message": lines}), load_catalog())
    out = set()
    for sig, xid in got.select("signature", "xid").iter_rows():
        if sig:
            out.add(sig)
            if xid is not None:
                out.add(f"{sig}:{xid}")
                out.add(f"nvidia-xid:{xid}")
    return out


def _utc(text) -> datetime | None:
    if text in (None, ""):
        return None
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


def score(incident: str, folder: Path) -> Scored:
    from incidentbook.investigation import investigate
    from incidentbook.metrics.signals import load_pack

    truth = yaml.safe_load((folder / "truth.yaml").read_text())
    began = time.perf_counter()
    # the metrics and the logs together, as `analyze` judges them
    verdict = investigate(folder).diagnosis.verdict
    seconds = time.perf_counter() - began
    cause, hosts = verdict["cause"], sorted(verdict["hosts"])
    wanted = sorted(truth.get("hosts") or [])
    metrics = " ".join(_strings(truth.get("cause_metrics")))
    if not wanted and not metrics:
        cause_right = cause is None
    elif cause is None:
        cause_right = False
    else:
        pack = load_pack()
        signal = pack.signals.get(cause)
        by_metric = signal is not None and any(m in metrics for m in signal.metrics)
        by_line = cause in _signatures_of(_strings(truth.get("cause_log_evidence")))
        cause_right = by_metric or by_line
    gpu = truth.get("gpu")
    gpu_right = None
    if isinstance(gpu, dict) and gpu.get("index") is not None:
        named = [g.split("/", 1)[1] for g in verdict["gpus"] if "/" in g]
        gpu_right = str(gpu["index"]) in named
    onset, true_onset = _utc(verdict["onset"]), _utc(truth.get("onset"))
    minutes = (
        abs((onset - true_onset).total_seconds()) / 60 if onset and true_onset and wanted else None
    )
    return Scored(incident, cause, hosts, cause_right, hosts == wanted, gpu_right, minutes, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", help="incident ids (default: all)")
    parser.add_argument("--regenerate", action="store_true", help="write the folders again")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = parser.parse_args()
    ids = args.only or _ids()
    unknown = sorted(set(ids) - set(_ids()))
    if unknown:
        parser.error(f"no generator for {', '.join(unknown)} in {GENERATORS}")
    results = []
    for n, incident in enumerate(ids, 1):
        print(f"[{n}/{len(ids)}] {incident}", file=sys.stderr, flush=True)
        results.append(score(incident, generate(incident, args.regenerate)))
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
        return
    print(f"{'incident':<40} {'cause':>5} {'hosts':>5} {'gpu':>4} {'onset':>7} {'s':>6}  verdict")
    for r in results:
        gpu = "-" if r.gpu_right is None else ("yes" if r.gpu_right else "no")
        onset = "-" if r.onset_minutes is None else f"{r.onset_minutes:.1f}m"
        named = f"{r.cause} {','.join(r.hosts)}" if r.cause else "no cause"
        print(
            f"{r.id:<40} {'yes' if r.cause_right else 'no':>5} "
            f"{'yes' if r.hosts_right else 'no':>5} {gpu:>4} {onset:>7} {r.seconds:>6.1f}  {named}"
        )
    right = sum(r.cause_right for r in results)
    hosts = sum(r.hosts_right for r in results)
    print(f"cause right {right} of {len(results)}; hosts right {hosts} of {len(results)}")


if __name__ == "__main__":
    main()
