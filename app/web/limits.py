"""Request-body size limits, enforced before a body is parsed (413), and client identity."""

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.services.evidence.reports import client_key
from app.web.errors import error_response

# Lookups carry a pasted log (up to 64 KiB of text, JSON-escaped), and so may an MCP call
# (lookup_error); everything else is small.
LOOKUP_BODY_BYTES = 512 * 1024
_PASTE_PATHS = ("lookup", "/mcp")


class BodyTooLarge(Exception):
    def __init__(self, limit: int):
        super().__init__(limit)
        self.limit = limit


def body_limit(path: str, settings: Settings) -> int:
    return LOOKUP_BODY_BYTES if path.rstrip("/").endswith(_PASTE_PATHS) else settings.max_body_bytes


class BodyLimitMiddleware:
    """Refuses a body over the limit from its Content-Length, or while it streams in."""

    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"], self.settings)
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, send, limit)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await self._refuse(scope, send, limit)

    async def _refuse(self, scope: Scope, send: Send, limit: int) -> None:
        response = error_response(Request(scope), 413, f"Request body is larger than {limit} bytes")
        await response(scope, None, send)


def client_of(request: Request, settings: Settings) -> str:
    address = request.client.host if request.client else "unknown"
    if settings.trust_forwarded_for:
        forwarded = request.headers.get("x-forwarded-for")
        if forwarded:
            address = forwarded.split(",")[0].strip()
    return client_key(address, settings.client_salt)
