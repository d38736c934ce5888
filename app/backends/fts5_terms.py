"""bm25 over the word index in numpy, from words' matches read once out of FTS5's own index.

FTS5 scores every match of a query with bm25 before it sorts them: about a microsecond a
row, so a query of common words at 100,000 entries ("timeout": 7,057 matches, "cuda out of
memory": 498 matches of four words) spent milliseconds ranking. Here each word's matches
are read once from FTS5's index (its fts5vocab instance table): the rows that hold it and,
for each, how often it holds it, each instance weighed by its column's weight. A query's
matches are then the rows every word holds, and their scores the bm25 sum of the words'
parts in the query's order, computed for those rows as FTS5 computes it (fts5_aux.c: k1
1.2, b 0.75, the row's size in tokens, idf floored at 1e-6): the same doubles bm25()
returns, so the same order, ties by rowid as the SQL has them. A match kept takes 3 bytes as
a rule (the gap to its rowid and that weighed count, Held), a quarter of what it took with
its rowid as int32 and the word's part of the score.

What was read stays valid while the index is unchanged: every transaction that writes to
the index writes FTS5's structure record when it commits (its pending changes become a
segment), so a search compares that record (one row) with the one the words were read
against, and reads them again after any change. A writer's own transaction holds changes
FTS5 has not written out yet: a search inside one is left to FTS5 (app/backends/sqlite.py).

Words are kept up to a budget of bytes, least recently used out first; a word whose matches
would take an eighth of it is left to FTS5 (see WORD_BUDGET). Reading a word's matches out
of fts5vocab costs about 0.4 ms per thousand rows that hold it, often more than
FTS5 takes to rank the rows holding a query's every word: a word is kept only once it is
asked for often enough (_Admission). A query's words not kept are read all the same, and
let go after it, where reading them costs less than FTS5's ranking would (_Words.worth_reading),
and the query is left to FTS5 otherwise. The texts of the rows searches listed
lately, with their lower case for the snippets, are kept the same way against the same
record: reading twenty rows' texts and lowering them was a tenth of a search.

A word that half the rows or more hold gets bm25's idf floor, 1e-6: it adds a few millionths
to a score at most, yet bm25() walks every row that holds it, in each query it is in, to
count them (at 100,000 entries, ranking "decorators gen" took 2.1 ms, ranking "decorators"
alone 0.14 ms: 97,833 rows hold "gen"). So such a word only selects rows: a score is the bm25
of the query's other words, in numpy and in SQL alike (app/backends/sqlite.py), and of every
word when each is that common. How many rows hold a word is kept for the record too.
"""

import math
import re
import sys
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Connection, Engine

from app.backends.text import lowered
from app.kept import KeptReads

K1, B = 1.2, 0.75
TABLE = "entry_fts_words"
COLUMNS = ("title", "signature", "body")
BUDGET = 8 * 1024 * 1024  # about 2,800,000 matches
# A word whose matches would take more (about 350,000 rows) is left to FTS5. At 100,000 entries
# reading "gen" (97,833 rows) took 47 ms, "the" 112 ms: a word half the rows hold, as these
# do, is never read for one query alone (_Words.worth_reading); read and kept from its second
# ask (_Admission), it then spares every query holding it FTS5's walk of its rows.
WORD_BUDGET = BUDGET // 8
_MATCH_BYTES = 3  # a match kept, as a rule: the gap to its rowid (uint16), its weighed count (uint8)
# Reading a query's words not kept pays where the rows holding them are at most this share of
# its words' holders added up, and this many more (see _Words.worth_reading).
READ_SHARE, READ_ROWS = 1 / 3, 500
TEXT_BUDGET = 4 * 1024 * 1024  # the texts of about a thousand rows, with their lower case
# The rowids of the kept words used most lately, as int32 (Held keeps gaps): a word most rows
# hold, in many queries, is not summed up again for each (100,000 rowids: 0.1 ms).
ROWIDS_BUDGET = 2 * 1024 * 1024
_CHUNK = 8192  # rows read at a time
HOLDERS = 100_000  # words whose holders are kept, at most: a few MB
_STRUCTURE_ROWID, _AVERAGES_ROWID = 10, 1  # FTS5's own rows of its %_data table
Texts = tuple[tuple[str, ...], tuple[str, ...]]  # a row's texts, and the same in lower case
# A query term that unicode61 reads as this one token: lower-case ASCII letters and digits.
# Anything else (a phrase of parts, diacritics, other scripts) is left to FTS5.
PLAIN_TERM = re.compile(r"[a-z0-9]+")


def plain(terms: list[str]) -> bool:
    """Whether each of `terms` (one at least) is one of the index's words as it is (PLAIN_TERM)."""
    return bool(terms) and all(PLAIN_TERM.fullmatch(t) for t in terms)


# The index's words as fts5vocab lists them: each instance (row, column, offset), and how many
# rows hold each word.
_INSTANCES, _ROWS = f"temp.{TABLE}_instances", f"temp.{TABLE}_rows"


def declare_vocabularies(cursor) -> None:
    """Declare the fts5vocab tables words are read through, once, as a connection opens (the
    index need not exist yet). Declared in a read's transaction, a table of the temp schema
    was dropped again by its rollback, and the next statement reloaded the whole schema: a
    read transaction that declared one took 270 µs at 10,000 entries, one that did not 5.5 µs."""
    for name, kind in ((_INSTANCES, "instance"), (_ROWS, "row")):
        cursor.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5vocab(main, {TABLE}, {kind})")


def _varints(data: bytes) -> np.ndarray:
    """The SQLite varints packed one after another in `data` (values below 2**53)."""
    raw = np.frombuffer(data, np.uint8).astype(np.int64)
    last = raw < 0x80  # the last byte of each varint
    number = np.cumsum(last) - last  # which varint each byte belongs to
    ends = np.flatnonzero(last)
    shift = 7 * (ends[number] - np.arange(len(raw)))
    return np.bincount(number, weights=(raw & 0x7F) << shift).astype(np.int64)


def idf(rows: int, hits: int) -> float | None:
    """bm25's idf of a word `hits` of `rows` rows hold, as FTS5 computes it; None where FTS5
    floors it: half the rows or more hold the word, where its logarithm is not above zero
    (or more than `rows` do, a count taken after a write that `rows` was read before)."""
    if 2 * hits >= rows:
        return None
    return math.log((rows - hits + 0.5) / (hits + 0.5))


class _Admission:
    """Which words are kept once read out of the index (shared by the threads, kept across the
    index's changes): how often each word was asked for lately, and the words found too common.

    A word is kept from its second ask; once the budget is nearly full, only if asked for more
    often than the least recently used word kept, which it would push out. So a long tail of
    searches, each word asked for a few times, does not keep reading words only to push out
    one another (at 100,000 entries, 50,000 searches of new words took 8 ms each that way,
    4 ms left to FTS5), while the words of searches asked for again and again stay. Counts
    are halved every ASKED asks, so what was asked for long ago gives way."""

    ASKED = 50_000  # asks between two halvings; as many words at most, a few MB

    def __init__(self) -> None:
        self._asks: dict[str, int] = {}
        self._since = 0  # asks since the counts were last halved
        self._too_common: set[str] = set()  # a word most rows hold changes little with a write
        self._lock = threading.Lock()

    def ask(self, words: list[str]) -> None:
        with self._lock:
            for word in words:
                self._asks[word] = self._asks.get(word, 0) + 1
            self._since += len(words)
            if self._since >= self.ASKED or len(self._asks) > self.ASKED:
                self._asks = {w: n // 2 for w, n in self._asks.items() if n > 1}
                self._since = 0

    def admits(self, words: list[str], rival: str | None) -> bool:
        """Whether `words` (asked for now, ask() first) may be read and kept: each asked for before and
        more often than `rival`, the word reading them would push out; none too common."""
        with self._lock:
            least = max(2, self._asks.get(rival, 0) + 1) if rival is not None else 2
            return self._too_common.isdisjoint(words) and all(self._asks.get(w, 0) >= least for w in words)

    def too_common(self, word: str) -> None:
        with self._lock:
            self._too_common.add(word)

    def any_too_common(self, words: list[str]) -> bool:
        with self._lock:
            return not self._too_common.isdisjoint(words)


class _Words:
    """One index's words as read against one structure record."""

    def __init__(self, conn, structure: bytes, weights: tuple[float, ...], admission: _Admission) -> None:
        self.structure, self.weights, self.admission = structure, weights, admission
        averages = _varints(_block(conn, _AVERAGES_ROWID))
        self.rows = int(averages[0]) if len(averages) else 0  # no record before the first row
        tokens = float(averages[1:].sum())
        self.avgdl = tokens / float(self.rows) if tokens else 1.0  # no tokens: nothing matches
        # Tokens in all columns of each row, by rowid: read in one statement, so of one version
        # of the index, a chunk at a time (no Python list of every row at once).
        rowids, sizes = [np.zeros(1, np.int64)], [np.zeros(1, np.int32)]  # and row 0, of none
        rows = conn.execute(f"SELECT id, sz FROM {TABLE}_docsize")
        while chunk := rows.fetchmany(_CHUNK):
            rowids.append(np.fromiter((rowid for rowid, _ in chunk), np.int64, len(chunk)))
            packed = _varints(b"".join(sz for _, sz in chunk)).reshape(len(chunk), len(COLUMNS))
            sizes.append(packed.sum(axis=1, dtype=np.int32))
        ids = np.concatenate(rowids)
        size = np.zeros(int(ids.max()) + 1, np.int32)
        size[ids] = np.concatenate(sizes)
        # bm25's term for each row's length, by rowid (8 bytes a row, not budgeted), computed as
        # fts5Bm25Function computes it, so that each part of a score is the very same double.
        self.length = K1 * (1 - B + B * size / self.avgdl)
        # Each column's weight by the first letter of its name, which differs from column to
        # column: how read() weighs an instance from the name fts5vocab gives its column.
        self.weight_by_initial = np.zeros(128)
        for name, weight in zip(COLUMNS, weights, strict=True):
            self.weight_by_initial[ord(name[0])] = weight
        self.matches: OrderedDict[str, Held] = OrderedDict()
        self.bytes = 0  # what `matches` hold
        self.texts: KeptReads[int, Texts] = KeptReads(TEXT_BUDGET, _text_bytes)
        self.holders: dict[str, int] = {}  # how many rows hold a word
        self.rowids: OrderedDict[str, np.ndarray] = OrderedDict()  # within ROWIDS_BUDGET
        self.rowids_bytes = 0
        self.lock = threading.Lock()

    def matched(self, conn, words: list[str], *, kept_only: bool = False) -> "Matched | None":
        """The rows holding every word; None when a word is too common to keep, when reading
        the words not kept is neither admitted (_Admission) nor worth it for this query alone
        (worth_reading), or when the index changed while they were read: FTS5 ranks that
        query. Words not kept are read outside the lock: a search of kept words (on the event
        loop, app.web.on_loop) never waits for another's reading. `kept_only`: None where a
        word is not kept, without reading it or counting the ask (the search is made again,
        elsewhere, and asks then)."""
        kept: dict[str, Held] = {}
        with self.lock:
            # Nearly full: what reading would push out first.
            rival = next(iter(self.matches), None) if self.bytes > BUDGET * 3 // 4 else None
            for word in words:
                if (found := self.matches.get(word)) is not None:
                    kept[word] = found
            missing = [word for word in words if word not in kept]
            if kept_only and missing:
                return None
            for word in kept:
                self.matches.move_to_end(word)
        self.admission.ask(words)
        admitted = not missing or self.admission.admits(missing, rival)
        if not admitted and not self.worth_reading(conn, words, missing):
            return None
        if missing:
            fresh = {word: self.read(conn, word) for word in missing}
            # Read statement by statement: a write may have committed since the record was
            # read. Words read from another index are neither kept nor ranked here.
            if _structure(conn) != self.structure:
                return None
            too_common = [word for word, held in fresh.items() if held.nbytes > WORD_BUDGET]
            with self.lock:
                for word, held in fresh.items():
                    if admitted and word not in too_common and word not in self.matches:
                        self.matches[word] = held
                        self.bytes += held.nbytes
                # The words of this query are the last used: never the ones let go.
                while self.bytes > BUDGET and len(self.matches) > len(words):
                    gone, held = self.matches.popitem(last=False)
                    self.bytes -= held.nbytes
                    if (made := self.rowids.pop(gone, None)) is not None:  # made of what went
                        self.rowids_bytes -= made.nbytes
            for word in too_common:
                self.admission.too_common(word)
            if too_common:
                return None
            kept |= fresh
        parts = [(self._rowids(word, kept[word]), kept[word].counts) for word in words]
        by_size = sorted(range(len(parts)), key=lambda i: len(parts[i][0]))
        common = parts[by_size[0]][0]
        # Where each common row is in each word's rowids (a slice: all of them), found by the
        # intersection, so a page's scores need no search of their own.
        at_of: dict[int, np.ndarray | slice] = {by_size[0]: slice(None)}
        for i in by_size[1:]:  # each sorted: binary searches of the fewest, fewest first
            rowids = parts[i][0]
            at = rowids.searchsorted(common)
            np.minimum(at, len(rowids) - 1, out=at)
            held = rowids[at] == common
            common = common[held]
            for j, positions in at_of.items():
                at_of[j] = np.flatnonzero(held) if isinstance(positions, slice) else positions[held]
            at_of[i] = at[held]
        if len(common) and common[-1] >= len(self.length):  # a row this record has no size of
            return None
        weights = [idf(self.rows, len(rowids)) for rowids, _ in parts]
        scored = [i for i, weight in enumerate(weights) if weight is not None] or range(len(parts))
        terms = [(at_of[i], parts[i][1], weights[i] or 1e-6) for i in scored]  # FTS5's floor
        return Matched(common, terms, self.length)

    def _rowids(self, word: str, held: "Held") -> np.ndarray:
        """The rowids of `held`, the word's matches: kept as int32 for a word kept."""
        if held.rows.dtype == np.int32:
            return held.rows
        with self.lock:
            if (found := self.rowids.get(word)) is not None:
                self.rowids.move_to_end(word)
                return found
        rowids = held.rowids()
        with self.lock:
            if self.matches.get(word) is held and word not in self.rowids:
                self.rowids[word] = rowids
                self.rowids_bytes += rowids.nbytes
                while self.rowids_bytes > ROWIDS_BUDGET and len(self.rowids) > 1:
                    self.rowids_bytes -= self.rowids.popitem(last=False)[1].nbytes
        return rowids

    def worth_reading(self, conn, words: list[str], missing: list[str]) -> bool:
        """Whether reading the words `missing` of a query of `words` costs less than FTS5's
        ranking of it: FTS5 scores every row holding a query of one word, and for a query of
        several walks every row holding each word (to weigh it) besides scoring the rows
        holding all. Measured over 2,000 searches of new words at 10,000 and at 100,000
        entries, reading paid for one word, and for several where the rows holding the words
        to read were at most a third of the query's words' holders added up, and 500 more
        (READ_SHARE, READ_ROWS). Never a word too common to keep, nor one half the rows or
        more hold (it only selects rows: FTS5 lists or counts it faster than it is read)."""
        if self.admission.any_too_common(missing):
            return False
        held = {word: self.held(conn, word) for word in words}
        reading = [held[word] for word in dict.fromkeys(missing)]
        if any(hits * _MATCH_BYTES > WORD_BUDGET or idf(self.rows, hits) is None for hits in reading):
            return False
        return len(held) == 1 or sum(reading) <= READ_SHARE * sum(held.values()) + READ_ROWS

    def held(self, conn, word: str) -> int:
        """How many rows hold the word: counted once for this record (FTS5 walks its matches)."""
        found = self.known_holders(word)
        if found is None:
            if (kept := self.matches.get(word)) is not None:
                found = len(kept)
            else:
                row = conn.execute(f"SELECT doc FROM {_ROWS} WHERE term = ?", (word,)).fetchone()
                found = row[0] if row else 0
            with self.lock:
                if len(self.holders) >= HOLDERS:
                    self.holders.clear()
                self.holders[word] = found
        return found

    def known_holders(self, word: str) -> int | None:
        """How many rows hold the word, where it was counted for this record; None otherwise."""
        return self.holders.get(word)

    def row_texts(self, conn, rowids: list[int]) -> dict[int, Texts]:
        """(signature, title, body) of each row, and their lower case (app.backends.text.lowered):
        kept ones, and the others read and kept (for this record: a version of its own)."""
        return self.texts.read(rowids, lambda missing: _lowered_texts(conn, missing), ())

    def read(self, conn, word: str) -> "Held":
        """The rows holding the word and how often each holds it, each instance weighed by its
        column's weight."""
        # Every instance of the word, its row and the first letter of its column's name, packed
        # in one number (row * 128 + letter), as one list in one row of text: SQLite builds it
        # in C. A row per matching row (GROUP BY, a sum of the columns' weights in SQL) took
        # two to three times as long; a list of rows and one of column names, 1.4 times.
        (packed,) = conn.execute(
            f"SELECT group_concat(doc * 128 + unicode(col)) FROM {_INSTANCES} WHERE term = ?", (word,)
        ).fetchone()
        if packed is None:
            return Held.of(np.zeros(0, np.int32), np.zeros(0))
        instances = np.fromstring(packed, np.int64, sep=",")
        doc, weights = instances >> 7, self.weight_by_initial[instances & 127]
        if (doc[1:] < doc[:-1]).any():  # fts5vocab walks the index in rowid order; if it did not
            order = np.argsort(doc, kind="stable")
            doc, weights = doc[order], weights[order]
        first = np.flatnonzero(np.concatenate(([True], doc[1:] != doc[:-1])))
        # The sum of a row's instances' weights, as FTS5's bm25 adds them up: whole-number
        # weights keep every such sum exact, whatever order numpy adds them in.
        return Held.of(doc[first].astype(np.int32), np.add.reduceat(weights, first))


@dataclass(frozen=True, slots=True)
class Held:
    """A word's matches as kept: half the bytes of rowids (int32) and counts (uint16), so that
    twice as many words are kept in the budget (at 100,000 entries, the words of searches of
    new words took 34 MB that way, four times the budget). Rowids are kept as the gaps between
    them (uint16) where every gap fits, and made rowids again where used (a cumulative sum:
    8 µs for 5,000 rows, where intersecting them takes tens; those of the words used most
    lately are kept, ROWIDS_BUDGET); weighed counts as the smallest unsigned integers that
    hold them all exactly, float64 otherwise."""

    first: int  # the first rowid, where `rows` holds gaps
    rows: np.ndarray  # uint16 gaps after the first rowid (the first gap 0), or int32 rowids
    counts: np.ndarray

    @classmethod
    def of(cls, rowids: np.ndarray, counts: np.ndarray) -> "Held":
        """Of `rowids` (int32, ascending) and their weighed counts."""
        first = int(rowids[0]) if len(rowids) else 0
        gaps = np.diff(rowids, prepend=first)
        if len(gaps) and gaps.max() <= np.iinfo(np.uint16).max:
            rows = gaps.astype(np.uint16)
        else:
            rows, first = rowids, 0
        if len(counts) and counts.min() >= 0:
            for kind in (np.uint8, np.uint16):
                if counts.max() <= np.iinfo(kind).max:
                    small = counts.astype(kind)
                    counts = small if np.array_equal(small, counts) else counts
                    break
        return cls(first, rows, counts)

    def rowids(self) -> np.ndarray:
        """The rowids holding the word, ascending (int32)."""
        if self.rows.dtype == np.int32:
            return self.rows
        rowids = np.cumsum(self.rows, dtype=np.int32)
        rowids += self.first
        return rowids

    @property
    def nbytes(self) -> int:
        return self.rows.nbytes + self.counts.nbytes

    def __len__(self) -> int:
        return len(self.counts)


def _lowered_texts(conn, rowids: list[int]) -> dict[int, Texts]:
    return {rowid: (texts, tuple(map(lowered, texts))) for rowid, texts in read_texts(conn, rowids).items()}


def _text_bytes(texts: Texts) -> int:
    # Lowering makes a string of its own of each text (an empty one shared: a few bytes over).
    return sum(map(sys.getsizeof, texts[0])) + sum(map(sys.getsizeof, texts[1]))


# FTS5 keeps the index's texts as c0, c1, ... in the order of COLUMNS; snippets are cut from
# the signature first.
_SNIPPET_COLUMNS = ", ".join(f"c{COLUMNS.index(name)}" for name in ("signature", "title", "body"))


def read_texts(conn, rowids: list[int]) -> dict[int, tuple[str, ...]]:
    """(signature, title, body) of each row: the texts snippets are cut from. Read from the
    table FTS5 keeps them in: through the index, each rowid listed was a query of the index,
    which took twice as long. The rowids are bound, one placeholder each, so that sqlite3
    keeps the statement prepared for each length of a page: with the numbers written into
    it, each read compiled a statement of its own, 40 % of reading twelve rows."""
    sql = f"SELECT id, {_SNIPPET_COLUMNS} FROM {TABLE}_content WHERE id IN ({', '.join('?' * len(rowids))})"
    return {r[0]: r[1:] for r in conn.execute(sql, rowids)}


@dataclass(frozen=True)
class Matched:
    """The rows holding every word of a query, in rowid order, and for each word that scores
    (where each of those rows is in the word's matches, the word's weighed counts, its idf):
    scored only when a page of them is asked for (a query of words most rows hold is listed
    without scores, app/backends/sqlite.py)."""

    rowids: np.ndarray
    terms: list[tuple[np.ndarray | slice, np.ndarray, float]]
    length: np.ndarray  # bm25's term for every row's length, by rowid

    def page(self, limit: int, offset: int) -> list[tuple[int, float]]:
        """(rowid, score: lower is better) of the page, as ORDER BY score, rowid LIMIT OFFSET
        gives it: only the rows that can be on it are sorted (every row tied with the last
        of them included)."""
        rowids = self.rowids
        length = self.length[rowids]
        scores = None
        for at, counts, weight in self.terms:  # in the query's order, as bm25() adds them
            # weight * ((frequency * (k1 + 1)) / (frequency + length)), as fts5Bm25Function
            # has it, in place: each part the very same double (and 0.0 + part is part)
            frequency = counts[at]
            part = np.multiply(frequency, K1 + 1.0)
            np.divide(part, frequency + length, out=part)
            np.multiply(part, weight, out=part)
            scores = part if scores is None else np.add(scores, part, out=scores)
        np.negative(scores, out=scores)
        end = offset + limit
        if end < len(scores):
            last = np.partition(scores, end - 1)[end - 1]
            near = np.flatnonzero(scores <= last)
            rowids, scores = rowids[near], scores[near]
        order = np.lexsort((rowids, scores))[offset:end]
        return list(zip(rowids[order].tolist(), scores[order].tolist(), strict=True))


class WordMatches:
    """Per engine: the words read lately and what they were read against."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._words: _Words | None = None
        self._admission = _Admission()  # across changes of the index

    def kept(self, words: list[str]) -> bool:
        """Whether the matches of every one of `words` (plain terms) are kept, as last read:
        a search of them is answered from memory unless the index changed since."""
        found = self._words
        return found is not None and all(word in found.matches for word in words)

    def at(self, conn: Connection, weights: tuple[float, ...], *, kept_only: bool = False) -> "_Words | None":
        """The words read against the index as `conn` sees it: read again after any change
        (the rows' sizes, tens of milliseconds at 100,000 entries), or None with `kept_only`."""
        driver = conn.connection.driver_connection
        structure = _structure(driver)
        kept = self._words
        if kept is None or kept.structure != structure or kept.weights != weights:
            if kept_only:
                return None
            # Read outside the lock: the searches that find the index as it was go on meanwhile.
            kept = _Words(driver, structure, weights, self._admission)
            with self._lock:
                self._words = kept
        return kept


def _structure(conn) -> bytes:
    """FTS5's structure record of the index, which every write to it rewrites."""
    return _block(conn, _STRUCTURE_ROWID)


def _block(conn, rowid: int) -> bytes:
    """One of FTS5's own rows of the index's %_data table (empty before the index has any)."""
    found = conn.execute(f"SELECT block FROM {TABLE}_data WHERE id = ?", (rowid,)).fetchone()
    return found[0] if found else b""


_KEPT: "weakref.WeakKeyDictionary[Engine, WordMatches]" = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def word_matches(conn: Connection | Engine) -> WordMatches:
    """The process's WordMatches for the database `conn` is on (or the engine's)."""
    engine = conn if isinstance(conn, Engine) else conn.engine
    with _KEPT_LOCK:
        found = _KEPT.get(engine)
        if found is None:
            found = _KEPT[engine] = WordMatches()
        return found
