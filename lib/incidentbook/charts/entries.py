"""The chart contract, and the registry of the charts an investigation is drawn with.

A chart entry names a chart, says what the report page calls it, how to draw it from an
investigation, and where it shows:

    ChartEntry(name, title, build, where={"notebook", "report"})

`build(inv)` returns a chart, several Figures (one entry can draw a chart per signal,
as the host heat maps do), or None when there is nothing to draw for this incident. The
report page shows every entry with "report" in `where`, in the registry's order, each
written to charts/NAME.svg; the workbook shows each entry with "notebook" in `where`
(the built-in ones in cells of their own, the others in its "more charts" cell).

A new chart is a function and one ChartEntry beside it, and one registration: a default
below, or an entry point of a user's package:

    [project.entry-points."incidentbook.charts"]
    gpu-clocks = "my_package.charts:GPU_CLOCKS"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import altair as alt

from incidentbook.registry import Registry, instance_of

if TYPE_CHECKING:
    from incidentbook.investigation import Investigation

Where = Literal["notebook", "report"]
BOTH: frozenset[Where] = frozenset({"notebook", "report"})


@dataclass(frozen=True)
class Figure:
    """One drawn chart: its file name (charts/NAME.svg), its caption and the chart."""

    name: str
    title: str
    chart: alt.TopLevelMixin


ChartBuilder = Callable[["Investigation"], "alt.TopLevelMixin | Sequence[Figure] | None"]


@dataclass(frozen=True)
class ChartEntry:
    name: str
    title: str
    build: ChartBuilder
    where: frozenset[Where] = BOTH

    def figures(self, inv: Investigation) -> list[Figure]:
        """What the entry draws for this investigation (empty: nothing to draw)."""
        drawn = self.build(inv)
        if drawn is None:
            return []
        if isinstance(drawn, Sequence):
            return list(drawn)
        return [Figure(self.name, self.title, drawn)]


_CHARTS = "incidentbook.charts"

CHARTS: Registry[ChartEntry] = Registry(
    "chart",
    "incidentbook.charts",
    {
        "story": f"{_CHARTS}.story:STORY",
        "failure-rates": f"{_CHARTS}.failures:FAILURE_RATES",
        "hosts": f"{_CHARTS}.hosts:HOSTS",
        "signatures": f"{_CHARTS}.failures:SIGNATURES",
    },
    check=instance_of(ChartEntry),
)
"""Chart name -> ChartEntry, in the order the report page shows them."""


def stacked(charts: Sequence[alt.TopLevelMixin]) -> alt.VConcatChart:
    """Charts one above the other, each keeping its own colour, size and shape scales
    and legends: two heat maps of different signals (GHz and events/s) never share a
    colour scale, whatever Vega-Lite's default for concatenations."""
    independent = {"color": "independent", "size": "independent", "shape": "independent"}
    return alt.vconcat(*charts).resolve_scale(**independent).resolve_legend(**independent)


def figures(inv: Investigation, where: Where) -> list[Figure]:
    """Every figure shown in `where` for this investigation, in the registry's order."""
    return [f for _, entry in CHARTS.entries() if where in entry.where for f in entry.figures(inv)]
