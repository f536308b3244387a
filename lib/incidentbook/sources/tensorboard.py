"""TensorBoard event files as a metrics source.

    TensorBoardSource([runs_dir]).metrics(window, signals)
    open_source("tensorboard:///path/to/runs")       # the registered `tensorboard` scheme

The files are read with TensorBoard's own reader
(tensorboard.backend.event_processing.event_file_loader.EventFileLoader): it is the
format's reference implementation, maintained with TensorBoard itself, reads the record
framing and checksums, and migrates TF1 `simple_value` summaries to the tensor form the
newer writers (TF2, tensorboardX >= 2.6, torch.utils.tensorboard) use, so one code path
reads them all. It needs no TensorFlow. (tbparse wraps the same reader into pandas and
has seen no release since 2024; tensorboardX can write but not read.)

Each scalar event is (wall time, step, tag, value). A signal's `tensorboard:` entry in
the pack names its tags; the event's wall time is the sample's time (TensorBoard has no
other), the host incident.yaml's trainer.host (TensorBoard knows none). A restarted run
writes a new event file whose steps go back: both are kept, as they happened, and the
training-health detectors see the restart.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import polars as pl

from incidentbook.incident import TrainerSpec
from incidentbook.metrics.data import Metrics, MetricsError, MetricsReceipt, NoDataError, find_gaps
from incidentbook.metrics.frames import SIGNAL_SCHEMA, UTC_US, conform
from incidentbook.metrics.signals import Signal, TensorBoardTag
from incidentbook.window import TimeWindow

EVENTS_GLOB = "*tfevents*"
_SCALARS = pl.Schema(
    {
        "file": pl.String,
        "wall_time": pl.Float64,
        "step": pl.Int64,
        "tag": pl.String,
        "value": pl.Float64,
    }
)


def find_event_files(paths: list[Path]) -> list[Path]:
    found = []
    for path in paths:
        if path.is_dir():
            found += [p for p in path.rglob(EVENTS_GLOB) if p.is_file()]
        elif path.is_file():
            found.append(path)
    return sorted(set(found))


def read_scalars(path: Path) -> tuple[pl.DataFrame, str | None]:
    """A file's scalar events, and a note if it ended early (a run still writing, or a
    corrupt record: what came before is kept)."""
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    from tensorboard.util import tensor_util

    rows: dict[str, list] = {c: [] for c in _SCALARS}
    note = None
    try:
        for event in EventFileLoader(str(path)).Load():
            if not event.HasField("summary"):
                continue
            for value in event.summary.value:
                if value.WhichOneof("value") != "tensor":
                    continue
                array = tensor_util.make_ndarray(value.tensor)
                if array.ndim != 0 or array.dtype.kind not in "fiub":
                    continue
                rows["file"].append(str(path))
                rows["wall_time"].append(float(event.wall_time))
                rows["step"].append(int(event.step))
                rows["tag"].append(value.tag)
                rows["value"].append(float(array))
    except Exception as exc:  # the reader raises its own errors for a torn record
        note = (
            f"{path.name}: reading stopped early ({type(exc).__name__}: {exc}); "
            "the events before are kept"
        )
    return pl.DataFrame(rows, schema=_SCALARS), note


def _pick(tags: list[str], spec: TensorBoardTag) -> str | None:
    for wanted in spec.tag:
        for tag in tags:
            if tag == wanted or fnmatch.fnmatchcase(tag, wanted):
                return tag
    return None


class TensorBoardSource:
    """Metrics from TensorBoard event files (the Source contract; no logs)."""

    def __init__(
        self, paths: list[Path], *, trainer: TrainerSpec | None = None, root: Path | None = None
    ):
        self.paths = paths
        self.trainer = trainer or TrainerSpec()
        self.root = root
        self._scalars: pl.DataFrame | None = None
        self._notes: list[str] = []

    def __repr__(self) -> str:
        return f"TensorBoardSource({[str(p) for p in self.paths]!r})"

    def logs(self, window: TimeWindow) -> None:
        return None

    def files(self) -> list[Path]:
        return find_event_files(self.paths)

    def scalars(self) -> pl.DataFrame:
        if self._scalars is None:
            try:
                import tensorboard  # noqa: F401
            except ModuleNotFoundError:
                raise MetricsError(
                    "reading TensorBoard event files needs the Python package 'tensorboard': "
                    "pip install tensorboard"
                ) from None
            parts = []
            for path in self.files():
                frame, note = read_scalars(path)
                parts.append(frame)
                if note is None and frame.height == 0:
                    note = (
                        f"{path.name}: no scalar events read (empty, corrupt, or not a "
                        "TensorBoard event file)"
                    )
                if note:
                    self._notes.append(note)
            self._scalars = pl.concat(parts) if parts else _SCALARS.to_frame()
        return self._scalars

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics | None:
        files = self.files()
        if not files:
            return None
        scalars = self.scalars().with_columns(
            ts=pl.from_epoch((pl.col("wall_time") * 1e6).cast(pl.Int64), time_unit="us")
            .dt.replace_time_zone("UTC")
            .cast(UTC_US)
        )
        inside = scalars.filter(window.contains())
        if inside.height == 0:
            span = ""
            if scalars.height:
                lo, hi = scalars.select(pl.col("ts").min(), pl.col("ts").max()).row(0)
                span = f"; they cover {lo:%Y-%m-%d %H:%M:%S} to {hi:%Y-%m-%d %H:%M:%S} UTC"
            raise NoDataError(
                f"no TensorBoard scalars in the window in {len(files)} event files{span}"
                + "".join(f"; {n}" for n in self._notes)
            )
        tags = sorted(inside.get_column("tag").unique().to_list())
        host = self.trainer.host or "trainer"
        gpus = self.trainer.gpus
        parts, notes, used = [], list(self._notes), {}
        for signal in signals:
            for spec in signal.tensorboard or ():
                tag = _pick(tags, spec)
                if tag is None:
                    continue
                if spec.per_gpu and gpus is None:
                    notes.append(
                        f"TensorBoard tag {tag!r} is per GPU: set trainer.gpus in incident.yaml "
                        f"for {signal.name}"
                    )
                    continue
                rows = inside.filter(pl.col("tag") == tag) if spec.tag != ("*",) else inside
                value = pl.col("step").cast(pl.Float64) if spec.value == "step" else pl.col("value")
                factor = spec.scale * (gpus if spec.per_gpu else 1)
                parts.append(
                    rows.group_by("ts")
                    .agg(
                        value=(value * factor).max()
                        if spec.value == "step"
                        else (value * factor).mean()
                    )
                    .select(
                        "ts",
                        signal=pl.lit(signal.name),
                        node=pl.lit(host),
                        gpu=pl.lit(None, pl.String),
                        value="value",
                    )
                )
                used[signal.name] = tag
                break
        frame = (
            pl.concat(parts)
            .filter(pl.col("value").is_finite())
            .sort(["signal", "node", "gpu", "ts"], nulls_last=True)
            if parts
            else SIGNAL_SCHEMA.to_frame()
        )
        frame = conform(frame)
        if used:
            notes.append(
                "TensorBoard tags read: "
                + ", ".join(f"{s} <- {t!r}" for s, t in sorted(used.items()) if t != "*")
            )
        where = [
            str(p.relative_to(self.root)) if self.root and p.is_relative_to(self.root) else str(p)
            for p in files
        ]
        receipt = MetricsReceipt(files=where, rows_read=inside.height, remarks=notes)
        for signal in signals:
            if signal.name not in used:
                receipt.missing_signals[signal.name] = "no TensorBoard tag of it"
        receipt.gaps = find_gaps(frame)
        return Metrics(frame=frame, receipt=receipt, window=window)


def open_tensorboard(uri: str, **options) -> TensorBoardSource:
    """The `tensorboard` scheme: `tensorboard:///path/to/runs` (a folder or one file)."""
    return TensorBoardSource([Path(uri.split("://", 1)[-1])])


__all__ = ["TensorBoardSource", "find_event_files", "open_tensorboard", "read_scalars"]
