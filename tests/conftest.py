"""Fixtures: real databases built by the real migrations, the real app, real imports.

The databases are SQLite files, or with ERRATA_TEST_BACKEND=postgresql databases of a
PostgreSQL cluster the suite starts itself (tests/pg.py); `.ci/run` runs the tests that
touch a database once per backend. A test of one backend's own behaviour is marked
`sqlite_only` (or uses the `pg_cluster` fixture directly).
"""

import os
import shutil
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import PROJECT_ROOT, Settings
from app.db import make_engine
from app.main import create_app
from app.migrate import upgrade
from app.services.interchange.importer import ImportReport, import_paths
from tests import pg

FIXTURES = Path(__file__).parent / "fixtures"
DEMO_ENTRIES = FIXTURES / "entries"
CANON_VALID = FIXTURES / "canon" / "valid"
CANON_MALFORMED = FIXTURES / "canon" / "malformed"
SHIPPED = PROJECT_ROOT / "data"
# Beside the checkout by default; ERRATA_CORPUS names it for a checkout that lives elsewhere.
CORPUS = Path(
    os.environ.get("ERRATA_CORPUS") or PROJECT_ROOT.parent / "shared" / "corpus" / "deadends-canons"
)
SEED_ID = "llm/vllm-block-manager-out-of-memory"
ADMIN_TOKEN = "test-admin-token"

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="the deadends.dev corpus is not beside the project"
)


BACKEND = os.environ.get("ERRATA_TEST_BACKEND", "sqlite")
if BACKEND not in ("sqlite", "postgresql"):
    raise ValueError(f"ERRATA_TEST_BACKEND must be sqlite or postgresql, not {BACKEND}")


def pytest_collection_modifyitems(config, items):
    # A plugin that names its items without pytest's parametrisation (schemathesis, one item
    # per API operation) leaves them all the node id of the one function; pytest-xdist
    # schedules by node id, and would run one of them and drop the rest.
    for item in items:
        if item.name not in item.nodeid:
            item._id = type(item.parent.id).parse(f"{item.parent.nodeid}::{item.name}")
    repeated = [nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1]
    if repeated:
        raise pytest.UsageError(f"tests sharing a node id would not all run in parallel: {repeated}")
    if BACKEND == "postgresql":
        reasons = {
            "sqlite_only": "a behaviour of the SQLite backend",
            "postgres": "starts PostgreSQL itself: run in the default pass",
        }
        for item in items:
            for marker, reason in reasons.items():
                if item.get_closest_marker(marker):
                    item.add_marker(pytest.mark.skip(reason=reason))
            # Every database of the backend under test comes from `databases`: a test that
            # never asks for it (one on SQLite files of its own, or on no database) would
            # only repeat what it did in the default pass.
            if "databases" not in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.skip(reason="uses no database of the backend under test"))


def database_url(db: Path | str) -> str:
    """The URL itself, or a SQLite file's URL."""
    return str(db) if str(db).startswith("postgresql") else f"sqlite:///{db}"


def make_settings(db: Path | str, **overrides) -> Settings:
    values = {
        "database_url": database_url(db),
        "data_dir": None,
        "admin_token": ADMIN_TOKEN,
        "rate_limit": 1000,
        "warm_lookup_index": False,
        **overrides,
    }
    return Settings(**values)


def all_json(settings: Settings) -> dict[str, dict]:
    """Every entry's JSON as the API serves it, by id: what two bases must agree on."""
    with TestClient(create_app(settings)) as client:
        ids, offset = [], 0
        while True:
            page = client.get("/api/v1/errors", params={"limit": 200, "offset": offset}).json()
            ids += [e["id"] for e in page["data"]]
            if not page["next"]:
                break
            offset += 200
        return {i: client.get(f"/errors/{i}.json").json() for i in ids}


def load(settings: Settings, *paths: Path) -> ImportReport:
    engine = make_engine(settings)
    try:
        return import_paths(engine, paths)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pg.Cluster]:
    """A PostgreSQL cluster of the suite's own, for the whole session."""
    if pg.binaries() is None:
        if BACKEND == "postgresql":
            raise RuntimeError("ERRATA_TEST_BACKEND=postgresql, but PostgreSQL is not installed")
        pytest.skip("PostgreSQL is not installed (bash .ci/run installs it)")
    cluster = pg.Cluster().start()
    yield cluster
    cluster.stop()


class Databases:
    """New databases of the backend under test: blank, empty at head, or with the shipped data.

    The two templates are made once by the real migrations and import; each test gets a
    copy (a file copy on SQLite, CREATE DATABASE ... TEMPLATE on PostgreSQL).
    """

    def __init__(self, folder: Path, cluster: pg.Cluster | None) -> None:
        self.folder, self.cluster = folder, cluster
        self.made: list[str] = []
        self.empty_template = self._template("empty")
        upgrade(make_settings(self.empty_template))
        self.shipped_template = self._copy(self.empty_template, "shipped")
        report = load(make_settings(self.shipped_template), SHIPPED, DEMO_ENTRIES)
        assert report.failed == 0, report.failures

    def _template(self, name: str) -> str:
        if self.cluster is None:
            return str(self.folder / f"{name}.db")
        return self.cluster.create(name=f"template_{name}")

    def _copy(self, template: str, name: str) -> str:
        if self.cluster is None:
            target = self.folder / f"{name}-{uuid.uuid4().hex[:8]}.db"
            shutil.copy(template, target)
            return str(target)
        return self.cluster.create(template=template.split("/")[3].split("?")[0], name=name)

    def blank(self) -> str:
        """A database with nothing in it, not even the schema."""
        if self.cluster is None:
            return str(self.folder / f"blank-{uuid.uuid4().hex[:8]}.db")
        url = self.cluster.create()
        self.made.append(url)
        return url

    def empty(self) -> str:
        return self.copy(self.empty_template)

    def shipped(self) -> str:
        return self.copy(self.shipped_template)

    def copy(self, template: str) -> str:
        url = self._copy(template, f"t_{uuid.uuid4().hex[:16]}")
        self.made.append(url)
        return url

    def drop(self, url: str) -> None:
        """Give a test's database back (a PostgreSQL database holds its disk until dropped)."""
        if self.cluster is not None and url in self.made:
            self.cluster.drop(url)
            self.made.remove(url)


def _path_or_url(value: str) -> Path | str:
    return value if value.startswith("postgresql") else Path(value)


@pytest.fixture(scope="session")
def pg_databases(tmp_path_factory, pg_cluster) -> Databases:
    """New databases on the suite's PostgreSQL cluster, whatever the backend under test."""
    return Databases(tmp_path_factory.mktemp("pg-templates"), pg_cluster)


@pytest.fixture(scope="session")
def databases(tmp_path_factory, request) -> Databases:
    if BACKEND == "postgresql":
        return request.getfixturevalue("pg_databases")
    return Databases(tmp_path_factory.mktemp("templates"), None)


@pytest.fixture
def new_database(databases) -> Iterator[Callable[[], Path | str]]:
    """Makes blank databases of the backend under test (a path or a URL), dropped afterwards."""
    made: list[str] = []

    def make() -> Path | str:
        made.append(databases.blank())
        return _path_or_url(made[-1])

    yield make
    for url in made:
        databases.drop(url)


def _database(databases: Databases, make: Callable[[], str]) -> Iterator[Path | str]:
    url = make()
    yield _path_or_url(url)
    databases.drop(url)


@pytest.fixture
def database(databases) -> Iterator[Path | str]:
    """An empty database at head: a SQLite file's path or a PostgreSQL URL."""
    yield from _database(databases, databases.empty)


@pytest.fixture
def shipped_database(databases) -> Iterator[Path | str]:
    """A database with the shipped data and the demo fixtures."""
    yield from _database(databases, databases.shipped)


@pytest.fixture
def settings(database) -> Settings:
    return make_settings(database)


@pytest.fixture
def shipped_settings(shipped_database) -> Settings:
    return make_settings(shipped_database)


@pytest.fixture
def engine(settings):
    engine = make_engine(settings)
    yield engine
    engine.dispose()


def _client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings), follow_redirects=False) as client:
        yield client


@pytest.fixture
def client(settings) -> Iterator[TestClient]:
    yield from _client(settings)


@pytest.fixture
def shipped_client(shipped_settings) -> Iterator[TestClient]:
    """A client over the shipped data plus the demo fixtures, in a database of its own."""
    yield from _client(shipped_settings)


@pytest.fixture(scope="module")
def reader(databases) -> Iterator[TestClient]:
    """A read-only client shared by a module's tests, over the shipped data and demo fixtures."""
    for db in _database(databases, databases.shipped):
        yield from _client(make_settings(db))
