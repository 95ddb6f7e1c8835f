"""The fake Notion API's fixed seeded data (:mod:`.notion`): users, a "Tasks" database with every common property
type and five pages, a "Contacts" database, a workspace page with nested blocks, each database's one data source;
and the builders of Notion's read format (rich text, select options, pages, blocks) the writes reuse."""

from __future__ import annotations

import re
from typing import Any

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


def make_id(prefix: str, number: int) -> str:
    return f"{prefix}-0000-4000-8000-{number:012d}"


def _person(number: int, name: str, email: str) -> dict[str, Any]:
    return {"object": "user", "id": make_id("0e0e0e0e", number), "name": name, "avatar_url": None, "type": "person",
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
OPTIONS = {"Status": ["Todo", "Doing", "Done"], "Tags": ["bug", "feature", "docs"]}
_COLORS = ["default", "blue", "green", "red"]


def rich(text: str, link: str | None = None) -> dict[str, Any]:
    annotations = {"bold": False, "italic": False, "strikethrough": False, "underline": False, "code": False,
                   "color": "default"}  # fmt: skip
    return {"type": "text", "text": {"content": text, "link": {"url": link} if link else None},
            "annotations": annotations, "plain_text": text, "href": link}  # fmt: skip


def select_option(prop: str, name: str) -> dict[str, Any]:
    index = OPTIONS[prop].index(name) if name in OPTIONS[prop] else len(OPTIONS[prop])
    return {"id": f"{prop[:2].lower()}{index:02d}", "name": name, "color": _COLORS[index % len(_COLORS)]}


def _database(db_id: str, title: str, schema: dict[str, tuple[str, str]]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, (prop_id, kind) in schema.items():
        config: dict[str, Any] = {}
        if kind in ("select", "multi_select"):
            config = {"options": [select_option(name, option) for option in OPTIONS[name]]}
        elif kind == "number":
            config = {"format": "number"}
        elif kind == "relation":
            config = {"database_id": CONTACTS, "synced_property_name": "Tasks", "synced_property_id": "x%3Ay"}
        properties[name] = {"id": prop_id, "name": name, "type": kind, kind: config}
    return {"object": "database", "id": db_id, "cover": None, "icon": None, "created_time": TIME,
            "created_by": _BY, "last_edited_by": _BY, "last_edited_time": EDITED, "title": [rich(title)],
            "description": [], "is_inline": False, "properties": properties,
            "parent": {"type": "page_id", "page_id": HOME}, "url": f"https://www.notion.so/{db_id.replace('-', '')}",
            "archived": False, "in_trash": False}  # fmt: skip


DATABASES = {
    TASKS: _database(TASKS, "Tasks", SCHEMA),
    CONTACTS: _database(CONTACTS, "Contacts", {"Name": ("title", "title"), "Email": ("e%3Am", "email")}),
}
SOURCE_OF = {TASKS: TASKS_SOURCE, CONTACTS: CONTACTS_SOURCE}
DATABASE_OF = {source: database for database, source in SOURCE_OF.items()}


def _value(kind: str, raw: Any, prop: str) -> Any:
    """A property value in Notion's read format from a short seed value."""
    if kind in ("title", "rich_text"):
        return [rich(raw)] if raw else []
    if kind == "select":
        return select_option(prop, raw) if raw else None
    if kind == "multi_select":
        return [select_option(prop, name) for name in raw or []]
    if kind == "date":
        return {"start": raw, "end": None, "time_zone": None} if raw else None
    if kind == "relation":
        return [{"id": item} for item in raw or []]
    if kind == "people":
        return [next(u for u in USERS if u["id"] == item) for item in raw or []]
    if kind == "checkbox":
        return bool(raw)
    return raw


def page_url(title: str, page_id: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", title).strip("-")
    return f"https://www.notion.so/{slug + '-' if slug else ''}{page_id.replace('-', '')}"


def page_object(
    page_id: str, parent: dict[str, Any], values: dict[str, Any], schema: dict[str, tuple[str, str]]
) -> dict[str, Any]:
    properties = {}
    for name, (prop_id, kind) in schema.items():
        properties[name] = {"id": prop_id, "type": kind, kind: _value(kind, values.get(name), name)}
    title = str(values.get(next(n for n, (_, k) in schema.items() if k == "title")) or "")
    return {"object": "page", "id": page_id, "created_time": TIME, "last_edited_time": EDITED,
            "created_by": _BY, "last_edited_by": _BY, "cover": None, "icon": None, "parent": parent,
            "archived": False, "in_trash": False, "properties": properties, "url": page_url(title, page_id),
            "public_url": None}  # fmt: skip


def _task(number: int, **values: Any) -> dict[str, Any]:
    return page_object(make_id("9a9e0000", number), {"type": "database_id", "database_id": TASKS}, values, SCHEMA)


ADA, ALAN = USERS[0]["id"], USERS[1]["id"]
CONTACT = make_id("c0c0c0c0", 1)
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
TITLE_ONLY = {"title": ("title", "title")}
HOME_PAGE = page_object(HOME, {"type": "workspace", "workspace": True}, {"title": "Weft Home"}, TITLE_ONLY)
NOTES_PAGE = page_object(
    make_id("a1a1a1a1", 2), {"type": "page_id", "page_id": HOME}, {"title": "Meeting notes"}, TITLE_ONLY
)
PAGES = {page["id"]: page for page in [*TASK_PAGES, HOME_PAGE, NOTES_PAGE]}


def block_object(number: int, kind: str, text: str, parent: str, children: bool = False) -> dict[str, Any]:
    content: dict[str, Any] = {"text": [rich(text)], "color": "default"}
    if kind == "to_do":
        content["checked"] = number % 2 == 0
    if kind == "child_page":
        content = {"title": text}
    return {"object": "block", "id": make_id("b10cb10c", number), "parent": {"type": "page_id", "page_id": parent},
            "created_time": TIME, "last_edited_time": EDITED, "created_by": _BY, "last_edited_by": _BY,
            "has_children": children, "archived": False, "in_trash": False, "type": kind, kind: content}  # fmt: skip


TOGGLE = make_id("b10cb10c", 4)
BLOCKS: dict[str, list[dict[str, Any]]] = {
    HOME: [
        block_object(1, "heading_1", "Welcome", HOME),
        block_object(2, "paragraph", "Weft runs n8n workflows.", HOME),
        block_object(3, "to_do", "Read the docs", HOME),
        block_object(4, "toggle", "Details", HOME, children=True),
        block_object(5, "child_page", "Meeting notes", HOME),
    ],
    TOGGLE: [
        block_object(6, "paragraph", "Hidden detail", TOGGLE),
        block_object(7, "bulleted_list_item", "one more", TOGGLE),
    ],
}
