"""Client identity: the salted hash a report is counted under."""

from fastapi import Request

from app.config import Settings
from app.services.evidence.reports import client_key


def client_of(request: Request, settings: Settings) -> str:
    address = request.client.host if request.client else "unknown"
    if settings.trust_forwarded_for:
        forwarded = request.headers.get("x-forwarded-for")
        if forwarded:
            address = forwarded.split(",")[0].strip()
    return client_key(address, settings.client_salt)
