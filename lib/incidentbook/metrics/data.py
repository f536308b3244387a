"""What a source gives the analysis: a window's signal frame and the receipt of its loading.

These types sit between the sources (which fill them) and the analysis (which reads
them), so neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from incidentbook.errors import IncidentbookError, LoadNote, grouped_notes
from incidentbook.window import TimeWindow


class MetricsError(IncidentbookError):
    """Metrics that cannot be read: a bad file, a wrong column, a naive timestamp."""


class NoMetricsError(MetricsError):
    """The folder holds no metrics at all (no files under metrics/, no trainer log, no
    TensorBoard files): not a file that could not be read, which stays a MetricsError."""


class NoDataError(MetricsError):
    """Nothing to analyse in the window."""


@dataclass
class MetricsReceipt:
    """What loading the metrics found that a reader should know: which files (or which
    server), how many rows, duplicates dropped, gaps, signals without data, and
    `assumptions`: each guess loading made and each sample it left out, counted. Nothing
    is dropped silently."""

    files: list[str] = field(default_factory=list)
    rows_read: int = 0
    duplicates_dropped: int = 0
    gaps: list[dict] = field(default_factory=list)
    missing_signals: dict[str, str] = field(default_factory=dict)
    assumptions: list[LoadNote] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)
    """Signal -> where its samples came from, where the folder merged several sources
    (metrics files, trainer logs, TensorBoard)."""
    remarks: list[str] = field(default_factory=list)
    """What a source wants said (a trainer log's inferred times, merged duplicates, ...)."""

    def notes(self) -> list[str]:
        out = [*self.remarks, *grouped_notes(self.assumptions)]
        if self.duplicates_dropped:
            out.append(
                f"{self.duplicates_dropped} duplicate samples (same series and time) were dropped"
            )
        if self.gaps:
            worst = self.gaps[0]
            out.append(
                f"{len(self.gaps)} gaps in series (not interpolated); "
                f"the longest: {worst['signal']} "
                f"on {worst['node']}{'/gpu' + worst['gpu'] if worst['gpu'] else ''} "
                f"from {worst['start']:%Y-%m-%d %H:%M:%S} to {worst['end']:%H:%M:%S} UTC"
            )
        if len(self.missing_signals) == 1:
            ((name, why),) = self.missing_signals.items()
            out.append(f"no data for signal {name}: {why}")
        elif self.missing_signals:
            out.append(
                f"{len(self.missing_signals)} signals of the pack have no data in the window: "
                f"{', '.join(sorted(self.missing_signals))}"
            )
        return out


@dataclass
class Metrics:
    """A window's signals (the canonical signal frame), with the receipt of how they were
    loaded."""

    frame: pl.DataFrame
    receipt: MetricsReceipt
    window: TimeWindow

    @property
    def report(self) -> MetricsReceipt:
        """The receipt's name before 0.2."""
        return self.receipt


LoadReport = MetricsReceipt
"""The receipt's name before 0.2."""


def find_gaps(frame: pl.DataFrame, factor: float = 2.5, *, ordered: bool = False) -> list[dict]:
    """Intervals in a series longer than `factor` times its usual step, longest first.

    `ordered`: the frame is sorted by signal, node, GPU and time (a signal frame as
    metrics.frames makes it), so each series is one run of rows, numbered without hashing
    three text columns of every row (10 s to under 2 on a 511-host day).
    """
    if frame.height == 0:
        return []
    keys = ["signal", "node", "gpu"]
    if ordered:
        run = pl.struct(keys).rle_id()
        steps = frame.with_columns(run.alias("__ib_run")).with_columns(
            step=pl.when(pl.col("__ib_run") == pl.col("__ib_run").shift()).then(
                pl.col("ts").diff()
            ),
            prev=pl.when(pl.col("__ib_run") == pl.col("__ib_run").shift()).then(
                pl.col("ts").shift()
            ),
        )
        keys = ["__ib_run"]
    else:
        steps = frame.with_columns(
            step=pl.col("ts").diff().over(keys), prev=pl.col("ts").shift().over(keys)
        )
    usual = steps.group_by(keys).agg(usual=pl.col("step").median())
    gaps = (
        steps.join(usual, on=keys, nulls_equal=True)
        .filter(pl.col("step") > pl.col("usual") * factor)
        .sort("step", descending=True)
        .select("signal", "node", "gpu", start="prev", end="ts", step="step")
        .head(50)
    )
    return gaps.to_dicts()
