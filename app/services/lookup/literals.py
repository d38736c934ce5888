"""The text a pattern cannot match without: looked for before the pattern is compiled.

A lookup tries the patterns of its best candidates, and at a large base most of them have
not been compiled lately (compiling one costs more than all the word arithmetic of a
candidate). Nearly every pattern spells out words a match must hold; a paste without them
cannot match, so the pattern is never compiled. A pattern that is nothing but text, matched
case for case, is answered by looking for that text.

The reading is conservative: whatever this module cannot be sure a match holds, it leaves
out, so a pattern it rejects never matches (`tests/unit/test_pattern_literals.py` checks
that against RE2 on generated patterns).
"""

import re
from dataclasses import dataclass
from functools import lru_cache

_REPEAT = re.compile(r"\{\d*(?:,\d*)?\}")  # a{2}, a{2,}, a{2,5}
_FLAGS = re.compile(r"\(\?[a-zA-Z-]*\)")  # (?i), (?-s): they change how the rest matches


@dataclass(frozen=True, slots=True)
class Needles:
    # One tuple for each way of matching (top-level alternative): text every such match
    # holds, case-folded when `folded`. Empty when nothing is known: the pattern may match.
    options: tuple[tuple[str, ...], ...]
    folded: bool  # the pattern may ignore case: look in the case-folded text
    whole: bool  # the pattern is options[0][0] and nothing else: finding it is the match


_NOTHING_KNOWN = Needles((), False, False)


def _skip_escape(pattern: str, at: int) -> int:
    r"""Where the escape at `at` (a backslash and a letter or digit) ends: \x41, \x{41},
    \pL, \p{Greek}, \123 take more characters than two."""
    letter = pattern[at + 1 : at + 2]
    end = at + 2
    if letter in ("x", "p", "P"):
        if pattern[end : end + 1] == "{":
            close = pattern.find("}", end)
            return len(pattern) if close == -1 else close + 1
        return end + (2 if letter == "x" else 1)
    if letter.isdigit():
        while end < len(pattern) and end < at + 4 and pattern[end].isdigit():
            end += 1
    return end


def _skip_class(pattern: str, at: int) -> int:
    """Where the character class opened at `at` ends (after its "]"); [:alpha:] inside it
    and a leading "]" are part of it."""
    end = at + 1
    if pattern[end : end + 1] == "^":
        end += 1
    if pattern[end : end + 1] == "]":
        end += 1
    while end < len(pattern):
        char = pattern[end]
        if char == "\\":
            end += 2
        elif char == "[" and pattern[end + 1 : end + 2] == ":":
            close = pattern.find(":]", end + 2)
            end = len(pattern) if close == -1 else close + 2
        elif char == "]":
            return end + 1
        else:
            end += 1
    return end


def _closing(pattern: str, at: int) -> int:
    """Where the group opened at `at` closes, or -1."""
    depth, end = 0, at
    while end < len(pattern):
        char = pattern[end]
        if char == "\\":
            end = _skip_escape(pattern, end) if pattern[end + 1 : end + 2].isalnum() else end + 2
            continue
        if char == "[":
            end = _skip_class(pattern, end)
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return end
        end += 1
    return -1


_GROUP_OPENING = re.compile(r"\((?:\?:|\?P?<\w+>|\?([a-zA-Z-]*):)?")


def _alternatives(pattern: str) -> tuple[list[list[str]], bool] | None:
    """The runs of plain text of each top-level alternative that no quantifier makes
    optional (a group's insides may be optional, so they are not read), and whether the
    pattern is plain text and nothing else; None where nothing is known of an alternative.

    Not lookup.text.alternatives: that one also spreads an inner group over the text around
    it, which is right for indexing words but not for what a match must hold ("a(bc|d)?e")."""
    options: list[list[str]] = [[]]
    run: list[str] = []
    depth = 0
    plain = True  # nothing but text so far
    at = 0

    def cut() -> None:
        if run:
            options[-1].append("".join(run))
            run.clear()

    while at < len(pattern):
        char = pattern[at]
        repeat = _REPEAT.match(pattern, at) if char == "{" else None
        if char == "\\":
            escaped = pattern[at + 1 : at + 2]
            if escaped and not escaped.isalnum() and escaped.isascii():
                if depth == 0:
                    run.append(escaped)
                at += 2
                continue
            end = _skip_escape(pattern, at)
        elif char == "[":
            end = _skip_class(pattern, at)
        elif char == "(":
            depth += 1
            end = at + 1
        elif char == ")":
            depth = max(0, depth - 1)
            end = at + 1
        elif char == "|" and depth == 0:
            cut()
            options.append([])
            end = at + 1
        elif char in "?*" or repeat:
            if depth == 0 and run:
                run.pop()  # the character before may be left out
            end = repeat.end() if repeat else at + 1
        elif char in "+^$.{}]|":
            end = at + 1
        else:
            if depth == 0:
                run.append(char)
            at += 1
            continue
        plain = False
        if depth == 0:
            cut()
        at = end
    cut()
    if not all(options):
        return None
    return options, plain


# Kept for the patterns in use, as compiled ones are (index.compiled), but eight times as
# many: reading one costs about 13 µs (a third of compiling it) and it takes about 450 bytes.
@lru_cache(maxsize=8192)
def needles(pattern: str) -> Needles:
    """What each way of matching the pattern must hold; nothing is known of a pattern with
    a \\Q...\\E quote. A pattern that is one group (one alternation in parentheses) is
    read as its inside."""
    if "\\Q" in pattern:
        return _NOTHING_KNOWN
    folded = any("i" in flags for flags in _FLAGS.findall(pattern))
    body = pattern
    while body.startswith("(") and _closing(body, 0) == len(body) - 1:
        opening = _GROUP_OPENING.match(body)  # always matches: the body starts with "("
        if body[opening.end() : opening.end() + 1] == "?":
            break  # (?i) alone, or a kind of group this does not read
        folded = folded or "i" in (opening.group(1) or "")
        body = body[opening.end() : -1]
    read = _alternatives(body)
    if read is None:
        return _NOTHING_KNOWN
    options, plain = read
    if folded:
        # Only ASCII runs: their case-folded forms cover every character RE2 takes for them
        # ignoring case (K for k, ſ for s); other scripts' folding is not checked here.
        options = [[r.casefold() for r in runs if r.isascii()] for runs in options]
        if not all(options):
            return _NOTHING_KNOWN
    whole = plain and body == pattern and not folded and len(options) == 1 and len(options[0]) == 1
    return Needles(tuple(tuple(runs) for runs in options), folded, whole)


class Haystack:
    """A paste's text, and its case-folded form once a pattern asks for it."""

    __slots__ = ("text", "_folded")

    def __init__(self, text: str) -> None:
        self.text = text
        self._folded: str | None = None

    def holds(self, found: Needles) -> bool:
        if not found.options:
            return True
        if found.folded:
            if self._folded is None:
                self._folded = self.text.casefold()
            haystack = self._folded
        else:
            haystack = self.text
        return any(all(run in haystack for run in runs) for runs in found.options)
