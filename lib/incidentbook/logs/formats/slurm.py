"""Slurm: the daemons' logs (slurmctld.log, slurmd.log, slurmstepd lines in them), the
messages Slurm's commands print into a job's output (`srun: error: ...`, which carry no
time), and job accounting, `sacct --parsable2` (the header decides the columns; hostlist
expressions are expanded, so a line about four nodes is a row for each) and the job
completion log of jobcomp/filetxt, whose records are read in sacct's rows' words."""

from __future__ import annotations

import numpy as np
import polars as pl

from incidentbook.logs.data import BAD_TIMESTAMP, NO_HEADER, NO_TIMESTAMP, NOT_A_RECORD
from incidentbook.logs.formats import INHERIT, SKIP, Context, LogFormat
from incidentbook.logs.formats.expressions import Rule, local_time, text_format
from incidentbook.logs.severity import level_of_word

# The job states of sacct(1) "JOB STATE CODES" (formats/slurm/sacct_job_state_codes.csv).
SACCT_STATE_SEVERITY = {
    "BOOT_FAIL": "err",
    "CANCELLED": "notice",
    "COMPLETED": "info",
    "DEADLINE": "err",
    "FAILED": "err",
    "NODE_FAIL": "err",
    "OUT_OF_MEMORY": "err",
    "PENDING": "info",
    "PREEMPTED": "warning",
    "RUNNING": "info",
    "REQUEUED": "notice",
    "RESIZING": "info",
    "REVOKED": "notice",
    "SUSPENDED": "notice",
    "TIMEOUT": "err",
}

_SACCT_HEADER = r"(?i)^JobID\|"


def expand_hostlist(nodelists: pl.Series) -> pl.Series:
    """Slurm hostlist expressions as lists of hosts: `gpu[001-003,007],cpu5` -> 5 hosts.

    Vectorised: split at top-level commas, then expand one bracket group per pass (a
    loop over bracket groups, not over hosts). "None assigned" and empty give [].
    """
    base = pl.DataFrame({"row": np.arange(len(nodelists), dtype=np.uint32), "h": nodelists})
    parts = (
        base.with_columns(pl.col("h").str.extract_all(r"(?:[^,\[\s]|\[[^\]]*\])+"))
        .explode("h")
        .drop_nulls("h")
        .filter(~pl.col("h").str.to_lowercase().is_in(["none", "assigned", "(null)"]))
        .with_row_index("order")
    )
    for _ in range(8):  # a hostlist has at most a few bracket groups (rack[1-2]-n[01-16])
        if not parts.get_column("h").str.contains(r"\[").any():
            break
        m = parts.with_columns(
            pl.col("h")
            .str.extract_groups(r"^(?P<pre>[^\[]*)\[(?P<ranges>[^\]]*)\](?P<post>.*)$")
            .alias("m")
        ).unnest("m")
        plain = m.filter(pl.col("pre").is_null()).select("row", "order", "h")
        ranged = (
            m.filter(pl.col("pre").is_not_null())
            .with_columns(pl.col("ranges").str.split(","))
            .explode("ranges")
            .with_columns(
                lo=pl.col("ranges").str.extract(r"^\s*(\d+)", 1),
                hi=pl.coalesce(
                    pl.col("ranges").str.extract(r"-\s*(\d+)\s*$", 1),
                    pl.col("ranges").str.extract(r"^\s*(\d+)", 1),
                ),
            )
            .with_columns(
                width=pl.col("lo").str.len_chars(),
                n=pl.int_ranges(
                    pl.col("lo").cast(pl.Int64), pl.col("hi").cast(pl.Int64) + 1, dtype=pl.Int64
                ),
            )
            .explode("n")
            .drop_nulls("n")
            .select(
                "row",
                "order",
                h=pl.col("pre")
                + pl.col("n").cast(pl.String).str.zfill(pl.col("width"))
                + pl.col("post"),
            )
        )
        parts = pl.concat([plain, ranged]).sort("row", "order", maintain_order=True)
        parts = parts.with_columns(order=pl.int_range(pl.len(), dtype=pl.UInt32))
    grouped = parts.group_by("row").agg(pl.col("h"))
    return (
        base.select("row")
        .join(grouped, on="row", how="left")
        .sort("row")
        .get_column("h")
        .fill_null(pl.lit([], pl.List(pl.String)))
        .alias(nodelists.name)
    )


def _sacct(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    frame = lf.collect()  # sacct output is small; the header decides the columns
    raw = pl.col("raw")
    is_header = raw.str.contains(_SACCT_HEADER)
    frame = frame.with_columns(
        _header=pl.when(is_header).then(raw).forward_fill().over("fid"),
        _is_header=is_header,
    )
    parts = raw.str.split("|")
    columns: dict[str, pl.Expr] = {}
    wanted = ("jobid", "jobname", "state", "exitcode", "start", "end", "nodelist")
    headers = frame.get_column("_header").drop_nulls().unique(maintain_order=True).to_list()
    for name in wanted:
        chain = None
        for header in headers:
            names = [n.strip().lower() for n in header.split("|")]
            if name not in names:
                continue
            value = parts.list.get(names.index(name), null_on_oob=True).str.strip_chars()
            cond = pl.col("_header") == header
            chain = pl.when(cond).then(value) if chain is None else chain.when(cond).then(value)
        columns[name] = chain.otherwise(None) if chain is not None else pl.lit(None, pl.String)
    frame = frame.with_columns(**{f"_{k}": v for k, v in columns.items()})
    # (a row with no header above it says what it says: the columns are not known)
    return _job_rows(
        frame,
        ctx,
        "slurm-sacct",
        laid_out=pl.col("_header").is_not_null(),
        unread=[(pl.col("_is_header"), SKIP), (pl.col("_header").is_null(), NO_HEADER)],
    ).lazy()


_UNKNOWN = ["", "unknown", "none", "n/a"]


def _job_rows(
    frame: pl.DataFrame,
    ctx: Context,
    source: str,
    *,
    laid_out: pl.Expr,
    unread: list[tuple[pl.Expr, str]],
) -> pl.DataFrame:
    """sacct's rows and the job completion log's records from their columns (`_jobid`,
    `_jobname`, `_state`, `_exitcode`, `_nodelist`, `_start`, `_end`): dated by the job's
    end (else its start), a row per node, at the level its state gives, worded `job N
    (name) STATE exit X on NODES` so that the same signatures know both. Lines not
    `laid_out` keep their own text; `unread` are the reasons, in order, before the time's."""

    def known(col: str) -> pl.Expr:
        c = pl.col(col)
        return pl.when(c.str.to_lowercase().is_in(_UNKNOWN)).then(None).otherwise(c)

    stamp = pl.coalesce(known("_end"), known("_start"))
    state = pl.col("_state").str.extract(r"^([A-Z_]+)", 1)
    words = ("_jobid", "_jobname", "_state", "_exitcode", "_nodelist")
    frame = frame.with_columns(
        ts=local_time(stamp, "%Y-%m-%dT%H:%M:%S", ctx),
        host=expand_hostlist(frame.get_column("_nodelist").fill_null("")),
        severity=state.replace_strict(SACCT_STATE_SEVERITY, default=None, return_dtype=pl.String),
        source=pl.lit(source),
        message=pl.when(laid_out)
        .then(pl.format("job {} ({}) {} exit {} on {}", *[pl.col(c).fill_null("?") for c in words]))
        .otherwise(pl.col("raw")),
        _stamp=stamp,
    )
    (cond, reason), *more = unread
    status = pl.when(cond).then(pl.lit(reason))
    for cond, reason in more:
        status = status.when(cond).then(pl.lit(reason))
    frame = frame.with_columns(
        status=status.when(pl.col("_stamp").is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(pl.col("ts").is_null())
        .then(pl.lit(BAD_TIMESTAMP))
        .otherwise(None)
    )
    return frame.drop([c for c in frame.columns if c.startswith("_") and c != "_boot"])


SLURM_SACCT = LogFormat(
    "slurm-sacct",
    (_SACCT_HEADER.removeprefix("(?i)^"), r"\d+(?:[_+][\w\[\]-]+)?(?:\.[\w-]+)?\|"),
    _sacct,
    local_time=True,
    line_host_first=True,
)


# The job completion log of jobcomp/filetxt (JobCompLoc): one `name=value` record per job,
# `JobId=230 UserId=... Name=... JobState=TIMEOUT Partition=... StartTime=... EndTime=...
# NodeList=node[1-2] ... ExitCode=0:0`, read like a row of sacct: dated by its end, a row
# per node, at the level its state says.
_JOBCOMP = r"^JobId=\d+\S* UserId=\S+ "


def _jobcomp(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    frame = lf.collect()  # one line per job: small
    raw = pl.col("raw")

    def field(name: str) -> pl.Expr:
        return raw.str.extract(rf"(?:^| ){name}=(\S*)", 1)

    def dated(name: str) -> pl.Expr:
        return pl.when(field(name).str.contains(r"^\d{4}-")).then(field(name))

    record = raw.str.contains(_JOBCOMP)
    frame = frame.with_columns(
        _jobid=field("JobId"),
        _jobname=field("Name"),
        _state=field("JobState").str.extract(r"^([A-Z_]+)", 1),
        _exitcode=field("ExitCode"),
        _nodelist=field("NodeList").fill_null(""),
        _start=dated("StartTime"),
        _end=dated("EndTime"),
    )
    return _job_rows(
        frame, ctx, "slurm-jobcomp", laid_out=record, unread=[(~record, NOT_A_RECORD)]
    ).lazy()


SLURM_JOBCOMP = LogFormat(
    "slurm-jobcomp", (_JOBCOMP.removeprefix("^"),), _jobcomp, local_time=True, line_host_first=True
)


# slurmctld / slurmd / slurmdbd: `[2016-01-04T16:16:54.789] error: Node ping apparently
# hung`, slurmd's step lines `[2020-12-14T09:43:55.500] [63532.0] error: ...`. The default
# LogTimeFormat (iso8601_ms) is local time without a zone; `rfc5424_ms` adds the offset.
# The level is the word before the colon (no word: info); `sched:`, `agent:` and the like
# are subsystems, not levels.
_DAEMON_LEVELS = r"error|fatal|debug\d?|verbose|info|warning|Warning|WARNING|ERROR|FATAL"


def _slurm_daemon(g, ctx):
    stamp = g("ts")
    naive = local_time(stamp.str.slice(0, 23), "%Y-%m-%dT%H:%M:%S%.f", ctx)
    offset = g("tz")
    aware = (stamp.str.slice(0, 23) + offset.str.replace(":", "", literal=True)).str.to_datetime(
        "%Y-%m-%dT%H:%M:%S%.f%z", time_zone="UTC", time_unit="us", strict=False
    )
    level = g("level").str.to_lowercase().str.replace(r"^debug\d$", "debug")
    return {
        "ts": pl.when(offset.is_not_null()).then(aware).otherwise(naive),
        "severity": pl.coalesce(level_of_word(level), pl.lit("info")),
    }


_DAEMON_LINES = text_format(
    "slurm-daemon",
    [
        Rule(
            "slurm-daemon",
            r"\[(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?)(?P<tz>[+-]\d\d:?\d\d)?\] "
            rf"(?P<tail>(?:\[(?P<step>[\w.]+)\] )?(?:(?P<level>{_DAEMON_LEVELS}): )?)",
            _slurm_daemon,
            tail=("tail",),
        )
    ],
    local_time=True,
)
_DAEMON_NAME = r"^(slurm(?:ctld|dbd|stepd|d))\b"


def _slurm_daemon_lines(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    """A daemon's line as journalctl shows it: the daemon, then the step and the level as
    the line has them (`slurmctld: error: Nodes c002 not responding`), so that a line reads
    the same whether it was collected from slurmctld.log or from the journal. The daemon
    is the one the file is named for, else `slurm`."""
    got = _DAEMON_LINES.parse(lf, ctx)
    names = pl.Series(ctx.stems, dtype=pl.String).str.extract(_DAEMON_NAME, 1).fill_null("slurm")
    daemon = pl.lit(names).gather(pl.col("fid")) if len(names) else pl.lit("slurm")
    own = pl.col("status").fill_null("") != INHERIT
    return got.with_columns(
        message=pl.when(own).then(daemon + ": " + pl.col("message")).otherwise(pl.col("message"))
    )


SLURM_DAEMON = LogFormat("slurm-daemon", _DAEMON_LINES.sniff, _slurm_daemon_lines, local_time=True)

# What srun, salloc, sbatch, scontrol and slurmstepd print into a job's output:
# `srun: error: node12: task 3: Exited with exit code 1`, `slurmstepd: error: *** STEP ...`.
# No time: these lines take the time of the trainer line before them, or their file's.
_CLIENT = r"(?P<cmd>srun|salloc|sbatch|scontrol|squeue|sinfo|scancel|slurmstepd|slurm_\w+)"

SLURM_CLIENT_RULE = Rule(
    "slurm-client",
    # The whole prefix stays in the message: `srun: error:` is what signatures read.
    rf"(?P<tail>{_CLIENT}:? (?:(?P<level>error|fatal|warning|Warning|debug\d?): )?)",
    lambda g, ctx: {
        "status": pl.lit(INHERIT),
        "severity": pl.coalesce(
            level_of_word(g("level").str.replace(r"^debug\d$", "debug")), pl.lit("info")
        ),
    },
    tail=("tail",),
)
SLURM_CLIENT = text_format(
    "slurm-client", [SLURM_CLIENT_RULE], file_time=True, inherit_severity=False
)
