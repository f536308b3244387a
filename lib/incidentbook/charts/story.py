"""The headline chart: the symptom with its anomalies shaded, and beneath it, on the same
time axis, the signals that moved with it."""

from __future__ import annotations

import altair as alt

from incidentbook.charts.core import (
    BRUSH,
    SERIES_POINTS,
    ZOOM_HINT,
    Signals,
    _clock,
    _intervals,
    _kind_word,
    _label,
    _lower,
    _note,
    _points_each,
    _signal_layers,
    _window_domain,
)
from incidentbook.charts.entries import ChartEntry
from incidentbook.metrics.analysis import Analysis
from incidentbook.text import format_lag

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
        subtitle += ZOOM_HINT
        # The selection goes on the line's layer, whose data spans the window.
        layers = list(chart.layer)
        layers[1] = layers[1].add_params(brush)
        chart = alt.layer(*layers).properties(height=chart.height)
    return chart.properties(title=alt.Title(title, subtitle=subtitle))


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
            short_title=True,
        )
        label = _label(signals, corr.signal)
        row_title = alt.Title(
            f"{rank}. {label}: score {corr.score:.2f}, "
            f"matched {corr.matched} {word}, {format_lag(corr.lag_seconds, 'the ' + word)}",
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


STORY = ChartEntry(
    "story",
    "The symptom and what coincided with it",
    lambda inv: story_chart(inv.analysis, inv.pack.signals),
)
