"""Queue mode: execution claims (token and lease) and the messages workers send to the process holding a request.

Revision ID: 0004_queue_mode
Revises: 0003_binary_data
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_queue_mode"
down_revision = "0003_binary_data"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "execution_claim",
        sa.Column("execution_id", sa.Integer(), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("worker", sa.String(255), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("job_id", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["execution_id"],
            ["execution_entity.id"],
            name="fk_execution_claim_execution_id_execution_entity",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("execution_id", name="pk_execution_claim"),
    )
    op.create_index("ix_execution_claim_lease_until", "execution_claim", ["lease_until"])
    op.create_table(
        "execution_message",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("execution_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_execution_message"),
    )
    op.create_index("ix_execution_message_execution_id", "execution_message", ["execution_id"])


def downgrade() -> None:
    op.drop_index("ix_execution_message_execution_id", table_name="execution_message")
    op.drop_table("execution_message")
    op.drop_index("ix_execution_claim_lease_until", table_name="execution_claim")
    op.drop_table("execution_claim")
