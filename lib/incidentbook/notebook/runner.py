"""Running the workbook through papermill: one incident (`incidentbook run`) or many in
parallel processes (`incidentbook regen`).

Every run writes into its own output folder: the executed notebook, case.json and
report.html. A failing cell is reported as the cell and the error in a sentence, and the
partial notebook is kept for inspection. No credential is ever a parameter: papermill
writes parameters into the output notebook, so secrets come from the environment.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from incidentbook.errors import IncidentbookError
from incidentbook.incident import IncidentFolder
from incidentbook.paths import NOTEBOOK_NAME, workbook

SECRET_NAME = re.compile(r"(?i)(token|password|passwd|secret|api[_-]?key|credential|auth)")


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


def check_parameters(params: dict[str, Any]) -> None:
    for name in params:
        if SECRET_NAME.search(name):
            raise SecretParameter(
                f"parameter {name!r} looks like a credential; papermill writes parameters into "
                "the executed notebook, so credentials must come from environment variables "
                "(see the README), never from -p"
            )


def _cell_sentence(exc: Exception, notebook: Path) -> str:
    cell = getattr(exc, "exec_count", None) or getattr(exc, "cell_index", None)
    source = (getattr(exc, "source", "") or "").strip().splitlines()
    ename, evalue = getattr(exc, "ename", type(exc).__name__), getattr(exc, "evalue", str(exc))
    where = f"cell {cell}" + (f" ({source[0][:80]})" if source else "")
    return (
        f"the workbook failed in {where}: {ename}: {evalue}. The partial notebook is at {notebook}"
    )


def run_workbook(
    incident: str | Path,
    out: str | Path,
    *,
    start: str | None = None,
    end: str | None = None,
    parameters: dict[str, Any] | None = None,
    notebook: Path | None = None,
) -> RunResult:
    """Execute the workbook for one incident folder into `out`."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    incident = Path(incident).resolve()
    IncidentFolder(incident)  # a clear error before a kernel starts
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    params = dict(parameters or {})
    check_parameters(params)
    params.update(incident=str(incident), out=str(out))
    if start:
        params["start"] = start
    if end:
        params["end"] = end
    executed = out / NOTEBOOK_NAME
    began = time.perf_counter()
    try:
        papermill.execute_notebook(
            str(notebook or default_notebook()),
            str(executed),
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
        )
    except PapermillExecutionError as exc:
        raise WorkbookFailed(_cell_sentence(exc, executed), executed) from None
    return RunResult(
        incident=str(incident),
        notebook=executed,
        case=out / "case.json",
        report=out / "report.html",
        seconds=time.perf_counter() - began,
    )


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
        from nbclient.exceptions import CellExecutionError
        from papermill.iorw import load_notebook_node
        from papermill.parameterize import parameterize_notebook

        nb = parameterize_notebook(load_notebook_node(str(notebook)), params)
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
            nbformat.write(nb, executed)
            raise WorkbookFailed(_cell_sentence(exc, executed), executed) from None
        finally:
            nbformat.write(nb, executed)
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
    out.mkdir(parents=True, exist_ok=True)
    params = {**parameters, "incident": str(incident), "out": str(out)}
    return _warm().run(incident, out, params, default_notebook())


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
    """
    incidents = find_incidents(targets)
    params = dict(parameters or {})
    check_parameters(params)
    out_root = Path(out_root)
    plans = [(i, out_root / _output_name(i)) for i in incidents]
    outcomes: list[Outcome] = []
    if jobs <= 1:
        for incident, out in plans:
            outcomes.append(_one(incident, out, params, reuse_kernels))
            if on_done:
                on_done(outcomes[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(_one, incident, out, params, reuse_kernels) for incident, out in plans
            ]
            for future in as_completed(futures):
                outcomes.append(future.result())
                if on_done:
                    on_done(outcomes[-1])
    return sorted(outcomes, key=lambda o: str(o.incident))
