"""Logs of the Go components that run GPU nodes under Kubernetes (NVIDIA's device plugin,
GPU operator, DCGM exporter, gpud, NVSentinel): klog, logrus and slog text, and the
standard library's `log`, each alone or behind the RFC 3339 time that `kubectl logs
--timestamps` and the container runtime put first. JSON-shaped ones are read by the
jsonl format."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats.expressions import Rule, local_time, rfc3339, text_format, with_year
from incidentbook.logs.severity import level_of_word

# The container runtime's time (`kubectl logs --timestamps`, CRI log files without the
# stream field): exact, with a zone. When present it is the line's time.
_RUNTIME = r"(?:(?P<runtime_ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)) )?"


def _with_runtime_time(g, ctx, own: pl.Expr) -> pl.Expr:
    return pl.when(g("runtime_ts").is_not_null()).then(rfc3339(g("runtime_ts"), ctx)).otherwise(own)


def _klog(g, ctx):
    stamp = g("mmdd").str.zfill(4) + " " + g("time")
    return {
        "ts": _with_runtime_time(g, ctx, with_year(stamp, "%m%d %H:%M:%S%.f", ctx)),
        "severity": level_of_word(g("level")),
    }


KLOG_HEADER = (
    r"(?P<level>[IWEF])(?P<mmdd>\d{4}) (?P<time>\d\d:\d\d:\d\d\.\d+) +(?P<tid>\d+) "
    r"(?P<tail>(?P<src>[^\s\]]+:\d+)\] ?)"
)
"""klog's header (`E0520 14:00:45.123000 1234 kubelet.go:2412] `), its level first; `tail`
is its `file:line] `, which a message keeps."""

# The message keeps klog's `file:line] ` (`nvc.c:274] ...`): it says which part of a
# program spoke, and the catalog reads it (the container toolkit's nvc lines).
_KLOG = Rule("klog", _RUNTIME + KLOG_HEADER, _klog, tail=("tail",))


def _logfmt(g, ctx):
    # logrus quotes its time and message (`time="..." level=info msg="..."`); slog does not
    # quote the time. The message keeps the level and msg= as the program wrote them (the
    # catalog's Go signatures read `level=fatal msg="..."`, as journald shows these lines),
    # then any fields after it.
    return {
        "ts": _with_runtime_time(g, ctx, rfc3339(g("ts"), ctx)),
        "severity": level_of_word(g("level")),
    }


_LOGFMT = Rule(
    "logfmt",
    _RUNTIME + r"time=\"?(?P<ts>[^\"\s]+)\"? (?P<tail>level=\"?(?P<level>\w+)\"? msg=)",
    _logfmt,
    tail=("tail",),
)


def _stdlib(g, ctx):
    stamp = g("date").str.replace_all("/", "-", literal=True) + " " + g("time")
    return {"ts": _with_runtime_time(g, ctx, local_time(stamp, "%Y-%m-%d %H:%M:%S%.f", ctx))}


# Go's standard `log`: `2020/08/10 19:09:42 msg` (local time, with LstdFlags).
_STDLIB = Rule(
    "go-log",
    _RUNTIME + r"(?P<date>\d{4}/\d\d/\d\d) (?P<time>\d\d:\d\d:\d\d(?:\.\d+)?) ",
    _stdlib,
)

KLOG = text_format("klog", [_KLOG], local_time=True, yearless=True, inherit_severity=False)
LOGFMT = text_format("logfmt", [_LOGFMT], inherit_severity=False)
GO_LOG = text_format("go-log", [_STDLIB], local_time=True)
# Several of them in one file, as a node's agents' logs collected together are. A pure
# klog file ties with torch-glog (same shape) and is read as that: the same times.
GO_COMPONENTS = text_format(
    "go-components",
    [_KLOG, _LOGFMT, _STDLIB],
    "go-components",
    priority=-5,
    inherit_severity=False,
)
