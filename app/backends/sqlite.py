"""Everything SQLite-specific: connection pragmas, transactions, the FTS5 index, backups.

app/backends/postgres.py provides the same functions; app/backends/__init__.py picks one.
"""

import sqlite3
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, func, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.backends.text import (
    MIN_TRIGRAM,
    cjk_pairs,
    marked_snippet,
    split_scripts,
    total_of_page,
)


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
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection):
        mode = conn.get_execution_options().get("sqlite_begin", "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {mode}")


WRITE_OPTIONS = {"sqlite_begin": "IMMEDIATE"}


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
    much (BEGIN, SELECT, COMMIT, each through SQLAlchemy).
    """

    def __init__(self, engine: Engine) -> None:
        self._checked_out = engine.raw_connection()  # held for the life of the reader
        self.driver_connection = self._checked_out.driver_connection
        self._statements: dict[int, str] = {}

    def __call__(self, ids: tuple[str, ...]) -> tuple[int, int]:
        """Like app.services.entries.read.current_stamp, no ids meaning the whole base."""
        sql = self._statements.get(len(ids))
        if sql is None and not ids:
            # Each max() alone, so that each is read from its index.
            sql = "SELECT (SELECT max(seq) FROM entry), (SELECT max(changed) FROM entry)"
            self._statements[0] = sql
        elif sql is None:
            marks = ", ".join("?" * len(ids))
            sql = self._statements[len(ids)] = (
                f"SELECT count(*), max(changed) FROM entry WHERE id IN ({marks})"
            )
        count, latest = self.driver_connection.execute(sql, ids).fetchone()
        return count, latest or 0

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
#   entry_fts_cjk    adjacent CJK character pairs: Chinese words, whatever their length
#   entry_fts        trigrams: substrings, for a query whose words match nothing whole

INDEX_TABLES = ("entry_fts_words", "entry_fts_cjk", "entry_fts")
_WEIGHTS = "10.0, 6.0, 1.0"  # title, signature, body


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
    pairs = cjk_pairs(f"{title}\n{signature}\n{body}")
    if pairs:
        conn.execute(
            text("INSERT INTO entry_fts_cjk(rowid, pairs) VALUES (:r, :p)"),
            {"r": rowid, "p": " ".join(dict.fromkeys(pairs))},
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


def _run(
    conn: Connection, select_sql: str, count_sql: str, params: dict, terms: list[str], *, whole_words: bool
) -> Hits:
    """One page of (rowid, score), then the snippets of that page only: snippet() in the
    ranking query would be computed for every match before the sort keeps twenty, and it
    tokenises each whole text again, which costs more than the ranking."""
    rows = conn.execute(text(select_sql + " LIMIT :limit OFFSET :offset"), params).all()
    total = total_of_page(rows, params["limit"], params["offset"])
    if total is None:
        total = conn.execute(text(count_sql), params).scalar_one()
    if not rows:
        return [], total
    texts = {
        r[0]: (r[1], r[2], r[3])
        for r in conn.execute(
            text(
                "SELECT rowid, signature, title, body FROM entry_fts_words WHERE rowid IN "
                f"({', '.join(str(int(r[0])) for r in rows)})"
            )
        )
    }
    return [
        (r[0], float(r[1]), marked_snippet(texts[r[0]], terms, whole_words=whole_words)) for r in rows
    ], total


def search_words(conn: Connection, terms: list[str], *, any_term: bool, limit: int, offset: int) -> Hits:
    """(rowid, bm25 score, snippet) of entries holding the words, best first, and how many.

    Latin-script terms match whole words (an identifier such as gpu_memory_utilization is
    a phrase of its parts); Chinese terms match through their character pairs.
    """
    joiner = " OR " if any_term else " AND "
    latin, chinese = split_scripts(terms)
    params: dict = {"limit": limit, "offset": offset}
    if chinese:
        params["pairs"] = joiner.join(
            "(" + " AND ".join(_quoted(p) for p in dict.fromkeys(cjk_pairs(t))) + ")" for t in chinese
        )
    if latin:
        params["words"] = joiner.join(_quoted(t) for t in latin)
        where = "entry_fts_words MATCH :words"
        if chinese and not any_term:  # FTS5 cannot OR a MATCH with another condition
            where += " AND rowid IN (SELECT rowid FROM entry_fts_cjk WHERE entry_fts_cjk MATCH :pairs)"
        return _run(
            conn,
            f"SELECT rowid, bm25(entry_fts_words, {_WEIGHTS}) AS score FROM entry_fts_words WHERE {where} "
            "ORDER BY score, rowid",  # ties in a fixed order, so pages never overlap
            f"SELECT count(*) FROM entry_fts_words WHERE {where}",
            params,
            terms,
            whole_words=True,
        )
    if not chinese:
        return [], 0
    return _run(
        conn,
        "SELECT rowid, bm25(entry_fts_cjk) AS score FROM entry_fts_cjk WHERE entry_fts_cjk MATCH :pairs "
        "ORDER BY score, rowid",
        "SELECT count(*) FROM entry_fts_cjk WHERE entry_fts_cjk MATCH :pairs",
        params,
        chinese,
        whole_words=True,
    )


def search_substrings(conn: Connection, terms: list[str], *, limit: int, offset: int) -> Hits:
    """Entries holding every term as a substring (trigrams: three characters or more)."""
    long_terms = [t for t in terms if len(t) >= MIN_TRIGRAM]
    if not long_terms:
        return [], 0
    return _run(
        conn,
        f"SELECT rowid, bm25(entry_fts, {_WEIGHTS}) AS score FROM entry_fts WHERE entry_fts MATCH :match "
        "ORDER BY score, rowid",
        "SELECT count(*) FROM entry_fts WHERE entry_fts MATCH :match",
        {"match": " AND ".join(_quoted(t) for t in long_terms), "limit": limit, "offset": offset},
        long_terms,
        whole_words=False,
    )
