"""Time windows: timezone-aware, normalised to UTC, validated once at the boundary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator


class TimeWindow(BaseModel):
    """A half-open interval [start, end) in UTC."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start: AwareDatetime = Field(description="Start, RFC 3339 with an offset; stored in UTC.")
    end: AwareDatetime = Field(
        description="End (exclusive), RFC 3339 with an offset; stored in UTC."
    )

    @field_validator("start", "end")
    @classmethod
    def _to_utc(cls, value: datetime) -> datetime:
        return value.astimezone(UTC)

    @model_validator(mode="after")
    def _start_before_end(self) -> TimeWindow:
        if self.start >= self.end:
            raise ValueError(
                f"the window starts at {self.start.isoformat()} "
                f"but ends at {self.end.isoformat()}; "
                "the start must come before the end"
            )
        return self

    @property
    def duration(self) -> timedelta:
        return self.end - self.start
