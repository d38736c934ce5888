"""Full-text search over titles, signatures, root causes, workarounds and dead ends, both languages."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from markupsafe import Markup, escape
from sqlalchemy import Connection
from sqlmodel import Session

from app import backends
from app.backends.text import substring_terms
from app.schemas.common import Text
from app.services.search.summaries import SummaryReader, read_ids, read_summaries

MAX_TERMS = 16
T = TypeVar("T")
_EDGE_PUNCTUATION = "\"'`()[]{}<>,;:!?*^~+-=|&"


@dataclass(frozen=True)
class SearchHit:
    id: str
    domain: str
    category: str
    title: Text
    signature: str
    snippet: Markup
    fix_rate: float
    evidence_count: int
    url: str


def terms(query: str) -> list[str]:
    """User words, stripped of operator characters at their edges; never raises."""
    words = (w.strip(_EDGE_PUNCTUATION) for w in re.split(r"\s+", query or ""))
    seen: dict[str, None] = {}
    for word in words:
        if word:
            seen.setdefault(word.lower(), None)
    return list(seen)[:MAX_TERMS]


def highlight(snippet: str) -> Markup:
    """Escape the stored text, then mark the matches: nothing from an entry becomes live HTML."""
    safe = str(escape(snippet))
    return Markup(safe.replace(backends.HIGHLIGHT_START, "<mark>").replace(backends.HIGHLIGHT_END, "</mark>"))


@dataclass(frozen=True)
class Marking:
    """How a search's matches are marked: the terms it matched them by, as whole words or
    substrings."""

    terms: list[str]
    whole_words: bool


def _matches(conn: Connection, query: str, *, limit: int, offset: int, marked: bool = True):
    """Whole words first; then substrings (a fragment of an identifier); then any word. The
    rows (seq, score, snippet or None when not `marked`), how many match, and how to mark them."""
    words = terms(query)
    if not words:
        return [], 0, Marking(words, True)
    page = {"limit": limit, "offset": offset, "marked": marked}
    rows, total = backends.search_words(conn, words, any_term=False, **page)
    if total:
        return rows, total, Marking(words, True)
    rows, total = backends.search_substrings(conn, words, **page)
    if total or len(words) == 1:
        return rows, total, Marking(substring_terms(words), False)
    rows, total = backends.search_words(conn, words, any_term=True, **page)
    return rows, total, Marking(words, True)


# How a page of matches is read: entry numbers -> what the caller lists of each entry.
PageReader = Callable[[Connection, list[int]], dict[int, T]]


def matching_entries(
    conn: Connection, query: str, *, limit: int = 20, offset: int = 0, read: PageReader[T]
) -> tuple[list[tuple[T, str]], int]:
    """One page of matches, best first, as (what `read` gives of the entry, raw snippet), and
    how many match: only that page is read and given snippets. On a bare connection: a search
    needs no ORM session, whose set-up and close cost more than the search itself."""
    rows, total, _ = _matches(conn, query, limit=limit, offset=offset)
    if not rows:
        return [], total
    entries = read(conn, [r[0] for r in rows])
    return [(e, snippet) for seq, _, snippet in rows if (e := entries.get(seq)) is not None], total


def search_entries(
    session: Session,
    query: str,
    *,
    limit: int = 20,
    offset: int = 0,
    summaries: SummaryReader = read_summaries,
) -> tuple[list[SearchHit], int]:
    """A page of hits; `summaries`: kept ones (app.services.search.summaries), or read afresh."""
    found, total = matching_entries(session.connection(), query, limit=limit, offset=offset, read=summaries)
    summaries_found = [(kept.summary, snippet) for kept, snippet in found]
    hits = [
        SearchHit(
            id=e.id,
            domain=e.domain,
            category=e.category,
            title=e.title,
            signature=e.signature,
            snippet=highlight(snippet),
            fix_rate=e.fix_rate,
            evidence_count=e.evidence_count,
            url=e.url,
        )
        for e, snippet in summaries_found
    ]
    return hits, total


@dataclass(frozen=True)
class Ranked:
    """A search's matches best first, as entry id -> seq, marked only when a page of them is
    chosen: marking a thousand matches to show twenty took most of a search with filters."""

    seqs: dict[str, int]
    marking: Marking

    def snippets(self, conn: Connection, ids: list[str]) -> dict[str, str]:
        """Entry id -> highlighted snippet, for `ids` among the matches."""
        marking = self.marking
        marked = backends.mark(
            conn, [self.seqs[i] for i in ids], marking.terms, whole_words=marking.whole_words
        )
        return {i: str(highlight(marked[self.seqs[i]])) for i in ids if self.seqs[i] in marked}


def ranked_matches(session: Session, query: str, limit: int = 1000) -> Ranked:
    """The best `limit` matches, unmarked: the ids only are read, as a filter intersects
    them with its own list."""
    conn = session.connection()
    rows, _, marking = _matches(conn, query, limit=limit, offset=0, marked=False)
    ids = read_ids(conn, [r[0] for r in rows]) if rows else {}
    return Ranked({ids[seq]: seq for seq, _, _ in rows if seq in ids}, marking)
