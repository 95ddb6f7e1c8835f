"""The node creator: ``GET /rest/node-types`` on a real server, and building Webhook → Edit Fields → Respond to
Webhook with the "+" panel and the Tab key in a real browser, then activating and calling the workflow. The
browser tests fail on any browser console error."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.server.conftest import LiveServer, wait_for

WEBHOOK = "n8n-nodes-base.webhook"
SET = "n8n-nodes-base.set"
RESPOND = "n8n-nodes-base.respondToWebhook"


def _types(live: LiveServer) -> dict[str, dict[str, Any]]:
    response = live.client.get("/rest/node-types")
    assert response.status_code == 200
    return {t["name"]: t for t in response.json()["data"]}


def test_node_types_list_every_registered_type_with_what_the_creator_needs(live: LiveServer) -> None:
    types = _types(live)
    names = set(live.instance.runner.registry.names())
    assert set(types) == names
    webhook = types[WEBHOOK]
    assert webhook["displayName"] == "Webhook" and "trigger" in webhook["group"]
    assert webhook["versions"] == [1, 1.1, 2, 2.1] and webhook["defaultVersion"] == 2.1
    assert webhook["inputs"] == [] and webhook["outputs"] == ["main"]
    assert webhook["defaults"]["httpMethod"] == "GET"
    edit = types[SET]
    assert edit["displayName"] == "Edit Fields (Set)"
    assert edit["inputs"] == ["main"] and edit["defaultVersion"] == max(edit["versions"])
    assert types[RESPOND]["defaults"]["respondWith"] == "firstIncomingItem"


def test_ai_types_of_the_entry_points_are_listed_with_their_connection_kinds(live: LiveServer) -> None:
    types = _types(live)
    agent = types["@n8n/n8n-nodes-langchain.agent"]
    assert agent["inputs"] == ["main", "ai_languageModel", "ai_memory", "ai_tool", "ai_outputParser"]
    assert types["weft.lmChatDemo"]["outputs"] == ["ai_languageModel"]  # registered by weft.ai's entry point
    assert types["@n8n/n8n-nodes-langchain.memoryBufferWindow"]["outputs"] == ["ai_memory"]
    assert types["@n8n/n8n-nodes-langchain.toolCalculator"]["outputs"] == ["ai_tool"]
    # a dotted default is a nested parameter, as a node's parameters hold it
    assert types["@n8n/n8n-nodes-langchain.mcpClientTool"]["defaults"]["options"]["timeout"] == 60000


def test_node_types_need_a_login(live: LiveServer) -> None:
    with httpx.Client(base_url=live.url, timeout=10) as anonymous:
        assert anonymous.get("/rest/node-types").status_code == 401


# ---------------------------------------------------------------------------------------------------- browser


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _pick(driver: Any, search: str, type_name: str) -> None:
    """Search the open creator and click the type ``type_name``."""
    from selenium.webdriver.common.by import By

    box = wait_for(lambda: driver.find_elements(By.ID, "creator-search"))[0]
    box.send_keys(search)
    item = wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'.creator-item[data-type="{type_name}"]'))[0]
    item.click()
    wait_for(lambda: not driver.find_elements(By.CSS_SELECTOR, ".node-creator"))


def _new_workflow(driver: Any, live: LiveServer) -> str:
    from selenium.webdriver.common.by import By
    from tests.editor._pages import sign_in

    sign_in(driver, live)
    driver.find_element(By.ID, "create").click()
    wait_for(lambda: driver.find_elements(By.ID, "add-node"))
    return str(driver.current_url.rstrip("/").rsplit("/", 1)[1])


def test_webhook_set_respond_built_with_the_creator_saved_activated_called(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from tests.editor._pages import canvas_nodes, edges

    workflow_id = _new_workflow(browser, live)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)  # n8n's shortcut opens the creator
    groups = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".creator-group h3"))
    assert [g.text for g in groups] == ["TRIGGERS", "CORE", "AI SUB-NODES"]
    _pick(browser, "webhook", WEBHOOK)
    wait_for(lambda: len(canvas_nodes(browser)) == 1)
    browser.find_element(By.ID, "add-node").click()
    _pick(browser, "edit fields", SET)
    wait_for(lambda: len(canvas_nodes(browser)) == 2 and len(edges(browser)) == 1)  # after the selected Webhook
    browser.find_element(By.ID, "add-node").click()
    _pick(browser, "respond", RESPOND)
    wait_for(lambda: len(canvas_nodes(browser)) == 3 and len(edges(browser)) == 2)
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: browser.find_elements(By.ID, "message") and browser.find_element(By.ID, "message").text == "Saved")

    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    types = _types(live)
    nodes = {n["type"]: n for n in saved["nodes"]}
    assert set(nodes) == {WEBHOOK, SET, RESPOND}
    assert all(n["typeVersion"] == types[t]["defaultVersion"] for t, n in nodes.items())
    webhook, edit, respond = nodes[WEBHOOK], nodes[SET], nodes[RESPOND]
    assert [webhook["name"], edit["name"], respond["name"]] == ["Webhook", "Edit Fields", "Respond to Webhook"]
    assert webhook["parameters"]["path"] == webhook["webhookId"]  # as n8n: the path starts as the webhook's id
    assert webhook["parameters"]["responseMode"] == "responseNode"  # set when Respond to Webhook was added
    assert saved["connections"] == {
        webhook["name"]: {"main": [[{"node": edit["name"], "type": "main", "index": 0}]]},
        edit["name"]: {"main": [[{"node": respond["name"], "type": "main", "index": 0}]]},
    }
    assert respond["parameters"] == types[RESPOND]["defaults"]
    positions = [tuple(n["position"]) for n in saved["nodes"]]
    assert len(set(positions)) == 3 and positions[0][0] < positions[1][0] < positions[2][0]

    browser.find_element(By.CSS_SELECTOR, "a.back").click()
    row = f'.workflow-row[data-id="{workflow_id}"]'
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, row))[0].find_element(
        By.CSS_SELECTOR, ".active-toggle"
    ).click()
    wait_for(lambda: "Active" in browser.find_element(By.CSS_SELECTOR, row).text.split())
    answer = httpx.get(f"{live.url}/webhook/{webhook['parameters']['path']}", params={"q": "1"}, timeout=10)
    assert answer.status_code == 200
    browser.find_element(By.CSS_SELECTOR, f"{row} .workflow-name").click()
    wait_for(lambda: len(canvas_nodes(browser)) == 3)
    browser.find_element(By.ID, "executions").click()
    execution = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".execution-row"))[0]
    assert execution.find_element(By.CSS_SELECTOR, ".execution-status").text == "success"
    assert execution.find_element(By.CSS_SELECTOR, ".execution-mode").text == "webhook"
    called = live.executions(workflow_id)[0]["id"]
    browser.find_element(By.ID, "nav-executions").click()  # and in the list of all executions
    listed = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, f'.execution-row[data-id="{called}"]'))[0]
    assert listed.get_attribute("data-status") == "success"
    assert listed.find_element(By.CSS_SELECTOR, ".execution-workflow").text == saved["name"]
    assert listed.find_element(By.CSS_SELECTOR, ".execution-mode").text == "webhook"
    assert console_errors(browser) == []


def test_an_agents_model_input_offers_only_models_and_connects_the_chosen_one(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from tests.editor._pages import canvas_nodes, node

    workflow_id = _new_workflow(browser, live)
    browser.find_element(By.ID, "add-node").click()
    wait_for(lambda: browser.find_elements(By.ID, "creator-search"))[0].send_keys(Keys.ESCAPE)  # closes it
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, ".node-creator"))
    browser.find_element(By.ID, "add-node").click()
    _pick(browser, "agent", "@n8n/n8n-nodes-langchain.agent")
    wait_for(lambda: len(canvas_nodes(browser)) == 1)
    agent = node(browser, "AI Agent")
    model_label = next(e for e in agent.find_elements(By.CSS_SELECTOR, ".ai-label") if e.text == "Model")
    model_label.click()
    panel = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, '.node-creator[data-kind="ai_languageModel"]'))
    assert [g.text for g in panel[0].find_elements(By.CSS_SELECTOR, ".creator-group h3")] == ["AI SUB-NODES"]
    offered = {e.get_attribute("data-type") for e in panel[0].find_elements(By.CSS_SELECTOR, ".creator-item")}
    models = {name for name, t in _types(live).items() if "ai_languageModel" in t["outputs"]}
    assert offered == models and "weft.lmChatDemo" in offered
    _pick(browser, "demo", "weft.lmChatDemo")
    wait_for(lambda: len(canvas_nodes(browser)) == 2 and browser.find_elements(By.CSS_SELECTOR, ".edge-ai"))
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: browser.find_elements(By.ID, "message") and browser.find_element(By.ID, "message").text == "Saved")
    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    model = next(n for n in saved["nodes"] if n["type"] == "weft.lmChatDemo")
    assert saved["connections"] == {
        model["name"]: {"ai_languageModel": [[{"node": "AI Agent", "type": "ai_languageModel", "index": 0}]]}
    }
    agent_at = next(n["position"] for n in saved["nodes"] if n["name"] == "AI Agent")
    assert model["position"][1] > agent_at[1]  # below the agent, as n8n draws sub-nodes
    assert console_errors(browser) == []
