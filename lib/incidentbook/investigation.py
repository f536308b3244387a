"""The stages in order, for one incident: window -> source -> signal frames -> analysis,
and logs -> signatures and templates -> log findings.

The workbook and the CLI call these; each stage lives in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

import incidentbook.sources.prometheus  # noqa: F401  (registers the prometheus+http(s) sources)
from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder, IncidentSpec
from incidentbook.logs.analysis import LogAnalysis, analyze_logs
from incidentbook.logs.read import LogReport, read_logs
from incidentbook.logs.signatures import load_catalog
from incidentbook.metrics.analysis import DEFAULT_CONFIG, Analysis, AnalysisConfig, analyze
from incidentbook.metrics.signals import SignalPack, load_pack
from incidentbook.sources.folder import FolderSource, Metrics, open_source
from incidentbook.window import TimeWindow


class WindowError(IncidentbookError):
    """A window given on the command line or as a parameter that is not usable."""


def make_window(start: str | datetime, end: str | datetime, what: str = "window") -> TimeWindow:
    """A validated window from RFC 3339 strings, with a sentence for what is wrong."""
    try:
        return TimeWindow(start=start, end=end)
    except ValidationError as exc:
        reasons = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or what
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "timezone_aware":
                msg = "has no UTC offset; write RFC 3339 with an offset, e.g. 2025-03-14T08:00:00Z"
            reasons.append(f"{field} {msg}" if err["loc"] else msg)
        raise WindowError(f"the {what} is not usable: " + "; ".join(reasons)) from None


@dataclass
class Investigation:
    """One incident's spec, signals, metrics, logs and analysis.

    `analysis.findings` holds the metric and the log findings together, sorted by time.
    """

    folder: IncidentFolder
    spec: IncidentSpec
    pack: SignalPack
    metrics: Metrics
    analysis: Analysis
    logs: LogAnalysis | None = None
    log_report: LogReport | None = None
    source: str | None = None  # where the metrics came from, when not the folder


def _has_logs(folder: IncidentFolder) -> bool:
    return folder.logs_dir.is_dir() and any(p.is_file() for p in folder.logs_dir.rglob("*"))


def investigate_logs(
    folder: IncidentFolder,
    window: TimeWindow,
    baseline: TimeWindow | None,
    signatures: str | Path | None = None,
) -> tuple[LogAnalysis, LogReport]:
    """Read the logs of the baseline and the window, then match, mine and count them."""
    span = TimeWindow(
        start=min(window.start, baseline.start) if baseline else window.start, end=window.end
    )
    logs = read_logs(folder.logs_dir, span)
    result = analyze_logs(
        logs.frame,
        window,
        baseline,
        load_catalog(signatures),
        hosts_total=folder.spec.cluster.nodes,
    )
    return result, logs.report


def investigate(
    incident: str | Path,
    start: str | datetime | None = None,
    end: str | datetime | None = None,
    signals: list[str] | None = None,
    pack: str | None = None,
    config: AnalysisConfig = DEFAULT_CONFIG,
    *,
    logs: bool = True,
    signatures: str | Path | None = None,
    source: str | None = None,
) -> Investigation:
    """Load an incident folder's window, metrics and logs, and analyse them.

    `source` (a URI such as `prometheus+http://host:9090`) takes the metrics from a
    server instead of the folder, with the cluster's label selectors from incident.yaml;
    the folder still gives the incident's description and its logs.
    """
    folder = IncidentFolder(incident)
    spec = folder.spec
    window = spec.window
    if start is not None or end is not None:
        window = make_window(start or spec.window.start, end or spec.window.end)
    signal_pack = load_pack(pack or spec.signal_pack, spec.signals)
    names = signals or sorted(signal_pack.signals)
    if spec.primary_signal not in names:
        names = [spec.primary_signal, *names]
    wanted = [signal_pack.get(n) for n in names]
    reader = (
        FolderSource(folder)
        if source is None
        else open_source(source, selectors=spec.cluster.selectors)
    )
    metrics = reader.metrics(window, wanted)
    baseline = spec.baseline if spec.baseline and spec.baseline.start >= window.start else None
    result = analyze(
        metrics, {s.name: s for s in wanted}, spec.primary_signal, baseline=baseline, config=config
    )
    log_analysis = log_report = None
    if logs and _has_logs(folder):
        log_analysis, log_report = investigate_logs(folder, window, result.baseline, signatures)
        result.findings = sorted(
            [*result.findings, *log_analysis.findings],
            key=lambda f: (f.start, f.kind, f.signal, f.end),
        )
        result.notes.extend(log_report.notes())
    return Investigation(
        folder, spec, signal_pack, metrics, result, log_analysis, log_report, source
    )
