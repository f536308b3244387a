"""Time windows: timezone-aware, normalised to UTC, validated once at the boundary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    import polars as pl


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

    def contains(self, column: str | pl.Expr = "ts") -> pl.Expr:
        """The window as a polars predicate: `column` in [start, end)."""
        import polars as pl  # here, so that a record (which holds windows) needs no polars

        ts = pl.col(column) if isinstance(column, str) else column
        return (ts >= self.start) & (ts < self.end)


class WindowError(IncidentbookError):
    """A window given on the command line or as a parameter that is not usable."""


def make_window(start: str | datetime, end: str | datetime, what: str = "window") -> TimeWindow:
    """A validated window from RFC 3339 strings, with a sentence for what is wrong."""
    try:
        return TimeWindow(start=start, end=end)
    except ValidationError as exc:
        overrides = {
            "timezone_aware": "has no UTC offset; write RFC 3339 with an offset, "
            "e.g. 2025-03-14T08:00:00Z"
        }
        problems = problems_from(exc, what, overrides=overrides)
        reasons = [
            f"{p.field} {p.message}" if p.field != "(record)" else p.message for p in problems
        ]
        raise WindowError(f"the {what} is not usable: " + "; ".join(reasons)) from None
