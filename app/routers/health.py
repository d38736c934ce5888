"""Liveness for load balancers and the CLI's own checks."""

from fastapi import APIRouter
from sqlalchemy import text

from app.db import SessionDep
from app.render.formats import json_response

router = APIRouter()


@router.get("/healthz", tags=["ops"])
def healthz(session: SessionDep):
    """200 when the database answers a query."""
    session.exec(text("SELECT 1")).one()
    return json_response({"status": "ok"})
