"""What the chain nodes share: their model, and how a failed item reads (n8n 2.41's ``wrapLangChainParserError``)."""

from __future__ import annotations

from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._schema_parser import OutputParserException
from weft.ai.parsers.structured import PARSE_ERROR, PARSE_ERROR_DESCRIPTION
from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.workflow import AI_LANGUAGE_MODEL, Item


async def connected_models(ctx: ExecuteContext) -> list[ChatModel]:
    """The chat models connected to the node's Model input(s); none is an error naming the input, as n8n's."""
    models = [m for m in await ctx.get_input_connection_data(AI_LANGUAGE_MODEL, 0) if isinstance(m, ChatModel)]
    if not models:
        raise NodeOperationError(
            ctx.node.name,
            "A Model sub-node must be connected and enabled",
            description="Connect a chat model (for example the OpenAI Chat Model) to the node's Model input.",
        )
    return models


def item_error(ctx: ExecuteContext, error: Exception, item_index: int, *, enrich: bool = False) -> Exception:
    """The error an item failed with, as the node reports it: an answer that does not fit the schema becomes
    "Model output doesn't fit required format"; with ``enrich`` (the Basic LLM Chain) an error that is not a node
    error becomes one."""
    if isinstance(error, OutputParserException):
        return NodeOperationError(
            ctx.node.name,
            PARSE_ERROR,
            description=PARSE_ERROR_DESCRIPTION,
            item_index=item_index,
            outputParserFailReason="Model output does not match the expected schema",
        )
    if not enrich or isinstance(error, NodeError):
        return error
    message = str(error) or "Model execution failed"
    wrapped = NodeOperationError(
        ctx.node.name, message, description=f"Original error: {type(error).__name__}", item_index=item_index
    )
    wrapped.__cause__ = error
    return wrapped


def error_item(error: Exception, item_index: int) -> Item:
    """The item a failed input item becomes when the node continues on fail."""
    message = getattr(error, "message", None) or str(error)
    return {"json": {"error": message}, "pairedItem": {"item": item_index}}


__all__ = ["connected_models", "error_item", "item_error"]
