"""Merges as moderator actions: each its own write transaction, answered with what it did."""

from datetime import UTC, datetime

from sqlalchemy import Engine

from app.db import write_session
from app.schemas.api import MergeOut
from app.services.merging.merge import MergeResult, merge, unmerge


def _out(result: MergeResult) -> MergeOut:
    return MergeOut(
        action=result.action,
        from_=result.from_id,
        into=result.into,
        repointed=result.repointed,
        touched=result.touched,
    )


def merge_entries(engine: Engine, from_id: str, into_id: str, *, reason: str | None = None) -> MergeOut:
    with write_session(engine) as session:
        return _out(merge(session, from_id, into_id, now=datetime.now(UTC), reason=reason))


def unmerge_entry(
    engine: Engine, from_id: str, into_id: str | None = None, *, reason: str | None = None
) -> MergeOut:
    with write_session(engine) as session:
        return _out(unmerge(session, from_id, into_id, now=datetime.now(UTC), reason=reason))
