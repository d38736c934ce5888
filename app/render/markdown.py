"""Markdown text -> sanitised HTML. The only place HTML is made from content text.

Entry text comes from files, imports and (later) edits by people we do not know, so the
HTML that Markdown produces is cleaned with nh3 (the Ammonia sanitiser): no script, no
event handlers, no style, links forced to rel="nofollow noopener".
"""

from functools import lru_cache

import markdown as md
import nh3
from markupsafe import Markup

_TAGS = {
    "p",
    "br",
    "hr",
    "pre",
    "code",
    "kbd",
    "samp",
    "em",
    "strong",
    "del",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
_ATTRIBUTES = {"a": {"href", "title"}, "code": {"class"}, "th": {"align"}, "td": {"align"}}


@lru_cache(maxsize=4096)
def render_markdown(text: str | None) -> Markup:
    if not text:
        return Markup("")
    html = md.markdown(text, extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
    return Markup(
        nh3.clean(
            html,
            tags=_TAGS,
            attributes=_ATTRIBUTES,
            url_schemes={"http", "https", "mailto"},
            link_rel="nofollow noopener noreferrer",
        )
    )
