"""Errors in the dialect of the path: JSON on API, MCP and .json paths, Markdown on .md, HTML elsewhere."""

from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from app import backends
from app.i18n import lang_of_path, translations
from app.render.formats import MARKDOWN, json_response
from app.services.errors import DomainError
from app.web.head import allowed_methods
from app.web.templating import render_page


def _wants_json(request: Request) -> bool:
    path = request.url.path
    return path.startswith("/api/") or path.endswith(".json") or path in ("/healthz", "/openapi.json", "/mcp")


def error_response(request: Request, status: int, detail, headers: dict | None = None) -> Response:
    path = request.url.path
    if _wants_json(request):
        return json_response({"detail": detail}, status_code=status, headers=headers)
    lang = lang_of_path(path)
    message = detail if isinstance(detail, str) else translations(lang).gettext("Invalid input")
    if path.endswith(".md"):
        return Response(f"# {status}\n\n{message}\n", status, headers, media_type=MARKDOWN)
    response = render_page(
        request,
        "error.html",
        lang,
        status_code=status,
        status=status,
        message=message,
        problems=detail if isinstance(detail, list) else [],
    )
    response.headers.update(headers or {})
    return response


def _field_errors(exc: RequestValidationError) -> list[dict]:
    return [
        {
            "loc": list(e["loc"]),
            "field": ".".join(str(p) for p in e["loc"][1:]) or e["loc"][0],
            "msg": e["msg"],
            "type": e["type"],
        }
        for e in exc.errors()
    ]


def _phrases(gettext) -> dict[int, str]:
    return {
        404: gettext("Page not found"),
        405: gettext("This address does not accept that kind of request"),
        413: gettext("The request is too large"),
        415: gettext("That kind of content is not accepted here"),
    }


def install(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def _domain(request: Request, exc: DomainError):
        gettext = translations(lang_of_path(request.url.path)).gettext
        return error_response(request, exc.status, exc.message(gettext), exc.headers())

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError):
        return error_response(request, 422, _field_errors(exc))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException):
        detail = exc.detail
        if detail == HTTPStatus(exc.status_code).phrase:
            # Starlette's English reason phrase: said in the page's language instead.
            gettext = translations(lang_of_path(request.url.path)).gettext
            detail = _phrases(gettext).get(exc.status_code, detail)
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            # Starlette names the methods of the first route at the path only.
            headers = {**(headers or {}), "Allow": allowed_methods(request.app.router.routes, request.scope)}
        return error_response(request, exc.status_code, detail, headers)

    @app.exception_handler(OperationalError)
    async def _busy(request: Request, exc: OperationalError):
        if not backends.is_busy(request.app.state.engine, exc):
            raise exc
        # A lock stayed taken past the timeout (or a deadlock was broken): nothing was written; retry.
        gettext = translations(lang_of_path(request.url.path)).gettext
        return error_response(request, 503, gettext("The database is busy; try again"), {"Retry-After": "1"})
