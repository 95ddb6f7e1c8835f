"""What the legacy Function and Function Item nodes share: their sandbox globals and binary-data bridge.

n8n ran these nodes' code in vm2 with sandbox globals (``items`` or ``item``, ``$item(i)``,
``getBinaryDataAsync``/``setBinaryDataAsync``, ``getNodeParameter``, ``getWorkflowStaticData``). Weft runs
the code with the Code node's machinery (:func:`weft.expressions.run_code`, in a worker thread, time-limited):
the user's code is wrapped in :func:`wrap_code`, whose prelude sits on the code's first line, so the line
numbers in errors stay the user's. Binary bytes are read before the run (only when the code asks for them)
and the entries the code sets are stored after it, through the context's binary helpers, so every storage
mode works.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

#: Marks a binary entry the code set (its ``data`` is base64 from the code, not yet stored).
SET_MARK = "\ufdd0set"
#: What the wrapper reports for a result of ``undefined`` (JSON has no such value).
UNDEFINED_MARK = "\ufdd0undefined"
#: The line the sandbox adds to a code error, and the Function Item's own ``[Line N | Item Index: I]``.
_LINE = re.compile(r"\s*\[(?:[lL]ine (\d+)(?: \| Item Index: \d+)?|Item Index: \d+)\]$")


def _js(value: Any) -> str:
    """A JSON literal for JavaScript, on one line."""
    return json.dumps(value, ensure_ascii=True)


def _item_proxy() -> str:
    """``$item(i)``: the data proxy of input item ``i`` (n8n ``getWorkflowDataProxy(i)``)."""
    return (
        "const __wAt = (i) => { const x = __items[i] || {}; return {$json: x.json || {}, $data: x.json || {},"
        " $binary: x.binary || {}, $position: i, $thisItemIndex: i, $itemIndex: i, $parameter, $workflow, $env,"
        " $now, $today, $runIndex, $mode, $items, $input, $jmespath,"
        " $node: new Proxy({}, {get: (_, n) => { if (typeof n !== 'string') return undefined;"
        " const out = $items(n)[i] || {}; return {json: out.json, data: out.json, binary: out.binary || {},"
        " parameter: $node[n].parameter, runIndex: $node[n].runIndex, context: $node[n].context}; }})}; };"
    )


_NO_ITEM = "No item was provided to setBinaryDataAsync (item: INodeExecutionData, data: IBinaryKeyData)."
_NO_DATA = "No data was provided to setBinaryDataAsync (item: INodeExecutionData, data: IBinaryKeyData)."
_NO_DATA_ITEM = "No data was provided to setBinaryDataAsync (data: IBinaryKeyData)."


def _binary_bridge(per_item: bool, fetched: dict[str, dict[str, str]]) -> str:
    """``getBinaryDataAsync``/``setBinaryDataAsync`` over the bytes read before the run. Unlike n8n, reading
    the bytes does not write them into the item's entry (n8n's output then carried the file inline)."""
    target, arg = ("__wSrc", "") if per_item else ("it", "it")
    check = f"if (!data) throw new Error({_js(_NO_DATA_ITEM)});"
    if not per_item:
        check = f"if (!it) throw new Error({_js(_NO_ITEM)}); if (!data) throw new Error({_js(_NO_DATA)});"
    return (
        f"const __wB = {_js(fetched)};"
        f"const __wGet = async ({arg}) => {{ const t = {target};"
        " if (t && t.binary && t.index !== undefined && t.index !== null) { const out = {};"
        " for (const k of Object.keys(t.binary)) out[k] = Object.assign({}, t.binary[k],"
        " {data: (__wB[String(t.index)] || {})[k]}); return out; } return t ? t.binary : undefined; };"
        f"const __wSet = async ({arg + ', ' if arg else ''}data) => {{ {check}"
        " const out = {}; for (const k of Object.keys(data)) out[k] = Object.assign({}, data[k],"
        f" {{{_js(SET_MARK)}: true}}); {target}.binary = out; }};"
    )


def wrap_code(code: str, *, per_item: bool, item_index: int = 0, fetched: dict[str, dict[str, str]]) -> str:
    """The user's code inside the Function (``per_item=False``) or Function Item sandbox, for ``run_code``.

    The result comes back as ``{json: {r: <value>, b: <the item's binary>}}`` (``r`` is :data:`UNDEFINED_MARK`
    for ``undefined``); everything added sits on the code's first line or after its last."""
    static = "$getWorkflowStaticData" if "getWorkflowStaticData" in code else "undefined"
    head = f"const __wStatic = {static};{_binary_bridge(per_item, fetched)}"
    binary = "__wSrc.binary" if per_item else "null"
    done = f"(r) => ({{json: {{r: r === undefined ? {_js(UNDEFINED_MARK)} : r, b: {binary}}}}})"
    if per_item:
        head += f"const __wSrc = JSON.parse(JSON.stringify(__item)); __wSrc.index = {int(item_index)};"
        params = "item, getBinaryData, setBinaryData, getBinaryDataAsync, setBinaryDataAsync"
        args = "__wSrc.json, () => __wSrc.binary, async (d) => __wSet(d), __wGet, __wSet"
        name = "__weftFunctionItem"
    else:
        head += _item_proxy() + "const __wIn = JSON.parse(JSON.stringify(__items));"
        head += "__wIn.forEach((x, i) => { x.index = i; });"
        params = "items, $item, getBinaryDataAsync, setBinaryDataAsync"
        args = "__wIn, __wAt, __wGet, __wSet"
        name = "__weftFunction"
    params += ", getNodeParameter, getWorkflowStaticData"
    args += ", (n) => $parameter[n], __wStatic"
    return f"{head}return await (async ({params}) => (async function {name}() {{{code}\n}})())({args}).then({done});"


async def fetch_binaries(ctx: ExecuteContext, code: str, indices: range) -> dict[str, dict[str, str]]:
    """The base64 bytes of the input items' binary properties, when the code reads them."""
    if "getBinaryDataAsync" not in code:
        return {}
    items = ctx.get_input_data()
    out: dict[str, dict[str, str]] = {}
    for index in indices:
        for prop in (items[index].get("binary") or {}) if index < len(items) else {}:
            data = await ctx.get_binary_data_buffer(index, prop)
            out.setdefault(str(index), {})[prop] = base64.b64encode(data).decode("ascii")
    return out


async def store_binaries(ctx: ExecuteContext, binary: Any) -> dict[str, Any] | None:
    """The item's binary entries with those the code set stored in the execution's binary-data mode."""
    if binary is None:
        return None
    if not isinstance(binary, dict):
        raise NodeOperationError(ctx.node.name, "The binary-property has to be an object!")
    out: dict[str, Any] = {}
    for prop, entry in binary.items():
        if isinstance(entry, dict) and entry.get(SET_MARK):
            out[prop] = await _store_entry(ctx, prop, entry)
        else:
            out[prop] = entry
    return out


async def _store_entry(ctx: ExecuteContext, prop: str, entry: dict[str, Any]) -> dict[str, Any]:
    metadata = {key: value for key, value in entry.items() if key not in (SET_MARK, "data", "id")}
    try:
        data = base64.b64decode(str(entry.get("data") or ""), validate=False)
    except (binascii.Error, ValueError):
        raise NodeOperationError(
            ctx.node.name,
            f"The binary data {prop!r} set by the code is not base64",
            description="Pass the file's bytes as base64 in 'data', e.g. Buffer.from(text).toString('base64').",
        ) from None
    return await ctx.binary_entry(data, metadata)


def split_line(error: NodeError) -> tuple[str, str | None]:
    """The code error's message without the ``[line N]`` the sandbox adds, and that line."""
    match = _LINE.search(error.message)
    if match is None:
        return error.message, None
    return error.message[: match.start()], match.group(1)


def unwrap(items: list[Item]) -> tuple[Any, Any]:
    """The code's result (``UNDEFINED_MARK`` for ``undefined``) and the item's binary, from the wrapper's item."""
    json_data: Any = items[0]["json"] if items else {}
    return json_data.get("r", UNDEFINED_MARK), json_data.get("b")
