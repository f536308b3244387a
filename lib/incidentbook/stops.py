"""The run's stops, told apart by what the logs say of them: asked for, or failed.

A run that stopped (its restart's gap, a stall) is the commonest incident of a training
cluster, and also the commonest thing that is no incident at all: a user cancels a run to
change its batch size and submits it again. The metrics cannot tell the two apart; the
logs can. A stop was asked for when the first thing said about it is a request to stop
from outside the job (Slurm's `CANCELLED AT`, a launcher's SIGTERM), it came while the run
was still making progress, and no warning or error came before it. Anything else, a crash,
a hang cut short by the watchdog or by an operator, failed.

A failed stop that cost the run more time than the slowdowns found beside it is part of
the symptom: a checkpoint's full filesystem crashes the job for 43 minutes, and a 100 s
dip before it is not the incident. A stop asked for is never the symptom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import polars as pl

from incidentbook.logs.severity import signatures_at_or_worse
from incidentbook.metrics.episodes import Episode, Found, downtime
from incidentbook.window import TimeWindow

CANCELLED = "slurm-job-killed"
# a cancellation that names a reason was not asked for by the job's owner
_NO_REASON = ("cancel_reason", "requeued", "revoked_job")
# a launcher's or a trainer's words on being told to stop
_STOP_SIGNALS = ("SIGTERM", "SIGINT", "15", "2")
_SIGNAL_FIELDS = ("agent_signal", "signame")


@dataclass(frozen=True)
class Stop:
    """One time the run made no progress, and what the logs say of it."""

    episode: Episode
    asked: datetime | None  # when someone asked for it (the first request line), if so
    said: str = ""  # the request's line

    @property
    def lost(self) -> float:
        return (self.episode.end - self.episode.start).total_seconds()


def _requests(lines: pl.DataFrame) -> pl.DataFrame:
    """Lines that ask the job to stop, from outside: a cancellation with no reason of
    its own, a stop signal received by the launcher or the trainer."""
    if lines.is_empty() or "fields" not in lines.columns:
        return lines.clear()

    def field(name: str) -> pl.Expr:
        return pl.col("fields").str.json_path_match(f"$.{name}")

    cancel = pl.col("signature") == CANCELLED
    no_reason = pl.all_horizontal([field(n).is_null() for n in _NO_REASON])
    signalled = pl.any_horizontal([field(n).is_in(_STOP_SIGNALS) for n in _SIGNAL_FIELDS])
    told = (pl.col("signature") == "trainer-crash") & signalled.fill_null(False)
    return lines.filter((cancel & no_reason) | told)


def _errors(lines: pl.DataFrame) -> pl.DataFrame:
    """Lines that say something went wrong: a signature at warning or worse, as it was
    judged on that line (a kubelet evicting the pod for disk pressure is a warning, and
    the SIGTERM that follows it is no one's request)."""
    return lines.filter(
        pl.col("signature").is_not_null()
        & pl.col("line_severity").is_in(signatures_at_or_worse("warning"))
    )


def told_apart(stops: list[Episode], lines: pl.DataFrame, soon: timedelta) -> list[Stop]:
    """Each stop with the time it was asked for, or None when it failed (or the logs do
    not say). `soon`: how long after the run's last progress a request still finds it
    running (about two of its lines)."""
    requests = _requests(lines)
    errors = _errors(lines)
    out = []
    for e in stops:
        during = requests.filter((pl.col("ts") >= e.start) & (pl.col("ts") <= e.end))
        if during.is_empty():
            out.append(Stop(e, None))
            continue
        earliest = during.sort("ts", "file", "line").row(0, named=True)
        at = earliest["ts"]
        # The line to quote: one with a time of its own says more than one timed by the
        # line before it (srun's untimed notices).
        first = during.sort(pl.col("inferred").fill_null(False), "ts").head(1)
        # Trouble between the last progress and the request: the request was a reaction.
        # Lines that share a time (untimed ones take the time of the line before) are
        # ordered by their place in the file.
        before = (pl.col("ts") < at) | (
            (pl.col("ts") == at)
            & (pl.col("file") == earliest["file"])
            & (pl.col("line") < earliest["line"])
        )
        failed = errors.filter(
            (pl.col("ts") >= e.start) & before & (pl.col("signature") != CANCELLED)
        )
        if at - e.start > soon or not failed.is_empty():
            out.append(Stop(e, None))
            continue
        out.append(Stop(e, at, first.get_column("message")[0]))
    return out


def _lost(symptom: list[Episode]) -> float:
    """Seconds of the run's pace the symptom's episodes cost (depth times length)."""
    total = 0.0
    for e in symptom:
        depth = abs(e.relative) if math.isfinite(e.relative) else 1.0
        total += min(depth, 1.0) * (e.end - e.start).total_seconds()
    return total


def with_stops(
    found: Found,
    frame: pl.DataFrame,
    primary: str,
    baseline: TimeWindow,
    lines: pl.DataFrame,
    soon: timedelta,
) -> tuple[Found, list[str]]:
    """The symptom as the run's stops change it, with a note for each stop told apart:
    stops asked for are taken out of it; stops that failed join a slowdown they cost more
    than."""
    episodes = downtime(found.findings, frame, primary, baseline)
    if not episodes:
        return found, []
    stops = told_apart(episodes, lines, soon)
    asked = [s for s in stops if s.asked is not None]
    failed = [s for s in stops if s.asked is None]
    notes = [
        f"the run stopped at {s.episode.start:%H:%M} UTC and went on at "
        f"{s.episode.end:%H:%M} UTC: it was asked to stop ({s.said.strip()[:120]!r}) with "
        "nothing wrong logged before it, so the stop is taken for a planned restart, not an "
        "incident"
        for s in asked
    ]
    stopped = {(s.episode.start, s.episode.end) for s in stops}
    symptom = [e for e in found.symptom if (e.start, e.end) not in stopped or e.value != 0.0]
    if len(symptom) < len(found.symptom):
        # the symptom was the stops: keep the failed ones only
        symptom = [*symptom, *(s.episode for s in failed)]
    else:
        apart = [
            s
            for s in failed
            if not any(e.start < s.episode.end and s.episode.start < e.end for e in symptom)
        ]
        if apart and sum(s.lost for s in apart) > _lost(symptom):
            symptom = [*symptom, *(s.episode for s in apart)]
            notes.append(
                f"the run was down {_minutes(sum(s.lost for s in apart))} after "
                "a failure, more than the slowdowns beside it cost: its stops are part of "
                "the symptom"
            )
    symptom.sort(key=lambda e: e.start)
    planned = tuple((s.episode.start, s.episode.end) for s in asked)
    return replace(found, symptom=symptom, planned=planned), notes


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min"
