"""`errata migrate-db`: a whole base moved from one database to another (SQLite to PostgreSQL).

Every table of the models is copied row for row, keys included, in dependency order, from
one read transaction of the source into one write transaction of the target: the target
holds all of it or none of it. The full-text index is not copied (each backend has its
own); it is rebuilt from the copied entries in the same transaction.
"""

from collections.abc import Callable

from sqlalchemy import Engine, func, select
from sqlmodel import SQLModel

import app.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from app import backends
from app.db import read_session, write_session
from app.models import Entry
from app.services.search.index import reindex_all

_BATCH = 1000


class TargetNotEmpty(ValueError):
    pass


def table_counts(engine: Engine) -> dict[str, int]:
    """Rows per table of the models."""
    with read_session(engine) as session:
        return {
            t.name: session.execute(select(func.count()).select_from(t)).scalar_one()
            for t in SQLModel.metadata.sorted_tables
        }


def copy_database(
    source: Engine, target: Engine, *, progress: Callable[[str, int], None] = lambda t, n: None
):
    """Copy every row of `source` into `target`; both at the same schema revision, target empty."""
    with read_session(source) as reading, write_session(target) as writing:
        present = writing.execute(select(func.count()).select_from(Entry)).scalar_one()
        if present:
            raise TargetNotEmpty(f"the target already holds {present} entries; it must be empty")
        copied: dict[str, int] = {}
        for table in SQLModel.metadata.sorted_tables:
            rows = reading.connection().execution_options(yield_per=_BATCH).execute(select(table))
            copied[table.name] = 0
            for batch in rows.partitions():
                writing.execute(table.insert(), [dict(r._mapping) for r in batch])
                copied[table.name] += len(batch)
            progress(table.name, copied[table.name])
        writing.flush()
        backends.after_copy(writing.connection())
        reindex_all(writing)
    return copied
