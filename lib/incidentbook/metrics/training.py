"""Training-health findings: what the chronicles of large runs (OPT-175B's logbook,
BigScience's BLOOM chronicles) are full of, found in the trainer's own signals.

    loss_spike           the loss jumps above its recent level (and whether it recovered)
    grad_norm_spike      the gradient norm jumps by a factor (it often leads a loss spike)
    loss_scale_collapse  fp16's dynamic loss scale falls to a fraction of its recent top
    skipped_iterations   a burst of skipped (overflowing) optimizer steps
    nan_iterations       iterations whose loss was not a number
    restart              the iteration counter goes back (a resume from a checkpoint)
    stall                no iteration for far longer than usual (a hang, a stop)

Methods. Loss and grad norm are compared with the median of the points before them
(trailing, so the spike does not raise its own reference), on a log scale, where a
spike is a ratio: a point is flagged when its ratio to that median is beyond both a
practical floor (`loss_rise`, `grad_norm_factor`) and 3.5 robust z-scores of the
ratios' own spread (Iglewicz and Hoaglin's modified z, as the rest of the analysis), so
a noisy small-batch loss needs a bigger jump than a smooth one. Consecutive flagged
points are one finding. The loss scale collapses when it falls below `scale_fraction`
of the highest it was over the points before; a dynamic scaler's routine halving and
regrowth stays above that. Skipped-iteration reports close together form a burst, kept
when it holds `burst_skips` or more; any NaN iteration is kept. The first `warmup`
iterations of a training (the fp16 scaler's search for its scale, compile steps, a
loss that has not settled) are left out of all but restarts and stalls: benign there,
and what every run's log shows.

Called from metrics.analysis.analyze with the signal frame; it reads only signals of
role `health` it finds there (by their metric: trainer_loss, ...), so a pack may name
them as it likes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
import polars as pl

from incidentbook.metrics.signals import Signal
from incidentbook.record.model import Finding
from incidentbook.text import format_value
from incidentbook.window import TimeWindow

TRAINING_KINDS = frozenset(
    {
        "loss_spike",
        "grad_norm_spike",
        "loss_scale_collapse",
        "skipped_iterations",
        "nan_iterations",
        "restart",
        "stall",
    }
)

MODIFIED_Z = 3.5


@dataclass(frozen=True)
class HealthConfig:
    loss_rise: float = 0.25
    """A loss spike is at least this far above the trailing median (25%)."""
    grad_norm_factor: float = 5.0
    """A grad-norm spike is at least this many times the trailing median."""
    scale_fraction: float = 1 / 8
    """A loss-scale collapse: below this fraction of the recent top (three halvings)."""
    burst_skips: int = 3
    burst_gap: int = 5
    """Skipped-iteration reports fewer than this many reports apart are one burst."""
    warmup: int = 100
    reference_points: int = 20
    stall_factor: float = 10.0
    stall_floor: timedelta = timedelta(minutes=5)


DEFAULT_HEALTH = HealthConfig()


def _series(
    frame: pl.DataFrame, signals: dict[str, Signal], metric: str
) -> tuple[str, pl.DataFrame] | None:
    """The health signal reading `metric`: its name and one series (ts, value), the
    hosts combined by the signal's aggregate."""
    for name, signal in signals.items():
        if signal.role == "health" and signal.metric == metric:
            rows = frame.filter(pl.col("signal") == name)
            if rows.height == 0:
                return None
            how = {"mean": pl.mean, "sum": pl.sum, "max": pl.max, "min": pl.min}[signal.aggregate]
            return name, rows.group_by("ts").agg(how("value")).sort("ts")
    return None


def _after_warmup(
    series: pl.DataFrame, iterations: pl.DataFrame | None, warmup: int
) -> pl.DataFrame:
    """The series from the time training passed `warmup` iterations on (all of it when
    the iteration is unknown)."""
    if iterations is None:
        return series
    past = iterations.filter(pl.col("value") > warmup)
    if past.height == 0:
        return series.clear()
    return series.filter(pl.col("ts") >= past.get_column("ts").min())


def _iteration_at(iterations: pl.DataFrame | None, at: datetime) -> str:
    if iterations is None:
        return ""
    got = iterations.filter(pl.col("ts") <= at).tail(1)
    return f" (iteration {int(got.item(0, 'value'))})" if got.height else ""


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) index of each run of consecutive True."""
    out, start = [], None
    for i, flag in enumerate(flags):
        if flag and start is None:
            start = i
        if not flag and start is not None:
            out.append((start, i - 1))
            start = None
    if start is not None:
        out.append((start, len(flags) - 1))
    return out


def _ratio_spikes(series: pl.DataFrame, floor: float, points: int) -> tuple[np.ndarray, np.ndarray]:
    """Flags and trailing medians: a point is flagged when log(value / trailing median)
    exceeds log(floor) and 3.5 modified z of the calm points' log ratios."""
    reference = (
        series.select(pl.col("value").shift(1).rolling_median(points, min_samples=1))
        .to_series()
        .to_numpy()
    )
    values = series.get_column("value").to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(values / reference)
    valid = np.isfinite(ratio)
    # The noise is that of the calm points (below the floor): the spike must not widen the
    # yardstick it is measured with. Too few calm points: the floor alone decides.
    calm = ratio[valid & (ratio <= np.log(floor))]
    flags = valid & (ratio > np.log(floor))
    if calm.size >= 5:
        centre = np.median(calm)
        spread = np.median(np.abs(calm - centre)) * 1.4826
        if spread > 0:
            flags &= ratio > centre + MODIFIED_Z * spread
    return flags, reference


def _spikes(
    kind: str,
    name: str,
    signal: Signal,
    series: pl.DataFrame,
    floor: float,
    config: HealthConfig,
    iterations: pl.DataFrame | None,
) -> list[Finding]:
    flags, reference = _ratio_spikes(series, floor, config.reference_points)
    ts = series.get_column("ts").to_list()
    values = series.get_column("value").to_numpy()
    found = []
    for first, last in _runs(flags):
        peak = first + int(np.argmax(values[first : last + 1]))
        ref = float(reference[first])
        after = np.flatnonzero(values[last + 1 :] <= ref * (1 + (floor - 1) / 2))
        recovered = ts[last + 1 + int(after[0])] if after.size else None
        size = values[peak] / ref
        found.append(
            Finding(
                kind=kind,
                signal=name,
                start=ts[first],
                end=recovered or ts[last],
                magnitude=float(size - 1),
                value=float(values[peak]),
                baseline=ref,
                summary=(
                    f"{signal.label} jumped to {format_value(float(values[peak]), signal.unit)} "
                    f"from {format_value(ref, signal.unit)} (x{size:.3g}) at "
                    f"{ts[peak]:%Y-%m-%d %H:%M:%S}{_iteration_at(iterations, ts[peak])}"
                    + (
                        f"; back near it by {recovered:%H:%M:%S}"
                        f"{_iteration_at(iterations, recovered)}"
                        if recovered
                        else "; it had not come back by the last point"
                    )
                ),
            )
        )
    return found


def _scale_collapses(
    name: str, signal: Signal, series: pl.DataFrame, config: HealthConfig, iterations
) -> list[Finding]:
    values = series.get_column("value").to_numpy()
    ts = series.get_column("ts").to_list()
    top = np.maximum.accumulate(values)
    low = values <= top * config.scale_fraction
    found = []
    for first, last in _runs(low):
        # The collapse began where the scale last stood at its top before falling.
        began = int(np.flatnonzero(values[: first + 1] >= top[first])[-1])
        bottom = first + int(np.argmin(values[first : last + 1]))
        halvings = np.log2(top[first] / values[bottom])
        found.append(
            Finding(
                kind="loss_scale_collapse",
                signal=name,
                start=ts[began],
                end=ts[bottom],
                magnitude=float(values[bottom] / top[first] - 1),
                value=float(values[bottom]),
                baseline=float(top[first]),
                summary=(
                    f"{signal.label} collapsed from {top[first]:g} to {values[bottom]:g} "
                    f"({halvings:.0f} halvings) between {ts[began]:%Y-%m-%d %H:%M:%S} and "
                    f"{ts[bottom]:%H:%M:%S}{_iteration_at(iterations, ts[bottom])}"
                ),
            )
        )
        top[last + 1 :] = (
            np.maximum.accumulate(values[last + 1 :]) if last + 1 < len(values) else []
        )
    return found


def _bursts(
    kind: str, name: str, signal: Signal, series: pl.DataFrame, least: int, gap: int, iterations
) -> list[Finding]:
    values = series.get_column("value").to_numpy()
    ts = series.get_column("ts").to_list()
    hits = np.flatnonzero(values > 0)
    if hits.size == 0:
        return []
    groups, current = [], [int(hits[0])]
    for i in hits[1:]:
        if i - current[-1] < gap:
            current.append(int(i))
        else:
            groups.append(current)
            current = [int(i)]
    groups.append(current)
    found = []
    for group in groups:
        total = float(values[group].sum())
        if total < least:
            continue
        first, last = ts[group[0]], ts[group[-1]]
        found.append(
            Finding(
                kind=kind,
                signal=name,
                start=first,
                end=last,
                magnitude=total,
                value=total,
                summary=(
                    f"{total:.0f} {signal.label.lower()} between {first:%Y-%m-%d %H:%M:%S}"
                    f"{_iteration_at(iterations, first)} and {last:%H:%M:%S}"
                    f"{_iteration_at(iterations, last)}"
                ),
            )
        )
    return found


def _restarts_and_stalls(
    name: str,
    iterations: pl.DataFrame,
    window: TimeWindow,
    config: HealthConfig,
    logged: bool = True,
) -> list[Finding]:
    its = iterations.get_column("value").to_numpy()
    ts = iterations.get_column("ts").to_list()
    found = []
    if len(its) < 2:
        return found
    seconds = np.diff(iterations.get_column("ts").dt.epoch("us").to_numpy()) / 1e6
    steps = np.diff(its)
    # A gap is long against what the iterations it covers usually take: logging every
    # 28 iterations is not a stall when each takes 106 s.
    forward = steps > 0
    pace = float(np.median(seconds[forward] / steps[forward])) if forward.any() else 0.0
    usual = float(np.median(seconds)) if seconds.size else 0.0
    longest = max(config.stall_floor.total_seconds(), config.stall_factor * usual)
    for i in range(1, len(its)):
        gap = seconds[i - 1]
        # A log's duplicates are merged at the source, so there the same iteration again
        # is a run resumed; a gauge scraped faster than the trainer logs (its counter read
        # twice between two updates) repeats its value all the time, and there only
        # going back, or the same value after a pause, is one.
        again = its[i] == its[i - 1] and (logged or gap > longest)
        if its[i] < its[i - 1] or again:
            lost = its[i - 1] - its[i] + 1
            found.append(
                Finding(
                    kind="restart",
                    signal=name,
                    start=ts[i - 1],
                    end=ts[i],
                    magnitude=float(-lost / its[i - 1]) if its[i - 1] else 0.0,
                    value=float(its[i]),
                    baseline=float(its[i - 1]),
                    summary=(
                        f"The run restarted at iteration {its[i]:.0f} after reaching "
                        f"{its[i - 1]:.0f} ({lost:.0f} iterations to do again), "
                        f"{timedelta(seconds=round(gap))} after the last line before it"
                    ),
                )
            )
        else:
            expected = pace * steps[i - 1]
            if gap <= max(config.stall_floor.total_seconds(), config.stall_factor * expected):
                continue
            found.append(
                Finding(
                    kind="stall",
                    signal=name,
                    start=ts[i - 1],
                    end=ts[i],
                    magnitude=float(gap / expected - 1) if expected else 0.0,
                    value=gap,
                    baseline=expected,
                    summary=(
                        f"No iteration for {timedelta(seconds=round(gap))} after iteration "
                        f"{its[i - 1]:.0f}: {steps[i - 1]:.0f} iterations that usually take "
                        f"{timedelta(seconds=round(expected))}"
                    ),
                )
            )
    tail = (window.end - ts[-1]).total_seconds()
    if tail > longest and usual:
        found.append(
            Finding(
                kind="stall",
                signal=name,
                start=ts[-1],
                end=window.end,
                magnitude=float(tail / usual - 1),
                value=tail,
                baseline=usual,
                summary=(
                    f"No iteration after iteration {its[-1]:.0f} at {ts[-1]:%Y-%m-%d %H:%M:%S}: "
                    f"{timedelta(seconds=round(tail))} to the window's end"
                ),
            )
        )
    return found


def training_findings(
    frame: pl.DataFrame,
    signals: dict[str, Signal],
    window: TimeWindow,
    config: HealthConfig = DEFAULT_HEALTH,
    logged: frozenset[str] | None = None,
) -> list[Finding]:
    """Every training-health finding in a signal frame (see the module's docstring).
    `logged`: the signals read from a log of one line per step (a trainer log, TensorBoard)
    rather than sampled from a gauge (None: all of them)."""
    found: list[Finding] = []
    got = _series(frame, signals, "trainer_iteration")
    iterations = got[1] if got else None
    if got:
        by_step = logged is None or got[0] in logged
        found += _restarts_and_stalls(got[0], got[1], window, config, by_step)
    for metric, kind, floor in (
        ("trainer_loss", "loss_spike", 1 + config.loss_rise),
        ("trainer_grad_norm", "grad_norm_spike", config.grad_norm_factor),
    ):
        got = _series(frame, signals, metric)
        if got:
            series = _after_warmup(got[1], iterations, config.warmup)
            found += _spikes(kind, got[0], signals[got[0]], series, floor, config, iterations)
    got = _series(frame, signals, "trainer_loss_scale")
    if got:
        series = _after_warmup(got[1], iterations, config.warmup)
        found += _scale_collapses(got[0], signals[got[0]], series, config, iterations)
    for metric, kind, least in (
        ("trainer_skipped_iterations", "skipped_iterations", config.burst_skips),
        ("trainer_nan_iterations", "nan_iterations", 1),
    ):
        got = _series(frame, signals, metric)
        if got:
            series = _after_warmup(got[1], iterations, config.warmup)
            found += _bursts(
                kind, got[0], signals[got[0]], series, least, config.burst_gap, iterations
            )
    return sorted(found, key=lambda f: (f.start, f.kind, f.signal))
