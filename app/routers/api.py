"""The JSON API under /api/v1."""

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.render.formats import entry_json, json_response
from app.schemas.views import EntryPage, EntryView
from app.services.entries.catalog import Filters, list_entries
from app.services.entries.read import get_entry
from app.services.search.query import ranked_snippets
from app.web.params import Offset

router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/errors", response_model=EntryPage)
def list_errors(
    request: Request,
    session: SessionDep,
    domain: Annotated[str | None, Query(max_length=100)] = None,
    category: Annotated[str | None, Query(max_length=100)] = None,
    q: Annotated[str | None, Query(max_length=500, description="Full-text query")] = None,
    component: Annotated[
        str | None, Query(max_length=100, description="With `version`: affected entries only")
    ] = None,
    version: Annotated[str | None, Query(max_length=100)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Offset = 0,
):
    filters = Filters(domain=domain, category=category, component=component, version=version)
    ranked = ranked_snippets(session, q) if q and q.strip() else None
    data, count = list_entries(session, filters, limit=limit, offset=offset, ranked=ranked)
    next_url = None
    if offset + limit < count:
        params = {k: v for k, v in request.query_params.items() if k != "offset"}
        next_url = f"{request.url.path}?{urlencode({**params, 'offset': offset + limit})}"
    return json_response(EntryPage(data=data, count=count, next=next_url).model_dump(mode="json"))


@router.get("/errors/{entry_id:path}", response_model=EntryView)
def get_error(entry_id: str, session: SessionDep):
    return json_response(entry_json(get_entry(session, entry_id)))
