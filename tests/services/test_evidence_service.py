"""Recording evidence as a service: atomic with its figures, never half-written."""

from datetime import timedelta

import pytest
from sqlmodel import Session, func, select

from app.db import make_engine
from app.models import Entry, Evidence
from app.schemas.api import EvidenceIn
from app.services.errors import ItemNotFound, RateLimited
from app.services.evidence import reports as evidence_service
from app.services.evidence.reports import (
    RateLimit,
    list_evidence,
    record_evidence,
    reject_evidence,
    restore_evidence,
)
from tests.conftest import SEED_ID


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def counts(engine) -> tuple[int, int]:
    with Session(engine) as session:
        rows = session.exec(select(func.count()).select_from(Evidence)).one()
        return rows, session.get(Entry, SEED_ID).evidence_count


def test_report_and_figures_commit_together(engine):
    created = record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="failed"))
    assert created.entry.evidence_count == 2
    assert counts(engine) == (2, 2)


def test_a_failure_after_the_insert_leaves_nothing(engine, monkeypatch):
    def broken(session, entry_id, **_):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(evidence_service, "recompute_figures", broken)
    with pytest.raises(RuntimeError):
        record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"))
    assert counts(engine) == (1, 1)


def test_unknown_item_and_rate_limit_write_nothing(engine):
    with pytest.raises(ItemNotFound):
        record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked", item="nope"))
    limit = RateLimit(submissions=2, window_seconds=60)
    for note in ("first", "second"):
        record_evidence(
            engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked", note=note), client="c1", limit=limit
        )
    with pytest.raises(RateLimited) as raised:
        record_evidence(
            engine,
            entry_id=SEED_ID,
            report=EvidenceIn(outcome="worked", note="third"),
            client="c1",
            limit=limit,
        )
    assert 1 <= raised.value.retry_after <= 61
    record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"), client="c2", limit=limit)
    assert counts(engine) == (4, 4)


def test_a_client_that_waits_retry_after_seconds_is_let_in(engine):
    limit = RateLimit(submissions=1, window_seconds=60)
    first = record_evidence(
        engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"), client="c1", limit=limit
    )
    soon = first.evidence.submitted_at + timedelta(seconds=0.5)
    with pytest.raises(RateLimited) as raised:
        record_evidence(
            engine, entry_id=SEED_ID, report=EvidenceIn(outcome="failed"), client="c1", limit=limit, now=soon
        )
    later = soon + timedelta(seconds=raised.value.retry_after)
    record_evidence(
        engine, entry_id=SEED_ID, report=EvidenceIn(outcome="failed"), client="c1", limit=limit, now=later
    )


def test_reject_then_restore_recomputes_from_rows(engine):
    before = record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"))
    figures = reject_evidence(engine, before.evidence.uid, "duplicate")
    assert (figures.fix_rate, figures.evidence_count) == (0.8, 1)
    # The moderator's list, filtered by status, shows the report among the rejected only.
    with Session(engine) as session:
        listed = {
            status: [r.uid for r in list_evidence(session, status=status, entry_id=None, limit=50, offset=0)]
            for status in ("rejected", "accepted", None)
        }
    assert listed["rejected"] == [before.evidence.uid]
    assert before.evidence.uid not in listed["accepted"] and len(listed["accepted"]) == 1
    assert sorted(listed[None]) == sorted(listed["rejected"] + listed["accepted"])
    figures = restore_evidence(engine, before.evidence.uid, "not a duplicate")
    assert figures.evidence_count == 2


def test_a_repeated_report_is_answered_with_the_stored_one_and_counted_once(engine):
    report = EvidenceIn(outcome="worked", item="enable-swap-space", versions={"vllm": "0.4.2"}, note="ok")
    limit = RateLimit(submissions=1, window_seconds=60)
    first = record_evidence(engine, entry_id=SEED_ID, report=report, client="c1", limit=limit)
    # Past the rate limit too: a retry of an acknowledged report is answered, never refused.
    again = record_evidence(engine, entry_id=SEED_ID, report=report, client="c1", limit=limit)
    assert (first.repeated, again.repeated) == (False, True)
    assert again.model_dump() == first.model_dump()
    assert counts(engine) == (2, 2)
    # Another client, or any field different, is another report.
    other = record_evidence(engine, entry_id=SEED_ID, report=report, client="c2")
    changed = report.model_copy(update={"versions": {"vllm": "0.4.3"}})
    different = record_evidence(engine, entry_id=SEED_ID, report=changed, client="c1")
    # The same step that worked and then failed for the client: both count.
    failed = report.model_copy(update={"outcome": "failed"})
    opposite = record_evidence(engine, entry_id=SEED_ID, report=failed, client="c1")
    assert not other.repeated and not different.repeated and not opposite.repeated
    assert counts(engine) == (5, 5)


def test_the_same_report_after_the_window_counts_again(engine):
    report = EvidenceIn(outcome="failed", note="still broken")
    first = record_evidence(engine, entry_id=SEED_ID, report=report, client="c1")
    later = first.evidence.submitted_at + evidence_service.DUPLICATE_WINDOW + timedelta(seconds=1)
    again = record_evidence(engine, entry_id=SEED_ID, report=report, client="c1", now=later)
    assert not again.repeated and again.evidence.uid != first.evidence.uid
    assert counts(engine) == (3, 3)
