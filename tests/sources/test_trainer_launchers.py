"""A trainer's log read through a launcher's tags: the same steps and numbers whatever
launcher ran the job, and the tag's rank, host and time kept.

The logs are real (tests/data/trainer, one per reader); the tags are put in front of
every line as each launcher prints them (their shapes from the launchers' own output:
logs.formats.trainer_lines).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from conftest import TRAINER_DATA
from incidentbook.incident import TrainerSpec
from incidentbook.sources.trainer import TrainerLogSource
from incidentbook.sources.trainer.base import launcher_families
from incidentbook.window import TimeWindow

EVERY = TimeWindow(start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC))

TAGS = {
    "torchrun": "[default3]:",
    "pytorch": "[rank3]:",
    "srun --label": "  3: ",
    "mpirun --tag-output": "[1,3]<stdout>:",
    "prterun": "[prterun-node7-4242@1,3]<stdout>:",
    "ray": "(RayTrainWorker pid=7315) ",
    "skypilot": "(worker1, rank=3, pid=5634) ",
    "pals mpiexec --label": "x3006c0s13b0n0 3: ",
    "pdsh (deepspeed)": "worker-3: ",
    "nemo-run": "pretrain/0 [default3]:",
}

# One real log per reader that has its own way of finding steps (untagged in the file).
LOGS = [
    "keras2_keras-io-mnist-convnet.log",  # keras: epoch and progress lines
    "ultralytics-yolov8_issue7653.log",  # ultralytics
    "olmo_ai-on-aks.log",  # generic: a block per step, indented fields
    "nanogpt_issue110-8xA100.log",  # generic: `iter N: loss X, time Yms`
    "fairseq_issue514.log",  # generic: epochs and num_updates
    "megatron_lm_2024-09_timestamped.log",  # megatron
    "nanotron_tiny_llama_head.log",  # nanotron
    "hf_trainer_qwen_excerpt.log",  # transformers' Trainer
    "torchtune_nebius-cookbook-tqdm.log",  # a tqdm bar with the loss in its words
    "litgpt_0-to-litgpt-tutorial.log",
]


def _rows(path: Path) -> pl.DataFrame:
    source = TrainerLogSource([path], trainer=TrainerSpec(start=datetime(2025, 1, 1, tzinfo=UTC)))
    got, _notes = source.rows(EVERY)
    return got.filter(pl.col("iteration").is_not_null())


def _tagged(name: str, tag: str, tmp_path: Path) -> Path:
    text = (TRAINER_DATA / name).read_text(encoding="utf-8")
    out = tmp_path / name
    out.write_text("".join(tag + line for line in text.splitlines(keepends=True)), "utf-8")
    return out


@pytest.mark.parametrize("name", LOGS)
def test_every_launchers_tags_leave_the_steps_as_they_are(name, tmp_path):
    plain = _rows(TRAINER_DATA / name)
    assert plain.height >= 2, f"{name} reads no steps untagged"
    columns = [c for c in ("iteration", "loss", "step_time") if plain[c].is_not_null().any()]
    for launcher, tag in TAGS.items():
        got = _rows(_tagged(name, tag, tmp_path))
        assert got.select(columns).equals(plain.select(columns)), f"{name} under {launcher}"


@pytest.mark.parametrize(
    ("launcher", "rank", "host"),
    [
        ("torchrun", 3, None),
        ("srun --label", 3, None),
        ("mpirun --tag-output", 3, None),
        ("skypilot", 3, None),
        ("pals mpiexec --label", 3, "x3006c0s13b0n0"),
        ("pdsh (deepspeed)", None, "worker-3"),
    ],
)
def test_the_tag_gives_the_rank_and_host(launcher, rank, host, tmp_path):
    got = _rows(_tagged("nanogpt_issue110-8xA100.log", TAGS[launcher], tmp_path))
    assert got.height == 11
    assert got.get_column("rank").unique().to_list() == [rank]
    if host is not None:
        assert got.get_column("host").unique().to_list() == [host]


def test_mpirun_timestamps_date_lines_that_have_no_time(tmp_path):
    # `mpirun --timestamp-output --tag-output`: a ctime stamp, to the second, before the tag.
    # nanoGPT prints no time: the stamps date its steps. Two steps in one second have no
    # spacing to learn from (that once raised a math domain error).
    stamps = ["Mon Jan  6 12:00:00 2025", "Mon Jan  6 12:00:00 2025", "Mon Jan  6 12:00:01 2025"]
    stamps += ["Mon Jan  6 12:00:01 2025", "Mon Jan  6 12:00:02 2025"]
    lines = (TRAINER_DATA / "nanogpt_issue110-8xA100.log").read_text("utf-8").splitlines()[:5]
    path = tmp_path / "mpirun.log"
    path.write_text(
        "".join(f"{s}[1,0]<stdout>:{line}\n" for s, line in zip(stamps, lines, strict=True))
    )
    got = _rows(path)
    assert got.get_column("ts").to_list()[0] == datetime(2025, 1, 6, 12, 0, 0, tzinfo=UTC)
    assert got.get_column("ts").to_list()[-1] == datetime(2025, 1, 6, 12, 0, 2, tzinfo=UTC)
    assert got.get_column("loss").to_list()[0] == pytest.approx(4.0863)


def test_ambiguous_tags_count_only_where_many_lines_carry_them():
    # A dashed `name: ` or a bare `12: ` at a line's start may be the trainer's own words:
    # they are launchers' tags only where they start a good share of the lines.
    own_words = "step 1 loss 2.0\n" * 30 + "data-loader: 4 workers\n"
    assert launcher_families(own_words) == ()
    assert launcher_families("worker-3: step 1 loss 2.0\n" * 30) == ("pdsh",)
    # torchrun's and PyTorch's tags are never a trainer's own words: one is enough.
    assert launcher_families("step 1 loss 2.0\n" * 30 + "[rank3]: Traceback\n") == ("rank",)
