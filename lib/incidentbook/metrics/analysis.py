"""Finding what happened in a window: anomalies per signal, what coincided, which hosts.

Methods, and why they fit telemetry from training clusters:

* Drops and spikes: a robust z-score (Iglewicz and Hoaglin's modified z, |z| > 3.5) of
  each sample against a trailing rolling median, with the noise scale taken as the
  median absolute deviation (scipy.stats.median_abs_deviation) of the baseline's
  residuals. Medians ignore the very outliers being looked for, so a few sharp drops do
  not drag the reference down the way a mean and standard deviation would, and the
  trailing median follows slow drifts so only sharp departures count.
* Level shifts: PELT change-point search (ruptures, l2 cost) with a BIC-style penalty scaled by
  the robust noise estimate: the number of segments is chosen by the data.
* Trends: the Theil-Sen slope (scipy.stats.theilslopes), robust to the drops riding on
  the trend; reported when its confidence interval excludes zero.
* Outlier hosts: the modified z-score again, across hosts (each host's level in the
  window against the median host), which is how "the same few hosts" stand out.
* Coincidence: a signal's anomalies are matched to the primary symptom's within a
  tolerance; the score is the F1 of the two match rates (drops explained, anomalies
  that fell in a drop), so a signal that spikes all the time ranks low.

A practical-significance floor (`min_relative`, 10% of the baseline level by default)
keeps statistically clear but tiny deviations of very quiet series out of the findings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl
import ruptures
from scipy import stats

from incidentbook.metrics.data import Metrics, MetricsReceipt
from incidentbook.metrics.frames import cluster_series
from incidentbook.metrics.signals import Signal
from incidentbook.metrics.training import training_findings
from incidentbook.record.model import Correlation, Finding
from incidentbook.text import format_span, format_value, listing
from incidentbook.window import TimeWindow

MODIFIED_Z = 3.5
"""Iglewicz and Hoaglin's cut-off for the modified z-score."""


@dataclass(frozen=True)
class AnalysisConfig:
    threshold: float = MODIFIED_Z
    min_relative: float = 0.10
    context: timedelta = timedelta(minutes=30)
    tolerance: timedelta | None = None  # default: two sampling steps, at least one minute
    max_points_for_fits: int = 400
    min_samples: int = 2


DEFAULT_CONFIG = AnalysisConfig()


@dataclass(frozen=True)
class Analysis:
    """Everything the analysis found, in the shapes the workbook and the record need."""

    window: TimeWindow
    baseline: TimeWindow
    primary: str
    findings: list[Finding]
    correlations: list[Correlation]
    cluster: pl.DataFrame
    intervals: pl.DataFrame
    receipt: MetricsReceipt
    notes: list[str] = field(default_factory=list)
    levels: dict[str, float] = field(default_factory=dict)
    """Each signal's baseline level, the one its anomalies are measured against."""
    liveness: tuple[str, ...] = ()
    """The signals of role `liveness` (hosts up or down) among those analysed."""

    @property
    def report(self) -> MetricsReceipt:
        """The receipt's name before 0.2."""
        return self.receipt

    def findings_frame(self) -> pl.DataFrame:
        return findings_frame(self.findings)


def findings_frame(findings: list[Finding]) -> pl.DataFrame:
    rows = [
        {
            "kind": f.kind,
            "signal": f.signal,
            "start": f.start,
            "end": f.end,
            "magnitude": f.magnitude,
            "hosts": len(f.hosts),
            "summary": f.summary,
        }
        for f in findings
    ]
    schema = {
        "kind": pl.String,
        "signal": pl.String,
        "start": pl.Datetime("us", "UTC"),
        "end": pl.Datetime("us", "UTC"),
        "magnitude": pl.Float64,
        "hosts": pl.Int64,
        "summary": pl.String,
    }
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


# --- one series -----------------------------------------------------------------------


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
    mad = float(stats.median_abs_deviation(values, scale="normal"))
    if mad == 0:
        mad = 1.253314 * float(np.mean(np.abs(values - np.median(values))))
    return max(mad, 0.01 * abs(level), 1e-12)


def detect_intervals(
    series: pl.DataFrame,
    bad: str,
    baseline: TimeWindow,
    config: AnalysisConfig = DEFAULT_CONFIG,
    smallest: float | None = None,
) -> pl.DataFrame:
    """Runs of anomalous samples in one series (columns ts, value), as intervals.

    `smallest` is the least change worth reporting (default: a share of the level).

    Returns start, end, direction (down/up), mean, extreme, reference (the rolling median
    it departed from), and samples.
    """
    empty = pl.DataFrame(
        schema={
            "start": pl.Datetime("us", "UTC"),
            "end": pl.Datetime("us", "UTC"),
            "direction": pl.String,
            "mean": pl.Float64,
            "extreme": pl.Float64,
            "reference": pl.Float64,
            "samples": pl.UInt32,
        }
    )
    series = series.drop_nulls("value").sort("ts")
    if series.height < 5:
        return empty
    step = series.get_column("ts").diff().median()
    context = f"{max(int(config.context.total_seconds()), int(step.total_seconds()) * 10)}s"
    in_base = baseline.contains()

    def against(reference_of: pl.Expr) -> tuple[pl.DataFrame, pl.Expr]:
        with_ref = series.with_columns(reference=reference_of).with_columns(
            residual=pl.col("value") - pl.col("reference")
        )
        base = with_ref.filter(in_base)
        if base.height < 5:
            base = with_ref
        level = float(base.get_column("value").median())
        floor = smallest if smallest is not None else config.min_relative * abs(level)
        if base.get_column("value").min() > 0:
            # A positive quantity's noise grows with its level (a dataloader twice as slow
            # jitters twice as much), so deviations are measured relative to the reference.
            relative = (pl.col("residual") / pl.col("reference")).fill_nan(None)
            scale = robust_scale(base.select(relative).to_series().drop_nulls().to_numpy(), 1.0)
            with_ref = with_ref.with_columns(z=relative / scale)
        else:
            scale = robust_scale(base.get_column("residual").to_numpy(), level)
            with_ref = with_ref.with_columns(z=pl.col("residual") / scale)
        z = pl.col("z")
        up = (z > config.threshold) & (pl.col("residual") >= floor)
        down = (z < -config.threshold) & (-pl.col("residual") >= floor)
        return with_ref, {"up": up, "down": down}.get(bad, up | down)

    # Two passes: the second reference is the rolling median of the samples the first pass
    # found normal, so a long burst does not lift the reference and make its own end look
    # like a drop.
    first, flag = against(pl.col("value").rolling_median_by("ts", window_size=context))
    normal = first.select(pl.when(~flag).then(pl.col("value"))).to_series()
    series = series.with_columns(normal=normal)
    reference = (
        pl.col("normal").rolling_median_by("ts", window_size=context).forward_fill().backward_fill()
    )
    with_ref, flag = against(reference)
    flagged = with_ref.with_columns(
        direction=pl.when(flag & (pl.col("residual") > 0))
        .then(pl.lit("up"))
        .when(flag)
        .then(pl.lit("down"))
        .otherwise(pl.lit(None, pl.String))
    ).with_columns(run=pl.col("direction").rle_id())
    runs = (
        flagged.filter(pl.col("direction").is_not_null())
        .group_by("run", "direction")
        .agg(
            start=pl.col("ts").min(),
            last=pl.col("ts").max(),
            mean=pl.col("value").mean(),
            extreme=pl.when(pl.col("direction").first() == "up")
            .then(pl.col("value").max())
            .otherwise(pl.col("value").min()),
            reference=pl.col("reference").median(),
            samples=pl.len(),
            peak_z=pl.col("z").abs().max(),
        )
        # Like an alert's `for:` clause, a departure must persist for `min_samples`
        # samples, unless it is extreme (twice the threshold): one noisy scrape is not
        # an incident, but a single 10-sigma spike is worth a look.
        .filter(
            (pl.col("samples") >= config.min_samples) | (pl.col("peak_z") >= 2 * config.threshold)
        )
        .sort("start")
    )
    if runs.height == 0:
        return empty
    # Runs split by a single quiet sample are one event.
    merged = (
        runs.with_columns(
            new=((pl.col("start") - pl.col("last").shift()) > step * 2).fill_null(True)
            | (pl.col("direction") != pl.col("direction").shift()).fill_null(True)
        )
        .with_columns(event=pl.col("new").cum_sum())
        .group_by("event", "direction")
        .agg(
            start=pl.col("start").min(),
            end=pl.col("last").max() + step,
            mean=(pl.col("mean") * pl.col("samples")).sum() / pl.col("samples").sum(),
            extreme=pl.when(pl.col("direction").first() == "up")
            .then(pl.col("extreme").max())
            .otherwise(pl.col("extreme").min()),
            reference=pl.col("reference").median(),
            samples=pl.col("samples").sum().cast(pl.UInt32),
        )
        .sort("start")
    )
    return merged.select(empty.columns)


def _downsampled(series: pl.DataFrame, points: int) -> tuple[np.ndarray, np.ndarray]:
    """Bucket means for the fits (PELT and Theil-Sen are quadratic in the worst case)."""
    series = series.drop_nulls("value").sort("ts")
    n = series.height
    if n > points:
        bucket = (pl.int_range(pl.len()) * points // n).alias("bucket")
        series = (
            series.group_by(bucket).agg(pl.col("ts").first(), pl.col("value").mean()).sort("bucket")
        )
    t = series.get_column("ts").dt.epoch("s").to_numpy().astype(float)
    return t, series.get_column("value").to_numpy().astype(float)


@dataclass(frozen=True)
class Shape:
    """How a series moved over the whole window: a trend, or shifts between levels."""

    trend: tuple[float, float] | None  # fitted first and last values
    shifts: list[tuple[datetime, datetime | None, float]]  # start, end (None: to the end), mean


def _bic(rss: float, n: int, params: int) -> float:
    return n * math.log(max(rss, 1e-300) / n) + params * math.log(n)


def describe_shape(
    series: pl.DataFrame, bad: str, level: float, config: AnalysisConfig, smallest: float
) -> Shape:
    """A straight line (Theil-Sen) or a few flat levels (PELT).

    A ramp and a step both show a significant slope. PELT carves a ramp (or a curve) into
    a staircase of many levels, so more than four levels is read as a trend; with fewer,
    the two models' BIC decides, which tells a filling disk from a failover.
    """
    t, y = _downsampled(series, config.max_points_for_fits)
    if y.size < 20:
        return Shape(None, [])
    n = y.size
    sigma = robust_scale(np.diff(y) / math.sqrt(2), level)
    breaks = (
        # ruptures' KernelCPD with the linear kernel is PELT on the l2 cost, in C
        # (the pure-Python Pelt took most of an analysis' time).
        ruptures.KernelCPD(kernel="linear", min_size=max(3, n // 50), jump=1)
        .fit(y)
        .predict(pen=2 * sigma**2 * math.log(n) * 3)
    )
    breaks = [int(b) for b in breaks]
    bounds = list(zip([0, *breaks[:-1]], breaks, strict=True))
    rss_steps = sum(float(np.sum((y[a:b] - y[a:b].mean()) ** 2)) for a, b in bounds)
    bic_steps = _bic(rss_steps, n, 2 * len(bounds))

    slope, intercept, low, high = stats.theilslopes(y, t, alpha=0.99)
    line = intercept + slope * t
    bic_line = _bic(float(np.sum((y - line) ** 2)), n, 2)
    change = line[-1] - line[0]
    trend_ok = not (low <= 0 <= high) and abs(change) >= max(
        config.min_relative * abs(level), 1e-12
    )
    trend_ok &= bad == "both" or (bad == "up") == (change > 0)
    # A few levels can be a step; many levels are PELT staircasing a ramp or a curve.
    staircase = len(bounds) > 4
    if trend_ok and (staircase or bic_line <= bic_steps):
        return Shape((float(line[0]), float(line[-1])), [])

    shifts = []
    for a, b in bounds:
        mean = float(np.mean(y[a:b]))
        delta = mean - level
        big = abs(delta) > max(config.threshold * sigma, smallest)
        wanted = bad == "both" or (bad == "up") == (delta > 0)
        if big and wanted and (b - a) >= 0.15 * n:
            shifts.append((_epoch(t[a]), _epoch(t[b]) if b < n else None, mean))
    return Shape(None, shifts)


# --- the whole window -------------------------------------------------------------------


def default_baseline(window: TimeWindow) -> TimeWindow:
    """The window's first 15%: where a postmortem usually still sees normal behaviour."""
    return TimeWindow(start=window.start, end=window.start + window.duration * 0.15)


def _relative(value: float, level: float) -> float:
    return (value - level) / abs(level) if level else value - level


def _hosts_in(per_node_flags: pl.DataFrame, signal: str, start, end) -> list[str]:
    if per_node_flags.height == 0:
        return []
    hit = per_node_flags.filter(
        (pl.col("signal") == signal) & (pl.col("ts") >= start) & (pl.col("ts") < end)
    )
    return sorted(hit.get_column("node").unique().to_list())


def per_node_flags(
    frame: pl.DataFrame, signals: dict[str, Signal], baseline: TimeWindow, k: float
) -> pl.DataFrame:
    """Samples where a host's own series departed from its baseline (for naming hosts)."""
    per_node = frame.group_by("signal", "node", "ts").agg(value=pl.col("value").mean())
    in_base = baseline.contains()
    stats_ = (
        per_node.filter(in_base)
        .group_by("signal", "node")
        .agg(
            med=pl.col("value").median(),
            mad=(pl.col("value") - pl.col("value").median()).abs().median() * 1.4826,
        )
    )
    bad = pl.DataFrame({"signal": list(signals), "bad": [s.bad for s in signals.values()]})
    scale = pl.max_horizontal(pl.col("mad"), pl.col("med").abs() * 0.01, pl.lit(1e-12))
    z = (pl.col("value") - pl.col("med")) / scale
    return (
        per_node.join(stats_, on=["signal", "node"])
        .join(bad, on="signal")
        .filter(
            pl.when(pl.col("bad") == "up")
            .then(z > k)
            .when(pl.col("bad") == "down")
            .then(z < -k)
            .otherwise(z.abs() > k)
        )
        .select("signal", "node", "ts")
    )


def outlier_hosts(
    frame: pl.DataFrame, signals: dict[str, Signal], window: TimeWindow, config: AnalysisConfig
) -> list[Finding]:
    """Hosts whose level over the window sits far from the median host's, per signal.

    A host's level is its worst unit (GPU, device) in the direction that hurts; for a
    signal bad both ways, each direction is looked at on its own.
    """
    findings = []
    for name, signal in signals.items():
        if signal.role == "liveness":
            continue  # hosts that are down are failure rates, not outliers
        rows = frame.filter(pl.col("signal") == name)
        if rows.height == 0:
            continue
        # Rates of rare events (link flaps) are mostly zero: their mean, not median, shows them.
        stat = pl.col("value").mean() if signal.kind == "counter_rate" else pl.col("value").median()
        per_unit = rows.group_by("node", "gpu").agg(level=stat)
        for direction in ("up", "down") if signal.bad == "both" else (signal.bad,):
            worst = pl.col("level").max() if direction == "up" else pl.col("level").min()
            per_host = per_unit.group_by("node").agg(level=worst).sort("node")
            finding = _outliers_one_way(per_host, signal, direction, window, config)
            if finding is not None:
                findings.append(finding)
    return findings


def _outliers_one_way(
    per_host: pl.DataFrame, signal: Signal, direction: str, window: TimeWindow, config
) -> Finding | None:
    levels = per_host.get_column("level").to_numpy()
    if levels.size < 5:
        return None
    centre = float(np.median(levels))
    scale = robust_scale(levels, centre)
    floor = min_change(signal, centre, config)
    deviation = pl.col("level") - centre
    z = deviation / scale
    if direction == "up":
        cond = (z > config.threshold) & (deviation >= floor)
    else:
        cond = (z < -config.threshold) & (-deviation >= floor)
    out = per_host.filter(cond)
    if out.height == 0:
        return None
    hosts = out.get_column("node").to_list()
    typical = float(out.get_column("level").median())
    return Finding(
        kind="outlier_host",
        signal=signal.name,
        start=window.start,
        end=window.end,
        magnitude=_relative(typical, centre),
        hosts=hosts,
        value=typical,
        baseline=centre,
        summary=(
            f"{len(hosts)} of {levels.size} hosts stand out on {signal.label.lower()}: "
            f"{'as high as' if direction == 'up' else 'as low as'} "
            f"{format_value(typical, signal.unit)} "
            f"(typical of them) against {format_value(centre, signal.unit)} on the median host "
            f"({listing(hosts)})"
        ),
    )


def min_change(signal: Signal | None, level: float, config: AnalysisConfig) -> float:
    """The smallest change worth reporting: the signal's own, or a share of its level."""
    if signal is not None and signal.min_change is not None:
        return signal.min_change
    return config.min_relative * abs(level)


def failure_rates(frame: pl.DataFrame, window: TimeWindow, signal: str) -> list[Finding]:
    """Hosts that never came up, and hosts lost during the window, from a liveness signal
    (a signal of role `liveness`: 1 while a host is up, 0 while it is down)."""
    up = frame.filter(pl.col("signal") == signal)
    if up.height == 0:
        return []
    per_host = (
        up.sort("ts")
        .group_by("node")
        .agg(
            peak=pl.col("value").max(),
            last=pl.col("value").last(),
            # Hosts boot into the window: lost means down after having been up.
            lost_at=pl.col("ts")
            .filter((pl.col("value") < 0.5) & (pl.col("value").cum_max() >= 0.5))
            .first(),
        )
    )
    total = per_host.height
    findings = []
    never = per_host.filter(pl.col("peak") < 0.5).sort("node")
    lost = per_host.filter((pl.col("peak") >= 0.5) & (pl.col("last") < 0.5)).sort("node")

    def finding(hosts: list[str], start, summary: str) -> Finding:
        return Finding(
            kind="failure_rate",
            signal=signal,
            start=start,
            end=window.end,
            magnitude=-len(hosts) / total,
            hosts=hosts,
            value=len(hosts) / total,
            baseline=0.0,
            summary=summary,
        )

    if never.height:
        hosts = never.get_column("node").to_list()
        findings.append(
            finding(
                hosts,
                window.start,
                f"{len(hosts)} of {total} hosts ({len(hosts) / total:.0%}) never came up "
                "in the window (their exporters were never reachable)",
            )
        )
    if lost.height:
        hosts = lost.get_column("node").to_list()
        first = lost.get_column("lost_at").min()
        findings.append(
            finding(
                hosts,
                first,
                f"{len(hosts)} of {total} hosts went down during the window and stayed down, "
                f"the first at {first:%H:%M} UTC ({', '.join(hosts[:5])})",
            )
        )
    return findings


def correlate(
    intervals: pl.DataFrame,
    primary: str,
    signals: dict[str, Signal],
    tolerance: timedelta,
) -> list[Correlation]:
    """Rank signals by how well their anomalies line up with the primary symptom's."""
    symptom = intervals.filter(pl.col("signal") == primary).sort("start")
    if symptom.height == 0:
        return []
    p_start = symptom.get_column("start").to_list()
    p_end = symptom.get_column("end").to_list()
    primary_label = signals[primary].label.lower() if primary in signals else primary
    kind_word = "drops" if signals.get(primary) and signals[primary].bad == "down" else "anomalies"
    ranked = []
    for name, signal in signals.items():
        if name == primary:
            continue
        mine = intervals.filter(pl.col("signal") == name).sort("start")
        if mine.height == 0:
            continue
        a_start, a_end = mine.get_column("start").to_list(), mine.get_column("end").to_list()
        matched_primary, lags, matched_mine = 0, [], set()
        for ps, pe in zip(p_start, p_end, strict=True):
            hits = [
                i
                for i, (s, e) in enumerate(zip(a_start, a_end, strict=True))
                if s <= pe + tolerance and e >= ps - tolerance
            ]
            if hits:
                matched_primary += 1
                lags.append(min((a_start[i] - ps).total_seconds() for i in hits))
                matched_mine.update(hits)
        recall = matched_primary / len(p_start)
        precision = len(matched_mine) / len(a_start)
        score = 0.0 if recall == 0 else 2 * precision * recall / (precision + recall)
        if score == 0:
            continue
        lag = float(np.median(lags))
        verb = {"up": "rose", "down": "fell"}.get(signal.bad, "moved")
        timing = (
            f"starting a median {abs(lag):.0f} s {'before' if lag < 0 else 'after'} them"
            if abs(lag) >= 1
            else "starting with them"
        )
        explanation = (
            f"{signal.label} {verb} during {matched_primary} of {len(p_start)} {primary_label} "
            f"{kind_word}, {timing}; {len(matched_mine)} of its {len(a_start)} anomalies fell "
            f"in one."
        )
        if signal.role == "effect":
            explanation += (
                " It moves with the job's own pace, so it is a consequence more than a cause."
            )
        ranked.append(
            (
                not signal.explains,
                -round(score, 2),
                lag,
                name,
                Correlation(
                    signal=name,
                    score=round(score, 4),
                    lag_seconds=lag,
                    matched=matched_primary,
                    explanation=explanation,
                ),
            )
        )
    ranked.sort(key=lambda r: r[:4])
    return [r[-1] for r in ranked]


def analyze(
    metrics: Metrics,
    signals: dict[str, Signal],
    primary: str,
    baseline: TimeWindow | None = None,
    config: AnalysisConfig = DEFAULT_CONFIG,
) -> Analysis:
    """All findings and correlations for one window."""
    window = metrics.window
    baseline = baseline or default_baseline(window)
    cluster = cluster_series(metrics.frame, signals)
    flags = per_node_flags(metrics.frame, signals, baseline, config.threshold)
    liveness = tuple(name for name, s in signals.items() if s.role == "liveness")
    levels: dict[str, float] = {}
    findings: list[Finding] = []
    interval_parts = []
    for name in sorted(cluster.get_column("signal").unique().to_list()):
        signal = signals[name]
        if signal.role == "health":
            continue  # metrics.training reads these
        series = cluster.filter(pl.col("signal") == name).select("ts", "value")
        base_values = series.filter(baseline.contains())
        level = float((base_values if base_values.height else series).get_column("value").median())
        levels[name] = level
        smallest = min_change(signal, level, config)
        found = detect_intervals(series, signal.bad, baseline, config, smallest)
        interval_parts.append(found.with_columns(signal=pl.lit(name)))
        for row in found.iter_rows(named=True):
            kind = "drop" if row["direction"] == "down" else "spike"
            hosts = _hosts_in(flags, name, row["start"], row["end"])
            findings.append(
                Finding(
                    kind=kind,
                    signal=name,
                    start=row["start"],
                    end=row["end"],
                    magnitude=_relative(row["mean"], level),
                    hosts=hosts,
                    value=row["mean"],
                    baseline=level,
                    summary=(
                        f"{signal.label} {'fell' if kind == 'drop' else 'rose'} to "
                        f"{format_value(row['mean'], signal.unit)} against a baseline of "
                        f"{format_value(level, signal.unit)} "
                        f"({_relative(row['mean'], level):+.0%}) "
                        f"{format_span(row['start'], row['end'])}"
                        + (f" on {len(hosts)} hosts" if hosts else "")
                    ),
                )
            )
        shape = describe_shape(series, signal.bad, level, config, smallest)
        if shape.trend is not None:
            first, last = shape.trend
            findings.append(
                Finding(
                    kind="trend",
                    signal=name,
                    start=window.start,
                    end=window.end,
                    magnitude=_relative(last, level) - _relative(first, level),
                    value=last,
                    baseline=level,
                    summary=(
                        f"{signal.label} trended {'up' if last > first else 'down'} from "
                        f"{format_value(first, signal.unit)} to "
                        f"{format_value(last, signal.unit)} over the window"
                    ),
                )
            )
        for seg_start, seg_end, mean in shape.shifts:
            seg_end = seg_end or window.end
            findings.append(
                Finding(
                    kind="level_shift",
                    signal=name,
                    start=seg_start,
                    end=seg_end,
                    magnitude=_relative(mean, level),
                    value=mean,
                    baseline=level,
                    summary=(
                        f"{signal.label} shifted to {format_value(mean, signal.unit)} from "
                        f"{format_value(level, signal.unit)} {format_span(seg_start, seg_end)}"
                    ),
                )
            )
    findings += outlier_hosts(metrics.frame, signals, window, config)
    for name in liveness:
        findings += failure_rates(metrics.frame, window, name)
    findings += training_findings(metrics.frame, signals, window)
    findings.sort(key=lambda f: (f.start, f.kind, f.signal, f.end))
    intervals = pl.concat(interval_parts) if interval_parts else pl.DataFrame()
    step = (
        cluster.group_by("signal").agg(step=pl.col("ts").diff().median()).get_column("step").max()
    )
    tolerance = config.tolerance or max(timedelta(minutes=1), (step or timedelta(0)) * 2)
    correlations = correlate(intervals, primary, signals, tolerance) if intervals.height else []
    notes = metrics.receipt.notes()
    if primary not in cluster.get_column("signal").unique().to_list():
        notes.insert(0, f"the primary signal {primary!r} has no data in the window")
    return Analysis(
        window=window,
        baseline=baseline,
        primary=primary,
        findings=findings,
        correlations=correlations,
        cluster=cluster,
        intervals=intervals,
        receipt=metrics.receipt,
        notes=notes,
        levels=levels,
        liveness=liveness,
    )


def _epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)
