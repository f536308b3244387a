"""The narrative form in a real JupyterLab, driven from Debian's chromium as a person would."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from lab_server import browser_page, jupyter_lab, run_all_cells, wait_for

from conftest import REPO

pytestmark = pytest.mark.browser

ARTIFACTS = REPO / "out" / "test-artifacts"
INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"
CELL = """\
from incidentbook.record.draft import draft_record
from incidentbook.record.narrative import load_narrative
from incidentbook.notebook.form import record_form
from incidentbook.investigation import investigate

inv = investigate({incident!r})
record = draft_record(inv, narrative=load_narrative(inv.folder.case_path))
record_form(record, inv.folder.case_path)
"""
TRIGGER = "Checkpoint writes filled the shared WekaFS past 95%; reads slowed for every rank."
REMEDIATION = "Deleted 40 TB of stale checkpoints"


def _notebook(path: Path, incident: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(CELL.format(incident=str(incident)))]
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a free loopback port over a folder holding the incident and a notebook."""
    root = tmp_path_factory.mktemp("lab")
    incident = root / "smollm3-storage"
    shutil.copytree(INCIDENT, incident)
    _notebook(root / "form.ipynb", incident)
    with jupyter_lab(root, tmp_path_factory.mktemp("jupyter-home")) as (base, token):
        yield {"url": f"{base}/lab/tree/form.ipynb?token={token}", "incident": incident}


@pytest.fixture(scope="module")
def page():
    with browser_page({"width": 1400, "height": 3000}) as page:
        yield page


def test_a_person_fills_the_form_and_saves_case_yaml(lab, page):
    expect = pytest.importorskip("playwright.sync_api").expect
    case_path = lab["incident"] / "case.yaml"
    page.goto(lab["url"])
    run_all_cells(page)
    form = page.locator(".ib-form")
    try:
        form.wait_for(timeout=45_000)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "form-failure.png"))
        raise
    assert not case_path.exists()  # showing the form wrote nothing

    form.locator(".ib-field-trigger textarea").fill(TRIGGER)
    picker = form.locator(".ib-picker-root_cause")
    picker.locator("input[type=text]").fill("capacity")
    expect(picker.locator(".ib-option", has_text="Hardware defect")).to_have_count(0)  # filtered
    # the drafted 'unknown' stays in view while chosen, though the filter does not match it
    expect(picker.locator(".ib-option", has_text="Unknown")).to_be_visible()
    picker.locator(".ib-option", has_text="Shared filesystem near capacity").locator(
        "input"
    ).click()
    expect(picker.locator(".ib-chosen", has_text="shared-filesystem-capacity")).to_be_visible()
    # choosing a real value dropped 'unknown'
    expect(picker.locator("button[title='remove unknown']")).to_have_count(0)
    form.locator(".ib-field-remediation textarea").fill(REMEDIATION)
    form.locator(".ib-save").click()

    written = wait_for(
        lambda: case_path.exists() and yaml.safe_load(case_path.read_text(encoding="utf-8")),
        "case.yaml",
    )
    assert written == {
        "trigger": TRIGGER,
        "root_causes": ["shared-filesystem-capacity"],
        "remediation": [REMEDIATION],
    }
    form.locator(".ib-status", has_text="Saved at").wait_for()
    expect(form.locator(".ib-field-root_causes .ib-draft-marker")).to_be_hidden()
    expect(form.locator(".ib-field-symptoms .ib-draft-marker")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    form.screenshot(path=str(ARTIFACTS / "form.png"))

    # an invalid value: the message shows under the field, case.yaml is left as it was
    before = case_path.read_text(encoding="utf-8")
    form.locator(".ib-field-title input").fill("")
    form.locator(".ib-save").click()
    error = form.locator(".ib-field-title .ib-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Title is empty")
    expect(form.locator(".ib-status")).to_contain_text("Title is empty")
    expect(form.locator(".ib-status")).to_contain_text("Not saved")
    assert case_path.read_text(encoding="utf-8") == before
    # the edit is autosaved by the kernel's timer, so a restart would not lose it
    draft = lab["incident"] / ".case-draft.yaml"
    wait_for(draft.exists, ".case-draft.yaml", timeout=10)
    form.screenshot(path=str(ARTIFACTS / "form-invalid.png"))
