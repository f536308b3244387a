"""The reductions from raw samples to signals: counters differenced per series whatever
the rows' order, and the signal frame in text order whatever order categories were met."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import polars as pl

from incidentbook.metrics.frames import RAW_SCHEMA, cluster_series, counter_increase, signal_frame
from incidentbook.metrics.signals import Signal

T0 = datetime(2025, 6, 1, tzinfo=UTC)


def raw(rows: list[tuple[int, str, float, str, str | None, str]]) -> pl.DataFrame:
    """Rows of (seconds from T0, metric, value, node, gpu, labels) in RAW_SCHEMA."""
    return pl.DataFrame(
        {
            "ts": [T0 + timedelta(seconds=r[0]) for r in rows],
            "metric": [r[1] for r in rows],
            "value": [r[2] for r in rows],
            "node": [r[3] for r in rows],
            "gpu": [r[4] for r in rows],
            "labels": [r[5] for r in rows],
        }
    ).cast(dict(RAW_SCHEMA))


def test_counter_increase_follows_each_series_when_rows_are_shuffled() -> None:
    # Two ports of one host interleaved and out of time order; port 2 resets (drops to 1)
    # and port 1 repeats a sample. Each series must be differenced in its own time order.
    rows = [
        (30, "c", 9.0, "h1", None, "port=1"),
        (0, "c", 100.0, "h1", None, "port=2"),
        (15, "c", 5.0, "h1", None, "port=1"),
        (0, "c", 1.0, "h1", None, "port=1"),
        (30, "c", 1.0, "h1", None, "port=2"),
        (15, "c", 110.0, "h1", None, "port=2"),
        (30, "c", 9.0, "h1", None, "port=1"),
    ]
    got = (
        counter_increase(raw(rows).lazy())
        .select(
            t=(pl.col("ts") - T0).dt.total_seconds(),
            labels=pl.col("labels").cast(pl.String),
            increase="increase",
            seconds="seconds",
            dup="dup",
        )
        .collect()
        .sort("labels", "t", "seconds")
    )
    assert got.rows() == [
        (15, "port=1", 4.0, 15.0, False),
        (30, "port=1", 0.0, 0.0, True),
        (30, "port=1", 4.0, 15.0, False),
        (15, "port=2", 10.0, 15.0, False),
        (30, "port=2", 1.0, 15.0, False),  # a reset: the new value is the increase
    ]


def test_signal_frame_is_in_text_order_not_in_the_order_categories_were_met() -> None:
    # Categories met as zeta, then alpha: codes would put zeta first; text order must not.
    rows = [(t, "g", float(t), n, None, "") for n in ("zeta-9", "alpha-1") for t in (15, 0)]
    gauge = Signal(name="level", label="Level", kind="gauge", metric="g")
    frame, duplicates, count = signal_frame(raw(rows), [gauge])
    assert count == 4 and duplicates == 0
    assert frame.schema["node"] == pl.String
    assert frame.select("node", t=(pl.col("ts") - T0).dt.total_seconds()).rows() == [
        ("alpha-1", 0),
        ("alpha-1", 15),
        ("zeta-9", 0),
        ("zeta-9", 15),
    ]


def test_the_worst_unit_of_a_tie_is_the_first_by_name() -> None:
    # GPUs 7 and 0 share the host's maximum; 7 is met first. The unit named must not
    # depend on which row the engine happens to meet first.
    rows = [(0, "t", 80.0, "h1", g, "") for g in ("7", "3", "0")]
    rows[1] = (0, "t", 60.0, "h1", "3", "")
    hottest = Signal(name="temp", label="Temperature", kind="gauge", metric="t", within="max")
    frame, _, _ = signal_frame(raw(rows), [hottest])
    assert frame.select("value", "worst").rows() == [(80.0, "0")]


def test_gaps_found_by_runs_of_a_sorted_frame_equal_those_found_by_hashing() -> None:
    from incidentbook.metrics.data import find_gaps

    rows = []
    for node in ("n2", "n10", "n1"):
        for gpu in (None, "0", "1"):
            # Every series sampled each 15 s, with a gap of its own (none in n1's GPU 1).
            missing = {("n2", None): range(10, 20), ("n10", "0"): range(30, 34)}
            skip = missing.get((node, gpu), range(0))
            rows += [(t * 15, "m", float(t), node, gpu, "") for t in range(60) if t not in skip]
    frame, _, _ = signal_frame(
        raw(rows), [Signal(name="s", label="s", kind="gauge", metric="m", per="gpu")]
    )
    by_runs = find_gaps(frame, ordered=True)
    assert by_runs == find_gaps(frame)
    assert [(g["node"], g["gpu"]) for g in by_runs] == [("n2", None), ("n10", "0")]


def test_a_signal_that_names_no_unit_has_the_same_values_and_no_worst() -> None:
    """Checks read values only: their signals name no unit (the worst device's pick is
    most of a counter's reduction), and their values are the same."""
    rows = [
        (t, "reads", float(t * k), "h1", None, f"device=nvme{k}")
        for t in (0, 15, 30, 45)
        for k in (1, 2, 3)
    ]
    rate = Signal(name="r", label="Reads", kind="counter_rate", metric="reads", within="sum")
    named, _, _ = signal_frame(raw(rows), [rate])
    quiet, _, _ = signal_frame(raw(rows), [rate.model_copy(update={"name_unit": False})])
    assert named.get_column("worst").null_count() == 0
    assert quiet.get_column("worst").null_count() == quiet.height == named.height
    assert quiet.drop("worst").equals(named.drop("worst"))


def test_a_rate_or_gauge_reads_a_rising_series_as_its_rate_and_a_jittering_one_as_it_is():
    # DCGM's NVLink bandwidth field: dcgm-exporter types it counter, the field is a rate
    # (MB/s), and exports hold either. A counter reset (a reboot) stays a counter.
    counter = [(15 * i, "nv", 1000.0 * i, "a", "0", "") for i in range(1, 20)]
    counter[10] = (150, "nv", 5.0, "a", "0", "")  # reset at a reboot
    counter[11:] = [(15 * i, "nv", 5.0 + 1000.0 * (i - 10), "a", "0", "") for i in range(11, 20)]
    gauge = [(15 * i, "nv", 300.0 + (40 if i % 2 else -40), "b", "0", "") for i in range(1, 20)]
    signal = Signal(name="nv", label="NVLink", kind="rate_or_gauge", metric="nv")
    frame, _, _ = signal_frame(raw(counter + gauge), [signal])
    rates = frame.filter(pl.col("node") == "a").get_column("value")
    levels = frame.filter(pl.col("node") == "b").get_column("value")
    assert rates.median() == 1000.0 / 15
    assert set(levels.to_list()) == {260.0, 340.0}


def test_a_clusters_sum_counts_hosts_whose_exporter_went_quiet_as_they_usually_are():
    # A blind folder: dcgm-exporter crash-looped on 3 of 24 hosts for 40 minutes, and
    # the cluster's NVLink traffic (a sum over hosts) "shifted" down by an eighth while
    # the job ran on at its pace. A sum over fewer series than usual is scaled up to the
    # usual count; a mean, and a sum over the usual count, are left as they are.
    rows = []
    for t in range(0, 300, 30):
        quiet = 100 <= t < 200
        for h in range(8):
            if quiet and h < 2:
                continue
            rows.append((T0 + timedelta(seconds=t), "traffic", f"h{h}", None, 10.0, None))
            rows.append((T0 + timedelta(seconds=t), "temp", f"h{h}", None, 60.0 + h, None))
    frame = pl.DataFrame(
        rows, schema=["ts", "signal", "node", "gpu", "value", "worst"], orient="row"
    )
    signals = {
        "traffic": Signal(name="traffic", label="t", kind="gauge", metric="t", aggregate="sum"),
        "temp": Signal(name="temp", label="T", kind="gauge", metric="T", aggregate="mean"),
    }
    series = cluster_series(frame, signals)
    traffic = series.filter(pl.col("signal") == "traffic")
    assert traffic.get_column("value").to_list() == [80.0] * 10
    assert traffic.get_column("reporting").to_list() == [8] * 4 + [6] * 3 + [8] * 3
    temp = series.filter(pl.col("signal") == "temp").get_column("value").to_list()
    assert temp[:4] == [63.5] * 4 and temp[4:7] == [64.5] * 3  # h0 and h1 quiet: a mean
