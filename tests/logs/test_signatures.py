"""incidentbook.logs.signatures.match against the catalog's own example table.

The catalog test classifies with a plain per-signature cascade; `match` takes a faster
road (literal prefilter, regex only on candidates). Both must give the same answers.
"""

import json

import polars as pl
import pytest
import yaml
from test_signatures_catalog import NEGATIVES, POSITIVES

from incidentbook.logs.signatures import (
    CatalogError,
    holds_literal,
    load_catalog,
    match,
    required_literals,
)


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


def test_holds_literal_is_the_ascii_case_blind_search():
    # The regex prefilter must say what Aho-Corasick says: ASCII case folded, nothing else
    # folded (the Kelvin sign is not a k, nor the long s an s), metacharacters literal.
    literals = ["xid (", "a.b", "c++", "soft lockup", "[tid ", "x|y", "$5 #~&-"]
    lines = [
        "NVRM: XID (PCI:0000:3b:00): 79",
        "aXb",
        "A.B here",
        "c+ only",
        "C++ exception",
        "SOFT LOCKUP",
        "soft loc\u212aup",
        "\u017foft lockup",
        "worker [TID 12]",
        "x or y",
        "pays $5 #~&- now",
        "",
    ]
    frame = pl.DataFrame({"text": [*lines, None]})
    got = frame.select(holds_literal(pl.col("text"), literals)).to_series()
    want = frame.select(
        pl.col("text").str.contains_any(literals, ascii_case_insensitive=True)
    ).to_series()
    assert got.to_list() == want.to_list()
    assert got.to_list() == [
        True,
        False,
        True,
        False,
        True,
        True,
        False,
        False,
        True,
        False,
        True,
        False,
        None,
    ]
    # A literal beyond ASCII keeps the Aho-Corasick search.
    assert frame.select(holds_literal(pl.col("text"), ["ß"])).to_series().sum() == 0


def test_match_puts_results_back_at_every_row_that_holds_the_text(catalog):
    xid = "NVRM: Xid (PCI:0000:9b:00): 79, pid=1, name=python, GPU has fallen off the bus."
    frame = pl.DataFrame(
        {
            "n": list(range(7)),
            "message": [xid, "plain", None, xid, "NVRM: Xid (PCI:0000:9b:00): 48, DBE", "", xid],
        }
    )
    got = match(frame, catalog)
    assert got.get_column("n").to_list() == list(range(7))
    assert got.get_column("xid").to_list() == [79, None, None, 79, 48, None, 79]
    assert got.get_column("signature").to_list()[:4] == ["nvidia-xid", None, None, "nvidia-xid"]
    assert got.schema["xid"] == pl.Int64 and got.schema["fields"] == pl.String
    empty = match(frame.clear(), catalog)
    assert empty.height == 0 and "signature_severity" in empty.columns


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


def test_an_extensions_server_field_must_be_a_group_of_its_pattern(tmp_path):
    ext = tmp_path / "mine.yaml"
    signature = {
        "id": "my-nfs",
        "label": "x",
        "pattern": "nfs: server (?P<server>\\S+) not responding",
        "component": "shared-filesystem",
        "symptom": "filesystem-error",
        "severity": "error",
        "servers": ["nfs_host"],
        "explanation": "x",
        "reference": "x",
    }
    ext.write_text(yaml.safe_dump({"signatures": [signature]}))
    with pytest.raises(CatalogError, match=r"my-nfs.*servers names nfs_host, not a named group"):
        load_catalog(ext)
    ext.write_text(yaml.safe_dump({"signatures": [signature | {"servers": ["server"]}]}))
    assert load_catalog(ext).get("my-nfs").servers == ["server"]


def test_what_a_line_says_outranks_what_its_xid_usually_means(catalog):
    # Xid 154 is informational as a code, but the action it names is the news: a reset
    # or reboot now required is an error; a return to no action is not.
    lines = [
        "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 "
        "(GPU Reset Required)",
        "NVRM: Xid (PCI:0000:01:00): 154, GPU recovery action changed from 0x1 (GPU Reset "
        "Required) to 0x0 (None)",
    ]
    got = match(pl.DataFrame({"message": lines}), catalog)
    assert got.get_column("xid").to_list() == [154, 154]
    assert got.get_column("signature_severity").to_list() == ["error", "info"]


def test_an_nccl_warning_that_a_feature_is_off_is_information(catalog):
    lines = [
        "z292:58192:58200 [2] /long_pathname_so_that_rpms_can_package_the_debug_info/src/rccl/"
        "build/hipify/src/init.cc:2065 NCCL WARN MSCCL++: Cannot enable MSCCL++; environment "
        "is not MSCCL compatible",
        "gpu1:1234:5678 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<36482> with "
        "error 12, opcode 0, len 0, vendor err 129",
    ]
    got = match(pl.DataFrame({"message": lines}), catalog)
    assert got.get_column("signature").to_list() == ["nccl-error", "nccl-ib-error"]
    assert got.get_column("signature_severity").to_list()[0] == "info"
