"""Never lose a person's work: runs killed at several points, a save killed mid-write,
two runs into one folder, Ctrl-C during regen. Real processes, real signals.

One chain of runs into one output folder (the `chain` fixture) serves several tests: a
full run, then runs SIGKILLed while the kernel starts, while the charts, case.json and
the report are being written, each followed by a run that must say it took over the
killed run's lock, then a run that finishes. After every kill the previous notebook,
case.json and report must be whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from incidentbook.record.store import load_record

from .build import incident
from .cases import PASSWORD, TOKENS

EXE = Path(sys.executable).with_name("incidentbook")
ENV_TOKEN = "tok-" + "9fQ2" * 8  # given to every run through the environment only
SECRETS = [ENV_TOKEN, PASSWORD, *TOKENS.values()]


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "INCIDENTBOOK_PROMETHEUS_TOKEN": ENV_TOKEN,
        "INCIDENTBOOK_PROMETHEUS_PASSWORD": PASSWORD,
        "COLUMNS": "200",
    }


class Run:
    """One `incidentbook` command in its own session, its output in files."""

    def __init__(self, args: list[str], logs: Path, name: str):
        logs.mkdir(parents=True, exist_ok=True)
        self.out_path, self.err_path = logs / f"{name}.out", logs / f"{name}.err"
        self.proc = subprocess.Popen(
            [str(EXE), *args],
            stdout=self.out_path.open("w"),
            stderr=self.err_path.open("w"),
            env=_env(),
            start_new_session=True,
            # A shell without job control starts background commands with Ctrl-C
            # ignored, and that is inherited; a terminal's foreground command has it.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )

    @property
    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace")

    def family(self) -> list[int]:
        """This process and every process below it (the kernel is in a session of its
        own, so a signal to our group does not reach it)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        found, frontier = [self.proc.pid], [self.proc.pid]
        while frontier:
            frontier = [pid for pid, ppid in parents.items() if ppid in frontier]
            found += frontier
        return found

    def kernel_started(self) -> bool:
        for pid in self.family()[1:]:
            try:
                if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return True
            except OSError:
                continue
        return False

    def kill(self) -> None:
        """SIGKILL, as the OOM killer or a lost node would: every process of the run."""
        for pid in self.family():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def wait(self, timeout: float = 300) -> int:
        return self.proc.wait(timeout=timeout)


def _until(
    condition: Callable[[], bool],
    timeout: float = 240,
    what: str = "",
    alive: subprocess.Popen | None = None,
) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if alive is not None and alive.poll() is not None:
            raise AssertionError(f"the run ended before {what}")
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.002)


def _files(out: Path) -> list[str]:
    try:
        return [e.name for e in os.scandir(out)] + [
            f"charts/{e.name}" for e in os.scandir(out / "charts")
        ]
    except FileNotFoundError:
        return []


def _writing(out: Path, name: str, since: float) -> Callable[[], bool]:
    """True once the file is being written (its temporary file is there) or was just
    replaced; the kill then lands in the write or right after it."""

    def check() -> bool:
        names = _files(out)
        if any(n.startswith(f".{Path(name).name}.") and n.endswith(".tmp") for n in names):
            return True
        try:
            return (out / name).stat().st_mtime > since
        except FileNotFoundError:
            return False

    return check


def _notebook_written(out: Path, since: float) -> Callable[[], bool]:
    """papermill writes the notebook once, at the end, to a partial file then renamed."""

    def check() -> bool:
        if (out / ".incident.partial.ipynb").exists():
            return True
        try:
            return (out / "incident.ipynb").stat().st_mtime > since
        except FileNotFoundError:
            return False

    return check


def _snapshot(out: Path) -> dict[str, bytes]:
    return {
        name: (out / name).read_bytes()
        for name in ("case.json", "report.html", "incident.ipynb")
        if (out / name).exists()
    }


def _whole(out: Path, before: dict[str, bytes]) -> list[str]:
    """What is not whole in `out`: each output must be the previous one, or a complete
    new one (a record that validates, a page that ends, a notebook that parses)."""
    faults = []
    for name, old in before.items():
        now = (out / name).read_bytes()
        if now == old:
            continue
        try:
            if name == "case.json":
                load_record(out / name)
            elif name == "report.html":
                assert now.rstrip().endswith(b"</html>")
            else:
                json.loads(now)
        except Exception as exc:  # any failure to read it back is the finding
            faults.append(f"{name}: {type(exc).__name__}: {exc}")
    for svg in (out / "charts").glob("*.svg"):
        if not svg.read_bytes().rstrip().endswith(b"</svg>"):
            faults.append(f"{svg.name} is cut short")
    return faults


TAKEN_OVER = "ended without finishing; its lock was taken over"


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("chain")
    root = incident(tmp / "incident")
    out = tmp / "out"
    logs = tmp / "logs"
    run = ["run", str(root), "--out", str(out)]
    seen: dict[str, object] = {"out": out, "root": root, "tmp": tmp}

    first = Run(run, logs, "first")
    assert first.wait() == 0, first.stderr[-3000:]
    before = _snapshot(out)
    seen["first"] = before

    points = [
        ("kernel-start", lambda since: lambda: victim.kernel_started()),
        ("writing-charts", lambda since: _writing(out, "charts/story.svg", since)),
        ("writing-case-json", lambda since: _writing(out, "case.json", since)),
        ("writing-report", lambda since: _writing(out, "report.html", since)),
        ("writing-notebook", lambda since: _notebook_written(out, since)),
    ]
    killed: list[dict] = []
    lock_left = False
    for i, (point, make) in enumerate(points):
        since = time.time()
        victim = Run(run, logs, f"kill-{point}")
        if lock_left:
            _until(lambda v=victim: TAKEN_OVER in v.stderr, what="the takeover note")
        if i == 1:
            # A second run into the same folder while this one holds it: refused.
            _until(lambda: (out / ".incidentbook.lock").exists(), what="the lock")
            rival = Run(run, logs, "rival")
            seen["rival_status"] = rival.wait(timeout=60)
            seen["rival_stderr"] = rival.stderr
            seen["holder_pid"] = victim.proc.pid
        _until(make(since), what=point, alive=victim.proc)
        noted = TAKEN_OVER in victim.stderr
        victim.kill()
        killed.append(
            {
                "point": point,
                "noted": noted,
                "expected_note": lock_left,
                "faults": _whole(out, before),
                "stderr": victim.stderr,
            }
        )
        # A kill that lands after the run let go of the folder leaves nothing to take over.
        lock_left = (out / ".incidentbook.lock").exists()
    seen["killed"] = killed
    seen["lock_left"] = lock_left

    last = Run(run, logs, "last")
    seen["last_status"] = last.wait()
    seen["last_stderr"] = last.stderr
    # A parameter holding a token: refused, and never written anywhere.
    refused = Run([*run, "-p", "note", TOKENS["github"]], logs, "refused")
    seen["refused_status"] = refused.wait(timeout=120)
    seen["refused_stderr"] = refused.stderr
    return seen


def test_sigkill_during_a_run_keeps_the_previous_outputs(chain):
    killed = chain["killed"]
    assert [k["point"] for k in killed] == [
        "kernel-start",
        "writing-charts",
        "writing-case-json",
        "writing-report",
        "writing-notebook",
    ]
    for k in killed:
        assert k["faults"] == [], (k["point"], k["faults"])
    # Every run after a killed one that still held the folder said so as it started. The
    # kernel starts ahead of the lock (it imports while the folder is claimed), so a kill
    # at its start leaves no lock; the kills in the writes land inside the run, so at
    # least the runs after those take over.
    assert [k["noted"] for k in killed] == [k["expected_note"] for k in killed]
    assert all(k["expected_note"] for k in killed[2:5])
    assert chain["last_status"] == 0, chain["last_stderr"][-3000:]
    assert (TAKEN_OVER in chain["last_stderr"]) == chain["lock_left"]
    out = chain["out"]
    assert load_record(out / "case.json").id == "hostile"
    assert not [p for p in out.rglob("*.tmp")], "temporary files of killed writes are removed"
    assert not (out / ".incidentbook.lock").exists()


def test_two_runs_into_one_folder(chain):
    assert chain["rival_status"] == 1
    message = chain["rival_stderr"]
    assert message.startswith("error: ") and "is in use by another run" in message
    assert f"pid {chain['holder_pid']}" in message and "--out" in message
    assert "Traceback" not in message


def test_no_file_a_run_writes_holds_a_credential(chain):
    assert chain["refused_status"] == 2 and "GitHub token" in chain["refused_stderr"]
    written = [p for p in chain["tmp"].rglob("*") if p.is_file() and not p.is_symlink()]
    assert any(p.name == "incident.ipynb" for p in written)
    leaks = [
        (str(p), s)
        for p in written
        for s in SECRETS
        if s in p.read_text(encoding="utf-8", errors="replace")
    ]
    assert leaks == []


# --- a save killed mid-write ------------------------------------------------------------

_WRITER = """
import sys
from pathlib import Path
from incidentbook.record.store import atomic_write_text
target, how = Path(sys.argv[1]), sys.argv[2]
text = "x" * (400 * 2**20) + "\\n"
if how == "atomic":
    atomic_write_text(target, text)
else:
    target.write_text(text)
"""


@pytest.mark.parametrize("how", ["atomic", "plain"])
def test_sigkill_during_a_save_keeps_the_previous_file(tmp_path, how):
    """The save is killed while it writes 400 MiB. The plain write is the control: the
    same kill must lose the file there, or the test would not prove anything."""
    target = tmp_path / "case.yaml"
    previous = "title: The previous narrative, which must survive\n"
    target.write_text(previous)
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(target), how])

    def growing() -> bool:
        sizes = [p.stat().st_size for p in tmp_path.iterdir() if p.is_file()]
        return any(2**20 < s < 400 * 2**20 for s in sizes)

    _until(growing, timeout=60, what="the write to start")
    proc.kill()
    proc.wait()
    if how == "plain":
        assert target.read_text() != previous  # the control lost it
        return
    assert target.read_text() == previous
    left = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(left) == 1  # the killed write's temporary file...
    from incidentbook.record.store import atomic_write_text

    atomic_write_text(target, "title: next\n")
    assert [p.name for p in tmp_path.iterdir()] == ["case.yaml"]  # ...removed by the next


# --- Ctrl-C during regen ------------------------------------------------------------------


@pytest.mark.parametrize("command", ["regen -j 1", "regen -j 2", "run"])
def test_sigint_during_regen(tmp_path, command):
    incidents = tmp_path / "incidents"
    incident(incidents / "a")
    second = incident(incidents / "b")
    (second / "incident.yaml").write_text(
        (second / "incident.yaml").read_text().replace("id: hostile", "id: hostile-b")
    )
    out = tmp_path / "out"
    if command == "run":
        argv = ["run", str(incidents / "a"), "--out", str(out / "hostile")]
    else:
        argv = ["regen", str(incidents), "--out", str(out), "-j", command[-1]]
    regen = Run(argv, tmp_path / "logs", "regen")
    _until(lambda: any(out.glob("*/.incidentbook.lock")), what="a run to start")
    time.sleep(1.0)  # inside the kernel's work
    family = regen.family()
    os.killpg(regen.proc.pid, signal.SIGINT)  # what Ctrl-C sends: the whole foreground group
    status = regen.wait(timeout=90)
    err = regen.stderr
    assert status == 130, err[-3000:]
    assert "interrupted" in err and "whole" in err
    assert "Traceback" not in err

    def gone() -> bool:
        return not [p for p in family if Path(f"/proc/{p}").exists() and _state(p) != "Z"]

    _until(gone, timeout=30, what="the kernels and workers to end")
    assert not list(out.glob("*/.incidentbook.lock"))


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


def test_regen_refuses_two_incidents_with_one_id(tmp_path):
    incidents = tmp_path / "incidents"
    first = incident(incidents / "a", frames=[])  # no metrics: its run fails fast, clearly
    shutil.rmtree(first / "logs")  # (nor logs: with logs alone, they would be analysed)
    incident(incidents / "b")  # the same id
    done = subprocess.run(
        [str(EXE), "regen", str(incidents), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        env={**_env(), "COLUMNS": "400"},
        timeout=300,
    )
    assert done.returncode == 1
    # The table's last column wraps; without its borders each cell reads as one text.
    said = " ".join(done.stdout.translate({ord(c): " " for c in "│┃┏┓┗┛━─┡┩╇┳┻╋"}).split())
    assert "has the same id as" in said and str(first) in said
    assert "has no metrics" in said
    assert "Traceback" not in done.stdout + done.stderr


def test_an_unreadable_earlier_case_json_stops_the_run(tmp_path):
    """case.json may hold a person's edits; a run that cannot read it must not replace it."""
    root = incident(tmp_path / "i")
    out = tmp_path / "out"
    out.mkdir()
    broken = '{"id": "hostile", "lessons": "a person wrote this, then the file got cut'
    (out / "case.json").write_text(broken)
    done = subprocess.run(
        [str(EXE), "run", str(root), "--out", str(out)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=300,
    )
    assert done.returncode == 1
    assert "case.json" in done.stderr and "fix or move it first" in done.stderr
    assert (out / "case.json").read_text() == broken


# --- the lock on its own ------------------------------------------------------------------


def test_a_lock_left_by_a_dead_process_is_taken_over_and_said(tmp_path):
    from incidentbook.notebook.runner import LOCK_NAME, output_lock

    (tmp_path / LOCK_NAME).write_text(
        json.dumps({"pid": 999_999_999, "host": "h", "started": "2025-01-01T00:00:00+00:00"})
    )
    with output_lock(tmp_path) as left:
        assert left["pid"] == 999_999_999
        assert json.loads((tmp_path / LOCK_NAME).read_text())["worker"] == os.getpid()
    assert not (tmp_path / LOCK_NAME).exists()


def test_a_held_lock_refuses_with_the_holders_pid(tmp_path):
    from incidentbook.notebook.runner import OutputBusy, output_lock

    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path;"
            "from incidentbook.notebook.runner import output_lock\n"
            "with output_lock(Path(sys.argv[1])):\n"
            "    print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(OutputBusy, match=f"pid {holder.pid} "), output_lock(tmp_path):
            pass
    finally:
        holder.kill()
        holder.wait()
    with output_lock(tmp_path) as left:  # the kernel released it with the process
        assert left["worker"] == holder.pid
