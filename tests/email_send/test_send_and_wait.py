"""Send Email's send-and-wait through the real server and a real SMTP server: the mail, its links, the answers.

The expectations are what a live n8n 2.41.1 answered for the same workflow (``n8n/n8n_2.41.json``, recorded by
``_record_n8n.py``): the links' query, the pages (by title and heading), the statuses, the node's output.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.smtp_server import CapturedMail, SmtpCaptureServer

HERE = Path(__file__).parent
N8N = json.loads((HERE / "n8n" / "n8n_2.41.json").read_text())
WORKFLOW = json.loads((HERE / "n8n" / "send_and_wait_workflow.json").read_text())
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-00000000f002"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def _credential(live: LiveServer, port: int) -> dict[str, str]:
    data = {"user": "", "password": "", "host": "127.0.0.1", "port": port, "secure": False, "disableStartTls": True}
    created = live.client.post(
        "/rest/credentials", json={"name": f"smtp-{uuid.uuid4().hex[:6]}", "type": "smtp", "data": data}
    )
    assert created.status_code == 201, created.text
    return {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}


def start(
    live: LiveServer, smtp: SmtpCaptureServer, _workflow: dict[str, Any] | None = None, **parameters: Any
) -> tuple[str, CapturedMail, list[str]]:
    """Import and activate the recorded workflow, call its webhook; the execution id, the mail, its links."""
    data = copy.deepcopy(_workflow or WORKFLOW)
    data["id"] = uuid.uuid4().hex[:16]
    path = f"approval-{uuid.uuid4().hex[:8]}"
    data["nodes"][0]["parameters"]["path"] = path
    data["nodes"][0]["webhookId"] = str(uuid.uuid4())
    data["nodes"][1]["credentials"] = {"smtp": _credential(live, smtp.port)}
    data["nodes"][1]["parameters"].update(parameters)
    workflow_id = live.import_workflow(data)
    before = len(smtp.messages)
    response = live.client.post(f"/webhook/{path}", json={"order": 42})
    assert response.json() == N8N["approve"]["start"]["body"]
    mail = smtp.wait_for(before + 1)[-1]
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    html = mail.body("html")
    return str(execution["id"]), mail, re.findall(r'<a href="(http[^"]+/webhook-waiting/[^"]+)"', html)


def answer(response: httpx.Response) -> dict[str, Any]:
    """The recorder's form of an answer (``_record_n8n._answer``)."""
    text = response.text
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", text, re.S)
    return {
        "status": response.status_code,
        "contentType": response.headers.get("content-type", ""),
        "title": title.group(1).strip() if title else None,
        "heading": heading.group(1).strip() if heading else None,
        "body": text if len(text) < 300 and not title else None,
    }


def with_query(link: str, **changes: str | None) -> str:
    parts = urlsplit(link)
    query = dict(parse_qsl(parts.query))
    for key, value in changes.items():
        query.pop(key, None) if value is None else query.__setitem__(key, value)
    return parts._replace(query=urlencode(query)).geturl()


def get(link: str, user_agent: str = BROWSER) -> httpx.Response:
    return httpx.get(link, headers={"user-agent": user_agent}, timeout=10)


def node_output(execution: dict[str, Any], name: str) -> list[Any]:
    return [item["json"] for item in execution["data"]["resultData"]["runData"][name][-1]["data"]["main"][0]]


def test_the_mail_carries_n8ns_message_and_signed_links(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    execution_id, mail, links = start(live, smtp)
    recorded = N8N["approve"]["mail"]
    assert (mail.message["Subject"], mail.rcpt_tos) == (recorded["subject"], recorded["rcpt_tos"])
    shapes = [
        re.sub(r"signature=[0-9a-f]{64}", "signature=<signature>", link.split(f"/{execution_id}/")[1]) for link in links
    ]
    assert shapes == recorded["links"]
    assert links[0].startswith(f"{live.url}/webhook-waiting/{execution_id}/{NODE_ID}?")
    signatures = [dict(parse_qsl(urlsplit(link).query))["signature"] for link in links]
    assert signatures[0] != signatures[1]  # each link is signed on its own
    html = mail.body("html")
    assert "Refund order 42 & notify <customer>" in html and ">No</a>" in html and ">Yes</a>" in html
    assert "Automated with" in html  # n8n's attribution footer (appendAttribution defaults to true)
    waiting = live.execution(execution_id)
    assert waiting["waitTill"] and not waiting["waitTill"].startswith("3000")  # limitWaitTime: 2 hours


@pytest.mark.parametrize("click", ["approve", "decline"])
def test_links_answer_as_n8n(live: LiveServer, smtp: SmtpCaptureServer, click: str) -> None:
    recorded = N8N[click]
    execution_id, _, (decline, approve) = start(live, smtp)
    chosen, other = (approve, decline) if click == "approve" else (decline, approve)
    probes = {
        "preview_no_user_agent": get(chosen, ""),
        "preview_bot": get(chosen, "python-httpx/0.27"),
        "bad_signature": get(with_query(chosen, signature="0" * 64)),
        "missing_signature": get(with_query(chosen, signature=None)),
        "swapped_query": get(with_query(other, approved="true" if click == "approve" else "false")),
        "put_method": httpx.put(chosen, headers={"user-agent": BROWSER}, timeout=10),
    }
    for name, response in probes.items():
        assert answer(response) == recorded["probes"][name], name
    assert live.execution(execution_id)["status"] == recorded["after_probes_status"] == "waiting"
    assert answer(get(chosen)) == recorded["click"]
    done = live.wait_status(execution_id, "success")
    [output] = node_output(done, "Ask Boss")
    [expected_output] = [item["json"] for item in recorded["finished"]["runData"]["Ask Boss"][-1]["data"]["main"][0]]
    assert output["data"]["approved"] is expected_output["data"]["approved"] is (click == "approve")
    assert sorted(output["data"]) == sorted(expected_output["data"]) == ["approved", "respondedAt"]
    assert node_output(done, "After") == [output]
    assert answer(get(chosen)) == recorded["again"]  # used twice: n8n's "No action required" page
    assert answer(get(other)) == recorded["other_link_after"]
    unknown = get(chosen.replace(f"/webhook-waiting/{execution_id}/", "/webhook-waiting/987654/"))
    assert unknown.status_code == recorded["unknown_execution"]["status"] == 404


def _comparable_html(html: str, execution_id: str) -> str:
    html = html.replace("\r\n", "\n").rstrip()
    html = re.sub(
        r'href="http[^"]*/webhook-waiting/[^/]+/([^?"]+)\?approved=(\w+)&signature=[0-9a-f]{64}"',
        r'href="<\1 \2>"',
        html,
    )
    return re.sub(r"&utm_campaign=[0-9a-f]+", "", html)


def test_the_mail_html_is_n8ns_mail(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    """Recorded n206 (``n8n execute``): the same node parameters give the same HTML, byte for byte but the links."""
    case = HERE / "cases" / "n206-email-send-and-wait-approval-double"
    recorded = json.loads((case / "n8n_mails.json").read_text())[0]
    parameters = next(n for n in json.loads((case / "workflow.json").read_text())["nodes"] if n["name"] == "Send Email")
    data = copy.deepcopy(WORKFLOW)
    data["nodes"][1]["id"] = parameters["id"]
    data["nodes"][1]["parameters"] = parameters["parameters"]
    execution_id, mail, _ = start(live, smtp, _workflow=data)
    expected = CapturedMail(recorded["mail_from"], recorded["rcpt_tos"], recorded["raw"].encode())
    assert mail.message["Subject"] == expected.message["Subject"] == "Approve?"
    assert _comparable_html(mail.body("html"), execution_id) == _comparable_html(expected.body("html"), "7")


def test_free_text_link_shows_a_form_and_the_answer_is_the_output(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    execution_id, mail, [respond] = start(
        live, smtp, responseType="freeText", approvalOptions={}, options={"messageButtonLabel": "Answer"}
    )
    assert ">Answer</a>" in mail.body("html") and "approved=true" in respond
    form = get(respond)
    assert form.status_code == 200 and "name='field-0'" in form.text
    assert live.execution(execution_id)["status"] == "waiting"  # opening the form answers nothing
    posted = httpx.post(respond, headers={"user-agent": BROWSER}, files={"field-0": (None, "Only half")}, timeout=10)
    assert answer(posted)["heading"] == "Got it, thanks"
    done = live.wait_status(execution_id, "success")
    [output] = node_output(done, "Ask Boss")
    assert output["data"]["text"] == "Only half" and sorted(output["data"]) == ["respondedAt", "text"]


def test_custom_form_is_refused_with_a_fix(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    data = copy.deepcopy(WORKFLOW)
    data["id"] = uuid.uuid4().hex[:16]
    path = f"custom-{uuid.uuid4().hex[:8]}"
    data["nodes"][0]["parameters"]["path"] = data["nodes"][0]["webhookId"] = path
    data["nodes"][1]["credentials"] = {"smtp": _credential(live, smtp.port)}
    data["nodes"][1]["parameters"]["responseType"] = "customForm"
    workflow_id = live.import_workflow(data)
    before = len(smtp.messages)
    live.client.post(f"/webhook/{path}", json={"order": 42})
    [row] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "error"])
    error = live.execution(row["id"])["data"]["resultData"]["error"]
    assert error["message"] == "The response type 'Custom Form' is not supported yet"
    assert "Free Text" in error["description"] and len(smtp.messages) == before


def test_previews_and_bots_are_told_apart_from_browsers_as_n8n_does() -> None:
    """n8n answers a link for ``isbot(ua) || ua missing or naming teams/skype/preview`` with an empty page."""
    from weft.nodes.send_and_wait import is_bot

    recorded = json.loads((HERE / "n8n" / "isbot_3.6.13.json").read_text())["isbot"]
    for user_agent, bot in recorded.items():
        preview = any(word in user_agent.lower() for word in ("teams", "skype", "preview"))
        assert is_bot(user_agent) is (bot or preview), user_agent
    assert is_bot(None) and is_bot("")


def test_limit_wait_time_passes_the_input_through_when_nobody_answers(
    live: LiveServer, smtp: SmtpCaptureServer
) -> None:
    """n8n resumes a timed-out wait with the node disabled: it outputs its input (``handleWaitingState``)."""
    limit = {
        "limitWaitTime": {"values": {"limitType": "afterTimeInterval", "resumeAmount": 0.02, "resumeUnit": "minutes"}}
    }
    execution_id, _, [_, approve] = start(live, smtp, options=limit)
    done = live.wait_status(execution_id, "success")
    [output] = node_output(done, "Ask Boss")
    assert output["body"] == {"order": 42} and node_output(done, "After") == [output]
    assert answer(get(approve))["heading"] == "No action required"
