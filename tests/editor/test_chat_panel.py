"""The canvas chat panel in a real browser (Debian's Chromium through Selenium), driving the live server: a reply
that streams in pieces, a session whose memory lasts until "New session", and approvals asked and answered in the
chat (the deterministic scripted model drives the agent). Its route: ``tests/server/test_chat_editor_route.py``.
Every browser test fails on any console error; the run takes the screenshot ``docs/editor-chat.png``.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.hitl._workflows import refund_call, refund_workflow
from tests.server.conftest import LiveServer, wait_for
from tests.server.test_chat import chat_workflow

from weft.testing.workflows import node

skip_without_browser()

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from tests.editor._pages import canvas_nodes, sign_in  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"
LC = "@n8n/n8n-nodes-langchain."
#: Turn n answers a conversation that already holds n assistant messages: turn 2 needs turn 1 from memory.
MEMORY_TURNS = ["Noted.", "Your name is Ada."]
#: The first turn streams, calls the calculator, and the second turn comes a second later: the reply arrives
#: in at least two pieces the panel shows one after the other.
STREAM_TURNS = [
    {"text": "Let me compute that. ", "tool": "Calculator", "args": {"input": "2+2"}},
    {"text": "It is 4, as the calculator says.", "delay": 1.0},
]


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


def _layout(data: dict[str, Any]) -> dict[str, Any]:
    """A unique name; main nodes in a row, an agent's sub-nodes below it (a sub-node's tool further down)."""
    data["name"] = f"Chat {uuid.uuid4().hex[:8]}"
    subs = {
        name: output for name, outputs in data["connections"].items() for output in outputs if output.startswith("ai_")
    }
    main = [n for n in data["nodes"] if n["name"] not in subs]
    below = [n for n in data["nodes"] if n["name"] in subs]
    for index, each in enumerate(main):
        each["position"] = [index * 260, 0]
    for index, each in enumerate(below):
        feeds_agent = any(t["node"] == "AI Agent" for ts in data["connections"][each["name"]].values() for t in ts[0])
        each["position"] = [160 + index * 160, 220 if feeds_agent else 400]
    return data


def _streaming_workflow() -> dict[str, Any]:
    data, _ = chat_workflow(STREAM_TURNS, options={"responseMode": "streaming"}, memory=False)
    data["nodes"].append({**node("Calculator", LC + "toolCalculator"), "id": str(uuid.uuid4())})
    data["connections"]["Calculator"] = {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]}
    return _layout(data)


def _manual_memory_workflow() -> dict[str, Any]:
    """Manual Chat Trigger → AI Agent (scripted model, Simple Memory): the editor-only chat trigger."""
    data, _ = chat_workflow(MEMORY_TURNS)
    trigger = data["nodes"][0]
    trigger.update(type=LC + "manualChatTrigger", typeVersion=1.1, parameters={})
    trigger.pop("webhookId", None)
    return _layout(data)


def _open_chat(browser: Any, live: LiveServer, data: dict[str, Any]) -> str:
    workflow_id = live.import_workflow(data, activate=False)
    sign_in(browser, live)
    browser.get(f"{live.url}/workflow/{workflow_id}")
    wait_for(lambda: len(canvas_nodes(browser)) == len(data["nodes"]))
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=workflow-chat-button]").click()
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=canvas-chat]"))
    return workflow_id


def _messages(browser: Any) -> list[WebElement]:
    return browser.find_elements(By.CSS_SELECTOR, "[data-test-id=chat-message]")  # type: ignore[no-any-return]


def _texts(browser: Any) -> list[tuple[str, str]]:
    """``(sender, text)`` of each message of the panel."""
    found = []
    for each in _messages(browser):
        text = each.find_element(By.CSS_SELECTOR, ".chat-message-text").text
        found.append((str(each.get_attribute("data-sender")), text))
    return found


def _send(browser: Any, text: str) -> None:
    box = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-input]")
    wait_for(box.is_enabled)
    box.send_keys(text)
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-send-button]").click()


def _replied(browser: Any, count: int) -> list[tuple[str, str]]:
    """Wait until the panel holds ``count`` messages and the last reply has finished; the messages."""

    def done() -> list[tuple[str, str]] | None:
        found = _messages(browser)
        if len(found) != count or found[-1].get_attribute("data-streaming") != "false":
            return None
        return _texts(browser)

    result: list[tuple[str, str]] = wait_for(done, timeout=20)
    return result


#: Records the last bot message's text each time the panel's DOM changes while that message streams.
OBSERVE = """
window.__replies = [];
const list = document.querySelector('[data-test-id=chat-messages]');
new MutationObserver(() => {
  const bots = list.querySelectorAll('[data-sender=bot]');
  const last = bots[bots.length - 1];
  if (last && last.dataset.streaming === 'true') {
    window.__replies.push(last.querySelector('.chat-message-text').textContent);
  }
}).observe(list, {childList: true, subtree: true, characterData: true, attributes: true});
"""


def test_the_reply_streams_into_the_panel_piece_by_piece(browser: Any, live: LiveServer) -> None:
    _open_chat(browser, live, _streaming_workflow())
    browser.execute_script(OBSERVE)
    _send(browser, "What is 2+2?")
    messages = _replied(browser, 2)
    final = "Let me compute that. \n\nIt is 4, as the calculator says."
    assert messages == [("user", "What is 2+2?"), ("bot", final)]
    seen: list[str] = browser.execute_script("return window.__replies")
    pieces = [text for text in dict.fromkeys(seen) if text and text != "…"]
    # the panel showed the reply before it was whole, in more than one update
    assert len(pieces) >= 2, seen
    assert all(final.startswith(p.rstrip()) for p in pieces), seen
    assert any(len(p.rstrip()) < len(final) for p in pieces), seen
    assert console_errors(browser) == []


def test_a_session_remembers_until_new_session(browser: Any, live: LiveServer) -> None:
    data = _manual_memory_workflow()
    workflow_id = _open_chat(browser, live, data)
    _send(browser, "My name is Ada")
    assert _replied(browser, 2)[-1] == ("bot", MEMORY_TURNS[0])
    _send(browser, "What is my name?")
    assert _replied(browser, 4)[-1] == ("bot", MEMORY_TURNS[1])  # the agent read turn 1 from memory

    # reopened, the panel lists the session's messages from the server's memory
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-close]").click()
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=workflow-chat-button]").click()
    listed = wait_for(lambda: len(_messages(browser)) == 4 and _texts(browser))
    assert listed == [
        ("user", "My name is Ada"),
        ("bot", MEMORY_TURNS[0]),
        ("user", "What is my name?"),
        ("bot", MEMORY_TURNS[1]),
    ]

    old = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-session-id]").get_attribute("title")
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-new-session]").click()
    wait_for(lambda: not _messages(browser))
    new = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-session-id]").get_attribute("title")
    assert new and new != old
    _send(browser, "What is my name?")
    # a fresh memory: the model sees no earlier turn and answers with its first one
    assert _replied(browser, 2) == [("user", "What is my name?"), ("bot", MEMORY_TURNS[0])]
    assert len(live.instance.store.memory.load(f"{workflow_id}__{new}")) == 2
    assert console_errors(browser) == []


def test_an_approval_flow_approved_from_the_chat_panel(browser: Any, live: LiveServer) -> None:
    data, _ = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
    workflow_id = _open_chat(browser, live, _layout(data))
    _send(browser, "Please refund order 42")
    question = _replied(browser, 2)[-1]
    assert question[0] == "bot" and question[1].startswith("The agent wants to run this tool: Refund")
    buttons = browser.find_elements(By.CSS_SELECTOR, "[data-test-id=chat-approval-button]")
    assert [b.text for b in buttons] == ["Approve", "Decline"]
    arguments = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-tool-arguments]").get_attribute("value")
    assert json.loads(arguments or "") == {"input": "42"}
    [waiting] = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "waiting"])

    buttons[0].click()
    messages = _replied(browser, 4)
    assert messages[2:] == [("user", "Approve"), ("bot", 'Result: [{"response":"refunded order 42"}]')]
    assert all(
        not b.is_enabled() for b in browser.find_elements(By.CSS_SELECTOR, "[data-test-id=chat-approval-button]")
    )
    done = live.wait_status(waiting["id"], "success")
    run_data = live.execution(done["id"])["data"]["resultData"]["runData"]
    assert run_data["Approve"][0]["data"]["ai_tool"][0][0]["json"]["data"]["approved"] is True
    assert run_data["Refund"][0]["data"]["ai_tool"][0][0]["json"] == {"response": "refunded order 42"}
    # the canvas shows the statuses of the run the chat finished
    wait_for(
        lambda: (
            "success"
            in (browser.find_element(By.ID, "message").text if browser.find_elements(By.ID, "message") else "")
        )
    )
    browser.find_element(By.ID, "fit").click()  # the whole workflow beside the panel
    time.sleep(0.5)  # Vue Flow's fit animation, for the picture only
    browser.save_screenshot(str(DOCS / "editor-chat.png"))
    assert console_errors(browser) == []


def test_edited_tool_arguments_run_when_approved(browser: Any, live: LiveServer) -> None:
    data, _ = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
    _open_chat(browser, live, _layout(data))
    _send(browser, "Please refund order 42")
    _replied(browser, 2)
    box = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-tool-arguments]")
    approve = browser.find_element(By.CSS_SELECTOR, "[data-test-id=chat-approval-button]")
    box.clear()
    box.send_keys('{"input": ')
    approve.click()  # not JSON: nothing is sent, the panel says why
    alert = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".chat-panel [role=alert]"))
    assert "not valid JSON" in alert[0].text
    assert approve.is_enabled() and len(_messages(browser)) == 2
    box.send_keys('"43"}')
    approve.click()
    assert _replied(browser, 4)[-1] == ("bot", 'Result: [{"response":"refunded order 43"}]')
    assert console_errors(browser) == []


def test_a_waiting_question_is_still_answerable_after_a_reload(browser: Any, live: LiveServer) -> None:
    data, _ = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
    workflow_id = _open_chat(browser, live, _layout(data))
    _send(browser, "Please refund order 42")
    _replied(browser, 2)
    browser.refresh()
    wait_for(lambda: len(canvas_nodes(browser)) == len(data["nodes"]))
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=workflow-chat-button]").click()
    buttons = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=chat-approval-button]"))
    assert _texts(browser)[-1][1].startswith("The agent wants to run this tool: Refund")
    buttons[0].click()
    assert _replied(browser, 3)[-1] == ("bot", 'Result: [{"response":"refunded order 42"}]')
    assert [r["status"] for r in live.executions(workflow_id)] == ["success"]
    assert console_errors(browser) == []


def test_a_streamed_chat_shows_the_question_and_declining_answers(browser: Any, live: LiveServer) -> None:
    data, _ = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
    data["nodes"][0]["parameters"]["options"] = {"responseMode": "streaming"}
    workflow_id = _open_chat(browser, live, _layout(data))
    _send(browser, "Please refund order 42")
    question = _replied(browser, 2)[-1]
    assert question == ("bot", "The agent wants to run this tool: Refund\n\nInput:\n[object Object]")
    # the stream carries the question's text; its buttons come from the waiting run's data
    buttons = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "[data-test-id=chat-approval-button]"))
    assert [b.text for b in buttons] == ["Approve", "Decline"]
    buttons[1].click()
    messages = _replied(browser, 4)
    assert messages[2] == ("user", "Decline")
    assert messages[3][1].startswith('Result: [{"output":"User rejected the tool call to Refund')
    [row] = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "success"])
    assert "Refund" not in live.execution(row["id"])["data"]["resultData"]["runData"]
    assert console_errors(browser) == []
