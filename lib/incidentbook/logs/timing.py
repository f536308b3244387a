"""A time for every line the formats read: lines timed since boot placed with their host's
boot time, and lines with no time of their own given their neighbours' (marked inferred).

Boot times. A format timed since boot (raw `[seconds]` dmesg, /dev/kmsg, a bug report's
dmesg) gives each line `_rel`, its microseconds since boot. A file can hold several boots
(the seconds start again from under a second): each is one boot, numbered from the file's
end (the last is the current boot). A boot's time is, in order:
  1. stated by a line of that boot in the same file: one that carries a wall-clock time
     (`_wall`: the RTC driver's "setting system clock to ... (epoch)", or a bug report's
     kernel message that its journal section also holds). Each such line gives wall minus
     seconds; the value most of them agree on (to two seconds) is taken;
  2. given for the host (`boot_times`: --boot-time, incident.yaml's logs.boot_times, or
     node_exporter's node_boot_time_seconds in the incident's metrics), the latest boot
     for the current one, the one before it for the boot before, and so on.
A boot with neither leaves its lines unplaced, counted with a reason.

Untimed lines (status INHERIT: NCCL's lines, tracebacks, continuation lines, glog without
a date) take the time of the nearest line before them in their file that has one (with
its host, rank and, for formats whose continuations belong to the record, its level);
lines before any such line take the time of the first one after them; in a format with
`file_time`, a file with no time at all gives its lines its modification time.

Lines of another tool pasted among a format's lines (its continuations, to that format)
that start with a stamp of their own keep it: own_times reads them with the generic reader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from incidentbook.logs.data import NO_BOOT_TIME, NO_TIMESTAMP, UTC_US
from incidentbook.logs.formats import INHERIT, NEEDS_BOOT, SKIP, Context, LogFormat
from incidentbook.logs.formats.generic import GENERIC, STAMP
from incidentbook.logs.formats.trainer_lines import LAUNCHER

AGREE_US = 2_000_000  # boot times stated by lines agree when within two seconds
RESTART_US = 1_000_000  # a boot's first messages are within a second of its start


@dataclass
class TimeNotes:
    """What timing did, for the receipt."""

    boot_from_file: set[str] = field(default_factory=set)  # files whose lines stated a boot
    boot_given: set[str] = field(default_factory=set)  # files placed with a given boot time
    hosts_without_boot_time: set[str] = field(default_factory=set)


def _agreed(estimates: Sequence[int]) -> int:
    """The boot time most estimates agree on (within AGREE_US); ties go to the latest."""
    values = np.sort(np.asarray(estimates, dtype=np.int64))
    lo = np.searchsorted(values, values - AGREE_US, side="left")
    hi = np.searchsorted(values, values + AGREE_US, side="right")
    support = hi - lo
    best = np.flatnonzero(support == support.max())[-1]
    near = values[lo[best] : hi[best]]
    return int(np.median(near))


def place_boot_relative(
    done: pl.DataFrame,
    hosts: list[str],
    keys: list[str],
    boot_times: dict[str, list[int]],
    notes: TimeNotes,
) -> pl.DataFrame:
    """Lines with status NEEDS_BOOT get `ts` (or NO_BOOT_TIME): see the module docstring.
    `hosts[fid]` is each file's host for the given boot times, `keys[fid]` its name."""
    needs = pl.col("status") == NEEDS_BOOT
    if not done.select(needs.any()).item():
        return done
    done = done.with_row_index("_i")
    part = done.filter(needs).select("_i", "fid", "_rel", "_wall")
    # A new boot starts where the seconds fall back to (nearly) zero: parts of one boot
    # out of order (a pstore dump's) fall back less far.
    restart = (pl.col("_rel") < pl.col("_rel").shift(1).over("fid")) & (pl.col("_rel") < RESTART_US)
    part = part.with_columns(_seg=restart.fill_null(False).cum_sum().over("fid")).with_columns(
        _back=pl.col("_seg").max().over("fid") - pl.col("_seg")
    )
    stated = (
        part.filter(pl.col("_wall").is_not_null())
        .group_by("fid", "_seg")
        .agg(est=pl.col("_wall") - pl.col("_rel"))
    )
    boots: dict[tuple[int, int], int] = {}
    for fid, seg, est in stated.iter_rows():
        boots[(fid, seg)] = _agreed(est)
        notes.boot_from_file.add(keys[fid])
    segments = part.select("fid", "_seg", "_back").unique()
    rows = []
    for fid, seg, back in segments.iter_rows():
        boot = boots.get((fid, seg))
        if boot is None:
            given = boot_times.get(hosts[fid]) or boot_times.get("*") or []
            if back < len(given):
                boot = given[len(given) - 1 - back]
                notes.boot_given.add(keys[fid])
        if boot is None:
            notes.hosts_without_boot_time.add(hosts[fid])
        rows.append((fid, seg, boot))
    table = pl.DataFrame(
        rows,
        schema={"fid": pl.UInt32, "_seg": part.schema["_seg"], "_boot": pl.Int64},
        orient="row",
    )
    placed = part.join(table, on=["fid", "_seg"], how="left").select(
        "_i",
        _ts=pl.from_epoch(pl.col("_boot") + pl.col("_rel"), time_unit="us").dt.replace_time_zone(
            "UTC"
        ),
        _st=pl.when(pl.col("_boot").is_null()).then(pl.lit(NO_BOOT_TIME)),
    )
    done = done.join(placed, on="_i", how="left", maintain_order="left")
    return done.with_columns(
        ts=pl.when(needs).then(pl.col("_ts")).otherwise(pl.col("ts")).cast(UTC_US),
        status=pl.when(needs).then(pl.col("_st")).otherwise(pl.col("status")),
    ).drop("_i", "_ts", "_st")


def _nearest(value: pl.Expr, anchor: pl.Expr, backward: bool = False) -> tuple[pl.Expr, pl.Expr]:
    """(found, value) of the nearest anchor row at or before each row (or at or after,
    `backward`), in the same file; rows are in file order. By row index, so an anchor whose
    value is null passes on null."""
    index = pl.when(anchor).then(pl.int_range(pl.len(), dtype=pl.UInt32))
    at = index.backward_fill() if backward else index.forward_fill()
    found = (pl.col("fid").gather(at) == pl.col("fid")).fill_null(False)
    return found, pl.when(found).then(value.gather(at))


def infer_times(
    done: pl.DataFrame, fmt: LogFormat, file_times: list[int | None], host_is_list: bool
) -> pl.DataFrame:
    """Untimed lines get a time (see the module docstring); `_inferred` says which way:
    "before", "after", "file", or null for a line with a time of its own."""
    status = pl.col("status")
    if not done.select((status == INHERIT).any()).item():
        return done.with_columns(_inferred=pl.lit(None, pl.String))
    inherit = status.fill_null("") == INHERIT
    anchor = ~status.fill_null("").is_in([INHERIT, SKIP])
    before, ts_before = _nearest(pl.col("ts"), anchor)
    after, ts_after = _nearest(pl.col("ts"), anchor, backward=True)
    _, st_before = _nearest(status.fill_null(""), anchor)
    _, st_after = _nearest(status.fill_null(""), anchor, backward=True)
    mtime = pl.lit(pl.Series(file_times, dtype=pl.Int64)).gather(pl.col("fid"))
    by_file = pl.lit(fmt.file_time) & mtime.is_not_null()
    way = (
        pl.when(~inherit)
        .then(None)
        .when(before)
        .then(pl.lit("before"))
        .when(after)
        .then(pl.lit("after"))
        .when(by_file)
        .then(pl.lit("file"))
    )
    done = done.with_columns(_inferred=way)
    w = pl.col("_inferred")
    file_ts = pl.from_epoch(mtime, time_unit="us").dt.replace_time_zone("UTC")
    passed = (
        pl.when(w == "before").then(st_before).when(w == "after").then(st_after).otherwise(None)
    )
    updates = {
        "ts": pl.when(w == "before")
        .then(ts_before)
        .when(w == "after")
        .then(ts_after)
        .when(w == "file")
        .then(file_ts)
        .otherwise(pl.col("ts"))
        .cast(UTC_US),
        # An untimed line continues its neighbour: it passes on the neighbour's reason when
        # that could not be placed either.
        "status": pl.when(~inherit)
        .then(status)
        .when(w.is_null())
        .then(pl.lit(NO_TIMESTAMP))
        .when(passed.fill_null("") != "")
        .then(passed),
    }

    def neighbour(col: str) -> pl.Expr:
        _, b = _nearest(pl.col(col), anchor)
        _, a = _nearest(pl.col(col), anchor, backward=True)
        return (
            pl.when(inherit)
            .then(
                pl.coalesce(pl.col(col), pl.when(w == "before").then(b).when(w == "after").then(a))
            )
            .otherwise(pl.col(col))
        )

    if not host_is_list:
        updates["host"] = neighbour("host")
    for col in ("rank", "local_rank"):
        updates[col] = neighbour(col)
    if fmt.inherit_severity:
        updates["severity"] = neighbour("severity")
    return done.with_columns(**updates)


def hosts_of_ranks(done: pl.DataFrame, ranks: dict[int, str] | None) -> pl.DataFrame:
    """A host for lines that give a rank but no host: the host that lines of the same
    file give with that rank (NCCL lines, PALS labels), else the incident's rank map."""
    if "rank" not in done.columns or isinstance(done.schema["host"], pl.List):
        return done
    known = (
        done.filter(pl.col("rank").is_not_null() & pl.col("host").is_not_null())
        .group_by("fid", "rank")
        .agg(_rank_host=pl.col("host").mode().sort().first())
    )
    if known.height:
        done = (
            done.join(known, on=["fid", "rank"], how="left", maintain_order="left")
            .with_columns(host=pl.coalesce("host", "_rank_host"))
            .drop("_rank_host")
        )
    if ranks:
        mapped = pl.col("rank").replace_strict(ranks, default=None, return_dtype=pl.String)
        done = done.with_columns(host=pl.coalesce(pl.col("host"), mapped))
    return done


def may_hold_foreign_lines(fmt: LogFormat) -> bool:
    """Whether a file of this format may hold lines of another that carry their own time
    (a paste of several tools' output into one file). Not the generic readers (they read
    every stamp already), nor reports read as facts, sacct tables or unknown files."""
    return not fmt.fallback and fmt.facts is None and fmt.name not in {"unknown", "slurm-sacct"}


# A stamp at a line's start, after at most one token (`[`, `<13>`, `node01: `), or after a
# launcher's tag and then one (`191:  [2025-05-20 07:51:53] iteration ...`: srun --label
# pads its rank, and Megatron starts its line with a space).
_TAG = re.sub(r"\(\?P<\w+>", "(?:", LAUNCHER)
_OWN_STAMP = pl.col("_lead").str.contains(rf"^(?:{_TAG})\s*\S{{0,24}}\s?$")


def own_times(done: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    """Lines the file's format took for continuations (status INHERIT) that start with a
    time of their own keep it: another tool's output pasted into the file (a syslog
    section in a daemon's log, dmesg under a trainer's output) is read by the generic
    reader (its time, level and message), rather than dated by the line before it.
    Indented lines stay continuations: records continue that way in every format."""
    status = pl.col("status")
    if not done.select((status == INHERIT).any()).item():
        return done
    # (srun --label pads its rank with spaces: ` 15: ` starts a line, not a continuation)
    candidate = (status == INHERIT) & (
        ~pl.col("raw").str.contains(r"^\s") | pl.col("raw").str.contains(r"^\s*\d+: ")
    )
    rows = done.with_row_index("_row").filter(candidate)
    if rows.height == 0:
        return done
    lead = rows.select("_row", _lead=pl.col("raw").str.extract(STAMP, 1)).filter(
        pl.col("_lead").is_not_null() & _OWN_STAMP
    )
    if lead.height == 0:
        return done
    own = (
        GENERIC.parse(rows.join(lead.select("_row"), on="_row").lazy(), ctx)
        .collect()
        .filter(pl.col("status").is_null() & pl.col("ts").is_not_null())
        .select("_row", "ts", "severity", "source", "message")
    )
    if own.height == 0:
        return done
    got = done.with_row_index("_row").join(
        own, on="_row", how="left", suffix="_own", maintain_order="left"
    )
    mine = pl.col("ts_own").is_not_null()
    return got.with_columns(
        ts=pl.coalesce("ts_own", "ts"),
        severity=pl.coalesce("severity_own", "severity"),
        source=pl.when(mine).then(pl.col("source_own")).otherwise(pl.col("source")),
        message=pl.when(mine).then(pl.col("message_own")).otherwise(pl.col("message")),
        status=pl.when(mine).then(None).otherwise(pl.col("status")),
    ).drop("_row", "ts_own", "severity_own", "source_own", "message_own")
