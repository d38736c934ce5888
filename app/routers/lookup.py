"""Paste an error, get the entry: POST /api/v1/lookup, and the home page's paste box."""

from typing import Annotated

from fastapi import APIRouter, Form, HTTPException, Request

from app.db import SessionDep
from app.render.formats import json_response
from app.schemas.api import MAX_PASTE_BYTES, LookupIn, LookupOut
from app.services.catalog import home_lists
from app.services.lookup import Match, lookup
from app.web.deps import LangDep
from app.web.templating import render_page

api_router = APIRouter(prefix="/api/v1", tags=["lookup"])
page_router = APIRouter()


def _matches(request: Request, session, text: str, limit: int, versions) -> list[Match]:
    if len(text.encode("utf-8")) > MAX_PASTE_BYTES:
        raise HTTPException(413, f"Pasted text is larger than {MAX_PASTE_BYTES} bytes")
    return lookup(session, request.app.state.lookup_index, text, limit=limit, versions=versions)


@api_router.post(
    "/lookup",
    response_model=LookupOut,
    responses={413: {"description": "Text over 64 KiB"}, 422: {"description": "Invalid body"}},
)
def lookup_error(body: LookupIn, request: Request, session: SessionDep):
    """Ranked entries for a pasted error, best first; an empty list when nothing fits."""
    matches = _matches(request, session, body.text, body.limit, body.versions)
    return json_response(
        {
            "matches": [
                {"id": m.id, "title": m.title.model_dump(), "score": m.score, "url": m.url} for m in matches
            ]
        }
    )


@page_router.post("/lookup", include_in_schema=False)
def lookup_page(
    request: Request,
    session: SessionDep,
    lang: LangDep,
    text: Annotated[str, Form(max_length=MAX_PASTE_BYTES)],
):
    return render_page(
        request,
        "home.html",
        lang,
        pasted=text,
        matches=_matches(request, session, text, 10, None),
        **home_lists(session),
    )
