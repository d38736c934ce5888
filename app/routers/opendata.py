"""Open data: the NDJSON dump, the figures, llms.txt for agents, and the /about page."""

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from app.db import SessionDep
from app.render.formats import json_response
from app.services.entries.catalog import domain_counts, first_in_domain
from app.services.opendata.dump import DUMP_NAME, cached_dump, dump_folder
from app.services.opendata.figures import BaseFigures, figures
from app.services.opendata.sources import known_sources, source_of
from app.urls import domain_url, entry_url
from app.web.deps import LangDep, SettingsDep
from app.web.templating import public_base, render_page

router = APIRouter(tags=["open data"])
page_router = APIRouter(include_in_schema=False)
# llms.txt stays small enough for a model's context however large the base grows:
# a few entries per domain, every domain up to a bound, and the dump for everything.
LLMS_PER_DOMAIN = 10
LLMS_DOMAINS = 100


@router.get(
    f"/dumps/{DUMP_NAME}",
    response_class=FileResponse,
    responses={200: {"description": "gzip: a header line with the licences, then one entry a line"}},
)
def dump(request: Request, settings: SettingsDep):
    """Every canonical entry, both languages, one JSON a line (NDJSON, gzip)."""
    path, version = cached_dump(
        request.app.state.engine,
        dump_folder(settings),
        known_sources(settings.content_licence),
        public_base(request),
    )
    etag = f'"{version}"'
    if etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers={"ETag": etag})
    return FileResponse(
        path,
        media_type="application/gzip",
        filename=DUMP_NAME,
        headers={"ETag": etag, "Cache-Control": "public, max-age=300"},
    )


@router.get("/stats.json", response_model=BaseFigures)
def stats(session: SessionDep):
    """Entries, domains, accepted reports and when an entry last changed."""
    return json_response(figures(session).model_dump(mode="json"))


@router.get("/llms.txt", response_class=PlainTextResponse, include_in_schema=False)
def llms_txt(request: Request, session: SessionDep) -> PlainTextResponse:
    base = public_base(request)
    domains = domain_counts(session)
    total = sum(d.count for d in domains)
    lines = [
        "# errata",
        "",
        "> A bilingual (English, Chinese) knowledge base of software errors: for each error, why "
        "it happens, in which versions, which workarounds work and how often (rates measured "
        "from readers' reports), and which popular fixes are dead ends.",
        "",
        f"{total} entries in {len(domains)} domains. Every entry is Markdown at "
        f"`{base}/errors/{{id}}.md` (Chinese: `{base}/zh/errors/{{id}}.md`) and JSON at "
        f"`{base}/errors/{{id}}.json`. To find the entry for an error, POST "
        f'`{{"text": "<the error output>"}}` to `{base}/api/v1/lookup`, or use the MCP server.',
        "",
        "## Tools",
        "",
        f"- [MCP server]({base}/mcp): streamable HTTP; tools lookup_error, get_entry, search, "
        "list_domains, related, report_outcome",
        f"- [Lookup API]({base}/docs#/lookup): a pasted error to the matching entries",
        f"- [OpenAPI description]({base}/openapi.json)",
        "",
        "## Data",
        "",
        f"- [Every entry, NDJSON]({base}/dumps/{DUMP_NAME}): both languages, with licences",
        f"- [Figures]({base}/stats.json): entries, domains, reports, last change",
        f"- [About the data]({base}/about): sources and licences",
        "",
    ]
    for d in domains[:LLMS_DOMAINS]:
        entries = first_in_domain(session, d.domain, LLMS_PER_DOMAIN)
        lines += [f"## {d.domain}", ""]
        lines += [
            f"- [{title}]({base}{entry_url(entry_id, fmt='md')}): `{entry_id}`" for entry_id, title in entries
        ]
        if d.count > len(entries):
            lines.append(f"- [All {d.count} {d.domain} entries]({base}{domain_url(d.domain)})")
        lines.append("")
    if len(domains) > LLMS_DOMAINS:
        lines += ["## Optional", ""]
        lines += [f"- [{d.domain}]({base}{domain_url(d.domain)}): {d.count}" for d in domains[LLMS_DOMAINS:]]
        lines.append("")
    return PlainTextResponse("\n".join(lines), media_type="text/plain; charset=utf-8")


@page_router.get("/about")
def about_page(request: Request, session: SessionDep, settings: SettingsDep, lang: LangDep):
    sources = known_sources(settings.content_licence)
    base = figures(session)
    present = [(source_of(name, sources), n) for name, n in sorted(base.by_source.items())]
    return render_page(
        request,
        "about.html",
        lang,
        figures=base,
        present=present,
        corpus=sources["deadends.dev"],
        own=sources["errata"],
        dump_url=f"/dumps/{DUMP_NAME}",
    )
