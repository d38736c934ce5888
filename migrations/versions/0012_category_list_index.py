"""an index of canonical entries by category, in the lists' order

Revision ID: 0012
Revises: 0011
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Written here, not taken from app.models: a revision stays as it was when the models change.
CANONICAL = {"sqlite_where": sa.text("canonical_id IS NULL"), "postgresql_where": sa.text("canonical_id IS NULL")}


def upgrade() -> None:
    # A category's list read its rows through the index over every entry's category, to check
    # each for an alias and sort them: 21 ms for a page and 21 more for its count at 100,000
    # entries (app.models).
    op.drop_index("ix_entry_category", table_name="entry")
    op.create_index("ix_entry_categorized", "entry", ["category", "domain", "id"], **CANONICAL)


def downgrade() -> None:
    op.drop_index("ix_entry_categorized", table_name="entry")
    op.create_index("ix_entry_category", "entry", ["category"])
