"""The executions list in a real browser: the page of all executions (``/home/executions``) and the canvas's
panel — filter by status, workflow and date, open one read-only, retry a failed one (with the original and with
the currently saved workflow), delete one (after a confirm), and the list refreshing by itself while one runs.
Each test fails on a browser console error."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import canvas_nodes, sign_in, status
from tests.server.conftest import LiveServer, wait_for

from weft.testing.workflows import connect, node, workflow

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _create(live: LiveServer, *, fail: bool, name: str = "", middle: dict[str, Any] | None = None) -> str:
    last = node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "bad"}) if fail else node("Done")
    second = middle or last
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"), second, connect("Start", second["name"]))
    body = {**data, "name": name or f"executions {uuid.uuid4().hex[:6]}", "id": uuid.uuid4().hex[:16]}
    response = live.client.post("/rest/workflows", json=body)
    assert response.status_code == 201, response.text
    workflow_id: str = response.json()["data"]["id"]
    return workflow_id


def _run(live: LiveServer, workflow_id: str, *, wait: bool = True) -> str:
    params = {} if wait else {"wait": "false"}
    execution_id: str = live.client.post(f"/rest/workflows/{workflow_id}/run", params=params).json()["data"][
        "executionId"
    ]
    return execution_id


def _rows(driver: Any) -> list[dict[str, str]]:
    """The shown rows: id, status, mode, workflow name and the "Retry of" note (re-read when the list re-renders)."""
    try:
        return [
            {
                "id": r.get_attribute("data-id") or "",
                "status": r.get_attribute("data-status") or "",
                "mode": r.find_element(By.CSS_SELECTOR, ".execution-mode").text,
                "duration": r.find_element(By.CSS_SELECTOR, ".execution-duration").text,
                "workflow": "".join(e.text for e in r.find_elements(By.CSS_SELECTOR, ".execution-workflow")),
                "retryOf": "".join(e.text for e in r.find_elements(By.CSS_SELECTOR, ".execution-retry-of")),
            }
            for r in driver.find_elements(By.CSS_SELECTOR, ".execution-row")
        ]
    except StaleElementReferenceException:
        return []


def _row(driver: Any, execution_id: str) -> Any:
    return wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, f'.execution-row[data-id="{execution_id}"]'))[0]


def _filter_workflow(driver: Any, workflow_id: str) -> None:
    """Pick the workflow in the filter once the page has listed it (the workflows load after the page)."""
    css = f'[data-test-id="executions-filter-workflow"] option[value="{workflow_id}"]'
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, css))
    Select(driver.find_element(By.CSS_SELECTOR, '[data-test-id="executions-filter-workflow"]')).select_by_value(
        workflow_id
    )


def _open_page(driver: Any, live: LiveServer) -> None:
    sign_in(driver, live)
    driver.find_element(By.ID, "nav-executions").click()
    wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, '[data-test-id="executions-list"]'))
    assert driver.current_url.endswith("/home/executions")


def _set_date(driver: Any, test_id: str, value: str) -> None:
    box = driver.find_element(By.CSS_SELECTOR, f'[data-test-id="{test_id}"]')
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, value
    )


def test_the_page_filters_by_status_workflow_and_date(live: LiveServer, browser: Any) -> None:
    good = _create(live, fail=False, name="filter good")
    bad = _create(live, fail=True, name="filter bad")
    ok, failed = _run(live, good), _run(live, bad)
    _open_page(browser, live)
    shown = wait_for(lambda: {r["id"]: r for r in _rows(browser)}.keys() >= {ok, failed} and _rows(browser))
    by_id = {r["id"]: r for r in shown}
    assert by_id[ok]["status"] == "success" and by_id[failed]["status"] == "error"
    assert by_id[ok]["workflow"] == "filter good" and by_id[ok]["mode"] == "manual"
    assert by_id[ok]["duration"].endswith(("ms", "s"))
    browser.save_screenshot(str(DOCS / "editor-executions.png"))
    assert _row(browser, ok).find_element(By.CSS_SELECTOR, ".execution-status").value_of_css_property("color") != (
        _row(browser, failed).find_element(By.CSS_SELECTOR, ".execution-status").value_of_css_property("color")
    )

    status_box = Select(browser.find_element(By.CSS_SELECTOR, '[data-test-id="executions-filter-status"]'))
    status_box.select_by_value("error")
    wait_for(lambda: (rows := _rows(browser)) and ok not in {r["id"] for r in rows})
    rows = _rows(browser)
    assert failed in {r["id"] for r in rows} and {r["status"] for r in rows} <= {"error", "crashed"}

    status_box.select_by_value("")
    _filter_workflow(browser, good)
    wait_for(lambda: [r["id"] for r in _rows(browser)] == [ok])
    count = browser.find_element(By.CSS_SELECTOR, ".executions-count").text
    assert count == "1 execution"
    _set_date(browser, "executions-filter-after", "2999-01-01T00:00")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".executions-page .empty"))
    assert _rows(browser) == []
    _set_date(browser, "executions-filter-after", "2000-01-01T00:00")
    wait_for(lambda: [r["id"] for r in _rows(browser)] == [ok])
    assert console_errors(browser) == []


def test_a_row_opens_the_execution_read_only_on_the_canvas(live: LiveServer, browser: Any) -> None:
    workflow_id = _create(live, fail=True, name="open read-only")
    failed = _run(live, workflow_id)
    _open_page(browser, live)
    _row(browser, failed).find_element(By.CSS_SELECTOR, "a.execution-open").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".read-only") and status(browser, "Fail"))
    assert browser.current_url.endswith(f"/workflow/{workflow_id}/executions/{failed}")
    assert len(canvas_nodes(browser)) == 2
    assert status(browser, "Start") == "1 item" and status(browser, "Fail") == "error"
    assert not browser.find_elements(By.ID, "save")  # read-only: no editing
    assert console_errors(browser) == []


def test_retry_a_failed_one_from_the_canvas_panel_with_either_workflow(live: LiveServer, browser: Any) -> None:
    workflow_id = _create(live, fail=True, name="retry in panel")
    failed = _run(live, workflow_id)
    sign_in(browser, live)
    browser.get(f"{live.url}/workflow/{workflow_id}")
    wait_for(lambda: len(canvas_nodes(browser)) == 2)
    browser.find_element(By.ID, "executions").click()
    row = _row(browser, failed)
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-retry"]').click()
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-retry-original"]').click()
    again = wait_for(lambda: len(rows := _rows(browser)) == 2 and rows)[0]
    assert again["mode"] == "retry" and again["status"] == "error" and again["retryOf"] == f"Retry of #{failed}"

    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    fixed = [n if n["name"] != "Fail" else node("Fail") for n in saved["nodes"]]
    assert live.client.patch(f"/rest/workflows/{workflow_id}", json={**saved, "nodes": fixed}).status_code == 200
    row = _row(browser, failed)
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-retry"]').click()
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-retry-saved"]').click()
    newest = wait_for(lambda: len(rows := _rows(browser)) == 3 and rows)[0]
    assert newest["status"] == "success" and newest["retryOf"] == f"Retry of #{failed}"
    assert browser.find_element(By.CSS_SELECTOR, ".executions-message").text == "Retry successful"
    # a failed execution that a retry fixed offers no retry any more, as n8n
    wait_for(lambda: not _row(browser, failed).find_elements(By.CSS_SELECTOR, '[data-test-id="execution-retry"]'))
    listed = live.client.get("/rest/executions", params={"workflowId": workflow_id}).json()
    assert [r["mode"] for r in listed["data"]] == ["retry", "retry", "manual"] and listed["count"] == 3
    assert console_errors(browser) == []


def test_the_panel_filters_by_status(live: LiveServer, browser: Any) -> None:
    workflow_id = _create(live, fail=True, name="panel filter")
    failed = _run(live, workflow_id)
    live.client.post(f"/rest/executions/{failed}/retry")
    sign_in(browser, live)
    browser.get(f"{live.url}/workflow/{workflow_id}")
    wait_for(lambda: len(canvas_nodes(browser)) == 2)
    browser.find_element(By.ID, "executions").click()
    wait_for(lambda: len(_rows(browser)) == 2)
    panel = browser.find_element(By.CSS_SELECTOR, '[data-test-id="executions-panel"]')
    Select(panel.find_element(By.CSS_SELECTOR, '[data-test-id="executions-filter-status"]')).select_by_value("success")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".executions .empty"))
    Select(panel.find_element(By.CSS_SELECTOR, '[data-test-id="executions-filter-status"]')).select_by_value("error")
    wait_for(lambda: len(_rows(browser)) == 2)
    assert not panel.find_elements(By.CSS_SELECTOR, '[data-test-id="executions-filter-workflow"]')  # one workflow
    assert console_errors(browser) == []


def test_delete_one_after_a_confirm(live: LiveServer, browser: Any) -> None:
    workflow_id = _create(live, fail=False, name="delete one")
    kept, gone = _run(live, workflow_id), _run(live, workflow_id)
    _open_page(browser, live)
    _filter_workflow(browser, workflow_id)
    wait_for(lambda: [r["id"] for r in _rows(browser)] == [gone, kept])
    row = _row(browser, gone)
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-delete"]').click()
    row.find_element(By.CSS_SELECTOR, ".execution-delete-cancel").click()  # changed my mind: nothing happens
    assert live.client.get(f"/rest/executions/{gone}").status_code == 200
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-delete"]').click()
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-delete-confirm"]').click()
    wait_for(lambda: [r["id"] for r in _rows(browser)] == [kept])
    assert live.client.get(f"/rest/executions/{gone}").status_code == 404
    assert browser.find_element(By.CSS_SELECTOR, ".executions-message").text == "Execution deleted"
    assert console_errors(browser) == []


def test_a_running_execution_shows_running_and_the_list_refreshes_by_itself(live: LiveServer, browser: Any) -> None:
    # 6 s: long enough for the list to show it running on a busy machine
    wait = node("Wait", "n8n-nodes-base.wait", {"resume": "timeInterval", "amount": 6, "unit": "seconds"}, version=1.1)
    workflow_id = _create(live, fail=False, name="running", middle=wait)
    _open_page(browser, live)
    running = _run(live, workflow_id, wait=False)
    browser.find_element(By.CSS_SELECTOR, ".refresh").click()
    wait_for(lambda: _row(browser, running).get_attribute("data-status") == "running")
    assert _row(browser, running).find_element(By.CSS_SELECTOR, ".execution-duration").text.endswith("s")  # so far
    # no click: the list follows the running execution until it is over
    wait_for(lambda: _row(browser, running).get_attribute("data-status") == "success", timeout=30)
    assert _row(browser, running).find_element(By.CSS_SELECTOR, ".execution-duration").text.endswith("s")
    assert console_errors(browser) == []


def test_a_waiting_execution_says_what_it_waits_for_and_stops(live: LiveServer, browser: Any) -> None:
    wait = node("Wait", "n8n-nodes-base.wait", {"resume": "webhook"}, version=1.1)
    workflow_id = _create(live, fail=False, name="waiting", middle=wait)
    waiting = _run(live, workflow_id, wait=False)
    live.wait_status(waiting, "waiting")
    _open_page(browser, live)
    row = _row(browser, waiting)
    assert row.get_attribute("data-status") == "waiting"
    assert row.find_element(By.CSS_SELECTOR, ".execution-duration").text == "until it is called"
    assert not row.find_elements(By.CSS_SELECTOR, '[data-test-id="execution-retry"]')  # not failed: no retry
    row.find_element(By.CSS_SELECTOR, '[data-test-id="execution-stop"]').click()
    wait_for(lambda: _row(browser, waiting).get_attribute("data-status") == "canceled")
    assert live.execution(waiting)["status"] == "canceled"
    assert _row(browser, waiting).find_elements(By.CSS_SELECTOR, '[data-test-id="execution-retry"]')  # now it can
    assert not _row(browser, waiting).find_elements(By.CSS_SELECTOR, '[data-test-id="execution-stop"]')
    assert console_errors(browser) == []


def test_load_more_pages_through_the_list(live: LiveServer, browser: Any) -> None:
    workflow_id = _create(live, fail=False, name="many runs")
    ran = [_run(live, workflow_id) for _ in range(23)]
    _open_page(browser, live)
    _filter_workflow(browser, workflow_id)
    wait_for(lambda: [r["id"] for r in _rows(browser)] == ran[::-1][:20])  # n8n's page: 20
    assert browser.find_element(By.CSS_SELECTOR, ".executions-count").text == "23 executions"
    browser.find_element(By.CSS_SELECTOR, ".load-more").click()
    wait_for(lambda: [r["id"] for r in _rows(browser)] == ran[::-1])
    assert not browser.find_elements(By.CSS_SELECTOR, ".load-more")  # the last page
    assert console_errors(browser) == []
