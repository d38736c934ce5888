"""Moderation of proposals and revisions over JSON: Bearer ERRATA_ADMIN_TOKEN, like the rest."""

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.exceptions import RequestValidationError

from app.db import SessionDep
from app.render.formats import json_response
from app.routers.moderation import require_moderator
from app.schemas.proposals import AcceptIn, DecisionIn, ProposalView, RevertIn
from app.services.history.revisions import restore_revision
from app.services.proposals import queue
from app.services.proposals.errors import ProposalInvalid
from app.web.params import Offset, RowId

router = APIRouter(
    prefix="/api/v1/moderation",
    tags=["moderation"],
    dependencies=[Depends(require_moderator)],
    responses={401: {"description": "No token"}, 403: {"description": "Wrong token, or moderation off"}},
)


@router.get("/proposals", response_model=list[ProposalView])
def list_proposals(
    session: SessionDep,
    status: Literal["pending", "accepted", "rejected"] | None = "pending",
    entry_id: Annotated[str | None, Query(max_length=300)] = None,
    kind: Annotated[str | None, Query(max_length=20)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Offset = 0,
):
    """Pending proposals oldest first (the queue); accepted or rejected ones newest first."""
    rows = queue.list_proposals(
        session, status=status, entry_id=entry_id, kind=kind, limit=limit, offset=offset
    )
    return json_response([r.model_dump(mode="json") for r in rows])


def accept(engine, proposal_id: int, document: str | None) -> ProposalView:
    try:
        return queue.accept_proposal(engine, proposal_id, document=document)
    except ProposalInvalid as exc:
        raise RequestValidationError(exc.errors()) from None


@router.post(
    "/proposals/{proposal_id}/accept", response_model=ProposalView, responses={404: {}, 409: {}, 422: {}}
)
def accept_proposal(proposal_id: RowId, request: Request, body: AcceptIn | None = None):
    """Apply the proposal as a new revision of the entry; `document` (YAML) replaces it as edited."""
    view = accept(request.app.state.engine, proposal_id, body.document if body else None)
    return json_response(view.model_dump(mode="json"))


@router.post("/proposals/{proposal_id}/reject", response_model=ProposalView, responses={404: {}, 409: {}})
def reject_proposal(proposal_id: RowId, request: Request, body: DecisionIn | None = None):
    view = queue.reject_proposal(request.app.state.engine, proposal_id, body.reason if body else None)
    return json_response(view.model_dump(mode="json"))


@router.post("/errors/{entry_id:path}/revert", responses={404: {}})
def revert(entry_id: str, body: RevertIn, request: Request):
    """Restore an earlier revision's content, as a new revision: undoing an accepted change."""
    revision = restore_revision(request.app.state.engine, entry_id, body.revision)
    return json_response({"id": entry_id, "revision": revision})
