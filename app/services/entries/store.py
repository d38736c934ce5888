"""Writing entries: the one place that turns an EntryDoc into rows and keeps figures derived."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import delete
from sqlmodel import Session, col, select

from app.models import (
    DeadEnd,
    DocLink,
    Entry,
    EntryRevision,
    Evidence,
    EvidenceVersion,
    Pattern,
    Relation,
    VersionRow,
    Workaround,
)
from app.schemas.document import RELATION_KINDS, EntryDoc, EvidenceDoc
from app.services.entries.read import get_entry
from app.services.evidence import stats
from app.services.interchange.documents import document_content
from app.services.search import index as search_index

SaveResult = Literal["created", "updated", "unchanged"]
_CHILDREN = (Pattern, VersionRow, DocLink, Workaround, DeadEnd, Relation)


@dataclass(frozen=True)
class _Pair:
    en: str | None = None
    zh: str | None = None


def _pair(value) -> _Pair:
    return _Pair(value.en, value.zh) if value is not None else _Pair()


def _entry_columns(doc: EntryDoc) -> dict:
    summary, root_cause = _pair(doc.summary), _pair(doc.root_cause)
    prov = doc.provenance
    return {
        "domain": doc.domain,
        "category": doc.category,
        "title_en": doc.title.en,
        "title_zh": doc.title.zh,
        "summary_en": summary.en,
        "summary_zh": summary.zh,
        "signature": doc.signature,
        "variants": [v.model_dump(mode="json") for v in doc.variants],
        "verification": [v.model_dump(mode="json") for v in doc.verification],
        "ai_generated": doc.ai_generated,
        "review_status": doc.review_status,
        "resolvable": doc.resolvable,
        "scope": doc.scope,
        "first_seen": doc.first_seen,
        "last_confirmed": doc.last_confirmed,
        "root_cause_en": root_cause.en,
        "root_cause_zh": root_cause.zh,
        "prior_fix_rate": doc.prior.fix_rate,
        "prior_confidence": doc.prior.confidence,
        "source": prov.source if prov else None,
        "source_url": prov.source_url if prov else None,
        "generated_by": prov.generated_by if prov else None,
        "generation_date": prov.generation_date if prov else None,
        "source_evidence_count": prov.source_evidence_count if prov else None,
        "content_hash": doc.content_hash(),
    }


def _child_rows(doc: EntryDoc) -> list:
    eid = doc.id
    rows: list = [Pattern(entry_id=eid, position=i, regex=p) for i, p in enumerate(doc.patterns)]
    rows += [
        VersionRow(
            entry_id=eid,
            position=i,
            component=v.component,
            version=v.version,
            status=v.status,
            introduced=v.introduced,
            deprecated=v.deprecated,
            notes_en=_pair(v.notes).en,
            notes_zh=_pair(v.notes).zh,
        )
        for i, v in enumerate(doc.versions)
    ]
    rows += [DocLink(entry_id=eid, position=i, title=d.title, url=d.url) for i, d in enumerate(doc.docs)]
    rows += [
        Workaround(
            entry_id=eid,
            position=i,
            key=w.id,
            title_en=w.title.en,
            title_zh=w.title.zh,
            steps_en=_pair(w.steps).en,
            steps_zh=_pair(w.steps).zh,
            condition_en=_pair(w.condition).en,
            condition_zh=_pair(w.condition).zh,
            tradeoff_en=_pair(w.tradeoff).en,
            tradeoff_zh=_pair(w.tradeoff).zh,
            sources=list(w.sources),
            prior_rate=w.success_rate,
            rate=w.success_rate,
        )
        for i, w in enumerate(doc.workarounds)
    ]
    rows += [
        DeadEnd(
            entry_id=eid,
            position=i,
            key=d.id,
            action_en=d.action.en,
            action_zh=d.action.zh,
            why_fails_en=d.why_fails.en,
            why_fails_zh=d.why_fails.zh,
            condition_en=_pair(d.condition).en,
            condition_zh=_pair(d.condition).zh,
            misconception_en=_pair(d.misconception).en,
            misconception_zh=_pair(d.misconception).zh,
            sources=list(d.sources),
            prior_rate=d.fail_rate,
            rate=d.fail_rate,
        )
        for i, d in enumerate(doc.dead_ends)
    ]
    for kind in RELATION_KINDS:
        rows += [
            Relation(
                entry_id=eid,
                kind=kind,
                position=i,
                target_id=r.id,
                note_en=_pair(r.note).en,
                note_zh=_pair(r.note).zh,
                probability=r.probability,
            )
            for i, r in enumerate(getattr(doc.related, kind))
        ]
    return rows


def add_evidence_row(
    session: Session, entry_id: str, report: EvidenceDoc, client: str | None = None
) -> Evidence:
    row = Evidence(
        uid=report.uid,
        entry_id=entry_id,
        item=report.item,
        outcome=report.outcome,
        note=report.note,
        source_url=report.source_url,
        submitted_at=report.submitted_at,
        status=report.status,
        client=client,
    )
    session.add(row)
    session.flush()
    session.add_all(
        EvidenceVersion(evidence_id=row.id, component=c, version=v) for c, v in report.versions.items()
    )
    return row


def _add_missing_evidence(session: Session, doc: EntryDoc) -> int:
    if not doc.evidence:
        return 0
    known = set(
        session.exec(select(Evidence.uid).where(col(Evidence.uid).in_([e.uid for e in doc.evidence])))
    )
    added = 0
    for report in doc.evidence:
        if report.uid not in known:
            add_evidence_row(session, doc.id, report)
            added += 1
    return added


def save_document(session: Session, doc: EntryDoc, *, now: datetime) -> SaveResult:
    """Create or update one entry from its document, in the caller's transaction.

    Unchanged content leaves the entry alone (not even its revision); changed content
    keeps the previous content in entry_revision and bumps the revision. Evidence in
    the document is added when its uid is new; evidence is never deleted here.
    """
    columns = _entry_columns(doc)
    entry = session.get(Entry, doc.id)
    if entry is None:
        result: SaveResult = "created"
        entry = Entry(
            id=doc.id,
            seq=search_index.next_value(session, Entry.seq),
            **columns,
            fix_rate=doc.prior.fix_rate,
            confidence=doc.prior.confidence,
            revision=doc.revision or 1,
            created_at=doc.created_at or now,
            updated_at=doc.updated_at or now,
        )
        session.add(entry)
        session.flush()
    elif entry.content_hash != columns["content_hash"]:
        result = "updated"
        previous = document_content(get_entry(session, doc.id))
        session.add(
            EntryRevision(entry_id=doc.id, revision=entry.revision, content=previous, replaced_at=now)
        )
        for model in _CHILDREN:
            session.exec(delete(model).where(model.entry_id == doc.id))
        for name, value in columns.items():
            setattr(entry, name, value)
        entry.revision += 1
        entry.updated_at = now
    else:
        result = "unchanged"
    if result != "unchanged":
        session.add_all(_child_rows(doc))
        session.flush()
        search_index.index_entry(session, entry)
    if _add_missing_evidence(session, doc) or result != "unchanged":
        session.flush()
        recompute_figures(session, doc.id)
        if result == "unchanged":
            result = "updated"
    return result


def recompute_figures(session: Session, entry_id: str) -> stats.Figures:
    """Derive every figure of an entry from its accepted evidence, write them back, and mark
    the entry changed."""
    entry = session.get(Entry, entry_id)
    workarounds = session.exec(select(Workaround).where(Workaround.entry_id == entry_id)).all()
    dead_ends = session.exec(select(DeadEnd).where(DeadEnd.entry_id == entry_id)).all()
    priors = stats.Priors(
        fix_rate=entry.prior_fix_rate,
        confidence=entry.prior_confidence,
        workarounds={w.key: w.prior_rate for w in workarounds},
        dead_ends={d.key: d.prior_rate for d in dead_ends},
    )
    reports = session.exec(
        select(Evidence.item, Evidence.outcome).where(
            Evidence.entry_id == entry_id, Evidence.status == "accepted"
        )
    ).all()
    figures = stats.Evidence.from_reports(
        (stats.Report(item, outcome) for item, outcome in reports), priors
    ).figures(priors)
    # Every write to an entry ends here (content, evidence, moderation), so this is where its
    # change counter moves: lookup indexes and the cached views of every process follow it.
    entry.changed = search_index.next_value(session, Entry.changed)
    entry.fix_rate, entry.confidence = figures.fix_rate, figures.confidence
    entry.evidence_count = figures.evidence_count
    for rows, rates in ((workarounds, figures.workarounds), (dead_ends, figures.dead_ends)):
        for row in rows:
            row.rate, tally = rates[row.key]
            row.worked, row.failed, row.partial = tally.worked, tally.failed, tally.partial
    session.add(entry)
    return figures
