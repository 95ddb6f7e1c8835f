"""Running from the editor in real Chromium: execute up to a node (partial execution: which nodes ran again and
which kept their data), Stop, an error on its node with message and description, pinned data used, and a
human-approval request approved from the node panel. Every test fails on a browser console error."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import node, open_workflow, row, sign_in, status
from tests.server.conftest import LiveServer, wait_for
from tests.server.test_rest_run import BROWSER_UA, approval_workflow, chain_workflow, output, run_data, wait_workflow

from weft.testing.smtp_server import SmtpCaptureServer
from weft.testing.workflows import connect, workflow
from weft.testing.workflows import node as make_node

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


@pytest.fixture
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def laid_out(data: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    for index, each in enumerate(data["nodes"]):
        each["position"] = [index * 220, 0]
        each.setdefault("id", str(uuid.uuid4()))
    data["name"] = name or f"Running {uuid.uuid4().hex[:8]}"
    return data


def open_imported(browser: Any, live: LiveServer, data: dict[str, Any]) -> str:
    workflow_id = live.import_workflow(data, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, data["name"]))
    open_workflow(browser, data["name"], node_count=len(data["nodes"]))
    return workflow_id


def classes(browser: Any, name: str) -> str:
    return node(browser, name).find_element(By.CSS_SELECTOR, ".canvas-node").get_attribute("class") or ""


def finished(browser: Any, live: LiveServer, workflow_id: str, count: int, state: str = "success") -> dict[str, Any]:
    """The workflow's newest execution once there are ``count`` and the canvas says it ended ``state``."""
    rows = wait_for(lambda: len(rows := live.executions(workflow_id)) == count and rows)
    newest = max(rows, key=lambda r: int(r["id"]))
    text = f"Execution {newest['id']}: {state}"
    wait_for(lambda: [m for m in browser.find_elements(By.ID, "message") if m.text.startswith(text)], timeout=15)
    return live.execution(newest["id"])


def badge(browser: Any, name: str, kind: str) -> list[Any]:
    """The node's ``canvas-node-status-<kind>`` marks (pinned, waiting, error)."""
    found: list[Any] = node(browser, name).find_elements(By.CSS_SELECTOR, f"[data-test-id=canvas-node-status-{kind}]")
    return found


def execute_step(browser: Any, name: str) -> None:
    """Hover the node and click its toolbar's Execute step (▶)."""
    target = node(browser, name)
    ActionChains(browser).move_to_element(target).perform()
    button = wait_for(lambda: [b for b in target.find_elements(By.CSS_SELECTOR, "[data-test-id=execute-node-button]")])
    wait_for(lambda: button[0].is_displayed())
    button[0].click()


def test_partial_execution_to_a_node_reruns_the_dirty_node_and_reuses_the_rest(live: LiveServer, browser: Any) -> None:
    workflow_id = open_imported(browser, live, laid_out(chain_workflow()))
    browser.find_element(By.ID, "run").click()
    base = finished(browser, live, workflow_id, 1)
    wait_for(lambda: status(browser, "C") == "1 item")
    # Execute step on C with nothing changed: only C runs again
    execute_step(browser, "C")
    again = finished(browser, live, workflow_id, 2)
    for reused in ("Start", "A", "B"):
        assert run_data(again)[reused] == run_data(base)[reused]
    assert run_data(again)["C"][0]["startTime"] != run_data(base)["C"][0]["startTime"]
    # a parameter of B changes in its node panel: B is dirty, so B and C run again; Start and A keep their data
    ActionChains(browser).double_click(node(browser, "B")).perform()
    field = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=assignment-name]"))[0]
    field.clear()
    field.send_keys("renamed")
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-close]").click()
    execute_step(browser, "C")
    third = finished(browser, live, workflow_id, 3)
    for reused in ("Start", "A"):
        assert run_data(third)[reused] == run_data(base)[reused]
    for rerun in ("B", "C"):
        assert run_data(third)[rerun][0]["startTime"] != run_data(again)[rerun][0]["startTime"]
    assert output(third, "B") == [{"a": "a", "renamed": "a-b"}]
    # the node panel's Execute step on A: the run ends at A, B and C do not run
    ActionChains(browser).double_click(node(browser, "A")).perform()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=node-execute-button]"))[0].click()
    fourth = finished(browser, live, workflow_id, 4)
    assert sorted(run_data(fourth)) == ["A", "Start"]
    assert console_errors(browser) == []


def test_stop_cancels_the_running_execution(live: LiveServer, browser: Any) -> None:
    wait = make_node("Pause", "n8n-nodes-base.wait", {"amount": 30, "unit": "seconds"}, version=1.1)
    data = laid_out(workflow(make_node("Start", "n8n-nodes-base.manualTrigger"), wait, connect("Start", "Pause")))
    workflow_id = open_imported(browser, live, data)
    browser.find_element(By.ID, "run").click()
    wait_for(lambda: status(browser, "Pause") == "running")
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=stop-execution-button]").click()
    stopped = finished(browser, live, workflow_id, 1, "canceled")
    assert stopped["status"] == "canceled"
    canvas = browser.find_element(By.CSS_SELECTOR, ".canvas")
    assert canvas.get_attribute("data-execution-status") == "canceled"
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, "[data-test-id=stop-execution-button]"))
    assert console_errors(browser) == []


def test_a_failed_node_shows_its_message_and_description(live: LiveServer, browser: Any) -> None:
    error = '{"message": "Order 42 is locked", "description": "Unlock it in the shop first."}'
    fail = make_node("Fail", "n8n-nodes-base.stopAndError", {"errorType": "errorObject", "errorObject": error})
    data = laid_out(workflow(make_node("Start", "n8n-nodes-base.manualTrigger"), fail, connect("Start", "Fail")))
    workflow_id = open_imported(browser, live, data)
    browser.find_element(By.ID, "run").click()
    finished(browser, live, workflow_id, 1, "error")
    assert "status-error" in classes(browser, "Fail")
    for _ in range(3):  # two nodes fill the screen at the fitted zoom: zoom out to see the details beside them
        browser.find_element(By.CSS_SELECTOR, ".vue-flow__controls-zoomout").click()
    mark = wait_for(lambda: badge(browser, "Fail", "error"))[0]
    details = mark.find_element(By.CSS_SELECTOR, "[data-test-id=node-error-details]")
    assert not details.is_displayed()
    ActionChains(browser).move_to_element(mark).perform()
    wait_for(lambda: details.is_displayed())
    assert details.find_element(By.CSS_SELECTOR, ".node-error-message").text == "Order 42 is locked"
    assert details.find_element(By.CSS_SELECTOR, ".node-error-description").text == "Unlock it in the shop first."
    DOCS.mkdir(exist_ok=True)
    browser.save_screenshot(str(DOCS / "editor-node-error.png"))
    assert console_errors(browser) == []


def test_a_manual_run_uses_the_pinned_data(live: LiveServer, browser: Any) -> None:
    data = laid_out(chain_workflow())
    data["pinData"] = {"A": [{"json": {"a": "pinned"}}, {"json": {"a": "pinned too"}}]}
    workflow_id = open_imported(browser, live, data)
    assert badge(browser, "A", "pinned") and not badge(browser, "B", "pinned")
    browser.find_element(By.ID, "run").click()
    execution = finished(browser, live, workflow_id, 1)
    wait_for(lambda: status(browser, "A") == "2 items")
    assert [item["b"] for item in output(execution, "B")] == ["pinned-b", "pinned too-b"]
    assert console_errors(browser) == []


def test_an_approval_flow_approved_from_the_node_panel(live: LiveServer, browser: Any, smtp: SmtpCaptureServer) -> None:
    # a person's browser: the approval page ignores headless browsers and link previews, as n8n's does
    browser.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": BROWSER_UA})
    data = laid_out(approval_workflow(live, smtp), f"Approval {uuid.uuid4().hex[:8]}")
    workflow_id = open_imported(browser, live, data)
    browser.find_element(By.ID, "run").click()
    waiting = finished(browser, live, workflow_id, 1, "waiting")
    wait_for(lambda: badge(browser, "Send Email", "waiting"))
    assert "status-waiting" in classes(browser, "Send Email")
    ActionChains(browser).double_click(node(browser, "Send Email")).perform()
    panel = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-panel]"))[0]
    wait_for(lambda: panel.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-approve]"))
    assert panel.find_element(By.CSS_SELECTOR, "[data-test-id=waiting-approval-message]").text == "Refund order 42"
    resume = panel.find_element(By.CSS_SELECTOR, "[data-test-id=waiting-resume-url]").text
    assert resume.startswith(f"{live.url}/webhook-waiting/{waiting['id']}?signature=")
    assert panel.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-decline]")
    DOCS.mkdir(exist_ok=True)
    browser.save_screenshot(str(DOCS / "editor-approval.png"))
    panel.find_element(By.CSS_SELECTOR, "[data-test-id=waiting-approve]").click()
    done = finished(browser, live, workflow_id, 1, "success")
    assert output(done, "After")[0]["answer"] == "true"
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-panel]"))
    output_panel = browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-output-panel]")
    wait_for(lambda: "approved" in output_panel.text)  # the panel shows the resumed node's output
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-close]").click()
    wait_for(lambda: status(browser, "After") == "1 item")
    assert "status-waiting" not in classes(browser, "Send Email")
    assert console_errors(browser) == []


def test_a_waiting_execution_shows_its_resume_url_and_the_canvas_follows_it_when_called(
    live: LiveServer, browser: Any
) -> None:
    workflow_id = open_imported(browser, live, laid_out(wait_workflow()))
    browser.find_element(By.ID, "run").click()
    waiting = finished(browser, live, workflow_id, 1, "waiting")
    wait_for(lambda: badge(browser, "Wait", "waiting"))
    assert browser.find_elements(By.CSS_SELECTOR, "[data-test-id=stop-execution-button]")  # a waiting run can stop
    ActionChains(browser).double_click(node(browser, "Wait")).perform()
    panel = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-panel]"))[0]
    link = wait_for(lambda: panel.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-resume-url]"))[0]
    resume_url = link.get_attribute("href") or ""
    assert link.text == resume_url and resume_url.startswith(f"{live.url}/webhook-waiting/{waiting['id']}?signature=")
    assert not panel.find_elements(By.CSS_SELECTOR, "[data-test-id=waiting-approve]")  # not an approval request
    # the output of the node it waits in: a note, not an empty item
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=ndv-output-waiting]"))
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-close]").click()
    assert live.client.post(resume_url, json={"ok": 1}).status_code == 200
    finished(browser, live, workflow_id, 1, "success")  # nobody clicked: the canvas followed the resumed run
    wait_for(lambda: status(browser, "After") == "1 item")
    assert not badge(browser, "Wait", "waiting")
    assert console_errors(browser) == []
