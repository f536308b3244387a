"""The README's table of the hostile-input suite, from the catalogue.

Tracebacks and silent outcomes are columns of their own: each case's test fails when
its command gives either, so in a passing suite they are 0 by construction, and the
table says so only because the suite passed.
"""

from __future__ import annotations

from collections import Counter

README_BEGIN = "<!-- bad-input table: generated from tests/hostile/cases.py -->"
README_END = "<!-- end of the bad-input table -->"


def table(cases) -> str:
    from .cases import AREAS

    rows = []
    for area in (*AREAS, None):
        chosen = [c for c in cases if area is None or c.area == area]
        kinds = Counter(c.expect for c in chosen)
        name = "**all**" if area is None else area
        rows.append(f"| {name} | {len(chosen)} | {kinds['error']} | {kinds['note']} | 0 | 0 |")
    head = (
        "| input | cases tried | clear errors | handled with a note | tracebacks | silent |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |\n"
    )
    return head + "\n".join(rows) + "\n"
