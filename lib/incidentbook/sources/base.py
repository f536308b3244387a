"""The source contract, and the registry that opens a source from a URI.

A source gives an incident window's metrics, its logs, or both:

    metrics(window, signals) -> Metrics | None   the signals' canonical frame and receipt
    logs(window) -> Logs | None                  the log lines' canonical frame and receipt

None says "this source has none" (a Prometheus server has no logs; a folder without a
logs/ folder has none either); a source that has them but cannot give them raises a
MetricsError or LogsError that says why. Sources are opened by URI scheme through SOURCES:
a factory `factory(uri, **options) -> Source` per scheme (papermill's I/O handlers have
the same shape). A plain path or `file://` is the incident folder.

A new source is a module with a class that has these two methods and a factory, and one
registration: a default below, or an entry point in the group `incidentbook.sources`:

    [project.entry-points."incidentbook.sources"]
    "loki+https" = "my_package.loki:open_loki"
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import polars as pl

from incidentbook.errors import IncidentbookError
from incidentbook.registry import Lazy, Registry
from incidentbook.window import TimeWindow

if TYPE_CHECKING:
    from incidentbook.logs.read import Logs
    from incidentbook.metrics.data import Metrics
    from incidentbook.metrics.signals import Signal


# The labels that name a sample's host, in the order they are trusted: an explicit `node`,
# dcgm-exporter's `Hostname` (the node's own name, where `instance` may be a pod's address),
# then the scrape target `instance` with its port taken off (node_exporter's `host:9100`).
HOST_LABELS = ("node", "Hostname", "instance")


def host_of(columns: list[str] | tuple[str, ...]) -> pl.Expr:
    """A sample's host from whichever of HOST_LABELS the columns hold (null if none)."""
    hosts = [
        pl.col(h).cast(pl.String).str.replace(r":\d+$", "")
        if h == "instance"
        else pl.col(h).cast(pl.String)
        for h in HOST_LABELS
        if h in columns
    ]
    return pl.coalesce(hosts) if hosts else pl.lit(None, pl.String)


@runtime_checkable
class Source(Protocol):
    """Where a window's metrics and logs come from (see the module's docstring)."""

    def metrics(self, window: TimeWindow, signals: list[Signal]) -> Metrics | None: ...

    def logs(self, window: TimeWindow) -> Logs | None: ...


SourceFactory = Callable[..., Source]
"""`factory(uri, **options)`: options such as `selectors` (a cluster's label matchers)
are passed to every factory, which ignores those it has no use for."""


def _factory(name: str, value: object) -> SourceFactory:
    if not callable(value):
        raise TypeError(f"expected a factory (uri, **options) -> Source, got {value!r}")
    return value


SOURCES: Registry[SourceFactory] = Registry(
    "source",
    "incidentbook.sources",
    {
        "file": "incidentbook.sources.folder:open_folder",
        "prometheus+http": Lazy("incidentbook.sources.prometheus:open_prometheus", "httpx"),
        "prometheus+https": Lazy("incidentbook.sources.prometheus:open_prometheus", "httpx"),
        "trainer": "incidentbook.sources.trainer:open_trainer_log",
        "tensorboard": Lazy("incidentbook.sources.tensorboard:open_tensorboard", "tensorboard"),
    },
    check=_factory,
)
"""URI scheme -> the factory of its sources."""


def scheme_of(uri: str | Path) -> str:
    text = str(uri)
    return text.split("://", 1)[0] if "://" in text else "file"


def open_source(uri: str | Path, **options) -> Source:
    """The source for a folder path or a URI (`file://...`, `prometheus+http://...`);
    `options` go to the source (a Prometheus source takes `selectors`)."""
    text = str(uri)
    scheme = scheme_of(text)
    if scheme not in SOURCES:
        raise IncidentbookError(
            f"no source for {scheme!r} URIs ({text}); known: {', '.join(SOURCES.names())}"
        )
    return SOURCES.get(scheme)(text.removeprefix("file://"), **options)


def register(scheme: str) -> Callable[[SourceFactory], SourceFactory]:
    """Decorator registering a source factory under a URI scheme (replacing any)."""

    def add(factory: SourceFactory) -> SourceFactory:
        SOURCES.register(scheme, factory, replace=True)
        return factory

    return add
