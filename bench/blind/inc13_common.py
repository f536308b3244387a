"""Shared helpers for the blind_INC13 incident generators (numpy/polars only)."""
import numpy as np
import polars as pl
from datetime import datetime, timezone, timedelta

UTC = timezone.utc


def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(UTC)


def scrape_times(rng, t0, t1, interval, n_targets):
    """Per-target raw scrape times (epoch seconds): fixed phase + small jitter."""
    base = np.arange(t0, t1, interval, dtype=float)
    out = []
    for _ in range(n_targets):
        phase = rng.uniform(0, interval)
        t = base + phase + rng.normal(0, 0.04, base.size)
        out.append(np.round(t[t < t1], 3))
    return out


def interval_overlap(t, width, starts, ends):
    """Fraction of [t-width, t] covered by intervals [starts, ends) (vectorised over t)."""
    f = np.zeros_like(t)
    for s, e in zip(starts, ends):
        lo = np.maximum(t - width, s)
        hi = np.minimum(t, e)
        f += np.clip(hi - lo, 0, None)
    return np.clip(f / width, 0, 1)


def inside(t, starts, ends):
    m = np.zeros(t.shape, bool)
    for s, e in zip(starts, ends):
        m |= (t >= s) & (t < e)
    return m


def counter(rng, t, rate, start):
    """Cumulative counter sampled at t from a per-sample rate array (units per second)."""
    dt = np.diff(t, prepend=t[0] - (t[1] - t[0]))
    inc = np.clip(rate * dt, 0, None)
    return start + np.cumsum(inc)


def to_dt(epoch):
    return (np.asarray(epoch) * 1000).astype("int64").astype("datetime64[ms]")


def long_frame(rows, label_cols):
    """rows: list of dicts with 'timestamp' (epoch array), 'metric', 'value' (array), labels (scalars)."""
    parts = []
    for r in rows:
        n = len(r["value"])
        d = {"timestamp": to_dt(r["timestamp"]), "metric": np.full(n, r["metric"], dtype=object),
             "value": np.asarray(r["value"], dtype=float)}
        for c in label_cols:
            v = r.get(c)
            d[c] = np.full(n, v, dtype=object) if v is not None else np.full(n, None, dtype=object)
        parts.append(pl.DataFrame(d, schema_overrides={c: pl.Utf8 for c in label_cols + ["metric"]}))
    df = pl.concat(parts, how="vertical")
    return df.with_columns(pl.col("timestamp").dt.replace_time_zone("UTC"))
