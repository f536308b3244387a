"""The case record: the Incident Library's fields plus the evidence the data gives.

A record is what a postmortem produces. People write the narrative (symptoms, trigger,
lessons, ...); the workbook fills `evidence` from metrics and logs. Facet fields hold
taxonomy ids so cases can be counted and browsed; they are checked against the taxonomy
passed in the validation context (`{"taxonomy": Taxonomy}`), or the default one.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    HttpUrl,
    ValidationInfo,
    field_validator,
    model_validator,
)

from incidentbook.record.checks import Check
from incidentbook.record.taxonomy import SLUG, Taxonomy, load_taxonomy
from incidentbook.window import TimeWindow

SCHEMA_VERSION = "1.0"
"""Bumped on any change that makes an old record invalid or changes a field's meaning."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _taxonomy_from(info: ValidationInfo) -> Taxonomy:
    context = info.context or {}
    return context.get("taxonomy") or load_taxonomy()


def _facet_checker(facet: str):
    def check(value: str, info: ValidationInfo) -> str:
        return _taxonomy_from(info).check(facet, value)

    return check


def _unknown_alone(ids: list[str]) -> list[str]:
    """`unknown` says nothing is known, so it cannot stand beside a known value."""
    others = [i for i in ids if i != "unknown"]
    if "unknown" in ids and others:
        raise ValueError(
            f"'unknown' cannot be chosen together with {', '.join(others)}: remove 'unknown' "
            "(or the others, if it is not known after all)"
        )
    return ids


def FacetIds(facet: str, description: str, min_length: int = 0):
    item = Annotated[str, Field(pattern=SLUG), AfterValidator(_facet_checker(facet))]
    return Annotated[
        list[item],
        AfterValidator(_unknown_alone),
        Field(
            min_length=min_length,
            description=f"{description} Ids from the taxonomy's `{facet}` facet.",
            json_schema_extra={"x-facet": facet},
        ),
    ]


_PARTIAL_DATE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")


def _check_partial_date(value: str) -> str:
    match = _PARTIAL_DATE.match(value)
    if not match:
        raise ValueError(f"{value!r} is not a date; write YYYY, YYYY-MM or YYYY-MM-DD")
    year, month, day = (int(g) if g else None for g in match.groups())
    try:
        date(year, month or 1, day or 1)
    except ValueError as exc:
        raise ValueError(f"{value!r} is not a real date ({exc})") from None
    return value


PartialDate = Annotated[
    str,
    AfterValidator(_check_partial_date),
    Field(
        description="When it happened, as precisely as known: YYYY, YYYY-MM or YYYY-MM-DD.",
        json_schema_extra={"pattern": _PARTIAL_DATE.pattern},
    ),
]


class Occurrence(_Strict):
    """When the incident happened: a (partial) date, a window, or both."""

    date: PartialDate | None = None
    window: TimeWindow | None = Field(None, description="The incident window, when known.")

    @model_validator(mode="after")
    def _something_known(self) -> Occurrence:
        if self.date is None and self.window is None:
            raise ValueError("give a date (YYYY, YYYY-MM or YYYY-MM-DD), a window, or both")
        return self


class Scale(_Strict):
    """How big the affected system was."""

    nodes: int | None = Field(None, ge=1, description="Hosts in the cluster or job.")
    gpus: int | None = Field(None, ge=0, description="GPUs in the cluster or job.")
    gpus_per_node: int | None = Field(None, ge=0)
    gpu_model: str | None = Field(None, description="For example H100, A100-80GB, MI300X.")
    interconnect: str | None = Field(None, description="For example InfiniBand NDR, RoCE.")
    workload: str | None = Field(None, description="What ran: model, size, phase.")

    @model_validator(mode="after")
    def _gpus_add_up(self) -> Scale:
        if self.nodes and self.gpus_per_node and self.gpus is not None:
            expected = self.nodes * self.gpus_per_node
            if self.gpus != expected:
                raise ValueError(
                    f"{self.nodes} nodes x {self.gpus_per_node} GPUs per node is {expected}, "
                    f"not {self.gpus}"
                )
        return self


class ActionItem(_Strict):
    text: str = Field(min_length=1, description="What is to be done.")
    owner: str | None = Field(None, description="Who does it.")
    status: Literal["open", "done"] | None = Field(
        None, description="open or done; absent if not known."
    )
    link: HttpUrl | None = Field(None, description="Ticket or pull request.")


class Reference(_Strict):
    title: str = Field(min_length=1)
    url: HttpUrl


FindingKind = Literal[
    "drop",
    "spike",
    "level_shift",
    "trend",
    "outlier_host",
    "failure_rate",
    "signature",
    "new_template",
    "straggler",
    "events",
    # training health (metrics.training)
    "loss_spike",
    "grad_norm_spike",
    "loss_scale_collapse",
    "skipped_iterations",
    "nan_iterations",
    "restart",
    "stall",
]


class Finding(_Strict):
    """One anomaly found in the data."""

    kind: FindingKind
    signal: str = Field(
        description="Named signal (throughput, disk_read_latency, ...) or log signature id."
    )
    start: AwareDatetime
    end: AwareDatetime
    magnitude: float = Field(description="Change relative to the baseline: -0.4 is 40% below it.")
    hosts: list[str] = Field(default_factory=list, description="Hosts involved, sorted.")
    value: float | None = Field(None, description="Observed level during the anomaly.")
    baseline: float | None = Field(None, description="Baseline level it is compared with.")
    summary: str = Field("", description="One sentence saying what was found.")
    servers: list[str] | None = Field(
        None,
        description="Servers outside the job that a signature's lines name (the NFS server "
        "the clients lost), sorted; absent when they name none.",
    )


class Correlation(_Strict):
    """A signal whose anomalies line up with the primary symptom's."""

    signal: str
    score: float = Field(ge=0, le=1, description="1 when every symptom anomaly is matched.")
    lag_seconds: float = Field(
        0,
        description="When this signal's anomalies begin relative to the symptom's: negative "
        "when they lead it, positive when they trail it (median over the matches).",
    )
    matched: int = Field(
        0, ge=0, description="Symptom anomalies this signal's anomalies coincide with."
    )
    explanation: str = Field("", description="A sentence saying why it ranks here.")
    cause: bool = Field(
        True,
        description="Whether it reads as a candidate cause; False for an effect of the stall "
        "(it moved as waiting GPUs do, or after the symptom, or with the job's own pace).",
    )
    hosts: list[str] = Field(
        default_factory=list, description="The hosts it is confined to; empty: cluster-wide."
    )
    gpus: list[str] = Field(
        default_factory=list,
        description="The units that stood out on those hosts, as host/gpu (or host/device).",
    )
    onset: AwareDatetime | None = Field(None, description="When its first matching anomaly began.")


class Alternative(_Strict):
    """Another explanation the data allows, and what would tell it from the verdict's."""

    cause: str = Field(description="The signal it names.")
    hosts: list[str] = Field(default_factory=list)
    gpus: list[str] = Field(default_factory=list)
    onset: AwareDatetime | None = None
    score: float = Field(0, ge=0, le=1)
    summary: str = ""
    tell_apart: str = Field("", description="What would tell this from the verdict's cause.")


class Verdict(_Strict):
    """The most likely explanation of the symptom, said first."""

    cause: str | None = Field(
        None, description="The signal named as the cause; None when the data cannot decide."
    )
    hosts: list[str] = Field(default_factory=list, description="Where; empty: cluster-wide.")
    gpus: list[str] = Field(default_factory=list, description="Which units (host/gpu).")
    onset: AwareDatetime | None = Field(None, description="When the cause began.")
    confidence: float = Field(0, ge=0, le=1, description="How sure, 0 to 1.")
    confidence_why: str = Field("", description="What the confidence rests on.")
    summary: str = Field("", description="The verdict in one or two sentences.")
    evidence: list[int] = Field(
        default_factory=list, description="Indices into evidence.findings it rests on."
    )
    alternatives: list[Alternative] = Field(default_factory=list)


class LogSignature(_Strict):
    """A known log signature seen in the window."""

    id: str
    count: int = Field(ge=0)
    hosts: list[str] = Field(default_factory=list)
    first_seen: AwareDatetime | None = None
    last_seen: AwareDatetime | None = None
    component: str | None = None
    symptom: str | None = None
    explanation: str = ""


class TimelineEvent(_Strict):
    at: AwareDatetime
    text: str = Field(min_length=1)
    source: Literal["data", "person"] = Field(
        "data", description="Drawn from the data, or written by a person."
    )


class ChartFile(_Strict):
    title: str
    path: str = Field(description="Relative to the record's folder.")


class CheckHit(_Strict):
    """A check that fires on this incident's own data, and how early."""

    case: str = Field(description="The case the check belongs to (this one, or a library case).")
    check: str = Field(description="The check's id within that case.")
    condition: str = Field("", description="What it tests, in a few words.")
    first_fired: AwareDatetime
    lead_seconds: float | None = Field(
        None,
        description="How long before the symptom's first anomaly it fired (negative: after).",
    )
    hosts: list[str] = Field(default_factory=list, description="Hosts it fired on, sorted.")
    drafted: bool = False


class Evidence(_Strict):
    """What the data shows; filled by the workbook, recomputed on every regeneration."""

    window: TimeWindow | None = None
    baseline: TimeWindow | None = None
    source: str | None = Field(None, description="Where the data came from: folder or server.")
    verdict: Verdict | None = Field(None, description="The most likely explanation, first.")
    findings: list[Finding] = Field(default_factory=list)
    correlations: list[Correlation] = Field(default_factory=list)
    log_signatures: list[LogSignature] = Field(default_factory=list)
    timeline: list[TimelineEvent] = Field(default_factory=list)
    charts: list[ChartFile] = Field(default_factory=list)
    checks_fired: list[CheckHit] = Field(
        default_factory=list,
        description="Checks (this case's and the library's) that fire on the incident's data.",
    )
    symptom_onset: AwareDatetime | None = Field(
        None, description="When the primary symptom's first anomaly began."
    )


FACET_FIELDS: dict[str, str] = {
    "root_cause": "root_causes",
    "component": "components",
    "symptom": "symptom_tags",
    "contributing_factor": "contributing_factors",
}
"""Each facet, and the record field holding its values (the one map: pages, the form and
similar cases all read it)."""

NARRATIVE_FIELDS: tuple[str, ...] = (
    "title",
    "organisation",
    "occurred",
    "scale",
    "symptoms",
    "trigger",
    "root_causes",
    "components",
    "symptom_tags",
    "contributing_factors",
    "detection",
    "remediation",
    "action_items",
    "lessons",
    "references",
    "checks",
)
"""What a person writes (or confirms); everything in `evidence` is recomputed from data."""


class CaseRecord(_Strict):
    """One incident, as the Incident Library lays a case out."""

    model_config = ConfigDict(
        extra="forbid",
        str_strip_whitespace=True,
        title="Incident Library case record",
        json_schema_extra={"$id": "https://incidentbook.dev/schema/case-1.0.json"},
    )

    schema_version: str = Field(
        description=f"Schema version; this incidentbook writes {SCHEMA_VERSION}."
    )
    id: str = Field(
        pattern=SLUG, description="Slug naming the case, e.g. smollm3-storage-throughput-drops."
    )
    title: str = Field(min_length=1)
    organisation: str | None = Field(None, description="Who ran the cluster.")
    occurred: Occurrence | None = None
    scale: Scale | None = None

    symptoms: str = Field(min_length=1, description="What people saw, with numbers.")
    trigger: str = Field("", description="What set it off.")
    root_causes: FacetIds("root_cause", "What was actually wrong.", min_length=1)
    components: FacetIds("component", "Where it was wrong.", min_length=1)
    symptom_tags: FacetIds("symptom", "The symptoms, as facet values.", min_length=1)
    contributing_factors: FacetIds(
        "contributing_factor", "What made it worse or let it through."
    ) = []  # pydantic copies mutable defaults per instance
    detection: str = Field("", description="How it was noticed and narrowed down.")
    remediation: list[str] = Field(default_factory=list, description="What was done, in order.")
    action_items: list[ActionItem] = Field(default_factory=list)
    lessons: str = Field("", description="What to carry to the next cluster.")
    references: list[Reference] = Field(default_factory=list, description="Public write-ups.")
    checks: list[Check] = Field(
        default_factory=list,
        description=(
            "What would have caught it early: PromQL conditions, log signatures and host "
            "health assertions, run against a live cluster by `incidentbook check`."
        ),
    )

    evidence: Evidence | None = Field(None, description="Filled from data by the workbook.")
    drafted: list[str] = Field(
        default_factory=list,
        description=(
            "Narrative fields the workbook drafted from the data and no person has confirmed "
            "yet; a person's edit takes the field off this list."
        ),
    )

    @field_validator("schema_version")
    @classmethod
    def _known_version(cls, value: str) -> str:
        if value != SCHEMA_VERSION:
            raise ValueError(
                f"schema version {value!r} is not one this incidentbook reads; "
                f"it reads {SCHEMA_VERSION!r}"
            )
        return value

    @field_validator("remediation")
    @classmethod
    def _no_blank_items(cls, value: list[str]) -> list[str]:
        if any(not item.strip() for item in value):
            raise ValueError("remediation items must not be blank")
        return value

    @field_validator("checks")
    @classmethod
    def _check_ids_unique(cls, value: list) -> list:
        ids = [c.id for c in value]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"check ids must be unique in a case: {', '.join(twice)}")
        return value

    @field_validator("drafted")
    @classmethod
    def _drafted_fields_exist(cls, value: list[str]) -> list[str]:
        unknown = [f for f in value if f not in NARRATIVE_FIELDS]
        if unknown:
            raise ValueError(
                f"{', '.join(unknown)} cannot be drafted; narrative fields are "
                f"{', '.join(NARRATIVE_FIELDS)}"
            )
        return sorted(set(value), key=NARRATIVE_FIELDS.index)

    def facet_values(self, facet: str) -> list[str]:
        return getattr(self, FACET_FIELDS[facet])


def schema() -> dict:
    """The JSON Schema of CaseRecord, as exported to templates/case.schema.json."""
    return CaseRecord.model_json_schema(mode="validation")


def schema_text() -> str:
    """The JSON Schema as templates/case.schema.json holds it."""
    return json.dumps(schema(), indent=2, ensure_ascii=False) + "\n"
