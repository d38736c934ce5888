"""Reading entries: one load builds the EntryView every format and language renders."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from sqlalchemy import bindparam, func
from sqlalchemy.engine import Connection, Row
from sqlmodel import Session, col, select

from app.models import (
    DeadEnd,
    DocLink,
    Entry,
    Evidence,
    EvidenceVersion,
    Pattern,
    Proposal,
    Relation,
    VersionRow,
    Workaround,
)
from app.schemas.common import Text
from app.schemas.document import (
    RELATION_KINDS,
    DocLinkDoc,
    ProvenanceDoc,
    VariantDoc,
    VerificationDoc,
    VersionDoc,
)
from app.schemas.views import (
    DEAD_END_THRESHOLD,
    DeadEndView,
    EntryHistory,
    EntryLinks,
    EntrySummary,
    EntryView,
    EvidenceView,
    LastChange,
    MergedPartView,
    PriorView,
    RelatedView,
    RelatedViews,
    ReportCounts,
    VersionReport,
    WorkaroundView,
)
from app.services.entries.aliases import environment_of, same_error_ids
from app.services.errors import EntryNotFound
from app.services.evidence import stats
from app.urls import entry_url, history_url

RECENT_EVIDENCE = 10


def basis(reports: int) -> str:
    return "reports" if reports else "estimate"


def text(en: str | None, zh: str | None) -> Text | None:
    return Text(en=en, zh=zh) if en else None


def _rows(session: Session, statement, **params) -> list[Row]:
    """A statement's rows, in the session's transaction, as rows: loading each as an object
    of its model cost four times the query itself (the six part tables of an entry, 0.96
    against 0.22 ms)."""
    if session.autoflush:  # as the session's own queries do: a view made inside a write sees it
        session.flush()
    return session.connection().execute(statement, params).all()


@cache
def _ordered_statement(model):
    table = model.__table__
    return select(*table.columns).where(table.c.entry_id == bindparam("entry_id")).order_by(table.c.position)


def _ordered(session: Session, model, entry_id: str) -> list[Row]:
    """The entry's rows of a part table, in their order."""
    return _rows(session, _ordered_statement(model), entry_id=entry_id)


_IDS = bindparam("ids", expanding=True)
# What a view shows of a report (never the client's hash, kept for moderation alone).
_ACCEPTED = select(
    Evidence.id,
    Evidence.uid,
    Evidence.item,
    Evidence.outcome,
    Evidence.note,
    Evidence.source_url,
    Evidence.submitted_at,
    Evidence.status,
).where(Evidence.status == "accepted")
# The latest accepted reports of an entry, or of a merged group, an undated one last
# (PostgreSQL sorts NULL first in a descending order, SQLite last).
_LATEST = (col(Evidence.submitted_at).desc().nulls_last(), col(Evidence.id).desc())
_OWN_EVIDENCE = (
    _ACCEPTED.where(Evidence.entry_id == bindparam("entry_id")).order_by(*_LATEST).limit(RECENT_EVIDENCE)
)
_GROUP_EVIDENCE = _ACCEPTED.where(col(Evidence.entry_id).in_(_IDS)).order_by(*_LATEST).limit(RECENT_EVIDENCE)
_EVIDENCE_VERSIONS = (
    select(EvidenceVersion.evidence_id, EvidenceVersion.component, EvidenceVersion.version)
    .where(col(EvidenceVersion.evidence_id).in_(_IDS))
    .order_by(EvidenceVersion.id)
)
_VERSION_REPORTS = (
    select(EvidenceVersion.component, EvidenceVersion.version, Evidence.outcome, func.count())
    .join(Evidence, col(Evidence.id) == EvidenceVersion.evidence_id)
    .where(col(Evidence.entry_id).in_(_IDS), Evidence.status == "accepted")
    .group_by(EvidenceVersion.component, EvidenceVersion.version, Evidence.outcome)
)
# The entry's row and its aliases' (merged into it, in id order), read as rows like its
# parts: an entry loaded as an object of its model was a tenth of a first read.
_ENTRY_ROW = select(*Entry.__table__.columns)
_ENTRY = _ENTRY_ROW.where(col(Entry.id) == bindparam("entry_id"))
_ALIASES = _ENTRY_ROW.where(col(Entry.canonical_id) == bindparam("entry_id")).order_by(Entry.id)
_RELATED_TITLES = select(Entry.id, Entry.title_en, Entry.title_zh, Entry.changed).where(
    col(Entry.id).in_(_IDS)
)
_CREDITS = (
    select(Proposal.display_name)
    .where(
        Proposal.entry_id == bindparam("entry_id"),
        Proposal.status == "accepted",
        col(Proposal.display_name).is_not(None),
    )
    .order_by(col(Proposal.id))
)


def links(entry_id: str) -> EntryLinks:
    return EntryLinks(
        html=entry_url(entry_id),
        html_zh=entry_url(entry_id, lang="zh"),
        json=entry_url(entry_id, fmt="json"),
        markdown=entry_url(entry_id, fmt="md"),
        markdown_zh=entry_url(entry_id, lang="zh", fmt="md"),
    )


def provenance(entry: Row) -> ProvenanceDoc | None:
    values = {
        "source": entry.source,
        "source_url": entry.source_url,
        "generated_by": entry.generated_by,
        "generation_date": entry.generation_date,
        "source_evidence_count": entry.source_evidence_count,
    }
    return ProvenanceDoc(**values) if any(v is not None for v in values.values()) else None


def evidence_views(session: Session, rows: list[Evidence] | list[Row]) -> list[EvidenceView]:
    versions: dict[int, dict[str, str]] = defaultdict(dict)
    if rows:
        for evidence_id, component, version in _rows(session, _EVIDENCE_VERSIONS, ids=[r.id for r in rows]):
            versions[evidence_id][component] = version
    return [
        EvidenceView(
            uid=r.uid,
            item=r.item,
            outcome=r.outcome,
            versions=versions[r.id],
            note=r.note,
            source_url=r.source_url,
            submitted_at=r.submitted_at,
            status=r.status,
        )
        for r in rows
    ]


def _version_reports(session: Session, entry_ids: list[str], names: dict[str, str]) -> list[VersionReport]:
    """Outcome counts per reported component version; `names` gives the entry's spelling of each."""
    rows = _rows(session, _VERSION_REPORTS, ids=entry_ids)
    reports: dict[tuple[str, str], VersionReport] = {}
    for component, version, outcome, count in rows:
        shown = names.get(component.lower(), component)
        report = reports.setdefault((shown, version), VersionReport(component=shown, version=version))
        setattr(report, outcome, getattr(report, outcome) + count)
    return sorted(reports.values(), key=lambda r: (r.component.lower(), r.version))


def _related(session: Session, entry_id: str) -> tuple[RelatedViews, dict[str, int]]:
    """The related entries, and the change counter of each one found in the base."""
    rows = _ordered(session, Relation, entry_id)
    targets = {r.target_id for r in rows}
    found = _rows(session, _RELATED_TITLES, ids=list(targets)) if targets else []
    titles = {eid: Text(en=en, zh=zh) for eid, en, zh, _ in found}
    grouped: dict[str, list[RelatedView]] = {kind: [] for kind in RELATION_KINDS}
    for r in rows:
        grouped[r.kind].append(
            RelatedView(
                id=r.target_id,
                in_base=r.target_id in titles,
                title=titles.get(r.target_id),
                note=text(r.note_en, r.note_zh),
                probability=r.probability,
            )
        )
    return RelatedViews(**grouped), {eid: changed for eid, _, _, changed in found}


# Provenance sources the importers write: the deadends.dev corpus, and a reader's new entry.
_SOURCES = {"deadends.dev": "imported", "reader proposal": "proposal"}


def _history(session: Session, entry: Row) -> EntryHistory:
    credits = [name for (name,) in _rows(session, _CREDITS, entry_id=entry.id)]
    return EntryHistory(
        last_change=LastChange(
            revision=entry.revision,
            by=entry.changed_by or "import",
            summary=entry.change_summary,
            at=entry.updated_at,
        ),
        source=_SOURCES.get(entry.source or "", "shipped"),
        origins=entry.field_origins or {},
        credits=list(dict.fromkeys(credits)),
        url=history_url(entry.id),
    )


@dataclass(frozen=True)
class Located:
    id: str  # the entry to show: a canonical entry
    alias: str | None = None  # the merged entry the address named, if it named one
    # The entry's row, when the address named it as it is: load_entry need not read it again.
    row: Row | None = field(default=None, compare=False, repr=False)


def _entry_row(session: Session, entry_id: str) -> Row | None:
    found = _rows(session, _ENTRY, entry_id=entry_id)
    return found[0] if found else None


def locate(session: Session, entry_id: str) -> Located:
    """The entry an address names, forgiving case and stray slashes (`LLM/Foo/` -> `llm/foo`),
    following an alias to its canonical entry, and taking `domain/slug` to the entry its
    environment variants (`domain/slug/env`) were grouped under."""
    for candidate in dict.fromkeys((entry_id, entry_id.strip("/").lower())):
        row = _entry_row(session, candidate)
        if row is not None:
            return Located(row.canonical_id, row.id) if row.canonical_id else Located(row.id, row=row)
    variants = same_error_ids(session, entry_id.strip("/").lower())
    canonical = next((e.canonical_id or e.id for e in variants), None)
    if canonical is None:
        raise EntryNotFound(entry_id)
    return Located(canonical)


def canonical_id(session: Session, entry_id: str) -> str:
    return locate(session, entry_id).id


Stamp = tuple[int, int]
_STAMP = select(func.count(), func.max(Entry.changed)).where(col(Entry.id).in_(_IDS))


@dataclass(frozen=True)
class LoadedEntry:
    """An entry's view with what it was built from: its id and the related ids it names, and
    their stamp (how many of them exist, their highest change counter) as read while building.
    Any later write to any of them, or one appearing or vanishing, gives another stamp."""

    view: EntryView
    ids: tuple[str, ...]
    stamp: Stamp


# Two subqueries, not one SELECT of two aggregates: SQLite answers a lone max() from its
# index, but two in one SELECT by reading the whole table.
_BASE_STAMP = select(
    select(func.max(Entry.seq)).scalar_subquery(), select(func.max(Entry.changed)).scalar_subquery()
)


def current_stamp(conn: Connection, ids: tuple[str, ...]) -> Stamp:
    """The stamp of `ids` now: one indexed query, the cheap test of whether a view is current.
    No ids stand for the whole base (lists, search): its newest entry and its latest change."""
    if not ids:
        newest, latest = conn.execute(_BASE_STAMP).one()
        return newest or 0, latest or 0
    count, latest = conn.execute(_STAMP, {"ids": list(ids)}).one()
    return count, latest or 0


def get_entry(session: Session, entry_id: str, *, merged: bool = True) -> EntryView:
    """The entry as readers see it: with `merged`, a canonical entry also shows what its
    aliases bring (their wordings, patterns, links, reports, and a section each); without,
    only its own content (what export and history keep)."""
    return load_entry(session, entry_id, merged=merged).view


def load_entry(
    session: Session, entry_id: str, *, merged: bool = True, row: Row | None = None
) -> LoadedEntry:
    """One entry in a fixed number of set-based queries per entry of its group; `row`: its
    row, read already in this transaction (Located.row).

    The entry rows (and their change counters) are read first, so a write that lands while
    the parts are read leaves the stamp behind the content and the next check rebuilds it.
    The stamp covers the entry, its aliases and the related entries it names."""
    entry = row if row is not None else _entry_row(session, entry_id)
    if entry is None:
        raise EntryNotFound(entry_id)
    aliases = _rows(session, _ALIASES, entry_id=entry_id)  # listed even unmerged: export writes them
    view, changed = _own_view(session, entry, [a.id for a in aliases])
    aliases = aliases if merged else []
    if aliases:
        parts = [_own_view(session, a, []) for a in aliases]  # merges never chain
        view = _with_aliases(session, view, [part for part, _ in parts])
        for alias, (_, related_changed) in zip(aliases, parts, strict=True):
            changed |= {**related_changed, alias.id: alias.changed}
    changed.pop(entry_id, None)
    named = {r.id for kind in RELATION_KINDS for r in getattr(view.related, kind)}
    targets = tuple(sorted((named | {a.id for a in aliases}) - {entry_id}))
    stamp = (1 + len(changed), max([entry.changed, *changed.values()]))
    return LoadedEntry(view=view, ids=(entry_id, *targets), stamp=stamp)


def _unique(items: list, key) -> list:
    seen: dict = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())


def _with_aliases(session: Session, view: EntryView, parts: list[EntryView]) -> EntryView:
    group = [view.id, *view.aliases]
    wordings = [VariantDoc(text=p.signature) for p in parts]
    every = [*view.variants, *wordings, *(v for p in parts for v in p.variants)]
    variants = [v for v in _unique(every, lambda v: v.text) if v.text != view.signature]
    related = {
        kind: _unique(
            [r for p in (view, *parts) for r in getattr(p.related, kind) if r.id not in group],
            lambda r: r.id,
        )
        for kind in RELATION_KINDS
    }
    recent = _rows(session, _GROUP_EVIDENCE, ids=group)
    names = {v.component.lower(): v.component for p in (view, *parts) for v in p.versions}
    return view.model_copy(
        update={
            "variants": variants,
            "patterns": list(dict.fromkeys(p for part in (view, *parts) for p in part.patterns)),
            "verification": _unique(
                [c for p in (view, *parts) for c in p.verification], lambda c: (c.text, c.method, c.tool)
            ),
            "docs": _unique([d for p in (view, *parts) for d in p.docs], lambda d: d.url),
            "related": RelatedViews(**related),
            "recent_evidence": evidence_views(session, recent),
            "version_reports": _version_reports(session, group, names),
            "merged": [
                MergedPartView(
                    id=p.id,
                    environment=environment_of(p.id, view.id),
                    title=p.title,
                    signature=p.signature,
                    scope=p.scope,
                    fix_rate=p.fix_rate,
                    evidence_count=p.evidence_count,
                    versions=p.versions,
                    workarounds=p.workarounds,
                    dead_ends=p.dead_ends,
                )
                for p in parts
            ],
        }
    )


def _own_view(session: Session, entry: Row, aliases: list[str]) -> tuple[EntryView, dict[str, int]]:
    """The entry's own view, and the change counter of each related entry it names."""
    entry_id = entry.id
    recent = _rows(session, _OWN_EVIDENCE, entry_id=entry_id)
    versions = _ordered(session, VersionRow, entry_id)
    related, related_changed = _related(session, entry_id)
    view = EntryView(
        id=entry.id,
        domain=entry.domain,
        category=entry.category,
        title=Text(en=entry.title_en, zh=entry.title_zh),
        summary=text(entry.summary_en, entry.summary_zh),
        signature=entry.signature,
        variants=[VariantDoc.model_validate(v) for v in entry.variants],
        patterns=[p.regex for p in _ordered(session, Pattern, entry_id)],
        verification=[VerificationDoc.model_validate(v) for v in entry.verification],
        ai_generated=entry.ai_generated,
        review_status=entry.review_status,
        resolvable=entry.resolvable,
        scope=entry.scope,
        fix_rate=entry.fix_rate,
        confidence=entry.confidence,
        evidence_count=entry.evidence_count,
        fix_rate_basis=basis(entry.evidence_count),
        first_seen=entry.first_seen,
        last_confirmed=entry.last_confirmed,
        prior=PriorView(
            fix_rate=entry.prior_fix_rate,
            confidence=entry.prior_confidence,
            weight=stats.PRIOR_WEIGHT,
        ),
        versions=[
            VersionDoc(
                component=v.component,
                version=v.version,
                status=v.status,
                introduced=v.introduced,
                deprecated=v.deprecated,
                notes=text(v.notes_en, v.notes_zh),
            )
            for v in versions
        ],
        root_cause=text(entry.root_cause_en, entry.root_cause_zh),
        docs=[DocLinkDoc(title=d.title, url=d.url) for d in _ordered(session, DocLink, entry_id)],
        workarounds=[
            WorkaroundView(
                id=w.key,
                title=Text(en=w.title_en, zh=w.title_zh),
                steps=text(w.steps_en, w.steps_zh),
                success_rate=w.rate,
                prior_success_rate=w.prior_rate,
                reports=ReportCounts(worked=w.worked, failed=w.failed, partial=w.partial),
                basis=basis(w.worked + w.failed + w.partial),
                condition=text(w.condition_en, w.condition_zh),
                tradeoff=text(w.tradeoff_en, w.tradeoff_zh),
                sources=w.sources,
            )
            for w in _ordered(session, Workaround, entry_id)
        ],
        dead_ends=[
            DeadEndView(
                id=d.key,
                action=Text(en=d.action_en, zh=d.action_zh),
                why_fails=Text(en=d.why_fails_en, zh=d.why_fails_zh),
                fail_rate=d.rate,
                prior_fail_rate=d.prior_rate,
                reports=ReportCounts(worked=d.worked, failed=d.failed, partial=d.partial),
                basis=basis(d.worked + d.failed + d.partial),
                verdict="dead_end" if d.rate >= DEAD_END_THRESHOLD else "unreliable",
                condition=text(d.condition_en, d.condition_zh),
                misconception=text(d.misconception_en, d.misconception_zh),
                sources=d.sources,
            )
            for d in _ordered(session, DeadEnd, entry_id)
        ],
        related=related,
        provenance=provenance(entry),
        recent_evidence=evidence_views(session, recent),
        version_reports=_version_reports(
            session, [entry_id], {v.component.lower(): v.component for v in versions}
        ),
        links=links(entry.id),
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        revision=entry.revision,
        history=_history(session, entry),
        aliases=aliases,
    )
    return view, related_changed


# What a list item shows: a page of search results reads these columns only.
SUMMARY_COLUMNS = (
    Entry.id,
    Entry.domain,
    Entry.category,
    Entry.title_en,
    Entry.title_zh,
    Entry.signature,
    Entry.fix_rate,
    Entry.confidence,
    Entry.evidence_count,
    Entry.ai_generated,
    Entry.updated_at,
)


_SUMMARY_KEYS = tuple(column.key for column in SUMMARY_COLUMNS)


def summary_fields(values: Sequence) -> dict:
    """A list item's fields but its snippet, as its JSON has them and in its order, from the
    values of SUMMARY_COLUMNS in theirs. Search pages encode these directly: making the model
    and dumping it was half of reading a page of summaries none had kept."""
    id_, domain, category, title_en, title_zh, signature, fix_rate, confidence, reports, ai, updated = values
    return {
        "id": id_,
        "domain": domain,
        "category": category,
        "title": {"en": title_en, "zh": title_zh},
        "signature": signature,
        "fix_rate": float(fix_rate),
        "confidence": float(confidence),
        "evidence_count": reports,
        "fix_rate_basis": basis(reports),
        "ai_generated": bool(ai),
        "updated_at": updated,
        "url": entry_url(id_),
    }


def summary(entry: Entry, snippet: str | None = None) -> EntrySummary:
    """A list item, from an entry."""
    return summary_of([getattr(entry, key) for key in _SUMMARY_KEYS], snippet)


def summary_of(values: Sequence, snippet: str | None = None) -> EntrySummary:
    """A list item, from the values of SUMMARY_COLUMNS in their order."""
    return EntrySummary(**summary_fields(values), snippet=snippet)
