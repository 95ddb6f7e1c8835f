"""Send Email against what real n8n (2.8.4; 2.41.1 the same) did: the node's output and the mails that arrived.

Each folder of ``cases/`` holds the workflow, n8n's IRun (``n8n_raw.json``) and the mails n8n's nodemailer sent
to ``weft.testing.smtp_server`` (``n8n_mails.json``). Weft runs the workflow against the same SMTP server; the
normalized runs must be equal except for what differs from run to run (times, message ids, the MIME size), and
each mail must carry the same envelope, headers and decoded bodies. n8n's attribution link names its instance
id, which Weft has not (``docs/differences.md``).
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from tests.recorded._normalize import normalize_run

from weft.testing.smtp_server import CapturedMail, SmtpCaptureServer

from ._run import run_workflow, smtp_credential

CASES = Path(__file__).parent / "cases"
VOLATILE = ("envelopeTime", "messageTime", "messageSize", "messageId")
SENT = sorted(p.name for p in CASES.iterdir() if (p / "n8n_raw.json").exists() and "send-and-wait" not in p.name)


def _stable(normalized: dict[str, Any]) -> dict[str, Any]:
    for runs in normalized["nodes"].values():
        for run in runs:
            for items in run["outputs"].get("main") or []:
                for item in items or []:
                    for key in VOLATILE:
                        if key in item:
                            item[key] = type(item[key]).__name__
    return normalized


def _parts(raw: bytes) -> dict[str, Any]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    headers = {name: message[name] for name in ("From", "To", "Cc", "Reply-To", "Subject")}
    bodies: dict[str, str] = {}
    files = sorted(
        (str(p.get_filename()), p.get_content_type(), p.get_content_disposition(), p["Content-ID"], p.get_content())
        for p in message.walk()
        if p.get_filename()
    )
    for part in message.walk():
        if part.get_content_maintype() == "text" and not part.get_filename():
            text = str(part.get_content()).replace("\r\n", "\n").rstrip("\n")  # Python ends text with one
            bodies[part.get_content_type()] = re.sub(r"(utm_campaign=n8n-nodes-base\.emailSend)_[0-9a-f]+", r"\1", text)
    structure = [p.get_content_type() for p in message.walk()]
    return {"headers": headers, "structure": structure, "bodies": bodies, "files": files}


@pytest.mark.parametrize("name", SENT)
async def test_weft_sends_as_n8n_did(name: str) -> None:
    case = CASES / name
    latest = (case / "n8n_2.41_raw.json").exists()  # Weft is held to 2.41.1 where it differs
    expected_run = json.loads((case / ("n8n_2.41_raw.json" if latest else "n8n_raw.json")).read_text())
    with SmtpCaptureServer() as server:
        run = await run_workflow(json.loads((case / "workflow.json").read_text()), smtp_credential(server.port))
    assert _stable(normalize_run(run)) == _stable(normalize_run(expected_run))
    mails_file = case / ("n8n_2.41_mails.json" if latest else "n8n_mails.json")
    expected_mails = json.loads(mails_file.read_text()) if mails_file.exists() else []
    assert len(server.messages) == len(expected_mails)
    for sent, recorded in zip(server.messages, expected_mails, strict=True):
        assert (sent.mail_from, sent.rcpt_tos) == (recorded["mail_from"], recorded["rcpt_tos"])
        assert _parts(sent.raw) == _parts(recorded["raw"].encode())


def test_the_recorded_mails_are_real_mails() -> None:
    """The golden mails parse, so the comparison above compares content, not two empty parses."""
    mails = [m for p in CASES.glob("*/n8n_mails.json") for m in json.loads(p.read_text())]
    assert len(mails) >= 7
    parsed = [_parts(CapturedMail(m["mail_from"], m["rcpt_tos"], m["raw"].encode()).raw) for m in mails]
    assert all(p["headers"]["Subject"] and p["bodies"] for p in parsed)


async def test_send_and_wait_outside_the_server_fails_with_a_fix() -> None:
    """n206 under ``n8n execute`` mails links and waits; a CLI run of Weft is not stored, so it says where to run it."""
    case = CASES / "n206-email-send-and-wait-approval-double"
    assert json.loads((case / "n8n_raw.json").read_text())["status"] == "waiting"
    with SmtpCaptureServer() as server:
        run = await run_workflow(json.loads((case / "workflow.json").read_text()), smtp_credential(server.port))
    error = run["data"]["resultData"]["error"]
    assert run["status"] == "error" and server.messages == []
    assert error["message"] == "Send and wait needs a resume URL, which only a stored execution has"
    assert "weft start" in error["description"]
