"""LangChain's ``VectorDBQAChain`` as n8n's Vector Store Question Answer Tool runs it: the nearest documents of
the question, stuffed into the chat QA prompt, answered by the connected model."""

from __future__ import annotations

from weft.ai.messages import HumanMessage, Message, SystemMessage
from weft.ai.models.base import ChatModel
from weft.ai.retrieval.retrievers import SearchesText

#: LangChain's chat QA prompt (``QA_PROMPT_SELECTOR`` for chat models), word for word.
QA_SYSTEM_TEMPLATE = (
    "Use the following pieces of context to answer the users question. \n"
    "If you don't know the answer, just say that you don't know, don't try to make up an answer.\n"
    "----------------\n"
    "{context}"
)


def qa_tool_description(name: str, description: str) -> str:
    """``VectorStoreQATool.getDescription``."""
    return (
        f"Useful for when you need to answer questions about {name}. Whenever you need information about "
        f"{description} you should ALWAYS use this. Input should be a fully formed question."
    )


async def answer_question(model: ChatModel, store: SearchesText, question: str, k: int) -> str:
    """The model's answer to ``question`` from the ``k`` documents nearest to it."""
    documents = await store.similarity_search(question, k)
    context = "\n\n".join(d.page_content for d in documents)
    messages: list[Message] = [
        SystemMessage(content=QA_SYSTEM_TEMPLATE.replace("{context}", context)),
        HumanMessage(content=question),
    ]
    response = await model.generate(messages, [])
    return response.message.content


__all__ = ["QA_SYSTEM_TEMPLATE", "answer_question", "qa_tool_description"]
