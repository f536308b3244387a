"""Real metrics servers for the tests, and a fault-injecting proxy in front of them.

* `prometheus(...)`: Debian's prometheus over a TSDB backfilled by promtool from an
  OpenMetrics export, on a free loopback port, no scraping, retention long enough to
  keep 2025 data; ready when /-/ready says so; stopped by its PID.
* `victoria_metrics(...)`: Debian's victoria-metrics on a temporary storage folder, the
  same export imported through /api/v1/import/prometheus (timestamps rewritten to the
  milliseconds its documentation specifies), ready when every sample is queryable.
* `FaultProxy`: a tiny loopback HTTP server that answers each request by a script
  (503, 429 with Retry-After, a hang mid-answer, a canned body) or passes it on to a
  real server, recording what it was sent (headers included). It stands in only for
  faults a real Prometheus cannot be made to show on demand.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import polars as pl


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    name: str
    url: str
    process: subprocess.Popen
    log: Path

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def _stop(process: subprocess.Popen) -> None:
    """Stop the one process we started, by its PID."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _get(url: str, timeout: float = 2.0) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except OSError:
        return 0, b""


def _wait_until(server: Server, ready, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(
                f"{server.name} exited with {server.process.returncode} before {what}:\n"
                f"{server.log_tail()}"
            )
        if ready():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{server.name} not {what} after {seconds:.0f} s:\n{server.log_tail()}")


def backfill(openmetrics: Path, tsdb: Path, promtool: str = "promtool") -> None:
    """promtool's backfill of an OpenMetrics file (timestamps in seconds, `# EOF` last)."""
    done = subprocess.run(
        [promtool, "tsdb", "create-blocks-from", "openmetrics", str(openmetrics), str(tsdb)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"promtool backfill failed: {done.stderr[-2000:]}")


@contextlib.contextmanager
def prometheus(tsdb: Path, workdir: Path, binary: str = "prometheus") -> Iterator[Server]:
    """Prometheus serving an existing TSDB folder, without scraping anything."""
    config = workdir / "prometheus.yml"
    config.write_text("global:\n  scrape_interval: 15s\nscrape_configs: []\n")
    port = free_port()
    log = workdir / "prometheus.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={tsdb}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--storage.tsdb.retention.time=100y",
                "--log.level=warn",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=workdir,
        )
    server = Server("prometheus", f"http://127.0.0.1:{port}", process, log)
    try:
        _wait_until(server, lambda: _get(server.url + "/-/ready")[0] == 200, 30, "ready")
        yield server
    finally:
        _stop(process)


def openmetrics_in_ms(openmetrics: Path) -> bytes:
    """The export's samples with timestamps in integer milliseconds, as the Prometheus
    text format (and VictoriaMetrics' documentation) has them."""
    lines = pl.scan_csv(
        openmetrics,
        has_header=False,
        separator="\x1f",
        quote_char=None,
        new_columns=["line"],
        schema_overrides=[pl.String],
    )
    stamp = pl.col("line").str.extract(r" (\S+)$")
    text = (
        lines.filter(~pl.col("line").str.starts_with("#"))
        .select(
            pl.format(
                "{} {}",
                pl.col("line").str.replace(r" \S+$", ""),
                (stamp.cast(pl.Float64) * 1000).round().cast(pl.Int64),
            )
        )
        .collect()
        .to_series()
    )
    return ("\n".join(text.to_list()) + "\n").encode()


@contextlib.contextmanager
def victoria_metrics(
    storage: Path, workdir: Path, binary: str = "victoria-metrics"
) -> Iterator[Server]:
    """VictoriaMetrics on an empty storage folder (load data with `vm_import`)."""
    port = free_port()
    log = workdir / "victoria-metrics.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                binary,
                f"-storageDataPath={storage}",
                f"-httpListenAddr=127.0.0.1:{port}",
                "-retentionPeriod=100y",
                "-search.disableCache",  # nothing cached from before the import ends
                "-loggerLevel=WARN",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=workdir,
        )
    server = Server("victoria-metrics", f"http://127.0.0.1:{port}", process, log)
    try:
        _wait_until(server, lambda: _get(server.url + "/health")[0] == 200, 30, "healthy")
        yield server
    finally:
        _stop(process)


def vm_import(server: Server, body: bytes, samples: int, at: float, seconds: float = 60) -> None:
    """POST Prometheus text to VictoriaMetrics, then wait until all `samples` (in the
    year before epoch second `at`) can be queried."""
    request = urllib.request.Request(
        server.url + "/api/v1/import/prometheus", data=body, method="POST"
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        if response.status not in {200, 204}:
            raise RuntimeError(f"import answered {response.status}: {response.read()[:300]!r}")
    _get(server.url + "/internal/force_flush")
    query = urllib.parse.urlencode(
        {"query": 'sum(count_over_time({__name__=~".+"}[1y]))', "time": f"{at:.3f}"}
    )

    def counted() -> bool:
        import json

        status, raw = _get(f"{server.url}/api/v1/query?{query}")
        if status != 200:
            return False
        result = json.loads(raw)["data"]["result"]
        return bool(result) and int(float(result[0]["value"][1])) >= samples

    _wait_until(server, counted, seconds, f"serving all {samples} imported samples")


# --- a scripted proxy for faults -------------------------------------------------------------


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    form: dict[str, str]


@dataclass
class FaultProxy:
    """A loopback HTTP server answering requests by `script`, one action per request
    (the last repeats); `upstream` is the real server "pass" forwards to.

    Actions: "pass"; ("status", code, headers, body); ("hang", seconds) sends the
    headers and half a body, then stalls; ("body", bytes) answers 200 with that body.
    `prefix` is a path prefix the proxy expects and strips (Thanos/Mimir style).
    """

    script: list
    upstream: str | None = None
    prefix: str = ""
    seen: list[Seen] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> FaultProxy:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                self._handle(b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self._handle(self.rfile.read(length))

            def _handle(self, body: bytes) -> None:
                form = dict(urllib.parse.parse_qsl(body.decode()))
                proxy.seen.append(Seen(self.command, self.path, dict(self.headers), form))
                index = min(len(proxy.seen), len(proxy.script)) - 1
                action = proxy.script[index]
                if not self.path.startswith(proxy.prefix + "/"):
                    return self._send(404, {}, b"404 page not found")
                path = self.path[len(proxy.prefix) :]
                if action == "pass":
                    return self._forward(path, body)
                kind = action[0]
                if kind == "status":
                    _, code, headers, payload = action
                    return self._send(code, headers, payload)
                if kind == "body":
                    return self._send(200, {"Content-Type": "application/json"}, action[1])
                if kind == "hang":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "100000")
                    self.end_headers()
                    self.wfile.write(b'{"status":"success","data":{"resultType":"matrix","res')
                    self.wfile.flush()
                    proxy.release.wait(action[1])
                    self.close_connection = True
                    return None
                raise AssertionError(f"unknown action {action!r}")

            def _forward(self, path: str, body: bytes) -> None:
                assert proxy.upstream, "a 'pass' action needs an upstream server"
                parts = urllib.parse.urlsplit(proxy.upstream)
                conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
                headers = {
                    "Content-Type": self.headers.get(
                        "Content-Type", "application/x-www-form-urlencoded"
                    ),
                    "Accept-Encoding": "identity",
                }
                conn.request(self.command, path, body=body or None, headers=headers)
                answer = conn.getresponse()
                payload = answer.read()
                conn.close()
                self._send(
                    answer.status, {"Content-Type": answer.getheader("Content-Type", "")}, payload
                )

            def _send(self, code: int, headers: dict, payload: bytes) -> None:
                self.send_response(code)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{self.prefix}"

    @property
    def queries(self) -> list[Seen]:
        return [s for s in self.seen if s.path.endswith("/api/v1/query_range")]

    def __exit__(self, *exc) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
