"""Reading an entry into its view: the parts are read as rows, in the session's transaction."""

from datetime import UTC, datetime

import pytest
from sqlmodel import Session

from app.db import make_engine, write_session
from app.models import DocLink, Evidence, EvidenceVersion
from app.services.entries.read import evidence_views, get_entry
from app.services.merging.merge import merge
from tests.conftest import DEMO_ENTRIES, load

FULL, MISSING = "demo/full-bilingual", "demo/zh-missing"
DAY = datetime(2026, 12, 1, tzinfo=UTC)


@pytest.fixture
def engine(settings):
    load(settings, DEMO_ENTRIES)
    engine = make_engine(settings)
    yield engine
    engine.dispose()


def _evidence(uid: str, entry_id: str, submitted_at: datetime | None) -> Evidence:
    return Evidence(
        uid=uid, entry_id=entry_id, outcome="worked", status="accepted", submitted_at=submitted_at
    )


def test_a_view_made_inside_a_write_shows_what_the_write_added(engine):
    with Session(engine) as session:
        before = get_entry(session, FULL)
        session.add(
            DocLink(entry_id=FULL, position=len(before.docs), title="Release notes", url="https://x.test/n")
        )
        session.add(_evidence("ev-pending", FULL, DAY))
        after = get_entry(session, FULL)
        session.rollback()
    assert [d.title for d in after.docs] == [*(d.title for d in before.docs), "Release notes"]
    assert after.recent_evidence[0].uid == "ev-pending"
    with Session(engine) as session:
        assert get_entry(session, FULL) == before  # rolled back: nothing stays


def test_a_reports_versions_added_after_it_was_written_show_before_they_are_flushed(engine):
    with Session(engine) as session:
        report = _evidence("ev-versions", FULL, DAY)
        session.add(report)
        session.flush()
        session.add(EvidenceVersion(evidence_id=report.id, component="torch", version="2.5.1"))
        (view,) = evidence_views(session, [report])
        session.rollback()
    assert view.versions == {"torch": "2.5.1"}


def test_a_merged_entry_lists_its_latest_dated_reports_before_undated_ones(engine):
    with write_session(engine) as session:
        session.add_all([_evidence(f"undated-{n}", MISSING, None) for n in range(2)])
        session.add(_evidence("dated", FULL, DAY))
    with write_session(engine) as session:
        merge(session, MISSING, FULL, now=DAY, reason="test")
    with Session(engine) as session:
        merged = get_entry(session, FULL)
        alone = get_entry(session, FULL, merged=False)
    assert [e.uid for e in merged.recent_evidence] == ["dated", "undated-1", "undated-0"]
    assert [e.uid for e in alone.recent_evidence] == ["dated"]
