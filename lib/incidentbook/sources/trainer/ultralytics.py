"""Ultralytics' training table (YOLOv5, YOLOv8 and later): a header, then tqdm's rows.

          Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size
        44/1000      6.73G      1.145     0.5266       1.11          6        640: 100%|██| 16/16
              [00:06<00:00,  2.65it/s]           (one line; cut here)
                     Class     Images  Instances      Box(P          R      mAP50  mAP50-95): ...

A row's columns are named by the header above it; its loss is the sum of the `*_loss`
columns (Ultralytics' loss is the sum of its parts, which it prints as the epoch's running
means). tqdm's part says the batch within the epoch (`16/16`) and its rate, smoothed
(`2.65it/s`, or `1.80s/it` when slower than one a second): the step time. Ultralytics
8.3 and later draw their own bar, the count and rate after it (`4% ━──── 300/6848
2.7it/s 1:50<39:58`). The step is
the epoch as printed times the epoch's batches plus the batch (one count across epochs;
YOLOv5 prints epochs from 0, later versions from 1). Validation rows (`Class`, `all`) are
not steps. No row carries a time of day: rows are dated from incident.yaml's
trainer.start by their step times. Rows tqdm redrew on one line (`\\r`) are each read.
Rows with no header above them (an excerpt cut below it) take every value but the last
two, Instances and Size, as the losses.
"""

from __future__ import annotations

import polars as pl

from incidentbook.sources.trainer.base import (
    Context,
    Parsed,
    TrainerFormat,
    TrainerText,
    records,
)

_HEADER = r"^\s*Epoch\s+GPU_mem\s+(?P<names>.*?)\s*$"
# (tqdm's bar `4%|▏  | 300/6848 [01:50<39:58, 2.70it/s]`, or Ultralytics' own since 8.3,
# `4% ━────── 300/6848 2.7it/s 1:50<39:58`: the count, then the rate)
_ROW = (
    r"^\s*(?P<epoch>\d+)/(?P<epochs>\d+)\s+(?P<mem>[\d.]+[KMGT]?)\s+(?P<values>[^:]*?)\s*:\s+"
    r"\d+%\s*(?:\|[^|]*\||\S+)\s*(?P<batch>\d+)/(?P<batches>\d+)\s*(?:\[[^\]<]*<[^\],]*,\s*)?"
    r"(?P<rate>[\d.]+)(?P<rate_unit>it/s|s/it)\b"
)
# (or rows with no header above them, as a pasted excerpt starts: the epoch, the memory,
# the running losses, then Instances and Size before tqdm's bar)
SNIFF = (
    r"^\s*Epoch\s+GPU_mem\s+\w*loss"
    r"|^\s*\d+/\d+\s+[\d.]+[KMGT]\s+(?:[\d.]+\s+){2,}\d+\s+\d+\s*:\s+\d+%\|"
)


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    names = pl.col("text").str.extract(_HEADER, 1).str.extract_all(r"\S+")
    lines = text.lines.with_columns(_names=names).with_columns(
        # each row is named by the last header before it
        _names=pl.col("_names").forward_fill(),
        _row=pl.col("text").str.extract_groups(_ROW),
    )
    rows = lines.filter(pl.col("_row").struct.field("epoch").is_not_null()).unnest("_row")
    values = pl.col("values").str.extract_all(r"\S+")
    # The header's names after GPU_mem, and a row's values after its memory, line up.
    lossy = pl.col("_names").list.eval(pl.element().str.ends_with("_loss").arg_true())
    numbers = values.list.eval(pl.element().cast(pl.Float64, strict=False))
    loss = pl.coalesce(
        numbers.list.gather(lossy, null_on_oob=True).list.sum(),
        # no header: every value but the last two (Instances and Size, which Ultralytics
        # prints last in every task) is a loss
        pl.when(pl.col("_names").is_null() & (values.list.len() > 2)).then(
            numbers.list.slice(0, values.list.len() - 2).list.sum()
        ),
    )
    rate = pl.col("rate").cast(pl.Float64, strict=False)
    batches = pl.col("batches").cast(pl.Int64)
    frame = rows.with_columns(
        iteration=pl.col("epoch").cast(pl.Int64) * batches + pl.col("batch").cast(pl.Int64),
        loss=pl.when((lossy.list.len() > 0) | pl.col("_names").is_null()).then(loss),
        step_time=pl.when(pl.col("rate_unit") == "s/it").then(rate).otherwise(1 / rate),
        kind=pl.lit("ultralytics"),
    )
    notes = []
    if frame.height and frame.get_column("loss").null_count() == frame.height:
        notes.append(f"{where}: the table's header names no loss column; steps read without loss")
    return Parsed(records(frame), {}, [], notes)


FORMAT = TrainerFormat("ultralytics", "Ultralytics (YOLO) training table", SNIFF, parse)
