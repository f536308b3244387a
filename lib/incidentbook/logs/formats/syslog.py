"""syslog as files and relays write it: RFC 3164 (BSD: no year, no zone; or an ISO stamp)
and RFC 5424; and Loghub's Thunderbird layout (an annotation, epoch seconds, the node,
then a BSD syslog line).

The BSD stamp is read as rsyslog and journald's short format write it in any locale: the
month in the host's language (`oct.`, `Okt`, `11月`, formats.months), a day of one or two
digits after one or two spaces (`Nov 9`, `Nov  9`, `Nov 09`). Lines copied out of `grep`
keep the file name before the stamp (`/var/log/syslog.1:Mar  7 ...`); some relays put the
level before the tag (`host INFO kernel:`); journald leaves the host empty when it has
none (`Feb 23 03:28:16  kernel: ...`).
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.data import NO_TIMESTAMP
from incidentbook.logs.formats.expressions import Rule, epoch_us, rfc3339, text_format, with_year
from incidentbook.logs.formats.golang import KLOG_HEADER
from incidentbook.logs.formats.months import MONTH, month_day_time
from incidentbook.logs.severity import level_of_priority, level_of_word

_BSD_STAMP = rf"(?P<mon>(?i:{MONTH})) {{1,2}}(?P<day>\d{{1,2}}) (?P<time>\d\d:\d\d:\d\d(?:\.\d+)?)"
_ISO_STAMP = r"(?P<iso>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[zZ]|[+-]\d\d:?\d\d))"
_LEVEL_WORD = r"(?:(?P<word>EMERG|ALERT|CRIT|ERR|ERROR|WARNING|WARN|NOTICE|INFO|DEBUG) )?"
_TAG = r"(?:(?P<tag>[^\s:\[]+)(?:\[(?P<pid>[^\]]*)\])?: ?)?"
# In a syslog line the program's tag (`slurmd[4242]: `, `systemd[1]: `) stays in the
# message, as `journalctl` prints it: what a line means often depends on who said it (a
# health check's verdict, a daemon's `fatal:`, a unit's failure). The kernel's own tag is
# the one left out: its messages are read as the kernel logs them.
_KEPT_TAG = r"(?:kernel: ?|(?P<tagged>[^\s:\[]+(?:\[[^\]]*\])?: ?))?"


def bsd_time(g, ctx) -> pl.Expr:
    """A BSD syslog stamp's time: its month in any locale, the year nearest the window."""
    return with_year(month_day_time(g), "%m %d %H:%M:%S%.f", ctx)


# A Go component's klog header after its tag (`kubelet[1234]: E0520 14:00:45.123000 1234
# kubelet.go:2412] ...`, as the journal shows the kubelet, containerd's CRI, the device
# plugin): its level is the line's where syslog states none.
_KLOG_AFTER_TAG = r"[^\s:\[]+(?:\[\d+\])?: ?" + KLOG_HEADER


def _klog_level(g) -> pl.Expr:
    return pl.when(g("tagged").is_not_null()).then(
        level_of_word(pl.col("raw").str.extract_groups(_KLOG_AFTER_TAG).struct.field("level"))
    )


def _syslog_3164(g, ctx):
    return {
        "ts": _syslog_time(g, ctx),
        "severity": pl.coalesce(
            level_of_priority(g("pri")),
            level_of_word(g("word")),
            _klog_level(g),
        ),
        "host": g("host"),
    }


def _syslog_time(g, ctx) -> pl.Expr:
    return pl.when(g("iso").is_not_null()).then(rfc3339(g("iso"), ctx)).otherwise(bsd_time(g, ctx))


def _device_line(g, ctx):
    return {"ts": _syslog_time(g, ctx), "severity": level_of_priority(g("pri"))}


# A kernel line copied without its host and tag keeps the device prefix the kernel gives
# it (`amdgpu 0000:04:00.0: ...`): its driver's name is not a host, as no host is followed
# by a PCI address, and the message keeps both.
_DEVICE_PREFIX = r"(?P<device>[\w.-]+ [0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]: )"
_LEAD = r"(?:/[^\s:]+:)?(?:<(?P<pri>\d{1,3})>)?"

SYSLOG_3164 = text_format(
    "syslog-3164",
    [
        Rule(
            "syslog-3164",
            rf"{_LEAD}(?:{_BSD_STAMP}|{_ISO_STAMP}) {_DEVICE_PREFIX}",
            _device_line,
            tail=("device",),
        ),
        Rule(
            "syslog-3164",
            rf"{_LEAD}(?:{_BSD_STAMP}|{_ISO_STAMP}) "
            rf"(?:(?P<host>[^\s:]+) | )?{_LEVEL_WORD}{_KEPT_TAG}",
            _syslog_3164,
            tail=("tagged",),
        ),
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

# Loghub's Thunderbird (Sandia) syslog: `- 1131566461 2005.11.09 dn228 Nov 9 12:01:01
# dn228/dn228 crond[2916]: msg`. The first field is Loghub's alert tag ("-" for none),
# skipped unread like Blue Gene's; the epoch seconds are the exact time (the syslog stamp
# beside them is local and yearless); the node is the host.
THUNDERBIRD = text_format(
    "thunderbird",
    [
        Rule(
            "thunderbird",
            r"\S+ (?P<epoch>\d{9,10}) \d{4}\.\d\d\.\d\d (?P<host>\S+) "
            r"[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d (?P<src>\S+) " + _TAG,
            lambda g, ctx: {
                "ts": epoch_us(g("epoch").cast(pl.Int64) * 1_000_000),
                "host": g("host"),
            },
        )
    ],
    line_host_first=True,
)
