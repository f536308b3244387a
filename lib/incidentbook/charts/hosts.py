"""One signal by host and time: the hosts furthest from the median host, worst first."""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta
from typing import TYPE_CHECKING

import altair as alt
import polars as pl

from incidentbook.charts.core import (
    HEATMAP_COLUMNS,
    LEGEND_LIMIT,
    ROW_BUDGET,
    Signals,
    _label,
    _lower,
    _ms,
    _note,
    _signal,
    _time_x,
    _unit,
    _when,
    _window_domain,
    _with_unit,
    display_of,
)
from incidentbook.charts.entries import ChartEntry, Figure
from incidentbook.logs.analysis import bucket_for
from incidentbook.window import TimeWindow

if TYPE_CHECKING:
    from incidentbook.investigation import Investigation

# --- hosts ---------------------------------------------------------------------------------

CONTEXT_ROWS = 3
"""Quiet hosts drawn under those that stood out, for comparison (the most typical ones)."""
QUIET = "#f2f2f2"  # the colour of the level the median host holds: the quiet end
STRONG = {"up": "#B2182B", "down": "#2166AC"}  # the colour of the end that hurts


def host_heatmap(
    metrics_frame: pl.DataFrame,
    signal: str,
    signals: Signals,
    *,
    window: TimeWindow,
    bucket: timedelta | None = None,
    hosts: int = 40,
    stood_out: Collection[str] | None = None,
) -> alt.Chart:
    """One signal by host and time: the `hosts` hosts furthest from the median host in the
    direction that hurts (the signal's `bad`), worst first.

    `stood_out`, the hosts the analysis named for this signal, narrows the rows to them
    (worst first) and CONTEXT_ROWS of the most typical other hosts beneath, so a heat
    map of 511 hosts shows the few that departed, not 35 rows of quiet ones. Colour runs
    from near-white at the median host's level to a strong colour at the end that hurts
    (both ends for a signal bad either way): quiet cells stay pale.

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
    if stood_out is not None:
        named = set(stood_out)
        flagged = deviations.filter(pl.col("node").is_in(named)).head(hosts)
        # The most typical of the others: the least deviation, by name among equals.
        quiet = (
            deviations.filter(~pl.col("node").is_in(named))
            .sort(["deviation", "node"])
            .head(CONTEXT_ROWS)
        )
        ranking = pl.concat([flagged, quiet])
    else:
        flagged = None
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
            metrics_frame,
            signal,
            signals,
            window=window,
            bucket=bucket * 2,
            hosts=hosts,
            stood_out=stood_out,
        )
    direction = {"down": "below", "up": "above"}.get(bad, "away from")
    total = deviations.height
    off = deviations.filter(pl.col("deviation") > 0).height
    minutes = bucket // timedelta(minutes=1)
    cell = {"down": "lowest", "up": "highest"}.get(bad, "mean")
    subtitle = f"worst first; one column per {minutes} min, each cell the host's {cell} value"
    if flagged is not None:
        shown_out = flagged.height
        heading_text = (
            f"{heading}: the {shown_out} of {total} hosts that stood out"
            if shown_out
            else f"{heading}: no host stood out"
        )
        if len(order) > shown_out:
            subtitle += f"; beneath them {len(order) - shown_out} typical hosts, for comparison"
    else:
        heading_text = (
            f"{heading}: the {len(order)} of {total} hosts furthest {direction} the median host"
        )
        if off < len(order):
            subtitle += f"; only {off} ever sat {direction} it, the rest follow by name"
    heat_title = alt.Title(heading_text, subtitle=subtitle)
    unit = _unit(signals, signal)
    shown = display_of(unit, data.get_column("value"))
    data = data.with_columns(value=shown.scaled(), median=shown.scaled("median"))
    title = _with_unit(label, shown.unit)
    values = data.get_column("value")
    middle = float(data.get_column("median").median())
    low, high = float(values.min()), float(values.max())
    # Pale at the median host's level, strong where it hurts; no `reverse` (two heat maps
    # with opposite directions in one view would conflict on it).
    if bad == "up":
        scale = alt.Scale(
            domain=[middle, max(high, middle)], range=[QUIET, STRONG["up"]], clamp=True
        )
    elif bad == "down":
        scale = alt.Scale(
            domain=[min(low, middle), middle], range=[STRONG["down"], QUIET], clamp=True
        )
    else:
        scale = alt.Scale(
            domain=[min(low, middle), middle, max(high, middle)],
            range=[STRONG["down"], QUIET, STRONG["up"]],
        )
    legend_format = "d" if shown.integer else shown.tooltip
    return (
        alt.Chart(data, title=heat_title)
        # No per-cell ARIA label: 2,000 cell descriptions would triple the SVG.
        .mark_rect(aria=False)
        .encode(
            x=_time_x(_window_domain(window)),
            x2="ts_end:T",
            # Host names are the point: never cut (labelLimit 0 is no limit).
            y=alt.Y("node:N", sort=order, title=None, axis=alt.Axis(labelLimit=0)),
            color=alt.Color(
                "value:Q",
                title=title,
                scale=scale,
                legend=alt.Legend(
                    format=legend_format,
                    orient="top",
                    direction="horizontal",
                    titleLimit=LEGEND_LIMIT * 2,
                    gradientLength=240,
                ),
            ),
            tooltip=[
                alt.Tooltip("node:N", title="host"),
                _when("ts", "from"),
                _when("ts_end", "to"),
                alt.Tooltip("value:Q", title=title, format=shown.tooltip),
                alt.Tooltip("median:Q", title="median host then", format=shown.tooltip),
                alt.Tooltip("rank:Q", title="rank (0 = worst)"),
            ],
        )
        .properties(height=alt.Step(14))
    )


def stood_out(inv: Investigation, signal: str) -> list[str]:
    """The hosts the investigation named for `signal`: in its findings and correlations."""
    named = {h for f in inv.findings if f.signal == signal for h in f.hosts}
    named |= {h for c in inv.correlations if c.signal == signal for h in c.hosts}
    return sorted(named)


def worst_signals(inv: Investigation, most: int = 2) -> list[str]:
    """Signals worth a host-by-time view: the best-correlated cause, then outlier signals."""
    names: list[str] = []
    for c in inv.correlations:
        s = inv.pack.signals.get(c.signal)
        if s is not None and c.cause and s.explains and s.per:
            names.append(c.signal)
            break
    names += [f.signal for f in inv.findings if f.kind == "outlier_host"]
    return list(dict.fromkeys(names))[:most]


def host_figures(inv: Investigation) -> list[Figure]:
    """A heat map for each of the worst signals, by host and time."""
    signals, window = inv.pack.signals, inv.analysis.window
    return [
        Figure(
            f"hosts-{name}",
            f"{signals[name].label} by host and time",
            host_heatmap(
                inv.metrics.frame, name, signals, window=window, stood_out=stood_out(inv, name)
            ),
        )
        for name in worst_signals(inv)
    ]


HOSTS = ChartEntry("hosts", "Signals by host and time", host_figures)
