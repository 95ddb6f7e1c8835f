"""Stored workflows: create, update, read, list, delete, (de)activate, import and export.

The whole workflow JSON is kept in ``raw`` and kept current (``active``, ``staticData``), so an export
gives back every field of the imported file, including those Weft does not know.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from weft.db.base import NotFoundError, nesting_exceeds, new_id
from weft.db.binary_data import delete_binary_rows
from weft.db.engine import Database
from weft.db.orm import ExecutionEntity, WorkflowEntity, utcnow
from weft.errors import WorkflowFileError
from weft.workflow.model import WorkflowModel, parse_workflow


@dataclass(frozen=True, kw_only=True)
class StoredWorkflow:
    """A workflow as stored, detached from any session."""

    id: str
    """The workflow's id (n8n's 16-character form when Weft generated it)."""
    name: str
    active: bool
    """Whether its triggers and production webhooks are live."""
    version_id: str | None
    """Changes on every save of the workflow's content."""
    created_at: datetime
    updated_at: datetime
    data: dict[str, Any]
    """The workflow JSON, as :meth:`WorkflowRepository.export_workflow` returns it."""

    def model(self) -> WorkflowModel:
        """The workflow validated as a :class:`WorkflowModel`."""
        return parse_workflow(self.data, source=f"Stored workflow {self.id!r}")


class WorkflowRepository:
    """Workflows in one database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(self, workflow: dict[str, Any], *, active: bool | None = None) -> StoredWorkflow:
        """Store a new workflow; its JSON ``id`` is kept if present and free, else one is generated."""
        with self._db.transaction() as session:
            wanted = check_workflow_id(workflow.get("id"))
            if isinstance(wanted, str) and wanted and session.get(WorkflowEntity, wanted) is not None:
                raise WorkflowFileError(
                    f"A workflow with id {wanted!r} already exists.",
                    field="id",
                    fix="Import it to replace it, or remove the 'id' to store a copy.",
                )
            row = WorkflowEntity(id=wanted if isinstance(wanted, str) and wanted else new_id())
            _apply(row, workflow, active)
            session.add(row)
            session.flush()
            return _record(row)

    def update(self, workflow_id: str, workflow: dict[str, Any], *, active: bool | None = None) -> StoredWorkflow:
        """Replace the content of an existing workflow; ``active`` is kept unless given."""
        with self._db.transaction() as session:
            row = _require(session, workflow_id)
            _apply(row, workflow, row.active if active is None else active)
            session.flush()
            return _record(row)

    def import_workflow(self, workflow: dict[str, Any], *, activate: bool = False) -> StoredWorkflow:
        """Create or replace (by JSON ``id``) a workflow; it is active only when ``activate`` is true."""
        with self._db.transaction() as session:
            wanted = check_workflow_id(workflow.get("id"))
            row = session.get(WorkflowEntity, wanted) if isinstance(wanted, str) and wanted else None
            if row is None:
                row = WorkflowEntity(id=wanted if isinstance(wanted, str) and wanted else new_id())
                session.add(row)
            _apply(row, workflow, activate)
            session.flush()
            return _record(row)

    def export_workflow(self, workflow_id: str) -> dict[str, Any]:
        """The workflow JSON with every field it was imported with; :class:`NotFoundError` if missing."""
        with self._db.sessions() as session:
            return copy.deepcopy(_require(session, workflow_id).raw)

    def get(self, workflow_id: str) -> StoredWorkflow | None:
        with self._db.sessions() as session:
            row = session.get(WorkflowEntity, workflow_id)
            return None if row is None else _record(row)

    def list(self, *, active: bool | None = None) -> list[StoredWorkflow]:
        """All workflows (only active or inactive ones when ``active`` is given), oldest first."""
        query = select(WorkflowEntity).order_by(WorkflowEntity.created_at, WorkflowEntity.id)
        if active is not None:
            query = query.where(WorkflowEntity.active == active)
        with self._db.sessions() as session:
            return [_record(row) for row in session.scalars(query)]

    def delete(self, workflow_id: str) -> bool:
        """Delete the workflow, its webhooks and its executions; False if it did not exist."""
        with self._db.transaction() as session:
            row = session.get(WorkflowEntity, workflow_id)
            if row is None:
                return False
            executions = select(ExecutionEntity.id).where(ExecutionEntity.workflow_id == workflow_id)
            delete_binary_rows(session, [str(i) for i in session.scalars(executions)])
            session.execute(delete(ExecutionEntity).where(ExecutionEntity.workflow_id == workflow_id))
            session.delete(row)
            return True

    def activate(self, workflow_id: str) -> StoredWorkflow:
        return self._set_active(workflow_id, True)

    def deactivate(self, workflow_id: str) -> StoredWorkflow:
        return self._set_active(workflow_id, False)

    def set_static_data(self, workflow_id: str, static_data: dict[str, Any] | None) -> None:
        """Store the workflow's ``staticData`` (trigger state such as the last poll time)."""
        with self._db.transaction() as session:
            row = _require(session, workflow_id)
            row.static_data = static_data
            row.raw = {**row.raw, "staticData": static_data}

    def _set_active(self, workflow_id: str, active: bool) -> StoredWorkflow:
        with self._db.transaction() as session:
            row = _require(session, workflow_id)
            row.active = active
            row.raw = {**row.raw, "active": active}
            session.flush()
            return _record(row)


#: n8n's limits: ``isWorkflowIdValid`` (1 to 21 characters) and the workflow entity's ``@Length(1, 128)`` name.
ID_MAX = 21
NAME_MAX = 128
#: How deeply a workflow's JSON (parameters, pinned data) may nest: deeper ones cannot be copied or validated.
DEPTH_MAX = 256
#: The characters n8n's generated ids use (nanoid's alphabet); Weft refuses others, such as ``/`` and ``.``.
_ID_CHARS = re.compile(r"^[A-Za-z0-9_-]+$")


def check_workflow_id(value: Any) -> Any:
    """``value`` when it is absent (``None``/``""``) or a valid workflow id; :class:`WorkflowFileError` otherwise."""
    if value is None or value == "":
        return value
    if not isinstance(value, str) or len(value) > ID_MAX or not _ID_CHARS.match(value):
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise WorkflowFileError(
            f"The workflow id {shown} is not valid: an id is 1 to {ID_MAX} letters, digits, '-' or '_'.",
            field="id",
            fix="Remove the 'id' to get a generated one.",
        )
    return value


def _require(session: Session, workflow_id: str) -> WorkflowEntity:
    row = session.get(WorkflowEntity, workflow_id)
    if row is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    return row


def _apply(row: WorkflowEntity, workflow: dict[str, Any], active: bool | None) -> None:
    """Validate ``workflow`` and copy it into ``row`` (columns and ``raw``)."""
    if nesting_exceeds(workflow, DEPTH_MAX):
        raise WorkflowFileError(
            f"Workflow {row.id!r} nests arrays or objects more than {DEPTH_MAX} levels deep.",
            fix="Flatten the deepest parameter or pinned data.",
        )
    raw: dict[str, Any] = json.loads(json.dumps(workflow))  # a detached, JSON-only copy
    model = parse_workflow(raw, source=f"Workflow {row.id!r}")
    raw["id"] = row.id
    raw["active"] = bool(active)
    if not 1 <= len(model.name) <= NAME_MAX:
        raise WorkflowFileError(
            f"Workflow name must be 1 to {NAME_MAX} characters long (it has {len(model.name)}).", field="name"
        )
    row.name = model.name
    row.active = bool(active)
    row.nodes = raw.get("nodes", [])
    row.connections = raw.get("connections", {})
    row.settings = raw.get("settings")
    row.static_data = raw.get("staticData")
    row.pin_data = raw.get("pinData")
    row.version_id = str(uuid.uuid4())
    row.raw = raw
    row.updated_at = utcnow()


def _record(row: WorkflowEntity) -> StoredWorkflow:
    return StoredWorkflow(
        id=row.id,
        name=row.name,
        active=row.active,
        version_id=row.version_id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        data=copy.deepcopy(row.raw),
    )


__all__ = ["DEPTH_MAX", "ID_MAX", "NAME_MAX", "StoredWorkflow", "WorkflowRepository", "check_workflow_id"]
