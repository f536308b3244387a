"""Trainers' logs from the tenth blind set (tests/data/trainer/SOURCES.md). Each test
names what the set showed missing."""

from __future__ import annotations

import pytest

from conftest import trainer_rows

START = "2025-01-01T00:00:00Z"


def test_nanogpts_dt_is_the_steps_time_and_places_an_untimed_log():
    # nanochat: `step 00002 (0.00%) | loss: 7.252057 | lrm: 1.00 | dt: 5.71ms | tok/sec:
    # 22,429 | ...`, no time anywhere: without the step's time the rows could not be
    # spread from trainer.start, and all 63 were left out
    rows, notes = trainer_rows("nanochat_sft-dt-ms-untimed.log", start=START)
    assert rows.height == 63, notes
    first, second = rows.row(0, named=True), rows.row(1, named=True)
    assert first["step_time"] == pytest.approx(1.14298)
    assert second["step_time"] == pytest.approx(0.00571)
    assert second["tokens_per_second"] == pytest.approx(22429)
    # the steps from the ninth on print `loss: nan`: counted as NaN iterations
    assert rows.filter(rows["iteration"] >= 9).get_column("nan").min() == 1
    assert "55 lines print a loss that is not a number (NaN/inf)" in notes


def test_the_trainers_dicts_as_json_lines():
    # ms-swift's logging.jsonl: `{"loss": 20.53074074, ..., "global_step/max_steps":
    # "1/438", ..., "train_speed(iter/s)": 0.157583}`; its last line (dataset statistics)
    # quotes a dict of its own and is no step's
    rows, notes = trainer_rows("ms-swift_logging-jsonl.log", start=START)
    assert rows.get_column("iteration").to_list() == [1, *range(10, 431, 10)], notes
    first = rows.row(0, named=True)
    assert first["loss"] == pytest.approx(20.53074074)
    assert first["step_time"] == pytest.approx(1 / 0.157583)
    assert "1 dicts without the step the others print are no step's; left out" in notes


def test_a_rate_of_steps_settles_a_bare_time_and_a_loss_below_its_step():
    # Knover: `[train][1] progress: 1/1 step: 100, time: 6.095, speed: 16.406 steps/s`, the
    # time being the 100 steps' (it was read as one step's, 100 times too long), and
    # `\tlm_loss: 3.4719, ppl: 32.1986, loss: 3.4719` on the tab-indented line below (left
    # out); the indented `step N:` lines under `Evaluation:` are the evaluation's, not a
    # restart of training
    rows, notes = trainer_rows("knover_paddle-rate-and-tab-indented-loss.log")
    assert rows.get_column("iteration").to_list() == list(range(100, 1001, 100)), notes
    assert rows.item(0, "step_time") == pytest.approx(1 / 16.406)
    assert rows.get_column("loss").to_list()[:3] == pytest.approx([3.4719, 5.3314, 5.0572])
    assert "restarts" not in notes


def test_a_trainers_dicts_are_placed_by_their_epochs():
    # `logging_first_step`: a dict for step 1 (epoch 0.0) before those of steps 10, 20, ...;
    # by their order the k-th dict was step 10k, one interval early from the second on
    rows, notes = trainer_rows("hf-trainer_logging-first-step.log")
    steps = rows.get_column("iteration").to_list()
    assert steps[:6] == [1, 10, 20, 30, 40, 50], notes
    assert rows.filter(rows["iteration"] == 50).item(0, "loss") == pytest.approx(4.8236)
