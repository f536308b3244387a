"""Incident folders on object storage: `s3://bucket/prefix` and `gs://bucket/prefix`.

The metrics files that are long-format Parquet or CSV stay where they are and are read
by the same lazy scans as local files (polars' own object-store reader, with the window
and the wanted metrics pushed down: a Parquet file's row groups outside the window are
not fetched). Everything else of the folder (incident.yaml, case.yaml, logs/, OpenMetrics
text, TensorBoard files) is small and read line by line, so it is copied into a local
staging folder for the process, removed when the process ends.

Credentials and the endpoint come from the environment, as the cloud's own tools read
them (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_REGION or
AWS_DEFAULT_REGION, AWS_ENDPOINT_URL for an S3-compatible server; for Google Cloud
Storage, GOOGLE_APPLICATION_CREDENTIALS). They are passed to the readers in memory and
never written anywhere: the staging folder's marker holds the URI and the object list
only.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from incidentbook.errors import IncidentbookError

SCHEMES = ("s3", "gs", "gcs")
SCANNED = (".parquet", ".csv")
"""Suffixes of the files read in place by the lazy scans; the rest is staged."""
MARKER = ".incidentbook-objects.json"


class ObjectStoreError(IncidentbookError):
    """An object-store folder that cannot be listed or read."""


def object_uri(path: str | os.PathLike) -> str | None:
    """The object-store URI a path names, or None for a local path. A URI that went
    through pathlib on the way (`s3:/bucket/x`, one slash) is given back whole."""
    text = os.fspath(path)
    for scheme in SCHEMES:
        if text.startswith(f"{scheme}:/"):
            return f"{scheme}://{text[len(scheme) + 2 :].lstrip('/')}".rstrip("/")
    return None


@dataclass(frozen=True)
class ObjectPath:
    """A metrics file on object storage, as the metrics readers see it: its URI, name
    and suffix (no __fspath__: nothing may open it as a local file)."""

    uri: str

    @property
    def name(self) -> str:
        return self.uri.rsplit("/", 1)[-1]

    @property
    def suffix(self) -> str:
        dot = self.name.rfind(".")
        return self.name[dot:] if dot > 0 else ""

    def __str__(self) -> str:
        return self.uri

    def __lt__(self, other: object) -> bool:
        return str(self) < str(other)


def _env(*names: str) -> str | None:
    return next((os.environ[n] for n in names if os.environ.get(n)), None)


def storage_options(uri: str) -> dict[str, str]:
    """polars' storage options for a URI, from the environment (empty: polars' own
    defaults, which read the same environment)."""
    if not uri.startswith("s3://"):
        return {}
    options = {
        "aws_access_key_id": _env("AWS_ACCESS_KEY_ID"),
        "aws_secret_access_key": _env("AWS_SECRET_ACCESS_KEY"),
        "aws_session_token": _env("AWS_SESSION_TOKEN"),
        "aws_region": _env("AWS_REGION", "AWS_DEFAULT_REGION"),
        "aws_endpoint_url": _env("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"),
    }
    if (options["aws_endpoint_url"] or "").startswith("http://"):
        options["aws_allow_http"] = "true"
    return {k: v for k, v in options.items() if v}


def _filesystem(uri: str):
    """A pyarrow filesystem for the URI's bucket, and the bucket/prefix path in it."""
    import pyarrow.fs as pafs

    scheme, _, rest = uri.partition("://")
    if scheme == "s3":
        endpoint = _env("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")
        kwargs: dict[str, object] = {
            "access_key": _env("AWS_ACCESS_KEY_ID"),
            "secret_key": _env("AWS_SECRET_ACCESS_KEY"),
            "session_token": _env("AWS_SESSION_TOKEN"),
            "region": _env("AWS_REGION", "AWS_DEFAULT_REGION"),
        }
        if endpoint:
            scheme_part, _, host = endpoint.partition("://")
            kwargs |= {"endpoint_override": host or endpoint, "scheme": scheme_part or "https"}
        return pafs.S3FileSystem(**{k: v for k, v in kwargs.items() if v}), rest
    return pafs.GcsFileSystem(), rest


_STAGED: dict[str, Path] = {}


def _remove_staged() -> None:
    for folder in _STAGED.values():
        shutil.rmtree(folder, ignore_errors=True)
    _STAGED.clear()


def stage(uri: str) -> Path:
    """A local folder standing for the object-store incident folder `uri` (once per
    process): its small files copied, and a marker listing the metrics files that are
    read in place."""
    if uri in _STAGED and _STAGED[uri].is_dir():
        return _STAGED[uri]
    import pyarrow.fs as pafs

    fs, base = _filesystem(uri)
    try:
        infos = fs.get_file_info(pafs.FileSelector(base, recursive=True))
    except FileNotFoundError:
        infos = []  # a prefix with no objects is not a folder on object storage
    except (OSError, ValueError) as exc:
        raise ObjectStoreError(
            f"{uri}: cannot list the folder ({str(exc).splitlines()[0][:300]}); check the "
            "bucket, the prefix and the credentials in the environment (AWS_ACCESS_KEY_ID, "
            "AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL for an S3-compatible server)"
        ) from None
    files = [i for i in infos if i.type == pafs.FileType.File]
    if not files:
        raise ObjectStoreError(f"{uri}: no objects under this prefix; an incident is a folder")
    if not _STAGED:
        atexit.register(_remove_staged)
    local = Path(tempfile.mkdtemp(prefix="incidentbook-objects-"))
    _STAGED[uri] = local
    scheme = uri.partition("://")[0]
    scanned = []
    for info in files:
        relative = info.path[len(base) :].lstrip("/")
        parts = Path(relative).parts
        in_place = (
            len(parts) > 1
            and parts[0] == "metrics"
            and Path(relative).suffix.lower() in SCANNED
            and not any(p.startswith(".") for p in parts)
            and (info.size or 0) > 0
        )
        if in_place:
            scanned.append(f"{scheme}://{info.path}")
            continue
        target = local / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            with fs.open_input_stream(info.path) as remote, target.open("wb") as out:
                shutil.copyfileobj(remote, out)
        except OSError as exc:
            raise ObjectStoreError(f"{scheme}://{info.path}: cannot be read ({exc})") from None
    (local / "metrics").mkdir(exist_ok=True)
    (local / MARKER).write_text(json.dumps({"uri": uri, "metrics": sorted(scanned)}, indent=1))
    return local


def remote_metrics(folder: Path) -> list[ObjectPath]:
    """The metrics files a staged folder reads in place (none for a local folder)."""
    marker = folder / MARKER
    if not marker.is_file():
        return []
    return [ObjectPath(u) for u in json.loads(marker.read_text())["metrics"]]


def staged_uri(folder: Path) -> str | None:
    """The object-store URI a staged folder stands for (None: a local folder)."""
    marker = folder / MARKER
    return json.loads(marker.read_text())["uri"] if marker.is_file() else None
