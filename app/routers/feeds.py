"""Machine-read lists: the Atom feed of recent entries and the sitemap of every page."""

from xml.etree import ElementTree as ET

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import col, select

from app.db import SessionDep
from app.models import Entry
from app.services.catalog import recent_entries
from app.urls import entry_url

router = APIRouter(tags=["feeds"])
ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
FEED_SIZE = 50


def _xml(root: ET.Element, media_type: str) -> Response:
    return Response(ET.tostring(root, encoding="utf-8", xml_declaration=True), media_type=media_type)


@router.get("/feed.atom")
def atom_feed(request: Request, session: SessionDep):
    """The most recently created or changed entries."""
    base = str(request.base_url).rstrip("/")
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


@router.get("/sitemap.xml")
def sitemap(request: Request, session: SessionDep):
    """Every entry page in both languages, each naming its other-language twin."""
    base = str(request.base_url).rstrip("/")
    ET.register_namespace("", SITEMAP)
    ET.register_namespace("xhtml", XHTML)
    urlset = ET.Element(f"{{{SITEMAP}}}urlset")
    for entry_id, updated in session.exec(select(Entry.id, Entry.updated_at).order_by(col(Entry.id))):
        pages = {"en": f"{base}{entry_url(entry_id)}", "zh-Hans": f"{base}{entry_url(entry_id, lang='zh')}"}
        for href in pages.values():
            url = ET.SubElement(urlset, f"{{{SITEMAP}}}url")
            ET.SubElement(url, f"{{{SITEMAP}}}loc").text = href
            ET.SubElement(url, f"{{{SITEMAP}}}lastmod").text = updated.date().isoformat()
            for hreflang, alternate in pages.items():
                ET.SubElement(url, f"{{{XHTML}}}link", rel="alternate", hreflang=hreflang, href=alternate)
    return _xml(urlset, "application/xml")
