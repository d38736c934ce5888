"""SQLModel tables. Bilingual text is an `_en`/`_zh` column pair; rates are 0..1 floats.

Derived statistics (fix_rate, confidence, evidence_count, item rates and report counts)
are stored for fast reads but always recomputed from the evidence rows, never
incremented in place.
"""

from datetime import date, datetime

from sqlalchemy import JSON, Column, Index, Text, UniqueConstraint, func, text
from sqlmodel import Field, SQLModel


class Entry(SQLModel, table=True):
    __tablename__ = "entry"

    id: str = Field(primary_key=True, max_length=300)
    # A stable integer key for the search index (SQLite's implicit rowid may change on VACUUM).
    seq: int = Field(unique=True)
    domain: str = Field(max_length=100)
    category: str = Field(max_length=100)
    title_en: str
    title_zh: str | None = None
    summary_en: str | None = Field(default=None, sa_column=Column(Text))
    summary_zh: str | None = Field(default=None, sa_column=Column(Text))
    signature: str = Field(sa_column=Column(Text, nullable=False))
    # Small lists read only with the entry (never queried): JSON, in the shapes of
    # VariantDoc and VerificationDoc.
    variants: list[dict] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    verification: list[dict] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    ai_generated: bool = False
    review_status: str = "unreviewed"
    resolvable: str | None = None
    scope: str = "generic"
    first_seen: date | None = None
    last_confirmed: date | None = None
    root_cause_en: str | None = Field(default=None, sa_column=Column(Text))
    root_cause_zh: str | None = Field(default=None, sa_column=Column(Text))
    prior_fix_rate: float
    prior_confidence: float
    fix_rate: float
    confidence: float
    evidence_count: int = 0
    source: str | None = None
    source_url: str | None = None
    generated_by: str | None = None
    generation_date: date | None = None
    source_evidence_count: int | None = None
    # Hash of the curated content; an import with the same hash changes nothing.
    content_hash: str = Field(max_length=64)
    revision: int = 1
    # Global change counter at this entry's last create or content change: the lookup index
    # of each process re-reads entries past the counter it has seen.
    changed: int = Field(default=0, index=True)
    # Set when this entry was merged into another: it is then an alias of that canonical
    # entry (its id answers 301 there) and keeps its own rows, so a merge can be undone.
    canonical_id: str | None = Field(default=None, max_length=300)
    created_at: datetime
    updated_at: datetime
    # Who made the current revision ("import", "moderator", "proposal #N") and why.
    changed_by: str | None = Field(default=None, max_length=100)
    change_summary: str | None = Field(default=None, sa_column=Column(Text))
    # Top-level content field -> who last changed it, for fields changed after the entry
    # came in; a field not named here is as its source (shipped or imported) gave it.
    field_origins: dict = Field(
        default_factory=dict, sa_column=Column(JSON, nullable=False, server_default="{}")
    )


def _partial(condition: str) -> dict:
    """An index of the rows meeting `condition`, on either backend."""
    return {"sqlite_where": text(condition), "postgresql_where": text(condition)}


# Lists show canonical entries only (an alias answers with a redirect). Indexed over those
# alone, in the lists' own order, the home page's and the domain pages' lists are index
# reads at any size; over every entry, the planner took `canonical_id IS NULL` for a rare
# value and sorted all the rows (150 ms of CPU at 100,000 entries). A category's list, with
# or without a domain, reads its own index in the same order; the figures count sources
# from theirs. An index that counts ends with canonical_id (NULL in all its rows): SQLite
# reads the row for a column its WHERE names unless the index holds it. Aliases are looked
# up by the entry they point to, in an index of aliases alone. The domain's and the
# category's indexes end with the entry number, which a search among their entries reads.
Index(
    "ix_entry_listed",
    Entry.domain,
    Entry.id,
    Entry.canonical_id,
    Entry.seq,
    **_partial("canonical_id IS NULL"),
)
Index(
    "ix_entry_categorized",
    Entry.category,
    Entry.domain,
    Entry.id,
    Entry.canonical_id,
    Entry.seq,
    **_partial("canonical_id IS NULL"),
)
Index("ix_entry_sourced", Entry.source, Entry.canonical_id, **_partial("canonical_id IS NULL"))
Index("ix_entry_recent", Entry.updated_at.desc(), Entry.id, **_partial("canonical_id IS NULL"))
Index("ix_entry_reported", Entry.evidence_count.desc(), Entry.id, **_partial("canonical_id IS NULL"))
Index("ix_entry_alias", Entry.canonical_id, Entry.id, **_partial("canonical_id IS NOT NULL"))
# What a kept page checks before each answer (its entries' change counters, the stamp), read
# from this index alone rather than from each entry's row (migration 0014).
Index("ix_entry_stamp", Entry.id, Entry.changed)


class Pattern(SQLModel, table=True):
    __tablename__ = "entry_pattern"

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    position: int
    regex: str = Field(sa_column=Column(Text, nullable=False))


class VersionRow(SQLModel, table=True):
    __tablename__ = "entry_version"

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    position: int
    component: str = Field(max_length=100)
    version: str = Field(max_length=200)
    status: str = Field(max_length=20)
    introduced: str | None = None
    deprecated: str | None = None
    notes_en: str | None = Field(default=None, sa_column=Column(Text))
    notes_zh: str | None = Field(default=None, sa_column=Column(Text))


# The list filtered by a component (any case) and version reads this index alone: the
# versions it names, then the entries of the versions that cover the one asked for.
Index(
    "ix_entry_version_affected",
    func.lower(VersionRow.component),
    VersionRow.status,
    VersionRow.version,
    VersionRow.entry_id,
)


class DocLink(SQLModel, table=True):
    __tablename__ = "entry_doc"

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    position: int
    title: str
    url: str = Field(max_length=2000)


class Workaround(SQLModel, table=True):
    __tablename__ = "workaround"
    __table_args__ = (UniqueConstraint("entry_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    position: int
    key: str = Field(max_length=100)
    title_en: str = Field(sa_column=Column(Text, nullable=False))
    title_zh: str | None = Field(default=None, sa_column=Column(Text))
    steps_en: str | None = Field(default=None, sa_column=Column(Text))
    steps_zh: str | None = Field(default=None, sa_column=Column(Text))
    condition_en: str | None = Field(default=None, sa_column=Column(Text))
    condition_zh: str | None = Field(default=None, sa_column=Column(Text))
    tradeoff_en: str | None = Field(default=None, sa_column=Column(Text))
    tradeoff_zh: str | None = Field(default=None, sa_column=Column(Text))
    sources: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    prior_rate: float
    rate: float
    worked: int = 0
    failed: int = 0
    partial: int = 0


class DeadEnd(SQLModel, table=True):
    __tablename__ = "dead_end"
    __table_args__ = (UniqueConstraint("entry_id", "key"),)

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    position: int
    key: str = Field(max_length=100)
    action_en: str = Field(sa_column=Column(Text, nullable=False))
    action_zh: str | None = Field(default=None, sa_column=Column(Text))
    why_fails_en: str = Field(sa_column=Column(Text, nullable=False))
    why_fails_zh: str | None = Field(default=None, sa_column=Column(Text))
    condition_en: str | None = Field(default=None, sa_column=Column(Text))
    condition_zh: str | None = Field(default=None, sa_column=Column(Text))
    misconception_en: str | None = Field(default=None, sa_column=Column(Text))
    misconception_zh: str | None = Field(default=None, sa_column=Column(Text))
    sources: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    prior_rate: float
    rate: float
    worked: int = 0
    failed: int = 0
    partial: int = 0


class Relation(SQLModel, table=True):
    __tablename__ = "entry_relation"

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    kind: str = Field(max_length=20)  # leads_to | preceded_by | confused_with
    position: int
    # Not a foreign key: a target may not be in the base yet.
    target_id: str = Field(index=True, max_length=300)
    note_en: str | None = Field(default=None, sa_column=Column(Text))
    note_zh: str | None = Field(default=None, sa_column=Column(Text))
    probability: float | None = None


class Evidence(SQLModel, table=True):
    __tablename__ = "evidence"
    __table_args__ = (
        Index("ix_evidence_entry_status", "entry_id", "status"),
        Index("ix_evidence_client_time", "client", "submitted_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    uid: str = Field(unique=True, max_length=64)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE")
    # The workaround or dead-end key within the entry, or None for a plain outcome.
    item: str | None = Field(default=None, max_length=100)
    outcome: str = Field(max_length=10)  # worked | failed | partial
    note: str | None = Field(default=None, sa_column=Column(Text))
    source_url: str | None = Field(default=None, max_length=2000)
    submitted_at: datetime | None = Field(default=None, index=True)  # None: counted by a source, date unknown
    status: str = Field(default="accepted", max_length=10)  # accepted | rejected
    # Salted hash of the submitting client, for moderation; never exported.
    client: str | None = Field(default=None, max_length=64)


class EvidenceVersion(SQLModel, table=True):
    __tablename__ = "evidence_version"

    id: int | None = Field(default=None, primary_key=True)
    evidence_id: int = Field(foreign_key="evidence.id", ondelete="CASCADE", index=True)
    component: str = Field(max_length=100)
    version: str = Field(max_length=100)


class EntryRevision(SQLModel, table=True):
    """The content of an entry as it was before revision `revision + 1` replaced it."""

    __tablename__ = "entry_revision"
    __table_args__ = (UniqueConstraint("entry_id", "revision"),)

    id: int | None = Field(default=None, primary_key=True)
    entry_id: str = Field(foreign_key="entry.id", ondelete="CASCADE", index=True)
    revision: int
    content: dict = Field(sa_column=Column(JSON, nullable=False))
    replaced_at: datetime
    # Who made this revision, why, and when (null for revisions kept before this was recorded).
    author: str | None = Field(default=None, max_length=100)
    summary: str | None = Field(default=None, sa_column=Column(Text))
    made_at: datetime | None = None


class ModerationAction(SQLModel, table=True):
    __tablename__ = "moderation_action"

    id: int | None = Field(default=None, primary_key=True)
    # What was acted on: a report; a proposal; an entry (a revision restored); or two entries
    # (merge | unmerge: entry_id merged into target_id).
    evidence_uid: str | None = Field(default=None, index=True, max_length=64)
    proposal_id: int | None = Field(default=None, index=True)
    entry_id: str | None = Field(default=None, index=True, max_length=300)
    target_id: str | None = Field(default=None, max_length=300)
    action: str = Field(max_length=20)  # reject | restore | accept | revert | merge | unmerge
    reason: str | None = Field(default=None, sa_column=Column(Text))
    at: datetime


class Paste(SQLModel, table=True):
    """A paste too long for a URL, kept so its results page has a short permalink."""

    __tablename__ = "paste"

    id: str = Field(primary_key=True, max_length=32)  # digest of the text: one row per text
    text: str = Field(sa_column=Column(Text, nullable=False))
    created_at: datetime


class Proposal(SQLModel, table=True):
    """A reader's proposed edit of an entry, or a new entry; it changes nothing until accepted."""

    __tablename__ = "proposal"
    __table_args__ = (
        Index("ix_proposal_status_time", "status", "submitted_at"),
        Index("ix_proposal_client_time", "client", "submitted_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    # The entry edited; for a new entry, the id it proposes (not a foreign key: it may never exist).
    entry_id: str = Field(index=True, max_length=300)
    kind: str = Field(max_length=20)
    # The change as validated (one of the shapes in app.services.proposals.changes), scrubbed.
    change: dict = Field(sa_column=Column(JSON, nullable=False))
    note: str | None = Field(default=None, sa_column=Column(Text))
    display_name: str | None = Field(default=None, max_length=60)
    base_revision: int | None = None  # the entry's revision when proposed; null for a new entry
    status: str = Field(default="pending", max_length=10)  # pending | accepted | rejected
    submitted_at: datetime
    decided_at: datetime | None = None
    reason: str | None = Field(default=None, sa_column=Column(Text))
    accepted_revision: int | None = None
    # Salted hash of the submitting client, for the rate limit and moderation; never shown.
    client: str | None = Field(default=None, max_length=64)
