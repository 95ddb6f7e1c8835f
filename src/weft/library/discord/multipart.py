"""The multipart form n8n's ``form-data`` writes for Discord: ``payload_json`` (JSON) and the files."""

from __future__ import annotations

import secrets

Part = tuple[str, str | None, str | None, bytes]


def multipart_fields(parts: list[Part]) -> tuple[bytes, str]:
    """``(name, filename, content type, bytes)`` parts encoded; the body and its ``Content-Type``."""
    boundary = f"--------------------------{secrets.token_hex(12)}"
    chunks = []
    for name, filename, content_type, data in parts:
        disposition = f'form-data; name="{name}"'
        if filename is not None:
            safe = filename.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
            disposition += f'; filename="{safe}"'
        head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
        if content_type:
            head += f"Content-Type: {content_type}\r\n"
        chunks.append(head.encode() + b"\r\n" + data + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"
