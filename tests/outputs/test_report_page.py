"""The report page as a person reads it (issue 15 item 8): the verdict and the story chart
first, then the narrative; each caption above its chart; times and lags in words."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import REPO
from incidentbook.investigation import investigate
from incidentbook.notebook.cells import chart_set
from incidentbook.outputs.publish import publish
from incidentbook.outputs.render import render_case
from incidentbook.record.draft import draft

INCIDENTS = ("smollm3-storage", "imbue-bringup")


class _Text(HTMLParser):
    """The text a reader sees (no tags, no attributes, no inline SVG)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._svg = 0

    def handle_starttag(self, tag, attrs):
        self._svg += tag == "svg"

    def handle_endtag(self, tag):
        self._svg -= tag == "svg"

    def handle_data(self, data):
        if not self._svg:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


@pytest.fixture(scope="module", params=INCIDENTS)
def report(request, tmp_path_factory) -> tuple[str, object]:
    inv = investigate(REPO / "data" / "incidents" / request.param)
    out = tmp_path_factory.mktemp(request.param)
    record = draft(inv, out)
    outputs = publish(record, {k: v for k, v in chart_set(inv).items()}, out, inv.taxonomy)
    return outputs.report.read_text(encoding="utf-8"), outputs


def test_the_verdict_and_the_story_chart_lead_the_page(report):
    html, _ = report
    verdict = html.index('id="verdict"')
    story = html.index('<figure class="chart lead">')
    narrative = html.index('<section id="symptoms">')
    assert verdict < story < narrative
    lead = html[story : html.index("</figure>", story)]
    assert "The symptom and what coincided with it" in lead
    assert html.count("The symptom and what coincided with it</figcaption>") == 1
    assert "How sure:" in visible_text(html[verdict:story])


def test_every_caption_sits_above_its_chart(report):
    html, outputs = report
    figures = re.findall(r"<figure class=\"chart[^\"]*\">(.*?)</figure>", html, flags=re.S)
    assert len(figures) == len(outputs.charts) >= 3
    for body in figures:
        assert body.index("<figcaption>") < body.index("<svg"), body[:200]


def test_the_static_page_does_not_ask_to_drag(report):
    html, outputs = report
    assert "drag across" not in html.lower()
    assert all("drag across" not in Path(p).read_text().lower() for p in outputs.charts)


def test_times_read_as_dates_and_clocks_never_raw_iso(report):
    text = visible_text(report[0])
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", text), "raw ISO time shown"
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", text), "microseconds shown"
    assert not re.search(r"[+-]00:00", text), "offset in place of UTC"
    assert re.search(r"Window \d{4}-\d\d-\d\d \d\d:\d\d to [\d: -]+ UTC", text)
    # every time cell of the tables is a date, a clock and UTC, on one line
    cells = re.findall(r'<td class="when">([^<]*)</td>', report[0])
    assert cells and all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC", c) for c in cells)


def test_lags_are_said_relative_to_the_symptom(report):
    cells = re.findall(r'<td class="num when">([^<]*)</td>', report[0])
    assert cells
    assert all(re.fullmatch(r"(\d+ (s|min) (before|after)|with) the symptom", c) for c in cells)


def test_an_empty_facet_says_so_rather_than_leaving_a_bare_heading(report):
    html, _ = report
    record = __import__("json").loads(Path(report[1].case).read_text())
    section = html[html.index('<section id="contributing_factor">') :]
    section = section[: section.index("</section>")]
    if record.get("contributing_factors"):
        assert 'class="tag contributing_factor"' in section
    else:
        assert "None recorded." in section


def test_the_markdown_page_leads_with_the_verdict_too(report):
    from incidentbook.record.store import load_record

    record = load_record(report[1].case)
    md = render_case(record, "md")
    assert md.index("## Verdict") < md.index("## Symptoms")
    assert "How sure: **" in md


def test_findings_read_with_their_units(report):
    from html import escape

    from incidentbook.metrics.signals import load_pack
    from incidentbook.text import format_value

    html, outputs = report
    record = __import__("json").loads(Path(outputs.case).read_text())
    signals = load_pack().signals
    levels = [f for f in record["evidence"]["findings"] if f["kind"] in {"drop", "spike"}]
    assert levels
    for f in levels:  # the whole sentence is on the page, the levels in display units
        assert f"<td>{escape(f['summary'])}</td>" in html
        unit = signals[f["signal"]].unit if f["signal"] in signals else ""
        if unit:
            assert format_value(f["value"], unit) in f["summary"], (unit, f["summary"])
            assert format_value(f["baseline"], unit) in f["summary"], (unit, f["summary"])
    # disk latency is said in milliseconds, as the charts draw it
    assert not re.search(r"latency rose to 0\.\d+ s\b", html)
