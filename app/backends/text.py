"""Helpers both search backends share: CJK character pairs, marked snippets, page counts."""

import re
from functools import lru_cache

HIGHLIGHT_START, HIGHLIGHT_END = "\x02", "\x03"
CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
MIN_TRIGRAM = 3
_WORD = re.compile(r"[^\W_]+")  # a token of FTS5's unicode61: letters and digits
_FIRST = 16  # where to show the terms is chosen among the first matches of each: a common word
# ("a", "of") may be in every line of a long text


def cjk_pairs(text: str) -> list[str]:
    """Every pair of adjacent CJK characters (a lone character stands for itself)."""
    pairs: list[str] = []
    for run in CJK_RUN.findall(text):
        pairs += [run[i : i + 2] for i in range(max(1, len(run) - 1))]
    return pairs


def indexed_pairs(text: str) -> str:
    """A field's pairs as both backends index them: every one, as often as the text holds it
    (bm25 and ts_rank count them), separated by spaces."""
    return " ".join(cjk_pairs(text))


def term_pairs(term: str) -> list[str]:
    """The pairs a Chinese term matches by, each once: a row holds the term where it holds all."""
    return list(dict.fromkeys(cjk_pairs(term)))


def substring_terms(terms: list[str]) -> list[str]:
    """The terms a substring search matches, and marks, by: those of a trigram or more."""
    return [t for t in terms if len(t) >= MIN_TRIGRAM]


def split_scripts(terms: list[str]) -> tuple[list[str], list[str]]:
    """(Latin-script terms, terms holding Chinese): the second are matched by character pairs."""
    return [t for t in terms if not CJK_RUN.search(t)], [t for t in terms if CJK_RUN.search(t)]


@lru_cache(maxsize=256)  # a page's snippets are of one query
def _term_patterns(terms: tuple[str, ...], whole_words: bool) -> tuple[tuple[str, re.Pattern, bool], ...]:
    """(first word, pattern for lower-case text, whole word?) of each term that has one."""
    return tuple(p for p in (_term_pattern(t, whole_words) for t in terms) if p is not None)


@lru_cache(maxsize=4096)  # by term, not by query: new queries are mostly of words asked before
def _term_pattern(term: str, whole_words: bool) -> tuple[str, re.Pattern, bool] | None:
    """A Latin-script term in a word search is matched as the index matched it: whole words,
    its parts joined by any separator but a line break (gpu_memory_utilization is also
    gpu-memory-utilization; a snippet keeps to one line); Chinese, or any term in a substring
    search, anywhere. The pattern starts with the term itself, never a look-behind or an
    alternation, so the regex engine jumps to where it can begin. None for a term with no
    letter or digit in a word search."""
    if whole_words and not CJK_RUN.search(term):
        parts = _WORD.findall(term.lower())
        if not parts:
            return None
        joined = r"(?:[^\w\n]|_)+".join(map(re.escape, parts))
        return parts[0], re.compile(joined + r"(?![^\W_])"), True
    return term.lower(), re.compile(re.escape(term.lower())), False


def lowered(text_: str) -> str:
    """The text in lower case, as long as it is, so that offsets in one hold in the other."""
    lower = text_.lower()
    if len(lower) != len(text_):  # a letter whose lower case is longer: keep it, so offsets hold
        lower = "".join(c if len(c.lower()) > 1 else c.lower() for c in text_)
    return lower


def _found(
    lower: str, patterns: tuple[tuple[str, re.Pattern, bool], ...], limit: int | None = _FIRST
) -> list[tuple[int, int, int]]:
    """(start, end, term) of the first `limit` matches of each term in a lowered text, in
    text order (all of them with None); a match that overlaps one kept before it is left out."""
    found = []
    for term, (first, pattern, whole) in enumerate(patterns):
        if first not in lower:  # far cheaper than starting the regex engine
            continue
        kept = 0
        for match in pattern.finditer(lower):
            start = match.start()
            if whole and start and lower[start - 1].isalnum():
                continue
            found.append((start, match.end(), term))
            kept += 1
            if kept == limit:
                break
    found.sort()
    kept, end = [], 0
    for match in found:
        if match[0] >= end:
            kept.append(match)
            end = match[1]
    return kept


def _line_end(text_: str, at: int) -> int:
    """Where the line holding offset `at` ends (before its line break, and a CR before it)."""
    end = text_.find("\n", at)
    end = len(text_) if end == -1 else end
    return end - 1 if end > at and text_[end - 1] == "\r" else end


def _lines(
    lower: str, patterns: tuple[tuple[str, re.Pattern, bool], ...], *, short: bool
) -> list[tuple[int, int, list[tuple[int, int, int]]]]:
    """(start, end, matches) of each line of a lowered text that holds a match, in text order,
    the matches' offsets in the text. In a long text only the first matches of each term are
    looked for, as a common word may be in every line (_FIRST); a line that lacks a term cut
    short that way is looked through again, whole."""
    found = _found(lower, patterns, limit=None if short else _FIRST)
    if not found or "\n" not in lower:
        return [(0, len(lower), found)] if found else []
    lines: list[tuple[int, int, list[tuple[int, int, int]]]] = []
    for match in found:
        if lines and match[0] < lines[-1][1]:
            lines[-1][2].append(match)
        else:
            lines.append((lower.rfind("\n", 0, match[0]) + 1, _line_end(lower, match[0]), [match]))
    if short or len(found) < _FIRST:
        return lines
    counts: dict[int, int] = {}
    for _, _, term in found:
        counts[term] = counts.get(term, 0) + 1
    cut = {term for term, count in counts.items() if count == _FIRST}
    if not cut:
        return lines
    return [
        (start, end, held)
        if cut <= {term for _, _, term in held}
        else (start, end, [(a + start, b + start, t) for a, b, t in _found(lower[start:end], patterns, None)])
        for start, end, held in lines
    ]


def _best_window(found: list[tuple[int, int, int]], span: int) -> tuple[int, int]:
    """(distinct terms, offset of its first match) of the first window of a line that holds
    the most of them; `found`: the line's matches, in order; `span`: what may follow a
    window's first match."""
    most, start = 0, 0
    inside: dict[int, int] = {}  # term -> its matches in the window from `at`
    following = 0
    for at, _, term in found:
        while following < len(found) and found[following][0] < at + span:
            inside[found[following][2]] = inside.get(found[following][2], 0) + 1
            following += 1
        if len(inside) > most:
            most, start = len(inside), at
        inside[term] -= 1
        if not inside[term]:
            del inside[term]
    return most, start


def _holding_all(
    low: str, patterns: tuple[tuple[str, re.Pattern, bool], ...], held: list[str], size: int, span: int
) -> tuple[int, int, int, list[tuple[int, int, int]]] | None:
    """(line start, line end, window start, the line's matches in its own offsets) of the
    first line of a lowered text with a window holding every term whose first word the text
    holds (`held`, one at least); None where no line has one. Only the lines holding the
    rarest of those words are looked at: in a long body, a few of its many lines."""
    rare = min(held, key=low.count) if len(held) > 1 else held[0]
    at = low.find(rare)
    while at != -1:
        start, last = low.rfind("\n", 0, at) + 1, _line_end(low, at)
        line = low[start:last]
        if all(map(line.__contains__, held)):
            found = _found(line, patterns, limit=None)
            distinct, first = (
                (len({term for _, _, term in found}), 0) if len(line) <= size else _best_window(found, span)
            )
            if distinct == len(held):
                return start, last, start + first, found
        at = low.find(rare, last + 1)
    return None


def marked_snippet(
    texts: tuple[str, ...],
    terms: list[str],
    *,
    whole_words: bool,
    width: int = 60,
    lower: tuple[str, ...] | None = None,
) -> str:
    """The window of about 2 x `width` characters where the most distinct terms are found
    together, in the first of `texts` that has the most, its matches marked as FTS5's
    snippet() marks them; cut at spaces, with an ellipsis where text of its line was left
    out. A window keeps to one line: the lines of a text are parts of their own (a title in
    English, in Chinese, the entry's id; a section of the body). A line that fits in the
    window (most signatures and titles) is shown whole. `lower`: the texts already
    `lowered`, where the caller keeps them.

    In a long text (a body), the lines holding the rarest of the words it holds are tried
    first: a window holding them all is its best; where none does, a text that one term
    fewer cannot make better than the best so far is not searched line by line. Searching
    every line of bodies was most of a snippet's work where the signature lacks a term."""
    patterns = _term_patterns(tuple(terms), whole_words)
    size = 2 * width
    span = size - width // 2  # what may follow the window's first match
    # (distinct terms, text, line start, line end, window start)
    best: tuple[int, int, int, int, int] | None = None
    marks: list[tuple[int, int, int]] | None = None  # the best line's matches, when all are known
    for n, text_ in enumerate(texts):
        if not patterns or best is not None and best[0] == len(patterns):
            break  # every term in one window: no later window can do better
        low = lower[n] if lower else lowered(text_)
        most = best[0] if best else 0
        held = [first for first, _, _ in patterns if first in low]  # every match begins with one
        if len(held) <= most:
            continue  # a window of this text holds no more distinct terms than the text does
        short = len(text_) <= size  # its matches all found: they mark it
        if not short:  # first the line holding every term the text holds, where one does
            line = _holding_all(low, patterns, held, size, span)
            if line is not None:
                first, last, start, found = line
                best = (len(held), n, first, last, start)
                marks = (
                    [(a + first, b + first, term) for a, b, term in found] if last - first <= size else None
                )
                continue
            if len(held) - 1 <= most:
                continue  # no line holds all of them: none holds more than `most`
        for first, last, found in _lines(low, patterns, short=short):
            if last - first <= size:
                distinct = len({term for _, _, term in found})
                if best is None or distinct > best[0]:
                    best, marks = (distinct, n, first, last, first), found if short else None
                continue
            distinct, start = _best_window(found, span)
            if best is None or distinct > best[0]:
                best, marks = (distinct, n, first, last, start), None
    if best is None:  # no match: the first line of the first text that holds anything
        first = len(texts[0]) - len(texts[0].lstrip("\r\n"))
        best = (0, 0, first, _line_end(texts[0], first), first)
    _, n, first, last, start = best
    line = texts[n][first:last]
    if len(line) <= size:
        if marks is None:
            return _marked(line, _found(lowered(line), patterns, limit=None))
        return _marked(line, [(a - first, b - first, term) for a, b, term in marks])
    start = max(0, start - first - width // 2)
    return _window(line, lower[n][first:last] if lower else None, start, start + size, patterns)


def _window(
    text_: str, lower: str | None, start: int, end: int, patterns: tuple[tuple[str, re.Pattern, bool], ...]
) -> str:
    if start > 0:  # begin and end at a space, so no word is cut
        space = text_.find(" ", start, start + 20)
        start = space + 1 if space != -1 else start
    if end < len(text_):
        space = text_.rfind(" ", max(start, end - 20), end)
        end = space if space != -1 else end
    window = text_[start:end]
    marked = lower[start:end] if lower is not None else lowered(window)
    return (
        ("…" if start else "")
        + _marked(window, _found(marked, patterns, limit=None))
        + ("…" if end < len(text_) else "")
    )


def _marked(text_: str, found: list[tuple[int, int, int]]) -> str:
    """`text_` with its matches `found` (start, end, term; in order, none overlapping) marked."""
    parts, at = [], 0
    for match_start, match_end, _ in found:
        parts += [text_[at:match_start], HIGHLIGHT_START, text_[match_start:match_end], HIGHLIGHT_END]
        at = match_end
    parts.append(text_[at:])
    return "".join(parts)


def total_of_page(rows: list, limit: int, offset: int) -> int | None:
    """How many match in all, when a page of results says so itself (it is the last one, not
    full), so the count query can be skipped; None when only counting can tell."""
    if rows and len(rows) < limit or not rows and offset == 0:
        return offset + len(rows)
    return None
