"""The incident folder as a source: metrics from metrics/, logs from logs/.

    open_source("data/incidents/smollm3-storage")   # or file://..., or FolderSource(path)

Metrics files are read by sources.files (Parquet, CSV, OpenMetrics text), logs by
logs.read (every format the log-format registry knows).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from incidentbook.incident import IncidentFolder
from incidentbook.logs.read import Logs, read_logs
from incidentbook.metrics.data import Metrics, MetricsError, MetricsReceipt, NoDataError, find_gaps
from incidentbook.metrics.frames import RAW_SCHEMA, signal_frame
from incidentbook.metrics.signals import Signal
from incidentbook.sources.files import READERS, files_span, scan_file
from incidentbook.window import TimeWindow

BOOT_JITTER_S = 60  # boot times closer than this are the same boot


class FolderSource:
    """Metrics and logs from an incident folder (the Source contract).

    `boot_times`, `assume_tz` and `formats` are read_logs' options for the logs/ folder;
    each wins over incident.yaml's `logs:` (boot times host by host), and the boot times of
    both over node_exporter's node_boot_time_seconds in the folder's metrics.
    """

    def __init__(
        self,
        folder: IncidentFolder | Path | str,
        *,
        boot_times: dict[str, datetime | list[datetime]] | None = None,
        assume_tz: str | None = None,
        formats: dict[str, str] | None = None,
    ):
        self.folder = folder if isinstance(folder, IncidentFolder) else IncidentFolder(folder)
        self.boot_times = dict(boot_times or {})
        self.assume_tz = assume_tz
        self.formats = dict(formats or {})

    def __repr__(self) -> str:
        return f"FolderSource({str(self.folder.path)!r})"

    def files(self) -> list[Path]:
        root = self.folder.metrics_dir
        if not root.is_dir():
            raise MetricsError(f"{self.folder.path} has no metrics/ folder")
        return sorted(p for p in root.rglob("*") if p.suffix.lower() in READERS and p.is_file())

    def has_logs(self) -> bool:
        logs = self.folder.logs_dir
        return logs.is_dir() and any(p.is_file() for p in logs.rglob("*"))

    def logs(self, window: TimeWindow) -> Logs | None:
        """The window's lines of every file under logs/; None when there are none."""
        if not self.has_logs():
            return None
        settings = self.folder.spec.logs
        boots: dict[str, datetime | list[datetime]] = dict(self.metric_boot_times(window))
        boots.update(settings.boot_times)
        boots.update(self.boot_times)
        return read_logs(
            self.folder.logs_dir,
            window,
            boot_times=boots,
            assume_tz=self.assume_tz or settings.assume_tz,
            formats=settings.formats | self.formats,
            ranks=settings.rank_hosts(),
        )

    def metric_boot_times(self, window: TimeWindow) -> dict[str, list[datetime]]:
        """Each host's boot times in the window, from node_exporter's node_boot_time_seconds
        (a gauge of the boot's epoch seconds) in the folder's metrics; none when the folder
        has no metrics or they cannot be read (the metrics stage says why)."""
        signal = Signal(
            name="boot_time", label="boot time", kind="gauge", metric="node_boot_time_seconds"
        )
        try:
            files = self.files()
            if not files:
                return {}
            raw = pl.concat(
                [RAW_SCHEMA.to_frame().lazy(), *(scan_file(p, window, [signal]) for p in files)],
                how="vertical_relaxed",
            )
            got = (
                raw.filter(pl.col("node").is_not_null())
                .select(pl.col("node").cast(pl.String), pl.col("value").round(0).cast(pl.Int64))
                .unique()
                .sort("node", "value")
                .collect()
            )
        except (MetricsError, pl.exceptions.PolarsError):
            return {}
        out: dict[str, list[datetime]] = {}
        for node, value in got.iter_rows():
            seen = out.setdefault(node, [])
            # NTP steps move the reported boot time by a second or so: one boot, not two.
            if seen and value - seen[-1].timestamp() < BOOT_JITTER_S:
                continue
            seen.append(datetime.fromtimestamp(value, UTC))
        return out

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics:
        """The signals over the window, from every metrics file of the folder."""
        files = self.files()
        if not files:
            raise MetricsError(
                f"{self.folder.metrics_dir} holds no metrics files "
                "(.parquet, .csv, or OpenMetrics .om/.prom)"
            )
        scans = [scan_file(p, window, signals) for p in files]
        raw = pl.concat([RAW_SCHEMA.to_frame().lazy(), *scans], how="vertical_relaxed")
        try:
            frame, duplicates, rows = signal_frame(raw, signals)
        except pl.exceptions.PolarsError as exc:
            reason = str(exc).strip().splitlines()[0][:300]
            raise MetricsError(
                f"the metrics files in {self.folder.metrics_dir} could not be read ({reason})"
            ) from None
        receipt = MetricsReceipt(
            files=[str(p) for p in files], rows_read=rows, duplicates_dropped=duplicates
        )
        if rows == 0:
            lo, hi = files_span(files)
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
                receipt.missing_signals[signal.name] = (
                    f"no samples of {', '.join(signal.metrics)} in the window"
                    + (f" matching {signal.match}" if signal.match else "")
                )
        receipt.gaps = find_gaps(frame)
        return Metrics(frame=frame, receipt=receipt, window=window)


def open_folder(path: str, **_options) -> FolderSource:
    """The `file` scheme's factory (a Prometheus source's options mean nothing here)."""
    return FolderSource(Path(path))
