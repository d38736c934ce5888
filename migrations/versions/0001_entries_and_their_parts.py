"""entries and their parts

Revision ID: 0001
Revises: 
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('entry',
    sa.Column('id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('domain', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('category', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('title_en', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('title_zh', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('summary_en', sa.Text(), nullable=True),
    sa.Column('summary_zh', sa.Text(), nullable=True),
    sa.Column('signature', sa.Text(), nullable=False),
    sa.Column('ai_generated', sa.Boolean(), nullable=False),
    sa.Column('review_status', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('resolvable', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('scope', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('first_seen', sa.Date(), nullable=True),
    sa.Column('last_confirmed', sa.Date(), nullable=True),
    sa.Column('root_cause_en', sa.Text(), nullable=True),
    sa.Column('root_cause_zh', sa.Text(), nullable=True),
    sa.Column('prior_fix_rate', sa.Float(), nullable=False),
    sa.Column('prior_confidence', sa.Float(), nullable=False),
    sa.Column('fix_rate', sa.Float(), nullable=False),
    sa.Column('confidence', sa.Float(), nullable=False),
    sa.Column('evidence_count', sa.Integer(), nullable=False),
    sa.Column('source', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('source_url', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('generated_by', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('generation_date', sa.Date(), nullable=True),
    sa.Column('source_evidence_count', sa.Integer(), nullable=True),
    sa.Column('content_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('seq')
    )
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_category'), ['category'], unique=False)
        batch_op.create_index(batch_op.f('ix_entry_domain'), ['domain'], unique=False)
        batch_op.create_index(batch_op.f('ix_entry_updated_at'), ['updated_at'], unique=False)

    op.create_table('moderation_action',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evidence_uid', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('reason', sa.Text(), nullable=True),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('moderation_action', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_moderation_action_evidence_uid'), ['evidence_uid'], unique=False)

    op.create_table('dead_end',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('action_en', sa.Text(), nullable=False),
    sa.Column('action_zh', sa.Text(), nullable=True),
    sa.Column('why_fails_en', sa.Text(), nullable=False),
    sa.Column('why_fails_zh', sa.Text(), nullable=True),
    sa.Column('condition_en', sa.Text(), nullable=True),
    sa.Column('condition_zh', sa.Text(), nullable=True),
    sa.Column('misconception_en', sa.Text(), nullable=True),
    sa.Column('misconception_zh', sa.Text(), nullable=True),
    sa.Column('sources', sa.JSON(), nullable=False),
    sa.Column('prior_rate', sa.Float(), nullable=False),
    sa.Column('rate', sa.Float(), nullable=False),
    sa.Column('worked', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.Column('partial', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('entry_id', 'key')
    )
    with op.batch_alter_table('dead_end', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_dead_end_entry_id'), ['entry_id'], unique=False)

    op.create_table('entry_doc',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('title', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('url', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('entry_doc', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_doc_entry_id'), ['entry_id'], unique=False)

    op.create_table('entry_pattern',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('regex', sa.Text(), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('entry_pattern', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_pattern_entry_id'), ['entry_id'], unique=False)

    op.create_table('entry_relation',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('target_id', sqlmodel.sql.sqltypes.AutoString(length=300), nullable=False),
    sa.Column('note_en', sa.Text(), nullable=True),
    sa.Column('note_zh', sa.Text(), nullable=True),
    sa.Column('probability', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('entry_relation', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_relation_entry_id'), ['entry_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_entry_relation_target_id'), ['target_id'], unique=False)

    op.create_table('entry_revision',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('revision', sa.Integer(), nullable=False),
    sa.Column('content', sa.JSON(), nullable=False),
    sa.Column('replaced_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('entry_id', 'revision')
    )
    with op.batch_alter_table('entry_revision', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_revision_entry_id'), ['entry_id'], unique=False)

    op.create_table('entry_version',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('component', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('version', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
    sa.Column('introduced', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('deprecated', sqlmodel.sql.sqltypes.AutoString(), nullable=True),
    sa.Column('notes_en', sa.Text(), nullable=True),
    sa.Column('notes_zh', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('entry_version', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_entry_version_component'), ['component'], unique=False)
        batch_op.create_index(batch_op.f('ix_entry_version_entry_id'), ['entry_id'], unique=False)

    op.create_table('evidence',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('item', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True),
    sa.Column('outcome', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('source_url', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('submitted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=10), nullable=False),
    sa.Column('client', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('uid')
    )
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.create_index('ix_evidence_entry_status', ['entry_id', 'status'], unique=False)
        batch_op.create_index(batch_op.f('ix_evidence_submitted_at'), ['submitted_at'], unique=False)

    op.create_table('workaround',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('entry_id', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('title_en', sa.Text(), nullable=False),
    sa.Column('title_zh', sa.Text(), nullable=True),
    sa.Column('steps_en', sa.Text(), nullable=True),
    sa.Column('steps_zh', sa.Text(), nullable=True),
    sa.Column('condition_en', sa.Text(), nullable=True),
    sa.Column('condition_zh', sa.Text(), nullable=True),
    sa.Column('tradeoff_en', sa.Text(), nullable=True),
    sa.Column('tradeoff_zh', sa.Text(), nullable=True),
    sa.Column('sources', sa.JSON(), nullable=False),
    sa.Column('prior_rate', sa.Float(), nullable=False),
    sa.Column('rate', sa.Float(), nullable=False),
    sa.Column('worked', sa.Integer(), nullable=False),
    sa.Column('failed', sa.Integer(), nullable=False),
    sa.Column('partial', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['entry_id'], ['entry.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('entry_id', 'key')
    )
    with op.batch_alter_table('workaround', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_workaround_entry_id'), ['entry_id'], unique=False)

    op.create_table('evidence_version',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evidence_id', sa.Integer(), nullable=False),
    sa.Column('component', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('version', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.ForeignKeyConstraint(['evidence_id'], ['evidence.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('evidence_version', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evidence_version_evidence_id'), ['evidence_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('evidence_version', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evidence_version_evidence_id'))

    op.drop_table('evidence_version')
    with op.batch_alter_table('workaround', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_workaround_entry_id'))

    op.drop_table('workaround')
    with op.batch_alter_table('evidence', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evidence_submitted_at'))
        batch_op.drop_index('ix_evidence_entry_status')

    op.drop_table('evidence')
    with op.batch_alter_table('entry_version', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_version_entry_id'))
        batch_op.drop_index(batch_op.f('ix_entry_version_component'))

    op.drop_table('entry_version')
    with op.batch_alter_table('entry_revision', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_revision_entry_id'))

    op.drop_table('entry_revision')
    with op.batch_alter_table('entry_relation', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_relation_target_id'))
        batch_op.drop_index(batch_op.f('ix_entry_relation_entry_id'))

    op.drop_table('entry_relation')
    with op.batch_alter_table('entry_pattern', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_pattern_entry_id'))

    op.drop_table('entry_pattern')
    with op.batch_alter_table('entry_doc', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_doc_entry_id'))

    op.drop_table('entry_doc')
    with op.batch_alter_table('dead_end', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_dead_end_entry_id'))

    op.drop_table('dead_end')
    with op.batch_alter_table('moderation_action', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_moderation_action_evidence_uid'))

    op.drop_table('moderation_action')
    with op.batch_alter_table('entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_entry_updated_at'))
        batch_op.drop_index(batch_op.f('ix_entry_domain'))
        batch_op.drop_index(batch_op.f('ix_entry_category'))

    op.drop_table('entry')
