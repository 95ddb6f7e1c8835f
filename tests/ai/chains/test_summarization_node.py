"""The Summarization Chain node in a workflow: the errors a user meets and how a failed item reads."""

from __future__ import annotations

from typing import Any

from weft.engine import run_workflow
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."


def _workflow(chain: dict[str, Any], turns: list[Any], *extra: Any) -> dict[str, Any]:
    items = "return [{json: {text: 'Owls hunt at night.'}}, {json: {text: 'Bees make honey.'}}];"
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": items}, version=2),
        chain,
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        connect("Start", "Data"),
        connect("Data", "Summarize"),
        connect("Model", "Summarize", type_="ai_languageModel"),
        *extra,
    )


def _summarize(parameters: dict[str, Any], version: float = 2.1, **settings: Any) -> dict[str, Any]:
    return {**node("Summarize", LC + "chainSummarization", parameters, version=version), **settings}


async def _run(wf: dict[str, Any]) -> dict[str, Any]:
    return dict(await run_workflow(wf, registry=default_registry()))


def _runs(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = result["data"]["resultData"]["runData"][name]
    return runs


async def test_a_failing_model_under_continue_on_fail_gives_an_error_item_paired_with_its_input() -> None:
    stuff = {"options": {"summarizationMethodAndPrompts": {"values": {"summarizationMethod": "stuff"}}}}
    chain = _summarize(stuff, onError="continueRegularOutput")
    result = await _run(_workflow(chain, [{"error": 500}]))
    items = _runs(result, "Summarize")[0]["data"]["main"][0]
    assert [i["pairedItem"] for i in items] == [{"item": 0}, {"item": 1}]
    assert all(i["json"]["error"] for i in items)


async def test_an_overlap_not_below_the_chunk_size_fails_the_node_and_says_so() -> None:
    result = await _run(_workflow(_summarize({"chunkSize": 10, "chunkOverlap": 10}), ["never"]))
    error = result["data"]["resultData"]["error"]
    assert error["message"] == "Cannot have chunkOverlap >= chunkSize"
    assert error["node"]["name"] == "Summarize"


async def test_version_1_without_a_document_loader_names_the_missing_input() -> None:
    result = await _run(_workflow(_summarize({"type": "stuff"}, version=1), ["never"]))
    error = result["data"]["resultData"]["error"]
    assert "Document sub-node must be connected" in error["message"]


async def test_version_2_runs_item_after_item_and_answers_response() -> None:
    refine = {"options": {"summarizationMethodAndPrompts": {"values": {"summarizationMethod": "refine"}}}}
    result = await _run(_workflow(_summarize(refine, version=2), ["brief"]))
    items = _runs(result, "Summarize")[0]["data"]["main"][0]
    assert [i["json"] for i in items] == [{"response": {"output_text": "brief"}}] * 2
