"""Messages without any time: `dmesg -t`, `journalctl -o cat`, a command's error output
(`mount.nfs: ...`, `docker: Error response ...`, `Failed to initialize NVML`), a process's
crash as its shell or gdb reports it, pasted into a file. Recognised by their shape
(`program: message`, a line that starts with an error word, a crash report); every line
is dated by the file's modification time, marked inferred, and the notes say so. The
level is what the words say (a crash report or an error word: err; a warning: warning).
Last in priority: a file in any format with times is read by that format.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import INHERIT, Context, LogFormat

_TAGGED = r"\s*[\w./@-]{1,40}(?:\[\d+\])?: \S"
_SPACED = r"\s*\w{1,20} : \S"
_ERROR_WORD = (
    r"\s*(?:Error|ERROR|Warning|WARNING|Failed|FAILED|Fatal|FATAL|Unable to|Cannot|Could not)\b"
)

# A process's end as its shell (`Segmentation fault (core dumped)`), gdb (`Program received
# signal SIGSEGV, ...`) or UCX's signal handler (`[host:pid:0:tid] Caught signal 11 (...)`)
# reports it: often the last line of a job's output, and all of a pasted one.
_CRASH = (
    r"\s*(?:(?:Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception)"
    r"(?:\s+\(core dumped\))?\s*$"
    r"|Program (?:received|terminated with) signal SIG[A-Z]+"
    r"|\[[\w.-]+:\d+(?::\d+)+\] Caught signal \d+)"
)

_ERR = r"(?i)\b(?:error|failed|failure|fatal|cannot|unable|could not)\b"
_WARN = r"(?i)\bwarn(?:ing)?\b"


def _messages(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    raw = pl.col("raw")
    return lf.with_columns(
        ts=pl.lit(None, pl.Datetime("us", "UTC")),
        host=pl.lit(None, pl.String),
        severity=pl.when(raw.str.contains(_ERR) | raw.str.contains("^" + _CRASH))
        .then(pl.lit("err"))
        .when(raw.str.contains(_WARN))
        .then(pl.lit("warning"))
        .otherwise(pl.lit("info")),
        source=pl.lit("messages"),
        message=raw.str.strip_chars_start(),
        status=pl.lit(INHERIT),
    )


MESSAGES = LogFormat(
    "messages",
    (_TAGGED, _SPACED, _ERROR_WORD, _CRASH),
    _messages,
    file_time=True,
    inherit_severity=False,
    priority=-200,
    fallback=True,
)
