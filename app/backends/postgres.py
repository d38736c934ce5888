"""Everything PostgreSQL-specific: the driver, locks, counters, the tsvector/pg_trgm index, backups.

The same functions as app/backends/sqlite.py. Where SQLite serialises every writer with
BEGIN IMMEDIATE, PostgreSQL lets writers run side by side under READ COMMITTED, so the
places that need one writer at a time say so: a row lock on the entry whose figures move
(`with_for_update` in the services), and transaction-scoped advisory locks here.
"""

import glob
import shutil
import subprocess
from pathlib import Path

from sqlalchemy import Engine, create_engine, func, select, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.backends.text import (
    indexed_pairs,
    marked_snippet,
    split_scripts,
    substring_terms,
    term_pairs,
    total_of_page,
)

DRIVER = "postgresql+psycopg"
# Lock not available (lock_timeout passed), deadlock detected, serialization failure: the
# transaction was rolled back whole, so the client may simply try again.
_RETRYABLE = {"55P03", "40P01", "40001"}


def engine_url(url: str) -> str:
    """postgresql:// and postgres:// mean psycopg 3, the driver this project ships with."""
    scheme, rest = url.split("://", 1)
    return f"{DRIVER}://{rest}" if scheme in ("postgresql", "postgres") else url


def make_engine(url: str, *, busy_timeout_ms: int, pool_size: int, max_overflow: int) -> Engine:
    # UTC sessions, so naive timestamps read back as what was written; a writer waits for a
    # lock as long as a SQLite writer waits for the database, then gives up (503, retry).
    options = f"-c timezone=UTC -c lock_timeout={int(busy_timeout_ms)}"
    return create_engine(
        engine_url(url),
        pool_pre_ping=True,
        pool_size=pool_size,
        max_overflow=max_overflow,
        connect_args={"options": options},
    )


def begin_write(session: Session) -> None:
    """Nothing to do at BEGIN: the statements that need one writer at a time take their locks."""


def lock(bind: Session | Connection, name: str) -> None:
    """Hold a lock named `name` until this transaction ends; others asking for it wait."""
    bind.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:name, 0))"), {"name": name})


# One lock for entry writes and every entry counter (seq, changed and any later one).
_ENTRY_WRITES = "errata: entry writes"


def serialize_entry_writes(session: Session) -> None:
    """Entry writers (imports, edits) take turns until each commits, as under SQLite: two
    servers importing the same files at start then agree instead of colliding on keys."""
    lock(session, _ENTRY_WRITES)


def next_value(session: Session, column) -> int:
    """The next value of a counter column of entry, in commit order.

    A sequence alone would hand out numbers in the order transactions ask, not the order
    they commit: a lookup index that has seen `changed` = 8 committed could miss a 7 that
    commits later. Holding one lock from the first number to the commit makes the numbers
    visible in order, as under SQLite's single writer.
    """
    serialize_entry_writes(session)
    return (session.execute(select(func.max(column))).scalar_one() or 0) + 1


# Reads wait on the server's socket: never on the event loop.
READS_IN_PROCESS = False


def is_busy(exc: OperationalError) -> bool:
    return getattr(exc.orig, "sqlstate", None) in _RETRYABLE


def after_copy(conn: Connection) -> None:
    """Move every serial key's sequence past the rows copied in with their keys."""
    serials = conn.execute(
        text(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'"
        )
    ).all()
    for table, column in serials:
        conn.execute(
            text(
                f'SELECT setval(pg_get_serial_sequence(:t, :c), coalesce(max("{column}"), 0) + 1, false) '
                f'FROM "{table}"'
            ),
            {"t": table, "c": column},
        )


class StampReader:
    """The fast path's stamp query (see app.backends.stamp_reader), in autocommit, so each
    SELECT reads the latest commit without a transaction around it."""

    _BASE = text("SELECT (SELECT max(seq) FROM entry), (SELECT max(changed) FROM entry)")
    _SOME = text("SELECT count(*), max(changed) FROM entry WHERE id = ANY(:ids)")

    def __init__(self, engine: Engine) -> None:
        self._conn = engine.connect().execution_options(isolation_level="AUTOCOMMIT")

    def __call__(self, ids: tuple[str, ...]) -> tuple[int, int]:
        if not ids:
            newest, latest = self._conn.execute(self._BASE).one()
            return newest or 0, latest or 0
        count, latest = self._conn.execute(self._SOME, {"ids": list(ids)}).one()
        return count, latest or 0

    def close(self) -> None:
        self._conn.close()


class BackupUnavailable(RuntimeError):
    pass


def _pg_dump() -> str | None:
    found = shutil.which("pg_dump")
    if found:
        return found
    bundled = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_dump"), key=lambda p: int(p.split("/")[4]))
    return bundled[-1] if bundled else None


def backup(engine: Engine, target: Path) -> str:
    """A consistent dump of the live database (pg_dump's custom format, for pg_restore)."""
    program = _pg_dump()
    if program is None:
        raise BackupUnavailable(
            "backing up PostgreSQL needs pg_dump (Debian: apt-get install postgresql-client); "
            "or use your server's own backups (pg_basebackup, WAL archiving)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    url = make_url(engine.url).set(drivername="postgresql").render_as_string(hide_password=False)
    done = subprocess.run(
        [program, "--format=custom", f"--file={target}", f"--dbname={url}"], capture_output=True, text=True
    )
    if done.returncode:
        raise BackupUnavailable(f"pg_dump failed: {done.stderr.strip()}")
    return f"pg_dump custom format; restore with: pg_restore --clean --dbname=URL {target}"


# --- full-text index ------------------------------------------------------------------
# One table, entry_search (migration 0010), keyed by entry.seq, with generated columns:
#   words    tsvector of title (weight A), signature (B), body (C), 'simple' configuration:
#            whole words, no stemming, as SQLite's unicode61
#   cjk      tsvector of the adjacent CJK character pairs of each text, weighted alike:
#            Chinese words, whatever their length
#   alltext  the three texts, with a pg_trgm index: substrings, for a query whose words match
#            nothing whole
# Every user term reaches PostgreSQL as a bound parameter of phraseto_tsquery/plainto_tsquery
# (which read no operators) or of a LIKE pattern with its wildcards escaped.

_WEIGHTS = "'{0.01, 0.02, 0.12, 0.2}'"  # D, C (body), B (signature), A (title): SQLite's 1:6:10

Hits = tuple[list[tuple[int, float, str]], int]


def write_index_row(conn: Connection, rowid: int, *, title: str, signature: str, body: str) -> None:
    values = {"r": rowid, "t": title, "s": signature, "b": body}
    values |= {f"{k}p": indexed_pairs(values[k]) for k in "tsb"}
    conn.execute(
        text(
            "INSERT INTO entry_search "
            "(seq, title, signature, body, title_pairs, signature_pairs, body_pairs) "
            "VALUES (:r, :t, :s, :b, :tp, :sp, :bp) "
            "ON CONFLICT (seq) DO UPDATE SET "
            "title = excluded.title, signature = excluded.signature, body = excluded.body, "
            "title_pairs = excluded.title_pairs, signature_pairs = excluded.signature_pairs, "
            "body_pairs = excluded.body_pairs"
        ),
        values,
    )


def delete_index_row(conn: Connection, rowid: int) -> None:
    conn.execute(text("DELETE FROM entry_search WHERE seq = :r"), {"r": rowid})


def clear_index(conn: Connection) -> None:
    conn.execute(text("DELETE FROM entry_search"))


def optimize_index(conn: Connection) -> None:
    """Fresh planner statistics after a bulk write; GIN indexes merge their pending lists themselves."""
    conn.execute(text("ANALYZE entry_search"))


def _tsquery(kind: str, names: list[str], joiner: str) -> str:
    return "(" + f" {joiner} ".join(f"{kind}('simple', :{n})" for n in names) + ")"


def _run(
    conn: Connection, columns: str, where: str, params: dict, within: list[int] | None
) -> tuple[list, int]:
    if within is not None:  # a filter's entries
        where = f"({where}) AND seq = ANY(:within)"
        params = {**params, "within": within}
    rows = conn.execute(
        text(
            f"SELECT seq, {columns} AS score, title, signature, body FROM entry_search WHERE {where} "
            "ORDER BY score, seq LIMIT :limit OFFSET :offset"
        ),
        params,
    ).all()
    total = total_of_page(rows, params["limit"], params["offset"])
    if total is None:
        total = conn.execute(text(f"SELECT count(*) FROM entry_search WHERE {where}"), params).scalar_one()
    return rows, total


def search_words(
    conn: Connection,
    terms: list[str],
    *,
    any_term: bool,
    limit: int,
    offset: int,
    within: list[int] | None = None,
) -> Hits:
    """(seq, score: lower is better, snippet) of entries holding the words, best first, and how
    many; with `within`, only among the entries of those numbers (a filter's).

    Latin-script terms match whole words (an identifier such as gpu_memory_utilization is
    a phrase of its parts); Chinese terms match through their character pairs.
    """
    joiner = "||" if any_term else "&&"
    latin, chinese = split_scripts(terms)
    params: dict = {"limit": limit, "offset": offset}
    conditions, ranks = [], []
    if latin:
        names = [f"w{i}" for i in range(len(latin))]
        params.update(zip(names, latin, strict=True))
        query = _tsquery("phraseto_tsquery", names, joiner)
        conditions.append(f"words @@ {query}")
        ranks.append(f"ts_rank({_WEIGHTS}, words, {query})")
    if chinese:
        names = [f"c{i}" for i in range(len(chinese))]
        params.update((n, " ".join(term_pairs(t))) for n, t in zip(names, chinese, strict=True))
        query = _tsquery("plainto_tsquery", names, joiner)
        conditions.append(f"cjk @@ {query}")
        ranks.append(f"ts_rank({_WEIGHTS}, cjk, {query})")
    if not conditions:
        return [], 0
    where = (" OR " if any_term else " AND ").join(conditions)
    rows, total = _run(conn, f"-({' + '.join(ranks)})", where, params, within)
    return _marked(rows, terms, whole_words=True), total


def _marked(rows: list, terms: list[str], *, whole_words: bool) -> list[tuple[int, float, str]]:
    # The texts in the order SQLite cuts snippets from them (fts5_terms.read_texts).
    return [
        (seq, float(score), marked_snippet((signature, title, body), terms, whole_words=whole_words))
        for seq, score, title, signature, body in rows
    ]


def _like(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def search_kept(engine: Engine, terms: list[str]) -> bool:
    """Nothing of the index is kept in this process: each search asks the server."""
    return False


def search_substrings(
    conn: Connection, terms: list[str], *, limit: int, offset: int, within: list[int] | None = None
) -> Hits:
    """Entries holding every term as a substring (three characters or more, as with trigrams)."""
    long_terms = substring_terms(terms)
    if not long_terms:
        return [], 0
    names = [f"p{i}" for i in range(len(long_terms))]
    params: dict = {"limit": limit, "offset": offset, **dict(zip(names, map(_like, long_terms), strict=True))}
    where = " AND ".join(f"alltext ILIKE :{n}" for n in names)
    # Weighted like the word index: a term in the title counts most, then the signature.
    score = " + ".join(
        f"(title ILIKE :{n})::int * 10 + (signature ILIKE :{n})::int * 6 + (body ILIKE :{n})::int"
        for n in names
    )
    rows, total = _run(conn, f"-({score})", where, params, within)
    return _marked(rows, long_terms, whole_words=False), total
