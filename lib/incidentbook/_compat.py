"""Old import paths (incidentbook.analysis, incidentbook.synth, ...) for one release.

Before the stage packages, every module sat at the package's top. Importing an old path
gives the module that now holds its contents, with a DeprecationWarning naming the new
path. The old name is an alias of the new module (not a copy), so monkeypatching or
registering through it reaches the same objects.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

MOVED: dict[str, str] = {
    "analysis": "incidentbook.metrics.analysis",
    "signals": "incidentbook.metrics.signals",
    "frames": "incidentbook.metrics.frames",
    "prometheus": "incidentbook.sources.prometheus",
    "logreaders": "incidentbook.logs.read",
    "signatures": "incidentbook.logs.signatures",
    "mining": "incidentbook.logs.templates",
    "failures": "incidentbook.logs.analysis",
    "taxonomy": "incidentbook.record.taxonomy",
    "store": "incidentbook.record.store",
    "draft": "incidentbook.record.draft",
    "similar": "incidentbook.record.similar",
    "publish": "incidentbook.outputs.publish",
    "render": "incidentbook.outputs.render",
    "library": "incidentbook.outputs.site",
    "export": "incidentbook.outputs.export",
    "report": "incidentbook.outputs.console",
    "workbook": "incidentbook.notebook.cells",
    "batch": "incidentbook.notebook.runner",
    "form": "incidentbook.notebook.form",
    "synth": "incidentbook.scenarios._legacy_synth",
    "kernel_lines": "incidentbook.scenarios.kernel_lines",
    "pipeline": "incidentbook.investigation",
}
"""Old module name (under incidentbook) -> the module that holds its contents now."""


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname: str, path=None, target=None):
        prefix, _, name = fullname.partition(".")
        if prefix != "incidentbook" or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = MOVED[spec.name.partition(".")[2]]
        warnings.warn(
            f"{spec.name} moved to {new}; the old path goes away in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
