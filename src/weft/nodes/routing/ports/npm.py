"""Ports of the Npm node's inline functions (``nodes/Npm/PackageDescription.ts``)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.postreceive import Items

#: semver's ``valid``: a full version (``1.2.3``, ``1.0.0-rc.1+build``), an optional ``v`` or ``=`` in front.
_SEMVER = re.compile(
    r"^[v=\s]*(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][a-zA-Z0-9-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][a-zA-Z0-9-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


def _published(value: Any) -> float:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return float("nan")


@port("postReceive", "", "e81de088eaaecc58")
async def package_versions(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """Every valid version of ``time`` with its date, newest first."""
    versions: Items = []
    for item in items:
        times = item["json"].get("time") or {} if isinstance(item["json"], dict) else {}
        for version, published in times.items():
            if _SEMVER.match(str(version)) and len(str(version)) <= 256:
                versions.append({"json": {"version": version, "published_at": published}})
    return sorted(versions, key=lambda v: -_published(v["json"]["published_at"]))


@port("postReceive", "", "b45f6e66e1c1649e")
async def search_results(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """Each found package's name, version and description."""
    out: Items = []
    for item in items:
        for found in item["json"].get("objects") or []:
            package = found.get("package") or {}
            picked = {k: package[k] for k in ("name", "version", "description") if k in package}
            out.append({"json": picked})
    return out


@port("preSend", "", "c33dd4e62e293580")
async def distribution_tag_body(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Updating a distribution tag sends the version as a form body."""
    options.setdefault("headers", {})["content-type"] = "application/x-www-form-urlencoded"
    options["body"] = call.get_node_parameter("packageVersion")
    return options
