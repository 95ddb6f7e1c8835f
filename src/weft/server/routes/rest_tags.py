"""``/rest/tags`` (n8n's tags controller) and a workflow's ``tags`` in the workflows routes.

n8n's editor lists tags with ``GET /rest/tags?withUsageCount=true``, creates, renames and deletes them, and sets a
workflow's tags by sending their ids as ``tags`` in the workflow's save; a workflow's JSON answer carries its tags as
``[{"id", "name"}]``. An imported n8n export names its tags (``[{"id", "name", …}]``): they are created by name when
missing and linked, as n8n's import does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from weft.db.base import NotFoundError
from weft.db.tags import StoredTag
from weft.server.deps import InstanceDep
from weft.server.schemas import Envelope, WorkflowOut

if TYPE_CHECKING:
    from weft.db.workflows import StoredWorkflow
    from weft.services.instance import Instance

router = APIRouter(prefix="/tags", tags=["tags"])
#: Tags read at once when looking one up by name (n8n has no more than a few hundred).
ALL = 100_000


class TagIn(BaseModel):
    name: str = Field(min_length=1, max_length=24)
    """n8n's ``tag_entity.name`` is at most 24 characters."""


class TagOut(BaseModel):
    id: str
    name: str
    createdAt: str | None = None
    updatedAt: str | None = None
    usageCount: int | None = None

    @classmethod
    def of(cls, tag: StoredTag, usage: int | None = None) -> TagOut:
        data = tag.to_json()
        return cls(**data, usageCount=usage)


@router.get("", summary="List tags (withUsageCount: how many workflows have each)")
async def list_tags(instance: InstanceDep, withUsageCount: bool = False) -> Envelope[list[TagOut]]:
    tags = await instance.runner.db(instance.store.tags.list, limit=ALL)
    if not withUsageCount:
        return Envelope(data=[TagOut.of(t) for t in sorted(tags, key=lambda t: t.name.lower())])
    used = await instance.runner.db(instance.store.tags.of_workflows)
    counts: dict[str, int] = {}
    for workflow_tags in used.values():
        for tag in workflow_tags:
            counts[tag.id] = counts.get(tag.id, 0) + 1
    return Envelope(data=[TagOut.of(t, counts.get(t.id, 0)) for t in sorted(tags, key=lambda t: t.name.lower())])


@router.post("", summary="Create a tag")
async def create_tag(instance: InstanceDep, tag: TagIn) -> Envelope[TagOut]:
    created = await instance.runner.db(instance.store.tags.create, tag.name.strip())
    return Envelope(data=TagOut.of(created))


@router.patch("/{tag_id}", summary="Rename a tag")
async def update_tag(instance: InstanceDep, tag_id: str, tag: TagIn) -> Envelope[TagOut]:
    updated = await instance.runner.db(instance.store.tags.update, tag_id, tag.name.strip())
    return Envelope(data=TagOut.of(updated))


@router.delete("/{tag_id}", summary="Delete a tag (it is removed from every workflow)")
async def delete_tag(instance: InstanceDep, tag_id: str) -> Envelope[bool]:
    if await instance.runner.db(instance.store.tags.delete, tag_id) is None:
        raise NotFoundError(f"Tag {tag_id!r} does not exist.", tag_id=tag_id)
    return Envelope(data=True)


# -- a workflow's tags ------------------------------------------------------------------------------------------


def _brief(tag: StoredTag) -> dict[str, str]:
    return {"id": tag.id, "name": tag.name}


async def tagged(instance: Instance, stored: list[StoredWorkflow]) -> list[WorkflowOut]:
    """The workflows' answers with their tags (``[{"id", "name"}]``, as n8n's) in place of their JSON's."""
    tags = await instance.runner.db(instance.store.tags.of_workflows, [w.id for w in stored])
    return [
        WorkflowOut.model_validate({**WorkflowOut.of(w).model_dump(), "tags": [_brief(t) for t in tags.get(w.id, [])]})
        for w in stored
    ]


async def _tag_ids(instance: Instance, wanted: list[Any]) -> list[str]:
    """Tag ids for n8n's ``tags`` value: ids (strings), or objects with an ``id`` or a ``name`` (created if new)."""
    known = await instance.runner.db(instance.store.tags.list, limit=ALL)
    by_id = {t.id: t for t in known}
    by_name = {t.name: t for t in known}
    ids: list[str] = []
    for item in wanted:
        if isinstance(item, str):
            ids.append(item)
            continue
        if not isinstance(item, dict):
            continue
        if isinstance(item.get("id"), str) and item["id"] in by_id:
            ids.append(item["id"])
        elif isinstance(item.get("name"), str) and item["name"].strip():
            name = item["name"].strip()
            if name not in by_name:
                by_name[name] = await instance.runner.db(instance.store.tags.create, name)
            ids.append(by_name[name].id)
    return ids


async def save_tags(instance: Instance, workflow_id: str, data: dict[str, Any], before: Any) -> bool:
    """Set the workflow's tags from ``data["tags"]`` when it is a list (a save or an import); ``data["tags"]``
    becomes what the workflow's JSON keeps: ``before`` (its stored ``tags``, none when ``None``) when the tags did
    not change, else the new tags. False when ``data`` names no tags."""
    wanted = data.get("tags")
    if not isinstance(wanted, list):
        return False
    ids = await _tag_ids(instance, wanted)
    current = await instance.runner.db(instance.store.tags.of_workflow, workflow_id)
    if sorted(set(ids)) == sorted(t.id for t in current):
        if before is None:
            del data["tags"]
        else:
            data["tags"] = before
        return True
    stored = await instance.runner.db(instance.store.tags.set_workflow_tags, workflow_id, ids)
    data["tags"] = [_brief(t) for t in stored]
    return True


async def import_tags(instance: Instance, workflow_id: str, workflow: dict[str, Any]) -> None:
    """Link an imported export's tags (by id or name, created when missing) to the workflow."""
    data = {"tags": workflow.get("tags")}
    await save_tags(instance, workflow_id, data, None)


__all__ = ["TagIn", "TagOut", "import_tags", "router", "save_tags", "tagged"]
