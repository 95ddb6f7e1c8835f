"""The editor in a real browser (Debian's Chromium through Selenium): sign in, import n8n exports, see them on the
Vue Flow canvas with n8n's conventions, run them, see per-node statuses, the executions list, editing and saving.
Every test fails on any browser console error (a CSP violation, a failed request, a script error). The run takes
the screenshots ``docs/editor-canvas.png`` and ``docs/editor-list.png``.
"""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser

skip_without_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from tests.editor._pages import (  # noqa: E402
    canvas_nodes,
    edges,
    node,
    open_workflow,
    paste_import,
    row,
    sign_in,
    sign_in_with_form,
    status,
)
from tests.server.conftest import (  # noqa: E402
    EXAMPLES,
    LiveServer,
    example_workflow,
    free_port,
    serve_in_thread,
    unique_path,
    wait_for,
)

from weft.settings import Settings  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def browser(downloads: Path) -> Iterator[Any]:
    yield from chromium(str(downloads))


def agent_export() -> dict[str, Any]:
    """``examples/agent_demo.json`` as n8n exports it: node ids, sticky notes, meta, tags, unknown fields."""
    data: dict[str, Any] = json.loads((EXAMPLES / "agent_demo.json").read_text())
    data["name"] = f"Agent with notes {uuid.uuid4().hex[:6]}"
    for i, n in enumerate(data["nodes"]):
        n["id"] = f"0000000{i}-aaaa-4bbb-8ccc-dddddddddddd"
    data["nodes"] += [
        {
            "parameters": {"content": "## The agent\nIt asks the demo model.", "height": 180, "width": 320},
            "id": "sticky-1",
            "name": "Sticky Note",
            "type": "n8n-nodes-base.stickyNote",
            "typeVersion": 1,
            "position": [-80, -240],
        },
        {
            "parameters": {"content": "Tools go below", "color": 5},
            "id": "sticky-2",
            "name": "Sticky Note1",
            "type": "n8n-nodes-base.stickyNote",
            "typeVersion": 1,
            "position": [760, 180],
        },
    ]
    data["meta"] = {"templateCredsSetupCompleted": True, "instanceId": "abc123"}
    data["tags"] = []
    data["staticData"] = None
    data["x-unknown"] = {"kept": [1, 2, 3]}
    data["nodes"][1]["notesInFlow"] = True
    data["nodes"][1]["notes"] = "asks the question"
    return data


def test_an_agent_with_sticky_notes_is_drawn_n8n_style_and_runs(live: LiveServer, browser: Any) -> None:
    sign_in(browser, live)
    workflow = agent_export()
    paste_import(browser, workflow)
    open_workflow(browser, workflow["name"], node_count=8)
    agent, model = node(browser, "AI Agent").rect, node(browser, "Demo Chat Model").rect
    assert model["y"] > agent["y"] + agent["height"]  # the sub-node hangs below the agent
    notes = browser.find_elements(By.CSS_SELECTOR, ".sticky-note")
    assert sorted(n.text for n in notes) == ["## The agent\nIt asks the demo model.", "Tools go below"]
    big = next(n for n in notes if n.text.startswith("## The agent"))
    zoom = agent["width"] / 240  # the canvas is zoomed to fit; the agent is 240 px wide at zoom 1
    assert abs(big.rect["width"] / big.rect["height"] - 320 / 180) < 0.05 and big.rect["width"] == pytest.approx(
        320 * zoom, rel=0.05
    )
    ai_edges = browser.find_elements(By.CSS_SELECTOR, ".vue-flow__edge.edge-ai path.vue-flow__edge-path")
    assert len(ai_edges) == 3 and len(edges(browser)) == 5
    assert {e.value_of_css_property("stroke-dasharray") for e in ai_edges} == {"6px, 4px"}
    browser.find_element(By.ID, "executions").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".executions .empty"))
    browser.find_element(By.ID, "run").click()
    # the statuses show live while it runs (tests/editor/test_push.py): wait for the end of the run
    wait_for(lambda: [m for m in browser.find_elements(By.ID, "message") if m.text.endswith(": success")], timeout=20)
    listed = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".execution-row"))  # the panel lists the run
    assert [r.find_element(By.CSS_SELECTOR, ".execution-mode").text for r in listed] == ["manual"]
    statuses = {name: status(browser, name) for name in ("Manual Trigger", "Question", "AI Agent", "Calculator")}
    assert statuses == {"Manual Trigger": "1 item", "Question": "1 item", "AI Agent": "1 item", "Calculator": "1 item"}
    assert status(browser, "Demo Chat Model") == "2 items"  # asked twice: the tool call, then the answer
    assert node(browser, "AI Agent").find_element(By.CSS_SELECTOR, ".canvas-node.status-success")
    labels = [e.text for e in node(browser, "AI Agent").find_elements(By.CSS_SELECTOR, ".ai-label")]
    assert labels == ["Model", "Memory", "Tool", "Parser"]  # n8n's order of the agent's inputs
    browser.find_element(By.ID, "fit").click()
    browser.save_screenshot(str(DOCS / "editor-canvas.png"))
    assert console_errors(browser) == []


def test_webhook_set_respond_imported_activated_called_and_its_execution_opened(
    live: LiveServer, browser: Any, tmp_path: Path
) -> None:
    sign_in(browser, live)
    path = unique_path("editor")
    workflow = example_workflow("webhook_set_respond.json", path)
    workflow["name"] = f"Webhook respond {path}"
    file = tmp_path / "export.json"
    file.write_text(json.dumps(workflow))
    browser.find_element(By.ID, "import-file").send_keys(str(file))
    found = wait_for(lambda: row(browser, workflow["name"]))
    found.find_element(By.CSS_SELECTOR, ".active-toggle").click()
    wait_for(lambda: "Active" in (row(browser, workflow["name"]) or found).text.split())
    answer = httpx.post(f"{live.url}/webhook/{path}", json={"a": 2, "b": 3, "name": "ada", "tags": [1]}, timeout=10)
    assert answer.status_code == 200 and answer.json()["total"] == 5
    browser.save_screenshot(str(DOCS / "editor-list.png"))
    open_workflow(browser, workflow["name"], node_count=3)
    browser.find_element(By.ID, "executions").click()
    execution = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".execution-row"))[0]
    assert execution.find_element(By.CSS_SELECTOR, ".execution-status").text == "success"
    assert execution.find_element(By.CSS_SELECTOR, ".execution-duration").text.endswith(("ms", "s"))
    execution.find_element(By.TAG_NAME, "a").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".read-only") and status(browser, "Webhook"))
    assert [status(browser, n["name"]) for n in workflow["nodes"]] == ["1 item"] * 3
    assert not browser.find_elements(By.ID, "save")  # read-only: no editing
    assert console_errors(browser) == []


def test_executing_a_webhook_workflow_listens_and_shows_the_test_call(live: LiveServer, browser: Any) -> None:
    path = unique_path("editor-test")
    workflow = example_workflow("webhook_set_respond.json", path)
    workflow["name"] = f"Listening {path}"
    live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    open_workflow(browser, workflow["name"], node_count=3)
    browser.find_element(By.ID, "run").click()
    message = wait_for(lambda: browser.find_elements(By.ID, "message"))[0]
    wait_for(lambda: "Waiting for a test call" in message.text)
    url = message.text.split(": ", 1)[1]
    assert url == f"{live.settings.public_url.rstrip('/')}/webhook-test/{path}"
    answer = httpx.post(url, json={"a": 1, "b": 1, "name": "bo", "tags": []}, timeout=10)
    assert answer.status_code == 200 and answer.json()["greeting"] == "Hello BO"
    wait_for(lambda: status(browser, "Respond to Webhook"), timeout=15)
    assert [status(browser, n["name"]) for n in workflow["nodes"]] == ["1 item"] * 3
    assert console_errors(browser) == []


def _stored(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    return live.instance.store.workflows.export_workflow(workflow_id)


def _drag(browser: Any, name: str, dx: int, dy: int) -> None:
    box = node(browser, name).find_element(By.CSS_SELECTOR, ".node-box")
    ActionChains(browser).click_and_hold(box).move_by_offset(dx // 2, dy // 2).move_by_offset(
        dx - dx // 2, dy - dy // 2
    ).release().perform()


def test_open_drag_and_save_keeps_every_other_field_of_the_export(live: LiveServer, browser: Any) -> None:
    workflow = agent_export()
    workflow_id = live.import_workflow(workflow, activate=False)
    before = _stored(live, workflow_id)
    sign_in(browser, live)
    open_workflow(browser, workflow["name"], node_count=8)
    browser.find_element(By.ID, "save").click()  # an unedited save changes nothing
    wait_for(lambda: browser.find_elements(By.ID, "message"))
    assert _stored(live, workflow_id) == before
    _drag(browser, "Question", 120, 80)
    wait_for(lambda: browser.find_element(By.ID, "save").text == "Save*")
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: _stored(live, workflow_id) != before)
    after = _stored(live, workflow_id)
    moved = next(n for n in after["nodes"] if n["name"] == "Question")
    old = next(n for n in before["nodes"] if n["name"] == "Question")
    assert moved["position"][0] > old["position"][0] + 40 and moved["position"][1] > old["position"][1] + 20
    expected = copy.deepcopy(before)
    next(n for n in expected["nodes"] if n["name"] == "Question")["position"] = moved["position"]
    assert json.dumps(after, sort_keys=True) == json.dumps(expected, sort_keys=True)
    browser.find_element(By.ID, "undo").click()
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: _stored(live, workflow_id) == before)  # undone: the export as it was imported
    assert console_errors(browser) == []


def _drag_to(browser: Any, source: Any, target: Any) -> None:
    """Press on ``source``, move in steps (Vue Flow follows the pointer's moves) and release on ``target``."""
    actions = ActionChains(browser, duration=50).click_and_hold(source).move_by_offset(20, 5)
    actions.move_to_element_with_offset(target, -10, 0).move_to_element(target).pause(0.1).release().perform()


def _connections(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    connections: dict[str, Any] = _stored(live, workflow_id)["connections"]
    return connections


def test_disconnect_connect_delete_undo_redo(live: LiveServer, browser: Any) -> None:
    workflow = agent_export()
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    open_workflow(browser, workflow["name"], node_count=8)
    main = next(e for e in edges(browser) if json.loads(e.get_attribute("data-id") or "[]")[:1] == ["Question"])
    ActionChains(browser).move_to_element(main).click().perform()
    ActionChains(browser).send_keys(Keys.DELETE).perform()
    wait_for(lambda: len(edges(browser)) == 4)
    source = node(browser, "Question").find_element(By.CSS_SELECTOR, ".vue-flow__handle.source")
    target = node(browser, "AI Agent").find_element(By.CSS_SELECTOR, ".vue-flow__handle.target.handle-main")
    _drag_to(browser, source, target)
    wait_for(lambda: len(edges(browser)) == 5)
    ActionChains(browser).move_to_element(node(browser, "Think")).click().perform()
    browser.find_element(By.ID, "delete-selected").click()
    wait_for(lambda: len(canvas_nodes(browser)) == 7 and len(edges(browser)) == 4)
    browser.find_element(By.ID, "undo").click()
    wait_for(lambda: len(canvas_nodes(browser)) == 8)
    browser.find_element(By.ID, "redo").click()
    wait_for(lambda: len(canvas_nodes(browser)) == 7)
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: "Think" not in _connections(live, workflow_id))
    connections = _connections(live, workflow_id)
    assert connections["Question"] == {"main": [[{"node": "AI Agent", "type": "main", "index": 0}]]}
    assert [n["name"] for n in _stored(live, workflow_id)["nodes"]].count("Think") == 0
    assert console_errors(browser) == []


def test_list_search_rename_duplicate_export_delete(live: LiveServer, browser: Any, downloads: Path) -> None:
    workflow = agent_export()
    live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    browser.find_element(By.ID, "search").send_keys(workflow["name"][-6:])
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".workflow-row")) == 1)
    found = row(browser, workflow["name"])
    assert found is not None
    found.find_element(By.CSS_SELECTOR, ".export-button").click()
    exported = wait_for(lambda: list(downloads.glob("*.json")))
    data = json.loads(exported[0].read_text())
    assert data["nodes"] == workflow["nodes"] and data["x-unknown"] == {"kept": [1, 2, 3]}
    found.find_element(By.CSS_SELECTOR, ".duplicate-button").click()
    wait_for(lambda: row(browser, workflow["name"] + " copy"))
    found = row(browser, workflow["name"])
    assert found is not None
    found.find_element(By.CSS_SELECTOR, ".rename-button").click()
    box = found.find_element(By.CSS_SELECTOR, ".rename-input")
    box.clear()
    box.send_keys(workflow["name"] + " renamed", Keys.ENTER)
    copied = wait_for(lambda: row(browser, workflow["name"] + " copy"))
    copied.find_element(By.CSS_SELECTOR, ".delete-button").click()
    copied.find_element(By.CSS_SELECTOR, ".delete-button").click()  # "Confirm delete"
    wait_for(lambda: row(browser, workflow["name"] + " copy") is None and row(browser, workflow["name"] + " renamed"))
    names = [w["name"] for w in live.client.get("/rest/workflows").json()["data"]]
    assert workflow["name"] + " renamed" in names and workflow["name"] + " copy" not in names
    assert console_errors(browser) == []


def test_a_fresh_instance_offers_the_owner_set_up_then_signs_in(tmp_path: Path, browser: Any) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=tmp_path,
        database_url=f"sqlite:///{tmp_path}/weft.sqlite",
        encryption_key="test-key",
        port=port,
        public_url=url + "/",
    )
    server, thread = serve_in_thread(settings, port)
    try:
        browser.get(url + "/")
        heading = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".signin h1"))[0]
        assert heading.text == "Set up the owner account"
        browser.find_element(By.ID, "first-name").send_keys("Ada")
        browser.find_element(By.ID, "last-name").send_keys("Owner")
        browser.find_element(By.ID, "email").send_keys("ada@example.com")
        browser.find_element(By.ID, "password").send_keys("weak")
        browser.find_element(By.ID, "signin-submit").click()
        assert "Password" in wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".signin .error"))[0].text
        assert [e for e in console_errors(browser) if "owner/setup" not in e["message"]] == []  # the 400 itself
        browser.find_element(By.ID, "password").clear()
        browser.find_element(By.ID, "password").send_keys("Passw0rd-long")
        browser.find_element(By.ID, "signin-submit").click()
        wait_for(lambda: browser.find_elements(By.ID, "create"))
        browser.refresh()  # the session cookie keeps the browser signed in
        wait_for(lambda: browser.find_elements(By.ID, "create"))
        browser.find_element(By.CSS_SELECTOR, ".sign-out").click()
        assert wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".signin h1"))[0].text == "Sign in"
        sign_in_with_form(browser, url, "ada@example.com", "Passw0rd-long")
        assert browser.find_element(By.CSS_SELECTOR, ".who").text == "ada@example.com"
        assert console_errors(browser) == []
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_api_docs_render_offline_under_their_csp(live: LiveServer, browser: Any) -> None:
    sign_in(browser, live)
    browser.get(f"{live.url}/docs")
    operations = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path"), timeout=20)
    assert "/rest/workflows" in {o.text.replace("\u200b", "") for o in operations}
    hosts = browser.execute_script("return performance.getEntriesByType('resource').map(r => new URL(r.name).host)")
    assert set(hosts) == {f"127.0.0.1:{live.settings.port}"}
    assert console_errors(browser) == []
