"""Chinese pairs by field, each as often as the text holds it: ranked as words are

Revision ID: 0015
Revises: 0014
"""

from collections.abc import Sequence

from alembic import op

from app.backends.text import indexed_pairs, term_pairs

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_CHUNK = 2000


def _refill(columns: str, rows_of) -> None:
    """Rebuild entry_fts_cjk from the texts the word index holds (title, signature, body of
    each row, as app.services.search.index wrote them): `rows_of` makes its values of them."""
    conn = op.get_bind()
    texts = conn.exec_driver_sql("SELECT rowid, title, signature, body FROM entry_fts_words")
    marks = ", ".join("?" * (columns.count(",") + 2))
    while chunk := texts.fetchmany(_CHUNK):
        rows = [row for row in map(rows_of, chunk) if any(row[1:])]
        if rows:
            conn.exec_driver_sql(f"INSERT INTO entry_fts_cjk(rowid, {columns}) VALUES ({marks})", rows)
    op.execute("INSERT INTO entry_fts_cjk(entry_fts_cjk) VALUES ('optimize')")


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # One column of each row's distinct pairs gave bm25 a frequency of one everywhere and no
    # weight for the title, so the shortest texts came first: "显存不足" listed PyTorch's CUDA
    # out of memory, whose Chinese title it is, last of three. Every pair of each field, as
    # PostgreSQL's cjk tsvector has them (0010), weighted as the words are.
    op.execute("DROP TABLE entry_fts_cjk")
    op.execute(
        "CREATE VIRTUAL TABLE entry_fts_cjk USING fts5(title, signature, body, tokenize = 'unicode61')"
    )
    _refill("title, signature, body", lambda row: (row[0], *map(indexed_pairs, row[1:])))


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute("DROP TABLE entry_fts_cjk")
    op.execute("CREATE VIRTUAL TABLE entry_fts_cjk USING fts5(pairs, tokenize = 'unicode61')")
    _refill("pairs", lambda row: (row[0], " ".join(term_pairs("\n".join(row[1:])))))
