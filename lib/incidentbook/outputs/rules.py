"""Prometheus alerting rules from the library's checks, and promtool unit tests for them.

`rules_document` writes one rule group per case: each check becomes an alert whose labels
carry the case id, the check id, the severity and the case's facets (comma-separated),
and whose annotations give a summary naming the host, the check's message, and a link
to the case's page on the library site (`cases/<id>.html`, relative to `base_url`).

`rule_tests` writes a `promtool test rules` file for one case from its own incident
folder. For each rule it takes the series the rule reads (the metrics its expression
names; for a log check, the per-host counter of the signature's lines) from the folder
as `input_series`, on the folder's scrape interval, and asks

* that at an evaluation time inside the longest stretch over which the same hosts fire
  (by `check_eval`'s own evaluation of the folder's data), exactly those hosts fire;
* that on a quiet day (another folder, or by default the incident's own baseline
  window) nothing fires at any of the evaluation times checked.

promtool evaluates the rules with Prometheus' own engine, so a test passes only where
Prometheus and `check_eval` agree: it checks the figures the report gives as much as
the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl

from incidentbook.incident import IncidentFolder
from incidentbook.metrics.signals import SignalPack, load_pack
from incidentbook.record.check_eval import STEP, condition, episodes, grid
from incidentbook.record.checks import LOG_METRIC, LogCheck, Rule, compile_case, prom_duration
from incidentbook.record.model import FACET_FIELDS, CaseRecord
from incidentbook.window import TimeWindow
from incidentbook.yamlio import dump_yaml

EVAL_INTERVAL = STEP


def case_url(case_id: str, base_url: str | None = None) -> str:
    """The case's page on the library site: relative to the site's root, or under base_url."""
    page = f"cases/{case_id}.html"
    return f"{base_url.rstrip('/')}/{page}" if base_url else page


def rule_labels(record: CaseRecord, rule: Rule) -> dict[str, str]:
    labels = {
        "severity": rule.check.severity,
        "case": record.id,
        "check": rule.check.id,
    }
    for field_name in FACET_FIELDS.values():
        values = getattr(record, field_name)
        if values:
            labels[field_name] = ",".join(values)
    if rule.signal:
        labels["signal"] = rule.signal
    if rule.check.drafted:
        labels["drafted"] = "true"
    return labels


def rule_annotations(record: CaseRecord, rule: Rule, base_url: str | None) -> dict[str, str]:
    return {
        "summary": f"{{{{ $labels.node }}}}: {rule.describe()} (as before {record.title})",
        "description": rule.check.message,
        "case_url": case_url(record.id, base_url),
    }


def alert_rule(record: CaseRecord, rule: Rule, base_url: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"alert": rule.alert, "expr": rule.expr}
    if rule.hold > timedelta(0):
        out["for"] = prom_duration(rule.hold)
    out["labels"] = rule_labels(record, rule)
    out["annotations"] = rule_annotations(record, rule, base_url)
    return out


def rules_document(
    records: list[CaseRecord],
    *,
    base_url: str | None = None,
    selectors: dict[str, str] | None = None,
    pack: SignalPack | None = None,
) -> dict[str, Any]:
    """The rule file's content: one group per case with checks."""
    groups = []
    for record in records:
        rules = compile_case(record, pack, selectors)
        if rules:
            groups.append(
                {"name": record.id, "rules": [alert_rule(record, r, base_url) for r in rules]}
            )
    return {"groups": groups}


def rules_text(records: list[CaseRecord], **options: Any) -> str:
    header = (
        "# Prometheus alerting rules from the Incident Library's checks (incidentbook checks\n"
        "# export): one group per case; each alert links to the case to read.\n"
    )
    return header + dump_yaml(rules_document(records, **options))


# --- promtool unit tests ---------------------------------------------------------------------


@dataclass
class RuleTests:
    """The test file's content and what it asks, rule by rule."""

    document: dict[str, Any]
    fires: dict[str, tuple[timedelta, list[str]]] = field(default_factory=dict)  # at, hosts
    quiet_times: dict[str, int] = field(default_factory=dict)  # evaluation times asked
    notes: list[str] = field(default_factory=list)


def _parse_labels(text: str | None) -> dict[str, str]:
    if not text:
        return {}
    return dict(part.split("=", 1) for part in text.split(",") if "=" in part)


def _series_text(metric: str, labels: dict[str, str]) -> str:
    inner = ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(labels.items()))
    return f"{metric}{{{inner}}}"


def _escape(value: str) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _number(value: float) -> str:
    return f"{value:.10g}"


def _values_text(values: list[float | None]) -> str:
    """promtool's expanding notation: runs of one value as `vxN`, gaps as `_xN`."""
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        token = "_" if values[i] is None else _number(values[i])
        out.append(token if j == i else f"{token}x{j - i}")
        i = j + 1
    return " ".join(out)


def scrape_interval(raw: pl.DataFrame) -> timedelta:
    """The folder's scrape interval: the median spacing of a series' samples."""
    spacing = (
        raw.sort("series", "ts")
        .select(pl.col("ts").diff().over("series").dt.total_seconds())
        .to_series()
        .drop_nulls()
    )
    seconds = float(spacing.median()) if spacing.len() else 60.0
    return timedelta(seconds=max(round(seconds), 1))


def raw_series(rule: Rule, folder: IncidentFolder, window: TimeWindow, pack: SignalPack):
    """The samples of every series the rule reads, with a `series` text per label set."""
    from incidentbook.outputs.export import log_counters
    from incidentbook.sources.files import scan_file
    from incidentbook.sources.folder import FolderSource

    if isinstance(rule.check, LogCheck):
        frame = log_counters(folder, window)
        keep = pl.col("signature") == rule.check.signature
        if rule.check.xid is not None:
            keep &= pl.col("xid") == str(rule.check.xid)
        frame = frame.filter(keep)
        label_cols = [c for c in ("node", "signature", "xid") if c in frame.columns]
        return frame.select(
            "ts",
            "value",
            series=pl.concat_str(
                pl.lit(LOG_METRIC + "{"),
                pl.concat_str(
                    [
                        pl.when(pl.col(c).is_not_null()).then(pl.format(f'{c}="{{}}"', pl.col(c)))
                        for c in label_cols
                    ],
                    separator=",",
                    ignore_nulls=True,
                ),
                pl.lit("}"),
            ),
        )
    signal = pack.get(rule.signal)
    scans = [scan_file(p, window, [signal]) for p in FolderSource(folder).files()]
    raw = pl.concat([s.collect() for s in scans], how="vertical_relaxed").with_columns(
        pl.col("metric", "node", "gpu", "labels").cast(pl.String)
    )
    keys = raw.select("metric", "node", "gpu", "labels").unique()
    names = [
        _series_text(
            row["metric"],
            {
                **({"node": row["node"]} if row["node"] else {}),
                **({"gpu": row["gpu"]} if row["gpu"] else {}),
                **_parse_labels(row["labels"]),
            },
        )
        for row in keys.iter_rows(named=True)
    ]
    keys = keys.with_columns(series=pl.Series(names, dtype=pl.String))
    return raw.join(keys, on=["metric", "node", "gpu", "labels"], nulls_equal=True).select(
        "ts", "value", "series"
    )


def input_series(raw: pl.DataFrame, start: datetime, interval: timedelta, points: int) -> list:
    """Each series on the grid start + k * interval (its sample within half an interval
    of each point, else a gap)."""
    step_us = int(interval.total_seconds() * 1_000_000)
    slot = (
        ((pl.col("ts") - pl.lit(start)).dt.total_microseconds() + step_us // 2) // step_us
    ).alias("k")
    placed = (
        raw.with_columns(slot)
        .filter((pl.col("k") >= 0) & (pl.col("k") < points))
        .unique(["series", "k"], keep="last")
        .sort("series", "k")
    )
    out = []
    for (name,), part in placed.group_by(["series"], maintain_order=True):
        values: list[float | None] = [None] * points
        ks, vs = part.get_column("k").to_list(), part.get_column("value").to_list()
        for k, v in zip(ks, vs, strict=True):
            values[k] = v
        last = max(i for i, v in enumerate(values) if v is not None)
        out.append({"series": name, "values": _values_text(values[: last + 1])})
    return out


def _offset(at: datetime, start: datetime) -> str:
    return prom_duration(at - start)


def _stable_stretch(
    eps: pl.DataFrame, times: pl.Series
) -> tuple[datetime, list[str], timedelta] | None:
    """The middle of the longest run of evaluation times with the same non-empty set of
    firing hosts, that set, and how long the run is."""
    best = None
    run_start, run_set, prev = None, None, None
    rows = eps.select("node", "fired", "end").to_dicts()
    for t in times.to_list():
        firing = tuple(sorted(r["node"] for r in rows if r["fired"] <= t <= r["end"]))
        if firing != run_set:
            if run_set and prev is not None:
                length = prev - run_start
                if best is None or length > best[2]:
                    best = (run_start + (prev - run_start) / 2, list(run_set), length)
            run_start, run_set = t, firing
        prev = t
    if run_set and prev is not None:
        length = prev - run_start
        if best is None or length > best[2]:
            best = (run_start + (prev - run_start) / 2, list(run_set), length)
    return best


def _aligned(at: datetime, start: datetime, step: timedelta) -> datetime:
    return start + step * round((at - start) / step)


def _data_start(folder: IncidentFolder, window: TimeWindow) -> datetime:
    """Time 0 of a test: the window's start, on a whole evaluation interval."""
    seconds = int(EVAL_INTERVAL.total_seconds())
    stamp = int(window.start.timestamp()) // seconds * seconds
    return datetime.fromtimestamp(stamp, tz=window.start.tzinfo)


def rule_tests(
    record: CaseRecord,
    incident: IncidentFolder | Path | str,
    rules_file: str,
    *,
    window: TimeWindow | None = None,
    quiet: IncidentFolder | Path | str | None = None,
    quiet_window: TimeWindow | None = None,
    base_url: str | None = None,
    pack: SignalPack | None = None,
    quiet_every: timedelta = timedelta(minutes=10),
) -> RuleTests:
    """A promtool test file for one case's rules from its incident folder (see the top)."""
    folder = incident if isinstance(incident, IncidentFolder) else IncidentFolder(incident)
    pack = pack or load_pack(folder.spec.signal_pack, folder.spec.signals)
    if quiet is None:
        quiet_folder = folder
        quiet_window = quiet_window or folder.spec.baseline
        if quiet_window is None:
            raise ValueError(f"{folder.path} has no baseline window; give a quiet folder")
    else:
        quiet_folder = quiet if isinstance(quiet, IncidentFolder) else IncidentFolder(quiet)
        quiet_window = quiet_window or quiet_folder.spec.window
    out = RuleTests({"rule_files": [rules_file], "evaluation_interval": "1m", "tests": []})
    for rule in compile_case(record, pack):
        labels = rule_labels(record, rule)
        annotations = rule_annotations(record, rule, base_url)
        for data, period, fires in (
            (folder, window or folder.spec.window, True),
            (quiet_folder, quiet_window, False),
        ):
            start = _data_start(data, period)
            span = TimeWindow(start=start, end=period.end)
            raw = raw_series(rule, data, span, pack)
            interval = scrape_interval(raw) if raw.height else EVAL_INTERVAL
            points = int((span.end - start) / interval)
            series = input_series(raw, start, interval, points) if raw.height else []
            cond = condition(rule, data, span, pack)
            eps = episodes(cond, rule.hold)
            times = grid(span)
            where = "its incident" if fires else "a quiet day"
            test: dict[str, Any] = {
                "name": f"{record.id}/{rule.id} on {where} ({data.spec.id})",
                "interval": prom_duration(interval),
                "input_series": series,
            }
            if fires:
                stretch = _stable_stretch(eps, times)
                if stretch is None:
                    out.notes.append(f"{rule.id}: does not fire on {data.spec.id}; no firing test")
                    continue
                at, hosts, _ = stretch
                at = _aligned(at, start, EVAL_INTERVAL)
                out.fires[rule.id] = (at - start, hosts)
                test["alert_rule_test"] = [
                    {
                        "eval_time": _offset(at, start),
                        "alertname": rule.alert,
                        "exp_alerts": [
                            {
                                "exp_labels": {"node": h, **labels},
                                "exp_annotations": {
                                    **annotations,
                                    "summary": annotations["summary"].replace(
                                        "{{ $labels.node }}", h
                                    ),
                                },
                            }
                            for h in hosts
                        ],
                    }
                ]
            else:
                if eps.height:
                    out.notes.append(
                        f"{rule.id}: fires on the quiet data of {data.spec.id} "
                        f"({eps.height} episodes); its quiet-day test will fail"
                    )
                first = start + rule.hold + (rule.rate_window or timedelta(0)) + EVAL_INTERVAL
                first = _aligned(first, start, EVAL_INTERVAL)
                asked, at = [], first
                while at < period.end:
                    asked.append({"eval_time": _offset(at, start), "alertname": rule.alert})
                    at += quiet_every
                out.quiet_times[rule.id] = len(asked)
                test["alert_rule_test"] = [{**a, "exp_alerts": []} for a in asked]
            out.document["tests"].append(test)
    return out


def rule_tests_text(tests: RuleTests) -> str:
    header = "# promtool test rules: generated by incidentbook from the case's incident data.\n"
    return header + dump_yaml(tests.document)
