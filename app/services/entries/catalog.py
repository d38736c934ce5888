"""Lists of entries: filtered and paginated for the API, and the home page's selections."""

from dataclasses import dataclass

import orjson
from sqlalchemy import Connection, func
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from app.models import Entry, VersionRow
from app.schemas.views import DomainCount, EntrySummary
from app.services.entries.aliases import CANONICAL
from app.services.entries.read import summary, summary_of
from app.services.entries.versions import covers
from app.services.search.query import marked_html, matching_entries
from app.services.search.summaries import SummaryReader, summary_rows


@dataclass(frozen=True)
class Filters:
    domain: str | None = None
    category: str | None = None
    component: str | None = None
    version: str | None = None


def _affected(session: Session, component: str, version: str | None):
    """The ids of the entries whose compatibility rows say `component` (any case), at
    `version` when given, is affected, and of the entries aliases with such rows are merged
    into (an alias's rows speak for its canonical entry): a subquery, never a list of ids.
    Which version rows cover `version` is decided once for each distinct one of them."""
    named = [func.lower(VersionRow.component) == component.lower(), VersionRow.status == "active"]
    if version is not None:
        versions = session.exec(select(VersionRow.version).where(*named).distinct()).all()
        named.append(col(VersionRow.version).in_([v for v in versions if covers(v, version)]))
    alias = aliased(Entry)
    # From the few aliases to their rows: from the rows, each entry's row was read to find
    # whether it is an alias (47 ms against 34 for a component's 6,000 entries).
    held = select(VersionRow.id).where(VersionRow.entry_id == alias.id, *named).exists()
    merged = select(alias.canonical_id).where(col(alias.canonical_id).is_not(None), held)
    return col(Entry.id).in_(select(VersionRow.entry_id).where(*named)) | col(Entry.id).in_(merged)


def _filtered(session: Session, filters: Filters):
    query = select(Entry).where(CANONICAL)
    if filters.domain:
        query = query.where(Entry.domain == filters.domain)
    if filters.category:
        query = query.where(Entry.category == filters.category)
    if filters.component:
        query = query.where(_affected(session, filters.component, filters.version))
    return query


def list_entries(
    session: Session,
    filters: Filters,
    *,
    limit: int,
    offset: int,
    q: str | None = None,
) -> tuple[list[EntrySummary], int]:
    """A page of entries, and how many match in all; with `q`, the filter's entries that match
    the search, best first, the page's marked."""
    query = _filtered(session, filters)
    if q is not None:
        # The search runs among the filter's entries, their numbers read first (none to read
        # for the whole base), so every match of the filter is ranked and counted.
        every = filters == Filters()
        within = None if every else list(session.exec(select(Entry.seq).where(query.whereclause)))
        if within == []:
            return [], 0
        page = {"limit": limit, "offset": offset, "read": summary_rows, "within": within}
        found, total = matching_entries(session.connection(), q, **page)
        return [summary_of(values, marked_html(snippet)) for values, snippet in found], total
    if not filters.component:  # a list index gives the page in order
        total = session.exec(select(func.count()).select_from(query.subquery())).one()
        rows = session.exec(query.order_by(Entry.domain, Entry.id).offset(offset).limit(limit)).all()
        return [summary(e) for e in rows], total
    # A component's entries come from a subquery, in no index's order: the keys of them all
    # are read once (their number is the count) and ordered, and only the page's rows are
    # read. Counting, then sorting whole rows, took 100 ms for a component's 6,000 entries
    # at 100,000 entries.
    keys = select(Entry.domain, Entry.id).where(query.whereclause).order_by(Entry.domain, Entry.id)
    ids = [entry_id for _, entry_id in session.exec(keys)]
    page = ids[offset : offset + limit]
    rows = {e.id: e for e in session.exec(select(Entry).where(col(Entry.id).in_(page)))}
    return [summary(rows[i]) for i in page], len(ids)


def searched_entries(
    conn: Connection, query: str, *, limit: int, offset: int, summaries: SummaryReader
) -> tuple[list[orjson.Fragment], int]:
    """A page of search results with no other filter, as JSON list items already encoded:
    ranked and loaded a page at a time. `summaries` may give kept ones: each item is the
    kept JSON with this search's snippet."""
    found, total = matching_entries(conn, query, limit=limit, offset=offset, read=summaries)
    return [kept.item(marked_html(snippet)) for kept, snippet in found], total


def domain_counts(session: Session) -> list[DomainCount]:
    rows = session.exec(
        select(Entry.domain, func.count()).where(CANONICAL).group_by(Entry.domain).order_by(Entry.domain)
    ).all()
    return [DomainCount(domain=d, count=n) for d, n in rows]


def first_in_domain(session: Session, domain: str, limit: int) -> list[tuple[str, str]]:
    """(id, English title) of a domain's first entries by id: what llms.txt names of each,
    read from the domain's index (a full list with its count took 1.3 ms a domain)."""
    rows = select(Entry.id, Entry.title_en).where(CANONICAL, Entry.domain == domain).order_by(Entry.id)
    return list(session.exec(rows.limit(limit)))


def recent_entries(session: Session, limit: int = 10) -> list[EntrySummary]:
    rows = session.exec(
        select(Entry).where(CANONICAL).order_by(col(Entry.updated_at).desc(), Entry.id).limit(limit)
    ).all()
    return [summary(e) for e in rows]


def most_reported(session: Session, limit: int = 10) -> list[EntrySummary]:
    rows = session.exec(
        select(Entry)
        .where(CANONICAL, Entry.evidence_count > 0)
        .order_by(col(Entry.evidence_count).desc(), Entry.id)
        .limit(limit)
    ).all()
    return [summary(e) for e in rows]


def home_lists(session: Session) -> dict:
    """What the home page shows beside its paste box, whether or not a paste came with it."""
    return {
        "domains": domain_counts(session),
        "recent": recent_entries(session),
        "most_reported": most_reported(session),
    }


def canonical_entries(session: Session):
    """Every canonical entry (merged-away aliases are not entries of their own), by id."""
    return select(Entry).where(CANONICAL).order_by(Entry.id)
