"""The workbook's tables as a person reads them (issue 15 items 6 and 11): every row,
whole text, host names never cut, times with their date, text left and numbers right, no
row of dtypes; similar cases with a scale and a link to a page that exists."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.notebook import cells
from incidentbook.notebook.tables import LIST_OPEN, Column, Table
from incidentbook.record.draft import draft

INCIDENTS = REPO / "data" / "incidents"


@pytest.fixture(scope="module")
def imbue():
    return investigate(INCIDENTS / "imbue-bringup")


@pytest.fixture(scope="module")
def smollm3():
    return investigate(INCIDENTS / "smollm3-storage")


def _cells(page: str) -> list[str]:
    return [
        htmllib.unescape(re.sub(r"<[^>]+>", "", c))
        for c in re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)
    ]


def test_every_finding_is_a_row_with_its_whole_sentence_and_every_host(imbue):
    table = cells.findings_table(imbue)
    page = table._repr_html_()
    assert table.frame.height == len(imbue.findings) > 40  # polars' view stopped at 40
    assert table.caption == f"{len(imbue.findings)} findings"
    shown = _cells(page)
    for f in imbue.findings:
        assert f.summary in shown, f.summary  # whole: the old view cut at 160 characters
        for host in f.hosts:
            assert host in page
    assert max(len(f.summary) for f in imbue.findings) > 160


def test_long_host_lists_open_on_a_click_and_short_ones_are_shown(imbue):
    page = cells.findings_table(imbue)._repr_html_()
    many = next(f for f in imbue.findings if len(f.hosts) > LIST_OPEN)
    assert f"<summary>{len(many.hosts):,} hosts</summary>{', '.join(many.hosts)}</details>" in page
    few = next(f for f in imbue.findings if 1 < len(f.hosts) <= LIST_OPEN)
    assert f">{', '.join(few.hosts)}</td>" in page


def test_text_is_left_numbers_right_and_no_dtype_row_or_quotes(smollm3):
    page = cells.signatures_table(smollm3)._repr_html_()
    headers = re.findall(r"<th style=\"([^\"]*)\">([^<]*)</th>", page)
    align = {label: style.split(";")[0] for style, label in headers}
    assert align["Signature"] == "text-align:left" and align["Usual action"] == "text-align:left"
    assert align["Lines"] == "text-align:right"
    assert not re.search(r">(str|i64|u32|datetime\[[^<]*|list\[str\])<", page)
    assert '>"Hung task"<' not in page and ">Hung task<" in page


def test_times_carry_their_date_and_zone(smollm3):
    for table in (cells.findings_table(smollm3), cells.signatures_table(smollm3)):
        times = [c for c in _cells(table._repr_html_()) if re.search(r"\d\d:\d\d", c)]
        stamps = [c for c in times if re.fullmatch(r"[\d: -]+UTC", c)]
        assert stamps and all(re.fullmatch(r"2025-03-14 \d\d:\d\d(:\d\d)? UTC", c) for c in stamps)


def test_the_change_column_has_its_unit_and_only_where_it_is_a_change(imbue):
    table = cells.findings_table(imbue)
    rows = table.frame.to_dicts()
    for row in rows:
        if row["kind"] in {"drop", "spike"}:
            assert re.fullmatch(r"[+-][\d,]+%", row["change"]), row
        if row["kind"] in {"burst of events", "known error signature"}:
            assert row["change"] == ""


def test_the_text_view_holds_every_row(imbue):
    text = repr(cells.findings_table(imbue))
    assert text.count("\n") == len(imbue.findings) + 1  # caption, header, the rows
    assert all(f.summary in text for f in imbue.findings)


def test_an_empty_table_says_why():
    table = Table(cells.pl.DataFrame(), [Column("x", "X")], empty="no logs/ folder")
    assert (
        table._repr_html_() == "<p><i>no logs/ folder</i></p>" and repr(table) == "no logs/ folder"
    )


def test_similar_cases_have_a_scale_and_link_to_their_page(smollm3, tmp_path):
    record = draft(smollm3, tmp_path / "out")
    table = cells.similar(record, out=tmp_path / "out", start=tmp_path, taxonomy=smollm3.taxonomy)
    rows = table.frame.to_dicts()
    assert rows and all(re.fullmatch(r"\d\.\d\d of 1", r["score"]) for r in rows)
    page = table._repr_html_()
    for row in rows:
        target = tmp_path / row["href"]
        assert target.is_file() and row["case"] in target.read_text()
        link = f'<a href="{row["href"]}">{row["case"]}</a>'
        assert link in page
        # the id is one unbroken word: its cell never wraps
        cell = page[page.rindex("<td", 0, page.index(link)) : page.index(link)]
        assert "white-space:nowrap" in cell
    assert "Closeness: 1 when every facet" in page


def test_similar_cases_without_an_output_folder_link_the_record_file(smollm3, tmp_path):
    record = draft(smollm3, tmp_path / "out")
    rows = cells.similar(record, start=REPO, taxonomy=smollm3.taxonomy).frame.to_dicts()
    assert rows and all((REPO / r["href"]).is_file() for r in rows)
    assert all(Path(r["href"]).parent == Path("data/library") for r in rows)


def test_the_summary_tells_the_slow_changes(smollm3):
    text = cells.summary(smollm3).data
    assert "Filesystem used trended up from 89.8% to 97.3%" in text
    assert "Dataloader time per step trended up from 55.2 ms to 181.9 ms" in text
    assert "Training throughput trended down" in text
