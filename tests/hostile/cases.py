"""The hostile-input catalogue: broken, odd and hostile inputs, each with the outcome it
must have.

Every case is one of two outcome classes:

  error   a clear error: a non-zero exit status, the file (or parameter) named, the
          field or line where there is one, what to do, and no traceback
  note    handled: exit 0, and a note that says what was assumed or dropped (with the
          count where samples were left out)

Anything else (a traceback, an "internal error", or exit 0 with nothing said) fails the
suite. Most cases run a real `incidentbook` command in-process on a small incident
folder built for it (`build(tmp) -> argv`); the cases that need processes of their own
(two runs into one folder, SIGKILL, SIGINT) are run by test_work_is_kept.py, named here
by `test` so the table below counts them too.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import yaml
from incidents import unreadable_file

from .build import DMESG, START, STEP, N, frame, good_frames, incident, spec

REPO = Path(__file__).resolve().parents[2]
LIBRARY = REPO / "data" / "library"
TRAINER = REPO / "tests" / "data" / "trainer"


@dataclass(frozen=True)
class Case:
    id: str
    area: str
    expect: str  # "error" or "note"
    words: tuple[str, ...]  # each must be in what the command says (the file, the field, ...)
    build: Callable[[Path], list[str]] | None = None
    exit: int | None = None  # the exit status an error must have (default: any but 0)
    test: str | None = None  # for the process cases: the test in test_work_is_kept.py
    secret: str | None = None  # a credential the output must never show


CASES: list[Case] = []
AREAS = ("incident.yaml", "metrics", "logs", "case.yaml", "records", "parameters", "concurrency")


def case(id: str, area: str, expect: str, *words: str, exit: int | None = None, secret=None):
    assert area in AREAS and expect in {"error", "note"}

    def add(build: Callable[[Path], list[str]]) -> Callable[[Path], list[str]]:
        CASES.append(Case(id, area, expect, words, build, exit, secret=secret))
        return build

    return add


def process_case(id: str, area: str, expect: str, test: str, *words: str) -> None:
    CASES.append(Case(id, area, expect, words, None, test=test))


def _yaml(root: Path, data: object) -> None:
    (root / "incident.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


def analyze(root: Path, *more: str) -> list[str]:
    return ["analyze", str(root), *more]


# --- incident.yaml ------------------------------------------------------------------------


@case("yaml-not-utf8", "incident.yaml", "error", "incident.yaml", "not UTF-8")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").write_bytes(b"id: hostile\ntitle: Caf\xe9 au lait\n")
    return analyze(root)


@case("yaml-is-a-folder", "incident.yaml", "error", "incident.yaml", "cannot be read", "folder")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").unlink()
    (root / "incident.yaml").mkdir()
    return analyze(root)


@case("yaml-no-permission", "incident.yaml", "error", "incident.yaml", "permission denied")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").unlink()
    if not unreadable_file(root / "incident.yaml"):
        pytest.skip("no file here that this user cannot read")
    return analyze(root)


@case("yaml-empty", "incident.yaml", "error", "incident.yaml", "is empty", "id, title, window")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").write_text("")
    return analyze(root)


@case("yaml-only-comments", "incident.yaml", "error", "incident.yaml", "is empty")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").write_text("# to be written\n\n")
    return analyze(root)


@case("yaml-a-list", "incident.yaml", "error", "incident.yaml", "must be a mapping")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").write_text("- id: hostile\n- title: x\n")
    return analyze(root)


@case("yaml-syntax", "incident.yaml", "error", "incident.yaml", "not valid YAML (line")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").write_text("id: hostile\ntitle: [unclosed\n")
    return analyze(root)


@case("yaml-missing-title", "incident.yaml", "error", "incident.yaml", "title", "missing")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(title=None))
    return analyze(root)


@case("yaml-misspelt-field", "incident.yaml", "error", "incident.yaml:", "titel", "spelling")
def _(tmp):
    root = incident(tmp)
    _yaml(root, {**spec(title=None), "titel": "typo"})
    return analyze(root)


@case("yaml-window-no-offset", "incident.yaml", "error", "incident.yaml:", "window.start")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(window={"start": "2025-01-21T04:00:00", "end": "2025-01-21T06:00:00Z"}))
    return analyze(root)


@case("yaml-window-backwards", "incident.yaml", "error", "incident.yaml", "must come before")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(window={"start": "2025-01-21T06:00:00Z", "end": "2025-01-21T04:00:00Z"}))
    return analyze(root)


@case("yaml-impossible-date", "incident.yaml", "error", "incident.yaml:", "window.start")
def _(tmp):
    root = incident(tmp)
    text = yaml.safe_dump(spec(), sort_keys=False).replace(
        f"start: '{START.isoformat()}'", "start: 2025-02-30T04:00:00Z", 1
    )
    (root / "incident.yaml").write_text(text)
    return analyze(root)


@case("yaml-baseline-after-window", "incident.yaml", "error", "incident.yaml", "baseline starts")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(baseline={"start": "2025-01-22T00:00:00Z", "end": "2025-01-22T01:00:00Z"}))
    return analyze(root)


@case(
    "yaml-override-unknown-signal",
    "incident.yaml",
    "error",
    "incident.yaml:",
    "signals.thruput",
    "did you mean 'throughput'",
)
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(signals={"thruput": {"metric": "trainer_tokens_per_second"}}))
    return analyze(root)


@case(
    "yaml-override-unknown-field",
    "incident.yaml",
    "error",
    "incident.yaml:",
    "signals.throughput.metrc",
    "spelling",
)
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(signals={"throughput": {"metrc": "my_tokens"}}))
    return analyze(root)


@case("yaml-primary-unknown", "incident.yaml", "error", "incident.yaml:", "primary_signal")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(primary_signal="tokens"))
    return analyze(root)


@case(
    "yaml-baseline-before-window",
    "incident.yaml",
    "note",
    "incident.yaml",
    "does not start inside the window",
    "was used instead",
)
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(baseline={"start": "2025-01-21T01:00:00Z", "end": "2025-01-21T02:00:00Z"}))
    return analyze(root)


@case(
    "yaml-ten-year-window",
    "incident.yaml",
    "note",
    "incident.yaml",
    "baseline",
    "is empty: it holds no samples",
)
def _(tmp):
    root = incident(tmp)
    _yaml(
        root,
        spec(
            window={"start": "2020-01-01T00:00:00Z", "end": "2030-01-01T00:00:00Z"}, baseline=None
        ),
    )
    return analyze(root, "--no-logs")


@case("yaml-baseline-overhangs", "incident.yaml", "note", "incident.yaml", "ends after the window")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(baseline={"start": START.isoformat(), "end": "2025-01-21T09:00:00Z"}))
    return analyze(root)


@case("yaml-zero-nodes", "incident.yaml", "error", "incident.yaml:", "cluster.nodes")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(cluster={"name": "h", "nodes": 0}))
    return analyze(root)


@case("yaml-id-not-a-slug", "incident.yaml", "error", "incident.yaml:", "id")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(id="My incident!"))
    return analyze(root)


@case("yaml-no-folder", "incident.yaml", "error", "is not a folder")
def _(tmp):
    return analyze(tmp / "nowhere")


@case("yaml-absent", "incident.yaml", "error", "has no incident.yaml")
def _(tmp):
    root = incident(tmp)
    (root / "incident.yaml").unlink()
    return analyze(root)


@case("yaml-unknown-pack", "incident.yaml", "error", "no signal pack 'gpus-galore'", "bundled")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(signal_pack="gpus-galore"))
    return analyze(root)


@case("yaml-bad-timestamp-unit", "incident.yaml", "error", "incident.yaml:", "timestamp_unit")
def _(tmp):
    root = incident(tmp)
    _yaml(root, spec(timestamp_unit="minutes"))
    return analyze(root)


@case("cli-window-no-offset", "incident.yaml", "error", "start has no UTC offset", "RFC 3339")
def _(tmp):
    return analyze(incident(tmp), "--start", "2025-01-21T04:30:00")


# --- metrics files --------------------------------------------------------------------------


def _epoch(frames: list[pl.DataFrame], per_second: int, as_float: bool = False) -> pl.DataFrame:
    micros = pl.col("timestamp").dt.epoch("us")
    number = micros // (10**6 // per_second) if per_second <= 10**6 else micros * 1000
    whole = pl.concat(frames, how="diagonal").with_columns(timestamp=number)
    return whole.with_columns(pl.col("timestamp").cast(pl.Float64)) if as_float else whole


def _metrics(root: Path, frame: pl.DataFrame, name: str = "m.parquet") -> None:
    for old in (root / "metrics").glob("*"):
        old.unlink()
    path = root / "metrics" / name
    if name.endswith(".csv"):
        frame.write_csv(path)
    else:
        frame.write_parquet(path)


@case("parquet-epoch-seconds", "metrics", "note", "m.parquet", "read as seconds", "timestamp_unit")
def _(tmp):
    root = incident(tmp)
    _metrics(root, _epoch(good_frames(), 1))
    return analyze(root)


@case("parquet-epoch-ms", "metrics", "note", "m.parquet", "read as milliseconds")
def _(tmp):
    root = incident(tmp)
    _metrics(root, _epoch(good_frames(), 1000))
    return analyze(root)


@case("parquet-epoch-ns", "metrics", "note", "m.parquet", "read as nanoseconds")
def _(tmp):
    root = incident(tmp)
    _metrics(root, _epoch(good_frames(), 10**9))
    return analyze(root)


@case("parquet-epoch-float-seconds", "metrics", "note", "m.parquet", "read as seconds")
def _(tmp):
    root = incident(tmp)
    _metrics(root, _epoch(good_frames(), 1, as_float=True))
    return analyze(root)


@case("csv-epoch-ms", "metrics", "note", "m.csv", "read as milliseconds")
def _(tmp):
    root = incident(tmp)
    _metrics(root, _epoch(good_frames(), 1000), "m.csv")
    return analyze(root)


@case("prom-text-epoch-ms", "metrics", "note", "up.prom", "read as milliseconds")
def _(tmp):
    root = incident(tmp)
    ms = int(START.timestamp() * 1000)
    lines = [
        f'up{{node="n{k}",job="node"}} 1 {ms + 30_000 * i}' for k in range(2) for i in range(N)
    ]
    (root / "metrics" / "up.prom").write_text("# TYPE up gauge\n" + "\n".join(lines) + "\n")
    return analyze(root)


@case(
    "negative-counters",
    "metrics",
    "note",
    "m.parquet",
    "samples of node_disk_reads_completed_total left out: negative value of a counter",
)
def _(tmp):
    reads = np.cumsum(np.full(N, 100.0))
    reads[100:400] = -reads[100:400]
    frames = [
        *good_frames(),
        frame("node_disk_reads_completed_total", reads, "n0", device="nvme0n1"),
        frame(
            "node_disk_read_time_seconds_total", np.cumsum(np.full(N, 0.1)), "n0", device="nvme0n1"
        ),
    ]
    return analyze(incident(tmp, frames))


@case("nan-and-inf-values", "metrics", "note", "m.parquet", "left out: value NaN or infinite")
def _(tmp):
    load = np.ones(N)
    load[10:20] = np.nan
    load[30] = np.inf
    frames = [*good_frames()[:2], frame("node_load1", load, "n0")]
    return analyze(incident(tmp, frames))


@case("csv-empty-values", "metrics", "note", "m.csv", "left out: no value")
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal").with_columns(
        value=pl.when(pl.int_range(pl.len()) % 50 == 0).then(None).otherwise("value")
    )
    _metrics(root, whole, "m.csv")
    return analyze(root)


@case(
    "csv-value-text",
    "metrics",
    "error",
    "m.csv",
    "column 'value'",
    "line ",
    "n/a",
    "leave the cell empty",
)
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal").with_columns(pl.col("value").cast(pl.String))
    whole = whole.with_columns(
        value=pl.when(pl.int_range(pl.len()) == 7).then(pl.lit("n/a")).otherwise("value")
    )
    _metrics(root, whole, "m.csv")
    return analyze(root)


@case("csv-mixed-offsets", "metrics", "error", "m.csv", "column 'timestamp'", "line ", "offset")
def _(tmp):
    root = incident(tmp)
    times, metric = [START + STEP * i for i in range(1, N)], "trainer_tokens_per_second"
    # Every third timestamp without its offset, as a hand-merged export ends up.
    rows = [
        f"{t.isoformat() if i % 3 else t.strftime('%Y-%m-%dT%H:%M:%S')},{metric},1000,n0"
        for i, t in enumerate(times, 1)
    ]
    (root / "metrics" / "m.parquet").unlink()
    (root / "metrics" / "m.csv").write_text("timestamp,metric,value,node\n" + "\n".join(rows))
    return analyze(root)


@case("csv-no-offsets", "metrics", "error", "m.csv", "has no UTC offset", "RFC 3339")
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal").with_columns(
        timestamp=pl.col("timestamp").dt.strftime("%Y-%m-%d %H:%M:%S")
    )
    _metrics(root, whole, "m.csv")
    return analyze(root)


@case("missing-column", "metrics", "error", "m.parquet", "column 'value' is missing", "found:")
def _(tmp):
    root = incident(tmp)
    _metrics(root, pl.concat(good_frames(), how="diagonal").rename({"value": "val"}))
    return analyze(root)


@case("naive-datetimes", "metrics", "error", "m.parquet", "no time zone", "UTC")
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal")
    _metrics(root, whole.with_columns(pl.col("timestamp").dt.replace_time_zone(None)))
    return analyze(root)


@case("parquet-garbage", "metrics", "error", "m.parquet", "cannot be read as parquet")
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "m.parquet").write_bytes(os.urandom(2048))
    return analyze(root)


@case("parquet-truncated", "metrics", "error", "m.parquet", "cannot be read as parquet")
def _(tmp):
    root = incident(tmp)
    path = root / "metrics" / "m.parquet"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return analyze(root)


@case("parquet-value-text", "metrics", "error", "m.parquet", "column 'value'", "not a number")
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal").with_columns(pl.col("value").cast(pl.String))
    whole = whole.with_columns(
        value=pl.when(pl.int_range(pl.len()) == 3).then(pl.lit("fast")).otherwise("value")
    )
    _metrics(root, whole)
    return analyze(root)


@case("parquet-value-list", "metrics", "error", "m.parquet", "the value column is List")
def _(tmp):
    root = incident(tmp)
    whole = pl.concat(good_frames(), how="diagonal").with_columns(value=pl.concat_list("value"))
    _metrics(root, whole)
    return analyze(root)


@case("openmetrics-no-timestamps", "metrics", "error", "x.om", "not OpenMetrics samples")
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "x.om").write_text('node_load1{node="n0"} 0.5\n# EOF\n')
    return analyze(root)


@case("metrics-absent", "metrics", "error", "has no metrics", "no metrics files under metrics/")
def _(tmp):
    root = incident(tmp)
    shutil.rmtree(root / "metrics")
    shutil.rmtree(root / "logs")
    return analyze(root)


@case(
    "metrics-absent-logs-alone", "metrics", "note", "has no metrics", "the logs alone are analysed"
)
def _(tmp):
    root = incident(tmp)
    shutil.rmtree(root / "metrics")
    return analyze(root)


@case("metrics-is-a-file", "metrics", "error", "metrics", "is a file, not a folder")
def _(tmp):
    root = incident(tmp)
    shutil.rmtree(root / "metrics")
    (root / "metrics").write_text("timestamp,metric,value\n")
    return analyze(root)


@case(
    "metrics-none-readable",
    "metrics",
    "error",
    "has no metrics",
    "m.xlsx: file not read: not a metrics format",
)
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "m.parquet").rename(root / "metrics" / "m.xlsx")
    return analyze(root)


@case("metrics-unknown-format", "metrics", "note", "m.json", "file not read: not a metrics format")
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "m.json").write_text("{}")
    return analyze(root)


@case("metrics-appledouble", "metrics", "note", "._m.parquet", "file not read: hidden")
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "._m.parquet").write_bytes(b"\x00\x05\x16\x07" + os.urandom(200))
    return analyze(root)


@case("metrics-empty-file", "metrics", "note", "more.csv", "file not read: empty")
def _(tmp):
    root = incident(tmp)
    (root / "metrics" / "more.csv").write_bytes(b"")
    return analyze(root)


@case("metrics-broken-link", "metrics", "note", "gone.parquet", "a link to a file that does not")
def _(tmp):
    root = incident(tmp)
    os.symlink(tmp / "nowhere.parquet", root / "metrics" / "gone.parquet")
    return analyze(root)


@case(
    "tensorboard-garbage",
    "metrics",
    "note",
    "not used: no TensorBoard scalars",
    "events.out.tfevents.1737432000.h: no scalar events read",
)
def _(tmp):
    root = incident(tmp)
    (root / "events.out.tfevents.1737432000.h").write_bytes(np.random.default_rng(2).bytes(3000))
    return analyze(root)


@case(
    "trainer-log-outside-window",
    "metrics",
    "note",
    "not used: no iteration lines of the trainer logs in the window",
    "2024-09-03",
)
def _(tmp):
    # A real Megatron-LM log (tests/data/trainer/SOURCES.md) from another day than the window.
    root = incident(tmp)
    shutil.copy(TRAINER / "megatron_lm_2024-09_timestamped.log", root / "logs" / "n0" / "train.log")
    return analyze(root)


@case("window-without-data", "metrics", "error", "no samples", "the files cover 2025-01-21")
def _(tmp):
    return analyze(
        incident(tmp), "--start", "2025-06-01T00:00:00Z", "--end", "2025-06-01T02:00:00Z"
    )


@case("duplicate-samples", "metrics", "note", "duplicate samples", "dropped")
def _(tmp):
    frames = good_frames()
    return analyze(incident(tmp, [*frames, frames[2].head(100)]))


@case("gap-in-series", "metrics", "note", "gaps in series", "not interpolated")
def _(tmp):
    frames = good_frames()
    holed = frames[0].filter((pl.int_range(pl.len()) < 50) | (pl.int_range(pl.len()) > 80))
    return analyze(incident(tmp, [holed, *frames[1:]]))


# --- logs -------------------------------------------------------------------------------


def _with_log(tmp: Path, name: str, content: bytes | str) -> list[str]:
    return analyze(incident(tmp, logs={"n0/kern.log": DMESG, name: content}))


@case("log-not-utf8", "logs", "note", "n1/kern.log", "not valid UTF-8")
def _(tmp):
    bad = DMESG.encode().replace(b"Multiple Warp", b"Multiple \xff\xfe Warp")
    return _with_log(tmp, "n1/kern.log", bad)


@case("log-binary", "logs", "note", "n1/core", "no known log format")
def _(tmp):
    return _with_log(tmp, "n1/core", np.random.default_rng(0).bytes(4096))


@case("log-gzip-cut", "logs", "note", "n1/kern.log.gz", "cut short")
def _(tmp):
    return _with_log(tmp, "n1/kern.log.gz", gzip.compress(DMESG.encode() * 200)[:400])


@case("log-line-over-64k", "logs", "note", "n1/kern.log", "over 64 KiB")
def _(tmp):
    line = DMESG.splitlines()[0] + " " + "x" * 70_000 + "\n"
    return _with_log(tmp, "n1/kern.log", line)


@case("log-malformed-json", "logs", "note", "n1/app.jsonl", "malformed JSON")
def _(tmp):
    good = json.dumps({"time": "2025-01-21T04:42:00Z", "level": "error", "msg": "NCCL timeout"})
    return _with_log(tmp, "n1/app.jsonl", f"{good}\n{good[:-9]}\n{good}\n")


@case("log-relative-times", "logs", "note", "boot time", "n1")
def _(tmp):
    # The same real line as `dmesg` prints it without --time-format: seconds since boot.
    line = DMESG.splitlines()[0].split(" NVRM: ", 1)[1]
    return _with_log(tmp, "n1/dmesg.log", f"[ 8754.321098] NVRM: {line}\n")


@case("log-broken-link", "logs", "note", "n1/gone.log", "could not be opened")
def _(tmp):
    root = incident(tmp, logs={"n0/kern.log": DMESG, "n1/kern.log": DMESG})
    os.symlink(tmp / "nowhere.log", root / "logs" / "n1" / "gone.log")
    return analyze(root)


@case("log-incomplete-last-line", "logs", "note", "n1/kern.log", "without a newline")
def _(tmp):
    return _with_log(tmp, "n1/kern.log", DMESG.rstrip("\n"))


@case("logs-is-a-file", "logs", "error", "logs", "is a file, not a folder", "logs/ folder")
def _(tmp):
    root = incident(tmp, logs={})
    (root / "logs").write_text(DMESG)
    return analyze(root)


# --- case.yaml (a person's narrative, read when the record is drafted) -----------------------


def _similar_with_case(tmp: Path, content: bytes | str) -> list[str]:
    root = incident(tmp)
    path = root / "case.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return ["similar", str(root)]


@case("case-not-a-mapping", "case.yaml", "error", "case.yaml", "mapping of narrative fields")
def _(tmp):
    return _similar_with_case(tmp, "- a trigger\n- a lesson\n")


@case("case-unknown-field", "case.yaml", "error", "case.yaml", "not narrative fields", "they are")
def _(tmp):
    return _similar_with_case(tmp, "title: T\nrootcause: disk\n")


@case("case-wrong-type", "case.yaml", "error", "case.yaml:2", "trigger", "valid string")
def _(tmp):
    return _similar_with_case(tmp, "title: T\ntrigger: [1, 2]\n")


@case("case-unknown-taxonomy-id", "case.yaml", "error", "case.yaml:2", "root_causes[0]", "known")
def _(tmp):
    return _similar_with_case(tmp, "title: T\nroot_causes: [gremlins]\n")


@case("case-impossible-date", "case.yaml", "error", "case.yaml:3", "occurred.date", "real date")
def _(tmp):
    return _similar_with_case(tmp, "title: T\noccurred:\n  date: 2025-02-30\n")


@case("case-not-utf8", "case.yaml", "error", "case.yaml", "not UTF-8")
def _(tmp):
    return _similar_with_case(tmp, b"title: Caf\xe9\n")


@case("case-is-a-folder", "case.yaml", "error", "case.yaml", "cannot be read", "folder")
def _(tmp):
    root = incident(tmp)
    (root / "case.yaml").mkdir()
    return ["similar", str(root)]


@case("case-syntax", "case.yaml", "error", "case.yaml:", "malformed YAML")
def _(tmp):
    return _similar_with_case(tmp, "title: T\ntrigger: 'unclosed\n")


# --- case records (validate, render, library build) ------------------------------------------


def _record(tmp: Path, change: Callable[[dict], object] | None = None, name="r.yaml") -> Path:
    data = yaml.safe_load((LIBRARY / "smollm3-storage-throughput-drops.yaml").read_text())
    if change is not None:
        change(data)
    path = tmp / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@case("record-missing-title", "records", "error", "r.yaml:", "title", "missing", exit=1)
def _(tmp):
    return ["validate", str(_record(tmp, lambda d: d.pop("title")))]


@case("record-malformed-json", "records", "error", "r.json:", "malformed JSON", exit=1)
def _(tmp):
    (tmp / "r.json").write_text('{"id": "x",\n "title": }')
    return ["validate", str(tmp / "r.json")]


@case("record-empty-file", "records", "error", "r.yaml", "the file is empty", exit=1)
def _(tmp):
    (tmp / "r.yaml").write_text("")
    return ["validate", str(tmp / "r.yaml")]


@case("record-not-utf8", "records", "error", "r.yaml", "not UTF-8", exit=1)
def _(tmp):
    (tmp / "r.yaml").write_bytes(b"id: x\ntitle: Caf\xe9\n")
    return ["validate", str(tmp / "r.yaml")]


@case("record-none-found", "records", "error", "no record files", exit=2)
def _(tmp):
    (tmp / "notes.txt").write_text("not a record")
    return ["validate", str(tmp)]


@case("record-misspelt-taxonomy-id", "records", "error", "r.yaml:", "did you mean", exit=1)
def _(tmp):
    def typo(d):
        d["components"] = ["shared-filesytem"]

    return ["validate", str(_record(tmp, typo))]


@case("render-invalid-record", "records", "error", "r.yaml:", "title")
def _(tmp):
    return ["render", str(_record(tmp, lambda d: d.pop("title")))]


@case("render-into-a-file-as-folder", "records", "error", "blocker", "a file is in the way")
def _(tmp):
    (tmp / "blocker").write_text("a file where a folder should be")
    return ["render", str(_record(tmp)), "-o", str(tmp / "blocker" / "report.html")]


@case("library-duplicate-ids", "records", "error", "case id", "more than one record")
def _(tmp):
    folder = tmp / "lib"
    folder.mkdir()
    _record(folder, name="a.yaml")
    _record(folder, name="b.yaml")
    return ["library", "build", str(folder), "-o", str(tmp / "site")]


@case("library-invalid-record", "records", "error", "bad.yaml", "title")
def _(tmp):
    folder = tmp / "lib"
    folder.mkdir()
    _record(folder, name="good.yaml")
    _record(folder, lambda d: (d.pop("title"), d.update(id="other")), name="bad.yaml")
    return ["library", "build", str(folder), "-o", str(tmp / "site")]


@case("taxonomy-file-broken", "records", "error", "tax.yaml", "not valid YAML")
def _(tmp):
    (tmp / "tax.yaml").write_text("facets: [\n")
    return ["validate", str(_record(tmp)), "--taxonomy", str(tmp / "tax.yaml")]


# --- parameters (refused before any kernel starts, so nothing is written) -------------------

# Credential-shaped values made up for the test, of the lengths and alphabets the services
# use; none is a real credential.
TOKENS = {
    "github": "ghp_" + "Zq3" * 12,
    "github-pat": "github_pat_11ABCDEFG0" + "x7Y" * 20,
    "gitlab": "glpat-" + "aB3dE" * 4,
    "slack": "xoxb-1234567890-0987654321-" + "AbCd" * 6,
    "aws": "AKIA" + "IOSFODNN7EXAMPL3",
    "openai": "sk-proj-" + "Tq9" * 16,
    "huggingface": "hf_" + "QwErTy" * 6,
    "random": "q8ZrV2mX9kLp4TnW7bYc3HsJ",
}
WHAT = {
    "github": "GitHub token",
    "github-pat": "GitHub token",
    "gitlab": "GitLab token",
    "slack": "Slack token",
    "aws": "AWS access key id",
    "openai": "secret API key",
    "huggingface": "Hugging Face token",
    "random": "long random key",
}


def _token_case(kind: str) -> None:
    @case(
        f"param-value-{kind}",
        "parameters",
        "error",
        "'note'",
        WHAT[kind],
        "environment",
        exit=2,
        secret=TOKENS[kind],
    )
    def _(tmp):
        return [
            "run",
            str(incident(tmp / "i")),
            "--out",
            str(tmp / "out"),
            "-p",
            "note",
            TOKENS[kind],
        ]


for _kind in TOKENS:
    _token_case(_kind)

PASSWORD = "hunter2-but-longer"


@case(
    "param-url-password",
    "parameters",
    "error",
    "'source'",
    "URL with a password",
    exit=2,
    secret=PASSWORD,
)
def _(tmp):
    uri = f"prometheus+https://alice:{PASSWORD}@prom.example:9090"
    return ["run", str(incident(tmp / "i")), "--out", str(tmp / "out"), "--source", uri]


@case(
    "param-name-credential", "parameters", "error", "'api_token'", "looks like a credential", exit=2
)
def _(tmp):
    return ["run", str(incident(tmp / "i")), "--out", str(tmp / "out"), "-p", "api_token", "x"]


@case("param-unknown-name", "parameters", "error", "'strat'", "did you mean 'start'", exit=2)
def _(tmp):
    return [
        "run",
        str(incident(tmp / "i")),
        "--out",
        str(tmp / "out"),
        "-p",
        "strat",
        START.isoformat(),
    ]


@case(
    "regen-param-token",
    "parameters",
    "error",
    "'note'",
    "GitHub token",
    exit=2,
    secret=TOKENS["github"],
)
def _(tmp):
    incident(tmp / "i")
    return ["regen", str(tmp / "i"), "--out", str(tmp / "out"), "-p", "note", TOKENS["github"]]


# --- concurrency and interruptions (processes of their own: test_work_is_kept.py) -----------

process_case(
    "two-runs-one-folder",
    "concurrency",
    "error",
    "test_two_runs_into_one_folder",
    "in use by another run",
    "pid",
)
process_case(
    "sigkill-run-kernel-start",
    "concurrency",
    "note",
    "test_sigkill_during_a_run_keeps_the_previous_outputs",
    "ended without finishing",
    "lock was taken over",
)
process_case(
    "sigkill-run-writing-charts",
    "concurrency",
    "note",
    "test_sigkill_during_a_run_keeps_the_previous_outputs",
    "ended without finishing",
)
process_case(
    "sigkill-run-writing-case-json",
    "concurrency",
    "note",
    "test_sigkill_during_a_run_keeps_the_previous_outputs",
    "ended without finishing",
)
process_case(
    "sigkill-run-writing-report",
    "concurrency",
    "note",
    "test_sigkill_during_a_run_keeps_the_previous_outputs",
    "ended without finishing",
)
process_case(
    "sigint-regen",
    "concurrency",
    "error",
    "test_sigint_during_regen",
    "interrupted",
    "whole",
)
process_case(
    "run-earlier-case-json-unreadable",
    "records",
    "error",
    "test_an_unreadable_earlier_case_json_stops_the_run",
    "case.json",
    "fix or move it first",
)
process_case(
    "regen-same-id-twice",
    "concurrency",
    "error",
    "test_regen_refuses_two_incidents_with_one_id",
    "same id",
)
