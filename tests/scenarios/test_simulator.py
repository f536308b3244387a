"""The scenario simulator: deterministic, honouring the incident-folder contract, and
planting what truth.json says it planted, where analysis can see it.

Each scenario is generated once per session (small scale, seed 0) and every contract test
reads that folder; the folder-handling tests use a tiny scenario of their own.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from conftest import REPO
from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder
from incidentbook.scenarios import imbue_bringup
from incidentbook.scenarios import kernel_lines as kl
from incidentbook.scenarios import simulator as synth
from incidentbook.sources.files import metric_groups

BUNDLED = REPO / "data" / "incidents"
LABELS = list(synth.LABELS)
SCHEMA = {"timestamp": pl.Datetime("us", "UTC"), "metric": pl.String, "value": pl.Float64}
SCHEMA |= {label: pl.String for label in LABELS}
DMESG = re.compile(
    r"^(kern|daemon)\s*:(emerg|alert|crit|err|warn|notice|info|debug)\s*: "
    r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6}\+00:00) .+$"
)


BUNDLED_NAMES = sorted(n for n in synth.SCENARIOS.names() if synth.SCENARIOS[n].bundled)


def test_the_library_cases_are_bundled():
    assert {"smollm3-storage", "smollm3-storage-trainer-log", "imbue-bringup"} <= set(BUNDLED_NAMES)
    assert {p.name for p in BUNDLED.iterdir() if (p / "truth.json").exists()} == set(BUNDLED_NAMES)


def digests(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def truth(folder: Path) -> dict:
    return json.loads((folder / "truth.json").read_text())


def metric(folder: Path, file: str, name: str) -> pl.DataFrame:
    return pl.read_parquet(folder / "metrics" / file).filter(pl.col("metric") == name)


def during(frame: pl.DataFrame, span: dict) -> pl.DataFrame:
    start, end = (datetime.fromisoformat(span[k]) for k in ("start", "end"))
    return frame.filter((pl.col("timestamp") >= start) & (pl.col("timestamp") < end))


# --- determinism and the shipped data ---------------------------------------------------


def test_same_seed_gives_the_same_bytes_and_another_seed_does_not(fresh, tmp_path):
    first = digests(fresh["smollm3-storage"])
    again = digests(synth.synthesize("smollm3-storage", tmp_path / "again"))
    assert again == first
    other = digests(synth.synthesize("smollm3-storage", tmp_path / "other", seed=1))
    assert other.keys() == first.keys()
    changed = [name for name in first if other[name] != first[name]]
    assert "truth.json" in changed and "metrics/trainer.parquet" in changed


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_folder_equals_a_fresh_generation(fresh, name):
    # Parquet files are compared by content, not bytes: a pyarrow upgrade may change the
    # encoding without changing the data, and that should not fail this test.
    shipped, new = BUNDLED / name, fresh[name]
    assert sorted(digests(shipped)) == sorted(digests(new)), "files added or missing"
    for path in sorted(new.rglob("*")):
        if not path.is_file():
            continue
        old = shipped / path.relative_to(new)
        if path.suffix == ".parquet":
            assert pl.read_parquet(old).equals(pl.read_parquet(path)), old
        else:
            assert old.read_bytes() == path.read_bytes(), old


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_folder_is_small(name):
    files = [p for p in (BUNDLED / name).rglob("*") if p.is_file()]
    assert files, f"{name} is not bundled"
    assert sum(p.stat().st_size for p in files) <= 6_000_000


# --- the incident-folder contract -------------------------------------------------------


@pytest.mark.parametrize("name", sorted(synth.SCENARIOS))
def test_folder_honours_the_contract(fresh, name):
    folder = IncidentFolder(fresh[name])  # validates incident.yaml
    spec, facts = folder.spec, truth(folder.path)
    assert spec.id == name and facts["scenario"] == name and facts["seed"] == 0
    assert spec.window.start.isoformat() == facts["window"]["start"]
    assert spec.baseline and spec.window.start <= spec.baseline.start < spec.baseline.end
    files = sorted(folder.metrics_dir.glob("*.parquet"))
    names = {p.name for p in files}
    assert {"node.parquet", "dcgm.parquet"} <= names
    # The trainer-log variant's throughput is in its nanotron log only.
    assert ("trainer.parquet" in names) != name.endswith("-trainer-log")
    for path in files:
        meta = pq.ParquetFile(path).metadata
        assert all(meta.row_group(i).num_rows <= 100_000 for i in range(meta.num_row_groups))
        assert meta.row_group(0).column(0).compression == "ZSTD"
        frame = pl.read_parquet(path)
        # The usual columns first; labels beyond them (node_exporter's `mode`) after.
        labels = frame.columns[3:]
        assert labels[: len(LABELS)] == LABELS, path.name
        assert frame.schema == pl.Schema(SCHEMA | dict.fromkeys(labels, pl.String)), path.name
        # Each row group one metric (its statistics say which), each metric's rows in
        # time order, then by labels: a filter on a metric skips the other groups.
        groups = metric_groups(path)
        assert groups is not None and groups.names == set(frame.get_column("metric")), path.name
        for (name,), rows in frame.group_by("metric", maintain_order=True):
            assert rows.equals(rows.sort(["timestamp", *labels])), f"{path.name} {name} order"
            assert groups.rows_of({name}) == rows.height, f"{path.name} {name} groups"
        assert frame.get_column("timestamp").min() >= spec.window.start
        assert frame.get_column("timestamp").max() < spec.window.end
        counters = frame.filter(pl.col("metric").str.ends_with("_total"))
        steps = counters.with_columns(
            step=pl.col("value").diff().over(["metric", *labels], order_by="timestamp")
        )
        assert steps.filter(pl.col("step") < 0).height == 0, f"{path.name}: counter went down"


@pytest.mark.parametrize("name", sorted(synth.SCENARIOS))
def test_kernel_logs_have_the_dmesg_iso_shape_and_are_in_time_order(fresh, name):
    logs = sorted((fresh[name] / "logs").glob("*/kern.log"))
    assert logs
    for path in logs[:: max(1, len(logs) // 25)]:
        stamps = []
        for line in path.read_text().splitlines():
            match = DMESG.match(line)
            assert match, f"{path}: {line!r}"
            stamps.append(match.group(3))
        assert stamps == sorted(stamps), path


# --- smollm3-storage: what was planted is there -----------------------------------------


def test_smollm3_drops_are_visible_in_throughput(fresh):
    folder = fresh["smollm3-storage"]
    facts, spec = truth(folder), IncidentFolder(folder).spec
    tps = metric(folder, "trainer.parquet", "trainer_tokens_per_second")
    assert tps.get_column("job").unique().to_list() == ["smollm3"]
    baseline = during(tps, facts["baseline"]).get_column("value").mean()
    assert 13_000 < baseline < 14_000
    drops = facts["planted"]["drops"]
    assert 6 <= len(drops) <= 8
    first = datetime.fromisoformat(drops[0]["start"])
    assert spec.baseline.end <= first <= spec.window.start.replace(hour=10)
    for drop in drops:
        assert during(tps, drop).get_column("value").mean() <= 0.7 * baseline, drop


def test_smollm3_read_latency_spikes_lead_the_drops_on_most_nodes(fresh):
    folder = fresh["smollm3-storage"]
    node = pl.read_parquet(folder / "metrics" / "node.parquet")
    latency = (
        node.filter(pl.col("device") == "weka0")
        .pivot(on="metric", index=["timestamp", "node"], values="value")
        .sort("node", "timestamp")
        .with_columns(
            ms=1000
            * pl.col("node_disk_read_time_seconds_total").diff().over("node")
            / pl.col("node_disk_reads_completed_total").diff().over("node")
        )
    )
    quiet = during(latency, truth(folder)["baseline"]).get_column("ms").drop_nulls()
    assert 0.4 < quiet.median() < 1.0
    planted = truth(folder)["planted"]
    for spike, drop in zip(planted["latency_spikes"], planted["drops"], strict=True):
        assert spike["start"] <= drop["start"] and 20 <= spike["peak_ms"] <= 200
        assert len(spike["hosts"]) >= 0.7 * 48
        hit = during(latency, spike).filter(pl.col("node").is_in(spike["hosts"]))
        assert hit.get_column("ms").median() > 10, spike
    used = node.filter(pl.col("metric") == "node_filesystem_avail_bytes").get_column("value")
    size = node.filter(pl.col("metric") == "node_filesystem_size_bytes").get_column("value")
    ratio = 1 - used / size
    assert ratio.min() == pytest.approx(0.90, abs=1e-3) and ratio.max() >= 0.97


def test_smollm3_decoy_and_dataloader_trend(fresh):
    folder = fresh["smollm3-storage"]
    planted = truth(folder)["planted"]
    load = metric(folder, "node.parquet", "node_load1")
    for decoy in planted["decoy_spikes"]:
        peak = during(load, decoy).filter(pl.col("node").is_in(decoy["hosts"]))
        assert peak.get_column("value").max() > 50
        for drop in planted["drops"]:  # unrelated to the drops
            assert decoy["end"] < drop["start"] or decoy["start"] > drop["end"]
    loader = metric(folder, "trainer.parquet", "trainer_dataloader_seconds").get_column("value")
    assert loader.head(20).mean() < 0.06 and loader.tail(20).mean() > 3 * 0.05
    lines = (folder / "logs" / "trainer.log").read_text().splitlines()
    assert len(lines) == 359
    assert re.match(
        r"^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d \[INFO\|DP=0\|PP=0\|TP=0\|ip-26-0-161-1\]: "
        r"iteration: \d+ / \d+ \| consumed_tokens: \S+ \| .*tokens_per_sec_per_gpu: 13\.\dK",
        lines[0],
    )


# --- imbue-bringup ----------------------------------------------------------------------


def test_imbue_failed_hosts_are_down_and_silent(fresh):
    folder = fresh["imbue-bringup"]
    planted = truth(folder)["planted"]
    failed = [f["host"] for f in planted["failed_hosts"]]
    assert len(failed) == 51 and planted["failed_fraction"] == pytest.approx(0.1, abs=0.01)
    assert {f["reason"] for f in planted["failed_hosts"]} >= {"iDRAC hardware fault"}
    up = metric(folder, "up.parquet", "up")
    assert up.get_column("node").n_unique() == 511
    assert up.filter(pl.col("node").is_in(failed)).get_column("value").max() == 0
    for file in ("dcgm.parquet", "node.parquet", "ipmi.parquet"):
        rows = pl.scan_parquet(folder / "metrics" / file).filter(pl.col("node").is_in(failed))
        assert rows.select(pl.len()).collect().item() == 0, file
    assert not any((folder / "logs" / host).exists() for host in failed)


def test_imbue_downtrained_links_show_in_dcgm_and_the_kernel_log(fresh):
    folder = fresh["imbue-bringup"]
    downtrained = truth(folder)["planted"]["downtrained"]
    assert len({d["host"] for d in downtrained}) == 6
    width = metric(folder, "dcgm.parquet", "DCGM_FI_DEV_PCIE_LINK_WIDTH")
    narrow = width.filter(pl.col("value") == 4).select("node", "gpu").unique().sort("node", "gpu")
    assert narrow.rows() == sorted((d["host"], d["gpu"]) for d in downtrained)
    assert set(width.get_column("value").unique().to_list()) == {4.0, 16.0}
    for d in downtrained:
        port = f"0000:{int(d['pci'][5:7], 16) - 1:02x}:01.0"
        line = kl.pcie_limited(d["pci"], port, 4, 16)
        assert "126.028 Gb/s available PCIe bandwidth, limited by 32.0 GT/s PCIe x4" in line
        assert line in (folder / "logs" / d["host"] / "kern.log").read_text()


def test_imbue_hangs_misreadings_caps_flaps_and_xids(fresh):
    folder = fresh["imbue-bringup"]
    planted = truth(folder)["planted"]
    up = metric(folder, "up.parquet", "up")
    for hang in planted["nvme_hangs"]:
        mine = up.filter(pl.col("node") == hang["host"]).sort("timestamp")
        at = datetime.fromisoformat(hang["at"])
        assert mine.filter(pl.col("timestamp") >= at).get_column("value").max() == 0
        assert mine.filter(pl.col("timestamp") < at).get_column("value").last() == 1
        log = (folder / "logs" / hang["host"] / "kern.log").read_text()
        assert "nvme nvme1: I/O" in log and "timeout, reset controller" in log
    temp = metric(folder, "dcgm.parquet", "DCGM_FI_DEV_GPU_TEMP")
    fans = metric(folder, "ipmi.parquet", "ipmi_fan_speed_rpm")
    for bad in planted["thermal_misreading"]:
        assert set(temp.filter(pl.col("node") == bad["host"])["value"]) == {bad["reading_c"]}
        assert set(fans.filter(pl.col("node") == bad["host"])["value"]) == {16_800.0}
    assert fans.filter(pl.col("value") < 16_800).get_column("value").max() <= 10_500
    cpu = metric(folder, "node.parquet", "node_cpu_scaling_frequency_hertz")
    capped = [c["host"] for c in planted["cpu_capped"]]
    assert set(cpu.filter(pl.col("node").is_in(capped))["value"]) == {2.0e9}
    assert cpu.filter(~pl.col("node").is_in(capped)).get_column("value").min() >= 3.4e9
    downed = metric(folder, "node.parquet", "node_infiniband_link_downed_total")
    grew = downed.group_by("node", "device").agg(
        pl.col("value").sort_by("timestamp").last() - pl.col("value").sort_by("timestamp").first()
    )
    flapping = {(f["host"], f["device"]): f["flaps"] for f in planted["flapping_ports"]}
    assert {(n, d): v for n, d, v in grew.filter(pl.col("value") > 0).iter_rows()} == flapping
    for f in planted["flapping_ports"]:
        log = (folder / "logs" / f["host"] / "kern.log").read_text()
        assert log.count(f"mlx5_core {f['pci']} {f['netdev']}: Link down") == f["flaps"]
    xid = metric(folder, "dcgm.parquet", "DCGM_FI_DEV_XID_ERRORS")
    assert sorted(x["code"] for x in planted["xid"]) == [48, 79, 94]
    for x in planted["xid"]:
        mine = xid.filter((pl.col("node") == x["host"]) & (pl.col("gpu") == x["gpu"]))
        assert mine.get_column("value").max() == x["code"]
        pattern = f"NVRM: Xid (PCI:{x['pci'][:-2]}): {x['code']}, "
        assert pattern in (folder / "logs" / x["host"] / "kern.log").read_text()


def test_imbue_mfu_dips_are_visible(fresh):
    folder = fresh["imbue-bringup"]
    facts = truth(folder)
    mfu = metric(folder, "trainer.parquet", "trainer_mfu")
    assert mfu.get_column("job").unique().to_list() == [imbue_bringup.JOB]
    baseline = during(mfu, facts["baseline"]).get_column("value").mean()
    assert 0.40 <= baseline <= 0.45
    dips = facts["planted"]["mfu_dips"]
    assert {d["cause"] for d in dips} == {"nvme_hang", "xid_79", "xid_94", "ib_flap"}
    for dip in dips:
        assert during(mfu, dip).get_column("value").mean() <= baseline * (1 - dip["depth"] / 2)


# --- folder handling, errors ------------------------------------------------------------


def _tiny(seed: int, scale: str) -> synth.Incident:
    grid = synth.Grid(datetime.fromisoformat("2025-01-01T00:00:00+00:00"), 60, 10)
    values = np.arange(10.0)[None, :] + seed
    spec = synth._spec("tiny", "Tiny", grid, (0, 120), "throughput", name="t", nodes=1)
    blocks = [synth.Block("trainer_tokens_per_second", [{"node": "n0"}], values)]
    logs = {"n0/kern.log": lambda: [kl.dmesg_line(grid.us_at(5), "hello")]}
    return synth.Incident(spec, grid, {"trainer.parquet": blocks}, logs, {"seed": seed})


@pytest.fixture
def tiny(monkeypatch):
    monkeypatch.setitem(synth.SCENARIOS, "tiny", synth.Scenario("tiny", "a test", _tiny))


def test_refuses_a_non_empty_folder_it_did_not_write(tiny, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(synth.OutputNotEmpty, match="not an earlier simulator output"):
        synth.synthesize("tiny", tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    with pytest.raises(synth.OutputNotEmpty, match="is a file"):
        synth.synthesize("tiny", tmp_path / "notes.txt")


def test_overwrites_its_own_output_and_keeps_what_a_person_added(tiny, tmp_path):
    out = synth.synthesize("tiny", tmp_path / "case")
    (out / "metrics" / "stale.parquet").write_text("left over")
    (out / "case.yaml").write_text("narrative: mine\n")
    synth.synthesize("tiny", out, seed=3)
    assert truth(out)["seed"] == 3 and truth(out)["planted"] == {"seed": 3}
    assert not (out / "metrics" / "stale.parquet").exists()
    assert (out / "case.yaml").read_text() == "narrative: mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["case"]  # no temporary folder left
    assert (out / "logs" / "n0" / "kern.log").read_text().startswith("kern  :info  : 2025-")


def test_unknown_scenario_names_the_known_ones(tmp_path):
    with pytest.raises(IncidentbookError) as caught:
        synth.synthesize("nope", tmp_path / "x")
    assert isinstance(caught.value, synth.UnknownScenario)
    assert "imbue-bringup" in str(caught.value) and "smollm3-storage" in str(caught.value)
    assert not (tmp_path / "x").exists()


def test_the_16k_scale_is_the_imbue_day_on_2048_hosts(tmp_path):
    hosts = imbue_bringup.imbue_hosts(2048)
    assert len(set(hosts)) == 2048 and hosts[:511] == imbue_bringup.imbue_hosts()
    plan = imbue_bringup._bringup_plan(0, "16k", np.random.default_rng(0))
    assert len(plan.hosts) == 2048 and plan.grid.interval == 15 and plan.grid.n == 5760
    # A scenario without the scale says which it has, and writes nothing.
    with pytest.raises(synth.SynthError, match="has no 16k scale; its scales: small, full"):
        synth.synthesize("smollm3-storage", tmp_path / "x", scale="16k")
    assert not (tmp_path / "x").exists()


# --- kernel line formatters against real lines ------------------------------------------


def test_pcie_lines_match_real_kernel_output():
    # Verbatim from public dmesg output (shared/reference/formats/pcie).
    assert kl.pcie_limited("0000:01:00.0", "0000:00:00.0", 1, 16, "8.0") == (
        "pci 0000:01:00.0: 7.876 Gb/s available PCIe bandwidth, limited by 8.0 GT/s PCIe x1 "
        "link at 0000:00:00.0 (capable of 126.016 Gb/s with 8.0 GT/s PCIe x16 link)"
    )
    assert kl.pcie_limited("0004:01:00.0", "0004:00:00.0", 2, 2, "8.0", "16.0").endswith(
        "(capable of 31.506 Gb/s with 16.0 GT/s PCIe x2 link)"
    )
    assert kl.pcie_link("mlx5_core", "0000:41:00.1", "8.0", 8) == (
        "mlx5_core 0000:41:00.1: 63.008 Gb/s available PCIe bandwidth (8.0 GT/s PCIe x8 link)"
    )


def test_dmesg_prefix_and_xid_match_the_specimens():
    us = int(datetime.fromisoformat("2025-01-21T04:41:44.287197+00:00").timestamp() * 1e6)
    line = kl.dmesg_line(us, kl.xid("0000:38:00", 79), "warn")
    assert line == (
        "kern  :warn  : 2025-01-21T04:41:44,287197+00:00 NVRM: Xid (PCI:0000:38:00): 79, "
        "pid='<unknown>', name=<unknown>, GPU has fallen off the bus."
    )
    assert kl.iso_times(np.array([us]))[0] == kl.iso_time(us)
