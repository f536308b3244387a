"""The stages in order, for one incident: window -> source -> signal frames -> analysis.

The workbook and the CLI call these; each stage lives in its own module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from incidentbook.analysis import DEFAULT_CONFIG, Analysis, AnalysisConfig, analyze
from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder, IncidentSpec
from incidentbook.signals import SignalPack, load_pack
from incidentbook.sources import FolderSource, Metrics
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
    """One incident's spec, signals, metrics and analysis."""

    folder: IncidentFolder
    spec: IncidentSpec
    pack: SignalPack
    metrics: Metrics
    analysis: Analysis


def investigate(
    incident: str | Path,
    start: str | datetime | None = None,
    end: str | datetime | None = None,
    signals: list[str] | None = None,
    pack: str | None = None,
    config: AnalysisConfig = DEFAULT_CONFIG,
) -> Investigation:
    """Load an incident folder's window and analyse it."""
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
    metrics = FolderSource(folder).metrics(window, wanted)
    baseline = spec.baseline if spec.baseline and spec.baseline.start >= window.start else None
    result = analyze(
        metrics, {s.name: s for s in wanted}, spec.primary_signal, baseline=baseline, config=config
    )
    return Investigation(folder, spec, signal_pack, metrics, result)
