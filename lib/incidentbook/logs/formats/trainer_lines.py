"""The shapes of a training job's output lines, as regexes (Rust syntax, named groups), in
one place: the log readers use them to read the lines as log messages (time, rank, host,
level), and a metrics source can use the same ones to take numbers out of them.

Each pattern matches at the start of a line's body, after any launcher prefix (LAUNCHER),
and stops before the message (no trailing `.*`). The iteration lines' `fields` group is
the rest of the line: `key: value | key: value | ...` (ITERATION_FIELD reads one pair).
"""

from __future__ import annotations

# --- launchers: who printed the line ----------------------------------------------------

# mpirun --tag-output `[1,3]<stdout>:` (with --timestamp-output a ctime stamp before it),
# PRRTE/Open MPI 5 --output tag `[prterun-host-123@1,3]<stdout>:`, Open MPI's own messages
# `[host:pid] `, srun --label `12: ` (padded to the widest task id), Cray/HPE PALS
# mpiexec --label `host 12: `, `[12] `, and pdsh's `host: ` (DeepSpeed's multi-node
# runner; a lower-case host with a dash, so that `ERROR:` or
# `torch.distributed.DistBackendError:` is not taken for one); then torchrun's
# `[default3]:` (role and local rank) and PyTorch's `[rank3]:` (global rank), alone or
# after the others. Ray tags what its workers print with the actor and process
# (`(RayTrainWorker pid=7315) `, `(MegatronPolicyWorker[rank=8] pid=3294808,
# ip=10.109.19.209) `: the node's address when not the driver's own) and its node
# manager's with `(raylet) `; SkyPilot tags each node's (`(head, rank=0, pid=5634) `,
# `(worker1, rank=1, pid=...) `) and then the node and its process (`[host:3]:`).
OUTER_TAGS: dict[str, str] = {
    "mpirun": r"(?P<mpi_ts>[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})?"
    r"\[(?P<mpi_job>\d+),(?P<mpi_rank>\d+)\]<(?:stdout|stderr|stddiag)>: ?",
    "prte": r"\[(?P<prte_ns>[^\]\s@]+)@(?P<prte_job>\d+),(?P<prte_rank>\d+)\]"
    r"<(?:stdout|stderr)>: ?",
    "pals": r"(?P<pals_host>[A-Za-z][\w-]*(?:\.[\w-]+)*\d[\w.-]*) (?P<pals_rank>\d{1,6}): ",
    "bracket": r"\[(?P<bracket_rank>\d{1,6})\] ",
    "ompi": r"\[(?P<ompi_host>[\w.-]+):(?P<ompi_pid>\d+)\] ",
    "ray": r"\((?:[^()\s]*?(?:\[rank=(?P<ray_rank>\d+)\])? )?pid=(?P<ray_pid>\d+)"
    r"(?:, ip=(?P<ray_ip>[^)\s]+))?\) ",
    "raylet": r"\((?P<raylet>raylet)(?:, ip=(?P<raylet_ip>[^)\s]+))?\) ",
    "skypilot": r"\((?:head|worker\d*), rank=(?P<sky_rank>\d+), pid=\d+\) ",
    "srun": r" *(?P<srun_rank>\d{1,6}): ",
    "pdsh": r"(?P<pdsh_host>[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:\.[a-z0-9-]+)*): ",
}
"""The tags a launcher puts first, by launcher (see LAUNCHER), in the order tried."""

INNER_TAGS: dict[str, str] = {
    "rank": r"\[rank(?P<rank>\d+)\]: ?",
    # (NeMo-Run puts the job's name and node first: `job/0 [default3]:`)
    # (and `[trainer0|0]:`, a role's replica and its rank, as torchtune's recipes print)
    "torchrun": r"(?:[\w.-]+/\d+ )?"
    r" *\[(?P<role>[a-z_]+?)(?P<local_rank>\d+)(?:\|\d+)?\]:(?:\[rank(?P<rank2>\d+)\]: ?)?",
    "skypilot-process": r"\[(?P<tag_host>[a-z][\w.-]*):(?P<tag_rank>\d+)\]:",
}
"""The tags that come alone or after an outer one: torchrun's and PyTorch's, SkyPilot's."""

TAG_FAMILY: dict[str, str] = {
    "mpi_rank": "mpirun",
    "prte_rank": "prte",
    "pals_rank": "pals",
    "bracket_rank": "bracket",
    "ompi_pid": "ompi",
    "ray_pid": "ray",
    "raylet": "raylet",
    "sky_rank": "skypilot",
    "srun_rank": "srun",
    "pdsh_host": "pdsh",
    "rank": "rank",
    "local_rank": "torchrun",
    "tag_rank": "skypilot-process",
}
"""A group each family's tag always fills: which launcher tagged a line."""

RANK_GROUPS = (
    "rank",
    "rank2",
    "mpi_rank",
    "prte_rank",
    "srun_rank",
    "pals_rank",
    "bracket_rank",
    "ray_rank",
    "sky_rank",
)
"""The groups that hold a line's global rank, the most telling first (torchrun's own
`[default3]:` is a local rank: `local_rank`)."""

HOST_GROUPS = ("pals_host", "pdsh_host", "ompi_host", "tag_host", "ray_ip", "raylet_ip")
"""The groups that name the line's host (or its address)."""


def launcher(families: tuple[str, ...] | None = None) -> str:
    """The launcher prefix as one optional regex: an outer tag, then an inner one, each
    of `families` (None: all of them)."""

    def alternatives(tags: dict[str, str]) -> str:
        chosen = [p for f, p in tags.items() if families is None or f in families]
        return "(?:" + "|".join(chosen) + ")?" if chosen else ""

    return alternatives(OUTER_TAGS) + alternatives(INNER_TAGS)


LAUNCHER = launcher()


# --- iteration lines --------------------------------------------------------------------

# Megatron-LM / Megatron-DeepSpeed `training_log`: ` [2024-01-01 12:00:00] iteration
# 100/ 1000 | consumed samples: ... | lm loss: 2.3E+00 |` (the bracketed time only in
# newer Megatron-LM).
MEGATRON_ITERATION_HEAD = (
    r"\s*(?:\[(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\] )?"
    r"(?P<head>iteration\s+(?P<iteration>\d+)\s*/\s*(?P<train_iters>\d+) \|)"
)
MEGATRON_ITERATION = MEGATRON_ITERATION_HEAD + r"(?P<fields>.*)"

# nanotron's logger: `01/17/2024 14:02:16 [INFO|DP=0|PP=0|TP=0|host]: iteration: 991 / 1000
# | consumed_tokens: 634K | ...`.
NANOTRON_ITERATION = r"iteration: (?P<iteration>\d+) / (?P<train_iters>\d+) \|(?P<fields>.*)"

# DeepSpeed's engine, through its logger: `[Rank 0] step=10, skipped=0, lr=[...], mom=[...]`.
DEEPSPEED_STEP = r"(?:\[Rank (?P<rank>\d+)\] )?step=(?P<step>\d+), skipped=(?P<skipped>\d+)"

ITERATION_FIELD = r"\s*(?P<key>[^|:]+?)\s*:\s*(?P<value>[^|]*?)\s*(?:\||$)"
"""One `key: value |` pair of an iteration line's fields."""

# --- loggers ------------------------------------------------------------------------------

NANOTRON = (
    r"(?P<ts>\d\d/\d\d/\d{4} \d\d:\d\d:\d\d) \[(?P<level>[A-Z]+)(?P<fields>(?:\|[^|\]]*)*)\]: ?"
)

# glog (PyTorch's C++ core, TensorFlow, Go's klog): `E1017 16:31:56.123456  1234 file.cc:12]`,
# `[E1017 16:31:56.123456789 ProcessGroupNCCL.cpp:1484]` (PyTorch >= 2.2), and without a
# date `[E ProcessGroupNCCL.cpp:737]` or `F tensorflow/.../statusor.cc:34]`.
GLOG = (
    r"\[?(?P<level>[IWEF])(?:(?P<mmdd>\d{3,4}) (?P<time>\d\d:\d\d:\d\d\.\d+))? +"
    r"(?:(?P<tid>\d+) +)?(?P<src>[^\s\]]+:\d+)\] ?"
)

# NCCL: `host:pid:tid [dev] NCCL INFO msg`, `host:pid:tid [dev] file.cc:123 NCCL WARN msg`.
# The message keeps `NCCL WARN` and the source location: signatures read them.
NCCL = (
    r"(?P<host>[^\s:\[\]]+):(?P<pid>\d+):(?P<tid>\d+) \[(?P<dev>[^\]]*)\] "
    r"(?P<tail>(?:(?P<src>\S+:\d+) )?NCCL (?P<level>INFO|WARN|ERROR|ABORT|TRACE)\b ?)"
)

# UCX's own log lines (UCX_LOG_LEVEL): `[1579244748.838971] [cgpu12:56309:2]
# cuda_ipc_md.c:62   UCX  ERROR msg`, epoch seconds, then host, pid and thread. The message
# keeps `file:line UCX LEVEL`: signatures read them.
UCX = (
    r"\[(?P<epoch>1\d{9}\.\d{1,9})\] +\[(?P<host>[^\s:\[\]]+):(?P<pid>\d+):\d+\] +"
    r"(?P<tail>(?P<src>[\w.-]+:\d+) +UCX +(?P<level>[A-Z]+)\b +)"
)

# Python logging with a bracketed time: DeepSpeed's `[2021-08-12 08:19:28,225] [INFO]
# [checkpointing.py:226:fn] `, torch.distributed.elastic's `[2024-03-18 17:38:50,208]
# torch.distributed.elastic.multiprocessing.api: [ERROR] `.
# (The logger's name and the level stay in the message: signatures read them.)
BRACKETED_LOGGING = (
    r"\[(?P<ts>\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[,.]\d{1,6})?)\] "
    r"(?P<tail>(?:(?P<logger>[\w.]+): )?\[(?P<level>[A-Z]+)\] ?(?:\[(?P<where>[^\]]*)\] )?)"
)

# logging.basicConfig's usual formats: `2022-07-22 06:26:03,194 - mmseg - INFO - `,
# `2024-01-01 12:00:00,123 INFO name: `, and OpenCLIP's and timm's `2023-04-21,12:03:13 |
# INFO | ` (a comma between date and time).
ASCTIME_LOGGING = (
    r"(?P<ts>\d{4}-\d\d-\d\d[ T,]\d\d:\d\d:\d\d(?:[,.]\d{1,6})?)"
    r"(?: - (?P<tail>(?P<logger>[\w.-]+) - (?P<level>[A-Z]+) - )"
    r"| (?P<tail2>(?P<level2>DEBUG|INFO|WARNING|ERROR|CRITICAL|FATAL) (?:(?P<logger2>[\w.-]+): )?)"
    r"| \| (?P<tail3>(?P<level3>DEBUG|INFO|WARNING|ERROR|CRITICAL|FATAL) +\| ))"
)

# loguru's default: `2024-01-01 12:00:00.123 | INFO     | module:function:42 - `.
LOGURU = (
    r"(?P<ts>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \| (?P<level>[A-Z]+) *\| "
    r"(?P<where>\S+) - "
)

# Python logging's default format, which has no time: `ERROR:torch.distributed...:msg`,
# `INFO:root:msg` (and the bare `ERROR: msg` some C++ extensions print).
DEFAULT_LOGGING = (
    r"(?P<tail>(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL):(?:(?P<logger>[\w.-]+):| ))"
)

# rich's console handler: `[15:58:29] WARNING  msg` (a time of day, no date).
RICH_LOGGING = r"\[(?P<hms>\d\d:\d\d:\d\d)\] (?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL) +"

# Lines with no time that belong to a trainer's output: tracebacks, C++ aborts, Python
# exceptions, Megatron's validation and checkpoint lines.
UNTIMED = (
    # a launcher's tag alone says the line is a job's output
    r"\[rank\d+\]:",
    r"\((?:[^()\s]+ )?pid=\d+(?:, ip=[^)\s]+)?\) ",
    r"\(raylet(?:, ip=[^)\s]+)?\) ",
    r" *\[[a-z_]+?\d+\]:",
    r"(?:[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})?"
    r"\[\d+,\d+\]<std(?:out|err|diag)>:",
    r"\[[^\]\s@]+@\d+,\d+\]<std(?:out|err)>:",
    r"[A-Za-z][\w-]*(?:\.[\w-]+)*\d[\w.-]* \d{1,6}: ",
    # srun --label's task id (right-aligned to the widest), then whatever the task printed,
    # indented too (a backtrace's frames: `0:     3  /usr/lib/libucp.so.0(...)`)
    r" *\d{1,6}: +\S",
    r"\[Rank \d+\] ",
    r"\[[\w.-]+:\d+\] ",
    r"Traceback \(most recent call last\):",
    r"  File \"",
    r"[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failure|Warning)(?::|$)",
    r"terminate called ",
    r"  what\(\): ",
    # c10::Error's C++ stack after an abort
    r"Exception raised from \S+ at ",
    r"frame #\d+: ",
    # iteration lines of trainers with a format of their own (nanoGPT, HuggingFace m4)
    r"\s*iter(?:ation)?:?\s+\d+\s*/\s*\d+",
    r"iter \d+: ",
    r"\s*(?:validation|valid) loss at iteration",
    r"\s*successfully saved checkpoint at iteration",
)
