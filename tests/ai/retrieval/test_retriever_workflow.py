"""The Workflow Retriever under a Question and Answer Chain: the sub-workflow's output items become the context."""

from __future__ import annotations

import json
from typing import Any

from weft.ai.nodes.retrieval.retriever_workflow import object_to_string
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing import OracleOpenAIServer
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
CREDENTIAL = {"openAiApi": {"id": "c1", "name": "Fake OpenAI"}}

#: The sub-workflow: echoes the query and the passed field, and adds a nested fact.
SUB_WORKFLOW = workflow(
    node("In", "n8n-nodes-base.executeWorkflowTrigger", {"inputSource": "passthrough"}, version=1.1),
    node(
        "Facts",
        "n8n-nodes-base.code",
        {
            "jsCode": "const q = $input.first().json;\n"
            "return [{json: {fact: 'Rockets launch satellites', asked: q.query, topic: q.topic}},"
            " {json: {fact: 'Owls hunt', n: 2, ok: true, tags: ['night', 'bird'], about: {kind: 'bird'}}}];"
        },
        version=2,
    ),
    connect("In", "Facts"),
)


def _workflow(retriever_parameters: dict[str, Any], version: float = 1.1) -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Question", "n8n-nodes-base.code", {"jsCode": "return [{json: {chatInput: 'What do rockets launch?'}}];"}),
        node("QA", LC + "chainRetrievalQa", {"promptType": "define", "text": "={{ $json.chatInput }}"}, version=1.6),
        node(
            "Model",
            LC + "lmChatOpenAi",
            {"model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list"}, "responsesApiEnabled": False},
            version=1.3,
            credentials=CREDENTIAL,
        ),
        node("Retriever", LC + "retrieverWorkflow", retriever_parameters, version=version),
        connect("Start", "Question"),
        connect("Question", "QA"),
        connect("Model", "QA", type_="ai_languageModel"),
        connect("Retriever", "QA", type_="ai_retriever"),
    )


async def _run(server: OracleOpenAIServer, wf: dict[str, Any]) -> dict[str, Any]:
    services = LocalServices(credentials={"Fake OpenAI": {"apiKey": "sk-test", "url": server.base_url}})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def _system_prompt(server: OracleOpenAIServer) -> str:
    messages = server.log[0]["request"]["messages"]
    return str(messages[0]["content"])


async def test_the_sub_workflows_items_are_the_context_the_model_reads() -> None:
    parameters = {
        "source": "parameter",
        "workflowJson": json.dumps(SUB_WORKFLOW),
        "fields": {"values": [{"name": "topic", "stringValue": "space"}]},
    }
    with OracleOpenAIServer([{"content": "Satellites."}]) as server:
        result = await _run(server, _workflow(parameters))
        system = _system_prompt(server)
    assert "error" not in result["data"]["resultData"], result["data"]["resultData"].get("error")
    answer = result["data"]["resultData"]["runData"]["QA"][0]["data"]["main"][0]
    assert [i["json"] for i in answer] == [{"response": "Satellites."}]
    first = '### 1. Context data:\n- "fact": "Rockets launch satellites"\n- "asked": "What do rockets launch?"\n'
    assert first + '- "topic": "space"\n' in system
    second = (
        '### 2. Context data:\n- "fact": "Owls hunt"\n- "n": "2"\n- "ok": "true"\n- "tags":\n  - "0": "night"\n'
        '  - "1": "bird"\n- "about":\n  - "kind": "bird"\n'
    )
    assert first + '- "topic": "space"\n\n\n' + second in system


async def test_json_that_does_not_parse_fails_the_chain_with_n8ns_message() -> None:
    with OracleOpenAIServer([{"content": "never"}]) as server:
        result = await _run(server, _workflow({"source": "parameter", "workflowJson": "{nodes"}, version=1))
    error = result["data"]["resultData"]["error"]
    assert error["message"].startswith("The provided workflow is not valid JSON:")


def test_object_to_string_writes_javascript_values() -> None:
    assert object_to_string({"a": None, "b": 1.5, "c": 3.0, "d": False}) == (
        '- "a": "null"\n- "b": "1.5"\n- "c": "3"\n- "d": "false"\n'
    )
