"""Checks: what a case teaches, as conditions a live cluster can be tested for.

A case record's `checks` say how the incident would have been caught early. Each is one of

* `promql`: a PromQL condition on one signal of the pack (`expr`, per host, compared with
  `threshold` by `op`), held for `for`; `signal` names what it watches, so the report
  can evaluate it on an incident folder's own data the way the pack reduces that signal.
* `log`: a log signature of the catalog (templates/signatures.yaml) seen at least
  `count` times on a host within `window`.
* `health`: a per-host assertion from a fixed vocabulary (HEALTH below): every PCIe link
  at 16 lanes, all GPUs present, the host up, CPU clocks and fan speeds in line with the
  host's peers. The vocabulary knows each assertion's PromQL (built from the pack's).

`expr` may use the pack's placeholders: `$selector` (label matchers of the cluster, empty
by default) and `$rate` (the check's `rate_window`). Validation parses the whole alert
expression with promql-parser (the Rust PromQL parser of GreptimeDB, checked against
Prometheus' own grammar and function signatures), so a typo, an unknown function or a
range vector where an instant vector belongs is refused with the case and field named.

`compile_check` turns a check into a `Rule`: the alert expression with placeholders
filled, the duration, and what `check_eval` needs to evaluate it on a folder's data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from incidentbook.record.taxonomy import SLUG

if TYPE_CHECKING:
    from incidentbook.metrics.signals import SignalPack

Op = Literal[">", ">=", "<", "<=", "==", "!="]
CheckSeverity = Literal["critical", "warning", "info"]

_DURATION = re.compile(r"^(?:\d+(?:ms|s|m|h|d|w|y))+$")
_LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
LOG_METRIC = "incidentbook_log_signature_lines_total"
"""The counter a log check's rule reads: lines that took a signature, per host
(labels node, signature; xid for Xid lines). `incidentbook export openmetrics --logs`
writes it from an incident folder's logs; on a live cluster a log pipeline provides it."""
DEFAULT_RATE = "5m"


def _check_duration(value: str) -> str:
    if not _DURATION.match(value or ""):
        raise ValueError(f"{value!r} is not a Prometheus duration; write e.g. 30s, 5m, 1h or 1h30m")
    return value


Duration = Annotated[
    str,
    Field(
        description="A Prometheus duration: 30s, 5m, 1h, 1h30m.",
        json_schema_extra={"pattern": _DURATION.pattern},
    ),
]


def duration_of(text: str) -> timedelta:
    """A Prometheus duration as a timedelta."""
    import promql_parser

    return promql_parser.parse_duration(text)


def prom_duration(delta: timedelta) -> str:
    """A timedelta as a Prometheus duration (whole seconds)."""
    seconds = max(int(delta.total_seconds()), 0)
    if seconds == 0:
        return "0s"
    out = ""
    for unit, size in (("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            out += f"{seconds // size}{unit}"
            seconds %= size
    return out


def fill(expr: str, selectors: dict[str, str] | None = None, rate: str = DEFAULT_RATE) -> str:
    """`$selector` and `$rate` filled in, an empty selector tidied away."""
    parts = []
    for name, value in (selectors or {}).items():
        if not _LABEL_NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a label name")
        escaped = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        parts.append(f'{name}="{escaped}"')
    values = {"selector": ",".join(parts), "rate": rate}
    out = re.sub(r"\$(selector|rate)\b", lambda m: values[m.group(1)], expr)
    out = re.sub(r"\{\s*,", "{", re.sub(r",\s*\}", "}", out))
    return re.sub(r"(?<=[\w:])\{\s*\}", "", out)


def promql_problem(expr: str) -> str | None:
    """Why an alert expression is not valid PromQL, or None when it is."""
    import promql_parser

    try:
        promql_parser.parse(expr)
    except ValueError as exc:
        return str(exc) or "invalid PromQL"
    return None


def _where(info: ValidationInfo) -> str:
    case = (info.context or {}).get("case")
    return f"case {case}: " if case else ""


class _Check(BaseModel):
    model_config = ConfigDict(
        extra="forbid", str_strip_whitespace=True, populate_by_name=True, serialize_by_alias=True
    )

    id: str = Field(pattern=SLUG, description="Slug naming the check within its case.")
    severity: CheckSeverity = "warning"
    message: str = Field("", description="What it means when it fires, and what to look at.")
    drafted: bool = Field(
        False,
        description="Drafted by the workbook from the data; no person has confirmed it yet.",
    )


class MetricCheck(_Check):
    """A PromQL condition on one signal, held for a while."""

    kind: Literal["promql"]
    signal: str = Field(description="The signal of the pack it watches (disk_read_latency, ...).")
    op: Op = Field(description="How the value compares with the threshold when it fires.")
    threshold: float
    expr: str = Field(
        min_length=1,
        description=(
            "PromQL giving the signal per host (one series per `node`); `$selector` and "
            "`$rate` as in signal packs."
        ),
    )
    for_: Duration = Field("5m", alias="for", description="How long it must hold to fire.")
    rate_window: Duration | None = Field(
        None, description=f"What `$rate` becomes in `expr` (default {DEFAULT_RATE})."
    )

    @field_validator("for_", "rate_window")
    @classmethod
    def _durations(cls, value: str | None) -> str | None:
        return None if value is None else _check_duration(value)

    @field_validator("expr")
    @classmethod
    def _parses(cls, value: str, info: ValidationInfo) -> str:
        op = info.data.get("op", ">") if info.data else ">"
        problem = promql_problem(f"({fill(value)}) {op} 0")
        if problem:
            raise ValueError(f"{_where(info)}not valid PromQL ({problem}): {value}")
        return value

    def condition(self, selectors: dict[str, str] | None = None) -> str:
        return f"{self.value_expr(selectors)} {self.op} {_number(self.threshold)}"

    def value_expr(self, selectors: dict[str, str] | None = None) -> str:
        return fill(self.expr, selectors, self.rate_window or DEFAULT_RATE)


class LogCheck(_Check):
    """A log signature seen on a host at least `count` times within `window`."""

    kind: Literal["log"]
    signature: str = Field(description="A signature id of the catalog (templates/signatures.yaml).")
    xid: int | None = Field(None, ge=0, description="For nvidia-xid: only this Xid code.")
    count: int = Field(1, ge=1, description="At least this many lines...")
    window: Duration = Field("10m", description="...within this window, on one host.")

    @field_validator("window")
    @classmethod
    def _window(cls, value: str) -> str:
        return _check_duration(value)

    @field_validator("signature")
    @classmethod
    def _known(cls, value: str, info: ValidationInfo) -> str:
        catalog = (info.context or {}).get("catalog")
        ids = _catalog_ids() if catalog is None else {s.id for s in catalog.signatures}
        if value not in ids:
            from difflib import get_close_matches

            near = get_close_matches(value, sorted(ids), n=3)
            hint = f"; did you mean {', '.join(map(repr, near))}?" if near else ""
            raise ValueError(f"{_where(info)}{value!r} is not a signature of the catalog{hint}")
        return value

    @property
    def for_(self) -> str:
        return "0s"


@dataclass(frozen=True)
class Assertion:
    """One per-host health assertion of the vocabulary."""

    name: str
    label: str
    signal: str  # the pack's signal it reads
    op: Op  # how the host's value compares with the bound when the assertion FAILS
    expect: float  # default bound: an absolute value, or a share of the peers' median
    relative: bool  # the bound is `expect` x the median over hosts
    count_gpus: bool  # the value is the number of GPUs reporting the signal's metric
    for_: str
    message: str


HEALTH: dict[str, Assertion] = {
    a.name: a
    for a in (
        Assertion(
            "host-up",
            "Host up",
            "node_up",
            "<",
            1,
            False,
            False,
            "10m",
            "The host's node exporter has not answered: it never came up or went down.",
        ),
        Assertion(
            "pcie-link-width",
            "PCIe links at full width",
            "pcie_link_width",
            "<",
            16,
            False,
            False,
            "5m",
            "A GPU's PCIe link trained below its full width (reseat the GPU or its cable).",
        ),
        Assertion(
            "gpus-present",
            "All GPUs present",
            "gpu_temp",
            "<",
            8,
            False,
            True,
            "5m",
            "Fewer GPUs report on this host than it has.",
        ),
        Assertion(
            "cpu-clock",
            "CPU clocks not capped",
            "cpu_freq",
            "<",
            0.8,
            True,
            False,
            "10m",
            "The host's CPU clock is far below its peers' (capped by BIOS or power settings).",
        ),
        Assertion(
            "fan-speed",
            "Fans not pinned",
            "fan_speed",
            ">",
            1.5,
            True,
            False,
            "10m",
            "The host's fans run far faster than its peers' (a wrong temperature reading "
            "or a cooling fault).",
        ),
    )
}


class HealthCheck(_Check):
    """A per-host assertion from the HEALTH vocabulary."""

    kind: Literal["health"]
    assert_: Literal["host-up", "pcie-link-width", "gpus-present", "cpu-clock", "fan-speed"] = (
        Field(alias="assert", description="Which assertion (see record/checks.py HEALTH).")
    )
    expect: float | None = Field(
        None,
        description=(
            "The bound: lanes for pcie-link-width, GPUs for gpus-present, the share of the "
            "peers' median for cpu-clock and fan-speed (default: the vocabulary's)."
        ),
    )
    for_: Duration | None = Field(None, alias="for", description="Default: the vocabulary's.")

    @field_validator("for_")
    @classmethod
    def _duration(cls, value: str | None) -> str | None:
        return None if value is None else _check_duration(value)

    @property
    def assertion(self) -> Assertion:
        return HEALTH[self.assert_]

    @model_validator(mode="after")
    def _message(self) -> HealthCheck:
        if not self.message:
            self.message = self.assertion.message
        return self


Check = Annotated[MetricCheck | LogCheck | HealthCheck, Field(discriminator="kind")]


@lru_cache(maxsize=1)
def _catalog_ids() -> frozenset[str]:
    from incidentbook.logs.signatures import load_catalog

    return frozenset(s.id for s in load_catalog().signatures)


def _number(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e15 else repr(value)


# --- compiled: the alert expression and what evaluation needs -------------------------------


@dataclass(frozen=True)
class Rule:
    """A check ready to run: its alert expression and how to evaluate it on a folder."""

    case: str
    check: MetricCheck | LogCheck | HealthCheck
    expr: str  # the alert condition, placeholders filled
    value_expr: str  # the per-host value the condition compares
    hold: timedelta  # `for`
    signal: str | None
    op: Op
    threshold: float  # absolute, or the share of the peers' median when relative
    relative: bool = False
    count_gpus: bool = False
    rate_window: timedelta | None = None
    window: timedelta | None = None  # log checks: the counting window

    @property
    def id(self) -> str:
        return self.check.id

    @property
    def alert(self) -> str:
        """The alert's name: the check id in CamelCase (DiskReadLatency)."""
        return "".join(part.capitalize() for part in self.check.id.split("-"))

    def describe(self) -> str:
        """The condition in a few words, for tables and pages."""
        c = self.check
        if isinstance(c, LogCheck):
            xid = f" (Xid {c.xid})" if c.xid is not None else ""
            return f"log signature {c.signature}{xid} at least {c.count}x within {c.window}"
        bound = (
            f"{_number(self.threshold)} x the hosts' median"
            if self.relative
            else _number(self.threshold)
        )
        what = self.signal or "value"
        if self.count_gpus:
            what = "GPUs reporting"
        return f"{what} {self.op} {bound} for {prom_duration(self.hold)}"


def _signal_promql(pack: SignalPack, name: str) -> str:
    signal = pack.get(name)
    if not signal.promql:
        raise ValueError(f"signal {name} of pack {pack.name} has no promql")
    return signal.promql


def compile_check(
    check: MetricCheck | LogCheck | HealthCheck,
    case: str,
    pack: SignalPack | None = None,
    selectors: dict[str, str] | None = None,
) -> Rule:
    """The check's alert expression (placeholders filled) and evaluation spec."""
    if isinstance(check, MetricCheck):
        rate = check.rate_window or DEFAULT_RATE
        return Rule(
            case,
            check,
            check.condition(selectors),
            check.value_expr(selectors),
            duration_of(check.for_),
            check.signal,
            check.op,
            check.threshold,
            rate_window=duration_of(rate),
        )
    if isinstance(check, LogCheck):
        matchers = {"signature": check.signature, **(selectors or {})}
        if check.xid is not None:
            matchers["xid"] = str(check.xid)
        inner = fill(f"{LOG_METRIC}{{$selector}}", matchers)
        value = f"sum by (node) (increase({inner}[{check.window}]))"
        return Rule(
            case,
            check,
            f"{value} >= {check.count}",
            value,
            timedelta(0),
            None,
            ">=",
            float(check.count),
            window=duration_of(check.window),
        )
    if pack is None:
        from incidentbook.metrics.signals import load_pack

        pack = load_pack("default")
    a = check.assertion
    expect = a.expect if check.expect is None else check.expect
    hold = duration_of(check.for_ or a.for_)
    if a.count_gpus:
        metric = pack.get(a.signal).metric
        value = fill(f"count by (node) ({metric}{{$selector}})", selectors)
    else:
        value = fill(_signal_promql(pack, a.signal), selectors)
    bound = f"{_number(expect)} * scalar(quantile(0.5, {value}))" if a.relative else _number(expect)
    return Rule(
        case,
        check,
        f"{value} {a.op} {bound}",
        value,
        hold,
        a.signal,
        a.op,
        expect,
        relative=a.relative,
        count_gpus=a.count_gpus,
    )


def compile_case(
    record, pack: SignalPack | None = None, selectors: dict[str, str] | None = None
) -> list[Rule]:
    """Every check of a case record, compiled."""
    return [compile_check(c, record.id, pack, selectors) for c in record.checks]
