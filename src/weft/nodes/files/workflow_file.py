"""Reading a sub-workflow's JSON from disk for Execute Workflow's ``localFile`` source, within the file nodes'
restrictions (n8n 2.41's ``getWorkflowInfo``: ``resolvePath``, ``isFilePathBlocked``, then ``readFile``).

The path is checked against ``WEFT_RESTRICT_FILE_ACCESS_TO``, Weft's own files and ``WEFT_BLOCK_FILE_PATTERNS``
(:mod:`._file_access`) before anything on the disk is looked at by name: a path outside the allowed folders gets
n8n's "Access to the workflow file path is not allowed" whether it exists, is missing, is a folder or holds no
workflow, so the node cannot be used to probe the disk. (n8n resolves the path first and says "could not be
found" when its folder is missing, which tells a missing folder from an existing one; Weft resolves the part that
exists and refuses the rest.) Inside the allowed folders the file is opened as the file nodes open theirs (no
symlink followed, same file as checked), must be a regular file, and may hold at most :data:`MAX_WORKFLOW_FILE_SIZE`.
"""

from __future__ import annotations

import asyncio
import errno
import os
import stat

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.files.access import FileAccess, FileSystemError, is_blocked, node_error, open_for_read
from weft.nodes.files.options import file_access

#: n8n's message for a refused path (``GenericFunctions.ts``, n8n 2.41).
NOT_ALLOWED = "Access to the workflow file path is not allowed"
#: The largest workflow file the node loads: n8n's ``N8N_PAYLOAD_SIZE_MAX`` default, the largest workflow its
#: REST API accepts (n8n reads any size).
MAX_WORKFLOW_FILE_SIZE = 16 * 1024 * 1024
_CHUNK = 1024 * 1024


async def read_workflow_file(ctx: ExecuteContext, path: str, item_index: int) -> str:
    """The text of the workflow file at ``path`` (``workflowPath``), or a typed error naming the node."""
    access = file_access(ctx)
    resolved = _resolve(path)
    if resolved is None or is_blocked(access, resolved):
        raise NodeOperationError(
            ctx.node.name,
            NOT_ALLOWED,
            description="Put the workflow file in a folder listed in WEFT_RESTRICT_FILE_ACCESS_TO (outside Weft's "
            "own folder), or use source 'database' or 'parameter'.",
            item_index=item_index,
        )
    try:
        data = await asyncio.to_thread(_read_capped, access, ctx.node.name, resolved, MAX_WORKFLOW_FILE_SIZE)
    except FileSystemError as error:
        if error.code == "ENOENT":
            raise NodeOperationError(
                ctx.node.name,
                f'The file "{path}" could not be found, [item {item_index}]',
                description="Check the 'Workflow Path' parameter: the file must exist on the machine running Weft.",
                item_index=item_index,
            ) from None
        raise NodeOperationError(
            ctx.node.name,
            f'The file "{path}" could not be read: {error}',
            description="Check the 'Workflow Path' parameter and the file's permissions.",
            item_index=item_index,
        ) from None
    if data is None:
        raise NodeOperationError(
            ctx.node.name,
            f'The file "{path}" is too large for node "{ctx.node.name}": a workflow file may hold at most '
            f"{MAX_WORKFLOW_FILE_SIZE // (1024 * 1024)} MiB",
            description="Store the sub-workflow in Weft and use source 'database', or make it smaller.",
            item_index=item_index,
        )
    return data.decode("utf-8-sig", errors="replace")  # Node's readFile(…, 'utf8') replaces bad bytes too


def _resolve(path: str) -> str | None:
    """The absolute path with the symlinks of the part that exists resolved (the rest kept as written), so a
    missing folder is checked like an existing one; ``None`` for a path no file can have (a NUL byte)."""
    if "\0" in path:
        return None
    return os.path.realpath(os.path.abspath(path))


def _read_capped(access: FileAccess, node_name: str, resolved: str, limit: int) -> bytes | None:
    """The bytes of the regular file at ``resolved``; ``None`` when it holds more than ``limit`` bytes."""
    with node_error("stat", resolved):
        mode = os.stat(resolved).st_mode
    if stat.S_ISDIR(mode):  # as Node's readFile of a folder fails
        raise FileSystemError(IsADirectoryError(errno.EISDIR, "folder"), "read", None)
    if not stat.S_ISREG(mode):  # a pipe or a device could be read forever
        raise NodeOperationError(node_name, "The 'Workflow Path' names a pipe, socket or device, not a file")
    with open_for_read(access, node_name, resolved) as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= limit:  # a file that grows after the check is still read only up to the limit
            chunk = handle.read(min(_CHUNK, limit + 1 - size))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
    return None


__all__ = ["MAX_WORKFLOW_FILE_SIZE", "NOT_ALLOWED", "read_workflow_file"]
