"""Write bench/data/nab_reference.json: what NAB's own detectors flagged on realAWSCloudwatch.

Usage::

    python scripts/nab-reference.py GIT_DIR [--commit REV] [-o bench/data/nab_reference.json]

GIT_DIR is a clone of https://github.com/numenta/NAB (a bare one will do). For every
realAWSCloudwatch file and each of NAB's windowedGaussian, numenta and null detectors it
keeps only what scoring needs: the records whose anomaly score reaches the detector's
standard-profile threshold (config/thresholds.json), as record index and timestamp; the
labelled windows (labels/combined_windows.json) as timestamps and record indices; the
number of records; and the per-file standard-profile score NAB reported
(results/<detector>/<detector>_standard_scores.csv). tests/test_nab.py scores those
detections with bench/nab_score.py and compares with the reported scores, so the check
needs neither NAB nor the data in CI. NAB is MIT-licensed; the extract says so.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DETECTORS = ("windowedGaussian", "numenta", "null")
CORPUS = "realAWSCloudwatch"


def show(git_dir: Path, rev: str, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{rev}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("-o", "--out", type=Path, default=REPO / "bench/data/nab_reference.json")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "--git-dir", str(args.git_dir), "rev-parse", args.commit],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    thresholds = json.loads(show(args.git_dir, commit, "config/thresholds.json"))
    windows = json.loads(show(args.git_dir, commit, "labels/combined_windows.json"))
    reported = {}
    for det in DETECTORS:
        table = show(args.git_dir, commit, f"results/{det}/{det}_standard_scores.csv")
        for row in csv.DictReader(io.StringIO(table)):
            if row["File"].startswith(f"{CORPUS}/"):
                reported[(det, row["File"].removeprefix(f"{CORPUS}/"))] = float(row["Score"])
    series = {}
    for key in sorted(k for k in windows if k.startswith(f"{CORPUS}/")):
        name = key.removeprefix(f"{CORPUS}/")
        entry: dict = {"windows": [], "detectors": {}}
        for det in DETECTORS:
            text = show(args.git_dir, commit, f"results/{det}/{CORPUS}/{det}_{name}")
            rows = list(csv.DictReader(io.StringIO(text)))
            stamps = [r["timestamp"] for r in rows]
            if "records" not in entry:
                entry["records"] = len(rows)
                for start, end in windows[key]:
                    inside = [i for i, t in enumerate(stamps) if start[:19] <= t <= end[:19]]
                    entry["windows"].append(
                        {
                            "start": start[:19],
                            "end": end[:19],
                            "first": inside[0],
                            "last": inside[-1],
                        }
                    )
            threshold = thresholds[det]["standard"]["threshold"]
            flagged = [
                [i, r["timestamp"]]
                for i, r in enumerate(rows)
                if float(r["anomaly_score"]) >= threshold
            ]
            entry["detectors"][det] = {
                "reported_score": reported[(det, name)],
                "detections": flagged,
            }
        series[name] = entry
    extract = {
        "source": {
            "repository": "https://github.com/numenta/NAB",
            "commit": commit,
            "licence": "MIT (NAB's LICENSE.txt)",
            "files": [
                "config/thresholds.json",
                "labels/combined_windows.json",
                "results/<detector>/<detector>_standard_scores.csv",
                f"results/<detector>/{CORPUS}/<detector>_<file>.csv",
            ],
            "made_by": "scripts/nab-reference.py",
            "detections": "records whose anomaly_score >= the detector's standard threshold",
        },
        "thresholds": {det: thresholds[det]["standard"]["threshold"] for det in DETECTORS},
        "series": series,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(extract, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
