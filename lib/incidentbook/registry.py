"""One registry shape for every plug-in point: sources, log formats, charts, outputs, scenarios.

A registry maps names to entries. Three kinds of entry, in this order of precedence:

* registered in code (`REGISTRY.register(name, entry)`), for tests and notebooks;
* installed by another package under the registry's entry-point group
  (`[project.entry-points."incidentbook.log_formats"]` in its pyproject.toml), so a user's
  package adds a format, a source or a chart without forking, as papermill's engines and
  altair's renderers are extended;
* the defaults, listed by import string ("incidentbook.sources.prometheus:open_prometheus").

Nothing is imported until it is asked for: a default whose optional dependency is missing
costs nothing until then, and then fails with an error naming the package to install.
Entry points are looked up once, on the first question about names.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from incidentbook.errors import IncidentbookError

T = TypeVar("T")
_REQUIRED = object()


class RegistryError(IncidentbookError):
    """A name no registry entry has, or an entry that cannot be loaded."""


@dataclass(frozen=True)
class Lazy:
    """An entry not imported yet: `module:attribute`, and what to pip install if the
    module's dependencies are missing (default: the missing module's name)."""

    target: str
    install: str | None = None
    origin: str = "incidentbook"

    def load(self) -> object:
        module, _, attribute = self.target.partition(":")
        value: object = importlib.import_module(module)
        for part in attribute.split(".") if attribute else []:
            value = getattr(value, part)
        return value


class Registry(Generic[T]):
    """Named entries of one kind, loaded on first use.

    `kind` names an entry in messages ("log format"); `group` is the entry-point group;
    `defaults` maps names to import strings (or Lazy); `check` turns a loaded object into
    an entry or raises ValueError saying what is wrong with it.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        defaults: Mapping[str, str | Lazy] | None = None,
        *,
        check: Callable[[str, object], T] | None = None,
    ):
        self.kind, self.group = kind, group
        self._check = check
        self._defaults: dict[str, Lazy] = {
            name: target if isinstance(target, Lazy) else Lazy(target)
            for name, target in (defaults or {}).items()
        }
        self._plugins: dict[str, Lazy] | None = None
        self._registered: dict[str, T | Lazy] = {}
        self._loaded: dict[str, T] = {}

    # -- what is known ---------------------------------------------------------------------

    def _entry_points(self) -> dict[str, Lazy]:
        if self._plugins is None:
            found = importlib.metadata.entry_points(group=self.group)
            self._plugins = {
                ep.name: Lazy(ep.value, origin=ep.dist.name if ep.dist else ep.value)
                for ep in sorted(found, key=lambda ep: ep.name)
            }
        return self._plugins

    def _source(self, name: str) -> T | Lazy | None:
        for layer in (self._registered, self._entry_points(), self._defaults):
            if name in layer:
                return layer[name]
        return None

    def refresh(self) -> None:
        """Look up installed entry points again (after installing a plug-in package in a
        running kernel)."""
        self._plugins = None
        self._loaded.clear()

    def names(self) -> list[str]:
        """Every name, without loading anything: defaults in their order, then the rest
        (installed packages' by name, then those registered in code, in order)."""
        order = list(self._defaults)
        order += [n for n in self._entry_points() if n not in order]
        order += [n for n in self._registered if n not in order]
        return order

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._source(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    # -- getting entries --------------------------------------------------------------------

    def get(self, name: str, default: object = _REQUIRED) -> T:
        """The entry called `name`, imported now if it was not yet; an unknown name raises
        RegistryError, or gives `default` when one is passed (as a mapping's get does)."""
        if name in self._loaded:
            return self._loaded[name]
        source = self._source(name)
        if source is None:
            if default is not _REQUIRED:
                return default  # type: ignore[return-value]
            known = ", ".join(self.names()) or "none"
            raise RegistryError(f"no {self.kind} named {name!r}; known: {known}")
        value = self._load(name, source) if isinstance(source, Lazy) else source
        entry = self._checked(name, value, source)
        self._loaded[name] = entry
        return entry

    def __getitem__(self, name: str) -> T:
        return self.get(name)

    def entries(self) -> list[tuple[str, T]]:
        """Every entry, loaded, in the order of `names()`."""
        return [(name, self.get(name)) for name in self.names()]

    def _load(self, name: str, lazy: Lazy) -> object:
        try:
            return lazy.load()
        except ModuleNotFoundError as exc:
            missing = (exc.name or "").partition(".")[0]
            if not missing or missing == "incidentbook":
                raise
            install = lazy.install or missing
            raise RegistryError(
                f"the {self.kind} {name!r} needs the Python package {missing!r}, which is "
                f"not installed: pip install {install}"
            ) from None
        except (ImportError, AttributeError) as exc:
            raise RegistryError(
                f"the {self.kind} {name!r} ({lazy.target}, from {lazy.origin}) cannot be "
                f"loaded: {exc}"
            ) from None

    def _checked(self, name: str, value: object, source: object) -> T:
        if self._check is None:
            return value  # type: ignore[return-value]
        try:
            return self._check(name, value)
        except (TypeError, ValueError) as exc:
            where = source.target if isinstance(source, Lazy) else "registered in code"
            raise RegistryError(
                f"the {self.kind} {name!r} ({where}) is not usable: {exc}"
            ) from None

    # -- adding entries ------------------------------------------------------------------------

    def register(self, name: str, entry: T | str, *, replace: bool = False) -> T | str:
        """Add an entry (or an import string) under `name`; returns it, so it can decorate.

        A name already known is refused unless `replace`: two formats quietly claiming
        one name would make detection depend on which was imported last.
        """
        if name in self and not replace:
            raise RegistryError(
                f"a {self.kind} named {name!r} exists already; pass replace=True to replace it"
            )
        self._registered[name] = Lazy(entry, origin="code") if isinstance(entry, str) else entry
        self._loaded.pop(name, None)
        return entry

    def unregister(self, name: str) -> None:
        """Forget an entry registered in code (defaults and installed ones come back)."""
        self._registered.pop(name, None)
        self._loaded.pop(name, None)

    def __setitem__(self, name: str, entry: T) -> None:
        self.register(name, entry, replace=True)

    def __delitem__(self, name: str) -> None:
        if name not in self._registered:
            raise KeyError(name)
        self.unregister(name)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {self.group!r}, names={self.names()!r})"


def instance_of(cls: type) -> Callable[[str, object], object]:
    """A check for registries of dataclass entries: the right type, under its own name."""

    def check(name: str, value: object) -> object:
        if not isinstance(value, cls):
            raise TypeError(f"expected a {cls.__name__}, got {type(value).__name__}")
        own = getattr(value, "name", name)
        if own != name:
            raise ValueError(f"it calls itself {own!r}; register it under that name")
        return value

    return check
