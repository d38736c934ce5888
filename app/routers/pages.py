"""Home, domain and search pages (HTML), in both languages."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.services.entries.catalog import Filters, home_lists, list_entries
from app.services.entries.read import current_stamp
from app.services.errors import DomainNotFound
from app.services.search.query import search_entries
from app.services.search.summaries import summaries_at
from app.web.deps import LangDep
from app.web.entry_cache import serve_form
from app.web.templating import render_page

router = APIRouter()
PAGE_SIZE = 50


@router.get("/", include_in_schema=False)
def home_page(request: Request, session: SessionDep, lang: LangDep):
    """Kept as lists are, until any entry changes: made again, its lists (domains with their
    counts, recent, most reported) cost about 15 ms of CPU at 100,000 entries."""
    stamp = current_stamp(session.connection(), ())  # before the data it vouches for
    response = render_page(request, "home.html", lang, **home_lists(session))
    return serve_form(request, response, (), stamp, request.app.state.list_forms)


@router.api_route("/domains/{domain}", methods=["GET", "HEAD"], include_in_schema=False)
def domain_page(
    domain: str,
    request: Request,
    session: SessionDep,
    lang: LangDep,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
):
    stamp = current_stamp(session.connection(), ())  # before the data it vouches for
    entries, count = list_entries(
        session, Filters(domain=domain), limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
    )
    if count == 0:
        raise DomainNotFound(domain)
    response = render_page(
        request,
        "domain.html",
        lang,
        domain=domain,
        entries=entries,
        count=count,
        page=page,
        pages=(count + PAGE_SIZE - 1) // PAGE_SIZE,
    )
    return serve_form(request, response, (), stamp, request.app.state.list_forms)


@router.api_route("/search", methods=["GET", "HEAD"], include_in_schema=False)
def search_page(
    request: Request,
    session: SessionDep,
    lang: LangDep,
    q: Annotated[str, Query(max_length=500)] = "",
    page: Annotated[int, Query(ge=1, le=1000)] = 1,
):
    stamp = current_stamp(session.connection(), ())  # before the data it vouches for
    summaries = summaries_at(request.app.state.kept_summaries, stamp)
    hits, count = search_entries(
        session, q, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE, summaries=summaries
    )
    response = render_page(
        request,
        "search.html",
        lang,
        q=q,
        hits=hits,
        count=count,
        page=page,
        pages=(count + PAGE_SIZE - 1) // PAGE_SIZE,
    )
    return serve_form(request, response, (), stamp, request.app.state.list_forms)
