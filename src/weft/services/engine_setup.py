"""What an instance's settings ask of the engine: the options every execution runs with, and the process-wide
limits (user-code workers, the regular-expression timeout, the demo nodes) set once before any workflow runs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from weft.engine import EngineOptions
from weft.expressions import ExpressionLimits
from weft.expressions.offload import configure_workers
from weft.nodes.files.options import file_options
from weft.nodes.registry import allow_demo_nodes
from weft.nodes.user_regex import configure_regex_timeout
from weft.services.binary_data import binary_service
from weft.services.signing import ResumeSigner
from weft.settings import Settings

if TYPE_CHECKING:
    from weft.db.engine import Database


def configure_process(settings: Settings) -> None:
    """The process-wide limits: the user-code worker threads, the regex timeout, the demo nodes."""
    configure_workers(settings.code_workers)
    configure_regex_timeout(settings.regex_timeout)
    if settings.demo_nodes:
        allow_demo_nodes()  # WEFT_DEMO_NODES: before any workflow is validated


def engine_options(settings: Settings, signer: ResumeSigner, database: Callable[[], Database]) -> EngineOptions:
    """The options of every execution of the instance (``database``: where the database mode keeps files)."""
    return EngineOptions(
        expression_limits=ExpressionLimits(time_s=settings.expression_timeout, code_time_s=settings.code_timeout),
        allow_env=not settings.block_env_access_in_node,
        max_node_runs=settings.max_node_runs,
        max_items=settings.execution_items_max,
        resume_url_base=settings.base_url.rstrip("/") + "/webhook-waiting",
        # each node of an execution asks for its ``$execution.resumeUrl``: one HMAC per execution
        sign_resume_url=functools.lru_cache(maxsize=256)(signer.sign),
        binary_data=binary_service(settings, database),
        **file_options(settings),
    )


__all__ = ["configure_process", "engine_options"]
