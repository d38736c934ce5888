"""The lists of the home page, the domain pages and the API (app.services.entries.catalog)
read canonical entries through indexes of their own, in the lists' own order (migrations
0011 and 0012): a real SQLite file at head, the statements the lists really run, and SQLite's plan
for each. Over every entry, the planner had taken `canonical_id IS NULL` for a rare value,
read nearly every row and sorted them: 150 ms of CPU a home page at 100,000 entries."""

from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func, update
from sqlmodel import Session, col, select

from app.db import make_engine
from app.models import Entry, VersionRow
from app.services.entries.aliases import alias_ids
from app.services.entries.catalog import Filters, home_lists, list_entries


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def _statements(engine) -> list[tuple[str, tuple]]:
    ran: list[tuple[str, tuple]] = []

    @event.listens_for(engine, "before_cursor_execute")
    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            ran.append((statement, tuple(parameters)))

    return ran


def _plan(engine, statement: str, parameters: tuple) -> str:
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters).all()
    return " | ".join(row[3] for row in rows)


def _make_alias(engine, alias: str, canonical: str) -> None:
    with Session(engine) as session:
        session.exec(update(Entry).where(col(Entry.id) == alias).values(canonical_id=canonical))
        session.commit()


@pytest.mark.sqlite_only  # PostgreSQL plans by its statistics, not by a fixed rule
def test_lists_read_indexes_of_canonical_entries_in_their_order(engine):
    with Session(engine) as session:
        ids = session.exec(select(Entry.id).order_by(Entry.id)).all()
        domain, category = session.exec(select(Entry.domain, Entry.category).order_by(Entry.id)).first()
    _make_alias(engine, ids[1], ids[0])
    ran = _statements(engine)
    with Session(engine) as session:
        lists = home_lists(session)
        in_domain, _ = list_entries(session, Filters(domain=domain), limit=50, offset=0)
        everything, total = list_entries(session, Filters(), limit=50, offset=1)
        in_category, _ = list_entries(session, Filters(category=category), limit=50, offset=0)
        both, _ = list_entries(session, Filters(domain=domain, category=category), limit=50, offset=0)
        aliases = alias_ids(session, ids[0])
    assert lists["domains"] and lists["recent"] and in_domain and everything and in_category and both
    assert {(e.domain, e.category) for e in both} == {(domain, category)}
    assert aliases == [ids[1]]
    assert total == len(ids) - 1  # the alias is no entry of its own
    plans = [_plan(engine, statement, parameters) for statement, parameters in ran]
    assert len(plans) == 12  # domain counts, recent, most reported, four lists and their counts, aliases
    names = ("listed", "recent", "reported", "alias", "categorized", "sourced")
    indexes = [f"INDEX ix_entry_{name}" for name in names]
    for plan in plans:
        assert "TEMP B-TREE" not in plan, plan  # nothing sorted after reading
        assert any(index in plan for index in indexes), plan


@pytest.mark.sqlite_only
def test_a_components_list_reads_the_versions_index_alone(engine):
    with Session(engine) as session:
        component = _component_with_most_entries(session)
    ran = _statements(engine)
    with Session(engine) as session:
        for version in (None, "1.0"):
            list_entries(session, Filters(component=component.upper(), version=version), limit=5, offset=0)
    plans = [_plan(engine, statement, parameters) for statement, parameters in ran]
    versions = [plan for plan in plans if "entry_version" in plan]
    assert len(versions) == 3  # the versions named, then the entries of each list
    for plan in versions:
        assert "SCAN entry_version" not in plan and "SCAN entry " not in plan, plan
        assert "INDEX ix_entry_version_affected" in plan, plan


@pytest.mark.sqlite_only
def test_a_search_among_a_domains_or_a_categorys_entries_reads_their_numbers_from_the_index(engine):
    """Migration 0013: the numbers come from the index alone, never from each entry's row."""
    with Session(engine) as session:
        domain, category = session.exec(select(Entry.domain, Entry.category).order_by(Entry.id)).first()
    ran = _statements(engine)
    with Session(engine) as session:
        for filters in (Filters(domain=domain), Filters(category=category)):
            found, total = list_entries(session, filters, limit=5, offset=0, q="error")
            assert found and total >= len(found)
    numbers = [
        _plan(engine, *each) for each in ran if each[0].split("FROM")[0].split() == ["SELECT", "entry.seq"]
    ]
    assert len(numbers) == 2
    for plan, name in zip(numbers, ("listed", "categorized"), strict=True):
        assert f"COVERING INDEX ix_entry_{name}" in plan, plan


def test_recent_and_most_reported_keep_their_order_and_leave_aliases_out(engine):
    with Session(engine) as session:
        ids = session.exec(select(Entry.id).order_by(Entry.id)).all()
    first, second, third = ids[:3]
    with Session(engine) as session:  # the same time for two: the id orders them
        session.exec(update(Entry).values(updated_at=datetime(2020, 1, 1, tzinfo=UTC), evidence_count=0))
        for entry_id, count in ((first, 3), (second, 7), (third, 7)):
            session.exec(
                update(Entry)
                .where(col(Entry.id) == entry_id)
                .values(updated_at=datetime(2026, 1, 1, tzinfo=UTC), evidence_count=count)
            )
        session.commit()
    with Session(engine) as session:
        lists = home_lists(session)
    assert [e.id for e in lists["recent"][:3]] == [first, second, third]
    assert [e.id for e in lists["most_reported"]] == [second, third, first]
    _make_alias(engine, second, first)
    with Session(engine) as session:
        lists = home_lists(session)
    assert [e.id for e in lists["recent"][:2]] == [first, third]
    assert [e.id for e in lists["most_reported"]] == [third, first]


def _component_with_most_entries(session) -> str:
    return session.exec(
        select(VersionRow.component)
        .where(VersionRow.status == "active")
        .group_by(VersionRow.component)
        .order_by(func.count(func.distinct(VersionRow.entry_id)).desc(), VersionRow.component)
    ).first()


def test_a_components_list_pages_in_order_and_lists_an_aliases_canonical_entry(engine):
    with Session(engine) as session:
        component = _component_with_most_entries(session)
        holding = set(
            session.exec(
                select(VersionRow.entry_id).where(
                    func.lower(VersionRow.component) == component.lower(), VersionRow.status == "active"
                )
            )
        )
        outside = session.exec(
            select(Entry.id).where(col(Entry.id).not_in(holding)).order_by(Entry.id)
        ).first()
    assert len(holding) >= 3
    alias = sorted(holding)[0]
    _make_alias(engine, alias, outside)  # its rows now speak for `outside`
    with Session(engine) as session:
        expected = session.exec(
            select(Entry.id)
            .where(col(Entry.id).in_(holding - {alias} | {outside}))
            .order_by(Entry.domain, Entry.id)
        ).all()
        paged, counts = [], set()
        for offset in range(0, len(expected) + 2, 2):
            page, total = list_entries(session, Filters(component=component.upper()), limit=2, offset=offset)
            paged += [e.id for e in page]
            counts.add(total)
    assert paged == expected and counts == {len(expected)}
