"""Everything SQLite-specific: connection pragmas, transactions, the FTS5 index, backups.

A PostgreSQL backend would provide the same functions (tsvector/pg_trgm instead of FTS5).
"""

import re
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


_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")


def cjk_pairs(text: str) -> list[str]:
    """Every pair of adjacent CJK characters (a lone character stands for itself)."""
    pairs: list[str] = []
    for run in _CJK_RUN.findall(text):
        pairs += [run[i : i + 2] for i in range(max(1, len(run) - 1))]
    return pairs


def write_index_row(conn: Connection, rowid: int, *, title: str, signature: str, body: str) -> None:
    for table in ("entry_fts", "entry_fts_cjk"):
        conn.execute(text(f"DELETE FROM {table} WHERE rowid = :rowid"), {"rowid": rowid})
    conn.execute(
        text("INSERT INTO entry_fts(rowid, title, signature, body) VALUES (:r, :t, :s, :b)"),
        {"r": rowid, "t": title, "s": signature, "b": body},
    )
    pairs = cjk_pairs(f"{title}\n{signature}\n{body}")
    if pairs:
        conn.execute(
            text("INSERT INTO entry_fts_cjk(rowid, pairs) VALUES (:r, :p)"),
            {"r": rowid, "p": " ".join(dict.fromkeys(pairs))},
        )


def clear_index(conn: Connection) -> None:
    for table in ("entry_fts", "entry_fts_cjk"):
        conn.execute(text(f"DELETE FROM {table}"))


HIGHLIGHT_START, HIGHLIGHT_END = "\x02", "\x03"
_MIN_TRIGRAM = 3


def _quoted(term: str) -> str:
    # Every user term becomes one FTS5 string: operators, '*', NEAR( and brackets lose meaning.
    return '"' + term.replace('"', '""') + '"'


def _marked_snippet(texts: tuple[str, ...], terms: list[str], width: int = 60) -> str:
    """A snippet around the first term found, terms marked as FTS5's snippet() would mark them."""
    for text_ in texts:
        lower = text_.lower()
        hits = [(lower.find(t.lower()), t) for t in terms if t.lower() in lower]
        if hits:
            start = max(0, min(h[0] for h in hits) - width // 2)
            window = text_[start : start + width * 2]
            pattern = re.compile("|".join(re.escape(t) for _, t in hits), re.I)
            marked = pattern.sub(lambda m: f"{HIGHLIGHT_START}{m.group(0)}{HIGHLIGHT_END}", window)
            return ("…" if start else "") + marked + ("…" if start + width * 2 < len(text_) else "")
    return texts[0][: width * 2]


def search_index(
    conn: Connection, terms: list[str], *, any_term: bool, limit: int, offset: int
) -> tuple[list[tuple[int, float, str]], int]:
    """(rowid, score, snippet) of matching rows, best first, and the number of matches.

    Terms of three characters or more go to the trigram index; two-character Chinese words
    to the pair index; anything shorter filters titles and signatures with LIKE.
    """
    long_terms = [t for t in terms if len(t) >= _MIN_TRIGRAM]
    pair_terms = [t for t in terms if len(t) == 2 and len(cjk_pairs(t)) == 1 and t == cjk_pairs(t)[0]]
    short_terms = [t for t in terms if len(t) < _MIN_TRIGRAM and t not in pair_terms]
    joiner = " OR " if any_term else " AND "
    params: dict = {"limit": limit, "offset": offset}
    if pair_terms and not (any_term and long_terms):
        params["pairs"] = joiner.join(_quoted(t) for t in pair_terms)
    if long_terms:
        where = ["entry_fts MATCH :match"]
        params["match"] = joiner.join(_quoted(t) for t in long_terms)
        if "pairs" in params:
            where.append("rowid IN (SELECT rowid FROM entry_fts_cjk WHERE entry_fts_cjk MATCH :pairs)")
        source, score = "entry_fts", "bm25(entry_fts, 10.0, 6.0, 1.0)"
        snippet = "snippet(entry_fts, -1, :hs, :he, '…', 48)"
        params.update(hs=HIGHLIGHT_START, he=HIGHLIGHT_END)
    elif pair_terms:
        where = []
        source = (
            "entry_fts JOIN (SELECT rowid AS pid, bm25(entry_fts_cjk) AS prank FROM entry_fts_cjk "
            "WHERE entry_fts_cjk MATCH :pairs) ON pid = entry_fts.rowid"
        )
        score, snippet = "prank", None
    else:
        where, source, score, snippet = [], "entry_fts", "0.0", None
    if not any_term or not (long_terms or pair_terms):
        for n, term in enumerate(short_terms):
            escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append(f"(title || ' ' || signature) LIKE :like{n} ESCAPE '\\'")
            params[f"like{n}"] = f"%{escaped}%"
    if not where and source == "entry_fts":
        return [], 0
    condition = f"WHERE {' AND '.join(where)}" if where else ""
    columns = snippet or "title, signature, body"
    rows = conn.execute(
        text(
            f"SELECT entry_fts.rowid, {score} AS score, {columns} FROM {source} {condition} "
            "ORDER BY score, entry_fts.rowid LIMIT :limit OFFSET :offset"
        ),
        params,
    ).all()
    total = conn.execute(text(f"SELECT count(*) FROM {source} {condition}"), params).scalar_one()
    if snippet:
        return [(r[0], float(r[1]), r[2]) for r in rows], total
    return [(r[0], float(r[1]), _marked_snippet((r[3], r[2], r[4]), terms)) for r in rows], total
