"""The console script, run as a user runs it: a subprocess, exit status, what it prints."""

import subprocess
import sys
from pathlib import Path

import yaml

from conftest import LIBRARY, REPO

EXE = Path(sys.executable).with_name("incidentbook")


def run(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, cwd=cwd, check=False)


def test_validate_library_exits_zero():
    result = run("validate", str(LIBRARY))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 valid, 0 invalid" in result.stderr


def test_validate_reports_each_problem_as_a_line_and_exits_one(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text((LIBRARY / "smollm3-storage-throughput-drops.yaml").read_text())
    data = yaml.safe_load(good.read_text())
    data["id"] = "broken-case"
    data["components"] = ["shared-filesystem", "wekafs"]
    del data["title"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False))
    (tmp_path / "worse.json").write_text("{not json")

    result = run("validate", str(tmp_path))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert any(
        line.startswith(f"{bad}:") and "title: this required field is missing" in line
        for line in lines
    )
    assert any("components[1]: 'wekafs' is not a known component id" in line for line in lines)
    assert any(line.startswith(f"{tmp_path / 'worse.json'}:1: malformed JSON") for line in lines)
    assert "Traceback" not in result.stdout + result.stderr
    assert "1 valid, 2 invalid" in result.stderr


def test_validate_with_a_taxonomy_extension(tmp_path):
    record = yaml.safe_load((LIBRARY / "smollm3-storage-throughput-drops.yaml").read_text())
    record["components"] = ["wekafs"]
    path = tmp_path / "case.yaml"
    path.write_text(yaml.safe_dump(record))
    assert run("validate", str(path)).returncode == 1
    ext = tmp_path / "taxonomy.yaml"
    ext.write_text(
        yaml.safe_dump(
            {
                "facets": {
                    "component": {
                        "values": [
                            {
                                "id": "wekafs",
                                "label": "WekaFS",
                                "description": "Weka's filesystem.",
                                "parent": "shared-filesystem",
                            }
                        ]
                    }
                }
            }
        )
    )
    result = run("validate", "--taxonomy", str(ext), str(path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_bad_taxonomy_file_is_an_error_not_a_traceback(tmp_path):
    ext = tmp_path / "taxonomy.yaml"
    ext.write_text("facets: {colour: {values: []}}\n")
    result = run("validate", "--taxonomy", str(ext), str(LIBRARY))
    assert result.returncode == 1
    assert "error: the extension names facet 'colour'" in result.stderr
    assert "Traceback" not in result.stderr


def test_render_html_and_markdown(tmp_path):
    case = LIBRARY / "imbue-h100-cluster-bringup.yaml"
    html = tmp_path / "imbue.html"
    assert run("render", str(case), "-o", str(html)).returncode == 0
    page = html.read_text()
    assert page.startswith("<!doctype html>")
    # nothing fetched: no external stylesheet or script
    assert "http" not in page.split("<body>")[0]
    md = run("render", str(case), "--format", "md")
    assert md.returncode == 0
    headings = [line for line in md.stdout.splitlines() if line.startswith("## ")]
    assert headings[:9] == [
        "## Symptoms",
        "## Trigger",
        "## Root cause",
        "## Component",
        "## Contributing factor",
        "## Detection",
        "## Remediation",
        "## Action items",
        "## Lessons",
    ]


def test_render_of_an_invalid_record_says_why(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_text("schema_version: '1.0'\nid: x\n")
    result = run("render", str(path))
    assert result.returncode == 1
    assert "title: this required field is missing" in result.stderr


def test_library_build_prints_the_index(tmp_path):
    result = run("library", "build", str(LIBRARY), "-o", str(tmp_path / "site"))
    assert result.returncode == 0, result.stderr
    index = Path(result.stdout.strip())
    assert index == tmp_path / "site" / "index.html"
    assert (tmp_path / "site" / "by" / "component" / "storage.html").exists()
    assert len(list((tmp_path / "site" / "cases").glob("*.html"))) == 2


def test_taxonomy_show_lists_a_facet_as_a_tree():
    result = run("taxonomy", "show", "component")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    storage = next(i for i, line in enumerate(lines) if line.split()[0] == "storage")
    assert lines[storage + 1].startswith("    shared-filesystem")
