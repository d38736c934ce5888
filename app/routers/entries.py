"""Entry pages: /errors/{id}[.json|.md], in English and (under /zh) Chinese."""

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse

from app.db import read_session
from app.i18n import lang_of_path
from app.render.formats import respond_entry, split_format
from app.services.entries.read import load_entry, locate
from app.urls import alias_url

router = APIRouter()

_FORMATS_DOC = {
    200: {
        "description": "The entry: HTML by default, JSON with a `.json` suffix, Markdown with `.md`",
        "content": {
            "text/html": {},
            "application/json": {"schema": {"$ref": "#/components/schemas/EntryView"}},
            "text/markdown": {},
        },
    },
    301: {"description": "Merged: the entry it was merged into (or the id as written, in lowercase)"},
    404: {"description": "No entry has this id"},
    # Errors come in the dialect of the path: a page, except on `.json` paths.
    422: {"content": {"text/html": {}, "text/markdown": {}}},
}


@router.get("/errors/{entry_path:path}", responses=_FORMATS_DOC, response_model=None)
def entry_page(entry_path: str, request: Request):
    # The route read most takes no dependencies: solving them, and leaving a session through
    # their exit stack, was a tenth of an entry's first read as JSON (0.2 of 2.1 ms). The
    # session is closed as the route returns, as SessionDep's is.
    lang = lang_of_path(request.url.path)
    entry_id, fmt = split_format(entry_path)
    with read_session(request.app.state.engine) as session:
        found = locate(session, entry_id)
        if found.id != entry_id:
            return RedirectResponse(alias_url(found, lang=lang, fmt=fmt), status_code=301)
        came_from = request.query_params.get("from")
        loaded = load_entry(session, entry_id, row=found.row)
        return respond_entry(request, loaded, fmt, lang, came_from=came_from)
