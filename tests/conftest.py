"""Shared fixtures: paths to the repo and to ../shared, and guards for external parts.

Tests that need ../shared or a Debian package skip with a reason naming what is
missing on a developer's machine, and fail instead in CI (CI=true), where the
project's own scripts install everything.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("INCIDENTBOOK_SHARED", REPO.parent / "shared"))
LIBRARY = REPO / "data" / "library"
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
TRAINER_DATA = REPO / "tests" / "data" / "trainer"


def trainer_rows(name: str, **trainer):
    """A real trainer excerpt (tests/data/trainer) read as the trainer source reads it,
    over all time: its dated rows that have an iteration, and its notes joined."""
    from datetime import UTC, datetime

    import polars as pl

    from incidentbook.incident import TrainerSpec
    from incidentbook.sources.trainer import TrainerLogSource
    from incidentbook.window import TimeWindow

    every = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))
    source = TrainerLogSource([TRAINER_DATA / name], trainer=TrainerSpec(**trainer))
    got, notes = source.rows(every)
    return got.filter(pl.col("iteration").is_not_null()), "\n".join(notes)


CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps calling out to Google's hosts, which this network refuses.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Debian's chromium, headless, as root, offline."""


def logs_incident(tmp_path: Path, files: list[Path], **spec) -> Path:
    """An incident folder holding these files under logs/ and no metrics: incident.yaml's
    fields are `spec` over a minimal description."""
    import yaml

    root = tmp_path / "incident"
    (root / "logs").mkdir(parents=True)
    for path in files:
        shutil.copyfile(path, root / "logs" / path.name)
    described = {"id": "logs-only", "title": "Logs and no metrics", **spec}
    (root / "incident.yaml").write_text(yaml.safe_dump(described))
    return root


def missing(reason: str, provider: str = "scripts/system-deps.sh") -> None:
    """Skip on a developer's machine; in CI a missing part is a failure, never a skip."""
    if IN_CI:
        pytest.fail(f"{reason} (CI must provide it: {provider})")
    pytest.skip(reason)


def require_binary(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        missing(f"needs `{name}` from Debian's `{package}` package (make system-deps)")
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        missing(
            f"needs the shared reference folder at {SHARED}, absent on a fresh clone "
            "(set INCIDENTBOOK_SHARED to point elsewhere)",
            provider="a copy of shared/ beside the checkout",
        )
    return SHARED


@pytest.fixture(scope="session")
def chromium() -> str:
    return require_binary("chromium", "chromium")


@pytest.fixture
def library_files() -> list[Path]:
    return sorted(LIBRARY.glob("*.yaml"))


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def fresh(tmp_path_factory) -> dict[str, Path]:
    """Every scenario generated once per session (small scale, seed 0): the simulator's
    contract tests and the fleet scenarios' verdict tests read the same folders. Under
    pytest-xdist the workers share one copy: the first to get the lock writes it."""
    from incidentbook.scenarios import simulator

    base = tmp_path_factory.getbasetemp()
    # (a worker's base is its own folder inside the run's)
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    root = shared / "synth"
    with _locked(shared / "synth.lock"):
        if not (root / ".complete").exists():
            shutil.rmtree(root, ignore_errors=True)
            for name in simulator.SCENARIOS:
                simulator.synthesize(name, root / name)
            (root / ".complete").touch()
    return {name: root / name for name in simulator.SCENARIOS}
