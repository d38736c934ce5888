"""Engine and sessions. Dialect-specific set-up lives in app.backends."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine, create_engine
from sqlmodel import Session

from app.backends import sqlite as sqlite_backend
from app.config import Settings


def make_engine(settings: Settings) -> Engine:
    url = settings.database_url
    if url.startswith("sqlite"):
        path = sqlite_backend.database_path(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        sqlite_backend.configure_engine(engine, busy_timeout_ms=settings.busy_timeout_ms)
        return engine
    return create_engine(url, pool_pre_ping=True)


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


@contextmanager
def write_session(engine: Engine) -> Iterator[Session]:
    """One write transaction: committed on success, rolled back on any error."""
    with Session(engine) as session:
        if engine.dialect.name == "sqlite":
            session.connection(execution_options=sqlite_backend.WRITE_OPTIONS)
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


class _PortableStampReader:
    """The stamp query through SQLAlchemy, on a connection of its own, each in its own transaction."""

    def __init__(self, engine: Engine) -> None:
        self._conn = engine.connect()

    def __call__(self, ids: tuple[str, ...]) -> tuple[int, int]:
        from app.services.entries.read import current_stamp

        with self._conn.begin():
            return current_stamp(self._conn, ids)

    def close(self) -> None:
        self._conn.close()


def entry_stamp_reader(engine: Engine):
    """A callable reading the stamp of some entries (see read.current_stamp), with close()."""
    if engine.dialect.name == "sqlite":
        return sqlite_backend.EntryStampReader(engine)
    return _PortableStampReader(engine)


def get_session(request: Request) -> Iterator[Session]:
    with read_session(request.app.state.engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
