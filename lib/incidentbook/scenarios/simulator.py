"""A deterministic simulator of incidents, as incident folders: the framework.

The workbook needs incidents whose answer is known: `synthesize` writes an incident folder
(incident.yaml, metrics/*.parquet, logs/) that looks like what the real exporters and hosts
would have recorded, plus truth.json, the list of what was planted and when. Analysis is
then tested against truth.json, and benchmarks run on the full-scale variant. This module
is the framework (the scrape grid, metric blocks, kernel logs, writing, `synthesize`);
each scenario is a module of its own (smollm3_storage, imbue_bringup), registered in
SCENARIOS at the end.

    synthesize("smollm3-storage", Path("data/incidents/smollm3-storage"))      # small, seed 0

Same (scenario, scale, seed) -> byte-identical files: every random draw comes from one
numpy generator seeded by `seed` (or, for data generated chunk by chunk, from a generator
seeded by (seed, stream, chunk)), times come from the scenario, never from the clock.

Metrics are long format, one row per sample, each row group one metric's samples sorted
by timestamp then labels, with min/max statistics on the metric and the time, so a scan of
one metric or a time window skips whole row groups. They are written with pyarrow from
dictionary-encoded label columns (a 24-hour, 511-host day is ~180M rows, generated and
written a few hundred timestamps at a time), without the Arrow schema so that readers see
plain strings.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentSpec
from incidentbook.registry import Registry, instance_of
from incidentbook.scenarios import kernel_lines as kl

# The name truth.json records: kept from before the simulator moved, so that the bundled
# folders and earlier outputs are still recognised (and may be overwritten) as its own.
GENERATOR = "incidentbook.synth"
LABELS = ("node", "gpu", "device", "port", "cpu", "mountpoint", "fstype", "name", "job")
ROW_GROUP = 100_000
CHUNK = 240  # timestamps generated and written at a time: bounds memory at full scale
Scale = Literal["small", "full", "16k"]
# small folders ship in the repo; full ones should be quick to write
ZSTD = {"small": 19, "full": 6, "16k": 6}
# 16k: a scenario's full day on 2,048 hosts x 8 GPUs, for the scenarios that have it
SCALES = ("small", "full", "16k")
Say = Callable[[str], None]


class SynthError(IncidentbookError):
    """The simulator was asked for something it cannot do."""


class UnknownScenario(SynthError):
    def __init__(self, name: str):
        super().__init__(
            f"unknown scenario {name!r}; known scenarios: {', '.join(sorted(SCENARIOS))}"
        )


class OutputNotEmpty(SynthError):
    """The output folder holds something that is not an earlier simulator output."""


# --- time and events --------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """The scrape times: n samples `interval` seconds apart from `start`; the window ends
    one interval after the last sample."""

    start: datetime
    interval: int
    n: int

    @property
    def t(self) -> np.ndarray:
        """Seconds since the window's start, one per sample."""
        return np.arange(self.n, dtype=np.int64) * self.interval

    @property
    def us(self) -> np.ndarray:
        return (int(self.start.timestamp()) + self.t) * 1_000_000

    @property
    def seconds(self) -> int:
        return self.n * self.interval

    def us_at(self, s: float) -> int:
        return (int(self.start.timestamp()) * 1_000_000) + round(float(s) * 1_000_000)

    def iso(self, s: float) -> str:
        return (self.start + timedelta(seconds=float(s))).isoformat()

    def span(self, a: float, b: float) -> dict[str, str]:
        return {"start": self.iso(a), "end": self.iso(b)}


def _place(
    rng: np.random.Generator,
    durations: list[int],
    lo: int,
    hi: int,
    gap: int,
    taken: list[tuple[int, int]] = (),
    late: bool = False,
) -> list[tuple[int, int]]:
    """Non-overlapping [start, end) spans of the given durations inside [lo, hi), each at
    least `gap` seconds from the others and from `taken`. `late` favours later starts
    (evictions grow more frequent as the filesystem fills)."""
    busy, out = list(taken), []
    for d in durations:
        for _ in range(2000):
            u = rng.random()
            s = lo + int((hi - d - lo) * (np.sqrt(u) if late else u))
            if all(s >= e + gap or s + d + gap <= b for b, e in busy):
                break
        else:
            raise SynthError(f"cannot place {len(durations)} events of ~{d} s in the window")
        busy.append((s, s + d))
        out.append((s, s + d))
    return out


def _inside(t: np.ndarray, spans: list[tuple[int, int]]) -> np.ndarray:
    """Which samples fall inside any span: what an instantaneous gauge sees."""
    hit = np.zeros(t.shape, dtype=bool)
    for a, b in spans:
        hit |= (t >= a) & (t < b)
    return hit


def _coverage(t: np.ndarray, interval: int, a: float, b: float) -> np.ndarray:
    """The fraction of each scrape interval (t - interval, t] inside [a, b): what a counter's
    increment over that interval integrates."""
    return np.clip(np.minimum(b, t) - np.maximum(a, t - interval), 0, interval) / interval


def _ema(x: np.ndarray, alpha: float, first: np.ndarray | float | None = None) -> np.ndarray:
    """Exponential smoothing along the last axis: thermal lag, the load average's decay."""
    out = np.empty_like(x, dtype=float)
    acc = x[..., 0] if first is None else first
    for i in range(x.shape[-1]):
        acc = acc + alpha * (x[..., i] - acc)
        out[..., i] = acc
    return out


def _counter(start: np.ndarray, increments: np.ndarray) -> np.ndarray:
    """A cumulative counter as an exporter reads it: start, then start plus each interval's
    increments (the first sample has no increment before it)."""
    inc = np.concatenate([np.zeros((increments.shape[0], 1)), increments[:, 1:]], axis=1)
    return start[:, None] + np.cumsum(inc, axis=1)


# --- the incident being built -----------------------------------------------------------


@dataclass
class Block:
    """One metric: its series' labels and their values, (series, time), NaN = no sample.

    `values` is an array, or a function of (first, last) sample index returning that slice,
    for data too large to hold at once.
    """

    metric: str
    series: list[dict[str, str]]
    values: np.ndarray | Callable[[int, int], np.ndarray]

    def chunk(self, i0: int, i1: int) -> np.ndarray:
        if callable(self.values):
            return self.values(i0, i1)
        return self.values[:, i0:i1]


class KernLog:
    """One host's kernel messages, collected in any order, written sorted by time."""

    def __init__(self) -> None:
        self.entries: list[tuple[int, int, str, str, str]] = []

    def add(self, us: int, message: str, level: str = "info", facility: str = "kern") -> None:
        self.entries.append((int(us), len(self.entries), level, facility, message))

    def extend(self, us: int, entries: list[kl.Entry]) -> None:
        for offset, level, facility, message in entries:
            self.add(us + offset, message, level, facility)

    def noise(self, rng: np.random.Generator, lo_us: int, hi_us: int, lines: float) -> None:
        """About `lines` lines of ordinary background messages between two times."""
        n = int(rng.poisson(max(lines, 0) / kl.NOISE_LINES_PER_EVENT))
        if n == 0 or hi_us <= lo_us:
            return
        p = np.asarray(kl.NOISE_WEIGHTS) / sum(kl.NOISE_WEIGHTS)
        times = np.sort(rng.integers(lo_us, hi_us, n)).tolist()
        kinds = rng.choice(len(p), n, p=p).tolist()
        params = rng.integers(0, 2**31, (n, 3)).tolist()
        for us, kind, (a, b, c) in zip(times, kinds, params, strict=True):
            self.extend(us, kl.noise_event(kind, us, a, b, c))

    def lines(self) -> list[str]:
        self.entries.sort()
        stamps = kl.iso_times(np.array([e[0] for e in self.entries], dtype=np.int64))
        return [
            f"{kl.decode_prefix(lvl, fac)}{ts} {msg}"
            for ts, (_, _, lvl, fac, msg) in zip(stamps, self.entries, strict=True)
        ]


@dataclass
class Incident:
    spec: dict[str, Any]
    grid: Grid
    metrics: dict[str, list[Block]]
    logs: dict[str, Callable[[], list[str]]]  # built when written, one file at a time
    planted: dict[str, Any]
    extra_truth: dict[str, Any] = field(default_factory=dict)
    zstd: int = 9  # compression level: higher at small scale, where the bytes are shipped


def _spec(slug: str, title: str, grid: Grid, baseline: tuple[int, int], primary: str, **cluster):
    return {
        "id": slug,
        "title": title,
        "window": grid.span(0, grid.seconds),
        "baseline": grid.span(*baseline),
        "primary_signal": primary,
        "cluster": {**cluster, "gpus_per_node": 8, "gpu_model": "H100"},
    }


def _r(x: float, digits: int = 3) -> float:
    return round(float(x), digits)


# --- writing ----------------------------------------------------------------------------


def label_columns(series: list[dict[str, str]]) -> list[str]:
    """The file's label columns: the usual ones, then any other label its series carry
    (node_exporter's `mode` of node_cpu_seconds_total), so that no two series collide."""
    extra = sorted({k for labels in series for k in labels} - set(LABELS))
    return [*LABELS, *extra]


def _sort_key(metric: str, labels: dict[str, str], columns: list[str]) -> tuple:
    # Nulls first, as polars sorts them, so the file's order is `sort(timestamp, metric,
    # *columns)`.
    return (metric, *(((1, labels[k]) if k in labels else (0, "")) for k in columns))


def write_metrics(path: Path, blocks: list[Block], grid: Grid, level: int = 9) -> int:
    """Write blocks as one long-format Parquet file; returns the row count.

    Every row group holds one metric, its rows sorted by time then labels, and `metric`
    has min/max statistics: a reader filtering on a metric skips every other group from
    the footer alone, and a reduction per metric decodes only its own rows. A metric's
    groups hold ROW_GROUP rows each (its last one fewer) and come in time order, so group
    boundaries depend on neither the chunking nor the other metrics.
    """
    series = [(b.metric, s) for b in blocks for s in b.series]
    names = label_columns([s for _, s in series])
    order = sorted(range(len(series)), key=lambda k: _sort_key(*series[k], names))
    dict_type = pa.dictionary(pa.int32(), pa.string())
    fields = [("timestamp", pa.timestamp("us", tz="UTC")), ("metric", dict_type)]
    schema = pa.schema([*fields, ("value", pa.float64()), *((lab, dict_type) for lab in names)])
    # Each column's dictionary, and each series' code in it (-1: the label does not apply).
    columns = {"metric": [series[k][0] for k in order]}
    columns |= {lab: [series[k][1].get(lab) for k in order] for lab in names}
    encoded = {}
    for col, values in columns.items():
        known = sorted({v for v in values if v is not None})
        index = {v: j for j, v in enumerate(known)}
        codes = np.array([index.get(v, -1) for v in values], dtype=np.int32)
        encoded[col] = (pa.array(known, pa.string()), codes if len(known) else None)
    # Each metric's series are contiguous in `order` (sorted by metric first).
    metric_of = columns["metric"]
    bounds = [k for k in range(len(order)) if k == 0 or metric_of[k] != metric_of[k - 1]]
    segments = list(zip(bounds, [*bounds[1:], len(order)], strict=True))
    # store_schema=False: without the Arrow schema a reader sees plain UTF-8 strings (polars:
    # pl.String), not the dictionary type used here to write 100M+ rows cheaply. Statistics
    # only where they prune: the metric (one per group), the time; the labels' min/max
    # would span every group, and computing them costs a third of the time.
    writer = pq.ParquetWriter(
        path,
        schema,
        compression="zstd",
        compression_level=level,
        store_schema=False,
        write_statistics=["timestamp", "metric", "value"],
    )
    rows = 0
    pending: dict[int, pa.Table] = {}  # a metric's rows not yet in a whole row group
    for i0 in range(0, grid.n, CHUNK):
        i1 = min(grid.n, i0 + CHUNK)
        chunk = np.concatenate([b.chunk(i0, i1) for b in blocks], axis=0)[order]
        for a, b in segments:
            table = _metric_table(chunk[a:b], (a, b), encoded, grid.us[i0:i1], schema)
            rows += table.num_rows
            table = pa.concat_tables([pending[a], table]) if a in pending else table
            full = table.num_rows // ROW_GROUP * ROW_GROUP
            if full:
                writer.write_table(table.slice(0, full), row_group_size=ROW_GROUP)
            pending[a] = table.slice(full)
    for a, _ in segments:
        if a in pending and pending[a].num_rows:
            writer.write_table(pending[a], row_group_size=ROW_GROUP)
    writer.close()
    return rows


def _metric_table(
    values: np.ndarray,
    segment: tuple[int, int],
    encoded: dict[str, tuple[pa.Array, np.ndarray | None]],
    stamps_us: np.ndarray,
    schema: pa.Schema,
) -> pa.Table:
    """One metric's samples of a chunk of times: rows by time, then by series (labels)."""
    values = values.T  # (time, series)
    keep = ~np.isnan(values).ravel()
    n_t, n_s = values.shape
    n = int(keep.sum())
    a, b = segment
    labelled = []  # metric, then the labels
    for dictionary, codes in encoded.values():
        if codes is None:
            indices = pa.nulls(n, pa.int32())
        else:
            c = np.tile(codes[a:b], n_t)[keep]
            indices = pa.array(c, pa.int32(), mask=c < 0 if (c < 0).any() else None)
        labelled.append(pa.DictionaryArray.from_arrays(indices, dictionary))
    stamps = pa.array(np.repeat(stamps_us, n_s)[keep], pa.timestamp("us", tz="UTC"))
    value = pa.array(values.ravel()[keep], pa.float64())
    return pa.Table.from_arrays([stamps, labelled[0], value, *labelled[1:]], schema=schema)


def _write(incident: Incident, folder: Path, truth: dict[str, Any], say: Say) -> None:
    IncidentSpec.model_validate(incident.spec)  # never write a folder the workbook rejects
    (folder / "metrics").mkdir()
    for name, blocks in incident.metrics.items():
        rows = write_metrics(folder / "metrics" / name, blocks, incident.grid, incident.zstd)
        say(f"metrics/{name}: {rows:,} rows")
    count = 0
    for rel, log in sorted(incident.logs.items()):
        lines = log()
        path = folder / "logs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        count += len(lines)
    say(f"logs: {count:,} lines in {len(incident.logs)} files")
    header = (
        f"# Simulated by {GENERATOR}: scenario {truth['scenario']}, scale {truth['scale']}, "
        f"seed {truth['seed']}.\n# truth.json lists what was planted.\n"
    )
    text = header + yaml.safe_dump(incident.spec, sort_keys=False)
    (folder / "incident.yaml").write_text(text, encoding="utf-8")
    # Written last: its presence marks a complete simulator output that may be overwritten.
    (folder / "truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")


# What the simulator owns in its output. truth.json, the marker, goes last when an old output
# is removed and comes last when the new one moves in, so an interrupted replacement still
# reads as a simulator output and may be overwritten again.
OWNED = ("metrics", "logs", "incident.yaml", "truth.json")


def is_synth_output(folder: Path) -> bool:
    try:
        truth = json.loads((folder / "truth.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(truth, dict) and truth.get("generator") == GENERATOR


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputNotEmpty(f"{out} is a file; give a folder to write the incident into")
    if out.is_dir() and any(out.iterdir()) and not is_synth_output(out):
        raise OutputNotEmpty(
            f"{out} is not empty and is not an earlier simulator output (no truth.json from "
            f"{GENERATOR}); refusing to write into it. Choose a new or empty folder."
        )


def synthesize(
    scenario: str,
    out: Path | str,
    scale: Scale = "small",
    seed: int = 0,
    progress: Say | None = None,
) -> Path:
    """Write the scenario's incident folder at `out` and return its path.

    `out` must be missing, empty, or an earlier simulator output (which is replaced; other
    files a person added to it are kept). The folder is built beside `out` and moved in
    only when complete, so a failure leaves `out` as it was.
    """
    if scenario not in SCENARIOS:
        raise UnknownScenario(scenario)
    if scale not in SCALES:
        raise SynthError(f"unknown scale {scale!r}; one of {', '.join(SCALES)}")
    if scale not in SCENARIOS.get(scenario).scales:
        raise SynthError(
            f"scenario {scenario!r} has no {scale} scale; "
            f"its scales: {', '.join(SCENARIOS.get(scenario).scales)}"
        )
    out = Path(out)
    _check_target(out)
    say = progress or (lambda _msg: None)
    say(f"{scenario}: simulating ({scale} scale, seed {seed})")
    incident = SCENARIOS.get(scenario).build(int(seed), scale)
    truth = {
        "generator": GENERATOR,
        "scenario": scenario,
        "seed": int(seed),
        "scale": scale,
        "interval_seconds": incident.grid.interval,
        "window": incident.spec["window"],
        "baseline": incident.spec["baseline"],
        **incident.extra_truth,
        "planted": incident.planted,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.synth-", dir=out.parent))
    umask = os.umask(0)
    os.umask(umask)
    tmp.chmod(0o777 & ~umask)  # mkdtemp's 0700 would otherwise stay on the output
    try:
        _write(incident, tmp, truth, say)
        if out.is_dir():
            for name in OWNED:
                target = out / name
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
            for name in OWNED:
                (tmp / name).rename(out / name)
        else:
            tmp.rename(out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    say(f"{scenario}: wrote {out}")
    return out


# --- the registry -----------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A simulated incident: `build(seed, scale)` plans it (synthesize writes it)."""

    name: str
    summary: str
    build: Callable[[int, Scale], Incident]
    scored: bool = False  # its truth.json says what an analysis should find (`cause`)
    bundled: bool = False  # its small folder ships in data/incidents/
    scales: tuple[str, ...] = ("small", "full")


SCENARIOS: Registry[Scenario] = Registry(
    "scenario",
    "incidentbook.scenarios",
    {
        "smollm3-storage": "incidentbook.scenarios.smollm3_storage:SCENARIO",
        "smollm3-storage-trainer-log": (
            "incidentbook.scenarios.smollm3_storage:TRAINER_LOG_SCENARIO"
        ),
        "imbue-bringup": "incidentbook.scenarios.imbue_bringup:SCENARIO",
        "thermal-throttle": "incidentbook.scenarios.thermal_throttle:SCENARIO",
        "slow-gpu": "incidentbook.scenarios.slow_gpu:SCENARIO",
        "checkpoint-stalls": "incidentbook.scenarios.checkpoint_stalls:SCENARIO",
        "ib-port-flap": "incidentbook.scenarios.ib_port_flap:SCENARIO",
        "row-remap-crash": "incidentbook.scenarios.row_remap_crash:SCENARIO",
        "pcie-downtrain": "incidentbook.scenarios.pcie_downtrain:SCENARIO",
        "nvlink-errors": "incidentbook.scenarios.nvlink_errors:SCENARIO",
        "host-oom": "incidentbook.scenarios.host_oom:SCENARIO",
        "cpu-capped": "incidentbook.scenarios.cpu_capped:SCENARIO",
        "power-cap": "incidentbook.scenarios.power_cap:SCENARIO",
        "fabric-congestion": "incidentbook.scenarios.fabric_congestion:SCENARIO",
        "ib-link-width": "incidentbook.scenarios.ib_link_width:SCENARIO",
        "quiet-day": "incidentbook.scenarios.quiet_day:SCENARIO",
        "noisy-day": "incidentbook.scenarios.noisy_day:SCENARIO",
    },
    check=instance_of(Scenario),
)
"""Scenario name -> Scenario. A new scenario is a module beside these two with a SCENARIO,
and one line here (or an entry point in the group `incidentbook.scenarios`)."""
