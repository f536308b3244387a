from datetime import timedelta
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from incidents import T0, samples, write_incident

from incidentbook.metrics.data import MetricsError, NoDataError
from incidentbook.metrics.signals import SignalPackError, load_pack
from incidentbook.sources.base import open_source
from incidentbook.sources.files import _scan_parquet
from incidentbook.sources.folder import FolderSource
from incidentbook.window import TimeWindow, WindowError, make_window

PACK = load_pack()


def window(hours_from: float, hours_to: float) -> TimeWindow:
    return TimeWindow(start=T0 + timedelta(hours=hours_from), end=T0 + timedelta(hours=hours_to))


def load(root, signals=("throughput",), w=None):
    return FolderSource(root).metrics(w or window(0, 6), [PACK.get(s) for s in signals])


def test_window_and_metrics_are_pushed_down(tmp_path):
    root = write_incident(
        tmp_path,
        [
            samples("trainer_tokens_per_second", np.arange(720.0)),
            samples("node_load1", np.ones(720)),
        ],
    )
    got = load(root, w=window(1, 2)).frame
    assert got.get_column("signal").unique().to_list() == ["throughput"]
    assert got.height == 120
    assert got.get_column("ts").min() == T0 + timedelta(hours=1)
    assert got.get_column("ts").max() < T0 + timedelta(hours=2)
    # The window must reach the Parquet scan itself, so row groups outside it are skipped.
    plan = _scan_parquet(
        root / "metrics" / "metrics.parquet", window(1, 2), [PACK.get("throughput")]
    )
    scan = plan.explain().split("Parquet SCAN", 1)[1]
    assert 'col("timestamp") >=' in scan
    assert 'col("metric").is_in' in scan


def test_counter_ratio_is_latency_and_survives_a_reset(tmp_path):
    reads = np.cumsum(np.full(100, 1000.0))
    read_time = np.cumsum(np.full(100, 2.0))  # 2 ms per read
    reads[50:] -= reads[49]  # exporter restarted: counters start again from zero
    read_time[50:] -= read_time[49]
    root = write_incident(
        tmp_path,
        [
            samples("node_disk_reads_completed_total", reads, device="sda"),
            samples("node_disk_read_time_seconds_total", read_time, device="sda"),
        ],
    )
    values = load(root, ["disk_read_latency"]).frame.get_column("value")
    assert values.len() == 99
    assert np.allclose(values.to_numpy(), 0.002)


def test_duplicates_are_dropped_and_counted_and_gaps_reported(tmp_path):
    good = samples("trainer_tokens_per_second", np.full(200, 100.0))
    gappy = good.filter((pl.int_range(pl.len()) < 80) | (pl.int_range(pl.len()) >= 120))
    root = write_incident(tmp_path, [gappy, gappy.head(10)])
    metrics = load(root)
    assert metrics.receipt.duplicates_dropped == 10
    assert metrics.frame.height == 160
    (gap,) = metrics.receipt.gaps
    assert gap["end"] - gap["start"] == timedelta(seconds=30 * 41)
    assert any("gaps in series (not interpolated)" in n for n in metrics.receipt.notes())


def test_csv_with_offsets_and_epoch_seconds(tmp_path):
    root = write_incident(tmp_path)
    (root / "metrics" / "a.csv").write_text(
        "timestamp,metric,value,node\n"
        "2025-03-14T08:00:00Z,trainer_tokens_per_second,1,n0\n"
        "2025-03-14T10:00:30+02:00,trainer_tokens_per_second,2,n0\n"
    )
    (root / "metrics" / "b.csv").write_text(
        f"timestamp,metric,value,node\n{T0.timestamp() + 60:.0f},trainer_tokens_per_second,3,n0\n"
    )
    frame = load(root).frame.sort("ts")
    assert frame.get_column("value").to_list() == [1.0, 2.0, 3.0]
    assert frame.get_column("ts").to_list()[1] == T0 + timedelta(seconds=30)


def test_openmetrics_text_with_timestamps(tmp_path):
    root = write_incident(tmp_path)
    t = T0.timestamp()
    (root / "metrics" / "export.om").write_text(
        "# HELP node_load1 1m load average.\n# TYPE node_load1 gauge\n"
        f'node_load1{{node="n1",instance="n1:9100"}} 0.5 {t:.0f}\n'
        f'node_load1{{node="n1",instance="n1:9100"}} 0.7 {t + 30:.0f}\n'
        "# EOF\n"
    )
    frame = load(root, ["load"]).frame
    assert frame.get_column("value").to_list() == [0.5, 0.7]
    assert frame.get_column("node").unique().to_list() == ["n1"]


def test_exporters_own_host_labels_name_the_host_when_there_is_no_node(tmp_path):
    # As Prometheus exports them (seen in blind incident folders): dcgm-exporter names the
    # node in `Hostname` while its `instance` may be a pod's address; node_exporter has only
    # `instance`, host:port. Without them the per-host analysis had no host and crashed.
    root = write_incident(tmp_path)
    t = T0.timestamp()
    (root / "metrics" / "dcgm.csv").write_text(
        "timestamp,metric,value,instance,Hostname,gpu,fstype\n"
        f"{t:.0f},DCGM_FI_DEV_GPU_TEMP,60,10.42.0.54:9400,gpu-b07,0,\n"
        f"{t + 30:.0f},DCGM_FI_DEV_GPU_TEMP,61,10.42.0.54:9400,gpu-b07,0,\n"
    )
    (root / "metrics" / "node.om").write_text(
        "# TYPE node_load1 gauge\n"
        f'node_load1{{instance="gpu-b07:9100",job="node"}} 0.5 {t:.0f}\n'
        f'node_load1{{instance="gpu-b07:9100",job="node"}} 0.7 {t + 30:.0f}\n'
        "# EOF\n"
    )
    (root / "metrics" / "ib.csv").write_text(
        "timestamp,metric,value,instance,device,port,fstype\n"
        f'{t:.0f},node_infiniband_state_id,4,gpu-b07:9100,mlx5_0,1,""\n'
    )
    metrics = load(root, ["gpu_temp", "load", "ib_port_state"])
    assert sorted(metrics.frame.select("signal", "node").unique().rows()) == [
        ("gpu_temp", "gpu-b07"),
        ("ib_port_state", "gpu-b07"),
        ("load", "gpu-b07"),
    ]
    notes = " ".join(str(n) for n in metrics.receipt.assumptions)
    assert "`Hostname` or `instance` (port removed) names" in notes
    # An empty cell (`""`, as Python's csv writes it) is no label: the port's unit names
    # its device, not `fstype=`; nor the scrape target's address, which names the host (a
    # blind folder's verdict read `gpu-n009/device=mlx5_2,instance=10.31.4.19:9100,job=node,
    # port=1`).
    port = metrics.frame.filter(pl.col("signal") == "ib_port_state").item(0, "worst")
    assert port == "device=mlx5_0,port=1"


def test_node_exporters_address_takes_the_node_name_its_uname_info_gives(tmp_path):
    # Kubernetes' node_exporter is scraped at the node's address (`instance="10.20.4.41:9100"`)
    # while dcgm-exporter names the node (`Hostname`): node_uname_info's `nodename` joins
    # them (PromQL's `* on(instance) group_left(nodename) node_uname_info`), so the two are
    # one host, as in a blind incident folder where they were 40 hosts of 20.
    root = write_incident(tmp_path)
    t = T0.timestamp()
    (root / "metrics" / "node.csv").write_text(
        "timestamp,metric,value,instance,nodename\n"
        f"{t:.0f},node_uname_info,1,10.20.4.41:9100,h100-n041\n"
        f"{t:.0f},node_load1,0.5,10.20.4.41:9100,\n"
        f"{t + 30:.0f},node_load1,0.7,10.20.4.41:9100,\n"
    )
    (root / "metrics" / "dcgm.csv").write_text(
        "timestamp,metric,value,instance,Hostname,gpu\n"
        f"{t:.0f},DCGM_FI_DEV_GPU_TEMP,60,10.42.0.54:9400,h100-n041,0\n"
    )
    metrics = load(root, ["gpu_temp", "load"])
    assert sorted(metrics.frame.select("signal", "node").unique().rows()) == [
        ("gpu_temp", "h100-n041"),
        ("load", "h100-n041"),
    ]
    notes = " ".join(str(n) for n in metrics.receipt.assumptions)
    assert "1 host named by node_exporter's node_uname_info" in notes


def test_node_exporters_address_takes_the_name_dcgm_exporter_gives_beside_it(tmp_path):
    # A blind folder: node_exporter known by its address (`10.42.2.24:9100`), no uname
    # info, dcgm-exporter's rows with `Hostname` and the `instance` it was scraped at on
    # the same address. Three hosts' I/O wait was named by address while their kernel
    # logs named them, so the verdict pointed at "different hosts".
    root = write_incident(tmp_path)
    t = T0.timestamp()
    (root / "metrics" / "node.csv").write_text(
        "timestamp,metric,value,instance\n"
        f"{t:.0f},node_load1,0.5,10.42.2.24:9100\n"
        f"{t:.0f},node_load1,0.6,10.42.2.25:9100\n"
        f"{t + 30:.0f},node_load1,0.7,10.42.2.24:9100\n"
    )
    (root / "metrics" / "dcgm.csv").write_text(
        "timestamp,metric,value,instance,Hostname,gpu\n"
        f"{t:.0f},DCGM_FI_DEV_GPU_TEMP,60,10.42.2.24:9400,node-b2-14,0\n"
        f"{t:.0f},DCGM_FI_DEV_GPU_TEMP,61,10.42.2.26:9400,node-b2-16,0\n"
    )
    metrics = load(root, ["gpu_temp", "load"])
    assert sorted(metrics.frame.select("signal", "node").unique().rows()) == [
        ("gpu_temp", "node-b2-14"),
        ("gpu_temp", "node-b2-16"),
        ("load", "10.42.2.25"),  # no other exporter names it: left as it is
        ("load", "node-b2-14"),
    ]
    notes = " ".join(str(n) for n in metrics.receipt.assumptions)
    assert "1 host named by the name another exporter's samples give" in notes


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        (
            "bad.csv",
            "time,metric,value\n2025-03-14T08:00:00Z,x,1\n",
            "column 'timestamp' is missing",
        ),
        ("naive.csv", "timestamp,metric,value\n2025-03-14T08:00:00,x,1\n", "has no UTC offset"),
        ("broken.parquet", "PAR1 this is not parquet", "cannot be read as parquet"),
        ("odd.om", "node_load1 1\n", "not OpenMetrics samples with timestamps"),
    ],
)
def test_bad_files_name_the_file_and_the_fault(tmp_path, name, content, words):
    root = write_incident(tmp_path)
    (root / "metrics" / name).write_text(content)
    with pytest.raises(MetricsError) as info:
        load(root, ["load"])
    assert name in str(info.value)
    assert words in str(info.value)


def test_naive_parquet_timestamps_are_refused(tmp_path):
    frame = samples("node_load1", np.ones(5)).with_columns(
        pl.col("timestamp").dt.replace_time_zone(None)
    )
    root = write_incident(tmp_path, [frame])
    with pytest.raises(MetricsError, match="no time zone"):
        load(root, ["load"])


def test_no_data_in_the_window_says_what_the_files_cover(tmp_path):
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", np.ones(10))])
    with pytest.raises(
        NoDataError, match="the files cover 2025-03-14T08:00:00Z to 2025-03-14T08:04:30Z"
    ):
        load(root, w=window(24, 25))


def test_a_signal_without_data_is_reported_not_dropped(tmp_path):
    root = write_incident(tmp_path, [samples("trainer_tokens_per_second", np.ones(10))])
    metrics = load(root, ["throughput", "gpu_util"])
    assert "gpu_util" in metrics.receipt.missing_signals
    assert any("DCGM_FI_DEV_GPU_UTIL" in n for n in metrics.receipt.notes())


def test_unknown_signal_lists_the_known_ones():
    with pytest.raises(SignalPackError, match=r"known signals: .*disk_read_latency"):
        PACK.get("disk_latency")


def test_pack_overrides_replace_fields():
    pack = load_pack("default", {"throughput": {"metric": "my_tokens_per_second"}})
    assert pack.get("throughput").metric == "my_tokens_per_second"
    assert pack.get("throughput").aggregate == "sum"


def test_a_stand_in_the_pack_does_not_define_is_a_clear_error():
    pack = load_pack("default", {"throughput": {"stand_in": ["step_time"]}})
    assert pack.get("throughput").stand_in == ("step_time",)
    with pytest.raises(SignalPackError, match=r"throughput's stand_in names 'stepp_time'"):
        load_pack("default", {"throughput": {"stand_in": ["stepp_time"]}})


@pytest.mark.parametrize(
    ("start", "end", "words"),
    [
        ("2025-03-14T12:00:00Z", "2025-03-14T10:00:00Z", "start must come before the end"),
        ("2025-03-14T12:00:00", "2025-03-14T13:00:00Z", "has no UTC offset"),
        ("yesterday", "2025-03-14T13:00:00Z", "start"),
    ],
)
def test_bad_windows_are_sentences(start, end, words):
    with pytest.raises(WindowError, match=words):
        make_window(start, end)


def test_source_registry_by_scheme(tmp_path):
    root = write_incident(tmp_path, [samples("node_load1", np.ones(5))])
    assert isinstance(open_source(f"file://{root}"), FolderSource)
    with pytest.raises(Exception, match="no source for 'gopher'"):
        open_source("gopher://x")


# --- what loading assumes and leaves out (issue 17) -----------------------------------------


def _epoch_frame(unit: str, integer: bool = True) -> pl.DataFrame:
    """Throughput samples whose timestamp is an epoch number in `unit`."""
    frame = samples("trainer_tokens_per_second", np.arange(1.0, 11.0))
    per = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[unit]
    micros = pl.col("timestamp").dt.epoch("us")
    number = micros // (10**6 // per) if per <= 10**6 else micros * (per // 10**6)
    return frame.with_columns(timestamp=number if integer else number.cast(pl.Float64))


@pytest.mark.parametrize("unit", ["s", "ms", "us", "ns"])
@pytest.mark.parametrize("integer", [True, False])
def test_epoch_timestamps_in_parquet_are_read_in_the_unit_their_size_implies(
    tmp_path, unit, integer
):
    root = write_incident(tmp_path, [_epoch_frame(unit, integer)])
    metrics = load(root, w=window(0, 1))
    assert metrics.frame.get_column("ts").to_list() == [
        T0 + i * timedelta(seconds=30) for i in range(10)
    ]
    word = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}[unit]
    (note,) = [a for a in metrics.receipt.assumptions if a.action == "assumed"]
    assert f"read as {word}" in note.text and "timestamp_unit" in note.text
    assert note.source.endswith("metrics.parquet")
    assert any(f"read as {word}" in n for n in metrics.receipt.notes())


def test_a_stated_timestamp_unit_is_used_and_a_disagreeing_one_said(tmp_path):
    import yaml

    root = write_incident(tmp_path, [_epoch_frame("ms")])
    spec = yaml.safe_load((root / "incident.yaml").read_text())
    (root / "incident.yaml").write_text(yaml.safe_dump({**spec, "timestamp_unit": "ms"}))
    metrics = load(root, w=window(0, 1))
    assert metrics.frame.height == 10 and metrics.receipt.assumptions == []
    (root / "incident.yaml").write_text(yaml.safe_dump({**spec, "timestamp_unit": "us"}))
    with pytest.raises(NoDataError) as info:
        load(root, w=window(0, 1))
    # Read as microseconds the samples land in 1970: the message says where they went and
    # that their size suggests milliseconds.
    assert "the files cover 1970-01-21" in str(info.value)
    assert "suggests milliseconds" in str(info.value)
    (root / "incident.yaml").write_text(yaml.safe_dump({**spec, "timestamp_unit": "s"}))
    with pytest.raises(MetricsError, match=r"after the year 9999.*suggests milliseconds"):
        load(root, w=window(0, 1))


def test_csv_and_openmetrics_epoch_milliseconds(tmp_path):
    root = write_incident(tmp_path)
    ms = int(T0.timestamp() * 1000)
    (root / "metrics" / "a.csv").write_text(
        "timestamp,metric,value,node\n"
        f"{ms},trainer_tokens_per_second,1,n0\n{ms + 30_000},trainer_tokens_per_second,2,n0\n"
    )
    # Prometheus' text exposition format stamps samples in milliseconds.
    (root / "metrics" / "b.prom").write_text(f'node_load1{{node="n0"}} 0.5 {ms}\n')
    metrics = load(root, ["throughput", "load"], w=window(0, 1))
    frame = metrics.frame.sort("signal", "ts")
    assert frame.get_column("ts").to_list() == [T0, T0, T0 + timedelta(seconds=30)]
    assumed = sorted(Path(a.source).name for a in metrics.receipt.assumptions)
    assert assumed == ["a.csv", "b.prom"]
    assert all("milliseconds" in a.text for a in metrics.receipt.assumptions)


def test_negative_counters_and_missing_values_are_left_out_and_counted(tmp_path):
    reads = np.cumsum(np.full(20, 1000.0))
    reads[5:9] = -1.0  # a broken exporter
    read_time = np.cumsum(np.full(20, 2.0))
    load1 = np.ones(20)
    load1[[2, 3]] = np.nan
    load1[4] = np.inf
    root = write_incident(
        tmp_path,
        [
            samples("node_disk_reads_completed_total", reads, device="sda"),
            samples("node_disk_read_time_seconds_total", read_time, device="sda"),
            samples("node_load1", load1),
        ],
    )
    metrics = load(root, ["disk_read_latency", "load"])
    dropped = {
        (a.text.split(" left out")[0], a.rows)
        for a in metrics.receipt.assumptions
        if a.action == "dropped"
    }
    assert dropped == {
        ("of node_disk_reads_completed_total", 4),
        ("of node_load1", 3),
    }
    notes = " ".join(metrics.receipt.notes())
    assert (
        "4 samples of node_disk_reads_completed_total left out: negative value of a counter"
        in notes
    )
    assert "3 samples of node_load1 left out: value NaN or infinite" in notes
    assert metrics.frame.filter(pl.col("signal") == "load").height == 17


def test_text_in_a_value_column_names_the_file_the_column_and_the_line(tmp_path):
    root = write_incident(tmp_path)
    (root / "metrics" / "a.csv").write_text(
        "timestamp,metric,value,node\n"
        "2025-03-14T08:00:00Z,node_load1,1,n0\n"
        "2025-03-14T08:00:30Z,node_load1,n/a,n0\n"
        "2025-03-14T08:01:00Z,node_load1,,n0\n"
    )
    with pytest.raises(MetricsError) as info:
        load(root, ["load"])
    message = str(info.value)
    assert "a.csv" in message and "column 'value'" in message and "line 3: n/a" in message
    assert "leave the cell empty" in message
    # A Parquet file's string value column is read the same way.
    (root / "metrics" / "a.csv").unlink()
    pl.DataFrame(
        {
            "timestamp": [T0, T0 + timedelta(seconds=30)],
            "metric": "node_load1",
            "value": ["1.5", "high"],
        }
    ).write_parquet(root / "metrics" / "s.parquet")
    with pytest.raises(MetricsError, match=r"s.parquet: column 'value': 1 sample with a value"):
        load(root, ["load"])


def test_csv_timestamps_with_and_without_offsets_name_the_file_and_line(tmp_path):
    root = write_incident(tmp_path)
    (root / "metrics" / "mixed.csv").write_text(
        "timestamp,metric,value,node\n"
        "2025-03-14T08:00:00Z,node_load1,1,n0\n"
        "2025-03-14T10:00:30+02:00,node_load1,1,n0\n"
        "2025-03-14T08:01:00,node_load1,1,n0\n"
    )
    with pytest.raises(MetricsError) as info:
        load(root, ["load"])
    message = str(info.value)
    assert "mixed.csv" in message and "column 'timestamp'" in message
    assert "line 4: 2025-03-14T08:01:00" in message and "UTC offset" in message


def test_no_data_message_for_epoch_parquet_says_what_the_files_cover(tmp_path):
    root = write_incident(tmp_path, [_epoch_frame("ns")])
    with pytest.raises(
        NoDataError, match="the files cover 2025-03-14T08:00:00Z to 2025-03-14T08:04:30Z"
    ):
        load(root, w=window(24, 25))


def test_a_file_that_fails_while_read_with_others_is_named(tmp_path):
    root = write_incident(tmp_path, [samples("node_load1", np.ones(5))])
    good = (root / "metrics" / "metrics.parquet").read_bytes()
    # A Parquet file whose footer is intact but whose data pages are not: the schema reads,
    # the scan fails only when the samples are collected with the other files'.
    broken = bytearray(good)
    broken[8:200] = b"\xff" * 192
    (root / "metrics" / "zz.parquet").write_bytes(bytes(broken))
    with pytest.raises(MetricsError, match=r"zz\.parquet"):
        load(root, ["load"])


def test_hosts_scraped_at_their_own_offsets_are_put_on_one_grid(tmp_path):
    # A blind incident folder's raw samples: Prometheus spreads its targets' scrapes over
    # the 15 s interval, so no two of 24 hosts shared a timestamp. The cluster's series,
    # taken per timestamp, read one host at a time, and the hot host's every sample was a
    # one-second "spike" of the cluster: 1,584 findings, and an onset 10 min early.
    step = timedelta(seconds=15)
    n = 480  # two hours
    rng = np.random.default_rng(4)
    frames = []
    for h in range(8):
        temp = 60 + rng.normal(0, 0.3, n)
        if h == 3:
            temp[240:] += 15
        if h == 5:
            temp[100:120] = np.nan  # five minutes unscraped: a gap, found on this host alone
        offset = timedelta(seconds=1.7 * h + 0.437)
        frames.append(
            samples("DCGM_FI_DEV_GPU_TEMP", temp, f"h{h}", start=T0 + offset, gpu="0").with_columns(
                timestamp=pl.datetime_range(
                    T0 + offset,
                    T0 + offset + step * (n - 1),
                    step,
                    eager=True,
                    time_unit="us",
                    time_zone="UTC",
                )
            )
        )
    frames.append(samples("trainer_tokens_per_second", 1e4 + rng.normal(0, 20, n // 2)))
    root = write_incident(tmp_path, frames, hours=2, nodes=8)
    got = load(root, ("gpu_temp",), window(0, 2))
    temp = got.frame.filter(pl.col("signal") == "gpu_temp")
    assert temp.get_column("ts").n_unique() == n  # one time per interval, every host at it
    per_time = temp.group_by("ts").len().get_column("len")
    assert (per_time == 8).sum() == n - 20 and (per_time == 7).sum() == 20
    assert temp.get_column("ts").dt.second().unique().sort().to_list() == [0, 15, 30, 45]
    assert any("sampled each at its own second" in note for note in got.receipt.notes())
    gaps = [g for g in got.receipt.gaps if g["signal"] == "gpu_temp"]
    assert [(g["node"], g["end"] - g["start"]) for g in gaps] == [("h5", step * 21)]
    # the analysis sees one host warming, not a cluster spiking every 15 s
    from incidentbook.investigation import investigate

    findings = investigate(root).analysis.findings
    temps = [f for f in findings if f.signal == "gpu_temp"]
    assert len(temps) <= 5 and all(f.end - f.start >= timedelta(minutes=30) for f in temps)
    assert any(f.signal == "gpu_temp" and f.hosts == ["h3"] for f in findings)


def test_signals_reading_one_metric_with_different_matchers_each_keep_their_own_rows(tmp_path):
    # cpu_iowait and cpu_steal both read node_cpu_seconds_total (mode iowait, mode steal)
    # and are scanned together: each took the other's rows too, so both were the mean of
    # the two modes, and a blind folder's checkpoint showed "CPU time stolen by the
    # hypervisor rose" on every host of a cluster with no hypervisor.
    root = write_incident(tmp_path)
    t = T0.timestamp()
    rows = ["timestamp,metric,value,instance,mode"]
    for i in range(4):
        rows += [
            f"{t + 30 * i:.0f},node_cpu_seconds_total,{100 + 15 * i},gpu-b07:9100,iowait",
            f"{t + 30 * i:.0f},node_cpu_seconds_total,500,gpu-b07:9100,steal",
            f"{t + 30 * i:.0f},node_cpu_seconds_total,{9000 + 30 * i},gpu-b07:9100,idle",
        ]
    (root / "metrics" / "node.csv").write_text("\n".join(rows) + "\n")
    metrics = load(root, ["cpu_iowait", "cpu_steal"])
    means = dict(metrics.frame.group_by("signal").agg(pl.col("value").mean()).iter_rows())
    assert means == {"cpu_iowait": pytest.approx(0.5), "cpu_steal": pytest.approx(0.0)}
