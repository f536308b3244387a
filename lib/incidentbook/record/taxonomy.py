"""The four facets a case is counted and browsed by, and their allowed values.

The default taxonomy ships as templates/taxonomy.yaml. Users extend it with a file of the
same shape: a value with a known id overrides that value's fields, a new id is added.
Values form a tree per facet (a parent id), so a page for "storage" can gather cases
tagged with "shared-filesystem" too.
"""

from __future__ import annotations

import difflib
import os
import re
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from incidentbook.errors import TaxonomyError, UnknownFacetValue, invalid
from incidentbook.paths import resource
from incidentbook.yamlio import read_yaml, sentences

FACETS: tuple[str, ...] = ("root_cause", "component", "symptom", "contributing_factor")
"""Facet names, in the order the library page shows them."""

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
_SLUG_RE = re.compile(SLUG)


class FacetValue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=SLUG, description="Stable slug used in records.")
    label: str = Field(min_length=1, description="Human-readable name.")
    description: str = Field(min_length=1, description="One line saying what it covers.")
    parent: str | None = Field(None, pattern=SLUG, description="Broader value of the same facet.")


class Facet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    label: str
    description: str = ""
    values: list[FacetValue]

    @model_validator(mode="after")
    def _ids_unique_and_parents_known(self) -> Facet:
        seen: set[str] = set()
        for value in self.values:
            if value.id in seen:
                raise ValueError(f"value id {value.id!r} appears twice")
            seen.add(value.id)
        for value in self.values:
            if value.parent is not None and value.parent not in seen:
                raise ValueError(
                    f"value {value.id!r} names parent {value.parent!r}, which is not defined"
                )
        by_id = {v.id: v for v in self.values}
        for value in self.values:
            chain, node = {value.id}, value
            while node.parent is not None:
                if node.parent in chain:
                    raise ValueError(f"parents of {value.id!r} form a cycle")
                chain.add(node.parent)
                node = by_id[node.parent]
        if "unknown" not in seen:
            raise ValueError("every facet needs the value 'unknown'")
        return self


class Taxonomy(BaseModel):
    """All four facets; look-ups by facet name and id."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    facets: dict[str, Facet]

    @model_validator(mode="after")
    def _all_facets_present(self) -> Taxonomy:
        missing = [f for f in FACETS if f not in self.facets]
        unknown = [f for f in self.facets if f not in FACETS]
        if missing or unknown:
            raise ValueError(
                f"facets must be exactly {', '.join(FACETS)}"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; not a facet: {', '.join(unknown)}" if unknown else "")
            )
        return self

    def ids(self, facet: str) -> list[str]:
        return [v.id for v in self.facets[facet].values]

    def value(self, facet: str, value_id: str) -> FacetValue:
        for value in self.facets[facet].values:
            if value.id == value_id:
                return value
        raise UnknownFacetValue(facet, value_id, self.suggest(facet, value_id))

    def suggest(self, facet: str, value_id: str, n: int = 3) -> list[str]:
        """Nearest known ids: close in spelling first, then ids sharing a word with the value."""
        ids = self.ids(facet)
        close = difflib.get_close_matches(value_id, ids, n=n, cutoff=0.6)
        words = set(value_id.split("-"))
        by_word = [i for i in ids if words & set(i.split("-")) and i not in close]
        return (close + by_word)[:n]

    def check(self, facet: str, value_id: str) -> str:
        """Return the id if known, else raise UnknownFacetValue with suggestions."""
        self.value(facet, value_id)
        return value_id

    def ancestors(self, facet: str, value_id: str) -> list[str]:
        """The value's parents, nearest first."""
        chain: list[str] = []
        node = self.value(facet, value_id)
        while node.parent is not None:
            chain.append(node.parent)
            node = self.value(facet, node.parent)
        return chain

    def tree(self, facet: str) -> list[tuple[FacetValue, int]]:
        """The facet's values depth first (each parent followed by its children), with depth."""
        out: list[tuple[FacetValue, int]] = []

        def visit(value: FacetValue, depth: int) -> None:
            out.append((value, depth))
            for child in self.facets[facet].values:
                if child.parent == value.id:
                    visit(child, depth + 1)

        for value in self.facets[facet].values:
            if value.parent is None:
                visit(value, 0)
        return out

    def children(self, facet: str, value_id: str) -> list[str]:
        return [v.id for v in self.facets[facet].values if v.parent == value_id]

    def merged(self, extension: dict) -> Taxonomy:
        """This taxonomy with a user's file laid over it: same id overrides, new id is added."""
        base = self.model_dump(mode="json", exclude_none=True)
        ext_facets = (extension or {}).get("facets") or {}
        if not isinstance(ext_facets, dict):
            raise TaxonomyError("the extension's 'facets' must be a mapping of facet name to facet")
        for name, facet in ext_facets.items():
            if name not in base["facets"]:
                raise TaxonomyError(
                    f"the extension names facet {name!r}; the facets are {', '.join(FACETS)}"
                )
            target = base["facets"][name]
            for key in ("label", "description"):
                if key in (facet or {}):
                    target[key] = facet[key]
            index = {v["id"]: v for v in target["values"]}
            for value in (facet or {}).get("values") or []:
                if not isinstance(value, dict) or "id" not in value:
                    raise TaxonomyError(f"facet {name!r}: every value needs an 'id'; got {value!r}")
                if value["id"] in index:
                    index[value["id"]].update(value)
                else:
                    target["values"].append(value)
                    index[value["id"]] = value
        return _validate(base, "the merged taxonomy")


def _validate(data: object, where: str) -> Taxonomy:
    try:
        return Taxonomy.model_validate(data)
    except ValidationError as exc:
        raise TaxonomyError(invalid(exc, "taxonomy", where)) from None


def _read_yaml(path: Path) -> object:
    return read_yaml(path, sentences(TaxonomyError, f"taxonomy file {path}"))


@lru_cache(maxsize=8)
def _load_cached(extension: str | None) -> Taxonomy:
    default_path = resource("taxonomy.yaml")
    base = _validate(_read_yaml(default_path), str(default_path))
    if extension is None:
        return base
    data = _read_yaml(Path(extension))
    if not isinstance(data, dict):
        raise TaxonomyError(f"taxonomy file {extension} must hold a mapping with a 'facets' key")
    return base.merged(data)


ENV = "INCIDENTBOOK_TAXONOMY"
"""The taxonomy extension every loader uses when none is passed: CLI, workbook, packs,
catalogs, records."""


def load_taxonomy(extension: Path | str | None = None) -> Taxonomy:
    """The default taxonomy, merged with the user's file: the one given, else the one
    INCIDENTBOOK_TAXONOMY names, else none (the bundled taxonomy alone)."""
    extension = extension or os.environ.get(ENV) or None
    return _load_cached(str(Path(extension).resolve()) if extension else None)


def taxonomy_of(taxonomy: Taxonomy | Path | str | None) -> Taxonomy:
    """A taxonomy as the loaders take it: one already loaded, an extension file, or None
    for load_taxonomy()'s."""
    return taxonomy if isinstance(taxonomy, Taxonomy) else load_taxonomy(taxonomy)
