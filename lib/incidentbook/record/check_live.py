"""Checks run against a live Prometheus-compatible server: which past incidents'
precursors are present now, on which hosts, since when.

Each rule's alert expression is evaluated by the server over a range (`query_range`, one
step per rule evaluation interval), so the server's own PromQL engine decides where the
condition holds; `check_eval.episodes` then applies `for` as Prometheus' rule manager
does. At a moment (`--at`) a rule fires when an episode is still holding then; over a
range (`--start/--end`) when one fired inside it. The range is read from `for` (and a
history of `history`) earlier, so a condition that began before it is dated from when it
began ("since").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import polars as pl

from incidentbook.record.check_eval import EPISODE_SCHEMA, STEP, Firing, episodes
from incidentbook.record.checks import LOG_METRIC, LogCheck, Rule
from incidentbook.record.model import CaseRecord
from incidentbook.window import TimeWindow

HISTORY = timedelta(hours=6)


@dataclass
class LiveResult:
    """What a check of the cluster found: the rules that fire, and notes."""

    source: str
    window: TimeWindow
    at: datetime | None
    firings: list[Firing]
    records: dict[str, CaseRecord]
    notes: list[str] = field(default_factory=list)

    @property
    def fired(self) -> list[Firing]:
        return [f for f in self.firings if f.fired]

    def as_json(self, base_url: str | None = None) -> dict[str, Any]:
        from incidentbook.outputs.rules import case_url

        out = []
        for f in self.fired:
            record = self.records[f.rule.case]
            out.append(
                {
                    "case": f.rule.case,
                    "case_title": record.title,
                    "case_url": case_url(f.rule.case, base_url),
                    "check": f.rule.id,
                    "kind": f.rule.check.kind,
                    "severity": f.rule.check.severity,
                    "condition": f.rule.describe(),
                    "expr": f.rule.expr,
                    "message": f.rule.check.message,
                    "hosts": [
                        {
                            "node": row["node"],
                            "since": row["pending"].isoformat(),
                            "fired": row["fired"].isoformat(),
                            "last_held": row["end"].isoformat(),
                            "value": row["value"],
                        }
                        for row in f.episodes.iter_rows(named=True)
                    ],
                }
            )
        return {
            "source": self.source,
            "window": {"start": self.window.start.isoformat(), "end": self.window.end.isoformat()},
            "at": self.at.isoformat() if self.at else None,
            "fired": out,
            "silent": [f"{f.rule.case}/{f.rule.id}" for f in self.firings if not f.fired],
            "notes": self.notes,
        }


def _condition(source, rule: Rule, span: TimeWindow, step: timedelta) -> pl.DataFrame:
    frame = source.query_range(rule.expr, span, step.total_seconds())
    if frame.height == 0 or "node" not in frame.columns:
        return pl.DataFrame(
            schema={"node": pl.String, "ts": EPISODE_SCHEMA["fired"], "value": pl.Float64}
        ).with_columns(holds=pl.lit(True))
    # The comparison filters: every sample the server returns is a time the condition held.
    return frame.select(pl.col("node").cast(pl.String), "ts", "value", holds=pl.lit(True))


def check_cluster(
    records: list[CaseRecord],
    uri: str,
    *,
    at: datetime | None = None,
    window: TimeWindow | None = None,
    selectors: dict[str, str] | None = None,
    step: timedelta = STEP,
    history: timedelta = HISTORY,
    source_options: dict[str, Any] | None = None,
) -> LiveResult:
    """Evaluate every check of the records on the server, at a moment or over a range."""
    from incidentbook.record.checks import compile_case
    from incidentbook.sources.prometheus import PrometheusSource

    if (at is None) == (window is None):
        raise ValueError("give either a moment or a window")
    source = PrometheusSource(uri, **(source_options or {}))
    if window is None:
        window = TimeWindow(start=at - history, end=at + step)
    rules = [r for rec in records for r in compile_case(rec, None, selectors)]
    firings, notes = [], []
    logs_seen: bool | None = None
    for rule in rules:
        span = TimeWindow(start=window.start - rule.hold - step, end=window.end)
        if isinstance(rule.check, LogCheck) and logs_seen is None:
            count = source.query_range(f"count({LOG_METRIC})", window, step.total_seconds())
            logs_seen = count.height > 0
            if not logs_seen:
                notes.append(
                    f"the server has no {LOG_METRIC} series, so the log checks could not be "
                    "evaluated (a log pipeline has to count the signatures' lines per host; "
                    "`incidentbook export openmetrics --logs` writes them for an incident)"
                )
        eps = episodes(_condition(source, rule, span, step), rule.hold, step)
        if at is not None:
            eps = eps.filter((pl.col("fired") <= at) & (pl.col("end") >= at - step))
        else:
            eps = eps.filter((pl.col("end") >= window.start) & (pl.col("fired") < window.end))
        firings.append(Firing(rule, eps))
    return LiveResult(source.url, window, at, firings, {r.id: r for r in records}, notes)
