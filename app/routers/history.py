"""An entry's history: /errors/{id}/history (and /zh/..., .json), any two revisions compared."""

from typing import Annotated

from fastapi import APIRouter, Query, Request

from app.db import SessionDep
from app.render.formats import json_response
from app.services.entries.read import get_entry
from app.services.history.revisions import compare, entry_history
from app.web.deps import LangDep
from app.web.templating import render_page

router = APIRouter()
Revision = Annotated[int | None, Query(ge=1, le=1_000_000)]


@router.get(
    "/errors/{entry_id:path}/history.json",
    tags=["history"],
    responses={404: {"description": "No such entry"}},
)
def history_json(
    entry_id: str,
    session: SessionDep,
    old: Annotated[Revision, Query(alias="from")] = None,
    new: Annotated[Revision, Query(alias="to")] = None,
):
    """Every revision (who, when, what changed), and the diff of `from` against `to`
    (by default the current revision against the one before it)."""
    history = entry_history(session, entry_id)
    comparison = compare(session, entry_id, old, new)
    return json_response({**history.model_dump(mode="json"), "diff": comparison.model_dump(mode="json")})


@router.get("/errors/{entry_id:path}/history", include_in_schema=False)
def history_page(
    entry_id: str,
    request: Request,
    session: SessionDep,
    lang: LangDep,
    old: Annotated[Revision, Query(alias="from")] = None,
    new: Annotated[Revision, Query(alias="to")] = None,
):
    return render_page(
        request,
        "history.html",
        lang,
        entry=get_entry(session, entry_id),
        history=entry_history(session, entry_id),
        comparison=compare(session, entry_id, old, new),
    )
