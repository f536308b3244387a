"""The narrative form in a real JupyterLab, driven from Debian's chromium as a person would."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from conftest import CHROMIUM_ARGS, REPO, require_binary

pytestmark = pytest.mark.browser

ARTIFACTS = REPO / "out" / "test-artifacts"
INCIDENT = REPO / "data" / "incidents" / "smollm3-storage"
JUPYTER = Path(sys.executable).parent / "jupyter"
CELL = """\
from incidentbook.record.draft import draft_record
from incidentbook.record.narrative import load_narrative
from incidentbook.notebook.form import record_form
from incidentbook.investigation import investigate

inv = investigate({incident!r})
record = draft_record(inv, narrative=load_narrative(inv.folder.case_path))
record_form(record, inv.folder.case_path)
"""
TRIGGER = "Checkpoint writes filled the shared WekaFS past 95%; reads slowed for every rank."
REMEDIATION = "Deleted 40 TB of stale checkpoints"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(url: str, method: str = "GET") -> int:
    with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=5) as r:
        return r.status


def _notebook(path: Path, incident: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(CELL.format(incident=str(incident)))]
    nbformat.write(nb, path)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a free loopback port over a folder holding the incident and a notebook."""
    if not JUPYTER.exists():
        pytest.skip(f"needs JupyterLab in the environment ({JUPYTER}); pip install -e '.[dev]'")
    root = tmp_path_factory.mktemp("lab")
    incident = root / "smollm3-storage"
    shutil.copytree(INCIDENT, incident)
    _notebook(root / "form.ipynb", incident)
    home = tmp_path_factory.mktemp("jupyter-home")
    config = home / "config"
    config.mkdir()
    (config / "jupyter_server_config.json").write_text(
        json.dumps(
            {
                "LabApp": {
                    "news_url": None,
                    "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                    "extension_manager": "readonly",
                }
            }
        )
    )
    settings = home / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    token, port = secrets.token_hex(16), _free_port()
    log = (home / "lab.log").open("wb")
    proc = subprocess.Popen(
        [
            str(JUPYTER),
            "lab",
            "--no-browser",
            f"--IdentityProvider.token={token}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={root}",
            *(["--allow-root"] if os.geteuid() == 0 else []),  # CI containers run as root
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                pytest.fail(f"JupyterLab exited ({proc.returncode}); see {home / 'lab.log'}")
            try:
                if _request(f"{base}/api/status?token={token}") == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer within 30 s; see {home / 'lab.log'}")
            time.sleep(0.2)
        yield {"url": f"{base}/lab/tree/form.ipynb?token={token}", "incident": incident}
    finally:
        try:  # kernels run in sessions of their own: let the server shut them down
            _request(f"{base}/api/shutdown?token={token}", method="POST")
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        log.close()


@pytest.fixture(scope="module")
def page():
    chromium = require_binary("chromium", "chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 3000})
        page = context.new_page()
        page.set_default_timeout(30_000)
        yield page
        browser.close()


def _wait_for(check, what: str, timeout: float = 15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def _run_all_cells(page) -> None:
    """Run > Run All Cells, as a person would; again if the first click came too early.

    Lumino greys out Run All Cells until the notebook is the current widget and its kernel
    is connected, and a click on a greyed item does nothing.
    """
    page.locator(".jp-Notebook .jp-Cell").first.wait_for()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()
    prompt = page.locator(".jp-Notebook .jp-InputPrompt").first
    for _ in range(3):
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.locator(".lm-Menu-item[data-command='runmenu:run-all']:not(.lm-mod-disabled)").click()
        try:
            page.wait_for_function(
                "el => el.textContent.trim() !== '[ ]:'", arg=prompt.element_handle(), timeout=5_000
            )
            return
        except Exception:
            page.keyboard.press("Escape")
    pytest.fail("Run > Run All Cells did not start the notebook")


def test_a_person_fills_the_form_and_saves_case_yaml(lab, page):
    expect = pytest.importorskip("playwright.sync_api").expect
    case_path = lab["incident"] / "case.yaml"
    page.goto(lab["url"])
    _run_all_cells(page)
    form = page.locator(".ib-form")
    try:
        form.wait_for(timeout=45_000)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "form-failure.png"))
        raise
    assert not case_path.exists()  # showing the form wrote nothing

    form.locator(".ib-field-trigger textarea").fill(TRIGGER)
    picker = form.locator(".ib-picker-root_cause")
    picker.locator("input[type=text]").fill("capacity")
    expect(picker.locator(".ib-option", has_text="Hardware defect")).to_have_count(0)  # filtered
    # the drafted 'unknown' stays in view while chosen, though the filter does not match it
    expect(picker.locator(".ib-option", has_text="Unknown")).to_be_visible()
    picker.locator(".ib-option", has_text="Shared filesystem near capacity").locator(
        "input"
    ).click()
    expect(picker.locator(".ib-chosen", has_text="shared-filesystem-capacity")).to_be_visible()
    # choosing a real value dropped 'unknown'
    expect(picker.locator("button[title='remove unknown']")).to_have_count(0)
    form.locator(".ib-field-remediation textarea").fill(REMEDIATION)
    form.locator(".ib-save").click()

    written = _wait_for(
        lambda: case_path.exists() and yaml.safe_load(case_path.read_text(encoding="utf-8")),
        "case.yaml",
    )
    assert written == {
        "trigger": TRIGGER,
        "root_causes": ["shared-filesystem-capacity"],
        "remediation": [REMEDIATION],
    }
    form.locator(".ib-status", has_text="Saved at").wait_for()
    expect(form.locator(".ib-field-root_causes .ib-draft-marker")).to_be_hidden()
    expect(form.locator(".ib-field-symptoms .ib-draft-marker")).to_be_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    form.screenshot(path=str(ARTIFACTS / "form.png"))

    # an invalid value: the message shows under the field, case.yaml is left as it was
    before = case_path.read_text(encoding="utf-8")
    form.locator(".ib-field-title input").fill("")
    form.locator(".ib-save").click()
    error = form.locator(".ib-field-title .ib-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Title is empty")
    expect(form.locator(".ib-status")).to_contain_text("Title is empty")
    expect(form.locator(".ib-status")).to_contain_text("Not saved")
    assert case_path.read_text(encoding="utf-8") == before
    # the edit is autosaved by the kernel's timer, so a restart would not lose it
    draft = lab["incident"] / ".case-draft.yaml"
    _wait_for(draft.exists, ".case-draft.yaml", timeout=10)
    form.screenshot(path=str(ARTIFACTS / "form-invalid.png"))
