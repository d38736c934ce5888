"""Evidence: record a report and move the figures in the same transaction; moderate reports."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from app import backends
from app.db import write_session
from app.models import DeadEnd, Entry, Evidence, ModerationAction, Workaround
from app.schemas.api import (
    EntryFigures,
    EvidenceCreated,
    EvidenceIn,
    ItemFigure,
    ModerationEvidence,
    ModerationLogRow,
)
from app.schemas.document import EvidenceDoc
from app.services.entries.aliases import alias_ids
from app.services.entries.read import evidence_views
from app.services.entries.store import add_evidence_row, item_key, recompute_figures
from app.services.errors import EntryNotFound, EvidenceNotFound, ItemNotFound, RateLimited

# A report identical to one the same client sent this recently is the same report sent
# again (a double click, a retry after a lost answer): it is answered, not counted twice.
DUPLICATE_WINDOW = timedelta(minutes=10)


@dataclass(frozen=True)
class RateLimit:
    submissions: int
    window_seconds: int


def client_key(address: str, salt: str) -> str:
    return hashlib.sha256(f"{salt}:{address}".encode()).hexdigest()[:32]


def new_uid(now: datetime) -> str:
    """Time-ordered and unguessable: milliseconds since the epoch, then 64 random bits."""
    return f"{int(now.timestamp() * 1000):012x}{secrets.token_hex(8)}"


def _item_owner(session: Session, entry_id: str, item: str | None) -> tuple[str, str | None]:
    """The entry whose workaround or dead end `item` is, and which of the two it is: the
    entry itself, or (on a canonical entry's page) the alias whose section shows it."""
    if item is None:
        return entry_id, None
    owners = [entry_id, *alias_ids(session, entry_id)]
    for owner in owners:
        for model, kind in ((Workaround, "workaround"), (DeadEnd, "dead_end")):
            if session.exec(select(model.id).where(model.entry_id == owner, model.key == item)).first():
                return owner, kind
    raise ItemNotFound(entry_id, item)


def check_rate(session: Session, client: str, limit: RateLimit, now: datetime, model=Evidence) -> None:
    """Refuse a client's submission past its limit: rows of `model` (with `client` and
    `submitted_at` columns) it stored in the window count, inside the caller's transaction.
    Counted under a lock of the client's own, so two of its submissions at once (through
    any server) do not both see room for one more."""
    backends.lock(session, f"errata: {model.__tablename__} of {client}")
    since = now - timedelta(seconds=limit.window_seconds)
    recent = session.exec(
        select(func.count(), func.min(model.submitted_at)).where(
            model.client == client, model.submitted_at > since
        )
    ).one()
    count, oldest = recent
    if count >= limit.submissions:
        retry = (oldest + timedelta(seconds=limit.window_seconds) - now).total_seconds()
        raise RateLimited(max(1, int(retry) + 1))


def _same_report(session: Session, entry_id: str, report: EvidenceIn, client: str, now: datetime):
    recent = session.exec(
        select(Evidence)
        .where(
            Evidence.client == client,
            Evidence.submitted_at > now - DUPLICATE_WINDOW,
            Evidence.entry_id == entry_id,
            Evidence.outcome == report.outcome,
        )
        .order_by(col(Evidence.id).desc())
    ).all()
    wanted = (report.item, report.versions, report.note, report.source_url)
    for row, view in zip(recent, evidence_views(session, list(recent)), strict=True):
        if (view.item, view.versions, view.note, view.source_url) == wanted:
            return row
    return None


def record_evidence(
    engine: Engine,
    *,
    entry_id: str,
    report: EvidenceIn,
    client: str | None = None,
    limit: RateLimit | None = None,
    now: datetime | None = None,
) -> EvidenceCreated:
    """Insert one report and rewrite the entry's figures, atomically.

    The transaction takes the entry writers' turn and the entry's row lock, and the client's
    reports are checked under a lock of the client's own, so the duplicate check, the
    rate-limit count, the insert and the new figures see and leave one consistent state even
    with several server processes (or several machines on one PostgreSQL): of two identical
    reports sent at once, one is stored and both are answered with it (`repeated` is true
    for the second).
    """
    now = now or datetime.now(UTC)
    with write_session(engine) as session:
        # The figures move the entry's change counter: its writers' turn comes before its row lock.
        backends.serialize_entry_writes(session)
        if session.get(Entry, entry_id, with_for_update=True) is None:
            raise EntryNotFound(entry_id)
        entry_id, kind = _item_owner(session, entry_id, report.item)
        canonical = session.get(Entry, entry_id).canonical_id
        row = None
        if client is not None:
            backends.lock(session, f"errata: {Evidence.__tablename__} of {client}")
            row = _same_report(session, entry_id, report, client, now)
        repeated = row is not None
        if not repeated:
            row = _insert(session, entry_id, report, client, limit, now)
        figures = recompute_figures(session, entry_id, write=not repeated)
        item = None
        if kind is not None:
            rates = figures.workarounds if kind == "workaround" else figures.dead_ends
            key = item_key(entry_id, canonical, report.item)
            item = ItemFigure(id=report.item, kind=kind, rate=rates[key][0])
        created = EvidenceCreated(
            evidence=evidence_views(session, [row])[0],
            entry=EntryFigures(
                fix_rate=figures.fix_rate,
                confidence=figures.confidence,
                evidence_count=figures.evidence_count,
                item=item,
            ),
            repeated=repeated,
        )
    return created


def _insert(
    session: Session,
    entry_id: str,
    report: EvidenceIn,
    client: str | None,
    limit: RateLimit | None,
    now: datetime,
) -> Evidence:
    if client is not None and limit is not None:
        check_rate(session, client, limit, now)
    doc = EvidenceDoc(
        uid=new_uid(now),
        item=report.item,
        outcome=report.outcome,
        versions=report.versions,
        note=report.note,
        source_url=report.source_url,
        submitted_at=now,
    )
    return add_evidence_row(session, entry_id, doc, client)


def _set_status(engine: Engine, uid: str, status: str, action: str, reason: str | None) -> EntryFigures:
    now = datetime.now(UTC)
    with write_session(engine) as session:
        backends.serialize_entry_writes(session)
        row = session.exec(select(Evidence).where(Evidence.uid == uid)).first()
        if row is None:
            raise EvidenceNotFound(uid)
        row.status = status
        session.add(row)
        session.add(ModerationAction(evidence_uid=uid, action=action, reason=reason, at=now))
        session.flush()
        figures = recompute_figures(session, row.entry_id)
        return EntryFigures(
            fix_rate=figures.fix_rate,
            confidence=figures.confidence,
            evidence_count=figures.evidence_count,
        )


def reject_evidence(engine: Engine, uid: str, reason: str | None = None) -> EntryFigures:
    return _set_status(engine, uid, "rejected", "reject", reason)


def restore_evidence(engine: Engine, uid: str, reason: str | None = None) -> EntryFigures:
    return _set_status(engine, uid, "accepted", "restore", reason)


def list_evidence(
    session: Session, *, status: str | None, entry_id: str | None, limit: int, offset: int
) -> list[ModerationEvidence]:
    query = select(Evidence)
    if status:
        query = query.where(Evidence.status == status)
    if entry_id:
        query = query.where(Evidence.entry_id == entry_id)
    rows = session.exec(
        query.order_by(col(Evidence.submitted_at).desc().nulls_last(), col(Evidence.id).desc())
        .offset(offset)
        .limit(limit)
    ).all()
    return [
        ModerationEvidence(**view.model_dump(), entry_id=row.entry_id, client=row.client)
        for row, view in zip(rows, evidence_views(session, list(rows)), strict=True)
    ]


def moderation_log(session: Session, *, limit: int, offset: int) -> list[ModerationLogRow]:
    rows = session.exec(
        select(ModerationAction)
        .order_by(col(ModerationAction.at).desc(), col(ModerationAction.id).desc())
        .offset(offset)
        .limit(limit)
    ).all()
    return [
        ModerationLogRow(
            evidence_uid=r.evidence_uid,
            proposal_id=r.proposal_id,
            action=r.action,
            entry_id=r.entry_id,
            target_id=r.target_id,
            reason=r.reason,
            at=r.at.isoformat(),
        )
        for r in rows
    ]
