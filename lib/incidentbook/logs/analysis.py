"""What the logs say about the window: signatures and templates counted per host and time,
and the findings they give (kind `signature`, `new_template`, `failure_rate`).

For log findings `magnitude` is the share of hosts affected, `value` the number of lines
in the window and `baseline` the number in the baseline window.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import polars as pl

from incidentbook.logs.severity import (
    ALERT_LEVELS,
    ALERT_SIGNATURE_SEVERITIES,
    NOTABLE_SIGNATURE_SEVERITIES,
    SEVERITY_RANK,
    URGENT_LEVELS,
)
from incidentbook.logs.signatures import Catalog, match
from incidentbook.logs.templates import TemplateSummary, summarise_templates
from incidentbook.record.model import Finding
from incidentbook.window import TimeWindow

ALERT_SIGNAL = "log_errors"
"""The signal of the logs stage's failure-rate finding: the share of hosts that logged
an alert (a line at err or worse, or taken by an error-or-worse signature). It is the
logs' own, not a signal of the pack; findings and records carry it by this name."""

NICE_BUCKETS = [timedelta(minutes=m) for m in (1, 2, 5, 10, 15, 30, 60, 120, 360, 720, 1440)]


def bucket_for(window: TimeWindow, buckets: int = 60) -> timedelta:
    """The smallest round bucket that cuts the window into at most `buckets` pieces."""
    for size in NICE_BUCKETS:
        if window.duration / size <= buckets:
            return size
    return NICE_BUCKETS[-1]


@dataclass(frozen=True)
class LogAnalysis:
    matched: pl.DataFrame  # window lines with signature, key, xid, fields
    signatures: pl.DataFrame  # one row per signature key seen in the window
    counts: pl.DataFrame  # bucket, host, key, count: for charts of rates over time
    templates: TemplateSummary
    findings: list[Finding]
    hosts_total: int
    bucket: timedelta


def _keyed(matched: pl.DataFrame) -> pl.DataFrame:
    """Xid lines are told apart by code: `nvidia-xid:79`, the rest by signature id."""
    return matched.with_columns(
        key=pl.when(pl.col("xid").is_not_null())
        .then(pl.format("{}:{}", pl.col("signature"), pl.col("xid")))
        .otherwise(pl.col("signature"))
    )


def _catalog_frame(catalog: Catalog) -> pl.DataFrame:
    rows = [
        {
            k: s.model_dump()[k]
            for k in ("id", "label", "severity", "component", "symptom", "explanation")
        }
        for s in catalog.signatures
    ]
    return pl.DataFrame(rows).rename({"id": "signature"})


def summarise_signatures(
    keyed: pl.DataFrame, catalog: Catalog, in_window: pl.Expr, in_base: pl.Expr
) -> pl.DataFrame:
    hits = keyed.filter(pl.col("signature").is_not_null())
    per_key = (
        hits.group_by("key", "signature", "xid")
        .agg(
            count=in_window.sum(),
            baseline_count=in_base.sum(),
            hosts=pl.col("host").filter(in_window).unique().sort(),
            first_seen=pl.col("ts").filter(in_window).min(),
            last_seen=pl.col("ts").filter(in_window).max(),
            example=pl.col("message").filter(in_window).first(),
        )
        .filter(pl.col("count") > 0)
        .join(_catalog_frame(catalog), on="signature", how="left")
        .join(catalog.xid_frame(), on="xid", how="left")
        .with_columns(
            # An Xid's own severity and name are more telling than the generic signature's.
            severity=pl.coalesce("xid_severity", "severity"),
            label=pl.when(pl.col("xid").is_not_null())
            .then(pl.format("Xid {}: {}", pl.col("xid"), pl.col("xid_name")))
            .otherwise(pl.col("label")),
            explanation=pl.coalesce("xid_meaning", "explanation"),
            action=pl.col("xid_action"),
            component=pl.coalesce("xid_component", "component"),
        )
        .with_columns(rank=pl.col("severity").replace_strict(SEVERITY_RANK, default=9))
        .sort(["rank", "count", "key"], descending=[False, True, False])
    )
    return per_key.select(
        "key",
        "signature",
        "xid",
        "label",
        "severity",
        "component",
        "symptom",
        "count",
        "baseline_count",
        "hosts",
        "first_seen",
        "last_seen",
        "explanation",
        "action",
        "example",
    )


def _share(n: int, total: int) -> str:
    return f"{n} of {total} hosts ({n / total:.0%})" if total else f"{n} hosts"


def _findings(
    signatures: pl.DataFrame,
    templates: pl.DataFrame,
    alerts: pl.DataFrame,
    hosts_total: int,
) -> list[Finding]:
    findings = []
    for row in signatures.filter(pl.col("severity").is_in(NOTABLE_SIGNATURE_SEVERITIES)).iter_rows(
        named=True
    ):
        hosts = row["hosts"]
        action = (
            f"; usual action: {row['action'][0].lower()}{row['action'][1:]}"
            if row["action"]
            else ""
        )
        findings.append(
            Finding(
                kind="signature",
                signal=row["key"],
                start=row["first_seen"],
                end=row["last_seen"],
                magnitude=len(hosts) / hosts_total if hosts_total else 0.0,
                hosts=hosts,
                value=float(row["count"]),
                baseline=float(row["baseline_count"]),
                summary=(
                    f"{row['label']} ({row['severity']}): {row['count']} lines on "
                    f"{_share(len(hosts), hosts_total)}, "
                    f"first at {row['first_seen']:%H:%M:%S} UTC{action}"
                ),
            )
        )
    if alerts.height:
        hosts = sorted(alerts.get_column("host").drop_nulls().unique().to_list())
        failing = signatures.filter(pl.col("severity").is_in(ALERT_SIGNATURE_SEVERITIES))
        worst = ", ".join(failing.head(3).get_column("label")) or "lines logged at err or worse"
        findings.append(
            Finding(
                kind="failure_rate",
                signal=ALERT_SIGNAL,
                start=alerts.get_column("ts").min(),
                end=alerts.get_column("ts").max(),
                magnitude=len(hosts) / hosts_total if hosts_total else 0.0,
                hosts=hosts,
                value=len(hosts) / hosts_total if hosts_total else None,
                summary=(
                    f"{_share(len(hosts), hosts_total)} logged an error or worse "
                    f"({alerts.height} lines); most severe: {worst}"
                ),
            )
        )
    # Only new templates logged at warning or worse (or by a format without levels) become
    # findings; the full list, boot chatter included, is in LogAnalysis.templates.
    notable = templates.filter(
        pl.col("new") & (pl.col("severity").is_null() | pl.col("severity").is_in(URGENT_LEVELS))
    )
    for row in notable.head(10).iter_rows(named=True):
        findings.append(
            Finding(
                kind="new_template",
                signal=f"template-{row['template_id']}",
                start=row["first_seen"],
                end=row["last_seen"],
                magnitude=row["hosts"] / hosts_total if hosts_total else 0.0,
                value=float(row["count"]),
                baseline=0.0,
                summary=(
                    f'New in the window: "{row["template"][:160]}" '
                    f"({row['count']} lines on {row['hosts']} hosts)"
                ),
            )
        )
    return findings


def analyze_logs(
    logs: pl.DataFrame,
    window: TimeWindow,
    baseline: TimeWindow | None,
    catalog: Catalog,
    hosts_total: int | None = None,
) -> LogAnalysis:
    """Signatures, templates, rates and findings for the lines of the baseline and window."""
    in_window = window.contains()
    in_base = baseline.contains() if baseline else pl.lit(False)
    if "severity" not in logs.columns:
        logs = logs.with_columns(severity=pl.lit(None, pl.String))
    keyed = _keyed(match(logs, catalog))
    hosts_total = max(hosts_total or 0, keyed.filter(in_window).get_column("host").n_unique())
    signatures = summarise_signatures(keyed, catalog, in_window, in_base)
    templates = summarise_templates(keyed, window, baseline)
    bucket = bucket_for(window)
    counts = (
        keyed.filter(in_window & pl.col("key").is_not_null())
        .group_by(pl.col("ts").dt.truncate(bucket).alias("bucket"), "host", "key")
        .agg(count=pl.len())
        .sort("bucket", "host", "key")
    )
    alerts = keyed.filter(in_window & is_alert(catalog)).select("ts", "host")
    findings = _findings(signatures, templates.templates, alerts, hosts_total)
    return LogAnalysis(
        matched=keyed.filter(in_window),
        signatures=signatures,
        counts=counts,
        templates=templates,
        findings=findings,
        hosts_total=hosts_total,
        bucket=bucket,
    )


def is_alert(catalog: Catalog) -> pl.Expr:
    """A line is an alert when an error-or-worse signature took it, or when its own format
    logged it at err or worse (a level the format itself states, such as a kernel
    message's priority or a RAS event's FATAL)."""
    severity = {s.id: s.severity for s in catalog.signatures}
    by_signature = (
        pl.col("signature")
        .replace_strict(severity, default=None, return_dtype=pl.String)
        .is_in(ALERT_SIGNATURE_SEVERITIES)
    )
    return (by_signature | pl.col("severity").is_in(ALERT_LEVELS)).fill_null(False)
