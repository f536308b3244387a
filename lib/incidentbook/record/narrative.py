"""A person's narrative of a case: case.yaml, its history, the form's autosave, citations.

The narrative is any subset of the record's narrative fields, written by a person (by
hand or through the workbook's form, notebook.form) in the incident folder's case.yaml;
the drafted record carries it over on every regeneration. This module is the form's logic
as plain functions, testable without widgets or a browser: `narrative_from_values`,
`validate_narrative`, `save_with_history`, `autosave`, `read_autosave`, `cite_line` /
`with_citation`, and `load_narrative`, which the drafting reads.

What is written, and when:

- Constructing the form writes nothing (papermill and nbval runs never need it).
- Save writes `case.yaml` only when the narrative, merged with the record, validates
  against the schema and the taxonomy; each problem is shown under its field and nothing
  is written otherwise. Only fields a person set or confirmed are written: a field still
  on `drafted` stays the data's, so the next regeneration can improve it. Fields of an
  existing `case.yaml` the form does not edit (organisation, references, ...) are kept.
- Before `case.yaml` is replaced, its previous text is kept as
  `.case-history/case.YYYYmmddTHHMMSS.yaml` (UTC time that version was last written,
  `-N` appended on a clash); the newest `keep_versions` are kept. The new text is written
  atomically (`store.atomic_write_text`): readers see the old file or the new one.
- Every change is autosaved to `.case-draft.yaml` in the incident folder, at most every
  `autosave_delay` seconds (a timer on the kernel's asyncio loop; immediately where no
  loop runs). A kernel restart loses at most those seconds. A form built while a draft
  newer than `case.yaml` exists offers to restore it; a draft that is neither restored
  nor still current is moved into `.case-history/` rather than overwritten or deleted.

Cited findings become lines of `detection`, not timeline events. `case.yaml` may hold
only narrative fields (`draft.load_narrative` drops `evidence`), and the schema is not to
change; timeline events a person adds survive only through an earlier `case.json`, which
the form does not own and the workbook rewrites. A line in `detection` is part of the
narrative: it is saved in `case.yaml`, carried by `draft_record`, shown in the report,
visible and editable in the text area as the person's own words, and the checkbox reads
it back (a finding is cited while its line is in `detection`).

The logic is in plain functions, testable without widgets or a browser:
`narrative_from_values`, `validate_narrative`, `save_with_history`, `autosave`,
`read_autosave`, `cite_line` / `with_citation`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from incidentbook.errors import Problem, RecordFormatError, problems_from
from incidentbook.record.model import FACET_FIELDS, NARRATIVE_FIELDS, CaseRecord, Finding
from incidentbook.record.store import atomic_write_text, check_location, record_error
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy
from incidentbook.yamlio import Raise, dump_yaml, read_yaml

DRAFT_MARK = "Draft from the data, to be confirmed:"
"""How a drafted text starts, until a person confirms or edits it."""

TEXT_FIELDS: tuple[str, ...] = ("title", "symptoms", "trigger", "detection", "lessons")
FIELD_FACETS: dict[str, str] = {field: facet for facet, field in FACET_FIELDS.items()}
"""The record's facet fields, each with its facet (record.model.FACET_FIELDS turned round)."""
FORM_FIELDS: tuple[str, ...] = (
    *TEXT_FIELDS,
    *FIELD_FACETS,
    "remediation",
    "action_items",
    "checks",
)
"""The narrative fields the form edits; the others are kept as case.yaml has them."""

AUTOSAVE_FILE = ".case-draft.yaml"
"""Where the form autosaves its state (a person's unsaved edits, not a drafted record)."""
HISTORY_DIR = ".case-history"
STATUSES = ("open", "done")

_HEADER = (
    "# The narrative of this incident's case record: any subset of the narrative fields.\n"
    "# Written by incidentbook's form; earlier versions are in .case-history/.\n"
    "# The workbook carries it over on every regeneration.\n"
)
_DRAFT_HEADER = (
    "# Unsaved state of incidentbook's form, autosaved. The form offers to restore it;\n"
    "# it is not case.yaml and the workbook never reads it.\n"
)
_VERSION = re.compile(r"^(?P<stem>case(?:-draft)?)\.(?P<stamp>\d{8}T\d{6})(?:-(?P<n>\d+))?\.yaml$")


# -- values to narrative -------------------------------------------------------------------


def strip_draft_mark(text: str) -> str:
    """Text without the data's leading 'Draft from the data, to be confirmed:'."""
    text = text or ""
    stripped = text.lstrip()
    return stripped[len(DRAFT_MARK) :].lstrip() if stripped.startswith(DRAFT_MARK) else text


def remediation_items(text: str | Iterable[str]) -> list[str]:
    """One remediation step a line; blank lines are dropped."""
    lines = text.splitlines() if isinstance(text, str) else list(text)
    return [line.strip() for line in lines if line.strip()]


def action_item_data(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Action items from the form's rows; wholly blank rows are dropped, blanks become absent."""
    items = []
    for row in rows:
        text = (row.get("text") or "").strip()
        owner = (row.get("owner") or "").strip()
        link = (row.get("link") or "").strip()
        status = row.get("status") or None
        if not (text or owner or link):
            continue
        item: dict[str, Any] = {"text": text}
        if owner:
            item["owner"] = owner
        if status:
            item["status"] = status
        if link:
            item["link"] = link
        items.append(item)
    return items


def _default(field_name: str) -> Any:
    info = CaseRecord.model_fields[field_name]
    return None if info.is_required() else info.get_default(call_default_factory=True)


def check_data(checks: Iterable[Any]) -> list[dict[str, Any]]:
    """The checks as case.yaml holds them: each as the record writes it (`for`, `assert`),
    `drafted: true` kept on those a person has not confirmed."""
    out = []
    for check in checks:
        data = check if isinstance(check, Mapping) else check.model_dump(mode="json")
        out.append({k: v for k, v in data.items() if v is not None})
    return out


def confirm_check(checks: Iterable[Any], check_id: str) -> list[dict[str, Any]]:
    """The checks with one confirmed: no longer drafted, the person's own."""
    return [{**c, "drafted": False} if c["id"] == check_id else c for c in check_data(checks)]


def remove_check(checks: Iterable[Any], check_id: str) -> list[dict[str, Any]]:
    """The checks without one (a drafted check the person does not want)."""
    return [c for c in check_data(checks) if c["id"] != check_id]


def _convert(field_name: str, value: Any) -> Any:
    if field_name in TEXT_FIELDS:
        return strip_draft_mark(value or "").strip()
    if field_name in FIELD_FACETS:
        return list(dict.fromkeys(value or []))
    if field_name == "remediation":
        return remediation_items(value or "")
    if field_name == "action_items":
        return action_item_data(value or [])
    if field_name == "checks":
        return check_data(value or [])
    raise KeyError(field_name)


def narrative_from_values(
    values: Mapping[str, Any],
    *,
    drafted: Iterable[str] = (),
    touched: Iterable[str] = (),
    existing: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The narrative mapping to write: what a person set or confirmed, over case.yaml's.

    `values` holds the widgets' values by field (text, facet id lists, remediation as
    one line per step, action items as row mappings). A field still in `drafted` is left
    out. Any other form field is written when a person touched it, when case.yaml already
    holds it, or when it differs from the schema's default (a person's words carried from
    an earlier case.json); an untouched empty `trigger` is not. Fields of `existing` the
    form does not edit are kept as they are. Returned in NARRATIVE_FIELDS order.
    """
    drafted, touched, existing = set(drafted), set(touched), dict(existing or {})
    out = {k: v for k, v in existing.items() if k in NARRATIVE_FIELDS}
    for name in FORM_FIELDS:
        if name not in values or name in drafted:
            continue
        value = _convert(name, values[name])
        if name in touched or name in existing or value != _default(name):
            out[name] = value
    return {k: out[k] for k in NARRATIVE_FIELDS if k in out}


def validate_narrative(
    record: CaseRecord,
    narrative: Mapping[str, Any],
    *,
    taxonomy: Taxonomy | None = None,
    drafted: Iterable[str] | None = None,
    file: str = "case.yaml",
) -> tuple[CaseRecord | None, list[Problem]]:
    """The record with the narrative laid over it, or the problems that stop it.

    `drafted` is what remains drafted (default: the record's, less the narrative's fields).
    """
    data = record.model_dump(mode="json")
    data.update(narrative)
    remaining = record.drafted if drafted is None else drafted
    data["drafted"] = [f for f in remaining if f not in narrative]
    try:
        merged = CaseRecord.model_validate(
            data, context={"taxonomy": taxonomy or load_taxonomy(), "case": record.id}
        )
    except ValidationError as exc:
        return None, problems_from(exc, file, names=check_location)
    return merged, []


def problem_field(problem: Problem) -> str:
    """The top-level field a problem is about ('action_items[1].text' -> 'action_items')."""
    match = re.match(r"[A-Za-z_]+", problem.field)
    return match.group(0) if match else problem.field


# -- writing case.yaml with history --------------------------------------------------------


def narrative_text(narrative: Mapping[str, Any]) -> str:
    """case.yaml's text: a short header, then the fields (multi-line text as blocks)."""
    return _HEADER + (dump_yaml(dict(narrative)) if narrative else "{}\n")


def history_dir(case_path: Path) -> Path:
    return Path(case_path).parent / HISTORY_DIR


def history_versions(case_path: Path, stem: str = "case") -> list[Path]:
    """Kept versions of case.yaml (or of set-aside drafts, stem 'case-draft'), oldest first."""
    folder = history_dir(case_path)
    found = []
    for path in folder.glob(f"{stem}.*.yaml") if folder.is_dir() else []:
        match = _VERSION.match(path.name)
        if match and match["stem"] == stem:
            found.append(((match["stamp"], int(match["n"] or 0)), path))
    return [path for _, path in sorted(found)]


def _keep(source: Path, case_path: Path, stem: str) -> Path:
    """Copy source's text into the history, named by the time it was last written."""
    when = datetime.fromtimestamp(source.stat().st_mtime, tz=UTC)
    stamp = f"{when:%Y%m%dT%H%M%S}"
    folder = history_dir(case_path)
    target, n = folder / f"{stem}.{stamp}.yaml", 0
    while target.exists():
        n += 1
        target = folder / f"{stem}.{stamp}-{n}.yaml"
    return atomic_write_text(target, source.read_text(encoding="utf-8"))


def _prune(case_path: Path, stem: str, keep: int) -> list[Path]:
    versions = history_versions(case_path, stem)
    old = versions[: max(len(versions) - keep, 0)]
    for path in old:
        path.unlink(missing_ok=True)
    return old


@dataclass
class Saved:
    """What save_with_history did."""

    path: Path
    kept: Path | None = None
    """The previous case.yaml's copy in the history, if there was a different one."""
    pruned: list[Path] = field(default_factory=list)
    unchanged: bool = False


def save_with_history(
    case_path: Path | str, narrative: Mapping[str, Any], *, keep_versions: int = 5
) -> Saved:
    """Write the narrative to case.yaml atomically, keeping the previous text first.

    The previous version is written to the history before case.yaml is replaced, so a
    crash in between leaves both. Saving the same text again writes nothing. Only the
    newest `keep_versions` versions are kept (0: no history).
    """
    case_path = Path(case_path)
    text = narrative_text(narrative)
    kept = None
    if case_path.exists():
        if case_path.read_text(encoding="utf-8") == text:
            return Saved(case_path, unchanged=True)
        if keep_versions > 0:
            kept = _keep(case_path, case_path, "case")
    atomic_write_text(case_path, text)
    pruned = _prune(case_path, "case", keep_versions) if keep_versions > 0 else []
    return Saved(case_path, kept, pruned)


# -- autosave ------------------------------------------------------------------------------


def autosave_path(case_path: Path | str) -> Path:
    return Path(case_path).parent / AUTOSAVE_FILE


def autosave(
    path: Path | str,
    values: Mapping[str, Any],
    *,
    drafted: Iterable[str] = (),
    touched: Iterable[str] = (),
    record_id: str | None = None,
) -> Path:
    """Write the form's state (values, what is still drafted, what was touched) atomically."""
    state = {
        "id": record_id,
        "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "drafted": sorted(set(drafted), key=_order),
        "touched": sorted(set(touched), key=_order),
        "values": {k: values[k] for k in FORM_FIELDS if k in values},
    }
    return atomic_write_text(path, _DRAFT_HEADER + dump_yaml(state))


def _autosave_error(path: Path) -> Raise:
    def make(kind: str, detail: str, line: int | None) -> Exception:
        where = f" (line {line})" if line else ""
        return RecordFormatError(path, f"the form's autosave is not readable{where}: {detail}")

    return make


def read_autosave(path: Path | str) -> dict[str, Any] | None:
    """The autosaved state, or None when there is none; RecordFormatError if unreadable."""
    path = Path(path)
    if not path.exists():
        return None
    data = read_yaml(path, _autosave_error(path))
    if not isinstance(data, dict) or not isinstance(data.get("values"), dict):
        raise RecordFormatError(path, "the form's autosave has no 'values' mapping")
    return data


def pending_autosave(case_path: Path | str) -> Path | None:
    """The autosave file when it is newer than case.yaml (or case.yaml does not exist)."""
    case_path = Path(case_path)
    draft = autosave_path(case_path)
    if not draft.exists():
        return None
    if case_path.exists() and case_path.stat().st_mtime_ns >= draft.stat().st_mtime_ns:
        return None
    return draft


def _order(name: str) -> int:
    return NARRATIVE_FIELDS.index(name) if name in NARRATIVE_FIELDS else len(NARRATIVE_FIELDS)


# -- citations -----------------------------------------------------------------------------


def cite_line(finding: Finding) -> str:
    """The line a cited finding adds to `detection`; the same finding gives the same line."""
    start = finding.start.astimezone(UTC)
    summary = finding.summary.strip().rstrip(".") or f"{finding.kind} of {finding.signal}"
    return (
        f"Evidence ({finding.kind.replace('_', ' ')} of {finding.signal}, "
        f"{start:%Y-%m-%d %H:%M:%S} UTC): {summary}."
    )


def with_citation(text: str, line: str, cited: bool) -> str:
    """`text` with `line` appended (once) or removed (every copy)."""
    lines = (text or "").splitlines()
    if cited:
        if line in (entry.strip() for entry in lines):
            return text
        body = (text or "").rstrip()
        return f"{body}\n{line}" if body else line
    return "\n".join(entry for entry in lines if entry.strip() != line).rstrip()


def cited(text: str, lines: Iterable[str]) -> set[str]:
    present = {entry.strip() for entry in (text or "").splitlines()}
    return {line for line in lines if line in present}


# -- reading case.yaml -----------------------------------------------------------------


def load_narrative(path: Path) -> dict[str, Any]:
    """A person's narrative: case.yaml (any subset of the narrative fields)."""
    if not path.exists():
        return {}
    data = read_yaml(
        path,
        record_error(path),
        mapping="case.yaml is a mapping of narrative fields",
        empty={},
        keep_dates=True,
    )
    unknown = sorted(
        set(data) - set(NARRATIVE_FIELDS) - {"id", "schema_version", "evidence", "drafted"}
    )
    if unknown:
        raise RecordFormatError(
            path,
            f"{', '.join(unknown)} are not narrative fields; "
            f"they are {', '.join(NARRATIVE_FIELDS)}",
        )
    return {k: v for k, v in data.items() if k in NARRATIVE_FIELDS}


__all__ = [
    "AUTOSAVE_FILE",
    "DRAFT_MARK",
    "FIELD_FACETS",
    "FORM_FIELDS",
    "HISTORY_DIR",
    "STATUSES",
    "TEXT_FIELDS",
    "Saved",
    "action_item_data",
    "autosave",
    "autosave_path",
    "cite_line",
    "cited",
    "history_dir",
    "history_versions",
    "load_narrative",
    "narrative_from_values",
    "narrative_text",
    "pending_autosave",
    "problem_field",
    "read_autosave",
    "remediation_items",
    "save_with_history",
    "strip_draft_mark",
    "validate_narrative",
    "with_citation",
]
