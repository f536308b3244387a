"""The log signature catalog (templates/signatures.yaml) and matching it against log lines.

Matching is vectorised over the frame: each signature is one polars `str.contains` over
the messages, and `coalesce` keeps the first that matched, in catalog order (specific
signatures come first in the file). Fields (the Xid code, a PCI address, the link width
wanted and got) are extracted only on the lines a signature took.
"""

from __future__ import annotations

import re._constants as sre_constants
import re._parser as sre_parser
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import polars as pl
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from incidentbook.errors import IncidentbookError, invalid
from incidentbook.logs.severity import SEVERITY_RANK as SEVERITY_RANK
from incidentbook.logs.severity import SignatureSeverity
from incidentbook.paths import resource
from incidentbook.record.taxonomy import SLUG, Taxonomy, taxonomy_of
from incidentbook.yamlio import read_yaml, sentences

Severity = SignatureSeverity


class CatalogError(IncidentbookError):
    """A signature catalog that cannot be used."""


class SeverityRule(BaseModel):
    """A signature's severity from what its line says: when the field `field` took part in
    the match (and, with `equals`, holds one of those values, any case), the line's
    severity is `severity` instead of the signature's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    equals: list[str] | None = None
    severity: Severity


class Signature(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=SLUG)
    label: str
    pattern: str
    component: str
    symptom: str
    severity: Severity
    severity_by: list[SeverityRule] = Field(default_factory=list)
    # Named groups that name a server outside the job (the NFS server every client lost):
    # where one server is named, it is the host at fault, not the clients that say so.
    servers: list[str] = Field(default_factory=list)
    action: str | None = None
    explanation: str
    reference: str

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, pattern: str) -> str:
        try:
            pl.Series(["probe"]).str.contains(pattern)
        except pl.exceptions.PolarsError as exc:
            reason = str(exc).strip().splitlines()[-1]
            raise ValueError(f"the pattern does not compile as a Rust regex: {reason}") from None
        return pattern

    @property
    def fields(self) -> list[str]:
        return _fields(self.pattern)

    @model_validator(mode="after")
    def _rules_name_fields(self) -> Signature:
        for key, names in (
            ("severity_by", [r.field for r in self.severity_by]),
            ("servers", self.servers),
        ):
            unknown = [n for n in names if n not in _fields(self.pattern)]
            if unknown:
                raise ValueError(
                    f"{key} names {', '.join(unknown)}, not a named group of the pattern"
                )
        return self


@lru_cache(maxsize=256)
def _fields(pattern: str) -> list[str]:
    return list(pl.Series([""]).str.extract_groups(pattern).struct.fields)


class XidCode(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    code: int = Field(ge=0)
    name: str
    meaning: str
    severity: Severity
    component: str
    action: str


class Catalog(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = 1
    signatures: list[Signature]
    xid_codes: list[XidCode] = Field(default_factory=list)

    def get(self, signature_id: str) -> Signature:
        for signature in self.signatures:
            if signature.id == signature_id:
                return signature
        raise CatalogError(f"no signature {signature_id!r} in the catalog")

    def check_taxonomy(self, taxonomy: Taxonomy) -> None:
        problems = []
        for s in self.signatures:
            for facet, value in (("component", s.component), ("symptom", s.symptom)):
                try:
                    taxonomy.check(facet, value)
                except IncidentbookError as exc:
                    problems.append(f"signature {s.id}: {exc}")
        for x in self.xid_codes:
            try:
                taxonomy.check("component", x.component)
            except IncidentbookError as exc:
                problems.append(f"xid {x.code}: {exc}")
        if problems:
            raise CatalogError(
                "the signature catalog names unknown taxonomy values:\n  " + "\n  ".join(problems)
            )

    def xid_frame(self) -> pl.DataFrame:
        rows = [x.model_dump() for x in self.xid_codes]
        schema = {
            "code": pl.Int64,
            "name": pl.String,
            "meaning": pl.String,
            "severity": pl.String,
            "component": pl.String,
            "action": pl.String,
        }
        return pl.DataFrame(rows, schema=schema).rename(
            lambda c: f"xid_{c}" if c != "code" else "xid"
        )


def _read(path: Path) -> dict:
    return read_yaml(
        path,
        sentences(CatalogError, f"signature catalog {path}"),
        mapping="must be a mapping with `signatures`",
    )


def _validate(data: dict, where: str) -> Catalog:
    def by_id(loc: tuple) -> tuple:
        """A signature by its id rather than its index in the list."""
        if len(loc) >= 2 and loc[0] == "signatures" and isinstance(loc[1], int):
            sig = data["signatures"][loc[1]]
            if isinstance(sig, dict) and "id" in sig:
                return (loc[0], str(sig["id"]), *loc[2:])
        return loc

    try:
        return Catalog.model_validate(data)
    except ValidationError as exc:
        raise CatalogError(invalid(exc, "signature catalog", where, names=by_id)) from None


@lru_cache(maxsize=4)
def _load(extension: str | None) -> Catalog:
    base = _read(resource("signatures.yaml"))
    if extension:
        ext = _read(Path(extension))
        by_id = {s["id"]: i for i, s in enumerate(base["signatures"])}
        for sig in ext.get("signatures") or []:
            if isinstance(sig, dict) and sig.get("id") in by_id:
                base["signatures"][by_id[sig["id"]]] = sig
            else:
                base["signatures"].append(sig)
        codes = {x["code"]: x for x in base.get("xid_codes") or []}
        for x in ext.get("xid_codes") or []:
            codes[x["code"]] = x
        base["xid_codes"] = sorted(codes.values(), key=lambda x: x["code"])
    return _validate(base, extension or "templates/signatures.yaml")


def load_catalog(
    extension: Path | str | None = None, taxonomy: Taxonomy | Path | str | None = None
) -> Catalog:
    """The bundled catalog, with a user's file merged over it (same id replaces in place);
    its components and symptoms are checked against `taxonomy` (default: the bundled one
    with INCIDENTBOOK_TAXONOMY's extension)."""
    catalog = _load(str(Path(extension).resolve()) if extension else None)
    catalog.check_taxonomy(taxonomy_of(taxonomy))
    return catalog


def required_literals(pattern: str) -> list[str] | None:
    """Literal strings one of which every match of `pattern` contains; None if unknown.

    Most log lines match no signature. A multi-literal search (Aho-Corasick, polars
    `str.contains_any`) for these strings throws those lines out before any regex runs.
    The search ignores ASCII case, so the filter keeps every line the regex could match.
    """
    try:
        tree = sre_parser.parse(pattern)
    except Exception:  # Rust-only syntax: no prefilter, the regex decides alone
        return None
    found = _required(list(tree))
    return sorted(found) if found else None


def _required(items: list) -> set[str] | None:
    runs: list[set[str]] = []
    literal = ""
    for op, arg in items:
        if op is sre_constants.LITERAL:
            literal += chr(arg)
            continue
        if literal:
            runs.append({literal})
            literal = ""
        inner = None
        if op is sre_constants.SUBPATTERN:
            inner = _required(list(arg[3]))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) and arg[0] >= 1:
            inner = _required(list(arg[2]))
        elif op is sre_constants.BRANCH:
            branches = [_required(list(b)) for b in arg[1]]
            inner = set().union(*branches) if all(branches) else None
        if inner:
            runs.append(inner)
    if literal:
        runs.append({literal})
    runs = [r for r in runs if min(map(len, r)) >= 3]
    # The most selective requirement: the one whose shortest alternative is longest.
    return max(runs, key=lambda r: (min(map(len, r)), -len(r))) if runs else None


_PCI = r"(?:\bPCI:|\b)([0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.[0-7])?)\b"
"""A PCI address as the kernel and the NVIDIA driver print it (`0000:3b:00.0`, `PCI:0000:3b:00`)."""


def _literal_table(catalog: Catalog) -> tuple[list[str], pl.DataFrame, list[int]]:
    """(literals, literal -> signature index, signatures with no literal: always tried)."""
    owners: dict[str, set[int]] = {}
    always: list[int] = []
    for index, signature in enumerate(catalog.signatures):
        literals = _literals(signature.pattern)
        if not literals:
            always.append(index)
        for literal in literals or []:
            owners.setdefault(literal.lower(), set()).add(index)
    table = pl.DataFrame(
        [(lit, i) for lit, idx in sorted(owners.items()) for i in sorted(idx)],
        schema={"literal": pl.String, "index": pl.UInt32},
        orient="row",
    )
    return sorted(owners), table, always


@lru_cache(maxsize=1024)
def _literals(pattern: str) -> tuple[str, ...] | None:
    got = required_literals(pattern)
    return tuple(got) if got else None


def _candidates(
    tagged: pl.DataFrame, column: str, catalog: Catalog, literals, table, always
) -> pl.DataFrame:
    """(_row, index, text) for each line and each signature whose literals the line holds.

    One Aho-Corasick pass finds every required literal; a regex then runs only on the
    lines that hold one of its own signature's literals. Signatures whose literals could
    not be worked out are candidates for every line.
    """
    text = pl.col(column)
    found = (
        tagged.select(
            "_row",
            literal=text.str.extract_many(literals, ascii_case_insensitive=True, overlapping=True),
        )
        .filter(pl.col("literal").list.len() > 0)
        .explode("literal")
        .with_columns(pl.col("literal").str.to_lowercase())
        .join(table, on="literal")
        .select("_row", "index")
    )
    if always:
        every = tagged.select("_row").join(
            pl.DataFrame({"index": always}, schema={"index": pl.UInt32}), how="cross"
        )
        found = pl.concat([found, every])
    return found.unique().join(tagged.select("_row", column), on="_row")


_MATCHED = {
    "signature": pl.String,
    "fields": pl.String,
    "xid": pl.Int64,
    "pci": pl.String,
    "signature_severity": pl.String,
}


def _rule_severity(signature: Signature, groups: pl.Expr) -> pl.Expr:
    """A matched line's severity by the first of its signature's severity_by rules that
    applies; null when none does."""
    chain = None
    for rule in signature.severity_by:
        value = groups.struct.field(rule.field)
        applies = value.is_not_null()
        if rule.equals is not None:
            applies = applies & value.str.to_lowercase().is_in([v.lower() for v in rule.equals])
        step = pl.lit(rule.severity, pl.String)
        chain = pl.when(applies).then(step) if chain is None else chain.when(applies).then(step)
    return chain.otherwise(None) if chain is not None else pl.lit(None, pl.String)


def _match_distinct(distinct: pl.DataFrame, column: str, catalog: Catalog) -> pl.DataFrame:
    """Each distinct text that takes a signature, with its signature, fields, xid, pci and
    severity (the line's own: its signature's severity_by rule's, its Xid code's, or the
    signature's)."""
    text = pl.col(column)
    tagged = distinct.with_row_index("_row")
    literals, table, always = _literal_table(catalog)
    candidates = _candidates(tagged, column, catalog, literals, table, always)
    hits = [pl.DataFrame(schema={"_row": pl.UInt32, "index": pl.UInt32})]
    # Split once by signature (not one filter per signature of the catalog: most have no
    # candidate, and each filter is a call of its own).
    by_index = candidates.partition_by("index", as_dict=True)
    for index, signature in enumerate(catalog.signatures):
        mine = by_index.get((index,))
        if mine is not None:
            hits.append(mine.filter(text.str.contains(signature.pattern)).select("_row", "index"))
    ids = pl.DataFrame(
        {"index": range(len(catalog.signatures)), "signature": [s.id for s in catalog.signatures]},
        schema={"index": pl.UInt32, "signature": pl.String},
    )
    found = (
        pl.concat(hits)
        .group_by("_row")
        .agg(pl.col("index").min())  # the first signature in catalog order wins
        .join(ids, on="index")
        .join(tagged.select("_row", column), on="_row")
    )
    parts = [pl.DataFrame(schema={column: pl.String, **_MATCHED})]
    xids = {x.code: x.severity for x in catalog.xid_codes}
    by_signature = found.partition_by("signature", as_dict=True)
    for signature in catalog.signatures:
        hit = by_signature.get((signature.id,))
        if hit is None:
            continue
        fields = signature.fields
        groups = text.str.extract_groups(signature.pattern)
        # The Xid code: `xid`, or a group named `..._xid` where a line states it otherwise
        # (a pattern names each group once: `RC all channels for critical error 79`).
        coded = [f for f in fields if f == "xid" or f.endswith("_xid")]
        xid = (
            pl.coalesce(*(groups.struct.field(f) for f in coded)).cast(pl.Int64, strict=False)
            if coded
            else pl.lit(None, pl.Int64)
        )
        named = [groups.struct.field(f) for f in ("pci", "device", "smi_pci") if f in fields]
        parts.append(
            hit.select(
                column,
                "signature",
                fields=groups.struct.json_encode() if fields else pl.lit(None, pl.String),
                xid=xid,
                # The device the line is about: the signature's own group, else the first
                # PCI address the line names.
                pci=pl.coalesce(*named, text.str.extract(_PCI, 1)),
                # What the line says (a severity_by rule) before what its Xid code
                # usually means, before the signature's own severity.
                signature_severity=pl.coalesce(
                    _rule_severity(signature, groups),
                    xid.replace_strict(xids, default=None, return_dtype=pl.String),
                    pl.lit(signature.severity, pl.String),
                ),
            )
        )
    return pl.concat(parts, how="vertical_relaxed")


def holds_literal(text: pl.Expr, literals: list[str]) -> pl.Expr:
    """Whether each text holds one of `literals`, ASCII case ignored (as the Aho-Corasick
    search of `str.contains_any(..., ascii_case_insensitive=True)` says). For ASCII
    literals this is one regex alternation in ASCII mode, `(?i-u)`, which folds exactly
    the same letters: the regex engine's DFA runs it about twice as fast over a million
    lines as the Aho-Corasick automaton of some 300 patterns."""
    if not literals or not all(lit.isascii() for lit in literals):
        return text.str.contains_any(literals, ascii_case_insensitive=True)
    escaped = ("".join(f"\\{c}" if c in _META else c for c in lit) for lit in literals)
    return text.str.contains("(?i-u)(?:" + "|".join(escaped) + ")")


_META = set(r"\.+*?()|[]{}^$#&-~")
"""The characters the Rust regex syntax gives a meaning to (regex_syntax::escape's set)."""


def recogniser(catalog: Catalog) -> Callable[[pl.Series], pl.Series]:
    """Messages -> whether a signature of the catalog matches each: what the readers keep
    of a file in no known format (logs.read.read_logs's `recognise`)."""

    def recognise(messages: pl.Series) -> pl.Series:
        got = match(pl.DataFrame({"message": messages}, schema={"message": pl.String}), catalog)
        return got.get_column("signature").is_not_null()

    return recognise


def match(frame: pl.DataFrame, catalog: Catalog, column: str = "message") -> pl.DataFrame:
    """The frame with `signature` (first match, else null), `fields` (JSON of its named
    groups), `xid`, `pci` (the device the line names) and `signature_severity` (the line's
    own: see _match_distinct) added.

    Lines that hold none of the catalog's literals are left out first (one pass over every
    line); the others are matched once per distinct text (logs repeat themselves: a
    message logged on every host is matched once), and what matched is put back at the
    rows that hold it, by row number (no join of every line on its text)."""
    if column in _MATCHED:
        raise CatalogError(f"cannot match a column named {column!r}")
    text = pl.col(column)
    literals, _, always = _literal_table(catalog)
    candidates = frame.select(column, _row=pl.int_range(pl.len(), dtype=pl.UInt32))
    if not always:
        candidates = candidates.filter(holds_literal(text, literals))
    rows = candidates.drop_nulls(column).group_by(column).agg("_row")
    table = _match_distinct(rows.select(column), column, catalog)
    hits = table.join(rows, on=column).explode("_row")
    drop = [c for c in _MATCHED if c in frame.columns]
    at = hits.get_column("_row")
    return frame.drop(drop).with_columns(
        pl.repeat(None, frame.height, dtype=dtype, eager=True)
        .alias(name)
        .scatter(at, hits.get_column(name).cast(dtype))
        for name, dtype in _MATCHED.items()
    )
