"""Code Tool (JavaScript in the sandbox) and Think, standalone and as tools of an agent."""

from __future__ import annotations

from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools.think import THINK_DESCRIPTION
from weft.engine import run_workflow
from weft.nodes.contract import ToolSpec
from weft.testing.workflows import connect, node, output_json, workflow

LC = "@n8n/n8n-nodes-langchain."


def standalone(type_: str, parameters: dict[str, Any], items: list[dict[str, Any]], version: float = 1) -> Any:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Tool", LC + type_, parameters, version=version),
        connect("Start", "Tool"),
        pin_data={"Start": items},
    )


def with_agent(tool: dict[str, Any], turns: list[Any]) -> Any:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        tool,
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect(tool["name"], "AI Agent", type_="ai_tool"),
    )


async def test_code_tool_gets_query_and_returns_a_string() -> None:
    wf = standalone("toolCode", {"jsCode": "return query.toUpperCase();"}, [{"input": "hi"}], 1.3)
    run = await run_workflow(wf, registry=agent_registry())
    assert output_json(run, "Tool") == [{"response": "HI"}]


async def test_code_tool_numbers_become_strings_and_objects_fail() -> None:
    run = await run_workflow(
        standalone("toolCode", {"jsCode": "return 6 * 7;"}, [{"input": ""}], 1.3), registry=agent_registry()
    )
    assert output_json(run, "Tool") == [{"response": "42"}]
    run = await run_workflow(
        standalone("toolCode", {"jsCode": "return {a: 1};"}, [{"input": ""}], 1.3), registry=agent_registry()
    )
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Wrong output type returned"
    assert error["description"] == "The response property should be a string, but it is an object"


async def test_code_tool_input_schema_from_example() -> None:
    params = {
        "jsCode": "return `${query.city} has ${query.days} days`;",
        "specifyInputSchema": True,
        "schemaType": "fromJson",
        "jsonSchemaExample": '{"city": "Paris", "days": 3}',
        "description": "Weather",
    }
    turns = [{"tool": "Weather", "args": {"city": "Rome", "days": 2}}, "{{last_tool_result}}"]
    run = await run_workflow(
        with_agent(node("Weather", LC + "toolCode", params, version=1.3), turns), registry=agent_registry()
    )
    assert output_json(run, "AI Agent") == [{"output": '[{"response":"Rome has 2 days"}]'}]


async def test_code_tool_schema_offered_to_the_model() -> None:
    from weft.ai.tools.code import ToolCode
    from weft.workflow import NodeModel

    class Ctx:
        node = NodeModel(
            name="My Tool",
            type=LC + "toolCode",
            typeVersion=1.3,
            parameters={"specifyInputSchema": True, "jsonSchemaExample": '{"a": {"b": [1]}}', "description": "d"},
        )

        def get_node_parameter(self, name: str, item_index: int = 0, default: Any = None, **_: Any) -> Any:
            return self.node.parameters.get(name, ToolCode.description.defaults.get(name, default))

    spec = ToolCode().tool_spec(Ctx(), 0)  # type: ignore[arg-type]
    assert isinstance(spec, ToolSpec) and spec.name == "My_Tool"
    assert spec.parameters == {
        "type": "object",
        "properties": {
            "a": {
                "type": "object",
                "properties": {"b": {"type": "array", "items": {"type": "number"}}},
                "required": ["b"],
                "additionalProperties": False,
            }
        },
        "required": ["a"],
        "additionalProperties": False,
    }


async def test_code_tool_errors_reach_the_agent() -> None:
    tool = node("Broken", LC + "toolCode", {"jsCode": "throw new Error('nope');", "description": "x"}, version=1.3)
    run = await run_workflow(
        with_agent(tool, [{"tool": "Broken", "args": {"input": "a"}}, "{{last_tool_result}}"]),
        registry=agent_registry(),
    )
    assert run["status"] == "success"
    assert output_json(run, "AI Agent")[0]["output"].startswith('[{"error":"nope')


async def test_think_returns_the_thought() -> None:
    run = await run_workflow(standalone("toolThink", {}, [{"input": "hmm"}], 1.1), registry=agent_registry())
    assert output_json(run, "Tool") == [{"response": "hmm"}]


async def test_think_tool_names() -> None:
    from weft.ai.tools.think import ToolThink
    from weft.workflow import NodeModel

    class Ctx:
        def __init__(self, version: float) -> None:
            self.node = NodeModel(name="My Think", type=LC + "toolThink", typeVersion=version, parameters={})

        def get_node_parameter(self, name: str, item_index: int = 0, default: Any = None, **_: Any) -> Any:
            return default

    assert ToolThink().tool_spec(Ctx(1), 0).name == "thinking_tool"  # type: ignore[arg-type]
    spec = ToolThink().tool_spec(Ctx(1.1), 0)  # type: ignore[arg-type]
    assert spec.name == "My_Think" and spec.description == THINK_DESCRIPTION


async def test_a_code_tool_runs_its_javascript_off_the_event_loop() -> None:
    """The loop keeps running other tasks while the tool's code is busy (user code runs in a worker thread)."""
    import asyncio
    import itertools
    import time

    from weft.ai.agent_catalog import agent_registry
    from weft.engine.loop import Execution
    from weft.testing.workflows import connect, node, workflow
    from weft.workflow import Workflow, parse_workflow

    busy = "const t = Date.now(); while (Date.now() - t < 1000) {} return 'done';"
    turns = [{"toolCalls": [{"name": "Busy", "args": {"input": "go"}}]}, "{{last_tool_result}}"]
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", "@n8n/n8n-nodes-langchain.agent", {"promptType": "define", "text": "go"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        node("Busy", "@n8n/n8n-nodes-langchain.toolCode", {"description": "busy", "jsCode": busy}, version=1.1),
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Busy", "AI Agent", type_="ai_tool"),
    )
    ticks: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        while not done.is_set():
            ticks.append(time.monotonic())
            await asyncio.sleep(0.005)

    ticker = asyncio.create_task(tick())
    run = await Execution(Workflow(parse_workflow(wf)), registry=agent_registry()).run()
    done.set()
    await ticker
    assert run["status"] == "success"
    assert run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]["output"] == (
        '[{"response":"done"}]'
    )
    # on the event loop, 1 s of busy code would stop the ticker for at least that second
    assert max(b - a for a, b in itertools.pairwise(ticks)) < 1.0
