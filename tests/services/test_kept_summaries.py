"""Summaries of search results kept between searches (app.services.search.summaries): a
real database, real writes, no HTTP."""

import gc
import tracemalloc
from datetime import UTC, datetime, timedelta, timezone

import orjson
import pytest
from sqlalchemy import select
from sqlmodel import Session

from app.db import make_engine
from app.kept import KeptReads
from app.models import Entry
from app.schemas.api import EvidenceIn
from app.schemas.views import EntrySummary
from app.services.entries.catalog import searched_entries
from app.services.entries.read import current_stamp, load_entry, summary_fields, summary_of
from app.services.evidence.reports import record_evidence
from app.services.search import summaries as summaries_module
from app.services.search.summaries import (
    Listed,
    footprint,
    kept_summaries,
    listed,
    read_summaries,
    summaries_at,
    summary_rows,
)


@pytest.fixture
def engine(shipped_settings):
    engine = make_engine(shipped_settings)
    yield engine
    engine.dispose()


def _seqs(engine, n: int) -> dict[int, str]:
    with engine.connect() as conn:
        return dict(conn.execute(select(Entry.seq, Entry.id).order_by(Entry.seq).limit(n)).all())


def _summaries_read(monkeypatch) -> list[int]:
    """How many entry rows each read of summaries asks the database for, one number a read."""
    asked: list[int] = []
    read = summaries_module.summary_rows

    def counted(conn, seqs):
        asked.append(len(seqs))
        return read(conn, seqs)

    monkeypatch.setattr(summaries_module, "summary_rows", counted)
    return asked


def _item(kept: Listed, snippet: str | None) -> dict:
    return orjson.loads(orjson.dumps(kept.item(snippet)))


def _read(engine, kept: KeptReads, seqs: list[int]):
    with engine.connect() as conn:
        return summaries_at(kept, current_stamp(conn, ()))(conn, seqs)


def test_kept_summaries_are_those_read_afresh_and_read_once(engine, monkeypatch):
    seqs = list(_seqs(engine, 6))
    asked = _summaries_read(monkeypatch)
    kept = kept_summaries()
    first = _read(engine, kept, seqs[:4])
    again = _read(engine, kept, seqs)  # four kept, two to read
    with engine.connect() as conn:
        fresh = read_summaries(conn, seqs)
    assert again == fresh and first == {s: fresh[s] for s in seqs[:4]}
    assert asked == [4, 2, 6]
    assert len(kept) == 6


def test_a_write_to_any_entry_drops_what_was_kept(engine, monkeypatch):
    seqs = _seqs(engine, 3)
    kept = kept_summaries()
    before = _read(engine, kept, list(seqs))
    written = next(iter(seqs))
    record_evidence(engine, entry_id=seqs[written], report=EvidenceIn(outcome="worked"))
    asked = _summaries_read(monkeypatch)
    after = _read(engine, kept, list(seqs))
    assert asked == [3]  # the stamp moved: nothing kept is used
    assert after[written].summary().evidence_count == before[written].summary().evidence_count + 1
    assert _item(after[written], None)["evidence_count"] == after[written].summary().evidence_count


def test_what_is_read_at_one_stamp_is_not_kept_once_another_is(engine, monkeypatch):
    """A search that read the stamp before a write, and its summaries after another search
    saw the write, must not leave its summaries to be used at the new stamp."""
    seqs = list(_seqs(engine, 4))
    kept = kept_summaries()
    with engine.connect() as conn:
        old = current_stamp(conn, ())
    record_evidence(engine, entry_id=_seqs(engine, 4)[seqs[0]], report=EvidenceIn(outcome="failed"))

    def read_while_another_search_runs(conn, wanted):
        monkeypatch.setattr(summaries_module, "read_summaries", read_summaries)
        _read(engine, kept, seqs[2:])  # at the new stamp, meanwhile
        return read_summaries(conn, wanted)

    monkeypatch.setattr(summaries_module, "read_summaries", read_while_another_search_runs)
    with engine.connect() as conn:
        summaries_at(kept, old)(conn, seqs[:2])
    assert seqs[2] in kept and seqs[3] in kept
    assert seqs[0] not in kept and seqs[1] not in kept


def test_a_search_that_began_before_a_write_reads_afresh_and_leaves_the_kept_alone(engine, monkeypatch):
    seqs = _seqs(engine, 3)
    kept = kept_summaries()
    with engine.connect() as conn:
        old = current_stamp(conn, ())
    written = next(iter(seqs))
    record_evidence(engine, entry_id=seqs[written], report=EvidenceIn(outcome="worked"))
    new = _read(engine, kept, list(seqs))
    asked = _summaries_read(monkeypatch)
    with engine.connect() as conn:
        late = summaries_at(kept, old)(conn, [*seqs, 10**9])
    assert asked == [4] and late == new  # read, as the database has it now
    assert all(seq in kept for seq in seqs)
    assert _read(engine, kept, list(seqs)) == new and asked == [4]  # still kept for the new stamp


def test_kept_summaries_keep_to_their_bytes_and_let_the_least_recently_used_go(engine):
    one, two, three, four = _seqs(engine, 4)
    with engine.connect() as conn:
        size = {seq: footprint(s) for seq, s in read_summaries(conn, [one, two, three, four]).items()}
    kept = kept_summaries(max_bytes=size[one] + size[three] + max(size[two], size[four]))
    _read(engine, kept, [one, two, three])
    assert len(kept) == 3
    _read(engine, kept, [one])  # asked again: now the most recently used
    _read(engine, kept, [four])
    assert [s in kept for s in (one, two, three, four)] == [True, False, True, True]
    assert kept.used == size[one] + size[three] + size[four] <= kept.budget


def test_the_bytes_counted_are_about_what_the_kept_summaries_hold(engine):
    seqs = list(_seqs(engine, 200))
    _read(engine, kept_summaries(), seqs)  # the statement compiled and cached before measuring
    with engine.connect() as conn:
        stamp = current_stamp(conn, ())
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            kept = kept_summaries()
            summaries_at(kept, stamp)(conn, seqs)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
    assert len(kept) == len(seqs)
    assert 0.85 < kept.used / held < 1.15, (kept.used, held)


def test_each_search_gets_its_own_snippets_and_the_kept_summaries_none(engine, monkeypatch):
    kept = kept_summaries()
    pages = {}
    for query in ("memory", "CUDA out of memory"):
        with engine.connect() as conn:
            stamp = current_stamp(conn, ())
            items, _ = searched_entries(conn, query, limit=10, offset=0, summaries=summaries_at(kept, stamp))
            pages[query] = orjson.loads(orjson.dumps(items))
    both = {e["id"] for e in pages["memory"]} & {e["id"] for e in pages["CUDA out of memory"]}
    assert both
    with engine.connect() as conn:
        seqs = list(conn.execute(select(Entry.seq).where(Entry.id.in_(both))).scalars())
        asked = _summaries_read(monkeypatch)
        again = summaries_at(kept, stamp)(conn, seqs)
    assert asked == [] and all(e.summary().snippet is None for e in again.values())
    snippets = {q: {e["id"]: e["snippet"] for e in page} for q, page in pages.items()}
    assert any(snippets["memory"][i] != snippets["CUDA out of memory"][i] for i in both)


def test_an_entry_that_is_gone_is_left_out(engine):
    seqs = list(_seqs(engine, 2))
    kept = kept_summaries()
    assert set(_read(engine, kept, [*seqs, 10**9])) == set(seqs)
    assert 10**9 not in kept


@pytest.mark.parametrize(
    "snippet",
    [
        None,
        "",
        'CUDA <mark>out of memory</mark> "quoted" \\ back',
        "显存<mark>不足</mark>",
        "\u2028\x7f\U0001f600",
    ],
)
def test_a_list_item_is_the_summary_as_json_with_its_snippet(engine, snippet):
    """Byte for byte what the summary made afresh from the entry's row, with that snippet,
    encodes to, for every shipped entry: the kept JSON is spliced, never parsed; and the
    model made back from it for pages is that summary."""
    with engine.connect() as conn:
        seqs = list(conn.execute(select(Entry.seq)).scalars())
        rows = summary_rows(conn, seqs)
        read = read_summaries(conn, seqs)
    assert len(read) == len(seqs) > 40
    for seq, kept in read.items():
        fresh = summary_of(rows[seq])
        whole = summary_of(rows[seq], snippet).model_dump(mode="json")
        assert orjson.dumps(kept.item(snippet)) == orjson.dumps(whole)
        assert orjson.dumps([kept.item(snippet)]) == orjson.dumps([whole])
        assert kept.summary() == fresh


def test_a_list_item_says_what_the_entrys_own_view_says(engine):
    """Each field of every shipped entry's list item, as read for a search, is its entry
    view's field of the same name, which is built apart: a field read from the wrong column
    shows."""
    with engine.connect() as conn:
        ids = dict(conn.execute(select(Entry.seq, Entry.id)).all())
        items = {seq: _item(kept, None) for seq, kept in read_summaries(conn, list(ids)).items()}
    assert len(items) == len(ids) > 40
    with Session(engine) as session:
        for seq, entry_id in ids.items():
            view = load_entry(session, entry_id).view.model_dump(mode="json")
            item = items[seq]
            assert set(item) - set(view) == {"url", "snippet"}
            shared = set(item) & set(view)
            assert {key: item[key] for key in shared} == {key: view[key] for key in shared}
            assert item["url"] == view["links"]["html"]


@pytest.mark.parametrize(
    "updated",
    [
        datetime(2026, 1, 2, 3, 4, 5),
        datetime(2026, 1, 2, 3, 4, 5, 1),
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4, 5, 500000, tzinfo=UTC),
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-5, minutes=-30))),
    ],
)
@pytest.mark.parametrize("numbers", [(1, 0, 0, 0), (0.5, 0.25, 3, 1), (1.0, 1.0, 0, True)])
def test_values_the_shipped_rows_lack_encode_as_the_model_does(updated, numbers):
    """Datetimes without microseconds or with offsets, whole-number rates, a 0/1 flag, no
    Chinese title: the encoded item is still the model's dump, byte for byte."""
    fix_rate, confidence, reports, ai = numbers
    text = ("a/b", "a", "runtime", "T", None, "E: \u2028 </script>")
    values = (*text, fix_rate, confidence, reports, ai, updated)
    model = EntrySummary(**summary_fields(values), snippet=None).model_dump(mode="json")
    assert orjson.dumps(listed(values).item(None)) == orjson.dumps(model)
