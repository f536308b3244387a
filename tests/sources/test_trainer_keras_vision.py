"""Keras's and Ultralytics' own readers, and the generic reader on the vision toolkits, on
real output (tests/data/trainer, SOURCES.md: the fourth blind set)."""

from __future__ import annotations

from datetime import UTC, datetime

import polars as pl
import pytest

from conftest import TRAINER_DATA, trainer_rows
from incidentbook.sources.trainer.read import formats_of

DATA = TRAINER_DATA
START = datetime(2025, 1, 1, tzinfo=UTC)

KERAS = [
    "keras2_keras-io-mnist-convnet.log",
    "keras2_tensorflow-macos-issue25.log",
    "keras2-verbose2_ttukei-twitter-lm-readme.log",
    "keras1_snippet-rnn-results.log",
    "keras3_keras-io-multiple-choice.log",
    "keras3_keras-core-built-in-methods.log",
    "keras-eta_keras-yolo3-issue299.log",
    "keras-eta_lstm-time-series-pr17.log",
]
ULTRALYTICS = ["ultralytics-yolov8_issue7653.log", "ultralytics-yolov5_issue11490.log"]
GENERIC = [
    "timm_optimum-habana-readme.log",
    "timm-style_general-backbone-readme.log",
    "mmdet-v1_issue2672.log",
    "mmengine_yolo-world-issue190.log",
    "detectron2_issue195.log",
    "detectron2_issue3363.log",
    "fairseq_issue514.log",
    "paddleseg_pr792.log",
]


def rows(name: str) -> tuple[pl.DataFrame, str]:
    return trainer_rows(name, start=START)


@pytest.mark.parametrize(
    ("name", "fmt"),
    [(n, "keras") for n in KERAS]
    + [(n, "ultralytics") for n in ULTRALYTICS]
    + [(n, "generic") for n in GENERIC],
)
def test_each_file_is_read_by_its_reader_with_a_loss_and_a_step_time(name, fmt):
    assert [f.name for f in formats_of(DATA / name)] == [fmt]
    got, _ = rows(name)
    assert got.height >= 3
    assert got.get_column("loss").null_count() == 0
    assert got.get_column("step_time").drop_nulls().len() >= got.height - 1
    assert got.get_column("ts").null_count() == 0  # every step dated


def test_keras_steps_count_across_epochs_and_val_loss_is_not_the_loss():
    got, notes = rows("keras2_keras-io-mnist-convnet.log")
    first = got.row(0, named=True)
    # `422/422 [===] - 13s 29ms/step - loss: 0.7840 - ... - val_loss: 0.0780`
    assert (first["iteration"], first["loss"], first["step_time"]) == (422, 0.784, 0.029)
    assert got.get_column("iteration").head(3).to_list() == [422, 844, 1266]
    assert got.get_column("ts").is_sorted() and "restart" not in notes


def test_keras_between_tensorflows_timestamped_lines():
    got, notes = rows("keras2_tensorflow-macos-issue25.log")
    # `469/Unknown` is epoch 1 before Keras knew its length: the epoch's end stands for it
    assert got.get_column("iteration").to_list() == [469, 937, 938]
    # `468/469 - ETA: 0s`: under a second left, rounded; no time per step in it
    assert got.get_column("step_time").to_list() == [0.14, None, 0.145]
    # dated after TensorFlow's own line of 16:43:00, by the step times
    assert got.item(0, "ts") > datetime(2020, 11, 27, 16, 43, tzinfo=UTC)
    assert "restart" not in notes


def test_keras_3_bar_microseconds_and_evaluate_is_not_a_step():
    got, notes = rows("keras3_keras-core-built-in-methods.log")
    assert "restart" not in notes
    assert got.get_column("iteration").to_list() == [782, 1564, 2346]
    assert got.item(0, "step_time") == pytest.approx(706e-6)
    got, _ = rows("keras3_keras-io-multiple-choice.log")
    assert got.item(0, "step_time") == 25.0 and got.item(0, "learning_rate") == 1e-6


def test_keras_bar_updates_take_the_time_left_over_the_steps_left():
    got, _ = rows("keras-eta_keras-yolo3-issue299.log")
    # ` 42/110 [==========>...] - ETA: 1:12 - loss: 6105.9018`: 72 s over 68 steps
    assert got.item(0, "iteration") == 42 and got.item(0, "loss") == 6105.9018
    assert got.item(0, "step_time") == pytest.approx(72 / 68)
    assert got.get_column("iteration").to_list() == list(range(42, 52))


def test_keras_counting_samples_and_keras_1_one_line_per_epoch():
    _, notes = rows("keras-eta_lstm-time-series-pr17.log")
    assert "Keras counts samples here" in notes
    got, notes = rows("keras1_snippet-rnn-results.log")
    assert "each step is an epoch" in notes
    assert got.get_column("iteration").head(6).to_list() == [1, 2, 3, 4, 5, 6]
    # epoch 6 took 4977 s among 72-89 s ones: the stall shows as its step time
    assert got.filter(pl.col("iteration") == 6).item(0, "step_time") == 4977.0
    assert got.get_column("step_time").median() < 100


def test_ultralytics_loss_is_the_sum_of_its_parts_and_validation_rows_are_no_steps():
    got, _ = rows("ultralytics-yolov8_issue7653.log")
    # `44/1000  6.73G  1.145  0.5266  1.11  6  640: 100%|...| 16/16 [00:06<00:00, 2.65it/s]`
    first = got.row(0, named=True)
    assert first["iteration"] == 44 * 16 + 16
    assert first["loss"] == pytest.approx(1.145 + 0.5266 + 1.11)
    assert first["step_time"] == pytest.approx(1 / 2.65)
    assert got.height == 3  # the `Class ...` and `all ...` rows are validation
    got, _ = rows("ultralytics-yolov5_issue11490.log")
    # YOLOv5's `obj_loss` too, `1.80s/it`, a libpng warning glued after the bar
    assert got.get_column("iteration").to_list() == [48, 52, 185]
    assert got.item(0, "step_time") == 1.8
    assert got.item(0, "loss") == pytest.approx(0.1087 + 0.02937 + 0.07594)


def test_vision_toolkits_through_the_generic_reader():
    got, _ = rows("timm-style_general-backbone-readme.log")
    # timm's counter starts again each epoch (`Train: 1 [   0/33`); `Test:` lines are no steps
    assert got.get_column("iteration").to_list() == [0, 32, 33, 65]
    got, _ = rows("paddleseg_pr792.log")
    assert got.item(0, "step_time") == 0.8913 and got.item(0, "loss") == 2.8735
    got, _ = rows("detectron2_issue195.log")
    assert got.item(0, "iteration") == 1259 and got.item(0, "step_time") == 0.3322
