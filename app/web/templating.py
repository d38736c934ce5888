"""Jinja environments, one per interface language, with gettext and locale filters installed."""

from collections.abc import Callable
from functools import cache, lru_cache

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, pass_eval_context, select_autoescape
from jinja2.nodes import EvalContext
from markupsafe import Markup

from app import i18n
from app.config import PROJECT_ROOT
from app.render.markdown import first_code_block, render_inline, render_markdown
from app.urls import domain_url, entry_url, section_anchor
from app.web.assets import static_url

# Pages run only errata's own script file (copy buttons); the policy makes injected markup
# inert should any slip through: no inline script, no other origin.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}


def _gettext(lang: str) -> Callable[..., str]:
    """Jinja's newstyle gettext (the words escaped, then the variables put in, escaped), for
    pages that mostly ask for words without a variable: Jinja's own formats every one and
    takes two calls more, which was a fifth of making an entry page."""
    translate = i18n.translations(lang).gettext
    marked = lru_cache(maxsize=2048)(lambda string: Markup(translate(string)))

    @pass_eval_context
    def gettext(eval_ctx: EvalContext, string: str, /, **variables) -> str:
        if not eval_ctx.autoescape:
            return translate(string) % variables
        words = marked(string)
        return words % variables if variables or "%" in words else words

    return gettext


@cache
def environment(lang: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(PROJECT_ROOT / "templates"),
        autoescape=select_autoescape(default=True),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        # Templates are read once: the ETag digests them as the process found them, and
        # checking each file's time on every render was a thirtieth of a page's making.
        auto_reload=False,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)
    env.globals["gettext"] = env.globals["_"] = _gettext(lang)
    env.filters.update(
        markdown=render_markdown,
        first_code=first_code_block,
        category=lambda v: i18n.category_label(v, lang),
        scope=lambda v: i18n.scope_label(v, lang),
        percent=lambda v: i18n.percent(v, lang),
        number=lambda v: i18n.number(v, lang),
        day=lambda v: i18n.day(v, lang),
        moment=lambda v: i18n.moment(v, lang),
        status=lambda v: i18n.status_label(v, lang),
        outcome=lambda v: i18n.outcome_label(v, lang),
        basis=lambda reports: i18n.rate_basis(reports, lang),
        verified=lambda record: i18n.verification_label(record, lang),
        pick=lambda text: text.pick(lang) if text else "",
        inline_md=render_inline,
        untranslated=lambda text: bool(text) and text.missing(lang),
    )
    env.globals.update(
        lang=lang,
        colon=i18n.colon(lang),
        html_lang=i18n.LANGUAGES[lang][1],
        entry_url=lambda entry_id, fmt="html", lang=lang: entry_url(entry_id, lang=lang, fmt=fmt),
        domain_url=lambda domain: domain_url(domain, lang=lang),
        section_anchor=section_anchor,
        home_url="/zh/" if lang == "zh" else "/",
        search_url="/zh/search" if lang == "zh" else "/search",
        static_url=static_url,
    )
    return env


def public_base(request: Request) -> str:
    """The site's origin as readers reach it: ERRATA_PUBLIC_URL behind a proxy, else the request's."""
    configured = request.app.state.settings.public_url
    return (configured or str(request.base_url)).rstrip("/")


def render_page(
    request: Request, template: str, lang: str, status_code: int = 200, **context
) -> HTMLResponse:
    path = request.url.path
    query = f"?{request.url.query}" if request.url.query else ""
    other = "en" if lang == "zh" else "zh"
    base = public_base(request)
    # Error pages exist in no language of their own: no canonical, no alternates.
    alternates = (
        {code: base + i18n.switch_path(path, code) + query for code in ("en", "zh")}
        if status_code == 200
        else None
    )
    html = (
        environment(lang)
        .get_template(template)
        .render(
            request=request,
            path=path,
            switch_url=i18n.switch_path(path, other) + query,
            canonical_url=base + path + query,
            alternates=alternates,
            **context,
        )
    )
    return HTMLResponse(html, status_code=status_code, headers=PAGE_HEADERS)
