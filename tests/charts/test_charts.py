"""Charts: downsampling keeps spikes, each chart holds what it says, stays under altair's
row limit, is deterministic, and renders to a static SVG."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import altair as alt
import numpy as np
import polars as pl
import pytest
import vl_convert as vlc

from conftest import REPO
from incidentbook import charts
from incidentbook.charts.svg import _without_hover
from incidentbook.investigation import investigate
from incidentbook.logs.analysis import LogAnalysis
from incidentbook.metrics.analysis import Analysis
from incidentbook.notebook import cells
from incidentbook.record.model import Correlation

INCIDENTS = REPO / "data" / "incidents"
ALTAIR_LIMIT = 5_000
T0 = datetime(2025, 3, 14, 8, tzinfo=UTC)


@pytest.fixture(scope="module")
def smollm():
    return investigate(INCIDENTS / "smollm3-storage")


@pytest.fixture(scope="module")
def imbue():
    # The signals the charts below use; all of them would double the test's time.
    names = ["mfu", "pcie_link_width", "ib_port_errors", "xid_errors", "node_up"]
    names += ["cpu_freq", "gpu_temp"]  # the two heat maps of the workbook's "hosts" cell
    return investigate(INCIDENTS / "imbue-bringup", signals=names)


def inline_rows(spec: object) -> int:
    """Rows embedded anywhere in a chart's dict: top-level datasets and inline values."""
    if isinstance(spec, list):
        return sum(inline_rows(item) for item in spec)
    if not isinstance(spec, dict):
        return 0
    total = 0
    for key, value in spec.items():
        if key == "datasets":
            total += sum(len(rows) for rows in value.values())
        elif key == "values" and isinstance(value, list):
            total += len(value)
        else:
            total += inline_rows(value)
    return total


def layers(spec: object, mark: str) -> list[dict]:
    """Every unit spec in a chart's dict whose mark is `mark`."""
    found = []
    if isinstance(spec, list):
        for item in spec:
            found += layers(item, mark)
    elif isinstance(spec, dict):
        kind = spec.get("mark")
        kind = kind.get("type") if isinstance(kind, dict) else kind
        if kind == mark:
            found.append(spec)
        for value in spec.values():
            found += layers(value, mark)
    return found


def rows_of(spec: dict, unit: dict) -> list[dict]:
    return spec["datasets"][unit["data"]["name"]]


def checked(chart) -> dict:
    spec = chart.to_dict()  # altair validates against the Vega-Lite schema here
    assert inline_rows(spec) < ALTAIR_LIMIT
    return spec


# --- downsample ------------------------------------------------------------------------


def test_downsample_keeps_a_spike_a_mean_would_hide():
    n = 100_000
    rng = np.random.default_rng(0)
    values = rng.normal(100, 1, n)
    values[61_234] = 400  # one sample
    frame = pl.DataFrame(
        {"ts": pl.datetime_range(T0, T0 + timedelta(seconds=n - 1), "1s", eager=True)}
    ).with_columns(value=pl.Series(values))
    small = charts.downsample(frame, points=1000)
    assert small.height == 1000
    assert small.get_column("value").max() == 400
    assert small.get_column("ts").is_sorted()
    # What a mean per bucket would have drawn: the spike drowned at about 103.
    means = frame.group_by_dynamic("ts", every=f"{n // 1000}s").agg(pl.col("value").mean())
    assert means.get_column("value").max() < 110
    assert charts.downsample(frame, points=1000).equals(small)  # deterministic


def test_downsample_respects_points_per_group_and_passes_small_groups_through():
    big = pl.DataFrame(
        {
            "signal": "a",
            "ts": pl.datetime_range(T0, T0 + timedelta(seconds=4_999), "1s", eager=True),
            "value": np.sin(np.arange(5_000) / 50),
        }
    )
    small = pl.DataFrame(
        {
            "signal": "b",
            "ts": [T0 + timedelta(seconds=i) for i in range(10)],
            "value": [1.0, None, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0],
        }
    ).with_columns(pl.col("ts").dt.cast_time_unit("us"))
    shuffled = pl.concat([small, big]).sample(fraction=1.0, shuffle=True, seed=1)
    out = charts.downsample(shuffled, by=["signal"], points=200)
    assert out.filter(pl.col("signal") == "a").height == 200
    assert out.filter(pl.col("signal") == "b").equals(small)  # unchanged, null and all
    assert out.get_column("signal").to_list() == ["a"] * 200 + ["b"] * 10
    with pytest.raises(ValueError, match="at least 3"):
        charts.downsample(big, points=2)


def test_downsample_drops_nulls_in_groups_it_reduces():
    values = np.arange(3_000, dtype=float)
    frame = pl.DataFrame(
        {
            "ts": pl.datetime_range(T0, T0 + timedelta(seconds=2_999), "1s", eager=True),
            "value": values,
        }
    ).with_columns(value=pl.when(pl.col("value") % 7 == 0).then(None).otherwise("value"))
    out = charts.downsample(frame, points=100)
    assert out.height == 100
    assert out.get_column("value").null_count() == 0


# --- the story ---------------------------------------------------------------------------


def test_symptom_chart_shades_each_primary_anomaly_and_draws_the_baseline(smollm):
    analysis, pack = smollm.analysis, smollm.pack
    spec = checked(charts.symptom_chart(analysis, pack))
    anomalies = [
        f for f in analysis.findings if f.signal == analysis.primary and f.kind in ("drop", "spike")
    ]
    assert len(anomalies) >= 5
    (rects,) = layers(spec, "rect")
    shaded = rows_of(spec, rects)
    assert len(shaded) == len(anomalies)
    assert [r["start"] for r in shaded] == [
        round(f.start.timestamp() * 1000) for f in sorted(anomalies, key=lambda f: f.start)
    ]
    (rule,) = layers(spec, "rule")
    (level,) = rows_of(spec, rule)
    base = analysis.cluster.filter(
        (pl.col("signal") == analysis.primary)
        & pl.col("ts").is_between(analysis.baseline.start, analysis.baseline.end, closed="left")
    )
    assert level["value"] == pytest.approx(base.get_column("value").median())
    assert spec["title"]["text"] == "Training throughput with the drops found"
    (line,) = layers(spec, "line")
    assert line["encoding"]["y"]["title"] == "Training throughput (tokens/s)"


def test_correlated_chart_has_the_top_correlations_in_order(smollm):
    analysis, pack = smollm.analysis, smollm.pack
    spec = checked(charts.correlated_chart(analysis, pack, top=3))
    titles = [row["title"]["text"] for row in spec["vconcat"]]
    expected = [pack.get(c.signal).label for c in analysis.correlations[:3]]
    assert len(titles) == 3
    for rank, (title, label, corr) in enumerate(
        zip(titles, expected, analysis.correlations, strict=False), start=1
    ):
        assert title.startswith(f"{rank}. {label}: score {corr.score:.2f}")
    # Each row shades its own signal's anomalies.
    for row, corr in zip(spec["vconcat"], analysis.correlations, strict=False):
        (rects,) = layers(row, "rect")
        mine = [f for f in analysis.findings if f.signal == corr.signal]
        assert len(rows_of(spec, rects)) == sum(f.kind in ("drop", "spike") for f in mine)


def test_story_chart_rows_follow_the_brush(smollm):
    spec = checked(charts.story_chart(smollm.analysis, smollm.pack))
    assert [p["name"] for p in spec["params"]] == [charts.BRUSH]
    upper, lower = spec["vconcat"]
    for row in lower["vconcat"]:
        for unit in row["layer"]:
            assert unit["encoding"]["x"]["scale"]["domain"] == {"param": charts.BRUSH}
    for unit in layers(upper, "line"):
        assert "domain" not in unit["encoding"]["x"]["scale"]  # the window, by min and max


def test_story_chart_is_deterministic(smollm):
    first = charts.story_chart(smollm.analysis, smollm.pack).to_json()
    second = charts.story_chart(smollm.analysis, smollm.pack).to_json()
    assert first == second


def test_story_chart_keeps_under_the_row_limit_with_many_rows(smollm):
    spec = checked(charts.story_chart(smollm.analysis, smollm.pack, top=10))
    assert inline_rows(spec) <= charts.ROW_BUDGET


def test_charts_of_a_dense_cluster_stay_under_the_row_limit(smollm):
    """Every series sampled each second (21,600 points each): downsampled, not refused."""
    analysis = smollm.analysis
    grid = pl.DataFrame(
        {"ts": pl.datetime_range(analysis.window.start, analysis.window.end, "1s", eager=True)}
    ).with_columns(pl.col("ts").dt.cast_time_unit("us"))
    dense = pl.concat(
        [
            grid.join_asof(part.sort("ts"), on="ts").with_columns(signal=pl.lit(name))
            for (name,), part in analysis.cluster.group_by("signal", maintain_order=True)
        ],
        how="diagonal",
    ).select(analysis.cluster.columns)
    assert dense.height > 200_000
    big = Analysis(**{**analysis.__dict__, "cluster": dense})
    for chart in (
        charts.story_chart(big, smollm.pack, top=5),
        charts.failure_rate_chart(big, smollm.logs, smollm.pack),
    ):
        assert inline_rows(checked(chart)) <= charts.ROW_BUDGET


# --- failures, hosts, logs -----------------------------------------------------------


def test_failure_rate_chart_from_logs_and_hosts_up(imbue):
    spec = checked(charts.failure_rate_chart(imbue.analysis, imbue.logs, imbue.pack))
    bars, up = spec["vconcat"]
    groups = {r["group"] for r in rows_of(spec, bars)}
    assert "NIC or InfiniBand link down" in groups
    assert len(groups) <= charts.TOP_LOG_KEYS + 1
    shares = [r["value"] for r in rows_of(spec, up)]  # its layers share the parent's data
    assert 0.85 < shares[-1] < 0.95  # about a tenth of the hosts never came up


def test_heatmap_puts_the_downtrained_hosts_first(imbue):
    truth = json.loads((INCIDENTS / "imbue-bringup" / "truth.json").read_text())
    downtrained = {d["host"] for d in truth["planted"]["downtrained"]}
    chart = charts.host_heatmap(
        imbue.metrics.frame,
        "pcie_link_width",
        imbue.pack,
        window=imbue.analysis.window,
        hosts=12,
    )
    spec = checked(chart)
    order = spec["encoding"]["y"]["sort"]
    assert len(order) == 12
    assert set(order[: len(downtrained)]) == downtrained
    assert spec["encoding"]["color"]["title"] == "PCIe link width (lanes)"
    hosts = {r["node"] for r in spec["datasets"][spec["data"]["name"]]}
    assert hosts == set(order)


def test_heatmap_stays_small_when_many_hosts_are_asked_for(smollm):
    spec = checked(
        charts.host_heatmap(
            smollm.metrics.frame,
            "disk_read_latency",
            smollm.pack,
            window=smollm.analysis.window,
            hosts=500,
        )
    )
    assert len(spec["encoding"]["y"]["sort"]) == 48  # every host the cluster has
    # A bucket as small as the sampling step would give 34,560 cells: it is coarsened.
    fine = charts.host_heatmap(
        smollm.metrics.frame,
        "disk_read_latency",
        smollm.pack,
        window=smollm.analysis.window,
        bucket=timedelta(seconds=30),
        hosts=48,
    )
    assert inline_rows(checked(fine)) <= charts.ROW_BUDGET


def _vega_scales_and_legends(spec: dict) -> tuple[dict[str, dict], list[dict]]:
    """The colour scales and legends of a chart compiled to Vega, at any depth."""
    compiled = vlc.vegalite_to_vega(spec)
    compiled = json.loads(compiled) if isinstance(compiled, str) else compiled
    scales: dict[str, dict] = {}
    legends: list[dict] = []

    def walk(node: dict) -> None:
        scales.update({s["name"]: s for s in node.get("scales", []) if "color" in s["name"]})
        legends.extend(node.get("legends", []))
        for mark in node.get("marks", []):
            walk(mark)

    walk(compiled)
    return scales, legends


def test_each_host_heatmap_of_the_workbook_has_its_own_colour_scale_and_legend(imbue):
    chart = cells.chart(imbue, "hosts")
    spec = checked(chart)
    panels = spec["vconcat"]
    assert len(panels) == 2  # GPU temperature and CPU frequency, in °C and GHz
    scales, legends = _vega_scales_and_legends(spec)
    assert len(scales) == len(panels)
    # Each scale reads its own panel's data, so neither's domain holds the other's values.
    assert len({json.dumps(s["domain"]) for s in scales.values()}) == len(panels)
    assert all("fields" not in s["domain"] for s in scales.values())
    titles = [legend["title"] for legend in legends]
    assert len(titles) == len(panels)
    assert sorted({legend["fill"] for legend in legends}) == sorted(scales)
    assert any(t.startswith("GPU temperature") for t in titles)
    assert any(t.startswith("CPU frequency") for t in titles)
    assert not any("," in t for t in titles)  # no merged "GPU temperature (°C), CPU fr…"


def test_signature_timeline_rows_are_signatures_most_severe_first(imbue):
    spec = checked(charts.signature_timeline(imbue.logs, window=imbue.analysis.window))
    assert spec["encoding"]["y"]["sort"] == imbue.logs.signatures.get_column("label").to_list()
    assert spec["encoding"]["y"]["sort"][0] in {
        "GPU fell off the bus",
        "Xid 48: Double-bit ECC error",
    }
    tooltip = {t.get("title") for t in spec["encoding"]["tooltip"]}
    assert "hosts in this bucket" in tooltip


# --- nothing to draw ---------------------------------------------------------------------


def _text_only(chart) -> str:
    spec = checked(chart)
    assert spec["mark"]["type"] == "text"
    return (
        spec["data"]["values"][0]["note"]
        if "values" in spec.get("data", {})
        else next(iter(spec["datasets"].values()))[0]["note"]
    )


def test_empty_inputs_give_text_charts(smollm):
    analysis: Analysis = smollm.analysis
    bare = Analysis(
        window=analysis.window,
        baseline=analysis.baseline,
        primary=analysis.primary,
        findings=[],
        correlations=[],
        cluster=analysis.cluster.filter(pl.col("signal") != "node_up"),
        intervals=analysis.intervals,
        receipt=analysis.receipt,
    )
    assert "no failure data" in _text_only(charts.failure_rate_chart(bare, None))
    assert "no other signal" in _text_only(charts.correlated_chart(bare, smollm.pack))
    assert "no known log signature" in _text_only(charts.signature_timeline(None))
    empty_logs = LogAnalysis(
        matched=pl.DataFrame(),
        signatures=pl.DataFrame(schema={"key": pl.String, "label": pl.String}),
        counts=pl.DataFrame(
            schema={"bucket": pl.Datetime("us", "UTC"), "host": pl.String, "key": pl.String}
        ),
        templates=None,
        findings=[],
        hosts_total=0,
        bucket=timedelta(minutes=5),
    )
    assert "no known log signature" in _text_only(charts.signature_timeline(empty_logs))
    nothing = analysis.cluster.clear()
    no_primary = Analysis(**{**bare.__dict__, "cluster": nothing})
    assert "no data" in _text_only(charts.symptom_chart(no_primary, smollm.pack))
    story = checked(charts.story_chart(no_primary, smollm.pack))
    assert "params" not in story  # no brush without a chart to hold it
    heat = charts.host_heatmap(
        smollm.metrics.frame, "fan_speed", smollm.pack, window=analysis.window
    )
    assert "no data" in _text_only(heat)


def test_a_correlation_without_data_gets_a_note_row(smollm):
    analysis = smollm.analysis
    ghost = Correlation(signal="fan_speed", score=0.5, lag_seconds=0, matched=1)
    odd = Analysis(**{**analysis.__dict__, "correlations": [ghost]})
    spec = checked(charts.correlated_chart(odd, smollm.pack))
    (row,) = spec["vconcat"]
    assert row["mark"]["type"] == "text"


# --- static output -------------------------------------------------------------------------


def test_to_svg_is_static_deterministic_and_titled(imbue, tmp_path):
    chart = charts.symptom_chart(imbue.analysis, imbue.pack)
    svg = charts.to_svg(chart)
    assert svg.lstrip().startswith("<svg")
    assert "Model FLOPs utilisation with the drops found" in svg
    assert charts.to_svg(chart) == svg
    path = charts.save_svg(chart, tmp_path / "deep" / "symptom.svg")
    assert path.read_text(encoding="utf-8") == svg


def test_to_svg_leaves_out_tooltip_only_marks(smollm):
    chart = charts.symptom_chart(smollm.analysis, smollm.pack)
    hover = [u for u in layers(chart.to_dict(), "circle") if u["mark"].get("style") == "hover"]
    assert hover  # in the interactive chart
    assert not layers(_without_hover(chart.to_dict()), "circle")
    assert len(charts.to_svg(chart)) < 100_000


def test_register_theme_enables_the_incidentbook_theme():
    before = alt.theme.active
    try:
        charts.register_theme()
        assert alt.theme.active == charts.THEME
        config = alt.Chart().mark_point().to_dict()["config"]
        assert config["style"]["anomaly"]["fill"] == charts.ANOMALY_COLOUR
        assert config["view"]["continuousWidth"] == charts.WIDTH
    finally:
        alt.theme.enable(before)


# --- reading the charts: widths, units, events, quiet hosts ------------------------------


def test_every_report_chart_is_valid_and_fits_a_1280_pixel_notebook(smollm, imbue):
    for inv in (smollm, imbue):
        for figure in charts.figures(inv, "report"):
            checked(figure.chart)  # valid Vega-Lite (to_svg does not validate again)
            svg = charts.to_svg(figure.chart)
            width = float(svg.split('width="', 1)[1].split('"', 1)[0])
            assert width <= charts.core.MAX_WIDTH, (figure.name, width)


def _tooltips(spec: object) -> list[dict]:
    found = []
    if isinstance(spec, list):
        for item in spec:
            found += _tooltips(item)
    elif isinstance(spec, dict):
        tips = spec.get("encoding", {}).get("tooltip")
        found += tips if isinstance(tips, list) else []
        for value in spec.values():
            found += _tooltips(value)
    return found


def test_disk_latency_is_charted_in_ms_with_formatted_tooltips(smollm):
    ghost = Correlation(signal="disk_read_latency", score=1, lag_seconds=-30, matched=7)
    odd = Analysis(**{**smollm.analysis.__dict__, "correlations": [ghost]})
    spec = checked(charts.correlated_chart(odd, smollm.pack))
    (row,) = spec["vconcat"]
    line = next(u for u in layers(row, "line"))
    assert line["encoding"]["y"]["title"] == "ms"
    data = row.get("data") or line.get("data") or row["layer"][1]["data"]
    values = [r["value"] for r in spec["datasets"][data["name"]] if r["value"] is not None]
    assert 10 < max(values) < 1000  # tens of ms at the peaks, not 0.07 s
    tips = {t["title"]: t for t in _tooltips(row) if "title" in t}
    assert tips["Disk read latency (ms)"]["format"] == ",.1f"
    # Throughput's tooltip: 2,903 tokens/s, not 2.9e+03.
    story = checked(charts.symptom_chart(smollm.analysis, smollm.pack))
    tips = {t["title"]: t for t in _tooltips(story) if "title" in t}
    assert tips["Training throughput (tokens/s)"]["format"] == ",.0f"


def test_event_like_signals_are_marks_with_counts_not_lines(imbue):
    names = ["xid_errors", "ib_port_errors"]
    rows = [Correlation(signal=n, score=0.8, lag_seconds=60, matched=2) for n in names]
    odd = Analysis(**{**imbue.analysis.__dict__, "correlations": rows})
    spec = checked(charts.correlated_chart(odd, imbue.pack))
    codes, links = spec["vconcat"]
    for row in (codes, links):
        assert layers(row, "line") == []  # no level drawn through them
        assert layers(row, "rule") == [] or row is links
    diamonds = [u for u in layers(codes, "point") if u["mark"].get("shape") == "diamond"]
    (marks,) = diamonds
    # The marks' layer (after the shading and the invisible frame) holds their data.
    drawn = rows_of(spec, codes["layer"][2])
    assert {r["value"] for r in drawn} == {48, 79, 94}  # each Xid code where it appeared
    assert marks["encoding"]["y"]["axis"]["format"] == "d"
    stems = layers(links, "rule")
    counts = [r["value"] for r in rows_of(spec, links["layer"][2])]
    events = [f for f in imbue.analysis.findings if f.signal == "ib_port_errors"]
    assert sorted(counts) == sorted(f.magnitude for f in events if f.kind == "events")
    assert stems[0]["encoding"]["y"]["axis"]["tickMinStep"] == 1  # integer ticks only


def test_heatmap_of_named_hosts_shows_them_and_a_few_quiet_ones(imbue):
    from incidentbook.charts.hosts import CONTEXT_ROWS, QUIET, stood_out

    named = stood_out(imbue, "cpu_freq")
    assert len(named) == 5
    spec = checked(
        charts.host_heatmap(
            imbue.metrics.frame,
            "cpu_freq",
            imbue.pack,
            window=imbue.analysis.window,
            stood_out=named,
        )
    )
    order = spec["encoding"]["y"]["sort"]
    assert set(order[: len(named)]) == set(named)
    assert len(order) == len(named) + CONTEXT_ROWS
    colour = spec["encoding"]["color"]
    assert colour["title"] == "CPU frequency (GHz)"
    assert "reverse" not in colour["scale"]
    assert colour["scale"]["range"][-1] == QUIET  # the median host's level is pale
    tips = {t["title"]: t for t in spec["encoding"]["tooltip"]}
    assert tips["CPU frequency (GHz)"]["format"] == ".2f"
    assert spec["encoding"]["y"]["axis"]["labelLimit"] == 0  # host names never cut


_SVG_IN_A_NEW_PROCESS = """
import sys
import altair as alt
from incidentbook.charts import svg
chart = alt.Chart(alt.Data(values=[{"x": 1, "y": 2}, {"x": 2, "y": 1}])).mark_line().encode(
    x="x:Q", y="y:Q"
)
if sys.argv[1] == "ahead":
    from incidentbook.notebook import cells
    cells.setup()
    svg.convert_ahead(chart)
    assert svg._AHEAD[id(chart)][1].result(timeout=120).startswith("<svg")
elif sys.argv[1] == "interrupted":
    import os, signal, time
    svg.warm_up()
    # A kernel's interrupt goes to its process group (this process leads one of its own
    # here): the converter takes no notice.
    signal.signal(signal.SIGINT, lambda *_: None)
    os.killpg(0, signal.SIGINT)
    time.sleep(1)
    assert svg._CONVERTER[0].proc.poll() is None, "the converter ended on SIGINT"
    svg.convert_ahead(chart)
    assert svg._AHEAD[id(chart)][1].result(timeout=120).startswith("<svg")
elif sys.argv[1] == "converter-gone":
    svg.warm_up()
    svg.convert_ahead(chart)
    svg._CONVERTER[0].proc.kill()  # drawn here instead, the same
    svg._CONVERTER[0].proc.wait()
sys.stdout.write(svg.to_svg(chart))
"""


def _draw_in_a_new_process(mode: str) -> str:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _SVG_IN_A_NEW_PROCESS, mode],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        start_new_session=True,  # a process group of its own, for the interrupt's signal
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_charts_drawn_ahead_by_the_converter_process_are_the_same_svg():
    """The workbook's setup starts a converter process and each report chart is drawn
    there as its cell builds it (vl_convert holds Python's lock while it draws); the text
    is the same as a chart drawn in this process, and when the process is gone the chart
    is drawn here."""
    here = _draw_in_a_new_process("here")
    assert here.startswith("<svg")
    assert _draw_in_a_new_process("ahead") == here
    assert _draw_in_a_new_process("converter-gone") == here


def test_the_converter_process_outlives_an_interrupt_of_its_kernel():
    """Interrupting a kernel signals its process group: the converter keeps drawing (and
    prints no traceback) rather than leaving the rest of the session without it."""
    assert _draw_in_a_new_process("interrupted").startswith("<svg")


def test_the_converter_process_ends_with_the_process_that_started_it(tmp_path):
    """A kernel killed at the end of a run (or by the OOM killer) leaves no converter
    behind: the converter ends when its input closes."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    started = (
        "import os, signal\n"
        "from incidentbook.charts import svg\n"
        "svg.warm_up()\n"
        "print(svg._CONVERTER[0].proc.pid, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", started], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return
        if state == "Z":  # ended, waiting for init to reap it
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    raise AssertionError("the converter process outlived the process that started it")
