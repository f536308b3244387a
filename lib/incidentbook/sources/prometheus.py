"""Metrics from a Prometheus-compatible server (Prometheus, VictoriaMetrics, Thanos, Mimir).

    prometheus+http://127.0.0.1:9090             -> http://127.0.0.1:9090/api/v1/query_range
    prometheus+https://mimir.example/prometheus  -> https://mimir.example/prometheus/api/v1/...

Each signal of the pack carries a PromQL expression that aggregates on the server (one
series per host): `$selector` becomes the cluster's label matchers and `$rate` a rate
window picked from the step. The answer is the same canonical signal frame the folder
source returns, so analysis does not know where the data came from.

How a window is pulled:

* Step: the caller's, or the finest whole number of seconds that keeps a series at or
  under `resolution` points (1,500) over the window, never below 15 s. Evaluation times
  are multiples of the step since the epoch, inside the half-open window [start, end).
* Chunks: a range query may return at most 11,000 points per series (Prometheus refuses
  more), so the evaluation times are split into consecutive runs of at most `max_points`;
  runs do not overlap (a range query includes both its ends, so each run ends one step
  before the next begins), and each keeps only samples at its own evaluation times, so
  a server answering beyond the range asked cannot repeat a sample at a seam. Chunks of
  all signals are fetched concurrently, `concurrency` at a time.
* Wire: POST form, `Accept-Encoding: identity` (gzip made a loopback 24-hour pull 10x
  slower, PITFALLS.md). The JSON answer is cut into its series on the text and the
  samples of all series are read by polars' CSV reader: no Python object per sample
  (a 24-hour pull of 2.2M samples, 40 MB: 0.30 s; `json.loads` of that body alone takes
  1.7 s, and frames built from it 2.6 s). A body not laid out the way Prometheus and
  VictoriaMetrics write it goes through `json` instead.
* Faults: connection errors, timeouts, 429 and 5xx are retried with exponential backoff
  (Retry-After honoured), then raised with the URL, the status and an excerpt of the
  body; a PromQL error names the signal and its expression and quotes the server. The
  first fault stops the other requests: a window is never returned with holes that a
  fault made.

Prometheus answers a range query with each series' latest sample up to its lookback
delta (5 min by default) before every step, so a gap shorter than that shows as a flat
value, not as a gap; gaps longer than that are reported (never interpolated).

Credentials come only from the environment, never from parameters or the URI:
INCIDENTBOOK_PROMETHEUS_TOKEN (or _TOKEN_FILE) for a bearer token,
INCIDENTBOOK_PROMETHEUS_USER with _PASSWORD (or _PASSWORD_FILE) for basic auth,
INCIDENTBOOK_PROMETHEUS_CERT / _KEY / _CA for client certificates and a private CA.
No message, note or receipt ever contains one. The credentials, retries and errors are
sources.http's, shared with the next HTTP source; this module is what is Prometheus's.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Mapping
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit, urlunsplit

import httpx
import numpy as np
import polars as pl

from incidentbook.metrics.data import (
    Metrics,
    MetricsError,
    MetricsReceipt,
    NoDataError,
    find_gaps,
)
from incidentbook.metrics.frames import UTC_US, conform
from incidentbook.metrics.signals import Signal
from incidentbook.sources.base import HOST_LABELS, host_of
from incidentbook.sources.http import (
    ErrorKinds,
    HTTPClient,
    HTTPSourceError,
    HTTPStatusError,
    Reject,
    Timeout,
    Unreachable,
)
from incidentbook.window import TimeWindow

__all__ = [
    "PromQLError",
    "PrometheusError",
    "PrometheusHTTPError",
    "PrometheusReceipt",
    "PrometheusReport",
    "PrometheusSource",
    "PrometheusTimeout",
    "PrometheusUnreachable",
    "choose_step",
    "parse_matrix",
    "plan_chunks",
    "rate_window",
    "render_promql",
]

MAX_POINTS = 11_000
"""Prometheus refuses a range query of more points than this per series."""
RESOLUTION = 1_500
MIN_STEP = 15
ENV = "INCIDENTBOOK_PROMETHEUS_"
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)


# --- errors ------------------------------------------------------------------------------


class PrometheusError(MetricsError, HTTPSourceError):
    """A Prometheus-compatible server that could not give the window's metrics."""


class PrometheusUnreachable(PrometheusError, Unreachable):
    """No connection to the server (refused, unknown host, TLS handshake failed)."""


class PrometheusTimeout(PrometheusError, Timeout):
    """The server did not answer in time, or stopped sending mid-answer."""


class PrometheusHTTPError(PrometheusError, HTTPStatusError):
    """An HTTP error status the retries did not cure (or that retrying cannot cure)."""


class PromQLError(PrometheusError):
    """The server rejected a signal's expression (bad syntax, unknown function, ...)."""

    def __init__(self, message: str, signal: str, expr: str, server_message: str):
        super().__init__(message)
        self.signal, self.expr, self.server_message = signal, expr, server_message


_ERRORS = ErrorKinds(PrometheusError, PrometheusUnreachable, PrometheusTimeout, PrometheusHTTPError)


# --- step, rate window, expressions, chunks --------------------------------------------------


def _seconds(step: float | timedelta) -> float:
    return step.total_seconds() if isinstance(step, timedelta) else float(step)


def choose_step(window: TimeWindow, resolution: int = RESOLUTION, floor: float = MIN_STEP) -> float:
    """The finest whole-second step giving at most `resolution` points over the window."""
    seconds = window.duration.total_seconds()
    return float(max(math.ceil(floor), math.ceil(seconds / resolution)))


def rate_window(step: float) -> str:
    """`$rate`: four steps (a rate needs two samples in its window), at least a minute."""
    seconds = max(4 * math.ceil(step), 60)
    return f"{seconds // 60}m" if seconds % 60 == 0 else f"{seconds}s"


def _selector_text(selectors: Mapping[str, str]) -> str:
    parts = []
    for name, value in selectors.items():
        if not _LABEL_NAME.fullmatch(name):
            raise MetricsError(f"{name!r} is not a label name (selectors: cluster.selectors)")
        escaped = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        parts.append(f'{name}="{escaped}"')
    return ",".join(parts)


def render_promql(signal: Signal, selectors: Mapping[str, str], step: float) -> str:
    """The signal's expression with `$selector` and `$rate` filled in."""
    if not signal.promql:
        raise MetricsError(
            f"signal {signal.name} has no `promql` expression, so it cannot be read from a "
            "Prometheus-compatible server; add one to the signal pack or to incident.yaml "
            f"(signals: {{{signal.name}: {{promql: ...}}}})"
        )
    values = {"selector": _selector_text(selectors), "rate": rate_window(step)}
    expr = re.sub(r"\$(selector|rate)\b", lambda m: values[m.group(1)], signal.promql)
    # An empty selector leaves `{job="node",}` or `metric{}`: tidy them.
    expr = re.sub(r"\{\s*,", "{", re.sub(r",\s*\}", "}", expr))
    return re.sub(r"(?<=[\w:])\{\s*\}", "", expr)


def _ms(moment: datetime) -> int:
    return (moment - _EPOCH) // _MS


def plan_chunks(
    window: TimeWindow, step: float, max_points: int = MAX_POINTS
) -> list[tuple[int, int]]:
    """(first, last) evaluation times in ms, multiples of the step, inside [start, end).

    Consecutive chunks do not overlap: each ends one step before the next starts.
    """
    step_ms = round(_seconds(step) * 1000)
    if step_ms <= 0:
        raise MetricsError(f"the step must be positive, not {step}")
    if max_points < 1:
        raise MetricsError(f"max_points must be at least 1, not {max_points}")
    first = -(-_ms(window.start) // step_ms) * step_ms
    last = (-(-_ms(window.end) // step_ms) - 1) * step_ms
    chunks = []
    while first <= last:
        end = min(first + (max_points - 1) * step_ms, last)
        chunks.append((first, end))
        first = end + step_ms
    return chunks


def _stamp(ms: int) -> str:
    return f"{ms // 1000}" if ms % 1000 == 0 else f"{ms / 1000:.3f}"


# --- parsing the answer ------------------------------------------------------------------------

_SERIES_START = '{"metric":'
_VALUES_START = '},"values":['


def _samples_frame(sid: np.ndarray, ts: pl.Series, value: pl.Series) -> pl.DataFrame:
    ms = (ts.cast(pl.Float64) * 1000).round().cast(pl.Int64)
    return pl.DataFrame(
        {
            "sid": pl.Series(sid, dtype=pl.UInt32),
            "ts": (ms * 1000).cast(UTC_US),
            "value": value if value.dtype == pl.Float64 else value.cast(pl.Float64, strict=False),
        }
    )


def _no_samples() -> pl.DataFrame:
    return _samples_frame(np.zeros(0, np.uint32), pl.Series([], dtype=pl.Float64), pl.Series())


def _parse_fast(text: str) -> tuple[dict, list[dict], pl.DataFrame] | None:
    """Cut the body into series on its text; None if it is not laid out as expected.

    In valid JSON, `{"metric":` and `},"values":[` (with their unescaped quotes) cannot
    occur inside a string, so they mark structure. A values array `[ts,"v"],[ts,"v"]`
    holds no bracket or comma of its own beyond its pairs', so with `],[` turned into
    line ends it is CSV: polars' CSV reader parses all the series' samples at once
    (twice as fast as regex extraction over the same text, and half the memory).
    The number of lines read must match the pairs counted, or the slow path is taken.
    """
    at = text.find('"result":[')
    if at < 0:
        return None
    head, body = text[: at + 10], text[at + 10 :]
    pieces = body.split(_SERIES_START)
    del body
    if len(pieces) == 1:
        try:
            return json.loads(text), [], _no_samples()
        except ValueError:
            return None
    if pieces[0].strip():
        return None
    metrics, arrays, tail = [], [], ""
    last = len(pieces) - 2
    for i, piece in enumerate(pieces[1:]):
        cut = piece.find(_VALUES_START)
        if cut < 0:
            return None
        metrics.append(piece[: cut + 1])
        rest = piece[cut + len(_VALUES_START) :]
        if rest.startswith("]"):  # no samples: "values":[]
            close = 0
        else:  # the last pair's bracket, then the array's
            close = rest.find("]]") + 1
            if close == 0:
                return None
        arrays.append(rest[1 : close - 1])  # without the first and the last bracket
        after = rest[close + 1 :]
        if i < last:
            if after.strip() != "},":
                return None
        else:
            tail = after.lstrip()
    del pieces
    if not tail.startswith("}"):
        return None
    try:
        skeleton = json.loads(head + tail[1:])  # the result emptied, the rest kept
        labels = [json.loads(m) for m in metrics]
    except ValueError:
        return None
    counts = np.array([a.count("],[") + 1 if a else 0 for a in arrays], dtype=np.int64)
    csv = "\n".join(a.replace("],[", "\n") for a in arrays if a).encode()
    del arrays
    if not csv:
        return skeleton, labels, _no_samples()
    try:
        pairs = pl.read_csv(
            csv,
            has_header=False,
            new_columns=["ts", "value"],
            schema_overrides=[pl.Float64, pl.Float64],
            quote_char='"',
        )
    except pl.exceptions.PolarsError:
        return None
    if pairs.height != counts.sum() or pairs.null_count().sum_horizontal().item():
        return None
    sid = np.repeat(np.arange(len(counts), dtype=np.uint32), counts)
    return skeleton, labels, _samples_frame(sid, pairs.get_column("ts"), pairs.get_column("value"))


def _parse_json(text: str) -> tuple[dict, list[dict], pl.DataFrame]:
    """Any valid answer, through `json` (slower: a Python object per sample)."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not JSON ({exc})") from None
    data = doc.get("data") if isinstance(doc, dict) else None
    result = data.get("result") if isinstance(data, dict) else None
    if not isinstance(result, list):
        return doc, [], _no_samples()
    data["result"] = []  # as the fast path gives it: the document without its series
    labels, sids, stamps, values = [], [], [], []
    for i, series in enumerate(result):
        labels.append(series.get("metric", {}))
        pairs = series.get("values") or []
        if pairs:
            ts, vs = zip(*pairs, strict=True)
            stamps.extend(ts)
            values.extend(vs)
            sids.append(np.full(len(ts), i, np.uint32))
    sid = np.concatenate(sids) if sids else np.zeros(0, np.uint32)
    return (
        doc,
        labels,
        _samples_frame(
            sid, pl.Series(stamps, dtype=pl.Float64), pl.Series(values, dtype=pl.String)
        ),
    )


def parse_matrix(body: bytes | str) -> tuple[dict, list[dict], pl.DataFrame]:
    """A query_range answer as (the document without its result, each series' labels,
    samples: sid (index into the labels), ts, value).

    Values are parsed as Prometheus writes them ("NaN", "+Inf" included); the caller
    decides what to keep.
    """
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    parsed = _parse_fast(text)
    return parsed if parsed is not None else _parse_json(text)


def _labels_frame(labels: list[dict], ids: dict[tuple, int]) -> pl.DataFrame:
    """One row per series of an answer: a column per label, and `series`, an id for
    the label set that is the same in every chunk (`ids` is shared between them)."""
    names = sorted({k for d in labels for k in d})
    columns = {n: pl.Series(n, [d.get(n) for d in labels], dtype=pl.String) for n in names}
    series = [ids.setdefault(tuple(sorted(d.items())), len(ids)) for d in labels]
    return pl.DataFrame({"series": pl.Series(series, dtype=pl.UInt32), **columns})


def _spread(samples: pl.DataFrame, per_series: pl.DataFrame) -> pl.DataFrame:
    """The samples with their series' columns (a gather by sid, not a join)."""
    return pl.concat([samples.drop("sid"), per_series[samples.get_column("sid")]], how="horizontal")


# --- the source ------------------------------------------------------------------------------


@dataclass
class PrometheusReceipt(MetricsReceipt):
    """A metrics receipt with what only a server can tell: where, the step, the queries."""

    url: str = ""
    step_seconds: float = 0.0
    chunks: int = 0
    queries: dict[str, str] = field(default_factory=dict)
    source_notes: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        return [*super().notes(), *self.source_notes]


@dataclass
class _Task:
    signal: str | None
    expr: str
    first: int
    last: int

    @property
    def what(self) -> str:
        return f"signal {self.signal}'s query ({self.expr})" if self.signal else self.expr


def _base_url(uri: str) -> str:
    scheme, _, rest = uri.partition("://")
    if scheme not in {"prometheus+http", "prometheus+https"} or not rest:
        raise MetricsError(
            f"{uri.split('@')[-1]!r} is not a prometheus+http:// or prometheus+https:// URI"
        )
    parts = urlsplit(f"{scheme.removeprefix('prometheus+')}://{rest}")
    if "@" in parts.netloc:
        raise MetricsError(
            "credentials in the URI are not accepted (they end up in logs and notebooks); "
            f"set {ENV}TOKEN, or {ENV}USER and {ENV}PASSWORD, in the environment"
        )
    if not parts.hostname:
        raise MetricsError(f"{uri!r} names no host")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


class PrometheusSource:
    """Signals from a Prometheus-compatible HTTP API (the Source protocol).

    `selectors` are label matchers put in every expression's `$selector` (the spec's
    cluster.selectors); `step` fixes the step (seconds or a timedelta) instead of
    choosing one for `resolution` points per series; `timeout` bounds each request, in
    all; `retries` is how many times a failed request is tried again.
    """

    def __init__(
        self,
        uri: str,
        selectors: Mapping[str, str] | None = None,
        *,
        step: float | timedelta | None = None,
        resolution: int = RESOLUTION,
        max_points: int = MAX_POINTS,
        concurrency: int = 4,
        timeout: float = 30.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_retry_after: float = 60.0,
    ):
        self.url = _base_url(uri)
        self.selectors = dict(selectors or {})
        _selector_text(self.selectors)  # names checked now, not at the first query
        self.step = None if step is None else _seconds(step)
        self.resolution = resolution
        self.max_points = max_points
        self.http = HTTPClient(
            self.url,
            ENV,
            service="the Prometheus server",
            errors=_ERRORS,
            hints={404: "; is the URI's path prefix right (e.g. /prometheus for Mimir)?"},
            timeout=timeout,
            retries=retries,
            backoff=backoff,
            max_retry_after=max_retry_after,
            concurrency=concurrency,
        )

    @property
    def timeout(self) -> float:
        return self.http.timeout

    @property
    def concurrency(self) -> int:
        return self.http.concurrency

    def __repr__(self) -> str:
        return f"PrometheusSource({self.url!r}, selectors={self.selectors!r})"

    def _reject(self, task: _Task) -> Reject:
        """A 400 or 422 with a message is the server refusing the expression."""

        def reject(status: int, excerpt: str) -> Exception | None:
            if status not in {400, 422} or not excerpt:
                return None
            whose = f"signal {task.signal}'s expression" if task.signal else "the query"
            return PromQLError(
                f"{self.url} rejected {whose}: {excerpt}\n  expression: {task.expr}",
                task.signal or "",
                task.expr,
                excerpt,
            )

        return reject

    # -- queries -------------------------------------------------------------------------

    def _fetch(
        self, client: httpx.Client, task: _Task, step_ms: int, abort: threading.Event
    ) -> tuple[list[dict], pl.DataFrame, list[str]]:
        form = {
            "query": task.expr,
            "start": _stamp(task.first),
            "end": _stamp(task.last),
            "step": _stamp(step_ms),
            "timeout": f"{max(self.timeout - 1, 1):g}s",
        }
        body = self.http.post(
            client, "/api/v1/query_range", form, task.what, abort, self._reject(task)
        )
        try:
            doc, labels, samples = parse_matrix(body)
        except (ValueError, pl.exceptions.PolarsError) as exc:
            raise PrometheusError(
                f"{self.url} answered {task.what} with something that is not a Prometheus "
                f"API answer ({exc}): {self.http.excerpt(body)}"
            ) from None
        if not isinstance(doc, dict) or doc.get("status") != "success":
            raise PrometheusError(
                f"{self.url} answered {task.what} without success: {self.http.excerpt(body)}"
            )
        kind = (doc.get("data") or {}).get("resultType")
        if kind != "matrix":
            raise PrometheusError(
                f"{self.url} answered {task.what} with a {kind!r} result, not a matrix "
                "(is this the query_range API of a Prometheus-compatible server?)"
            )
        # A chunk keeps only its own evaluation times, so chunks cannot overlap at the
        # seams even if a server answers a little beyond the range asked.
        lo, hi = (_EPOCH + _MS * ms for ms in (task.first, task.last))
        if samples.height and (
            samples.get_column("ts").min() < lo or samples.get_column("ts").max() > hi
        ):
            samples = samples.filter(pl.col("ts").is_between(lo, hi))
        warnings = [self.http.redact(str(w)) for w in doc.get("warnings") or []]
        return labels, samples, warnings

    def _run(
        self, tasks: list[_Task], step_ms: int
    ) -> list[tuple[list[dict], pl.DataFrame, list[str]]]:
        abort = threading.Event()
        with self.http.session() as client, ThreadPoolExecutor(self.concurrency) as pool:
            futures = [pool.submit(self._fetch, client, t, step_ms, abort) for t in tasks]
            done, _ = wait(futures, return_when=FIRST_EXCEPTION)
            failed = next((f for f in futures if f in done and f.exception()), None)
            if failed is not None:
                # Stop the rest (queued ones are cancelled, running ones give up at their
                # next attempt) and raise the first fault: no window with holes.
                abort.set()
                for f in futures:
                    f.cancel()
                wait(futures)
                raise failed.exception()
            return [f.result() for f in futures]

    def query_range(
        self, expr: str, window: TimeWindow, step: float | timedelta | None = None
    ) -> pl.DataFrame:
        """One expression's raw series over the window: ts, value and a column per label
        (chunked and fetched concurrently like `metrics`)."""
        step_s = (
            _seconds(step)
            if step is not None
            else self.step or choose_step(window, self.resolution)
        )
        chunks = plan_chunks(window, step_s, self.max_points)
        tasks = [_Task(None, expr, a, b) for a, b in chunks]
        parts, ids = [], {}
        for labels, samples, _ in self._run(tasks, round(step_s * 1000)):
            if labels:
                parts.append(_spread(samples, _labels_frame(labels, ids)))
        if not parts:
            return pl.DataFrame(schema={"ts": UTC_US, "value": pl.Float64})
        frame = pl.concat(parts, how="diagonal_relaxed")
        if len(chunks) > 1:
            frame = frame.sort("series", "ts", maintain_order=True)
        return frame.drop("series")

    def logs(self, window: TimeWindow) -> None:
        """A metrics server has no logs (the incident folder's are read instead)."""
        return None

    def metrics(
        self,
        window: TimeWindow,
        signals: list[Signal],
        step: float | timedelta | None = None,
    ) -> Metrics:
        """The signals over the window, as the canonical signal frame and its receipt."""
        signals = list({s.name: s for s in signals}.values())
        step_s = (
            _seconds(step)
            if step is not None
            else self.step or choose_step(window, self.resolution)
        )
        step_ms = round(step_s * 1000)
        exprs = {s.name: render_promql(s, self.selectors, step_s) for s in signals}
        chunks = plan_chunks(window, step_s, self.max_points)
        receipt = PrometheusReceipt(
            files=[self.url],
            url=self.url,
            step_seconds=step_s,
            chunks=len(chunks) * len(signals),
            queries=exprs,
        )
        tasks = [_Task(s.name, exprs[s.name], a, b) for s in signals for a, b in chunks]
        results = self._run(tasks, step_ms) if tasks else []

        per_signal: dict[str, list[pl.DataFrame]] = {s.name: [] for s in signals}
        warnings: set[str] = set()
        ids: dict[tuple, int] = {}
        for task, (labels, samples, warned) in zip(tasks, results, strict=True):
            warnings.update(warned)
            if labels:
                rows = self._rows(task.signal, labels, samples, ids, receipt)
                per_signal[task.signal].append(rows)
        by_name = {s.name: s for s in signals}
        frames, spacing = [], []
        for name, parts in per_signal.items():
            signal = by_name[name]
            if not parts:
                receipt.missing_signals[name] = self._why_missing(exprs[name], "returned no series")
                continue
            rows = pl.concat(parts, how="vertical")
            receipt.rows_read += rows.height
            rows = rows.filter(pl.col("value").is_finite())
            if rows.height == 0:
                receipt.missing_signals[name] = self._why_missing(
                    exprs[name], "returned only NaN or infinite values"
                )
                continue
            self._check_series(signal, rows, receipt)
            spacing.append(
                rows.select(pl.col("ts").diff().over("series").dt.total_milliseconds())
                .to_series()
                .drop_nulls()
            )
            frames.append(
                rows.select(
                    "ts",
                    signal=pl.lit(name, pl.String),
                    node="node",
                    gpu=pl.col("gpu") if signal.per == "gpu" else pl.lit(None, pl.String),
                    value="value",
                )
            )
        if not frames:
            sel = _selector_text(self.selectors)
            raise NoDataError(
                f"no samples between {window.start.isoformat()} and {window.end.isoformat()} "
                f"from {self.url} for any of the {len(signals)} signals' queries, with "
                + (
                    f"selectors {{{sel}}}"
                    if sel
                    else "no selectors (cluster.selectors in incident.yaml is empty)"
                )
                + f"; e.g. {next(iter(exprs.values()), '')}"
            )
        frame = conform(pl.concat(frames, how="vertical")).sort(
            ["signal", "node", "gpu", "ts"], nulls_last=True
        )
        self._check_step(pl.concat(spacing), step_s, receipt)
        receipt.gaps = find_gaps(frame)
        receipt.source_notes.extend(f"the server warned: {w}" for w in sorted(warnings))
        return Metrics(frame=frame, receipt=receipt, window=window)

    # -- helpers of metrics() -------------------------------------------------------------

    def _why_missing(self, expr: str, what: str) -> str:
        sel = _selector_text(self.selectors)
        return f"the query {expr} {what} in the window" + (f" (selectors {{{sel}}})" if sel else "")

    def _rows(
        self,
        name: str,
        labels: list[dict],
        samples: pl.DataFrame,
        ids: dict[tuple, int],
        receipt: PrometheusReceipt,
    ) -> pl.DataFrame:
        """A chunk's samples with their series id, node (and gpu) from the labels."""
        frame = _labels_frame(labels, ids)
        hosts = [h for h in HOST_LABELS if h in frame.columns]
        keys = frame.select(
            "series",
            node=host_of(frame.columns),
            gpu=pl.col("gpu") if "gpu" in frame.columns else pl.lit(None, pl.String),
        )
        lacking = frame["node"].null_count() if "node" in frame.columns else frame.height
        fallback = next((h for h in HOST_LABELS[1:] if h in frame.columns), None)
        fallback = fallback if lacking else None
        note = None
        if fallback:
            note = f"signal {name}: series without a `node` label are named by `{fallback}`" + (
                " (port removed)" if fallback == "instance" else ""
            )
        elif not hosts and frame.height > 1:
            note = (
                f"signal {name}: its {frame.height} series carry no node, instance or Hostname "
                "label; aggregate its expression `by (node)`"
            )
        if note and note not in receipt.source_notes:
            receipt.source_notes.append(note)
        return _spread(samples, keys)

    def _check_series(self, signal: Signal, rows: pl.DataFrame, receipt: PrometheusReceipt) -> None:
        level = ["node", "gpu"] if signal.per == "gpu" else ["node"]
        shared = rows.group_by(level).agg(n=pl.col("series").n_unique()).filter(pl.col("n") > 1)
        if shared.height:
            receipt.source_notes.append(
                f"signal {signal.name}: {shared.height} hosts have more than one series "
                f"(up to {shared.get_column('n').max()}); its expression should aggregate "
                f"`by ({', '.join(level)})`"
            )

    def _check_step(self, spacing_ms: pl.Series, step_s: float, receipt: PrometheusReceipt) -> None:
        if spacing_ms.len() == 0:
            return
        got = float(spacing_ms.median()) / 1000
        if abs(got - step_s) > max(0.001, 0.01 * step_s):
            receipt.source_notes.append(
                f"asked {self.url} for a {step_s:g} s step and got samples {got:g} s apart "
                "(the server or a proxy changed the resolution)"
            )


def open_prometheus(
    uri: str, selectors: Mapping[str, str] | None = None, **options
) -> PrometheusSource:
    """The factory of the `prometheus+http` and `prometheus+https` schemes."""
    return PrometheusSource(uri, selectors, **options)


PrometheusReport = PrometheusReceipt
"""The receipt's name before 0.2."""
