"""How values, times and spans read in every sentence, table and chart incidentbook writes.

One home for the formatters, so a finding's summary, a chart's tooltip and the drafted
record say "39.4 ms" and "for 8 min (08:46-08:54 UTC)" the same way.
"""

from __future__ import annotations

from datetime import UTC, datetime


def format_value(value: float, unit: str, *, compact: bool = False) -> str:
    """A value with its unit as a person would write it: `39.4 ms`, `2.10 GHz`, `95.1%`.

    `compact` is for chart labels: three significant digits with an SI prefix for large
    values (`13.4k tokens/s`), the unit as the pack names it.
    """
    if compact:
        return _compact(value, unit)
    if unit == "s" and abs(value) < 1:
        return f"{value * 1000:,.1f} ms"
    if unit == "ratio":
        return f"{value:.1%}"
    if unit == "Hz" and abs(value) >= 1e6:
        return f"{value / 1e9:.2f} GHz" if abs(value) >= 1e9 else f"{value / 1e6:,.0f} MHz"
    if abs(value) >= 100:
        return f"{value:,.0f}{' ' + unit if unit else ''}"
    return f"{value:,.3g}{' ' + unit if unit else ''}"


def _compact(value: float, unit: str) -> str:
    if unit == "ratio":
        return f"{value:.1%}"
    if unit == "s" and abs(value) < 1:
        return f"{value * 1000:.3g} ms"
    if unit == "Hz" and abs(value) >= 1e6:
        return format_value(value, unit)
    size = abs(value)
    if size >= 1e4:
        for factor, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
            if size >= factor:
                text = f"{value / factor:.3g}{suffix}"
                break
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}".strip()


def format_span(start: datetime, end: datetime, *, style: str = "duration") -> str:
    """A span of time in words.

    duration: how long and when, `for 8 min (08:46-08:54 UTC)` (seconds under two
    minutes, hours over two); window: from and to, `2025-03-14 08:00 to 14:00 UTC` (the
    end's date only when it is another day).
    """
    if style == "window":
        tail = f"{end:%H:%M}" if start.date() == end.date() else f"{end:%Y-%m-%d %H:%M}"
        return f"{start:%Y-%m-%d %H:%M} to {tail} UTC"
    seconds = (end - start).total_seconds()
    if seconds < 120:
        return f"for {seconds:.0f} s ({start:%H:%M:%S}-{end:%H:%M:%S} UTC)"
    length = f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"
    return f"for {length} ({start:%H:%M}-{end:%H:%M} UTC)"


def format_time(when: datetime) -> str:
    """A moment to the minute: `2025-03-14 08:00 UTC`."""
    return f"{when:%Y-%m-%d %H:%M} UTC"


def format_moment(when: datetime) -> str:
    """A moment as a person reads it: `2025-03-14 09:17 UTC`, with seconds only when it
    is not on the minute (`2025-03-14 12:41:35 UTC`), never microseconds."""
    when = when.astimezone(UTC) if when.tzinfo else when
    clock = "%H:%M" if when.second == 0 and when.microsecond == 0 else "%H:%M:%S"
    return f"{when:%Y-%m-%d} {when.strftime(clock)} UTC"


def format_lag(seconds: float, what: str = "the symptom") -> str:
    """How far a signal's onset is from the symptom's: negative leads. `1 min before the
    symptom`, `30 s after the symptom`, `with the symptom`."""
    if abs(seconds) < 1:
        return f"with {what}"
    size = abs(seconds)
    amount = f"{size / 60:.0f} min" if size >= 120 else f"{size:.0f} s"
    return f"{amount} {'before' if seconds < 0 else 'after'} {what}"


def listing(items: list[str], most: int = 5) -> str:
    """`a, b, c, d, e and 3 more`."""
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def lower_label(label: str) -> str:
    """A label inside a sentence: 'GPU temperature' stays, 'Disk read latency' is lowered."""
    first = label.split(" ", 1)[0]
    return label if any(ch.isupper() for ch in first[1:]) else label[:1].lower() + label[1:]


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 host`, `3 hosts`: a count with its noun in the right number."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


KIND_NOUNS: dict[str, tuple[str, str]] = {
    "drop": ("drop", "drops"),
    "spike": ("spike", "spikes"),
    "level_shift": ("level shift", "level shifts"),
    "trend": ("trend", "trends"),
    "outlier_host": ("host out of line with its peers", "hosts out of line with their peers"),
    "failure_rate": ("failure rate above normal", "failure rates above normal"),
    "signature": ("known error signature", "known error signatures"),
    "new_template": ("new kind of log line", "new kinds of log line"),
    "straggler": ("straggler", "stragglers"),
    "events": ("burst of events", "bursts of events"),
    "loss_spike": ("loss spike", "loss spikes"),
    "grad_norm_spike": ("gradient-norm spike", "gradient-norm spikes"),
    "loss_scale_collapse": ("loss-scale collapse", "loss-scale collapses"),
    "skipped_iterations": ("run of skipped iterations", "runs of skipped iterations"),
    "nan_iterations": ("run of NaN iterations", "runs of NaN iterations"),
    "restart": ("restart", "restarts"),
    "stall": ("stall", "stalls"),
}
"""How a finding kind reads in a sentence, one and many (the record keeps the kind names)."""


def kind_noun(kind: str) -> str:
    """A finding kind as one reads it: `level shift`, `known error signature`."""
    return KIND_NOUNS.get(kind, (kind.replace("_", " "),))[0]


def kinds_counted(counts: dict[str, int]) -> str:
    """`28 drops, 15 spikes and 1 known error signature`: most first, then by name."""
    parts = [
        counted(n, *KIND_NOUNS.get(kind, (kind.replace("_", " "), None)))
        for kind, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1] if parts else ""
