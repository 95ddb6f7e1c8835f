"""toolHttpRequest's credentials (n8n's ``genericCredentialRequest``): what they add to every request."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext


@dataclass(frozen=True, kw_only=True)
class ToolAuth:
    """Headers, query and body keys the credential adds, and an httpx auth (Basic, Digest)."""

    headers: dict[str, str] = field(default_factory=dict)
    qs: dict[str, Any] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)
    auth: httpx.Auth | None = None


async def tool_auth(ctx: NodeContext, index: int, url: str) -> ToolAuth:
    """The credential of the node's ``authentication`` (``none``: nothing); refused for a placeholder domain."""
    authentication = ctx.get_node_parameter("authentication", index, "none")
    if authentication == "none":
        return ToolAuth()
    host = httpx.URL(url.replace("{", "%7B").replace("}", "%7D")).host
    if "%7b" in host.lower() or "{" in host:
        raise NodeOperationError(
            ctx.node.name,
            "Can't use a placeholder for the domain when using authentication",
            description="This is for security reasons, to prevent the model accidentally sending your credentials "
            "to an unauthorized domain",
            item_index=index,
        )
    if authentication != "genericCredentialType":
        named = ctx.get_node_parameter("nodeCredentialType", index, "") or authentication
        raise NodeOperationError(
            ctx.node.name,
            f"Authentication with credential type {named!r} is not supported yet",
            description="Use 'Generic Credential Type' (Basic, Digest, Header, Query or Custom auth).",
            item_index=index,
        )
    return await _generic(ctx, index, str(ctx.get_node_parameter("genericAuthType", index, "")))


async def _generic(ctx: NodeContext, index: int, kind: str) -> ToolAuth:
    if kind in ("httpBasicAuth", "httpDigestAuth"):
        creds = await ctx.get_credentials("httpBasicAuth")  # n8n reads the Basic credential for both
        auth_class = httpx.BasicAuth if kind == "httpBasicAuth" else httpx.DigestAuth
        return ToolAuth(auth=auth_class(str(creds.get("user") or ""), str(creds.get("password") or "")))
    if kind == "httpHeaderAuth":
        creds = await ctx.get_credentials(kind)
        return ToolAuth(headers={str(creds.get("name")): str(creds.get("value") or "")})
    if kind == "httpQueryAuth":
        creds = await ctx.get_credentials(kind)
        return ToolAuth(qs={str(creds.get("name")): creds.get("value")})
    if kind == "httpCustomAuth":
        creds = await ctx.get_credentials(kind)
        try:
            custom = json.loads(creds.get("json") or "{}")
        except ValueError:
            raise NodeOperationError(ctx.node.name, "Invalid Custom Auth JSON", item_index=index) from None
        return ToolAuth(headers=custom.get("headers") or {}, qs=custom.get("qs") or {}, body=custom.get("body") or {})
    raise NodeOperationError(ctx.node.name, f"The type {kind} is not supported", item_index=index)


__all__ = ["ToolAuth", "tool_auth"]
