"""LangChain's ``JSONLoader`` and ``TextLoader`` as n8n uses them: every string of a JSON value (or those under
JSON pointers) becomes a document; a plain text is one document.

The metadata is ``{source: "blob", blobType: <mime type>}``, with ``line`` (1-based) when a value yields more than
one string. The pointer rules are LangChain's own, quirks included: with no pointer given n8n still passes ``""``
(the root), so strings nested in objects and arrays are collected once more for each level they are below.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from weft.ai.retrieval._js_text import js_includes, js_trim, js_truthy, js_values
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import DocumentLoadError

_MISSING = object()


def blob_metadata(mime_type: str) -> dict[str, Any]:
    """What LangChain's loaders record of a ``Blob`` (its type is lower-cased, as the Blob constructor does)."""
    blob_type = mime_type.lower() if all(0x20 <= ord(c) <= 0x7E for c in mime_type) else ""
    return {"source": "blob", "blobType": blob_type}


def text_documents(texts: Sequence[str], mime_type: str) -> list[Document]:
    """``TextLoader.load``: a document per parsed text; ``line`` numbers them when there is more than one."""
    metadata = blob_metadata(mime_type)
    if len(texts) == 1:
        return [Document(page_content=texts[0], metadata=metadata)]
    return [Document(page_content=text, metadata={**metadata, "line": i + 1}) for i, text in enumerate(texts)]


def parse_pointers(pointers: str) -> list[list[str]]:
    """n8n's ``pointers.split(',').map(trim)``, each compiled as the ``jsonpointer`` package does."""
    compiled: list[list[str]] = []
    for pointer in (p.strip() for p in pointers.split(",")):
        parts = pointer.split("/")
        if parts[0] != "":
            raise DocumentLoadError(
                "Invalid JSON pointer.",
                description=f"The JSON pointer {pointer!r} must start with '/', e.g. '/text' or '/meta/title'.",
            )
        compiled.append([p.replace("~1", "/").replace("~0", "~") for p in parts[1:]])
    return compiled


def _pointer_get(value: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(value, list):
            value = value[int(part)] if part.isdigit() and int(part) < len(value) else _MISSING
        elif isinstance(value, dict):
            value = value.get(part, _MISSING)
        else:
            return _MISSING
        if value is _MISSING or value is None:
            return _MISSING
    return value


def extract_strings(value: Any, pointers: list[list[str]], extract_all: bool = False, found: bool = False) -> list[str]:
    """LangChain's ``extractArrayStringsFromObject``."""
    if not js_truthy(value):
        return []
    if isinstance(value, str):
        return [value] if extract_all else []
    if isinstance(value, list) and extract_all:
        return [s for element in value for s in extract_strings(element, pointers, True)]
    if not isinstance(value, dict | list):
        return []
    if extract_all:
        return extract_strings(js_values(value) if isinstance(value, dict) else list(value), pointers, True)
    entries = js_values(value) if isinstance(value, dict) else list(value)
    targeted = [t for t in (_pointer_get(value, p) for p in pointers) if t is not _MISSING and js_truthy(t)]
    others = [e for e in entries if not js_includes(targeted, e)]
    out: list[str] = []
    if targeted:
        for entry in targeted:
            out.extend(extract_strings(entry, pointers, True, True))
        for entry in others:
            out.extend(extract_strings(entry, pointers, False, True))
    elif not found:
        for entry in others:
            out.extend(extract_strings(entry, pointers, False))
    return out


def json_documents(raw: str, pointers: list[list[str]], mime_type: str = "application/json") -> list[Document]:
    """``JSONLoader.load`` on ``raw`` JSON text."""
    try:
        value = json.loads(js_trim(raw))
    except ValueError as error:
        raise DocumentLoadError(
            f"The data is not valid JSON: {error}", description="Check the file or choose another Data Format."
        ) from error
    return text_documents(extract_strings(value, pointers, not pointers), mime_type)


__all__ = ["blob_metadata", "extract_strings", "json_documents", "parse_pointers", "text_documents"]
