"""Ranking a search of plain words in numpy, from each word's matches read out of FTS5's own
index (app/backends/fts5_terms.py): the same rows, counts and bm25 scores, to the last bit, as
FTS5's bm25() in SQL; kept from a word's second ask, and read before that where reading costs
less than FTS5's ranking; read again after any write to the index; within its byte budget.
Through the backend, on a real migrated SQLite file."""

import random
import threading

import numpy as np
import pytest

from app import backends
from app.backends import fts5_terms
from app.db import make_engine, write_session
from tests.conftest import make_settings

pytestmark = pytest.mark.sqlite_only

# Words of every frequency: some in most rows, some in few; rows of every length.
VOCABULARY = [f"w{n}" for n in range(60)]
QUERIES = [
    ["w0"],
    ["w1", "w0"],
    ["w3", "w7", "w2"],
    ["w59"],
    ["w5", "w58"],
    ["w12", "w0", "w1", "w2"],
    ["nowhere"],
]


def _text(rng: random.Random, words: int) -> str:
    # Zipf-like: low-numbered words are common.
    return " ".join(VOCABULARY[min(int(rng.paretovariate(1.0)) - 1, 59)] for _ in range(words))


def _write(engine, rows: range, seed: int) -> None:
    rng = random.Random(seed)
    with write_session(engine) as session:
        for rowid in rows:
            backends.write_index_row(
                session.connection(),
                rowid,
                title=_text(rng, rng.randint(1, 6)),
                signature=_text(rng, rng.randint(0, 12)),
                body=_text(rng, rng.randint(0, 80)),
            )


@pytest.fixture
def engine(databases):
    engine = make_engine(make_settings(databases.empty()))
    _write(engine, range(1, 601), seed=3)
    yield engine
    engine.dispose()


def _search(conn, terms: list[str], limit: int = 20, offset: int = 0):
    return backends.search_words(conn, terms, any_term=False, limit=limit, offset=offset)


def _asked(conn, terms: list[str]) -> None:
    """Each word asked for once: from the next search on, read and ranked in numpy."""
    for term in terms:
        _search(conn, [term])


def _by_fts5(conn, terms: list[str], monkeypatch, **page):
    """The same search with no word's matches read: FTS5 ranks it (its bm25() in SQL)."""
    with monkeypatch.context() as patch:
        patch.setattr(fts5_terms._Words, "matched", lambda self, c, words, **_: None)
        return _search(conn, terms, **page)


def _by_sql(
    conn, terms: list[str], limit: int = 20, offset: int = 0, within: set[int] | None = None
) -> tuple[list[tuple[int, float]], int]:
    """(rowid, score) of the page and how many match, written out in SQL: the rows holding
    every word (among `within`, if given), ranked by the bm25() of the words fewer than half
    the rows hold (of every word when each is that common), ties by rowid."""
    sql = conn.exec_driver_sql

    def match(words):
        return " AND ".join(f'"{w}"' for w in words)

    rows, held = _holders(conn, terms)
    scored = [w for w in terms if 2 * held[w] < rows] or terms
    matches = {r for (r,) in sql(f"SELECT rowid FROM entry_fts_words('{match(terms)}')")}
    if within is not None:
        matches &= within
    ranked = sql(
        f"SELECT rowid, bm25(entry_fts_words, 10.0, 6.0, 1.0) AS s FROM entry_fts_words('{match(scored)}') "
        "ORDER BY s, rowid"
    )
    return [tuple(r) for r in ranked if r[0] in matches][offset : offset + limit], len(matches)


@pytest.mark.parametrize("terms", QUERIES)
def test_words_ranked_in_numpy_rank_as_bm25_in_sql_does(engine, terms, monkeypatch):
    with engine.connect() as conn:
        _asked(conn, terms)
        for offset in (0, 20, 300):
            rows, total = _search(conn, terms, offset=offset)
            expected, expected_total = _by_fts5(conn, terms, monkeypatch, limit=20, offset=offset)
            assert total == expected_total
            # rowid, score (the very same double) and snippet
            assert rows == expected
            assert ([(r[0], r[1]) for r in rows], total) == _by_sql(conn, terms, offset=offset)
    assert fts5_terms.word_matches(conn)._words.matches  # answered from the words read


def _holders(conn, words: list[str]) -> tuple[int, dict[str, int]]:
    """How many rows the index has, and how many of them hold each word."""
    count = conn.exec_driver_sql
    held = {w: count(f"SELECT count(*) FROM entry_fts_words('\"{w}\"')").scalar() for w in words}
    return count("SELECT count(*) FROM entry_fts_words").scalar(), held


def _by_commonness(conn) -> tuple[list[str], list[str]]:
    """(the words half the rows or more hold, the words fewer hold) of the vocabulary."""
    rows, held = _holders(conn, VOCABULARY)
    common = [w for w in VOCABULARY if 2 * held[w] >= rows]
    rare = [w for w in VOCABULARY if 0 < 2 * held[w] < rows]
    assert len(common) >= 2 and len(rare) >= 2  # the data has both kinds
    return common, rare


def test_a_word_half_the_rows_hold_selects_rows_and_adds_nothing_to_the_score(engine, monkeypatch):
    with engine.connect() as conn:
        common, rare = _by_commonness(conn)
        queries = [[rare[0], common[0]], [common[1], rare[-1], common[0]], [rare[1], rare[-1], common[-1]]]
        queries.append(common[:2])  # every word that common: bm25 of them all
        for terms in queries:
            _asked(conn, terms)
            for offset in (0, 20):
                expected, total = _by_sql(conn, terms, offset=offset)
                found = _search(conn, terms, offset=offset)  # ranked in numpy
                assert [(r[0], r[1]) for r in found[0]] == expected and found[1] == total, terms
                assert found == _by_fts5(conn, terms, monkeypatch, offset=offset)
        assert set(common[:2]) <= set(fts5_terms.word_matches(conn)._words.holders)  # counted for the record
        outside = [_search(conn, terms) for terms in queries]
    with write_session(engine) as session:  # inside a write, where FTS5 counts: the same pages
        assert [_search(session.connection(), terms) for terms in queries] == outside


def test_among_a_filter_a_word_half_the_rows_hold_selects_rows_too(engine):
    within = list(range(1, 601, 3))
    with engine.connect() as conn:
        common, rare = _by_commonness(conn)
        for terms in ([rare[0], common[0]], [common[0], rare[1], common[1]]):
            for offset in (0, 20):
                found = backends.search_words(
                    conn, terms, any_term=False, limit=20, offset=offset, within=within
                )
                expected, total = _by_sql(conn, terms, offset=offset, within=set(within))
                assert [(r[0], r[1]) for r in found[0]] == expected and found[1] == total, terms
                assert expected and all(r[0] in within for r in found[0])


def _a_write_once_the_record_is_read(monkeypatch, write) -> list[bool]:
    """From now on `write()` commits as a search has just read the index's record, once until
    the list returned (True once it has) is cleared."""
    real = fts5_terms.WordMatches.at
    written: list[bool] = []

    def then_a_write_commits(self, conn, weights, **options):
        words = real(self, conn, weights, **options)
        if not written:
            written.append(True)
            write()
        return words

    monkeypatch.setattr(fts5_terms.WordMatches, "at", then_a_write_commits)
    return written


def test_a_write_committed_while_a_search_counts_a_words_holders_fails_nothing(engine, monkeypatch):
    # Searches outside a write run statement by statement: the rows counted when the index's
    # record was read, and a word's holders counted after, may straddle another's commit.
    with engine.connect() as conn:
        common, rare = _by_commonness(conn)
    # 300 rows more, the common word in most
    written = _a_write_once_the_record_is_read(monkeypatch, lambda: _write(engine, range(601, 901), seed=7))
    terms = [rare[0], common[0]]
    with engine.connect() as conn:
        assert _search(conn, terms)[1]  # no error: a page of what it read
        assert written
        found = _search(conn, terms)  # the next search reads the new record
        assert ([(r[0], r[1]) for r in found[0]], found[1]) == _by_sql(conn, terms)


@pytest.mark.parametrize("asked", [0, 1])
def test_a_write_committed_while_a_search_reads_its_words_fails_nothing(engine, monkeypatch, asked):
    # A one-word query is read at its first ask, and kept from its second: either read may see
    # rows the index's record, read before it, does not know.
    with engine.connect() as conn:
        _, rare = _by_commonness(conn)
        words = rare[:4]
        for word in words:
            for _ in range(asked):
                _search(conn, [word])

    def rows_holding_the_words():  # past the last one
        with write_session(engine) as session:
            for rowid in (601, 602):
                backends.write_index_row(
                    session.connection(), rowid, title=" ".join(words), signature="", body=""
                )

    written = _a_write_once_the_record_is_read(monkeypatch, rows_holding_the_words)
    for word in words:
        written.clear()
        with engine.connect() as conn:  # statement by statement, as the service searches
            rows, total = _search(conn, [word])
            kept = fts5_terms.word_matches(conn)._words  # as read before the write
        assert written
        with engine.connect() as conn:
            assert ([(r[0], r[1]) for r in rows], total) == _by_sql(conn, [word]), word
        assert word not in kept.matches  # read from another index: not kept


def test_an_index_of_rows_without_a_word_finds_nothing(databases):
    engine = make_engine(make_settings(databases.empty()))
    with write_session(engine) as session:
        for rowid in (1, 2):
            backends.write_index_row(session.connection(), rowid, title="", signature="", body="")
    with engine.connect() as conn:
        for _ in range(2):
            assert _search(conn, ["memory"]) == ([], 0)
    engine.dispose()


def test_a_word_whose_weighed_counts_pass_two_bytes_ranks_alike_and_once_too_common_is_not_read_again(
    engine, monkeypatch
):
    # Ten for each time a row's title holds it: 7,000 times is 70,000, past what uint16 holds.
    with write_session(engine) as session:
        backends.write_index_row(session.connection(), 700, title="zzbig " * 7000, signature="", body="")
        for rowid in (701, 702):
            backends.write_index_row(
                session.connection(), rowid, title="zzbig w1", signature="zzbig", body=""
            )
    reads = _reads(monkeypatch)
    with engine.connect() as conn:
        for terms in (["zzbig"], ["zzbig"], ["zzbig", "w1"]):
            rows, total = _search(conn, terms)
            assert ([(r[0], r[1]) for r in rows], total) == _by_sql(conn, terms)
        kept = fts5_terms.word_matches(conn)._words
        held = kept.matches["zzbig"]
        assert held.counts.dtype == np.float64 and held.counts.max() == 70_000
        assert held.rows.dtype == np.uint16 and held.rowids().tolist()[-3:] == [700, 701, 702]
    _write(engine, range(703, 704), seed=5)  # a new record: nothing kept
    # Ten bytes a row, where a word's holders promise three: read once, then known too common.
    monkeypatch.setattr(fts5_terms, "WORD_BUDGET", 3 * 3 + 1)
    reads.clear()
    with engine.connect() as conn:
        for _ in range(3):
            assert _search(conn, ["zzbig"]) == _by_fts5(conn, ["zzbig"], monkeypatch, limit=20, offset=0)
    assert reads == ["zzbig"]


def test_a_write_to_the_index_is_seen_by_the_next_search(engine, monkeypatch):
    with engine.connect() as conn:
        _asked(conn, ["w1", "w0", "zebrafrob"])
        before, total = _search(conn, ["w1", "w0"])
        assert _search(conn, ["zebrafrob"]) == ([], 0)
    with write_session(engine) as session:
        backends.write_index_row(
            session.connection(), 9001, title="zebrafrob w1 w0", signature="w1 w1", body="w0"
        )
        backends.delete_index_row(session.connection(), before[0][0])  # the best match goes
    with engine.connect() as conn:
        assert _search(conn, ["zebrafrob"])[1] == 1
        after, after_total = _search(conn, ["w1", "w0"])
        assert after_total == total  # one row more, one less
        assert before[0][0] not in [r[0] for r in after]
        assert (after, after_total) == _by_fts5(conn, ["w1", "w0"], monkeypatch, limit=20, offset=0)


def test_the_texts_of_listed_rows_are_kept_and_read_again_after_a_write(engine, monkeypatch):
    with engine.connect() as conn:
        _asked(conn, ["w1", "w0"])
        first, _ = _search(conn, ["w1", "w0"])
        kept = fts5_terms.word_matches(conn)._words
        assert all(rowid in kept.texts for rowid, _, _ in first)
        reads = []
        monkeypatch.setattr(fts5_terms, "read_texts", lambda c, rowids: reads.append(rowids) or {})
        assert _search(conn, ["w1", "w0"]) == (first, _)  # snippets from the kept texts alone
        assert reads == []
        monkeypatch.undo()
    best = first[0][0]
    with write_session(engine) as session:  # the best match's text changes, and it stays best
        backends.write_index_row(
            session.connection(),
            best,
            title="w1 w0 w1 w0 w1 w0",
            signature="w0 w1 w0 w1",
            body="changed w1 w0",
        )
    with engine.connect() as conn:
        after, total = _search(conn, ["w1", "w0"])
        assert after[0][0] == best and after[0][2] != first[0][2]
        assert (after, total) == _by_fts5(conn, ["w1", "w0"], monkeypatch, limit=20, offset=0)


def test_chinese_phrase_and_substring_searches_take_snippets_from_the_kept_texts_too(engine, monkeypatch):
    # Ranked by FTS5 (Chinese pairs, an identifier's phrase, trigrams), snippets from the texts
    # kept for the index as it is: none read again, and a write's own text seen inside it.
    page = {"limit": 20, "offset": 0}
    searches = (
        lambda conn: backends.search_words(conn, ["显存"], any_term=False, **page),
        lambda conn: backends.search_words(conn, ["gpu_memory_utilization"], any_term=False, **page),
        lambda conn: backends.search_substrings(conn, ["emory_util"], **page),
    )
    texts = {"title": "显存不足 w1", "signature": "CUDA 显存", "body": "gpu_memory_utilization 1"}
    with write_session(engine) as session:
        backends.write_index_row(session.connection(), 9001, **texts)
    with engine.connect() as conn:
        first = [search(conn) for search in searches]
        assert [total for _, total in first] == [1, 1, 1]
        reads = []
        monkeypatch.setattr(fts5_terms, "read_texts", lambda c, rowids: reads.append(rowids) or {})
        assert [search(conn) for search in searches] == first
        assert reads == []
        monkeypatch.undo()
    changed = {"title": "显存 changed", "signature": "显存 changed", "body": "gpu_memory_utilization changed"}
    with write_session(engine) as session:
        backends.write_index_row(session.connection(), 9001, **changed)
        inside = [search(session.connection()) for search in searches]
    with engine.connect() as conn:
        after = [search(conn) for search in searches]
    for hits, total in (*inside, *after):
        assert total == 1 and "changed" in hits[0][2], hits


def test_kept_texts_stay_within_their_budget(engine, monkeypatch):
    monkeypatch.setattr(fts5_terms, "TEXT_BUDGET", 3_000)
    with engine.connect() as conn:
        for n in range(30):
            terms = [f"w{n}"]
            _asked(conn, terms)
            assert _search(conn, terms) == _by_fts5(conn, terms, monkeypatch, limit=20, offset=0)
            kept = fts5_terms.word_matches(conn)._words
            assert kept.texts.used == sum(cost for _, cost in kept.texts._kept.values())
            assert kept.texts.used <= 3_000


def test_words_are_kept_within_the_budget_and_still_rank_alike(engine, monkeypatch):
    monkeypatch.setattr(fts5_terms, "BUDGET", 6_000)
    with engine.connect() as conn:
        for n in range(40):
            terms = [f"w{n}", "w0"]
            _asked(conn, terms)
            assert _search(conn, terms) == _by_fts5(conn, terms, monkeypatch, limit=20, offset=0)
            kept = fts5_terms.word_matches(conn)._words
            held = sum(part.rows.nbytes + part.counts.nbytes for part in kept.matches.values())
            assert kept.bytes == held
            assert kept.bytes <= 6_000 or len(kept.matches) <= len(terms)


def test_each_database_has_its_own_words_and_threads_share_them(engine, databases, monkeypatch):
    other = make_engine(make_settings(databases.empty()))
    _write(other, range(1, 301), seed=11)
    expected = {}
    for each in (engine, other):
        with each.connect() as conn:
            expected[each] = [_by_fts5(conn, t, monkeypatch, limit=20, offset=0) for t in QUERIES]
    failures: list[BaseException] = []

    def search(each) -> None:
        try:
            with each.connect() as conn:
                for _ in range(5):
                    assert [_search(conn, t) for t in QUERIES] == expected[each]
        except BaseException as error:  # noqa: BLE001 - any failure is the finding
            failures.append(error)

    threads = [threading.Thread(target=search, args=(each,)) for each in (engine, other) * 3]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    other.dispose()


def _varint(value: int) -> bytes:
    """SQLite's varint, as FTS5 writes its sizes: big-endian groups of 7 bits."""
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(groups))


def test_varints_are_read_as_sqlite_writes_them():
    values = [0, 1, 127, 128, 300, 16383, 16384, 2**21 - 1, 2**21, 2**35 + 5, 2**49 - 1]
    packed = b"".join(map(_varint, values))
    assert fts5_terms._varints(packed).tolist() == values
    assert np.array_equal(fts5_terms._varints(b""), np.zeros(0))


def test_a_word_too_common_to_keep_is_left_to_fts5(engine, monkeypatch):
    with engine.connect() as conn:
        _asked(conn, ["w5", "w0"])
        assert _search(conn, ["w5"])  # the word read, against the index as it is
        kept = fts5_terms.word_matches(conn)._words
        common = kept.read(conn.connection.driver_connection, "w0")
        monkeypatch.setattr(fts5_terms, "WORD_BUDGET", common.nbytes - 1)
        for terms in (["w0"], ["w5", "w0"], ["w5"]):
            assert _search(conn, terms) == _by_fts5(conn, terms, monkeypatch, limit=20, offset=0)
        assert "w0" not in kept.matches and "w5" in kept.matches
        reads = []
        monkeypatch.setattr(fts5_terms._Words, "read", lambda self, c, word: reads.append(word))
        assert _search(conn, ["w0"]) == _by_fts5(conn, ["w0"], monkeypatch, limit=20, offset=0)
    _write(engine, range(601, 603), seed=5)
    with engine.connect() as conn:
        assert _search(conn, ["w0"]) == _by_fts5(conn, ["w0"], monkeypatch, limit=20, offset=0)
    assert reads == []  # known too common, after a write too: not read again


def _reads(monkeypatch) -> list[str]:
    """The words read out of the index from now on, in turn."""
    reads: list[str] = []
    real = fts5_terms._Words.read
    monkeypatch.setattr(
        fts5_terms._Words, "read", lambda self, c, word: reads.append(word) or real(self, c, word)
    )
    return reads


def test_a_word_is_kept_from_its_second_ask_and_read_again_after_a_write(engine, monkeypatch):
    monkeypatch.setattr(fts5_terms, "READ_ROWS", 0)  # two words are read only where admitted
    reads = _reads(monkeypatch)
    with engine.connect() as conn:
        first = _search(conn, ["w3", "w7"])
        kept = fts5_terms.word_matches(conn)._words
        assert reads == [] and not kept.matches  # asked once: FTS5 ranked it
        assert _search(conn, ["w3", "w7"]) == first and reads == ["w3", "w7"]
        assert list(kept.matches) == ["w3", "w7"]
        assert _search(conn, ["w7", "w3"]) == _by_fts5(conn, ["w7", "w3"], monkeypatch, limit=20, offset=0)
        assert reads == ["w3", "w7"]  # kept: not read again
    _write(engine, range(601, 603), seed=5)
    with engine.connect() as conn:
        _search(conn, ["w3", "w7"])
        assert reads == ["w3", "w7", "w3", "w7"]  # asked before the write: read again at once
        assert list(fts5_terms.word_matches(conn)._words.matches) == ["w3", "w7"]


def test_words_not_kept_are_read_for_the_query_alone_where_that_costs_less_than_fts5(engine, monkeypatch):
    monkeypatch.setattr(fts5_terms, "READ_ROWS", 0)
    reads = _reads(monkeypatch)
    with engine.connect() as conn:
        common, rare = _by_commonness(conn)
        rows, held = _holders(conn, VOCABULARY)
        _search(conn, ["nowhere"])  # the words read against the index as it is
        kept = fts5_terms.word_matches(conn)._words
        reads.clear()

        def alike(terms):
            expected = _by_fts5(conn, terms, monkeypatch, limit=20, offset=0)
            assert _search(conn, terms) == expected
            assert [(r[0], r[1]) for r in expected[0]] == _by_sql(conn, terms)[0]

        # One word: FTS5 scores each of its rows, reading is cheaper; not kept on a first ask.
        alike([rare[0]])
        assert reads == [rare[0]] and not kept.matches
        # One word half the rows hold only selects rows: never read for it.
        alike([common[0]])
        assert reads == [rare[0]]
        # Two words, neither kept: reading every row holding them costs more than FTS5's walk.
        alike([rare[1], rare[2]])
        assert reads == [rare[0]]
        # A word kept, and one held by at most a third of the rows holding either: read.
        _search(conn, [rare[0]])
        assert list(kept.matches) == [rare[0]]
        # (words not asked before: a second ask would be admitted, read and kept)
        fewer = next(w for w in rare[3:] if 3 * held[w] <= held[rare[0]] + held[w])
        more = next(w for w in rare[3:] if 3 * held[w] > held[rare[0]] + held[w])
        reads.clear()
        alike([rare[0], fewer])
        assert reads == [fewer] and list(kept.matches) == [rare[0]]
        alike([rare[0], more])
        assert reads == [fewer]  # FTS5 ranked it
        # With READ_ROWS rows free, two words held by as many rows are read.
        pair = [w for w in rare[3:] if w not in (fewer, more)][:2]
        monkeypatch.setattr(fts5_terms, "READ_ROWS", held[pair[0]] + held[pair[1]])
        alike(pair)
        assert reads == [fewer, *pair] and list(kept.matches) == [rare[0]]


def test_once_the_budget_is_nearly_full_a_word_is_kept_only_if_asked_more_than_what_it_would_push_out(
    engine, monkeypatch
):
    with engine.connect() as conn:
        held = {  # what each word's matches take: a gap to its rowid (uint16), a weighed count (uint8)
            word: 3 * conn.exec_driver_sql(f"SELECT count(*) FROM entry_fts_words('{word}')").scalar()
            for word in ("w10", "w11")
        }
        monkeypatch.setattr(fts5_terms, "BUDGET", int(sum(held.values()) * 1.2))
        for word in ("w10", "w11"):
            for _ in range(4):
                _search(conn, [word])
        kept = fts5_terms.word_matches(conn)._words
        assert list(kept.matches) == ["w10", "w11"] and kept.bytes == sum(held.values())  # over 3/4 full
        for asked in range(1, 6):  # w10, the least recently used, was asked for 4 times
            assert _search(conn, ["w12"]) == _by_fts5(conn, ["w12"], monkeypatch, limit=20, offset=0)
            assert ("w12" in kept.matches) == (asked >= 5), asked
        assert "w10" not in kept.matches


def test_searches_declare_nothing_so_a_reads_rollback_leaves_the_schema_as_it_was(engine):
    # A table of the temp schema declared in a read's transaction is dropped by its rollback,
    # and the next statement reloads the whole schema: the vocabularies are declared at connect.
    statements: list[str] = []
    for _ in range(2):  # the second read after the first one's rollback
        with engine.connect() as conn:
            conn.connection.driver_connection.set_trace_callback(statements.append)
            for terms in (["w9"], ["w40", "w8"], ["w7", "w9", "w11"]):
                rows, total = _search(conn, terms)
                assert ([(r[0], r[1]) for r in rows], total) == _by_sql(conn, terms)
            assert conn.in_transaction()
            conn.connection.driver_connection.set_trace_callback(None)
    ours = [sql for sql in statements if not sql.startswith("--")]  # not FTS5's own, nested
    assert any("_instances" in sql for sql in ours)  # words were read
    assert any("_rows" in sql for sql in ours)  # and their holders counted
    assert [sql for sql in ours if not sql.lstrip().upper().startswith(("SELECT", "BEGIN"))] == []


def test_a_search_of_an_empty_index_finds_nothing(databases):
    engine = make_engine(make_settings(databases.empty()))
    with engine.connect() as conn:
        assert _search(conn, ["anything"]) == ([], 0)
    engine.dispose()


def test_a_search_inside_a_write_sees_its_own_rows_and_leaves_nothing_after_a_rollback(engine, monkeypatch):
    with engine.connect() as conn:
        before = _search(conn, ["w1", "w0"])
    with pytest.raises(RuntimeError), write_session(engine) as session:
        backends.write_index_row(session.connection(), 9002, title="zebrafrob w1", signature="w0", body="")
        conn = session.connection()
        found = _search(conn, ["w1", "w0"])
        assert found[1] == before[1] + 1 and found == _by_fts5(
            conn, ["w1", "w0"], monkeypatch, limit=20, offset=0
        )
        assert _search(conn, ["zebrafrob"])[1] == 1
        raise RuntimeError("rolled back")
    with engine.connect() as conn:
        assert _search(conn, ["w1", "w0"]) == before
        assert _search(conn, ["zebrafrob"]) == ([], 0)


def test_snippets_are_cut_from_each_rows_signature_title_and_body_as_written(databases):
    """The texts are read from FTS5's own table of them, by column position: each in its
    place, the writer's own rows included before they are committed."""
    engine = make_engine(make_settings(databases.empty()))
    try:
        with write_session(engine) as session:
            conn = session.connection()
            backends.write_index_row(conn, 7, title="the title", signature="the signature", body="the body")
            backends.write_index_row(conn, 9, title="other title", signature="", body="other body")
            found = fts5_terms.read_texts(conn.connection.driver_connection, [7, 8, 9])
        assert found == {7: ("the signature", "the title", "the body"), 9: ("", "other title", "other body")}
    finally:
        engine.dispose()


def test_a_query_fts5_ranks_whose_rarest_word_few_rows_hold_is_ranked_whole_and_not_counted_apart(
    engine, monkeypatch
):
    # Two words never kept, each held by too many rows to read for one query: FTS5 ranks them.
    monkeypatch.setattr(fts5_terms, "READ_ROWS", 0)
    monkeypatch.setattr(fts5_terms._Admission, "admits", lambda self, words, rival: False)
    reads = _reads(monkeypatch)
    with engine.connect() as conn:
        _, rare = _by_commonness(conn)
        terms = [rare[1], rare[2]]
        statements: list[str] = []
        conn.connection.driver_connection.set_trace_callback(statements.append)
        try:
            pages = {offset: _search(conn, terms, limit=5, offset=offset) for offset in (0, 5, 10**4)}
        finally:
            conn.connection.driver_connection.set_trace_callback(None)
        for offset, (rows, total) in pages.items():
            assert ([(r[0], r[1]) for r in rows], total) == _by_sql(conn, terms, limit=5, offset=offset)
    assert pages[0][1] > 10 and pages[10**4] == ([], pages[0][1])
    assert reads == [] and not any("count(*)" in s for s in statements)


def _from_memory(engine, search, terms: list[str], **page):
    """`search` of `terms` on a connection that asks for an answer from memory alone."""
    with engine.connect() as conn:
        conn.execution_options(**{backends.MEMORY_ONLY: True})
        return search(conn, terms, **page)


def test_a_search_of_kept_words_is_answered_from_memory_alone_as_it_is_otherwise(engine, monkeypatch):
    reads = _reads(monkeypatch)
    words = ["w3", "w7"]
    assert not backends.search_kept(engine, words)
    with pytest.raises(backends.SearchNotInMemory):
        _from_memory(engine, _search, words)
    with engine.connect() as conn:
        _search(conn, words)  # the first ask: the one from memory was not counted
        assert reads == []
        full = _search(conn, words)  # the second: read and kept
        assert reads == words
    assert backends.search_kept(engine, words) and backends.search_kept(engine, ["w7"])
    assert full[1] > 20
    assert _from_memory(engine, _search, words) == full
    with engine.connect() as conn:
        assert _from_memory(engine, _search, words, offset=20) == _search(conn, words, offset=20)
    assert reads == words  # nothing read again


def test_a_search_that_needs_the_index_says_so_and_reads_nothing(engine, monkeypatch):
    """Words not kept, Chinese, a phrase of parts, substrings, a word most rows hold (FTS5
    lists those), and kept words after a write to the index (their matches are stale):
    each raises SearchNotInMemory, before any word is read or the index's row sizes are."""
    with engine.connect() as conn:
        for _ in range(2):
            _search(conn, ["w3", "w7"])
            _search(conn, ["w0"])
    reads = _reads(monkeypatch)
    for terms in (["w3", "w59"], ["显存"], ["w3_w7"]):
        assert not backends.search_kept(engine, terms)
        with pytest.raises(backends.SearchNotInMemory):
            _from_memory(engine, _search, terms)
    with pytest.raises(backends.SearchNotInMemory):
        _from_memory(
            engine,
            lambda conn, terms, **page: backends.search_substrings(conn, terms, limit=20, offset=0),
            ["w12"],
        )
    monkeypatch.setattr(backends.sqlite, "LISTED_FROM", 10)
    assert backends.search_kept(engine, ["w0"])
    with pytest.raises(backends.SearchNotInMemory):
        _from_memory(engine, _search, ["w0"])
    kept = fts5_terms.word_matches(engine)._words
    _write(engine, range(601, 603), seed=5)
    assert backends.search_kept(engine, ["w3", "w7"])  # a guess: the index is not read
    with pytest.raises(backends.SearchNotInMemory):
        _from_memory(engine, _search, ["w3", "w7"])
    assert reads == [] and fts5_terms.word_matches(engine)._words is kept


@pytest.mark.parametrize(
    ("gap", "count"),
    [(1, 255), (65_535, 1), (65_536, 7), (3, 256), (2, 65_536), (5, 2.5)],
)
def test_a_words_matches_are_kept_in_fewer_bytes_and_given_back_exactly(gap, count):
    """Rowids as uint16 gaps where every gap fits, int32 otherwise; weighed counts as the
    smallest unsigned integers that hold them, float64 otherwise: the same rowids and counts."""
    rng = np.random.default_rng(gap)
    rowids = np.cumsum(rng.integers(1, gap + 1, 500)).astype(np.int32) + 70_000
    rowids[-1] = rowids[-2] + gap
    counts = rng.integers(1, 4, 500).astype(np.float64)
    counts[7] = count
    held = fts5_terms.Held.of(rowids, counts)
    assert held.rowids().dtype == np.int32 and np.array_equal(held.rowids(), rowids)
    assert np.array_equal(held.counts, counts) and len(held) == 500
    rows_bytes = 2 if gap <= 65_535 else 4
    count_bytes = 8 if count != int(count) else 1 if count <= 255 else 2 if count <= 65_535 else 8
    assert held.nbytes == 500 * (rows_bytes + count_bytes)


def test_the_rowids_of_the_words_used_lately_are_kept_within_their_budget(engine, monkeypatch):
    with engine.connect() as conn:
        for terms in (["w3"], ["w7"], ["w3", "w7"]):
            _asked(conn, terms)
        kept = fts5_terms.word_matches(conn)._words
        assert list(kept.rowids) == ["w3", "w7"]
        for word in ("w3", "w7"):
            assert np.array_equal(kept.rowids[word], kept.matches[word].rowids())
        monkeypatch.setattr(fts5_terms, "ROWIDS_BUDGET", 1)  # room for the last one alone
        _asked(conn, ["w5"])
        assert _search(conn, ["w3", "w5"]) == _by_fts5(conn, ["w3", "w5"], monkeypatch, limit=20, offset=0)
        assert list(kept.rowids) == ["w5"] and kept.rowids_bytes == kept.rowids["w5"].nbytes


def test_a_word_pushed_out_of_the_budget_takes_its_made_rowids_with_it(engine, monkeypatch):
    with engine.connect() as conn:
        _asked(conn, ["w3"])
        _search(conn, ["w3"])
        kept = fts5_terms.word_matches(conn)._words
        assert "w3" in kept.matches and "w3" in kept.rowids
        monkeypatch.setattr(fts5_terms, "BUDGET", kept.bytes)  # room for no other word
        for _ in range(3):  # asked more often than w3, which it pushes out
            _search(conn, ["w7"])
        assert list(kept.matches) == ["w7"] and list(kept.rowids) == ["w7"]
        assert kept.rowids_bytes == kept.rowids["w7"].nbytes
