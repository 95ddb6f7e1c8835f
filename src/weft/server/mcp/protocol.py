"""The JSON-RPC side of the MCP server, as n8n's (the TypeScript SDK's ``Server`` with n8n's two handlers).

:func:`dispatch` answers one message: ``initialize`` (the client's protocol version when n8n's SDK supports it,
else its newest), ``ping``, ``tools/list``, ``tools/call``; notifications get no answer, other methods
``-32601 Method not found``. A handler's failure is ``-32603`` with its message (``Tool not found``), as the SDK
reports a thrown error. Messages are checked with the official ``mcp`` SDK's JSON-RPC types.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import ValidationError

from weft.errors import WeftError

#: What n8n 2.8.4's ``@modelcontextprotocol/sdk`` 1.25 speaks, newest first.
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07")
SERVER_VERSION = "0.1.0"
METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603
NEEDS_NAME_AND_ARGUMENTS = "Require a name and arguments for the tool call"

ListTools = Callable[[], Awaitable[list[dict[str, Any]]]]
CallTool = Callable[[str, dict[str, Any], str], Awaitable[dict[str, Any]]]


def _jsonrpc_type(message: dict[str, Any]) -> Any:
    """The SDK's type for ``message``; imported on the first MCP message, so a server without MCP triggers does
    not load the SDK (about 100 modules)."""
    from mcp.types.jsonrpc import JSONRPCNotification, JSONRPCRequest

    return JSONRPCRequest if "id" in message else JSONRPCNotification


class McpError(WeftError):
    """A request's failure, answered as a JSON-RPC error with ``code``."""

    def __init__(self, message: str, code: int = INTERNAL_ERROR) -> None:
        super().__init__(message)
        self.code = code


def is_request(message: Any) -> bool:
    return isinstance(message, dict) and "method" in message and "id" in message


def is_initialize(message: Any) -> bool:
    return is_request(message) and message.get("method") == "initialize"


def valid_message(message: Any) -> bool:
    """Whether ``message`` is a JSON-RPC request, notification or response (the SDK's ``JSONRPCMessageSchema``)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return False
    try:
        if "method" in message:
            _jsonrpc_type(message).model_validate(message)
        elif "id" not in message or ("result" not in message and "error" not in message):
            return False
    except ValidationError:
        return False
    return True


def initialize_result(message: dict[str, Any], server_name: str, instructions: str = "") -> dict[str, Any]:
    params = message.get("params") or {}
    requested = params.get("protocolVersion") if isinstance(params, dict) else None
    version = requested if requested in SUPPORTED_VERSIONS else SUPPORTED_VERSIONS[0]
    result: dict[str, Any] = {
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": server_name, "version": SERVER_VERSION},
    }
    if instructions:
        result["instructions"] = instructions
    return result


async def dispatch(
    message: dict[str, Any], *, server_name: str, list_tools: ListTools, call_tool: CallTool, instructions: str = ""
) -> dict[str, Any] | None:
    """The answer to one message (``None`` for notifications and responses)."""
    if not is_request(message):
        return None
    method = message["method"]
    try:
        if method == "initialize":
            result: dict[str, Any] = initialize_result(message, server_name, instructions)
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": await list_tools()}
        elif method == "tools/call":
            result = await _call(message, call_tool)
        else:
            raise McpError("Method not found", METHOD_NOT_FOUND)
    except McpError as error:
        return rpc_error(message["id"], error.code, error.message)
    return {"result": result, "jsonrpc": "2.0", "id": message["id"]}


async def _call(message: dict[str, Any], call_tool: CallTool) -> dict[str, Any]:
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    name, arguments = params.get("name"), params.get("arguments")
    if _falsy(name) or _falsy(arguments):  # JavaScript's ``!value``: an empty object passes
        raise McpError(NEEDS_NAME_AND_ARGUMENTS)
    payload = await call_tool(str(name), dict(arguments) if isinstance(arguments, dict) else {}, str(message["id"]))
    if "error" in payload:
        raise McpError(str(payload["error"]))
    result: dict[str, Any] = payload["result"]
    return result


def _falsy(value: Any) -> bool:
    return value is None or value is False or (isinstance(value, str | int | float) and not value)


def rpc_error(message_id: Any, code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": text}}


__all__ = [
    "SUPPORTED_VERSIONS",
    "CallTool",
    "ListTools",
    "McpError",
    "dispatch",
    "initialize_result",
    "is_initialize",
    "is_request",
    "rpc_error",
    "valid_message",
]
