"""Incident folders on object storage (sources/objects.py), against a real
S3-compatible server: moto's server mode on a loopback port. What this proves is the
read path (listing, staging the small files, polars' lazy scans of the Parquet files in
place with credentials from the environment), not any cloud's speed."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO

moto_server = pytest.importorskip("moto.server", reason="moto[server] is a dev dependency")
boto3 = pytest.importorskip("boto3")

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"
EXE = Path(sys.executable).with_name("incidentbook")
KEYS = {
    "AWS_ACCESS_KEY_ID": "incidentbook-test-key",
    "AWS_SECRET_ACCESS_KEY": "incidentbook-test-secret-value",
    "AWS_DEFAULT_REGION": "us-east-1",
}


@pytest.fixture(scope="module")
def s3():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    url = f"http://{host}:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=url,
        aws_access_key_id=KEYS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=KEYS["AWS_SECRET_ACCESS_KEY"],
        region_name="us-east-1",
    )
    client.create_bucket(Bucket="incidents")
    for path in sorted(INCIDENT.rglob("*")):
        if path.is_file():
            key = f"smollm3-storage/{path.relative_to(INCIDENT)}"
            client.upload_file(str(path), "incidents", key)
    yield {"AWS_ENDPOINT_URL": url, **KEYS}
    server.stop()


def _analyze(target: str, env: dict[str, str]) -> tuple[int, dict, str]:
    done = subprocess.run(
        [str(EXE), "analyze", target, "--json"],
        capture_output=True,
        text=True,
        env=os.environ | env,
        cwd=REPO,
    )
    return done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr


def test_analyze_on_s3_finds_what_the_local_folder_gives(s3):
    code, remote, err = _analyze("s3://incidents/smollm3-storage", s3)
    assert code == 0, err
    _, local, _ = _analyze(str(INCIDENT), {})
    assert remote["findings"], "the bundled incident has findings"
    for part in ("incident", "window", "verdict", "findings", "correlations", "notes", "logs"):
        assert remote[part] == local[part], part


def test_the_parquet_files_are_scanned_in_place_and_no_credential_is_written(s3, monkeypatch):
    for name, value in s3.items():
        monkeypatch.setenv(name, value)
    from incidentbook.incident import IncidentFolder
    from incidentbook.investigation import investigate
    from incidentbook.sources.folder import FolderSource
    from incidentbook.sources.objects import ObjectPath

    folder = IncidentFolder("s3://incidents/smollm3-storage")
    assert folder.uri == "s3://incidents/smollm3-storage"
    files = FolderSource(folder).files()
    assert files and all(isinstance(f, ObjectPath) for f in files)
    assert {f.name for f in files} == {p.name for p in (INCIDENT / "metrics").glob("*.parquet")}
    # staged: the small files only, and nowhere a credential
    staged = sorted(p for p in folder.path.rglob("*") if p.is_file())
    assert not [p for p in staged if p.suffix == ".parquet"]
    assert (folder.path / "incident.yaml").read_bytes() == (INCIDENT / "incident.yaml").read_bytes()
    for path in staged:
        text = path.read_text(errors="replace")
        assert KEYS["AWS_SECRET_ACCESS_KEY"] not in text and KEYS["AWS_ACCESS_KEY_ID"] not in text
    inv = investigate("s3://incidents/smollm3-storage")
    assert {str(f) for f in files} <= set(inv.metrics.receipt.files)


def test_a_missing_prefix_is_a_clear_error(s3):
    code, _, err = _analyze("s3://incidents/no-such-incident", s3)
    assert code == 1
    assert err.startswith("error: s3://incidents/no-such-incident: no objects under this prefix")
