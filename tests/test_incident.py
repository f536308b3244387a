"""incident.yaml: every way it can be wrong is a sentence about it, with its line; what
the analysis assumes about its baseline is said (issue 17)."""

from datetime import timedelta

import numpy as np
import pytest
import yaml
from incidents import T0, samples, unreadable_file, write_incident

from incidentbook.incident import IncidentFolder, IncidentFolderError
from incidentbook.investigation import investigate


def _spec(root):
    return yaml.safe_load((root / "incident.yaml").read_text())


def _write(root, spec):
    (root / "incident.yaml").write_text(yaml.safe_dump(spec, sort_keys=False))


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "is empty; an incident.yaml holds at least id, title, window and cluster"),
        (b"# nothing yet\n\n", "is empty"),
        (b"- id: x\n", "must be a mapping of fields"),
        (b"id: caf\xe9\n", "is not UTF-8 text"),
        (b"id: x\nwindow: {start: 2025-02-30T08:00:00Z}\n", "window.start"),
        (b"id: [x\n", "is not valid YAML (line 2)"),
    ],
)
def test_a_broken_incident_yaml_is_a_sentence_about_it(tmp_path, content, words):
    (tmp_path / "incident.yaml").write_bytes(content)
    with pytest.raises(IncidentFolderError) as info:
        IncidentFolder(tmp_path)
    assert str(tmp_path / "incident.yaml") in str(info.value)
    assert words in str(info.value)
    assert "got None" not in str(info.value)


def test_an_unreadable_incident_yaml_says_why(tmp_path):
    # Tests run as root, for whom permissions are no obstacle: a folder in the file's
    # place is a real read failure of the same kind (open() raises an OSError).
    (tmp_path / "incident.yaml").mkdir()
    with pytest.raises(
        IncidentFolderError, match="cannot be read \\(it is a folder, not a file\\)"
    ):
        IncidentFolder(tmp_path)


def test_an_unreadable_incident_yaml_permission(tmp_path):
    """A real PermissionError, raised where the file is opened."""
    if not unreadable_file(tmp_path / "incident.yaml"):
        pytest.skip("no file here that this user cannot read")
    with pytest.raises(IncidentFolderError, match="permission denied: give the user") as info:
        IncidentFolder(tmp_path)
    assert str(tmp_path / "incident.yaml") in str(info.value)


def test_signal_overrides_are_blamed_on_incident_yaml_and_its_line(tmp_path):
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", np.ones(10))])
    spec = _spec(root)
    spec["signals"] = {"thruput": {"metric": "x"}, "throughput": {"metrc": "y"}}
    _write(root, spec)
    with pytest.raises(IncidentFolderError) as info:
        IncidentFolder(root).signal_pack()
    message = str(info.value)
    lines = (root / "incident.yaml").read_text().splitlines()
    thruput = next(i for i, line in enumerate(lines, 1) if "thruput" in line)
    metrc = next(i for i, line in enumerate(lines, 1) if "metrc" in line)
    assert f"incident.yaml:{thruput}: signals.thruput: 'thruput' is not a signal" in message
    assert "did you mean 'throughput'?" in message
    assert f"incident.yaml:{metrc}: signals.throughput.metrc: this field is not part" in message
    assert "signal pack default" not in message and "is not a valid signal pack" not in message


def test_a_new_signal_in_overrides_is_still_welcome(tmp_path):
    root = write_incident(tmp_path, [samples("my_metric", np.ones(10))])
    spec = _spec(root)
    spec["signals"] = {"mine": {"label": "Mine", "kind": "gauge", "metric": "my_metric"}}
    _write(root, spec)
    assert IncidentFolder(root).signal_pack().get("mine").metric == "my_metric"


def test_an_unknown_primary_signal_is_blamed_on_incident_yaml(tmp_path):
    root = write_incident(tmp_path, primary="thruput")
    with pytest.raises(IncidentFolderError, match=r"incident.yaml:\d+: primary_signal: 'thruput'"):
        IncidentFolder(root).signal_pack()


def _notes(inv, source_suffix="incident.yaml"):
    return [a for a in inv.metrics.receipt.assumptions if a.source.endswith(source_suffix)]


def test_a_baseline_outside_the_window_is_replaced_and_that_is_said(tmp_path):
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", np.ones(720))])
    spec = _spec(root)
    spec["baseline"] = {
        "start": (T0 - timedelta(hours=3)).isoformat(),
        "end": (T0 - timedelta(hours=2)).isoformat(),
    }
    _write(root, spec)
    inv = investigate(root, logs=False)
    (note,) = _notes(inv)
    assert note.action == "assumed" and "does not start inside the window" in note.text
    assert inv.baseline.start == T0  # the default: the window's start
    assert any("does not start inside the window" in n for n in inv.notes)


def test_a_window_so_long_its_default_baseline_is_empty_says_so(tmp_path):
    root = write_incident(
        tmp_path, [samples("trainer_tokens_per_second", np.ones(720))], baseline_hours=None
    )
    spec = _spec(root)
    spec["window"] = {"start": "2020-01-01T00:00:00Z", "end": "2030-01-01T00:00:00Z"}
    _write(root, spec)
    inv = investigate(root, logs=False)
    (note,) = _notes(inv)
    assert "is empty: it holds no samples of any signal" in note.text
    assert "measured over the whole window" in note.text
    assert any("is empty" in n for n in inv.notes)


def test_a_baseline_with_data_says_nothing(tmp_path):
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", np.ones(720))])
    assert _notes(investigate(root, logs=False)) == []
