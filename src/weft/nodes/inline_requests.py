"""A node run inside its caller that asks for the engine: its engine requests resolved in process.

A node called inline as a tool (by an AI Agent before version 3, or by the MCP Server Trigger) has no engine to
run its requests. An AI Agent Tool is such a node: its own agent asks for its tools with an
:class:`~weft.nodes.contract.EngineRequest`. n8n 2.41.1 fails it ("A connected tool returned an engine request
…"); newer n8n resolves the requests in process (``resolveSubAgentEngineRequests``), and so does Weft: each
requested tool runs through its own :attr:`ToolSpec.invoke` (which records its run, as an inline tool's), and the
node is called again with the answers, at most :data:`MAX_ROUNDS` times.
"""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.connected_tools import connected_tools
from weft.nodes.contract import (
    ActionResponse,
    EngineRequest,
    EngineResponse,
    ExecuteContext,
    ExecuteNodeAction,
    NodeType,
    ToolSpec,
)
from weft.workflow import NodeOutput, TaskData

#: n8n's ``MAX_ENGINE_REQUEST_ITERATIONS``.
MAX_ROUNDS = 50


async def execute_resolving_requests(node_type: NodeType, ctx: ExecuteContext) -> NodeOutput | None:
    """``node_type.execute(ctx)``, answering each engine request it returns until it returns its output."""
    result = await node_type.execute(ctx)
    rounds = 0
    while isinstance(result, EngineRequest):
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise NodeOperationError(
                ctx.node.name,
                f'Sub-agent "{ctx.node.name}" exceeded maximum engine request iterations ({MAX_ROUNDS})',
                description="Its model kept calling tools; lower its Max Iterations option or change its prompt.",
            )
        ctx.engine_response = await _answer(ctx, result)  # type: ignore[misc]
        result = await node_type.execute(ctx)
    return result


async def _answer(ctx: ExecuteContext, request: EngineRequest) -> EngineResponse:
    specs = await connected_tools(ctx, f"the Tool input of {ctx.node.name!r}")
    responses = [ActionResponse(action=action, data=await _run(specs, action)) for action in request.actions]
    return EngineResponse(action_responses=responses, metadata=request.metadata)


async def _run(specs: list[ToolSpec], action: ExecuteNodeAction) -> TaskData:
    """One requested tool, run through its inline runner; its answer as a run record of the engine's shape."""
    arguments = dict(action.input)
    wanted = arguments.pop("tool", None)
    candidates = [s for s in specs if s.source_node_name == action.node_name]
    spec = next((s for s in candidates if s.kind != "toolkit" or s.name == wanted), None)
    if spec is None or spec.invoke is None:
        error = f"The tool {action.node_name!r} cannot be run inside a tool"
        return {"executionStatus": "error", "error": {"message": error}, "data": {}}  # type: ignore[typeddict-item]
    if spec.kind != "toolkit" and wanted is not None:
        arguments["tool"] = wanted
    try:
        answer: Any = await spec.invoke(arguments)
    except NodeOperationError as exc:
        return {"executionStatus": "error", "data": {action.type: [[{"json": {"error": exc.message}}]]}}  # type: ignore[typeddict-item]
    return {"executionStatus": "success", "data": {action.type: [[{"json": {"response": answer}}]]}}  # type: ignore[typeddict-item]


__all__ = ["MAX_ROUNDS", "execute_resolving_requests"]
