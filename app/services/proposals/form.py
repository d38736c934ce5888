"""HTML forms -> change bodies, and a new entry's form prefilled from a paste."""

import re

# Per kind: the fields its form carries. Bilingual texts come as NAME_en and NAME_zh.
_PLAIN = {
    "signature": ("signature",),
    "variant": ("text", "versions", "locale"),
    "pattern": ("pattern",),
    "workaround": (),
    "dead_end": (),
    "version": ("component", "version", "status", "introduced", "deprecated"),
    "doc": ("title", "url"),
    "text": ("field", "lang", "text"),
    "new_entry": ("id", "domain", "category", "signature", "paste"),
}
_TEXTS = {
    "variant": ("note",),
    "workaround": ("title", "steps", "condition"),
    "dead_end": ("action", "why_fails", "condition"),
    "version": ("notes",),
    "new_entry": ("title", "summary", "root_cause"),
}


def _text(values: dict[str, str], name: str) -> dict | None:
    en = values.get(f"{name}_en", "").strip()
    zh = values.get(f"{name}_zh", "").strip()
    return {"en": en, "zh": zh or None} if en else None


def change_from_form(values: dict[str, str]) -> dict:
    """The change a form describes; empty inputs are left out, so validation names what is missing."""
    kind = values.get("kind", "")
    change: dict = {"kind": kind}
    for name in _PLAIN.get(kind, ()):
        value = values.get(name, "")
        if value.strip():
            # Signatures and patterns are verbatim; other one-line inputs lose stray spaces.
            change[name] = value if name in ("signature", "text", "paste") else value.strip()
    for name in _TEXTS.get(kind, ()):
        text = _text(values, name)
        if text:
            change[name] = text
    if kind == "new_entry":
        change["patterns"] = [
            line.strip() for line in values.get("patterns", "").splitlines() if line.strip()
        ]
        workaround = _text(values, "workaround_title")
        if workaround:
            change["workaround"] = {
                "kind": "workaround",
                "title": workaround,
                "steps": _text(values, "workaround_steps"),
            }
    return change


# `\w*`: an exception's name ends in the word (ValueError, NullPointerException).
_ERROR_LINE = re.compile(
    r"(?i)\b(\w*error|\w*exception|fatal|failed|denied|not found|refused|traceback)\b|错误|失败"
)


def prefill_from_paste(text: str) -> dict:
    """A starting point for a new entry: the line that reads most like the error as its signature."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    errors = [
        line for line in lines if _ERROR_LINE.search(line) and not line.lstrip().startswith("Traceback")
    ]
    # The last error line of a traceback is the exception itself.
    signature = (errors[-1] if errors else lines[0] if lines else "").strip()[:4000]
    return {"paste": text[:16000], "signature": signature}
