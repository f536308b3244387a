"""What every trainer-log parser shares: the record schema, the contract, the lines of a
file with their own times, and numbers as trainers print them.

A parser (one module per trainer family) turns a file into *records*: one row per
iteration line (or per event line, such as DeepSpeed's loss-scale overflow), with the
quantities the line states in canonical units (seconds, tokens, ratios). It states only
what the line says; sources.trainer.timeline then dates the rows, merges duplicates,
derives what can be derived (tokens/s from the batch, the sequence length and the step
time) and says where each number came from.
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

import polars as pl

from incidentbook.logs.formats import trainer_lines as shapes

UTC_US = pl.Datetime("us", "UTC")

QUANTITIES: dict[str, str] = {
    "tokens_per_second": "trainer_tokens_per_second",
    "tokens_per_second_per_gpu": "trainer_tokens_per_second_per_gpu",
    "samples_per_second": "trainer_samples_per_second",
    "tflops_per_gpu": "trainer_tflops_per_gpu",
    "mfu": "trainer_mfu",
    "step_time": "trainer_step_time_seconds",
    "loss": "trainer_loss",
    "grad_norm": "trainer_grad_norm",
    "learning_rate": "trainer_learning_rate",
    "loss_scale": "trainer_loss_scale",
    "skipped": "trainer_skipped_iterations",
    "nan": "trainer_nan_iterations",
    # the run's world size (a launcher's or Megatron's `world_size`, or trainer.gpus):
    # a run restarted on fewer GPUs goes slower as a whole, not per GPU
    "gpus": "trainer_gpus",
}
"""Record column -> the metric name the samples get (the pack's signals read these names,
the same a trainer's Prometheus exporter would use, so a gauge and a log line are one
signal)."""

ITERATION_METRIC = "trainer_iteration"

AUXILIARY = (
    "consumed_tokens",  # cumulative
    "consumed_samples",  # cumulative
    "global_batch_size",  # sequences per iteration, where the line states it
    "seq_length",  # tokens per sequence, where the line states it
    "skipped_total",  # cumulative skipped count (DeepSpeed), made per interval later
    "span",  # seconds since the previous record, where the parser knows them better
)

RECORD_SCHEMA = pl.Schema(
    {
        "line": pl.Int64,
        "ts": UTC_US,
        "kind": pl.String,  # which line shape (duplicates are the same kind twice)
        "rank": pl.Int64,
        "host": pl.String,
        "iteration": pl.Int64,
        "loss_missing": pl.Boolean,
        **dict.fromkeys(QUANTITIES, pl.Float64),
        **dict.fromkeys(AUXILIARY, pl.Float64),
    }
)


def records(frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """A parser's rows in RECORD_SCHEMA: missing columns null, extra ones dropped."""
    lazy = frame.lazy()
    have = lazy.collect_schema().names()
    return lazy.select(
        (pl.col(c) if c in have else pl.lit(None)).cast(t).alias(c)
        for c, t in RECORD_SCHEMA.items()
    ).collect()


def empty_records() -> pl.DataFrame:
    return RECORD_SCHEMA.to_frame()


@dataclass(frozen=True)
class Fact:
    """A number about the whole run (batch, sequence length, GPUs) and where it was read."""

    value: float
    where: str


@dataclass
class Parsed:
    """What one parser read from one file."""

    records: pl.DataFrame = field(default_factory=empty_records)
    facts: dict[str, Fact] = field(default_factory=dict)
    starts: list[int] = field(default_factory=list)
    """Lines where a run (re)starts: a new segment begins there."""
    notes: list[str] = field(default_factory=list)

    def merge(self, other: Parsed) -> Parsed:
        return Parsed(
            records=pl.concat([self.records, other.records]),
            facts={**other.facts, **self.facts},  # the first parser's fact wins
            starts=sorted({*self.starts, *other.starts}),
            notes=[*self.notes, *other.notes],
        )


@dataclass(frozen=True)
class Context:
    """What a parser may need from outside the file."""

    tz: str = "UTC"
    year: int = 1970
    """For times that carry no year (nanotron's newer `MM/DD`, glog): the window's year."""
    latest: datetime | None = None
    """A yearless time later than this is taken to be of the year before."""
    day: date | None = None
    """For times of day with no date (rich's `[15:58:29]`, openpi's `05:16:41.449 [I]`): the
    day the run started (incident.yaml's trainer.start, in the log's zone); none, and such
    lines carry no time."""


@dataclass
class TrainerText:
    """A text file's lines, cleaned, each with the time it starts with (if any).

    `lines`: line (1-based physical line), text (ANSI colours and launchers' tags
    removed, one row per carriage-return piece of a tqdm-joined line), ts (UTC, from the
    line's own leading timestamp, a Megatron-style `datetime:` stamp or mpirun's
    `--timestamp-output`; local times read in the context's zone), rank and host (what a
    launcher's tag says, else null).
    """

    path: Path
    lines: pl.DataFrame
    lossy: bool = False
    incomplete: bool = False
    head: str = ""
    """The file's first MiB as formats sniff it (sniffable's: no colours, no launchers' tags)."""


@dataclass(frozen=True)
class TrainerFormat:
    """One trainer family's parser.

    `sniff` is searched in a file's first MiB; `names` (globs), when given, are the only
    file names the format reads (trainer_state.json, metrics.csv). `parse` gets the
    file's cleaned lines (`text=True`) or its path (`text=False`: it reads the file
    itself) and the context. A `fallback` format reads only what no other format does.
    """

    name: str
    label: str
    sniff: str
    parse: Callable[..., Parsed]
    text: bool = True
    names: tuple[str, ...] = ()
    fallback: bool = False
    """Read a file only when no other format recognises it (a generic reader)."""

    def matches(self, path: Path, head: str) -> bool:
        if self.names and not any(path.match(n) for n in self.names):
            return False
        return re.search(self.sniff, head, re.MULTILINE) is not None


# --- reading ----------------------------------------------------------------------------

HEAD_BYTES = 1 << 20

ANSI = r"\x1b\[[0-9;?]*[A-Za-z]"
INDENT = r"[ \t\u3000]*"
"""Logs pasted into Markdown keep their code block's indentation (spaces, U+3000)."""

# Launchers' tags (torchrun's `[default3]:`, srun --label's `3: `, mpirun's, Ray's, PALS's,
# pdsh's: logs.formats.trainer_lines, the grammar the log readers use too) are taken off
# each line before any parser reads it, and kept as the line's rank and host. Those that
# could be a trainer's own words at a line's start (a bare `12: `, a dashed `name: `,
# `[12] `) count only in a file where they start a good share of the lines.
ALWAYS_TAGS = (
    "mpirun",
    "prte",
    "ray",
    "raylet",
    "skypilot",
    "rank",
    "torchrun",
    "skypilot-process",
)
TAG_SHARE = 0.1


def launcher_families(head: str) -> tuple[str, ...]:
    """The launchers whose tags a file's lines carry: those of ALWAYS_TAGS seen at all, the
    others where they start at least TAG_SHARE of the head's non-blank lines."""
    pattern = re.compile(INDENT + "(?:" + shapes.LAUNCHER + ")")
    seen: Counter[str] = Counter()
    lines = 0
    for line in head.splitlines():
        if not line.strip():
            continue
        lines += 1
        found = pattern.match(line)
        if found and found.group(0).strip():
            groups = found.groupdict()
            seen.update(f for g, f in shapes.TAG_FAMILY.items() if groups.get(g) is not None)
    return tuple(sorted(f for f, n in seen.items() if f in ALWAYS_TAGS or n >= TAG_SHARE * lines))


def untagged(head: str, families: tuple[str, ...]) -> str:
    """`head` with the launchers' tags taken off its lines, as read_text takes them off."""
    if not families:
        return head
    pattern = re.compile("^" + INDENT + shapes.launcher(families), re.MULTILINE)
    return pattern.sub(lambda m: "" if m.group(0).strip() else m.group(0), head)


def _tags(frame: pl.DataFrame, families: tuple[str, ...], ctx: Context) -> pl.DataFrame:
    """The lines with their launcher tags taken off `text`, and `rank`, `host` and
    `tagged_ts` (mpirun --timestamp-output's time) from them."""
    pattern = "^(?P<_tag>" + INDENT + shapes.launcher(families) + ")"
    names = re.compile(pattern).groupindex
    g = pl.col("_g")

    def field(name: str) -> pl.Expr:
        return g.struct.field(name)

    ranks = [field(n) for n in (*shapes.RANK_GROUPS, "local_rank") if n in names]
    hosts = [field(n) for n in shapes.HOST_GROUPS if n in names]
    tag = field("_tag")
    when = (
        localise(
            field("mpi_ts")
            .str.replace("  ", " ", literal=True)
            .str.to_datetime("%a %b %d %H:%M:%S %Y", time_unit="us", strict=False),
            ctx.tz,
        )
        if "mpi_ts" in names
        else pl.lit(None, UTC_US)
    )
    return (
        frame.with_columns(_g=pl.col("text").str.extract_groups(pattern))
        .with_columns(
            text=pl.when(tag.str.strip_chars() != "")
            .then(pl.col("text").str.slice(tag.str.len_chars()))
            .otherwise(pl.col("text")),
            rank=pl.coalesce(ranks).cast(pl.Int64, strict=False)
            if ranks
            else pl.lit(None, pl.Int64),
            host=pl.coalesce(hosts) if hosts else pl.lit(None, pl.String),
            tagged_ts=when.cast(UTC_US),
        )
        .drop("_g")
    )


_LEADING_TS = (
    # torchtitan's `[titan] ` (or the name a fork gives its logger, `[llmtrain] `),
    # transformers' `[INFO|trainer.py:1143] `, NeMo's `[NeMo W `,
    # dllogger's `DLL ` (NVIDIA's DeepLearningExamples) or a level word (a cloud log
    # export's `INFO 2025-09-09T16:10:21.372601224Z`, Python logging's `INFO:2026-04-03
    # 07:02:22,277:` with the level first) before the time (launchers' tags are off the
    # lines already: see _tags).
    r"^[\s\u3000]*(?:\[[a-z][\w.-]{0,31}\]\s*|\[[A-Z]+\|[\w.]+:\d+\]\s*|\[NeMo [A-Z] |DLL "
    r"|(?:DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL)(?: +|:))?(?:"
    # (OpenCLIP's and timm's loggers put a comma between date and time: `2023-04-21,12:03:13`)
    r"\[?(?P<iso>\d{4}[-/]\d\d[-/]\d\d[ T,]\d\d:\d\d:\d\d(?:[.,]\d+)?)"
    # (Meta Lingua's logger: a two-digit year, `24-10-19 18:46:56.494932`)
    r"|(?P<yy>\d\d-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)\b"
    r"|(?P<us>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d)"
    r"|\[?(?P<md>\d\d/\d\d \d\d:\d\d:\d\d)\b"
    # (vLLM's logger: `WARNING 04-03 07:02:23 [api_server.py:1213]`, no year)
    r"|(?P<mdash>\d\d-\d\d \d\d:\d\d:\d\d)\b"
    r"|[IWEF](?P<glog>\d{4} \d\d:\d\d:\d\d\.\d+) "
    # a time of day alone, before a level (rich's `[15:58:29] INFO`, openpi's `05:16:41.449
    # [I]`, loguru's levels in a format without the date): dated by Context.day
    r"|\[?(?P<hms>\d\d:\d\d:\d\d(?:[.,]\d+)?)\]? +"
    r"(?:\[[DIWEFC]\]|\[?(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|WARN|ERROR|CRITICAL)\b)"
    r")"
)
_DATETIME = r"datetime[:=] ?(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?)"
# A JSON object per line (structured loggers, log shippers): its time is a field, first
# or anywhere, named as those loggers name it.
_JSON_TIME = (
    r'^\s*\{.*?"(?:timestamp|@timestamp|time|ts|asctime|datetime)"\s*:\s*"'
    r"(?P<json>\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?)(?P<json_zone>Z|[+-]\d\d:?\d\d)?\""
)


def _gunzip(data: bytes) -> tuple[bytes, bool]:
    """A gzip stream's content; a stream cut short keeps what came before the cut."""
    d = zlib.decompressobj(wbits=31)
    try:
        out = d.decompress(data)
    except zlib.error:
        return b"", True
    return out, not d.eof


def read_head(path: Path) -> str:
    """The first MiB of a file as text (gzip unpacked), for sniffing."""
    try:
        with path.open("rb") as handle:
            data = handle.read(HEAD_BYTES)
    except OSError:
        return ""
    if data[:2] == b"\x1f\x8b":
        d = zlib.decompressobj(wbits=31)
        try:
            data = d.decompress(data, HEAD_BYTES)
        except zlib.error:
            return ""
    return data.decode("utf-8", errors="replace")


def localise(naive: pl.Expr, tz: str) -> pl.Expr:
    if tz == "UTC":
        return naive.dt.replace_time_zone("UTC")
    return naive.dt.replace_time_zone(
        tz, ambiguous="earliest", non_existent="null"
    ).dt.convert_time_zone("UTC")


def _yearless(stamp: pl.Expr, fmt: str, ctx: Context) -> pl.Expr:
    this = localise(
        (pl.lit(f"{ctx.year} ") + stamp).str.to_datetime(f"%Y {fmt}", time_unit="us", strict=False),
        ctx.tz,
    )
    before = localise(
        (pl.lit(f"{ctx.year - 1} ") + stamp).str.to_datetime(
            f"%Y {fmt}", time_unit="us", strict=False
        ),
        ctx.tz,
    )
    if ctx.latest is None:
        return this
    return pl.when(this > pl.lit(ctx.latest + timedelta(days=1))).then(before).otherwise(this)


def _of_the_day(g: pl.DataFrame, ctx: Context) -> pl.Expr:
    """Times of day (column `hms`) on ctx.day, a day later each time the clock goes back by
    more than an hour from the time of day before it (a run past midnight; processes a
    little out of order do not turn a day)."""
    tod = (
        pl.col("hms")
        .str.replace(",", ".")
        .str.to_time("%H:%M:%S%.f", strict=False)
        .cast(pl.Int64)  # nanoseconds since midnight
    )
    seen = g.select(tod.alias("tod")).get_column("tod")
    back = (seen < seen.forward_fill().shift(1) - 3600 * 10**9).fill_null(False)
    days = back.cast(pl.Int64).cum_sum()
    naive = pl.lit(datetime.combine(ctx.day, datetime.min.time())) + pl.duration(
        nanoseconds=pl.lit(seen), days=pl.lit(days)
    )
    return localise(naive.cast(pl.Datetime("us")), ctx.tz)


def _dated(frame: pl.DataFrame, ctx: Context) -> pl.Series:
    """The time each line starts with, or its `datetime: ...` stamp, as UTC; else null.
    Only the shapes some line has are parsed (a million lines, five shapes)."""
    g = frame.select(
        pl.col("text").str.extract_groups(_LEADING_TS).alias("g"),
        stamp=pl.when(pl.col("text").str.contains("datetime", literal=True)).then(
            pl.col("text").str.extract(_DATETIME, 1)
        ),
        j=pl.when(pl.col("text").str.contains(r"^\s*\{")).then(
            pl.col("text").str.extract_groups(_JSON_TIME)
        ),
    ).unnest("g")
    g = g.with_columns(
        json=pl.col("j").struct.field("json"), json_zone=pl.col("j").struct.field("json_zone")
    ).drop("j")
    present = {
        c
        for c in ("iso", "yy", "us", "md", "mdash", "glog", "hms", "stamp")
        if g[c].null_count() < g.height
    }
    naive = {
        "iso": pl.col("iso")
        .str.replace_all("/", "-", literal=True)
        .str.replace(r"^(\d{4}-\d\d-\d\d)[T,]", "$1 ")
        .str.replace(",", ".")
        .str.to_datetime("%Y-%m-%d %H:%M:%S%.f", time_unit="us", strict=False),
        "yy": pl.col("yy").str.to_datetime("%y-%m-%d %H:%M:%S%.f", time_unit="us", strict=False),
        "us": pl.col("us").str.to_datetime("%m/%d/%Y %H:%M:%S", time_unit="us", strict=False),
        "stamp": pl.col("stamp").str.to_datetime(
            "%Y-%m-%d %H:%M:%S%.f", time_unit="us", strict=False
        ),
    }
    parts = [localise(naive[c], ctx.tz) for c in ("iso", "yy", "us", "stamp") if c in present]
    if g["json"].null_count() < g.height:
        clock = (
            pl.col("json")
            .str.replace(",", ".")
            .str.replace("T", " ")
            .str.to_datetime("%Y-%m-%d %H:%M:%S%.f", time_unit="us", strict=False)
        )
        zone = (
            pl.col("json_zone")
            .str.replace("Z", "+00:00")
            .str.replace(r"^([+-]\d\d)(\d\d)$", "$1:$2")
        )
        minutes = zone.str.slice(1, 2).cast(pl.Int64) * 60 + zone.str.slice(4, 2).cast(pl.Int64)
        offset = pl.when(zone.str.starts_with("-")).then(-minutes).otherwise(minutes)
        parts.append(
            pl.when(zone.is_null())
            .then(localise(clock, ctx.tz))
            .otherwise((clock - pl.duration(minutes=offset)).dt.replace_time_zone("UTC"))
        )
    if "md" in present:
        parts.append(_yearless(pl.col("md"), "%m/%d %H:%M:%S", ctx))
    if "mdash" in present:
        parts.append(_yearless(pl.col("mdash"), "%m-%d %H:%M:%S", ctx))
    if "glog" in present:
        parts.append(_yearless(pl.col("glog"), "%m%d %H:%M:%S%.f", ctx))
    if "hms" in present and ctx.day is not None:
        parts.append(_of_the_day(g, ctx))
    if not parts:
        return pl.Series("ts", [None] * frame.height, dtype=UTC_US)
    return g.select(pl.coalesce(parts).cast(UTC_US).alias("ts")).to_series()


def sniffable(head: str) -> str:
    """A file's head as formats sniff it: colours and launchers' tags taken off."""
    head = re.sub(ANSI, "", head)
    return untagged(head, launcher_families(head))


def read_text(path: Path, ctx: Context) -> TrainerText:
    """A text file's lines, cleaned and dated (see TrainerText)."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data, _cut = _gunzip(data)
    try:
        text, lossy = data.decode("utf-8"), False
    except UnicodeDecodeError:
        text, lossy = data.decode("utf-8", errors="replace"), True
    text = text.removeprefix("\ufeff")
    incomplete = bool(text) and not text.endswith("\n")
    # One polars string split in one call: no Python list of a million lines.
    pieces = pl.Series("text", [text], dtype=pl.String).str.strip_suffix("\n").str.split("\n")
    frame = pl.DataFrame({"text": pieces}).explode("text").with_row_index("line", offset=1)
    if "\r" in text:
        # tqdm redraws a bar with carriage returns: each piece is a line of its own.
        frame = (
            frame.with_columns(pl.col("text").str.strip_suffix("\r").str.split("\r"))
            .explode("text")
            .filter(pl.col("text").str.len_bytes() > 0)
        )
    if "\x1b" in text:
        frame = frame.with_columns(pl.col("text").str.replace_all(ANSI, ""))
    frame = frame.select(pl.col("line").cast(pl.Int64), "text")
    head = re.sub(ANSI, "", text[:HEAD_BYTES])
    families = launcher_families(head)
    if families:
        frame = _tags(frame, families, ctx)
    else:
        frame = frame.with_columns(
            rank=pl.lit(None, pl.Int64),
            host=pl.lit(None, pl.String),
            tagged_ts=pl.lit(None, UTC_US),
        )
    frame = (
        frame.with_columns(_dated(frame, ctx))
        .with_columns(ts=pl.coalesce("ts", "tagged_ts"))
        .drop("tagged_ts")
    )
    return TrainerText(path, frame, lossy, incomplete, untagged(head, families))


# --- numbers as trainers print them --------------------------------------------------------

NUM = r"([^\s|}\]]+)"
"""A printed value: everything up to the next space, `|`, `}` or `]` (`4.71K`, `1,503`,
`5.63%`, `0.9.47`); what it is worth is for to_float/human to say, so that an unreadable
one is counted, not half read."""


def after(text: pl.Expr, key: str) -> pl.Expr:
    """The raw text of the value after `key` (a regex) and `:` or `=`, inside its quotes
    when it is quoted (ms-swift prints `'loss': '1.921'`)."""
    return text.str.extract(key + r"\s*[:=]\s*['\"]?" + _UNQUOTED, 1)


_UNQUOTED = r"([^\s|}\]'\"]+)"
"""NUM, ending at a quote too."""


def to_float(raw: pl.Expr) -> pl.Expr:
    """A plain number: thousands separators dropped; nan and inf kept as such."""
    return raw.str.strip_suffix(",").str.replace_all(",", "").cast(pl.Float64, strict=False)


# A tqdm bar as trainers draw it, `  2%|▏  | 10/573 [14:31<12:43:55, 81.41s/it, loss=1.2]`:
# its count and total, the time elapsed, its rate (a bar may be drawn without one, as NeMo's
# Lightning bar is: `[00:25<08:04, v_num=...`) and its postfix.
TQDM_BAR = (
    r"\d+%\|[^|]*\|\s*(?P<count>\d+)/(?P<total>\d+|\?)\s*"
    r"\[(?P<elapsed>[\d:]+)<[\d:?]+(?:,\s*(?P<rate>[\d.]+)\s*(?P<unit>s/it|it/s))?"
    r"(?:,\s*(?P<postfix>[^\]]*))?\]"
)


def clock_seconds(clock: pl.Expr) -> pl.Expr:
    """A clock's reading, `h:mm:ss`, `m:ss` or `ss` (fractions allowed), in seconds."""
    parts = clock.str.split(":").list.eval(pl.element().cast(pl.Float64, strict=False))
    return parts.list.eval(
        pl.element() * pl.lit(60.0).pow(pl.len() - 1 - pl.int_range(pl.len()))
    ).list.sum()


_SUFFIX = {"K": 1e3, "M": 1e6, "G": 1e9, "B": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}


def human(raw: pl.Expr) -> pl.Expr:
    """nanotron's humanised numbers: 4.71K, 85.8G, 480B (billions since 2025), 1.87e-05."""
    g = raw.str.strip_suffix(",").str.extract_groups(
        r"^([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?|nan|inf)([KMGBTPE]?)$"
    )
    factor = g.struct.field("2").replace_strict(
        {"": 1.0, **_SUFFIX}, default=None, return_dtype=pl.Float64
    )
    return g.struct.field("1").cast(pl.Float64, strict=False) * factor


def key_values(records: pl.DataFrame, keys: dict[str, str], separator: str) -> pl.DataFrame:
    """Each record's `key: value` (or `key=value`) fields as text: one column per name in
    `keys`' values, rows in the records' order (null where a line has none).

    `keys` maps a field name with everything but letters and digits removed (so that
    `lm-loss`, `lm loss=` and a wrap-eaten `number of naniterations` meet) to the column.
    Split on `separator`, not one regex per field: a million lines stay cheap.
    """
    columns = sorted(set(keys.values()))
    if records.height == 0:
        # (a select of literals alone on no rows would give one row of nulls)
        return pl.DataFrame(schema=dict.fromkeys(columns, pl.String))
    pieces = records.select(
        pl.int_range(pl.len(), dtype=pl.UInt32).alias("row"), pl.col("text").str.split(separator)
    ).explode("text")
    cut = pl.col("text").str.find(r"[:=]")
    pairs = (
        pieces.filter(cut.is_not_null())
        .select(
            "row",
            key=pl.col("text")
            .str.slice(0, cut)
            .str.to_lowercase()
            .str.replace_all(r"[^a-z0-9]", "")
            .replace_strict(keys, default=None),
            value=pl.col("text").str.slice(cut + 1).str.strip_chars(),
        )
        .drop_nulls("key")
    )
    wide = (
        pairs.pivot(on="key", index="row", values="value", aggregate_function="first")
        if pairs.height
        else pairs
    )
    rows = pl.DataFrame({"row": pl.int_range(records.height, eager=True, dtype=pl.UInt32)})
    out = rows.join(wide, on="row", how="left", maintain_order="left")
    return out.select(
        (pl.col(c) if c in out.columns else pl.lit(None, pl.String)).alias(c) for c in columns
    )


def unreadable(raw: pl.DataFrame, parsed: pl.DataFrame, where: str) -> list[str]:
    """A note for each column whose text was there but is not a number (never silent)."""
    notes = []
    for name in raw.columns:
        bad = raw.get_column(name).is_not_null() & parsed.get_column(name).is_null()
        count = int(bad.sum())
        if count:
            example = raw.get_column(name).filter(bad).item(0)
            notes.append(
                f"{where}: {count} {name.replace('_', ' ')} values are not numbers "
                f"(e.g. {example!r}); those lines keep their other numbers"
            )
    return notes
