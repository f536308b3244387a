"""The incident folder as a source: metrics from metrics/, the trainer's log and
TensorBoard files; logs from logs/.

    open_source("data/incidents/smollm3-storage")   # or file://..., or FolderSource(path)

Metrics files are read by sources.files (Parquet, CSV, OpenMetrics text), trainer logs
by sources.trainer (found under logs/ and metrics/ by sniffing, or named in
incident.yaml's trainer block), TensorBoard event files by sources.tensorboard (every
*.tfevents.* under the folder, or the trainer block's paths); sources.merge makes them
one frame. Logs are read by logs.read (every format the log-format registry knows).
"""

from __future__ import annotations

import glob
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from incidentbook.errors import LoadNote, grouped_notes
from incidentbook.incident import IncidentFolder
from incidentbook.logs.data import CANNOT_OPEN, LogsError, Recognise
from incidentbook.logs.read import Logs, folder_host, read_logs
from incidentbook.metrics.data import (
    Metrics,
    MetricsError,
    MetricsReceipt,
    NoDataError,
    NoMetricsError,
    find_gaps,
)
from incidentbook.metrics.frames import RAW_SCHEMA, on_one_grid, signal_frames
from incidentbook.metrics.signals import Signal
from incidentbook.sources.files import (
    CHECKS_SCHEMA,
    READERS,
    MetricGroups,
    blame,
    checked,
    files_span,
    metric_groups,
    metrics_in,
    plan_file,
)
from incidentbook.sources.merge import merge
from incidentbook.sources.objects import remote_metrics
from incidentbook.sources.tensorboard import TensorBoardSource, find_event_files
from incidentbook.sources.trainer import TrainerLogSource, find_trainer_logs
from incidentbook.sources.trainer.read import formats_of
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
        self._trainer: TrainerLogSource | None = None

    def __repr__(self) -> str:
        return f"FolderSource({str(self.folder.path)!r})"

    def files(self) -> list[Path]:
        """The long-format metrics files under metrics/ (a trainer's own CSV, such as
        Lightning's metrics.csv, is the trainer log source's)."""
        return self._listing()[0]

    def _listing(self) -> tuple[list[Path], list[LoadNote]]:
        """The metrics files to read, and a note for each file under metrics/ that no
        reader takes and why (a format not known, hidden, empty, a broken link)."""
        root = self.folder.metrics_dir
        if not root.is_dir():
            if root.exists():
                raise MetricsError(
                    f"{root} is a file, not a folder; an incident folder keeps its metrics "
                    "files in a metrics/ folder"
                )
            return [], []
        trainer = self.trainer_logs()
        others = set(trainer.paths if trainer else ()) | set(find_event_files([root]))
        files, notes = [], []
        for path in sorted(p for p in root.rglob("*") if not p.is_dir()):
            if path in others or _trainer_csv(path):
                continue
            why = _not_read(path, root)
            if why is None:
                files.append(path)
            else:
                notes.append(LoadNote("dropped", str(path), f"file not read: {why}"))
        # A folder on object storage: its Parquet and CSV files are scanned where they are.
        files += remote_metrics(self.folder.path)
        return sorted(files, key=str), notes

    def _paths(self, given: list[str] | None, default: list[Path]) -> list[Path]:
        if given is None:
            return default
        found: list[Path] = []
        for pattern in given:
            path = Path(pattern)
            if path.is_absolute():
                found += (
                    [path]
                    if not any(c in pattern for c in "*?[")
                    else [Path(p) for p in sorted(glob.glob(pattern, recursive=True))]
                )
            else:
                found += sorted(self.folder.path.glob(pattern))
        return found

    def trainer_logs(self) -> TrainerLogSource | None:
        """The trainer logs of the folder (None: it has none)."""
        if self._trainer is None:
            spec = self.folder.spec.trainer
            candidates = self._paths(
                spec.logs,
                [d for d in (self.folder.logs_dir, self.folder.metrics_dir) if d.is_dir()],
            )
            paths = find_trainer_logs(candidates)
            logs = self.folder.logs_dir
            located = {p: folder_host(p.relative_to(logs)) for p in paths if p.is_relative_to(logs)}
            hosts = {p: host for p, host in located.items() if host is not None}
            self._trainer = TrainerLogSource(
                paths,
                trainer=spec,
                tz=self.assume_tz or self.folder.spec.logs.assume_tz,
                hosts=hosts,
                root=self.folder.path,
            )
        return self._trainer if self._trainer.paths else None

    def tensorboard(self) -> TensorBoardSource | None:
        """The TensorBoard event files of the folder (None: it has none)."""
        spec = self.folder.spec.trainer
        paths = self._paths(spec.tensorboard, [self.folder.path])
        if not find_event_files(paths):
            return None
        return TensorBoardSource(paths, trainer=spec, root=self.folder.path)

    def has_logs(self) -> bool:
        logs = self.folder.logs_dir
        if logs.exists() and not logs.is_dir():
            raise LogsError(
                f"{logs} is a file, not a folder; put the log files in a logs/ folder "
                "(one subfolder per host, or the host in the file name)"
            )
        return logs.is_dir() and any(p.is_file() for p in logs.rglob("*"))

    def logs(self, window: TimeWindow, recognise: Recognise | None = None) -> Logs | None:
        """The window's lines of every file under logs/; None when there are none.
        `recognise` keeps the lines it knows of files in no known format (read_logs)."""
        if not self.has_logs():
            return None
        settings = self.folder.spec.logs
        boots: dict[str, datetime | list[datetime]] = dict(self.metric_boot_times(window))
        boots.update(settings.boot_times)
        boots.update(self.boot_times)
        logs = read_logs(
            self.folder.logs_dir,
            window,
            boot_times=boots,
            assume_tz=self.assume_tz or settings.assume_tz,
            formats=settings.formats | self.formats,
            ranks=settings.rank_hosts(),
            recognise=recognise,
        )
        # The reader lists regular files; a link to nothing is a file it could not open.
        root = self.folder.logs_dir
        broken = sorted(p for p in root.rglob("*") if p.is_symlink() and not p.exists())
        if broken:
            logs.receipt.count(CANNOT_OPEN, len(broken), str(broken[0].relative_to(root)))
        return logs

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
                [
                    RAW_SCHEMA.to_frame().lazy(),
                    *(
                        plan_file(p, window, [signal], unit=self.folder.spec.timestamp_unit).rows
                        for p in files
                    ),
                ],
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
        """The signals over the window, from every metrics file of the folder, its
        TensorBoard files and its trainer logs (merged; see sources.merge)."""
        parts: dict[str, Metrics] = {}
        empty: list[str] = []
        files, unread = self._listing()
        if files:
            try:
                parts["metrics"] = self._files_metrics(files, window, signals, unread)
            except NoDataError as exc:
                empty.append(str(exc))
        for origin, source in (
            ("tensorboard", self.tensorboard()),
            ("trainer_log", self.trainer_logs()),
        ):
            if source is None:
                continue
            try:
                got = source.metrics(window, signals)
            except NoDataError as exc:
                empty.append(str(exc))
                continue
            if got is not None:
                parts[origin] = got
        # Files under metrics/ no reader took are said whatever else gave samples.
        left = "".join(f"; {n}" for n in grouped_notes(unread)) if not files else ""
        if not parts:
            if empty and not files and not unread:
                # Only a trainer log or TensorBoard files, and they gave nothing (a log
                # with no time to place its steps by): no metrics, as for a folder of
                # logs alone, with the reason said.
                raise NoMetricsError(
                    f"{self.folder.path} has no metrics it can use: " + "; ".join(empty)
                )
            if empty:
                raise NoDataError("; ".join(empty) + left)
            error = NoMetricsError if not unread else MetricsError
            raise error(
                f"{self.folder.path} has no metrics: no metrics files under metrics/ "
                "(.parquet, .csv, or OpenMetrics .om/.prom), no trainer log and no "
                f"TensorBoard event files{left}"
            )
        got = parts["metrics"] if list(parts) == ["metrics"] else merge(parts, signals, window)
        if not files:
            got.receipt.assumptions[:0] = unread
        # An origin that gave nothing (an unreadable event file, a log outside the
        # window) is said, even though others gave samples.
        got.receipt.remarks += [f"not used: {e}" for e in empty]
        return got

    def _files_metrics(
        self,
        files: list[Path],
        window: TimeWindow,
        signals: list[Signal],
        unread: list[LoadNote] | None = None,
    ) -> Metrics:
        """The signals over the window from the metrics/ files alone."""
        groups = {p: metric_groups(p) for p in files}  # each file's footer, read once
        held = metrics_in(files, groups)
        wanted = signals if held is None else [s for s in signals if set(s.metrics) & held]
        unit = self.folder.spec.timestamp_unit
        units = _units(wanted)
        split = [p for p in files if _splits(groups[p], units)]
        shared = [p for p in files if p not in split]
        # Files whose row groups each hold few metrics are scanned once per set of signals
        # sharing metrics: the metric filter skips the other groups from the footer, and
        # each reduction streams its own rows. Any other file is scanned once for all
        # signals, its samples shared by the reductions (held by the engine meanwhile).
        scans = [plan_file(p, window, wanted, unit=unit) for p in shared]
        common = _concat([s.rows for s in scans]) if scans else None
        parts, counted = [], [common] if common is not None else []
        for signals_of in units:
            names = {m for s in signals_of for m in s.metrics}
            own = [
                plan_file(p, window, signals_of, unit=unit, empty=groups[p].empty_for(names))
                for p in split
                if groups[p].rows_of(names)
            ]
            scans += own
            counted += [s.rows for s in own]
            sources = [s.rows for s in own] + ([common] if common is not None else [])
            if sources:
                parts.append((_concat(sources), signals_of))
        checks = [CHECKS_SCHEMA.to_frame().lazy(), *(s.checks for s in scans)]
        try:
            frame, duplicates, rows = signal_frames(
                parts, counted, also=checks, apart=common is None
            )
            checks = [pl.concat(checks)]
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise blame(scans, exc, self.folder.metrics_dir) from None
        receipt = MetricsReceipt(
            files=[str(p) for p in files],
            rows_read=rows,
            duplicates_dropped=duplicates,
            assumptions=[
                *(unread or []),
                *(n for s in scans for n in s.assumed),
                *checked(checks[0]),
            ],
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
        by_uname = _node_names(files, window, unit, held, groups)
        by_address = _addresses_named(frame, scans, by_uname)
        for named, how in (
            (by_uname, "node_exporter's node_uname_info (its nodename for the instance's address)"),
            (by_address, "the name another exporter's samples give beside the same address"),
        ):
            if not named:
                continue
            frame = frame.with_columns(pl.col("node").replace(named))
            receipt.assumptions.append(
                LoadNote(
                    "assumed",
                    str(self.folder.metrics_dir),
                    f"{len(named)} host{'s' if len(named) != 1 else ''} named by {how}, as "
                    "the other exporters name them",
                )
            )
        frame, staggered = on_one_grid(frame)
        if staggered:
            receipt.assumptions.append(
                LoadNote(
                    "assumed",
                    str(self.folder.metrics_dir),
                    f"the hosts of {', '.join(staggered)} were sampled each at its own "
                    "second of the scrape interval: their samples were put on one grid, at "
                    "the start of each interval, as PromQL's query_range evaluates them",
                )
            )
        present = set(frame.get_column("signal").unique().to_list())
        for signal in signals:
            if signal.name not in present:
                receipt.missing_signals[signal.name] = (
                    f"no samples of {', '.join(signal.metrics)} in the window"
                    + (f" matching {signal.match}" if signal.match else "")
                )
        receipt.gaps = find_gaps(frame, ordered=True)
        return Metrics(frame=frame, receipt=receipt, window=window)


# node_exporter's uname info joins a scrape target's address to its node's own name (what
# `* on(instance) group_left(nodename) node_uname_info` does in PromQL): where the node's
# exporter is known by an IP and the GPUs' by the node's name, the two become one host.
_UNAME = Signal(
    name="_uname", label="node_exporter uname info", kind="gauge", metric="node_uname_info"
)


def _node_names(
    files: list[Path],
    window: TimeWindow,
    unit: str | None,
    held: set[str] | None,
    groups: dict[Path, MetricGroups | None],
) -> dict[str, str]:
    """Each node_exporter address's node name, from node_uname_info's nodename label
    (empty when the files hold no such metric, or it names no other host). Only the files
    whose footer does not rule the metric out are scanned for it (a CSV always is)."""
    wanted = {_UNAME.metric}
    if held is not None and not wanted & held:
        return {}
    some = [p for p in files if groups[p] is None or groups[p].rows_of(wanted)]
    if not some:
        return {}
    scans = [plan_file(p, window, [_UNAME], unit=unit).rows for p in some]
    pairs = (
        _concat(scans)
        .select(
            "node",
            nodename=pl.col("labels").cast(pl.String).str.extract(r"(?:^|,)nodename=([^,]+)", 1),
        )
        .drop_nulls()
        .unique()
        .collect()
    )
    return {str(node): name for node, name in pairs.iter_rows() if str(node) != name}


_ADDRESS = r"^(?:\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-fA-F:]+\]?)$"


def _addresses_named(frame: pl.DataFrame, scans: list, known: dict[str, str]) -> dict[str, str]:
    """Hosts known only by an address (node_exporter's `instance`), named where another
    exporter's samples carry both a host name and that address: dcgm-exporter's rows
    hold `Hostname` and the `instance` it was scraped at, on the node's same address.
    Looked for only when some hosts are addresses and others names, as it reads the
    samples' labels again."""
    nodes = frame.get_column("node").drop_nulls().unique()
    addresses = set(nodes.filter(nodes.str.contains(_ADDRESS)).to_list()) - set(known)
    if not addresses or len(addresses) == nodes.len():
        return {}
    pairs = (
        _concat([s.rows for s in scans])
        .filter(pl.col("labels").cast(pl.String).str.contains("instance="))
        .select(
            name=pl.col("node").cast(pl.String),
            address=pl.col("labels")
            .cast(pl.String)
            .str.extract(r"(?:^|,)instance=([^,]+)", 1)
            .str.replace(r":\d+$", ""),
        )
        .filter(pl.col("address").is_in(sorted(addresses)) & (pl.col("name") != pl.col("address")))
        .unique()
        .collect()
    )
    # an address two names claim is left alone
    single = pairs.filter(pl.len().over("address") == 1)
    return dict(zip(single.get_column("address"), single.get_column("name"), strict=True))


def _concat(frames: list[pl.LazyFrame]) -> pl.LazyFrame:
    return pl.concat([RAW_SCHEMA.to_frame().lazy(), *frames], how="vertical_relaxed")


def _units(signals: list[Signal]) -> list[list[Signal]]:
    """The signals in sets that share no metric with another set (a ratio's denominator
    read by two signals puts both in one set), in the signals' order. Each metric is then
    scanned, and its left-out samples counted, once."""
    units: list[tuple[set[str], list[Signal]]] = []
    for signal in signals:
        names, members = set(signal.metrics), [signal]
        for other in [u for u in units if u[0] & names]:
            units.remove(other)
            names |= other[0]
            members = [*other[1], *members]
        units.append((names, members))
    order = {s.name: i for i, s in enumerate(signals)}
    return sorted(
        (sorted(m, key=lambda s: order[s.name]) for _, m in units),
        key=lambda m: order[m[0].name],
    )


def _splits(groups: MetricGroups | None, units: list[list[Signal]]) -> bool:
    """Whether scanning a file once per set of signals decodes little more than one scan
    would: its footer's statistics let each set skip most of the other sets' row groups
    (a quarter more rows at most, the cost of groups holding two sets' metrics)."""
    if groups is None or len(units) < 2:
        return False
    read = sum(groups.rows_of({m for s in u for m in s.metrics}) for u in units)
    # A file none of them reads is still planned once, so that a broken one is named.
    return 0 < read <= 1.25 * sum(groups.rows)


def _trainer_csv(path: Path) -> bool:
    """A CSV without the long format's columns that a trainer format reads."""
    if path.suffix.lower() != ".csv":
        return False
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            header = handle.readline()
    except OSError:
        return False
    names = {c.strip() for c in header.split(",")}
    return not {"timestamp", "metric", "value"} <= names and bool(formats_of(path))


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
