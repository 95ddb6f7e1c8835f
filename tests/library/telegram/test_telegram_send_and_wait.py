"""Telegram's "Send and Wait for Response" through the real server: the message the fake Bot API receives (its
text, Markdown, the link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import uuid

from tests.library.fakes import service_fixture
from tests.library.send_and_wait import approval_workflow, click, resumed_item, wait_for_approval
from tests.server.conftest import LiveServer

from weft.testing.saas import FakeSaasServer, telegram

NODE_ID = "00000000-0000-4000-8000-0000000ab002"
saas = service_fixture("telegram")


def test_the_question_carries_signed_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"tg-{uuid.uuid4().hex[:8]}"
    params = {"operation": "sendAndWait", "chatId": "555000111", "message": "=Refund order {{ $json.body.order }}?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Yes", "disapproveLabel": "No"}},
              "options": {"appendAttribution": False}}  # fmt: skip
    credential = ("telegramApi", {"accessToken": telegram.TOKEN, "baseUrl": "https://api.telegram.org"})
    workflow = approval_workflow(live, path, node_type="n8n-nodes-base.telegram", version=1.2, credential=credential,
                                 params=params, node_id=NODE_ID)  # fmt: skip
    execution = wait_for_approval(live, workflow, path, {"order": 42})
    [sent] = [r for r in saas.requests if r.path.endswith("/sendMessage")]
    assert sent.body["chat_id"] == "555000111" and sent.body["text"] == "Refund order 42?"
    assert sent.body["parse_mode"] == "Markdown" and sent.body["disable_web_page_preview"] is True
    [[decline, approve]] = sent.body["reply_markup"]["inline_keyboard"]
    assert (decline["text"], approve["text"]) == ("No", "Yes")
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    assert decline["url"].startswith(prefix + "false&signature=")
    assert approve["url"].startswith(prefix + "true&signature=")
    assert click(approve["url"].replace("approved=true", "approved=false")) == 401
    assert click(approve["url"]) == 200
    assert resumed_item(live, execution)["json"]["data"]["approved"] is True
