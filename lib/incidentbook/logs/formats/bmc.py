"""A server's BMC System Event Log as `ipmitool sel list` / `sel elist` and FreeIPMI's
`ipmi-sel` print it: the hardware's own account of power supplies, fans, temperatures,
memory ECC and processor errors, which the host's logs often do not hold (a PSU that
lost its input takes the GPUs with it before the kernel can say why).

    ipmitool:  `  3a | 12/14/22 | 23:09:44 CET | Memory #0x88 | Correctable ECC | Asserted`
    FreeIPMI:  `4    | Jul-20-2017 | 10:29:49 | PS2 Status | Power Supply | Critical | ...`

The BMC's clock is read in assume_tz (a zone abbreviation after the time is not a zone
one can trust: CST is three of them); records from before the BMC knew the time
(`Pre-Init`, `PostInit`) take their neighbour's, marked inferred. The message is the row
after its time, columns joined by ` | ` without their padding; FreeIPMI's state column
(Nominal, Warning, Critical) is the line's level. FreeIPMI's header carries no event.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import INHERIT, SKIP
from incidentbook.logs.formats.expressions import Rule, local_time, text_format

_ID = r"\s*[0-9a-fA-F]+\s*\|\s*"
_ZONE = r"(?: [A-Z]{2,5})?"  # an abbreviation ipmitool may print after the time

_STATE = {"Nominal": "info", "Warning": "warning", "Critical": "crit"}


def _columns(rest: pl.Expr) -> pl.Expr:
    """The row's remaining columns without their padding, joined by ` | `."""
    return rest.str.replace_all(r"\s*\|\s*", " | ").str.strip_chars()


def _ipmitool(g, ctx) -> dict[str, pl.Expr]:
    stamp = g("date") + " " + g("time")
    four = local_time(stamp, "%m/%d/%Y %H:%M:%S", ctx)
    two = local_time(stamp, "%m/%d/%y %H:%M:%S", ctx)
    twelve = local_time(stamp, "%m/%d/%Y %I:%M:%S %p", ctx)
    ts = pl.when(g("date").str.len_chars() == 10).then(pl.coalesce(four, twelve)).otherwise(two)
    return {
        "ts": ts,
        "status": pl.when(g("date").is_null()).then(pl.lit(INHERIT)),
        "message": _columns(g("rest")),
    }


def _freeipmi(g, ctx) -> dict[str, pl.Expr]:
    message = _columns(g("rest"))
    state = message.str.extract(r"\| (Nominal|Warning|Critical) \|", 1)
    return {
        "ts": local_time(g("date") + " " + g("time"), "%b-%d-%Y %H:%M:%S", ctx),
        "status": pl.when(g("date").is_null()).then(pl.lit(INHERIT)),
        "severity": state.replace_strict(_STATE, default=None, return_dtype=pl.String),
        "message": message,
    }


# `ipmitool sel list|elist`: id | MM/DD/YYYY (or YY) | hh:mm:ss [AM|PM] [zone] | ...
# or, before the BMC had the time, `Pre-Init | <seconds since its start>`.
_IPMITOOL = Rule(
    "bmc-sel",
    _ID
    + r"(?:(?P<date>\d\d/\d\d/\d\d(?:\d\d)?)\s*\|\s*(?P<time>\d\d:\d\d:\d\d(?: [AP]M)?)"
    + _ZONE
    + r"|Pre-Init\s*\|\s*\d+)\s*\|(?P<rest>.*)",
    _ipmitool,
)
# FreeIPMI `ipmi-sel`: id | Mon-DD-YYYY | hh:mm:ss | name | type | [state |] event
_FREEIPMI = Rule(
    "bmc-sel",
    r"\s*\d+\s*\|\s*(?:(?P<date>[A-Z][a-z]{2}-\d\d-\d{4})\s*\|\s*(?P<time>\d\d:\d\d:\d\d)"
    r"|PostInit\s*\|\s*PostInit)\s*\|(?P<rest>.*)",
    _freeipmi,
)
_HEADER = Rule(
    "bmc-sel",
    r"\s*ID\s*\|\s*Date\s*\|\s*Time\s*\|\s*Name\s*\|",
    lambda g, ctx: {"status": pl.lit(SKIP)},
)

# A list whose rows all predate the BMC's clock (`Pre-Init`) is dated by its file, as
# the time it was saved: the rows are at least that old.
BMC_SEL = text_format(
    "bmc-sel",
    [_HEADER, _FREEIPMI, _IPMITOOL],
    local_time=True,
    inherit_severity=False,
    file_time=True,
)
