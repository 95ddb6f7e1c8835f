"""Discord's "Send and Wait for Response" through the real server: the message the fake Discord API receives (the
question as an embed, the link buttons to the signed resume URL), the execution waiting, and the click resuming
it."""

from __future__ import annotations

import uuid

from tests.library.fakes import service_fixture
from tests.library.send_and_wait import approval_workflow, click, resumed_item, wait_for_approval
from tests.server.conftest import LiveServer

from weft.testing.saas import FakeSaasServer, discord

NODE_ID = "00000000-0000-4000-8000-0000000ad002"
saas = service_fixture("discord")


def test_the_question_carries_link_buttons_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"discord-{uuid.uuid4().hex[:8]}"
    params = {"resource": "message", "operation": "sendAndWait",
              "guildId": {"__rl": True, "mode": "id", "value": discord.GUILD}, "sendTo": "user",
              "userId": {"__rl": True, "mode": "id", "value": "1300000000000000002"},
              "message": "=Deploy {{ $json.body.build }}?", "options": {"appendAttribution": False}}  # fmt: skip
    credential = ("discordBotApi", {"botToken": discord.BOT_TOKEN})
    workflow = approval_workflow(live, path, node_type="n8n-nodes-base.discord", version=2, credential=credential,
                                 params=params, node_id=NODE_ID)  # fmt: skip
    execution = wait_for_approval(live, workflow, path, {"build": 7})
    assert saas.requests[0].path == "/api/v10/users/@me/channels"
    sent = saas.requests[-1]
    assert sent.path.endswith("/messages")
    assert sent.body["embeds"] == [{"description": "Deploy 7?", "color": 5814783}]
    [row] = sent.body["components"]
    [approve] = row["components"]
    assert (row["type"], approve["type"], approve["style"], approve["label"]) == (1, 2, 5, "Approve")
    assert approve["url"].startswith(f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved=true&")
    assert click(approve["url"]) == 200
    assert resumed_item(live, execution)["json"]["data"]["approved"] is True
