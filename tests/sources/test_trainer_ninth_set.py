"""Trainers' logs from the ninth blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_a_step_time_printed_as_nan_is_unknown_not_a_failure():
    # modded-nanoGPT: `step:1/6200 train_loss:10.9184 train_time:74701ms step_avg:nanms`
    # until it has steps to average: once the whole file was left out (NaN seconds cannot
    # be added up into a time)
    rows, notes = trainer_rows("modded-nanogpt_muon-record-step-avg-nan.log", start=START)
    assert rows.height == 40, notes
    assert "13 iteration lines print a time or rate that is not a number" in notes
    times = rows.get_column("step_time")
    assert times.is_nan().sum() == 0
    assert rows.filter(rows["iteration"] == 13).item(0, "step_time") == pytest.approx(0.21366)
    assert rows.get_column("loss").to_list()[1] == pytest.approx(10.9184)


def test_quoted_values_and_seconds_per_step_in_ms_swift_dicts():
    # `{'loss': '1.921', ..., 'global_step/max_steps': '1/2353', ...,
    # 'tokens_per_gpu_per_sec': '83.4', 'tokens_global_per_sec': '667.2', ...,
    # 'train_speed(s/it)': '5.509'}` after tqdm's redraws on the same line
    rows, notes = trainer_rows("ms-swift_fsdp2-quoted-dicts-s-per-it.log", start=START)
    first = rows.row(0, named=True)
    assert first["iteration"] == 1, notes
    assert first["loss"] == pytest.approx(1.921)
    assert first["step_time"] == pytest.approx(5.509)
    assert first["tokens_per_second"] == pytest.approx(667.2)
    assert first["tokens_per_second_per_gpu"] == pytest.approx(83.4)
    assert rows.get_column("iteration").to_list() == list(range(1, 30))


def test_pipeline_stages_stand_in_loss_gives_way_to_the_last_stages():
    # torchtitan under pipeline parallelism: ranks 0-2 print `loss: -2.0000` on every
    # step, rank 3 (the last stage) the loss; `validate step: 100  loss: 2.1152` is the
    # validation's, not step 100's
    rows, notes = trainer_rows("torchtitan_pp-fork-stage-loss-stand-in.log")
    assert rows.get_column("loss").to_list() == pytest.approx(
        [10.8312, 5.6559, 8.467, 3.999, 5.8257]
    ), notes
    assert any("ranks 0, 1, 2 print one loss on every step" in n for n in notes.split("\n"))
    assert rows.get_column("tokens_per_second_per_gpu").to_list()[-1] == pytest.approx(2212)


def test_orbits_pretty_printed_outputs_are_the_steps_numbers():
    # TensorFlow Model Garden's Orbit controller: `train | step:    160 | steps/sec:    0.1
    # | output:`, its outputs' dict pretty-printed over the next lines (`'training_loss':
    # 0.46952447}`), each block twice (absl's timed copy, Python's untimed one). Left by
    # the seventh set: the Hugging Face reader took the dicts and read only learning rates.
    rows, notes = trainer_rows("tf-orbit_hiertext-issue6-dict-blocks.log", start=START)
    assert rows.get_column("iteration").to_list() == [140, 160, 180], notes
    assert rows.get_column("loss").to_list() == pytest.approx([0.4755017, 0.46952447, 0.4455536])
    assert rows.get_column("step_time").to_list() == pytest.approx([10.0] * 3)
    assert "hf-trainer read no number here" in notes
