"""Writing a workbook's outputs: the case record, the charts as SVG, and the report page.

OUT/case.json          the record (validated, written atomically)
OUT/report.html        the case page, self-contained: the charts inlined as SVG, so it
                       opens offline, mails as one file and prints
OUT/report.SUFFIX      any other published output format (outputs.formats)
OUT/charts/NAME.svg    each chart on its own, for slides and tickets
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import altair as alt

from incidentbook.outputs.formats import OUTPUTS
from incidentbook.record.model import CaseRecord, ChartFile
from incidentbook.record.store import atomic_write_text, save_record
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy


@dataclass(frozen=True)
class Outputs:
    """What publish wrote: the record, the report page, the charts, other outputs."""

    case: Path
    report: Path
    charts: list[Path]
    others: list[Path] = field(default_factory=list)

    def files(self) -> list[Path]:
        return [self.case, self.report, *self.charts, *self.others]


def publish(
    record: CaseRecord,
    charts: dict[str, tuple[str, alt.TopLevelMixin]],
    out: Path | str,
    taxonomy: Taxonomy | None = None,
) -> Outputs:
    """Write charts (name -> (title, chart)), case.json, report.html and any other
    published output format into `out`."""
    from incidentbook.charts.svg import to_svg

    out = Path(out)
    svgs: dict[str, str] = {}
    files: list[ChartFile] = []
    written: list[Path] = []
    for name, (title, chart) in charts.items():  # in the order given: the story first
        relative = f"charts/{name}.svg"
        svgs[relative] = to_svg(chart)
        written.append(atomic_write_text(out / relative, svgs[relative]))
        files.append(ChartFile(title=title, path=relative))
    evidence = record.evidence.model_copy(update={"charts": files}) if record.evidence else None
    final = record.model_copy(update={"evidence": evidence})
    case = save_record(final, out / "case.json", taxonomy)
    taxonomy = taxonomy or load_taxonomy()
    pages = {
        name: atomic_write_text(
            out / f"report{output.suffix}", output.render(final, taxonomy, svgs=svgs)
        )
        for name, output in OUTPUTS.entries()
        if output.published
    }
    report = pages.pop("html", None) or out / "report.html"
    return Outputs(case=case, report=report, charts=written, others=list(pages.values()))
