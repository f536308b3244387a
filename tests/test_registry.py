"""The one registry shape: defaults by import string, installed plug-ins found through
entry points (a real distribution on sys.path, as pip would install it), entries added
in code, and the errors a user meets."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.registry import Lazy, Registry, RegistryError, instance_of
from incidentbook.sources import SOURCES, FolderSource, open_source

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


def install(root: Path, name: str, modules: dict[str, str], entry_points: str) -> None:
    """A distribution laid out as pip leaves it: the modules and NAME.dist-info."""
    for module, text in modules.items():
        (root / f"{module}.py").write_text(textwrap.dedent(text))
    info = root / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A package that adds a source for logs kept elsewhere (`logdir://PATH`)."""
    install(
        tmp_path,
        "incidentbook_logdir",
        {
            "incidentbook_logdir": """
                from incidentbook.logs.read import read_logs

                class LogDir:
                    def __init__(self, path):
                        self.path = path

                    def metrics(self, window, signals):
                        return None  # logs only: the folder's metrics are used

                    def logs(self, window):
                        return read_logs(self.path, window)

                def open_logdir(uri, **options):
                    return LogDir(uri.removeprefix("logdir://"))
            """
        },
        """
        [incidentbook.sources]
        logdir = incidentbook_logdir:open_logdir
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    SOURCES.refresh()
    yield tmp_path
    monkeypatch.undo()
    SOURCES.refresh()


def test_an_installed_package_adds_a_source_without_touching_incidentbook(plugin, tmp_path):
    assert "logdir" in SOURCES.names()
    # The same logs, kept outside the incident folder.
    elsewhere = tmp_path / "kept-logs"
    elsewhere.symlink_to(INCIDENT / "logs", target_is_directory=True)
    inv = investigate(INCIDENT, source=f"logdir://{elsewhere}")
    folder = investigate(INCIDENT)
    assert inv.log_receipt.files == folder.log_receipt.files
    assert [f.summary for f in inv.findings] == [f.summary for f in folder.findings]
    assert inv.metrics.receipt.files == folder.metrics.receipt.files  # from the folder


def test_the_folder_is_a_source_of_both():
    source = open_source(str(INCIDENT))
    assert isinstance(source, FolderSource)
    assert source.logs(investigate(INCIDENT, logs=False).window) is not None


def test_a_missing_dependency_costs_nothing_until_asked_for(tmp_path, monkeypatch):
    (tmp_path / "needs_absent.py").write_text("import surely_not_installed_pkg\nX = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry("chart", "incidentbook.test-none", {"fine": "json:dumps"})
    reg.register("heavy", Lazy("needs_absent:X", install="surely-not-installed"))
    assert reg.names() == ["fine", "heavy"]
    assert reg.get("fine")([1]) == "[1]"
    with pytest.raises(RegistryError, match=r"needs the Python package 'surely_not_installed_pkg'"):
        reg.get("heavy")
    with pytest.raises(RegistryError, match="pip install surely-not-installed"):
        reg.get("heavy")


def test_names_are_claimed_once_and_checked():
    reg = Registry("thing", "incidentbook.test-none", {"a": "json:dumps"}, check=instance_of(int))
    with pytest.raises(RegistryError, match="exists already"):
        reg.register("a", 1)
    reg.register("b", 2)
    reg.register("c", 3)
    assert reg.get("b") == 2 and reg.names() == ["a", "b", "c"]
    with pytest.raises(RegistryError, match="expected a int"):
        reg.get("a")
    with pytest.raises(RegistryError, match=r"no thing named 'z'; known: a, b, c"):
        reg.get("z")
    reg.unregister("c")
    assert "c" not in reg
