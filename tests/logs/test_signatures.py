"""incidentbook.logs.signatures.match against the catalog's own example table.

The catalog test classifies with a plain per-signature cascade; `match` takes a faster
road (literal prefilter, regex only on candidates). Both must give the same answers.
"""

import json

import polars as pl
import pytest
import yaml
from test_signatures_catalog import NEGATIVES, POSITIVES

from incidentbook.logs.signatures import CatalogError, load_catalog, match, required_literals


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_match_agrees_with_every_positive_and_negative_example(catalog):
    lines = [line for line, _, _ in POSITIVES] + NEGATIVES
    got = match(pl.DataFrame({"message": lines}), catalog)
    assert got.height == len(lines)
    for (line, expected, fields), row in zip(
        POSITIVES, got.head(len(POSITIVES)).iter_rows(named=True), strict=True
    ):
        assert row["signature"] == expected, line
        extracted = json.loads(row["fields"]) if row["fields"] else {}
        for key, value in fields.items():
            assert extracted.get(key) == value, (line, key)
    assert got.tail(len(NEGATIVES)).get_column("signature").null_count() == len(NEGATIVES)


def test_match_keeps_row_order_and_other_columns(catalog):
    frame = pl.DataFrame(
        {
            "host": ["a", "b", "c"],
            "message": [
                "nothing here",
                "NVRM: Xid (PCI:0000:9b:00): 79, pid=1, name=python, GPU has fallen off the bus.",
                "also nothing",
            ],
        }
    )
    got = match(frame, catalog)
    assert got.get_column("host").to_list() == ["a", "b", "c"]
    assert got.get_column("signature").to_list() == [None, "nvidia-xid", None]
    assert got.get_column("xid").to_list() == [None, 79, None]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"NVRM: Xid \((?P<pci>[0-9a-f:]+)\): (?P<xid>\d+)", ["NVRM: Xid ("]),
        (r"(?:link down|link up) on (?P<port>\d+)", ["link "]),  # the common prefix
        (r"(?:foo|ba)r\d+", None),  # 'ba' is too short to be a useful prefilter
        (r"(?i)soft lockup", ["soft lockup"]),
        (r"x?y?", None),
    ],
)
def test_required_literals(pattern, expected):
    assert required_literals(pattern) == expected


def test_required_literals_never_lose_a_match(catalog):
    # The prefilter must keep every line the regex matches, whatever its case.
    for line, expected, _ in POSITIVES:
        literals = required_literals(catalog.get(expected).pattern)
        if literals:
            assert any(lit.lower() in line.lower() for lit in literals), (expected, line)


def test_user_extension_replaces_in_place_and_appends(tmp_path):
    ext = tmp_path / "mine.yaml"
    ext.write_text(
        yaml.safe_dump(
            {
                "signatures": [
                    {
                        "id": "our-trainer-stall",
                        "label": "Trainer stall",
                        "pattern": "heartbeat missed for (?P<seconds>\\d+)s",
                        "component": "training-framework",
                        "symptom": "hang-stall",
                        "severity": "error",
                        "explanation": "Our trainer's own stall detector fired.",
                        "reference": "https://example.org/runbook",
                    }
                ]
            }
        )
    )
    catalog = load_catalog(ext)
    assert catalog.signatures[-1].id == "our-trainer-stall"
    got = match(pl.DataFrame({"message": ["rank 3 heartbeat missed for 45s"]}), catalog)
    assert got.item(0, "signature") == "our-trainer-stall"
    assert json.loads(got.item(0, "fields")) == {"seconds": "45"}


def test_bad_extension_names_the_signature_and_the_fault(tmp_path):
    ext = tmp_path / "mine.yaml"
    ext.write_text(
        yaml.safe_dump(
            {
                "signatures": [
                    {
                        "id": "bad-one",
                        "label": "x",
                        "pattern": "(?<=look)behind",
                        "component": "gpu",
                        "symptom": "xid-error",
                        "severity": "error",
                        "explanation": "x",
                        "reference": "x",
                    }
                ]
            }
        )
    )
    with pytest.raises(CatalogError, match=r"bad-one.*does not compile"):
        load_catalog(ext)
