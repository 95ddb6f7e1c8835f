"""The workflow file: n8n's export JSON, validated at the trust boundary.

Unknown fields are kept (``extra="allow"``) and :func:`dump_workflow` writes back exactly the fields the file
had, so a file loaded and saved by Weft round-trips unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from weft.errors import WorkflowFileError

OnError = Literal["stopWorkflow", "continueRegularOutput", "continueErrorOutput"]


class Connection(BaseModel):
    """One edge end: ``{"node": "Set", "type": "main", "index": 0}``."""

    model_config = ConfigDict(extra="allow")

    node: str
    """Name of the destination node."""
    type: str = "main"
    """Connection type on the destination (``main``, ``ai_tool``, …)."""
    index: int = 0
    """Input index on the destination."""


class NodeModel(BaseModel):
    """One node of the workflow, as n8n exports it."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    name: str
    """Unique name of the node in its workflow; connections and expressions refer to it."""
    type: str
    """The node type, e.g. ``n8n-nodes-base.set``."""
    typeVersion: int | float = 1
    """Version of the node type; it changes parameters and behaviour."""
    parameters: dict[str, Any] = Field(default_factory=dict)
    """The node's parameters; strings starting with ``=`` are expression templates."""
    id: str | None = None
    position: list[int | float] = Field(default_factory=lambda: [0.0, 0.0])
    """Canvas position ``[x, y]``; the v1 order runs the top-most, then left-most child first."""
    credentials: dict[str, Any] | None = None
    """Credential references by credential type: ``{"openAiApi": {"id": "…", "name": "…"}}``."""
    disabled: bool = False
    """A disabled node passes its first input through unchanged."""
    onError: OnError | None = None
    """What happens when the node fails; default ``stopWorkflow``."""
    continueOnFail: bool = False
    """Legacy form of ``onError: continueRegularOutput``."""
    retryOnFail: bool = False
    maxTries: int | None = None
    waitBetweenTries: int | None = None
    alwaysOutputData: bool = False
    executeOnce: bool = False
    notes: str | None = None
    webhookId: str | None = None

    @property
    def on_error(self) -> str:
        """The effective ``onError`` setting, with ``continueOnFail`` mapped as n8n does."""
        if self.onError:
            return self.onError
        return "continueRegularOutput" if self.continueOnFail else "stopWorkflow"

    def to_json(self) -> dict[str, Any]:
        """The node as JSON, with only the fields it was given."""
        return self.model_dump(mode="json", exclude_unset=True, by_alias=True)


class WorkflowSettings(BaseModel):
    """``settings`` of a workflow."""

    model_config = ConfigDict(extra="allow")

    executionOrder: Literal["v0", "v1"] = "v0"
    """``v1`` runs depth-first (children to the front of the stack); ``v0`` is legacy breadth-first. A workflow
    that does not say runs ``v0``, as in n8n (recorded case f901); n8n writes ``v1`` into every new workflow."""
    executionTimeout: float | None = None
    """Seconds after which the execution is cancelled; ``-1`` or unset for none."""
    saveDataSuccessExecution: str | None = None
    saveDataErrorExecution: str | None = None
    saveManualExecutions: bool | None = None
    timezone: str | None = None
    errorWorkflow: str | None = None


class WorkflowModel(BaseModel):
    """A whole workflow file (n8n's export format)."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    """The workflow's id; old exports wrote a number, which is read as its text (``42`` → ``"42"``)."""
    name: str = "My workflow"
    active: bool = False

    @field_validator("id", mode="before")
    @classmethod
    def _numeric_id(cls, value: Any) -> Any:
        return str(value) if isinstance(value, int) and not isinstance(value, bool) else value

    nodes: list[NodeModel] = Field(default_factory=list)
    connections: dict[str, dict[str, list[list[Connection] | None]]] = Field(default_factory=dict)
    """``{source: {type: [[Connection, …] per output index]}}``."""
    settings: WorkflowSettings = Field(default_factory=WorkflowSettings)

    @field_validator("settings", mode="before")
    @classmethod
    def _null_settings(cls, value: Any) -> Any:
        """``"settings": null`` (n8n's column is nullable; old exports and the REST answers write it) is no settings."""
        return {} if value is None else value

    pinData: dict[str, list[dict[str, Any]]] | None = None
    """Pinned output items by node name; a pinned node is not executed."""
    staticData: dict[str, Any] | None = None


def parse_workflow(data: Any, *, source: str = "workflow") -> WorkflowModel:
    """Validate decoded JSON as a workflow, with errors that name the field."""
    if not isinstance(data, dict):
        raise WorkflowFileError(
            f"{source} is not a workflow: expected a JSON object with 'nodes' and 'connections', "
            f"got {type(data).__name__}."
        )
    try:
        return WorkflowModel.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in _data_path(data, first["loc"]))
        node_name = _node_name_at(data, first["loc"])
        node_part = f" (node {node_name!r})" if node_name else ""
        raise WorkflowFileError(
            f"{source}: field {where!r}{node_part} is invalid: {first['msg']}.",
            node_name=node_name,
            field=where,
            fix="Correct that field in the workflow JSON.",
        ) from None


def _data_path(data: Any, loc: tuple[Any, ...]) -> list[Any]:
    """The part of a pydantic error location that exists in the data (drops union-branch names)."""
    path: list[Any] = []
    current = data
    for part in loc:
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif isinstance(current, list) and isinstance(part, int) and part < len(current):
            current = current[part]
        elif isinstance(current, dict | list):
            path.append(part)  # a missing field: name it, then stop
            break
        else:
            break
        path.append(part)
    return path


def _node_name_at(data: dict[str, Any], loc: tuple[Any, ...]) -> str | None:
    if len(loc) >= 2 and loc[0] == "nodes" and isinstance(loc[1], int):
        nodes = data.get("nodes")
        if isinstance(nodes, list) and loc[1] < len(nodes) and isinstance(nodes[loc[1]], dict):
            name = nodes[loc[1]].get("name")
            return name if isinstance(name, str) else None
    return None


def load_workflow(path: str | Path) -> WorkflowModel:
    """Read and validate a workflow file; :class:`WorkflowFileError` says what is wrong."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise WorkflowFileError(f"Cannot read workflow file {str(p)!r}: {exc.strerror}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WorkflowFileError(
            f"Workflow file {str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
        data = data[0]  # `n8n export:workflow` writes an array
    return parse_workflow(data, source=f"Workflow file {str(p)!r}")


def dump_workflow(workflow: WorkflowModel) -> dict[str, Any]:
    """The workflow as JSON, with exactly the fields it was loaded with (unknown ones included)."""
    return workflow.model_dump(mode="json", exclude_unset=True, by_alias=True)
