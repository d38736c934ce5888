"""The review queue: submit a proposal, list it, and accept (perhaps edited) or reject it.

Submitting writes only a `proposal` row; the entry changes when a moderator accepts, and
then only through the store, so its revision, history, `changed` counter and indexes follow.
"""

from datetime import UTC, datetime

import yaml
from pydantic import ValidationError
from sqlalchemy import Engine, func
from sqlmodel import Session, col, select

from app.db import write_session
from app.models import Entry, ModerationAction, Proposal
from app.schemas.document import EntryDoc
from app.schemas.proposals import AnyProposalIn, ProposalIn, ProposalView
from app.services.entries.read import get_entry
from app.services.entries.store import save_document
from app.services.evidence.reports import RateLimit, check_rate
from app.services.history.diff import FieldDiff, diff
from app.services.history.revisions import compare
from app.services.interchange.documents import dump_document, load_document, to_document
from app.services.proposals.changes import apply_change, new_entry_document, new_entry_id, scrub_change
from app.services.proposals.errors import ProposalDecided, ProposalInvalid, ProposalNotFound
from app.services.proposals.scrub import scrub


def proposal_url(proposal_id: int, lang: str = "en") -> str:
    return f"{'/zh' if lang == 'zh' else ''}/proposals/{proposal_id}"


def author_of(proposal_id: int) -> str:
    return f"proposal #{proposal_id}"


def view_of(row: Proposal) -> ProposalView:
    return ProposalView(
        id=row.id,
        entry_id=row.entry_id,
        kind=row.kind,
        change=row.change,
        note=row.note,
        display_name=row.display_name,
        status=row.status,
        base_revision=row.base_revision,
        submitted_at=row.submitted_at,
        decided_at=row.decided_at,
        reason=row.reason,
        accepted_revision=row.accepted_revision,
        url=proposal_url(row.id),
    )


def _proposed(session: Session, entry_id: str, change: dict) -> EntryDoc:
    """The entry the change would make, from the entry as it is now."""
    if change["kind"] == "new_entry":
        doc = new_entry_document(change)
        if session.get(Entry, doc.id) is not None:
            raise ProposalInvalid(("change", "id"), f"entry {doc.id} exists already; propose an edit of it")
        return doc
    current = to_document(get_entry(session, entry_id), [])
    doc = apply_change(current, change)
    if doc.content_hash() == current.content_hash():
        raise ProposalInvalid(("change",), "changes nothing in the entry")
    return doc


def submit_proposal(
    engine: Engine,
    body: ProposalIn | AnyProposalIn,
    *,
    entry_id: str | None = None,
    client: str | None = None,
    limit: RateLimit | None = None,
    now: datetime | None = None,
) -> ProposalView:
    """Validate and keep a proposal (scrubbed), pending review. The entry is not touched."""
    now = now or datetime.now(UTC)
    entry_id = entry_id or getattr(body, "entry_id", None)
    change = scrub_change(body.change)
    if change["kind"] == "new_entry":
        if entry_id:
            raise ProposalInvalid(("entry_id",), "a new entry edits no entry; leave entry_id out")
        entry_id = new_entry_id(change)
    elif not entry_id:
        raise ProposalInvalid(("entry_id",), "name the entry this change edits")
    with write_session(engine) as session:
        base = session.get(Entry, entry_id)
        if client is not None and limit is not None:
            check_rate(session, client, limit, now, model=Proposal)
        _proposed(session, entry_id, change)
        row = Proposal(
            entry_id=entry_id,
            kind=change["kind"],
            change=change,
            note=scrub(body.note.strip()) if body.note and body.note.strip() else None,
            display_name=body.display_name,
            base_revision=base.revision if base is not None and change["kind"] != "new_entry" else None,
            submitted_at=now,
            client=client,
        )
        session.add(row)
        session.flush()
        return view_of(row)


def submit_payload(engine: Engine, payload: dict, **options) -> ProposalView:
    """submit_proposal for a JSON body from outside HTTP (the MCP tool): the same shape as
    POST /api/v1/proposals, a bad field raised as ProposalInvalid naming it."""
    try:
        body = AnyProposalIn.model_validate(payload)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ProposalInvalid(tuple(error["loc"]), error["msg"]) from None
    return submit_proposal(engine, body, **options)


def _row(session: Session, proposal_id: int) -> Proposal:
    row = session.get(Proposal, proposal_id)
    if row is None:
        raise ProposalNotFound(proposal_id)
    return row


def get_proposal(session: Session, proposal_id: int) -> ProposalView:
    return view_of(_row(session, proposal_id))


def list_proposals(
    session: Session,
    *,
    status: str | None = "pending",
    entry_id: str | None = None,
    kind: str | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[ProposalView]:
    query = _filtered(select(Proposal), status, entry_id, kind)
    # The oldest pending proposal waits longest: first in the queue; decided ones newest first.
    order = col(Proposal.id) if status == "pending" else col(Proposal.id).desc()
    return [view_of(r) for r in session.exec(query.order_by(order).offset(offset).limit(limit))]


def count_proposals(
    session: Session, *, status: str | None = "pending", entry_id: str | None = None, kind: str | None = None
) -> int:
    """How many proposals `list_proposals` would list with no limit."""
    return session.exec(_filtered(select(func.count()).select_from(Proposal), status, entry_id, kind)).one()


def _filtered(query, status: str | None, entry_id: str | None, kind: str | None):
    if status:
        query = query.where(Proposal.status == status)
    if entry_id:
        query = query.where(Proposal.entry_id == entry_id)
    if kind:
        query = query.where(Proposal.kind == kind)
    return query


def proposed_document(session: Session, proposal_id: int) -> EntryDoc:
    """The entry the proposal would make now; raises ProposalInvalid when it no longer applies."""
    row = _row(session, proposal_id)
    return _proposed(session, row.entry_id, row.change)


def proposal_diff(session: Session, proposal_id: int) -> list[FieldDiff]:
    """A pending proposal against the entry as it is; an accepted one as the revision it made."""
    row = _row(session, proposal_id)
    if row.status == "accepted":
        before = row.accepted_revision - 1 if row.kind != "new_entry" else None
        if before is None or before < 1:
            return compare(session, row.entry_id, None, row.accepted_revision).changes
        return compare(session, row.entry_id, before, row.accepted_revision).changes
    current = session.get(Entry, row.entry_id) if row.kind != "new_entry" else None
    before = to_document(get_entry(session, row.entry_id), []).content() if current else None
    return diff(before, _proposed(session, row.entry_id, row.change).content())


def editable_document(doc: EntryDoc) -> str:
    """The proposed entry as YAML (the data/ format) for a moderator to edit before accepting."""
    return dump_document(doc.model_copy(update={"evidence": [], "revision": None}))


def _edited(text: str, row: Proposal) -> EntryDoc:
    try:
        data = load_document(text)
    except (yaml.YAMLError, ValueError) as exc:
        raise ProposalInvalid(("document",), f"not a YAML entry: {str(exc)[:200]}") from None
    try:
        doc = EntryDoc.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ProposalInvalid(("document", *error["loc"]), error["msg"]) from None
    if row.kind != "new_entry" and doc.id != row.entry_id:
        raise ProposalInvalid(("document", "id"), f"must stay {row.entry_id}: this proposal edits that entry")
    return doc


def _decide(session: Session, row: Proposal, status: str, now: datetime, reason: str | None) -> None:
    if row.status != "pending":
        raise ProposalDecided(row.id)
    row.status, row.decided_at, row.reason = status, now, reason
    action = "accept" if status == "accepted" else "reject"
    session.add(
        ModerationAction(proposal_id=row.id, entry_id=row.entry_id, action=action, reason=reason, at=now)
    )


def accept_proposal(
    engine: Engine, proposal_id: int, *, document: str | None = None, now: datetime | None = None
) -> ProposalView:
    """Apply the proposal (or the moderator's edit of it) to the entry, as a new revision."""
    now = now or datetime.now(UTC)
    with write_session(engine) as session:
        row = _row(session, proposal_id)
        if row.status != "pending":
            raise ProposalDecided(row.id)
        doc = (
            _edited(document, row)
            if document and document.strip()
            else _proposed(session, row.entry_id, row.change)
        )
        if row.kind == "new_entry":
            if session.get(Entry, doc.id) is not None:
                raise ProposalInvalid(("document", "id"), f"entry {doc.id} exists already")
            row.entry_id = doc.id
        summary = row.note or None
        if document and document.strip():
            summary = f"{summary} (edited by a moderator)" if summary else "edited by a moderator"
        if save_document(session, doc, now=now, author=author_of(row.id), summary=summary) == "unchanged":
            raise ProposalInvalid(("document",), "changes nothing in the entry as it is now")
        row.accepted_revision = session.get(Entry, doc.id).revision
        _decide(session, row, "accepted", now, None)
        session.add(row)
        session.flush()
        return view_of(row)


def reject_proposal(engine: Engine, proposal_id: int, reason: str | None = None) -> ProposalView:
    now = datetime.now(UTC)
    with write_session(engine) as session:
        row = _row(session, proposal_id)
        _decide(session, row, "rejected", now, reason)
        session.add(row)
        session.flush()
        return view_of(row)
