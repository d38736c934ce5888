"""The stamp a kept page checks before each answer (app.backends.stamp_reader): on a real
SQLite file at head, it says what the entries' rows say, follows each write at once, and is
read from the index of ids and change counters alone (migration 0014), never from the rows."""

import pytest
from sqlalchemy import update
from sqlmodel import Session, col, select

from app import backends
from app.db import make_engine
from app.models import Entry
from app.services.entries.read import current_stamp


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def test_the_stamp_follows_each_write_as_the_entries_rows_say(engine):
    with Session(engine) as session:
        first, second = session.exec(select(Entry.id).order_by(Entry.id).limit(2)).all()
    reader = backends.stamp_reader(engine)
    try:
        with engine.connect() as conn:
            assert reader((first, second)) == current_stamp(conn, (first, second))
        before = reader((first, second))
        assert before[0] == 2
        assert reader((first, "no/such-entry")) == (1, reader((first,))[1])

        with Session(engine) as session:
            session.exec(update(Entry).where(col(Entry.id) == second).values(changed=before[1] + 5))
            session.commit()
        assert reader((first, second)) == (2, before[1] + 5)  # no transaction kept it from the write
        with engine.connect() as conn:
            assert reader((first,)) == current_stamp(conn, (first,))
    finally:
        reader.close()


@pytest.mark.sqlite_only  # PostgreSQL plans by its statistics, not by a fixed rule
def test_the_stamp_is_read_from_the_index_alone(engine):
    with Session(engine) as session:
        ids = tuple(session.exec(select(Entry.id).order_by(Entry.id).limit(3)).all())
    reader = backends.stamp_reader(engine)
    ran: list[str] = []
    reader.driver_connection.set_trace_callback(ran.append)
    try:
        for some in (ids[:1], ids):
            reader(some)
    finally:
        reader.driver_connection.set_trace_callback(None)
        reader.close()
    assert len(ran) == 2
    with engine.connect() as conn:
        for statement in ran:
            plan = " | ".join(row[3] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement).all())
            assert plan.startswith("SEARCH entry USING COVERING INDEX ix_entry_stamp (id=?)"), plan
