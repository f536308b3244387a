"""IBM Blue Gene RAS events, as the Computer Failure Data Repository's BGL logs hold them."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats.expressions import Rule, epoch_us, text_format
from incidentbook.logs.severity import level_of_word

# IBM Blue Gene RAS events (the BGL logs of the Computer Failure Data Repository):
# `- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11
# RAS KERNEL INFO msg`. The first field is an annotation some published copies add (an
# alert tag); it is skipped, never read. Times are epoch seconds; the host is the location.
BLUEGENE_RAS = text_format(
    "bluegene-ras",
    [
        Rule(
            "bluegene-ras",
            r"\S+ (?P<epoch>\d{9,10}) \d{4}\.\d\d\.\d\d (?P<host>\S+) "
            r"\d{4}-\d\d-\d\d-\d\d\.\d\d\.\d\d\.\d+ \S+ [A-Z]+ (?P<component>[A-Z_]+) "
            r"(?P<level>[A-Z]+) ",
            lambda g, ctx: {
                "ts": epoch_us(g("epoch").cast(pl.Int64) * 1_000_000),
                "severity": level_of_word(g("level")),
                "host": g("host"),
            },
        )
    ],
    line_host_first=True,
)
