"""The MCP server on its two transports: stdio for a local agent, streamable HTTP at /mcp."""

from urllib.parse import urlsplit

import anyio
from fastapi import FastAPI, Request
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from app.agents.mcp_server import build_server
from app.config import Settings
from app.db import make_engine
from app.services.evidence.reports import client_key
from app.services.lookup.index import LookupIndex
from app.web.limits import client_of
from app.web.templating import public_base

MCP_PATH = "/mcp"
# A local agent is one client: its reports are limited like one visitor's.
STDIO_CLIENT = "stdio"


def run_stdio(settings: Settings) -> None:
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


def _request(ctx: Context) -> Request:
    request = ctx.request_context.request
    if not isinstance(request, Request):
        raise RuntimeError("the HTTP transport carries no request")
    return request


def _security(settings: Settings) -> TransportSecuritySettings:
    """Only hosts errata answers for, so a page elsewhere cannot rebind a name to a local server."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    if settings.public_url:
        public = urlsplit(settings.public_url)
        hosts += [public.netloc, f"{public.hostname}:*"]
        origins.append(f"{public.scheme}://{public.netloc}")
    return TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins)


def mount_http(app: FastAPI, settings: Settings) -> MCPServer:
    """Adds /mcp to the app; the returned server's session manager must run in the app's lifespan."""
    server = build_server(
        app.state.engine,
        settings,
        app.state.lookup_index,
        client_of=lambda ctx: client_of(_request(ctx), settings),
        base_url=lambda ctx: public_base(_request(ctx)),
    )
    inner = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=True,  # any worker process can answer any request
        json_response=True,
        transport_security=_security(settings),
    )
    app.router.routes.extend(inner.routes)
    return server
