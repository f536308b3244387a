"""Tables as a person reads them in the workbook: every row (scrolling under a fixed
header), full text, text left and numbers right, times with their date, units in the
header, long lists of hosts behind a click.

polars' own HTML view is made for exploring frames (a row of dtypes, strings in quotes,
every cell right-aligned by JupyterLab, rows and text cut at a configured length); a
postmortem's tables are read, so they get their own view. The frame stays reachable as
`table.frame` for anyone who wants to filter it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from html import escape
from typing import Literal

import polars as pl

from incidentbook.text import counted, format_moment

Kind = Literal["text", "number", "time", "code", "mono", "list", "link"]


@dataclass(frozen=True)
class Column:
    """One column as shown: the frame's column, its header and how its cells read.

    text: wraps, left; number: right, tabular figures, thousands separated; time: date,
    clock and UTC on one line; code: monospace, never wrapped mid-name; mono: monospace
    text that wraps (log templates); list: names, shown whole when short and behind a
    <details> click when long; link: the cell's text linking to the column `href` names."""

    name: str
    label: str
    kind: Kind = "text"
    href: str | None = None
    wide: bool = False  # the column the reader came for (a sentence): it gets the room


LIST_OPEN = 6
"""A list of up to this many names is shown whole; a longer one says how many and opens
on a click (the names are the point: never cut one)."""

_LEFT = "text-align:left;vertical-align:top;padding:3px 10px 3px 0"
_STYLE = {
    "text": _LEFT + ";white-space:normal;min-width:5em",
    "number": _LEFT.replace("left", "right") + ";font-variant-numeric:tabular-nums",
    "time": _LEFT + ";white-space:nowrap;font-variant-numeric:tabular-nums",
    "code": _LEFT + ";white-space:nowrap;font-family:var(--jp-code-font-family,monospace)",
    "mono": _LEFT + ";white-space:normal;font-family:var(--jp-code-font-family,monospace)",
    "list": _LEFT + ";white-space:normal;min-width:9em;max-width:16em",
    "link": _LEFT + ";white-space:nowrap",
}


def _number(value: object) -> str:
    if isinstance(value, str):  # already formatted (a signed percentage, say)
        return value
    return f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"


def cell_text(value: object, column: Column) -> str:
    """A cell as plain text (the text view and the HTML view say the same)."""
    if value is None:
        return ""
    if column.kind == "time" and isinstance(value, datetime):
        return format_moment(value)
    if column.kind == "number":
        return _number(value)
    if column.kind == "list":
        return ", ".join(str(v) for v in value)
    return str(value)


def _style(column: Column) -> str:
    return _STYLE[column.kind] + (";min-width:22em" if column.wide else "")


def _cell_html(value: object, column: Column, row: dict) -> str:
    if column.kind == "list" and value is not None and len(value) > LIST_OPEN:
        names = escape(", ".join(str(v) for v in value))
        return f"<details><summary>{len(value):,} hosts</summary>{names}</details>"
    text = escape(cell_text(value, column))
    if column.kind == "link" and column.href and row.get(column.href):
        return f'<a href="{escape(row[column.href])}">{text}</a>'
    return text


@dataclass
class Table:
    """A frame shown whole, in the columns given; `noun` counts its rows in the caption
    ("57 findings")."""

    frame: pl.DataFrame
    columns: list[Column]
    noun: tuple[str, str] = ("row", "rows")
    empty: str = "nothing to show"
    max_height: str = "36em"
    notes: list[str] = field(default_factory=list)

    @property
    def caption(self) -> str:
        return counted(self.frame.height, *self.noun)

    def rows(self) -> list[dict]:
        return self.frame.to_dicts()

    def _repr_html_(self) -> str:
        if self.frame.height == 0:
            return f"<p><i>{escape(self.empty)}</i></p>"
        head = "".join(
            f'<th style="{_style(c)};position:sticky;top:0;'
            f'background:var(--jp-layout-color1,#fff)">{escape(c.label)}</th>'
            for c in self.columns
        )
        body = "".join(
            "<tr>"
            + "".join(
                f'<td style="{_style(c)}">{_cell_html(row.get(c.name), c, row)}</td>'
                for c in self.columns
            )
            + "</tr>"
            for row in self.rows()
        )
        notes = "".join(f"<p><i>{escape(n)}</i></p>" for n in self.notes)
        return (
            f'<div class="incidentbook-table" style="max-height:{self.max_height};'
            f'overflow:auto">'
            f'<table style="border-collapse:collapse;table-layout:auto;width:100%">'
            f'<caption style="caption-side:top;text-align:left;font-weight:600">'
            f"{escape(self.caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{notes}"
        )

    def __repr__(self) -> str:
        """Every row as aligned text, for a console or a text-only front end."""
        if self.frame.height == 0:
            return self.empty
        grid = [[c.label for c in self.columns]] + [
            [cell_text(row.get(c.name), c) for c in self.columns] for row in self.rows()
        ]
        widths = [max(len(line[i]) for line in grid) for i in range(len(self.columns))]
        lines = [
            "  ".join(
                text.rjust(w) if c.kind == "number" else text.ljust(w)
                for text, w, c in zip(line, widths, self.columns, strict=True)
            ).rstrip()
            for line in grid
        ]
        return "\n".join([self.caption + ":", *lines, *self.notes])
