"""The narrative form: an engineer finishes the drafted case record in JupyterLab.

`record_form(record, case_path)` shows the narrative of a drafted record as widgets under
the workbook's charts: text areas, taxonomy pickers, remediation and action items, and the
findings to cite. Save writes the incident's `case.yaml`, the narrative `draft_record`
carries over on every regeneration, so the next run of the workbook tells the person's
story with the data's evidence.

What a save writes, and when, is in record.narrative, with the logic as plain functions.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from incidentbook.errors import IncidentbookError, Problem, RecordFormatError
from incidentbook.record.model import NARRATIVE_FIELDS, CaseRecord, Finding
from incidentbook.record.narrative import (
    AUTOSAVE_FILE,
    DRAFT_MARK,
    FIELD_FACETS,
    FORM_FIELDS,
    HISTORY_DIR,
    STATUSES,
    TEXT_FIELDS,
    Saved,
    _keep,
    _order,
    _prune,
    action_item_data,
    autosave,
    autosave_path,
    check_data,
    cite_line,
    cited,
    confirm_check,
    history_dir,
    history_versions,
    load_narrative,
    narrative_from_values,
    narrative_text,
    pending_autosave,
    problem_field,
    read_autosave,
    remediation_items,
    remove_check,
    save_with_history,
    strip_draft_mark,
    validate_narrative,
    with_citation,
)
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy

try:
    import ipywidgets as W
except ImportError:  # the pure functions below work without it
    W = None


# -- widgets -------------------------------------------------------------------------------

_TITLES = {
    "title": "Title",
    "symptoms": "Symptoms",
    "trigger": "Trigger",
    "detection": "Detection",
    "lessons": "Lessons",
    "root_causes": "Root causes",
    "components": "Components",
    "symptom_tags": "Symptom tags",
    "contributing_factors": "Contributing factors",
    "remediation": "Remediation",
    "action_items": "Action items",
    "checks": "Checks",
}
# What the form adds to a field's description in the record model (the schema's words),
# and the help of the two fields the schema leaves undescribed.
_HOW = {"detection": "; cited findings land here.", "remediation": ": one step a line."}
_UNDESCRIBED = {
    "title": "One line naming the incident.",
    "action_items": "What is still to be done, by whom.",
}


def help_text(name: str) -> str:
    """A field's help: the record model's description (without the note on facet ids,
    which the picker makes plain), and how the form takes it."""
    description = CaseRecord.model_fields[name].description
    if description is None:
        return _UNDESCRIBED[name]
    text = description.split(" Ids from the taxonomy's")[0]
    return text.removesuffix(".") + _HOW[name] if name in _HOW else text


# The order a person meets the fields in the form: the first one with a problem is the
# one Save scrolls to.
SCREEN_ORDER: tuple[str, ...] = tuple(
    f for f in NARRATIVE_FIELDS if f not in ("organisation", "occurred", "scale", "references")
)
_ACTION_PARTS = {"text": "text", "owner": "owner", "status": "status", "link": "ticket"}
_PLAIN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"^string should have at least 1 character", "{label} is empty"),
        (r"should have at least 1 item", "{label}: choose at least one value"),
        (
            r"^input should be a valid URL.*?(?:\(got '(?P<got>.*)'\))?$",
            "{label} must be a URL such as https://tracker.example/PROJ-1234; got '{got}'",
        ),
        (
            r"^string should have at most (?P<n>\d+) characters",
            "{label} is longer than {n} characters",
        ),
        (r"^input should be (?P<what>'[^)]*)", "{label} must be one of {what}"),
    )
)


def field_label(field: str) -> str:
    """A problem's field as the form names it: 'Title', 'Action item 2: ticket'."""
    match = re.match(r"action_items\[(\d+)\]\.?(\w*)", field)
    if match:
        part = _ACTION_PARTS.get(match[2], match[2])
        return f"Action item {int(match[1]) + 1}" + (f": {part}" if part else "")
    match = re.match(r"checks\[(\d+)\]\.?(\w*)", field)
    if match:
        return f"Check {int(match[1]) + 1}" + (f" ({match[2]})" if match[2] else "")
    name = re.match(r"[A-Za-z_]+", field)
    return _TITLES.get(name[0], field) if name else field


def plain_problem(problem: Problem) -> str:
    """A problem in a person's words, naming the field: "Title is empty", "Action item 1:
    ticket must be a URL such as https://...; got 'JIRA-1234'"; otherwise the field's name
    and the validator's sentence."""
    label = field_label(problem.field)
    for pattern, words in _PLAIN:
        match = pattern.search(problem.message)
        if match:
            found = {k: v or "" for k, v in match.groupdict().items()}
            text = words.format(label=label, **found)
            return text.removesuffix("; got ''")
    return f"{label}: {problem.message}"


_ROWS = {"symptoms": 5, "trigger": 3, "detection": 6, "lessons": 4}

_CSS = """<style>
.ib-form { max-width: 1080px; padding: 4px 8px 12px 0; }
.ib-form .ib-heading h3 { margin: 4px 0 2px 0; }
.ib-form .ib-heading p, .ib-form .ib-note { margin: 0 0 6px 0; color: #555; line-height: 1.4; }
.ib-form .ib-section h4 { margin: 14px 0 4px 0; padding-bottom: 2px;
  border-bottom: 1px solid #ddd; font-size: 14px; }
.ib-form .ib-field { margin-bottom: 8px; }
.ib-form .ib-label { line-height: 1.3; }
.ib-form .ib-label .ib-help { color: #666; font-weight: normal; margin-left: 6px; }
.ib-form .ib-badge { display: inline-block; background: #fff3cd; color: #6b5200;
  border: 1px solid #e6c65c; border-radius: 3px; padding: 0 6px; font-size: 11px;
  font-weight: 600; letter-spacing: 0.03em; line-height: 18px; }
.ib-form .ib-error .widget-html-content { color: #b00020; line-height: 1.35; }
.ib-form .ib-chosen .widget-html-content { line-height: 1.35; }
.ib-form .ib-chosen code, .ib-form .ib-finding code { font-size: 11px; color: #444;
  background: #f3f3f3; padding: 0 3px; border-radius: 2px; }
.ib-form .ib-finding .widget-html-content { line-height: 1.35; }
.ib-form .ib-findings { border: 1px solid #ddd; padding: 2px 6px; }
.ib-form .ib-saved .widget-html-content { color: #1b5e20; }
.ib-form .ib-restore { background: #fff8e1; border: 1px solid #e6c65c; padding: 4px 8px; }
.ib-form .ib-option { min-height: 22px; }
.ib-form .ib-option label { white-space: nowrap; }
</style>"""


def _require_widgets() -> None:
    if W is None:
        raise IncidentbookError(
            "the record form needs ipywidgets: pip install 'incidentbook[dev]' "
            "(or ipywidgets>=8), then restart the kernel"
        )


def _html(value: str = "", *classes: str, **layout) -> Any:
    widget = W.HTML(value, **({"layout": W.Layout(**layout)} if layout else {}))
    for name in classes:
        widget.add_class(name)
    return widget


def _show(widget: Any, visible: bool) -> None:
    widget.layout.display = None if visible else "none"


def _close(widget: Any) -> None:
    """Close a widget and those inside it, so replaced rows do not linger in the kernel."""
    for child in getattr(widget, "children", ()):
        _close(child)
    widget.close()


UNKNOWN = "unknown"
"""The value every facet has for 'not known'; it never stands beside a known value."""


def toggle_choice(chosen: Iterable[str], value_id: str, on: bool) -> tuple[list[str], list[str]]:
    """What one click on a picker's value does: the ids chosen after it, and those it
    dropped. A click adds or removes that one value and keeps every other choice; choosing
    a real value drops `unknown`, and choosing `unknown` drops the real values (which the
    picker then names, so the person sees what went)."""
    chosen = list(dict.fromkeys(chosen))
    if not on:
        return [v for v in chosen if v != value_id], []
    if value_id in chosen:
        return chosen, []
    if value_id == UNKNOWN:
        return [UNKNOWN], [v for v in chosen if v != UNKNOWN]
    dropped = [UNKNOWN] if UNKNOWN in chosen else []
    return [v for v in chosen if v != UNKNOWN] + [value_id], dropped


def visible_choices(
    taxonomy: Taxonomy, facet: str, text: str, chosen: Iterable[str] = ()
) -> list[str]:
    """The ids a picker lists under a filter: the values whose label, id or description
    holds the text, their parents, and every chosen value (a choice is never hidden, so
    none stays selected out of sight); ids the taxonomy does not know first."""
    tree = taxonomy.tree(facet)
    known = {v.id for v, _ in tree}
    chosen = list(dict.fromkeys(chosen))
    strange = [v for v in chosen if v not in known]
    text = text.strip().lower()
    if not text:
        return strange + [v.id for v, _ in tree]
    hits = {
        v.id
        for v, _ in tree
        if text in v.label.lower() or text in v.id or text in v.description.lower()
    }
    shown = hits | set(chosen)
    for hit in hits:
        shown.update(taxonomy.ancestors(facet, hit))
    return strange + [v.id for v, _ in tree if v.id in shown]


class FacetPicker:
    """Several values of one facet: a filter, a list of check boxes over the tree, and the
    chosen ones.

    A click on a box adds or removes that value alone (toggle_choice); the list shows each
    value's label indented by its depth; the filter keeps values whose label, id or
    description contains the text, with their parents, and always the chosen ones. Above
    the list, how many are chosen; below, each chosen value with its path, id and
    description, and a button to remove it. An id the taxonomy does not know is kept and
    flagged, so that validation names it instead of the form dropping it silently.
    """

    def __init__(self, facet: str, taxonomy: Taxonomy, value: Iterable[str] = ()):
        self.facet, self.taxonomy = facet, taxonomy
        self._tree = taxonomy.tree(facet)
        self._known = {v.id: (v, depth) for v, depth in self._tree}
        self._value: list[str] = list(dict.fromkeys(value))
        self._callbacks: list[Callable[[], None]] = []
        self._updating = False
        self.filter = W.Text(
            placeholder="filter: part of a name, id or description",
            continuous_update=True,
            layout=W.Layout(width="auto"),
        )
        self.boxes: dict[str, Any] = {}
        self.options = W.VBox(
            layout=W.Layout(
                max_height="190px", overflow="auto", border="1px solid #ddd", padding="2px 4px"
            )
        )
        self.options.add_class("ib-options")
        self.count = _html("", "ib-note", "ib-count")
        self.hint = _html("", "ib-note", "ib-hint")
        self.chosen = W.VBox(layout=W.Layout(margin="4px 0 0 0"))
        self.widget = W.VBox([self.filter, self.count, self.options, self.hint, self.chosen])
        self.widget.add_class(f"ib-picker-{facet}")
        self._refresh_options()
        self._refresh_chosen()
        self.filter.observe(lambda _: self._refresh_options(), names="value")

    @property
    def value(self) -> list[str]:
        return list(self._value)

    @value.setter
    def value(self, ids: Iterable[str]) -> None:
        self._value = list(dict.fromkeys(ids))
        self.hint.value = ""
        self._refresh_options()
        self._refresh_chosen()
        self._notify()

    def on_change(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def _notify(self) -> None:
        for callback in self._callbacks:
            callback()

    def _label(self, value_id: str) -> str:
        if value_id not in self._known:
            return f"⚠ {value_id} (not in the taxonomy)"
        return self._known[value_id][0].label

    def visible(self) -> list[str]:
        """The ids the list shows now."""
        return visible_choices(self.taxonomy, self.facet, self.filter.value, self._value)

    def _box(self, value_id: str) -> Any:
        box = self.boxes.get(value_id)
        if box is None:
            depth = self._known[value_id][1] if value_id in self._known else 0
            box = W.Checkbox(
                value=False,
                description=self._label(value_id),
                indent=False,
                tooltip=value_id,
                layout=W.Layout(width="auto", margin=f"0 0 0 {18 * depth}px", height="22px"),
            )
            box.add_class("ib-option")
            box.observe(lambda c, v=value_id: self._clicked(v, c["new"]), names="value")
            self.boxes[value_id] = box
        return box

    def _refresh_options(self) -> None:
        visible = self.visible()
        self._updating = True
        try:
            shown = [self._box(i) for i in visible]
            for value_id, box in self.boxes.items():
                box.value = value_id in self._value
            self.options.children = shown
        finally:
            self._updating = False
        n = len(self._value)
        hidden = len(self._tree) - sum(v in self._known for v in visible)
        self.count.value = (
            f"<span class='ib-note'>{n} chosen"
            + (f"; {hidden} values hidden by the filter" if hidden else "")
            + "</span>"
        )

    def click(self, value_id: str) -> None:
        """A person's click on a value's box (what the front end does)."""
        box = self._box(value_id)
        box.value = not box.value

    def _clicked(self, value_id: str, on: bool) -> None:
        if self._updating:
            return
        self._value, dropped = toggle_choice(self._value, value_id, on)
        self.hint.value = (
            f"<span class='ib-note'>{html.escape(self._label(value_id))} replaces "
            + ", ".join(html.escape(self._label(v)) for v in dropped)
            + "</span>"
            if dropped
            else ""
        )
        self._refresh_options()
        self._refresh_chosen()
        self._notify()

    def _remove(self, value_id: str) -> None:
        self.value = [v for v in self._value if v != value_id]

    def _refresh_chosen(self) -> None:
        rows = []
        for value_id in self._value:
            if value_id in self._known:
                value, _ = self._known[value_id]
                path = [
                    self.taxonomy.value(self.facet, a).label
                    for a in reversed(self.taxonomy.ancestors(self.facet, value_id))
                ]
                trail = "".join(f"{html.escape(p)} › " for p in path)
                text = (
                    f"{trail}<b>{html.escape(value.label)}</b> <code>{value_id}</code><br>"
                    f"<span style='color:#555'>{html.escape(value.description)}</span>"
                )
            else:
                text = (
                    f"<b style='color:#b00020'>{html.escape(value_id)}</b>: not a value of "
                    f"this facet; pick a known one and remove this"
                )
            remove = W.Button(
                icon="times",
                tooltip=f"remove {value_id}",
                layout=W.Layout(width="28px", height="24px", padding="0"),
            )
            remove.on_click(lambda _, v=value_id: self._remove(v))
            label = _html(text, "ib-chosen", flex="1 1 auto", width="auto")
            rows.append(W.HBox([remove, label], layout=W.Layout(align_items="flex-start")))
        if not rows:
            rows = [_html("<i style='color:#777'>none chosen</i>", "ib-chosen")]
        old, self.chosen.children = self.chosen.children, rows
        for widget in old:
            _close(widget)


class ActionItemsEditor:
    """Rows of text, owner, status and link, each with a remove button; an add button."""

    def __init__(self, items: Iterable[Mapping[str, Any]] = ()):
        self.rows: list[dict[str, Any]] = []
        self._callbacks: list[Callable[[], None]] = []
        self.box = W.VBox()
        self.add_button = W.Button(description="Add action item", icon="plus")
        self.add_button.add_class("ib-add-action")
        self.add_button.on_click(lambda _: self.add())
        self.widget = W.VBox([self.box, self.add_button])
        for item in items:
            self.add(item, notify=False)

    def on_change(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def _notify(self) -> None:
        for callback in self._callbacks:
            callback()

    def add(self, item: Mapping[str, Any] | None = None, *, notify: bool = True) -> dict:
        item = dict(item or {"status": "open"})
        row = {
            "text": W.Text(
                value=item.get("text") or "",
                placeholder="what is to be done",
                layout=W.Layout(flex="3 1 0%", width="auto"),
            ),
            "owner": W.Text(
                value=item.get("owner") or "",
                placeholder="owner",
                layout=W.Layout(flex="1 1 0%", width="auto"),
            ),
            "status": W.Dropdown(
                options=[("open", "open"), ("done", "done"), ("status unknown", "")],
                value=item.get("status") or "",
                layout=W.Layout(width="130px"),
            ),
            "link": W.Text(
                value=str(item.get("link") or ""),
                placeholder="ticket URL (optional)",
                layout=W.Layout(flex="1.5 1 0%", width="auto"),
            ),
            "remove": W.Button(
                icon="times", tooltip="remove this action item", layout=W.Layout(width="32px")
            ),
            "error": _html("", "ib-error", display="none"),
        }
        for key in ("text", "owner", "status", "link"):
            row[key].observe(lambda _: self._notify(), names="value")
        row["remove"].on_click(lambda _, r=row: self.remove(r))
        fields = W.HBox(
            [row["text"], row["owner"], row["status"], row["link"], row["remove"]],
            layout=W.Layout(width="auto"),
        )
        row["widget"] = W.VBox([fields, row["error"]])
        row["widget"].add_class("ib-action-row")
        self.rows.append(row)
        self.box.children = [r["widget"] for r in self.rows]
        if notify:
            self._notify()
        return row

    def remove(self, row: dict) -> None:
        self.rows = [r for r in self.rows if r is not row]
        self.box.children = [r["widget"] for r in self.rows]
        _close(row["widget"])
        self._notify()

    @property
    def value(self) -> list[dict[str, Any]]:
        return [{k: row[k].value for k in ("text", "owner", "status", "link")} for row in self.rows]

    @value.setter
    def value(self, items: Iterable[Mapping[str, Any]]) -> None:
        for row in self.rows:
            _close(row["widget"])
        self.rows = []
        for item in items:
            self.add(item, notify=False)
        self.box.children = [r["widget"] for r in self.rows]
        self._notify()

    def kept_rows(self) -> list[dict]:
        """Rows that become action items (action_item_data drops wholly blank ones)."""
        return [
            row for row, data in zip(self.rows, self.value, strict=True) if action_item_data([data])
        ]


class ChecksEditor:
    """The record's checks, one row each: what it tests, a DRAFT badge with a confirm
    button while it is the data's, and a remove button."""

    def __init__(self, checks: Iterable[Any] = ()):
        self.items: list[dict[str, Any]] = check_data(checks)
        self._callbacks: list[Callable[[], None]] = []
        self.rows: dict[str, dict[str, Any]] = {}
        self.widget = W.VBox()
        self._render()

    def on_change(self, callback: Callable[[], None]) -> None:
        self._callbacks.append(callback)

    def _notify(self) -> None:
        for callback in self._callbacks:
            callback()

    @staticmethod
    def describe(item: Mapping[str, Any]) -> str:
        from pydantic import TypeAdapter

        from incidentbook.record.checks import Check, compile_check

        try:
            return compile_check(TypeAdapter(Check).validate_python(item), "").describe()
        except Exception:  # an invalid check is shown as written; Save reports why
            return item.get("expr") or item.get("signature") or item.get("assert") or ""

    def _render(self) -> None:
        old = list(self.widget.children)
        self.rows = {}
        children = []
        for item in self.items:
            text = (
                f"<code>{html.escape(item['id'])}</code> "
                f"<code>{html.escape(item.get('kind', ''))}</code> "
                f"<b>{html.escape(self.describe(item))}</b> "
                f"({html.escape(item.get('severity', 'warning'))}): "
                f"{html.escape(item.get('message', ''))}"
            )
            label = _html(text, "ib-check", flex="1 1 auto", width="auto")
            badge = _html("<span class='ib-badge' title='drafted from the data'>DRAFT</span>")
            confirm = W.Button(
                description="confirm",
                tooltip="keep this drafted check as yours",
                layout=W.Layout(width="auto", height="22px"),
            )
            confirm.add_class("ib-confirm-check")
            confirm.on_click(lambda _, i=item["id"]: self.confirm(i))
            remove = W.Button(
                icon="times", tooltip="remove this check", layout=W.Layout(width="32px")
            )
            remove.add_class("ib-remove-check")
            remove.on_click(lambda _, i=item["id"]: self.remove(i))
            drafted = bool(item.get("drafted"))
            _show(badge, drafted)
            _show(confirm, drafted)
            row = W.HBox([badge, confirm, label, remove], layout=W.Layout(align_items="center"))
            row.add_class("ib-check-row")
            self.rows[item["id"]] = {"badge": badge, "confirm": confirm, "remove": remove}
            children.append(row)
        if not children:
            children = [_html("<p class='ib-note'>No checks.</p>", "ib-note")]
        self.widget.children = children
        for widget in old:
            _close(widget)

    def confirm(self, check_id: str) -> None:
        self.items = confirm_check(self.items, check_id)
        self._render()
        self._notify()

    def remove(self, check_id: str) -> None:
        self.items = remove_check(self.items, check_id)
        self._render()
        self._notify()

    @property
    def value(self) -> list[dict[str, Any]]:
        return [dict(c) for c in self.items]

    @value.setter
    def value(self, checks: Iterable[Any]) -> None:
        self.items = check_data(checks)
        self._render()


FORM_PLACEHOLDER = (
    "[The case-record form: run the workbook in JupyterLab to fill in and save the "
    "narrative here. It is live only while the kernel runs.]"
)


def readable_time(stamp: Any) -> str:
    """An ISO time (an autosave's saved_at) as a person reads it: local date, time and
    zone ('2025-03-14 09:15:56 UTC'); text that is not a time as it is."""
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return f"{when.astimezone():%Y-%m-%d %H:%M:%S %Z}"


BATCH_ENV = "INCIDENTBOOK_BATCH"
"""Set (to 1) in the environment of the kernels `incidentbook run` and `regen` start: no
person is at such a kernel, and it ends with the run."""


class FormPlaceholder:
    """What a batch run shows for the form: the sentence a reader of the saved notebook
    sees. Its widgets would be dead in the saved notebook (their state is not kept), so a
    batch builds none (a few hundred widgets, and as many messages to the runner)."""

    def _repr_mimebundle_(self, **kwargs):
        return {"text/plain": FORM_PLACEHOLDER}


class RecordForm:
    """The form over one drafted record; display it, or its `.widget`, in a notebook."""

    def __init__(
        self,
        record: CaseRecord,
        case_path: Path | str,
        *,
        findings: Iterable[Finding] | None = None,
        taxonomy: Taxonomy | None = None,
        keep_versions: int = 5,
        autosave_delay: float = 2.0,
    ):
        _require_widgets()
        self.record = record
        self.case_path = Path(case_path)
        self.autosave_path = autosave_path(self.case_path)
        self.taxonomy = taxonomy or load_taxonomy()
        self.keep_versions = keep_versions
        self.autosave_delay = autosave_delay
        self.drafted: set[str] = set(record.drafted)
        self.touched: set[str] = set()
        self.findings = list(
            findings
            if findings is not None
            else (record.evidence.findings if record.evidence else [])
        )
        self.problems: list[Problem] = []
        self.focused: Any = None  # what a failed save focused: the first field to fix
        self.last_saved: Saved | None = None
        self._quiet = False
        self._pending: asyncio.TimerHandle | None = None
        self._stale_draft: Path | None = None
        self._offered: dict[str, Any] | None = None
        self._build()
        self._offer_restore()

    # -- building --------------------------------------------------------------------------

    def _build(self) -> None:
        r = self.record
        self.texts: dict[str, Any] = {}
        for name in TEXT_FIELDS:
            value = getattr(r, name) or ""
            if name in self.drafted:
                value = strip_draft_mark(value)
            if name == "title":
                control = W.Text(value=value, layout=W.Layout(width="auto"))
            else:
                control = W.Textarea(value=value, rows=_ROWS[name], layout=W.Layout(width="auto"))
            control.continuous_update = True
            control.observe(lambda _, n=name: self._changed(n), names="value")
            self.texts[name] = control
        self.pickers = {
            name: FacetPicker(facet, self.taxonomy, getattr(r, name))
            for name, facet in FIELD_FACETS.items()
        }
        for name, picker in self.pickers.items():
            picker.on_change(lambda n=name: self._changed(n))
        self.remediation = W.Textarea(
            value="\n".join(r.remediation),
            rows=4,
            placeholder="one step a line, in order",
            layout=W.Layout(width="auto"),
        )
        self.remediation.observe(lambda _: self._changed("remediation"), names="value")
        self.actions = ActionItemsEditor(
            item.model_dump(mode="json", exclude_none=True) for item in r.action_items
        )
        self.actions.on_change(lambda: self._changed("action_items"))
        self.checks = ChecksEditor(r.checks)
        self.checks.on_change(lambda: self._changed("checks"))

        self.errors = {name: _html("", "ib-error", display="none") for name in FORM_FIELDS}
        self.markers: dict[str, Any] = {}
        self.confirm_buttons: dict[str, Any] = {}
        self.fields: dict[str, Any] = {}
        controls = {
            **self.texts,
            **{n: p.widget for n, p in self.pickers.items()},
            "remediation": self.remediation,
            "action_items": self.actions.widget,
            "checks": self.checks.widget,
        }
        for name, control in controls.items():
            self.fields[name] = self._field(name, control)

        self.citations: list[tuple[Finding, str, Any]] = []
        detection = self.texts["detection"].value
        same_day = len({f.start.astimezone(UTC).date() for f in self.findings}) <= 1
        rows = []
        for finding in self.findings:
            line = cite_line(finding)
            box = W.Checkbox(
                value=line in cited(detection, [line]),
                indent=False,
                tooltip="cite as evidence: adds a line to Detection",
                layout=W.Layout(width="24px", flex="0 0 24px"),
            )
            box.observe(lambda c, ln=line: self._cite(ln, c["new"]), names="value")
            start = finding.start.astimezone(UTC)
            when = f"{start:%H:%M:%S}" if same_day else f"{start:%Y-%m-%d %H:%M}"
            text = (
                f"<code>{when}</code> <code>{html.escape(finding.kind)}</code> "
                f"<b>{html.escape(finding.signal)}</b>: {html.escape(finding.summary)}"
            )
            label = _html(text, "ib-finding", flex="1 1 auto", width="auto")
            # rows must not shrink: the scrolling column would squeeze them to nothing
            row = W.HBox([box, label], layout=W.Layout(align_items="flex-start", flex="0 0 auto"))
            rows.append(row)
            self.citations.append((finding, line, box))
        self.texts["detection"].observe(lambda _: self._sync_citations(), names="value")
        if rows:
            day = f" ({self.findings[0].start.astimezone(UTC):%Y-%m-%d}, UTC)" if same_day else ""
            findings_box = W.VBox(
                [
                    _html(
                        f"<p class='ib-note'>Tick a finding to cite it: its line is added to "
                        f"Detection, and saved with it. {len(rows)} findings{day}.</p>",
                        "ib-note",
                    ),
                    W.VBox(rows, layout=W.Layout(max_height="260px", overflow="auto")),
                ]
            )
            findings_box.add_class("ib-findings")
        else:
            findings_box = _html("<p class='ib-note'>No findings to cite.</p>", "ib-note")

        self.save_button = W.Button(
            description="Save to case.yaml",
            icon="save",
            button_style="primary",
            layout=W.Layout(width="auto", flex="0 0 auto"),
        )
        self.save_button.add_class("ib-save")
        self.save_button.on_click(lambda _: self._guarded(self.save))
        self.status = _html("", "ib-status", margin="0 0 0 12px", flex="1 1 auto")
        self.general_errors = _html("", "ib-error", display="none")

        self.restore_button = W.Button(
            description="Restore unsaved draft",
            icon="undo",
            button_style="warning",
            layout=W.Layout(width="auto"),
        )
        self.restore_button.add_class("ib-restore-button")
        self.restore_button.on_click(lambda _: self._guarded(self.restore_draft))
        self.discard_button = W.Button(
            description="Keep the form as it is", layout=W.Layout(width="auto")
        )
        self.discard_button.on_click(lambda _: self._guarded(self.dismiss_draft))
        self.restore_note = _html("")
        self.restore_box = W.VBox(
            [self.restore_note, W.HBox([self.restore_button, self.discard_button])],
            layout=W.Layout(display="none"),
        )
        self.restore_box.add_class("ib-restore")

        not_here = [f for f in sorted(self.drafted, key=_order) if f not in FORM_FIELDS]
        heading = (
            f"<div class='ib-heading'><h3>Finish the case record: "
            f"<code>{html.escape(r.id)}</code></h3>"
            f"<p>Saved to <code>{html.escape(str(self.case_path))}</code>, which the workbook "
            f"carries over on every run. Fields marked <span class='ib-badge'>DRAFT</span> "
            f"are the data's words: edit them, or confirm them as they are; drafts are not "
            f"saved. Changes are autosaved to <code>{AUTOSAVE_FILE}</code> until you save.</p>"
            + (
                f"<p class='ib-note'>Also drafted, edited in case.yaml only: "
                f"{', '.join(not_here)}.</p>"
                if not_here
                else ""
            )
            + "</div>"
        )

        def section(title: str, *children: Any) -> Any:
            box = W.VBox([_html(f"<h4>{html.escape(title)}</h4>"), *children])
            box.add_class("ib-section")
            return box

        pickers = W.GridBox(
            [self.fields[n] for n in FIELD_FACETS],
            layout=W.Layout(grid_template_columns="repeat(2, minmax(0, 1fr))", grid_gap="6px 24px"),
        )
        self.widget = W.VBox(
            [
                _html(_CSS),
                self.restore_box,
                _html(heading),
                section("What happened", self.fields["title"], self.fields["symptoms"]),
                section("Why", self.fields["trigger"], pickers),
                section("How it was found", self.fields["detection"], findings_box),
                section(
                    "What was done",
                    self.fields["remediation"],
                    self.fields["action_items"],
                    self.fields["lessons"],
                ),
                section("Check your cluster for this", self.fields["checks"]),
                W.HBox([self.save_button, self.status], layout=W.Layout(margin="12px 0 0 0")),
                self.general_errors,
            ]
        )
        self.widget.add_class("ib-form")

    def _field(self, name: str, control: Any) -> Any:
        label = _html(
            f"<span class='ib-label'><b>{_TITLES[name]}</b>"
            f"<span class='ib-help'>{html.escape(help_text(name))}</span></span>"
        )
        badge = _html("<span class='ib-badge' title='drafted from the data'>DRAFT</span>")
        badge.add_class("ib-draft-marker")
        confirm = W.Button(
            description="confirm as is",
            tooltip="keep the data's draft as your own words",
            layout=W.Layout(width="auto", height="22px"),
        )
        confirm.add_class("ib-confirm")
        confirm.on_click(lambda _: self.confirm(name))
        marker = W.HBox([badge, confirm], layout=W.Layout(align_items="center"))
        _show(marker, name in self.drafted)
        self.markers[name] = marker
        self.confirm_buttons[name] = confirm
        head = W.HBox(
            [label, marker],
            layout=W.Layout(align_items="center", flex_flow="row wrap", grid_gap="0 8px"),
        )
        box = W.VBox([head, control, self.errors[name]])
        box.add_class("ib-field")
        box.add_class(f"ib-field-{name}")
        return box

    # -- state -----------------------------------------------------------------------------

    def values(self) -> dict[str, Any]:
        """What the widgets hold, by field (see narrative_from_values)."""
        out: dict[str, Any] = {name: self.texts[name].value for name in TEXT_FIELDS}
        out.update({name: picker.value for name, picker in self.pickers.items()})
        out["remediation"] = self.remediation.value
        out["action_items"] = self.actions.value
        out["checks"] = self.checks.value
        return {name: out[name] for name in FORM_FIELDS}

    def set_values(self, values: Mapping[str, Any]) -> None:
        """Put values in the widgets without counting it as a person's edit."""
        with self._quietly():
            for name, value in values.items():
                if name in self.texts:
                    self.texts[name].value = value or ""
                elif name in self.pickers:
                    self.pickers[name].value = value or []
                elif name == "remediation":
                    self.remediation.value = (
                        value if isinstance(value, str) else "\n".join(value or [])
                    )
                elif name == "action_items":
                    self.actions.value = value or []
                elif name == "checks":
                    self.checks.value = value or []
            self._sync_citations()

    def narrative(self, existing: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return narrative_from_values(
            self.values(), drafted=self.drafted, touched=self.touched, existing=existing
        )

    @contextmanager
    def _quietly(self):
        quiet, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = quiet

    def _set_drafted(self, drafted: Iterable[str]) -> None:
        self.drafted = set(drafted)
        for name, marker in self.markers.items():
            _show(marker, name in self.drafted)

    def _changed(self, name: str) -> None:
        if self._quiet:
            return
        self.touched.add(name)
        if name in self.errors:  # the problem shown was about the old value
            _show(self.errors[name], False)
        if name in self.drafted:
            self._set_drafted(self.drafted - {name})
        self.status.remove_class("ib-saved")
        self.status.value = "<span style='color:#666'>unsaved changes</span>"
        self._schedule_autosave()

    def confirm(self, name: str) -> None:
        """Take a drafted field as the person's own, unchanged (the button next to DRAFT);
        for the checks, every one of them."""
        if name == "checks":
            with self._quietly():
                self.checks.value = [{**c, "drafted": False} for c in self.checks.value]
        self._changed(name)

    def _cite(self, line: str, on: bool) -> None:
        if self._quiet:
            return
        detection = self.texts["detection"]
        detection.value = with_citation(detection.value, line, on)

    def _sync_citations(self) -> None:
        present = cited(self.texts["detection"].value, [ln for _, ln, _ in self.citations])
        with self._quietly():
            for _, line, box in self.citations:
                box.value = line in present

    def _guarded(self, action: Callable[[], Any]) -> None:
        """Run a button's action; an error is shown in the status line, not lost in a log."""
        try:
            action()
        except Exception as exc:
            self.status.value = (
                f"<span style='color:#b00020'>failed: {html.escape(str(exc))}</span>"
            )

    # -- autosave --------------------------------------------------------------------------

    def _schedule_autosave(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self.autosave_delay <= 0:
            self.autosave_now()
        elif self._pending is None:
            self._pending = loop.call_later(self.autosave_delay, self._autosave_due)

    def _autosave_due(self) -> None:
        self._pending = None
        self._guarded(self.autosave_now)

    def autosave_now(self) -> Path:
        """Write the form's state to .case-draft.yaml now."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self._set_aside_stale_draft()
        return autosave(
            self.autosave_path,
            self.values(),
            drafted=self.drafted,
            touched=self.touched,
            record_id=self.record.id,
        )

    def _set_aside_stale_draft(self) -> Path | None:
        """An earlier session's draft, neither restored nor dismissed, goes to the history."""
        stale, self._stale_draft = self._stale_draft, None
        _show(self.restore_box, False)
        if stale is None or not stale.exists():
            return None
        kept = _keep(stale, self.case_path, "case-draft")
        stale.unlink(missing_ok=True)
        _prune(self.case_path, "case-draft", max(self.keep_versions, 1))
        return kept

    def _offer_restore(self) -> None:
        """Offer a draft newer than case.yaml; mark any earlier draft to be set aside.

        A draft that differs from what the form shows is an earlier session's unsaved work:
        offered when newer than case.yaml, and in any case moved to the history by the
        first autosave or save of this session rather than overwritten.
        """
        if not self.autosave_path.exists():
            return
        try:
            state = read_autosave(self.autosave_path)
        except RecordFormatError as exc:
            self._stale_draft = self.autosave_path
            self.general_errors.value = f"<div>⚠ {html.escape(str(exc))}</div>"
            _show(self.general_errors, True)
            return
        if state is None or state.get("values") == self.values():
            return  # nothing in it the form does not already hold
        self._stale_draft = self.autosave_path
        if pending_autosave(self.case_path) is None:
            return
        self._offered = state
        when = readable_time(state.get("saved_at")) or "an earlier session"
        self.restore_note.value = (
            f"<b>Unsaved changes from {html.escape(str(when))}</b> are in "
            f"<code>{AUTOSAVE_FILE}</code>, newer than case.yaml. Restore them into the form? "
            f"If not, they are moved to <code>{HISTORY_DIR}/</code> on your next edit."
        )
        _show(self.restore_box, True)

    def restore_draft(self) -> None:
        """Put the autosaved state back in the widgets (the 'restore unsaved draft' button)."""
        state = self._offered or read_autosave(self.autosave_path)
        if state is None:
            return
        self.set_values(state["values"])
        self._set_drafted(n for n in state.get("drafted", []) if n in NARRATIVE_FIELDS)
        self.touched = {n for n in state.get("touched", []) if n in FORM_FIELDS}
        self._stale_draft, self._offered = None, None
        _show(self.restore_box, False)
        self.status.value = (
            f"<span style='color:#666'>restored the unsaved draft of "
            f"{html.escape(readable_time(state.get('saved_at')))}; not saved yet</span>"
        )

    def dismiss_draft(self) -> None:
        kept = self._set_aside_stale_draft()
        self._offered = None
        if kept is not None:
            self.status.value = (
                f"<span style='color:#666'>the unsaved draft was moved to "
                f"{html.escape(str(kept.relative_to(self.case_path.parent)))}</span>"
            )

    # -- saving ----------------------------------------------------------------------------

    def _show_problems(self, problems: list[Problem]) -> None:
        """Each problem in plain words under its field (or its action item's row)."""
        by_field: dict[str, list[str]] = {}
        rows = self.actions.kept_rows()
        for row in self.actions.rows:
            row["error"].value = ""
            _show(row["error"], False)
        for problem in problems:
            name = problem_field(problem)
            words = plain_problem(problem)
            match = re.match(r"action_items\[(\d+)\]\.?(.*)", problem.field)
            if match and int(match[1]) < len(rows):
                row = rows[int(match[1])]
                row["error"].value += f"<div>⚠ {html.escape(words)}</div>"
                _show(row["error"], True)
                continue
            by_field.setdefault(name if name in self.errors else "", []).append(words)
        for name, widget in self.errors.items():
            messages = by_field.get(name, [])
            widget.value = "".join(f"<div>⚠ {html.escape(m)}</div>" for m in messages)
            _show(widget, bool(messages))
        general = by_field.get("", [])
        self.general_errors.value = "".join(
            f"<div>⚠ {html.escape(m)} (in {html.escape(self.case_path.name)})</div>"
            for m in general
        )
        _show(self.general_errors, bool(general))

    def _control(self, problem: Problem) -> Any:
        """The widget a person types in to fix a problem (focused by a failed save)."""
        name = problem_field(problem)
        match = re.match(r"action_items\[(\d+)\]\.?(\w*)", problem.field)
        rows = self.actions.kept_rows()
        if match and int(match[1]) < len(rows):
            return rows[int(match[1])].get(match[2] or "text", rows[int(match[1])]["text"])
        if name in self.texts:
            return self.texts[name]
        if name in self.pickers:
            return self.pickers[name].filter
        if name == "remediation":
            return self.remediation
        return self.save_button

    def first_problem(self, problems: list[Problem]) -> Problem | None:
        """The problem of the field highest in the form."""

        def place(problem: Problem) -> tuple[int, str]:
            name = problem_field(problem)
            rank = SCREEN_ORDER.index(name) if name in SCREEN_ORDER else len(SCREEN_ORDER)
            return rank, problem.field

        return min(problems, key=place, default=None)

    def _refused(self, problems: list[Problem]) -> None:
        """Say by the Save button which fields stop the save, and go to the first."""
        first = self.first_problem(problems)
        ordered = [first] + [p for p in problems if p is not first] if first else []
        listed = "".join(f"<li>{html.escape(plain_problem(p))}</li>" for p in ordered)
        noun = "this needs" if len(problems) == 1 else f"these {len(problems)} need"
        self.status.value = (
            f"<span style='color:#b00020'><b>Not saved</b>: {noun} fixing first (nothing was "
            f"written):<ul style='margin:2px 0 0 0'>{listed}</ul></span>"
        )
        if first is not None:
            self.focused = self._control(first)
            self.focused.focus()

    def save(self) -> bool:
        """Validate and write case.yaml (with history); show problems and write nothing if any."""
        self.status.remove_class("ib-saved")
        try:
            existing = load_narrative(self.case_path)
        except RecordFormatError as exc:
            self.problems = [exc.problem]
            self._show_problems([Problem(str(self.case_path), "(file)", exc.problem.message)])
            self.status.value = (
                "<span style='color:#b00020'>Not saved: case.yaml on disk is not readable; "
                "fix it in an editor first. Nothing was written.</span>"
            )
            return False
        narrative = self.narrative(existing)
        merged, problems = validate_narrative(
            self.record,
            narrative,
            taxonomy=self.taxonomy,
            drafted=self.drafted,
            file=str(self.case_path),
        )
        self.problems = problems
        self._show_problems(problems)
        if merged is None:
            self._refused(problems)
            return False
        saved = save_with_history(self.case_path, narrative, keep_versions=self.keep_versions)
        self.last_saved, self.record = saved, merged
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self._set_aside_stale_draft()
        self.autosave_path.unlink(missing_ok=True)
        now = datetime.now(UTC)
        note = ""
        if saved.kept is not None:
            note = f"; previous version kept as {saved.kept.relative_to(self.case_path.parent)}"
        elif saved.unchanged:
            note = "; unchanged"
        self.status.value = (
            f"Saved at {now:%H:%M:%S} UTC to {html.escape(self.case_path.name)}"
            f"{html.escape(note)}. Re-run the workbook to redraw the record with it."
        )
        self.status.add_class("ib-saved")
        return True

    # -- display ---------------------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs):
        """The live widget, and for a notebook opened without its kernel (the committed
        workbook, an executed copy) a sentence instead of the widgets' repr."""
        bundle = self.widget._repr_mimebundle_(**kwargs) or {}
        return {**bundle, "text/plain": FORM_PLACEHOLDER}


def record_form(
    record: CaseRecord,
    case_path: Path | str,
    *,
    findings: Iterable[Finding] | None = None,
    taxonomy: Taxonomy | None = None,
    keep_versions: int = 5,
    autosave_delay: float = 2.0,
) -> RecordForm:
    """The form over a drafted record, saving to the incident's case.yaml; writes nothing yet.

    `findings` defaults to the record's evidence; `keep_versions` is how many earlier
    case.yaml versions `.case-history/` keeps; `autosave_delay` is the longest a change
    waits before it is autosaved (0: at once).
    """
    return RecordForm(
        record,
        case_path,
        findings=findings,
        taxonomy=taxonomy,
        keep_versions=keep_versions,
        autosave_delay=autosave_delay,
    )


def __getattr__(name: str):
    if name == "FACET_FIELDS":  # before 0.2 this module had the map turned round, by that name
        import warnings

        warnings.warn(
            "incidentbook.notebook.form.FACET_FIELDS (field -> facet) is FIELD_FACETS now; "
            "record.model.FACET_FIELDS is facet -> field",
            DeprecationWarning,
            stacklevel=2,
        )
        return FIELD_FACETS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The autosave's names before 0.2 ("draft" is the data's drafted record everywhere else).
DRAFT_FILE = AUTOSAVE_FILE
draft_path = autosave_path
pending_draft = pending_autosave

__all__ = [
    "AUTOSAVE_FILE",
    "DRAFT_FILE",
    "DRAFT_MARK",
    "FIELD_FACETS",
    "FORM_FIELDS",
    "HISTORY_DIR",
    "STATUSES",
    "TEXT_FIELDS",
    "UNKNOWN",
    "ActionItemsEditor",
    "FacetPicker",
    "RecordForm",
    "Saved",
    "action_item_data",
    "autosave",
    "autosave_path",
    "cite_line",
    "cited",
    "draft_path",
    "field_label",
    "help_text",
    "history_dir",
    "history_versions",
    "load_narrative",
    "narrative_from_values",
    "narrative_text",
    "pending_autosave",
    "pending_draft",
    "plain_problem",
    "problem_field",
    "read_autosave",
    "readable_time",
    "record_form",
    "remediation_items",
    "save_with_history",
    "strip_draft_mark",
    "toggle_choice",
    "validate_narrative",
    "visible_choices",
    "with_citation",
]
