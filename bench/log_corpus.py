"""The log stage on a corpus of real lines from GPU clusters: does the catalog know them?

Run from the repository root::

    python -m bench.log_corpus [--data DIR] [--json]

Data: ``tests/logs/corpus/lines.yaml`` (default; ``--data`` names another folder holding a
``lines.yaml`` of the same shape), real log lines copied verbatim from public issue threads,
vendor documentation and open repositories, each with its source (``MANIFEST.md`` beside
it). Every entry says what an operator would want from the line (``expect``: error,
warning or benign), its class, the source and the split (``dev`` for developing the
catalog, ``holdout`` for scoring it), and the fields it carries (Xid code, PCI address).

Two ways through the log stage, both scored per class and per split:

* catalog: ``signatures.match`` on the line as it stands, nothing else;
* readers: each line written to a file of its own in an incident folder (one host folder
  per source), read by ``read_logs`` exactly as ``incidentbook analyze`` reads a folder,
  then matched. Each host's boot time is given, as incident.yaml's ``logs.boot_times``
  would give it, so raw ``[seconds]`` kernel lines can be placed; files are dated (their
  modification time) inside the window, which is wide.

A line that is an error or a warning is *found* when it takes a signature of severity
warning or worse that belongs to its class (CLASS_SIGNATURES; a class not listed there
accepts any such signature); a benign line is a *false match* when it takes any signature
of severity warning or worse (info signatures name normal events). The Xid code and the
PCI address are checked on the lines that carry them.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

import polars as pl
from pydantic import BaseModel, ConfigDict, Field

from bench.common import REPO, scored_main
from incidentbook.logs.signatures import Catalog, load_catalog

DEFAULT_DATA = REPO / "tests" / "logs" / "corpus"
SPLITS = ("dev", "holdout")
NOTABLE = ("warning", "error", "critical")
BOOT = datetime(2020, 1, 1, tzinfo=UTC)  # every host's boot, for raw [seconds] lines
FILE_TIME = datetime(2024, 6, 1, tzinfo=UTC)  # the files' modification time
WINDOW = ("1970-01-02T00:00:00Z", "2100-01-01T00:00:00Z")

# Which signatures count as finding each class of the corpus. Several classes are
# evidenced by more than one signature (an Xid 79 line is both an Xid and a GPU off the
# bus); a class missing here accepts any signature of severity warning or worse.
CLASS_SIGNATURES: dict[str, tuple[str, ...]] = {
    "nvidia-xid": ("nvidia-xid",),
    "gpu-fallen-off-bus": ("gpu-fallen-off-bus", "nvidia-xid", "amdgpu-fault"),
    "gsp-timeout": ("gpu-gsp-timeout", "gpu-reset-required", "nvidia-xid"),
    # (amdgpu-fault is AMD's driver reporting a GPU's fault, as the Xid line is NVIDIA's:
    # it counts where the Xid line does)
    "gpu-reset-required": ("gpu-reset-required", "gpu-gsp-timeout", "nvidia-xid", "amdgpu-fault"),
    "gpu-memory-error": (
        "gpu-memory-error",
        "gpu-ecc-error",
        "cuda-ecc-error",
        "gpu-row-remap-failure",
        "nvidia-xid",
        "amdgpu-fault",
    ),
    "gpu-init-failure": ("gpu-init-failure", "gpu-gsp-timeout"),
    "gpu-driver-error": (
        "gpu-driver-error",
        "gpu-init-failure",
        "nvidia-driver-install-failed",
        "nvidia-driver-unavailable",
        "gpu-gsp-timeout",
        "amdgpu-fault",
    ),
    "nvlink-error": ("nvlink-error", "nvswitch-sxid", "nvidia-xid"),
    "nvswitch-fabric-manager": ("fabric-manager-error", "nvswitch-sxid"),
    "pcie-downtrained": ("pcie-link-downtrained",),
    "pcie-aer": ("pcie-aer-uncorrected", "pcie-aer-corrected", "hardware-error-report"),
    "nvme-timeout": ("nvme-io-timeout", "nvme-controller-down"),
    "nvme-error": (
        "nvme-error",
        "nvme-io-timeout",
        "nvme-controller-down",
        "block-io-error",
        "disk-smart-warning",
    ),
    "block-io-error": ("block-io-error", "nvme-error"),
    # any filesystem's: a local one, a network one's client (Lustre, NFS, BeeGFS, Ceph, GPFS)
    "filesystem-error": (
        "local-filesystem-error",
        "block-io-error",
        "shared-filesystem-error",
        "lustre-lnet-error",
        "gpfs-error",
        "storage-write-failure",
    ),
    "lustre-lnet": ("lustre-lnet-error", "shared-filesystem-error"),
    "nfs-error": ("shared-filesystem-error",),
    "ib-hca-error": ("ib-hca-error", "nic-link-down", "nccl-ib-error"),
    "ethernet-link-down": ("ethernet-link-down", "nic-link-down"),
    "nic-tx-timeout": ("ethernet-tx-timeout", "ethernet-link-down"),
    "nccl-watchdog-timeout": (
        "nccl-watchdog-timeout",
        "nccl-watchdog-exception",
        "nccl-watchdog-stuck",
    ),
    # NCCL's warnings of a CUDA failure are CUDA errors first (the catalog's order)
    "nccl-error": ("nccl-error", "nccl-ib-error", "nccl-watchdog-exception", "cuda-error"),
    "cuda-error": ("cuda-error", "cuda-fatal-error", "cuda-abort", "cuda-ecc-error"),
    "cuda-oom": ("cuda-out-of-memory",),
    "host-oom-kill": ("host-oom-kill",),
    "soft-lockup": ("soft-lockup",),
    "hard-lockup": ("hard-lockup",),
    "rcu-stall": ("rcu-stall",),
    "hung-task": ("hung-task",),
    "machine-check": ("machine-check", "hardware-error-report", "edac-memory-error"),
    "edac": ("edac-memory-error",),
    "kernel-panic": ("kernel-panic", "kernel-oops"),
    "kernel-warning": ("kernel-warning",),
    "segfault": ("process-segfault", "trainer-crash"),
    "thermal": ("cpu-thermal-throttle", "gpu-clock-slowdown"),
    "slurm-node-fail": (
        "slurm-node-fail",
        "slurm-node-not-responding",
        "slurm-node-drained",
        "slurm-gpu-count-low",
    ),
    # a step killed by the kernel's or the cgroup's OOM killer, or the shell reporting it
    "slurm-oom": ("slurm-out-of-memory", "host-oom-kill", "process-fatal-signal"),
    "slurm-timeout": ("slurm-timeout", "slurm-job-killed"),
    "slurm-job-cancelled": ("slurm-job-killed", "slurm-timeout", "slurm-node-fail"),
    "slurm-job-failed": ("slurm-job-failed", "slurm-task-failed", "slurm-error"),
    "slurm-task-failed": (
        "slurm-task-failed",
        "slurm-job-failed",
        "slurm-out-of-memory",
        "slurm-error",
    ),
    # Slurm's own error lines that no specific signature names count for its classes
    "slurm-controller": (
        "slurm-controller-unreachable",
        "slurm-daemon-fatal",
        "slurm-config-error",
        "slurm-error",
    ),
    "slurm-config": ("slurm-config-error", "slurm-daemon-fatal", "slurm-error"),
    "k8s-gpu": (
        "k8s-gpu-unhealthy",
        "k8s-device-plugin-error",
        "gpu-monitoring-error",
        "nvidia-xid",
    ),
    "dcgm-hostengine": ("gpu-monitoring-error",),
    "trainer-crash": (
        "trainer-crash",
        "trainer-traceback",
        "cuda-abort",
        "nccl-error",
        "nccl-watchdog-timeout",
        "process-segfault",
        "process-fatal-signal",
        "dataloader-worker-died",
        "slurm-task-failed",
        # a trainer's last traceback line, an exception no signature names
        "uncaught-exception",
    ),
    # (srun's `task 3: Bus error` names the signal that killed a task)
    "fatal-signal": ("process-fatal-signal", "trainer-crash", "slurm-task-failed"),
    "dataloader-worker": ("dataloader-worker-died",),
    "c10d-store": ("torch-distributed-store-error", "nccl-error"),
    "driver-mismatch": ("nvidia-driver-mismatch", "gpu-monitoring-error"),
    "k8s-gpu-pending": ("k8s-gpu-unschedulable",),
    "k8s-gpu-allocate": ("k8s-gpu-allocate-failed",),
    "ucx-error": ("ucx-error",),
    "mpi-warning": ("mpi-warning",),
    "nvidia-peermem": ("nvidia-peermem-error", "kernel-module-load-failed"),
    # the GPU container failing to start: its runtime, a driver mismatch it reports, the
    # kubelet restarting it
    "container-gpu-error": (
        "container-gpu-error",
        "nvidia-driver-mismatch",
        "k8s-container-crashloop",
    ),
    "checkpoint-write-failure": ("storage-write-failure",),
    "nan-loss": ("training-nan-loss",),
    "nvidia-smi-no-driver": (
        "nvidia-driver-unavailable",
        "gpu-monitoring-error",
        "nvidia-driver-mismatch",
    ),
    "k8s-pod-evicted": ("k8s-pod-evicted",),
    "k8s-container-oom": ("k8s-container-oom-killed", "host-oom-kill"),
    "k8s-crashloop": ("k8s-container-crashloop",),
    "k8s-node-not-ready": ("k8s-node-not-ready",),
    "bmc-psu": ("bmc-power-supply-failure",),
    "bmc-fan": ("bmc-fan-failure",),
    "bmc-ecc": ("bmc-memory-ecc", "edac-memory-error"),
    "bmc-processor": ("bmc-processor-error", "machine-check"),
    "bmc-temperature": ("bmc-temperature-critical", "bmc-power-supply-failure"),
    "bmc-watchdog": ("bmc-watchdog-reset",),
    "gpfs": ("gpfs-error",),
    "systemd-unit-failed": ("systemd-unit-failed", "fabric-manager-error"),
}

Expect = Literal["error", "warning", "benign"]


class MissingData(Exception):
    pass


class Entry(BaseModel):
    """One line of the corpus (lines.yaml)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    line: str
    expect: Expect
    klass: str = Field(alias="class")
    also: list[str] = Field(default_factory=list)
    source: str
    split: Literal["dev", "holdout"]
    # core: the failures of GPU clusters the catalog is for, scored for the goals; reach:
    # lines from the services around them (object storage, DNS, time, container runtimes,
    # security policy), gathered to see how far the catalog reaches, reported apart.
    scope: Literal["core", "reach"] = "core"
    fields: dict[str, object] = Field(default_factory=dict)


def load_corpus(data_dir: Path) -> list[Entry]:
    import yaml

    path = Path(data_dir) / "lines.yaml"
    if not path.is_file():
        raise MissingData(
            f"no corpus at {path}: expected a lines.yaml of entries (line, expect, class, "
            "source, split); the bundled one is tests/logs/corpus/lines.yaml"
        )
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(entries, list) or not entries:
        raise MissingData(f"{path} holds no entries (expected a YAML list)")
    return [Entry.model_validate(e) for e in entries]


def accepted(entry: Entry) -> tuple[str, ...] | None:
    """The signatures that find this entry's classes; None: any notable one will do."""
    wanted: list[str] = []
    for klass in (entry.klass, *entry.also):
        if klass not in CLASS_SIGNATURES:
            return None
        wanted += CLASS_SIGNATURES[klass]
    return tuple(dict.fromkeys(wanted))


# --- the two ways through -------------------------------------------------------------------


def through_catalog(entries: list[Entry], catalog: Catalog) -> pl.DataFrame:
    """Per entry: `signature`, `severity` (of the line's match) and `fields` (JSON)."""
    from incidentbook.logs.analysis import line_severity
    from incidentbook.logs.signatures import match

    frame = pl.DataFrame({"message": [e.line for e in entries]}, schema={"message": pl.String})
    got = match(frame, catalog)
    return got.select("signature", "fields", severity=line_severity(catalog))


def through_readers(entries: list[Entry], catalog: Catalog) -> pl.DataFrame:
    """Per entry: `read` (the line reached the frame), `inferred` (its time was inferred),
    `signature`, `severity`, `fields`, as the logs stage of `analyze` gives them."""
    from incidentbook.logs.analysis import line_severity
    from incidentbook.logs.read import read_logs
    from incidentbook.logs.signatures import match, recogniser
    from incidentbook.window import TimeWindow

    sources = {s: i for i, s in enumerate(dict.fromkeys(e.source for e in entries))}
    with tempfile.TemporaryDirectory(prefix="log-corpus-") as tmp:
        root = Path(tmp) / "logs"
        stamp = FILE_TIME.timestamp()
        for i, entry in enumerate(entries):
            path = root / f"src{sources[entry.source]:03d}" / f"line{i:04d}.log"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(entry.line + "\n", encoding="utf-8")
            os.utime(path, (stamp, stamp))
        hosts = {f"src{n:03d}": BOOT for n in sources.values()}
        logs = read_logs(
            root,
            TimeWindow(start=WINDOW[0], end=WINDOW[1]),
            boot_times=hosts,
            recognise=recogniser(catalog),  # as the folder source reads for `analyze`
        )
    frame = logs.frame
    if "inferred" not in frame.columns:
        frame = frame.with_columns(inferred=pl.lit(False))
    got = (
        match(frame, catalog)
        .with_columns(
            entry=pl.col("file").str.extract(r"line(\d+)\.log$", 1).cast(pl.Int64),
            severity=line_severity(catalog),
        )
        .sort("entry", "line")
        .unique("entry", keep="first", maintain_order=True)
        .select("entry", "signature", "fields", "severity", "inferred", read=pl.lit(True))
    )
    order = pl.DataFrame({"entry": range(len(entries))}, schema={"entry": pl.Int64})
    return (
        order.join(got, on="entry", how="left", maintain_order="left")
        .with_columns(pl.col("read").fill_null(False), pl.col("inferred").fill_null(False))
        .drop("entry")
    )


# --- scoring --------------------------------------------------------------------------------


def score(entries: list[Entry], got: pl.DataFrame) -> pl.DataFrame:
    """One row per entry: found (error/warning lines), false_match (benign lines), and the
    Xid and PCI checks (null where the line carries none)."""
    import json

    rows = []
    for entry, (signature, fields, severity) in zip(
        entries, got.select("signature", "fields", "severity").iter_rows(), strict=True
    ):
        notable = signature is not None and severity in NOTABLE
        wanted = accepted(entry)
        found = notable and (wanted is None or signature in wanted)
        extracted = json.loads(fields) if fields else {}
        values = {str(v).lower() for v in extracted.values() if v is not None}
        xid = entry.fields.get("xid")
        pci = entry.fields.get("pci")
        rows.append(
            {
                "split": entry.split,
                "scope": entry.scope,
                "class": entry.klass,
                "expect": entry.expect,
                "found": found if entry.expect != "benign" else None,
                "false_match": notable if entry.expect == "benign" else None,
                "signature": signature,
                "severity": severity,
                "xid_ok": None if xid is None else str(extracted.get("xid")) == str(xid),
                "pci_ok": None if pci is None else str(pci).lower() in values,
            }
        )
    return pl.DataFrame(
        rows,
        schema={
            "split": pl.String,
            "scope": pl.String,
            "class": pl.String,
            "expect": pl.String,
            "found": pl.Boolean,
            "false_match": pl.Boolean,
            "signature": pl.String,
            "severity": pl.String,
            "xid_ok": pl.Boolean,
            "pci_ok": pl.Boolean,
        },
    )


def _summary(scored: pl.DataFrame) -> dict:
    def ratio(col: str) -> tuple[int, int, float | None]:
        values = scored.get_column(col).drop_nulls()
        n, hit = values.len(), int(values.sum())
        return hit, n, (hit / n if n else None)

    found, errors, recall = ratio("found")
    false, benign, _ = ratio("false_match")
    xid_ok, xid_n, _ = ratio("xid_ok")
    pci_ok, pci_n, _ = ratio("pci_ok")
    return {
        "lines": scored.height,
        "errors": errors,
        "found": found,
        "recall": recall,
        "benign": benign,
        "false_matches": false,
        "xid": [xid_ok, xid_n],
        "pci": [pci_ok, pci_n],
    }


def evaluate(data_dir: Path) -> dict:
    started = time.perf_counter()
    entries = load_corpus(data_dir)
    catalog = load_catalog()
    ways = {"catalog": through_catalog(entries, catalog), "readers": None}
    ways["readers"] = through_readers(entries, catalog)
    result: dict = {
        "data": str(Path(data_dir).resolve()),
        "entries": len(entries),
        "signatures": len(catalog.signatures),
        "ways": {},
    }
    core = [e.scope == "core" for e in entries]
    result["reach_entries"] = core.count(False)
    for way, got in ways.items():
        every = score(entries, got)
        scored = every.filter(pl.Series(core))
        part: dict = {
            "reach": _summary(every.filter(~pl.Series(core))),
            "total": _summary(scored),
            "splits": {
                s: _summary(scored.filter(pl.col("split") == s))
                for s in SPLITS
                if scored.filter(pl.col("split") == s).height
            },
            "classes": [],
            "misses": [],
            "false": [],
        }
        if way == "readers":
            part["read"] = int(got.get_column("read").sum())
            part["inferred"] = int(got.get_column("inferred").sum())
        for (klass,), group in sorted(scored.group_by("class"), key=lambda kv: kv[0][0]):
            row = {"class": klass}
            for s in SPLITS:
                sub = group.filter(pl.col("split") == s)
                found = sub.get_column("found").drop_nulls()
                false = sub.get_column("false_match").drop_nulls()
                row[s] = {
                    "errors": found.len(),
                    "found": int(found.sum()),
                    "benign": false.len(),
                    "false": int(false.sum()),
                }
            part["classes"].append(row)
        kept = [e for e, c in zip(entries, core, strict=True) if c]
        for entry, row in zip(kept, scored.iter_rows(named=True), strict=True):
            if row["found"] is False:
                part["misses"].append(
                    {
                        "split": entry.split,
                        "class": entry.klass,
                        "line": entry.line,
                        "signature": row["signature"],
                    }
                )
            if row["false_match"]:
                part["false"].append(
                    {
                        "split": entry.split,
                        "class": entry.klass,
                        "line": entry.line,
                        "signature": row["signature"],
                    }
                )
        result["ways"][way] = part
    result["seconds"] = time.perf_counter() - started
    return result


# --- output ---------------------------------------------------------------------------------


def _pct(hit: int, n: int) -> str:
    return f"{hit}/{n} ({hit / n:.3f})" if n else "-"


def render(result: dict, show_misses: Iterable[str] = ("dev",)) -> str:
    ways = result["ways"]
    out = [
        f"Corpus: {result['data']} ({result['entries']} lines); catalog of "
        f"{result['signatures']} signatures",
        "found = error/warning lines taking a signature of their class at warning or worse; "
        "false = benign lines taking any signature at warning or worse",
        "",
    ]
    header = ["class"]
    for way in ways:
        for s in SPLITS:
            header.append(f"{way} {s}")
    rows = []
    by_class = {way: {r["class"]: r for r in part["classes"]} for way, part in ways.items()}
    classes = sorted(next(iter(by_class.values())))
    for klass in classes:
        cells = [klass]
        for way in ways:
            r = by_class[way][klass]
            for s in SPLITS:
                c = r[s]
                text = []
                if c["errors"]:
                    text.append(f"{c['found']}/{c['errors']}")
                if c["benign"]:
                    text.append(f"fp {c['false']}/{c['benign']}")
                cells.append(" ".join(text) or "")
        rows.append(cells)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(values: list[str]) -> str:
        return "  ".join(
            f"{v:<{w}}" if i == 0 else f"{v:>{w}}"
            for i, (v, w) in enumerate(zip(values, widths, strict=True))
        ).rstrip()

    out += [line(header), "-" * len(line(header)), *(line(r) for r in rows), ""]
    for way, part in ways.items():
        for name, summary in [("all", part["total"]), *part["splits"].items()]:
            out.append(
                f"{way:<8} {name:<8} recall {_pct(summary['found'], summary['errors'])}, "
                f"false matches {_pct(summary['false_matches'], summary['benign'])}, "
                f"Xid {_pct(*summary['xid'])}, PCI {_pct(*summary['pci'])}"
            )
        if result.get("reach_entries"):
            reach = part["reach"]
            out.append(
                f"{way:<8} reach    recall {_pct(reach['found'], reach['errors'])}, "
                f"false matches {_pct(reach['false_matches'], reach['benign'])} "
                f"({result['reach_entries']} lines beyond the catalog's domain, not in the "
                "figures above)"
            )
        if way == "readers":
            out.append(
                f"readers: {part['read']} of {result['entries']} lines reached the frame, "
                f"{part['inferred']} of them with an inferred time"
            )
    for way, part in ways.items():
        misses = [m for m in part["misses"] if m["split"] in show_misses]
        if misses:
            out += ["", f"{way}: missed ({', '.join(show_misses)} only):"]
            out += [f"  [{m['class']}] {m['signature'] or '-'}: {m['line'][:150]}" for m in misses]
        false = [m for m in part["false"] if m["split"] in show_misses]
        if false:
            out += ["", f"{way}: false matches ({', '.join(show_misses)} only):"]
            out += [f"  [{m['class']}] {m['signature']}: {m['line'][:150]}" for m in false]
    out += ["", f"Wall time: {result['seconds']:.2f} s"]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    return scored_main(
        argv,
        prog="python -m bench.log_corpus",
        description="Score the signature catalog and the log readers on a corpus of real "
        "log lines (recall per class, false matches, Xid and PCI fields; dev and holdout).",
        default_data=DEFAULT_DATA,
        what="corpus",
        evaluate=evaluate,
        render=render,
        missing=MissingData,
    )


if __name__ == "__main__":
    sys.exit(main())
