"""Users, login sessions, public API keys, tags (n8n's ``user``, ``user_api_keys``, ``tag_entity``, ``workflows_tags``).

Revision ID: 0002_users_api_keys_tags
Revises: 0001_initial
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002_users_api_keys_tags"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def _ts(name: str, *, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _user_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["user_id"], ["user.id"], name=f"fk_{table}_user_id_user", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "user",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("email", sa.String(255), nullable=False),
        sa.Column("first_name", sa.String(32), nullable=False),
        sa.Column("last_name", sa.String(32), nullable=False),
        sa.Column("password", sa.String(255), nullable=True),
        sa.Column("role", sa.String(64), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        _ts("created_at"),
        _ts("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_user"),
        sa.UniqueConstraint("email", name="uq_user_email"),
    )
    op.create_table(
        "auth_session",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(36), nullable=False),
        _ts("created_at"),
        _ts("expires_at"),
        _user_fk("auth_session"),
        sa.PrimaryKeyConstraint("id", name="pk_auth_session"),
    )
    op.create_index("ix_auth_session_user_id", "auth_session", ["user_id"])
    op.create_index("ix_auth_session_expires_at", "auth_session", ["expires_at"])
    op.create_table(
        "user_api_keys",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("user_id", sa.String(36), nullable=False),
        sa.Column("label", sa.String(100), nullable=False),
        sa.Column("api_key", sa.String(64), nullable=False),
        sa.Column("hint", sa.String(8), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("audience", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.Integer(), nullable=True),
        _ts("created_at"),
        _ts("updated_at"),
        _user_fk("user_api_keys"),
        sa.PrimaryKeyConstraint("id", name="pk_user_api_keys"),
        sa.UniqueConstraint("api_key", name="uq_user_api_keys_api_key"),
    )
    op.create_index("ix_user_api_keys_user_id", "user_api_keys", ["user_id"])
    _create_tags()


def _create_tags() -> None:
    op.create_table(
        "tag_entity",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        _ts("created_at"),
        _ts("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_tag_entity"),
        sa.UniqueConstraint("name", name="uq_tag_entity_name"),
    )
    op.create_table(
        "workflows_tags",
        sa.Column("workflow_id", sa.String(36), nullable=False),
        sa.Column("tag_id", sa.String(36), nullable=False),
        sa.ForeignKeyConstraint(
            ["workflow_id"],
            ["workflow_entity.id"],
            name="fk_workflows_tags_workflow_id_workflow_entity",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tag_id"], ["tag_entity.id"], name="fk_workflows_tags_tag_id_tag_entity", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("workflow_id", "tag_id", name="pk_workflows_tags"),
    )
    op.create_index("ix_workflows_tags_tag_id", "workflows_tags", ["tag_id"])


def downgrade() -> None:
    for table in ("workflows_tags", "tag_entity", "user_api_keys", "auth_session", "user"):
        op.drop_table(table)
