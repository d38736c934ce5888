"""Bodies of the proposal endpoints (public and moderation)."""

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.services.proposals.changes import Change
from app.services.proposals.scrub import EMAIL_RE

ProposalStatus = Literal["pending", "accepted", "rejected"]


def _display_name(value: str | None) -> str | None:
    value = (value or "").strip()
    if not value:
        return None
    # Credit goes to a name, never to an address a crawler could harvest.
    if EMAIL_RE.search(value) or "@" in value or "://" in value:
        raise ValueError("a display name, not an e-mail or web address")
    return value


class ProposalIn(BaseModel):
    """A proposed change. `display_name` (optional) is how an accepted proposal is credited."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "change": {"kind": "pattern", "pattern": "Unable to allocate memory for KV cache"},
                    "note": "the message as vLLM 0.5 prints it",
                    "display_name": "Ada",
                }
            ]
        },
    )

    change: Change
    note: Annotated[str | None, Field(max_length=2000)] = None
    display_name: Annotated[str | None, Field(max_length=60)] = None

    _name = field_validator("display_name")(_display_name)


class AnyProposalIn(ProposalIn):
    """POST /api/v1/proposals: a new entry, or (with `entry_id`) an edit of one."""

    entry_id: Annotated[str | None, Field(max_length=300)] = None


class ProposalView(BaseModel):
    id: int
    entry_id: str = Field(description="The entry edited, or the id a new entry would get")
    kind: str
    change: dict
    note: str | None
    display_name: str | None
    status: ProposalStatus
    base_revision: int | None = Field(description="The entry's revision when proposed; null for a new entry")
    submitted_at: datetime
    decided_at: datetime | None
    reason: str | None = Field(description="Why a moderator rejected it")
    accepted_revision: int | None = Field(description="The entry's revision that accepting it made")
    url: str


class AcceptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    document: Annotated[
        str | None, Field(max_length=60000, description="The entry as edited by the moderator, YAML")
    ] = None


class DecisionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str | None, Field(max_length=2000)] = None


class RevertIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    revision: Annotated[int, Field(ge=1)]
