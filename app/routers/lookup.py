"""Paste an error, get the entry: POST /api/v1/lookup, and the paste box's results page.

The results page is a GET (`/lookup?q=PASTE`, or `/lookup?p=ID` for a paste too long for a
URL), so it can be shared, bookmarked and switched to the other language. The paste box
posts to `/lookup`, which answers with a redirect to that page.
"""

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import State

from app.db import SessionDep, write_session
from app.render.formats import json_response
from app.schemas.api import MAX_PASTE_BYTES, LookupIn, LookupOut
from app.services.entries.read import get_entry
from app.services.lookup import pastes
from app.services.lookup.rank import Match, lookup, remembered
from app.web.deps import LangDep
from app.web.entry_cache import FormKey, FormResponse, reply_key, serve_form
from app.web.on_loop import PASTE_BYTES, RANKING_WAIT_S
from app.web.templating import render_page

api_router = APIRouter(prefix="/api/v1", tags=["lookup"])
page_router = APIRouter()
PAGE_MATCHES = 5


def _check_size(text: str) -> None:
    if len(text.encode("utf-8")) > MAX_PASTE_BYTES:
        raise HTTPException(413, f"Pasted text is larger than {MAX_PASTE_BYTES} bytes")


def _matches(request: Request, session, text: str, limit: int, versions) -> list[Match]:
    _check_size(text)
    return lookup(session, request.app.state.lookup_index, text, limit=limit, versions=versions)


def _ranked(
    state: State,
    text: str,
    limit: int,
    versions: dict[str, str] | None,
    latest: int,
    *,
    wait: float | None = None,
) -> list[Match] | None:
    """Rank a paste whose size was checked already, on a connection of its own (no ORM
    session: ranking needs none, and making one costs a tenth of a ranking); `wait` as
    app.services.lookup.rank.lookup takes it."""
    with state.engine.connect() as conn:
        index = state.lookup_index
        return lookup(conn, index, text, limit=limit, versions=versions, latest=latest, wait=wait)


async def answer_paste(
    request: Request, key: FormKey, text: str, limit: int, versions: dict[str, str] | None
) -> FormResponse:
    """The answer to a lookup whose body is valid and whose paste fits, for the route and for
    app.web.fastpath, which takes a plain paste without the route's validation.

    A paste ranked before, against an index nothing has changed since, is answered on the
    event loop after one stamp query (a worker thread costs more than the answer); so is a
    short one against such an index (app.web.on_loop); anything else is ranked in a worker
    thread. The answer is kept, as a list is, against the stamp
    read before ranking, under `key` (the request's reply_key): the same body again is
    answered by the fast path until any entry changes."""
    state = request.app.state
    stamp = state.read_stamp(())
    matches = None
    if stamp[1] <= state.lookup_index.watermark:
        matches = remembered(state.lookup_index, text, limit=limit, versions=versions)
        if matches is None and state.reads_on_loop and len(text.encode("utf-8")) <= PASTE_BYTES:
            matches = _ranked(state, text, limit, versions, stamp[1], wait=RANKING_WAIT_S)
    if matches is None:
        matches = await run_in_threadpool(_ranked, state, text, limit, versions, stamp[1])
    found = [{"id": m.id, "title": m.title.model_dump(), "score": m.score, "url": m.url} for m in matches]
    response = json_response({"matches": found})
    return serve_form(request, response, (), stamp, state.list_forms, key=key)


@api_router.post(
    "/lookup",
    response_model=LookupOut,
    responses={413: {"description": "Text over 64 KiB"}, 422: {"description": "Invalid body"}},
)
async def lookup_error(body: LookupIn, request: Request):
    """Ranked entries for a pasted error, best first; an empty list when nothing fits."""
    _check_size(body.text)
    key = reply_key(request.scope, await request.body())
    return await answer_paste(request, key, body.text, body.limit, body.versions)


def _results_url(request: Request, text: str) -> str:
    base = request.url.path  # /lookup or /zh/lookup
    if pastes.fits_in_url(text):
        return f"{base}?q={quote(text, safe='')}"
    with write_session(request.app.state.engine) as session:
        key = pastes.keep(session, text)
    return f"{base}?p={key}"


@page_router.post("/lookup", include_in_schema=False)
def lookup_form(request: Request, text: Annotated[str, Form(max_length=MAX_PASTE_BYTES)]):
    """The paste box: on to the shareable results page."""
    return RedirectResponse(_results_url(request, text), status_code=303)


def pasted(
    session: SessionDep,
    q: Annotated[str, Query(max_length=MAX_PASTE_BYTES)] = "",
    p: Annotated[str, Query(max_length=32)] = "",
) -> str:
    """The paste a page is about: in the URL itself (`q`), or behind a permalink (`p`)."""
    return pastes.read(session, p) if p else q


Pasted = Annotated[str, Depends(pasted)]


@page_router.get("/lookup", include_in_schema=False)
def lookup_page(request: Request, session: SessionDep, lang: LangDep, text: Pasted):
    matches = _matches(request, session, text, PAGE_MATCHES, None) if text.strip() else []
    return render_page(
        request,
        "lookup.html",
        lang,
        pasted=text,
        results=[(m, get_entry(session, m.id)) for m in matches],
        first_line=next((line.strip() for line in text.splitlines() if line.strip()), "")[:200],
    )
