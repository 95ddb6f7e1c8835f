"""Gmail's "Send and Wait for Response" through the real server: the mail the fake Gmail API receives (HTML with
link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import re
import uuid

from tests.library.fakes import service_fixture
from tests.library.send_and_wait import approval_workflow, click, resumed_item, wait_for_approval
from tests.server.conftest import LiveServer

from weft.testing.saas import FakeSaasServer, gmail

NODE_ID = "00000000-0000-4000-8000-0000000ab202"
saas = service_fixture("gmail")


def test_the_mail_carries_signed_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"gm-{uuid.uuid4().hex[:8]}"
    params = {"operation": "sendAndWait", "sendTo": "boss@example.com", "subject": "=Refund {{ $json.body.order }}?",
              "message": "Shall we refund it?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Yes", "disapproveLabel": "No"}},
              "options": {"appendAttribution": False}}  # fmt: skip
    token = {"access_token": gmail.TOKEN}
    credential = ("gmailOAuth2", {"clientId": "c", "clientSecret": "s", "oauthTokenData": token})
    workflow = approval_workflow(live, path, node_type="n8n-nodes-base.gmail", version=2.1, credential=credential,
                                 params=params, node_id=NODE_ID)  # fmt: skip
    execution = wait_for_approval(live, workflow, path, {"order": 42})
    [mail] = saas.__dict__["state"]["gmail"]["sent"]
    assert mail["To"] == [["", "boss@example.com"]] and mail["Subject"] == "Refund 42?"
    assert "Shall we refund it?" in mail["text/html"] and "n8n.io" not in mail["text/html"]
    links = re.findall(r'href="([^"]+)"', mail["text/html"])
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    [decline] = [link.replace("&amp;", "&") for link in links if link.startswith(prefix + "false")]
    [approve] = [link.replace("&amp;", "&") for link in links if link.startswith(prefix + "true")]
    assert click(decline.replace("approved=false", "approved=true")) == 401
    assert click(approve) == 200
    assert resumed_item(live, execution)["json"]["data"]["approved"] is True
