"""A fake Notion API (``https://api.notion.com/v1``), as Notion answers: Bearer auth and a ``Notion-Version``
header, its error bodies (``{"object": "error", "status": 404, "code": "object_not_found", "message": ...}``),
cursor pages (``start_cursor`` / ``next_cursor`` / ``has_more``, at most :data:`PAGE` results each), 429
``rate_limited`` with ``Retry-After`` for the page :data:`RATE_LIMITED`. Fixed seeded data: users, a "Tasks"
database with every common property type and five pages, a workspace page with nested blocks. It keeps no state:
a created or updated page is built from the request, so cases run in any order.

From ``Notion-Version`` 2025-09-03 on (the Notion node 3 sends 2026-03-11) it answers as Notion's API of data
sources does: each database holds one data source (``/v1/data_sources/{id}``, ``/v1/data_sources/{id}/query``),
a database lists its ``data_sources`` instead of properties, a database page's parent is its data source, search
finds pages and data sources, blocks carry ``rich_text``, pages go to the trash with ``in_trash``."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.notion.com"
TOKEN = "secret_fakeNotionIntegrationToken"
PAGE = 2
TIME = "2024-05-01T10:00:00.000Z"
EDITED = "2024-05-02T12:30:00.000Z"
TASKS = "d1b2c3d4-0000-4000-8000-00000000da7a"
CONTACTS = "d1b2c3d4-0000-4000-8000-00000000c0c7"
HOME = "a1a1a1a1-0000-4000-8000-00000000b0e1"
RATE_LIMITED = "a1a1a1a1-0000-4000-8000-000000000429"
BOT_ID = "b0b0b0b0-0000-4000-8000-000000000b07"
TASKS_SOURCE = "d5d5d5d5-0000-4000-8000-00000000da7a"
CONTACTS_SOURCE = "d5d5d5d5-0000-4000-8000-00000000c0c7"
#: The first ``Notion-Version`` of data sources.
DATA_SOURCE_VERSION = "2025-09-03"


def _uuid(prefix: str, number: int) -> str:
    return f"{prefix}-0000-4000-8000-{number:012d}"


def _person(number: int, name: str, email: str) -> dict[str, Any]:
    return {"object": "user", "id": _uuid("0e0e0e0e", number), "name": name, "avatar_url": None, "type": "person",
            "person": {"email": email}}  # fmt: skip


USERS = [
    _person(1, "Ada Lovelace", "ada@weft.example"),
    _person(2, "Alan Turing", "alan@weft.example"),
    _person(3, "Grace Hopper", "grace@weft.example"),
    {"object": "user", "id": BOT_ID, "name": "Weft Integration", "avatar_url": None, "type": "bot",
     "bot": {"owner": {"type": "workspace", "workspace": True}, "workspace_name": "Weft"}},
]  # fmt: skip
_BY = {"object": "user", "id": USERS[0]["id"]}
SCHEMA: dict[str, tuple[str, str]] = {  # name: (id, type)
    "Name": ("title", "title"),
    "Notes": ("n%3Ae", "rich_text"),
    "Points": ("p%7Bt", "number"),
    "Status": ("s%40t", "select"),
    "Tags": ("t%3Ag", "multi_select"),
    "Due Date": ("d%3Ad", "date"),
    "Done": ("d%3Ao", "checkbox"),
    "Link": ("l%3Ak", "url"),
    "Email": ("e%3Am", "email"),
    "Phone": ("p%3Ah", "phone_number"),
    "Related": ("r%3Al", "relation"),
    "Owner": ("o%3Aw", "people"),
}
_OPTIONS = {"Status": ["Todo", "Doing", "Done"], "Tags": ["bug", "feature", "docs"]}
_COLORS = ["default", "blue", "green", "red"]


def _rich(text: str, link: str | None = None) -> dict[str, Any]:
    annotations = {"bold": False, "italic": False, "strikethrough": False, "underline": False, "code": False,
                   "color": "default"}  # fmt: skip
    return {"type": "text", "text": {"content": text, "link": {"url": link} if link else None},
            "annotations": annotations, "plain_text": text, "href": link}  # fmt: skip


def _option(prop: str, name: str) -> dict[str, Any]:
    index = _OPTIONS[prop].index(name) if name in _OPTIONS[prop] else len(_OPTIONS[prop])
    return {"id": f"{prop[:2].lower()}{index:02d}", "name": name, "color": _COLORS[index % len(_COLORS)]}


def _database(db_id: str, title: str, schema: dict[str, tuple[str, str]]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, (prop_id, kind) in schema.items():
        config: dict[str, Any] = {}
        if kind in ("select", "multi_select"):
            config = {"options": [_option(name, option) for option in _OPTIONS[name]]}
        elif kind == "number":
            config = {"format": "number"}
        elif kind == "relation":
            config = {"database_id": CONTACTS, "synced_property_name": "Tasks", "synced_property_id": "x%3Ay"}
        properties[name] = {"id": prop_id, "name": name, "type": kind, kind: config}
    return {"object": "database", "id": db_id, "cover": None, "icon": None, "created_time": TIME,
            "created_by": _BY, "last_edited_by": _BY, "last_edited_time": EDITED, "title": [_rich(title)],
            "description": [], "is_inline": False, "properties": properties,
            "parent": {"type": "page_id", "page_id": HOME}, "url": f"https://www.notion.so/{db_id.replace('-', '')}",
            "archived": False, "in_trash": False}  # fmt: skip


DATABASES = {
    TASKS: _database(TASKS, "Tasks", SCHEMA),
    CONTACTS: _database(CONTACTS, "Contacts", {"Name": ("title", "title"), "Email": ("e%3Am", "email")}),
}


def _value(kind: str, raw: Any, prop: str) -> Any:
    """A property value in Notion's read format from a short seed value."""
    if kind in ("title", "rich_text"):
        return [_rich(raw)] if raw else []
    if kind == "select":
        return _option(prop, raw) if raw else None
    if kind == "multi_select":
        return [_option(prop, name) for name in raw or []]
    if kind == "date":
        return {"start": raw, "end": None, "time_zone": None} if raw else None
    if kind == "relation":
        return [{"id": item} for item in raw or []]
    if kind == "people":
        return [next(u for u in USERS if u["id"] == item) for item in raw or []]
    if kind == "checkbox":
        return bool(raw)
    return raw


def _page_url(title: str, page_id: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-")
    return f"https://www.notion.so/{slug + '-' if slug else ''}{page_id.replace('-', '')}"


def _page(
    page_id: str, parent: dict[str, Any], values: dict[str, Any], schema: dict[str, tuple[str, str]]
) -> dict[str, Any]:
    properties = {}
    for name, (prop_id, kind) in schema.items():
        properties[name] = {"id": prop_id, "type": kind, kind: _value(kind, values.get(name), name)}
    title = str(values.get(next(n for n, (_, k) in schema.items() if k == "title")) or "")
    return {"object": "page", "id": page_id, "created_time": TIME, "last_edited_time": EDITED,
            "created_by": _BY, "last_edited_by": _BY, "cover": None, "icon": None, "parent": parent,
            "archived": False, "in_trash": False, "properties": properties, "url": _page_url(title, page_id),
            "public_url": None}  # fmt: skip


def _task(number: int, **values: Any) -> dict[str, Any]:
    return _page(_uuid("9a9e0000", number), {"type": "database_id", "database_id": TASKS}, values, SCHEMA)


ADA, ALAN = USERS[0]["id"], USERS[1]["id"]
CONTACT = _uuid("c0c0c0c0", 1)
TASK_PAGES = [
    _task(1, Name="Write docs", Notes="First draft", Points=3, Status="Doing", Tags=["docs"],
          **{"Due Date": "2024-05-10"}, Done=False, Link="https://weft.example/docs", Email="ada@weft.example",
          Phone="+49 30 1234", Related=[CONTACT], Owner=[ADA]),
    _task(2, Name="Fix login bug", Notes="", Points=5, Status="Todo", Tags=["bug"], **{"Due Date": "2024-05-03"},
          Done=False, Owner=[ALAN]),
    _task(3, Name="Ship release", Notes="v1.4", Points=8, Status="Done", Tags=["feature", "docs"], Done=True,
          **{"Due Date": "2024-04-30"}, Owner=[ADA, ALAN]),
    _task(4, Name="Plan sprint", Notes="with the team", Points=2, Status="Todo", Tags=[], Done=False),
    _task(5, Name="Review PRs", Notes="daily", Points=1, Status="Doing", Tags=["feature"], Done=True, Owner=[ALAN]),
]  # fmt: skip
_TITLE_ONLY = {"title": ("title", "title")}
HOME_PAGE = _page(HOME, {"type": "workspace", "workspace": True}, {"title": "Weft Home"}, _TITLE_ONLY)
NOTES_PAGE = _page(_uuid("a1a1a1a1", 2), {"type": "page_id", "page_id": HOME}, {"title": "Meeting notes"}, _TITLE_ONLY)
PAGES = {page["id"]: page for page in [*TASK_PAGES, HOME_PAGE, NOTES_PAGE]}


def _block(number: int, kind: str, text: str, parent: str, children: bool = False) -> dict[str, Any]:
    content: dict[str, Any] = {"text": [_rich(text)], "color": "default"}
    if kind == "to_do":
        content["checked"] = number % 2 == 0
    if kind == "child_page":
        content = {"title": text}
    return {"object": "block", "id": _uuid("b10cb10c", number), "parent": {"type": "page_id", "page_id": parent},
            "created_time": TIME, "last_edited_time": EDITED, "created_by": _BY, "last_edited_by": _BY,
            "has_children": children, "archived": False, "in_trash": False, "type": kind, kind: content}  # fmt: skip


TOGGLE = _uuid("b10cb10c", 4)
BLOCKS: dict[str, list[dict[str, Any]]] = {
    HOME: [
        _block(1, "heading_1", "Welcome", HOME),
        _block(2, "paragraph", "Weft runs n8n workflows.", HOME),
        _block(3, "to_do", "Read the docs", HOME),
        _block(4, "toggle", "Details", HOME, children=True),
        _block(5, "child_page", "Meeting notes", HOME),
    ],
    TOGGLE: [_block(6, "paragraph", "Hidden detail", TOGGLE), _block(7, "bulleted_list_item", "one more", TOGGLE)],
}


def _read_text(given: dict[str, Any]) -> dict[str, Any]:
    """A rich text entry as Notion reads it back (plain text, annotations with their defaults)."""
    text = given.get("text") or {}
    entry = _rich(str(text.get("content", "")), (text.get("link") or {}).get("url"))
    if given.get("type") == "mention":
        mention = dict(given.get("mention") or {})
        kind = mention.get("type")
        user = next((u for u in USERS if u["id"] == (mention.get(kind) or {}).get("id")), None)
        if kind == "user" and user is not None:
            mention["user"] = {"object": "user", "id": user["id"]}
        label = f"@{user['name']}" if user else f"@{kind}"
        entry = {**entry, "type": "mention", "mention": mention, "plain_text": label}
        entry.pop("text")
    entry["annotations"] = {**entry["annotations"], **(given.get("annotations") or {})}
    return entry


def _error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    body = {"object": "error", "status": status, "code": code, "message": message}
    return json_error(status, body, **headers)


def _authorized(request: ApiRequest) -> None:
    token = request.headers.get("authorization", "").strip()
    require(token == f"Bearer {TOKEN}", _error(401, "unauthorized", "API token is invalid."))
    missing = (
        "Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`."
    )
    require(bool(request.headers.get("notion-version")), _error(400, "missing_version", missing))


def _not_found(kind: str, object_id: str) -> ApiReply:
    if object_id == RATE_LIMITED:
        return _error(429, "rate_limited", "You have been rate limited. Please try again in a few minutes.",
                      **{"Retry-After": "3"})  # fmt: skip
    message = (f"Could not find {kind} with ID: {object_id}. Make sure the relevant pages and databases are shared "
               "with your integration.")  # fmt: skip
    return _error(404, "object_not_found", message)


def _canonical(object_id: str) -> str:
    plain = object_id.replace("-", "").lower()
    if len(plain) == 32:
        return f"{plain[:8]}-{plain[8:12]}-{plain[12:16]}-{plain[16:20]}-{plain[20:]}"
    return object_id


def _list(results: list[dict[str, Any]], cursor: Any, size: Any, kind: str) -> dict[str, Any]:
    """One cursor page (the cursor is the first result's id)."""
    ids = [r["id"] for r in results]
    start = ids.index(cursor) if cursor in ids else 0
    page_size = min(int(size or 100), PAGE)
    page = results[start : start + page_size]
    more = start + page_size < len(results)
    return {"object": "list", "results": page, "next_cursor": ids[start + page_size] if more else None,
            "has_more": more, "type": kind, kind: {}}  # fmt: skip


def list_users(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_list(USERS, request.query.get("start_cursor"), request.query.get("page_size"), "user"))


def get_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    user_id = request.params["id"]
    if user_id == "me":
        return ApiReply(body=USERS[-1])
    found = next((u for u in USERS if u["id"] == _canonical(user_id)), None)
    return ApiReply(body=found) if found else _not_found("user", user_id)


def get_database(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = DATABASES.get(_canonical(request.params["id"]))
    if found is None:
        return _not_found("database", request.params["id"])
    return ApiReply(body=_database_with_sources(found) if _new_api(request) else found)


def _new_api(request: ApiRequest) -> bool:
    return request.headers.get("notion-version", "") >= DATA_SOURCE_VERSION


SOURCE_OF = {TASKS: TASKS_SOURCE, CONTACTS: CONTACTS_SOURCE}
DATABASE_OF = {source: database for database, source in SOURCE_OF.items()}


def _database_with_sources(database: dict[str, Any]) -> dict[str, Any]:
    """A database as the API of data sources reads it: its data sources listed, no properties."""
    out = {k: v for k, v in database.items() if k != "properties"}
    name = _title(database)
    return {**out, "data_sources": [{"id": SOURCE_OF[database["id"]], "name": name}], "is_locked": False,
            "public_url": None}  # fmt: skip


def data_source(database: dict[str, Any]) -> dict[str, Any]:
    """A database's data source (its properties, titled as the database)."""
    source = SOURCE_OF[database["id"]]
    keep = ("created_time", "last_edited_time", "created_by", "last_edited_by", "icon", "cover", "title",
            "description", "properties", "archived", "in_trash", "is_inline")  # fmt: skip
    return {"object": "data_source", "id": source, **{k: database[k] for k in keep},
            "parent": {"type": "database_id", "database_id": database["id"]}, "database_parent": database["parent"],
            "url": f"https://www.notion.so/{source.replace('-', '')}", "public_url": None}  # fmt: skip


def get_data_source(request: ApiRequest) -> ApiReply:
    _authorized(request)
    database = DATABASE_OF.get(_canonical(request.params["id"]))
    if database is None:
        return _not_found("data source", request.params["id"])
    return ApiReply(body=data_source(DATABASES[database]))


def query_data_source(request: ApiRequest) -> ApiReply:
    _authorized(request)
    database = DATABASE_OF.get(_canonical(request.params["id"]))
    if database is None:
        return _not_found("data source", request.params["id"])
    return _query(request, database)


def _versioned(request: ApiRequest, found: Any) -> Any:
    """What the request's ``Notion-Version`` reads: under data sources a database page's parent is its data
    source and a block's text is ``rich_text``."""
    if not _new_api(request):
        return found
    if isinstance(found, list):
        return [_versioned(request, entry) for entry in found]
    if not isinstance(found, dict):
        return found
    if found.get("object") == "list":
        return {**found, "results": _versioned(request, found["results"])}
    parent = found.get("parent") or {}
    if found.get("object") == "page" and parent.get("type") == "database_id":
        source = {"type": "data_source_id", "data_source_id": SOURCE_OF[parent["database_id"]]}
        return {**found, "parent": {**source, "database_id": parent["database_id"]}}
    if found.get("object") == "database":
        return data_source(found)
    kind = found.get("type")
    content = found.get(kind) if found.get("object") == "block" and isinstance(kind, str) else None
    if isinstance(content, dict) and "text" in content:
        content = {("rich_text" if k == "text" else k): v for k, v in content.items()}
        return {**found, str(kind): content}
    return found


def _body(request: ApiRequest) -> dict[str, Any]:
    require(request.body is None or isinstance(request.body, dict),
            _error(400, "invalid_json", "Error parsing JSON body."))  # fmt: skip
    return request.body or {}


def search(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    found: list[dict[str, Any]] = [*DATABASES.values(), *PAGES.values()]
    wanted = (body.get("filter") or {}).get("value") if isinstance(body.get("filter"), dict) else None
    kinds = ("page", "data_source") if _new_api(request) else ("page", "database")
    if wanted:
        require(wanted in kinds, _error(400, "validation_error", f"body failed validation: body.filter.value should "
                f'be `"{kinds[0]}"` or `"{kinds[1]}"`, instead was `{json.dumps(wanted)}`.'))  # fmt: skip
        found = [o for o in found if o["object"] == ("database" if wanted == "data_source" else wanted)]
    query = str(body.get("query") or "").lower()
    if query:
        found = [o for o in found if query in _title(o).lower()]
    sort = body.get("sort") or {}
    reverse = sort.get("direction") != "ascending"
    found.sort(key=lambda o: (o["last_edited_time"], o["id"]), reverse=reverse)
    listed = _list(found, body.get("start_cursor"), body.get("page_size"), "page_or_database")
    return ApiReply(body=_versioned(request, listed))


def _title(obj: dict[str, Any]) -> str:
    if obj["object"] == "database":
        return "".join(t["plain_text"] for t in obj["title"])
    prop = next(p for p in obj["properties"].values() if p["type"] == "title")
    return "".join(t["plain_text"] for t in prop["title"])


def query_database(request: ApiRequest) -> ApiReply:
    _authorized(request)
    db_id = _canonical(request.params["id"])
    if db_id not in DATABASES:
        return _not_found("database", request.params["id"])
    return _query(request, db_id)


def _query(request: ApiRequest, db_id: str) -> ApiReply:
    body = _body(request)
    rows = [p for p in PAGES.values() if p["parent"].get("database_id") == db_id]
    if body.get("filter"):
        rows = [p for p in rows if _matches(p, body["filter"])]
    for sort in reversed(body.get("sorts") or []):
        name = sort.get("property")
        require(name is None or name in SCHEMA, _error(400, "validation_error",
                f"Could not find sort property with name or id: {name}"))  # fmt: skip
        key = str(sort.get("timestamp") or name)
        rows.sort(key=functools.partial(_sort_key, key=key), reverse=sort.get("direction") == "descending")
    listed = _list(rows, body.get("start_cursor"), body.get("page_size"), "page_or_database")
    return ApiReply(body=_versioned(request, listed))


def _plain(page: dict[str, Any], name: str) -> Any:
    prop = page["properties"][name]
    kind, value = prop["type"], prop[prop["type"]]
    if kind in ("title", "rich_text"):
        return "".join(t["plain_text"] for t in value)
    if kind == "select":
        return value["name"] if value else None
    if kind == "multi_select":
        return [o["name"] for o in value]
    if kind == "date":
        return value["start"] if value else None
    if kind in ("people", "relation"):
        return [o["id"] for o in value]
    return value


def _sort_key(page: dict[str, Any], key: str) -> Any:
    if key in ("created_time", "last_edited_time"):
        return (page[key], page["id"])
    value = _plain(page, key)
    return (value is None, value if not isinstance(value, list) else len(value), page["id"])


def _matches(page: dict[str, Any], spec: dict[str, Any]) -> bool:
    if "and" in spec:
        return all(_matches(page, s) for s in spec["and"])
    if "or" in spec:
        return any(_matches(page, s) for s in spec["or"])
    name = spec.get("property")
    require(name in SCHEMA, _error(400, "validation_error", f"Could not find property with name or id: {name}"))
    value = _plain(page, str(name))
    _kind, condition = next(((k, c) for k, c in spec.items() if k != "property" and isinstance(c, dict)), ("", {}))
    require(bool(condition), _error(400, "validation_error", "body failed validation: filter is invalid."))
    operator, operand = next(iter(condition.items()))
    return _compare(value, str(operator), operand)


def _compare(value: Any, operator: str, operand: Any) -> bool:
    if operator in ("is_empty", "is_not_empty"):
        empty = value in (None, "", [])
        return empty if operator == "is_empty" else not empty
    if isinstance(value, list):
        found = operand in value
        return found if operator == "contains" else not found
    if operator == "equals":
        return bool(value == operand)
    if operator == "does_not_equal":
        return bool(value != operand)
    if operator == "contains":
        return str(operand).lower() in str(value or "").lower()
    if operator == "does_not_contain":
        return str(operand).lower() not in str(value or "").lower()
    if operator == "starts_with":
        return str(value or "").startswith(str(operand))
    if value is None:
        return False
    compare = {"greater_than": value > operand, "less_than": value < operand,
               "greater_than_or_equal_to": value >= operand, "less_than_or_equal_to": value <= operand}  # fmt: skip
    if operator in compare:
        return bool(compare[operator])
    day = str(operand)[:10]
    dates = {"before": value < day, "after": value > day, "on_or_before": value <= day, "on_or_after": value >= day}
    return bool(dates.get(operator, False))


def get_page(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = PAGES.get(_canonical(request.params["id"]))
    return ApiReply(body=_versioned(request, found)) if found else _not_found("page", request.params["id"])


def _written(schema: dict[str, tuple[str, str]], properties: dict[str, Any]) -> dict[str, Any]:
    """The page properties a write sets, checked against the schema, in Notion's read format."""
    out: dict[str, Any] = {}
    for name, given in properties.items():
        require(name in schema, _error(400, "validation_error", f"{name} is not a property that exists."))
        prop_id, kind = schema[name]
        if isinstance(given, list) and kind == "title":  # the short form of a page's title
            given = {"title": given}
        require(isinstance(given, dict) and kind in given, _error(400, "validation_error",
                f"{name} is expected to be {kind}."))  # fmt: skip
        value = given[kind]
        if kind in ("title", "rich_text"):
            value = [_read_text(t) for t in value]
        elif kind == "select":
            value = _select(name, value) if value else None
        elif kind == "multi_select":
            value = [_option(name, option.get("name")) for option in value]
        elif kind == "people":
            value = [
                next((u for u in USERS if u["id"] == p.get("id")), {"object": "user", "id": p.get("id")}) for p in value
            ]
        elif kind == "date" and value is not None:
            value = {"start": value.get("start"), "end": value.get("end"), "time_zone": None}
        out[name] = {"id": prop_id, "type": kind, kind: value}
    return out


def _select(prop: str, given: dict[str, Any]) -> dict[str, Any]:
    """A select option by name, or by id (an unknown id is Notion's validation error)."""
    if "id" not in given:
        return _option(prop, str(given.get("name")))
    found = next((_option(prop, n) for n in _OPTIONS[prop] if _option(prop, n)["id"] == given["id"]), None)
    require(found is not None, _error(400, "validation_error", f"Invalid select option id: {given['id']}."))
    assert found is not None
    return found


def create_page(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    parent = body.get("parent") or {}
    new_id = _uuid("9a9e0000", 900)
    if parent.get("data_source_id"):
        db_id = DATABASE_OF.get(_canonical(str(parent["data_source_id"])), "")
        if not db_id:
            return _not_found("data source", str(parent["data_source_id"]))
        parent = {"database_id": db_id}
    if parent.get("database_id"):
        db_id = _canonical(str(parent["database_id"]))
        if db_id not in DATABASES:
            return _not_found("database", str(parent["database_id"]))
        schema = {n: (p["id"], p["type"]) for n, p in DATABASES[db_id]["properties"].items()}
        page = _page(new_id, {"type": "database_id", "database_id": db_id}, {}, schema)
    else:
        page_id = _canonical(str(parent.get("page_id") or ""))
        if page_id not in PAGES:
            return _not_found("page", str(parent.get("page_id")))
        schema = _TITLE_ONLY
        page = _page(new_id, {"type": "page_id", "page_id": page_id}, {}, schema)
    page["properties"].update(_written(schema, body.get("properties") or {}))
    page["created_time"] = page["last_edited_time"] = "2024-06-01T09:00:00.000Z"
    page["url"] = _page_url(_title(page), new_id)
    if body.get("icon"):
        icon = body["icon"]
        page["icon"] = {"type": "emoji", **icon} if "emoji" in icon else {"type": "external", **icon}
    return ApiReply(body=_versioned(request, page))


def update_page(request: ApiRequest) -> ApiReply:
    _authorized(request)
    page_id = _canonical(request.params["id"])
    if page_id not in PAGES:
        return _not_found("page", request.params["id"])
    body = _body(request)
    page = {**PAGES[page_id], "properties": dict(PAGES[page_id]["properties"])}
    db_id = page["parent"].get("database_id")
    schema = {n: (p["id"], p["type"]) for n, p in DATABASES[db_id]["properties"].items()} if db_id else _TITLE_ONLY
    page["properties"].update(_written(schema, body.get("properties") or {}))
    for key in ("archived", "in_trash"):
        if key in body:
            page["archived"] = page["in_trash"] = bool(body[key])
    if body.get("icon"):
        page["icon"] = body["icon"]
    page["last_edited_time"] = "2024-06-02T09:00:00.000Z"
    return ApiReply(body=_versioned(request, page))


def block_children(request: ApiRequest) -> ApiReply:
    _authorized(request)
    block_id = _canonical(request.params["id"])
    if block_id not in BLOCKS and block_id not in PAGES:
        return _not_found("block", request.params["id"])
    children = BLOCKS.get(block_id, [])
    listed = _list(children, request.query.get("start_cursor"), request.query.get("page_size"), "block")
    return ApiReply(body=_versioned(request, listed))


def append_children(request: ApiRequest) -> ApiReply:
    _authorized(request)
    block_id = _canonical(request.params["id"])
    if block_id not in BLOCKS and block_id not in PAGES:
        return _not_found("block", request.params["id"])
    children = _body(request).get("children")
    missing = "body failed validation: body.children should be defined, instead was `undefined`."
    require(isinstance(children, list), _error(400, "validation_error", missing))
    assert isinstance(children, list)
    created = []
    for number, child in enumerate(children):
        kind = child.get("type")
        missing = f"body failed validation: body.children[{number}].{kind} should be defined, instead was `undefined`."
        require(kind in child, _error(400, "validation_error", missing))
        block = _block(800 + number, kind, "", block_id)
        content = dict(child[kind])
        for key in ("text", "rich_text"):
            if key in content:
                content[key] = [_read_text(t) for t in content[key]]
        block[kind] = {**content, "color": "default"} if kind != "image" else {**content, "caption": []}
        created.append(block)
    position = _body(request).get("position")
    if isinstance(position, dict) and position.get("type") == "after_block":
        after = _canonical(str((position.get("after_block") or {}).get("id")))
        known = [b["id"] for b in BLOCKS.get(block_id, [])]
        require(after in known, _not_found("block", str((position.get("after_block") or {}).get("id"))))
    return ApiReply(body={"object": "list", "results": created, "next_cursor": None, "has_more": False,
                          "type": "block", "block": {}})  # fmt: skip


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/v1/users", list_users, host=HOST)
    server.route("GET", r"/v1/users/(?P<id>[^/]+)", get_user, host=HOST)
    server.route("GET", r"/v1/databases/(?P<id>[^/]+)", get_database, host=HOST)
    server.route("POST", r"/v1/databases/(?P<id>[^/]+)/query", query_database, host=HOST)
    server.route("POST", r"/v1/search", search, host=HOST)
    server.route("GET", r"/v1/data_sources/(?P<id>[^/]+)", get_data_source, host=HOST)
    server.route("POST", r"/v1/data_sources/(?P<id>[^/]+)/query", query_data_source, host=HOST)
    server.route("POST", r"/v1/pages", create_page, host=HOST)
    server.route("GET", r"/v1/pages/(?P<id>[^/]+)", get_page, host=HOST)
    server.route("PATCH", r"/v1/pages/(?P<id>[^/]+)", update_page, host=HOST)
    server.route("GET", r"/v1/blocks/(?P<id>[^/]+)/children", block_children, host=HOST)
    server.route("PATCH", r"/v1/blocks/(?P<id>[^/]+)/children", append_children, host=HOST)


__all__ = ["HOST", "TOKEN", "install"]
