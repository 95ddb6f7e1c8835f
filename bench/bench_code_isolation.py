"""Webhook latency while Code nodes spin: W1 (webhook → Set → Respond) answered during four ``while (true) {}``
Code nodes, which run in worker threads until their time limit ends them.

Starts ``weft start`` (one worker) on a fresh user folder, imports and activates ``examples/webhook_set_respond.json``
and a webhook → Code (``while (true) {}``) workflow with the CLI, then: 50 W1 requests with nothing else running
(baseline), and 50 W1 requests while four spinning executions run. Prints median, p99 and max latency of each.
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


def _spin_workflow() -> dict[str, Any]:
    return {
        "id": "benchSpinCode0001", "name": "spin", "settings": {"executionOrder": "v1"},
        "nodes": [
            {"name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2, "position": [0, 0],
             "webhookId": str(uuid.uuid4()),
             "parameters": {"path": "spin", "httpMethod": "POST", "responseMode": "lastNode", "options": {}}},
            {"name": "Spin", "type": "n8n-nodes-base.code", "typeVersion": 2, "position": [200, 0],
             "parameters": {"jsCode": "while (true) {}"}},
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
    env = {**os.environ, "WEFT_USER_FOLDER": str(folder), "WEFT_PORT": str(port), "WEFT_WORKERS": "1",
           "WEFT_PUBLIC_URL": f"http://127.0.0.1:{port}/"}
    weft = [sys.executable, "-m", "weft"]
    spin = folder / "spin.json"
    spin.write_text(json.dumps(_spin_workflow()))
    for path in (W1, spin):
        subprocess.run([*weft, "import:workflow", "--input", str(path), "--activate"], env=env, check=True,
                       capture_output=True)
    server = subprocess.Popen([*weft, "start"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
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
            spinners = [threading.Thread(target=lambda: httpx.post(f"http://127.0.0.1:{port}/webhook/spin", json={},
                                                                   timeout=60)) for _ in range(4)]
            for thread in spinners:
                thread.start()
            time.sleep(0.3)
            during = _latencies(client, 50)
            alive = sum(thread.is_alive() for thread in spinners)
            _report(f"W1 during 4 spinning Code nodes ({alive} still spinning)", during)
            for thread in spinners:
                thread.join(60)
    finally:
        os.killpg(server.pid, 15)
        server.wait(30)


if __name__ == "__main__":
    main()
