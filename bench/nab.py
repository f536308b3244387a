"""The spike/drop detector on real data: NAB's realAWSCloudwatch series.

Run from the repository root::

    python -m bench.nab [--data DIR] [--json]

Data: the Numenta Anomaly Benchmark (https://github.com/numenta/NAB, MIT licence), the 17
real AWS CloudWatch series of ``data/realAWSCloudwatch`` with NAB's labelled anomaly windows
(``labels/combined_windows.json``), copied to ``shared/data/nab`` (see its README). Nobody on
this project made or labelled them.

What runs, for every series that has at least one labelled window (one of the 17 has none
and is skipped):

* ``incidentbook.metrics.analysis.detect_intervals`` with ``bad="both"`` and ``DEFAULT_CONFIG``: the
  same settings for every series, nothing tuned to these files.
* The baseline is NAB's probationary period: the first 15% of the series' records (NAB's
  ``getProbationPeriod``: ``min(floor(0.15 * n), 0.15 * 5000)`` records), as the half-open
  window from the first timestamp to the timestamp of the first record after it.

Scoring (window-based in NAB's spirit, but simpler than NAB's sigmoid-weighted score):

* A detected interval is the half-open ``[start, end)`` the detector returns; a labelled
  window is NAB's closed ``[start, end]``. They overlap when
  ``interval.start <= window.end and interval.end > window.start``.
* Intervals that end at or before the end of the probationary period are ignored (neither
  true nor false positives), as NAB ignores detections there. An interval that straddles the
  end of the probationary period counts.
* A labelled window is detected (a true positive) when at least one counted interval
  overlaps it. recall = detected windows / labelled windows.
* A counted interval that overlaps no labelled window is a false positive.
  precision = intervals overlapping a window / counted intervals (undefined, shown as ``-``
  and ``null``, for a series with no counted interval).
* TOTAL is micro-averaged: the counts are summed over the series before dividing.

The numbers per series (windows, detected, intervals, false positives) are reported too, as
they do not depend on these conventions.

Chance baseline: for every series, as many random intervals as the detector counted, with
the same lengths, placed uniformly at random after the probationary period (numpy
``default_rng`` with a fixed seed, averaged over several draws), scored the same way. A
detector whose precision is no better than that is flagging at random.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl

from bench.common import scored_main
from incidentbook.metrics.analysis import DEFAULT_CONFIG, detect_intervals
from incidentbook.window import TimeWindow

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("INCIDENTBOOK_SHARED", REPO.parent / "shared"))
DEFAULT_DATA = SHARED / "data" / "nab"
CORPUS = "realAWSCloudwatch"
WINDOWS_FILE = "combined_windows.json"
SOURCE = (
    "Numenta Anomaly Benchmark (NAB), realAWSCloudwatch series and combined_windows.json, "
    "https://github.com/numenta/NAB (MIT licence)"
)

PROBATION_PERCENT = 0.15
CHANCE_SEED = 20240601
CHANCE_DRAWS = 20

Span = tuple[datetime, datetime]


# --- scoring ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    windows: int
    detected: int
    intervals: int
    true_intervals: int
    ignored: int

    @property
    def false_positives(self) -> int:
        return self.intervals - self.true_intervals

    @property
    def precision(self) -> float | None:
        return self.true_intervals / self.intervals if self.intervals else None

    @property
    def recall(self) -> float | None:
        return self.detected / self.windows if self.windows else None


def overlaps(interval: Span, window: Span) -> bool:
    """Half-open detected interval [start, end) against NAB's closed window [start, end]."""
    return interval[0] <= window[1] and interval[1] > window[0]


def score(intervals: list[Span], windows: list[Span], probation_end: datetime) -> Score:
    """Window recall and interval precision, ignoring intervals over by the probation's end."""
    counted = [iv for iv in intervals if iv[1] > probation_end]
    hits = [any(overlaps(iv, w) for w in windows) for iv in counted]
    detected = sum(any(overlaps(iv, w) for iv in counted) for w in windows)
    return Score(
        windows=len(windows),
        detected=detected,
        intervals=len(counted),
        true_intervals=sum(hits),
        ignored=len(intervals) - len(counted),
    )


def random_intervals(
    lengths: list[timedelta], start: datetime, end: datetime, rng: np.random.Generator
) -> list[Span]:
    """Intervals of the given lengths with starts drawn uniformly from [start, end - length]."""
    out = []
    total = (end - start).total_seconds()
    for length in lengths:
        room = max(total - length.total_seconds(), 0.0)
        s = start + timedelta(seconds=float(rng.uniform(0.0, room)))
        out.append((s, s + length))
    return out


# --- data ---------------------------------------------------------------------------------


def probation_length(n: int) -> int:
    """NAB's probationary period in records (nab/util.py, getProbationPeriod)."""
    return int(min(math.floor(PROBATION_PERCENT * n), PROBATION_PERCENT * 5000))


def _parse(ts: str) -> datetime:
    return datetime.fromisoformat(ts).replace(tzinfo=UTC)


def load_series(path: Path) -> pl.DataFrame:
    """A NAB CSV (timestamp,value; naive timestamps meaning UTC) as columns ts, value."""
    frame = pl.read_csv(path, schema={"timestamp": pl.String, "value": pl.Float64})
    return frame.select(
        ts=pl.col("timestamp")
        .str.to_datetime("%Y-%m-%d %H:%M:%S", time_unit="us")
        .dt.replace_time_zone("UTC"),
        value=pl.col("value"),
    ).sort("ts")


def load_windows(data_dir: Path) -> dict[str, list[Span]]:
    """Labelled windows of the realAWSCloudwatch series, keyed by file name."""
    raw = json.loads((data_dir / WINDOWS_FILE).read_text())
    prefix = f"{CORPUS}/"
    return {
        key.removeprefix(prefix): [(_parse(s), _parse(e)) for s, e in spans]
        for key, spans in raw.items()
        if key.startswith(prefix)
    }


class MissingData(Exception):
    pass


def check_data(data_dir: Path) -> None:
    for needed in (data_dir, data_dir / WINDOWS_FILE, data_dir / CORPUS):
        if not needed.exists():
            raise MissingData(
                f"NAB data not found: {needed} does not exist. Expected {data_dir} to hold "
                f"{WINDOWS_FILE} and {CORPUS}/*.csv from {SOURCE}; see shared/data/README.md, "
                "or pass --data DIR."
            )


# --- evaluation ---------------------------------------------------------------------------


def evaluate_series(frame: pl.DataFrame, windows: list[Span]) -> tuple[Score, list[Span], Span]:
    """Detector intervals and their score for one series; also the scored span after probation."""
    ts = frame.get_column("ts")
    cut = probation_length(frame.height)
    first, last = ts[0], ts[-1]
    probation_end = ts[cut]
    baseline = TimeWindow(start=first, end=probation_end)
    found = detect_intervals(frame, "both", baseline, DEFAULT_CONFIG)
    intervals = list(zip(found.get_column("start"), found.get_column("end"), strict=True))
    step = ts.diff().median()
    return score(intervals, windows, probation_end), intervals, (probation_end, last + step)


def chance_scores(
    intervals: list[Span], windows: list[Span], scored: Span, rng: np.random.Generator
) -> list[Score]:
    """Scores of CHANCE_DRAWS random placements of the counted intervals' lengths."""
    start, end = scored
    lengths = [min(e, end) - max(s, start) for s, e in intervals if e > start]
    return [
        score(random_intervals(lengths, start, end, rng), windows, start)
        for _ in range(CHANCE_DRAWS)
    ]


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


def evaluate(data_dir: Path) -> dict:
    """Run the detector on every labelled series under data_dir and score it.

    Returns {"source", "data_dir", "config", "series": [...], "total": {...},
    "chance": {...}, "skipped": [...], "seconds"}.
    """
    started = time.perf_counter()
    data_dir = Path(data_dir)
    check_data(data_dir)
    windows = load_windows(data_dir)
    rng = np.random.default_rng(CHANCE_SEED)
    rows, skipped = [], []
    for name in sorted(windows):
        path = data_dir / CORPUS / name
        if not windows[name]:
            skipped.append({"name": name, "reason": "no labelled windows"})
            continue
        if not path.exists():
            skipped.append({"name": name, "reason": "file missing"})
            continue
        frame = load_series(path)
        result, intervals, scored = evaluate_series(frame, windows[name])
        chance = chance_scores(intervals, windows[name], scored, rng)
        rows.append(
            {
                "name": name.removesuffix(".csv"),
                "points": frame.height,
                "windows": result.windows,
                "detected": result.detected,
                "intervals": result.intervals,
                "false_positives": result.false_positives,
                "precision": result.precision,
                "recall": result.recall,
                "ignored_in_probation": result.ignored,
                "chance_precision": _ratio(
                    sum(c.true_intervals for c in chance), sum(c.intervals for c in chance)
                ),
                "chance_recall": _ratio(
                    sum(c.detected for c in chance), sum(c.windows for c in chance)
                ),
                "_chance": chance,
            }
        )
    draws = [c for r in rows for c in r.pop("_chance")]
    sums = {
        key: sum(r[key] for r in rows)
        for key in ("points", "windows", "detected", "intervals", "false_positives")
    }
    total = {
        "name": "TOTAL",
        **sums,
        "precision": _ratio(sums["intervals"] - sums["false_positives"], sums["intervals"]),
        "recall": _ratio(sums["detected"], sums["windows"]),
        "ignored_in_probation": sum(r["ignored_in_probation"] for r in rows),
        "chance_precision": _ratio(
            sum(c.true_intervals for c in draws), sum(c.intervals for c in draws)
        ),
        "chance_recall": _ratio(sum(c.detected for c in draws), sum(c.windows for c in draws)),
    }
    config = asdict(DEFAULT_CONFIG)
    config["context"] = str(DEFAULT_CONFIG.context)
    return {
        "source": SOURCE,
        "data_dir": str(data_dir.resolve()),
        "config": config,
        "series": rows,
        "total": total,
        "chance": {"seed": CHANCE_SEED, "draws": CHANCE_DRAWS},
        "skipped": skipped,
        "seconds": time.perf_counter() - started,
    }


# --- output -------------------------------------------------------------------------------

COLUMNS = [
    ("name", "series", "<"),
    ("points", "points", ">"),
    ("windows", "windows", ">"),
    ("detected", "detected", ">"),
    ("intervals", "intervals", ">"),
    ("false_positives", "FP", ">"),
    ("precision", "precision", ">"),
    ("recall", "recall", ">"),
    ("chance_precision", "chance P", ">"),
    ("chance_recall", "chance R", ">"),
]


def _cell(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def render(result: dict) -> str:
    table = [*result["series"], result["total"]]
    cells = [[_cell(row[key]) for key, _, _ in COLUMNS] for row in table]
    widths = [
        max(len(title), *(len(c[i]) for c in cells)) for i, (_, title, _) in enumerate(COLUMNS)
    ]

    def line(values: list[str]) -> str:
        return "  ".join(
            f"{v:{align}{w}}" for v, w, (_, _, align) in zip(values, widths, COLUMNS, strict=True)
        )

    rule = "-" * len(line([t for _, t, _ in COLUMNS]))
    out = [
        f"Data: {result['source']}",
        f"      read from {result['data_dir']}",
        f"Detector: detect_intervals, bad='both', DEFAULT_CONFIG {result['config']}; "
        "baseline = NAB probationary period (first 15% of records)",
        "",
        line([t for _, t, _ in COLUMNS]),
        rule,
        *(line(c) for c in cells[:-1]),
        rule,
        line(cells[-1]),
        "",
    ]
    chance = result["chance"]
    out.append(
        f"chance P/R: the same number and lengths of intervals placed at random after the "
        f"probationary period (seed {chance['seed']}, mean of {chance['draws']} draws)"
    )
    for skip in result["skipped"]:
        out.append(f"Skipped {skip['name']}: {skip['reason']}")
    out.append(
        f"Ignored {result['total']['ignored_in_probation']} intervals inside probationary periods"
    )
    out.append(f"Wall time: {result['seconds']:.2f} s")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    return scored_main(
        argv,
        prog="python -m bench.nab",
        description="Score incidentbook's spike/drop detector on NAB's realAWSCloudwatch series.",
        default_data=DEFAULT_DATA,
        what="NAB",
        evaluate=evaluate,
        render=render,
        missing=MissingData,
    )


if __name__ == "__main__":
    sys.exit(main())
