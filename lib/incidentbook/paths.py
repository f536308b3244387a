"""Where the project's bundled files live, in a checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def templates_dir() -> Path:
    """The templates folder: inside the wheel when installed, at the repo top in a checkout."""
    for candidate in (_PACKAGE / "templates", _PACKAGE.parents[1] / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "incidentbook's templates folder is missing; reinstall the package "
        "(pip install -e . from a checkout)"
    )


def template(name: str) -> Path:
    return templates_dir() / name
