"""Lines of a format no other reader knows, read by the time near their start.

A file whose lines mostly carry a time in their first 64 characters (ISO 8601 or RFC 3339
with `T` or a space, `2024/08/10 19:09:42`, a syslog or ctime stamp in any locale's month
names, epoch seconds in brackets) is read line by line: the time is the first one found,
the message what follows it (after the words before it, when they are text rather than a
host or a tag), the level a level word around it (`ERROR`, `[warn]`, `kern.info`,
`level=error`). Lines without a time continue the line before. Slower than
the specific readers (one search per line), and last in priority: it only reads files
nothing else claims.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.data import BAD_TIMESTAMP
from incidentbook.logs.formats import INHERIT, Context, LogFormat
from incidentbook.logs.formats.expressions import epoch_us, localise, with_year
from incidentbook.logs.formats.months import MONTH, month_day_time
from incidentbook.logs.severity import level_of_word

# What comes before the time: up to 48 characters, ending where a word does (so that a
# time is never read from the middle of a longer number).
_LEAD = r"(?P<lead>(?:.{0,47}?[^\w.:/-])?)"
_ISO = (
    r"(?P<iso>(?P<iso_date>\d{4}[-/]\d\d[-/]\d\d)[T ](?P<iso_time>\d\d:\d\d:\d\d(?:[.,]\d{1,9})?)"
    r"(?P<iso_zone>\s?(?:Z|z|[+-]\d\d:?\d\d|UTC)\b)?)"
)
_CTIME = (
    r"(?P<ctime>(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? )?(?P<mon>(?i:" + MONTH + r"))"
    r" {1,2}(?P<day>\d{1,2}),? (?:(?P<year1>\d{4}) )?(?P<time>\d\d:\d\d:\d\d(?:\.\d{1,9})?)"
    r"(?: (?P<year2>\d{4}))?)"
)
_EPOCH = r"\[(?P<epoch>1\d{9}(?:\.\d{1,9})?)\]"
# A month and day in numbers after a level word, no year (vLLM's and SGLang's loggers:
# `INFO 09-29 00:28:50 [__init__.py:216] ...`): after the level only, as a bare `MM-DD`
# could be anything.
_MD = (
    r"(?P<md_level>(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) )(?P<md>(?P<md_mon>[01]\d)-"
    r"(?P<md_day>[0-3]\d) (?P<md_time>\d\d:\d\d:\d\d(?:\.\d{1,9})?))"
)
_AFTER = r"(?P<after>[\])]?:?\s*)"
STAMP = rf"^{_LEAD}(?:{_ISO}|{_CTIME}|{_EPOCH}|{_MD}){_AFTER}"
"""A time near the start of a line (anchored; stops after the time)."""

_LEVEL = (
    r"(?:\b(?:kern|user|daemon|local\d|syslog|auth\w*|cron|mail)\.|level=\"?|\[|\b)"
    r"(?P<level>EMERG|ALERT|CRIT(?:ICAL)?|ERROR|ERR|WARN(?:ING)?|NOTICE|INFO|DEBUG|FATAL"
    r"|emerg|alert|crit|err|error|warn|warning|notice|info|debug|fatal)\b"
)


_LEAD_TAIL = (
    r"(?:[\s:|\[]*\b(?:(?:kern|user|daemon|local\d|syslog|auth\w*|cron|mail)(?:\.\w+)?"
    r"|(?i:emerg|alert|crit(?:ical)?|error|err|warn(?:ing)?|notice|info|debug|fatal))\b)+"
    r"[\s:|\[\]]*$"
)
"""Facility and level words at the end of what precedes the time."""


def _time(g, ctx: Context) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """(time, zoned, yearless) of the stamp found."""
    date = g("iso_date").str.replace_all("/", "-", literal=True)
    clock = g("iso_time").str.replace(",", ".", literal=True)
    zone = (
        g("iso_zone")
        .str.strip_chars()
        .str.replace("UTC", "+00:00")
        .str.replace(r"^[zZ]$", "+00:00")
    )
    naive = (date + " " + clock).str.to_datetime(
        "%Y-%m-%d %H:%M:%S%.f", time_unit="us", strict=False
    )
    aware = (date + " " + clock + zone.str.replace(":", "", literal=True)).str.to_datetime(
        "%Y-%m-%d %H:%M:%S%.f%z", time_zone="UTC", time_unit="us", strict=False
    )
    iso = pl.when(zone.is_not_null()).then(aware).otherwise(localise(naive, ctx.tz))
    md = month_day_time(g)
    year = pl.coalesce(g("year1"), g("year2"))
    dated = localise(
        (year + " " + md).str.to_datetime("%Y %m %d %H:%M:%S%.f", time_unit="us", strict=False),
        ctx.tz,
    )
    ctime = (
        pl.when(year.is_not_null()).then(dated).otherwise(with_year(md, "%m %d %H:%M:%S%.f", ctx))
    )
    numeric = with_year(
        g("md_mon") + " " + g("md_day") + " " + g("md_time"), "%m %d %H:%M:%S%.f", ctx
    )
    epoch = epoch_us((g("epoch").cast(pl.Float64, strict=False) * 1e6).round().cast(pl.Int64))
    ts = (
        pl.when(g("iso").is_not_null())
        .then(iso)
        .when(g("ctime").is_not_null())
        .then(ctime)
        .when(g("md").is_not_null())
        .then(numeric)
        .otherwise(epoch)
    )
    zoned = g("epoch").is_not_null() | zone.is_not_null()
    yearless = (g("ctime").is_not_null() & year.is_null()) | g("md").is_not_null()
    return ts, zoned, yearless


def _generic(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    raw = pl.col("raw")
    lf = lf.with_columns(_m=raw.str.extract_groups(STAMP))

    def g(name: str) -> pl.Expr:
        return pl.col("_m").struct.field(name)

    found = g("lead").is_not_null()
    start = (
        g("lead").str.len_chars()
        + g("md_level").str.len_chars().fill_null(0)
        + pl.coalesce(g("iso"), g("ctime"), g("epoch"), g("md")).str.len_chars()
    )
    start = start + pl.when(g("epoch").is_not_null()).then(2).otherwise(0)
    cut = start + g("after").str.len_chars()
    after = raw.str.slice(cut.fill_null(0))
    # Words before the time stay in the message (`Low socket*core*thre root  <time> node`,
    # sinfo -R's reason and user): a lead of one token (a host, an address, a tag) once its
    # facility and level words are gone (`10.0.0.9: kern: warning:`) is not text, and goes.
    lead = (
        g("lead")
        .fill_null("")
        .str.replace(_LEAD_TAIL, "")
        .str.strip_chars_end(" \t[(|:-,")
        .str.strip_chars_start()
    )
    message = pl.when(lead.str.contains(r"\S\s+\S")).then(lead + " " + after).otherwise(after)
    ts, zoned, yearless = _time(g, ctx)
    around = g("lead").fill_null("") + " " + g("md_level").fill_null("") + after.str.slice(0, 64)
    source = (
        pl.when(yearless).then(pl.lit("generic-yearless")).when(zoned).then(pl.lit("generic"))
    ).otherwise(pl.lit("generic-local"))
    return lf.with_columns(
        ts=pl.when(found).then(ts),
        host=pl.lit(None, pl.String),
        severity=level_of_word(around.str.extract(_LEVEL, 1)),
        source=pl.when(found).then(source).otherwise(pl.lit("generic")),
        message=pl.when(found).then(message).otherwise(raw),
        status=pl.when(~found).then(pl.lit(INHERIT)).when(ts.is_null()).then(pl.lit(BAD_TIMESTAMP)),
    ).drop("_m")


GENERIC = LogFormat("generic", (STAMP.removeprefix("^"),), _generic, priority=-100, fallback=True)
# The time semantics of the lines the generic reader read from a naive or a yearless
# stamp (never detected on their own: no sniff).
GENERIC_LOCAL = LogFormat("generic-local", (), _generic, local_time=True)
GENERIC_YEARLESS = LogFormat("generic-yearless", (), _generic, local_time=True, yearless=True)
