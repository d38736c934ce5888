"""Fixtures: real SQLite files built by the real migrations, the real app, real imports."""

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import PROJECT_ROOT, Settings
from app.db import make_engine
from app.main import create_app
from app.migrate import upgrade
from app.services.interchange.importer import ImportReport, import_paths

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


def make_settings(db: Path, **overrides) -> Settings:
    values = {
        "database_url": f"sqlite:///{db}",
        "data_dir": None,
        "admin_token": ADMIN_TOKEN,
        "rate_limit": 1000,
        "warm_lookup_index": False,
        **overrides,
    }
    return Settings(**values)


def load(settings: Settings, *paths: Path) -> ImportReport:
    engine = make_engine(settings)
    try:
        return import_paths(engine, paths)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def migrated_db(tmp_path_factory) -> Path:
    """An empty database at head, made once by the migrations and copied per test."""
    path = tmp_path_factory.mktemp("template") / "empty.db"
    upgrade(make_settings(path))
    return path


@pytest.fixture(scope="session")
def shipped_db(tmp_path_factory, migrated_db) -> Path:
    path = tmp_path_factory.mktemp("template") / "shipped.db"
    shutil.copy(migrated_db, path)
    report = load(make_settings(path), SHIPPED, DEMO_ENTRIES)
    assert report.failed == 0, report.failures
    return path


@pytest.fixture
def settings(tmp_path, migrated_db) -> Settings:
    db = tmp_path / "errata.db"
    shutil.copy(migrated_db, db)
    return make_settings(db)


@pytest.fixture
def shipped_settings(tmp_path, shipped_db) -> Settings:
    db = tmp_path / "errata.db"
    shutil.copy(shipped_db, db)
    return make_settings(db)


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
def reader(tmp_path_factory, shipped_db) -> Iterator[TestClient]:
    """A read-only client shared by a module's tests, over the shipped data and demo fixtures."""
    db = tmp_path_factory.mktemp("reader") / "errata.db"
    shutil.copy(shipped_db, db)
    yield from _client(make_settings(db))
