"""The output-format contract: a new output is one OutputFormat and one registration;
`incidentbook render --format` and every run's publish pick it up."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import LIBRARY
from incidentbook.cli import main
from incidentbook.outputs.formats import OUTPUTS, OutputFormat, format_for
from incidentbook.outputs.publish import publish
from incidentbook.record.store import load_record


def plain_text(record, taxonomy, *, site_root=None, svgs=None) -> str:
    causes = ", ".join(taxonomy.value("root_cause", v).label for v in record.root_causes)
    return f"{record.title}\nroot causes: {causes}\ncharts: {len(svgs or {})}\n"


@pytest.fixture
def text_output():
    OUTPUTS.register("txt", OutputFormat("txt", (".txt",), plain_text, published=True))
    yield
    OUTPUTS.unregister("txt")


def test_render_takes_a_registered_format(text_output, tmp_path):
    case = sorted(LIBRARY.glob("*.yaml"))[0]
    record = load_record(case)
    got = CliRunner().invoke(main, ["render", str(case), "--format", "txt"])
    assert got.exit_code == 0, got.output
    assert got.output.startswith(record.title + "\n")
    assert format_for(tmp_path / "page.txt") == "txt"
    written = CliRunner().invoke(main, ["render", str(case), "-o", str(tmp_path / "page.txt")])
    assert written.exit_code == 0 and (tmp_path / "page.txt").read_text().startswith(record.title)


def test_publish_writes_every_published_format(text_output, tmp_path):
    record = load_record(sorted(LIBRARY.glob("*.yaml"))[0])
    outputs = publish(record, {}, tmp_path)
    assert outputs.report == tmp_path / "report.html"
    assert outputs.others == [tmp_path / "report.txt"]
    assert "root causes:" in (tmp_path / "report.txt").read_text()


def test_an_unknown_format_is_a_usage_error(tmp_path):
    case = sorted(LIBRARY.glob("*.yaml"))[0]
    got = CliRunner().invoke(main, ["render", str(case), "--format", "pdf"])
    assert got.exit_code == 2 and "'html', 'md'" in got.output
