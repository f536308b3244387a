"""Trainers' logs from the eighth blind set (tests/data/trainer/SOURCES.md): what GPU
clusters ran in 2023-2026. Each test names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_batch_lines_behind_srun_tags_are_a_trainers_progress():
    # `0: 2025-06-17 16:24:52 I [train.py:103] Batch 0 Loss: 11.61653, Speed: 4.88
    # samples/sec`: once not taken for a trainer's log at all (the sniff knew no `Batch N`)
    rows, notes = trainer_rows("awsome-fsdp_readme-srun-batch-lines.log")
    assert rows.get_column("iteration").to_list()[:3] == [0, 1, 2], notes
    assert rows.get_column("samples_per_second").to_list()[1] == pytest.approx(10.90)
    assert str(rows.get_column("ts")[1]) == "2025-06-17 16:24:55+00:00"


def test_iteration_time_in_ms_is_the_step_time():
    # DeepSpeed-Domino: `iteration: 2 | loss: 11.307 | iteration time (ms): 1414.40...`
    rows, notes = trainer_rows("deepspeed-domino_readme-iteration-time.log", start=START)
    assert rows.get_column("iteration").to_list()[:2] == [1, 2], notes
    assert rows.get_column("step_time").to_list()[1] == pytest.approx(1.4144, abs=1e-4)


def test_trainer_dicts_with_the_runs_clock_give_step_times_and_tokens_per_second():
    # `{'loss': 2.8427, ..., 'num_input_tokens_seen': 393216, 'train_runtime': 30.8283,
    # 'train_tokens_per_second': 12755.034}`: the clock grew 3.5281 s and the tokens
    # 196608 since the dict before (the printed tokens/s is the run's average so far)
    rows, notes = trainer_rows("hf-trainer_ezpz-docs-runtime-per-dict.log")
    second = rows.row(1, named=True)
    assert second["step_time"] == pytest.approx(3.5281), notes
    assert second["tokens_per_second"] == pytest.approx(196608 / 3.5281)


def test_a_replicas_tag_is_taken_off_the_line():
    # `[trainer0|0]:1|26|Loss: 1.2436443567276:  27%|██▋ | 27/101 [07:00<17:31, 14.21s/it]`
    rows, notes = trainer_rows("torchtune_pr2620-replica-tag.log", start=START)
    assert rows.height >= 3, notes
    assert rows.get_column("step_time").drop_nulls().len() >= 3


def test_a_steps_field_line_after_it_is_joined_to_the_step():
    # DeepSpeed-Chat's step 3: `epoch: 0|step: 3183|ppo_ep: 1|act_loss: 30.921875|...`,
    # then `average reward score: ...` and dashes, then `|E2E latency=2.14s |... |
    # CurSamplesPerSec=1.87 |AvgSamplesPerSec=1.95`: that step's time and samples/s
    rows, notes = trainer_rows("deepspeed-chat_issue444-step3-trailing-latency.log", start=START)
    first = rows.row(0, named=True)
    assert first["iteration"] == 3183, notes
    assert first["step_time"] == pytest.approx(2.14)
    assert first["samples_per_second"] == pytest.approx(1.87)
