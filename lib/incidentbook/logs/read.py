"""Logs of an incident window, read from what clusters write into one canonical frame.

A registry keyed by format name (the same shape as the metrics sources): each format has
sniff patterns, tried on the first non-empty lines of a file to detect it, and a parser
that turns a frame of lines into the canonical columns with polars expressions (no Python
loop over lines). Kernel logs (`dmesg` in its ISO, ctime and raw forms, `/dev/kmsg`,
pstore), syslog (RFC 3164 and 5424), `journalctl -o json`, generic JSON lines, trainer
stdout (nanotron, PyTorch glog, NCCL, mixed in one file), the NVIDIA fabric manager log
and `sacct --parsable2` all end in LOG_SCHEMA, so nothing downstream knows where a line
came from.

Nothing is dropped silently: every line is in the frame, outside the window, blank (or a
table header), or counted in the report with a reason and an example `file:line`. Bad
content never raises; only a logs folder that does not exist does (LogsError).

Lines without a timestamp of their own (NCCL lines, Python tracebacks, continuation lines
of a multi-line kernel record) take the time of the nearest timestamped line before them
in the same file.
"""

from __future__ import annotations

import fnmatch
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import polars as pl

from incidentbook.errors import IncidentbookError
from incidentbook.window import TimeWindow

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
    }
)

SEVERITIES = ("emerg", "alert", "crit", "err", "warning", "notice", "info", "debug")

MAX_LINE = 64 * 1024  # longer lines are kept, message and raw cut to this many characters
SNIFF_LINES = 50
SNIFF_RATIO = 0.6
BATCH_BYTES = 256 * 1024 * 1024  # files are parsed in batches of about this much text

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
# Counted per file, not per line: how many lines were lost is not known.
GZIP_CUT = "gzip file cut short (files; the lines before the cut are kept)"
CANNOT_OPEN = "file could not be opened (files)"
FILE_REASONS = frozenset({GZIP_CUT, CANNOT_OPEN})

# Line sources whose times carry no zone (read in assume_tz) or no year (from the window).
_LOCAL_TIME_SOURCES = frozenset(
    {"kernel-ctime", "syslog-3164", "nanotron", "torch-glog", "fabricmanager", "slurm-sacct"}
)
_YEARLESS_SOURCES = frozenset({"syslog-3164", "torch-glog"})

# Status values the parsers give a line besides a reason (null status: read).
_INHERIT = "inherit"  # no timestamp of its own: takes the previous line's
_SKIP = "skip"  # a header: carries no event


class LogsError(IncidentbookError):
    """Logs that cannot be read at all: a logs folder that does not exist, a bad option."""


# --- the report ---------------------------------------------------------------------


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
    skipped: int = 0  # blank lines and table headers
    inherited: int = 0  # lines that took the timestamp of the line before them
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
            out.append(
                f"{_plural(len(unknown), 'file')} in no known log format ({shown}): "
                f"{_plural(self.unreadable.get(UNKNOWN_FORMAT, 0), 'line')} not read"
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
                + " (pass boot_times)"
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
        if self.inherited:
            out.append(
                f"{_plural(self.inherited, 'line')} had no timestamp of their own (NCCL lines, "
                "tracebacks, continuation lines) and carry the time of the line before them"
            )
        return out


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass
class Logs:
    """A window's log lines, with the receipt of how they were read."""

    frame: pl.DataFrame
    receipt: LogReceipt

    @property
    def report(self) -> LogReceipt:
        """The receipt's name before 0.2."""
        return self.receipt


# --- the registry -------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    window: TimeWindow
    tz: str

    @property
    def start_us(self) -> int:
        return _us(self.window.start)

    @property
    def end_us(self) -> int:
        return _us(self.window.end)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _us(when: datetime) -> int:
    """Epoch microseconds, exactly (a float timestamp * 1e6 can be a microsecond off)."""
    return (when - _EPOCH) // timedelta(microseconds=1)


Parser = Callable[[pl.LazyFrame, _Ctx], pl.LazyFrame]


@dataclass(frozen=True)
class LogFormat:
    """A log format: how to recognise it and how to parse a frame of its lines.

    The parser gets a lazy frame of non-blank lines (`fid`, `line`, `raw`, and `_boot`,
    the boot time in epoch microseconds, when `needs_boot`) and returns it with `ts`,
    `host` (String, or List(String) for a line about several hosts), `severity`,
    `source`, `message` and `status` (null when read, else a reason or _INHERIT/_SKIP).
    """

    name: str
    sniff: tuple[str, ...]
    parse: Parser
    needs_boot: bool = False  # times relative to the host's boot
    inherit_severity: bool = True  # lines without a prefix belong to the record before
    line_host_first: bool = False  # the line's host wins over the folder's


_REGISTRY: dict[str, LogFormat] = {}


def register(name: str, *, sniff: tuple[str, ...] | str, **flags):
    """Add a parser to the registry under `name` (decorator). `sniff`: anchored regexes
    (Rust syntax) of a line of the format; `flags`: the LogFormat fields needs_boot,
    inherit_severity, line_host_first."""

    def add(parse: Parser) -> Parser:
        patterns = (sniff,) if isinstance(sniff, str) else tuple(sniff)
        _REGISTRY[name] = LogFormat(name, patterns, parse, **flags)
        return parse

    return add


def known_formats() -> list[str]:
    return list(_REGISTRY)


# --- expressions shared by the parsers ----------------------------------------------

_WORDS = {
    "emerg": "emerg",
    "emergency": "emerg",
    "panic": "emerg",
    "alert": "alert",
    "crit": "crit",
    "critical": "crit",
    "fatal": "crit",
    "f": "crit",
    "err": "err",
    "error": "err",
    "e": "err",
    "abort": "err",
    "failure": "err",
    "severe": "err",
    "warn": "warning",
    "warning": "warning",
    "w": "warning",
    "notice": "notice",
    "info": "info",
    "i": "info",
    "information": "info",
    "informational": "info",
    "debug": "debug",
    "d": "debug",
    "trace": "debug",
    "verbose": "debug",
}


def _severity(word: pl.Expr) -> pl.Expr:
    """A level word (any case) as a syslog severity name, null when unknown."""
    return word.str.to_lowercase().replace_strict(_WORDS, default=None, return_dtype=pl.String)


def _priority(number: pl.Expr) -> pl.Expr:
    """A syslog/kmsg priority (facility * 8 + severity) as a severity name."""
    return (number.cast(pl.Int64, strict=False) % 8).replace_strict(
        dict(enumerate(SEVERITIES)), default=None, return_dtype=pl.String
    )


def _epoch_us(us: pl.Expr) -> pl.Expr:
    return pl.from_epoch(us, time_unit="us").dt.replace_time_zone("UTC")


def _localise(naive: pl.Expr, tz: str) -> pl.Expr:
    """Naive wall-clock times of zone `tz` as UTC (a time in a DST gap is null)."""
    if tz == "UTC":
        return naive.dt.replace_time_zone("UTC")
    return naive.dt.replace_time_zone(
        tz, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")


def _local_time(text: pl.Expr, fmt: str, ctx: _Ctx) -> pl.Expr:
    return _localise(text.str.to_datetime(fmt, time_unit="us", strict=False), ctx.tz)


def _rfc3339(text: pl.Expr, ctx: _Ctx) -> pl.Expr:
    """RFC 3339 / ISO 8601 with T or space, optional fraction, Z, +hh:mm, +hhmm or no zone
    (read in assume_tz)."""
    norm = (
        text.str.strip_chars()
        .str.replace(r"^(\d{4}-\d\d-\d\d) ", "${1}T")
        .str.replace(r"[zZ]$", "+00:00")
    )
    aware = norm.str.to_datetime(
        "%Y-%m-%dT%H:%M:%S%.f%z", time_zone="UTC", time_unit="us", strict=False
    )
    naive = _local_time(norm, "%Y-%m-%dT%H:%M:%S%.f", ctx)
    return pl.coalesce(aware, naive)


def _with_year(stamp: pl.Expr, fmt: str, ctx: _Ctx) -> pl.Expr:
    """Times without a year (syslog, glog): each line gets the year that puts it nearest
    the window, so a window across New Year reads Dec 31 and Jan 1 right."""
    zone = ZoneInfo(ctx.tz)
    years = range(
        ctx.window.start.astimezone(zone).year - 1, ctx.window.end.astimezone(zone).year + 2
    )
    lo, hi = ctx.start_us, ctx.end_us - 1
    candidates, distances = [], []
    for year in years:
        when = _local_time(pl.lit(f"{year} ") + stamp, f"%Y {fmt}", ctx)
        us = when.dt.epoch("us")
        candidates.append(when)
        distances.append(
            pl.when(us.is_null()).then(None).otherwise(pl.max_horizontal(lo - us, us - hi, 0))
        )
    best = pl.min_horizontal(distances)
    chain = pl.when(distances[0] == best).then(candidates[0])
    for when, dist in zip(candidates[1:], distances[1:], strict=True):
        chain = chain.when(dist == best).then(when)
    return chain.otherwise(None)


# --- text formats: anchored prefix rules --------------------------------------------


@dataclass(frozen=True)
class _Rule:
    """One line shape: an anchored regex of the prefix (named groups; no trailing `.*`,
    which makes the regex engine walk the whole line), and how its groups become
    ts/severity/host/status. The message is the text after the prefix."""

    source: str
    pattern: str
    build: Callable[[Callable[[str], pl.Expr], _Ctx], dict[str, pl.Expr]]


def _text_parser(rules: list[_Rule], fallback_source: str) -> Parser:
    """Each line is parsed by the first rule whose prefix matches; a line that matches none
    is a continuation (or a traceback) and takes the timestamp of the line before."""

    def parse(lf: pl.LazyFrame, ctx: _Ctx) -> pl.LazyFrame:
        lf = lf.with_columns(
            pl.col("raw").str.extract_groups(f"^(?P<_p>{rule.pattern})").alias(f"_m{i}")
            for i, rule in enumerate(rules)
        )
        fields: dict[str, list[tuple[pl.Expr, pl.Expr]]] = {
            k: [] for k in ("ts", "severity", "host", "_own", "source", "message")
        }
        for i, rule in enumerate(rules):
            struct = pl.col(f"_m{i}")

            def group(name: str, struct: pl.Expr = struct) -> pl.Expr:
                return struct.struct.field(name)

            prefix = group("_p")
            got = rule.build(group, ctx)
            matched = prefix.is_not_null()
            fields["ts"].append((matched, got.get("ts", pl.lit(None, UTC_US))))
            fields["severity"].append((matched, got.get("severity", pl.lit(None, pl.String))))
            fields["host"].append((matched, got.get("host", pl.lit(None, pl.String))))
            fields["_own"].append((matched, got.get("status", pl.lit(None, pl.String))))
            fields["source"].append((matched, pl.lit(rule.source)))
            fields["message"].append((matched, pl.col("raw").str.slice(prefix.str.len_chars())))
        otherwise = {
            "ts": pl.lit(None, UTC_US),
            "severity": pl.lit(None, pl.String),
            "host": pl.lit(None, pl.String),
            "_own": pl.lit(_INHERIT),
            "source": pl.lit(fallback_source),
            "message": pl.col("raw"),
        }
        columns = {}
        for name, cases in fields.items():
            chain = pl.when(cases[0][0]).then(cases[0][1])
            for cond, value in cases[1:]:
                chain = chain.when(cond).then(value)
            columns[name] = chain.otherwise(otherwise[name])
        # A rule's own status first (no boot time, no time of its own); a prefix whose time
        # does not parse (Feb 30, a DST gap) is an unreadable timestamp.
        own = pl.col("_own")
        status = (
            pl.when(own.is_not_null())
            .then(own)
            .when(pl.col("ts").is_null())
            .then(pl.lit(BAD_TIMESTAMP))
        )
        return (
            lf.with_columns(**columns)
            .with_columns(status=status)
            .drop([f"_m{i}" for i in range(len(rules))] + ["_own"])
        )

    return parse


def _text_format(name: str, rules: list[_Rule], fallback_source: str | None = None, **flags):
    register(name, sniff=tuple(r.pattern for r in rules), **flags)(
        _text_parser(rules, fallback_source or name)
    )


# `dmesg --decode` prefix: facility and level padded to six characters ("kern  :warn  : ").
# The facility starts with a letter so the regex stays one-pass (a digit would be ambiguous
# with a timestamp), several times faster on a million lines.
_DECODE = r"(?:(?P<facility>[a-z][a-z0-9]*) *:(?P<level>[a-z]+) *: )?"


def _decoded_severity(g: Callable[[str], pl.Expr]) -> pl.Expr:
    return _severity(g("level"))


def _dmesg_iso(g: Callable[[str], pl.Expr]) -> pl.Expr:
    """`2025-01-21T04:41:44,283302+00:00`: the fixed-width naive part parses about four
    times faster than a format with %z (polars' fast path), the offset is added after."""
    naive = g("ts").str.to_datetime("%Y-%m-%dT%H:%M:%S,%6f", time_unit="us", strict=False)
    minutes = g("oh").cast(pl.Int64) * 60 + g("om").cast(pl.Int64)
    signed = pl.when(g("sign") == "-").then(-minutes).otherwise(minutes)
    return (naive - pl.duration(minutes=signed)).dt.replace_time_zone("UTC")


_text_format(
    "kernel-iso",
    [
        _Rule(
            "kernel-iso",
            _DECODE
            + r"(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6})"
            + r"(?P<sign>[+-])(?P<oh>\d\d):?(?P<om>\d\d) ?",
            lambda g, ctx: {"ts": _dmesg_iso(g), "severity": _decoded_severity(g)},
        )
    ],
)

_text_format(
    "kernel-ctime",
    [
        _Rule(
            "kernel-ctime",
            _DECODE + r"\[(?P<ts>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\] ?",
            lambda g, ctx: {
                "ts": _local_time(
                    g("ts").str.replace("  ", " ", literal=True), "%a %b %d %H:%M:%S %Y", ctx
                ),
                "severity": _decoded_severity(g),
            },
        )
    ],
)


def _since_boot(us: pl.Expr) -> dict[str, pl.Expr]:
    boot = pl.col("_boot")
    return {
        "ts": _epoch_us(boot + us),
        "status": pl.when(boot.is_null()).then(pl.lit(NO_BOOT_TIME)),
    }


def _kernel_raw(g, ctx):
    us = (g("secs").cast(pl.Float64, strict=False) * 1e6).round().cast(pl.Int64)
    return _since_boot(us) | {"severity": pl.coalesce(_decoded_severity(g), _priority(g("pri")))}


# pstore dumps (`/sys/fs/pstore/dmesg-erst-*`) start each part with two header lines.
_PSTORE_HEADER = (
    r"dmesg-[\w-]+:$|(?:Panic|Oops|Emergency|Shutdown|Restart|Halt|Poweroff|Unknown)#\d+ Part\d+$"
)

_text_format(
    "kernel-raw",
    [
        _Rule(
            "kernel-raw",
            r"(?:<(?P<pri>\d{1,3})>)?" + _DECODE + r"\[ *(?P<secs>\d+\.\d+)\] ?",
            _kernel_raw,
        ),
        _Rule("kernel-raw", _PSTORE_HEADER, lambda g, ctx: {"status": pl.lit(_SKIP)}),
    ],
    needs_boot=True,
)

_text_format(
    "kmsg",
    [
        _Rule(
            "kmsg",
            r"(?P<pri>\d{1,4}),(?P<seq>\d+),(?P<usec>\d+),(?P<flags>[^;]*);",
            lambda g, ctx: (
                _since_boot(g("usec").cast(pl.Int64, strict=False))
                | {"severity": _priority(g("pri"))}
            ),
        )
    ],
    needs_boot=True,
)

_BSD_STAMP = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
_ISO_STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[zZ]|[+-]\d\d:?\d\d)"


def _syslog_3164(g, ctx):
    stamp = g("ts")
    bsd = _with_year(stamp.str.replace("  ", " ", literal=True), "%b %d %H:%M:%S%.f", ctx)
    return {
        "ts": pl.when(stamp.str.contains(r"^\d")).then(_rfc3339(stamp, ctx)).otherwise(bsd),
        "severity": _priority(g("pri")),
        "host": g("host"),
    }


_text_format(
    "syslog-3164",
    [
        _Rule(
            "syslog-3164",
            rf"(?:<(?P<pri>\d{{1,3}})>)?(?P<ts>{_BSD_STAMP}|{_ISO_STAMP}) (?P<host>[^\s:]+) "
            r"(?:(?P<tag>[^\s:\[]+)(?:\[(?P<pid>[^\]]*)\])?: ?)?",
            _syslog_3164,
        )
    ],
)


def _syslog_5424(g, ctx):
    stamp = g("ts")
    return {
        "ts": _rfc3339(stamp, ctx),
        "status": pl.when(stamp == "-").then(pl.lit(NO_TIMESTAMP)),
        "severity": _priority(g("pri")),
        "host": pl.when(g("host") == "-").then(None).otherwise(g("host")),
    }


_text_format(
    "syslog-5424",
    [
        _Rule(
            "syslog-5424",
            r"<(?P<pri>\d{1,3})>(?P<version>\d{1,2}) (?P<ts>\S+) (?P<host>\S+) (?P<app>\S+) "
            r'(?P<procid>\S+) (?P<msgid>\S+) (?P<sd>-|(?:\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\])+) ?'
            "\ufeff?",
            _syslog_5424,
        )
    ],
)

# Trainer stdout. torchrun --tee and `srun -l` put a rank prefix before each line.
_LAUNCHER = r"(?:\[default\d+\]:|\d+: )?"

_NANOTRON = _Rule(
    "nanotron",
    _LAUNCHER
    + r"(?P<ts>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d) \[(?P<level>[A-Z]+)(?P<fields>(?:\|[^|\]]*)*)\]: ?",
    lambda g, ctx: {
        "ts": _local_time(g("ts"), "%m/%d/%Y %H:%M:%S", ctx),
        "severity": _severity(g("level")),
        "host": g("fields").str.extract(r"\|([^|=]+)$", 1),
    },
)


def _glog(g, ctx):
    day = g("mmdd")
    stamp = day.str.zfill(4) + " " + g("time")
    return {
        "ts": _with_year(stamp, "%m%d %H:%M:%S%.f", ctx),
        # `[E ProcessGroupNCCL.cpp:737]` (older PyTorch) has no time: it takes the previous.
        "status": pl.when(day.is_null()).then(pl.lit(_INHERIT)),
        "severity": _severity(g("level")),
    }


# `[rank3]:[E1017 16:31:56.123456789 ProcessGroupNCCL.cpp:1484] msg` (PyTorch >= 2.2),
# `E1017 16:31:56.123456  1234 file.cpp:12] msg` (glog), `[E ProcessGroupNCCL.cpp:737] msg`.
# The month has one or two digits (`E321` is March 21).
_GLOG = _Rule(
    "torch-glog",
    _LAUNCHER + r"(?:\[rank(?P<rank>\d+)\]:)?\[?(?P<level>[IWEF])(?:(?P<mmdd>\d{3,4}) "
    r"(?P<time>\d\d:\d\d:\d\d\.\d+))? +(?:(?P<tid>\d+) +)?(?P<src>[^\s\]]+:\d+)\] ?",
    _glog,
)

# `host:pid:tid [dev] NCCL INFO msg`, `host:pid:tid [dev] file.cc:123 NCCL WARN msg`.
_NCCL = _Rule(
    "nccl",
    _LAUNCHER + r"(?P<host>[^\s:\[\]]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>[^\]]*)\]"
    r"(?: (?P<src>\S+:\d+))? NCCL (?P<level>INFO|WARN|ERROR|ABORT|TRACE)\b ?",
    lambda g, ctx: {
        "status": pl.lit(_INHERIT),
        "severity": _severity(g("level")),
        "host": g("host"),
    },
)

_TRAINER_FLAGS = {"inherit_severity": False}
_text_format("nanotron", [_NANOTRON], "trainer", **_TRAINER_FLAGS)
_text_format("torch-glog", [_GLOG], "trainer", **_TRAINER_FLAGS)
_text_format("nccl", [_NCCL], "trainer", **_TRAINER_FLAGS)
# Registered after the three: a pure nanotron file ties and stays "nanotron".
_text_format("trainer", [_NANOTRON, _GLOG, _NCCL], "trainer", **_TRAINER_FLAGS)

# nvidia-fabricmanager: `[Feb 25 2025 13:59:45] [INFO] [tid 1803] msg`, payload lines follow.
_text_format(
    "fabricmanager",
    [
        _Rule(
            "fabricmanager",
            r"\[(?P<ts>[A-Z][a-z]{2} [ \d]\d \d{4} \d\d:\d\d:\d\d)\] \[(?P<level>[A-Z]+)\] "
            r"(?:\[tid (?P<tid>\d+)\] ?)?",
            lambda g, ctx: {
                "ts": _local_time(
                    g("ts").str.replace("  ", " ", literal=True), "%b %d %Y %H:%M:%S", ctx
                ),
                "severity": _severity(g("level")),
            },
        )
    ],
)

# IBM Blue Gene RAS events (the BGL logs of the Computer Failure Data Repository):
# `- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11
# RAS KERNEL INFO msg`. The first field is an annotation some published copies add (an
# alert tag); it is skipped, never read. Times are epoch seconds; the host is the location.
_text_format(
    "bluegene-ras",
    [
        _Rule(
            "bluegene-ras",
            r"\S+ (?P<epoch>\d{9,10}) \d{4}\.\d\d\.\d\d (?P<host>\S+) "
            r"\d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d+ \S+ [A-Z]+ (?P<component>[A-Z_]+) "
            r"(?P<level>[A-Z]+) ",
            lambda g, ctx: {
                "ts": _epoch_us(g("epoch").cast(pl.Int64) * 1_000_000),
                "severity": _severity(g("level")),
                "host": g("host"),
            },
        )
    ],
    line_host_first=True,
)


# --- JSON formats -------------------------------------------------------------------


def _json(key: str) -> pl.Expr:
    return pl.col("raw").str.json_path_match(f"$['{key}']")


def _json_valid() -> pl.Expr:
    # json_path_match is null for a line that is not JSON: a vectorised validity check.
    return pl.col("raw").str.json_path_match("$").str.starts_with("{")


def _decode_bytes(arrays: pl.Series) -> pl.Series:
    """journald MESSAGE arrays of bytes as text. Polars has no lossy UTF-8 decoder, so the
    few binary messages (not the lines around them) go through Python's."""
    n = len(arrays)
    where = arrays.is_not_null().arg_true()
    text = pl.Series("text", [None] * n, dtype=pl.String)
    lossy = pl.Series("lossy", [None] * n, dtype=pl.Boolean)
    if len(where):
        decoded, bad = [], []
        for values in arrays.gather(where).to_list():
            try:
                decoded.append(bytes(values).decode("utf-8"))
                bad.append(False)
            except UnicodeDecodeError:
                decoded.append(bytes(values).decode("utf-8", errors="replace"))
                bad.append(True)
        text = text.scatter(where, decoded)
        lossy = lossy.scatter(where, bad)
    return pl.struct(text, lossy, eager=True)


@register("journald-json", sniff=r'\s*\{.*"__REALTIME_TIMESTAMP"\s*:')
def _journald(lf: pl.LazyFrame, ctx: _Ctx) -> pl.LazyFrame:
    raw = pl.col("raw")
    lf = lf.with_columns(
        _valid=_json_valid(),
        _us=_json("__REALTIME_TIMESTAMP").cast(pl.Int64, strict=False),
        _msg=_json("MESSAGE"),
        # MESSAGE is an array of byte values when it is not valid UTF-8 (or has controls).
        _bytes=raw.str.contains(r'"MESSAGE"\s*:\s*\['),
    )
    decoded = (
        pl.when(pl.col("_bytes"))
        .then(pl.col("_msg"))
        .str.json_decode(pl.List(pl.UInt8))
        .map_batches(
            _decode_bytes, return_dtype=pl.Struct({"text": pl.String, "lossy": pl.Boolean})
        )
    )
    lf = lf.with_columns(_decoded=decoded)
    return lf.with_columns(
        ts=_epoch_us(pl.col("_us")),
        host=_json("_HOSTNAME"),
        severity=_priority(_json("PRIORITY")),
        source=pl.lit("journald-json"),
        message=pl.when(pl.col("_bytes"))
        .then(pl.col("_decoded").struct.field("text"))
        .otherwise(pl.col("_msg")),
        _kept=pl.when(pl.col("_decoded").struct.field("lossy")).then(pl.lit(BINARY_MESSAGE)),
        status=pl.when(~pl.col("_valid").fill_null(False))
        .then(pl.lit(MALFORMED_JSON))
        .when(pl.col("_us").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .otherwise(None),
    ).drop("_valid", "_us", "_msg", "_bytes", "_decoded")


_TS_KEYS = ("ts", "time", "timestamp", "@timestamp")
_LEVEL_KEYS = ("level", "severity", "log.level", "lvl")
_MESSAGE_KEYS = ("msg", "message")
# pino / bunyan numeric levels
_NUMERIC_LEVELS = {
    "10": "debug",
    "20": "debug",
    "30": "info",
    "40": "warning",
    "50": "err",
    "60": "crit",
}


@register("jsonl", sniff=r'\s*\{.*"(?:ts|time|timestamp|@timestamp)"\s*:')
def _jsonl(lf: pl.LazyFrame, ctx: _Ctx) -> pl.LazyFrame:
    stamp = pl.coalesce([_json(k) for k in _TS_KEYS]).str.strip_chars()
    number = stamp.cast(pl.Float64, strict=False)
    # Epoch numbers by magnitude: seconds, then milliseconds, micro, nanoseconds.
    epoch_us = (
        pl.when(number < 1e11)
        .then(number * 1e6)
        .when(number < 1e14)
        .then(number * 1e3)
        .when(number < 1e17)
        .then(number)
        .otherwise(number / 1e3)
    )
    host_obj = pl.col("raw").str.json_path_match("$.host.name")
    host = pl.coalesce(
        _json("hostname"),
        host_obj,
        pl.when(_json("host").str.starts_with("{")).then(None).otherwise(_json("host")),
    )
    level = pl.coalesce([_json(k) for k in _LEVEL_KEYS])
    lf = lf.with_columns(
        _valid=_json_valid(),
        _ts=pl.when(number.is_not_null())
        .then(_epoch_us(epoch_us.round().cast(pl.Int64)))
        .otherwise(_rfc3339(stamp, ctx)),
        _stamp=stamp,
    )
    return lf.with_columns(
        ts=pl.col("_ts"),
        host=host,
        severity=pl.coalesce(
            level.replace_strict(_NUMERIC_LEVELS, default=None, return_dtype=pl.String),
            _severity(level),
            pl.when(level.str.contains(r"^[0-7]$")).then(_priority(level)),
        ),
        source=pl.lit("jsonl"),
        message=pl.coalesce([_json(k) for k in _MESSAGE_KEYS] + [pl.col("raw")]),
        status=pl.when(~pl.col("_valid").fill_null(False))
        .then(pl.lit(MALFORMED_JSON))
        .when(pl.col("_stamp").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(pl.col("_ts").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .otherwise(None),
    ).drop("_valid", "_ts", "_stamp")


# --- Slurm sacct --------------------------------------------------------------------

# The job states of sacct(1) "JOB STATE CODES" (formats/slurm/sacct_job_state_codes.csv).
SACCT_STATE_SEVERITY = {
    "BOOT_FAIL": "err",
    "CANCELLED": "notice",
    "COMPLETED": "info",
    "DEADLINE": "err",
    "FAILED": "err",
    "NODE_FAIL": "err",
    "OUT_OF_MEMORY": "err",
    "PENDING": "info",
    "PREEMPTED": "warning",
    "RUNNING": "info",
    "REQUEUED": "notice",
    "RESIZING": "info",
    "REVOKED": "notice",
    "SUSPENDED": "notice",
    "TIMEOUT": "err",
}

_SACCT_HEADER = r"(?i)^JobID\|"


def expand_hostlist(nodelists: pl.Series) -> pl.Series:
    """Slurm hostlist expressions as lists of hosts: `gpu[001-003,007],cpu5` -> 5 hosts.

    Vectorised: split at top-level commas, then expand one bracket group per pass (a
    loop over bracket groups, not over hosts). "None assigned" and empty give [].
    """
    base = pl.DataFrame({"row": np.arange(len(nodelists), dtype=np.uint32), "h": nodelists})
    parts = (
        base.with_columns(pl.col("h").str.extract_all(r"(?:[^,\[\s]|\[[^\]]*\])+"))
        .explode("h")
        .drop_nulls("h")
        .filter(~pl.col("h").str.to_lowercase().is_in(["none", "assigned", "(null)"]))
        .with_row_index("order")
    )
    for _ in range(8):  # a hostlist has at most a few bracket groups (rack[1-2]-n[01-16])
        if not parts.get_column("h").str.contains(r"\[").any():
            break
        m = parts.with_columns(
            pl.col("h")
            .str.extract_groups(r"^(?P<pre>[^\[]*)\[(?P<ranges>[^\]]*)\](?P<post>.*)$")
            .alias("m")
        ).unnest("m")
        plain = m.filter(pl.col("pre").is_null()).select("row", "order", "h")
        ranged = (
            m.filter(pl.col("pre").is_not_null())
            .with_columns(pl.col("ranges").str.split(","))
            .explode("ranges")
            .with_columns(
                lo=pl.col("ranges").str.extract(r"^\s*(\d+)", 1),
                hi=pl.coalesce(
                    pl.col("ranges").str.extract(r"-\s*(\d+)\s*$", 1),
                    pl.col("ranges").str.extract(r"^\s*(\d+)", 1),
                ),
            )
            .with_columns(
                width=pl.col("lo").str.len_chars(),
                n=pl.int_ranges(
                    pl.col("lo").cast(pl.Int64), pl.col("hi").cast(pl.Int64) + 1, dtype=pl.Int64
                ),
            )
            .explode("n")
            .drop_nulls("n")
            .select(
                "row",
                "order",
                h=pl.col("pre")
                + pl.col("n").cast(pl.String).str.zfill(pl.col("width"))
                + pl.col("post"),
            )
        )
        parts = pl.concat([plain, ranged]).sort("row", "order", maintain_order=True)
        parts = parts.with_columns(order=pl.int_range(pl.len(), dtype=pl.UInt32))
    grouped = parts.group_by("row").agg(pl.col("h"))
    return (
        base.select("row")
        .join(grouped, on="row", how="left")
        .sort("row")
        .get_column("h")
        .fill_null(pl.lit([], pl.List(pl.String)))
        .alias(nodelists.name)
    )


@register(
    "slurm-sacct",
    sniff=(_SACCT_HEADER.removeprefix("(?i)^"), r"\d+(?:[_+][\w\[\]-]+)?(?:\.[\w-]+)?\|"),
    line_host_first=True,
)
def _sacct(lf: pl.LazyFrame, ctx: _Ctx) -> pl.LazyFrame:
    frame = lf.collect()  # sacct output is small; the header decides the columns
    raw = pl.col("raw")
    is_header = raw.str.contains(_SACCT_HEADER)
    frame = frame.with_columns(
        _header=pl.when(is_header).then(raw).forward_fill().over("fid"),
        _is_header=is_header,
    )
    parts = raw.str.split("|")
    columns: dict[str, pl.Expr] = {}
    wanted = ("jobid", "jobname", "state", "exitcode", "start", "end", "nodelist")
    headers = frame.get_column("_header").drop_nulls().unique(maintain_order=True).to_list()
    for name in wanted:
        chain = None
        for header in headers:
            names = [n.strip().lower() for n in header.split("|")]
            if name not in names:
                continue
            value = parts.list.get(names.index(name), null_on_oob=True).str.strip_chars()
            cond = pl.col("_header") == header
            chain = pl.when(cond).then(value) if chain is None else chain.when(cond).then(value)
        columns[name] = chain.otherwise(None) if chain is not None else pl.lit(None, pl.String)
    frame = frame.with_columns(**{f"_{k}": v for k, v in columns.items()})
    unknown = ["", "unknown", "none", "n/a"]

    def when_known(col: str) -> pl.Expr:
        c = pl.col(col)
        return pl.when(c.str.to_lowercase().is_in(unknown)).then(None).otherwise(c)

    stamp = pl.coalesce(when_known("_end"), when_known("_start"))
    state = pl.col("_state").str.extract(r"^([A-Z_]+)", 1)
    hosts = expand_hostlist(frame.get_column("_nodelist").fill_null(""))
    frame = frame.with_columns(
        ts=_local_time(stamp, "%Y-%m-%dT%H:%M:%S", ctx),
        host=hosts,
        severity=state.replace_strict(SACCT_STATE_SEVERITY, default=None, return_dtype=pl.String),
        source=pl.lit("slurm-sacct"),
        message=pl.format(
            "job {} ({}) {} exit {} on {}",
            *[pl.col(c).fill_null("?") for c in ("_jobid", "_jobname", "_state", "_exitcode")],
            pl.col("_nodelist").fill_null("?"),
        ),
        _stamp=stamp,
    )
    frame = frame.with_columns(
        status=pl.when(pl.col("_is_header"))
        .then(pl.lit(_SKIP))
        .when(pl.col("_header").is_null())
        .then(pl.lit(NO_HEADER))
        .when(pl.col("_stamp").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(pl.col("ts").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .otherwise(None)
    )
    return frame.drop([c for c in frame.columns if c.startswith("_") and c != "_boot"]).lazy()


@register("unknown", sniff=())
def _unknown(lf: pl.LazyFrame, ctx: _Ctx) -> pl.LazyFrame:
    return lf.with_columns(
        ts=pl.lit(None, UTC_US),
        host=pl.lit(None, pl.String),
        severity=pl.lit(None, pl.String),
        source=pl.lit("unknown"),
        message=pl.col("raw"),
        status=pl.lit(UNKNOWN_FORMAT),
    )


# --- reading files ------------------------------------------------------------------


@dataclass
class _File:
    path: Path
    key: str  # the path shown in the report and the `file` column
    host: str | None  # the folder's (or the caller's) host
    stem: str
    forced: str | None = None
    text: str = ""
    lines: int = 0
    incomplete: bool = False
    lossy: bool = False
    gzip_cut: bool = False
    unopened: bool = False
    fmt: str = "unknown"


def _gunzip(data: bytes) -> tuple[bytes, bool]:
    """Decompress gzip members one after another; a stream cut short keeps what came
    before the cut (fed in 1 MiB pieces so a corrupt piece loses little)."""
    out: list[bytes] = []
    piece = 1 << 20
    while data:
        d = zlib.decompressobj(wbits=31)
        pos = 0
        try:
            while pos < len(data) and not d.eof:
                out.append(d.decompress(data[pos : pos + piece]))
                pos += piece
        except zlib.error:
            return b"".join(out), True
        if not d.eof:
            out.append(d.flush())
            return b"".join(out), True
        data = d.unused_data.lstrip(b"\0")
        if data and not data.startswith(b"\x1f\x8b"):
            return b"".join(out), True
    return b"".join(out), False


def _load(f: _File) -> None:
    try:
        data = f.path.read_bytes()
    except OSError:
        f.unopened = True
        return
    if data[:2] == b"\x1f\x8b":  # gzip, by its magic (a .gz that is not gzip is read as text)
        data, f.gzip_cut = _gunzip(data)
    # Decoding in Python (C speed, ~GB/s on ASCII) and splitting in polars is fast and exact:
    # the CSV reader (scan_csv with a rare separator, no quoting) would split a line that
    # holds the separator into fields (an error, or text lost with truncate_ragged_lines),
    # and polars' CSV reader has no way to say which lines held invalid UTF-8.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        f.lossy = True
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    f.incomplete = bool(text) and not text.endswith("\n")
    f.text = text  # f.lines is counted when the text is split


def _sample(text: str) -> list[str]:
    """The first non-blank lines (each cut to 2 KiB) for format detection. Indented lines
    are left out: in every format they continue the record before (tracebacks, dmesg's
    multi-line records, kmsg dictionaries)."""
    out, pos = [], 0
    while len(out) < SNIFF_LINES and pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line = text[pos : min(end, pos + 2048)]
        if line.strip() and not line[0].isspace():
            out.append(line)
        pos = end + 1
    return out


def _detect(files: list[_File]) -> None:
    """The format of each file: the registered format whose sniff patterns match the largest
    share of its first lines (at least SNIFF_RATIO; ties go to the one registered first)."""
    todo = [f for f in files if f.forced is None and f.text]
    for f in files:
        if f.forced is not None:
            f.fmt = f.forced
        elif not f.text:
            f.fmt = "empty"
    if not todo:
        return
    fids, lines = [], []
    for i, f in enumerate(todo):
        sample = _sample(f.text)
        fids += [i] * len(sample)
        lines += sample
    sample = pl.DataFrame({"fid": pl.Series(fids, dtype=pl.UInt32), "raw": lines})
    ratios = sample.group_by("fid").agg(
        pl.any_horizontal([pl.col("raw").str.contains(f"^(?:{p})") for p in fmt.sniff])
        .mean()
        .alias(name)
        for name, fmt in _REGISTRY.items()
        if fmt.sniff
    )
    names = [c for c in ratios.columns if c != "fid"]
    for row in ratios.iter_rows():
        fid, scores = row[0], row[1:]
        best = max(range(len(names)), key=lambda k: (scores[k] or 0, -k))
        if (scores[best] or 0) >= SNIFF_RATIO:
            todo[fid].fmt = names[best]


_PIECE = 1 << 30  # a polars string holds at most 4 GiB: bigger texts are cut at newlines


def _pieces(text: str) -> Iterator[str]:
    pos = 0
    while len(text) - pos > _PIECE:
        cut = text.rfind("\n", pos, pos + _PIECE)
        cut = pos + _PIECE - 1 if cut < 0 else cut  # a line of 1 GiB: cut anywhere
        yield text[pos : cut + 1]
        pos = cut + 1
    yield text[pos:]


def _split(files: list[_File]) -> pl.DataFrame:
    """One frame of the lines of several files: fid (index in `files`), line, raw.

    One polars string per file, split in one call: no Python list of a million lines and
    no joined copy of the text (several times faster than either). Each text loses one
    final newline first, so `a\nb\n` is two lines and `a\nb` (incomplete) is two too.
    """
    texts, owners = [], []
    for i, f in enumerate(files):
        for piece in _pieces(f.text):
            texts.append(piece)
            owners.append(i)
    lists = pl.Series("raw", texts, dtype=pl.String).str.strip_suffix("\n").str.split("\n")
    per_piece = lists.list.len().to_numpy().astype(np.int64)
    counts = np.bincount(np.array(owners, dtype=np.int64), per_piece, len(files)).astype(np.int64)
    for f, n in zip(files, counts, strict=True):
        f.lines = int(n)
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    fid = np.repeat(np.arange(len(files), dtype=np.uint32), counts)
    line = (np.arange(total, dtype=np.int64) - np.repeat(starts, counts) + 1).astype(np.uint32)
    return pl.DataFrame({"fid": fid, "line": line, "raw": lists.explode()})


def _within_file(value: pl.Expr, anchor: pl.Expr) -> pl.Expr:
    """`value` of the last anchor row at or before each row, in the same file (rows are in
    file order). By row index, so an anchor whose value is null passes on null."""
    at = pl.when(anchor).then(pl.int_range(pl.len(), dtype=pl.UInt32)).forward_fill()
    return pl.when(pl.col("fid").gather(at) == pl.col("fid")).then(value.gather(at))


def _inherit(done: pl.DataFrame, fmt: LogFormat, host_is_list: bool) -> pl.DataFrame:
    """Lines without a time of their own take the previous timestamped line's (same file),
    its reason when it had one, its host, and (continuation lines) its severity."""
    status = pl.col("status")
    inherit = status.fill_null("") == _INHERIT
    anchor = ~status.fill_null("").is_in([_INHERIT, _SKIP])
    prev_ts = _within_file(pl.col("ts"), anchor)
    prev_status = _within_file(status.fill_null(""), anchor)
    updates = {
        "ts": pl.when(inherit).then(prev_ts).otherwise(pl.col("ts")),
        "status": pl.when(inherit)
        .then(
            pl.when(prev_status.is_null())
            .then(pl.lit(NO_TIMESTAMP))
            .otherwise(pl.when(prev_status != "").then(prev_status))
        )
        .otherwise(status),
        "_inherited": inherit,
    }
    if not host_is_list:
        updates["host"] = (
            pl.when(inherit)
            .then(pl.coalesce(pl.col("host"), _within_file(pl.col("host"), anchor)))
            .otherwise(pl.col("host"))
        )
    if fmt.inherit_severity:
        updates["severity"] = (
            pl.when(inherit)
            .then(pl.coalesce(pl.col("severity"), _within_file(pl.col("severity"), anchor)))
            .otherwise(pl.col("severity"))
        )
    return done.with_columns(**updates)


def _parse_group(
    fmt: LogFormat,
    files: list[_File],
    ctx: _Ctx,
    boot_times: dict[str, datetime],
    report: LogReceipt,
) -> pl.DataFrame | None:
    lines = _split(files)
    if lines.height == 0:
        return None
    keys = pl.Series([f.key for f in files], dtype=pl.String)
    raw = pl.col("raw")

    def example(mask: pl.Expr) -> tuple[int, str | None]:
        got = lines.filter(mask).select(pl.len(), pl.col("fid").first(), pl.col("line").first())
        n, fid, line = got.row(0)
        return n, (f"{files[fid].key}:{line}" if n else None)

    if fmt.name != "unknown":  # lines of an unknown file are not kept: counted once, below
        lossy = [i for i, f in enumerate(files) if f.lossy]
        if lossy:
            report.count(
                NOT_UTF8,
                *example(pl.col("fid").is_in(lossy) & raw.str.contains("\ufffd", literal=True)),
            )
        report.count(TOO_LONG, *example(raw.str.len_bytes() > MAX_LINE))
        for f in files:
            if f.incomplete:
                report.count(INCOMPLETE, 1, f"{f.key}:{f.lines}")

    blank = raw.str.contains(r"^\s*$")
    report.skipped += int(lines.select(blank.sum()).item())
    lf = lines.lazy().filter(~blank)
    if fmt.needs_boot:
        boots = []
        for f in files:
            host = f.host or f.stem
            when = (boot_times or {}).get(host)
            boots.append(None if when is None else _us(when))
            if when is None:
                report.hosts_without_boot_time.add(host)
        lf = lf.with_columns(_boot=pl.lit(pl.Series(boots, dtype=pl.Int64)).gather(pl.col("fid")))
    done = fmt.parse(lf, ctx).collect()
    host_is_list = isinstance(done.schema["host"], pl.List)
    if (done.get_column("status") == _INHERIT).any():
        done = _inherit(done, fmt, host_is_list)
    else:
        done = done.with_columns(_inherited=pl.lit(False))

    # Count what was not read, then keep the window.
    if "_kept" in done.columns:
        kept_reasons = (
            done.filter(pl.col("_kept").is_not_null())
            .group_by("_kept")
            .agg(pl.len(), pl.col("fid").first(), pl.col("line").first())
        )
        for reason, n, fid, line in kept_reasons.iter_rows():
            report.count(reason, n, f"{files[fid].key}:{line}")
    bad = (
        done.filter(pl.col("status").is_not_null())
        .group_by("status")
        .agg(pl.len(), pl.col("fid").first(), pl.col("line").first())
    )
    for reason, n, fid, line in bad.iter_rows():
        if reason == _SKIP:
            report.skipped += n
        else:
            report.count(reason, n, f"{files[fid].key}:{line}")
    ok = pl.col("status").is_null()
    inside = ok & (pl.col("ts") >= ctx.window.start) & (pl.col("ts") < ctx.window.end)
    counts = done.select(
        inside=inside.sum(), ok=ok.sum(), inherited=(ok & pl.col("_inherited")).sum()
    ).row(0, named=True)
    report.in_window += counts["inside"]
    report.outside_window += counts["ok"] - counts["inside"]
    report.inherited += counts["inherited"]
    if counts["ok"]:
        read = set(done.filter(ok).get_column("source").unique().to_list())
        report.local_time_formats |= read & _LOCAL_TIME_SOURCES
        report.yearless_formats |= read & _YEARLESS_SOURCES

    kept = done.filter(inside)
    if kept.height == 0:
        return None
    if host_is_list:
        kept = kept.explode("host")
    folder_host = pl.lit(pl.Series([f.host for f in files], dtype=pl.String)).gather(pl.col("fid"))
    stem = pl.lit(pl.Series([f.stem for f in files], dtype=pl.String)).gather(pl.col("fid"))
    host = (
        pl.coalesce(pl.col("host"), folder_host, stem)
        if fmt.line_host_first
        else pl.coalesce(folder_host, pl.col("host"), stem)
    )

    def cut(col: str) -> pl.Expr:
        c = pl.col(col)
        # Characters, not bytes: polars slices strings by character (64 Ki ASCII = 64 KiB).
        return pl.when(c.str.len_bytes() > MAX_LINE).then(c.str.head(MAX_LINE)).otherwise(c)

    return kept.select(
        pl.col("ts").cast(UTC_US),
        host=host,
        source=pl.col("source"),
        severity=pl.col("severity"),
        message=cut("message"),
        raw=cut("raw"),
        file=pl.lit(keys).gather(pl.col("fid")),
        line=pl.col("line"),
    )


def _read(
    files: list[_File],
    window: TimeWindow,
    boot_times: dict[str, datetime] | None,
    assume_tz: str,
) -> tuple[pl.DataFrame, LogReceipt]:
    try:
        ZoneInfo(assume_tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise LogsError(
            f"assume_tz={assume_tz!r} is not a time zone name; use an IANA name such as "
            "'UTC' or 'Europe/Paris'"
        ) from None
    ctx = _Ctx(window=window, tz=assume_tz)
    report = LogReceipt(assume_tz=assume_tz)
    frames: list[pl.DataFrame] = []
    for batch in _batches(files):
        for f in batch:
            _load(f)
        _detect(batch)
        groups: dict[str, list[_File]] = {}
        for f in batch:
            if f.text:
                groups.setdefault(f.fmt, []).append(f)
        for name, members in groups.items():
            got = _parse_group(_REGISTRY[name], members, ctx, boot_times or {}, report)
            if got is not None:
                frames.append(got)
        for f in batch:
            report.files[f.key] = f.fmt if not f.unopened else "unreadable"
            report.lines_read += f.lines
            if f.unopened:
                report.count(CANNOT_OPEN, 1, f.key)
            if f.gzip_cut:
                report.count(GZIP_CUT, 1, f"{f.key}:{f.lines}")
        for f in batch:
            f.text = ""  # free the batch's text before the next one
    frame = pl.concat([LOG_SCHEMA.to_frame(), *frames], how="vertical")
    return frame.sort("ts", "host", "file", "line"), report


def _batches(files: list[_File]) -> Iterator[list[_File]]:
    """Consecutive files of about BATCH_BYTES on disk, so memory stays bounded."""
    batch, size = [], 0
    for f in files:
        try:
            n = f.path.stat().st_size * (4 if f.path.suffix == ".gz" else 1)
        except OSError:
            n = 0
        if batch and size + n > BATCH_BYTES:
            yield batch
            batch, size = [], 0
        batch.append(f)
        size += n
    if batch:
        yield batch


def _stem(path: Path) -> str:
    name = path.name.removesuffix(".gz")
    return Path(name).stem or name


def _forced(key: str, formats: dict[str, str] | None) -> str | None:
    for glob, name in (formats or {}).items():
        if fnmatch.fnmatch(key, glob) or fnmatch.fnmatch(key.rsplit("/", 1)[-1], glob):
            return name
    return None


def _check_formats(formats: dict[str, str] | None) -> None:
    for glob, name in (formats or {}).items():
        if name not in _REGISTRY:
            raise LogsError(
                f"formats[{glob!r}] = {name!r} is not a known log format; "
                f"known: {', '.join(known_formats())}"
            )


def read_logs(
    root: Path | str,
    window: TimeWindow,
    *,
    boot_times: dict[str, datetime] | None = None,
    assume_tz: str = "UTC",
    formats: dict[str, str] | None = None,
) -> Logs:
    """Every log file under an incident's logs/ folder, as one frame of the window's lines.

    A file in a folder (`logs/<host>/kern.log`) belongs to that host; other files take the
    host from each line (syslog, journald, NCCL, nanotron) or else from the file's name.
    `boot_times` places lines timed since boot (`[  12.3]`, /dev/kmsg) per host;
    `assume_tz` is the zone of times written without one; `formats` forces a format for
    files matching a glob of the relative path (or of the name).
    """
    root = Path(root)
    if not root.exists():
        raise LogsError(f"no logs folder at {root}; an incident's logs are in <incident>/logs/")
    if not root.is_dir():
        raise LogsError(
            f"{root} is a file; read_logs reads a logs folder (read_log_file: one file)"
        )
    _check_formats(formats)
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        key = rel.as_posix()
        files.append(
            _File(
                path=path,
                key=key,
                host=rel.parts[0] if len(rel.parts) > 1 else None,
                stem=_stem(path),
                forced=_forced(key, formats),
            )
        )
    frame, report = _read(files, window, boot_times, assume_tz)
    return Logs(frame=frame, receipt=report)


def read_log_file(
    path: Path | str,
    window: TimeWindow,
    *,
    host: str | None = None,
    boot_times: dict[str, datetime] | None = None,
    assume_tz: str = "UTC",
    format: str | None = None,
) -> tuple[pl.DataFrame, LogReceipt]:
    """One log file: `host` (when given) is the host of every line, else each line's own
    host or the file's stem; `format` forces a registered format instead of detecting."""
    path = Path(path)
    if format is not None:
        _check_formats({path.name: format})
    f = _File(path=path, key=path.name, host=host, stem=_stem(path), forced=format)
    return _read([f], window, boot_times, assume_tz)


LogReport = LogReceipt
"""The receipt's name before 0.2."""

__all__ = [
    "LOG_SCHEMA",
    "LogFormat",
    "LogReceipt",
    "LogReport",
    "Logs",
    "LogsError",
    "expand_hostlist",
    "known_formats",
    "read_log_file",
    "read_logs",
    "register",
]
