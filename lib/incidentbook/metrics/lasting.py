"""Departures of one unit that last: too small to stand out sample by sample, plain over
minutes.

A GPU 3% slower than its 383 peers holds the whole job back by a percent or two, yet its
tensor activity stands about three peer spreads above theirs, under the modified-z
cut-off that each sample is held to (episodes._level_episodes): its samples cross the
cut-off now and then, and the runs they make are too short to count, or come long after
it slowed. What gives it away is that it stays there. So the same two tests, against the
peers and against the unit's own past, are also made on each unit's trailing window
means, as the job's own series has its sustained test beside its sharp one:

* Window means over the sustained test's window (`Sustained`, AnalysisConfig's). Against
  the peers: the spread of all units' window means at that time, so a unit that was
  always a little off its peers, and is as far off in its means, does not stand out.
  Against its own past: the spread of its window means in the baseline, which holds its
  noise, wander and autocorrelation (never below what independent noise gives).
* Worth a finding from `Sustained.least` of the unit's usual level, the least loss the
  job's own series reports (a straggler that much slower costs the job about that much).
* Only windows in which most samples moved: a mean is moved as much by a burst (an idle
  disk's few slow writes) as by a change that lasts, a median only by the second, so the
  window's median departure must be at least half its mean's.
* Only runs of such windows that last two windows, the least a lasting change must last
  to be worth a finding on the job's series (analysis._costly).

A lasting run's start and end are located after the fact (`located`), and it is merged
with the runs found sample by sample (`merged`): where it overlaps them it only dates the
first of them from when the departure began; where it overlaps none it is an episode of
its own. Runs found sample by sample are otherwise left as they were, so a unit that
departed in bursts (a hot GPU throttling again and again) keeps one episode per burst.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta

import numpy as np
import polars as pl

from incidentbook.metrics.departures import NORMAL_MAD, best_stretch

MAD_NORMAL = 1 / NORMAL_MAD  # a MAD times this estimates the standard deviation

RUN_KEYS = ["signal", "node", "gpu", "direction"]


@dataclass(frozen=True)
class Sustained:
    """The sustained test's settings (AnalysisConfig's sustain, sustain_samples and
    min_effect) that a unit's trailing windows share: how long a window is, and the least
    lasting change worth a finding, as a share of the unit's usual level."""

    window: timedelta = timedelta(minutes=5)
    samples: int = 12
    least: float = 0.01

    def window_samples(self, step: timedelta) -> int:
        return max(self.samples, math.ceil(self.window / step))


SUSTAINED = Sustained()


def lasting_flags(
    f: pl.DataFrame,
    units: list[str],
    in_base: pl.Expr,
    k: float,
    own_scale: pl.Expr,
    floor: pl.Expr,
    window: int,
) -> pl.DataFrame:
    """The samples whose trailing window departs from the peers' and the unit's own past
    (see the module). `f` holds each unit's samples with their departure from the peers'
    median (dev), its baseline median (base_dev), the peers' median (peer) and the
    columns `own_scale` and `floor` are made of."""
    per_unit = {"partition_by": units, "order_by": "ts"}
    f = f.with_columns(
        w_dev=pl.col("dev").rolling_mean(window).over(**per_unit),
        w_median=pl.col("dev").rolling_median(window).over(**per_unit),
        w_value=pl.col("value").rolling_mean(window).over(**per_unit),
        w_peer=pl.col("peer").rolling_mean(window).over(**per_unit),
    ).with_columns(w_dev=pl.col("w_dev") - pl.col("w_dev").median().over("signal", "ts"))
    spread = pl.col("w_dev").abs()
    f = f.with_columns(
        w_peer_scale=pl.max_horizontal(
            spread.median().over("signal", "ts") * MAD_NORMAL,
            spread.mean().over("signal", "ts") * 1.2533,  # where the MAD is zero
            pl.col("peer").abs() * 0.001,
            pl.lit(1e-9),
        )
    )
    own = (
        f.filter(in_base)
        .group_by(units)
        .agg(w_base_mad=(pl.col("w_dev") - pl.col("w_dev").median()).abs().median() * MAD_NORMAL)
    )
    f = f.join(own, on=units, how="left", nulls_equal=True)
    scale = pl.max_horizontal(pl.col("w_base_mad").fill_null(0.0), own_scale / math.sqrt(window))
    moved = pl.col("w_dev") - pl.col("base_dev")
    z_peer, z_own = pl.col("w_dev") / pl.col("w_peer_scale"), moved / scale
    most_moved = (pl.col("w_median") - pl.col("base_dev")) / moved >= 0.5
    up = (z_peer > k) & (z_own > k) & (pl.col("w_dev") >= floor) & (moved >= floor)
    down = (z_peer < -k) & (z_own < -k) & (-pl.col("w_dev") >= floor) & (-moved >= floor)
    return (
        f.with_columns(
            direction=pl.when(up & most_moved & (pl.col("bad") != "down"))
            .then(pl.lit("up"))
            .when(down & most_moved & (pl.col("bad") != "up"))
            .then(pl.lit("down")),
            z=z_peer,
            move=moved,
        )
        .filter(pl.col("direction").is_not_null())
        .select(
            "signal",
            "node",
            "gpu",
            "ts",
            pl.col("w_value").alias("value"),
            pl.col("w_peer").alias("peer"),
            "z",
            "direction",
            "worst",
            "units",
            "move",
        )
    )


def located(
    runs: pl.DataFrame, moves: pl.DataFrame, units: list[str], step: timedelta
) -> pl.DataFrame:
    """Each lasting run's start and end where its unit's departure began and ended.

    Its windows trail the change, so they start late and end a window late. As
    departures._locate finds a sustained departure's span: the stretch with the largest
    sum of sign * move - shift / 2 (move: each sample's departure from the unit's own
    past, in `moves`; shift: the run's typical move) is the maximum-likelihood segment for
    a step of that size. Looked for from one span of the run before it (never before the
    previous run of the same unit) to its end. The start only moves back: a ramp began
    where it was first flagged, before it reached half its typical move."""
    runs = runs.with_row_index("_run").with_columns(
        _floor=pl.max_horizontal(
            pl.col("start") - (pl.col("end") - pl.col("start")),
            pl.col("end").shift(1).over(RUN_KEYS, order_by="start"),
        )
    )
    sign = pl.when(pl.col("direction") == "up").then(1.0).otherwise(-1.0)
    near = (
        runs.select("_run", *RUN_KEYS, "end", "_floor", "shift")
        .join(moves, on=units, how="inner", nulls_equal=True)
        .filter((pl.col("ts") >= pl.col("_floor")) & (pl.col("ts") < pl.col("end")))
        .sort("_run", "ts")
        .group_by("_run", maintain_order=True)
        .agg("ts", gain=sign * pl.col("moved") - pl.col("shift") / 2)
    )
    spans = [
        (run, *best_stretch(ts, np.asarray(gain, dtype=float)))
        for run, ts, gain in near.iter_rows()  # a handful of runs, not rows of the series
    ]
    found = pl.DataFrame(
        spans,
        schema={"_run": pl.UInt32, "_a": pl.Datetime("us", "UTC"), "_b": pl.Datetime("us", "UTC")},
        orient="row",
    ).with_columns(_b=pl.col("_b") + step)
    overlaps = (pl.col("_a") < pl.col("end")) & (pl.col("_b") > pl.col("start"))
    return (
        runs.join(found, on="_run", how="left")
        .with_columns(
            start=pl.when(overlaps).then(pl.min_horizontal("_a", "start")).otherwise("start"),
            end=pl.when(overlaps).then("_b").otherwise("end"),
        )
        .drop("_run", "_floor", "_a", "_b")
    )


def merged(sampled: pl.DataFrame, lasting: pl.DataFrame) -> pl.DataFrame:
    """Runs found sample by sample, and lasting runs: a lasting run that overlaps some of
    the first dates the earliest of them from its own start (never before the run of the
    same unit before that one) and adds nothing else; one that overlaps none is kept."""
    columns = sampled.columns
    sampled = sampled.with_row_index("_s").with_columns(
        _before=pl.col("end").shift(1).over(RUN_KEYS, order_by="start")
    )
    pairs = (
        lasting.with_row_index("_l")
        .select("_l", *RUN_KEYS, "start", "end")
        .join(
            sampled.select("_s", *RUN_KEYS, "start", "end"),
            on=RUN_KEYS,
            how="inner",
            nulls_equal=True,
            suffix="_s",
        )
        .filter((pl.col("start_s") < pl.col("end")) & (pl.col("end_s") > pl.col("start")))
    )
    earliest = pairs.sort("start_s").group_by("_l").agg(pl.col("_s", "start").first())
    dated = earliest.group_by("_s").agg(began=pl.col("start").min())
    sampled = (
        sampled.join(dated, on="_s", how="left")
        .with_columns(
            start=pl.when(pl.col("began").is_null())
            .then("start")
            .otherwise(pl.min_horizontal("start", pl.max_horizontal("began", "_before")))
        )
        .select(columns)
    )
    alone = lasting.with_row_index("_l").filter(~pl.col("_l").is_in(pairs["_l"].implode()))
    return pl.concat([sampled, alone.select(columns)])
