"""Text encodings by iconv-lite's names (n8n's ``encodeDecodeOptions``), and Node.js's lenient base64 decoding.

iconv-lite's encoder replaces a character the charset lacks with ``?``; its decoder strips a leading byte order
mark from the Unicode encodings unless told not to, and prepends one on ``addBOM``. The charsets Python has no
codec for (``armscii8``, ``georgianacademy``, ``mik``, ``tcvn``, ``viscii``, ``utf7imap`` and a few IBM code pages)
are refused with an error naming the option, where n8n would use iconv-lite's own tables.
"""

from __future__ import annotations

import codecs
import re

from weft.errors import NodeOperationError

#: iconv-lite name → Python codec, for the names that differ.
_CODECS = {
    "utf8": "utf-8",
    "cesu8": "utf-8",
    "ucs2": "utf-16-le",
    "utf16le": "utf-16-le",
    "ucs-2": "utf-16-le",
    "utf-8": "utf-8",
    "utf16be": "utf-16-be",
    "utf16": "utf-16-le",
    "utf32": "utf-32-le",
    "utf32le": "utf-32-le",
    "utf32be": "utf-32-be",
    "utf7": "utf-7",
    "binary": "latin-1",
    "latin1": "latin-1",
    "iso88591": "latin-1",
    "ascii": "ascii",
    "cp936": "gbk",
    "shiftjis": "shift_jis",
    "eucjp": "euc_jp",
    "big5hkscs": "big5hkscs",
    "koi8r": "koi8_r",
    "koi8u": "koi8_u",
    "koi8t": "koi8_t",
    "koi8ru": "koi8_u",
    "maccyrillic": "mac_cyrillic",
    "macgreek": "mac_greek",
    "maciceland": "mac_iceland",
    "macroman": "mac_roman",
    "macintosh": "mac_roman",
    "macturkish": "mac_turkish",
    "maccenteuro": "mac_latin2",
    "pt154": "ptcp154",
    "rk1048": "kz1048",
    "tis620": "tis_620",
}
#: Encodings whose byte order mark iconv-lite strips on decoding and adds on ``addBOM``.
_BOM_AWARE = {"utf8", "utf-8", "cesu8", "ucs2", "ucs-2", "utf16le", "utf16", "utf16be", "utf32", "utf32le", "utf32be"}
#: The encodings for which n8n shows (and so passes on) the ``addBOM`` and ``stripBOM`` options.
BOM_ENCODINGS = ("utf8", "cesu8", "ucs2")
#: Encoders that always write a byte order mark (iconv-lite's ``utf16`` and ``utf32``).
_ALWAYS_BOM = {"utf16", "utf32"}


def python_codec(node_name: str, encoding: str) -> str:
    """The Python codec for an iconv-lite encoding name, or an error naming the option."""
    name = encoding.lower().replace("_", "")
    candidate = _CODECS.get(name)
    if candidate is None:
        match = re.fullmatch(r"(windows|cp|iso8859)-?(\d+)", name)
        if match:
            prefix = {"windows": "cp", "cp": "cp", "iso8859": "iso8859_"}[match.group(1)]
            candidate = prefix + match.group(2)
        else:
            candidate = name
    try:
        return codecs.lookup(candidate).name
    except LookupError:
        raise NodeOperationError(
            node_name,
            f"Encoding {encoding!r} is not supported",
            description="Weft has no codec for this character set; pick another 'Encoding' option (e.g. utf8).",
        ) from None


def encode_text(node_name: str, text: str, encoding: str | None, *, add_bom: bool = False) -> bytes:
    """iconv-lite ``encode(text, encoding, {addBOM})``."""
    name = (encoding or "utf8").lower()
    if name == "base64":
        return node_base64_decode(text)
    if name == "hex":
        return bytes.fromhex(re.match(r"(?:[0-9a-fA-F]{2})*", text).group(0))  # type: ignore[union-attr]
    if (add_bom and name in _BOM_AWARE) or name in _ALWAYS_BOM:
        text = "\ufeff" + text
    codec = python_codec(node_name, name)
    if codec == "ascii" or codec.startswith(("cp", "iso8859", "mac", "koi8", "tis", "kz", "ptcp")):
        return text.encode(codec, "replace")
    return text.encode(codec, "surrogatepass" if codec.startswith("utf") else "replace")


def decode_text(node_name: str, data: bytes, encoding: str, *, strip_bom: bool = True) -> str:
    """iconv-lite ``decode(data, encoding, {stripBOM})``."""
    name = encoding.lower()
    if name == "base64":
        import base64

        return base64.b64encode(data).decode("ascii")
    if name == "hex":
        return data.hex()
    if name == "utf16" and data[:2] == b"\xfe\xff":
        text = data.decode("utf-16-be", "replace")
    else:
        text = data.decode(python_codec(node_name, name), "replace")
    if strip_bom and name in _BOM_AWARE and text.startswith("\ufeff"):
        text = text[1:]
    return text


def detect_encoding(data: bytes) -> str:
    """n8n's ``detectBinaryEncoding`` (chardet), narrowed to what matters here: UTF-8 when the bytes are valid
    UTF-8 (or start with its byte order mark), UTF-16 by its byte order mark, else ISO-8859-1."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf16"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "latin1"
    return "utf8"


_B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
_B64.update({"-": 62, "_": 63})


def node_base64_decode(text: str) -> bytes:
    """``Buffer.from(text, 'base64')``: standard and URL-safe letters, anything else skipped, ends at ``=``."""
    values = []
    for ch in text:
        if ch == "=":
            break
        value = _B64.get(ch)
        if value is not None:
            values.append(value)
    out = bytearray()
    for start in range(0, len(values), 4):
        group = values[start : start + 4]
        if len(group) < 2:
            break
        bits = 0
        for value in group:
            bits = (bits << 6) | value
        bits <<= 6 * (4 - len(group))
        out += bits.to_bytes(3, "big")[: len(group) - 1]
    return bytes(out)


__all__ = ["BOM_ENCODINGS", "decode_text", "detect_encoding", "encode_text", "node_base64_decode", "python_codec"]
