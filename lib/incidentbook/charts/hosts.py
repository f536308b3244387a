"""One signal by host and time: the hosts furthest from the median host, worst first."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import altair as alt
import polars as pl

from incidentbook.charts.core import (
    HEATMAP_COLUMNS,
    ROW_BUDGET,
    Signals,
    _axis_format,
    _label,
    _lower,
    _ms,
    _note,
    _signal,
    _time_x,
    _titled,
    _unit,
    _when,
    _window_domain,
)
from incidentbook.charts.entries import ChartEntry, Figure
from incidentbook.logs.analysis import bucket_for
from incidentbook.window import TimeWindow

if TYPE_CHECKING:
    from incidentbook.investigation import Investigation

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
            host_heatmap(inv.metrics.frame, name, signals, window=window),
        )
        for name in worst_signals(inv)
    ]


HOSTS = ChartEntry("hosts", "Signals by host and time", host_figures)
