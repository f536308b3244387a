"""What people collect from a GPU node after a fault, read into facts per GPU and into the
log lines the catalog knows: nvidia-smi -q, dcgmi diag, nvidia-bug-report.log.gz."""

from __future__ import annotations

import gzip
import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl

from incidentbook.logs.analysis import analyze_logs
from incidentbook.logs.read import read_logs
from incidentbook.logs.signatures import load_catalog, match
from incidentbook.window import TimeWindow

CORPUS = Path(__file__).resolve().parent / "corpus"
SMI = CORPUS / "formats" / "nvidia_smi_q"
DIAG = CORPUS / "formats" / "dcgmi_diag"
WIDE = TimeWindow(start="2000-01-01T00:00:00Z", end="2030-01-01T00:00:00Z")
WRITTEN = datetime(2024, 12, 2, 12, 30, tzinfo=UTC)


def folder(tmp_path: Path, host: str, *files: Path) -> Path:
    logs = tmp_path / "logs"
    (logs / host).mkdir(parents=True, exist_ok=True)
    for f in files:
        target = logs / host / f.name
        shutil.copyfile(f, target)
        os.utime(target, (WRITTEN.timestamp(), WRITTEN.timestamp()))
    return logs


def fact(facts: pl.DataFrame, gpu: str, section: str, key: str) -> str:
    got = facts.filter(
        (pl.col("gpu") == gpu) & (pl.col("section") == section) & (pl.col("key") == key)
    )
    assert got.height == 1, (gpu, section, key, got)
    return got.item(0, "value")


def test_nvidia_smi_q_facts_per_gpu(tmp_path):
    logs = read_logs(folder(tmp_path, "gls-a100", SMI / "a100_sxm_x4_nvidia-smi-q.txt"), WIDE)
    assert logs.receipt.files == {"gls-a100/a100_sxm_x4_nvidia-smi-q.txt": "nvidia-smi"}
    facts = logs.facts
    gpus = sorted(facts.get_column("gpu").unique().to_list())
    assert gpus == ["00000000:68:00.0", "00000000:9E:00.0", "00000000:C2:00.0", "00000000:D4:00.0"]
    assert facts.get_column("host").unique().to_list() == ["gls-a100"]
    gpu = "00000000:9E:00.0"
    assert fact(facts, gpu, "Remapped Rows", "Pending") == "Yes"
    assert fact(facts, gpu, "ECC Errors: Volatile", "DRAM Uncorrectable") == "0"
    assert fact(facts, gpu, "PCI: GPU Link Info: Link Width", "Max") == "16x"
    assert fact(facts, gpu, "PCI: GPU Link Info: PCIe Generation", "Max") == "4"
    assert fact(facts, gpu, "Clocks Event Reasons", "HW Slowdown") == "Not Active"
    assert fact(facts, gpu, "GPU Reset Status", "Reset Required") == "No"
    # The one fact that says something is wrong is a log line at the report's time.
    frame = logs.frame
    assert frame.height == 1
    row = frame.row(0, named=True)
    assert row["message"] == f"nvidia-smi -q: GPU {gpu}: Remapped Rows: Pending: Yes"
    assert row["ts"] == datetime(2024, 11, 14, 10, 45, 47, tzinfo=UTC)  # its Timestamp
    assert match(frame, load_catalog()).item(0, "signature") == "gpu-ecc-error"
    receipt = logs.receipt
    assert receipt.lines_read == receipt.in_window + receipt.skipped + receipt.lost
    assert any("read as 688 facts" in n for n in receipt.notes())


def test_older_layout_and_an_excerpt(tmp_path):
    # Jean Zay's driver 525 says "Clocks Throttle Reasons" (535 renamed it).
    logs = read_logs(folder(tmp_path, "jz", SMI / "jean-zay-a100x8_nvidia-smi-q.txt"), WIDE)
    facts = logs.facts
    assert facts.get_column("gpu").n_unique() == 8
    throttle = facts.filter(pl.col("section") == "Clocks Throttle Reasons")
    assert {"HW Slowdown", "HW Thermal Slowdown", "SW Thermal Slowdown"} <= set(
        throttle.get_column("key").to_list()
    )
    # an excerpt with the author's "[...]" elisions (stas00/ml-engineering)
    logs = read_logs(
        folder(tmp_path, "a100", SMI / "a100_remap_pending_excerpt_nvidia-smi-q.txt"), WIDE
    )
    excerpt = logs.facts.filter(
        pl.col("file") == "a100/a100_remap_pending_excerpt_nvidia-smi-q.txt"
    )
    assert fact(excerpt, "00000000:10:1C.0", "ECC Errors: Volatile", "DRAM Correctable") == "177"


def test_dcgmi_diag_results_per_gpu(tmp_path):
    logs = read_logs(folder(tmp_path, "node9", DIAG / "gpu_memory_fail_fragment.txt"), WIDE)
    facts = logs.facts.select("gpu", "section", "key", "value").sort("key", "gpu")
    assert facts.rows() == [
        ("All", "Hardware", "Diagnostic", "Fail - All"),
        ("0", "Hardware", "GPU Memory", "Fail - GPU: 0"),
        ("1", "Hardware", "GPU Memory", "Pass - GPU: 1"),
        ("All", "Stress", "Targeted Stress", "Fail - All"),
    ]
    frame = match(logs.frame.sort("line"), load_catalog())
    failed = frame.filter(pl.col("signature") == "gpu-diagnostic-failure")
    assert failed.get_column("message").to_list() == [
        "dcgmi diag: GPU Memory: Fail - GPU: 0",
        "dcgmi diag: Diagnostic: Fail - All",
        "dcgmi diag: Targeted Stress: Fail - All",
    ]
    # the warning wrapped over five rows reads whole again
    warning = frame.filter(pl.col("message").str.contains("cuCtxCreate")).row(0, named=True)
    assert "CUDA-capable device(s) is/are busy or unavailable" in warning["message"]
    assert warning["signature"] == "cuda-error"
    # no time in dcgmi's output: its file's
    assert frame.get_column("ts").unique().to_list() == [WRITTEN]
    # a run that passed: facts, and no line
    logs = read_logs(
        folder(tmp_path, "node8", DIAG / "dcgm3.0.4_r3_deployment_pass_fragment.txt"), WIDE
    )
    node8 = logs.facts.filter(pl.col("host") == "node8")
    assert node8.height == 9 and node8.get_column("value").unique().to_list() == ["Pass"]
    assert logs.frame.filter(pl.col("host") == "node8").height == 0


# --- nvidia-bug-report.log.gz ------------------------------------------------------------

RULE = "_" * 44

# Real kernel lines of one host (worker4; tests/logs/corpus/formats/syslog_single_digit_day,
# from https://github.com/NVIDIA/gpu-operator/issues/1146) as rsyslog wrote them ...
SYSLOG = [
    "Dec  2 11:38:27 worker4 kernel: [  199.234935] NVRM: GPU 0000:0a:00.0: rm_init_adapter "
    "failed, device minor number 5",
    "Dec  2 11:38:47 worker4 kernel: [  219.470994] NVRM: Xid (PCI:0000:07:00): 48, "
    "pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) has been detected "
    "on GPU in the framebuffer at physAddr 0x7fffa8860 partition 7, subpartition 1.",
    "Dec  2 11:49:53 worker4 kernel: [  885.242168] NVRM: GPU 0000:0a:00.0: RmInitAdapter "
    "failed! (0x24:0x72:1568)",
]


def kernel_records() -> list[str]:
    """... and the same kernel records as `dmesg` prints them: the syslog prefix taken off
    (the records are the kernel's; rsyslog only prefixed them)."""
    return [line.split(" kernel: ", 1)[1] for line in SYSLOG]


def bug_report(path: Path) -> Path:
    """An nvidia-bug-report.log.gz in the layout nvidia-bug-report.sh writes: each section
    after a rule of 44 underscores and a blank line, then a header naming the file
    (`*** /path`, then `*** ls: ...`) or the command (`dmesg:`, `$nvidia_smi --query`),
    then its output. No real bug report is public (threads attach only the .gz), so this
    one is built from real pieces: the kernel lines above, a real nvidia-smi -q excerpt
    (formats/nvidia_smi_q/a100_remap_pending_excerpt_nvidia-smi-q.txt), and sections that
    are not logs (/etc/issue, lspci) to be skipped."""
    smi = (SMI / "a100_remap_pending_excerpt_nvidia-smi-q.txt").read_text().splitlines()
    sections = [
        ["Start of NVIDIA bug report log file.", "", "Date: Mon Dec  2 12:05:01 UTC 2024"],
        [
            "*** /etc/issue",
            "*** ls: -rw-r--r-- 1 root root 26 2024-03-04 /etc/issue",
            "Ubuntu 22.04.4 LTS \\n \\l",
        ],
        [
            '/usr/bin/lspci -d "10de:*" -v -xxx',
            "",
            "07:00.0 3D controller: NVIDIA Corporation GA100 [A100 SXM4 80GB] (rev a1)",
        ],
        [
            "Scanning kernel log files for NVIDIA kernel messages:",
            "",
            "  /var/log/syslog:",
            *SYSLOG,
        ],
        ["dmesg:", "", *kernel_records()],
        ["/usr/bin/nvidia-smi --query", "", *smi],
    ]
    text = []
    for section in sections:
        text += [RULE, "", *section, ""]
    text += [RULE, "", "End of NVIDIA bug report log file."]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(("\n".join(text) + "\n").encode()))
    return path


def test_bug_report_is_read_as_the_hosts_logs(tmp_path):
    bug_report(tmp_path / "logs" / "worker4" / "nvidia-bug-report.log.gz")
    window = TimeWindow(start="2024-12-02T00:00:00Z", end="2024-12-03T00:00:00Z")
    logs = read_logs(tmp_path / "logs", window)
    receipt, frame = logs.receipt, logs.frame
    assert receipt.files == {"worker4/nvidia-bug-report.log.gz": "nvidia-bug-report"}
    assert receipt.lost == 0, receipt.unreadable
    # the nvidia-smi excerpt was taken in 2023 (its Timestamp): outside this window
    assert receipt.outside_window == 1
    assert receipt.lines_read == receipt.in_window + receipt.outside_window + receipt.skipped
    dmesg = frame.filter(pl.col("source") == "kernel-raw").sort("line")
    syslog = frame.filter(pl.col("source") == "syslog-3164").sort("line")
    assert dmesg.height == syslog.height == 3
    # The dmesg section is timed since boot; its records are also in the syslog section,
    # with the wall clock: together they give the boot time, and each record its time.
    for placed, stated in zip(dmesg.get_column("ts"), syslog.get_column("ts"), strict=True):
        assert abs(placed - stated) <= timedelta(seconds=1)
    assert receipt.boot_from_file == {"worker4/nvidia-bug-report.log.gz"}
    assert set(frame.get_column("host").unique().to_list()) == {"worker4"}
    # the nvidia-smi section: facts (whatever the window), and the pending row remap as a
    # line at the report's time
    assert logs.facts.get_column("gpu").unique().to_list() == ["00000000:10:1C.0"]
    analysis = analyze_logs(frame, window, None, load_catalog(), 1, facts=logs.facts)
    keys = analysis.signatures.get_column("key").to_list()
    assert "nvidia-xid:48" in keys and "gpu-init-failure" in keys
    assert analysis.gpu_facts.height == logs.facts.height > 0
    wide = read_logs(tmp_path / "logs", WIDE)
    analysis = analyze_logs(wide.frame, WIDE, None, load_catalog(), 1, facts=wide.facts)
    assert "gpu-ecc-error" in analysis.signatures.get_column("key").to_list()


def test_a_log_line_padded_like_a_report_key_is_not_read_as_a_report(tmp_path):
    """`ERROR     : ...` (a monitoring agent's log line, padded as nvidia-smi pads its keys)
    is a log line: a report's keys at the start of a line have lower-case letters, the rest
    are indented. Read as nvidia-smi -q, the line was swallowed as a report fact."""
    # https://github.com/ovis-hpc/ldms/issues/1636
    line = (
        "ERROR     : dcgm_sampler dcgmConnect() failed: Host engine connection "
        "invalid/disconnected(-21)"
    )
    path = tmp_path / "logs" / "node1" / "ldmsd.log"
    path.parent.mkdir(parents=True)
    path.write_text(line + "\n", encoding="utf-8")
    os.utime(path, (WRITTEN.timestamp(), WRITTEN.timestamp()))
    catalog = load_catalog()
    logs = read_logs(
        tmp_path / "logs",
        WIDE,
        recognise=lambda m: (
            match(pl.DataFrame({"message": m}), catalog).get_column("signature").is_not_null()
        ),
    )
    assert logs.receipt.files["node1/ldmsd.log"] != "nvidia-smi"
    assert logs.frame.get_column("raw").to_list() == [line]
    assert match(logs.frame, catalog).get_column("signature").to_list() == ["gpu-monitoring-error"]
