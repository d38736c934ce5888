"""A search among a filter's entries (a domain, a category, a component's): every match of the
filter is ranked, paged and counted, however many better matches the rest of the base holds.
Through each backend's own search, on a real migrated database of the backend under test."""

import pytest

from app import backends
from app.db import make_engine, write_session
from tests.conftest import make_settings

STRONG = range(1, 1101)  # "needle" in the title: better matches than any of WEAK
WEAK = range(1101, 1201)  # "needle" in the body only, with Chinese words
OUTSIDE = range(3, 11)  # strong matches outside the filter that hold a Chinese word too
NONE = range(1201, 1211)  # without it
WITHIN = [1, 2, *WEAK, *NONE]  # a filter's entries: two strong matches, every weak one, none


@pytest.fixture(scope="module")
def conn(databases):
    engine = make_engine(make_settings(databases.empty()))
    with write_session(engine) as session:
        for seq in [*STRONG, *WEAK, *NONE]:
            fields = {"title": f"entry {seq}", "signature": "it failed", "body": "text of it"}
            if seq in STRONG:
                fields["title"] += " needle"
            if seq in WEAK:
                fields["body"] += " needle 显存不足"
            if seq in OUTSIDE:
                fields["body"] += " 显存"
            backends.write_index_row(session.connection(), seq, **fields)
        backends.optimize_index(session.connection())
    with engine.connect() as connection:
        yield connection
    engine.dispose()


def _every_page(search, limit: int) -> tuple[list[int], set[int]]:
    seen, counts, offset = [], set(), 0
    while True:
        rows, total = search(limit=limit, offset=offset)
        counts.add(total)
        if not rows:
            return seen, counts
        assert all(snippet for _, _, snippet in rows)  # each hit of a page is marked
        seen += [r[0] for r in rows]
        offset += limit


def test_the_matches_of_a_filter_ranked_below_a_thousand_others_are_all_listed_and_counted(conn):
    # Asked without a filter first: a word asked before may be ranked from what is kept of it.
    everywhere = backends.search_words(conn, ["needle"], any_term=False, limit=20, offset=0)
    assert everywhere[1] == len(STRONG) + len(WEAK)
    for limit in (20, 7):
        seen, counts = _every_page(
            lambda **page: backends.search_words(conn, ["needle"], any_term=False, within=WITHIN, **page),
            limit,
        )
        assert counts == {2 + len(WEAK)}
        assert seen[:2] == [1, 2]  # the title matches first
        assert sorted(seen[2:]) == list(WEAK) and len(set(seen)) == len(seen)


@pytest.mark.parametrize(
    ("search", "expected"),
    [
        # Chinese words match through their character pairs.
        (lambda conn, **page: backends.search_words(conn, ["显存不足"], any_term=False, **page), WEAK),
        # English and Chinese words together, scored by both indexes.
        (
            lambda conn, **page: backends.search_words(conn, ["needle", "显存"], any_term=False, **page),
            WEAK,
        ),
        # Any of them, English or Chinese: here the Chinese alone match...
        (
            lambda conn, **page: backends.search_words(conn, ["absent", "显存"], any_term=True, **page),
            WEAK,
        ),
        # ...and here each, some rows holding the English word alone.
        (
            lambda conn, **page: backends.search_words(conn, ["needle", "显存"], any_term=True, **page),
            [1, 2, *WEAK],
        ),
        # A fragment of a word, as a substring.
        (lambda conn, **page: backends.search_substrings(conn, ["eedl"], **page), [1, 2, *WEAK]),
        # Any of the words, when no entry holds all of them.
        (
            lambda conn, **page: backends.search_words(conn, ["needle", "absent"], any_term=True, **page),
            [1, 2, *WEAK],
        ),
    ],
    ids=[
        "chinese",
        "english and chinese",
        "chinese of english or chinese",
        "english or chinese",
        "substring",
        "any word",
    ],
)
def test_every_kind_of_search_keeps_to_the_filter(conn, search, expected):
    seen, counts = _every_page(lambda **page: search(conn, within=WITHIN, **page), 50)
    assert sorted(seen) == sorted(expected) and counts == {len(expected)}


def test_a_filter_that_holds_no_match_finds_nothing(conn):
    assert backends.search_words(conn, ["needle"], any_term=False, limit=20, offset=0, within=list(NONE)) == (
        [],
        0,
    )
