"""``/rest/node-types``: the node types this server runs, for the editor's node creator and node panel.

``GET /rest/node-types`` lists each registered type (built-ins and the ``weft.nodes`` entry-point packages, such
as :mod:`weft.ai`'s models, memories and tools) with what the creator needs: its name, display name,
description, versions, parameter defaults, group and the kinds of its inputs and outputs. Types whose
connections depend on their parameters (Merge, Switch) list the connections of their default parameters.
``GET /rest/node-types/{type}?version=`` adds, for one version, what the node panel renders: n8n's subtitle,
credentials and parameter properties (:mod:`weft.nodes.node_properties`). Behind the login like every ``/rest``
route.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, Query

from weft.db.base import NotFoundError
from weft.nodes.contract import NodeDescription
from weft.nodes.node_properties import description_for
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


def _credentials(description: NodeDescription, n8n: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """n8n's credential list (``name``, ``required``, ``displayOptions``), else the type's own names."""
    if n8n is None or not isinstance(n8n.get("credentials"), list):
        return [{"name": name} for name in description.credentials]
    keep = ("name", "required", "displayOptions")
    return [{k: c[k] for k in keep if k in c} for c in n8n["credentials"] if isinstance(c, Mapping)]


def node_type(registry: NodeRegistry, type_name: str, version: float | None) -> dict[str, Any]:
    """One version of a type with its properties (the default version when ``None``), or
    :class:`NotFoundError` with the registry's message naming what is unknown."""
    cls = registry.type_class(type_name)
    description = cls.description if cls is not None else None
    wanted = description.default_version if description is not None and version is None else version
    found = next((v for v in description.versions if v == wanted), None) if description is not None else None
    if description is None or found is None:
        raise NotFoundError(registry.check(type_name, float(wanted or 0)) or f"Node type {type_name!r} is unknown.")
    version = found
    n8n = description_for(type_name, version)
    return {
        **describe(description),
        "version": version,
        "subtitle": n8n.get("subtitle") if n8n else None,
        "credentials": _credentials(description, n8n),
        "properties": copy.deepcopy(n8n["properties"]) if n8n else [],
    }


@router.get("/{type_name:path}", summary="One version of a node type with its parameter properties (node panel)")
async def get_node_type(
    instance: InstanceDep, type_name: str, version: float | None = Query(default=None)
) -> Envelope[dict[str, Any]]:
    return Envelope(data=await asyncio.to_thread(node_type, instance.runner.registry, type_name, version))
