"""Text splitters with LangChain's exact behaviour (``@langchain/textsplitters`` 1.0, as n8n runs them).

Lengths and positions are JavaScript's (UTF-16 code units, see :mod:`._js_text`). :func:`split_documents` cuts
documents with any :class:`SplitsText` (a splitter, or a traced one that records each cut as a run of its node)
and numbers each chunk's lines as LangChain does (``metadata.loc.lines``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from weft.ai.retrieval._js_text import from_utf16_view, js_trim, utf16_view
from weft.ai.retrieval.code_separators import SEPARATORS
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import TextSplitterError


@runtime_checkable
class SplitsText(Protocol):
    """Anything that cuts a text into chunks."""

    async def split_text(self, text: str) -> list[str]: ...


class TextSplitter:
    """LangChain's ``TextSplitter``: merging splits into chunks of ``chunk_size`` that overlap by ``chunk_overlap``."""

    def __init__(self, *, chunk_size: int = 1000, chunk_overlap: int = 200, keep_separator: bool = False) -> None:
        if chunk_overlap >= chunk_size:
            raise TextSplitterError(
                "Cannot have chunkOverlap >= chunkSize",
                description=f"The chunk overlap ({chunk_overlap}) must be smaller than the chunk size ({chunk_size}).",
            )
        self.chunk_size = chunk_size
        self.chunk_overlap = chunk_overlap
        self.keep_separator = keep_separator

    async def split_text(self, text: str) -> list[str]:
        view = utf16_view(text)
        return [from_utf16_view(chunk) for chunk in self.split_view(view)]

    def split_view(self, text: str) -> list[str]:
        """Chunks of ``text`` (a UTF-16 view)."""
        raise NotImplementedError

    def split_on_separator(self, text: str, separator: str) -> list[str]:
        if not separator:
            splits = list(text)
        elif self.keep_separator:
            splits = re.split(f"(?={re.escape(separator)})", text)
        else:
            splits = text.split(separator)
        return [s for s in splits if s != ""]

    def merge_splits(self, splits: Sequence[str], separator: str) -> list[str]:
        docs: list[str] = []
        current: list[str] = []
        total = 0
        for split in splits:
            length = len(split)
            if total + length + len(current) * len(separator) > self.chunk_size:
                if current:
                    joined = _join(current, separator)
                    if joined is not None:
                        docs.append(joined)
                    while total > self.chunk_overlap or (
                        total + length + len(current) * len(separator) > self.chunk_size and total > 0
                    ):
                        total -= len(current.pop(0))
            current.append(split)
            total += length
        joined = _join(current, separator)
        if joined is not None:
            docs.append(joined)
        return docs


def _join(parts: list[str], separator: str) -> str | None:
    text = js_trim(separator.join(parts))
    return None if text == "" else text


class CharacterTextSplitter(TextSplitter):
    """Splits on one separator (``\\n\\n`` by default; ``""`` splits between characters), then merges."""

    def __init__(self, *, separator: str = "\n\n", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.separator = separator

    def split_view(self, text: str) -> list[str]:
        separator = utf16_view(self.separator)
        splits = self.split_on_separator(text, separator)
        return self.merge_splits(splits, "" if self.keep_separator else separator)


class RecursiveCharacterTextSplitter(TextSplitter):
    """Tries the separators in order, splitting pieces still too long with the next ones (``keep_separator``
    defaults to true, as LangChain's)."""

    def __init__(
        self, *, separators: Sequence[str] = ("\n\n", "\n", " ", ""), keep_separator: bool = True, **kwargs: Any
    ) -> None:
        super().__init__(keep_separator=keep_separator, **kwargs)
        self.separators = tuple(separators)

    @classmethod
    def for_language(cls, language: str, **kwargs: Any) -> RecursiveCharacterTextSplitter:
        """LangChain's ``fromLanguage``: the language's separators (:data:`SEPARATORS`)."""
        return cls(**{**kwargs, "separators": SEPARATORS[language]})

    def split_view(self, text: str) -> list[str]:
        return self._split(text, [utf16_view(s) for s in self.separators])

    def _split(self, text: str, separators: list[str]) -> list[str]:
        final: list[str] = []
        separator = separators[-1]
        rest: list[str] | None = None
        for index, candidate in enumerate(separators):
            if candidate == "":
                separator = candidate
                break
            if candidate in text:
                separator, rest = candidate, separators[index + 1 :]
                break
        good: list[str] = []
        joiner = "" if self.keep_separator else separator
        for split in self.split_on_separator(text, separator):
            if len(split) < self.chunk_size:
                good.append(split)
                continue
            if good:
                final.extend(self.merge_splits(good, joiner))
                good = []
            final.extend(self._split(split, rest) if rest is not None else [split])
        if good:
            final.extend(self.merge_splits(good, joiner))
        return final


async def split_documents(splitter: SplitsText, documents: Sequence[Document]) -> list[Document]:
    """LangChain's ``splitDocuments``: each document's chunks, its metadata with ``loc.lines`` added."""
    out: list[Document] = []
    for document in documents:
        text = document.page_content
        chunks = await splitter.split_text(text)
        out.extend(_numbered(utf16_view(text), [utf16_view(c) for c in chunks], document.metadata))
    return out


def _numbered(text: str, chunks: list[str], metadata: dict[str, Any]) -> list[Document]:
    """The chunks as documents, numbered by line as LangChain's ``createDocuments`` does (UTF-16 views in)."""
    out: list[Document] = []
    line = 1
    previous: str | None = None
    previous_index = -1
    for chunk in chunks:
        index = text.find(chunk, previous_index + 1)
        if previous is None:
            line += _newlines(_js_slice(text, 0, index))
        else:
            previous_end = previous_index + len(previous)
            if previous_end < index:
                line += _newlines(_js_slice(text, previous_end, index))
            elif previous_end > index:
                line -= _newlines(_js_slice(text, index, previous_end))
        count = _newlines(chunk)
        loc = dict(metadata["loc"]) if isinstance(metadata.get("loc"), dict) else {}
        loc["lines"] = {"from": line, "to": line + count}
        out.append(Document(page_content=from_utf16_view(chunk), metadata={**metadata, "loc": loc}))
        line += count
        previous, previous_index = chunk, index
    return out


def _newlines(text: str) -> int:
    return text.count("\n")


def _js_end(end: int, length: int) -> int:
    return max(length + end, 0) if end < 0 else min(end, length)


def _js_slice(text: str, start: int, end: int) -> str:
    """``String.prototype.slice`` (negative positions count from the end)."""
    return text[_js_end(start, len(text)) : _js_end(end, len(text))]


__all__ = [
    "CharacterTextSplitter",
    "RecursiveCharacterTextSplitter",
    "SplitsText",
    "TextSplitter",
    "split_documents",
]
