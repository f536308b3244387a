"""The output-format contract, and the registry of the formats a case record is written in.

An output format renders one case record as text:

    OutputFormat(name, suffixes, render, published=False)

`render(record, taxonomy, *, site_root=None, svgs=None) -> str`: `svgs` maps each chart's
file (charts/NAME.svg) to its SVG text, for formats that inline them; `site_root` is the
relative path to the library site's top, for links between pages. `incidentbook render
CASE --format NAME` writes any registered format (the first suffix is its file's); a
format with `published` is also written by every workbook run, as report{suffix}
beside case.json (the HTML page is).

A new output is a render function and one OutputFormat, and one registration: a default
below, or an entry point of a user's package:

    [project.entry-points."incidentbook.outputs"]
    confluence = "my_package.confluence:CONFLUENCE"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from incidentbook.registry import Registry, instance_of

Renderer = Callable[..., str]


@dataclass(frozen=True)
class OutputFormat:
    name: str
    suffixes: tuple[str, ...]
    render: Renderer
    published: bool = False

    @property
    def suffix(self) -> str:
        return self.suffixes[0]


OUTPUTS: Registry[OutputFormat] = Registry(
    "output format",
    "incidentbook.outputs",
    {
        "html": "incidentbook.outputs.render:HTML",
        "md": "incidentbook.outputs.render:MARKDOWN",
    },
    check=instance_of(OutputFormat),
)
"""Output format name -> OutputFormat."""


def format_for(path: Path | str, default: str = "html") -> str:
    """The registered format whose suffixes include the file's, else `default`."""
    suffix = Path(path).suffix.lower()
    for name, output in OUTPUTS.entries():
        if suffix in output.suffixes:
            return name
    return default
