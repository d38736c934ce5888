"""Search and lookup as services: a session on a real SQLite file, no HTTP."""

import sys
import threading
from datetime import UTC, datetime

import pytest
import yaml
from sqlalchemy import update
from sqlmodel import select

from app import backends
from app.backends.text import CJK_RUN
from app.db import make_engine, read_session, write_session
from app.models import Entry, Pattern
from app.services.entries.catalog import Filters, list_entries
from app.services.lookup import index as lookup_index
from app.services.lookup import rank
from app.services.lookup.index import _REMEMBERED, PATTERN, SIGNATURE, TITLE, LookupIndex, field_weights
from app.services.lookup.rank import lookup, remembered
from app.services.merging.merge import merge
from app.services.search.index import reindex_all
from app.services.search.query import search_entries
from tests.conftest import DEMO_ENTRIES, SEED_ID, load

FROB, GADGET = "demo/full-bilingual", "demo/zh-missing"


@pytest.fixture
def session(shipped_settings):
    engine = make_engine(shipped_settings)
    with read_session(engine) as session:
        yield session
    engine.dispose()


def test_search_ranks_title_and_signature_above_body_mentions(session):
    hits, total = search_entries(session, "KV cache block")
    assert total >= 2 and hits[0].id == SEED_ID
    assert "<mark>" in hits[0].snippet


CUDA_OOM = "pytorch/cuda-out-of-memory"  # zh title: PyTorch CUDA 显存不足（out of memory）


@pytest.mark.parametrize("query", ["显存不足", "CUDA 显存不足", "显存不足 memory"])
def test_a_chinese_title_ranks_its_entry_first(session, query):
    """Pairs in a title weigh more than the same pairs in a long body, Chinese alone or with
    English words: the Chinese title's words, as a Chinese developer would type them."""
    hits, total = search_entries(session, query)
    assert total >= 3 and hits[0].id == CUDA_OOM


@pytest.mark.sqlite_only  # FTS5's plans
def test_english_and_chinese_together_walk_the_words_matches_once(session):
    """The pairs' condition tests each of the words' matches: looked up by rowid instead,
    each row was a full-text query of its own, which for bm25 walked every row holding the
    words again (at 100,000 entries "error 错误" took 255 ms, 6 ms walked once)."""
    driver = session.connection().connection.driver_connection
    ran: list[str] = []
    driver.set_trace_callback(ran.append)
    try:
        hits, total = search_entries(session, "error 错误")
    finally:
        driver.set_trace_callback(None)
    assert total > 0 and hits
    searches = [sql for sql in ran if "entry_fts_words MATCH" in sql and "entry_fts_cjk MATCH" in sql]
    assert searches
    for sql in searches:
        plan = [row[3] for row in driver.execute("EXPLAIN QUERY PLAN " + sql).fetchall()]
        words = [step for step in plan if "SCAN entry_fts_words" in step]
        assert words and not any("INDEX 0:=" in step for step in words), plan


def test_most_entries_come_first_for_the_chinese_words_of_their_title(session):
    """Over every entry with a Chinese title (some titles are of words many entries hold)."""
    entries, _ = list_entries(session, Filters(), limit=1000, offset=0)
    ranks = []
    for entry in entries:
        words = " ".join(CJK_RUN.findall(entry.title.zh or ""))
        if words:
            hits, _ = search_entries(session, words, limit=50)
            ranks.append([h.id for h in hits].index(entry.id) if entry.id in [h.id for h in hits] else None)
    assert len(ranks) > 100
    assert sum(rank == 0 for rank in ranks) >= 0.95 * len(ranks)
    assert sum(rank is not None and rank < 3 for rank in ranks) >= 0.98 * len(ranks)


def test_search_pages_do_not_overlap(session):
    first, total = search_entries(session, "error", limit=5)
    second, _ = search_entries(session, "error", limit=5, offset=5)
    assert total > 10 and not {h.id for h in first} & {h.id for h in second}


@pytest.mark.parametrize(
    "query", ["error", "KV cache block", "gpu_memory_utilization", "显存", "CUDA 显存", "error 错误"]
)
def test_every_page_of_a_search_counts_all_its_matches(session, query):
    """The count is the same on a full page, on the last one (short, which counts itself)
    and past the end."""
    everything, total = search_entries(session, query, limit=1000)
    assert total == len(everything) > 0
    for limit, offset in ((1, 0), (3, total - 1), (5, max(0, total - 2)), (5, total), (5, total + 10)):
        hits, counted = search_entries(session, query, limit=limit, offset=offset)
        assert counted == total
        assert [h.id for h in hits] == [h.id for h in everything[offset : offset + limit]]


def test_the_list_of_one_category_holds_every_entry_of_it_and_no_other(session):
    everything, total = list_entries(session, Filters(), limit=1000, offset=0)
    wanted = [e.id for e in everything if e.category == "vcs_error"]
    listed, count = list_entries(session, Filters(category="vcs_error"), limit=1000, offset=0)
    assert [e.id for e in listed] == wanted and count == len(wanted) > 1
    assert total == len(everything) > count


@pytest.mark.parametrize("query", ["error", "memory utilization", "utilizat", "显存", "CUDA 显存"])
def test_a_list_searched_with_no_filter_is_the_search_itself(session, query):
    """The whole base is searched without reading its entry numbers first: the same hits, in
    the same order, with the same count and marks, as the search."""
    hits, total = search_entries(session, query, limit=50)
    listed, count = list_entries(session, Filters(), limit=50, offset=0, q=query)
    assert count == total > 0
    assert [(e.id, e.snippet) for e in listed] == [(h.id, str(h.snippet)) for h in hits]


def test_search_falls_back_to_any_word_when_all_words_find_nothing(session):
    hits, total = search_entries(session, "frobnicate zzzqqq-nothing")
    assert total >= 1 and hits[0].id == "demo/full-bilingual"


def test_the_fallback_to_any_word_keeps_the_chinese_ones(session):
    hits, total = search_entries(session, "显存不足 zzzqqq")
    assert total >= 3 and hits[0].id == CUDA_OOM


def test_a_lost_full_text_index_is_rebuilt_with_every_canonical_entry(shipped_settings):
    engine = make_engine(shipped_settings)
    queries = ["KV cache block", "显存", "frobnicate", "error"]
    with read_session(engine) as session:
        before = {q: search_entries(session, q, limit=1000) for q in queries}
        canonical = list_entries(session, Filters(), limit=1, offset=0)[1]
    with write_session(engine) as writing:
        backends.clear_index(writing.connection())  # as after restoring a copy without it
    with read_session(engine) as session:
        assert search_entries(session, "KV cache block") == ([], 0)
    with write_session(engine) as writing:
        assert reindex_all(writing) == canonical
    with read_session(engine) as session:
        assert {q: search_entries(session, q, limit=1000) for q in queries} == before
    engine.dispose()


def test_lookup_index_builds_once_and_refreshes_only_on_change(session):
    index = LookupIndex()
    assert lookup(session, index, "FrobError: cannot frobnicate widget 7")[0].id == "demo/full-bilingual"
    size, watermark = len(index), index.watermark
    lookup(session, index, "anything")
    assert (len(index), index.watermark) == (size, watermark)


def test_words_only_in_a_traceback_frame_do_not_name_an_entry(session):
    # The frame says where the program broke, not what broke: another exception is the error.
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/srv/frob/run.py", line 3, in cannot_frobnicate_widget\n'
        "ZeroDivisionError: division by zero\n"
    )
    assert lookup(session, LookupIndex(), paste) == []


def test_a_quoted_name_in_the_paste_still_counts(session):
    found = lookup(session, LookupIndex(), "FrobError: cannot frobnicate 'widget' 7")
    assert found and found[0].id == "demo/full-bilingual"


def test_a_quoted_name_counts_for_less_than_the_same_word_written_plainly(session):
    # A quoted name is what varies between occurrences ('requests', "users"): it says less
    # of which error this is than a word of the message, and more than no word at all.
    index = LookupIndex()

    def score(word: str) -> float:
        [match] = lookup(session, index, f"FrobError: cannot frobnicate {word}")
        assert match.id == "demo/full-bilingual"
        return match.score

    assert score("widget") > score("'widget'") > score("")


def test_an_entrys_own_quoted_name_does_not_stand_in_for_a_word_of_its_message(session):
    # node/cannot-find-module is "Error: Cannot find module 'express'": a paste without the
    # name is that error for another module; one without "module" is less surely this error.
    index = LookupIndex()

    def score(paste: str) -> float:
        found = lookup(session, index, paste)
        assert all(m.id == "node/cannot-find-module" for m in found)
        return found[0].score if found else 0.0

    assert score("Error: Cannot find module") > score("Error: Cannot find 'express'")


@pytest.mark.parametrize(
    ("paste", "entry_id"),
    [
        ("RuntimeError: CUDA error: an illegal memory access was encountered", "cuda/illegal-memory-access"),
        (
            "standard_init_linux.go:228: exec user process caused: exec format error",
            "docker/exec-format-error",
        ),
    ],
)
def test_an_error_named_outright_is_not_padded_with_errors_that_share_a_few_words(session, paste, entry_id):
    # CUDA running out of memory, or a binary that is no executable at all, are other errors
    # with other fixes: listing them under a sure answer only misleads.
    assert [m.id for m in lookup(session, LookupIndex(), paste)] == [entry_id]


def test_lookup_with_versions_prefers_rows_that_cover_them(session):
    index = LookupIndex()
    text = "FrobError: cannot frobnicate widget 12"
    plain = lookup(session, index, text)[0].score
    affected = lookup(session, index, text, versions={"frob": "2.3"})[0].score
    fixed = lookup(session, index, text, versions={"frob": "3.1"})[0].score
    assert fixed < plain < affected


def test_hostile_patterns_and_pastes_stay_fast(settings, tmp_path):
    import time

    from tests.conftest import load

    source = tmp_path / "evil.yaml"
    source.write_text(
        "id: demo/evil\ndomain: demo\ncategory: runtime_error\ntitle: {en: aaaa aaaa}\n"
        "signature: 'aaaa aaaa aaaa'\npatterns: ['(a+)+$', '(x+x+)+y', '(a|aa)+b', '(.*a){20}']\n"
        "prior: {fix_rate: 0.5, confidence: 0.5}\n"
    )
    assert load(settings, source).created == 1
    engine = make_engine(settings)
    with read_session(engine) as session:
        index = LookupIndex()
        for paste in ("a" * 65_000 + "!", ("aaaa " * 200 + "\n") * 60, "x" * 65_000):
            start = time.perf_counter()
            lookup(session, index, paste[: 64 * 1024])
            assert time.perf_counter() - start < 2.0
    engine.dispose()


@pytest.mark.parametrize("paste", ["Permission denied", "Killed", "widget spline reticulation failed"])
def test_a_generic_word_or_two_names_no_particular_error(session, paste):
    assert lookup(session, LookupIndex(), paste) == []


@pytest.mark.parametrize(
    "paste", ["No such file or directory", "out of memory", "Segmentation fault (core dumped)"]
)
def test_a_phrase_many_errors_print_names_none_of_them(session, paste):
    # Whole phrasings of several entries hold these words; alone they single none out.
    assert lookup(session, LookupIndex(), paste) == []


def test_the_same_phrase_with_what_is_missing_finds_the_error(session):
    found = lookup(session, LookupIndex(), "/usr/bin/ld: cannot find -lfoo: No such file or directory")
    assert found[0].id == "build/ld-cannot-find-library"
    assert [m.id for m in lookup(session, LookupIndex(), "CUDA out of memory")][:1] == [
        "pytorch/cuda-out-of-memory"
    ]


def test_a_short_but_whole_message_still_finds_its_entry(session):
    assert lookup(session, LookupIndex(), "fatal: not a git repository")[0].id == "git/not-a-git-repository"
    assert lookup(session, LookupIndex(), "bash: ./run.sh: Permission denied")[0].id == (
        "linux/script-permission-denied"
    )


@pytest.fixture
def demo(settings):
    """The demo entries alone, in an engine of their own."""
    assert load(settings, DEMO_ENTRIES).failed == 0
    engine = make_engine(settings)
    yield engine
    engine.dispose()


def test_a_kept_index_answers_as_a_new_one_after_a_merge_and_an_edit(demo, settings, tmp_path):
    """Every process keeps its index and brings it up to date entry by entry: after a merge
    and an edit it must answer exactly (ids and scores) what an index built afresh answers."""
    spline = tmp_path / "spline.yaml"  # shares "frobnicate" with the demo entry's first wording
    spline.write_text(
        "id: demo/spline-frobnication\ndomain: demo\ncategory: runtime_error\n"
        "title: {en: Spline frobnication fails}\nsignature: 'SplineError: spline 9 cannot frobnicate twice'\n"
        "patterns: ['SplineError: spline \\d+ cannot frobnicate twice']\n"
        "prior: {fix_rate: 0.5, confidence: 0.5}\n"
    )
    assert load(settings, spline).created == 1
    old, new = "FrobError: cannot frobnicate widget 42", "FrobError: unable to process widget 42"
    pastes = [
        old,
        new,
        "GadgetConfigError: unexpected token at line 3",
        "SplineError: spline 9 cannot frobnicate twice",
    ]
    kept = LookupIndex()

    def answers(index: LookupIndex) -> list[list[tuple[str, float]]]:
        with read_session(demo) as session:
            return [[(m.id, m.score) for m in lookup(session, index, paste)] for paste in pastes]

    before = answers(kept)
    assert [[i for i, _ in found] for found in before] == [[FROB], [], [GADGET], ["demo/spline-frobnication"]]

    with write_session(demo) as session:
        merge(session, GADGET, FROB, now=datetime(2026, 12, 1, tzinfo=UTC))
    merged = answers(kept)
    assert merged == answers(LookupIndex())
    assert merged[2][0][0] == FROB  # the merged entry's error leads to its canonical

    doc = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    doc["signature"] = doc["verification"][0]["text"] = new
    doc["patterns"][0] = "FrobError: unable to process widget \\d+"
    edited = tmp_path / "full-bilingual.yaml"
    edited.write_text(yaml.safe_dump(doc, allow_unicode=True))
    assert load(settings, edited).updated == 1
    after = answers(kept)
    assert after == answers(LookupIndex())
    assert [[i for i, _ in found] for found in after][:2] == [[], [FROB]]  # the old wording is gone


def test_a_title_changed_since_a_lookup_shows_in_the_next(demo, settings, tmp_path):
    """The titles of matched entries are kept with the index until it changes: an edited
    title shows in the next lookup, whatever the paste."""
    kept = LookupIndex()
    with read_session(demo) as session:
        [before] = lookup(session, kept, "FrobError: cannot frobnicate widget 42")
    doc = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    doc["title"]["en"] = "Frobnication fails on every widget"
    (tmp_path / "full-bilingual.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True))
    assert load(settings, tmp_path / "full-bilingual.yaml").updated == 1
    with read_session(demo) as session:
        [after] = lookup(session, kept, "FrobError: cannot frobnicate widget 43")
    assert before.id == after.id == FROB
    assert after.title.en == "Frobnication fails on every widget" != before.title.en
    assert after.title.zh == before.title.zh


def test_what_the_index_memoises_is_counted_again_after_a_refresh(demo, settings, tmp_path):
    """Word idfs and how many entries hold a phrase are kept between lookups until the index
    changes. Here forty new errors print the same three words as the
    demo entry: a kept index must then weigh them as an index built afresh does (they no
    longer single the demo entry out), not as it counted them before."""
    paste = "FrobError: cannot frobnicate widget 42"
    phrase = frozenset({"cannot", "frobnicate", "widget"})
    kept = LookupIndex()

    def answers(index: LookupIndex) -> list[tuple[str, float]]:
        with read_session(demo) as session:
            return [(m.id, m.score) for m in lookup(session, index, paste)]

    before = answers(kept)
    assert [i for i, _ in before] == [FROB] and kept.holding_all(phrase) == 1
    before_idfs = kept.idfs()[[kept.postings.known(w) for w in phrase]]
    for n in range(40):
        (tmp_path / f"crowd-{n}.yaml").write_text(
            f"id: demo/crowd-{n}\ndomain: demo\ncategory: runtime_error\n"
            f"title: {{en: Crowd error {n}}}\nsignature: 'Crowd{n}Error: cannot frobnicate widget'\n"
            "prior: {fix_rate: 0.5, confidence: 0.5}\n"
        )
    assert load(settings, tmp_path).created == 40
    after = answers(kept)
    assert after == answers(LookupIndex())
    assert after != before and kept.holding_all(phrase) == 41
    fresh = LookupIndex()
    assert answers(fresh) == after
    for word in ("froberror", "cannot", "frobnicate", "widget"):
        assert kept.idf(word) == fresh.idf(word) > 0
    assert (kept.idfs()[[kept.postings.known(w) for w in phrase]] < before_idfs).all()


def test_a_stored_pattern_the_engine_refuses_never_matches(shipped_settings):
    """Patterns are checked on import, but a database written by an older release may hold
    one the engine now refuses: lookup still answers, by the entry's words alone."""
    paste = "FrobError: cannot frobnicate widget 42"
    engine = make_engine(shipped_settings)
    with read_session(engine) as session:
        matched = lookup(session, LookupIndex(), paste)
    with write_session(engine) as session:
        session.execute(update(Pattern).where(Pattern.entry_id == FROB).values(regex="FrobError: (cannot"))
    with read_session(engine) as session:
        unmatched = lookup(session, LookupIndex(), paste)
    engine.dispose()
    assert [m.id for m in unmatched] == [m.id for m in matched] == [FROB]
    assert unmatched[0].score < matched[0].score  # no pattern confirmed it


def test_lookup_remembers_the_latest_pastes_and_forgets_the_oldest(demo):
    """A paste ranked before is answered from memory (the lookup API's fast path), for as
    many of the latest pastes as it keeps: memory stays bounded however many pastes come."""
    index = LookupIndex()
    first, last = "FrobError: cannot frobnicate widget 42", "GadgetConfigError: unexpected token at line 3"
    with read_session(demo) as session:
        lookup(session, index, first)
        for n in range(_REMEMBERED - 1):
            lookup(session, index, f"unknown failure {n}")
        answer = lookup(session, index, last)
    assert remembered(index, first) is None
    assert remembered(index, last) == answer and answer[0].id == GADGET
    assert remembered(index, "unknown failure 0") == []


def test_a_match_is_listed_only_when_at_least_half_as_good_as_the_best(session):
    """Past a conclusive match, an entry that merely shares a few of its words is padding;
    a near relative (the same push refused for another reason) still comes along."""
    index = LookupIndex()
    found = lookup(session, index, "RuntimeError: CUDA error: an illegal memory access was encountered")
    assert [m.id for m in found] == ["cuda/illegal-memory-access"]
    refused = "hint: Updates were rejected because the tag already exists in the remote."
    found = lookup(session, index, refused)
    assert [m.id for m in found] == [
        "git/push-rejected-tag-already-exists",
        "git/push-rejected-non-fast-forward",
    ]
    assert found[1].score >= found[0].score / 2


def test_an_index_read_in_many_chunks_answers_as_one_read_at_once(shipped_settings, monkeypatch):
    """A large base is indexed a chunk of entries at a time (2,000): with chunks of three, this
    base spans eighty, and every entry of each, with its aliases' wordings, must be
    found as when the base fits in one."""
    engine = make_engine(shipped_settings)
    with write_session(engine) as session:
        merge(session, GADGET, FROB, now=datetime(2026, 12, 1, tzinfo=UTC))
    with read_session(engine) as session:
        pastes = list(session.exec(select(Entry.signature).order_by(Entry.id)))

        def answers(index: LookupIndex) -> list[list[tuple[str, float]]]:
            return [[(m.id, m.score) for m in lookup(session, index, paste)] for paste in pastes]

        whole = LookupIndex()
        expected = answers(whole)
        monkeypatch.setattr(lookup_index, "_CHUNK", 3)
        chunked = LookupIndex()
        assert answers(chunked) == expected
    engine.dispose()
    assert len(chunked) == len(whole) > 240
    assert expected[pastes.index("GadgetConfigError: unexpected token at line 3")][0][0] == FROB


def test_lookup_reads_a_paste_up_to_64_kib_and_no_further(demo):
    """64 KiB is the most the lookup API takes; the service reads that much of any caller's
    text (a reproduction's output may hold a megabyte), all of it, and nothing past it."""
    error = "FrobError: cannot frobnicate widget 42"
    log = ("INFO worker step done\n" * 3000)[: 64 * 1024 - len(error)] + error
    index = LookupIndex()
    with read_session(demo) as session:
        whole = lookup(session, index, log)
        longer = lookup(session, index, log + "\nGadgetConfigError: unexpected token at line 3")
    assert len(log) == 64 * 1024 and [m.id for m in whole] == [FROB]
    assert longer == whole


def test_a_refresh_waits_for_a_ranking_that_is_reading_the_index(demo):
    """Every write to an entry makes each process re-index it at its next lookup, while other
    threads of the process may be ranking pastes against the same index. Here a ranking is
    held still while it measures its candidates, after gathering them from the postings,
    while another thread's refresh re-indexes every entry: the refresh must wait for it, or
    the ranking goes on with candidates and idfs of an index that changed under it."""
    paste = "FrobError: cannot frobnicate widget 42"
    kept = LookupIndex()
    with read_session(demo) as session:
        expected = lookup(session, kept, paste)
    assert expected
    kept._results.clear()  # rank and weigh again, not answer from memory
    kept._evidence.clear()
    held, go_on = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def hold_in_the_postings(frame, event, _):
        # Held once the ranking has read its candidates' words, before it reads their idfs.
        measuring = event == "line" and frame.f_code is rank._measure.__code__ and "words" in frame.f_locals
        if measuring and not held.is_set():
            held.set()
            go_on.wait(timeout=5)
        return hold_in_the_postings

    def rank_held() -> None:
        sys.settrace(hold_in_the_postings)
        try:
            with read_session(demo) as session:
                assert lookup(session, kept, paste) == expected
        except BaseException as error:  # noqa: BLE001 - any failure is the finding
            failures.append(error)
        finally:
            sys.settrace(None)

    def change_every_entry() -> None:
        with write_session(demo) as session:
            session.execute(update(Entry).values(changed=Entry.changed + 1_000_000))
        with read_session(demo) as session:
            kept.refresh(session)

    ranking = threading.Thread(target=rank_held)
    ranking.start()
    assert held.wait(timeout=30), "the ranking never measured a candidate"
    refreshing = threading.Thread(target=change_every_entry)
    refreshing.start()
    refreshing.join(timeout=1)
    waited = refreshing.is_alive()
    go_on.set()
    ranking.join()
    refreshing.join()
    assert failures == []
    assert waited
    with read_session(demo) as session:
        assert lookup(session, kept, paste) == expected == lookup(session, LookupIndex(), paste)


def test_patterns_see_the_last_16_kib_of_the_pastes_lines_and_no_more(session):
    """Running patterns is bounded: they see the paste's lines joined, their last 16 KiB.
    Here the error's own line starts exactly 16 KiB from the end, then one character earlier:
    its pattern confirms it (a higher score) only the first time."""
    error = "FrobError: cannot frobnicate widget 42"

    def paste(tail: int) -> str:  # `tail`: characters from the error's first to the end
        lines, length = [error], len(error)
        while length + 100 < tail:
            lines.append("qqqq " * 19 + "qqqq")  # 99 characters that name nothing
            length += 100
        lines.append("q" * (tail - length - 1))
        text = "\n".join(lines)
        assert len(text) - text.index(error) == tail
        return text

    seen = lookup(session, LookupIndex(), paste(16 * 1024))
    cut = lookup(session, LookupIndex(), paste(16 * 1024 + 1))
    assert seen[0].id == cut[0].id == FROB
    assert seen[0].score == pytest.approx(cut[0].score + 0.15 / 1.1, abs=1e-3)  # a pattern match adds 0.15


def test_an_entrys_word_weighs_as_much_as_the_strongest_wording_that_holds_it():
    """The signature's words count most, then a pattern's, then the title's alone."""
    phrasings = (
        (TITLE, ("frobnication", "widget")),
        (PATTERN, ("froberror", "process")),
        (SIGNATURE, ("froberror", "widget")),
    )
    assert field_weights(phrasings) == {
        "frobnication": TITLE,
        "widget": SIGNATURE,
        "froberror": SIGNATURE,
        "process": PATTERN,
    }
    assert SIGNATURE > PATTERN > TITLE > 0


def _index_of(holdings: dict[str, tuple[str, ...]]) -> LookupIndex:
    """An index of entries that each hold the given words (their signature)."""
    index = LookupIndex()
    for entry_id, words in holdings.items():
        index._put(entry_id, [(SIGNATURE, words)])
    index.apply()  # as a refresh does after its load
    return index


def test_words_most_entries_hold_gather_candidates_only_when_the_rarer_words_find_too_few():
    crowd = rank.POSTINGS_CAP + 100
    holdings = {f"net/e{n}": ("connection", "refused") for n in range(crowd)}
    holdings.update({f"net/z{n}": ("zebra",) for n in range(10)})
    index = _index_of(holdings)
    # Only crowded words: the rarest of them still gather (a paste of nothing else).
    assert len(rank._gather(index, {"connection": 1.0, "refused": 1.0})) == rank.CANDIDATES
    # A rare word that finds too few: the crowded words fill up, after the rare word's entries.
    found = rank._gather(index, {"connection": 1.0, "refused": 1.0, "zebra": 1.0})
    assert len(found) == rank.CANDIDATES and found[:10] == [f"net/z{n}" for n in range(10)]
    assert rank._gather(index, {"zebra": 1.0}) == [f"net/z{n}" for n in range(10)]


def test_the_same_error_pasted_again_is_weighed_once_and_its_patterns_run_on_each_paste(
    demo, settings, tmp_path, monkeypatch
):
    """Two pastes of one error differ in numbers, paths, times and words no entry holds: what
    their words say is weighed once (app.services.lookup.index, LookupIndex.evidence), and
    each answers what a new index answers; the entry's pattern, which needs exit code 137,
    matches the first paste only."""
    exited = tmp_path / "exited.yaml"
    exited.write_text(
        "id: demo/worker-exit-137\ndomain: demo\ncategory: runtime_error\n"
        "title: {en: The worker is killed for memory}\n"
        "signature: 'worker exited: exit code 137 (out of memory)'\n"
        "patterns: ['exit code 137']\n"
        "prior: {fix_rate: 0.5, confidence: 0.5}\n"
    )
    assert load(settings, exited).created == 1
    pastes = [
        "2026-01-02 10:00:00 worker exited: exit code 137 (out of memory) in /srv/a/run.py",
        "2026-03-04 11:22:33 worker exited: exit code 139 (out of memory) in /home/b/job.py qzxwv",
    ]
    with read_session(demo) as session:
        fresh = [lookup(session, LookupIndex(), paste) for paste in pastes]
        weighed = []
        weigh = rank._weighed
        monkeypatch.setattr(
            rank, "_weighed", lambda index, query: weighed.append(query) or weigh(index, query)
        )
        kept = LookupIndex()
        answers = [lookup(session, kept, paste) for paste in pastes]
    assert answers == fresh
    assert len(weighed) == 1
    first, second = (found[0] for found in answers)
    assert first.id == second.id == "demo/worker-exit-137"
    assert first.score > second.score  # the pattern's part
