"""An in-memory index of what each entry's error looks like, for ranking pasted text.

Each entry contributes the words of its normalised signature and variants, the literal words of its
patterns, its title and its slug, each with a field weight. Every process keeps its own
index and brings it up to date from the database before a lookup: entries whose
`changed` counter is past the index's watermark are (re)indexed, so imports and edits
made by any process show up at the next lookup.
"""

import hashlib
import math
import sys
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models import Entry, Pattern, VersionRow
from app.schemas.common import compile_pattern
from app.services.lookup.postings import Postings
from app.services.lookup.text import alternatives, regex_words, tokens

SIGNATURE, PATTERN, TITLE = 1.0, 0.9, 0.6
_CHUNK = 2000
# Results kept for pastes seen since the last change (the same error is pasted again and
# again); keyed by a digest, so a long paste costs no more memory than a short one.
_REMEMBERED = 4096
# Phrasing masses and phrase counts kept between refreshes, each: a paste's candidates have
# about 400 phrasings and a dozen phrases to count (12,000 and 1,554 distinct over 149 pastes
# at 10,000 entries); about 2 MB at most.
_MEMO_BOUND = 32768


# Each way the error is known to be worded (the signature, each alternative of each pattern,
# the title), as its distinct words: a paste that holds one of them whole is that error.
# Tuples, not sets: the words are only ever iterated, and a tuple of six takes a seventh of
# the memory of a frozenset of six (the index holds three per entry).
Phrasing = tuple[float, tuple[str, ...]]


@dataclass(slots=True)
class IndexedEntry:
    id: str
    phrasings: tuple[Phrasing, ...]
    patterns: tuple[str, ...]
    versions: tuple[tuple[str, str, str], ...] = ()


def _phrasings(
    titles: list[tuple[str, str]], wordings: list[str], patterns: list[str], shared: Callable
) -> tuple[Phrasing, ...]:
    """`titles`: (id, English title) of the entry and of each alias merged into it; `shared`
    gives the one copy of a phrasing that many entries of a load hold (see `_load`)."""
    found = [(SIGNATURE, wording) for wording in wordings]
    found += [(PATTERN, regex_words(alt)) for pattern in patterns for alt in alternatives(pattern)]
    found += [(TITLE, f"{title} {entry_id.split('/')[1].replace('-', ' ')}") for entry_id, title in titles]
    # Interned: the same words recur across thousands of entries.
    words = ((weight, tuple(dict.fromkeys(map(sys.intern, tokens(text))))) for weight, text in found)
    return tuple(shared(phrasing, phrasing) for phrasing in words if phrasing[1])


def field_weights(phrasings: tuple[Phrasing, ...]) -> dict[str, float]:
    """Each word of an entry with the weight of the strongest phrasing that holds it."""
    weights: dict[str, float] = {}
    for weight, words in phrasings:
        for token in words:
            weights[token] = max(weights.get(token, 0.0), weight)
    return weights


@lru_cache(maxsize=1024)
def compiled(pattern: str):
    """A compiled pattern, kept for the patterns in use: a compiled RE2 program takes about
    6 KB, and once run holds its DFA states too (about 14 KB in all), too much to hold for
    every entry of a large base; compiling one again takes about 20 µs."""
    try:
        return compile_pattern(pattern)
    except ValueError:
        return None  # validated on import; a pattern the engine still refuses never matches


def _memoised(memo: dict, key, count: Callable):
    """`memo[key]`, counted when missing; the memo is emptied when full, a bound rather than a
    policy (what was pasted lately comes back at once)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= _MEMO_BOUND:
            memo.clear()
        found = memo[key] = count()
    return found


_LATEST = select(func.max(Entry.changed))  # built once: run before every lookup


class LookupIndex:
    def __init__(self) -> None:
        self.entries: dict[str, IndexedEntry] = {}
        self.postings = Postings()
        self.watermark = -1
        self._lock = threading.Lock()
        self._results: OrderedDict[tuple, tuple] = OrderedDict()
        self._results_lock = threading.Lock()
        self._idf: dict[str, float] = {}
        self._masses: dict[tuple[str, ...], float] = {}
        self._conjunctions: dict[frozenset[str], int] = {}

    def __len__(self) -> int:
        return len(self.entries)

    def idf(self, token: str) -> float:
        # Memoised until the next refresh: a lookup asks for the idf of a word thousands of times.
        # The memo is read once, so a value counted during a refresh lands in the memo the
        # refresh discards, never in the new one.
        memo = self._idf
        found = memo.get(token)
        if found is None:
            df = self.postings.df(token)
            found = memo[token] = self.idf_at(df) if df else 0.0
        return found

    def idf_memo(self) -> dict[str, float]:
        """The idfs counted since the last refresh (`idf` counts the others)."""
        return self._idf

    def mass(self, words: tuple[str, ...]) -> float:
        """The sum of the words' idfs, memoised until the next refresh like `idf` (a phrasing
        is one of the shared tuples of `_phrasings`, so equal phrasings share one value)."""
        return _memoised(self._masses, words, lambda: sum(self.idf(token) for token in words))

    def mass_memo(self) -> dict[tuple[str, ...], float]:
        """The masses counted since the last refresh (`mass` counts the others)."""
        return self._masses

    def idf_at(self, df: float) -> float:
        """The idf of a word that `df` entries hold."""
        return math.log(1 + len(self.entries) / (df + 0.5))

    def holding_all(self, words: frozenset[str]) -> int:
        """How many entries hold every one of `words` (one or more): a phrase is only as
        telling as the words' conjunction is rare ("no such file or directory" is in many errors).
        Memoised until the next refresh: the held phrases of an error recur whenever it is pasted."""
        return _memoised(self._conjunctions, words, lambda: self.postings.holding_all(words))

    @staticmethod
    def result_key(watermark: int, text: str, *rest) -> tuple:
        """What lookup results depend on: the index state, the paste, limit and versions."""
        return (watermark, hashlib.blake2b(text.encode(), digest_size=16).digest(), *rest)

    def recall(self, key: tuple) -> tuple | None:
        with self._results_lock:
            found = self._results.get(key)
            if found is not None:
                self._results.move_to_end(key)
            return found

    def remember(self, key: tuple, results: tuple) -> None:
        with self._results_lock:
            self._results[key] = results
            while len(self._results) > _REMEMBERED:
                self._results.popitem(last=False)

    def ranking(self) -> threading.Lock:
        """Held while a lookup ranks against the index. A refresh changes postings in place
        (copies would double the index's memory at every change), so it waits for the
        rankings in flight, and they for it; rankings are bound by the interpreter's lock anyway."""
        return self._lock

    def refresh(self, session: Session) -> None:
        """Index every entry created or changed since the last refresh (one query when none)."""
        latest = session.connection().execute(_LATEST).scalar() or 0
        if latest <= self.watermark:
            return
        with self._lock:
            if latest <= self.watermark:
                return
            self._load(session, self.watermark)
            self.postings.apply()
            self._idf, self._masses, self._conjunctions = {}, {}, {}
            self.watermark = latest
            with self._results_lock:
                self._results.clear()  # ranked against entries that have changed since

    def _load(self, session: Session, after: int) -> None:
        """Read changed entries in chunks, only the columns the index needs. A canonical entry
        is indexed with every wording, pattern and title of its aliases (a paste that names an
        alias finds its canonical); an alias is not indexed of its own."""
        rows = session.exec(
            select(Entry.id, Entry.canonical_id).where(Entry.changed > after).order_by(Entry.id)
        ).all()
        for entry_id, canonical in rows:
            if canonical:
                self._drop(entry_id)
        ids = [entry_id for entry_id, canonical in rows if not canonical]
        # Entries of a base repeat each other's phrasings and version rows (half the
        # phrasings of a large base are repeats): one copy of each, for this load.
        shared = {}.setdefault
        for start in range(0, len(ids), _CHUNK):
            part = ids[start : start + _CHUNK]
            members: dict[str, list[str]] = {entry_id: [entry_id] for entry_id in part}
            for alias, canonical in session.exec(
                select(Entry.id, Entry.canonical_id)
                .where(col(Entry.canonical_id).in_(part))
                .order_by(Entry.id)
            ):
                members[canonical].append(alias)
            owner = {member: entry_id for entry_id, group in members.items() for member in group}
            patterns: dict[str, list[str]] = defaultdict(list)
            versions: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
            for entry_id, regex in session.exec(
                select(Pattern.entry_id, Pattern.regex)
                .where(col(Pattern.entry_id).in_(list(owner)))
                .order_by(Pattern.entry_id, Pattern.position)
            ):
                if regex not in patterns[owner[entry_id]]:
                    patterns[owner[entry_id]].append(regex)
            for entry_id, component, version, status in session.exec(
                select(
                    VersionRow.entry_id, VersionRow.component, VersionRow.version, VersionRow.status
                ).where(col(VersionRow.entry_id).in_(list(owner)))
            ):
                versions[owner[entry_id]].append(shared(row := (component.lower(), version, status), row))
            texts = {
                entry_id: (title_en, [signature, *(v["text"] for v in variants)])
                for entry_id, title_en, signature, variants in session.exec(
                    select(Entry.id, Entry.title_en, Entry.signature, Entry.variants).where(
                        col(Entry.id).in_(list(owner))
                    )
                )
            }
            for entry_id, group in members.items():
                titles = [(member, texts[member][0]) for member in group]
                wordings = list(dict.fromkeys(w for member in group for w in texts[member][1]))
                self._put(
                    IndexedEntry(
                        id=entry_id,
                        phrasings=_phrasings(titles, wordings, patterns[entry_id], shared),
                        patterns=tuple(patterns[entry_id]),
                        versions=tuple(versions[entry_id]),
                    )
                )

    def _drop(self, entry_id: str) -> None:
        previous = self.entries.pop(entry_id, None)
        if previous is not None:
            self.postings.remove(entry_id, field_weights(previous.phrasings))

    def _put(self, indexed: IndexedEntry) -> None:
        previous = self.entries.get(indexed.id)
        if previous is not None:
            self.postings.remove(indexed.id, field_weights(previous.phrasings))
        self.entries[indexed.id] = indexed
        self.postings.put(indexed.id, field_weights(indexed.phrasings))
