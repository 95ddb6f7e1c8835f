"""The tables, as SQLAlchemy 2 declarative models (n8n's entity names and columns, snake_case).

ORM rows stay inside the ``db`` package: repositories turn them into plain dataclasses and JSON so
callers never hold a session-bound object. The schema itself is created by the Alembic migrations
in ``weft/db/migrations``; ``tests/db`` checks that these models and the migrations agree.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names are fixed so that migrations can refer to them on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp that always comes back timezone-aware in UTC (SQLite stores it naive, in UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {datetime: UtcDateTime(), dict[str, Any]: JSON()}


class WorkflowEntity(Base):
    """A stored workflow; ``raw`` keeps the whole JSON so an export returns fields Weft does not know."""

    __tablename__ = "workflow_entity"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(128))
    active: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    nodes: Mapped[list[Any]] = mapped_column(JSON)
    connections: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    static_data: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    pin_data: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    version_id: Mapped[str | None] = mapped_column(String(36))
    raw: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ExecutionEntity(Base):
    """One execution: its state; the (large) run data lives in :class:`ExecutionData`.

    ``workflow_id`` has no foreign key: ``weft execute --file`` runs workflows that are not stored.
    """

    __tablename__ = "execution_entity"
    __table_args__ = (Index("ix_execution_entity_workflow_id_id", "workflow_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    workflow_id: Mapped[str | None] = mapped_column(String(36))
    mode: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), index=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    started_at: Mapped[datetime | None]
    stopped_at: Mapped[datetime | None] = mapped_column(index=True)
    wait_till: Mapped[datetime | None] = mapped_column(index=True)
    retry_of: Mapped[str | None] = mapped_column(String(36))
    retry_success_id: Mapped[str | None] = mapped_column(String(36))
    parent_execution_id: Mapped[str | None] = mapped_column(String(36), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None]


class ExecutionData(Base):
    """The workflow snapshot an execution ran and its ``IRunExecutionData`` as JSON text."""

    __tablename__ = "execution_data"

    execution_id: Mapped[int] = mapped_column(ForeignKey("execution_entity.id", ondelete="CASCADE"), primary_key=True)
    workflow_data: Mapped[dict[str, Any]] = mapped_column(JSON)
    data: Mapped[str] = mapped_column(Text)


class CredentialsEntity(Base):
    """A credential; ``data`` is the Fernet token of its JSON, never plaintext."""

    __tablename__ = "credentials_entity"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(128), index=True)
    type: Mapped[str] = mapped_column(String(128), index=True)
    data: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class WebhookEntity(Base):
    """A registered production webhook of an active workflow (n8n's ``webhook_entity``)."""

    __tablename__ = "webhook_entity"
    __table_args__ = (
        UniqueConstraint("webhook_path", "method"),
        Index("ix_webhook_entity_webhook_id_method_path_length", "webhook_id", "method", "path_length"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    workflow_id: Mapped[str] = mapped_column(ForeignKey("workflow_entity.id", ondelete="CASCADE"), index=True)
    webhook_path: Mapped[str] = mapped_column(String(512))
    method: Mapped[str] = mapped_column(String(16))
    node: Mapped[str] = mapped_column(String(128))
    webhook_id: Mapped[str | None] = mapped_column(String(64))
    path_length: Mapped[int | None] = mapped_column(Integer)


class ExecutionClaimEntity(Base):
    """Queue mode: which worker holds an execution, with what claim token, until when (its lease).

    A row exists while the execution is queued or running on a worker; ``lease_until`` is ``NULL`` while it waits
    for a worker. Every write of a claimed execution checks ``token`` in the same transaction
    (:mod:`weft.db.claims`), so a worker whose claim was taken over can never overwrite the execution."""

    __tablename__ = "execution_claim"

    execution_id: Mapped[int] = mapped_column(ForeignKey("execution_entity.id", ondelete="CASCADE"), primary_key=True)
    token: Mapped[int] = mapped_column(BigInteger)
    worker: Mapped[str | None] = mapped_column(String(255))
    lease_until: Mapped[datetime | None] = mapped_column(index=True)
    job_id: Mapped[int | None] = mapped_column(BigInteger)


class ExecutionMessageEntity(Base):
    """Queue mode: what a worker tells the process that holds an execution's request (a webhook's answer, the
    execution's end), read once by that process (:mod:`weft.queue.messages`). No foreign key: the end of an
    execution the save settings delete must still reach the caller."""

    __tablename__ = "execution_message"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    execution_id: Mapped[int] = mapped_column(Integer, index=True)
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class BinaryDataEntity(Base):
    """A file of the ``database`` binary-data mode (n8n's ``binary_data``); its bytes are in chunks."""

    __tablename__ = "binary_data"

    file_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    source_type: Mapped[str] = mapped_column(String(50))
    source_id: Mapped[str] = mapped_column(String(255), index=True)
    mime_type: Mapped[str | None] = mapped_column(String(255))
    file_name: Mapped[str | None] = mapped_column(String(255))
    file_size: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class BinaryDataChunkEntity(Base):
    """One chunk (at most 1 MiB) of a stored file, so that a large file never sits in memory whole."""

    __tablename__ = "binary_data_chunk"

    file_id: Mapped[str] = mapped_column(ForeignKey("binary_data.file_id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class SettingsEntity(Base):
    """Instance-wide key/value settings stored in the database."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)


class ChatMemoryEntity(Base):
    """One message of an agent's Simple Memory, in order within its session."""

    __tablename__ = "chat_memory"

    session_key: Mapped[str] = mapped_column(String(255), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    message: Mapped[dict[str, Any]] = mapped_column(JSON)


class UserEntity(Base):
    """A user (n8n's ``user``): the instance owner; ``password`` is a bcrypt hash, never the password."""

    __tablename__ = "user"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    email: Mapped[str] = mapped_column(String(255), unique=True)
    first_name: Mapped[str] = mapped_column(String(32))
    last_name: Mapped[str] = mapped_column(String(32))
    password: Mapped[str | None] = mapped_column(String(255))
    role: Mapped[str] = mapped_column(String(64))
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class AuthSessionEntity(Base):
    """A login session: ``id`` is the SHA-256 of the cookie's random token, so the table holds no usable token."""

    __tablename__ = "auth_session"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class ApiKeyEntity(Base):
    """A public API key (n8n's ``user_api_keys``): ``api_key`` is the SHA-256 of the key, ``hint`` its last 4 chars."""

    __tablename__ = "user_api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    label: Mapped[str] = mapped_column(String(100))
    api_key: Mapped[str] = mapped_column(String(64), unique=True)
    hint: Mapped[str] = mapped_column(String(8))
    scopes: Mapped[list[Any]] = mapped_column(JSON)
    audience: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[int | None] = mapped_column(Integer)
    """Unix seconds, as n8n's ``expiresAt``; ``None`` never expires."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class TagEntity(Base):
    """A workflow tag (n8n's ``tag_entity``)."""

    __tablename__ = "tag_entity"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(24), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class WorkflowTagEntity(Base):
    """Which tags a workflow has (n8n's ``workflows_tags``)."""

    __tablename__ = "workflows_tags"

    workflow_id: Mapped[str] = mapped_column(ForeignKey("workflow_entity.id", ondelete="CASCADE"), primary_key=True)
    tag_id: Mapped[str] = mapped_column(ForeignKey("tag_entity.id", ondelete="CASCADE"), primary_key=True, index=True)


__all__ = [
    "ApiKeyEntity",
    "AuthSessionEntity",
    "Base",
    "ChatMemoryEntity",
    "CredentialsEntity",
    "ExecutionData",
    "ExecutionEntity",
    "SettingsEntity",
    "TagEntity",
    "UserEntity",
    "UtcDateTime",
    "WebhookEntity",
    "WorkflowEntity",
    "WorkflowTagEntity",
    "utcnow",
]
