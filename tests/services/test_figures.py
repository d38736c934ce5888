"""The figures of the base and the data version the dump is kept by
(app.services.opendata.figures), on a real database with an entry merged into another."""

import pytest
from sqlalchemy import func, update
from sqlmodel import Session, col, select

from app.db import make_engine
from app.models import Entry
from app.services.opendata.figures import data_version, figures


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def _change(engine, entry_id: str, **values) -> None:
    """An entry written as the services write one: its change counter moves past every other."""
    with Session(engine) as session:
        latest = session.exec(select(func.max(Entry.changed))).one() or 0
        session.exec(update(Entry).where(col(Entry.id) == entry_id).values(changed=latest + 1, **values))
        session.commit()


def test_figures_count_canonical_entries_and_the_version_follows_aliases_too(engine):
    with Session(engine) as session:
        ids = session.exec(select(Entry.id).order_by(Entry.id)).all()
        before = figures(session)
    alias, canonical = ids[1], ids[0]
    _change(engine, alias, canonical_id=canonical)
    with Session(engine) as session:
        merged, version = figures(session), data_version(session)
    assert merged.entries == before.entries - 1 == len(ids) - 1
    assert sum(merged.by_source.values()) == merged.entries
    # What an alias brings shows in its canonical entry, so the dump is written again when
    # the alias changes, though the alias is no entry of its own.
    _change(engine, alias)
    with Session(engine) as session:
        assert data_version(session) != version
        assert figures(session).entries == merged.entries
