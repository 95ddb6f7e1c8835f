"""The glob patterns of the file nodes (fast-glob's syntax) on a real folder tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from weft.library.files._files_glob import escape_brackets_and_parens, escape_parens, expand_braces, glob_files


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in (
        "a.txt",
        "b.txt",
        "c.csv",
        "(1).txt",
        "[x].txt",
        ".hidden.txt",
        "sub/d.txt",
        "sub/.dot/e.txt",
        ".dotdir/f.txt",
        "sub/deep/g.txt",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    (tmp_path / "folder.txt").mkdir()  # a folder is never a match
    (tmp_path / "link.txt").symlink_to(tmp_path / "a.txt")  # a link to a file is
    return tmp_path


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.txt", ["(1).txt", "[x].txt", "a.txt", "b.txt", "link.txt"]),
        ("**/*.txt", ["(1).txt", "[x].txt", "a.txt", "b.txt", "link.txt", "sub/d.txt", "sub/deep/g.txt"]),
        ("{a,c}.*", ["a.txt", "c.csv"]),
        ("[ab].txt", ["a.txt", "b.txt"]),
        ("[!ab].csv", ["c.csv"]),
        ("[!c].csv", []),
        ("?.csv", ["c.csv"]),
        (".*.txt", [".hidden.txt"]),
        ("sub/*", ["sub/d.txt"]),
        ("sub/**", ["sub/d.txt", "sub/deep/g.txt"]),
        ("@(a|b).txt", ["a.txt", "b.txt"]),
        ("!(a).txt", ["(1).txt", ".hidden.txt", "[x].txt", "b.txt", "link.txt"]),
        ("s?b/*.txt", ["sub/d.txt"]),  # fast-glob matches nothing here: its "?" fails in folder names
        ("a.txt", ["a.txt"]),
        ("missing/*.txt", []),
    ],
)
def test_patterns_match_as_fast_glob(tree: Path, pattern: str, expected: list[str]) -> None:
    assert glob_files(f"{tree}/{pattern}") == [f"{tree}/{name}" for name in expected]


def test_brackets_and_parentheses_are_literal_once_escaped(tree: Path) -> None:
    assert glob_files(escape_brackets_and_parens(f"{tree}/(1).txt")) == [f"{tree}/(1).txt"]
    assert glob_files(escape_brackets_and_parens(f"{tree}/[x].txt")) == [f"{tree}/[x].txt"]
    assert glob_files(f"{tree}/[x].txt", extglob=False) == []  # a class matching "x.txt"
    assert escape_brackets_and_parens(r"a\(b)") == r"a\(b\)"  # idempotent for escaped ones
    assert escape_parens("f(1)[2]") == r"f\(1\)[2]"


def test_braces_expand_lists_and_ranges() -> None:
    assert expand_braces("f{1..3}.{a,b}") == ["f1.a", "f1.b", "f2.a", "f2.b", "f3.a", "f3.b"]
    assert expand_braces(r"x\{a,b}") == [r"x\{a,b}"]
    assert expand_braces("{single}") == ["{single}"]


def test_relative_patterns_read_from_the_working_folder(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    assert glob_files("sub/*.txt") == ["sub/d.txt"]
    assert glob_files("*.csv") == ["c.csv"]
