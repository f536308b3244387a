"""One severity vocabulary for the logs stage.

Two scales, one home. A log line's own level uses syslog's eight names (LEVELS, most
severe first): every format's level words and priorities are mapped onto them here. A
catalog signature's severity (templates/signatures.yaml) says how bad a match is, on the
coarser SIGNATURE_SEVERITIES; SIGNATURE_LEVEL places each on the line scale, so a rule
such as "err or worse" means the same for both (`ALERT_LEVELS`, `ALERT_SIGNATURE_SEVERITIES`).
"""

from __future__ import annotations

from typing import Literal

import polars as pl

LEVELS = ("emerg", "alert", "crit", "err", "warning", "notice", "info", "debug")
"""A line's level: syslog's severities, most severe first."""

LEVEL_RANK = {level: rank for rank, level in enumerate(LEVELS)}
"""syslog severities, most severe first (0)."""

SignatureSeverity = Literal["critical", "error", "warning", "info"]
SIGNATURE_SEVERITIES: tuple[SignatureSeverity, ...] = ("critical", "error", "warning", "info")
SEVERITY_RANK = {severity: rank for rank, severity in enumerate(SIGNATURE_SEVERITIES)}
"""A signature's severity, most severe first (0)."""

SIGNATURE_LEVEL: dict[str, str] = {
    "critical": "crit",
    "error": "err",
    "warning": "warning",
    "info": "info",
}
"""Where each signature severity sits on the line scale."""

ALERT = "err"
"""A line at this level or worse (or taken by a signature at it or worse) is an alert."""
URGENT = "warning"
"""A new log template logged at this level or worse is worth a finding."""


def at_or_worse(level: str) -> list[str]:
    """The line levels as severe as `level` or more."""
    return [name for name in LEVELS if LEVEL_RANK[name] <= LEVEL_RANK[level]]


def signatures_at_or_worse(level: str) -> list[str]:
    """The signature severities as severe as the line level `level` or more."""
    return [s for s in SIGNATURE_SEVERITIES if LEVEL_RANK[SIGNATURE_LEVEL[s]] <= LEVEL_RANK[level]]


ALERT_LEVELS = at_or_worse(ALERT)
ALERT_SIGNATURE_SEVERITIES = signatures_at_or_worse(ALERT)
URGENT_LEVELS = at_or_worse(URGENT)
NOTABLE_SIGNATURE_SEVERITIES = signatures_at_or_worse("warning")
"""Signatures worth a finding and a facet in the drafted record (info ones are not)."""

WORDS = {
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


"""Level words as formats write them (any case) -> LEVELS."""


def level_of_word(word: pl.Expr) -> pl.Expr:
    """A level word (any case) as a syslog severity name, null when unknown."""
    return word.str.to_lowercase().replace_strict(WORDS, default=None, return_dtype=pl.String)


def level_of_priority(number: pl.Expr) -> pl.Expr:
    """A syslog/kmsg priority (facility * 8 + severity) as a severity name."""
    return (number.cast(pl.Int64, strict=False) % 8).replace_strict(
        dict(enumerate(LEVELS)), default=None, return_dtype=pl.String
    )


# --- a line's level from what it says ------------------------------------------------------
#
# A format states a level; the words of the line can say the level overstates it. Three
# kinds of lines logged at err or worse are not failures by themselves:
#   - dumps: register and field listings that continue an event printed just before
#     (`r24=0x00000000 r25=...`, `machine check enable..........0`, `data address: 0x..`);
#     the event's own line carries the level that matters;
#   - the caller's errors: a missing file, a permission, a bad executable (ENOENT, EACCES,
#     EPERM, ENOEXEC, ENOTDIR, EISDIR, EEXIST, EBADF, ENOTBLK): the job asked for something
#     wrong; the system did not fail;
#   - err lines whose words name no failure (a status report, an assertion trace): only
#     crit and worse stand on the level alone.

_DUMP = (
    r"^\s*(?:"
    # label ........ value
    r".{0,60}?[^.]\.{4,}\s*\S{1,24}"
    # name=value / name: value pairs of hex numbers, and nothing else
    r"|(?:[A-Za-z][\w ]{0,40}?\s*[=:]\s*(?:0x)?[0-9a-fA-F]{2,}[\s,;]*)+"
    # the header of a register listing
    r"|[\w ]*registers?:"
    r")\s*$"
)
_CALLERS_ERROR = (
    r"(?i)\b(?:No such file or directory|Permission denied|Operation not permitted|"
    r"Exec format error|Not a directory|Is a directory|File exists|Bad file descriptor|"
    r"Block device required)\b"
)
# Words that say something failed. Negated mentions ("no errors", "No temperature error")
# are taken out before looking.
_NEGATED = r"(?i)\b(?:no|zero|without)\s+(?:\w+\s+)?errors?\b"
_FAILURE = (
    r"(?i)\b(?:fail\w*|fatal|panic\w*|errors?|err|abort\w*|cannot|can ?not|can't|unable|"
    r"timed? ?out|timeout|lost|severed|refused|reset|not responding|unreachable|crash\w*|"
    r"killed|corrupt\w*|exception|segfault|violation|down|hung|stuck|unrecoverable|"
    r"uncorrect\w*|denied|invalid|overflow|terminated|missing|bad)\b"
)


def level_from_content(message: pl.Expr, level: pl.Expr) -> pl.Expr:
    """The line level `level` (a format's stated level, syslog names) as the message's
    words support it: dumps become info, the caller's errors warning, and err lines that
    name no failure warning. Levels below err are kept as stated."""
    rank = level.replace_strict(LEVEL_RANK, default=None, return_dtype=pl.Int32)
    serious = rank <= LEVEL_RANK[ALERT]
    words = message.fill_null("")
    return (
        pl.when(~serious.fill_null(False))
        .then(level)
        .when(words.str.contains(_DUMP))
        .then(pl.lit("info"))
        .when(words.str.contains(_CALLERS_ERROR))
        .then(pl.lit("warning"))
        .when(
            (rank == LEVEL_RANK[ALERT])
            & ~words.str.replace_all(_NEGATED, "").str.contains(_FAILURE)
        )
        .then(pl.lit("warning"))
        .otherwise(level)
    )
