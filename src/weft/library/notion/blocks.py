"""Blocks and rich text as n8n's Notion node writes them (``formatBlocks``, ``getTexts``), and its simplified
block output (``simplifyBlocksOutput``)."""

from __future__ import annotations

import re
from typing import Any


def text_content(content: Any) -> dict[str, Any]:
    return {"text": {"content": content}}


def format_title(content: Any) -> dict[str, Any]:
    """``formatTitle``."""
    return {"title": [text_content(content)]}


def _link(text: dict[str, Any]) -> dict[str, Any]:
    if text.get("isLink") and text.get("textLink", "") != "":
        return {"link": {"url": text.get("textLink")}}
    return {}


def rich_texts(texts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``getTexts``: the rich text entries (text, mention, equation) of a text collection."""
    results: list[dict[str, Any]] = []
    for text in texts:
        kind = text.get("textType", "text")
        annotations = text.get("annotationUi", {})
        if kind == "text":
            entry: dict[str, Any] = {"type": "text", "text": {"content": text.get("text", ""), **_link(text)}}
        elif kind == "mention":
            mention = text.get("mentionType")
            if mention == "date":
                value = ({"start": text.get("dateStart"), "end": text.get("dateEnd")} if text.get("range")
                         else {"start": text.get("date"), "end": None})  # fmt: skip
            else:
                value = {"id": text.get(str(mention))}
            entry = {"type": "mention", "mention": {"type": mention, str(mention): value}}
        elif kind == "equation":
            entry = {"type": "equation", "equation": {"expression": text.get("expression")}}
        else:
            continue
        if annotations is not None:
            entry["annotations"] = annotations
        results.append(entry)
    return results


def _text_blocks(block: dict[str, Any]) -> dict[str, Any]:
    if not block.get("richText", False):
        return {"text": [text_content(block.get("textContent", ""))]}
    return {"text": rich_texts((block.get("text") or {}).get("text") or [])}


def format_blocks(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``formatBlocks``: the node's block values as Notion block objects."""
    results = []
    for block in blocks:
        kind = block.get("type", "paragraph")
        content: dict[str, Any] = {}
        if kind == "to_do":
            content["checked"] = block.get("checked", False)
        if kind == "image":
            content.update({"type": "external", "external": {"url": block.get("url", "")}})
        else:
            content.update(_text_blocks(block))
        results.append({"object": "block", "type": kind, kind: content})
    return results


def extract_database_mentions(blocks: list[dict[str, Any]]) -> None:
    """``extractDatabaseMentionRLC``: a database mention's locator becomes its id."""
    for block in blocks:
        if not (block.get("richText") and block.get("text")):
            continue
        for text in (block["text"] or {}).get("text") or []:
            database = text.get("database")
            if (
                text.get("textType") == "mention"
                and text.get("mentionType") == "database"
                and isinstance(database, dict)
            ):
                if database.get("__rl"):
                    if database.get("__regex"):
                        match = re.search(str(database["__regex"]), str(database.get("value")))
                        text["database"] = match.group(1) if match else None
                    else:
                        text["database"] = database.get("value")


def simplify_blocks(blocks: list[dict[str, Any]], root_id: str) -> list[dict[str, Any]]:
    """``simplifyBlocksOutput``: the text of each block as ``content``, times and authors left out."""
    for block in blocks:
        kind = block.get("type")
        block["root_id"] = root_id
        for key in ("created_time", "last_edited_time", "created_by"):
            block.pop(key, None)
        inner = block.get(kind) if isinstance(kind, str) else None
        if kind in ("child_page", "child_database"):
            block["content"] = inner.get("title") if isinstance(inner, dict) else None
            block.pop(kind, None)
            continue
        text = inner.get("text") if isinstance(inner, dict) else None
        if isinstance(text, list):
            block["content"] = "".join(str(t.get("plain_text") or "") for t in text)
            block.pop(str(kind), None)
    return blocks
