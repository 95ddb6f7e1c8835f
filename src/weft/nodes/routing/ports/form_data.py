"""A multipart body as the ``form-data`` package writes it (the body some description functions send)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    name: str
    data: bytes
    content_type: str | None = None
    filename: str | None = None


def new_boundary() -> str:
    """``form-data``'s boundary: 26 dashes and 24 random digits."""
    return "-" * 26 + "".join(secrets.choice("0123456789") for _ in range(24))


def encode(parts: list[Part], boundary: str) -> bytes:
    """The body: each part with its ``Content-Disposition`` (and ``Content-Type``), then the closing line."""
    out = bytearray()
    for part in parts:
        disposition = f'form-data; name="{part.name}"'
        if part.filename is not None:
            disposition += f'; filename="{part.filename}"'
        head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
        if part.content_type:
            head += f"Content-Type: {part.content_type}\r\n"
        out += head.encode() + b"\r\n" + part.data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out)


__all__ = ["Part", "encode", "new_boundary"]
