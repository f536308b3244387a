"""The detector on real labelled data: NAB's realAWSCloudwatch series, scored as NAB scores.

Run from the repository root::

    python -m bench.nab [--data DIR] [--json]

Data: the Numenta Anomaly Benchmark (https://github.com/numenta/NAB, MIT licence), the 17
real AWS CloudWatch series of ``data/realAWSCloudwatch`` with NAB's labelled anomaly windows
(``labels/combined_windows.json``), copied to ``shared/data/nab`` (see its README). Nobody on
this project made or labelled them. 16 series have labelled windows (30 in all);
``ec2_cpu_utilization_c6585a`` has none, so a detector can only lose there.

What runs, for every series: ``incidentbook.metrics.analysis.detect_intervals`` with ``bad="both"``
and ``DEFAULT_CONFIG`` (the same settings for every series, and the same as the analysis of
an incident uses), with NAB's probationary period (the first 15% of the records, at most
750) as the baseline. Every step of the detector looks only backwards, as NAB's rules ask.

Scoring: NAB's standard profile (bench/nab_score.py, checked against NAB's own per-file
scores in tests/test_nab_score.py). Each interval the detector returns becomes one NAB
detection, at the record of its ``detected`` time: the first sample at which the detector
had the evidence. For a sharp departure that is the interval's start; a sustained one is
dated back to where it began once found, so its start lies before the moment it could
have been raised, and using the start would score hindsight.

Columns: NAB score normalised per series (100 perfect, 0 never firing) for our detector
and for NAB's own windowedGaussian results (bench/data/nab_reference.json, an extract of
NAB's results/ folder); windows, windows detected (a detection inside), scored detections,
false positives (detections outside every window), precision (detections inside a window
/ scored detections), recall (windows detected / windows), and chance P, the share of the
scored records that lie inside windows (the precision of a detector firing at random).
Totals are over the 16 labelled series and over all 17 (NAB's corpus normalisation:
sums of raw scores, null and perfect).

After NAB's table, ``bench.cpd``'s change-point table (level shifts against annotated
change points) is printed too.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from bench import cpd
from bench.common import scored_main
from bench.nab_score import (
    STANDARD,
    FileScore,
    detection_records,
    normalised,
    probation_length,
    score_file,
    window_records,
)
from incidentbook.metrics.analysis import DEFAULT_CONFIG, detect_intervals
from incidentbook.window import TimeWindow

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("INCIDENTBOOK_SHARED", REPO.parent / "shared"))
DEFAULT_DATA = SHARED / "data" / "nab"
REFERENCE = REPO / "bench" / "data" / "nab_reference.json"
CORPUS = "realAWSCloudwatch"
WINDOWS_FILE = "combined_windows.json"
SOURCE = (
    "Numenta Anomaly Benchmark (NAB), realAWSCloudwatch series and combined_windows.json, "
    "https://github.com/numenta/NAB (MIT licence)"
)

Span = tuple[datetime, datetime]


# --- data ---------------------------------------------------------------------------------


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


def reference_detections(name: str, detector: str = "windowedGaussian") -> list[int]:
    """Records NAB's own detector flagged on a file (from the committed extract)."""
    entry = json.loads(REFERENCE.read_text())["series"][name]
    return [i for i, _ in entry["detectors"][detector]["detections"]]


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


def detections(frame: pl.DataFrame, probation: int) -> pl.DataFrame:
    """The detector's intervals on one NAB series, with the probation as the baseline."""
    ts = frame.get_column("ts")
    baseline = TimeWindow(start=ts[0], end=ts[probation])
    return detect_intervals(frame, "both", baseline, DEFAULT_CONFIG)


def _row(name: str, points: int, ours: FileScore, wg: FileScore, chance: float | None) -> dict:
    def per_file(s: FileScore) -> float | None:
        return normalised([s])

    return {
        "name": name.removesuffix(".csv"),
        "points": points,
        "windows": ours.windows,
        "detected": ours.detected,
        "detections": ours.detections,
        "false_positives": ours.false_positives,
        "precision": ours.precision,
        "recall": ours.recall,
        "chance_precision": chance,
        "nab": per_file(ours),
        "nab_raw": ours.raw,
        "nab_windowed_gaussian": per_file(wg),
        "nab_windowed_gaussian_raw": wg.raw,
        "nab_null": 0.0 if ours.windows else None,
        "wg_detected": wg.detected,
        "wg_false_positives": wg.false_positives,
    }


def _total(name: str, rows: list[dict], ours: list[FileScore], wg: list[FileScore]) -> dict:
    windows = sum(s.windows for s in ours)
    scored = sum(s.detections for s in ours)
    fps = sum(s.false_positives for s in ours)
    inside = sum(r["chance_precision"] * r["_scored_records"] for r in rows if r["windows"])
    records = sum(r["_scored_records"] for r in rows if r["windows"])
    return {
        "name": name,
        "points": sum(r["points"] for r in rows),
        "windows": windows,
        "detected": sum(s.detected for s in ours),
        "detections": scored,
        "false_positives": fps,
        "precision": 1 - fps / scored if scored else None,
        "recall": sum(s.detected for s in ours) / windows if windows else None,
        "chance_precision": inside / records if records else None,
        "nab": normalised(ours),
        "nab_raw": sum(s.raw for s in ours),
        "nab_windowed_gaussian": normalised(wg),
        "nab_windowed_gaussian_raw": sum(s.raw for s in wg),
        "nab_null": 0.0,
        "wg_detected": sum(s.detected for s in wg),
        "wg_false_positives": sum(s.false_positives for s in wg),
    }


def evaluate(data_dir: Path) -> dict:
    """Run the detector on every realAWSCloudwatch series under data_dir and score it.

    Returns {"source", "data_dir", "config", "profile", "series": [...], "total" (the 16
    labelled series), "total_all" (all 17), "changepoints" (bench.cpd's result),
    "seconds"}.
    """
    started = time.perf_counter()
    data_dir = Path(data_dir)
    check_data(data_dir)
    windows = load_windows(data_dir)
    rows, ours, wg = [], [], []
    for name in sorted(windows):
        path = data_dir / CORPUS / name
        if not path.exists():
            raise MissingData(f"NAB data incomplete: {path} does not exist")
        frame = load_series(path)
        stamps = frame.get_column("ts").to_list()
        probation = probation_length(frame.height)
        spans = window_records(stamps, windows[name])
        found = detections(frame, probation)
        records = detection_records(stamps, found.get_column("detected").to_list())
        mine = score_file(records, spans, probation, STANDARD)
        theirs = score_file(reference_detections(name), spans, probation, STANDARD)
        scored_records = frame.height - probation
        inside = sum(b - max(a, probation) + 1 for a, b in spans if b >= probation)
        chance = inside / scored_records if spans else None
        row = _row(name, frame.height, mine, theirs, chance)
        row["_scored_records"] = scored_records
        rows.append(row)
        ours.append(mine)
        wg.append(theirs)
    labelled = [i for i, r in enumerate(rows) if r["windows"]]
    total = _total(
        "TOTAL (16 labelled)",
        [rows[i] for i in labelled],
        [ours[i] for i in labelled],
        [wg[i] for i in labelled],
    )
    total_all = _total("TOTAL (all 17)", rows, ours, wg)
    for r in rows:
        r.pop("_scored_records")
    config = {
        k: (str(v) if not isinstance(v, int | float | type(None)) else v)
        for k, v in asdict(DEFAULT_CONFIG).items()
    }
    return {
        "source": SOURCE,
        "data_dir": str(data_dir.resolve()),
        "config": config,
        "profile": asdict(STANDARD),
        "series": rows,
        "total": total,
        "total_all": total_all,
        "changepoints": cpd.evaluate(data_dir),
        "seconds": time.perf_counter() - started,
    }


# --- output -------------------------------------------------------------------------------

COLUMNS = [
    ("name", "series", "<"),
    ("nab", "NAB ours", ">"),
    ("nab_null", "null", ">"),
    ("nab_windowed_gaussian", "NAB WG", ">"),
    ("windows", "windows", ">"),
    ("detected", "detected", ">"),
    ("detections", "detections", ">"),
    ("false_positives", "FP", ">"),
    ("precision", "precision", ">"),
    ("recall", "recall", ">"),
    ("chance_precision", "chance P", ">"),
]


def _cell(key: str, value) -> str:
    if value is None:
        return "-"
    if key.startswith("nab"):
        return f"{value:.1f}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def render(result: dict) -> str:
    table = [*result["series"], result["total"], result["total_all"]]
    cells = [[_cell(key, row[key]) for key, _, _ in COLUMNS] for row in table]
    widths = [
        max(len(title), *(len(c[i]) for c in cells)) for i, (_, title, _) in enumerate(COLUMNS)
    ]

    def line(values: list[str]) -> str:
        return "  ".join(
            f"{v:{align}{w}}" for v, w, (_, _, align) in zip(values, widths, COLUMNS, strict=True)
        )

    rule = "-" * len(line([t for _, t, _ in COLUMNS]))
    total, total_all = result["total"], result["total_all"]
    out = [
        f"Data: {result['source']}",
        f"      read from {result['data_dir']}",
        "Detector: incidentbook.metrics.analysis.detect_intervals, bad='both', DEFAULT_CONFIG; "
        "baseline = NAB's probationary period",
        "Score: NAB standard profile (TP 1.0, FP 0.11, FN 1.0), normalised per series and "
        "over the totals; null = a detector that never fires; WG = NAB's windowedGaussian "
        "results (bench/data/nab_reference.json)",
        "",
        line([t for _, t, _ in COLUMNS]),
        rule,
        *(line(c) for c in cells[:-2]),
        rule,
        line(cells[-2]),
        line(cells[-1]),
        "",
        f"windowedGaussian on the same files: {total['wg_detected']} of {total['windows']} "
        f"windows, {total_all['wg_false_positives']} false positives",
        f"Wall time: {result['seconds']:.2f} s (both tables)",
        "",
        cpd.render(result["changepoints"]),
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    return scored_main(
        argv,
        prog="python -m bench.nab",
        description="Score incidentbook's detector on NAB's realAWSCloudwatch series, as NAB "
        "scores, and its level shifts against annotated change points.",
        default_data=DEFAULT_DATA,
        what="NAB",
        evaluate=evaluate,
        render=render,
        missing=MissingData,
    )


if __name__ == "__main__":
    sys.exit(main())
