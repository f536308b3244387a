"""Level shifts against annotated change points, scored as change-point benchmarks score them.

Run from the repository root::

    python -m bench.cpd [--data NAB_DIR] [--json]

(``python -m bench.nab`` prints this table too, after NAB's.)

Data, all real and annotated by people who are not on this project:

* TCPD, the Turing Change Point Dataset (van den Burg and Williams, "An Evaluation of
  Change Point Detection Algorithms", 2020; https://github.com/alan-turing-institute/TCPD,
  commit 83b3039): ``well_log`` (MIT), ``run_log`` (its pace column; MIT) and ``bank``
  (MIT; none of its five annotators marked a change), each with every annotator's change
  points, copied verbatim to ``bench/data/tcpd/`` (see its README). These are the TCPD
  series whose changes are changes of level in a signal without a long trend, as
  telemetry shows, and whose licence lets them be redistributed.
* NAB realAWSCloudwatch series whose every labelled anomaly is a change of level:
  ``ec2_cpu_utilization_ac20cd`` and ``rds_cpu_utilization_e47b3b``, with NAB's labelled
  points (``combined_labels.json``, one annotation set) as change points; read from
  ``shared/data/nab`` when it is there. NAB labels nothing in its probationary period
  (the first 15% of a file), so these series are scored from its end on.

Scoring (the F1 measure of TCPDBench, written from the paper's definition): a predicted
change point is a true positive for an annotated one within ``MARGIN`` (5) samples, each
prediction used at most once (the closest first); the series' first index counts as a
change point in every set, so that a method that reports nothing is defined; precision is
against the union of all annotators' points, recall is averaged over annotators, and F1 is
their harmonic mean. The summary is the mean F1 over series, as TCPDBench reports it.

Methods, each with one setting for every series:

* ``ours``: incidentbook.metrics.shifts.change_points (outliers clipped, PELT with an
  autocorrelation-aware modified BIC penalty, boundaries pruned by a two-segment test whose
  standard error accounts for autocorrelation), min_size 5 samples.
* ``zero``: no change points.
* ``binseg``: binary segmentation (ruptures.Binseg, l2 cost) with the modified-BIC penalty
  3 log(n) sigma^2, sigma from the first differences (MAD / sqrt 2), no autocorrelation
  or outlier handling: the textbook default.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
import ruptures

from bench.common import scored_main
from incidentbook.metrics.departures import robust_scale
from incidentbook.metrics.shifts import change_points

REPO = Path(__file__).resolve().parents[1]
TCPD = REPO / "bench" / "data" / "tcpd"
SHARED = Path(os.environ.get("INCIDENTBOOK_SHARED", REPO.parent / "shared"))
DEFAULT_NAB = SHARED / "data" / "nab"
MARGIN = 5
TCPD_SERIES = {"well_log": "V1", "run_log": "Pace", "bank": "amount"}
NAB_SERIES = ("ec2_cpu_utilization_ac20cd", "rds_cpu_utilization_e47b3b")
METHODS = ("ours", "zero", "binseg")


# --- the measure ------------------------------------------------------------------------


def true_positives(truth: set[int], predicted: set[int], margin: int = MARGIN) -> int:
    """Annotated points with a prediction within margin; each prediction used once."""
    left = set(predicted)
    hits = 0
    for tau in sorted(truth):
        near = sorted((abs(tau - x), x) for x in left if abs(tau - x) <= margin)
        if near:
            hits += 1
            left.discard(near[0][1])
    return hits


def f1(
    annotations: dict[str, list[int]], predicted: list[int], margin: int = MARGIN
) -> tuple[float, float, float]:
    """TCPDBench's F1, precision and recall for several annotators."""
    sets = [set(points) | {0} for points in annotations.values()]
    x = set(predicted) | {0}
    union = set().union(*sets)
    precision = true_positives(union, x, margin) / len(x)
    recall = sum(true_positives(s, x, margin) / len(s) for s in sets) / len(sets)
    score = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return score, precision, recall


# --- methods ----------------------------------------------------------------------------


def binseg(y: np.ndarray) -> list[int]:
    """Binary segmentation, l2 cost, modified-BIC penalty on the first-difference noise."""
    sigma = robust_scale(np.diff(y), 0.0) / math.sqrt(2)
    cuts = (
        ruptures.Binseg(model="l2", min_size=2, jump=1)
        .fit(y)
        .predict(pen=3 * math.log(y.size) * sigma**2)
    )
    return [int(c) for c in cuts[:-1]]


def predict(method: str, y: np.ndarray) -> list[int]:
    if method == "ours":
        return change_points(y)
    if method == "zero":
        return []
    return binseg(y)


# --- data -------------------------------------------------------------------------------


def tcpd_series() -> list[dict]:
    annotations = json.loads((TCPD / "annotations.json").read_text())
    out = []
    for name, label in TCPD_SERIES.items():
        raw = json.loads((TCPD / f"{name}.json").read_text())
        column = next(s for s in raw["series"] if s["label"] == label)
        y = np.array([np.nan if v is None else v for v in column["raw"]], dtype=float)
        out.append(
            {"name": f"tcpd/{name}", "y": y, "annotations": annotations[name], "source": "TCPD"}
        )
    return out


def nab_series(data: Path) -> list[dict]:
    labels_file = data / "combined_labels.json"
    if not labels_file.exists():
        return []
    from bench.nab import load_series
    from bench.nab_score import probation_length

    labels = json.loads(labels_file.read_text())
    out = []
    for name in NAB_SERIES:
        frame = load_series(data / "realAWSCloudwatch" / f"{name}.csv")
        # NAB labels nothing in its probationary period: score from its end
        frame = frame.slice(probation_length(frame.height))
        stamps = frame.get_column("ts").dt.strftime("%Y-%m-%d %H:%M:%S").to_list()
        index = {t: i for i, t in enumerate(stamps)}
        points = [index[t] for t in labels[f"realAWSCloudwatch/{name}.csv"]]
        out.append(
            {
                "name": f"nab/{name}",
                "y": frame.get_column("value").to_numpy(),
                "annotations": {"nab": points},
                "source": "NAB",
            }
        )
    return out


# --- the run ----------------------------------------------------------------------------


def evaluate(data: Path = DEFAULT_NAB) -> dict:
    started = time.perf_counter()
    series = tcpd_series() + nab_series(Path(data))
    rows = []
    for s in series:
        y = s["y"]
        y = y[np.isfinite(y)]  # TCPD marks missing values as null; none in these series
        row = {
            "name": s["name"],
            "points": int(y.size),
            "annotators": len(s["annotations"]),
            "annotated": sorted({p for pts in s["annotations"].values() for p in pts}),
        }
        for method in METHODS:
            found = predict(method, y)
            score, precision, recall = f1(s["annotations"], found)
            row[method] = {"f1": score, "precision": precision, "recall": recall, "cps": found}
        rows.append(row)
    summary = {m: float(np.mean([r[m]["f1"] for r in rows])) for m in METHODS}
    return {
        "margin": MARGIN,
        "series": rows,
        "mean_f1": summary,
        "nab_included": any(r["name"].startswith("nab/") for r in rows),
        "seconds": time.perf_counter() - started,
    }


def render(result: dict) -> str:
    head = f"{'series':38} {'n':>5} {'ann':>3}  " + "  ".join(f"{m:>7}" for m in METHODS)
    lines = [
        f"Change points, F1 with a margin of {result['margin']} samples (TCPDBench's measure)",
        "",
        head,
        "-" * len(head),
    ]
    for r in result["series"]:
        cells = "  ".join(f"{r[m]['f1']:7.3f}" for m in METHODS)
        lines.append(f"{r['name']:38} {r['points']:5d} {r['annotators']:3d}  {cells}")
    lines.append("-" * len(head))
    cells = "  ".join(f"{result['mean_f1'][m]:7.3f}" for m in METHODS)
    lines.append(f"{'mean F1':38} {'':5} {'':3}  {cells}")
    if not result["nab_included"]:
        lines.append("(NAB level-change series skipped: shared/data/nab not found)")
    lines.append(
        "ours = incidentbook.metrics.shifts.change_points; zero = no change points; "
        "binseg = binary segmentation, l2, penalty 3 log(n) sigma^2"
    )
    return "\n".join(lines)


class MissingData(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    return scored_main(
        argv,
        prog="python -m bench.cpd",
        description="Score level-shift reporting against annotated change points (TCPD, NAB).",
        default_data=DEFAULT_NAB,
        what="NAB",
        evaluate=evaluate,
        render=render,
        missing=MissingData,
    )


if __name__ == "__main__":
    sys.exit(main())
