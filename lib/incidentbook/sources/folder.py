"""Sources of metrics for one incident window, chosen by URI scheme.

A registry keyed by scheme (papermill's IO handlers have the same shape): a folder path
or `file://` opens the incident folder; later issues add `prometheus+http(s)://`.
Every source returns the same canonical frames (frames.RAW_SCHEMA -> signal frame), so
nothing downstream knows where the data came from.

The folder source reads lazily: each file is scanned with the window and the wanted
metrics pushed down, so a day of samples is not read to look at two hours of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

import polars as pl

from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder
from incidentbook.metrics.frames import RAW_SCHEMA, UTC_US, signal_frame
from incidentbook.metrics.signals import Signal
from incidentbook.window import TimeWindow


class MetricsError(IncidentbookError):
    """Metrics that cannot be read: a bad file, a wrong column, a naive timestamp."""


class NoDataError(MetricsError):
    """Nothing to analyse in the window."""


@dataclass
class LoadReport:
    """What loading found that a reader should know: nothing is dropped silently."""

    files: list[str] = field(default_factory=list)
    rows_read: int = 0
    duplicates_dropped: int = 0
    gaps: list[dict] = field(default_factory=list)
    missing_signals: dict[str, str] = field(default_factory=dict)

    def notes(self) -> list[str]:
        out = []
        if self.duplicates_dropped:
            out.append(
                f"{self.duplicates_dropped} duplicate samples (same series and time) were dropped"
            )
        if self.gaps:
            worst = self.gaps[0]
            out.append(
                f"{len(self.gaps)} gaps in series (not interpolated); "
                f"the longest: {worst['signal']} "
                f"on {worst['node']}{'/gpu' + worst['gpu'] if worst['gpu'] else ''} "
                f"from {worst['start']:%Y-%m-%d %H:%M:%S} to {worst['end']:%H:%M:%S} UTC"
            )
        if len(self.missing_signals) == 1:
            ((name, why),) = self.missing_signals.items()
            out.append(f"no data for signal {name}: {why}")
        elif self.missing_signals:
            out.append(
                f"{len(self.missing_signals)} signals of the pack have no data in the window: "
                f"{', '.join(sorted(self.missing_signals))}"
            )
        return out


@dataclass
class Metrics:
    """A window's signals, with the report of how they were loaded."""

    frame: pl.DataFrame
    report: LoadReport
    window: TimeWindow


class Source(Protocol):
    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics: ...


_REGISTRY: dict[str, Callable[..., Source]] = {}


def register(scheme: str):
    def add(factory: Callable[[str], Source]) -> Callable[[str], Source]:
        _REGISTRY[scheme] = factory
        return factory

    return add


def open_source(uri: str | Path, **options) -> Source:
    """The source for a folder path or a URI (`file://...`, `prometheus+http://...`);
    `options` go to the source (a Prometheus source takes `selectors`)."""
    text = str(uri)
    scheme = text.split("://", 1)[0] if "://" in text else "file"
    if scheme not in _REGISTRY:
        raise IncidentbookError(
            f"no source for {scheme!r} URIs ({text}); known: {', '.join(sorted(_REGISTRY))}"
        )
    return _REGISTRY[scheme](text.removeprefix("file://"), **options)


# --- reading one file ---------------------------------------------------------------

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
        .filter((pl.col("ts") >= window.start) & (pl.col("ts") < window.end)),
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
        .filter((pl.col("ts") >= window.start) & (pl.col("ts") < window.end))
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


_READERS = {
    ".parquet": _scan_parquet,
    ".csv": _scan_csv,
    ".om": _scan_openmetrics,
    ".prom": _scan_openmetrics,
    ".txt": _scan_openmetrics,
}


def _scan_file(path: Path, window: TimeWindow, signals: list[Signal]) -> pl.LazyFrame:
    """A file's lazy scan; its schema or header is read now, so a broken file is named."""
    try:
        return _READERS[path.suffix.lower()](path, window, signals)
    except IncidentbookError:
        raise
    except (pl.exceptions.PolarsError, OSError) as exc:
        reason = str(exc).strip().splitlines()[0][:300]
        raise MetricsError(
            f"{path}: cannot be read as {path.suffix[1:]} metrics ({reason})"
        ) from None


def _span(paths: list[Path]) -> tuple[datetime | None, datetime | None]:
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


class FolderSource:
    """Metrics from an incident folder's metrics/ files."""

    def __init__(self, folder: IncidentFolder | Path | str):
        self.folder = folder if isinstance(folder, IncidentFolder) else IncidentFolder(folder)

    def files(self) -> list[Path]:
        root = self.folder.metrics_dir
        if not root.is_dir():
            raise MetricsError(f"{self.folder.path} has no metrics/ folder")
        return sorted(p for p in root.rglob("*") if p.suffix.lower() in _READERS and p.is_file())

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics:
        files = self.files()
        if not files:
            raise MetricsError(
                f"{self.folder.metrics_dir} holds no metrics files "
                "(.parquet, .csv, or OpenMetrics .om/.prom)"
            )
        scans = [_scan_file(p, window, signals) for p in files]
        raw = pl.concat([RAW_SCHEMA.to_frame().lazy(), *scans], how="vertical_relaxed")
        try:
            frame, duplicates, rows = signal_frame(raw, signals)
        except pl.exceptions.PolarsError as exc:
            reason = str(exc).strip().splitlines()[0][:300]
            raise MetricsError(
                f"the metrics files in {self.folder.metrics_dir} could not be read ({reason})"
            ) from None
        report = LoadReport(
            files=[str(p) for p in files], rows_read=rows, duplicates_dropped=duplicates
        )
        if rows == 0:
            lo, hi = _span(files)
            span = (
                f"; the files cover {lo:%Y-%m-%dT%H:%M:%SZ} to {hi:%Y-%m-%dT%H:%M:%SZ}"
                if lo
                else ""
            )
            raise NoDataError(
                f"no samples of the wanted metrics between {window.start.isoformat()} and "
                f"{window.end.isoformat()} in {self.folder.metrics_dir}{span}"
            )
        present = set(frame.get_column("signal").unique().to_list())
        for signal in signals:
            if signal.name not in present:
                report.missing_signals[signal.name] = (
                    f"no samples of {', '.join(signal.metrics)} in the window"
                    + (f" matching {signal.match}" if signal.match else "")
                )
        report.gaps = find_gaps(frame)
        return Metrics(frame=frame, report=report, window=window)


def find_gaps(frame: pl.DataFrame, factor: float = 2.5) -> list[dict]:
    """Intervals in a series longer than `factor` times its usual step, longest first."""
    if frame.height == 0:
        return []
    keys = ["signal", "node", "gpu"]
    steps = frame.with_columns(
        step=pl.col("ts").diff().over(keys), prev=pl.col("ts").shift().over(keys)
    )
    usual = steps.group_by(keys).agg(usual=pl.col("step").median())
    gaps = (
        steps.join(usual, on=keys, nulls_equal=True)
        .filter(pl.col("step") > pl.col("usual") * factor)
        .sort("step", descending=True)
        .select(*keys, start="prev", end="ts", step="step")
        .head(50)
    )
    return gaps.to_dicts()


@register("file")
def _folder(path: str, **_options) -> Source:
    return FolderSource(Path(path))
