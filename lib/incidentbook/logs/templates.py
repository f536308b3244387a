"""Log templates for the lines no signature knows, mined with drain3.

Lines are first grouped by a coarse key, the line with every word that holds a digit
replaced by one token: one regex pass over the lines (the only work that grows with
their number). Each key's first line is masked (numbers, hex values, PCI addresses, IPs,
UUIDs: the template's wording) and fed to drain3 once, in order of first appearance, so
mining costs what the variety of the logs costs, not their volume, and the same logs
always give the same templates. Lines that differ only in words holding digits (`eth0`
and `eth1`, two PCI addresses, two generated ids) share a key: drain would merge them
anyway, as it treats tokens with digits as variables.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import polars as pl
from drain3 import TemplateMiner
from drain3.template_miner_config import TemplateMinerConfig

from incidentbook.logs.severity import LEVEL_RANK
from incidentbook.window import TimeWindow

MASKS: list[tuple[str, str]] = [
    (r"GPU-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}", "<UUID>"),
    (r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b", "<UUID>"),
    (r"\b(?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\b", "<PCI>"),
    (r"\b(?:[0-9a-fA-F]{2}:){5}[0-9a-fA-F]{2}\b", "<MAC>"),
    (r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b", "<IP>"),
    (r"\b0x[0-9a-fA-F]+\b", "<HEX>"),
    # Generated names (veth6f467d7, container and session ids): distinct on every line,
    # they would make every line a new one to mine.
    (r"\b([A-Za-z]+)[0-9][0-9a-f]{5,}\b", "${1}<ID>"),
    (r"\b\d+(?:\.\d+)?\b", "<NUM>"),
]
"""Masks in order: the specific shapes before plain numbers, which would split them."""


def mask(text: pl.Expr) -> pl.Expr:
    for pattern, token in MASKS:
        text = text.str.replace_all(pattern, token)
    return text


def _miner(similarity: float, depth: int) -> TemplateMiner:
    logging.getLogger("drain3").setLevel(logging.WARNING)
    config = TemplateMinerConfig()
    config.drain_sim_th = similarity
    config.drain_depth = depth
    config.drain_max_children = 100
    config.parametrize_numeric_tokens = True
    config.masking_instructions = []  # masking is done above, vectorised
    config.profiling_enabled = False
    return TemplateMiner(persistence_handler=None, config=config)


# A word with a digit in it (a number, an id, an address part, `eth0`, `vethad1ccac`).
_DIGIT_WORD = r"\w*\d\w*"


def coarse_key(text: pl.Expr) -> pl.Expr:
    """The line with each word that holds a digit replaced by `#` (see the module)."""
    return text.fill_null("").str.replace_all(_DIGIT_WORD, "#").str.strip_chars()


def with_keys(lines: pl.DataFrame) -> pl.DataFrame:
    """`lines` with `key`, the coarse key of their `message`, rows in the same order.

    The key's regex is most of the mining's cost (one replacement per word with a digit);
    the streaming engine runs it on both cores, piece by piece (about 10% of the whole
    log stage on full-scale Imbue, bench.log_speed)."""
    return lines.lazy().with_columns(key=coarse_key(pl.col("message"))).collect(engine="streaming")


def _templates_of_keys(keys: pl.DataFrame, similarity: float, depth: int) -> pl.DataFrame:
    """`keys` (key, example: the key's first line, first: its order of appearance) ->
    key, template_id, template. Each key's example is masked; each distinct masked line
    is mined once, in order of first appearance."""
    # Keys whose first lines share a time and host (a block of untimed lines, dated by the
    # line before them) are ordered by their text: group_by's own order is arbitrary.
    masked = keys.sort("first", "key").with_columns(
        masked=mask(pl.col("example")).str.strip_chars()
    )
    distinct = masked.unique("masked", keep="first", maintain_order=True)
    miner = _miner(similarity, depth)
    ids = [miner.add_log_message(line)["cluster_id"] for line in distinct.get_column("masked")]
    templates = {c.cluster_id: c.get_template() for c in miner.drain.clusters}
    mapping = distinct.select("masked").with_columns(template_id=pl.Series(ids, dtype=pl.Int64))
    return masked.join(mapping, on="masked", how="left").select(
        "key",
        "template_id",
        template=pl.col("template_id").replace_strict(templates, return_dtype=pl.String),
    )


def mine_templates(messages: pl.Series, similarity: float = 0.4, depth: int = 4) -> pl.DataFrame:
    """For each message, its template id and template text (same length and order)."""
    frame = pl.DataFrame({"message": messages}).with_row_index("_row")
    frame = with_keys(frame)
    keys = frame.group_by("key").agg(
        first=pl.col("_row").min(),
        example=pl.col("message").fill_null("").first(),
        rows=pl.col("_row"),
    )
    mapping = _templates_of_keys(keys.drop("rows"), similarity, depth)
    # Each line's template through its key's rows (the group_by has them already): one
    # scatter of key positions, not a join of every line on its key's text and a sort.
    per_key = keys.select("key", "rows").join(mapping, on="key", how="left").with_row_index("_k")
    placed = per_key.select("_k", "rows").explode("rows")
    at = pl.repeat(None, frame.height, dtype=pl.UInt32, eager=True).scatter(
        placed.get_column("rows"), placed.get_column("_k")
    )
    return per_key.select("template_id", "template").select(pl.all().gather(at))


@dataclass
class TemplateSummary:
    """Templates of the unmatched lines, counted in the window and in the baseline.

    `templates`: per template, counts, hosts, first/last seen, new. `lines` (per window
    line: ts, host, severity, template_id, template) is worked out when asked for."""

    templates: pl.DataFrame
    _unknown: pl.DataFrame  # the unmatched window lines with their key
    _mapping: pl.DataFrame  # key -> template_id, template

    @property
    def lines(self) -> pl.DataFrame:
        return self._unknown.join(self._mapping, on="key", how="left").select(
            "ts", "host", "severity", "template_id", "template"
        )


def _in_time_order(lines: pl.DataFrame) -> bool:
    """Whether the rows are sorted by ts, then host, with neither null."""
    ts, host = pl.col("ts"), pl.col("host")
    before_ts, before_host = ts.shift(1), host.shift(1)
    ordered = (ts > before_ts) | ((ts == before_ts) & (host >= before_host))
    return lines.select(
        ordered.fill_null(True).all() & (ts.null_count() == 0) & (host.null_count() == 0)
    ).item()


def summarise_templates(
    logs: pl.DataFrame, window: TimeWindow, baseline: TimeWindow | None
) -> TemplateSummary:
    """Mine the lines without a signature; say which templates are new against the baseline.

    `logs` holds the lines of the baseline and the window (columns ts, host, message,
    signature). A template is new when the baseline has lines but none of this template.
    Counted per coarse key first (one pass over the lines), then per template.
    """
    # Only the columns used here are filtered (not the frame's raw lines and fields).
    wanted = [c for c in ("ts", "host", "severity", "message") if c in logs.columns]
    unknown = logs.select(*wanted, "signature").filter(pl.col("signature").is_null())
    if "severity" not in unknown.columns:
        unknown = unknown.with_columns(severity=pl.lit(None, pl.String))
    in_window = window.contains()
    in_base = baseline.contains() if baseline else pl.lit(False)
    has_baseline = baseline is not None and unknown.select(in_base.any()).item()
    unknown = with_keys(unknown.select("ts", "host", "severity", "message"))
    rank = pl.col("severity").replace_strict(LEVEL_RANK, default=None, return_dtype=pl.Int32)
    # Keys are mined in the order of their first lines, in time order, then host, then the
    # order the lines came in: the same logs, the same ids. `_place` is each line's place
    # in that order, and a key's example its first line.
    if _in_time_order(unknown):
        # Lines already in that order (read_logs sorts them so): a line's place is its row,
        # and a key's first line its first row, without sorting anything.
        unknown = unknown.with_row_index("_place")
        example = pl.col("message").first()
    else:
        by_time = pl.arg_sort_by("ts", "host", maintain_order=True, nulls_last=True)
        # (the inverse of the sorting permutation: each row's place in the sorted order)
        place = pl.int_range(pl.len(), dtype=pl.UInt32).sort_by(by_time)
        unknown = unknown.with_columns(_place=place)
        example = pl.col("message").get(pl.col("_place").arg_min())
    per_key = unknown.group_by("key").agg(
        first=pl.col("_place").min(),
        example=example,
        count=in_window.sum(),
        baseline_count=in_base.sum(),
        hosts=pl.col("host").filter(in_window).unique(),
        first_seen=pl.col("ts").filter(in_window).min(),
        last_seen=pl.col("ts").filter(in_window).max(),
        severity_rank=pl.when(in_window).then(rank).min(),
    )
    mapping = _templates_of_keys(per_key.select("key", "example", "first"), similarity=0.4, depth=4)
    templates = (
        per_key.join(mapping, on="key", how="left")
        .group_by("template_id", "template")
        .agg(
            count=pl.col("count").sum(),
            baseline_count=pl.col("baseline_count").sum(),
            hosts=pl.col("hosts").list.explode(keep_nulls=False, empty_as_null=False).n_unique(),
            first_seen=pl.col("first_seen").min(),
            last_seen=pl.col("last_seen").max(),
            # The most severe level its lines were logged at (null: the format has none).
            severity_rank=pl.col("severity_rank").min(),
        )
        .filter(pl.col("count") > 0)
        .with_columns(
            hosts=pl.col("hosts").cast(pl.UInt32),
            new=pl.lit(has_baseline) & (pl.col("baseline_count") == 0),
            severity=pl.col("severity_rank").replace_strict(
                {v: k for k, v in LEVEL_RANK.items()}, default=None, return_dtype=pl.String
            ),
        )
        # Worst first: new ones, then by the level they were logged at, then by reach.
        .sort(
            ["new", "severity_rank", "hosts", "count", "template_id"],
            descending=[True, False, True, True, False],
            nulls_last=True,
        )
        .drop("severity_rank")
    )
    return TemplateSummary(
        templates=templates,
        _unknown=unknown.filter(in_window).drop("message", "_place"),
        _mapping=mapping,
    )
