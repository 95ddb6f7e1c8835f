"""The node panel's parameter forms in real Chromium against the live server: each node's parameters rendered from
its type's n8n property descriptions, shown and hidden by n8n's ``displayOptions`` (sibling values, ``/root``
paths, ``@version`` with ``_cnd`` operators, an expression counting as shown), edited (options, strings,
booleans revealing a fixedCollection, collection "Add option" and removal, Set's assignments, If's conditions,
a resource locator, the Fixed / Expression switch with the server's preview) and saved: the stored workflow
differs only at the edited paths. Every test fails on any browser console error."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import node, open_workflow, row, sign_in, status
from tests.server.conftest import LiveServer, wait_for

DOCS = Path(__file__).resolve().parents[2] / "docs"
BASE = "n8n-nodes-base."


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _node(name: str, type_: str, version: float, parameters: dict[str, Any], x: int = 0) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "name": name,
        "type": BASE + type_,
        "typeVersion": version,
        "position": [x, 0],
        "parameters": parameters,
    }


def _workflow(*nodes: dict[str, Any], connections: dict[str, Any] | None = None) -> dict[str, Any]:
    for index, found in enumerate(nodes):
        found["position"] = [220 * (index % 5), 180 * (index // 5)]
    return {
        "name": f"Parameters {uuid.uuid4().hex[:8]}",
        "nodes": list(nodes),
        "connections": connections or {},
        "settings": {},
    }


def _by(css: str) -> Any:
    from selenium.webdriver.common.by import By

    return (By.CSS_SELECTOR, css)


def _find(scope: Any, css: str) -> Any:
    return wait_for(lambda: (found := scope.find_elements(*_by(css))) and found[0])


def _start(browser: Any, live: LiveServer, workflow: dict[str, Any]) -> str:
    """Import ``workflow``, sign in and open its canvas."""
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))
    open_workflow(browser, workflow["name"], node_count=len(workflow["nodes"]))
    return workflow_id


def _open(browser: Any, name: str) -> Any:
    """Double-click the node ``name``; its panel once the parameter form shows. (A canvas that re-renders after a
    save can swallow a double-click: it is tried again.)"""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.action_chains import ActionChains

    css = f".ndv-dialog[data-node-name='{name}']"
    for _ in range(3):
        try:
            ActionChains(browser).double_click(node(browser, name).find_element(*_by(".canvas-node"))).perform()
            wait_for(lambda: browser.find_elements(*_by(css)), timeout=3)
            break
        except (AssertionError, StaleElementReferenceException):
            continue
    panel = _find(browser, css)
    _find(panel, "[data-test-id=node-parameters] .parameter-list")
    return panel


def _close(browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.find_element(*_by("body")).send_keys(Keys.ESCAPE)
    wait_for(lambda: not browser.find_elements(*_by("[data-test-id=ndv]")))


def _shown(browser: Any) -> list[str]:
    """The names of the top-level parameters the open panel shows, in order (read in one script)."""
    names: list[str] = browser.execute_script(
        "return [...document.querySelectorAll('[data-test-id=node-parameters] > .parameter-list > .parameter-item')]"
        ".map((e) => e.dataset.testId.replace('parameter-input-', ''))"
    )
    return names


def _settled(browser: Any, expected: list[str]) -> list[str]:
    """The shown parameters once they are ``expected``, or as they stay (the table's assertion shows the diff)."""
    try:
        wait_for(lambda: _shown(browser) == expected, timeout=5)
    except AssertionError:
        pass
    return _shown(browser)


def _field(scope: Any, path: str) -> Any:
    """The input control of the parameter at ``path``."""
    return _find(scope, f"[data-test-id='parameter-{path}'] [data-test-id=parameter-input-field]")


def _type(element: Any, text: str) -> None:
    from selenium.webdriver.common.keys import Keys

    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.DELETE)
    element.send_keys(text)


def _select(element: Any, text: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(element).select_by_visible_text(text)


def _saved(live: LiveServer, browser: Any, workflow_id: str) -> dict[str, Any]:
    """Click Save and read the workflow back from the server once it holds a new version."""

    def stored() -> dict[str, Any]:
        data: dict[str, Any] = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
        return data

    before = stored()["versionId"]
    browser.find_element(*_by("#save")).click()
    return wait_for(lambda: (found := stored())["versionId"] != before and found)


def _nodes(saved: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["name"]: n for n in saved["nodes"]}


def _unchanged_but(saved: dict[str, Any], original: dict[str, Any], name: str) -> dict[str, Any]:
    """Assert every node but ``name`` and every field of ``name`` but its parameters is as imported; its
    parameters."""
    stored = _nodes(saved)
    for found in original["nodes"]:
        if found["name"] != name:
            assert stored[found["name"]] == found
    edited = dict(stored[name])
    parameters: dict[str, Any] = edited.pop("parameters")
    expected = {k: v for k, v in next(n for n in original["nodes"] if n["name"] == name).items() if k != "parameters"}
    assert edited == expected
    assert saved["connections"] == original["connections"]
    return parameters


#: n8n's displayOptions decision table on real descriptions: (node, type, version, parameters, the top-level
#: parameters n8n shows). Execute Workflow: ``@version`` with ``lte``, ``gte``, ``between`` and a plain ``[1]``, a
#: ``hide`` on a resource locator's value; Set: ``@version`` lists in ``show`` and ``hide``, a ``/root`` path, a
#: default deciding, an expression counting as shown.
DISPLAY_TABLE: list[tuple[str, str, float, dict[str, Any], list[str]]] = [
    (
        "EW 1",
        "executeWorkflow",
        1,
        {},
        ["outdatedVersionWarning", "source", "workflowId", "executeWorkflowNotice", "mode", "options"],
    ),
    (
        "EW 1.1 url",
        "executeWorkflow",
        1.1,
        {"source": "url"},
        [
            *("outdatedVersionWarning", "source", "sourceDeprecationNotice", "workflowUrl"),
            *("executeWorkflowNotice", "mode", "options"),
        ],
    ),
    (
        "EW 1.2 empty",
        "executeWorkflow",
        1.2,
        {"workflowId": {"__rl": True, "value": "", "mode": "list"}},
        ["source", "workflowId", "mode", "options"],
    ),
    (
        "EW 1.3 id",
        "executeWorkflow",
        1.3,
        {"workflowId": {"__rl": True, "value": "abc", "mode": "id"}},
        ["source", "workflowId", "workflowInputs", "mode", "options"],
    ),
    (
        "EW 1.2 each",
        "executeWorkflow",
        1.2,
        {"source": "parameter", "mode": "each"},
        ["source", "workflowJson", "mode", "eachModeDeprecationNotice", "options"],
    ),
    ("Set 3.2", "set", 3.2, {}, ["mode", "duplicateItem", "fields", "include", "options"]),
    ("Set 3.4", "set", 3.4, {}, ["mode", "duplicateItem", "assignments", "includeOtherFields", "options"]),
    (
        "Set 3.4 other",
        "set",
        3.4,
        {"includeOtherFields": True, "include": "selected"},
        ["mode", "duplicateItem", "assignments", "includeOtherFields", "include", "includeFields", "options"],
    ),
    (
        "Set 3.4 raw",
        "set",
        3.4,
        {"mode": "raw", "duplicateItem": True},
        ["mode", "duplicateItem", "duplicateCount", "duplicateWarning", "jsonOutput", "includeOtherFields", "options"],
    ),
    (
        "Set 3.4 expression",
        "set",
        3.4,
        {"duplicateItem": "={{ true }}"},
        [
            *("mode", "duplicateItem", "duplicateCount", "duplicateWarning"),
            *("assignments", "includeOtherFields", "options"),
        ],
    ),
]


def test_display_options_show_what_n8n_shows_for_each_version_and_value(live: LiveServer, browser: Any) -> None:
    workflow = _workflow(*(_node(name, t, v, copy.deepcopy(p)) for name, t, v, p, _ in DISPLAY_TABLE))
    _start(browser, live, workflow)
    seen = {}
    for name, *_, expected in DISPLAY_TABLE:
        _open(browser, name)
        seen[name] = _settled(browser, expected)
        _close(browser)
    assert seen == {name: expected for name, *_, expected in DISPLAY_TABLE}
    assert console_errors(browser) == []


def test_http_request_edits_change_only_the_edited_paths(live: LiveServer, browser: Any) -> None:
    http = _node("HTTP", "httpRequest", 4.2, {"url": "https://example.com", "options": {}})
    other = _node("Other", "noOp", 1, {})
    workflow = _workflow(http, other)
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "HTTP")
    assert "headerParameters" not in _shown(browser)
    _select(_field(panel, "method"), "POST")
    _type(_field(panel, "url"), "https://example.com/x")
    _field(panel, "sendHeaders").click()
    wait_for(lambda: "headerParameters" in _shown(browser))  # displayOptions: sendHeaders true, keypair default
    header = _find(panel, "[data-path='headerParameters.parameters[0]']")
    _type(_field(header, "headerParameters.parameters[0].name"), "X-Test")
    _type(_field(header, "headerParameters.parameters[0].value"), "1")
    options = _find(panel, "[data-test-id='parameter-options']")
    _select(_find(options, "[data-test-id=collection-add-option]"), "Timeout")
    _type(_field(options, "options.timeout"), "5000")
    _select(_find(options, "[data-test-id=collection-add-option]"), "Batching")
    _find(options, "[data-test-id=collection-option-batching]")
    DOCS.mkdir(exist_ok=True)
    browser.save_screenshot(str(DOCS / "editor-parameters.png"))
    option = _find(options, "[data-test-id=collection-option-batching]")
    option.find_element(*_by("[data-test-id=collection-option-remove]")).click()  # removing deletes the key
    wait_for(lambda: not options.find_elements(*_by("[data-test-id=collection-option-batching]")))
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "HTTP")
    assert parameters == {
        "method": "POST",
        "url": "https://example.com/x",
        "sendHeaders": True,
        "headerParameters": {"parameters": [{"name": "X-Test", "value": "1"}]},
        "options": {"timeout": 5000},
    }
    assert console_errors(browser) == []


def test_an_options_list_shows_the_options_that_display(live: LiveServer, browser: Any) -> None:
    """HTTP Request's WebDAV methods show once the Enable WebDAV Methods option is on (an option's displayOptions)."""
    workflow = _workflow(_node("HTTP", "httpRequest", 4.2, {"url": "https://example.com", "options": {}}))
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "HTTP")

    def methods() -> list[str]:
        found: list[str] = browser.execute_script(
            "return [...arguments[0].options].map((o) => o.text)", _field(panel, "method")
        )
        return found

    assert methods() == ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]
    add = _find(panel, "[data-test-id='parameter-options'] [data-test-id=collection-add-option]")
    _select(add, "Enable WebDAV Methods")
    _field(panel, "options.webdavMethods").click()
    wait_for(lambda: {"COPY", "MKCOL", "MOVE", "PROPFIND", "REPORT"} <= set(methods()))
    assert len(methods()) == len(set(methods()))  # one entry per value
    _select(_field(panel, "method"), "COPY")
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "HTTP")
    assert parameters == {"url": "https://example.com", "options": {"webdavMethods": True}, "method": "COPY"}
    assert console_errors(browser) == []


def test_collection_add_option_offers_what_displays_relative_to_the_collection(live: LiveServer, browser: Any) -> None:
    """Postgres: options shown by ``/operation`` (the root), and one by a sibling option (``_cnd: exists``)."""
    pg = _node("PG", "postgres", 2.5, {"operation": "executeQuery", "query": "select 1", "options": {}})
    workflow = _workflow(pg)
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "PG")
    add = _find(panel, "[data-test-id='parameter-options'] [data-test-id=collection-add-option]")

    def offered() -> list[str]:
        found: list[str] = browser.execute_script(
            "return [...arguments[0].options].slice(1).map((o) => o.value)",
            _find(panel, "[data-test-id='parameter-options'] [data-test-id=collection-add-option]"),
        )
        return found

    before = offered()
    assert "queryReplacement" in before and "replaceEmptyStrings" in before
    assert not {"cascade", "outputColumns", "skipOnConflict", "treatQueryParametersInSingleQuotesAsText"} & set(before)
    _select(add, "Query Parameters")
    _find(panel, "[data-test-id=collection-option-queryReplacement]")
    assert "treatQueryParametersInSingleQuotesAsText" not in offered()  # exists: an empty value does not count
    _type(_field(panel, "options.queryReplacement"), "a,b")
    wait_for(lambda: "treatQueryParametersInSingleQuotesAsText" in offered())
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "PG")
    assert parameters == {"operation": "executeQuery", "query": "select 1", "options": {"queryReplacement": "a,b"}}
    assert console_errors(browser) == []


def test_set_assignments_editor_writes_n8n_assignments(live: LiveServer, browser: Any) -> None:
    workflow = _workflow(_node("Set", "set", 3.4, {"options": {}}))
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "Set")
    editor = _find(panel, "[data-test-id='parameter-assignments']")
    editor.find_element(*_by("[data-test-id=assignment-collection-add]")).click()
    first = _find(editor, "[data-test-id=assignment]")
    _type(first.find_element(*_by("[data-test-id=assignment-name]")), "greeting")
    _type(first.find_element(*_by("[data-test-id=assignment-value]")), "hello")
    editor.find_element(*_by("[data-test-id=assignment-collection-add]")).click()
    wait_for(lambda: len(editor.find_elements(*_by("[data-test-id=assignment]"))) == 2)
    second = editor.find_elements(*_by("[data-test-id=assignment]"))[1]
    _type(second.find_element(*_by("[data-test-id=assignment-name]")), "count")
    _select(second.find_element(*_by("[data-test-id=assignment-type-select]")), "Number")
    _type(second.find_element(*_by("[data-test-id=assignment-value]")), "3")
    _field(panel, "includeOtherFields").click()
    wait_for(lambda: "include" in _shown(browser))  # hide: /includeOtherFields [false] no longer holds
    browser.save_screenshot(str(DOCS / "editor-assignments.png"))
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "Set")
    rows = parameters["assignments"]["assignments"]
    assert [{k: v for k, v in r.items() if k != "id"} for r in rows] == [
        {"name": "greeting", "value": "hello", "type": "string"},
        {"name": "count", "value": 3, "type": "number"},
    ]
    assert all(len(r["id"]) == 36 for r in rows) and rows[0]["id"] != rows[1]["id"]
    assert {k: v for k, v in parameters.items() if k != "assignments"} == {"options": {}, "includeOtherFields": True}
    assert console_errors(browser) == []


def test_if_conditions_editor_writes_n8n_filter_values(live: LiveServer, browser: Any) -> None:
    condition = {
        "id": "c1",
        "leftValue": "={{ $json.age }}",
        "rightValue": 18,
        "operator": {"type": "number", "operation": "gte"},
    }
    stored = {
        "options": {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2},
        "conditions": [condition],
        "combinator": "and",
    }
    workflow = _workflow(
        _node("Adult", "if", 2.2, {"conditions": stored, "options": {}}),
        _node("New", "if", 2.2, {"conditions": {}, "options": {}}),
    )
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "Adult")
    editor = _find(panel, "[data-test-id='parameter-conditions']")
    first = _find(editor, "[data-test-id=filter-condition]")
    _select(first.find_element(*_by("[data-test-id=filter-operator-select]")), "Number: is greater than")
    editor.find_element(*_by("[data-test-id=filter-add-condition]")).click()
    wait_for(lambda: len(editor.find_elements(*_by("[data-test-id=filter-condition]"))) == 2)
    second = editor.find_elements(*_by("[data-test-id=filter-condition]"))[1]
    _type(second.find_element(*_by("[data-test-id=filter-condition-left] input")), "{{")
    _find(second, "[data-test-id=filter-condition-left] [data-test-id=inline-expression-editor]")  # now an expression
    browser.switch_to.active_element.send_keys(" $json.name }}")  # which took the focus
    _select(second.find_element(*_by("[data-test-id=filter-operator-select]")), "String: is not empty")
    wait_for(lambda: not second.find_elements(*_by("[data-test-id=filter-condition-right]")))  # a single value
    _select(_find(editor, "[data-test-id=filter-combinator-select]"), "OR")
    _field(panel, "looseTypeValidation").click()  # n8n: the filter's options follow typeOptions.filter
    browser.save_screenshot(str(DOCS / "editor-conditions.png"))
    _close(browser)
    panel = _open(browser, "New")
    new = _find(panel, "[data-test-id='parameter-conditions'] [data-test-id=filter-condition]")
    _type(new.find_element(*_by("[data-test-id=filter-condition-right] input")), "x")
    _select(new.find_element(*_by("[data-test-id=filter-operator-select]")), "Array: length greater than")
    _type(new.find_element(*_by("[data-test-id=filter-condition-right] input")), "5")  # rightType number: 5
    _close(browser)
    saved = _nodes(_saved(live, browser, workflow_id))
    conditions = saved["Adult"]["parameters"]["conditions"]
    assert conditions["combinator"] == "or"
    assert conditions["options"] == {**stored["options"], "typeValidation": "loose"}
    assert saved["Adult"]["parameters"]["looseTypeValidation"] is True
    assert conditions["conditions"][0] == {**condition, "operator": {"type": "number", "operation": "gt"}}
    added = conditions["conditions"][1]
    assert {k: v for k, v in added.items() if k != "id"} == {
        "leftValue": "={{ $json.name }}",
        "rightValue": "",
        "operator": {"type": "string", "operation": "notEmpty", "singleValue": True},
    }
    fresh = saved["New"]["parameters"]["conditions"]
    # n8n's starting value: its default options with If v2.2's typeOptions.filter resolved (version 2)
    assert fresh["options"] == {"caseSensitive": True, "leftValue": "", "typeValidation": "strict", "version": 2}
    assert fresh["combinator"] == "and"
    assert [{k: v for k, v in c.items() if k != "id"} for c in fresh["conditions"]] == [
        {
            "leftValue": "",
            "rightValue": 5,
            "operator": {"type": "array", "operation": "lengthGt", "rightType": "number"},
        }
    ]
    assert console_errors(browser) == []


def test_a_resource_locator_stores_mode_and_value(live: LiveServer, browser: Any) -> None:
    sub = _workflow(_node("Sub start", "executeWorkflowTrigger", 1.1, {"inputSource": "passthrough"}))
    sub_id = live.import_workflow(sub, activate=False)
    workflow = _workflow(_node("Call", "executeWorkflow", 1.2, {"options": {}}))
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "Call")
    assert "workflowInputs" not in _shown(browser)  # hidden while the workflow id is empty
    locator = _find(panel, "[data-test-id='parameter-workflowId'] [data-test-id=resource-locator]")
    wait_for(lambda: sub["name"] in locator.find_element(*_by("[data-test-id=rlc-list]")).text)
    _select(locator.find_element(*_by("[data-test-id=rlc-list]")), sub["name"])  # From list: this instance's
    wait_for(lambda: "workflowInputs" in _shown(browser))
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "Call")
    assert parameters["workflowId"] == {
        "__rl": True,
        "value": sub_id,
        "mode": "list",
        "cachedResultName": sub["name"],
        "cachedResultUrl": f"/workflow/{sub_id}",
    }
    panel = _open(browser, "Call")
    locator = _find(panel, "[data-test-id='parameter-workflowId'] [data-test-id=resource-locator]")
    _select(locator.find_element(*_by("[data-test-id=rlc-mode-selector]")), "By ID")
    _type(_find(locator, "[data-test-id=rlc-input]"), "wf42")
    mapper = _field(panel, "workflowInputs")  # a resource mapper: its value as JSON
    assert json.loads(mapper.get_attribute("value")) == {"mappingMode": "defineBelow", "value": None}
    _type(mapper, '{"mappingMode": "defineBelow", "value": {"name": "Ada"}')
    assert _find(panel, "[data-test-id=parameter-input-error]").text == "Invalid JSON"
    mapper.send_keys("}")
    wait_for(lambda: not panel.find_elements(*_by("[data-test-id=parameter-input-error]")))
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "Call")
    assert parameters == {
        "options": {},
        "workflowId": {"__rl": True, "value": "wf42", "mode": "id"},
        "workflowInputs": {"mappingMode": "defineBelow", "value": {"name": "Ada"}},
    }
    panel = _open(browser, "Call")
    _find(panel, "[data-path=workflowId] [data-test-id=radio-button-expression]").click()
    box = _find(panel, "[data-path=workflowId] [data-test-id=inline-expression-editor-input]")
    assert box.get_attribute("value") == "wf42"  # n8n: the locator keeps its mode, its value becomes =wf42
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "Call")
    assert parameters["workflowId"] == {"__rl": True, "value": "=wf42", "mode": "id"}
    assert console_errors(browser) == []


def test_the_fixed_expression_switch_converts_values_as_n8n(live: LiveServer, browser: Any) -> None:
    """n8n: a number becomes ``={{ 5000 }}`` and back its evaluated value; a boolean likewise; an option ``=GET``;
    a ``noDataExpression`` parameter has no switch."""
    options = {"timeout": 5000, "lowercaseHeaders": False}
    workflow = _workflow(_node("HTTP", "httpRequest", 4.2, {"url": "https://example.com", "options": options}))
    workflow_id = _start(browser, live, workflow)
    panel = _open(browser, "HTTP")

    def switch(path: str, mode: str) -> Any:
        item = _find(panel, f"[data-path='{path}']")
        item.find_element(*_by(f"[data-test-id=radio-button-{mode}]")).click()
        return item

    timeout = switch("options.timeout", "expression")
    box = _find(timeout, "[data-test-id=inline-expression-editor-input]")
    assert box.get_attribute("value") == "{{ 5000 }}"
    wait_for(lambda: _find(timeout, "[data-test-id=inline-expression-editor-output]").text == "5000")
    switch("options.timeout", "fixed")
    assert _field(panel, "options.timeout").get_attribute("value") == "5000"
    lower = switch("options.lowercaseHeaders", "expression")
    assert _find(lower, "[data-test-id=inline-expression-editor-input]").get_attribute("value") == "{{ false }}"
    wait_for(lambda: _find(lower, "[data-test-id=inline-expression-editor-output]").text == "false")
    switch("options.lowercaseHeaders", "fixed")
    _field(panel, "options.lowercaseHeaders")
    assert not _find(panel, "[data-path=sendHeaders]").find_elements(*_by("[data-test-id=radio-button-expression]"))
    method = switch("method", "expression")
    assert _find(method, "[data-test-id=inline-expression-editor-input]").get_attribute("value") == "GET"
    _close(browser)
    parameters = _unchanged_but(_saved(live, browser, workflow_id), workflow, "HTTP")
    assert parameters == {"url": "https://example.com", "options": options, "method": "=GET"}
    assert console_errors(browser) == []


def test_an_expression_shows_the_servers_preview_on_the_nodes_input(live: LiveServer, browser: Any) -> None:
    code = "return [{json: {name: 'Ada'}}];"
    workflow = _workflow(
        _node("Start", "manualTrigger", 1, {}),
        _node("Data", "code", 2, {"jsCode": code}),
        _node("HTTP", "httpRequest", 4.2, {"url": "https://example.com/", "options": {}}),
        connections={
            "Start": {"main": [[{"node": "Data", "type": "main", "index": 0}]]},
            "Data": {"main": [[{"node": "HTTP", "type": "main", "index": 0}]]},
        },
    )
    workflow["pinData"] = {"HTTP": [{"json": {"ok": True}}]}  # the run never calls out
    workflow_id = _start(browser, live, workflow)
    browser.find_element(*_by("#run")).click()
    wait_for(lambda: status(browser, "HTTP") not in (None, "running"), timeout=20)
    panel = _open(browser, "HTTP")
    url = _find(panel, "[data-test-id='parameter-input-url']")
    url.find_element(*_by("[data-test-id=radio-button-expression]")).click()
    box = _find(url, "[data-test-id=inline-expression-editor-input]")
    assert box.get_attribute("value") == "https://example.com/"  # n8n: a fixed x becomes =x
    box.send_keys("{{ $json.name }}")
    output = "[data-test-id='parameter-input-url'] [data-test-id=inline-expression-editor-output]"
    wait_for(lambda: _find(browser, output).text == "https://example.com/Ada")
    browser.save_screenshot(str(DOCS / "editor-expression.png"))
    box.send_keys(" {{ ( }}")
    error = "[data-test-id='parameter-input-url'] [data-test-id=expression-error]"
    wait_for(lambda: browser.find_elements(*_by(error)) and browser.find_element(*_by(error)).text)
    _close(browser)
    saved = _unchanged_but(_saved(live, browser, workflow_id), workflow, "HTTP")
    assert saved == {"url": "=https://example.com/{{ $json.name }} {{ ( }}", "options": {}}
    panel = _open(browser, "HTTP")
    _find(panel, "[data-test-id='parameter-input-url'] [data-test-id=radio-button-fixed]").click()
    field = _field(panel, "url")  # back to fixed: n8n drops the leading =
    assert field.get_attribute("value") == "https://example.com/{{ $json.name }} {{ ( }}"
    _close(browser)
    assert console_errors(browser) == []


def test_an_opened_execution_shows_parameters_read_only(live: LiveServer, browser: Any) -> None:
    assignment = {"id": "a1", "name": "greeting", "value": "={{ 'hi' }}", "type": "string"}
    parameters = {"assignments": {"assignments": [assignment]}, "options": {"dotNotation": False}}
    workflow = _workflow(
        _node("Start", "manualTrigger", 1, {}),
        _node("Set", "set", 3.4, parameters),
        connections={"Start": {"main": [[{"node": "Set", "type": "main", "index": 0}]]}},
    )
    workflow_id = live.import_workflow(workflow, activate=False)
    done = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    sign_in(browser, live)
    browser.get(f"{live.url}/workflow/{workflow_id}/executions/{done['executionId']}")
    wait_for(lambda: len(browser.find_elements(*_by(".vue-flow__node"))) == 2)
    panel = _open(browser, "Set")
    assert not _field(panel, "mode").is_enabled()
    assert _find(panel, "[data-test-id=assignment-name]").get_attribute("readonly") == "true"
    box = _find(panel, "[data-test-id=assignment] [data-test-id=inline-expression-editor-input]")
    assert box.get_attribute("readonly") == "true"
    wait_for(lambda: _find(panel, "[data-test-id=inline-expression-editor-output]").text == "hi")
    controls = ("assignment-collection-add", "assignment-remove", "collection-add-option", "collection-option-remove")
    for absent in controls:
        assert not panel.find_elements(*_by(f"[data-test-id={absent}]"))
    assert all(not b.is_enabled() for b in panel.find_elements(*_by("[data-test-id^=radio-button-]")))
    assert console_errors(browser) == []
