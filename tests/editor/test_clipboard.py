"""Copy, cut and paste of nodes on the canvas as n8n's clipboard JSON, in a real browser: Ctrl+C puts n8n's format
on the clipboard, pasting n8n JSON (an agent with its sub-nodes, from n8n or from Weft) adds the nodes with n8n's
unique names, the connections between them, new ids and webhookIds, renamed references and offset positions;
Ctrl+X cuts. One test presses the keys with the system clipboard (permission granted through CDP); the others fire
the browser's clipboard events (``ClipboardEvent`` with a ``DataTransfer``) to see exactly what the page puts on the
clipboard and takes from it. Every test fails on a browser console error."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser

skip_without_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from tests.editor._pages import canvas_nodes, edges, node, open_workflow, sign_in  # noqa: E402
from tests.server.conftest import EXAMPLES, LiveServer, wait_for  # noqa: E402


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


#: Fire a clipboard event as the browser does on Ctrl+C/X/V, with a DataTransfer standing for the clipboard; the
#: answer is what the page put on it.
CLIPBOARD_EVENT = """
const [kind, text] = arguments;
const data = new DataTransfer();
if (text !== null) data.setData('text/plain', text);
const event = new ClipboardEvent(kind, {clipboardData: data, bubbles: true, cancelable: true});
document.activeElement.dispatchEvent(event);
return [event.defaultPrevented, data.getData('text/plain')];
"""


def _agent(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "agent_demo.json").read_text())
    data["name"] = name
    data.pop("id", None)
    for i, n in enumerate(data["nodes"]):
        n["id"] = f"0000000{i}-aaaa-4bbb-8ccc-dddddddddddd"
    return data


def _open(live: LiveServer, browser: Any, workflow: dict[str, Any]) -> str:
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    browser.find_element(By.ID, "search").send_keys(workflow["name"])
    open_workflow(browser, workflow["name"], node_count=len(workflow["nodes"]))
    return workflow_id


def _select(browser: Any, names: list[str]) -> None:
    """Click the empty canvas (no selection), the first node, then Ctrl+click the others (Vue Flow's multi-selection
    key)."""
    pane = browser.find_element(By.CSS_SELECTOR, ".vue-flow__pane")
    ActionChains(browser).move_to_element_with_offset(pane, -pane.size["width"] // 2 + 8, 0).click().perform()
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, ".vue-flow__node.selected"))
    actions = ActionChains(browser).move_to_element(node(browser, names[0]).find_element(By.CSS_SELECTOR, ".node-box"))
    actions.click().key_down(Keys.CONTROL)
    for name in names[1:]:
        actions.move_to_element(node(browser, name).find_element(By.CSS_SELECTOR, ".node-box")).click()
    actions.key_up(Keys.CONTROL).perform()
    wait_for(lambda: len(browser.find_elements(By.CSS_SELECTOR, ".vue-flow__node.selected")) == len(names))


def _clipboard(browser: Any, kind: str, text: str | None = None) -> tuple[bool, str]:
    handled, data = browser.execute_script(CLIPBOARD_EVENT, kind, text)
    return bool(handled), str(data)


def _saved(live: LiveServer, browser: Any, workflow_id: str) -> dict[str, Any]:
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: browser.find_element(By.ID, "save").text == "Save")
    data: dict[str, Any] = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    return data


def _keys(browser: Any, key: str) -> None:
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(key).key_up(Keys.CONTROL).perform()


READ_CLIPBOARD = "const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('failed: ' + e));"
WRITE_CLIPBOARD = "const [text, done] = arguments; navigator.clipboard.writeText(text).then(() => done(true), done);"


def test_ctrl_c_x_v_copy_cut_and_paste_through_the_system_clipboard(live: LiveServer, browser: Any) -> None:
    workflow = _agent(f"Keys {uuid.uuid4().hex[:6]}")
    workflow_id = _open(live, browser, workflow)
    permissions = ["clipboardReadWrite", "clipboardSanitizedWrite"]
    browser.execute_cdp_cmd("Browser.grantPermissions", {"permissions": permissions, "origin": live.url})
    _select(browser, ["AI Agent", "Demo Chat Model", "Calculator"])
    _keys(browser, "c")
    copied = json.loads(wait_for(lambda: (t := browser.execute_async_script(READ_CLIPBOARD)).startswith("{") and t))
    assert [n["name"] for n in copied["nodes"]] == ["AI Agent", "Demo Chat Model", "Calculator"]
    assert set(copied["connections"]) == {"Demo Chat Model", "Calculator"}
    _keys(browser, "v")
    wait_for(lambda: len(canvas_nodes(browser)) == 9 and len(edges(browser)) == 7)
    _select(browser, ["Think"])
    _keys(browser, "x")
    wait_for(lambda: len(canvas_nodes(browser)) == 8 and len(edges(browser)) == 6)
    assert [n["name"] for n in json.loads(browser.execute_async_script(READ_CLIPBOARD))["nodes"]] == ["Think"]
    n8n_copy = {
        "nodes": [{**next(n for n in workflow["nodes"] if n["name"] == "Think"), "position": [0, 400]}],
        "connections": {},
        "pinData": {},
        "meta": {"instanceId": "e" * 64},
    }
    assert browser.execute_async_script(WRITE_CLIPBOARD, json.dumps(n8n_copy)) is True
    _keys(browser, "v")
    wait_for(lambda: len(canvas_nodes(browser)) == 9)
    saved = _saved(live, browser, workflow_id)
    assert [n["name"] for n in saved["nodes"]] == [
        "Manual Trigger",
        "Question",
        "AI Agent",
        "Demo Chat Model",
        "Calculator",
        "AI Agent1",
        "Demo Chat Model1",
        "Calculator1",
        "Think",
    ]
    assert saved["connections"]["Calculator1"] == {"ai_tool": [[{"node": "AI Agent1", "type": "ai_tool", "index": 0}]]}
    assert next(n for n in saved["nodes"] if n["name"] == "Think")["position"] == [0, 400]
    assert console_errors(browser) == []


def test_copy_puts_n8ns_clipboard_json_with_the_connections_among_the_copied_nodes(
    live: LiveServer, browser: Any
) -> None:
    workflow = _agent(f"Copy {uuid.uuid4().hex[:6]}")
    workflow["pinData"] = {"Question": [{"json": {"question": "pinned"}}]}
    workflow["meta"] = {"templateCredsSetupCompleted": True}
    _open(live, browser, workflow)
    assert _clipboard(browser, "copy") == (False, "")  # nothing selected: the browser's own copy
    _select(browser, ["Question", "AI Agent", "Demo Chat Model"])
    handled, text = _clipboard(browser, "copy")
    assert handled and text.startswith('{\n  "nodes": [')  # pretty-printed, as n8n's
    copied = json.loads(text)
    assert set(copied) == {"nodes", "connections", "pinData", "meta"}
    by_name = {n["name"]: n for n in workflow["nodes"]}
    assert sorted(n["name"] for n in copied["nodes"]) == ["AI Agent", "Demo Chat Model", "Question"]
    assert all(n == by_name[n["name"]] for n in copied["nodes"])  # the nodes as they are, ids included
    assert copied["connections"] == {
        "Question": {"main": [[{"node": "AI Agent", "type": "main", "index": 0}]]},
        "Demo Chat Model": {"ai_languageModel": [[{"node": "AI Agent", "type": "ai_languageModel", "index": 0}]]},
    }  # not the Manual Trigger's nor the tools' (not copied)
    assert copied["pinData"] == workflow["pinData"]
    assert copied["meta"]["templateCredsSetupCompleted"] is True and len(copied["meta"]["instanceId"]) == 32
    assert console_errors(browser) == []


def test_pasting_an_n8n_agent_with_sub_nodes_renames_them_and_keeps_their_connections(
    live: LiveServer, browser: Any
) -> None:
    workflow = _agent(f"Paste {uuid.uuid4().hex[:6]}")
    workflow_id = _open(live, browser, workflow)
    pasted = _agent("from n8n")  # as n8n's copyNodes gives it: the agent, its model and tools, no trigger
    pasted = {
        "nodes": [n for n in pasted["nodes"] if n["name"] != "Manual Trigger"],
        "connections": {k: v for k, v in pasted["connections"].items() if k != "Manual Trigger"},
        "pinData": {"Question": [{"json": {"question": "from n8n"}}]},
        "meta": {"instanceId": "f" * 64},
    }
    question = next(n for n in pasted["nodes"] if n["name"] == "Question")
    question["parameters"]["note"] = "={{ $('AI Agent').item.json.output }} {{ $node[\"Think\"].json }}"
    handled, _ = _clipboard(browser, "paste", json.dumps(pasted))
    assert handled
    wait_for(lambda: len(canvas_nodes(browser)) == 11 and len(edges(browser)) == 9)
    assert len(browser.find_elements(By.CSS_SELECTOR, ".vue-flow__node.selected")) == 5  # the pasted ones
    saved = _saved(live, browser, workflow_id)
    names = [n["name"] for n in saved["nodes"]]
    assert names[6:] == ["Question1", "AI Agent1", "Demo Chat Model1", "Calculator1", "Think1"]
    assert saved["connections"]["Question1"] == {"main": [[{"node": "AI Agent1", "type": "main", "index": 0}]]}
    assert saved["connections"]["Demo Chat Model1"] == {
        "ai_languageModel": [[{"node": "AI Agent1", "type": "ai_languageModel", "index": 0}]]
    }
    assert saved["connections"]["Think1"] == {"ai_tool": [[{"node": "AI Agent1", "type": "ai_tool", "index": 0}]]}
    assert saved["connections"]["Question"] == workflow["connections"]["Question"]  # the originals untouched
    added = {n["name"]: n for n in saved["nodes"][6:]}
    old_ids = {n["id"] for n in workflow["nodes"]}
    assert all(n["id"] not in old_ids for n in added.values()) and len({n["id"] for n in added.values()}) == 5
    old = {n["name"]: n for n in workflow["nodes"]}
    for name, n in added.items():
        ox, oy = old[name[:-1]]["position"]
        assert n["position"] == [ox + 40, oy + 40]  # it would lie on the original: moved aside
    assert (
        added["Question1"]["parameters"]["note"]
        == "={{ $('AI Agent1').item.json.output }} {{ $node[\"Think1\"].json }}"
    )
    assert saved["pinData"] == {"Question1": [{"json": {"question": "from n8n"}}]}
    assert console_errors(browser) == []


def test_a_copy_pasted_back_gets_new_webhook_ids_and_unique_names_and_cut_moves(live: LiveServer, browser: Any) -> None:
    hook_id = str(uuid.uuid4())
    workflow = {
        "name": f"Cut and paste {uuid.uuid4().hex[:6]}",
        "nodes": [
            {
                "id": "a1",
                "name": "Webhook",
                "type": "n8n-nodes-base.webhook",
                "typeVersion": 2,
                "position": [0, 0],
                "webhookId": hook_id,
                "parameters": {"path": hook_id, "httpMethod": "POST"},
            },
            {
                "id": "a2",
                "name": "Set",
                "type": "n8n-nodes-base.set",
                "typeVersion": 3.4,
                "position": [220, 0],
                "parameters": {},
            },
            {
                "id": "a3",
                "name": "Set1",
                "type": "n8n-nodes-base.set",
                "typeVersion": 3.4,
                "position": [440, 0],
                "parameters": {"value": "={{ $('Set').item.json.x }}"},
            },
        ],
        "connections": {
            "Webhook": {"main": [[{"node": "Set", "type": "main", "index": 0}]]},
            "Set": {"main": [[{"node": "Set1", "type": "main", "index": 0}]]},
        },
        "settings": {"executionOrder": "v1"},
    }
    workflow_id = _open(live, browser, workflow)
    _select(browser, ["Webhook", "Set", "Set1"])
    handled, text = _clipboard(browser, "copy")
    assert handled
    _clipboard(browser, "paste", text)
    wait_for(lambda: len(canvas_nodes(browser)) == 6 and len(edges(browser)) == 4)
    saved = _saved(live, browser, workflow_id)
    added = saved["nodes"][3:]
    assert [n["name"] for n in added] == ["Webhook1", "Set2", "Set3"]  # n8n's: "Set" → "Set2" when Set1 is taken
    assert added[0]["webhookId"] != hook_id and added[0]["parameters"]["path"] == added[0]["webhookId"]
    assert added[2]["parameters"]["value"] == "={{ $('Set2').item.json.x }}"  # not chained into "Set3"
    assert saved["connections"]["Set2"] == {"main": [[{"node": "Set3", "type": "main", "index": 0}]]}
    _select(browser, ["Set3"])
    handled, text = _clipboard(browser, "cut")
    assert handled and [n["name"] for n in json.loads(text)["nodes"]] == ["Set3"]
    wait_for(lambda: len(canvas_nodes(browser)) == 5 and len(edges(browser)) == 3)
    _clipboard(browser, "paste", text)  # its name is free again
    wait_for(lambda: len(canvas_nodes(browser)) == 6)
    saved = _saved(live, browser, workflow_id)
    assert [n["name"] for n in saved["nodes"]][-1] == "Set3"
    assert saved["connections"]["Set2"] == {"main": [[]]}  # the cut took its connection (pasted alone: none)
    assert console_errors(browser) == []


def test_pasting_text_that_is_not_n8n_json_is_left_to_the_browser(live: LiveServer, browser: Any) -> None:
    workflow = _agent(f"Paste text {uuid.uuid4().hex[:6]}")
    _open(live, browser, workflow)
    for text in ("hello", '{"nodes": "no"}', "[1, 2]"):
        assert _clipboard(browser, "paste", text) == (False, text)
    assert len(canvas_nodes(browser)) == 6
    assert console_errors(browser) == []
