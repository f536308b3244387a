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


# -- where a workbook's relative paths point, and whose outputs a folder holds -------------

OUTPUT_MARK = ".incidentbook-incident.json"
"""The file in an output folder naming the incident whose outputs it holds."""

_ROOT_MARKS = (".git", "pyproject.toml")


class OutputTaken(IncidentbookError):
    """An output folder already holds another incident's outputs."""


def project_root(start: Path | str | None = None) -> Path:
    """The project a notebook runs in: the nearest folder at or above `start` (default the
    current directory, which is the notebook's folder in JupyterLab, nbval and papermill)
    holding a `.git` or `pyproject.toml`; `start` itself when there is none. Never the
    installed package's checkout, unless that is where the notebook is."""
    here = Path(start or Path.cwd()).expanduser().resolve()
    for folder in (here, *here.parents):
        if any((folder / mark).exists() for mark in _ROOT_MARKS):
            return folder
    return here


def resolve_input(path: str | Path, start: Path | str | None = None) -> Path:
    """An existing file or folder named by a workbook parameter, as an absolute path.

    A relative path is looked for in the current directory (or `start`), then in each
    folder above it up to the project root, so that `data/incidents/x` given in
    `workbooks/incident.ipynb` finds the project's `data/`. Not found: the path under
    the current directory, whose absence the caller reports."""
    given = Path(path).expanduser()
    if given.is_absolute():
        return given
    here = Path(start or Path.cwd()).expanduser().resolve()
    root = project_root(here)
    for folder in (here, *here.parents):
        if (folder / given).exists():
            return (folder / given).resolve()
        if folder == root:
            break
    return here / given


def resolve_output(path: str | Path, start: Path | str | None = None) -> Path:
    """An output folder named by a workbook parameter, as an absolute path: a relative one
    is under the project root (see project_root), which need not hold it yet."""
    given = Path(path).expanduser()
    return given if given.is_absolute() else project_root(start) / given


def default_output(incident: Path, start: Path | str | None = None) -> Path:
    """Where an incident's outputs go when `out` is not set: out/<incident id> under the
    project root, so that each incident has a folder of its own."""
    return resolve_output(Path("out") / incident_name(incident), start)


def incident_name(incident: Path) -> str:
    """The incident's id from its incident.yaml, or its folder's name if that is unreadable."""
    from incidentbook.incident import IncidentFolder

    try:
        return IncidentFolder(incident).spec.id
    except IncidentbookError:
        return Path(incident).resolve().name


def output_owner(out: Path) -> dict | None:
    """Whose outputs `out` holds: its mark ({"id", "incident"}), or for a folder written
    before marks existed the id in its case.json; None when it holds no incident's."""
    import json

    for name, key in ((OUTPUT_MARK, "id"), ("case.json", "id")):
        file = Path(out) / name
        if not file.is_file():
            continue
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get(key), str):
            return {"id": data[key], "incident": data.get("incident", str(file))}
    return None


def claim_output(out: Path, incident: Path, *, force: bool = False) -> Path:
    """Make `out` the output folder of `incident`, refusing one that holds another's.

    The folder gets a small mark (OUTPUT_MARK) with the incident's id and folder; a folder
    whose mark (or case.json) names another incident is refused with OutputTaken, unless
    `force`, which takes it over. Returns the absolute folder."""
    import json
    import os

    out, incident = Path(out).resolve(), Path(incident).resolve()
    name = incident_name(incident)
    owner = refuse_taken(out, incident, force=force)
    out.mkdir(parents=True, exist_ok=True)
    mark = {"id": name, "incident": str(incident)}
    file = out / OUTPUT_MARK
    if owner != mark or not file.is_file():
        temporary = out / f".{OUTPUT_MARK}.{os.getpid()}.tmp"
        temporary.write_text(json.dumps(mark, indent=1) + "\n", encoding="utf-8")
        os.replace(temporary, file)
    return out


def refuse_taken(out: Path, incident: Path, *, force: bool = False) -> dict | None:
    """OutputTaken when `out` holds another incident's outputs (and not `force`); else
    whose outputs it holds (output_owner). Writes nothing."""
    out, incident = Path(out).resolve(), Path(incident).resolve()
    name = incident_name(incident)
    owner = output_owner(out)
    if owner is not None and owner["id"] != name and not force:
        raise OutputTaken(
            f"{out} holds the outputs of another incident, {owner['id']!r} (from "
            f"{owner['incident']}); writing {name!r} there would replace its case.json and "
            f"report. Leave `out` empty to write to out/{name}, give another `out`, or pass "
            f"force (-p force True, or incidentbook run --force) or remove {out} to replace "
            f"them"
        )
    return owner
