"""IBM Storage Scale (GPFS) daemon log, /var/adm/ras/mmfs.log.*: the shared filesystem's
own account of what the kernel log does not say (its RDMA connections failing, quorum
lost, the node expelled, a filesystem unmounted under the jobs).

    `2024-11-23_01:16:26.221+0800: [E] VERBS RDMA: fatal async event ... on mlx5_0`
    `Tue Jun  3 22:38:04 PDT 2014: Node rebooted.  Starting mmautoload...`   (gpfs-ctime:
        older releases; local time, read in assume_tz: a zone abbreviation is ambiguous)

Lines gathered from many nodes by mmdsh carry the node first (`node01: 2024-...`). The
letter in brackets is the level: I(nformational), N(otice), W(arning), E(rror),
X (a severe error). Lines without a time continue the line before.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats.expressions import Rule, local_time, text_format

_NODE = r"(?:(?P<host>[\w.-]+): )?"
_LEVEL = {"I": "info", "N": "notice", "W": "warning", "E": "err", "X": "crit"}


def _level(g) -> pl.Expr:
    return g("level").replace_strict(_LEVEL, default=None, return_dtype=pl.String)


_ISO = Rule(
    "gpfs",
    _NODE + r"(?P<ts>\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d(?:\.\d{1,6})?[+-]\d{4}): "
    r"(?:\[(?P<level>[INWEX])\] ?)?",
    lambda g, ctx: {
        "ts": g("ts").str.to_datetime(
            "%Y-%m-%d_%H:%M:%S%.f%z", time_zone="UTC", time_unit="us", strict=False
        ),
        "severity": _level(g),
        "host": g("host"),
    },
)
_CTIME = Rule(
    "gpfs-ctime",
    _NODE + r"(?P<clock>(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d"
    r"(?:\.\d{1,6})?)(?: [A-Z]{2,5})? (?P<year>\d{4}): (?:\[(?P<level>[INWEX])\] ?)?",
    lambda g, ctx: {
        "ts": local_time(
            (g("clock") + " " + g("year")).str.replace("  ", " ", literal=True),
            "%a %b %d %H:%M:%S%.f %Y",
            ctx,
        ),
        "severity": _level(g),
        "host": g("host"),
    },
)

GPFS = text_format("gpfs", [_ISO], line_host_first=True)
GPFS_CTIME = text_format("gpfs-ctime", [_CTIME], local_time=True, line_host_first=True)
