"""A training job's output: its loggers (nanotron, PyTorch's glog lines, NCCL, Python
logging in its common shapes, DeepSpeed, loguru, Megatron's iteration lines) behind any
launcher's prefix (torchrun, srun --label, mpirun and PRRTE tags, PALS, pdsh, Ray), which
gives the line's rank and sometimes its host. Python tracebacks and other untimed lines
continue the record before them; a file with no time at all (a pasted traceback, NCCL's
debug lines alone) is dated by its modification time.

The line shapes are in formats.trainer_lines, shared with whatever else reads trainer
output (a metrics source taking numbers out of the iteration lines)."""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import INHERIT
from incidentbook.logs.formats import trainer_lines as shapes
from incidentbook.logs.formats.expressions import (
    Rule,
    epoch_us,
    local_time,
    text_format,
    with_year,
)
from incidentbook.logs.formats.slurm import SLURM_CLIENT_RULE
from incidentbook.logs.severity import level_of_word


def _int(expr: pl.Expr) -> pl.Expr:
    return expr.cast(pl.Int32, strict=False)


def _launcher(g, ctx):
    return {
        "rank": pl.coalesce(*(_int(g(name)) for name in shapes.RANK_GROUPS)),
        "local_rank": _int(g("local_rank")),
        "host": pl.coalesce(*(g(name) for name in shapes.HOST_GROUPS)),
        "ts": local_time(
            g("mpi_ts").str.replace("  ", " ", literal=True), "%a %b %d %H:%M:%S %Y", ctx
        ),
    }


LAUNCHER = Rule("launcher", shapes.LAUNCHER, _launcher)


def _untimed(g, ctx) -> dict[str, pl.Expr]:
    return {"status": pl.lit(INHERIT), "severity": level_of_word(g("level"))}


_NANOTRON = Rule(
    "nanotron",
    shapes.NANOTRON,
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


_GLOG = Rule("torch-glog", shapes.GLOG, _glog)

# NCCL's lines carry no time; `ncclCommInitRank ... rank 2 nranks 3` says the process's rank.
_NCCL = Rule(
    "nccl",
    shapes.NCCL,
    lambda g, ctx: {
        "status": pl.lit(INHERIT),
        "severity": level_of_word(g("level")),
        "host": g("host"),
        "rank": _int(pl.col("raw").str.extract(r"\brank (\d+) nranks \d+", 1)),
    },
    tail=("tail",),
)


def _timed_logging(g, ctx):
    stamp = g("ts").str.replace(",", ".", literal=True).str.replace("T", " ", literal=True)
    return {
        "ts": local_time(stamp, "%Y-%m-%d %H:%M:%S%.f", ctx),
        "severity": level_of_word(g("level")),
    }


def _ucx(g, ctx):
    seconds = g("epoch").cast(pl.Float64, strict=False)
    return {
        "ts": epoch_us((seconds * 1e6).round().cast(pl.Int64)),
        "severity": level_of_word(g("level")),
        "host": g("host"),
    }


_UCX = Rule("ucx", shapes.UCX, _ucx, tail=("tail",))

_BRACKETED = Rule("deepspeed", shapes.BRACKETED_LOGGING, _timed_logging, tail=("tail",))


def _asctime(g, ctx):
    stamp = (
        g("ts").str.replace(r"^(\d{4}-\d\d-\d\d)[T,]", "$1 ").str.replace(",", ".", literal=True)
    )
    return {
        "ts": local_time(stamp, "%Y-%m-%d %H:%M:%S%.f", ctx),
        "severity": level_of_word(pl.coalesce(g("level"), g("level2"), g("level3"))),
    }


_ASCTIME = Rule("python-logging", shapes.ASCTIME_LOGGING, _asctime, tail=("tail", "tail2", "tail3"))
_LOGURU = Rule("loguru", shapes.LOGURU, _timed_logging)
_DEFAULT = Rule("python-logging", shapes.DEFAULT_LOGGING, _untimed, tail=("tail",))
_RICH = Rule("python-logging", shapes.RICH_LOGGING, _untimed)


def _megatron(g, ctx):
    stamp = g("ts")
    return {
        "ts": local_time(stamp, "%Y-%m-%d %H:%M:%S", ctx),
        "status": pl.when(stamp.is_null()).then(pl.lit(INHERIT)),
        "severity": pl.lit("info"),
    }


_MEGATRON = Rule("megatron", shapes.MEGATRON_ITERATION_HEAD, _megatron, tail=("head",))

_LOGGING_RULES = [_BRACKETED, _ASCTIME, _LOGURU, _DEFAULT, _RICH]
# A job's output also holds what srun and slurmstepd print into it.
_ALL = [_NANOTRON, _GLOG, _NCCL, _UCX, *_LOGGING_RULES, _MEGATRON, SLURM_CLIENT_RULE]


def _trainer_format(name: str, rules: list[Rule], **fields):
    # Each line continues its own record: a traceback line is not a warning because the
    # line before it was.
    return text_format(
        name, rules, "trainer", prefix=LAUNCHER, inherit_severity=False, file_time=True, **fields
    )


NANOTRON = _trainer_format("nanotron", [_NANOTRON], local_time=True)
TORCH_GLOG = _trainer_format("torch-glog", [_GLOG], local_time=True, yearless=True)
NCCL = _trainer_format("nccl", [_NCCL])
UCX = _trainer_format("ucx", [_UCX])
PYTHON_LOGGING = _trainer_format("python-logging", _LOGGING_RULES, local_time=True)
DEEPSPEED = _trainer_format("deepspeed", [_BRACKETED], local_time=True)
LOGURU = _trainer_format("loguru", [_LOGURU], local_time=True)
MEGATRON = _trainer_format("megatron", [_MEGATRON], local_time=True)
# All of them mixed in one file, as a job's output is, with tracebacks and other untimed
# lines counted towards detection. Below the others in priority: a pure nanotron file
# ties with it and stays "nanotron". Each line keeps the time semantics of the format its
# `source` names (nanotron lines are local time, glog lines also yearless).
# A job's output holds whatever its code prints besides: half of the first lines in the
# shapes above (launcher tags, loggers, tracebacks, srun's messages) say it is one.
TRAINER = _trainer_format("trainer", _ALL, sniff=shapes.UNTIMED, priority=-10, sniff_ratio=0.5)
