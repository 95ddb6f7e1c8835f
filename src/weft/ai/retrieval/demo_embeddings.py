"""``HashedEmbeddings``: a keyless, deterministic embedding for demos and tests (Weft only; no network, no model).

Each text becomes a hashed bag of words: its words (letters and digits, lower-cased, a plural ``s`` dropped, one
or two letters ignored) are counted into ``dimensions`` buckets chosen by a BLAKE2b hash of the word, each with a
hashed sign, and the vector is scaled to length 1. Texts sharing words get a high cosine similarity; the same text
gets the same vector on every machine and in every process. It knows nothing of meaning (no synonyms), so it
suits examples and tests, not real retrieval.
"""

from __future__ import annotations

import hashlib
import math
import re

from weft.ai.retrieval.embeddings import Vector

DEFAULT_DIMENSIONS = 256
_WORD = re.compile(r"[0-9a-z]+")


def demo_words(text: str) -> list[str]:
    """The words a text is embedded by, in order (repeats kept)."""
    found = []
    for word in _WORD.findall(text.lower()):
        if len(word) >= 3:
            found.append(word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word)
    return found


def hashed_vector(text: str, dimensions: int = DEFAULT_DIMENSIONS) -> Vector:
    """``text``'s vector: the hashed, signed word counts scaled to length 1 (all zeros but the first: no words)."""
    vector = [0.0] * dimensions
    for word in demo_words(text):
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        bucket = int.from_bytes(digest[:7], "big") % dimensions
        vector[bucket] += 1.0 if digest[7] & 1 else -1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0:
        vector[0] = 1.0  # a text without words still has a direction, so cosine scores stay defined
        return vector
    return [x / norm for x in vector]


class HashedEmbeddings:
    """An :class:`~weft.ai.retrieval.embeddings.Embeddings` of :func:`hashed_vector`."""

    def __init__(self, dimensions: int = DEFAULT_DIMENSIONS) -> None:
        if dimensions < 1:
            raise ValueError("dimensions must be at least 1")
        self.dimensions = dimensions

    async def embed_documents(self, texts: list[str]) -> list[Vector]:
        return [hashed_vector(text, self.dimensions) for text in texts]

    async def embed_query(self, text: str) -> Vector:
        return hashed_vector(text, self.dimensions)


__all__ = ["DEFAULT_DIMENSIONS", "HashedEmbeddings", "demo_words", "hashed_vector"]
