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
# a kubelet's eviction for disk pressure, a Warning event as an event exporter writes it
# (the message from GoogleCloudPlatform/ml-auto-solutions#297), then torch elastic's agent
# told to stop by it
# a kubelet reclaiming disk by evicting pods, as its journal says it (klog's I level; the
# line from a blind folder's kubelet journal, after the post "How Kubelet Garbage Collection
# Fails"), then torch elastic's agent told to stop by the eviction
RECLAIM = (
    "{at:%Y-%m-%dT%H:%M:%S}+0000 h0 kubelet[2585]: I{at:%m%d %H:%M:%S}.409978    2585 "
    'eviction_manager.go:339] "Eviction manager: attempting to reclaim" '
    'resourceName="ephemeral-storage"'
)
STARTED = "{at:%Y-%m-%dT%H:%M:%S}+0000 h0 systemd[1]: Started kubelet: The Kubernetes Node Agent."
SIGTERM = (
    "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, "
    "shutting down workers"
)
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
    files: dict[str, str] | None = None,
    output: str = "slurm-51207.out",
):
    """A four-hour run logging every 30 s, stopped after line `stop_at` for `down_min`
    minutes (back from its last checkpoint), with `said` (seconds after the last line
    before the stop, or None for a line with no time, and a line) in its output; `dip`
    slows lines [a, b) to a third; `files`, more logs by their path under logs/; `output`,
    where the run's own output is."""
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
    (root / "logs" / output).parent.mkdir(parents=True, exist_ok=True)
    (root / "logs" / output).write_text("\n".join(lines) + "\n")
    for name, text in (files or {}).items():
        (root / "logs" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "logs" / name).write_text(text)
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

    # nor when the stop signal follows a warning: a kubelet evicting the pod is no request
    journal = "\n".join(
        [
            STARTED.format(at=T0 + timedelta(minutes=1)),
            RECLAIM.format(at=T0 + timedelta(minutes=150, seconds=4)),
        ]
    )
    evicted = _run(
        tmp_path / "e", 300, said=[(5, SIGTERM)], down_min=12, files={"h0/journal.log": journal}
    )
    assert not evicted.verdict.summary.startswith("Nothing to explain"), evicted.verdict.summary
    # the stop signal alone is a request
    asked = _run(tmp_path / "f", 300, said=[(5, SIGTERM)])
    assert asked.verdict.summary.startswith("Nothing to explain"), asked.verdict.summary
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


def test_the_trainers_log_is_no_host_beside_the_hosts_own_logs(tmp_path):
    # A blind folder on Kubernetes: the trainer's gauges read from its pod's log carried
    # the log's place (logs/pods/...), which made "pods" one of the metrics' hosts, so the
    # job's crash lines in it were named "on pods (1 of 25 hosts)", not the whole job's.
    journal = STARTED.format(at=T0 + timedelta(minutes=1))
    inv = _run(
        tmp_path,
        300,
        said=[(5, SIGTERM)],
        files={"h0/journal.log": journal},
        output="pods/trainer-0/main/0.log",
    )
    assert "pods" in inv.metrics.frame.get_column("node").to_list()
    assert inv._not_hosts() == frozenset({"pods"})
