"""Moderation: list, reject and restore reports; merge and unmerge entries. Bearer token from
ERRATA_ADMIN_TOKEN."""

import hmac
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from app.db import SessionDep
from app.render.formats import json_response
from app.schemas.api import EntryFigures, MergeIn, MergeOut, ModerationEvidence, ModerationLogRow, RejectIn
from app.services.evidence.reports import list_evidence, moderation_log, reject_evidence, restore_evidence
from app.services.merging.service import merge_entries, unmerge_entry
from app.web.deps import SettingsDep
from app.web.params import Offset


def require_moderator(request: Request, settings: SettingsDep) -> None:
    if settings.admin_token is None or not settings.admin_token.get_secret_value():
        raise HTTPException(403, "Moderation is disabled: ERRATA_ADMIN_TOKEN is not set")
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise HTTPException(401, "A moderator token is required", {"WWW-Authenticate": "Bearer"})
    expected = settings.admin_token.get_secret_value().encode()
    if not hmac.compare_digest(token.strip().encode(), expected):
        raise HTTPException(403, "The moderator token is wrong")


router = APIRouter(
    prefix="/api/v1/moderation",
    tags=["moderation"],
    dependencies=[Depends(require_moderator)],
    responses={401: {"description": "No token"}, 403: {"description": "Wrong token, or moderation off"}},
)


@router.get("/evidence", response_model=list[ModerationEvidence])
def recent_evidence(
    session: SessionDep,
    status: Literal["accepted", "rejected"] | None = None,
    entry_id: Annotated[str | None, Query(max_length=300)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Offset = 0,
):
    rows = list_evidence(session, status=status, entry_id=entry_id, limit=limit, offset=offset)
    return json_response([r.model_dump(mode="json") for r in rows])


@router.post(
    "/evidence/{uid}/reject", response_model=EntryFigures, responses={404: {"description": "No such report"}}
)
def reject(uid: str, request: Request, body: RejectIn | None = None):
    figures = reject_evidence(request.app.state.engine, uid, body.reason if body else None)
    return json_response(figures.model_dump(mode="json"))


@router.post(
    "/evidence/{uid}/restore", response_model=EntryFigures, responses={404: {"description": "No such report"}}
)
def restore(uid: str, request: Request, body: RejectIn | None = None):
    figures = restore_evidence(request.app.state.engine, uid, body.reason if body else None)
    return json_response(figures.model_dump(mode="json"))


@router.get("/log", response_model=list[ModerationLogRow])
def audit_log(
    session: SessionDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Offset = 0,
):
    return json_response([r.model_dump() for r in moderation_log(session, limit=limit, offset=offset)])


_MERGE_ERRORS = {404: {"description": "No entry has that id"}, 422: {"description": "The field named"}}


@router.post("/merge", response_model=MergeOut, responses=_MERGE_ERRORS)
def merge(body: MergeIn, request: Request):
    """Merge `from` into `into`: `from` becomes an alias that answers 301 at `into`."""
    if body.into is None:
        raise HTTPException(422, [{"loc": ["body", "into"], "field": "into", "msg": "Field required"}])
    result = merge_entries(request.app.state.engine, body.from_, body.into, reason=body.reason)
    return json_response(result.model_dump(by_alias=True))


@router.post("/unmerge", response_model=MergeOut, responses=_MERGE_ERRORS)
def unmerge(body: MergeIn, request: Request):
    """Undo the merge of `from`: it is an entry of its own again, with its own evidence."""
    result = unmerge_entry(request.app.state.engine, body.from_, body.into, reason=body.reason)
    return json_response(result.model_dump(by_alias=True))
