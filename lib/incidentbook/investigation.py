"""One incident, stage by stage: window -> sources -> metrics analysis, and logs ->
signatures and templates -> log findings. `investigate` runs them; the workbook, the
CLI and a user's script call it.

Each stage's result is frozen as it comes out (Analysis, LogAnalysis); Investigation
holds them side by side and merges what readers want merged (findings in time order,
the notes), so no stage edits another's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cached_property
from pathlib import Path

import polars as pl

from incidentbook.incident import IncidentFolder, IncidentSpec
from incidentbook.logs.analysis import LogAnalysis, analyze_logs
from incidentbook.logs.read import BootTimes, LogReceipt
from incidentbook.logs.signatures import load_catalog, recogniser
from incidentbook.metrics.analysis import (
    DEFAULT_CONFIG,
    Analysis,
    AnalysisConfig,
    analyze,
    default_baseline,
    findings_frame,
)
from incidentbook.metrics.data import Metrics, MetricsReceipt, NoMetricsError
from incidentbook.metrics.diagnosis import Diagnosis, explain, verdict_record
from incidentbook.metrics.episodes import Found
from incidentbook.metrics.frames import SIGNAL_SCHEMA
from incidentbook.metrics.signals import SignalPack
from incidentbook.record.model import Correlation, Finding, Verdict
from incidentbook.record.taxonomy import Taxonomy, taxonomy_of
from incidentbook.sources.base import Source, open_source
from incidentbook.sources.folder import FolderSource
from incidentbook.stops import with_stops
from incidentbook.window import TimeWindow, WindowError, make_window

__all__ = ["Investigation", "WindowError", "investigate", "investigate_logs", "make_window"]


@dataclass(frozen=True)
class Investigation:
    """One incident's spec and signals, and what each stage found.

    `analysis` is the metrics stage's result, `logs` the logs stage's (None when the
    incident has no logs or they were not asked for), `log_receipt` how its lines were
    read. `findings` and `notes` are both stages' together.
    """

    folder: IncidentFolder
    spec: IncidentSpec
    pack: SignalPack
    metrics: Metrics
    analysis: Analysis
    logs: LogAnalysis | None = None
    log_receipt: LogReceipt | None = None
    source: str | None = None  # where the metrics came from, when not the folder
    taxonomy: Taxonomy | None = None  # what the pack, the catalog and the record use

    @cached_property
    def findings(self) -> list[Finding]:
        """The metric and the log findings, in time order."""
        found = [*self.analysis.findings, *(self.logs.findings if self.logs else [])]
        return sorted(found, key=lambda f: (f.start, f.kind, f.signal, f.end))

    @cached_property
    def diagnosis(self) -> Diagnosis | None:
        """The ranking of causes and the verdict, from the metrics' episodes and the logs'
        signatures together."""
        a = self.analysis
        if a.found is None or not self.logs or not self.logs.findings:
            return a.diagnosis
        hosts = self.spec.cluster.nodes
        return explain(
            self._stops[0],
            {s.name: s for s in self.pack.signals.values()},
            a.primary,
            a.baseline,
            a.tolerance,
            hosts,
            frame=self.metrics.frame,
            logs=self.logs.findings,
            not_hosts=self._not_hosts(),
        )

    @cached_property
    def _stops(self) -> tuple[Found, list[str]]:
        """The metrics stage's episodes with the run's stops told apart by the logs
        (stops.with_stops), and a note for each."""
        a = self.analysis
        if a.found is None or not self.logs:
            return a.found, []
        soon = max(a.tolerance, 2 * self._spacing(a.primary))
        return with_stops(
            a.found, self.metrics.frame, a.primary, a.baseline, self.logs.matched, soon
        )

    def _spacing(self, signal: str) -> timedelta:
        """The usual time between two samples of a signal (a trainer's lines)."""
        ts = self.metrics.frame.filter(pl.col("signal") == signal).get_column("ts").unique().sort()
        step = ts.diff().median() if ts.len() > 1 else None
        return step if isinstance(step, timedelta) else timedelta(0)

    def _not_hosts(self) -> frozenset[str]:
        """The logs' hosts that are no host of the metrics, where the two name hosts alike
        (some log host is a metrics host): a file at the top of logs/ is named after
        itself (slurm-7781234.out, slurmctld.log), and its lines are the job's or the
        scheduler's. Where no log host is a metrics host (metrics by address, logs by
        name), nothing can be told apart."""
        logged = set(self.logs.matched.get_column("host").drop_nulls().unique().to_list())
        # a trainer's gauges read from its log carry the log's name, which is no host
        trainer = [n for n, s in self.pack.signals.items() if s.from_trainer]
        hosts = self.metrics.frame.filter(~pl.col("signal").is_in(trainer)).get_column("node")
        known = set(hosts.drop_nulls().unique().to_list())
        return frozenset(logged - known) if logged & known else frozenset()

    @property
    def correlations(self) -> list[Correlation]:
        """Signals (and log signatures) whose anomalies line up with the symptom, causes
        first."""
        d = self.diagnosis
        return d.correlations if d is not None else self.analysis.correlations

    @cached_property
    def verdict(self) -> Verdict | None:
        """The most likely explanation, with its evidence as indices into `findings`."""
        d = self.diagnosis
        return verdict_record(d.verdict, self.findings) if d is not None else None

    @cached_property
    def notes(self) -> list[str]:
        """What a reader should know about the data: the metrics', then the logs'."""
        logs = self.log_receipt.notes() if self.log_receipt is not None else []
        return [*self.analysis.notes, *self._stops[1], *logs]

    @property
    def window(self) -> TimeWindow:
        return self.analysis.window

    @property
    def baseline(self) -> TimeWindow:
        return self.analysis.baseline

    def findings_frame(self):
        """The findings as a polars frame (kind, signal, start, end, magnitude, ...)."""
        return findings_frame(self.findings)

    @property
    def log_report(self) -> LogReceipt | None:
        """`log_receipt`'s name before 0.2."""
        return self.log_receipt


def investigate_logs(
    folder: IncidentFolder | Source,
    window: TimeWindow,
    baseline: TimeWindow | None,
    signatures: str | Path | None = None,
    *,
    hosts_total: int | None = None,
    taxonomy: Taxonomy | None = None,
    boot_times: BootTimes | None = None,
) -> tuple[LogAnalysis, LogReceipt] | None:
    """Read the logs of the baseline and the window, then match, mine and count them;
    None when the source has no logs. `boot_times` (per host, or `*` for all) place kernel
    lines timed since boot, over incident.yaml's and the metrics' (FolderSource)."""
    source = (
        FolderSource(folder, boot_times=boot_times)
        if isinstance(folder, IncidentFolder)
        else folder
    )
    if hosts_total is None and isinstance(source, FolderSource):
        hosts_total = source.folder.spec.cluster.nodes
    span = TimeWindow(
        start=min(window.start, baseline.start) if baseline else window.start, end=window.end
    )
    catalog = load_catalog(signatures, taxonomy)
    # The folder's reader keeps what the catalog knows of files in no known format.
    logs = (
        source.logs(span, recognise=recogniser(catalog))
        if isinstance(source, FolderSource)
        else source.logs(span)
    )
    if logs is None:
        return None
    result = analyze_logs(logs.frame, window, baseline, catalog, hosts_total, facts=logs.facts)
    return result, logs.receipt


def _logs_only(
    folder: IncidentFolder, window: TimeWindow, why: NoMetricsError, logs: bool
) -> Metrics:
    """No metrics at all, but logs: an empty signal frame, so that the logs are analysed
    alone (dmesg and a job's output are often all that is left of an incident), and a note
    that says so. Without logs (or with them turned off) the metrics' error stands."""
    if not logs or not _has_logs(folder):
        raise why
    receipt = MetricsReceipt(
        remarks=[f"{why}; the logs alone are analysed (no metric can show the job's loss)"]
    )
    return Metrics(frame=SIGNAL_SCHEMA.to_frame(), receipt=receipt, window=window)


def _has_logs(folder: IncidentFolder) -> bool:
    root = folder.logs_dir
    return root.is_dir() and any(p.is_file() for p in root.rglob("*"))


def _first(sources: list[Source], ask) -> object | None:
    """The first source's answer that is not None: a source that has none passes."""
    for source in sources:
        got = ask(source)
        if got is not None:
            return got
    return None


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
    taxonomy: Taxonomy | Path | str | None = None,
    boot_times: BootTimes | None = None,
) -> Investigation:
    """Load an incident folder's window, metrics and logs, and analyse them.

    `source` (a URI such as `prometheus+http://host:9090`) is asked first, with the
    cluster's label selectors from incident.yaml; the folder is asked for what that
    source has none of (a Prometheus server has metrics, so the logs come from the
    folder). The folder always gives the incident's description.

    `taxonomy` (a Taxonomy or an extension file; default: INCIDENTBOOK_TAXONOMY's) is the
    one the signal pack, the signature catalog and the drafted record are checked with.
    `boot_times` (host -> time, `*` for every host; logs.read.parse_boot_times reads them
    from text) place kernel lines timed in seconds since boot.
    """
    folder = IncidentFolder(incident)
    spec = folder.spec
    window = spec.window
    if start is not None or end is not None:
        window = make_window(start or spec.window.start, end or spec.window.end)
    taxonomy = taxonomy_of(taxonomy)
    signal_pack = folder.signal_pack(pack, taxonomy)
    names = signals or sorted(signal_pack.signals)
    if spec.primary_signal not in names:
        names = [spec.primary_signal, *names]
    wanted = [signal_pack.get(n) for n in names]
    sources: list[Source] = [FolderSource(folder, boot_times=boot_times)]
    if source is not None:
        sources.insert(0, open_source(source, selectors=spec.cluster.selectors))
    try:
        metrics = _first(sources, lambda s: s.metrics(window, wanted))
    except NoMetricsError as exc:
        metrics = _logs_only(folder, window, exc, logs)
    baseline, assumed = folder.baseline_for(window, metrics.frame, default_baseline(window))
    metrics.receipt.assumptions.extend(assumed)
    result = analyze(
        metrics, {s.name: s for s in wanted}, spec.primary_signal, baseline=baseline, config=config
    )
    log_analysis = log_receipt = None
    if logs:
        read = _first(
            sources,
            lambda s: investigate_logs(
                s,
                window,
                result.baseline,
                signatures,
                hosts_total=spec.cluster.nodes,
                taxonomy=taxonomy,
            ),
        )
        if read is not None:
            log_analysis, log_receipt = read
    return Investigation(
        folder, spec, signal_pack, metrics, result, log_analysis, log_receipt, source, taxonomy
    )
