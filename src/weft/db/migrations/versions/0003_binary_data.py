"""Binary data of the ``database`` mode (n8n's ``binary_data``), its bytes in chunks.

Revision ID: 0003_binary_data
Revises: 0002_users_api_keys_tags
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_binary_data"
down_revision = "0002_users_api_keys_tags"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "binary_data",
        sa.Column("file_id", sa.String(36), nullable=False),
        sa.Column("source_type", sa.String(50), nullable=False),
        sa.Column("source_id", sa.String(255), nullable=False),
        sa.Column("mime_type", sa.String(255), nullable=True),
        sa.Column("file_name", sa.String(255), nullable=True),
        sa.Column("file_size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("file_id", name="pk_binary_data"),
    )
    op.create_index("ix_binary_data_source_id", "binary_data", ["source_id"])
    op.create_table(
        "binary_data_chunk",
        sa.Column("file_id", sa.String(36), nullable=False),
        sa.Column("position", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["file_id"], ["binary_data.file_id"], name="fk_binary_data_chunk_file_id_binary_data", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("file_id", "position", name="pk_binary_data_chunk"),
    )


def downgrade() -> None:
    op.drop_table("binary_data_chunk")
    op.drop_index("ix_binary_data_source_id", table_name="binary_data")
    op.drop_table("binary_data")
