"""A non-editable install works: the wheel holds the workbook, the bundled resources and
the console script, and `incidentbook run` executes the bundled incident with it.

The fresh virtual environment gets the wheel (no dependencies) and, to stay quick, sees
the development environment's site-packages through a .pth line; the editable install's
own .pth is not processed there, so the incidentbook imported is the wheel's (checked).
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import REPO

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


def run(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("wheel")
    built = run(
        sys.executable, "-m", "pip", "wheel", REPO, "--no-deps", "--no-build-isolation",
        "-w", root / "dist",
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = (root / "dist").glob("incidentbook-*.whl")
    venv = root / "venv"
    made = run(sys.executable, "-m", "venv", "--without-pip", venv)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    Path(site.stdout.strip(), "dev-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n"
    )
    pip = run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", wheel)
    assert pip.returncode == 0, pip.stdout[-2000:] + pip.stderr[-2000:]
    return venv


def test_the_wheel_is_what_gets_imported(installed):
    code = "import incidentbook; print(incidentbook.__file__)"
    where = run(installed / "bin" / "python", "-c", code)
    assert Path(where.stdout.strip()).is_relative_to(installed), where.stdout + where.stderr


def test_run_works_after_a_plain_install(installed, tmp_path):
    out = tmp_path / "out"
    done = run(installed / "bin" / "incidentbook", "run", INCIDENT, "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [str(out / "incident.ipynb"), str(out / "case.json"),
                                   str(out / "report.html")]  # fmt: skip
    record = json.loads((out / "case.json").read_text())
    assert record["evidence"]["correlations"][0]["signal"] == "disk_read_latency"
    # The kernel ran the wheel's incidentbook too: outside a checkout the record names the
    # incident folder by its absolute path (a checkout's own runs name it relative to it).
    assert record["evidence"]["source"] == str(INCIDENT)
    assert (out / "report.html").stat().st_size > 10_000
