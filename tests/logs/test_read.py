"""Log readers: each format from small inline examples (real specimen lines where the shared
reference folder quotes them), the host and window rules, and every kind of bad content,
with the counts the report must give."""

from __future__ import annotations

import gzip
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from incidentbook.logs.read import (
    BAD_TIMESTAMP,
    BINARY_MESSAGE,
    GZIP_CUT,
    INCOMPLETE,
    LOG_SCHEMA,
    MALFORMED_JSON,
    MAX_LINE,
    NO_BOOT_TIME,
    NO_TIMESTAMP,
    NOT_UTF8,
    SACCT_STATE_SEVERITY,
    TOO_LONG,
    UNKNOWN_FORMAT,
    LogReport,
    LogsError,
    expand_hostlist,
    known_formats,
    read_log_file,
    read_logs,
)
from incidentbook.window import TimeWindow

REPO = Path(__file__).resolve().parents[2]


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def window(start: str, end: str) -> TimeWindow:
    return TimeWindow(start=start, end=end)


WIDE = window("2024-01-01T00:00:00Z", "2026-01-01T00:00:00Z")


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content)
    else:
        path.write_bytes(content)
    return path


def one(tmp_path: Path, content: str | bytes, name: str = "x.log", w: TimeWindow = WIDE, **kw):
    return read_log_file(write(tmp_path, name, content), w, **kw)


def balanced(report: LogReport) -> bool:
    """Nothing silently dropped: every line is somewhere."""
    return report.lines_read == (
        report.in_window + report.outside_window + report.skipped + report.lost
    )


def rows(frame: pl.DataFrame, *cols: str) -> list[tuple]:
    return frame.select(cols).rows()


# --- formats ------------------------------------------------------------------------

# Verbatim from formats/gpu_kernel_logs_gpud/components__memory__dmesg.decode.iso.log.
ISO_XID = (
    "kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid (PCI:0000:38:00): 13, "
    "pid='<unknown>', name=<unknown>, Graphics SM Global Exception on (GPC 8, TPC 5, SM 1): "
    "Multiple Warp Errors"
)


def test_kernel_iso_with_and_without_decode_prefix(tmp_path):
    text = (
        ISO_XID
        + "\n"
        + "2025-01-21T04:41:45,000001+00:00 plain iso line\n"
        + "kern  :err   : 2025-01-20T23:41:46,500000-05:00 offset line\n"
        + "daemon:info  : 2025-01-21T04:41:47,000000+0000 colonless offset\n"
    )
    frame, report = one(tmp_path, text, host="gpu1")
    assert report.files == {"x.log": "kernel-iso"}
    assert rows(frame, "ts", "severity", "source") == [
        (utc(2025, 1, 21, 4, 41, 44, 283302), "warning", "kernel-iso"),
        (utc(2025, 1, 21, 4, 41, 45, 1), None, "kernel-iso"),
        (utc(2025, 1, 21, 4, 41, 46, 500000), "err", "kernel-iso"),
        (utc(2025, 1, 21, 4, 41, 47), "info", "kernel-iso"),
    ]
    assert frame.item(0, "message").startswith("NVRM: Xid (PCI:0000:38:00): 13, pid=")
    assert frame.item(0, "raw") == ISO_XID
    assert frame.get_column("host").unique().to_list() == ["gpu1"]
    assert frame.schema == LOG_SCHEMA
    assert report.unreadable == {} and balanced(report)


@pytest.mark.parametrize(
    ("offset", "hours", "minutes"),
    [("+05:30", 5, 30), ("-08:00", -8, 0), ("+0100", 1, 0), ("-0945", -9, -45)],
)
def test_kernel_iso_files_of_one_offset(tmp_path, offset, hours, minutes):
    # Every line states the same offset: it is applied once for the file (the fast path)
    # and the times are the same as line by line.
    text = "".join(
        f"kern  :{level}: 2025-01-21T04:41:{second:02d},{second:06d}{offset} line {second}\n"
        for second, level in enumerate(["info  ", "warn  ", "err   "])
    )
    frame, report = one(tmp_path, text, host="gpu1")
    assert report.files == {"x.log": "kernel-iso"}
    shift = timedelta(hours=hours, minutes=minutes)
    assert rows(frame, "ts", "severity", "message") == [
        (utc(2025, 1, 21, 4, 41, s, s) - shift, level, f"line {s}")
        for s, level in enumerate(["info", "warning", "err"])
    ]
    assert report.unreadable == {} and balanced(report)


_DECODED = "kern  :info  : 2025-01-21T04:41:{s:02d},{s:06d}{offset} line {s}"
_PLAIN = "2025-01-21T04:41:{s:02d},{s:06d}{offset} line {s}"


@pytest.mark.parametrize(
    "lines",
    [
        [_DECODED.format(s=s, offset="+00:00") for s in range(6)],
        [_PLAIN.format(s=s, offset="-0500") for s in range(6)],
        [_DECODED.format(s=s, offset="+00:00" if s % 2 else "+01:00") for s in range(6)],
        [_PLAIN.format(s=s, offset="+05:30") for s in range(5)] + ["  continued record"],
        [_DECODED.format(s=s, offset="+00:00") for s in range(5)]
        + ["kern  :info  : 2025-02-30T04:41:00,000000+00:00 no such day"],
        [_DECODED.format(s=s, offset="+00:00") for s in range(5)]
        + ["kern  :info  : 2025-01-21T04:42:00,000000+00:00x no space after the offset"],
        [_PLAIN.format(s=s, offset="+00:00") for s in range(5)]
        + [_DECODED.format(s=9, offset="+00:00"), "short"],
        ["daemon:info  : " + _PLAIN.format(s=s, offset="+00:00") for s in range(4)],
        [_DECODED.format(s=s, offset="+00:00") for s in range(5)]
        + ["kern  :loud  : 2025-01-21T04:42:00,000000+00:00 a level dmesg does not print"],
        [_DECODED.format(s=s, offset="+00:00") for s in range(5)]
        + ["kern  :info  : 2025-01-21T04:42:00,000000+00:00\ta tab after the offset"],
        [_PLAIN.format(s=s, offset="+0000") for s in range(5)]
        + ["2025-01-21T04:42:00,000000+0000\ta tab after the offset"],
    ],
)
def test_kernel_iso_layout_checked_at_once_reads_as_line_by_line(tmp_path, monkeypatch, lines):
    # Files whose every line shares the first line's layout are checked in a few passes
    # (kernel._uniform); the result must be the general path's, and files that do not
    # share it (mixed offsets, continuations, odd lines) must still take the general path.
    from incidentbook.logs.formats import kernel

    text = "\n".join(lines) + "\n"
    fast = one(tmp_path, text, host="gpu1")
    monkeypatch.setattr(kernel, "_first_layout", lambda frame: None)
    slow = one(tmp_path, text, host="gpu1")
    assert fast[0].equals(slow[0])
    assert fast[1] == slow[1]


def test_kernel_ctime_is_read_in_assume_tz_and_says_so(tmp_path):
    # Verbatim from formats/gpu_kernel_logs_gpud/...__xid__dmesg-with-xid-119.log, plus a
    # day of the month that dmesg pads with a space.
    text = (
        "[Sun Feb 23 16:24:18 2025] NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, "
        "name=nvidia-smi, Timeout after 6s of waiting for RPC response from GPU4 GSP! "
        "Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).\n"
        "[Mon Mar  3 01:02:03 2025] padded day\n"
    )
    frame, report = one(tmp_path, text)
    assert frame.get_column("ts").to_list() == [
        utc(2025, 2, 23, 16, 24, 18),
        utc(2025, 3, 3, 1, 2, 3),
    ]
    assert frame.item(0, "message").startswith("NVRM: Xid (PCI:0000:9b:00): 119")
    assert any("kernel-ctime" in n and "read as UTC" in n for n in report.notes())
    frame, report = one(tmp_path, text, assume_tz="America/New_York")
    assert frame.item(0, "ts") == utc(2025, 2, 23, 21, 24, 18)
    assert any("America/New_York" in n for n in report.notes())


def test_kernel_raw_needs_a_boot_time(tmp_path):
    # pstore dump (formats/gpu_kernel_logs_gpud/pkg__pstore__...): two header lines, then
    # `<level>[secs]` records; a dmesg continuation line is indented.
    text = (
        "dmesg-erst-7530486857247752194:\n"
        "Panic#1 Part2\n"
        "<6>[    2.608284] mlx5_core 0000:41:00.1: 63.008 Gb/s available PCIe bandwidth "
        "(8.0 GT/s PCIe x8 link)\n"
        "<0>[ 3098.275598] Kernel Offset: 0x38e00000 from 0xffffffff81000000\n"
        "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
        "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
    )
    frame, report = one(tmp_path, text, name="dmesg.txt", host="n7")
    assert report.files == {"dmesg.txt": "kernel-raw"}
    assert frame.height == 0
    assert report.unreadable == {NO_BOOT_TIME: 4}
    assert report.skipped == 2 and balanced(report)
    assert report.examples[NO_BOOT_TIME] == "dmesg.txt:3"
    assert any("n7" in n and "boot_times" in n for n in report.notes())

    boot = utc(2025, 1, 1, 12)
    frame, report = one(tmp_path, text, name="dmesg.txt", host="n7", boot_times={"n7": boot})
    assert report.unreadable == {} and report.in_window == 4 and balanced(report)
    got = frame.sort("line")
    assert rows(got, "line", "ts", "severity") == [
        (3, boot + timedelta(seconds=2.608284), "info"),
        (4, boot + timedelta(seconds=3098.275598), "emerg"),
        (5, boot + timedelta(seconds=1843.308145), None),
        (6, boot + timedelta(seconds=1843.308145), None),  # continuation: the record's time
    ]
    assert got.item(0, "message").startswith("mlx5_core 0000:41:00.1")
    assert report.inherited == 1


def test_kmsg_records_priority_and_boot_time(tmp_path):
    # formats/gpu_kernel_logs_gpud/pkg__kmsg__kmsg.1.log, plus a facility-coded priority
    # (30 = daemon.info) and a kmsg dictionary line (indented, continues the record).
    text = (
        "6,3964,206764307,-;nvidia-nvswitch2: open (major=510)\n"
        "3,3965,206764310,-;an error\n"
        " SUBSYSTEM=pci\n"
        "30,3966,206764312,c;daemon line\n"
    )
    frame, report = one(tmp_path, text, name="kmsg.log")
    assert report.files == {"kmsg.log": "kmsg"} and report.unreadable == {NO_BOOT_TIME: 4}
    boot = utc(2025, 1, 1)
    frame, report = one(tmp_path, text, name="kmsg.log", boot_times={"kmsg": boot})
    assert rows(frame.sort("line"), "ts", "severity", "message") == [
        (boot + timedelta(microseconds=206764307), "info", "nvidia-nvswitch2: open (major=510)"),
        (boot + timedelta(microseconds=206764310), "err", "an error"),
        (boot + timedelta(microseconds=206764310), "err", " SUBSYSTEM=pci"),
        (boot + timedelta(microseconds=206764312), "info", "daemon line"),
    ]
    assert frame.get_column("host").unique().to_list() == ["kmsg"]  # the file's stem


def test_syslog_3164_year_from_the_window_across_new_year(tmp_path):
    text = (
        "Dec 31 23:59:58 gpu01 kernel: [680111.646286] NVRM: Xid (PCI:0000:10:1c): 63, "
        "pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate\n"
        "<30>Jan  1 00:00:01 gpu02 systemd[1]: Started nvidia-persistenced.service.\n"
        "Jan  1 00:00:02 gpu03 no tag here\n"
        "2025-01-01T00:00:03.250+00:00 gpu04 sshd[77]: rsyslog high-precision stamp\n"
    )
    w = window("2024-12-31T23:00:00Z", "2025-01-01T01:00:00Z")
    frame, report = one(tmp_path, text, name="syslog", w=w)
    assert report.files == {"syslog": "syslog-3164"}
    assert rows(frame, "ts", "host", "severity", "message") == [
        (
            utc(2024, 12, 31, 23, 59, 58),
            "gpu01",
            None,
            "[680111.646286] NVRM: Xid (PCI:0000:10:1c): 63, pid=1850, Row Remapper: "
            "New row marked for remapping, reset gpu to activate",
        ),
        # a program's tag stays in its message (the kernel's does not)
        (
            utc(2025, 1, 1, 0, 0, 1),
            "gpu02",
            "info",
            "systemd[1]: Started nvidia-persistenced.service.",
        ),
        (utc(2025, 1, 1, 0, 0, 2), "gpu03", None, "no tag here"),
        (utc(2025, 1, 1, 0, 0, 3, 250000), "gpu04", None, "sshd[77]: rsyslog high-precision stamp"),
    ]
    assert report.in_window == 4 and balanced(report)
    assert any("syslog-3164" in n and "no year" in n for n in report.notes())
    # A window in the middle of the year puts both lines in that year, outside a March window.
    frame, report = one(
        tmp_path, text, name="syslog", w=window("2025-03-01T00:00Z", "2025-03-02T00:00Z")
    )
    assert frame.height == 0 and report.outside_window == 4


def test_syslog_5424(tmp_path):
    text = (
        '<34>1 2025-02-23T16:24:18.123Z gpu03 su 123 ID47 [exampleSDID@32473 iut="3" '
        'eventSource="App]lication"][other@1 a="b"] \ufeff\'su root\' failed\n'
        "<165>1 2025-02-23T16:24:19.5+01:00 - app - - - no host, no SD\n"
        "<13>1 - gpu03 app - - - no time\n"
    )
    frame, report = one(tmp_path, text, name="rfc5424.log")
    assert report.files == {"rfc5424.log": "syslog-5424"}
    assert rows(frame, "ts", "host", "severity", "message") == [
        (utc(2025, 2, 23, 15, 24, 19, 500000), "rfc5424", "notice", "no host, no SD"),
        (utc(2025, 2, 23, 16, 24, 18, 123000), "gpu03", "crit", "'su root' failed"),
    ]
    assert report.unreadable == {NO_TIMESTAMP: 1} and balanced(report)


def test_journald_json_with_binary_message_and_bad_lines(tmp_path):
    text = (
        '{"__REALTIME_TIMESTAMP":"1740327858123456","_HOSTNAME":"gpu04","PRIORITY":"3",'
        '"SYSLOG_IDENTIFIER":"kernel","MESSAGE":"NVRM: Xid (PCI:0000:9b:00): 79, GPU has fallen '
        'off the bus."}\n'
        '{"__REALTIME_TIMESTAMP":"1740327859000000","_HOSTNAME":"gpu04","PRIORITY":"6",'
        '"MESSAGE":[104,105,10,255]}\n'
        '{"__REALTIME_TIMESTAMP":"1740327860000000","_HOSTNAME":"gpu05","PRIORITY":"4",'
        '"MESSAGE":[111,107]}\n'
        '{"__REALTIME_TIMESTAMP":"1740327861000000","MESSAGE":"[  12.5] looks like an array"}\n'
        '{"__REALTIME_TIMESTAMP":"1740327862000000", "MESSAGE": trunc\n'
        '{"_HOSTNAME":"gpu05","MESSAGE":"no time"}\n'
        '{"__REALTIME_TIMESTAMP":"1740327863000000","_HOSTNAME":"gpu06","PRIORITY":"3",'
        '"SYSLOG_IDENTIFIER":"slurmd","_PID":"4242","MESSAGE":"fatal: Unable to bind listen '
        'port (6818): Address already in use"}\n'
    )
    frame, report = one(tmp_path, text, name="journal.json")
    assert report.files == {"journal.json": "journald-json"}
    assert rows(frame, "ts", "host", "severity", "message", "source") == [
        (utc(2025, 2, 23, 16, 24, 18, 123456), "gpu04", "err",
         "NVRM: Xid (PCI:0000:9b:00): 79, GPU has fallen off the bus.", "journald-json"),
        (utc(2025, 2, 23, 16, 24, 19), "gpu04", "info", "hi\n\ufffd", "journald-json"),
        (utc(2025, 2, 23, 16, 24, 20), "gpu05", "warning", "ok", "journald-json"),
        (utc(2025, 2, 23, 16, 24, 21), "journal", None, "[  12.5] looks like an array",
         "journald-json"),
        # a program's tag is kept, as journalctl prints it (the kernel's is not)
        (utc(2025, 2, 23, 16, 24, 23), "gpu06", "err",
         "slurmd[4242]: fatal: Unable to bind listen port (6818): Address already in use",
         "journald-json"),
    ]  # fmt: skip
    assert report.unreadable == {BINARY_MESSAGE: 1, MALFORMED_JSON: 1, NO_TIMESTAMP: 1}
    assert report.examples[MALFORMED_JSON] == "journal.json:5"
    assert balanced(report)


def test_jsonl_keys_and_time_forms(tmp_path):
    text = (
        '{"ts":"2025-02-23T16:24:18Z","host":"gpu05","level":"ERROR","msg":"boom"}\n'
        '{"time":1740327858.5,"hostname":"gpu06","severity":"warn","message":"epoch s"}\n'
        '{"timestamp":1740327858250,"level":50,"msg":"epoch ms, pino level"}\n'
        '{"@timestamp":"2025-02-23 17:24:18.25+0100","host":{"name":"gpu07"},'
        '"log.level":"info","message":"ecs"}\n'
        '{"ts":"2025-02-23T16:24:18","msg":"naive: assume_tz"}\n'
        '{"ts":"yesterday","msg":"bad time"}\n'
        '{"msg":"no time"}\n'
    )
    frame, report = one(tmp_path, text, name="app.jsonl")
    assert report.files == {"app.jsonl": "jsonl"}
    assert rows(frame.sort("line"), "ts", "host", "severity", "message") == [
        (utc(2025, 2, 23, 16, 24, 18), "gpu05", "err", "boom"),
        (utc(2025, 2, 23, 16, 24, 18, 500000), "gpu06", "warning", "epoch s"),
        (utc(2025, 2, 23, 16, 24, 18, 250000), "app", "err", "epoch ms, pino level"),
        (utc(2025, 2, 23, 16, 24, 18, 250000), "gpu07", "info", "ecs"),
        (utc(2025, 2, 23, 16, 24, 18), "app", None, "naive: assume_tz"),
    ]
    assert report.unreadable == {BAD_TIMESTAMP: 1, NO_TIMESTAMP: 1} and balanced(report)


# From formats/training_log_formats (nanotron issue #390 and PR #23).
NANOTRON_NO_HOST = (
    "10/17/2025 16:31:56 [INFO|DP=0|PP=0|TP=0]: iteration: 327281 / 378950 | consumed_tokens: "
    "85.8G | elapsed_time_per_iteration_ms: 11.5K | tokens_per_sec: 22.8K"
)
NANOTRON_HOST = (
    "01/17/2024 14:02:16 [INFO|DP=0|PP=0|TP=0|ip-26-0-160-225]: iteration: 991 / 1000 | "
    "consumed_tokens: 634K | elapsed_time_per_iteration_ms: 272"
)


def test_nanotron_host_from_brackets_or_the_file(tmp_path):
    text = f"{NANOTRON_HOST}\n{NANOTRON_NO_HOST}\n01/17/2024 14:02:17 [WARNING|DP=1|PP=0|TP=0]: w\n"
    frame, report = one(tmp_path, text, name="run.log")
    assert report.files == {"run.log": "nanotron"}
    assert rows(frame.sort("line"), "ts", "host", "severity") == [
        (utc(2024, 1, 17, 14, 2, 16), "ip-26-0-160-225", "info"),
        (utc(2025, 10, 17, 16, 31, 56), "run", "info"),
        (utc(2024, 1, 17, 14, 2, 17), "run", "warning"),
    ]
    assert frame.sort("line").item(0, "message").startswith("iteration: 991 / 1000")


# From formats/nccl/nccl_watchdog_timeout_specimens.md (LlamaFactory#6269, BasicSR#737, OFA#271).
GLOG_WATCHDOG = (
    "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught "
    "collective operation timeout: WorkNCCL(SeqNum=7753, OpType=_REDUCE_SCATTER_BASE, "
    "NumelIn=544997376, NumelOut=68124672, Timeout(ms)=600000) ran for 600061 milliseconds "
    "before timing out."
)
GLOG_ONE_DIGIT_MONTH = (
    "[rank1]:[E626 06:24:44.906457629 ProcessGroupNCCL.cpp:1785] [PG ID 0 PG GUID 0(default_pg) "
    "Rank 1] Exception (either an error or timeout) detected by watchdog at work: 808, last "
    "enqueued NCCL work: 811, last completed NCCL work: 807."
)
GLOG_OLD = (
    "[E ProcessGroupNCCL.cpp:737] [Rank 1] Watchdog caught collective operation timeout: "
    "WorkNCCL(SeqNum=469508, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802212 "
    "milliseconds before timing out."
)


def test_torch_glog_lines_and_year_across_new_year(tmp_path):
    text = (
        f"{GLOG_WATCHDOG}\n{GLOG_OLD}\n"
        "W1231 23:59:59.000001  1234 socket.cpp:12] classic glog, year end\n"
        "I0101 00:00:01.5 1234 init.cpp:1] classic glog, new year\n"
    )
    w = window("2024-12-01T00:00:00Z", "2025-01-02T00:00:00Z")
    frame, report = one(tmp_path, text, name="rank0.err", w=w)
    assert report.files == {"rank0.err": "torch-glog"}
    assert rows(frame.sort("line"), "ts", "severity", "source") == [
        (utc(2024, 12, 6, 18, 44, 12, 715298), "err", "torch-glog"),
        (utc(2024, 12, 6, 18, 44, 12, 715298), "err", "torch-glog"),  # no time: inherits
        (utc(2024, 12, 31, 23, 59, 59, 1), "warning", "torch-glog"),
        (utc(2025, 1, 1, 0, 0, 1, 500000), "info", "torch-glog"),
    ]
    assert frame.sort("line").item(0, "message").startswith("[Rank 0] Watchdog caught")
    frame, _ = one(
        tmp_path, GLOG_ONE_DIGIT_MONTH + "\n", w=window("2024-06-01T00:00Z", "2024-07-01T00:00Z")
    )
    assert frame.item(0, "ts") == utc(2024, 6, 26, 6, 24, 44, 906457)


NCCL_INFO = "ip-26-0-160-225:1234:1300 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>"
NCCL_WARN = (
    "ip-26-0-160-226:2345:2400 [3] transport/net_ib.cc:1695 NCCL WARN NET/IB : Got completion "
    "from peer 10.0.0.2<54321> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid "
    "::ffff:10.0.0.1 remoteGids::ffff:10.0.0.2"
)


def test_nccl_lines_alone_take_their_files_time(tmp_path):
    # NCCL's debug lines carry no time: with no timed line in the file, they are dated by
    # the file's modification time (when the job last wrote it), marked inferred.
    path = write(tmp_path, "nccl.out", f"{NCCL_INFO}\n{NCCL_WARN}\n")
    written = utc(2025, 3, 4, 5, 6, 7)
    os.utime(path, (written.timestamp(), written.timestamp()))
    frame, report = read_log_file(path, WIDE)
    assert report.files == {"nccl.out": "nccl"}
    assert report.unreadable == {} and report.in_window == 2 and balanced(report)
    assert frame.get_column("ts").to_list() == [written, written]
    assert frame.get_column("inferred").to_list() == [True, True]
    assert frame.sort("line").get_column("host").to_list() == [
        "ip-26-0-160-225",
        "ip-26-0-160-226",
    ]
    assert report.file_timed == 2
    assert any("modification time" in n and "nccl.out" in n for n in report.notes())
    # outside the window when written after it: counted there, never dropped
    frame, report = read_log_file(path, window("2025-01-01T00:00Z", "2025-02-01T00:00Z"))
    assert frame.height == 0 and report.outside_window == 2 and balanced(report)


def test_mixed_trainer_file_inherits_timestamps(tmp_path):
    text = "\n".join(
        [
            NCCL_INFO,  # before any timestamp: counted
            NANOTRON_HOST,
            NCCL_INFO,
            NCCL_WARN,
            "01/17/2024 14:02:17 [INFO|DP=0|PP=0|TP=0|ip-26-0-160-225]: iteration: 992 / 1000",
            "[rank3]:[E117 14:12:17.000000001 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog",
            "Traceback (most recent call last):",
            '  File "/opt/nanotron/run_train.py", line 253, in <module>',
            "    trainer.train(dataloader)",
            "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970",
            "",
            "01/17/2024 14:12:30 [ERROR|DP=0|PP=0|TP=0|ip-26-0-160-225]: giving up",
        ]
    )
    logs_dir = tmp_path / "logs"
    write(logs_dir, "trainer.log", text + "\n")
    logs = read_logs(logs_dir, window("2024-01-17T14:00:00Z", "2024-01-17T15:00:00Z"))
    report, frame = logs.receipt, logs.frame.sort("line")
    assert report.files == {"trainer.log": "trainer"}
    # The first NCCL line comes before any timed line: it takes the time of the next one.
    assert report.unreadable == {} and report.backfilled == 1
    assert report.skipped == 1 and report.in_window == 11 and balanced(report)
    t16, t17 = utc(2024, 1, 17, 14, 2, 16), utc(2024, 1, 17, 14, 2, 17)
    t_glog = utc(2024, 1, 17, 14, 12, 17)
    assert rows(frame, "line", "ts", "source", "host", "severity") == [
        (1, t16, "nccl", "ip-26-0-160-225", "info"),
        (2, t16, "nanotron", "ip-26-0-160-225", "info"),
        (3, t16, "nccl", "ip-26-0-160-225", "info"),
        (4, t16, "nccl", "ip-26-0-160-226", "warning"),
        (5, t17, "nanotron", "ip-26-0-160-225", "info"),
        (6, t_glog, "torch-glog", "trainer", "err"),
        (7, t_glog, "trainer", "trainer", None),
        (8, t_glog, "trainer", "trainer", None),
        (9, t_glog, "trainer", "trainer", None),
        (10, t_glog, "trainer", "trainer", None),
        (12, utc(2024, 1, 17, 14, 12, 30), "nanotron", "ip-26-0-160-225", "err"),
    ]
    assert report.inherited == 6
    assert frame.get_column("inferred").to_list() == [True, False, True, True] + [False] * 2 + [
        True
    ] * 4 + [False]
    # NCCL's level and source location stay in the message (signatures read them)
    assert frame.item(3, "message").startswith(
        "transport/net_ib.cc:1695 NCCL WARN NET/IB : Got completion from peer"
    )


def test_sacct_rows_expand_hostlists(tmp_path):
    text = (
        "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|Start|End|NodeList\n"
        "101|train|gpu|ml|512|FAILED|1:0|2025-02-23T10:00:00|2025-02-23T16:00:00|"
        "gpu[001-003,007]\n"
        "101.batch|batch||ml|64|FAILED|1:0|2025-02-23T10:00:00|2025-02-23T16:00:00|gpu001\n"
        "102|eval|gpu|ml|8|RUNNING|0:0|2025-02-23T15:00:00|Unknown|gpu010\n"
        "103|queued|gpu|ml|8|PENDING|0:0|Unknown|Unknown|None assigned\n"
        "104|sweep|gpu|ml|8|CANCELLED by 1000|0:15|2025-02-23T11:00:00|2025-02-23T12:00:00|"
        "rack[1-2]-n[01-02]\n"
        "105|big|gpu|ml|8|PREEMPTED|0:0|2025-02-23T11:00:00|2025-02-23T13:00:00|gpu[9-10]\n"
    )
    frame, report = one(tmp_path, text, name="sacct.txt")
    assert report.files == {"sacct.txt": "slurm-sacct"}
    assert report.unreadable == {NO_TIMESTAMP: 1} and report.skipped == 1
    assert report.in_window == 5 and balanced(report)
    assert frame.height == 4 + 1 + 1 + 4 + 2
    job101 = frame.filter(pl.col("line") == 2)
    assert job101.get_column("host").to_list() == ["gpu001", "gpu002", "gpu003", "gpu007"]
    assert job101.get_column("ts").unique().to_list() == [utc(2025, 2, 23, 16)]
    assert job101.item(0, "message") == "job 101 (train) FAILED exit 1:0 on gpu[001-003,007]"
    assert job101.item(0, "severity") == "err"
    running = frame.filter(pl.col("line") == 4)
    assert rows(running, "ts", "host", "severity") == [(utc(2025, 2, 23, 15), "gpu010", "info")]
    cancelled = frame.filter(pl.col("line") == 6)
    assert cancelled.get_column("host").to_list() == [
        "rack1-n01",
        "rack1-n02",
        "rack2-n01",
        "rack2-n02",
    ]
    assert cancelled.item(0, "severity") == "notice"
    assert frame.filter(pl.col("line") == 7).get_column("severity").to_list() == ["warning"] * 2
    # sacct times are local: assume_tz moves them.
    frame, _ = one(tmp_path, text, name="sacct.txt", assume_tz="Europe/Paris")
    assert frame.filter(pl.col("line") == 4).item(0, "ts") == utc(2025, 2, 23, 14)


def test_expand_hostlist():
    got = expand_hostlist(
        pl.Series(["gpu[001-003,007],cpu05", "a[1-2]-b[8-9]", "None assigned", "", "solo"])
    ).to_list()
    assert got == [
        ["gpu001", "gpu002", "gpu003", "gpu007", "cpu05"],
        ["a1-b8", "a1-b9", "a2-b8", "a2-b9"],
        [],
        [],
        ["solo"],
    ]


def test_sacct_states_cover_the_man_page(shared):
    codes = pl.read_csv(shared / "reference/formats/slurm/sacct_job_state_codes.csv")
    assert set(codes.get_column("state")) == set(SACCT_STATE_SEVERITY)


def test_fabric_manager_log_with_payload_lines(tmp_path):
    text = (
        "[Feb 25 2025 13:59:45] [INFO] [tid 1803] Received an inband message:  Message header "
        "details: magic Id:adbc request Id:1fdba18d7da4ef9e status:0 type:4 length:14\n"
        "Message payload details:Team release request: Team Handle:99c9f23d49236386 Flags:0\n"
        "\n"
        "[Feb 27 2025 15:10:02] [ERROR] [tid 12727] detected NVSwitch non-fatal error 12028 on "
        "fid 0 on NVSwitch pci bus id 00000000:86:00.0 physical id 3 port 61\n"
    )
    frame, report = one(tmp_path, text, name="fabricmanager.log", host="nvsw1")
    assert report.files == {"fabricmanager.log": "fabricmanager"}
    assert rows(frame.sort("line"), "line", "ts", "severity") == [
        (1, utc(2025, 2, 25, 13, 59, 45), "info"),
        (2, utc(2025, 2, 25, 13, 59, 45), "info"),
        (4, utc(2025, 2, 27, 15, 10, 2), "err"),
    ]
    assert report.skipped == 1 and balanced(report)


# --- hosts, windows, detection ------------------------------------------------------


def test_host_from_folder_then_line_then_stem(tmp_path):
    root = tmp_path / "logs"
    line = "Feb 23 16:24:18 from-line kernel: x\n"
    write(root, "node9/syslog", line)  # the folder wins
    write(root, "syslog", line)  # the line's host
    write(root, "node9/deep/er/kern.log", "2025-02-23T16:24:18,000000+00:00 k\n")
    write(root, "n3-dmesg.log", "2025-02-23T16:24:18,000000+00:00 k\n")  # the stem
    write(root, "node8/kern.log.gz", gzip.compress(b"2025-02-23T16:24:18,000000+00:00 gz\n"))
    logs = read_logs(root, window("2025-02-23T00:00Z", "2025-02-24T00:00Z"))
    assert dict(rows(logs.frame, "file", "host")) == {
        "node9/syslog": "node9",
        "syslog": "from-line",
        "node9/deep/er/kern.log": "node9",
        "n3-dmesg.log": "n3-dmesg",
        "node8/kern.log.gz": "node8",
    }
    assert logs.receipt.files["node8/kern.log.gz"] == "kernel-iso"


# Verbatim from ShanghaoLi0913/memory-aware_RLHF @ c2b14c289a5fb70ecde8f85cce8393fd577e0353,
# vllm.log, lines 1, 4 and 7 (vLLM 0.10.2's logger: level, MM-DD HH:MM:SS, file and line;
# its processes' coloured tags before).
VLLM = (
    "INFO 09-29 00:28:50 [__init__.py:216] Automatically detected platform cuda.\n"
    "\x1b[1;36m(APIServer pid=17544)\x1b[0;0m The argument `trust_remote_code` is to be used "
    "with Auto classes. It has no effect here and is ignored.\n"
    "\x1b[1;36m(APIServer pid=17544)\x1b[0;0m WARNING 09-29 00:29:02 [__init__.py:2767] "
    "Casting torch.bfloat16 to torch.float16.\n"
)


def test_vllm_lines_with_a_month_and_day_after_their_level_are_read(tmp_path):
    # (a blind excerpt set's two vLLM logs: 8 of 301 lines read before, all dated after)
    frame, report = one(tmp_path, VLLM, w=window("2025-09-01T00:00Z", "2025-10-01T00:00Z"))
    assert rows(frame, "ts", "severity") == [
        (utc(2025, 9, 29, 0, 28, 50), "info"),
        (utc(2025, 9, 29, 0, 28, 50), "info"),  # a line without a time continues the one before
        (utc(2025, 9, 29, 0, 29, 2), "warning"),
    ]
    assert frame.item(0, "message") == "[__init__.py:216] Automatically detected platform cuda."
    assert report.files["x.log"] == "generic" and balanced(report)


def test_folders_named_for_a_kind_of_log_are_not_hosts(tmp_path):
    # Logs collected one kind at a time (seen in blind incident folders: logs/dmesg/<host>.txt,
    # logs/journal/<host>.log, logs/nodes/<host>/syslog, <host>.dmesg-T.txt): the kind is not
    # a host, the host is the next folder or the file's name.
    root = tmp_path / "logs"
    stamp = "2025-02-23T16:24:18,000000+00:00 k\n"
    write(root, "dmesg/gpu-b07.txt", stamp)
    write(root, "Syslog/h100-r08-n05.log", stamp)
    write(root, "nodes/dgx-c07/syslog", stamp)
    write(root, "collected/journal/gpu-b09.log", stamp)
    write(root, "gpu-b11.dmesg-T.txt", stamp)
    write(root, "node01.example.org.log", stamp)  # a domain is not a kind of log
    write(root, "train/job-7741.out", stamp)  # a job's output names no host
    logs = read_logs(root, window("2025-02-23T00:00Z", "2025-02-24T00:00Z"))
    assert dict(rows(logs.frame, "file", "host")) == {
        "dmesg/gpu-b07.txt": "gpu-b07",
        "Syslog/h100-r08-n05.log": "h100-r08-n05",
        "nodes/dgx-c07/syslog": "dgx-c07",
        "collected/journal/gpu-b09.log": "gpu-b09",
        "gpu-b11.dmesg-T.txt": "gpu-b11",
        "node01.example.org.log": "node01.example.org",
        "train/job-7741.out": "job-7741",
    }


def test_window_is_half_open_and_counts_what_is_outside(tmp_path):
    text = "".join(
        f"kern  :info  : 2025-02-23T{h:02d}:00:00,000000+00:00 hour {h}\n" for h in range(10)
    )
    frame, report = one(tmp_path, text, w=window("2025-02-23T03:00:00Z", "2025-02-23T06:00:00Z"))
    assert frame.get_column("message").to_list() == ["hour 3", "hour 4", "hour 5"]
    assert (report.in_window, report.outside_window) == (3, 7) and balanced(report)


def test_result_is_sorted_by_time_host_file_line(tmp_path):
    root = tmp_path / "logs"
    write(
        root,
        "b/kern.log",
        "2025-02-23T01:00:00,000000+00:00 b1\n2025-02-23T00:00:00,000000+00:00 b0\n",
    )
    write(root, "a/kern.log", "2025-02-23T01:00:00,000000+00:00 a1\n")
    logs = read_logs(root, window("2025-02-23T00:00Z", "2025-02-24T00:00Z"))
    assert logs.frame.get_column("message").to_list() == ["b0", "a1", "b1"]


def test_detection_needs_most_lines_to_match(tmp_path):
    kernel = "2025-02-23T01:00:00,000000+00:00 k\n"
    frame, report = one(tmp_path, kernel * 5 + "some other thing\n" * 5)
    assert report.files == {"x.log": "unknown"}
    assert report.unreadable == {UNKNOWN_FORMAT: 10} and frame.height == 0 and balanced(report)
    assert any("no known log format" in n for n in report.notes())
    frame, report = one(tmp_path, kernel * 7 + "a continuation, not indented\n" * 3)
    assert report.files == {"x.log": "kernel-iso"} and report.in_window == 10


def test_formats_can_be_forced_by_glob(tmp_path):
    root = tmp_path / "logs"
    write(root, "n1/odd.txt", "6,1,1000000,-;forced kmsg\n" + "garbage\n" * 4)
    logs = read_logs(
        root,
        WIDE,
        formats={"*/odd.txt": "kmsg"},
        boot_times={"n1": utc(2025, 1, 1)},
    )
    assert logs.receipt.files == {"n1/odd.txt": "kmsg"}
    assert logs.frame.get_column("ts").unique().to_list() == [utc(2025, 1, 1, 0, 0, 1)]
    with pytest.raises(LogsError, match="not a known log format"):
        read_logs(root, WIDE, formats={"*": "klingon"})
    assert "kernel-iso" in known_formats()


def test_a_missing_logs_folder_is_an_error(tmp_path):
    with pytest.raises(LogsError, match="no logs folder"):
        read_logs(tmp_path / "nope", WIDE)
    with pytest.raises(LogsError, match="not a time zone"):
        read_logs(tmp_path, WIDE, assume_tz="Mars/Olympus")


# --- bad content --------------------------------------------------------------------

ISO = "kern  :info  : 2025-02-23T01:00:00,000000+00:00 "


def test_bad_content_is_counted_never_raised(tmp_path):
    root = tmp_path / "logs"
    write(root, "a/latin1.log", (ISO + "ok\n" + ISO + "caf\xe9 \xff\n").encode("latin-1"))
    big = ISO + "x" * (3 * 1024 * 1024)
    write(root, "b/long.log", ISO + "short\n" + big + "\n")
    write(root, "c/nonl.log", ISO + "one\n" + ISO + "no newline at the end")
    write(root, "d/empty.log", "")
    write(root, "e/core.bin", b"\x00" * 5000 + b"\n" + b"\x00\x01\x02" * 100 + b"\x7fELF\n")
    write(root, "f/notes.txt", "what happened\nnobody knows\n")
    whole = gzip.compress("".join(f"{ISO}gz {i}\n" for i in range(2000)).encode())
    write(root, "g/kern.log.1.gz", whole[: len(whole) // 2])
    write(root, "h/crlf.log", (ISO + "crlf one\r\n" + ISO + "crlf two\r\n").encode())
    write(root, "i/seps.log", ISO + "unit\x1fsep\x00nul\rcr and\ttab\n")
    logs = read_logs(root, window("2025-02-23T00:00Z", "2025-02-24T00:00Z"))
    report, frame = logs.receipt, logs.frame
    assert report.files["d/empty.log"] == "empty"
    assert report.files["e/core.bin"] == "unknown"
    assert report.files["f/notes.txt"] == "unknown"
    assert report.files["g/kern.log.1.gz"] == "kernel-iso"
    u = report.unreadable
    assert u[NOT_UTF8] == 1 and report.examples[NOT_UTF8] == "a/latin1.log:2"
    assert u[TOO_LONG] == 1 and report.examples[TOO_LONG] == "b/long.log:2"
    assert u[INCOMPLETE] == 2  # c/nonl.log, and the line the gzip was cut in
    assert report.examples[INCOMPLETE] == "c/nonl.log:2"
    assert u[UNKNOWN_FORMAT] == 2 + 2  # core.bin (2 lines), notes.txt (2 lines)
    assert u[GZIP_CUT] == 1
    assert balanced(report)

    by_file = {f: g for (f,), g in frame.group_by("file")}
    assert by_file["a/latin1.log"].sort("line").item(1, "message") == "caf\ufffd \ufffd"
    long = by_file["b/long.log"].filter(pl.col("line") == 2)
    assert long.item(0, "raw") == big[:MAX_LINE] and len(long.item(0, "message")) == MAX_LINE
    assert by_file["c/nonl.log"].sort("line").item(1, "message") == "no newline at the end"
    gz = by_file["g/kern.log.1.gz"]
    assert 0 < gz.height < 2000 and gz.sort("line").item(0, "message") == "gz 0"
    assert by_file["h/crlf.log"].get_column("message").sort().to_list() == ["crlf one", "crlf two"]
    assert by_file["i/seps.log"].item(0, "message") == "unit\x1fsep\x00nul\rcr and\ttab"
    notes = " ".join(report.notes())
    assert "not valid UTF-8" in notes and "cut short" in notes and "64 KiB" in notes


def test_every_line_is_accounted_for_in_a_gzip_cut_short(tmp_path):
    lines = "".join(f"{ISO}gz {i}\n" for i in range(500)).encode()
    whole = gzip.compress(lines)
    frame, report = one(tmp_path, whole[: len(whole) * 2 // 3], name="kern.log.gz")
    assert report.unreadable[GZIP_CUT] == 1 and balanced(report)
    assert frame.height == report.in_window == report.lines_read
    frame, report = one(
        tmp_path, whole + gzip.compress(b"%sgz more\n" % ISO.encode()), name="two.gz"
    )
    assert report.unreadable == {} and frame.height == 501  # two gzip members


# --- real files ---------------------------------------------------------------------


def test_gpud_specimens_parse_completely(shared):
    folder = shared / "reference/formats/gpu_kernel_logs_gpud"
    boot = utc(2025, 1, 1)
    expected = {
        "components__accelerator__nvidia__xid__dmesg-with-xid-119.log": "kernel-ctime",
        "components__os__dmesg.decode.iso.log": "kernel-iso",
        "components__memory__dmesg.decode.iso.log": "kernel-iso",
        "components__accelerator__nvidia__nccl__dmesg.decode.iso.log": "kernel-iso",
        "components__accelerator__nvidia__fabric-manager__fabricmanager.log": "fabricmanager",
        "pkg__kmsg__kmsg.1.log": "kmsg",
        "pkg__kmsg__kmsg.2.peermem.log": "kmsg",
        "pkg__pstore__7530486857247__dmesg.txt": "kernel-raw",
    }
    for name, fmt in expected.items():
        path = folder / name
        frame, report = read_log_file(path, WIDE, host="h", boot_times={"h": boot})
        assert report.files == {name: fmt}, name
        assert report.lost == 0, (name, report.unreadable)
        # gpud's test files end without a newline: the last line is kept and said so.
        ends_open = not path.read_bytes().endswith(b"\n")
        assert report.unreadable == ({INCOMPLETE: 1} if ends_open else {}), name
        assert report.lines_read == report.in_window + report.skipped, name
        assert frame.height == report.in_window > 0
    kmsg, _ = read_log_file(
        folder / "pkg__kmsg__kmsg.1.log", WIDE, host="h", boot_times={"h": boot}
    )
    first = kmsg.sort("line").row(0, named=True)
    assert first["ts"] == boot + timedelta(microseconds=206764307)
    assert first["message"] == "nvidia-nvswitch2: open (major=510)" and first["severity"] == "info"
    xid, _ = read_log_file(folder / "components__memory__dmesg.decode.iso.log", WIDE, host="h")
    assert xid.sort("line").item(0, "ts") == utc(2025, 1, 21, 4, 41, 44, 283302)
    _, report = read_log_file(folder / "pkg__pstore__7530486857247__dmesg.txt", WIDE, host="h")
    assert report.unreadable == {NO_BOOT_TIME: 411} and report.skipped == 4


def test_bundled_incident_logs_read_completely():
    root = REPO / "data/incidents/imbue-bringup/logs"
    files = sorted(p for p in root.rglob("*") if p.is_file())
    expected_lines = sum(p.read_bytes().count(b"\n") for p in files)
    logs = read_logs(root, window("2024-05-20T14:00:00Z", "2024-05-20T18:30:00Z"))
    report = logs.receipt
    assert report.lines_read == expected_lines
    assert report.unreadable == {} and report.lost == 0
    assert report.in_window + report.outside_window + report.skipped == expected_lines
    assert set(report.files.values()) == {"kernel-iso"} and len(report.files) == len(files)
    assert logs.frame.height == report.in_window
    assert logs.frame.get_column("host").n_unique() == len(files)
    assert logs.frame.get_column("ts").is_sorted()


def test_bundled_trainer_log_is_nanotron():
    root = REPO / "data/incidents/smollm3-storage/logs"
    logs = read_logs(root, window("2025-03-14T00:00:00Z", "2025-03-15T00:00:00Z"))
    assert logs.receipt.files["trainer.log"] == "nanotron"
    assert logs.receipt.lost == 0
    trainer = logs.frame.filter(pl.col("file") == "trainer.log")
    assert trainer.height == (root / "trainer.log").read_bytes().count(b"\n")
    assert trainer.get_column("host").unique().to_list() == ["ip-26-0-161-1"]


def test_bluegene_ras_events_skip_the_annotation_and_read_the_level(tmp_path):
    path = tmp_path / "bgl.log"
    path.write_text(
        "- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 "
        "R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected\n"
        "KERNDTLB 1118536327 2005.06.11 R30-M0-N9-C:J16-U01 2005-06-11-17.32.07.581048 "
        "R30-M0-N9-C:J16-U01 RAS KERNEL FATAL data TLB error interrupt\n"
    )
    window = TimeWindow(start="2005-06-01T00:00:00Z", end="2005-07-01T00:00:00Z")
    frame, report = read_log_file(path, window, host=None)
    assert report.files == {"bgl.log": "bluegene-ras"}
    assert frame.get_column("severity").to_list() == ["info", "crit"]
    assert frame.get_column("host").to_list() == ["R02-M1-N0-C:J12-U11", "R30-M0-N9-C:J16-U01"]
    assert frame.get_column("message").to_list()[1] == "data TLB error interrupt"
    assert frame.item(0, "ts") == datetime(2005, 6, 3, 22, 42, 50, tzinfo=UTC)


def test_lines_are_put_in_order_as_a_sort_of_all_four_keys_would():
    # read_logs orders lines by time alone, then the lines sharing a time among themselves
    # (read._in_order): the order must be a full sort's, ties of time included.
    import random

    from incidentbook.logs import read

    rng = random.Random(0)
    for n in (0, 1, 7, 300):
        lines = list(range(1, n + 1))
        rng.shuffle(lines)
        frame = pl.DataFrame(
            {
                "ts": [utc(2025, 1, 21, 4, 41, rng.randrange(20)) for _ in range(n)],
                "host": [rng.choice("abc") for _ in range(n)],
                "file": [rng.choice("xy") for _ in range(n)],
                "line": pl.Series(lines, dtype=pl.UInt32),
                "message": [f"m{i}" for i in range(n)],
            },
            schema_overrides={"ts": pl.Datetime("us", "UTC"), "host": pl.String, "file": pl.String},
        )
        assert read._in_order(frame).equals(frame.sort("ts", "host", "file", "line"))


def test_a_pasted_line_of_another_tool_keeps_its_own_time(tmp_path):
    # A kernel log with a syslog line and an RFC 3339 line pasted between its records:
    # each keeps its own time; an indented line still continues the record before it.
    kernel = "".join(
        f"kern  :info  : 2025-02-23T00:0{i}:00,000000+00:00 boot message {i}\n" for i in range(5)
    )
    content = kernel + (
        "kern  :err   : 2025-02-23T01:00:00,000000+00:00 NVRM: Xid (PCI:0000:3b:00): 79, "
        "GPU has fallen off the bus.\n"
        "Feb 23 03:00:00 gpu07 kernel: pcieport 0000:3a:00.0: AER: Uncorrected error\n"
        "2025-02-23T04:30:00Z node-exporter level=error msg=scrape failed\n"
        "    continued detail of the record before\n"
        "kern  :info  : 2025-02-23T05:00:00,000000+00:00 last\n"
    )
    frame, report = one(tmp_path, content, w=window("2025-02-23T00:00Z", "2025-02-24T00:00Z"))
    assert report.files == {"x.log": "kernel-iso"} and balanced(report)
    got = frame.sort("line").select("line", "ts", "inferred", "severity").rows()[5:]
    assert got[1][1:3] == (utc(2025, 2, 23, 3), False)  # syslog: read in assume_tz
    assert got[2][1:] == (utc(2025, 2, 23, 4, 30), False, "err")
    assert got[3][1:3] == (utc(2025, 2, 23, 4, 30), True)  # the indented line continues
    assert "generic-yearless" in report.yearless_formats


def test_a_launcher_tagged_line_with_its_own_time_dates_a_file_of_untimed_lines(tmp_path):
    # A blind incident folder's Slurm output (srun --label, NCCL_DEBUG=INFO): thousands of
    # NCCL lines with no time, so the file reads as NCCL's, then Megatron's iteration lines
    # with a time after the padded rank. Their time was not seen behind the tag, and the
    # whole file was dated by its modification time, outside the window.
    nccl = "".join(
        f"{r:3d}: gpu{r // 8 + 1:03d}:{4100 + r}:{4100 + r} [{r % 8}] NCCL INFO Bootstrap : "
        f"Using bond0:10.40.1.{r // 8 + 1}<0>\n"
        for r in range(64)
    )
    megatron = "".join(
        f" 15:  [2025-05-20 07:5{i}:00] iteration    {48510 + 10 * i}/  250000 | consumed "
        f"samples:     74511360 | elapsed time per iteration (ms): 7698.2 |\n"
        for i in range(3)
    )
    frame, report = one(
        tmp_path, nccl + megatron, w=window("2025-05-20T05:00Z", "2025-05-20T10:30Z")
    )
    assert report.files == {"x.log": "nccl"} and balanced(report)
    assert report.file_timed == 0 and report.in_window == 67
    mine = frame.filter(pl.col("message").str.contains("iteration")).sort("line")
    assert mine.get_column("ts").to_list() == [utc(2025, 5, 20, 7, 50 + i) for i in range(3)]
    assert not mine.get_column("inferred").any()
    # the NCCL lines before them take the first such time, marked inferred
    assert frame.filter(pl.col("inferred")).height == 64


def test_a_bmc_row_with_an_impossible_time_is_counted_not_dropped(tmp_path):
    rows = (
        "   1 | 13/45/2020 | 25:00:00 | Fan #1 | Lower Critical going low | Asserted\n"
        "   2 | 06/03/2014 | 17:38:06 | Fan #0x0c | Redundancy Lost | Asserted\n"
        "   3 | 06/03/2014 | 17:38:07 | Fan #0x0c | Redundancy Lost | Asserted\n"
    )
    frame, report = one(
        tmp_path, rows, name="sel.txt", w=window("2014-01-01T00:00Z", "2015-01-01T00:00Z")
    )
    assert report.files == {"sel.txt": "bmc-sel"} and balanced(report)
    assert report.unreadable == {BAD_TIMESTAMP: 1} and report.examples[BAD_TIMESTAMP] == "sel.txt:1"
    assert frame.height == 2
