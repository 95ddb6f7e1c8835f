"""The Default Data Loader's document sources: n8n's ``N8nJsonLoader`` and ``N8nBinaryLoader``.

A source turns one input item into documents (``process_item``): its JSON (every string, or the strings under
the JSON pointers), a value of the node's "Data" expression, or its files by mime type (:mod:`.file_loaders`);
then the text splitter cuts them and the "Metadata" option is added to each. :class:`TracedDocumentSource`
records each item as a run of the loader node (``ai_document``).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from weft.ai.retrieval.connections import AI_DOCUMENT
from weft.ai.retrieval.documents import Document, documents_json
from weft.ai.retrieval.errors import DocumentLoadError
from weft.ai.retrieval.file_loaders import decode_text, load_file
from weft.ai.retrieval.json_loader import extract_strings, parse_pointers, text_documents
from weft.ai.retrieval.splitters import SplitsText, split_documents
from weft.ai.retrieval.traced import logged, response_item
from weft.nodes.contract import NodeContext, SupplyDataContext
from weft.workflow import Item

#: Mime types each "Data Format" accepts (n8n's ``SUPPORTED_MIME_TYPES``).
SUPPORTED_MIME_TYPES: dict[str, tuple[str, ...]] = {
    "auto": ("*/*",),
    "pdfLoader": ("application/pdf",),
    "csvLoader": ("text/csv",),
    "epubLoader": ("application/epub+zip",),
    "docxLoader": ("application/vnd.openxmlformats-officedocument.wordprocessingml.document",),
    "textLoader": ("text/plain", "text/mdx", "text/md", "text/markdown"),
    "jsonLoader": ("application/json",),
}


@runtime_checkable
class DocumentSource(Protocol):
    """One input item in, its documents out."""

    async def process_item(self, item: Item, item_index: int) -> list[Document]: ...


def metadata_values(ctx: NodeContext, item_index: int) -> dict[str, Any] | None:
    """n8n's ``getMetadataFiltersValues``: the "Metadata" option as ``{name: value}`` (``None`` when empty)."""
    options = ctx.get_node_parameter("options", item_index, {})
    metadata = options.get("metadata") if isinstance(options, Mapping) else None
    values = metadata.get("metadataValues") if isinstance(metadata, Mapping) else None
    if isinstance(values, list) and values:
        return {str(v.get("name")): v.get("value") for v in values if isinstance(v, Mapping)}
    return None


async def _finish(docs: list[Document], splitter: SplitsText | None, metadata: dict[str, Any] | None) -> list[Document]:
    if splitter is not None:
        docs = await split_documents(splitter, docs)
    if metadata:
        for doc in docs:
            doc.metadata = {**doc.metadata, **metadata}
    return docs


class JsonItemLoader:
    """n8n's ``N8nJsonLoader`` (the loader's "JSON" type of data)."""

    def __init__(self, ctx: NodeContext, splitter: SplitsText | None) -> None:
        self._ctx = ctx
        self._splitter = splitter

    async def process_item(self, item: Item, item_index: int) -> list[Document]:
        ctx = self._ctx
        mode = ctx.get_node_parameter("jsonMode", item_index, "allInputData")
        pointers = parse_pointers(str(ctx.get_node_parameter("options.pointers", item_index, "")))
        metadata = metadata_values(ctx, item_index)
        if not item:
            return []
        docs: list[Document] | None = None
        if mode == "allInputData":
            docs = text_documents(extract_strings(item["json"], pointers), "application/json")
        elif mode == "expressionData":
            data = ctx.get_node_parameter("jsonData", item_index)
            if data is None or isinstance(data, dict | list):
                docs = text_documents(extract_strings(data, pointers), "application/json")
            elif isinstance(data, str):
                docs = text_documents([decode_text(data.encode("utf-8", "replace"))], "text/plain")
        if docs is None:
            raise DocumentLoadError(
                "Document loader is not initialized",
                description="The 'Data' parameter must give a text or a JSON object; check its expression.",
            )
        return await _finish(docs, self._splitter, metadata)


class BinaryItemLoader:
    """n8n's ``N8nBinaryLoader`` (the loader's "Binary" type of data): "Load All Input Data" reads every file of
    the item, "Load Specific Data" the one under "Input Data Field Name"."""

    def __init__(self, ctx: NodeContext, binary_key: str, splitter: SplitsText | None) -> None:
        self._ctx = ctx
        self._key = binary_key
        self._splitter = splitter

    async def process_item(self, item: Item, item_index: int) -> list[Document]:
        mode = self._ctx.get_node_parameter("binaryMode", item_index, "allInputData")
        if mode != "allInputData":
            return await self._by_key(item, item_index, self._key)
        docs: list[Document] = []
        for key in item.get("binary") or {}:
            docs.extend(await self._by_key(item, item_index, key))
        return docs

    async def _by_key(self, item: Item, item_index: int, key: str) -> list[Document]:
        ctx = self._ctx
        loader = str(ctx.get_node_parameter("loader", item_index, "auto"))
        metadata = metadata_values(ctx, item_index)
        if not item:
            return []
        binary = ctx.assert_binary_data(item_index, key)
        mime = str(binary.get("mimeType") or "")
        check_mime_type(mime, loader)
        data = await ctx.binary_bytes(binary)
        docs = await load_file(data, mime, self._file_options(mime, item_index))
        return await _finish(docs, self._splitter, metadata)

    def _file_options(self, mime: str, item_index: int) -> dict[str, Any]:
        ctx = self._ctx
        if mime == "application/pdf":
            return {"splitPages": ctx.get_node_parameter("options.splitPages", item_index, False)}
        if mime == "text/csv":
            column = ctx.get_node_parameter("options.column", item_index, None)
            return {"column": column, "separator": ctx.get_node_parameter("options.separator", item_index, ",")}
        if mime == "application/json":
            return {"pointers": ctx.get_node_parameter("options.pointers", item_index, "")}
        return {}


def check_mime_type(mime: str, loader: str) -> None:
    """n8n's ``validateMimeType``, its messages word for word."""
    accepted = SUPPORTED_MIME_TYPES.get(loader, ())
    if loader != "auto" and mime not in accepted:
        needed = next((name for name, types in SUPPORTED_MIME_TYPES.items() if mime in types), None)
        raise DocumentLoadError(
            f'Mime type doesn\'t match selected loader. Please select under "Loader Type": {needed}'
            if needed is not None
            else 'Mime type doesn\'t match selected loader. Please select under "Loader Type": undefined'
        )
    if not any(mime in types for types in SUPPORTED_MIME_TYPES.values()):
        raise DocumentLoadError(f"Unsupported mime type: {mime}")


class TracedDocumentSource:
    """A :class:`DocumentSource` whose items are runs of the loader node: the item in, ``{response: [documents]}``
    out, paired with the item."""

    def __init__(self, inner: DocumentSource, ctx: SupplyDataContext) -> None:
        self.inner = inner
        self._ctx = ctx

    async def process_item(self, item: Item, item_index: int) -> list[Document]:
        return await logged(
            self._ctx,
            AI_DOCUMENT,
            [copy.copy(item)],
            lambda: self.inner.process_item(item, item_index),
            lambda docs: [response_item(documents_json(docs), item_index)],
        )


__all__ = [
    "SUPPORTED_MIME_TYPES",
    "BinaryItemLoader",
    "DocumentSource",
    "JsonItemLoader",
    "TracedDocumentSource",
    "check_mime_type",
    "metadata_values",
]
