"""Kernel messages: `dmesg --time-format iso` (with or without `--decode`), `dmesg -T`,
raw `[seconds]` lines and pstore dumps, and `/dev/kmsg` records (the last two timed since
boot: they need the host's boot time)."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from incidentbook.logs.data import NO_BOOT_TIME
from incidentbook.logs.formats import SKIP
from incidentbook.logs.formats.expressions import Rule, epoch_us, local_time, text_format
from incidentbook.logs.severity import level_of_priority, level_of_word

# `dmesg --decode` prefix: facility and level padded to six characters ("kern  :warn  : ").
# The facility starts with a letter so the regex stays one-pass (a digit would be ambiguous
# with a timestamp), several times faster on a million lines.
_DECODE = r"(?:(?P<facility>[a-z][a-z0-9]*) *:(?P<level>[a-z]+) *: )?"


def _decoded_severity(g: Callable[[str], pl.Expr]) -> pl.Expr:
    return level_of_word(g("level"))


def _dmesg_iso(g: Callable[[str], pl.Expr]) -> pl.Expr:
    """`2025-01-21T04:41:44,283302+00:00`: the fixed-width naive part parses about four
    times faster than a format with %z (polars' fast path), the offset is added after."""
    naive = g("ts").str.to_datetime("%Y-%m-%dT%H:%M:%S,%6f", time_unit="us", strict=False)
    minutes = g("oh").cast(pl.Int64) * 60 + g("om").cast(pl.Int64)
    signed = pl.when(g("sign") == "-").then(-minutes).otherwise(minutes)
    return (naive - pl.duration(minutes=signed)).dt.replace_time_zone("UTC")


KERNEL_ISO = text_format(
    "kernel-iso",
    [
        Rule(
            "kernel-iso",
            _DECODE
            + r"(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6})"
            + r"(?P<sign>[+-])(?P<oh>\d\d):?(?P<om>\d\d) ?",
            lambda g, ctx: {"ts": _dmesg_iso(g), "severity": _decoded_severity(g)},
        )
    ],
)

KERNEL_CTIME = text_format(
    "kernel-ctime",
    [
        Rule(
            "kernel-ctime",
            _DECODE + r"\[(?P<ts>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\] ?",
            lambda g, ctx: {
                "ts": local_time(
                    g("ts").str.replace("  ", " ", literal=True), "%a %b %d %H:%M:%S %Y", ctx
                ),
                "severity": _decoded_severity(g),
            },
        )
    ],
    local_time=True,
)


def _since_boot(us: pl.Expr) -> dict[str, pl.Expr]:
    boot = pl.col("_boot")
    return {
        "ts": epoch_us(boot + us),
        "status": pl.when(boot.is_null()).then(pl.lit(NO_BOOT_TIME)),
    }


def _kernel_raw(g, ctx):
    us = (g("secs").cast(pl.Float64, strict=False) * 1e6).round().cast(pl.Int64)
    return _since_boot(us) | {
        "severity": pl.coalesce(_decoded_severity(g), level_of_priority(g("pri")))
    }


# pstore dumps (`/sys/fs/pstore/dmesg-erst-*`) start each part with two header lines.
_PSTORE_HEADER = (
    r"dmesg-[\w-]+:$|(?:Panic|Oops|Emergency|Shutdown|Restart|Halt|Poweroff|Unknown)#\d+ Part\d+$"
)

KERNEL_RAW = text_format(
    "kernel-raw",
    [
        Rule(
            "kernel-raw",
            r"(?:<(?P<pri>\d{1,3})>)?" + _DECODE + r"\[ *(?P<secs>\d+\.\d+)\] ?",
            _kernel_raw,
        ),
        Rule("kernel-raw", _PSTORE_HEADER, lambda g, ctx: {"status": pl.lit(SKIP)}),
    ],
    needs_boot=True,
)

KMSG = text_format(
    "kmsg",
    [
        Rule(
            "kmsg",
            r"(?P<pri>\d{1,4}),(?P<seq>\d+),(?P<usec>\d+),(?P<flags>[^;]*);",
            lambda g, ctx: (
                _since_boot(g("usec").cast(pl.Int64, strict=False))
                | {"severity": level_of_priority(g("pri"))}
            ),
        )
    ],
    needs_boot=True,
)
