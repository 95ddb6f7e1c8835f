"""Settings of the engine for one execution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.binary import BinaryDataService
from weft.expressions import ExpressionLimits
from weft.nodes.files.access import FileAccess
from weft.nodes.files.archive import CompressionLimits

#: ``WEFT_EXECUTION_ITEMS_MAX``'s default: a server peaks near 1.2 GB with 500,000 small items through Split Out and
#: Set; 900,000 are refused at Split Out near 1.06 GB (bench/bench_large_body.py).
DEFAULT_MAX_ITEMS = 500_000


@dataclass(frozen=True, kw_only=True)
class EngineOptions:
    """Settings of the engine for one execution."""

    expression_limits: ExpressionLimits = field(default_factory=ExpressionLimits)
    allow_env: bool = False
    """Let ``$env`` read the process environment."""
    variables: dict[str, Any] = field(default_factory=dict)
    """``$vars``."""
    timezone: str | None = None
    resume_url_base: str | None = None
    """Base of ``$execution.resumeUrl`` (``http://127.0.0.1:5678/webhook-waiting``); the server signs it."""
    sign_resume_url: Any = None
    """``(execution_id) -> signature``: adds ``?signature=`` to the resume URL."""
    max_node_runs: int | None = 100_000
    """Node runs one execution may make before it ends in error (``WEFT_MAX_NODE_RUNS``; ``None`` for no cap): a
    loop that never ends stops with a clear error instead of filling memory with run data. n8n has no such cap."""
    max_items: int | None = DEFAULT_MAX_ITEMS
    """Items one node run may output, all its outputs together (``WEFT_EXECUTION_ITEMS_MAX``; ``None`` for no cap):
    a body of a million small items ends in a clear error instead of gigabytes of run data and a stalled server.
    n8n has no such cap."""
    streaming: bool = False
    """The client reads the answer as it comes: nodes that can stream (agents) send ``sendChunk`` hook events."""
    binary_data: BinaryDataService = field(default_factory=BinaryDataService)
    """Where nodes store the bytes of the files they make (by default in the items, n8n's ``default`` mode; the
    server and the CLI use the configured mode, ``filesystem`` unless set)."""
    file_access: FileAccess = field(default_factory=FileAccess)
    """Where file nodes may read and write (``WEFT_RESTRICT_FILE_ACCESS_TO``, n8n's ``N8N_RESTRICT_FILE_ACCESS_TO``)."""
    compression_limits: CompressionLimits = field(default_factory=CompressionLimits)
    """How much the Compression node may unpack from one archive."""
    offload: Any = None
    """``(execution, entry, node_type, run_index, input) -> awaitable output or None``: runs a node elsewhere (queue
    mode: a tool node an agent requested, on another worker); ``None`` from it, or no ``offload``, runs it here."""

    def resume_url(self, execution_id: str | None) -> str | None:
        """``$execution.resumeUrl`` of an execution: the base, the id, and the signature when one is made."""
        if self.resume_url_base is None or execution_id is None:
            return None
        url = f"{self.resume_url_base.rstrip('/')}/{execution_id}"
        sign = self.sign_resume_url
        return f"{url}?signature={sign(execution_id)}" if sign else url
