"""The workbook as users run it: papermill on real kernels, asserting on what it wrote."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from incidentbook.notebook.runner import SecretParameter, WorkbookFailed, regen, run_workbook
from incidentbook.record.store import load_record

INCIDENTS = REPO / "data" / "incidents"
EXE = Path(sys.executable).with_name("incidentbook")


@pytest.fixture(scope="module")
def smollm3_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("smollm3")
    return run_workbook(INCIDENTS / "smollm3-storage", out)


@pytest.fixture(scope="module")
def imbue_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("imbue")
    return run_workbook(INCIDENTS / "imbue-bringup", out)


def test_smollm3_record_tells_the_story_from_the_data(smollm3_run):
    record = load_record(smollm3_run.case)
    ev = record.evidence
    drops = [f for f in ev.findings if f.kind == "drop" and f.signal == "throughput"]
    assert len(drops) == 7
    assert ev.correlations[0].signal == "disk_read_latency"
    assert "storage" in record.components
    assert "throughput-drop" in record.symptom_tags
    # GPUs cooling while they wait for data are an effect: no thermal facet is proposed.
    assert not {"gpu-thermal", "fans"} & set(record.components)
    assert not {"thermal-problem", "overheating", "thermal-throttling"} & set(record.symptom_tags)
    assert ev.verdict is not None and ev.verdict.cause == "disk_read_latency"
    assert ev.verdict.summary in record.detection
    assert record.root_causes == ["unknown"]
    assert {"symptoms", "detection", "components"} <= set(record.drafted)
    assert record.symptoms.startswith("Draft from the data")
    assert ev.charts[0].path == "charts/story.svg"
    for chart in ev.charts:
        assert (smollm3_run.case.parent / chart.path).read_text().startswith("<svg")


def test_report_is_self_contained_and_marks_drafts(smollm3_run):
    page = smollm3_run.report.read_text()
    head = page.split("<body>", 1)[0]
    assert "http" not in head  # no stylesheet or script fetched
    assert "<script" not in page
    assert page.count("<svg") >= 3  # charts inlined, not linked
    assert "draft-badge" in page
    assert 'src="charts/' not in page


def test_executed_notebook_is_small_and_keeps_its_parameters(smollm3_run):
    size = smollm3_run.notebook.stat().st_size
    assert size < 3 * 2**20
    notebook = json.loads(smollm3_run.notebook.read_text())
    injected = [
        c for c in notebook["cells"] if "injected-parameters" in c["metadata"].get("tags", [])
    ]
    assert injected and "smollm3-storage" in "".join(injected[0]["source"])


def test_imbue_record_names_failing_hosts_and_signatures(imbue_run):
    truth = json.loads((INCIDENTS / "imbue-bringup" / "truth.json").read_text())
    record = load_record(imbue_run.case)
    signatures = {s.id: s for s in record.evidence.log_signatures}
    downtrained = {d["host"] for d in truth["planted"]["downtrained"]}
    assert set(signatures["pcie-link-downtrained"].hosts) == downtrained
    never = next(
        f for f in record.evidence.findings if f.kind == "failure_rate" and "never" in f.summary
    )
    assert len(never.hosts) == len(truth["planted"]["failed_hosts"])
    assert "pcie-link-downtrained" in record.symptom_tags
    assert "hosts-fail-to-boot" in record.symptom_tags


def test_a_failing_cell_is_named_and_the_partial_notebook_kept(tmp_path):
    with pytest.raises(WorkbookFailed) as info:
        run_workbook(INCIDENTS / "smollm3-storage", tmp_path, parameters={"signal_pack": "nope"})
    message = str(info.value)
    assert "failed in cell" in message
    assert "wb.load(" in message or "SignalPackError" in message
    assert "no signal pack 'nope'" in message
    assert info.value.notebook.exists()


def test_credentials_are_refused_as_parameters(tmp_path):
    with pytest.raises(SecretParameter, match="environment"):
        run_workbook(INCIDENTS / "smollm3-storage", tmp_path, parameters={"api_token": "x"})
    result = subprocess.run(
        [
            str(EXE),
            "run",
            str(INCIDENTS / "smollm3-storage"),
            "-p",
            "password",
            "x",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "credential" in result.stderr
    assert not (tmp_path / "incident.ipynb").exists()


def _copy(name: str, root: Path) -> Path:
    target = root / name
    shutil.copytree(INCIDENTS / name, target)
    return target


def test_regen_keeps_a_persons_words_and_survives_a_broken_incident(tmp_path):
    incidents = tmp_path / "incidents"
    smollm3 = _copy("smollm3-storage", incidents)
    (smollm3 / "case.yaml").write_text(
        yaml.safe_dump(
            {
                "trigger": "Launching the full run: 24 TB on WekaFS and the real step count.",
                "root_causes": ["shared-filesystem-capacity", "dataloader-scaling-bug"],
            }
        )
    )
    broken = incidents / "broken"
    broken.mkdir()
    (broken / "incident.yaml").write_text("id: broken\ntitle: t\nwindow: {start: 2025-01-01}\n")
    out = tmp_path / "out"

    first = regen([incidents], out, jobs=2)
    by_name = {o.incident.name: o for o in first}
    assert by_name["smollm3-storage"].ok
    assert not by_name["broken"].ok
    assert "incident.yaml" in by_name["broken"].error

    case = out / "smollm3-storage" / "case.json"
    record = load_record(case)
    assert record.trigger.startswith("Launching the full run")
    assert record.root_causes == ["shared-filesystem-capacity", "dataloader-scaling-bug"]
    assert "trigger" not in record.drafted and "root_causes" not in record.drafted

    # A person edits the generated case.json: lessons and their own timeline entry.
    data = json.loads(case.read_text())
    data["lessons"] = (
        "Keep 20% free on the shared filesystem; watch read latency, not only throughput."
    )
    data["symptoms"] = "Throughput fell in sharp drops within hours of launch."
    data["drafted"] = [f for f in data["drafted"] if f != "symptoms"]
    data["evidence"]["timeline"].append(
        {
            "at": "2025-03-14T09:30:00Z",
            "text": "On-call paged the storage team.",
            "source": "person",
        }
    )
    case.write_text(json.dumps(data))

    second = regen([smollm3], out, jobs=1)
    assert all(o.ok for o in second)
    again = load_record(case)
    assert again.lessons == data["lessons"]
    assert again.symptoms == data["symptoms"]
    assert again.trigger == record.trigger
    assert any(
        e.source == "person" and e.text.startswith("On-call") for e in again.evidence.timeline
    )
    assert again.evidence.correlations[0].signal == "disk_read_latency"


def test_regen_cli_exit_status_and_summary(tmp_path):
    incidents = tmp_path / "incidents"
    _copy("smollm3-storage", incidents)
    bad = incidents / "bad"
    bad.mkdir()
    (bad / "incident.yaml").write_text("not: [valid\n")
    result = subprocess.run(
        [str(EXE), "regen", str(incidents), "--out", str(tmp_path / "out"), "-j", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "1 succeeded, 1 failed" in result.stderr
    assert "smollm3-storage" in result.stdout and "failed" in result.stdout


def test_one_kept_kernel_serves_several_incidents_without_leaking(tmp_path):
    incidents = tmp_path / "incidents"
    _copy("smollm3-storage", incidents)
    _copy("imbue-bringup", incidents)
    outcomes = regen([incidents], tmp_path / "out", jobs=1, reuse_kernels=True)
    assert all(o.ok for o in outcomes), [o.error for o in outcomes]
    imbue = load_record(tmp_path / "out" / "imbue-bringup" / "case.json")
    smollm3 = load_record(tmp_path / "out" / "smollm3-storage" / "case.json")
    assert imbue.id == "imbue-bringup" and smollm3.id == "smollm3-storage"
    assert smollm3.evidence.correlations[0].signal == "disk_read_latency"
    assert any(
        f.kind == "failure_rate" and "never came up" in f.summary for f in imbue.evidence.findings
    )
    assert not any("never came up" in f.summary for f in smollm3.evidence.findings)
    notebook = json.loads((tmp_path / "out" / "smollm3-storage" / "incident.ipynb").read_text())
    injected = [
        c for c in notebook["cells"] if "injected-parameters" in c["metadata"].get("tags", [])
    ]
    assert "smollm3-storage" in "".join(injected[0]["source"])


KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def _probe_notebook(folder: Path) -> Path:
    """A workbook whose cells say what the kernel had before they ran: whether the
    workbook's module was imported already, and where the cells run."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('incident = ""\nout = ""')
    params.metadata["tags"] = ["parameters"]
    probe = nbformat.v4.new_code_cell(
        "import os, sys\n"
        "print('imported ahead:', 'incidentbook.notebook.cells' in sys.modules)\n"
        "print('cwd:', os.getcwd())"
    )
    nb.cells = [params, probe]
    nb.metadata["kernelspec"] = KERNELSPEC
    path = folder / "probe.ipynb"
    path.write_text(nbformat.writes(nb))
    return path


def _probe_output(result) -> str:
    nb = json.loads(result.notebook.read_text())
    return "".join(nb["cells"][-1]["outputs"][0]["text"])


def test_the_kernel_started_ahead_has_the_workbook_imported_and_runs_in_the_output(tmp_path):
    """`incidentbook run` starts the kernel before papermill is imported and has it import
    the workbook's module meanwhile (silently: the notebook's counts start at 1); the
    cells then run in the output folder, as papermill's own kernel would."""
    probe = _probe_notebook(tmp_path)
    out = tmp_path / "out"
    ahead = run_workbook(INCIDENTS / "smollm3-storage", out, notebook=probe, kernel_ahead=True)
    said = _probe_output(ahead)
    assert "imported ahead: True" in said
    assert f"cwd: {out.resolve()}" in said
    nb = json.loads(ahead.notebook.read_text())
    counts = [c["execution_count"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1))
    plain = run_workbook(INCIDENTS / "smollm3-storage", tmp_path / "plain", notebook=probe)
    assert "imported ahead: False" in _probe_output(plain)


def test_a_refused_parameter_leaves_no_kernel_started_ahead(tmp_path):
    from incidentbook.notebook.runner import UnknownParameter

    def kernels() -> set[int]:
        import os

        mine = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and b"ipykernel" in cmd:
                mine.append(int(entry.name))
        return set(mine)

    before = kernels()
    with pytest.raises(UnknownParameter, match="no parameter 'signal_pak'"):
        run_workbook(
            INCIDENTS / "smollm3-storage",
            tmp_path / "out",
            parameters={"signal_pak": "default"},
            kernel_ahead=True,
        )
    assert kernels() <= before
    assert not (tmp_path / "out").exists()  # refused before the folder was claimed


def test_a_kept_kernels_failed_notebook_shows_no_stored_output_under_unrun_cells(tmp_path):
    """regen's kept kernels read the workbook once per worker, without the outputs stored
    in it: a notebook that fails part-way shows nothing under the cells it never ran (as
    papermill's own runs do), not the outputs the workbook was saved with."""
    import nbformat

    from incidentbook.notebook.runner import WarmKernel

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('incident = ""\nout = ""')
    params.metadata["tags"] = ["parameters"]
    fails = nbformat.v4.new_code_cell("raise ValueError('the data is not there')")
    never = nbformat.v4.new_code_cell("print('ran')")
    never.outputs = [nbformat.v4.new_output("stream", name="stdout", text="stored long ago\n")]
    never.execution_count = 7
    nb.cells = [params, fails, never]
    nb.metadata["kernelspec"] = KERNELSPEC
    notebook = tmp_path / "stored.ipynb"
    notebook.write_text(nbformat.writes(nb))
    out = tmp_path / "out"
    out.mkdir()
    kernel = WarmKernel()
    try:
        for _ in range(2):  # the second from the worker's copy of the workbook
            with pytest.raises(WorkbookFailed, match="the data is not there"):
                kernel.run(INCIDENTS / "smollm3-storage", out, {}, notebook)
            executed = json.loads((out / "incident.ipynb").read_text())
            last = executed["cells"][-1]
            assert last["outputs"] == [] and last["execution_count"] is None
    finally:
        kernel.close()
    assert json.loads(notebook.read_text())["cells"][-1]["outputs"]  # the file is untouched


def test_a_batch_run_saves_the_forms_sentence_and_builds_no_widget(tmp_path):
    """`incidentbook run` marks its kernel as a batch kernel: the form cell holds the
    sentence a reader of the saved notebook needs, not a widget whose state is not kept
    (a dead 'model not found' in JupyterLab); a person's kernel still gets the live form
    (test_form)."""
    from incidentbook.notebook.form import FORM_PLACEHOLDER

    out = tmp_path / "out"
    done = subprocess.run(
        [str(EXE), "run", str(INCIDENTS / "smollm3-storage"), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    nb = json.loads((out / "incident.ipynb").read_text())
    (cell,) = [c for c in nb["cells"] if "".join(c["source"]).startswith("wb.form(")]
    (output,) = cell["outputs"]
    assert output["data"] == {"text/plain": [FORM_PLACEHOLDER]}
    assert "widget" not in json.dumps(nb["metadata"])
