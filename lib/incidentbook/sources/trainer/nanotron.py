"""nanotron's iteration lines (Hugging Face's trainer; SmolLM3 was trained with it).

    08/31/2024 14:37:31 [INFO|DP=0|PP=0|TP=0|host]: iteration: 2 / 15 |
        consumed_tokens: 1.02K | elapsed_time_per_iteration_ms: 11.8 |
        tokens_per_sec: 43.2K | tokens_per_sec_per_gpu: 43.2K | global_batch_size: 2 |
        lm_loss: 5.29 | lr: 0.0003 | model_tflops_per_gpu: 0.00744 | grad_norm: 3.29

Numbers are humanised to three significant digits (`K`, `M`, `G`, `T`; `B` for billions
since April 2025), so consumed_tokens cannot give rates over short spans: tokens/s is
read as printed. `elapsed_time_per_iteration_ms` became `time_per_iteration_ms` in 2025
(and `global_batch_size` a token count then, so it is not read). The prefix carries the
host since January 2024; newer forks drop the year (`12/21 01:39:51`).
`[Start training] ... sequence_length: 256 | ... start_iteration_step: 0` starts a run.
"""

from __future__ import annotations

import polars as pl

from incidentbook.sources.trainer.base import (
    Context,
    Fact,
    Parsed,
    TrainerFormat,
    TrainerText,
    after,
    human,
    key_values,
    records,
    unreadable,
)

ITERATION = r"\]: iteration: (\d+) / (\d+)"
_START = r"\[Start training\]"
_PREFIX = r"\[(?:[A-Z]+)((?:\|[^|\]]*)*)\]:"
_KEYS = {
    "consumedtokens": "consumed_tokens",
    "elapsedtimeperiterationms": "step_ms",
    "timeperiterationms": "step_ms",
    "tokenspersec": "tokens_per_second",
    "tokenspersecpergpu": "tokens_per_second_per_gpu",
    "lmloss": "loss",
    "lr": "learning_rate",
    "modeltflopspergpu": "tflops_per_gpu",
    "gradnorm": "grad_norm",
}
_FIELDS = sorted(set(_KEYS.values()))


def _rank(fields: pl.Expr) -> pl.Expr:
    """DP, PP and TP folded into one sort key: 0 only for the first of each."""
    parts = [
        fields.str.extract(rf"\|{k}=(\d+)", 1).cast(pl.Int64).fill_null(0)
        for k in ("DP", "PP", "TP")
    ]
    return parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2]


def _facts(text: TrainerText) -> dict[str, Fact]:
    start = text.lines.filter(pl.col("text").str.contains(_START)).head(1)
    facts: dict[str, Fact] = {}
    if start.height:
        line, body = start.item(0, "line"), start.item(0, "text")
        for key, name in (
            ("sequence_length", "seq_length"),
            ("global_batch_size", "global_batch_size"),
        ):
            got = pl.select(human(after(pl.lit(body), rf"\|\s*{key}"))).item()
            if got is not None:
                facts[name] = Fact(got, f"[Start training] line {line}")
    return facts


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    lines = text.lines.filter(pl.col("text").str.contains(ITERATION))
    if text.incomplete and lines.height:
        lines = lines.filter(pl.col("line") != text.lines.get_column("line").max())
    fields = pl.col("text").str.extract(_PREFIX, 1)
    raw = lines.select(
        "line",
        "ts",
        iteration=pl.col("text").str.extract(ITERATION, 1).cast(pl.Int64),
        host=fields.str.extract(r"\|([^|=\]]+)$", 1),
        rank=_rank(fields.fill_null("")),
    )
    # The fields after the prefix's `]: ` (the prefix has `|` of its own).
    numbers = key_values(
        lines.select(
            pl.col("text").str.split_exact("]: ", 1).struct.field("field_1").alias("text")
        ),
        _KEYS,
        "|",
    )
    parsed = numbers.select(human(pl.col(c)).alias(c) for c in _FIELDS)
    frame = pl.concat(
        [raw.select("line", "ts", "iteration", "host", "rank"), parsed], how="horizontal"
    )
    frame = frame.with_columns(kind=pl.lit("nanotron"), step_time=pl.col("step_ms") / 1e3)
    starts = text.lines.filter(pl.col("text").str.contains(_START)).get_column("line")
    return Parsed(
        records(frame), _facts(text), starts.to_list(), unreadable(numbers, parsed, where)
    )


FORMAT = TrainerFormat("nanotron", "nanotron iteration lines", ITERATION, parse)
