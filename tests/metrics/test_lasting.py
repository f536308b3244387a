"""metrics.lasting's parts on their own: the located stretch and the merge of runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import polars as pl

from incidentbook.metrics.departures import best_stretch
from incidentbook.metrics.lasting import merged

T0 = datetime(2025, 6, 2, 6, tzinfo=UTC)
TS = [T0 + timedelta(minutes=i) for i in range(8)]


def test_the_located_stretch_is_the_one_with_the_largest_sum():
    gain = np.array([-1.0, 2.0, -0.5, 3.0, -4.0, 1.0, 0.5, -1.0])
    assert best_stretch(TS, gain) == (TS[1], TS[3])


def test_samples_that_add_nothing_do_not_lengthen_the_stretch():
    # A flat start (a unit at exactly its peers' level, a port state) would otherwise let
    # the onset slide back to the first sample looked at.
    gain = np.array([0.0, 0.0, 0.0, 2.0, 2.0, -1.0, -1.0, -1.0])
    assert best_stretch(TS, gain) == (TS[3], TS[4])


def _runs(*spans: tuple[int, int]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "signal": "s",
            "node": "h1",
            "gpu": None,
            "direction": "up",
            "start": [TS[a] for a, _ in spans],
            "end": [TS[b] for _, b in spans],
        },
        schema_overrides={"gpu": pl.String},
    )


def test_a_lasting_run_dates_the_first_run_it_overlaps_and_adds_nothing():
    sampled = _runs((3, 4), (5, 7))
    got = merged(sampled, _runs((1, 7))).sort("start")
    assert got["start"].to_list() == [TS[1], TS[5]]
    assert got["end"].to_list() == [TS[4], TS[7]]


def test_a_lasting_run_never_dates_a_run_back_past_the_one_before_it():
    sampled = _runs((0, 2), (4, 5))
    got = merged(sampled, _runs((1, 6))).sort("start")
    # The lasting run overlaps both; only the first is dated, and it began at 1 already.
    assert got["start"].to_list() == [TS[0], TS[4]]
    got = merged(_runs((0, 2), (5, 6)), _runs((3, 7))).sort("start")
    assert got["start"].to_list() == [TS[0], TS[3]]


def test_a_lasting_run_that_overlaps_nothing_is_kept():
    got = merged(_runs((0, 1)), _runs((3, 7))).sort("start")
    assert got["start"].to_list() == [TS[0], TS[3]]
