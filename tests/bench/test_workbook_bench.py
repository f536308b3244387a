"""The workbook benchmark's reading of cell durations (bench/workbook.py)."""

from __future__ import annotations

import json
import sys

import pytest

from conftest import REPO

if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import workbook


def _code(metadata: dict) -> dict:
    return {"cell_type": "code", "metadata": metadata, "source": ["x = 1"], "outputs": []}


def test_cell_seconds_come_from_papermill_or_from_nbclient_timing(tmp_path):
    # papermill's runs carry a duration; a kept kernel's (nbclient alone) carry timestamps
    cells = [
        _code({"papermill": {"duration": 1.5}}),
        _code(
            {
                "execution": {
                    "iopub.status.busy": "2026-12-04T10:00:00.250000Z",
                    "iopub.execute_input": "2026-12-04T10:00:00.260000Z",
                    "shell.execute_reply": "2026-12-04T10:00:02.750000Z",
                }
            }
        ),
        _code({}),
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
    ]
    notebook = tmp_path / "incident.ipynb"
    notebook.write_text(json.dumps({"cells": cells}))
    assert workbook.cells_seconds(notebook) == pytest.approx(4.0)


def test_regen_cost_beyond_the_cells_is_per_incident(tmp_path):
    for name, seconds in (("a", 2.0), ("b", 3.0)):
        (tmp_path / name).mkdir()
        cells = [_code({"papermill": {"duration": seconds}})]
        (tmp_path / name / "incident.ipynb").write_text(json.dumps({"cells": cells}))
    assert workbook.regen_beyond_cells(7.0, tmp_path, 2) == pytest.approx(1.0)


def test_the_workbooks_own_cells_are_counted_in_their_stages(tmp_path):
    """Each code cell of the workbook falls in the stage its work belongs to: the chart
    cells (wb.chart) under charts, not under tables."""
    nb = json.loads((REPO / "workbooks" / "incident.ipynb").read_text())
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"] = {"papermill": {"duration": 1.0}}
    path = tmp_path / "incident.ipynb"
    path.write_text(json.dumps(nb))
    stages = workbook._cells(path)
    charts = sum("wb.chart(" in "".join(c["source"]) for c in nb["cells"])
    assert charts >= 4 and stages["charts"] >= charts
    assert stages["load+analysis"] == 1.0 and stages["record+write"] == 2.0
