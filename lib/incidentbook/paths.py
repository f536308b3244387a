"""Where the project's bundled files live, in a checkout and in an installed wheel.

The bundled resources (the taxonomy, signal packs, the signature catalog, the JSON Schema
and the page templates) are the folder `templates/` at the top of a checkout, and
`incidentbook/templates/` inside the wheel; the user-facing paths keep that name. In code
they are "resources", so that "templates" means only the log templates drain3 mines
(logs/templates.py). The workbook is workbooks/incident.ipynb in a checkout and
incidentbook/notebook/incident.ipynb inside the wheel.
"""

from __future__ import annotations

from pathlib import Path

from incidentbook.errors import IncidentbookError

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parents[1]
NOTEBOOK_NAME = "incident.ipynb"


def resources_dir() -> Path:
    """The bundled resources: inside the wheel when installed, templates/ in a checkout."""
    for candidate in (_PACKAGE / "templates", _CHECKOUT / "templates"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(
        "incidentbook's bundled resources (templates/) are missing; reinstall the package "
        "(pip install -e . from a checkout)"
    )


def resource(name: str) -> Path:
    """A bundled resource by its path under templates/ (taxonomy.yaml, signals/default.yaml)."""
    return resources_dir() / name


def workbook() -> Path:
    """The incident workbook: the checkout's source, or the copy shipped in the wheel."""
    shipped, source = _PACKAGE / "notebook" / NOTEBOOK_NAME, _CHECKOUT / "workbooks" / NOTEBOOK_NAME
    for candidate in (shipped, source):
        if candidate.is_file():
            return candidate
    raise IncidentbookError(f"the workbook {NOTEBOOK_NAME} is missing; reinstall incidentbook")


# The names before 0.2.
templates_dir = resources_dir
template = resource
