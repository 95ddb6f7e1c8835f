"""``@n8n/n8n-nodes-langchain.chainRetrievalQa``: the Question and Answer Chain, typeVersions 1 to 1.7 (n8n's
``ChainRetrievalQa.node.ts`` and ``processItem.ts``).

Each item's question (``query`` up to 1.2, then ``promptType`` and ``text``) goes to the connected retriever; the
documents it returns, joined by blank lines, fill ``{context}`` of the system prompt template (LangChain's
``createStuffDocumentsChain`` + ``createRetrievalChain``) and the question is the user message. Before 1.5 a
``{question}`` in the template (its first one) stands for the question. The answer becomes ``{response}`` (from
1.5) or ``{response: {text}}``.

From 1.6 the items run ``options.batching.batchSize`` at a time (5 by default), concurrently inside a batch; a
failed item under continue-on-fail is paired with its index *in the batch*, as n8n's is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol, runtime_checkable

from weft.ai.messages import HumanMessage, Message, SystemMessage
from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains._chain_prompt import prompt_by_type
from weft.ai.nodes.chains._common import connected_models
from weft.ai.nodes.chains._fstring import PromptTemplateError, format_fstring
from weft.ai.nodes.chains._summary_chains import INVALID_PROMPT_INPUT
from weft.ai.retrieval.connections import AI_RETRIEVER
from weft.ai.retrieval.documents import Document
from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import AI_LANGUAGE_MODEL, MAIN, Item, NodeOutput

QA_VERSIONS: tuple[float, ...] = (1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7)
#: n8n's default system prompt template (``constants.ts``), word for word.
SYSTEM_PROMPT_TEMPLATE = (
    "You are an assistant for question-answering tasks. Use the following pieces of retrieved context to answer "
    "the question.\n"
    "If you don't know the answer, just say that you don't know, don't try to make up an answer.\n"
    "----------------\n"
    "Context: {context}"
)
#: The default ``query`` of versions 1 to 1.2.
_QUERY_DEFAULTS = {1.0: "={{ $json.input }}", 1.1: "={{ $json.chat_input }}", 1.2: "={{ $json.chatInput }}"}


@runtime_checkable
class Retriever(Protocol):
    """What a retriever sub-node supplies: the documents relevant to a query."""

    async def get_relevant_documents(self, query: str) -> list[Document]: ...


class ChainRetrievalQa(NodeType):
    """Question and Answer Chain: answer each item's question from the retrieved documents."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.chainRetrievalQa",
        display_name="Question and Answer Chain",
        versions=QA_VERSIONS,
        description="Answer questions about retrieved documents",
        inputs=(MAIN, AI_LANGUAGE_MODEL, AI_RETRIEVER),
        outputs=(MAIN,),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        batching = Batching.of(ctx, "options.batching", enabled=version >= 1.6, minimum=1)
        output: list[Item] = []
        size = max(1, batching.size)

        def read(index: int, result: str | Exception) -> None:
            if isinstance(result, Exception):
                if not ctx.continue_on_fail():
                    raise result
                paired = index % size if version >= 1.6 else index
                message = getattr(result, "message", None) or str(result)
                output.append({"json": {"error": message}, "pairedItem": {"item": paired}})
                return
            output.append({"json": {"response": result if version >= 1.5 else {"text": result}}})

        await run_in_batches(len(ctx.get_input_data()), batching, lambda i: answer(ctx, i), read)
        return [output]


async def answer(ctx: ExecuteContext, item_index: int) -> str:
    """One item's answer (n8n's ``processItem``)."""
    models = await connected_models(ctx)
    retriever = await _retriever(ctx)
    query = _query(ctx, item_index)
    template = _template(ctx, item_index)
    documents = await retriever.get_relevant_documents(query if isinstance(query, str) else str(query))
    context = "\n\n".join(document.page_content for document in documents)
    try:
        system = format_fstring(template, {"context": context, "input": query})
    except PromptTemplateError as error:
        raise NodeOperationError(ctx.node.name, _prompt_message(error), item_index=item_index) from error
    messages: list[Message] = [SystemMessage(content=system), HumanMessage(content=_text(query))]
    response = await models[0].generate(messages, [])
    return response.message.content


async def _retriever(ctx: ExecuteContext) -> Retriever:
    supplied = await ctx.get_input_connection_data(AI_RETRIEVER, 0)
    found = next((r for r in supplied if isinstance(r, Retriever)), None)
    if found is None:
        raise NodeOperationError(
            ctx.node.name,
            "A Retriever sub-node must be connected and enabled",
            description="Connect a retriever (for example the Vector Store Retriever) to the node's Retriever input.",
        )
    return found


def _query(ctx: ExecuteContext, item_index: int) -> Any:
    """The item's question: ``query`` up to 1.2, else by ``promptType`` (``getPromptInputByType``)."""
    version = float(ctx.node.typeVersion)
    if version <= 1.2:
        default = _QUERY_DEFAULTS[version]
        value = ctx.get_node_parameter("query", item_index, default)
        if value is default:  # not set: the version's default expression
            value = ctx.evaluate_expression(default, item_index)
        if value is None:
            raise NodeOperationError(ctx.node.name, "The ‘query‘ parameter is empty.", item_index=item_index)
        return value
    return prompt_by_type(ctx, item_index)


def _template(ctx: ExecuteContext, item_index: int) -> str:
    options = ctx.get_node_parameter("options", item_index, {})
    given = options.get("systemPromptTemplate") if isinstance(options, Mapping) else None
    template = str(given) if given is not None else SYSTEM_PROMPT_TEMPLATE
    if float(ctx.node.typeVersion) < 1.5:  # JavaScript's replace: the first one only
        template = template.replace("{question}", "{input}", 1)
    return template


def _prompt_message(error: PromptTemplateError) -> str:
    """LangChain's message for a chat prompt that names a value it is not given (``INVALID_PROMPT_INPUT``)."""
    missing = str(error).removeprefix(_MISSING)
    if missing == str(error):
        return str(error)
    return f"Missing value for input variable `{missing}`{INVALID_PROMPT_INPUT}"


_MISSING = "(f-string) Missing value for input "


def _text(query: Any) -> str:
    return query if isinstance(query, str) else format_fstring("{input}", {"input": query})


__all__ = ["QA_VERSIONS", "SYSTEM_PROMPT_TEMPLATE", "ChainRetrievalQa", "Retriever", "answer"]
