"""A multi-page form in a real browser (Debian's Chromium, driven by Selenium through Debian's ChromeDriver): fill
the first page (text, dropdown, checkboxes, a file), submit, see the next page, submit it, see the ending; the
execution has both pages' answers and the file as binary data; the browser console stays free of errors.

Chromium and ChromeDriver come from Debian's packages (``scripts/install_browser.sh``, run by ``scripts/test`` in
CI); without them the tests skip, saying what is missing, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests._browser import chromium, console_errors, skip_without_browser
from tests.server.conftest import LiveServer, wait_for

skip_without_browser()

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

CONTENT = b"hello from the browser\n"


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    yield from chromium()


def _node(name: str, kind: str, version: float, parameters: dict[str, Any], x: int) -> dict[str, Any]:
    return {
        "parameters": parameters,
        "name": name,
        "type": f"n8n-nodes-base.{kind}",
        "typeVersion": version,
        "position": [x, 0],
        "id": uuid.uuid4().hex,
        "webhookId": uuid.uuid4().hex,
    }


def _workflow(path: str) -> dict[str, Any]:
    fields = [
        {"fieldLabel": "Name", "requiredField": True},
        {
            "fieldLabel": "Color",
            "fieldType": "dropdown",
            "fieldOptions": {"values": [{"option": "red"}, {"option": "blue"}]},
        },
        {"fieldLabel": "Tags", "fieldType": "checkbox", "fieldOptions": {"values": [{"option": "a"}, {"option": "b"}]}},
        {"fieldLabel": "Upload", "fieldType": "file", "multipleFiles": False},
    ]
    trigger = _node(
        "On form submission",
        "formTrigger",
        2.3,
        {"formTitle": "Step one", "formFields": {"values": fields}, "options": {"path": path}},
        0,
    )
    page = _node(
        "Page 2",
        "form",
        2.3,
        {
            "formFields": {"values": [{"fieldLabel": "Rating", "fieldType": "number", "requiredField": True}]},
            "options": {"formTitle": "Page two"},
        },
        200,
    )
    ending = _node(
        "Ending",
        "form",
        2.3,
        {"operation": "completion", "completionTitle": "Thanks!", "completionMessage": "All done"},
        400,
    )
    link = lambda a, b: {a: {"main": [[{"node": b, "type": "main", "index": 0}]]}}  # noqa: E731
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"browser form {path}",
        "nodes": [trigger, page, ending],
        "connections": {**link(trigger["name"], "Page 2"), **link("Page 2", "Ending")},
        "settings": {"executionOrder": "v1"},
    }


_VISIBLE_H1 = (
    "return Array.from(document.querySelectorAll('h1')).filter(e => e.offsetParent !== null)"
    ".map(e => e.textContent.trim())"
)


def _h1(browser: webdriver.Chrome) -> list[str]:
    """The visible headings, read in one step (the page may be navigating)."""
    try:
        headings: list[str] = browser.execute_script(_VISIBLE_H1)
    except WebDriverException:
        return []
    return headings


def test_a_multi_page_form_with_an_upload(live: LiveServer, browser: webdriver.Chrome, tmp_path: Path) -> None:
    path = f"browser-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(path))
    upload = tmp_path / "note.txt"
    upload.write_bytes(CONTENT)
    browser.get(f"{live.url}/form/{path}")
    assert _h1(browser) == ["Step one"]
    browser.find_element(By.ID, "field-0").send_keys("Ada")
    Select(browser.find_element(By.ID, "field-1")).select_by_visible_text("blue")
    browser.find_element(By.CSS_SELECTOR, "label[for='option1_field-2']").click()
    browser.find_element(By.ID, "field-3").send_keys(str(upload))
    browser.find_element(By.ID, "submit-btn").click()
    wait_for(lambda: _h1(browser) == ["Page two"], timeout=20)
    assert "signature" not in browser.current_url  # kept by the page, not shown
    browser.find_element(By.ID, "field-0").send_keys("5")
    browser.find_element(By.ID, "submit-btn").click()
    wait_for(lambda: _h1(browser) == ["Thanks!"], timeout=20)
    assert "All done" in browser.page_source
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "success"], timeout=20)
    data = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"]
    run_data = data["data"]["resultData"]["runData"]
    first = run_data["On form submission"][0]["data"]["main"][0][0]
    assert {k: first["json"][k] for k in ("Name", "Color", "Tags", "formMode")} == {
        "Name": "Ada", "Color": "blue", "Tags": ["b"], "formMode": "production",
    }  # fmt: skip
    entry = first["binary"]["Upload"]
    assert (entry["fileName"], entry["mimeType"], entry["bytes"]) == ("note.txt", "text/plain", len(CONTENT))
    assert asyncio.run(live.instance.runner.options.binary_data.get_bytes(entry)) == CONTENT
    assert run_data["Page 2"][0]["data"]["main"][0][0]["json"]["Rating"] == 5
    assert run_data["Ending"][0]["data"]["main"][0][0]["json"]["Rating"] == 5
    assert console_errors(browser) == []


def test_a_one_page_form_shows_its_text_and_runs_no_injected_script(
    live: LiveServer, browser: webdriver.Chrome
) -> None:
    path = f"browser-{uuid.uuid4().hex[:8]}"
    xss = '<img src="data:," onerror="window.__xss=1"><script>window.__xss=2</script>'
    fields = [
        {"fieldLabel": f"Name {xss}", "requiredField": True, "placeholder": xss},
        {"fieldType": "html", "html": f"<b>Hi</b>{xss}"},
    ]
    options = {
        "path": path,
        "respondWithOptions": {"values": {"respondWith": "text", "formSubmittedText": f"Thanks {xss}"}},
    }
    trigger = _node(
        "On form submission",
        "formTrigger",
        2.3,
        {"formTitle": xss, "formDescription": xss, "formFields": {"values": fields}, "options": options},
        0,
    )
    data = {
        "id": uuid.uuid4().hex[:16],
        "name": f"browser xss {path}",
        "nodes": [trigger],
        "connections": {},
        "settings": {"executionOrder": "v1"},
    }
    workflow_id = live.import_workflow(data)
    browser.get(f"{live.url}/form/{path}?field-0={xss}")
    browser.find_element(By.ID, "submit-btn").click()  # the required field is empty: the page says so
    assert browser.find_element(By.CSS_SELECTOR, ".error-field-0").text == "This field is required"
    browser.find_element(By.ID, "field-0").send_keys("Ada")
    browser.find_element(By.ID, "submit-btn").click()
    wait_for(lambda: _h1(browser) == ["Form Submitted"], timeout=20)
    assert browser.find_element(By.ID, "submitted-content").text == f"Thanks {xss}"
    assert browser.execute_script("return window.__xss === undefined")
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "success"], timeout=20)
    assert len(rows) == 1
    assert console_errors(browser) == []
