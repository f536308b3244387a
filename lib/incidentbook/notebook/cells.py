"""What the incident workbook's cells call: each returns something to show.

The notebook (workbooks/incident.ipynb) holds no logic: parameters, then one call a
cell. Everything here is reachable from tests without a kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import altair as alt
import polars as pl
from IPython.display import Markdown

from incidentbook.charts import CHARTS, ChartEntry, Figure, register_theme
from incidentbook.charts.entries import stacked
from incidentbook.charts.hosts import worst_signals as worst_signals
from incidentbook.charts.svg import convert_ahead, warm_up
from incidentbook.errors import IncidentbookError
from incidentbook.investigation import Investigation, investigate
from incidentbook.notebook.tables import Column, Table
from incidentbook.outputs.publish import Outputs, publish
from incidentbook.paths import resolve_input, resolve_output, resources_dir
from incidentbook.record.draft import draft as draft_case
from incidentbook.record.model import CaseRecord
from incidentbook.record.taxonomy import Taxonomy
from incidentbook.text import counted, format_lag, kind_noun, kinds_counted

VEGALITE_MIME = "application/vnd.vegalite.v5+json"


CHART_ACTIONS = {"export": True, "source": False, "compiled": False, "editor": False}
"""The chart menu (vega-embed's `actions`): export as SVG or PNG; no "Open in Vega Editor",
which needs the network, and no source views."""


EMBED_OPTIONS = {"actions": CHART_ACTIONS, "renderer": "svg"}
"""vega-embed's options in JupyterLab: the menu above, and SVG rather than a canvas, so
text in a chart (legends, axes) is sharp when zoomed, selectable, and read by screen
readers and by the browser tests."""


def _render(spec: dict, **metadata) -> tuple[dict, dict]:
    """Charts as Vega-Lite JSON under the mime type JupyterLab renders.

    altair 6 labels its output `application/vnd.vegalite.v6.json`, which JupyterLab 4
    does not render and nbformat rejects (not a `+json` type); the spec itself uses
    nothing Vega-Lite 5 lacks. No random ids, so nbval can compare runs.
    """
    spec = {**spec, "$schema": "https://vega.github.io/schema/vega-lite/v5.json"}
    title = spec.get("title") or next(
        (c.get("title") for c in spec.get("vconcat", []) + spec.get("layer", []) if c.get("title")),
        "chart",
    )
    text = title.get("text") if isinstance(title, dict) else title
    bundle = {VEGALITE_MIME: spec, "text/plain": f"<chart: {text}>"}
    return bundle, {VEGALITE_MIME: {"embed_options": EMBED_OPTIONS}}


def setup() -> None:
    """Charts rendered for JupyterLab (and comparable by nbval), one theme, readable tables;
    the SVG converter process started for the report's static charts (convert_ahead)."""
    warm_up()
    alt.renderers.register("incidentbook", _render)
    alt.renderers.enable("incidentbook")
    register_theme()
    pl.Config.set_tbl_rows(40)
    pl.Config.set_fmt_str_lengths(160)
    pl.Config.set_tbl_hide_dataframe_shape(True)


def project_root() -> Path | None:
    """The checkout holding this package, where the bundled incidents live (None if installed)."""
    root = resources_dir().parent
    return root if (root / "data").is_dir() else None


def locate(path: str) -> Path:
    """A path as given, or found from the notebook's folder up to its project's root
    (paths.resolve_input); never in the installed package's checkout."""
    return resolve_input(path)


def output_dir(out: str) -> Path:
    """Where the outputs go: as given, or under the notebook's project root."""
    return resolve_output(out)


def load(
    incident: str,
    start: str = "",
    end: str = "",
    signal_pack: str = "",
    signatures: str = "",
    source: str = "",
    taxonomy: str = "",
    boot_time: str = "",
) -> Investigation:
    """The incident's window: metrics, logs and everything found in them. `taxonomy` is
    an extension of the taxonomy (default: INCIDENTBOOK_TAXONOMY's), used throughout;
    `boot_time` the hosts' boot times (`HOST=TIME,...` or `TIME`) for kernel lines timed
    since boot."""
    from incidentbook.logs.read import parse_boot_times

    return investigate(
        locate(incident),
        start or None,
        end or None,
        pack=signal_pack or None,
        signatures=locate(signatures) if signatures else None,
        source=source or None,
        taxonomy=locate(taxonomy) if taxonomy else None,
        boot_times=parse_boot_times(boot_time) if boot_time else None,
    )


MOST_TRENDS = 6
"""Trends the summary names one by one; the rest are counted."""


def summary(inv: Investigation) -> Markdown:
    """The story in a few lines: what broke, what coincided, which hosts."""
    a = inv.analysis
    kinds: dict[str, int] = {}
    for f in inv.findings:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    primary = [f for f in inv.findings if f.signal == a.primary and f.kind in {"drop", "spike"}]
    causes = [c for c in inv.correlations if c.cause]
    lines = [
        f"**{inv.spec.title}**, {a.window.start:%Y-%m-%d %H:%M} to {a.window.end:%H:%M} UTC "
        f"({inv.spec.cluster.nodes} nodes x {inv.spec.cluster.gpus_per_node} "
        f"{inv.spec.cluster.gpu_model or 'GPUs'}).",
        "",
        f"- {counted(len(primary), 'anomaly', 'anomalies')} of the primary signal, `{a.primary}`.",
    ]
    verdict = inv.verdict
    if verdict is not None:
        lines.insert(0, f"**Verdict** ({verdict.confidence:.2f}): {verdict.summary}\n")
    elif causes:
        lines.append(
            f"- Best explanation in the data: **{causes[0].signal}**. {causes[0].explanation}"
        )
    for f in inv.findings:
        if f.kind == "failure_rate":
            lines.append(f"- {f.summary}.")
    # A trend is a slow change over the whole window (a filesystem filling, a dataloader
    # slowing): the anomalies' counts never say it, and there is at most one a signal.
    trends = sorted(
        (f for f in inv.findings if f.kind == "trend"), key=lambda f: f.signal != a.primary
    )
    for f in trends[:MOST_TRENDS]:
        lines.append(f"- {f.summary}.")
    if len(trends) > MOST_TRENDS:
        lines.append(f"- {counted(len(trends) - MOST_TRENDS, 'more trend')} in the findings.")
    if kinds:
        lines.append(f"- Found: {kinds_counted(kinds)}.")
    return Markdown("\n".join(lines))


CHANGE_KINDS = frozenset({"drop", "spike", "level_shift", "trend", "outlier_host"})
"""Finding kinds whose magnitude is a change against a baseline; for the others (events,
signatures, failure rates) it is a share of hosts or a count, said in the summary."""


def findings_table(inv: Investigation) -> Table:
    """Every finding in time order: when, what kind, what was found (the whole sentence),
    the change against the baseline where there is one, and the hosts."""
    rows = [
        {
            "start": f.start,
            "kind": kind_noun(f.kind),
            "signal": f.signal,
            "summary": f.summary or f.signal,
            "change": f"{f.magnitude * 100:+,.0f}%" if f.kind in CHANGE_KINDS else "",
            "hosts": f.hosts,
        }
        for f in sorted(inv.findings, key=lambda f: (f.start, f.kind, f.signal))
    ]
    frame = pl.DataFrame(rows, schema=_FINDING_SCHEMA, orient="row")
    columns = [
        Column("start", "Start", "time"),
        Column("kind", "Kind"),
        Column("signal", "Signal", "code"),
        Column("summary", "What was found", wide=True),
        Column("change", "Change vs baseline", "number"),
        Column("hosts", "Hosts", "list"),
    ]
    return Table(frame, columns, noun=("finding", "findings"), empty="no anomaly found")


_FINDING_SCHEMA = {
    "start": pl.Datetime("us", "UTC"),
    "kind": pl.String,
    "signal": pl.String,
    "summary": pl.String,
    "change": pl.String,
    "hosts": pl.List(pl.String),
}


def correlations_table(inv: Investigation) -> Table:
    """The signals whose anomalies line up with the symptom's, best first: cause or
    effect, how well (0 to 1), when against the symptom, where, and why."""
    rows = [
        {
            "signal": c.signal,
            "role": "cause" if c.cause else "effect",
            "score": f"{c.score:.2f} of 1",
            "onset": format_lag(c.lag_seconds),
            "hosts": c.hosts or ["cluster-wide"],
            "why": c.explanation,
        }
        for c in inv.correlations
    ]
    schema = {
        "signal": pl.String,
        "role": pl.String,
        "score": pl.String,
        "onset": pl.String,
        "hosts": pl.List(pl.String),
        "why": pl.String,
    }
    columns = [
        Column("signal", "Signal", "code"),
        Column("role", "Reads as"),
        Column("score", "Score", "number"),
        Column("onset", "Onset", "time"),
        Column("hosts", "Where", "list"),
        Column("why", "Why", wide=True),
    ]
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    return Table(frame, columns, noun=("signal", "signals"), empty="no signal lines up")


def signatures_table(inv: Investigation) -> Table:
    """Known log signatures in the window: what, how bad, how many lines, where, when
    first, and the usual action (whole)."""
    columns = [
        Column("label", "Signature"),
        Column("severity", "Severity"),
        Column("count", "Lines", "number"),
        Column("hosts", "Hosts", "list"),
        Column("first_seen", "First seen", "time"),
        Column("action", "Usual action", wide=True),
    ]
    if inv.logs is None:
        return Table(pl.DataFrame(), columns, empty="no logs/ folder in this incident")
    frame = inv.logs.signatures.select(
        "label",
        "severity",
        "count",
        pl.col("hosts").list.sort(),
        "first_seen",
        action=pl.col("action").fill_null(""),
    )
    return Table(frame, columns, noun=("signature", "signatures"), empty="no known signature")


def new_templates_table(inv: Investigation, rows: int = 15) -> Table:
    """Log templates new in the window, worst first (the first `rows`; the caption says
    how many there are in all)."""
    columns = [
        Column("template", "Template", "mono", wide=True),
        Column("severity", "Severity"),
        Column("count", "Lines", "number"),
        Column("hosts", "Hosts", "number"),
        Column("first_seen", "First seen", "time"),
    ]
    if inv.logs is None:
        return Table(pl.DataFrame(), columns, empty="no logs/ folder in this incident")
    new = inv.logs.templates.templates.filter("new")
    frame = new.head(rows).select("template", "severity", "count", "hosts", "first_seen")
    notes = [f"the first {rows} of {new.height:,} shown"] if new.height > rows else []
    return Table(frame, columns, noun=("new template", "new templates"), notes=notes)


def _drawn(inv: Investigation, name: str, entry: ChartEntry):
    """What a chart entry's builder returns for this investigation, built once: the
    chart cells show it, and `write` turns the same charts into the report's SVGs (a
    second build was the same chart again, at a second or more a run). Kept on the
    investigation, with the entry that drew it (an entry registered anew draws anew)."""
    drawn = inv.__dict__.setdefault("_workbook_charts", {})
    if name not in drawn or drawn[name][0] is not entry:
        built = entry.build(inv)
        drawn[name] = (entry, built)
        if "report" in entry.where and built is not None:
            # The report's SVG is drawn beside the kernel while the workbook goes on.
            for figure in built if isinstance(built, Sequence) else [built]:
                convert_ahead(figure.chart if isinstance(figure, Figure) else figure)
    return drawn[name][1]


def _figures(inv: Investigation, name: str, entry: ChartEntry) -> list[Figure]:
    """`entry.figures(inv)`, from the chart built once."""
    drawn = _drawn(inv, name, entry)
    if drawn is None:
        return []
    if isinstance(drawn, Sequence):
        return list(drawn)
    return [Figure(entry.name, entry.title, drawn)]


OWN_CELLS = ("story", "failure-rates", "signatures", "hosts")
"""The charts the workbook has a cell of its own for; `more_charts` shows the others."""


def chart(inv: Investigation, name: str) -> alt.TopLevelMixin | None:
    """A registered chart as the workbook shows it (several figures one above the other);
    None when there is nothing to draw for this incident."""
    drawn = _drawn(inv, name, CHARTS.get(name))
    if drawn is None or isinstance(drawn, alt.TopLevelMixin):
        return drawn
    return stacked([f.chart for f in drawn]) if drawn else None


def more_charts(inv: Investigation) -> alt.TopLevelMixin | None:
    """The notebook charts of installed packages (or registered in code), one above the
    other; None when there are none."""
    extra = [
        f.chart
        for name, entry in CHARTS.entries()
        if "notebook" in entry.where and name not in OWN_CELLS
        for f in _figures(inv, name, entry)
    ]
    return stacked(extra) if extra else None


def host_heatmaps(inv: Investigation) -> alt.TopLevelMixin | None:
    """The worst signals by host and time (the `hosts` chart)."""
    return chart(inv, "hosts")


def notes(inv: Investigation) -> Markdown:
    items = inv.notes or ["nothing to report: every file and line was read"]
    return Markdown("\n".join(f"- {n}" for n in items))


def chart_set(inv: Investigation) -> dict[str, tuple[str, alt.TopLevelMixin]]:
    """The charts that go into the report page, by file name (the registry's order)."""
    return {
        f.name: (f.title, f.chart)
        for name, entry in CHARTS.entries()
        if "report" in entry.where
        for f in _figures(inv, name, entry)
    }


def draft(inv: Investigation, out: str) -> CaseRecord:
    """The record, drafted from the data; the person's case.yaml and earlier edits kept."""
    return draft_case(inv, output_dir(out))


def similar(
    record: CaseRecord,
    library: str = "data/library",
    top: int = 3,
    *,
    taxonomy: Taxonomy | None = None,
    out: Path | str | None = None,
    start: Path | str | None = None,
) -> Table:
    """The library's closest past cases, and why they match, each linking to its page.

    With `out`, each case's page is written to OUT/similar/<id>.html (self-contained, as
    the report is) and linked from the notebook's folder (`start`, default the current
    one); without it, the link goes to the case's record file in the library."""
    import os
    from urllib.parse import quote

    from incidentbook.outputs.render import render_case
    from incidentbook.record.similar import similar_cases
    from incidentbook.record.store import atomic_write_text, record_files

    columns = [
        Column("case", "Case", "link", href="href"),
        Column("title", "Title"),
        Column("score", "Closeness", "number"),
        Column("why", "Why it matches", wide=True),
    ]
    folder = locate(library)
    if not folder.is_dir():
        return Table(pl.DataFrame(), columns, empty=f"no case library at {library}")
    here = Path(start or Path.cwd()).resolve()
    files = {p.stem: p for p in record_files([folder])}
    rows = []
    for m in similar_cases(record, folder, top=top, taxonomy=taxonomy):
        target = files.get(m.case.id)
        if out is not None:
            page = render_case(m.case, "html", taxonomy)
            target = atomic_write_text(output_dir(str(out)) / "similar" / f"{m.case.id}.html", page)
        rows.append(
            {
                "case": m.case.id,
                "href": quote(Path(os.path.relpath(target, here)).as_posix()) if target else None,
                "title": m.case.title,
                "score": f"{m.score:.2f} of 1",
                "why": "; ".join(m.reasons),
            }
        )
    schema = dict.fromkeys(("case", "href", "title", "score", "why"), pl.String)
    frame = pl.DataFrame(rows, schema=schema, orient="row")
    notes = [
        "Closeness: 1 when every facet (root cause, component, symptom, contributing "
        "factor) matches, 0 when none does; a shared broader value counts half."
    ]
    return Table(
        frame,
        columns,
        noun=("similar case", "similar cases"),
        notes=notes,
        empty="no case in the library shares a facet with this one",
    )


def form(inv: Investigation, record: CaseRecord):
    """The narrative form under the charts; it writes nothing until a person edits or saves.

    Save writes the incident folder's case.yaml (earlier versions in .case-history/).
    A batch run (`incidentbook run`, `regen`: their kernels have form.BATCH_ENV set)
    shows the sentence a reader of the saved notebook sees and builds no widget.
    """
    import os

    from incidentbook.notebook.form import BATCH_ENV, FormPlaceholder, record_form

    if os.environ.get(BATCH_ENV):
        return FormPlaceholder()
    try:
        return record_form(
            record, inv.folder.case_path, findings=inv.findings, taxonomy=inv.taxonomy
        )
    except IncidentbookError as exc:  # ipywidgets missing in a minimal install
        return Markdown(f"_The narrative form needs ipywidgets: {exc}_")


def write(inv: Investigation, record: CaseRecord, out: str) -> Outputs:
    return publish(record, chart_set(inv), output_dir(out), inv.taxonomy)


def record_summary(record: CaseRecord) -> Table:
    """The drafted record at a glance: its id, title, facets and what is left to confirm."""
    evidence = record.evidence
    rows = [
        ("Case id", record.id),
        ("Title", record.title),
        ("Root causes", ", ".join(record.root_causes)),
        ("Components", ", ".join(record.components)),
        ("Symptom tags", ", ".join(record.symptom_tags)),
        ("Drafted, to confirm", ", ".join(record.drafted) or "-"),
        ("Findings", str(len(evidence.findings) if evidence else 0)),
        ("Log signatures", str(len(evidence.log_signatures) if evidence else 0)),
    ]
    frame = pl.DataFrame(rows, schema={"field": pl.String, "value": pl.String}, orient="row")
    columns = [Column("field", "Field"), Column("value", "Value")]
    return Table(frame, columns, noun=("field", "fields"))


def timeline_table(record: CaseRecord) -> Table:
    """The record's timeline: when, what, and whether the data or a person said it."""
    events = record.evidence.timeline if record.evidence else []
    frame = pl.DataFrame(
        {
            "at": [e.at for e in events],
            "event": [e.text for e in events],
            "from": [e.source for e in events],
        },
        schema={"at": pl.Datetime("us", "UTC"), "event": pl.String, "from": pl.String},
    )
    columns = [
        Column("at", "When", "time"),
        Column("event", "What", wide=True),
        Column("from", "From"),
    ]
    return Table(frame, columns, noun=("event", "events"), empty="no timeline yet")


def outputs_table(outputs: Outputs) -> pl.DataFrame:
    """What was written, relative to the output folder (no machine-specific paths)."""
    root = outputs.case.parent
    files = [outputs.case, outputs.report, *outputs.charts, *outputs.others]
    return pl.DataFrame({"written": [str(p.relative_to(root)) for p in files]})


class Place:
    """The incident folder and the output folder of a run, absolute, shown at the top of
    the workbook so that a person sees which checkout's files it reads and writes."""

    def __init__(self, incident: Path, out: Path):
        self.incident, self.out = incident, out

    def __repr__(self) -> str:
        return f"incident: {self.incident}\noutputs:  {self.out}"

    def _repr_markdown_(self) -> str:
        return (
            f"**Incident folder:** `{self.incident}`  \n"
            f"**Output folder:** `{self.out}` (case.json, report.html, charts/)"
        )


def place(incident: str, out: str = "", force: bool = False) -> Place:
    """Where this run reads and writes. Relative paths are found from the notebook's folder
    up to its project's root (never in the installed package's checkout); an empty `out`
    is out/<incident id> there. The output folder is marked as this incident's, and one
    marked as another's is refused (OutputTaken) unless `force`."""
    from incidentbook.incident import IncidentFolder
    from incidentbook.paths import claim_output, default_output

    folder = resolve_input(incident)
    IncidentFolder(folder)  # a clear error about the folder before anything is written
    target = resolve_output(out) if out else default_output(folder)
    return Place(folder, claim_output(target, folder, force=force))


def verdict(inv: Investigation) -> Markdown:
    """The diagnosis first: the most likely explanation in a sentence, how sure and why,
    then the alternatives and what would tell each from it."""
    found = inv.verdict
    if found is None:
        return Markdown(
            "**Verdict:** none: the primary signal has no anomaly for the data to explain."
        )
    lines = [f"**Verdict** (confidence {found.confidence:.2f}): {found.summary}"]
    if found.confidence_why:
        lines += ["", f"*How sure:* {found.confidence_why}"]
    if found.alternatives:
        lines += ["", "Other explanations the data allows, and what would tell them apart:", ""]
        lines += [f"- {a.summary} ({a.score:.2f}). {a.tell_apart}" for a in found.alternatives]
    return Markdown("\n".join(lines))


def written(outputs: Outputs, start: Path | str | None = None) -> Markdown:
    """What was written: the absolute output folder, and each file as a link (relative to
    the notebook's folder, `start`, so that JupyterLab opens it)."""
    import os
    from urllib.parse import quote

    root = outputs.case.parent
    here = Path(start or Path.cwd()).resolve()
    lines = [f"Written to `{root}`:", ""]
    for file in outputs.files():
        href = quote(Path(os.path.relpath(file, here)).as_posix())
        lines.append(f"- [{file.relative_to(root).as_posix()}]({href})")
    return Markdown("\n".join(lines))
