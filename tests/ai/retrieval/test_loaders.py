"""The JSON and CSV loaders read what LangChain's do (pointer quirks and d3-dsv's CSV rules included)."""

from __future__ import annotations

import pytest

from weft.ai.retrieval.dsv import parse_rows
from weft.ai.retrieval.errors import DocumentLoadError
from weft.ai.retrieval.file_loaders import csv_file, decode_text
from weft.ai.retrieval.json_loader import extract_strings, json_documents, parse_pointers


def test_all_strings_in_javascript_key_order() -> None:
    value = {"b": "two", "1": "one", "a": ["x", 3, None, {"c": "y"}], "empty": ""}
    assert extract_strings(value, [], True) == ["one", "two", "x", "y"]


def test_the_root_pointer_collects_nested_strings_again() -> None:
    """n8n always passes at least the pointer ``""``: nested strings come once per level (LangChain's rule)."""
    value = {"title": "Cats", "meta": {"tags": ["pets"]}}
    assert extract_strings(value, parse_pointers(""), False) == ["Cats", "pets", "pets", "pets"]


def test_pointers_pick_values() -> None:
    value = {"title": "Cats", "body": "purr", "meta": {"tags": ["pets", "animals"]}}
    assert extract_strings(value, parse_pointers("/title, /meta/tags"), False) == ["Cats", "pets", "animals"]


def test_a_pointer_must_start_with_a_slash() -> None:
    with pytest.raises(DocumentLoadError, match="Invalid JSON pointer"):
        parse_pointers("title")


def test_json_documents_number_their_lines() -> None:
    docs = json_documents('{"a": "x", "b": "y"}', [])
    assert [d.to_json() for d in docs] == [
        {"pageContent": "x", "metadata": {"source": "blob", "blobType": "application/json", "line": 1}},
        {"pageContent": "y", "metadata": {"source": "blob", "blobType": "application/json", "line": 2}},
    ]


def test_dsv_rows_as_d3_reads_them() -> None:
    text = 'a;b\n"x;y";"he said ""hi"""\r\nz;'
    assert parse_rows(text, ";") == [["a", "b"], ["x;y", 'he said "hi"'], ["z", ""]]
    assert parse_rows("a,b\n\n1,2\n", ",") == [["a", "b"], [""], ["1", "2"]]


def test_csv_rows_and_columns() -> None:
    data = b"name,sound\ncat,purr\nbird, sing \n"
    assert [d.page_content for d in csv_file(data, "text/csv", column=None, separator=",")] == [
        "name: cat\nsound: purr",
        "name: bird\nsound: sing",
    ]
    assert [d.page_content for d in csv_file(data, "text/csv", column="sound", separator=",")] == ["purr", " sing"]
    with pytest.raises(DocumentLoadError, match=r"Column nope not found in CSV file\."):
        csv_file(data, "text/csv", column="nope", separator=",")


def test_text_is_decoded_as_blob_text() -> None:
    assert decode_text(b"\xef\xbb\xbfhi \xff") == "hi \ufffd"
