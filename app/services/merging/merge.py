"""Merge one entry into another, and undo it.

The merged entry becomes an alias: it keeps its own rows (content, patterns, evidence), so
an unmerge gives it back whole, and its canonical entry shows, searches and looks up as
all of them (app.services.entries.read, search.index, lookup.index) with figures from the
evidence of all. Merges never chain: an alias's canonical is always an entry that is no
alias, and merging an entry that has aliases moves them along; unmerging it takes back
those that were merged into it (the log says which), since they were judged its duplicates.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from app import backends
from app.models import Entry, ModerationAction
from app.services.entries.aliases import alias_ids
from app.services.entries.store import IMPORT, regroup
from app.services.errors import (
    ALREADY_MERGED,
    MERGED_ELSEWHERE,
    MERGED_INTO_OTHER,
    NOT_MERGED,
    SAME_ENTRY,
    EntryNotFound,
    MergeRefused,
)


@dataclass(frozen=True)
class MergeResult:
    action: str  # merge | unmerge
    from_id: str
    into: str
    repointed: list[str]
    touched: list[str]


def _take_turn(session: Session) -> None:
    """Wait for other entry writers, then read entries afresh: what this transaction loaded
    before (an import's finder) may have moved meanwhile, and its revision with it."""
    backends.serialize_entry_writes(session)
    session.flush()
    session.expire_all()


def _get(session: Session, entry_id: str) -> Entry:
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise EntryNotFound(entry_id)
    return entry


def merge(
    session: Session,
    from_id: str,
    into_id: str,
    *,
    now: datetime,
    reason: str | None = None,
    record: bool = True,
    author: str = "moderator",
) -> MergeResult:
    """Make `from_id` an alias of `into_id` (or of its canonical, when it is an alias), in the
    caller's transaction, and log it. Without `record`, a merge that files state is restored
    (see store.regroup): not logged, no revision."""
    _take_turn(session)
    source, target = _get(session, from_id), _get(session, into_id)
    if target.canonical_id:
        target = _get(session, target.canonical_id)
    if source.id == target.id:
        raise MergeRefused("into", SAME_ENTRY, id=into_id)
    if source.canonical_id == target.id:
        raise MergeRefused("from", ALREADY_MERGED, id=from_id, into=target.id)
    if source.canonical_id:
        raise MergeRefused(
            "from",
            MERGED_ELSEWHERE,
            id=from_id,
            into=source.canonical_id,
        )
    repointed = alias_ids(session, source.id)
    changes = {source.id: target.id, **dict.fromkeys(repointed, target.id)}
    # A moderator's merge says what it did; a rule's, like the rest of an import, says nothing
    # an export could not carry back.
    summary = f"merged {source.id} into {target.id}" if author != IMPORT else None
    touched = regroup(session, changes, now=now, record=record, author=author, summary=summary)
    if record:
        session.add(
            ModerationAction(action="merge", entry_id=source.id, target_id=target.id, reason=reason, at=now)
        )
    return MergeResult("merge", source.id, target.id, repointed, touched)


def unmerge(
    session: Session, from_id: str, into_id: str | None = None, *, now: datetime, reason: str | None = None
) -> MergeResult:
    """Make the alias `from_id` an entry of its own again, with its own evidence and figures."""
    _take_turn(session)
    alias = _get(session, from_id)
    if not alias.canonical_id:
        raise MergeRefused("from", NOT_MERGED, id=from_id)
    if into_id is not None and into_id != alias.canonical_id:
        raise MergeRefused(
            "into",
            MERGED_INTO_OTHER,
            id=from_id,
            into=alias.canonical_id,
            other=into_id,
        )
    canonical = alias.canonical_id
    returning = _merged_into(session, alias.id, canonical)
    changes = {alias.id: None, **dict.fromkeys(returning, alias.id)}
    touched = regroup(session, changes, now=now, summary=f"unmerged {alias.id} from {canonical}")
    session.add(
        ModerationAction(action="unmerge", entry_id=alias.id, target_id=canonical, reason=reason, at=now)
    )
    return MergeResult("unmerge", alias.id, canonical, returning, touched)


def _merged_into(session: Session, entry_id: str, canonical: str) -> list[str]:
    """The other aliases of `canonical` whose latest merge was into `entry_id`: they moved along
    when it was merged (a merge into an alias is logged with the canonical it went to)."""
    others = [other for other in alias_ids(session, canonical) if other != entry_id]
    latest: dict[str, str | None] = {}
    for merged, target in session.exec(
        select(ModerationAction.entry_id, ModerationAction.target_id)
        .where(ModerationAction.action == "merge", col(ModerationAction.entry_id).in_(others))
        .order_by(col(ModerationAction.id))
    ):
        latest[merged] = target
    return [other for other in others if latest.get(other) == entry_id]
