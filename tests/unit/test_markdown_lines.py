"""Texts of one-line paragraphs (their only syntax code spans) and fenced code blocks are
rendered without the Markdown converter: the HTML must be what the converter and the
cleaning make, byte for byte, and every other text must still go through them."""

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


# Texts of blocks as entries write them (one-line paragraphs, fenced commands), and with what
# would make Markdown read them otherwise: a fence ended early, blank lines of spaces,
# languages it does not take, blocks without a blank line between them.
_LINE = st.text(st.sampled_from(list("ab1 `_-<&\"'#*") + ["中", "\xa0"]), min_size=1, max_size=12)
_CODE_PIECES = list("ab `<>&\"'#~") + ["```", "``` ", "  ", "\t", "&#1"]
_CODE_LINE = st.lists(st.sampled_from(_CODE_PIECES), max_size=8).map("".join)
_FENCE = st.builds(
    lambda fence, language, lines: f"{fence}{language}\n" + "".join(f"{line}\n" for line in lines) + fence,
    st.sampled_from(["```", "````"]),
    st.sampled_from(["", "bash", "c++", ".py", "a b", "sh "]),
    st.lists(_CODE_LINE, max_size=4),
)
_BLOCKS = st.builds(
    lambda blocks, tail: "".join(block + gap for block, gap in blocks[:-1]) + blocks[-1][0] + tail,
    st.lists(
        st.tuples(_LINE | _FENCE, st.sampled_from(["\n\n", "\n", "\n\n\n", "\n \n"])), min_size=1, max_size=4
    ),
    st.sampled_from(["", "\n", "\n\n"]),
)
# Code spans holding what Markdown reads as HTML before it reads code.
_HTML_IN_CODE = st.lists(st.sampled_from(["a", " ", "`", "<!--", "--!>", "-->", "<!DOCTYPE x>"]), min_size=1)
TEXTS = (
    st.text(ALPHABET, min_size=1, max_size=24)
    | st.text(st.sampled_from("a `"), min_size=1, max_size=16)
    | _HTML_IN_CODE.map("".join)
    | _BLOCKS
)


@settings(max_examples=4000, deadline=None)
@given(TEXTS)
@example("a `b` c")
@example("` a `")
@example("``a`b``")
@example("`x`y`")
@example("`a``b`")
@example("x ```y`` z```")
@example("`a&amp;<b>` y")
@example("`&#1` and `a\\b`")
@example("Set CUDA_VISIBLE_DEVICES, not __init__ or a_b _c_")
@example("Browsers call `<!-- x --!>` an `incorrectly-closed-comment`")
@example("`<!--` ends at `--!>` too")
@example("1986. A good year")
@example("- not a paragraph")
@example("Run:\n\n```bash\npip install -U x  # <b>\n```\n")
@example("```bash\na\n``` \nb\n```")
@example("```\n  \n```")
def test_a_text_made_directly_is_what_the_converter_makes(text):
    direct = markdown._direct(text)
    if direct is not None:
        assert direct == markdown._converted(text)


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
    direct = [t for t in texts if markdown._direct(t) is not None]
    # Most of an entry's texts are one-line paragraphs and fenced commands.
    assert len(direct) > len(texts) / 2
    for text in direct:
        assert markdown._direct(text) == markdown._converted(text), text


def test_texts_with_other_syntax_still_go_through_the_converter():
    for text in ("**bold**", "a [link](https://example.com)", "two\nlines", "    indented", "a <b>tag</b>"):
        assert markdown._direct(text) is None
    assert str(markdown.render_markdown("`x` and *y*")) == "<p><code>x</code> and <em>y</em></p>"
    assert str(markdown.render_inline("Set `gpu_memory_utilization` lower")) == (
        "Set <code>gpu_memory_utilization</code> lower"
    )
