"""Recording evidence as a service: atomic with its figures, never half-written."""

import pytest
from sqlmodel import Session, func, select

from app.db import make_engine
from app.models import Entry, Evidence
from app.schemas.api import EvidenceIn
from app.services.errors import ItemNotFound, RateLimited
from app.services.evidence import reports as evidence_service
from app.services.evidence.reports import RateLimit, record_evidence, reject_evidence
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
    def broken(session, entry_id):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(evidence_service, "recompute_figures", broken)
    with pytest.raises(RuntimeError):
        record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"))
    assert counts(engine) == (1, 1)


def test_unknown_item_and_rate_limit_write_nothing(engine):
    with pytest.raises(ItemNotFound):
        record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked", item="nope"))
    limit = RateLimit(submissions=2, window_seconds=60)
    for _ in range(2):
        record_evidence(
            engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"), client="c1", limit=limit
        )
    with pytest.raises(RateLimited) as raised:
        record_evidence(
            engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"), client="c1", limit=limit
        )
    assert 1 <= raised.value.retry_after <= 61
    record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"), client="c2", limit=limit)
    assert counts(engine) == (4, 4)


def test_reject_then_restore_recomputes_from_rows(engine):
    before = record_evidence(engine, entry_id=SEED_ID, report=EvidenceIn(outcome="worked"))
    figures = reject_evidence(engine, before.evidence.uid, "duplicate")
    assert (figures.fix_rate, figures.evidence_count) == (0.8, 1)
