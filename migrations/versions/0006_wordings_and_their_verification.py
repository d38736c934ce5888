"""variants and verification of each entry's wording; reports with no known date

Revision ID: 0006
Revises: 0005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('variants', sa.JSON(), nullable=False, server_default='[]'))
        batch_op.add_column(sa.Column('verification', sa.JSON(), nullable=False, server_default='[]'))
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.alter_column('submitted_at', existing_type=sa.DateTime(), nullable=True)


def downgrade() -> None:
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.alter_column('submitted_at', existing_type=sa.DateTime(), nullable=False)
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_column('verification')
        batch_op.drop_column('variants')
