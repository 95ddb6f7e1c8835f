"""Todoist node version 1 (n8n's ``TodoistV1``) against the fake Todoist API: label ids become label names,
``move`` sends one Sync v9 ``item_move`` with the section only (the n8n oracle gave no run for a V1 move, so
no recording shows it), other resources output nothing. Recorded cases s671-s673 hold the rest."""

from __future__ import annotations

from tests.library.fakes import service_fixture
from tests.library.todoist.test_todoist_node import WORK, _run

from weft.testing.saas import FakeSaasServer

saas = service_fixture("todoist")


async def test_v1_create_looks_up_label_names_and_parses_the_priority(saas: FakeSaasServer) -> None:
    options = {"priority": "3.7", "dueDateTime": "2025-03-04T05:06:07.000Z", "parentId": "2995104339"}
    params = {"resource": "task", "project": WORK, "content": "Write", "labels": ["2156154811"], "options": options}
    items, error = await _run(params, 1)
    assert error is None and items[0]["content"] == "Write"
    assert [(r.method, r.path) for r in saas.requests[-2:]] == [("GET", "/rest/v2/labels/2156154811"),
                                                                ("POST", "/rest/v2/tasks")]  # fmt: skip
    assert saas.requests[-1].body == {"content": "Write", "project_id": "2203306142", "priority": 3,
                                      "due_datetime": "2025-03-04T05:06:07Z", "labels": ["home"],
                                      "parent_id": "2995104339"}  # fmt: skip


async def test_v1_move_sends_the_section_only(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "task", "operation": "move", "taskId": "2995104339", "section": "7026"}, 1)
    assert error is None and items == [{"success": True}]
    sent = saas.requests[-1]
    assert sent.path == "/sync/v9/sync"
    assert sent.body["commands"][0]["type"] == "item_move"
    assert sent.body["commands"][0]["args"] == {"id": "2995104339", "section_id": "7026"}


async def test_v1_get_all_asks_once_and_cuts_to_the_limit(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "task", "operation": "getAll", "limit": 4, "filters": {"lang": "en"}}, 1)
    assert error is None and len(items) == 4
    assert [(r.path, r.query.get("lang")) for r in saas.requests] == [("/rest/v2/tasks", "en")]


async def test_v1_runs_nothing_for_another_resource(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "project", "operation": "get"}, 1)
    assert error is None and items == []
    assert saas.requests == []
