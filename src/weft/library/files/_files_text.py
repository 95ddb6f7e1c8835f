"""Text to and from bytes with ``iconv-lite``'s encoding names and BOM rules (as n8n's file nodes use it).

Names are matched as iconv-lite matches them (case and punctuation ignored: ``UTF-8`` is ``utf8``), then mapped to
Python's codecs (``win1252``/``windows1252`` → ``cp1252``, ``ucs2``/``utf16le`` → ``utf-16-le``, ``binary`` →
``latin-1``, ``base64``/``hex`` as Node's Buffer encodings). Bytes that do not decode become U+FFFD and characters
that do not encode become ``?``, as in iconv-lite. Decoding strips a leading BOM unless ``strip_bom`` is ``False``;
encoding prepends one when ``add_bom`` (the ``utf16`` and ``utf32`` codecs write one by default, as iconv-lite's).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re

#: iconv-lite's codecs that know a byte order mark.
_BOM_AWARE = frozenset({"utf8", "cesu8", "ucs2", "utf16le", "utf16be", "utf16", "utf32le", "utf32be", "utf32"})
_ALIASES = {
    "utf8": "utf-8",
    "unicode11utf8": "utf-8",
    "cesu8": "utf-8",
    "ucs2": "utf-16-le",
    "utf16le": "utf-16-le",
    "utf16be": "utf-16-be",
    "utf32le": "utf-32-le",
    "utf32be": "utf-32-be",
    "binary": "latin-1",
    "latin1": "latin-1",
    "ascii": "ascii",
}
_PATTERNS = (
    (re.compile(r"^(?:win|windows|cp)(\d+)$"), r"cp\1"),
    (re.compile(r"^iso8859(\d+)$"), r"iso8859_\1"),
    (re.compile(r"^koi8([a-z])$"), r"koi8_\1"),
    (re.compile(r"^mac([a-z]+)$"), r"mac_\1"),
)


def _canonical(encoding: str) -> str:
    return re.sub(r"[^0-9a-z]", "", encoding.lower())


def python_codec(encoding: str) -> str:
    """The Python codec of an iconv-lite encoding name; a :class:`LookupError` with iconv-lite's message."""
    name = _canonical(encoding)
    if name in _ALIASES or name in ("utf16", "utf32", "base64", "hex"):
        return _ALIASES.get(name, name)
    for pattern, replacement in _PATTERNS:
        if pattern.match(name):
            candidate = pattern.sub(replacement, name)
            try:
                return codecs.lookup(candidate).name
            except LookupError:
                break
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise LookupError(f"Encoding not recognized: '{encoding}' (searched as: '{name}')") from None


def decode_text(data: bytes, encoding: str, *, strip_bom: bool | None = None) -> str:
    """``iconv.decode(data, encoding, {stripBOM})``."""
    name, codec = _canonical(encoding), python_codec(encoding)
    if codec == "base64":
        return base64.b64encode(data).decode("ascii")
    if codec == "hex":
        return data.hex()
    if name == "utf16":
        codec = "utf-16-be" if data[:2] == b"\xfe\xff" else "utf-16-le"
    elif name == "utf32":
        codec = "utf-32-be" if data[:4] == b"\x00\x00\xfe\xff" else "utf-32-le"
    text = data.decode(codec, errors="replace")
    if name in _BOM_AWARE and strip_bom is not False and text.startswith("\ufeff"):
        text = text[1:]
    return text


def encode_text(text: str, encoding: str, *, add_bom: bool | None = None) -> bytes:
    """``iconv.encode(text, encoding, {addBOM})``."""
    name, codec = _canonical(encoding), python_codec(encoding)
    if codec == "base64":
        return decode_base64(text)
    if codec == "hex":
        digits = re.match(r"[0-9a-fA-F]*", text)
        usable = digits.group(0) if digits else ""
        return binascii.unhexlify(usable[: len(usable) // 2 * 2])
    if name in ("utf16", "utf32"):
        codec = "utf-16-le" if name == "utf16" else "utf-32-le"
        add_bom = add_bom is not False
    if add_bom and name in _BOM_AWARE:
        text = "\ufeff" + text
    return text.encode(codec, errors="replace")


def decode_base64(text: str) -> bytes:
    """Node's ``Buffer.from(text, 'base64')``: lenient (URL-safe letters, no padding, other characters skipped)."""
    cleaned = re.sub(r"[^A-Za-z0-9+/]", "", text.replace("-", "+").replace("_", "/").split("=", 1)[0])
    cleaned = cleaned[: len(cleaned) - (len(cleaned) % 4 == 1)]
    return base64.b64decode(cleaned + "=" * (-len(cleaned) % 4))


__all__ = ["decode_base64", "decode_text", "encode_text", "python_codec"]
