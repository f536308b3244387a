"""Metrics files of an incident folder: Parquet, CSV and OpenMetrics text, read lazily.

Each file is scanned with the window and the wanted metrics pushed down, so a day of
samples is not read to look at two hours of it. Every reader returns the raw samples in
the canonical schema (metrics.frames.RAW_SCHEMA), so nothing downstream knows the file's
format. A new file format is a reader here and its suffix in READERS. A Parquet
file's footer (metric_groups) says which metrics each row group holds, where the writer
kept statistics: FolderSource then scans a file whose groups each hold one metric once per
signal, and names its metrics without reading the column (metrics_in).

A reader also says what it had to assume and plans the count of what it leaves out
(FileScan): timestamps given as bare epoch numbers are read in the unit incident.yaml
states (`timestamp_unit`) or the one their magnitude implies, and that is said; samples
without a time or a value, NaN and infinite values, and negative values of a counter
are left out and counted by reason and metric, in the same pass as the samples
themselves. Timestamps or values that cannot be read at all are an error that names the
file, the column, an example line and what to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

import polars as pl

from incidentbook.errors import IncidentbookError, LoadNote
from incidentbook.metrics.data import MetricsError
from incidentbook.metrics.frames import UTC_US
from incidentbook.metrics.signals import CURRENT_NAME, Signal
from incidentbook.sources.base import HOST_LABELS, host_of
from incidentbook.sources.objects import ObjectPath, storage_options
from incidentbook.window import TimeWindow

_REQUIRED = ("timestamp", "metric", "value")
_OFFSET = re.compile(r"(Z|[+-]\d{2}:?\d{2})$")
_EPOCH = re.compile(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?")

Unit = Literal["s", "ms", "us", "ns"]
_PER_SECOND: dict[str, int] = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}
_LAST_SECOND = datetime(9999, 12, 31, tzinfo=UTC).timestamp()
_UNIT_WORD = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}

# Why a sample was left out. The fatal ones stop loading with an error naming the file.
NO_TIMESTAMP = "no timestamp"
NO_VALUE = "no value (empty or null)"
NOT_FINITE = "value NaN or infinite"
NEGATIVE_COUNTER = "negative value of a counter (counters start at 0 and only go up)"
BAD_TIMESTAMP = "unreadable timestamp"
BAD_VALUE = "value is not a number"
FATAL = {
    BAD_TIMESTAMP: (
        "timestamp",
        "write every timestamp the same way: RFC 3339 with its UTC offset "
        "(2025-03-14T08:00:00Z, 2025-03-14T10:00:00+02:00) or epoch seconds",
    ),
    BAD_VALUE: (
        "value",
        "values must be numbers; leave the cell empty (or write NaN) for a missing sample",
    ),
}

# Internal columns: prefixed so that no label column of a file can collide with them.
_WHY, _EXAMPLE, _LINE, _RAW = "__ib_why", "__ib_example", "__ib_line", "__ib_raw_value"
_INTERNAL = {_WHY, _EXAMPLE, _LINE, _RAW}

CHECKS_SCHEMA = pl.Schema(
    {
        "file": pl.String,
        "reason": pl.String,
        "metric": pl.String,
        "rows": pl.UInt32,
        "example": pl.String,
    }
)


@dataclass
class FileScan:
    """One metrics file, planned: its samples, the count of what it leaves out, and what
    reading it assumed. Nothing is read until the frames are collected."""

    path: Path
    rows: pl.LazyFrame  # the samples kept, in the raw schema
    checks: pl.LazyFrame  # left-out samples: file, reason, metric, rows, example
    assumed: list[LoadNote] = field(default_factory=list)

    def explain(self) -> str:
        return self.rows.explain()


def epoch_unit(magnitude: float) -> Unit:
    """The unit of an epoch timestamp this large: seconds below 1e11 (up to the year
    5138), then milliseconds, microseconds and nanoseconds, each 1000 times the last."""
    size = abs(magnitude)
    for unit, bound in (("s", 1e11), ("ms", 1e14), ("us", 1e17)):
        if size < bound:
            return unit  # type: ignore[return-value]
    return "ns"


def _from_epoch(column: pl.Expr, unit: str, integer: bool) -> pl.Expr:
    """Epoch numbers in `unit` as UTC microseconds (integers exactly, floats rounded)."""
    per = _PER_SECOND[unit]
    if integer:
        us = column * (1_000_000 // per) if per <= 1_000_000 else column // (per // 1_000_000)
    else:
        us = (column * (1_000_000 / per)).round()
    return pl.from_epoch(us.cast(pl.Int64), time_unit="us").dt.replace_time_zone("UTC")


def _unit_note(path: Path, unit: str, magnitude: float, stated: str | None) -> LoadNote | None:
    """The note for epoch timestamps: what unit was used and why."""
    judged = epoch_unit(magnitude)
    seconds = magnitude / _PER_SECOND[unit]
    if seconds > _LAST_SECOND:
        raise MetricsError(
            f"{path}: timestamps read in {_UNIT_WORD[unit]} (incident.yaml's timestamp_unit) "
            f"fall after the year 9999 ({magnitude:.3g}); their magnitude suggests "
            f"{_UNIT_WORD[judged]}: correct timestamp_unit, or remove it to have it judged"
        )
    when = datetime.fromtimestamp(seconds, tz=UTC)
    if stated is not None:
        if stated == judged:
            return None
        return LoadNote(
            "assumed",
            str(path),
            f"timestamps read in {_UNIT_WORD[stated]}, as incident.yaml's timestamp_unit says, "
            f"though their magnitude ({magnitude:.3g}) suggests {_UNIT_WORD[judged]}; "
            f"({magnitude:.3g} read so: {when:%Y-%m-%d %H:%M} UTC)",
        )
    return LoadNote(
        "assumed",
        str(path),
        f"timestamps are bare epoch numbers: read as {_UNIT_WORD[unit]}, judged from their "
        f"magnitude ({magnitude:.3g}, read so: {when:%Y-%m-%d %H:%M} UTC); if that is wrong, "
        "set timestamp_unit (s, ms, us or ns) in incident.yaml",
    )


@dataclass(frozen=True)
class _Times:
    """How one file's timestamps become UTC microseconds."""

    ts: pl.Expr
    # A time in the file's own terms (its zone, its epoch unit), so that the window is
    # compared with the file's column and polars pushes it into the scan; None for text.
    bound: Callable[[datetime], object] | None = None
    note: LoadNote | None = None

    def pushdown(self, window: TimeWindow) -> pl.Expr | None:
        if self.bound is None:
            return None
        raw = pl.col("timestamp")
        return (raw >= self.bound(window.start)) & (raw < self.bound(window.end))


def _parquet(path: Path | ObjectPath) -> pl.LazyFrame:
    """A Parquet file's lazy scan, local or on object storage (sources.objects)."""
    if isinstance(path, ObjectPath):
        return pl.scan_parquet(path.uri, storage_options=storage_options(path.uri))
    return pl.scan_parquet(path)


def _csv(path: Path | ObjectPath, **options) -> pl.LazyFrame:
    """A CSV file's lazy scan, local or on object storage (sources.objects)."""
    if isinstance(path, ObjectPath):
        return pl.scan_csv(path.uri, storage_options=storage_options(path.uri), **options)
    return pl.scan_csv(path, **options)


def _text_times(path: Path, column: str, first: str | None, stated: str | None) -> _Times:
    """Timestamps written as text (CSV, OpenMetrics, a Parquet string column), judged by
    the first one: epoch numbers or RFC 3339 with an offset. Values that do not parse
    become null and are reported as BAD_TIMESTAMP."""
    raw = pl.col(column).cast(pl.String).str.strip_chars()
    if first is None:
        return _Times(pl.lit(None, UTC_US))
    first = first.strip()
    if _EPOCH.fullmatch(first):
        number = raw.cast(pl.Float64, strict=False)
        unit = stated or epoch_unit(float(first))
        note = _unit_note(path, unit, float(first), stated)
        return _Times(_from_epoch(number, unit, integer=False), note=note)
    if not _OFFSET.search(first):
        raise MetricsError(
            f"{path}: timestamp {first!r} has no UTC offset; write RFC 3339 with an offset "
            "(2025-03-14T08:00:00Z) or epoch seconds, so the window means the same everywhere"
        )
    # An explicit format is several times faster than inference (PITFALLS.md).
    normalised = raw.str.replace(" ", "T").str.replace(r"Z$", "+00:00")
    ts = normalised.str.to_datetime(
        "%Y-%m-%dT%H:%M:%S%.f%:z", time_zone="UTC", time_unit="us", strict=False
    )
    return _Times(ts)


def _parquet_times(path: Path, frame: pl.LazyFrame, dtype: pl.DataType, unit: str | None) -> _Times:
    raw = pl.col("timestamp")
    if isinstance(dtype, pl.Datetime):
        if dtype.time_zone is None:
            raise MetricsError(
                f"{path}: the timestamp column has no time zone (naive datetimes); "
                "write timestamps as UTC (polars: Datetime('us', 'UTC'))"
            )
        zone = ZoneInfo(dtype.time_zone)
        return _Times(raw.dt.convert_time_zone("UTC").cast(UTC_US), lambda t: t.astimezone(zone))
    if dtype.is_numeric():
        magnitude = frame.select(raw.drop_nulls().abs().max()).collect().item()
        chosen = unit or epoch_unit(magnitude or 0.0)
        per = _PER_SECOND[chosen]
        return _Times(
            _from_epoch(raw, chosen, dtype.is_integer()),
            lambda t: t.timestamp() * per,
            _unit_note(path, chosen, magnitude, unit) if magnitude is not None else None,
        )
    if dtype == pl.String:
        first = frame.select(raw.drop_nulls().first()).collect().item()
        return _text_times(path, "timestamp", first, unit)
    raise MetricsError(
        f"{path}: the timestamp column is {dtype}; expected a UTC datetime, epoch numbers "
        "or RFC 3339 text"
    )


def parquet_timestamps(path: Path, frame: pl.LazyFrame, unit: str | None = None) -> pl.Expr:
    """A Parquet file's timestamps as UTC datetimes, whatever form they are in (a
    datetime with a zone, epoch numbers, RFC 3339 text); for readers of whole files."""
    return _parquet_times(path, frame, frame.collect_schema()["timestamp"], unit).ts


def _csv_frame(path: Path) -> tuple[pl.LazyFrame, list[str]]:
    header = _csv(path, n_rows=0).collect_schema()
    _check_columns(path, header)
    # Everything as text: a value column with a stray word, or mixed timestamp forms,
    # become counted reasons with their line instead of a parser's error.
    overrides = {c: pl.String for c in header.names()}
    frame = _csv(path, schema_overrides=overrides, row_index_name=_LINE, row_index_offset=2)
    return frame, header.names()


def _csv_times(path: Path, frame: pl.LazyFrame, unit: str | None) -> _Times:
    first = frame.select(pl.col("timestamp").drop_nulls().first()).collect().item()
    return _text_times(path, "timestamp", first, unit)


def _wanted(signals: list[Signal], columns: list[str]) -> pl.Expr:
    """Rows of the wanted metrics, with each signal's label matchers applied."""
    plain = sorted({m for s in signals if not s.match for m in s.metrics})
    conditions = [pl.col("metric").is_in(plain)] if plain else []
    for signal in signals:
        if not signal.match:
            continue
        for name in signal.metrics:
            cond = pl.col("metric") == name
            for key, value in signal.match.items():
                cond &= (pl.col(key).cast(pl.String) == value) if key in columns else pl.lit(False)
            conditions.append(cond)
    return pl.any_horizontal(conditions) if conditions else pl.lit(False)


def _counters(signals: list[Signal]) -> list[str]:
    return sorted({m for s in signals if s.kind.startswith("counter") for m in s.metrics})


def _canonical(frame: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """Rename to the raw schema: node and gpu stay, other labels fold into `labels`."""
    others = sorted(c for c in columns if c not in {*_REQUIRED, "node", "gpu", "ts", *_INTERNAL})
    labels = (
        pl.concat_str(
            [
                # (an empty cell of a CSV is no label, as an absent one is in Prometheus)
                pl.when(pl.col(c).cast(pl.String).fill_null("") != "").then(
                    pl.lit(f"{c}=") + pl.col(c).cast(pl.String)
                )
                for c in others
            ],
            separator=",",
            ignore_nulls=True,
        )
        if others
        else pl.lit("")
    )

    def label(name: str) -> pl.Expr:
        column = pl.col(name).cast(pl.String) if name in columns else pl.lit(None, pl.String)
        return column.cast(pl.Categorical)

    return frame.select(
        ts="ts",
        metric=pl.col("metric").cast(pl.String).replace(CURRENT_NAME).cast(pl.Categorical),
        value=pl.col("value").cast(pl.Float64),
        node=host_of(columns).cast(pl.Categorical),
        gpu=label("gpu"),
        labels=labels.cast(pl.Categorical),
    )


def _check_columns(path: Path, schema: pl.Schema) -> None:
    missing = [c for c in _REQUIRED if c not in schema]
    if missing:
        raise MetricsError(
            f"{path}: column {', '.join(repr(m) for m in missing)} is missing; a metrics file has "
            f"timestamp, metric, value and label columns (node, gpu, device, ...); found: "
            f"{', '.join(schema.names())}"
        )


def _value(path: Path, dtype: pl.DataType, column: str) -> tuple[pl.Expr, pl.Expr]:
    """The value as a float, and which rows hold something that is not a number."""
    raw = pl.col(column)
    if dtype.is_numeric() or dtype == pl.Boolean:
        return raw.cast(pl.Float64), pl.lit(False)
    if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
        text = raw.cast(pl.String).str.strip_chars()
        number = text.cast(pl.Float64, strict=False)
        return number, number.is_null() & text.is_not_null() & (text != "")
    if dtype == pl.Null:
        return pl.lit(None, pl.Float64), pl.lit(False)
    raise MetricsError(
        f"{path}: the value column is {dtype}; values must be numbers (a float column)"
    )


def _plan(
    path: Path,
    frame: pl.LazyFrame,
    columns: list[str],
    times: _Times,
    value_type: pl.DataType,
    window: TimeWindow,
    signals: list[Signal],
    line: pl.Expr | None = None,
) -> FileScan:
    """The samples of one file and the count of what is left out, sharing one scan."""
    raw_ts = pl.col("timestamp")
    keep = _wanted(signals, columns)
    pushdown = times.pushdown(window)
    if pushdown is not None:
        keep &= pushdown | raw_ts.is_null()
    value, not_a_number = _value(path, value_type, _RAW)
    counters = _counters(signals)
    negative = pl.col("metric").cast(pl.String).is_in(counters) if counters else pl.lit(False)
    why = (
        pl.when(raw_ts.is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(pl.col("ts").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .when(not_a_number)
        .then(pl.lit(BAD_VALUE))
        .when(pl.col("value").is_null())
        .then(pl.lit(NO_VALUE))
        .when(~pl.col("value").is_finite())
        .then(pl.lit(NOT_FINITE))
        .when(negative & (pl.col("value") < 0))
        .then(pl.lit(NEGATIVE_COUNTER))
    )
    shown = (
        pl.when(pl.col(_WHY) == BAD_TIMESTAMP)
        .then(raw_ts.cast(pl.String))
        .when(pl.col(_WHY) == BAD_VALUE)
        .then(pl.col(_RAW).cast(pl.String))
        .otherwise(pl.col("value").cast(pl.String))
    )
    example = (
        pl.format("line {}: {}", line, shown.str.slice(0, 80))
        if line is not None
        else shown.str.slice(0, 80)
    )
    base = (
        frame.filter(keep)
        .with_columns(**{_RAW: pl.col("value")})
        .with_columns(ts=times.ts, value=value)
        .with_columns(why.alias(_WHY))
    )
    if pushdown is None:
        base = base.filter(window.contains() | pl.col("ts").is_null())
    rows = _canonical(base.filter(pl.col(_WHY).is_null()), columns)
    checks = (
        base.filter(pl.col(_WHY).is_not_null())
        .with_columns(example.alias(_EXAMPLE))
        .group_by(_WHY, pl.col("metric").cast(pl.String))
        .agg(rows=pl.len().cast(pl.UInt32), example=pl.col(_EXAMPLE).first())
        .select(
            file=pl.lit(str(path)),
            reason=pl.col(_WHY),
            metric="metric",
            rows="rows",
            example="example",
        )
    )
    notes = [times.note] if times.note else []
    named_by = [h for h in HOST_LABELS[1:] if h in columns]
    if named_by:
        notes.append(
            LoadNote(
                "assumed",
                str(path),
                "samples without a `node` label are given the host their "
                + " or ".join(
                    f"`{h}`" + (" (port removed)" if h == "instance" else "") for h in named_by
                )
                + " names; add a node column if that is not the host",
            )
        )
    return FileScan(path, rows, checks, notes)


def _scan_parquet(
    path: Path,
    window: TimeWindow,
    signals: list[Signal],
    unit: str | None = None,
    *,
    empty: frozenset[str] = frozenset(),
) -> FileScan:
    """`empty`: label columns known to hold only nulls in the rows the scan keeps, left
    unread (a null label adds nothing to a series' labels)."""
    frame = _parquet(path)
    schema = frame.collect_schema()
    _check_columns(path, schema)
    times = _parquet_times(path, frame, schema["timestamp"], unit)
    columns = [c for c in schema.names() if c in _REQUIRED or c not in empty]
    return _plan(path, frame, columns, times, schema["value"], window, signals)


def _scan_csv(
    path: Path, window: TimeWindow, signals: list[Signal], unit: str | None = None
) -> FileScan:
    frame, columns = _csv_frame(path)
    times = _csv_times(path, frame, unit)
    return _plan(path, frame, columns, times, pl.String, window, signals, line=pl.col(_LINE))


_OM_LINE = re.compile(
    r"^(?P<metric>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)\s+(?P<ts>\S+)\s*$"
)


def _scan_openmetrics(
    path: Path, window: TimeWindow, signals: list[Signal], unit: str | None = None
) -> FileScan:
    """OpenMetrics text with a timestamp on every sample (the form promtool backfills);
    Prometheus' text format, whose timestamps are milliseconds, is read too."""
    lines = pl.scan_csv(
        path,
        has_header=False,
        separator="\x1f",
        quote_char=None,
        new_columns=["line"],
        schema_overrides=[pl.String],
    ).filter(~pl.col("line").str.starts_with("#") & (pl.col("line").str.strip_chars() != ""))
    parsed = lines.with_columns(
        pl.col("line").str.extract_groups(_OM_LINE.pattern).alias("m")
    ).unnest("m")
    bad = (
        parsed.filter(pl.col("metric").is_null()).select(pl.len(), pl.col("line").first()).collect()
    )
    if bad.item(0, 0):
        raise MetricsError(
            f"{path}: {bad.item(0, 0)} lines are not OpenMetrics samples with timestamps, "
            f"e.g. {bad.item(0, 1)[:120]!r}"
        )
    first = parsed.select(pl.col("ts").first()).collect().item()
    times = _text_times(path, "ts", first, unit)
    # Times first, so that only the window's samples have their labels pivoted.
    pairs = (
        parsed.with_row_index("row")
        .with_columns(timestamp="ts")
        .with_columns(ts=times.ts)
        .filter(window.contains() | pl.col("ts").is_null())
    )
    label_pairs = (
        pairs.select(
            "row", kv=pl.col("labels").str.extract_all(r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"')
        )
        .explode("kv")
        .drop_nulls("kv")
        .select(
            "row",
            key=pl.col("kv").str.extract(r"^([^=]+)="),
            val=pl.col("kv").str.extract(r'="(.*)"$').str.replace_all(r'\\"', '"'),
        )
        .collect()
    )
    wide = label_pairs.pivot(on="key", index="row", values="val") if label_pairs.height else None
    base = pairs.select("row", "ts", "timestamp", "metric", "value").collect()
    joined = base.join(wide, on="row", how="left") if wide is not None else base
    columns = [c for c in joined.columns if c != "row"]
    kept = _Times(pl.col("ts"), note=times.note)
    return _plan(path, joined.lazy().drop("row"), columns, kept, pl.String, window, signals)


READERS = {
    ".parquet": _scan_parquet,
    ".csv": _scan_csv,
    ".om": _scan_openmetrics,
    ".prom": _scan_openmetrics,
    ".txt": _scan_openmetrics,
}


def _cannot_read(path: Path, exc: Exception) -> MetricsError:
    reason = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else type(exc).__name__
    return MetricsError(f"{path}: cannot be read as {path.suffix[1:]} metrics ({reason})")


def plan_file(
    path: Path,
    window: TimeWindow,
    signals: list[Signal],
    *,
    unit: str | None = None,
    empty: frozenset[str] = frozenset(),
) -> FileScan:
    """A file's samples, checks and assumptions, planned; its schema or header is read
    now, so a broken file is named. `unit`: incident.yaml's timestamp_unit; `empty`: a
    Parquet file's label columns that hold only nulls where the signals' metrics are."""
    try:
        if empty and path.suffix.lower() == ".parquet":
            return _scan_parquet(path, window, signals, unit, empty=empty)
        return READERS[path.suffix.lower()](path, window, signals, unit)
    except IncidentbookError:
        raise
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise _cannot_read(path, exc) from None


def scan_file(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    """A file's lazy scan of the samples it keeps (plan_file without the checks)."""
    return plan_file(path, window, signals).rows


def blame(scans: list[FileScan], exc: Exception, folder: Path) -> MetricsError:
    """The error of a read that failed while collecting all files together: which file,
    found by reading each alone (only on this failure path)."""
    for scan in scans:
        try:
            pl.collect_all([scan.rows.select(pl.len()), scan.checks])
        except (pl.exceptions.PolarsError, OSError) as own:
            return _cannot_read(scan.path, own)
    reason = str(exc).strip().splitlines()[0][:300]
    return MetricsError(f"the metrics files in {folder} could not be read together ({reason})")


def checked(checks: pl.DataFrame) -> list[LoadNote]:
    """What the files left out, as notes; a fatal reason (an unreadable timestamp, text
    in the value column) is a MetricsError naming the file, the column and a line."""
    fatal = checks.filter(pl.col("reason").is_in(list(FATAL))).sort("file", "reason")
    if fatal.height:
        first = fatal.row(0, named=True)
        column, advice = FATAL[first["reason"]]
        total = (
            fatal.filter((pl.col("file") == first["file"]) & (pl.col("reason") == first["reason"]))
            .get_column("rows")
            .sum()
        )
        noun = "sample" if total == 1 else "samples"
        what = {BAD_TIMESTAMP: "an unreadable timestamp", BAD_VALUE: "a value that is not a number"}
        raise MetricsError(
            f"{first['file']}: column {column!r}: {total:,} {noun} with {what[first['reason']]} "
            f"(e.g. {first['example']}); {advice}"
        )
    rows = (
        checks.group_by("file", "reason", "metric")
        .agg(pl.col("rows").sum())
        .sort("file", "reason", "metric")
    )
    return [
        LoadNote(
            "dropped",
            row["file"],
            f"of {row['metric']} left out: {row['reason']}",
            int(row["rows"]),
        )
        for row in rows.iter_rows(named=True)
    ]


@dataclass(frozen=True)
class MetricGroups:
    """What a Parquet file's footer says of its `metric` column: each row group's rows and
    the least and greatest metric name in it. Read without decoding a single page."""

    rows: tuple[int, ...]
    low: tuple[str, ...]
    high: tuple[str, ...]
    nulls: tuple[frozenset[str], ...]  # the columns with only nulls, per group

    @property
    def names(self) -> set[str] | None:
        """The metrics the file holds, when every group holds one (else None: a group's
        min and max do not say what lies between them)."""
        if any(lo != hi for lo, hi in zip(self.low, self.high, strict=True)):
            return None
        return set(self.low)

    def _read(self, metrics: set[str]) -> list[int]:
        """The groups a filter on these metrics cannot skip by their statistics."""
        names = sorted(metrics)
        pairs = enumerate(zip(self.low, self.high, strict=True))
        return [g for g, (lo, hi) in pairs if any(lo <= m <= hi for m in names)]

    def rows_of(self, metrics: set[str]) -> int:
        return sum(self.rows[g] for g in self._read(metrics))

    def empty_for(self, metrics: set[str]) -> frozenset[str]:
        """The columns holding only nulls in every group these metrics are read from (a
        GPU's metric in a file that also holds the disks'): a scan need not decode them."""
        read = self._read(metrics)
        return frozenset.intersection(*(self.nulls[g] for g in read)) if read else frozenset()


def metric_groups(path: Path | ObjectPath) -> MetricGroups | None:
    """The footer's min/max of `metric` per row group; None when the file is not local
    Parquet, or a group has no such statistics (writers may leave them out)."""
    if isinstance(path, ObjectPath) or path.suffix.lower() != ".parquet":
        return None
    # Imported here: pyarrow costs a command's start-up a fifth of a second.
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(path).metadata
    except (OSError, pa.ArrowException):
        return None  # plan_file names the broken file
    names = [meta.schema.column(i).path for i in range(meta.num_columns)]
    if "metric" not in names:
        return None
    column = names.index("metric")
    rows, low, high, nulls = [], [], [], []
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        stats = group.column(column).statistics
        if group.num_rows == 0:
            continue
        if stats is None or not stats.has_min_max or stats.null_count:
            return None  # nulls are rows a filter on the name must still see
        lo, hi = stats.min, stats.max
        if not (isinstance(lo, str) and isinstance(hi, str)):
            return None
        rows.append(group.num_rows)
        low.append(lo)
        high.append(hi)
        nulls.append(frozenset(_null_columns(group, names)))
    return MetricGroups(tuple(rows), tuple(low), tuple(high), tuple(nulls))


def _null_columns(group, names: list[str]) -> list[str]:
    """A row group's columns that its statistics say hold nothing but nulls."""
    out = []
    for i, name in enumerate(names):
        stats = group.column(i).statistics
        if stats is not None and stats.has_null_count and stats.null_count == group.num_rows:
            out.append(name)
    return out


def metrics_in(
    paths: list[Path], groups: dict[Path, MetricGroups | None] | None = None
) -> set[str] | None:
    """The metric names the files hold: from the footer where each row group holds one
    metric (the simulator's files), else the one column read (dictionary-encoded, so
    cheap); None when a file is of a kind that cannot say without reading it all. A pack
    of 50 signals over files holding 10 then plans 10 reductions, not 50. `groups`: the
    files' metric_groups, when the caller has read them already."""
    names: set[str] = set()
    for path in paths:
        if path.suffix.lower() != ".parquet":
            return None
        groups_of = groups.get(path) if groups is not None else metric_groups(path)
        if groups_of is not None and groups_of.names is not None:
            names |= groups_of.names
            continue
        try:
            column = _parquet(path).select(pl.col("metric").cast(pl.String).unique())
            names |= set(column.collect().to_series().drop_nulls().to_list())
        except (pl.exceptions.PolarsError, OSError):
            return None  # scan_file names the broken file
    return names


def files_span(
    paths: list[Path], unit: str | None = None
) -> tuple[datetime | None, datetime | None]:
    """The time span the files cover, for a helpful 'no data' message (Parquet and CSV;
    a Parquet datetime column from its metadata)."""
    lows, highs = [], []
    for path in paths:
        try:
            if path.suffix.lower() == ".parquet":
                frame = _parquet(path)
                times = _parquet_times(path, frame, frame.collect_schema()["timestamp"], unit)
            elif path.suffix.lower() == ".csv":
                frame, _ = _csv_frame(path)
                times = _csv_times(path, frame, unit)
            else:
                continue
            got = frame.select(times.ts.alias("ts")).select(
                lo=pl.col("ts").min(), hi=pl.col("ts").max()
            )
            lo, hi = got.collect().row(0)
        except (IncidentbookError, pl.exceptions.PolarsError, OSError):
            continue
        if lo is not None:
            lows.append(lo)
            highs.append(hi)
    return (min(lows), max(highs)) if lows else (None, None)
