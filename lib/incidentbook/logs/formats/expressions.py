"""Expressions the log formats share: time stamps in their many forms, and text formats
made of anchored line rules (most formats are one rule or a few)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import polars as pl

from incidentbook.logs.data import BAD_TIMESTAMP, UTC_US
from incidentbook.logs.formats import INHERIT, Context, LogFormat, Parser


def epoch_us(us: pl.Expr) -> pl.Expr:
    return pl.from_epoch(us, time_unit="us").dt.replace_time_zone("UTC")


def localise(naive: pl.Expr, tz: str) -> pl.Expr:
    """Naive wall-clock times of zone `tz` as UTC (a time in a DST gap is null)."""
    if tz == "UTC":
        return naive.dt.replace_time_zone("UTC")
    return naive.dt.replace_time_zone(
        tz, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")


def local_time(text: pl.Expr, fmt: str, ctx: Context) -> pl.Expr:
    return localise(text.str.to_datetime(fmt, time_unit="us", strict=False), ctx.tz)


def rfc3339(text: pl.Expr, ctx: Context) -> pl.Expr:
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
    naive = local_time(norm, "%Y-%m-%dT%H:%M:%S%.f", ctx)
    return pl.coalesce(aware, naive)


def with_year(stamp: pl.Expr, fmt: str, ctx: Context) -> pl.Expr:
    """Times without a year (syslog, glog): each line gets the year that puts it nearest
    the window, so a window across New Year reads Dec 31 and Jan 1 right."""
    zone = ZoneInfo(ctx.tz)
    years = range(
        ctx.window.start.astimezone(zone).year - 1, ctx.window.end.astimezone(zone).year + 2
    )
    lo, hi = ctx.start_us, ctx.end_us - 1
    candidates, distances = [], []
    for year in years:
        when = local_time(pl.lit(f"{year} ") + stamp, f"%Y {fmt}", ctx)
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
class Rule:
    """One line shape: an anchored regex of the prefix (named groups; no trailing `.*`,
    which makes the regex engine walk the whole line), and how its groups become
    ts/severity/host/status. The message is the text after the prefix."""

    source: str
    pattern: str
    build: Callable[[Callable[[str], pl.Expr], Context], dict[str, pl.Expr]]


def text_parser(rules: list[Rule], fallback_source: str) -> Parser:
    """Each line is parsed by the first rule whose prefix matches; a line that matches none
    is a continuation (or a traceback) and takes the timestamp of the line before."""

    def parse(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
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
            "_own": pl.lit(INHERIT),
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


def text_format(
    name: str, rules: Sequence[Rule], fallback_source: str | None = None, **fields
) -> LogFormat:
    """A format of anchored line rules: detected by the rules' patterns, each line parsed
    by the first that matches. `fields` are LogFormat's (local_time, priority, ...)."""
    return LogFormat(
        name,
        tuple(r.pattern for r in rules),
        text_parser(list(rules), fallback_source or name),
        **fields,
    )
