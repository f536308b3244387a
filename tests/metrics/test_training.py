"""Training-health findings on the events the BigScience chronicles recorded, and on the
benign look-alikes every run's log shows (tests/data/trainer, see SOURCES.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from incidents import STEP, T0, samples, write_incident

from conftest import REPO
from incidentbook.incident import TrainerSpec
from incidentbook.investigation import investigate
from incidentbook.metrics.analysis import analyze
from incidentbook.metrics.signals import load_pack
from incidentbook.metrics.training import training_findings
from incidentbook.sources.trainer import TrainerLogSource
from incidentbook.window import TimeWindow

DATA = REPO / "tests" / "data" / "trainer"
PACK = load_pack()
START = datetime(2025, 1, 1, tzinfo=UTC)


def findings(name: str, window: TimeWindow | None = None, **trainer):
    trainer.setdefault("start", START)
    source = TrainerLogSource([DATA / name], trainer=TrainerSpec(**trainer))
    everything = TimeWindow(
        start=datetime(2000, 1, 1, tzinfo=UTC), end=datetime(2030, 1, 1, tzinfo=UTC)
    )
    rows, _ = source.rows(everything)
    if window is None:
        lo, hi = rows.get_column("ts").min(), rows.get_column("ts").max()
        window = TimeWindow(start=lo - timedelta(seconds=1), end=hi + timedelta(seconds=1))
    metrics = TrainerLogSource([DATA / name], trainer=TrainerSpec(**trainer)).metrics(
        window, list(PACK.signals.values())
    )
    return training_findings(metrics.frame, PACK.signals, window), metrics


def kinds(found) -> list[str]:
    return [f.kind for f in found]


def test_bloom_loss_spike_with_its_grad_norm_explosion_and_recovery():
    found, _ = findings("bloom_tr11_loss_spike.log")
    assert sorted(kinds(found)) == ["grad_norm_spike", "loss_spike"]
    loss = next(f for f in found if f.kind == "loss_spike")
    assert loss.value == pytest.approx(5.098, abs=0.01)
    assert loss.baseline == pytest.approx(2.24, abs=0.05)
    assert "iteration 31219" in loss.summary and "back near it" in loss.summary
    norm = next(f for f in found if f.kind == "grad_norm_spike")
    assert norm.value == pytest.approx(960.351)


def test_grad_norm_explosion_leads_the_loss_spike():
    found, _ = findings("tr8_exp11_gradnorm_spike.log")
    norm = next(f for f in found if f.kind == "grad_norm_spike")
    loss = next(f for f in found if f.kind == "loss_spike")
    assert norm.start < loss.start
    assert norm.magnitude + 1 == pytest.approx(262623.331 / 12952.562, rel=1e-3)


def test_fp16_loss_scale_collapse_skipped_burst_and_spike():
    found, _ = findings("tr8b_overflow_lossscale_collapse.log")
    assert sorted(kinds(found)) == ["loss_scale_collapse", "loss_spike", "skipped_iterations"]
    collapse = next(f for f in found if f.kind == "loss_scale_collapse")
    assert collapse.baseline == 1048576.0 and collapse.value == 32768.0
    skipped = next(f for f in found if f.kind == "skipped_iterations")
    assert skipped.value == 6  # six OVERFLOW lines, though Megatron's own count says 0


def test_loss_scale_drop_with_a_loss_spike():
    found, _ = findings("tr1_loss_spike_lossscale_drop.log")
    assert sorted(kinds(found)) == ["loss_scale_collapse", "loss_spike"]


def test_a_vanished_loss_is_a_nan_iteration():
    found, _ = findings("tr8_exp12_divergence.log")
    assert kinds(found) == ["nan_iterations"]
    assert "iteration 9027" in found[0].summary


def test_resumes_from_one_checkpoint_are_restarts():
    found, _ = findings("bloom_tr11_reshaping_restarts.md.txt")
    restarts = [f for f in found if f.kind == "restart"]
    assert len(restarts) == 6  # seven runs from global_step94767
    assert {f.value for f in restarts} == {94768.0}


def test_a_log_that_stops_inside_the_window_is_a_stall():
    window = TimeWindow(
        start=datetime(2025, 10, 17, 16, 30, tzinfo=UTC),
        end=datetime(2025, 10, 17, 17, 30, tzinfo=UTC),
    )
    found, _ = findings("nanotron_issue390.log", window)
    assert kinds(found) == ["stall"]
    assert found[0].start == datetime(2025, 10, 17, 16, 32, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "name",
    [
        "torchtitan_qwen3_10steps_ansi.log",  # compile step, loss jump at step 3 of 10
        "megatron_lm_2021_n8.log",  # the fp16 scaler's search: 19 skipped, scale 2^23 -> 2^14
        "nanotron_tiny_llama_head.log",  # a slow first iteration
        "deepspeed_chat_sft_head.log",  # an overflow burst in the first ten steps
        "bloom_tr11_throughput_drop_wrapped.log",  # slower, but healthy
        "hf_trainer_qwen_excerpt.log",
    ],
)
def test_benign_look_alikes_are_not_findings(name):
    found, _ = findings(name)
    assert found == []


def test_analyze_reports_them_beside_the_other_findings():
    _found, metrics = findings("bloom_tr11_loss_spike.log")
    signals = {s.name: s for s in PACK.signals.values()}
    result = analyze(metrics, signals, "throughput")
    assert {f.kind for f in result.findings} >= {"loss_spike", "grad_norm_spike"}
    # health signals are not run through the generic detectors, nor ranked as causes
    assert not [f for f in result.findings if f.signal == "loss" and f.kind in {"spike", "trend"}]
    assert all(c.signal not in {"loss", "grad_norm"} for c in result.correlations)


def _iteration_findings(tmp_path, values: list[float]) -> list:
    """What analyze says of a trainer's iteration gauge scraped from its exporter (a
    metrics file, every 30 s), in a folder with no trainer log."""
    root = write_incident(
        tmp_path,
        [
            samples("trainer_tokens_per_second", [1000.0] * len(values)),
            samples("trainer_iteration", values),
        ],
        hours=len(values) * STEP.total_seconds() / 3600,
        baseline_hours=None,
    )
    return [f for f in investigate(root).findings if f.signal == "iteration"]


def test_a_scraped_iteration_gauge_read_twice_between_updates_is_no_restart(tmp_path):
    # The trainer updates its counter every 10 iterations (45 s), the exporter is scraped
    # every 30 s: one value in three repeats (a blind incident folder showed 136 restarts).
    values = [62700.0 + 10 * (i * 30 // 45) for i in range(120)]
    assert [f.kind for f in _iteration_findings(tmp_path, values)] == []


def test_a_scraped_iteration_gauge_going_back_is_a_restart(tmp_path):
    values = [62700.0 + 10 * (i * 30 // 45) for i in range(120)]
    values[60:] = [v - 400 for v in values[60:]]  # resumed from an older checkpoint
    found = _iteration_findings(tmp_path, values)
    assert [f.kind for f in found] == ["restart"]
    assert found[0].start == T0 + STEP * 59
