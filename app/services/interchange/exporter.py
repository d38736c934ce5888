"""`errata export`: every entry written back as a file in the project's own format."""

from collections.abc import Callable, Iterable
from pathlib import Path

from sqlalchemy import Engine
from sqlmodel import col, select

from app.db import read_session
from app.models import Entry, Evidence
from app.services.entries.read import evidence_views, get_entry
from app.services.interchange.documents import document_path, dump_document, to_document


def export_all(
    engine: Engine,
    target: Path,
    *,
    progress: Callable[[Iterable[str]], Iterable[str]] = lambda ids: ids,
) -> int:
    written = 0
    with read_session(engine) as session:
        rows = dict(session.exec(select(Entry.id, Entry.canonical_id).order_by(Entry.id)).all())
        for entry_id in progress(list(rows)):
            evidence = session.exec(
                select(Evidence)
                .where(Evidence.entry_id == entry_id)
                .order_by(col(Evidence.submitted_at).nulls_first(), Evidence.id)
            ).all()
            doc = to_document(
                get_entry(session, entry_id, merged=False),
                evidence_views(session, list(evidence)),
                merged_into=rows[entry_id],
            )
            path = document_path(target, entry_id)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_document(doc), encoding="utf-8")
            written += 1
    return written
