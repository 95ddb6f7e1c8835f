"""One turn of the tools agent (n8n's Agent V3 ``execute.ts`` with ``utils/agent-execution/*``).

The agent never runs a tool. Each call of :func:`execute_agent` is one *turn*:

1. read the state of a resumed agent from the engine response's metadata (:mod:`.state`);
2. for every input item not finished yet (in batches, like n8n): check the iteration limit, turn the tool
   results of the item into tool messages, call the model;
3. a final answer finishes the item (output ``{output}``, memory saved); tool calls become actions;
4. if any item asked for tools, return ONE :class:`EngineRequest` with the actions of all items and the whole
   state as metadata; otherwise return the items' outputs.

An Agent-as-Tool node can reuse :func:`execute_agent` unchanged: it is a function of the context only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

from weft.ai.agent.hitl import absorb_responses, replay_in_messages
from weft.ai.agent.prompt import human_messages, prompt_text, system_message
from weft.ai.agent.state import AgentState, ItemState, PendingCall
from weft.ai.agent.steps import as_sent, intermediate_step, observation_of
from weft.ai.agent.structured import (
    RETRY,
    OutputParser,
    ParseRetries,
    format_tool,
    memory_text,
    output_json,
    output_parser,
    with_instructions,
)
from weft.ai.agent.tools import AgentTools, collect_tools
from weft.ai.errors import ChatModelError
from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolCall, ToolMessage
from weft.ai.models.base import ChatModel, StreamCallback
from weft.ai.models.traced import TracedChatModel
from weft.errors import NodeOperationError, WeftError
from weft.nodes.contract import EngineRequest, EngineResponse, ExecuteContext, ExecuteNodeAction
from weft.workflow import AI_LANGUAGE_MODEL, AI_MEMORY, Item, NodeOutput


@dataclass(frozen=True, kw_only=True)
class Turn:
    """What all items of one turn share."""

    ctx: ExecuteContext
    model: ChatModel
    fallback: ChatModel | None
    tools: AgentTools
    response: EngineResponse | None
    max_iterations: int
    streams: bool
    inline_tools: bool
    """Versions before 3 run the tools inside the agent (LangChain's AgentExecutor), not through the engine."""
    parser: OutputParser | None = None
    """The connected output parser (``hasOutputParser``): answers go through it."""


async def execute_agent(ctx: ExecuteContext) -> NodeOutput | EngineRequest:
    """Run one turn of the agent for all its input items (see the module docstring)."""
    # 1. the state of a resumed agent, or a fresh one
    response = ctx.engine_response
    state = AgentState.from_metadata(response.metadata if response is not None else None)
    turn = await _prepare_turn(ctx, response)
    items = ctx.get_input_data()
    todo = [i for i in range(len(items)) if not (i in state.items and state.items[i].finished)]
    # 2. the items, batchSize at a time (concurrently inside a batch), as n8n does
    batched = ctx.node.typeVersion >= 2  # n8n's V1 agents have no batching option
    batch_size = max(1, int(ctx.get_node_parameter("options.batching.batchSize", 0, 1) or 1)) if batched else 1
    delay_ms = float(ctx.get_node_parameter("options.batching.delayBetweenBatches", 0, 0) or 0) if batched else 0
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        results = await asyncio.gather(
            *(_run_item(turn, state.items.get(i), items[i], i) for i in batch), return_exceptions=True
        )
        for index, result in zip(batch, results, strict=True):
            state.items[index] = _settle(ctx, index, result)
        if delay_ms > 0 and start + batch_size < len(todo):
            await asyncio.sleep(delay_ms / 1000)
    # 3. one request for the tool calls of every item, or the outputs
    timeout = ctx.get_node_parameter("options.toolTimeout", 0, None)
    actions = [
        ExecuteNodeAction.from_json(p.gated)
        if p.gated is not None
        else turn.tools.action_for(ToolCall(id=p.id, name=p.name, args=p.args), index, timeout)
        for index in sorted(state.items)
        for p in state.items[index].pending
        if p.observation is None
    ]
    if actions:
        state.iteration_count += 1
        concurrent = ctx.get_node_parameter("options.runToolCallsConcurrently", 0, False) is True
        return EngineRequest(actions=actions, metadata=state.to_metadata(), concurrent=concurrent)
    return [[output for i in range(len(items)) if (output := state.items[i].output) is not None]]


def _is_chat_model(value: Any) -> TypeGuard[ChatModel]:
    """``isinstance(value, ChatModel)``, the model nodes' usual wrapper first: on Python 3.11 a runtime protocol check
    walks the protocol's classes each time (tens of microseconds per turn)."""
    return isinstance(value, TracedChatModel) or isinstance(value, ChatModel)


async def _prepare_turn(ctx: ExecuteContext, response: EngineResponse | None) -> Turn:
    models = [m for m in await ctx.get_input_connection_data(AI_LANGUAGE_MODEL, 0) if _is_chat_model(m)]
    if not models:
        raise NodeOperationError(
            ctx.node.name,
            "A Chat Model sub-node must be connected and enabled",
            description="Connect a chat model (for example the OpenAI Chat Model) to the agent's Chat Model input.",
        )
    fallback = None
    if ctx.node.typeVersion >= 2.1 and ctx.get_node_parameter("needsFallback", 0, False):  # n8n: from 2.1
        if len(models) < 2:
            raise NodeOperationError(
                ctx.node.name, "Please connect a model to the Fallback Model input or disable the fallback option"
            )
        fallback = models[1]
    max_iterations = ctx.get_node_parameter("options.maxIterations", 0, 10)
    if not isinstance(max_iterations, int | float) or isinstance(max_iterations, bool):
        raise NodeOperationError(
            ctx.node.name, f"Parameter 'options.maxIterations' must be a number, got {max_iterations!r}"
        )
    is_streaming: Any = getattr(ctx, "is_streaming", None)
    version = float(ctx.node.typeVersion)
    parser = await output_parser(ctx)
    tools = await collect_tools(ctx)
    if parser is not None:
        tools = tools.with_tool(format_tool(parser, ctx))
    if version < 2 and isinstance(models[0], TracedChatModel):
        models[0].logs_as_stream = True  # V1's AgentExecutor streams the model: n8n logs a streamed generation
    return Turn(
        ctx=ctx,
        model=models[0],
        fallback=fallback,
        tools=tools,
        response=response,
        max_iterations=int(max_iterations),
        streams=bool(is_streaming()) if callable(is_streaming) else False,
        inline_tools=version < 3,
        parser=parser,
    )


def _settle(ctx: ExecuteContext, index: int, result: ItemState | BaseException) -> ItemState:
    """An item's state after its turn; a failure becomes an error item when the node continues on fail."""
    if isinstance(result, ItemState):
        return result
    if not isinstance(result, Exception):
        raise result  # cancellation and engine signals are never swallowed
    if not ctx.continue_on_fail():
        if isinstance(result, WeftError):
            raise result
        raise NodeOperationError(ctx.node.name, str(result) or type(result).__name__, item_index=index) from result
    message = getattr(result, "message", None) or str(result)
    return ItemState(item_index=index, output={"json": {"error": message}, "pairedItem": {"item": index}})


# --------------------------------------------------------------------------- one item


async def _run_item(turn: Turn, saved: ItemState | None, item: Item, index: int) -> ItemState:
    ctx = turn.ctx
    options = _options(ctx, index)
    if saved is None:
        text = prompt_text(ctx, item, index)
        with_images = bool(options.get("passthroughBinaryImages", True))
        state = ItemState(item_index=index, messages=human_messages(text, item, with_images=with_images))
    else:
        # n8n checks the limit first thing on a resumed run
        _check_max_iterations(turn, saved)
        state = saved
        if absorb_responses(state, turn.response):
            return state  # approved tools run through the engine before the model is called again
        _resolve_pending(turn, state, turn.response)
    # n8n reads the memory with item 0 (``getOptionalMemory(ctx)``): every item uses item 0's session (case a039)
    memories = await ctx.get_input_connection_data(AI_MEMORY, 0)
    memory = memories[0] if memories else None
    history: list[Message] = await memory.load() if memory is not None else []
    return await _converse(turn, state, options, memory, history)


async def _converse(
    turn: Turn, state: ItemState, options: Mapping[str, Any], memory: Any, history: list[Message]
) -> ItemState:
    """Call the model until it answers, or asks for tools the engine must run."""
    text = system_message(options, float(turn.ctx.node.typeVersion))
    if turn.parser is not None:
        text = with_instructions(text)
    system: list[Message] = [SystemMessage(content=text)] if text is not None else []
    retries = ParseRetries(limit=int(options.get("outputParserRetries", 0) or 0))
    while True:
        conversation = [*history, *state.messages]
        prompt = [*system, *(conversation if turn.inline_tools else as_sent(conversation))]
        reply = await _call_model(turn, prompt, state.item_index, options)
        calls = _with_ids(reply.tool_calls, state)
        if turn.parser is not None and (not calls or turn.tools.answered(calls) is not None):
            parsed = await retries.parse(turn.parser, reply, turn.tools.answered(calls), state.messages)
            if parsed is RETRY:
                continue
            return await _finish_parsed(turn, state, parsed, options, memory)
        if not calls:
            return await _finish(turn, state, reply.content, options, memory)
        if turn.inline_tools:
            await _run_tools_inline(turn, state, calls)
            if state.iterations >= turn.max_iterations:
                return await _finish(turn, state, AGENT_STOPPED, options, memory)
            continue
        # replayed as n8n rebuilds it from the steps: no text, each call under its node's tool name (a053, a033)
        replayed = [
            ToolCall(id=c.id, name=turn.tools.replay_name(c.name), args=turn.tools.replay_args(c.name, c.args))
            for c in calls
        ]
        state.messages.append(AIMessage(content="", tool_calls=replayed))
        state.iterations += 1
        state.pending = [
            PendingCall(
                id=c.id,
                name=c.name,
                args=c.args,
                observation=None if c.name in turn.tools.by_name else turn.tools.unknown_tool_message(c.name),
            )
            for c in calls
        ]
        if any(p.observation is None for p in state.pending):
            return state
        # only unknown tools: the model gets the errors at once, and that counts as an iteration
        _resolve_pending(turn, state, None)
        _check_max_iterations(turn, state)


async def _call_model(turn: Turn, prompt: list[Message], index: int, options: Mapping[str, Any]) -> AIMessage:
    stream: StreamCallback | None = None
    if turn.streams and options.get("enableStreaming", True):
        ctx = turn.ctx

        async def stream(delta: str) -> None:
            await ctx.send_chunk("item", delta)

        await ctx.send_chunk("begin", None)
    try:
        response = await turn.model.generate(prompt, turn.tools.definitions, stream_callback=stream)
    except ChatModelError:
        if turn.fallback is None:
            raise
        response = await turn.fallback.generate(prompt, turn.tools.definitions, stream_callback=stream)
    if stream is not None:
        await turn.ctx.send_chunk("end", None)
    return response.message


#: LangChain's AgentExecutor answer when the iteration limit is reached (versions before 3).
AGENT_STOPPED = "Agent stopped due to max iterations."


async def _run_tools_inline(turn: Turn, state: ItemState, calls: list[ToolCall]) -> None:
    """Run one turn's tool calls in the agent, in call order, as versions before 3 do (no engine request)."""
    state.messages.append(AIMessage(content="", tool_calls=calls))
    state.iterations += 1
    for call in calls:
        spec = turn.tools.by_name.get(call.name)
        invoke = spec.invoke if spec is not None else None
        if spec is None:
            observation = f"{call.name} is not a valid tool, try another one."  # the executor's answer (a070)
        elif invoke is None:
            raise NodeOperationError(
                turn.ctx.node.name,
                f"The tool {call.name!r} can only run through the engine, which AI Agent versions before 3 do not do.",
                description="Upgrade the AI Agent node to typeVersion 3 or later.",
            )
        else:
            observation = str(await invoke(dict(call.args)))
        state.messages.append(ToolMessage(tool_call_id=call.id, name=call.name, content=observation))
        step = intermediate_step(call, observation)
        del step["action"]["type"]  # the executor's steps have no type (recorded: case a064)
        state.steps.append(step)


def _with_ids(calls: list[ToolCall], state: ItemState) -> list[ToolCall]:
    """The calls, each with an id (a few servers send none; the tool result must name one)."""
    return [
        c if c.id else ToolCall(id=f"call_{state.item_index}_{state.iterations}_{n}", name=c.name, args=c.args)
        for n, c in enumerate(calls)
    ]


def _resolve_pending(turn: Turn, state: ItemState, response: EngineResponse | None) -> None:
    """The results of the last tool calls become tool messages and intermediate steps, in call order."""
    responses = {
        r.action.id: r
        for r in (response.action_responses if response is not None else [])
        if r.action.metadata.item_index == state.item_index
    }
    for pending in state.pending:
        replay_in_messages(state, pending)
        args = pending.replay if pending.replay is not None else turn.tools.replay_args(pending.name, pending.args)
        call = ToolCall(id=pending.id, name=turn.tools.replay_name(pending.name), args=args)
        observation = pending.observation
        if observation is None:
            observation = observation_of(responses.get(pending.id))
        state.messages.append(ToolMessage(tool_call_id=pending.id, name=call.name, content=observation))
        state.steps.append(intermediate_step(call, observation))
    state.pending = []


def _check_max_iterations(turn: Turn, state: ItemState) -> None:
    if state.iterations >= turn.max_iterations:
        raise NodeOperationError(
            turn.ctx.node.name,
            f"Max iterations ({turn.max_iterations}) reached. The agent could not complete the task within the "
            "allowed number of iterations.",
            item_index=state.item_index,
        )


async def _finish(turn: Turn, state: ItemState, text: str, options: Mapping[str, Any], memory: Any) -> ItemState:
    """The item's answer; memory is saved now, and only now, with the tool calls and results of this turn."""
    output: dict[str, Any] = {"output": text}
    if options.get("returnIntermediateSteps"):  # even when empty, as n8n 2.41 (2.8.4 left it out; a072)
        output["intermediateSteps"] = state.steps
    state.output = {"json": output, "pairedItem": {"item": state.item_index}}
    if memory is not None:
        if turn.inline_tools:
            # versions before 3: the executor's memory.saveContext({input}, {output}), tools left out (a067)
            human = next(m for m in state.messages if isinstance(m, HumanMessage))
            await memory.save(_for_memory([human, AIMessage(content=text)]))
        else:
            await memory.save(_for_memory([*state.messages, AIMessage(content=text)]), logged=not state.steps)
    return state


async def _finish_parsed(
    turn: Turn, state: ItemState, result: Any, options: Mapping[str, Any], memory: Any
) -> ItemState:
    """The item's answer from the output parser (``format_final_json_response`` or a parsed text)."""
    state = await _finish(turn, state, memory_text(result), options, memory)
    output = output_json(result, with_memory=memory is not None)
    if options.get("returnIntermediateSteps"):
        output["intermediateSteps"] = state.steps
    state.output = {"json": output, "pairedItem": {"item": state.item_index}}
    return state


def _for_memory(messages: list[Message]) -> list[Message]:
    """Messages as kept in memory: images are not stored (only the text of the human message)."""
    return [
        HumanMessage(content=m.text) if isinstance(m, HumanMessage) else m
        for m in messages
        if not (isinstance(m, HumanMessage) and not m.text)
    ]


def _options(ctx: ExecuteContext, index: int) -> Mapping[str, Any]:
    options = ctx.get_node_parameter("options", index, {})
    return options if isinstance(options, Mapping) else {}


__all__ = ["Turn", "execute_agent"]
