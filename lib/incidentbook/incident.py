"""The incident folder: the input contract of the workbook.

    incident.yaml   what and when: id, title, window, baseline, primary signal, cluster
    metrics/        long-format samples: Parquet or CSV (timestamp, metric, value, labels...)
                    or OpenMetrics text with timestamps (as promtool accepts)
    logs/           raw logs as the hosts wrote them (read by the logs stage)
    case.yaml       optional: the human narrative of the case record

Everything in incident.yaml is checked once here; later stages trust it.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from incidentbook.errors import IncidentbookError, LoadNote, Problem, problems_from
from incidentbook.record.taxonomy import SLUG
from incidentbook.window import TimeWindow
from incidentbook.yamlio import read_yaml, sentences, yaml_lines

if TYPE_CHECKING:
    import polars as pl

    from incidentbook.metrics.signals import SignalPack
    from incidentbook.record.taxonomy import Taxonomy


class IncidentFolderError(IncidentbookError):
    """An incident folder that is missing or whose incident.yaml is not valid."""


class Cluster(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Cluster name, as the metrics' labels know it.")
    nodes: int = Field(ge=1, description="Hosts in the cluster or job.")
    gpus_per_node: int = Field(8, ge=0)
    gpu_model: str | None = Field(None, description="For example H100.")
    selectors: dict[str, str] = Field(
        default_factory=dict,
        description="Label matchers that pick this cluster's series out of a shared source.",
    )


class TrainerSpec(BaseModel):
    """incident.yaml's `trainer:` block: where the trainer's own output is and the numbers
    its lines leave out (tokens/s from ms per iteration needs the batch and the sequence
    length; per-GPU throughput needs the GPU count)."""

    model_config = ConfigDict(extra="forbid")

    logs: list[str] | None = Field(
        None,
        description=(
            "Trainer logs, globs relative to the incident folder or absolute paths; default: "
            "the files under logs/ and metrics/ that a trainer format recognises. [] for none."
        ),
    )
    tensorboard: list[str] | None = Field(
        None,
        description=(
            "TensorBoard event files or folders of them; default: every *.tfevents.* file "
            "under the incident folder. [] for none."
        ),
    )
    global_batch_size: int | None = Field(None, ge=1, description="Sequences per iteration.")
    seq_length: int | None = Field(None, ge=1, description="Tokens per sequence.")
    gpus: int | None = Field(None, ge=1, description="GPUs (devices) in the training job.")
    host: str | None = Field(None, description="The host whose lines these are, if they say none.")
    hosts: dict[int, str] = Field(default_factory=dict, description="Rank -> host.")
    start: AwareDatetime | None = Field(
        None,
        description=(
            "When training started: the anchor for output that carries no time at all "
            "(trainer_state.json, Lightning's metrics.csv)."
        ),
    )
    timezone: str | None = Field(
        None, description="Zone of the trainer's times that carry none (default UTC)."
    )

    @field_validator("logs", "tensorboard", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class LogSettings(BaseModel):
    """incident.yaml's `logs:`: what the log files cannot say themselves."""

    model_config = ConfigDict(extra="forbid")

    boot_times: dict[str, AwareDatetime | list[AwareDatetime]] = Field(
        default_factory=dict,
        description="Per host, its boot time (or times, oldest first), for kernel lines "
        "timed in seconds since boot; `*` for every host without its own.",
    )
    assume_tz: str = Field("UTC", description="The zone of times written without one.")
    formats: dict[str, str] = Field(
        default_factory=dict, description="Glob of a file's path -> the log format to read it as."
    )
    ranks: dict[str, str] = Field(
        default_factory=dict,
        description="A launcher's rank (`[rank5]:`, srun's `5: `) or range of ranks (`0-7`) "
        "-> its host, for trainer output that does not name its hosts.",
    )

    @field_validator("ranks")
    @classmethod
    def _rank_keys(cls, ranks: dict[str, str]) -> dict[str, str]:
        for key in ranks:
            if not _RANKS.match(str(key)):
                raise ValueError(f"{key!r} is not a rank or a range of ranks such as 0-7")
        return ranks

    def rank_hosts(self) -> dict[int, str]:
        out: dict[int, str] = {}
        for key, host in self.ranks.items():
            lo, _, hi = str(key).partition("-")
            for rank in range(int(lo), int(hi or lo) + 1):
                out[rank] = host
        return out


_RANKS = re.compile(r"^\d+(?:-\d+)?$")


class IncidentSpec(BaseModel):
    """incident.yaml."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=SLUG)
    title: str = Field(min_length=1)
    window: TimeWindow
    baseline: TimeWindow | None = Field(
        None, description="A quiet period to compare against; default: the window's first part."
    )
    primary_signal: str = Field("throughput", description="The symptom's signal.")
    cluster: Cluster
    signal_pack: str = Field("default", description="Name in templates/signals/ or a path.")
    signals: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Overrides of the pack's signal definitions."
    )
    timestamp_unit: Literal["s", "ms", "us", "ns"] | None = Field(
        None,
        description="The unit of integer epoch timestamps in the metrics files; default: "
        "judged from their magnitude (and said in the notes).",
    )
    trainer: TrainerSpec = Field(
        default_factory=TrainerSpec, description="The trainer's own log and TensorBoard files."
    )
    logs: LogSettings = Field(default_factory=LogSettings)

    @model_validator(mode="after")
    def _baseline_not_after_window(self) -> IncidentSpec:
        if self.baseline and self.baseline.start >= self.window.end:
            raise ValueError("the baseline starts after the incident window ends")
        return self


class IncidentFolder:
    """An incident folder on disk, with its validated spec."""

    def __init__(self, path: Path | str):
        # s3://bucket/prefix or gs://...: a local stand-in whose Parquet and CSV metrics
        # are scanned on the object store (sources.objects).
        self.uri: str | None = None
        if str(path).partition(":/")[0] in ("s3", "gs", "gcs"):
            from incidentbook.sources.objects import object_uri, stage

            self.uri = object_uri(path)
        self.path = stage(self.uri) if self.uri else Path(path)
        spec_path = self.path / "incident.yaml"
        if not self.path.is_dir():
            raise IncidentFolderError(
                f"{self.path} is not a folder; an incident is a folder with incident.yaml"
            )
        if not spec_path.exists():
            raise IncidentFolderError(
                f"{self.path} has no incident.yaml; see the README's incident folder contract"
            )
        self.spec_path = spec_path
        self.spec, self.lines = _load(spec_path)

    def signal_pack(
        self, name: str | None = None, taxonomy: Taxonomy | Path | str | None = None
    ) -> SignalPack:
        """The signal pack (`name`, default incident.yaml's) with incident.yaml's `signals:`
        overrides applied. A wrong override or primary signal is an error about
        incident.yaml and its line, not about the pack."""
        from incidentbook.metrics.signals import load_pack

        base = load_pack(name or self.spec.signal_pack, None, taxonomy)
        problems = _override_problems(self.spec, base, str(self.spec_path), self.lines)
        if problems:
            raise IncidentFolderError(
                f"{self.spec_path} does not fit the {base.name!r} signal pack:\n"
                + "\n".join(f"  {p}" for p in problems)
            )
        return load_pack(name or self.spec.signal_pack, self.spec.signals, taxonomy)

    def baseline_for(
        self, window: TimeWindow, frame: pl.DataFrame, default: TimeWindow
    ) -> tuple[TimeWindow, list[LoadNote]]:
        """The baseline to measure `window` against, and what was assumed choosing it.

        incident.yaml's baseline when it starts inside the window (the samples loaded are
        the window's), else `default`, saying so; and, either way, which signals it holds
        no or too few samples of (their level and noise then come from the whole window).
        """
        given, notes, where = self.spec.baseline, [], str(self.spec_path)
        chosen = given
        if given is not None and not window.start <= given.start < window.end:
            chosen = None
            notes.append(
                LoadNote(
                    "assumed",
                    where,
                    f"the baseline {_span(given)} does not start inside the window "
                    f"{_span(window)}, so it holds none of the samples loaded; the window's "
                    f"start ({_span(default)}) was used instead: set a baseline inside the "
                    "window, or widen the window to hold it",
                )
            )
        elif given is not None and given.end > window.end:
            notes.append(
                LoadNote(
                    "assumed",
                    where,
                    f"the baseline {_span(given)} ends after the window {_span(window)}; "
                    "only its part inside the window holds samples",
                )
            )
        chosen = chosen or default
        notes += _thin_baseline(chosen, frame, where)
        return chosen, notes

    @property
    def metrics_dir(self) -> Path:
        return self.path / "metrics"

    @property
    def logs_dir(self) -> Path:
        return self.path / "logs"

    @property
    def case_path(self) -> Path:
        return self.path / "case.yaml"

    def __repr__(self) -> str:
        return f"IncidentFolder({str(self.path)!r}, id={self.spec.id!r})"


def _span(window: TimeWindow) -> str:
    return f"({window.start:%Y-%m-%d %H:%M} to {window.end:%Y-%m-%d %H:%M} UTC)"


def _thin_baseline(baseline: TimeWindow, frame: pl.DataFrame, where: str) -> list[LoadNote]:
    """Notes for the signals the baseline has no or fewer than 5 sample times of (where
    the analysis measures their level or their noise over the whole window instead)."""
    import polars as pl

    counts = frame.group_by("signal").agg(n=pl.col("ts").filter(baseline.contains()).n_unique())
    empty = sorted(counts.filter(pl.col("n") == 0).get_column("signal").to_list())
    thin = sorted(counts.filter(pl.col("n").is_between(1, 4)).get_column("signal").to_list())
    notes = []
    if empty:
        which = "any signal" if len(empty) == counts.height else ", ".join(empty)
        notes.append(
            LoadNote(
                "assumed",
                where,
                f"the baseline {_span(baseline)} is empty: it holds no samples of {which}; "
                "their level and noise were measured over the whole window instead, so "
                "anomalies are judged against the incident itself: set `baseline:` to a quiet "
                "period that has data",
            )
        )
    if thin:
        notes.append(
            LoadNote(
                "assumed",
                where,
                f"the baseline {_span(baseline)} holds fewer than 5 sample times of "
                f"{', '.join(thin)}; their noise was measured over the whole window instead",
            )
        )
    return notes


_REQUIRED = "an incident.yaml holds at least id, title, window and cluster (see the README)"


def _load(path: Path) -> tuple[IncidentSpec, dict[tuple, int]]:
    data = read_yaml(
        path,
        sentences(IncidentFolderError, str(path)),
        mapping=f"must be a mapping of fields; {_REQUIRED}",
        required=_REQUIRED,
        keep_dates=True,
    )
    lines = yaml_lines(path.read_text(encoding="utf-8"))
    try:
        return IncidentSpec.model_validate(data), lines
    except ValidationError as exc:
        problems = problems_from(exc, str(path), lines)
        raise IncidentFolderError(
            f"{path} is not a valid incident spec:\n" + "\n".join(f"  {p}" for p in problems)
        ) from None


def load_spec(path: Path) -> IncidentSpec:
    return _load(Path(path))[0]


def _override_problems(
    spec: IncidentSpec, pack: SignalPack, file: str, lines: dict[tuple, int]
) -> list[Problem]:
    """What is wrong with incident.yaml's `signals:` and `primary_signal` for this pack."""
    from incidentbook.metrics.signals import Signal

    known = sorted(pack.signals)
    problems: list[Problem] = []

    def near(name: str) -> str:
        close = difflib.get_close_matches(name, known, n=1)
        return f"did you mean {close[0]!r}? " if close else ""

    for name, fields in spec.signals.items():
        base = pack.signals[name].model_dump(exclude={"name"}) if name in pack.signals else {}
        try:
            Signal.model_validate({**base, **fields, "name": name})
        except ValidationError as exc:
            found = problems_from(exc, file, lines, names=lambda loc, n=name: ("signals", n, *loc))
            if name in pack.signals:
                problems += found
                continue
            # Most likely a misspelt name: say so first, then what a new signal would lack.
            lacking = "; ".join(
                f"{p.field.removeprefix(f'signals.{name}.')}: {p.message}" for p in found
            )
            problems.append(
                Problem(
                    file,
                    f"signals.{name}",
                    f"{name!r} is not a signal of the {pack.name!r} pack ({near(name)}known: "
                    f"{', '.join(known)}); as a new signal it is incomplete ({lacking})",
                    lines.get(("signals", name)),
                )
            )
    if spec.primary_signal not in pack.signals and spec.primary_signal not in spec.signals:
        problems.append(
            Problem(
                file,
                "primary_signal",
                f"{spec.primary_signal!r} is not a signal of the {pack.name!r} pack; "
                f"{near(spec.primary_signal)}known: {', '.join(known)}",
                lines.get(("primary_signal",)),
            )
        )
    return problems
