"""What happens to a node's output or error: retries, ``onError``, ``alwaysOutputData``, paired items.

Pure functions over plain JSON, mirroring the helpers of n8n's ``workflow-execute.ts``.
"""

from __future__ import annotations

from typing import Any

from weft.engine.entry_metadata import EntryMetadata
from weft.errors import NodeError, NodeOperationError, WeftError
from weft.workflow import ExecuteData, Item, NodeModel, NodeOutput, PairedItem


def retry_params(node: NodeModel, execute_data: ExecuteData) -> tuple[int, float]:
    """``(max_tries, wait_seconds)``; n8n clamps tries to 2..5 and the wait to 0..5000 ms."""
    if not node.retryOnFail or EntryMetadata.of(execute_data).resume_error is not None:
        return 1, 0.0
    tries = min(5, max(2, node.maxTries or 3))
    wait_ms = min(5000, max(0, node.waitBetweenTries if node.waitBetweenTries is not None else 1000))
    return tries, wait_ms / 1000


def output_failed(output: NodeOutput | None) -> bool:
    """n8n's ``checkFailure``: the first item of the first output has a truthy ``json.error``."""
    if not output or not output[0]:
        return False
    error = output[0][0].get("json", {}).get("error")
    return error is not None and error is not False


def continues_on_error(node: NodeModel) -> bool:
    return node.continueOnFail or node.onError in ("continueRegularOutput", "continueErrorOutput")


def error_to_json(error: BaseException, node_name: str) -> dict[str, Any]:
    """The error as stored in ``ITaskData.error`` / ``resultData.error``."""
    if isinstance(error, NodeError):
        return error.to_json()
    if isinstance(error, WeftError):
        data = error.to_json()
        data.setdefault("node", {"name": node_name})
        return data
    wrapped = NodeOperationError(node_name, str(error) or type(error).__name__)
    wrapped.__traceback__ = error.__traceback__
    data = wrapped.to_json()
    data["stack"] = _format(error)
    return data


def _format(error: BaseException) -> str:
    import traceback

    return "".join(traceback.format_exception(error)).strip()


def add_paired_item_lineage(execute_data: ExecuteData) -> None:
    """Stamp each input item with ``pairedItem = {item: i, input: k}`` (n8n ``addPairedItemLineage``).

    Only a node run as a tool (``metadata.preserveSourceOverwrite``) keeps a ``sourceOverwrite``: the preserved
    one, else the item's own. Any other node's items point at their own input position, even when they came
    from a Loop Over Items that had set one.
    """
    metadata = EntryMetadata.of(execute_data)
    for ctype, inputs in execute_data["data"].items():
        for input_index, items in enumerate(inputs):
            if items is None:
                continue
            if metadata.preserve_source_overwrite:
                stamped = _stamped_keeping_overwrite(items, input_index, metadata.preserved_source_overwrite)
            elif input_index:
                stamped = [{**item, "pairedItem": {"item": i, "input": input_index}} for i, item in enumerate(items)]
            else:
                stamped = [{**item, "pairedItem": {"item": i}} for i, item in enumerate(items)]
            execute_data["data"][ctype][input_index] = stamped  # type: ignore[assignment]


def _stamped_keeping_overwrite(items: list[Item], input_index: int, preserved: Any) -> list[Item]:
    """A tool's items: each paired to its position, keeping the preserved ``sourceOverwrite`` (else its own)."""
    stamped: list[Item] = []
    for item_index, item in enumerate(items):
        paired: dict[str, Any] = {"item": item_index}
        if input_index:
            paired["input"] = input_index
        previous = item.get("pairedItem")
        overwrite = preserved or (previous.get("sourceOverwrite") if isinstance(previous, dict) else None)
        if overwrite:
            paired["sourceOverwrite"] = overwrite
        stamped.append({**item, "pairedItem": paired})  # type: ignore[typeddict-item]
    return stamped


def assign_paired_items(output: NodeOutput | None, execute_data: ExecuteData) -> NodeOutput | None:
    """Fill in missing ``pairedItem``s where the pairing is unambiguous (n8n ``assignPairedItems``)."""
    if not output:
        return output
    main = execute_data["data"].get("main") or []
    first_input = main[0] if main else None
    n_in = len(first_input) if first_input is not None else 0
    single_input = len(main) == 1 and n_in == 1
    same_count = len(output) == 1 and len(main) == 1 and first_input is not None and n_in == len(output[0])
    many_to_one = len(output) == 1 and len(output[0]) == 1 and len(main) == 1 and n_in > 1
    for items in output:
        if items is None:
            continue
        for index, item in enumerate(items):
            if "pairedItem" in item:
                continue
            if single_input or many_to_one:
                item["pairedItem"] = {"item": 0}
            elif same_count:
                item["pairedItem"] = {"item": index}
    return output


def ensure_always_output_data(output: NodeOutput | None, execute_data: ExecuteData) -> NodeOutput | None:
    """``alwaysOutputData``: when output 0 has no item, it gets one ``{}`` item paired to all inputs.

    n8n's ``ensureAlwaysOutputData``: only output 0 counts, so an If whose items all went to its false output
    also sends ``{}`` down its true output (recorded: f902).
    """
    if output and output[0]:
        return output
    paired: list[PairedItem] = []
    for input_index, items in enumerate(execute_data["data"].get("main") or []):
        for item_index, _ in enumerate(items or []):
            paired.append({"item": item_index, "input": input_index})
    result: NodeOutput = list(output) if output else []
    empty: Item = {"json": {}, "pairedItem": paired}
    if result:
        result[0] = [empty]
    else:
        result.append([empty])
    return result


def normalize_node_errors(output: NodeOutput) -> None:
    """Items carrying ``error`` (or ``json.$error``) get ``json = {error: message}``."""
    for items in output:
        for item in items or []:
            json = item.get("json")
            if item.get("error") is None and not (isinstance(json, dict) and "$error" in json):
                continue  # the common case: no error at all
            if isinstance(json, dict) and "$error" in json and "$json" in json:
                err = json["$error"]
                item["error"] = err
                item["json"] = {"error": err.get("message") if isinstance(err, dict) else str(err)}
            elif item.get("error") is not None:
                err = item["error"]
                item["json"] = {"error": err.get("message") if isinstance(err, dict) else str(err)}


def route_error_output(output: NodeOutput, execute_data: ExecuteData, main_outputs: int) -> None:
    """``onError: continueErrorOutput``: move error items to the last main output (n8n ``handleNodeErrorOutput``).

    An item is an error item if it has ``error``, or its json has ``error`` and only keys among
    ``error``/``message``/``details``. Moved items are merged over their paired input item's json.
    """
    while len(output) < main_outputs:
        output.append([])
    error_items: list[Item] = []
    for out_index in range(main_outputs - 1):
        kept: list[Item] = []
        for item in output[out_index] or []:
            if not _is_error_item(item):
                kept.append(item)
                continue
            error_items.append(_merge_with_input(item, execute_data))
        output[out_index] = kept
    output[main_outputs - 1] = error_items


def _is_error_item(item: Item) -> bool:
    if item.get("error"):
        return True
    json = item.get("json") or {}
    return bool(json.get("error")) and all(k in ("error", "message", "details") for k in json)


def _merge_with_input(item: Item, execute_data: ExecuteData) -> Item:
    paired: Any = item.get("pairedItem")
    if isinstance(paired, list):
        paired = paired[0] if paired else None
    if isinstance(paired, int):
        paired = {"item": paired}
    if execute_data.get("source") is None or not isinstance(paired, dict):
        return item
    inputs = execute_data["data"].get("main") or []
    input_index = paired.get("input", 0) or 0
    items = inputs[input_index] if input_index < len(inputs) else None
    index = paired.get("item", 0)
    if not items or index >= len(items):
        return item
    merged = dict(item)
    merged["json"] = {**items[index].get("json", {}), **item.get("json", {})}
    return merged  # type: ignore[return-value]


def error_chunk(node_id: str | None, name: str, run_index: int, error: dict[str, Any]) -> dict[str, Any]:
    """The ``sendChunk`` event of a node's error, as n8n streams it."""
    return {
        "type": "error",
        "content": error.get("description") or error.get("message"),
        "metadata": {"nodeId": node_id, "nodeName": name, "runIndex": run_index, "itemIndex": 0},
    }
