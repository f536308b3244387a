import os

import pytest

from conftest import LIBRARY
from incidentbook.errors import RecordInvalid
from incidentbook.record.store import atomic_write_text, load_record, load_records, save_record


def test_atomic_write_replaces_the_file(tmp_path):
    path = tmp_path / "a" / "record.yaml"
    atomic_write_text(path, "one\n")
    atomic_write_text(path, "two\n")
    assert path.read_text() == "two\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["record.yaml"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    # A disk that fails at the last step cannot be made on demand; fail the rename instead.
    path = tmp_path / "record.yaml"
    path.write_text("the person's text\n")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="No space left"):
        atomic_write_text(path, "new text\n")
    assert path.read_text() == "the person's text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["record.yaml"]


def test_an_invalid_record_is_never_written(tmp_path):
    record = load_record(LIBRARY / "smollm3-storage-throughput-drops.yaml")
    bad = record.model_copy(update={"components": ["no-such-component"]})
    target = tmp_path / "case.json"
    target.write_text("old")
    with pytest.raises(RecordInvalid, match="no-such-component"):
        save_record(bad, target)
    assert target.read_text() == "old"


def test_load_records_is_sorted_and_rejects_duplicate_ids(tmp_path):
    ids = [r.id for r in load_records(LIBRARY)]
    assert ids == sorted(ids)
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(
            (LIBRARY / "smollm3-storage-throughput-drops.yaml").read_text()
        )
    with pytest.raises(RecordInvalid, match="used by more than one record"):
        load_records(tmp_path)


def test_yaml_written_by_the_tool_keeps_text_exactly(tmp_path):
    record = load_record(LIBRARY / "imbue-h100-cluster-bringup.yaml")
    edited = record.model_copy(
        update={"lessons": "Line one: with a colon.\n\nSecond paragraph # not a comment"}
    )
    path = save_record(edited, tmp_path / "case.yaml")
    assert load_record(path).lessons == edited.lessons


def test_written_files_get_the_usual_mode(tmp_path):
    umask = os.umask(0o022)
    try:
        path = atomic_write_text(tmp_path / "case.json", "{}")
    finally:
        os.umask(umask)
    assert (path.stat().st_mode & 0o777) == 0o644
