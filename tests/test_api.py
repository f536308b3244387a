"""The public API: what `import incidentbook` offers, end to end on the bundled incident."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import incidentbook as ib
from conftest import REPO

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


def test_every_exported_name_resolves():
    missing = [name for name in ib.__all__ if not hasattr(ib, name)]
    assert not missing
    assert issubclass(ib.MetricsError, ib.IncidentbookError)
    assert issubclass(ib.WorkbookFailed, ib.IncidentbookError)


def test_the_version_is_the_installed_distributions():
    assert ib.__version__ == importlib.metadata.version("incidentbook")


def test_importing_the_package_stays_light():
    code = "import sys, incidentbook; print('polars' in sys.modules, 'altair' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_investigate_draft_publish(tmp_path):
    inv = ib.investigate(INCIDENT, logs=False)
    assert isinstance(inv, ib.Investigation)
    record = ib.draft(inv)
    assert isinstance(record, ib.CaseRecord) and record.id == "smollm3-storage"
    outputs = ib.publish(record, {}, tmp_path)
    assert ib.load_record(outputs.case).evidence.findings == record.evidence.findings
    source = ib.open_source(str(INCIDENT))
    assert source.metrics(inv.window, list(inv.pack.signals.values())[:1]) is not None
