"""For crawlers and browsers: robots.txt and the OpenSearch description (search from the
address bar)."""

from xml.etree import ElementTree as ET

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from app.web.templating import public_base

router = APIRouter(include_in_schema=False)
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"


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
    body = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return Response(body, media_type="application/opensearchdescription+xml")
