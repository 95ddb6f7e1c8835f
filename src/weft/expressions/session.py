"""A session: the data of one :class:`ExpressionContext` (one node run) loaded into a runtime, lazily.

The session starts with a small base (workflow, execution, variables, ``$now`` …) and the chunk of input items its
first evaluation reads, both in one call into the sandbox. Other chunks are loaded as evaluations reach them; other
nodes' outputs (and the node's own raw parameters), paired items, ``$parameter`` values and ``$env`` are loaded
when JavaScript asks for them (a *need*, see :mod:`weft.expressions.runtime`), and so is Luxon. When the runtime
goes from one execution's session to another's, the promise jobs the first left run before the second begins.

Expressions evaluated item after item keep only the last :data:`MAX_LOADED_CHUNKS` chunks (at most
:data:`MAX_LOADED_CHARS` characters of JSON) in the sandbox: older ones are dropped, and loaded again if an
expression asks for them, so a node run over hundreds of thousands of items fits in the sandbox's memory. Data that
does not fit all the same (``$input.all()`` of such a run) fails with :class:`SandboxMemoryError`, which names the
node, the limit and the fix.
"""

from __future__ import annotations

import json
import os
import time
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

import _quickjs

from weft.errors import ExpressionError
from weft.expressions.context import ExpressionContext
from weft.expressions.paired import resolve_paired_item
from weft.expressions.rundata import DataError, node_info, node_output
from weft.expressions.runtime import JsObject, JsRuntime, discard_runtime
from weft.workflow import MAIN

CHUNK_BITS = 9
CHUNK = 1 << CHUNK_BITS
#: Chunks of input items one session keeps in the sandbox when expressions ask for items one by one.
MAX_LOADED_CHUNKS = 16
#: ... and at most about this many characters of their JSON (the sandbox needs a few bytes per character).
MAX_LOADED_CHARS = 8 * 1024 * 1024
#: Chunks never dropped, however large: the current item's, the first's, the last's ($input.first()/last()).
MIN_LOADED_CHUNKS = 4
MAX_PARAM_DEPTH = 8

#: The timezone when neither the run nor the workflow names one: n8n's default ``GENERIC_TIMEZONE``.
DEFAULT_TIMEZONE = "America/New_York"


def _c_encoder(allow_nan: bool) -> Any:
    """``json.dumps(value, separators=(",", ":"), default=str, allow_nan=allow_nan)`` as one C encoder built once
    (``json.dumps`` with options builds a new one for each call); ``None`` without the C accelerator."""
    if c_make_encoder is None:  # pragma: no cover - CPython always has it
        return None
    return c_make_encoder(None, str, encode_basestring_ascii, None, ":", ",", False, False, allow_nan)


_C_STRICT = _c_encoder(False)
_C_NAN = _c_encoder(True)


def _dumps(value: Any) -> str:
    """Compact JSON; ``ValueError`` for NaN and infinities (a cycle is a ``RecursionError``)."""
    if _C_STRICT is None:  # pragma: no cover
        return json.dumps(value, separators=(",", ":"), default=str, allow_nan=False)
    return "".join(_C_STRICT(value, 0))


def _dumps_nan(value: Any) -> str:
    if _C_NAN is None:  # pragma: no cover
        return json.dumps(value, separators=(",", ":"), default=str)
    return "".join(_C_NAN(value, 0))


def _dumps_lenient(value: Any) -> str:
    try:
        return _dumps(value)
    except ValueError:  # NaN / Infinity: JSON has no spelling for them
        return _dumps_nan(value).replace("NaN", "null")


class SandboxMemoryError(ExpressionError):
    """The data an expression needs does not fit in the sandbox's memory."""

    @classmethod
    def loading(cls, ctx: ExpressionContext) -> SandboxMemoryError:
        mib = ctx.limits.memory_bytes // (1024 * 1024)
        node = ctx.node_name
        return cls(
            f"The data of node {node!r} does not fit in the {mib} MiB of the expression sandbox",
            description=(
                f"An expression of node {node!r} ({len(ctx.connection_input):,} input items) asked for more data "
                f"than the sandbox's memory limit of {mib} MiB holds. Give the node fewer items at once: split "
                "them into batches with a Loop Over Items node, and avoid $input.all() or $('…').all() over this "
                "many items."
            ),
            node_name=node,
            run_index=ctx.run_index,
        )


class Session:
    """The data of ``ctx`` as seen by one runtime."""

    def __init__(self, runtime: JsRuntime, ctx: ExpressionContext, item_index: int = 0) -> None:
        """Bind ``ctx`` to ``runtime``, loading its base and the chunk of input item ``item_index`` in one call."""
        self.runtime = runtime
        self.ctx = ctx
        self.items = ctx.connection_input
        self.fingerprint = _fingerprint(ctx)
        self.loaded_chunks: dict[int, int] = {}
        """The chunks in the sandbox, oldest first, with the characters of their JSON."""
        self.loaded_chars = 0
        self.param_depth = 0
        previous = runtime.session
        if previous is not None:
            runtime.end_session(run_jobs=not _same_execution(previous.ctx, ctx))
        text = _dumps_lenient(base_state(ctx))
        if 0 <= item_index < len(self.items):
            chunk = item_index >> CHUNK_BITS
            start = chunk << CHUNK_BITS
            items = _dumps_lenient(self.items[start : start + CHUNK])
            text = f"[{text},{start},{items}]"
            self.loaded_chunks[chunk] = self.loaded_chars = len(items)
        else:
            text = f"[{text}]"
        self._give("begin", self._to_js(text))
        runtime.session = self

    def is_for(self, ctx: ExpressionContext) -> bool:
        return self.ctx is ctx and self.items is ctx.connection_input and self.fingerprint == _fingerprint(ctx)

    # ------------------------------------------------------------------ items

    def ensure_item(self, item_index: int) -> None:
        chunk = item_index >> CHUNK_BITS
        if chunk not in self.loaded_chunks and 0 <= item_index < len(self.items):
            self._load_chunk(chunk)
            self._drop_old_chunks()

    def _load_chunk(self, chunk: int) -> None:
        start = chunk << CHUNK_BITS
        text = _dumps_lenient(self.items[start : start + CHUNK])
        self._give("setItems", start, self._to_js(text), False)
        self.loaded_chunks[chunk] = len(text)
        self.loaded_chars += len(text)

    def _drop_old_chunks(self) -> None:
        """Drop the oldest chunks beyond the limits (JavaScript asks for a dropped item again: it is undefined)."""
        chunks = self.loaded_chunks
        while len(chunks) > MIN_LOADED_CHUNKS and (
            len(chunks) > MAX_LOADED_CHUNKS or self.loaded_chars > MAX_LOADED_CHARS
        ):
            oldest = next(iter(chunks))
            self.loaded_chars -= chunks.pop(oldest)
            start = oldest << CHUNK_BITS
            count = min(CHUNK, len(self.items) - start)
            self._give("setItems", start, self._to_js(f'{{"length":{count}}}'), False)

    def _load_all_items(self) -> None:
        for chunk in range((len(self.items) + CHUNK - 1) >> CHUNK_BITS):
            if chunk not in self.loaded_chunks:
                self._load_chunk(chunk)
        self._give("setItems", 0, self._to_js("[]"), True)

    def _to_js(self, json_text: str) -> JsObject:
        """The value of ``json_text`` in the sandbox; :class:`SandboxMemoryError` when it does not fit."""
        try:
            return self.runtime.to_js(json_text)
        except _quickjs.JSException as exc:
            raise self._loading_error(exc) from None

    def _give(self, api: str, *args: Any) -> None:
        """Call the sandbox's loader ``api``; :class:`SandboxMemoryError` when the data does not fit."""
        try:
            self.runtime.api[api](*args)
        except _quickjs.JSException as exc:
            raise self._loading_error(exc) from None

    def _loading_error(self, exc: Exception) -> Exception:
        text = str(exc).strip()
        if text not in ("", "null") and "out of memory" not in text:  # not memory: an error of Weft's own code
            return exc
        discard_runtime()  # the context may be left half-way through; the next evaluation builds a new one
        return SandboxMemoryError.loading(self.ctx)

    # ------------------------------------------------------------------ needs

    def fulfil(self, request: list[Any], evaluate_parameter: Any) -> None:
        """Load what JavaScript asked for; ``evaluate_parameter(value, item_index)`` resolves ``$parameter``."""
        kind = request[0]
        api = self.runtime.api
        if kind == "items":
            if request[1] < 0:
                self._load_all_items()
            else:
                self.ensure_item(request[1])
        elif kind == "node":
            api["setNode"](request[1], self._to_js(_dumps_lenient(node_info(self.ctx, request[1]))))
        elif kind == "run":
            self._load_run(request[1], request[2], request[3])
        elif kind == "paired":
            self._load_paired(request[1], request[2], request[3])
        elif kind == "param":
            self._load_param(request[1], request[2], evaluate_parameter)
        elif kind == "env":
            env = dict(os.environ) if self.ctx.allow_env else {}
            api["setEnv"](self._to_js(_dumps(env)))
        elif kind == "luxon":  # a Luxon or Intl trap was reached: load the second bundle
            self.runtime.load_luxon()
        elif kind == "locale":  # Intl was given a locale whose data is not loaded yet
            self.runtime.load_locale(request[1])
        elif kind == "bundle":  # a helper bundle loaded on first use (hash, transliteration)
            self.runtime.load_bundle(request[1])

    def _load_run(self, name: str, branch: Any, run: int) -> None:
        try:
            record: dict[str, Any] = {"items": node_output(self.ctx, name, branch, run)}
        except DataError as exc:
            record = exc.record()
        key = "null" if branch is None else branch
        self.runtime.api["setRun"](name, key, run, self._to_js(_dumps_lenient(record)))

    def _load_paired(self, name: str, index: int, method: str) -> None:
        start = index
        stop = max(index + 1, min(len(self.items), (index | (CHUNK - 1)) + 1))
        records = []
        for i in range(start, stop):
            try:
                records.append({"item": resolve_paired_item(self.ctx, name, i, method)})
            except DataError as exc:
                records.append(exc.record())
        self.runtime.api["setPaired"](name, method, start, self._to_js(_dumps_lenient(records)))

    def _load_param(self, key: str, item_index: int, evaluate_parameter: Any) -> None:
        node = self.ctx.workflow.node(self.ctx.node_name)
        raw = node.parameters.get(key) if node is not None else None
        if self.param_depth >= MAX_PARAM_DEPTH:
            record: dict[str, Any] = DataError(
                f"$parameter.{key} refers back to itself", "Parameters may not reference each other in a cycle."
            ).record()
        else:
            self.param_depth += 1
            try:
                record = {"value": evaluate_parameter(raw, item_index)}
            except Exception as exc:  # an expression error inside the referenced parameter
                record = DataError(str(getattr(exc, "message", exc))).record()
            finally:
                self.param_depth -= 1
            if self.runtime.session is not self:  # the nested evaluation rebound the runtime
                return
        self.runtime.api["setParam"](key, item_index, self._to_js(_dumps_lenient(record)))


def _same_execution(previous: ExpressionContext, ctx: ExpressionContext) -> bool:
    """Whether two node runs belong to one execution (the same run data; a context without any is alone).

    ``previous`` is held by the runtime's session, so its run data cannot be freed and its identity reused."""
    data = ctx.run_execution_data
    return data is not None and data is previous.run_execution_data


def _fingerprint(ctx: ExpressionContext) -> tuple[Any, ...]:
    return (ctx.node_name, ctx.run_index, id(ctx.connection_input), len(ctx.connection_input))


def base_state(ctx: ExpressionContext) -> dict[str, Any]:
    """The part of the ``$``-variables that is loaded up front (small: the node's parameters, which
    ``$rawParameter`` reads, come with its node information when asked for)."""
    workflow = ctx.workflow
    node = workflow.node(ctx.node_name)
    sources = (ctx.input_source or {}).get(MAIN) or []
    first_source = sources[0] if sources else None
    now = ctx.now.timestamp() if ctx.now is not None else time.time()
    return {
        "itemCount": len(ctx.connection_input),
        "nodeName": ctx.node_name,
        "runIndex": ctx.run_index,
        "mode": ctx.mode,
        "workflow": {"id": workflow.id, "name": workflow.name, "active": workflow.active},
        "execution": {
            "id": ctx.execution_id,
            "mode": "test" if ctx.mode == "manual" else "production",
            "resumeUrl": ctx.resume_url,
            "resumeFormUrl": ctx.resume_url.replace("/webhook-waiting/", "/form-waiting/") if ctx.resume_url else None,
        },
        "customData": dict(ctx.custom_data),
        "variables": ctx.variables,
        "timezone": ctx.timezone or workflow.settings.timezone or DEFAULT_TIMEZONE,
        "now": int(now * 1000),
        "allowEnv": ctx.allow_env,
        "fromAi": ctx.from_ai_args,
        "preview": ctx.preview,
        "extra": ctx.additional_keys,
        "prevNode": {
            "name": first_source["previousNode"],
            "outputIndex": first_source.get("previousNodeOutput") or 0,
            "runIndex": first_source.get("previousNodeRun") or 0,
        }
        if first_source
        else None,
        "nodeVersion": node.typeVersion if node is not None else None,
        "nodeId": node.id if node is not None else None,
        "webhookId": node.webhookId if node is not None else None,
    }
