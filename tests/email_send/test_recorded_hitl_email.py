"""``emailSendHitlTool`` against what a live n8n 2.41.1 did (``n8n/n8n_2.41_hitl.json``, ``_record_n8n_hitl.py``):
the same workflows (a260 approve, a261 decline) and model script, through Weft's real server and SMTP server.

Compared: the mail (subject, recipients, the HTML but the links), the links' query (Weft adds the signed
``toolCallId``, ``docs/differences.md``), the pages, the finished execution's outputs and the model requests.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.recorded._normalize import normalize_requests
from tests.server.conftest import LiveServer, wait_for

from weft.testing import OracleOpenAIServer
from weft.testing.smtp_server import SmtpCaptureServer

HERE = Path(__file__).parent / "n8n"
N8N = json.loads((HERE / "n8n_2.41_hitl.json").read_text())
SCRIPT = json.loads((HERE / "llm_script.json").read_text())
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def _credential(live: LiveServer, type_: str, data: dict[str, Any]) -> dict[str, str]:
    created = live.client.post(
        "/rest/credentials", json={"name": f"{type_}-{uuid.uuid4().hex[:6]}", "type": type_, "data": data}
    )
    assert created.status_code == 201, created.text
    return {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}


def _answer(response: httpx.Response) -> dict[str, Any]:
    text = response.text
    title, heading = re.search(r"<title>(.*?)</title>", text, re.S), re.search(r"<h1[^>]*>(.*?)</h1>", text, re.S)
    return {
        "status": response.status_code,
        "contentType": response.headers.get("content-type", ""),
        "title": title.group(1).strip() if title else None,
        "heading": heading.group(1).strip() if heading else None,
        "body": text if len(text) < 300 and not title else None,
    }


def _html(html: str) -> str:
    html = html.replace("\r\n", "\n").rstrip()
    html = re.sub(r'href="http[^"]*/webhook-waiting/[^/]+/([^?"]+)\?approved=(\w+)[^"]*"', r'href="<\1 \2>"', html)
    return re.sub(r"&utm_campaign=[0-9a-f]+", "", html)


def _outputs(run_data: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name in ("Approve", "Refund", "AI Agent"):
        for task in run_data.get(name, []):
            for kind, outputs in (task.get("data") or {}).items():
                items = [copy.deepcopy(i["json"]) for i in outputs[0]]
                for item in items:
                    if isinstance(item.get("data"), dict):
                        item["data"].pop("respondedAt", None)
                out.setdefault(name, []).append({kind: items})
    return out


@pytest.mark.parametrize("case", ["a260", "a261"])
def test_email_approval_matches_n8n(live: LiveServer, smtp: SmtpCaptureServer, case: str) -> None:
    recorded = N8N[case]
    data = json.loads((HERE / f"{case}_workflow.json").read_text())
    data["id"] = uuid.uuid4().hex[:16]
    path = f"{case}-{uuid.uuid4().hex[:8]}"
    data["nodes"][0]["parameters"]["path"] = data["nodes"][0]["webhookId"] = path
    with OracleOpenAIServer(SCRIPT) as model:
        openai = _credential(live, "openAiApi", {"apiKey": "sk-fake", "url": model.base_url, "header": False})
        mailer = _credential(
            live, "smtp", {"host": "127.0.0.1", "port": smtp.port, "secure": False, "disableStartTls": True}
        )
        for node in data["nodes"]:
            if "credentials" in node:
                node["credentials"] = {"openAiApi": openai} if "openAiApi" in node["credentials"] else {"smtp": mailer}
        workflow_id = live.import_workflow(data)
        before = len(smtp.messages)
        assert live.client.post(f"/webhook/{path}", json={}).json() == recorded["start"]["body"]
        mail = smtp.wait_for(before + 1)[-1]
        [row] = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "waiting"])
        execution_id = str(row["id"])
        html = mail.body("html")
        assert (mail.message["Subject"], mail.rcpt_tos) == (recorded["mail"]["subject"], recorded["mail"]["rcpt_tos"])
        assert _html(html) == _html(recorded["mail"]["html"])
        links = re.findall(r'<a href="(http[^"]+/webhook-waiting/[^"]+)"', html)
        shapes = [link.split(f"/{execution_id}/")[1].split("&toolCallId=")[0] for link in links]
        assert shapes == recorded["mail"]["links"]
        decline, approve = links
        clicked = httpx.get(approve if case == "a260" else decline, headers={"user-agent": BROWSER}, timeout=10)
        assert _answer(clicked) == recorded["click"]
        live.wait_status(execution_id, "success")
        requests = list(model.log)
    response = live.client.get(f"/rest/executions/{execution_id}", params={"includeData": True})
    run_data = response.json()["data"]["data"]["resultData"]["runData"]
    assert _outputs(run_data) == _outputs(recorded["finished"]["runData"])
    assert sorted(run_data) == sorted(recorded["finished"]["runData"])
    again = httpx.get(approve if case == "a260" else decline, headers={"user-agent": BROWSER}, timeout=10)
    assert _answer(again) == recorded["again"]
    expected = normalize_requests({"request": r} for r in recorded["model_requests"])
    got = normalize_requests(requests)
    assert [r.pop("model") for r in got] == ["gpt-4o-mini"] * 2  # the recording keeps tools and messages only
    assert got == [{k: v for k, v in r.items() if k != "model"} for r in expected]
