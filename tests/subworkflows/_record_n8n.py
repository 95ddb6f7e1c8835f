"""Records what a live n8n does when a sub-workflow waits (run by hand; the tests read the JSON it writes).

Start n8n (2.8.4) with ``n8n/sub_wait.json`` and ``n8n/parent_wait.json`` imported and both published (n8n 2.x
refuses to run an unpublished sub-workflow from a production execution: "Workflow is not active and cannot be
executed."): ``n8n import:workflow --input=…``, ``n8n publish:workflow --id=…``, ``n8n start``; then::

    .venv/bin/python tests/subworkflows/_record_n8n.py http://127.0.0.1:5787
    .venv/bin/python tests/subworkflows/_record_n8n.py http://127.0.0.1:5787 n8n_2.41_sub_wait.json   # 2.41.1

The Workflow Tool case (``n8n/tool_wait_*.json``, both published; the oracle's fake model serving
``n8n/tool_wait_llm_script.json`` on the port of the ``Fake OpenAI (acceptance)`` credential, logging to a file)::

    .venv/bin/python tests/subworkflows/_record_n8n.py --tool http://127.0.0.1:5787 llm.jsonl n8n_2.41_tool_wait.json

It sets up the owner, makes an API key, calls the parent's webhook, and reads both executions through the
public API while they wait; then it resumes the child through the resume URL its ``Before`` node recorded
and reads both again once they have finished. It writes ``tests/subworkflows/n8n_sub_wait.json``: the
webhook's answer, the answers to resuming the waiting parent itself, the child, and the child again, and each
execution (status, mode, ``waitTill``, the ``parentExecution`` in its data, its stack, each node's runs) before
and after, with execution ids replaced by ``<parent>`` / ``<child>`` and times by ``<time>``.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import httpx

OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
HERE = Path(__file__).parent
TIME_KEYS = {"startTime", "startedAt", "stoppedAt", "createdAt", "executionTime", "establishedAt"}


def api_client(base: str) -> httpx.Client:
    session = httpx.Client(base_url=base, timeout=30)
    session.post("/rest/owner/setup", json=OWNER)
    login = session.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    session.cookies.set("n8n-auth", login.cookies["n8n-auth"])  # n8n marks it Secure; this is plain http
    scopes = session.get("/rest/api-keys/scopes").json()["data"]
    key = session.post(
        "/rest/api-keys", json={"label": f"rec-{time.time_ns()}", "expiresAt": None, "scopes": scopes}
    ).json()["data"]
    return httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": key["rawApiKey"]})


def executions(api: httpx.Client, ids: list[int]) -> list[dict[str, Any]]:
    """The executions ``ids`` with their data (the public list leaves out some waiting ones: read them by id)."""
    found = [api.get(f"/api/v1/executions/{i}", params={"includeData": "true"}) for i in ids]
    return [r.json() for r in found if r.status_code == 200]


def last_id(api: httpx.Client) -> int:
    listed = api.get("/api/v1/executions", params={"limit": 1}).json()["data"]
    return int(listed[0]["id"]) if listed else 0


def wait_for(api: httpx.Client, ids: list[int], status: str) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = executions(api, ids)
        if [e["status"] for e in found] == [status] * len(ids):
            return found
        time.sleep(0.5)
    raise SystemExit(f"timed out waiting for {ids} to be {status}: {json.dumps(executions(api, ids))[:2000]}")


def summary(execution: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    data = execution.get("data") or {}
    runs = {
        node: [_run(task) for task in tasks]
        for node, tasks in (data.get("resultData") or {}).get("runData", {}).items()
    }
    stack = (data.get("executionData") or {}).get("nodeExecutionStack") or []
    out = {
        "status": execution["status"],
        "mode": execution["mode"],
        "finished": execution["finished"],
        "waitTill": execution.get("waitTill"),
        "workflowId": execution["workflowId"],
        "parentExecution": data.get("parentExecution"),
        "lastNodeExecuted": (data.get("resultData") or {}).get("lastNodeExecuted"),
        "stack": [{"node": e["node"]["name"], "data": e.get("data"), "metadata": e.get("metadata")} for e in stack],
        "runData": runs,
    }
    return _rename(out, names)


def _run(task: dict[str, Any]) -> dict[str, Any]:
    keep = ("executionStatus", "data", "metadata", "source", "error")
    return {k: task[k] for k in keep if k in task}


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        if "stacktrace" in value:  # n8n adds it outside production; it names paths of the recording machine
            value = {**value, "stacktrace": "<n8n's stack trace>"}
        return {k: ("<time>" if k in TIME_KEYS and v is not None else _rename(v, names)) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, str):
        for raw, symbol in names.items():
            value = re.sub(rf"/webhook-waiting/{raw}\b", f"/webhook-waiting/{symbol}", value)
            value = re.sub(rf'"{raw}(?=[" ])', f'"{symbol}', value)
        return names.get(value, value)
    return value


def main(base: str, out_name: str = "n8n_sub_wait.json") -> None:
    api = api_client(base)
    out: dict[str, Any] = {}
    first = last_id(api) + 1
    ids = [first, first + 1]  # the parent, then the child it starts
    answer = httpx.get(f"{base}/webhook/parent-wait", timeout=30)
    out["webhook"] = {"status": answer.status_code, "body": answer.json()}
    waiting = wait_for(api, ids, "waiting")
    parent, child = waiting
    names = {parent["id"]: "<parent>", child["id"]: "<child>"}
    out["waiting"] = {"parent": summary(parent, names), "child": summary(child, names)}
    parent_resume = httpx.post(f"{base}/webhook-waiting/{parent['id']}", json={"answer": "no"}, timeout=30)
    out["resume_parent"] = {"status": parent_resume.status_code, "body": _rename(parent_resume.json(), names)}
    before = child["data"]["resultData"]["runData"]["Before"][0]["data"]["main"][0][0]["json"]
    resumed = httpx.post(before["resumeUrl"], json={"answer": "yes"}, timeout=30)
    out["resume"] = {"status": resumed.status_code, "body": resumed.json()}
    finished = wait_for(api, ids, "success")
    out["finished"] = {"parent": summary(finished[0], names), "child": summary(finished[1], names)}
    again = httpx.post(before["resumeUrl"], json={"answer": "again"}, timeout=30)
    out["resume_again"] = {"status": again.status_code, "body": _rename(again.json(), names)}
    target = HERE / out_name
    target.write_text(json.dumps(out, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


def main_tool(base: str, llm_log: str, out_name: str) -> None:
    """The Workflow Tool case (``n8n/tool_wait_*.json``): an AI Agent 3.1 whose tool's sub-workflow waits."""
    api = api_client(base)
    first = last_id(api) + 1
    ids = [first, first + 1]
    out: dict[str, Any] = {}
    answer = httpx.get(f"{base}/webhook/tool-wait", timeout=30)
    out["webhook"] = {"status": answer.status_code, "body": answer.json()}
    parent, child = wait_for(api, ids, "waiting")
    names = {parent["id"]: "<parent>", child["id"]: "<child>"}
    out["waiting"] = {"parent": summary(parent, names), "child": summary(child, names)}
    before = child["data"]["resultData"]["runData"]["Before"][0]["data"]["main"][0][0]["json"]
    resumed = httpx.post(before["resumeUrl"], json={"answer": "yes"}, timeout=30)
    out["resume"] = {"status": resumed.status_code, "body": resumed.json()}
    finished = wait_for(api, ids, "success")
    out["finished"] = {"parent": summary(finished[0], names), "child": summary(finished[1], names)}
    requests = [json.loads(line)["request"] for line in Path(llm_log).read_text().splitlines() if line.strip()]
    out["model_requests"] = [{"tools": r.get("tools"), "messages": r["messages"]} for r in requests]
    target = HERE / out_name
    target.write_text(json.dumps(_rename(out, names), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--tool"]:  # --tool BASE FAKE_LLM_LOG OUT_NAME
        main_tool(*sys.argv[2:5])
    else:
        main(*(sys.argv[1:] or ["http://127.0.0.1:5787"]))
