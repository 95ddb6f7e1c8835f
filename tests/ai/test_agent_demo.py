"""``examples/agent_demo.json`` runs with no key and gives a sensible answer."""

from __future__ import annotations

import json
from pathlib import Path

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.testing.workflows import output_json

DEMO = Path(__file__).resolve().parents[2] / "examples" / "agent_demo.json"


async def test_demo_workflow_answers_with_the_calculator_result() -> None:
    run = await run_workflow(json.loads(DEMO.read_text()), registry=agent_registry())
    assert run["status"] == "success"
    [answer] = output_json(run, "AI Agent")
    # the tools are offered (and the demo model calls them) in n8n's order: the last connected first
    assert answer["output"].startswith("Based on the tools: Think returned")
    assert 'Calculator returned [{"response":"83810205"}]' in answer["output"]
