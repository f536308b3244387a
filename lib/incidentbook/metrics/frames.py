"""Canonical frames, and the reductions that turn raw exporter samples into signals.

Raw samples (what a source reads): ts, metric, value, node, gpu, labels, where `labels`
holds every other label as "k=v,k=v" so each series keeps its identity (counters are
differenced per series). Signal frames (what analysis reads): ts, signal, node, gpu,
value, one row per signal, host (and GPU where the signal is per GPU) and time.
"""

from __future__ import annotations

import polars as pl

from incidentbook.metrics.signals import Reduce, Signal

UTC_US = pl.Datetime("us", "UTC")
CAT = pl.Categorical()

RAW_SCHEMA = pl.Schema(
    {
        "ts": UTC_US,
        "metric": CAT,
        "value": pl.Float64,
        "node": CAT,
        "gpu": CAT,
        "labels": CAT,
    }
)

SIGNAL_SCHEMA = pl.Schema(
    {
        "ts": UTC_US,
        "signal": pl.String,
        "node": pl.String,
        "gpu": pl.String,
        "value": pl.Float64,
        "worst": pl.String,
    }
)

_SERIES = ["node", "gpu", "labels"]
# A counter falls only when it is reset, a noisy gauge at about half of its samples: a
# series that falls at more than this share of them is a gauge.
COUNTER_FALLS = 0.2


def conform(frame: pl.DataFrame) -> pl.DataFrame:
    """A source's samples in SIGNAL_SCHEMA's columns and types. Sources that get one value
    per host already reduced (PromQL's `min by (node)`, TensorBoard) cannot say which unit
    was the worst: that column is null for them."""
    missing = [pl.lit(None, t).alias(c) for c, t in SIGNAL_SCHEMA.items() if c not in frame.columns]
    return frame.with_columns(missing).select(pl.col(c).cast(t) for c, t in SIGNAL_SCHEMA.items())


def _reduce(expr: pl.Expr, how: Reduce) -> pl.Expr:
    return {"mean": expr.mean(), "sum": expr.sum(), "max": expr.max(), "min": expr.min()}[how]


def _level(signal: Signal) -> list[str]:
    return ["ts", "node", "gpu"] if signal.per == "gpu" else ["ts", "node"]


def _series_id() -> pl.Expr:
    """One integer per series within a host: the GPU's and the other labels' category codes."""
    gpu = pl.col("gpu").to_physical().cast(pl.UInt64).fill_null(2**32 - 1)
    return gpu * 2**32 + pl.col("labels").to_physical().cast(pl.UInt64).fill_null(0)


def counter_increase(frame: pl.LazyFrame) -> pl.LazyFrame:
    """Per-series increase of a cumulative counter and the seconds it took.

    A counter that goes down was reset (exporter restart): like Prometheus' rate(), the
    increase over that interval is the new value itself. A repeated sample (same series,
    same time) shows as zero seconds: it is flagged `dup` and adds nothing.
    """
    # A stable sort by time alone, then differences within each series: a sort by the
    # three label keys first cost four times as much on a day of a 4,000-GPU cluster,
    # and exporters' files are already in time order, which the sort finds cheaply.
    return (
        frame.sort("ts", maintain_order=True)
        .with_columns(
            delta=pl.col("value").diff().over(_SERIES),
            seconds=pl.col("ts").diff().dt.total_microseconds().over(_SERIES) / 1e6,
        )
        .with_columns(
            increase=pl.when(pl.col("delta") < 0).then(pl.col("value")).otherwise(pl.col("delta")),
            dup=pl.col("seconds") == 0,
        )
        .filter(pl.col("seconds").is_not_null())
    )


def _worst(
    signal: Signal, how: str | None = None, keep: pl.Expr | None = None
) -> dict[str, pl.Expr]:
    """Which unit inside the host (GPU, else device/port labels) gave the host its value,
    for a host reduced by min or max: the GPU to name when the host stands out. Taken as
    the row's category codes inside the aggregation and made text only after it: a cast
    of every raw row to text would cost more than the reduction itself."""
    how = how or signal.within
    if signal.per == "gpu" or how not in ("min", "max") or not signal.name_unit:
        none = pl.lit(None, CAT)
        return {"worst_gpu": none, "worst_labels": none}
    value = pl.col("value") if keep is None else pl.col("value").filter(keep)

    def unit(name: str) -> pl.Expr:
        col = pl.col(name) if keep is None else pl.col(name).filter(keep)
        # Of the units sharing the worst value, the first by name (categoricals compare
        # as text): max_by/min_by take whichever row the streaming engine met first, so
        # 'worst' changed between runs of the same folder. A sort within the group costs
        # half of what a filter on the group's best value does.
        # NaN (a counter sampled twice at one time) sorts last, as max/min ignore it.
        key = value.fill_nan(None)
        return col.sort_by([key, col], descending=[how == "max", False], nulls_last=True).first()

    return {"worst_gpu": unit("gpu"), "worst_labels": unit("labels")}


# A unit is named by its own labels (`device=mlx5_2,port=1`): those naming the scrape
# target (its address, the job, the host) say which host, which the unit's name has.
_TARGET_LABELS = r"(?:^|,)(?:instance|job|Hostname|node|nodename|namespace|pod|container)=[^,]*"
_WORST = pl.coalesce(
    pl.col("worst_gpu").cast(pl.String),
    pl.col("worst_labels")
    .cast(pl.String)
    .str.replace_all(_TARGET_LABELS, "")
    .str.strip_prefix(",")
    .replace("", None),
)


def reduce_signal(raw: pl.LazyFrame, signal: Signal) -> pl.LazyFrame:
    """One signal's series at its level (node or GPU), from the raw samples.

    Also `dup`: how many repeated samples (same series and time) each row absorbed, so
    loading can report them without a pass over every raw row of its own.
    """
    level = _level(signal)
    real = ~pl.col("dup")

    def metric(name: str) -> pl.LazyFrame:
        rows = raw.filter(pl.col("metric") == name)
        # Signals that read one metric with different matchers (the iowait and the steal
        # of node_cpu_seconds_total) are scanned together: each keeps only its own rows.
        labels = pl.lit(",") + pl.col("labels").cast(pl.String) + pl.lit(",")
        for key, value in (signal.match or {}).items():
            rows = rows.filter(labels.str.contains(f",{key}={value},", literal=True))
        return rows

    if signal.kind == "gauge":
        values = metric(signal.metric)
        if signal.mask is not None:
            values = values.with_columns(
                value=((pl.col("value").cast(pl.Int64) & signal.mask) != 0).cast(pl.Float64)
            )
        out = values.group_by(level).agg(
            value=_reduce(pl.col("value"), signal.within),
            dup=pl.len() - _series_id().n_unique(),
            **_worst(signal),
        )
    elif signal.kind in ("counter_rate", "rate_or_gauge"):
        rate = pl.col("increase") / pl.col("seconds")
        if signal.kind == "rate_or_gauge":
            # A series that only rises (resets aside) is a counter, read as its rate; one
            # that falls as often as a gauge does is read as it is (DCGM's NVLink bandwidth
            # field is a rate although dcgm-exporter types it counter, and exports differ).
            falls = (pl.col("delta") < 0).mean().over(_SERIES)
            rate = pl.when(falls <= COUNTER_FALLS).then(rate).otherwise("value")
        out = (
            counter_increase(metric(signal.metric))
            .with_columns(value=rate)
            .group_by(level)
            .agg(
                value=_reduce(pl.col("value").filter(real), signal.within),
                dup=pl.col("dup").sum(),
                **_worst(signal, "max" if signal.within == "sum" else None, real),
            )
        )
    elif signal.kind == "counter_ratio":
        # Sum the increases over the devices first, then divide: a read-weighted latency.
        num = (
            counter_increase(metric(signal.numerator))
            .group_by(level)
            .agg(num=pl.col("increase").filter(real).sum(), dup=pl.col("dup").sum())
            .with_columns(worst_gpu=pl.lit(None, CAT), worst_labels=pl.lit(None, CAT))
        )
        den = (
            counter_increase(metric(signal.denominator))
            .group_by(level)
            .agg(den=pl.col("increase").filter(real).sum(), dup_den=pl.col("dup").sum())
        )
        out = num.join(den, on=level, how="inner", nulls_equal=True).select(
            *level,
            value=pl.when(pl.col("den") > 0).then(pl.col("num") / pl.col("den")),
            dup=pl.col("dup") + pl.col("dup_den"),
            worst_gpu="worst_gpu",
            worst_labels="worst_labels",
        )
    else:  # gauge_ratio
        keys = ["ts", *_SERIES]
        num = (
            metric(signal.numerator)
            .group_by(keys)
            .agg(num=pl.col("value").last(), dup=pl.len() - 1)
        )
        den = metric(signal.denominator).group_by(keys).agg(den=pl.col("value").last())
        ratio = pl.when(pl.col("den") != 0).then(pl.col("num") / pl.col("den"))
        out = (
            num.join(den, on=keys, how="inner", nulls_equal=True)
            .with_columns(value=(1 - ratio) if signal.complement else ratio)
            .group_by(level)
            .agg(
                value=_reduce(pl.col("value"), signal.within),
                dup=pl.col("dup").sum(),
                **_worst(signal),
            )
        )
    if signal.per == "node":
        out = out.with_columns(gpu=pl.lit(None, CAT))
    return out.select(
        "ts",
        signal=pl.lit(signal.name, CAT),
        node="node",
        gpu="gpu",
        value=(pl.col("value") * signal.scale if signal.scale != 1 else pl.col("value")).cast(
            pl.Float64
        ),
        dup=pl.col("dup").cast(pl.UInt32),
        worst=_WORST,
    )


def signal_frame(
    raw: pl.LazyFrame | pl.DataFrame, signals: list[Signal], also: list[pl.LazyFrame] | None = None
) -> tuple[pl.DataFrame, int, int]:
    """All requested signals in one canonical frame, sorted; the duplicates absorbed and
    the raw rows read.

    The reductions are planned lazily and collected together with the streaming engine,
    so the raw samples of a large window are never all in memory at once. `also`: more
    frames to collect in the same pass (sharing its scans), each replaced in the list by
    its result.
    """
    lazy = raw.lazy()
    return signal_frames([(lazy, signals)], [lazy], also)


def signal_frames(
    parts: list[tuple[pl.LazyFrame, list[Signal]]],
    counted: list[pl.LazyFrame],
    also: list[pl.LazyFrame] | None = None,
    *,
    apart: bool = False,
) -> tuple[pl.DataFrame, int, int]:
    """signal_frame over raw samples given in parts: each part's signals reduced from its
    own frame (a scan of only their metrics), `counted` the frames whose rows together are
    the rows read (each raw row in exactly one).

    `apart`: the parts share no scan, so each is collected on its own: the engine then
    holds one part's group-by state at a time, not every signal's at once; so are the
    counts and the `also` frames, one at a time (together they held every scan's read
    buffers at once: 5 GB on a 511-host day, 20 GB on 2,048 hosts).
    """
    reductions = [[reduce_signal(raw, s) for s in signals] for raw, signals in parts]
    extra = list(also or [])
    if not any(reductions):
        if also is not None:
            also[:] = pl.collect_all(extra) if extra else []
        return SIGNAL_SCHEMA.to_frame(), 0, 0
    counts = [frame.select(pl.len()) for frame in counted]
    if apart:
        collected = [f for q in [*counts, *extra] for f in pl.collect_all([q], engine="streaming")]
    else:
        together = [r for part in reductions for r in part]
        collected = pl.collect_all([*counts, *extra, *together], engine="streaming")
    rows = sum(int(c.item()) for c in collected[: len(counts)])
    collected = collected[len(counts) :]
    if also is not None:
        also[:] = collected[: len(extra)]
    collected = collected[len(extra) :]
    if apart:
        collected = [f for part in reductions for f in pl.collect_all(part, engine="streaming")]
    frame = pl.concat(collected, how="vertical")
    duplicates = int(frame.get_column("dup").sum() or 0)
    frame = frame.drop("dup").filter(pl.col("value").is_not_null() & pl.col("value").is_finite())
    # Sorted by signal, node and GPU as text (nulls last), then time: the three as one
    # integer of their ranks in text order, taken from the few distinct names. A sort on
    # the categoricals themselves compares their text row by row: 26 s against 6 s on the
    # 26.6M rows of a 511-host day.
    ranks = [_text_rank(frame.get_column(c)) for c in ("signal", "node", "gpu")]
    key = ranks[0]
    for rank in ranks[1:]:
        key = key * (int(rank.max() or 0) + 1) + rank
    frame = (
        frame.with_columns(key.alias("__ib_order"))
        .sort("__ib_order", "ts")
        .drop("__ib_order")
        .with_columns(pl.col("signal", "node", "gpu", "worst").cast(pl.String))
    )
    return frame, duplicates, rows


def _text_rank(column: pl.Series) -> pl.Series:
    """Each row's rank of its category in text order, nulls after all (0-based): looked
    up by category code, so no row's text is compared (codes depend on what the process
    met first, the text order does not)."""
    names = column.unique().drop_nulls()
    codes = names.to_physical().cast(pl.Int64)
    rank = names.cast(pl.String).rank("ordinal").cast(pl.UInt64) - 1
    size = int(codes.max()) + 1 if names.len() else 0
    lookup = pl.repeat(names.len(), size, dtype=pl.UInt64, eager=True).scatter(codes, rank)
    physical = column.to_physical().cast(pl.Int64)
    return (
        lookup.gather(physical).fill_null(names.len())
        if size
        else physical.fill_null(0).cast(pl.UInt64)
    )


def cluster_series(frame: pl.DataFrame, signals: dict[str, Signal]) -> pl.DataFrame:
    """One series per signal for the whole cluster, nodes combined by the signal's `aggregate`.

    A sum over fewer series than the signal usually has (an exporter crash-looping on
    three hosts of 24) counts the silent ones as they usually are, not as zero: the
    cluster's NVLink traffic did not fall by an eighth because three hosts' exporters went
    quiet. Series that stop while their host is still watched (a job leaving a host) are
    not silent, they report their fall."""
    how = pl.DataFrame(
        {"signal": list(signals), "how": [s.aggregate for s in signals.values()]},
        schema={"signal": pl.String, "how": pl.String},
    )
    value = pl.col("value")
    usual = pl.col("reporting").median().over("signal")
    return (
        frame.group_by("signal", "ts")
        .agg(
            mean=value.mean(), sum=value.sum(), max=value.max(), min=value.min(), reporting=pl.len()
        )
        .join(how, on="signal", how="left")
        .select(
            "signal",
            "ts",
            value=pl.when(pl.col("how") == "sum")
            .then(pl.col("sum") * pl.max_horizontal(usual / pl.col("reporting"), 1.0))
            .when(pl.col("how") == "max")
            .then("max")
            .when(pl.col("how") == "min")
            .then("min")
            .otherwise("mean"),
            reporting="reporting",
        )
        .sort("signal", "ts")
    )


def on_one_grid(frame: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """Signals whose hosts were sampled each at its own offset, put on one time grid.

    Prometheus spreads its scrapes of the targets over the interval, so raw samples (a
    TSDB dump, an export of the samples themselves) put each host at its own second: with
    24 hosts scraped every 15 s, no two hosts share a timestamp, and a cluster-wide
    aggregate taken per timestamp reads one host at a time (a hot host's every sample is
    a one-second "spike" of the cluster). PromQL's query_range evaluates every series at
    the same step-aligned times; this does the same for such signals: each sample goes to
    the start of its scrape interval (the median interval of the signal's series), and a
    series' samples that meet in one interval are averaged. Signals whose hosts already
    share their timestamps are left as they are. Returns the frame and the signals moved.
    """
    if frame.height == 0:
        return frame, []
    series = ["signal", "node", "gpu"]
    shape = (
        frame.group_by(series)
        .agg(n=pl.len(), step=pl.col("ts").sort().diff().median())
        .group_by("signal")
        .agg(n=pl.col("n").median(), step=pl.col("step").median())
        .join(frame.group_by("signal").agg(times=pl.col("ts").n_unique()), on="signal")
        .filter((pl.col("times") > 1.5 * pl.col("n")) & (pl.col("step") > pl.duration(seconds=0)))
    )
    if shape.height == 0:
        return frame, []
    moved = sorted(shape.get_column("signal").to_list())
    us = pl.col("ts").dt.epoch("us")
    step_us = pl.col("step").dt.total_microseconds()
    snapped = (
        frame.filter(pl.col("signal").is_in(moved))
        .join(shape.select("signal", "step"), on="signal")
        .with_columns(
            ts=pl.from_epoch(us - us % step_us, time_unit="us").dt.replace_time_zone("UTC")
        )
        .group_by([*series, "ts"], maintain_order=True)
        .agg(pl.col("value").mean(), pl.col("worst").first())
        .select(frame.columns)
        .cast(frame.schema)
        .sort(*series, "ts", nulls_last=True)
    )
    kept = frame.filter(~pl.col("signal").is_in(moved))
    # In the signal frame's order (signal, node, GPU, then time: find_gaps and the
    # reductions after it take each series as one run of rows); the signals left alone
    # keep the order they came in.
    return pl.concat([kept, snapped]).sort("signal", maintain_order=True), moved
