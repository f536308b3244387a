"""Parquet read by row groups: files whose row groups each hold one metric (the
simulator's) are scanned per signal, the other groups skipped from the footer's
statistics; files written any other way (unsorted, many metrics per group, no statistics)
load to the same signals through the shared scan."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq
import pytest

from conftest import REPO
from incidentbook.incident import IncidentFolder
from incidentbook.metrics.signals import load_pack
from incidentbook.sources import folder as folder_module
from incidentbook.sources.files import metric_groups, metrics_in
from incidentbook.sources.folder import FolderSource

BUNDLED = REPO / "data" / "incidents" / "smollm3-storage"
PACK = load_pack()


def _load(root: Path):
    folder = IncidentFolder(root)
    signals = [PACK.get(n) for n in sorted(PACK.signals)]
    return FolderSource(folder).metrics(folder.spec.window, signals)


def _copy(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(BUNDLED, root)
    return root


def test_the_simulators_row_groups_each_hold_one_metric_with_statistics():
    for path in sorted((BUNDLED / "metrics").glob("*.parquet")):
        meta = pq.ParquetFile(path).metadata
        metric = [meta.schema.column(i).path for i in range(meta.num_columns)].index("metric")
        for g in range(meta.num_row_groups):
            stats = meta.row_group(g).column(metric).statistics
            assert stats is not None and stats.has_min_max, (path.name, g)
            assert stats.min == stats.max, (path.name, g)
        groups = metric_groups(path)
        held = set(pl.read_parquet(path, columns=["metric"]).get_column("metric"))
        assert groups is not None and groups.names == held
        assert metrics_in([path]) == held


def test_a_filter_on_one_metric_reads_only_its_row_groups():
    path = BUNDLED / "metrics" / "dcgm.parquet"
    groups = metric_groups(path)
    frame = pl.read_parquet(path, columns=["metric"])
    for name in sorted(groups.names):
        rows = frame.filter(pl.col("metric") == name).height
        # The groups a filter on the name cannot skip by their statistics hold its rows
        # and nothing else.
        assert groups.rows_of({name}) == rows
    assert groups.rows_of({"no_such_metric"}) == 0


def test_files_of_one_metric_per_group_are_scanned_per_signal(monkeypatch):
    planned: list[tuple[str, tuple[str, ...]]] = []
    real = folder_module.plan_file

    def spy(path, window, signals, **options):
        planned.append((Path(path).name, tuple(s.name for s in signals)))
        return real(path, window, signals, **options)

    monkeypatch.setattr(folder_module, "plan_file", spy)
    _load(BUNDLED)
    dcgm = [signals for name, signals in planned if name == "dcgm.parquet"]
    # Each scan of the GPU file plans the signals of its own metrics, not the pack's.
    assert len(dcgm) > 1 and all(len(signals) < 5 for signals in dcgm)


@pytest.mark.parametrize("how", ["shuffled", "no statistics", "one group"])
def test_parquet_written_any_other_way_loads_to_the_same_signals(tmp_path, how):
    expected = _load(BUNDLED)
    root = _copy(tmp_path, how.replace(" ", "-"))
    for path in sorted((root / "metrics").glob("*.parquet")):
        frame = pl.read_parquet(path)
        if how == "shuffled":  # every group holds many metrics, in no order
            frame.sample(fraction=1.0, shuffle=True, seed=7).write_parquet(
                path, row_group_size=50_000, statistics=True
            )
        elif how == "no statistics":
            frame.write_parquet(path, row_group_size=50_000, statistics=False)
        else:
            frame.write_parquet(path, row_group_size=frame.height + 1)
        assert metric_groups(path) is None or metric_groups(path).names is None
    got = _load(root)
    assert got.frame.equals(expected.frame)
    assert got.receipt.rows_read == expected.receipt.rows_read
    assert got.receipt.duplicates_dropped == expected.receipt.duplicates_dropped
    assert got.receipt.gaps == expected.receipt.gaps


def test_a_folder_mixing_both_kinds_loads_to_the_same_signals(tmp_path):
    expected = _load(BUNDLED)
    root = _copy(tmp_path, "mixed")
    node = root / "metrics" / "node.parquet"
    pl.read_parquet(node).sample(fraction=1.0, shuffle=True, seed=3).write_parquet(node)
    got = _load(root)
    assert got.frame.equals(expected.frame)
    assert got.receipt.rows_read == expected.receipt.rows_read
