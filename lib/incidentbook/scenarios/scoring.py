"""Scoring an analysis against a simulated incident's truth.json.

The scoreboard of `python -m bench.scenarios` and the scenario tests use the same rules:

* cause: the verdict's cause is one of the signals truth.json names (any of them is
  right: a thermal fault shows in temperature, clocks and throttle reasons alike); on a
  quiet day, right means no cause named and nothing found on the primary signal;
* hosts: precision and recall of the verdict's hosts against the truth's (a cause the
  truth calls cluster-wide is right when the verdict names no hosts);
* gpu: whether the verdict names the truth's GPU, where the truth has one;
* onset: minutes between the verdict's onset and the truth's;
* false findings: on a quiet day, every finding counts against the analysis.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from incidentbook.record.model import Finding, Verdict


@dataclass(frozen=True)
class Score:
    scenario: str
    quiet: bool
    cause_ok: bool
    cause: str | None
    expected: list[str]
    host_precision: float | None
    host_recall: float | None
    gpu_ok: bool | None
    onset_error_min: float | None
    findings: int
    primary_findings: int
    confidence: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def score(
    truth: dict[str, Any], verdict: Verdict | None, findings: list[Finding], primary: str
) -> Score:
    """How well `verdict` and `findings` tell the incident truth.json describes."""
    cause = truth.get("cause")
    named = verdict.cause if verdict is not None else None
    on_primary = sum(1 for f in findings if f.signal == primary)
    confidence = verdict.confidence if verdict is not None else 0.0
    if cause is None:
        return Score(
            truth.get("scenario", "?"),
            True,
            named is None and on_primary == 0,
            named,
            [],
            None,
            None,
            None,
            None,
            len(findings),
            on_primary,
            confidence,
        )
    expected = list(cause.get("signals") or [])
    got_hosts = set(verdict.hosts if verdict else [])
    precision = recall = None
    if cause.get("hosts") is None:
        precision = recall = 1.0 if not got_hosts else 0.0
    else:
        want = set(cause["hosts"])
        recall = len(want & got_hosts) / len(want) if want else 1.0
        precision = len(want & got_hosts) / len(got_hosts) if got_hosts else 0.0
    gpu_ok = None
    if cause.get("gpus"):
        gpu_ok = bool(set(cause["gpus"]) & set(verdict.gpus if verdict else []))
    onset_error = None
    if verdict is not None and verdict.onset is not None and cause.get("onset"):
        truth_onset = datetime.fromisoformat(cause["onset"])
        onset_error = (verdict.onset - truth_onset).total_seconds() / 60
    return Score(
        truth.get("scenario", "?"),
        False,
        named in expected,
        named,
        expected,
        precision,
        recall,
        gpu_ok,
        onset_error,
        len(findings),
        on_primary,
        confidence,
    )
