"""The public JSON shapes. One `EntryView` feeds the HTML, JSON and Markdown views in both languages."""

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

from app.schemas.common import Text
from app.schemas.document import (
    DocLinkDoc,
    Outcome,
    ProvenanceDoc,
    Resolvable,
    ReviewStatus,
    VariantDoc,
    VerificationDoc,
    VersionDoc,
)

SCHEMA_VERSION = 1  # fields are only added (variants, verification, bases, verdicts): no bump
# A rate with no reports behind it is the curated estimate, and says so.
Basis = Literal["estimate", "reports"]
DEAD_END_THRESHOLD = 0.5  # an approach that fails less often than this is unreliable, not a dead end


class ReportCounts(BaseModel):
    worked: int = 0
    failed: int = 0
    partial: int = 0

    @property
    def total(self) -> int:
        return self.worked + self.failed + self.partial


class WorkaroundView(BaseModel):
    id: str
    title: Text
    steps: Text | None
    success_rate: float = Field(description="Posterior success rate, 0..1")
    prior_success_rate: float = Field(description="Curated prior, 0..1")
    reports: ReportCounts
    basis: Basis = Field(description="`estimate`: the curated prior alone, no reports yet")
    condition: Text | None
    tradeoff: Text | None
    sources: list[str]


class DeadEndView(BaseModel):
    id: str
    action: Text
    why_fails: Text
    fail_rate: float = Field(description="Posterior rate at which this fails, 0..1")
    prior_fail_rate: float
    reports: ReportCounts
    basis: Basis
    verdict: Literal["dead_end", "unreliable"] = Field(
        description="`dead_end` when it fails at least half the time, else `unreliable`"
    )
    condition: Text | None
    misconception: Text | None
    sources: list[str]


class RelatedView(BaseModel):
    id: str
    in_base: bool = Field(description="False while the target entry is not in errata yet")
    title: Text | None
    note: Text | None
    probability: float | None


class RelatedViews(BaseModel):
    leads_to: list[RelatedView] = []
    preceded_by: list[RelatedView] = []
    confused_with: list[RelatedView] = []


class PriorView(BaseModel):
    fix_rate: float
    confidence: float
    weight: float = Field(description="Pseudo-observations the curated prior is worth")


class EvidenceView(BaseModel):
    uid: str
    item: str | None
    outcome: Outcome
    versions: dict[str, str]
    note: str | None
    source_url: str | None
    submitted_at: datetime | None = Field(description="Null for a report a source counted without a date")
    status: str


class VersionReport(BaseModel):
    """How reports on one component version turned out."""

    component: str
    version: str
    worked: int = 0
    failed: int = 0
    partial: int = 0


class EntryLinks(BaseModel):
    html: str
    html_zh: str
    json_: str = Field(alias="json", serialization_alias="json")
    markdown: str
    markdown_zh: str

    model_config = {"populate_by_name": True}


class LastChange(BaseModel):
    revision: int
    by: str = Field(description='"import", "moderator" or "proposal #N"')
    summary: str | None
    at: datetime


class EntryHistory(BaseModel):
    """Where the entry came from and how it changed since: the history page has every revision."""

    last_change: LastChange
    source: Literal["shipped", "imported", "proposal"] = Field(
        description="What it came in as: errata's shipped files, an imported corpus, a reader's proposal"
    )
    origins: dict[str, str] = Field(
        description="Fields changed since, with who last changed each; the rest is as its source gave it"
    )
    credits: list[str] = Field(description="Display names of readers whose accepted proposals shaped it")
    url: str = Field(description="The history page")


class MergedPartView(BaseModel):
    """An entry merged into this one, shown as a section of it: an environment's own facts."""

    id: str
    environment: str | None = Field(description="The id's environment segment, for an environment variant")
    title: Text
    signature: str
    scope: str
    fix_rate: float
    evidence_count: int
    versions: list[VersionDoc]
    workarounds: list[WorkaroundView]
    dead_ends: list[DeadEndView]


class EntryView(BaseModel):
    schema_version: int = SCHEMA_VERSION
    id: str
    domain: str
    category: str
    title: Text
    summary: Text | None
    signature: str
    variants: list[VariantDoc] = Field(description="Other wordings of the same error")
    patterns: list[str]
    verification: list[VerificationDoc] = Field(
        description="How the signature and each variant were checked: reproduced or sourced"
    )
    ai_generated: bool
    review_status: ReviewStatus
    resolvable: Resolvable | None
    scope: str
    fix_rate: float
    confidence: float
    evidence_count: int
    fix_rate_basis: Basis = Field(description="`estimate` while the entry has no accepted report")
    first_seen: date | None
    last_confirmed: date | None
    prior: PriorView
    versions: list[VersionDoc]
    root_cause: Text | None
    docs: list[DocLinkDoc]
    workarounds: list[WorkaroundView]
    dead_ends: list[DeadEndView]
    related: RelatedViews
    provenance: ProvenanceDoc | None
    recent_evidence: list[EvidenceView]
    version_reports: list[VersionReport]
    links: EntryLinks
    created_at: datetime
    updated_at: datetime
    revision: int
    history: EntryHistory | None = None
    aliases: list[str] = Field(default=[], description="Ids merged into this entry; each answers 301 here")
    merged: list[MergedPartView] = Field(
        default=[], description="What each merged entry says of its own environment: versions, rates"
    )

    def ranked_workarounds(self) -> list[WorkaroundView]:
        """Best measured success first; the curated order breaks ties."""
        return sorted(self.workarounds, key=lambda w: -w.success_rate)

    def dead_end_to_avoid(self) -> DeadEndView | None:
        """The dead end people try most: the most reports, then the curated order."""
        dead_ends = [d for d in self.dead_ends if d.verdict == "dead_end"]
        return max(dead_ends, key=lambda d: d.reports.total, default=None)

    def has_chinese(self) -> bool:
        """Whether anyone has translated any of it; an entry with none says so once, not per field."""
        texts = [self.title, self.summary, self.root_cause]
        texts += [w.title for w in self.workarounds] + [d.action for d in self.dead_ends]
        return any(t is not None and t.zh for t in texts)


class EntrySummary(BaseModel):
    id: str
    domain: str
    category: str
    title: Text
    signature: str
    fix_rate: float
    confidence: float
    evidence_count: int
    fix_rate_basis: Basis = Field(description="`estimate` while the entry has no accepted report")
    ai_generated: bool
    updated_at: datetime
    url: str
    snippet: str | None = Field(
        default=None, description="With `q`: matching text, HTML-escaped, matches in <mark>"
    )


class EntryPage(BaseModel):
    data: list[EntrySummary]
    count: int = Field(description="Entries matching the filters, over all pages")
    next: str | None = Field(description="URL of the next page, or null on the last one")


class DomainCount(BaseModel):
    domain: str
    count: int
