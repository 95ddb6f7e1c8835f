"""LangChain's summarization chains (``loadSummarizationChain``): ``stuff``, ``map_reduce`` and ``refine``, with the
prompts n8n passes (``getChainPromptsArgs``) and LangChain's defaults word for word.

Each prompt is a string template sent to the chat model as one user message; the answer's text is the result.

* ``stuff``: every document's text, joined by blank lines, fills ``{text}``; the result is ``{text}``.
* ``map_reduce``: while the combine prompt filled with all the texts is 3000 tokens or more, each text is
  summarized with the map prompt (all at once) and the summaries replace the texts (at most 10 rounds); then the
  combine prompt runs as ``stuff``. Tokens are counted as LangChain counts them without its tokenizer (which it
  downloads from the network): a quarter of the text's length, rounded up. The result is ``{text}``.
* ``refine``: the first text with the initial prompt, then each next text with the refine prompt and the answer
  so far (``{existing_answer}``); the result is ``{output_text}``.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from weft.ai.messages import HumanMessage
from weft.ai.models.base import ChatModel
from weft.ai.nodes.chains._fstring import PromptTemplateError, format_fstring
from weft.ai.retrieval._js_text import utf16_view
from weft.ai.retrieval.documents import Document
from weft.errors import WeftError

#: LangChain's ``DEFAULT_PROMPT`` of the summarization chains (n8n's ``DEFAULT_PROMPT_TEMPLATE``).
DEFAULT_PROMPT = 'Write a concise summary of the following:\n\n\n"{text}"\n\n\nCONCISE SUMMARY:'
#: LangChain's ``REFINE_PROMPT`` (n8n's ``REFINE_PROMPT_TEMPLATE``).
REFINE_PROMPT = (
    "Your job is to produce a final summary\n"
    'We have provided an existing summary up to a certain point: "{existing_answer}"\n'
    "We have the opportunity to refine the existing summary\n"
    "(only if needed) with some more context below.\n"
    "------------\n"
    '"{text}"\n'
    "------------\n\n"
    "Given the new context, refine the original summary\n"
    "If the context isn't useful, return the original summary.\n\n"
    "REFINED SUMMARY:"
)
METHODS = ("map_reduce", "refine", "stuff")
#: What LangChain adds to the message of a template it cannot fill (``addLangChainErrorFields``).
INVALID_PROMPT_INPUT = (
    "\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langchain/errors/INVALID_PROMPT_INPUT/\n"
)
#: ``MapReduceDocumentsChain``'s ``maxTokens`` and ``maxIterations``.
MAX_TOKENS = 3000
MAX_ITERATIONS = 10


class SummaryChainError(WeftError):
    """The chain cannot run: an unknown method, a prompt that names values it is not given, no documents."""


@dataclass(frozen=True, kw_only=True)
class SummaryChain:
    """One summarization method and its prompts."""

    method: str
    prompt: str = DEFAULT_PROMPT
    """``stuff``'s prompt; ``map_reduce``'s combine prompt."""
    map_prompt: str = DEFAULT_PROMPT
    refine_prompt: str = REFINE_PROMPT
    question_prompt: str = DEFAULT_PROMPT

    @classmethod
    def of(cls, method: str, options: Mapping[str, Any]) -> SummaryChain:
        """``getChainPromptsArgs`` + ``loadSummarizationChain``: the options' prompts where given (not empty)."""
        given = {k: str(v) for k, v in options.items() if isinstance(v, str) and v}
        if method == "map_reduce":
            map_prompt = given.get("combineMapPrompt", DEFAULT_PROMPT)
            chain = cls(method=method, map_prompt=map_prompt, prompt=given.get("prompt", DEFAULT_PROMPT))
        elif method == "stuff":
            chain = cls(method=method, prompt=given.get("prompt", DEFAULT_PROMPT))
        elif method == "refine":
            chain = cls(
                method=method,
                refine_prompt=given.get("refinePrompt", REFINE_PROMPT),
                question_prompt=given.get("refineQuestionPrompt", DEFAULT_PROMPT),
            )
        else:
            raise SummaryChainError(f"Invalid _type: {method}")
        chain.validate()
        return chain

    def validate(self) -> None:
        """``new PromptTemplate(...)`` checks each given template against its variables."""
        checks: list[tuple[str, tuple[str, ...]]]
        if self.method == "map_reduce":
            checks = [(self.map_prompt, ("text",)), (self.prompt, ("text",))]
        elif self.method == "stuff":
            checks = [(self.prompt, ("text",))]
        else:
            checks = [(self.refine_prompt, ("existing_answer", "text")), (self.question_prompt, ("text",))]
        for template, names in checks:
            try:
                format_fstring(template, dict.fromkeys(names, "foo"))
            except PromptTemplateError as error:
                raise SummaryChainError(f"Invalid prompt schema: {error}{INVALID_PROMPT_INPUT}") from error

    async def run(self, model: ChatModel, documents: list[Document]) -> dict[str, Any]:
        """The chain's output values for ``documents``."""
        if self.method == "stuff":
            return {"text": await _stuff(model, self.prompt, documents)}
        if self.method == "map_reduce":
            return {"text": await self._map_reduce(model, documents)}
        return {"output_text": await self._refine(model, documents)}

    async def _map_reduce(self, model: ChatModel, documents: list[Document]) -> str:
        texts = [d.page_content for d in documents]
        for _ in range(MAX_ITERATIONS):
            if count_tokens(format_fstring(self.prompt, {"text": "\n\n".join(texts)})) < MAX_TOKENS:
                break
            texts = list(await asyncio.gather(*(_call(model, self.map_prompt, {"text": t}) for t in texts)))
        return await _call(model, self.prompt, {"text": "\n\n".join(texts)})

    async def _refine(self, model: ChatModel, documents: list[Document]) -> str:
        if not documents:
            raise SummaryChainError("Cannot read properties of undefined (reading 'pageContent')")
        answer = await _call(model, self.question_prompt, {"text": documents[0].page_content})
        for document in documents[1:]:
            answer = await _call(model, self.refine_prompt, {"existing_answer": answer, "text": document.page_content})
        return answer


def count_tokens(text: str) -> int:
    """LangChain's ``getNumTokens`` without its tokenizer: the length in UTF-16 units over 4, rounded up."""
    return math.ceil(len(utf16_view(text)) / 4)


async def _stuff(model: ChatModel, prompt: str, documents: list[Document]) -> str:
    return await _call(model, prompt, {"text": "\n\n".join(d.page_content for d in documents)})


async def _call(model: ChatModel, template: str, values: Mapping[str, Any]) -> str:
    """An ``LLMChain`` call: the filled template as the user message, the answer's text."""
    response = await model.generate([HumanMessage(content=format_fstring(template, values))], [])
    return response.message.content


__all__ = [
    "DEFAULT_PROMPT",
    "INVALID_PROMPT_INPUT",
    "MAX_TOKENS",
    "METHODS",
    "REFINE_PROMPT",
    "SummaryChain",
    "SummaryChainError",
    "count_tokens",
]
