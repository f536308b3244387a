"""Checks drafted from an incident's analysis, for a person to confirm or remove.

`draft_checks` takes plain inputs, so it does not depend on how the analysis names its
conclusion: the cause signal, the level it reached before the symptom and its normal
level, how long it held there before the symptom, and the log signatures found.
record/draft.py feeds it the diagnosis' first candidate cause (`cause_from_correlations`
over correlations ordered as the verdict judged them).

What is drafted:

* the cause signal as a PromQL check on the pack's own expression, firing halfway
  between its normal level and the level it reached (so it fires on the way up, before
  the incident's level), held for half the time it held before the symptom (between 1
  and 30 minutes), so that it would have fired before the symptom began;
* each error-or-worse signature found (up to `max_signatures`) as a log check: one line
  on a host within 10 minutes.

Every drafted check has `drafted: true` until a person confirms it in the form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from incidentbook.record.checks import LogCheck, MetricCheck, prom_duration
from incidentbook.text import format_value

if TYPE_CHECKING:
    from incidentbook.metrics.signals import Signal
    from incidentbook.record.model import Correlation, Finding

MIN_HOLD, MAX_HOLD = timedelta(minutes=1), timedelta(minutes=30)
DRAFT_RATE = "2m"
SIGNATURE_SEVERITIES = ("critical", "error")


@dataclass(frozen=True)
class FoundSignature:
    """A signature the logs showed: its catalog id (and Xid code), severity, meaning."""

    signature: str
    severity: str
    explanation: str = ""
    xid: int | None = None
    label: str = ""


def _round(value: float) -> float:
    """Three significant digits: a threshold a person reads, not a float's noise."""
    if value == 0 or not math.isfinite(value):
        return value
    digits = 2 - math.floor(math.log10(abs(value)))
    return round(value, digits)


def _slug(text: str) -> str:
    return "-".join(p for p in text.replace("_", "-").replace(":", "-").lower().split("-") if p)


def draft_metric_check(
    cause: Signal,
    level: float,
    baseline: float | None,
    held: timedelta | None,
) -> MetricCheck | None:
    """The cause signal's check (see the module's doc); None without a PromQL expression."""
    if not cause.promql or not math.isfinite(level):
        return None
    if cause.bad in {"up", "down"}:
        rising = cause.bad == "up"
    else:
        rising = baseline is None or level > baseline
    threshold = level if baseline is None else baseline + (level - baseline) / 2
    hold = max(MIN_HOLD, min(MAX_HOLD, (held or timedelta(minutes=10)) / 2))
    hold = timedelta(minutes=int(hold.total_seconds() // 60))
    op = ">" if rising else "<"
    # said in display units (39.4 ms, not 0.0394 s); the threshold stays in PromQL's
    normal = f", {format_value(baseline, cause.unit)} normally" if baseline is not None else ""
    held_text = f" for {prom_duration(held)}" if held and held > timedelta(0) else ""
    return MetricCheck(
        kind="promql",
        id=_slug(cause.name),
        signal=cause.name,
        op=op,
        threshold=_round(threshold),
        expr=cause.promql,
        rate_window=DRAFT_RATE if "$rate" in cause.promql else None,
        severity="warning",
        drafted=True,
        **{"for": prom_duration(hold)},
        message=(
            f"{cause.label} {'rose to' if rising else 'fell to'} {format_value(level, cause.unit)}"
            f"{held_text} before this incident's symptom{normal}; this fires halfway there."
        ),
    )


def draft_log_checks(found: list[FoundSignature], max_signatures: int = 3) -> list[LogCheck]:
    out: list[LogCheck] = []
    for sig in found:
        if sig.severity not in SIGNATURE_SEVERITIES or len(out) >= max_signatures:
            continue
        what = sig.label or sig.signature
        out.append(
            LogCheck(
                kind="log",
                id=_slug(f"log-{sig.signature}" + (f"-{sig.xid}" if sig.xid is not None else "")),
                signature=sig.signature,
                xid=sig.xid,
                count=1,
                window="10m",
                severity="critical" if sig.severity == "critical" else "warning",
                drafted=True,
                message=f"{what} was logged during this incident. {sig.explanation}".strip(),
            )
        )
    return out


def draft_checks(
    cause: Signal | None,
    level: float | None,
    baseline: float | None,
    held: timedelta | None,
    signatures: list[FoundSignature],
) -> list[MetricCheck | LogCheck]:
    """The drafted checks of an incident, from plain inputs (see the module's doc)."""
    checks: list[MetricCheck | LogCheck] = []
    if cause is not None and level is not None:
        metric = draft_metric_check(cause, level, baseline, held)
        if metric is not None:
            checks.append(metric)
    taken = {c.id for c in checks}
    checks += [c for c in draft_log_checks(signatures) if c.id not in taken]
    return checks


def cause_from_correlations(
    correlations: list[Correlation],
    findings: list[Finding],
    signals: dict[str, Signal],
    primary: str,
) -> tuple[Signal, float, float | None, timedelta | None] | None:
    """The cause: the first correlation judged a cause, of a cause-role signal; its level
    in its anomaly nearest before the symptom's first one, its normal level, and how long
    it had been anomalous when the symptom began."""
    symptom = [f for f in findings if f.signal == primary and f.kind in {"drop", "spike"}]
    for corr in correlations:
        signal = signals.get(corr.signal)
        if signal is None or signal.role != "cause" or not corr.cause:
            continue
        own = [f for f in findings if f.signal == corr.signal and f.value is not None]
        if not own:
            continue
        onset = min((f.start for f in symptom), default=None)
        before = [f for f in own if onset is None or f.start <= onset + timedelta(minutes=1)]
        pick = max(before, key=lambda f: f.start) if before else min(own, key=lambda f: f.start)
        # How long it had held when the symptom began (or, after it, how long it held).
        until = min(onset, pick.end) if onset is not None else pick.end
        held = max(until - pick.start, timedelta(0))
        return signal, float(pick.value), pick.baseline, held
    return None
