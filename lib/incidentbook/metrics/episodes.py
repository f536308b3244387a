"""Episodes: when a signal departed, cluster-wide or on a few hosts (or one GPU).

The cluster-wide series hide what one host does: two hot hosts of 32 barely move the
cluster's mean temperature, and one slow GPU of 384 moves nothing at all, yet a
synchronous job runs at the pace of its slowest rank. So each host's series is also
compared, at every sample, with its peers at the same time and with its own baseline:

* Cross-sectional robust score: (host - median of hosts) / (MAD of hosts), at each
  timestamp, which is what lets one bad host of 500 stand out while the whole fleet
  drifts together (a warm afternoon is not an anomaly of one host).
* Own-baseline score: (host - its baseline median) / its noise, so a host that was always
  a little different (a cooler rack) is not flagged for being itself.
* Both must exceed the modified-z cut-off, persistently (most samples of a run of a few
  minutes), for an episode; its onset is the first sample of that run.
* The same two tests on each host's trailing window means find departures too small for
  any sample to pass alone that last (a GPU a few percent slow: metrics.lasting).

Counters of discrete events (link downs, OOM kills, uncorrectable ECC errors) are judged
by their counts instead: a burst on one host is an episode when it holds at least the
signal's `min_events` and is improbable at the fleet's baseline rate (Poisson). Gauges
that hold a code (the last Xid) are episodes from the first sample whose code differs
from the host's baseline code. A cluster-wide episode is attributed to the few hosts
that made it, when a few did. Moves like those the baseline already shows are routine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypeVar

import numpy as np
import polars as pl
from scipy import stats

from incidentbook.metrics.departures import MODIFIED_Z
from incidentbook.metrics.lasting import SUSTAINED, Sustained, lasting_flags, located, merged
from incidentbook.metrics.signals import Signal
from incidentbook.record.model import Finding
from incidentbook.text import format_value, lower_label
from incidentbook.window import TimeWindow

MAD_NORMAL = 1.4826


HOST_FLOOR = 0.02  # a host's departure below 2% of its peers' level is not worth a line


MOST = 0.25  # a "per-host" pattern on more than a quarter of the hosts is cluster-wide


EVENT_P = 1e-4  # how improbable a burst of events must be at the fleet's baseline rate


@dataclass(frozen=True)
class Episode:
    """One anomaly of one signal, cluster-wide or on a few hosts."""

    signal: str
    kind: str  # drop | spike | level_shift | trend | host | events | code
    start: datetime
    end: datetime
    direction: str  # up | down
    hosts: tuple[str, ...] = ()
    gpus: tuple[str, ...] = ()  # "host/gpu" (or host/device) of the worst unit
    value: float = math.nan  # typical level during the episode
    reference: float = math.nan  # the peers' (or baseline) level it departs from
    z: float = math.nan
    count: float = 0.0  # events, for counters of events
    finding: int | None = None  # index of the finding it came from, when one
    # When dated back from the sample that showed it (a trainer's line is the mean since
    # the line before), that sample's time: it began somewhere between start and shown.
    shown: datetime | None = None

    @property
    def cluster_wide(self) -> bool:
        return not self.hosts

    @property
    def relative(self) -> float:
        if not self.reference or not math.isfinite(self.reference):
            return math.nan
        return (self.value - self.reference) / abs(self.reference)


def _step(frame: pl.DataFrame) -> timedelta:
    """The sampling interval of the hosts' series: each signal's own, the longest of them.
    Not the spacing of all timestamps together: a trainer's lines every 24 s between
    scrapes every 30 s make that 13 s, and a host's run of a few minutes then seemed to
    miss half its samples, so no host stood out at all."""
    per_series = frame.group_by("signal", "node", "gpu").agg(
        step=pl.col("ts").sort().diff().median()
    )
    per_signal = per_series.group_by("signal").agg(step=pl.col("step").median(), units=pl.len())
    # A trainer's gauges are one series; the hosts' signals are what episodes are made of.
    fleet = per_signal.filter(pl.col("units") >= 5)
    step = (fleet if fleet.height else per_signal).get_column("step").max()
    return step or timedelta(seconds=60)


def host_episodes(
    frame: pl.DataFrame,
    signals: dict[str, Signal],
    baseline: TimeWindow,
    threshold: float = MODIFIED_Z,
    sustained: Sustained = SUSTAINED,
) -> list[Episode]:
    """Episodes of single hosts (or GPUs) departing from their peers and their own past,
    sample by sample or for as long as a few windows (metrics.lasting)."""
    if frame.height == 0:
        return []
    codes_named = [s.name for s in signals.values() if s.nature == "code"]
    frame, step = _bucketed(frame, _step(frame), codes_named)
    out: list[Episode] = []
    levels = [s for s in signals.values() if s.nature == "level" and s.role != "liveness"]
    events = [s for s in signals.values() if s.nature == "events"]
    codes = [s for s in signals.values() if s.nature == "code"]
    if levels:
        out += _level_episodes(frame, levels, baseline, threshold, step, sustained)
    if events:
        out += _event_episodes(frame, events, baseline, step)
    if codes:
        out += _code_episodes(frame, codes, baseline, step)
    for s in signals.values():
        if s.role == "liveness":
            out += _lost_hosts(frame.filter(pl.col("signal") == s.name), s.name, step)
    return sorted(out, key=lambda e: (e.start, e.signal, e.hosts))


def _lost_hosts(frame: pl.DataFrame, name: str, step: timedelta) -> list[Episode]:
    """Hosts that stopped answering after having answered: an episode each, from the
    first missed sample until they answered again (or the end). Hosts that never came
    up took no part in the job; failure rates report them."""
    if frame.height == 0:
        return []
    f = frame.sort("node", "ts").with_columns(
        was_up=(pl.col("value") >= 0.5).cum_max().over("node"),
        down=pl.col("value") < 0.5,
    )
    lost = f.filter(pl.col("down") & pl.col("was_up"))
    if lost.height == 0:
        return []
    runs = (
        lost.with_columns(new=(pl.col("ts").diff() > step * 1.5).fill_null(True).over("node"))
        .with_columns(run=pl.col("new").cum_sum().over("node"))
        .group_by("node", "run")
        .agg(start=pl.col("ts").min(), end=pl.col("ts").max() + step, samples=pl.len())
        .filter(pl.col("samples") >= 2)
        .sort("start", "node")
    )
    return [
        Episode(
            signal=name,
            kind="host",
            start=r["start"],
            end=r["end"],
            direction="down",
            hosts=(r["node"],),
            value=0.0,
            reference=1.0,
        )
        for r in runs.iter_rows(named=True)
    ]


MAX_SAMPLES = 720


def _bucketed(
    frame: pl.DataFrame, step: timedelta, codes: list[str] = ()
) -> tuple[pl.DataFrame, timedelta]:
    """At most MAX_SAMPLES timestamps per series: a day at 15 s is looked at in 2-minute
    means, which keeps a 500-host day cheap and onsets within a bucket."""
    lo, hi = frame.select(lo=pl.col("ts").min(), hi=pl.col("ts").max()).row(0)
    samples = (hi - lo) / step
    if samples <= MAX_SAMPLES:
        return frame, step
    bucket = step * math.ceil(samples / MAX_SAMPLES)
    every = f"{int(bucket.total_seconds())}s"
    if "worst" not in frame.columns:
        frame = frame.with_columns(worst=pl.col("gpu"))
    truncated = frame.with_columns(ts=pl.col("ts").dt.truncate(every))
    is_code = pl.col("signal").is_in(list(codes))
    keys = ["signal", "node", "gpu", "ts"]
    worst = pl.col("worst").drop_nulls().first()
    out = pl.concat(
        [
            # A code is a label, not a quantity: the bucket keeps the highest one seen.
            truncated.filter(is_code).group_by(keys).agg(value=pl.col("value").max(), worst=worst),
            truncated.filter(~is_code)
            .group_by(keys)
            .agg(value=pl.col("value").mean(), worst=worst),
        ]
    )
    return out, bucket


def _unit_key() -> list[str]:
    return ["signal", "node", "gpu"]


def _with_worst(frame: pl.DataFrame) -> pl.DataFrame:
    if "worst" not in frame.columns:
        frame = frame.with_columns(worst=pl.col("gpu"))
    return frame


def _level_episodes(
    frame: pl.DataFrame,
    signals: list[Signal],
    baseline: TimeWindow,
    k: float,
    step: timedelta,
    sustained: Sustained,
) -> list[Episode]:
    meta = pl.DataFrame(
        {
            "signal": [s.name for s in signals],
            "bad": [s.bad for s in signals],
            "floor_abs": [s.min_change if s.min_change is not None else -1.0 for s in signals],
        },
        schema={"signal": pl.String, "bad": pl.String, "floor_abs": pl.Float64},
    )
    f = _with_worst(frame).join(meta, on="signal")
    units = f.group_by("signal").agg(units=pl.struct("node", "gpu").n_unique())
    f = f.join(units.filter(pl.col("units") >= 5), on="signal")
    if f.height == 0:
        return []
    med = pl.col("value").median().over("signal", "ts")
    f = f.with_columns(peer=med).with_columns(dev=pl.col("value") - pl.col("peer"))
    absdev = pl.col("dev").abs()
    f = f.with_columns(
        peer_scale=pl.max_horizontal(
            absdev.median().over("signal", "ts") * MAD_NORMAL,
            # Where most hosts read the same (a quantised gauge), the MAD is zero: the mean
            # absolute deviation is the modified z-score's own fallback.
            absdev.mean().over("signal", "ts") * 1.2533,
            pl.col("peer").abs() * 0.001,
            pl.lit(1e-9),
        )
    )
    in_base = (pl.col("ts") >= baseline.start) & (pl.col("ts") < baseline.end)
    # A host's own past is its place among its peers during the baseline: a host that was
    # always warmer is not flagged for being itself, and one that kept its level while
    # its peers fell (the straggler still computing while the others wait) is.
    own = (
        f.filter(in_base)
        .group_by(_unit_key())
        .agg(
            base=pl.col("value").median(),
            base_dev=pl.col("dev").median(),
            base_mad=(pl.col("dev") - pl.col("dev").median()).abs().median() * MAD_NORMAL,
            base_peer_scale=pl.col("peer_scale").median(),
        )
    )
    f = f.join(own, on=_unit_key(), how="inner", nulls_equal=True)
    own_scale = pl.max_horizontal(
        pl.col("base_mad"), pl.col("base_peer_scale"), pl.col("base").abs() * 0.001, pl.lit(1e-9)
    )
    moved = pl.col("dev") - pl.col("base_dev")
    z_peer = pl.col("dev") / pl.col("peer_scale")
    z_own = moved / own_scale

    # Measured against the host's usual level, not the peers' level of the moment: 15 MHz
    # between idle clocks during a stall is not 2% of anything that matters.
    def floor_of(share: float) -> pl.Expr:
        return (
            pl.when(pl.col("floor_abs") >= 0)
            .then("floor_abs")
            .otherwise(pl.col("base").abs() * share)
        )

    floor = floor_of(HOST_FLOOR)
    up = (z_peer > k) & (z_own > k) & (pl.col("dev") >= floor) & (moved >= floor)
    down = (z_peer < -k) & (z_own < -k) & (-pl.col("dev") >= floor) & (-moved >= floor)
    flagged = (
        f.with_columns(
            direction=pl.when(up & (pl.col("bad") != "down"))
            .then(pl.lit("up"))
            .when(down & (pl.col("bad") != "up"))
            .then(pl.lit("down")),
            z=z_peer,
        )
        .filter(pl.col("direction").is_not_null())
        .select("signal", "node", "gpu", "ts", "value", "peer", "z", "direction", "worst", "units")
    )
    window = sustained.window_samples(step)
    lasting = _run_frame(
        lasting_flags(f, _unit_key(), in_base, k, own_scale, floor_of(sustained.least), window),
        step,
    ).filter(pl.col("span") >= 2 * window)
    # Each kind of run is judged crowded on its own: lasting runs on many hosts (a slow
    # drift that each host takes a little differently) leave the sharp runs alone.
    lasting = _few_hosts(lasting)
    if lasting.height:
        moves = f.select(*_unit_key(), "ts", moved=moved)
        lasting = located(lasting, moves, _unit_key(), step)
    sampled = _few_hosts(_run_frame(flagged, step))
    return _episodes(merged(sampled, lasting.drop("shift")), "host")


def _run_frame(flagged: pl.DataFrame, step: timedelta) -> pl.DataFrame:
    """Flagged samples into runs with gaps of at most three samples, kept when they last
    a few minutes and most of their samples are flagged (with `move`, each run's typical
    move from its unit's own past, `shift`)."""
    gap = step * 3
    least = max(3, math.ceil(timedelta(minutes=2) / step))
    keys = ["signal", "node", "gpu", "direction"]
    return (
        flagged.sort([*keys, "ts"], nulls_last=True)
        .with_columns(
            new=((pl.col("ts").diff() > gap).fill_null(True)).over(keys),
        )
        .with_columns(run=pl.col("new").cum_sum().over(keys))
        .group_by([*keys, "run"])
        .agg(
            start=pl.col("ts").min(),
            end=pl.col("ts").max() + step,
            samples=pl.len(),
            value=pl.col("value").median(),
            peer=pl.col("peer").median(),
            z=pl.col("z").abs().max(),
            worst=pl.col("worst").drop_nulls().mode().sort().first(),  # ties: first by name
            units=pl.col("units").first(),
            **({"shift": pl.col("move").abs().median()} if "move" in flagged.columns else {}),
        )
        .with_columns(span=((pl.col("end") - pl.col("start")) / step).cast(pl.Float64))
        .filter((pl.col("samples") >= least) & (pl.col("samples") >= 0.5 * pl.col("span")))
    )


def _few_hosts(runs: pl.DataFrame) -> pl.DataFrame:
    """Runs of the signals on which few hosts departed: a pattern on many hosts at once is
    the cluster's, which the cluster series shows."""
    many = runs.group_by("signal").agg(
        hosts=pl.col("node").n_unique(), units=pl.col("units").first()
    )
    keep = many.filter(pl.col("hosts") <= pl.max_horizontal(pl.lit(1), pl.col("units") * MOST))
    return runs.join(keep.select("signal"), on="signal")


def _episodes(runs: pl.DataFrame, kind: str) -> list[Episode]:
    return [
        _on_host(r, kind, r["direction"], r["value"], reference=r["peer"], z=r["z"])
        for r in runs.sort("signal", "start", "node").iter_rows(named=True)
    ]


def _on_host(row: dict, kind: str, direction: str, value: float, **more: float) -> Episode:
    """An episode of one host from a row of a per-host frame (signal, node, gpu, worst,
    start, end): its unit named as host/gpu where the row says which."""
    unit = row["gpu"] or row["worst"]
    return Episode(
        signal=row["signal"],
        kind=kind,
        start=row["start"],
        end=row["end"],
        direction=direction,
        hosts=(row["node"],),
        gpus=(f"{row['node']}/{unit}",) if unit else (),
        value=value,
        **more,
    )


def _event_episodes(
    frame: pl.DataFrame, signals: list[Signal], baseline: TimeWindow, step: timedelta
) -> list[Episode]:
    meta = pl.DataFrame(
        {"signal": [s.name for s in signals], "least": [float(s.min_events) for s in signals]}
    )
    f = _with_worst(frame).join(meta, on="signal")
    if f.height == 0:
        return []
    seconds = step.total_seconds()
    f = f.with_columns(count=(pl.col("value") * seconds).round(3))
    in_base = (pl.col("ts") >= baseline.start) & (pl.col("ts") < baseline.end)
    fleet = f.group_by("signal").agg(
        units=pl.struct("node", "gpu").n_unique(),
        base_count=pl.col("count").filter(in_base).sum(),
    )
    base_s = max((baseline.end - baseline.start).total_seconds(), seconds)
    out = _chronic(f, fleet, in_base, step)
    hits = f.filter((pl.col("count") > 0) & ~in_base)
    if hits.height == 0:
        return out
    gap = max(timedelta(minutes=10), step * 3)
    keys = ["signal", "node", "gpu"]
    bursts = (
        hits.sort([*keys, "ts"], nulls_last=True)
        .with_columns(new=(pl.col("ts").diff() > gap).fill_null(True).over(keys))
        .with_columns(run=pl.col("new").cum_sum().over(keys))
        .group_by([*keys, "run"])
        .agg(
            start=pl.col("ts").min() - step,  # the counter rose during the interval before
            end=pl.col("ts").max(),
            count=pl.col("count").sum(),
            worst=pl.col("worst").drop_nulls().mode().sort().first(),  # ties: first by name
            least=pl.col("least").first(),
        )
        .join(fleet, on="signal")
    )
    for r in bursts.sort("signal", "start", "node").iter_rows(named=True):
        if r["count"] < r["least"]:
            continue
        rate = r["base_count"] / (r["units"] * base_s)  # events per host-second, at rest
        span = max((r["end"] - r["start"]).total_seconds(), 600.0)
        if stats.poisson.sf(r["count"] - 1, rate * span) > EVENT_P:
            continue
        out.append(_on_host(r, "events", "up", r["count"], reference=rate * span, count=r["count"]))
    return out


def _chronic(
    f: pl.DataFrame, fleet: pl.DataFrame, in_base: pl.Expr, step: timedelta
) -> list[Episode]:
    """Hosts whose events had already begun in the baseline and went on: compared with
    the median host's count over the whole window (a port flapping all day)."""
    totals = (
        f.group_by("signal", "node", "gpu")
        .agg(
            count=pl.col("count").sum(),
            early=pl.col("count").filter(in_base).sum(),
            start=pl.col("ts").filter(pl.col("count") > 0).min() - step,
            end=pl.col("ts").filter(pl.col("count") > 0).max(),
            worst=pl.col("worst").drop_nulls().first(),
            least=pl.col("least").first(),
        )
        .with_columns(usual=pl.col("count").median().over("signal"))
        .filter((pl.col("early") > 0) & (pl.col("count") >= pl.col("least")))
        .sort("signal", "node")
    )
    out = []
    for r in totals.iter_rows(named=True):
        expected = max(r["usual"], 0.5)
        if stats.poisson.sf(r["count"] - 1, expected) > EVENT_P:
            continue
        out.append(_on_host(r, "events", "up", r["count"], reference=r["usual"], count=r["count"]))
    return out


def _code_episodes(
    frame: pl.DataFrame, signals: list[Signal], baseline: TimeWindow, step: timedelta
) -> list[Episode]:
    f = _with_worst(frame).filter(pl.col("signal").is_in([s.name for s in signals]))
    if f.height == 0:
        return []
    keys = ["signal", "node", "gpu"]
    first = f.sort("ts").group_by(keys).agg(first=pl.col("value").first())
    changed = (
        f.join(first, on=keys, nulls_equal=True)
        .filter((pl.col("value") != pl.col("first")) & (pl.col("value") != 0))
        .with_columns(code=pl.col("value"))
    )
    if changed.height == 0:
        return []
    runs = (
        changed.sort([*keys, "ts"], nulls_last=True)
        .with_columns(new=((pl.col("code") != pl.col("code").shift()).fill_null(True)).over(keys))
        .with_columns(run=pl.col("new").cum_sum().over(keys))
        .group_by([*keys, "run", "code"])
        .agg(
            start=pl.col("ts").min(),
            end=pl.col("ts").max() + step,
            worst=pl.col("worst").drop_nulls().first(),
        )
        .sort("signal", "start", "node")
    )
    out = []
    for r in runs.iter_rows(named=True):
        out.append(_on_host(r, "code", "up", r["code"], count=1))
    return out


def cluster_episodes(findings: list[Finding]) -> list[Episode]:
    """The metric findings as episodes (drops, spikes, level shifts, trends)."""
    out = []
    for i, f in enumerate(findings):
        if f.kind not in {"drop", "spike", "level_shift", "trend", "sustained_loss"}:
            continue
        direction = "up" if (f.magnitude or 0) > 0 else "down"
        if f.kind == "spike":
            direction = "up"
        elif f.kind == "drop":
            direction = "down"
        out.append(
            Episode(
                signal=f.signal,
                kind=f.kind,
                start=f.start,
                end=f.end,
                direction=direction,
                value=f.value if f.value is not None else math.nan,
                reference=f.baseline if f.baseline is not None else math.nan,
                finding=i,
            )
        )
    return out


FrameT = TypeVar("FrameT", pl.DataFrame, pl.LazyFrame)


def host_means(frame: FrameT) -> FrameT:
    """Each host's value at each time (signal, node, ts, value): its GPUs' mean. Rows
    without a unit are one per host and time already (the signal frame's contract), so
    only the per-GPU rows are grouped (a group-by of millions of rows by three text keys
    that changed nothing)."""
    per_unit = pl.col("gpu").is_not_null()
    return pl.concat(
        [
            frame.filter(~per_unit).select("signal", "node", "ts", "value"),
            frame.filter(per_unit)
            .group_by("signal", "node", "ts")
            .agg(value=pl.col("value").mean()),
        ]
    )


def attribute(
    episodes: list[Episode], frame: pl.DataFrame, signals: dict[str, Signal], baseline: TimeWindow
) -> list[Episode]:
    """The hosts behind a cluster-wide episode, when a few of them made it.

    Each host's contribution is how far its own series moved from its baseline during the
    episode, in the episode's direction, counted for the hosts that moved over MODIFIED_Z
    times what the median host did (hosts' own wobble); when the fewest of them that make
    up 80% of their total are at most a quarter of the hosts reporting the signal, the
    episode is theirs (one host's flapping port is the cluster's link-down spike),
    otherwise it stays the cluster's. Effects are left alone: the job's pace is everyone's.
    """
    todo = [
        (i, e)
        for i, e in enumerate(episodes)
        if not e.hosts and e.signal in signals and signals[e.signal].role == "cause"
    ]
    if not todo or frame.height == 0:
        return episodes
    wanted = sorted({e.signal for _, e in todo})
    rows = frame.filter(pl.col("signal").is_in(wanted))
    in_base = (pl.col("ts") >= baseline.start) & (pl.col("ts") < baseline.end)
    per_host = host_means(rows)
    base = per_host.filter(in_base).group_by("signal", "node").agg(base=pl.col("value").median())
    per_host = per_host.join(base, on=["signal", "node"], how="left").select(
        "signal", "node", "ts", moved=pl.col("value") - pl.col("base").fill_null(0.0)
    )
    spans = pl.DataFrame(
        {
            "i": [i for i, _ in todo],
            "signal": [e.signal for _, e in todo],
            "lo": [e.start for _, e in todo],
            "hi": [e.end for _, e in todo],
            "sign": [1.0 if e.direction == "up" else -1.0 for _, e in todo],
        },
        schema={
            "i": pl.Int64,
            "signal": pl.String,
            "lo": per_host.schema["ts"],
            "hi": per_host.schema["ts"],
            "sign": pl.Float64,
        },
    )
    # An episode shorter than the signal's sampling step (a one-scrape dip) is widened to
    # one step, so that every host's scrape, whatever its offset, has a sample inside.
    steps = (
        per_host.group_by("signal", "node")
        .agg(step=pl.col("ts").sort().diff().median())
        .group_by("signal")
        .agg(step=pl.col("step").median())
    )
    spans = (
        spans.join(steps, on="signal", how="left")
        .with_columns(
            hi=pl.max_horizontal("hi", pl.col("lo") + pl.col("step").fill_null(pl.duration()))
        )
        .drop("step")
    )
    # Timestamps inside each episode first (few), then the hosts' rows by equality.
    inside = (
        per_host.select("signal", "ts")
        .unique()
        .join(spans, on="signal")
        .filter((pl.col("ts") >= pl.col("lo")) & (pl.col("ts") < pl.col("hi")))
        .select("signal", "ts", "i", "sign")
    )
    # Only hosts that moved far more than the typical host did (its wobble, or a change
    # every host shares) can have made the episode: many hosts' small wobbles would
    # otherwise add up to a share of the total that pulls some of them into the few.
    hit = (
        per_host.join(inside, on=["signal", "ts"])
        .group_by("i", "node")
        .agg(moved=(pl.col("moved") * pl.col("sign")).mean())
        .with_columns(typical=pl.col("moved").abs().median().over("i"))
        .filter(pl.col("moved") > MODIFIED_Z * pl.col("typical"))
    )
    # Out of every host that reports the signal, not only those sampled inside the episode:
    # a one-scrape dip holds the few hosts whose scrapes fell in it (one port's flap).
    reporting = spans.select("i", "signal").join(
        per_host.group_by("signal").agg(hosts=pl.col("node").n_unique()), on="signal"
    )
    totals = (
        hit.group_by("i")
        .agg(total=pl.col("moved").sum())
        .join(reporting.select("i", "hosts"), on="i")
    )
    # (every host left in `hit` moved the episode's way: over a multiple of a magnitude)
    ranked = (
        hit.join(totals, on="i")
        .sort(["i", "moved", "node"], descending=[False, True, False])
        .with_columns(cum=(pl.col("moved").cum_sum() / pl.col("total")).over("i"))
        .with_columns(before=pl.col("cum").shift(1, fill_value=0.0).over("i"))
        .filter(pl.col("before") < 0.8)
        .group_by("i")
        .agg(few=pl.col("node"), hosts=pl.col("hosts").first())
    )
    out = list(episodes)
    for r in ranked.iter_rows(named=True):
        if r["hosts"] >= 5 and len(r["few"]) <= max(1, MOST * r["hosts"]):
            e = out[r["i"]]
            out[r["i"]] = Episode(**{**e.__dict__, "hosts": tuple(sorted(r["few"]))})
    return out


def _majority(values) -> str:
    values = list(values)
    return max(set(values), key=values.count) if values else "up"


def stragglers(
    episodes: list[Episode], signals: dict[str, Signal], loss: float | None
) -> list[Finding]:
    """GPUs or hosts that run slower than their peers: per-host episodes of signals in
    their straggler direction (clock low, activity high while the others wait, hotter,
    fewer lanes), one finding per host with the evidence of every such signal."""
    by_host: dict[str, list[Episode]] = {}
    for e in episodes:
        s = signals.get(e.signal)
        if s is None or s.straggler in (None, "none") or e.kind not in {"host"}:
            continue
        if s.straggler != "both" and e.direction != s.straggler:
            continue
        by_host.setdefault(e.hosts[0], []).append(e)
    out = []
    for host, eps in sorted(by_host.items()):
        eps.sort(key=lambda e: e.start)
        onset = eps[0].start
        end = max(e.end for e in eps)
        gpus = sorted({g for e in eps for g in e.gpus})
        slow = max(abs(e.relative) for e in eps if math.isfinite(e.relative))
        parts = [
            f"{lower_label(signals[e.signal].label)} "
            f"{format_value(e.value, signals[e.signal].unit)} "
            f"against {format_value(e.reference, signals[e.signal].unit)} on its peers"
            for e in eps
        ]
        where = gpus[0].split("/", 1)[1] if len(gpus) == 1 else None
        explain = ""
        if loss:
            share = min(1.0, slow / loss) if loss > 0 else 0.0
            explain = (
                f"; running {slow:.0%} off its peers, it would explain "
                f"{'all' if share >= 0.95 else f'{share:.0%}'} of the job's {loss:.0%} loss"
            )
        out.append(
            Finding(
                kind="straggler",
                signal=eps[0].signal,
                start=onset,
                end=end,
                magnitude=-slow,
                hosts=[host],
                value=eps[0].value,
                baseline=eps[0].reference,
                summary=(
                    f"{host}{f' GPU {where}' if where else ''} runs slower than its peers from "
                    f"{onset:%H:%M} UTC: " + "; ".join(parts) + explain
                ),
            )
        )
    return out


SYMPTOM_KINDS = {"drop", "spike", "level_shift", "sustained_loss"}


def routine(episodes: list[Episode], baseline: TimeWindow) -> set[int]:
    """Indices of cluster episodes like those the baseline already had, per signal and
    kind: the baseline is what normal looks like (routine checkpoints write in bursts)."""
    usual: dict[tuple[str, str], list[Episode]] = {}
    for e in episodes:
        if e.start >= baseline.start and e.end <= baseline.end:
            usual.setdefault((e.signal, e.kind), []).append(e)
    out = set()
    for i, e in enumerate(episodes):
        ref = usual.get((e.signal, e.kind), [])
        if e in ref or _routine(e, ref):
            out.add(i)
    return out


def _unit_words(unit: str) -> str:
    """A unit inside a sentence: a GPU index reads `GPU 3`, a device by its labels."""
    return f" GPU {unit}" if unit.isdigit() else f" ({unit})"


def event_findings(episodes: list[Episode], signals: dict[str, Signal]) -> list[Finding]:
    """Counts and codes said as events: how many, where, between when."""
    out = []
    for e in episodes:
        s = signals.get(e.signal)
        if s is None or e.kind not in {"events", "code"}:
            continue
        where = e.hosts[0] + (_unit_words(e.gpus[0].split("/", 1)[1]) if e.gpus else "")
        if e.kind == "code":
            what = (
                f"{s.label.removeprefix('Last ')} {e.value:.0f} on {where} from {e.start:%H:%M} UTC"
            )
        else:
            what = (
                f"{e.count:.0f} {lower_label(s.label)} on {where} between {e.start:%H:%M} and "
                f"{e.end:%H:%M} UTC"
            )
        out.append(
            Finding(
                kind="events",
                signal=e.signal,
                start=e.start,
                end=e.end,
                magnitude=float(e.count),
                hosts=list(e.hosts),
                value=float(e.value),
                baseline=float(e.reference) if math.isfinite(e.reference) else 0.0,
                summary=what[:1].upper() + what[1:],
            )
        )
    return out


@dataclass(frozen=True)
class Found:
    """The metrics stage's episodes and findings: what explain() works from."""

    findings: list[Finding]  # cluster findings kept, dated outlier hosts, stragglers, events
    episodes: list[Episode]  # cluster-wide (attributed to hosts where a few made them) + hosts
    symptom: list[Episode]  # the primary signal's episodes outside the baseline's routine
    routine: int  # cluster moves left out for looking like the baseline's own
    planned: tuple[tuple[datetime, datetime], ...] = ()  # stops someone asked for

    @property
    def restarts(self) -> list[tuple[datetime, datetime]]:
        """When the run was not running: each restart's gap, last iteration to resume."""
        return [(f.start, f.end) for f in self.findings if f.kind == "restart"]

    @property
    def stalls(self) -> list[tuple[datetime, datetime, float]]:
        """When the run made no progress for far longer than its steps take, each with
        the share of its length those steps usually take."""
        return [
            (f.start, f.end, f.baseline / f.value if f.value else 0.0)
            for f in self.findings
            if f.kind == "stall"
        ]


def find(
    frame: pl.DataFrame,
    signals: dict[str, Signal],
    primary: str,
    findings: list[Finding],
    baseline: TimeWindow,
    threshold: float = MODIFIED_Z,
    sustained: Sustained = SUSTAINED,
) -> Found:
    """Per-host episodes beside the cluster's findings; events said as events, routine
    moves left out, outlier hosts dated from when they began, stragglers named."""
    # Training health (loss, grad norm) tells of the run, not of the cluster: its findings
    # join the timeline but neither cause nor explain a stall.
    health = {n for n, s in signals.items() if s.role == "health"}
    signals = {n: s for n, s in signals.items() if n not in health}
    told = [f for f in findings if f.signal in health]
    findings = [f for f in findings if f.signal not in health]
    host_eps = host_episodes(frame, signals, baseline, threshold, sustained)
    # Counters of events and codes are judged by their counts on each host, not as levels.
    as_levels = {"spike", "drop", "level_shift", "trend", "outlier_host"}
    findings = [
        f
        for f in findings
        if f.signal not in signals or signals[f.signal].nature == "level" or f.kind not in as_levels
    ]
    raw = cluster_episodes(findings)
    usual = routine(raw, baseline)
    dropped = {raw[i].finding for i in usual}
    findings = [f for i, f in enumerate(findings) if i not in dropped]
    cluster_eps = attribute(cluster_episodes(findings), frame, signals, baseline)
    psig = signals.get(primary)
    bad = psig.bad if psig else "both"
    moves = [
        e
        for e in cluster_eps
        if e.signal == primary and e.kind in SYMPTOM_KINDS and (bad == "both" or e.direction == bad)
    ]
    # The baseline is what normal looks like: a dip inside it (a routine checkpoint) is
    # not the incident, nor a later one like it.
    in_base = [e for e in moves if e.end <= baseline.end and e.start >= baseline.start]
    symptom = [e for e in moves if e not in in_base and not _routine(e, in_base)]
    loss = None
    lasting = [e for e in symptom if e.kind in {"level_shift", "sustained_loss"}]
    if lasting and math.isfinite(lasting[0].relative):
        loss = abs(lasting[0].relative)
    added = [
        *dated_outliers(findings, host_eps, signals),
        *stragglers(host_eps, signals, loss),
        *event_findings(host_eps, signals),
    ]
    # A whole-window outlier finding gives way to the dated one of the same hosts.
    dated = {(f.signal, tuple(f.hosts)) for f in added if f.kind == "outlier_host"}
    kept = [
        f
        for f in findings
        if not (f.kind == "outlier_host" and (f.signal, tuple(f.hosts)) in dated)
    ]
    merged = sorted([*kept, *added, *told], key=lambda f: (f.start, f.kind, f.signal, f.end))
    return Found(merged, [*cluster_eps, *host_eps], symptom, len(dropped))


def from_interval_start(
    episodes: list[Episode],
    frame: pl.DataFrame,
    signal: str,
    restarts: list[tuple[datetime, datetime]] = (),
    stalls: list[tuple[datetime, datetime, float]] = (),
) -> list[Episode]:
    """A signal a trainer logs (tokens/s, step time) is the mean over the steps since its
    previous line, so a dip first seen at a line began somewhere after the line before:
    each episode of it is dated from that line. The interval that holds a pause is as long
    as the pause makes it (a checkpoint's 45 s in a line every 50 s), so no typical length
    bounds it; only a restart does, as the first line after one covers the steps since
    the restart. Without this, a pause the hardware shows at once (power falling as a
    checkpoint is saved) seems to come a whole interval before the symptom it is part of,
    and reads as its cause.

    A stall (start, end, the share of its length the steps in it usually take) bounds
    an episode too, unless the episode is deep enough for its first line to hold the
    stall (a hang the process lived through, in the line's mean): a run that stopped for
    long (held for maintenance, requeued) and went on slower took its new pace when it
    went on, on the hosts it went on with, and a first line after it a little slow is
    the new process warming up, not the stop."""
    ts = (
        frame.filter(pl.col("signal") == signal)
        .select(pl.col("ts").unique().sort())
        .get_column("ts")
    )
    if ts.len() < 2 or not episodes:
        return episodes
    starts = pl.Series([e.start for e in episodes], dtype=ts.dtype)
    before = ts.search_sorted(starts, side="left").to_list()
    out = []
    for e, i in zip(episodes, before, strict=True):
        earlier = ts[i - 1] if i > 0 else None
        # The episode's own first line, not its start: a level shift starts on the
        # detector's grid, a little before the line that showed it.
        first = ts[i] if i < ts.len() else e.start
        level = e.value / e.reference if e.reference else math.nan
        # Held, the line's level would be about the steps' share of the gap; twice that
        # leaves room for the steps' own spread.
        bounds = [*restarts, *((a, b) for a, b, share in stalls if not level <= 2 * share)]
        if earlier is not None and not any(earlier < b <= first for _, b in bounds):
            e = replace(e, start=earlier, shown=first)
        out.append(e)
    return out


def resized(
    episodes: list[Episode],
    frame: pl.DataFrame,
    sizes: str | None,
    restarts: list[tuple[datetime, datetime]],
    tolerance: timedelta,
) -> tuple[list[Episode], list[str]]:
    """The moves of the job's throughput from a restart on that its change of world size
    (the signal `sizes`) accounts for, taken out, with a note each: a run restarted on
    120 GPUs instead of 128, after a host was left out, makes 6% fewer tokens a second
    and as many per GPU. That is no slowdown to explain, and beside it the stop itself
    is the incident."""
    if sizes is None or not restarts:
        return episodes, []
    gpus = frame.filter(pl.col("signal") == sizes).select("ts", "value").sort("ts")
    if gpus.height == 0:
        return episodes, []
    kept, notes = [], []
    for e in episodes:
        change = None
        if math.isfinite(e.relative):
            for a, b in restarts:
                if not a <= e.start <= b + tolerance:
                    continue
                before = gpus.filter(pl.col("ts") <= a).get_column("value").tail(1)
                after = gpus.filter(pl.col("ts") >= b).get_column("value").head(1)
                if before.len() and after.len() and before[0] > 0 and after[0] != before[0]:
                    change = (before[0], after[0], b)
        if change is None:
            kept.append(e)
            continue
        old, new, at = change
        scale = new / old - 1
        # as the GPUs went, within the noise of a level (2%) or a quarter of the change
        if abs(e.relative - scale) > max(0.02, abs(scale) / 4):
            kept.append(e)
            continue
        notes.append(
            f"the run restarted at {at:%H:%M} UTC on {new:.0f} GPUs instead of {old:.0f} "
            f"({scale:+.0%}), and its throughput went on {e.relative:+.0%}: the same per "
            "GPU, so not taken for a slowdown"
        )
    return kept, notes


def downtime(
    findings: list[Finding], frame: pl.DataFrame, primary: str, baseline: TimeWindow
) -> list[Episode]:
    """The times the run made no progress, as episodes of the primary signal at nothing:
    a restart's gap (the last iteration before it to the first after) and a stall (no
    iteration for far longer than they take). A hang until the watchdog ends the job
    logs no line at all, so its throughput has no sample to fall in: without these, the
    commonest incident of a training cluster read as nothing to explain."""
    gaps = [f for f in findings if f.kind in {"restart", "stall"}]
    if not gaps:
        return []
    in_base = (pl.col("ts") >= baseline.start) & (pl.col("ts") < baseline.end)
    own = frame.filter(pl.col("signal") == primary)
    # Where the baseline holds none of it (the run's first job printed no pace), its level
    # over the window, as its noise is measured then: the stalls are no less real.
    level = own.filter(in_base).get_column("value").median()
    if level is None:
        level = own.get_column("value").median()
    if level is None or not level > 0:
        return []
    return [
        Episode(primary, "drop", f.start, f.end, "down", value=0.0, reference=float(level))
        for f in gaps
    ]


def _routine(e: Episode, usual: list[Episode]) -> bool:
    """Like the dips the baseline already had (a routine checkpoint pause): no longer and
    no deeper than they were, give or take a little; or, no longer than twice and costing
    no more than half again the most any of them cost (depth times duration). A pause of
    a few samples is measured deeper and shorter, or shallower and longer, as the samples
    fall on it; what it costs varies less (one checkpoint, sampled twice: 30 s at -52%,
    then 45 s at -40%)."""
    if not usual or e.kind not in {"drop", "spike"}:
        return False
    longest = max((u.end - u.start) for u in usual)
    finite = [u for u in usual if math.isfinite(u.relative)]
    deepest = max((abs(u.relative) for u in finite), default=0.0)
    lasted = e.end - e.start
    if not math.isfinite(e.relative):
        return lasted <= longest * 1.5
    if lasted <= longest * 1.5 and abs(e.relative) <= deepest * 1.25:
        return True
    dearest = max(
        (abs(u.relative) * (u.end - u.start).total_seconds() for u in finite), default=0.0
    )
    cost = abs(e.relative) * lasted.total_seconds()
    return lasted <= longest * 2 and cost <= dearest * 1.5


def dated_outliers(
    findings: list[Finding], episodes: list[Episode], signals: dict[str, Signal]
) -> list[Finding]:
    """Outlier hosts dated from when they began to stand out: one finding per signal and
    group of hosts that departed together (their peers and their own past both say so)."""
    by_signal: dict[str, list[Episode]] = {}
    for e in episodes:
        if e.kind == "host" and e.signal in signals and signals[e.signal].role != "liveness":
            by_signal.setdefault(e.signal, []).append(e)
    out = []
    for name, eps in sorted(by_signal.items()):
        s = signals[name]
        first: dict[str, Episode] = {}
        for e in sorted(eps, key=lambda e: e.start):
            first.setdefault(e.hosts[0], e)
        end = max(e.end for e in eps)
        hosts = sorted(first)
        onset = min(e.start for e in first.values())
        typical = float(np.median([e.value for e in first.values()]))
        peers = float(np.median([e.reference for e in first.values()]))
        direction = _majority(e.direction for e in first.values())
        rel = (typical - peers) / abs(peers) if peers else 0.0
        out.append(
            Finding(
                kind="outlier_host",
                signal=name,
                start=onset,
                end=end,
                magnitude=rel,
                hosts=hosts,
                value=typical,
                baseline=peers,
                summary=(
                    f"{len(hosts)} host{'s' if len(hosts) != 1 else ''} stood out on "
                    f"{lower_label(s.label)} from {onset:%H:%M} UTC: "
                    f"{'as high as' if direction == 'up' else 'as low as'} "
                    f"{format_value(typical, s.unit)} against {format_value(peers, s.unit)} on "
                    f"{'its' if len(hosts) == 1 else 'their'} peers ({', '.join(hosts)})"
                ),
            )
        )
    return out
