"""Kernel messages: `dmesg --time-format iso` (with or without `--decode`), `dmesg -T`,
`dmesg -H` (a minute stamp, then deltas), raw `[seconds]` lines and pstore dumps, and
`/dev/kmsg` records (the last two timed since boot: the reader places them with the
host's boot time, which a line of the file itself may state: the kernel's "setting system
clock to ... UTC (epoch)")."""

from __future__ import annotations

import re
from collections.abc import Callable

import polars as pl

from incidentbook.logs.data import BAD_TIMESTAMP, UTC_US
from incidentbook.logs.formats import INHERIT, NEEDS_BOOT, SKIP, Context, LogFormat
from incidentbook.logs.formats.expressions import (
    Rule,
    local_time,
    text_format,
    text_parser,
    with_year,
)
from incidentbook.logs.formats.months import MONTH, month_day_time
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


_ISO_RULE = Rule(
    "kernel-iso",
    _DECODE
    + r"(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6})"
    + r"(?P<sign>[+-])(?P<oh>\d\d):?(?P<om>\d\d) ?",
    lambda g, ctx: {"ts": _dmesg_iso(g), "severity": _decoded_severity(g)},
)
_ISO_SLOW = text_parser([_ISO_RULE], "kernel-iso")


# dmesg --decode's levels, padded as it prints them.
_PADDED_LEVELS = {
    f"{word:<6}": level
    for word, level in {
        "emerg": "emerg",
        "alert": "alert",
        "crit": "crit",
        "err": "err",
        "warn": "warning",
        "notice": "notice",
        "info": "info",
        "debug": "debug",
    }.items()
}


def _fixed_iso(at: int, colon: bool, offset: str | None = None) -> dict[str, pl.Expr]:
    """The columns of lines whose layout is known: the time at `at`, its offset with a
    colon or without (`offset`: the one every line has, when they all have the same).
    Literal positions: polars slices those several times faster than a regex finds them."""
    raw = pl.col("raw")
    naive = raw.str.slice(at, 26).str.to_datetime(
        "%Y-%m-%dT%H:%M:%S,%6f", time_unit="us", strict=False, cache=False
    )
    width = 6 if colon else 5
    if offset is not None:  # one offset for all: no per-line arithmetic
        minutes = int(offset[1:3]) * 60 + int(offset[-2:])
        ts = naive - pl.duration(minutes=-minutes if offset[0] == "-" else minutes)
    else:
        hours = raw.str.slice(at + 27, 2).cast(pl.Int64, strict=False)
        mins = raw.str.slice(at + 30 if colon else at + 29, 2).cast(pl.Int64, strict=False)
        sign = raw.str.slice(at + 26, 1)
        minutes = hours * 60 + mins
        signed = pl.when(sign == "-").then(-minutes).when(sign == "+").then(minutes)
        ts = naive - pl.duration(minutes=signed)
    end = at + 26 + width
    level = (
        raw.str.slice(7, 6).replace_strict(_PADDED_LEVELS, default=None, return_dtype=pl.String)
        if at
        else pl.lit(None, pl.String)
    )
    return {
        "ts": ts.dt.replace_time_zone("UTC"),
        "severity": level,
        "message": raw.str.slice(end + 1),
        "_space": raw.str.slice(end, 1) == " ",
    }


_OFFSET = r"[+-](?:[01]\d|2[0-3]):?[0-5]\d"


def _offset_pattern(colon: bool) -> str:
    """An offset as dmesg prints it, with its colon (`+00:00`) or without (`+0000`)."""
    return _OFFSET.replace(":?", ":" if colon else "")


def _one_offset(frame: pl.DataFrame, at: int, colon: bool) -> str | None:
    """The offset every line states at its fixed place, if they all state the same one."""
    if frame.height == 0:
        return None
    width = 6 if colon else 5
    place = pl.col("raw").str.slice(at + 26, width)
    found = frame.head(1).select(place).item()
    if found is None or not re.fullmatch(_offset_pattern(colon), found):
        return None
    return found if frame.select((place == found).all()).item() else None


def _first_layout(frame: pl.DataFrame) -> tuple[int, bool, str] | None:
    """(at, colon, offset): the first line's layout (the `--decode` prefix or none, its
    offset, a space after it), or None when it has none."""
    if frame.height == 0:
        return None
    line = frame.item(0, "raw")
    at = 15 if line[6:7] == ":" and line[13:15] == ": " else 0
    for colon in (True, False):
        width = 6 if colon else 5
        offset = line[at + 26 : at + 26 + width]
        spaced = line[at + 26 + width : at + 27 + width] == " "
        if spaced and re.fullmatch(_offset_pattern(colon), offset):
            return at, colon, offset
    return None


_DECODED_LEVELS = {f":{padded}: ": level for padded, level in _PADDED_LEVELS.items()}
"""dmesg --decode's level as it sits between the facility's colon and the time's space."""


def _uniform(frame: pl.DataFrame, at: int, colon: bool, offset: str) -> pl.DataFrame | None:
    """The lines cut by position when every line has the first line's layout (see
    _first_layout), else None. What the general path below works out in five passes over
    the lines (its layout shares, the one offset, the space after it), this checks in
    fewer, and gives the same columns when they hold: the time is parsed with the offset
    in its format (a line with another offset does not parse), and with the `--decode`
    prefix the level is read from the nine characters around it (`:info  : `: a line
    without the prefix, or with a level dmesg does not print, has none)."""
    raw = pl.col("raw")
    width = 6 if colon else 5
    end = at + 26 + width
    minutes = int(offset[1:3]) * 60 + int(offset[-2:])
    naive = raw.str.slice(at, 26 + width).str.to_datetime(
        "%Y-%m-%dT%H:%M:%S,%6f" + offset, time_unit="us", strict=False, cache=False
    )
    ts = naive - pl.duration(minutes=-minutes if offset[0] == "-" else minutes)
    prefixed = (raw.str.slice(6, 1) == ":") & (raw.str.slice(13, 2) == ": ")
    level = raw.str.slice(6, 9).replace_strict(
        _DECODED_LEVELS, default=None, return_dtype=pl.String
    )
    got = frame.with_columns(
        ts=ts.dt.replace_time_zone("UTC"),
        severity=level if at else pl.lit(None, pl.String),
        message=raw.str.slice(end + 1),
        host=pl.lit(None, pl.String),
        source=pl.lit("kernel-iso"),
        status=pl.lit(None, pl.String),
    )
    every = pl.col("ts").is_not_null() & (raw.str.slice(end, 1) == " ")
    every = every & (pl.col("severity").is_not_null() if at else ~prefixed)
    return got if got.select(every.all()).item() else None


def _kernel_iso(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    """Most files have dmesg's fixed layout throughout: the `--decode` prefix padded to 15
    characters (`kern  :info  : `) or none, then 26 characters of time, a 5 or 6 character
    offset and a space. Such files are cut by position, several times faster than a regex
    with groups over a million lines; the lines that do not fit (longer facility names,
    continuation lines, other files) go through the rule."""
    raw = pl.col("raw")
    frame = lf.collect()
    columns = frame.columns
    first = _first_layout(frame)
    if first is not None:
        got = _uniform(frame, *first)
        if got is not None:
            return got.lazy()
    layout = frame.select(
        decoded=((raw.str.slice(6, 1) == ":") & (raw.str.slice(13, 2) == ": ")).mean(),
        colon=(raw.str.slice(29, 1) == ":").mean(),
        colon15=(raw.str.slice(44, 1) == ":").mean(),
    ).row(0, named=True)
    decoded = layout["decoded"] or 0.0
    if decoded in (0.0, 1.0):
        at = 15 if decoded else 0
        colon = (layout["colon15"] if at else layout["colon"]) or 0.0
        with_colon = colon >= 0.5
        got = frame.with_columns(
            **_fixed_iso(at, with_colon, _one_offset(frame, at, with_colon)),
            host=pl.lit(None, pl.String),
            source=pl.lit("kernel-iso"),
            status=pl.lit(None, pl.String),
        )
        fits = pl.col("ts").is_not_null() & pl.col("_space")
        if got.select(fits.all()).item():
            return got.drop("_space").lazy()
        odd = got.filter(~fits)
        others = _ISO_SLOW(odd.select(columns).lazy(), ctx).collect()
        return (
            pl.concat([got.filter(fits).drop("_space"), others], how="diagonal_relaxed")
            .sort("fid", "line")
            .lazy()
        )
    return _ISO_SLOW(frame.lazy(), ctx)


KERNEL_ISO = LogFormat("kernel-iso", (_ISO_RULE.pattern,), _kernel_iso)


def _ctime(g: Callable[[str], pl.Expr], ctx: Context) -> pl.Expr:
    """`dmesg -T`'s stamp in the host's locale (`Tue Sep 19`, `Ter Set 19`, `Di Sep 19`):
    the month by its name in any locale of formats.months, the weekday left unread."""
    return local_time(g("year") + " " + month_day_time(g), "%Y %m %d %H:%M:%S", ctx)


KERNEL_CTIME = text_format(
    "kernel-ctime",
    [
        Rule(
            "kernel-ctime",
            _DECODE
            + rf"\[(?P<ts>\S+ (?P<mon>(?i:{MONTH})) {{1,2}}(?P<day>\d{{1,2}}) "
            + r"(?P<time>\d\d:\d\d:\d\d) (?P<year>\d{4}))\] ?",
            lambda g, ctx: {"ts": _ctime(g, ctx), "severity": _decoded_severity(g)},
        )
    ],
    local_time=True,
)


# The RTC driver states the wall clock it set, at its own seconds since boot: a boot time.
_CLOCK_SET = r"setting system clock to \S+(?: \S+)? UTC \((\d{9,11})\)"


def _since_boot(us: pl.Expr) -> dict[str, pl.Expr]:
    wall = pl.col("raw").str.extract(_CLOCK_SET, 1).cast(pl.Int64, strict=False) * 1_000_000
    return {
        "ts": pl.lit(None, UTC_US),
        "_rel": us,
        "_wall": wall,
        "status": pl.when(us.is_not_null()).then(pl.lit(NEEDS_BOOT)),
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
            # (`kernel:[secs] msg`: syslogd's wall messages, which quote the kernel's line)
            r"(?:<(?P<pri>\d{1,3})>)?"
            + _DECODE
            + r"\s*(?:kernel: ?)?\[ *(?P<secs>\d{1,9}\.\d+)\] ?",
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


# `dmesg -H` (--human): `[Feb22 04:01] msg` when the minute changes, then `[  +0.000123] msg`
# with the seconds since the line before. Each delta line is the last stamped line's time
# plus the deltas since it (stamps are to the minute: so are the times).
_HUMAN_STAMP = r"\[(?P<mon>[A-Z][a-z]{2})(?P<day>[ \d]?\d) (?P<hm>\d\d:\d\d)\] ?"
_HUMAN_DELTA = r"\[\s*\+(?P<delta>\d+\.\d+)\] ?"


def _human(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    raw = pl.col("raw")
    stamp = raw.str.extract_groups(f"^(?P<_p>{_HUMAN_STAMP})")
    delta = raw.str.extract_groups(f"^(?P<_p>{_HUMAN_DELTA})")
    lf = lf.with_columns(_s=stamp, _d=delta)
    s, d = pl.col("_s"), pl.col("_d")
    month_day = s.struct.field("mon") + " " + s.struct.field("day").str.strip_chars()
    at = with_year(month_day + " " + s.struct.field("hm"), "%b %d %H:%M", ctx)
    secs = d.struct.field("delta").cast(pl.Float64)
    lf = lf.with_columns(
        _at=at,
        _stamped=s.struct.field("_p").is_not_null(),
        _us=(secs * 1e6).round().cast(pl.Int64).fill_null(0),
    ).with_columns(_run=pl.col("_stamped").cum_sum().over("fid"))
    since = pl.col("_us").cum_sum().over("fid", "_run") - pl.col("_us").first().over("fid", "_run")
    anchor = pl.col("_at").first().over("fid", "_run")
    is_delta = d.struct.field("_p").is_not_null()
    prefix = pl.coalesce(s.struct.field("_p"), d.struct.field("_p")).str.len_chars().fill_null(0)
    return lf.with_columns(
        ts=pl.when(pl.col("_stamped"))
        .then(pl.col("_at"))
        .when(is_delta & (pl.col("_run") > 0))
        .then(anchor + pl.duration(microseconds=since))
        .cast(UTC_US),
        severity=pl.lit(None, pl.String),
        host=pl.lit(None, pl.String),
        source=pl.lit("kernel-human"),
        message=raw.str.slice(prefix),
        status=pl.when(pl.col("_stamped") & pl.col("_at").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .when(~pl.col("_stamped") & ~(is_delta & (pl.col("_run") > 0)))
        .then(pl.lit(INHERIT)),
    ).drop("_s", "_d", "_at", "_stamped", "_us", "_run")


KERNEL_HUMAN = LogFormat(
    "kernel-human",
    (_HUMAN_STAMP, _HUMAN_DELTA),
    _human,
    local_time=True,
    yearless=True,
    file_time=True,
)
