"""Everything SQLite-specific: connection pragmas, transactions, the FTS5 index, backups.

app/backends/postgres.py provides the same functions; app/backends/__init__.py picks one.
"""

import json
import logging
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, func, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.backends import fts5_terms
from app.backends.text import indexed_pairs, marked_snippet, split_scripts, substring_terms, term_pairs

log = logging.getLogger(__name__)


def make_engine(url: str, *, busy_timeout_ms: int, pool_size: int, max_overflow: int) -> Engine:
    path = database_path(url)
    sizes = {}
    if path is not None:  # a database in memory keeps SQLAlchemy's own pool, which takes no sizes
        path.parent.mkdir(parents=True, exist_ok=True)
        sizes = {"pool_size": pool_size, "max_overflow": max_overflow}
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **sizes)
    configure_engine(engine, busy_timeout_ms=busy_timeout_ms)
    return engine


def configure_engine(engine: Engine, *, busy_timeout_ms: int) -> None:
    """WAL, foreign keys, a busy timeout, and transactions that we begin ourselves.

    pysqlite's own transaction handling defers BEGIN and cannot say IMMEDIATE; a writer
    that starts deferred and upgrades later fails with SQLITE_BUSY at once instead of
    waiting, so writes ask for `BEGIN IMMEDIATE` via an execution option.
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA foreign_keys = ON")
        fts5_terms.declare_vocabularies(cur)
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection):
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


WRITE_OPTIONS = {"sqlite_begin": "IMMEDIATE"}
# A connection with this execution option searches from memory alone: SearchNotInMemory where
# a search needs FTS5 (app.web.fastpath runs such searches on the event loop).
MEMORY_ONLY = "errata_memory_only"


class SearchNotInMemory(Exception):
    """The search needs the full-text index itself: to read a word's matches, or to rank."""


# Reads run in this process, on pages the OS keeps cached: a short one may run on the event loop.
READS_IN_PROCESS = True


def begin_write(session: Session) -> None:
    """Writers take the database lock at BEGIN: one writer at a time, waiting its turn."""
    session.connection(execution_options=WRITE_OPTIONS)


def lock(session: Session, name: str) -> None:
    """Nothing to do: BEGIN IMMEDIATE already serialises every writer."""


def serialize_entry_writes(session: Session) -> None:
    """Nothing to do: BEGIN IMMEDIATE already serialises every writer."""


def next_value(session: Session, column) -> int:
    """The next value of a counter column (writers are serialised by BEGIN IMMEDIATE)."""
    return (session.execute(select(func.max(column))).scalar_one() or 0) + 1


def is_busy(exc: OperationalError) -> bool:
    """The lock stayed taken past the busy timeout: nothing was written, a retry may pass."""
    return "locked" in str(exc.orig) or "busy" in str(exc.orig)


def after_copy(conn: Connection) -> None:
    """Nothing to do: SQLite's integer keys continue from the largest value present."""


class StampReader:
    """`reader(ids) -> (count, max(changed))` on one connection of its own, for the fast path.

    The DBAPI connection runs without an open transaction (isolation_level None), so each
    SELECT reads the latest commit; through the ORM the same check costs about 15 times as
    much (BEGIN, SELECT, COMMIT, each through SQLAlchemy). Stamps are kept while SQLite's
    data_version, which moves at each commit of any other connection (this one never writes),
    stays where it was: a check then reads no index, at any size of the base. Called from the
    event loop only: statements of two threads overlapping on one connection would hold one
    read transaction open, and neither the stamps nor data_version would move.
    """

    MAX_KEPT = 8192  # ids asked for between two writes (the pages read most); all forgotten past this

    def __init__(self, engine: Engine) -> None:
        self._checked_out = engine.raw_connection()  # held for the life of the reader
        self.driver_connection = self._checked_out.driver_connection
        self._indexed = True  # until the database says it has no ix_entry_stamp
        self._kept: tuple[int, dict[tuple[str, ...], tuple[int, int]]] = (-1, {})

    def __call__(self, ids: tuple[str, ...]) -> tuple[int, int]:
        """Like app.services.entries.read.current_stamp, no ids meaning the whole base."""
        # Read before the stamp: a stamp kept under a version is never older than it.
        version = self.driver_connection.execute("PRAGMA data_version").fetchone()[0]
        seen, kept = self._kept
        if seen != version or len(kept) >= self.MAX_KEPT:
            kept = {}
            self._kept = (version, kept)
        stamp = kept.get(ids)
        if stamp is None:
            stamp = kept[ids] = self._read(ids)
        return stamp

    def _read(self, ids: tuple[str, ...]) -> tuple[int, int]:
        """Only when no stamp is kept: sqlite3 keeps the statement prepared by its text."""
        try:
            count, latest = self.driver_connection.execute(self._statement(len(ids)), ids).fetchone()
        except sqlite3.OperationalError as exc:
            if not self._indexed or "no such index" not in str(exc):
                raise
            # A database not (or no longer) at migration 0014: the rows hold the counters.
            log.warning("the database has no index ix_entry_stamp (errata db upgrade adds it)")
            self._indexed = False
            return self._read(ids)
        return count, latest or 0

    def _statement(self, size: int) -> str:
        if not size:  # each max() alone, so that each is read from its index
            return "SELECT (SELECT max(seq) FROM entry), (SELECT max(changed) FROM entry)"
        # The primary key's index, which the planner prefers, holds no counter.
        source = "entry INDEXED BY ix_entry_stamp" if self._indexed else "entry"
        return f"SELECT count(*), max(changed) FROM {source} WHERE id IN ({', '.join('?' * size)})"

    def close(self) -> None:
        self._checked_out.close()


def database_path(url: str) -> Path | None:
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url.endswith(":memory:"):
        return None
    return Path(url[len(prefix) :])


def backup(engine: Engine, target: Path) -> None:
    """A consistent copy of the live database, taken with SQLite's online backup API."""
    target.parent.mkdir(parents=True, exist_ok=True)
    raw = engine.raw_connection()
    try:
        dest = sqlite3.connect(str(target))
        try:
            raw.driver_connection.backup(dest)
        finally:
            dest.close()
    finally:
        raw.close()


def integrity_check(conn: Connection) -> str:
    return conn.execute(text("PRAGMA integrity_check")).scalar_one()


# --- full-text index ------------------------------------------------------------------
# Three FTS5 tables share rowid = entry.seq:
#   entry_fts_words  words (unicode61): the main index, ranked with bm25
#   entry_fts_cjk    adjacent CJK character pairs: Chinese words, whatever their length;
#                    by field, ranked with bm25 as the words are (migration 0015)
#   entry_fts        trigrams: substrings, for a query whose words match nothing whole

INDEX_TABLES = ("entry_fts_words", "entry_fts_cjk", "entry_fts")
_COLUMN_WEIGHTS = (10.0, 6.0, 1.0)  # title, signature, body
_WEIGHTS = "".join(f", {w}" for w in _COLUMN_WEIGHTS)  # bm25's arguments after the table


def delete_index_row(conn: Connection, rowid: int) -> None:
    for table in INDEX_TABLES:
        conn.execute(text(f"DELETE FROM {table} WHERE rowid = :rowid"), {"rowid": rowid})


def write_index_row(conn: Connection, rowid: int, *, title: str, signature: str, body: str) -> None:
    delete_index_row(conn, rowid)
    values = {"r": rowid, "t": title, "s": signature, "b": body}
    for table in ("entry_fts_words", "entry_fts"):
        conn.execute(
            text(f"INSERT INTO {table}(rowid, title, signature, body) VALUES (:r, :t, :s, :b)"), values
        )
    pairs = {k: indexed_pairs(values[k]) for k in "tsb"}
    if any(pairs.values()):
        conn.execute(
            text("INSERT INTO entry_fts_cjk(rowid, title, signature, body) VALUES (:r, :t, :s, :b)"),
            {"r": rowid, **pairs},
        )


def clear_index(conn: Connection) -> None:
    for table in INDEX_TABLES:
        conn.execute(text(f"DELETE FROM {table}"))


def optimize_index(conn: Connection) -> None:
    """Merge the index segments that many small writes leave behind (after a bulk import)."""
    for table in INDEX_TABLES:
        conn.execute(text(f"INSERT INTO {table}({table}) VALUES ('optimize')"))


def _quoted(term: str) -> str:
    # Every user term becomes one FTS5 string: operators, '*', NEAR( and brackets lose meaning.
    return '"' + term.replace('"', '""') + '"'


Hits = tuple[list[tuple[int, float, str]], int]

# bm25 gives no weight to a word that more than half of the entries hold (FTS5 floors its
# idf at 1e-6), so a query of nothing else has no ranking worth scoring every match for: at
# 100,000 entries "a" matched 52,607; scoring them took 55 ms, counting them and listing a
# page 2 ms. Such a query lists entries holding the words in the title first, then in the
# title and signature, then anywhere, each tier in index order. Below this many matches,
# scoring costs about a millisecond, and small bases keep their ranking.
LISTED_FROM = 1000
_TIERS = (
    "{{title}} : ({m})",
    "{{title signature}} : ({m}) NOT {{title}} : ({m})",
    "({m}) NOT {{title signature}} : ({m})",
)


@dataclass(frozen=True)
class _Query:
    """`table MATCH :match`, and `more` conditions on rowid with their own parameters."""

    table: str
    match: str
    weights: str  # bm25's, one per column
    more: str = ""
    more_params: dict = field(default_factory=dict)
    every_word: bool = True  # each match holds every term (AND), so each term is at least as common
    # Latin and Chinese terms together: the query of the pairs (the rows both match, or
    # either, as every_word says). A score is the sum of both tables' bm25, as FTS5 scores
    # one table a query and cannot OR a MATCH with another condition.
    also: "_Query | None" = None

    def where(self, match: str) -> tuple[str, dict]:
        return f"{self.table} MATCH :match{self.more}", {"match": match, **self.more_params}


def _rows(conn: Connection, sql: str, params: dict | None = None) -> list[tuple]:
    """A search query run on the DBAPI connection, in the session's transaction: through
    SQLAlchemy each of a search's four or five statements costs more than SQLite's work."""
    return conn.connection.driver_connection.execute(sql, params or {}).fetchall()


def _count(conn: Connection, query: _Query, match: str) -> int:
    where, params = query.where(match)
    return _rows(conn, f"SELECT count(*) FROM {query.table} WHERE {where}", params)[0][0]


def _listed(conn: Connection, query: _Query, limit: int, offset: int) -> list[tuple[int, float]]:
    """A page of the tiers, each in rowid order (the index's own order: no sort, and the scan
    stops at the page); a tier wholly before the page is counted, not read."""
    tiers = [t.format(m=query.match) for t in _TIERS]
    rows: list[tuple[int, float]] = []
    skip = offset
    for tier in tiers:
        where, params = query.where(tier)
        sql = f"SELECT rowid, 0.0 FROM {query.table} WHERE {where} ORDER BY rowid LIMIT :limit OFFSET :offset"
        got = _rows(conn, sql, {**params, "limit": limit - len(rows), "offset": skip})
        rows += got
        if len(rows) == limit:
            break
        skip = 0 if got else skip - (_count(conn, query, tier) if skip else 0)
    return rows


def _scoring(query: _Query, more: str = "") -> tuple[str, dict]:
    """The statement of (rowid, score) of every match of `query`, and of `more` conditions."""
    where, params = query.where(query.match)
    return (
        f"SELECT rowid, bm25({query.table}{query.weights}) AS score FROM {query.table} WHERE {where}{more}",
        params,
    )


def _ranked(conn: Connection, query: _Query, limit: int, offset: int) -> list[tuple[int, float]]:
    sql, params = _scoring(query)
    sql += " ORDER BY score, rowid LIMIT :limit OFFSET :offset"  # ties in a fixed order: pages never overlap
    return _rows(conn, sql, {**params, "limit": limit, "offset": offset})


def _scored_both(conn: Connection, query: _Query) -> list[tuple[int, float]]:
    """Every match of a query of words and pairs (query.also), best first, by the sum of both
    scores. Of every word: the words' query finds the rows both match (query.more holds the
    pairs' condition), then the pairs' query scores those rows alone, given as a list (a
    query of the rows the words match would list every row that holds them: at 100,000
    entries, 45 ms for "内存 memory"). Of any word: each query scores its own matches."""
    scores = dict(_rows(conn, *_scoring(query)))
    if query.every_word and not scores:
        return []
    more, held = _rowid_in("held", json.dumps(list(scores))) if query.every_word else ("", {})
    sql, params = _scoring(query.also, more)
    for rowid, score in _rows(conn, sql, {**params, **held}):
        scores[rowid] = scores.get(rowid, 0.0) + score
    return sorted(scores.items(), key=lambda row: (row[1], row[0]))


def _scored_terms(conn: Connection, terms: list[str], words: "fts5_terms._Words | None") -> list[str] | None:
    """The words a score is made of when some, not all, of `terms` are words half the rows or
    more hold (bm25 floors their idf: fts5_terms.idf); None when all of them score, or none.
    `words`: what is kept against the index, None in a writer's own transaction, where
    counting is left to FTS5 as it sees the transaction."""
    if len(set(terms)) < 2:  # one word cannot be both
        return None
    driver = conn.connection.driver_connection
    if words is not None:
        rows, held = words.rows, lambda term: words.held(driver, term)
    else:
        rows = driver.execute(f"SELECT count(*) FROM {fts5_terms.TABLE}_docsize").fetchone()[0]
        sql = f"SELECT count(*) FROM {fts5_terms.TABLE} WHERE {fts5_terms.TABLE} MATCH ?"
        held = lambda term: driver.execute(sql, (_quoted(term),)).fetchone()[0]  # noqa: E731
    scored = [term for term in terms if fts5_terms.idf(rows, held(term)) is not None]
    return scored if 0 < len(scored) < len(terms) else None


def _fewest_holders(terms: list[str], words: "fts5_terms._Words") -> int | None:
    """How many rows hold the rarest of `terms` (each a word the index holds as one token),
    where that is at most LISTED_FROM and known already (counting it costs what counting
    the matches does); None otherwise."""
    known = [words.known_holders(term) for term in terms]
    fewest = min((n for n in known if n is not None), default=None)
    return fewest if fewest is not None and fewest <= LISTED_FROM else None


def _held(conn: Connection, query: _Query) -> str:
    """The rowids of every match, as one list built in SQLite ("1,5,9"; empty: none)."""
    where, params = query.where(query.match)
    return _rows(conn, f"SELECT group_concat(rowid) FROM {query.table} WHERE {where}", params)[0][0] or ""


def _ranked_among(
    conn: Connection, query: _Query, scored: list[str], held: str, limit: int, offset: int
) -> list[tuple[int, float]]:
    """A page of the matches `held`, ranked by the bm25 of the `scored` words alone: FTS5 ranks
    the rows holding those, each tested against the matches (_rowid_in)."""
    more, params = _rowid_in("held", f"[{held}]")
    match = " AND ".join(_quoted(t) for t in scored)
    among = replace(query, match=match, more=query.more + more, more_params={**query.more_params, **params})
    return _ranked(conn, among, limit, offset)


def _run(
    conn: Connection,
    query: _Query,
    terms: list[str],
    *,
    limit: int,
    offset: int,
    whole_words: bool,
) -> Hits:
    """How many match, one page of (rowid, score), then the snippets of that page only:
    snippet() in the ranking query would be computed for every match before the sort keeps
    twenty, and it tokenises each whole text again, which costs more than the ranking."""
    matched = words = scored = held = None
    options = conn.get_execution_options()
    # A writer's own transaction holds changes FTS5 has not written out: what is kept against
    # the index (words' matches, rows' texts) does not show them, so it searches without.
    keeps = options.get("sqlite_begin") != WRITE_OPTIONS["sqlite_begin"]
    memory_only = options.get(MEMORY_ONLY, False)
    plain = query.table == fts5_terms.TABLE and query.every_word and whole_words and fts5_terms.plain(terms)
    if plain and keeps:
        words = fts5_terms.word_matches(conn).at(conn, _COLUMN_WEIGHTS, kept_only=memory_only)
        if words is not None and not query.more:
            matched = words.matched(conn.connection.driver_connection, terms, kept_only=memory_only)
    if memory_only and matched is None:
        raise SearchNotInMemory
    if plain and matched is None:  # FTS5 ranks it: without the words most rows hold, if any
        scored = _scored_terms(conn, terms, words)
        if scored is not None:
            held = _held(conn, query)
    ranked = total = None  # ranked: every match, best first, where that costs less than counting
    if matched is not None:
        total = len(matched.rowids)
    elif held is not None:
        total = held.count(",") + 1 if held else 0
    elif query.also is not None and not query.every_word:  # counted as scored: no one query holds both
        ranked = _scored_both(conn, query)
        total = len(ranked)
    elif words is not None and (fewest := _fewest_holders(terms, words)) is not None:
        # (`words` is only for a plain query: each term is one of the index's words.)
        # No more rows match than hold the rarest word: FTS5 ranks them all, and their number
        # is the count, which counting apart took a fifth as long again. One more row than
        # that means a write since the word was counted: then they are counted.
        everything = _ranked(conn, query, fewest + 1, 0)
        if len(everything) <= fewest:
            ranked, total = everything, len(everything)
    if total is None:
        total = _count(conn, query, query.match)
    if not total:
        return [], 0
    common = query.every_word and total > LISTED_FROM
    if common:  # rowids are entry seqs, so the last is the size at most
        last = _rows(conn, f"SELECT rowid FROM {query.table} ORDER BY rowid DESC LIMIT 1")
        common = total > (last[0][0] if last else 0) / 2
    if common and memory_only:  # listed by FTS5, tier by tier
        raise SearchNotInMemory
    if common:
        rows = _listed(conn, query, limit, offset)
    elif matched is not None:
        rows = matched.page(limit, offset)
    elif ranked is not None:
        rows = ranked[offset : offset + limit]
    elif query.also is not None:  # counted first: most rows may hold the words, then listed
        rows = _scored_both(conn, query)[offset : offset + limit]
    elif scored is not None and held is not None:
        rows = _ranked_among(conn, query, scored, held, limit, offset)
    else:
        rows = _ranked(conn, query, limit, offset)
    if not rows:
        return [], total
    rowids = [int(r[0]) for r in rows]
    if keeps:  # the texts kept against the index as this search reads it, lowered too
        if words is None:
            words = fts5_terms.word_matches(conn).at(conn, _COLUMN_WEIGHTS)
        kept = words.row_texts(conn.connection.driver_connection, rowids)
        snippets = {
            rowid: marked_snippet(texts, terms, whole_words=whole_words, lower=lower)
            for rowid, (texts, lower) in kept.items()
        }
    else:
        snippets = _mark(conn, rowids, terms, whole_words=whole_words)
    return [(r[0], float(r[1]), snippets[r[0]]) for r in rows], total


def search_kept(engine: Engine, terms: list[str]) -> bool:
    """Whether a search of `terms` looks answerable from memory: each a plain word whose
    matches are kept. A cheap guess, made before the search; a search made with MEMORY_ONLY
    still raises SearchNotInMemory where it was wrong (the index changed, no row holds every
    word, or most rows hold them: FTS5 lists those)."""
    return fts5_terms.plain(terms) and fts5_terms.word_matches(engine).kept(terms)


def _rowid_in(name: str, rowids: str) -> tuple[str, dict]:
    """The condition that keeps matches whose rowid is in the JSON array `rowids`, bound as
    `name`. `+rowid` makes it a test of each match: SQLite would otherwise look each listed
    rowid up in the index, a full-text query per rowid of a list thousands long."""
    return f" AND +rowid IN (SELECT value FROM json_each(:{name}))", {name: rowids}


def _within(seqs: list[int] | None) -> tuple[str, dict]:
    """The condition that keeps matches among the entries numbered `seqs` (None: all)."""
    return ("", {}) if seqs is None else _rowid_in("within", json.dumps(seqs))


def search_words(
    conn: Connection,
    terms: list[str],
    *,
    any_term: bool,
    limit: int,
    offset: int,
    within: list[int] | None = None,
) -> Hits:
    """(rowid, score: lower is better, snippet) of entries holding the words, best first, and how
    many; with `within`, only among the entries of those numbers (a filter's).

    Latin-script terms match whole words (an identifier such as gpu_memory_utilization is
    a phrase of its parts); Chinese terms match through their character pairs.
    """
    joiner = " OR " if any_term else " AND "
    latin, chinese = split_scripts(terms)
    pairs = joiner.join("(" + " AND ".join(map(_quoted, term_pairs(t))) + ")" for t in chinese)
    page = {"limit": limit, "offset": offset, "whole_words": True}
    more, more_params = _within(within)
    if latin:
        words = joiner.join(_quoted(t) for t in latin)
        also = _Query("entry_fts_cjk", pairs, _WEIGHTS, more, more_params, not any_term) if chinese else None
        if chinese and not any_term:
            # A test of each of the words' matches, as _rowid_in's: looked up by rowid, each
            # row was a query of its own, which walked every row holding a common word again
            # for bm25 ("error 错误" at 100,000 entries: 255 ms, 6.2 ms so).
            more += " AND +rowid IN (SELECT rowid FROM entry_fts_cjk WHERE entry_fts_cjk MATCH :pairs)"
            more_params = {**more_params, "pairs": pairs}
        query = _Query(
            "entry_fts_words", words, _WEIGHTS, more, more_params, every_word=not any_term, also=also
        )
        return _run(conn, query, terms, **page)
    if not chinese:
        return [], 0
    query = _Query("entry_fts_cjk", pairs, _WEIGHTS, more, more_params, every_word=not any_term)
    return _run(conn, query, chinese, **page)


def search_substrings(
    conn: Connection, terms: list[str], *, limit: int, offset: int, within: list[int] | None = None
) -> Hits:
    """Entries holding every term as a substring (trigrams: three characters or more)."""
    long_terms = substring_terms(terms)
    if not long_terms:
        return [], 0
    match = " AND ".join(_quoted(t) for t in long_terms)
    query = _Query("entry_fts", match, _WEIGHTS, *_within(within))
    return _run(conn, query, long_terms, limit=limit, offset=offset, whole_words=False)


def _mark(conn: Connection, rowids: list[int], terms: list[str], *, whole_words: bool) -> dict[int, str]:
    """The snippets of a page of rows, read from the index's texts."""
    texts = fts5_terms.read_texts(conn.connection.driver_connection, rowids) if rowids else {}
    return {rowid: marked_snippet(each, terms, whole_words=whole_words) for rowid, each in texts.items()}
