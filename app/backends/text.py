"""Helpers both search backends share: CJK character pairs, marked snippets, page counts."""

import re

HIGHLIGHT_START, HIGHLIGHT_END = "\x02", "\x03"
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
MIN_TRIGRAM = 3


def cjk_pairs(text: str) -> list[str]:
    """Every pair of adjacent CJK characters (a lone character stands for itself)."""
    pairs: list[str] = []
    for run in CJK_RUN.findall(text):
        pairs += [run[i : i + 2] for i in range(max(1, len(run) - 1))]
    return pairs


def split_scripts(terms: list[str]) -> tuple[list[str], list[str]]:
    """(Latin-script terms, terms holding Chinese): the second are matched by character pairs."""
    return [t for t in terms if not CJK_RUN.search(t)], [t for t in terms if CJK_RUN.search(t)]


def marked_snippet(texts: tuple[str, ...], terms: list[str], width: int = 60) -> str:
    """A snippet around the first term found, terms marked as FTS5's snippet() would mark them."""
    for text_ in texts:
        lower = text_.lower()
        hits = [(lower.find(t.lower()), t) for t in terms if t.lower() in lower]
        if hits:
            start = max(0, min(h[0] for h in hits) - width // 2)
            window = text_[start : start + width * 2]
            pattern = re.compile("|".join(re.escape(t) for _, t in hits), re.I)
            marked = pattern.sub(lambda m: f"{HIGHLIGHT_START}{m.group(0)}{HIGHLIGHT_END}", window)
            return ("…" if start else "") + marked + ("…" if start + width * 2 < len(text_) else "")
    return texts[0][: width * 2]


def total_of_page(rows: list, limit: int, offset: int) -> int | None:
    """How many match in all, when a page of results says so itself (it is the last one, not
    full), so the count query can be skipped; None when only counting can tell."""
    if rows and len(rows) < limit or not rows and offset == 0:
        return offset + len(rows)
    return None
