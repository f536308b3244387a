"""What every chart of an incident shares: the theme, the colours, the time axis, the
downsampling, and one signal's layers (line, shaded anomalies, baseline level).

The charts themselves are in story, failures and hosts; svg draws them as static SVG;
entries lists which of them the workbook and the report page show. Chart functions take
frames and values and return altair charts: nothing displays a chart or writes a file,
except `save_svg`.

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

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TypeAlias

import altair as alt
import numpy as np
import polars as pl
from tsdownsample import MinMaxLTTBDownsampler

from incidentbook.logs.severity import SIGNATURE_SEVERITIES
from incidentbook.metrics.analysis import Analysis
from incidentbook.metrics.signals import Signal, SignalPack
from incidentbook.text import format_value
from incidentbook.window import TimeWindow

AnyChart: TypeAlias = alt.Chart | alt.LayerChart | alt.VConcatChart
Signals: TypeAlias = SignalPack | Mapping[str, Signal]

THEME = "incidentbook"
WIDTH = 600
"""The plot's width in pixels: with its axis titles and a legend beside it, a chart stays
under MAX_WIDTH, so it fits a JupyterLab notebook in a 1280-pixel window."""
MAX_WIDTH = 960
"""Widest a whole chart (labels and legends included) may be drawn."""
LEGEND_LIMIT = 200
"""Widest a legend's title or labels may be, in pixels."""
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
ZOOM_HINT = "; drag across it to zoom the charts below"
"""Said in a subtitle where a chart can be brushed; a static image (charts.svg) drops it."""

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
    shading colour (the `anomaly` style) and a plot width of WIDTH pixels. `to_svg` applies it
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
    return signal.label if signal else name


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


def _axis_format(unit: str, values: pl.Series) -> str | alt.UndefinedType:
    """Percent for ratios, SI prefixes (1.2M) for large values, else Vega's default."""
    if unit == "ratio":
        return ".0%"
    top = values.abs().max() if values.len() else None
    return "~s" if top is not None and top >= 1e4 else alt.Undefined


INTEGER_UNITS = frozenset({"code", "lanes", "iterations", "hosts", "lines", "events"})
"""Units whose values are whole numbers: their axes tick at integers only."""


@dataclass(frozen=True)
class Display:
    """How a signal's values are shown: multiplied by `factor` into `unit`, axes in
    `axis` (a d3 format, or Vega's default), tooltips and legends in `tooltip`."""

    factor: float
    unit: str
    axis: str | alt.UndefinedType
    tooltip: str
    integer: bool = False

    def y_axis(self, **options) -> alt.Axis:
        if self.integer:
            options.update(tickMinStep=1, format="d")
        elif self.axis is not alt.Undefined:
            options["format"] = self.axis
        return alt.Axis(**options)

    def scaled(self, column: str = "value") -> pl.Expr:
        return pl.col(column) * self.factor if self.factor != 1 else pl.col(column)


def display_of(unit: str, values: pl.Series) -> Display:
    """The display of values in `unit`: seconds under one as ms (the text says ms), Hz as
    GHz or MHz, ratios as percents, large values with thousands separators and SI axes,
    whole-number units as integers; else three significant digits."""
    finite = values.drop_nulls()
    if finite.dtype.is_float():
        finite = finite.filter(finite.is_finite())
    top = float(finite.abs().max()) if finite.len() else 0.0
    typical = float(finite.abs().median()) if finite.len() else 0.0
    if unit == "ratio":
        return Display(1, "%", ".0%", ".1%")
    if unit == "s" and typical < 1:
        return Display(1000, "ms", alt.Undefined, ",.1f")
    if unit == "Hz" and top >= 1e9:
        return Display(1e-9, "GHz", ".2f", ".2f")
    if unit == "Hz" and top >= 1e6:
        return Display(1e-6, "MHz", ",.0f", ",.0f")
    if unit in {"B", "B/s"}:
        return Display(1, unit, "~s", ".3~s")
    if unit in INTEGER_UNITS:
        return Display(1, unit, "d", "d", integer=True)
    if top >= 1e4:
        return Display(1, unit, "~s", ",.0f")
    return Display(1, unit, alt.Undefined, ",.3~r")


def _with_unit(label: str, unit: str) -> str:
    return f"{label} ({unit})" if unit else label


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
            "level": format_value(f.value, unit, compact=True) if f.value is not None else "",
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


def _kind_word(intervals: pl.DataFrame) -> str:
    kinds = set(intervals.get_column("kind").to_list())
    return {frozenset({"drop"}): "drops", frozenset({"spike"}): "spikes"}.get(
        frozenset(kinds), "anomalies"
    )


def _clock(value: datetime) -> str:
    return f"{value:%H:%M}"


def _events_of(analysis: Analysis, name: str, series: pl.DataFrame, nature: str) -> pl.DataFrame:
    """The marks of an event-like signal: one per events finding (when it began, how many
    events or which code, on which host), else the samples worth a mark (for a rate of
    events those with any, for a code those where a new non-zero code appears)."""
    rows = [
        {
            "ts": _epoch_ms(f.start),
            "value": f.value if nature == "code" else f.magnitude,
            "hosts": ", ".join(f.hosts),
            "summary": f.summary,
        }
        for f in analysis.findings
        if f.signal == name and f.kind == "events"
    ]
    if rows:
        schema = {"ts": pl.Int64, "value": pl.Float64, "hosts": pl.String, "summary": pl.String}
        return pl.DataFrame(rows, schema=schema, orient="row").sort("ts", "hosts")
    if nature == "code":
        changed = pl.col("value") != pl.col("value").shift().fill_null(0)
        return series.filter(changed & (pl.col("value") != 0))
    return series.filter(pl.col("value") > 0)


def _signal_layers(
    analysis: Analysis,
    signals: Signals,
    name: str,
    *,
    points: int,
    domain: list[int] | alt.Parameter,
    height: int,
    labels: bool = True,
    short_title: bool = False,
) -> tuple[alt.LayerChart, pl.DataFrame] | None:
    """One signal over the window: its anomalies shaded, its line, its baseline level.

    One base chart holds the shared time axis; each layer is derived from it. The
    baseline rule runs from the window's start to its end, which also pins the time axis
    to the window when a brush leaves it to the data. Values are shown in the display's
    unit (seconds under one as ms, Hz as GHz). An event-like signal (the pack's `nature`:
    events or code) is no level: it is drawn as marks where events happened, with no
    line and no baseline. `short_title`: the y title is the unit alone (a row whose
    title names the signal).
    """
    series = _series(analysis, name, points)
    if series.height == 0:
        return None
    unit = _unit(signals, name)
    signal = _signal(signals, name)
    nature = signal.nature if signal else "level"
    shown = display_of(unit, series.get_column("value"))
    series = series.with_columns(value=shown.scaled())
    label = _label(signals, name)
    title = _with_unit(label, shown.unit)
    intervals = _intervals(analysis, name, unit)
    level = analysis.levels.get(name)
    y_axis = shown.y_axis(tickCount=5, titleLimit=height)
    y_title = (shown.unit or label) if short_title else title
    y = alt.Y("value:Q", title=y_title, axis=y_axis, scale=alt.Scale(zero=nature != "level"))
    base = alt.Chart(series).encode(x=_time_x(domain, labels=labels))
    tooltip = [_when("ts", "time"), alt.Tooltip("value:Q", title=title, format=shown.tooltip)]
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
    if nature != "level":
        marks = _events_of(analysis, name, series, nature)
        counted = "summary" in marks.columns  # one mark per finding, not per sample
        if counted:
            shown = Display(1, "code" if nature == "code" else "events", "d", "d", integer=True)
            y_title = shown.unit if short_title else f"{label} ({shown.unit})"
            y_axis = shown.y_axis(tickCount=5, titleLimit=height)
        top = marks.get_column("value").max() if marks.height else None
        # Room above the highest mark, so a diamond at the top is not cut.
        room = alt.Scale(domain=[0, float(top) * 1.15]) if top else alt.Scale(zero=True)
        mark_y = alt.Y("value:Q", title=y_title, axis=y_axis, scale=room)
        tips = [_when("ts", "from"), alt.Tooltip("value:Q", title=y_title, format=shown.tooltip)]
        if counted:
            tips += [alt.Tooltip("hosts:N", title="hosts"), alt.Tooltip("summary:N", title="what")]
        # Stems from zero for events, a diamond at the code for codes; the whole series
        # stays as an invisible layer, so the brush and the time axis span the window.
        frame = base.mark_point(opacity=0, clip=True).encode(y=alt.Y("value:Q", axis=None))
        head = (
            base.mark_point(
                shape="diamond", filled=True, size=80, color=LINE_COLOUR, opacity=1, clip=True
            )
            .encode(y=mark_y, tooltip=tips)
            .properties(data=marks)
        )
        drawn = [head]
        if nature != "code":
            stem = (
                base.mark_rule(strokeWidth=2, color=LINE_COLOUR, clip=True)
                .encode(y=mark_y, y2="zero:Q", tooltip=tips)
                .transform_calculate(zero="0")
                .properties(data=marks)
            )
            drawn.insert(0, stem)
        # The marks share one y scale; the invisible frame's scale is its own.
        chart = alt.layer(shading, frame, alt.layer(*drawn)).resolve_scale(y="independent")
        return chart.properties(height=height), intervals
    line = base.mark_line(clip=True).encode(y=y)
    # Invisible points on the line carry its tooltips (a line is one mark in Vega);
    # `to_svg` leaves them out, a static image has no tooltips.
    hover = base.mark_circle(style=HOVER, opacity=0, size=40, clip=True).encode(
        y=y, tooltip=tooltip
    )
    layers = [shading, line, hover]
    if level is not None:
        level *= shown.factor
        text = f"baseline {format_value(level / shown.factor, unit, compact=True)}"
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
        label_mark = (
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
        layers += [rule, label_mark]
    return alt.layer(*layers).properties(height=height), intervals


def _points_each(series: int) -> int:
    """Points per series so that `series` of them, with their shading, fit the budget."""
    return max(3, min(SERIES_POINTS, (ROW_BUDGET - 500) // max(series, 1)))
