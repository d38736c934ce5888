"""The moderator's pages: sign in once with the admin token, then review the queue in a browser.

Every form posts with the session's CSRF token; every action goes through the same
services as the moderation API and lands in the audit log.
"""

from dataclasses import dataclass
from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response

from app.config import Settings
from app.db import read_session
from app.i18n import lang_of_path, translations
from app.routers.moderation_proposals import accept
from app.routers.proposals import proposal_changes
from app.services.evidence.reports import list_evidence, moderation_log, reject_evidence, restore_evidence
from app.services.history.revisions import restore_revision
from app.services.merging.service import merge_entries, unmerge_entry
from app.services.proposals import queue
from app.web import moderator_session as ms
from app.web.deps import LangDep, SettingsDep
from app.web.params import MAX_ROW_ID, FormRowId, RowId
from app.web.templating import render_page

router = APIRouter(include_in_schema=False)
Csrf = Annotated[str, Form(max_length=200)]
Reason = Annotated[str, Form(max_length=2000)]


@dataclass(frozen=True)
class Moderator:
    csrf: str


def _admin_token(settings: Settings) -> str | None:
    token = settings.admin_token.get_secret_value() if settings.admin_token else ""
    return token or None


def _moderator(request: Request, settings: Settings) -> Moderator | None:
    token = _admin_token(settings)
    sid = ms.session_id(token, request.cookies.get(ms.COOKIE)) if token else None
    return Moderator(csrf=ms.csrf_token(token, sid)) if sid else None


def _require(request: Request, settings: Settings, csrf: str) -> None:
    """A moderator's POST: a valid session and its CSRF token, or 403."""
    token = _admin_token(settings)
    sid = ms.session_id(token, request.cookies.get(ms.COOKIE)) if token else None
    if sid is None or not ms.csrf_ok(token, sid, csrf):
        gettext = translations(lang_of_path(request.url.path)).gettext
        raise HTTPException(403, gettext("Sign in as a moderator, then send the form again from its page"))


def _base(lang: str) -> str:
    return "/zh/moderation" if lang == "zh" else "/moderation"


def _page(request: Request, template: str, lang: str, status_code: int = 200, **context) -> Response:
    response = render_page(request, template, lang, status_code=status_code, base=_base(lang), **context)
    response.headers["Cache-Control"] = "no-store"
    return response


def _back(lang: str, path: str = "", done: str = "") -> RedirectResponse:
    return RedirectResponse(f"{_base(lang)}{path}?done={quote(done)}", status_code=303)


@router.get("/moderation")
def dashboard(
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    status: Literal["pending", "accepted", "rejected", ""] = "pending",
    kind: Annotated[str, Query(max_length=20)] = "",
    entry: Annotated[str, Query(max_length=300)] = "",
    evidence_status: Literal["accepted", "rejected", ""] = "",
):
    moderator = _moderator(request, settings)
    if moderator is None:
        code = 200 if _admin_token(settings) else 403
        return _page(request, "moderation_login.html", lang, code, enabled=code == 200, wrong=False)
    with read_session(request.app.state.engine) as session:
        filters = {"status": status or None, "entry_id": entry or None, "kind": kind or None}
        proposals = queue.list_proposals(session, **filters, limit=100)
        proposals_total = queue.count_proposals(session, **filters)
        evidence = list_evidence(
            session, status=evidence_status or None, entry_id=entry or None, limit=50, offset=0
        )
        log = moderation_log(session, limit=30, offset=0)
    return _page(
        request,
        "moderation.html",
        lang,
        csrf=moderator.csrf,
        proposals=proposals,
        proposals_total=proposals_total,
        evidence=evidence,
        log=log,
        filters={"status": status, "kind": kind, "entry": entry, "evidence_status": evidence_status},
        done=request.query_params.get("done", ""),
    )


@router.post("/moderation/login")
def login(
    request: Request, settings: SettingsDep, lang: LangDep, token: Annotated[str, Form(max_length=500)]
):
    admin = _admin_token(settings)
    if admin is None or not ms.token_ok(admin, token):
        return _page(request, "moderation_login.html", lang, 403, enabled=admin is not None, wrong=True)
    response = RedirectResponse(_base(lang), status_code=303)
    response.set_cookie(
        ms.COOKIE,
        ms.issue(admin),
        max_age=ms.SESSION_SECONDS,
        path="/",
        secure=True,
        httponly=True,
        samesite="strict",
    )
    return response


@router.post("/moderation/logout")
def logout(request: Request, settings: SettingsDep, lang: LangDep, csrf: Csrf):
    _require(request, settings, csrf)
    response = RedirectResponse(_base(lang), status_code=303)
    response.delete_cookie(ms.COOKIE, path="/", secure=True, httponly=True, samesite="strict")
    return response


@router.get("/moderation/proposals/{proposal_id}")
def proposal(proposal_id: RowId, request: Request, settings: SettingsDep, lang: LangDep):
    moderator = _moderator(request, settings)
    if moderator is None:
        return RedirectResponse(_base(lang), status_code=303)
    with read_session(request.app.state.engine) as session:
        view = queue.get_proposal(session, proposal_id)
        changes, problem = proposal_changes(session, proposal_id)
        document = ""
        if view.status == "pending" and problem is None:
            document = queue.editable_document(queue.proposed_document(session, proposal_id))
    return _page(
        request,
        "moderation_proposal.html",
        lang,
        csrf=moderator.csrf,
        proposal=view,
        changes=changes,
        problem=problem,
        document=document,
        done=request.query_params.get("done", ""),
    )


@router.post("/moderation/proposals/{proposal_id}/accept")
def accept_form(
    proposal_id: RowId,
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    document: Annotated[str, Form(max_length=60000)] = "",
):
    _require(request, settings, csrf)
    accept(request.app.state.engine, proposal_id, document or None)
    return _back(lang, f"/proposals/{proposal_id}", "accepted")


@router.post("/moderation/proposals/{proposal_id}/reject")
def reject_form(
    proposal_id: RowId,
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    reason: Reason = "",
):
    _require(request, settings, csrf)
    queue.reject_proposal(request.app.state.engine, proposal_id, reason.strip() or None)
    return _back(lang, f"/proposals/{proposal_id}", "rejected")


@router.post("/moderation/evidence/{uid}/{action}")
def evidence_form(
    uid: str,
    action: Literal["reject", "restore"],
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    reason: Reason = "",
):
    _require(request, settings, csrf)
    change = reject_evidence if action == "reject" else restore_evidence
    change(request.app.state.engine, uid, reason.strip() or None)
    return _back(lang, "", f"evidence-{action}")


@router.post("/moderation/revert")
def revert_form(
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    entry_id: Annotated[str, Form(max_length=300)],
    revision: FormRowId,
    proposal: Annotated[int | None, Form(ge=1, le=MAX_ROW_ID)] = None,
):
    _require(request, settings, csrf)
    restore_revision(request.app.state.engine, entry_id, revision)
    return _back(lang, f"/proposals/{proposal}" if proposal else "", "reverted")


EntryId = Annotated[str, Form(max_length=300)]


@router.post("/moderation/merge")
def merge_form(
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    from_id: Annotated[str, Form(alias="from", max_length=300)],
    into: EntryId,
    reason: Reason = "",
):
    _require(request, settings, csrf)
    merge_entries(request.app.state.engine, from_id.strip(), into.strip(), reason=reason.strip() or None)
    return _back(lang, "", "merged")


@router.post("/moderation/unmerge")
def unmerge_form(
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    csrf: Csrf,
    from_id: Annotated[str, Form(alias="from", max_length=300)],
    reason: Reason = "",
):
    _require(request, settings, csrf)
    unmerge_entry(request.app.state.engine, from_id.strip(), reason=reason.strip() or None)
    return _back(lang, "", "unmerged")
