"""Each error a service raises answers with its own status: a client's mistake, never a 5xx."""

import app.main  # noqa: F401  (every service module, and so every kind of error)
from app.services.errors import DomainError, EntryNotFound, MergeRefused, RateLimited
from app.services.history.revisions import RevisionNotFound
from app.services.proposals.errors import ProposalDecided, ProposalInvalid


def _kinds(base: type) -> list[type]:
    return [kind for sub in base.__subclasses__() for kind in (sub, *_kinds(sub))]


def test_every_kind_of_domain_error_says_a_client_error_status_of_its_own():
    kinds = _kinds(DomainError)
    assert len(kinds) >= 10
    assert all(400 <= kind.status < 500 for kind in kinds), [(k.__name__, k.status) for k in kinds]
    assert {
        kind: kind.status
        for kind in (
            EntryNotFound,
            RevisionNotFound,
            ProposalDecided,
            ProposalInvalid,
            MergeRefused,
            RateLimited,
        )
    } == {
        EntryNotFound: 404,
        RevisionNotFound: 404,
        ProposalDecided: 409,
        ProposalInvalid: 422,
        MergeRefused: 422,
        RateLimited: 429,
    }
