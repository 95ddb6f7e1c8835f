"""What an MCP client node is configured with, read as n8n reads it (``nodes/mcp/shared/utils.ts``, ``runtime.ts``).

The endpoint and transport by node version, the authentication headers from the node's credential (n8n's
``getMcpAuthHeaders``), the credential's domain restriction (n8n 2.x ``assertCredentialAllowsUrl``), which tools
to offer (``getSelectedTools``), the names they are offered under (``buildMcpToolName``) and the arguments a
call sends (only those in the tool's schema).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from weft.ai.mcp.sdk import McpTool, Transport
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext
from weft.nodes.credential_domains import assert_credential_allows_url

#: n8n's default for ``options.timeout``: how long a tool call may take.
DEFAULT_TIMEOUT_MS = 60000.0
#: ``authentication`` value -> credential type (n8n's ``credentialTypes`` in ``getAuthHeaders``).
CREDENTIAL_TYPES: dict[str, str] = {
    "bearerAuth": "httpBearerAuth",
    "headerAuth": "httpHeaderAuth",
    "multipleHeadersAuth": "httpMultipleHeadersAuth",
    "mcpOAuth2Api": "mcpOAuth2Api",
}
_MAX_TOOL_NAME = 64


@dataclass(frozen=True, kw_only=True)
class McpEndpoint:
    """Where and how to connect: one MCP session per distinct endpoint per node per execution."""

    transport: Transport
    url: str
    headers: dict[str, str] = field(default_factory=dict, repr=False)
    timeout_ms: float = DEFAULT_TIMEOUT_MS

    def session_key(self, node_name: str) -> str:
        """The execution-resource key of this node's session (headers hashed, never kept in clear)."""
        digest = hashlib.sha256(json.dumps([self.transport, self.url, self.headers], sort_keys=True).encode())
        return f"mcp-client:{node_name}:{digest.hexdigest()[:16]}"


@dataclass(frozen=True, kw_only=True)
class ToolFilter:
    """n8n's ``include`` (``all`` / ``selected`` / ``except``) with its tool lists."""

    mode: str = "all"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def select(self, tools: list[McpTool]) -> list[McpTool]:
        """n8n's ``getSelectedTools``: ``selected`` with an empty list keeps every tool."""
        if self.mode == "selected":
            if not self.include:
                return tools
            return [t for t in tools if t.name in self.include]
        if self.mode == "except":
            return [t for t in tools if t.name not in self.exclude]
        return tools


def normalize_url(node_name: str, url: Any) -> str:
    """The endpoint as n8n connects to it: ``https://`` added when no scheme is given; a bad URL is refused."""
    text = str(url or "").strip()
    if not re.match(r"^https?://", text, re.IGNORECASE):
        text = "https://" + text
    parts = urlsplit(text)
    if not parts.hostname:
        raise NodeOperationError(
            node_name,
            "Could not connect to your MCP server. The provided URL is invalid.",
            description=f"Set the endpoint of node {node_name!r} to the server's URL, e.g. https://host/mcp.",
        )
    return text


def auth_headers(authentication: str, credential: Mapping[str, Any]) -> dict[str, str]:
    """n8n's ``getMcpAuthHeaders``: the HTTP headers a credential of the given authentication adds."""
    if authentication == "bearerAuth":
        token = credential.get("token")
        return {"Authorization": f"Bearer {token}"} if isinstance(token, str) and token else {}
    if authentication == "headerAuth":
        name, value = credential.get("name"), credential.get("value")
        return {name: value} if isinstance(name, str) and name and isinstance(value, str) else {}
    if authentication == "multipleHeadersAuth":
        values = (credential.get("headers") or {}).get("values")
        pairs = [v for v in values or [] if isinstance(v, Mapping)]
        return {
            p["name"]: p["value"] for p in pairs if isinstance(p.get("name"), str) and isinstance(p.get("value"), str)
        }
    if authentication == "mcpOAuth2Api":
        token_data = credential.get("oauthTokenData") or {}
        token = (
            token_data.get("access_token") or token_data.get("accessToken") if isinstance(token_data, Mapping) else None
        )
        return {"Authorization": f"Bearer {token}"} if isinstance(token, str) and token else {}
    return {}


def check_credential_domain(node_name: str, credential: Mapping[str, Any], url: str, surface: str) -> None:
    """n8n 2.x's rule for a credential's ``allowedHttpRequestDomains`` (``all`` / ``domains`` / ``none``)."""
    assert_credential_allows_url(node_name, credential, url, surface=surface)


async def credential_headers(ctx: NodeContext, authentication: str, url: str, surface: str) -> dict[str, str]:
    """The headers of the node's credential for ``authentication`` (none for ``none``), its domain rule checked."""
    credential_type = CREDENTIAL_TYPES.get(authentication)
    if credential_type is None:
        return {}
    credential = await ctx.get_credentials(credential_type)
    check_credential_domain(ctx.node.name, credential, url, surface)
    return auth_headers(authentication, credential)


def mcp_tool_name(node_name: str, tool_name: str) -> str:
    """n8n 2.41's ``buildMcpToolName``: ``<node name, non-alphanumerics as _>_<tool>``, at most 64 characters."""
    prefix = re.sub(r"[^a-zA-Z0-9]", "_", node_name)
    full = f"{prefix}_{tool_name}"
    if len(full) <= _MAX_TOOL_NAME:
        return full
    room = _MAX_TOOL_NAME - len(tool_name) - 1
    return f"{prefix[:room]}_{tool_name}" if room > 0 else tool_name


def schema_arguments(schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Only the arguments the tool's schema declares (the agent's input item is mixed into a tool's input),
    unless the schema allows additional properties."""
    if schema.get("additionalProperties") is True:
        return dict(arguments)
    declared = schema.get("properties") or {}
    return {k: v for k, v in arguments.items() if k in declared}


__all__ = [
    "CREDENTIAL_TYPES",
    "DEFAULT_TIMEOUT_MS",
    "McpEndpoint",
    "ToolFilter",
    "auth_headers",
    "check_credential_domain",
    "credential_headers",
    "mcp_tool_name",
    "normalize_url",
    "schema_arguments",
]
