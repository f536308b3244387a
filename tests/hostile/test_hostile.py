"""The hostile-input suite: every case of cases.py gets the outcome it declares, a clear
error or a note, never a traceback and never silence; and the README's table of them is
the one this catalogue gives."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from incidentbook.cli import main

from .cases import AREAS, CASES, REPO, Case
from .table import README_BEGIN, README_END, table

CLI_CASES = [c for c in CASES if c.build is not None]


def classify(exit_code: int, out: str, err: str, exception: BaseException | None) -> str:
    """The outcome class of one command: traceback, error, note or silent."""
    text = out + err
    if "Traceback (most recent call last)" in text or "internal error" in text:
        return "traceback"
    if exception is not None and not isinstance(exception, SystemExit):
        return "traceback"
    if exit_code != 0:
        return "error"
    if any(line.startswith("note:") for line in text.splitlines()):
        return "note"
    return "silent"


def _notes(out: str) -> list[str]:
    """The notes a command printed, each as one line (the console wraps long ones)."""
    notes: list[str] = []
    for line in out.splitlines():
        if line.startswith("note:"):
            notes.append(line)
        elif notes and line.strip() and not line.startswith(("│", "┃", "┏", "└", "╭")):
            notes[-1] += " " + line
    return [" ".join(n.split()) for n in notes]


ENV = {"COLUMNS": "1000", "NO_COLOR": "1", "TERM": "dumb"}
EXE = Path(sys.executable).with_name("incidentbook")


def _run(argv: list[str]):
    # Wide, plain output, so a sentence is never cut across lines by the table renderer.
    return CliRunner(env=ENV).invoke(main, argv, catch_exceptions=True)


def _check(c: Case, tmp_path: Path, argv: list[str], status: int, out: str, err: str, exc) -> None:
    got = classify(status, out, err, exc)
    assert got == c.expect, f"{c.id}: expected {c.expect}, got {got}\n{out[-3000:]}\n{err[-3000:]}"
    said = " ".join((out + err).split())  # sentences as one line, whatever the wrapping
    if c.expect == "error":
        # `validate` lists the problems on standard output, one per line; other commands
        # print one `error:` sentence on standard error.
        assert err.startswith(("error:", "Usage:")) or argv[0] == "validate", err
        if c.exit is not None:
            assert status == c.exit, (status, err)
        where = said
    else:
        where = " ".join(_notes(out))
    for words in c.words:
        assert words in where, f"{c.id}: {words!r} not in\n{where}"
    if c.secret is not None:
        assert c.secret not in said
        written = [p for p in tmp_path.rglob("*") if p.is_file()]
        assert not [p for p in written if c.secret in p.read_text(errors="replace")]
        assert not (tmp_path / "out" / "incident.ipynb").exists()


@pytest.mark.parametrize("c", CLI_CASES, ids=[c.id for c in CLI_CASES])
def test_hostile_input(c: Case, tmp_path):
    """Each case through the command's code in this process (`main`, as the entry point
    calls it); INCIDENTBOOK_HOSTILE_PROCESSES=1 runs each in a process of its own."""
    argv = c.build(tmp_path)
    if os.environ.get("INCIDENTBOOK_HOSTILE_PROCESSES") == "1":
        done = _process(argv)
        _check(c, tmp_path, argv, done.returncode, done.stdout, done.stderr, None)
        return
    result = _run(argv)
    _check(c, tmp_path, argv, result.exit_code, result.stdout, result.stderr, result.exception)


# One case of each area through the installed entry point, in a process of its own: what a
# person's shell runs, interpreter start and exit included.
ONE_PER_AREA = [next(c for c in CLI_CASES if c.area == area) for area in AREAS[:-1]]


def _process(argv: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **ENV}
    env.pop("INCIDENTBOOK_DEBUG", None)
    return subprocess.run([str(EXE), *argv], capture_output=True, text=True, env=env, timeout=300)


@pytest.mark.parametrize("c", ONE_PER_AREA, ids=[c.id for c in ONE_PER_AREA])
def test_hostile_input_through_the_installed_command(c: Case, tmp_path):
    argv = c.build(tmp_path)
    done = _process(argv)
    _check(c, tmp_path, argv, done.returncode, done.stdout, done.stderr, None)


def test_every_area_has_cases_and_there_are_at_least_sixty():
    assert {c.area for c in CASES} == set(AREAS)
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)


def test_process_cases_name_a_test_that_exists():
    from . import test_work_is_kept

    for c in CASES:
        if c.build is None:
            assert callable(getattr(test_work_is_kept, c.test, None)), c


def test_the_real_command_shows_no_traceback_and_exits_nonzero(tmp_path):
    """The installed entry point, in a process of its own, on one broken input."""
    from .build import incident

    root = incident(tmp_path / "i")
    (root / "incident.yaml").write_bytes(b"id: x\ntitle: Caf\xe9\n")
    done = subprocess.run([str(EXE), "analyze", str(root)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and "not UTF-8" in done.stderr
    assert "Traceback" not in done.stderr


def test_unexpected_failures_are_reported_as_bugs_and_debug_shows_them(monkeypatch, tmp_path):
    """Nothing in the package fails this way on purpose, so the fault is put at one
    boundary the CLI calls (the record loader)."""
    import incidentbook.cli as cli

    def broken(*_args, **_kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(cli, "load_record", broken)
    record = REPO / "data" / "library" / "smollm3-storage-throughput-drops.yaml"
    result = _run(["render", str(record)])
    assert result.exit_code == 70
    assert "internal error: ZeroDivisionError: division by zero" in result.stderr
    assert "please report it" in result.stderr and "--debug" in result.stderr
    assert "Traceback" not in result.stderr
    debug = CliRunner().invoke(main, ["--debug", "render", str(record)])
    assert isinstance(debug.exception, ZeroDivisionError)  # raised through: a traceback


def test_the_readme_table_is_the_catalogues():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    expected = table(CASES)
    if os.environ.get("INCIDENTBOOK_WRITE_README") == "1":
        head, rest = readme.split(README_BEGIN, 1)
        _, tail = rest.split(README_END, 1)
        readme = f"{head}{README_BEGIN}\n{expected}{README_END}{tail}"
        (REPO / "README.md").write_text(readme, encoding="utf-8")
    assert README_BEGIN in readme and README_END in readme, "README has no bad-input table"
    block = readme.split(README_BEGIN, 1)[1].split(README_END, 1)[0]
    assert block.strip() == expected.strip(), (
        "README's bad-input table differs from tests/hostile/cases.py; rerun with "
        f"INCIDENTBOOK_WRITE_README=1 to write it:\n{expected}"
    )
