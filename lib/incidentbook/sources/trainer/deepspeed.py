"""DeepSpeed's own lines: progress, throughput timer, pipeline steps, loss-scale changes.

    [2023-04-18 01:48:06,240] [INFO] [logging.py:96:log_dist] [Rank 0] step=100,
        skipped=6, lr=[9.646e-06, 9.646e-06], mom=[(0.9, 0.95), (0.9, 0.95)]
    [2023-04-18 01:48:06,269] [INFO] [timer.py:199:stop] epoch=0/micro_step=100/
        global_step=100, RunningAvgSamplesPerSec=171.99, CurrSamplesPerSec=171.50, ...
    steps: 1 loss: 12.7902 iter time (s): 150.471 samples/sec: 6.805
    [...] [deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 65536,
        reducing to 32768
    [...] [fused_optimizer.py:363:_update_scale] Reducing dynamic loss scale from 65536
        to 32768.0

`step` and `skipped` are running totals (made per interval when dated); the timer's
samples/s are the whole train batch's, and its `global_step` counts from the job's start
(after a resume, the `step=` line just before it says which step it is). Overflow and
scale lines are events with their own time and no iteration: the loss scale at that
moment, and one skipped step where the file has no `skipped=` totals to count them
already. Every rank prints the fused optimizer's scale changes: identical events are one.

DeepSpeed never prints the sequence length; the launch command (`--max_seq_len 512`,
`--seq-length`) or incident.yaml gives it.
"""

from __future__ import annotations

import polars as pl

from incidentbook.sources.trainer.base import (
    NUM,
    Context,
    Fact,
    Parsed,
    TrainerFormat,
    TrainerText,
    records,
    to_float,
    unreadable,
)

_STEP = r"\[Rank (\d+)\] step=(\d+), skipped=(\d+), lr=\[\s*" + NUM
_TIMER = r"global_step=(\d+), RunningAvgSamplesPerSec=" + NUM + r", CurrSamplesPerSec=" + NUM
_PIPE = r"\bsteps: (\d+) loss: " + NUM + r" iter time \(s\): " + NUM + r" samples/sec: " + NUM
_OVERFLOW = (
    r"(?:OVERFLOW!|Overflow detected\.) (?:Rank \d+ )?Skipping step\. Attempted loss scale: "
)
_REDUCED = _OVERFLOW + NUM + r", reducing to " + NUM
_HYSTERESIS = _OVERFLOW + NUM + r", but hysteresis"
_SCALE = r"(?:Reducing|Increasing) dynamic loss scale from " + NUM + r" to " + NUM
_CONFIG = r"\]\s+(train_batch_size|train_micro_batch_size_per_gpu) \.{2,} (\d+)\s*$"
SEQ_ARGUMENT = (
    r"--(?:max[_-]seq[_-]len(?:gth)?|seq[_-]length|sequence[_-]length|block[_-]size)[= ](\d+)"
)


def _matches(text: TrainerText, pattern: str, names: list[str]) -> pl.DataFrame:
    return (
        text.lines.filter(pl.col("text").str.contains(pattern))
        .with_columns(pl.col("text").str.extract_groups(pattern).alias("g"))
        .select(
            "line",
            "ts",
            *(pl.col("g").struct.field(str(i + 1)).alias(n) for i, n in enumerate(names)),
        )
    )


def facts_from_text(text: TrainerText) -> dict[str, Fact]:
    """The batch (DeepSpeed's config dump) and the sequence length (a launch command)."""
    facts: dict[str, Fact] = {}
    config = _matches(text, _CONFIG, ["name", "value"]).unique("name", keep="first")
    for name, value, line in config.select("name", "value", "line").iter_rows():
        if name == "train_batch_size":
            facts["global_batch_size"] = Fact(float(value), f"DeepSpeed config, line {line}")
    seq = _matches(text, SEQ_ARGUMENT, ["value"]).head(1)
    if seq.height:
        line, value = seq.item(0, "line"), seq.item(0, "value")
        facts["seq_length"] = Fact(float(value), f"launch command, line {line}")
    return facts


def _timer_steps(timer: pl.DataFrame, steps: pl.DataFrame) -> pl.DataFrame:
    """The timer's lines with the step they report. The timer counts the engine's steps
    since the job started (`global_step=5` after a resume), while `step=` carries on
    from the checkpoint (`step=136005`): a timer line printed just after a `step=` line
    (within three lines) is that step's."""
    if timer.height == 0 or steps.height == 0:
        return timer
    paired = timer.join_asof(
        steps.select("line", _step=pl.col("iteration"), _at=pl.col("line")),
        on="line",
        strategy="backward",
    )
    near = (pl.col("line") - pl.col("_at")) <= 3
    return paired.with_columns(
        iteration=pl.when(near).then(pl.col("_step")).otherwise(pl.col("iteration"))
    ).drop("_step", "_at")


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    steps = _matches(text, _STEP, ["rank", "iteration", "skipped_total", "learning_rate"])
    timer = _matches(text, _TIMER, ["iteration", "avg", "samples_per_second"])
    pipe = _matches(text, _PIPE, ["iteration", "loss", "step_time", "samples_per_second"])
    reduced = _matches(text, _REDUCED, ["attempted", "loss_scale"])
    hysteresis = _matches(text, _HYSTERESIS, ["loss_scale"])
    scale = _matches(text, _SCALE, ["from", "loss_scale"])
    frames, notes = [], []

    def numbers(frame: pl.DataFrame, columns: list[str], kind: str, **extra) -> pl.DataFrame:
        parsed = frame.with_columns(to_float(pl.col(c)).alias(c) for c in columns)
        notes.extend(unreadable(frame.select(columns), parsed.select(columns), where))
        return parsed.with_columns(kind=pl.lit(kind), **extra)

    # `step=0` is printed before training starts: it says nothing about a step.
    frames.append(
        numbers(steps, ["skipped_total", "learning_rate"], "ds-step")
        .with_columns(pl.col("rank", "iteration").cast(pl.Int64))
        .filter(pl.col("iteration") > 0)
    )
    frames.append(
        numbers(_timer_steps(timer, steps), ["samples_per_second"], "ds-timer").with_columns(
            pl.col("iteration").cast(pl.Int64)
        )
    )
    frames.append(
        numbers(pipe, ["loss", "step_time", "samples_per_second"], "ds-pipe").with_columns(
            pl.col("iteration").cast(pl.Int64)
        )
    )
    # Without running totals of skipped steps, each overflow is one.
    counted = None if steps.height else 1.0
    events = [
        numbers(reduced, ["loss_scale"], "ds-overflow", skipped=pl.lit(counted)),
        numbers(hysteresis, ["loss_scale"], "ds-overflow", skipped=pl.lit(counted)),
        numbers(scale, ["loss_scale"], "ds-scale"),
    ]
    frames.append(
        pl.concat([records(e) for e in events])
        .filter(pl.col("ts").is_not_null())
        .unique(["ts", "kind", "loss_scale"], keep="first", maintain_order=True)
    )
    frame = pl.concat([records(f) for f in frames]).sort("line")
    return Parsed(frame, facts_from_text(text), [], notes)


FORMAT = TrainerFormat(
    "deepspeed",
    "DeepSpeed progress, throughput and loss-scale lines",
    r"\] step=\d+, skipped=\d+|global_step=\d+, RunningAvgSamplesPerSec|\bsteps: \d+ loss: "
    r"|OVERFLOW! Rank \d+ Skipping step|dynamic loss scale from",
    parse,
)
