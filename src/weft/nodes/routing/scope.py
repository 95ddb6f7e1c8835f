"""What a declarative node's run evaluates against: its parameters as n8n holds them (with defaults, see
:mod:`.defaults`) and n8n's ``getParameterValue`` with ``additionalKeys`` (``$value``, ``$credentials``,
``$response`` …, see :attr:`weft.expressions.ExpressionContext.additional_keys`)."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.expressions import ExpressionContext, evaluate
from weft.nodes.contract import MISSING, ExecuteContext
from weft.nodes.routing.defaults import node_parameters_with_defaults
from weft.nodes.routing.paths import UNDEFINED, get_path
from weft.workflow import Workflow

Keys = Mapping[str, Any]


class RoutingScope:
    """One run of a declarative node (n8n's ``RoutingNode`` and the ``this`` of its functions)."""

    def __init__(self, ctx: ExecuteContext, description: Mapping[str, Any]) -> None:
        self.ctx = ctx
        self.description = description
        self.type_name = ctx.node.type
        self.version = float(ctx.node.typeVersion)
        self.properties: list[Mapping[str, Any]] = list(description.get("properties") or [])
        self.parameters = node_parameters_with_defaults(
            self.properties, ctx.node.parameters, self.version, self.type_name
        )
        base = ctx.expression_context()
        self._base = dataclasses.replace(base, workflow=_with_parameters(base.workflow, ctx.node.name, self.parameters))

    @property
    def node_name(self) -> str:
        return self.ctx.node.name

    def value(self, value: Any, item_index: int, keys: Keys) -> Any:
        """n8n's ``getParameterValue``: ``value`` with its expressions evaluated (objects recursively), the keys
        given as ``$``-variables; a plain value as it is."""
        if not (isinstance(value, dict | list) or (isinstance(value, str) and value.startswith("="))):
            return value
        mentioned = _mentioned(value)
        # Only the keys the expressions name go into the sandbox (a response may be large, items many).
        given = {name: v for name, v in keys.items() if name in mentioned}
        context = dataclasses.replace(self._base, additional_keys=_plain(given))
        return evaluate(value, context, item_index)

    def expression_context(self) -> ExpressionContext:
        return self._base

    def parameter(self, path: str, item_index: int, fallback: Any = MISSING, *, extract_value: bool = False) -> Any:
        """n8n's ``getNodeParameter`` on the parameters with defaults (paths may hold ``[index]`` steps)."""
        raw = get_path(self.parameters, path)
        if raw is UNDEFINED:
            if fallback is MISSING:
                raise NodeOperationError(
                    self.node_name,
                    f'Could not get parameter "{path}"',
                    item_index=item_index,
                    description=f"Set the parameter {path!r} of node {self.node_name!r}.",
                )
            return fallback
        value = evaluate(copy.deepcopy(raw), self._base, item_index, parameter=path)
        return self._extracted(path, value) if extract_value else value

    def _extracted(self, path: str, value: Any) -> Any:
        """n8n's ``extractValue`` of a resource locator: its value, through its mode's ``extractValue`` regex."""
        if not (isinstance(value, dict) and value.get("__rl")):
            return value
        found = value.get("value")
        prop = next((p for p in self.properties if p.get("name") == path.split(".")[-1]), None)
        mode = next((m for m in (prop or {}).get("modes") or [] if m.get("name") == value.get("mode")), None)
        rule = (mode or {}).get("extractValue") or {}
        if rule.get("type") == "regex" and isinstance(found, str):
            match = re.search(str(rule.get("regex")), found)
            if match is None:
                raise NodeOperationError(
                    self.node_name,
                    f"ERROR: {mode and mode.get('displayName')} parameter's value is invalid",
                    description="Please enter a valid value.",
                )
            return match.group(1) if match.groups() else match.group(0)
        return found


_NAME = re.compile(r"\$[A-Za-z_]\w*")


def _mentioned(value: Any) -> set[str]:
    """The ``$names`` the expressions in ``value`` mention."""
    if isinstance(value, str):
        return set(_NAME.findall(value)) if value.startswith("=") else set()
    if isinstance(value, dict):
        return {n for k, v in value.items() for n in _mentioned(k) | _mentioned(v)}
    if isinstance(value, list):
        return {n for v in value for n in _mentioned(v)}
    return set()


def _with_parameters(workflow: Workflow, node_name: str, parameters: dict[str, Any]) -> Workflow:
    """A view of the workflow where the node has its parameters with defaults (``$parameter`` reads them, as in
    n8n, whose workflow fills them in on load); the workflow itself is not changed."""
    node = workflow.node(node_name)
    if node is None:
        return workflow
    view = copy.copy(workflow)
    view.__dict__.pop("_node_json", None)
    view.nodes = {**workflow.nodes, node_name: node.model_copy(update={"parameters": parameters})}
    return view


def _plain(value: Any) -> Any:
    """JSON-able: :data:`UNDEFINED` left out of objects (as ``JSON.stringify`` leaves out ``undefined``)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items() if v is not UNDEFINED}
    if isinstance(value, list | tuple):
        return [None if v is UNDEFINED else _plain(v) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


__all__ = ["Keys", "RoutingScope"]
