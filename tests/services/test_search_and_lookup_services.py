"""Search and lookup as services: a session on a real SQLite file, no HTTP."""

import pytest

from app.db import make_engine, read_session
from app.services.entries.catalog import Filters, list_entries
from app.services.lookup.index import LookupIndex
from app.services.lookup.rank import lookup
from app.services.search.query import search_entries
from tests.conftest import SEED_ID


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


def test_search_pages_do_not_overlap(session):
    first, total = search_entries(session, "error", limit=5)
    second, _ = search_entries(session, "error", limit=5, offset=5)
    assert total > 10 and not {h.id for h in first} & {h.id for h in second}


@pytest.mark.parametrize("query", ["error", "KV cache block", "gpu_memory_utilization", "显存"])
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


def test_search_falls_back_to_any_word_when_all_words_find_nothing(session):
    hits, total = search_entries(session, "frobnicate zzzqqq-nothing")
    assert total >= 1 and hits[0].id == "demo/full-bilingual"


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
