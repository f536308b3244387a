"""Hugging Face Transformers' Trainer: the dicts it prints, and trainer_state.json.

    {'loss': 4.1437, 'grad_norm': 17.88, 'learning_rate': 2.1e-06, 'epoch': 0.11}
    {'train_runtime': 22095.3115, 'train_samples_per_second': 2.037,
     'train_steps_per_second': 0.128, 'train_loss': 1.0989, 'epoch': 30.0}

Neither carries a wall-clock time or a per-step time, and the printed dicts no step: the
step is the epoch times the steps per epoch (train_steps_per_second x train_runtime over
the last epoch), and each entry's time is spread from the run's start by
train_runtime, in proportion to the epochs (stdout) or the steps (trainer_state.json)
since the entry before: inferred, and an average pace, so a slow patch in the run is
not visible in these times; where tqdm's training bar was drawn at their steps (the dicts,
on a buffered stdout, reach the file in bursts long after), each takes the bar's elapsed
time and rate at its step instead. The start is the last timestamped line before the first
dict (an application's own log line) or, for trainer_state.json, incident.yaml's
trainer.start. The Trainer prints no throughput per step (train_samples_per_second is
the whole run's average), so none is read. Evaluation entries (`eval_*`) are left out.
ms-swift prints the same dicts with the step (`global_step/max_steps`) and the steps per
second since the start (`train_speed(iter/s)`; newer versions the seconds per step,
`train_speed(s/it)`, and the interval's tokens/s, each value quoted): where every dict has
them, they are the step and its (average) time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from incidentbook.sources.trainer.base import (
    TQDM_BAR,
    Context,
    Fact,
    Parsed,
    TrainerFormat,
    TrainerText,
    after,
    clock_seconds,
    records,
    to_float,
    unreadable,
)
from incidentbook.sources.trainer.deepspeed import SEQ_ARGUMENT

# (the same dicts as JSON lines, in double quotes: ms-swift's logging.jsonl)
_Q = "['\"]"
_DICT = rf"\{{{_Q}(?:loss|grad_norm|learning_rate){_Q}: "
_SUMMARY = rf"\{{{_Q}train_runtime{_Q}: "
_START = r"\*{5} Running training \*{5}"


def _key(name: str) -> str:
    return f"{_Q}{name}{_Q}"


_KEYS = {
    "loss": _key("loss"),
    "grad_norm": _key("grad_norm"),
    "learning_rate": _key("learning_rate"),
    "epoch": _key("epoch"),
}
_GLOBAL_STEP = rf"{_key('global_step/max_steps')}: {_Q}(\d+)/\d+{_Q}"
_SPEED = _key(r"train_speed\(iter/s\)")
_SECONDS = _key(r"train_speed\(s/it\)")
# ms-swift's newer dicts (2026) give the time per step instead, and the tokens of the
# interval: `'tokens_global_per_sec': '667.2'`, `'tokens_per_gpu_per_sec': '83.4'`
_TOKENS = {
    "tokens_per_second": _key("tokens_global_per_sec"),
    "tokens_per_second_per_gpu": _key("tokens_per_gpu_per_sec"),
}
_RUN = {
    "runtime": _key("train_runtime"),
    "steps_per_second": _key("train_steps_per_second"),
    "epoch": _key("epoch"),
}


def _summary(text: TrainerText) -> dict[str, float]:
    first = text.lines.filter(pl.col("text").str.contains(_SUMMARY)).head(1)
    if first.height == 0:
        return {}
    body = first.item(0, "text")
    got = pl.select(to_float(after(pl.lit(body), key)).alias(n) for n, key in _RUN.items())
    return {k: v for k, v in got.row(0, named=True).items() if v is not None}


def parse_stdout(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    lines = text.lines.filter(pl.col("text").str.contains(_DICT))
    raw = lines.select("line", "ts", **{n: after(pl.col("text"), k) for n, k in _KEYS.items()})
    numbers = raw.select(list(_KEYS))
    parsed = numbers.select(to_float(pl.col(c)).alias(c) for c in _KEYS)
    notes = unreadable(numbers, parsed, where)
    frame = pl.concat([raw.select("line", "ts"), parsed], how="horizontal")
    # ms-swift's dicts add the step and its pace: `'global_step/max_steps': '5/94'` and
    # `'train_speed(iter/s)': 0.35` (steps per second since the start: an average pace)
    # Newer Trainers put the run's clock and the tokens seen so far in every dict
    # (`'train_runtime': 30.83, 'num_input_tokens_seen': 393216`): both grow with the run
    own = lines.select(
        _step=pl.col("text").str.extract(_GLOBAL_STEP, 1).cast(pl.Int64, strict=False),
        _speed=to_float(after(pl.col("text"), _SPEED)),
        _seconds=to_float(after(pl.col("text"), _SECONDS)),
        **{n: to_float(after(pl.col("text"), key)) for n, key in _TOKENS.items()},
        _runtime=to_float(after(pl.col("text"), _RUN["runtime"])),
        _tokens=to_float(after(pl.col("text"), _key("num_input_tokens_seen"))),
    )
    frame = pl.concat([frame, own], how="horizontal").with_columns(
        step_time=pl.coalesce(
            pl.when(pl.col("_seconds") > 0).then(pl.col("_seconds")),
            pl.when(pl.col("_speed") > 0).then(1 / pl.col("_speed")),
        )
    )
    # Where the dicts print their step, one without a step is no step's (ms-swift's
    # logging.jsonl ends with the datasets' statistics, which quote a dict of their own).
    stepped = int(frame.get_column("_step").is_not_null().sum())
    if 0 < stepped < frame.height:
        notes.append(
            f"{where}: {frame.height - stepped} dicts without the step the others print "
            "are no step's; left out"
        )
        frame = frame.filter(pl.col("_step").is_not_null())
    counted = stepped > 0
    run = _summary(text)
    starts = text.lines.filter(pl.col("text").str.contains(_START)).get_column("line").to_list()
    barred = None if counted else _bar_steps(text, frame, starts)
    if counted:
        frame = frame.with_columns(iteration=pl.col("_step"))
    elif barred is not None:
        frame = barred
        notes.append(
            f"{where}: each dict's step, step time and time since the start are those of the "
            "training progress bar drawn just before it (its count, rate and elapsed time)"
        )
    elif {"runtime", "steps_per_second", "epoch"} <= run.keys() and run["epoch"] > 0:
        per_epoch = run["runtime"] / run["epoch"]
        steps_per_epoch = run["steps_per_second"] * run["runtime"] / run["epoch"]
        # The dicts come every logging_steps steps: the step is a multiple of it.
        every = max(1, round(steps_per_epoch * run["epoch"] / max(frame.height, 1)))
        # Each dict's epoch places it: its step is the epoch's share of the steps, to the
        # nearest multiple of the interval; 0 is the first step, which `logging_first_step`
        # adds before the first interval. Where the printed epoch is too coarse to tell
        # the dicts apart, the k-th dict is step k x the interval.
        by_epoch = (pl.col("epoch") * steps_per_epoch / every).round().cast(pl.Int64) * every
        steps = frame.select(by_epoch.clip(1)).to_series()
        placed = steps.null_count() == 0 and bool((steps.diff().drop_nulls() > 0).all())
        frame = frame.with_columns(
            iteration=steps if placed else pl.int_range(1, pl.len() + 1, dtype=pl.Int64) * every,
            span=pl.col("epoch").diff().fill_null(pl.col("epoch")) * per_epoch,
        )
        how = (
            f"each dict's step is its epoch x {steps_per_epoch:.0f} steps per epoch, to a "
            f"multiple of {every}"
            if placed
            else f"the k-th dict is step k x {every}"
        )
        timed = _timed_by_bar(text, frame, every)
        if timed is not None:
            frame = timed
            notes.append(
                f"{where}: the Trainer's dicts carry no time and came in bursts, apart from "
                f"its progress bar (buffered output); {how} "
                f"({steps_per_epoch * run['epoch']:.0f} steps / {frame.height} dicts), and "
                "its time and step time are the bar's elapsed time and rate at that step"
            )
        else:
            notes.append(
                f"{where}: the Trainer's dicts carry no time: spread over train_runtime "
                f"{run['runtime']:.0f} s by epoch; {how} "
                f"({steps_per_epoch * run['epoch']:.0f} steps / {frame.height} dicts)"
            )
    elif frame.height > 1 and frame.get_column("_runtime").is_not_null().all():
        frame = _clocked(frame)
        notes.append(
            f"{where}: each dict carries the run's clock (train_runtime): the dicts' steps "
            "are their order, a step's time is the clock's growth since the dict before"
            + (", and tokens/s the tokens seen over it" if "tokens_per_second" in frame else "")
        )
    else:
        frame = frame.with_columns(iteration=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))
        notes.append(
            f"{where}: no train_runtime summary (the run had not finished?): the dicts' "
            "steps are their order, and they can be dated only where a time is printed"
        )
    frame = frame.with_columns(kind=pl.lit("hf-dict")).drop(
        "_step", "_speed", "_seconds", "_runtime", "_tokens"
    )
    facts = {}
    seq = text.lines.filter(pl.col("text").str.contains(SEQ_ARGUMENT)).head(1)
    if seq.height:
        value = pl.select(pl.lit(seq.item(0, "text")).str.extract(SEQ_ARGUMENT, 1)).item()
        facts["seq_length"] = Fact(float(value), f"launch command, line {seq.item(0, 'line')}")
    return Parsed(records(frame), facts, starts, notes)


# The Trainer's own progress bar (base.TQDM_BAR), `  2%|▏  | 10/573 [14:31<12:43:55,
# 81.41s/it]`: its count is the global step, its rate the (smoothed) time per step, its
# elapsed time the run's.


def _bar_draws(text: TrainerText) -> pl.DataFrame | None:
    """Every draw of the training bar (line, _bar_step, _bar_time: seconds per step,
    _bar_elapsed: seconds since the bar began), in the file's order; None without one.
    The training bar is the one drawn most often (an evaluation's bar counts its own
    batches); tqdm's redraws on one line (`\\r`) are each a draw."""
    bars = (
        text.lines.select("line", g=pl.col("text").str.extract_groups(TQDM_BAR))
        .unnest("g")
        .filter(pl.col("rate").is_not_null() & (pl.col("total") != "?"))
    )
    if bars.height == 0:
        return None
    total = bars.get_column("total").mode().sort().first()
    rate = pl.col("rate").cast(pl.Float64)
    return bars.filter(pl.col("total") == total).select(
        pl.col("line").cast(pl.Int64),
        _bar_step=pl.col("count").cast(pl.Int64),
        _bar_time=pl.when(pl.col("unit") == "s/it").then(rate).otherwise(1 / rate),
        _bar_elapsed=clock_seconds(pl.col("elapsed")),
    )


def _bar_steps(
    text: TrainerText, frame: pl.DataFrame, starts: Sequence[int] = ()
) -> pl.DataFrame | None:
    """The dicts with the step, step time and elapsed time of the training bar's last draw
    before each, where every dict has one and the steps go up within each run; else
    None. A run relaunched (from a checkpoint, or from the start) draws a new bar, whose
    clock starts again, after its `Running training` banner (one of the `starts` lines)."""
    draws = _bar_draws(text)
    if draws is None or frame.height == 0:
        return None
    # a line's last draw (tqdm redraws a bar on one line)
    bars = draws.unique("line", keep="last", maintain_order=True).sort("line")
    opened = pl.Series(sorted(starts), dtype=pl.Int64)
    banner = pl.lit(opened).search_sorted(pl.col("line"), side="right").cast(pl.Int64)
    anew = (pl.col("_bar_elapsed").diff() < 0).fill_null(False).cum_sum().cast(pl.Int64)
    bars = bars.with_columns(_run=anew + (banner if len(opened) else 0))
    got = (
        frame.with_columns(pl.col("line").cast(pl.Int64))
        .sort("line")
        .join_asof(bars, on="line", strategy="backward")
    )
    if got.get_column("_bar_step").null_count():
        return None
    rising = pl.col("_bar_step").diff().over("_run").fill_null(1) > 0
    if not got.select(rising.all()).item():
        return None
    elapsed = pl.col("_bar_elapsed")
    return got.with_columns(
        iteration=pl.col("_bar_step"),
        step_time=pl.coalesce("step_time", "_bar_time"),
        span=elapsed.diff().over("_run").fill_null(elapsed),
    ).drop("_bar_step", "_bar_time", "_bar_elapsed", "_run")


def _timed_by_bar(text: TrainerText, frame: pl.DataFrame, every: int) -> pl.DataFrame | None:
    """Dicts whose steps are known (`iteration`), dated by the training bar's draw at each
    step: its elapsed time (as `span`, the time since the dict before) and its rate (the
    step time), where the bar was drawn at every dict's step or in the `every` steps
    before it; else None. With stdout buffered (`nohup`, a pipe) the dicts come in bursts
    long after their steps, while tqdm's bar, on stderr, was drawn as they ran: the bar's
    clock shows a slow patch that train_runtime's average pace hides."""
    draws = _bar_draws(text)
    if draws is None or frame.height == 0:
        return None
    draws = (
        draws.select("_bar_step", "_bar_time", "_bar_elapsed")
        .unique("_bar_step", keep="last", maintain_order=True)
        .sort("_bar_step")
    )
    got = frame.sort("iteration").join_asof(
        draws, left_on="iteration", right_on="_bar_step", strategy="backward"
    )
    near = (pl.col("iteration") - pl.col("_bar_step")) < every
    if got.select((pl.col("_bar_step").is_null() | ~near).any()).item():
        return None
    elapsed = pl.col("_bar_elapsed")
    return got.with_columns(
        step_time=pl.coalesce("step_time", "_bar_time"),
        span=elapsed.diff().fill_null(elapsed),
    ).drop("_bar_step", "_bar_time", "_bar_elapsed")


def _clocked(frame: pl.DataFrame) -> pl.DataFrame:
    """Dicts that each carry the run's clock: the k-th is step k, spread from the start by
    the clock's growth, which is its step's time; where they also carry the tokens seen,
    the tokens/s over each interval (the dict's own `train_tokens_per_second` is the
    run's average so far, which hides a slow patch)."""
    grown = pl.col("_runtime").diff()
    tokens = pl.col("_tokens").diff()
    frame = frame.with_columns(
        iteration=pl.int_range(1, pl.len() + 1, dtype=pl.Int64),
        span=grown.fill_null(pl.col("_runtime")),
        step_time=pl.coalesce("step_time", pl.when(grown > 0).then(grown)),
    )
    if frame.get_column("_tokens").is_not_null().any():
        frame = frame.with_columns(
            consumed_tokens="_tokens",
            tokens_per_second=pl.when((grown > 0) & (tokens > 0)).then(tokens / grown),
        )
    return frame


def parse_state(path: Path, ctx: Context) -> Parsed:
    where = path.name
    try:
        state = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError) as exc:
        return Parsed(notes=[f"{where}: not readable as JSON ({exc}); left out"])
    history = state.get("log_history") if isinstance(state, dict) else None
    if not isinstance(history, list):
        return Parsed(notes=[f"{where}: no log_history list; left out"])
    entries = [e for e in history if isinstance(e, dict)]
    train = [e for e in entries if "step" in e and ("loss" in e or "learning_rate" in e)]
    summary = next((e for e in entries if "train_runtime" in e), {})
    keys = {
        "step": "iteration",
        "loss": "loss",
        "grad_norm": "grad_norm",
        "learning_rate": "learning_rate",
        "num_input_tokens_seen": "consumed_tokens",
    }
    columns = {new: [_number(e.get(old)) for e in train] for old, new in keys.items()}
    frame = pl.DataFrame(columns, schema=dict.fromkeys(columns, pl.Float64)).with_columns(
        pl.col("iteration").cast(pl.Int64),
        kind=pl.lit("hf-state"),
        line=pl.int_range(1, pl.len() + 1),
    )
    notes = []
    bad = sum(1 for e in train for k in ("loss", "grad_norm") if k in e and _number(e[k]) is None)
    if bad:
        notes.append(f"{where}: {bad} log_history values are not numbers; left out")
    steps = _number(summary.get("step")) or _number(state.get("global_step"))
    runtime = _number(summary.get("train_runtime"))
    if runtime and steps:
        per_step = runtime / steps
        frame = frame.with_columns(
            span=pl.col("iteration")
            .cast(pl.Float64)
            .diff()
            .fill_null(pl.col("iteration").cast(pl.Float64))
            * per_step
        )
        notes.append(
            f"{where}: trainer_state.json carries no time: steps spread from the start by "
            f"train_runtime {runtime:.0f} s over {steps:.0f} steps"
        )
    else:
        notes.append(f"{where}: no train_runtime: its steps cannot be dated")
    facts = {}
    batch = _number(state.get("train_batch_size"))
    if batch:
        notes.append(
            f"{where}: train_batch_size {batch:g} is per device; not used as the global batch"
        )
    return Parsed(records(frame), facts, [], notes)


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


STDOUT = TrainerFormat(
    "hf-trainer",
    "Hugging Face Trainer's printed dicts",
    _DICT + "|" + _SUMMARY,
    parse_stdout,
)
STATE = TrainerFormat(
    "hf-trainer-state",
    "Hugging Face trainer_state.json (log_history)",
    r'"log_history"\s*:',
    parse_state,
    text=False,
    names=("*trainer_state*.json",),
)
