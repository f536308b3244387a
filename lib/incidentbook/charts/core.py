"""Charts of an incident: functions that take frames and values and return altair charts.

Nothing here displays a chart or writes a file, except `save_svg`; the workbook shows
what these return and the report page embeds `to_svg`'s output.

How large data is handled: altair embeds data inline (about 120 bytes a row) and refuses
more than 5,000 rows, and a cluster of 500 hosts sampled every 15 s over a day has
millions. So every chart is drawn from data already made small here: time series are
downsampled with MinMaxLTTB (`downsample`), host-by-time data is bucketed, and each
function keeps its total inline rows under `ROW_BUDGET`, whatever the cluster size,
without raising altair's limit.

Determinism: times are sent as epoch milliseconds (UTC), frames are sorted before they
are embedded, and the one selection has a fixed name, so the same input gives the same
spec JSON and the same SVG.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import TypeAlias

import altair as alt
import numpy as np
import polars as pl
import vl_convert as vlc
from tsdownsample import MinMaxLTTBDownsampler

from incidentbook.logs.analysis import LogAnalysis, bucket_for
from incidentbook.logs.severity import SIGNATURE_SEVERITIES
from incidentbook.metrics.analysis import Analysis
from incidentbook.metrics.signals import Signal, SignalPack
from incidentbook.window import TimeWindow

AnyChart: TypeAlias = alt.Chart | alt.LayerChart | alt.VConcatChart
Signals: TypeAlias = SignalPack | Mapping[str, Signal]

THEME = "incidentbook"
WIDTH = 720
FONT = "Liberation Sans, Arial, Helvetica, sans-serif"
# Okabe and Ito's palette: told apart with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
LINE_COLOUR = PALETTE[0]
ANOMALY_COLOUR = "#D55E00"  # vermilion, far from the blue lines it shades
ANOMALY_OPACITY = 0.22
BASELINE_COLOUR = "#555555"
OTHER_COLOUR = "#999999"
SEVERITY_COLOURS = dict(
    zip(SIGNATURE_SEVERITIES, ["#D55E00", "#E69F00", "#56B4E9", "#999999"], strict=True)
)
ROW_BUDGET = 4_500
"""Most inline rows a chart of this module embeds, under altair's 5,000-row limit."""
SERIES_POINTS = 1_000
"""Points a time series is downsampled to when it is drawn alone."""
HEATMAP_COLUMNS = 60
TOP_LOG_KEYS = 5
MIN_SHADE = 0.004
"""Least width of an anomaly's shading, as a share of the window (3 of 720 pixels)."""
TIMELINE_KEYS = 40
BRUSH = "brush"
HOVER = "hover"  # the style of invisible marks that only carry tooltips

# Hours and minutes for times within a day, the date where a day starts.
TIME_FORMAT = {
    "milliseconds": "%H:%M:%S.%L",
    "seconds": "%H:%M:%S",
    "minutes": "%H:%M",
    "hours": "%H:%M",
    "date": "%b %d",
    "week": "%b %d",
    "month": "%b %Y",
    "year": "%Y",
}
TOOLTIP_TIME = "%Y-%m-%d %H:%M:%S UTC"
UTC_SECONDS = "utcyearmonthdatehoursminutesseconds"


# --- theme -----------------------------------------------------------------------------


def _theme() -> alt.theme.ThemeConfig:
    axis = {
        "labelFontSize": 11,
        "titleFontSize": 12,
        "titleFontWeight": "normal",
        "titleColor": "#333333",
        "labelColor": "#333333",
        "gridColor": "#e8e8e8",
        "domainColor": "#888888",
        "tickColor": "#888888",
    }
    return {
        "config": {
            "font": FONT,
            "background": "white",
            "padding": 8,
            "view": {"continuousWidth": WIDTH, "continuousHeight": 220, "stroke": None},
            "title": {
                "fontSize": 15,
                "fontWeight": "bold",
                "anchor": "start",
                "offset": 10,
                "subtitleFontSize": 12,
                "subtitleColor": "#555555",
            },
            "axis": axis,
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal"},
            "header": {"labelFontSize": 12, "titleFontSize": 12},
            "text": {"fontSize": 11},
            "line": {"strokeWidth": 1.5, "color": LINE_COLOUR},
            "range": {
                "category": PALETTE,
                "heatmap": {"scheme": "viridis"},
                "ramp": {"scheme": "viridis"},
            },
            # Named styles the charts refer to (`mark_rect(style="anomaly")`).
            "style": {
                "anomaly": {
                    "color": ANOMALY_COLOUR,
                    "fill": ANOMALY_COLOUR,
                    "opacity": ANOMALY_OPACITY,
                },
                "baseline": {"color": BASELINE_COLOUR, "strokeDash": [6, 4], "strokeWidth": 1.2},
                "note": {"color": "#555555", "fontSize": 13},
            },
            "concat": {"spacing": 18},
        }
    }


def _register() -> None:
    alt.theme.register(THEME, enable=False)(_theme)


def register_theme() -> None:
    """Register the incidentbook theme and enable it for every chart made afterwards.

    Readable fonts and sizes, Okabe and Ito's colour-blind-safe palette, the anomaly
    shading colour (the `anomaly` style) and a width of 720 pixels. `to_svg` applies it
    by itself, so the report page looks the same whatever theme a notebook enabled.
    """
    _register()
    alt.theme.enable(THEME)


# --- data ------------------------------------------------------------------------------


def downsample(
    frame: pl.DataFrame,
    *,
    x: str = "ts",
    y: str = "value",
    by: list[str] | None = None,
    points: int = SERIES_POINTS,
) -> pl.DataFrame:
    """At most `points` rows per group (`by`), chosen by MinMaxLTTB, sorted by group and x.

    MinMaxLTTB (tsdownsample) first keeps each bucket's minimum and maximum, then picks
    among them with largest-triangle-three-buckets: a one-sample stall or latency spike
    survives, where a mean per bucket (group_by_dynamic) would flatten it into the noise,
    and those spikes are what a postmortem is looking for. It takes 10M points to 2,000
    in about 20 ms.

    Groups of at most `points` rows pass through unchanged (nulls included, which a line
    draws as a gap). Larger groups are downsampled from their rows where x and y are both
    known. The whole rows are kept, so other columns come along.
    """
    if points < 3:
        raise ValueError(f"points must be at least 3 (MinMaxLTTB keeps the ends), not {points}")
    keys = list(by or [])
    ordered = frame.sort([*keys, x], nulls_last=True, maintain_order=True)
    groups = ordered.partition_by(keys, maintain_order=True) if keys else [ordered]
    parts = []
    for group in groups:
        if group.height <= points:
            parts.append(group)
            continue
        known = group.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
        if known.schema[y].is_float():
            known = known.filter(pl.col(y).is_not_nan())
        if known.height <= points:
            parts.append(known)
            continue
        xs = known.get_column(x).to_physical().cast(pl.Int64).to_numpy()
        ys = known.get_column(y).cast(pl.Float64).to_numpy()
        index = MinMaxLTTBDownsampler().downsample(xs, ys, n_out=points)
        parts.append(known[np.sort(index).astype(np.int64)])
    return pl.concat(parts) if parts else frame.clear()


def _epoch_ms(value: datetime) -> int:
    return round(value.timestamp() * 1000)


def _ms(column: str) -> pl.Expr:
    """A datetime column as epoch milliseconds: compact, and unambiguous UTC for Vega."""
    return pl.col(column).dt.epoch("ms")


def _signal(signals: Signals, name: str) -> Signal | None:
    table = signals.signals if isinstance(signals, SignalPack) else signals
    return table.get(name)


def _label(signals: Signals, name: str) -> str:
    signal = _signal(signals, name)
    return signal.label if signal else {"node_up": "Hosts up"}.get(name, name)


def _unit(signals: Signals, name: str) -> str:
    signal = _signal(signals, name)
    return signal.unit if signal else ""


def _titled(signals: Signals, name: str) -> str:
    """`Training throughput (tokens/s)`: a label with its unit, for axes and legends."""
    unit = _unit(signals, name)
    label = _label(signals, name)
    if unit == "ratio":
        return f"{label} (%)"
    return f"{label} ({unit})" if unit else label


def _lower(label: str) -> str:
    """`Training throughput` -> `training throughput`, but `GPU power` and
    `Model FLOPs utilisation` keep their capitals where they are acronyms."""
    first, _, rest = label.partition(" ")
    if len(first) > 1 and first[1:].islower():
        first = first.lower()
    return f"{first} {rest}".strip()


def _short_title(signals: Signals, name: str) -> str:
    """A row's y title: the unit alone, since the row's title names the signal."""
    unit = _unit(signals, name)
    return {"ratio": "%", "": _label(signals, name)}.get(unit, unit)


def _format_value(value: float, unit: str) -> str:
    if unit == "ratio":
        return f"{value:.1%}"
    size = abs(value)
    if size >= 1e4:
        for factor, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
            if size >= factor:
                text = f"{value / factor:.3g}{suffix}"
                break
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}".strip()


def _axis_format(unit: str, values: pl.Series) -> str | alt.UndefinedType:
    """Percent for ratios, SI prefixes (1.2M) for large values, else Vega's default."""
    if unit == "ratio":
        return ".0%"
    top = values.abs().max() if values.len() else None
    return "~s" if top is not None and top >= 1e4 else alt.Undefined


def _time_x(
    domain: list[int] | alt.Parameter | None,
    *,
    labels: bool = True,
    field: str = "ts",
    padding: float | None = None,
) -> alt.X:
    """The time axis every chart shares: UTC, hours and minutes, dates where days start.

    `domain` is a window as [start, end] in epoch ms, or a brush to follow. A window is
    given as domainMin and domainMax: Vega-Lite reports an explicit temporal `domain`
    as conflicting with itself on marks with x2.
    """
    options: dict = {"padding": padding}
    if isinstance(domain, list):
        options.update(domainMin=domain[0], domainMax=domain[1])
    else:
        options["domain"] = domain
    scale = alt.Scale(type="utc", nice=False, **{k: v for k, v in options.items() if v is not None})
    axis = alt.Axis(format=TIME_FORMAT, labelOverlap=True, labels=labels, tickCount=12)
    return alt.X(f"{field}:T", title="time (UTC)" if labels else None, scale=scale, axis=axis)


def _when(field: str, title: str) -> alt.Tooltip:
    """A time in a tooltip, to the second, in UTC (a utc time unit makes Vega-Lite format
    it with utcFormat; `formatType="utc"` gives NaN in Vega-Lite 6)."""
    return alt.Tooltip(f"{field}:T", title=title, timeUnit=UTC_SECONDS, format=TOOLTIP_TIME)


def _window_domain(window: TimeWindow) -> list[int]:
    return [_epoch_ms(window.start), _epoch_ms(window.end)]


def _note(title: str, text: str) -> alt.Chart:
    """A small chart that says there is nothing to draw, in place of an error."""
    return (
        alt.Chart(alt.Data(values=[{"note": text}]), title=title)
        .mark_text(style="note", align="left", baseline="middle")
        .encode(text="note:N", x=alt.value(0), y=alt.value(20))
        .properties(height=40)
    )


def _series(analysis: Analysis, name: str, points: int) -> pl.DataFrame:
    """One cluster series, downsampled, ts as epoch ms."""
    rows = (
        analysis.cluster.filter(pl.col("signal") == name)
        .select("ts", "value", *(["reporting"] if "reporting" in analysis.cluster.columns else []))
        .sort("ts")
    )
    return downsample(rows, points=points).with_columns(ts=_ms("ts"))


def _intervals(analysis: Analysis, name: str, unit: str) -> pl.DataFrame:
    """The drops and spikes found in one signal, one row each, for shading.

    `ts` and `ts_end` are what is drawn: at least `MIN_SHADE` of the window wide, centred
    on the anomaly, so a one-sample spike in a day-long window is still seen; `start` and
    `end`, in the tooltip, are the anomaly's own times.
    """
    least = analysis.window.duration * MIN_SHADE // timedelta(milliseconds=1)
    rows = [
        {
            "start": _epoch_ms(f.start),
            "end": _epoch_ms(f.end),
            "kind": f.kind,
            "level": _format_value(f.value, unit) if f.value is not None else "",
            "change": f.magnitude,
            "hosts": len(f.hosts),
            "summary": f.summary,
        }
        for f in analysis.findings
        if f.signal == name and f.kind in ("drop", "spike")
    ]
    schema = {
        "start": pl.Int64,
        "end": pl.Int64,
        "kind": pl.String,
        "level": pl.String,
        "change": pl.Float64,
        "hosts": pl.Int64,
        "summary": pl.String,
    }
    pad = ((least - (pl.col("end") - pl.col("start"))) // 2).clip(lower_bound=0)
    return (
        pl.DataFrame(rows, schema=schema, orient="row")
        .with_columns(ts=pl.col("start") - pad, ts_end=pl.col("end") + pad)
        .sort("start", "end")
    )


def _baseline_level(analysis: Analysis, name: str) -> float | None:
    """The signal's median over the baseline window (the whole window if that is empty),
    which is the level the analysis compared its drops and spikes with."""
    series = analysis.cluster.filter(pl.col("signal") == name)
    base = series.filter(analysis.baseline.contains())
    values = (base if base.height else series).get_column("value").drop_nulls()
    return float(values.median()) if values.len() else None


def _kind_word(intervals: pl.DataFrame) -> str:
    kinds = set(intervals.get_column("kind").to_list())
    return {frozenset({"drop"}): "drops", frozenset({"spike"}): "spikes"}.get(
        frozenset(kinds), "anomalies"
    )


def _clock(value: datetime) -> str:
    return f"{value:%H:%M}"


def _signal_layers(
    analysis: Analysis,
    signals: Signals,
    name: str,
    *,
    points: int,
    domain: list[int] | alt.Parameter,
    height: int,
    labels: bool = True,
    y_title: str | None = None,
) -> tuple[alt.LayerChart, pl.DataFrame] | None:
    """One signal over the window: its anomalies shaded, its line, its baseline level.

    One base chart holds the shared time axis; each layer is derived from it. The
    baseline rule runs from the window's start to its end, which also pins the time axis
    to the window when a brush leaves it to the data.
    """
    series = _series(analysis, name, points)
    if series.height == 0:
        return None
    unit = _unit(signals, name)
    title = _titled(signals, name)
    intervals = _intervals(analysis, name, unit)
    level = _baseline_level(analysis, name)
    y_axis = alt.Axis(
        format=_axis_format(unit, series.get_column("value")), tickCount=5, titleLimit=height
    )
    y = alt.Y("value:Q", title=y_title or title, axis=y_axis, scale=alt.Scale(zero=False))
    base = alt.Chart(series).encode(x=_time_x(domain, labels=labels))
    tooltip = [_when("ts", "time"), alt.Tooltip("value:Q", title=title)]
    if "reporting" in series.columns:
        tooltip.append(alt.Tooltip("reporting:Q", title="hosts reporting"))
    shading = (
        # The theme's `anomaly` style colours it; the opacity is also set here so that
        # the line still shows through where no theme was enabled.
        base.mark_rect(style="anomaly", opacity=ANOMALY_OPACITY, clip=True)
        .encode(
            x2="ts_end:T",
            tooltip=[
                alt.Tooltip("kind:N", title="found"),
                _when("start", "from"),
                _when("end", "to"),
                alt.Tooltip("level:N", title="mean level"),
                alt.Tooltip("change:Q", title="change from baseline", format="+.1%"),
                alt.Tooltip("hosts:Q", title="hosts flagged"),
                alt.Tooltip("summary:N", title="summary"),
            ],
        )
        .properties(data=intervals)
    )
    line = base.mark_line(clip=True).encode(y=y)
    # Invisible points on the line carry its tooltips (a line is one mark in Vega);
    # `to_svg` leaves them out, a static image has no tooltips.
    hover = base.mark_circle(style=HOVER, opacity=0, size=40, clip=True).encode(
        y=y, tooltip=tooltip
    )
    layers = [shading, line, hover]
    if level is not None:
        text = f"baseline {_format_value(level, unit)}"
        window = analysis.window
        edge = pl.DataFrame(
            {
                "ts": [_epoch_ms(window.start)],
                "ts_end": [_epoch_ms(window.end)],
                "value": [level],
                "text": [text],
            }
        )
        rule = (
            base.mark_rule(style="baseline", clip=True)
            .encode(x2="ts_end:T", y="value:Q", tooltip=[alt.Tooltip("text:N", title="level")])
            .properties(data=edge)
        )
        # Above the rule, or below it where the rule runs near the top of the chart.
        values = series.get_column("value")
        low, high = values.min(), values.max()
        near_top = high is not None and high > low and (level - low) / (high - low) > 0.75
        label = (
            base.mark_text(
                align="right",
                baseline="top" if near_top else "bottom",
                dx=-2,
                dy=3 if near_top else -3,
                color=BASELINE_COLOUR,
                clip=True,
            )
            .encode(x=_time_x(domain, labels=labels, field="ts_end"), y="value:Q", text="text:N")
            .properties(data=edge)
        )
        layers += [rule, label]
    return alt.layer(*layers).properties(height=height), intervals


def _points_each(series: int) -> int:
    """Points per series so that `series` of them, with their shading, fit the budget."""
    return max(3, min(SERIES_POINTS, (ROW_BUDGET - 500) // max(series, 1)))


# --- the story: the symptom and what moved with it ---------------------------------------


def symptom_chart(
    analysis: Analysis,
    signals: Signals,
    *,
    brush: alt.Parameter | None = None,
    points: int = SERIES_POINTS,
) -> alt.LayerChart | alt.Chart:
    """The primary signal over the window, its drops and spikes shaded, its baseline level.

    `brush` (an `alt.selection_interval(encodings=["x"])`) is added to this chart, so
    dragging on it selects a time range other charts can follow. A primary signal with no
    data gives a small chart that says so.
    """
    name = analysis.primary
    label = _label(signals, name)
    built = _signal_layers(
        analysis,
        signals,
        name,
        points=points,
        domain=_window_domain(analysis.window),
        height=220,
    )
    if built is None:
        return _note(f"{label}: no data", f"no data for {_lower(label)} in this window")
    chart, intervals = built
    if intervals.height:
        word = _kind_word(intervals)
        title = f"{label} with the {word} found"
        subtitle = f"{intervals.height} {word} shaded"
    else:
        title = f"{label}: no drops or spikes found"
        subtitle = "nothing shaded"
    subtitle += (
        f"; dashed: baseline level (median {_clock(analysis.baseline.start)}"
        f"-{_clock(analysis.baseline.end)} UTC)"
    )
    if brush is not None:
        subtitle += "; drag across it to zoom the charts below"
        # The selection goes on the line's layer, whose data spans the window.
        layers = list(chart.layer)
        layers[1] = layers[1].add_params(brush)
        chart = alt.layer(*layers).properties(height=chart.height)
    return chart.properties(title=alt.Title(title, subtitle=subtitle))


def _lead(seconds: float, word: str) -> str:
    if abs(seconds) < 1:
        return f"with the {word}"
    amount = f"{abs(seconds) / 60:.0f} min" if abs(seconds) >= 120 else f"{abs(seconds):.0f} s"
    return f"{amount} {'before' if seconds < 0 else 'after'} the {word}"


def correlated_chart(
    analysis: Analysis,
    signals: Signals,
    *,
    top: int = 3,
    brush: alt.Parameter | None = None,
    points: int | None = None,
) -> alt.VConcatChart | alt.Chart:
    """The `top` signals that moved with the symptom, one row each, in ranking order.

    The rows share the symptom chart's time axis so each anomaly sits under the drop it
    matched; each row shades its own drops and spikes and names its score. With `brush`
    (added to a chart in the same composition, as `story_chart` does) their time axis
    follows the selection. No correlations give a small chart that says so.
    """
    primary = _lower(_label(signals, analysis.primary))
    chosen = analysis.correlations[: max(top, 0)]
    title = f"Signals that moved with the {primary}"
    if not chosen:
        return _note(title, f"no other signal's anomalies lined up with the {primary}")
    points = points or _points_each(len(chosen))
    domain: list[int] | alt.Parameter = (
        brush if brush is not None else _window_domain(analysis.window)
    )
    symptom = _intervals(analysis, analysis.primary, "")
    word = _kind_word(symptom) if symptom.height else "anomalies"
    rows = []
    for rank, corr in enumerate(chosen, start=1):
        built = _signal_layers(
            analysis,
            signals,
            corr.signal,
            points=points,
            domain=domain,
            height=110,
            labels=rank == len(chosen),
            y_title=_short_title(signals, corr.signal),
        )
        label = _label(signals, corr.signal)
        row_title = alt.Title(
            f"{rank}. {label}: score {corr.score:.2f}, "
            f"matched {corr.matched} {word}, {_lead(corr.lag_seconds, word)}",
            fontSize=12,
            fontWeight="normal",
            frame="group",
        )
        if built is None:
            rows.append(_note(row_title.text, f"no data for {_lower(label)} in this window"))
            continue
        rows.append(built[0].properties(title=row_title))
    subtitle = "ranked by how well their anomalies line up with it (1 = every one matched)"
    return alt.vconcat(*rows, spacing=14).properties(
        title=alt.Title(title, subtitle=subtitle, fontSize=14)
    )


def story_chart(analysis: Analysis, signals: Signals, *, top: int = 3) -> alt.VConcatChart:
    """The headline chart: the symptom on top, what moved with it below, one brush for both.

    Dragging across the symptom zooms the rows below to the selected time range.
    """
    brush = alt.selection_interval(encodings=["x"], name=BRUSH)
    chosen = min(max(top, 0), len(analysis.correlations))
    points = _points_each(1 + chosen)
    upper = symptom_chart(analysis, signals, brush=brush, points=points)
    has_brush = isinstance(upper, alt.LayerChart)
    lower = correlated_chart(
        analysis, signals, top=top, brush=brush if has_brush else None, points=points
    )
    return alt.vconcat(upper, lower, spacing=28)


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
                legend=alt.Legend(labelLimit=240),
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
    up = _series(analysis, "node_up", SERIES_POINTS)
    if up.height == 0:
        return None
    tooltip = [_when("ts", "time"), alt.Tooltip("value:Q", title="hosts up", format=".1%")]
    if "reporting" in up.columns:
        tooltip.append(alt.Tooltip("reporting:Q", title="hosts reporting"))
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
        title=alt.Title(f"{_label(signals, 'node_up')} (share of all hosts)", fontSize=12),
    )


def failure_rate_chart(
    analysis: Analysis, logs: LogAnalysis | None, signals: Signals | None = None
) -> AnyChart:
    """Failures over time: known log signature lines per bucket (the most severe and
    frequent keys by name, the rest as "other"), and the share of hosts up (`node_up`).

    Either part is left out when its data is absent; with neither, a small chart says so.
    """
    signals = signals or {}
    domain = _window_domain(analysis.window)
    has_up = analysis.cluster.filter(pl.col("signal") == "node_up").height > 0
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
    return alt.vconcat(*parts, spacing=14).properties(
        title=alt.Title(f"{title}: {what}", subtitle=f"window {_span(analysis.window)}")
    )


def _span(window: TimeWindow) -> str:
    start, end = window.start, window.end
    tail = f"{end:%H:%M}" if start.date() == end.date() else f"{end:%Y-%m-%d %H:%M}"
    return f"{start:%Y-%m-%d %H:%M} to {tail} UTC"


# --- hosts ---------------------------------------------------------------------------------


def host_heatmap(
    metrics_frame: pl.DataFrame,
    signal: str,
    signals: Signals,
    *,
    window: TimeWindow,
    bucket: timedelta | None = None,
    hosts: int = 40,
) -> alt.Chart:
    """One signal by host and time: the `hosts` hosts furthest from the median host in the
    direction that hurts (the signal's `bad`), worst first.

    Time is cut into round buckets (about 60 columns); a cell holds the host's worst value
    in its bucket across its GPUs or devices (the lowest for a signal bad when it falls,
    the highest when it rises, the mean when both hurt). A host's deviation is the mean,
    over the buckets, of how far its cell sits past the median host's in that bucket, so a
    host that is always a little off and one that was far off for a while both show.
    Hosts tied (most often at no deviation) follow in name order. A bucket too small for
    the row budget (`hosts` x columns) is doubled until the cells fit.
    """
    info = _signal(signals, signal)
    bad = info.bad if info else "both"
    label = _label(signals, signal)
    title = _titled(signals, signal)
    hosts = min(max(int(hosts), 1), ROW_BUDGET)
    if bucket is None:
        # Keep hosts x columns inside the row budget even when many hosts are asked for.
        bucket = bucket_for(window, max(1, min(HEATMAP_COLUMNS, ROW_BUDGET // hosts)))
    worst = {"down": pl.col("value").min(), "up": pl.col("value").max()}.get(
        bad, pl.col("value").mean()
    )
    cells = (
        metrics_frame.lazy()
        .filter(
            (pl.col("signal") == signal)
            & window.contains()
            & pl.col("value").is_not_null()
            & pl.col("value").is_not_nan()
        )
        .group_by(pl.col("ts").dt.truncate(bucket).alias("bucket"), pl.col("node").cast(pl.String))
        .agg(value=worst)
        # Sorted before any float sum, so equal inputs give equal deviations and ranks.
        .sort("node", "bucket")
        .with_columns(median=pl.col("value").median().over("bucket"))
        .collect()
    )
    heading = f"{label} by host"
    if cells.height == 0:
        return _note(heading, f"no data for {_lower(label)} in this window")
    past = {
        "down": pl.col("median") - pl.col("value"),
        "up": pl.col("value") - pl.col("median"),
    }.get(bad, (pl.col("value") - pl.col("median")).abs())
    deviations = (
        cells.group_by("node", maintain_order=True)
        .agg(deviation=past.clip(lower_bound=0).mean())
        .sort(["deviation", "node"], descending=[True, False])
    )
    ranking = deviations.head(hosts)
    order = ranking.get_column("node").to_list()
    step = bucket // timedelta(milliseconds=1)
    ranked = (
        cells.join(ranking.select("node"), on="node")
        .with_columns(
            ts=_ms("bucket"), rank=pl.col("node").replace_strict(order, list(range(len(order))))
        )
        .sort("rank", "ts")
    )
    # A host's consecutive buckets with the same value become one cell: a link stuck at
    # x4 all day is one rect, not sixty (smaller spec, much smaller SVG).
    data = (
        ranked.with_columns(
            run=(
                (pl.col("value") != pl.col("value").shift())
                | (pl.col("rank") != pl.col("rank").shift())
                | (pl.col("ts") - pl.col("ts").shift() != step)
            )
            .fill_null(True)
            .cum_sum()
        )
        .group_by("run", maintain_order=True)
        .agg(
            pl.col("rank").first(),
            pl.col("node").first(),
            pl.col("ts").first(),
            ts_end=pl.col("ts").last() + step,
            value=pl.col("value").first(),
            median=pl.col("median").median(),
        )
        .drop("run")
    )
    if data.height > ROW_BUDGET:
        return host_heatmap(
            metrics_frame, signal, signals, window=window, bucket=bucket * 2, hosts=hosts
        )
    direction = {"down": "below", "up": "above"}.get(bad, "away from")
    total = deviations.height
    off = deviations.filter(pl.col("deviation") > 0).height
    minutes = bucket // timedelta(minutes=1)
    cell = {"down": "lowest", "up": "highest"}.get(bad, "mean")
    subtitle = f"worst first; one column per {minutes} min, each cell the host's {cell} value"
    if off < len(order):
        subtitle += f"; only {off} ever sat {direction} it, the rest follow by name"
    heat_title = alt.Title(
        f"{heading}: the {len(order)} of {total} hosts furthest {direction} the median host",
        subtitle=subtitle,
    )
    unit = _unit(signals, signal)
    fmt = _axis_format(unit, data.get_column("value"))
    return (
        alt.Chart(data, title=heat_title)
        # No per-cell ARIA label: 2,000 cell descriptions would triple the SVG.
        .mark_rect(aria=False)
        .encode(
            x=_time_x(_window_domain(window)),
            x2="ts_end:T",
            y=alt.Y("node:N", sort=order, title=None, axis=alt.Axis(labelLimit=200)),
            color=alt.Color(
                "value:Q",
                title=title,
                # Viridis, turned so that the bad end is the dark one.
                scale=alt.Scale(scheme="viridis", reverse=bad == "up"),
                legend=alt.Legend(format=fmt, titleLimit=260),
            ),
            tooltip=[
                alt.Tooltip("node:N", title="host"),
                _when("ts", "from"),
                _when("ts_end", "to"),
                alt.Tooltip("value:Q", title=title),
                alt.Tooltip("median:Q", title="median host then"),
                alt.Tooltip("rank:Q", title="rank (0 = worst)"),
            ],
        )
        .properties(height=alt.Step(14))
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
            y=alt.Y("label:N", sort=labels, title=None, axis=alt.Axis(labelLimit=280)),
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


# --- static output -------------------------------------------------------------------------


def _vl_version() -> str | None:
    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    return major_minor if major_minor in vlc.get_vegalite_versions() else None


def _without_hover(spec: object) -> object:
    """The spec without the invisible tooltip marks: a static image has no tooltips, and
    a thousand invisible circles would triple the SVG's size."""
    if isinstance(spec, list):
        return [_without_hover(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    out = {}
    for key, value in spec.items():
        if key == "layer" and isinstance(value, list):
            value = [
                layer
                for layer in value
                if not (isinstance(layer.get("mark"), dict) and layer["mark"].get("style") == HOVER)
            ]
        out[key] = _without_hover(value)
    return out


_SVG_ID = re.compile(r'(id="|url\(#|href="#)([A-Za-z_-]+?)_?(\d+)(?=[")])')


def _stable_ids(svg: str) -> str:
    """Vega numbers clip paths and gradients with a counter that lives as long as the
    converter (clip1..4, then clip5..8 for the same chart): renumber them in order of
    appearance, so the same chart gives the same SVG."""
    seen: dict[tuple[str, str], int] = {}

    def renumber(match: re.Match) -> str:
        lead, prefix, number = match.groups()
        key = (prefix, number)
        if key not in seen:
            seen[key] = sum(1 for p, _ in seen if p == prefix)
        return f"{lead}{prefix}{seen[key]}"

    return _SVG_ID.sub(renumber, svg)


def to_svg(chart: AnyChart) -> str:
    """The chart as a self-contained static SVG, drawn with the incidentbook theme.

    Deterministic: the same chart gives the same text."""
    _register()
    with alt.theme.enable(THEME):
        spec = chart.to_dict()
    return _stable_ids(vlc.vegalite_to_svg(_without_hover(spec), vl_version=_vl_version()))


def save_svg(chart: AnyChart, path: str | Path) -> Path:
    """Write `to_svg(chart)` to `path` (parents created) and return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(to_svg(chart), encoding="utf-8")
    return path


__all__ = [
    "ROW_BUDGET",
    "THEME",
    "correlated_chart",
    "downsample",
    "failure_rate_chart",
    "host_heatmap",
    "register_theme",
    "save_svg",
    "signature_timeline",
    "story_chart",
    "symptom_chart",
    "to_svg",
]
