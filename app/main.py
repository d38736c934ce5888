"""The ASGI application: routers, static files, error handlers. No logic here."""

import gc
import threading
from contextlib import asynccontextmanager

import anyio
import anyio.to_thread
from fastapi import FastAPI

from app import backends, malloc
from app.agents.transports import mount_http
from app.config import Settings
from app.db import entry_stamp_reader, make_engine, read_session
from app.routers import (
    api,
    assets,
    crawlers,
    docs,
    entries,
    evidence,
    feeds,
    health,
    history,
    lookup,
    moderation,
    moderation_pages,
    moderation_proposals,
    opendata,
    pages,
    proposals,
)
from app.services.lookup.index import LookupIndex
from app.services.search.summaries import kept_summaries
from app.web import errors, guard
from app.web.compression import CompressionMiddleware
from app.web.entry_cache import FormCache
from app.web.fastpath import EntryFastPath
from app.web.on_loop import QuickSearches


def _warm(app: FastAPI) -> None:
    with read_session(app.state.engine) as session:
        app.state.lookup_index.refresh(session)
    # The index lives as long as the process: keep the collector from walking its million
    # objects again and again (each full collection of a large base stalled requests).
    gc.freeze()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    malloc.limit_arenas()  # before the worker threads exist

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        # Sync routes run in anyio's threads: as many as the pool holds connections (40 by
        # default; see Settings.threads for why a process runs few).
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.threads
        if settings.warm_lookup_index:
            threading.Thread(target=_warm, args=(app,), name="warm-lookup-index", daemon=True).start()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(mcp_endpoint.run)
            yield
            tasks.cancel_scope.cancel()
        app.state.engine.dispose()
        app.state.read_stamp.close()
        app.state.stamp_engine.dispose()

    app = FastAPI(
        title="errata",
        summary="A bilingual knowledge base of software errors",
        version="1.0",
        lifespan=lifespan,
        docs_url=None,  # served from local files by app.routers.docs
        redoc_url=None,
        telemetry={signal: settings.telemetry for signal in ("tracing", "metrics", "logs")},
    )
    app.state.settings = settings
    app.state.engine = make_engine(settings)
    # An engine of its own, for the one connection app.web.fastpath checks stamps on.
    app.state.stamp_engine = make_engine(settings)
    app.state.read_stamp = entry_stamp_reader(app.state.stamp_engine)
    app.state.lookup_index = LookupIndex()
    mcp_endpoint = mount_http(app, settings)
    app.state.entry_forms = FormCache(settings.entry_cache_mb * 1024 * 1024)
    # Lists and searches apart, so that many distinct queries cannot push entries out.
    app.state.list_forms = FormCache(settings.entry_cache_mb * 1024 * 1024 // 4)
    app.state.kept_summaries = kept_summaries()
    app.state.reads_on_loop = backends.reads_in_process(app.state.engine)
    app.state.quick_searches = QuickSearches()
    app.include_router(assets.router)
    app.include_router(crawlers.router)
    docs.install(app)
    app.include_router(api.router)
    app.include_router(evidence.api_router)
    app.include_router(lookup.api_router)
    app.include_router(moderation.router)
    app.include_router(moderation_proposals.router)
    app.include_router(proposals.api_router)
    app.include_router(health.router)
    app.include_router(feeds.router)
    app.include_router(opendata.router)
    for prefix in ("", "/zh"):
        app.include_router(pages.router, prefix=prefix)
        app.include_router(evidence.form_router, prefix=prefix)
        app.include_router(lookup.page_router, prefix=prefix)
        # Before the entry pages: /errors/{id} would take /errors/{id}/history as an id.
        app.include_router(history.router, prefix=prefix, include_in_schema=not prefix)
        app.include_router(proposals.page_router, prefix=prefix)
        app.include_router(moderation_pages.router, prefix=prefix)
        app.include_router(opendata.page_router, prefix=prefix)
        app.include_router(entries.router, prefix=prefix, include_in_schema=not prefix)
    errors.install(app)
    app.add_middleware(CompressionMiddleware)
    app.add_middleware(EntryFastPath)
    guard.install(app, settings)  # outermost: every request is checked, HEAD runs as GET
    return app
