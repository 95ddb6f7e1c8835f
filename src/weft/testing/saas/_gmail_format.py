"""A message of the fake Gmail API (:mod:`weft.testing.saas.gmail`) in the format the request asks for: ``raw``,
``metadata`` (only the ``metadataHeaders`` given), ``full`` (the MIME tree as parts) or ``minimal``."""

from __future__ import annotations

import base64
import hashlib
from email.message import EmailMessage
from typing import Any

from weft.testing.fake_api import ApiRequest
from weft.testing.saas._gmail_data import Message


def formatted_message(message: Message, request: ApiRequest, labels: list[str] | None = None) -> dict[str, Any]:
    form = request.query.get("format") or "full"
    wanted = [v for k, v in request.query_pairs if k == "metadataHeaders"]
    out: dict[str, Any] = {"id": message.id, "threadId": message.thread_id}
    out["labelIds"] = list(labels if labels is not None else message.labels)
    out["snippet"] = message.snippet
    if form == "metadata":
        headers = [h for h in _headers(message) if not wanted or h["name"].lower() in {w.lower() for w in wanted}]
        out["payload"] = {"mimeType": message.parsed().get_content_type(), "headers": headers}
    elif form == "full":
        out["payload"] = _part(message.parsed(), "")
    out["sizeEstimate"] = len(message.raw)
    if form == "raw":
        out["raw"] = base64.urlsafe_b64encode(message.raw).decode()
    out["historyId"] = message.history_id
    out["internalDate"] = message.internal_date
    return out


def _headers(message: Message) -> list[dict[str, str]]:
    return [{"name": name, "value": str(value)} for name, value in message.parsed().raw_items()]


def _part(part: EmailMessage, part_id: str) -> dict[str, Any]:
    out: dict[str, Any] = {"partId": part_id, "mimeType": part.get_content_type()}
    out["filename"] = part.get_filename() or ""
    out["headers"] = [{"name": n, "value": str(v)} for n, v in part.raw_items()]
    if part.is_multipart():
        out["body"] = {"size": 0}
        children = list(part.iter_parts())
        prefix = f"{part_id}." if part_id else ""
        out["parts"] = [_part(child, f"{prefix}{i}") for i, child in enumerate(children)]  # type: ignore[arg-type]
        return out
    data = part.get_payload(decode=True) or b""
    assert isinstance(data, bytes)
    if out["filename"]:
        out["body"] = {"attachmentId": f"ANGjdJ{hashlib.sha1(data).hexdigest()[:20]}", "size": len(data)}
    else:
        out["body"] = {"size": len(data), "data": base64.urlsafe_b64encode(data).decode()}
    return out


__all__ = ["formatted_message"]
