"""Which process of an instance runs the schedulers: the one holding ``<user folder>/scheduler.lock``.

With several server worker processes, each would otherwise fire every schedule. The lock is an advisory
``flock`` released by the kernel when the process dies, so a restarted server takes it over.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


class LeaderLock:
    def __init__(self, handle: IO[str]) -> None:
        self._handle = handle

    def release(self) -> None:
        fcntl.flock(self._handle, fcntl.LOCK_UN)
        self._handle.close()


def try_lead(user_folder: Path) -> LeaderLock | None:
    """The lock when this process got it, else ``None`` (another process leads)."""
    user_folder.mkdir(parents=True, exist_ok=True)
    handle = open(user_folder / "scheduler.lock", "a+", encoding="utf-8")  # held open: the lock lives with it
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    handle.seek(0)
    handle.truncate()
    handle.write(str(os.getpid()))
    handle.flush()
    return LeaderLock(handle)


__all__ = ["LeaderLock", "try_lead"]
