"""Pastes behind lookup permalinks: a paste short enough travels in the URL itself
(`/lookup?q=`); a longer one is stored once, under a digest of its text (`/lookup?p=`)."""

import base64
import hashlib
from datetime import UTC, datetime
from urllib.parse import quote

from sqlmodel import Session

from app.models import Paste
from app.services.errors import PageNotFound

# Beyond this many URL-encoded characters a link is awkward to share and some proxies balk.
URL_LIMIT = 1800


def fits_in_url(text: str) -> bool:
    return len(quote(text, safe="")) <= URL_LIMIT


def paste_id(text: str) -> str:
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=10).digest()
    return base64.b32encode(digest).decode().lower()


def keep(session: Session, text: str) -> str:
    """Store the paste (once per distinct text) and return its permalink id."""
    key = paste_id(text)
    if session.get(Paste, key) is None:
        session.add(Paste(id=key, text=text, created_at=datetime.now(UTC)))
    return key


def read(session: Session, key: str) -> str:
    paste = session.get(Paste, key) if len(key) <= 32 else None
    if paste is None:
        raise PageNotFound(f"paste {key}")
    return paste.text
