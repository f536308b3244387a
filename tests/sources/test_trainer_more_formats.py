"""Trainers' logs from the sixth blind set (tests/data/trainer/SOURCES.md): real output of
trainers the readers were not written for, read by the generic reader and the
Transformers-style dicts' reader. Each test names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"

SIXTH_SET = [
    "ms-swift_metax-doc-dicts.log",
    "nanogpt_issue178.log",
    "modded-nanogpt_parameter-golf-issue839.log",
    "litgpt_issue1607.log",
    "mmcv-runner_mmpretrain-issue408.log",
    "mmengine_mmyolo-issue789.log",
    "detectron2_d2go-issue19.log",
    "yolox_issue679.log",
    "fairseq_issue301-simple-bar.log",
    "espnet2_issue2674.log",
    "torchtitan_pr950-rank-tags.log",
    "paddledetection_pr1507-quoted-loss.log",
    "tf-slim_tensorflow-issue2987.log",
    "deepspeech-pytorch_issue127.log",
    "romp_issue170.log",
    "lightning_issue4225-epoch-bar.log",
]


@pytest.mark.parametrize("name", SIXTH_SET)
def test_each_log_gives_steps_with_a_loss_and_a_pace(name):
    rows, notes = trainer_rows(name, start=START)
    assert rows.height >= 3, notes
    assert rows.get_column("loss").is_not_null().sum() >= 3, notes
    pace = [c for c in ("step_time", "tokens_per_second", "samples_per_second", "mfu")]
    assert any(rows.get_column(c).is_not_null().sum() >= 3 for c in pace), notes


def test_espnet_counts_batches_and_times_a_batch_by_train_time():
    # `5epoch:train:3376-3750batch: iter_time=0.001, ..., train_time=0.014`: the range's end
    # is the step; iter_time is the data loader's share of the batch, train_time the batch
    rows, _ = trainer_rows("espnet2_issue2674.log", start=START)
    assert rows.get_column("iteration").to_list()[:3] == [3750, 4125, 4500]
    assert rows.get_column("step_time").to_list()[0] == pytest.approx(0.014)
    assert rows.get_column("loss").to_list()[0] == pytest.approx(1.733)


def test_older_fairseq_counts_across_epochs_and_times_a_step_by_its_words():
    # `| epoch 010  2000 / 8223 loss=1.27 (1.50), wps=962, wpb=908`: the epoch's batch, one
    # count across epochs; a step takes wpb words at wps words a second. The epoch's summary
    # (`words/batch    906`) is not a step.
    rows, _ = trainer_rows("fairseq_issue301-simple-bar.log", start=START)
    steps = rows.get_column("iteration").to_list()
    assert steps[0] == 10 * 8223 + 2000
    assert steps == sorted(steps) and 906 not in steps
    assert rows.get_column("step_time").to_list()[0] == pytest.approx(908 / 962)


def test_lightnings_epoch_bar_is_the_epochs_step_counter():
    # `Epoch 0:  11%|█ | 2/18 [00:11<01:33,  5.82s/it, loss=10.473, v_num=193315]`
    rows, _ = trainer_rows("lightning_issue4225-epoch-bar.log", start=START)
    assert rows.get_column("iteration").to_list() == [1, 2, 3, 4, 5]
    assert rows.get_column("step_time").to_list()[:2] == pytest.approx([8.77, 5.82])
    assert rows.get_column("loss").to_list()[2] == pytest.approx(10.224)


def test_modded_nanogpt_times_a_step_by_its_average_not_the_runs_total():
    # `step:5050/20000 train_loss:2.0232 train_time:219627ms step_avg:43.49ms`
    rows, _ = trainer_rows("modded-nanogpt_parameter-golf-issue839.log", start=START)
    assert rows.get_column("iteration").to_list()[0] == 5050
    assert rows.get_column("step_time").to_list()[0] == pytest.approx(0.04349)


def test_a_quoted_loss_is_read():
    # PaddleDetection: `'loss': '1264.233521', batch_cost: 20.69376 s`
    rows, _ = trainer_rows("paddledetection_pr1507-quoted-loss.log", start=START)
    assert rows.get_column("loss").to_list()[1] == pytest.approx(1264.233521)
    assert rows.get_column("step_time").to_list()[1] == pytest.approx(20.69376)


def test_ms_swift_dicts_give_their_step_and_pace():
    # `{'loss': 1.47, ..., 'global_step/max_steps': '1/94', ..., 'train_speed(iter/s)': 0.345807}`
    rows, _ = trainer_rows("ms-swift_metax-doc-dicts.log", start=START)
    assert rows.get_column("iteration").to_list()[:3] == [1, 5, 10]
    assert rows.get_column("step_time").to_list()[0] == pytest.approx(1 / 0.345807)


def test_a_time_of_day_under_a_time_name_gives_the_step_time_by_its_growth():
    # PyTorch/XLA: `Step=280 Loss=0.01022 ... Time=07:29:39`, each step printed by four
    # devices; 20 steps between lines, 07:29:39 -> 07:29:40 -> 07:29:42
    rows, _ = trainer_rows("torch-xla_pr6026-time-of-day.log", start=START)
    assert rows.get_column("iteration").to_list() == [280, 300, 320, 340]
    assert rows.get_column("step_time").to_list()[1:] == pytest.approx([1 / 20, 2 / 20, 1 / 20])
