"""The stamp a kept page checks before each answer (app.backends.stamp_reader): on a real
SQLite file at head, it says what the entries' rows say and follows each write at once; on
SQLite it is read from the index of ids and change counters alone (migration 0014), never
from the rows, and not read again until another connection commits."""

import sqlite3

import pytest
from alembic import command
from sqlalchemy import update
from sqlmodel import Session, col, select

from app import backends
from app.db import make_engine
from app.migrate import alembic_config
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
        before, base = reader((first, second)), reader(())
        assert before[0] == 2
        assert reader((first, "no/such-entry")) == (1, reader((first,))[1])

        with Session(engine) as session:
            session.exec(update(Entry).where(col(Entry.id) == second).values(changed=before[1] + 5))
            session.commit()
        assert reader((first, second)) == (2, before[1] + 5)  # no transaction kept it from the write
        assert reader(()) == (base[0], max(base[1], before[1] + 5))
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
    read = [statement for statement in ran if statement.startswith("SELECT")]
    assert len(read) == 2
    with engine.connect() as conn:
        for statement in read:
            plan = " | ".join(row[3] for row in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement).all())
            assert plan.startswith("SEARCH entry USING COVERING INDEX ix_entry_stamp (id=?)"), plan


@pytest.mark.sqlite_only  # SQLite's data_version
def test_a_stamp_is_read_again_only_once_another_connection_has_committed(engine):
    with Session(engine) as session:
        first, second = session.exec(select(Entry.id).order_by(Entry.id).limit(2)).all()
    reader = backends.stamp_reader(engine)
    ran: list[str] = []
    reader.driver_connection.set_trace_callback(ran.append)
    try:
        stamp = reader((first,))
        assert [reader((first,)) for _ in range(3)] == [stamp] * 3
        assert sum(statement.startswith("SELECT") for statement in ran) == 1

        with Session(engine) as session:  # a write to another entry: every stamp is read again
            session.exec(update(Entry).where(col(Entry.id) == second).values(changed=stamp[1] + 1))
            session.commit()
        assert reader((first,)) == stamp
        assert reader((second,)) == (1, stamp[1] + 1)
        assert sum(statement.startswith("SELECT") for statement in ran) == 3
    finally:
        reader.driver_connection.set_trace_callback(None)
        reader.close()


@pytest.mark.sqlite_only  # the index is named with INDEXED BY on SQLite alone
def test_a_database_without_the_stamps_index_is_read_through_its_rows(engine, shipped_settings, caplog):
    """A server whose database is not at migration 0014 (started without `errata serve`,
    or a worker started after the code was updated) answers as before, only slower; a
    database taken back past 0014 while the reader runs, likewise."""
    with Session(engine) as session:
        first, second = session.exec(select(Entry.id).order_by(Entry.id).limit(2)).all()
    reader = backends.stamp_reader(engine)
    try:
        at_head = reader((first, second))
        command.downgrade(alembic_config(shipped_settings), "0013")
        with engine.connect() as conn:
            assert reader((first, second)) == at_head == current_stamp(conn, (first, second))
            assert reader((second,)) == current_stamp(conn, (second,))
        assert [r.message for r in caplog.records if "ix_entry_stamp" in r.message] == [
            "the database has no index ix_entry_stamp (errata db upgrade adds it)"
        ]
    finally:
        reader.close()

    reader = backends.stamp_reader(engine)  # one made on a database before 0014
    try:
        with engine.connect() as conn:
            assert reader((first,)) == current_stamp(conn, (first,))
    finally:
        reader.close()


@pytest.mark.sqlite_only
def test_the_stamps_kept_are_bounded(engine):
    with Session(engine) as session:
        ids = session.exec(select(Entry.id).order_by(Entry.id).limit(3)).all()
    reader = backends.stamp_reader(engine)
    reader.MAX_KEPT = 2
    ran: list[str] = []
    reader.driver_connection.set_trace_callback(ran.append)
    try:
        for entry_id in ids:  # the third forgets the first two
            reader((entry_id,))
        reader((ids[2],))
        reader((ids[0],))
        assert sum(statement.startswith("SELECT") for statement in ran) == 4
    finally:
        reader.driver_connection.set_trace_callback(None)
        reader.close()


@pytest.mark.sqlite_only
def test_a_commit_between_the_version_and_the_stamp_leaves_nothing_stale_kept(engine):
    """data_version is read before the stamp: a commit landing as the version is read is in
    the stamp read after it, so what is kept under that version is never older than it."""
    with Session(engine) as session:
        (first,) = session.exec(select(Entry.id).order_by(Entry.id).limit(1)).all()
    reader = backends.stamp_reader(engine)
    writer = sqlite3.connect(engine.url.database)
    armed = [True]

    def commit_as_the_version_is_read(statement: str) -> None:
        if armed[0] and statement.startswith("PRAGMA data_version"):
            armed[0] = False
            writer.execute("UPDATE entry SET changed = changed + 7 WHERE id = ?", (first,))
            writer.commit()

    try:
        reader.driver_connection.set_trace_callback(commit_as_the_version_is_read)
        reader((first,))  # not kept yet: its stamp is read in this call
        assert not armed[0]
        with engine.connect() as conn:
            assert reader((first,)) == current_stamp(conn, (first,))
    finally:
        reader.driver_connection.set_trace_callback(None)
        reader.close()
        writer.close()
