"""Where an incident's data comes from: the incident folder, or a server.

The contract (Source: `metrics(window, signals)` and `logs(window)`) and the registry of
sources by URI scheme are in sources.base; the folder source in sources.folder, its
metrics files in sources.files; the Prometheus HTTP API in sources.prometheus, on the
shared HTTP client of sources.http.
"""

from incidentbook.metrics.data import (
    LoadReport,
    Metrics,
    MetricsError,
    MetricsReceipt,
    NoDataError,
    find_gaps,
)
from incidentbook.sources.base import SOURCES, Source, SourceFactory, open_source, register
from incidentbook.sources.folder import FolderSource, open_folder

__all__ = [
    "SOURCES",
    "FolderSource",
    "LoadReport",
    "Metrics",
    "MetricsError",
    "MetricsReceipt",
    "NoDataError",
    "Source",
    "SourceFactory",
    "find_gaps",
    "open_folder",
    "open_source",
    "register",
]
