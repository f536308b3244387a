"""The one YAML reader and the one YAML writer of every file people edit.

incident.yaml, case.yaml, case records, taxonomy and signature catalogs, signal packs and
the form's autosave are all read by `read_yaml`: a missing file, bytes that are not
UTF-8, a file that cannot be read (a folder in its place, no permission), an empty file,
bad YAML (with its line) and a document that is not a mapping each become the caller's
own error, through a `Raise` that words it in the caller's terms. `dump_yaml`
writes what people will read: keys in the given order, multi-line text as blocks, long
lines left long (folded style would rewrap them on load).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import yaml

Kind = Literal["missing", "unreadable", "encoding", "empty", "syntax", "shape"]
Raise = Callable[[Kind, str, "int | None"], Exception]
"""(kind, detail, line) -> the error to raise."""


def sentences(error: Callable[[str], Exception], subject: str) -> Raise:
    """Errors worded as sentences about `subject` ("signature catalog FILE ...")."""

    def make(kind: Kind, detail: str, line: int | None) -> Exception:
        at = f" (line {line})" if line else ""
        return error(
            {
                "missing": f"{subject} does not exist",
                "unreadable": f"{subject} cannot be read ({detail})",
                "empty": f"{subject} is empty; {detail}",
                "encoding": f"{subject} is not UTF-8 text ({detail})",
                "syntax": f"{subject} is not valid YAML{at}: {detail}",
                "shape": f"{subject} {detail}",
            }[kind]
        )

    return make


# libyaml's parser where PyYAML was built with it: the signature catalog and the signal
# pack are read on every run, and the pure-Python parser takes a second and a half on them.
_Safe = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _KeepDates(_Safe):
    """SafeLoader that keeps dates and times as strings.

    PyYAML would turn `2025-13-01` into an exception at load time and `2025-01-01` into a
    date object; the models parse dates themselves and report bad ones by field.
    """


_KeepDates.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def parse_yaml(text: str, error: Raise, *, keep_dates: bool = False) -> Any:
    try:
        return yaml.load(text, Loader=_KeepDates if keep_dates else _Safe)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        reason = getattr(exc, "problem", None) or str(exc)
        raise error("syntax", reason, mark.line + 1 if mark else None) from None
    except ValueError as exc:  # a constructor's: an unquoted date that is not one (2025-02-30)
        raise error("syntax", f"{exc} (quote dates and times as strings)", None) from None


def read_text(path: Path, error: Raise) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error("missing", "", None) from None
    except UnicodeDecodeError as exc:
        raise error("encoding", f"byte {exc.start}", None) from None
    except OSError as exc:  # a folder in the file's place, no permission, an I/O error
        raise error("unreadable", unreadable_reason(exc), None) from None


def unreadable_reason(exc: OSError) -> str:
    """Why a file could not be opened, as the end of a sentence with what to do."""
    if isinstance(exc, IsADirectoryError):
        return "it is a folder, not a file"
    if isinstance(exc, PermissionError):
        return "permission denied: give the user running incidentbook read access"
    return exc.strerror or type(exc).__name__


def read_yaml(
    path: Path | str,
    error: Raise,
    *,
    mapping: str | None = None,
    keep_dates: bool = False,
    empty: Any = None,
    required: str | None = None,
) -> Any:
    """A YAML file's document (`empty` for an empty file); with `mapping`, a document that
    is not a mapping raises ("shape", mapping) (say what it must be: "must be a mapping
    with `signatures`"). With `required`, an empty file (nothing but blanks and comments)
    raises ("empty", required) (say what it must hold)."""
    data = parse_yaml(read_text(Path(path), error), error, keep_dates=keep_dates)
    if data is None and required is not None:
        raise error("empty", required, None)
    if data is None:
        data = empty
    if mapping is not None and not isinstance(data, dict):
        raise error("shape", mapping, None)
    return data


def yaml_lines(text: str) -> dict[tuple, int]:
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
        root = yaml.compose(text, Loader=_KeepDates)
    except yaml.YAMLError:
        return lines
    if root is not None:
        walk(root, ())
    return lines


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    # Blocks for multi-line text; plain (never folded) otherwise: folded style rewraps
    # text on load, and records must come back exactly as written.
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_presenter)


def dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
