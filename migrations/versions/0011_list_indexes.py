"""indexes of canonical entries in the lists' orders, and of aliases alone

Revision ID: 0011
Revises: 0010
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _partial(condition: str) -> dict:
    """An index of the rows meeting `condition`, on either backend (written here, not taken
    from app.models: a revision stays as it was when the models change)."""
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


CANONICAL, ALIASES = _partial("canonical_id IS NULL"), _partial("canonical_id IS NOT NULL")


def upgrade() -> None:
    # The indexes over every entry made the planner take `canonical_id IS NULL` for a rare
    # value, read nearly every row through it and sort them (app.models).
    op.drop_index("ix_entry_canonical_id", table_name="entry")
    op.drop_index("ix_entry_domain", table_name="entry")
    op.drop_index("ix_entry_updated_at", table_name="entry")
    op.create_index("ix_entry_listed", "entry", ["domain", "id"], **CANONICAL)
    op.create_index("ix_entry_recent", "entry", [sa.text("updated_at DESC"), "id"], **CANONICAL)
    op.create_index("ix_entry_reported", "entry", [sa.text("evidence_count DESC"), "id"], **CANONICAL)
    op.create_index("ix_entry_alias", "entry", ["canonical_id", "id"], **ALIASES)


def downgrade() -> None:
    for name in ("ix_entry_alias", "ix_entry_reported", "ix_entry_recent", "ix_entry_listed"):
        op.drop_index(name, table_name="entry")
    op.create_index("ix_entry_updated_at", "entry", ["updated_at"])
    op.create_index("ix_entry_domain", "entry", ["domain"])
    op.create_index("ix_entry_canonical_id", "entry", ["canonical_id"])
