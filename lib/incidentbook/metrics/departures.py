"""Departures of one series from its normal behaviour: sharp ones and sustained ones.

One series (columns ts, value) and a baseline window that is taken to be normal. Whether
a sample is flagged depends only on what came before it (trailing windows, the baseline,
earlier days), so `detected` is when a live monitor could have raised it. Two things use
hindsight, for the report's sake, and change no `detected` time: where a sustained
departure began and ended is located after the fact, and for a signal that is bad one way
the net-of-noise check below looks half a context past a run.

Sharp departures (spikes, drops), sample by sample:

* Reference: a trailing rolling median over the context, computed twice; the second time
  over the samples the first pass found normal, so a long burst does not lift its own
  reference.
* Noise scale, the largest of: the baseline's robust spread of residuals (relative to the
  reference for a positive series, whose noise grows with its level; never below the
  baseline's absolute spread, so a series that falls towards zero does not see its noise
  vanish); the series' resolution, the typical size of a change between consecutive
  samples when it changes at all (a near-idle series that ticks between two rounded values
  cannot depart by one tick); and the robust spread of the last day's residuals (noise
  that grew for most of the time is the new noise, while rare departures do not move a
  median).
* Threshold, the largest of: the modified z cut-off (3.5); the baseline's own (1 - p)
  quantile of departures (a series whose baseline departs often, like an idle disk that
  writes in bursts, has bursts as its normal behaviour); for such a bursty series, the
  same quantile over the last day (bursts that keep coming are normal, the first after a
  quiet day is not); and, when the series has at least two earlier days, the departure
  that recurs at this time of day (within an hour) on those days, plus 3.5 of its
  day-to-day spread (a nightly job is a daily pattern, not an incident).
* Persistence: a run of one sample counts only when it is as unlikely as two consecutive
  samples beyond the cut-off (5.3 for Gaussian noise), and for a bursty series when it is
  larger than every departure of the baseline and of the last day.
* Net of noise, for a signal that is bad one way (throughput down, latency up): around a
  run, the mean residual must be significant against that neighbourhood's own spread. A
  burst of jitter dips as often as it peaks and loses nothing; a drop moves the mean.
* Episodes: runs of the same direction closer than a few samples are one event.

Sustained departures (a loss of a few percent for tens of minutes, a bump that lasts
hours) are invisible sample by sample. For each trailing window of `sustain` (at least 12
samples) the window's median is compared with the median of the day before it. The
difference is significant when it is large against (a) how much that difference itself
varies over the last day and the baseline, and (b) the window's own spread, scaled for
the autocorrelation the baseline shows (the long-run variance of an AR(1) process): a burst
of jitter widens (b), a real loss does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
import polars as pl
from scipy import stats

MODIFIED_Z = 3.5
"""Iglewicz and Hoaglin's cut-off for the modified z-score."""

SINGLE_Z = float(stats.norm.isf(stats.norm.sf(MODIFIED_Z) ** 2))
"""A single sample as unlikely under Gaussian noise as two in a row beyond MODIFIED_Z (5.3)."""

DAY = timedelta(days=1)


@dataclass(frozen=True)
class DetectorSettings:
    """What the departure detector needs from AnalysisConfig (one setting for every series)."""

    threshold: float = MODIFIED_Z
    context: timedelta = timedelta(minutes=30)
    min_samples: int = 2
    merge_samples: int = 10
    tail_share: float = 0.01
    history: timedelta = DAY
    season_tolerance: timedelta = timedelta(hours=1)
    season_days: int = 7
    sustain: timedelta = timedelta(minutes=5)
    sustain_samples: int = 12


INTERVAL_SCHEMA = {
    "start": pl.Datetime("us", "UTC"),
    "end": pl.Datetime("us", "UTC"),
    "direction": pl.String,
    "mean": pl.Float64,
    "extreme": pl.Float64,
    "reference": pl.Float64,
    "samples": pl.UInt32,
    "detected": pl.Datetime("us", "UTC"),
    "sustained": pl.Boolean,
}


def empty_intervals() -> pl.DataFrame:
    return pl.DataFrame(schema=INTERVAL_SCHEMA)


# --- noise scales ------------------------------------------------------------------------


NORMAL_MAD = 0.6744897501960817
"""The MAD of a standard normal (scipy.special.ndtri(0.75)): MAD / NORMAL_MAD estimates
the standard deviation."""


def robust_scale(values: np.ndarray, level: float) -> float:
    """Noise scale: the normal-consistent MAD.

    Where more than half the values are equal (a quantised or mostly-idle series) the MAD
    is zero; then, as Iglewicz and Hoaglin's modified z-score prescribes, the mean
    absolute deviation from the median (times 1.2533, its normal-consistent factor). The
    final floor only keeps a perfectly flat series from dividing by zero.
    """
    values = values[np.isfinite(values)]
    if values.size == 0:
        return max(0.01 * abs(level), 1e-12)
    # scipy.stats.median_abs_deviation(values, scale="normal") in the same operations:
    # called on hundreds of short series an analysis, its argument checks cost more than
    # the medians.
    mad = float(np.median(np.abs(values - np.median(values))) / NORMAL_MAD)
    if mad == 0:
        mad = 1.253314 * float(np.mean(np.abs(values - np.median(values))))
    return max(mad, 0.01 * abs(level), 1e-12)


def resolution(values: np.ndarray) -> float:
    """The typical change between consecutive samples when the series changes at all.

    For continuous noise this is about the noise's standard deviation (the median absolute
    difference of two independent normal samples is 0.954 sigma); for a series that only
    takes a few rounded values it is the rounding step, which no departure can be smaller
    than.
    """
    steps = np.abs(np.diff(values[np.isfinite(values)]))
    steps = steps[steps > 0]
    return float(np.median(steps)) / 0.954 if steps.size else 0.0


def lag1(values: np.ndarray) -> float:
    """Lag-1 autocorrelation of a series' deviations from its median, in [0, 0.95]."""
    x = values[np.isfinite(values)]
    x = x - np.median(x) if x.size else x
    if x.size < 4 or float(np.std(x)) == 0:
        return 0.0
    rho = float(np.corrcoef(x[:-1], x[1:])[0, 1])
    return float(np.clip(rho if np.isfinite(rho) else 0.0, 0.0, 0.95))


def long_run_factor(rho: float, n: int) -> float:
    """Var(mean of n AR(1) samples) / (sigma^2 / n): 1 + 2 sum_k (1 - k/n) rho^k."""
    k = np.arange(1, max(n, 1))
    return float(1 + 2 * np.sum((1 - k / n) * rho**k))


# --- sharp departures -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Base:
    level: float
    rel_scale: float | None  # relative noise scale, for a positive series
    abs_scale: float
    floor: float  # resolution


def _baseline_stats(frame: pl.DataFrame, in_base: pl.Expr) -> _Base:
    base = frame.filter(in_base)
    if base.height < 5:
        base = frame
    values = base.get_column("value").to_numpy()
    level = float(np.median(values))
    abs_scale = robust_scale(base.get_column("residual").to_numpy(), level)
    rel = None
    if float(np.min(values)) > 0:
        ratio = base.select((pl.col("residual") / pl.col("reference")).fill_nan(None))
        rel = robust_scale(ratio.to_series().drop_nulls().to_numpy(), 1.0)
    return _Base(level, rel, abs_scale, resolution(values))


def _zscores(frame: pl.DataFrame, in_base: pl.Expr, history: timedelta) -> pl.DataFrame:
    """Residuals against the reference and their z-scores (see the module's noise scale)."""
    frame = frame.with_columns(residual=pl.col("value") - pl.col("reference"))
    b = _baseline_stats(frame, in_base)
    scale = pl.lit(max(b.abs_scale, b.floor))
    if b.rel_scale is not None:
        scale = pl.max_horizontal(pl.col("reference").abs() * b.rel_scale, scale)
    # the median |residual| over the last day, normal-consistent: noise that grew for most
    # of the day is the noise now, while departures that cover less than half of it (the
    # drops of an incident) leave it alone
    recent = 1.4826 * pl.col("residual").abs().rolling_median_by("ts", window_size=history)
    return frame.with_columns(scale=pl.max_horizontal(scale, recent)).with_columns(
        z=pl.col("residual") / pl.col("scale")
    )


def _trailing(
    frame: pl.DataFrame, exprs: dict[str, pl.Expr], lag: timedelta, step: timedelta
) -> pl.DataFrame:
    """Trailing statistics of the samples at least `lag` old, aligned on frame's ts."""
    shifted = frame.select(ts=pl.col("ts") + lag, **exprs)
    return frame.select("ts").join_asof(shifted, on="ts", strategy="backward", tolerance=None)


def _seasonal(frame: pl.DataFrame, s: DetectorSettings, step: timedelta) -> tuple[np.ndarray, ...]:
    """Thresholds from the departure that recurs at this time of day on earlier days."""
    n = frame.height
    span = frame.get_column("ts")[-1] - frame.get_column("ts")[0]
    none = np.full(n, -np.inf)
    if span < 2 * DAY:
        return none, none
    tol = s.season_tolerance
    wide = frame.select("ts", "z").with_columns(
        hi=pl.col("z").rolling_max_by("ts", window_size=2 * tol),
        lo=pl.col("z").rolling_min_by("ts", window_size=2 * tol),
    )
    ups, downs = [], []
    for day in range(1, s.season_days + 1):
        # the window (t - day - tol, t - day + tol], read off the trailing max at t - day + tol
        then = wide.select(ts=pl.col("ts") + DAY * day - tol, hi="hi", lo="lo")
        got = frame.select("ts").join_asof(then, on="ts", strategy="backward", tolerance=step)
        ups.append(got.get_column("hi").fill_null(np.nan).to_numpy())
        downs.append(-got.get_column("lo").fill_null(np.nan).to_numpy())
    out = []
    for days in (np.vstack(ups), np.vstack(downs)):
        enough = np.isfinite(days).sum(axis=0) >= 2
        typical = np.full(n, -np.inf)
        spread = np.ones(n)
        cols = np.nonzero(enough)[0]
        if cols.size:
            sub = days[:, cols]
            med = np.nanmedian(sub, axis=0)
            typical[cols] = med
            spread[cols] = np.maximum(1.4826 * np.nanmedian(np.abs(sub - med), axis=0), 1.0)
        # only a departure that recurs beyond the cut-off is a daily pattern
        recurs = typical > s.threshold
        out.append(np.where(recurs, typical + s.threshold * spread, -np.inf))
    return out[0], out[1]


def _thresholds(
    frame: pl.DataFrame, in_base: pl.Expr, s: DetectorSettings, step: timedelta
) -> pl.DataFrame:
    """Per-sample thresholds for runs (up_t, dn_t) and for single samples (up1, dn1)."""
    z = frame.get_column("z").to_numpy()
    base = frame.select(in_base).to_series().to_numpy()
    zb = z[base] if base.sum() >= 5 else z
    p = s.tail_share
    base_up, base_dn = float(np.quantile(zb, 1 - p)), float(-np.quantile(zb, p))
    up = np.full(z.size, max(s.threshold, base_up))
    dn = np.full(z.size, max(s.threshold, base_dn))
    up1 = np.full(z.size, SINGLE_Z)
    dn1 = np.full(z.size, SINGLE_Z)
    bursty_up, bursty_dn = base_up > s.threshold, base_dn > s.threshold
    if bursty_up or bursty_dn:
        window = s.history
        recent = _trailing(
            frame,
            {
                "q_up": pl.col("z").rolling_quantile_by("ts", window_size=window, quantile=1 - p),
                "q_dn": -pl.col("z").rolling_quantile_by("ts", window_size=window, quantile=p),
                "m_up": pl.col("z").rolling_max_by("ts", window_size=window),
                "m_dn": -pl.col("z").rolling_min_by("ts", window_size=window),
            },
            # the current burst must not mask itself
            lag=max(s.context, step * 10),
            step=step,
        )

        def col(name: str) -> np.ndarray:
            return recent.get_column(name).fill_null(-np.inf).to_numpy()

        # A run of bursts must clear the (1 - p) quantile of the baseline and of the last
        # day; a single burst must be larger than every departure of both.
        if bursty_up:
            up = np.maximum(up, col("q_up"))
            up1 = np.maximum(np.maximum(up1, float(zb.max())), col("m_up"))
        if bursty_dn:
            dn = np.maximum(dn, col("q_dn"))
            dn1 = np.maximum(np.maximum(dn1, float(-zb.min())), col("m_dn"))
    season_up, season_dn = _seasonal(frame, s, step)
    up, up1 = np.maximum(up, season_up), np.maximum(up1, season_up)
    dn, dn1 = np.maximum(dn, season_dn), np.maximum(dn1, season_dn)
    return frame.with_columns(
        up_t=pl.Series(up), dn_t=pl.Series(dn), up1=pl.Series(up1), dn1=pl.Series(dn1)
    )


def _flags(frame: pl.DataFrame, bad: str, floor: float) -> pl.Expr:
    up = (pl.col("z") > pl.col("up_t")) & (pl.col("residual") >= floor)
    down = (pl.col("z") < -pl.col("dn_t")) & (-pl.col("residual") >= floor)
    return {"up": up, "down": down}.get(bad, up | down)


def sharp_departures(
    series: pl.DataFrame,
    bad: str,
    baseline_start: datetime,
    baseline_end: datetime,
    s: DetectorSettings,
    smallest: float = 0.0,
) -> pl.DataFrame:
    """Runs of samples that departed sharply from the trailing reference, as intervals."""
    step = series.get_column("ts").diff().median()
    context = max(s.context, step * 10)
    in_base = (pl.col("ts") >= baseline_start) & (pl.col("ts") < baseline_end)

    def scored(reference: pl.Expr) -> pl.DataFrame:
        frame = _zscores(series.with_columns(reference=reference), in_base, s.history)
        return _thresholds(frame, in_base, s, step)

    # Two passes: the second reference is the rolling median of the samples the first pass
    # found normal, so a long burst does not lift the reference and make its own end look
    # like a drop.
    first = scored(pl.col("value").rolling_median_by("ts", window_size=context))
    normal = first.select(pl.when(~_flags(first, bad, smallest)).then(pl.col("value")))
    series = series.with_columns(normal=normal.to_series())
    frame = scored(
        pl.col("normal").rolling_median_by("ts", window_size=context).forward_fill().backward_fill()
    )
    flag = _flags(frame, bad, smallest)
    flagged = frame.with_columns(
        direction=pl.when(flag & (pl.col("residual") > 0))
        .then(pl.lit("up"))
        .when(flag)
        .then(pl.lit("down"))
        .otherwise(pl.lit(None, pl.String))
    ).with_columns(run=pl.col("direction").rle_id())
    single = (
        pl.when(pl.col("direction").first() == "up").then(pl.col("up1")).otherwise(pl.col("dn1"))
    )
    runs = (
        flagged.filter(pl.col("direction").is_not_null())
        .group_by("run", "direction")
        .agg(
            start=pl.col("ts").min(),
            last=pl.col("ts").max(),
            reference=pl.col("reference").median(),
            samples=pl.len(),
            single=(pl.col("z").abs() > single).any(),
        )
        # Like an alert's `for:` clause, a departure must persist, unless a single sample
        # is as unlikely as a persistent one.
        .filter((pl.col("samples") >= s.min_samples) | pl.col("single"))
        .with_columns(end=pl.col("last") + step, detected=pl.col("start"), sustained=pl.lit(False))
    )
    if bad in {"up", "down"} and runs.height:
        runs = _net_of_noise(frame, runs, context, in_base, s.threshold)
    return runs.select("start", "end", "direction", "reference", "detected", "sustained")


def _net_of_noise(
    frame: pl.DataFrame, runs: pl.DataFrame, context: timedelta, in_base: pl.Expr, t: float
) -> pl.DataFrame:
    """Keep the runs around which the series moved, not just got noisier.

    For a signal that is bad one way (throughput down, latency up), what matters is the
    net movement: a burst of jitter dips as often as it peaks and loses nothing. Over the
    run and half a context either side, the mean residual must be significant against
    that neighbourhood's own robust spread, with the standard error of a mean of AR(1)
    samples. A real drop moves the mean and leaves the spread; jitter does the opposite.
    """
    rho = lag1(frame.filter(in_base).get_column("residual").to_numpy())
    near = (
        runs.with_row_index("id")
        .select("id", "direction", lo=pl.col("start") - context / 2, hi=pl.col("end") + context / 2)
        .join_where(
            frame.select("ts", "residual", "scale"),
            pl.col("ts") >= pl.col("lo"),
            pl.col("ts") < pl.col("hi"),
        )
        .group_by("id")
        .agg(
            direction=pl.col("direction").first(),
            net=pl.col("residual").mean(),
            spread=pl.max_horizontal(
                1.4826 * (pl.col("residual") - pl.col("residual").median()).abs().median(),
                pl.col("scale").min(),
            ),
            n=pl.len(),
        )
    )
    sizes = near.get_column("n").to_numpy()
    factor = np.array([long_run_factor(rho, int(n)) for n in sizes])  # one per run
    tstat = pl.col("net") / (pl.col("spread") * pl.Series(np.sqrt(factor / sizes)))
    sign = pl.when(pl.col("direction") == "up").then(1.0).otherwise(-1.0)
    keep = near.filter(sign * tstat > t).get_column("id")
    return runs.with_row_index("id").filter(pl.col("id").is_in(keep.implode())).drop("id")


# --- sustained departures -------------------------------------------------------------------


def sustained_departures(
    series: pl.DataFrame,
    bad: str,
    baseline_start: datetime,
    baseline_end: datetime,
    s: DetectorSettings,
    smallest: float = 0.0,
) -> pl.DataFrame:
    """Stretches where a trailing window's median left the level of the day before it."""
    step = series.get_column("ts").diff().median()
    length = max(s.sustain, step * s.sustain_samples)
    n = max(round(length / step), 2)
    in_base = (pl.col("ts") >= baseline_start) & (pl.col("ts") < baseline_end)
    base_values = series.filter(in_base).get_column("value").to_numpy()
    if base_values.size < 5:
        base_values = series.get_column("value").to_numpy()
    rho = lag1(base_values)
    factor = long_run_factor(rho, n)
    floor = resolution(base_values) / math.sqrt(n)
    # the standard error of a window median under the baseline's own noise (AR(1), sigma
    # from the first differences: var(d) = 2 sigma^2 (1 - rho)); a day of window medians
    # is only a couple of dozen independent values, too few to trust their spread alone
    sigma = robust_scale(np.diff(base_values), 0.0) / math.sqrt(2 * (1 - rho))
    model = 1.2533 * sigma * math.sqrt(factor / n)
    median = pl.col("value").rolling_median_by("ts", window_size=length)
    frame = series.with_columns(
        m=median,
        spread=(pl.col("value") - median).abs().rolling_median_by("ts", window_size=length),
    )
    before = _trailing(
        frame, {"r": pl.col("value").rolling_median_by("ts", window_size=s.history)}, length, step
    )
    frame = frame.with_columns(r=before.get_column("r")).with_columns(d=pl.col("m") - pl.col("r"))
    # how much d itself varies: over the last day, and in the baseline
    dstats = _trailing(
        frame,
        {
            "dmed": pl.col("d").rolling_median_by("ts", window_size=s.history),
            "dmad": (pl.col("d") - pl.col("d").rolling_median_by("ts", window_size=s.history))
            .abs()
            .rolling_median_by("ts", window_size=s.history),
        },
        length,
        step,
    )
    frame = frame.with_columns(dmed=dstats.get_column("dmed"), dmad=dstats.get_column("dmad"))
    base_d = frame.filter(in_base).get_column("d").drop_nulls().to_numpy()
    base_spread = robust_scale(base_d, 0.0) if base_d.size > 10 else 1e-12
    first = series.get_column("ts")[0]
    between = (pl.col("d") - pl.col("dmed").fill_null(0.0)) / pl.max_horizontal(
        1.4826 * pl.col("dmad"), pl.lit(base_spread), pl.lit(model)
    )
    # the window's own spread (MAD -> sigma -> standard error of a median of AR(1) samples)
    within = pl.col("d") / pl.max_horizontal(
        1.4826 * pl.col("spread") * 1.2533 * math.sqrt(factor / n), pl.lit(max(floor, 1e-12))
    )
    t = s.threshold
    up = (between > t) & (within > t) & (pl.col("d") >= smallest)
    down = (between < -t) & (within < -t) & (-pl.col("d") >= smallest)
    flag = {"up": up, "down": down}.get(bad, up | down)
    # the level before the window must rest on at least two windows of data
    ready = pl.col("ts") >= first + 3 * length
    frame = frame.with_columns(
        direction=pl.when(flag & ready & (pl.col("d") > 0))
        .then(pl.lit("up"))
        .when(flag & ready)
        .then(pl.lit("down"))
        .otherwise(pl.lit(None, pl.String))
    ).with_columns(run=pl.col("direction").rle_id())
    runs = (
        frame.filter(pl.col("direction").is_not_null())
        .group_by("run", "direction")
        .agg(
            detected=pl.col("ts").min(),
            last=pl.col("ts").max(),
            reference=pl.col("r").median(),
            shift=pl.col("d").abs().max(),
        )
        .sort("detected")
    )
    located = [
        _locate(series, row, length, step) for row in runs.iter_rows(named=True)
    ]  # a handful of stretches, not rows of the series
    return pl.DataFrame(
        located,
        schema={
            "start": pl.Datetime("us", "UTC"),
            "end": pl.Datetime("us", "UTC"),
            "direction": pl.String,
            "reference": pl.Float64,
            "detected": pl.Datetime("us", "UTC"),
            "sustained": pl.Boolean,
        },
        orient="row",
    )


def _locate(series: pl.DataFrame, run: dict, length: timedelta, step: timedelta) -> tuple:
    """Where a sustained departure began and ended.

    The windows that tested significant trail the change, so their span overshoots it on
    both sides. Within them (and one window before), the stretch with the largest CUSUM of
    sign * (x - reference) - shift / 2 is the maximum-likelihood segment for a step of
    that size: samples that moved by more than half the shift extend it, the others end it.
    """
    sign = 1.0 if run["direction"] == "up" else -1.0
    near = series.filter(
        (pl.col("ts") > run["detected"] - 2 * length) & (pl.col("ts") <= run["last"])
    )
    ts = near.get_column("ts").to_list()
    gain = sign * (near.get_column("value").to_numpy() - run["reference"]) - run["shift"] / 2
    first, last = best_stretch(ts, gain)
    start = min(first, run["detected"])
    return (start, last + step, run["direction"], run["reference"], run["detected"], True)


def best_stretch(ts: list[datetime], gain: np.ndarray) -> tuple[datetime, datetime]:
    """First and last time of the stretch with the largest sum of gains (Kadane's)."""
    prefix = np.concatenate([[0.0], np.cumsum(gain)])
    lowest = np.minimum.accumulate(prefix[:-1])  # the smallest prefix before each end
    end = int(np.argmax(prefix[1:] - lowest))
    # Of equal sums the shortest: samples that add nothing do not extend it.
    begin = end - int(np.argmin(prefix[end::-1]))
    return ts[begin], ts[end]


def _describe(series: pl.DataFrame, spans: pl.DataFrame) -> pl.DataFrame:
    """Mean, extreme and sample count of the series over each span [start, end)."""
    columns = ["start", "end", "direction", "reference", "detected", "sustained"]
    spans = spans.select(columns).with_row_index("id")
    if spans.height == 0:
        return spans.drop("id").with_columns(
            mean=pl.lit(None, pl.Float64),
            extreme=pl.lit(None, pl.Float64),
            samples=pl.lit(0, pl.UInt32),
        )
    inside = (
        spans.join_where(series, pl.col("ts") >= pl.col("start"), pl.col("ts") < pl.col("end"))
        .group_by("id")
        .agg(
            mean=pl.col("value").mean(),
            hi=pl.col("value").max(),
            lo=pl.col("value").min(),
            samples=pl.len().cast(pl.UInt32),
        )
    )
    return (
        spans.join(inside, on="id", how="left")
        .with_columns(
            extreme=pl.when(pl.col("direction") == "up").then(pl.col("hi")).otherwise(pl.col("lo"))
        )
        .drop("id", "hi", "lo")
    )


# --- both, as episodes ----------------------------------------------------------------------


def departures(
    series: pl.DataFrame,
    bad: str,
    baseline_start: datetime,
    baseline_end: datetime,
    s: DetectorSettings = DetectorSettings(),
    smallest: float = 0.0,
) -> pl.DataFrame:
    """Sharp and sustained departures of one series, merged into episodes per direction.

    Returns start, end, direction (up/down), mean, extreme, reference, samples, detected
    (the first sample at which the evidence was enough; for a sustained departure later
    than its start) and sustained (whether the sustained test found any part of it).
    """
    series = series.drop_nulls("value").sort("ts").select("ts", "value")
    if series.height < 5:
        return empty_intervals()
    step = series.get_column("ts").diff().median()
    parts = [
        sharp_departures(series, bad, baseline_start, baseline_end, s, smallest),
        sustained_departures(series, bad, baseline_start, baseline_end, s, smallest),
    ]
    found = pl.concat(parts, how="vertical_relaxed")
    if found.height == 0:
        return empty_intervals()
    gap = step * s.merge_samples
    before = pl.col("end").cum_max().shift().over("direction")
    # A sustained departure begins where its own stretch does: a sharp transient before it
    # with normal samples between (one checkpoint's dip ten lines before a lasting loss)
    # is an episode of its own, or the loss would be dated from the dip. A row opens such
    # a stretch when a sustained departure starts with it (the sharp test often flags
    # the first samples of a shift too).
    found = found.sort("direction", "start")
    lasting = found.filter("sustained").select("direction", opens=pl.col("start"))
    found = found.join_asof(
        lasting.sort("opens"),
        left_on="start",
        right_on="opens",
        by="direction",
        strategy="forward",
        tolerance=2 * step,
        check_sortedness=False,  # sorted by start within each direction, as asof needs
    ).sort("direction", "start")
    after_transient = (
        pl.col("opens").is_not_null()
        & ~pl.col("sustained").shift().over("direction")
        & (pl.col("start") > before + 2 * step)
    )
    episodes = (
        found.with_columns(
            new=(
                (pl.col("start") > before + gap)
                | after_transient
                | (pl.col("direction") != pl.col("direction").shift())
            ).fill_null(True)
        )
        .with_columns(episode=pl.col("new").cum_sum())
        .group_by("episode", "direction")
        .agg(
            start=pl.col("start").min(),
            end=pl.col("end").max(),
            detected=pl.col("detected").min(),
            sustained=pl.col("sustained").any(),
            reference=pl.col("reference").median(),
        )
    )
    return (
        _describe(series, episodes)
        .select(list(INTERVAL_SCHEMA))
        .cast(INTERVAL_SCHEMA)
        .sort("start")
    )
