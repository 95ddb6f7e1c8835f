"""Where ``weft execute`` gets its workflow: a file (``--file``) or the instance's database (``--id``).

Each loader returns a checked :class:`~weft.services.prepared.PreparedWorkflow` or raises :class:`LoadError`,
whose message names the file or workflow, the node or field, and the fix (the command exits with 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from weft.errors import ConfigurationError, WeftError, WorkflowDefinitionError

if TYPE_CHECKING:
    from weft.nodes.registry import NodeRegistry
    from weft.services.prepared import PreparedWorkflow
    from weft.workflow import Workflow


class LoadError(WeftError):
    """The workflow cannot be run: the message says why and what to do."""


def load_file(path: str, registry: NodeRegistry) -> PreparedWorkflow:
    """The workflow of an n8n workflow file (one object, or an export array holding exactly one workflow)."""
    from weft.services.json_limits import UnreadableFileError, read_json_file
    from weft.services.prepared import PreparedWorkflow
    from weft.workflow import Workflow, dump_workflow, parse_workflow, validate_workflow

    try:
        data = _single_workflow(read_json_file(path, what="workflow file"), path)
        model = parse_workflow(data, source=f"Workflow file {path!r}")
        validate_workflow(model, registry)
    except (WorkflowDefinitionError, ConfigurationError, UnreadableFileError) as exc:  # (a broken node package)
        raise LoadError(f"cannot load {path}: {exc}") from None
    workflow = Workflow(model)
    return PreparedWorkflow(id=workflow.id, version_id=None, data=dump_workflow(model), workflow=workflow)


def _single_workflow(data: Any, path: str) -> Any:
    if not isinstance(data, list):
        return data
    if len(data) == 1 and isinstance(data[0], dict):
        return data[0]  # `n8n export:workflow` writes an array
    held = "an empty array" if not data else f"an array of {len(data)} items"
    raise LoadError(
        f"cannot load {path}: the file is {held}, not one workflow. Run one workflow per file, or "
        f"import them with 'weft import:workflow --input {path}' and run one with 'weft execute --id <id>' "
        "('weft list:workflow' lists the ids)."
    )


def load_stored(workflow_id: str, registry: NodeRegistry) -> PreparedWorkflow:
    """The stored workflow ``workflow_id``, checked as ``--file`` checks a file."""
    from weft.cli._store import open_instance
    from weft.services.prepared import prepare

    opened = open_instance()
    if opened is None:
        raise LoadError("cannot open the instance's database (see above)")
    _, store = opened
    try:
        stored = store.workflows.get(workflow_id)
    finally:
        store.close()
    if stored is None:
        raise LoadError(
            f'The workflow with the id "{workflow_id}" does not exist. '
            "List the stored workflows with 'weft list:workflow', or import one with 'weft import:workflow'."
        )
    try:
        return prepare(stored.data, registry, version_id=stored.version_id)
    except (WorkflowDefinitionError, ConfigurationError) as exc:
        raise LoadError(f"cannot load workflow {workflow_id!r}: {exc}") from None


def start_node(workflow: Workflow, registry: NodeRegistry, requested: str | None, *, where: str) -> str | None:
    """The node to start from: ``requested``, else n8n's CLI start (an Execute Workflow Trigger or a manual
    trigger), else ``None`` for the engine's choice (a trigger, or the first node without inputs).

    :class:`LoadError` when there is nothing to start from (n8n: "Missing node to start execution"); its message
    starts with ``where`` (the file or the workflow).
    """
    from weft.engine.start import find_called_start, find_start_node

    if requested is not None:
        if requested not in workflow.nodes:
            names = ", ".join(repr(n) for n in list(workflow.nodes)[:10]) or "none"
            raise LoadError(
                f"cannot run {where}: --start-node {requested!r} is not a node of the workflow (its nodes: {names}); "
                "give the name of one of them, or leave --start-node out to start at the trigger."
            )
        return requested
    found = find_called_start(workflow)
    if found is not None:
        return found
    if not workflow.nodes:
        raise LoadError(
            f"cannot run {where}: Missing node to start execution: the workflow has no nodes. Add a Manual "
            "Trigger node and connect it to the nodes to run."
        )
    try:
        find_start_node(workflow, registry)
    except WorkflowDefinitionError as exc:
        raise LoadError(f"cannot run {where}: Missing node to start execution: {exc}") from None
    return None


__all__ = ["LoadError", "load_file", "load_stored", "start_node"]
