"""The ASGI application: routers, static files, error handlers. No logic here."""

import threading
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.config import Settings
from app.db import make_engine, read_session
from app.routers import (
    api,
    assets,
    crawlers,
    docs,
    entries,
    evidence,
    feeds,
    health,
    lookup,
    moderation,
    pages,
)
from app.services.lookup.index import LookupIndex
from app.web import errors, guard


def _warm(app: FastAPI) -> None:
    with read_session(app.state.engine) as session:
        app.state.lookup_index.refresh(session)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if settings.warm_lookup_index:
            threading.Thread(target=_warm, args=(app,), name="warm-lookup-index", daemon=True).start()
        yield
        app.state.engine.dispose()

    app = FastAPI(
        title="errata",
        summary="A bilingual knowledge base of software errors",
        version="1.0",
        lifespan=lifespan,
        docs_url=None,  # served from local files by app.routers.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.engine = make_engine(settings)
    app.state.lookup_index = LookupIndex()
    app.include_router(assets.router)
    app.include_router(crawlers.router)
    docs.install(app)
    app.include_router(api.router)
    app.include_router(evidence.api_router)
    app.include_router(lookup.api_router)
    app.include_router(moderation.router)
    app.include_router(health.router)
    app.include_router(feeds.router)
    for prefix in ("", "/zh"):
        app.include_router(pages.router, prefix=prefix)
        app.include_router(evidence.form_router, prefix=prefix)
        app.include_router(lookup.page_router, prefix=prefix)
        app.include_router(entries.router, prefix=prefix, include_in_schema=not prefix)
    errors.install(app)
    guard.install(app, settings)
    return app
