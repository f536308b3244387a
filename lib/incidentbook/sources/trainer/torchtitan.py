"""torchtitan's metrics lines (PyTorch's reference trainer).

    [rank0]:[titan] 2026-05-20 02:58:12,096 - root - INFO - step:  1  loss: 12.45602
        grad_norm: 21.8750  memory: 160.86GiB(90.19%)  tps: 1,503  tflops: 126.66
        mfu: 5.63%

`tps` (`wps` before November 2024) is tokens per second *per device*, with thousands
separators; `tflops` is per device too and `mfu` a percentage. The step time is not
printed: it comes from the lines' own timestamps. The job's tokens/s is tps x devices,
the devices being the product of the parallelism degrees it logs at start (`Building
device mesh with parallelism: pp=1, dp_replicate=1, dp_shard=8, ...`) or incident.yaml's
trainer.gpus. With `--local-ranks-filter` unset every rank prints every step (with or
without a `[rankN]:` prefix): rank 0's line is used.
"""

from __future__ import annotations

import math

import polars as pl

from incidentbook.sources.trainer.base import (
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

STEP = r"\bstep:\s*(\d+)\s+loss:"
_VALIDATION = r"(?i)\bvalidat\w*\s+step:"
_START = r"Training starts at step"
_SHAPE = (
    r"local batch size (\d+), global batch size (\d+), gradient accumulation steps (\d+), "
    r"sequence length (\d+)"
)
_MESH = r"device mesh with parallelism: ((?:\w+=\d+(?:, )?)+)"
_KEYS = {
    "loss": "loss",
    "gradnorm": "grad_norm",
    "tps": "tokens_per_second_per_gpu",
    "wps": "tokens_per_second_per_gpu",
    "tflops": "tflops_per_gpu",
    "mfu": "mfu_percent",
}
_FIELDS = sorted(set(_KEYS.values()))


def _facts(text: TrainerText) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    shape = text.lines.filter(pl.col("text").str.contains(_SHAPE)).head(1)
    if shape.height:
        line = shape.item(0, "line")
        groups = re_groups(shape.item(0, "text"), _SHAPE)
        facts["global_batch_size"] = Fact(float(groups[1]), f"trainer start line {line}")
        facts["seq_length"] = Fact(float(groups[3]), f"trainer start line {line}")
    mesh = text.lines.filter(pl.col("text").str.contains(_MESH)).head(1)
    if mesh.height:
        degrees = re_groups(mesh.item(0, "text"), _MESH)[0]
        product = math.prod(int(part.split("=")[1]) for part in degrees.split(", ") if "=" in part)
        facts["gpus"] = Fact(float(product), f"device mesh, line {mesh.item(0, 'line')}")
    return facts


def re_groups(line: str, pattern: str) -> tuple[str, ...]:
    import re

    found = re.search(pattern, line)
    return found.groups() if found else ()


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    # `validate step: 100  loss: 2.1152 ... tps: 5,750` is the validation's: its loss and
    # tokens/s are not the training step's
    lines = text.lines.filter(
        pl.col("text").str.contains(STEP) & ~pl.col("text").str.contains(_VALIDATION)
    )
    if text.incomplete and lines.height:
        lines = lines.filter(pl.col("line") != text.lines.get_column("line").max())
    raw = lines.select(
        "line",
        "ts",
        iteration=pl.col("text").str.extract(STEP, 1).cast(pl.Int64),
    )
    # Fields are two spaces apart after `step: N` (a value padded after its colon,
    # `loss:  5.4076` in forks that align them, is brought back to one space first).
    numbers = key_values(
        lines.select(
            pl.col("text")
            .str.split_exact("step:", 1)
            .struct.field("field_1")
            .str.replace_all(r":\s+", ": ")
            .alias("text")
        ),
        _KEYS,
        "  ",
    )
    parsed = numbers.select(to_float(pl.col(c).str.strip_suffix("%")).alias(c) for c in _FIELDS)
    frame = pl.concat([raw.select("line", "ts", "iteration"), parsed], how="horizontal")
    frame = frame.with_columns(kind=pl.lit("torchtitan"), mfu=pl.col("mfu_percent") / 100)
    starts = text.lines.filter(pl.col("text").str.contains(_START)).get_column("line")
    return Parsed(
        records(frame), _facts(text), starts.to_list(), unreadable(numbers, parsed, where)
    )


FORMAT = TrainerFormat("torchtitan", "torchtitan metrics lines", STEP, parse)
