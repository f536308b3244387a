"""A real JupyterLab for browser tests: a server on a free loopback port over a folder,
with its own settings (no news, no update checks), and Run All as a person clicks it."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import CHROMIUM_ARGS, require_binary

JUPYTER = Path(sys.executable).parent / "jupyter"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(url: str, method: str = "GET") -> int:
    with urllib.request.urlopen(urllib.request.Request(url, method=method), timeout=5) as r:
        return r.status


@contextmanager
def jupyter_lab(root: Path, home: Path) -> Iterator[tuple[str, str]]:
    """JupyterLab serving `root`, its settings and logs under `home`; yields (base URL,
    token) and shuts the server and its kernels down after."""
    if not JUPYTER.exists():
        pytest.skip(f"needs JupyterLab in the environment ({JUPYTER}); pip install -e '.[dev]'")
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
        yield base, token
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


def wait_for(check, what: str, timeout: float = 15):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


# The notebook on show. JupyterLab can hold another notebook open in a hidden tab (one
# restored from the workspace a page before): a locator of `.jp-Notebook` alone may find
# that one's cells first.
NOTEBOOK = ".jp-NotebookPanel:visible .jp-Notebook"


def run_all_cells(page) -> None:
    """Run > Run All Cells, as a person would; again if the first click came too early.

    Lumino greys out Run All Cells until the notebook is the current widget and its kernel
    is connected, and a click on a greyed item does nothing.
    """
    page.locator(f"{NOTEBOOK} .jp-Cell").first.wait_for()
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()
    prompt = page.locator(f"{NOTEBOOK} .jp-InputPrompt").first
    for _ in range(3):
        accept_kernel_dialog(page)
        page.locator(f"{NOTEBOOK} .jp-Cell").first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.locator(".lm-Menu-item[data-command='runmenu:run-all']:not(.lm-mod-disabled)").click()
        try:
            page.wait_for_function(
                "el => el.textContent.trim() !== '[ ]:'", arg=prompt.element_handle(), timeout=5_000
            )
        except Exception:
            page.keyboard.press("Escape")
            continue
        if _kernel_took_it(page, prompt):
            return
    pytest.fail("Run > Run All Cells did not start the notebook")


def kernel_dialog(page):
    """JupyterLab's Select Kernel dialog, when it is up (else None). It comes up when the
    notebook's kernel did not connect in time on a loaded machine (a fresh clone's run:
    no cell had run, every prompt `[ ]:`, the dialog over the page)."""
    dialog = page.locator(".jp-Dialog", has_text="Select Kernel")
    return dialog if dialog.count() else None


def accept_kernel_dialog(page) -> None:
    """Take the preferred kernel the dialog offers, as a person would."""
    dialog = kernel_dialog(page)
    if dialog is not None:
        dialog.get_by_role("button", name="Select", exact=True).click()
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for()


def _kernel_took_it(page, prompt, quiet: float = 8.0) -> bool:
    """Whether the kernel started (or already finished) the queued cells. A request sent
    while the kernel's connection is still settling right after start-up can be lost: the
    cell shows [*] while the kernel stays idle, and would wait forever; then it is sent
    again. `quiet`: how long an idle kernel beside a [*] prompt means the request is lost."""
    indicator = page.locator(".jp-Notebook-ExecutionIndicator")
    deadline = time.monotonic() + quiet
    while time.monotonic() < deadline:
        if indicator.get_attribute("data-status") == "busy":
            return True
        if prompt.text_content().strip() not in ("[ ]:", "[*]:"):
            return True  # numbered: done already
        time.sleep(0.2)
    return False


@contextmanager
def browser_page(viewport: dict[str, int]) -> Iterator:
    """A Playwright page in Debian's chromium (skips with the reason when either is absent)."""
    chromium = require_binary("chromium", "chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=viewport).new_page()
        page.set_default_timeout(30_000)
        try:
            yield page
        finally:
            browser.close()
