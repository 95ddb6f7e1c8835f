"""Finding: non-UTF-8 or deeply nested files made the CLI print a traceback. Every unreadable file now gets a
clean message naming it and exit code 2, for ``execute``, ``import:workflow`` and ``import:credentials``."""

from __future__ import annotations

from pathlib import Path

import pytest

from weft.cli import main

KINDS = ["missing", "folder", "not-utf8", "invalid-json", "too-deep"]


def _file(tmp_path: Path, kind: str) -> Path:
    target = tmp_path / f"{kind}.json"
    if kind == "folder":
        target.mkdir()
        (target / "inner.json").write_bytes(b"\xff\xfe{")
    elif kind == "not-utf8":
        target.write_bytes(b'{"name": "caf\xe9", "nodes": [], "connections": {}}')
    elif kind == "invalid-json":
        target.write_text('{"nodes": [,]}')
    elif kind == "too-deep":
        target.write_text('{"nodes": ' + "[" * 5000 + "]" * 5000 + ', "connections": {}}')
    return target


@pytest.fixture(autouse=True)
def _user_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEFT_USER_FOLDER", str(tmp_path / "home"))
    monkeypatch.delenv("WEFT_DATABASE_URL", raising=False)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "command", [["execute", "--file"], ["import:workflow", "--input"], ["import:credentials", "--input"]]
)
def test_an_unreadable_file_is_a_clean_exit_2(
    command: list[str], kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, kind)
    if kind == "folder" and command[0] == "import:workflow":
        path = path / "inner.json"  # a folder is a valid input there: its bad file is what fails
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("weft: ") and path.name in err and "Traceback" not in err
