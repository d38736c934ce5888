"""Paste an error, get the entry: ranking pasted output against the lookup index.

1. Pick the lines that carry the error (lookup_text.error_lines) and weigh them.
2. Gather candidates through the rarest words of those lines (bounded work per word, so
   the cost grows far slower than the number of entries).
3. Score each candidate exactly, by its best phrasing (signature, a pattern's
   alternative, title): how much of it the paste holds, how much of the paste it
   explains, and whether a pattern matches (RE2: linear time, whatever the input; a
   pattern is compiled only when the paste holds the text it needs, lookup/literals.py).
4. Versions the user ran nudge entries whose compatibility rows cover them.
5. Keep only what really fits: an empty list beats unrelated padding.
"""

import bisect
import math
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Connection, bindparam, select
from sqlmodel import Session, col

from app.db import connection_of
from app.models import Entry
from app.schemas.common import Text
from app.services.entries.versions import covers
from app.services.lookup.index import KINDS, IndexedEntry, LookupIndex, compiled
from app.services.lookup.literals import Haystack, needles
from app.services.lookup.text import error_lines, tokens_of_lines
from app.urls import entry_url

MAX_TEXT = 64 * 1024
CANDIDATES = 80
POSTINGS_CAP = 1500  # words in more entries than this only rescore, never gather
PATTERN_TEXT = 16 * 1024
MIN_SCORE = 0.3
# An entry fits when the paste holds most of its signature, or one of its patterns
# matches and the paste holds a fair part of it. Ranking alone would always have a top.
FITS_COVERAGE = 0.5
FITS_WITH_PATTERN = 0.25
FULL_PHRASING = 12.0  # idf mass (about three distinctive words) that makes a phrasing conclusive
# Without a pattern match, a paste must share with the entry a distinctive word (one that at
# most this share of entries use) or several words of one phrasing that together are as rare:
# a generic word or two ("Permission denied"), or a phrase many errors print ("No such file
# or directory", "out of memory"), names no particular error, however whole the phrasing.
DISTINCTIVE_SHARE = 0.01
MIN_SHARED_WORDS = 3
QUOTED_WEIGHT = 0.5
HELD = 0.6  # a word of a paste line this strong counts as held in full
_KIND_WEIGHTS = np.array(KINDS)


@dataclass(frozen=True, slots=True)
class Match:
    """One entry a paste matched. Remembered answers keep thousands of these: the title is
    the one object the titles read lately share, and the URL is made from the id when asked."""

    id: str
    title: Text
    score: float

    @property
    def url(self) -> str:
        return entry_url(self.id)


def _query_weights(text: str) -> tuple[dict[str, float], str]:
    """Token weights of the paste, and the text patterns are run on (its tail, every line)."""
    weights: dict[str, float] = {}
    lines = error_lines(text)
    for line, words in zip(lines, tokens_of_lines([line.text for line in lines]), strict=True):
        for token in words:
            weight = line.weight * (QUOTED_WEIGHT if token.startswith("'") else 1.0)
            if weight > weights.get(token, 0.0):
                weights[token] = weight
    # Quoted words also count as plain words, a little.
    for token in [t for t in weights if t.startswith("'")]:
        bare = token[1:]
        weights[bare] = max(weights.get(bare, 0.0), weights[token] * 0.5)
    return weights, "\n".join(line.text for line in lines)[-PATTERN_TEXT:]


def _gather(index: LookupIndex, query: dict[str, float]) -> list[str]:
    """Candidates through the paste's rarer words; the two rarest common ones help only when
    the rare ones found too few (a paste of nothing but common words)."""
    gains: dict[str, float] = {}
    common: list[tuple[int, str]] = []
    for token, weight in query.items():
        size = index.postings.df(token)
        if 0 < size <= POSTINGS_CAP:
            gains[token] = weight * index.idf(token)
        elif size:
            common.append((size, token))
    found, holders = index.postings.best(gains, CANDIDATES)
    if holders < CANDIDATES and common:
        gains.update((token, query[token] * index.idf(token)) for _, token in sorted(common)[:2])
        found, _ = index.postings.best(gains, CANDIDATES)
    return found


def _version_factor(entry: IndexedEntry, versions: dict[str, str]) -> float:
    factor = 1.0
    for component, version in versions.items():
        for row_component, row_version, status in entry.versions:
            if row_component == component.lower() and covers(row_version, version):
                factor *= 1.15 if status == "active" else 0.85 if status in ("fixed", "unaffected") else 1.0
                break
    return factor


@dataclass
class _Evidence:
    """Of a candidate whose coverage could fit (FITS_WITH_PATTERN): no other is scored."""

    entry: IndexedEntry
    coverage: float  # how much of the entry's signature the paste contains
    explained: float  # how much of the paste the entry accounts for
    specific: bool  # the paste holds a rare word of the entry, or several of one phrasing


def _measure(index: LookupIndex, query: dict[str, float], found: list[str]) -> tuple[list[_Evidence], float]:
    """Judge each candidate by its best phrasing: coverage of that phrasing by the paste, and
    how much of the paste it accounts for (so an entry with many patterns gains nothing by
    it). Every phrasing of every candidate is measured at once, over their words' numbers:
    a word in a weak line counts in proportion, and a phrasing of one or two common words
    proves little even when whole. Returns the evidence of the candidates whose coverage
    could fit (FITS_WITH_PATTERN), the only ones ever scored, and the most of the paste any
    candidate accounts for."""
    # An entry without phrasings holds no word, so no paste gathers it; left out all the same,
    # as the sums below take each entry's phrasings to be where the next entry's begin.
    entries = [e for e in map(index.entries.__getitem__, found) if e.kinds]
    if not entries:
        return [], 0.0
    # The paste's weight of each word, by number: a table as long as the vocabulary (calloc'd,
    # so only the pages written cost anything) is read faster than a sorted search.
    number, idfs = index.postings.known, index.idfs()
    table = np.zeros(len(idfs))
    known = [(n, w) for token, w in query.items() if (n := number(token)) is not None and n < len(table)]
    table[[n for n, _ in known]] = [weight for _, weight in known]
    words = np.frombuffer(b"".join(e.words for e in entries), np.int32)
    lengths = np.frombuffer(b"".join(e.lengths for e in entries), np.int32)
    kinds = np.frombuffer(b"".join(e.kinds for e in entries), np.uint8)
    starts = np.zeros(len(lengths), np.intp)  # where each phrasing begins in `words`
    np.cumsum(lengths[:-1], out=starts[1:])
    firsts = np.zeros(len(entries), np.intp)  # where each entry's phrasings begin
    np.cumsum([len(e.kinds) for e in entries[:-1]], out=firsts[1:])

    in_paste = table[words]
    idf = idfs[words]
    mass = np.add.reduceat(idf, starts)
    held = np.add.reduceat(idf * np.minimum(in_paste / HELD, 1.0), starts)
    accounted = np.add.reduceat(in_paste * idf, starts)
    weight = _KIND_WEIGHTS[kinds]
    with np.errstate(divide="ignore", invalid="ignore"):
        coverage = np.where(mass > 0, weight * held / mass * np.minimum(1.0, mass / FULL_PHRASING), 0.0)
    explained = np.where(mass > 0, weight * accounted, 0.0)
    strong = in_paste >= HELD  # words held in full
    rare = np.logical_or.reduceat(strong & (idf >= index.idf_at(_rare_df(index))), starts)

    coverages = np.maximum.reduceat(coverage, firsts)
    explaineds = np.maximum.reduceat(explained, firsts)
    fitting = np.flatnonzero(coverages >= FITS_WITH_PATTERN)
    measured = []
    rows = zip(
        fitting.tolist(),
        coverages[fitting].tolist(),
        explaineds[fitting].tolist(),
        np.logical_or.reduceat(rare, firsts)[fitting].tolist(),
        firsts[fitting].tolist(),
        strict=True,
    )
    for i, best_coverage, best_explained, specific, first in rows:
        entry = entries[i]
        if not specific:
            own = slice(first, first + len(entry.kinds))
            spans = zip(starts[own].tolist(), lengths[own].tolist(), strict=True)
            specific = _several_rare_together(index, [words[a : a + n][strong[a : a + n]] for a, n in spans])
        measured.append(_Evidence(entry, best_coverage, best_explained, specific))
    return measured, float(explaineds.max())


def _rare_df(index: LookupIndex) -> float:
    return max(2.0, DISTINCTIVE_SHARE * len(index))


def _several_rare_together(index: LookupIndex, held_words: list[np.ndarray]) -> bool:
    """Whether the paste holds in full several words of one of the entry's phrasings that
    together are rare: a phrase is only as telling as the words' conjunction is rare ("no
    such file or directory" is in many errors)."""
    return any(
        len(held) >= MIN_SHARED_WORDS
        and index.holding_all(frozenset(map(index.postings.word, held.tolist()))) <= _rare_df(index)
        for held in held_words
    )


def _pattern_hit(entry: IndexedEntry, text: Haystack) -> bool:
    return bool(text.text) and any(_matches(pattern, text) for pattern in entry.patterns)


def _matches(pattern: str, text: Haystack) -> bool:
    found = needles(pattern)
    if not text.holds(found):
        return False  # the paste lacks text every match holds: no need to compile it
    if found.whole:
        return True
    regex = compiled(pattern)
    return regex is not None and regex.search(text.text) is not None


def _score(evidence: _Evidence, most_explained: float, pattern_hit: bool) -> float | None:
    """Coverage says the entry's error is in the paste; the relative share of the paste it
    explains prefers the specific entry over a generic one; a pattern match confirms.
    None when the entry does not fit at all. Only asked of entries whose coverage is
    FITS_WITH_PATTERN at least (`_rank` never weighs the others)."""
    if not pattern_hit and (evidence.coverage < FITS_COVERAGE or not evidence.specific):
        return None
    share = evidence.explained / most_explained if most_explained else 0.0
    return 0.45 * evidence.coverage + 0.4 * share + (0.15 if pattern_hit else 0.0)


def lookup(
    db: Session | Connection,
    index: LookupIndex,
    text: str,
    *,
    limit: int = 10,
    versions: dict[str, str] | None = None,
    latest: int | None = None,
    wait: float | None = None,
) -> list[Match] | None:
    """`latest`: the highest change counter of the base, when the caller has just read it.
    `wait`: at most how many seconds to wait for a refresh of the index in flight, then None;
    None waits as long as it takes."""
    conn = connection_of(db)
    seen = index.refresh(conn, latest)
    # The watermark is taken before ranking: results ranked while a refresh lands are kept
    # under the older one and never recalled.
    key = _result_key(index, text, limit, versions)
    found = index.recall(key)
    if found is None:
        if not index.turns.rank(wait):
            return None
        try:
            ranked = _rank(index, text[:MAX_TEXT], limit, versions)
        finally:
            index.turns.ranked()
        found = _titled(conn, index, ranked, seen)
        index.remember(key, found)
    return list(found)


def remembered(
    index: LookupIndex, text: str, *, limit: int = 10, versions: dict[str, str] | None = None
) -> list[Match] | None:
    """What `lookup` answered for this paste against the index as it is, or None; no query.
    Only for a caller that knows the index is current (nothing changed past its watermark)."""
    found = index.recall(_result_key(index, text, limit, versions))
    return None if found is None else list(found)


def _result_key(index: LookupIndex, text: str, limit: int, versions: dict[str, str] | None) -> tuple:
    return index.result_key(index.watermark, text[:MAX_TEXT], limit, tuple(sorted((versions or {}).items())))


# Built once: composing the statement again for each lookup costs more than running it.
_TITLES = select(Entry.id, Entry.title_en, Entry.title_zh).where(
    col(Entry.id).in_(bindparam("ids", expanding=True))
)


def _titled(
    conn: Connection, index: LookupIndex, ranked: list[tuple[str, float]], seen: int
) -> tuple[Match, ...]:
    """The matches with their titles: the index keeps no titles of its own (they would be a
    tenth of its memory), only those of the entries matched lately."""
    if not ranked:
        return ()

    def read(ids: list[str]) -> dict[str, Text]:
        return {entry_id: Text(en=en, zh=zh) for entry_id, en, zh in conn.execute(_TITLES, {"ids": ids})}

    titles = index.titles([entry_id for entry_id, _ in ranked], read, seen)
    return tuple(
        Match(id=entry_id, title=titles[entry_id], score=score)
        for entry_id, score in ranked
        if entry_id in titles
    )


@dataclass(frozen=True, slots=True)
class Weighed:
    """What a paste's words say, whatever its patterns match: the candidates whose coverage
    could fit (FITS_WITH_PATTERN), the only ones ever scored, each with its score should a
    pattern match (its bound) and should none (NaN where it would not fit), highest bound
    first. Arrays: kept for pastes of the same words (LookupIndex.evidence), seventy
    candidates in about 2 KB, where a tuple of _Evidence took about 17 KB."""

    entries: tuple[IndexedEntry, ...]
    bounds: np.ndarray
    unmatched: np.ndarray


def _weighed(index: LookupIndex, query: dict[str, float]) -> Weighed:
    measured, most_explained = _measure(index, query, _gather(index, query))
    fitting = [(_score(m, most_explained, True), m) for m in measured]
    fitting.sort(key=lambda item: -item[0])
    unmatched = [_score(m, most_explained, False) for _, m in fitting]
    return Weighed(
        tuple(m.entry for _, m in fitting),
        np.array([bound for bound, _ in fitting], np.float64),
        np.array([np.nan if score is None else score for score in unmatched], np.float64),
    )


def _rank(
    index: LookupIndex, text: str, limit: int, versions: dict[str, str] | None
) -> list[tuple[str, float]]:
    """(entry id, score) of the entries that fit, best first."""
    query, strong_text = _query_weights(text)
    if not query:
        return []
    weighed = index.evidence(query, lambda: _weighed(index, query))
    haystack = Haystack(strong_text)
    scored: list[tuple[float, IndexedEntry]] = []
    # A score is only bounded until the entry's patterns are run (a match fits an entry of
    # weaker coverage, and adds to its score); below FITS_WITH_PATTERN nothing fits either
    # way. Running a pattern costs more than all the word arithmetic (at 100k entries one is
    # seldom compiled already), so they run best bound first, until no entry left could be
    # among the results: the same results as running them all.
    rows = zip(weighed.bounds.tolist(), weighed.entries, weighed.unmatched.tolist(), strict=True)
    if versions:  # (bound with the version factor, score with a match, entry, without, factor)
        pending = [(m * f, m, e, u, f) for m, e, u in rows for f in (_version_factor(e, versions),)]
        pending.sort(key=lambda item: -item[0])
    else:
        pending = [(m, m, e, u, 1.0) for m, e, u in rows]
    top: list[float] = []  # the best `limit` scores so far, negated, best first
    for bound, matched, entry, unmatched, factor in pending:
        best = -top[0] if top else 0.0
        if bound < MIN_SCORE or (
            bound <= best and (bound < max(MIN_SCORE, best * 0.5) or (len(top) == limit and bound < -top[-1]))
        ):
            break
        score = matched if _pattern_hit(entry, haystack) else unmatched
        if not math.isnan(score):  # NaN: it does not fit without a pattern match
            scored.append((score * factor, entry))
            bisect.insort(top, -score * factor)
            del top[limit:]
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    if not scored or scored[0][0] < MIN_SCORE:
        return []
    floor = max(MIN_SCORE, scored[0][0] * 0.5)
    return [(e.id, round(min(score / 1.1, 1.0), 4)) for score, e in scored[:limit] if score >= floor]
