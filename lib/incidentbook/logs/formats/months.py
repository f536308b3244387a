"""Month names as syslog and `date` write them in the C locale and in other locales.

rsyslog and journald's short format print the month with the C library's `%b`, so a
host with a French, German or Chinese locale writes `oct.`, `Okt`, `11月`. The
abbreviations below are glibc's `abmon` for the locales cluster hosts are commonly set to
(and their full names where a locale writes a full one); a name is lower-cased with any
trailing dot removed before it is looked up.
"""

from __future__ import annotations

import re

import polars as pl

_NAMES: dict[int, tuple[str, ...]] = {
    1: ("jan", "janv", "januar", "ene", "gen", "sty", "oca", "led", "янв", "января"),
    2: ("feb", "févr", "fevr", "fév", "fev", "lut", "şub", "sub", "úno", "фев", "февр"),
    3: ("mar", "mär", "mars", "mrt", "bře", "мар", "марта"),
    4: ("apr", "avr", "abr", "kwi", "nis", "dub", "апр"),
    5: ("may", "mai", "mag", "mei", "maj", "kvě", "мая", "май"),
    6: ("jun", "juin", "giu", "cze", "haz", "čvn", "июн", "июня"),
    7: ("jul", "juil", "lug", "lip", "tem", "čvc", "июл", "июля"),
    8: ("aug", "août", "aout", "ago", "sie", "ağu", "agu", "srp", "авг"),
    9: ("sep", "sept", "set", "wrz", "eyl", "zář", "сен", "сент"),
    10: ("oct", "okt", "ott", "out", "paź", "eki", "říj", "окт"),
    11: ("nov", "lis", "kas", "ноя", "нояб"),
    12: ("dec", "déc", "dez", "dic", "gru", "ara", "pro", "дек"),
}

MONTHS: dict[str, int] = {name: number for number, names in _NAMES.items() for name in names}
"""Month name (lower case, no trailing dot) -> month number."""

# CJK locales write the number: `11月` (zh, ja), `11월` (ko).
_CJK = r"1[0-2][月월]|0?[1-9][月월]"

MONTH = (
    "(?:" + "|".join(re.escape(n) for n in sorted(MONTHS, key=len, reverse=True)) + r")\.?|" + _CJK
)
"""A month as syslog writes it, any of the locales above (match case-insensitively)."""


def month_day_time(g) -> pl.Expr:
    """`MM DD hh:mm:ss` of a stamp's groups `mon` (a month name of any locale above),
    `day` and `time`, for strptime's `%m %d %H:%M:%S`."""
    month = month_number(g("mon")).cast(pl.String).str.zfill(2)
    return month + " " + g("day").str.zfill(2) + " " + g("time")


def month_number(token: pl.Expr) -> pl.Expr:
    """The month number (1-12) of a month token: a name of MONTHS or `N月`/`N월`."""
    cleaned = token.str.to_lowercase().str.strip_chars_end(".")
    cjk = cleaned.str.extract(r"^(\d{1,2})[月월]$", 1).cast(pl.Int32, strict=False)
    named = cleaned.replace_strict(MONTHS, default=None, return_dtype=pl.Int32)
    return pl.coalesce(cjk, named)
