"""Log templates for the lines no signature knows, mined with drain3.

Variable parts (numbers, hex values, PCI addresses, IPs, UUIDs) are masked first with
polars expressions over the whole frame; then each *distinct* masked line is fed to
drain3 once, in order of first appearance, so mining costs what the variety of the logs
costs, not their volume, and the same logs always give the same templates.
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


def mine_templates(messages: pl.Series, similarity: float = 0.4, depth: int = 4) -> pl.DataFrame:
    """For each message, its template id and template text (same length and order)."""
    frame = (
        pl.DataFrame({"message": messages})
        .with_row_index("_row")
        .with_columns(masked=mask(pl.col("message").fill_null("")).str.strip_chars())
    )
    distinct = frame.group_by("masked").agg(first=pl.col("_row").min()).sort("first")
    miner = _miner(similarity, depth)
    ids = [miner.add_log_message(line)["cluster_id"] for line in distinct.get_column("masked")]
    templates = {c.cluster_id: c.get_template() for c in miner.drain.clusters}
    mapping = distinct.with_columns(template_id=pl.Series(ids, dtype=pl.Int64)).with_columns(
        template=pl.col("template_id").replace_strict(templates, return_dtype=pl.String)
    )
    return (
        frame.join(mapping.select("masked", "template_id", "template"), on="masked", how="left")
        .sort("_row")
        .select("template_id", "template")
    )


@dataclass
class TemplateSummary:
    """Templates of the unmatched lines, counted in the window and in the baseline."""

    lines: pl.DataFrame  # per line: ts, host, template_id, template
    templates: pl.DataFrame  # per template: counts, hosts, first/last seen, new


def summarise_templates(
    logs: pl.DataFrame, window: TimeWindow, baseline: TimeWindow | None
) -> TemplateSummary:
    """Mine the lines without a signature; say which templates are new against the baseline.

    `logs` holds the lines of the baseline and the window (columns ts, host, message,
    signature). A template is new when the baseline has lines but none of this template.
    """
    unknown = logs.filter(pl.col("signature").is_null()).sort("ts", "host")
    if "severity" not in unknown.columns:
        unknown = unknown.with_columns(severity=pl.lit(None, pl.String))
    mined = mine_templates(unknown.get_column("message"))
    lines = pl.concat([unknown.select("ts", "host", "severity"), mined], how="horizontal")
    in_window = window.contains()
    in_base = baseline.contains() if baseline else pl.lit(False)
    has_baseline = baseline is not None and lines.filter(in_base).height > 0
    templates = (
        lines.group_by("template_id", "template")
        .agg(
            count=in_window.sum(),
            baseline_count=in_base.sum(),
            hosts=pl.col("host").filter(in_window).n_unique(),
            first_seen=pl.col("ts").filter(in_window).min(),
            last_seen=pl.col("ts").filter(in_window).max(),
            # The most severe level its lines were logged at (null: the format has none).
            severity_rank=pl.col("severity").replace_strict(LEVEL_RANK, default=None).min(),
        )
        .filter(pl.col("count") > 0)
        .with_columns(
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
    return TemplateSummary(lines=lines.filter(in_window), templates=templates)
