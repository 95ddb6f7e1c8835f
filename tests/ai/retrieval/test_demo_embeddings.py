"""The keyless Demo Embeddings: deterministic, unit length, and nearer for texts sharing words."""

from __future__ import annotations

import math

from weft.ai.retrieval.demo_embeddings import HashedEmbeddings, demo_words, hashed_vector


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_vectors_are_deterministic_and_unit_length() -> None:
    vector = hashed_vector("Reset your password from the sign-in page", 64)
    assert vector == hashed_vector("Reset your password from the sign-in page", 64)
    assert len(vector) == 64
    assert math.isclose(math.sqrt(sum(x * x for x in vector)), 1.0)
    # pinned: the same text gives the same vector on every machine (BLAKE2b, not Python's salted hash)
    assert [i for i, x in enumerate(hashed_vector("password", 16)) if x] == [
        i for i, x in enumerate(hashed_vector("passwords", 16)) if x
    ]


def test_texts_sharing_words_are_nearer() -> None:
    query = hashed_vector("how do I reset my password")
    near = hashed_vector("To reset your password, choose Forgot password")
    far = hashed_vector("Holidays: 28 days of paid leave a year")
    assert cosine(query, near) > cosine(query, far)


def test_words_drop_short_words_and_plurals() -> None:
    assert demo_words("The cats & a dog's 12 bones; glass") == ["the", "cat", "dog", "bone", "glass"]


async def test_a_text_without_words_still_has_a_direction() -> None:
    embeddings = HashedEmbeddings(8)
    assert await embeddings.embed_query("?!") == [1.0] + [0.0] * 7
    assert await embeddings.embed_documents(["a", "cats"]) == [[1.0] + [0.0] * 7, hashed_vector("cats", 8)]
