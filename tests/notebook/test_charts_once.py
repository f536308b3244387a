"""The workbook draws each chart once: the chart cells and the report page (wb.write)
use the same built chart (notebook/cells.py)."""

from __future__ import annotations

import altair as alt
import pytest

from conftest import REPO
from incidentbook.charts import CHARTS, ChartEntry
from incidentbook.investigation import investigate
from incidentbook.notebook import cells

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


@pytest.fixture
def counted():
    built: list[str] = []

    def draw(inv):
        built.append("counted")
        return alt.Chart(inv.analysis.cluster.head(5), title="counted").mark_point()

    CHARTS.register("counted", ChartEntry("counted", "Counted", draw))
    yield built
    CHARTS.unregister("counted")


def test_the_cell_and_the_report_page_build_a_chart_once(counted, tmp_path):
    inv = investigate(INCIDENT)
    shown = cells.chart(inv, "counted")
    record = cells.draft(inv, str(tmp_path))
    outputs = cells.write(inv, record, str(tmp_path))
    assert counted == ["counted"]
    assert cells.chart_set(inv)["counted"][1] is shown
    assert (tmp_path / "charts" / "counted.svg") in outputs.charts


def test_an_entry_registered_anew_draws_anew(counted):
    inv = investigate(INCIDENT)
    cells.chart(inv, "counted")
    entry = CHARTS.get("counted")
    CHARTS.unregister("counted")
    CHARTS.register("counted", ChartEntry("counted", "Counted", entry.build))
    cells.chart(inv, "counted")
    assert counted == ["counted", "counted"]
