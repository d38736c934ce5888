"""The review queue on a real database: a proposal changes nothing until accepted, then the
entry moves through the store (revision, history, change counter) and can be undone."""

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from app.db import make_engine, read_session
from app.models import Entry
from app.schemas.proposals import AnyProposalIn, ProposalIn
from app.services.entries.read import get_entry
from app.services.errors import RateLimited
from app.services.evidence.reports import RateLimit
from app.services.history.revisions import compare, entry_history, restore_revision
from app.services.interchange.documents import dump_document, to_document
from app.services.interchange.importer import import_paths
from app.services.lookup.index import LookupIndex
from app.services.lookup.rank import lookup
from app.services.proposals import queue
from app.services.proposals.errors import ProposalDecided, ProposalInvalid
from app.services.proposals.form import prefill_from_paste
from app.services.search.query import search_entries
from tests.conftest import SEED_ID


@pytest.fixture
def shipped_engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def propose(engine, change: dict, entry_id: str | None = SEED_ID, **extra):
    model = AnyProposalIn if entry_id is None else ProposalIn
    return queue.submit_proposal(engine, model.model_validate({"change": change, **extra}), entry_id=entry_id)


def entry(engine, entry_id: str = SEED_ID):
    with read_session(engine) as session:
        return get_entry(session, entry_id)


def counter(engine, entry_id: str = SEED_ID) -> int:
    with read_session(engine) as session:
        return session.get(Entry, entry_id).changed


def test_a_proposal_is_pending_and_changes_nothing(shipped_engine):
    before = entry(shipped_engine)
    view = propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache block"}, display_name="Ada")
    assert view.status == "pending" and view.base_revision == before.revision
    after = entry(shipped_engine)
    assert after.model_dump() == before.model_dump()


def test_accepting_writes_a_revision_through_the_store(shipped_engine):
    before, changed = entry(shipped_engine), counter(shipped_engine)
    view = propose(
        shipped_engine,
        {"kind": "text", "field": "summary", "lang": "zh", "text": "读者写的摘要"},
        display_name="Ada",
        note="translated",
    )
    accepted = queue.accept_proposal(shipped_engine, view.id)
    after = entry(shipped_engine)
    assert accepted.status == "accepted" and accepted.accepted_revision == before.revision + 1
    assert after.summary.zh == "读者写的摘要" and after.summary.en == before.summary.en
    assert counter(shipped_engine) > changed
    assert after.history.last_change.by == f"proposal #{view.id}"
    assert after.history.last_change.summary == "translated"
    assert after.history.origins == {"summary": f"proposal #{view.id}"}
    assert after.history.credits == ["Ada"]
    with read_session(shipped_engine) as session:
        revisions = entry_history(session, SEED_ID).revisions
        assert [r.author for r in revisions[:2]] == [f"proposal #{view.id}", "import"]
        assert revisions[0].changed == ["summary"]
        (change,) = compare(session, SEED_ID, None, None).changes
        assert change.path == "summary.zh" and change.new == "读者写的摘要"
        # The search index follows the accepted text.
        assert SEED_ID in [h.id for h in search_entries(session, "读者写的摘要", limit=5, offset=0)[0]]
    with pytest.raises(ProposalDecided):
        queue.accept_proposal(shipped_engine, view.id)


def test_undo_restores_the_previous_revision_as_a_new_one(shipped_engine):
    before = entry(shipped_engine)
    view = propose(shipped_engine, {"kind": "signature", "signature": "OutOfMemoryError: KV cache block"})
    queue.accept_proposal(shipped_engine, view.id)
    assert entry(shipped_engine).signature == "OutOfMemoryError: KV cache block"
    assert not any(v.text == before.signature for v in entry(shipped_engine).verification)
    revision = restore_revision(shipped_engine, SEED_ID, before.revision)
    restored = entry(shipped_engine)
    assert revision == before.revision + 2 == restored.revision
    assert restored.signature == before.signature
    assert restored.verification == before.verification
    assert restored.history.last_change.by == "moderator"
    with read_session(shipped_engine) as session:
        assert compare(session, SEED_ID, before.revision, revision).changes == []


def test_each_kind_of_edit_applies(shipped_engine):
    changes = [
        {"kind": "variant", "text": "ValueError: No free blocks left", "versions": "vllm 0.6"},
        {
            "kind": "workaround",
            "title": {"en": "Restart the <b>server</b>"},
            "steps": {"en": "```\nkill -HUP 1\n```"},
        },
        {"kind": "dead_end", "action": {"en": "Reinstall CUDA"}, "why_fails": {"en": "The driver is fine."}},
        {"kind": "version", "component": "vllm", "version": ">=0.6", "status": "fixed"},
        {"kind": "doc", "title": "Engine arguments", "url": "https://docs.vllm.ai/en/latest/"},
    ]
    for change in changes:
        queue.accept_proposal(shipped_engine, propose(shipped_engine, change).id)
    after = entry(shipped_engine)
    assert "ValueError: No free blocks left" in [v.text for v in after.variants]
    added = next(w for w in after.workarounds if w.title.en == "Restart the <b>server</b>")
    assert added.id == "restart-the-b-server-b" and added.success_rate == pytest.approx(0.5)
    assert any(d.action.en == "Reinstall CUDA" and d.verdict == "dead_end" for d in after.dead_ends)
    assert any(v.component == "vllm" and v.status == "fixed" for v in after.versions)
    assert after.docs[-1].url == "https://docs.vllm.ai/en/latest/"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "pattern", "pattern": "nothing like it"}, ("change", "pattern")),
        # The title as it is already.
        (
            {
                "kind": "text",
                "field": "title",
                "lang": "en",
                "text": "vLLM block manager cannot allocate a KV cache block",
            },
            ("change",),
        ),
        # A wording the entry has already: its signature.
        (
            {
                "kind": "variant",
                "text": "RuntimeError: OutOfMemoryError: Unable to allocate memory for KV cache block. "
                "Requested block size: 16, free blocks: 0",
            },
            ("change", "text"),
        ),
        (
            {"kind": "pattern", "pattern": "Unable to allocate memory for KV cache block"},
            ("change", "pattern"),
        ),
        ({"kind": "text", "field": "workarounds.nope.steps", "lang": "zh", "text": "x"}, ("change", "field")),
        # A translation of a text the entry does not have: its English comes first.
        (
            {
                "kind": "text",
                "field": "dead_ends.raise-max-num-batched-tokens.condition",
                "lang": "zh",
                "text": "x",
            },
            ("change", "field"),
        ),
        ({"kind": "doc", "title": "x", "url": "https://example.org/same"}, None),
    ],
)
def test_a_change_that_does_not_fit_the_entry_names_its_field(shipped_engine, change, field):
    if field is None:  # the same link twice
        propose(shipped_engine, change)
        queue.accept_proposal(shipped_engine, 1)
        field = ("change", "url")
    with pytest.raises(ProposalInvalid) as caught:
        propose(shipped_engine, change)
    assert caught.value.loc == field


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"kind": "pattern", "pattern": "(unclosed"}, ("change", "pattern", "pattern")),
        ({"kind": "signature", "signature": ""}, ("change", "signature", "signature")),
        ({"kind": "doc", "title": "x", "url": "javascript:alert(1)"}, ("change", "doc", "url")),
        ({"kind": "text", "field": "id", "lang": "zh", "text": "x"}, ("change", "text")),
        ({"kind": "vote"}, ("change",)),
        ({"kind": "variant", "text": "E: x", "versions": "v" * 201}, ("change", "variant", "versions")),
    ],
)
def test_bodies_are_validated_like_entry_files(change, loc):
    with pytest.raises(ValidationError) as caught:
        ProposalIn.model_validate({"change": change})
    assert caught.value.errors()[0]["loc"][: len(loc)] == loc


def test_a_variants_versions_may_fill_their_limit():
    body = ProposalIn.model_validate({"change": {"kind": "variant", "text": "E: x", "versions": "v" * 200}})
    assert body.change.versions == "v" * 200


def test_display_names_are_never_addresses():
    for name in ("ada@example.com", "see https://ada.dev", "ada@home"):
        with pytest.raises(ValidationError) as caught:
            ProposalIn.model_validate(
                {"change": {"kind": "signature", "signature": "x"}, "display_name": name}
            )
        assert caught.value.errors()[0]["loc"] == ("display_name",)
    body = ProposalIn.model_validate(
        {"change": {"kind": "signature", "signature": "x"}, "display_name": "  "}
    )
    assert body.display_name is None


def test_a_new_entry_is_scrubbed_and_appears_only_when_accepted(shipped_engine):
    change = {
        "kind": "new_entry",
        "domain": "demo",
        "title": {"en": "Widget daemon refuses the socket"},
        "signature": "widgetd: connect to 192.168.1.7 refused (user heidi)",
        "patterns": ["widgetd: connect to .* refused"],
        "workaround": {"kind": "workaround", "title": {"en": "Start widgetd first"}},
        "paste": "heidi@lab:~$ widgetd\n/home/heidi/.w: widgetd: connect to 192.168.1.7 refused",
    }
    view = propose(shipped_engine, change, entry_id=None, note="mail heidi@example.com")
    assert view.entry_id == "demo/widget-daemon-refuses-the-socket"
    assert view.change["signature"] == "widgetd: connect to <ip> refused (user heidi)"
    assert "heidi" not in view.change["paste"] and "192.168" not in view.change["paste"]
    assert view.note == "mail <email>"
    with read_session(shipped_engine) as session:
        assert session.get(Entry, view.entry_id) is None
    queue.accept_proposal(shipped_engine, view.id)
    created = entry(shipped_engine, view.entry_id)
    assert created.history.source == "proposal" and created.provenance.source == "reader proposal"
    assert created.workarounds[0].title.en == "Start widgetd first"
    with read_session(shipped_engine) as session:
        index = LookupIndex()
        index.refresh(session)
        matches = lookup(session, index, "widgetd: connect to 10.0.0.1 refused (user bob)", limit=3)
        assert matches and matches[0].id == view.entry_id
    with pytest.raises(ProposalInvalid) as caught:
        propose(shipped_engine, change, entry_id=None)
    assert caught.value.loc == ("change", "id")


def test_new_entry_patterns_must_match_its_signature():
    with pytest.raises(ValidationError) as caught:
        AnyProposalIn.model_validate(
            {
                "change": {
                    "kind": "new_entry",
                    "domain": "demo",
                    "title": {"en": "x"},
                    "signature": "BoomError",
                    "patterns": ["Boom", "Other"],
                }
            }
        )
    # Counted as the form lists them, from 1: the second pattern is the one to fix.
    assert "pattern 2 does not match the signature" in caught.value.errors()[0]["msg"]


@pytest.mark.parametrize(
    ("change", "loc"),
    [
        ({"id": "Demo/Boom Error"}, ("change", "id")),
        ({"id": "other/boom-error"}, ("change",)),
    ],
)
def test_a_new_entry_that_would_not_be_a_valid_entry_is_refused_naming_it(shipped_engine, change, loc):
    body = {
        "kind": "new_entry",
        "domain": "demo",
        "title": {"en": "Boom"},
        "signature": "BoomError",
        **change,
    }
    with pytest.raises(ProposalInvalid) as caught:
        propose(shipped_engine, body, entry_id=None)
    assert caught.value.loc == loc
    if loc == ("change",):
        assert "does not match the id" in caught.value.msg
    with read_session(shipped_engine) as session:
        assert queue.list_proposals(session) == []


def test_edit_then_accept_takes_the_moderators_document(shipped_engine):
    view = propose(shipped_engine, {"kind": "workaround", "title": {"en": "Lower the batch"}})
    with read_session(shipped_engine) as session:
        document = queue.editable_document(queue.proposed_document(session, view.id))
    assert "Lower the batch" in document and "evidence" not in document
    edited = document.replace("Lower the batch", "Lower --max-num-seqs")
    queue.accept_proposal(shipped_engine, view.id, document=edited)
    after = entry(shipped_engine)
    assert any(w.title.en == "Lower --max-num-seqs" for w in after.workarounds)
    assert after.history.last_change.summary == "edited by a moderator"
    view2 = propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache"})
    # Two fields wrong: the first of them is named.
    two_wrong = document.replace("domain: llm\n", "domain: ''\n").replace(
        "category: resource_error\n", "category: ''\n"
    )
    for bad, loc in (
        (document.replace(f"id: {SEED_ID}\n", "id: llm/other\n"), ("document", "id")),
        (document.replace(f"id: {SEED_ID}\n", "- not a mapping"), ("document",)),
        (two_wrong, ("document", "domain")),
    ):
        with pytest.raises(ProposalInvalid) as caught:
            queue.accept_proposal(shipped_engine, view2.id, document=bad)
        assert caught.value.loc[: len(loc)] == loc
    with read_session(shipped_engine) as session:
        assert queue.get_proposal(session, view2.id).status == "pending"


def test_a_workaround_proposed_twice_by_the_same_title_gets_an_id_of_its_own(shipped_engine):
    change = {"kind": "workaround", "title": {"en": "Lower the batch"}, "steps": {"en": "one way"}}
    for steps in ("one way", "another way", "a third way"):
        change["steps"] = {"en": steps}
        queue.accept_proposal(shipped_engine, propose(shipped_engine, change).id)
    added = [w for w in entry(shipped_engine).workarounds if w.title.en == "Lower the batch"]
    assert [(w.id, w.steps.en) for w in added] == [
        ("lower-the-batch", "one way"),
        ("lower-the-batch-2", "another way"),
        ("lower-the-batch-3", "a third way"),
    ]


def test_a_proposed_items_id_is_its_title_in_at_most_60_characters(shipped_engine):
    title = "Drain every node, restart the whole cluster, then wait for the scheduler to settle"
    change = {"kind": "dead_end", "action": {"en": title}, "why_fails": {"en": "It comes back."}}
    queue.accept_proposal(shipped_engine, propose(shipped_engine, change).id)
    [added] = [d for d in entry(shipped_engine).dead_ends if d.action.en == title]
    assert added.id == "drain-every-node-restart-the-whole-cluster-then-wait-for-the"
    # A title with no letter or digit to keep gets a plain id.
    nothing = {"kind": "workaround", "title": {"en": "重启集群"}, "steps": {"en": "Restart it."}}
    queue.accept_proposal(shipped_engine, propose(shipped_engine, nothing).id)
    assert [w.id for w in entry(shipped_engine).workarounds if w.title.en == "重启集群"] == ["item"]


def test_an_accepted_proposal_shows_only_what_it_changed(shipped_engine):
    pattern = propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache"})
    queue.accept_proposal(shipped_engine, pattern.id)
    signature = propose(
        shipped_engine, {"kind": "signature", "signature": "OutOfMemoryError: KV cache block"}
    )
    queue.accept_proposal(shipped_engine, signature.id)
    with read_session(shipped_engine) as session:
        first = queue.proposal_diff(session, pattern.id)
        second = queue.proposal_diff(session, signature.id)
    assert {d.field for d in first} == {"patterns"}
    assert {d.field for d in second} == {"signature"}  # not the pattern accepted before
    assert [d.new for d in second if d.field == "signature"] == ["OutOfMemoryError: KV cache block"]


def test_an_accepted_new_entry_shows_all_it_brought_and_an_edit_cannot_give_it_a_taken_id(shipped_engine):
    new = {
        "kind": "new_entry",
        "domain": "demo",
        "title": {"en": "Gizmo overheats"},
        "signature": "GizmoError: core at 99 C",
        "patterns": ["GizmoError: core at \\d+ C"],
    }
    first = propose(shipped_engine, new, entry_id=None)
    queue.accept_proposal(shipped_engine, first.id)
    with read_session(shipped_engine) as session:
        brought = {d.field: d for d in queue.proposal_diff(session, first.id)}
    assert {"id", "title", "signature", "patterns"} <= set(brought)
    assert brought["signature"].old is None and brought["signature"].new == "GizmoError: core at 99 C"
    second = propose(shipped_engine, {**new, "title": {"en": "Gizmo runs hot"}}, entry_id=None)
    with read_session(shipped_engine) as session:
        document = queue.editable_document(queue.proposed_document(session, second.id))
    taken = document.replace("id: demo/gizmo-runs-hot", f"id: {SEED_ID}", 1).replace(
        "domain: demo", "domain: llm", 1
    )
    assert taken.count(SEED_ID) == 1 and "domain: llm" in taken
    with pytest.raises(ProposalInvalid) as caught:
        queue.accept_proposal(shipped_engine, second.id, document=taken)
    assert caught.value.loc == ("document", "id")
    assert entry(shipped_engine).title.en == "vLLM block manager cannot allocate a KV cache block"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (
            {"kind": "dead_end", "action": {"en": "Reinstall CUDA"}, "why_fails": {"en": "It is fine."}},
            "dead_ends",
        ),
        ({"kind": "doc", "title": "Engine arguments", "url": "https://docs.vllm.ai/en/latest/"}, "docs"),
        ({"kind": "version", "component": "vllm", "version": ">=0.6", "status": "fixed"}, "versions"),
        ({"kind": "pattern", "pattern": "KV cache"}, "patterns"),
    ],
)
def test_a_pending_proposal_shows_only_what_it_would_add(shipped_engine, change, field):
    pending = propose(shipped_engine, change)
    with read_session(shipped_engine) as session:
        shown = queue.proposal_diff(session, pending.id)
    assert shown and {d.field for d in shown} == {field} and all(d.old is None for d in shown)


def test_the_queue_lists_proposals_of_one_kind(shipped_engine):
    patterns = [
        propose(shipped_engine, {"kind": "pattern", "pattern": p}).id for p in ("KV cache", "cache block")
    ]
    propose(shipped_engine, {"kind": "signature", "signature": "OutOfMemoryError: KV cache block"})
    with read_session(shipped_engine) as session:
        assert [p.id for p in queue.list_proposals(session, kind="pattern")] == patterns
        assert len(queue.list_proposals(session)) == 3


@pytest.mark.parametrize(
    ("paste", "signature"),
    [
        # The last error line of a traceback is the exception itself.
        (
            'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n'
            '    raise ValueError("bad")\nValueError: bad\n',
            "ValueError: bad",
        ),
        (
            "$ java Foo\njava.lang.IllegalStateException: closed\n\tat Foo.main(Foo.java:3)\n",
            "java.lang.IllegalStateException: closed",
        ),
        # No line reads like an error: the paste starts with what was printed first.
        ("  quuxctl up --all\nquux: stopped at step 3\n\n", "quuxctl up --all"),
        ("", ""),
    ],
)
def test_a_new_entry_form_starts_from_the_line_that_reads_like_the_error(paste, signature):
    assert prefill_from_paste(paste) == {"paste": paste, "signature": signature}


def test_rejecting_keeps_the_entry_and_the_reason(shipped_engine):
    before = entry(shipped_engine)
    view = propose(shipped_engine, {"kind": "signature", "signature": "spam spam"})
    rejected = queue.reject_proposal(shipped_engine, view.id, "not the error")
    assert rejected.status == "rejected" and rejected.reason == "not the error"
    assert entry(shipped_engine).signature == before.signature
    with read_session(shipped_engine) as session:
        assert [p.id for p in queue.list_proposals(session, status="rejected")] == [view.id]
        assert queue.list_proposals(session, status="pending") == []


def test_a_decided_proposal_cannot_be_decided_again_either_way(shipped_engine):
    accepted = propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache"})
    queue.accept_proposal(shipped_engine, accepted.id)
    rejected = propose(shipped_engine, {"kind": "signature", "signature": "spam spam"})
    queue.reject_proposal(shipped_engine, rejected.id, "not the error")
    for decided, status in ((accepted.id, "accepted"), (rejected.id, "rejected")):
        with pytest.raises(ProposalDecided):
            queue.reject_proposal(shipped_engine, decided, "changed my mind")
        with pytest.raises(ProposalDecided):
            queue.accept_proposal(shipped_engine, decided)
        with read_session(shipped_engine) as session:
            assert queue.get_proposal(session, decided).status == status
    assert "KV cache" in entry(shipped_engine).patterns


def test_the_queue_of_one_entry_holds_its_proposals_and_no_other(shipped_engine):
    other = "demo/full-bilingual"  # its id sorts before the seed entry's
    mine = [
        propose(shipped_engine, {"kind": "pattern", "pattern": p}).id for p in ("KV cache", "cache block")
    ]
    theirs = propose(shipped_engine, {"kind": "pattern", "pattern": "frobnicate"}, entry_id=other).id
    with read_session(shipped_engine) as session:
        for entry_id, expected in ((SEED_ID, mine), (other, [theirs])):
            assert [p.id for p in queue.list_proposals(session, entry_id=entry_id)] == expected
            assert queue.count_proposals(session, entry_id=entry_id) == len(expected)


def test_proposals_are_rate_limited_per_client(shipped_engine):
    limit = RateLimit(submissions=2, window_seconds=60)
    now = datetime.now(UTC)
    body = ProposalIn.model_validate({"change": {"kind": "pattern", "pattern": "KV cache"}})
    for _ in range(2):
        queue.submit_proposal(shipped_engine, body, entry_id=SEED_ID, client="c1", limit=limit, now=now)
    with pytest.raises(RateLimited) as caught:
        queue.submit_proposal(shipped_engine, body, entry_id=SEED_ID, client="c1", limit=limit, now=now)
    assert 1 <= caught.value.retry_after <= 61
    queue.submit_proposal(shipped_engine, body, entry_id=SEED_ID, client="c2", limit=limit, now=now)
    later = now + timedelta(seconds=61)
    queue.submit_proposal(shipped_engine, body, entry_id=SEED_ID, client="c1", limit=limit, now=later)


def test_an_import_that_changes_a_field_gives_it_back_to_its_source(shipped_engine, tmp_path):
    view = propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache"})
    queue.accept_proposal(shipped_engine, view.id)
    assert entry(shipped_engine).history.origins == {"patterns": f"proposal #{view.id}"}
    doc = to_document(entry(shipped_engine), [])
    changed = doc.model_copy(update={"patterns": doc.patterns[:-1], "scope": "linux"})
    (tmp_path / "llm").mkdir()
    (tmp_path / "llm" / "vllm-block-manager-out-of-memory.yaml").write_text(dump_document(changed))
    assert import_paths(shipped_engine, [tmp_path]).failed == 0
    after = entry(shipped_engine)
    assert after.scope == "linux" and after.history.origins == {}
    assert after.history.last_change.by == "import"


def test_a_pattern_that_only_matched_what_scrubbing_removed_is_refused(shipped_engine):
    change = {
        "kind": "new_entry",
        "domain": "demo",
        "title": {"en": "Cannot reach the cache"},
        "signature": "CacheError: cannot reach 10.1.2.3",
        "patterns": [r"cannot reach 10\.1"],
    }
    with pytest.raises(ProposalInvalid) as caught:
        propose(shipped_engine, change, entry_id=None)
    assert caught.value.loc == ("change",) and "once scrubbed" in caught.value.msg


def test_a_json_payload_from_outside_http_is_checked_the_same_way(shipped_engine):
    view = queue.submit_payload(
        shipped_engine, {"entry_id": SEED_ID, "change": {"kind": "pattern", "pattern": "KV cache"}}
    )
    assert view.status == "pending"
    with pytest.raises(ProposalInvalid) as caught:
        queue.submit_payload(shipped_engine, {"entry_id": SEED_ID, "change": {"kind": "doc", "title": "x"}})
    assert caught.value.loc == ("change", "doc", "url")


def test_accepting_what_changes_nothing_is_refused(shipped_engine):
    first, second = (propose(shipped_engine, {"kind": "pattern", "pattern": "KV cache"}) for _ in range(2))
    queue.accept_proposal(shipped_engine, first.id)
    with pytest.raises(ProposalInvalid) as caught:  # the same pattern, accepted already
        queue.accept_proposal(shipped_engine, second.id)
    assert caught.value.loc == ("change", "pattern")
    unchanged = queue.editable_document(to_document(entry(shipped_engine), []))
    with pytest.raises(ProposalInvalid) as caught:  # a moderator's edit back to the entry as it is
        queue.accept_proposal(shipped_engine, second.id, document=unchanged)
    assert caught.value.loc == ("document",)
    with read_session(shipped_engine) as session:
        assert queue.get_proposal(session, second.id).status == "pending"
