"""Send Email ``send`` against a real SMTP server on 127.0.0.1 (aiosmtpd): the mail that arrives, n8n's output."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from weft.testing.smtp_server import SmtpCaptureServer
from weft.testing.workflows import connect, node, workflow

from ._run import CREDENTIAL_NAME, node_items, run_workflow, smtp_credential

CRED = {"smtp": {"id": "c1", "name": CREDENTIAL_NAME}}
ATTRIBUTION_TEXT = "\n\n---\nThis email was sent automatically with n8n\nhttps://n8n.io"


@pytest.fixture
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def email_workflow(
    parameters: dict[str, Any], version: float = 2.1, before: list[Any] | None = None, **settings: Any
) -> dict[str, Any]:
    parts: list[Any] = [node("Start", "n8n-nodes-base.manualTrigger")]
    previous = "Start"
    for extra in before or []:
        parts += [extra, connect(previous, extra["name"])]
        previous = extra["name"]
    email = node("Send Email", "n8n-nodes-base.emailSend", parameters, version=version, credentials=CRED, **settings)
    return workflow(*parts, email, connect(previous, "Send Email"))


def code(js: str) -> dict[str, Any]:
    return node("Code", "n8n-nodes-base.code", {"jsCode": js}, version=2)


async def test_text_mail_with_attribution_and_n8ns_output(smtp: SmtpCaptureServer) -> None:
    params = {"fromEmail": "Weft Bot <bot@example.com>", "toEmail": "ann@example.com, Bob <bob@example.com>",
              "subject": "Hello", "emailFormat": "text", "text": "Plain body", "options": {}}  # fmt: skip
    run = await run_workflow(email_workflow(params), smtp_credential(smtp.port))
    assert run["status"] == "success"
    [info] = node_items(run, "Send Email")
    assert info["accepted"] == ["ann@example.com", "bob@example.com"] and info["rejected"] == []
    assert info["envelope"] == {"from": "bot@example.com", "to": ["ann@example.com", "bob@example.com"]}
    assert info["response"] == "250 Message accepted for delivery"
    assert info["messageId"].startswith("<") and info["messageId"].endswith("@example.com>")
    assert "8BITMIME" in info["ehlo"] and isinstance(info["messageSize"], int)
    [mail] = smtp.messages
    assert mail.rcpt_tos == ["ann@example.com", "bob@example.com"] and mail.mail_from == "bot@example.com"
    assert mail.message["Subject"] == "Hello" and mail.message["From"] == "Weft Bot <bot@example.com>"
    assert mail.message["Message-ID"] == info["messageId"]
    assert mail.body("plain").rstrip() == "Plain body" + ATTRIBUTION_TEXT


async def test_html_with_cc_bcc_reply_to_and_version_2_has_no_attribution(smtp: SmtpCaptureServer) -> None:
    options = {"ccEmail": "cc@example.com", "bccEmail": "b1@example.com, b2@example.com", "replyTo": "r@example.com"}
    params = {"fromEmail": "bot@example.com", "toEmail": "ann@example.com", "subject": "HTML", "emailFormat": "html",
              "html": "<p>Hi</p>", "options": options}  # fmt: skip
    run = await run_workflow(email_workflow(params, version=2), smtp_credential(smtp.port))
    [info] = node_items(run, "Send Email")
    assert info["accepted"] == ["ann@example.com", "cc@example.com", "b1@example.com", "b2@example.com"]
    [mail] = smtp.messages
    assert mail.message["Cc"] == "cc@example.com" and mail.message["Reply-To"] == "r@example.com"
    assert mail.message["Bcc"] is None  # Bcc goes to the envelope only
    assert mail.message.get_content_type() == "text/html" and mail.body("html").strip() == "<p>Hi</p>"


async def test_version_2_1_defaults_to_html_and_both_sends_alternatives(smtp: SmtpCaptureServer) -> None:
    await run_workflow(
        email_workflow({"fromEmail": "a@x.org", "toEmail": "b@x.org", "html": "<b>x</b>"}), smtp_credential(smtp.port)
    )
    both = {"fromEmail": "a@x.org", "toEmail": "={{ $json.to }}", "subject": "=Hi {{ $json.name }}",
            "emailFormat": "both", "text": "=T {{ $json.name }}", "html": "=<p>H {{ $json.name }}</p>",
            "options": {"appendAttribution": False}}  # fmt: skip
    js = "return [{json: {to: 'ann@x.org', name: 'Ann'}}, {json: {to: 'bob@x.org', name: 'Bob'}}];"
    run = await run_workflow(email_workflow(both, before=[code(js)]), smtp_credential(smtp.port))
    assert [i["accepted"] for i in node_items(run, "Send Email")] == [["ann@x.org"], ["bob@x.org"]]
    first, ann, bob = smtp.messages
    assert "<b>x</b>" in first.body("html") and "This email was sent automatically with" in first.body("html")
    assert ann.message.get_content_type() == "multipart/alternative"
    assert (ann.body("plain").strip(), ann.body("html").strip(), bob.message["Subject"]) == (
        "T Ann",
        "<p>H Ann</p>",
        "Hi Bob",
    )


async def test_version_1_sends_text_and_html(smtp: SmtpCaptureServer) -> None:
    params = {
        "fromEmail": "a@x.org",
        "toEmail": "b@x.org",
        "ccEmail": "c@x.org",
        "subject": "V1",
        "text": "t",
        "html": "<p>h</p>",
    }
    run = await run_workflow(email_workflow(params, version=1), smtp_credential(smtp.port))
    assert node_items(run, "Send Email")[0]["accepted"] == ["b@x.org", "c@x.org"]
    [mail] = smtp.messages
    assert (mail.body("plain").strip(), mail.body("html").strip()) == ("t", "<p>h</p>")


async def test_inline_and_file_attachments_from_binary_properties(smtp: SmtpCaptureServer) -> None:
    png, pdf = base64.b64encode(b"\x89PNG fake").decode(), base64.b64encode(b"%PDF-1.4 fake").decode()
    js = (f"return [{{json: {{}}, binary: {{logo: {{data: '{png}', mimeType: 'image/png', fileName: 'logo.png'}}, "
          f"doc: {{data: '{pdf}', mimeType: 'application/pdf', fileName: 'report.pdf'}}}}}}];")  # fmt: skip
    params = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "emailFormat": "html", "html": '<img src="cid:logo">',
              "options": {"attachments": "logo", "fileAttachments": "doc", "appendAttribution": False}}  # fmt: skip
    run = await run_workflow(email_workflow(params, before=[code(js)]), smtp_credential(smtp.port))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    [mail] = smtp.messages
    parts = {p.get_filename(): p for p in mail.message.iter_attachments()}
    assert parts["report.pdf"].get_content() == b"%PDF-1.4 fake"
    logo = next(p for p in mail.message.walk() if p.get_filename() == "logo.png")
    assert logo["Content-ID"] == "<logo>" and logo.get_content() == b"\x89PNG fake"


async def test_missing_binary_property_is_a_node_error(smtp: SmtpCaptureServer) -> None:
    js = "return [{json: {}, binary: {other: {data: 'eA==', mimeType: 'text/plain'}}}];"
    params = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "options": {"fileAttachments": "doc"}}
    run = await run_workflow(email_workflow(params, before=[code(js)]), smtp_credential(smtp.port))
    error = run["data"]["resultData"]["error"]
    assert run["status"] == "error" and "binary file 'doc'" in error["message"] and smtp.messages == []


async def test_smtp_login_with_the_credential_user_and_password() -> None:
    params = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "emailFormat": "text", "text": "x"}
    with SmtpCaptureServer(user="ada", password="s3cret") as server:
        ok = await run_workflow(email_workflow(params), smtp_credential(server.port, user="ada", password="s3cret"))
        bad = await run_workflow(email_workflow(params), smtp_credential(server.port, user="ada", password="wrong"))
        anonymous = await run_workflow(email_workflow(params), smtp_credential(server.port))
        assert ok["status"] == "success" and len(server.messages) == 1 and server.logins == ["ada", "ada"]
    assert anonymous["data"]["resultData"]["error"]["message"] == "Message failed: 530 5.7.0 Authentication required"
    assert bad["status"] == "error" and bad["data"]["resultData"]["error"]["message"].startswith("Invalid login: 535")


async def test_unreachable_server_continue_on_fail_gives_the_error_item() -> None:
    params = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "emailFormat": "text", "text": "x"}
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    run = await run_workflow(email_workflow(params, onError="continueRegularOutput"), smtp_credential(port))
    [item] = node_items(run, "Send Email")
    assert run["status"] == "success" and "ECONNREFUSED" in item["error"]
    failed = await run_workflow(email_workflow(params), smtp_credential(port))
    assert failed["status"] == "error" and "ECONNREFUSED" in failed["data"]["resultData"]["error"]["message"]


PLAIN_MAIL = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "emailFormat": "text", "text": "x"}


async def test_starttls_when_offered_and_allow_unauthorized_certs() -> None:
    with SmtpCaptureServer(tls="starttls") as server:
        trusted = email_workflow({**PLAIN_MAIL, "options": {"allowUnauthorizedCerts": True}})
        ok = await run_workflow(trusted, smtp_credential(server.port, disableStartTls=False))
        refused = await run_workflow(email_workflow(PLAIN_MAIL), smtp_credential(server.port, disableStartTls=False))
        plain = await run_workflow(email_workflow(PLAIN_MAIL), smtp_credential(server.port, disableStartTls=True))
        assert ok["status"] == "success" and plain["status"] == "success"
        assert [m.tls for m in server.messages] == [True, False]  # disableStartTls: never upgraded
    assert (
        refused["status"] == "error"
        and "CERTIFICATE_VERIFY_FAILED" in refused["data"]["resultData"]["error"]["message"]
    )


async def test_secure_is_tls_from_the_start() -> None:
    with SmtpCaptureServer(tls="implicit") as server:
        params = {**PLAIN_MAIL, "options": {"allowUnauthorizedCerts": True}}
        run = await run_workflow(email_workflow(params), smtp_credential(server.port, secure=True))
        assert run["status"] == "success" and [m.tls for m in server.messages] == [True]
        assert node_items(run, "Send Email")[0]["accepted"] == ["b@x.org"]


async def test_the_hitl_tool_outside_the_server_fails_with_a_fix(smtp: SmtpCaptureServer) -> None:
    lc = "@n8n/n8n-nodes-langchain."
    call = {"id": "c1", "name": "Refund", "args": {"toolParameters": {"input": "42"}, "hitlParameters": {}}}
    email = {"fromEmail": "a@x.org", "toEmail": "b@x.org", "subject": "Approve?"}
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", lc + "agent", {"promptType": "define", "text": "Refund 42"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": [{"toolCalls": [call]}, "done"]}),
        node("Approve", "n8n-nodes-base.emailSendHitlTool", email, version=2.1, credentials=CRED),
        node("Refund", lc + "toolCode", {"jsCode": "return 'ok';", "description": "Refund"}, version=1.3),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Approve", "AI Agent", type_="ai_tool"),
        connect("Refund", "Approve", type_="ai_tool"),
    )
    run = await run_workflow(data, smtp_credential(smtp.port))
    runs = run["data"]["resultData"]["runData"]
    [gate] = runs["Approve"]  # a tool's error goes back to the agent, as in n8n
    assert gate["executionStatus"] == "error" and "Refund" not in runs and smtp.messages == []
    assert gate["error"]["message"] == "Send and wait needs a resume URL, which only a stored execution has"
