"""The library site: every case, counted and browsable by each facet.

Layout (relative links only, so it opens from a folder):
  index.html                         all cases, counts by each facet
  by/<facet>.html                    one facet's values as a tree, with their cases
  by/<facet>/<value>.html            the cases under one value (and its children)
  cases/<id>.html                    one page per case
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from incidentbook.outputs.render import environment, render_case
from incidentbook.record.model import CaseRecord
from incidentbook.record.store import atomic_write_text, load_records
from incidentbook.record.taxonomy import FACETS, FacetValue, Taxonomy, load_taxonomy


@dataclass
class ValueCount:
    """One facet value with the cases tagged with it or with one of its descendants."""

    value: FacetValue
    depth: int
    cases: list[CaseRecord] = field(default_factory=list)
    direct: int = 0


def facet_counts(records: list[CaseRecord], taxonomy: Taxonomy, facet: str) -> list[ValueCount]:
    """The facet's values in tree order with their cases (rolled up to ancestors), if any."""
    rows = {value.id: ValueCount(value, depth) for value, depth in taxonomy.tree(facet)}
    for record in records:
        tagged = record.facet_values(facet)
        for value_id in tagged:
            rows[value_id].direct += 1
        for value_id in sorted({a for v in tagged for a in [v, *taxonomy.ancestors(facet, v)]}):
            rows[value_id].cases.append(record)
    return [row for row in rows.values() if row.cases]


def build_site(
    library: Path | str,
    out: Path | str,
    taxonomy: Taxonomy | None = None,
    progress: Callable[[str], None] | None = None,
) -> Path:
    """Write the static site for every record under `library` into `out`; returns index.html."""
    taxonomy = taxonomy or load_taxonomy()
    records = load_records(library, taxonomy)
    out = Path(out)
    env = environment()
    counts = {f: facet_counts(records, taxonomy, f) for f in FACETS}
    common = {"records": records, "facets": taxonomy.facets, "counts": counts}

    index = atomic_write_text(
        out / "index.html", env.get_template("index.html.j2").render(site_root=".", **common)
    )
    for facet in FACETS:
        atomic_write_text(
            out / "by" / f"{facet}.html",
            env.get_template("facet.html.j2").render(site_root="..", facet=facet, **common),
        )
        for row in counts[facet]:
            atomic_write_text(
                out / "by" / facet / f"{row.value.id}.html",
                env.get_template("value.html.j2").render(
                    site_root="../..", facet=facet, row=row, **common
                ),
            )
    for record in records:
        atomic_write_text(
            out / "cases" / f"{record.id}.html",
            render_case(record, "html", taxonomy, site_root=".."),
        )
        if progress:
            progress(record.id)
    return index
