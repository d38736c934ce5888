"""The revisions of an entry, read from entry_revision plus the entry as it is now."""

from datetime import UTC, datetime

from pydantic import BaseModel
from sqlalchemy import Engine
from sqlmodel import Session, col, select

from app.db import write_session
from app.models import Entry, EntryRevision, ModerationAction, Proposal
from app.schemas.document import EntryDoc
from app.services.entries.store import IMPORT, current_content, save_document
from app.services.errors import DomainError, EntryNotFound, Gettext
from app.services.history.diff import FieldDiff, changed_fields, diff

MODERATOR = "moderator"


class RevisionNotFound(DomainError, LookupError):
    status = 404

    def __init__(self, entry_id: str, revision: int):
        super().__init__(f"{entry_id}@{revision}")
        self.entry_id, self.revision = entry_id, revision

    def message(self, gettext: Gettext) -> str:
        return gettext("Entry %(id)s has no revision %(n)s") % {"id": self.entry_id, "n": self.revision}


class RevisionView(BaseModel):
    revision: int
    author: str = IMPORT
    summary: str | None = None
    made_at: datetime | None = None
    replaced_at: datetime | None = None
    current: bool = False
    changed: list[str] = []


class Comparison(BaseModel):
    entry_id: str
    from_revision: int | None
    to_revision: int
    changes: list[FieldDiff]


class History(BaseModel):
    entry_id: str
    revision: int
    revisions: list[RevisionView]  # newest first
    pending_proposals: list[int]


def _contents(session: Session, entry_id: str) -> tuple[Entry, dict[int, dict], list[EntryRevision]]:
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise EntryNotFound(entry_id)
    rows = session.exec(
        select(EntryRevision).where(EntryRevision.entry_id == entry_id).order_by(col(EntryRevision.revision))
    ).all()
    contents = {r.revision: r.content for r in rows}
    contents[entry.revision] = current_content(session, entry)
    return entry, contents, list(rows)


def entry_history(session: Session, entry_id: str) -> History:
    entry, contents, rows = _contents(session, entry_id)
    views = [
        RevisionView(
            revision=r.revision,
            author=r.author or IMPORT,
            summary=r.summary,
            made_at=r.made_at,
            replaced_at=r.replaced_at,
        )
        for r in rows
    ]
    views.append(
        RevisionView(
            revision=entry.revision,
            author=entry.changed_by or IMPORT,
            summary=entry.change_summary,
            made_at=entry.updated_at,
            current=True,
        )
    )
    numbers = sorted(contents)
    for view in views:
        earlier = [n for n in numbers if n < view.revision]
        view.changed = changed_fields(contents[earlier[-1]], contents[view.revision]) if earlier else []
    pending = session.exec(
        select(Proposal.id)
        .where(Proposal.entry_id == entry_id, Proposal.status == "pending")
        .order_by(col(Proposal.id))
    ).all()
    return History(
        entry_id=entry_id, revision=entry.revision, revisions=views[::-1], pending_proposals=list(pending)
    )


def compare(session: Session, entry_id: str, old: int | None, new: int | None) -> Comparison:
    """Revision `old` against `new`; by default the current revision against the one before it."""
    entry, contents, _ = _contents(session, entry_id)
    new = new or entry.revision
    if new not in contents:
        raise RevisionNotFound(entry_id, new)
    if old is None:
        old = max((n for n in contents if n < new), default=None)
    elif old not in contents:
        raise RevisionNotFound(entry_id, old)
    before = contents[old] if old is not None else None
    return Comparison(
        entry_id=entry_id, from_revision=old, to_revision=new, changes=diff(before, contents[new])
    )


def restore_revision(engine: Engine, entry_id: str, revision: int, *, now: datetime | None = None) -> int:
    """Bring back the content of an earlier revision, as a new revision (history keeps all)."""
    now = now or datetime.now(UTC)
    with write_session(engine) as session:
        entry, contents, _ = _contents(session, entry_id)
        if revision not in contents:
            raise RevisionNotFound(entry_id, revision)
        doc = EntryDoc.model_validate(contents[revision])
        save_document(session, doc, now=now, author=MODERATOR, summary=f"restored revision {revision}")
        session.add(
            ModerationAction(
                entry_id=entry_id, action="revert", reason=f"restored revision {revision}", at=now
            )
        )
        session.flush()
        return entry.revision
