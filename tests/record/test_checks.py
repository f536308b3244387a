"""Checks in the case record: the model, the PromQL validation, the library's checks."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from conftest import LIBRARY
from incidentbook.cli import main
from incidentbook.errors import RecordInvalid
from incidentbook.metrics.signals import load_pack
from incidentbook.record.checks import (
    HealthCheck,
    LogCheck,
    MetricCheck,
    compile_case,
    fill,
    promql_problem,
)
from incidentbook.record.model import schema
from incidentbook.record.store import load_record, save_record

SMOLLM3 = LIBRARY / "smollm3-storage-throughput-drops.yaml"
IMBUE = LIBRARY / "imbue-h100-cluster-bringup.yaml"


def test_the_library_cases_carry_their_checks():
    smol = load_record(SMOLLM3)
    imbue = load_record(IMBUE)
    assert [(c.kind, c.id) for c in smol.checks] == [
        ("promql", "shared-fs-read-latency"),
        ("promql", "shared-fs-near-capacity"),
    ]
    assert {c.id: c.kind for c in imbue.checks} == {
        "host-not-up": "health",
        "pcie-link-downtrained": "health",
        "infiniband-link-flaps": "promql",
        "fans-pinned": "health",
        "cpu-clock-capped": "health",
        "nvme-hang": "log",
    }
    assert all(not c.drafted and c.message for c in [*smol.checks, *imbue.checks])


def test_promql_checks_reuse_the_signal_packs_expressions():
    pack = load_pack("default")
    for path in (SMOLLM3, IMBUE):
        for check in load_record(path).checks:
            if isinstance(check, MetricCheck):
                assert check.expr == pack.get(check.signal).promql, check.id


def test_every_compiled_alert_expression_parses():
    for path in (SMOLLM3, IMBUE):
        for rule in compile_case(load_record(path)):
            assert promql_problem(rule.expr) is None, rule.expr
            assert "$" not in rule.expr


def _with_checks(checks: list[dict]) -> dict:
    data = yaml.safe_load(SMOLLM3.read_text())
    data["checks"] = checks
    return data


GOOD = {
    "id": "latency",
    "kind": "promql",
    "signal": "disk_read_latency",
    "op": ">",
    "threshold": 0.01,
    "for": "1m",
    "expr": "max by (node) (rate(node_disk_read_time_seconds_total{$selector}[$rate]))",
    "message": "slow reads",
}


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"expr": "sum by (node) (rate(x[5m])"}, "checks[0].expr", "unclosed left parenthesis"),
        ({"expr": "rate(node_disk_reads_completed_total)"}, "checks[0].expr", "expected type"),
        ({"expr": "node_disk_reads_completed_total[5m]"}, "checks[0].expr", "not valid PromQL"),
        ({"expr": "no_such_function(up)"}, "checks[0].expr", "unknown function"),
        ({"for": "five minutes"}, "checks[0].for", "not a Prometheus duration"),
        ({"op": "=>"}, "checks[0].op", "input should be"),
        ({"kind": "sql"}, "checks[0]", "does not match any of the expected tags"),
    ],
)
def test_invalid_checks_are_refused_with_the_case_and_field_named(tmp_path, change, field, words):
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(_with_checks([{**GOOD, **change}])))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    line = next(ln for ln in result.output.splitlines() if field in ln)
    assert str(path) in line and words.lower() in line.lower()
    if field.endswith("expr"):
        assert "case smollm3-storage-throughput-drops" in line


def test_log_and_health_checks_are_validated(tmp_path):
    checks = [
        {"id": "a", "kind": "log", "signature": "nvme-io-timeot", "window": "10m"},
        {"id": "b", "kind": "health", "assert": "pcie-width"},
        {"id": "b", "kind": "health", "assert": "host-up"},
    ]
    path = tmp_path / "case.json"
    path.write_text(json.dumps(_with_checks(checks)))
    with pytest.raises(RecordInvalid) as caught:
        load_record(path)
    text = "\n".join(map(str, caught.value.problems))
    assert "checks[0].signature" in text and "did you mean 'nvme-io-timeout'" in text
    assert "checks[1].assert" in text
    assert "check ids must be unique" not in text  # only reported once the items are valid

    ok = [{**checks[0], "signature": "nvme-io-timeout"}, checks[2], {**checks[2], "id": "b"}]
    path.write_text(json.dumps(_with_checks(ok)))
    with pytest.raises(RecordInvalid, match="check ids must be unique in a case: b"):
        load_record(path)


def test_checks_round_trip_with_for_written_as_for(tmp_path):
    record = load_record(IMBUE)
    out = save_record(record, tmp_path / "case.yaml")
    text = out.read_text()
    assert "for: 15m" in text and "for_" not in text and "assert: host-up" in text
    again = load_record(out)
    assert again.checks == record.checks
    kinds = [type(c) for c in again.checks]
    assert {HealthCheck, LogCheck, MetricCheck} == set(kinds)


def test_the_json_schema_covers_checks():
    checks = schema()["properties"]["checks"]
    assert checks["items"]["discriminator"]["propertyName"] == "kind"
    defs = schema()["$defs"]
    assert {"for", "expr", "threshold", "op", "signal"} <= set(defs["MetricCheck"]["properties"])
    assert {"signature", "count", "window"} <= set(defs["LogCheck"]["properties"])
    assert "assert" in defs["HealthCheck"]["properties"]


def test_fill_leaves_no_empty_selector():
    assert fill('max by (node) (up{job="node",$selector})') == 'max by (node) (up{job="node"})'
    assert fill("x{$selector} / y{$selector}", {"cluster": 'a"b'}) == (
        'x{cluster="a\\"b"} / y{cluster="a\\"b"}'
    )
    assert fill("rate(x{$selector}[$rate])", rate="2m") == "rate(x[2m])"
