"""Webhook latency while user code spins: W1 (webhook → Set → Respond) answered during four ``while (true) {}``
Code nodes, then during four Set nodes whose expression is ``while (true) {}``; both run in worker threads until
their time limit (``WEFT_CODE_TIMEOUT`` / ``WEFT_EXPRESSION_TIMEOUT``, set to 5 s here) ends them.

Starts ``weft start`` (one worker) on a fresh user folder, imports and activates ``examples/webhook_set_respond.json``
and two webhook → spinner workflows with the CLI, then: 50 W1 requests with nothing else running (baseline), and
50 W1 requests while four spinning executions of each kind run. Prints median, p99 and max latency of each.
Usage::

    .venv/bin/python bench/bench_code_isolation.py
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
W1 = ROOT / "examples" / "webhook_set_respond.json"
BODY = {"a": 2, "b": 3, "name": "bench", "tags": ["x", "y", "z"]}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


SPINNERS = {
    "Code nodes": {"type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode": "while (true) {}"}},
    "Set expressions": {
        "type": "n8n-nodes-base.set",
        "typeVersion": 3.4,
        "parameters": {
            "assignments": {
                "assignments": [
                    {"id": "x", "name": "x", "type": "string", "value": "={{ (() => { while (true) {} })() }}"}
                ]
            }
        },
    },
}


def _spin_workflow(number: int, path: str, spinner: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"benchSpinCode000{number}",
        "name": f"spin {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {
                "name": "Webhook",
                "type": "n8n-nodes-base.webhook",
                "typeVersion": 2,
                "position": [0, 0],
                "webhookId": str(uuid.uuid4()),
                "parameters": {"path": path, "httpMethod": "POST", "responseMode": "lastNode", "options": {}},
            },
            {"name": "Spin", "position": [200, 0], **spinner},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Spin", "type": "main", "index": 0}]]}},
    }


def _latencies(client: httpx.Client, count: int) -> list[float]:
    out = []
    for _ in range(count):
        started = time.perf_counter()
        answer = client.post("/webhook/bench", json=BODY)
        out.append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200, answer.text
    return out


def _report(label: str, values: list[float]) -> None:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{label:<44} median {statistics.median(values):7.2f} ms   p99 {p99:7.2f} ms   max {max(values):7.2f} ms")


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="weft-bench-code-"))
    port = _free_port()
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(folder),
        "WEFT_PORT": str(port),
        "WEFT_WORKERS": "1",
        "WEFT_PUBLIC_URL": f"http://127.0.0.1:{port}/",
        "WEFT_CODE_TIMEOUT": "5",
        "WEFT_EXPRESSION_TIMEOUT": "5",
    }
    weft = [sys.executable, "-m", "weft"]
    files = [W1]
    for number, spinner in enumerate(SPINNERS.values(), start=1):
        files.append(folder / f"spin{number}.json")
        files[-1].write_text(json.dumps(_spin_workflow(number, f"spin{number}", spinner)))
    for path in files:
        subprocess.run(
            [*weft, "import:workflow", "--input", str(path), "--activate"], env=env, check=True, capture_output=True
        )
    server = subprocess.Popen(
        [*weft, "start"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("the server did not start")
                time.sleep(0.05)
            _latencies(client, 20)  # warm-up
            _report("W1 alone (50 requests)", _latencies(client, 50))
            for number, label in enumerate(SPINNERS, start=1):
                url = f"http://127.0.0.1:{port}/webhook/spin{number}"
                spinners = [threading.Thread(target=lambda u=url: httpx.post(u, json={}, timeout=60)) for _ in range(4)]
                for thread in spinners:
                    thread.start()
                time.sleep(0.3)
                during = _latencies(client, 50)
                alive = sum(thread.is_alive() for thread in spinners)
                _report(f"W1 during 4 spinning {label} ({alive} still spinning)", during)
                for thread in spinners:
                    thread.join(60)
    finally:
        os.killpg(server.pid, 15)
        server.wait(30)


if __name__ == "__main__":
    main()
