"""Failures over time: known log signature lines and the share of hosts up, and the known
signatures one row each."""

from __future__ import annotations

from datetime import timedelta

import altair as alt
import polars as pl

from incidentbook.charts.core import (
    HOVER,
    LEGEND_LIMIT,
    OTHER_COLOUR,
    PALETTE,
    SERIES_POINTS,
    SEVERITY_COLOURS,
    TIMELINE_KEYS,
    TOP_LOG_KEYS,
    AnyChart,
    Signals,
    _ms,
    _note,
    _series,
    _signal,
    _time_x,
    _when,
    _window_domain,
)
from incidentbook.charts.entries import ChartEntry
from incidentbook.logs.analysis import LogAnalysis
from incidentbook.metrics.analysis import Analysis
from incidentbook.text import format_span
from incidentbook.window import TimeWindow

# --- failures ------------------------------------------------------------------------------


def _log_rates(logs: LogAnalysis, domain: list[int], *, labels: bool) -> alt.Chart | None:
    if logs.counts.height == 0:
        return None
    ranked = logs.signatures.select("key", pl.coalesce("label", "key").alias("label"), "severity")
    top = ranked.head(TOP_LOG_KEYS)
    named = dict(zip(top.get_column("key"), top.get_column("label"), strict=True))
    severity = dict(zip(ranked.get_column("key"), ranked.get_column("severity"), strict=True))
    size = logs.bucket
    per = (
        logs.counts.with_columns(
            group=pl.col("key").replace_strict(named, default="other", return_dtype=pl.String),
            severity=pl.col("key").replace_strict(severity, default=None, return_dtype=pl.String),
        )
        .group_by("bucket", "group")
        .agg(
            lines=pl.col("count").sum().cast(pl.Int64),
            hosts=pl.col("host").n_unique().cast(pl.Int64),
            severity=pl.col("severity").drop_nulls().unique().sort().str.join(", "),
        )
        .with_columns(ts=_ms("bucket"), ts_end=_ms("bucket") + size // timedelta(milliseconds=1))
        .drop("bucket")
        .sort("ts", "group")
    )
    order = [*named.values(), *(["other"] if (per.get_column("group") == "other").any() else [])]
    minutes = size // timedelta(minutes=1)
    bars = (
        alt.Chart(per)
        .mark_bar(clip=True)
        .encode(
            x=_time_x(domain, labels=labels),
            x2="ts_end:T",
            y=alt.Y(
                "sum(lines):Q",
                title=f"log lines per {minutes} min",
                stack="zero",
                axis=alt.Axis(tickMinStep=1, format="d"),
            ),
            color=alt.Color(
                "group:N",
                title="signature",
                scale=alt.Scale(domain=order, range=[*PALETTE[: len(named)], OTHER_COLOUR]),
                sort=order,
                legend=alt.Legend(labelLimit=LEGEND_LIMIT),
            ),
            tooltip=[
                alt.Tooltip("group:N", title="signature"),
                alt.Tooltip("severity:N"),
                _when("ts", "from"),
                _when("ts_end", "to"),
                alt.Tooltip("lines:Q", title="lines"),
                alt.Tooltip("hosts:Q", title="hosts logging it"),
            ],
        )
        .properties(height=140, title=alt.Title("Known log signatures", fontSize=12))
    )
    return bars


def _hosts_up(analysis: Analysis, signals: Signals, domain: list[int]) -> alt.Chart | None:
    """The share of hosts up, from the analysis' (first) liveness signal."""
    if not analysis.liveness:
        return None
    name = analysis.liveness[0]
    up = _series(analysis, name, SERIES_POINTS)
    if up.height == 0:
        return None
    tooltip = [_when("ts", "time"), alt.Tooltip("value:Q", title="hosts up", format=".1%")]
    if "reporting" in up.columns:
        tooltip.append(alt.Tooltip("reporting:Q", title="hosts reporting"))
    signal = _signal(signals, name)
    label = signal.label if signal else "Hosts up"
    base = alt.Chart(up).encode(
        x=_time_x(domain),
        y=alt.Y(
            "value:Q",
            title="hosts up",
            axis=alt.Axis(format=".0%", tickCount=5),
            scale=alt.Scale(domain=[0, 1]),
        ),
    )
    return alt.layer(
        base.mark_line(clip=True, interpolate="step-after"),
        base.mark_circle(style=HOVER, opacity=0, size=40, clip=True).encode(tooltip=tooltip),
    ).properties(
        height=110,
        title=alt.Title(f"{label} (share of all hosts)", fontSize=12),
    )


def failure_rate_chart(
    analysis: Analysis, logs: LogAnalysis | None, signals: Signals | None = None
) -> AnyChart:
    """Failures over time: known log signature lines per bucket (the most severe and
    frequent keys by name, the rest as "other"), and the share of hosts up (the analysis'
    liveness signal, `node_up` in the default pack).

    Either part is left out when its data is absent; with neither, a small chart says so.
    """
    signals = signals or {}
    domain = _window_domain(analysis.window)
    has_up = any(
        analysis.cluster.filter(pl.col("signal") == name).height for name in analysis.liveness[:1]
    )
    parts: list[alt.LayerChart | alt.Chart] = []
    # Time labels go on the bottom panel only.
    if logs is not None and (rates := _log_rates(logs, domain, labels=not has_up)) is not None:
        parts.append(rates)
    if (up := _hosts_up(analysis, signals, domain)) is not None:
        parts.append(up)
    title = "Failures over time"
    if not parts:
        return _note(title, "no failure data in this window")
    what = " and ".join(
        w
        for w, present in (
            ("log signature lines", logs is not None and logs.counts.height > 0),
            ("hosts up", has_up),
        )
        if present
    )
    window = format_span(analysis.window.start, analysis.window.end, style="window")
    return alt.vconcat(*parts, spacing=14).properties(
        title=alt.Title(f"{title}: {what}", subtitle=f"window {window}")
    )


def signature_timeline(logs: LogAnalysis | None, *, window: TimeWindow | None = None) -> AnyChart:
    """Known log signatures over time: one row per signature (most severe first), a mark
    per bucket sized by its line count and coloured by severity.

    The time axis spans `window` when given (to line up with the other charts), else the
    buckets that have lines."""
    title = "Known log signatures over time"
    if logs is None or logs.counts.height == 0 or logs.signatures.height == 0:
        return _note(title, "no known log signature in this window")
    ranked = logs.signatures.select(
        "key", pl.coalesce("label", "key").alias("label"), "severity", "hosts"
    ).head(TIMELINE_KEYS)
    keys = ranked.get_column("key").to_list()
    labels = ranked.get_column("label").to_list()
    size = logs.bucket
    step = size // timedelta(milliseconds=1)
    data = (
        logs.counts.filter(pl.col("key").is_in(keys))
        .group_by("bucket", "key")
        .agg(lines=pl.col("count").sum().cast(pl.Int64), hosts=pl.col("host").n_unique())
        .join(
            ranked.select(
                "key",
                "label",
                "severity",
                all_hosts=pl.col("hosts").list.len(),
                rank=pl.int_range(pl.len()),
            ),
            on="key",
        )
        .with_columns(start=_ms("bucket"))
        .with_columns(ts=pl.col("start") + step // 2)
        .select("rank", "label", "severity", "ts", "start", "lines", "hosts", "all_hosts")
        .sort("rank", "ts")
    )
    if window is not None:
        domain = _window_domain(window)
    else:
        domain = [data.get_column("start").min(), data.get_column("start").max() + step]
    present = [s for s in SEVERITY_COLOURS if s in set(data.get_column("severity").to_list())]
    minutes = size // timedelta(minutes=1)
    more = logs.signatures.height - len(keys)
    subtitle = f"one mark per {minutes} min, sized by lines; most severe first" + (
        f"; {more} less severe signatures not shown" if more > 0 else ""
    )
    return (
        alt.Chart(data, title=alt.Title(title, subtitle=subtitle))
        .mark_circle(opacity=0.85, stroke="white", strokeWidth=0.5)
        .encode(
            x=_time_x(domain, padding=16),
            y=alt.Y("label:N", sort=labels, title=None, axis=alt.Axis(labelLimit=LEGEND_LIMIT)),
            size=alt.Size("lines:Q", title="lines", scale=alt.Scale(range=[40, 500], zero=False)),
            color=alt.Color(
                "severity:N",
                scale=alt.Scale(domain=present, range=[SEVERITY_COLOURS[s] for s in present]),
                sort=present,
            ),
            tooltip=[
                alt.Tooltip("label:N", title="signature"),
                alt.Tooltip("severity:N"),
                _when("start", "bucket from"),
                alt.Tooltip("lines:Q", title="lines"),
                alt.Tooltip("hosts:Q", title="hosts in this bucket"),
                alt.Tooltip("all_hosts:Q", title="hosts in the window"),
            ],
        )
        .properties(height=alt.Step(26))
    )


FAILURE_RATES = ChartEntry(
    "failure-rates",
    "Failure rates over time",
    lambda inv: failure_rate_chart(inv.analysis, inv.logs, inv.pack.signals),
)
SIGNATURES = ChartEntry(
    "signatures",
    "Log signatures over time",
    lambda inv: (
        signature_timeline(inv.logs)
        if inv.logs is not None and inv.logs.signatures.height
        else None
    ),
)
