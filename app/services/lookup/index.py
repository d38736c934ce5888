"""An in-memory index of what each entry's error looks like, for ranking pasted text.

Each entry contributes the words of its normalised signature and variants, the literal words of its
patterns, its title and its slug, each with a field weight. Every process keeps its own
index and brings it up to date from the database before a lookup: entries whose
`changed` counter is past the index's watermark are (re)indexed, so imports and edits
made by any process show up at the next lookup.
"""

import hashlib
import sys
import threading
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np
from sqlalchemy import Connection, func
from sqlmodel import Session, col, select

from app.db import connection_of
from app.kept import KeptReads
from app.models import Entry, Pattern, VersionRow
from app.schemas.common import Text, compile_pattern
from app.services.lookup.postings import Postings
from app.services.lookup.text import alternatives, regex_words, tokens

SIGNATURE, PATTERN, TITLE = 1.0, 0.9, 0.6
_CHUNK = 2000
# Results kept for pastes seen since the last change (the same error is pasted again and
# again); keyed by a digest, so a long paste costs no more memory than a short one.
_REMEMBERED = 4096
# Titles of the entries matched lately (least recently matched out first), kept until an
# entry changes: the same few errors are pasted again and again, each time worded a little
# differently.
_TITLES = 4096
# Phrase counts kept between refreshes: a paste's candidates have a dozen phrases to count
# (1,554 distinct over 149 pastes at 10,000 entries); about 2 MB at most.
_MEMO_BOUND = 32768
# What the words of pastes said of the entries, kept between refreshes by the words: about
# 2 KB each (app.services.lookup.rank.Weighed), 4 MB at most.
_EVIDENCE_BOUND = 2048


# Each way the error is known to be worded (the signature, each alternative of each pattern,
# the title), as its distinct words: a paste that holds one of them whole is that error.
Phrasing = tuple[float, tuple[str, ...]]
# What a phrasing weighs, by kind: an entry stores each phrasing's kind, not a float.
KINDS = (SIGNATURE, PATTERN, TITLE)
_KIND_OF = {weight: kind for kind, weight in enumerate(KINDS)}


@dataclass(slots=True)
class IndexedEntry:
    """An entry's phrasings as arrays, kept as bytes: the numbers of their words, one
    phrasing after another (`words`, int32), how many words each has (`lengths`, int32) and
    its kind (`kinds`, uint8, an index into KINDS). A lookup joins its candidates' bytes and
    measures every phrasing of all of them at once; as bytes they take about half the memory
    of tuples of words."""

    id: str
    words: bytes
    lengths: bytes
    kinds: bytes
    patterns: tuple[str, ...]
    versions: tuple[tuple[str, str, str], ...] = ()


def _phrasings(titles: list[tuple[str, str]], wordings: list[str], patterns: list[str]) -> list[Phrasing]:
    """`titles`: (id, English title) of the entry and of each alias merged into it."""
    found = [(SIGNATURE, wording) for wording in wordings]
    found += [(PATTERN, regex_words(alt)) for pattern in patterns for alt in alternatives(pattern)]
    found += [(TITLE, f"{title} {entry_id.split('/')[1].replace('-', ' ')}") for entry_id, title in titles]
    # Interned: the same words recur across thousands of entries.
    words = ((weight, tuple(dict.fromkeys(map(sys.intern, tokens(text))))) for weight, text in found)
    return [phrasing for phrasing in words if phrasing[1]]


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


def _memoised(memo: dict, key, count: Callable, bound: int = _MEMO_BOUND):
    """`memo[key]`, counted when missing; the memo is emptied when full, a bound rather than a
    policy (what was pasted lately comes back at once)."""
    found = memo.get(key)
    if found is None:
        if len(memo) >= bound:
            memo.clear()
        found = memo[key] = count()
    return found


def _idf(size: int, df):
    """The idf of a word that `df` of `size` entries hold; `df` a number or an array."""
    return np.log(1 + size / (df + 0.5))


_Weighed = TypeVar("_Weighed")  # app.services.lookup.rank.Weighed, which imports this module

_LATEST = select(func.max(Entry.changed))  # built once: run before every lookup


class Turns:
    """Rankings share the index; a refresh, which changes its postings in place (copies would
    double its memory at every change), has it alone: it waits for the rankings in flight,
    and rankings that come meanwhile wait for it. Rankings only read the index (its memos
    are filled one dict operation at a time, under the interpreter's lock), so they do not
    wait for one another. With one lock for all, a paste the event loop could not rank at
    once (a long one being ranked in a thread) went to the threads, and the pastes after it
    with it: a p99 of 866 ms for new pastes under 32 connections at 100,000 entries, 521 ms
    with turns."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._ranking = 0
        self._refreshing = False  # or waiting for the rankings in flight

    def rank(self, timeout: float | None = None) -> bool:
        """Take a turn to rank; False if a refresh kept the index more than `timeout` seconds
        (None: as long as it takes). Each turn taken is given back with ranked()."""
        with self._changed:
            if not self._changed.wait_for(lambda: not self._refreshing, timeout):
                return False
            self._ranking += 1
            return True

    def ranked(self) -> None:
        with self._changed:
            self._ranking -= 1
            self._changed.notify_all()

    @contextmanager
    def refreshing(self) -> Iterator[None]:
        """The index alone, once the rankings in flight are done."""
        with self._changed:
            self._changed.wait_for(lambda: not self._refreshing)
            self._refreshing = True
            self._changed.wait_for(lambda: not self._ranking)
        try:
            yield
        finally:
            with self._changed:
                self._refreshing = False
                self._changed.notify_all()


class LookupIndex:
    def __init__(self) -> None:
        self.entries: dict[str, IndexedEntry] = {}
        self.postings = Postings()
        self.watermark = -1
        self.turns = Turns()
        self._results: OrderedDict[tuple, tuple] = OrderedDict()
        self._results_lock = threading.Lock()
        self._titles: KeptReads[str, Text] = KeptReads(_TITLES)
        self._idf: dict[str, float] = {}
        self._idfs = np.zeros(0)
        self._conjunctions: dict[frozenset[str], int] = {}
        self._evidence: dict[bytes, object] = {}  # what `evidence` weighed, by its words

    def __len__(self) -> int:
        return len(self.entries)

    def idf(self, token: str) -> float:
        """The idf of a word, as `idfs` holds it. Memoised until the next refresh: the memo
        is read once, so a value read during a refresh lands in the memo the refresh
        discards, never in the new one."""
        memo = self._idf
        found = memo.get(token)
        if found is None:
            number = self.postings.known(token)
            idfs = self._idfs
            found = memo[token] = float(idfs[number]) if number is not None and number < len(idfs) else 0.0
        return found

    def idfs(self) -> np.ndarray:
        """The idf of every word, by its number (0 for a word no entry holds now)."""
        return self._idfs

    def idf_at(self, df: float) -> float:
        """The idf of a word that `df` entries hold (as `idfs` has it, so a word at exactly
        `df` compares equal to it)."""
        return float(_idf(len(self.entries), df))

    def holding_all(self, words: frozenset[str]) -> int:
        """How many entries hold every one of `words` (one or more): a phrase is only as
        telling as the words' conjunction is rare ("no such file or directory" is in many errors).
        Memoised until the next refresh: the held phrases of an error recur whenever it is pasted."""
        return _memoised(self._conjunctions, words, lambda: self.postings.holding_all(words))

    def evidence(self, query: dict[str, float], weigh: Callable[[], _Weighed]) -> _Weighed:
        """What a paste's words say of the entries (`weigh`, app.services.lookup.rank), by the
        words some entry holds and their weights; memoised until the next refresh. The same
        error pasted again differs in numbers, paths, addresses and times, which normalising
        blanks out, and in words no entry holds, which weigh nothing: its words are weighed
        once (0.7 of 1.4 ms a paste at 100,000 entries), its patterns run on each paste."""
        held = sorted(self.postings.held(query))
        key = hashlib.blake2b(repr([(token, query[token]) for token in held]).encode(), digest_size=16)
        return _memoised(self._evidence, key.digest(), weigh, _EVIDENCE_BOUND)

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

    def titles(
        self, ids: list[str], read: Callable[[list[str]], dict[str, Text]], seen: int
    ) -> dict[str, Text]:
        """The title of each entry of `ids` that exists: kept ones, and `read`
        for the others, from a view of the base at least as new as change counter `seen`.
        What was read is kept for the lookups that read the same counter (a newer one drops
        it, app.kept): a title read from an older view never outlives its
        edit."""
        return self._titles.read(ids, read, (seen,))

    def refresh(self, db: Session | Connection, latest: int | None = None) -> int:
        """Index every entry created or changed since the last refresh (one query when none;
        none when the caller has just read the `latest` change counter). Returns the change
        counter the base was read at."""
        conn = connection_of(db)
        if latest is None:
            latest = conn.execute(_LATEST).scalar() or 0
        if latest <= self.watermark:
            return latest
        with self.turns.refreshing():
            if latest <= self.watermark:
                return latest
            self._load(conn, self.watermark)
            self.apply()
            self.watermark = latest
            with self._results_lock:
                self._results.clear()  # ranked against entries that have changed since
        return latest

    def apply(self) -> None:
        """Land the staged changes: the postings, then every word's idf (the base's size
        changed too), and forget what was counted against the old ones."""
        self.postings.apply()
        counts = self.postings.counts()
        self._idfs = np.where(counts > 0, _idf(len(self.entries), counts), 0.0)
        self._idf, self._conjunctions, self._evidence = {}, {}, {}

    def _load(self, conn: Connection, after: int) -> None:
        """Read changed entries in chunks, only the columns the index needs. A canonical entry
        is indexed with every wording, pattern and title of its aliases (a paste that names an
        alias finds its canonical); an alias is not indexed of its own."""
        rows = conn.execute(
            select(Entry.id, Entry.canonical_id).where(Entry.changed > after).order_by(Entry.id)
        ).all()
        for entry_id, canonical in rows:
            if canonical:
                self._drop(entry_id)
        ids = [entry_id for entry_id, canonical in rows if not canonical]
        # Entries of a base repeat each other's version rows (at 100,000 entries, 528 distinct
        # sets of them) and phrasing shapes: one copy of each, for this load.
        shared = {}.setdefault
        for start in range(0, len(ids), _CHUNK):
            part = ids[start : start + _CHUNK]
            members: dict[str, list[str]] = {entry_id: [entry_id] for entry_id in part}
            for alias, canonical in conn.execute(
                select(Entry.id, Entry.canonical_id)
                .where(col(Entry.canonical_id).in_(part))
                .order_by(Entry.id)
            ):
                members[canonical].append(alias)
            owner = {member: entry_id for entry_id, group in members.items() for member in group}
            patterns: dict[str, list[str]] = defaultdict(list)
            versions: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
            for entry_id, regex in conn.execute(
                select(Pattern.entry_id, Pattern.regex)
                .where(col(Pattern.entry_id).in_(list(owner)))
                .order_by(Pattern.entry_id, Pattern.position)
            ):
                if regex not in patterns[owner[entry_id]]:
                    patterns[owner[entry_id]].append(regex)
            for entry_id, component, version, status in conn.execute(
                select(
                    VersionRow.entry_id, VersionRow.component, VersionRow.version, VersionRow.status
                ).where(col(VersionRow.entry_id).in_(list(owner)))
            ):
                versions[owner[entry_id]].append(shared(row := (component.lower(), version, status), row))
            texts = {
                entry_id: (title_en, [signature, *(v["text"] for v in variants)])
                for entry_id, title_en, signature, variants in conn.execute(
                    select(Entry.id, Entry.title_en, Entry.signature, Entry.variants).where(
                        col(Entry.id).in_(list(owner))
                    )
                )
            }
            for entry_id, group in members.items():
                titles = [(member, texts[member][0]) for member in group]
                wordings = list(dict.fromkeys(w for member in group for w in texts[member][1]))
                self._put(
                    entry_id,
                    _phrasings(titles, wordings, patterns[entry_id]),
                    tuple(patterns[entry_id]),
                    shared(held := tuple(versions[entry_id]), held),
                    shared,
                )

    def phrasings(self, entry: IndexedEntry) -> list[Phrasing]:
        """The entry's phrasings as words again."""
        words = iter(map(self.postings.word, array("i", entry.words)))
        return [
            (KINDS[kind], tuple(next(words) for _ in range(length)))
            for kind, length in zip(entry.kinds, array("i", entry.lengths), strict=True)
        ]

    def _drop(self, entry_id: str) -> None:
        previous = self.entries.pop(entry_id, None)
        if previous is not None:
            self.postings.remove(entry_id, map(self.postings.word, set(array("i", previous.words))))

    def _put(
        self,
        entry_id: str,
        phrasings: list[Phrasing],
        patterns: tuple[str, ...] = (),
        versions: tuple[tuple[str, str, str], ...] = (),
        shared: Callable = lambda key, value: value,
    ) -> None:
        """Index the entry with these phrasings, in place of what it was indexed with."""
        self._drop(entry_id)
        number = self.postings.number
        self.entries[entry_id] = IndexedEntry(
            id=entry_id,
            words=array("i", [number(word) for _, words in phrasings for word in words]).tobytes(),
            lengths=shared(lengths := array("i", [len(words) for _, words in phrasings]).tobytes(), lengths),
            kinds=shared(kinds := bytes(_KIND_OF[weight] for weight, _ in phrasings), kinds),
            patterns=patterns,
            versions=versions,
        )
        self.postings.put(entry_id, field_weights(phrasings))
