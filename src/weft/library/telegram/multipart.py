"""The multipart form n8n's request library sends for an uploaded file (``formData``): each body field as text
(``reply_markup`` as JSON), then the file with its name and type."""

from __future__ import annotations

import json
import secrets
from typing import Any

from weft.nodes.values import js_string


def upload_body(body: dict[str, Any], field: str, filename: str, mime_type: str, data: bytes) -> tuple[bytes, str]:
    """The encoded form and its ``Content-Type`` (with the boundary)."""
    boundary = f"--------------------------{secrets.token_hex(12)}"
    parts: list[bytes] = []
    for name, value in body.items():
        if name == field:
            continue
        text = json.dumps(value, separators=(",", ":")) if name == "reply_markup" else _text(value)
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(head.encode() + text.encode() + b"\r\n")
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{_quoted(filename)}"\r\n'
        f"Content-Type: {mime_type or 'application/octet-stream'}\r\n\r\n"
    )
    parts.append(head.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _text(value: Any) -> str:
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return js_string(value)


def _quoted(name: str) -> str:
    return name.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
