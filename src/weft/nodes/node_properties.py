"""n8n's property descriptions of the node types Weft runs, per ``typeVersion`` (for the editor and the checks).

``descriptions/<type>.json`` (``/`` written ``+``) holds n8n's descriptions of a type, exported by
``scripts/export_node_descriptions.py`` (or, with ``"source": "weft"``, written by hand: Start and the Weft-only
models); ``_weft_additions.json`` adds the options Weft has beyond n8n to the collections it names. Each entry
lists the versions it describes. Types n8n synthesizes are derived here as n8n derives them:
``<type>Tool`` from a ``usableAsTool`` type (``convertNodeToAiTool``: a ``toolDescription`` parameter, and
``descriptionType`` where the node has a resource or an operation) and ``<type>HitlTool`` from a type with a
``sendAndWait`` operation (``convertNodeToHitlTool``). Files are read on first use and cached; the returned
descriptions are shared: callers must not change them.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

_FOLDER = Path(__file__).parent / "descriptions"
_AGENTS = ["@n8n/n8n-nodes-langchain.agent", "@n8n/n8n-nodes-langchain.agentTool"]
SEND_AND_WAIT = "sendAndWait"

Description = dict[str, Any]


@functools.lru_cache(maxsize=1024)
def _entries(type_name: str) -> tuple[Description, ...]:
    path = _FOLDER / f"{type_name.replace('/', '+')}.json"  # no "/" left: always a file of the folder
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return ()
    entries: list[Description] = json.loads(text)["descriptions"]
    additions = [a for a in _additions() if type_name in a["types"]]
    return tuple(_with_additions(entry, additions) for entry in entries) if additions else tuple(entries)


@functools.cache
def _additions() -> list[dict[str, Any]]:
    """The options Weft adds to n8n's types (``descriptions/_weft_additions.json``)."""
    additions: list[dict[str, Any]] = json.loads((_FOLDER / "_weft_additions.json").read_text())["additions"]
    return additions


def _with_additions(entry: Description, additions: list[dict[str, Any]]) -> Description:
    """``entry`` with each addition's properties appended to the collections it names (unless there already)."""
    entry = copy.deepcopy(entry)
    for addition in additions:
        for prop in entry["properties"]:
            if prop.get("name") == addition["into"] and prop.get("type") == "collection":
                have = {option.get("name") for option in prop.get("options") or []}
                added = [copy.deepcopy(p) for p in addition["properties"] if p["name"] not in have]
                prop["options"] = [*(prop.get("options") or []), *added]
    return entry


def described_versions(type_name: str) -> list[float]:
    """Every ``typeVersion`` of ``type_name`` that has a description (a derived type's: its base's)."""
    entries = _entries(type_name)
    if entries:
        return sorted(float(v) for entry in entries for v in entry["version"])
    base = _base_of(type_name)
    return [v for v in described_versions(base[0]) if description_for(type_name, v)] if base else []


def description_for(type_name: str, version: float | None = None) -> Description | None:
    """n8n's description of ``type_name`` at ``version`` (``None``: the newest described), or ``None``."""
    if version is None:
        versions = described_versions(type_name)
        if not versions:
            return None
        version = versions[-1]
    return _description(type_name, float(version))


def properties_for(type_name: str, version: float | None = None) -> list[dict[str, Any]]:
    """The n8n ``INodeProperties`` of ``type_name`` at ``version`` (``[]`` when it has no description)."""
    found = description_for(type_name, version)
    return list(found["properties"]) if found else []


@functools.lru_cache(maxsize=1024)
def _description(type_name: str, version: float) -> Description | None:
    for entry in _entries(type_name):
        if version in (float(v) for v in entry["version"]):
            return entry
    base = _base_of(type_name)
    if base is None:
        return None
    base_name, derive = base
    found = _description(base_name, version)
    return derive(found) if found is not None else None


def _base_of(type_name: str) -> tuple[str, Any] | None:
    """The type a synthesized type is derived from, and how (``None`` for a type that is not synthesized)."""
    if _entries(type_name):
        return None
    if type_name.endswith("HitlTool"):
        return type_name.removesuffix("HitlTool"), _hitl_tool
    if type_name.endswith("Tool"):
        return type_name.removesuffix("Tool"), _ai_tool
    return None


# --------------------------------------------------------------------------- n8n's convertNodeToAiTool

_TOOL_DESCRIPTION_HELP = (
    "Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected "
    "results much more often"
)
DESCRIPTION_TYPE: dict[str, Any] = {
    "displayName": "Tool Description",
    "name": "descriptionType",
    "type": "options",
    "noDataExpression": True,
    "options": [
        {
            "name": "Set Automatically",
            "value": "auto",
            "description": "Automatically set based on resource and operation",
        },
        {"name": "Set Manually", "value": "manual", "description": "Manually set the description"},
    ],
    "default": "auto",
}


def tool_description_property(description: str, *, with_type: bool) -> dict[str, Any]:
    """n8n's ``toolDescription`` parameter (shown for ``descriptionType: manual`` when there is that choice)."""
    prop: dict[str, Any] = {
        "displayName": "Description",
        "name": "toolDescription",
        "type": "string",
        "default": description,
        "required": True,
        "typeOptions": {"rows": 2},
        "description": _TOOL_DESCRIPTION_HELP,
    }
    if with_type:
        prop["displayOptions"] = {"show": {"descriptionType": ["manual"]}}
    return prop


def ai_tool_properties(properties: list[dict[str, Any]], description: str) -> list[dict[str, Any]]:
    """``properties`` with n8n's tool parameters inserted after the last callout (or first): ``toolDescription``,
    preceded by ``descriptionType`` where there is a resource or an operation (unless it has a toolDescription)."""
    names = {prop.get("name") for prop in properties}
    if "toolDescription" in names:
        return list(properties)
    with_type = bool(names & {"resource", "operation"})
    callouts = [i for i, prop in enumerate(properties) if prop.get("type") == "callout"]
    at = callouts[-1] + 1 if callouts else 0
    added = [tool_description_property(description, with_type=with_type)]
    if with_type:
        added.insert(0, copy.deepcopy(DESCRIPTION_TYPE))
    return [*properties[:at], *added, *properties[at:]]


def _ai_tool(base: Description) -> Description | None:
    """n8n's ``createAiTools``/``convertNodeToAiTool`` of one version's description (``None``: not usable)."""
    usable = base.get("usableAsTool")
    if not usable:
        return None
    tool: Description = copy.deepcopy(base)
    if isinstance(usable, dict):
        tool.update(copy.deepcopy(usable.get("replacements") or {}))
    tool.pop("usableAsTool", None)
    tool.update(name=tool["name"] + "Tool", displayName=tool["displayName"] + " Tool", inputs=[], outputs=["ai_tool"])
    tool["properties"] = ai_tool_properties(tool["properties"], str(base.get("description", "")))
    return tool


# --------------------------------------------------------------------------- n8n's convertNodeToHitlTool


def _has_send_and_wait(properties: list[dict[str, Any]]) -> bool:
    return any(
        isinstance(option, dict) and option.get("value") == SEND_AND_WAIT
        for prop in properties
        if prop.get("name") == "operation"
        for option in prop.get("options") or []
    )


def _send_and_wait_resource(properties: list[dict[str, Any]]) -> str | None:
    for prop in properties:
        if prop.get("name") == "operation" and _has_send_and_wait([prop]):
            resources = ((prop.get("displayOptions") or {}).get("show") or {}).get("resource")
            if isinstance(resources, list) and resources:
                return str(resources[0])
    return None


def _hitl_properties(properties: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """n8n's ``filterHitlToolProperties``: a ``message`` first, resource/operation/responseType fixed (hidden)."""
    resource = _send_and_wait_resource(properties)
    hidden = {"resource": resource, "operation": SEND_AND_WAIT, "responseType": "approval"}
    names = {"resource": "Resource", "operation": "Operation", "responseType": "Response Type"}
    filtered: list[dict[str, Any]] = [
        {
            "displayName": "Message",
            "name": "message",
            "type": "string",
            "default": "=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}",
            "required": True,
            "typeOptions": {"rows": 3},
            "description": "Message to send for approval. Use expressions to include tool details: "
            "{{ $tool.parameters }}, {{ $json.toolCallId }}",
        }
    ]
    for prop in properties:
        name = prop.get("name")
        if name == "message" or (name == "resource" and resource is None):
            continue
        if name in hidden:
            filtered.append({"displayName": names[name], "name": name, "type": "hidden", "default": hidden[name]})
        else:
            filtered.append(copy.deepcopy(prop))
    return filtered


def _hitl_tool(base: Description) -> Description | None:
    """n8n's ``convertNodeToHitlTool`` of one version's description (``None``: it has no ``sendAndWait``)."""
    if not _has_send_and_wait(base["properties"]) or str(base["name"]).endswith("Tool"):
        return None
    display = base["displayName"]
    return {
        **copy.deepcopy(base),
        "name": base["name"] + "HitlTool",
        "subtitle": "Send and wait",
        "description": "Request human approval for tools",
        "defaults": {**base.get("defaults", {}), "name": display},
        "inputs": [{"displayName": "Tool", "type": "ai_tool", "required": True}],
        "outputs": [{"displayName": "Human review", "type": "ai_tool", "filter": {"nodes": list(_AGENTS)}}],
        "properties": _hitl_properties(base["properties"]),
    }


__all__ = [
    "DESCRIPTION_TYPE",
    "SEND_AND_WAIT",
    "ai_tool_properties",
    "described_versions",
    "description_for",
    "properties_for",
    "tool_description_property",
]
