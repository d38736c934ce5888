"""Reading pasted output: which lines carry the error, and what varies between occurrences.

Pure text functions, shared by the lookup index (for signatures and patterns) and by
lookups (for what users paste), so both sides are normalised the same way.
"""

import re
from dataclasses import dataclass

import re2

from app.services.lookup.locale_messages import english_equivalents

MAX_LINES = 400
MAX_LINE = 1000

_CASELESS = re2.Options()
_CASELESS.case_sensitive = False

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_TIMESTAMP = re.compile(
    r"\b\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b"
    r"|\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun),? \w{3} \d{1,2}\b"
)
# Each with text that every match of it holds: a paste without it skips the pattern (most
# pastes hold no URL, e-mail address or hex address, and a search costs more than the check).
_REPLACEMENTS = [
    (re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I), ("://",)),  # URLs
    (re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b"), ("@",)),  # e-mail and git@host
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I), ("-",)),
    (re.compile(r"\b0x[0-9a-f]+\b", re.I), ("0x", "0X")),  # addresses
    (re.compile(r"\b[0-9a-f]{7,64}\b"), ()),  # hashes, ids
    (re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@~+-]+){2,}[\\/]?"), ("/", "\\")),  # paths, both slashes
    (re.compile(r"\b\d+(?:\.\d+)+(?:[-.]?\w+)?\b"), (".",)),  # versions, IPs, decimals
    (re.compile(r"\b\d+\b"), ()),  # numbers
]
# A quoted name ('requests', "users", `FLASH'): one word, which varies between occurrences.
# Quoted phrases are messages (JSON and logfmt logs quote the error itself) and stay words.
_QUOTED = re.compile(
    r"'([^'\s]{1,80})'|\"([^\"\s]{1,80})\"|‘([^’\s]{1,80})’|“([^”\s]{1,80})”|`([^`'\s]{1,80})'"
)
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")

# What makes a line the one that carries the error, strongest first.
_EXCEPTION_LINE = re.compile(
    r"^\s*(?:[\w.]+[.:])?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Fault|Warning|Failure)\b"
    r"|^\s*(?:error|fatal|panic|FATAL|ERROR|Error|E\d{4})\b"
    r"|^\s*(?:npm (?:ERR!|error)|yarn error|error\[E\d+\]|thread '.*' panicked)"
)
# Words that name a failure, looked for in every line of a paste. RE2 reads a line once
# whatever the number of words; Python's re tried each of them at every character, a tenth of
# ranking a paste. RE2's \b knows ASCII letters only: a word's edge is spelled out, with the
# letters, digits and underscore of Python's \w (case-sensitive, so that no other character
# folds into a letter).
_EDGE, _EDGE_END = r"(?-i:^|[^\pL\pN_])", r"(?-i:$|[^\pL\pN_])"
_ERROR_WORDS = re2.compile(
    r"error|exception|fatal|fail|denied|refused|cannot|can't|couldn't|unable|could not"
    rf"|{_EDGE}not{_EDGE_END}|{_EDGE}no{_EDGE_END}|n't{_EDGE_END}"
    r"|invalid|illegal|timeout|timed out|killed|panic|abort|unsupported|mismatch|conflict|reject"
    r"|overflow|too (?:big|large|long|many)|out of memory|oom|exceed|insufficient|missing|undefined"
    r"|unknown|unexpected|traceback|crash|corrupt|violat|warning|unauthori[sz]ed|forbidden|permission"
    r"|blocked|insecure|refus"
    r"|错误|失败|拒绝|无法|不存在|没有",
    options=_CASELESS,
)
_FRAME = re.compile(r'^\s*(?:File ".*", line \d+|at [\w$.<>]+\(.*\)|#\d+\s+0x[0-9a-fA-F]+ in )')
# Prefixes that tools put before every line: BuildKit's "#9 0.612", compose's "web-1  | ".
_LINE_PREFIX = re.compile(r"^(?:#\d+ (?:\d+\.\d+ |(?=ERROR|\[))|[\w.-]+-\d+\s+\| )")
SHORT_PASTE = 5  # lines: in a paste this short every line is part of the error


@dataclass(frozen=True)
class Line:
    text: str
    weight: float


def clean(text: str) -> str:
    return _ANSI.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def error_lines(text: str) -> list[Line]:
    """The lines of a paste that carry the error, each with how much it should count.

    Exception and `error:` lines count most; other lines naming a failure count less;
    the last traceback frame says where it broke; the rest (progress, info logs) is
    kept at a low weight so short pastes still say something.
    """
    lines = [line[:MAX_LINE] for line in clean(text).split("\n") if line.strip()][-MAX_LINES:]
    lines += english_equivalents("\n".join(lines))
    picked: list[Line] = []
    last_frame = None
    after_error = 0  # a message often goes on for a few lines after its first
    floor = 0.6 if len(lines) <= SHORT_PASTE else 0.15
    for line in lines:
        bare = _TIMESTAMP.sub(" ", _LINE_PREFIX.sub("", line))
        if _FRAME.match(bare):
            last_frame = bare
            continue
        if _EXCEPTION_LINE.search(bare.strip(" \t[]|>-*#")):
            picked.append(Line(bare, 1.0))
            after_error = 3
        elif _ERROR_WORDS.search(bare):
            picked.append(Line(bare, 0.6))
            after_error = 3
        else:
            picked.append(Line(bare, max(floor, 0.45 if after_error > 0 else 0.15)))
            after_error -= 1
    if last_frame is not None:
        picked.append(Line(last_frame, 0.3))
    return picked


def normalize(text: str) -> str:
    """Blank out what varies between occurrences: paths, numbers, addresses, versions, times."""
    text = _TIMESTAMP.sub(" ", text)
    for pattern, held in _REPLACEMENTS:
        if not held or any(part in text for part in held):
            text = pattern.sub(" ", text)
    return text


def _words(text: str) -> list[str]:
    found: list[str] = []
    for raw in re.findall(r"[A-Za-z][A-Za-z0-9_]*|[\u3400-\u9fff]+", text):
        if raw[0] >= "\u3400":
            # Chinese: overlapping character pairs, the usual unit for CJK matching.
            found += [raw[i : i + 2] for i in range(max(1, len(raw) - 1))]
            continue
        lower = raw.lower()
        found.append(lower)
        parts = _CAMEL.findall(raw.replace("_", " "))
        if len(parts) > 1:
            found += [p.lower() for p in parts if len(p) > 1]
        elif "_" in raw:
            found += [p for p in lower.split("_") if len(p) > 1]
    return found


def tokens(text: str) -> list[str]:
    """Words of normalised text; quoted names count, but are marked so they can weigh less."""
    return _normal_tokens(normalize(text))


def tokens_of_lines(lines: list[str]) -> list[list[str]]:
    """`tokens` of each line, the lines normalised in one pass: no replacement crosses a
    line's end, and one pass over a paste costs far less than one per line."""
    normal = normalize("\n".join(lines)).split("\n")
    if len(normal) != len(lines):  # a line that held a line break of its own
        return [tokens(line) for line in lines]
    return [_normal_tokens(line) for line in normal]


def _normal_tokens(normal: str) -> list[str]:
    quoted = {w for groups in _QUOTED.findall(normal) for part in groups if part for w in _words(part)}
    bare = _QUOTED.sub(" ", normal)
    return _words(bare) + [f"'{w}" for w in quoted]


_REGEX_META = re.compile(r"\\[dDsSwWbB]|\\.|\[[^\]]*\]|\(\?[:=!<P]?|[()|*+?{}^$.]")


def regex_words(pattern: str) -> str:
    """The literal words of a regular expression, for indexing what it looks for."""

    def literal(match: re.Match) -> str:
        text = match.group(0)
        return text[1] if len(text) == 2 and text[0] == "\\" and not text[1].isalnum() else " "

    return _REGEX_META.sub(literal, pattern)


def alternatives(pattern: str) -> list[str]:
    """The phrasings a pattern accepts: its top-level alternatives, or those of its one
    alternation group with the text around the group kept ('a (b|c) d' -> 'a b d', 'a c d')."""
    splits, depth, start, escaped = [], 0, 0, False
    group: tuple[int, int] | None = None
    inner: list[int] = []
    for i, char in enumerate(pattern):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "(":
            depth += 1
            if depth == 1:
                group_start, inner = i, []
        elif char == ")":
            if depth == 1 and inner and group is None:
                group = (group_start, i, *inner)
            depth -= 1
        elif char == "|":
            if depth == 0:
                splits.append(pattern[start:i])
                start = i + 1
            elif depth == 1:
                inner.append(i)
    if splits:
        return [*splits, pattern[start:]]
    if group is None:
        return [pattern]
    open_at, close_at, *bars = group
    body = pattern[open_at + 1 : close_at]
    body = body[2:] if body.startswith("?:") else body
    offset = open_at + 1 + (2 if pattern[open_at + 1 : open_at + 3] == "?:" else 0)
    cuts = [b - offset for b in bars]
    pieces, last = [], 0
    for cut in cuts:
        pieces.append(body[last:cut])
        last = cut + 1
    pieces.append(body[last:])
    return [pattern[:open_at] + piece + pattern[close_at + 1 :] for piece in pieces]
