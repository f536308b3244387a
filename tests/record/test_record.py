import json
from copy import deepcopy

import pytest
import yaml

from conftest import REPO
from incidentbook.errors import RecordFormatError, RecordInvalid
from incidentbook.record.model import SCHEMA_VERSION, CaseRecord, schema_text
from incidentbook.record.store import load_record, save_record

MINIMAL = {
    "schema_version": SCHEMA_VERSION,
    "id": "test-case",
    "title": "A test case",
    "symptoms": "Throughput fell.",
    "root_causes": ["unknown"],
    "components": ["shared-filesystem"],
    "symptom_tags": ["throughput-drop"],
}


def test_exported_schema_matches_the_model():
    exported = (REPO / "templates" / "case.schema.json").read_text()
    assert exported == schema_text(), (
        "templates/case.schema.json is out of date: "
        "run `incidentbook schema -o templates/case.schema.json`"
    )


def test_schema_marks_facet_fields_and_pins_version():
    schema = json.loads(schema_text())
    assert schema["properties"]["root_causes"]["x-facet"] == "root_cause"
    assert "schema_version" in schema["required"]
    assert schema["additionalProperties"] is False


def test_library_records_validate(library_files):
    assert len(library_files) == 2
    ids = {load_record(p).id for p in library_files}
    assert ids == {p.stem for p in library_files}


def test_yaml_and_json_load_into_the_same_model(library_files, tmp_path):
    for path in library_files:
        record = load_record(path)
        as_json = save_record(record, tmp_path / f"{record.id}.json")
        as_yaml = save_record(record, tmp_path / f"{record.id}.yaml")
        assert load_record(as_json) == record
        assert load_record(as_yaml) == record


def test_datetimes_are_normalised_to_utc():
    data = deepcopy(MINIMAL)
    data["occurred"] = {
        "window": {"start": "2025-03-01T10:00:00+02:00", "end": "2025-03-01T12:00:00+02:00"}
    }
    record = CaseRecord.model_validate(data)
    assert record.occurred.window.start.isoformat() == "2025-03-01T08:00:00+00:00"


def _problems(tmp_path, data, name="case.yaml"):
    path = tmp_path / name
    path.write_text(
        yaml.safe_dump(data, sort_keys=False) if name.endswith(".yaml") else json.dumps(data)
    )
    with pytest.raises(RecordInvalid) as info:
        load_record(path)
    return info.value.problems


def _with(**changes):
    data = deepcopy(MINIMAL)
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        (_with(title=None), "title", "required field is missing"),
        (
            _with(components=["shared-filesytem"]),
            "components[0]",
            "did you mean 'shared-filesystem'",
        ),
        (_with(root_causes=["cosmic-rays"]), "root_causes[0]", "not a known root cause"),
        (_with(occurred={"date": "2025-02-30"}), "occurred.date", "not a real date"),
        (_with(occurred={"date": "March 2025"}), "occurred.date", "YYYY-MM"),
        (_with(scale={"nodes": "many"}), "scale.nodes", "valid integer"),
        (_with(scale={"nodes": 48, "gpus_per_node": 8, "gpus": 400}), "scale", "is 384, not 400"),
        (
            _with(action_items=[{"text": "x", "status": "closed"}]),
            "action_items[0].status",
            "'open' or 'done'",
        ),
        (_with(root_causes=[]), "root_causes", "at least 1"),
        (_with(schema_version="0.9"), "schema_version", "reads '1.0'"),
        (_with(colour="red"), "colour", "not part of the schema"),
        (_with(id="Not A Slug"), "id", "pattern"),
        (
            _with(
                evidence={"window": {"start": "2025-03-01T10:00:00", "end": "2025-03-01T12:00:00Z"}}
            ),
            "evidence.window.start",
            "timezone",
        ),
        (
            _with(
                evidence={
                    "window": {"start": "2025-03-01T12:00:00Z", "end": "2025-03-01T10:00:00Z"}
                }
            ),
            "evidence.window",
            "start must come before the end",
        ),
    ],
)
def test_invalid_records_get_a_sentence_naming_the_field(tmp_path, data, field, words):
    problems = _problems(tmp_path, data)
    assert any(p.field == field and words in p.message for p in problems), [
        str(p) for p in problems
    ]
    assert all(p.file.endswith("case.yaml") for p in problems)


def test_yaml_problems_carry_the_line_number(tmp_path):
    path = tmp_path / "case.yaml"
    text = yaml.safe_dump(_with(components=["storage", "not-a-component"]), sort_keys=False)
    path.write_text(text)
    with pytest.raises(RecordInvalid) as info:
        load_record(path)
    (problem,) = info.value.problems
    expected_line = text.splitlines().index("- not-a-component") + 1
    assert problem.line == expected_line
    assert str(problem).startswith(f"{path}:{expected_line}: components[1]: ")


def test_an_unquoted_impossible_date_in_yaml_is_reported_not_crashed(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(MINIMAL, sort_keys=False) + "occurred:\n  date: 2025-13-01\n")
    with pytest.raises(RecordInvalid) as info:
        load_record(path)
    assert [p.field for p in info.value.problems] == ["occurred.date"]


@pytest.mark.parametrize(
    ("text", "name", "words", "line"),
    [
        ("title: [unclosed\n", "case.yaml", "malformed YAML", 2),
        ("id: a\n  title: b\n bad", "case.yaml", "malformed YAML", 2),
        ('{"id": "a",}', "case.json", "malformed JSON", 1),
        ("- just\n- a list\n", "case.yaml", "mapping of field names", None),
        ("anything", "case.txt", "ends in .yaml", None),
    ],
)
def test_malformed_files_get_a_clear_error(tmp_path, text, name, words, line):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(RecordFormatError) as info:
        load_record(path)
    assert words in str(info.value)
    assert info.value.problem.line == line
