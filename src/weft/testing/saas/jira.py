"""A fake Jira REST API (``/rest/api/2`` and ``/3``) on :data:`CLOUD_HOST` and :data:`SERVER_HOST`, as Jira
answers: Basic auth (Cloud: email + API token; Server: user + password) or a Bearer personal access token, Jira's
error bodies (``{"errorMessages": [...], "errors": {...}}``), searches by a small JQL subset paged by
``nextPageToken`` (``POST /search/jql``, Cloud) or ``startAt``/``total`` (``POST /search``, Server), at most
:data:`PAGE` issues a page here, and 429 with ``Retry-After`` for the issue ``WEFT-429``. Seeded data only; writes
answer as Jira does, built from the request, and change nothing, so every run answers the same."""

from __future__ import annotations

import base64
import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

CLOUD_HOST = "weft.atlassian.example"
SERVER_HOST = "jira.weft.example"
CLOUD_AUTH = ("ada@example.com", "jira-api-token-0001")
SERVER_AUTH = ("jira-admin", "jira-server-pass")
PAT = "jira-pat-token-0001"
PAGE = 3
_CREATED = "2024-04-{:02d}T09:00:00.000+0000"

PROJECT = {"id": "10000", "key": "WEFT", "name": "Weft", "projectTypeKey": "software"}
TYPES = [
    {"id": "10001", "name": "Task", "subtask": False, "description": "A task."},
    {"id": "10002", "name": "Bug", "subtask": False, "description": "A problem."},
    {"id": "10003", "name": "Sub-task", "subtask": True, "description": "Part of a task."},
]
STATUSES = {"todo": {"id": "10010", "name": "To Do"}, "progress": {"id": "3", "name": "In Progress"},
            "done": {"id": "10011", "name": "Done"}}  # fmt: skip
NAMES = {"summary": "Summary", "status": "Status", "issuetype": "Issue Type", "project": "Project",
         "priority": "Priority", "labels": "Labels", "assignee": "Assignee", "reporter": "Reporter",
         "created": "Created", "updated": "Updated", "description": "Description",
         "customfield_10020": "Sprint", "customfield_10016": "Story point estimate"}  # fmt: skip
USERS = {
    "5b10a2844c20165700ede21g": "Ada Lovelace",
    "5b10ac8d82e05b22cc7d4ef5": "Alan Turing",
}


def _user(account: str) -> dict[str, Any]:
    return {"accountId": account, "displayName": USERS[account], "active": True, "accountType": "atlassian",
            "timeZone": "Europe/Berlin"}  # fmt: skip


def _issue(
    host: str, number: int, summary: str, status: str, kind: int = 0, labels: tuple[str, ...] = ()
) -> dict[str, Any]:
    issue_id = str(10100 + number)
    fields: dict[str, Any] = {
        "summary": summary,
        "status": STATUSES[status],
        "issuetype": TYPES[kind],
        "project": PROJECT,
        "priority": {"id": "3", "name": "Medium"},
        "labels": list(labels),
        "assignee": _user("5b10a2844c20165700ede21g") if number % 2 else None,
        "reporter": _user("5b10ac8d82e05b22cc7d4ef5"),
        "created": _CREATED.format(number),
        "updated": _CREATED.format(number + 1),
        "description": f"Description of WEFT-{number}",
        "customfield_10016": float(number),
        "customfield_10020": None,
    }
    if number == 3:  # the one issue with an attachment (fields the other cases ask for leave it out)
        base = f"https://{host}/rest/api/2/attachment"
        fields["attachment"] = [{"self": f"{base}/10300", "id": "10300", "filename": "notes.txt", "size": 12,
                                 "mimeType": "text/plain", "content": f"{base}/content/10300"}]  # fmt: skip
    expand = "renderedFields,names,schema,transitions,changelog"
    self_url = f"https://{host}/rest/api/2/issue/{issue_id}"
    return {"expand": expand, "id": issue_id, "self": self_url, "key": f"WEFT-{number}", "fields": fields}


SEED = [
    (1, "Port the Jira node", "progress", 0, ("saas",)),
    (2, "Expressions lose precision", "todo", 1, ("bug",)),
    (3, "Record both versions", "done", 0, ()),
    (4, "Paging by token", "todo", 0, ("saas",)),
    (5, "Crash on empty input", "todo", 1, ("bug",)),
    (6, "Write the fake", "done", 2, ()),
    (7, "Docs for Jira", "todo", 0, ("docs",)),
]


def issues(host: str) -> list[dict[str, Any]]:
    return [_issue(host, *row) for row in SEED]


def _error(status: int, messages: list[str], errors: dict[str, str] | None = None) -> ApiReply:
    return json_error(status, {"errorMessages": messages, "errors": errors or {}})


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization", "")
    allowed = {f"Bearer {PAT}"}
    allowed |= {"Basic " + base64.b64encode(f"{u}:{p}".encode()).decode() for u, p in (CLOUD_AUTH, SERVER_AUTH)}
    denied = ApiReply(status=401, text="Client must be authenticated to access this resource.",
                      content_type="text/html;charset=UTF-8")  # fmt: skip
    require(given in allowed, denied)


def _fields(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _find(request: ApiRequest, key: str) -> dict[str, Any]:
    if key.upper() == "WEFT-429":
        limited = _error(429, ["Rate limit exceeded."])
        limited.headers["Retry-After"] = "5"
        require(False, limited)
    found = next((i for i in issues(request.host) if key in (i["key"], i["id"])), None)
    missing = _error(404, ["Issue does not exist or you do not have permission to see it."])
    require(found is not None, missing)
    return dict(found or {})


def myself(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_user("5b10a2844c20165700ede21g"))


def issue_types(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=TYPES)


def _shaped(issue: dict[str, Any], fields: str | list[str] | None, expand: str) -> dict[str, Any]:
    wanted = fields.split(",") if isinstance(fields, str) else fields
    if wanted and "*all" not in wanted and "*navigable" not in wanted:
        issue["fields"] = {k: v for k, v in issue["fields"].items() if k in wanted}
    if "names" in expand:
        issue["names"] = {k: NAMES[k] for k in issue["fields"]}
    if "renderedfields" in expand.lower():
        issue["renderedFields"] = {"description": f"<p>{issue['fields'].get('description')}</p>", "labels": None}
    return issue


def get_issue(request: ApiRequest) -> ApiReply:
    _authorized(request)
    issue = _find(request, request.params["key"])
    return ApiReply(body=_shaped(issue, request.query.get("fields"), request.query.get("expand") or ""))


def create_issue(request: ApiRequest) -> ApiReply:
    _authorized(request)
    fields = _fields(request).get("fields") or {}
    require(bool(fields.get("summary")), _error(400, [], {"summary": "You must specify a summary of the issue."}))
    project = (fields.get("project") or {}).get("id")
    require(project == PROJECT["id"], _error(400, [], {"project": "valid project is required"}))
    kind = (fields.get("issuetype") or {}).get("id")
    require(any(t["id"] == kind for t in TYPES), _error(400, [], {"issuetype": "valid issue type is required"}))
    if "priority" in fields and kind == "10002":
        message = "Field 'priority' cannot be set. It is not on the appropriate screen, or unknown."
        require(False, _error(400, [], {"priority": message}))
    return ApiReply(
        status=201, body={"id": "10108", "key": "WEFT-8", "self": f"https://{request.host}/rest/api/2/issue/10108"}
    )


def update_issue(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, request.params["key"])
    fields = _fields(request).get("fields")
    require(isinstance(fields, dict), _error(400, ["Can not deserialize the request."]))
    assert isinstance(fields, dict)
    require(fields.get("summary", "x") != "", _error(400, [], {"summary": "You must specify a summary of the issue."}))
    return ApiReply(status=204)


def delete_issue(request: ApiRequest) -> ApiReply:
    _authorized(request)
    issue = _find(request, request.params["key"])
    if issue["key"] == "WEFT-1" and request.query.get("deleteSubtasks") != "true":
        require(False, _error(400, ["The issue has subtasks. Set deleteSubtasks to delete them too."]))
    return ApiReply(status=204)


def _jql(request: ApiRequest, jql: str) -> list[dict[str, Any]]:
    found = issues(request.host)
    for clause in re.split(r"\s+AND\s+", jql.strip(), flags=re.IGNORECASE):
        match = re.fullmatch(r'(\w+)\s*(=|!=|>=|~)\s*"?([^"]*)"?', clause.strip())
        require(match is not None, _error(400, [f"Error in the JQL Query: Expecting a field at '{clause}'."]))
        assert match is not None
        name, op, value = match.groups()
        if name == "created" and op == ">=":
            continue
        if name == "order":
            continue

        found = [i for i in found if _matches(_jql_value(i, name.lower()), op, value, name.lower() == "labels")]
    return found


def _jql_value(issue: dict[str, Any], name: str) -> str:
    fields = issue["fields"]
    values = {"project": fields["project"]["key"], "status": fields["status"]["name"], "key": issue["key"],
              "labels": ",".join(fields["labels"]), "issuetype": fields["issuetype"]["name"],
              "summary": fields["summary"]}  # fmt: skip
    return str(values.get(name, ""))


def _matches(have: str, op: str, value: str, is_list: bool) -> bool:
    if op == "~":
        return value.lower() in have.lower()
    found = value in have.split(",") if is_list else have.lower() == value.lower()
    return found == (op == "=")


def search(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _fields(request)
    found = _jql(request, str(body.get("jql") or ""))
    size = min(int(body.get("maxResults") or 50), PAGE)
    expand = body.get("expand") or ""
    expand = ",".join(expand) if isinstance(expand, list) else str(expand)
    shaped = [_shaped(i, body.get("fields"), expand) for i in found]
    if request.path.endswith("/jql"):
        start = int(str(body.get("nextPageToken") or "page-0").removeprefix("page-"))
        page: dict[str, Any] = {"issues": shaped[start : start + size], "isLast": start + size >= len(found)}
        if start + size < len(found):
            page["nextPageToken"] = f"page-{start + size}"
        return ApiReply(body=page)
    start = int(body.get("startAt") or 0)
    page = {"expand": "names,schema", "startAt": start, "maxResults": size, "total": len(found)}
    return ApiReply(body={**page, "issues": shaped[start : start + size]})


def _change(n: int) -> dict[str, Any]:
    item = {"field": "status", "fieldtype": "jira", "fromString": f"Step {n}", "toString": f"Step {n + 1}"}
    author = _user("5b10ac8d82e05b22cc7d4ef5")
    return {"id": str(20000 + n), "author": author, "created": _CREATED.format(n + 1), "items": [item]}


def changelog(request: ApiRequest) -> ApiReply:
    _authorized(request)
    issue = _find(request, request.params["key"])
    values = [_change(n) for n in range(1, 6)] if issue["key"] == "WEFT-1" else []
    start = int(request.query.get("startAt") or 0)
    size = min(int(request.query.get("maxResults") or 100), PAGE)
    chunk = values[start : start + size]
    return ApiReply(body={"self": request.path, "maxResults": size, "startAt": start, "total": len(values),
                          "isLast": start + size >= len(values), "values": chunk})  # fmt: skip


TRANSITIONS = [{"id": "11", "name": "To Do", "to": STATUSES["todo"], "hasScreen": False},
               {"id": "21", "name": "In Progress", "to": STATUSES["progress"], "hasScreen": False},
               {"id": "31", "name": "Done", "to": STATUSES["done"], "hasScreen": False}]  # fmt: skip


def transitions(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, request.params["key"])
    if request.method == "POST":
        wanted = (_fields(request).get("transition") or {}).get("id")
        require(
            any(t["id"] == wanted for t in TRANSITIONS), _error(400, ["Transition id 'x' is not valid for this issue."])
        )
        return ApiReply(status=204)
    found = TRANSITIONS
    if request.query.get("transitionId"):
        found = [t for t in found if t["id"] == request.query["transitionId"]]
    return ApiReply(body={"expand": "transitions", "transitions": found})


def notify(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, request.params["key"])
    body = _fields(request)
    require(bool(body.get("textBody") or body.get("htmlBody")), _error(400, ["The notification body is empty."]))
    return ApiReply(status=204)


def _comment(request: ApiRequest, number: int, text: Any, issue_id: str) -> dict[str, Any]:
    v3 = request.params.get("api") == "3"
    body = text
    if v3 and isinstance(text, str):
        body = {
            "type": "doc",
            "version": 1,
            "content": [{"type": "paragraph", "content": [{"type": "text", "text": text}]}],
        }
    return {"self": f"https://{request.host}/rest/api/{request.params.get('api')}/issue/{issue_id}/comment/{number}",
            "id": str(number), "author": _user("5b10a2844c20165700ede21g"), "body": body,
            "created": _CREATED.format(number % 28 + 1), "updated": _CREATED.format(number % 28 + 1),
            "jsdPublic": True}  # fmt: skip


def comments(request: ApiRequest) -> ApiReply:
    _authorized(request)
    issue = _find(request, request.params["key"])
    if request.method == "POST":
        body = _fields(request).get("body")
        require(bool(body), _error(400, [], {"comment": "Comment body can not be empty!"}))
        return ApiReply(status=201, body=_comment(request, 10050, body, issue["id"]))
    texts = ["First look", "Reproduced", "Fixed on main", "Released", "Thanks"] if issue["key"] == "WEFT-2" else []
    rows = [_comment(request, 10040 + n, t, issue["id"]) for n, t in enumerate(texts)]
    start = int(request.query.get("startAt") or 0)
    size = min(int(request.query.get("maxResults") or 100), PAGE)
    return ApiReply(
        body={"startAt": start, "maxResults": size, "total": len(rows), "comments": rows[start : start + size]}
    )


def comment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    issue = _find(request, request.params["key"])
    require(request.params["id"] in [str(10040 + n) for n in range(5)] + ["10050"],
            _error(404, ["Can not find a comment for the id: " + request.params["id"] + "."]))  # fmt: skip
    if request.method == "DELETE":
        return ApiReply(status=204)
    text = _fields(request).get("body") if request.method == "PUT" else "First look"
    return ApiReply(body=_comment(request, int(request.params["id"]), text, issue["id"]))


def _attachment(request: ApiRequest, number: int, name: str, size: int) -> dict[str, Any]:
    base = f"https://{request.host}/rest/api/{request.params.get('api') or '2'}/attachment"
    found: dict[str, Any] = {"self": f"{base}/{number}", "id": str(number), "filename": name}
    found["created"] = _CREATED.format(3)
    found.update(size=size, mimeType="text/plain", content=f"{base}/content/{number}")
    return {**found, "author": _user("5b10a2844c20165700ede21g")}


def attachment(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(
        request.params["id"] == "10300",
        _error(404, ["The attachment with id '" + request.params["id"] + "' does not exist"]),
    )
    return (
        ApiReply(status=204)
        if request.method == "DELETE"
        else ApiReply(body=_attachment(request, 10300, "notes.txt", 12))
    )


def attachment_content(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["id"] == "10300", _error(404, ["Attachment not found"]))
    return ApiReply(data=b"Jira notes.\n", content_type="text/plain")


def upload(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request, request.params["key"])
    require(request.headers.get("x-atlassian-token") == "no-check", _error(403, ["XSRF check failed"]))
    match = re.search(rb'filename="([^"]*)"\r\nContent-Type: [^\r]*\r\n\r\n(.*)\r\n--', request.raw_body, re.S)
    require(match is not None, _error(400, ["No file was uploaded."]))
    assert match is not None
    return ApiReply(body=[_attachment(request, 10301, match.group(1).decode(), len(match.group(2)))])


def users(request: ApiRequest) -> ApiReply:
    _authorized(request)
    if request.method == "POST":
        body = _fields(request)
        require(bool(body.get("emailAddress")), _error(400, [], {"emailAddress": "You must specify an email address."}))
        return ApiReply(status=201, body={"accountId": "5b10ac8d82e05b22cc7d4e99", "emailAddress": body["emailAddress"],
                                          "displayName": body.get("displayName"), "active": True})  # fmt: skip
    account = request.query.get("accountId") or ""
    require(account in USERS, _error(404, [f"User with accountId '{account}' does not exist"]))
    return ApiReply(status=204) if request.method == "DELETE" else ApiReply(body=_user(account))


def install(server: FakeApiServer) -> None:
    api, any_api = "/rest/api/2", r"/rest/api/(?P<api>[23])"
    routes = [
        ("GET", api + "/myself", myself),
        ("GET", api + "/issuetype", issue_types),
        ("POST", api + "/issue", create_issue),
        ("GET", api + r"/issue/(?P<key>[^/]+)", get_issue),
        ("PUT", api + r"/issue/(?P<key>[^/]+)", update_issue),
        ("DELETE", api + r"/issue/(?P<key>[^/]+)", delete_issue),
        ("POST", api + r"/search(/jql)?", search),
        ("GET", api + r"/issue/(?P<key>[^/]+)/changelog", changelog),
        ("*", api + r"/issue/(?P<key>[^/]+)/transitions", transitions),
        ("POST", api + r"/issue/(?P<key>[^/]+)/notify", notify),
        ("*", any_api + r"/issue/(?P<key>[^/]+)/comment", comments),
        ("*", any_api + r"/issue/(?P<key>[^/]+)/comment/(?P<id>[^/]+)", comment),
        ("*", any_api + r"/attachment/(?P<id>[^/]+)", attachment),
        ("GET", any_api + r"/attachment/content/(?P<id>[^/]+)", attachment_content),
        ("POST", any_api + r"/issue/(?P<key>[^/]+)/attachments", upload),
        ("*", any_api + r"/user", users),
    ]
    for host in (CLOUD_HOST, SERVER_HOST):
        for method, pattern, handler in routes:
            server.route(method, pattern, handler, host=host)


__all__ = ["CLOUD_AUTH", "CLOUD_HOST", "PAT", "SERVER_AUTH", "SERVER_HOST", "install"]
