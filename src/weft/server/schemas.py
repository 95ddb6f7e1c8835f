"""The REST API's shapes (pydantic, at the trust boundary), apart from the database rows.

Field names are n8n's (camelCase). Workflow JSON stays open-ended: unknown fields are kept.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from weft.db.base import to_iso
from weft.db.credentials import CredentialInfo
from weft.db.executions import StoredExecution
from weft.db.workflows import StoredWorkflow

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    """n8n's REST answer: ``{"data": …}``."""

    data: T


class Page(BaseModel, Generic[T]):
    data: list[T]
    nextCursor: str | None = None
    """Pass it as ``lastId`` to get the next page; ``None`` on the last page."""


class WorkflowIn(BaseModel):
    """A workflow as n8n exports it (``nodes``, ``connections``, ``settings``, …); unknown fields are kept."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    name: str = "My workflow"
    nodes: list[dict[str, Any]] = Field(default_factory=list)
    connections: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] | None = None
    active: bool | None = None
    """Ignored on create and update: use ``/activate`` and ``/deactivate``."""


class WorkflowOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    active: bool
    versionId: str | None
    createdAt: str | None
    updatedAt: str | None
    nodes: list[dict[str, Any]] = Field(default_factory=list)
    connections: dict[str, Any] = Field(default_factory=dict)
    settings: dict[str, Any] | None = None

    @classmethod
    def of(cls, stored: StoredWorkflow) -> WorkflowOut:
        return cls(
            **{
                **stored.data,
                "id": stored.id,
                "name": stored.name,
                "active": stored.active,
                "versionId": stored.version_id,
                "createdAt": to_iso(stored.created_at),
                "updatedAt": to_iso(stored.updated_at),
            }
        )


class ExecutionOut(BaseModel):
    id: str
    finished: bool
    mode: str
    status: str
    retryOf: str | None = None
    retrySuccessId: str | None = None
    createdAt: str | None = None
    startedAt: str | None = None
    stoppedAt: str | None = None
    waitTill: str | None = None
    workflowId: str | None = None
    parentExecutionId: str | None = None
    workflowData: dict[str, Any] | None = None
    """The workflow as it ran (only with ``includeData``)."""
    data: dict[str, Any] | None = None
    """n8n's ``IRunExecutionData`` (only with ``includeData``)."""

    @classmethod
    def of(cls, stored: StoredExecution) -> ExecutionOut:
        return cls.model_validate(stored.to_json())


class RunStarted(BaseModel):
    executionId: str | None = None
    status: str | None = None
    waitingForWebhook: bool = False
    """True when the workflow starts with a Webhook node: it now listens on ``testUrls`` for one call."""
    testUrls: list[str] = Field(default_factory=list)


class StopResult(BaseModel):
    id: str
    status: str
    stopped: bool


class CredentialIn(BaseModel):
    name: str
    type: str
    data: dict[str, Any]
    id: str | None = None


class CredentialUpdate(BaseModel):
    name: str | None = None
    data: dict[str, Any] | None = None


class CredentialOut(BaseModel):
    """A credential without its secret data."""

    id: str
    name: str
    type: str
    createdAt: str | None
    updatedAt: str | None

    @classmethod
    def of(cls, info: CredentialInfo) -> CredentialOut:
        return cls.model_validate(info.to_json())


class Deleted(BaseModel):
    id: str
    deleted: bool


__all__ = [
    "CredentialIn",
    "CredentialOut",
    "CredentialUpdate",
    "Deleted",
    "Envelope",
    "ExecutionOut",
    "Page",
    "RunStarted",
    "StopResult",
    "WorkflowIn",
    "WorkflowOut",
]
