"""The committed workbook as a person opens it in JupyterLab before running anything:
verdict and story chart first, the form as a sentence rather than a widget's repr, a
kernelspec JupyterLab keeps, a chart menu without the Vega Editor, the outputs as links."""

from __future__ import annotations

import json

from conftest import REPO

WORKBOOK = REPO / "workbooks" / "incident.ipynb"
VEGALITE = "application/vnd.vegalite.v5+json"


def _notebook() -> dict:
    return json.loads(WORKBOOK.read_text(encoding="utf-8"))


def _shown(cell: dict) -> list[dict]:
    return [o.get("data", {}) for o in cell.get("outputs", []) if o.get("data")]


def test_the_first_screen_leads_with_the_verdict_then_the_story_chart():
    cells = [c for c in _notebook()["cells"] if c["cell_type"] == "code"]
    assert "parameters" in cells[0]["metadata"]["tags"]
    where, first, second = (_shown(c) for c in cells[1:4])
    assert "Incident folder" in "".join(where[0]["text/markdown"])
    assert "".join(first[0]["text/markdown"]).startswith("**Verdict**")
    assert VEGALITE in second[0]
    assert "Training throughput" in "".join(second[0]["text/plain"])


def test_the_form_is_stored_as_a_sentence_and_the_kernelspec_is_jupyterlabs():
    notebook = _notebook()
    text = json.dumps(notebook)
    assert "VBox(children=" not in text
    assert "application/vnd.jupyter.widget-view+json" not in text
    form = next(c for c in notebook["cells"] if "wb.form(" in "".join(c["source"]))
    assert "case-record form" in "".join(_shown(form)[0]["text/plain"])
    assert notebook["metadata"]["kernelspec"]["display_name"] == "Python 3 (ipykernel)"
    assert "widgets" not in notebook["metadata"]


def test_charts_offer_export_but_not_the_vega_editor():
    for cell in _notebook()["cells"]:
        for output in cell.get("outputs", []):
            if VEGALITE in output.get("data", {}):
                options = output["metadata"][VEGALITE]["embed_options"]
                actions = options["actions"]
                assert actions["export"] is True and actions["editor"] is False
                assert options["renderer"] == "svg"  # legends and axes as text, not pixels


def test_the_outputs_are_listed_with_their_folder_as_links(tmp_path):
    from incidentbook.notebook.cells import written
    from incidentbook.outputs.publish import Outputs

    out = tmp_path / "out" / "smollm3 storage"
    files = Outputs(out / "case.json", out / "report.html", [out / "charts" / "story.svg"])
    text = written(files, start=tmp_path / "workbooks").data
    assert f"Written to `{out}`" in text
    assert "- [case.json](../out/smollm3%20storage/case.json)" in text
    assert "- [charts/story.svg](../out/smollm3%20storage/charts/story.svg)" in text


def test_a_draft_time_reads_as_local_time_with_its_zone(monkeypatch):
    import time

    from incidentbook.notebook.form import readable_time

    for zone, shown in (
        ("UTC", "2025-03-14 09:15:56 UTC"),
        ("Europe/Berlin", "2025-03-14 10:15:56 CET"),
    ):
        monkeypatch.setenv("TZ", zone)
        time.tzset()
        assert readable_time("2025-03-14T09:15:56+00:00") == shown
    monkeypatch.undo()
    time.tzset()
    assert readable_time("an earlier session") == "an earlier session"
