"""Each call a retrieval sub-node serves is a run of that node, as n8n's ``logWrapper`` records it.

=====================  ==================  =========================================  ============================
sub-node               connection          run input                                  run output
=====================  ==================  =========================================  ============================
embeddings             ``ai_embedding``    ``{documents: [texts]}`` / ``{query}``     ``{response: vectors}``
text splitter          ``ai_textSplitter`` ``{textSplitter: text}``                   ``{response: [chunks]}``
document loader        ``ai_document``     the input item                             ``{response: [documents]}``
vector store           ``ai_vectorStore``  ``{query, k, filter}``                     ``{response: [documents]}``
retriever              ``ai_retriever``    ``{query}``                                ``{response: [documents]}``
=====================  ==================  =========================================  ============================

A failure closes the run with the error, named for the sub-node, and is raised on.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from weft.ai.errors import ChatModelError
from weft.ai.retrieval.connections import AI_EMBEDDING, AI_TEXT_SPLITTER
from weft.ai.retrieval.embeddings import Embeddings, Vector
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.splitters import SplitsText
from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import SupplyDataContext
from weft.workflow import Item

T = TypeVar("T")


async def logged(
    ctx: SupplyDataContext,
    connection_type: str,
    input_items: list[Item],
    call: Callable[[], Awaitable[T]],
    output: Callable[[T], list[Item]],
) -> T:
    """Open a run of ``ctx.node`` with ``input_items``, await ``call()``, close the run with ``output(result)``."""
    run = ctx.add_input_data(connection_type, [input_items])
    try:
        result = await call()
    except BaseException as error:
        named = _named(error, ctx.node.name)
        ctx.add_output_data(connection_type, run, named)
        if named is error:
            raise
        raise named from error
    ctx.add_output_data(connection_type, run, [output(result)])
    return result


def _named(error: BaseException, node_name: str) -> BaseException:
    """The error as the sub-node's (n8n wraps it in a ``NodeOperationError`` of the connected node)."""
    if isinstance(error, RetrievalError | ChatModelError):
        return error.for_node(node_name)
    if isinstance(error, NodeError) or not isinstance(error, Exception):
        return error
    return NodeOperationError(node_name, str(error) or type(error).__name__)


class TracedEmbeddings:
    """An :class:`Embeddings` whose calls are runs of the embeddings node (n8n checks the texts first)."""

    def __init__(self, inner: Embeddings, ctx: SupplyDataContext) -> None:
        self.inner = inner
        self._ctx = ctx

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        for index, text in enumerate(texts):
            if text is None or text == "":
                raise NodeOperationError(
                    self._ctx.node.name,
                    f"Invalid document at index {index}",
                    description=f"Document at index {index} is empty or undefined. All documents must be non-empty "
                    "strings.",
                )
        return await logged(
            self._ctx,
            AI_EMBEDDING,
            [{"json": {"documents": list(texts)}}],
            lambda: self.inner.embed_documents(texts),
            lambda vectors: [{"json": {"response": vectors}}],
        )

    async def embed_query(self, text: str) -> Vector:
        if not isinstance(text, str) or text == "":
            raise NodeOperationError(
                self._ctx.node.name,
                "Cannot embed empty or undefined text",
                description="The text provided for embedding is empty or undefined. This can happen when: the input "
                "expression evaluates to undefined, the AI agent calls a tool without proper arguments, or a "
                "required field is missing.",
            )
        return await logged(
            self._ctx,
            AI_EMBEDDING,
            [{"json": {"query": text}}],
            lambda: self.inner.embed_query(text),
            lambda vector: [{"json": {"response": vector}}],
        )


class TracedSplitter:
    """A text splitter whose cuts are runs of the splitter node."""

    def __init__(self, inner: SplitsText, ctx: SupplyDataContext) -> None:
        self.inner = inner
        self._ctx = ctx

    async def split_text(self, text: str) -> list[str]:
        return await logged(
            self._ctx,
            AI_TEXT_SPLITTER,
            [{"json": {"textSplitter": text}}],
            lambda: self.inner.split_text(text),
            lambda chunks: [{"json": {"response": chunks}}],
        )


def response_item(value: Any, item_index: int | None = None) -> Item:
    item: Item = {"json": {"response": value}}
    if item_index is not None:
        item["pairedItem"] = {"item": item_index}
    return item


__all__ = ["TracedEmbeddings", "TracedSplitter", "logged", "response_item"]
