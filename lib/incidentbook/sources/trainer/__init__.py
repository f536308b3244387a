"""Metrics from the trainer's own log: Megatron-LM and Megatron-DeepSpeed, nanotron,
torchtitan, DeepSpeed, Hugging Face's Trainer (printed dicts and trainer_state.json) and
PyTorch Lightning's metrics.csv.

    TrainerLogSource([path, ...], trainer=spec.trainer).metrics(window, signals)
    open_source("trainer:///path/to/train.log")     # the registered `trainer` scheme

Each file is sniffed (sources.trainer.read.TRAINER_FORMATS, one module per family),
parsed into records, dated and completed (sources.trainer.timeline), and turned into
raw samples under the trainer_* metric names the signal pack reads, so the reductions of
metrics files apply unchanged. The incident folder merges these with its metrics/ files
(sources.merge); this source alone is for a log outside any folder.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import polars as pl

from incidentbook.incident import TrainerSpec
from incidentbook.metrics.data import Metrics, MetricsReceipt, NoDataError, find_gaps
from incidentbook.metrics.frames import signal_frame
from incidentbook.metrics.signals import Signal
from incidentbook.sources.trainer.base import RECORD_SCHEMA, Context
from incidentbook.sources.trainer.read import (
    TRAINER_FORMATS,
    TrainerFile,
    formats_of,
    raw_samples,
    read_trainer_file,
)
from incidentbook.sources.trainer.timeline import Given
from incidentbook.window import TimeWindow

__all__ = ["TRAINER_FORMATS", "TrainerLogSource", "find_trainer_logs", "open_trainer_log"]

_DUPLICATE_SECONDS = 60
_EMPTY = pl.Schema(
    {
        **RECORD_SCHEMA,
        "segment": pl.Int64,
        "delta": pl.Float64,
        "inferred": pl.Boolean,
        "host": pl.String,
        "file": pl.String,
    }
)


def _natural(path: Path) -> list:
    """version_10 after version_9: the order a resumed run's files were written in."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", str(path))]


def find_trainer_logs(paths: list[Path]) -> list[Path]:
    """The files among `paths` (and under those that are folders) a trainer format reads."""
    found = []
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        found += [p for p in files if formats_of(p)]
    return sorted(set(found), key=_natural)


class TrainerLogSource:
    """Metrics from trainer logs (the Source contract; it has no logs of its own: the
    log readers read the same files as messages).

    `hosts`: a host for each file (logs/<host>/train.log) where its lines name none.
    """

    def __init__(
        self,
        paths: list[Path],
        *,
        trainer: TrainerSpec | None = None,
        tz: str = "UTC",
        hosts: dict[Path, str] | None = None,
        root: Path | None = None,
    ):
        self.paths = sorted(paths, key=_natural)
        self.trainer = trainer or TrainerSpec()
        self.tz = self.trainer.timezone or tz
        self.hosts = hosts or {}
        self.root = root
        self._read: dict[tuple, tuple[pl.DataFrame, list[str]]] = {}

    def __repr__(self) -> str:
        return f"TrainerLogSource({[str(p) for p in self.paths]!r})"

    def logs(self, window: TimeWindow) -> None:
        return None

    def _where(self, path: Path) -> str:
        if self.root is not None and path.is_relative_to(self.root):
            return str(path.relative_to(self.root))
        return path.name

    def _host(self, path: Path) -> pl.Expr:
        ranks = self.trainer.hosts
        by_rank = (
            pl.col("rank").replace_strict(
                {int(k): v for k, v in ranks.items()}, default=None, return_dtype=pl.String
            )
            if ranks
            else pl.lit(None, pl.String)
        )
        fallback = self.trainer.host or self.hosts.get(path) or "trainer"
        return pl.coalesce(pl.col("host"), by_rank, pl.lit(fallback))

    def rows(self, window: TimeWindow) -> tuple[pl.DataFrame, list[str]]:
        """Every file's dated rows in the window (with `host` and `file`), and the notes."""
        key = (window.start, window.end)
        if key in self._read:
            return self._read[key]
        trainer = self.trainer
        day = trainer.start.astimezone(ZoneInfo(self.tz)).date() if trainer.start else None
        ctx = Context(tz=self.tz, year=window.start.year, latest=window.end, day=day)
        given = Given(trainer.global_batch_size, trainer.seq_length, trainer.gpus, trainer.start)
        parts, notes = [], []
        ends: dict[str, datetime] = {}
        for path in self.paths:
            formats = formats_of(path)
            if not formats:
                notes.append(f"{self._where(path)}: no trainer format recognises it; left out")
                continue
            family = formats[0].name
            try:
                got: TrainerFile = read_trainer_file(
                    path,
                    ctx,
                    given,
                    formats=formats,
                    start=ends.get(family) or trainer.start,
                    where=self._where(path),
                )
            except (OSError, pl.exceptions.PolarsError) as exc:
                reason = (
                    str(exc).strip().splitlines()[0][:200]
                    if str(exc).strip()
                    else type(exc).__name__
                )
                notes.append(f"{self._where(path)}: cannot be read ({reason}); left out")
                continue
            notes += got.notes
            if got.last is not None:
                ends[family] = got.last
            if got.rows.height:
                parts.append(
                    got.rows.with_columns(host=self._host(path), file=pl.lit(self._where(path)))
                )
        rows = pl.concat(parts, how="diagonal_relaxed") if parts else _EMPTY.to_frame()
        if rows.height:
            covered = rows.select(lo=pl.col("ts").min(), hi=pl.col("ts").max()).row(0)
            rows, copies = _across_files(rows)
            if copies:
                notes.append(
                    f"{copies} iteration rows were in more than one file (the same iteration "
                    f"within {_DUPLICATE_SECONDS} s): the first file's are used"
                )
            rows = rows.filter(window.contains())
            if rows.height == 0:
                notes.append(
                    f"the trainer logs cover {covered[0]:%Y-%m-%d %H:%M:%S} to "
                    f"{covered[1]:%Y-%m-%d %H:%M:%S} UTC, none of the window"
                )
        self._read[key] = (rows, notes)
        return rows, notes

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics | None:
        """The signals the trainer logs give over the window; None when no file is a
        trainer log. Raises NoDataError when they give nothing in the window."""
        if not self.paths:
            return None
        rows, notes = self.rows(window)
        if rows.height == 0:
            raise NoDataError(
                "no iteration lines of the trainer logs in the window"
                + (f" ({notes[-1]})" if notes else "")
            )
        raw = raw_samples(rows, pl.col("host"), "trainer_log")
        frame, duplicates, count = signal_frame(raw, signals)
        receipt = MetricsReceipt(
            files=[self._where(p) for p in self.paths],
            rows_read=count,
            duplicates_dropped=duplicates,
            remarks=notes,
        )
        present = set(frame.get_column("signal").unique().to_list())
        for signal in signals:
            if signal.name not in present:
                receipt.missing_signals[signal.name] = "the trainer logs do not give it"
        receipt.gaps = find_gaps(frame)
        return Metrics(frame=frame, receipt=receipt, window=window)


def _across_files(rows: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """Iteration rows of one iteration from several files (each rank writing its own copy
    of the log) count once."""
    if rows.get_column("file").n_unique() < 2:
        return rows, 0
    iterations = rows.filter(pl.col("iteration").is_not_null()).sort("iteration", "ts", "file")
    gap = (pl.col("ts") - pl.col("ts").shift(1)).dt.total_seconds().abs()
    copy = (
        (pl.col("iteration") == pl.col("iteration").shift(1))
        & (pl.col("file") != pl.col("file").shift(1))
        & (gap < _DUPLICATE_SECONDS)
    ).fill_null(False)
    kept = iterations.filter(~copy)
    events = rows.filter(pl.col("iteration").is_null())
    return pl.concat([kept, events]).sort("ts"), iterations.height - kept.height


def open_trainer_log(uri: str, **options) -> TrainerLogSource:
    """The `trainer` scheme: `trainer:///path/to/log` or a folder of logs."""
    path = Path(uri.split("://", 1)[-1])
    return TrainerLogSource(find_trainer_logs([path]))
