"""Request and response bodies of the write and lookup endpoints."""

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from app.schemas.common import ITEM_KEY_RE, EntryId
from app.schemas.document import Outcome
from app.schemas.views import EvidenceView

MAX_VERSIONS = 12
_COMPONENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+ -]{0,49}$")
_VERSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+*!<>=~, -]{0,49}$")


def _check_versions(versions: dict[str, str]) -> dict[str, str]:
    if len(versions) > MAX_VERSIONS:
        raise ValueError(f"at most {MAX_VERSIONS} components")
    clean: dict[str, str] = {}
    for component, version in versions.items():
        component, version = component.strip(), str(version).strip()
        if not _COMPONENT_RE.match(component):
            raise ValueError(f"component name {component[:60]!r} is not a plain name")
        if not _VERSION_RE.match(version):
            raise ValueError(f"version {version[:60]!r} of {component} is not a version")
        clean[component.lower()] = version
    return clean


# Versions a reader ran, {"vllm": "0.4.2"}: component names lowercased, both checked.
Versions = Annotated[dict[str, str], AfterValidator(_check_versions)]


def _check_url(value: str | None) -> str | None:
    if value in (None, ""):
        return None
    if not re.match(r"^https?://[^\s/$.?#][^\s]*$", value):
        raise ValueError("must be an http(s) URL")
    return value


class EvidenceIn(BaseModel):
    """One report: what was tried, and how it went."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "item": "lower-utilization-cap-seqs",
                    "outcome": "worked",
                    "versions": {"vllm": "0.4.2", "cuda": "12.1"},
                    "note": "0.80 with --max-num-seqs 64 stopped it",
                    "source_url": None,
                }
            ]
        },
    )

    item: Annotated[
        str | None,
        Field(max_length=100, pattern=ITEM_KEY_RE.pattern, description="Workaround or dead-end id"),
    ] = None
    outcome: Outcome
    versions: Annotated[dict[str, str], AfterValidator(_check_versions)] = {}
    note: Annotated[str | None, Field(max_length=2000)] = None
    source_url: Annotated[str | None, Field(max_length=2000), AfterValidator(_check_url)] = None

    @field_validator("note")
    @classmethod
    def _blank_note(cls, value: str | None) -> str | None:
        return value.strip() or None if value else None


class ItemFigure(BaseModel):
    id: str
    kind: str
    rate: float


class EntryFigures(BaseModel):
    fix_rate: float
    confidence: float
    evidence_count: int
    item: ItemFigure | None = None


class EvidenceCreated(BaseModel):
    evidence: EvidenceView
    entry: EntryFigures
    # True when this was a repeat of a report already stored (not part of the body).
    repeated: bool = Field(default=False, exclude=True)


class RejectIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str | None, Field(max_length=2000)] = None


class ModerationEvidence(EvidenceView):
    entry_id: str
    client: str | None


class ModerationLogRow(BaseModel):
    evidence_uid: str | None
    proposal_id: int | None = None
    action: str
    entry_id: str | None = None
    target_id: str | None = None
    reason: str | None
    at: str


class MergeIn(BaseModel):
    """Merge `from` into `into` (the entry that stays), or undo the merge of `from`."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Annotated[EntryId, Field(alias="from")]
    into: EntryId | None = None
    reason: Annotated[str | None, Field(max_length=2000)] = None


class MergeOut(BaseModel):
    action: str
    from_: str = Field(serialization_alias="from")
    into: str
    repointed: list[str] = Field(
        description="Aliases that moved with `from`: to `into` (merge), or back to `from` (unmerge)"
    )
    touched: list[str] = Field(description="Every entry whose revision the merge bumped")


MAX_PASTE_BYTES = 64 * 1024
# Bounds app.web.fastpath checks too: it leaves to the route any body the route would refuse.
MAX_MATCHES = 50
DEFAULT_MATCHES = 10


class LookupIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "text": "RuntimeError: OutOfMemoryError: Unable to allocate memory for KV cache block.",
                    "limit": 5,
                    "versions": {"vllm": "0.4.2"},
                }
            ]
        },
    )

    text: Annotated[str, Field(description="Pasted error, traceback or log; up to 64 KiB")]
    limit: Annotated[int, Field(ge=1, le=MAX_MATCHES)] = DEFAULT_MATCHES
    versions: Annotated[dict[str, str] | None, AfterValidator(lambda v: v and _check_versions(v))] = None


class LookupMatch(BaseModel):
    id: str
    title: dict[str, str | None]
    score: float = Field(description="0..1: how well the entry fits the paste")
    url: str


class LookupOut(BaseModel):
    matches: list[LookupMatch]
