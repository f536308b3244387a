"""Evaluating checks on data: when would each have fired, on which hosts.

The same question is asked of two kinds of data:

* an incident folder (`evaluate_folder`): each rule's signal is read the way the pack
  reduces it, then evaluated the way Prometheus evaluates an alerting rule: at every
  `step` (the rule evaluation interval, 1 min by default) the host's latest sample no
  older than the 5-minute lookback; counters as their average rate over the rule's rate
  window (`$rate`); a log check as the host's lines of the signature within its window;
* a live server (check_live), which evaluates the expression itself.

Both give a condition frame (node, ts, value, holds at each evaluation time), and
`episodes` applies `for` to it as Prometheus does: a host is pending from the first
evaluation at which the condition holds and fires once it has held at every evaluation
for `for`; a missed evaluation (no data, or the condition false) starts it over.

`lead` compares the first firing with the symptom's first anomaly: how much earlier the
team would have known.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import polars as pl

from incidentbook.incident import IncidentFolder
from incidentbook.metrics.frames import UTC_US
from incidentbook.metrics.signals import Signal, SignalPack, load_pack
from incidentbook.record.checks import LogCheck, Rule
from incidentbook.record.model import Finding
from incidentbook.window import TimeWindow

LOOKBACK = timedelta(minutes=5)
"""Prometheus' default lookback delta: a sample older than this is not the host's value."""
STEP = timedelta(minutes=1)
"""Prometheus' default rule evaluation interval (and promtool's)."""
SYMPTOM_KINDS = ("drop", "spike", "level_shift")

OPS = {
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
}

CONDITION_SCHEMA = {"node": pl.String, "ts": UTC_US, "value": pl.Float64, "holds": pl.Boolean}
EPISODE_SCHEMA = {
    "node": pl.String,
    "pending": UTC_US,
    "fired": UTC_US,
    "end": UTC_US,
    "value": pl.Float64,
}


@dataclass(frozen=True)
class Firing:
    """One rule's firing episodes on some data (empty: it stayed silent)."""

    rule: Rule
    episodes: pl.DataFrame  # node, pending, fired, end, value: one row per firing stretch
    notes: list[str] = field(default_factory=list)

    @property
    def fired(self) -> bool:
        return self.episodes.height > 0

    @property
    def first_fired(self) -> datetime | None:
        return self.episodes.get_column("fired").min() if self.fired else None

    @property
    def hosts(self) -> list[str]:
        return sorted(self.episodes.get_column("node").unique().to_list())


def grid(window: TimeWindow, step: timedelta = STEP) -> pl.Series:
    """Evaluation times: multiples of the step since the epoch, inside [start, end)."""
    seconds = int(step.total_seconds())
    first = -(-int(window.start.timestamp()) // seconds) * seconds
    last = int(window.end.timestamp())
    stamps = range(first, last, seconds)
    return pl.Series("ts", [s * 1_000_000 for s in stamps], dtype=pl.Int64).cast(UTC_US)


def episodes(cond: pl.DataFrame, hold: timedelta, step: timedelta = STEP) -> pl.DataFrame:
    """The firing stretches of a condition frame, `for` applied (see the module's doc)."""
    held = cond.lazy().filter(pl.col("holds")).sort("node", "ts")
    gap = pl.col("ts").diff().over("node")
    since = pl.col("ts") - pl.col("ts").min()
    return (
        held.with_columns(streak=(gap.is_null() | (gap > step)).cum_sum().over("node"))
        .group_by("node", "streak")
        .agg(
            pending=pl.col("ts").min(),
            fired=pl.col("ts").filter(since >= hold).min(),
            end=pl.col("ts").max(),
            value=pl.col("value").filter(since >= hold).first(),
        )
        .filter(pl.col("fired").is_not_null())
        .select(list(EPISODE_SCHEMA))
        .sort("fired", "node")
        .collect()
        .cast(EPISODE_SCHEMA)
    )


def _at_grid(values: pl.DataFrame, times: pl.Series) -> pl.DataFrame:
    """Each host's latest value at each evaluation time, within the lookback."""
    if values.height == 0:
        return pl.DataFrame(schema={"node": pl.String, "ts": UTC_US, "value": pl.Float64})
    nodes = values.select(pl.col("node").unique().sort())
    frame = nodes.join(pl.DataFrame({"ts": times}), how="cross").sort("ts")
    return frame.join_asof(
        values.sort("ts").select("node", pl.col("ts").alias("_seen"), "value"),
        left_on="ts",
        right_on="_seen",
        by="node",
        strategy="backward",
        tolerance=LOOKBACK,
        check_sortedness=False,  # sorted by ts; polars cannot tell within `by` groups
    ).select("node", "ts", "value")


def _per_second(values: pl.DataFrame, window: timedelta) -> pl.DataFrame:
    """Per-interval rates as their mean over the rate window (what rate() averages)."""
    return values.sort("node", "ts").with_columns(
        pl.col("value").rolling_mean_by("ts", window_size=window).over("node")
    )


Reads = dict[tuple, pl.DataFrame]
"""Signal frames already read from a folder, by span and signals: rules that read the same
signals over the same span (a drafted check and the library's check of the same case)
share one read of the files."""


def _key(span: TimeWindow, signals: list[Signal]) -> tuple:
    return (span.start, span.end, tuple(s.model_dump_json() for s in signals))


def _read(
    folder: IncidentFolder, span: TimeWindow, signals: list[Signal], reads: Reads | None = None
) -> pl.DataFrame:
    key = _key(span, signals)
    if reads is not None and key in reads:
        return reads[key]
    frame = _read_files(folder, span, signals)
    if reads is not None:
        reads[key] = frame
    return frame


def _read_files(folder: IncidentFolder, span: TimeWindow, signals: list[Signal]) -> pl.DataFrame:
    from incidentbook.metrics.data import NoDataError
    from incidentbook.sources.folder import FolderSource

    try:
        frame = FolderSource(folder).metrics(span, signals).frame
    except NoDataError:
        from incidentbook.metrics.frames import SIGNAL_SCHEMA

        return pl.DataFrame(schema=SIGNAL_SCHEMA)
    return frame


def _read_together(
    folder: IncidentFolder, requests: list[tuple[TimeWindow, list[Signal]]], reads: Reads
) -> None:
    """Read the requests of many rules with one read of the folder per span (each read
    lists the files, reads the trainer's log and plans the scans again), and keep each
    request's frame in `reads` as `_read` would have read it alone: every signal is
    reduced on its own, so reading several together changes none of them."""
    by_span: dict[tuple, list[tuple[tuple, list[Signal]]]] = {}
    for span, signals in requests:
        key = _key(span, signals)
        if key not in reads:
            by_span.setdefault((span.start, span.end), []).append((key, signals))
    for (start, end), wanted in by_span.items():
        wanted = list(dict(wanted).items())  # a request made twice is read once
        named = [
            signal.model_copy(update={"name": f"_{n}_{i}"})
            for n, (_, signals) in enumerate(wanted)
            for i, signal in enumerate(signals)
        ]
        frame = _read_files(folder, TimeWindow(start=start, end=end), named)
        for n, (key, signals) in enumerate(wanted):
            reads[key] = pl.concat(
                [
                    frame.filter(pl.col("signal") == f"_{n}_{i}").with_columns(
                        signal=pl.lit(signal.name, frame.schema["signal"])
                    )
                    for i, signal in enumerate(signals)
                ]
            )


def _request(
    rule: Rule, window: TimeWindow, pack: SignalPack, known: pl.DataFrame | None
) -> tuple[TimeWindow, list[Signal]] | pl.DataFrame:
    """What `metric_values` reads from the folder for the rule (the span and the signals),
    or the rows of `known` (node, ts, value) when it has the signal as the rule reads it."""
    signal = pack.get(rule.signal)
    reusable = not rule.count_gpus and signal.kind != "counter_ratio"
    if reusable and known is not None and signal.per == "node":
        mine = _known(known, signal)
        if mine.height:
            return mine
    span = TimeWindow(start=window.start - (rule.rate_window or LOOKBACK), end=window.end)
    # A check reads values only: no unit named (most of a counter's reduction).
    if rule.count_gpus:
        return span, [signal.model_copy(update={"per": "gpu", "kind": "gauge"})]
    if signal.kind == "counter_ratio":
        return span, [
            Signal(
                name=f"_{side}",
                label=side,
                kind="counter_rate",
                metric=metric,
                match=signal.match,
                within="sum",
                name_unit=False,
            )
            for side, metric in (("num", signal.numerator), ("den", signal.denominator))
        ]
    return span, [signal.model_copy(update={"name_unit": False})]


def _known(known: pl.DataFrame, signal: Signal) -> pl.DataFrame:
    return known.filter(pl.col("signal") == signal.name).select("node", "ts", "value")


def metric_values(
    rule: Rule,
    folder: IncidentFolder,
    window: TimeWindow,
    pack: SignalPack,
    known: pl.DataFrame | None = None,
    reads: Reads | None = None,
) -> pl.DataFrame:
    """The rule's per-host value over the window (node, ts, value), from the folder, or
    from `known` (a signal frame already read, e.g. the investigation's) when it has the
    signal as the rule reads it; `reads` keeps the folder's reads for the next rules."""
    signal = pack.get(rule.signal)
    rate_window = rule.rate_window or timedelta(minutes=5)
    wanted = _request(rule, window, pack, known)
    if isinstance(wanted, pl.DataFrame):
        return _per_second(wanted, rate_window) if signal.kind == "counter_rate" else wanted
    raw = _read(folder, *wanted, reads)
    if rule.count_gpus:
        return raw.group_by("node", "ts").agg(value=pl.col("gpu").n_unique().cast(pl.Float64))
    if signal.kind == "counter_ratio":
        num, den = (
            _per_second(
                raw.filter(pl.col("signal") == f"_{side}").select("node", "ts", "value"),
                rate_window,
            )
            for side in ("num", "den")
        )
        return (
            num.join(den, on=["node", "ts"], suffix="_den")
            .filter(pl.col("value_den") > 0)
            .select("node", "ts", value=pl.col("value") / pl.col("value_den"))
        )
    raw = raw.select("node", "ts", "value")
    return _per_second(raw, rate_window) if signal.kind == "counter_rate" else raw


def matched_lines(folder: IncidentFolder, span: TimeWindow) -> pl.DataFrame:
    """The folder's log lines in the span that took a signature: host, ts, signature, xid."""
    from incidentbook.logs.signatures import load_catalog, match
    from incidentbook.sources.folder import FolderSource

    source = FolderSource(folder)
    logs = source.logs(span) if source.has_logs() else None
    if logs is None or logs.frame.height == 0:
        return pl.DataFrame(
            schema={"host": pl.String, "ts": UTC_US, "signature": pl.String, "xid": pl.Int64}
        )
    lines = match(logs.frame.filter(pl.col("host").is_not_null()), load_catalog())
    return lines.filter(pl.col("signature").is_not_null()).select("host", "ts", "signature", "xid")


def log_values(
    rule: Rule,
    folder: IncidentFolder,
    times: pl.Series,
    window: TimeWindow,
    lines: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Lines of the rule's signature per host within its window before each time
    (`lines`: matched_lines of the folder, when already read)."""
    check = rule.check
    assert isinstance(check, LogCheck)
    empty = pl.DataFrame(schema={"node": pl.String, "ts": UTC_US, "value": pl.Float64})
    if lines is None:
        lines = matched_lines(folder, TimeWindow(start=window.start - rule.window, end=window.end))
    lines = lines.filter(pl.col("signature") == check.signature)
    if check.xid is not None:
        lines = lines.filter(pl.col("xid") == check.xid)
    if lines.height == 0:
        return empty
    hits = lines.select(node="host", line_ts="ts")
    frame = hits.select("node").unique().join(pl.DataFrame({"ts": times}), how="cross")
    return (
        frame.join(hits, on="node")
        .filter(
            (pl.col("line_ts") <= pl.col("ts")) & (pl.col("line_ts") > pl.col("ts") - rule.window)
        )
        .group_by("node", "ts")
        .agg(value=pl.len().cast(pl.Float64))
    )


def condition(
    rule: Rule,
    folder: IncidentFolder | Path | str,
    window: TimeWindow | None = None,
    pack: SignalPack | None = None,
    step: timedelta = STEP,
    lines: pl.DataFrame | None = None,
    known: pl.DataFrame | None = None,
    reads: Reads | None = None,
) -> pl.DataFrame:
    """Whether the rule's condition holds on each host at each evaluation time."""
    folder = folder if isinstance(folder, IncidentFolder) else IncidentFolder(folder)
    window = window or folder.spec.window
    times = grid(window, step)
    if isinstance(rule.check, LogCheck):
        found = log_values(rule, folder, times, window, lines)
        return found.with_columns(holds=pl.col("value") >= rule.threshold).cast(CONDITION_SCHEMA)
    pack = pack or load_pack(folder.spec.signal_pack, folder.spec.signals)
    values = metric_values(rule, folder, window, pack, known, reads)
    at = _at_grid(values, times).drop_nulls("value")
    bound = pl.lit(rule.threshold)
    if rule.relative:
        bound = rule.threshold * pl.col("value").median().over("ts")
    compare = OPS[rule.op]
    return at.with_columns(holds=compare(pl.col("value"), bound)).cast(CONDITION_SCHEMA)


def evaluate_folder(
    rules: list[Rule],
    incident: IncidentFolder | Path | str,
    window: TimeWindow | None = None,
    *,
    pack: SignalPack | None = None,
    step: timedelta = STEP,
    known: pl.DataFrame | None = None,
) -> list[Firing]:
    """Each rule evaluated on an incident folder's own data, over its window (`known`: a
    signal frame of that window already read, see metric_values)."""
    folder = incident if isinstance(incident, IncidentFolder) else IncidentFolder(incident)
    window = window or folder.spec.window
    pack = pack or load_pack(folder.spec.signal_pack, folder.spec.signals)
    out = []
    lines = None
    reads: Reads = {}
    _read_together(
        folder,
        [
            wanted
            for rule in rules
            if not isinstance(rule.check, LogCheck) and rule.signal in pack.signals
            if not isinstance(wanted := _request(rule, window, pack, known), pl.DataFrame)
        ],
        reads,
    )
    windows = [r.window for r in rules if isinstance(r.check, LogCheck)]
    if windows:  # the logs are read and matched once for all the log checks
        lines = matched_lines(folder, TimeWindow(start=window.start - max(windows), end=window.end))
    for rule in rules:
        notes = []
        if rule.signal and rule.signal not in pack.signals:
            notes.append(f"signal {rule.signal} is not in the {pack.name} pack")
            out.append(Firing(rule, pl.DataFrame(schema=EPISODE_SCHEMA), notes))
            continue
        cond = condition(rule, folder, window, pack, step, lines, known, reads)
        out.append(Firing(rule, episodes(cond, rule.hold, step), notes))
    return out


def symptom_onset(findings: list[Finding], primary: str) -> datetime | None:
    """When the primary signal's first sharp anomaly began (trends span the window)."""
    starts = [f.start for f in findings if f.signal == primary and f.kind in SYMPTOM_KINDS]
    return min(starts) if starts else None


def lead(firing: Firing, onset: datetime | None) -> timedelta | None:
    """How long before the symptom the rule first fired (negative: after it)."""
    first = firing.first_fired
    return None if first is None or onset is None else onset - first
