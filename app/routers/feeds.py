"""Machine-read lists: the Atom feed of recent entries and the sitemap of every page."""

import gzip
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from sqlalchemy import func
from sqlmodel import col, select

from app.db import SessionDep
from app.models import Entry
from app.services.entries.aliases import CANONICAL
from app.services.entries.catalog import recent_entries
from app.services.errors import PageNotFound
from app.urls import entry_url
from app.web.templating import public_base

router = APIRouter(tags=["feeds"])
ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
FEED_SIZE = 50


def _xml(root: ET.Element, media_type: str) -> Response:
    return Response(ET.tostring(root, encoding="utf-8", xml_declaration=True), media_type=media_type)


def _documented(media_type: str) -> dict:
    # Errors on these paths are pages (app.web.errors), not JSON.
    errors = {status: {"content": {"text/html": {}}} for status in (404, 422)}
    return {"response_class": Response, "responses": {200: {"content": {media_type: {}}}, **errors}}


@router.get("/feed.atom", **_documented("application/atom+xml"))
def atom_feed(request: Request, session: SessionDep):
    """The most recently created or changed entries."""
    base = public_base(request)
    entries = recent_entries(session, limit=FEED_SIZE)
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    ET.SubElement(feed, f"{{{ATOM}}}title").text = "errata: recent entries"
    ET.SubElement(feed, f"{{{ATOM}}}id").text = f"{base}/feed.atom"
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", href=f"{base}/feed.atom")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", href=f"{base}/")
    newest = max((e.updated_at for e in entries), default=None)
    ET.SubElement(feed, f"{{{ATOM}}}updated").text = newest.isoformat() if newest else "1970-01-01T00:00:00Z"
    for e in entries:
        item = ET.SubElement(feed, f"{{{ATOM}}}entry")
        ET.SubElement(item, f"{{{ATOM}}}title").text = e.title.en
        ET.SubElement(item, f"{{{ATOM}}}id").text = f"{base}{e.url}"
        ET.SubElement(item, f"{{{ATOM}}}link", rel="alternate", href=f"{base}{e.url}")
        ET.SubElement(item, f"{{{ATOM}}}updated").text = e.updated_at.isoformat()
        ET.SubElement(item, f"{{{ATOM}}}summary").text = e.signature
        author = ET.SubElement(item, f"{{{ATOM}}}author")
        ET.SubElement(author, f"{{{ATOM}}}name").text = "errata"
    return _xml(feed, "application/atom+xml")


# The protocol allows 50,000 URLs a file; each entry has two pages.
SITEMAP_URLS = 50_000
PART_ENTRIES = 20_000


def _urlset(session, base: str, offset: int, limit: int) -> bytes:
    """The sitemap of entries `offset` to `offset + limit`, written as text: ElementTree took
    1.2 s of CPU to build and write a part of 20,000 entries, this 0.1 s. An entry's path is
    percent-encoded (app.urls), so only the base can hold a character XML must escape."""
    base = escape(base, {'"': "&quot;"})
    rows = session.exec(
        select(Entry.id, Entry.updated_at)
        .where(CANONICAL)
        .order_by(col(Entry.id))
        .offset(offset)
        .limit(limit)
    )
    parts = [f'<?xml version="1.0" encoding="utf-8"?>\n<urlset xmlns="{SITEMAP}" xmlns:xhtml="{XHTML}">']
    for entry_id, updated in rows:
        en, zh = f"{base}{entry_url(entry_id)}", f"{base}{entry_url(entry_id, lang='zh')}"
        # Each page names itself and its other-language twin.
        tail = (
            f"<lastmod>{updated.date().isoformat()}</lastmod>"
            f'<xhtml:link rel="alternate" hreflang="en" href="{en}"/>'
            f'<xhtml:link rel="alternate" hreflang="zh-Hans" href="{zh}"/></url>'
        )
        parts += ("<url><loc>", en, "</loc>", tail, "<url><loc>", zh, "</loc>", tail)
    parts.append("</urlset>")
    return "".join(parts).encode()


@router.get("/sitemap.xml", **_documented("application/xml"))
def sitemap(request: Request, session: SessionDep):
    """Every entry page in both languages, each naming its other-language twin; past the
    protocol's 50,000 URLs, an index of gzipped parts of PART_ENTRIES entries each."""
    base = public_base(request)
    total = session.exec(select(func.count()).select_from(Entry).where(CANONICAL)).one()
    if 2 * total <= SITEMAP_URLS:
        return Response(_urlset(session, base, 0, total), media_type="application/xml")
    ET.register_namespace("", SITEMAP)
    index = ET.Element(f"{{{SITEMAP}}}sitemapindex")
    for part in range(1, (total + PART_ENTRIES - 1) // PART_ENTRIES + 1):
        item = ET.SubElement(index, f"{{{SITEMAP}}}sitemap")
        ET.SubElement(item, f"{{{SITEMAP}}}loc").text = f"{base}/sitemaps/{part}.xml.gz"
    return _xml(index, "application/xml")


@router.get("/sitemaps/{part}.xml.gz", **_documented("application/gzip"))
def sitemap_part(request: Request, session: SessionDep, part: int = Path(ge=1, le=10_000)):
    """One part of the sitemap index, gzipped as the protocol allows."""
    total = session.exec(select(func.count()).select_from(Entry).where(CANONICAL)).one()
    if (part - 1) * PART_ENTRIES >= max(total, 1):
        raise PageNotFound(f"sitemap part {part}")
    urlset = _urlset(session, public_base(request), (part - 1) * PART_ENTRIES, PART_ENTRIES)
    return Response(gzip.compress(urlset, compresslevel=6, mtime=0), media_type="application/gzip")
