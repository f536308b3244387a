"""Old import paths (incidentbook.analysis, incidentbook.synth, ...) for one release,
and one import deferred for start-up time.

Before the stage packages, every module sat at the package's top. Importing an old path
gives the module that now holds its contents, with a DeprecationWarning naming the new
path. The old name is an alias of the new module (not a copy), so monkeypatching or
registering through it reaches the same objects.

jsonschema (imported by altair, and by nbformat under papermill) imports
rfc3987_syntax for its `iri` format check when that package is installed (JupyterLab's
dependencies bring it), and rfc3987_syntax builds an Earley parser of RFC 3987's grammar
as it is imported: one to three seconds of every run's start, in the command and again
in the kernel, for a check nothing of ours asks for (jsonschema issue 1428).
`_DeferredIRI` imports it as usual but runs its body on first use instead.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
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


class _DeferredIRI(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """rfc3987_syntax found where it is installed, its body run at first use.

    The module is the real package (its spec, path and file); importing it runs nothing.
    `is_valid_syntax`, which jsonschema takes by name at import, is a stand-in that runs
    the body and then calls the real function; any other name runs the body first. After
    that the module is the package exactly as an ordinary import makes it.
    """

    NAME = "rfc3987_syntax"

    def __init__(self) -> None:
        self._loader: importlib.abc.Loader | None = None

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname != self.NAME:
            return None
        sys.meta_path.remove(self)  # the real finders answer from here on
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        self._loader, spec.loader = spec.loader, self
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # the default module, set up from the spec

    def exec_module(self, module: ModuleType) -> None:
        loader, lock, done = self._loader, threading.Lock(), []
        assert loader is not None

        def run_body() -> None:
            with lock:
                if not done:
                    del module.__getattr__
                    module.__spec__.loader = loader
                    loader.exec_module(module)
                    done.append(True)

        def is_valid_syntax(term: str, value: str) -> bool:
            run_body()
            return module.is_valid_syntax(term, value)

        def __getattr__(name: str):
            if name.startswith("__"):
                raise AttributeError(name)
            run_body()
            return getattr(module, name)

        module.is_valid_syntax = is_valid_syntax
        module.__getattr__ = __getattr__


class _Package(ModuleType):
    """The incidentbook package. Importing a submodule sets the package's attribute of its
    name to it, an old path's alias included: `import incidentbook.draft` would replace the
    package's function `draft` with the module. Where the package exports a name of its own
    (`draft`, `publish`), the old path's module does not take it."""

    def __setattr__(self, name: str, value: object) -> None:
        own = name in self.__dict__.get("__all__", ())
        if isinstance(value, ModuleType) and name in MOVED and own:
            return
        super().__setattr__(name, value)


def install() -> None:
    package = sys.modules.get("incidentbook")
    if package is not None and type(package) is ModuleType:
        package.__class__ = _Package
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.append(_Alias())
    if _DeferredIRI.NAME not in sys.modules and not any(
        isinstance(f, _DeferredIRI) for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _DeferredIRI())
