"""Metrics files of an incident folder: Parquet, CSV and OpenMetrics text, read lazily.

Each file is scanned with the window and the wanted metrics pushed down, so a day of
samples is not read to look at two hours of it. Every reader returns the raw samples in
the canonical schema (metrics.frames.RAW_SCHEMA), so nothing downstream knows the file's
format. A new file format is a reader here and its suffix in READERS.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import polars as pl

from incidentbook.errors import IncidentbookError
from incidentbook.metrics.data import MetricsError
from incidentbook.metrics.frames import UTC_US
from incidentbook.metrics.signals import Signal
from incidentbook.window import TimeWindow

_REQUIRED = ("timestamp", "metric", "value")
_OFFSET = re.compile(r"(Z|[+-]\d{2}:?\d{2})$")


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
                cond &= (pl.col(key) == value) if key in columns else pl.lit(False)
            conditions.append(cond)
    return pl.any_horizontal(conditions) if conditions else pl.lit(False)


def _canonical(frame: pl.LazyFrame, columns: list[str]) -> pl.LazyFrame:
    """Rename to the raw schema: node and gpu stay, other labels fold into `labels`."""
    others = sorted(c for c in columns if c not in {*_REQUIRED, "node", "gpu", "ts"})
    labels = (
        pl.concat_str(
            [
                pl.when(pl.col(c).is_not_null()).then(pl.lit(f"{c}=") + pl.col(c).cast(pl.String))
                for c in others
            ],
            separator=",",
            ignore_nulls=True,
        )
        if others
        else pl.lit("")
    )
    return frame.select(
        ts="ts",
        metric=pl.col("metric").cast(pl.Categorical),
        value=pl.col("value").cast(pl.Float64),
        node=(pl.col("node") if "node" in columns else pl.lit(None, pl.String)).cast(
            pl.Categorical
        ),
        gpu=(pl.col("gpu") if "gpu" in columns else pl.lit(None, pl.String)).cast(pl.Categorical),
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


def _scan_parquet(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    frame = pl.scan_parquet(path)
    schema = frame.collect_schema()
    _check_columns(path, schema)
    ts_type = schema["timestamp"]
    if isinstance(ts_type, pl.Datetime) and ts_type.time_zone is None:
        raise MetricsError(
            f"{path}: the timestamp column has no time zone (naive datetimes); "
            "write timestamps as UTC (polars: Datetime('us', 'UTC'))"
        )
    # The window is compared with the file's own column, not a derived one, so that polars
    # pushes it into the scan and skips row groups outside it.
    raw_ts = pl.col("timestamp")
    if isinstance(ts_type, pl.Datetime):
        zone = ZoneInfo(ts_type.time_zone)
        lo, hi = window.start.astimezone(zone), window.end.astimezone(zone)
        ts = raw_ts.dt.convert_time_zone("UTC").cast(UTC_US)
    elif ts_type.is_numeric():
        lo, hi = window.start.timestamp(), window.end.timestamp()
        ts = pl.from_epoch((raw_ts * 1e6).cast(pl.Int64), time_unit="us").dt.replace_time_zone(
            "UTC"
        )
    else:
        raise MetricsError(f"{path}: the timestamp column is {ts_type}; expected a UTC datetime")
    columns = schema.names()
    in_window = (raw_ts >= lo) & (raw_ts < hi)
    return _canonical(
        frame.filter(in_window & _wanted(signals, columns)).with_columns(ts=ts), columns
    )


def _parse_text_timestamps(path: Path, frame: pl.LazyFrame) -> pl.Expr:
    first = frame.select(pl.col("timestamp").drop_nulls().first()).collect().item()
    if first is None:
        return pl.lit(None, UTC_US)
    if re.fullmatch(r"\d+(\.\d+)?", first):
        seconds = pl.col("timestamp").cast(pl.Float64)
        return pl.from_epoch((seconds * 1e6).cast(pl.Int64), time_unit="us").dt.replace_time_zone(
            "UTC"
        )
    if not _OFFSET.search(first):
        raise MetricsError(
            f"{path}: timestamp {first!r} has no UTC offset; write RFC 3339 with an offset "
            "(2025-03-14T08:00:00Z) or epoch seconds, so the window means the same everywhere"
        )
    # An explicit format is several times faster than inference (PITFALLS.md).
    normalised = pl.col("timestamp").str.replace(" ", "T").str.replace(r"Z$", "+00:00")
    return normalised.str.to_datetime("%Y-%m-%dT%H:%M:%S%.f%:z", time_zone="UTC", time_unit="us")


def _scan_csv(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    header = pl.scan_csv(path, n_rows=0).collect_schema()
    _check_columns(path, header)
    overrides = {c: pl.String for c in header.names()} | {"value": pl.Float64}
    frame = pl.scan_csv(path, schema_overrides=overrides)
    columns = header.names()
    return _canonical(
        frame.filter(_wanted(signals, columns))
        .with_columns(ts=_parse_text_timestamps(path, frame))
        .filter(window.contains()),
        columns,
    )


_OM_LINE = re.compile(
    r"^(?P<metric>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)\s+(?P<ts>\S+)\s*$"
)


def _scan_openmetrics(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    """OpenMetrics text with a timestamp on every sample (the form promtool backfills)."""
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
    pairs = (
        parsed.with_row_index("row")
        .with_columns(
            ts=pl.from_epoch(
                (pl.col("ts").cast(pl.Float64) * 1e6).cast(pl.Int64), time_unit="us"
            ).dt.replace_time_zone("UTC"),
            value=pl.col("value").cast(pl.Float64),
        )
        .filter(window.contains())
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
    base = pairs.select("row", "ts", "metric", "value").collect()
    joined = base.join(wide, on="row", how="left") if wide is not None else base
    columns = [c for c in joined.columns if c != "row"]
    return _canonical(
        joined.lazy().drop("row").filter(_wanted(signals, columns)), [*columns, "timestamp"]
    )


READERS = {
    ".parquet": _scan_parquet,
    ".csv": _scan_csv,
    ".om": _scan_openmetrics,
    ".prom": _scan_openmetrics,
    ".txt": _scan_openmetrics,
}


def scan_file(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    """A file's lazy scan; its schema or header is read now, so a broken file is named."""
    try:
        return READERS[path.suffix.lower()](path, window, signals)
    except IncidentbookError:
        raise
    except (pl.exceptions.PolarsError, OSError) as exc:
        reason = str(exc).strip().splitlines()[0][:300]
        raise MetricsError(
            f"{path}: cannot be read as {path.suffix[1:]} metrics ({reason})"
        ) from None


def metrics_in(paths: list[Path]) -> set[str] | None:
    """The metric names the files hold (Parquet: the one column, dictionary-encoded, so
    cheap); None when a file is of a kind that cannot say without reading it all. A pack
    of 50 signals over files holding 10 then plans 10 reductions, not 50."""
    names: set[str] = set()
    for path in paths:
        if path.suffix.lower() != ".parquet":
            return None
        try:
            column = pl.scan_parquet(path).select(pl.col("metric").cast(pl.String).unique())
            names |= set(column.collect().to_series().drop_nulls().to_list())
        except (pl.exceptions.PolarsError, OSError):
            return None  # scan_file names the broken file
    return names


def files_span(paths: list[Path]) -> tuple[datetime | None, datetime | None]:
    """The time span the files cover, for a helpful 'no data' message (Parquet: metadata only)."""
    lows, highs = [], []
    for path in paths:
        if path.suffix == ".parquet":
            try:
                got = (
                    pl.scan_parquet(path)
                    .select(lo=pl.col("timestamp").min(), hi=pl.col("timestamp").max())
                    .collect()
                )
            except pl.exceptions.PolarsError:
                continue
            lows.append(got.item(0, 0))
            highs.append(got.item(0, 1))
    lows, highs = [x for x in lows if x], [x for x in highs if x]
    return (min(lows), max(highs)) if lows else (None, None)
