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
    key_values,
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

# Field names with everything but letters and digits removed, so that spellings and
# wrapped lines meet: `lm-loss`, `lm loss=`, `number of naniterations` (a wrap ate the
# space), `elapsed_time_per_iteration_ms`, `[LM]-TFLOPs`.
_KEYS = {
    "consumedsamples": "consumed_samples",
    "consumedtokens": "consumed_tokens",
    "elapsedtimeperiterationms": "elapsed_ms",
    "elapsedtimeperiterations": "elapsed_s",
    "throughputpergputflopsgpu": "tflops_per_gpu",
    "tflops": "tflops_per_gpu",
    "lmtflops": "tflops_per_gpu",
    "learningrate": "learning_rate",
    "globalbatchsize": "global_batch_size",
    "lmloss": "loss",
    "lossscale": "loss_scale",
    "gradnorm": "grad_norm",
    "numberofskippediterations": "skipped",
    "numberofnaniterations": "nan",
    "samplespersecond": "samples_per_second",
    "tokenspergpupersecondtgs": "tokens_per_second_per_gpu",
    "actualseqlen": "seq_length",
}
_FIELDS = sorted(set(_KEYS.values()))


def _joined(text: TrainerText) -> pl.DataFrame:
    """Iteration records with their wrapped continuation lines joined (line, ts, text).

    A record that does not end with `|` takes the next line, and the one after while
    still open, when they cannot be records of their own (no time, not starting with `[`
    or `time (ms)`, no iteration). Shifts, not groups: a million lines stay cheap.
    """
    text_ = pl.col("text")
    start = text_.str.contains(ITERATION)
    closed = text_.str.strip_chars_end().str.ends_with("|")
    may_continue = ~start & pl.col("ts").is_null() & ~text_.str.contains(r"^\s*(?:\[|time \(ms\))")
    lines = text.lines.with_columns(start=start, closed=closed, may=may_continue)
    one = ~pl.col("closed") & pl.col("may").shift(-1).fill_null(False)
    two = (
        one & ~pl.col("closed").shift(-1).fill_null(True) & pl.col("may").shift(-2).fill_null(False)
    )
    return (
        lines.with_columns(
            text=pl.concat_str(
                text_,
                pl.when(one).then(text_.shift(-1)).otherwise(pl.lit("")),
                pl.when(two).then(text_.shift(-2)).otherwise(pl.lit("")),
            )
        )
        .filter(pl.col("start"))
        .select("line", "ts", "text")
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


def _fields(records: pl.DataFrame) -> pl.DataFrame:
    return key_values(records, _KEYS, "|")


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
        complete=pl.col("text").str.strip_chars_end().str.ends_with("|"),
    )
    numbers = _fields(joined)
    parsed = numbers.select(to_float(pl.col(c)).alias(c) for c in _FIELDS)
    notes = unreadable(numbers, parsed, where)
    frame = pl.concat([raw, parsed], how="horizontal")
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
