"""Records what a live n8n answers for forms (run by hand; the tests read the JSON it writes).

    .venv/bin/python tests/forms/_record_n8n.py N8N_ANCHOR OUT_NAME

``N8N_ANCHOR`` is an n8n install (``node_modules/.bin/n8n``). Ports and the n8n home come from ``ACC_N8N_PORT``,
``ACC_BROKER_PORT`` and ``ACC_N8N_HOME``; for n8n 2.41 put its Node on ``PATH``.

It imports the workflows of ``n8n/`` (and the basic-auth credential), publishes them, starts ``n8n start`` and
then, as a browser would, opens each form, submits it as multipart (``field-<index>`` names, multi-selects as
JSON arrays, files as file parts), follows multi-page forms through ``/form-waiting/<id>`` and reads every
execution back. It keeps for each step the status, the headers that matter and the body (HTML pages reduced to
the facts the tests compare: title, labels, field names, what was escaped or sanitised), and for each
execution the nodes' output items (binary entries without their ``id``).
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from tests._live_n8n import n8n_env, public_api, run_n8n, start_n8n

HERE = Path(__file__).parent
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
TIME_KEYS = {"startTime", "executionTime", "submittedAt", "startedAt", "stoppedAt", "createdAt", "waitTill"}
KEEP_HEADERS = ("content-type", "content-security-policy", "www-authenticate", "location")


def _executions(api: httpx.Client, workflow_id: str, count: int, status: tuple[str, ...]) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        listed = api.get("/api/v1/executions", params={"workflowId": workflow_id}).json()
        rows = sorted(listed.get("data", []), key=lambda r: int(r["id"]))
        found = [api.get(f"/api/v1/executions/{r['id']}", params={"includeData": "true"}).json() for r in rows]
        if len(found) >= count and found[-1]["status"] in status:
            return found[-count:]
        time.sleep(0.5)
    print(f"executions of {workflow_id} did not reach {status}: {[e.get('status') for e in found]}", flush=True)
    return found


def _summary(execution: dict[str, Any]) -> dict[str, Any]:
    data = execution.get("data") or {}
    runs = {}
    for node, tasks in (data.get("resultData") or {}).get("runData", {}).items():
        runs[node] = [
            {
                "executionStatus": t.get("executionStatus"),
                "main": (t.get("data") or {}).get("main"),
                "error": (t.get("error") or {}).get("message"),
            }
            for t in tasks
        ]
    return {
        "status": execution["status"],
        "mode": execution.get("mode"),
        "lastNodeExecuted": data.get("resultData", {}).get("lastNodeExecuted"),
        "error": ((data.get("resultData") or {}).get("error") or {}).get("message"),
        "runData": _clean(runs),
    }


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("<time>" if k in TIME_KEYS and v else _clean(v)) for k, v in value.items() if k != "id"}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, str):
        value = re.sub(r"signature=[0-9a-zA-Z._%-]+", "signature=<signature>", value)
        return re.sub(r"/form-waiting/\d+", "/form-waiting/<execution>", value)
    return value


def page_facts(text: str) -> dict[str, Any]:
    """What the tests compare of an HTML form page (either quote style: n8n's pages use ``'``, Weft's ``"``)."""
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    q = "[\"']"
    return {
        "title": title.group(1).strip() if title else None,
        "h1": [h.strip() for h in re.findall(r"<h1[^>]*>(.*?)</h1>", text, re.S)],
        "labels": [
            x.strip() for x in re.findall(rf"<label class={q}form-label[^\"']*{q}[^>]*>(.*?)</label>", text, re.S)
        ],
        "names": re.findall(r"name='(field-\d+)'|name=\"(field-\d+)\"", text),
        "hidden": re.findall(r'<input type="hidden" id="([^"]*)" name="[^"]*" value="([^"]*)"', text),
        "has_script_alert": "<script>alert(1)</script>" in text,
        "test_notice": "This is a test version of your form" in text,
        "attribution": "Form automated with" in text,
        "useResponseData": (re.search(r'id="useResponseData" style="display: none;" value=(\w+)', text) or [0, None])[
            1
        ],
        "redirectUrl": (re.search(rf"id={q}redirectUrl{q} href={q}([^\"']*){q}", text) or [0, None])[1],
        "submittedText": [x.strip() for x in re.findall(rf"<p id={q}submitted-content{q}>(.*?)</p>", text, re.S)],
        "customCss": [x.strip() for x in re.findall(r"<style>\s*(body \{ color.*?)</style>", text, re.S)],
        "buttonLabel": (
            re.search(rf"<button id={q}submit-btn{q}[^>]*>.*?</span>\s*(.*?)\s*</button>", text, re.S) or [0, None]
        )[1],
    }


def _answer(response: httpx.Response) -> dict[str, Any]:
    headers = {k: response.headers[k] for k in KEEP_HEADERS if k in response.headers}
    body: Any
    if response.url.path.endswith("/n8n-execution-status"):
        body = response.text
    elif "text/html" in response.headers.get("content-type", ""):
        body = page_facts(response.text)
    else:
        try:
            body = response.json()
        except ValueError:
            body = response.text[:400]
    return _clean({"status": response.status_code, "headers": headers, "body": body})


def multipart(data: list[tuple[str, str]], files: list[tuple[str, tuple[str, bytes, str]]]) -> tuple[bytes, str]:
    """A multipart/form-data body as a browser's ``FormData`` sends it (text fields, then files)."""
    boundary = "----weftFormBoundary7MA4YWxkTrZu0gW"
    chunks: list[bytes] = []
    for name, value in data:
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode())
        chunks.append(value.encode() + b"\r\n")
    for name, (filename, content, mime) in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        chunks.append(f"{head}Content-Type: {mime}\r\n\r\n".encode() + content + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _submit(
    url: str, data: list[tuple[str, str]], files: list[tuple[str, tuple[str, bytes, str]]] | None = None, **kw: Any
) -> Any:
    body, content_type = multipart(data, files or [])
    headers = {"content-type": content_type, **kw.pop("headers", {})}
    return httpx.post(url, content=body, headers=headers, timeout=30, **kw)


def _f01(base: str) -> dict[str, Any]:
    url = f"{base}/form/f-basic"
    out: dict[str, Any] = {"get": _answer(httpx.get(url, headers={"user-agent": BROWSER}))}
    out["get_prefill"] = _answer(httpx.get(url + "?Name=Pre%20filled&Age=7", headers={"user-agent": BROWSER}))
    data = [
        ("field-0", "  Ada  "),
        ("field-1", "42"),
        ("field-2", " ada@example.com "),
        ("field-3", "line1\nline2"),
        ("field-4", "hunter2"),
        ("field-5", "2024-05-06"),
        ("field-6", "blue"),
        ("field-7", '["a","c"]'),
        ("field-8", '["y"]'),
        ("field-11", "web"),
        ("field-12", "<p>Hello</p>"),
    ]
    files = [
        ("field-9", ("hello.txt", b"hello form", "text/plain")),
        ("field-10", ("a.csv", b"a,b\n1,2\n", "text/csv")),
        ("field-10", ("b.json", b'{"x":1}', "application/json")),
    ]
    out["post"] = _answer(_submit(url + "?utm=news", data, files))
    return out


def _f02(base: str) -> dict[str, Any]:
    url = f"{base}/form/f-auth"
    return {
        "get_missing": _answer(httpx.get(url)),
        "get_wrong": _answer(httpx.get(url, auth=("alice", "wrong"))),
        "get_right": _answer(httpx.get(url, auth=("alice", "s3cret"))),
        "post_missing": _answer(_submit(url, [("field-0", "x")])),
        "post_right": _answer(_submit(url, [("field-0", "Bob")], auth=("alice", "s3cret"))),
    }


def _f03(base: str) -> dict[str, Any]:
    url = f"{base}/form/f-multi"
    out: dict[str, Any] = {"get": _answer(httpx.get(url))}
    posted = _submit(url, [("field-0", "Ada")])
    out["post"] = _answer(posted)
    waiting = posted.json()["formWaitingUrl"]
    time.sleep(1.5)
    status_url = re.sub(r"(/form-waiting/\d+)", r"\1/n8n-execution-status", waiting)
    out["status"] = _answer(httpx.get(status_url))
    out["page2_get"] = _answer(httpx.get(waiting))
    out["page2_post_missing_signature"] = _answer(_submit(waiting.split("?")[0], [("field-0", "5")]))
    posted2 = _submit(waiting, [("field-0", "5")])
    out["page2_post"] = _answer(posted2)
    time.sleep(1.5)
    out["status_after_page2"] = _answer(httpx.get(status_url))
    out["completion_get"] = _answer(httpx.get(waiting))
    out["completion_post"] = _answer(_submit(waiting, []))
    time.sleep(1.5)
    out["status_after_completion"] = _answer(httpx.get(status_url))
    out["after_done_get"] = _answer(httpx.get(waiting))
    return out


def _f04(base: str) -> dict[str, Any]:
    url = f"{base}/webhook/f-v1/n8n-form"
    return {
        "get": _answer(httpx.get(url)),
        "post": _answer(_submit(url, [("field-0", "Old"), ("field-1", '["q"]')])),
    }


def _f05(base: str) -> dict[str, Any]:
    url = f"{base}/form/f-named"
    return {
        "get": _answer(httpx.get(url + "?full_name=Q")),
        "post": _answer(_submit(url, [("field-0", "Grace"), ("field-1", "3")])),
    }


def _f06(base: str) -> dict[str, Any]:
    url = f"{base}/form/f-v2"
    return {
        "get": _answer(httpx.get(url)),
        "post": _answer(_submit(url, [("field-0", "R")])),
        "missing": _answer(httpx.get(f"{base}/form/nope")),
        "missing_test": _answer(httpx.get(f"{base}/form-test/nope")),
        "missing_waiting": _answer(httpx.get(f"{base}/form-waiting/999999")),
    }


CASES = {"f01": (_f01, 1), "f02": (_f02, 1), "f03": (_f03, 1), "f04": (_f04, 1), "f05": (_f05, 1), "f06": (_f06, 1)}


def main(anchor: str, out_name: str) -> None:
    env = n8n_env(N8N_DEFAULT_BINARY_DATA_MODE="filesystem")
    base = f"http://127.0.0.1:{env['ACC_N8N_PORT']}"
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        run_n8n(anchor, "import:credentials", f"--input={HERE / 'n8n' / 'credentials.json'}")
        for case in CASES:
            path = HERE / "n8n" / f"{case}_workflow.json"
            run_n8n(anchor, "import:workflow", f"--input={path}")
            run_n8n(anchor, "publish:workflow", f"--id={json.loads(path.read_text())['id']}")
        server = start_n8n(anchor, env, base, Path(tmp) / "n8n.log")
        try:
            api = public_api(base)
            for case, (run, count) in CASES.items():
                workflow_id = json.loads((HERE / "n8n" / f"{case}_workflow.json").read_text())["id"]
                answers = run(base)
                done = _executions(api, workflow_id, count, ("success", "error", "waiting"))
                results[case] = {"answers": answers, "executions": [_summary(e) for e in done]}
                print(case, "ok", flush=True)
        finally:
            server.terminate()
            server.wait(30)
            print((Path(tmp) / "n8n.log").read_text()[-3000:])
    target = HERE / out_name
    target.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
