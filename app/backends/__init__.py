"""Database-specific code, one module per backend; everything else speaks plain SQLAlchemy.

Services and routers call the functions below; each picks the backend module by the
dialect of the session, connection or engine it is given (or by the URL), so no caller
knows which database it talks to. Both modules provide the same functions.
"""

from pathlib import Path
from types import ModuleType

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError
from sqlmodel import Session

from app.backends import postgres, sqlite
from app.backends.postgres import BackupUnavailable
from app.backends.sqlite import MEMORY_ONLY, SearchNotInMemory
from app.backends.text import HIGHLIGHT_END, HIGHLIGHT_START

__all__ = ["HIGHLIGHT_END", "HIGHLIGHT_START", "MEMORY_ONLY", "BackupUnavailable", "SearchNotInMemory"]

_BY_DIALECT: dict[str, ModuleType] = {"sqlite": sqlite, "postgresql": postgres}


class UnsupportedDatabase(ValueError):
    pass


def _for_dialect(name: str) -> ModuleType:
    try:
        return _BY_DIALECT[name]
    except KeyError:
        raise UnsupportedDatabase(f"errata runs on SQLite or PostgreSQL, not {name}") from None


def of(bind: Session | Connection | Engine) -> ModuleType:
    engine = bind.get_bind() if isinstance(bind, Session) else bind
    return _for_dialect(engine.dialect.name)


def for_url(url: str) -> ModuleType:
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    return _for_dialect({"postgres": "postgresql"}.get(scheme, scheme))


def database_file(url: str) -> Path | None:
    """The file an embedded database lives in; None for a database server."""
    return for_url(url).database_path(url) if for_url(url).__name__.endswith("sqlite") else None


def make_engine(url: str, *, busy_timeout_ms: int, pool_size: int, max_overflow: int) -> Engine:
    return for_url(url).make_engine(
        url, busy_timeout_ms=busy_timeout_ms, pool_size=pool_size, max_overflow=max_overflow
    )


def begin_write(session: Session) -> None:
    of(session).begin_write(session)


def lock(bind: Session | Connection, name: str) -> None:
    """Serialise the transactions that take the same named lock, until each ends."""
    of(bind).lock(bind, name)


def serialize_entry_writes(session: Session) -> None:
    """Entry writers take turns until each commits. A transaction that also locks an entry's
    row (evidence) must call this first, or it may deadlock with an import."""
    of(session).serialize_entry_writes(session)


def next_value(session: Session, column) -> int:
    """The next value of a counter column of entry (`seq`, `changed`), visible in commit order."""
    return of(session).next_value(session, column)


def is_busy(bind: Engine, exc: OperationalError) -> bool:
    return of(bind).is_busy(exc)


def after_copy(conn: Connection) -> None:
    of(conn).after_copy(conn)


def backup(engine: Engine, target: Path) -> str | None:
    """A consistent copy of the live database; returns a note on how to restore it, if any."""
    return of(engine).backup(engine, target)


def reads_in_process(engine: Engine) -> bool:
    """Whether reads run in this process (an embedded database), not on a server: only then may
    a read known to be short run on the event loop (app.web.on_loop)."""
    return of(engine).READS_IN_PROCESS


def stamp_reader(engine: Engine):
    """`reader(ids) -> (count, max(changed))` (no ids: the whole base) on a connection of its
    own that sees each commit at once, with close(): the fast path's cheap freshness check."""
    return of(engine).StampReader(engine)


def write_index_row(conn: Connection, rowid: int, *, title: str, signature: str, body: str) -> None:
    of(conn).write_index_row(conn, rowid, title=title, signature=signature, body=body)


def delete_index_row(conn: Connection, rowid: int) -> None:
    of(conn).delete_index_row(conn, rowid)


def clear_index(conn: Connection) -> None:
    of(conn).clear_index(conn)


def optimize_index(conn: Connection) -> None:
    of(conn).optimize_index(conn)


def search_words(
    conn: Connection,
    terms: list[str],
    *,
    any_term: bool,
    limit: int,
    offset: int,
    within: list[int] | None = None,
):
    return of(conn).search_words(conn, terms, any_term=any_term, limit=limit, offset=offset, within=within)


def search_substrings(
    conn: Connection, terms: list[str], *, limit: int, offset: int, within: list[int] | None = None
):
    return of(conn).search_substrings(conn, terms, limit=limit, offset=offset, within=within)


def search_kept(engine: Engine, terms: list[str]) -> bool:
    """Whether a search of `terms` (app.services.search.query.terms) looks answerable from what
    this process keeps of the index: a guess, before searching; a search made with the
    execution option MEMORY_ONLY raises SearchNotInMemory where it needs the index itself."""
    return of(engine).search_kept(engine, terms)
