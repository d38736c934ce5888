"""Markdown text -> sanitised HTML. The only place HTML is made from content text.

Entry text comes from files, imports and (later) edits by people we do not know, so the
HTML that Markdown produces is cleaned with nh3 (the Ammonia sanitiser): no script, no
event handlers, no style, links forced to rel="nofollow noopener".
"""

import re
import threading
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


_CONVERTERS = threading.local()


def _converter() -> md.Markdown:
    """This thread's converter, made once: making one (its extensions, their patterns) took
    longer than converting a section, 0.15 of 0.40 ms. A converter is not thread-safe."""
    converter = getattr(_CONVERTERS, "markdown", None)
    if converter is None:
        converter = md.Markdown(extensions=["fenced_code", "tables", "sane_lists"], output_format="html")
        _CONVERTERS.markdown = converter
    return converter


@lru_cache(maxsize=4096)
def render_markdown(text: str | None) -> Markup:
    if not text:
        return Markup("")
    html = _converter().reset().convert(text)
    clean = nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )
    # A code block that scrolls sideways must be reachable by keyboard to be read.
    return Markup(clean.replace("<pre>", '<pre tabindex="0">'))


@lru_cache(maxsize=4096)
def render_inline(text: str | None) -> Markup:
    """One line of Markdown (a title, an action): `code` and emphasis, without the paragraph."""
    html = render_markdown(text)
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return Markup(html[3:-4])
    return html


_FENCE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n(.*?)\n\1\s*$", re.M | re.S)
COMMAND_LINES = 12


def first_code_block(text: str | None) -> str | None:
    """The first fenced code block of a Markdown text: a workaround's first command."""
    found = _FENCE.search(text or "")
    if found is None:
        return None
    lines = found.group(2).strip("\n").splitlines()
    return "\n".join(lines[:COMMAND_LINES]) + ("\n…" if len(lines) > COMMAND_LINES else "")
