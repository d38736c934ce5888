"""Under load, routes reuse the pool's connections: a request that opened a connection of its
own (a SQLite connect and its pragmas, a PostgreSQL login) cost more than its answer."""

from concurrent.futures import ThreadPoolExecutor

from fastapi.testclient import TestClient
from sqlalchemy import event

from app.main import create_app
from tests.conftest import make_settings

THREADS = 8  # above SQLAlchemy's default pool of 5, so the default would open more


def test_concurrent_requests_open_no_more_connections_than_route_threads(shipped_database):
    app = create_app(make_settings(shipped_database, threads=THREADS))
    opened: list[object] = []
    event.listen(app.state.engine, "connect", lambda dbapi_connection, record: opened.append(record))

    with TestClient(app) as client, ThreadPoolExecutor(4 * THREADS) as clients:

        def search(n: int) -> int:
            # A new URL each time, so every request runs the route and its queries.
            return client.get("/api/v1/errors", params={"q": "memory", "limit": 5, "n": n}).status_code

        assert set(clients.map(search, range(40 * THREADS))) == {200}
    # One connection per route thread at most, and one for the searches the event loop answers
    # (app.web.on_loop: one at a time), each kept in the pool and used again: however many of
    # the threads a round keeps busy at once, a connection opened per request would count in
    # the hundreds here.
    assert 1 <= len(opened) <= THREADS + 1
