"""Workflow tags (n8n's ``tag_entity`` and ``workflows_tags``)."""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from weft.db.base import NotFoundError, new_id, to_iso
from weft.db.engine import Database
from weft.db.orm import TagEntity, WorkflowEntity, WorkflowTagEntity
from weft.errors import WeftError


class TagConflictError(WeftError):
    """A tag with that name exists already."""


@dataclass(frozen=True, kw_only=True)
class StoredTag:
    id: str
    name: str
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: TagEntity) -> StoredTag:
        return cls(id=row.id, name=row.name, created_at=row.created_at, updated_at=row.updated_at)

    def to_json(self) -> dict[str, Any]:
        return {
            "createdAt": to_iso(self.created_at),
            "updatedAt": to_iso(self.updated_at),
            "id": self.id,
            "name": self.name,
        }


class TagRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    def list(self, *, limit: int = 100, after: str | None = None) -> list[StoredTag]:
        with self._db.sessions() as session:
            query = select(TagEntity).order_by(TagEntity.id).limit(limit)
            if after:
                query = query.where(TagEntity.id > after)
            return [StoredTag.of(row) for row in session.scalars(query)]

    def get(self, tag_id: str) -> StoredTag | None:
        with self._db.sessions() as session:
            row = session.get(TagEntity, tag_id)
            return None if row is None else StoredTag.of(row)

    def create(self, name: str) -> StoredTag:
        try:
            with self._db.transaction() as session:
                row = TagEntity(id=new_id(), name=name)
                session.add(row)
                session.flush()
                return StoredTag.of(row)
        except IntegrityError:
            raise TagConflictError("Tag already exists") from None

    def update(self, tag_id: str, name: str) -> StoredTag:
        try:
            with self._db.transaction() as session:
                row = session.get(TagEntity, tag_id)
                if row is None:
                    raise NotFoundError("Not Found")
                row.name = name
                session.flush()
                return StoredTag.of(row)
        except IntegrityError:
            raise TagConflictError("Tag already exists") from None

    def delete(self, tag_id: str) -> StoredTag | None:
        with self._db.transaction() as session:
            row = session.get(TagEntity, tag_id)
            if row is None:
                return None
            stored = StoredTag.of(row)
            session.delete(row)
            return stored

    def of_workflow(self, workflow_id: str) -> builtins.list[StoredTag]:
        with self._db.sessions() as session:
            rows = session.scalars(
                select(TagEntity)
                .join(WorkflowTagEntity, WorkflowTagEntity.tag_id == TagEntity.id)
                .where(WorkflowTagEntity.workflow_id == workflow_id)
                .order_by(TagEntity.name)
            )
            return [StoredTag.of(row) for row in rows]

    def of_workflows(self, workflow_ids: builtins.list[str] | None = None) -> dict[str, builtins.list[StoredTag]]:
        """The tags (by name) of each of ``workflow_ids``, or of every tagged workflow, in one query; a workflow of
        ``workflow_ids`` without tags maps to ``[]``."""
        found: dict[str, builtins.list[StoredTag]] = {workflow_id: [] for workflow_id in workflow_ids or []}
        query = select(WorkflowTagEntity.workflow_id, TagEntity).join(
            TagEntity, WorkflowTagEntity.tag_id == TagEntity.id
        )
        if workflow_ids is not None:
            query = query.where(WorkflowTagEntity.workflow_id.in_(workflow_ids))
        with self._db.sessions() as session:
            for workflow_id, tag in session.execute(query.order_by(TagEntity.name)):
                found.setdefault(workflow_id, []).append(StoredTag.of(tag))
        return found

    def set_workflow_tags(self, workflow_id: str, tag_ids: builtins.list[str]) -> builtins.list[StoredTag]:
        """Replace the workflow's tags; :class:`NotFoundError` when the workflow or a tag does not exist."""
        with self._db.transaction() as session:
            if session.get(WorkflowEntity, workflow_id) is None:
                raise NotFoundError("Not Found")
            for tag_id in tag_ids:
                if session.get(TagEntity, tag_id) is None:
                    raise NotFoundError("Some tags not found")
            session.execute(delete(WorkflowTagEntity).where(WorkflowTagEntity.workflow_id == workflow_id))
            for tag_id in dict.fromkeys(tag_ids):
                session.add(WorkflowTagEntity(workflow_id=workflow_id, tag_id=tag_id))
        return self.of_workflow(workflow_id)


__all__ = ["StoredTag", "TagConflictError", "TagRepository"]
