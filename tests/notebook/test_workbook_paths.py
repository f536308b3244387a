"""Where the workbook reads and writes: relative paths from the notebook's own project,
outputs that follow the incident, and a folder of one incident's outputs never taken by
another's run (issue 15, items 1 and 2). Real papermill on a second copy of the project
that shares this virtualenv."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from incidentbook.notebook.runner import run_workbook
from incidentbook.paths import (
    OUTPUT_MARK,
    OutputTaken,
    claim_output,
    project_root,
    resolve_input,
    resolve_output,
)

INCIDENTS = REPO / "data" / "incidents"


def _project(root: Path) -> Path:
    """A second copy of the project: its own workbook, incidents and library, no package."""
    (root / "workbooks").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'a-second-checkout'\n")
    shutil.copy(REPO / "workbooks" / "incident.ipynb", root / "workbooks" / "incident.ipynb")
    for name in ("smollm3-storage", "imbue-bringup"):
        shutil.copytree(INCIDENTS / name, root / "data" / "incidents" / name)
    shutil.copytree(REPO / "data" / "library", root / "data" / "library")
    return root


def test_relative_paths_resolve_from_the_notebooks_project(tmp_path, monkeypatch):
    project = _project(tmp_path / "second")
    monkeypatch.chdir(project / "workbooks")
    assert project_root() == project
    found = resolve_input("data/incidents/smollm3-storage")
    assert found == project / "data" / "incidents" / "smollm3-storage"
    assert REPO not in found.parents
    assert resolve_output("out/x") == project / "out" / "x"
    # outside any project the current directory is the root
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    assert resolve_output("out/x") == plain / "out" / "x"
    assert (
        resolve_input("data/incidents/smollm3-storage") == plain / "data/incidents/smollm3-storage"
    )


def test_an_output_folder_is_marked_and_another_incidents_refused(tmp_path):
    out = tmp_path / "out"
    smollm3, imbue = INCIDENTS / "smollm3-storage", INCIDENTS / "imbue-bringup"
    claim_output(out, smollm3)
    assert json.loads((out / OUTPUT_MARK).read_text())["id"] == "smollm3-storage"
    claim_output(out, smollm3)  # the same incident again: fine
    with pytest.raises(OutputTaken) as info:
        claim_output(out, imbue)
    message = str(info.value)
    assert str(out) in message and "smollm3-storage" in message and "imbue-bringup" in message
    assert "force" in message and "another `out`" in message
    claim_output(out, imbue, force=True)
    assert json.loads((out / OUTPUT_MARK).read_text())["id"] == "imbue-bringup"
    # a folder written before marks existed is known by its case.json
    old = tmp_path / "old"
    old.mkdir()
    (old / "case.json").write_text(json.dumps({"id": "smollm3-storage"}))
    with pytest.raises(OutputTaken):
        claim_output(old, imbue)


def _run(project: Path, parameters: dict) -> dict:
    import papermill

    executed = project / "executed.ipynb"
    papermill.execute_notebook(
        str(project / "workbooks" / "incident.ipynb"),
        str(executed),
        parameters=parameters,
        kernel_name="python3",
        progress_bar=False,
        cwd=str(project / "workbooks"),
        store_widget_state=False,
        iopub_timeout=120,
    )
    return json.loads(executed.read_text())


def _text(notebook: dict) -> str:
    return json.dumps([c.get("outputs", []) for c in notebook["cells"]])


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (folder / "case.json", folder / "report.html")}


def test_changing_only_the_incident_leaves_the_other_incidents_outputs(tmp_path):
    from papermill.exceptions import PapermillExecutionError

    project = _project(tmp_path / "second")
    first = _run(project, {})  # the defaults: SmolLM3, out empty
    smollm3_out = project / "out" / "smollm3-storage"
    assert json.loads((smollm3_out / "case.json").read_text())["id"] == "smollm3-storage"
    shown = _text(first)
    assert str(project / "data" / "incidents" / "smollm3-storage") in shown
    assert str(smollm3_out) in shown
    assert not (REPO / "data" / "incidents" / "smollm3-storage" / "case.yaml").exists()
    before = _snapshot(smollm3_out)

    _run(project, {"incident": "data/incidents/imbue-bringup"})
    imbue_out = project / "out" / "imbue-bringup"
    assert json.loads((imbue_out / "case.json").read_text())["id"] == "imbue-bringup"
    assert _snapshot(smollm3_out) == before

    # Imbue into SmolLM3's folder, named explicitly: refused before anything is written
    with pytest.raises(PapermillExecutionError) as info:
        _run(project, {"incident": "data/incidents/imbue-bringup", "out": "out/smollm3-storage"})
    assert "OutputTaken" in info.value.ename and "smollm3-storage" in info.value.evalue
    with pytest.raises(OutputTaken):
        run_workbook(project / "data" / "incidents" / "imbue-bringup", smollm3_out)
    assert _snapshot(smollm3_out) == before
