"""The log-format contract, and the registry of formats.

A LogFormat says how to recognise its files and how to parse them, and declares its own
time semantics:

    name            the format's name, also the `source` of the lines it reads
    sniff           how it detects itself: anchored regexes (Rust syntax) of a line of the
                    format, tried on a file's first lines; the format matching the largest
                    share (at least 60%) wins
    parse           (lines, Context) -> lines with ts, host, severity, source, message, status
    local_time      its times carry no zone: they are read in `assume_tz`, and the notes say so
    yearless        its times carry no year: each gets the year nearest the window (noted)
    priority        ties in detection go to the higher priority, then to the name first in
                    alphabetical order: a general format (trainer, jsonl) sits below the
                    specific ones it overlaps
    sniff_ratio     the share of a file's first lines its sniff must match (default 60%)
    fallback        a generic reader (any time near the start, untimed messages): tried
                    only on files no other format reads
    header          a line that decides the format when it is among a file's first lines
                    (nvidia-bug-report's banner)
    needs_boot, inherit_severity, line_host_first, file_time, facts: see the fields

Lines without a time of their own (status INHERIT) take the time of the line before them
in their file, else of the line after; in a format with `file_time`, lines of a file with
no time at all take the file's modification time. Each such time is marked inferred.
Formats timed since boot give `_rel` (microseconds since boot) and the status NEEDS_BOOT;
the reader places them with the host's boot time (see logs.read).

A line's time semantics are those of the format its `source` names (a composite format
such as `trainer` reads nanotron and glog lines, each with its own), else its file's.

A new format is one module (or a constant in an existing family's module) and one
registration: a default in LOG_FORMATS below, or an entry point of a user's package:

    [project.entry-points."incidentbook.log_formats"]
    my-format = "my_package.logs:MY_FORMAT"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import polars as pl

from incidentbook.logs.data import UNKNOWN_FORMAT, UTC_US
from incidentbook.registry import Registry, instance_of
from incidentbook.window import TimeWindow

# Status values a parser gives a line besides a reason (null status: read).
INHERIT = "inherit"  # no timestamp of its own: takes the previous line's
SKIP = "skip"  # a header: carries no event
NEEDS_BOOT = "needs-boot"  # timed since boot (`_rel`): placed once the boot time is known


@dataclass(frozen=True)
class Context:
    """What a parser knows besides the lines: the window read, the zone of times written
    without one (read_logs' `assume_tz`), and the names (stems) of the files whose lines
    it reads, by `fid` (a Slurm daemon's log is named for the daemon)."""

    window: TimeWindow
    tz: str
    stems: tuple[str, ...] = ()

    @property
    def start_us(self) -> int:
        return to_us(self.window.start)

    @property
    def end_us(self) -> int:
        return to_us(self.window.end)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_us(when: datetime) -> int:
    """Epoch microseconds, exactly (a float timestamp * 1e6 can be a microsecond off)."""
    return (when - _EPOCH) // timedelta(microseconds=1)


Parser = Callable[[pl.LazyFrame, Context], pl.LazyFrame]
Facts = Callable[[pl.DataFrame, Context], pl.DataFrame]

FACT_SCHEMA = pl.Schema(
    {
        "fid": pl.UInt32,
        "line": pl.UInt32,
        "gpu": pl.String,
        "section": pl.String,
        "key": pl.String,
        "value": pl.String,
    }
)
"""What a `facts` reader returns: one row per fact, the line it was read from."""


@dataclass(frozen=True)
class LogFormat:
    """A log format: how to recognise it, how to parse a frame of its lines, and what its
    times mean (see the module's docstring).

    The parser gets a lazy frame of non-blank lines (`fid`, `line`, `raw`) and returns it
    with `ts`, `host` (String, or List(String) for a line about several hosts),
    `severity` (one of logs.severity.LEVELS), `source`, `message` and `status` (null when
    read, else a reason or INHERIT/SKIP/NEEDS_BOOT), and optionally `rank` and
    `local_rank` (a launcher's tags), `_rel` and `_wall` (NEEDS_BOOT lines: microseconds
    since boot, and a wall-clock time in epoch microseconds the line itself states).

    `facts`, when given, reads the same lines into facts about devices (nvidia-smi -q,
    dcgmi diag): a frame of fid, line, gpu, section, key, value.
    """

    name: str
    sniff: tuple[str, ...]
    parse: Parser
    local_time: bool = False
    yearless: bool = False
    priority: int = 0
    needs_boot: bool = False  # times relative to the host's boot
    inherit_severity: bool = True  # lines without a prefix belong to the record before
    line_host_first: bool = False  # the line's host wins over the folder's
    file_time: bool = False  # a file with no time at all is dated by its modification time
    facts: Facts | None = None
    header: str | None = None  # a line that, among a file's first, decides the format alone
    fallback: bool = False  # only when no other format reads the file (generic readers)
    sniff_ratio: float | None = None  # the share of first lines it needs, if not the default


def _unknown(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    return lf.with_columns(
        ts=pl.lit(None, UTC_US),
        host=pl.lit(None, pl.String),
        severity=pl.lit(None, pl.String),
        source=pl.lit("unknown"),
        message=pl.col("raw"),
        status=pl.lit(UNKNOWN_FORMAT),
    )


UNKNOWN = LogFormat("unknown", (), _unknown)
"""What a file no format recognises is read as: every line counted, none kept."""

_FORMATS = "incidentbook.logs.formats"

LOG_FORMATS: Registry[LogFormat] = Registry(
    "log format",
    "incidentbook.log_formats",
    {
        "kernel-iso": f"{_FORMATS}.kernel:KERNEL_ISO",
        "kernel-ctime": f"{_FORMATS}.kernel:KERNEL_CTIME",
        "kernel-raw": f"{_FORMATS}.kernel:KERNEL_RAW",
        "kernel-human": f"{_FORMATS}.kernel:KERNEL_HUMAN",
        "kmsg": f"{_FORMATS}.kernel:KMSG",
        "syslog-3164": f"{_FORMATS}.syslog:SYSLOG_3164",
        "syslog-5424": f"{_FORMATS}.syslog:SYSLOG_5424",
        "thunderbird": f"{_FORMATS}.syslog:THUNDERBIRD",
        "nanotron": f"{_FORMATS}.trainer:NANOTRON",
        "torch-glog": f"{_FORMATS}.trainer:TORCH_GLOG",
        "nccl": f"{_FORMATS}.trainer:NCCL",
        "ucx": f"{_FORMATS}.trainer:UCX",
        "python-logging": f"{_FORMATS}.trainer:PYTHON_LOGGING",
        "deepspeed": f"{_FORMATS}.trainer:DEEPSPEED",
        "loguru": f"{_FORMATS}.trainer:LOGURU",
        "megatron": f"{_FORMATS}.trainer:MEGATRON",
        "trainer": f"{_FORMATS}.trainer:TRAINER",
        "klog": f"{_FORMATS}.golang:KLOG",
        "logfmt": f"{_FORMATS}.golang:LOGFMT",
        "go-log": f"{_FORMATS}.golang:GO_LOG",
        "go-components": f"{_FORMATS}.golang:GO_COMPONENTS",
        "k8s-events": f"{_FORMATS}.kubernetes:K8S_EVENTS",
        "fabricmanager": f"{_FORMATS}.fabricmanager:FABRICMANAGER",
        "bmc-sel": f"{_FORMATS}.bmc:BMC_SEL",
        "rasdaemon": f"{_FORMATS}.rasdaemon:RASDAEMON",
        "gpfs": f"{_FORMATS}.gpfs:GPFS",
        "gpfs-ctime": f"{_FORMATS}.gpfs:GPFS_CTIME",
        "bluegene-ras": f"{_FORMATS}.bluegene:BLUEGENE_RAS",
        "journald-json": f"{_FORMATS}.json:JOURNALD_JSON",
        "jsonl": f"{_FORMATS}.json:JSONL",
        "slurm-sacct": f"{_FORMATS}.slurm:SLURM_SACCT",
        "slurm-jobcomp": f"{_FORMATS}.slurm:SLURM_JOBCOMP",
        "slurm-daemon": f"{_FORMATS}.slurm:SLURM_DAEMON",
        "slurm-client": f"{_FORMATS}.slurm:SLURM_CLIENT",
        "nvidia-smi": f"{_FORMATS}.nvidia:NVIDIA_SMI",
        "dcgmi-diag": f"{_FORMATS}.nvidia:DCGMI_DIAG",
        "nvidia-bug-report": f"{_FORMATS}.nvidia:NVIDIA_BUG_REPORT",
        "generic": f"{_FORMATS}.generic:GENERIC",
        "messages": f"{_FORMATS}.messages:MESSAGES",
        "generic-local": f"{_FORMATS}.generic:GENERIC_LOCAL",
        "generic-yearless": f"{_FORMATS}.generic:GENERIC_YEARLESS",
        "unknown": f"{_FORMATS}:UNKNOWN",
    },
    check=instance_of(LogFormat),
)
"""Format name -> LogFormat."""


def register(name: str, *, sniff: tuple[str, ...] | str, **fields) -> Callable[[Parser], Parser]:
    """Decorator: register a parser as the format `name` (replacing one of that name).
    `sniff`: anchored regexes (Rust syntax) of a line of the format; `fields`: the other
    LogFormat fields (local_time, yearless, priority, needs_boot, ...)."""

    def add(parse: Parser) -> Parser:
        patterns = (sniff,) if isinstance(sniff, str) else tuple(sniff)
        LOG_FORMATS.register(name, LogFormat(name, patterns, parse, **fields), replace=True)
        return parse

    return add


def known_formats() -> list[str]:
    return LOG_FORMATS.names()
