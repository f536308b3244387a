"""Signal packs: named signals mapped to the exporters' metrics and the reduction to apply.

Analysis speaks of signals ("disk_read_latency"), never of a backend's metric names, so
a cluster with other exporters needs only another pack (templates/signals/*.yaml).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from incidentbook.errors import IncidentbookError, invalid
from incidentbook.paths import resources_dir
from incidentbook.record.taxonomy import Taxonomy, taxonomy_of
from incidentbook.yamlio import read_yaml, sentences

Reduce = Literal["mean", "sum", "max", "min"]
# Names older exporters gave the same field, read as the current name: DCGM called its
# clock event reasons "clock throttle reasons" until the 2023 rename, and dcgm-exporter
# names a series after the field it was configured with.
FORMER_NAMES: dict[str, tuple[str, ...]] = {
    "DCGM_FI_DEV_CLOCKS_EVENT_REASONS": ("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS",),
}
CURRENT_NAME: dict[str, str] = {old: new for new, olds in FORMER_NAMES.items() for old in olds}

Origin = Literal["metrics", "tensorboard", "trainer_log"]
ORIGINS: tuple[Origin, ...] = ("metrics", "tensorboard", "trainer_log")
"""Where an incident folder's samples come from: its metrics/ files, TensorBoard event
files, the trainer's own log. By default a signal takes them in this order: an exporter's
gauge is per host and exact; TensorBoard keeps full precision; a log line is rounded
and sometimes dated by inference."""


class SignalPackError(IncidentbookError):
    """A signal pack that cannot be read, or a signal it does not define."""


class TensorBoardTag(BaseModel):
    """Which TensorBoard scalar gives a signal: the first of `tag` present (names or
    fnmatch patterns), times `scale`; `per_gpu` values are multiplied by the job's GPUs
    (incident.yaml trainer.gpus); `value: step` takes the events' step instead."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tag: tuple[str, ...]
    scale: float = 1.0
    per_gpu: bool = False
    value: Literal["value", "step"] = "value"

    @field_validator("tag", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return (value,) if isinstance(value, str) else value


class Signal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    label: str
    unit: str = ""
    kind: Literal["gauge", "counter_rate", "rate_or_gauge", "counter_ratio", "gauge_ratio"]
    metric: str | None = None
    numerator: str | None = None
    denominator: str | None = None
    complement: bool = False
    match: dict[str, str] = Field(
        default_factory=dict, description="Label values a series must have."
    )
    per: Literal["node", "gpu"] = "node"
    within: Reduce = "mean"
    aggregate: Reduce = "mean"
    bad: Literal["down", "up", "both"] = "both"
    role: Literal["cause", "effect", "liveness", "health"] = Field(
        "cause",
        description=(
            "cause: its anomalies may explain the symptom; effect: it moves because the job "
            "itself slowed; liveness: 1 while a host is up, 0 while down (a cause whose "
            "hosts that never came up or went down are failure rates, not outliers); "
            "health: the training's own state (loss, grad norm, loss scale, skipped "
            "iterations), read by metrics.training's detectors, never a cause."
        ),
    )
    nature: Literal["level", "events", "code"] = Field(
        "level",
        description="level: a quantity; events: a rate of discrete events, judged by how "
        "many happened on a host; code: a gauge holding the last event's code (an Xid).",
    )
    min_events: int = Field(1, ge=1, description="Least events on one host that make an episode.")
    idle: Literal["up", "down", "none"] = Field(
        "none", description="Which way it moves when the GPUs sit waiting (an effect of a stall)."
    )
    straggler: Literal["up", "down", "both", "none"] = Field(
        "none",
        description="Which way a host or GPU that holds a synchronous job back differs from "
        "its peers.",
    )
    name_unit: bool = Field(
        True,
        description="Whether loading names the unit (GPU, device) that gave a host its value "
        "(the frame's `worst`); off where nothing reads it, as picking it is most of a "
        "counter's reduction.",
    )
    mask: int | None = Field(
        None, description="For a bitmask gauge: 1 when any of these bits is set, else 0."
    )
    general: bool = Field(
        False,
        description="It sums up several causes (the load average counts tasks waiting on the "
        "CPU, the disks or memory alike): beside a more specific signal that tells the same "
        "story, it corroborates rather than names the cause.",
    )
    scale: float = Field(1.0, description="Multiplies the value (ns/s into a share of time).")
    confirm: str = Field("", description="How an engineer confirms this cause on a host.")
    component: str | None = Field(None, description="Taxonomy component its anomalies point to.")
    symptom: str | None = Field(None, description="Taxonomy symptom its anomalies point to.")
    min_change: float | None = Field(
        None,
        description="Least change worth reporting, in the signal's unit (default: drops, "
        "spikes and shifts need only be significant against the series' noise; trends and "
        "outlier hosts need 10% of the level).",
    )
    precedes: timedelta | None = Field(
        None,
        description="How long before the symptom an episode of it that lasts into the "
        "symptom may have begun and still be its precursor (default: half an hour, or five "
        "tolerances): a filesystem or a host's memory fills for hours before the crash.",
    )
    least_cause: float | None = Field(
        None,
        ge=0,
        le=1,
        description="The least departure, as a share of the level it departs from, for an "
        "episode of this signal to stand as a cause: memory available harms only as it runs "
        "out, so a host that still has most of its usual headroom is not short of memory.",
    )
    stand_in: tuple[str, ...] = Field(
        (),
        description="Signals that measure the same thing another way, first first: when "
        "this one is the primary and has no data in the window, the first of them that has "
        "stands in for it (a trainer's log that gives a step time but no tokens/s).",
    )
    promql: str | None = None
    tensorboard: tuple[TensorBoardTag, ...] | None = Field(
        None, description="TensorBoard scalars that give it: alternatives, first present wins."
    )
    prefer: tuple[Origin, ...] | None = Field(
        None,
        description=(
            "Where two origins give this signal, which wins, first first (default: the "
            "pack's `prefer`)."
        ),
    )

    @field_validator("tensorboard", mode="before")
    @classmethod
    def _one_tag_or_alternatives(cls, value: Any) -> Any:
        return (value,) if isinstance(value, dict) else value

    @model_validator(mode="after")
    def _metrics_for_kind(self) -> Signal:
        if self.kind in {"gauge", "counter_rate", "rate_or_gauge"} and not self.metric:
            raise ValueError(f"a {self.kind} signal needs `metric`")
        if self.kind in {"counter_ratio", "gauge_ratio"} and not (
            self.numerator and self.denominator
        ):
            raise ValueError(f"a {self.kind} signal needs `numerator` and `denominator`")
        return self

    @property
    def from_trainer(self) -> bool:
        """A gauge the trainer reports (the trainer readers and exporters name them
        `trainer_*`): one rank's, so it says how the job went, never on which host."""
        return (self.metric or "").startswith("trainer_")

    @property
    def explains(self) -> bool:
        """Whether its anomalies can explain the symptom (a cause, or hosts going down)."""
        return self.role not in {"effect", "health"}

    @property
    def metrics(self) -> list[str]:
        """The raw metric names this signal reads (with the names older exporters gave
        them: metrics sources read those as the current name)."""
        names = [m for m in (self.metric, self.numerator, self.denominator) if m]
        return [*names, *(old for m in names for old in FORMER_NAMES.get(m, ()))]


class SignalPack(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    description: str = ""
    prefer: tuple[Origin, ...] = ORIGINS
    signals: dict[str, Signal]

    @model_validator(mode="after")
    def _stand_ins_are_signals_of_the_pack(self) -> SignalPack:
        for name, signal in self.signals.items():
            unknown = [s for s in signal.stand_in if s not in self.signals]
            if unknown:
                raise ValueError(
                    f"{name}'s stand_in names {', '.join(map(repr, unknown))}, which the pack "
                    "does not define; name signals of this pack"
                )
        return self

    @model_validator(mode="after")
    def _preference_of_each_signal(self) -> SignalPack:
        for name, signal in self.signals.items():
            if signal.prefer is None:
                self.signals[name] = signal.model_copy(update={"prefer": self.prefer})
        return self

    def get(self, name: str) -> Signal:
        try:
            return self.signals[name]
        except KeyError:
            known = ", ".join(sorted(self.signals))
            raise SignalPackError(
                f"signal {name!r} is not in the {self.name!r} signal pack; known signals: {known}"
            ) from None

    def with_overrides(self, overrides: dict[str, dict[str, Any]]) -> SignalPack:
        """This pack with entries replaced field by field (new names are added)."""
        if not overrides:
            return self
        raw = {n: s.model_dump(exclude={"name"}) for n, s in self.signals.items()}
        for name, fields in overrides.items():
            raw[name] = {**raw.get(name, {}), **(fields or {})}
        return _validate(
            {
                "name": self.name,
                "description": self.description,
                "prefer": self.prefer,
                "signals": raw,
            },
            self.name,
        )


def _validate(data: dict, where: str) -> SignalPack:
    signals = data.get("signals")
    if not isinstance(signals, dict):
        raise SignalPackError(f"signal pack {where} needs a `signals:` mapping")
    data = {**data, "signals": {n: {"name": n, **(s or {})} for n, s in signals.items()}}
    try:
        return SignalPack.model_validate(data)
    except ValidationError as exc:
        raise SignalPackError(invalid(exc, "signal pack", where)) from None


def load_pack(
    name_or_path: str | Path = "default",
    overrides: dict | None = None,
    taxonomy: Taxonomy | Path | str | None = None,
) -> SignalPack:
    """A pack by name (templates/signals/NAME.yaml) or by path, with overrides applied;
    its components and symptoms are checked against `taxonomy` (default: the bundled
    one with INCIDENTBOOK_TAXONOMY's extension)."""
    path = Path(name_or_path)
    if not path.suffix:
        path = resources_dir() / "signals" / f"{name_or_path}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (resources_dir() / "signals").glob("*.yaml"))
        raise SignalPackError(
            f"no signal pack {str(name_or_path)!r}; "
            f"bundled packs: {', '.join(known)}, or give a path"
        )
    data = read_yaml(
        path,
        sentences(SignalPackError, f"signal pack {path}"),
        mapping="must be a mapping with `name` and `signals`",
    )
    data.setdefault("name", path.stem)
    pack = _validate(data, str(path)).with_overrides(overrides or {})
    _check_facets(pack, taxonomy_of(taxonomy))
    return pack


def _check_facets(pack: SignalPack, taxonomy: Taxonomy) -> None:
    problems = []
    for signal in pack.signals.values():
        for facet, value in (("component", signal.component), ("symptom", signal.symptom)):
            if value is None:
                continue
            try:
                taxonomy.check(facet, value)
            except IncidentbookError as exc:
                problems.append(f"signal {signal.name}: {exc}")
    if problems:
        raise SignalPackError(f"signal pack {pack.name!r}:\n  " + "\n  ".join(problems))
