"""A training job's stdout: nanotron's logger, PyTorch's glog lines (ProcessGroupNCCL),
NCCL's own lines, and all three mixed in one file; Python tracebacks continue the record
before them."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import INHERIT
from incidentbook.logs.formats.expressions import Rule, local_time, text_format, with_year
from incidentbook.logs.severity import level_of_word

# Trainer stdout. torchrun --tee and `srun -l` put a rank prefix before each line.
_LAUNCHER = r"(?:\[default\d+\]:|\d+: )?"

_NANOTRON = Rule(
    "nanotron",
    _LAUNCHER
    + r"(?P<ts>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d) \[(?P<level>[A-Z]+)(?P<fields>(?:\|[^|\]]*)*)\]: ?",
    lambda g, ctx: {
        "ts": local_time(g("ts"), "%m/%d/%Y %H:%M:%S", ctx),
        "severity": level_of_word(g("level")),
        "host": g("fields").str.extract(r"\|([^|=]+)$", 1),
    },
)


def _glog(g, ctx):
    day = g("mmdd")
    stamp = day.str.zfill(4) + " " + g("time")
    return {
        "ts": with_year(stamp, "%m%d %H:%M:%S%.f", ctx),
        # `[E ProcessGroupNCCL.cpp:737]` (older PyTorch) has no time: it takes the previous.
        "status": pl.when(day.is_null()).then(pl.lit(INHERIT)),
        "severity": level_of_word(g("level")),
    }


# `[rank3]:[E1017 16:31:56.123456789 ProcessGroupNCCL.cpp:1484] msg` (PyTorch >= 2.2),
# `E1017 16:31:56.123456  1234 file.cpp:12] msg` (glog), `[E ProcessGroupNCCL.cpp:737] msg`.
# The month has one or two digits (`E321` is March 21).
_GLOG = Rule(
    "torch-glog",
    _LAUNCHER + r"(?:\[rank(?P<rank>\d+)\]:)?\[?(?P<level>[IWEF])(?:(?P<mmdd>\d{3,4}) "
    r"(?P<time>\d\d:\d\d:\d\d\.\d+))? +(?:(?P<tid>\d+) +)?(?P<src>[^\s\]]+:\d+)\] ?",
    _glog,
)

# `host:pid:tid [dev] NCCL INFO msg`, `host:pid:tid [dev] file.cc:123 NCCL WARN msg`.
_NCCL = Rule(
    "nccl",
    _LAUNCHER + r"(?P<host>[^\s:\[\]]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>[^\]]*)\]"
    r"(?: (?P<src>\S+:\d+))? NCCL (?P<level>INFO|WARN|ERROR|ABORT|TRACE)\b ?",
    lambda g, ctx: {
        "status": pl.lit(INHERIT),
        "severity": level_of_word(g("level")),
        "host": g("host"),
    },
)

# Each line continues its own record: a traceback line is not a warning because the line
# before it was.
NANOTRON = text_format("nanotron", [_NANOTRON], "trainer", local_time=True, inherit_severity=False)
TORCH_GLOG = text_format(
    "torch-glog", [_GLOG], "trainer", local_time=True, yearless=True, inherit_severity=False
)
NCCL = text_format("nccl", [_NCCL], "trainer", inherit_severity=False)
# All three mixed in one file, as torchrun's output is. Below the three in priority: a pure
# nanotron file ties with it and stays "nanotron". Each line keeps the time semantics of
# the format its `source` names (nanotron lines are local time, glog lines also yearless).
TRAINER = text_format(
    "trainer", [_NANOTRON, _GLOG, _NCCL], "trainer", priority=-10, inherit_severity=False
)
