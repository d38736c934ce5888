"""The entry as a file in `data/` (see docs/data-format.md): what import reads and export writes."""

import hashlib
from datetime import date
from typing import Literal

import orjson
from pydantic import AwareDatetime, Field, field_validator, model_validator

from app.schemas.common import MAX_DOMAIN, EntryId, ItemKey, Rate, RegexPattern, Str, Strict, Text

VersionStatus = Literal["active", "fixed", "unaffected", "unknown"]
Outcome = Literal["worked", "failed", "partial"]
ReviewStatus = Literal["unreviewed", "reviewed"]
Resolvable = Literal["true", "partial", "false"]
RelationKind = Literal["leads_to", "preceded_by", "confused_with"]
RELATION_KINDS: tuple[RelationKind, ...] = ("leads_to", "preceded_by", "confused_with")
# reported: a wording a source shows that no release was found to print; kept, and said so.
VerificationMethod = Literal["reproduced", "sourced", "reported"]
Url = str


def _check_url(value: str | None) -> str | None:
    if value is not None and not value.startswith(("http://", "https://")):
        raise ValueError("must be an http(s) URL")
    return value


class VersionDoc(Strict):
    component: Str = Field(min_length=1, max_length=100)
    version: Str = Field(max_length=200)
    status: VersionStatus = "active"
    introduced: Str | None = None
    deprecated: Str | None = None
    notes: Text | None = None


class DocLinkDoc(Strict):
    title: Str = Field(min_length=1)
    url: Url

    _url = field_validator("url")(_check_url)


class WorkaroundDoc(Strict):
    id: ItemKey
    title: Text
    steps: Text | None = None
    success_rate: Rate
    condition: Text | None = None
    tradeoff: Text | None = None
    sources: list[Url] = []

    _sources = field_validator("sources")(lambda v: [_check_url(u) for u in v])


class DeadEndDoc(Strict):
    id: ItemKey
    action: Text
    why_fails: Text
    fail_rate: Rate
    condition: Text | None = None
    misconception: Text | None = None
    sources: list[Url] = []

    _sources = field_validator("sources")(lambda v: [_check_url(u) for u in v])


class VariantDoc(Strict):
    """Another wording of the same error: an older or newer release, another client, a locale."""

    text: Str = Field(min_length=1)
    versions: Str | None = Field(default=None, max_length=200)
    locale: Str | None = Field(default=None, max_length=40)
    note: Text | None = None


class VerificationDoc(Strict):
    """How one wording was checked: printed by the real tool, or read from its source."""

    text: Str = Field(min_length=1, description="The signature or a variant's text, verbatim")
    method: VerificationMethod
    tool: Str = Field(min_length=1, max_length=100)
    version: Str = Field(min_length=1, max_length=100)
    checked: date
    command: Str | None = Field(default=None, description="reproduced: the command that printed it")
    url: Url | None = Field(default=None, description="sourced: the line that prints it, at `version`")
    file: Str | None = Field(default=None, max_length=300, description="sourced: that file's path")
    note: Text | None = Field(default=None, description="reported: what is known of this wording")

    _url = field_validator("url")(_check_url)

    @model_validator(mode="after")
    def _says_how(self) -> "VerificationDoc":
        if self.method == "reproduced" and not self.command:
            raise ValueError("a reproduced wording needs the command that printed it")
        if self.method == "sourced" and not self.url:
            raise ValueError("a sourced wording needs the url of the line that prints it")
        if self.method == "reported" and not self.note:
            raise ValueError("a reported wording needs a note saying what is known of it")
        return self


class RelatedRef(Strict):
    id: EntryId
    note: Text | None = None
    probability: Rate | None = None


class RelatedDoc(Strict):
    leads_to: list[RelatedRef] = []
    preceded_by: list[RelatedRef] = []
    confused_with: list[RelatedRef] = []


class PriorDoc(Strict):
    fix_rate: Rate
    confidence: Rate


class ProvenanceDoc(Strict):
    source: Str | None = None
    source_url: Url | None = None
    generated_by: Str | None = None
    generation_date: date | None = None
    source_evidence_count: int | None = Field(default=None, ge=0)


class EvidenceDoc(Strict):
    uid: Str = Field(min_length=1, max_length=64)
    item: ItemKey | None = None
    outcome: Outcome
    versions: dict[Str, Str] = {}
    note: Str | None = None
    source_url: Url | None = None
    # None for a report counted by a source whose date (like its other details) is unknown.
    submitted_at: AwareDatetime | None = None
    status: Literal["accepted", "rejected"] = "accepted"

    _source_url = field_validator("source_url")(_check_url)


class EntryDoc(Strict):
    id: EntryId
    domain: Str = Field(min_length=1, max_length=MAX_DOMAIN)
    category: Str = Field(min_length=1, max_length=100)
    title: Text
    summary: Text | None = None
    signature: Str = Field(min_length=1)
    variants: list[VariantDoc] = []
    patterns: list[RegexPattern] = []
    verification: list[VerificationDoc] = []
    ai_generated: bool = False
    review_status: ReviewStatus = "unreviewed"
    resolvable: Resolvable | None = None
    scope: Str = "generic"
    first_seen: date | None = None
    last_confirmed: date | None = None
    prior: PriorDoc
    versions: list[VersionDoc] = []
    root_cause: Text | None = None
    docs: list[DocLinkDoc] = []
    workarounds: list[WorkaroundDoc] = []
    dead_ends: list[DeadEndDoc] = []
    related: RelatedDoc = RelatedDoc()
    provenance: ProvenanceDoc | None = None
    evidence: list[EvidenceDoc] = []
    # Merges: ids merged into this entry, or the entry this one was merged into. They say
    # how entries group, not what an entry says, so they stay out of the content hash;
    # an import applies them to entries not merged yet and never undoes a merge.
    aliases: list[EntryId] = []
    merged_into: EntryId | None = None
    revision: int | None = Field(default=None, ge=1)
    created_at: AwareDatetime | None = None
    updated_at: AwareDatetime | None = None

    @model_validator(mode="after")
    def _consistent(self) -> "EntryDoc":
        if self.merged_into == self.id or self.id in self.aliases:
            raise ValueError("an entry cannot be merged into itself")
        if self.merged_into and self.aliases:
            raise ValueError("an entry merged into another cannot have aliases of its own")
        if self.domain != self.id.split("/", 1)[0]:
            raise ValueError(f"domain {self.domain!r} does not match the id {self.id!r}")
        keys = [w.id for w in self.workarounds] + [d.id for d in self.dead_ends]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise ValueError(f"workaround/dead-end ids are not unique: {', '.join(duplicates)}")
        wordings = self.wordings()
        for check in self.verification:
            if check.text not in wordings:
                raise ValueError(f"verification of neither the signature nor a variant: {check.text!r}")
        for report in self.evidence:
            if report.item is not None and report.item not in keys:
                raise ValueError(f"evidence {report.uid} names an unknown item {report.item!r}")
        return self

    def wordings(self) -> list[str]:
        """The signature and each variant's text: everything a verification may vouch for."""
        return [self.signature, *(v.text for v in self.variants)]

    def content(self) -> dict:
        """The curated content: everything but evidence and bookkeeping."""
        return self.model_dump(mode="json", exclude={"evidence", "revision", "created_at", "updated_at"})

    def content_hash(self) -> str:
        content = {k: v for k, v in self.content().items() if k not in ("aliases", "merged_into")}
        return hashlib.sha256(orjson.dumps(content, option=orjson.OPT_SORT_KEYS)).hexdigest()
