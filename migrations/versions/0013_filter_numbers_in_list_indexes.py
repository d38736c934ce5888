"""the entry numbers of a domain's and a category's canonical entries, read from their indexes

Revision ID: 0013
Revises: 0012
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Written here, not taken from app.models: a revision stays as it was when the models change.
CANONICAL = {"sqlite_where": sa.text("canonical_id IS NULL"), "postgresql_where": sa.text("canonical_id IS NULL")}
LISTED = ["domain", "id", "canonical_id"]
CATEGORIZED = ["category", "domain", "id", "canonical_id"]


def _replace(listed: list[str], categorized: list[str]) -> None:
    op.drop_index("ix_entry_listed", table_name="entry")
    op.drop_index("ix_entry_categorized", table_name="entry")
    op.create_index("ix_entry_listed", "entry", listed, **CANONICAL)
    op.create_index("ix_entry_categorized", "entry", categorized, **CANONICAL)


def upgrade() -> None:
    # A search among a domain's or a category's entries reads their numbers (seq) first:
    # at 100,000 entries 5.7 ms for git's 3,095 and 8.9 ms for python's 4,565, each read
    # from its row since the index lacked it. Held at the end of the index, the list's
    # order stays (domain, id).
    _replace([*LISTED, "seq"], [*CATEGORIZED, "seq"])


def downgrade() -> None:
    _replace(LISTED, CATEGORIZED)
