"""A mail's resolved form (n8n's ``parseRawEmail``: mailparser's ``simpleParser`` on the ``raw`` message):
``id``, ``threadId``, ``labelIds``, ``sizeEstimate``, ``headers`` (lower-case name → the whole header line),
``text``, ``textAsHtml``, ``html`` (``false`` when none), ``subject``, ``date`` (ISO), the address headers as
``{value: [{address, name}], html, text}``, ``messageId``, ``inReplyTo``, ``references``; attachments become binary
properties ``<prefix><n>`` when ``options.downloadAttachments`` is on.

The text of an HTML-only mail is a plain rendering (block elements on their own lines, entities decoded), simpler
than mailparser's ``html-to-text``.
"""

from __future__ import annotations

import base64
import html as html_lib
import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from typing import Any

from weft.library.google.gmail._api import Params
from weft.nodes.contract import ExecuteContext

_ADDRESS_HEADERS = ("to", "from", "cc", "bcc", "reply-to")
_URL = re.compile(r"(?:https?://|www\.)[^\s<>\"']+[^\s<>\"'.,;:!?)]", re.IGNORECASE)


async def parsed_email(ctx: ExecuteContext, params: Params, data: dict[str, Any], prefix: str) -> dict[str, Any]:
    raw = str(data.get("raw") or "")
    source = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    message = message_from_bytes(source, policy=policy.compat32)
    json: dict[str, Any] = {key: data.get(key) for key in ("id", "threadId", "labelIds", "sizeEstimate")}
    json["headers"] = {name.lower(): f"{name}: {value}" for name, value in message.items()}
    texts, htmls, files = _contents(message)
    if texts:
        json["text"] = "\n".join(texts)
        json["textAsHtml"] = "<br/>\n".join(text_to_html(t) for t in texts)
    json.update(_header_fields(message))
    json["html"] = "<br/>\n".join(htmls) if htmls else False
    item: dict[str, Any] = {"json": {k: v for k, v in json.items() if v is not None or k in ("id", "threadId")}}
    if files and params.get("options.downloadAttachments", 0, False):
        binary = {}
        for number, (name, mime, content) in enumerate(files):
            binary[f"{prefix}{number}"] = await ctx.prepare_binary_data(content, name, mime)
        item["binary"] = binary
    return item


def _header_fields(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {}
    subject = message.get("Subject")
    if subject is not None:
        out["subject"] = _decoded(subject)
    references = message.get("References")
    if references is not None:
        ids = [_message_id(v) for v in _decoded(references).split()]
        out["references"] = ids[0] if len(ids) == 1 else ids
    date = message.get("Date")
    if date is not None:
        out["date"] = _iso(str(date))
    for name in _ADDRESS_HEADERS:
        value = message.get(name)
        if value is not None:
            key = "replyTo" if name == "reply-to" else name
            out[key] = addresses(_decoded(value))
    for name, key in (("Message-ID", "messageId"), ("In-Reply-To", "inReplyTo")):
        if message.get(name) is not None:
            out[key] = _message_id(_decoded(message[name]))
    return out


def _decoded(value: Any) -> str:
    from email.header import decode_header, make_header

    try:
        return str(make_header(decode_header(str(value)))).strip()
    except (ValueError, LookupError):
        return str(value).strip()


def _message_id(value: str) -> str:
    value = value.strip()
    return value if value.startswith("<") and value.endswith(">") else f"<{value}>"


def _iso(value: str) -> str:
    try:
        parsed = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        parsed = datetime.now(UTC)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def addresses(value: str) -> dict[str, Any]:
    """mailparser's address object: ``value`` (``address``, ``name``), ``html`` and ``text``."""
    found = [{"address": address, "name": name} for name, address in getaddresses([value]) if address or name]
    html_parts, text_parts = [], []
    for entry in found:
        name, address = html_lib.escape(entry["name"], quote=False), html_lib.escape(entry["address"], quote=True)
        link = f'<a href="mailto:{address}" class="mp_address_email">{address}</a>'
        inner = f'<span class="mp_address_name">{name}</span> &lt;{link}&gt;' if entry["name"] else link
        html_parts.append(f'<span class="mp_address_group">{inner}</span>')
        text_parts.append(f'"{entry["name"]}" <{entry["address"]}>' if entry["name"] else entry["address"])
    return {"value": found, "html": ", ".join(html_parts), "text": ", ".join(text_parts)}


def _contents(message: Message) -> tuple[list[str], list[str], list[tuple[str, str, bytes]]]:
    """mailparser's ``getTextContent``: the text parts, the HTML parts, and the attachments."""
    texts: list[str] = []
    htmls: list[str] = []
    files: list[tuple[str, str, bytes]] = []
    parts = [p for p in message.walk() if not p.is_multipart()]
    has_text = any(_kind(p) == "text/plain" for p in parts)
    has_html = any(_kind(p) == "text/html" for p in parts)

    def visit(part: Message, alternative: bool) -> None:
        if part.is_multipart():
            inner = alternative or part.get_content_type() == "multipart/alternative"
            for child in part.get_payload():  # type: ignore[union-attr]
                if isinstance(child, Message):
                    visit(child, inner)
            return
        kind = _kind(part)
        if kind == "attachment":
            content = part.get_payload(decode=True) or b""
            files.append((part.get_filename() or "", part.get_content_type(), content))  # type: ignore[arg-type]
            return
        text = _text(part)
        if kind == "text/plain":
            texts.append(text)
            if not alternative and has_html:
                htmls.append(text_to_html(text))
        elif (not alternative and has_text) or (part is message and not has_text):
            texts.append(html_to_text(text))
            htmls.append(text)
        else:
            htmls.append(text)

    visit(message, False)
    return texts, htmls, files


def _kind(part: Message) -> str:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    content_type = part.get_content_type()
    if disposition == "attachment" or content_type not in ("text/plain", "text/html"):
        return "attachment"
    return content_type


def _text(part: Message) -> str:
    data = part.get_payload(decode=True) or b""
    assert isinstance(data, bytes)
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset, "replace")
    except LookupError:
        text = data.decode("utf-8", "replace")
    return text.replace("\r\n", "\n")


def text_to_html(text: str) -> str:
    """mailparser's ``textToHtml``: escaped, links made anchors, blank lines as paragraphs, lines as ``<br/>``."""
    pieces, last = [], 0
    for match in _URL.finditer(text):
        pieces.append(_encode(text[last : match.start()]))
        url = match.group(0)
        href = url if "://" in url else f"http://{url}"
        pieces.append(f'<a href="{href.replace(chr(34), "&quot;")}">{_encode(url)}</a>')
        last = match.end()
    pieces.append(_encode(text[last:]))
    encoded = "".join(pieces).replace("\r\n", "\n").strip()
    encoded = re.sub(r"[ \t]+$", "", encoded, flags=re.MULTILINE).strip()
    encoded = re.sub(r"\n\n+", "</p><p>", encoded).strip()
    return "<p>" + encoded.replace("\n", "<br/>") + "</p>"


def _encode(text: str) -> str:
    """``he.encode`` with named references, for the characters mails usually hold."""
    return "".join(_NAMED.get(c, c if ord(c) < 128 else f"&#x{ord(c):X};") for c in text)


_NAMED = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "`": "&grave;", "\u00a0": "&nbsp;"}
_BLOCK = re.compile(r"<\s*(br|/p|p|/div|div|/h[1-6]|h[1-6]|li|/li|tr|/tr)\b[^>]*>", re.IGNORECASE)


def html_to_text(html: str) -> str:
    """A plain rendering of HTML: block elements as line breaks, tags dropped, entities decoded."""
    text = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.IGNORECASE | re.DOTALL)
    text = re.sub(r"\s+", " ", text)
    text = _BLOCK.sub("\n", text)
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", text))
    lines = [line.strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


__all__ = ["addresses", "html_to_text", "parsed_email", "text_to_html"]
