"""PyTorch Lightning's CSVLogger: metrics.csv.

    epoch,epoch_time,step,train_loss_epoch,train_loss_step,val_loss
    0,,49,,7.6285,
    0,2517.1,14073,4.7769,,

One header of every metric name seen, and sparse rows: each fills only what was logged
at that moment (a step's training loss, a validation pass, an epoch's end). Column names
are the user's: the loss is the training loss logged per step (`train_loss_step`,
`train_loss`, `loss`), the learning rate LearningRateMonitor's `lr-*`, a grad norm any
`grad*norm*` column, throughput ThroughputMonitor's `*tokens_per_sec`/`*samples_per_sec`.
There is no time at all: rows are dated from incident.yaml's trainer.start (or where the
previous file of the run ended, for a resumed run's new version_N), each step taking its
epoch's duration over the epoch's steps where an epoch-duration column exists
(`epoch_time`); without one they cannot be dated.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from incidentbook.sources.trainer.base import Context, Parsed, TrainerFormat, records

_LOSS = [r"train[_/]?loss(?:_step)?", r"loss_step", r"loss"]
_DURATION = r"epoch_(?:time|duration)|time_per_epoch"


def _pick(columns: list[str], patterns: list[str]) -> str | None:
    for pattern in patterns:
        for name in columns:
            if re.fullmatch(pattern, name):
                return name
    return None


def parse(path: Path, ctx: Context) -> Parsed:
    where = path.name
    try:
        table = pl.read_csv(path, infer_schema_length=0, truncate_ragged_lines=True)
    except (pl.exceptions.PolarsError, OSError) as exc:
        return Parsed(
            notes=[f"{where}: not readable as CSV ({str(exc).splitlines()[0]}); left out"]
        )
    columns = table.columns
    if "step" not in columns:
        return Parsed(notes=[f"{where}: no step column; not a Lightning metrics.csv"])
    wanted = {
        "loss": _pick(columns, _LOSS),
        "learning_rate": next((c for c in columns if c.startswith("lr-") or c == "lr"), None),
        "grad_norm": next((c for c in columns if re.search(r"grad.*norm", c)), None),
        "tokens_per_second": next(
            (c for c in columns if c.endswith("tokens_per_sec") and "device" not in c), None
        ),
        "samples_per_second": next(
            (c for c in columns if c.endswith("samples_per_sec") and "device" not in c), None
        ),
        "duration": next((c for c in columns if re.fullmatch(_DURATION, c)), None),
        "epoch": "epoch" if "epoch" in columns else None,
    }
    picked = {k: v for k, v in wanted.items() if v}
    numbers = table.select(
        pl.col("step").cast(pl.Float64, strict=False).alias("iteration"),
        *(pl.col(v).cast(pl.Float64, strict=False).alias(k) for k, v in picked.items()),
    )
    bad = sum(
        int((table.get_column(v).is_not_null() & numbers.get_column(k).is_null()).sum())
        for k, v in picked.items()
    )
    notes = [f"{where}: {bad} cells are not numbers; left out"] if bad else []
    # Sparse rows of one step are one record.
    steps = (
        numbers.filter(pl.col("iteration").is_not_null())
        .group_by("iteration", maintain_order=True)
        .agg(pl.all().drop_nulls().first())
        .sort("iteration")
    )
    if "duration" in picked and "epoch" in picked and steps.height:
        gap = float(steps.get_column("iteration").diff().median() or 1)
        first_bound = steps.get_column("iteration").min() - gap
        bounds = (
            steps.group_by("epoch")
            .agg(last=pl.col("iteration").max(), seconds=pl.col("duration").drop_nulls().first())
            .sort("epoch")
            # Before a file's first epoch: its first logged step less the logging gap.
            .with_columns(first=pl.col("last").shift(1).fill_null(steps["iteration"].min() - gap))
        )
        bounds = bounds.with_columns(
            per_step=pl.col("seconds") / (pl.col("last") - pl.col("first"))
        )
        steps = steps.join(bounds.select("epoch", "per_step"), on="epoch", how="left").with_columns(
            span=pl.col("iteration").diff().fill_null(pl.col("iteration") - first_bound)
            * pl.col("per_step")
        )
        notes.append(
            f"{where}: metrics.csv carries no time: each step takes its epoch's "
            f"{picked['duration']} "
            "over the epoch's steps (inferred)"
        )
    else:
        notes.append(
            f"{where}: metrics.csv carries no time and no epoch duration: its steps cannot be dated"
        )
    rows = steps.filter(
        pl.any_horizontal(
            pl.col(c).is_not_null() for c in ("loss", "learning_rate", "grad_norm") if c in picked
        )
        if any(c in picked for c in ("loss", "learning_rate", "grad_norm"))
        else pl.lit(True)
    )
    rows = rows.with_columns(
        pl.col("iteration").cast(pl.Int64),
        kind=pl.lit("lightning"),
        line=pl.col("iteration").cast(pl.Int64),
    )
    return Parsed(records(rows), {}, [], notes)


FORMAT = TrainerFormat(
    "lightning-csv",
    "PyTorch Lightning CSVLogger metrics.csv",
    r"\A[^\n]*\bstep\b[^\n]*\n",
    parse,
    text=False,
    names=("*metrics*.csv",),
)
