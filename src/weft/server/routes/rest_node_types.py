"""``/rest/node-types``: the node types this server runs, for the editor's node creator.

Each registered type (built-ins and the ``weft.nodes`` entry-point packages, such as :mod:`weft.ai`'s models,
memories and tools) with what the creator needs: its name, display name, description, versions, parameter
defaults, group and the kinds of its inputs and outputs. Types whose connections depend on their parameters
(Merge, Switch) list the connections of their default parameters. Behind the login like every ``/rest`` route.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter

from weft.nodes.contract import NodeDescription
from weft.nodes.registry import NodeRegistry
from weft.server.deps import InstanceDep
from weft.server.schemas import Envelope
from weft.workflow import MAIN

router = APIRouter(prefix="/node-types", tags=["node-types"])


def _connections(description: NodeDescription, parameters: Mapping[str, Any], outputs: bool) -> list[str]:
    try:
        kinds = description.output_types(parameters) if outputs else description.input_types(parameters)
    except Exception:  # a function of parameters that the defaults alone do not satisfy
        kinds = (MAIN,)
    return list(kinds)


def _nested(defaults: Mapping[str, Any]) -> dict[str, Any]:
    """The defaults as a node's ``parameters``: a dotted key (``options.timeout``) becomes nested objects."""
    parameters: dict[str, Any] = {}
    for key, value in defaults.items():
        *parents, last = key.split(".")
        target = parameters
        for part in parents:
            found = target.get(part)
            target = target.setdefault(part, {}) if isinstance(found, dict) or found is None else {}
        target[last] = copy.deepcopy(value)
    return parameters


def describe(description: NodeDescription) -> dict[str, Any]:
    """The creator's view of one node type; ``defaults`` are the parameters a new node of it starts with."""
    defaults = _nested(description.defaults)
    return {
        "name": description.name,
        "displayName": description.display_name,
        "description": description.description,
        "versions": list(description.versions),
        "defaultVersion": description.default_version,
        "defaults": defaults,
        "group": list(description.group),
        "inputs": _connections(description, defaults, outputs=False),
        "outputs": _connections(description, defaults, outputs=True),
    }


def node_types(registry: NodeRegistry) -> list[dict[str, Any]]:
    """Every type ``registry`` can run, by display name."""
    found = []
    for name in registry.names():
        cls = registry.type_class(name)
        if cls is not None:
            found.append(describe(cls.description))
    return sorted(found, key=lambda t: (str(t["displayName"]).lower(), t["name"]))


@router.get("", summary="The node types this server runs (for the editor's node creator)")
async def list_node_types(instance: InstanceDep) -> Envelope[list[dict[str, Any]]]:
    # The first listing imports every node module: off the event loop.
    return Envelope(data=await asyncio.to_thread(node_types, instance.runner.registry))
