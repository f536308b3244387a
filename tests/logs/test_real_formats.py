"""The readers on real files (tests/logs/corpus: formats/ and excerpts/, each beside a
.source naming where it came from): every line read, with its time, host, rank, level."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from incidentbook.logs.analysis import line_severity
from incidentbook.logs.read import NOT_A_RECORD, read_log_file, read_logs
from incidentbook.logs.signatures import load_catalog, match, recogniser
from incidentbook.window import TimeWindow

CORPUS = Path(__file__).resolve().parent / "corpus"
FORMATS = CORPUS / "formats"
EXCERPTS = CORPUS / "excerpts"
WIDE = TimeWindow(start="2000-01-01T00:00:00Z", end="2030-01-01T00:00:00Z")
WRITTEN = datetime(2024, 6, 1, 12, tzinfo=UTC)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def read(path: Path, **kw):
    return read_log_file(path, kw.pop("window", WIDE), **kw)


def copied(tmp_path: Path, source: Path, name: str | None = None) -> Path:
    """A copy dated WRITTEN (what a file with no time at all is dated by)."""
    target = tmp_path / (name or source.name)
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    os.utime(target, (WRITTEN.timestamp(), WRITTEN.timestamp()))
    return target


RAW_DMESG = {
    "cloudinit_wrapped_journal_persistenced_api_mismatch.log",
    "rasdaemon_mce_dmesg.log",
    "habana_cpucp_timeout.log",
    "amdgpu_noretry_pagefault.log",
    "lkp_kasan_double_free_dmesg_x.log",
    "lxd_netns_leak_unregister_netdevice.log",
}


def balanced(report) -> bool:
    return report.lines_read == report.in_window + report.outside_window + report.skipped + (
        report.lost
    )


def test_thunderbird_every_line_read_at_its_epoch_time():
    frame, report = read(FORMATS / "loghub_thunderbird/Thunderbird_2k.log")
    assert report.files == {"Thunderbird_2k.log": "thunderbird"}
    assert report.in_window == 2000 and report.lost == 0 and balanced(report)
    first = frame.filter(pl.col("line") == 1).row(0, named=True)
    # `- 1131566461 2005.11.09 dn228 Nov 9 12:01:01 dn228/dn228 crond(pam_unix)[2915]: ...`
    assert first["ts"] == utc(2005, 11, 9, 20, 1, 1)  # the epoch field, not the local stamp
    assert first["host"] == "dn228"
    assert first["message"] == "session closed for user root"
    assert frame.get_column("host").n_unique() > 10


def test_syslog_with_localised_months_and_single_digit_days():
    path = FORMATS / "syslog_localised_months/syslog_localised.log"
    frame, report = read(
        path, window=TimeWindow(start="2018-01-01T00:00:00Z", end="2019-01-01T00:00:00Z")
    )
    assert report.files == {"syslog_localised.log": "syslog-3164"}
    assert report.in_window == 5 and balanced(report)
    got = frame.sort("line").select("ts", "host").rows()
    assert got[0] == (utc(2018, 11, 15, 14, 15, 47), "leon-NF5468M6")  # `11月 15`
    assert got[2] == (utc(2018, 10, 10, 18, 26, 25), "alexv-pop-s76")  # `oct. 10`
    frame, report = read(FORMATS / "syslog_single_digit_day/syslog_two_space_day.log")
    assert report.in_window == 7 and report.lost == 0
    by_line = {r["line"]: r for r in frame.iter_rows(named=True)}
    assert by_line[1]["host"] == "wendy" and by_line[1]["ts"].month == 5
    assert by_line[1]["ts"].day == 3  # `May  3`
    # SONiC puts the level before the tag: `host INFO kernel:`
    assert by_line[7]["host"] == "str-s6100-acs-4" and by_line[7]["severity"] == "info"


def test_slurm_daemon_logs_and_client_messages(tmp_path):
    frame, report = read(FORMATS / "slurm/slurmctld.log")
    assert report.files == {"slurmctld.log": "slurm-daemon"} and report.in_window == 19
    rows = {r["line"]: r for r in frame.iter_rows(named=True)}
    assert rows[4]["ts"] == utc(2015, 11, 10, 12, 20, 19, 846000)
    # the daemon and the level stay in the message, as journalctl shows the line
    assert rows[4]["severity"] == "err"
    assert rows[4]["message"] == "slurmctld: error: Nodes c002 not responding"
    assert rows[2]["severity"] == "info"
    found = match(frame.filter(pl.col("line") == 4), load_catalog()).item(0, "signature")
    assert found == "slurm-node-not-responding"
    frame, report = read(FORMATS / "slurm/slurmd_slurmstepd.log")
    assert report.in_window == 4 and frame.filter(pl.col("severity") == "err").height == 2
    # srun/slurmstepd lines carry no time: alone in a file they take its date
    path = copied(tmp_path, FORMATS / "slurm/slurm_client_stderr.log")
    frame, report = read(path)
    assert report.files == {"slurm_client_stderr.log": "slurm-client"}
    assert report.in_window == 26 and report.file_timed == 26 and balanced(report)
    assert frame.get_column("ts").unique().to_list() == [WRITTEN]
    assert frame.get_column("inferred").all()
    assert frame.filter(pl.col("line") == 3).item(0, "message").startswith("srun: error: Orion")


def test_a_slurm_daemons_error_lines_take_slurms_signatures(tmp_path):
    # Lines of lines.yaml from slurmd and slurmctld logs (nateGeorge/slurm_gpu_ubuntu#7,
    # mknoxnv/ubuntu-slurm#3): in a file named for the daemon it leads the message; in a
    # file named otherwise, `slurm` does.
    lines = (
        "[2023-10-16T10:42:01.139] error: slurmd initialization failed\n"
        "[2018-05-16T22:07:25.483] fatal: slurm_cred_creator_ctx_create((null)): Operation "
        "not permitted\n"
    )
    (tmp_path / "slurmd.log").write_text(lines)
    (tmp_path / "node12.txt").write_text(lines)
    for name, daemon in (("slurmd.log", "slurmd"), ("node12.txt", "slurm")):
        frame, report = read(
            tmp_path / name,
            window=TimeWindow(start="2018-01-01T00:00:00Z", end="2024-01-01T00:00:00Z"),
        )
        assert report.files == {name: "slurm-daemon"}
        frame = frame.sort("line")
        assert frame.get_column("message").to_list() == [
            f"{daemon}: error: slurmd initialization failed",
            f"{daemon}: fatal: slurm_cred_creator_ctx_create((null)): Operation not permitted",
        ]
        found = match(frame, load_catalog()).get_column("signature").to_list()
        assert found == ["slurm-error", "slurm-daemon-fatal"], name


def test_go_components_of_kubernetes_gpu_nodes():
    cases = {
        "klog_device_plugin.log": ("klog", 4),
        "logrus_dcgm_exporter.log": ("logfmt", 7),
        "slog_dcgm_exporter.log": ("logfmt", 2),
        "golang_stdlog_device_plugin.log": ("go-log", 7),
        "journald_wrapped_klog.log": ("syslog-3164", 3),
        "json_structured.log": ("jsonl", 3),
    }
    for name, (fmt, lines) in cases.items():
        frame, report = read(FORMATS / "k8s_gpu" / name)
        assert report.files == {name: fmt}, name
        assert report.in_window == lines and report.lost == 0, (name, report.unreadable)
    frame, _ = read(FORMATS / "k8s_gpu/logrus_dcgm_exporter.log")
    fatal = frame.filter(pl.col("line") == 4).row(0, named=True)
    assert fatal["severity"] == "crit" and fatal["ts"] == utc(2022, 9, 29, 12, 9, 14)
    # `kubectl logs --timestamps`: the runtime's own RFC 3339 time wins over klog's
    frame, report = read(EXCERPTS / "k8s_device_plugin_xid_unhealthy.log")
    assert report.files == {"k8s_device_plugin_xid_unhealthy.log": "klog"}
    assert frame.sort("line").item(0, "ts") == utc(2024, 8, 9, 13, 32, 51, 873584)
    got = match(frame, load_catalog()).filter(pl.col("signature") == "k8s-gpu-unhealthy")
    # each event: NVML's event (type 8, data 94), the Xid line, the unhealthy mark
    assert got.height == 6 and set(got.get_column("xid").drop_nulls().to_list()) == {94}


def test_torchrun_prefix_gives_the_local_rank_and_the_crash(tmp_path):
    path = copied(tmp_path, EXCERPTS / "trainer_crash_default_prefix_cudaerror.log")
    frame, report = read(path, host="jean-zay-iam01")
    assert report.files == {path.name: "trainer"}
    assert report.in_window == 10 and report.lost == 0
    assert frame.get_column("local_rank").unique().to_list() == [3]
    first = frame.sort("line").row(0, named=True)
    assert first["message"] == "terminate called after throwing an instance of 'c10::CUDAError'"
    assert first["host"] == "jean-zay-iam01"
    found = match(frame, load_catalog())
    assert "cuda-abort" in found.get_column("signature").to_list()


def test_ray_worker_tag_gives_the_rank_and_the_node_and_the_crash(tmp_path):
    # Ray prints each worker's output behind `(Actor pid=N[, ip=A]) `; an actor named with
    # its rank (`MegatronPolicyWorker[rank=8]`) gives the rank, the address the node.
    path = copied(tmp_path, EXCERPTS / "ray_actor_rank_ip_abort.log")
    frame, report = read(path)
    assert report.files == {path.name: "trainer"}
    # (its second line is the tag alone: a blank line the worker printed)
    assert report.in_window == 3 and report.skipped == 1 and report.lost == 0
    assert frame.get_column("rank").unique().to_list() == [8]
    assert frame.get_column("host").unique().to_list() == ["10.109.19.209"]
    first = match(frame, load_catalog()).sort("line").row(0, named=True)
    assert first["message"] == "Fatal Python error: Aborted"
    assert first["signature"] == "process-fatal-signal"

    path = copied(tmp_path, EXCERPTS / "ray_worker_sigabrt.log")
    frame, report = read(path, host="worker-3")
    assert report.files == {path.name: "trainer"} and report.in_window == 4
    found = match(frame, load_catalog()).sort("line")
    assert found.get_column("signature").to_list()[1] == "process-fatal-signal"
    assert found.item(1, "message") == "*** SIGABRT received at time=1734086759 ***"
    assert set(found.get_column("host")) == {"worker-3"}


def test_a_crash_report_alone_is_read_and_known(tmp_path):
    # A job's output that is nothing but its shell's (or gdb's) report of the crash.
    for name, text, signature in (
        ("shell.log", "Segmentation fault (core dumped)\n", "process-segfault"),
        ("illegal.log", "Illegal instruction (core dumped)\n", "process-fatal-signal"),
        (
            "gdb.log",
            "Program terminated with signal SIGSEGV, Segmentation fault.\n",
            "process-segfault",
        ),
    ):
        path = tmp_path / name
        path.write_text(text)
        os.utime(path, (WRITTEN.timestamp(), WRITTEN.timestamp()))
        frame, report = read(path)
        assert report.files == {name: "messages"}, name
        row = match(frame, load_catalog()).row(0, named=True)
        assert (row["signature"], row["severity"], row["ts"]) == (signature, "err", WRITTEN)


def test_kubectl_events_table_is_read_as_events(tmp_path):
    # `kubectl describe pod`'s Events table: one line per event (its reason, then its
    # text), Warning events as warnings, the header skipped, dated by the file.
    path = copied(tmp_path, EXCERPTS / "k8s_describe_pod_events_gpu.log")
    frame, report = read(path, host="pkm-05")
    assert report.files == {path.name: "k8s-events"}
    assert report.in_window == 6 and report.skipped == 3 and report.lost == 0
    assert frame.get_column("ts").unique().to_list() == [WRITTEN]
    severity = frame.sort("line").get_column("severity").to_list()
    assert severity == ["warning"] * 2 + ["info"] + ["warning"] * 3
    found = match(frame, load_catalog()).sort("line")
    admission = found.filter(pl.col("signature") == "k8s-gpu-allocate-failed")
    assert admission.get_column("line").to_list() == [8]
    assert admission.item(0, "message").startswith("UnexpectedAdmissionError: Allocate failed")


def test_a_known_line_in_a_file_of_no_known_format_is_kept_dated_by_the_file(tmp_path):
    # A container's state from `kubectl describe pod`, pasted alone: no reader knows the
    # lines, but the catalog knows `Reason: OOMKilled`, which is kept, dated by the file.
    path = copied(tmp_path, EXCERPTS / "k8s_describe_pod_oomkilled.log")
    catalog = load_catalog()
    frame, report = read(path, recognise=recogniser(catalog))
    assert report.files == {path.name: "unknown"}
    assert frame.get_column("message").to_list() == ["  Reason:       OOMKilled"]
    assert frame.get_column("ts").to_list() == [WRITTEN]
    assert frame.get_column("inferred").to_list() == [True]
    assert match(frame, catalog).item(0, "signature") == "k8s-container-oom-killed"
    assert report.recognised == 1 and report.in_window == 1 and report.lost == 6
    assert balanced(report)
    assert any("1 line of them that a signature recognises was kept" in n for n in report.notes())
    # Outside the window it is counted there, like any line.
    early = TimeWindow(start="2000-01-01T00:00:00Z", end="2001-01-01T00:00:00Z")
    frame, report = read(path, window=early, recognise=recogniser(catalog))
    assert frame.height == 0 and report.outside_window == 1 and balanced(report)
    # Without a catalog to recognise lines, a file of no known format is only counted.
    frame, report = read(path)
    assert frame.height == 0 and report.lost == 7 and report.recognised == 0


BMC = FORMATS / "bmc_sel"


def _sel(path: Path, **kw):
    frame, report = read(path, **kw)
    found = match(frame, catalog := load_catalog()).with_columns(level=line_severity(catalog))
    return found.sort("line"), report


def test_bmc_sel_as_ipmitool_prints_it():
    frame, report = _sel(BMC / "ipmitool_sel_elist_fan_redundancy_lost_psu_ac_lost.log")
    assert report.files == {"ipmitool_sel_elist_fan_redundancy_lost_psu_ac_lost.log": "bmc-sel"}
    assert report.in_window == 40 and report.lost == 0 and balanced(report)
    assert report.local_time_formats == {"bmc-sel"}  # the BMC's clock, read in assume_tz
    row = {r["line"]: r for r in frame.iter_rows(named=True)}
    # `   c | 06/03/2014 | 17:38:26 | Fan #0x38 | Lower Critical going low  | Asserted`
    assert row[11]["ts"] == utc(2014, 6, 3, 17, 38, 26)
    assert row[11]["message"] == "Fan #0x38 | Lower Critical going low | Asserted"
    assert (row[11]["signature"], row[11]["level"]) == ("bmc-fan-failure", "error")
    # the same condition ending is information, a lost spare is a warning
    ended = frame.filter(pl.col("message") == "Fan #0x38 | Lower Critical going low | Deasserted")
    assert ended.get_column("level").unique().to_list() == ["info"]
    assert (row[4]["signature"], row[4]["level"]) == ("bmc-fan-failure", "warning")
    assert (row[40]["signature"], row[40]["level"]) == ("bmc-power-supply-failure", "error")
    # benign records take no signature
    benign = frame.filter(pl.col("message").str.contains("Version Change|Presence detected"))
    assert benign.height and benign.get_column("signature").null_count() == benign.height


def test_bmc_sel_clocks_years_and_records_before_the_clock(tmp_path):
    # 12-hour clock with a zone abbreviation (read in assume_tz), a two-digit year.
    frame, _ = _sel(BMC / "ipmitool_sel_elist_psu_inlet_temp_reading_12h_clock_tz.log")
    assert frame.item(0, "ts") == utc(2022, 5, 27, 18, 12, 15)
    assert frame.item(0, "level") == "info"  # Upper Non-critical going high | Deasserted
    frame, _ = _sel(BMC / "ipmitool_sel_elist_correctable_ecc_timezone.log")
    assert frame.item(0, "ts") == utc(2022, 12, 14, 23, 9, 44)
    assert (frame.item(0, "signature"), frame.item(0, "level")) == ("bmc-memory-ecc", "warning")
    # Records logged before the BMC knew the time, and nothing after them: no time at all,
    # so the list is dated by its file, the time it was saved (the rows are at least that
    # old), and they count as dated so (before, both were lost).
    name = "ipmitool_sel_elist_preinit_critical_interrupt_bus_fatal.log"
    frame, report = _sel(copied(tmp_path, BMC / name))
    assert frame.height == 2 and report.lost == 0 and balanced(report)
    assert report.file_timed == 2 and frame.get_column("ts").to_list() == [WRITTEN] * 2


def test_bmc_sel_as_freeipmi_prints_it():
    path = BMC / "ipmi_sel_postinit_psu_failure_os_shutdown.log"
    frame, report = _sel(path)
    assert report.files == {path.name: "bmc-sel"}
    assert report.skipped == 1 and report.in_window == 6 and report.lost == 0
    row = {r["line"]: r for r in frame.iter_rows(named=True)}
    # `PostInit` records take the time of the first dated record after them, inferred.
    assert row[3]["ts"] == utc(2017, 7, 20, 10, 29, 49) and row[3]["inferred"]
    assert row[5]["severity"] == "crit"  # FreeIPMI's state column
    assert row[5]["message"] == (
        "Power Supply PS2 Status | Power Supply | Critical | Power Supply Failure detected"
    )
    assert (row[5]["signature"], row[5]["level"]) == ("bmc-power-supply-failure", "error")
    assert row[7]["severity"] == "warning" and row[7]["signature"] is None  # graceful shutdown
    # Without the state column: the event follows the sensor's type.
    frame, _ = _sel(BMC / "ipmi_sel_no_state_psu_redundancy_lost_ac_lost.log")
    got = dict(frame.select("message", "level").filter(pl.col("level").is_not_null()).rows())
    assert got["Status | Power Supply | Power Supply input lost (AC/DC)"] == "error"
    assert got["PS Redundancy | Power Supply | Redundancy Lost"] == "warning"


def test_every_bmc_specimen_is_read_and_no_benign_record_alerts():
    for path in sorted(BMC.glob("*.log")):
        frame, report = _sel(path)
        assert report.files == {path.name: "bmc-sel"}, path.name
        assert balanced(report), path.name
    frame, _ = _sel(BMC / "ipmi_sel_log_cleared_power_off_benign.log")
    assert frame.filter(pl.col("level").is_in(["error", "critical"])).height == 0
    frame, _ = _sel(BMC / "ipmitool_sel_list_firmware_progress_boot.log")
    assert frame.get_column("signature").null_count() == frame.height


def test_gpfs_daemon_log():
    path = FORMATS / "gpfs/mmfs_log_rdma_quorum_expel.log"
    frame, report = _sel(path)
    assert report.files == {path.name: "gpfs"} and report.lost == 0 and balanced(report)
    row = {r["line"]: r for r in frame.iter_rows(named=True)}
    # `2024-11-23_01:16:26.221+0800: [E] VERBS RDMA: fatal async event ...`, in UTC
    assert row[22]["ts"] == datetime(2024, 11, 22, 17, 16, 26, 221000, tzinfo=UTC)
    assert row[22]["severity"] == "err" and row[22]["signature"] == "gpfs-error"
    assert row[30]["severity"] == "crit"  # [X] Recovery Log I/O failed
    # mmdsh's node prefix names the host
    assert row[33]["host"] == "css2-g55-001" and row[33]["signature"] == "gpfs-error"
    # a reconnect after a bad TCP state is a warning; a connection made is nothing
    assert (row[28]["signature"], row[28]["level"]) == ("gpfs-error", "warning")
    assert row[9]["signature"] is None
    found = set(frame.get_column("signature").drop_nulls())
    assert {"gpfs-error", "soft-lockup", "hard-lockup"} <= found
    # the fixture's syslog kernel lines are no GPFS lines but carry their own time (no
    # year, no zone: read in assume_tz, the year from the window)
    nov = TimeWindow(start="2024-11-22T00:00:00Z", end="2024-11-24T00:00:00Z")
    frame, report = _sel(path, window=nov, assume_tz="Asia/Shanghai")
    row = {r["line"]: r for r in frame.iter_rows(named=True)}
    assert row[11]["ts"] == utc(2024, 11, 22, 17, 4, 42) and not row[11]["inferred"]
    assert row[11]["signature"] == "soft-lockup"
    assert {"generic-yearless"} <= report.yearless_formats
    # an older release's stamp: a ctime with a zone abbreviation, read in assume_tz
    frame, report = read(FORMATS / "gpfs/mmfs_log_old_ctime.log")
    assert report.files == {"mmfs_log_old_ctime.log": "gpfs-ctime"}
    assert frame.item(0, "ts") == utc(2014, 6, 3, 22, 38, 4)
    assert report.local_time_formats == {"gpfs-ctime"}


def test_pytorch_rank_prefix_and_rank_to_host(tmp_path):
    path = copied(tmp_path, EXCERPTS / "trainer_crash_rank_prefix_ncclremote.log")
    frame, report = read(path)
    assert report.in_window == 14 and report.lost == 0
    assert set(frame.get_column("rank").to_list()) == {2, 3}
    # The job's output names no host: the incident's rank map does.
    frame, _ = read(path, ranks={2: "node-b", 3: "node-a"})
    hosts = dict(frame.select("rank", "host").unique().iter_rows())
    assert hosts == {2: "node-b", 3: "node-a"}
    # ... and lines that give both teach the file's other lines: NCCL's ncclCommInitRank
    # line says rank 2 is bigo (nccl-tests#373), a `[rank2]:` line then belongs to bigo.
    logs = tmp_path / "logs"
    logs.mkdir()
    init = (EXCERPTS / "nccl_info_init_block.log").read_text().splitlines()
    crash = path.read_text().splitlines()
    (logs / "job.out").write_text("\n".join(init + crash) + "\n")
    got = read_logs(logs, WIDE).frame
    ranked = got.filter(pl.col("rank") == 2).get_column("host").unique().to_list()
    assert ranked == ["bigo"]


def test_megatron_iteration_lines_behind_the_launcher(tmp_path):
    path = copied(tmp_path, EXCERPTS / "megatron_iteration_lines_bloom.log")
    frame, report = read(path)
    assert report.lost == 0 and report.in_window == 12
    iterations = frame.filter(pl.col("source") == "megatron")
    assert iterations.height >= 10
    assert iterations.get_column("local_rank").unique().to_list() == [7]
    assert iterations.sort("line").item(0, "message").startswith("iteration    31214/  115311 |")


def test_mpi_launcher_tags(tmp_path):
    frame, report = read(copied(tmp_path, FORMATS / "mpirun_output/prrte_output_tag.log"))
    assert report.files == {"prrte_output_tag.log": "trainer"} and report.in_window == 4
    assert sorted(frame.get_column("rank").to_list()) == [0, 1, 2, 3]
    frame, _ = read(copied(tmp_path, FORMATS / "mpirun_output/pals_mpiexec_host_rank_label.log"))
    assert frame.get_column("host").unique().to_list() == ["nid003400.dogwood.wcoss2.ncep.noaa.gov"]
    assert sorted(frame.get_column("rank").to_list()) == [0, *range(16, 24)]
    # --timestamp-output: the launcher's own time
    frame, _ = read(copied(tmp_path, FORMATS / "mpirun_output/ompi4_timestamp_tag_output.log"))
    assert frame.rows(named=True)[0] | {} == frame.rows(named=True)[0]
    row = frame.row(0, named=True)
    assert (row["ts"], row["rank"], row["inferred"]) == (utc(2020, 5, 7, 10, 39, 20), 1, False)
    assert row["message"] == "Hello, World, I am 1 of 8"


def test_python_logging_shapes_keep_their_logger(tmp_path):
    path = copied(tmp_path, FORMATS / "trainer_logging/python_logging_and_launchers.log")
    frame, report = read(path)
    assert report.files == {path.name: "trainer"} and report.lost == 0
    by_source = frame.group_by("source").len().sort("source")
    assert set(by_source.get_column("source")) >= {"deepspeed", "nanotron", "python-logging"}
    elastic = frame.filter(pl.col("message").str.contains("elastic")).sort("line")
    assert elastic.height == 5
    # the logger's name stays in the message: signatures read it
    found = match(elastic, load_catalog()).get_column("signature").to_list()
    assert found.count("trainer-crash") == 5


def test_unknown_formats_with_a_time_are_read_by_the_generic_reader(tmp_path):
    # Lines of tests/logs/corpus/lines.yaml in formats no specific reader knows.
    lines = {
        "ucx.log": "[1443518626.518088] [feynman6:31000:0]        ib_mlx5.c:200  UCX  ERROR "
        "Failed to get mlx5 QP information",  # openucx/ucx#420
        "talos.log": "192.168.11.119: kern: warning: [2026-04-22T21:30:51.870495804Z]: NVRM: "
        "Xid (PCI:0000:0b:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 "
        "(GPU Reset Required)",  # siderolabs/extensions
        "openwrt.log": "Sun Jun 11 23:02:41 2023 kern.info kernel: [39210.778735] igc "
        "0000:05:00.0 eth5: NIC Link is Down",  # openwrt/openwrt
    }
    for name, line in lines.items():
        (tmp_path / name).write_text(line + "\n")
    ucx, report = read(tmp_path / "ucx.log")
    # (UCX's lines have had a reader of their own since the seventh excerpt set)
    assert report.files == {"ucx.log": "ucx"}
    assert ucx.item(0, "ts") == utc(2015, 9, 29, 9, 23, 46, 518088)
    assert ucx.item(0, "severity") == "err"
    talos, _ = read(tmp_path / "talos.log")
    assert talos.item(0, "ts") == utc(2026, 4, 22, 21, 30, 51, 870495)
    assert talos.item(0, "message").startswith("NVRM: Xid (PCI:0000:0b:00): 154")
    assert talos.item(0, "severity") == "warning"
    openwrt, report = read(tmp_path / "openwrt.log")
    assert openwrt.item(0, "ts") == utc(2023, 6, 11, 23, 2, 41)
    assert openwrt.item(0, "severity") == "info"  # kern.info
    assert any("generic-local" in n for n in report.notes())


def test_words_before_the_time_stay_in_the_message(tmp_path):
    # sinfo -R rows (lines.yaml): the reason and the user come before the time, and they
    # are what the line says; a host or a facility and level before it are not text.
    path = tmp_path / "sinfo-R.txt"
    path.write_text(
        "Kill task failed root 2024-01-25T15:12:23 ip-10-0-1-23\n"  # aws-plugin-for-slurm
        "gres/gpu count repor slurm     2026-04-14T06:39:53 slinky-0\n"  # SlinkyProject
    )
    frame, report = read(
        path, window=TimeWindow(start="2024-01-01T00:00:00Z", end="2027-01-01T00:00:00Z")
    )
    assert report.files == {"sinfo-R.txt": "generic"}
    assert frame.sort("line").get_column("message").to_list() == [
        "Kill task failed root ip-10-0-1-23",
        "gres/gpu count repor slurm slinky-0",
    ]
    found = match(frame.sort("line"), load_catalog()).get_column("signature").to_list()
    assert found == ["slurm-node-fail", "slurm-gpu-count-low"]


def test_dmesg_human_stamps_and_deltas(tmp_path):
    # dmesg -H: a stamp when the minute changes, deltas after it (lines.yaml, thermal class)
    path = tmp_path / "dmesg-H.txt"
    path.write_text(
        "[Feb22 04:01] CPU5: Core temperature above threshold, cpu clock throttled (total "
        "events = 2081)\n"
        "[  +0.000001] CPU0: Package temperature above threshold, cpu clock throttled (total "
        "events = 2263)\n"
    )
    frame, report = read(
        path, window=TimeWindow(start="2024-01-01T00:00:00Z", end="2024-06-01T00:00:00Z")
    )
    assert report.files == {"dmesg-H.txt": "kernel-human"}
    assert frame.sort("line").get_column("ts").to_list() == [
        utc(2024, 2, 22, 4, 1),
        utc(2024, 2, 22, 4, 1) + timedelta(microseconds=1),
    ]


def test_messages_without_any_time_take_their_files_date(tmp_path):
    # `dmesg -t`-style and command output lines from lines.yaml
    path = tmp_path / "pasted.txt"
    path.write_text(
        "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus\n"
        "Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error\n"
        "mount.nfs: portmap query failed: RPC: Remote system error - Connection timed out\n"
    )
    os.utime(path, (WRITTEN.timestamp(), WRITTEN.timestamp()))
    frame, report = read(path)
    assert report.files == {"pasted.txt": "messages"} and report.in_window == 3
    assert frame.get_column("ts").unique().to_list() == [WRITTEN]
    found = match(frame.sort("line"), load_catalog()).get_column("signature").to_list()
    assert found == ["nvidia-xid", "gpu-fallen-off-bus", "shared-filesystem-error"]
    # prose stays an unknown format, counted, not read
    (tmp_path / "notes.txt").write_text("what happened\nnobody knows\n")
    frame, report = read(tmp_path / "notes.txt")
    assert report.files == {"notes.txt": "unknown"} and frame.height == 0


@pytest.mark.parametrize(
    "name",
    [
        "dmesg_T_hung_task_gpfs_training_hang.log",
        "dmesg_T_xid_burst.log",
        "nccl_ib_completion_error.log",
        "slurmctld_nodes_not_responding.log",
        "slurmctld_requeue_node_failure.log",
        "trainer_crash_ecc_megatron_deepspeed.log",
        "trainer_iteration_then_slurm_node_failure.log",
        # gathered blind (MANIFEST, excerpts/)
        "rasdaemon_mce_dmesg.log",
        "nvc_driver_signal15.log",
        "openbic_logutil_pmic.log",
        "snap_slurm_journal_x.log",
        "nccl_xml_import_dev_not_found.log",
        "nemo_nccl_unhandled_traceback.log",
        "habana_cpucp_timeout.log",
        "amdgpu_noretry_pagefault.log",
        "um_slurmctld_drain.log",
        "llamafactory_watchdog_numbered.log",
        "nixos_ras_mc_ctl_errors.log",
        "steamos_amdgpu_dmesg_T.log",
        "rasdaemon_summary_lkml.log",
        "surface_i915_guc_dmesg_xT.log",
        "lkp_kasan_double_free_dmesg_x.log",
        "cynhpc_pdsh_slurmd_log.log",
        "argon_ipmi_sel_elist_tail.log",
        "jade_lustre_lnet_dmesg_T.log",
        "dcgm_exporter_compose_logfmt_fatal.log",
        "skypilot_nccl_socket_abort.log",
        "nccl_ib_completion_status12.log",
        "nv_hostengine_profiling_getsamples.log",
        "talos_kern_nvswitch_sxid_xid62.log",
        "kubectl_describe_driver_backoff.log",
        "cloudinit_wrapped_journal_persistenced_api_mismatch.log",
        "nvidia_smi_table_power_err.log",
        "sonic_switch_syslog_port_down_local_fault.log",
        "ray_workerdict_torch_rank_nccl_watchdog.log",
        "slurmstepd_pmix_errhandler_dgx.log",
        "srun_label_scream_illegal_address.log",
        # the fifth blind set
        "deepspeed_pdsh_nccl_cuda_init_error.log",
        "determined_trial_log_nccl_watchdog.log",
        "dcgm_hostengine_profiling_unsupported_arch.log",
        "tritonserver_trtllm_vgpu_load_failure.log",
        "ray_raylet_oom_kill_easyr1.log",
        "k8s_e2e_gpu_device_plugin_gce.log",
        "cloudwatch_console_sagemaker_nccl_watchdog.log",
        "deepspeed_launcher_16gpu_device_mismatch_crash.log",
        "mpirun_nccl_ib_async_fatal_qp.log",
        "ray_llmengine_prefix_nccl_proxy_connect.log",
        "nvidia_bug_report_journal_zh_month_xid.log",
        # the seventh
        "srun_label_ucx_native_segfault_cori.log",
        # the fourteenth
        "lxd_netns_leak_unregister_netdevice.log",
        # the fifteenth
        "sglang_2node_nccl_ib_loc_prot_err.log",
        "torchrun_2node_invalid_device_ordinal.log",
        "mlperf_lambda_llama70b_lora_teardown_healthy.log",
        "mlperf_oracle_64node_nccl_proxy_teardown_healthy.log",
        "gh200_slurmctld_foreground_nodes_not_responding.log",
        # the sixteenth
        "rtxpro_serving_box_journal_xid79_onset.log",
        "rtxpro_serving_box_journal_xid154_teardown.log",
        "v100_homelab_nvidia_smi_healthy.log",
    ],
)
def test_every_excerpt_is_read_whole(tmp_path, name):
    # (raw `[seconds]` dmesg is placed by its host's boot time, as incident.yaml gives it)
    boot = {"*": utc(2024, 1, 1)} if name in RAW_DMESG else None
    _, report = read(copied(tmp_path, EXCERPTS / name), boot_times=boot)
    assert report.files[name] != "unknown"
    assert report.lost == 0 and report.outside_window == 0, report.unreadable
    assert report.in_window + report.skipped == report.lines_read


def test_a_syslog_lines_program_tag_reaches_the_signatures(tmp_path):
    """What a line means can depend on who said it: the syslog reader keeps a program's tag
    in the message (the kernel's it leaves out), so a daemon's `fatal:` or a health check's
    verdict is known through the readers as it is on the pasted line."""
    path = tmp_path / "syslog"
    path.write_text(
        # https://github.com/ComputeCanada/puppet-magic_castle/issues/27
        "Feb 20 18:59:13 node2.int.rubberducky.calculquebec.cloud slurmd[57977]: fatal: "
        "gres.conf duplicate records for gpu\n"
        # https://github.com/mej/nhc/issues/161
        "2025-06-11T19:12:23.050922+00:00 cpu001 nhc[1013622]: Health check failed:  Script "
        "timed out.\n"
        # a kernel line keeps the kernel's wording without its tag
        "Feb 20 18:59:14 node2 kernel: NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the "
        "bus.\n"
    )
    frame, report = read(
        path, window=TimeWindow(start="2025-01-01T00:00:00Z", end="2025-12-31T00:00:00Z")
    )
    assert report.files == {"syslog": "syslog-3164"}
    frame = frame.sort("line")
    assert frame.get_column("message").to_list() == [
        "slurmd[57977]: fatal: gres.conf duplicate records for gpu",
        "nhc[1013622]: Health check failed:  Script timed out.",
        "NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus.",
    ]
    found = match(frame, load_catalog()).get_column("signature").to_list()
    assert found == ["slurm-daemon-fatal", "node-health-check-failed", "nvidia-xid"]


def test_a_kernel_line_without_host_keeps_its_driver(tmp_path):
    """A kernel line pasted with an ISO time and neither host nor tag (`amdgpu
    0000:04:00.0: ...`): the driver's name is not a host (no host is followed by a PCI
    address), so it stays in the message and the signatures see it; the host is the
    file's. Before, `amdgpu` became the host and the message began at the address."""
    path = tmp_path / "node3.log"
    path.write_text(
        # https://github.com/ROCm/TheRock/issues/8232 (a corpus line: gpu-fallen-off-bus)
        "2026-09-17T14:25:57Z amdgpu 0000:04:00.0: device lost from bus!\n"
        "2026-09-17T14:25:58Z node3 kernel: amdgpu 0000:04:00.0: a hosted line beside it\n"
    )
    frame, report = read(path)
    assert report.files == {"node3.log": "syslog-3164"}
    rows = frame.sort("line").select("host", "message").rows()
    assert rows == [
        ("node3", "amdgpu 0000:04:00.0: device lost from bus!"),
        ("node3", "amdgpu 0000:04:00.0: a hosted line beside it"),
    ]
    found = match(frame.sort("line"), load_catalog()).get_column("signature").to_list()
    assert found[0] == "amdgpu-fault"


def test_dmesg_T_in_the_hosts_locale(tmp_path):
    """`dmesg -T` writes its stamp with the host's locale: a Brazilian host's `Ter Set 19`
    (Tuesday, September) is read like `Tue Sep 19`, the month by its name in any locale
    formats.months knows; before, every such line was an unreadable timestamp."""
    path = tmp_path / "dmesg.txt"
    path.write_text(
        # https://github.com/lnls-dig/bpm-gw/issues/73
        "[Ter Set 19 06:01:41 2017] pciehp 0000:02:05.0:pcie24: slot(6): Link Down event\n"
        "[Tue Sep 19 06:01:42 2017] pcieport 0000:00:1c.0: an English stamp beside it\n"
    )
    frame, report = read(path)
    assert report.files == {"dmesg.txt": "kernel-ctime"} and report.unreadable == {}
    assert frame.sort("line").get_column("ts").to_list() == [
        utc(2017, 9, 19, 6, 1, 41),
        utc(2017, 9, 19, 6, 1, 42),
    ]
    found = match(frame.sort("line"), load_catalog()).get_column("signature").to_list()
    assert found[0] == "pcie-link-down"


def test_journalctl_x_catalog_lines_belong_to_the_entry_before(tmp_path):
    """`journalctl -x` puts its catalog's explanation (`-- Subject: ...`, `-- Defined-By:`,
    `-- ` and the text between) under an entry, and `-- Logs begin at ...` above them all:
    they once outnumbered the entries in the first lines and made the paste an unknown
    format, every line lost. They are read as the lines of the entry before them."""
    name = "snap_slurm_journal_x.log"
    september = TimeWindow(start="2020-09-01T00:00:00Z", end="2020-10-01T00:00:00Z")
    frame, report = read(copied(tmp_path, EXCERPTS / name), window=september)
    assert report.files == {name: "syslog-3164"} and report.lost == 0
    lines = frame.sort("line")
    subject = lines.filter(pl.col("message").str.starts_with("-- Subject:")).row(0, named=True)
    assert subject["inferred"] and subject["ts"] == utc(2020, 9, 16, 8, 36, 51)
    found = match(lines, load_catalog())
    failed = found.filter(pl.col("signature") == "systemd-unit-failed").get_column("line")
    assert failed.to_list() == [10, 11, 12]  # main process exited, failed state, failed


def test_rasdaemon_report_and_its_machine_checks(tmp_path):
    """`ras-mc-ctl --errors`: sections (`No PCIe AER errors.`, `MCE events:`) skipped, each
    numbered record read at its own time and offset; rasdaemon's corrected machine checks
    are warnings (the same address three times in a day is for the operator to see)."""
    name = "nixos_ras_mc_ctl_errors.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "rasdaemon"} and report.lost == 0
    records = frame.filter(~pl.col("inferred")).sort("line")
    assert records.get_column("ts").to_list() == [
        utc(2024, 12, 19, 3, 52, 38),
        utc(2024, 12, 20, 9, 33, 1),
        utc(2024, 12, 20, 10, 0, 20),
    ]
    found = match(records, load_catalog()).with_columns(severity=line_severity(load_catalog()))
    assert found.select("signature", "severity").unique().rows() == [("machine-check", "warning")]


def test_rasdaemon_summary_dated_by_its_file(tmp_path):
    """`ras-mc-ctl --summary` counts errors per DIMM, device and CPU and has no times: its
    lines are dated by the file, its sections skipped; an uncorrected DIMM and uncorrected
    PCIe AER errors are what the catalog flags."""
    name = "rasdaemon_summary_lkml.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "rasdaemon"} and report.lost == 0
    assert frame.get_column("ts").unique().to_list() == [WRITTEN]
    catalog = load_catalog()
    found = match(frame.sort("line"), catalog).with_columns(severity=line_severity(catalog))
    flagged = found.filter(pl.col("signature").is_not_null())
    assert flagged.select("line", "signature", "severity").rows() == [
        (2, "edac-memory-error", "error"),
        (6, "pcie-aer-uncorrected", "error"),
    ]


def test_a_sel_whose_rows_are_indented_between_headers(tmp_path):
    """ipmitool indents a SEL's ids (`  53 | 12/19/2024 | ...`); a script printing one
    node's SEL after another puts `Running on: host` and a ruler between them, the only
    unindented lines. The format was once unknown (indented lines are left out of
    detection); a file no format takes by its unindented lines is now tried on all its
    first lines. The BMC's record of the OS stopping is a kernel panic."""
    name = "argon_ipmi_sel_elist_tail.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "bmc-sel"} and report.lost == 0
    catalog = load_catalog()
    found = match(frame.sort("line"), catalog).filter(pl.col("signature").is_not_null())
    assert found.filter(pl.col("line").is_in([4, 11])).get_column("signature").to_list() == [
        "kernel-panic",
        "kernel-panic",
    ]


def test_a_go_components_klog_level_in_the_journal(tmp_path):
    """The journal shows the kubelet's, containerd's and the device plugin's lines with
    their klog header after the tag (`kubelet[14789]: E0208 ...`): where syslog states no
    level, that header's is the line's (before, none: the kubelet's errors were not err)."""
    path = tmp_path / "journal.txt"
    path.write_text(
        # https://github.com/cri-o/cri-o/issues/5490
        "Feb 08 00:36:32 kube-m1 kubelet[14789]: E0208 00:36:32.113096   14789 "
        "manager.go:1123] Failed to create existing container: /kubepods.slice\n"
        # https://github.com/kubernetes/minikube/issues/4084
        "Apr 12 09:28:14 Ahmadreza kubelet[14260]: I0412 09:28:14.769517   14260 "
        "eviction_manager.go:344] eviction manager: must evict pod(s) to reclaim "
        "ephemeral-storage\n"
    )
    frame, report = read(path)
    assert report.files == {"journal.txt": "syslog-3164"}
    assert frame.sort("line").get_column("severity").to_list() == ["err", "info"]


def test_skypilots_tags_are_a_launchers(tmp_path):
    """SkyPilot tags a node's output (`(head, rank=0, pid=5634) `) and then the process
    (`[nccl-e9ef-7d4f-0:3]:`): behind them NCCL's debug lines are read as NCCL's, with
    the rank and the host the tags give (before, the file was an unknown format)."""
    name = "skypilot_nccl_socket_abort.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "nccl"} and report.lost == 0
    warn = frame.filter(pl.col("message").str.contains("socketStartConnect")).row(0, named=True)
    assert (warn["rank"], warn["host"]) == (0, "nccl-e9ef-7d4f-0")
    assert warn["severity"] == "warning"


def test_a_table_with_no_diagnostics_results_keeps_its_lines(tmp_path):
    """nvidia-smi's own table is shaped like `dcgmi diag`'s; with no diagnostic's results
    in it, its rows are kept as they are (its rules skipped), so the catalog reads its
    `ERR!` (before, every line was skipped as a diagnostic's layout)."""
    name = "nvidia_smi_table_power_err.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.in_window == 3 and report.skipped == 2
    catalog = load_catalog()
    found = match(frame, catalog).with_columns(level=line_severity(catalog))
    row = found.filter(pl.col("line") == 3).row(0, named=True)
    assert row["source"] == "table"
    assert (row["signature"], row["level"]) == ("gpu-monitoring-error", "warning")


def test_srun_label_output_with_no_time_is_a_jobs_output(tmp_path):
    """`srun --label` output is a job's: each line its task's (` 0: `, right-aligned to the
    widest task id), dated by the file, whatever the task printed (before, unless a
    logger's shape followed the label, the file was an unknown format and only the lines
    a signature knows were kept)."""
    name = "srun_label_scream_illegal_address.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "trainer"} and report.lost == 0
    # (two of its lines are the tag alone, ` 0: `: blank lines rank 0 printed)
    assert report.in_window == 7 and report.file_timed == 7 and report.skipped == 2
    assert frame.get_column("rank").to_list() == [0] * 7
    crash = frame.filter(pl.col("message").str.starts_with("terminate called")).row(0, named=True)
    assert crash["ts"] == WRITTEN


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # Triton failing to start its server when its models do not load
        ("tritonserver_trtllm_vgpu_load_failure.log", {3: "inference-engine-dead"}),
        # Ray's raylet killing workers for memory pressure
        ("ray_raylet_oom_kill_easyr1.log", {1: "host-oom-kill"}),
        # NCCL's internal error, its proxy's failed connect, Ray's unhandled error of a task
        (
            "ray_llmengine_prefix_nccl_proxy_connect.log",
            {1: "nccl-error", 3: "nccl-error", 4: "trainer-crash"},
        ),
    ],
)
def test_the_fifth_excerpt_sets_failures_are_known_through_the_readers(tmp_path, name, expected):
    frame, _ = read(copied(tmp_path, EXCERPTS / name))
    got = match(frame, load_catalog()).filter(pl.col("line").is_in(list(expected)))
    assert dict(got.select("line", "signature").iter_rows()) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # cuDNN not initialised on an old driver, a failed CHECK, the shell's `Aborted`
        (
            "tf_cpp_cudnn_not_initialized_abort.log",
            {4: "cuda-error", 5: "cuda-error", 6: "uncaught-exception", 7: "process-fatal-signal"},
        ),
        # slurmd's GPU autodetection built for ROCm SMI on a node without it
        ("slurmd_foreground_rsmi_lib_missing.log", {15: "slurm-gpu-count-low"}),
        # IBM CSM's summary: CUDA calls failing in the epilog, an InfiniBand completion error
        (
            "csm_epilog_failure_summary_sierra.log",
            {1: "cuda-error", 2: "rdma-connection-error", 4: "cuda-error", 5: "cuda-error"},
        ),
    ],
)
def test_the_sixth_excerpt_sets_failures_are_known_through_the_readers(tmp_path, name, expected):
    catalog = load_catalog()
    frame, _ = read(copied(tmp_path, EXCERPTS / name), recognise=recogniser(catalog))
    got = match(frame, catalog).filter(pl.col("line").is_in(list(expected)))
    assert dict(got.select("line", "signature").iter_rows()) == expected


def test_srun_labelled_ucx_lines_are_a_jobs_output_timed_by_ucx(tmp_path):
    """`srun -l` output whose tasks print UCX's own log lines and a backtrace: the task id
    before an indented frame still says the line is a job's output (before, the frames
    did not count, and the whole file was an unknown format), and UCX's lines take their
    time, level and source from UCX's own header."""
    name = "srun_label_ucx_native_segfault_cori.log"
    catalog = load_catalog()
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "trainer"} and report.in_window == 40
    frame = frame.sort("line")
    first = frame.row(0, named=True)
    assert first["ts"] == utc(2020, 1, 17, 7, 5, 48, 838522)
    assert first["rank"] == 1 and first["source"] == "ucx" and first["severity"] == "debug"
    ucx_error = frame.row(8, named=True)
    assert ucx_error["severity"] == "err" and ucx_error["rank"] == 0
    assert ucx_error["message"].startswith("cuda_ipc_md.c:62   UCX  ERROR cuCtxGetDevice")
    got = match(frame, catalog).filter(pl.col("line").is_in([9, 11, 36]))
    assert got.get_column("signature").to_list() == [
        "ucx-error",
        "process-segfault",
        "slurm-task-failed",
    ]


@pytest.mark.parametrize(
    ("line", "fmt", "expected"),
    [
        # nvidia-smi -q's fields with no GPU block above them give no facts
        # (https://github.com/leptonai/gpud, testdata nvidia-smi-query.535.161.08)
        ("            HW Power Brake Slowdown       : Active", "nvidia-smi", "gpu-clock-slowdown"),
        # (https://github.com/Azure/azhpc-images/pull/506)
        (
            "    Status                            : Insufficient Resources",
            "nvidia-smi",
            "nvlink-error",
        ),
        # a dcgmi diag row whose test's cell is empty (https://github.com/NVIDIA/go-dcgm/issues/52)
        (
            "|                           | Fail - GPU: 0                                  |",
            "dcgmi-diag",
            "gpu-diagnostic-failure",
        ),
        # a sacct row with no header above it
        # (https://github.com/martius-lab/cluster_utils/issues/87)
        ("239023.0|galvani-cn001|CANCELLED|0:10", "slurm-sacct", "slurm-job-killed"),
        # an ipmitool SEL row from before the BMC had the time (Nuvoton-Israel/openbmc,
        # meta-evb-npcm750/README.md)
        (
            "    1 |  Pre-Init  |0000000089| Temperature #0x02 | Upper Non-critical going high "
            "| Asserted",
            "bmc-sel",
            "bmc-temperature-critical",
        ),
    ],
)
def test_pieces_of_reports_pasted_alone_keep_what_a_signature_knows(tmp_path, line, fmt, expected):
    """A line of a report or a table pasted without the rest of it: its reader cannot lay
    it out (no GPU block, no header, no time), and it was lost; now it is kept as a file in
    no known format keeps the lines a signature knows, dated by the file."""
    path = tmp_path / "pasted.txt"
    path.write_text(line + "\n")
    os.utime(path, (WRITTEN.timestamp(), WRITTEN.timestamp()))
    catalog = load_catalog()
    frame, report = read(path, recognise=recogniser(catalog))
    assert report.files == {"pasted.txt": fmt}
    assert report.lost == 0 and report.in_window == 1, report.unreadable
    assert frame.item(0, "ts") == WRITTEN
    assert match(frame, catalog).item(0, "signature") == expected


def test_a_sacct_row_naming_no_node_keeps_its_row(tmp_path):
    # A job cancelled while it waited ran on no node (`None assigned`): its row has a
    # time and a state but no host, and was dropped after it had been counted as read
    text = (
        "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|Start|End|NodeList\n"
        "103|queued|gpu|ml|8|CANCELLED by 1000|0:0|2025-02-23T12:00:00|2025-02-23T12:00:00|"
        "None assigned\n"
    )
    path = tmp_path / "sacct.txt"
    path.write_text(text)
    frame, report = read(path)
    assert report.files == {"sacct.txt": "slurm-sacct"} and report.in_window == 1
    assert frame.height == 1 and frame.item(0, "host") == "sacct"


def test_docker_compose_prefixes_are_taken_off_and_the_lines_read_in_their_format(tmp_path):
    """`docker compose logs` puts `service  | ` before each line; with it taken off, the
    dcgm-exporter's lines are logfmt, timed by their own `time=` (before, the generic
    reader found the time inside the line and kept the prefix in the message)."""
    name = "dcgm_exporter_compose_logfmt_fatal.log"
    frame, report = read(copied(tmp_path, EXCERPTS / name))
    assert report.files == {name: "logfmt"} and report.in_window == 12
    assert not frame.get_column("message").str.contains("dcgm_exporter  |", literal=True).any()
    assert frame.get_column("severity").to_list()[5] == "crit"
    # a logger's `LEVEL | message` is not a compose prefix (no `-`, `_` or `.` in a name)
    plain = tmp_path / "levels.log"
    plain.write_text("".join(f"INFO     | step {i} done\n" for i in range(5)))
    frame, _ = read(plain)
    assert frame.height == 0 or frame.get_column("message").str.contains("INFO").all()


def test_logfmt_lines_keep_their_level_and_msg_for_the_signatures(tmp_path):
    """A logrus line read as logfmt keeps `level=fatal msg="..."` in its message, as the
    raw line has it (before, the message began at the msg value, and the catalog's Go
    signatures, written against `level=fatal msg=`, missed the line the readers gave it)."""
    # https://github.com/NVIDIA/gpu-monitoring-tools/issues/141
    line = (
        'time="2020-12-15T11:28:40Z" level=fatal msg="Error watching fields: This request is '
        'serviced by a module of DCGM that is not currently loaded"'
    )
    path = tmp_path / "dcgm-exporter.log"
    path.write_text(line + "\n")
    frame, report = read(path)
    assert report.files == {path.name: "logfmt"}
    row = match(frame, load_catalog()).row(0, named=True)
    assert row["message"].startswith('level=fatal msg="Error watching fields')
    assert row["severity"] == "crit"
    assert row["signature"] == "uncaught-exception"


def test_klog_lines_keep_the_file_and_line_that_spoke(tmp_path):
    """klog's `nvc.c:274] ` stays in the message (before, the reader dropped it, and the
    container toolkit's signature, which knows nvc's lines by it, missed them)."""
    # https://github.com/NVIDIA/nvidia-container-toolkit/issues/171
    path = tmp_path / "nvidia-container-toolkit.log"
    path.write_text(
        "W1128 17:35:08.654149 1738 nvc.c:274] skipping kernel modules load due to failure\n"
    )
    frame, report = read(path)
    assert report.files == {path.name: "klog"}
    catalog = load_catalog()
    row = match(frame, catalog).with_columns(level=line_severity(catalog)).row(0, named=True)
    assert row["message"] == "nvc.c:274] skipping kernel modules load due to failure"
    assert (row["signature"], row["level"]) == ("container-gpu-error", "error")


def test_open_mpis_signal_report_is_known_once_its_tag_is_taken_off(tmp_path):
    """Open MPI tags its report of a signal with `[host:pid] `, which the readers take off
    as the line's host; the report's `Signal: Aborted (6)` is then known on its own."""
    # https://github.com/NVIDIA/nccl/issues/1611
    path = tmp_path / "job.out"
    path.write_text("[rack1-93-slot7:186363] Signal: Aborted (6)\n")
    frame, _ = read(path)
    row = match(frame, load_catalog()).row(0, named=True)
    assert row["message"] == "Signal: Aborted (6)"
    assert row["signature"] == "process-fatal-signal"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # slurmctld: RPCs that fail, nodes set DOWN, three that come back having rebooted
        (
            "slurmctld_nodes_down_reboot.log",
            {
                5: "slurm-node-not-responding",
                6: "slurm-node-fail",
                22: "slurm-node-fail",
                24: "slurm-node-fail",
                26: "slurm-node-fail",
            },
        ),
        # the ROCm runtime's bare lines: a memory access fault and the core dump that failed
        ("rocm_memory_access_fault_lumi.log", {1: "amdgpu-fault", 3: "amdgpu-fault"}),
        # ibstatus: a port's `state: 1: DOWN` (its block's other lines are in no format)
        ("ibstatus_ports_disabled.log", {5: "nic-link-down", 41: "nic-link-down"}),
        # LSF's job report: the shell's `Killed`, the job that `Exited`, TERM_MEMLIMIT
        (
            "lsf_memlimit_gpuv100.log",
            {1: "process-fatal-signal", 5: "slurm-job-failed", 37: "slurm-out-of-memory"},
        ),
        # edac-util's count of corrected errors, then NHC failing the node for it
        ("nhc_edac_ecc_check.log", {2: "edac-memory-error", 6: "node-health-check-failed"}),
    ],
)
def test_the_ninth_excerpt_sets_failures_are_known_through_the_readers(tmp_path, name, expected):
    catalog = load_catalog()
    frame, _ = read(copied(tmp_path, EXCERPTS / name), recognise=recogniser(catalog))
    got = match(frame, catalog).filter(pl.col("line").is_in(list(expected)))
    assert dict(got.select("line", "signature").iter_rows()) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # HPE Slingshot's CXI library's bare `cxil_map: write error` between libfabric's
        # warnings: a line in no format, kept (and dated by its file) once a signature
        # knows it; before, the five were dropped unread
        (
            "perlmutter_podman_nccl_cxi_mr_fail.log",
            {
                1: ("nccl-error", "error"),
                3: ("libfabric-warning", "warning"),
                4: ("libfabric-warning", "warning"),
                21: ("libfabric-warning", "warning"),
            },
        ),
        # libfabric failing to load CUDA's library for GPU memory is a warning; its probes
        # for Intel's Level Zero on the same NVIDIA node, which fail everywhere, are notes
        (
            "perlmutter_podman_nccl_libfabric_init.log",
            {
                22: ("libfabric-warning", "warning"),
                23: ("libfabric-warning", "warning"),
                27: ("libfabric-warning", "info"),
                28: ("libfabric-warning", "info"),
            },
        ),
    ],
)
def test_the_tenth_excerpt_sets_fabric_lines_are_known_at_their_level(tmp_path, name, expected):
    catalog = load_catalog()
    frame, _ = read(copied(tmp_path, EXCERPTS / name), recognise=recogniser(catalog))
    got = (
        match(frame, catalog)
        .with_columns(level=line_severity(catalog))
        .filter(pl.col("line").is_in(list(expected)))
    )
    assert {r[0]: (r[1], r[2]) for r in got.select("line", "signature", "level").iter_rows()} == (
        expected
    )


def test_slurms_job_completion_log_is_read_like_sacct(tmp_path):
    """jobcomp/filetxt's records (`JobId=230 UserId=... JobState=TIMEOUT ... EndTime=...
    NodeList=compute01 ...`), a format the readers did not know: all 24 lines were unread.
    Each is dated by its end, on the nodes it names, at its state's level; a timeout is
    the Slurm timeout signature's, as sacct's row of one is."""
    catalog = load_catalog()
    path = copied(tmp_path, EXCERPTS / "slurm_jobcomp_timeouts_cancels.log")
    frame, report = read(path, recognise=recogniser(catalog))
    assert report.files == {path.name: "slurm-jobcomp"}
    assert frame.height == 24
    got = match(frame, catalog)
    timeouts = got.filter(pl.col("signature") == "slurm-timeout")
    assert sorted(timeouts.get_column("line").to_list()) == [5, 14, 17, 19, 20, 21, 24]
    first = timeouts.row(0, named=True)
    assert first["message"] == "job 230 (hello_world) TIMEOUT exit 0:0 on compute01"
    assert (first["host"], first["severity"]) == ("compute01", "err")
    assert first["ts"] == datetime(2024, 3, 1, 6, 57, 41, tzinfo=UTC)
    # a job cancelled before it ran names no node, and is a note
    cancelled = got.row(0, named=True)
    assert (cancelled["signature"], cancelled["severity"]) == (None, "notice")


def test_ibstats_port_stuck_initializing_is_a_warning(tmp_path):
    """ibstat's block of a port whose physical link is up but that no subnet manager has
    brought up (`State: Initializing` over `Physical state: LinkUp`): read as the line a
    signature knows in a file of no format, a warning."""
    catalog = load_catalog()
    path = copied(tmp_path, EXCERPTS / "ibstat_port_initializing.log")
    frame, _ = read(path, recognise=recogniser(catalog))
    got = match(frame, catalog).with_columns(level=line_severity(catalog))
    assert got.select("line", "signature", "level").rows() == [(9, "nic-link-down", "warning")]


def test_the_twelfth_excerpt_sets_amdgpu_reset_is_known_line_by_line(tmp_path):
    """An AMD GPU's hang and whole-ASIC reset as the journal tells it: the ring timeout,
    `GPU reset begin!`, the three MODE1 reset lines (missed before), the reset that
    succeeded (a warning), VRAM lost, and Mesa's rejection of the lost context in the
    compositor that then ends (missed before)."""
    catalog = load_catalog()
    path = copied(tmp_path, EXCERPTS / "amdgpu_ring_timeout_mode1_reset.log")
    frame, _ = read(path, recognise=recogniser(catalog))
    got = match(frame, catalog).with_columns(level=line_severity(catalog))
    levels = {r[0]: (r[1], r[2]) for r in got.select("line", "signature", "level").iter_rows()}
    for line in (2, 4, 6, 7, 8, 11, 22, 23):
        assert levels[line] == ("amdgpu-fault", "error"), line
    assert levels[9] == ("amdgpu-fault", "warning")


def test_a_line_of_a_job_completion_log_that_is_no_record_is_counted_with_its_reason(tmp_path):
    """A job completion log with a line that is no record (a note pasted in, a record cut
    short): the records are read, the other line is counted with its reason and an
    example, none dropped unsaid."""
    lines = (EXCERPTS / "slurm_jobcomp_timeouts_cancels.log").read_text().splitlines()
    path = tmp_path / "slurm_jobcomp.log"
    path.write_text("\n".join([*lines[:6], "-- log rotated here --", *lines[6:]]) + "\n")
    frame, report = read(path)
    assert report.files == {path.name: "slurm-jobcomp"}
    assert frame.height == 24
    assert report.unreadable == {NOT_A_RECORD: 1}
    assert report.examples[NOT_A_RECORD] == "slurm_jobcomp.log:7"  # where to look


def test_the_fourteenth_excerpt_sets_network_namespace_leak_is_known_line_by_line(tmp_path):
    """A container host's kernel stuck freeing a network namespace: `unregister_netdevice:
    waiting for lo to become free` every ten seconds (20 lines, missed before) around the
    two hung-task reports of the daemon waiting to make a new namespace; the hung task's register
    words and call trace are not findings of their own."""
    catalog = load_catalog()
    path = copied(tmp_path, EXCERPTS / "lxd_netns_leak_unregister_netdevice.log")
    boot = {"*": utc(2024, 1, 1)}  # raw dmesg, placed by the host's boot time
    frame, _ = read(path, recognise=recogniser(catalog), boot_times=boot)
    got = match(frame, catalog).with_columns(level=line_severity(catalog))
    levels = {r[0]: (r[1], r[2]) for r in got.select("line", "signature", "level").iter_rows()}
    waits = [*range(1, 9), *range(28, 33), *range(34, 41)]
    text = path.read_text().splitlines()
    assert all("unregister_netdevice" in text[i - 1] for i in waits)
    for line in waits:
        assert levels[line] == ("netdev-refcount-wait", "warning"), line
    assert levels[9] == levels[41] == ("hung-task", "warning")
    flagged = {n for n, (_, level) in levels.items() if level in {"warning", "error", "critical"}}
    assert flagged == {*waits, 9, 41}


def test_a_line_holding_only_a_launchers_tag_is_blank(tmp_path):
    """`srun -l` tags each rank's empty line too (`501: `): in the tail of a 512-rank MLPerf
    run they are half the lines. Taken for lines in no format, they kept the file from
    being detected as NCCL's (no format held enough of its first lines), and it was read as
    a file of no known format. Now they are blank, and the NCCL lines are read with their
    ranks; the proxy's warnings as connections close at the run's end are warnings, not
    errors (the run had succeeded)."""
    catalog = load_catalog()
    name = "mlperf_oracle_64node_nccl_proxy_teardown_healthy.log"
    path = copied(tmp_path, EXCERPTS / name)
    frame, report = read(path, recognise=recogniser(catalog))
    assert report.files == {name: "nccl"}
    text = path.read_text().splitlines()
    tagged_blank = [i + 1 for i, line in enumerate(text) if line.rstrip().endswith(":")]
    assert len(tagged_blank) == 22
    assert set(frame.get_column("line")).isdisjoint(tagged_blank)
    assert frame.height == len(text) - len(tagged_blank)
    assert report.in_window + report.skipped == report.lines_read
    proxy = frame.filter(pl.col("message").str.contains("NCCL WARN"))
    assert proxy.height == 22
    assert sorted(set(proxy.get_column("rank"))) == [*range(501, 512)]
    got = match(proxy, catalog).with_columns(level=line_severity(catalog))
    assert set(got.get_column("level")) == {"warning"}


def test_the_fifteenth_excerpt_sets_misses_are_known(tmp_path):
    """`sinfo` showing the node in the unknown state (`unk`) after slurmctld found it not
    responding: the state is a node set aside, like `down` (missed before)."""
    catalog = load_catalog()
    name = "gh200_slurmctld_foreground_nodes_not_responding.log"
    frame, _ = read(copied(tmp_path, EXCERPTS / name), recognise=recogniser(catalog))
    got = match(frame, catalog).with_columns(level=line_severity(catalog))
    levels = {r[0]: (r[1], r[2]) for r in got.select("line", "signature", "level").iter_rows()}
    assert levels[37] == ("slurm-node-drained", "warning")
    assert levels[16] == levels[17] == ("slurm-node-not-responding", "warning")


def test_the_sixteenth_excerpt_sets_lost_gpu_is_known_line_by_line(tmp_path):
    """A journal after Xid 79: the driver's channel recovery names the Xid with the GPU's
    index before it (`NVRM: GPU0 krcRcAndNotifyAllChannels_IMPL: RC all channels for
    critical error 79.`), then the GPU-attached sanity check fails 24 times (a lost GPU),
    and later the crash data cannot be saved and the GPU's timer reads all ones. 2 of these
    27 lines were flagged before, 27 after."""
    catalog = load_catalog()

    def levels(name: str) -> dict[int, tuple[str | None, str | None]]:
        frame, _ = read(copied(tmp_path, EXCERPTS / name), recognise=recogniser(catalog))
        got = match(frame, catalog).with_columns(level=line_severity(catalog))
        return {r[0]: (r[1], r[2]) for r in got.select("line", "signature", "level").iter_rows()}

    onset = levels("rtxpro_serving_box_journal_xid79_onset.log")
    assert onset[6] == ("nvidia-xid", "critical")
    assert all(onset[n] == ("gpu-fallen-off-bus", "critical") for n in range(7, 31))
    teardown = levels("rtxpro_serving_box_journal_xid154_teardown.log")
    assert [teardown[n] for n in (7, 8, 9)] == [("gpu-driver-error", "error")] * 3


TRAINER = Path(__file__).resolve().parents[1] / "data" / "trainer"


def test_megatrons_dated_iteration_lines_after_its_argument_dump_are_read(tmp_path):
    # Megatron-LM prints its iteration lines with a space before the date (` [2024-09-03
    # 15:54:54] iteration 10/...`), after its argument dump's indented lines. Taken for
    # continuations, they were left out of the sample, which held a few lines of the
    # preamble alone: the whole file was "in no known log format" (a blind folder's 540
    # lines of a rank's output). Real lines of two Megatron runs (SOURCES.md): the 2021
    # run's argument dump, then the 2024 run's output.
    lines = (TRAINER / "megatron_lm_2021_n8.log").read_text().splitlines()
    dump = lines[lines.index("-" * 24 + " arguments " + "-" * 24) :]
    dump = dump[: next(i for i, line in enumerate(dump) if "end of arguments" in line) + 1]
    dated = (TRAINER / "megatron_lm_2024-09_timestamped.log").read_text().splitlines()
    path = tmp_path / "train.log"
    path.write_text("\n".join(dump + dated) + "\n")
    frame, report = read(path)
    assert report.files["train.log"] in {"megatron", "trainer"}
    timed = frame.filter(
        pl.col("message").str.contains(" iteration ")
        | pl.col("message").str.starts_with("iteration")
    )
    timed = timed.filter(~pl.col("inferred"))
    iterations = [line for line in dated if line.startswith(" [") and " iteration " in line]
    assert timed.height == len(iterations) > 0
    assert timed.get_column("ts").min() == utc(2024, 9, 3, 15, 54, 54)
