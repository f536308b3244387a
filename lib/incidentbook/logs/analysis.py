"""What the logs say about the window: signatures and templates counted per host and time,
and the findings they give (kind `signature`, `new_template`, `failure_rate`).

For log findings `magnitude` is the share of hosts affected, `value` the number of lines
in the window and `baseline` the number in the baseline window.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import polars as pl

from incidentbook.logs.data import FACTS_SCHEMA
from incidentbook.logs.severity import (
    ALERT_LEVELS,
    ALERT_SIGNATURE_SEVERITIES,
    NOTABLE_SIGNATURE_SEVERITIES,
    SEVERITY_RANK,
    SIGNATURE_SEVERITIES,
    URGENT_LEVELS,
    level_from_content,
)
from incidentbook.logs.signatures import Catalog, match
from incidentbook.logs.templates import TemplateSummary, summarise_templates
from incidentbook.record.model import Finding
from incidentbook.text import counted, listing
from incidentbook.window import TimeWindow

ALERT_SIGNAL = "log_errors"
"""The signal of the logs stage's failure-rate finding: the share of hosts that logged
an alert (a line at err or worse, or taken by an error-or-worse signature). It is the
logs' own, not a signal of the pack; findings and records carry it by this name."""

BURST_LINES = 3  # a main episode of this many lines within two buckets is a burst
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
    # what GPU reports state about each GPU (logs.data.FACTS_SCHEMA)
    gpu_facts: pl.DataFrame = field(default_factory=FACTS_SCHEMA.to_frame)


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
            for k in ("id", "label", "component", "symptom", "explanation", "action")
        }
        for s in catalog.signatures
    ]
    schema = {k: pl.String for k in ("id", "label", "component", "symptom", "explanation")}
    return pl.DataFrame(rows, schema=schema | {"action": pl.String}).rename({"id": "signature"})


def line_severity(catalog: Catalog) -> pl.Expr:
    """Each matched line's severity (a signature severity; null without a signature): its
    Xid code's when it carries one (xid_codes), else the first of its signature's
    severity_by rules that applies to the fields it matched, else the signature's own.
    `match` gives it as `signature_severity`; this reads that column."""
    return pl.when(pl.col("signature").is_not_null()).then(pl.col("signature_severity"))


def _server_named(catalog: Catalog) -> pl.Expr:
    """The server outside the job a matched line names (its signature's `servers`
    fields), else null."""
    chain = None
    for signature in catalog.signatures:
        if not signature.servers:
            continue
        named = pl.coalesce(
            pl.col("fields").str.json_path_match(f"$.{field}") for field in signature.servers
        )
        chain = (pl.when if chain is None else chain.when)(
            pl.col("signature") == signature.id
        ).then(named)
    return pl.lit(None, pl.String) if chain is None else chain.otherwise(None)


def _episodes(hits: pl.DataFrame, in_window: pl.Expr, gap: timedelta) -> pl.DataFrame:
    """Per key, its window lines' main episode: lines closer than `gap` to the one before
    are one episode; the main one has the most lines (ties: the latest). A signature seen
    once days before and then in a burst is dated by the burst, not by the stray line."""
    # Each key's times in order: sorted within each key (a hash of the few keys, then
    # integers), not the lines by key text and time together.
    lines = (
        hits.select("key", "ts")
        .filter(in_window)
        .group_by("key")
        .agg(pl.col("ts").sort())
        .explode("ts")
    )
    lines = lines.with_columns(
        _ep=(pl.col("ts").diff().over("key") > gap).fill_null(False).cum_sum().over("key")
    )
    episodes = lines.group_by("key", "_ep").agg(
        n=pl.len(), start=pl.col("ts").min(), end=pl.col("ts").max()
    )
    return (
        episodes.sort(["key", "n", "start"], descending=[False, True, True])
        .group_by("key", maintain_order=True)
        .agg(
            burst_start=pl.col("start").first(),
            burst_end=pl.col("end").first(),
            burst_count=pl.col("n").first(),
            episodes=pl.len(),
        )
    )


def summarise_signatures(
    keyed: pl.DataFrame,
    catalog: Catalog,
    in_window: pl.Expr,
    in_base: pl.Expr,
    bucket: timedelta = timedelta(minutes=10),
) -> pl.DataFrame:
    """One row per signature key seen in the window. `burst_*` is its main episode (see
    _episodes; lines further apart than two buckets, at least 30 minutes, are separate
    episodes); `burst` says the main episode is several lines within two buckets. Rows
    are ordered by severity (a burst of warnings ranks with the errors), then by the size
    of the main episode and the count: a hang's burst of hung tasks leads older, louder
    lines."""
    if "line_severity" not in keyed.columns:
        keyed = keyed.with_columns(line_severity=line_severity(catalog))
    hits = keyed.filter(pl.col("signature").is_not_null())
    if "fields" in hits.columns:
        hits = hits.with_columns(_server=_server_named(catalog))
    else:
        hits = hits.with_columns(_server=pl.lit(None, pl.String))
    rank = pl.col("line_severity").replace_strict(SEVERITY_RANK, default=9, return_dtype=pl.Int32)
    gap = max(2 * bucket, timedelta(minutes=30))
    per_key = (
        hits.group_by("key", "signature", "xid")
        .agg(
            # The worst severity its window lines had (a signature's severity_by rules can
            # make some of its lines milder than others).
            rank=pl.when(in_window).then(rank).min(),
            count=in_window.sum(),
            baseline_count=in_base.sum(),
            hosts=pl.col("host").filter(in_window).unique().sort(),
            first_seen=pl.col("ts").filter(in_window).min(),
            last_seen=pl.col("ts").filter(in_window).max(),
            example=pl.col("message").filter(in_window).first(),
            servers=pl.col("_server").filter(in_window).drop_nulls().unique().sort(),
        )
        .filter(pl.col("count") > 0)
        .join(_episodes(hits, in_window, gap), on="key", how="left")
        .join(_catalog_frame(catalog), on="signature", how="left")
        .join(catalog.xid_frame(), on="xid", how="left")
        .with_columns(
            # An Xid's own name and remedy are more telling than the generic signature's.
            severity=pl.col("rank").replace_strict(
                dict(enumerate(SIGNATURE_SEVERITIES)), default=None, return_dtype=pl.String
            ),
            label=pl.when(pl.col("xid").is_not_null())
            .then(pl.format("Xid {}: {}", pl.col("xid"), pl.col("xid_name")))
            .otherwise(pl.col("label")),
            explanation=pl.coalesce("xid_meaning", "explanation"),
            action=pl.coalesce("xid_action", "action"),
            component=pl.coalesce("xid_component", "component"),
            burst=(pl.col("burst_count") >= BURST_LINES)
            & (pl.col("burst_end") - pl.col("burst_start") <= 2 * bucket),
        )
        .with_columns(
            # A burst of warnings (a task reported hung again and again) is a failure in
            # the making: it ranks with the errors, and among them by its burst's size.
            _order=pl.when(pl.col("burst") & (pl.col("rank") == SEVERITY_RANK["warning"]))
            .then(SEVERITY_RANK["error"])
            .otherwise(pl.col("rank"))
        )
        .sort(["_order", "burst_count", "count", "key"], descending=[False, True, True, False])
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
        "burst",
        "burst_start",
        "burst_end",
        "burst_count",
        "episodes",
        "explanation",
        "action",
        "example",
        "servers",
    )


def _naming(servers: list[str]) -> str:
    if not servers:
        return ""
    return f" naming server{'s' if len(servers) > 1 else ''} {listing(servers, 3)}"


def _share(n: int, total: int) -> str:
    return f"{n} of {total} hosts ({n / total:.0%})" if total else counted(n, "host")


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
        # Dated by its main episode: a stray line days before a burst does not date it.
        when = (
            f"first at {row['first_seen']:%H:%M:%S} UTC"
            if row["episodes"] == 1
            else f"{row['burst_count']} of them from {row['burst_start']:%Y-%m-%d %H:%M:%S} "
            f"to {row['burst_end']:%H:%M:%S} UTC, the rest in "
            f"{row['episodes'] - 1} other episode{'s' if row['episodes'] > 2 else ''}"
        )
        findings.append(
            Finding(
                kind="signature",
                signal=row["key"],
                start=row["burst_start"],
                end=row["burst_end"],
                magnitude=len(hosts) / hosts_total if hosts_total else 0.0,
                hosts=hosts,
                value=float(row["count"]),
                baseline=float(row["baseline_count"]),
                summary=(
                    f"{row['label']} ({row['severity']}): {counted(row['count'], 'line')} on "
                    f"{_share(len(hosts), hosts_total)}{_naming(row['servers'])}, {when}{action}"
                ),
                servers=row["servers"] or None,
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
                    f"({counted(row['count'], 'line')} on {counted(row['hosts'], 'host')})"
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
    facts: pl.DataFrame | None = None,
) -> LogAnalysis:
    """Signatures, templates, rates and findings for the lines of the baseline and window.
    `facts` (logs.read's Logs.facts: what GPU reports said about each GPU) are kept as
    `gpu_facts` for the record to cite; those that say something is wrong are lines of
    `logs` already, and so signatures and findings."""
    in_window = window.contains()
    in_base = baseline.contains() if baseline else pl.lit(False)
    if "severity" not in logs.columns:
        logs = logs.with_columns(severity=pl.lit(None, pl.String))
    keyed = _keyed(match(logs, catalog)).with_columns(line_severity=line_severity(catalog))
    if "severity" not in keyed.columns:
        keyed = keyed.with_columns(severity=pl.lit(None, pl.String))
    seen = keyed.select(pl.col("host").filter(in_window).n_unique()).item()
    hosts_total = max(hosts_total or 0, seen)
    bucket = bucket_for(window)
    signatures = summarise_signatures(keyed, catalog, in_window, in_base, bucket)
    templates = summarise_templates(keyed, window, baseline)
    counts = (
        keyed.select("ts", "host", "key")
        .filter(in_window & pl.col("key").is_not_null())
        .group_by(pl.col("ts").dt.truncate(bucket).alias("bucket"), "host", "key")
        .agg(count=pl.len())
        .sort("bucket", "host", "key")
    )
    # The level's words are read only on the lines whose level alone would make them alerts.
    maybe = in_window & (
        pl.col("line_severity").is_in(ALERT_SIGNATURE_SEVERITIES)
        | (pl.col("signature").is_null() & pl.col("severity").is_in(ALERT_LEVELS))
    )
    alerts = keyed.filter(maybe).filter(is_alert(catalog)).select("ts", "host")
    findings = _findings(signatures, templates.templates, alerts, hosts_total)
    return LogAnalysis(
        matched=keyed.filter(in_window),
        signatures=signatures,
        counts=counts,
        templates=templates,
        findings=findings,
        hosts_total=hosts_total,
        bucket=bucket,
        gpu_facts=facts if facts is not None else FACTS_SCHEMA.to_frame(),
    )


def is_alert(catalog: Catalog) -> pl.Expr:
    """A line is an alert when a signature took it at error or worse (the line's own
    severity: line_severity), or, for a line no signature knows, when its format logged it
    at err or worse and its words bear that out (logs.severity.level_from_content: register
    dumps, the caller's own errors and err lines that name no failure are not alerts).
    Needs the columns `signature`, `xid`, `fields` (from `match`), `severity`, `message`."""
    by_signature = line_severity(catalog).is_in(ALERT_SIGNATURE_SEVERITIES)
    by_level = level_from_content(pl.col("message"), pl.col("severity")).is_in(ALERT_LEVELS)
    return (
        pl.when(pl.col("signature").is_not_null()).then(by_signature).otherwise(by_level)
    ).fill_null(False)
