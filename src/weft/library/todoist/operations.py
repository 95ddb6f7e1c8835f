"""Each Todoist operation as n8n's ``OperationHandler`` runs it: the request(s), and the answer as
``{"data": ...}`` or ``{"success": True}``."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from weft.errors import NodeOperationError
from weft.library.todoist.checks import assert_type, validate
from weft.library.todoist.transport import format_due_datetime, todoist_get_all, todoist_request, todoist_sync_request
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string

_ID = ("string", "number")
_S, _N, _B = ("string",), ("number",), ("boolean",)
#: Task option (or update field) → body field, in n8n's order; "priority" and "labels" are handled apart.
_TASK_FIELDS = (
    ("description", "description"),
    ("dueDateTime", "due_datetime"),
    ("dueString", "due_string"),
    ("section", "section_id"),
    ("dueLang", "due_lang"),
    ("parentId", "parent_id"),
    ("order", "order"),
    ("dueDate", "due_date"),
    ("assigneeId", "assignee_id"),
    ("duration", "duration"),
    ("durationUnit", "duration_unit"),
    ("deadlineDate", "deadline_date"),
)
_CREATE_TYPES = {
    "description": _S,
    "dueDateTime": _S,
    "dueString": _S,
    "section": _ID,
    "dueLang": _S,
    "parentId": _ID,
    "priority": _ID,
    "order": _N,
    "dueDate": _S,
    "assigneeId": _S,
    "duration": _N,
    "durationUnit": _S,
    "deadlineDate": _S,
}
_UPDATE_TYPES = {**_CREATE_TYPES, "content": _S, "labels": ("string[]",)}
_FILTER_TYPES = {"projectId": _ID, "sectionId": _ID, "labelId": _ID, "filter": _S, "lang": _S, "ids": _S}

Answer = dict[str, Any]
Handler = Callable[["Op"], Awaitable[Answer]]
Types = Mapping[str, tuple[str, ...]]


@dataclass
class Op:
    """One item's operation: the run's API, parameters and item."""

    api: ApiRequests
    scope: RoutingScope
    index: int

    @property
    def node(self) -> str:
        return self.api.ctx.node.name

    @property
    def version(self) -> float:
        return float(self.api.ctx.node.typeVersion)

    def get(self, name: str, *default: Any, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, *default, extract_value=extract)

    def id(self, name: str, *, extract: bool = False) -> Any:
        value = self.get(name, extract=extract)
        assert_type(self.node, name, value, *_ID, item_index=self.index)
        return value

    def string(self, name: str) -> str:
        value = self.get(name)
        assert_type(self.node, name, value, "string", item_index=self.index)
        return str(value)

    def fields(self, name: str, types: Types) -> dict[str, Any]:
        return validate(self.node, self.get(name, {}), types, self.index)

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return await todoist_request(self.api, method, path, self.index, body)


def _set(body: dict[str, Any], given: dict[str, Any], names: tuple[tuple[str, str], ...]) -> None:
    for option, key in names:
        if given.get(option):
            body[key] = format_due_datetime(str(given[option])) if option == "dueDateTime" else given[option]


async def task_create(op: Op) -> Answer:
    content = op.string("content")
    project = op.id("project", extract=True)
    labels = op.get("labels", [])
    options = op.fields("options", _CREATE_TYPES)
    priority = options.get("priority")
    body: dict[str, Any] = {"content": content, "project_id": project}
    body["priority"] = parse_int(priority) if isinstance(priority, str) else (1 if priority is None else priority)
    _set(body, options, _TASK_FIELDS[:3])
    if labels:
        body["labels"] = labels
    _set(body, options, _TASK_FIELDS[3:])
    return {"data": await op.call("POST", "/tasks", body)}


def parse_int(text: str) -> int | None:
    digits = text.strip()
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    head = ""
    for char in digits:
        if not char.isdigit():
            break
        head += char
    return sign * int(head) if head else None


async def task_update(op: Op) -> Answer:
    task = op.id("taskId")
    fields = op.fields("updateFields", _UPDATE_TYPES)
    body: dict[str, Any] = {}
    for key in ("content", "priority", "description"):
        if fields.get(key):
            body[key] = fields[key]
    _set(body, fields, _TASK_FIELDS[1:3])
    if isinstance(fields.get("labels"), list) and fields["labels"]:
        body["labels"] = fields["labels"]
    _set(body, fields, tuple(pair for pair in _TASK_FIELDS[4:] if pair[0] != "parentId"))
    await op.call("POST", f"/tasks/{js_string(task)}", body)
    return {"success": True}


async def task_get_all(op: Op) -> Answer:
    return_all = op.get("returnAll")
    filters = op.fields("filters", _FILTER_TYPES)
    qs: dict[str, Any] = {}
    for option, key in (("projectId", "project_id"), ("sectionId", "section_id"), ("labelId", "label")):
        if filters.get(option):
            qs[key] = filters[option]
    if filters.get("filter"):
        qs["query" if op.version >= 2.2 else "filter"] = filters["filter"]
    for key in ("lang", "ids"):
        if filters.get(key):
            qs[key] = filters[key]
    limit = None
    if not return_all:
        limit = op.get("limit")
        assert_type(op.node, "limit", limit, "number", item_index=op.index)
    endpoint = "/tasks/filter" if qs.get("query") else "/tasks"
    return {"data": await todoist_get_all(op.api, endpoint, op.index, qs, limit)}


async def task_move(op: Op) -> Answer:
    task = op.id("taskId")
    project = op.id("project", extract=True)
    args: dict[str, Any] = {"id": task}
    if op.version < 2.1:
        args["section_id"] = op.id("section")
    else:
        options = op.fields("options", {"parent": _ID, "section": _ID})
        if options.get("parent"):
            args["parent_id"] = options["parent"]
        elif options.get("section"):
            args["section_id"] = options["section"]
        else:
            args["project_id"] = project
    body = {"commands": [{"type": "item_move", "uuid": str(uuid.uuid4()), "args": args}]}
    await todoist_sync_request(op.api, body, op.index)
    return {"success": True}


async def task_quick_add(op: Op) -> Answer:
    body: dict[str, Any] = {"text": op.string("text")}
    options = op.fields("options", {"note": _S, "reminder": _S, "auto_reminder": _B})
    for key in ("note", "reminder", "auto_reminder"):
        if options.get(key):
            body[key] = options[key]
    endpoint = "/tasks/quick" if op.version >= 2.2 else "/quick/add"
    return {"data": await todoist_sync_request(op.api, body, op.index, endpoint)}


def _by_id(kind: str, parameter: str, method: str, suffix: str = "") -> Handler:
    """An operation on ``/<kind>/<id><suffix>``: a GET answers its data, the others ``success``."""

    async def run(op: Op) -> Answer:
        found = await op.call(method, f"/{kind}/{js_string(op.id(parameter))}{suffix}")
        return {"data": found} if method == "GET" else {"success": True}

    return run


def _update(kind: str, parameter: str, fields: str, types: Types) -> Handler:
    async def run(op: Op) -> Answer:
        item = op.id(parameter)
        await op.call("POST", f"/{kind}/{js_string(item)}", op.fields(fields, types))
        return {"success": True}

    return run


def _create(kind: str, name: str, options: str, types: Types) -> Handler:
    async def run(op: Op) -> Answer:
        body: dict[str, Any] = {"name": op.string(name)}
        if kind == "sections":
            body["project_id"] = op.id("sectionProject", extract=True)
        body.update(op.fields(options, types))
        return {"data": await op.call("POST", f"/{kind}", body)}

    return run


def _list(kind: str) -> Handler:
    async def run(op: Op) -> Answer:
        qs: dict[str, Any] = {}
        if kind == "sections":
            filters = op.get("sectionFilters", {}) or {}
            if filters.get("project_id"):
                assert_type(op.node, "project_id", filters["project_id"], *_ID, item_index=op.index)
                qs["project_id"] = filters["project_id"]
        return {"data": await todoist_get_all(op.api, f"/{kind}", op.index, qs)}

    return run


async def _collaborators(op: Op) -> Answer:
    path = f"/projects/{js_string(op.id('projectId'))}/collaborators"
    return {"data": await todoist_get_all(op.api, path, op.index)}


_PROJECT = {"color": _S, "is_favorite": _B, "parent_id": _S, "view_style": _S}
_LABEL = {"color": _S, "order": _N, "is_favorite": _B}
OPERATIONS: dict[str, dict[str, Handler]] = {
    "task": {
        "create": task_create,
        "close": _by_id("tasks", "taskId", "POST", "/close"),
        "delete": _by_id("tasks", "taskId", "DELETE"),
        "get": _by_id("tasks", "taskId", "GET"),
        "getAll": task_get_all,
        "reopen": _by_id("tasks", "taskId", "POST", "/reopen"),
        "update": task_update,
        "move": task_move,
        "quickAdd": task_quick_add,
    },
    "project": {
        "create": _create("projects", "name", "projectOptions", _PROJECT),
        "delete": _by_id("projects", "projectId", "DELETE"),
        "get": _by_id("projects", "projectId", "GET"),
        "getAll": _list("projects"),
        "update": _update(
            "projects",
            "projectId",
            "projectUpdateFields",
            {"name": _S, "color": _S, "is_favorite": _B, "view_style": _S},
        ),
        "archive": _by_id("projects", "projectId", "POST", "/archive"),
        "unarchive": _by_id("projects", "projectId", "POST", "/unarchive"),
        "getCollaborators": _collaborators,
    },
    "section": {
        "create": _create("sections", "sectionName", "sectionOptions", {"order": _N}),
        "delete": _by_id("sections", "sectionId", "DELETE"),
        "get": _by_id("sections", "sectionId", "GET"),
        "getAll": _list("sections"),
        "update": _update("sections", "sectionId", "sectionUpdateFields", {"name": _S}),
    },
    "label": {
        "create": _create("labels", "labelName", "labelOptions", _LABEL),
        "delete": _by_id("labels", "labelId", "DELETE"),
        "get": _by_id("labels", "labelId", "GET"),
        "getAll": _list("labels"),
        "update": _update("labels", "labelId", "labelUpdateFields", {"name": _S, **_LABEL}),
    },
}


def operation(node: str, resource: str, name: str) -> Handler:
    """The handler of ``resource``/``name``, or n8n's error for an operation the resource lacks."""
    found = OPERATIONS.get(resource, {}).get(name)
    if found is None:
        if resource in OPERATIONS or resource in ("comment", "reminder"):
            detail = "" if resource in OPERATIONS else " (comments and reminders are not supported by Weft yet)"
            raise NodeOperationError(node, f"Invalid operation '{name}' for {resource} resource{detail}")
        raise NodeOperationError(node, f'The resource "{resource}" is not known!')
    return found


__all__ = ["OPERATIONS", "Op", "operation"]
