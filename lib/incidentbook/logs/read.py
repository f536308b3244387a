"""Logs of an incident window, read from what clusters write into one canonical frame.

Formats come from the log-format registry (logs.formats: one module per family, each
format declaring how it detects itself and what its times mean): each file's format is
detected from its first lines, and its parser turns a frame of lines into the canonical
columns with polars expressions (no Python loop over lines). Kernel logs (`dmesg` in
its ISO, ctime and raw forms, `/dev/kmsg`, pstore), syslog (RFC 3164 and 5424),
`journalctl -o json`, generic JSON lines, trainer stdout (nanotron, PyTorch glog, NCCL,
mixed in one file), the NVIDIA fabric manager log, Blue Gene RAS events and
`sacct --parsable2` all end in LOG_SCHEMA, so nothing downstream knows where a line
came from.

Nothing is dropped silently: every line is in the frame, outside the window, blank (or a
table header), or counted in the receipt with a reason and an example `file:line`. Bad
content never raises; only a logs folder that does not exist does (LogsError).

Lines timed since boot are placed with their host's boot time, and lines without a time
of their own (NCCL lines, Python tracebacks, continuation lines of a multi-line kernel
record) take their neighbours' (logs.timing; such times are marked `inferred`). Reports
(nvidia-smi -q, dcgmi diag, a bug report's nvidia-smi section) are also read into facts
about each GPU (`Logs.facts`).
"""

from __future__ import annotations

import fnmatch
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import polars as pl

from incidentbook.logs.data import (
    BAD_TIMESTAMP,
    BINARY_MESSAGE,
    CANNOT_OPEN,
    FACTS_SCHEMA,
    FILE_REASONS,
    GZIP_CUT,
    INCOMPLETE,
    LOG_SCHEMA,
    MALFORMED_JSON,
    MAX_LINE,
    NO_BOOT_TIME,
    NO_HEADER,
    NO_TIMESTAMP,
    NOT_A_RECORD,
    NOT_UTF8,
    TOO_LONG,
    UNKNOWN_FORMAT,
    UTC_US,
    LogReceipt,
    LogReport,
    Logs,
    LogsError,
    Recognise,
)
from incidentbook.logs.formats import (
    LOG_FORMATS,
    SKIP,
    Context,
    LogFormat,
    Parser,
    known_formats,
    register,
    to_us,
)
from incidentbook.logs.formats.slurm import SACCT_STATE_SEVERITY, expand_hostlist
from incidentbook.logs.formats.trainer_lines import LAUNCHER
from incidentbook.logs.severity import LEVELS
from incidentbook.logs.timing import (
    TimeNotes,
    hosts_of_ranks,
    infer_times,
    may_hold_foreign_lines,
    own_times,
    place_boot_relative,
)
from incidentbook.window import TimeWindow

BootTimes = dict[str, datetime | list[datetime]]
"""Per host, its boot time, or its boot times (any order; the latest is the current)."""

SNIFF_LINES = 50
SNIFF_RATIO = 0.6
BATCH_BYTES = 256 * 1024 * 1024  # files are parsed in batches of about this much text


@dataclass
class _File:
    path: Path
    key: str  # the path shown in the report and the `file` column
    host: str | None  # the folder's (or the caller's) host
    stem: str
    forced: str | None = None
    text: str = ""
    sample: list[str] = field(default_factory=list)  # its first lines (_sample), for detection
    lines: int = 0
    incomplete: bool = False
    lossy: bool = False
    gzip_cut: bool = False
    unopened: bool = False
    fmt: str = "unknown"
    mtime_us: int | None = None


def _gunzip(data: bytes) -> tuple[bytes, bool]:
    """Decompress gzip members one after another; a stream cut short keeps what came
    before the cut (fed in 1 MiB pieces so a corrupt piece loses little)."""
    out: list[bytes] = []
    piece = 1 << 20
    while data:
        d = zlib.decompressobj(wbits=31)
        pos = 0
        try:
            while pos < len(data) and not d.eof:
                out.append(d.decompress(data[pos : pos + piece]))
                pos += piece
        except zlib.error:
            return b"".join(out), True
        if not d.eof:
            out.append(d.flush())
            return b"".join(out), True
        data = d.unused_data.lstrip(b"\0")
        if data and not data.startswith(b"\x1f\x8b"):
            return b"".join(out), True
    return b"".join(out), False


def _load(f: _File) -> None:
    try:
        data = f.path.read_bytes()
        f.mtime_us = f.path.stat().st_mtime_ns // 1000
    except OSError:
        f.unopened = True
        return
    if data[:2] == b"\x1f\x8b":  # gzip, by its magic (a .gz that is not gzip is read as text)
        data, f.gzip_cut = _gunzip(data)
    # Decoding in Python (C speed, ~GB/s on ASCII) and splitting in polars is fast and exact:
    # the CSV reader (scan_csv with a rare separator, no quoting) would split a line that
    # holds the separator into fields (an error, or text lost with truncate_ragged_lines),
    # and polars' CSV reader has no way to say which lines held invalid UTF-8.
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        f.lossy = True
    text = text.removeprefix("\ufeff")
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    f.incomplete = bool(text) and not text.endswith("\n")
    # (f.lines is counted when the text is split; the sample is kept for detection)
    f.text, f.sample = _without_compose_prefix(text)


# `docker compose logs` (and `docker-compose up`) put the service's name, padded, and a bar
# before each line: `dcgm_exporter  | time="..." level=fatal ...`. The name has a `-`, `_`
# or `.` in it (compose's `service-1`, `project_service_1`, a container's name), so a
# logger's `INFO | ...` is not taken for one.
_COMPOSE = r"^[a-z0-9][a-z0-9]*(?:[-_.][a-z0-9]+)+ +\| ?"


def _without_compose_prefix(text: str) -> tuple[str, list[str]]:
    """The text with a compose prefix taken off every line that has one, when most of the
    file's first lines have one: the lines are then read in their own format (the
    service's name is not a host: compose runs its services on one). With the text, its
    sample (_sample) for format detection."""
    import re

    head = _sample(text)
    prefixed = sum(re.match(_COMPOSE, line) is not None for line in head)
    if not head or prefixed < SNIFF_RATIO * len(head):
        return text, head
    text = re.sub(_COMPOSE, "", text, flags=re.MULTILINE)
    return text, _sample(text)


def _sample(text: str) -> list[str]:
    """The first non-blank lines (each cut to 2 KiB) for format detection. Indented lines
    are left out: in every format they continue the record before (tracebacks, dmesg's
    multi-line records, kmsg dictionaries), unless the file holds nothing else; so are
    journalctl's own `-- ` lines (see _continues)."""
    # The file's start split at once (one C call, not a find per line); when its whole
    # lines do not hold the sample (long, blank or indented first lines) a longer start
    # is tried, then the walk line by line.
    for size in _SAMPLE_HEADS:
        head = text[:size]
        lines = head.split("\n")
        if len(head) < len(text):
            lines.pop()  # cut by the head: not a whole line
        got = _first_lines(lines)
        if got is not None or len(head) == len(text):
            return got if got is not None else _first_lines(lines, everything=True)
    out, indented, pos = [], [], 0
    while len(out) < SNIFF_LINES and pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line = text[pos : min(end, pos + 2048)]
        if not _blank(line):
            if not _continues(line):
                out.append(line)
            elif len(indented) < SNIFF_LINES:
                indented.append(line)
        pos = end + 1
    return out or indented


# A line that holds only a launcher's tag (`501: `, `[default3]:`, `[rank0]: `) is an empty
# line one rank printed: blank, like an empty one. Such lines are short, and whitespace
# alone longer than this starts with it (a progress bar's clearing line).
_TAG_ONLY = rf"^(?:{LAUNCHER})\s*$"
_SHORT = 64


def _blank(line: str) -> bool:
    import re

    return not line.strip() or (len(line) < _SHORT and re.match(_TAG_ONLY, line) is not None)


def _blank_lines(lines: pl.DataFrame) -> pl.Series:
    """Which of the frame's `raw` lines are blank (_blank). The regex runs only on the
    short lines and those that start with white space: a few of a log's lines."""
    raw = pl.col("raw")
    maybe = (
        lines.select(
            (raw.str.len_bytes() < _SHORT)
            | raw.str.starts_with(" ")
            | raw.str.starts_with("\t")
            | raw.str.starts_with("\r")
        )
        .to_series()
        .arg_true()
    )
    blank = pl.repeat(False, lines.height, eager=True)
    if maybe.len():
        some = lines.get_column("raw").gather(maybe)
        blank = blank.scatter(maybe.filter(some.str.contains(_TAG_ONLY)), True)
    return blank


def _continues(line: str) -> bool:
    """A line that continues or annotates the record before it rather than starting one:
    an indented line, unless a date starts it (Megatron-LM prints ` [2025-06-03 06:38:07]
    iteration ...` with a space before it: a record of its own), or one of journalctl's
    own (`-- Logs begin at ...`, `-- Boot ... --` and `-x`'s catalog text: `-- Subject:
    ...`, `-- ` and the lines between)."""
    if line[0].isspace():
        return _DATED_INDENT.match(line) is None
    return line.startswith("-- ") or line == "--"


_DATED_INDENT = re.compile(r"\s{1,4}\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")


def _first_lines(lines: list[str], everything: bool = False) -> list[str] | None:
    """The sample from these lines when they hold SNIFF_LINES unindented ones (None if
    not); `everything`: they are the whole file, so whatever they hold."""
    out, indented = [], []
    for whole in lines:
        line = whole[:2048]
        if not _blank(line):
            if not _continues(line):
                out.append(line)
                if len(out) == SNIFF_LINES:
                    return out
            elif len(indented) < SNIFF_LINES:
                indented.append(line)
    return (out or indented) if everything else None


_SAMPLE_HEADS = (8 * 1024, 64 * 1024)

HEADER_LINES = 10  # a format's `header` decides when it is among a file's first lines


def _headed(text: str, formats: dict[str, LogFormat]) -> str | None:
    import re

    head = "\n".join(text[:8192].split("\n", HEADER_LINES)[:HEADER_LINES])
    for name in sorted(formats):
        pattern = formats[name].header
        if pattern and re.search(pattern, head, re.MULTILINE):
            return name
    return None


def _sniffer(patterns: tuple[str, ...]) -> str:
    """A format's sniff patterns as one anchored regex (named groups made plain: the same
    name may appear in several)."""
    import re

    plain = (re.sub(r"\(\?P<\w+>", "(?:", p) for p in patterns)
    return "^(?:" + "|".join(f"(?:{p})" for p in plain) + ")"


def _detect(files: list[_File], formats: dict[str, LogFormat]) -> None:
    """The format of each file: the format whose sniff patterns match the largest share of
    its first lines (at least SNIFF_RATIO, or the format's own sniff_ratio); ties go to the
    higher priority, then to the name first in alphabetical order (never to the order
    formats were registered in). A format's `header` among the first lines decides alone.
    A file no format takes by its unindented lines is tried on all its first lines."""
    todo = [f for f in files if f.forced is None and f.text]
    for f in files:
        if f.forced is not None:
            f.fmt = f.forced
        elif not f.text:
            f.fmt = "empty"
    if not todo:
        return
    fids, lines = [], []
    for i, f in enumerate(todo):
        headed = _headed(f.text, formats)
        if headed is not None:
            f.fmt = headed
            continue
        sample = f.sample
        fids += [i] * len(sample)
        lines += sample
    _decide(todo, _frame(fids, lines), formats)
    # A file whose records are themselves indented (ipmitool pads a SEL's ids: `  53 |`),
    # with a few lines of another kind between them, is tried again on all its first lines.
    fids, lines = [], []
    for i, f in enumerate(todo):
        if f.fmt == "unknown":
            wide = _wide_sample(f.text)
            fids += [i] * len(wide)
            lines += wide
    _decide(todo, _frame(fids, lines), formats)


def _frame(fids: list[int], lines: list[str]) -> pl.DataFrame:
    return pl.DataFrame(
        {"fid": pl.Series(fids, dtype=pl.UInt32), "raw": pl.Series(lines, dtype=pl.String)}
    )


def _wide_sample(text: str) -> list[str]:
    """The first non-blank lines (each cut to 2 KiB), indented ones too."""
    head = text[: _SAMPLE_HEADS[-1]].split("\n", 4 * SNIFF_LINES)
    return [line[:2048] for line in head if not _blank(line)][:SNIFF_LINES]


def _decide(todo: list[_File], sample: pl.DataFrame, formats: dict[str, LogFormat]) -> None:
    """Each undecided file's format by the shares of its sample's lines (see _detect)."""
    if sample.height == 0:
        return
    alphabetical = {name: rank for rank, name in enumerate(sorted(formats))}
    # Generic readers (fallback) only read what no other format does, and are only tried
    # on those files (they are the slowest to try).
    for fallback in (False, True):
        tier = {n: f for n, f in formats.items() if f.sniff and f.fallback == fallback}
        undecided = [i for i, f in enumerate(todo) if f.fmt == "unknown"]
        part = sample.filter(pl.col("fid").is_in(undecided))
        if not tier or part.height == 0:
            continue
        # One regex per format (its patterns as one alternation, which the regex engine
        # runs in one pass), each over the whole sample, then the share per file.
        flags = part.select(
            "fid",
            *(pl.col("raw").str.contains(_sniffer(f.sniff)).alias(n) for n, f in tier.items()),
        )
        ratios = flags.group_by("fid").agg(pl.exclude("fid").mean())
        names = [c for c in ratios.columns if c != "fid"]
        rank = [(tier[n].priority, -alphabetical[n]) for n in names]
        needed = [tier[n].sniff_ratio or SNIFF_RATIO for n in names]
        for row in ratios.iter_rows():
            fid, scores = row[0], row[1:]
            enough = [k for k in range(len(names)) if (scores[k] or 0) >= needed[k]]
            if enough:
                best = max(enough, key=lambda k: (scores[k] or 0, *rank[k]))
                todo[fid].fmt = names[best]


_PIECE = 1 << 30  # a polars string holds at most 4 GiB: bigger texts are cut at newlines


def _pieces(text: str) -> Iterator[str]:
    pos = 0
    while len(text) - pos > _PIECE:
        cut = text.rfind("\n", pos, pos + _PIECE)
        cut = pos + _PIECE - 1 if cut < 0 else cut  # a line of 1 GiB: cut anywhere
        yield text[pos : cut + 1]
        pos = cut + 1
    yield text[pos:]


def _split(files: list[_File]) -> pl.DataFrame:
    """One frame of the lines of several files: fid (index in `files`), line, raw.

    One polars string per file, split in one call: no Python list of a million lines and
    no joined copy of the text (several times faster than either). A text's final newline
    ends its last line rather than starting an empty one, so `a\nb\n` is two lines and
    `a\nb` (incomplete) is two too: the empty piece after it is dropped from the split
    (no stripped copy of the whole text is made for that).
    """
    texts, owners, ended = [], [], []
    for i, f in enumerate(files):
        for piece in _pieces(f.text):
            texts.append(piece)
            owners.append(i)
            ended.append(piece.endswith("\n"))
    split = pl.DataFrame(
        {"raw": pl.Series(texts, dtype=pl.String), "_ended": pl.Series(ended, dtype=pl.UInt32)}
    ).select(pl.col("raw").str.split("\n"), "_ended")
    lists = split.select(
        pl.col("raw").list.head(pl.col("raw").list.len() - pl.col("_ended"))
    ).to_series()
    per_piece = lists.list.len().to_numpy().astype(np.int64)
    counts = np.bincount(np.array(owners, dtype=np.int64), per_piece, len(files)).astype(np.int64)
    for f, n in zip(files, counts, strict=True):
        f.lines = int(n)
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    fid = np.repeat(np.arange(len(files), dtype=np.uint32), counts)
    line = (np.arange(total, dtype=np.int64) - np.repeat(starts, counts) + 1).astype(np.uint32)
    return pl.DataFrame({"fid": fid, "line": line, "raw": lists.explode()})


_OPTIONAL = {"rank": pl.Int32, "local_rank": pl.Int32, "_rel": pl.Int64, "_wall": pl.Int64}


def _parse_group(
    fmt: LogFormat,
    formats: dict[str, LogFormat],
    files: list[_File],
    ctx: Context,
    boot_times: dict[str, list[int]],
    ranks: dict[int, str] | None,
    report: LogReceipt,
    facts: list[pl.DataFrame],
    recognise: Recognise | None = None,
) -> pl.DataFrame | None:
    lines = _split(files)
    if lines.height == 0:
        return None
    ctx = replace(ctx, stems=tuple(f.stem for f in files))
    keys = pl.Series([f.key for f in files], dtype=pl.String)
    raw = pl.col("raw")

    def example(mask: pl.Expr) -> tuple[int, str | None]:
        got = lines.filter(mask).select(pl.len(), pl.col("fid").first(), pl.col("line").first())
        n, fid, line = got.row(0)
        return n, (f"{files[fid].key}:{line}" if n else None)

    if fmt.name != "unknown":  # lines of an unknown file are not kept: counted once, below
        lossy = [i for i, f in enumerate(files) if f.lossy]
        if lossy:
            report.count(
                NOT_UTF8,
                *example(pl.col("fid").is_in(lossy) & raw.str.contains("\ufffd", literal=True)),
            )
        report.count(TOO_LONG, *example(raw.str.len_bytes() > MAX_LINE))
        for f in files:
            if f.incomplete:
                report.count(INCOMPLETE, 1, f"{f.key}:{f.lines}")

    blank = _blank_lines(lines)
    blanks = int(blank.sum())
    report.skipped += blanks
    nonblank = lines.filter(~blank) if blanks else lines  # (most files have none: no copy)
    done = fmt.parse(nonblank.lazy(), ctx).collect()
    if may_hold_foreign_lines(fmt):
        done = own_times(done, ctx)
    with_facts: set[int] = set()
    if fmt.facts is not None:
        with_facts = _read_facts(fmt, nonblank, files, ctx, facts, report)
    done = done.with_columns(
        pl.lit(None, dtype).alias(name)
        for name, dtype in _OPTIONAL.items()
        if name not in done.columns
    )
    host_is_list = isinstance(done.schema["host"], pl.List)
    hosts = [f.host or f.stem for f in files]
    notes = TimeNotes()
    done = place_boot_relative(done, hosts, [f.key for f in files], boot_times, notes)
    report.hosts_without_boot_time |= notes.hosts_without_boot_time
    report.boot_from_file |= notes.boot_from_file
    report.boot_given |= notes.boot_given
    done = infer_times(done, fmt, [f.mtime_us for f in files], host_is_list)
    done = hosts_of_ranks(done, ranks)
    if fmt.name == "unknown" and recognise is not None:
        done, kept = _keep_recognised(done, recognise, [f.mtime_us for f in files])
        report.recognised += kept
    elif recognise is not None:
        # Lines a reader could not lay out, kept when a signature knows them as an unknown
        # file's are: a sacct row with no header above it, a line of a job completion log
        # that is no record, and a piece of a report with no GPU in it (`HW Slowdown :
        # Active` pasted alone), which gives no facts.
        pieces = [i for i in range(len(files)) if i not in with_facts] if fmt.facts else []
        only = pl.col("status").is_in([NO_HEADER, NOT_A_RECORD]) | (
            pl.col("fid").is_in(pieces) & (pl.col("status") == SKIP)
        )
        done, kept = _keep_recognised(done, recognise, [f.mtime_us for f in files], only)
        report.recognised += kept

    # Count what was not read, then keep the window.
    if "_kept" in done.columns:
        kept_reasons = (
            done.filter(pl.col("_kept").is_not_null())
            .group_by("_kept")
            .agg(pl.len(), pl.col("fid").first(), pl.col("line").first())
        )
        for reason, n, fid, line in kept_reasons.iter_rows():
            report.count(reason, n, f"{files[fid].key}:{line}")
    bad = (
        done.filter(pl.col("status").is_not_null())
        .group_by("status")
        .agg(pl.len(), pl.col("fid").first(), pl.col("line").first())
    )
    for reason, n, fid, line in bad.iter_rows():
        if reason == SKIP:
            report.skipped += n
            if fmt.facts is not None:
                report.report_lines += n
        else:
            report.count(reason, n, f"{files[fid].key}:{line}")
    ok = pl.col("status").is_null()
    inside = ok & ctx.window.contains()
    way = pl.col("_inferred")
    counts = done.select(
        inside=inside.sum(),
        ok=ok.sum(),
        before=(ok & (way == "before")).sum(),
        after=(ok & (way == "after")).sum(),
        file=(ok & (way == "file")).sum(),
    ).row(0, named=True)
    report.in_window += counts["inside"]
    report.outside_window += counts["ok"] - counts["inside"]
    report.inherited += counts["before"]
    report.backfilled += counts["after"]
    report.file_timed += counts["file"]
    if counts["file"]:
        dated = done.filter(ok & (way == "file")).get_column("fid").unique().sort().to_list()
        report.file_timed_files |= {files[i].key for i in dated}
    if counts["ok"]:
        # Each line's time semantics are those of the format its source names (a
        # composite format's lines keep their own), else its file's format's.
        read = set(done.select(pl.col("source").filter(ok).unique()).to_series().to_list())
        semantics = {source: formats.get(source, fmt) for source in read}
        report.local_time_formats |= {s for s, f in semantics.items() if f.local_time}
        report.yearless_formats |= {s for s, f in semantics.items() if f.yearless}

    kept = done if counts["inside"] == done.height else done.filter(inside)
    if kept.height == 0:
        return None
    if host_is_list:
        # (a line naming no host, as a sacct row of a job that never ran has none, keeps
        # its row and takes the folder's host below: explode drops empty lists otherwise)
        kept = kept.explode("host", empty_as_null=True)
    folder_host = pl.lit(pl.Series([f.host for f in files], dtype=pl.String)).gather(pl.col("fid"))
    stem = pl.lit(pl.Series([f.stem for f in files], dtype=pl.String)).gather(pl.col("fid"))
    host = (
        pl.coalesce(pl.col("host"), folder_host, stem)
        if fmt.line_host_first
        else pl.coalesce(folder_host, pl.col("host"), stem)
    )

    def cut(col: str) -> pl.Expr:
        c = pl.col(col)
        # Characters, not bytes: polars slices strings by character (64 Ki ASCII = 64 KiB).
        return pl.when(c.str.len_bytes() > MAX_LINE).then(c.str.head(MAX_LINE)).otherwise(c)

    return kept.select(
        pl.col("ts").cast(UTC_US),
        host=host,
        source=pl.col("source"),
        severity=pl.col("severity"),
        message=cut("message"),
        raw=cut("raw"),
        file=pl.lit(keys).gather(pl.col("fid")),
        line=pl.col("line"),
        rank=pl.col("rank").cast(pl.Int32),
        local_rank=pl.col("local_rank").cast(pl.Int32),
        inferred=pl.col("_inferred").is_not_null(),
    )


def _keep_recognised(
    done: pl.DataFrame,
    recognise: Recognise,
    file_times: list[int | None],
    only: pl.Expr | None = None,
) -> tuple[pl.DataFrame, int]:
    """Lines of a file in no known format that `recognise` knows (a signature matches
    them) are kept, dated by their file's modification time and marked inferred: an error
    line pasted into a file of notes, or a scheduler's message alone in a file, is
    evidence whatever surrounds it. The other lines stay counted as an unknown format's.
    Returns the frame and how many lines were kept. `only`: the lines that may be kept
    (all, if None)."""
    if only is None:
        known = recognise(done.get_column("message")).fill_null(False)
    else:
        # (the catalog runs on the lines that may be kept only: most files have none)
        may = done.select(only.fill_null(False)).to_series()
        if not may.any():
            return done, 0
        at = may.arg_true()
        found = recognise(done.get_column("message").gather(at)).fill_null(False)
        known = pl.repeat(False, done.height, eager=True).scatter(at, found)
    mtime = pl.lit(pl.Series(file_times, dtype=pl.Int64)).gather(pl.col("fid"))
    keep = pl.lit(known) & mtime.is_not_null()
    kept = int(done.select(keep.sum()).item())
    return done.with_columns(
        ts=pl.when(keep)
        .then(pl.from_epoch(mtime, time_unit="us").dt.replace_time_zone("UTC"))
        .otherwise(pl.col("ts"))
        .cast(UTC_US),
        status=pl.when(keep).then(None).otherwise(pl.col("status")),
        _inferred=pl.when(keep).then(pl.lit("file")).otherwise(pl.col("_inferred")),
    ), kept


def _read_facts(
    fmt: LogFormat,
    lines: pl.DataFrame,
    files: list[_File],
    ctx: Context,
    facts: list[pl.DataFrame],
    report: LogReceipt,
) -> set[int]:
    """Reads `lines`' facts into `facts`; returns the files (fids) that gave any."""
    got = fmt.facts(lines, ctx)
    if got.height == 0:
        return set()
    host = pl.lit(pl.Series([f.host or f.stem for f in files], dtype=pl.String))
    keys = pl.lit(pl.Series([f.key for f in files], dtype=pl.String))
    facts.append(
        got.select(
            host=host.gather(pl.col("fid")),
            gpu="gpu",
            source=pl.lit(fmt.name),
            section="section",
            key="key",
            value="value",
            file=keys.gather(pl.col("fid")),
            line="line",
        )
    )
    report.facts += got.height
    return set(got.get_column("fid").unique().to_list())


def parse_boot_times(values: str | list[str] | tuple[str, ...]) -> BootTimes:
    """Boot times as a person writes them: `HOST=TIME` (for that host) or `TIME` (every
    host without its own), several separated by commas or given as a list; TIME is RFC
    3339 with an offset. A bad value is a LogsError that says which."""
    from pydantic import AwareDatetime, TypeAdapter, ValidationError

    moment_of = TypeAdapter(AwareDatetime)
    items = [values] if isinstance(values, str) else list(values)
    out: BootTimes = {}
    for item in (part.strip() for value in items for part in value.split(",")):
        if not item:
            continue
        host, _, when = item.rpartition("=") if "=" in item else ("*", "", item)
        try:
            moment = moment_of.validate_python(when.strip())
        except ValidationError:
            raise LogsError(
                f"boot time {item!r}: write HOST=TIME or TIME, TIME in RFC 3339 with an "
                "offset (2025-03-14T07:55:00Z)"
            ) from None
        key = host.strip() or "*"
        known = out.get(key)
        out[key] = (
            [*known, moment]
            if isinstance(known, list)
            else ([known, moment] if known is not None else moment)
        )
    return out


def _boot_lists(boot_times: BootTimes | None) -> dict[str, list[int]]:
    out = {}
    for host, when in (boot_times or {}).items():
        values = when if isinstance(when, (list, tuple)) else [when]
        out[host] = sorted(to_us(w) for w in values)
    return out


def _read(
    files: list[_File],
    window: TimeWindow,
    boot_times: BootTimes | None,
    assume_tz: str,
    ranks: dict[int, str] | None = None,
    recognise: Recognise | None = None,
) -> Logs:
    try:
        ZoneInfo(assume_tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise LogsError(
            f"assume_tz={assume_tz!r} is not a time zone name; use an IANA name such as "
            "'UTC' or 'Europe/Paris'"
        ) from None
    ctx = Context(window=window, tz=assume_tz)
    report = LogReceipt(assume_tz=assume_tz)
    frames: list[pl.DataFrame] = []
    facts: list[pl.DataFrame] = []
    formats = dict(LOG_FORMATS.entries())
    boots = _boot_lists(boot_times)
    for batch in _batches(files):
        for f in batch:
            _load(f)
        _detect(batch, formats)
        groups: dict[str, list[_File]] = {}
        for f in batch:
            if f.text:
                groups.setdefault(f.fmt, []).append(f)
        for name, members in groups.items():
            got = _parse_group(
                formats[name], formats, members, ctx, boots, ranks, report, facts, recognise
            )
            if got is not None:
                frames.append(got)
        for f in batch:
            report.files[f.key] = f.fmt if not f.unopened else "unreadable"
            report.lines_read += f.lines
            if f.unopened:
                report.count(CANNOT_OPEN, 1, f.key)
            if f.gzip_cut:
                report.count(GZIP_CUT, 1, f"{f.key}:{f.lines}")
        for f in batch:
            f.text = ""  # free the batch's text before the next one
    frame = pl.concat([LOG_SCHEMA.to_frame(), *frames], how="vertical")
    fact_frame = pl.concat([FACTS_SCHEMA.to_frame(), *facts], how="vertical")
    return Logs(
        frame=_in_order(frame),
        receipt=report,
        facts=fact_frame.sort("host", "gpu", "file", "line"),
    )


_ORDER = ["ts", "host", "file", "line"]


def _in_order(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame.sort(*_ORDER)`, by time alone first: the lines that share a time with
    another (few: times are to the microsecond) are then sorted by all four among
    themselves and put back in the places their times hold. A sort by one integer and a
    small one cost less than a sort of every line by time, host text, file text and line.
    """
    if frame.height == 0 or frame.get_column("ts").null_count():
        return frame.sort(_ORDER)
    order = frame.select(pl.col("ts").arg_sort()).to_series()
    ts = frame.get_column("ts").gather(order)
    tied = ((ts == ts.shift(1)) | (ts == ts.shift(-1))).fill_null(False)
    places = tied.arg_true()
    if places.len():
        among = frame.select(_ORDER).with_row_index("_i")[order.gather(places)].sort(_ORDER)
        order = order.scatter(places, among.get_column("_i"))
    return frame[order]


def _batches(files: list[_File]) -> Iterator[list[_File]]:
    """Consecutive files of about BATCH_BYTES on disk, so memory stays bounded."""
    batch, size = [], 0
    for f in files:
        try:
            n = f.path.stat().st_size * (4 if f.path.suffix == ".gz" else 1)
        except OSError:
            n = 0
        if batch and size + n > BATCH_BYTES:
            yield batch
            batch, size = [], 0
        batch.append(f)
        size += n
    if batch:
        yield batch


# Folders and name parts that say what kind of log a file holds, or group hosts or a job's
# outputs, rather than name a host: logs are often collected one kind at a time
# (`logs/dmesg/<host>.txt`, `logs/journal/<host>.log`, `logs/nodes/<host>/syslog`,
# `<host>.dmesg-T.txt`, `logs/train/<job>.out`).
_KIND = re.compile(
    r"(?i)(?:dmesg|kern|kernel|kmsg|syslog|messages|journal|journald|journalctl|logs?|var"
    r"|stdout|stderr|out|err|txt|nodes|hosts|servers|machines|collected|raw"
    r"|train|training|trainer|jobs?|runs?|outputs?|slurm)(?:[-_][a-z]+)?"
)


def _is_kind(name: str) -> bool:
    return _KIND.fullmatch(name) is not None


def folder_host(rel: Path) -> str | None:
    """The host a file's folders name: the first folder under logs/ that is not a kind of
    log or a group of hosts (None for a file in no such folder)."""
    return next((part for part in rel.parts[:-1] if not _is_kind(part)), None)


def _stem(path: Path) -> str:
    """The file's name without its extensions and the kind-of-log parts after the first
    (`gpu-b11.dmesg-T.txt` -> `gpu-b11`; `node01.example.org.log` keeps its domain)."""
    name = path.name.removesuffix(".gz")
    stem = Path(name).stem or name
    parts = stem.split(".")
    while len(parts) > 1 and _is_kind(parts[-1]):
        parts.pop()
    return ".".join(parts)


def _forced(key: str, formats: dict[str, str] | None) -> str | None:
    for glob, name in (formats or {}).items():
        if fnmatch.fnmatch(key, glob) or fnmatch.fnmatch(key.rsplit("/", 1)[-1], glob):
            return name
    return None


def _check_formats(formats: dict[str, str] | None) -> None:
    for glob, name in (formats or {}).items():
        if name not in LOG_FORMATS:
            raise LogsError(
                f"formats[{glob!r}] = {name!r} is not a known log format; "
                f"known: {', '.join(known_formats())}"
            )


def read_logs(
    root: Path | str,
    window: TimeWindow,
    *,
    boot_times: BootTimes | None = None,
    assume_tz: str = "UTC",
    formats: dict[str, str] | None = None,
    ranks: dict[int, str] | None = None,
    recognise: Recognise | None = None,
) -> Logs:
    """Every log file under an incident's logs/ folder, as one frame of the window's lines.

    A file in a folder (`logs/<host>/kern.log`) belongs to that host (folders that name a
    kind of log or a group of hosts are passed over: `logs/dmesg/<host>.txt`,
    `logs/nodes/<host>/syslog`); other files take the
    host from each line (syslog, journald, NCCL, nanotron) or else from the file's name.
    `boot_times` places lines timed since boot (`[  12.3]`, /dev/kmsg) per host, unless
    a line of the file states its boot time (logs.timing); `assume_tz` is the zone of
    times written without one; `formats` forces a format for files matching a glob of the
    relative path (or of the name); `ranks` names the host of each rank of a launcher's
    prefix (`[rank5]:`, `12: `) that the logs do not name themselves. `recognise` (a
    boolean per message: signatures.recogniser of the catalog, in practice) keeps the
    lines it knows of files in no known format, dated by the file (see _keep_recognised).
    """
    root = Path(root)
    if not root.exists():
        raise LogsError(f"no logs folder at {root}; an incident's logs are in <incident>/logs/")
    if not root.is_dir():
        raise LogsError(
            f"{root} is a file; read_logs reads a logs folder (read_log_file: one file)"
        )
    _check_formats(formats)
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        key = rel.as_posix()
        files.append(
            _File(
                path=path,
                key=key,
                host=folder_host(rel),
                stem=_stem(path),
                forced=_forced(key, formats),
            )
        )
    return _read(files, window, boot_times, assume_tz, ranks, recognise)


def read_log_file(
    path: Path | str,
    window: TimeWindow,
    *,
    host: str | None = None,
    boot_times: BootTimes | None = None,
    assume_tz: str = "UTC",
    format: str | None = None,
    ranks: dict[int, str] | None = None,
    recognise: Recognise | None = None,
) -> tuple[pl.DataFrame, LogReceipt]:
    """One log file: `host` (when given) is the host of every line, else each line's own
    host or the file's stem; `format` forces a registered format instead of detecting;
    `recognise` as read_logs's."""
    path = Path(path)
    if format is not None:
        _check_formats({path.name: format})
    f = _File(path=path, key=path.name, host=host, stem=_stem(path), forced=format)
    logs = _read([f], window, boot_times, assume_tz, ranks, recognise)
    return logs.frame, logs.receipt


# Names this module had before the formats moved to logs.formats (kept for one release).
SEVERITIES = LEVELS
__all__ = [
    "BAD_TIMESTAMP",
    "BINARY_MESSAGE",
    "CANNOT_OPEN",
    "FILE_REASONS",
    "GZIP_CUT",
    "INCOMPLETE",
    "LOG_SCHEMA",
    "MALFORMED_JSON",
    "MAX_LINE",
    "NOT_A_RECORD",
    "NOT_UTF8",
    "NO_BOOT_TIME",
    "NO_HEADER",
    "NO_TIMESTAMP",
    "SACCT_STATE_SEVERITY",
    "SEVERITIES",
    "TOO_LONG",
    "UNKNOWN_FORMAT",
    "LogFormat",
    "LogReceipt",
    "LogReport",
    "Logs",
    "LogsError",
    "Parser",
    "expand_hostlist",
    "known_formats",
    "read_log_file",
    "read_logs",
    "register",
]
