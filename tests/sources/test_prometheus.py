"""The Prometheus source against real servers: Debian's prometheus (backfilled by
promtool) and victoria-metrics (imported over HTTP), both serving the bundled SmolLM3
incident. Faults a real server cannot be made to show on demand (a 503, a 429, a hang
mid-answer) come from a scripted proxy in front of the real Prometheus (tests/servers.py).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import polars as pl
import pytest
from servers import (
    FaultProxy,
    backfill,
    free_port,
    openmetrics_in_ms,
    prometheus,
    victoria_metrics,
    vm_import,
)

from conftest import REPO, require_binary
from incidentbook.incident import IncidentFolder
from incidentbook.metrics.analysis import analyze
from incidentbook.metrics.data import MetricsError, NoDataError
from incidentbook.metrics.signals import load_pack
from incidentbook.outputs.export import export_openmetrics
from incidentbook.sources.base import open_source
from incidentbook.sources.folder import FolderSource
from incidentbook.sources.prometheus import (
    PrometheusError,
    PrometheusHTTPError,
    PrometheusSource,
    PrometheusTimeout,
    PrometheusUnreachable,
    PromQLError,
    choose_step,
    parse_matrix,
    plan_chunks,
    rate_window,
    render_promql,
)
from incidentbook.window import TimeWindow

INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"
FOLDER = IncidentFolder(INCIDENT)
SPEC = FOLDER.spec
PACK = load_pack(SPEC.signal_pack, SPEC.signals)
SIGNALS = [PACK.get(n) for n in sorted(PACK.signals)]
STEP = 30  # the incident's scrape interval (truth.json interval_seconds)
ENV = "INCIDENTBOOK_PROMETHEUS_"


# --- servers (session) ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def export(tmp_path_factory):
    path, samples = export_openmetrics(INCIDENT, tmp_path_factory.mktemp("export") / "m.om")
    return path, samples


@pytest.fixture(scope="session")
def prom(export, tmp_path_factory) -> str:
    binary = require_binary("prometheus", "prometheus")
    promtool = require_binary("promtool", "prometheus")
    work = tmp_path_factory.mktemp("prometheus")
    backfill(export[0], work / "tsdb", promtool)
    with prometheus(work / "tsdb", work, binary) as server:
        yield server.url


@pytest.fixture(scope="session")
def victoria(export, tmp_path_factory) -> str:
    binary = require_binary("victoria-metrics", "victoria-metrics")
    work = tmp_path_factory.mktemp("victoria")
    with victoria_metrics(work / "data", work, binary) as server:
        vm_import(server, openmetrics_in_ms(export[0]), export[1], SPEC.window.end.timestamp())
        yield server.url


def source(url: str, **options) -> PrometheusSource:
    return PrometheusSource("prometheus+" + url, **options)


@pytest.fixture(scope="module")
def from_folder():
    metrics = FolderSource(FOLDER).metrics(SPEC.window, SIGNALS)
    return metrics, analyze(metrics, PACK.signals, SPEC.primary_signal, baseline=SPEC.baseline)


def drops(result) -> list:
    return sorted(
        (f.start, f.end) for f in result.findings if f.kind == "drop" and f.signal == "throughput"
    )


# --- the proof: the same findings from the folder and from both servers ------------------------


@pytest.mark.parametrize("server", ["prom", "victoria"])
@pytest.mark.parametrize("step", [None, STEP])
def test_same_findings_as_the_folder(server, step, request, from_folder):
    url = request.getfixturevalue(server)
    folder_metrics, expected = from_folder
    metrics = source(url).metrics(SPEC.window, SIGNALS, step=step)
    got = analyze(metrics, PACK.signals, SPEC.primary_signal, baseline=SPEC.baseline)

    tolerance = timedelta(seconds=metrics.receipt.step_seconds)
    assert metrics.receipt.step_seconds == (step or 15)
    assert len(drops(expected)) == len(drops(got)) == 7
    for (s0, e0), (s1, e1) in zip(drops(expected), drops(got), strict=True):
        assert abs(s1 - s0) <= tolerance and abs(e1 - e0) <= tolerance
    assert got.correlations[0].signal == expected.correlations[0].signal == "disk_read_latency"
    # The folder also reads its trainer log (logs/trainer.log), which the server never had.
    from_log = {s for s, origin in folder_metrics.receipt.origins.items() if origin != "metrics"}
    assert metrics.receipt.missing_signals.keys() == (
        folder_metrics.receipt.missing_signals.keys() | from_log
    )
    assert metrics.frame.schema == folder_metrics.frame.schema


@pytest.mark.parametrize("server", ["prom", "victoria"])
def test_gauges_equal_the_folder_sample_for_sample(server, request, from_folder):
    """At the scrape interval the server-side aggregations give the folder's values."""
    url = request.getfixturevalue(server)
    names = ["throughput", "gpu_util", "gpu_temp", "fs_used_ratio", "load", "node_up"]
    wanted = [PACK.get(n) for n in names]
    got = source(url).metrics(SPEC.window, wanted, step=STEP).frame
    expected = from_folder[0].frame.filter(pl.col("signal").is_in(names))
    assert got.height == expected.height == 720 * (5 * 48 + 1)
    assert got.select("signal", "node", "ts").equals(expected.select("signal", "node", "ts"))
    assert (got.get_column("value") - expected.get_column("value")).abs().max() < 1e-9
    # The rate-based latency differs from the folder's per-interval ratio only in smoothing.
    lat = source(url).metrics(SPEC.window, [PACK.get("disk_read_latency")], step=STEP).frame
    assert lat.height > 0.99 * 720 * 48
    assert lat.get_column("node").n_unique() == 48


def test_chunked_pull_equals_the_unchunked_one(prom):
    wanted = [PACK.get(n) for n in ("throughput", "disk_read_latency", "gpu_util")]
    whole = source(prom).metrics(SPEC.window, wanted, step=STEP)
    chunked = source(prom, max_points=100, concurrency=4).metrics(SPEC.window, wanted, step=STEP)
    assert whole.receipt.chunks == 3 and chunked.receipt.chunks == 3 * 8  # 720 points / 100
    assert chunked.frame.equals(whole.frame)
    assert chunked.receipt.rows_read == whole.receipt.rows_read
    assert chunked.receipt.gaps == whole.receipt.gaps == []
    # Raw series too, with chunks that do not divide the window evenly.
    window = TimeWindow(start=SPEC.window.start, end=SPEC.window.start + timedelta(hours=1))
    raw = source(prom).query_range('DCGM_FI_DEV_GPU_UTIL{node="ip-26-0-161-1"}', window, 30)
    pieces = source(prom, max_points=7).query_range(
        'DCGM_FI_DEV_GPU_UTIL{node="ip-26-0-161-1"}', window, 30
    )
    assert raw.height == 8 * 120 and raw.equals(pieces)


def test_samples_beyond_a_chunk_are_not_repeated_at_the_seams():
    """A server that answers past the range asked (each chunk gets the whole hour)."""
    t0 = int(SPEC.window.start.timestamp())
    values = ",".join(f'[{t0 + 30 * i},"{i}"]' for i in range(120))
    body = (
        '{"status":"success","data":{"resultType":"matrix","result":[{"metric":'
        '{"node":"n1"},"values":[' + values + "]}]}}"
    ).encode()
    window = TimeWindow(start=SPEC.window.start, end=SPEC.window.start + timedelta(hours=1))
    with FaultProxy([("body", body)]) as proxy:
        got = source(proxy.url, max_points=7).metrics(window, THROUGHPUT, step=STEP)
    assert len(proxy.queries) == 18  # 120 points in chunks of 7
    assert got.frame.get_column("value").to_list() == [float(i) for i in range(120)]


# --- faults a real server shows ------------------------------------------------------------------


def test_unreachable_server_is_named():
    port = free_port()  # nothing listens there any more
    url = f"prometheus+http://127.0.0.1:{port}/prefix"
    began = time.monotonic()
    with pytest.raises(PrometheusUnreachable, match=rf"http://127\.0\.0\.1:{port}/prefix"):
        PrometheusSource(url, retries=1, backoff=0.01).metrics(SPEC.window, SIGNALS[:2])
    assert time.monotonic() - began < 5


@pytest.mark.parametrize("server", ["prom", "victoria"])
def test_promql_error_names_the_signal_and_quotes_the_server(server, request):
    url = request.getfixturevalue(server)
    broken = load_pack(
        SPEC.signal_pack,
        {"step_time": {"promql": "max by (node) (trainer_step_time_seconds{$selector}"}},
    )
    wanted = [broken.get(n) for n in ("throughput", "step_time")]
    with pytest.raises(PromQLError) as err:
        source(url).metrics(SPEC.window, wanted)
    message = str(err.value)
    assert "signal step_time" in message
    assert "max by (node) (trainer_step_time_seconds" in message
    assert err.value.server_message and err.value.server_message in message
    assert err.value.signal == "step_time"


def test_no_data_in_the_window_names_the_selector(prom):
    w2030 = TimeWindow(
        start=datetime.fromisoformat("2030-01-01T00:00:00+00:00"),
        end=datetime.fromisoformat("2030-01-01T06:00:00+00:00"),
    )
    with pytest.raises(NoDataError, match=r'selectors \{node="ip-26-0-161-1"\}') as err:
        source(prom, selectors={"node": "ip-26-0-161-1"}).metrics(w2030, SIGNALS)
    assert "2030-01-01T00:00:00+00:00" in str(err.value) and prom in str(err.value)


def test_selectors_pick_the_cluster_and_a_signal_matching_nothing_is_missing(prom):
    pack = load_pack(
        SPEC.signal_pack,
        {
            "dataloader_time": {
                "promql": 'max by (node) (trainer_dataloader_seconds{job="none",$selector})'
            }
        },
    )
    wanted = [pack.get(n) for n in ("throughput", "gpu_util", "dataloader_time")]
    metrics = source(prom, selectors={"node": "ip-26-0-161-1"}).metrics(
        SPEC.window, wanted, step=STEP
    )
    assert metrics.frame.get_column("node").unique().to_list() == ["ip-26-0-161-1"]
    assert set(metrics.frame.get_column("signal").unique()) == {"throughput", "gpu_util"}
    why = metrics.receipt.missing_signals["dataloader_time"]
    assert 'trainer_dataloader_seconds{job="none",node="ip-26-0-161-1"}' in why
    assert 'selectors {node="ip-26-0-161-1"}' in why
    assert any("dataloader_time" in n for n in metrics.receipt.notes())


def test_signal_without_promql_is_named(prom):
    pack = load_pack(SPEC.signal_pack, {"load": {"promql": None}})
    with pytest.raises(MetricsError, match="signal load has no `promql`"):
        source(prom).metrics(SPEC.window, [pack.get("throughput"), pack.get("load")])


# --- faults only a proxy can show, each beside a real answer --------------------------------------

THROUGHPUT = [PACK.get("throughput")]


def test_503_then_200_is_retried(prom):
    expected = source(prom).metrics(SPEC.window, THROUGHPUT).frame
    script = [("status", 503, {}, b"upstream overloaded"), "pass"]
    with FaultProxy(script, upstream=prom) as proxy:
        got = source(proxy.url, backoff=0.01, concurrency=1).metrics(SPEC.window, THROUGHPUT)
    assert len(proxy.queries) == 2 and got.frame.equals(expected)


def test_429_honours_retry_after(prom):
    script = [("status", 429, {"Retry-After": "1"}, b"slow down"), "pass"]
    with FaultProxy(script, upstream=prom) as proxy:
        began = time.monotonic()
        got = source(proxy.url, backoff=0.01, concurrency=1).metrics(SPEC.window, THROUGHPUT)
        waited = time.monotonic() - began
    assert got.frame.height == 720 * 2 and len(proxy.queries) == 2  # 15 s step
    assert waited >= 0.95


def test_persistent_5xx_is_reported_with_status_and_body():
    script = [("status", 502, {}, b"<html>bad gateway from the ingress</html>")]
    with FaultProxy(script) as proxy, pytest.raises(PrometheusHTTPError) as err:
        source(proxy.url, retries=2, backoff=0.01, concurrency=1).metrics(SPEC.window, THROUGHPUT)
    assert err.value.status == 502 and len(proxy.queries) == 3
    assert "HTTP 502" in str(err.value) and "bad gateway from the ingress" in str(err.value)
    assert "signal throughput" in str(err.value)


def test_a_server_hanging_mid_answer_times_out():
    with FaultProxy([("hang", 10)]) as proxy:
        began = time.monotonic()
        with pytest.raises(PrometheusTimeout, match=r"within 0\.5 s") as err:
            source(proxy.url, timeout=0.5, retries=1, backoff=0.01).metrics(SPEC.window, THROUGHPUT)
        assert time.monotonic() - began < 4
    assert proxy.url in str(err.value)


def test_path_prefix_and_wire_headers(prom):
    with FaultProxy(["pass"], upstream=prom, prefix="/prometheus") as proxy:
        got = source(proxy.url).metrics(SPEC.window, THROUGHPUT, step=STEP)
    (seen,) = proxy.queries
    assert seen.path == "/prometheus/api/v1/query_range" and seen.method == "POST"
    assert seen.headers["Accept-Encoding"] == "identity"
    assert seen.form["step"] == "30" and seen.form["start"] == "1741939200"
    assert seen.form["end"] == "1741960770"  # the last step inside [start, end)
    assert got.frame.height == 720


def test_token_is_sent_and_never_shown(prom, monkeypatch, tmp_path):
    token = "s3cr3t-t0ken-value"
    monkeypatch.setenv(ENV + "TOKEN", token)
    with FaultProxy(["pass"], upstream=prom) as proxy:
        got = source(proxy.url).metrics(SPEC.window, SIGNALS[:4])
    assert {s.headers["Authorization"] for s in proxy.queries} == {f"Bearer {token}"}
    assert token not in repr(got.receipt) and not any(token in n for n in got.receipt.notes())
    # A server that echoes the header back in its error must not put it in our message.
    echo = [("status", 500, {}, f"bad auth header: Bearer {token}".encode())]
    with FaultProxy(echo) as proxy, pytest.raises(PrometheusError) as err:
        source(proxy.url, retries=0).metrics(SPEC.window, THROUGHPUT)
    assert token not in str(err.value) and "***" in str(err.value)
    # From a file, and never from the URI.
    secret = tmp_path / "token"
    secret.write_text(token + "\n")
    monkeypatch.delenv(ENV + "TOKEN")
    monkeypatch.setenv(ENV + "TOKEN_FILE", str(secret))
    with FaultProxy(["pass"], upstream=prom) as proxy:
        source(proxy.url).metrics(SPEC.window, THROUGHPUT)
    assert proxy.queries[0].headers["Authorization"] == f"Bearer {token}"
    with pytest.raises(MetricsError) as err:
        PrometheusSource(f"prometheus+http://me:{token}@127.0.0.1:9090")
    assert token not in str(err.value) and ENV + "TOKEN" in str(err.value)


def test_basic_auth_from_the_environment(prom, monkeypatch):
    monkeypatch.setenv(ENV + "USER", "alice")
    monkeypatch.setenv(ENV + "PASSWORD", "pa55word")
    denied = pytest.raises(PrometheusHTTPError, match=r"HTTP 401.*INCIDENTBOOK_PROMETHEUS_TOKEN")
    with FaultProxy([("status", 401, {}, b"unauthorized")]) as proxy, denied:
        source(proxy.url).metrics(SPEC.window, THROUGHPUT)
    assert proxy.queries[0].headers["Authorization"] == "Basic YWxpY2U6cGE1NXdvcmQ="
    monkeypatch.setenv(ENV + "TOKEN", "t")
    with pytest.raises(PrometheusError, match="choose bearer or basic"):
        source(prom)


def test_tls_files_come_from_the_environment_and_are_checked(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV + "CERT", str(tmp_path / "missing.pem"))
    with pytest.raises(PrometheusError, match=f"{ENV}CERT"):
        PrometheusSource("prometheus+https://127.0.0.1:9")
    monkeypatch.delenv(ENV + "CERT")
    monkeypatch.setenv(ENV + "KEY", str(tmp_path / "key.pem"))
    with pytest.raises(PrometheusError, match=f"{ENV}KEY is set without {ENV}CERT"):
        PrometheusSource("prometheus+https://127.0.0.1:9")


def test_nan_only_series_are_a_missing_signal():
    body = (
        b'{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"node":"n1"},'
        b'"values":[[1741939200,"NaN"],[1741939215,"+Inf"]]}]}}'
    )
    finite = body.replace(b'"+Inf"', b'"5"')
    with FaultProxy([("body", body), ("body", finite)]) as proxy:
        got = source(proxy.url, concurrency=1).metrics(SPEC.window, [*THROUGHPUT, PACK.get("load")])
    assert got.frame.select("signal", "value").rows() == [("load", 5.0)]
    assert "only NaN or infinite values" in got.receipt.missing_signals["throughput"]
    assert got.receipt.rows_read == 4
    with FaultProxy([("body", body)]) as proxy, pytest.raises(NoDataError):
        source(proxy.url).metrics(SPEC.window, THROUGHPUT)


def test_a_different_step_from_the_server_is_noted(prom):
    """A proxy that downsamples (Thanos' max_source_resolution does) answers at 60 s."""
    raw = source(prom).query_range("sum by (node) (trainer_tokens_per_second)", SPEC.window, 60)
    values = ",".join(
        f'[{t.timestamp():.0f},"{v}"]' for t, v in raw.select("ts", "value").iter_rows()
    )
    body = (
        '{"status":"success","data":{"resultType":"matrix","result":[{"metric":'
        '{"instance":"ip-26-0-161-1:9400"},"values":[' + values + "]}]}}"
    ).encode()
    with FaultProxy([("body", body)]) as proxy:
        got = source(proxy.url).metrics(SPEC.window, THROUGHPUT, step=STEP)
    notes = " ".join(got.receipt.notes())
    assert "asked" in notes and "30 s step" in notes and "60 s apart" in notes
    assert "without a `node` label are named by `instance` (port removed)" in notes
    assert got.frame.get_column("node").unique().to_list() == ["ip-26-0-161-1"]


def test_a_body_laid_out_differently_parses_the_same(prom):
    """A pretty-printing proxy: the fast text cut steps aside for a plain JSON parse."""
    import json

    expected = source(prom).metrics(SPEC.window, [PACK.get("gpu_temp")])
    proxy_body = json.dumps(
        {
            "status": "success",
            "data": {
                "resultType": "matrix",
                "result": [
                    {"metric": {"node": n}, "values": [[t.timestamp(), repr(v)] for t, v in rows]}
                    for n, rows in _series(expected.frame)
                ],
            },
        },
        indent=1,
    ).encode()
    with FaultProxy([("body", proxy_body)]) as proxy:
        got = source(proxy.url).metrics(SPEC.window, [PACK.get("gpu_temp")])
    assert got.frame.equals(expected.frame)


def _series(frame):
    for (node,), rows in frame.group_by("node", maintain_order=True):
        yield node, rows.select("ts", "value").iter_rows()


# --- pieces ------------------------------------------------------------------------------------


def test_step_rate_and_rendering():
    def hours(n: float) -> TimeWindow:
        return TimeWindow(start=SPEC.window.start, end=SPEC.window.start + timedelta(hours=n))

    assert choose_step(hours(2)) == 15 and choose_step(hours(6)) == 15
    assert choose_step(hours(24)) == 58  # 86,400 s / 1,500 points, rounded up
    assert rate_window(15) == "1m" and rate_window(30) == "2m" and rate_window(58) == "232s"
    up = PACK.get("node_up")
    assert render_promql(up, {}, 15) == 'max by (node) (up{job="node"})'
    assert (
        render_promql(up, {"cluster": 'a"b\\c'}, 15)
        == 'max by (node) (up{job="node",cluster="a\\"b\\\\c"})'
    )
    with pytest.raises(MetricsError, match="not a label name"):
        PrometheusSource("prometheus+http://127.0.0.1:9", selectors={"bad-name": "x"})


def test_chunks_are_aligned_and_cover_the_window_once():
    window = TimeWindow(
        start=datetime.fromisoformat("2025-03-14T08:00:07+00:00"),
        end=datetime.fromisoformat("2025-03-14T09:00:00+00:00"),
    )
    chunks = plan_chunks(window, 30, max_points=7)
    stamps = [t for a, b in chunks for t in range(a, b + 1, 30_000)]
    assert stamps == list(range(chunks[0][0], chunks[-1][1] + 1, 30_000))
    assert stamps[0] == 1741939230_000 and stamps[-1] == 1741942770_000  # inside [start, end)
    assert all(b - a <= 6 * 30_000 for a, b in chunks) and len(stamps) == 119


def test_parse_matrix_fast_path_matches_json():
    body = (
        b'{"status":"success","data":{"resultType":"matrix","result":['
        b'{"metric":{"node":"a","x":"}\\",\\"values\\":["},"values":[[1.5,"1"],[2,"NaN"],[3,"+Inf"]]},'
        b'{"metric":{},"values":[[4,"-2.5e-3"]]}]},"warnings":["w"]}'
    )
    doc, labels, samples = parse_matrix(body)
    assert doc["warnings"] == ["w"] and labels == [{"node": "a", "x": '}","values":['}, {}]
    assert samples.get_column("sid").to_list() == [0, 0, 0, 1]
    assert samples.get_column("value").to_list()[::3] == [1.0, -0.0025]
    assert samples.get_column("ts").dt.epoch("ms").to_list() == [1500, 2000, 3000, 4000]


def test_registered_for_both_schemes():
    src = open_source("prometheus+https://mimir.example:443/prometheus/")
    assert isinstance(src, PrometheusSource) and src.url == "https://mimir.example:443/prometheus"
    assert open_source("prometheus+http://127.0.0.1:9090").url == "http://127.0.0.1:9090"


def test_analyze_and_the_workbook_take_metrics_from_prometheus(prom, tmp_path):
    """The users' commands, end to end: --source on analyze, and on run (the workbook)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from incidentbook.record.store import load_record

    exe = Path(sys.executable).with_name("incidentbook")
    incident = REPO / "data" / "incidents" / "smollm3-storage"
    uri = prom.replace("http://", "prometheus+http://")
    out = subprocess.run(
        [str(exe), "analyze", str(incident), "--source", uri, "--json", "--no-logs"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    drops = [f for f in data["findings"] if f["kind"] == "drop" and f["signal"] == "throughput"]
    assert len(drops) == 7
    assert data["correlations"][0]["signal"] == "disk_read_latency"
    import os

    secret = "tok-7f3a9c1e-never-in-any-output"
    env = {**os.environ, "INCIDENTBOOK_PROMETHEUS_TOKEN": secret}
    done = subprocess.run(
        [str(exe), "run", str(incident), "--source", uri, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    record = load_record(tmp_path / "case.json")
    assert record.evidence.source == uri
    assert record.evidence.correlations[0].signal == "disk_read_latency"
    # The token went to the server from the environment; no file the run wrote holds it.
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.name for p in written} >= {"incident.ipynb", "case.json", "report.html"}
    assert not [p for p in written if secret in p.read_text(errors="replace")]
    assert secret not in done.stdout + done.stderr
