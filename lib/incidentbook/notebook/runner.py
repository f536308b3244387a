"""Running the workbook through papermill: one incident (`incidentbook run`) or many in
parallel processes (`incidentbook regen`).

Every run writes into its own output folder: the executed notebook, case.json and
report.html. A failing cell is reported as the cell and the error in a sentence, and the
partial notebook is kept for inspection. No credential is ever a parameter: papermill
writes parameters into the output notebook, so secrets come from the environment; a
parameter whose name or value looks like one is refused, and so is a name the workbook
does not have (papermill would inject it unused).

A run holds its output folder's lock (`.incidentbook.lock`, with its pid, host and
command) while it writes: a second run into the same folder is refused with who holds
it, and a lock left by a killed run is taken over (the kernel releases it with the
process). Every file is written to a temporary name and renamed, so a run killed at any
point leaves the previous notebook, case.json and report whole.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import fcntl
import itertools
import json
import math
import os
import re
import signal
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder
from incidentbook.paths import NOTEBOOK_NAME, claim_output, refuse_taken, workbook
from incidentbook.record.store import atomic_write_text

SECRET_NAME = re.compile(r"(?i)(token|password|passwd|secret|api[_-]?key|credential|auth)")

# Credentials by their well-known shapes; the long high-entropy rule below catches others.
SECRET_VALUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (what, re.compile(pattern))
    for what, pattern in (
        ("a GitHub token", r"\b(gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,})"),
        ("a GitLab token", r"\bglpat-[A-Za-z0-9_-]{16,}"),
        ("a Slack token", r"\bxox[abposre]-[A-Za-z0-9-]{8,}"),
        ("an AWS access key id", r"\b(AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b"),
        ("a secret API key (sk-...)", r"\b(sk|rk)[-_](live_|test_|proj-|ant-)?[A-Za-z0-9_-]{16,}"),
        ("a Hugging Face token", r"\bhf_[A-Za-z0-9]{16,}"),
        ("a Google API key", r"\bAIza[0-9A-Za-z_-]{30,}"),
        ("a JSON Web Token", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}"),
        ("a private key", r"-----BEGIN [A-Z ]*PRIVATE KEY"),
        ("an Authorization header", r"(?i)\b(bearer|basic)\s+[A-Za-z0-9+/=._-]{12,}"),
        ("a URL with a password", r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@"),
    )
)
_RUN = re.compile(r"[A-Za-z0-9+=_]{20,}")


_DEAD = (
    "the kernel died while it ran the workbook (killed from outside, out of memory, or "
    "interrupted); the previous outputs are kept as they were"
)


class WorkbookFailed(IncidentbookError):
    """A cell raised; the message names the cell and the error, the notebook is kept."""

    def __init__(self, message: str, notebook: Path):
        self.notebook = notebook
        super().__init__(message)


class SecretParameter(IncidentbookError):
    exit_code = 2


def default_notebook() -> Path:
    """The incident workbook (the checkout's, or the one shipped in the wheel)."""
    return workbook()


@dataclass(frozen=True)
class RunResult:
    incident: str
    notebook: Path
    case: Path
    report: Path
    seconds: float
    notes: tuple[str, ...] = ()  # what the run found about the folder (a lock taken over)


def _entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in Counter(text).values())


_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def _random_looking(run: str) -> bool:
    """A run of letters and digits that reads like a random key, not a name: lower and
    upper case and digits mixed character by character (names change class a few times:
    MyRun2025; keys at most characters), high entropy, and not mostly words of four
    letters or more (MyExperimentName_v2_Run17 is a name: in random keys such words
    cover under half the characters). Hex (commit ids) is not."""
    classes = [c.islower() + 2 * c.isupper() + 3 * c.isdigit() for c in run]
    if not {1, 2, 3} <= set(classes):
        return False
    changes = sum(a != b for a, b in itertools.pairwise(classes)) / (len(run) - 1)
    alnum = sum(c.isalnum() for c in run)
    worded = sum(len(w) for w in _WORD.findall(run) if len(w) >= 4) / alnum
    return changes >= 0.4 and _entropy(run) >= 4.0 and worded < 0.45


def credential_in(value: object) -> str | None:
    """What credential `value` looks like (a sentence's object), or None."""
    text = str(value)
    for what, pattern in SECRET_VALUES:
        if pattern.search(text):
            return what
    if any(_random_looking(run) for run in _RUN.findall(text)):
        return "a long random key"
    return None


def workbook_parameters(notebook: Path | None = None) -> list[str]:
    """The parameters the workbook's parameters cell defines."""
    import papermill

    return sorted(papermill.inspect_notebook(str(notebook or default_notebook())))


def check_parameters(params: dict[str, Any], notebook: Path | None = None) -> None:
    """Refuse what must not reach the executed notebook: a parameter whose name or value
    looks like a credential (papermill writes every parameter into it), and one the
    workbook does not have (it would be injected and never used)."""
    check_secrets(params)
    check_names(params, notebook)


def check_secrets(params: dict[str, Any]) -> None:
    """Refuse a parameter whose name or value looks like a credential (no import: the
    command says so before anything starts)."""
    hint = (
        "papermill writes parameters into the executed notebook, so credentials must come "
        "from environment variables (see the README), never from -p"
    )
    for name, value in params.items():
        if SECRET_NAME.search(name):
            raise SecretParameter(f"parameter {name!r} looks like a credential; {hint}")
        what = credential_in(value)
        if what is not None:
            raise SecretParameter(
                f"the value of parameter {name!r} looks like {what}; it was not used and is "
                f"not shown; {hint}"
            )


def check_names(params: dict[str, Any], notebook: Path | None = None) -> None:
    """Refuse a parameter the workbook does not have (papermill reads its names)."""
    known = workbook_parameters(notebook)
    unknown = sorted(set(params) - set(known) - {"incident", "out"})
    if unknown:
        name = unknown[0]
        close = difflib.get_close_matches(name, known, n=1)
        raise UnknownParameter(
            f"the workbook has no parameter {name!r}"
            + (f"; did you mean {close[0]!r}?" if close else "")
            + f" Its parameters: {', '.join(known)}"
        )


class UnknownParameter(IncidentbookError):
    exit_code = 2


class OutputBusy(IncidentbookError):
    """Another run holds the output folder's lock."""


LOCK_NAME = ".incidentbook.lock"
_COMMAND_PID = os.getpid()  # inherited by forked workers: the pid of the command itself


@contextlib.contextmanager
def output_lock(out: Path) -> Iterator[dict[str, Any] | None]:
    """Hold `out`'s lock while a run writes there; yields what a killed earlier run left
    in the lock file (its pid, command), or None.

    The lock is an flock on OUT/.incidentbook.lock, which the kernel releases when the
    holder exits however it exits, so a lock is stale exactly when nobody holds it: no
    pid guessing, no lock left behind by SIGKILL. The file also says who holds it, for
    the message a second run gets.
    """
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            _busy(out, fd)
        # The holder before us may have removed the file between our open and our lock.
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    left = _lock_holder(fd)
    me = {
        "pid": _COMMAND_PID,  # the command a person ran (a worker holds the lock for it)
        "worker": os.getpid(),
        "host": socket.gethostname(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv)),
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
    try:
        yield left
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        os.close(fd)


def _release_left_locks(outs: list[Path]) -> None:
    """Remove the lock files this command's killed workers left (after Ctrl-C): nobody
    holds them, and the person was told the run was interrupted, so a later run need not
    say it took them over. A lock another command holds or left is not touched."""
    for out in outs:
        path = Path(out).resolve() / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            holder = _lock_holder(fd)
            if holder and holder.get("pid") == _COMMAND_PID:
                path.unlink(missing_ok=True)
        except OSError:  # held: some other run's
            pass
        finally:
            os.close(fd)


def _busy(out: Path, fd: int) -> None:
    """OutputBusy, naming who holds `out`'s lock (fd: the lock file, closed here)."""
    holder = _lock_holder(fd)
    os.close(fd)
    who = (
        f"pid {holder.get('pid')} on {holder.get('host')}, since {holder.get('started')}: "
        f"{holder.get('command')}"
        if holder
        else "another process"
    )
    raise OutputBusy(
        f"{out} is in use by another run ({who}); wait for it to finish or give "
        "another output folder (--out)"
    ) from None


def refuse_busy(out: Path) -> None:
    """OutputBusy when another run holds `out`'s lock now; creates nothing. (output_lock
    decides: a run may take the lock between this look and that.)"""
    try:
        fd = os.open(out / LOCK_NAME, os.O_RDWR)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        _busy(out, fd)
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _lock_holder(fd: int) -> dict[str, Any] | None:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        data = json.loads(text) if text.strip() else None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _stale_sentence(left: dict[str, Any] | None, out: Path) -> str | None:
    if not left:
        return None
    return (
        f"an earlier run into {out} (pid {left.get('pid')}, {left.get('started')}) ended "
        "without finishing; its lock was taken over, and the files it had not replaced are "
        "the previous run's"
    )


def _cell_sentence(exc: Exception, notebook: Path) -> str:
    cell = getattr(exc, "exec_count", None) or getattr(exc, "cell_index", None)
    source = (getattr(exc, "source", "") or "").strip().splitlines()
    ename, evalue = getattr(exc, "ename", type(exc).__name__), getattr(exc, "evalue", str(exc))
    where = f"cell {cell}" + (f" ({source[0][:80]})" if source else "")
    return (
        f"the workbook failed in {where}: {ename}: {evalue}. The partial notebook is at {notebook}"
    )


WORKBOOK_MODULE = "incidentbook.notebook.cells"
"""What the workbook's first cell imports; a kernel started ahead imports it at once."""


class _KernelAhead:
    """A python3 kernel started before papermill is imported (when no -p needs papermill to
    check its names first), told at once to import the workbook's module: the kernel's
    start and that import (two seconds and more, the largest part of a small incident's
    run) go on in their own process while this one imports papermill and prepares the
    notebook. Silent requests: no execution count, no
    output, nothing in the notebook. The kernel is papermill's to run the cells on (it
    never starts its own), and is shut down at once after the last cell."""

    def __init__(self, cwd: Path) -> None:
        from jupyter_client.manager import KernelManager

        self.km = KernelManager(kernel_name="python3")
        self.km.start_kernel(cwd=str(cwd))
        self.kc = self.km.client()
        self.kc.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=False)
        # A failing import is the first cell's to report, as in any run.
        self._silently(f"try:\n    import {WORKBOOK_MODULE}\nexcept Exception:\n    pass")

    def _silently(self, code: str) -> str:
        return self.kc.execute(code, silent=True, store_history=False, allow_stdin=False)

    def chdir(self, folder: Path) -> None:
        """Where the cells run: the output folder, once this run holds it. Waited for:
        the kernel takes requests from its clients in no set order, and papermill's
        client must not run a cell before this."""
        import queue

        sent = self._silently(f"import os as _os\n_os.chdir({str(folder)!r})\ndel _os")
        while True:
            try:
                reply = self.kc.get_shell_msg(timeout=1)
            except queue.Empty:
                if not self.km.is_alive():
                    return  # papermill meets the dead kernel and says so
                continue
            if reply["parent_header"].get("msg_id") == sent:
                return

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.kc.stop_channels()
        with contextlib.suppress(Exception):
            self.km.shutdown_kernel(now=True)


def run_workbook(
    incident: str | Path,
    out: str | Path,
    *,
    start: str | None = None,
    end: str | None = None,
    parameters: dict[str, Any] | None = None,
    notebook: Path | None = None,
    on_note: Callable[[str], None] | None = None,
    force: bool = False,
    kernel_ahead: bool = False,
) -> RunResult:
    """Execute the workbook for one incident folder into `out`; `on_note` hears at once
    what the run finds about the folder (an earlier run's lock taken over). A folder that
    holds another incident's outputs is refused before a cell runs (OutputTaken), unless
    `force`. With `kernel_ahead` the kernel starts once the refusals that need no
    papermill are past (_KernelAhead), and imports while papermill does; a refusal that
    comes later (a run taking the folder meanwhile) shuts it down."""
    incident = Path(incident).resolve()
    IncidentFolder(incident)  # a clear error before a kernel starts
    params = dict(parameters or {})
    check_secrets(params)  # nothing that looks like a credential reaches a kernel
    if params:  # papermill reads the workbook's names (none to check without -p)
        check_names(params, notebook)
    if "force" in params:  # -p force True arrives as text
        force = force or str(params.pop("force")).strip().lower() in {"true", "1", "yes"}
    out = Path(out).resolve()
    ahead = None
    if kernel_ahead:
        # A refusal is said before the kernel starts (its start prints to stderr).
        refuse_taken(out, incident, force=force)
        refuse_busy(out)
        ahead = _KernelAhead(incident)
    try:
        return _run_workbook(incident, out, params, start, end, notebook, on_note, force, ahead)
    finally:
        if ahead is not None:
            ahead.close()


def _run_workbook(
    incident: Path,
    out: Path,
    params: dict[str, Any],
    start: str | None,
    end: str | None,
    notebook: Path | None,
    on_note: Callable[[str], None] | None,
    force: bool,
    ahead: _KernelAhead | None,
) -> RunResult:
    import papermill
    from nbclient.exceptions import DeadKernelError
    from papermill.exceptions import PapermillExecutionError

    with output_lock(out) as left:
        stale = _stale_sentence(left, out)
        if stale and on_note:
            on_note(stale)
        claim_output(out, incident, force=force)
        if ahead is not None:
            ahead.chdir(out)
        params.update(incident=str(incident), out=str(out))
        if force:
            params["force"] = True
        if start:
            params["start"] = start
        if end:
            params["end"] = end
        executed = out / NOTEBOOK_NAME
        # papermill writes the notebook in place, more than once: it writes to a partial
        # file, renamed when done, so a killed run leaves the previous notebook whole.
        partial = out / f".{Path(NOTEBOOK_NAME).stem}.partial.ipynb"
        began = time.perf_counter()
        try:
            papermill.execute_notebook(
                str(notebook or default_notebook()),
                str(partial),
                parameters=params,
                kernel_name="python3",
                progress_bar=False,
                request_save_on_cell_execute=False,
                cwd=str(out),
                # The form's live widget state is a megabyte that means nothing offline.
                store_widget_state=False,
                # papermill gives up after 4 s without output from a busy cell; a cold first
                # import of the scientific stack on a loaded machine takes longer.
                iopub_timeout=120,
                # Every output is written (atomically) before the last cell returns, so the
                # kernel has nothing left to finish: a graceful shutdown waited 0.9 s of
                # every run for it to exit on its own.
                shutdown_kernel="immediate",
                **({"km": ahead.km} if ahead is not None else {}),
            )
        except PapermillExecutionError as exc:
            os.replace(partial, executed)
            raise WorkbookFailed(_cell_sentence(exc, executed), executed) from None
        except DeadKernelError:
            raise WorkbookFailed(_DEAD, executed) from None
        os.replace(partial, executed)
    return RunResult(
        incident=str(incident),
        notebook=executed,
        case=out / "case.json",
        report=out / "report.html",
        seconds=time.perf_counter() - began,
        notes=(stale,) if stale else (),
    )


_TEMPLATES: dict[tuple[str, int, int], Any] = {}


def _template(notebook: Path, load: Callable[[str], Any]) -> Any:
    """The workbook as papermill loads it, without the outputs stored in it (running the
    cells replaces them, and a failed run's notebook then shows no stale output under the
    cells it never reached), read once per worker while the file is unchanged: a batch
    read, validated and copied the megabyte of stored outputs for every notebook."""
    stat = notebook.stat()
    key = (str(notebook), stat.st_mtime_ns, stat.st_size)
    if key not in _TEMPLATES:
        nb = load(str(notebook))
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
        _TEMPLATES.clear()
        _TEMPLATES[key] = nb
    return _TEMPLATES[key]


class WarmKernel:
    """One kernel kept alive across notebooks in a worker process.

    papermill starts a fresh kernel for every notebook; in a batch that start and the
    re-import of polars, altair and scipy dominate a small incident's run. Between
    notebooks the user namespace is reset (`%reset -f`) and the working directory set,
    so a notebook sees nothing of the one before; what stays is imported modules and
    their caches, which hold nothing incident-specific.
    """

    def __init__(self) -> None:
        from jupyter_client.manager import KernelManager

        self.km = KernelManager(kernel_name="python3")
        self.km.start_kernel()
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)

    def run(self, incident: Path, out: Path, params: dict[str, Any], notebook: Path) -> RunResult:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError, DeadKernelError
        from papermill.iorw import load_notebook_node
        from papermill.parameterize import parameterize_notebook

        nb = parameterize_notebook(copy.deepcopy(_template(notebook, load_notebook_node)), params)
        executed = out / NOTEBOOK_NAME
        began = time.perf_counter()
        self.kc.execute_interactive(
            f"get_ipython().run_line_magic('reset', '-f')\nimport os\nos.chdir({str(out)!r})",
            store_history=False,
            timeout=60,
        )
        client = NotebookClient(
            nb,
            km=self.km,
            kernel_name="python3",
            timeout=None,
            iopub_timeout=120,
            store_widget_state=False,
        )
        client.kc = self.kc
        try:
            client.execute(cleanup_kc=False)
        except CellExecutionError as exc:
            atomic_write_text(executed, nbformat.writes(nb))
            raise WorkbookFailed(_cell_sentence(exc, executed), executed) from None
        except DeadKernelError:
            raise WorkbookFailed(_DEAD, executed) from None
        atomic_write_text(executed, nbformat.writes(nb))
        return RunResult(
            str(incident),
            executed,
            out / "case.json",
            out / "report.html",
            time.perf_counter() - began,
        )

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


_WARM: WarmKernel | None = None


def _warm() -> WarmKernel:
    global _WARM
    if _WARM is None:
        import atexit

        _WARM = WarmKernel()
        atexit.register(_WARM.close)
    return _WARM


def find_incidents(targets: Iterable[str | Path]) -> list[Path]:
    """Incident folders named, or found below the folders named (sorted, no duplicates)."""
    found: list[Path] = []
    for target in targets:
        path = Path(target)
        if (path / "incident.yaml").is_file():
            found.append(path.resolve())
        elif path.is_dir():
            found += sorted(p.parent.resolve() for p in path.rglob("incident.yaml"))
        else:
            raise IncidentbookError(f"{path} is neither an incident folder nor a folder of them")
    return sorted(dict.fromkeys(found))


@dataclass(frozen=True)
class Outcome:
    incident: Path
    out: Path
    result: RunResult | None
    error: str | None

    @property
    def ok(self) -> bool:
        return self.error is None


def _run_warm(incident: Path, out: Path, parameters: dict[str, Any]) -> RunResult:
    IncidentFolder(incident)
    out = out.resolve()
    params = {**parameters, "incident": str(incident), "out": str(out)}
    global _WARM
    with output_lock(out):
        claim_output(out, incident)
        try:
            return _warm().run(incident, out, params, default_notebook())
        except WorkbookFailed:
            if _WARM is not None and not _WARM.km.is_alive():
                # A dead kept kernel would fail every notebook after this one.
                with contextlib.suppress(Exception):
                    _WARM.close()
                _WARM = None
            raise


def _one(incident: Path, out: Path, parameters: dict[str, Any], reuse: bool = False) -> Outcome:
    try:
        if reuse:
            return Outcome(incident, out, _run_warm(incident, out, parameters), None)
        return Outcome(incident, out, run_workbook(incident, out, parameters=parameters), None)
    except IncidentbookError as exc:
        return Outcome(incident, out, None, str(exc))
    except Exception as exc:  # one failure must not stop the others
        return Outcome(incident, out, None, f"{type(exc).__name__}: {exc}")


def _output_name(incident: Path) -> str:
    """The incident's id; its folder name when incident.yaml is broken (its run then
    fails with the reason, and the others go on)."""
    try:
        return IncidentFolder(incident).spec.id
    except IncidentbookError:
        return incident.name


def regen(
    targets: Iterable[str | Path],
    out_root: str | Path,
    *,
    jobs: int = 1,
    parameters: dict[str, Any] | None = None,
    on_done: Callable[[Outcome], None] | None = None,
    reuse_kernels: bool = True,
) -> list[Outcome]:
    """Run the workbook for every incident, `jobs` at a time, each into OUT_ROOT/<id>/.

    With `reuse_kernels` each worker process keeps one kernel for all its notebooks
    (see WarmKernel); without, every notebook gets a fresh one through papermill.

    The notebooks run in worker processes (one for jobs=1), so that Ctrl-C is this
    process's alone to handle: nbclient inside a notebook's process would take it for
    its own, kill that kernel and let the batch go on with the next incident.
    """
    incidents = find_incidents(targets)
    params = dict(parameters or {})
    check_parameters(params)
    out_root = Path(out_root)
    plans, outcomes = _plans(incidents, out_root)
    for outcome in outcomes:
        if on_done:
            on_done(outcome)
    if not plans:
        return sorted(outcomes, key=lambda o: str(o.incident))
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start)
    try:
        with _ctrl_c() as interrupted:
            pending = {
                pool.submit(_one, incident, out, params, reuse_kernels) for incident, out in plans
            }
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in done:
                    outcomes.append(future.result())
                    if on_done:
                        on_done(outcomes[-1])
                if interrupted.is_set():
                    raise KeyboardInterrupt
    except BaseException:  # Ctrl-C, or any failure here: stop the workers now
        _stop(pool)
        _release_left_locks([out for _, out in plans])
        raise
    pool.shutdown()
    return sorted(outcomes, key=lambda o: str(o.incident))


@contextlib.contextmanager
def _ctrl_c() -> Iterator[threading.Event]:
    """Ctrl-C as an event the waiting loop checks, rather than a KeyboardInterrupt raised
    wherever this process happens to be (inside a finaliser, it would be lost)."""
    event = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield event
        return
    previous = signal.signal(signal.SIGINT, lambda *_: event.set())
    try:
        yield event
    finally:
        signal.signal(signal.SIGINT, previous)


def _plans(incidents: list[Path], out_root: Path) -> tuple[list[tuple[Path, Path]], list[Outcome]]:
    """Each incident's output folder; an incident whose id another already has would
    overwrite that one's outputs, so it fails with the reason instead of running."""
    plans: list[tuple[Path, Path]] = []
    refused: list[Outcome] = []
    taken: dict[Path, Path] = {}
    for incident in incidents:
        out = out_root / _output_name(incident)
        if out in taken:
            refused.append(
                Outcome(
                    incident,
                    out,
                    None,
                    f"{incident} has the same id as {taken[out]}, so both would write {out}; "
                    "give one of them another id in its incident.yaml",
                )
            )
            continue
        taken[out] = incident
        plans.append((incident, out))
    return plans, refused


def _worker_start() -> None:
    """A notebook worker: detached from the terminal (_detach), and every kernel it starts
    is marked as a batch kernel (form.BATCH_ENV: the form is not built)."""
    from incidentbook.notebook.form import BATCH_ENV

    _detach()
    os.environ[BATCH_ENV] = "1"


def _detach() -> None:
    """A notebook worker leaves the terminal's process group, so that Ctrl-C reaches only
    the parent, which stops it. Inside the worker nbclient would take Ctrl-C for its own
    and shut the kernel down in the middle of a cell (the kernel then prints a traceback
    of its own); a batch would go on with the next incident."""
    os.setpgrp()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Writing to the terminal from a background group stops a process where the
    # terminal has `tostop` set; the worker's and its kernel's output must go on.
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's workers now; their locks go with them and their kernels follow (a
    kernel exits when the process that started it is gone)."""
    for process in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(OSError):
            process.kill()
    # Wait here for the pool to see its workers gone, not at interpreter exit.
    pool.shutdown(wait=True, cancel_futures=True)


class WorkerError(IncidentbookError):
    """An IncidentbookError raised in a worker process, as its sentence and exit status."""

    def __init__(self, message: str, exit_code: int = 1):
        super().__init__(message)
        self.exit_code = exit_code

    def __reduce__(self):
        return (WorkerError, (str(self), self.exit_code))


def _run_speaking(incident: Path, out: Path, options: dict[str, Any]) -> RunResult:
    def say(note: str) -> None:
        print(f"note: {note}", file=sys.stderr, flush=True)

    try:
        return run_workbook(incident, out, on_note=say, **options)
    except IncidentbookError as exc:
        raise WorkerError(str(exc), exc.exit_code) from None


def run_detached(incident: str | Path, out: str | Path, **options: Any) -> RunResult:
    """run_workbook in a worker process of its own (what `incidentbook run` does), so
    that Ctrl-C stops it cleanly: the worker is killed, its lock released, its kernel
    gone, and KeyboardInterrupt raised here. Notes are printed as they come. The worker
    starts its kernel ahead of papermill (kernel_ahead) and checks the parameters' names
    before it."""
    check_secrets(dict(options.get("parameters") or {}))
    options = {"kernel_ahead": True, **options}
    IncidentFolder(incident)
    pool = ProcessPoolExecutor(max_workers=1, initializer=_worker_start)
    try:
        with _ctrl_c() as interrupted:
            future = pool.submit(_run_speaking, Path(incident), Path(out), options)
            while not wait([future], timeout=0.2).done:
                if interrupted.is_set():
                    raise KeyboardInterrupt
            if interrupted.is_set():
                raise KeyboardInterrupt
    except BaseException:
        _stop(pool)
        _release_left_locks([Path(out)])
        raise
    pool.shutdown()
    return future.result()
