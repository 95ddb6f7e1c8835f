"""Answering Chat Trigger calls (``/webhook/<webhookId>/chat``, ``/webhook-test/<webhookId>/chat``).

* ``GET``: the hosted chat page (mode ``hostedChat``).
* ``POST {action: "loadPreviousSession"}``: the session's messages from memory (``loadPreviousSession: memory``),
  ``{"data": []}`` when off; with ``manually`` the workflow runs and answers.
* ``POST {action: "sendMessage", sessionId, chatInput}``: the body is the trigger's output item; the answer
  follows ``responseMode``: ``lastNode`` (the last node's first item), ``responseNode`` (what Respond to Chat or
  Respond to Webhook sends), or ``streaming``: the execution runs with ``EngineOptions(streaming=True)``, its
  ``sendChunk`` hook events go into a queue and are sent as they come (:mod:`weft.ai.chat.chunks`).

Production URLs answer for active workflows, test URLs while the editor listens (:mod:`weft.services.listening`:
the page and ``loadPreviousSession`` leave the listener in place, a message that runs the workflow claims it, as
n8n's test webhooks), in mode ``manual``. Both answer an empty 404 when the trigger is not ``public`` (n8n's
``ChatTrigger.webhook``; the editor's chat panel, behind the login, is :mod:`weft.services.editor_chat`), then
the trigger's ``authentication`` is checked (:mod:`weft.services.chat_auth`). The Simple Memory of executions
kept in the database is :class:`~weft.services.chat_memory.DbChatMemory` (re-exported here).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from weft.ai.chat.chunks import NDJSON_TYPE, SSE_TYPE, encode_chunk, stamp_chunk, text_chunks, wants_sse
from weft.ai.chat.history import langchain_messages
from weft.ai.chat.page import render_page
from weft.ai.chat.trigger import ChatTriggerError, ChatTriggerOptions, chat_trigger_options, is_chat_trigger
from weft.ai.memory.buffer_window import input_session_key
from weft.binary import pretty_bytes
from weft.errors import WeftError
from weft.nodes.webhooks import WebhookOptions, WebhookResponse
from weft.services.activation import ActiveWorkflows
from weft.services.auth import AuthService
from weft.services.binary_data import PendingBinary
from weft.services.chat_auth import NOT_AUTHENTICATED, check_basic, check_user, refusal
from weft.services.chat_memory import DbChatMemory
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import RunResult, WorkflowRunner
from weft.services.webhook_calls import ERROR, answer
from weft.services.webhook_requests import BadRequestError, IncomingRequest
from weft.workflow import AI_MEMORY, Item, NodeModel, Run

#: n8n's Simple Memory, whose sessions the chat lists (``loadPreviousSession``).
SIMPLE_MEMORY_TYPE = "@n8n/n8n-nodes-langchain.memoryBufferWindow"

log = logging.getLogger("weft.chat")


# --------------------------------------------------------------------------- finding the trigger


@dataclass(frozen=True, kw_only=True)
class ChatTarget:
    """What a chat call runs: the workflow and its Chat Trigger node."""

    prepared: PreparedWorkflow
    node: str
    options: ChatTriggerOptions


def chat_targets(prepared: PreparedWorkflow) -> list[ChatTarget]:
    """The enabled Chat Triggers of a workflow that have a ``webhookId``."""
    targets = []
    for node in prepared.workflow.nodes.values():
        if is_chat_trigger(node) and node.webhookId:
            targets.append(ChatTarget(prepared=prepared, node=node.name, options=chat_trigger_options(node)))
    return targets


class _ActiveIndex:
    """The active workflows' Chat Triggers by ``webhookId``, rebuilt when the set of active workflows changes."""

    def __init__(self) -> None:
        self._source: object = None
        self._targets: dict[str, ChatTarget] = {}

    def find(self, active: ActiveWorkflows, webhook_id: str) -> ChatTarget | None:
        if active.workflows is not self._source:
            targets: dict[str, ChatTarget] = {}
            for prepared in active.workflows.values():
                try:
                    targets.update((t.options.webhook_id, t) for t in chat_targets(prepared))
                except ChatTriggerError as exc:
                    log.error("Chat Trigger of workflow %r cannot be served: %s", prepared.id, exc)
            self._source, self._targets = active.workflows, targets
        return self._targets.get(webhook_id)


_INDEXES: WeakKeyDictionary[ActiveWorkflows, _ActiveIndex] = WeakKeyDictionary()


async def find_active_chat(active: ActiveWorkflows, webhook_id: str, *, refresh: bool = True) -> ChatTarget | None:
    """The Chat Trigger of an active workflow with ``webhook_id``; on a miss, with ``refresh``, the active
    workflows are reloaded first in case another process activated one."""
    index = _INDEXES.setdefault(active, _ActiveIndex())
    target = index.find(active, webhook_id)
    if target is None and refresh and await active.refresh():
        target = index.find(active, webhook_id)
    return target


def chat_target(prepared: PreparedWorkflow, node: str) -> ChatTarget | None:
    """The workflow's Chat Trigger named ``node`` (a test URL's listener names it)."""
    return next((target for target in chat_targets(prepared) if target.node == node), None)


# --------------------------------------------------------------------------- answering


@dataclass(frozen=True, kw_only=True)
class ChatStream:
    """A streamed answer: the chunks, encoded, as the execution produces them."""

    media_type: str
    chunks: AsyncIterator[bytes]
    headers: dict[str, str] = field(default_factory=lambda: {"cache-control": "no-cache"})


ChatAnswer = WebhookResponse | ChatStream

_NOT_FOUND = WebhookResponse(status_code=404)
_NO_PAGE = "The chat page is only served in 'Hosted Chat' mode; post messages to this URL instead"


async def call_chat(
    runner: WorkflowRunner,
    target: ChatTarget,
    request: IncomingRequest,
    *,
    test: bool,
    page_url: str,
    auth: AuthService | None = None,
    claim: Callable[[], Awaitable[None]] | None = None,
) -> ChatAnswer:
    """Answer one call of the chat URL (see the module docstring); ``page_url`` is where the page posts, ``auth``
    checks ``n8nUserAuth`` sessions, ``claim`` (a test URL's) is awaited before the workflow runs."""
    options = target.options
    if not options.public:
        return _NOT_FOUND
    denied = await check_auth(runner, target, request, auth)
    if denied is not None:
        return denied
    if request.method in ("GET", "HEAD"):
        if options.mode != "hostedChat":
            return WebhookResponse.json({"code": 404, "message": _NO_PAGE}, 404)
        return WebhookResponse.text(render_page(options, page_url, mode="test" if test else "production"))
    item = chat_item(request)
    if item["json"].get("action") == "loadPreviousSession" and options.load_previous_session != "manually":
        return await previous_session(runner, target, item)
    if claim is not None:
        await claim()
    mode = "manual" if test else "webhook"
    if options.streaming:
        return stream_chat(runner, target, item, mode, sse=wants_sse(request.headers.get("accept")))
    responded: asyncio.Future[WebhookResponse] = asyncio.get_running_loop().create_future()

    def respond(response: WebhookResponse) -> None:
        if not responded.done():
            responded.set_result(response)

    by_node = options.response_mode == "responseNode"
    task = runner.spawn(
        runner.run(
            target.prepared,
            mode=mode,
            start_node=target.node,
            trigger_items=[item],
            respond=respond if by_node else None,
        )
    )
    answer_options = WebhookOptions(methods=("POST",), path="", response_mode=options.response_mode)
    return await answer(answer_options, task, responded)


async def check_auth(
    runner: WorkflowRunner, target: ChatTarget, request: IncomingRequest, auth: AuthService | None = None
) -> WebhookResponse | None:
    """``None`` when the caller may chat; else n8n's answer (:mod:`weft.services.chat_auth`). ``auth`` checks
    ``n8nUserAuth`` sessions (without it no session is valid)."""
    kind = target.options.authentication
    if kind == "none":
        return None
    if kind == "n8nUserAuth":
        page = request.method in ("GET", "HEAD")
        if auth is None:
            return None if page else refusal(500, NOT_AUTHENTICATED)
        return await runner.db(check_user, auth, request.headers, page=page)
    if kind != "basicAuth":
        raise ChatTriggerError(
            f"The Chat Trigger's authentication {kind!r} is not supported",
            description=f"Set 'Authentication' on node {target.node!r} to 'Basic Auth', 'n8n User Auth' or 'None'.",
        )
    node = target.prepared.workflow.nodes[target.node]
    reference = (node.credentials or {}).get("httpBasicAuth")
    try:
        expected = await runner.db(
            runner.store.credentials.resolve_credentials,
            node.name,
            "httpBasicAuth",
            reference if isinstance(reference, Mapping) else None,
        )
    except WeftError:
        expected = None
    return check_basic(expected, request.headers)


def chat_item(request: IncomingRequest) -> Item:
    """The trigger's output item: the JSON body, or a multipart body's fields with ``files`` and binary data."""
    if request.form is not None:
        return _form_item(request)
    if not request.body:
        return {"json": {}}
    try:
        body = json.loads(request.body)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequestError(f"The request body is not valid JSON: {exc}") from None
    if not isinstance(body, dict):
        raise BadRequestError(
            "The chat message must be a JSON object such as "
            '{"action": "sendMessage", "sessionId": "…", "chatInput": "…"}'
        )
    return {"json": body}


def _form_item(request: IncomingRequest) -> Item:
    """n8n's ``handleFormData``: each file becomes ``binary.data<i>`` and an entry of ``json.files``."""
    item: Item = {"json": dict(request.form or {})}
    if not request.files:
        return item
    binary: dict[str, Any] = {}
    listed: list[dict[str, Any]] = []
    for index, upload in enumerate(request.files):
        key = f"data{index}"
        data = PendingBinary(upload.data, upload.content_type, upload.filename)
        binary[key] = data
        info = {**data, "fileSize": pretty_bytes(len(upload.data))}  # lodash pick's order
        picked = ("fileName", "fileSize", "fileType", "mimeType", "fileExtension")
        listed.append({**{k: info[k] for k in picked if k in info}, "binaryKey": key})
    item["json"]["files"] = listed
    item["binary"] = binary
    return item


async def previous_session(runner: WorkflowRunner, target: ChatTarget, item: Item) -> WebhookResponse:
    """``{"data": [...]}``: the session's messages from the memory connected to the trigger (Simple Memory)."""
    workflow = target.prepared.workflow
    session = item["json"].get("sessionId")
    if target.options.load_previous_session != "memory" or not session:
        return WebhookResponse.json({"data": []})
    for memory in workflow.sub_nodes(target.node, AI_MEMORY):
        key = simple_memory_key(target.prepared, workflow.nodes[memory], str(session))
        if key is not None:
            stored = await runner.db(runner.store.memory.load, key)
            return WebhookResponse.json({"data": langchain_messages(stored)})
    return WebhookResponse.json({"data": []})


def simple_memory_key(prepared: PreparedWorkflow, node: NodeModel, session: str) -> str | None:
    """Where the Simple Memory ``node`` keeps the chat session ``session`` it reads from its input (the workflow id,
    then :func:`weft.ai.memory.buffer_window.input_session_key`); ``None`` for another node or a fixed key."""
    if node.type != SIMPLE_MEMORY_TYPE or node.disabled:
        return None
    version = float(node.typeVersion)
    if version < 1.2 or node.parameters.get("sessionIdType", "fromInput") != "fromInput":
        return None
    return f"{prepared.workflow.id or 'workflow'}__{input_session_key(node.name, version, session)}"


# --------------------------------------------------------------------------- streaming


def stream_chat(runner: WorkflowRunner, target: ChatTarget, item: Item, mode: str, *, sse: bool) -> ChatStream:
    """Start the execution with streaming on; the answer relays its chunks as they come."""
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    task = runner.spawn(_run_streaming(runner, target, item, mode, queue))
    return ChatStream(media_type=SSE_TYPE if sse else NDJSON_TYPE, chunks=_relay(queue, task, sse=sse))


async def _run_streaming(
    runner: WorkflowRunner, target: ChatTarget, item: Item, mode: str, queue: asyncio.Queue[dict[str, Any] | None]
) -> RunResult:
    """``WorkflowRunner.run`` with ``streaming`` on and the ``sendChunk`` events put into ``queue`` (then ``None``)."""
    try:
        return await runner.run(
            target.prepared, mode=mode, start_node=target.node, trigger_items=[item], chunks=queue.put_nowait
        )
    finally:
        queue.put_nowait(None)


async def _relay(
    queue: asyncio.Queue[dict[str, Any] | None], task: asyncio.Task[RunResult], *, sse: bool
) -> AsyncIterator[bytes]:
    seen: set[str] = set()
    while (chunk := await queue.get()) is not None:
        seen.add(str(chunk.get("type")))
        yield encode_chunk(stamp_chunk(chunk), sse=sse)
    for chunk in await _closing_chunks(task, seen):
        yield encode_chunk(chunk, sse=sse)


async def _closing_chunks(task: asyncio.Task[RunResult], seen: set[str]) -> list[dict[str, Any]]:
    """After the last chunk: an error chunk for a failed execution that sent none; when nothing was streamed,
    the last node's answer as ``begin``/``item``/``end`` (a workflow without a streaming node still answers)."""
    try:
        run = (await task).run
    except Exception:
        return [stamp_chunk({"type": "error", "content": ERROR["message"]})]
    if run["status"] == "error":
        return [] if "error" in seen else [stamp_chunk({"type": "error", "content": ERROR["message"]})]
    if "item" in seen:
        return []
    last = run["data"]["resultData"].get("lastNodeExecuted")
    text = _last_answer(run, last)
    return text_chunks(text, {"nodeName": last, "runIndex": 0}) if text is not None else []


def _last_answer(run: Run, last: str | None) -> str | None:
    tasks = run["data"]["resultData"]["runData"].get(last or "") or []
    main = ((tasks[-1].get("data") or {}).get("main") or [[]]) if tasks else [[]]
    items = (main[0] or []) if main else []
    if not items:
        return None
    data = items[0].get("json", {})
    output = data.get("output", data.get("text")) if isinstance(data, Mapping) else None
    return output if isinstance(output, str) else json.dumps(data, ensure_ascii=False)


__all__ = [
    "ChatAnswer",
    "ChatStream",
    "ChatTarget",
    "DbChatMemory",
    "call_chat",
    "chat_item",
    "chat_target",
    "chat_targets",
    "check_auth",
    "find_active_chat",
    "previous_session",
    "simple_memory_key",
    "stream_chat",
]
