"""Drafting the case record from an investigation, and keeping what a person wrote.

The data fills `evidence` (window, findings, correlations, log signatures, a first
timeline) and drafts the narrative a person would otherwise start from blank:
symptoms, detection, components, symptom tags, root cause `unknown`. Drafted fields are
listed in `drafted` and shown as drafts until a person confirms or edits them.

Nothing a person wrote is lost on regeneration: the narrative in the incident folder's
`case.yaml` always wins; a field of an earlier `case.json` that is off the drafted list,
or whose text differs from what the data would draft, is a person's and is carried
over word for word, as are timeline events a person added.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
from pydantic import ValidationError

from incidentbook.errors import IncidentbookError
from incidentbook.logs.severity import NOTABLE_SIGNATURE_SEVERITIES
from incidentbook.metrics.training import TRAINING_KINDS
from incidentbook.paths import resources_dir
from incidentbook.record.model import (
    NARRATIVE_FIELDS,
    SCHEMA_VERSION,
    CaseRecord,
    ChartFile,
    CheckHit,
    Evidence,
    LogSignature,
    TimelineEvent,
)
from incidentbook.record.narrative import DRAFT_MARK, load_narrative
from incidentbook.record.store import load_record, load_records, narrative_invalid
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy
from incidentbook.text import format_time, format_value, lower_label

if TYPE_CHECKING:
    from incidentbook.investigation import Investigation

MAX_TIMELINE = 40


def draft_symptoms(inv: Investigation) -> str:
    analysis, pack = inv.analysis, inv.pack
    primary = pack.signals.get(analysis.primary)
    label = lower_label(primary.label) if primary else analysis.primary
    anomalies = [
        f for f in inv.findings if f.signal == analysis.primary and f.kind in {"drop", "spike"}
    ]
    parts = []
    if len(anomalies) == 1:  # its own summary says it whole ("rose 1 times" would not)
        parts.append(anomalies[0].summary + ".")
    elif anomalies:
        depth = sorted(abs(f.magnitude) for f in anomalies)
        verb = "fell" if anomalies[0].kind == "drop" else "rose"
        parts.append(
            f"{label[:1].upper() + label[1:]} {verb} {len(anomalies)} times between "
            f"{format_time(anomalies[0].start)} and {format_time(anomalies[-1].end)}, "
            f"{depth[0]:.0%} to {depth[-1]:.0%} away from its baseline"
            + (
                f" of {format_value(anomalies[0].baseline, primary.unit)}."
                if primary and anomalies[0].baseline
                else "."
            )
        )
    shifts = [f for f in inv.findings if f.kind == "level_shift" and f.signal == analysis.primary]
    if not anomalies and not shifts:
        parts.append(f"No sharp anomaly of {label} was found in the window.")
    parts += [f.summary + "." for f in shifts[:3]]
    parts += [
        f.summary + "." for f in inv.findings if f.kind == "trend" and f.signal == analysis.primary
    ]
    parts += [f.summary + "." for f in inv.findings if f.kind == "failure_rate"]
    parts += [
        f.summary + "."
        for f in inv.findings
        if f.kind == "outlier_host"
        and pack.signals.get(f.signal)
        and pack.signals[f.signal].explains
    ][:6]
    return f"{DRAFT_MARK} " + " ".join(parts)


def draft_detection(inv: Investigation) -> str:
    analysis = inv.analysis
    causes = [c for c in inv.correlations if c.cause]
    window, baseline = analysis.window, analysis.baseline
    text = (
        f"{DRAFT_MARK} The anomalies were found in the {analysis.primary} signal of the "
        f"incident window {format_time(window.start)} to {format_time(window.end)}, "
        f"against a baseline ending {format_time(baseline.end)}."
    )
    verdict = inv.verdict
    if verdict is not None and verdict.cause is not None:
        text += f" {verdict.summary}"
    elif causes:
        text += f" What coincided with them: {causes[0].explanation}"
    if inv.logs is not None and inv.logs.signatures.height:
        top = inv.logs.signatures.head(3).get_column("label").to_list()
        text += f" The hosts' logs show {', '.join(top)}."
    return text


def _facet_ids(inv: Investigation, taxonomy: Taxonomy) -> tuple[list[str], list[str]]:
    """Components and symptom tags the data points to, in the order it points to them."""
    components: list[str] = []
    symptoms: list[str] = []
    pack, analysis = inv.pack, inv.analysis
    primary = pack.signals.get(analysis.primary)
    if primary and primary.symptom and any(f.signal == analysis.primary for f in inv.findings):
        symptoms.append(primary.symptom)
    verdict = inv.verdict
    named = pack.signals.get(verdict.cause) if verdict is not None and verdict.cause else None
    if named is not None:
        components += [named.component] if named.component else []
        symptoms += [named.symptom] if named.symptom else []
    for c in inv.correlations:
        signal = pack.signals.get(c.signal)
        # Effects of the stall (GPUs cooling while they wait) point at nothing.
        if signal is not None and c.cause and signal.explains and c.score >= 0.5:
            components += [signal.component] if signal.component else []
            symptoms += [signal.symptom] if signal.symptom else []
    for f in inv.findings:
        signal = pack.signals.get(f.signal)
        if f.kind in {"outlier_host", "failure_rate", "trend"} and signal and signal.explains:
            components += [signal.component] if signal.component else []
            symptoms += [signal.symptom] if signal.symptom else []
    if inv.logs is not None:
        worst = inv.logs.signatures.filter(pl.col("severity").is_in(NOTABLE_SIGNATURE_SEVERITIES))
        components += worst.get_column("component").drop_nulls().to_list()
        symptoms += worst.get_column("symptom").drop_nulls().to_list()

    def known(facet: str, ids: list[str]) -> list[str]:
        out = [i for i in dict.fromkeys(ids) if i in taxonomy.ids(facet)]
        return out or ["unknown"]

    return known("component", components), known("symptom", symptoms)


def draft_timeline(inv: Investigation) -> list[TimelineEvent]:
    analysis = inv.analysis
    events = [TimelineEvent(at=analysis.window.start, text="The incident window opens.")]
    seen: set[tuple[str, str]] = set()
    for f in inv.findings:
        first_of_kind = (f.kind, f.signal) not in seen
        seen.add((f.kind, f.signal))
        if f.signal == analysis.primary or f.kind in {
            "failure_rate",
            "signature",
            "level_shift",
            *TRAINING_KINDS,
        }:
            events.append(TimelineEvent(at=f.start, text=f.summary))
        elif first_of_kind and f.kind in {"spike", "drop"}:
            events.append(TimelineEvent(at=f.start, text=f"First of its kind: {f.summary}"))
    events.sort(key=lambda e: (e.at, e.text))
    return events[:MAX_TIMELINE]


def _source(path: Path) -> str:
    """The incident folder, relative to the checkout when inside it (same record on any clone)."""
    root = resources_dir().parent
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path.resolve())


def evidence_from(inv: Investigation, charts: list[ChartFile] | None = None) -> Evidence:
    signatures = []
    if inv.logs is not None:
        for row in inv.logs.signatures.iter_rows(named=True):
            signatures.append(
                LogSignature(
                    id=row["key"],
                    count=row["count"],
                    hosts=row["hosts"],
                    first_seen=row["first_seen"],
                    last_seen=row["last_seen"],
                    component=row["component"],
                    symptom=row["symptom"],
                    explanation=row["explanation"] or "",
                )
            )
    return Evidence(
        window=inv.analysis.window,
        baseline=inv.analysis.baseline,
        source=inv.source or _source(inv.folder.path),
        verdict=inv.verdict,
        findings=inv.findings,
        correlations=inv.correlations,
        log_signatures=signatures,
        timeline=draft_timeline(inv),
        charts=charts or [],
    )


def draft_checks_of(inv: Investigation) -> list[dict[str, Any]]:
    """The checks the data suggests: from the first candidate cause of the diagnosis
    (correlations come causes first, in the verdict's order) and the signatures found."""
    from incidentbook.record.check_draft import (
        FoundSignature,
        cause_from_correlations,
        draft_checks,
    )

    cause = cause_from_correlations(
        inv.correlations, inv.findings, inv.pack.signals, inv.analysis.primary
    )
    found = []
    if inv.logs is not None:
        for row in inv.logs.signatures.iter_rows(named=True):
            found.append(
                FoundSignature(
                    signature=row["signature"],
                    severity=row["severity"] or "",
                    explanation=row["explanation"] or "",
                    xid=row["xid"],
                    label=row["label"] or "",
                )
            )
    checks = draft_checks(*(cause or (None, None, None, None)), found)
    return [c.model_dump(mode="json", exclude_none=True) for c in checks]


def drafts(inv: Investigation, taxonomy: Taxonomy) -> dict[str, Any]:
    """What the data alone would say for each narrative field it can draft."""
    spec = inv.spec
    components, symptom_tags = _facet_ids(inv, taxonomy)
    return {
        "title": spec.title,
        "occurred": {"date": f"{spec.window.start:%Y-%m-%d}", "window": spec.window},
        "scale": {
            "nodes": spec.cluster.nodes,
            "gpus_per_node": spec.cluster.gpus_per_node,
            "gpus": spec.cluster.nodes * spec.cluster.gpus_per_node,
            "gpu_model": spec.cluster.gpu_model,
        },
        "symptoms": draft_symptoms(inv),
        "detection": draft_detection(inv),
        "root_causes": ["unknown"],
        "components": components,
        "symptom_tags": symptom_tags,
        "checks": draft_checks_of(inv),
    }


def default_library() -> Path | None:
    """The checkout's data/library, when there is one."""
    folder = resources_dir().parent / "data" / "library"
    return folder if folder.is_dir() else None


def checks_fired(
    inv: Investigation, own: list, case_id: str, library: Path | None
) -> tuple[list[CheckHit], Any]:
    """The checks (this record's and the library's) that fire on the incident's own data,
    with how long before the symptom's first anomaly; and that onset."""
    from incidentbook.record.check_eval import evaluate_folder, lead, symptom_onset
    from incidentbook.record.checks import compile_check
    from incidentbook.sources.folder import FolderSource

    onset = symptom_onset(inv.findings, inv.analysis.primary)
    try:
        if not FolderSource(inv.folder).files():
            return [], onset
    except IncidentbookError:
        return [], onset
    rules = [compile_check(c, case_id, inv.pack) for c in own]
    if library is not None and library.is_dir():
        for record in load_records(library, inv.taxonomy):
            if record.id != case_id:
                rules += [compile_check(c, record.id, inv.pack) for c in record.checks]
    rules = [r for r in rules if r.signal is None or r.signal in inv.pack.signals]
    hits = []
    known = inv.metrics.frame if inv.source is None else None
    for firing in evaluate_folder(rules, inv.folder, inv.window, pack=inv.pack, known=known):
        if not firing.fired:
            continue
        ahead = lead(firing, onset)
        hits.append(
            CheckHit(
                case=firing.rule.case,
                check=firing.rule.id,
                condition=firing.rule.describe(),
                first_fired=firing.first_fired,
                lead_seconds=None if ahead is None else ahead.total_seconds(),
                hosts=firing.hosts,
                drafted=firing.rule.check.drafted,
            )
        )
    hits.sort(key=lambda h: (h.first_fired, h.case, h.check))
    return hits, onset


def draft_record(
    inv: Investigation,
    *,
    narrative: dict[str, Any] | None = None,
    previous: CaseRecord | None = None,
    charts: list[ChartFile] | None = None,
    taxonomy: Taxonomy | None = None,
    library: Path | None = None,
) -> CaseRecord:
    """The case record: evidence from the data, narrative from the person, drafts between."""
    taxonomy = taxonomy or inv.taxonomy or load_taxonomy()
    drafted = drafts(inv, taxonomy)
    fields: dict[str, Any] = dict(drafted)
    from_person: set[str] = set()
    if previous is not None:
        fresh = CaseRecord.model_validate(
            {"schema_version": SCHEMA_VERSION, "id": inv.spec.id, **drafted},
            context={"taxonomy": taxonomy},
        ).model_dump(mode="json")
        old = previous.model_dump(mode="json")
        for field in NARRATIVE_FIELDS:
            if field in old and (field not in previous.drafted or old[field] != fresh.get(field)):
                fields[field] = old[field]
                from_person.add(field)
    for field, value in (narrative or {}).items():
        fields[field] = value
        from_person.add(field)
    evidence = evidence_from(inv, charts)
    own = CaseRecord.model_validate(
        {"schema_version": SCHEMA_VERSION, "id": inv.spec.id, **fields},
        context={"taxonomy": taxonomy},
    ).checks
    evidence.checks_fired, evidence.symptom_onset = checks_fired(inv, own, inv.spec.id, library)
    if previous is not None and previous.evidence is not None:
        kept = [e for e in previous.evidence.timeline if e.source == "person"]
        evidence.timeline = sorted([*evidence.timeline, *kept], key=lambda e: (e.at, e.text))
    return CaseRecord.model_validate(
        {
            "schema_version": SCHEMA_VERSION,
            "id": inv.spec.id,
            **fields,
            "evidence": evidence.model_dump(mode="json"),
            "drafted": [f for f in drafted if f not in from_person],
        },
        context={"taxonomy": taxonomy},
    )


def draft(
    inv: Investigation, out: Path | str | None = None, *, taxonomy: Taxonomy | None = None
) -> CaseRecord:
    """The case record of an investigation: drafted from the data, with the narrative a
    person wrote in the incident folder's case.yaml and, when `out` holds an earlier
    case.json, the edits made in it (what the workbook and `incidentbook similar` use)."""
    previous = None
    previous_path = Path(out) / "case.json" if out is not None else None
    if previous_path is not None and previous_path.exists():
        try:
            previous = load_record(previous_path, taxonomy)
        except IncidentbookError as exc:
            raise IncidentbookError(
                f"{previous_path} exists but cannot be read, so a person's edits in it could "
                f"be lost; fix or move it first ({exc})"
            ) from None
    taxonomy = taxonomy or inv.taxonomy
    narrative = load_narrative(inv.folder.case_path)
    try:
        return draft_record(
            inv,
            narrative=narrative,
            previous=previous,
            taxonomy=taxonomy,
            library=default_library(),
        )
    except ValidationError as exc:
        raise narrative_invalid(exc, inv.folder.case_path, narrative) from None
