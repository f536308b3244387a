"""What people collect from a GPU node after a fault: `nvidia-smi -q` text, `dcgmi diag`
output, and `nvidia-bug-report.log(.gz)`.

The first two are reports, not logs: they are read into facts about each GPU (`facts`:
retired pages, row remapping, ECC counters, clock-event reasons, PCIe link generation and
width, reset status, each diagnostic test's result), and the facts that say something is
wrong become log lines of their own, in one wording the signature catalog knows
(`nvidia-smi -q: GPU <bus id>: <section>: <key>: <value>`, `dcgmi diag: <test>: Fail -
GPU: 0`), at the report's time (nvidia-smi's `Timestamp`; dcgmi prints none, so its file's
modification time). The other lines of a report are skipped, counted as read into facts.

nvidia-bug-report.sh writes one file of sections, each after a rule of underscores and a
header naming the file or the command (`*** /var/log/messages`, `dmesg:`,
`/usr/bin/nvidia-smi --query`, `journalctl -b -0 ...`). The kernel, journal and syslog
sections are read as those logs are, the nvidia-smi section as above; the other sections
(lspci, /proc files, X configuration) are skipped. Its dmesg is raw `[seconds]`: a kernel
message that is also in a journal or syslog section, which carries the wall-clock time,
gives the boot time (`_wall`).
"""

from __future__ import annotations

import polars as pl

from incidentbook.logs.formats import (
    FACT_SCHEMA,
    INHERIT,
    NEEDS_BOOT,
    SKIP,
    Context,
    LogFormat,
)
from incidentbook.logs.formats.expressions import local_time

# --- nvidia-smi -q ------------------------------------------------------------------------

_SMI_GPU = r"^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7])\s*$"
_SMI_KV = r"^(\s*)(\S.*?)\s*: (.*?)\s*$"
_DEPTH = 8  # deepest section nesting kept in a fact's path


def _smi_table(frame: pl.DataFrame) -> pl.DataFrame:
    """nvidia-smi -q lines with: gpu (the bus id of the block), path (the sections above,
    `A: B`), key, value (null for a section header), and the report's Timestamp."""
    raw = pl.col("raw")
    indent = (raw.str.len_chars() - raw.str.strip_chars_start().str.len_chars()) // 4
    kv = raw.str.extract_groups(_SMI_KV)
    text = raw.str.strip_chars()
    t = frame.with_columns(
        _indent=indent,
        key=kv.struct.field("2"),
        value=kv.struct.field("3"),
        _text=text,
        gpu=pl.when(indent == 0).then(raw.str.extract(_SMI_GPU, 1)),
    )
    is_header = (
        pl.col("key").is_null() & (pl.col("_text") != "") & ~pl.col("_text").str.starts_with("[")
    )
    level = [
        pl.when(is_header & (pl.col("_indent") == i))
        .then(pl.col("_text"))
        .when(pl.col("_indent") <= i)
        .then(pl.lit(""))
        .forward_fill()
        .over("fid")
        .alias(f"_h{i}")
        for i in range(1, _DEPTH)
    ]
    t = t.with_columns(
        level,
        # A GPU block runs to the next one; the lines before the first are the report's.
        gpu=pl.when(pl.col("_indent") == 0)
        .then(pl.col("gpu").fill_null(""))
        .forward_fill()
        .over("fid"),
        stamp=pl.when(pl.col("key") == "Timestamp")
        .then(pl.col("value"))
        .forward_fill()
        .over("fid"),
    )
    path = pl.concat_str(
        [
            pl.when((pl.col("_indent") > i) & (pl.col(f"_h{i}") != "")).then(pl.col(f"_h{i}"))
            for i in range(1, _DEPTH)
        ],
        separator=": ",
        ignore_nulls=True,
    )
    return t.with_columns(path=path, gpu=pl.when(pl.col("gpu") != "").then(pl.col("gpu"))).drop(
        [f"_h{i}" for i in range(1, _DEPTH)]
    )


def _count(value: pl.Expr) -> pl.Expr:
    return value.str.extract(r"^(\d+)", 1).cast(pl.Int64, strict=False)


def _smi_notable(t: pl.DataFrame) -> pl.Expr:
    """The facts that say something is wrong with the GPU (or its link)."""
    path, key, value = pl.col("path"), pl.col("key"), pl.col("value")
    yes = value.str.to_lowercase() == "yes"
    active = value.str.to_lowercase() == "active"
    slowdown = key.is_in(
        ["HW Slowdown", "HW Thermal Slowdown", "HW Power Brake Slowdown", "SW Thermal Slowdown"]
    )
    width = path.str.ends_with("Link Width")
    return (
        (
            path.str.ends_with("Remapped Rows")
            & key.is_in(["Pending", "Remapping Failure Occurred"])
            & yes
        )
        | (
            path.str.ends_with("Remapped Rows")
            & (key == "Uncorrectable Error")
            & (_count(value) > 0)
        )
        | (path.str.ends_with("Retired Pages") & key.str.starts_with("Pending") & yes)
        | (
            path.str.ends_with("Retired Pages")
            & key.is_in(["Single Bit ECC", "Double Bit ECC"])
            & (_count(value) > 0)
        )
        | (
            path.str.starts_with("ECC Errors: Volatile")
            & (
                key.str.contains("Uncorrectable")
                | (path.str.ends_with("Double Bit") & (key == "Total"))
            )
            & (_count(value) > 0)
        )
        | (path.str.contains("Clocks (?:Event|Throttle) Reasons$") & slowdown & active)
        | (path.str.ends_with("GPU Reset Status") & yes)
        | (width & (key == "Current") & (_count(value) < _count(pl.col("_max_width"))))
    )


def _smi_prepare(frame: pl.DataFrame) -> pl.DataFrame:
    t = _smi_table(frame)
    # Each GPU's maximum link width, for its Current line.
    width = pl.col("path").str.ends_with("Link Width")
    return t.with_columns(
        _max_width=pl.when(width & (pl.col("key") == "Max"))
        .then(pl.col("value"))
        .max()
        .over("fid", "gpu")
    )


def _smi_parse(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    frame = lf.collect()
    base = frame.columns
    t = _smi_prepare(frame)
    notable = _smi_notable(t).fill_null(False)
    gpu = pl.coalesce(pl.col("gpu"), pl.lit("?"))
    said = pl.format("{}: {}: {}", pl.col("path"), pl.col("key"), pl.col("value"))
    said = (
        pl.when(pl.col("path") == "")
        .then(pl.format("{}: {}", pl.col("key"), pl.col("value")))
        .otherwise(said)
    )
    width = pl.format(
        "PCIe link width x{} of x{}",
        _count(pl.col("value")),
        _count(pl.col("_max_width")),
    )
    message = pl.format(
        "nvidia-smi -q: GPU {}: {}",
        gpu,
        pl.when(pl.col("path").str.ends_with("Link Width")).then(width).otherwise(said),
    )
    stamp = pl.col("stamp").str.replace(r"\s+", " ")
    ts = local_time(stamp, "%a %b %d %H:%M:%S %Y", ctx)
    return (
        t.with_columns(
            ts=ts,
            host=pl.lit(None, pl.String),
            severity=pl.lit(None, pl.String),
            source=pl.lit("nvidia-smi"),
            message=pl.when(notable).then(message).otherwise(pl.col("raw")),
            status=pl.when(~notable)
            .then(pl.lit(SKIP))
            .when(pl.col("stamp").is_null())
            .then(pl.lit(INHERIT)),
        )
        .select(*base, "ts", "host", "severity", "source", "message", "status")
        .lazy()
    )


def _smi_facts(frame: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    t = _smi_prepare(frame)
    return t.filter(pl.col("key").is_not_null() & pl.col("gpu").is_not_null()).select(
        pl.col("fid").cast(pl.UInt32),
        pl.col("line").cast(pl.UInt32),
        "gpu",
        section=pl.col("path"),
        key="key",
        value="value",
    )


NVIDIA_SMI = LogFormat(
    "nvidia-smi",
    (
        r"=+NVSMI LOG=+",
        r"Timestamp\s+: ",
        r"Driver Version\s+: ",
        r"CUDA Version\s+: ",
        r"Attached GPUs\s+: \d+",
        r"GPU [0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]\s*$",
        # A key at the start of a line has a lower-case letter: `ERROR     : ...` is a
        # log line, not a report's key (those are indented, or listed above).
        r"\s+[A-Z][\w ./()-]*?\s{2,}: \S",
        r"[A-Z][\w ./()-]*?[a-z][\w ./()-]*?\s{2,}: \S",
        r"\s+[A-Z][\w ./()-]*$",
        r"\[\.\.\.\]$",
    ),
    _smi_parse,
    local_time=True,
    file_time=True,
    facts=_smi_facts,
    priority=-20,
)

# --- dcgmi diag ----------------------------------------------------------------------------

_DIAG_ROW = r"^\|\s?(.*?)\s*\|\s?(.*?)\s*\|$"
_DIAG_BORDER = r"\+[-=+]+\+$"  # a table's rule, `+----+----+`
_DIAG_CATEGORY = r"^[|+]-+\s+(\w[\w ]*?)\s+-+\+"


def _diag_table(frame: pl.DataFrame) -> pl.DataFrame:
    """dcgmi diag table rows: category (Deployment, Hardware, ...), test (carried into
    the rows that continue it), text (a result or a wrapped message), result, gpu."""
    raw = pl.col("raw")
    row = raw.str.extract_groups(_DIAG_ROW)
    t = frame.with_columns(
        _name=row.struct.field("1"),
        _cell=row.struct.field("2"),
        _category=raw.str.extract(_DIAG_CATEGORY, 1),
    )
    t = t.with_columns(
        category=pl.col("_category").forward_fill().over("fid"),
        test=pl.when(pl.col("_name") != "").then(pl.col("_name")).forward_fill().over("fid"),
        result=pl.col("_cell").str.extract(r"^(Pass|Fail|Skip|Warn)\b", 1),
        gpu=pl.coalesce(
            pl.col("_cell").str.extract(r"^(?:Pass|Fail|Skip|Warn)\w* - GPU:? ?(\d+)", 1),
            pl.col("_cell").str.extract(r"^(?:Pass|Fail|Skip|Warn)\w* - (All)\b", 1),
        ),
        # (the table's own header row reads `| Diagnostic | Result |`)
        _row=pl.col("_cell").is_not_null()
        & (pl.col("_cell") != "Result")
        & pl.col("_category").is_null(),
    )
    # Wrapped messages (Warning, Info rows): their pieces joined; a piece as wide as the
    # column was cut mid-word, a shorter one at a space.
    width = pl.col("_cell").str.len_chars().max().over("fid")
    t = t.with_columns(
        _block=(pl.col("_name") != "").fill_null(False).cum_sum().over("fid"),
        _piece=pl.col("_cell")
        + pl.when(pl.col("_cell").str.len_chars() < width).then(pl.lit(" ")).otherwise(pl.lit("")),
    )
    joined = pl.col("_piece").filter(pl.col("_row")).str.join("").over("fid", "_block")
    return t.with_columns(
        text=pl.when(pl.col("result").is_null() & (pl.col("_name") != ""))
        .then(joined)
        .otherwise(pl.col("_cell"))
        .str.strip_chars(),
    )


def _diag_parse(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    frame = lf.collect()
    base = frame.columns
    t = _diag_table(frame)
    failed = pl.col("_row") & (pl.col("result") == "Fail")
    warned = pl.col("_row") & pl.col("test").is_in(["Warning", "Info"]) & (pl.col("_name") != "")
    scope = (
        pl.when(pl.col("gpu") == "All")
        .then(pl.lit("All"))
        .otherwise(pl.format("GPU: {}", pl.col("gpu")))
    )
    message = (
        # (a row whose test's cell is empty, pasted alone, keeps its own wording)
        pl.when(failed & pl.col("test").is_not_null())
        .then(pl.format("dcgmi diag: {}: Fail - {}", pl.col("test"), scope.fill_null("?")))
        .when(warned)
        .then(pl.format("dcgmi diag: {}: {}", pl.col("test"), pl.col("text")))
        .otherwise(pl.col("raw"))
    )
    keep = (failed | (warned & (pl.col("test") == "Warning"))).fill_null(False)
    # A table with no diagnostic's results in it is another tool's (nvidia-smi's own
    # table, say): its lines are kept as they are, for the catalog to read (`ERR!`),
    # rather than skipped as a diagnostic's layout; only its rules are skipped.
    other = ~(pl.col("_row") & pl.col("result").is_not_null()).fill_null(False).any().over("fid")
    rule = pl.col("raw").str.strip_chars().str.contains("^" + _DIAG_BORDER)
    return (
        t.with_columns(
            ts=pl.lit(None, pl.Datetime("us", "UTC")),
            host=pl.lit(None, pl.String),
            severity=pl.when(failed).then(pl.lit("err")).when(warned).then(pl.lit("warning")),
            source=pl.when(other).then(pl.lit("table")).otherwise(pl.lit("dcgmi-diag")),
            message=message,
            status=pl.when(keep | (other & ~rule)).then(pl.lit(INHERIT)).otherwise(pl.lit(SKIP)),
        )
        .select(*base, "ts", "host", "severity", "source", "message", "status")
        .lazy()
    )


def _diag_facts(frame: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    t = _diag_table(frame)
    return t.filter(pl.col("_row") & pl.col("result").is_not_null()).select(
        pl.col("fid").cast(pl.UInt32),
        pl.col("line").cast(pl.UInt32),
        gpu=pl.col("gpu").fill_null("All"),
        section=pl.col("category").fill_null(""),
        key=pl.col("test"),
        value=pl.col("text"),
    )


DCGMI_DIAG = LogFormat(
    "dcgmi-diag",
    (
        r"\$? ?dcgmi diag\b",
        r"Successfully ran diagnostic for group\.",
        _DIAG_BORDER,
        r"\|-+\s+\w[\w ]*?\s+-+\+",
        r"\|.*\|$",
    ),
    _diag_parse,
    file_time=True,
    facts=_diag_facts,
    priority=-20,
)

# --- nvidia-bug-report.log ------------------------------------------------------------------

_RULE = "_" * 44
_SECTION_KINDS = [
    # (kind, header regex): the first matching header decides a section's kind.
    ("kernel", r"^dmesg(?: -\S+)*:?\s*$|^\*\*\* /var/log/(?:dmesg|kern\.log)\S*$"),
    ("journal", r"^journalctl\b|^Scanning kernel log files for N"),
    ("syslog", r"^\*\*\* /var/log/(?:messages|syslog|kernel\.log)\S*$"),
    ("smi", r"nvidia-smi (?:--query|-q)(?: --display=\S+)?\s*$"),
]


def _section_kind() -> pl.Expr:
    header = pl.col("_header").fill_null("")
    chain = None
    for kind, pattern in _SECTION_KINDS:
        cond = header.str.contains(pattern)
        chain = (
            pl.when(cond).then(pl.lit(kind))
            if chain is None
            else chain.when(cond).then(pl.lit(kind))
        )
    return chain.otherwise(pl.lit("other"))


def _sections(frame: pl.DataFrame) -> pl.DataFrame:
    """Each line with its section (a number), the section's header and kind."""
    raw = pl.col("raw")
    is_rule = raw.str.strip_chars() == _RULE
    t = frame.with_columns(_rule=is_rule, _section=is_rule.cum_sum().over("fid"))
    # The header: the first line after the rule (blank lines are not in the frame).
    first = pl.col("line").filter(~pl.col("_rule")).min().over("fid", "_section")
    t = t.with_columns(
        _header=pl.when(pl.col("line") == first).then(raw).max().over("fid", "_section")
    )
    return t.with_columns(_kind=_section_kind(), _is_header=pl.col("line") == first)


def _sub_format(lines: pl.DataFrame, names: list[str]) -> LogFormat:
    """The one of the named formats that reads most of these lines (by its sniff)."""
    from incidentbook.logs.formats import LOG_FORMATS

    best, score = LOG_FORMATS.get(names[0]), -1.0
    sample = lines.head(200)
    for name in names:
        fmt = LOG_FORMATS.get(name)
        share = sample.select(
            pl.any_horizontal([pl.col("raw").str.contains(f"^(?:{p})") for p in fmt.sniff]).mean()
        ).item()
        if (share or 0) > score:
            best, score = fmt, share or 0
    return best


_OUT = ["ts", "host", "severity", "source", "message", "status", "_rel", "_wall"]


def _bug_report(lf: pl.LazyFrame, ctx: Context) -> pl.LazyFrame:
    frame = lf.collect()
    t = _sections(frame)
    base = frame.columns
    parts = []
    # Lines such as `  journalctl -b -0:` or `  /var/log/messages:` head a journal
    # section's parts.
    subheader = pl.col("_kind").is_in(["journal", "syslog"]) & pl.col("raw").str.contains(
        r"^\s+(?:journalctl\b.*|/\S+):$"
    )
    dropped = (pl.col("_kind") == "other") | pl.col("_rule") | pl.col("_is_header") | subheader
    skip = t.filter(dropped).select(
        *base,
        ts=pl.lit(None, pl.Datetime("us", "UTC")),
        host=pl.lit(None, pl.String),
        severity=pl.lit(None, pl.String),
        source=pl.lit("nvidia-bug-report"),
        message=pl.col("raw"),
        status=pl.lit(SKIP),
    )
    parts.append(skip)
    body = t.filter(~dropped)
    formats = {
        "kernel": ["kernel-raw", "kernel-ctime", "kernel-iso", "kmsg"],
        "journal": ["syslog-3164"],
        "syslog": ["syslog-3164"],
        "smi": ["nvidia-smi"],
    }
    for kind, names in formats.items():
        lines = body.filter(pl.col("_kind") == kind).select(base)
        if lines.height == 0:
            continue
        sub = _sub_format(lines, names)
        parts.append(sub.parse(lines.lazy(), ctx).collect())
    out = pl.concat(parts, how="diagonal_relaxed")
    # Kernel messages timed since boot that a journal or syslog section also holds, with
    # its wall-clock time: each pair states the boot time (the reader picks the one most
    # pairs agree on).
    if "_rel" in out.columns:
        # (rsyslog keeps the kernel's `[seconds]` in the message; journald does not)
        key = pl.col("message").str.replace(r"^\[\s*\d+\.\d+\]\s?", "")
        walls = (
            out.filter((pl.col("source") == "syslog-3164") & pl.col("ts").is_not_null())
            .group_by(_key=key)
            .agg(_w=pl.col("ts").dt.epoch("us").max())
        )
        out = (
            out.with_columns(_key=key)
            .join(walls, on="_key", how="left")
            .drop("_key")
            .with_columns(
                _wall=pl.when(pl.col("status") == NEEDS_BOOT)
                .then(pl.coalesce(pl.col("_wall"), pl.col("_w")))
                .otherwise(pl.col("_wall"))
            )
            .drop("_w")
        )
    for col in _OUT:
        if col not in out.columns:
            out = out.with_columns(pl.lit(None).alias(col))
    return out.sort("fid", "line").lazy()


def _bug_report_facts(frame: pl.DataFrame, ctx: Context) -> pl.DataFrame:
    t = _sections(frame)
    lines = t.filter((pl.col("_kind") == "smi") & ~pl.col("_rule") & ~pl.col("_is_header"))
    if lines.height == 0:
        return FACT_SCHEMA.to_frame()
    return _smi_facts(lines.select(frame.columns), ctx)


NVIDIA_BUG_REPORT = LogFormat(
    "nvidia-bug-report",
    (
        rf"{_RULE}$",
        r"Start of NVIDIA bug report log file",
        r"nvidia-bug-report\.sh Version: ",
        r"Date: ",
        r"uname: ",
        r"command line flags: ",
        r"\*\*\* (?:/|ls: )",
        r"End of NVIDIA bug report log file",
    ),
    _bug_report,
    needs_boot=True,
    line_host_first=False,
    facts=_bug_report_facts,
    header=r"Start of NVIDIA bug report log file",
)
