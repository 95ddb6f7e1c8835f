"""A document: text with metadata, as LangChain's ``Document`` (``pageContent``, ``metadata``, optional ``id``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(kw_only=True)
class Document:
    """A piece of text the loaders make, the splitters cut and the vector stores keep."""

    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As n8n shows a LangChain ``Document`` in run data and tool answers (``id`` only when set)."""
        data: dict[str, Any] = {"pageContent": self.page_content, "metadata": self.metadata}
        if self.id is not None:
            data["id"] = self.id
        return data


def documents_json(documents: list[Document]) -> list[dict[str, Any]]:
    return [document.to_json() for document in documents]


__all__ = ["Document", "documents_json"]
