"""A query of words that most of a large base holds is listed, not scored (SQLite's bm25 gives
such words no weight, and scoring every match was the cost of the slowest searches): entries
holding them in the title first, then in the title and signature, then anywhere, each tier in
index order. Through the backend on a real migrated SQLite file."""

import pytest

from app import backends
from app.backends.sqlite import LISTED_FROM
from app.db import make_engine, write_session
from tests.conftest import make_settings

pytestmark = pytest.mark.sqlite_only

HOLDERS = LISTED_FROM + 500  # entries holding "common"
OTHERS = 1000  # entries without it: "common" is in more than half of the base (2,500)
RARE = range(1, 2400, 2)  # "rare" in 1,200: more than LISTED_FROM, fewer than half: ranked as before


def _where(rowid: int) -> str:
    """Where row `rowid` holds "common": spread so that no tier is a run of rowids."""
    return "title" if rowid % 7 == 0 else "signature" if rowid % 5 == 0 else "body"


@pytest.fixture(scope="module")
def conn(databases):
    engine = make_engine(make_settings(databases.empty()))
    with write_session(engine) as session:
        for rowid in range(1, HOLDERS + OTHERS + 1):
            fields = {"title": f"entry {rowid}", "signature": "failed", "body": "text of it"}
            if rowid <= HOLDERS:
                fields[_where(rowid)] += " common"
            if rowid in RARE:
                fields["title" if rowid > 1000 else "body"] += " rare"
            backends.write_index_row(session.connection(), rowid, **fields)
    with engine.connect() as connection:
        yield connection
    engine.dispose()


def _pages(conn, terms: list[str], limit: int) -> tuple[list[int], set[int]]:
    seen, counts = [], set()
    for offset in range(0, HOLDERS + limit, limit):
        rows, total = backends.search_words(conn, terms, any_term=False, limit=limit, offset=offset)
        seen += [r[0] for r in rows]
        counts.add(total)
    return seen, counts


def _in_tiers(*tiers: tuple[str, ...]) -> list[int]:
    return [r for tier in tiers for r in range(1, HOLDERS + 1) if _where(r) in tier]


def test_a_word_most_entries_hold_lists_title_then_signature_then_body_matches_in_index_order(conn):
    expected = _in_tiers(("title",), ("signature",), ("body",))
    for limit in (20, 7):  # pages that end inside a tier, and pages that start past one
        seen, counts = _pages(conn, ["common"], limit)
        assert seen == expected
        assert counts == {HOLDERS}


def test_a_page_deep_in_a_later_tier_skips_the_tiers_before_it(conn):
    expected = _in_tiers(("title",), ("signature",), ("body",))
    offset = len(expected) - 10
    rows, total = backends.search_words(conn, ["common"], any_term=False, limit=20, offset=offset)
    assert [r[0] for r in rows] == expected[offset:] and total == HOLDERS


def test_a_word_fewer_than_half_hold_is_still_ranked_by_bm25(conn):
    rows, total = backends.search_words(conn, ["rare"], any_term=False, limit=20, offset=0)
    assert total == len(RARE) > LISTED_FROM
    # The title matches (rowids above 1000) come first, though body matches have lower rowids.
    assert all(r[0] > 1000 for r in rows)
    assert [r[1] for r in rows] == sorted(r[1] for r in rows) and rows[0][1] < 0


def test_words_that_most_entries_hold_together_are_listed_by_where_all_of_them_stand(conn):
    """ "failed" is in every signature: no title holds both words, a title or signature holds
    both where "common" is in either."""
    seen, counts = _pages(conn, ["common", "failed"], 20)
    assert seen == _in_tiers(("title", "signature"), ("body",))
    assert counts == {HOLDERS}
