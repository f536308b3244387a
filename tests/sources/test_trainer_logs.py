"""The trainer-log source on real trainer output (tests/data/trainer, see SOURCES.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest

from conftest import REPO, logs_incident
from incidentbook.incident import TrainerSpec
from incidentbook.metrics.signals import load_pack
from incidentbook.sources import SOURCES, open_source
from incidentbook.sources.folder import FolderSource
from incidentbook.sources.trainer import TrainerLogSource
from incidentbook.sources.trainer.read import formats_of
from incidentbook.window import TimeWindow

DATA = REPO / "tests" / "data" / "trainer"
ALL_TIME = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))
PACK = load_pack()
START = datetime(2025, 1, 1, tzinfo=UTC)


def rows(*names: str, window: TimeWindow = ALL_TIME, **trainer) -> tuple[pl.DataFrame, str]:
    source = TrainerLogSource([DATA / n for n in names], trainer=TrainerSpec(**trainer))
    got, notes = source.rows(window)
    return got.filter(pl.col("iteration").is_not_null()), "\n".join(notes)


def test_every_data_file_has_its_source_written_down():
    listed = (DATA / "SOURCES.md").read_text()
    for path in DATA.iterdir():
        if path.name != "SOURCES.md":
            assert f"`{path.name}`" in listed, path.name


@pytest.mark.parametrize(
    ("name", "formats"),
    [
        ("megatron_lm_2021_n8.log", ["megatron"]),
        ("tr8b_overflow_lossscale_collapse.log", ["megatron", "deepspeed"]),
        ("deepspeed_chat_sft_head.log", ["deepspeed"]),
        ("torchtitan_qwen3_10steps_ansi.log", ["torchtitan"]),
        ("nanotron_tiny_llama_head.log", ["nanotron"]),
        ("trainer_state.json", ["hf-trainer-state"]),
        ("hf_trainer_qwen_excerpt.log", ["hf-trainer"]),
        ("lightning_version_0_metrics.csv", ["lightning-csv"]),
        ("SOURCES.md", []),
    ],
)
def test_formats_are_recognised_by_their_content(name, formats):
    assert [f.name for f in formats_of(DATA / name)] == formats


def test_megatron_2021_times_are_inferred_from_the_datetime_anchor():
    got, notes = rows("megatron_lm_2021_n8.log")
    assert got.height == 20
    assert got.get_column("iteration").to_list() == list(range(10, 201, 10))
    assert got.get_column("inferred").all()
    # [before the start of training step] datetime: 2021-05-23 08:23:58, then 10 x 3171.3 ms
    first = got.row(0, named=True)
    assert first["ts"] == datetime(2021, 5, 23, 8, 23, 58, tzinfo=UTC) + timedelta(seconds=31.713)
    # global batch 4 (on the line) x seq_length 1024 (argument dump) / 1.5727 s
    second = got.row(1, named=True)
    assert second["tokens_per_second"] == pytest.approx(4 * 1024 / 1.5727)
    assert "sequence length 1024 (argument dump" in notes
    assert "inferred" in notes
    # The fp16 scaler's search: 10 skipped of the first 10 iterations, no loss, not NaN.
    assert first["skipped"] == 10 and first["loss"] is None and first["nan"] == 0
    # the run's world size (`world_size ...... 32` in the dump) on every row: a restart on
    # fewer GPUs is told from a slowdown by it
    assert got.get_column("gpus").to_list() == [32.0] * 20


def test_deepspeed_overflow_lines_date_the_megatron_lines_between_them():
    source = TrainerLogSource([DATA / "tr8b_overflow_lossscale_collapse.log"])
    got, notes = source.rows(ALL_TIME)
    notes = "\n".join(notes)
    events = got.filter(pl.col("iteration").is_null())
    assert events.get_column("loss_scale").to_list()[-1] == 32768.0
    iterations = got.filter(pl.col("iteration").is_not_null())
    at = dict(zip(iterations["iteration"].to_list(), iterations["ts"].to_list(), strict=True))
    # The first OVERFLOW line is at 13:09:13,305; iteration 17061 is printed beside it.
    assert abs(at[17061] - datetime(2022, 1, 19, 13, 9, 13, tzinfo=UTC)) < timedelta(seconds=5)
    # tokens/s from the consumed-tokens delta (2048 x 2048 per iteration) / step time
    row = iterations.filter(pl.col("iteration") == 17062).row(0, named=True)
    assert row["tokens_per_second"] == pytest.approx(4194304 / 422.832, rel=1e-3)
    # The fork's samples/s were off by the batch size: not believed.
    assert "printed samples per second" in notes
    assert row["samples_per_second"] == pytest.approx(2048 / 422.832, rel=1e-3)


def test_wrapped_lines_are_joined():
    got, _ = rows("bloom_tr11_throughput_drop_wrapped.log", start=START)
    assert got.get_column("iteration").to_list() == [42780, 42781, 42782, 42783, 42784]
    assert got.get_column("step_time").to_list() == [105.16, 105.17, 106.25, 110.17, 111.14]
    assert got.get_column("tflops_per_gpu").to_list() == [149.10, 149.09, 147.58, 142.32, 141.09]
    assert got.get_column("nan").to_list() == [0.0] * 5  # `number of nan` + `iterations`
    skip, _ = rows("tr8b_wrapped_skip.log", start=START)
    assert skip.get_column("learning_rate").to_list()[0] == pytest.approx(5.996e-05)
    assert skip.get_column("skipped").to_list() == [0.0, 0.0]  # `iteratio` + `ns:`


def test_alcf_key_value_lines():
    got, notes = rows("alcf_2024-06_keyvalue.log")
    row = got.row(0, named=True)
    assert row["ts"] == datetime(2024, 6, 21, 10, 50, 42, tzinfo=UTC) and not row["inferred"]
    assert row["step_time"] == pytest.approx(108.8932)
    assert row["tokens_per_second"] == pytest.approx(768 * 4096 / 108.8932)
    assert row["tflops_per_gpu"] == 49.66  # [LM]-TFLOPs, not [DS]-TFLOPs
    assert "sequence length (on each line)" in notes


def test_incident_yaml_gives_what_the_log_leaves_out():
    got, notes = rows("megatron_lm_2024-09_timestamped.log")
    assert got.get_column("tokens_per_second").is_null().all()
    assert "set trainer.seq_length" in notes
    got, notes = rows("megatron_lm_2024-09_timestamped.log", seq_length=4096)
    row = got.filter(pl.col("iteration") == 20).row(0, named=True)
    assert row["tokens_per_second"] == pytest.approx(1024 * 4096 / row["step_time"])
    assert "incident.yaml trainer block" in notes


def test_deepspeed_running_totals_and_the_launch_command():
    got, notes = rows("deepspeed_chat_sft_head.log")
    assert got.get_column("iteration").to_list()[:3] == [10, 20, 30]
    first = got.row(0, named=True)
    assert first["skipped"] == 6  # skipped=6 at step=10: the overflow burst at the start
    assert got.get_column("skipped").to_list()[1:] == [0.0] * (got.height - 1)
    assert first["samples_per_second"] == pytest.approx(171.97903593624417)
    assert first["tokens_per_second"] == pytest.approx(171.97903593624417 * 512)
    assert "512 (launch command, line 1)" in notes


def test_torchtitan_colours_ranks_and_devices():
    got, notes = rows("torchtitan_qwen3_10steps_ansi.log")
    assert got.height == 10
    last = got.row(9, named=True)
    assert last["tokens_per_second_per_gpu"] == 10378  # `tps: 10,378`
    assert last["tokens_per_second"] == 8 * 10378  # dp_shard=8 in the device mesh
    assert last["mfu"] == pytest.approx(0.3886)
    assert last["step_time"] == pytest.approx(1.974)  # 02:58:29,153 -> 02:58:31,127
    assert "device mesh" in notes
    interleaved, notes = rows("torchtitan_multirank_interleaved.log")
    first = interleaved.row(0, named=True)
    assert first["rank"] == 0 and first["tokens_per_second_per_gpu"] == 87  # not rank 3's 86
    assert "by 4 ranks; rank 0's numbers are used" in notes
    copies, notes = rows("torchtitan_duplicated_ranks.log")
    assert copies.get_column("iteration").to_list() == [4, 5]
    assert "6 duplicate iteration lines" in notes


def test_nanotron_humanised_numbers_hosts_and_yearless_times():
    got, _notes = rows("nanotron_tiny_llama_head.log")
    assert got.get_column("iteration").to_list() == list(range(1, 6))
    assert got.row(1, named=True)["tokens_per_second"] == 43_200  # 43.2K
    assert got.row(0, named=True)["step_time"] == pytest.approx(4.71)  # 4.71K ms
    window = TimeWindow(
        start=datetime(2025, 12, 20, tzinfo=UTC), end=datetime(2025, 12, 22, tzinfo=UTC)
    )
    yearless, _ = rows("nanotron_zagreus_yearless.log", window=window)
    row = yearless.row(0, named=True)
    assert row["ts"] == datetime(2025, 12, 21, 1, 39, 51, tzinfo=UTC)
    assert row["host"] == "lrdn0007"
    assert row["step_time"] == pytest.approx(8.79)  # time_per_iteration_ms: 8.79K


def test_hf_dicts_are_spread_between_the_runs_start_and_runtime():
    got, notes = rows("hf_trainer_qwen_excerpt.log")
    assert got.height == 8
    assert got.get_column("inferred").all()
    start = datetime(2025, 8, 18, 17, 3, 21, 101000, tzinfo=UTC)
    # 22095.3 s over 30 epochs: the first dict (epoch 0.11) 81 s after the start line
    after = got.row(0, named=True)["ts"] - start
    assert abs(after - timedelta(seconds=0.11 * 22095.3115 / 30)) < timedelta(seconds=1)
    assert got.get_column("loss").to_list()[0] == 4.1437
    assert "train_runtime" in notes


def test_trainer_state_needs_a_start_and_then_spreads_its_steps():
    got, notes = rows("trainer_state.json")
    assert got.height == 0 and "could not be placed in time" in notes
    got, _ = rows("trainer_state.json", start=START)
    assert got.get_column("iteration").to_list() == [10, 20, 30, 40]
    assert got.row(3, named=True)["ts"] == START + timedelta(seconds=40 * 472.0904 / 45)
    assert got.get_column("grad_norm").to_list()[0] == pytest.approx(47.77210235595703)


def test_lightning_versions_of_a_resumed_run_follow_each_other():
    got, _notes = rows(
        "lightning_version_0_metrics.csv", "lightning_version_5_metrics.csv", start=START
    )
    steps = got.get_column("iteration")
    assert steps.min() == 49 and steps.max() > 140749
    first, resumed = (
        got.filter(pl.col("iteration") <= 14073),
        got.filter(pl.col("iteration") > 140739),
    )
    assert first.get_column("ts").max() <= resumed.get_column("ts").min()
    # epoch 0 took 2517.1 s over its 14073 steps (its last training row is at step 14049)
    took = first.get_column("ts").max() - START
    assert abs(took - timedelta(seconds=14049 / 14073 * 2517.10107421875)) < timedelta(seconds=5)
    assert got.get_column("loss").is_not_null().all()


# --- bad input -------------------------------------------------------------------------


def test_a_partial_last_line_is_left_out_and_said(tmp_path):
    text = (DATA / "bloom_tr11_loss_spike.log").read_text()
    cut = tmp_path / "train.log"
    cut.write_text(text.rstrip("\n")[:-40])  # the last iteration line loses its end
    got, notes = TrainerLogSource([cut], trainer=TrainerSpec(start=START)).rows(ALL_TIME)
    notes = "\n".join(notes)
    assert 31251 not in got.get_column("iteration").to_list()
    assert "cut short" in notes and got.get_column("nan").sum() == 0


def test_unparseable_numbers_are_counted_not_fatal(tmp_path):
    text = (DATA / "bloom_tr11_loss_spike.log").read_text()
    bad = tmp_path / "train.log"
    bad.write_text(text.replace("grad norm: 0.947", "grad norm: 0.9.47", 1))
    got, notes = TrainerLogSource([bad], trainer=TrainerSpec(start=START)).rows(ALL_TIME)
    assert got.filter(pl.col("iteration") == 31215).item(0, "grad_norm") is None
    assert "1 grad norm values are not numbers (e.g. '0.9.47')" in "\n".join(notes)


def test_restarts_and_changed_intervals_are_reported():
    got, notes = rows("bloom_tr11_reshaping_restarts.md.txt", start=START)
    assert got.get_column("segment").n_unique() == 7  # seven resumes at iteration 94768
    assert "the run restarts 6 times" in notes
    _, notes = rows("bloom_tr11_loss_spike.log", start=START)
    assert "logging interval changes" in notes  # the chronicle's [...] elision


def test_nothing_readable_is_a_note_never_a_traceback(tmp_path):
    junk = tmp_path / "train.log"
    junk.write_bytes(b"iteration 5/10 | lm loss: \xff\xfe |\n" + bytes(range(256)))
    _got, notes = TrainerLogSource([junk], trainer=TrainerSpec(start=START)).rows(ALL_TIME)
    assert "bytes that are not UTF-8 were replaced" in "\n".join(notes)


# --- through the folder ------------------------------------------------------------------


def _folder(tmp_path: Path, files: list[str], trainer: dict | None = None) -> Path:
    return logs_incident(
        tmp_path,
        [DATA / name for name in files],
        id="trainer-only",
        title="A trainer log and nothing else",
        window={"start": "2021-05-23T08:00:00Z", "end": "2021-05-23T09:00:00Z"},
        cluster={"name": "jz", "nodes": 8},
        **({"trainer": trainer} if trainer else {}),
    )


def test_a_folder_with_only_a_trainer_log_has_metrics(tmp_path):
    root = _folder(tmp_path, ["megatron_lm_2021_n8.log"], {"host": "jean-zay-n1"})
    spec_window = TimeWindow(
        start=datetime(2021, 5, 23, 8, tzinfo=UTC), end=datetime(2021, 5, 23, 9, tzinfo=UTC)
    )
    got = FolderSource(root).metrics(spec_window, list(PACK.signals.values()))
    signals = set(got.frame.get_column("signal").unique().to_list())
    assert {"throughput", "step_time", "loss", "grad_norm", "loss_scale", "iteration"} <= signals
    assert set(got.frame.get_column("node").unique().to_list()) == {"jean-zay-n1"}
    assert got.receipt.origins["throughput"] == "trainer_log"
    assert any("inferred" in n for n in got.receipt.notes())


def test_the_pack_says_which_origin_wins(tmp_path):
    from incidents import samples

    root = _folder(tmp_path, ["megatron_lm_2021_n8.log"])
    (root / "metrics").mkdir()
    gauge = samples(
        "trainer_tokens_per_second",
        [1000.0] * 60,
        start=datetime(2021, 5, 23, 8, tzinfo=UTC),
        job="train",
    )
    gauge.write_parquet(root / "metrics" / "trainer.parquet")
    window = TimeWindow(
        start=datetime(2021, 5, 23, 8, tzinfo=UTC), end=datetime(2021, 5, 23, 9, tzinfo=UTC)
    )
    default = FolderSource(root).metrics(window, [PACK.get("throughput")])
    assert default.receipt.origins["throughput"] == "metrics"
    assert set(default.frame.get_column("value").to_list()) == {1000.0}
    assert any("the pack's prefer" in n for n in default.receipt.notes())
    log_first = load_pack(overrides={"throughput": {"prefer": ["trainer_log", "metrics"]}})
    got = FolderSource(root).metrics(window, [log_first.get("throughput")])
    assert got.receipt.origins["throughput"] == "trainer_log"
    assert 1000.0 not in got.frame.get_column("value").to_list()


def test_what_loading_the_metrics_files_assumed_survives_the_merge(tmp_path):
    """With a trainer log beside them, the metrics files' notes (epoch unit assumed,
    samples left out, files not read) are still said, not lost in the merge."""
    from incidents import samples

    root = _folder(tmp_path, ["megatron_lm_2021_n8.log"])
    (root / "metrics").mkdir()
    start = datetime(2021, 5, 23, 8, tzinfo=UTC)
    load1 = samples("node_load1", [1.0] * 60, start=start).with_columns(
        timestamp=pl.col("timestamp").dt.epoch("ms"),
        value=pl.when(pl.int_range(pl.len()) < 3).then(float("nan")).otherwise(pl.col("value")),
    )
    load1.write_parquet(root / "metrics" / "node.parquet")
    (root / "metrics" / "notes.json").write_text("{}")
    window = TimeWindow(start=start, end=datetime(2021, 5, 23, 9, tzinfo=UTC))
    got = FolderSource(root).metrics(window, [PACK.get("throughput"), PACK.get("load")])
    assert got.receipt.origins == {"throughput": "trainer_log", "load": "metrics"}
    notes = " ".join(got.receipt.notes())
    assert "node.parquet: timestamps are bare epoch numbers: read as milliseconds" in notes
    assert "3 samples of node_load1 left out: value NaN or infinite" in notes
    assert "notes.json: file not read: not a metrics format" in notes


def test_a_folder_whose_metrics_files_no_reader_takes_says_which(tmp_path):
    root = _folder(tmp_path, ["megatron_lm_2021_n8.log"])
    (root / "metrics").mkdir()
    (root / "metrics" / "dump.xlsx").write_bytes(b"PK\x03\x04")
    window = TimeWindow(
        start=datetime(2021, 5, 23, 8, tzinfo=UTC), end=datetime(2021, 5, 23, 9, tzinfo=UTC)
    )
    got = FolderSource(root).metrics(window, [PACK.get("throughput")])
    assert "dump.xlsx: file not read: not a metrics format" in " ".join(got.receipt.notes())


def test_trainer_and_tensorboard_are_sources_in_the_registry():
    assert {"trainer", "tensorboard"} <= set(SOURCES.names())
    source = open_source(f"trainer://{DATA / 'nanotron_issue390.log'}")
    window = TimeWindow(
        start=datetime(2025, 10, 17, 16, tzinfo=UTC), end=datetime(2025, 10, 17, 17, tzinfo=UTC)
    )
    got = source.metrics(window, [PACK.get("throughput")])
    assert got.frame.get_column("value").to_list() == [22_800.0] * 4
    assert re.search("nanotron_issue390", str(source))


def test_a_merge_the_metrics_files_win_whole_is_their_frame_and_gaps():
    """SmolLM3's folder has a trainer log beside its metrics files, and the metrics files
    win every signal (the pack's prefer): the merge gives their frame as it is, sorted,
    with the same gaps a merge of the parts would find, without sorting it again."""
    from incidentbook.incident import IncidentFolder
    from incidentbook.metrics.data import find_gaps
    from incidentbook.sources.merge import merge

    folder = IncidentFolder(REPO / "data" / "incidents" / "smollm3-storage")
    source = FolderSource(folder)
    pack = load_pack()
    wanted = [pack.get(n) for n in ("throughput", "disk_read_latency", "gpu_util")]
    window = folder.spec.window
    files, unread = source._listing()
    parts = {
        "metrics": source._files_metrics(files, window, wanted, unread),
        "trainer_log": source.trainer_logs().metrics(window, wanted),
    }
    assert "throughput" in parts["trainer_log"].frame.get_column("signal").to_list()
    merged = merge(parts, wanted, window)
    assert merged.receipt.origins == {n.name: "metrics" for n in wanted}
    expected = parts["metrics"].frame.sort(["signal", "node", "gpu", "ts"], nulls_last=True)
    assert merged.frame.equals(expected)
    assert merged.receipt.gaps == find_gaps(expected)
    assert any("both give it" in r for r in merged.receipt.remarks)


def test_a_torchtitan_forks_own_logger_name_keeps_the_lines_times(tmp_path):
    # A blind folder: a fork of torchtitan names its logger `[llmtrain]`, not `[titan]`,
    # behind srun's label and torchrun's rank tag. Its lines' own times were not seen, so
    # every iteration's time was inferred from the steps' elapsed time, and four crashes
    # and restarts of the run fell on the wrong minutes. (Lines in torchtitan's format.)
    log = tmp_path / "slurm-4417702.out"
    log.write_text(
        " 0: [rank0]:[llmtrain] 2025-05-20 01:36:21,035 - root - INFO - step: 17010  loss:  "
        "2.0266  grad_norm:  0.2298  memory: 61.40GiB(77.61%)  tps: 8,268  tflops: 412.29  "
        "mfu: 41.69%\n"
        " 0: [rank0]:[llmtrain] 2025-05-20 01:37:00,702 - root - INFO - step: 17020  loss:  "
        "2.1186  grad_norm:  0.2585  memory: 61.35GiB(77.55%)  tps: 8,261  tflops: 411.94  "
        "mfu: 41.65%\n"
    )
    got, _notes = TrainerLogSource([log], trainer=TrainerSpec()).rows(ALL_TIME)
    got = got.filter(pl.col("iteration").is_not_null())
    assert got.get_column("ts").to_list() == [
        datetime(2025, 5, 20, 1, 36, 21, 35000, tzinfo=UTC),
        datetime(2025, 5, 20, 1, 37, 0, 702000, tzinfo=UTC),
    ]
    assert not got.get_column("inferred").any()
