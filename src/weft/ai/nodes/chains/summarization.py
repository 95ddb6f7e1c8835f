"""``@n8n/n8n-nodes-langchain.chainSummarization``: the Summarization Chain, typeVersions 1, 2 and 2.1 (n8n's
``V1/ChainSummarizationV1.node.ts``, ``V2/ChainSummarizationV2.node.ts`` and ``V2/processItem.ts``).

Each input item becomes documents, and the documents one summary (:mod:`._summary_chains`: ``map_reduce``,
``refine`` or ``stuff``):

* typeVersion 1 reads them from the connected document loader (``type`` and ``options`` choose the method and
  its prompts; ``options.combineMapPrompt`` is the map prompt, ``options.prompt`` the combine prompt) and answers
  ``{response: <the chain's values>}`` item after item;
* 2 and 2.1 read them from a loader (``operationMode: documentLoader``) or load the item themselves: its JSON
  strings or its files, cut by a Recursive Character splitter of ``chunkSize``/``chunkOverlap`` (``simple``) or the
  connected splitter (``advanced``). The method and prompts are ``options.summarizationMethodAndPrompts.values``.
  2.1 runs ``options.batching.batchSize`` items at once (5 by default) and answers ``{output: …}``; with a batch
  size of 1 (and in 2) the items run one after the other and the answer is ``{response: …}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._common import connected_models
from weft.ai.nodes.chains._summary_chains import SummaryChain, SummaryChainError
from weft.ai.retrieval.connections import AI_DOCUMENT, AI_TEXT_SPLITTER
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import RetrievalError
from weft.ai.retrieval.loaders import BinaryItemLoader, DocumentSource, JsonItemLoader
from weft.ai.retrieval.splitters import RecursiveCharacterTextSplitter, SplitsText
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, MAIN, Item, NodeOutput

SUMMARIZATION_VERSIONS: tuple[float, ...] = (1, 2, 2.1)


def _inputs(parameters: Mapping[str, Any]) -> tuple[str, ...]:
    """V2's ``getInputs`` (a loader in ``documentLoader`` mode, a splitter in ``advanced`` chunking); version 1
    (it has ``type``, not ``operationMode``) always takes a loader."""
    if "type" in parameters and "operationMode" not in parameters:
        return (MAIN, AI_LANGUAGE_MODEL, AI_DOCUMENT)
    if parameters.get("operationMode") == "documentLoader":
        return (MAIN, AI_LANGUAGE_MODEL, AI_DOCUMENT)
    if parameters.get("chunkingMode") == "advanced":
        return (MAIN, AI_LANGUAGE_MODEL, AI_TEXT_SPLITTER)
    return (MAIN, AI_LANGUAGE_MODEL)


class ChainSummarization(NodeType):
    """Summarization Chain: summarize each item's documents with a chat model."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chainSummarization",
        display_name="Summarization Chain",
        versions=SUMMARIZATION_VERSIONS,
        description="Transforms text into a concise summary",
        inputs=_inputs,
        outputs=(MAIN,),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if float(ctx.node.typeVersion) == 1:
            return [await _execute_v1(ctx)]
        return [await _execute_v2(ctx)]


async def _execute_v1(ctx: ExecuteContext) -> list[Item]:
    """Version 1: one chain for all items, its documents from the loader; the first failure stops the node."""
    method = str(ctx.get_node_parameter("type", 0, "map_reduce"))
    models = await connected_models(ctx)
    source = await _loader(ctx)
    options = ctx.get_node_parameter("options", 0, {})
    chain = _chain(ctx, method, options if isinstance(options, Mapping) else {})
    output: list[Item] = []
    for index, item in enumerate(ctx.get_input_data()):
        documents = await _documents(ctx, source, item, index)
        output.append({"json": {"response": await _run(ctx, chain, models[0], documents)}})
    return output


async def _execute_v2(ctx: ExecuteContext) -> list[Item]:
    """Versions 2 and 2.1: item by item, or in batches from 2.1 (a batch size above 1)."""
    operation = str(ctx.get_node_parameter("operationMode", 0, "nodeInputJson"))
    chunking = str(ctx.get_node_parameter("chunkingMode", 0, "simple")) if operation != "documentLoader" else ""
    items = ctx.get_input_data()
    batching = Batching.of(ctx, "options.batching", enabled=float(ctx.node.typeVersion) >= 2.1)
    key = "output" if batching.size > 1 else "response"
    output: list[Item] = []

    async def work(index: int) -> Any:
        return await _summarize_item(ctx, index, items[index], operation, chunking)

    def read(index: int, result: Any) -> None:
        if isinstance(result, Exception):
            if not ctx.continue_on_fail():
                raise result
            message = getattr(result, "message", None) or str(result)
            output.append({"json": {"error": message}, "pairedItem": {"item": index}})
            return
        output.append({"json": {key: result} if result is not None else {}})

    await run_in_batches(len(items), batching, work, read)
    return output


async def _summarize_item(ctx: ExecuteContext, index: int, item: Item, operation: str, chunking: str) -> Any:
    """V2's ``processItem``: the chain's values for one item (``None`` for an unknown operation mode)."""
    models = await connected_models(ctx)
    values = ctx.get_node_parameter("options.summarizationMethodAndPrompts.values", index, {})
    values = values if isinstance(values, Mapping) else {}
    chain = _chain(ctx, str(values.get("summarizationMethod") or "map_reduce"), values)
    if operation == "documentLoader":
        source = await _loader(ctx)
        return await _run(ctx, chain, models[0], await _documents(ctx, source, item, index))
    if operation not in ("nodeInputJson", "nodeInputBinary"):
        return None
    splitter = await _splitter(ctx, index, chunking)
    loader: DocumentSource
    if operation == "nodeInputBinary":
        key = str(ctx.get_node_parameter("options.binaryDataKey", index, "data"))
        loader = BinaryItemLoader(ctx, key, splitter)
    else:
        loader = JsonItemLoader(ctx, splitter)
    return await _run(ctx, chain, models[0], await _documents(ctx, loader, item, index))


async def _splitter(ctx: ExecuteContext, index: int, chunking: str) -> SplitsText | None:
    if chunking == "simple":
        size = ctx.get_node_parameter("chunkSize", index, 1000)
        overlap = ctx.get_node_parameter("chunkOverlap", index, 200)
        try:
            return RecursiveCharacterTextSplitter(chunk_size=int(size), chunk_overlap=int(overlap))
        except RetrievalError as error:
            raise error.for_node(ctx.node.name) from None
    if chunking == "advanced":
        supplied = await ctx.get_input_connection_data(AI_TEXT_SPLITTER, 0)
        return next((s for s in supplied if isinstance(s, SplitsText)), None)
    return None


def _chain(ctx: ExecuteContext, method: str, prompts: Mapping[str, Any]) -> SummaryChain:
    try:
        return SummaryChain.of(method, prompts)
    except SummaryChainError as error:
        raise NodeOperationError(ctx.node.name, str(error)) from error


async def _loader(ctx: ExecuteContext) -> Any:
    """What the connected document loader supplies (a loader of items, or documents)."""
    supplied = await ctx.get_input_connection_data(AI_DOCUMENT, 0)
    if not supplied:
        raise NodeOperationError(
            ctx.node.name,
            "A Document sub-node must be connected and enabled",
            description="Connect a document loader (for example the Default Data Loader) to the node's Document "
            "input, or summarize the node's input instead (Data to Summarize).",
        )
    return supplied[0]


async def _documents(ctx: ExecuteContext, source: Any, item: Item, index: int) -> list[Document]:
    """The item's documents: a loader processes the item; documents supplied as they are are used as they are."""
    try:
        if isinstance(source, DocumentSource):
            return await source.process_item(item, index)
    except RetrievalError as error:
        raise error.for_node(ctx.node.name) from None
    if isinstance(source, list):
        return [d for d in source if isinstance(d, Document)]
    return [source] if isinstance(source, Document) else []


async def _run(ctx: ExecuteContext, chain: SummaryChain, model: ChatModel, documents: list[Document]) -> Any:
    try:
        return await chain.run(model, documents)
    except SummaryChainError as error:
        raise NodeOperationError(ctx.node.name, str(error)) from error


__all__ = ["SUMMARIZATION_VERSIONS", "ChainSummarization"]
