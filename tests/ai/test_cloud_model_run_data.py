"""The Google Gemini, Mistral Cloud and Groq chat models' own run data, held to n8n's recordings (cases
s900-s926, against the fakes ``weft.testing.saas.gemini``, ``.mistral`` and ``.groq``).

``tests/recorded`` compares the runs' outputs; the model runs' ``inputOverride`` (the prompt as LangChain logs it,
its token estimate and the model's options) is left out there, so it is compared here, with the differences
``docs/differences.md`` lists: n8n's Groq logs a dump of its Node.js proxy agent (``http_agent``) when a proxy is
set; a tool turn's AI line of the prompt (``AI: Calling Calculator with input: …[{…"type":"tool_call"}]``) is the
agent's rendering of its tool calls (Gemini's ids are random UUIDs in n8n) and is compared as a placeholder. The
token estimate (``estimatedTokens``) is left out: n8n counts with tiktoken, Weft estimates four characters a token
for every model (not particular to these providers).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.recorded._cases import SAAS_SERVER, Case, run_with_weft

from weft.testing.saas import FakeSaasServer

CASES = Path(__file__).parents[1] / "recorded" / "cases"
MODEL_CASES = sorted(p.name for p in CASES.glob("s9[0-2]*") if (p / "n8n_raw.json").exists())
MODEL_NODES = ("Google Gemini Chat Model", "Mistral Cloud Chat Model", "Groq Chat Model")
_TOOL_CALL_LINE = re.compile(r"^AI: .*\[\{.*\}\]$", re.MULTILINE)


def _without_tool_call_lines(prompt: str) -> str:
    """The prompt without its AI tool-call lines, which the agent writes (not the model node; see the module)."""
    return _TOOL_CALL_LINE.sub("AI: (tool calls)", prompt)


@pytest.fixture(scope="module")
def saas() -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["gemini", "mistral", "groq"]) as server:
        SAAS_SERVER.append(server)
        try:
            yield server
        finally:
            SAAS_SERVER.remove(server)


def n8n_run(folder: Path) -> dict[str, Any]:
    """What Weft is held to: n8n 2.41.1's run where it differs from 2.8.4's (2.8.4 reaches neither Gemini nor Groq
    through a proxy), else 2.8.4's, and 2.8.4's where the case keeps a deliberate difference from 2.41.1
    (``expected_weft.json``: 2.41.1's Mistral logs no token usage)."""
    latest = folder / "n8n_2.41_raw.json"
    if (folder / "expected_weft.json").exists() or not latest.exists():
        latest = folder / "n8n_raw.json"
    return dict(json.loads(latest.read_text()))


def model_runs(run: dict[str, Any]) -> list[dict[str, Any]]:
    """Each model run's prompt, token estimate, options, and its generation or error, comparable."""
    found = []
    for name, runs in run["data"]["resultData"]["runData"].items():
        if name not in MODEL_NODES:
            continue
        for one in runs:
            (item,) = one["inputOverride"]["ai_languageModel"][0]
            logged = {k: v for k, v in item["json"].items() if k != "estimatedTokens"}
            logged["options"] = {k: v for k, v in logged["options"].items() if k != "http_agent"}
            logged["options"].pop("metadata", None)  # the @langchain/core version n8n ships, checked in tests/recorded
            logged["messages"] = [_without_tool_call_lines(m) for m in logged["messages"]]
            error = one.get("error")
            output = None if error else one["data"]["ai_languageModel"][0][0]["json"]
            found.append({"node": name, "input": logged, "output": output, "error": error and error["message"]})
    return found


@pytest.mark.parametrize("name", MODEL_CASES)
async def test_the_model_runs_are_n8ns(name: str, saas: FakeSaasServer) -> None:
    folder = CASES / name
    weft, _ = await run_with_weft(Case(folder))
    assert model_runs(weft) == model_runs(n8n_run(folder))
