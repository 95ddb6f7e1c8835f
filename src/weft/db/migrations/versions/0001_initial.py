"""Initial schema: workflows, executions and their data, credentials, webhooks, settings, chat memory.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def _ts(name: str, *, nullable: bool = True, index: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable, index=index)


def upgrade() -> None:
    op.create_table(
        "workflow_entity",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("nodes", sa.JSON(), nullable=False),
        sa.Column("connections", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=True),
        sa.Column("static_data", sa.JSON(), nullable=True),
        sa.Column("pin_data", sa.JSON(), nullable=True),
        sa.Column("version_id", sa.String(36), nullable=True),
        sa.Column("raw", sa.JSON(), nullable=False),
        _ts("created_at", nullable=False),
        _ts("updated_at", nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_workflow_entity"),
    )
    op.create_index("ix_workflow_entity_active", "workflow_entity", ["active"])
    _create_executions()
    _create_credentials_and_webhooks()
    op.create_table(
        "settings",
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_settings"),
    )
    op.create_table(
        "chat_memory",
        sa.Column("session_key", sa.String(255), nullable=False),
        sa.Column("position", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("message", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("session_key", "position", name="pk_chat_memory"),
    )


def _create_executions() -> None:
    op.create_table(
        "execution_entity",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("workflow_id", sa.String(36), nullable=True),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        _ts("started_at"),
        _ts("stopped_at"),
        _ts("wait_till"),
        sa.Column("retry_of", sa.String(36), nullable=True),
        sa.Column("retry_success_id", sa.String(36), nullable=True),
        sa.Column("parent_execution_id", sa.String(36), nullable=True),
        _ts("created_at", nullable=False),
        _ts("deleted_at"),
        sa.PrimaryKeyConstraint("id", name="pk_execution_entity"),
    )
    for columns in (["status"], ["stopped_at"], ["wait_till"], ["parent_execution_id"], ["workflow_id", "id"]):
        op.create_index(f"ix_execution_entity_{'_'.join(columns)}", "execution_entity", columns)
    op.create_table(
        "execution_data",
        sa.Column("execution_id", sa.Integer(), nullable=False),
        sa.Column("workflow_data", sa.JSON(), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["execution_id"],
            ["execution_entity.id"],
            name="fk_execution_data_execution_id_execution_entity",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("execution_id", name="pk_execution_data"),
    )


def _create_credentials_and_webhooks() -> None:
    op.create_table(
        "credentials_entity",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("type", sa.String(128), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        _ts("created_at", nullable=False),
        _ts("updated_at", nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_credentials_entity"),
    )
    op.create_index("ix_credentials_entity_name", "credentials_entity", ["name"])
    op.create_index("ix_credentials_entity_type", "credentials_entity", ["type"])
    op.create_table(
        "webhook_entity",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("workflow_id", sa.String(36), nullable=False),
        sa.Column("webhook_path", sa.String(512), nullable=False),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("node", sa.String(128), nullable=False),
        sa.Column("webhook_id", sa.String(64), nullable=True),
        sa.Column("path_length", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["workflow_id"],
            ["workflow_entity.id"],
            name="fk_webhook_entity_workflow_id_workflow_entity",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_entity"),
        sa.UniqueConstraint("webhook_path", "method", name="uq_webhook_entity_webhook_path_method"),
    )
    op.create_index("ix_webhook_entity_workflow_id", "webhook_entity", ["workflow_id"])
    op.create_index(
        "ix_webhook_entity_webhook_id_method_path_length", "webhook_entity", ["webhook_id", "method", "path_length"]
    )


def downgrade() -> None:
    for table in (
        "chat_memory",
        "settings",
        "webhook_entity",
        "credentials_entity",
        "execution_data",
        "execution_entity",
        "workflow_entity",
    ):
        op.drop_table(table)
