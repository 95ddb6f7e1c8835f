"""The Twilio node against the fake Twilio API (``weft.testing.saas.twilio``, served as the HTTPS proxy for
``api.twilio.com``): the form each operation posts (WhatsApp prefixes, the ``<Say>`` wrapping with XML escaping,
TwiML as it is), both credential kinds as Basic auth, Twilio's error body as n8n's error with and without
continue-on-fail, unknown operations as typed errors, the credential test request."""

from __future__ import annotations

import base64
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.twilio.twilio import escape_xml
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.twilio import ACCOUNT, KEY_SECRET, KEY_SID, TOKEN

TOKEN_CREDENTIAL = {"authType": "authToken", "accountSid": ACCOUNT, "authToken": TOKEN}
KEY_CREDENTIAL = {"authType": "apiKey", "accountSid": ACCOUNT, "apiKeySid": KEY_SID, "apiKeySecret": KEY_SECRET}
SMS = {"resource": "sms", "operation": "send", "from": "+14155238886", "to": "+14155550100", "message": "Hi"}


saas = service_fixture("twilio")


async def _run(params: dict[str, Any], credential: Any = None, items: int = 1, **node: Any) -> tuple[list[Any], Any]:
    code = {"jsCode": f"return Array.from({{length: {items}}}, (_, i) => ({{json: {{i}}}}));"}
    workflow = {
        "name": "twilio",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": code},
            {"name": "TW", "type": "n8n-nodes-base.twilio", "typeVersion": 1, "parameters": params,
             "credentials": {"twilioApi": {"id": "1", "name": "t"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "C", "type": "main", "index": 0}]]},
                        "C": {"main": [[{"node": "TW", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    services = LocalServices(credentials={"twilioApi": credential or TOKEN_CREDENTIAL})
    run = await run_workflow(workflow, services=services)
    task = run["data"]["resultData"]["runData"]["TW"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


async def test_an_sms_posts_the_form_with_basic_auth(saas: FakeSaasServer) -> None:
    items, error = await _run({**SMS, "options": {"statusCallback": "https://cb.example/s"}}, items=2)
    assert error is None and [i["status"] for i in items] == ["queued", "queued"]
    assert items[0]["sid"].startswith("SM") and items[0]["body"] == "Hi"
    sent = saas.requests[-1]
    assert sent.path == f"/2010-04-01/Accounts/{ACCOUNT}/Messages.json"
    assert sent.headers["authorization"] == _basic(ACCOUNT, TOKEN)
    assert sent.headers["content-type"].startswith("application/x-www-form-urlencoded")
    assert sent.body == {"From": "+14155238886", "To": "+14155550100", "Body": "Hi",
                         "StatusCallback": "https://cb.example/s"}  # fmt: skip


async def test_whatsapp_prefixes_both_numbers_and_an_api_key_authenticates(saas: FakeSaasServer) -> None:
    items, error = await _run({**SMS, "toWhatsapp": True}, credential=KEY_CREDENTIAL)
    assert error is None and items[0]["to"] == "whatsapp:+14155550100"
    sent = saas.requests[-1]
    assert sent.headers["authorization"] == _basic(KEY_SID, KEY_SECRET)
    assert sent.body["From"] == "whatsapp:+14155238886" and sent.body["StatusCallback"] == ""


async def test_a_call_wraps_the_text_in_say_with_xml_escaped(saas: FakeSaasServer) -> None:
    params = {"resource": "call", "operation": "make", "from": "+14155238886", "to": "+14155550100",
              "message": "Tom & Jerry's <show>"}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["sid"].startswith("CA")
    sent = saas.requests[-1]
    assert sent.path.endswith("/Calls.json")
    assert sent.body["Twiml"] == "<Response><Say>Tom &amp; Jerry&apos;s &lt;show&gt;</Say></Response>"


async def test_twiml_is_sent_as_it_is(saas: FakeSaasServer) -> None:
    twiml = "<Response><Play>https://a.example/x.mp3</Play></Response>"
    params = {"resource": "call", "operation": "make", "from": "+14155238886", "to": "+14155550100",
              "twiml": True, "message": twiml}  # fmt: skip
    _, error = await _run(params)
    assert error is None and saas.requests[-1].body["Twiml"] == twiml


async def test_twilio_error_fails_the_node_or_continues(saas: FakeSaasServer) -> None:
    _, error = await _run({**SMS, "to": "12"})
    assert error is not None and "not a valid phone number" in str(error.get("description") or error["message"])
    items, error = await _run({**SMS, "to": "12"}, onError="continueRegularOutput", items=2)
    assert error is None and len(items) == 2 and all(set(i) == {"error"} for i in items)


async def test_an_unknown_operation_is_a_typed_error_before_any_request(saas: FakeSaasServer) -> None:
    _, error = await _run({**SMS, "operation": "fetch"})
    assert error is not None and error["message"] == 'The operation "fetch" is not known!'
    assert saas.requests == []


def test_escape_xml() -> None:
    assert escape_xml("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&apos;"


def test_the_credential_test_fetches_the_account() -> None:
    request = build_request("twilioApi", KEY_CREDENTIAL)
    assert request.url == f"https://api.twilio.com/2010-04-01/Accounts/{ACCOUNT}.json"
    assert request.auth == (KEY_SID, KEY_SECRET)
