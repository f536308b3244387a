"""The incident folder as a source: metrics from metrics/, logs from logs/.

    open_source("data/incidents/smollm3-storage")   # or file://..., or FolderSource(path)

Metrics files are read by sources.files (Parquet, CSV, OpenMetrics text), logs by
logs.read (every format the log-format registry knows).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import polars as pl

from incidentbook.errors import LoadNote
from incidentbook.incident import IncidentFolder
from incidentbook.logs.data import CANNOT_OPEN, LogsError
from incidentbook.logs.read import Logs, read_logs
from incidentbook.metrics.data import Metrics, MetricsError, MetricsReceipt, NoDataError, find_gaps
from incidentbook.metrics.frames import RAW_SCHEMA, signal_frame
from incidentbook.metrics.signals import Signal
from incidentbook.sources.files import CHECKS_SCHEMA, READERS, blame, checked, files_span, plan_file
from incidentbook.window import TimeWindow


class FolderSource:
    """Metrics and logs from an incident folder (the Source contract).

    `boot_times`, `assume_tz` and `formats` are read_logs' options for the logs/ folder.
    """

    def __init__(
        self,
        folder: IncidentFolder | Path | str,
        *,
        boot_times: dict[str, datetime] | None = None,
        assume_tz: str = "UTC",
        formats: dict[str, str] | None = None,
    ):
        self.folder = folder if isinstance(folder, IncidentFolder) else IncidentFolder(folder)
        self.log_options = {"boot_times": boot_times, "assume_tz": assume_tz, "formats": formats}

    def __repr__(self) -> str:
        return f"FolderSource({str(self.folder.path)!r})"

    def files(self) -> list[Path]:
        return self._listing()[0]

    def _listing(self) -> tuple[list[Path], list[LoadNote]]:
        """The metrics files to read, and a note for each file under metrics/ that is not
        read and why (a format not known, hidden, empty, a broken link)."""
        root = self.folder.metrics_dir
        if not root.is_dir():
            what = "is a file, not a folder" if root.exists() else "does not exist"
            raise MetricsError(
                f"{root} {what}; an incident folder keeps its metrics files in a metrics/ folder"
            )
        files, notes = [], []
        for path in sorted(p for p in root.rglob("*") if not p.is_dir()):
            why = _not_read(path, root)
            if why is None:
                files.append(path)
            else:
                notes.append(LoadNote("dropped", str(path), f"file not read: {why}"))
        return files, notes

    def has_logs(self) -> bool:
        logs = self.folder.logs_dir
        if logs.exists() and not logs.is_dir():
            raise LogsError(
                f"{logs} is a file, not a folder; put the log files in a logs/ folder "
                "(one subfolder per host, or the host in the file name)"
            )
        return logs.is_dir() and any(p.is_file() for p in logs.rglob("*"))

    def logs(self, window: TimeWindow) -> Logs | None:
        """The window's lines of every file under logs/; None when there are none."""
        if not self.has_logs():
            return None
        logs = read_logs(self.folder.logs_dir, window, **self.log_options)
        # The reader lists regular files; a link to nothing is a file it could not open.
        root = self.folder.logs_dir
        broken = sorted(p for p in root.rglob("*") if p.is_symlink() and not p.exists())
        if broken:
            logs.receipt.count(CANNOT_OPEN, len(broken), str(broken[0].relative_to(root)))
        return logs

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics:
        """The signals over the window, from every metrics file of the folder."""
        files, unread = self._listing()
        if not files:
            raise MetricsError(
                f"{self.folder.metrics_dir} holds no metrics files "
                "(.parquet, .csv, or OpenMetrics .om/.prom)"
            )
        unit = self.folder.spec.timestamp_unit
        scans = [plan_file(p, window, signals, unit=unit) for p in files]
        raw = pl.concat(
            [RAW_SCHEMA.to_frame().lazy(), *(s.rows for s in scans)], how="vertical_relaxed"
        )
        checks = [pl.concat([CHECKS_SCHEMA.to_frame().lazy(), *(s.checks for s in scans)])]
        try:
            frame, duplicates, rows = signal_frame(raw, signals, also=checks)
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise blame(scans, exc, self.folder.metrics_dir) from None
        receipt = MetricsReceipt(
            files=[str(p) for p in files],
            rows_read=rows,
            duplicates_dropped=duplicates,
            assumptions=[*unread, *(n for s in scans for n in s.assumed), *checked(checks[0])],
        )
        if rows == 0:
            lo, hi = files_span(files, unit)
            span = (
                f"; the files cover {lo:%Y-%m-%dT%H:%M:%SZ} to {hi:%Y-%m-%dT%H:%M:%SZ}"
                if lo
                else ""
            )
            raise NoDataError(
                f"no samples of the wanted metrics between {window.start.isoformat()} and "
                f"{window.end.isoformat()} in {self.folder.metrics_dir}{span}"
                + "".join(f"; {n}" for n in receipt.notes())
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


def _not_read(path: Path, root: Path) -> str | None:
    """Why a file under metrics/ is not read, or None when it is."""
    if path.is_symlink() and not path.exists():
        return "a link to a file that does not exist"
    if any(part.startswith(".") for part in path.relative_to(root).parts):
        return "hidden (its name starts with a dot)"
    if path.suffix.lower() not in READERS:
        return f"not a metrics format ({', '.join(READERS)})"
    if path.stat().st_size == 0:
        return "empty"
    return None


def open_folder(path: str, **_options) -> FolderSource:
    """The `file` scheme's factory (a Prometheus source's options mean nothing here)."""
    return FolderSource(Path(path))
