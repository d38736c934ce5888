"""Full-text search over titles, signatures, root causes, workarounds and dead ends, both languages."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from markupsafe import Markup, escape
from sqlalchemy import Connection
from sqlmodel import Session

from app import backends
from app.schemas.common import Text
from app.services.search.summaries import SummaryReader, read_summaries

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


def marked_html(snippet: str) -> str:
    """Escape the stored text, then mark the matches: nothing from an entry becomes live HTML."""
    safe = str(escape(snippet))
    return safe.replace(backends.HIGHLIGHT_START, "<mark>").replace(backends.HIGHLIGHT_END, "</mark>")


def highlight(snippet: str) -> Markup:
    """marked_html, for templates (JSON items take the string: a Markup costs a third more)."""
    return Markup(marked_html(snippet))


def _matches(conn: Connection, query: str, *, limit: int, offset: int, within: list[int] | None):
    """Whole words first; then substrings (a fragment of an identifier); then any word. The
    page's rows (seq, score, snippet) and how many match; `within`: among those entries only."""
    words = terms(query)
    if not words:
        return [], 0
    page = {"limit": limit, "offset": offset, "within": within}
    rows, total = backends.search_words(conn, words, any_term=False, **page)
    if total:
        return rows, total
    rows, total = backends.search_substrings(conn, words, **page)
    if total or len(words) == 1:
        return rows, total
    return backends.search_words(conn, words, any_term=True, **page)


# How a page of matches is read: entry numbers -> what the caller lists of each entry.
PageReader = Callable[[Connection, list[int]], dict[int, T]]


def matching_entries(
    conn: Connection,
    query: str,
    *,
    limit: int = 20,
    offset: int = 0,
    read: PageReader[T],
    within: list[int] | None = None,
) -> tuple[list[tuple[T, str]], int]:
    """One page of matches, best first, as (what `read` gives of the entry, raw snippet), and
    how many match: only that page is read and given snippets. `within`: the entry numbers a
    filter leaves (None: every entry). On a bare connection: a search needs no ORM session,
    whose set-up and close cost more than the search itself."""
    rows, total = _matches(conn, query, limit=limit, offset=offset, within=within)
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
    summaries_found = [(kept.summary(), snippet) for kept, snippet in found]
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
