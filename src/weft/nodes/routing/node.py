"""The generic node type of n8n's declarative nodes: one class, described by data (n8n's description of the type),
run by :class:`~weft.nodes.routing.runner.RoutingRun`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.runner import RoutingRun
from weft.workflow import NodeOutput


class DeclarativeNode(NodeType):
    """Runs a node from its n8n description alone, as n8n's ``RoutingNode`` does (subclassed per type)."""

    #: ``weft nodes`` reports such a type as "declarative" (:mod:`weft.nodes.coverage`).
    declarative: ClassVar[bool] = True
    description: ClassVar[NodeDescription]
    #: n8n's description to run instead of the exported one of the type (a type defined in code, tests).
    routing_description: ClassVar[Mapping[str, Any] | None] = None

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        described = self.routing_description or description_for(ctx.node.type, float(ctx.node.typeVersion))
        if described is None:
            raise NodeOperationError(
                ctx.node.name,
                f"Node type {ctx.node.type!r} has no description of typeVersion {ctx.node.typeVersion:g}",
                description="Set the node's 'typeVersion' to one of the versions Weft lists for it (weft nodes).",
            )
        return [await RoutingRun(ctx, described).run()]


def declarative_class(type_name: str, versions: tuple[float, ...]) -> type[DeclarativeNode]:
    """A :class:`DeclarativeNode` subclass for ``type_name`` (its newest description names and describes it; the
    versions n8n marks ``usableAsTool`` are offered as a tool, ``<type>Tool``)."""
    newest: Mapping[str, Any] = description_for(type_name, max(versions)) or {}
    as_tool = tuple(v for v in versions if (description_for(type_name, v) or {}).get("usableAsTool"))
    credentials = tuple(str(c["name"]) for c in newest.get("credentials") or [] if isinstance(c, Mapping))
    described = NodeDescription(
        name=type_name,
        display_name=str(newest.get("displayName") or type_name),
        versions=versions,
        description=str(newest.get("description") or ""),
        group=tuple(newest.get("group") or ("transform",)),
        usable_as_tool=bool(as_tool),
        credentials=credentials,
    )
    name = "".join(part[:1].upper() + part[1:] for part in type_name.split(".")[-1:]) + "Declarative"
    namespace = {"description": described, "__module__": __name__, "tool_versions": as_tool}
    return type(name, (DeclarativeNode,), namespace)


__all__ = ["DeclarativeNode", "declarative_class"]
