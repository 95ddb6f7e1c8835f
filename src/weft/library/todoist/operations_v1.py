"""Todoist node version 1 (n8n's ``TodoistV1``): task operations only, on the REST v2 and Sync v9 APIs.

Where V1 differs from version 2: label ids are turned into label names (``GET /labels/<id>`` each), a
priority goes through ``parseInt``, ``getAll`` asks once and cuts the list to the limit, ``move`` takes a
section only, and parameters are not type-checked. The others reuse :mod:`.operations`.
"""

from __future__ import annotations

import uuid
from typing import Any

from weft.errors import NodeOperationError
from weft.library.todoist.operations import OPERATIONS, Answer, Handler, Op, parse_int
from weft.library.todoist.transport import format_due_datetime, todoist_request, todoist_sync_request
from weft.nodes.values import js_string

#: Option (or update field) → body field, in V1's order; ``labels`` is resolved to names where it appears.
_CREATE_FIELDS = ("description", "dueDateTime", "dueString", "labels", "section", "dueLang", "parentId")
_UPDATE_FIELDS = ("content", "priority", "description", "dueDateTime", "dueString", "labels", "dueLang")
_BODY_KEYS = {
    "description": "description",
    "dueDateTime": "due_datetime",
    "dueString": "due_string",
    "section": "section_id",
    "dueLang": "due_lang",
    "parentId": "parent_id",
    "content": "content",
    "priority": "priority",
}


def _priority(value: Any) -> Any:
    return parse_int(js_string(value))


async def _label_names(op: Op, ids: list[Any]) -> list[Any]:
    names: list[Any] = []
    for label in ids:
        found = await op.call("GET", f"/labels/{js_string(label)}")
        names.append(found.get("name") if isinstance(found, dict) else None)
    return names


async def _fill(op: Op, body: dict[str, Any], given: dict[str, Any], names: tuple[str, ...]) -> None:
    for name in names:
        value = given.get(name)
        if name == "labels":
            if isinstance(value, list) and value:
                body["labels"] = await _label_names(op, value)
        elif value:
            if name == "dueDateTime":
                body[_BODY_KEYS[name]] = format_due_datetime(js_string(value))
            else:
                body[_BODY_KEYS[name]] = _priority(value) if name == "priority" else value


async def task_create(op: Op) -> Answer:
    content = op.get("content")
    project = op.get("project", extract=True)
    options = dict(op.get("options", {}) or {})
    options["labels"] = op.get("labels", [])
    priority = options.get("priority")
    body: dict[str, Any] = {"content": content, "project_id": project}
    body["priority"] = _priority(priority) if priority else 1
    await _fill(op, body, options, _CREATE_FIELDS)
    return {"data": await op.call("POST", "/tasks", body)}


async def task_update(op: Op) -> Answer:
    task = op.get("taskId")
    fields = dict(op.get("updateFields", {}) or {})
    body: dict[str, Any] = {}
    await _fill(op, body, fields, _UPDATE_FIELDS)
    await op.call("POST", f"/tasks/{js_string(task)}", body)
    return {"success": True}


async def task_get_all(op: Op) -> Answer:
    return_all = op.get("returnAll")
    filters = dict(op.get("filters", {}) or {})
    qs: dict[str, Any] = {}
    for option, key in (("projectId", "project_id"), ("labelId", "label"), ("filter", "filter")):
        if filters.get(option):
            qs[key] = filters[option]
    for key in ("lang", "ids"):
        if filters.get(key):
            qs[key] = filters[key]
    found = await todoist_request(op.api, "GET", "/tasks", op.index, None, qs)
    rows = list(found) if isinstance(found, list) else []
    if not return_all:
        limit = op.get("limit")
        rows = rows[: max(int(limit), 0)] if isinstance(limit, (int, float)) else rows[:0]
    return {"data": rows}


async def task_move(op: Op) -> Answer:
    args = {"id": op.get("taskId"), "section_id": op.get("section")}
    body = {"commands": [{"type": "item_move", "uuid": str(uuid.uuid4()), "args": args}]}
    await todoist_sync_request(op.api, body, op.index)
    return {"success": True}


_SAME = ("close", "delete", "get", "reopen")
OPERATIONS_V1: dict[str, Handler] = {
    **{name: OPERATIONS["task"][name] for name in _SAME},
    "create": task_create,
    "update": task_update,
    "getAll": task_get_all,
    "move": task_move,
}


def operation_v1(node: str, resource: str, name: str) -> Handler | None:
    """V1's handler of ``name`` for the task resource (``None`` for another resource: V1 outputs nothing new)."""
    if resource != "task":
        return None
    found = OPERATIONS_V1.get(name)
    if found is None:
        raise NodeOperationError(node, "Cannot read properties of undefined (reading 'handleOperation')")
    return found


__all__ = ["OPERATIONS_V1", "operation_v1"]
