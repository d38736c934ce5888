"""Markdown text -> sanitised HTML. The only place HTML is made from content text.

Entry text comes from files, imports and (later) edits by people we do not know, so the
HTML that Markdown produces is cleaned with nh3 (the Ammonia sanitiser): no script, no
event handlers, no style, links forced to rel="nofollow noopener". The texts written
directly (`_direct`) hold no `<`, `>` or `&` outside code, and their code is escaped: no
markup comes of them.
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


# Characters the cleaning writes otherwise, or cannot take (controls, line breaks, no-break
# space, lone surrogates); and with them what Markdown reads as syntax anywhere in a line:
# escapes, code, emphasis, links, HTML and entities. An underscore inside a word
# (CUDA_VISIBLE_DEVICES) starts no emphasis: only one that follows no letter, digit or
# underscore may.
_UNWRITTEN_BUT_LINE_BREAKS = r"\x00-\x09\x0b-\x1f\x7f\xa0\ud800-\udfff"
_UNWRITTEN = _UNWRITTEN_BUT_LINE_BREAKS + r"\n"
_SYNTAX = re.compile(rf"[\\`*\[\]<>&{_UNWRITTEN}]|(?<!\w)_")
# Code is escaped as it stands, but for a numeric reference ("&#1"), which Markdown completes,
# and `<!`, which its reading of HTML sees first (a comment ended by `--!>` loses the `!`).
_CODE = re.compile(rf"(?:[^&<{_UNWRITTEN}]|&(?!#)|<(?!!))*")
# What makes a line a block of another kind by how it begins: indented code, a list, a
# heading, a quote, a rule, a fence.
_BLOCK_START = re.compile(r"\s|[-+#>=~]|\d+\.")
_BACKTICKS = re.compile(r"(`+)")
_CODE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
# A fence's first line: backticks and a language, or none.
_FENCE_OPENING = re.compile(r"(`{3,})([A-Za-z0-9_+#-][A-Za-z0-9_#.+-]*)?\n")
# What a fenced block may hold: no tab (Markdown expands it), nothing unwritten but line breaks.
_FENCED_CODE = re.compile(rf"[^{_UNWRITTEN_BUT_LINE_BREAKS}]*")
_BLANK_LINES = re.compile(r"\n\n+")


def _paragraph(line: str) -> str | None:
    """The HTML of one line whose only syntax is code spans; None for any other line. Only
    spans that every Markdown version reads alike: each run of backticks closed by the next,
    as long."""
    if not line or _BLOCK_START.match(line) or line[-1].isspace():
        return None
    # text, then (opening run, code, closing run, text) for each code span
    parts = _BACKTICKS.split(line)
    if len(parts) % 4 != 1 or any(_SYNTAX.search(plain) for plain in parts[::4]):
        return None
    html = ["<p>", parts[0]]
    for at in range(1, len(parts), 4):
        opening, code, closing, after = parts[at : at + 4]
        if opening != closing or not _CODE.fullmatch(code):
            return None
        html += ["<code>", code.strip().translate(_CODE_ESCAPES), "</code>", after]
    html.append("</p>")
    return "".join(html)


def _fenced(text: str, at: int) -> tuple[str, int] | None:
    """(HTML, where the text goes on) of the fenced code block at `at`: closed by its fence
    alone on a line; no line of only spaces (Markdown empties it) nor one that a fence with
    spaces after it ends (Markdown ends the block there); None otherwise."""
    opening = _FENCE_OPENING.match(text, at)
    if opening is None:
        return None
    fence, language = opening.groups()
    start = line = opening.end()
    while True:
        end = text.find("\n", line)
        if end == -1:
            end = len(text)
        row = text[line:end]
        if row == fence:
            break
        if end == len(text) or (row and not row.strip(" ")) or row.rstrip(" ") == fence:
            return None
        line = end + 1
    code = text[start:line]
    if not _FENCED_CODE.fullmatch(code):
        return None
    head = f'<pre><code class="language-{language}">' if language else "<pre><code>"
    return head + code.translate(_CODE_ESCAPES) + "</code></pre>", end


def _direct(text: str) -> str | None:
    """The HTML that Markdown and the cleaning make of a text of one-line paragraphs (their
    only syntax code spans) and fenced code blocks, one after another with blank lines
    between, made directly; None for any other text. Titles, actions, one-sentence fixes and
    a command in a block are most of what an entry page converts, and the converter's fixed
    cost (about 90 microseconds) was most of each."""
    blocks, at, size = [], 0, len(text.rstrip("\n"))
    while True:
        if text.startswith("```", at):
            found = _fenced(text, at)
            if found is None:
                return None
            html, at = found
        else:
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            html = _paragraph(text[at:end])
            if html is None:
                return None
            at = end
        blocks.append(html)
        if at >= size:
            return "\n".join(blocks)
        gap = _BLANK_LINES.match(text, at)
        if gap is None:
            return None
        at = gap.end()


def _converted(text: str) -> str:
    """The HTML that Markdown and the cleaning make of `text`."""
    return nh3.clean(
        _converter().reset().convert(text),
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="nofollow noopener noreferrer",
    )


@lru_cache(maxsize=4096)
def render_markdown(text: str | None) -> Markup:
    if not text:
        return Markup("")
    clean = _direct(text)
    if clean is None:
        clean = _converted(text)
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
