"""The hosted chat page in a real browser (Debian's Chromium, driven by Selenium through Debian's ChromeDriver):
"Please refund order 42" → the chat shows the approval request → Approve → the agent's answer says the refund
ran; Decline → the refund node never ran; no errors in the browser console. The model is scripted.

Chromium and ChromeDriver come from Debian's packages (``scripts/install_browser.sh``, run by ``scripts/test`` in
CI); without them the tests skip, saying what is missing, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest
from tests.hitl._workflows import refund_call, refund_workflow
from tests.server.conftest import LiveServer, wait_for

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[dev]')")
if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
    _missing = (
        f"Chromium or ChromeDriver is missing ({CHROMIUM}, {CHROMEDRIVER}): run scripts/install_browser.sh "
        "(apt-get install chromium chromium-driver)"
    )
    if os.environ.get("CI") == "true":  # CI installs them (scripts/test): a missing browser is a failure there
        raise RuntimeError(_missing)
    pytest.skip(_missing, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="weft-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


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


def _console_errors(browser: webdriver.Chrome) -> list[dict[str, Any]]:
    return [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]


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
    assert _console_errors(browser) == []


def test_decline_in_the_hosted_chat_never_runs_the_refund(live: LiveServer, browser: webdriver.Chrome) -> None:
    data = _open_chat(live, browser)
    _click(browser, "Decline")
    answer = wait_for(lambda: next((t for t in _bot_texts(browser) if "rejected" in t), None), timeout=20)
    assert "User rejected the tool call to Refund" in answer
    assert _refund_runs(live, data["id"]) == 0
    assert _console_errors(browser) == []


def test_edited_arguments_in_the_hosted_chat_are_what_run(live: LiveServer, browser: webdriver.Chrome) -> None:
    _open_chat(live, browser)
    editor = browser.find_element(By.CSS_SELECTOR, ".tool-parameters")
    editor.clear()
    editor.send_keys('{"input": "41"}')
    _click(browser, "Approve")
    answer = wait_for(lambda: next((t for t in _bot_texts(browser) if "refunded order" in t), None), timeout=20)
    assert answer == 'Result: [{"response":"refunded order 41"}]'
    assert _console_errors(browser) == []
