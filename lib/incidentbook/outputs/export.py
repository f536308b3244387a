"""Exporting an incident folder's metrics, for other tools.

`export_openmetrics` writes OpenMetrics text with a timestamp (seconds) on every sample
and the closing `# EOF`: what `promtool tsdb create-blocks-from openmetrics` backfills
into a Prometheus TSDB, and what VictoriaMetrics imports. Lines are built with polars
expressions and written in batches, so a large folder is not held as text in memory.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl

from incidentbook.incident import IncidentFolder
from incidentbook.metrics.data import MetricsError
from incidentbook.metrics.frames import UTC_US
from incidentbook.sources.files import parquet_timestamps
from incidentbook.sources.folder import FolderSource
from incidentbook.window import TimeWindow

_NOT_LABELS = {"timestamp", "metric", "value"}


def _label_text(columns: list[str]) -> pl.Expr:
    parts = [
        pl.when(pl.col(c).is_not_null()).then(
            pl.format(
                '{}="{}"',
                pl.lit(c),
                pl.col(c).cast(pl.String).str.replace_all(r'(["\\\\])', r"\\$1"),
            )
        )
        for c in sorted(columns)
    ]
    return pl.concat_str(parts, separator=",", ignore_nulls=True) if parts else pl.lit("")


def export_openmetrics(
    incident: Path | str,
    out: Path | str,
    window: TimeWindow | None = None,
    *,
    logs: bool = False,
) -> tuple[Path, int]:
    """Write every sample of the folder's Parquet metrics (in the window) as OpenMetrics;
    with `logs`, also the log signature counters that log checks read (`log_counters`)."""
    folder = IncidentFolder(incident)
    files = [p for p in FolderSource(folder).files() if p.suffix == ".parquet"]
    if not files:
        raise MetricsError(f"{folder.metrics_dir} has no Parquet files to export")
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    total = 0
    tmp = out.with_name(f".{out.name}.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for path in files:
            frame = pl.scan_parquet(path)
            columns = [c for c in frame.collect_schema().names() if c not in _NOT_LABELS]
            # Epoch numbers or text become datetimes as the analysis reads them.
            unit = folder.spec.timestamp_unit
            frame = frame.with_columns(timestamp=parquet_timestamps(path, frame, unit))
            if window is not None:
                frame = frame.filter(window.contains("timestamp"))
            labels = _label_text(columns)
            lines = frame.select(
                pl.col("metric"),
                labels.alias("_labels"),
                pl.format(
                    "{}{{{}}} {} {}",
                    pl.col("metric"),
                    labels,
                    pl.col("value"),
                    (pl.col("timestamp").dt.epoch("ms") / 1000).round(3),
                ).alias("line"),
                pl.col("timestamp"),
            ).sort("metric", "_labels", "timestamp")
            # One metric family at a time: OpenMetrics wants a family's samples together.
            for batch in lines.collect(engine="streaming").iter_slices(200_000):
                text = "\n".join(batch.get_column("line").to_list())
                if text:
                    fh.write(text + "\n")
                total += batch.height
        if logs:
            counters = log_counters(folder, window)
            columns = ["node", "signature", "xid"]
            lines = counters.select(
                pl.format(
                    "{}{{{}}} {} {}",
                    pl.col("metric"),
                    _label_text(columns),
                    pl.col("value"),
                    (pl.col("ts").dt.epoch("ms") / 1000).round(3),
                )
            ).to_series()
            if lines.len():
                fh.write("\n".join(lines.to_list()) + "\n")
            total += lines.len()
        fh.write("# EOF\n")
    tmp.replace(out)
    return out, total


def log_counters(
    incident: IncidentFolder | Path | str,
    window: TimeWindow | None = None,
    step: timedelta = timedelta(minutes=1),
) -> pl.DataFrame:
    """The lines of each log signature per host as a cumulative counter (the metric a log
    check's rule reads), sampled every `step` over the window from 0 at its start: ts,
    metric, value, node, signature, xid (the code, for Xid lines)."""
    from incidentbook.logs.signatures import load_catalog, match
    from incidentbook.record.checks import LOG_METRIC

    folder = incident if isinstance(incident, IncidentFolder) else IncidentFolder(incident)
    window = window or folder.spec.window
    schema = {
        "ts": UTC_US,
        "metric": pl.String,
        "value": pl.Float64,
        "node": pl.String,
        "signature": pl.String,
        "xid": pl.String,
    }
    source = FolderSource(folder)
    logs = source.logs(window) if source.has_logs() else None
    if logs is None or logs.frame.height == 0:
        return pl.DataFrame(schema=schema)
    lines = (
        match(logs.frame.filter(pl.col("host").is_not_null()), load_catalog())
        .filter(pl.col("signature").is_not_null())
        .select(
            node="host",
            signature="signature",
            # "" rather than null: an as-of join's `by` keys never match nulls
            xid=pl.col("xid").cast(pl.String).fill_null(""),
            line_ts="ts",
        )
        .sort("line_ts")
        .with_columns(n=pl.int_range(1, pl.len() + 1).over("node", "signature", "xid"))
    )
    keys = ["node", "signature", "xid"]
    seconds = int(step.total_seconds())
    first = int(window.start.timestamp()) // seconds * seconds
    times = pl.datetime_range(
        datetime.fromtimestamp(first, UTC), window.end, step, closed="left", eager=True
    )
    frame = lines.select(keys).unique().join(pl.DataFrame({"ts": times}), how="cross")
    return (
        frame.sort("ts")
        .join_asof(
            lines.select(*keys, "line_ts", "n"),
            left_on="ts",
            right_on="line_ts",
            by=keys,
            strategy="backward",
            check_sortedness=False,
        )
        .select(
            "ts",
            metric=pl.lit(LOG_METRIC),
            value=pl.col("n").fill_null(0).cast(pl.Float64),
            node="node",
            signature="signature",
            xid=pl.when(pl.col("xid") != "").then(pl.col("xid")),
        )
        .sort(*keys, "ts", nulls_last=True)
        .cast(schema)
    )
