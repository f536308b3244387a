"""The incident folder: the input contract of the workbook.

    incident.yaml   what and when: id, title, window, baseline, primary signal, cluster
    metrics/        long-format samples: Parquet or CSV (timestamp, metric, value, labels...)
                    or OpenMetrics text with timestamps (as promtool accepts)
    logs/           raw logs as the hosts wrote them (read by the logs stage)
    case.yaml       optional: the human narrative of the case record

Everything in incident.yaml is checked once here; later stages trust it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from incidentbook.errors import IncidentbookError, problems_from
from incidentbook.record.taxonomy import SLUG
from incidentbook.window import TimeWindow
from incidentbook.yamlio import read_yaml, sentences


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
        self.path = Path(path)
        spec_path = self.path / "incident.yaml"
        if not self.path.is_dir():
            raise IncidentFolderError(
                f"{self.path} is not a folder; an incident is a folder with incident.yaml"
            )
        if not spec_path.is_file():
            raise IncidentFolderError(
                f"{self.path} has no incident.yaml; see the README's incident folder contract"
            )
        self.spec = load_spec(spec_path)

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


def load_spec(path: Path) -> IncidentSpec:
    data = read_yaml(path, sentences(IncidentFolderError, str(path)))
    try:
        return IncidentSpec.model_validate(data)
    except ValidationError as exc:
        problems = problems_from(exc, str(path))
        raise IncidentFolderError(
            f"{path} is not a valid incident spec:\n" + "\n".join(f"  {p}" for p in problems)
        ) from None
