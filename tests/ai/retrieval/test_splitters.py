"""The text splitters cut as LangChain's do (expected values printed by @langchain/textsplitters 1.0 under Node)."""

from __future__ import annotations

import pytest

from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import TextSplitterError
from weft.ai.retrieval.splitters import CharacterTextSplitter, RecursiveCharacterTextSplitter, split_documents
from weft.ai.retrieval.token_splitter import TokenTextSplitter, estimate_splits, has_long_sequential_repeat

PARA = (
    "Cats purr when they are happy.\n\nDogs bark at strangers who pass by.\nBirds sing at dawn every day.\n\nFish swim."
)


async def test_recursive_without_separators_kept() -> None:
    splitter = RecursiveCharacterTextSplitter(chunk_size=40, chunk_overlap=10, keep_separator=False)
    assert await splitter.split_text(PARA) == [
        "Cats purr when they are happy.",
        "Dogs bark at strangers who pass by.",
        "Birds sing at dawn every day.",
        "Fish swim.",
    ]


async def test_recursive_overlap_with_separators_kept() -> None:
    splitter = RecursiveCharacterTextSplitter(chunk_size=30, chunk_overlap=5)
    assert await splitter.split_text(PARA) == [
        "Cats purr when they are happy.",
        "Dogs bark at strangers who",
        "who pass by.",
        "Birds sing at dawn every day.",
        "Fish swim.",
    ]


async def test_character_separator_and_overlap() -> None:
    splitter = CharacterTextSplitter(separator="|", chunk_size=16, chunk_overlap=6)
    assert await splitter.split_text("alpha|beta|gamma|delta|epsilon|zeta|eta|theta") == [
        "alpha|beta|gamma",
        "gamma|delta",
        "delta|epsilon",
        "zeta|eta|theta",
    ]


async def test_lengths_are_utf16_code_units() -> None:
    """An emoji counts two, as JavaScript's ``length`` (so chunks break where n8n's do)."""
    splitter = RecursiveCharacterTextSplitter(chunk_size=6, chunk_overlap=2, keep_separator=False)
    assert await splitter.split_text("ab😀cd😀ef gh😀ij") == ["ab😀cd", "cd😀ef", "gh😀ij"]


async def test_markdown_separators() -> None:
    splitter = RecursiveCharacterTextSplitter.for_language(
        "markdown", chunk_size=30, chunk_overlap=0, keep_separator=False
    )
    text = "# Title\n\nIntro text here.\n\n## Part one\n\nCats purr.\n\n## Part two\n\n```js\nconsole.log(1)\n```\n"
    assert await splitter.split_text(text) == [
        "# Title\n\nIntro text here.",
        "Part one\n\nCats purr.",
        "Part two",
        "```js\nconsole.log(1)\n```",
    ]


async def test_documents_are_numbered_by_line() -> None:
    splitter = RecursiveCharacterTextSplitter(chunk_size=30, chunk_overlap=5)
    docs = await split_documents(splitter, [Document(page_content=PARA, metadata={"source": "x"})])
    assert [(d.page_content, d.metadata["loc"]["lines"]) for d in docs] == [
        ("Cats purr when they are happy.", {"from": 1, "to": 1}),
        ("Dogs bark at strangers who", {"from": 3, "to": 3}),
        ("who pass by.", {"from": 3, "to": 3}),
        ("Birds sing at dawn every day.", {"from": 4, "to": 4}),
        ("Fish swim.", {"from": 6, "to": 6}),
    ]
    assert all(d.metadata["source"] == "x" for d in docs)


def test_overlap_must_be_below_the_chunk_size() -> None:
    with pytest.raises(TextSplitterError, match="Cannot have chunkOverlap >= chunkSize"):
        CharacterTextSplitter(chunk_size=5, chunk_overlap=5)


async def test_token_splitter_matches_js_tiktoken() -> None:
    """cl100k_base from the installed ranks file, js-tiktoken's pattern: n8n's chunks (no download)."""
    text = "The quick brown fox jumps over the lazy dog. Cats purr; rockets launch satellites into orbit."
    assert await TokenTextSplitter(chunk_size=8, chunk_overlap=2).split_text(text) == [
        "The quick brown fox jumps over the lazy",
        " the lazy dog. Cats purr;",
        "r; rockets launch satellites into orbit.",
    ]
    special = "a\n\n\n  b <|endoftext|> it's   x\r\n\r\n y"
    assert await TokenTextSplitter(chunk_size=5, chunk_overlap=1).split_text(special) == [
        "a\n\n\n  b ",
        " <|endoftext|> it's  ",
        "   x\r\n\r\n y",
    ]


async def test_token_splitter_estimates_long_repeats() -> None:
    text = "x" * 1200
    assert has_long_sequential_repeat(text)
    assert await TokenTextSplitter(chunk_size=100, chunk_overlap=10).split_text(text) == estimate_splits(text, 100, 10)
    assert [len(c) for c in estimate_splits(text, 100, 10)] == [400, 400, 400, 120]
