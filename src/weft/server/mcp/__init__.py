"""The MCP Server Trigger's HTTP side: ``/mcp/<path>`` and ``/mcp-test/<path>``, as n8n serves them.

* :mod:`.protocol`: JSON-RPC messages in, answers out (``initialize``, ``ping``, ``tools/list``, ``tools/call``);
* :mod:`.sessions`: the sessions (SSE streams and streamable-HTTP sessions), swept when idle;
* :mod:`.targets`: which trigger a URL belongs to (active workflows; any saved one for test URLs);
* :mod:`.calls`: listing the tools and running a tool call as a stored execution;
* :mod:`.transport`: the two transports' HTTP answers;
* :mod:`.routes`: the Starlette routes the app mounts.
"""

from weft.server.mcp.routes import routes

__all__ = ["routes"]
