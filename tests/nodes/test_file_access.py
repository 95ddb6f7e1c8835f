"""File-access restrictions as an attacker tries them: ``..``, symlinks out of the allowed folder, Weft's own files,
absolute paths elsewhere, ``.git`` folders, and a link swapped in after the check."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from weft.errors import NodeOperationError
from weft.nodes.files.access import (
    DEFAULT_BLOCK_PATTERNS,
    FileAccess,
    FileSystemError,
    is_blocked,
    open_for_read,
    open_for_write,
    resolve_path,
)


@pytest.fixture
def setup(tmp_path: Path) -> tuple[FileAccess, Path, Path]:
    allowed, outside, own = tmp_path / "allowed", tmp_path / "outside", tmp_path / "weft-home"
    for folder in (allowed, outside, own):
        folder.mkdir()
    (allowed / "ok.txt").write_bytes(b"ok")
    (outside / "secret.txt").write_bytes(b"secret")
    (own / "database.sqlite").write_bytes(b"db")
    access = FileAccess(allowed=(str(allowed), str(own)), blocked=(str(own),))
    return access, allowed, outside


def _read(access: FileAccess, path: str) -> bytes:
    with open_for_read(access, "Read", resolve_path(path)) as handle:
        return handle.read()


def test_a_file_in_the_allowed_folder_is_read(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, _ = setup
    assert _read(access, str(allowed / "ok.txt")) == b"ok"


@pytest.mark.parametrize(
    "attack",
    [
        "{allowed}/../outside/secret.txt",
        "{outside}/secret.txt",
        "{allowed}/../weft-home/database.sqlite",
        "/etc/passwd",
    ],
)
def test_paths_out_of_the_allowed_folder_or_into_weft_files_are_refused(
    setup: tuple[FileAccess, Path, Path], attack: str
) -> None:
    access, allowed, outside = setup
    path = attack.format(allowed=allowed, outside=outside)
    with pytest.raises(NodeOperationError, match=r"Access to the file is not allowed\."):
        _read(access, path)


def test_a_symlink_in_the_allowed_folder_pointing_outside_is_refused(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, outside = setup
    (allowed / "link.txt").symlink_to(outside / "secret.txt")
    (allowed / "linked-dir").symlink_to(outside)
    for path in (allowed / "link.txt", allowed / "linked-dir" / "secret.txt"):
        with pytest.raises(NodeOperationError, match="not allowed"):
            _read(access, str(path))
    with pytest.raises(NodeOperationError, match="not allowed"):
        open_for_write(access, "Write", resolve_path(str(allowed / "linked-dir" / "new.txt")), append=False)
    assert not (outside / "new.txt").exists()


def test_a_link_swapped_in_after_the_check_is_not_followed(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, outside = setup
    (allowed / "sub").mkdir()
    (allowed / "sub" / "secret.txt").write_bytes(b"inside")
    resolved = resolve_path(str(allowed / "sub" / "secret.txt"))
    (allowed / "sub" / "secret.txt").unlink()
    (allowed / "sub" / "secret.txt").symlink_to(outside / "secret.txt")  # the race: a link replaces the file
    with pytest.raises((NodeOperationError, FileSystemError)):
        _read_resolved(access, resolved)
    (allowed / "sub" / "secret.txt").unlink()
    (allowed / "sub").rmdir()
    (allowed / "sub").symlink_to(outside)  # or the folder above it
    with pytest.raises((NodeOperationError, FileSystemError)):
        _read_resolved(access, resolved)


def _read_resolved(access: FileAccess, resolved: str) -> bytes:
    with open_for_read(access, "Read", resolved) as handle:
        return handle.read()


def test_git_folders_are_blocked_by_the_default_pattern(tmp_path: Path) -> None:
    access = FileAccess(allowed=(), blocked=(), block_patterns=DEFAULT_BLOCK_PATTERNS)
    assert is_blocked(access, str(tmp_path / "repo" / ".git" / "config"))
    assert is_blocked(access, str(tmp_path / "repo" / ".git"))
    assert not is_blocked(access, str(tmp_path / "repo" / ".github" / "x.yml"))
    assert is_blocked(FileAccess(allowed=(), blocked=(), block_patterns="(unclosed"), "/anything")


def test_settings_parse_as_n8n_reads_restrict_file_access_to() -> None:
    access = FileAccess.from_settings(" /data ; ~/files;;", own_files=("/home/w/.weft",))
    assert access.allowed == ("/data", os.path.expanduser("~/files"))
    assert is_blocked(access, "/home/w/.weft/database.sqlite")
    assert not is_blocked(access, "/data/a.csv")
    assert is_blocked(access, "/database")  # a sibling that only starts with the allowed name
    assert not is_blocked(FileAccess.from_settings(""), "/anywhere/at/all")


def test_missing_files_fail_with_node_js_words(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, _ = setup
    with pytest.raises(FileSystemError, match=r"^ENOENT: no such file or directory, stat '.*missing.txt'$"):
        _read(access, str(allowed / "missing.txt"))
    with pytest.raises(FileSystemError, match=r"^ENOENT: no such file or directory, realpath '.*nowhere'$"):
        resolve_path(str(allowed / "nowhere" / "x.txt"))


def test_writing_truncates_or_appends_and_refuses_folders(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, _ = setup
    target = resolve_path(str(allowed / "ok.txt"))
    with open_for_write(access, "Write", target, append=True) as handle:
        handle.write(b"+more")
    assert (allowed / "ok.txt").read_bytes() == b"ok+more"
    with open_for_write(access, "Write", target, append=False) as handle:
        handle.write(b"new")
    assert (allowed / "ok.txt").read_bytes() == b"new"
    (allowed / "folder").mkdir()
    with pytest.raises((NodeOperationError, FileSystemError)):
        open_for_write(access, "Write", resolve_path(str(allowed / "folder")), append=False)


def test_the_instance_settings_become_the_engine_s_file_options(tmp_path: Path) -> None:
    from weft.nodes.files.options import file_options
    from weft.settings import Settings

    env = {
        "WEFT_USER_FOLDER": str(tmp_path / "home"),
        "WEFT_RESTRICT_FILE_ACCESS_TO": f"{tmp_path};/srv/data",
        "WEFT_COMPRESSION_NODE_MAX_ZIP_ENTRIES": "7",
    }
    options = file_options(Settings.from_env(env))
    access = options["file_access"]
    assert access.allowed == (str(tmp_path), "/srv/data") and options["compression_limits"].max_entries == 7
    assert is_blocked(access, str(tmp_path / "home" / "database.sqlite"))  # inside an allowed folder, yet Weft's
    assert is_blocked(access, str(tmp_path / "home" / "storage" / "workflows" / "x"))
    assert not is_blocked(access, str(tmp_path / "report.csv"))
    env["WEFT_BLOCK_FILE_ACCESS_TO_WEFT_FILES"] = "false"
    assert not is_blocked(file_options(Settings.from_env(env))["file_access"], str(tmp_path / "home" / "config"))


def test_a_folder_is_not_read_as_a_file(setup: tuple[FileAccess, Path, Path]) -> None:
    access, allowed, _ = setup
    (allowed / "sub").mkdir()
    with pytest.raises(FileSystemError, match=r"^EISDIR: illegal operation on a directory, read$"):
        _read(access, str(allowed / "sub"))
