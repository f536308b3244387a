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
    first, last = ctx.window.start.astimezone(zone).year, ctx.window.end.astimezone(zone).year
    # The years around each end of the window: a date of a middle year of a long window
    # is inside the window in its first year already (ties go to the earliest year).
    years = sorted({y for edge in (first, last) for y in (edge - 1, edge, edge + 1)})
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


Group = Callable[[str], pl.Expr]


@dataclass(frozen=True)
class Rule:
    """One line shape: an anchored regex of the prefix (named groups; no trailing `.*`,
    which makes the regex engine walk the whole line), and how its groups become the
    line's columns: ts, severity, host, status, message (default: the text after the
    prefix), rank, local_rank, and private ones (`_rel`: microseconds since boot, `_wall`:
    a wall-clock time the line states, for formats timed since boot)."""

    source: str
    pattern: str
    build: Callable[[Group, Context], dict[str, pl.Expr]]
    # Groups (the first that took part) that end the prefix and start the message.
    tail: tuple[str, ...] = ()


# The columns a rule may give, and their types when it gives none.
_COLUMNS: dict[str, pl.DataType] = {
    "ts": UTC_US,
    "severity": pl.String,
    "host": pl.String,
    "rank": pl.Int32,
    "local_rank": pl.Int32,
    "_own": pl.String,
    "_rel": pl.Int64,
    "_wall": pl.Int64,
}


def _groups(rule: Rule, column: pl.Expr, i: int, tag: str) -> tuple[pl.Expr, Group]:
    alias = f"_{tag}{i}"
    extract = column.str.extract_groups(f"^(?P<_p>{rule.pattern})").alias(alias)

    def group(name: str, alias: str = alias) -> pl.Expr:
        return pl.col(alias).struct.field(name)

    return extract, group


def _chain(cases: list[tuple[pl.Expr, pl.Expr]], otherwise: pl.Expr) -> pl.Expr:
    if not cases:
        return otherwise
    chain = pl.when(cases[0][0]).then(cases[0][1])
    for cond, value in cases[1:]:
        chain = chain.when(cond).then(value)
    return chain.otherwise(otherwise)


def text_parser(rules: list[Rule], fallback_source: str, prefix: Rule | None = None) -> Parser:
    """Each line is parsed by the first rule whose prefix matches; a line that matches none
    is a continuation (or a traceback) and takes the time of the line before.

    `prefix` is an optional outer prefix (a launcher's rank tag): its groups are read
    first (rank, host, a time), it is cut off, and the rules apply to what follows."""

    def parse(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
        body = pl.col("raw")
        outer: dict[str, pl.Expr] = {}
        drops: list[str] = []
        if prefix is not None:
            extract, group = _groups(prefix, body, 0, "q")
            lf = lf.with_columns(extract)
            drops.append("_q0")
            cut = group("_p").str.len_chars().fill_null(0)
            lf = lf.with_columns(_body=pl.col("raw").str.slice(cut))
            drops.append("_body")
            body = pl.col("_body")
            outer = prefix.build(group, ctx)
        extracts, built, matched = [], [], []
        for i, rule in enumerate(rules):
            extract, group = _groups(rule, body, i, "m")
            extracts.append(extract)
            drops.append(f"_m{i}")
            got = rule.build(group, ctx)
            cut = group("_p").str.len_chars()
            if rule.tail:
                kept = pl.coalesce([group(name) for name in rule.tail]).str.len_chars()
                cut = cut - kept.fill_null(0)
            got.setdefault("message", body.str.slice(cut))
            got["source"] = pl.lit(rule.source)
            got["_own"] = got.pop("status", pl.lit(None, pl.String))
            built.append(got)
            matched.append(group("_p").is_not_null())
        lf = lf.with_columns(extracts)
        names = [*_COLUMNS, "source", "message"]
        names += sorted({k for got in built for k in got if k not in names})
        fallback = {"_own": pl.lit(INHERIT), "source": pl.lit(fallback_source), "message": body}
        columns = {}
        for name in names:
            # The first rule that matches gives every column: one it does not give is null
            # for its lines (not what a later rule that also matches would give).
            none = pl.lit(None, _COLUMNS.get(name, pl.String))
            cases = [(m, got.get(name, none)) for m, got in zip(matched, built, strict=True)]
            while cases and cases[-1][1] is none:
                cases.pop()  # (trailing rules without it: the otherwise below says null)
            otherwise = fallback.get(name, none)
            columns[name] = _chain(cases, otherwise)
        for name, value in outer.items():  # the launcher's rank and host fill in the rule's
            if name == "status":
                continue
            columns[name] = pl.coalesce(columns[name], value) if name in columns else value
        # A rule's own status first (no boot time, no time of its own); a prefix whose time
        # does not parse (Feb 30, a DST gap) is an unreadable timestamp.
        own = pl.col("_own")
        status = (
            pl.when(own.is_not_null())
            .then(own)
            .when(pl.col("ts").is_null())
            .then(pl.lit(BAD_TIMESTAMP))
        )
        # A line without its own time whose launcher prefix gave one is timed by it.
        if "ts" in outer:
            status = (
                pl.when((own == INHERIT) & pl.col("ts").is_not_null()).then(None).otherwise(status)
            )
        return lf.with_columns(**columns).with_columns(status=status).drop([*drops, "_own"])

    return parse


def text_format(
    name: str,
    rules: Sequence[Rule],
    fallback_source: str | None = None,
    *,
    prefix: Rule | None = None,
    sniff: Sequence[str] = (),
    **fields,
) -> LogFormat:
    """A format of anchored line rules: detected by the rules' patterns (after the optional
    launcher `prefix`) and any extra `sniff` patterns, each line parsed by the first rule
    that matches. `fields` are LogFormat's (local_time, priority, ...)."""
    lead = f"(?:{prefix.pattern})?" if prefix is not None else ""
    patterns = tuple(f"{lead}(?:{r.pattern})" for r in rules) + tuple(
        f"{lead}(?:{p})" for p in sniff
    )
    return LogFormat(
        name,
        patterns,
        text_parser(list(rules), fallback_source or name, prefix),
        **fields,
    )
