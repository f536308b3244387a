"""The run's stops told apart by the logs: asked for (a planned restart) or failed."""

from datetime import timedelta

import numpy as np
from incidents import T0, samples, write_incident

from incidentbook.investigation import investigate

# Slurm's words when a step is cancelled (scancel), as slurmstepd logs them; with a reason
# when Slurm itself ended it.
CANCELLED = "slurmstepd: error: *** STEP 51207.0 ON h0 CANCELLED AT {at:%Y-%m-%dT%H:%M:%S} ***"
NODE_FAILURE = (
    "slurmstepd: error: *** STEP 51207.0 ON h0 CANCELLED AT {at:%Y-%m-%dT%H:%M:%S} "
    "DUE TO NODE FAILURE ***"
)
# PyTorch's NCCL watchdog and srun ending the step, printed with no time
WATCHDOG = (
    "[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=48131, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
    "Timeout(ms)=600000) ran for 600024 milliseconds before timing out."
)
ABORTED = "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."
# what a CUDA fault looks like in a PyTorch trainer's output
CUDA_ERROR = "RuntimeError: CUDA error: an illegal memory access was encountered"
# PyTorch's torch.save on a full filesystem (a blind folder's, from pytorch/pytorch#104398)
ENOSPC = (
    "RuntimeError: [enforce fail at inline_container.cc:626] . unexpected pos 4106752 vs 4106644"
)
NO_SPACE = "OSError: [Errno 28] No space left on device"


def _run(
    tmp_path,
    stop_at: int,
    *,
    said: list[tuple[int, str]],
    down_min: float = 7,
    dip: tuple[int, int] | None = None,
):
    """A four-hour run logging every 30 s, stopped after line `stop_at` for `down_min`
    minutes (back from its last checkpoint), with `said` (seconds after the last line
    before the stop, or None for a line with no time, and a line) in its output; `dip`
    slows lines [a, b) to a third."""
    rng = np.random.default_rng(3)
    lines, at, it = [], T0, 0
    for k in range(480):  # to the end of the window and past it: no stall at the end
        if k == stop_at:
            last = at
            for seconds, text in said:
                when = last + timedelta(seconds=seconds or 0)
                lines.append(text if seconds is None else f"[{when:%Y-%m-%d %H:%M:%S}] {text}")
            at += timedelta(minutes=down_min)
            it -= 20
        at += timedelta(seconds=30)
        slow = dip is not None and dip[0] <= k < dip[1]
        it += 3 if slow else 10
        ms = (9000 if slow else 3000) + rng.normal(0, 10)
        lines.append(
            f"[{at:%Y-%m-%d %H:%M:%S}] iteration {it:8d}/  100000 | consumed samples: "
            f"{512 * it:12d} | elapsed time per iteration (ms): {ms:.1f} | global batch "
            "size:   512 | lm loss: 2.000000E+00 | loss scale: 1.0 |"
        )
    n = 4 * 120
    power = [
        samples("DCGM_FI_DEV_POWER_USAGE", 600 + rng.normal(0, 3, n), f"h{h}", gpu="0")
        for h in range(4)
    ]
    root = write_incident(tmp_path / "inc", power, hours=4, nodes=4)
    (root / "logs").mkdir()
    (root / "logs" / "slurm-51207.out").write_text("\n".join(lines) + "\n")
    return investigate(root)


def test_a_stop_its_owner_asked_for_is_a_planned_restart_not_an_incident(tmp_path):
    # A blind folder: the team cancelled the run 8 s after a line to restart it with a
    # larger batch. With no slowdown, its 7 min stop was the symptom and Slurm's
    # cancellation the cause (confidence 0.35).
    inv = _run(
        tmp_path, 300, said=[(8, CANCELLED.format(at=T0 + timedelta(minutes=150, seconds=8)))]
    )
    v = inv.verdict
    assert v.cause is None, v.summary
    assert v.summary.startswith("Nothing to explain") and "planned restart" in v.summary
    assert any("asked to stop" in n and "CANCELLED AT" in n for n in inv.notes)


def test_a_stop_is_no_plan_when_something_failed_before_the_request(tmp_path):
    cancel = CANCELLED.format(at=T0 + timedelta(minutes=150, seconds=20))
    failed = _run(tmp_path / "a", 300, said=[(5, CUDA_ERROR), (20, cancel)])
    assert not failed.verdict.summary.startswith("Nothing to explain"), failed.verdict.summary
    # nor when the request came long after the run stopped making progress: an operator
    # cancelling a hung job
    late = CANCELLED.format(at=T0 + timedelta(minutes=150 + 12))
    hung = _run(tmp_path / "b", 300, said=[(12 * 60, late)], down_min=20)
    assert not hung.verdict.summary.startswith("Nothing to explain"), hung.verdict.summary
    # nor when the errors and the request carry no time of their own (so they share the
    # last progress line's): their order in the file tells (a blind folder's Slurm output)
    untimed = _run(tmp_path / "d", 300, said=[(None, WATCHDOG), (None, ABORTED)], down_min=30)
    assert not untimed.verdict.summary.startswith("Nothing to explain"), untimed.verdict.summary
    # nor when Slurm says why it cancelled it
    node = NODE_FAILURE.format(at=T0 + timedelta(minutes=150, seconds=8))
    slurm = _run(tmp_path / "c", 300, said=[(8, node)])
    assert not slurm.verdict.summary.startswith("Nothing to explain"), slurm.verdict.summary


def test_a_crash_that_cost_more_than_the_dip_before_it_joins_the_symptom(tmp_path):
    # A blind folder: the checkpoints' filesystem filled, a save failed with ENOSPC and
    # the job was down 44 min; the verdict was about a 100 s dip half an hour before.
    crash = _run(
        tmp_path / "a", 300, said=[(4, NO_SPACE), (5, ENOSPC)], down_min=40, dip=(240, 243)
    )
    summary = crash.verdict.summary
    assert "fell 100% from 2025-03-14 10:30 UTC for 40 min" in summary, summary
    assert crash.verdict.cause == "storage-write-failure"
    assert any("down 40 min after a failure" in n for n in crash.notes), crash.notes
    # a short stop beside a long slowdown leaves the slowdown the symptom alone
    short = _run(tmp_path / "b", 300, said=[(4, NO_SPACE)], down_min=2, dip=(150, 260))
    assert "for 2 min" not in short.verdict.summary, short.verdict.summary
    assert not any("after a failure" in n for n in short.notes)
