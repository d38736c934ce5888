"""One-line texts whose only syntax is code spans are rendered without the Markdown converter:
the HTML must be what the converter and the cleaning make, byte for byte, and every other
text must still go through them."""

from pathlib import Path

import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.render import markdown

DATA = Path(__file__).resolve().parents[2] / "data"

# Letters, digits and every character Markdown or the cleaning treat specially, often enough
# that most generated texts hold several.
ALPHABET = st.sampled_from(
    list("ab1 `") + list("\\*_[]()<>&#+-=~|!.:;'\"{}") + ["\t", "\n", "\r", "\xa0", "\x00", "中", "é"]
)


def _converted(text: str) -> str:
    """What the converter and the cleaning make of `text` (the path every other text takes)."""
    markdown.render_markdown.cache_clear()
    saved, markdown._paragraph = markdown._paragraph, lambda _text: None
    try:
        return str(markdown.render_markdown(text))
    finally:
        markdown._paragraph = saved
        markdown.render_markdown.cache_clear()


@settings(max_examples=3000, deadline=None)
@given(st.text(ALPHABET, min_size=1, max_size=24) | st.text(st.sampled_from("a `"), min_size=1, max_size=16))
@example("a `b` c")
@example("` a `")
@example("``a`b``")
@example("`x`y`")
@example("`a``b`")
@example("x ```y`` z```")
@example("`a&amp;<b>` y")
@example("`&#1` and `a\\b`")
@example("Set CUDA_VISIBLE_DEVICES, not __init__ or a_b _c_")
@example("1986. A good year")
@example("- not a paragraph")
def test_a_line_made_directly_is_what_the_converter_makes(text):
    direct = markdown._paragraph(text)
    if direct is not None:
        assert direct == _converted(text)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def test_the_shipped_entries_texts_render_as_the_converter_renders_them():
    texts = {t for path in DATA.rglob("*.yaml") for t in _texts(yaml.safe_load(path.read_text())) if t}
    direct = {t: html for t in texts if (html := markdown._paragraph(t)) is not None}
    # Most of an entry's one-line texts are plain or hold code spans only.
    assert len(direct) > len(texts) / 3
    for text, html in direct.items():
        assert html == _converted(text), text


def test_texts_with_other_syntax_still_go_through_the_converter():
    for text in ("**bold**", "a [link](https://example.com)", "two\nlines", "    indented", "a <b>tag</b>"):
        assert markdown._paragraph(text) is None
    assert str(markdown.render_markdown("`x` and *y*")) == "<p><code>x</code> and <em>y</em></p>"
    assert str(markdown.render_inline("Set `gpu_memory_utilization` lower")) == (
        "Set <code>gpu_memory_utilization</code> lower"
    )
