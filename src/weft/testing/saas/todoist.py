"""A fake Todoist API on ``api.todoist.com``: the REST API v2 (``/rest/v2``, lists as arrays, errors as plain
text such as ``Task not found``), the unified API v1 (``/api/v1``, lists as ``{"results", "next_cursor"}`` pages
of ``limit`` (default 50, at most 200), errors as ``{"error", "error_code", "error_tag", "http_code",
"error_extra"}``) and the Sync API's ``item_move`` (``/sync/v9/sync``, ``/api/v1/sync``) and quick add. Bearer
token ``todoist-test-token`` (API key) or ``todoist-oauth-token`` (OAuth2). Task ``429`` (or a filter
``rate-limit``) answers 429 with ``Retry-After``. It keeps no state: writes answer what was written without
changing what reads see (fixed ids, fixed timestamps), so cases run in any order."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.todoist.com"
TOKENS = ("todoist-test-token", "todoist-oauth-token")
ADDED = "2025-01-02T03:04:05.000000Z"
PROJECTS = {
    "2203306141": {"name": "Inbox", "color": "grey", "inbox": True, "order": 0},
    "2203306142": {"name": "Work", "color": "blue", "inbox": False, "order": 1},
}
SECTIONS = {"7025": ("2203306142", "Doing", 1), "7026": ("2203306142", "Done", 2)}
LABELS = {"2156154810": ("urgent", "red", 1), "2156154811": ("home", "green", 2)}
_WORK = "2203306142"
_INBOX = "2203306141"


def _task_seed(n: int) -> dict[str, Any]:
    work = n <= 4
    return {
        "id": str(2995104338 + n), "project_id": _WORK if work else _INBOX,
        "section_id": "7025" if n in (1, 2) else None, "parent_id": None, "order": n,
        "content": f"Task {n}", "description": f"Details of task {n}" if n % 3 == 0 else "",
        "labels": ["urgent"] if n % 4 == 1 else [], "priority": 4 if n == 1 else 1 + n % 3,
        "due": {"date": "2025-01-10", "string": "Jan 10", "lang": "en", "is_recurring": False}
        if n % 5 == 0 else None,
    }  # fmt: skip


TASKS = {task["id"]: task for task in (_task_seed(n) for n in range(1, 56))}


def _v2_task(task: dict[str, Any]) -> dict[str, Any]:
    return {"id": task["id"], "assigner_id": None, "assignee_id": None, "project_id": task["project_id"],
            "section_id": task["section_id"], "parent_id": task["parent_id"], "order": task["order"],
            "content": task["content"], "description": task["description"], "is_completed": False,
            "labels": task["labels"], "priority": task["priority"], "comment_count": 0, "creator_id": "2671355",
            "created_at": ADDED, "due": task["due"], "url": f"https://todoist.com/showTask?id={task['id']}",
            "duration": task.get("duration")}  # fmt: skip


def _v1_task(task: dict[str, Any]) -> dict[str, Any]:
    return {"id": task["id"], "user_id": "2671355", "project_id": task["project_id"],
            "section_id": task["section_id"], "parent_id": task["parent_id"], "added_by_uid": "2671355",
            "assigned_by_uid": None, "responsible_uid": None, "labels": task["labels"], "deadline": None,
            "duration": task.get("duration"), "checked": False, "is_deleted": False, "added_at": ADDED,
            "completed_at": None, "updated_at": ADDED, "due": task["due"], "priority": task["priority"],
            "child_order": task["order"], "content": task["content"], "description": task["description"],
            "note_count": 0, "day_order": -1, "is_collapsed": False}  # fmt: skip


def _project(pid: str, v1: bool, **changes: Any) -> dict[str, Any]:
    seed = PROJECTS.get(pid, {"name": "New", "color": "charcoal", "inbox": False, "order": 9})
    data: dict[str, Any] = {"id": pid, "name": seed["name"], "color": seed["color"], "parent_id": None,
                            "is_shared": False, "is_favorite": False, "view_style": "list"}  # fmt: skip
    if v1:
        data.update(child_order=seed["order"], is_archived=False, is_deleted=False, inbox_project=seed["inbox"],
                    can_assign_tasks=False, created_at=ADDED, updated_at=ADDED, description="")  # fmt: skip
    else:
        data.update(order=seed["order"], comment_count=0, is_inbox_project=seed["inbox"], is_team_inbox=False,
                    url=f"https://todoist.com/showProject?id={pid}")  # fmt: skip
    data.update(changes)
    return data


def _section(sid: str, v1: bool, **changes: Any) -> dict[str, Any]:
    project, name, order = SECTIONS.get(sid, (_WORK, "New", 3))
    data: dict[str, Any] = {"id": sid, "project_id": project, "name": name}
    if v1:
        data.update(section_order=order, user_id="2671355", added_at=ADDED, updated_at=ADDED, archived_at=None,
                    is_archived=False, is_deleted=False, is_collapsed=False)  # fmt: skip
    else:
        data["order"] = order
    data.update(changes)
    return data


def _label(lid: str, **changes: Any) -> dict[str, Any]:
    name, color, order = LABELS.get(lid, ("new", "charcoal", 3))
    return {"id": lid, "name": name, "color": color, "order": order, "is_favorite": False, **changes}


def _error(v1: bool, status: int, message: str, tag: str, code: int, **headers: str) -> ApiReply:
    if not v1:
        return ApiReply(status=status, text=message, headers=dict(headers))
    body = {"error": message, "error_code": code, "error_extra": {"event_id": "0f0e0d0c", "retry_after": 3}
            if status == 429 else {"event_id": "0f0e0d0c"}, "error_tag": tag, "http_code": status}  # fmt: skip
    return json_error(status, body, **headers)


def _auth(request: ApiRequest, v1: bool) -> None:
    token = request.headers.get("authorization", "").removeprefix("Bearer ")
    require(token in TOKENS, _error(v1, 401, "Unauthorized", "AUTH_INVALID_TOKEN", 401))


def _page(request: ApiRequest, rows: list[Any]) -> ApiReply:
    limit = request.query.get("limit", "50")
    require(limit.isdigit() and 1 <= int(limit) <= 200,
            _error(True, 400, "Invalid argument value", "INVALID_ARGUMENT_VALUE", 20))  # fmt: skip
    start = int(request.query.get("cursor", "c0").removeprefix("c") or 0)
    end = start + int(limit)
    return ApiReply(body={"results": rows[start:end], "next_cursor": f"c{end}" if end < len(rows) else None})


def _filtered(query: dict[str, str], key: str) -> list[dict[str, Any]]:
    rows = list(TASKS.values())
    if query.get("project_id"):
        rows = [t for t in rows if t["project_id"] == query["project_id"]]
    if query.get("section_id"):
        rows = [t for t in rows if t["section_id"] == query["section_id"]]
    if query.get("label"):
        rows = [t for t in rows if query["label"] in t["labels"]]
    if query.get("ids"):
        wanted = query["ids"].split(",")
        rows = [t for t in rows if t["id"] in wanted]
    text = query.get(key, "")
    if text == "p1":
        rows = [t for t in rows if t["priority"] == 4]
    elif text.startswith("#"):
        pid = next((p for p, seed in PROJECTS.items() if seed["name"] == text[1:]), "")
        rows = [t for t in rows if t["project_id"] == pid]
    elif text.startswith("@"):
        rows = [t for t in rows if text[1:] in t["labels"]]
    elif text == "overdue":
        rows = [t for t in rows if t["due"]]
    return rows


def _tasks(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    if "rate-limit" in (request.query.get("query"), request.query.get("filter")):
        return _error(v1, 429, "Too many requests", "TOO_MANY_REQUESTS", 429, **{"Retry-After": "3"})
    if v1 and request.path.endswith("/filter"):
        require(bool(request.query.get("query")), _error(True, 400, "Required argument is missing",
                                                         "ARGUMENT_MISSING", 19))  # fmt: skip
        return _page(request, [_v1_task(t) for t in _filtered(request.query, "query")])
    if v1:
        return _page(request, [_v1_task(t) for t in _filtered(request.query, "")])
    return ApiReply(body=[_v2_task(t) for t in _filtered(request.query, "filter")])


def _task_body(request: ApiRequest, v1: bool) -> dict[str, Any]:
    body = request.body if isinstance(request.body, dict) else {}
    priority = body.get("priority", 1)
    require(priority in (1, 2, 3, 4), _error(v1, 400, "Invalid argument value" if v1 else
            "Priority must be between 1 and 4", "INVALID_ARGUMENT_VALUE", 20))  # fmt: skip
    return body


def _due(body: dict[str, Any]) -> dict[str, Any] | None:
    if body.get("due_datetime"):
        stamp = str(body["due_datetime"])
        return {"date": stamp[:10], "datetime": stamp, "string": stamp[:10], "lang": "en", "is_recurring": False,
                "timezone": None}  # fmt: skip
    if body.get("due_date") or body.get("due_string"):
        date = str(body.get("due_date") or "2025-01-03")
        return {"date": date, "string": str(body.get("due_string") or date), "lang": str(body.get("due_lang") or "en"),
                "is_recurring": False}  # fmt: skip
    return None


def _create_task(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    body = _task_body(request, v1)
    require(bool(body.get("content")), _error(v1, 400, "Required argument is missing" if v1 else
            "Required argument is missing: content", "ARGUMENT_MISSING", 19))  # fmt: skip
    project = str(body.get("project_id") or _INBOX)
    require(project in PROJECTS, _error(v1, 404 if v1 else 400, "Project not found", "NOT_FOUND", 478))
    task = {"id": "2995109999", "project_id": project, "section_id": body.get("section_id"),
            "parent_id": body.get("parent_id"), "order": body.get("order", 99), "content": body["content"],
            "description": body.get("description", ""), "labels": body.get("labels", []),
            "priority": body.get("priority", 1), "due": _due(body),
            "duration": {"amount": body["duration"], "unit": body.get("duration_unit", "minute")}
            if body.get("duration") else None}  # fmt: skip
    return ApiReply(body=_v1_task(task) if v1 else _v2_task(task))


def _one_task(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    task_id = request.params["id"]
    if task_id == "429":
        return _error(v1, 429, "Too many requests", "TOO_MANY_REQUESTS", 429, **{"Retry-After": "3"})
    require(task_id in TASKS, _error(v1, 404, "Task not found", "NOT_FOUND", 478))
    action = request.params.get("action")
    if request.method == "GET" and not action:
        return ApiReply(body=(_v1_task if v1 else _v2_task)(TASKS[task_id]))
    if request.method == "POST" and not action:
        body = _task_body(request, v1)
        changed = {**TASKS[task_id], **{k: v for k, v in body.items() if k in ("content", "description", "labels",
                                                                                   "priority")}}  # fmt: skip
        return ApiReply(body=(_v1_task if v1 else _v2_task)(changed))
    return ApiReply(status=204)


def _sync(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    commands = (request.body or {}).get("commands") if isinstance(request.body, dict) else None
    require(isinstance(commands, list), _error(v1, 400, "Invalid argument value", "INVALID_ARGUMENT_VALUE", 20))
    status: dict[str, Any] = {}
    for command in commands or []:
        args = command.get("args") or {}
        ok = command.get("type") == "item_move" and str(args.get("id")) in TASKS
        failed = {"error_code": 22, "error": "Item not found", "http_code": 404, "error_tag": "ITEM_NOT_FOUND"}
        status[str(command.get("uuid"))] = "ok" if ok else failed
    return ApiReply(body={"sync_status": status, "temp_id_mapping": {}, "full_sync": False, "sync_token": "fake"})


def _quick(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    text = str((request.body or {}).get("text", "")) if isinstance(request.body, dict) else ""
    require(bool(text), _error(v1, 400, "Required argument is missing", "ARGUMENT_MISSING", 19))
    words = [w for w in text.split() if not w.startswith(("#", "@"))]
    labels = [w[1:] for w in text.split() if w.startswith("@")]
    task = {"id": "2995108888", "project_id": _INBOX, "section_id": None, "parent_id": None, "order": 60,
            "content": " ".join(words), "description": str(request.body.get("note", "")), "labels": labels,
            "priority": 1, "due": None}  # fmt: skip
    return ApiReply(body=_v1_task(task))


def _resources(request: ApiRequest) -> ApiReply:
    v1 = request.path.startswith("/api/v1")
    _auth(request, v1)
    kind, item = request.params["kind"], request.params.get("id")
    tables: dict[str, dict[str, Any]] = {"projects": PROJECTS, "sections": SECTIONS, "labels": LABELS}
    table = tables[kind]
    body: dict[str, Any] = request.body if isinstance(request.body, dict) else {}

    def build(item_id: str, **changes: Any) -> dict[str, Any]:
        if kind == "projects":
            return _project(item_id, v1, **changes)
        return _section(item_id, v1, **changes) if kind == "sections" else _label(item_id, **changes)

    if item is None and request.method == "GET":
        rows = [build(i) for i in table if kind != "sections" or not request.query.get("project_id")
                or SECTIONS[i][0] == request.query["project_id"]]  # fmt: skip
        return _page(request, rows) if v1 else ApiReply(body=rows)
    if item is None:
        require(bool(body.get("name")), _error(v1, 400, "Required argument is missing", "ARGUMENT_MISSING", 19))
        new_id = {"projects": "2203306199", "sections": "7099", "labels": "2156154899"}[kind]
        return ApiReply(body=build(new_id, **{k: v for k, v in body.items() if k != "project_id"}))
    noun = kind[:-1].title()
    require(item in table, _error(v1, 404, f"{noun} not found", "NOT_FOUND", 478))
    if request.params.get("action") == "collaborators":
        person = {"id": "2671355", "name": "Ada Lovelace", "email": "ada@weft.example"}
        return _page(request, [person]) if v1 else ApiReply(body=[person])
    if request.method == "GET":
        return ApiReply(body=build(item))
    if request.method == "POST" and not request.params.get("action"):
        return ApiReply(body=build(item, **body))
    return ApiReply(status=204)


def install(server: FakeApiServer) -> None:
    for base in ("/rest/v2", "/api/v1"):
        server.route("POST", rf"{base}/tasks", _create_task, host=HOST)
        server.route("*", rf"{base}/tasks/(?P<id>[^/]+)(/(?P<action>close|reopen))?", _one_task, host=HOST)
        server.route("*", rf"{base}/(?P<kind>projects|sections|labels)", _resources, host=HOST)
        pattern = (
            rf"{base}/(?P<kind>projects|sections|labels)/(?P<id>[^/]+)(/(?P<action>archive|unarchive|collaborators))?"
        )
        server.route("*", pattern, _resources, host=HOST)
        server.route("GET", rf"{base}/tasks(/filter)?", _tasks, host=HOST)
    server.route("POST", r"/sync/v9/sync", _sync, host=HOST)
    server.route("POST", r"/api/v1/sync", _sync, host=HOST)
    server.route("POST", r"/sync/v9/quick/add", _quick, host=HOST)
    server.route("POST", r"/api/v1/tasks/quick", _quick, host=HOST)


__all__ = ["HOST", "TOKENS", "install"]
