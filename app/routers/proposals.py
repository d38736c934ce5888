"""Readers propose: an edit of an entry or a new entry, through the API and the pages' forms.

Nothing here changes an entry: a proposal waits in the review queue (app.services.proposals).
"""

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse
from pydantic import ValidationError

from app.db import SessionDep, read_session
from app.render.formats import json_response
from app.routers.lookup import Pasted
from app.schemas.proposals import AnyProposalIn, ProposalIn, ProposalView
from app.services.entries.read import get_entry
from app.services.evidence.reports import RateLimit
from app.services.history.diff import FieldDiff
from app.services.proposals import queue
from app.services.proposals.errors import ProposalInvalid
from app.services.proposals.form import change_from_form, prefill_from_paste
from app.services.proposals.scrub import scrub
from app.web.deps import LangDep, SettingsDep
from app.web.limits import client_of
from app.web.params import RowId
from app.web.templating import render_page

api_router = APIRouter(prefix="/api/v1", tags=["proposals"])
page_router = APIRouter()

_RESPONSES = {
    404: {"description": "No such entry"},
    413: {"description": "Body larger than ERRATA_MAX_BODY_BYTES"},
    422: {"description": "A field is invalid, or the change would make the entry invalid; `detail` names it"},
    429: {"description": "Too many proposals from this client; see Retry-After"},
}


def submit(request: Request, settings, body: ProposalIn, entry_id: str | None = None) -> ProposalView:
    """Submit for the client of this request, its rate limit applied; a bad change is a 422."""
    try:
        return queue.submit_proposal(
            request.app.state.engine,
            body,
            entry_id=entry_id,
            client=client_of(request, settings),
            limit=RateLimit(settings.rate_limit, settings.rate_limit_window),
        )
    except ProposalInvalid as exc:
        raise RequestValidationError(exc.errors()) from None


@api_router.post(
    "/errors/{entry_id:path}/proposals", status_code=202, response_model=ProposalView, responses=_RESPONSES
)
def propose_edit(entry_id: str, body: ProposalIn, request: Request, settings: SettingsDep):
    """Propose an edit of an entry; it is pending until a moderator accepts it."""
    view = submit(request, settings, body, entry_id)
    return json_response(view.model_dump(mode="json"), status_code=202)


@api_router.post("/proposals", status_code=202, response_model=ProposalView, responses=_RESPONSES)
def propose(body: AnyProposalIn, request: Request, settings: SettingsDep):
    """Propose a new entry (`change.kind` = `new_entry`), or an edit of the entry `entry_id` names."""
    view = submit(request, settings, body)
    return json_response(view.model_dump(mode="json"), status_code=202)


@api_router.get("/proposals/{proposal_id}", response_model=ProposalView, responses={404: {}})
def proposal_status(proposal_id: RowId, session: SessionDep):
    """A proposal and where it stands: pending, accepted (with the revision it made) or rejected."""
    return json_response(queue.get_proposal(session, proposal_id).model_dump(mode="json"))


async def _form_body(request: Request) -> ProposalIn:
    form = await request.form()
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        return ProposalIn.model_validate(
            {
                "change": change_from_form(values),
                "note": values.get("note") or None,
                "display_name": values.get("display_name") or None,
            }
        )
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from None


def _submitted(request: Request, settings, lang: str, body: ProposalIn, entry_id: str | None):
    view = submit(request, settings, body, entry_id)
    return RedirectResponse(f"{queue.proposal_url(view.id, lang)}?sent=1", status_code=303)


@page_router.post("/errors/{entry_id:path}/proposals", include_in_schema=False)
async def propose_edit_form(entry_id: str, request: Request, settings: SettingsDep, lang: LangDep):
    body = await _form_body(request)
    return await run_in_threadpool(_submitted, request, settings, lang, body, entry_id)


@page_router.post("/proposals", include_in_schema=False)
async def propose_new_form(request: Request, settings: SettingsDep, lang: LangDep):
    body = await _form_body(request)
    return await run_in_threadpool(_submitted, request, settings, lang, body, None)


@page_router.get("/errors/{entry_id:path}/propose", include_in_schema=False)
def propose_page(entry_id: str, request: Request, session: SessionDep, lang: LangDep):
    return render_page(request, "propose.html", lang, entry=get_entry(session, entry_id))


@page_router.get("/propose", include_in_schema=False)
def propose_new_page(request: Request, lang: LangDep, text: Pasted):
    """A new entry's form, prefilled from the paste with what identifies people taken out."""
    return render_page(request, "propose_new.html", lang, prefill=prefill_from_paste(scrub(text)))


@page_router.get("/proposals/{proposal_id}", include_in_schema=False)
def proposal_page(proposal_id: RowId, request: Request, lang: LangDep):
    with read_session(request.app.state.engine) as session:
        view = queue.get_proposal(session, proposal_id)
        changes, problem = proposal_changes(session, proposal_id)
    return render_page(
        request,
        "proposal.html",
        lang,
        proposal=view,
        changes=changes,
        problem=problem,
        sent=request.query_params.get("sent") == "1",
    )


def proposal_changes(session, proposal_id: int) -> tuple[list[FieldDiff], str | None]:
    """The diff of a proposal, or why it no longer applies to the entry as it is now."""
    try:
        return queue.proposal_diff(session, proposal_id), None
    except ProposalInvalid as exc:
        return [], str(exc)
