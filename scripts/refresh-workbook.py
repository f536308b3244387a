"""Re-execute workbooks/incident.ipynb in place on the bundled sample, for nbval.

    .venv/bin/python scripts/refresh-workbook.py

nbval compares a fresh run against the outputs stored here, so they must come from
the defaults (the bundled SmolLM3 incident). Timing metadata is not recorded, so the
stored notebook changes only when what it shows changes.
"""

import shutil
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).resolve().parents[1] / "workbooks" / "incident.ipynb"

# The stored outputs are those of a first run, as CI makes them on a clean checkout: an
# earlier run's case.json would be read as the previous record.
shutil.rmtree(NOTEBOOK.parents[1] / "out" / "smollm3-storage", ignore_errors=True)
notebook = nbformat.read(NOTEBOOK, as_version=4)
NotebookClient(
    notebook,
    kernel_name="python3",
    timeout=600,
    record_timing=False,
    store_widget_state=False,  # the form's live state: a megabyte that means nothing offline
    resources={"metadata": {"path": str(NOTEBOOK.parent)}},
).execute()
notebook.metadata.pop("widgets", None)
# The kernelspec as JupyterLab's kernel reports it: any other display name is rewritten
# when the notebook connects, which marks the committed workbook modified on opening.
notebook.metadata["kernelspec"] = {
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
    "name": "python3",
}
WIDGET = "application/vnd.jupyter.widget-view+json"
for cell in notebook.cells:
    cell.metadata.pop("execution", None)
    # A widget's view points at a model that lives only in the kernel that ran it: stored,
    # it shows as an error or a repr. The sentence beside it stays.
    for output in cell.get("outputs", []):
        output.get("data", {}).pop(WIDGET, None)
nbformat.write(notebook, NOTEBOOK)
print(f"refreshed {NOTEBOOK}")
