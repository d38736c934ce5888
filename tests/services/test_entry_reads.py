"""Reading an entry into its view: the parts are read as rows, in the session's transaction."""

from datetime import UTC, datetime

import pytest
from sqlmodel import Session

from app.db import make_engine
from app.models import DocLink, Evidence
from app.services.entries.read import get_entry
from tests.conftest import DEMO_ENTRIES, load

FULL = "demo/full-bilingual"


@pytest.fixture
def engine(settings):
    load(settings, DEMO_ENTRIES)
    engine = make_engine(settings)
    yield engine
    engine.dispose()


def test_a_view_made_inside_a_write_shows_what_the_write_added_before_it_was_flushed(engine):
    with Session(engine) as session:
        before = get_entry(session, FULL)
        session.add(
            DocLink(entry_id=FULL, position=len(before.docs), title="Release notes", url="https://x.test/n")
        )
        session.add(
            Evidence(
                entry_id=FULL,
                uid="ev-pending",
                outcome="worked",
                status="accepted",
                submitted_at=datetime(2026, 12, 1, tzinfo=UTC),
            )
        )
        after = get_entry(session, FULL)
        session.rollback()
    assert [d.title for d in after.docs] == [*(d.title for d in before.docs), "Release notes"]
    assert after.recent_evidence[0].uid == "ev-pending"
    with Session(engine) as session:
        assert get_entry(session, FULL) == before  # rolled back: nothing stays
