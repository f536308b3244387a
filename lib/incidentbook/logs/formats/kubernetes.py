"""Kubernetes events as `kubectl` prints them: the Events table of `kubectl describe pod`
or `describe node` (`Type Reason Age From Message`) and `kubectl get events` (`LAST SEEN
TYPE REASON OBJECT MESSAGE`), pasted into a file. On GPU clusters they say what the
cluster did about its GPUs: pods that found no free GPU (FailedScheduling), a kubelet that
could not hand a pod its GPUs (UnexpectedAdmissionError), containers that kept failing.

Events carry ages (`73s`, `9s (x8 over 73s)`), not times: each row is dated by the file's
modification time, marked inferred. The message is the event's reason, then its text
(`UnexpectedAdmissionError: Allocate failed due to ...`); Warning events are warnings,
Normal ones info. The table's header lines carry no event.
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import INHERIT, SKIP
from incidentbook.logs.formats.expressions import Rule, text_format

_LEVEL = {"Warning": "warning", "Normal": "info"}
_REASON = r"(?P<reason>[A-Z][A-Za-z]+)"
# An age as kubectl prints it: `73s`, `3m1s`, `<unknown>`, `9s (x8 over 73s)`.
_AGE = r"(?:<unknown>|<invalid>|\d+[a-z][\da-z]*)(?: \(x\d+ over \S+\))?"


def _event(g, ctx) -> dict[str, pl.Expr]:
    return {
        "status": pl.lit(INHERIT),
        "severity": g("type").replace_strict(_LEVEL, default=None, return_dtype=pl.String),
        "message": g("reason") + ": " + g("text"),
    }


# `kubectl describe`: `  Warning  FailedScheduling  73s  default-scheduler  0/2 nodes ...`
# (older kubectls name the node after the component: `kubelet, node-1`).
_DESCRIBED = Rule(
    "k8s-events",
    rf"\s*(?P<type>Normal|Warning)\s+{_REASON}\s+{_AGE}\s+(?P<from>\S+(?:, \S+)?)\s+"
    r"(?P<text>.*)",
    _event,
)
# `kubectl get events`: `2m  Warning  FailedScheduling  pod/gpu-pod  0/3 nodes ...`
_LISTED = Rule(
    "k8s-events",
    rf"{_AGE}\s+(?P<type>Normal|Warning)\s+{_REASON}\s+(?P<object>[a-z]+/\S+)\s+(?P<text>.*)",
    _event,
)
_HEADER = Rule(
    "k8s-events",
    r"\s*(?:Events:\s*$|Type\s+Reason\s+Age\s+From\s+Message|-+\s+-+\s+-+\s+-+\s+-+\s*$"
    r"|LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE)",
    lambda g, ctx: {"status": pl.lit(SKIP)},
)

K8S_EVENTS = text_format(
    "k8s-events", [_HEADER, _DESCRIBED, _LISTED], file_time=True, inherit_severity=False
)
