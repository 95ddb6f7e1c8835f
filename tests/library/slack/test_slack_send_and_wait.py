"""Slack's "Send Message and Wait for Response" through the real server: the blocks the fake Slack API receives
(the question, the link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import uuid

from tests.library.fakes import service_fixture
from tests.library.send_and_wait import approval_workflow, click, resumed_item, wait_for_approval
from tests.server.conftest import LiveServer

from weft.testing.saas import FakeSaasServer
from weft.testing.saas import _slack_data as data

NODE_ID = "00000000-0000-4000-8000-0000000ac002"
saas = service_fixture("slack")


def test_the_question_carries_signed_buttons_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"slack-{uuid.uuid4().hex[:8]}"
    params = {"operation": "sendAndWait", "select": "channel",
              "channelId": {"__rl": True, "mode": "id", "value": "C03DEPLOYS"},
              "message": "=Deploy {{ $json.body.build }}?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Ship",
                                             "disapproveLabel": "Stop"}},
              "options": {"thread_ts": {"replyValues": {"thread_ts": "1735696000.000000"}}}}  # fmt: skip
    credential = ("slackApi", {"accessToken": data.BOT_TOKEN})
    workflow = approval_workflow(live, path, node_type="n8n-nodes-base.slack", version=2.4, credential=credential,
                                 params=params, node_id=NODE_ID)  # fmt: skip
    execution = wait_for_approval(live, workflow, path, {"build": 42})
    [sent] = [r for r in saas.requests if r.path == "/api/chat.postMessage"]
    assert sent.body["channel"] == "C03DEPLOYS" and sent.body["thread_ts"] == "1735696000.000000"
    divider, question, blank, _, actions, attribution = sent.body["blocks"]
    assert question == {"type": "section", "text": {"type": "mrkdwn", "text": "Deploy 42?"}}
    assert divider == {"type": "divider"} and blank["text"]["text"] == " "
    assert attribution["text"]["text"].startswith("This message was sent automatically with  _<https://n8n.io/")
    stop, ship = actions["elements"]
    assert (stop["text"]["text"], ship["text"]["text"], ship["style"]) == ("Stop", "Ship", "primary")
    assert "style" not in stop
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    assert stop["url"].startswith(prefix + "false&signature=") and ship["url"].startswith(prefix + "true&signature=")
    assert click(ship["url"].replace("approved=true", "approved=false")) == 401
    assert click(ship["url"]) == 200
    assert resumed_item(live, execution)["json"]["data"]["approved"] is True
