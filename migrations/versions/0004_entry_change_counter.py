"""entry change counter for lookup indexes

Revision ID: 0004
Revises: 0003
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = '0004'
down_revision: str | None = '0003'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('entry', schema=None) as batch_op:
        # Existing entries start at 0; every lookup index reads them on its first refresh.
        batch_op.add_column(sa.Column('changed', sa.Integer(), nullable=False, server_default='0'))
        batch_op.create_index(batch_op.f('ix_entry_changed'), ['changed'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_changed'))
        batch_op.drop_column('changed')

