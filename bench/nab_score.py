"""NAB's score, as the Numenta Anomaly Benchmark defines it, for detections at records.

Written from the benchmark's description (Lavin and Ahmad, "Evaluating Real-time Anomaly
Detection Algorithms - the Numenta Anomaly Benchmark", ICMLA 2015, and NAB's README and
wiki), and checked against the per-file scores NAB committed for its own detectors
(tests/test_nab.py reads an extract of them, bench/data/nab_reference.json).

How one data file is scored, with an application profile's weights A_TP, A_FP, A_FN:

* Positions are counted in records, not in time. A labelled window covers the records
  whose timestamps fall in its closed [start, end]; L is their number, a and b the first
  and last of them.
* The scaled sigmoid sigma(y) = 2 / (1 + exp(5 y)) - 1 runs from +1 far before a window's
  end, through 0 at its end, to -1 long after it.
* Inside a window only the earliest detection counts: it earns
  A_TP * sigma(y) / sigma(-1) with y = -(b - d + 1) / L, so a detection on the window's
  first record earns exactly A_TP and one on its last record little more than nothing.
  Later detections in the same window neither earn nor cost anything.
* A detection outside every window is a false positive. After a window it costs
  A_FP * sigma(y) with y = (d - b) / (b - a), the distance past the window's last record
  in units of the window's span: just after a window it costs almost nothing (the
  anomaly may still be going on), far after it the full A_FP. Before the first window it
  costs the full A_FP.
* A window without a detection costs A_FN.
* Detections in the probationary period (the first 15% of the records, at most 750) are
  not scored: a detector is still learning there.

The raw score of a set of files is the sum of their scores; the reported score is
100 * (raw - null) / (perfect - null), where null is the raw score of a detector that never
fires (-A_FN per window) and perfect that of one that fires on the first record of every
window and nowhere else (+A_TP per window). So 0 is doing nothing, 100 is perfect, and a
detector that raises many false alarms goes below 0.

The true-negative weight is part of every profile but enters no score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

PROBATION_PERCENT = 0.15
PROBATION_CAP = 5000  # NAB caps the probationary period at 15% of 5,000 records


@dataclass(frozen=True)
class Profile:
    """An application profile's weights (NAB's config/profiles.json)."""

    name: str
    tp: float
    fp: float
    fn: float
    tn: float


STANDARD = Profile("standard", tp=1.0, fp=0.11, fn=1.0, tn=1.0)
REWARD_LOW_FP = Profile("reward_low_FP_rate", tp=1.0, fp=0.22, fn=1.0, tn=1.0)
REWARD_LOW_FN = Profile("reward_low_FN_rate", tp=1.0, fp=0.11, fn=2.0, tn=1.0)

RecordSpan = tuple[int, int]
"""A labelled window as the indices of its first and last record (both inclusive)."""


def scaled_sigmoid(y: float) -> float:
    """2 / (1 + e^(5y)) - 1: +1 well before 0, 0 at 0, -1 well after."""
    if y > 100:  # e^(500) overflows; the value is -1 to machine precision long before
        return -1.0
    return 2.0 / (1.0 + math.exp(5.0 * y)) - 1.0


def probation_length(records: int) -> int:
    """Records at the start of a file in which detections are not scored."""
    return int(min(math.floor(PROBATION_PERCENT * records), PROBATION_PERCENT * PROBATION_CAP))


@dataclass(frozen=True)
class FileScore:
    """One file's NAB score and what it is made of."""

    raw: float
    null: float
    perfect: float
    windows: int
    detected: int  # windows with at least one detection
    false_positives: int  # scored detections outside every window
    detections: int  # scored detections (after the probationary period)
    ignored: int  # detections in the probationary period

    @property
    def recall(self) -> float | None:
        return self.detected / self.windows if self.windows else None

    @property
    def precision(self) -> float | None:
        """Detections that fell in a window, of all scored detections."""
        return 1 - self.false_positives / self.detections if self.detections else None


def score_file(
    detections: Iterable[int],
    windows: Sequence[RecordSpan],
    probation: int,
    profile: Profile = STANDARD,
) -> FileScore:
    """NAB's score for one file: detections and windows as record indices."""
    spans = sorted(windows)
    firsts = np.array([a for a, _ in spans], dtype=np.int64)
    lasts = np.array([b for _, b in spans], dtype=np.int64)
    points = sorted(set(int(d) for d in detections))
    scored = [d for d in points if d >= probation]
    top = scaled_sigmoid(-1.0)
    raw = 0.0
    detected: set[int] = set()
    false_positives = 0
    for d in scored:
        # The last window starting at or before d: d is in it, or after it, or before all.
        k = int(np.searchsorted(firsts, d, side="right")) - 1
        if k >= 0 and d <= lasts[k]:
            if k not in detected:  # only the earliest detection in a window counts
                detected.add(k)
                length = lasts[k] - firsts[k] + 1
                raw += profile.tp * scaled_sigmoid(-(lasts[k] - d + 1) / length) / top
            continue
        false_positives += 1
        if k < 0:
            raw -= profile.fp
        else:
            span = max(int(lasts[k] - firsts[k]), 1)
            raw += profile.fp * scaled_sigmoid((d - lasts[k]) / span)
    raw -= profile.fn * (len(spans) - len(detected))
    return FileScore(
        raw=raw,
        null=-profile.fn * len(spans),
        perfect=profile.tp * len(spans),
        windows=len(spans),
        detected=len(detected),
        false_positives=false_positives,
        detections=len(scored),
        ignored=len(points) - len(scored),
    )


def normalised(scores: Iterable[FileScore]) -> float | None:
    """100 * (raw - null) / (perfect - null) over a set of files (None without windows)."""
    scores = list(scores)
    raw = sum(s.raw for s in scores)
    null = sum(s.null for s in scores)
    perfect = sum(s.perfect for s in scores)
    return 100 * (raw - null) / (perfect - null) if perfect != null else None


# --- from timestamps to records -----------------------------------------------------------


def window_records(
    timestamps: Sequence[datetime], windows: Iterable[tuple[datetime, datetime]]
) -> list[RecordSpan]:
    """The first and last record inside each closed window [start, end] (sorted timestamps)."""
    ts = _stamps(timestamps)
    out = []
    for start, end in windows:
        a = int(np.searchsorted(ts, _np(start), side="left"))
        b = int(np.searchsorted(ts, _np(end), side="right")) - 1
        if b >= a:
            out.append((a, b))
    return out


def detection_records(timestamps: Sequence[datetime], detections: Iterable[datetime]) -> list[int]:
    """The record at or next after each detection time (a detection between two samples is
    made when the next one arrives); detections after the last record are dropped."""
    ts = _stamps(timestamps)
    found = np.searchsorted(ts, np.asarray([_np(d) for d in detections], "datetime64[us]"))
    return sorted({int(i) for i in np.atleast_1d(found) if i < ts.size})


def _np(moment: datetime) -> np.datetime64:
    """A datetime as numpy's naive UTC microseconds (NAB's timestamps are naive UTC)."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return np.datetime64(moment, "us")


def _stamps(timestamps: Sequence[datetime]) -> np.ndarray:
    return np.asarray([_np(t) for t in timestamps], dtype="datetime64[us]")
