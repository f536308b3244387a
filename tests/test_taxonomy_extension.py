"""A taxonomy extension reaches every loader that checks taxonomy ids: signal packs,
signature catalogs, the drafted record, and the workbook run by papermill.

The extension adds a component (WekaFS under the shared filesystem) and a symptom (a
Weka client hang under hung tasks); a signal pack points disk read latency at the one and
a catalog extension points the hung-task signature at the other."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.logs.signatures import CatalogError, load_catalog
from incidentbook.metrics.signals import SignalPackError, load_pack
from incidentbook.record.draft import draft
from incidentbook.record.taxonomy import load_taxonomy

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"
EXE = Path(sys.executable).with_name("incidentbook")


@pytest.fixture
def files(tmp_path, monkeypatch) -> dict[str, Path]:
    monkeypatch.delenv("INCIDENTBOOK_TAXONOMY", raising=False)
    taxonomy = tmp_path / "our-taxonomy.yaml"
    taxonomy.write_text(
        yaml.safe_dump(
            {
                "facets": {
                    "component": {
                        "values": [
                            {
                                "id": "wekafs",
                                "label": "WekaFS",
                                "description": "Our WekaFS cluster.",
                                "parent": "shared-filesystem",
                            }
                        ]
                    },
                    "symptom": {
                        "values": [
                            {
                                "id": "weka-client-hang",
                                "label": "Weka client hang",
                                "description": "Tasks blocked in the Weka client.",
                                "parent": "hung-task",
                            }
                        ]
                    },
                }
            }
        )
    )
    pack = yaml.safe_load((REPO / "templates" / "signals" / "default.yaml").read_text())
    pack["name"] = "ours"
    pack["signals"]["disk_read_latency"]["component"] = "wekafs"
    pack_path = tmp_path / "ours.yaml"
    pack_path.write_text(yaml.safe_dump(pack, sort_keys=False))
    bundled = yaml.safe_load((REPO / "templates" / "signatures.yaml").read_text())
    (hung,) = [s for s in bundled["signatures"] if s["id"] == "hung-task"]
    catalog = tmp_path / "our-signatures.yaml"
    catalog.write_text(yaml.safe_dump({"signatures": [{**hung, "symptom": "weka-client-hang"}]}))
    return {"taxonomy": taxonomy, "pack": pack_path, "signatures": catalog}


def test_the_loaders_take_the_extension(files):
    ours = load_taxonomy(files["taxonomy"])
    with pytest.raises(SignalPackError, match="'wekafs' is not a known component"):
        load_pack(files["pack"])
    assert load_pack(files["pack"], taxonomy=ours).get("disk_read_latency").component == "wekafs"
    with pytest.raises(CatalogError, match="weka-client-hang"):
        load_catalog(files["signatures"])
    assert load_catalog(files["signatures"], ours).get("hung-task").symptom == "weka-client-hang"


def test_the_environment_names_the_one_taxonomy(files, monkeypatch):
    monkeypatch.setenv("INCIDENTBOOK_TAXONOMY", str(files["taxonomy"]))
    assert load_pack(files["pack"]).get("disk_read_latency").component == "wekafs"
    assert load_catalog(files["signatures"]).get("hung-task").symptom == "weka-client-hang"


def test_an_investigation_and_its_record_use_the_extension(files):
    inv = investigate(
        INCIDENT, pack=str(files["pack"]), signatures=files["signatures"],
        taxonomy=files["taxonomy"],
    )  # fmt: skip
    record = draft(inv)
    assert "wekafs" in record.components
    assert "weka-client-hang" in record.symptom_tags


def test_the_workbook_takes_the_extension(files, tmp_path):
    out = tmp_path / "out"
    params = {"taxonomy": "taxonomy", "signal_pack": "pack", "signatures": "signatures"}
    args = [str(EXE), "run", str(INCIDENT), "--out", str(out)]
    for name, key in params.items():
        args += ["-p", name, str(files[key])]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    record = json.loads((out / "case.json").read_text())
    assert "wekafs" in record["components"]
    assert "weka-client-hang" in record["symptom_tags"]
    page = (out / "report.html").read_text()
    assert "WekaFS" in page and "Weka client hang" in page
    # The similar-cases cell read the library with the extension too.
    notebook = json.loads((out / "incident.ipynb").read_text())
    similar = next(c for c in notebook["cells"] if "wb.similar(" in "".join(c["source"]))
    assert similar["outputs"] and "error" not in similar["outputs"][0]["output_type"]
