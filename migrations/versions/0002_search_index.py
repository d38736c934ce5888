"""full-text search index (SQLite FTS5, trigram tokenizer for CJK and substrings)

Revision ID: 0002
Revises: 0001
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # rowid = entry.seq; app.services.search.index writes the row of an entry in the
    # same transaction as the entry. 0001 and 0002 shipped together, so no database
    # holds entries that this revision would have to index.
    op.execute(
        "CREATE VIRTUAL TABLE entry_fts USING fts5("
        "title, signature, body, tokenize = 'trigram case_sensitive 0')"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE entry_fts")
