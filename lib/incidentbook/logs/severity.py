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
