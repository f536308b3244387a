"""One base error, a subclass per failure kind.

Every message says what is wrong, where, and what to do, so the CLI can print it as
it is instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError


class IncidentbookError(Exception):
    """Base of every error the tool raises on purpose."""

    exit_code = 1


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one input: where (file, field path, line) and what."""

    file: str
    field: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return (
            f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


@dataclass(frozen=True)
class LoadNote:
    """One thing loading assumed or dropped to go on: where, what and why, how many rows.

    Loading never guesses or leaves data out silently: each guess (a timestamp unit judged
    from magnitudes, a baseline replaced) is an `assumed` note, each left-out sample a
    `dropped` note with its count; the load report carries them, and `analyze` and the
    workbook show them among the notes.
    """

    action: Literal["assumed", "dropped"]
    source: str  # the file, incident.yaml, or the server the data came from
    text: str  # what was assumed or dropped and why; what to do if that is wrong
    rows: int | None = None  # how many samples (the text then follows "N samples ")

    def __str__(self) -> str:
        return grouped_notes([self])[0]


def grouped_notes(notes: list[LoadNote]) -> list[str]:
    """The notes as sentences, one per distinct text, naming every source it applies to
    (five files with epoch-millisecond timestamps are one note, not five)."""
    sources: dict[tuple[str, str], list[str]] = {}
    rows: dict[tuple[str, str], int | None] = {}
    for note in notes:
        key = (note.action, note.text)
        sources.setdefault(key, [])
        if note.source not in sources[key]:
            sources[key].append(note.source)
        if note.rows is not None:
            rows[key] = (rows.get(key) or 0) + note.rows
    out = []
    for (action, text), where in sources.items():
        shown = ", ".join(where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
        count = rows.get((action, text))
        prefix = f"{count:,} {'sample' if count == 1 else 'samples'} " if count is not None else ""
        out.append(f"{shown}: {prefix}{text}")
    return out


class RecordInvalid(IncidentbookError):
    """A record parsed but does not satisfy the schema or the taxonomy."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(
            f"{len(problems)} {noun} in the record:\n" + "\n".join(f"  {p}" for p in problems)
        )


class RecordFormatError(IncidentbookError):
    """A record file that is not well-formed YAML or JSON, or not a mapping."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.problem = Problem(str(path), "", message, line)
        super().__init__(str(self.problem))


class TaxonomyError(IncidentbookError):
    """A taxonomy file that is malformed or inconsistent."""


class UnknownFacetValue(IncidentbookError, ValueError):
    """A facet value not in the taxonomy; says which facet and the nearest known ids."""

    def __init__(self, facet: str, value: str, suggestions: list[str]):
        self.facet, self.value, self.suggestions = facet, value, suggestions
        hint = (
            f"did you mean {', '.join(repr(s) for s in suggestions)}?"
            if suggestions
            else "run `incidentbook taxonomy show` for the known ids, or extend the "
            "taxonomy with --taxonomy FILE (or INCIDENTBOOK_TAXONOMY=FILE)"
        )
        label = facet.replace("_", " ")
        super().__init__(f"{value!r} is not a known {label} id; {hint}")


# --- pydantic's errors as sentences -------------------------------------------------------
# The one builder of validation messages: records, incident.yaml, taxonomies, signal packs,
# signature catalogs and windows all report what is wrong through it.


def field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def sentence(error: dict, overrides: Mapping[str, str] | None = None) -> str:
    """One pydantic error as the end of a sentence (`overrides`: by error type)."""
    kind, msg = error["type"], error["msg"]
    if overrides and kind in overrides:
        return overrides[kind]
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
    exc: ValidationError,
    file: str,
    lines: dict[tuple, int] | None = None,
    *,
    overrides: Mapping[str, str] | None = None,
    names: Callable[[tuple], tuple] | None = None,
) -> list[Problem]:
    """Turn pydantic's errors into one Problem each, with the nearest known YAML line.

    `names` rewrites an error's location before it is shown (a catalog names a signature
    by its id rather than its index)."""
    problems = []
    for error in exc.errors():
        loc = tuple(
            p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-"))
        )
        if names is not None:
            loc = names(loc)
        line = None
        if lines:
            for cut in range(len(loc), -1, -1):
                if loc[:cut] in lines:
                    line = lines[loc[:cut]]
                    break
        field = field_path(loc) or "(record)"
        problems.append(Problem(file, field, sentence(error, overrides), line))
    return problems


def invalid(exc: ValidationError, what: str, where: str, **options: Any) -> str:
    """`WHERE is not a valid WHAT:` and one indented line per problem (`options`: those of
    problems_from)."""
    problems = problems_from(exc, where, **options)
    listed = "\n".join(f"  {p.field}: {p.message}" for p in problems)
    return f"{where} is not a valid {what}:\n{listed}"
