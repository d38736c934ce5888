"""The MCP server on its two transports: stdio for a local agent, streamable HTTP at /mcp."""

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import anyio
from fastapi import FastAPI, Request
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.config import Settings
from app.db import make_engine
from app.services.evidence.reports import client_key
from app.services.lookup.index import LookupIndex
from app.web.limits import client_of
from app.web.templating import public_base

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context
    from mcp.server.transport_security import TransportSecuritySettings

MCP_PATH = "/mcp"
# A local agent is one client: its reports are limited like one visitor's.
STDIO_CLIENT = "stdio"


def run_stdio(settings: Settings) -> None:
    from app.agents.mcp_server import build_server

    engine = make_engine(settings)
    base = (settings.public_url or "").rstrip("/")
    server = build_server(
        engine,
        settings,
        LookupIndex(),
        client_of=lambda ctx: client_key(STDIO_CLIENT, settings.client_salt),
        base_url=lambda ctx: base,
    )
    try:
        anyio.run(server.run_stdio_async)
    finally:
        engine.dispose()


def _request(ctx: "Context") -> Request:
    request = ctx.request_context.request
    if not isinstance(request, Request):
        raise RuntimeError("the HTTP transport carries no request")
    return request


def _security(settings: Settings) -> "TransportSecuritySettings":
    """Only hosts errata answers for, so a page elsewhere cannot rebind a name to a local server."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if settings.public_url:
        public = urlsplit(settings.public_url)
        hosts += [public.netloc, f"{public.hostname}:*"]
        origins.append(f"{public.scheme}://{public.netloc}")
    return TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins)


class LazyMCP:
    """/mcp, built at its first request. The MCP SDK costs a web process about 40 MB and a
    third of a second to import, and most processes are never asked over MCP.

    The SDK's session manager must run in the app's lifespan task (its task group cannot be
    entered in one request's task and left in another's): `run` waits there until a request
    asks, then builds the server and keeps its manager running until shutdown."""

    def __init__(self, app: FastAPI, settings: Settings) -> None:
        self.fastapi, self.settings = app, settings
        self._endpoint: ASGIApp | None = None
        self._wanted: anyio.Event | None = None
        self._ready: anyio.Event | None = None

    async def run(self) -> None:
        self._wanted, self._ready = anyio.Event(), anyio.Event()
        await self._wanted.wait()
        from app.agents.mcp_server import build_server

        server = build_server(
            self.fastapi.state.engine,
            self.settings,
            self.fastapi.state.lookup_index,
            client_of=lambda ctx: client_of(_request(ctx), self.settings),
            base_url=lambda ctx: public_base(_request(ctx)),
        )
        inner = server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            stateless_http=True,  # any worker process can answer any request
            json_response=True,
            transport_security=_security(self.settings),
        )
        # The SDK's own route, without its Starlette app around it: requests keep this app
        # (its state, settings and error handling) as scope["app"].
        (route,) = inner.routes
        async with server.session_manager.run():
            self._endpoint = route.app
            self._ready.set()
            await anyio.sleep_forever()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._endpoint is None:
            if self._wanted is None or self._ready is None:
                raise RuntimeError("/mcp asked before the app's lifespan started")
            self._wanted.set()
            await self._ready.wait()
        await self._endpoint(scope, receive, send)


def mount_http(app: FastAPI, settings: Settings) -> LazyMCP:
    """Adds /mcp to the app; the returned endpoint's `run` must run in the app's lifespan."""
    endpoint = LazyMCP(app, settings)
    # POST only: stateless and answering in JSON, errata never sends a message of its own, so
    # it offers no event stream to GET (the transport then says 405) and no session to DELETE.
    # A GET the SDK took would hold its connection open for as long as the client likes.
    app.router.routes.append(Route(MCP_PATH, endpoint, methods=["POST"], include_in_schema=False))
    return endpoint
