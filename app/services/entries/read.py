"""Reading entries: one load builds the EntryView every format and language renders."""

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import bindparam, func
from sqlalchemy.engine import Connection
from sqlmodel import Session, col, select

from app.models import (
    DeadEnd,
    DocLink,
    Entry,
    Evidence,
    EvidenceVersion,
    Pattern,
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
    EntryLinks,
    EntrySummary,
    EntryView,
    EvidenceView,
    PriorView,
    RelatedView,
    RelatedViews,
    ReportCounts,
    VersionReport,
    WorkaroundView,
)
from app.services.errors import EntryNotFound
from app.services.evidence import stats
from app.urls import entry_url

RECENT_EVIDENCE = 10


def basis(reports: int) -> str:
    return "reports" if reports else "estimate"


def text(en: str | None, zh: str | None) -> Text | None:
    return Text(en=en, zh=zh) if en else None


def _ordered(session: Session, model, entry_id: str):
    return session.exec(select(model).where(model.entry_id == entry_id).order_by(model.position)).all()


def links(entry_id: str) -> EntryLinks:
    return EntryLinks(
        html=entry_url(entry_id),
        html_zh=entry_url(entry_id, lang="zh"),
        json=entry_url(entry_id, fmt="json"),
        markdown=entry_url(entry_id, fmt="md"),
        markdown_zh=entry_url(entry_id, lang="zh", fmt="md"),
    )


def provenance(entry: Entry) -> ProvenanceDoc | None:
    values = {
        "source": entry.source,
        "source_url": entry.source_url,
        "generated_by": entry.generated_by,
        "generation_date": entry.generation_date,
        "source_evidence_count": entry.source_evidence_count,
    }
    return ProvenanceDoc(**values) if any(v is not None for v in values.values()) else None


def evidence_views(session: Session, rows: list[Evidence]) -> list[EvidenceView]:
    versions: dict[int, dict[str, str]] = defaultdict(dict)
    if rows:
        for v in session.exec(
            select(EvidenceVersion)
            .where(col(EvidenceVersion.evidence_id).in_([r.id for r in rows]))
            .order_by(EvidenceVersion.id)
        ):
            versions[v.evidence_id][v.component] = v.version
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


def _version_reports(session: Session, entry_id: str, names: dict[str, str]) -> list[VersionReport]:
    """Outcome counts per reported component version; `names` gives the entry's spelling of each."""
    rows = session.exec(
        select(EvidenceVersion.component, EvidenceVersion.version, Evidence.outcome, func.count())
        .join(Evidence, col(Evidence.id) == EvidenceVersion.evidence_id)
        .where(Evidence.entry_id == entry_id, Evidence.status == "accepted")
        .group_by(EvidenceVersion.component, EvidenceVersion.version, Evidence.outcome)
    ).all()
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
    found = (
        session.exec(
            select(Entry.id, Entry.title_en, Entry.title_zh, Entry.changed).where(col(Entry.id).in_(targets))
        ).all()
        if targets
        else []
    )
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


def canonical_id(session: Session, entry_id: str) -> str:
    """The id as stored, forgiving case and stray slashes (`LLM/Foo/` -> `llm/foo`)."""
    if session.get(Entry, entry_id) is not None:
        return entry_id
    candidate = entry_id.strip("/").lower()
    if candidate != entry_id and session.get(Entry, candidate) is not None:
        return candidate
    raise EntryNotFound(entry_id)


Stamp = tuple[int, int]
_STAMP = select(func.count(), func.max(Entry.changed)).where(
    col(Entry.id).in_(bindparam("ids", expanding=True))
)


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


def get_entry(session: Session, entry_id: str) -> EntryView:
    return load_entry(session, entry_id).view


def load_entry(session: Session, entry_id: str) -> LoadedEntry:
    """One entry in a fixed number of set-based queries, however many parts it has.

    The entry row (and its change counter) is read first, so a write that lands while the
    parts are read leaves the stamp behind the content and the next check rebuilds it."""
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise EntryNotFound(entry_id)
    recent = session.exec(
        select(Evidence)
        .where(Evidence.entry_id == entry_id, Evidence.status == "accepted")
        .order_by(col(Evidence.submitted_at).desc(), col(Evidence.id).desc())
        .limit(RECENT_EVIDENCE)
    ).all()
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
            session, entry_id, {v.component.lower(): v.component for v in versions}
        ),
        links=links(entry.id),
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        revision=entry.revision,
    )
    related_changed.pop(entry_id, None)
    targets = tuple(sorted({r.id for kind in RELATION_KINDS for r in getattr(related, kind)} - {entry_id}))
    stamp = (1 + len(related_changed), max([entry.changed, *related_changed.values()]))
    return LoadedEntry(view=view, ids=(entry_id, *targets), stamp=stamp)


def summary(entry: Entry) -> EntrySummary:
    return EntrySummary(
        id=entry.id,
        domain=entry.domain,
        category=entry.category,
        title=Text(en=entry.title_en, zh=entry.title_zh),
        signature=entry.signature,
        fix_rate=entry.fix_rate,
        confidence=entry.confidence,
        evidence_count=entry.evidence_count,
        fix_rate_basis=basis(entry.evidence_count),
        ai_generated=entry.ai_generated,
        updated_at=entry.updated_at,
        url=entry_url(entry.id),
    )
