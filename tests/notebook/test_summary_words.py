"""The workbook's summary says counts as a person would: finding kinds in words with
their plurals, most first; one anomaly, not '1 anomalies'."""

from __future__ import annotations

import re

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.notebook import cells
from incidentbook.text import counted, kinds_counted


def test_counts_take_their_noun_in_the_right_number():
    assert counted(1, "host") == "1 host"
    assert counted(2, "host") == "2 hosts"
    assert counted(1, "anomaly", "anomalies") == "1 anomaly"
    assert counted(1200, "anomaly", "anomalies") == "1,200 anomalies"


def test_finding_kinds_read_as_words_most_first():
    text = kinds_counted({"new_template": 3, "drop": 28, "signature": 1, "spike": 15})
    assert text == "28 drops, 15 spikes, 3 new kinds of log line and 1 known error signature"
    assert kinds_counted({"failure_rate": 1}) == "1 failure rate above normal"


def test_the_summary_of_the_bundled_incident_has_no_internal_names():
    inv = investigate(REPO / "data" / "incidents" / "smollm3-storage")
    text = cells.summary(inv).data
    assert "Found: " in text
    # no snake_case kind names and no count with a noun in the wrong number
    assert not re.search(r"\b[a-z]+_[a-z_]+ \d", text), text
    assert not re.search(r"\b1 (hosts|anomalies|drops|spikes)\b", text), text


def test_finding_sentences_say_numbers_units_and_names_as_a_person_would():
    inv = investigate(REPO / "data" / "incidents" / "imbue-bringup")
    text = "\n".join(f.summary for f in inv.findings)
    assert not re.search(r"\b1 (lines|hosts)\b", text), "a count of one with a plural noun"
    assert not re.search(r"\b1 (of \d+ )?hosts? (stood|stand) out[^\n]*their peers", text)
    assert not re.search(r"\b1 of \d+ hosts stand out", text)
    assert "stand out on gpu" not in text  # the label keeps its capitals
    # an Xid names its GPU in words, not as a bare number in brackets
    xids = [f.summary for f in inv.findings if f.signal == "xid_errors"]
    assert xids and all(re.search(r"^Xid error \d+ on \S+ GPU \d+ from", s) for s in xids), xids


def test_the_drafted_symptoms_say_the_baseline_in_its_unit():
    from incidentbook.record.draft import draft_symptoms

    text = draft_symptoms(investigate(REPO / "data" / "incidents" / "imbue-bringup"))
    # a ratio's baseline was printed as '0 ratio', and the label lost its capitals
    assert re.search(r"Model FLOPs utilisation fell \d+ times", text), text
    assert "away from its baseline of 41.5%." in text


def test_one_anomaly_of_the_primary_is_said_in_its_own_words(tmp_path):
    import numpy as np
    from incidents import samples, write_incident

    from incidentbook.record.draft import draft_symptoms

    rng = np.random.default_rng(5)
    values = 1000 + rng.normal(0, 5, 720)
    values[400:460] *= 0.5  # one 30-minute drop
    root = write_incident(tmp_path / "inc", [samples("trainer_tokens_per_second", values)])
    text = draft_symptoms(investigate(root))
    assert "1 times" not in text
    assert "to be confirmed: Training throughput fell to 500 tokens/s against" in text
