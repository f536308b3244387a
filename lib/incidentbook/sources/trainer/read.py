"""One trainer file from bytes to dated rows, and rows to the raw samples of the frames.

Which formats read a file is decided by sniffing its first MiB: every format that
recognises it parses it (a Megatron-DeepSpeed log is Megatron's iteration lines and
DeepSpeed's overflow lines in one file), and their records are dated together.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import polars as pl

from incidentbook.registry import Registry, instance_of
from incidentbook.sources.trainer.base import (
    ITERATION_METRIC,
    QUANTITIES,
    Context,
    Parsed,
    TrainerFormat,
    TrainerText,
    read_head,
    read_text,
    sniffable,
)
from incidentbook.sources.trainer.timeline import Given, Placed, place_records

TRAINER_FORMATS: Registry[TrainerFormat] = Registry(
    "trainer format",
    "incidentbook.trainer_formats",
    {
        "megatron": "incidentbook.sources.trainer.megatron:FORMAT",
        "deepspeed": "incidentbook.sources.trainer.deepspeed:FORMAT",
        "nanotron": "incidentbook.sources.trainer.nanotron:FORMAT",
        "torchtitan": "incidentbook.sources.trainer.torchtitan:FORMAT",
        "hf-trainer": "incidentbook.sources.trainer.hf:STDOUT",
        "hf-trainer-state": "incidentbook.sources.trainer.hf:STATE",
        "lightning-csv": "incidentbook.sources.trainer.lightning:FORMAT",
        "keras": "incidentbook.sources.trainer.keras:FORMAT",
        "ultralytics": "incidentbook.sources.trainer.ultralytics:FORMAT",
        "mlperf": "incidentbook.sources.trainer.mlperf:FORMAT",
        "generic": "incidentbook.sources.trainer.generic:FORMAT",
    },
    check=instance_of(TrainerFormat),
)
"""Trainer families by name; a package adds one under `incidentbook.trainer_formats`."""


@dataclass
class TrainerFile:
    """What reading one file gave: its dated rows, the formats that read it, notes."""

    path: Path
    formats: list[str]
    rows: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    last: datetime | None = None


_SNIFFED: dict[tuple, list[TrainerFormat]] = {}
_SNIFFED_MAX = 4096


def formats_of(path: Path) -> list[TrainerFormat]:
    """The trainer formats that recognise a file (none: it is not a trainer's output).

    A run asks this of the same files several times (the folder's listing, the trainer
    source, the record's checks each build their own source), and sniffing is regular
    expressions over a MiB: the answer is kept per file as it is on disk (path, inode,
    size, modification time) and per set of registered formats, so a changed file or a
    newly registered format is sniffed again."""
    formats = tuple(fmt for _, fmt in TRAINER_FORMATS.entries())
    try:
        st = path.stat()
    except OSError:
        key = None
    else:
        key = (str(path), st.st_ino, st.st_size, st.st_mtime_ns, formats)
        if key in _SNIFFED:
            return list(_SNIFFED[key])
    head = sniffable(read_head(path))
    # A generic reader stands in only for a trainer no format of its own knows (and is
    # not even tried otherwise: its sniff is the slowest).
    found = _recognising(path, head, fallback=False) or _recognising(path, head, fallback=True)
    if key is not None:
        if len(_SNIFFED) >= _SNIFFED_MAX:
            _SNIFFED.clear()
        _SNIFFED[key] = found
    return list(found)


# What a run's progress is measured by. A learning rate, a grad norm or a loss scale alone
# is the schedule's or the optimiser's number: a format that read only those (the Hugging
# Face reader on TensorFlow Model Garden's dicts, whose loss is `training_loss`) read none.
_PROGRESS = [c for c in QUANTITIES if c not in ("learning_rate", "grad_norm", "loss_scale", "gpus")]


def _measured(records: pl.DataFrame) -> bool:
    """Whether any record states how the run progressed (not only an iteration number)."""
    return records.height > 0 and bool(
        records.select(pl.any_horizontal(pl.col(c).is_not_null() for c in _PROGRESS).any()).item()
    )


def _generic_reading(
    path: Path,
    text: TrainerText,
    ctx: Context,
    tried: list[TrainerFormat],
    wanted: Callable[[pl.DataFrame], bool],
) -> tuple[TrainerFormat, Parsed] | None:
    """The first generic (fallback) format not yet tried that recognises the file and
    whose records are `wanted`, with what it parsed; None if there is none."""
    for fmt in _recognising(path, text.head, fallback=True):
        if not fmt.text or fmt in tried:
            continue
        got = fmt.parse(text, ctx)
        if wanted(got.records):
            return fmt, got
    return None


def _has_loss(records: pl.DataFrame) -> bool:
    return "loss" in records.columns and records.get_column("loss").is_not_null().any()


def _recognising(path: Path, head: str, *, fallback: bool) -> list[TrainerFormat]:
    """The formats (the generic ones, or the others) whose sniff finds the file's head."""
    if not head:
        return []
    return [
        fmt
        for _, fmt in TRAINER_FORMATS.entries()
        if fmt.fallback == fallback and fmt.matches(path, head)
    ]


def read_trainer_file(
    path: Path,
    ctx: Context,
    given: Given,
    *,
    formats: list[TrainerFormat] | None = None,
    start: datetime | None = None,
    where: str | None = None,
) -> TrainerFile:
    """Parse and date one file; `start` anchors a file that carries no time at all."""
    where = where or path.name
    formats = formats_of(path) if formats is None else formats
    if not formats:
        return TrainerFile(
            path, [], Placed(pl.DataFrame(), []).rows, [f"{where}: no trainer format"]
        )
    text = None
    if any(f.text for f in formats):
        text = read_text(path, ctx)
    parsed = Parsed()
    for fmt in formats:
        got = fmt.parse(text, ctx) if fmt.text else fmt.parse(path, ctx)
        parsed = parsed.merge(got)
    if text is not None and not _measured(parsed.records):
        # The formats that recognised the file read no number from it (a NeMo log has
        # Megatron's `iteration N/M |` without Megatron's fields): a generic reader that
        # recognises it reads it instead.
        found = _generic_reading(path, text, ctx, formats, _measured)
        if found is not None:
            fmt, got = found
            notes = [f"{where}: {', '.join(f.name for f in formats)} read no number here"]
            parsed = Parsed(got.records, got.facts, got.starts, [*notes, *got.notes])
            formats = [fmt]
    elif text is not None and not _has_loss(parsed.records):
        # The formats that recognised the file read its speed but no loss: the script's
        # own progress lines print it (a DeepSpeed run's `step=` and samples/s lines
        # beside `[Step 3/100] Loss: 5.0037`). A generic reader that reads a loss there
        # adds its rows; the steps' two line shapes are merged when the rows are dated.
        found = _generic_reading(path, text, ctx, formats, _has_loss)
        if found is not None:
            fmt, got = found
            named = ", ".join(f.name for f in formats)
            parsed = parsed.merge(got)
            parsed.notes.append(f"{where}: {named} read no loss; the {fmt.name} reader's added")
            formats = [*formats, fmt]
    if text is not None:
        parsed.records = _with_tags(parsed.records, text.lines)
    anchors = (
        text.lines.filter(pl.col("ts").is_not_null()).select("line", "ts")
        if text is not None
        else pl.DataFrame(schema={"line": pl.Int64, "ts": pl.Datetime("us", "UTC")})
    )
    placed = place_records(parsed, anchors, given, where, start=start)
    notes = [*parsed.notes, *placed.notes]
    if text is not None and text.lossy:
        notes.insert(0, f"{where}: bytes that are not UTF-8 were replaced")
    if text is not None and text.incomplete:
        notes.insert(0, f"{where}: the last line is cut short (the file was being written)")
    return TrainerFile(path, [f.name for f in formats], placed.rows, notes, placed.last)


def _with_tags(records: pl.DataFrame, lines: pl.DataFrame) -> pl.DataFrame:
    """Records with the rank and host their line's launcher tag states, where the parser
    read none of its own."""
    tags = lines.group_by("line").agg(
        _rank=pl.col("rank").drop_nulls().first(), _host=pl.col("host").drop_nulls().first()
    )
    return (
        records.join(tags, on="line", how="left", maintain_order="left")
        .with_columns(rank=pl.coalesce("rank", "_rank"), host=pl.coalesce("host", "_host"))
        .drop("_rank", "_host")
    )


def raw_samples(rows: pl.DataFrame, host: pl.Expr, origin: str) -> pl.LazyFrame:
    """Dated rows as raw samples (RAW_SCHEMA): one per quantity a row has."""
    from incidentbook.metrics.frames import CAT, RAW_SCHEMA

    if rows.height == 0:
        return RAW_SCHEMA.to_frame().lazy()
    values = {QUANTITIES[c]: pl.col(c) for c in QUANTITIES}
    values[ITERATION_METRIC] = pl.col("iteration").cast(pl.Float64)
    return (
        rows.lazy()
        .select("ts", node=host, **values)
        .unpivot(index=["ts", "node"], variable_name="metric", value_name="value")
        .filter(pl.col("value").is_not_null())
        .select(
            "ts",
            pl.col("metric").cast(CAT),
            "value",
            pl.col("node").cast(CAT),
            gpu=pl.lit(None, CAT),
            labels=pl.lit(f"source={origin}").cast(CAT),
        )
    )
