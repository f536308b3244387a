"""Reading and writing case records as YAML (people edit them) or JSON (machines write them).

Reads turn every failure into a Problem naming the file, the field path and, for YAML,
the line, so `incidentbook validate` can print sentences instead of tracebacks.
Writes are atomic: a temporary file in the same folder, fsynced, then renamed over the
old one, so a failed write never leaves half a record or destroys the previous one.
"""

from __future__ import annotations

import glob
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from incidentbook.errors import Problem, RecordFormatError, RecordInvalid
from incidentbook.errors import problems_from as problems_from
from incidentbook.record.model import CaseRecord
from incidentbook.record.taxonomy import Taxonomy
from incidentbook.yamlio import Raise, dump_yaml, parse_yaml, read_text, yaml_lines

RECORD_SUFFIXES = (".yaml", ".yml", ".json")


def record_error(path: Path) -> Raise:
    """A YAML problem of a person's file (a record, case.yaml) as a RecordFormatError,
    which `incidentbook validate` prints as `file:line: what`."""

    def make(kind: str, detail: str, line: int | None) -> Exception:
        message = {
            "missing": "no such file",
            "unreadable": f"the file cannot be read ({detail})",
            "empty": f"the file is empty; {detail}",
            "encoding": f"the file is not UTF-8 text ({detail})",
            "syntax": f"malformed YAML: {detail}",
            "shape": detail,
        }[kind]
        return RecordFormatError(path, message, line)

    return make


def read_record_data(path: Path) -> tuple[dict[str, Any], dict[tuple, int]]:
    """Parse a YAML or JSON record file into a mapping, with YAML line numbers."""
    path = Path(path)
    if path.suffix.lower() not in RECORD_SUFFIXES:
        raise RecordFormatError(path, f"a record file ends in {', '.join(RECORD_SUFFIXES)}")
    text = read_text(path, record_error(path))
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordFormatError(path, f"malformed JSON: {exc.msg}", exc.lineno) from None
        lines: dict[tuple, int] = {}
    else:
        data = parse_yaml(text, record_error(path), keep_dates=True)
        lines = yaml_lines(text)
    if data is None:
        raise RecordFormatError(
            path,
            "the file is empty; a record is a mapping of field names to values "
            "(`incidentbook schema` prints them)",
        )
    if not isinstance(data, dict):
        raise RecordFormatError(
            path, f"a record is a mapping of field names to values, not {type(data).__name__}"
        )
    return data, lines


def load_record(path: Path | str, taxonomy: Taxonomy | None = None) -> CaseRecord:
    """Load and validate one record; raises RecordFormatError or RecordInvalid."""
    path = Path(path)
    data, lines = read_record_data(path)
    # The case id goes in the context so that a check's problem names its case.
    context = {"taxonomy": taxonomy} if taxonomy else {}
    if isinstance(data.get("id"), str):
        context["case"] = data["id"]
    try:
        return CaseRecord.model_validate(data, context=context or None)
    except ValidationError as exc:
        raise RecordInvalid(problems_from(exc, str(path), lines, names=check_location)) from None


def check_location(loc: tuple) -> tuple:
    """`checks[0].promql.expr` -> `checks[0].expr`: the check's kind is no part of its path."""
    if len(loc) > 2 and loc[0] == "checks" and loc[2] in {"promql", "log", "health"}:
        return (*loc[:2], *loc[3:])
    return loc


def narrative_invalid(exc: ValidationError, path: Path, narrative: dict[str, Any]) -> Exception:
    """A record drafted with a person's case.yaml that fails validation: the problems in
    the fields case.yaml gave, with their lines there (RecordInvalid); `exc` itself when
    the fault is elsewhere (the drafted part, which is not the person's)."""
    from_person = [e for e in exc.errors() if e["loc"] and e["loc"][0] in narrative]
    if not from_person or len(from_person) < len(exc.errors()):
        return exc
    try:
        lines = yaml_lines(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        lines = {}
    return RecordInvalid(problems_from(exc, str(path), lines))


def record_files(paths: list[Path]) -> Iterator[Path]:
    """Expand folders into the record files below them, sorted; files are passed through."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in RECORD_SUFFIXES)
        else:
            yield path


def load_records(folder: Path | str, taxonomy: Taxonomy | None = None) -> list[CaseRecord]:
    """Every record below a folder, sorted by id; the first invalid one raises."""
    records = [load_record(p, taxonomy) for p in record_files([Path(folder)])]
    ids = [r.id for r in records]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RecordInvalid(
            [
                Problem(str(folder), "id", f"case id {d!r} is used by more than one record")
                for d in duplicates
            ]
        )
    return sorted(records, key=lambda r: r.id)


def record_text(record: CaseRecord, fmt: str) -> str:
    data = record.model_dump(mode="json", exclude_none=True)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(data)


def atomic_write_text(path: Path | str, text: str) -> Path:
    """Write text to path so that readers see the old file or the new one, never a part.

    The text goes to a temporary file beside it (named with the writer's pid), is
    fsynced and renamed over the old file, and the folder is fsynced, so the rename too
    survives a crash. A process killed mid-write leaves only its temporary file, which
    the next write of the same file removes.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_writers(path)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent
    )
    try:
        # mkstemp makes the file private; give it the mode a plain open() would have.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)
    return path


def _remove_dead_writers(path: Path) -> None:
    """Temporary files of writes of `path` whose process no longer exists."""
    for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        pid = tmp.name[len(path.name) + 2 :].split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            tmp.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some filesystems cannot fsync a folder; the rename is still atomic
        pass
    finally:
        os.close(fd)


def save_record(record: CaseRecord, path: Path | str, taxonomy: Taxonomy | None = None) -> Path:
    """Validate again, then write atomically as YAML or JSON by the file's suffix."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in RECORD_SUFFIXES:
        raise RecordFormatError(path, f"a record file ends in {', '.join(RECORD_SUFFIXES)}")
    context = {"taxonomy": taxonomy} if taxonomy else None
    try:
        checked = CaseRecord.model_validate(record.model_dump(mode="json"), context=context)
    except ValidationError as exc:
        raise RecordInvalid(problems_from(exc, str(path), names=check_location)) from None
    return atomic_write_text(path, record_text(checked, "json" if suffix == ".json" else "yaml"))
