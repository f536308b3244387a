"""Keras's progress output (`model.fit`): Keras 2 and 3, verbose 1 and 2, Keras 1.

    Epoch 3/15
    422/422 [==============================] - 14s 33ms/step - loss: 0.0845 - val_loss: 0.0469
    128/128 - 0s - loss: 2.8229 - accuracy: 0.1977 - 355ms/epoch - 3ms/step     (verbose=2)
     183/183 ━━━━━━━━━━━━━━━━━━━━ 5087s 25s/step - accuracy: 0.2563 - loss: 1.3884  (Keras 3)
     42/110 [==========>...................] - ETA: 1:12 - loss: 6105.9018     (a bar's update)
    72s - loss: 2.6021 - acc: 0.1944 - val_loss: 2.5605                         (Keras 1)

The counter (`422/422`) counts the epoch's steps (its samples, in Keras 1 and 2.0, which
say `Train on 8000 samples`); the step is made one count across epochs from the `Epoch
N/M` line before it ((N - 1) x steps per epoch + counter). The loss is the running mean
of the epoch so far, `val_loss` is left alone. The step time is what the line says per
step (`33ms/step`), else the epoch's time over its steps; on a bar's update, which states
only the time left (`ETA: 1:12`), it is that time over the steps left, which is how Keras
works the ETA out (the mean time per step so far). Keras 1's lines count no steps: each is
one epoch, and its time is the epoch's. No line carries a time of day: rows are dated from
incident.yaml's trainer.start, or from a timestamped line of another logger (TensorFlow's
own) before them, by the step times.
"""

from __future__ import annotations

import polars as pl

from incidentbook.sources.trainer.base import (
    Context,
    Parsed,
    TrainerFormat,
    TrainerText,
    clock_seconds,
    key_values,
    records,
    to_float,
    unreadable,
)

_EPOCH = r"^\s*Epoch (\d+)/(\d+)\s*$"
_BAR = r"(?:\[[=>.]*\]|━+)"
_SECONDS = r"(\d+(?:\.\d+)?)(s|ms|us)"
_PROGRESS = (
    r"^\s*(?:(?P<n>\d+)/(?P<total>\d+|Unknown) (?:" + _BAR + r" )?)?-? ?"
    r"(?:ETA: (?P<eta>[\d:]+s?)|(?P<elapsed>\d+(?:\.\d+)?)(?P<elapsed_unit>s|ms|us)"
    r"(?: \d+(?:\.\d+)?(?:s|ms|us)/(?:step|sample))?)(?P<rest>(?: - .*)?)$"
)
SNIFF = (
    r"^\s*\d+/(?:\d+|Unknown) (?:\[[=>.]+\] - (?:ETA: |\d)|━+ \d|- \d+m?s - )"
    r"|^\s*Epoch \d+/\d+\s*\n\s*\d+s - \w+: "
)
_KEYS = {"loss": "loss", "lr": "learning_rate", "learningrate": "learning_rate"}
_N = pl.col("n").cast(pl.Int64)  # the counter's steps (or samples) so far in the epoch
_TOTAL = pl.col("total").cast(pl.Int64, strict=False)  # the epoch's, null for `Unknown`
_UNIT = {"s": 1.0, "ms": 1e-3, "us": 1e-6}


def _seconds(value: pl.Expr, unit: pl.Expr) -> pl.Expr:
    return value.cast(pl.Float64, strict=False) * unit.replace_strict(
        _UNIT, default=None, return_dtype=pl.Float64
    )


def _per(text: pl.Expr, what: str) -> pl.Expr:
    """Seconds per `what` (`step`, `sample`, `epoch`) where the line states them."""
    g = text.str.extract_groups(_SECONDS + "/" + what + r"\b")
    return _seconds(g.struct.field("1"), g.struct.field("2"))


def _clock(eta: pl.Expr) -> pl.Expr:
    """Keras's time left: `59s`, `1:12` (m:ss) or `1:02:03` (h:mm:ss), in seconds."""
    return clock_seconds(eta.str.strip_suffix("s"))


def _training(steps: pl.DataFrame) -> pl.DataFrame:
    """The lines of an epoch's training: those before the line that ends it (`n == total`)
    after its `Epoch` line. Bars after it and before the next `Epoch` line are
    `model.evaluate` or `predict`, whose counts are not steps; a `469/Unknown` line of an
    epoch whose end states its steps is that epoch seen before Keras knew its length."""
    ended = (_N == _TOTAL).fill_null(False).cast(pl.Int32)
    after_end = (ended.cum_sum() - ended).over("_seg") > 0
    unknown = (pl.col("total") == "Unknown") & _TOTAL.max().over("_seg").is_not_null()
    return steps.filter(~after_end & ~unknown)


def parse(text: TrainerText, ctx: Context) -> Parsed:
    where = text.path.name
    lines = text.lines.with_columns(
        body=pl.col("text").str.replace_all("\x08", "", literal=True),
    ).with_columns(_epoch=pl.col("body").str.extract(_EPOCH, 1).cast(pl.Int64))
    lines = lines.with_columns(
        _seg=pl.col("_epoch").is_not_null().cum_sum(),
        _epoch=pl.col("_epoch").forward_fill(),
        _p=pl.col("body").str.extract_groups(_PROGRESS),
    )
    steps = _training(lines.filter(pl.col("_p").struct.field("rest").is_not_null()).unnest("_p"))
    if text.incomplete and steps.height:
        steps = steps.filter(pl.col("line") != text.lines.get_column("line").max())
    fields = key_values(
        steps.select(pl.col("rest").str.strip_prefix(" - ").alias("text")), _KEYS, " - "
    )
    numbers = fields.select(to_float(pl.col(c)).alias(c) for c in fields.columns)
    body, n, total = pl.col("body"), _N, _TOTAL
    of = total.max().over("_seg")  # the epoch's count of steps
    epoch_seconds = pl.coalesce(
        _per(body, "epoch"), _seconds(pl.col("elapsed"), pl.col("elapsed_unit"))
    )
    # (`ETA: 0s` is under a second left, rounded: no time per step can be read from it)
    left = _clock(pl.col("eta"))
    frame = pl.concat([steps, numbers], how="horizontal").with_columns(
        iteration=pl.when(n.is_null())
        .then(pl.col("_epoch"))
        .when(pl.col("_epoch").is_not_null() & of.is_not_null())
        .then((pl.col("_epoch") - 1) * of + n)
        .otherwise(n),
        step_time=pl.when(n.is_null())
        .then(epoch_seconds)
        .when(pl.col("eta").is_not_null())
        .then(pl.when((total > n) & (left > 0)).then(left / (total - n)))
        .otherwise(pl.coalesce(_per(body, "step"), epoch_seconds / n)),
        samples_per_second=1 / _per(body, "sample"),
        kind=pl.lit("keras"),
    )
    notes = unreadable(fields, numbers, where)
    counted = frame.filter(n.is_not_null())
    said = text.lines.filter(pl.col("text").str.contains(r"^\s*Train on \d+ samples")).height
    if counted.height and (said or counted.get_column("samples_per_second").is_not_null().any()):
        notes.append(f"{where}: Keras counts samples here, not steps: the steps are samples")
    if frame.height > counted.height:
        notes.append(f"{where}: Keras printed one line per epoch: each step is an epoch")
    return Parsed(records(frame), {}, [], notes)


FORMAT = TrainerFormat("keras", "Keras model.fit progress lines", SNIFF, parse)
