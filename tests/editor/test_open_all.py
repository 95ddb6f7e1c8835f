"""The editor opens every kind of workflow Weft runs: a set of recorded n8n workflows that together use every node
type and connection type of ``tests/recorded/cases`` (and every example), each drawn with all its nodes and
connections and no browser console error, and saved back unedited without a change."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser

skip_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from tests.editor._pages import canvas_nodes, edges, sign_in  # noqa: E402
from tests.server.conftest import EXAMPLES, LiveServer, wait_for  # noqa: E402

CASES = Path(__file__).resolve().parents[1] / "recorded" / "cases"


def _kinds(workflow: dict[str, Any]) -> set[str]:
    nodes = {n.get("type", "") for n in workflow.get("nodes", [])}
    return nodes | {kind for by_type in workflow.get("connections", {}).values() for kind in by_type}


def covering_workflows() -> list[tuple[str, dict[str, Any]]]:
    """Few recorded workflows that together use every node and connection type of the cases, and the examples."""
    found = {p.parent.name: json.loads(p.read_text()) for p in sorted(CASES.glob("*/workflow.json"))}
    kinds = {name: _kinds(w) for name, w in found.items()}
    left = set().union(*kinds.values())
    chosen: list[str] = []
    while left:
        best = max(sorted(kinds), key=lambda name: len(kinds[name] & left))
        chosen.append(best)
        left -= kinds[best]
    examples = [(p.name, json.loads(p.read_text())) for p in sorted(EXAMPLES.glob("*.json"))]
    return [(name, found[name]) for name in chosen] + examples


def _connection_count(workflow: dict[str, Any]) -> int:
    names = {n["name"] for n in workflow["nodes"]}
    return sum(
        1
        for source, by_type in workflow.get("connections", {}).items()
        if source in names
        for outputs in by_type.values()
        for targets in outputs or []
        for target in targets or []
        if target.get("node") in names
    )


def _wait_drawn(browser: Any, nodes: int, connections: int) -> None:
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".canvas") and len(canvas_nodes(browser)) == nodes)
    wait_for(lambda: len(edges(browser)) == connections)


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


def test_every_node_and_connection_type_opens_on_the_canvas(live: LiveServer, browser: Any) -> None:
    sign_in(browser, live)
    opened = []
    for name, workflow in covering_workflows():
        data = {k: v for k, v in workflow.items() if k != "id"}
        answer = live.client.post("/rest/workflows", json=data)
        if answer.status_code != 201:  # a case about a workflow Weft refuses to store
            continue
        workflow_id = answer.json()["data"]["id"]
        before = live.instance.store.workflows.export_workflow(workflow_id)
        browser.get(f"{live.url}/workflow/{workflow_id}")
        _wait_drawn(browser, len(workflow["nodes"]), _connection_count(workflow))
        browser.find_element(By.ID, "save").click()  # saved unedited: the stored JSON does not change
        wait_for(lambda: browser.find_elements(By.ID, "message") or browser.find_elements(By.CSS_SELECTOR, ".error"))
        assert not browser.find_elements(By.CSS_SELECTOR, ".error"), name
        assert live.instance.store.workflows.export_workflow(workflow_id) == before, name
        opened.append(name)
        assert console_errors(browser) == [], name
    assert len(opened) >= 40
