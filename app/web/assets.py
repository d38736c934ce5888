"""Static files under content-hashed names (`errata.1a2b3c4d5e.css`), so a browser or a CDN
may keep each one for a year: a changed file gets a new name, and pages link the new name."""

import hashlib
import mimetypes
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.config import PROJECT_ROOT

STATIC = PROJECT_ROOT / "static"
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/javascript", ".js")


@dataclass(frozen=True)
class Asset:
    path: Path
    hashed_name: str
    media_type: str
    body: bytes


@cache
def assets() -> dict[str, Asset]:
    """Every file in static/, by its plain name, read once per process."""
    found = {}
    for path in sorted(p for p in STATIC.iterdir() if p.is_file()):
        body = path.read_bytes()
        digest = hashlib.blake2b(body, digest_size=5).hexdigest()
        stem, _, suffix = path.name.rpartition(".")
        media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if media.startswith("text/") or media.endswith(("+xml", "javascript")):
            media += "; charset=utf-8"
        found[path.name] = Asset(path, f"{stem}.{digest}.{suffix}", media, body)
    return found


@cache
def by_hashed_name() -> dict[str, Asset]:
    return {a.hashed_name: a for a in assets().values()}


def static_url(name: str) -> str:
    return f"/static/{assets()[name].hashed_name}"
