"""The AI Agent through the real engine: every engine-request rule, with scripted models."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.ai.messages import Message, ToolDefinition, ToolMessage, last_human_text
from weft.ai.models.traced import TracedChatModel
from weft.ai.tools.base import TOOL_OUTPUTS, ToolNode, string_input_schema
from weft.engine import run_workflow
from weft.nodes.contract import NodeContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.registry import NodeRegistry
from weft.testing import FunctionChatModel
from weft.testing.probe_nodes import PROBE_NODES
from weft.testing.workflows import connect, node, output_json, run_order, workflow

LC = "@n8n/n8n-nodes-langchain."


class SlowTool(ToolNode):
    """A tool that takes five seconds to answer."""

    description = NodeDescription(name="weft.test.slowTool", display_name="Slow", inputs=(), outputs=TOOL_OUTPUTS)

    def tool_spec(self, ctx: NodeContext, item_index: int) -> ToolSpec:
        return ToolSpec(name="Slow", description="slow", parameters=string_input_schema(), source_node_name="Slow")

    async def respond(self, ctx: NodeContext, item_json: dict[str, Any], item_index: int) -> Any:
        await asyncio.sleep(5)
        return "late"


@pytest.fixture
def registry() -> NodeRegistry:
    registry = agent_registry()
    registry.register_many([*PROBE_NODES, SlowTool])
    return registry


def agent_wf(turns: list[Any], *tools: dict[str, Any], agent: dict[str, Any] | None = None, **settings: Any) -> Any:
    """Start → AI Agent (prompt "What is 6*7?") with a scripted Model and ``tools``."""
    params = {"promptType": "define", "text": "What is 6*7?", **(agent or {})}
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", params, version=3.1, **settings),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        *tools,
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        *(connect(t["name"], "AI Agent", type_="ai_tool") for t in tools),
    )


def calculator(name: str = "Calculator", **settings: Any) -> dict[str, Any]:
    return node(name, LC + "toolCalculator", **settings)


def call(name: str, args: dict[str, Any], id_: str | None = None) -> dict[str, Any]:
    return {"name": name, "args": args, **({"id": id_} if id_ else {})}


def model_prompts(run: dict[str, Any]) -> list[str]:
    return [r["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"][0] for r in _runs(run)["Model"]]


def _runs(run: dict[str, Any]) -> dict[str, Any]:
    return run["data"]["resultData"]["runData"]


async def test_two_tools_of_one_turn_run_in_request_order(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Second", {"input": "2+2"}), call("First", {"input": "3*3"})]}, "done"]
    run = await run_workflow(agent_wf(turns, calculator("First"), calculator("Second")), registry=registry)
    assert run["status"] == "success"
    assert run_order(run) == ["Start", "Model", "Second", "First", "AI Agent", "Model"]
    runs = _runs(run)
    assert runs["Second"][0]["executionIndex"] < runs["First"][0]["executionIndex"]
    assert len(runs["AI Agent"]) == 1 and len(runs["Model"]) == 2
    assert runs["AI Agent"][0]["metadata"]["nodeWasResumed"] is True
    assert output_json(run, "AI Agent") == [{"output": "done"}]


async def test_tool_results_reach_the_model_as_n8n_sends_them(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "12345 * 6789"})]}, "It is {{last_tool_result}}"]
    run = await run_workflow(agent_wf(turns, calculator()), registry=registry)
    assert output_json(run, "AI Agent") == [{"output": 'It is [{"response":"83810205"}]'}]
    tool = _runs(run)["Calculator"][0]
    assert tool["data"] == {"ai_tool": [[{"json": {"response": "83810205"}, "pairedItem": {"item": 0}}]]}
    assert tool["inputOverride"]["ai_tool"][0][0]["json"] == {"input": "12345 * 6789"}
    assert "Human: What is 6*7?" in model_prompts(run)[0]


BROKE = "Unknown name 'x'; only numbers, operators, functions and pi/e are allowed."


async def test_a_failing_tool_gives_the_agent_an_error_result(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "x + 1"})]}, "Saw {{last_tool_result}}"]
    run = await run_workflow(agent_wf(turns, calculator()), registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "AI Agent") == [{"output": f'Saw [{{"error":"{BROKE}"}}]'}]
    assert _runs(run)["Calculator"][0]["executionStatus"] == "error"


async def test_a_tool_with_on_error_stop_workflow_stops_the_workflow(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "x + 1"})]}, "never"]
    run = await run_workflow(agent_wf(turns, calculator(onError="stopWorkflow")), registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == BROKE
    assert len(_runs(run)["Model"]) == 1 and "AI Agent" not in _runs(run)


async def test_max_iterations_fails_the_agent_with_n8n_message(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "1+1"})]}] * 5
    wf = agent_wf(turns, calculator(), agent={"options": {"maxIterations": 2}})
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == (
        "Max iterations (2) reached. The agent could not complete the task within the allowed number of iterations."
    )
    assert len(_runs(run)["Model"]) == 2 and len(_runs(run)["Calculator"]) == 2


async def test_max_iterations_item_goes_to_the_error_output(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "1+1"})]}] * 5
    wf = agent_wf(turns, calculator(), agent={"options": {"maxIterations": 1}}, onError="continueErrorOutput")
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    main = _runs(run)["AI Agent"][0]["data"]["main"]
    assert main[0] == []
    assert main[1][0]["json"]["error"].startswith("Max iterations (1) reached.")


async def test_three_items_make_one_request_with_three_actions(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "{{last_human_message}}"})]}, "got {{last_tool_result}}"]
    wf = agent_wf(turns, calculator(), agent={"promptType": "auto"})
    wf["pinData"] = {"Start": [{"chatInput": "1+1"}, {"chatInput": "2+2"}, {"chatInput": "3+3"}]}
    run = await run_workflow(wf, registry=registry)
    agent = _runs(run)["AI Agent"][0]
    actions = agent["metadata"]["subNodeExecutionData"]["actions"]
    assert [a["action"]["metadata"]["itemIndex"] for a in actions] == [0, 1, 2]
    assert [a["action"]["input"] for a in actions] == [{"input": "1+1"}, {"input": "2+2"}, {"input": "3+3"}]
    items = agent["data"]["main"][0]
    assert [i["json"]["output"] for i in items] == [f'got [{{"response":"{n}"}}]' for n in (2, 4, 6)]
    assert [i["pairedItem"] for i in items] == [{"item": 0}, {"item": 1}, {"item": 2}]
    assert len(_runs(run)["Model"]) == 6 and len(_runs(run)["Calculator"]) == 3


def direct_or_tool(messages: list[Message], tools: list[ToolDefinition]) -> Any:
    """Answers "direct" prompts at once; calls the Calculator for the others, then answers."""
    if last_human_text(messages) == "direct" or isinstance(messages[-1], ToolMessage):
        return f"answer to {last_human_text(messages)}"
    return {"tool": "Calculator", "args": {"input": "5*5"}}


class FunctionModel(NodeType):
    description = NodeDescription(name="weft.test.fnModel", display_name="Fn", inputs=(), outputs=("ai_languageModel",))

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        return TracedChatModel(FunctionChatModel(direct_or_tool), ctx)


async def test_finished_items_are_not_sent_to_the_model_again(registry: NodeRegistry) -> None:
    registry.register(FunctionModel)
    wf = agent_wf([], calculator(), agent={"promptType": "auto"})
    wf["nodes"][2]["type"] = "weft.test.fnModel"
    wf["pinData"] = {"Start": [{"chatInput": "direct"}, {"chatInput": "tools"}]}
    run = await run_workflow(wf, registry=registry)
    # item 0 answers in round 1 and is not asked again in round 2 (n8n would call the model for it again)
    assert len(_runs(run)["Model"]) == 3
    assert [i["output"] for i in output_json(run, "AI Agent")] == ["answer to direct", "answer to tools"]


async def test_intermediate_steps_are_returned_when_asked(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Calculator", {"input": "6*7"})]}, "42"]
    wf = agent_wf(turns, calculator(), agent={"options": {"returnIntermediateSteps": True}})
    run = await run_workflow(wf, registry=registry)
    [out] = output_json(run, "AI Agent")
    [step] = out["intermediateSteps"]
    assert step["observation"] == '[{"response":"42"}]'
    assert step["action"]["tool"] == "Calculator"
    assert step["action"]["toolInput"] == {"input": "6*7"}
    assert step["action"]["toolCallId"] == "call_1"
    assert step["action"]["type"] == "tool_call"
    assert step["action"]["log"] == 'Calling Calculator with input: {"input":"6*7","id":"call_1"}'


async def test_unknown_tool_name_comes_back_to_the_model_as_an_error(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Nope", {"x": 1})]}, "Sorry: {{last_tool_result}}"]
    run = await run_workflow(agent_wf(turns, calculator()), registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "AI Agent") == [
        {"output": "Sorry: Tool 'Nope' does not exist. Available tools: Calculator"}
    ]
    assert run_order(run) == ["Start", "AI Agent", "Model", "Model"]


async def test_unknown_and_known_tools_in_one_turn(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Nope", {}), call("Calculator", {"input": "1+2"})]}, "ok"]
    wf = agent_wf(turns, calculator(), agent={"options": {"returnIntermediateSteps": True}})
    run = await run_workflow(wf, registry=registry)
    observations = [s["observation"] for s in output_json(run, "AI Agent")[0]["intermediateSteps"]]
    assert observations == ["Tool 'Nope' does not exist. Available tools: Calculator", '[{"response":"3"}]']
    prompt = model_prompts(run)[1]
    assert prompt.index("does not exist") < prompt.index('[{"response":"3"}]')


async def test_tool_timeout_gives_the_agent_a_timeout_result(registry: NodeRegistry) -> None:
    turns = [{"toolCalls": [call("Slow", {"input": "x"})]}, "Saw {{last_tool_result}}"]
    slow = node("Slow", "weft.test.slowTool")
    wf = agent_wf(turns, slow, agent={"options": {"toolTimeout": 50}})
    run = await run_workflow(wf, registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "AI Agent") == [{"output": 'Saw [{"error":"Error: timed out after 50 ms"}]'}]
    action = _runs(run)["AI Agent"][0]["metadata"]["subNodeExecutionData"]["actions"][0]["action"]
    assert action["metadata"] == {"itemIndex": 0, "timeoutMs": 50}


async def test_duplicate_tool_names_are_refused(registry: NodeRegistry) -> None:
    wf = agent_wf(["x"], calculator("My Tool"), calculator("My.Tool"))
    run = await run_workflow(wf, registry=registry)
    assert run["data"]["resultData"]["error"]["message"] == (
        "You have multiple tools with the same name: 'My_Tool', please rename them to avoid conflicts"
    )


async def test_missing_chat_input_fails_like_n8n(registry: NodeRegistry) -> None:
    run = await run_workflow(agent_wf(["x"], agent={"promptType": "auto"}), registry=registry)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "No prompt specified"
    assert "'chatInput'" in error["description"]


async def test_no_model_connected(registry: NodeRegistry) -> None:
    wf = agent_wf(["x"])
    wf["connections"].pop("Model")
    run = await run_workflow(wf, registry=registry)
    assert run["data"]["resultData"]["error"]["message"] == "A Chat Model sub-node must be connected and enabled"


async def test_system_message_option_and_images(registry: NodeRegistry) -> None:
    wf = agent_wf(["hello"], agent={"options": {"systemMessage": "Be brief."}})
    run = await run_workflow(wf, registry=registry)
    assert model_prompts(run)[0].startswith("System: Be brief.\nHuman: What is 6*7?")


async def test_define_prompt_without_text_fails_like_n8n(registry: NodeRegistry) -> None:
    run = await run_workflow(agent_wf(["x"], agent={"text": ""}), registry=registry)
    assert run["data"]["resultData"]["error"]["message"] == "No prompt specified"


async def test_agent_state_in_the_request_is_plain_json(registry: NodeRegistry) -> None:
    import json

    turns = [{"toolCalls": [call("Calculator", {"input": "1+1"})]}, "done"]
    run = await run_workflow(agent_wf(turns, calculator()), registry=registry)
    metadata = _runs(run)["AI Agent"][0]["metadata"]["subNodeExecutionData"]["metadata"]
    assert json.loads(json.dumps(metadata)) == metadata
    [item] = metadata["agent"]["items"]
    assert item["iterations"] == 1 and item["pending"][0]["name"] == "Calculator"
    assert [m["kind"] for m in item["messages"]] == ["human", "ai"]
