"""An execution as the database stores it (:class:`StoredExecution`), read from its rows."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from weft.db.base import to_iso
from weft.workflow.items import RunExecutionData


@dataclass(frozen=True, kw_only=True)
class StoredExecution:
    """An execution as stored; ``workflow_data`` and ``data`` are ``None`` unless asked for."""

    id: str
    workflow_id: str | None
    mode: str
    """How it was started: ``manual``, ``trigger``, ``webhook``, ``integrated`` (sub-workflow), ``retry``…"""
    status: str
    """``new``, ``running``, ``success``, ``error``, ``waiting``, ``canceled`` or ``crashed``."""
    finished: bool
    started_at: datetime | None
    stopped_at: datetime | None
    wait_till: datetime | None
    """When a waiting execution resumes by itself; far in the future for "until a webhook calls"."""
    retry_of: str | None
    retry_success_id: str | None
    parent_execution_id: str | None
    created_at: datetime
    workflow_data: dict[str, Any] | None = None
    """The workflow JSON the execution ran (a snapshot taken when it was created)."""
    data: RunExecutionData | None = None
    """The whole ``IRunExecutionData``: run data, stack and waiting state."""

    def to_json(self) -> dict[str, Any]:
        """n8n's execution shape (``IExecutionResponse``), as the REST API returns it."""
        out: dict[str, Any] = {
            "id": self.id,
            "finished": self.finished,
            "mode": self.mode,
            "retryOf": self.retry_of,
            "retrySuccessId": self.retry_success_id,
            "status": self.status,
            "createdAt": to_iso(self.created_at),
            "startedAt": to_iso(self.started_at),
            "stoppedAt": to_iso(self.stopped_at),
            "waitTill": to_iso(self.wait_till),
            "workflowId": self.workflow_id,
            "parentExecutionId": self.parent_execution_id,
        }
        if self.workflow_data is not None:
            out["workflowData"] = self.workflow_data
        if self.data is not None:
            out["data"] = self.data
        return out


def stored_execution(row: Any, data_row: Any) -> StoredExecution:
    """``row``: an execution's columns (an ORM object or a row), ``data_row``: its ``workflow_data`` and ``data``."""
    return StoredExecution(
        id=str(row.id),
        workflow_id=row.workflow_id,
        mode=row.mode,
        status=row.status,
        finished=row.finished,
        started_at=row.started_at,
        stopped_at=row.stopped_at,
        wait_till=row.wait_till,
        retry_of=row.retry_of,
        retry_success_id=row.retry_success_id,
        parent_execution_id=row.parent_execution_id,
        created_at=row.created_at,
        workflow_data=None if data_row is None else data_row.workflow_data,
        data=None if data_row is None else cast(RunExecutionData, json.loads(data_row.data)),
    )


__all__ = ["StoredExecution", "stored_execution"]
