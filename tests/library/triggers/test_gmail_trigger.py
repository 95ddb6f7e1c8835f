"""Gmail Trigger's outputs: simplified (labels, headers) and resolved (``simple: false``), drafts left out."""

from __future__ import annotations

from typing import Any

from tests.library.triggers.conftest import add_credential, create_workflow, manual_run
from tests.server.conftest import LiveServer

from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import gmail

NODE = "Gmail Trigger"


def _run(server: LiveServer, simple: bool, filters: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    credential = add_credential(server, "gmailOAuth2", gmail.credential_data())
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.gmailTrigger",
        "typeVersion": 1.3,
        "parameters": {
            "pollTimes": {"item": [{"mode": "everyMinute"}]},
            "simple": simple,
            "filters": filters or {},
            "options": {},
        },
        "credentials": {"gmailOAuth2": credential},
    }
    execution = manual_run(server, create_workflow(server, node)["id"])
    assert execution["status"] == "success", execution["data"]["resultData"].get("error")
    return [item["json"] for item in execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]]


def test_the_simplified_message_has_its_labels_and_headers(server: LiveServer, fake: FakeApiServer) -> None:
    state = gmail.install(fake)
    state.deliver("m1", 1_700_000_000, "Invoice")
    [message] = _run(server, simple=True, filters={"sender": "ada@example.com", "readStatus": "unread"})
    assert message["Subject"] == "Invoice" and message["From"] == "Ada <ada@example.com>"
    assert message["labels"] == [{"id": "INBOX", "name": "INBOX"}, {"id": "UNREAD", "name": "UNREAD"}]
    assert "labelIds" not in message and "headers" not in message["payload"]
    assert state.lists[-1] == {"q": "from:ada@example.com is:unread", "maxResults": "1"}


def test_the_resolved_message_is_parsed_from_raw(server: LiveServer, fake: FakeApiServer) -> None:
    state = gmail.install(fake)
    state.deliver("m2", 1_700_000_000, "Raw one")
    [message] = _run(server, simple=False)
    assert message["id"] == "m2" and message["subject"] == "Raw one"
    assert message["text"].strip() == "Hello"


def test_a_draft_is_left_out(server: LiveServer, fake: FakeApiServer) -> None:
    state = gmail.install(fake)
    state.deliver("d1", 1_700_000_000, "Draft", labels=["DRAFT"])
    credential = add_credential(server, "gmailOAuth2", gmail.credential_data())
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.gmailTrigger",
        "typeVersion": 1.3,
        "parameters": {"simple": True, "filters": {}, "options": {}},
        "credentials": {"gmailOAuth2": credential},
    }
    execution = manual_run(server, create_workflow(server, node)["id"])
    items = execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]
    assert [item["json"] for item in items] == [{}]  # nothing new: the start item passes through, as in n8n
