"""incidentbook: postmortem workbooks for GPU training clusters.

    import incidentbook as ib

    inv = ib.investigate("data/incidents/smollm3-storage")   # metrics and logs, analysed
    record = ib.draft(inv)                                   # the case record, drafted
    ib.publish(record, {}, "out/smollm3")                    # case.json and report.html
    ib.run("data/incidents/smollm3-storage", "out/smollm3")  # or the whole workbook

The flow is one package per stage (sources -> metrics, logs -> record -> charts,
outputs; notebook runs it all); README's architecture section has the map and the
plug-in points. The heavier entry points are imported on first use, so importing the
package (as the CLI does for every command) stays cheap.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

from incidentbook import (
    _allocator,  # noqa: F401  (first: it sets an option polars reads as it loads)
    _compat,
)
from incidentbook.errors import (
    IncidentbookError,
    Problem,
    RecordFormatError,
    RecordInvalid,
    TaxonomyError,
    UnknownFacetValue,
)
from incidentbook.record.model import SCHEMA_VERSION, CaseRecord
from incidentbook.record.store import load_record, save_record
from incidentbook.record.taxonomy import Taxonomy, load_taxonomy
from incidentbook.window import TimeWindow

try:
    __version__ = version("incidentbook")
except PackageNotFoundError:  # a source tree on sys.path, not installed
    __version__ = "0+unknown"

_LAZY = {
    "Investigation": "incidentbook.investigation",
    "investigate": "incidentbook.investigation",
    "open_source": "incidentbook.sources.base",
    "draft": "incidentbook.record.draft",
    "publish": "incidentbook.outputs.publish",
    "run": ("incidentbook.notebook.runner", "run_workbook"),
    "regen": "incidentbook.notebook.runner",
    # The errors of the stages, beside those of errors.py.
    "WindowError": "incidentbook.window",
    "IncidentFolderError": "incidentbook.incident",
    "MetricsError": "incidentbook.metrics.data",
    "NoDataError": "incidentbook.metrics.data",
    "SignalPackError": "incidentbook.metrics.signals",
    "LogsError": "incidentbook.logs.data",
    "CatalogError": "incidentbook.logs.signatures",
    "WorkbookFailed": "incidentbook.notebook.runner",
    "RegistryError": "incidentbook.registry",
}

__all__ = [
    "SCHEMA_VERSION",
    "CaseRecord",
    "CatalogError",
    "IncidentFolderError",
    "IncidentbookError",
    "Investigation",
    "LogsError",
    "MetricsError",
    "NoDataError",
    "Problem",
    "RecordFormatError",
    "RecordInvalid",
    "RegistryError",
    "SignalPackError",
    "Taxonomy",
    "TaxonomyError",
    "TimeWindow",
    "UnknownFacetValue",
    "WindowError",
    "WorkbookFailed",
    "__version__",
    "draft",
    "investigate",
    "load_record",
    "load_taxonomy",
    "open_source",
    "publish",
    "regen",
    "run",
    "save_record",
]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'incidentbook' has no attribute {name!r}")
    module, attribute = _LAZY[name] if isinstance(_LAZY[name], tuple) else (_LAZY[name], name)
    value = getattr(import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


_compat.install()
