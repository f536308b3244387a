"""Finding what happened in a window: anomalies per signal, what coincided, which hosts.

Methods, and why they fit telemetry from training clusters:

* Drops and spikes (incidentbook.metrics.departures): sharp departures from a trailing rolling
  median, judged against the series' own noise (a robust scale that respects the
  series' resolution and follows noise that grew), with thresholds that learn what the
  baseline shows as normal (bursts of an idle disk, a nightly job), and sustained
  departures (a few percent for tens of minutes) from a window-median test whose
  standard error accounts for autocorrelation. Medians ignore the very outliers being
  looked for, and the trailing references follow slow drifts.
* Level shifts (incidentbook.metrics.shifts): segmentation (PELT, l2 cost, autocorrelation-aware
  modified BIC penalty) pruned to the boundaries whose two-segment test is significant;
  a level is a shift when its mean differs from the baseline's by more than 3.5 standard
  errors of a segment mean.
* Trends: the Theil-Sen slope (scipy.stats.theilslopes), robust to the drops riding on
  the trend; reported when its confidence interval excludes zero and the change is at
  least `min_relative` (10%) of the level, a practical floor that only trends (and
  outlier hosts) keep.
* Outlier hosts: the modified z-score again, across hosts (each host's level in the
  window against the median host), which is how "the same few hosts" stand out.
* Coincidence: a signal's anomalies are matched to the primary symptom's within a
  tolerance; the score is the F1 of the two match rates (drops explained, anomalies
  that fell in a drop), so a signal that spikes all the time ranks low.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl
from scipy import stats

from incidentbook.metrics.data import Metrics, MetricsReceipt
from incidentbook.metrics.departures import MODIFIED_Z, DetectorSettings, departures, robust_scale
from incidentbook.metrics.diagnosis import (
    Diagnosis,
    correlation,
    explain,
    judge,
    match,
    verdict_record,
)
from incidentbook.metrics.episodes import (
    Episode,
    Found,
    downtime,
    find,
    from_interval_start,
    host_means,
    resized,
)
from incidentbook.metrics.frames import cluster_series
from incidentbook.metrics.lasting import Sustained
from incidentbook.metrics.shifts import segment
from incidentbook.metrics.signals import Signal
from incidentbook.metrics.training import training_findings
from incidentbook.record.model import Correlation, Finding, Verdict
from incidentbook.text import counted, format_span, format_value, listing, lower_label
from incidentbook.window import TimeWindow

__all__ = ["MODIFIED_Z", "robust_scale"]


@dataclass(frozen=True)
class AnalysisConfig:
    threshold: float = MODIFIED_Z
    # Practical floor for trends and outlier hosts (a share of the level); drops, spikes
    # and shifts are judged by the series' own noise instead (metrics.departures).
    min_relative: float = 0.10
    # The least drop, spike or shift worth a finding, as a share of the level, below the
    # 3% losses that cost a large run days of GPU time (a signal's min_change overrides).
    min_effect: float = 0.01
    context: timedelta = timedelta(minutes=30)
    tolerance: timedelta | None = None  # default: two sampling steps, at least one minute
    max_points_for_fits: int = 400
    min_samples: int = 2
    merge_samples: int = 10  # runs closer than this many samples are one episode
    tail_share: float = 0.01  # departures a baseline shows this often are its normal
    history: timedelta = timedelta(days=1)  # how far back "recent" and "the day before" reach
    sustain: timedelta = timedelta(minutes=5)  # window of the sustained test (half the 10 min)
    sustain_samples: int = 12  # ... and at least this many samples


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
    found: Found | None = None
    """The episodes (cluster-wide and per host) the findings and correlations come from."""
    diagnosis: Diagnosis | None = None
    """The ranking of causes and the verdict, from the metrics alone."""
    tolerance: timedelta = timedelta(minutes=1)
    """How far apart two anomalies may start and still coincide."""

    @property
    def verdict(self) -> Verdict | None:
        """The most likely explanation from the metrics alone (Investigation's adds logs)."""
        if self.diagnosis is None:
            return None
        return verdict_record(self.diagnosis.verdict, self.findings)

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


def settings(config: AnalysisConfig) -> DetectorSettings:
    """The departure detector's part of the analysis settings."""
    return DetectorSettings(
        threshold=config.threshold,
        context=config.context,
        min_samples=config.min_samples,
        merge_samples=config.merge_samples,
        tail_share=config.tail_share,
        history=config.history,
        sustain=config.sustain,
        sustain_samples=config.sustain_samples,
    )


def detect_intervals(
    series: pl.DataFrame,
    bad: str,
    baseline: TimeWindow,
    config: AnalysisConfig = DEFAULT_CONFIG,
    smallest: float | None = None,
) -> pl.DataFrame:
    """Sharp and sustained departures in one series (columns ts, value), as intervals.

    `smallest` is the least change worth reporting (default: none beyond the noise; a
    signal can set its own). See incidentbook.metrics.departures for the method.

    Returns start, end, direction (down/up), mean, extreme, reference (the level it departed
    from), samples, detected (when the evidence was first enough: later than start for a
    sustained departure) and sustained.
    """
    floor = smallest if smallest is not None else 0.0
    return departures(series, bad, baseline.start, baseline.end, settings(config), floor)


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
    """A straight line (Theil-Sen) or a few flat levels (incidentbook.metrics.shifts).

    Levels come from a segmentation whose every boundary is significant against the noise
    of a segment's mean (with autocorrelation), not of one sample. A level is a shift when
    its mean differs from the baseline level by more than the threshold times that
    standard error (and by at least `smallest`, the signal's own floor, if any), for at
    least two sustained-test windows. A ramp and a step both show a significant slope;
    a segmentation carves a ramp (or a curve) into a staircase of many levels, so more
    than four levels is read as a trend; with fewer, the two models' BIC decides, which
    tells a filling disk from a failover. Trends keep the practical floor min_relative.
    """
    t, y = _downsampled(series, config.max_points_for_fits)
    if y.size < 20:
        return Shape(None, [])
    n = y.size
    bucket = (t[-1] - t[0]) / max(n - 1, 1)
    shortest = 2 * max(config.sustain.total_seconds(), 0.0)
    min_size = max(3, math.ceil(shortest / bucket) if bucket > 0 else 3)
    levels = segment(y, min_size=min_size, threshold=config.threshold)
    bounds = levels.bounds
    rss_steps = sum(float(np.sum((y[a:b] - y[a:b].mean()) ** 2)) for a, b in bounds)
    bic_steps = _bic(rss_steps, n, 2 * len(bounds))

    slope, intercept, low, high = stats.theilslopes(y, t, alpha=0.99)
    line = intercept + slope * t
    bic_line = _bic(float(np.sum((y - line) ** 2)), n, 2)
    change = line[-1] - line[0]
    sloped = not (low <= 0 <= high) and (bad == "both" or (bad == "up") == (change > 0))
    practical = abs(change) >= max(config.min_relative * abs(level), 1e-12)
    # A few levels can be a step; many levels are a staircase on a ramp or a curve. A
    # staircase of significant levels that a line fits better is a ramp however small
    # its total change (a disk filling from 90% to 97%); otherwise a trend must also
    # clear the practical floor.
    staircase = len(bounds) > 4
    # ... as long as it clears the least change the analysis reports at all.
    ramp = staircase and bic_line <= bic_steps and abs(change) >= smallest
    if sloped and (ramp or (practical and (staircase or bic_line <= bic_steps))):
        return Shape((float(line[0]), float(line[-1])), [])

    shifts = []
    for (a, b), mean, error in zip(bounds, levels.means, levels.errors, strict=True):
        delta = mean - level
        # The segment's median must have moved too: a segment whose mean is lifted by the
        # edge of a spike beside it (its other samples normal) is not a new level.
        typical = float(np.median(y[a:b])) - level
        significant = abs(delta) > config.threshold * error and (
            abs(typical) > config.threshold * error and (typical > 0) == (delta > 0)
        )
        wanted = bad == "both" or (bad == "up") == (delta > 0)
        if significant and wanted and abs(delta) >= smallest and len(bounds) > 1:
            shifts.append((_epoch(t[a]), _epoch(t[b]) if b < n else None, mean))
    return Shape(None, shifts)


# --- the whole window -------------------------------------------------------------------


def default_baseline(window: TimeWindow) -> TimeWindow:
    """The window's first 15%: where a postmortem usually still sees normal behaviour."""
    return TimeWindow(start=window.start, end=window.start + window.duration * 0.15)


def _relative(value: float, level: float) -> float:
    return (value - level) / abs(level) if level else value - level


def _costly(
    found: pl.DataFrame, bad: str, level: float, series: pl.DataFrame, config: AnalysisConfig
) -> pl.DataFrame:
    """The primary signal's departures the bad way that cost at least the least loss worth
    a finding: `min_effect` of the level held for the shortest departure the analysis is
    built to find, two windows of the sustained test (1% for 10 minutes), or as much work
    lost otherwise (3% for 3 minutes and 20 seconds, a stall of 6 seconds). A job's pace
    wavers by a percent or two for a few minutes on a healthy day (a burst of slower
    all-reduces): that loses a few seconds of work, and says nothing about an incident."""
    if found.height == 0 or bad not in {"up", "down"}:
        return found
    step = series.get_column("ts").diff().median() or timedelta(0)
    least = config.min_effect * 2 * config.sustain  # as a share of the level, times a span

    def worth(row: dict) -> bool:
        lasted = max(row["end"] - row["start"], step)
        return row["direction"] != bad or abs(_relative(row["mean"], level)) * lasted >= least

    # (a handful of departures, not rows of the series)
    return found.filter(pl.Series([worth(row) for row in found.iter_rows(named=True)]))


def per_node_flags(
    frame: pl.DataFrame, signals: dict[str, Signal], baseline: TimeWindow, k: float
) -> pl.DataFrame:
    """Samples where a host's own series departed from its baseline (for naming hosts).
    `analyze` asks it per signal, for the signals with a finding to name hosts for.

    Planned lazily and streamed: on a 511-host day the eager group-by of every signal held
    a copy of every row at once (69 s and 3.2 GiB above the frame, against 25 s and
    1.0 GiB, same rows).
    """
    per_node = host_means(frame.lazy())
    in_base = baseline.contains()
    stats_ = (
        per_node.filter(in_base)
        .group_by("signal", "node")
        .agg(
            med=pl.col("value").median(),
            mad=(pl.col("value") - pl.col("value").median()).abs().median() * 1.4826,
        )
    )
    bad = pl.LazyFrame(
        {"signal": list(signals), "bad": [s.bad for s in signals.values()]},
        schema={"signal": pl.String, "bad": pl.String},
    )
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
        .collect(engine="streaming")
    )


def rows_by_signal(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Each signal's rows, in the frame's order: what `frame.filter(signal == name)` gives,
    for every name at once. A signal frame is sorted by signal (metrics.frames), so each
    signal's rows are one run and its part is a slice (no copy, and no scan of the whole
    frame per signal: a dozen scans of 26M rows on a 511-host day); a frame in another
    order is partitioned in one pass."""
    if frame.height == 0:
        return {}
    runs = frame.select(pl.col("signal").rle()).unnest("signal")
    names, lengths = runs.get_column("value"), runs.get_column("len")
    if names.n_unique() < names.len():
        parts = frame.partition_by("signal", as_dict=True, maintain_order=True)
        return {name: part for (name,), part in parts.items()}
    offsets = (lengths.cum_sum() - lengths).to_list()
    return {
        name: frame.slice(offset, length)
        for name, offset, length in zip(names.to_list(), offsets, lengths.to_list(), strict=True)
    }


def outlier_hosts(
    frame: pl.DataFrame,
    signals: dict[str, Signal],
    window: TimeWindow,
    config: AnalysisConfig,
    parts: dict[str, pl.DataFrame] | None = None,
) -> list[Finding]:
    """Hosts whose level over the window sits far from the median host's, per signal.

    A host's level is its worst unit (GPU, device) in the direction that hurts; for a
    signal bad both ways, each direction is looked at on its own. `parts`: the frame's
    rows_by_signal, when already made.
    """
    parts = rows_by_signal(frame) if parts is None else parts
    empty = frame.clear()
    findings = []
    for name, signal in signals.items():
        if signal.role in ("liveness", "health"):
            continue  # hosts that are down are failure rates; health is the run's own
        rows = parts.get(name, empty)
        if rows.height == 0:
            continue
        # Rates of rare events (link flaps) are mostly zero: their mean, not median, shows them.
        rates = ("counter_rate", "rate_or_gauge")
        stat = pl.col("value").mean() if signal.kind in rates else pl.col("value").median()
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
            f"{len(hosts)} of {levels.size} hosts {'stands' if len(hosts) == 1 else 'stand'} out "
            f"on {lower_label(signal.label)}: "
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
    """Rank signals by how well their anomalies (intervals: signal, start, end, direction)
    line up with the primary symptom's: diagnosis.match and judge on cluster-wide
    intervals alone (analyze also looks at each host and says the verdict)."""
    episodes = [
        Episode(
            r["signal"],
            "drop" if r["direction"] == "down" else "spike",
            r["start"],
            r["end"],
            r["direction"],
            value=r["mean"],
            reference=r["reference"],
        )
        for r in intervals.iter_rows(named=True)
    ]
    bad = signals[primary].bad if primary in signals else "both"
    symptom = [e for e in episodes if e.signal == primary and (bad == "both" or e.direction == bad)]
    others: dict[str, list[Episode]] = {}
    for e in episodes:
        if e.signal != primary and e.signal in signals:
            others.setdefault(e.signal, []).append(e)
    ranked = judge(match(symptom, others, signals, tolerance, tolerance), signals, tolerance)
    psig = signals.get(primary) or Signal(name=primary, label=primary, kind="gauge", metric=primary)
    return [correlation(c, signals, psig) for c in ranked]


def _standing_in(primary: str, present: set[str], signals: dict[str, Signal]) -> str:
    """The primary signal, or the first of its stand-ins with data when it has none."""
    if primary in present or primary not in signals:
        return primary
    return next((s for s in signals[primary].stand_in if s in present and s in signals), primary)


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
    present = set(cluster.get_column("signal").unique().to_list())
    asked = primary
    primary = _standing_in(primary, present, signals)
    parts = rows_by_signal(metrics.frame)
    no_rows = metrics.frame.clear()
    flagged: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def hosts_in(name: str, start: datetime, end: datetime) -> list[str]:
        # Flags per signal, and only for the signals with a finding to name hosts for;
        # sorted by time once, so each finding's hosts are a slice, not a filter.
        if name not in flagged:
            rows = parts.get(name, no_rows)
            flags = per_node_flags(rows, {name: signals[name]}, baseline, config.threshold)
            flags = flags.sort("ts")
            flagged[name] = (
                flags.get_column("ts").to_numpy(),
                flags.get_column("node").to_numpy(),
            )
        times, nodes = flagged[name]
        bounds = [np.datetime64(t.astimezone(UTC).replace(tzinfo=None), "us") for t in (start, end)]
        lo, hi = np.searchsorted(times, np.array(bounds, dtype=times.dtype))
        return sorted(set(nodes[lo:hi].tolist()))

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
        min_change(signal, level, config)
        # Significance comes from the series' own noise; a move below `min_effect` of the
        # level (0.1% of a very smooth cluster mean) is real but says nothing.
        smallest = (
            signal.min_change if signal.min_change is not None else config.min_effect * abs(level)
        )
        found = detect_intervals(series, signal.bad, baseline, config, smallest)
        # A move back toward normal (temperatures climbing again as a run resumes after a
        # stop, memory taken again by the next run) departs from the samples just before
        # it, not from the baseline: it rose to no more than the baseline's level, or fell
        # to no less, give or take the least change worth a finding.
        found = found.filter(
            pl.when(pl.col("direction") == "up")
            .then(pl.col("mean") > level + smallest)
            .otherwise(pl.col("mean") < level - smallest)
        )
        if name == primary:
            found = _costly(found, signal.bad, level, series, config)
        interval_parts.append(found.with_columns(signal=pl.lit(name)))
        for row in found.iter_rows(named=True):
            kind = "drop" if row["direction"] == "down" else "spike"
            hosts = hosts_in(name, row["start"], row["end"])
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
                        + (f" on {counted(len(hosts), 'host')}" if hosts else "")
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
    findings += outlier_hosts(metrics.frame, signals, window, config, parts)
    for name in liveness:
        findings += failure_rates(parts.get(name, no_rows), window, name)
    health = [parts[n] for n, s in signals.items() if s.role == "health" and n in parts]
    logged = frozenset(
        s
        for s, origin in metrics.receipt.origins.items()
        if origin in ("trainer_log", "tensorboard")
    )
    findings += training_findings(
        pl.concat(health) if health else no_rows, signals, window, logged=logged
    )
    findings.sort(key=lambda f: (f.start, f.kind, f.signal, f.end))
    intervals = pl.concat(interval_parts) if interval_parts else pl.DataFrame()
    step = (
        cluster.group_by("signal").agg(step=pl.col("ts").diff().median()).get_column("step").max()
    )
    tolerance = config.tolerance or max(timedelta(minutes=1), (step or timedelta(0)) * 2)
    sustained = Sustained(config.sustain, config.sustain_samples, config.min_effect)
    found = find(metrics.frame, signals, primary, findings, baseline, config.threshold, sustained)
    if primary in logged:
        found = replace(
            found,
            symptom=from_interval_start(
                found.symptom, metrics.frame, primary, found.restarts, found.stalls
            ),
        )
    sizes = next((n for n, s in signals.items() if s.metric == "trainer_gpus"), None)
    symptom, resizes = resized(found.symptom, metrics.frame, sizes, found.restarts, tolerance)
    found = replace(found, symptom=symptom)
    if not found.symptom and primary in signals and signals[primary].bad in ("down", "both"):
        # A run that stopped (hung, crashed and restarted) with no slowdown while it ran:
        # its stops are the symptom. Beside a slowdown they are not: a run restarted on
        # purpose (a new configuration) would have its cancellation named the cause.
        found = replace(found, symptom=downtime(found.findings, metrics.frame, primary, baseline))
    # The cluster's hosts, as the exporters name them: the trainer's gauges come from one
    # rank, under its host or, read from its log, under the log's own name ("trainer").
    trainer = [n for n, s in signals.items() if s.from_trainer]
    hosts = metrics.frame.filter(~pl.col("signal").is_in(trainer)).get_column("node")
    hosts_total = hosts.n_unique() if hosts.len() else None
    diagnosis = explain(
        found, signals, primary, baseline, tolerance, hosts_total, frame=metrics.frame
    )
    notes = metrics.receipt.notes() + resizes
    if found.routine:
        notes.append(
            f"{found.routine} anomalies like those the baseline already shows (routine) were "
            "left out"
        )
    if primary != asked:
        notes.insert(
            0,
            f"the primary signal {asked!r} has no data in the window: {primary!r}, which "
            "measures the same another way, stands in for it",
        )
    elif primary not in present:
        notes.insert(0, f"the primary signal {primary!r} has no data in the window")
    return Analysis(
        window=window,
        baseline=baseline,
        primary=primary,
        findings=found.findings,
        correlations=diagnosis.correlations,
        cluster=cluster,
        intervals=intervals,
        receipt=metrics.receipt,
        notes=notes,
        levels=levels,
        liveness=liveness,
        found=found,
        diagnosis=diagnosis,
        tolerance=tolerance,
    )


def _epoch(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)
