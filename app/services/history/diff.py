"""A readable diff of two versions of an entry's content: field by field, word by word.

Content is flattened into labelled texts (`title.zh`, `workarounds[swap].steps.en`,
`patterns[2]`), so a change reads as "this field, these words", in both languages.
Nothing here is markup: the templates escape every piece.
"""

import difflib
import re
from typing import Literal

from pydantic import BaseModel

Op = Literal["same", "del", "ins"]
# Bookkeeping that a reader's change never makes and a diff need not show.
_SKIP = {"verification"}


class Segment(BaseModel):
    op: Op
    text: str


class FieldDiff(BaseModel):
    path: str
    field: str = ""  # the top-level field, for grouping
    lang: str | None = None  # en | zh for bilingual text
    old: str | None
    new: str | None
    segments: list[Segment]


def _label(item: dict, index: int) -> str:
    return str(item.get("id") or index + 1)


def flatten(content: dict) -> dict[str, str]:
    """Every leaf of the content as text under a readable path, in document order."""
    out: dict[str, str] = {}

    def walk(path: str, value) -> None:
        if value is None or value == [] or value == {}:
            return
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{path}.{key}" if path else key, inner)
        elif isinstance(value, list):
            for n, inner in enumerate(value):
                label = _label(inner, n) if isinstance(inner, dict) else str(n + 1)
                walk(f"{path}[{label}]", inner)
        else:
            out[path] = (
                value
                if isinstance(value, str)
                else str(value).lower()
                if isinstance(value, bool)
                else str(value)
            )

    walk("", {k: v for k, v in content.items() if k not in _SKIP})
    return out


_TOKEN = re.compile(r"\s+|[\u3000-\u9fff\uff00-\uffef]|[^\s\u3000-\u9fff\uff00-\uffef]+")


def _tokens(text: str) -> list[str]:
    # Words for Latin text, one character each for Chinese (it has no spaces between words).
    return _TOKEN.findall(text)


# Below this share of words in common, a rewrite reads better as the old text, then the new.
REWRITE_RATIO = 0.5


def word_diff(old: str, new: str) -> list[Segment]:
    a, b = _tokens(old), _tokens(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < REWRITE_RATIO:
        return [Segment(op="del", text=old), Segment(op="ins", text=new)]
    segments: list[Segment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            segments.append(Segment(op="same", text="".join(a[i1:i2])))
            continue
        if i2 > i1:
            segments.append(Segment(op="del", text="".join(a[i1:i2])))
        if j2 > j1:
            segments.append(Segment(op="ins", text="".join(b[j1:j2])))
    return segments


def _lang(path: str) -> str | None:
    tail = path.rsplit(".", 1)[-1]
    return tail if tail in ("en", "zh") else None


def diff(old: dict | None, new: dict) -> list[FieldDiff]:
    """What differs between two contents (old None: everything is new), in the new one's order."""
    before, after = flatten(old or {}), flatten(new)
    paths = list(after) + [p for p in before if p not in after]
    changes = []
    for path in paths:
        a, b = before.get(path), after.get(path)
        if a == b:
            continue
        if a is None:
            segments = [Segment(op="ins", text=b)]
        elif b is None:
            segments = [Segment(op="del", text=a)]
        else:
            segments = word_diff(a, b)
        field = re.split(r"[.\[]", path, maxsplit=1)[0]
        changes.append(FieldDiff(path=path, field=field, lang=_lang(path), old=a, new=b, segments=segments))
    return changes


def changed_fields(old: dict | None, new: dict) -> list[str]:
    """The top-level fields that differ, in the new content's order."""
    return list(dict.fromkeys(c.field for c in diff(old, new)))
