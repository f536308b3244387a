"""One base error, a subclass per failure kind.

Every message says what is wrong, where, and what to do, so the CLI can print it as
it is instead of a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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
            "taxonomy with --taxonomy FILE"
        )
        label = facet.replace("_", " ")
        super().__init__(f"{value!r} is not a known {label} id; {hint}")
