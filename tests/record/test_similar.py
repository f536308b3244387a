import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import LIBRARY, REPO
from incidentbook.record.model import SCHEMA_VERSION, CaseRecord
from incidentbook.record.similar import similar_cases


def record(**facets) -> CaseRecord:
    return CaseRecord.model_validate(
        {
            "schema_version": SCHEMA_VERSION,
            "id": "new-case",
            "title": "A new case",
            "symptoms": "Something broke.",
            "root_causes": facets.get("root_causes", ["unknown"]),
            "components": facets.get("components", ["unknown"]),
            "symptom_tags": facets.get("symptom_tags", ["unknown"]),
            "contributing_factors": facets.get("contributing_factors", []),
        }
    )


def test_a_storage_driven_throughput_collapse_finds_smollm3_first():
    query = record(components=["shared-filesystem"], symptom_tags=["throughput-drop"])
    best = similar_cases(query, LIBRARY)[0]
    assert best.case.id == "smollm3-storage-throughput-drops"
    assert best.reasons[0] == "both show throughput drop involving shared filesystem"


def test_a_broader_value_counts_half():
    exact = similar_cases(record(components=["shared-filesystem"]), LIBRARY)[0]
    broader = similar_cases(record(components=["storage"]), LIBRARY)
    smollm3 = next(m for m in broader if m.case.id == "smollm3-storage-throughput-drops")
    assert 0 < smollm3.score < exact.score
    assert any(r == "related components under storage" for r in smollm3.reasons)


def test_a_bringup_finds_imbue_first():
    query = record(
        symptom_tags=["pcie-link-downtrained", "hosts-fail-to-boot"],
        components=["pcie-link"],
        root_causes=["miswiring"],
    )
    best = similar_cases(query, LIBRARY)[0]
    assert best.case.id == "imbue-h100-cluster-bringup"
    assert any(r == "the same root cause: miswiring" for r in best.reasons)


def test_unknown_everywhere_matches_nothing():
    assert similar_cases(record(), LIBRARY) == []


@pytest.mark.parametrize(
    ("incident", "expected"),
    [
        ("smollm3-storage", "smollm3-storage-throughput-drops"),
        ("imbue-bringup", "imbue-h100-cluster-bringup"),
    ],
)
def test_similar_cli_on_an_incident_folder(incident, expected):
    exe = Path(sys.executable).with_name("incidentbook")
    out = subprocess.run(
        [str(exe), "similar", str(REPO / "data" / "incidents" / incident), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    rows = json.loads(out.stdout)
    assert rows[0]["id"] == expected
    assert rows[0]["why"]
