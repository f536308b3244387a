"""Exporting an incident folder's metrics, for other tools.

`export_openmetrics` writes OpenMetrics text with a timestamp (seconds) on every sample
and the closing `# EOF`: what `promtool tsdb create-blocks-from openmetrics` backfills
into a Prometheus TSDB, and what VictoriaMetrics imports. Lines are built with polars
expressions and written in batches, so a large folder is not held as text in memory.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from incidentbook.incident import IncidentFolder
from incidentbook.metrics.data import MetricsError
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
    incident: Path | str, out: Path | str, window: TimeWindow | None = None
) -> tuple[Path, int]:
    """Write every sample of the folder's Parquet metrics (in the window) as OpenMetrics."""
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
        fh.write("# EOF\n")
    tmp.replace(out)
    return out, total
