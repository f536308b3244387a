"""Where an incident's data comes from: the incident folder, or a metrics server."""

from incidentbook.sources.folder import (
    FolderSource,
    LoadReport,
    Metrics,
    MetricsError,
    NoDataError,
    Source,
    find_gaps,
    open_source,
    register,
)

__all__ = [
    "FolderSource",
    "LoadReport",
    "Metrics",
    "MetricsError",
    "NoDataError",
    "Source",
    "find_gaps",
    "open_source",
    "register",
]
