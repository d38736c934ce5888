"""full-text search index on PostgreSQL (tsvector for words and CJK pairs, pg_trgm for substrings)

Revision ID: 0010
Revises: 0009
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite has its FTS5 tables from 0002 and 0005. No PostgreSQL base could hold entries
    # before this revision (there was no driver), so there is nothing to index here;
    # `errata reindex` rebuilds the table from the entries should it ever drift.
    if op.get_bind().dialect.name != "postgresql":
        return
    # Trusted since PostgreSQL 13: a database owner may create it without superuser rights.
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    # seq = entry.seq; app.backends.postgres writes the row in the transaction of the entry.
    # 'simple': whole words without stemming, as SQLite's unicode61 tokenizer.
    op.execute(
        "CREATE TABLE entry_search ("
        " seq integer PRIMARY KEY,"
        " title text NOT NULL,"
        " signature text NOT NULL,"
        " body text NOT NULL,"
        " title_pairs text NOT NULL DEFAULT '',"
        " signature_pairs text NOT NULL DEFAULT '',"
        " body_pairs text NOT NULL DEFAULT '',"
        " words tsvector GENERATED ALWAYS AS ("
        "  setweight(to_tsvector('simple'::regconfig, title), 'A')"
        "  || setweight(to_tsvector('simple'::regconfig, signature), 'B')"
        "  || setweight(to_tsvector('simple'::regconfig, body), 'C')) STORED,"
        " cjk tsvector GENERATED ALWAYS AS ("
        "  setweight(to_tsvector('simple'::regconfig, title_pairs), 'A')"
        "  || setweight(to_tsvector('simple'::regconfig, signature_pairs), 'B')"
        "  || setweight(to_tsvector('simple'::regconfig, body_pairs), 'C')) STORED,"
        " alltext text GENERATED ALWAYS AS (title || E'\\n' || signature || E'\\n' || body) STORED)"
    )
    op.execute("CREATE INDEX ix_entry_search_words ON entry_search USING gin (words)")
    op.execute("CREATE INDEX ix_entry_search_cjk ON entry_search USING gin (cjk)")
    op.execute("CREATE INDEX ix_entry_search_trgm ON entry_search USING gin (alltext gin_trgm_ops)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TABLE entry_search")
