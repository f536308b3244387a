"""Similar past cases: the library's records closest to this one, and why.

Closeness is counted over the four facets, with the taxonomy's tree: sharing a value
counts fully, sharing only a broader value (both under `storage`) counts half, and
`unknown` counts for nothing. Each facet's overlap is a weighted Jaccard index, and the
facets are weighted by how much they say about a failure: what broke and where (root
cause, component, symptom) before what made it worse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from incidentbook.record.model import CaseRecord
from incidentbook.record.store import load_records
from incidentbook.record.taxonomy import FACETS, Taxonomy, load_taxonomy

WEIGHTS = {"root_cause": 0.25, "component": 0.3, "symptom": 0.35, "contributing_factor": 0.1}
BROADER = 0.5


@dataclass
class Match:
    case: CaseRecord
    score: float
    reasons: list[str] = field(default_factory=list)


def _expanded(taxonomy: Taxonomy, facet: str, ids: list[str]) -> dict[str, float]:
    """Each value with weight 1, and each of its broader values with weight BROADER."""
    weights: dict[str, float] = {}
    for value in ids:
        if value == "unknown":
            continue
        weights[value] = 1.0
        for parent in taxonomy.ancestors(facet, value):
            weights[parent] = max(weights.get(parent, 0.0), BROADER)
    return weights


def _overlap(a: dict[str, float], b: dict[str, float]) -> float:
    keys = set(a) | set(b)
    if not keys:
        return 0.0
    shared = sum(min(a.get(k, 0.0), b.get(k, 0.0)) for k in keys)
    return shared / sum(max(a.get(k, 0.0), b.get(k, 0.0)) for k in keys)


def _labels(taxonomy: Taxonomy, facet: str, ids: list[str], most: int = 4) -> str:
    names = [taxonomy.value(facet, i).label.lower() for i in ids]
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def _reasons(query: CaseRecord, case: CaseRecord, taxonomy: Taxonomy) -> list[str]:
    reasons = []
    exact = {
        f: sorted(set(query.facet_values(f)) & set(case.facet_values(f)) - {"unknown"})
        for f in FACETS
    }
    if exact["symptom"] and exact["component"]:
        reasons.append(
            f"both show {_labels(taxonomy, 'symptom', exact['symptom'])} "
            f"involving {_labels(taxonomy, 'component', exact['component'])}"
        )
    elif exact["symptom"]:
        reasons.append(f"both show {_labels(taxonomy, 'symptom', exact['symptom'])}")
    elif exact["component"]:
        reasons.append(f"both involve {_labels(taxonomy, 'component', exact['component'])}")
    if exact["root_cause"]:
        reasons.append(
            f"the same root cause: {_labels(taxonomy, 'root_cause', exact['root_cause'])}"
        )
    if exact["contributing_factor"]:
        shared = _labels(taxonomy, "contributing_factor", exact["contributing_factor"])
        reasons.append(f"made worse by the same: {shared}")
    for facet in FACETS:
        mine = _expanded(taxonomy, facet, query.facet_values(facet))
        theirs = _expanded(taxonomy, facet, case.facet_values(facet))
        broad = sorted(
            k
            for k in set(mine) & set(theirs)
            if (mine[k] < 1 or theirs[k] < 1)
            and k not in exact[facet]
            and not any(k in taxonomy.ancestors(facet, e) for e in exact[facet])
        )
        if broad:
            label = taxonomy.facets[facet].label.lower()
            reasons.append(f"related {label}s under {_labels(taxonomy, facet, broad)}")
    if query.evidence and query.evidence.correlations:
        top = query.evidence.correlations[0].signal.replace("_", " ")
        reasons.append(f"here the data ties the symptom to {top}")
    return reasons


def similar_cases(
    query: CaseRecord,
    library: list[CaseRecord] | Path | str,
    *,
    top: int = 5,
    taxonomy: Taxonomy | None = None,
) -> list[Match]:
    """The library's cases closest to `query`, best first, with a reason for each."""
    taxonomy = taxonomy or load_taxonomy()
    cases = load_records(library, taxonomy) if isinstance(library, Path | str) else library
    mine = {f: _expanded(taxonomy, f, query.facet_values(f)) for f in FACETS}
    matches = []
    for case in cases:
        if case.id == query.id:
            continue
        score = sum(
            WEIGHTS[f] * _overlap(mine[f], _expanded(taxonomy, f, case.facet_values(f)))
            for f in FACETS
        )
        if score > 0:
            matches.append(Match(case, round(score, 4), _reasons(query, case, taxonomy)))
    matches.sort(key=lambda m: (-m.score, m.case.id))
    return matches[:top]
