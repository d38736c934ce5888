"""readers' proposals; who made each revision, and why

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = '0009'
down_revision: str | None = '0008'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        'proposal',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('change', sa.JSON(), nullable=False),
        sa.Column('note', sa.Text(), nullable=True),
        sa.Column('display_name', sqlmodel.sql.sqltypes.AutoString(length=60), nullable=True),
        sa.Column('base_revision', sa.Integer(), nullable=True),
        sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
        sa.Column('submitted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.Column('decided_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('accepted_revision', sa.Integer(), nullable=True),
        sa.Column('client', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_proposal_entry_id', 'proposal', ['entry_id'])
    op.create_index('ix_proposal_status_time', 'proposal', ['status', 'submitted_at'])
    op.create_index('ix_proposal_client_time', 'proposal', ['client', 'submitted_at'])
    with op.batch_alter_table('entry') as batch:
        batch.add_column(sa.Column('changed_by', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch.add_column(sa.Column('change_summary', sa.Text(), nullable=True))
        batch.add_column(sa.Column('field_origins', sa.JSON(), nullable=False, server_default='{}'))
    with op.batch_alter_table('entry_revision') as batch:
        batch.add_column(sa.Column('author', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch.add_column(sa.Column('summary', sa.Text(), nullable=True))
        batch.add_column(sa.Column('made_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    # 0008 made evidence_uid optional and added entry_id; a proposal is one more kind of target.
    with op.batch_alter_table('moderation_action') as batch:
        batch.add_column(sa.Column('proposal_id', sa.Integer(), nullable=True))
        batch.create_index('ix_moderation_action_proposal_id', ['proposal_id'])


def downgrade() -> None:
    op.execute("DELETE FROM moderation_action WHERE proposal_id IS NOT NULL")
    with op.batch_alter_table('moderation_action') as batch:
        batch.drop_index('ix_moderation_action_proposal_id')
        batch.drop_column('proposal_id')
    with op.batch_alter_table('entry_revision') as batch:
        batch.drop_column('made_at')
        batch.drop_column('summary')
        batch.drop_column('author')
    with op.batch_alter_table('entry') as batch:
        batch.drop_column('field_origins')
        batch.drop_column('change_summary')
        batch.drop_column('changed_by')
    op.drop_table('proposal')
