"""entry aliases: merged entries point to their canonical; merges in the audit log

Revision ID: 0008
Revises: 0007
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.add_column(sa.Column('canonical_id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True))
        batch_op.create_index(batch_op.f('ix_entry_canonical_id'), ['canonical_id'], unique=False)
    with op.batch_alter_table('moderation_action', schema=None) as batch_op:
        batch_op.alter_column('evidence_uid', existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True)
        batch_op.add_column(sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True))
        batch_op.add_column(sa.Column('target_id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=True))
        batch_op.create_index(batch_op.f('ix_moderation_action_entry_id'), ['entry_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('moderation_action', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_moderation_action_entry_id'))
        batch_op.drop_column('target_id')
        batch_op.drop_column('entry_id')
    op.execute("DELETE FROM moderation_action WHERE evidence_uid IS NULL")
    with op.batch_alter_table('moderation_action', schema=None) as batch_op:
        batch_op.alter_column('evidence_uid', existing_type=sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False)
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_canonical_id'))
        batch_op.drop_column('canonical_id')
