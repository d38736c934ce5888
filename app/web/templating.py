"""Jinja environments, one per interface language, with gettext and locale filters installed."""

from functools import cache

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

from app import i18n
from app.config import PROJECT_ROOT
from app.render.markdown import render_markdown
from app.urls import domain_url, entry_url

# Pages run no script at all; the policy makes injected markup inert should any slip through.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}


@cache
def environment(lang: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(PROJECT_ROOT / "templates"),
        autoescape=select_autoescape(default=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)
    env.filters.update(
        markdown=render_markdown,
        percent=lambda v: i18n.percent(v, lang),
        number=lambda v: i18n.number(v, lang),
        day=lambda v: i18n.day(v, lang),
        status=lambda v: i18n.status_label(v, lang),
        outcome=lambda v: i18n.outcome_label(v, lang),
        pick=lambda text: text.pick(lang) if text else "",
        untranslated=lambda text: bool(text) and text.missing(lang),
    )
    env.globals.update(
        lang=lang,
        html_lang=i18n.LANGUAGES[lang][1],
        entry_url=lambda entry_id, fmt="html", lang=lang: entry_url(entry_id, lang=lang, fmt=fmt),
        domain_url=lambda domain: domain_url(domain, lang=lang),
        home_url="/zh/" if lang == "zh" else "/",
        search_url="/zh/search" if lang == "zh" else "/search",
    )
    return env


def render_page(
    request: Request, template: str, lang: str, status_code: int = 200, **context
) -> HTMLResponse:
    path = request.url.path
    html = (
        environment(lang)
        .get_template(template)
        .render(
            request=request,
            path=path,
            switch_url=i18n.switch_path(path, "en" if lang == "zh" else "zh"),
            **context,
        )
    )
    return HTMLResponse(html, status_code=status_code, headers=PAGE_HEADERS)
