"""Shared helpers for the two INC8 incident generators (no dependency on the tool)."""
import math
import os
import uuid
from datetime import datetime, timezone, timedelta
from decimal import Decimal

import numpy as np

UTC = timezone.utc


def ts(s):
    """RFC 3339 string -> epoch seconds (float)."""
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def dt(t):
    return datetime.fromtimestamp(t, tz=UTC)


def go_g(x):
    """Format a float like Go's strconv.FormatFloat(x, 'g', -1, 64) (what promtool prints)."""
    x = float(x)
    if x == 0:
        return "0"
    if math.isnan(x):
        return "NaN"
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exp += 1
    nd = len(digits)
    e10 = nd + exp - 1
    s = "-" if sign else ""
    ds = "".join(str(v) for v in digits)
    if e10 < -4 or e10 >= 21 or e10 >= 6:
        mant = ds[0] + ("." + ds[1:] if nd > 1 else "")
        return f"{s}{mant}e{'+' if e10 >= 0 else '-'}{abs(e10):02d}"
    if exp >= 0:
        return s + ds + "0" * exp
    point = nd + exp
    if point > 0:
        return s + ds[:point] + "." + ds[point:]
    return s + "0." + "0" * (-point) + ds


def fmt_labels_prom(labels):
    # promtool CondensedString(): sorted by name, `{a="b",c="d"}` (no space after commas)
    items = sorted(labels.items())
    return "{" + ",".join(f'{k}="{v}"' for k, v in items) + "}"


def write_openmetrics(path, series):
    """series: list of (name, labels, times[], values[]) -> promtool tsdb dump-openmetrics style."""
    keyed = []
    for name, labels, t, v in series:
        keyed.append((name + fmt_labels_prom(labels), name, labels, t, v))
    keyed.sort(key=lambda k: k[0])
    with open(path, "w") as f:
        for _, name, labels, t, v in keyed:
            lab = fmt_labels_prom(labels)
            lines = [f"{name}{lab} {go_g(val)} {tt:.3f}\n" for tt, val in zip(t, v)]
            f.writelines(lines)
        f.write("# EOF\n")


def scrape_times(rng, start, end, interval, offset=None, jitter_ms=4.0):
    if offset is None:
        offset = rng.uniform(0, interval)
    first = math.floor(start / interval) * interval + offset
    if first < start:
        first += interval
    n = int((end - first) // interval) + 1
    t = first + interval * np.arange(n)
    t = t + rng.normal(0, jitter_ms / 1000.0, n)
    t = np.round(t, 3)
    return t[(t >= start) & (t <= end)]


def gpu_uuid(rng):
    return "GPU-" + str(uuid.UUID(bytes=bytes(rng.integers(0, 256, 16, dtype=np.uint8)), version=4))


def syslog_stamp(t):
    d = dt(t)
    return d.strftime("%b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S")


def dmesg_T_stamp(t):
    d = dt(t)
    return d.strftime("%a %b ") + f"{d.day:2d}" + d.strftime(" %H:%M:%S %Y")


def ema(x, alpha):
    y = np.empty_like(x, dtype=float)
    acc = x[0]
    for i, v in enumerate(x):
        acc = acc + alpha * (v - acc)
        y[i] = acc
    return y


def counter_from_rate(t, rate, start_value):
    """Integrate a per-second rate sampled at times t into a monotonically rising counter."""
    dtv = np.diff(t, prepend=t[0])
    inc = np.clip(rate, 0, None) * dtv
    return start_value + np.cumsum(inc)
