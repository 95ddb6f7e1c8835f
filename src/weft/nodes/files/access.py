"""Which files nodes may read and write, and opening them safely (n8n-core's ``file-system-helper-functions``).

n8n 2 restricts file access by default: ``N8N_RESTRICT_FILE_ACCESS_TO`` (``~/.n8n-files``; ``;``-separated; empty
for anywhere) lists the folders nodes may use, ``N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES`` (on) keeps them out of n8n's
own folder, and ``N8N_BLOCK_FILE_PATTERNS`` (any ``.git`` folder) refuses paths matching a regular expression.
Weft reads the same settings as ``WEFT_RESTRICT_FILE_ACCESS_TO`` (``~/.weft-files``),
``WEFT_BLOCK_FILE_ACCESS_TO_WEFT_FILES`` (the user folder, its database, config and binary store) and
``WEFT_BLOCK_FILE_PATTERNS``; the host passes them down as a :class:`FileAccess`.

A path is checked after its symlinks are resolved (:func:`resolve_path`), and then opened without following any
symlink: every folder from ``/`` down is opened with ``O_NOFOLLOW`` relative to the one before it, so a link swapped
in between the check and the open is refused rather than followed, and the file opened is the file that was
checked (same device and inode). The functions here block on the disk: callers run them in a worker thread.
"""

from __future__ import annotations

import contextlib
import errno
import os
import posixpath
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from weft.errors import NodeOperationError

#: n8n 2.41's ``N8N_BLOCK_FILE_PATTERNS`` default: any path inside (or naming) a ``.git`` folder.
DEFAULT_BLOCK_PATTERNS = r"^(?:[^/]*/)*\.git(?:/.*)?$"
#: Weft's ``WEFT_RESTRICT_FILE_ACCESS_TO`` default (n8n's is ``~/.n8n-files``).
DEFAULT_RESTRICT_TO = "~/.weft-files"

NOT_ALLOWED = "Access to the file is not allowed."


@dataclass(frozen=True, kw_only=True, slots=True)
class FileAccess:
    """Where nodes may read and write files (n8n's ``SecurityConfig`` file settings)."""

    allowed: tuple[str, ...] = (posixpath.expanduser(DEFAULT_RESTRICT_TO),)
    """Folders nodes may use (``~`` expanded); empty: anywhere not blocked."""
    blocked: tuple[str, ...] = (posixpath.expanduser("~/.weft"),)
    """Weft's own files and folders (user folder, database, config, binary store), always refused."""
    block_patterns: str = DEFAULT_BLOCK_PATTERNS
    """``;``-separated regular expressions; a resolved path matching one is refused."""

    @classmethod
    def from_settings(
        cls, restrict_to: str, *, own_files: tuple[str, ...] = (), block_patterns: str = DEFAULT_BLOCK_PATTERNS
    ) -> FileAccess:
        """From the raw settings: ``restrict_to`` as n8n reads ``N8N_RESTRICT_FILE_ACCESS_TO``."""
        allowed = tuple(
            posixpath.expanduser(p) if p.startswith("~") else p
            for p in (part.strip() for part in restrict_to.split(";"))
            if p
        )
        return cls(allowed=allowed, blocked=tuple(own_files), block_patterns=block_patterns)


UNRESTRICTED = FileAccess(allowed=(), blocked=(), block_patterns="")
"""No restriction at all (tests that work in a temporary folder; never the default)."""


def contained(parent: str, child: str) -> bool:
    """``isContainedWithin``: ``child`` is ``parent`` or below it (both made absolute, not resolved)."""
    parent, child = os.path.abspath(parent), os.path.abspath(child)
    return child == parent or child.startswith(parent.rstrip("/") + "/")


def _pattern_blocked(patterns: str, resolved: str) -> bool:
    normalized = posixpath.normpath(resolved.replace("\\", "/"))
    for pattern in (p.strip() for p in patterns.split(";")):
        if not pattern:
            continue
        try:
            if re.search(pattern, normalized, re.IGNORECASE | re.MULTILINE):
                return True
        except re.error:
            return True  # n8n: a pattern that does not compile blocks everything
    return False


def is_blocked(access: FileAccess, resolved: str) -> bool:
    """n8n's ``isFilePathBlocked`` for a resolved path."""
    if any(contained(own, resolved) for own in access.blocked):
        return True
    if _pattern_blocked(access.block_patterns, resolved):
        return True
    if access.allowed:
        return not any(contained(folder, resolved) for folder in access.allowed)
    return False


# --------------------------------------------------------------------------- OS errors as Node.js words them

_STRERROR = {
    errno.ENOENT: "no such file or directory",
    errno.EACCES: "permission denied",
    errno.EISDIR: "illegal operation on a directory",
    errno.ENOTDIR: "not a directory",
    errno.ELOOP: "too many symbolic links encountered",
    errno.EEXIST: "file already exists",
    errno.EPERM: "operation not permitted",
    errno.ENOSPC: "no space left on device",
}


class FileSystemError(OSError):
    """An OS error with Node.js's message (``ENOENT: no such file or directory, stat '/x'``) and its path."""

    def __init__(self, error: OSError, syscall: str, path: str | None) -> None:
        code = errno.errorcode.get(error.errno or 0, "EIO")
        text = _STRERROR.get(error.errno or 0, (error.strerror or "i/o error").lower())
        where = f" '{path}'" if path is not None else ""  # Node names no path for read and write
        super().__init__(error.errno, f"{code}: {text}, {syscall}{where}")
        self.code = code
        self.path = path

    def __str__(self) -> str:
        return str(self.args[1])


@contextlib.contextmanager
def node_error(syscall: str, path: str | None) -> Iterator[None]:
    """Re-raise an :class:`OSError` as a :class:`FileSystemError` worded as Node.js words it."""
    try:
        yield
    except FileSystemError:
        raise
    except OSError as error:
        raise FileSystemError(error, syscall, path) from error


def resolve_path(path: str) -> str:
    """n8n's ``resolvePath``: the path with every symlink resolved; for a file that does not exist yet, its
    folder resolved and the name kept."""
    absolute = os.path.abspath(path)
    try:
        with node_error("realpath", path):
            return os.path.realpath(absolute, strict=True)
    except FileSystemError as error:
        if error.code != "ENOENT":
            raise
    with node_error("realpath", posixpath.dirname(path) or "."):
        folder = os.path.realpath(posixpath.dirname(absolute), strict=True)
    return posixpath.join(folder, posixpath.basename(absolute))


# --------------------------------------------------------------------------- opening without following links


def _open_parent(node_name: str, folder: str) -> int:
    """A descriptor of ``folder``, each component opened with ``O_NOFOLLOW`` relative to the one above it."""
    # O_PATH (Linux): a folder one may pass through but not list (mode 0711) can still be walked
    flags = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW
    current = os.open("/", flags)
    try:
        for part in [p for p in folder.split("/") if p]:
            try:
                following = os.open(part, flags, dir_fd=current)
            except OSError as error:
                if error.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise NodeOperationError(node_name, NOT_ALLOWED) from error
                raise FileSystemError(error, "open", folder) from error
            os.close(current)
            current = following
    except BaseException:
        os.close(current)
        raise
    return current


def _open_nofollow(node_name: str, resolved: str, flags: int) -> int:
    parent = _open_parent(node_name, posixpath.dirname(resolved))
    try:
        return os.open(posixpath.basename(resolved), flags | os.O_NOFOLLOW, 0o666, dir_fd=parent)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise NodeOperationError(node_name, "Symlinks are not allowed.") from error
        raise FileSystemError(error, "open", resolved) from error
    finally:
        os.close(parent)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return a.st_dev == b.st_dev and a.st_ino == b.st_ino


def open_for_read(access: FileAccess, node_name: str, resolved: str) -> IO[bytes]:
    """n8n's ``createReadStream``: the file opened for reading, after the access checks."""
    with node_error("stat", resolved):
        identity = os.stat(resolved)
    if is_blocked(access, resolved):
        raise NodeOperationError(node_name, NOT_ALLOWED)
    if not os.access(resolved, os.R_OK):
        raise FileSystemError(PermissionError(errno.EACCES, "denied"), "access", resolved)
    descriptor = _open_nofollow(node_name, resolved, os.O_RDONLY)
    try:
        opened = os.fstat(descriptor)
        if not _same_file(opened, identity):
            raise NodeOperationError(node_name, "The file has changed and cannot be accessed.")
        if stat.S_ISDIR(opened.st_mode):  # Node opens a folder and fails on the first read
            raise FileSystemError(IsADirectoryError(errno.EISDIR, "dir"), "read", None)
        return os.fdopen(descriptor, "rb", buffering=0)
    except BaseException:
        os.close(descriptor)
        raise


def open_for_write(access: FileAccess, node_name: str, resolved: str, *, append: bool) -> IO[bytes]:
    """n8n's ``writeContentToFile`` up to the writing: the file created or opened (truncated unless ``append``)."""
    try:
        before: os.stat_result | None = os.stat(resolved)
    except FileNotFoundError:
        before = None
    except OSError as error:
        raise FileSystemError(error, "stat", resolved) from error
    if is_blocked(access, resolved):
        raise NodeOperationError(node_name, NOT_ALLOWED)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else 0)
    descriptor = _open_nofollow(node_name, resolved, flags)
    handle = os.fdopen(descriptor, "ab" if append else "wb", buffering=0)
    try:
        opened = os.fstat(descriptor)
        if before is not None and not _same_file(opened, before):
            raise NodeOperationError(node_name, "The file has changed and cannot be written.")
        if before is None and not _same_file(opened, os.stat(resolved)):
            raise NodeOperationError(
                node_name,
                "The file was created but its identity does not match and cannot be written.",
            )
        if not stat.S_ISREG(opened.st_mode):
            raise NodeOperationError(node_name, "The path is not a regular file.")
        if not append:
            os.ftruncate(descriptor, 0)
    except BaseException:
        handle.close()
        raise
    return handle


__all__ = [
    "DEFAULT_BLOCK_PATTERNS",
    "DEFAULT_RESTRICT_TO",
    "NOT_ALLOWED",
    "UNRESTRICTED",
    "FileAccess",
    "FileSystemError",
    "contained",
    "is_blocked",
    "node_error",
    "open_for_read",
    "open_for_write",
    "resolve_path",
]
