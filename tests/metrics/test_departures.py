"""The departure detector (incidentbook.metrics.departures) on series built here.

Generators, all seeded and deterministic:

* Throughput (item 3 of issue 16): 15 s samples over 6 h (1,440), level 12,000 tokens/s,
  AR(1) noise with phi = 0.7 and a marginal standard deviation of 1% of the level; the
  first hour is the baseline. A loss multiplies a stretch by (1 - depth).
* A noisy but healthy day: the same with 2% noise, plus six bursts of jitter (40 to 80
  samples, i.e. 10 to 20 minutes, at random places) that add AR(1) noise of 6% with
  phi = 0.3 and zero mean: the series scatters more, it loses nothing.
* Near-idle, bursty and daily series: 5-minute samples over 8 days, NAB's sampling.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import polars as pl
import pytest
from incidents import T0, samples, write_incident

from incidentbook.investigation import investigate
from incidentbook.metrics.departures import DetectorSettings, departures, resolution

STEP = timedelta(seconds=15)
N = 6 * 240
LEVEL = 12_000.0
SEEDS = range(6)


def ar1(rng: np.random.Generator, n: int, sigma: float, phi: float = 0.7) -> np.ndarray:
    e = rng.normal(0, sigma * np.sqrt(1 - phi**2), n)
    x = np.empty(n)
    x[0] = rng.normal(0, sigma)
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


def throughput(seed: int, loss: tuple[int, int, float] | None = None) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = LEVEL * (1 + ar1(rng, N, 0.01))
    if loss:
        start, length, depth = loss
        values[start : start + length] *= 1 - depth
    return values


def noisy_healthy(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = LEVEL * (1 + ar1(rng, N, 0.02))
    for _ in range(6):
        at, length = int(rng.integers(0, N - 80)), int(rng.integers(40, 81))
        values[at : at + length] += LEVEL * ar1(rng, length, 0.06, phi=0.3)
    return values


def analyse(tmp_path, values: np.ndarray):
    frame = samples("trainer_tokens_per_second", values, job="train").with_columns(
        timestamp=pl.Series([T0 + STEP * i for i in range(N)]).dt.cast_time_unit("us")
    )
    root = write_incident(tmp_path, [frame], hours=6, baseline_hours=1)
    analysis = investigate(root, signals=["throughput"]).analysis
    return [f for f in analysis.findings if f.signal == "throughput"]


# --- small sustained losses, on the primary signal --------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_a_five_percent_loss_for_forty_minutes_is_a_finding(tmp_path, seed):
    start = 3 * 240  # 11:00
    found = analyse(tmp_path, throughput(seed, (start, 160, 0.05)))
    losses = [f for f in found if f.kind in {"drop", "level_shift"} and f.magnitude < 0]
    assert losses, "a 5% loss for 40 minutes went unreported"
    planted = T0 + STEP * start
    first = min(losses, key=lambda f: f.start)
    assert abs(first.start - planted) <= timedelta(minutes=2)
    assert first.end - first.start >= timedelta(minutes=30)
    assert -0.065 < first.magnitude < -0.035
    assert all(f.kind in {"drop", "level_shift"} for f in found)  # nothing else


@pytest.mark.parametrize("seed", SEEDS)
def test_a_three_percent_loss_for_ten_minutes_is_a_finding(tmp_path, seed):
    start = 3 * 240
    found = analyse(tmp_path, throughput(seed, (start, 40, 0.03)))
    planted = T0 + STEP * start
    hits = [
        f
        for f in found
        if f.magnitude < 0 and f.start <= planted + timedelta(minutes=10) and f.end >= planted
    ]
    assert hits


@pytest.mark.parametrize("seed", SEEDS)
def test_a_quiet_day_reports_nothing_on_the_primary_signal(tmp_path, seed):
    assert analyse(tmp_path, throughput(seed)) == []


@pytest.mark.parametrize("seed", SEEDS)
def test_a_noisy_but_healthy_day_reports_nothing_on_the_primary_signal(tmp_path, seed):
    assert analyse(tmp_path, noisy_healthy(seed)) == []


# --- what the detector learns from the series ---------------------------------------------------

FIVE = timedelta(minutes=5)
DAYS = 8
M = DAYS * 288


def five_minute(values: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame(
        {"ts": [T0 + FIVE * i for i in range(values.size)], "value": values}
    ).with_columns(pl.col("ts").dt.cast_time_unit("us"))


def run(values: np.ndarray, baseline_days: float = 2.0) -> pl.DataFrame:
    frame = five_minute(values)
    return departures(frame, "both", T0, T0 + timedelta(days=baseline_days), DetectorSettings())


def test_rounding_steps_of_a_near_idle_series_are_not_departures():
    # CPU utilisation of an idle VM: ticks between two rounded values (0.066 and 0.134)
    rng = np.random.default_rng(4)
    values = np.where(rng.random(M) < 0.3, 0.134, 0.066)
    assert resolution(values) == pytest.approx(0.068 / 0.954)
    assert run(values).height == 0
    values[5 * 288] = 1.5  # a real spike still counts
    found = run(values)
    assert found.height == 1
    assert found.item(0, "start") == T0 + FIVE * (5 * 288)


def test_a_nightly_job_is_a_pattern_but_a_bigger_one_at_another_hour_is_not():
    rng = np.random.default_rng(5)
    values = 2.0 + rng.normal(0, 0.05, M)
    for day in range(DAYS):
        at = day * 288 + 36 + int(rng.integers(-4, 5))  # 03:00, give or take 20 minutes
        values[at] += 1.5 + rng.normal(0, 0.05)
    values[6 * 288 + 264] += 3.0  # 22:00 on day 6, twice the nightly spike
    found = run(values)
    later = found.filter(pl.col("start") >= T0 + timedelta(days=2))
    assert later.get_column("start").to_list() == [T0 + FIVE * (6 * 288 + 264)]


def test_an_idle_disk_bursting_as_in_its_baseline_is_not_an_incident_per_burst():
    # mostly idle, bursts on about 3% of the samples all along (about 50 after the
    # baseline), one burst three times larger than any before on day 6
    rng = np.random.default_rng(6)
    values = np.abs(rng.normal(0, 2e3, M))
    bursts = rng.random(M) < 0.03
    values[bursts] = rng.uniform(1e8, 1.5e8, int(bursts.sum()))
    big = 6 * 288 + 100
    values[big] = 4.5e8
    later = T0 + timedelta(days=2)
    after = run(values).filter(pl.col("start") >= later).get_column("start").to_list()
    assert T0 + FIVE * big in after
    # An ordinary burst counts only when it is the largest yet, which gets rarer as the
    # history grows: a handful at most, where a threshold on the idle noise flags them all.
    ordinary = int(bursts[2 * 288 :].sum())
    assert ordinary > 40
    assert len(after) - 1 <= 3


def test_sustained_departures_say_when_they_were_detected():
    rng = np.random.default_rng(7)
    values = 100 + rng.normal(0, 1, M)
    values[4 * 288 : 4 * 288 + 48] += 2.5  # +2.5 sigma for 4 hours: no single sample stands out
    found = run(values)
    assert found.height == 1
    row = found.row(0, named=True)
    assert row["sustained"] and row["direction"] == "up"
    assert abs(row["start"] - (T0 + FIVE * (4 * 288))) <= timedelta(minutes=15)
    assert row["detected"] > row["start"]  # the evidence came later than the change
    assert row["detected"] - row["start"] <= timedelta(hours=1)


def test_robust_scale_is_scipys_normal_consistent_mad_to_the_bit():
    """robust_scale computes the MAD with numpy (scipy's argument checks cost more than the
    medians on the hundreds of short series of an analysis): the same number as
    scipy.stats.median_abs_deviation(scale="normal"), bit for bit."""
    import numpy as np
    from scipy import stats

    from incidentbook.metrics.departures import robust_scale

    rng = np.random.default_rng(7)
    for n in (2, 3, 10, 101, 5760):
        for _ in range(50):
            values = rng.normal(size=n) * rng.uniform(0.001, 1000) + rng.uniform(-5, 5)
            expected = float(stats.median_abs_deviation(values, scale="normal"))
            assert robust_scale(values, 0.0) == max(expected, 1e-12)


def test_a_lasting_loss_is_dated_from_its_own_start_not_from_a_dip_before_it(tmp_path):
    # A blind folder: a trainer logging every 67 s, one checkpoint's dip (-14%) ten lines
    # before a lasting 4% loss. The two were merged and the loss dated from the dip, 12
    # min before the fault, so the fault "began after the symptom". Normal lines between
    # them make the dip an episode of its own.
    values = throughput(0)
    dip, shift = 722, 732
    values[dip] *= 0.86
    values[shift:] *= 0.96
    found = analyse(tmp_path, values)
    lasting = [f for f in found if f.end - f.start > STEP * 60]
    assert lasting, [(f.kind, f.start) for f in found]
    first = min(f.start for f in lasting)
    assert T0 + STEP * (shift - 2) <= first <= T0 + STEP * (shift + 1), first
