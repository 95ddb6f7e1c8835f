"""The hosted chat page in a real browser (Debian's Chromium, driven by Selenium through Debian's ChromeDriver):
"Please refund order 42" → the chat shows the approval request → Approve → the agent's answer says the refund
ran; Decline → the refund node never ran; no errors in the browser console. The model is scripted.

Chromium and ChromeDriver come from Debian's packages (``scripts/install_browser.sh``, run by ``scripts/test`` in
CI); without them the tests skip, saying what is missing, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests._browser import chromium, console_errors, skip_without_browser
from tests.hitl._workflows import refund_call, refund_workflow
from tests.server.conftest import LiveServer, wait_for

skip_without_browser()

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    yield from chromium()


def _open_chat(live: LiveServer, browser: webdriver.Chrome) -> dict[str, Any]:
    data, webhook_id = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
    live.instance.store.workflows.import_workflow(data, activate=True)
    browser.get(f"{live.url}/webhook/{webhook_id}/chat")
    box = browser.find_element(By.ID, "input")
    box.send_keys("Please refund order 42")
    box.send_keys(Keys.ENTER)
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".approval-button"), timeout=20)
    return data


def _bot_texts(browser: webdriver.Chrome) -> list[str]:
    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".chat-message.bot")]


def _click(browser: webdriver.Chrome, label: str) -> None:
    next(b for b in browser.find_elements(By.CSS_SELECTOR, ".approval-button") if b.text == label).click()


def _refund_runs(live: LiveServer, workflow_id: str) -> int:
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "success"])
    response = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True})
    return len(response.json()["data"]["data"]["resultData"]["runData"].get("Refund", []))


def test_approve_in_the_hosted_chat_runs_the_refund(live: LiveServer, browser: webdriver.Chrome) -> None:
    data = _open_chat(live, browser)
    question = _bot_texts(browser)[-1]
    assert question.startswith("The agent wants to run this tool: Refund")
    assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, ".approval-button")] == ["Approve", "Decline"]
    _click(browser, "Approve")
    answer = wait_for(lambda: next((t for t in _bot_texts(browser) if "refunded order 42" in t), None), timeout=20)
    assert answer == 'Result: [{"response":"refunded order 42"}]'
    assert _refund_runs(live, data["id"]) == 1
    assert console_errors(browser) == []


def test_decline_in_the_hosted_chat_never_runs_the_refund(live: LiveServer, browser: webdriver.Chrome) -> None:
    data = _open_chat(live, browser)
    _click(browser, "Decline")
    answer = wait_for(lambda: next((t for t in _bot_texts(browser) if "rejected" in t), None), timeout=20)
    assert "User rejected the tool call to Refund" in answer
    assert _refund_runs(live, data["id"]) == 0
    assert console_errors(browser) == []


def test_edited_arguments_in_the_hosted_chat_are_what_run(live: LiveServer, browser: webdriver.Chrome) -> None:
    _open_chat(live, browser)
    editor = browser.find_element(By.CSS_SELECTOR, ".tool-parameters")
    editor.clear()
    editor.send_keys('{"input": "41"}')
    _click(browser, "Approve")
    answer = wait_for(lambda: next((t for t in _bot_texts(browser) if "refunded order" in t), None), timeout=20)
    assert answer == 'Result: [{"response":"refunded order 41"}]'
    assert console_errors(browser) == []
