"""Benchmark: lines per second for reading, signature matching and template mining.

    python -m bench.log_speed [--repeat 3] [--folder DIR]

On the kernel logs of the full-scale Imbue scenario (about a million lines over 460
hosts; generated once into out/bench/ unless --folder names an incident folder), beside
`grep -c` of one pattern (the Xid line) over the same files as the floor: grep does
the least work anyone could do with these files. Each stage is timed on its own:

  read      logreaders.read_logs: format detection, parsing, window
  match     signatures.match over every line (40 signatures, fields extracted)
  mine      mining.mine_templates over the lines no signature took
  whole     read + match + mine + counting, as `incidentbook analyze` does it

and two floors, what polars itself takes with no work of ours, to show how much of the
time any reader built on it must spend:

  lines     polars reading every file into one column of lines (multi-file scan_csv)
  + time    the same, and parsing the one timestamp each line carries (known offset)

Prints medians of --repeat runs and each stage's ratio to grep, from the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

from bench.common import full_scale
from bench.goals import report_goal


def _folder(given: Path | None) -> Path:
    return given or full_scale("imbue-bringup")


def _timed(func, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        began = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - began)
    return statistics.median(times), result


def _widest_literals(frame, catalog, most: int = 3) -> str:
    """The signatures whose prefilter literals the most lines hold: each such line is
    then tried with the signature's regex, so a literal as common as a word slows `match`
    (a signature whose literals cannot be worked out is tried on every line)."""
    import polars as pl

    from incidentbook.logs.signatures import holds_literal, required_literals

    counts = []
    for signature in catalog.signatures:
        literals = required_literals(signature.pattern)
        held = (
            frame.height
            if not literals
            else frame.select(holds_literal(pl.col("message"), list(literals)).sum()).item()
        )
        counts.append((held, signature.id))
    top = sorted(counts, reverse=True)[:most]
    return "prefilter, lines holding a signature's literals: " + ", ".join(
        f"{name} {held:,}" for held, name in top
    )


def _polars_floor(files: list[str], with_time: bool):
    """The least polars does to bring these lines in: one multi-file scan of whole lines,
    and, with_time, one strptime on the slice where this folder's stamps sit (kern.log as
    `dmesg --time-format iso` writes it); no format detection, no other column."""
    import polars as pl

    lines = pl.scan_csv(
        files,
        has_header=False,
        separator="\x1f",
        quote_char=None,
        new_columns=["raw"],
        schema={"raw": pl.String},
    )
    if with_time:
        lines = lines.select(
            pl.col("raw")
            .str.slice(15, 32)
            .str.to_datetime("%Y-%m-%dT%H:%M:%S,%6f%:z", strict=False)
        )
    return lines.collect()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path)
    args = parser.parse_args()

    from incidentbook.incident import IncidentFolder
    from incidentbook.logs.analysis import analyze_logs
    from incidentbook.logs.read import read_logs
    from incidentbook.logs.signatures import load_catalog, match
    from incidentbook.logs.templates import mine_templates

    folder = IncidentFolder(_folder(args.folder))
    files = sorted(str(p) for p in folder.logs_dir.rglob("*") if p.is_file())
    size = sum(Path(f).stat().st_size for f in files) / 2**20
    window = folder.spec.window
    catalog = load_catalog()

    grep = ["grep", "-c", "-h", "-E", r"NVRM: Xid \(PCI:[0-9a-f:.]+\): [0-9]+"]
    grep_s, _ = _timed(
        lambda: subprocess.run([*grep, *files], capture_output=True, check=False), args.repeat
    )
    floor_s, _ = _timed(lambda: _polars_floor(files, False), args.repeat)
    floor_time_s, _ = _timed(lambda: _polars_floor(files, True), args.repeat)
    read_s, logs = _timed(lambda: read_logs(folder.logs_dir, window), args.repeat)
    lines = logs.frame.height
    match_s, matched = _timed(lambda: match(logs.frame, catalog), args.repeat)
    unknown = matched.filter(matched["signature"].is_null())["message"]
    mine_s, mined = _timed(lambda: mine_templates(unknown), args.repeat)
    distinct = mined["template_id"].n_unique()

    def whole():
        got = read_logs(folder.logs_dir, window)
        return analyze_logs(
            got.frame, window, folder.spec.baseline, catalog, folder.spec.cluster.nodes
        )

    whole_s, _ = _timed(whole, args.repeat)

    print(
        f"folder: {folder.path} ({len(files)} files, {size:.0f} MiB, {lines:,} lines in the window)"
    )
    print(f"{'stage':<8} {'median s':>9} {'M lines/s':>10} {'x grep time':>12}")
    for name, seconds, count in (
        ("grep -c", grep_s, lines),
        ("lines", floor_s, lines),
        ("+ time", floor_time_s, lines),
        ("read", read_s, lines),
        ("match", match_s, lines),
        ("mine", mine_s, unknown.len()),
        ("whole", whole_s, lines),
    ):
        print(f"{name:<8} {seconds:>9.3f} {count / seconds / 1e6:>10.2f} {seconds / grep_s:>12.1f}")
    print(
        f"mined {unknown.len():,} unmatched lines into {distinct} templates; "
        f"{lines - unknown.len():,} lines took a signature"
    )
    print(_widest_literals(logs.frame, catalog))
    rate = lines / whole_s / 1e6
    report_goal(
        "11.6 log stage (read, match, mine)",
        ">= 2M lines/s",
        f"{rate:.2f}M lines/s",
        rate >= 2.0,
        f"full-scale Imbue logs, {lines:,} lines, median of {args.repeat}",
    )


if __name__ == "__main__":
    main()
