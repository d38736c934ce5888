"""Engine and sessions. Dialect-specific set-up lives in app.backends."""

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Connection, Engine
from sqlmodel import Session

from app import backends
from app.config import Settings


def make_engine(settings: Settings) -> Engine:
    """A pool of one connection per route thread and one for the event loop's short reads
    (app.web.on_loop), and as many again as threads for a thread that holds two sessions at
    once. The loop holds one at a time, never across an await, so it never waits for one.
    SQLAlchemy's default (5, then connections opened and closed per use) had most
    requests under load open a connection of their own, which cost more than the request (a
    SQLite connect runs its pragmas; a PostgreSQL one authenticates)."""
    return backends.make_engine(
        settings.database_url,
        busy_timeout_ms=settings.busy_timeout_ms,
        pool_size=settings.threads + 1,
        max_overflow=settings.threads,
    )


@contextmanager
def read_session(engine: Engine) -> Iterator[Session]:
    with Session(engine) as session:
        yield session


def connection_of(db: Session | Connection) -> Connection:
    """The connection to read through: a session's own (in its transaction), or the one given.
    Readers that need no ORM take either, so a hot path can skip making a session."""
    return db.connection() if isinstance(db, Session) else db


@contextmanager
def write_session(engine: Engine) -> Iterator[Session]:
    """One write transaction: committed on success, rolled back on any error."""
    with Session(engine) as session:
        backends.begin_write(session)
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise


def entry_stamp_reader(engine: Engine):
    """A callable reading the stamp of some entries (see read.current_stamp), with close()."""
    return backends.stamp_reader(engine)


async def get_session(request: Request) -> AsyncIterator[Session]:
    """A route's session. Async, though the routes using it are not: FastAPI runs a sync
    dependency in a worker thread, entering and leaving it once each, two hand-overs that
    cost more than the request's own work when the answer is cached. Making a session opens
    nothing (the connection is taken at the first query, in the route's thread); closing it
    hands the connection back to the pool, as soon as the route returns (scope "function"),
    not after the response is sent: requests in flight then hold no more connections than
    there are route threads, which the pool keeps open."""
    with read_session(request.app.state.engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session, scope="function")]
