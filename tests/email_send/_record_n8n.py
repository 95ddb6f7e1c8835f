"""Records what a live n8n answers for Send Email's send-and-wait links (run by hand; the tests read its JSON).

    .venv/bin/python tests/email_send/_record_n8n.py N8N_ANCHOR OUT_NAME

``N8N_ANCHOR`` is an n8n install (``node_modules/.bin/n8n``). Ports and the n8n home come from ``ACC_N8N_PORT``,
``ACC_BROKER_PORT`` and ``ACC_N8N_HOME``; for n8n 2.41 put its Node on ``PATH``. The SMTP credential
``accSmtpLocal0001`` points at ``weft.testing.smtp_server`` on its recorded port, which this script serves.

It imports ``n8n/send_and_wait_workflow.json`` (Webhook → Send Email send-and-wait, double approval → No Op),
publishes it, starts ``n8n start`` and, twice (approve, decline), calls the webhook, reads the mail, and opens
its links as a link preview, with a wrong, missing or swapped signature, with a wrong method, as a browser, then
again; and a link of an unknown execution. It writes each answer (status, content type, the page's title and
heading) and the executions (per node: status, data).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx
from tests._live_n8n import start_n8n

from weft.testing.smtp_server import RECORDED_PORT, SmtpCaptureServer

HERE = Path(__file__).parent
OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
CREDENTIAL = {"id": "accSmtpLocal0001", "name": "Local SMTP (acceptance)", "type": "smtp",
              "data": {"user": "", "password": "", "host": "127.0.0.1", "port": RECORDED_PORT, "secure": False,
                       "disableStartTls": True}}  # fmt: skip
TIME_KEYS = {"startTime", "executionTime", "respondedAt", "startedAt", "stoppedAt", "createdAt", "waitTill"}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        N8N_DIAGNOSTICS_ENABLED="false", N8N_VERSION_NOTIFICATIONS_ENABLED="false", N8N_TEMPLATES_ENABLED="false",
        N8N_PERSONALIZATION_ENABLED="false", N8N_LISTEN_ADDRESS="127.0.0.1", N8N_USER_FOLDER=env["ACC_N8N_HOME"],
        N8N_PORT=env["ACC_N8N_PORT"], N8N_RUNNERS_BROKER_PORT=env["ACC_BROKER_PORT"],
        N8N_COMMUNITY_PACKAGES_ENABLED="false", N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS="false",
        N8N_SECURE_COOKIE="false",
    )  # fmt: skip
    return env


def _n8n(anchor: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([f"{anchor}/node_modules/.bin/n8n", *args], env=_env(), capture_output=True, text=True)


def _api(base: str) -> httpx.Client:
    session = httpx.Client(base_url=base, timeout=30)
    session.post("/rest/owner/setup", json=OWNER)
    login = session.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    session.cookies.set("n8n-auth", login.cookies["n8n-auth"])
    scopes = session.get("/rest/api-keys/scopes").json()["data"]
    key = session.post("/rest/api-keys", json={"label": f"r{time.time_ns()}", "expiresAt": None, "scopes": scopes})
    return httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": key.json()["data"]["rawApiKey"]})


def _execution(api: httpx.Client, execution_id: str, status: str | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        found: dict[str, Any] = api.get(f"/api/v1/executions/{execution_id}", params={"includeData": "true"}).json()
        if status is None or found.get("status") == status or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def _latest(api: httpx.Client, workflow_id: str, seen: set[str]) -> str:
    """The new execution's id. n8n 2.8.4's list leaves out executions it holds in memory: then the next id."""
    deadline = time.monotonic() + 60
    following = str(max((int(i) for i in seen if i.isdigit()), default=0) + 1)
    while time.monotonic() < deadline:
        for row in api.get("/api/v1/executions", params={"workflowId": workflow_id}).json().get("data", []):
            if str(row["id"]) not in seen:
                seen.add(str(row["id"]))
                return str(row["id"])
        if api.get(f"/api/v1/executions/{following}").status_code == 200:
            seen.add(following)
            return following
        time.sleep(0.5)
    raise SystemExit("no new execution")


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("<time>" if k in TIME_KEYS and v else _clean(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _summary(execution: dict[str, Any]) -> dict[str, Any]:
    data = execution.get("data") or {}
    result = data.get("resultData") or {}
    runs = {
        node: [{k: task[k] for k in ("executionStatus", "data") if k in task} for task in tasks]
        for node, tasks in (result.get("runData") or {}).items()
    }
    return _clean(
        {
            "status": execution.get("status"),
            "lastNodeExecuted": result.get("lastNodeExecuted"),
            "waitTill": bool(execution.get("waitTill") or data.get("waitTill")),
            "runData": runs,
        }
    )  # type: ignore[no-any-return]


def _answer(response: httpx.Response) -> dict[str, Any]:
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


def _links(raw: bytes) -> list[str]:
    import email
    import email.policy

    message = email.message_from_bytes(raw, policy=email.policy.default)
    html = str(message.get_body(preferencelist=("html",)).get_content())  # type: ignore[union-attr]
    return re.findall(r'<a href="(http[^"]+/webhook-waiting/[^"]+)"', html)


def _with(link: str, **changes: str | None) -> str:
    parts = urlsplit(link)
    query = dict(parse_qsl(parts.query))
    for key, value in changes.items():
        if value is None:
            query.pop(key, None)
        else:
            query[key] = value
    return parts._replace(query=urlencode(query)).geturl()


def _shape(link: str, execution_id: str) -> str:
    return re.sub(r"signature=[0-9a-f]+", "signature=<signature>", link.split(f"/{execution_id}/")[1])


def _round(base: str, api: httpx.Client, smtp: SmtpCaptureServer, workflow: dict[str, Any], click: str) -> Any:
    seen: set[str] = set(str(r["id"]) for r in api.get("/api/v1/executions").json().get("data", []))
    before = len(smtp.messages)
    started = httpx.post(f"{base}/webhook/email-approval-f", json={"order": 42}, timeout=30)
    print("webhook:", started.status_code, started.text[:200], flush=True)
    execution_id = _latest(api, workflow["id"], seen)
    waiting = _execution(api, execution_id, "waiting")
    mail = smtp.wait_for(before + 1, timeout=30)[-1]
    decline, approve = _links(mail.raw)
    chosen = approve if click == "approve" else decline
    other = decline if click == "approve" else approve
    probes = {  # in this order: n8n 2.8.4 resumes on a request without a user agent
        "bad_signature": httpx.get(_with(chosen, signature="0" * 64), headers={"user-agent": BROWSER}, timeout=30),
        "missing_signature": httpx.get(_with(chosen, signature=None), headers={"user-agent": BROWSER}, timeout=30),
        "swapped_query": httpx.get(
            _with(other, approved="true" if click == "approve" else "false"),
            headers={"user-agent": BROWSER},
            timeout=30,
        ),
        "put_method": httpx.put(chosen, headers={"user-agent": BROWSER}, timeout=30),
        "preview_bot": httpx.get(chosen, headers={"user-agent": "python-httpx/0.27"}, timeout=30),
        "preview_no_user_agent": httpx.get(chosen, headers={"user-agent": ""}, timeout=30),
    }
    still = _execution(api, execution_id)
    clicked = httpx.get(chosen, headers={"user-agent": BROWSER}, timeout=30)
    finished = _execution(api, execution_id, "success")
    again = httpx.get(chosen, headers={"user-agent": BROWSER}, timeout=30)
    other_after = httpx.get(other, headers={"user-agent": BROWSER}, timeout=30)
    unknown = _with(chosen)
    unknown = unknown.replace(f"/webhook-waiting/{execution_id}/", "/webhook-waiting/987654/")
    return {
        "start": {"status": started.status_code, "body": started.json()},
        "mail": {
            "subject": mail.message["Subject"],
            "rcpt_tos": mail.rcpt_tos,
            "links": [
                re.sub(r"signature=[0-9a-f]+", "signature=<signature>", link.split(f"/{execution_id}/")[1])
                for link in (decline, approve)
            ],
        },
        "waiting": _summary(waiting),
        "probes": {name: _answer(response) for name, response in probes.items()},
        "after_probes_status": still.get("status"),
        "click": _answer(clicked),
        "finished": _summary(finished),
        "again": _answer(again),
        "other_link_after": _answer(other_after),
        "unknown_execution": _answer(httpx.get(unknown, headers={"user-agent": BROWSER}, timeout=30)),
    }


def main(anchor: str, out_name: str) -> None:
    env = _env()
    base = f"http://127.0.0.1:{env['ACC_N8N_PORT']}"
    path = HERE / "n8n" / "send_and_wait_workflow.json"
    workflow = json.loads(path.read_text())
    with tempfile.TemporaryDirectory() as tmp, SmtpCaptureServer(RECORDED_PORT) as smtp:
        creds = Path(tmp) / "creds.json"
        creds.write_text(json.dumps([CREDENTIAL]))
        _n8n(anchor, "import:credentials", f"--input={creds}")
        _n8n(anchor, "import:workflow", f"--input={path}")
        published = _n8n(anchor, "publish:workflow", f"--id={workflow['id']}")
        if published.returncode != 0:
            _n8n(anchor, "update:workflow", f"--id={workflow['id']}", "--active=true")
        server = start_n8n(anchor, env, base, Path(tmp) / "n8n.log")
        try:
            api = _api(base)
            results = {"approve": _round(base, api, smtp, workflow, "approve")}
            results["decline"] = _round(base, api, smtp, workflow, "decline")
        finally:
            server.terminate()
            server.wait(30)
            print((Path(tmp) / "n8n.log").read_text()[-3000:])
    target = HERE / "n8n" / out_name
    target.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
