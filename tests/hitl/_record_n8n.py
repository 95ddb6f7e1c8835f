"""Records what a live n8n does with a chat approval (run by hand; the tests read the JSON it writes).

    .venv/bin/python tests/hitl/_record_n8n.py N8N_ANCHOR FAKE_LLM_PY OUT_NAME

``N8N_ANCHOR`` is an n8n install (``node_modules/.bin/n8n``); ``FAKE_LLM_PY`` the oracle's scripted
OpenAI-compatible model server. Ports and the n8n home come from ``ACC_N8N_PORT``, ``FAKE_LLM_PORT`` and
``ACC_N8N_HOME`` (and ``ACC_BROKER_PORT``); for n8n 2.41 put its Node on ``PATH``.

For each case of ``n8n/`` (a240: approved, a241: declined) it imports the workflow and the fake model's
credential, publishes it, starts ``n8n start``, sends "Please refund order 42" to the Chat Trigger, reads the
waiting execution (the question the chat HITL node sent, with its signed links), opens the Approve or Decline
link as a browser would, waits for the execution to finish and reads it again. It writes the chat's answer, both
executions (per node: status, data, source, inputOverride) and every request n8n sent to the model.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from tests._live_n8n import n8n_env, public_api, run_n8n, start_n8n

HERE = Path(__file__).parent
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
CASES = {"a240": "Approve", "a241": "Decline"}
TIME_KEYS = {"startTime", "executionTime", "respondedAt", "startedAt", "stoppedAt", "createdAt", "waitTill"}


def _execution(api: httpx.Client, workflow_id: str, node: str) -> dict[str, Any]:
    """The workflow's execution once ``node`` has run (n8n's Chat node always waits: its message is delivered
    to the chat, which resumes it; this recorder has no chat client, so a Reply stays waiting)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        listed = api.get("/api/v1/executions", params={"workflowId": workflow_id}).json()
        for row in listed.get("data", []):
            found: dict[str, Any] = api.get(f"/api/v1/executions/{row['id']}", params={"includeData": "true"}).json()
            run_data = (found.get("data") or {}).get("resultData", {}).get("runData", {})
            if node in run_data or found["status"] in ("error", "crashed"):
                return found
        time.sleep(0.5)
    raise SystemExit(f"{node} of {workflow_id} never ran")


def _clean(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: ("<time>" if k in TIME_KEYS and v else _clean(v, names)) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v, names) for v in value]
    if isinstance(value, str):
        value = re.sub(r"signature=[0-9a-zA-Z._-]+", "signature=<signature>", value)
        for raw, symbol in names.items():
            value = value.replace(f"/webhook-waiting/{raw}", f"/webhook-waiting/{symbol}")
        return value
    return value


def _summary(execution: dict[str, Any]) -> dict[str, Any]:
    data = execution.get("data") or {}
    keep = ("executionStatus", "data", "source", "inputOverride", "error")
    runs = {
        node: [{k: task[k] for k in keep if k in task} for task in tasks]
        for node, tasks in (data.get("resultData") or {}).get("runData", {}).items()
    }
    return {
        "status": execution["status"],
        "lastNodeExecuted": data.get("resultData", {}).get("lastNodeExecuted"),
        "runData": runs,
    }


def _case(base: str, api: httpx.Client, case: str, button: str, llm_log: Path) -> dict[str, Any]:
    workflow = json.loads((HERE / "n8n" / f"{case}_workflow.json").read_text())
    webhook_id = workflow["nodes"][0]["webhookId"]
    chat = httpx.post(
        f"{base}/webhook/{webhook_id}/chat",
        timeout=30,
        json={"action": "sendMessage", "sessionId": f"s-{case}", "chatInput": "Please refund order 42"},
    )
    waiting = _execution(api, workflow["id"], "Approve")
    names = {str(waiting["id"]): "<execution>"}
    message = waiting["data"]["resultData"]["runData"]["Approve"][-1]["data"]
    links = [b for b in json.dumps(message).split('"') if "/webhook-waiting/" in b]
    link = next(b["link"] for b in _buttons(message) if b["text"] == button) if _buttons(message) else links[0]
    clicked = httpx.get(link, headers={"user-agent": BROWSER}, timeout=30)
    finished = _execution(api, workflow["id"], "Reply")
    again = httpx.get(link, headers={"user-agent": BROWSER}, timeout=30)
    requests = [json.loads(line)["request"] for line in llm_log.read_text().splitlines() if line.strip()]
    out = {
        "chat": {"status": chat.status_code, "body": _body(chat)},
        "waiting": _summary(waiting),
        "click": {"button": button, "link": link, "status": clicked.status_code, "body": clicked.text[:400]},
        "finished": _summary(finished),
        "again": {"status": again.status_code, "body": again.text[:400]},
        "model_requests": [{"tools": r.get("tools"), "messages": r["messages"]} for r in requests],
    }
    return dict(_clean(out, names))


def _buttons(data: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(data, dict):
        if isinstance(data.get("buttons"), list):
            found.extend(data["buttons"])
        for value in data.values():
            found.extend(_buttons(value))
    elif isinstance(data, list):
        for value in data:
            found.extend(_buttons(value))
    return found


def _body(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text[:400]


def main(anchor: str, fake_llm: str, out_name: str) -> None:
    env = n8n_env()
    base = f"http://127.0.0.1:{env['ACC_N8N_PORT']}"
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        creds = Path(tmp) / "creds.json"
        url = f"http://127.0.0.1:{env['FAKE_LLM_PORT']}/v1"
        creds.write_text(
            json.dumps(
                [
                    {
                        "id": "accFakeOpenAi0001",
                        "name": "Fake OpenAI (acceptance)",
                        "type": "openAiApi",
                        "data": {"apiKey": "sk-fake", "url": url, "header": False},
                    }
                ]
            )
        )
        run_n8n(anchor, "import:credentials", f"--input={creds}")
        for case in CASES:
            path = HERE / "n8n" / f"{case}_workflow.json"
            run_n8n(anchor, "import:workflow", f"--input={path}")
            run_n8n(anchor, "publish:workflow", f"--id={json.loads(path.read_text())['id']}")
        server = start_n8n(anchor, env, base, Path(tmp) / "n8n.log")
        try:
            api = public_api(base)
            for case, button in CASES.items():
                log = Path(tmp) / f"{case}.jsonl"
                model = subprocess.Popen(
                    [
                        sys.executable,
                        fake_llm,
                        "--port",
                        env["FAKE_LLM_PORT"],
                        "--script",
                        str(HERE / "n8n" / "llm_script.json"),
                        "--log",
                        str(log),
                    ]
                )
                try:
                    time.sleep(1.5)
                    results[case] = _case(base, api, case, button, log)
                finally:
                    model.terminate()
                    model.wait(10)
        finally:
            server.terminate()
            server.wait(30)
            print((Path(tmp) / "n8n.log").read_text()[-3000:])
    target = HERE / out_name
    target.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
