"""Small node types for testing the engine, in the spirit of n8n's ``requests-response.test.ts`` helpers.

Register them on a registry with :func:`probe_registry`. Their type names start with ``weft.test.``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import (
    ActionMetadata,
    EngineRequest,
    ExecuteContext,
    ExecuteNodeAction,
    NodeDescription,
    NodeType,
    SupplyDataContext,
)
from weft.nodes.registry import NodeRegistry
from weft.workflow import AI_TOOL, MAIN, Item, NodeOutput


class SetValues(NodeType):
    """Merges the fixed ``values`` parameter into every item (like n8n's old Set node in the engine fixtures)."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.set", display_name="Set values")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        values = ctx.get_node_parameter("values", 0, {}, raw=True)
        keep = ctx.get_node_parameter("keepOnlySet", 0, False, raw=True)
        return [[{"json": dict(values) if keep else {**item["json"], **values}} for item in ctx.get_input_data()]]


class Route(NodeType):
    """Two outputs: items whose ``field`` is truthy go to output 0, the others to output 1."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.test.route", display_name="Route", outputs=(MAIN, MAIN)
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        field = ctx.get_node_parameter("field", 0, "ok", raw=True)
        yes = [i for i in ctx.get_input_data() if i["json"].get(field)]
        no = [i for i in ctx.get_input_data() if not i["json"].get(field)]
        return [yes, no]


class Append(NodeType):
    """Two inputs, one output: input 0's items then input 1's."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.test.append", display_name="Append", inputs=(MAIN, MAIN)
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return [ctx.get_input_data(0) + ctx.get_input_data(1)]


#: Calls per node name, for retry tests; tests reset it.
CALLS: dict[str, int] = {}


class Flaky(NodeType):
    """Fails (raises, or returns an ``error`` item with ``mode: item``) until call number ``succeedOn``."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.flaky", display_name="Flaky")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        count = CALLS[ctx.node.name] = CALLS.get(ctx.node.name, 0) + 1
        succeed_on = ctx.get_node_parameter("succeedOn", 0, 1, raw=True)
        if count >= succeed_on:
            return [[{"json": {"success": True, "count": count}}]]
        if ctx.get_node_parameter("mode", 0, "raise", raw=True) == "item":
            return [[{"json": {"error": ctx.get_node_parameter("errorValue", 0, "x", raw=True)}}]]
        raise NodeOperationError(ctx.node.name, f"simulated error, count = {count}")


class FailItems(NodeType):
    """Fails on items whose ``fail`` is true: per item, honouring ``continue_on_fail`` like n8n's Code node."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.failItems", display_name="Fail items")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            if item["json"].get("fail"):
                if not ctx.continue_on_fail():
                    raise NodeOperationError(ctx.node.name, "This is an error", item_index=index)
                out.append({"json": {"error": "This is an error"}, "pairedItem": {"item": index}})
            else:
                out.append({"json": {**item["json"], "passed": True}, "pairedItem": {"item": index}})
        return [out]


class Nothing(NodeType):
    """Returns no items on output 0 (or ``None`` with ``returnNull``)."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.nothing", display_name="Nothing")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | None:
        return None if ctx.get_node_parameter("returnNull", 0, False, raw=True) else [[]]


class Requester(NodeType):
    """Requests the nodes in ``actions`` on its first call; on resume outputs what the responses held.

    ``actions`` is a list of ``{nodeName, input, id, itemIndex?}``. The final item is
    ``{finalResult, actionCount, responses, responseMetadata}``. ``rounds`` > 1 requests again on resume.
    """

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.requester", display_name="Requester")
    seen: ClassVar[list[Any]] = []

    async def execute(self, ctx: ExecuteContext) -> NodeOutput | EngineRequest:
        response = ctx.engine_response
        type(self).seen.append(response)
        rounds = ctx.get_node_parameter("rounds", 0, 1, raw=True)
        done = response.metadata.get("round", 0) if response is not None else 0
        if done < rounds:
            specs = ctx.get_node_parameter("actions", 0, [], raw=True)
            actions = [
                ExecuteNodeAction(
                    node_name=spec["nodeName"],
                    input=spec.get("input", {}),
                    id=f"{spec.get('id', 'action')}_{done}",
                    type=AI_TOOL,
                    metadata=ActionMetadata.from_json(
                        {"itemIndex": spec.get("itemIndex", 0), **spec.get("metadata", {})}
                    ),
                )
                for spec in specs
            ]
            concurrent = ctx.get_node_parameter("concurrent", 0, False, raw=True) is True
            metadata = {"requestId": "test_request", "round": done + 1}
            return EngineRequest(actions=actions, metadata=metadata, concurrent=concurrent)
        assert response is not None
        results = [r.items[0]["json"] if r.items else None for r in response.action_responses]
        final = {
            "finalResult": "done",
            "actionCount": len(response.action_responses),
            "responses": results,
            "responseMetadata": response.metadata,
        }
        return [[{"json": final}]]


class Echo(NodeType):
    """A tool: returns its input item's json plus ``echoed: true`` (on ``ai_tool`` when run as a tool)."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.echo", display_name="Echo")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        prefix = ctx.get_node_parameter("prefix", 0, "", raw=False)
        return [[{"json": {**item["json"], "echoed": True, "prefix": prefix}} for item in ctx.get_input_data()]]


class Boom(NodeType):
    """Always raises ``message``."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.boom", display_name="Boom")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        raise NodeOperationError(ctx.node.name, ctx.get_node_parameter("message", 0, "boom", raw=True))


class Sleep(NodeType):
    """Sleeps ``seconds`` (cancellable), swallowing ordinary exceptions to prove it cannot block a cancel."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.sleep", display_name="Sleep")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        import asyncio

        try:
            await asyncio.sleep(ctx.get_node_parameter("seconds", 0, 10, raw=True))
        except Exception:
            pass
        return [ctx.get_input_data()]


class WaitHere(NodeType):
    """Puts the execution to wait far in the future; with ``resumeNode`` it runs again on resume."""

    description: ClassVar[NodeDescription] = NodeDescription(name="weft.test.waitHere", display_name="Wait here")

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        from datetime import UTC, datetime

        resume_node = ctx.get_node_parameter("resumeNode", 0, False, raw=True)
        state = ctx.get_context("node")
        if resume_node and state.get("waited"):
            return [[{"json": {**item["json"], "resumed": True}} for item in ctx.get_input_data()]]
        state["waited"] = True
        ctx.put_execution_to_wait(datetime(3000, 1, 1, tzinfo=UTC), resume_node=resume_node)
        return [ctx.get_input_data()]


class Supplier(NodeType):
    """A sub-node on ``ai_memory`` that supplies ``{"value": <parameter>}`` and records one run per call."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.test.supplier", display_name="Supplier", inputs=(), outputs=("ai_memory",)
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        value = ctx.get_node_parameter("value", item_index, "v")
        run = ctx.add_input_data("ai_memory", [[{"json": {"asked": item_index}}]])
        ctx.add_output_data("ai_memory", run, [[{"json": {"value": value}}]])
        return {"value": value}


class Consumer(NodeType):
    """Outputs what its ``ai_memory`` sub-nodes supply, once per input item."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.test.consumer", display_name="Consumer", inputs=(MAIN, "ai_memory")
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, _ in enumerate(ctx.get_input_data()):
            out.append({"json": {"supplied": await ctx.get_input_connection_data("ai_memory", index)}})
        return [out]


PROBE_NODES: tuple[type[NodeType], ...] = (
    Supplier,
    Consumer,
    WaitHere,
    SetValues,
    Route,
    Append,
    Flaky,
    FailItems,
    Nothing,
    Requester,
    Echo,
    Boom,
    Sleep,
)


def probe_registry() -> NodeRegistry:
    """The built-in registry plus the probe nodes."""
    registry = NodeRegistry()
    registry.register_many(PROBE_NODES)
    return registry
