"""One frame from several origins of an incident folder's samples.

The folder's metrics/ files, its TensorBoard event files and its trainer logs each give
a signal frame; they become one long frame, and where two give the same signal the
signal's `prefer` (the pack's by default: metrics, tensorboard, trainer_log) says which
one's samples are kept: mixing a per-host gauge with a job-wide log line in one series
would make neither readable. The receipt says where each signal came from.
"""

from __future__ import annotations

import polars as pl

from incidentbook.metrics.data import Metrics, MetricsReceipt, find_gaps
from incidentbook.metrics.signals import ORIGINS, Signal
from incidentbook.window import TimeWindow

LABELS = {
    "metrics": "metrics files",
    "tensorboard": "TensorBoard",
    "trainer_log": "the trainer log",
}


def merge(parts: dict[str, Metrics], signals: list[Signal], window: TimeWindow) -> Metrics:
    """The parts' frames as one, each signal from its most preferred origin with data."""
    present = {
        origin: set(m.frame.get_column("signal").unique().to_list()) for origin, m in parts.items()
    }
    winners: dict[str, str] = {}
    notes: list[str] = []
    for signal in signals:
        having = [o for o in (signal.prefer or ORIGINS) if signal.name in present.get(o, set())]
        having += [o for o in present if signal.name in present[o] and o not in having]
        if not having:
            continue
        winners[signal.name] = having[0]
        if len(having) > 1:
            notes.append(
                f"{signal.name}: {LABELS[having[0]]} and "
                f"{', '.join(LABELS[o] for o in having[1:])} "
                f"both give it; {LABELS[having[0]]} is used (the pack's prefer)"
            )
    used = set(winners.values())
    if used == {"metrics"}:
        # Every signal from the metrics files (a trainer log beside them gives the same
        # signals): their frame is the answer, already sorted (metrics.frames) and its
        # gaps found; a second sort of its text columns cost more than the rest of the
        # merge.
        frame, gaps = parts["metrics"].frame, parts["metrics"].receipt.gaps
    else:
        frames = [
            m.frame.filter(pl.col("signal").is_in([s for s, o in winners.items() if o == origin]))
            for origin, m in parts.items()
        ]
        frame = pl.concat(frames, how="vertical").sort(
            ["signal", "node", "gpu", "ts"], nulls_last=True
        )
        gaps = find_gaps(frame, ordered=True)
    receipts = [m.receipt for m in parts.values()]
    receipt = MetricsReceipt(
        files=[f for r in receipts for f in r.files],
        rows_read=sum(r.rows_read for r in receipts),
        duplicates_dropped=sum(r.duplicates_dropped for r in receipts),
        origins={s: o for s, o in winners.items()},
        remarks=[*(n for r in receipts for n in r.remarks), *notes],
        assumptions=[n for r in receipts for n in r.assumptions],
    )
    # Signals with no data from any origin: the metrics files' reason first.
    for origin in sorted(parts, key=lambda o: ORIGINS.index(o) if o in ORIGINS else 99):
        for name, why in parts[origin].receipt.missing_signals.items():
            if name not in winners:
                receipt.missing_signals.setdefault(name, why)
    if len(used) > 1 or used - {"metrics"}:
        by_origin = {o: sorted(s for s, w in winners.items() if w == o) for o in used}
        receipt.remarks.insert(
            0,
            "signals by origin: "
            + "; ".join(
                f"{LABELS[o]}: {', '.join(names)}" for o, names in sorted(by_origin.items())
            ),
        )
    receipt.gaps = gaps
    return Metrics(frame=frame, receipt=receipt, window=window)
