"""The narrative form, driven from Python as the widgets' front end would drive it."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.notebook.form import readable_time, record_form
from incidentbook.record.draft import draft_record
from incidentbook.record.narrative import (
    AUTOSAVE_FILE,
    DRAFT_MARK,
    HISTORY_DIR,
    cite_line,
    history_versions,
    load_narrative,
    narrative_from_values,
    read_autosave,
    save_with_history,
    validate_narrative,
    with_citation,
)

pytest.importorskip("ipywidgets")  # the pure functions need none; the form does

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


@pytest.fixture(scope="module")
def investigation(tmp_path_factory):
    """The bundled SmolLM3 incident, investigated once from a copy."""
    folder = tmp_path_factory.mktemp("inv") / "smollm3-storage"
    shutil.copytree(INCIDENT, folder)
    return investigate(folder)


@pytest.fixture
def incident(tmp_path, investigation):
    """A fresh copy of the incident folder and the record drafted from the data alone."""
    folder = tmp_path / "smollm3-storage"
    shutil.copytree(INCIDENT, folder)
    return folder / "case.yaml", draft_record(investigation)


def _listing(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


def _written(case_path: Path) -> dict:
    return yaml.safe_load(case_path.read_text(encoding="utf-8"))


def test_constructing_the_form_writes_nothing_and_marks_the_drafts(incident):
    case_path, record = incident
    before = _listing(case_path.parent)
    form = record_form(record, case_path)
    assert _listing(case_path.parent) == before
    assert "widget-view" in str(form._repr_mimebundle_())

    assert form.texts["title"].value == record.title
    assert record.symptoms.startswith(DRAFT_MARK)
    assert form.texts["symptoms"].value == record.symptoms[len(DRAFT_MARK) :].strip()
    assert form.pickers["components"].value == record.components
    for name in ("title", "symptoms", "detection", "root_causes", "components", "symptom_tags"):
        assert form.markers[name].layout.display != "none", name
    for name in ("trigger", "lessons", "remediation", "action_items", "contributing_factors"):
        assert form.markers[name].layout.display == "none", name


def test_a_drafted_field_stops_being_a_draft_once_edited_or_confirmed(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    form.texts["symptoms"].value += " Seen by the on-call engineer at 09:20."
    assert "symptoms" not in form.drafted
    assert form.markers["symptoms"].layout.display == "none"
    assert "components" in form.drafted
    form.confirm_buttons["components"].click()
    assert "components" not in form.drafted
    assert form.markers["components"].layout.display == "none"
    assert "detection" in form.drafted  # untouched fields stay drafts

    form.save_button.click()
    written = _written(case_path)
    assert set(written) == {"symptoms", "components"}
    assert not written["symptoms"].startswith(DRAFT_MARK)
    assert written["components"] == record.components
    assert form.record.drafted == [f for f in record.drafted if f not in written]


def test_save_writes_the_persons_narrative_and_only_that(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    form.texts["trigger"].value = "The shared WekaFS filled past 95% during the data reshuffle."
    form.pickers["root_causes"].value = ["shared-filesystem-capacity"]
    form.pickers["contributing_factors"].click("storage-near-capacity")
    form.remediation.value = "Freed 40 TB of old checkpoints\n\n  Moved the cache to local NVMe  "
    row = form.actions.add()
    row["text"].value = "Alert when the filesystem passes 85%"
    row["owner"].value = "infra on-call"
    form.actions.add()  # left blank: not an action item
    form.texts["lessons"].value = "Watch filesystem fill, not only read latency."

    form.save_button.click()

    assert form.problems == []
    assert re.search(r"Saved at \d\d:\d\d:\d\d UTC to case.yaml", form.status.value)
    written = _written(case_path)
    assert written == {
        "trigger": "The shared WekaFS filled past 95% during the data reshuffle.",
        "root_causes": ["shared-filesystem-capacity"],
        "contributing_factors": ["storage-near-capacity"],
        "remediation": ["Freed 40 TB of old checkpoints", "Moved the cache to local NVMe"],
        "action_items": [
            {
                "text": "Alert when the filesystem passes 85%",
                "owner": "infra on-call",
                "status": "open",
            }
        ],
        "lessons": "Watch filesystem fill, not only read latency.",
    }
    assert load_narrative(case_path) == written
    assert not (case_path.parent / AUTOSAVE_FILE).exists()  # saved: the autosave is spent
    assert not (case_path.parent / HISTORY_DIR).exists()  # nothing was there before


def test_fields_case_yaml_holds_that_the_form_does_not_edit_are_kept(incident):
    case_path, record = incident
    case_path.write_text("organisation: Hugging Face\ntrigger: old words\n", encoding="utf-8")
    form = record_form(record, case_path)
    form.texts["trigger"].value = "new words"
    form.save_button.click()
    assert _written(case_path) == {"organisation": "Hugging Face", "trigger": "new words"}
    (kept,) = history_versions(case_path)
    assert kept.read_text(encoding="utf-8") == "organisation: Hugging Face\ntrigger: old words\n"


def test_saving_keeps_the_last_versions_in_the_history(incident):
    case_path, record = incident
    form = record_form(record, case_path, keep_versions=3)
    texts = [f"Trigger, version {n}" for n in range(1, 6)]
    for text in texts:
        form.texts["trigger"].value = text
        form.save_button.click()
        assert "Saved at" in form.status.value
    assert _written(case_path)["trigger"] == texts[-1]
    versions = history_versions(case_path)
    assert [v.parent.name for v in versions] == [HISTORY_DIR] * 3
    assert [_written(v)["trigger"] for v in versions] == texts[1:4]
    assert all(v.name.startswith("case.") and v.suffix == ".yaml" for v in versions)

    form.save_button.click()  # same text: no new version
    assert history_versions(case_path) == versions
    assert "unchanged" in form.status.value


def test_invalid_values_are_shown_by_their_fields_and_nothing_is_written(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    form.texts["title"].value = "   "
    form.pickers["root_causes"].value = ["wekafs-was-full"]  # not a taxonomy id
    form.pickers["components"].value = []
    row = form.actions.add()
    row["owner"].value = "someone"  # an owner but nothing to do
    before = _listing(case_path.parent)

    form.save_button.click()

    assert not case_path.exists()
    assert {p for p in _listing(case_path.parent) if HISTORY_DIR in p} == set()
    status = form.status.value.replace("&#x27;", "'")
    assert "Not saved" in status
    # by the Save button, each field named in plain words, the first field first
    assert status.index("<li>Title is empty</li>") < status.index("Root causes:")
    assert "<li>Components: choose at least one value</li>" in status
    assert "<li>Action item 1: text is empty</li>" in status
    assert "string should have" not in status
    assert form.focused is form.texts["title"]  # the first field to fix is focused
    assert "Title is empty" in form.errors["title"].value
    assert "'wekafs-was-full' is not a known root cause id" in form.errors[
        "root_causes"
    ].value.replace("&#x27;", "'")
    assert "choose at least one value" in form.errors["components"].value
    assert "Action item 1: text is empty" in row["error"].value
    for name in ("title", "root_causes", "components"):
        assert form.errors[name].layout.display != "none"
    assert form.errors["symptoms"].layout.display == "none"
    assert form.fields["title"].children[-1] is form.errors["title"]  # right under the field
    bad = form.pickers["root_causes"].options.children[0]  # the bad id is visible, first
    assert "⚠" in bad.description and bad.value
    # only the case.yaml and history are guarded; the autosave keeps the person's work
    assert set(_listing(case_path.parent)) - set(before) <= {AUTOSAVE_FILE}

    form.texts["title"].value = "Throughput drops on a full WekaFS"
    form.pickers["root_causes"].value = ["shared-filesystem-capacity"]
    form.pickers["components"].value = ["shared-filesystem"]
    row["text"].value = "Add a fill alert"
    form.save_button.click()
    assert "Saved at" in form.status.value
    assert all(e.layout.display == "none" for e in form.errors.values())
    assert _written(case_path)["title"] == "Throughput drops on a full WekaFS"


def test_an_existing_case_yaml_is_left_alone_when_the_form_is_invalid(incident):
    case_path, record = incident
    case_path.write_text("trigger: a person's words\n", encoding="utf-8")
    os.utime(case_path, ns=(1, 1))
    form = record_form(record, case_path)
    form.texts["symptoms"].value = ""
    form.save_button.click()
    assert "Symptoms is empty" in form.errors["symptoms"].value
    assert case_path.read_text(encoding="utf-8") == "trigger: a person's words\n"
    assert case_path.stat().st_mtime_ns == 1
    assert not (case_path.parent / HISTORY_DIR).exists()


def test_every_change_is_autosaved_and_offered_back_after_a_restart(incident):
    case_path, record = incident
    draft = case_path.parent / AUTOSAVE_FILE
    form = record_form(record, case_path)
    form.texts["trigger"].value = "Half-written thoughts"
    form.pickers["root_causes"].value = ["storage"]
    state = read_autosave(draft)
    assert state["values"]["trigger"] == "Half-written thoughts"
    assert state["values"]["root_causes"] == ["storage"]
    assert "root_causes" not in state["drafted"]
    assert not case_path.exists()

    # the kernel restarts: a new form over the same drafted record offers the draft back
    again = record_form(record, case_path)
    assert again.restore_box.layout.display != "none"
    assert again.widget.children.index(again.restore_box) == 1  # first thing after the style
    saved_at = readable_time(state["saved_at"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+", saved_at)
    assert f"Unsaved changes from {saved_at}" in again.restore_note.value
    assert again.texts["trigger"].value == ""
    again.restore_button.click()
    assert again.texts["trigger"].value == "Half-written thoughts"
    assert again.pickers["root_causes"].value == ["storage"]
    assert "root_causes" not in again.drafted
    assert again.markers["root_causes"].layout.display == "none"
    assert again.restore_box.layout.display == "none"
    again.save_button.click()
    assert _written(case_path) == {"trigger": "Half-written thoughts", "root_causes": ["storage"]}
    assert not draft.exists()

    # saved since: nothing to offer
    assert record_form(record, case_path).restore_box.layout.display == "none"


def test_an_unrestored_draft_is_set_aside_not_overwritten(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    form.texts["lessons"].value = "Words from yesterday"
    again = record_form(record, case_path)
    assert again.restore_box.layout.display != "none"
    again.texts["trigger"].value = "Today's words"  # edits without restoring
    (kept,) = history_versions(case_path, "case-draft")
    assert read_autosave(kept)["values"]["lessons"] == "Words from yesterday"
    assert read_autosave(case_path.parent / AUTOSAVE_FILE)["values"]["trigger"] == "Today's words"
    assert again.restore_box.layout.display == "none"


def test_autosave_waits_for_a_quiet_moment_on_the_kernels_loop(incident):
    case_path, record = incident
    draft = case_path.parent / AUTOSAVE_FILE

    async def edit() -> None:
        form = record_form(record, case_path, autosave_delay=0.2)
        for word in ("one", "one two", "one two three"):
            form.texts["trigger"].value = word
        assert not draft.exists()
        await asyncio.sleep(0.4)
        assert read_autosave(draft)["values"]["trigger"] == "one two three"

    asyncio.run(edit())


def test_cited_findings_become_lines_of_detection(incident, investigation):
    case_path, record = incident
    form = record_form(record, case_path, findings=investigation.findings)
    finding, line, box = form.citations[4]
    assert line == cite_line(finding)
    assert finding.summary in line
    box.value = True
    assert form.texts["detection"].value.endswith("\n" + line)
    assert "detection" not in form.drafted  # citing is the person's edit of detection
    form.citations[0][2].value = True
    form.citations[0][2].value = False
    assert cite_line(form.citations[0][0]) not in form.texts["detection"].value
    form.save_button.click()
    assert line in _written(case_path)["detection"].splitlines()

    # the next run reads it back: the finding shows as cited
    redrafted = draft_record(investigation, narrative=load_narrative(case_path))
    again = record_form(redrafted, case_path)
    assert [b.value for _, _, b in again.citations].count(True) == 1
    assert again.citations[4][2].value is True
    # deleting the line by hand un-ticks it
    again.texts["detection"].value = with_citation(again.texts["detection"].value, line, False)
    assert again.citations[4][2].value is False


def test_the_next_draft_carries_the_persons_words(investigation):
    """In the incident folder itself, as the workbook would: draft, form, save, redraft."""
    case_path = investigation.folder.case_path
    record = draft_record(investigation, narrative=load_narrative(case_path))
    form = record_form(record, case_path)
    form.texts["trigger"].value = "Checkpoint writes filled the shared filesystem."
    form.pickers["root_causes"].value = ["shared-filesystem-capacity"]
    form.remediation.value = "Deleted stale checkpoints"
    form.citations[4][2].value = True
    form.save_button.click()
    assert "Saved at" in form.status.value

    redrafted = draft_record(investigation, narrative=load_narrative(case_path))
    assert redrafted.trigger == "Checkpoint writes filled the shared filesystem."
    assert redrafted.root_causes == ["shared-filesystem-capacity"]
    assert redrafted.remediation == ["Deleted stale checkpoints"]
    assert cite_line(form.citations[4][0]) in redrafted.detection
    assert {"root_causes", "detection"}.isdisjoint(redrafted.drafted)
    assert "components" in redrafted.drafted
    assert redrafted.evidence.findings  # the data's part is still the data's


# -- the plain functions -------------------------------------------------------------------


def test_narrative_from_values_writes_set_or_confirmed_fields_only():
    values = {
        "title": "T",
        "symptoms": f"{DRAFT_MARK} it fell",
        "trigger": "",
        "lessons": "",
        "remediation": "a\n\n b ",
        "action_items": [{"text": "", "owner": "", "status": "open", "link": ""}],
        "contributing_factors": [],
    }
    assert narrative_from_values(values, drafted={"title"}) == {
        "symptoms": "it fell",
        "remediation": ["a", "b"],
    }
    assert narrative_from_values(values, drafted={"title"}, touched={"trigger"}) == {
        "symptoms": "it fell",
        "trigger": "",
        "remediation": ["a", "b"],
    }
    assert narrative_from_values(
        {"trigger": "x"}, existing={"references": [], "trigger": "old", "scale": {"nodes": 2}}
    ) == {"scale": {"nodes": 2}, "trigger": "x", "references": []}


def test_validate_narrative_names_fields(incident):
    _, record = incident
    merged, problems = validate_narrative(record, {"root_causes": ["nope"], "title": ""})
    assert merged is None
    assert sorted(p.field for p in problems) == ["root_causes[0]", "title"]
    merged, problems = validate_narrative(record, {"trigger": "t"})
    assert problems == [] and merged.trigger == "t"


def test_save_with_history_numbers_versions_written_in_the_same_second(tmp_path):
    case_path = tmp_path / "case.yaml"
    for n in range(4):
        save_with_history(case_path, {"trigger": f"v{n}"}, keep_versions=5)
        os.utime(case_path, (1_700_000_000, 1_700_000_000))
    names = [p.name for p in history_versions(case_path)]
    assert names == [
        "case.20231114T221320.yaml",
        "case.20231114T221320-1.yaml",
        "case.20231114T221320-2.yaml",
    ]
    assert [load_narrative(p)["trigger"] for p in history_versions(case_path)] == [
        "v0",
        "v1",
        "v2",
    ]
    assert save_with_history(case_path, {"trigger": "v3"}).unchanged


def test_with_citation_adds_once_and_removes():
    text = with_citation("Seen on the dashboard.", "Evidence: x.", True)
    assert text == "Seen on the dashboard.\nEvidence: x."
    assert with_citation(text, "Evidence: x.", True) == text
    assert with_citation(text, "Evidence: x.", False) == "Seen on the dashboard."
    assert with_citation("", "Evidence: x.", True) == "Evidence: x."


# -- drafted checks ----------------------------------------------------------------------------


def test_drafted_checks_are_shown_confirmed_or_removed_and_saved(incident, investigation):
    case_path, record = incident
    assert "checks" in record.drafted
    assert [c.id for c in record.checks] == ["disk-read-latency"]
    assert record.checks[0].drafted
    form = record_form(record, case_path)
    assert form.markers["checks"].layout.display != "none"
    row = form.checks.rows["disk-read-latency"]
    assert row["badge"].layout.display != "none"

    row["confirm"].click()
    assert "checks" not in form.drafted
    assert form.checks.rows["disk-read-latency"]["badge"].layout.display == "none"
    form.save_button.click()
    assert form.problems == [], form.problems
    written = _written(case_path)["checks"]
    assert written == [
        {**record.checks[0].model_dump(mode="json", exclude_none=True), "drafted": False}
    ]
    assert "for_" not in case_path.read_text()

    # The next run keeps the person's check, confirmed, and drafts none over it.
    redrafted = draft_record(investigation, narrative=load_narrative(case_path))
    assert "checks" not in redrafted.drafted
    assert [(c.id, c.drafted) for c in redrafted.checks] == [("disk-read-latency", False)]

    form = record_form(redrafted, case_path)
    form.checks.rows["disk-read-latency"]["remove"].click()
    form.save_button.click()
    assert _written(case_path)["checks"] == []
    assert draft_record(investigation, narrative=load_narrative(case_path)).checks == []


def test_an_invalid_check_in_the_form_is_named_and_not_saved(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    broken = {**form.checks.value[0], "expr": "sum by (node) (rate(x[5m])", "drafted": False}
    form.checks.value = [broken]
    form._changed("checks")
    assert form.save() is False
    assert not case_path.exists()
    text = form.errors["checks"].value
    assert (
        "Check 1 (expr)" in text and "not valid PromQL" in text and "case smollm3-storage" in text
    )


# -- pickers: one value per click ----------------------------------------------------------


def test_a_click_adds_or_removes_one_value_and_unknown_stands_alone():
    from incidentbook.notebook.form import toggle_choice

    chosen = ["storage", "shared-filesystem", "dataloader"]
    assert toggle_choice(chosen, "gpu", True) == ([*chosen, "gpu"], [])
    assert toggle_choice(chosen, "shared-filesystem", False) == (["storage", "dataloader"], [])
    assert toggle_choice(chosen, "storage", True) == (chosen, [])
    assert toggle_choice(["unknown"], "storage", True) == (["storage"], ["unknown"])
    assert toggle_choice(chosen, "unknown", True) == (["unknown"], chosen)


def test_filtering_never_hides_a_choice():
    from incidentbook.notebook.form import visible_choices
    from incidentbook.record.taxonomy import load_taxonomy

    taxonomy = load_taxonomy()
    shown = visible_choices(taxonomy, "root_cause", "capacity", ["unknown"])
    assert "shared-filesystem-capacity" in shown
    assert "unknown" in shown  # chosen, so listed though it does not match
    assert "faulty-gpu" not in shown
    assert visible_choices(taxonomy, "root_cause", "capacity", []).count("unknown") == 0


def test_the_picker_keeps_every_other_choice_on_a_click(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    picker = form.pickers["components"]
    drafted = picker.value
    assert len(drafted) >= 2
    picker.filter.value = "gpu"
    picker.click("gpu")
    assert picker.value == [*drafted, "gpu"]  # the choices filtered out of view are kept
    visible = {b.tooltip for b in picker.options.children}
    assert set(drafted) <= visible  # and shown, ticked
    assert all(picker.boxes[v].value for v in drafted)
    assert f"{len(drafted) + 1} chosen" in picker.count.value
    picker.click(drafted[0])
    assert picker.value == [*drafted[1:], "gpu"]

    causes = form.pickers["root_causes"]
    assert causes.value == ["unknown"]
    causes.click("shared-filesystem-capacity")
    assert causes.value == ["shared-filesystem-capacity"]
    assert not causes.boxes["unknown"].value
    causes.click("unknown")
    assert causes.value == ["unknown"]
    assert "replaces" in causes.hint.value and "Shared filesystem" in causes.hint.value


def test_unknown_beside_a_real_value_is_refused_by_the_record(incident):
    _, record = incident
    merged, problems = validate_narrative(
        record, {"root_causes": ["unknown", "shared-filesystem-capacity"]}
    )
    assert merged is None
    assert problems[0].field == "root_causes"
    assert "'unknown' cannot be chosen together with shared-filesystem-capacity" in (
        problems[0].message
    )


def test_a_ticket_that_is_not_a_url_is_said_plainly_and_its_box_focused(incident):
    case_path, record = incident
    form = record_form(record, case_path)
    row = form.actions.add()
    row["text"].value = "Alert when the filesystem passes 85%"
    row["link"].value = "JIRA-1234"
    form.save_button.click()
    assert not case_path.exists()
    expected = (
        "Action item 1: ticket must be a URL such as https://tracker.example/PROJ-1234; "
        "got 'JIRA-1234'"
    )
    assert expected in form.status.value.replace("&#x27;", "'")
    assert expected in row["error"].value.replace("&#x27;", "'")
    assert form.focused is row["link"]
