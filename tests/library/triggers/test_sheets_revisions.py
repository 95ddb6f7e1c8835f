"""The Google Sheets Trigger's row comparison (n8n's ``compareRevisions``), as pure functions."""

from __future__ import annotations

from weft.library.google.sheets._trigger_revisions import compare_revisions, rows_to_json

OLD = [["name", "done", "note"], ["a", "no", "x"], ["b", "no", "y"]]
NEW = [["name", "done", "note"], ["a", "no", "changed"], ["b", "yes", "y"], ["c", "no"]]


def test_both_versions_and_their_differences() -> None:
    rows = compare_revisions([list(r) for r in OLD], [list(r) for r in NEW], 1, "both", [], 1, "rowUpdate")
    assert [row["current"]["row_number"] for row in rows] == [2, 3]
    assert rows[0]["differences"] == {"row_number": 2, "note": {"previous": "x", "current": "changed"}}
    assert rows[1]["previous"] == {"row_number": 3, "name": "b", "done": "no", "note": "y"}


def test_only_the_watched_columns_count() -> None:
    rows = compare_revisions([list(r) for r in OLD], [list(r) for r in NEW], 1, "new", ["done"], 1, "rowUpdate")
    assert rows == [{"row_number": 3, "name": "b", "done": "yes", "note": "y"}]


def test_falsy_cells_become_empty_strings_as_in_n8n() -> None:
    assert rows_to_json([[0, False, None]], ["a", "b", "c", "d"]) == [{"a": "", "b": "", "c": "", "d": ""}]
