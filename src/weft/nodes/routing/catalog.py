"""The registry's catalog of n8n's declarative node types (``declarative_types.json``, written by
``scripts/export_node_descriptions.py``): each name maps to ``weft.nodes.routing.catalog:<short name>``, and this
module builds the class on first use (PEP 562), so a workflow that uses none reads no description."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from weft.nodes.routing.node import DeclarativeNode

PREFIX = "n8n-nodes-base."


@cache
def declarative_types() -> dict[str, dict[str, Any]]:
    """``{type: {"displayName", "versions"}}`` of the declarative types Weft runs from their descriptions."""
    data: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "declarative_types.json").read_text())
    return data


def declarative_catalog() -> dict[str, str]:
    """``{type: "module:attribute"}`` entries for :class:`~weft.nodes.registry.NodeRegistry`."""
    return {name: f"{__name__}:{name.removeprefix(PREFIX)}" for name in declarative_types()}


@cache
def _built(short: str) -> type[DeclarativeNode]:
    from weft.nodes.routing.node import declarative_class  # the runner, only when a workflow uses such a type

    name = PREFIX + short
    versions = tuple(float(v) for v in declarative_types()[name]["versions"])
    return declarative_class(name, versions)


def __getattr__(short: str) -> type[DeclarativeNode]:
    if PREFIX + short not in declarative_types():
        raise AttributeError(f"module {__name__!r} has no declarative type {short!r}")
    return _built(short)


__all__ = ["declarative_catalog", "declarative_types"]
