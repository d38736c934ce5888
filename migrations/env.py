"""Alembic environment: the URL comes from settings, the target schema from app.models."""

from alembic import context
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app import backends
from app.config import Settings
from app.db import make_engine

config = context.config


def _include_object(obj, name, type_, reflected, compare_to):
    # The full-text index tables (FTS5 on SQLite, entry_search on PostgreSQL) are managed by
    # hand-written revisions.
    return not (type_ == "table" and name.startswith(("entry_fts", "entry_search")))


def run_migrations() -> None:
    url = config.get_main_option("sqlalchemy.url")
    engine = make_engine(Settings(database_url=url))
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=SQLModel.metadata,
            render_as_batch=True,
            compare_type=True,
            include_object=_include_object,
        )
        with context.begin_transaction():
            # Servers starting together upgrade one after the other; the later ones find
            # the schema at head and do nothing.
            backends.lock(connection, "errata: migrations")
            context.run_migrations()
    engine.dispose()


run_migrations()
