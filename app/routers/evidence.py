"""Submitting evidence: the JSON API and the form on the entry page."""

import re
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import RedirectResponse
from pydantic import ValidationError

from app.render.formats import json_response
from app.schemas.api import EvidenceCreated, EvidenceIn
from app.services.evidence.reports import RateLimit, record_evidence
from app.urls import entry_url
from app.web.deps import LangDep, SettingsDep
from app.web.limits import client_of

api_router = APIRouter(prefix="/api/v1", tags=["evidence"])
form_router = APIRouter()

_RESPONSES = {
    404: {"description": "No such entry, or no such workaround/dead end in it"},
    413: {"description": "Body larger than ERRATA_MAX_BODY_BYTES"},
    200: {
        "description": "The same report was already stored; it is returned, not counted again",
        "model": EvidenceCreated,
    },
    422: {"description": "A field is invalid; `detail` names it"},
    429: {"description": "Too many submissions from this client; see Retry-After"},
}


def _record(request: Request, settings, entry_id: str, report: EvidenceIn) -> EvidenceCreated:
    return record_evidence(
        request.app.state.engine,
        entry_id=entry_id,
        report=report,
        client=client_of(request, settings),
        limit=RateLimit(settings.rate_limit, settings.rate_limit_window),
    )


@api_router.post(
    "/errors/{entry_id:path}/evidence",
    status_code=201,
    response_model=EvidenceCreated,
    responses=_RESPONSES,
)
def submit_evidence(entry_id: str, report: EvidenceIn, request: Request, settings: SettingsDep):
    """Report how a workaround or dead end went; the entry's figures move at once.

    The same report sent again by the same client within 10 minutes is not counted again:
    the answer is 200 with the report stored the first time.
    """
    created = _record(request, settings, entry_id, report)
    return json_response(created.model_dump(mode="json"), status_code=200 if created.repeated else 201)


_PAIR = re.compile(r"^\s*([^=:\s]+)\s*[=:\s]\s*(\S+)\s*$")


def parse_versions(text: str) -> dict[str, str]:
    """'vllm 0.4.2, cuda=12.1' -> {'vllm': '0.4.2', 'cuda': '12.1'}."""
    versions: dict[str, str] = {}
    for part in re.split(r"[,;\n]", text or ""):
        if not part.strip():
            continue
        match = _PAIR.match(part)
        if not match:
            raise ValueError(f"write each version as 'name version', not {part.strip()[:40]!r}")
        versions[match.group(1)] = match.group(2)
    return versions


@form_router.post("/errors/{entry_id:path}/evidence", include_in_schema=False)
def submit_evidence_form(
    entry_id: str,
    request: Request,
    settings: SettingsDep,
    lang: LangDep,
    outcome: Annotated[str, Form(max_length=10)],
    item: Annotated[str, Form(max_length=100)] = "",
    versions: Annotated[str, Form(max_length=1000)] = "",
    note: Annotated[str, Form(max_length=2000)] = "",
    source_url: Annotated[str, Form(max_length=2000)] = "",
):
    try:
        parsed = parse_versions(versions)
    except ValueError as exc:
        raise RequestValidationError(
            [{"loc": ("body", "versions"), "msg": str(exc), "type": "value_error"}]
        ) from None
    try:
        report = EvidenceIn(
            item=item or None,
            outcome=outcome,
            versions=parsed,
            note=note or None,
            source_url=source_url or None,
        )
    except ValidationError as exc:
        raise RequestValidationError(
            [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        ) from None
    created = _record(request, settings, entry_id, report)
    target = f"{entry_url(entry_id, lang=lang)}?reported={quote(created.evidence.uid)}#evidence"
    return RedirectResponse(target, status_code=303)
