"""The real-line corpus benchmark (bench/log_corpus.py): its scoring rules on hand-made
results, then the run on tests/logs/corpus and the issue's goals."""

from __future__ import annotations

import json
import sys

import polars as pl
import pytest
import yaml

from conftest import REPO

if str(REPO) not in sys.path:  # `pytest` (not `python -m pytest`) leaves the root off the path
    sys.path.insert(0, str(REPO))

from bench import log_corpus

CORPUS = REPO / "tests" / "logs" / "corpus"


def entry(line: str, expect: str, klass: str, **kw) -> log_corpus.Entry:
    return log_corpus.Entry.model_validate(
        {"line": line, "expect": expect, "class": klass, "source": "s", "split": "dev", **kw}
    )


def got(*rows: tuple) -> pl.DataFrame:
    return pl.DataFrame(
        list(rows),
        schema={"signature": pl.String, "fields": pl.String, "severity": pl.String},
        orient="row",
    )


def test_found_needs_a_notable_signature_of_the_class():
    entries = [
        entry("x", "error", "nvidia-xid", fields={"xid": 79, "pci": "0000:44:00"}),
        entry("y", "error", "nvidia-xid"),
        entry("z", "warning", "nvidia-xid"),
        entry("w", "benign", "nccl-info"),
        entry("v", "benign", "nccl-info"),
        entry("u", "error", "a-class-nobody-mapped"),
    ]
    scored = log_corpus.score(
        entries,
        got(
            ("nvidia-xid", json.dumps({"xid": "79", "pci": "0000:44:00"}), "error"),
            ("hung-task", None, "warning"),  # a signature, not of its class
            ("nvidia-xid", None, "info"),  # of its class, but info is no finding
            ("nccl-error", None, "error"),  # a false match
            ("link-up", None, "info"),  # info signatures name normal events
            ("hung-task", None, "warning"),  # unmapped classes take any notable signature
        ),
    )
    assert scored.get_column("found").to_list() == [True, False, False, None, None, True]
    assert scored.get_column("false_match").to_list() == [None, None, None, True, False, None]
    assert scored.get_column("xid_ok").to_list()[0] is True
    assert scored.get_column("pci_ok").to_list()[0] is True
    assert log_corpus.accepted(entries[-1]) is None


def test_the_bundled_corpus_is_well_formed():
    entries = log_corpus.load_corpus(CORPUS)
    assert len(entries) == 5038
    assert {e.split for e in entries} == {"dev", "holdout"}
    assert sum(e.expect != "benign" for e in entries) >= 150
    assert sum(e.expect == "benign" for e in entries) >= 50
    # every line keeps the source it was copied from
    raw = yaml.safe_load((CORPUS / "lines.yaml").read_text(encoding="utf-8"))
    assert all(item["source"] for item in raw)


def test_missing_corpus_exits_2(tmp_path, capsys):
    assert log_corpus.main(["--data", str(tmp_path)]) == 2
    assert "lines.yaml" in capsys.readouterr().err


@pytest.fixture(scope="module")
def result():
    return log_corpus.evaluate(CORPUS)


def test_the_whole_corpus_keeps_its_figures(result):
    """Issue 11's goals: recall >= 0.95 through the catalog and >= 0.9 through the readers,
    no false match. The catalog fell below its goal when blind sets were added whole (0.938
    on 2100 lines), was back above it (0.9508 on 2753) from signatures for the families
    its misses belonged to, fell just below it (0.9494 on 2824) with the twenty-second
    blind set, of Kubernetes components and storage clients, in (MANIFEST, Split), and is
    above it again from families checked on real lines gathered apart (a Fabric Manager
    of another driver version, AER unable to find a source, cloud instances not launched,
    KFD's scheduler hanging, 5xx answers) and the twenty-third blind set's (IMEX, CUDA's
    `system not yet initialized`, NVLS memory NCCL cannot bind, glibc's heap aborts).
    The twenty-fourth set, mostly benign lines, took it to 0.9504 on 2979 lines, one line
    above the goal; the kubelet's failed health probes, a family, to 0.9509. Three more
    blind sets (training software, the node, the scheduler and storage; 220 lines) found
    104 of 151 before they were read and, widened for their families, 0.952; a mixed set
    gathered after that to measure it, 42 of 54 (0.78), and 0.951 with it in; a second
    false-alarm hunt, 0.9501 on 3350 lines (0.9496 without one disputed label). Three more
    blind sets (accelerators beyond NVIDIA's and their fabrics, MPI and XLA's coordination,
    BMC formats and cluster services; 225 lines) found 82 of 152 before they were read;
    widened for their families, 0.951 on 3575 lines; a mixed set gathered after them to
    measure the catalog, 20 of 35 (0.57), and 0.950 with it in (2187 of 2302). The lines
    still missed name no family worth a signature, or carry a label open to question
    (nvidia-peermem's `invalid context`, a Thunderbolt bridge's window left unplaced, a
    hung task's detail line, which would count each hung task twice)."""
    catalog, readers = result["ways"]["catalog"], result["ways"]["readers"]
    # Measured on the core corpus (dev and holdout, reach apart): catalog 0.950, readers 0.947.
    assert catalog["total"]["recall"] >= 0.95
    assert readers["total"]["recall"] >= 0.9
    assert catalog["total"]["false_matches"] == readers["total"]["false_matches"] == 0
    xid_ok, xid_n = catalog["total"]["xid"]
    assert xid_n >= 30 and xid_ok == xid_n
    assert set(catalog["splits"]) == {"dev", "holdout"}


def test_render_and_json_give_the_same_run(result):
    text = log_corpus.render(result)
    assert "catalog  holdout" in text and "readers  dev" in text
    assert "nvidia-xid" in text
    assert json.loads(json.dumps(result)) == result


def test_lines_beyond_the_catalogs_domain_are_reported_apart(tmp_path):
    # A `reach` line (a service around the cluster) is scored, but neither helps nor hurts
    # the figures the goals are set on.
    lines = [
        {
            "line": "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.",
            "expect": "error",
            "class": "nvidia-xid",
            "source": "s1",
            "split": "dev",
        },
        {
            # (an LDMS daemon's own error, which the catalog does not know)
            "line": "Fri Dec 13 07:57:32 2019: ERROR     : Error 7 listening on the 'rdma' "
            "transport.",
            "expect": "error",
            "class": "network-storage-error",
            "source": "s2",
            "split": "dev",
            "scope": "reach",
        },
    ]
    (tmp_path / "lines.yaml").write_text(yaml.safe_dump(lines), encoding="utf-8")
    result = log_corpus.evaluate(tmp_path)
    catalog = result["ways"]["catalog"]
    assert (catalog["total"]["found"], catalog["total"]["errors"]) == (1, 1)
    assert (catalog["reach"]["found"], catalog["reach"]["errors"]) == (0, 1)
    assert "beyond the catalog's domain" in log_corpus.render(result)
