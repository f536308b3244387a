"""A deterministic simulator of the library's two incidents, as incident folders.

The workbook needs incidents whose answer is known: `synthesize` writes an incident folder
(incident.yaml, metrics/*.parquet, logs/) that looks like what the real exporters and hosts
would have recorded, plus truth.json, the list of what was planted and when. Analysis is
then tested against truth.json, and benchmarks run on the full-scale variant.

    synthesize("smollm3-storage", Path("data/incidents/smollm3-storage"))      # small, seed 0

Same (scenario, scale, seed) -> byte-identical files: every random draw comes from one
numpy generator seeded by `seed` (or, for data generated chunk by chunk, from a generator
seeded by (seed, stream, chunk)), times come from the scenario, never from the clock.

Metrics are long format, one row per sample, sorted by timestamp then metric and labels,
so a scan of a time window skips whole row groups. They are written with pyarrow from
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
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentSpec
from incidentbook.scenarios import kernel_lines as kl

GENERATOR = "incidentbook.synth"
LABELS = ("node", "gpu", "device", "port", "cpu", "mountpoint", "fstype", "name", "job")
ROW_GROUP = 100_000
CHUNK = 240  # timestamps generated and written at a time: bounds memory at full scale
Scale = Literal["small", "full"]
ZSTD = {"small": 19, "full": 6}  # small folders ship in the repo; full ones should be quick
SCALES = ("small", "full")
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


def _sort_key(metric: str, labels: dict[str, str]) -> tuple:
    # Nulls first, as polars sorts them, so the file's order is `sort(timestamp, metric,
    # *LABELS)`.
    return (metric, *(((1, labels[k]) if k in labels else (0, "")) for k in LABELS))


def write_metrics(path: Path, blocks: list[Block], grid: Grid, level: int = 9) -> int:
    """Write blocks as one long-format Parquet file, sorted by time; returns the row count."""
    series = [(b.metric, s) for b in blocks for s in b.series]
    order = sorted(range(len(series)), key=lambda k: _sort_key(*series[k]))
    dict_type = pa.dictionary(pa.int32(), pa.string())
    fields = [("timestamp", pa.timestamp("us", tz="UTC")), ("metric", dict_type)]
    schema = pa.schema([*fields, ("value", pa.float64()), *((lab, dict_type) for lab in LABELS)])
    # Each column's dictionary, and each series' code in it (-1: the label does not apply).
    columns = {"metric": [series[k][0] for k in order]}
    columns |= {lab: [series[k][1].get(lab) for k in order] for lab in LABELS}
    encoded = {}
    for col, values in columns.items():
        known = sorted({v for v in values if v is not None})
        index = {v: j for j, v in enumerate(known)}
        codes = np.array([index.get(v, -1) for v in values], dtype=np.int32)
        encoded[col] = (pa.array(known, pa.string()), codes if len(known) else None)
    # store_schema=False: without the Arrow schema a reader sees plain UTF-8 strings (polars:
    # pl.String), not the dictionary type used here to write 100M+ rows cheaply. Statistics
    # only where they prune: every row group holds all series of a few timestamps, so the
    # labels' min/max would span everything, and computing them costs a third of the time.
    writer = pq.ParquetWriter(
        path,
        schema,
        compression="zstd",
        compression_level=level,
        store_schema=False,
        write_statistics=["timestamp", "value"],
    )
    rows, pending = 0, None
    for i0 in range(0, grid.n, CHUNK):
        i1 = min(grid.n, i0 + CHUNK)
        values = np.concatenate([b.chunk(i0, i1) for b in blocks], axis=0)[order].T
        keep = ~np.isnan(values).ravel()
        n_t, n_s = values.shape
        n = int(keep.sum())
        labelled = []  # metric, then the labels
        for dictionary, codes in encoded.values():
            if codes is None:
                indices = pa.nulls(n, pa.int32())
            else:
                c = np.tile(codes, n_t)[keep]
                indices = pa.array(c, pa.int32(), mask=c < 0 if (codes < 0).any() else None)
            labelled.append(pa.DictionaryArray.from_arrays(indices, dictionary))
        stamps = pa.array(np.repeat(grid.us[i0:i1], n_s)[keep], pa.timestamp("us", tz="UTC"))
        value = pa.array(values.ravel()[keep], pa.float64())
        table = pa.Table.from_arrays([stamps, labelled[0], value, *labelled[1:]], schema=schema)
        pending = table if pending is None else pa.concat_tables([pending, table])
        # Whole row groups only, so group boundaries do not depend on the chunking.
        full = pending.num_rows // ROW_GROUP * ROW_GROUP
        if full:
            writer.write_table(pending.slice(0, full), row_group_size=ROW_GROUP)
            pending = pending.slice(full)
        rows += n
    if pending is not None and pending.num_rows:
        writer.write_table(pending, row_group_size=ROW_GROUP)
    writer.close()
    return rows


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
    out = Path(out)
    _check_target(out)
    say = progress or (lambda _msg: None)
    say(f"{scenario}: simulating ({scale} scale, seed {seed})")
    incident = SCENARIOS[scenario].build(int(seed), scale)
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


# --- smollm3-storage --------------------------------------------------------------------
# 48 nodes x 8 H100 on shared WekaFS near capacity: cache evictions stall the dataloader
# (sharp throughput drops led by read-latency spikes on most nodes), while nanosets' index,
# growing with the step count, slowly lengthens every step.

SMOLLM3 = {
    "small": {"minutes": 360, "interval": 30, "drops": (6, 8), "decoys": 5, "noise": 4},
    "full": {"minutes": 1440, "interval": 15, "drops": (15, 25), "decoys": 14, "noise": 40},
}
SMOLLM3_START = datetime(2025, 3, 14, 8, tzinfo=UTC)
SEQ, GBS_SEQS, WORLD = 4096, 576, 384
TOKENS_PER_GPU_STEP = SEQ * GBS_SEQS // WORLD  # 6,144: a 2.36M-token batch over 384 GPUs
DATALOADER_START_S, DATALOADER_END_S = 0.05, 0.18
FS_SIZE = 300 * 2**40  # the WekaFS filesystem, bytes


def smollm3_hosts() -> list[str]:
    return [f"ip-26-0-{161 + i // 16}-{1 + 16 * (i % 16)}" for i in range(48)]


def _eviction_drops(rng, grid: Grid, base_end: int, count: tuple[int, int]) -> list[tuple]:
    """(start, end, depth) of each drop: the first within an hour of the baseline's end,
    the rest more frequent as the filesystem fills."""
    durations = [int(d) for d in rng.integers(120, 601, int(rng.integers(count[0], count[1] + 1)))]
    spans = _place(rng, durations[:1], base_end + 300, base_end + 3600, 600)
    spans += _place(rng, durations[1:], base_end + 300, grid.seconds - 900, 600, spans, late=True)
    return [(a, b, _r(rng.uniform(0.40, 0.85))) for a, b in sorted(spans)]


def _training_run(rng, grid: Grid, drops: list[tuple]) -> dict[str, Any]:
    """Throughput per GPU, step time and dataloader time, stepped forward in time because
    the dataloader's cost grows with the step count, which depends on the throughput so far.
    During a drop the GPUs wait for data: throughput falls to (1 - depth) of the baseline."""
    t, n = grid.t, grid.n
    base = float(rng.uniform(13_600, 13_900))
    compute = TOKENS_PER_GPU_STEP / base - DATALOADER_START_S
    mean_step = compute + (DATALOADER_START_S + DATALOADER_END_S) / 2
    slope = (DATALOADER_END_S - DATALOADER_START_S) / (grid.seconds / mean_step)
    depth = np.full(n, np.nan)
    for a, b, d in drops:
        depth[(t >= a) & (t < b)] = d
    noise = rng.normal(0, 0.006, n)
    dl, tps, trend, steps = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    done = 0.0
    for i in range(n):
        steps[i], dl[i] = done, DATALOADER_START_S + slope * done
        trend[i] = TOKENS_PER_GPU_STEP / (compute + dl[i])
        stalled = base * (1 - depth[i]) * (1 + 5 * noise[i])
        tps[i] = (trend[i] if np.isnan(depth[i]) else stalled) * (1 + noise[i])
        done += grid.interval * tps[i] / TOKENS_PER_GPU_STEP
    tps = np.round(tps, 1)
    return {
        "base": base,
        "tps": tps,
        "trend": trend,
        "steps": steps,
        "dl": dl,
        "step_time": np.round(TOKENS_PER_GPU_STEP / tps, 4),
        "dl_seen": np.round(dl * (1 + rng.normal(0, 0.03, n)), 4),
    }


def _weka_reads(rng, grid: Grid, hosts: list[str], drops: list[tuple]) -> tuple[list, list]:
    """Read counters of the shared filesystem. Each eviction episode starts up to a minute
    before its drop on 70-100% of nodes and ends about when throughput recovers; counters
    integrate the part of each scrape interval that the episode covers."""
    t, n, dt, nodes = grid.t, grid.n, grid.interval, len(hosts)
    spikes, cover, level = [], np.zeros((nodes, n)), np.zeros((nodes, n))
    for a, b, _ in drops:
        s, e = a - int(rng.integers(0, 61)), b + int(rng.integers(-30, 31))
        hit = np.sort(rng.choice(nodes, round(float(rng.uniform(0.7, 1.0)) * nodes), replace=False))
        peak = float(rng.uniform(20, 200))
        spikes.append({**grid.span(s, e), "hosts": [hosts[h] for h in hit], "peak_ms": _r(peak, 1)})
        frac = _coverage(t, dt, s, e)
        cover[hit] = np.maximum(cover[hit], frac)
        level[hit] = np.where(frac > 0, peak * rng.uniform(0.5, 1.0, (len(hit), 1)), level[hit])
    rate = rng.uniform(1200, 2200, (nodes, 1)) * (1 + rng.normal(0, 0.05, (nodes, n)))
    normal, stalled = rate * dt * (1 - cover), rate * 0.25 * dt * cover  # stalled reads crawl
    normal_ms = rng.uniform(0.5, 0.9, (nodes, 1)) * rng.lognormal(0, 0.12, (nodes, n))
    spike_ms = level * rng.uniform(0.8, 1.0, (nodes, n))
    reads = rng.poisson(normal + stalled).astype(float)
    ms = np.rint(reads * (normal * normal_ms + stalled * spike_ms) / (normal + stalled))
    reads0 = rng.integers(20_000_000, 90_000_000, nodes).astype(float)
    labels = [{"node": h, "device": "weka0"} for h in hosts]
    return spikes, [
        Block("node_disk_reads_completed_total", labels, _counter(reads0, reads)),
        Block(
            "node_disk_read_time_seconds_total", labels, _counter(np.rint(reads0 * 0.7), ms) / 1e3
        ),
    ]


def _weka_capacity(rng, grid: Grid, hosts: list[str]) -> tuple[dict, list]:
    """The shared filesystem filling from 90% to 97.5%, unevenly (checkpoints, cache fills),
    seen the same by every node."""
    fill = np.cumsum(rng.gamma(0.5, 1.0, grid.n))
    used = 0.90 + 0.075 * (fill - fill[0]) / (fill[-1] - fill[0])
    avail = np.floor(FS_SIZE * (1 - used) / 4096) * 4096
    labels = [{"node": h, "mountpoint": "/fsx", "fstype": "wekafs"} for h in hosts]
    ratio = {"start": _r(1 - avail[0] / FS_SIZE, 4), "end": _r(1 - avail[-1] / FS_SIZE, 4)}
    return ratio, [
        Block("node_filesystem_size_bytes", labels, np.full((len(hosts), grid.n), float(FS_SIZE))),
        Block("node_filesystem_avail_bytes", labels, np.tile(avail, (len(hosts), 1))),
    ]


def _decoy_load(rng, grid: Grid, hosts: list[str], drops: list[tuple], count: int):
    """node_load1 with spikes on a few nodes at times at least ten minutes from any drop:
    something for a correlation ranking to reject."""
    t, nodes = grid.t, len(hosts)
    runnable = rng.uniform(10, 18, (nodes, 1)) + rng.normal(0, 1.5, (nodes, grid.n))
    spans = _place(
        rng,
        [int(d) for d in rng.integers(180, 601, count)],
        600,
        grid.seconds - 600,
        600,
        [(a, b) for a, b, _ in drops],
    )
    decoys = []
    for a, b in sorted(spans):
        hit = np.sort(rng.choice(nodes, int(rng.integers(1, 7)), replace=False))
        runnable[np.ix_(hit, np.flatnonzero((t >= a) & (t < b)))] += rng.uniform(60, 150)
        decoys.append({**grid.span(a, b), "hosts": [hosts[h] for h in hit]})
    load = np.round(_ema(runnable, 1 - np.exp(-grid.interval / 60)), 2)  # a 1-minute average
    return decoys, Block("node_load1", [{"node": h} for h in hosts], load)


def _starved_gpus(rng, grid: Grid, hosts: list[str], run: dict) -> list[Block]:
    """GPUs waiting for data: utilisation falls with throughput, power follows at once,
    temperature with a lag."""
    gpus = [{"node": h, "gpu": str(g)} for h in hosts for g in range(8)]
    shape = (len(gpus), grid.n)
    ratio = np.clip(run["tps"] / run["trend"], 0, 1)
    util = np.clip(np.rint(96.5 * ratio + rng.normal(0, 1.0, shape)), 0, 100)
    power = 95 + (rng.uniform(560, 640, (len(gpus), 1)) - 95) * util / 100
    power = np.round(power + rng.normal(0, 8, shape), 3)
    heat = _ema(util / 100, 1 - np.exp(-grid.interval / 90))
    temp = np.rint(
        34 + (rng.uniform(58, 70, (len(gpus), 1)) - 34) * heat + rng.normal(0, 0.5, shape)
    )
    return [
        Block("DCGM_FI_DEV_GPU_UTIL", gpus, util),
        Block("DCGM_FI_DEV_GPU_TEMP", gpus, temp),
        Block("DCGM_FI_DEV_POWER_USAGE", gpus, power),
    ]


def _smollm3(seed: int, scale: Scale) -> Incident:
    p = SMOLLM3[scale]
    rng = np.random.default_rng(seed)
    grid = Grid(SMOLLM3_START, p["interval"], p["minutes"] * 60 // p["interval"])
    hosts, nodes = smollm3_hosts(), 48
    base_end = 60 * int(rng.integers(45, 61))  # a quiet first hour after launch
    drops = _eviction_drops(rng, grid, base_end, p["drops"])
    run = _training_run(rng, grid, drops)
    spikes, disk = _weka_reads(rng, grid, hosts, drops)
    fs_used, fs = _weka_capacity(rng, grid, hosts)
    decoys, load = _decoy_load(rng, grid, hosts, drops, p["decoys"])
    trainer = [{"node": hosts[0], "job": "smollm3"}]
    metrics = {
        "trainer.parquet": [
            Block("trainer_tokens_per_second", trainer, run["tps"][None, :]),
            Block("trainer_step_time_seconds", trainer, run["step_time"][None, :]),
            Block("trainer_dataloader_seconds", trainer, run["dl_seen"][None, :]),
        ],
        "node.parquet": [
            *disk,
            *fs,
            load,
            Block("up", [{"node": h, "job": "node"} for h in hosts], np.ones((nodes, grid.n))),
        ],
        "dcgm.parquet": _starved_gpus(rng, grid, hosts, run),
    }

    # Kernel logs: a little ordinary noise, and the hung-task watchdog on a node or two
    # when an eviction stalls reads for more than two minutes.
    kern = {h: KernLog() for h in hosts}
    for log in kern.values():
        log.noise(rng, grid.us_at(0), grid.us_at(grid.seconds), p["noise"])
    hung = []
    for (a, b, _), spike in zip(drops, spikes, strict=True):
        if b - a < 240:
            continue
        for h in rng.choice(spike["hosts"], int(rng.integers(1, 3)), replace=False):
            at = a + 122 + int(rng.integers(0, 30))
            us = grid.us_at(at) + int(rng.integers(0, 1_000_000))
            for level, msg in kl.hung_task("python3", int(rng.integers(20_000, 90_000))):
                kern[h].add(us, msg, level)
            hung.append({"host": str(h), "at": grid.iso(at)})
    logs = {f"{h}/kern.log": log.lines for h, log in kern.items()}
    trainer_log = _nanotron_log(rng, grid, hosts[0], run)
    logs["trainer.log"] = lambda: trainer_log

    planted = {
        "baseline_tokens_per_second": _r(run["base"], 1),
        "drops": [{**grid.span(a, b), "depth": d} for a, b, d in drops],
        "latency_spikes": spikes,
        "fs_used_ratio": fs_used,
        "dataloader_trend": {"start_s": _r(run["dl"][0], 4), "end_s": _r(run["dl"][-1], 4)},
        "decoy_spikes": decoys,
        "hung_tasks": hung,
    }
    spec = _spec(
        "smollm3-storage",
        "SmolLM3 pretraining: throughput drops on shared WekaFS storage (simulated)",
        grid,
        (0, base_end),
        "throughput",
        name="hf-smollm3",
        nodes=nodes,
    )
    extra = {"hosts": len(hosts), "rank0": hosts[0], "throughput_unit": "tokens/s per GPU"}
    return Incident(spec, grid, metrics, logs, planted, extra, ZSTD[scale])


def _human(num: float) -> str:
    """nanotron's humanised numbers: 2.35K, 634K, 85.8G, 1e-05."""
    if abs(num) < 1:
        return f"{num:.3g}"
    num, mag = float(f"{num:.3g}"), 0
    while abs(num) >= 1000 and mag < 6:
        num, mag = num / 1000, mag + 1
    return f"{num:f}".rstrip("0").rstrip(".") + ("", "K", "M", "G", "T", "P", "E")[mag]


def _nanotron_log(rng, grid: Grid, rank0: str, run: dict) -> list[str]:
    """One nanotron iteration line a minute, its numbers taken from the trainer's gauges
    (tokens_per_sec_per_gpu is the gauge; tokens_per_sec is the whole job's)."""
    total = 11 * 10**12 // (SEQ * GBS_SEQS)
    lines = []
    for i in np.flatnonzero((grid.t % 60 == 0) & (grid.t > 0)).tolist():
        it, tps = int(run["steps"][i]) + 1, float(run["tps"][i])
        tflops = _human(6 * 3.08e9 * tps / 1e12)
        fields = {
            "iteration": f"{it} / {total}",
            "consumed_tokens": _human(it * SEQ * GBS_SEQS),
            "elapsed_time_per_iteration_ms": _human(run["step_time"][i] * 1000),
            "tokens_per_sec": _human(tps * WORLD),
            "tokens_per_sec_per_gpu": _human(tps),
            "global_batch_size": str(GBS_SEQS),
            "lm_loss": _human(2.1 + 8.7 * np.exp(-it / 2500) + rng.normal(0, 0.02)),
            "lr": _human(2e-4 * min(1.0, it / 2000)),
            "model_tflops_per_gpu": tflops,
            "hardware_tflops_per_gpu": tflops,
            "grad_norm": _human(0.3 + abs(rng.normal(0, 0.05))),
        }
        when = grid.start + timedelta(seconds=int(grid.t[i]))
        body = " | ".join(f"{k}: {v}" for k, v in fields.items())
        lines.append(f"{when:%m/%d/%Y %H:%M:%S} [INFO|DP=0|PP=0|TP=0|{rank0}]: {body}")
    return lines


# --- imbue-bringup ----------------------------------------------------------------------
# 511 Dell XE9680 hosts x 8 H100 brought up together: a tenth never come up, and among the
# rest a few hosts each carry one fault (downtrained PCIe links, NVMe drives that hang the
# host, wrong temperature readings, CPUs capped at 2 GHz, flapping InfiniBand ports, Xids)
# while the first multi-node job runs and its MFU dips whenever one of them stalls it.

IMBUE = {  # job: minutes to the job's start; baseline: its first quiet minutes
    "small": dict(minutes=270, interval=90, job=45, baseline=40, bursts=(1, 3), noise=2),
    "full": dict(minutes=1440, interval=15, job=120, baseline=60, bursts=(3, 6), noise=2100),
}
IMBUE_START = datetime(2024, 5, 20, 14, tzinfo=UTC)
GPU_BUSES = (0x19, 0x3B, 0x4C, 0x5D, 0x9B, 0xBB, 0xCB, 0xDB)  # XE9680-like topology
FAILURES = (
    ("miswired or unconnected ethernet cable", 14),
    ("iDRAC hardware fault", 8),
    ("broken power supply", 6),
    ("bad NVMe drive", 7),
    ("missing internal cable", 6),
    ("GPU not detected", 5),
    ("network card not detected", 5),
)
N_FAILED = sum(c for _, c in FAILURES)
FAULTY = {"downtrained": 6, "nvme": 3, "thermal": 4, "cpu": 5, "flap": 5, "xid": 3}
FAN_MAX_RPM = 16_800.0
JOB = "first-multinode"
STREAMS = {name: k for k, name in enumerate(("util", "temp", "power", "cpu", "fan", "log"))}


def imbue_hosts() -> list[str]:
    return [f"h100-r{r:02d}-n{s:02d}" for r in range(1, 33) for s in range(1, 17)][:511]


def gpu_bdf(g: int) -> str:
    return f"0000:{GPU_BUSES[g]:02x}:00.0"


def hca(g: int) -> tuple[str, str]:
    """The InfiniBand HCA beside GPU g (mlx5_g): PCI address and IPoIB interface name."""
    bus = GPU_BUSES[g] + 4
    return f"0000:{bus:02x}:00.0", f"ibp{bus}s0"


def _flap_burst(rng, dt: int) -> list[tuple[int, int]]:
    """A port flapping a few times in a row: (down, up) offsets in seconds. The first outage
    outlasts a scrape interval so that the port-state gauge sees it."""
    out, at = [], 0
    for k in range(int(rng.integers(2, 5))):
        down = int(rng.uniform(1.2, 2.0) * dt) if k == 0 else int(rng.integers(10, 41))
        out.append((at, at + down))
        at += down + int(rng.integers(10, 41))
    return out


@dataclass
class Bringup:
    """The bring-up day's plan: who is broken, how, and when (seconds from the start)."""

    seed: int
    p: dict[str, Any]
    grid: Grid
    hosts: list[str]
    failed: list[int]  # never come up
    reasons: list[str]
    live: list[int]
    groups: dict[str, list[int]]  # fault -> hosts, disjoint
    rank0: int
    boot: np.ndarray  # per host; inf for failed hosts
    gone: np.ndarray  # the node exporter stops answering for good (NVMe hang)
    drained: np.ndarray  # the job goes on without the host
    job_start: int
    base_end: int
    dips: list[tuple[int, int, float, str, int]] = field(default_factory=list)
    xid: dict[int, tuple[int, int, int]] = field(default_factory=dict)  # host -> code, gpu, at
    outages: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    downtrained: dict[int, list[int]] = field(default_factory=dict)
    thermal: dict[int, float] = field(default_factory=dict)
    mfu_base: float = 0.0

    def present(self) -> np.ndarray:
        """(host, time): the node exporter answers, from a little after boot until a hang."""
        t = self.grid.t[None, :]
        return (t >= self.boot[:, None] + 45) & (t < self.gone[:, None])


def _bringup_plan(seed: int, scale: Scale, rng) -> Bringup:
    p = IMBUE[scale]
    grid = Grid(IMBUE_START, p["interval"], p["minutes"] * 60 // p["interval"])
    hosts, end = imbue_hosts(), grid.seconds
    # Who is broken, and how: disjoint groups so that each fault is attributable.
    perm, groups, k = rng.permutation(len(hosts)).tolist(), {}, N_FAILED
    for name, count in FAULTY.items():
        groups[name], k = sorted(perm[k : k + count]), k + count
    reasons = [r for r, c in FAILURES for _ in range(c)]
    failed = sorted(perm[:N_FAILED])
    live = sorted(set(range(len(hosts))) - set(failed))
    boot = np.full(len(hosts), np.inf)
    boot[live] = rng.integers(0, 601, len(live))  # all boot in the first ten minutes
    job_start, base_end = p["job"] * 60, (p["job"] + p["baseline"]) * 60
    plan = Bringup(
        seed=seed,
        p=p,
        grid=grid,
        hosts=hosts,
        failed=failed,
        reasons=[reasons[j] for j in rng.permutation(len(reasons))],
        live=live,
        groups=groups,
        rank0=next(h for h in live if h not in set(perm[N_FAILED:k])),  # a healthy host
        boot=boot,
        gone=np.full(len(hosts), np.inf),
        drained=np.full(len(hosts), np.inf),
        job_start=job_start,
        base_end=base_end,
    )
    # Faults that stop the job come after the baseline: an NVMe hang stalls it until the
    # NCCL timeout (10 min) and the restart; an Xid 79 or 94 crashes it until the restart.
    xid79, xid94, xid48 = groups["xid"]
    stops = [(h, "nvme_hang", 600 + int(rng.integers(180, 361))) for h in groups["nvme"]]
    stops += [(xid79, "xid_79", int(rng.integers(480, 721)))]
    stops += [(xid94, "xid_94", int(rng.integers(300, 481)))]
    spans = _place(rng, [d for *_, d in stops], base_end + 300, end - 1200, 600)
    for (h, cause, _), (a, b) in zip(stops, spans, strict=True):
        plan.dips.append((a, b, _r(rng.uniform(0.93, 0.99)), cause, h))
        if cause == "nvme_hang":
            plan.gone[h] = plan.drained[h] = a
        else:
            plan.xid[h] = (int(cause[-2:]), int(rng.integers(0, 8)), a)
    plan.drained[xid79] = plan.xid[xid79][2]
    burn_in = int(boot[xid48]) + 180 + int(rng.integers(60, 540))
    plan.xid[xid48] = (48, int(rng.integers(0, 8)), burn_in)
    plan.drained[xid48] = 0  # its Xid 48 in burn-in keeps it out of the job

    # Flapping ports: bursts any time after boot, but outside the baseline and other dips.
    bursts = []
    for h in groups["flap"]:
        g = int(rng.integers(0, 8))
        bursts += [
            (h, g, _flap_burst(rng, grid.interval)) for _ in range(int(rng.integers(*p["bursts"])))
        ]
    taken = [*spans, (job_start, base_end)]
    starts = _place(rng, [b[-1][1] for *_, b in bursts], 900, end - 600, 180, taken)
    for (h, g, burst), (a, b) in zip(bursts, starts, strict=True):
        plan.outages.setdefault((h, g), []).extend((a + d, a + u) for d, u in burst)
        if a >= job_start:
            plan.dips.append(
                (a, b + int(rng.integers(30, 91)), _r(rng.uniform(0.3, 0.6)), "ib_flap", h)
            )
    plan.dips.sort()
    for h in groups["downtrained"]:
        plan.downtrained[h] = sorted(rng.choice(8, int(rng.integers(1, 3)), replace=False).tolist())
    for j, h in enumerate(groups["thermal"]):  # the driver bug: a constant 0, or > 100 C
        plan.thermal[h] = 0.0 if j < 2 else float(rng.integers(118, 128))
    plan.mfu_base = float(rng.uniform(0.41, 0.445))
    return plan


def _bringup_mfu(rng, plan: Bringup) -> np.ndarray:
    """MFU per scrape, from the batches completed since the last one (so a stalled job
    reports ~0, not a stale value); absent before the job starts."""
    t = plan.grid.t
    mfu = plan.mfu_base * (1 + rng.normal(0, 0.01, t.size))
    for a, b, depth, *_ in plan.dips:
        hit = (t >= a) & (t < b)
        mfu[hit] = plan.mfu_base * (1 - depth) * (1 + rng.normal(0, 0.05, int(hit.sum())))
    return np.where(t >= plan.job_start, np.round(mfu, 4), np.nan)


def _bringup_load(plan: Bringup, present: np.ndarray) -> tuple[np.ndarray, ...]:
    """(host, time) GPU utilisation and power levels and the heat they leave. GPUs idle
    after boot, burn in for ten minutes (single-node tests), then run the job; a stalled
    collective keeps them busy-waiting (utilisation stays, power falls), a crashed job
    leaves them idle until the restart."""
    t, dips = plan.grid.t, plan.dips
    spin = _inside(t, [(a, b) for a, b, _, c, _ in dips if c in ("nvme_hang", "ib_flap")])
    idle = _inside(t, [(a, b) for a, b, _, c, _ in dips if c.startswith("xid")])
    tt, boot = t[None, :], plan.boot[:, None]
    burn = (tt >= boot + 180) & (tt < boot + 780)
    job = (tt >= plan.job_start) & (tt < plan.drained[:, None]) & present
    util_lvl = np.where(burn, 100.0, 0.0)
    util_lvl[job & ~idle] = 99.6  # a training GPU reads ~100%
    power_lvl = np.where(burn, 1.0, 0.0)
    power_lvl[job] = 0.85
    power_lvl[job & spin] = 0.3
    power_lvl[job & idle] = 0.0
    heat = _ema(power_lvl, 1 - np.exp(-plan.grid.interval / 120), first=0.0)
    return util_lvl, power_lvl, heat


def _bringup_gpus(rng, plan: Bringup, present: np.ndarray, load: tuple) -> list[Block]:
    """DCGM per GPU of the live hosts."""
    t, seed, (util_lvl, power_lvl, heat) = plan.grid.t, plan.seed, load
    gh, gg = np.repeat(plan.live, 8), np.tile(np.arange(8), len(plan.live))
    row = {h: j * 8 for j, h in enumerate(plan.live)}  # the first GPU's series of each host
    gpus = [
        {"node": plan.hosts[h], "gpu": str(g)}
        for h, g in zip(gh.tolist(), gg.tolist(), strict=True)
    ]
    p_max, hot = rng.uniform(640, 700, (gh.size, 1)), rng.uniform(60, 72, (gh.size, 1))
    misread = np.array([plan.thermal.get(h, np.nan) for h in gh.tolist()])[:, None]
    width = np.full((gh.size, 1), 16.0)
    for h, bad in plan.downtrained.items():
        width[[row[h] + g for g in bad]] = 4.0
    xid_since, xid_value = np.full((gh.size, 1), np.inf), np.zeros((gh.size, 1))
    for h, (code, g, at) in plan.xid.items():
        xid_since[row[h] + g], xid_value[row[h] + g] = at, code
    xid79 = plan.groups["xid"][0]
    lost, lost_at = row[xid79] + plan.xid[xid79][1], plan.xid[xid79][2]  # fell off the bus

    def per_gpu(stream: str | None, make: Callable) -> Callable[[int, int], np.ndarray]:
        def values(i0: int, i1: int) -> np.ndarray:
            r = np.random.default_rng([seed, STREAMS.get(stream, 99), i0])
            v = make(r, slice(i0, i1)).astype(float)
            if stream is not None:  # a GPU off the bus has no sensor readings
                v[lost, t[i0:i1] >= lost_at] = np.nan
            return np.where(present[gh, i0:i1], v, np.nan)

        return values

    def util(r, s):
        lvl = util_lvl[gh, s]
        return np.where(lvl > 0, np.clip(np.rint(lvl + r.normal(0, 1.0, lvl.shape)), 0, 100), 0)

    def power(r, s):
        lvl = power_lvl[gh, s]
        return np.round(70 + (p_max - 70) * lvl + r.normal(0, 1, lvl.shape) * (1.5 + 5 * lvl))

    def temp(r, s):
        v = np.rint(31 + (hot - 31) * heat[gh, s] + r.normal(0, 0.2, (gh.size, s.stop - s.start)))
        return np.where(np.isnan(misread), v, misread)

    return [
        Block("DCGM_FI_DEV_GPU_UTIL", gpus, per_gpu("util", util)),
        Block("DCGM_FI_DEV_GPU_TEMP", gpus, per_gpu("temp", temp)),
        Block("DCGM_FI_DEV_POWER_USAGE", gpus, per_gpu("power", power)),
        Block(
            "DCGM_FI_DEV_PCIE_LINK_WIDTH",
            gpus,
            per_gpu(None, lambda r, s: np.repeat(width, s.stop - s.start, axis=1)),
        ),
        Block(
            "DCGM_FI_DEV_XID_ERRORS",  # the last Xid seen on the GPU
            gpus,
            per_gpu(None, lambda r, s: np.where(t[s] >= xid_since, xid_value, 0.0)),
        ),
    ]


def _bringup_hosts(rng, plan: Bringup, present: np.ndarray, heat) -> dict[str, list[Block]]:
    """Host-level series: CPU clocks and InfiniBand ports (node_exporter, while the host
    answers), fans (from the BMC, which answers even when the OS has hung), and `up`."""
    t, seed, hosts, live = plan.grid.t, plan.seed, plan.hosts, plan.live
    ch, ph, fh = np.repeat(live, 4), np.repeat(live, 8), np.repeat(live, 6)
    row = {h: j * 8 for j, h in enumerate(live)}
    capped = np.isin(ch, plan.groups["cpu"])[:, None]
    pinned = np.isin(fh, plan.groups["thermal"])[:, None]
    downed0 = (rng.random((ph.size, 1)) < 0.03).astype(float)  # a link-down or two at boot
    fan_base = rng.uniform(8000, 10000, (fh.size, 1))

    def cpu(i0: int, i1: int) -> np.ndarray:
        r = np.random.default_rng([seed, STREAMS["cpu"], i0])
        v = np.where(capped, 2.0e9, r.integers(34, 39, (ch.size, i1 - i0)) * 1e8)
        return np.where(present[ch, i0:i1], v, np.nan)

    def downed(i0: int, i1: int) -> np.ndarray:
        v = np.repeat(downed0, i1 - i0, axis=1)
        for (h, g), outs in plan.outages.items():
            went_down = np.array([a for a, _ in outs])[:, None]
            v[row[h] + g] += (t[None, i0:i1] >= went_down).sum(axis=0)
        return np.where(present[ph, i0:i1], v, np.nan)

    def state(i0: int, i1: int) -> np.ndarray:
        v = np.full((ph.size, i1 - i0), 4.0)  # 4: ACTIVE
        for (h, g), outs in plan.outages.items():
            v[row[h] + g, _inside(t[i0:i1], outs)] = 1.0  # 1: DOWN
        return np.where(present[ph, i0:i1], v, np.nan)

    def fan(i0: int, i1: int) -> np.ndarray:
        r = np.random.default_rng([seed, STREAMS["fan"], i0])
        v = fan_base * (0.85 + 0.15 * heat[fh, i0:i1]) + r.normal(0, 25, (fh.size, i1 - i0))
        v = np.where(pinned, FAN_MAX_RPM, np.rint(v / 120) * 120)  # the BMC reads in steps
        return np.where(t[None, i0:i1] >= plan.boot[fh, None], v, np.nan)

    ports = [{"node": hosts[h], "device": f"mlx5_{g}", "port": "1"} for h in live for g in range(8)]
    everyone = np.arange(len(hosts))
    return {
        "node.parquet": [
            Block(
                "node_cpu_scaling_frequency_hertz",
                [{"node": hosts[h], "cpu": str(c)} for h in live for c in range(4)],
                cpu,
            ),
            Block("node_infiniband_link_downed_total", ports, downed),
            Block("node_infiniband_state_id", ports, state),
        ],
        "ipmi.parquet": [
            Block(
                "ipmi_fan_speed_rpm",
                [{"node": hosts[h], "name": f"Fan{f}"} for h in live for f in range(1, 7)],
                fan,
            )
        ],
        "up.parquet": [
            Block(
                "up",
                [{"node": h, "job": "node"} for h in hosts],
                lambda i0, i1: present[everyone, i0:i1].astype(float),
            )
        ],
    }


def _bringup_logs(rng, plan: Bringup) -> dict[str, Callable[[], list[str]]]:
    """Each live host's kernel log: its boot (with the x4 links), background noise until
    the end or the hang, and the messages of its fault. Built when written, one at a time."""
    grid, hosts, end = plan.grid, plan.hosts, plan.grid.seconds
    events: dict[int, list[tuple[int, str, str]]] = {}

    def when(s: float) -> int:  # kernel timestamps have microseconds
        return grid.us_at(s) + int(rng.integers(0, 1_000_000))

    for a, _, _, cause, h in plan.dips:
        if cause == "nvme_hang":  # the I/O times out, the abort times out, the host locks up
            tag, qid = int(rng.integers(0, 1024)), int(rng.integers(1, 65))
            events.setdefault(h, []).extend(
                [
                    (when(a - 62), kl.nvme_timeout("nvme1", tag, qid, "aborting"), "warn"),
                    (
                        when(a - 31),
                        kl.nvme_timeout("nvme1", tag, qid, "reset controller"),
                        "warn",
                    ),
                ]
            )
    for h, (code, g, at) in plan.xid.items():
        # Xid 79 comes from the driver itself; 94 kills the trainer, 48 the burn-in test.
        name = {79: None, 94: "pt_main_thread", 48: "dcgmproftester12"}[code]
        pid = None if name is None else int(rng.integers(5_000, 90_000))
        message = kl.xid(gpu_bdf(g)[:-2], code, pid, name)
        us = when(at)
        events.setdefault(h, []).append((us, message, "warn"))
        if code == 79:
            events[h].append((us + 1_071, kl.gpu_fallen_off_bus(gpu_bdf(g)), "err"))
    for (h, g), outs in plan.outages.items():
        bdf, netdev = hca(g)
        for a, b in outs:
            events.setdefault(h, []).append((when(a), kl.mlx5_link(bdf, netdev, False), "info"))
            events[h].append((when(b), kl.mlx5_link(bdf, netdev, True), "info"))

    def host_log(h: int) -> Callable[[], list[str]]:
        def lines() -> list[str]:
            log, boot = KernLog(), grid.us_at(plan.boot[h])
            ports = {
                gpu_bdf(g): (f"0000:{GPU_BUSES[g] - 1:02x}:01.0", 4)
                for g in plan.downtrained.get(h, [])
            }
            gpus, nics = [gpu_bdf(g) for g in range(8)], [hca(g)[0] for g in range(8)]
            log.extend(boot, kl.boot_sequence(hosts[h], gpus, nics, ports))
            stop = min(end, plan.gone[h])
            n_noise = plan.p["noise"] * (stop - plan.boot[h]) / end
            r = np.random.default_rng([plan.seed, STREAMS["log"], h])
            log.noise(r, boot + 30_000_000, grid.us_at(stop), n_noise)
            for us, message, level in events.get(h, []):
                log.add(us, message, level)
            return log.lines()

        return lines

    return {f"{hosts[h]}/kern.log": host_log(h) for h in plan.live}


def _imbue(seed: int, scale: Scale) -> Incident:
    rng = np.random.default_rng(seed)
    plan = _bringup_plan(seed, scale, rng)
    grid, hosts, present = plan.grid, plan.hosts, plan.present()
    load = _bringup_load(plan, present)
    metrics = {"dcgm.parquet": _bringup_gpus(rng, plan, present, load)}
    metrics |= _bringup_hosts(rng, plan, present, load[2])
    mfu = _bringup_mfu(rng, plan)
    metrics["trainer.parquet"] = [
        Block("trainer_mfu", [{"node": hosts[plan.rank0], "job": JOB}], mfu[None, :])
    ]
    logs = _bringup_logs(rng, plan)
    spec = _spec(
        "imbue-bringup",
        "Imbue H100 cluster bring-up and first multi-node jobs (simulated)",
        grid,
        (plan.job_start, plan.base_end),
        "mfu",
        name="imbue-h100",
        nodes=len(hosts),
    )
    extra = {
        "hosts": len(hosts),
        "job": {"name": JOB, "start": grid.iso(plan.job_start), "rank0": hosts[plan.rank0]},
        "boots": grid.span(
            float(np.min(plan.boot[plan.live])), float(np.max(plan.boot[plan.live]))
        ),
    }
    return Incident(spec, grid, metrics, logs, _bringup_truth(plan), extra, ZSTD[scale])


def _bringup_truth(plan: Bringup) -> dict[str, Any]:
    hosts, iso, span, groups = plan.hosts, plan.grid.iso, plan.grid.span, plan.groups
    return {
        "failed_hosts": [
            {"host": hosts[h], "reason": r} for h, r in zip(plan.failed, plan.reasons, strict=True)
        ],
        "failed_fraction": _r(len(plan.failed) / len(hosts), 4),
        "downtrained": [
            {"host": hosts[h], "gpu": str(g), "pci": gpu_bdf(g), "width": 4, "expected_width": 16}
            for h, bad in sorted(plan.downtrained.items())
            for g in bad
        ],
        "nvme_hangs": [
            {"host": hosts[h], "at": iso(plan.gone[h]), "device": "nvme1"} for h in groups["nvme"]
        ],
        "thermal_misreading": [
            {"host": hosts[h], "reading_c": c, "fan_rpm": FAN_MAX_RPM}
            for h, c in sorted(plan.thermal.items())
        ],
        "cpu_capped": [{"host": hosts[h], "hz": 2.0e9} for h in groups["cpu"]],
        "flapping_ports": [
            dict(host=hosts[h], device=f"mlx5_{g}", port="1", pci=hca(g)[0], netdev=hca(g)[1])
            | {"flaps": len(outs), "outages": [span(a, b) for a, b in sorted(outs)]}
            for (h, g), outs in sorted(plan.outages.items())
        ],
        "xid": [
            {"host": hosts[h], "at": iso(at), "code": code, "gpu": str(g), "pci": gpu_bdf(g)}
            for h, (code, g, at) in sorted(plan.xid.items(), key=lambda kv: kv[1][2])
        ],
        "mfu_dips": [
            {**span(a, b), "depth": depth, "cause": cause, "host": hosts[h]}
            for a, b, depth, cause, h in plan.dips
        ],
        "baseline_mfu": _r(plan.mfu_base, 4),
    }


# --- the registry -----------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    name: str
    summary: str
    build: Callable[[int, Scale], Incident]


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario(
            "smollm3-storage",
            "48 nodes x 8 H100: throughput drops from WekaFS cache evictions near capacity, "
            "a slow decline from a dataloader index growing with the step count",
            _smollm3,
        ),
        Scenario(
            "imbue-bringup",
            "511 hosts x 8 H100 bring-up: failed boots, x4 PCIe links, hanging NVMe, wrong "
            "temperatures, capped CPUs, flapping InfiniBand ports, Xids, MFU dips",
            _imbue,
        ),
    )
}
