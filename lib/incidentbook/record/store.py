"""Reading and writing case records as YAML (people edit them) or JSON (machines write them).

Reads turn every failure into a Problem naming the file, the field path and, for YAML,
the line, so `incidentbook validate` can print sentences instead of tracebacks.
Writes are atomic: a temporary file in the same folder, fsynced, then renamed over the
old one, so a failed write never leaves half a record or destroys the previous one.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from incidentbook.errors import Problem, RecordFormatError, RecordInvalid
from incidentbook.record.model import CaseRecord
from incidentbook.record.taxonomy import Taxonomy

RECORD_SUFFIXES = (".yaml", ".yml", ".json")


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps dates and times as strings.

    PyYAML would turn `2025-13-01` into an exception at load time and `2025-01-01` into a
    date object; the record model parses dates itself and reports bad ones by field.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _yaml_lines(text: str) -> dict[tuple, int]:
    """Map each field path (('action_items', 2, 'status')) to its 1-based line in the YAML."""
    lines: dict[tuple, int] = {}

    def walk(node: yaml.Node, path: tuple) -> None:
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                child = (*path, key.value)
                lines[child] = key.start_mark.line + 1
                walk(value, child)
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                walk(item, (*path, index))

    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError:
        return lines
    if root is not None:
        walk(root, ())
    return lines


def _field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _sentence(error: dict) -> str:
    kind, msg = error["type"], error["msg"]
    if kind == "missing":
        return "this required field is missing"
    if kind == "extra_forbidden":
        return "this field is not part of the schema (check its spelling)"
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    if kind in {
        "string_type",
        "int_type",
        "int_parsing",
        "float_type",
        "list_type",
        "dict_type",
        "model_type",
        "bool_type",
        "literal_error",
        "enum",
        "url_parsing",
        "string_pattern_mismatch",
        "datetime_from_date_parsing",
        "datetime_parsing",
        "timezone_aware",
        "greater_than_equal",
        "too_short",
        "string_too_short",
    }:
        given = error.get("input")
        shown = repr(given) if not isinstance(given, dict | list) else type(given).__name__
        return f"{msg[0].lower()}{msg[1:]} (got {shown})"
    return msg[0].lower() + msg[1:] if msg else kind


def problems_from(
    exc: ValidationError, file: str, lines: dict[tuple, int] | None = None
) -> list[Problem]:
    """Turn pydantic's errors into one Problem each, with the nearest known YAML line."""
    problems = []
    for error in exc.errors():
        loc = tuple(
            p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-"))
        )
        line = None
        if lines:
            for cut in range(len(loc), -1, -1):
                if loc[:cut] in lines:
                    line = lines[loc[:cut]]
                    break
        problems.append(Problem(file, _field_path(loc) or "(record)", _sentence(error), line))
    return problems


def read_record_data(path: Path) -> tuple[dict[str, Any], dict[tuple, int]]:
    """Parse a YAML or JSON record file into a mapping, with YAML line numbers."""
    path = Path(path)
    if path.suffix.lower() not in RECORD_SUFFIXES:
        raise RecordFormatError(path, f"a record file ends in {', '.join(RECORD_SUFFIXES)}")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordFormatError(path, "no such file") from None
    except UnicodeDecodeError as exc:
        raise RecordFormatError(path, f"the file is not UTF-8 text (byte {exc.start})") from None
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordFormatError(path, f"malformed JSON: {exc.msg}", exc.lineno) from None
        lines: dict[tuple, int] = {}
    else:
        try:
            data = yaml.load(text, Loader=_Loader)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            reason = getattr(exc, "problem", None) or str(exc)
            raise RecordFormatError(
                path, f"malformed YAML: {reason}", mark.line + 1 if mark else None
            ) from None
        lines = _yaml_lines(text)
    if not isinstance(data, dict):
        raise RecordFormatError(
            path, f"a record is a mapping of field names to values, not {type(data).__name__}"
        )
    return data, lines


def load_record(path: Path | str, taxonomy: Taxonomy | None = None) -> CaseRecord:
    """Load and validate one record; raises RecordFormatError or RecordInvalid."""
    path = Path(path)
    data, lines = read_record_data(path)
    context = {"taxonomy": taxonomy} if taxonomy else None
    try:
        return CaseRecord.model_validate(data, context=context)
    except ValidationError as exc:
        raise RecordInvalid(problems_from(exc, str(path), lines)) from None


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


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else ">" if len(value) > 90 else None
    if style == ">":
        style = None  # folded style rewraps text on load; keep long lines plain and exact
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


def record_text(record: CaseRecord, fmt: str) -> str:
    data = record.model_dump(mode="json", exclude_none=True)
    if fmt == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def atomic_write_text(path: Path | str, text: str) -> Path:
    """Write text to path so that readers see the old file or the new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
    return path


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
        raise RecordInvalid(problems_from(exc, str(path))) from None
    return atomic_write_text(path, record_text(checked, "json" if suffix == ".json" else "yaml"))
