"""gzip for responses that are not compressed yet, for clients that ask.

Entry forms arrive already gzipped (or deliberately plain, with their own Vary), and pass
through untouched; Starlette's GZipMiddleware would add a second `Vary: Accept-Encoding`
to them. Streaming responses pass through as they are.
"""

import gzip

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.entry_cache import accepts_gzip

MINIMUM_SIZE = 1024
_COMPRESSIBLE = ("text/", "application/json", "application/xml", "application/atom+xml", "image/svg+xml")


class CompressionMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wants_gzip = accepts_gzip(Headers(scope=scope).get("accept-encoding"))
        start: Message | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = Headers(raw=message.get("headers", []))
                if (
                    "content-encoding" in headers
                    or "accept-encoding" in headers.get("vary", "").lower()
                    or not headers.get("content-type", "").startswith(_COMPRESSIBLE)
                ):
                    await send(message)
                else:
                    start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            held, start = start, None
            body = message.get("body", b"")
            if message.get("more_body") or len(body) < MINIMUM_SIZE:
                await send(held)
                await send(message)
                return
            headers = MutableHeaders(raw=held.setdefault("headers", []))
            headers.add_vary_header("Accept-Encoding")
            if wants_gzip:
                body = gzip.compress(body, compresslevel=6)
                headers["Content-Encoding"] = "gzip"
                headers["Content-Length"] = str(len(body))
            await send(held)
            await send({**message, "body": body})

        await self.app(scope, receive, send_compressed)
