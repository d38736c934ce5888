"""Writing entries: the one place that turns an EntryDoc into rows and keeps figures derived."""

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import delete, insert
from sqlmodel import Session, col, select

from app import backends
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
from app.services.entries.aliases import aliases_of
from app.services.entries.read import get_entry
from app.services.evidence import stats
from app.services.interchange.documents import to_document
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


def _both(name: str, value) -> dict:
    """A text's two language columns: `name`_en and `name`_zh."""
    pair = _pair(value)
    return {f"{name}_en": pair.en, f"{name}_zh": pair.zh}


def _item(eid: str, position: int, item, rate: float, texts: dict) -> dict:
    """A workaround's or dead end's row: its place, its texts, and its rate from the file."""
    common = {"entry_id": eid, "position": position, "key": item.id, "sources": list(item.sources)}
    return {**common, **texts, "prior_rate": rate, "rate": rate}


def _child_rows(doc: EntryDoc) -> dict[type, list[dict]]:
    """The rows of an entry's part tables, as column values: written in one INSERT per table."""
    eid = doc.id
    return {
        Pattern: [dict(entry_id=eid, position=i, regex=p) for i, p in enumerate(doc.patterns)],
        VersionRow: [
            dict(entry_id=eid, position=i, **v.model_dump(exclude={"notes"}), **_both("notes", v.notes))
            for i, v in enumerate(doc.versions)
        ],
        DocLink: [dict(entry_id=eid, position=i, title=d.title, url=d.url) for i, d in enumerate(doc.docs)],
        Workaround: [
            _item(
                eid,
                i,
                w,
                w.success_rate,
                {
                    **_both("title", w.title),
                    **_both("steps", w.steps),
                    **_both("condition", w.condition),
                    **_both("tradeoff", w.tradeoff),
                },
            )
            for i, w in enumerate(doc.workarounds)
        ],
        DeadEnd: [
            _item(
                eid,
                i,
                d,
                d.fail_rate,
                {
                    **_both("action", d.action),
                    **_both("why_fails", d.why_fails),
                    **_both("condition", d.condition),
                    **_both("misconception", d.misconception),
                },
            )
            for i, d in enumerate(doc.dead_ends)
        ],
        Relation: [
            dict(
                entry_id=eid,
                kind=kind,
                position=i,
                target_id=r.id,
                probability=r.probability,
                **_both("note", r.note),
            )
            for kind in RELATION_KINDS
            for i, r in enumerate(getattr(doc.related, kind))
        ],
    }


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


IMPORT = "import"  # the author of revisions the importer writes


def _origins(previous: dict, content: dict, origins: dict, author: str) -> dict:
    """Who each changed top-level field now comes from: the author, or (an import) its source again."""
    changed = {k for k in previous.keys() | content.keys() if previous.get(k) != content.get(k)}
    kept = {k: v for k, v in origins.items() if k not in changed}
    return kept if author == IMPORT else {**kept, **dict.fromkeys(sorted(changed), author)}


def save_document(
    session: Session,
    doc: EntryDoc,
    *,
    now: datetime,
    author: str = IMPORT,
    summary: str | None = None,
) -> SaveResult:
    """Create or update one entry from its document, in the caller's transaction.

    Unchanged content leaves the entry alone (not even its revision); changed content
    keeps the previous content in entry_revision, with who made it and why, and bumps
    the revision. `author` ("import", "moderator", "proposal #N") and `summary` describe
    the new revision. Evidence in the document is added when its uid is new; evidence
    is never deleted here.
    """
    backends.serialize_entry_writes(session)
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
            changed_by=author,
            change_summary=summary,
            field_origins={},
        )
        session.add(entry)
        session.flush()
    elif entry.content_hash != columns["content_hash"]:
        result = "updated"
        previous = _keep_revision(session, entry, now)
        entry.field_origins = _origins(previous, doc.content(), entry.field_origins or {}, author)
        entry.changed_by, entry.change_summary = author, summary
        for model in _CHILDREN:
            session.exec(delete(model).where(model.entry_id == doc.id))
        for name, value in columns.items():
            setattr(entry, name, value)
        entry.revision += 1
        entry.updated_at = now
    else:
        result = "unchanged"
    if result != "unchanged":
        session.flush()
        connection = session.connection()
        for model, values in _child_rows(doc).items():
            if values:  # one INSERT per table, no object per row to build and flush
                connection.execute(insert(model.__table__), values)
        search_index.index_entry(session, entry)
        if entry.canonical_id:
            # The canonical entry shows this alias's wordings: its index rows follow.
            search_index.index_entry(session, session.get(Entry, entry.canonical_id))
    if _add_missing_evidence(session, doc) or result != "unchanged":
        session.flush()
        recompute_figures(session, doc.id)
        if result == "unchanged":
            result = "updated"
    return result


def current_content(session: Session, entry: Entry) -> dict:
    """The entry's own content as a revision keeps it (without what its aliases add)."""
    return to_document(
        get_entry(session, entry.id, merged=False), [], merged_into=entry.canonical_id
    ).content()


def _keep_revision(session: Session, entry: Entry, now: datetime) -> dict:
    """Keep the entry's content as it is now in its history, with who made that revision and
    why, before a change replaces it; returns that content."""
    previous = current_content(session, entry)
    session.add(
        EntryRevision(
            entry_id=entry.id,
            revision=entry.revision,
            content=previous,
            replaced_at=now,
            author=entry.changed_by,
            summary=entry.change_summary,
            made_at=entry.updated_at,
        )
    )
    return previous


def regroup(
    session: Session,
    changes: dict[str, str | None],
    *,
    now: datetime,
    record: bool = True,
    author: str = "moderator",
    summary: str | None = None,
) -> list[str]:
    """Point each entry of `changes` at a canonical entry (an id), or at none (it stands alone).

    Every entry touched (those changed, and the canonical entries they leave or join) keeps
    its previous content in its history, gets a new revision, its search row and its figures
    (and with them a new `changed` value, so lookup indexes and caches re-read it): a canonical entry's
    figures come from the evidence of all its aliases. Returns the ids touched.

    Without `record`, the grouping is restored rather than changed (an import of files that
    state it, whose revisions already count it): no history, revision or date moves.
    """
    backends.serialize_entry_writes(session)  # before any entry row is locked (see save_document)
    entries = {entry_id: session.get(Entry, entry_id) for entry_id in changes}
    touched = set(changes)
    touched |= {e.canonical_id for e in entries.values() if e.canonical_id}
    touched |= {target for target in changes.values() if target}
    ordered = sorted(touched)
    rows = {entry_id: session.get(Entry, entry_id) for entry_id in ordered}
    for entry in rows.values() if record else ():
        _keep_revision(session, entry, now)
    session.flush()
    for entry_id, target in changes.items():
        rows[entry_id].canonical_id = target
    for entry in rows.values():
        if record:
            entry.revision += 1
            entry.updated_at = now
            entry.changed_by, entry.change_summary = author, summary
        session.add(entry)
        session.flush()
    for entry in rows.values():
        search_index.index_entry(session, entry)
    for entry in rows.values():
        recompute_figures(session, entry.id)
    session.flush()
    return ordered


def item_key(entry_id: str, canonical_id: str | None, key: str) -> str:
    """An item's key among the figures of its canonical entry: an alias's items are namespaced."""
    return f"{entry_id}#{key}" if canonical_id else key


def _own_figures(session: Session, members: list[Entry], *, write: bool) -> stats.Figures:
    """Figures of the first of `members` from the accepted evidence of all of them; written
    back with `write`."""
    ids = [m.id for m in members]
    canonical = {m.id: (None if m is members[0] else members[0].id) for m in members}
    workarounds = session.exec(select(Workaround).where(col(Workaround.entry_id).in_(ids))).all()
    dead_ends = session.exec(select(DeadEnd).where(col(DeadEnd.entry_id).in_(ids))).all()

    def key(row) -> str:
        return item_key(row.entry_id, canonical[row.entry_id], row.key)

    priors = stats.Priors(
        fix_rate=members[0].prior_fix_rate,
        confidence=members[0].prior_confidence,
        workarounds={key(w): w.prior_rate for w in workarounds},
        dead_ends={key(d): d.prior_rate for d in dead_ends},
    )
    reports = session.exec(
        select(Evidence.entry_id, Evidence.item, Evidence.outcome).where(
            col(Evidence.entry_id).in_(ids), Evidence.status == "accepted"
        )
    ).all()
    figures = stats.Evidence.from_reports(
        (
            stats.Report(item and item_key(entry_id, canonical[entry_id], item), outcome)
            for entry_id, item, outcome in reports
        ),
        priors,
    ).figures(priors)
    if not write:
        return figures
    entry = members[0]
    entry.fix_rate, entry.confidence = figures.fix_rate, figures.confidence
    entry.evidence_count = figures.evidence_count
    # Every write to an entry ends here (content, evidence, moderation, merges), so this is
    # where its change counter moves: lookup indexes and every process's cached views follow.
    entry.changed = search_index.next_value(session, Entry.changed)
    for rows, rates in ((workarounds, figures.workarounds), (dead_ends, figures.dead_ends)):
        for row in rows:
            row.rate, tally = rates[key(row)]
            row.worked, row.failed, row.partial = tally.worked, tally.failed, tally.partial
    session.add(entry)
    return figures


def recompute_figures(session: Session, entry_id: str, *, write: bool = True) -> stats.Figures:
    """Derive every figure of an entry from the accepted evidence and write them back; with
    `write` false, only derive them, for a request that changed nothing (a repeated report):
    the change counter stays, so no process's kept views are thrown away for it.

    An alias keeps figures of its own evidence (shown in its section, and its own again
    when unmerged), and its canonical entry is recomputed from the evidence of the whole
    group; the figures returned are those of the canonical entry, where an alias's items
    have namespaced keys (`item_key`).

    The entry's row stays locked to the end of the transaction, so two writers that move
    the same entry's figures take turns and the second counts the first one's rows."""
    entry = session.get(Entry, entry_id, with_for_update=True)
    if entry.canonical_id:
        if write:
            _own_figures(session, [entry], write=True)
        return recompute_figures(session, entry.canonical_id, write=write)
    return _own_figures(session, [entry, *aliases_of(session, entry_id)], write=write)
