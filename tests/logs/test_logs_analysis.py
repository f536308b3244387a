"""Templates and log findings on hand-built log frames (the readers have their own tests)."""

import os
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from incidents import T0 as FOLDER_T0
from incidents import samples, write_incident

from incidentbook.investigation import investigate
from incidentbook.logs import templates
from incidentbook.logs.analysis import analyze_logs, bucket_for
from incidentbook.logs.read import read_log_file
from incidentbook.logs.signatures import load_catalog
from incidentbook.logs.templates import (
    mask,
    mine_templates,
    summarise_templates,
)
from incidentbook.window import TimeWindow

T0 = datetime(2024, 5, 20, 14, tzinfo=UTC)
WINDOW = TimeWindow(start=T0, end=T0 + timedelta(hours=4))
BASELINE = TimeWindow(start=T0, end=T0 + timedelta(hours=1))


PCIE_X4 = (
    "pci 0000:3b:00.0: 63.012 Gb/s available PCIe bandwidth, limited by 16.0 GT/s PCIe x4 "
    "link at 0000:3a:01.0 (capable of 252.048 Gb/s with 16.0 GT/s PCIe x16 link)"
)


def frame(rows: list[tuple[float, str, str, str]]) -> pl.DataFrame:
    """rows of (minutes after T0, host, severity, message)."""
    return pl.DataFrame(
        {
            "ts": [T0 + timedelta(minutes=m) for m, *_ in rows],
            "host": [h for _, h, _, _ in rows],
            "severity": [s for _, _, s, _ in rows],
            "message": [msg for *_, msg in rows],
        }
    ).with_columns(pl.col("ts").dt.cast_time_unit("us"))


def test_masks_keep_shapes_apart():
    got = (
        pl.DataFrame(
            {
                "m": [
                    "pci 0000:3b:00.0: x16 at 10.0.0.7:4791 id 0x1f "
                    "GPU-12345678-1234-1234-1234-123456789abc took 12.5 s"
                ]
            }
        )
        .select(mask(pl.col("m")))
        .item()
    )
    assert got == "pci <PCI>: x16 at <IP> id <HEX> <UUID> took <NUM> s"


def test_each_distinct_line_is_mined_once_and_ids_are_stable():
    messages = pl.Series(
        [f"worker {i} finished step {i * 10}" for i in range(1000)]
        + [f"disk sda{i % 3} latency {i} ms" for i in range(500)]
    )
    first = mine_templates(messages)
    second = mine_templates(messages)
    assert first.equals(second)
    assert first.get_column("template_id").n_unique() == 2
    assert first.item(0, "template") == "worker <NUM> finished step <NUM>"


def test_lines_in_time_order_give_the_examples_of_a_sort(monkeypatch):
    # Lines sorted by time and host (as read_logs gives them) take each key's first row as
    # its example; it must be the line a sort by time and host would pick, ties included.
    # Three lines per key (`alpha # up`), differing in a word the masks keep (`dev7`): the
    # template's text is its example's. Many share a minute and a host.
    words = [(w, t) for w in ("alpha", "bravo", "charlie") for t in ("up", "down", "gone")]
    rows = [
        (60 + i // 20, f"h{i % 2}", "info", f"{word} dev{i} {tail}")
        for i, (word, tail) in enumerate(words * 3)
    ]
    logs = frame(rows).sort("ts", "host").with_columns(signature=pl.lit(None, pl.String))
    fast = summarise_templates(logs, WINDOW, BASELINE)
    monkeypatch.setattr(templates, "_in_time_order", lambda lines: False)
    slow = summarise_templates(logs, WINDOW, BASELINE)
    assert fast.templates.equals(slow.templates)
    assert fast.lines.equals(slow.lines)


@pytest.mark.parametrize("shuffled", [False, True])
def test_templates_are_numbered_in_the_order_they_first_appear(shuffled):
    # Mined in order of first appearance (time, then host), not in the order of their
    # text: the zulu line comes first, so it is template 1, whatever order the rows are in.
    rows = [
        (61, "h2", "info", "alpha link trained"),
        (60, "h9", "info", "zulu fan stopped"),
        (62, "h1", "info", "mike disk mounted"),
        (63, "h1", "info", "alpha link trained"),
        (60, "h1", "info", "zulu fan stopped"),
    ]
    logs = frame(rows).with_columns(signature=pl.lit(None, pl.String))
    logs = logs.sample(fraction=1.0, shuffle=True, seed=3) if shuffled else logs.sort("ts", "host")
    got = summarise_templates(logs, WINDOW, BASELINE).templates.sort("template_id")
    assert got.get_column("template").to_list() == [
        "zulu fan stopped",
        "alpha link trained",
        "mike disk mounted",
    ]


def test_keys_computed_in_pieces_keep_the_rows_in_their_order():
    # with_keys runs on the streaming engine, in pieces of rows: every row keeps its place
    # and its key is the one computed over the whole column at once (a guard of order for
    # a speed change: the same keys, not a faster one, is what this checks).
    messages = [
        f"h{i % 7} port {i} eth{i % 3} state {'up' if i % 2 else 'down'}" for i in range(300_000)
    ]
    lines = pl.DataFrame({"message": messages}).with_row_index("_row")
    got = templates.with_keys(lines)
    assert got.get_column("_row").equals(lines.get_column("_row"))
    whole = lines.select(templates.coarse_key(pl.col("message")).alias("key"))
    assert got.get_column("key").equals(whole.get_column("key"))
    assert got.item(1, "key") == "# port # # state up"


def test_template_ids_do_not_depend_on_group_order():
    # A block of untimed lines takes the time of the line before it: many distinct lines
    # share one time and host, and their ids must not follow group_by's arbitrary order.
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    rows = [(90, "h1", "info", f"{a} {b} stack frame") for a in words for b in words]
    logs = frame(rows).with_columns(signature=pl.lit(None, pl.String))
    runs = {
        tuple(summarise_templates(logs, WINDOW, BASELINE).templates.get_column("template"))
        for _ in range(12)
    }
    assert len(runs) == 1


def test_log_findings_signatures_new_templates_and_failure_rate():
    rows = [
        (m, f"h{h}", "info", "systemd[1]: Started Session of user root.")
        for m in range(0, 240, 10)
        for h in range(4)
    ]
    rows += [
        (
            90,
            "h1",
            "warning",
            PCIE_X4,
        ),
        (
            120,
            "h2",
            "err",
            "NVRM: Xid (PCI:0000:9b:00): 79, pid=1234, name=python, GPU has fallen off the bus.",
        ),
        (121, "h2", "err", "NVRM: GPU 0000:9b:00.0: GPU has fallen off the bus."),
        (130, "h3", "err", "ib0: cannot allocate queue pair for 0x7f rank 12"),
        (131, "h3", "err", "ib0: cannot allocate queue pair for 0x80 rank 13"),
        (300, "h0", "err", "outside the window"),
    ]
    result = analyze_logs(frame(rows), WINDOW, BASELINE, load_catalog(), hosts_total=10)
    by_signal = {f.signal: f for f in result.findings}
    xid = by_signal["nvidia-xid:79"]
    assert xid.kind == "signature"
    assert xid.hosts == ["h2"]
    assert xid.magnitude == pytest.approx(0.1)  # share of the cluster's 10 hosts
    assert "GPU has fallen off the bus" in xid.summary
    assert "usual action" in xid.summary
    pcie = by_signal["pcie-link-downtrained"]
    assert pcie.start == T0 + timedelta(minutes=90)
    failing = next(f for f in result.findings if f.kind == "failure_rate")
    # the warning (x4 link) is not a failure; the Xid and the err-level lines are
    assert failing.hosts == ["h2", "h3"]
    new = [f for f in result.findings if f.kind == "new_template"]
    assert len(new) == 1
    assert "cannot allocate queue pair for <HEX> rank <NUM>" in new[0].summary
    # systemd lines are in the baseline: never new
    assert not result.templates.templates.filter(
        pl.col("template").str.contains("systemd") & pl.col("new")
    ).height
    assert result.counts.get_column("count").sum() == 3  # signature lines in the window
    assert result.hosts_total == 10


def test_bucket_sizes_are_round():
    assert bucket_for(WINDOW) == timedelta(minutes=5)
    assert bucket_for(TimeWindow(start=T0, end=T0 + timedelta(days=1))) == timedelta(minutes=30)


# --- real kernel logs -------------------------------------------------------------------

JEAN_ZAY = Path(__file__).resolve().parent / "corpus/formats/dmesg_T/jean-zay-a100-node_dmesg-T.txt"


def test_a_hangs_burst_of_hung_tasks_leads_and_dates_its_finding():
    # The IDEFICS training hang (huggingface/m4-logs): one unrelated hung task on Mar 2,
    # then the training rank reported hung every two minutes on Mar 4 from 04:10.
    window = TimeWindow(start="2023-03-01T00:00:00Z", end="2023-03-05T00:00:00Z")
    frame, report = read_log_file(JEAN_ZAY, window, host="jean-zay-iam06")
    assert report.lost == 0
    result = analyze_logs(frame, window, None, load_catalog(), hosts_total=1)
    signatures = [f for f in result.findings if f.kind == "signature"]
    hung = signatures[0]
    assert hung.signal == "hung-task"
    assert hung.start == datetime(2023, 3, 4, 4, 10, 52, tzinfo=UTC)
    assert hung.end == datetime(2023, 3, 4, 4, 27, 15, tzinfo=UTC)
    assert hung.value == 10.0
    assert "9 of them from 2023-03-04 04:10:52" in hung.summary
    row = result.signatures.filter(pl.col("key") == "hung-task").row(0, named=True)
    assert row["burst"] and row["episodes"] == 2 and row["first_seen"].day == 2


def test_a_signatures_severity_follows_what_its_line_says():
    rows = [
        (10, "h1", None, "EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0"),
        (11, "h2", None, "EDAC MC3: 1 UE memory read error on CPU_SrcID#1_MC#1_Chan#2_DIMM#0"),
        (
            12,
            "h3",
            "err",
            "Lustre: 2449:0:(client.c:2141:ptlrpc_expire_one_request()) "
            "Skipped 24 previous similar messages",
        ),
    ]
    result = analyze_logs(frame(rows), WINDOW, None, load_catalog(), hosts_total=3)
    by_key = {r["key"]: r for r in result.signatures.iter_rows(named=True)}
    assert by_key["edac-memory-error"]["severity"] == "error"  # the worst of CE and UE
    assert by_key["lustre-lnet-error"]["severity"] == "warning"  # a repeat summary
    failing = next(f for f in result.findings if f.kind == "failure_rate")
    assert failing.hosts == ["h2"]  # the CE and the Skipped line are no alerts


def test_analyze_keeps_known_lines_of_a_file_in_no_known_format(tmp_path):
    # An engineer drops a pasted `kubectl describe pod` state into the incident's logs/:
    # `analyze` finds the OOM kill in it, dated by the file, and says so in its notes.
    root = write_incident(tmp_path / "inc", [samples("trainer_tokens_per_second", np.ones(720))])
    pasted = root / "logs" / "gpu-node-3" / "describe-pod.txt"
    pasted.parent.mkdir(parents=True)
    corpus = Path(__file__).resolve().parent / "corpus" / "excerpts"
    shutil.copyfile(corpus / "k8s_describe_pod_oomkilled.log", pasted)
    when = (FOLDER_T0 + timedelta(hours=3)).timestamp()
    os.utime(pasted, (when, when))

    inv = investigate(root)
    found = [f for f in inv.logs.findings if f.signal == "k8s-container-oom-killed"]
    assert len(found) == 1
    assert found[0].hosts == ["gpu-node-3"] and found[0].start.timestamp() == when
    assert any("a signature recognises was kept" in n for n in inv.log_receipt.notes())


# real lines (tests/logs/corpus/lines.yaml): ClusterLabs/resource-agents#1654 and
# eth-cscs/alps-gh200-reproducers (stuck-node-on-io), as the kernel readers leave them
NFS_LOST = "nfs: server 10.0.1.210 not responding, timed out"
LUSTRE_LOST = (
    "Lustre: capstor-OST003a-osc-ffff3000ef06c000: Connection to capstor-OST003a (at "
    "172.28.1.43@tcp) was lost; in progress operations using this service will wait for "
    "recovery to complete"
)


def test_a_signature_says_which_server_outside_the_job_its_lines_name():
    rows = [(30 + i, f"h{i}", "err", NFS_LOST) for i in range(4)]
    result = analyze_logs(frame(rows), WINDOW, None, load_catalog(), hosts_total=4)
    nfs = next(f for f in result.findings if f.signal == "shared-filesystem-error")
    assert nfs.servers == ["10.0.1.210"]
    assert "on 4 of 4 hosts (100%) naming server 10.0.1.210" in nfs.summary
    # a Lustre client's lost target as well: both, sorted
    rows += [(40, "h1", "warning", LUSTRE_LOST)]
    both = analyze_logs(frame(rows), WINDOW, None, load_catalog(), hosts_total=4)
    row = both.signatures.filter(pl.col("key") == "shared-filesystem-error").row(0, named=True)
    assert row["servers"] == ["10.0.1.210", "172.28.1.43@tcp"]
    # a signature that names no server says none
    edac = analyze_logs(
        frame(
            [(10, "h1", "warning", "EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1")]
        ),
        WINDOW,
        None,
        load_catalog(),
        hosts_total=1,
    )
    assert edac.signatures.get_column("servers").to_list() == [[]]
    assert all(f.servers is None for f in edac.findings)
