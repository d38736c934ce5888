"""For crawlers and browsers: robots.txt and the OpenSearch description (search from the
address bar)."""

from typing import Annotated
from xml.etree import ElementTree as ET

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response

from app.db import SessionDep
from app.services.search.query import search_entries
from app.web.templating import public_base

router = APIRouter(include_in_schema=False)
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
SUGGESTIONS = "application/x-suggestions+json"
SUGGESTED = 8


@router.get("/robots.txt")
def robots(request: Request) -> PlainTextResponse:
    base = public_base(request)
    # Result pages of pastes and searches are endless variations of the entries: not for indexes.
    lines = [
        "User-agent: *",
        "Disallow: /lookup",
        "Disallow: /zh/lookup",
        "Disallow: /api/",
        "Allow: /",
        f"Sitemap: {base}/sitemap.xml",
        "",
    ]
    return PlainTextResponse("\n".join(lines))


@router.get("/opensearch.xml")
def opensearch(request: Request) -> Response:
    base = public_base(request)
    ET.register_namespace("", OPENSEARCH)
    root = ET.Element(f"{{{OPENSEARCH}}}OpenSearchDescription")
    ET.SubElement(root, f"{{{OPENSEARCH}}}ShortName").text = "errata"
    ET.SubElement(root, f"{{{OPENSEARCH}}}Description").text = "Search software errors in errata"
    ET.SubElement(root, f"{{{OPENSEARCH}}}InputEncoding").text = "UTF-8"
    ET.SubElement(
        root, f"{{{OPENSEARCH}}}Image", height="32", width="32", type="image/x-icon"
    ).text = f"{base}/favicon.ico"
    ET.SubElement(root, f"{{{OPENSEARCH}}}Url", type="text/html", template=f"{base}/search?q={{searchTerms}}")
    ET.SubElement(
        root,
        f"{{{OPENSEARCH}}}Url",
        type=SUGGESTIONS,
        template=f"{base}/search/suggestions?q={{searchTerms}}",
    )
    body = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return Response(body, media_type="application/opensearchdescription+xml")


@router.get("/search/suggestions")
def suggestions(
    request: Request, session: SessionDep, q: Annotated[str, Query(max_length=200)] = ""
) -> Response:
    """What the address bar offers while a term is typed (OpenSearch suggestions):
    `[term, [titles], [signatures], [entry URLs]]`."""
    hits = search_entries(session, q, limit=SUGGESTED)[0] if q.strip() else []
    base = public_base(request)
    body = [q, [h.title.en for h in hits], [h.signature for h in hits], [base + h.url for h in hits]]
    return Response(orjson.dumps(body), media_type=SUGGESTIONS)
