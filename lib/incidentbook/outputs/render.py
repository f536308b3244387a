"""Case pages: one record to HTML or Markdown, through the Jinja2 templates in templates/site/.

Pages are self-contained: the stylesheet is inlined, nothing is fetched from a network,
so a page opens from a file, mails as an attachment and prints.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
from markupsafe import Markup, escape

from incidentbook.outputs.formats import OUTPUTS, OutputFormat
from incidentbook.paths import resources_dir
from incidentbook.record.model import FACET_FIELDS, CaseRecord
from incidentbook.record.taxonomy import FACETS, Taxonomy, load_taxonomy
from incidentbook.text import format_lag, format_moment, format_span, kind_noun

Format = str
"""An output format's name: html, md, or one a package adds (outputs.formats.OUTPUTS)."""

DRAFT_FIELDS: dict[str, str] = {"symptoms": "symptoms", **FACET_FIELDS} | {
    k: k for k in ("trigger", "detection", "remediation", "action_items", "lessons")
}
"""Section key -> the record field whose draft status the section shows."""

SECTIONS: tuple[tuple[str, str], ...] = (
    ("symptoms", "Symptoms"),
    ("trigger", "Trigger"),
    ("root_cause", "Root cause"),
    ("component", "Component"),
    ("contributing_factor", "Contributing factor"),
    ("detection", "Detection"),
    ("remediation", "Remediation"),
    ("action_items", "Action items"),
    ("lessons", "Lessons"),
)
"""A case's sections in the library page's order; facet sections show tags."""


def _paragraphs(text: str) -> Markup:
    parts = [p.strip() for p in (text or "").split("\n\n") if p.strip()]
    return Markup("\n".join(f"<p>{escape(' '.join(p.split()))}</p>" for p in parts))


def _md_text(text: str) -> str:
    return "\n\n".join(" ".join(p.split()) for p in (text or "").split("\n\n") if p.strip())


def check_rows(record: CaseRecord) -> list[dict]:
    """The record's checks as a page shows them: id, kind, condition in words, severity,
    message, drafted."""
    from incidentbook.record.checks import compile_check

    rows = []
    for check in record.checks:
        try:
            condition = compile_check(check, record.id).describe()
        except Exception as exc:  # a signal the default pack lacks: say so, not crash a page
            condition = f"(cannot be compiled here: {exc})"
        rows.append(
            {
                "id": check.id,
                "kind": check.kind,
                "condition": condition,
                "severity": check.severity,
                "message": check.message,
                "drafted": check.drafted,
            }
        )
    return rows


def lead_text(seconds: float | None) -> str:
    """How long before the symptom, in words: '68 min before', '1 min after'."""
    if seconds is None:
        return "no symptom onset known"
    minutes = round(seconds / 60)
    if minutes == 0:
        return "with the symptom"
    return f"{abs(minutes)} min {'before' if minutes > 0 else 'after'}"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(resources_dir() / "site"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["paragraphs"] = _paragraphs
    env.filters["md_text"] = _md_text
    env.globals.update(
        SECTIONS=SECTIONS,
        FACETS=FACETS,
        FACET_FIELDS=FACET_FIELDS,
        DRAFT_FIELDS=DRAFT_FIELDS,
        check_rows=check_rows,
    )
    env.filters["lead"] = lead_text
    env.filters["when"] = format_moment
    env.filters["window"] = lambda w: format_span(w.start, w.end, style="window")
    env.filters["lag"] = format_lag
    env.filters["kind_noun"] = kind_noun
    return env


def facet_tags(record: CaseRecord, taxonomy: Taxonomy) -> dict[str, list]:
    """Each facet's values on the record, as taxonomy entries (id, label, description)."""
    return {f: [taxonomy.value(f, v) for v in record.facet_values(f)] for f in FACETS}


def _page(
    record: CaseRecord,
    template_name: str,
    taxonomy: Taxonomy,
    site_root: str | None,
    svgs: dict[str, str] | None,
) -> str:
    return (
        environment()
        .get_template(template_name)
        .render(
            case=record,
            tags=facet_tags(record, taxonomy),
            facets=taxonomy.facets,
            site_root=site_root,
            svgs=svgs,
        )
    )


def html_page(
    record: CaseRecord,
    taxonomy: Taxonomy,
    *,
    site_root: str | None = None,
    svgs: dict[str, str] | None = None,
) -> str:
    """The case as a self-contained HTML page (charts inlined from `svgs`)."""
    return _page(record, "case.html.j2", taxonomy, site_root, svgs)


def markdown_page(
    record: CaseRecord,
    taxonomy: Taxonomy,
    *,
    site_root: str | None = None,
    svgs: dict[str, str] | None = None,
) -> str:
    """The case as Markdown (charts linked, not inlined)."""
    return _page(record, "case.md.j2", taxonomy, site_root, svgs)


HTML = OutputFormat("html", (".html", ".htm"), html_page, published=True)
MARKDOWN = OutputFormat("md", (".md", ".markdown"), markdown_page)


def render_case(
    record: CaseRecord,
    fmt: Format = "html",
    taxonomy: Taxonomy | None = None,
    *,
    site_root: str | None = None,
    svgs: dict[str, str] | None = None,
) -> str:
    """Render one case in a registered output format (html, md, or a plug-in's); with
    site_root (relative path to the site top) tags link to facets."""
    output = OUTPUTS.get(fmt)
    return output.render(record, taxonomy or load_taxonomy(), site_root=site_root, svgs=svgs)
