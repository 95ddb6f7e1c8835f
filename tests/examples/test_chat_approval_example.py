"""The README's chat-approval example, as a newcomer runs it: import it, ``weft start`` on a port of one's own
(no public URL set), ask for a refund, follow the Approve link the answer gives, and read the agent's reply.
The demo model needs no API key."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "chat_approval.json"
WEFT = [sys.executable, "-m", "weft"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "WEFT_USER_FOLDER": str(tmp_path), "WEFT_PORT": str(port)}
    env.pop("WEFT_PUBLIC_URL", None)
    subprocess.run([*WEFT, "import:workflow", "--input", str(EXAMPLE), "--activate"], env=env, check=True)
    process = subprocess.Popen([*WEFT, "start"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:  # the server says where it listens once it does
            if "listening on" in line:
                break
        else:
            raise AssertionError(f"weft start ended with {process.wait()}")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.communicate(timeout=60)  # drains and closes the pipe


def _ask(client: httpx.Client, webhook_id: str, text: str) -> dict[str, object]:
    body = {"action": "sendMessage", "sessionId": "readme", "chatInput": text}
    for _ in range(600):  # the server may still be starting its workers: bounded retries, no clock
        try:
            response = client.post(f"/webhook/{webhook_id}/chat", json=body)
            break
        except httpx.TransportError:
            time.sleep(0.05)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_the_readme_chat_approval_example_runs_with_no_api_key(server: str) -> None:
    workflow = json.loads(EXAMPLE.read_text())
    [trigger] = [n for n in workflow["nodes"] if n["type"].endswith(".chatTrigger")]
    with httpx.Client(base_url=server, timeout=60) as client:
        answer = _ask(client, trigger["webhookId"], "Please refund order 42")
        message = answer["message"]
        assert isinstance(message, dict) and message["type"] == "with-buttons"
        links = {button["text"]: button["link"] for button in message["buttons"]}
        assert links["Approve"].startswith(server + "/webhook-waiting/")  # the link follows WEFT_PORT
        resumed = httpx.get(links["Approve"], timeout=60)
    assert resumed.status_code == 200, resumed.text
    assert "refunded order 42" in resumed.json()["output"]
