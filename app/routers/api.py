"""The JSON API under /api/v1."""

from typing import Annotated
from urllib.parse import quote, urlencode

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import Connection

from app.db import SessionDep
from app.render.formats import json_response, respond_entry
from app.schemas.common import MAX_DOMAIN
from app.schemas.views import EntryPage, EntryView
from app.services.entries.catalog import Filters, list_entries, searched_entries
from app.services.entries.read import Stamp, current_stamp, load_entry, locate
from app.services.search.summaries import summaries_at
from app.web.entry_cache import serve_form
from app.web.params import Offset

router = APIRouter(prefix="/api/v1", tags=["api"])


# Bounds the lean search path (app.web.fastpath) checks too: it declines what the route would refuse.
MAX_QUERY = 500
MAX_LIMIT = 200
DEFAULT_LIMIT = 50


def entry_page(
    request: Request, items: list[dict] | list[orjson.Fragment], count: int, *, limit: int, offset: int
) -> Response:
    """A page of a list as JSON (an EntryPage, of EntrySummary items as JSON, or encoded),
    with the URL of the next page (the query as asked, the offset moved on)."""
    next_url = None
    if offset + limit < count:
        params = {k: v for k, v in request.query_params.items() if k != "offset"}
        next_url = f"{request.url.path}?{urlencode({**params, 'offset': offset + limit})}"
    return json_response({"data": items, "count": count, "next": next_url})


def search_page(
    request: Request, conn: Connection, q: str, *, limit: int, offset: int, stamp: Stamp
) -> Response:
    """A page of search results with no other filter, as the route and the lean search path
    both answer it; `stamp` is the base's, read on `conn` before searching."""
    summaries = summaries_at(request.app.state.kept_summaries, stamp)
    data, count = searched_entries(conn, q, limit=limit, offset=offset, summaries=summaries)
    return entry_page(request, data, count, limit=limit, offset=offset)


@router.get("/errors", response_model=EntryPage)
def list_errors(
    request: Request,
    session: SessionDep,
    domain: Annotated[str | None, Query(max_length=MAX_DOMAIN)] = None,
    category: Annotated[str | None, Query(max_length=100)] = None,
    q: Annotated[str | None, Query(max_length=MAX_QUERY, description="Full-text query")] = None,
    component: Annotated[
        str | None, Query(max_length=100, description="With `version`: affected entries only")
    ] = None,
    version: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = DEFAULT_LIMIT,
    offset: Offset = 0,
):
    conn = session.connection()
    stamp = current_stamp(conn, ())  # before the data it vouches for
    filters = Filters(domain=domain, category=category, component=component, version=version)
    searching = bool(q and q.strip())
    if searching and filters == Filters():
        page = search_page(request, conn, q, limit=limit, offset=offset, stamp=stamp)
    else:
        words = q if searching else None
        data, count = list_entries(session, filters, limit=limit, offset=offset, q=words)
        items = [e.model_dump(mode="json") for e in data]
        page = entry_page(request, items, count, limit=limit, offset=offset)
    return serve_form(request, page, (), stamp, request.app.state.list_forms)


@router.get(
    "/errors/{entry_id:path}",
    response_model=EntryView,
    responses={301: {"description": "Merged"}, 404: {"description": "No such entry"}},
)
def get_error(entry_id: str, request: Request, session: SessionDep):
    found = locate(session, entry_id)
    if found.id != entry_id:
        return RedirectResponse(f"{router.prefix}/errors/{quote(found.id)}", status_code=301)
    return respond_entry(request, load_entry(session, entry_id, row=found.row), "json", "en")
