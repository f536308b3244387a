"""The chart contract: a new chart is one ChartEntry and one registration; the report
page and the workbook pick it up without edits anywhere else."""

from __future__ import annotations

import altair as alt
import polars as pl
import pytest

from conftest import REPO
from incidentbook.charts import CHARTS, ChartEntry, figures
from incidentbook.investigation import investigate
from incidentbook.notebook import cells

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"


@pytest.fixture(scope="module")
def inv():
    return investigate(INCIDENT)


def gpu_temp_chart(inv):
    rows = inv.analysis.cluster.filter(pl.col("signal") == "gpu_temp").select("ts", "value")
    return (
        alt.Chart(rows, title="GPU temperature, cluster mean")
        .mark_line()
        .encode(x="ts:T", y="value:Q")
    )


@pytest.fixture
def registered():
    names: list[str] = []

    def add(entry: ChartEntry) -> None:
        CHARTS.register(entry.name, entry)
        names.append(entry.name)

    yield add
    for name in names:
        CHARTS.unregister(name)


def test_the_built_in_charts_in_report_order(inv):
    drawn = [f.name for f in figures(inv, "report")]
    assert drawn == ["story", "failure-rates", "hosts-disk_read_latency", "signatures"]


def test_a_registered_chart_reaches_the_report_and_the_notebook(inv, registered, tmp_path):
    registered(ChartEntry("gpu-temp", "GPU temperature", gpu_temp_chart))
    registered(ChartEntry("report-only", "Only on the page", gpu_temp_chart, frozenset({"report"})))
    assert list(cells.chart_set(inv))[-2:] == ["gpu-temp", "report-only"]
    record = cells.draft(inv, str(tmp_path))
    outputs = cells.write(inv, record, str(tmp_path))
    assert {p.name for p in outputs.charts} >= {"gpu-temp.svg", "report-only.svg"}
    page = outputs.report.read_text()
    assert "GPU temperature" in page and "Only on the page" in page
    # In the notebook: its own cell for the built-in ones, "more charts" for the rest.
    extra = cells.more_charts(inv).to_dict()
    assert len(extra["vconcat"]) == 1
    assert cells.chart(inv, "gpu-temp").to_dict()["title"] == "GPU temperature, cluster mean"


def test_no_extra_charts_means_no_output(inv):
    assert cells.more_charts(inv) is None
