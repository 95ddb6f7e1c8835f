"""Items and run data as plain JSON (n8n's ``INodeExecutionData``, ``ITaskData``, ``IRunExecutionData``).

They are ``TypedDict``s so they cross process, database and JSON boundaries without conversion.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

JsonObject = dict[str, Any]

#: Connection types of n8n (``NodeConnectionTypes``).
MAIN = "main"
AI_TOOL = "ai_tool"
AI_LANGUAGE_MODEL = "ai_languageModel"
AI_MEMORY = "ai_memory"
AI_OUTPUT_PARSER = "ai_outputParser"


class SourceOverwrite(TypedDict):
    previousNode: str
    previousNodeOutput: NotRequired[int]
    previousNodeRun: NotRequired[int]


class PairedItem(TypedDict):
    """Which input item an output item came from."""

    item: int
    input: NotRequired[int]
    sourceOverwrite: NotRequired[SourceOverwrite]


class Item(TypedDict):
    """One item flowing between nodes (n8n's ``INodeExecutionData``)."""

    json: JsonObject
    binary: NotRequired[dict[str, Any]]
    pairedItem: NotRequired[PairedItem | list[PairedItem] | int]
    error: NotRequired[Any]


#: One array of items per output (or input) index; ``None`` where nothing arrived.
NodeOutput = list[list[Item]]


class SourceData(TypedDict):
    """Where a node's input came from (n8n's ``ISourceData``)."""

    previousNode: str
    previousNodeOutput: NotRequired[int]
    previousNodeRun: NotRequired[int]


ExecutionStatus = Literal["new", "running", "success", "error", "waiting", "canceled", "crashed", "unknown"]


class TaskData(TypedDict):
    """One run of one node (n8n's ``ITaskData``), ``runData[node][runIndex]``."""

    startTime: int
    executionIndex: int
    executionTime: int
    executionStatus: NotRequired[str]
    source: list[SourceData | None]
    data: NotRequired[dict[str, list[list[Item] | None]]]
    inputOverride: NotRequired[dict[str, list[list[Item] | None]]]
    error: NotRequired[JsonObject]
    hints: NotRequired[list[JsonObject]]
    metadata: NotRequired[JsonObject]


RunData = dict[str, list[TaskData]]


class ExecuteData(TypedDict):
    """One entry of the execution stack (n8n's ``IExecuteData``)."""

    node: JsonObject
    data: dict[str, list[list[Item] | None]]
    source: dict[str, list[SourceData | None]] | None
    runIndex: NotRequired[int]
    metadata: NotRequired[JsonObject]


class ResultData(TypedDict):
    runData: RunData
    pinData: NotRequired[dict[str, list[Item]]]
    lastNodeExecuted: NotRequired[str]
    error: NotRequired[JsonObject]


class ExecutionStackData(TypedDict):
    contextData: JsonObject
    nodeExecutionStack: list[ExecuteData]
    metadata: JsonObject
    waitingExecution: dict[str, dict[int, dict[str, list[list[Item] | None]]]]
    waitingExecutionSource: dict[str, dict[int, dict[str, list[SourceData | None]]]]


class RunExecutionData(TypedDict):
    """The whole state of one execution (n8n's ``IRunExecutionData``): enough to resume it anywhere."""

    startData: JsonObject
    resultData: ResultData
    executionData: ExecutionStackData
    waitTill: NotRequired[str | None]
    waitReason: NotRequired[str]
    resumeToken: NotRequired[str]
    executionIndex: NotRequired[int]


class Run(TypedDict):
    """A finished (or paused) execution (n8n's ``IRun``)."""

    data: RunExecutionData
    mode: str
    startedAt: str
    stoppedAt: NotRequired[str]
    status: ExecutionStatus
    finished: bool
    waitTill: NotRequired[str | None]


def new_item(json: JsonObject | None = None, **extra: Any) -> Item:
    """An item with the given json (``{}`` when omitted)."""
    item: dict[str, Any] = {"json": {} if json is None else json}
    item.update(extra)
    return item  # type: ignore[return-value]


def paired_items_of(item: Item) -> list[PairedItem]:
    """The item's paired items, normalised to a list of objects."""
    paired = item.get("pairedItem")
    if paired is None:
        return []
    if isinstance(paired, int):
        return [{"item": paired}]
    if isinstance(paired, list):
        return [{"item": p} if isinstance(p, int) else p for p in paired]
    return [paired]


def empty_run_data() -> RunExecutionData:
    """An ``IRunExecutionData`` with nothing run and nothing on the stack."""
    return {
        "startData": {},
        "resultData": {"runData": {}},
        "executionData": {
            "contextData": {},
            "nodeExecutionStack": [],
            "metadata": {},
            "waitingExecution": {},
            "waitingExecutionSource": {},
        },
    }
