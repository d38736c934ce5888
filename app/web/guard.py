"""The middleware every request passes first: HEAD as GET, then the input checks."""

from fastapi import FastAPI

from app.config import Settings
from app.web.head import HeadAsGetMiddleware
from app.web.inputs import InputGuardMiddleware


def install(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(InputGuardMiddleware, settings=settings)
    app.add_middleware(HeadAsGetMiddleware)  # added last: outermost, so the guard sees GET
