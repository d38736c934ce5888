"""Everything SQLite-specific: connection pragmas, transactions, the FTS5 index, backups.

A PostgreSQL backend would provide the same functions (tsvector/pg_trgm instead of FTS5).
"""

import sqlite3
from pathlib import Path

from sqlalchemy import Engine, event, text
from sqlalchemy.engine import Connection


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


# --- full-text index (FTS5, trigram) --------------------------------------------------


def write_index_row(conn: Connection, rowid: int, *, title: str, signature: str, body: str) -> None:
    conn.execute(text("DELETE FROM entry_fts WHERE rowid = :rowid"), {"rowid": rowid})
    conn.execute(
        text("INSERT INTO entry_fts(rowid, title, signature, body) VALUES (:r, :t, :s, :b)"),
        {"r": rowid, "t": title, "s": signature, "b": body},
    )


HIGHLIGHT_START, HIGHLIGHT_END = "\x02", "\x03"
_MIN_TRIGRAM = 3


def _quoted(term: str) -> str:
    # Every user term becomes one FTS5 string: operators, '*', NEAR( and brackets lose meaning.
    return '"' + term.replace('"', '""') + '"'


def search_index(
    conn: Connection, terms: list[str], *, any_term: bool, limit: int, offset: int
) -> tuple[list[tuple[int, float, str]], int]:
    """(rowid, bm25 score, snippet) of matching rows, best first, and the number of matches.

    The trigram tokenizer needs three characters; shorter terms filter with LIKE instead.
    """
    long_terms = [t for t in terms if len(t) >= _MIN_TRIGRAM]
    short_terms = [t for t in terms if len(t) < _MIN_TRIGRAM]
    where, params = [], {}
    if long_terms:
        joiner = " OR " if any_term else " AND "
        where.append("entry_fts MATCH :match")
        params["match"] = joiner.join(_quoted(t) for t in long_terms)
    for n, term in enumerate(short_terms if not any_term or not long_terms else []):
        escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        where.append(f"(title || ' ' || signature) LIKE :like{n} ESCAPE '\\'")
        params[f"like{n}"] = f"%{escaped}%"
    if not where:
        return [], 0
    condition = " AND ".join(where)
    order = "bm25(entry_fts, 10.0, 6.0, 1.0)" if long_terms else "rowid"
    rows = conn.execute(
        text(
            f"SELECT rowid, {order} AS score, snippet(entry_fts, -1, :hs, :he, '…', 14) "
            f"FROM entry_fts WHERE {condition} ORDER BY score LIMIT :limit OFFSET :offset"
        ),
        {**params, "hs": HIGHLIGHT_START, "he": HIGHLIGHT_END, "limit": limit, "offset": offset},
    ).all()
    total = conn.execute(text(f"SELECT count(*) FROM entry_fts WHERE {condition}"), params).scalar_one()
    return [(r[0], float(r[1]), r[2]) for r in rows], total
