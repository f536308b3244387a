"""A time for every line: kernel lines timed since boot placed with the host's boot time
(from the metrics, incident.yaml, --boot-time, or a line of the file itself), untimed
lines given their neighbours' or their file's, and folders nothing can be read from
never ending in a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest
import yaml

from conftest import REPO
from incidentbook.logs.read import LogsError, parse_boot_times, read_log_file
from incidentbook.sources.folder import FolderSource
from incidentbook.window import TimeWindow

CORPUS = Path(__file__).resolve().parent / "corpus"
HUNG = CORPUS / "excerpts" / "dmesg_hung_task_nvidia_uvm.log"  # raw [seconds] dmesg
WINDOW = TimeWindow(start="2025-03-14T08:00:00Z", end="2025-03-14T14:00:00Z")
BOOT = datetime(2025, 3, 14, 8, 50, tzinfo=UTC)
EXE = Path(sys.executable).with_name("incidentbook")


def incident(tmp_path: Path, logs: dict[str, Path], extra: dict | None = None) -> Path:
    root = tmp_path / "incident"
    spec = {
        "id": "timing",
        "title": "Kernel lines timed since boot",
        "window": {"start": WINDOW.start.isoformat(), "end": WINDOW.end.isoformat()},
        "cluster": {"name": "c", "nodes": 2},
        **(extra or {}),
    }
    root.mkdir()
    (root / "incident.yaml").write_text(yaml.safe_dump(spec))
    for rel, source in logs.items():
        target = root / "logs" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    return root


def boot_metrics(root: Path, rows: list[tuple[str, str, float]]) -> None:
    """node_exporter's node_boot_time_seconds as the folder's metrics (long CSV)."""
    (root / "metrics").mkdir(exist_ok=True)
    lines = ["timestamp,metric,value,node"]
    lines += [f"{ts},node_boot_time_seconds,{value},{node}" for ts, node, value in rows]
    (root / "metrics" / "node.csv").write_text("\n".join(lines) + "\n")


def first_ts(logs, host: str) -> datetime:
    frame = logs.frame.filter(pl.col("host") == host).sort("line")
    return frame.item(0, "ts")


def test_boot_time_from_node_exporter_in_the_metrics(tmp_path):
    root = incident(tmp_path, {"gpu07/dmesg.txt": HUNG})
    boot_metrics(
        root,
        [
            ("2025-03-14T09:00:00Z", "gpu07", BOOT.timestamp()),
            # an NTP step moves it a second: the same boot
            ("2025-03-14T09:00:15Z", "gpu07", BOOT.timestamp() + 1),
        ],
    )
    logs = FolderSource(root).logs(WINDOW)
    assert logs.receipt.lost == 0 and logs.receipt.in_window == 18
    assert first_ts(logs, "gpu07") == BOOT + timedelta(seconds=601.023951)
    assert logs.receipt.boot_given == {"gpu07/dmesg.txt"}


def test_incident_yaml_then_the_command_line_win_over_the_metrics(tmp_path):
    yaml_boot = BOOT + timedelta(minutes=5)
    root = incident(
        tmp_path,
        {"gpu07/dmesg.txt": HUNG, "gpu08/dmesg.txt": HUNG},
        {"logs": {"boot_times": {"gpu07": yaml_boot.isoformat(), "*": BOOT.isoformat()}}},
    )
    boot_metrics(root, [("2025-03-14T09:00:00Z", "gpu07", BOOT.timestamp() - 3600)])
    logs = FolderSource(root).logs(WINDOW)
    assert first_ts(logs, "gpu07") == yaml_boot + timedelta(seconds=601.023951)
    assert first_ts(logs, "gpu08") == BOOT + timedelta(seconds=601.023951)  # "*"
    given = BOOT + timedelta(minutes=10)
    logs = FolderSource(root, boot_times={"gpu07": given}).logs(WINDOW)
    assert first_ts(logs, "gpu07") == given + timedelta(seconds=601.023951)


def test_without_any_boot_time_the_lines_are_counted_and_the_notes_say_how(tmp_path):
    root = incident(tmp_path, {"gpu07/dmesg.txt": HUNG})
    logs = FolderSource(root).logs(WINDOW)
    assert logs.frame.height == 0
    assert logs.receipt.unreadable == {"relative timestamp without a boot time": 18}
    notes = " ".join(logs.receipt.notes())
    assert "gpu07" in notes and "--boot-time" in notes and "node_boot_time_seconds" in notes


def test_a_line_of_the_file_states_its_boot(tmp_path):
    # The RTC driver's line gives the wall clock at its own seconds since boot. The line
    # here is written from the driver's format ("setting system clock to %ptR UTC (%lld)",
    # drivers/rtc/class.c) for this test's boot; the others are the real excerpt's.
    epoch = int((BOOT + timedelta(seconds=3)).timestamp())
    rtc = (
        f"[    3.000000] rtc_cmos 00:00: setting system clock to 2025-03-14 08:50:03 UTC ({epoch})"
    )
    path = tmp_path / "dmesg.txt"
    path.write_text(rtc + "\n" + HUNG.read_text())
    frame, report = read_log_file(path, WINDOW, host="gpu07")
    assert report.lost == 0 and report.boot_from_file == {"dmesg.txt"}
    assert frame.sort("line").item(1, "ts") == BOOT + timedelta(seconds=601.023951)
    assert any("states the wall-clock time" in n for n in report.notes())
    # the file's own statement wins over a given boot time
    frame, _ = read_log_file(path, WINDOW, host="gpu07", boot_times={"gpu07": BOOT - timedelta(1)})
    assert frame.sort("line").item(1, "ts") == BOOT + timedelta(seconds=601.023951)


def test_two_boots_in_one_file_take_the_last_two_boot_times(tmp_path):
    # The gpud pstore dump's records, then the excerpt: its seconds start again from under
    # a second, so a new boot (the two files' lines as one file).
    pstore = [
        "[    0.000000] Linux version 5.15.0-1063-nvidia (buildd@lcy02-amd64-050)",
        "[    2.608284] mlx5_core 0000:41:00.1: 63.008 Gb/s available PCIe bandwidth "
        "(8.0 GT/s PCIe x8 link)",
    ]
    path = tmp_path / "kern.txt"
    path.write_text("\n".join(pstore) + "\n" + "[    0.500000] reboot\n" + HUNG.read_text())
    earlier = BOOT - timedelta(minutes=40)
    frame, report = read_log_file(path, WINDOW, host="n", boot_times={"n": [BOOT, earlier]})
    rows = frame.sort("line").get_column("ts").to_list()
    assert rows[0] == earlier and rows[1] == earlier + timedelta(seconds=2.608284)
    assert rows[2] == BOOT + timedelta(seconds=0.5)
    # with one boot time only the current boot is placed
    frame, report = read_log_file(path, WINDOW, host="n", boot_times={"n": BOOT})
    assert report.unreadable == {"relative timestamp without a boot time": 2}


def test_parse_boot_times():
    got = parse_boot_times(["gpu01=2025-03-14T07:55:00Z", "2025-03-14T07:00:00+01:00"])
    assert got == {
        "gpu01": datetime(2025, 3, 14, 7, 55, tzinfo=UTC),
        "*": datetime(2025, 3, 14, 6, 0, tzinfo=UTC),
    }
    assert parse_boot_times("a=2025-03-14T07:55:00Z,a=2025-03-13T07:55:00Z")["a"] == [
        datetime(2025, 3, 14, 7, 55, tzinfo=UTC),
        datetime(2025, 3, 13, 7, 55, tzinfo=UTC),
    ]
    with pytest.raises(LogsError, match="RFC 3339 with an offset"):
        parse_boot_times("gpu01=yesterday")
    with pytest.raises(LogsError, match="RFC 3339"):
        parse_boot_times("2025-03-14T07:55:00")  # no offset


def test_untimed_lines_before_any_timed_line_take_the_next_time(tmp_path):
    path = tmp_path / "train.out"
    path.write_text(
        "Traceback (most recent call last):\n"
        '  File "train.py", line 1, in <module>\n'
        "01/17/2024 14:02:16 [INFO|DP=0|PP=0|TP=0|ip-26-0-160-225]: iteration: 991 / 1000\n"
    )
    window = TimeWindow(start="2024-01-17T00:00:00Z", end="2024-01-18T00:00:00Z")
    frame, report = read_log_file(path, window)
    assert report.backfilled == 2 and report.lost == 0
    assert frame.get_column("ts").unique().to_list() == [
        datetime(2024, 1, 17, 14, 2, 16, tzinfo=UTC)
    ]
    assert frame.sort("line").get_column("inferred").to_list() == [True, True, False]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, cwd=REPO, check=False)


@pytest.fixture
def smollm3(tmp_path) -> Path:
    root = tmp_path / "smollm3"
    shutil.copytree(REPO / "data" / "incidents" / "smollm3-storage", root)
    shutil.rmtree(root / "logs")
    (root / "logs").mkdir()
    return root


def test_a_folder_of_indented_lines_only_is_analysed_not_a_traceback(smollm3):
    # A pasted traceback: every line indented (tests/logs/corpus/excerpts, tr1-13B crash).
    frames = [
        line
        for line in (CORPUS / "excerpts/trainer_crash_ecc_megatron_deepspeed.log")
        .read_text()
        .splitlines()
        if line.startswith("  ")
    ]
    path = smollm3 / "logs" / "ip-26-0-161-1" / "trace.txt"
    path.parent.mkdir()
    path.write_text("\n".join(frames) + "\n")
    stamp = datetime(2025, 3, 14, 12, tzinfo=UTC).timestamp()
    os.utime(path, (stamp, stamp))
    result = run("analyze", str(smollm3), "--json")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and "InvalidOperationError" not in result.stderr
    notes = " ".join(json.loads(result.stdout)["notes"])
    assert "trace.txt" in notes and "modification time" in notes
    # and indented lines in no known shape at all: counted, not read, still no traceback
    path.write_text("    at foo (bar.c:12)\n    at baz\n")
    result = run("analyze", str(smollm3), "--json")
    assert result.returncode == 0, result.stderr
    assert "no known log format" in " ".join(json.loads(result.stdout)["notes"])


def test_analyze_takes_boot_times_on_the_command_line(smollm3):
    shutil.copyfile(HUNG, smollm3 / "logs" / "gpu07.txt")
    result = run("analyze", str(smollm3), "--json", "--boot-time", f"gpu07={BOOT.isoformat()}")
    assert result.returncode == 0, result.stderr
    findings = json.loads(result.stdout)["findings"]
    hung = [f for f in findings if f["signal"] == "hung-task"]
    assert hung and hung[0]["hosts"] == ["gpu07"]
    result = run("analyze", str(smollm3), "--boot-time", "gpu07=soon")
    assert result.returncode != 0 and "RFC 3339" in result.stderr
    assert "Traceback" not in result.stderr
