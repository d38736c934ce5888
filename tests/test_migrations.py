"""The schema comes from the Alembic revisions alone, and upgrading keeps data."""

import sqlite3
import warnings

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel

import app.models  # noqa: F401
from app.db import make_engine, read_session
from app.migrate import alembic_config, upgrade
from app.services.search.query import search_entries
from tests.conftest import DEMO_ENTRIES, load, make_settings


def _head(settings) -> str:
    return ScriptDirectory.from_config(alembic_config(settings)).get_current_head()


@pytest.mark.sqlite_only  # PostgreSQL: tests/test_postgres.py
def test_empty_database_upgrades_to_head_with_every_table(tmp_path):
    settings = make_settings(tmp_path / "new.db")
    upgrade(settings)
    with sqlite3.connect(tmp_path / "new.db") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")}
        version = conn.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        journal = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert version == _head(settings)
    assert journal == "wal"
    assert {
        "entry",
        "entry_pattern",
        "entry_version",
        "entry_doc",
        "workaround",
        "dead_end",
        "entry_relation",
        "evidence",
        "evidence_version",
        "entry_revision",
        "moderation_action",
        "proposal",
        "entry_fts",
        "entry_fts_cjk",
    } <= tables


# SQLAlchemy reflects no index on an expression from SQLite (PostgreSQL's it does): there,
# the plan test (tests/services/test_list_reads.py) holds this one to the models.
EXPRESSION_INDEXES = {"ix_entry_version_affected"}


def schema_differences(conn) -> list:
    """What the revisions built that the models do not say, or the other way round; the
    full-text tables are the backends' own (SQLite's FTS5, PostgreSQL's entry_search)."""
    unreflected = EXPRESSION_INDEXES if conn.dialect.name == "sqlite" else set()

    def compared(obj, name, type_, *_) -> bool:
        if type_ == "table":
            return not name.startswith(("entry_fts", "entry_search"))
        return not (type_ == "index" and name in unreflected)

    context = MigrationContext.configure(conn, opts={"compare_type": True, "include_object": compared})
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        warnings.filterwarnings("ignore", "autogenerate skipping metadata-specified expression-based index")
        return compare_metadata(context, SQLModel.metadata)


@pytest.mark.sqlite_only
def test_models_and_revisions_agree(tmp_path):
    settings = make_settings(tmp_path / "new.db")
    upgrade(settings)
    engine = make_engine(settings)
    with engine.connect() as conn:
        differences = schema_differences(conn)
    engine.dispose()
    assert differences == []


@pytest.mark.sqlite_only
def test_upgrading_an_older_database_keeps_its_entries(tmp_path):
    settings = make_settings(tmp_path / "old.db")
    upgrade(settings, "0003")
    with sqlite3.connect(tmp_path / "old.db") as conn:
        conn.execute(
            "INSERT INTO entry (id, seq, domain, category, title_en, signature, ai_generated, review_status, "
            "scope, prior_fix_rate, prior_confidence, fix_rate, confidence, evidence_count, content_hash, "
            "revision, created_at, updated_at) VALUES ('demo/old', 1, 'demo', 'x', 'Old', 'OldError', 0, "
            "'unreviewed', 'generic', 0.5, 0.5, 0.5, 0.5, 0, 'h', 3, '2024-01-01 00:00:00', "
            "'2024-01-01 00:00:00')"
        )
    upgrade(settings)
    with sqlite3.connect(tmp_path / "old.db") as conn:
        row = conn.execute("SELECT id, revision, changed FROM entry").fetchone()
    assert row == ("demo/old", 3, 0)
    assert load(settings, DEMO_ENTRIES).created == 3


@pytest.mark.sqlite_only
def test_chinese_pairs_are_rebuilt_by_field_on_the_way_up_and_back(shipped_settings):
    """0015 fills the pairs' fields from the texts the word index holds, as a write indexes
    them; taken back to 0014, the one column of each row's distinct pairs returns."""
    queries = ["显存不足", "CUDA 显存不足", "依赖冲突", "错误 error"]
    path = shipped_settings.database_url.removeprefix("sqlite:///")
    engine = make_engine(shipped_settings)

    def searched():
        with read_session(engine) as session:
            return {q: search_entries(session, q, limit=1000) for q in queries}

    def table():
        with sqlite3.connect(path) as conn:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(entry_fts_cjk)")]
            return columns, conn.execute("SELECT count(*) FROM entry_fts_cjk").fetchone()[0]

    written = searched()
    assert all(total for _, total in written.values())
    columns, rows = table()
    assert columns == ["title", "signature", "body"] and rows > 100
    command.downgrade(alembic_config(shipped_settings), "0014")
    assert table() == (["pairs"], rows)
    with sqlite3.connect(path) as conn:
        pairs = conn.execute("SELECT pairs FROM entry_fts_cjk").fetchall()
    assert all(len(set(p.split())) == len(p.split()) for (p,) in pairs)
    upgrade(shipped_settings)
    assert table() == (columns, rows)
    assert searched() == written
    engine.dispose()
