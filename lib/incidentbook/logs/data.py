"""What the logs stage reads into: the canonical frame of log lines and the receipt of
how they were read (every line is in the frame, outside the window, or counted with a
reason). The formats, the reader and the analysis all speak these types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import polars as pl

from incidentbook.errors import IncidentbookError

UTC_US = pl.Datetime("us", "UTC")

LOG_SCHEMA = pl.Schema(
    {
        "ts": UTC_US,
        "host": pl.String,
        "source": pl.String,
        "severity": pl.String,
        "message": pl.String,
        "raw": pl.String,
        "file": pl.String,
        "line": pl.UInt32,
        "rank": pl.Int32,  # a launcher's rank tag (`[rank5]:`, srun's `12: `), else null
        "local_rank": pl.Int32,  # torchrun's `[default3]:`: the rank within its host
        "inferred": pl.Boolean,  # its time is its neighbour's or its file's, not its own
    }
)

FACTS_SCHEMA = pl.Schema(
    {
        "host": pl.String,
        "gpu": pl.String,  # the GPU's bus id as the report prints it (dcgmi: its index)
        "source": pl.String,  # the format that read it: nvidia-smi, dcgmi-diag, ...
        "section": pl.String,  # the sections above the fact: `ECC Errors: Volatile`
        "key": pl.String,
        "value": pl.String,
        "file": pl.String,
        "line": pl.UInt32,
    }
)
"""Facts about each GPU read from reports (nvidia-smi -q, dcgmi diag, bug reports)."""

MAX_LINE = 64 * 1024  # longer lines are kept, message and raw cut to this many characters

# Reasons. Those with "(kept" are lines that are still read (in the frame or outside the
# window); the others are lines that could not be placed in time and are not in the frame.
NOT_UTF8 = "not UTF-8 (kept, bytes replaced)"
TOO_LONG = "over 64 KiB (kept, truncated)"
INCOMPLETE = "incomplete last line (kept)"
BINARY_MESSAGE = "binary journald MESSAGE (kept, bytes replaced)"
UNKNOWN_FORMAT = "unknown format"
NO_TIMESTAMP = "no timestamp"
NO_BOOT_TIME = "relative timestamp without a boot time"
MALFORMED_JSON = "malformed JSON"
BAD_TIMESTAMP = "unreadable timestamp"
NO_HEADER = "sacct row before a JobID|... header"
NOT_A_RECORD = "line in a record format that is no record (a job completion log's)"
# Counted per file, not per line: how many lines were lost is not known.
GZIP_CUT = "gzip file cut short (files; the lines before the cut are kept)"
CANNOT_OPEN = "file could not be opened (files)"
FILE_REASONS = frozenset({GZIP_CUT, CANNOT_OPEN})


Recognise = Callable[[pl.Series], pl.Series]
"""Messages -> a boolean per message: whether a signature knows it (signatures.recogniser)."""


class LogsError(IncidentbookError):
    """Logs that cannot be read at all: a logs folder that does not exist, a bad option."""


@dataclass
class LogReceipt:
    """What reading found: every line is in the frame, outside the window, or counted here.

    `lines_read == in_window + outside_window + skipped + lost` where `lost` sums the
    reasons that do not say "(kept" (kept lines are also in in_window or outside_window).
    The reasons in FILE_REASONS count files, not lines. Counts are of lines: a sacct line
    about four nodes is one line in in_window and four rows in the frame.
    """

    files: dict[str, str] = field(default_factory=dict)
    lines_read: int = 0
    in_window: int = 0
    outside_window: int = 0
    unreadable: dict[str, int] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    skipped: int = 0  # blank lines, table headers, lines of reports read as facts
    inherited: int = 0  # lines that took the time of the line before them
    backfilled: int = 0  # lines before any timed line of their file: the next one's time
    file_timed: int = 0  # lines of files with no time at all: the file's modification time
    file_timed_files: set[str] = field(default_factory=set)
    boot_from_file: set[str] = field(default_factory=set)  # boot time stated in the file
    boot_given: set[str] = field(default_factory=set)  # boot time given for the host
    report_lines: int = 0  # lines of reports (nvidia-smi -q, dcgmi diag) read as facts
    facts: int = 0  # facts read from them
    recognised: int = 0  # lines of files in no known format kept because a signature knows them
    assume_tz: str = "UTC"
    local_time_formats: set[str] = field(default_factory=set)  # read in assume_tz
    yearless_formats: set[str] = field(default_factory=set)  # year taken from the window
    hosts_without_boot_time: set[str] = field(default_factory=set)

    @property
    def lost(self) -> int:
        """Lines that are in neither the frame nor the outside-window count."""
        return sum(
            n for r, n in self.unreadable.items() if "(kept" not in r and r not in FILE_REASONS
        )

    def count(self, reason: str, n: int, example: str | None = None) -> None:
        if n <= 0:
            return
        self.unreadable[reason] = self.unreadable.get(reason, 0) + n
        if example is not None:
            self.examples.setdefault(reason, example)

    def merge(self, other: LogReceipt) -> None:
        self.files.update(other.files)
        self.lines_read += other.lines_read
        self.in_window += other.in_window
        self.outside_window += other.outside_window
        for reason, n in other.unreadable.items():
            self.count(reason, n, other.examples.get(reason))
        self.skipped += other.skipped
        self.inherited += other.inherited
        self.backfilled += other.backfilled
        self.file_timed += other.file_timed
        self.file_timed_files |= other.file_timed_files
        self.boot_from_file |= other.boot_from_file
        self.boot_given |= other.boot_given
        self.report_lines += other.report_lines
        self.facts += other.facts
        self.recognised += other.recognised
        self.local_time_formats |= other.local_time_formats
        self.yearless_formats |= other.yearless_formats
        self.hosts_without_boot_time |= other.hosts_without_boot_time

    def notes(self) -> list[str]:
        out = []
        unknown = sorted(f for f, fmt in self.files.items() if fmt == "unknown")
        if unknown:
            shown = ", ".join(unknown[:3]) + (
                f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            )
            kept = (
                f"; {_plural(self.recognised, 'line')} of them that a signature recognises "
                f"{'was' if self.recognised == 1 else 'were'} kept, dated by the file"
                if self.recognised
                else ""
            )
            out.append(
                f"{_plural(len(unknown), 'file')} in no known log format ({shown}): "
                f"{_plural(self.unreadable.get(UNKNOWN_FORMAT, 0), 'line')} not read{kept}"
            )
        lost = {
            r: n
            for r, n in self.unreadable.items()
            if "(kept" not in r and r not in FILE_REASONS and r != UNKNOWN_FORMAT
        }
        if lost:
            parts = [
                f"{n} {reason} (e.g. {self.examples[reason]})"
                if reason in self.examples
                else f"{n} {reason}"
                for reason, n in sorted(lost.items(), key=lambda kv: -kv[1])
            ]
            n = sum(lost.values())
            out.append(
                f"{_plural(n, 'line')} could not be placed in time and "
                f"{'is' if n == 1 else 'are'} not in the frame: {'; '.join(parts)}"
            )
        if self.hosts_without_boot_time:
            hosts = sorted(self.hosts_without_boot_time)
            out.append(
                "kernel lines timed in seconds since boot need the boot time of their host; "
                f"none was given for {', '.join(hosts[:5])}"
                + (f" and {len(hosts) - 5} more" if len(hosts) > 5 else "")
                + " (give one with --boot-time, incident.yaml's logs.boot_times, or "
                "node_exporter's node_boot_time_seconds in the metrics)"
            )
        if self.boot_from_file:
            files = sorted(self.boot_from_file)
            out.append(
                f"the boot time of {_plural(len(files), 'file')} timed since boot "
                f"({', '.join(files[:3])}{' and more' if len(files) > 3 else ''}) was "
                "taken from a line of the file that states the wall-clock time"
            )
        kept = {  # reason: (noun, verb, the rest of the sentence)
            NOT_UTF8: ("line", "was", "not valid UTF-8: kept, with the bad bytes replaced"),
            TOO_LONG: ("line", "was", f"over {MAX_LINE // 1024} KiB: kept, cut to that"),
            INCOMPLETE: ("file", "ends", "without a newline: the last line is kept"),
            BINARY_MESSAGE: ("journald message", "was", "binary, not UTF-8: bytes replaced"),
            GZIP_CUT: ("gzip file", "was", "cut short: the lines after the cut are lost"),
            CANNOT_OPEN: ("file", "could", "not be opened"),
        }
        plural_verb = {"was": "were", "ends": "end", "could": "could"}
        for reason, (noun, verb, rest) in kept.items():
            n = self.unreadable.get(reason, 0)
            if n:
                where = f" (e.g. {self.examples[reason]})" if reason in self.examples else ""
                verb = verb if n == 1 else plural_verb[verb]
                out.append(f"{_plural(n, noun)} {verb} {rest}{where}")
        if self.local_time_formats:
            out.append(
                f"times in {', '.join(sorted(self.local_time_formats))} lines carry no time "
                f"zone; they were read as {self.assume_tz} (assume_tz)"
            )
        if self.yearless_formats:
            out.append(
                f"times in {', '.join(sorted(self.yearless_formats))} lines carry no year; "
                "it was taken from the window"
            )
        inferred = self.inherited + self.backfilled + self.file_timed
        if inferred:
            ways = []
            if self.inherited:
                ways.append(f"{self.inherited} the time of the line before them")
            if self.backfilled:
                ways.append(
                    f"{self.backfilled} (before any timed line of their file) the time of "
                    "the line after them"
                )
            if self.file_timed:
                files = sorted(self.file_timed_files)
                shown = ", ".join(files[:3]) + (" and more" if len(files) > 3 else "")
                ways.append(
                    f"{self.file_timed} (in files with no time at all: {shown}) their file's "
                    "modification time"
                )
            out.append(
                f"{_plural(inferred, 'line')} had no time of their own (NCCL lines, "
                "tracebacks, continuation lines) and carry an inferred one: " + "; ".join(ways)
            )
        if self.facts:
            out.append(
                f"{_plural(self.report_lines, 'line')} of GPU reports "
                f"(nvidia-smi -q, dcgmi diag) were read as {_plural(self.facts, 'fact')} "
                "about the GPUs; the facts that say something is wrong are log lines too"
            )
        return out


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass
class Logs:
    """A window's log lines, with the receipt of how they were read, and the facts about
    the GPUs that reports among the files state (FACTS_SCHEMA)."""

    frame: pl.DataFrame
    receipt: LogReceipt
    facts: pl.DataFrame = field(default_factory=FACTS_SCHEMA.to_frame)

    @property
    def report(self) -> LogReceipt:
        """The receipt's name before 0.2."""
        return self.receipt


LogReport = LogReceipt
"""The receipt's name before 0.2."""
