"""word and CJK pair indexes beside the trigram one: fast whole-word search, and Chinese words of two characters

Revision ID: 0005
Revises: 0004
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # The trigram tokenizer cannot match a query shorter than three characters, and most
    # Chinese words are two. This table holds every pair of adjacent CJK characters of an
    # entry as a word; rowid = entry.seq, written with the trigram row. 0001-0005 shipped
    # together, so no database holds entries to index here; `errata reindex` rebuilds
    # both tables from the entries should they ever drift.
    op.execute("CREATE VIRTUAL TABLE entry_fts_cjk USING fts5(pairs, tokenize = 'unicode61')")
    # Whole words: a word's posting list is far shorter than those of its trigrams, which
    # keeps ranked search fast as the base grows; trigrams stay for substring queries.
    op.execute(
        "CREATE VIRTUAL TABLE entry_fts_words USING fts5("
        "title, signature, body, tokenize = 'unicode61 remove_diacritics 2')"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE entry_fts_cjk")
        op.execute("DROP TABLE entry_fts_words")
