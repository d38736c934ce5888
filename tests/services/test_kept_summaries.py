"""Summaries of search results kept between searches (app.services.search.summaries): a
real SQLite file, real writes, no HTTP."""

import pytest
from sqlalchemy import event, select

from app.db import make_engine
from app.models import Entry
from app.schemas.api import EvidenceIn
from app.services.entries.read import current_stamp
from app.services.evidence.reports import record_evidence
from app.services.search import summaries as summaries_module
from app.services.search.summaries import KeptSummaries, read_summaries


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def _seqs(engine, n: int) -> dict[int, str]:
    with engine.connect() as conn:
        return dict(conn.execute(select(Entry.seq, Entry.id).order_by(Entry.seq).limit(n)).all())


def _summaries_read(engine) -> list[int]:
    """How many entry rows each summary read asks for, one number a read (a listener on the
    engine's statements)."""
    asked: list[int] = []

    @event.listens_for(engine, "before_cursor_execute")
    def count(conn, cursor, statement, parameters, context, executemany):
        if "FROM entry" in statement and "entry.seq IN" in statement:
            asked.append(len(parameters))

    return asked


def _read(engine, kept: KeptSummaries, seqs: list[int]):
    with engine.connect() as conn:
        return kept.read(conn, seqs, current_stamp(conn, ()))


def test_kept_summaries_are_those_read_afresh_and_read_once(engine):
    seqs = list(_seqs(engine, 6))
    asked = _summaries_read(engine)
    kept = KeptSummaries()
    first = _read(engine, kept, seqs[:4])
    again = _read(engine, kept, seqs)  # four kept, two to read
    with engine.connect() as conn:
        fresh = read_summaries(conn, seqs)
    assert again == fresh and first == {s: fresh[s] for s in seqs[:4]}
    assert asked == [4, 2, 6]
    assert len(kept) == 6


def test_a_write_to_any_entry_drops_what_was_kept(engine):
    seqs = _seqs(engine, 3)
    kept = KeptSummaries()
    before = _read(engine, kept, list(seqs))
    written = next(iter(seqs))
    record_evidence(engine, entry_id=seqs[written], report=EvidenceIn(outcome="worked"))
    asked = _summaries_read(engine)
    after = _read(engine, kept, list(seqs))
    assert asked == [3]  # the stamp moved: nothing kept is used
    assert after[written].evidence_count == before[written].evidence_count + 1


def test_what_is_read_at_one_stamp_is_not_kept_once_another_is(engine, monkeypatch):
    """A search that read the stamp before a write, and its summaries after another search
    saw the write, must not leave its summaries to be used at the new stamp."""
    seqs = list(_seqs(engine, 4))
    kept = KeptSummaries()
    with engine.connect() as conn:
        old = current_stamp(conn, ())
    record_evidence(engine, entry_id=_seqs(engine, 4)[seqs[0]], report=EvidenceIn(outcome="failed"))

    def read_while_another_search_runs(conn, wanted):
        monkeypatch.setattr(summaries_module, "read_summaries", read_summaries)
        _read(engine, kept, seqs[2:])  # at the new stamp, meanwhile
        return read_summaries(conn, wanted)

    monkeypatch.setattr(summaries_module, "read_summaries", read_while_another_search_runs)
    with engine.connect() as conn:
        kept.read(conn, seqs[:2], old)
    assert seqs[2] in kept and seqs[3] in kept
    assert seqs[0] not in kept and seqs[1] not in kept


def test_kept_summaries_keep_to_their_number_and_let_the_least_recently_used_go(engine):
    one, two, three, four = _seqs(engine, 4)
    kept = KeptSummaries(max_kept=3)
    _read(engine, kept, [one, two, three])
    _read(engine, kept, [one])  # asked again: now the most recently used
    _read(engine, kept, [four])
    assert len(kept) == 3
    assert [s in kept for s in (one, two, three, four)] == [True, False, True, True]


def test_an_entry_that_is_gone_is_left_out(engine):
    seqs = list(_seqs(engine, 2))
    kept = KeptSummaries()
    assert set(_read(engine, kept, [*seqs, 10**9])) == set(seqs)
    assert 10**9 not in kept
