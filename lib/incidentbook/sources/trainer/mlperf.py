"""MLPerf's logging library (mlperf-logging's mllog): one JSON event per line after `:::MLLOG`.

    :::MLLOG {"namespace": "", "time_ms": 1633477925533, "event_type": "POINT_IN_TIME",
              "key": "train_loss", "value": 1.28, "metadata": {"file": "...", "lineno": 96,
              "epoch_num": 1, "step_num": 20}}

Every MLPerf training and HPC result log is written so, by every submitter's code; each
event carries its own time (`time_ms`). The loss is a `train_loss` event or a
`tracked_stats` event whose value holds `train_loss`; `tracked_stats` also carries the
`throughput` (samples per second) of newer benchmarks. The step is the metadata's
`step_num` (HPC) or `step`, else its `samples_count`. The run's other events (its start,
evaluations, the submission's fields) are not progress and are left out.
"""

from __future__ import annotations

import polars as pl

from incidentbook.sources.trainer.base import (
    UTC_US,
    Context,
    Parsed,
    TrainerFormat,
    TrainerText,
    records,
)

MLLOG = r":::MLLOG \{"


def _number(event: pl.Expr, path: str) -> pl.Expr:
    return event.str.json_path_match(path).cast(pl.Float64, strict=False)


def parse(text: TrainerText, _ctx: Context) -> Parsed:
    lines = text.lines.filter(pl.col("text").str.contains(MLLOG))
    event = pl.col("text").str.split_exact(":::MLLOG ", 1).struct.field("field_1")
    key = event.str.json_path_match("$.key")
    step = pl.coalesce(
        _number(event, "$.metadata.step_num"),
        _number(event, "$.metadata.step"),
        _number(event, "$.metadata.samples_count"),
    )
    loss = (
        pl.when(key == "train_loss")
        .then(_number(event, "$.value"))
        .when(key == "tracked_stats")
        .then(_number(event, "$.value.train_loss"))
    )
    throughput = pl.when(key == "tracked_stats").then(_number(event, "$.value.throughput"))
    frame = lines.select(
        "line",
        "rank",
        "host",
        ts=pl.from_epoch(_number(event, "$.time_ms").cast(pl.Int64), time_unit="ms")
        .dt.replace_time_zone("UTC")
        .cast(UTC_US),
        iteration=step.cast(pl.Int64),
        loss=loss,
        samples_per_second=throughput,
        consumed_samples=_number(event, "$.metadata.samples_count"),
        kind=pl.lit("mllog"),
    ).filter(
        pl.col("iteration").is_not_null()
        & (pl.col("loss").is_not_null() | pl.col("samples_per_second").is_not_null())
    )
    return Parsed(records(frame))


FORMAT = TrainerFormat("mlperf", "MLPerf's MLLOG events", MLLOG, parse)
