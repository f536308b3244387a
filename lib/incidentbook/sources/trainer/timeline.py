"""From a parser's records to dated iteration rows with the quantities the pack reads.

Four steps, each saying in the notes what it did:

1. Segments and duplicates. Records are in file order; a run (re)starts where a parser
   saw a start line (Megatron's `[before the start of training step]`, nanotron's
   `[Start training]`, ...) or where the iteration counter goes back. Within a segment,
   rows of one iteration are merged: several ranks printing the same step, or two line
   shapes of one step (DeepSpeed's `step=` and throughput lines). Rank 0's numbers win.
2. Time. A row's time is its line's own timestamp. Where the format has none (Megatron
   before 2024, Hugging Face's dicts) it is the last timestamped line before it (an
   *anchor*: `datetime:` stamps, DeepSpeed's `[INFO]` lines, an application's log lines)
   plus the elapsed time of the iterations since, accumulated; before the first anchor,
   the next one minus the time still to come. Such times are marked inferred.
3. Derived numbers, each with where it came from: tokens/s printed, or per GPU x GPUs,
   or global batch x sequence length / step time, or consumed tokens per second, or
   samples/s x sequence length; step time from the lines' own timestamps where it is not
   printed; skipped iterations per interval from DeepSpeed's running total; a loss that
   is not a number (nan, inf, or absent from a Megatron line that was not skipped) counts
   as a NaN iteration.
4. Placeholders dropped: DeepSpeed's pipeline engine makes Megatron print `loss scale:
   -1.0`; a grad norm that is 0 on every line was never computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
import polars as pl

from incidentbook.sources.trainer.base import UTC_US, Fact, Parsed

_ORDER = ["segment", "line"]


@dataclass(frozen=True)
class Given:
    """What incident.yaml's trainer block says (fills what the log leaves out)."""

    global_batch_size: int | None = None
    seq_length: int | None = None
    gpus: int | None = None
    start: datetime | None = None


@dataclass
class Placed:
    rows: pl.DataFrame
    notes: list[str]
    last: datetime | None = None
    """The latest time placed (the next file of a run without anchors continues there)."""


def _facts(parsed: Parsed, given: Given, where: str) -> tuple[dict[str, Fact], list[str]]:
    facts, notes = dict(parsed.facts), []
    for name in ("global_batch_size", "seq_length", "gpus"):
        value = getattr(given, name)
        if value is None:
            continue
        if name in facts and facts[name].value != value:
            notes.append(
                f"{where}: the log says {name} {facts[name].value:g} ({facts[name].where}); "
                f"incident.yaml's trainer.{name} {value} is not used"
            )
        facts.setdefault(name, Fact(float(value), "incident.yaml trainer block"))
    return facts, notes


_COPY_LINES = 16
"""How far apart (in lines) an untimed copy of a step's line with the same loss can be
from the first: a second logger's copy comes right after it, or after the step's block of
numbers (Orbit pretty-prints its outputs' dict under each copy). A resumed run printing
the step again a few lines later computed it again: its loss differs."""


def _segments(rows: pl.DataFrame, starts: list[int]) -> pl.DataFrame:
    """A segment id per row: a new one at a start line, where a line shape's iteration
    goes back, or where it repeats and the repeat is not another rank's copy (a copy is
    from another rank, or within 2 s, or, one of the two untimed, within 3 lines of the
    first or within _COPY_LINES with the same loss: a second logger printing the same
    line, as TensorFlow's absl and Python handlers do)."""
    marks = np.searchsorted(np.asarray(starts, dtype=np.int64), rows["line"].to_numpy())

    def before(column: str) -> pl.Expr:
        return pl.col(column).shift(1).over("kind")

    near = (pl.col("ts") - before("ts")).dt.total_seconds().abs() <= 2
    gap = pl.col("line") - before("line")
    same = pl.col("loss").eq_missing(before("loss"))
    untimed_near = (pl.col("ts").is_null() | before("ts").is_null()) & (
        (gap <= 3) | ((gap <= _COPY_LINES) & same)
    )
    copy = pl.col("rank").ne_missing(before("rank")) | near.fill_null(False) | untimed_near
    repeat = pl.col("iteration") == before("iteration")
    new = (
        (pl.col("marks") != pl.col("marks").shift(1))
        | (pl.col("iteration") < before("iteration"))
        | (repeat & ~copy)
    )
    return (
        rows.with_columns(marks=pl.Series(marks, dtype=pl.Int64))
        .with_columns(segment=new.fill_null(False).cum_sum().cast(pl.Int64))
        .drop("marks")
    )


def _without_stage_placeholders(rows: pl.DataFrame, where: str) -> tuple[pl.DataFrame, list]:
    """Under pipeline parallelism only the last stage computes the loss; the other stages'
    ranks print a fixed stand-in (torchtitan: the same negative number on every step). A
    rank whose loss is one value on all of three or more steps, where another rank's loss
    varies over the same steps, printed a stand-in: its loss is left out, so the merge
    takes the last stage's."""
    if rows.get_column("rank").drop_nulls().n_unique() < 2:
        return rows, []
    per_rank = rows.group_by("segment", "rank").agg(
        steps=pl.col("loss").drop_nulls().len(), values=pl.col("loss").drop_nulls().n_unique()
    )
    fixed = per_rank.filter((pl.col("steps") >= 3) & (pl.col("values") == 1))
    varying = per_rank.filter((pl.col("steps") >= 3) & (pl.col("values") > 1))
    fixed = fixed.join(varying.select("segment"), on="segment", how="semi")
    if fixed.height == 0:
        return rows, []
    marked = rows.join(
        fixed.select("segment", "rank", _stand_in=pl.lit(True)),
        on=["segment", "rank"],
        how="left",
        maintain_order="left",
    )
    ranks = ", ".join(str(r) for r in sorted(set(fixed.get_column("rank").to_list())))
    note = (
        f"{where}: ranks {ranks} print one loss on every step while another rank's varies "
        "(pipeline stages without the loss); the varying loss is used"
    )
    rows = marked.with_columns(
        loss=pl.when(pl.col("_stand_in")).then(None).otherwise(pl.col("loss"))
    ).drop("_stand_in")
    return rows, [note]


def _coalesce(rows: pl.DataFrame) -> tuple[pl.DataFrame, int, int]:
    """One row per (segment, iteration): the first non-null value of each column, rank 0's
    first. Returns the rows, the duplicate lines merged and how many ranks printed."""
    kinds = rows.select(pl.struct("segment", "iteration", "kind").n_unique()).item()
    ranks = rows.get_column("rank").drop_nulls().n_unique()
    merged = (
        rows.sort(["segment", "iteration", "rank", "line"], nulls_last=False)
        .group_by("segment", "iteration", maintain_order=True)
        .agg(pl.col("line").min(), pl.all().exclude("line").drop_nulls().first())
        .sort(_ORDER)
    )
    return merged.select(rows.columns), rows.height - kinds, ranks


def _deltas(rows: pl.DataFrame, facts: dict[str, Fact]) -> pl.DataFrame:
    """Iterations each row covers: since the row before it in its segment; for a segment's
    first row, the logging interval if the log states it, else the usual one."""
    step = pl.col("iteration").diff().over("segment")
    usual = rows.select(step.filter(step > 0).median()).item()
    first = facts["log_interval"].value if "log_interval" in facts else (usual or 1.0)
    return rows.with_columns(
        delta=pl.when(step > 0).then(step).otherwise(None).fill_null(first).cast(pl.Float64)
    )


def _interval_notes(rows: pl.DataFrame, where: str) -> list[str]:
    deltas = rows.get_column("delta")
    if deltas.len() < 3:
        return []
    common = deltas.mode().sort().item(0)
    share = float((deltas == common).mean())
    if share < 0.5:
        # Lines written by time, not every N iterations (nanotron's log at a fixed pace).
        return [
            f"{where}: iteration lines are {deltas.min():g} to {deltas.max():g} iterations "
            "apart (no fixed logging interval); each covers the iterations since the last"
        ]
    changes = rows.filter(
        (pl.col("delta") != pl.col("delta").shift(1).over("segment"))
        & pl.col("delta").shift(1).over("segment").is_not_null()
    )
    if changes.height == 0:
        return []
    first = changes.row(0, named=True)
    return [
        f"{where}: the logging interval changes {changes.height} times (first at iteration "
        f"{first['iteration']}, to every {first['delta']:g}); each line's numbers cover the "
        "iterations since the line before"
    ]


def _place(rows: pl.DataFrame, anchors: pl.DataFrame, start: datetime | None) -> pl.DataFrame:
    """Dates the rows without a time of their own (see the module's docstring)."""
    seconds = pl.coalesce(pl.col("span"), pl.col("step_time") * pl.col("delta"))
    rows = rows.with_columns(own=pl.col("ts").is_not_null(), seconds=seconds)
    usual = rows.select(pl.col("seconds").median()).item()
    # With no step time anywhere, an untimed line is placed at the timestamped line before
    # it (it was printed after that one, and before the next): no elapsed time is guessed.
    # A file with no time at all is not (all its lines would sit at the run's start).
    if usual is not None or start is None:
        rows = rows.with_columns(pl.col("seconds").fill_null(usual if usual is not None else 0.0))
    if start is not None:
        anchors = pl.concat(
            [pl.DataFrame({"line": [0], "ts": [start]}, schema=anchors.schema), anchors]
        )
    anchors = anchors.sort("line").rename({"line": "a_line", "ts": "a_ts"})
    rows = rows.sort("line")
    back = rows.join_asof(
        anchors, left_on="line", right_on="a_line", strategy="backward", allow_exact_matches=False
    )
    ahead = rows.join_asof(
        anchors.rename({"a_line": "n_line", "a_ts": "n_ts"}),
        left_on="line",
        right_on="n_line",
        strategy="forward",
        allow_exact_matches=False,
    ).select("n_line", "n_ts")
    rows = pl.concat([back, ahead], how="horizontal")
    since = pl.col("seconds").cum_sum().over("a_line")
    until = (pl.col("seconds").reverse().cum_sum().reverse() - pl.col("seconds")).over("n_line")
    forward = pl.col("a_ts") + pl.duration(microseconds=(since * 1e6).cast(pl.Int64))
    backward = pl.col("n_ts") - pl.duration(microseconds=(until * 1e6).cast(pl.Int64))
    # A line comes before the timestamped line after it: counting forward never goes past
    # it (an anchor printed just before each step, Ray's workers' lines between verl's
    # steps, would otherwise put a long step after the short one that follows it).
    forward = pl.min_horizontal(forward, "n_ts")  # (a null next line bounds nothing)
    placed = pl.when(pl.col("a_ts").is_not_null()).then(forward).otherwise(backward)
    # Placed with no elapsed time, a line's time is known to within the two timestamped
    # lines around it: _derive reads a step time from such lines only where that is small.
    bracket = (pl.col("n_ts") - pl.col("a_ts")).dt.total_microseconds() / 1e6
    return rows.with_columns(
        ts=pl.when(pl.col("own")).then(pl.col("ts")).otherwise(placed).cast(UTC_US),
        inferred=~pl.col("own") & placed.is_not_null(),
        _bracket=pl.when(~pl.col("own") & pl.lit(usual is None)).then(bracket),
        _mid=pl.col("a_ts") + (pl.col("n_ts") - pl.col("a_ts")) / 2,
    ).drop("a_line", "a_ts", "n_line", "n_ts", "seconds", "own")


def _derive(rows: pl.DataFrame, facts: dict[str, Fact], where: str) -> tuple[pl.DataFrame, list]:
    """Throughput and the other numbers the lines imply (see the module's docstring)."""
    notes = []
    gbs = pl.coalesce(
        pl.col("global_batch_size"), pl.lit(facts.get("global_batch_size", Fact(np.nan, "")).value)
    ).fill_nan(None)
    seq = pl.coalesce(
        pl.col("seq_length"), pl.lit(facts.get("seq_length", Fact(np.nan, "")).value)
    ).fill_nan(None)
    gpus = pl.lit(facts.get("gpus", Fact(np.nan, "")).value).fill_nan(None)
    seg = "segment"

    # Step time from the lines' own times, where the format prints none (torchtitan); or
    # from the timestamped lines around untimed ones: each such line was printed between
    # the two, best taken at their midpoint, off by at most half their distance. Read where
    # that makes the step time off by a tenth at most (openpi's step lines every 100 steps,
    # between its progress lines every 10 s).
    own = ~pl.col("inferred")
    from_ts = (pl.col("ts").diff().dt.total_microseconds() / 1e6 / pl.col("delta")).over(seg)
    between = pl.col("_mid").diff().dt.total_microseconds() / 1e6
    from_mid = (between / pl.col("delta")).over(seg)
    off = (pl.col("_bracket") + pl.col("_bracket").shift(1)) / 2
    near = (off * 10 <= between).over(seg)
    timed = pl.when(own & own.shift(1).over(seg).fill_null(False)).then(from_ts)
    before = rows.get_column("step_time").is_not_null().sum()
    rows = rows.with_columns(step_time=pl.coalesce(pl.col("step_time"), timed))
    if rows.get_column("step_time").is_not_null().sum() > before and before == 0:
        notes.append(f"{where}: step time from the lines' own timestamps (none is printed)")
    before = rows.get_column("step_time").is_not_null().sum()
    bracketed = pl.when(near.fill_null(False)).then(from_mid)
    rows = rows.with_columns(step_time=pl.coalesce(pl.col("step_time"), bracketed))
    if rows.get_column("step_time").is_not_null().sum() > before and before == 0:
        notes.append(
            f"{where}: step time from the timestamped lines around the untimed step lines "
            "(none is printed; read where that is off by a tenth at most)"
        )
    rows = rows.drop("_bracket", "_mid")

    derived = gbs / pl.col("step_time")
    ratio = rows.select((pl.col("samples_per_second") / derived).median()).item()
    if ratio is not None and not 0.5 <= ratio <= 2:
        # BigScience's early-2022 fork printed samples/s off by the batch size: a printed
        # number that disagrees with the batch and the step time is not believed.
        notes.append(
            f"{where}: the printed samples per second are {ratio:.3g} times global batch size"
            " / step time; the latter is used"
        )
        rows = rows.with_columns(samples_per_second=pl.lit(None, pl.Float64))
    tokens_rules = [
        ("printed on each line", pl.col("tokens_per_second")),
        (
            "tokens/s per GPU x " + _fact_text(rows, facts, "gpus", "GPUs"),
            pl.col("tokens_per_second_per_gpu") * gpus,
        ),
        (
            "global batch size x sequence length "
            + _fact_text(rows, facts, "seq_length")
            + " / step time",
            gbs * seq / pl.col("step_time"),
        ),
        (
            "consumed tokens per iteration / step time",
            (pl.col("consumed_tokens").diff().over(seg) / pl.col("delta")) / pl.col("step_time"),
        ),
        (
            "samples/s x sequence length " + _fact_text(rows, facts, "seq_length"),
            pl.col("samples_per_second") * seq,
        ),
    ]
    rows, used = _first_rule(rows, "tokens_per_second", tokens_rules)
    if used:
        notes.append(f"{where}: tokens/s from {used}")
    elif rows.height:
        notes.append(f"{where}: no tokens/s: {_missing_for_tokens(rows, facts)}")
    rows, used = _first_rule(
        rows,
        "samples_per_second",
        [
            ("printed on each line", pl.col("samples_per_second")),
            ("global batch size / step time", derived),
        ],
    )
    rows = rows.with_columns(
        tokens_per_second_per_gpu=pl.coalesce(
            pl.col("tokens_per_second_per_gpu"), pl.col("tokens_per_second") / gpus
        ),
        skipped=pl.coalesce(
            pl.col("skipped"),
            pl.col("skipped_total").diff().over(seg),
            # A segment's first running total counts from the segment's start.
            pl.when(pl.col("iteration") <= pl.col("delta")).then(pl.col("skipped_total")),
        ),
    )
    bad_loss = pl.col("loss").is_not_null() & ~pl.col("loss").is_finite()
    absent = pl.col("loss_missing").fill_null(False) & (
        pl.col("skipped").fill_null(0) < pl.col("delta")
    )
    counts = rows.select(bad=bad_loss.sum(), absent=absent.sum()).row(0)
    if counts[0]:
        notes.append(f"{where}: {counts[0]} lines print a loss that is not a number (NaN/inf)")
    if counts[1]:
        notes.append(
            f"{where}: {counts[1]} iteration lines that were not skipped print no loss "
            "(Megatron leaves out a loss that is not a positive number): counted as NaN "
            "iterations"
        )
    rows = rows.with_columns(
        nan=pl.when(bad_loss | absent)
        .then(pl.max_horizontal(pl.col("nan").fill_null(0), pl.lit(1.0)))
        .otherwise(pl.col("nan")),
        loss=pl.when(bad_loss).then(None).otherwise(pl.col("loss")),
        # each row carries its run's world size: a restart on fewer GPUs shows as one
        gpus=pl.coalesce(pl.col("gpus"), gpus.cast(pl.Float64)),
    )
    return rows, notes


def _missing_for_tokens(rows: pl.DataFrame, facts: dict[str, Fact]) -> str:
    """What incident.yaml's trainer block would have to add for tokens/s."""
    has = {c for c in rows.columns if rows.get_column(c).is_not_null().any()}
    if "tokens_per_second_per_gpu" in has:
        return "the lines give tokens/s per GPU; set trainer.gpus in incident.yaml"
    need = [
        name
        for name in ("global_batch_size", "seq_length")
        if name not in facts and name not in has
    ]
    if "step_time" in has and need:
        return f"set trainer.{' and trainer.'.join(need)} in incident.yaml"
    if "samples_per_second" in has and "seq_length" not in facts:
        return "set trainer.seq_length in incident.yaml"
    return "the lines give neither a throughput nor a step time"


def _fact_text(rows: pl.DataFrame, facts: dict[str, Fact], name: str, unit: str = "") -> str:
    if name in rows.columns and rows.get_column(name).is_not_null().any():
        return "(on each line)"
    fact = facts.get(name)
    if fact is None:
        return f"(no {name})"
    return f"{fact.value:g}{' ' + unit if unit else ''} ({fact.where})"


def _first_rule(rows: pl.DataFrame, column: str, rules: list[tuple[str, pl.Expr]]):
    """`column` from the first rule that gives a value on any row; which rule it was."""
    for label, expr in rules:
        got = rows.select(expr.alias("v")).get_column("v")
        got = got.fill_nan(None) if got.dtype.is_float() else got
        if got.is_not_null().any():
            return rows.with_columns(got.alias(column)), label
    return rows, None


def _placeholders(rows: pl.DataFrame, where: str) -> tuple[pl.DataFrame, list[str]]:
    notes = []
    if rows.select((pl.col("loss_scale") < 0).any()).item():
        notes.append(
            f"{where}: loss scale -1 is a placeholder (DeepSpeed owns the scaler); left out"
        )
        rows = rows.with_columns(
            loss_scale=pl.when(pl.col("loss_scale") < 0).then(None).otherwise("loss_scale")
        )
    norms = rows.get_column("grad_norm").drop_nulls()
    if norms.len() > 2 and (norms == 0).all():
        notes.append(f"{where}: grad norm is 0 on every line (not computed); left out")
        rows = rows.with_columns(grad_norm=pl.lit(None, pl.Float64))
    return rows, notes


# Times and rates a line can print as `nan` or `inf` before it has anything to average
# (modded-nanoGPT's `step_avg:nanms` on its first steps): not a value, unknown. A loss or a
# grad norm that is not a number stays one: it is what a diverging run prints.
_MEASURED = (
    "step_time",
    "span",
    "tokens_per_second",
    "tokens_per_second_per_gpu",
    "samples_per_second",
    "tflops_per_gpu",
    "mfu",
)


def _unknown_when_not_finite(rows: pl.DataFrame, where: str) -> tuple[pl.DataFrame, list[str]]:
    present = [c for c in _MEASURED if c in rows.columns]
    bad = rows.select(pl.any_horizontal(~pl.col(c).is_finite() for c in present).sum()).item()
    if not present or not bad:
        return rows, []
    rows = rows.with_columns(
        pl.when(pl.col(c).is_finite()).then(pl.col(c)).alias(c) for c in present
    )
    return rows, [
        f"{where}: {bad} iteration lines print a time or rate that is not a number "
        "(nan, inf); taken as unknown"
    ]


def place_records(
    parsed: Parsed,
    anchors: pl.DataFrame,
    given: Given,
    where: str,
    *,
    start: datetime | None = None,
) -> Placed:
    """Dated iteration rows (and dated events) of one file, and what the notes say.

    `anchors` are the file's timestamped lines (line, ts); `start` an anchor before the
    first line for files that carry no time at all (incident.yaml's trainer.start, or
    where the previous file of the run ended).
    """
    facts, notes = _facts(parsed, given, where)
    frame = parsed.records
    events = frame.filter(pl.col("iteration").is_null() & pl.col("ts").is_not_null())
    rows = frame.filter(pl.col("iteration").is_not_null()).sort("line")
    if rows.height == 0 and events.height == 0:
        return Placed(rows.with_columns(inferred=pl.lit(False), segment=pl.lit(0)), notes)
    rows = _segments(rows, parsed.starts)
    rows, more = _without_stage_placeholders(rows, where)
    notes += more
    rows, duplicates, ranks = _coalesce(rows)
    if duplicates:
        notes.append(
            f"{where}: {duplicates} duplicate iteration lines (the same iteration printed again"
            + (f", by {ranks} ranks; rank 0's numbers are used" if ranks > 1 else "")
            + ") were merged"
        )
    segments = rows.get_column("segment").n_unique()
    if segments > 1:
        notes.append(
            f"{where}: the run restarts {segments - 1} times (a start line or the iteration "
            "counter going back); each run is read on its own"
        )
    rows, more = _unknown_when_not_finite(rows, where)
    notes += more
    rows = _deltas(rows, facts)
    notes += _interval_notes(rows, where)
    anchors = anchors.select("line", "ts")
    timeless = anchors.height == 0 and rows.get_column("ts").null_count() == rows.height
    origin = (start or given.start) if timeless else None
    rows = _place(rows, anchors, origin)
    unplaced = rows.filter(pl.col("ts").is_null()).height
    if unplaced:
        why = (
            "no step time to spread them from the start by"
            if origin is not None
            else "and no trainer.start in incident.yaml"
        )
        notes.append(
            f"{where}: {unplaced} iteration lines could not be placed in time (no timestamp, "
            f"no timestamped line near them, {why}); left out"
        )
        rows = rows.filter(pl.col("ts").is_not_null())
    inferred = int(rows.get_column("inferred").sum())
    if inferred:
        notes.append(
            f"{where}: the times of {inferred} of {rows.height} iteration lines are inferred "
            "(a timestamped line before them plus the iterations' elapsed time)"
        )
    rows, more = _derive(rows, facts, where)
    notes += more
    rows, more = _placeholders(rows, where)
    notes += more
    events = events.with_columns(
        segment=pl.lit(None, pl.Int64), delta=pl.lit(None, pl.Float64), inferred=pl.lit(False)
    ).select(rows.columns)
    out = pl.concat([rows, events]).sort("ts")
    last = out.get_column("ts").max() if out.height else None
    return Placed(out, notes, last)
