"""bm25 over the word index in numpy, from words' matches read once out of FTS5's own index.

FTS5 scores every match of a query with bm25 before it sorts them: about a microsecond a
row, so a query of common words at 100,000 entries ("timeout": 7,057 matches, "cuda out of
memory": 498 matches of four words) spent milliseconds ranking. Here each word's matches
are read once from FTS5's index (its fts5vocab instance table): the rows that hold it and,
for each, the word's part of the bm25 sum, computed as FTS5 computes it (fts5_aux.c: k1 1.2,
b 0.75, the column weights of the query, the row's size in tokens, idf floored at 1e-6).
A query's matches are then the rows every word holds, and their scores the sum of the
words' parts in the query's order: the same doubles bm25() returns, so the same order,
ties by rowid as the SQL has them.

What was read stays valid while the index is unchanged: every transaction that writes to
the index writes FTS5's structure record when it commits (its pending changes become a
segment), so a search compares that record (one row) with the one the words were read
against, and reads them again after any change. A writer's own transaction holds changes
FTS5 has not written out yet: a search inside one is left to FTS5 (app/backends/sqlite.py).

Words are kept up to a budget of bytes, least recently used out first; a word whose matches
would take half of it is left to FTS5 (read again at every search, it would cost more than
FTS5's own ranking). The texts of the rows searches listed lately, with their lower case for
the snippets, are kept the same way against the same record: reading twenty rows' texts
and lowering them was a tenth of a search.
"""

import math
import re
import sys
import threading
import weakref
from collections import OrderedDict

import numpy as np
from sqlalchemy import Connection, Engine

from app.backends.text import lowered
from app.kept import KeptReads

K1, B = 1.2, 0.75
TABLE = "entry_fts_words"
COLUMNS = ("title", "signature", "body")
BUDGET = 8 * 1024 * 1024  # about 700,000 matches: every word of the bench's searches at 100,000 entries
TEXT_BUDGET = 4 * 1024 * 1024  # the texts of about a thousand rows, with their lower case
_CHUNK = 8192  # rows read at a time
_STRUCTURE_ROWID, _AVERAGES_ROWID = 10, 1  # FTS5's own rows of its %_data table
Texts = tuple[tuple[str, ...], tuple[str, ...]]  # a row's texts, and the same in lower case
# A query term that unicode61 reads as this one token: lower-case ASCII letters and digits.
# Anything else (a phrase of parts, diacritics, other scripts) is left to FTS5.
PLAIN_TERM = re.compile(r"[a-z0-9]+")


def _varints(data: bytes) -> np.ndarray:
    """The SQLite varints packed one after another in `data` (values below 2**53)."""
    raw = np.frombuffer(data, np.uint8).astype(np.int64)
    last = raw < 0x80  # the last byte of each varint
    number = np.cumsum(last) - last  # which varint each byte belongs to
    ends = np.flatnonzero(last)
    shift = 7 * (ends[number] - np.arange(len(raw)))
    return np.bincount(number, weights=(raw & 0x7F) << shift).astype(np.int64)


class _Words:
    """One index's words as read against one structure record."""

    def __init__(self, conn, structure: bytes, weights: tuple[float, ...]) -> None:
        self.structure, self.weights = structure, weights
        averages = _varints(_row(conn, f"SELECT block FROM {TABLE}_data WHERE id = ?", (_AVERAGES_ROWID,)))
        self.rows = int(averages[0]) if len(averages) else 0  # no record before the first row
        self.avgdl = float(averages[1:].sum()) / float(self.rows) if self.rows else 1.0
        last = conn.execute(f"SELECT max(id) FROM {TABLE}_docsize").fetchone()[0] or 0
        self.size = np.zeros(last + 1, np.int32)  # tokens in all columns, by rowid (not budgeted)
        rows = conn.execute(f"SELECT id, sz FROM {TABLE}_docsize")
        while chunk := rows.fetchmany(_CHUNK):  # a chunk at a time: no list of every row at once
            ids = np.fromiter((rowid for rowid, _ in chunk), np.int64, len(chunk))
            counts = _varints(b"".join(size for _, size in chunk)).reshape(len(chunk), len(COLUMNS))
            self.size[ids] = counts.sum(axis=1)
        self.matches: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self.too_common: set[str] = set()
        self.bytes = 0  # what `matches` hold
        self.texts: KeptReads[int, Texts] = KeptReads(TEXT_BUDGET, _text_bytes)
        self.lock = threading.Lock()

    def ranked(self, conn, words: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
        """(rowids, scores: lower is better) of the rows holding every word, in rowid order;
        None when a word is too common to keep (FTS5 ranks that query)."""
        parts = []
        with self.lock:
            try:
                if self.too_common.intersection(words):
                    return None
                for word in words:
                    found = self.matches.get(word)
                    if found is None:
                        conn.execute(
                            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{TABLE}_instances "
                            f"USING fts5vocab(main, {TABLE}, instance)"
                        )
                        found = self.read(conn, word)
                        size = found[0].nbytes + found[1].nbytes
                        if size > BUDGET // 2:
                            self.too_common.add(word)
                            return None
                        self.matches[word] = found
                        self.bytes += size
                    else:
                        self.matches.move_to_end(word)
                    parts.append(found)
            finally:  # the words of this query are the last used: never the ones let go
                while self.bytes > BUDGET and len(self.matches) > len(parts):
                    _, (rowids, part) = self.matches.popitem(last=False)
                    self.bytes -= rowids.nbytes + part.nbytes
        common = min((rowids for rowids, _ in parts), key=len)
        for rowids, _ in parts:  # each sorted: a binary search of the fewest
            if rowids is not common:
                at = np.searchsorted(rowids, common).clip(max=len(rowids) - 1)
                common = common[rowids[at] == common]
        score = np.zeros(len(common))
        for rowids, part in parts:  # in the query's order, as bm25() adds them
            score = score + part[np.searchsorted(rowids, common)]
        return common, -1.0 * score

    def row_texts(self, conn, rowids: list[int]) -> dict[int, Texts]:
        """(signature, title, body) of each row, and their lower case (app.backends.text.lowered):
        kept ones, and the others read and kept (for this record: a version of its own)."""
        return self.texts.read(rowids, lambda missing: _lowered_texts(conn, missing), ())

    def read(self, conn, word: str) -> tuple[np.ndarray, np.ndarray]:
        """(rowids holding the word, ascending; the word's part of each one's bm25 sum)."""
        weight = " ".join(f"WHEN '{name}' THEN {w!r}" for name, w in zip(COLUMNS, self.weights, strict=True))
        rows = conn.execute(
            f"SELECT doc, sum(CASE col {weight} END) FROM temp.{TABLE}_instances WHERE term = ? GROUP BY doc",
            (word,),
        )
        docs, frequencies = [np.zeros(0, np.int32)], [np.zeros(0)]
        while chunk := rows.fetchmany(_CHUNK):
            docs.append(np.fromiter((doc for doc, _ in chunk), np.int32, len(chunk)))
            frequencies.append(np.fromiter((f for _, f in chunk), np.float64, len(chunk)))
        rowids, frequency = np.concatenate(docs), np.concatenate(frequencies)
        order = np.argsort(rowids, kind="stable")
        rowids, frequency = rowids[order], frequency[order]
        hits = len(rowids)
        idf = math.log((self.rows - hits + 0.5) / (hits + 0.5))
        if idf <= 0.0:
            idf = 1e-6
        size = self.size[rowids]
        part = idf * ((frequency * (K1 + 1.0)) / (frequency + K1 * (1 - B + B * size / self.avgdl)))
        return rowids, part


def _lowered_texts(conn, rowids: list[int]) -> dict[int, Texts]:
    return {rowid: (texts, tuple(map(lowered, texts))) for rowid, texts in read_texts(conn, rowids).items()}


def _text_bytes(texts: Texts) -> int:
    return sum(sys.getsizeof(t) for t in {id(t): t for t in texts[0] + texts[1]}.values())


def read_texts(conn, rowids: list[int]) -> dict[int, tuple[str, ...]]:
    """(signature, title, body) of each row: the texts snippets are cut from."""
    sql = f"SELECT rowid, signature, title, body FROM {TABLE} WHERE rowid IN ({', '.join(map(str, rowids))})"
    return {r[0]: r[1:] for r in conn.execute(sql)}


def page(rowids: np.ndarray, scores: np.ndarray, limit: int, offset: int) -> list[tuple[int, float]]:
    """(rowid, score) of the page, as ORDER BY score, rowid LIMIT OFFSET gives it: only the
    rows that can be on it are sorted (every row tied with the last of them included)."""
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

    def at(self, conn: Connection, weights: tuple[float, ...]) -> "_Words":
        """The words read against the index as `conn` sees it: read again after any change."""
        driver = conn.connection.driver_connection
        structure = _row(driver, f"SELECT block FROM {TABLE}_data WHERE id = ?", (_STRUCTURE_ROWID,))
        kept = self._words
        if kept is None or kept.structure != structure or kept.weights != weights:
            # Read outside the lock: the searches that find the index as it was go on meanwhile.
            kept = _Words(driver, structure, weights)
            with self._lock:
                self._words = kept
        return kept


def _row(conn, sql: str, params: tuple) -> bytes:
    found = conn.execute(sql, params).fetchone()
    return found[0] if found else b""


_KEPT: "weakref.WeakKeyDictionary[Engine, WordMatches]" = weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def word_matches(conn: Connection) -> WordMatches:
    """The process's WordMatches for the database `conn` is on."""
    with _KEPT_LOCK:
        found = _KEPT.get(conn.engine)
        if found is None:
            found = _KEPT[conn.engine] = WordMatches()
        return found
