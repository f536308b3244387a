"""syslog as files and relays write it: RFC 3164 (BSD: no year, no zone; or an ISO stamp)
and RFC 5424."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.data import NO_TIMESTAMP
from incidentbook.logs.formats.expressions import Rule, rfc3339, text_format, with_year
from incidentbook.logs.severity import level_of_priority

_BSD_STAMP = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
_ISO_STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[zZ]|[+-]\d\d:?\d\d)"


def _syslog_3164(g, ctx):
    stamp = g("ts")
    bsd = with_year(stamp.str.replace("  ", " ", literal=True), "%b %d %H:%M:%S%.f", ctx)
    return {
        "ts": pl.when(stamp.str.contains(r"^\d")).then(rfc3339(stamp, ctx)).otherwise(bsd),
        "severity": level_of_priority(g("pri")),
        "host": g("host"),
    }


SYSLOG_3164 = text_format(
    "syslog-3164",
    [
        Rule(
            "syslog-3164",
            rf"(?:<(?P<pri>\d{{1,3}})>)?(?P<ts>{_BSD_STAMP}|{_ISO_STAMP}) (?P<host>[^\s:]+) "
            r"(?:(?P<tag>[^\s:\[]+)(?:\[(?P<pid>[^\]]*)\])?: ?)?",
            _syslog_3164,
        )
    ],
    local_time=True,
    yearless=True,
)


def _syslog_5424(g, ctx):
    stamp = g("ts")
    return {
        "ts": rfc3339(stamp, ctx),
        "status": pl.when(stamp == "-").then(pl.lit(NO_TIMESTAMP)),
        "severity": level_of_priority(g("pri")),
        "host": pl.when(g("host") == "-").then(None).otherwise(g("host")),
    }


SYSLOG_5424 = text_format(
    "syslog-5424",
    [
        Rule(
            "syslog-5424",
            r"<(?P<pri>\d{1,3})>(?P<version>\d{1,2}) (?P<ts>\S+) (?P<host>\S+) (?P<app>\S+) "
            r'(?P<procid>\S+) (?P<msgid>\S+) (?P<sd>-|(?:\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\])+) ?'
            "\ufeff?",
            _syslog_5424,
        )
    ],
)
