"""The node panel (n8n's NDV) in real Chromium against the live server: double-click a node after a run and see
its input and output (Table, JSON, Binary; If's true/false outputs), a failed node's error, an AI model's input
messages and output; rename in place; pin, edit and unpin data; the Settings tab written to the workflow JSON.
Every test fails on any browser console error; the run takes the screenshot ``docs/editor-ndv.png``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import edges, node, open_workflow, row, sign_in, status
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_openai import FakeOpenAIServer

DOCS = Path(__file__).resolve().parents[2] / "docs"
LC = "@n8n/n8n-nodes-langchain."
PEOPLE = "return [{json: {name: 'Ada', age: 36, tags: ['x']}}, {json: {name: 'Bob', age: 17, tags: []}}];"


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _node(name: str, type_: str, parameters: dict[str, Any], version: float = 1, x: int = 0) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "name": name,
        "type": type_,
        "typeVersion": version,
        "position": [x, 0],
        "parameters": parameters,
    }


def _to(target: str, kind: str = "main") -> list[dict[str, Any]]:
    return [{"node": target, "type": kind, "index": 0}]


def _people_workflow() -> dict[str, Any]:
    """Manual Trigger → Data (Code: Ada 36, Bob 17) → Is adult (If age >= 18) → Adult | Minor."""
    condition = {
        "id": str(uuid.uuid4()),
        "leftValue": "={{ $('Data').item.json.age }}",
        "rightValue": 18,
        "operator": {"type": "number", "operation": "gte"},
    }
    if_parameters = {
        "conditions": {
            "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict"},
            "conditions": [condition],
            "combinator": "and",
        },
        "options": {},
    }
    nodes = [
        _node("Start", "n8n-nodes-base.manualTrigger", {}),
        _node("Data", "n8n-nodes-base.code", {"jsCode": PEOPLE}, 2, 220),
        _node("Is adult", "n8n-nodes-base.if", if_parameters, 2, 440),
        _node("Adult", "n8n-nodes-base.noOp", {}, 1, 660),
        _node("Minor", "n8n-nodes-base.noOp", {}, 1, 660),
    ]
    nodes[4]["position"] = [660, 200]
    return {
        "name": f"NDV {uuid.uuid4().hex[:8]}",
        "nodes": nodes,
        "connections": {
            "Start": {"main": [_to("Data")]},
            "Data": {"main": [_to("Is adult")]},
            "Is adult": {"main": [_to("Adult"), _to("Minor")]},
        },
        "settings": {},
    }


def _by(css: str) -> Any:
    from selenium.webdriver.common.by import By

    return (By.CSS_SELECTOR, css)


def _find(browser: Any, css: str) -> Any:
    return wait_for(lambda: (found := browser.find_elements(*_by(css))) and found[0])


def _run_in_editor(browser: Any, live: LiveServer, workflow: dict[str, Any], last: str, count: int) -> str:
    """Import ``workflow``, open it, click Execute workflow and wait for ``last`` to show its items."""
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))
    open_workflow(browser, workflow["name"], node_count=len(workflow["nodes"]))
    browser.find_element(*_by("#run")).click()
    wait_for(lambda: status(browser, last) not in (None, "running"), timeout=20)
    wait_for(lambda: browser.find_elements(*_by("#message")) and "running" not in _text(browser, "#message"))
    return workflow_id


def _names(browser: Any) -> list[str]:
    """The names of the nodes on the canvas (read in one script: the canvas may re-render meanwhile)."""
    names: list[str] = browser.execute_script(
        "return [...document.querySelectorAll('.vue-flow__node')].map((n) => n.dataset.id)"
    )
    return names


def _text(browser: Any, css: str) -> str:
    found = browser.find_elements(*_by(css))
    return str(found[0].text) if found else ""


def _open(browser: Any, name: str) -> Any:
    """Double-click the node ``name`` on the canvas; the open node panel."""
    from selenium.webdriver.common.action_chains import ActionChains

    def opened() -> Any:
        if not browser.find_elements(*_by("[data-test-id=ndv]")):  # (again: a re-render may eat a double-click)
            ActionChains(browser).double_click(node(browser, name).find_element(*_by(".canvas-node"))).perform()
        found = browser.find_elements(*_by(f".ndv-dialog[data-node-name='{name}'][data-loaded=true]"))
        return found and found[0]

    return wait_for(opened, interval=0.5)


def _close(browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.find_element(*_by("body")).send_keys(Keys.ESCAPE)
    wait_for(lambda: not browser.find_elements(*_by("[data-test-id=ndv]")))


def _table(panel: Any) -> tuple[list[str], list[list[str]]]:
    """The headers and rows of the data table inside ``panel``."""
    table = panel.find_element(*_by("[data-test-id=ndv-data-table]"))
    headers = [th.text for th in table.find_elements(*_by("thead th"))]
    rows = [[td.text for td in tr.find_elements(*_by("td"))] for tr in table.find_elements(*_by("tbody tr"))]
    return headers, rows


def _saved(live: LiveServer, browser: Any, workflow_id: str) -> dict[str, Any]:
    """Click Save (the panel's edits made the workflow dirty) and read the workflow back from the server."""
    assert _text(browser, "#save") == "Save*"
    browser.find_element(*_by("#save")).click()
    wait_for(lambda: _text(browser, "#save") == "Save" and _text(browser, "#message") == "Saved")
    data: dict[str, Any] = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    return data


def test_a_run_shows_each_nodes_input_and_output_as_table_and_json(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    _run_in_editor(browser, live, workflow, "Minor", 5)
    panel = _open(browser, "Is adult")
    inputs = panel.find_element(*_by("[data-test-id=ndv-input-panel]"))
    wait_for(lambda: inputs.find_elements(*_by("[data-test-id=ndv-data-table]")))
    assert _table(inputs) == (["name", "age", "tags"], [["Ada", "36", '["x"]'], ["Bob", "17", "[]"]])
    assert inputs.find_element(*_by("[data-test-id=ndv-items-count]")).text == "2 items"
    output = panel.find_element(*_by("[data-test-id=ndv-output-panel]"))
    branches = [b.text for b in output.find_elements(*_by("[data-test-id=ndv-output-select] button"))]
    assert branches == ["true (1)", "false (1)"]  # n8n's names of the If's outputs
    assert _table(output)[1] == [["Ada", "36", '["x"]']]
    output.find_element(*_by("[data-output=false]")).click()
    wait_for(lambda: _table(output)[1] == [["Bob", "17", "[]"]])
    DOCS.mkdir(exist_ok=True)
    browser.save_screenshot(str(DOCS / "editor-ndv.png"))
    output.find_element(*_by("[data-mode=json]")).click()
    shown = _find(browser, "[data-test-id=ndv-output-panel] [data-test-id=ndv-json]").text
    assert '"name": "Bob"' in shown and '"age": 17' in shown and "Ada" not in shown
    assert panel.find_element(*_by("[data-test-id=ndv-tab-parameters]")).get_attribute("class") == "active"
    _find(browser, "[data-test-id=node-parameters]")  # the parameter form in the middle
    _close(browser)
    panel = _open(browser, "Start")  # a trigger: no input
    assert "No input data" in panel.find_element(*_by("[data-test-id=ndv-input-panel]")).text
    assert _table(panel.find_element(*_by("[data-test-id=ndv-output-panel]")))[1] == [[]]  # one empty item
    assert console_errors(browser) == []


def test_renaming_a_node_in_the_panel_renames_its_connections_and_references(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    workflow = _people_workflow()
    workflow_id = _run_in_editor(browser, live, workflow, "Minor", 5)
    before = len(edges(browser))
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=node-title]")).click()
    name = _find(browser, "[data-test-id=node-title-input]")
    name.send_keys(Keys.CONTROL, "a")
    name.send_keys("People", Keys.ENTER)
    wait_for(lambda: browser.find_elements(*_by(".ndv-dialog[data-node-name='People']")))
    _close(browser)
    wait_for(lambda: "People" in _names(browser))
    assert len(edges(browser)) == before
    saved = _saved(live, browser, workflow_id)
    assert [n["name"] for n in saved["nodes"]] == ["Start", "People", "Is adult", "Adult", "Minor"]
    assert saved["connections"]["Start"] == {"main": [_to("People")]}
    assert saved["connections"]["People"] == {"main": [_to("Is adult")]}
    condition = saved["nodes"][2]["parameters"]["conditions"]["conditions"][0]
    assert condition["leftValue"] == "={{ $('People').item.json.age }}"
    assert console_errors(browser) == []


def test_pin_edit_and_unpin_the_output_of_a_node(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    workflow_id = _run_in_editor(browser, live, workflow, "Minor", 5)
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-pin]")).click()
    _find(browser, "[data-test-id=ndv-pinned-note]")
    _close(browser)
    wait_for(lambda: node(browser, "Data").find_elements(*_by("[data-test-id=canvas-node-status-pinned]")))
    pinned = _saved(live, browser, workflow_id)["pinData"]
    assert pinned == {
        "Data": [{"json": {"name": "Ada", "age": 36, "tags": ["x"]}}, {"json": {"name": "Bob", "age": 17, "tags": []}}]
    }
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-edit-pinned]")).click()
    box = _find(browser, "[data-test-id=ndv-pin-json]")
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, "not json"
    )
    browser.find_element(*_by("[data-test-id=ndv-pin-save]")).click()
    assert _find(browser, "[data-test-id=ndv-pin-editor] .error").text  # the parse error, nothing pinned
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, '[{"name": "Zed"}]'
    )
    browser.find_element(*_by("[data-test-id=ndv-pin-save]")).click()
    output = _find(browser, "[data-test-id=ndv-output-panel]")
    wait_for(lambda: output.find_elements(*_by("[data-test-id=ndv-data-table]")) and _table(output)[1] == [["Zed"]])
    _close(browser)
    assert _saved(live, browser, workflow_id)["pinData"] == {"Data": [{"json": {"name": "Zed"}}]}
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-unpin]")).click()
    wait_for(lambda: not browser.find_elements(*_by("[data-test-id=ndv-pinned-note]")))
    _close(browser)
    assert not node(browser, "Data").find_elements(*_by("[data-test-id=canvas-node-status-pinned]"))
    assert "Data" not in (_saved(live, browser, workflow_id).get("pinData") or {})
    assert console_errors(browser) == []


def test_the_settings_tab_writes_n8n_node_settings_without_defaults(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.support.ui import Select

    workflow = _people_workflow()
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))
    open_workflow(browser, workflow["name"], node_count=5)
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-tab-settings]")).click()
    _find(browser, "[data-test-id=setting-alwaysOutputData] input").click()
    _find(browser, "[data-test-id=setting-retryOnFail] input").click()
    tries = _find(browser, "[data-test-id=setting-maxTries] input")
    tries.clear()
    tries.send_keys("4")
    _find(browser, "[data-test-id=setting-notes] textarea").click()  # leaving the field commits it
    Select(_find(browser, "[data-test-id=setting-onError] select")).select_by_value("continueErrorOutput")
    notes = _find(browser, "[data-test-id=setting-notes] textarea")
    notes.send_keys("Who is who")
    _find(browser, "[data-test-id=setting-notesInFlow] input").click()
    _close(browser)
    data = next(n for n in _saved(live, browser, workflow_id)["nodes"] if n["name"] == "Data")
    settings = {
        k: v for k, v in data.items() if k not in ("id", "name", "type", "typeVersion", "position", "parameters")
    }
    assert settings == {
        "alwaysOutputData": True,
        "retryOnFail": True,
        "maxTries": 4,
        "onError": "continueErrorOutput",
        "notes": "Who is who",
        "notesInFlow": True,
    }
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-tab-settings]")).click()
    _find(browser, "[data-test-id=setting-alwaysOutputData] input").click()  # back to the default: removed
    Select(_find(browser, "[data-test-id=setting-onError] select")).select_by_value("stopWorkflow")
    _close(browser)
    data = next(n for n in _saved(live, browser, workflow_id)["nodes"] if n["name"] == "Data")
    assert "alwaysOutputData" not in data and "onError" not in data and data["maxTries"] == 4
    assert console_errors(browser) == []


def test_the_binary_view_lists_a_files_name_type_size_and_links(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    to_file = _node("To file", "n8n-nodes-base.convertToFile", {"operation": "toJson", "options": {}}, 1.1, 440)
    workflow["nodes"] = [*workflow["nodes"][:2], to_file]
    workflow["connections"] = {"Start": {"main": [_to("Data")]}, "Data": {"main": [_to("To file")]}}
    _run_in_editor(browser, live, workflow, "To file", 3)
    panel = _open(browser, "To file")
    output = panel.find_element(*_by("[data-test-id=ndv-output-panel]"))
    _find(browser, "[data-test-id=ndv-output-panel] [data-mode=binary]").click()
    entry = _find(browser, "[data-test-id=ndv-output-panel] .binary-entry[data-key=data]")
    assert entry.find_element(*_by(".binary-file-name")).text == "file.json"
    assert entry.find_element(*_by(".binary-mime-type")).text == "application/json"
    assert entry.find_element(*_by(".binary-file-size")).text.endswith("B")
    view = entry.find_element(*_by(".binary-view")).get_attribute("href")
    download = entry.find_element(*_by(".binary-download")).get_attribute("href")
    assert "/rest/binary-data?" in view and "action=view" in view and "action=download" in download
    body = live.client.get(download.removeprefix(live.url))
    assert body.status_code == 200 and '"name": "Ada"' in body.text.replace('":"', '": "')
    assert "attachment" in body.headers["content-disposition"]
    assert output.find_element(*_by("[data-test-id=ndv-items-count]")).text == "1 item"
    assert console_errors(browser) == []


def test_a_failed_node_shows_its_error_message_in_the_output(live: LiveServer, browser: Any) -> None:
    workflow = {
        "name": f"NDV error {uuid.uuid4().hex[:8]}",
        "nodes": [
            _node("Start", "n8n-nodes-base.manualTrigger", {}),
            _node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "it broke on purpose"}, 1, 220),
        ],
        "connections": {"Start": {"main": [_to("Fail")]}},
        "settings": {},
    }
    _run_in_editor(browser, live, workflow, "Fail", 2)
    _open(browser, "Fail")
    error = _find(browser, "[data-test-id=ndv-node-error]")
    assert error.find_element(*_by(".ndv-error-message")).text == "it broke on purpose"
    assert not browser.find_elements(*_by("[data-test-id=ndv-pin]"))  # an error is not pinned
    console = [e for e in console_errors(browser) if "it broke on purpose" not in str(e)]
    assert console == []


def _agent_export(credential_id: str) -> dict[str, Any]:
    """An n8n export: Manual Trigger → AI Agent with an OpenAI Chat Model sub-node."""
    model = _node(
        "OpenAI Chat Model",
        LC + "lmChatOpenAi",
        {"model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list"}, "responsesApiEnabled": False, "options": {}},
        1.3,
        300,
    )
    model["position"] = [300, 220]
    model["credentials"] = {"openAiApi": {"id": credential_id, "name": "Fake OpenAI"}}
    agent = _node(
        "AI Agent",
        LC + "agent",
        {"promptType": "define", "text": "Say hello to Ada", "options": {"systemMessage": "You are terse."}},
        3.1,
        260,
    )
    return {
        "name": f"NDV agent {uuid.uuid4().hex[:8]}",
        "nodes": [_node("Start", "n8n-nodes-base.manualTrigger", {}), agent, model],
        "connections": {
            "Start": {"main": [_to("AI Agent")]},
            "OpenAI Chat Model": {"ai_languageModel": [_to("AI Agent", "ai_languageModel")]},
        },
        "pinData": {},
        "settings": {"executionOrder": "v1"},
        "meta": {"instanceId": "0123456789abcdef"},
    }


def test_an_agents_model_shows_its_input_messages_and_its_output(live: LiveServer, browser: Any) -> None:
    with FakeOpenAIServer(["Hello, Ada!"]) as fake:
        created = live.client.post(
            "/rest/credentials",
            json={"name": "Fake OpenAI", "type": "openAiApi", "data": {"apiKey": "sk-test", "url": fake.base_url}},
        )
        assert created.status_code == 201, created.text
        workflow = _agent_export(created.json()["data"]["id"])
        _run_in_editor(browser, live, workflow, "AI Agent", 3)
        assert status(browser, "AI Agent") == "1 item"
    panel = _open(browser, "OpenAI Chat Model")
    inputs = panel.find_element(*_by("[data-test-id=ndv-input-panel]"))
    inputs.find_element(*_by("[data-mode=json]")).click()
    shown_in = _find(browser, "[data-test-id=ndv-input-panel] [data-test-id=ndv-json]").text
    assert "messages" in shown_in and "Say hello to Ada" in shown_in and "You are terse." in shown_in
    output = panel.find_element(*_by("[data-test-id=ndv-output-panel]"))
    output.find_element(*_by("[data-mode=json]")).click()
    shown_out = _find(browser, "[data-test-id=ndv-output-panel] [data-test-id=ndv-json]").text
    assert "Hello, Ada!" in shown_out
    assert "ai_languageModel" in output.text  # the sub-node's connection type, as n8n's output shows it
    assert not output.find_elements(*_by("[data-test-id=ndv-pin]"))  # n8n pins main outputs only
    # as n8n's NDV: a model connected to its agent does not show "This node must be connected to an AI chain"
    hints = panel.find_elements(*_by(".ndv-connection-hint-notice"))
    assert hints and not any(h.is_displayed() for h in hints)
    assert console_errors(browser) == []


def test_execute_step_runs_up_to_the_node_and_shows_its_output(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))
    open_workflow(browser, workflow["name"], node_count=5)
    panel = _open(browser, "Data")
    assert "Execute this node to view data" in panel.find_element(*_by("[data-test-id=ndv-output-panel]")).text
    panel.find_element(*_by("[data-test-id=node-execute-button]")).click()
    output = _find(browser, "[data-test-id=ndv-output-panel]")
    wait_for(lambda: output.find_elements(*_by("[data-test-id=ndv-data-table]")), timeout=20)
    assert _table(output)[1] == [["Ada", "36", '["x"]'], ["Bob", "17", "[]"]]
    _close(browser)
    assert status(browser, "Data") == "2 items" and status(browser, "Is adult") is None  # up to the node only
    assert console_errors(browser) == []


def test_an_opened_execution_shows_its_data_read_only(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    workflow_id = live.import_workflow(workflow, activate=False)
    done = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    sign_in(browser, live)
    browser.get(f"{live.url}/workflow/{workflow_id}/executions/{done['executionId']}")
    wait_for(lambda: len(_names(browser)) == 5)
    panel = _open(browser, "Adult")
    output = panel.find_element(*_by("[data-test-id=ndv-output-panel]"))
    wait_for(lambda: output.find_elements(*_by("[data-test-id=ndv-data-table]")))
    assert _table(output)[1] == [["Ada", "36", '["x"]']]
    assert not panel.find_elements(*_by("[data-test-id=ndv-pin]"))  # nothing can be edited
    assert not panel.find_elements(*_by("[data-test-id=node-execute-button]"))
    panel.find_element(*_by("[data-test-id=ndv-tab-settings]")).click()
    assert not _find(browser, "[data-test-id=setting-alwaysOutputData] input").is_enabled()
    assert console_errors(browser) == []


def test_a_large_output_is_shown_a_page_at_a_time(live: LiveServer, browser: Any) -> None:
    many = "return Array.from({length: 30}, (_, i) => ({json: {n: i + 1}}));"
    workflow = {
        "name": f"NDV pages {uuid.uuid4().hex[:8]}",
        "nodes": [
            _node("Start", "n8n-nodes-base.manualTrigger", {}),
            _node("Many", "n8n-nodes-base.code", {"jsCode": many}, 2, 220),
        ],
        "connections": {"Start": {"main": [_to("Many")]}},
        "settings": {},
    }
    workflow_id = _run_in_editor(browser, live, workflow, "Many", 2)
    output = _open(browser, "Many").find_element(*_by("[data-test-id=ndv-output-panel]"))
    assert output.find_element(*_by("[data-test-id=ndv-items-count]")).text == "30 items"
    assert [row[0] for row in _table(output)[1]] == [str(n) for n in range(1, 26)]
    assert "Page 1 of 2" in output.find_element(*_by("[data-test-id=ndv-data-pagination]")).text
    output.find_element(*_by("[data-test-id=ndv-page-next]")).click()
    wait_for(lambda: [row[0] for row in _table(output)[1]] == ["26", "27", "28", "29", "30"])
    output.find_element(*_by("[data-test-id=ndv-pin]")).click()  # pins the whole output, not the page
    _close(browser)
    wait_for(lambda: node(browser, "Many").find_elements(*_by("[data-test-id=canvas-node-status-pinned]")))
    assert _saved(live, browser, workflow_id)["pinData"]["Many"] == [{"json": {"n": n}} for n in range(1, 31)]
    assert console_errors(browser) == []


def test_before_a_run_a_nodes_input_is_its_parents_pinned_data(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))
    open_workflow(browser, workflow["name"], node_count=5)
    panel = _open(browser, "Data")
    panel.find_element(*_by("[data-test-id=ndv-edit-pinned]")).click()
    box = _find(browser, "[data-test-id=ndv-pin-json]")
    browser.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, '{"name": "Zed"}'
    )
    browser.find_element(*_by("[data-test-id=ndv-pin-save]")).click()
    _find(browser, "[data-test-id=ndv-pinned-note]")
    _close(browser)
    inputs = _open(browser, "Is adult").find_element(*_by("[data-test-id=ndv-input-panel]"))
    assert _table(inputs) == (["name"], [["Zed"]])
    assert console_errors(browser) == []


def test_a_node_that_ran_twice_offers_each_run(live: LiveServer, browser: Any) -> None:
    workflow = _people_workflow()
    workflow["nodes"] = [
        *workflow["nodes"][:2],
        _node("Loop", "n8n-nodes-base.splitInBatches", {"batchSize": 1, "options": {}}, 3, 440),
        _node("Each", "n8n-nodes-base.noOp", {}, 1, 660),
    ]
    workflow["connections"] = {
        "Start": {"main": [_to("Data")]},
        "Data": {"main": [_to("Loop")]},
        "Loop": {"main": [[], _to("Each")]},
        "Each": {"main": [_to("Loop")]},
    }
    _run_in_editor(browser, live, workflow, "Each", 4)
    panel = _open(browser, "Each")
    output = panel.find_element(*_by("[data-test-id=ndv-output-panel]"))
    runs = panel.find_element(*_by("[data-test-id=ndv-run-select] select"))
    assert [o.text for o in runs.find_elements(*_by("option"))] == ["1 of 2", "2 of 2"]
    assert _table(output)[1][0][0] == "Bob"  # the last run first, as n8n
    from selenium.webdriver.support.ui import Select

    Select(runs).select_by_index(0)
    wait_for(lambda: _table(output)[1][0][0] == "Ada")
    assert _table(panel.find_element(*_by("[data-test-id=ndv-input-panel]")))[1][0][0] == "Ada"  # that run's input
    _close(browser)
    loop = _open(browser, "Loop").find_element(*_by("[data-test-id=ndv-output-panel]"))
    labels = [b.text.split(" ")[0] for b in loop.find_elements(*_by("[data-test-id=ndv-output-select] button"))]
    assert labels == ["done", "loop"]  # n8n's names of Loop Over Items' outputs
    assert console_errors(browser) == []
