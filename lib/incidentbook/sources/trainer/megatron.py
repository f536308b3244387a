"""Megatron-LM and Megatron-DeepSpeed (BigScience, Microsoft, ALCF) iteration lines.

    [2024-09-03 15:54:54] iteration       10/  500000 | consumed samples: 10240 |
      elapsed time per iteration (ms): 12345.6 | throughput per GPU (TFLOP/s/GPU): 875.1 |
      learning rate: 6.976744E-07 | global batch size:  1024 | lm loss: 1.0E+01 |
      loss scale: 8388608.0 | grad norm: 1.234 | number of skipped iterations:   0 |
      number of nan iterations:   0 |

The fields are `key: value |` (ALCF's 2024 rewrite: `key=value |`); the per-line
timestamp exists only since 2024; older logs are dated from the `[... ] datetime:` lines
around them. Versions differ in spelling (`lm-loss` with DeepSpeed's pipeline engine,
`elapsed time per iteration (s)` in BLOOM's, `tokens per gpu per second (tgs)` in
ALCF's), so each field is its own tolerant pattern rather than one fixed layout. Lines
pasted from a terminal can be wrapped over two or three physical lines; an iteration
line that does not end with `|` takes the lines after it that continue it.

The argument dump (`  seq_length ........ 1024`) gives the numbers the lines leave out.
The regexes are this module's own: the log readers (issue 11) read the same lines as
messages and keep theirs.
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
    after,
    launcher_rank,
    records,
    to_float,
    unreadable,
)

ITERATION = r"iteration[=\s]\s*(\d+)\s*/\s*(\d+)\s*\|"
_START = r"\[before the start of training step\]|^-{8,} arguments -{8,}\s*$"
_ARGUMENT = r"^\s*(?P<name>[a-z_]+) \.{2,} ?(?P<value>\S+)\s*$"
_ARGUMENTS = {
    "global_batch_size": "global_batch_size",
    "seq_length": "seq_length",
    "micro_batch_size": "micro_batch_size",
    "data_parallel_size": "data_parallel_size",
    "tensor_model_parallel_size": "tp",
    "pipeline_model_parallel_size": "pp",
    "world_size": "gpus",
    "log_interval": "log_interval",
}

_FIELDS = {
    "consumed_samples": r"consumed[ _]samples",
    "consumed_tokens": r"consumed[ _]tokens",
    "elapsed_ms": r"elapsed[ _]time[ _]per[ _]iteration[ _]\(?ms\)?",
    "elapsed_s": r"elapsed[ _]time[ _]per[ _]iteration[ _]\(s\)",
    "tflops_per_gpu": r"(?:throughput per GPU \(TFLOP/s/GPU\)|\|\s*(?:\[LM\]-)?TFLOPs)",
    "learning_rate": r"learning[ _]rate",
    "global_batch_size": r"global[ _]batch[ _]size",
    "loss": r"lm[ -]loss",
    "loss_scale": r"loss[ _]scale",
    "grad_norm": r"grad[ _]norm",
    "skipped": r"number[\s_]*of[\s_]*skipped[\s_]*iterations?",
    "nan": r"number[\s_]*of[\s_]*nan[\s_]*iterations?",
    "samples_per_second": r"samples[ _]per[ _]second",
    "tokens_per_second_per_gpu": r"tokens[ _]per[ _]gpu[ _]per[ _]second[ _]?\(?tgs\)?",
    "seq_length": r"actual[ _]seqlen",
}


def _joined(text: TrainerText) -> pl.DataFrame:
    """Iteration records with their wrapped continuation lines joined (line, ts, text)."""
    lines = text.lines.with_columns(start=pl.col("text").str.contains(ITERATION))
    closed = pl.col("text").str.strip_chars_end().str.ends_with("|")
    # A line continues the record above while that record is open (its last piece did not
    # end with `|`), for at most two lines, and never when it starts a record of its own.
    may_continue = (
        ~pl.col("start")
        & pl.col("ts").is_null()
        & ~pl.col("text").str.contains(r"^\s*(?:\[|time \(ms\))")
    )
    lines = lines.with_columns(group=pl.col("start").cum_sum()).filter(pl.col("group") > 0)
    open_before = (~closed).cast(pl.Int8).cum_prod().shift(1).over("group").fill_null(1)
    # Continuation stops at the first line that cannot continue, or after two.
    ok = (pl.col("start") | may_continue) & (open_before == 1)
    lines = lines.with_columns(
        keep=ok.cast(pl.Int8).cum_prod().over("group").cast(pl.Boolean)
        & (pl.int_range(pl.len()).over("group") <= 2)
    )
    return (
        lines.filter(pl.col("keep"))
        .group_by("group", maintain_order=True)
        .agg(pl.col("line").first(), pl.col("ts").first(), pl.col("text").str.join(""))
        .drop("group")
    )


def _facts(text: TrainerText) -> dict[str, Fact]:
    args = (
        text.lines.filter(pl.col("text").str.contains(r"\.{3,}"))
        .with_columns(pl.col("text").str.extract_groups(_ARGUMENT).alias("a"))
        .unnest("a")
        .filter(pl.col("name").is_in(list(_ARGUMENTS)))
        .unique("name", keep="first", maintain_order=True)
    )
    facts: dict[str, Fact] = {}
    for name, value, line in args.select("name", "value", "line").iter_rows():
        number = to_float(pl.lit(value)).fill_nan(None)
        got = pl.select(number).item()
        if got is not None:
            facts[_ARGUMENTS[name]] = Fact(got, f"argument dump, line {line}")
    if "gpus" not in facts and {"tp", "pp", "data_parallel_size"} <= facts.keys():
        product = facts["tp"].value * facts["pp"].value * facts["data_parallel_size"].value
        facts["gpus"] = Fact(product, "tensor x pipeline x data parallel sizes (argument dump)")
    return facts


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    joined = _joined(text)
    if text.incomplete and joined.height:
        # The file was cut while a line was written: its last record may be half a line.
        last = text.lines.get_column("line").max()
        joined = joined.filter(pl.col("line") != last)
    raw = joined.select(
        "line",
        "ts",
        iteration=pl.col("text").str.extract(ITERATION, 1).cast(pl.Int64),
        rank=launcher_rank(pl.col("text")),
        complete=pl.col("text").str.strip_chars_end().str.ends_with("|"),
        **{name: after(pl.col("text"), key) for name, key in _FIELDS.items()},
    )
    numbers = raw.select(list(_FIELDS))
    parsed = numbers.select(to_float(pl.col(c)).alias(c) for c in _FIELDS)
    notes = unreadable(numbers, parsed, where)
    frame = pl.concat(
        [raw.select("line", "ts", "iteration", "rank", "complete"), parsed], how="horizontal"
    )
    frame = frame.with_columns(
        kind=pl.lit("megatron"),
        step_time=pl.coalesce(pl.col("elapsed_ms") / 1e3, pl.col("elapsed_s")),
        loss_missing=pl.col("complete") & pl.col("loss").is_null(),
    )
    starts = text.lines.filter(pl.col("text").str.contains(_START)).get_column("line")
    return Parsed(records(frame), _facts(text), starts.to_list(), notes)


FORMAT = TrainerFormat(
    "megatron",
    "Megatron-LM / Megatron-DeepSpeed iteration lines",
    ITERATION + r"|^-{8,} arguments -{8,}\s*$",
    parse,
)

__all__ = ["FORMAT", "ITERATION", "NUM"]
