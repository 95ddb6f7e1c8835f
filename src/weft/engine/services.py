"""In-process :class:`~weft.nodes.contract.ExecutionServices`: sub-workflows and credentials for the CLI and tests.

The server and the workers provide their own services (database workflows, encrypted credentials); this one
runs sub-workflows as child :class:`~weft.engine.loop.Execution` objects in the same event loop and reads
credentials from a dict.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from typing import Any

from weft.engine.hooks import ExecutionHooks
from weft.engine.loop import Execution
from weft.engine.options import EngineOptions
from weft.engine.start import find_called_start
from weft.errors import ConfigurationError, NodeOperationError, WorkflowDefinitionError
from weft.nodes.contract import ExecuteContext
from weft.nodes.registry import NodeRegistry, default_registry
from weft.workflow import (
    Item,
    NodeOutput,
    PairedItem,
    Run,
    RunData,
    TaskData,
    Workflow,
    parse_workflow,
    validate_workflow,
)

#: How deep sub-workflows may call sub-workflows before the call is refused.
DEFAULT_MAX_DEPTH = 50


class LocalServices:
    """Runs sub-workflows in-process and serves credentials from ``credentials``.

    ``credentials`` maps a credential type (``httpBasicAuth``) or a credential name (as referenced by the
    node's ``credentials`` field) to its decrypted data.
    """

    def __init__(
        self,
        *,
        credentials: Mapping[str, Mapping[str, Any]] | None = None,
        registry: NodeRegistry | None = None,
        options: EngineOptions | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
        _depth: int = 0,
        _background: set[asyncio.Task[Any]] | None = None,
    ) -> None:
        self.credentials: dict[str, dict[str, Any]] = {k: dict(v) for k, v in (credentials or {}).items()}
        self.registry = registry or default_registry()
        self.options = options
        self.max_depth = max_depth
        self.depth = _depth
        self._background: set[asyncio.Task[Any]] = _background if _background is not None else set()

    # ------------------------------------------------------------------ sub-workflows

    async def execute_workflow(
        self,
        ctx: ExecuteContext,
        workflow: Mapping[str, Any],
        items: list[Item],
        *,
        wait: bool = True,
    ) -> NodeOutput | None:
        """Run ``workflow`` with ``items`` as its trigger's input; its last node's output (``None`` if not waiting)."""
        execution = self._child_execution(ctx, workflow)
        start = subworkflow_start(ctx.node.name, execution.workflow)
        run_items = copy.deepcopy(items)
        if not wait:
            task = asyncio.ensure_future(execution.run(start_node=start, trigger_items=run_items))
            self._background.add(task)
            task.add_done_callback(_forget(self._background))
            return None
        run = await execution.run(start_node=start, trigger_items=run_items)
        return sub_workflow_output(ctx.node.name, run, last_run_only=returns_last_run_only(execution.workflow))

    async def wait_background(self) -> list[Run]:
        """Wait for the ``wait=False`` sub-workflows still running (the CLI calls this before it exits); their runs."""
        runs: list[Run] = []
        while self._background:
            done = await asyncio.gather(*list(self._background), return_exceptions=True)
            runs.extend(run for run in done if not isinstance(run, BaseException))
        return runs

    def _child_execution(self, ctx: ExecuteContext, workflow: Mapping[str, Any]) -> Execution:
        if "nodes" not in workflow and "id" in workflow:
            raise NodeOperationError(
                ctx.node.name,
                f"Cannot load workflow {workflow['id']!r} from the database: this execution runs without a server",
                description="Sub-workflows with source 'database' need 'weft start' (or a worker); "
                "in-process runs use source 'localFile' or 'parameter'.",
            )
        if self.depth >= self.max_depth:
            raise NodeOperationError(
                ctx.node.name,
                f"Sub-workflow recursion limit reached: {self.max_depth} nested sub-workflow calls",
                description="A workflow keeps calling sub-workflows (probably itself). "
                "Stop the recursion with a condition before the Execute Workflow node.",
            )
        try:
            model = parse_workflow(dict(workflow), source="The sub-workflow")
            validate_workflow(model, self.registry)
        except WorkflowDefinitionError as exc:
            raise NodeOperationError(
                ctx.node.name, exc.message, description="Fix the sub-workflow's JSON, then run again."
            ) from exc
        child_services = LocalServices(
            credentials=self.credentials,
            registry=self.registry,
            options=self.options,
            max_depth=self.max_depth,
            _depth=self.depth + 1,
            _background=self._background,
        )
        return Execution(
            Workflow(model),
            registry=self.registry,
            mode="integrated",
            hooks=ExecutionHooks(),
            services=child_services,
            options=self.options,
        )

    # ------------------------------------------------------------------ credentials

    async def get_credentials(self, ctx: ExecuteContext, credential_type: str) -> dict[str, Any]:
        """The credential referenced by the node for ``credential_type`` (by name), else the one of that type."""
        reference = (ctx.node.credentials or {}).get(credential_type)
        name = reference.get("name") if isinstance(reference, Mapping) else None
        for key in (name, credential_type):
            if key is not None and key in self.credentials:
                return dict(self.credentials[key])
        raise ConfigurationError(
            f"Node {ctx.node.name!r} needs a credential of type {credential_type!r}, but none was given. "
            f"Pass it as LocalServices(credentials={{{credential_type!r}: {{...}}}}) or import it with "
            "'weft import:credentials'.",
        )

    async def update_credential_oauth_token(
        self, ctx: ExecuteContext, credential_type: str, token: Mapping[str, Any]
    ) -> None:
        """Keep a renewed OAuth2 token (:mod:`weft.nodes.oauth2`) in the credential this run reads, by name or type."""
        reference = (ctx.node.credentials or {}).get(credential_type)
        name = reference.get("name") if isinstance(reference, Mapping) else None
        for key in (name, credential_type):
            if key is not None and key in self.credentials:
                self.credentials[key] = {**self.credentials[key], "oauthTokenData": dict(token)}
                return


def returns_last_run_only(workflow: Workflow) -> bool:
    """n8n ``triggerReturnsLastRunOnly``: an Execute Workflow Trigger before v1.2 returns the last node's last run
    unless its ``returnOutput`` is ``allRuns``; from v1.2 every run of the last node is returned."""
    trigger = next((n for n in workflow.nodes.values() if n.type == "n8n-nodes-base.executeWorkflowTrigger"), None)
    if trigger is None:
        return True
    return trigger.typeVersion < 1.2 and trigger.parameters.get("returnOutput") != "allRuns"


def sub_workflow_output(node_name: str, run: Run, *, last_run_only: bool = True) -> NodeOutput:
    """The outputs of the sub-workflow's last node (its last run, or every run merged per output), paired back
    to the trigger's input items.

    Raises :class:`NodeOperationError` with the child's error when the child failed.
    """
    data = run["data"]
    result = data["resultData"]
    if run["status"] == "error":
        error = result.get("error") or {}
        raise NodeOperationError(
            node_name,
            str(error["message"]) if error.get("message") is not None else "The sub-workflow failed",
            description=error.get("description"),
        )
    if run["status"] == "canceled":
        raise NodeOperationError(node_name, "The sub-workflow was canceled")
    if run["status"] == "waiting":
        raise NodeOperationError(
            node_name,
            "The sub-workflow went into a waiting state, which in-process runs cannot resume",
            description="Run the workflow on the server ('weft start') to wait in sub-workflows, "
            "or make the sub-workflow's Wait shorter than 65 seconds.",
        )
    last = result.get("lastNodeExecuted")
    if not last or not result["runData"].get(last):
        return [[]]
    tasks = result["runData"][last][-1:] if last_run_only else result["runData"][last]
    output: NodeOutput = []
    for task in tasks:  # n8n ``mergeRunsPerBranch``
        for branch, items in enumerate((task.get("data") or {}).get("main") or [[]]):
            while len(output) <= branch:
                output.append([])
            for index, item in enumerate(items or []):
                traced = trace_paired_item(result["runData"], task, item, index)
                output[branch].append({**item, "pairedItem": traced} if traced is not None else _without_paired(item))
    return output or [[]]


def trace_paired_item(run_data: RunData, task: TaskData, item: Item, item_index: int) -> Any:
    """Follow ``item``'s pairedItem back to the sub-workflow's trigger: the index into the items it was given.

    n8n's ``findPairedItemThroughWorkflowData``. ``None`` when the lineage is broken.
    """
    paired: Any = item.get("pairedItem")
    current: TaskData | None = _previous_task(run_data, task, paired)
    while current is not None:
        outputs = (current.get("data") or {}).get("main") or []
        refs = _as_list(paired, item_index)
        if not refs:
            return None
        ref = refs[0]
        output_index = _source_output(task, ref)
        items = outputs[output_index] if output_index < len(outputs) else None
        if not items or ref["item"] >= len(items):
            return None
        task, paired = current, items[ref["item"]].get("pairedItem")
        current = _previous_task(run_data, task, paired)
    return paired


def _previous_task(run_data: RunData, task: TaskData, paired: Any) -> TaskData | None:
    refs = _as_list(paired, 0)
    input_index = refs[0].get("input", 0) if refs else 0
    sources = task.get("source") or []
    source = sources[input_index] if input_index < len(sources) else None
    if not source:
        return None
    runs = run_data.get(source["previousNode"]) or []
    run_index = source.get("previousNodeRun", 0)
    return runs[run_index] if run_index < len(runs) else None


def _source_output(task: TaskData, ref: PairedItem) -> int:
    sources = task.get("source") or []
    input_index = ref.get("input", 0)
    source = sources[input_index] if input_index < len(sources) else None
    return int(source.get("previousNodeOutput", 0)) if source else 0


def _as_list(paired: Any, default_item: int) -> list[PairedItem]:
    if paired is None:
        return [{"item": default_item}]
    if isinstance(paired, int):
        return [{"item": paired}]
    if isinstance(paired, list):
        return [{"item": p} if isinstance(p, int) else p for p in paired]
    return [paired]


def _without_paired(item: Item) -> Item:
    return {k: v for k, v in item.items() if k != "pairedItem"}  # type: ignore[return-value]


def subworkflow_start(node_name: str, workflow: Workflow) -> str:
    """Where a sub-workflow called by ``node_name`` starts (:func:`~weft.engine.start.find_called_start`), or
    n8n's error when it has no node to start from."""
    start = find_called_start(workflow)
    if start is None:
        raise NodeOperationError(
            node_name,
            "Missing node to start execution",
            description="Please make sure the workflow you're calling contains an Execute Workflow Trigger node",
        )
    return start


def _forget(tasks: set[asyncio.Task[Any]]) -> Any:
    def done(task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: a failing background sub-workflow is recorded in its own run

    return done


__all__ = ["DEFAULT_MAX_DEPTH", "LocalServices", "sub_workflow_output", "subworkflow_start", "trace_paired_item"]
