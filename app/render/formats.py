"""One entry, three formats: the suffix of the URL picks HTML, JSON or Markdown."""

import orjson
from fastapi import Request
from fastapi.responses import Response
from markupsafe import Markup

from app.render.export_md import render_entry_markdown
from app.schemas.views import EntryView
from app.services.entries.read import LoadedEntry
from app.web.entry_cache import serve_form
from app.web.templating import public_base, render_page

SUFFIXES = {".json": "json", ".md": "md"}
MARKDOWN = "text/markdown; charset=utf-8"


def split_format(path: str) -> tuple[str, str]:
    """`llm/foo.json` -> (`llm/foo`, `json`); a path without a known suffix is HTML."""
    for suffix, fmt in SUFFIXES.items():
        if path.endswith(suffix):
            return path[: -len(suffix)], fmt
    return path, "html"


def json_response(payload, status_code: int = 200, headers: dict | None = None) -> Response:
    return Response(
        orjson.dumps(payload),
        status_code=status_code,
        media_type="application/json",
        headers=headers,
    )


def entry_json(view: EntryView) -> dict:
    return view.model_dump(mode="json", by_alias=True)


def respond_entry(request: Request, loaded: LoadedEntry, fmt: str, lang: str, **context) -> Response:
    """The entry in the format the URL asks for, rendered once per revision: the form is kept
    in the process's cache (when the URL has no query) and answers later requests, 304s too."""
    response = _render(request, loaded.view, fmt, lang, **context)
    # A query (`?reported=1`, `?from=` an alias) changes the page for that one reader:
    # served, not kept.
    keep = request.app.state.entry_forms if not request.url.query else None
    return serve_form(request, response, loaded.ids, loaded.stamp, keep)


def json_ld(view: EntryView, lang: str, base: str) -> Markup:
    """schema.org TechArticle for search engines: the error, its dates, the workarounds as steps.
    Embedded in a <script> data block, so `<`, `>` and `&` are escaped inside the JSON."""
    data = {
        "@context": "https://schema.org",
        "@type": "TechArticle",
        "headline": view.title.pick(lang),
        "description": view.summary.pick(lang) if view.summary else view.signature,
        "inLanguage": "zh-Hans" if lang == "zh" else "en",
        "url": base + (view.links.html_zh if lang == "zh" else view.links.html),
        "datePublished": view.created_at.isoformat(),
        "dateModified": view.updated_at.isoformat(),
        "about": {"@type": "Thing", "name": view.signature},
        "mainEntity": {
            "@type": "HowTo",
            "name": view.title.pick(lang),
            "step": [
                {
                    "@type": "HowToStep",
                    "position": n,
                    "name": w.title.pick(lang),
                    "text": w.steps.pick(lang) if w.steps else w.title.pick(lang),
                }
                for n, w in enumerate(view.ranked_workarounds(), 1)
            ],
        },
    }
    text = orjson.dumps(data).decode()
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def _render(request: Request, view: EntryView, fmt: str, lang: str, **context) -> Response:
    if fmt == "json":
        return json_response(entry_json(view))
    if fmt == "md":
        base = str(request.base_url).rstrip("/")
        return Response(render_entry_markdown(view, lang, base), media_type=MARKDOWN)
    titles = {w.id: w.title.pick(lang) for w in view.workarounds}
    titles.update({d.id: d.action.pick(lang) for d in view.dead_ends})
    response = render_page(
        request,
        "entry.html",
        lang,
        entry=view,
        mark_fields=view.has_chinese(),
        item_titles=titles,
        workaround_ids={w.id for w in view.workarounds},
        reported=bool(request.query_params.get("reported")),
        json_ld=json_ld(view, lang, public_base(request)),
        **context,
    )
    response.headers["Link"] = (
        f'<{view.links.json_}>; rel="alternate"; type="application/json", '
        f"<{view.links.markdown if lang == 'en' else view.links.markdown_zh}>; "
        f'rel="alternate"; type="text/markdown"'
    )
    return response
