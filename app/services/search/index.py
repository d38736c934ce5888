"""Keeps the full-text index in step with entries: called in the transaction of every entry write."""

from sqlmodel import Session, col, select

from app import backends
from app.models import DeadEnd, Entry, Workaround


def next_value(session: Session, column) -> int:
    """The next value of a counter column of entry, visible to readers in commit order."""
    return backends.next_value(session, column)


def _join(*parts: str | None) -> str:
    return "\n".join(p for p in parts if p)


def _texts(session: Session, entry: Entry) -> tuple[str, str, str]:
    """Title, signature and body text of one entry, as the index holds them."""
    workarounds = session.exec(select(Workaround).where(Workaround.entry_id == entry.id)).all()
    dead_ends = session.exec(select(DeadEnd).where(DeadEnd.entry_id == entry.id)).all()
    body = _join(
        entry.summary_en,
        entry.summary_zh,
        entry.root_cause_en,
        entry.root_cause_zh,
        *(
            _join(w.title_en, w.title_zh, w.steps_en, w.steps_zh, w.condition_en, w.condition_zh)
            for w in workarounds
        ),
        *(_join(d.action_en, d.action_zh, d.why_fails_en, d.why_fails_zh) for d in dead_ends),
    )
    title = _join(entry.title_en, entry.title_zh, entry.id, entry.category)
    return title, _join(entry.signature, *(v["text"] for v in entry.variants)), body


def index_entry(session: Session, entry: Entry) -> None:
    """(Re)write the index row of one entry: both languages, every text a reader searches.

    A canonical entry's row holds its aliases' text too, and an alias has no row, so a
    search finds each error once, whichever of its entries' words it used."""
    conn = session.connection()
    if entry.canonical_id:
        backends.delete_index_row(conn, entry.seq)
        return
    aliases = session.exec(select(Entry).where(Entry.canonical_id == entry.id).order_by(Entry.id)).all()
    parts = [_texts(session, e) for e in (entry, *aliases)]
    title, signature, body = (_join(*column) for column in zip(*parts, strict=True))
    backends.write_index_row(conn, entry.seq, title=title, signature=signature, body=body)


def reindex_all(session: Session) -> int:
    """Rebuild the full-text index from the entries (after a restore, or should it drift)."""
    backends.clear_index(session.connection())
    entries = session.exec(select(Entry).where(col(Entry.canonical_id).is_(None))).all()
    for entry in entries:
        index_entry(session, entry)
    backends.optimize_index(session.connection())
    return len(entries)


def optimize(session: Session) -> None:
    backends.optimize_index(session.connection())
