"""What an expression can see: the data the engine hands to the evaluator for one node run.

This is the contract between the engine (which builds it) and the evaluator (which reads it); it mirrors the
inputs of n8n's ``WorkflowDataProxy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from weft.workflow import Item, RunExecutionData, SourceData, Workflow


@dataclass(kw_only=True, slots=True)
class ExpressionLimits:
    """Time and memory limits of one evaluation in the sandbox."""

    time_s: float = 5.0
    """Wall-clock limit of one evaluation (``WEFT_EXPRESSION_TIMEOUT``)."""
    code_time_s: float = 300.0
    """Wall-clock limit of one Code node run, all its items together, whatever data it asks for
    (``WEFT_CODE_TIMEOUT``; n8n's ``N8N_RUNNERS_TASK_TIMEOUT``, also 300 s)."""
    memory_bytes: int = 128 * 1024 * 1024
    """Heap limit of the sandbox runtime (the pre-loaded libraries use about 25 MiB of it)."""


@dataclass(kw_only=True, slots=True, weakref_slot=True)
class ExpressionContext:
    """Everything ``$json``, ``$input``, ``$('Node')`` … are built from, for one run of one node."""

    workflow: Workflow
    node_name: str
    """The node whose parameters are being evaluated (``$node``/``$parameter`` refer to it)."""
    run_index: int = 0
    connection_input: list[Item] = field(default_factory=list)
    """Items on main input 0: ``$input.all()``, ``$json`` of the current item."""
    input_data: dict[str, list[list[Item] | None]] | None = None
    """All inputs of the node by connection type (``$input`` of other indexes)."""
    input_source: dict[str, list[SourceData | None]] | None = None
    """Where each main input came from: resolves ``$input.item`` lineage and ``$prevNode``."""
    run_execution_data: RunExecutionData | None = None
    """The execution so far: ``$('Node')`` reads its ``runData``."""
    mode: str = "manual"
    execution_id: str | None = None
    resume_url: str | None = None
    """Signed URL that resumes this execution when it waits on a webhook (``$execution.resumeUrl``)."""
    custom_data: dict[str, str] = field(default_factory=dict)
    """``$execution.customData``."""
    variables: dict[str, Any] = field(default_factory=dict)
    """``$vars``."""
    allow_env: bool = False
    """Whether ``$env`` exposes the process environment (off by default, as ``N8N_BLOCK_ENV_ACCESS_IN_NODE``)."""
    timezone: str | None = None
    from_ai_args: dict[str, Any] | None = None
    """The model's arguments when this node runs as a tool; ``None`` outside a tool call."""
    limits: ExpressionLimits = field(default_factory=ExpressionLimits)
    now: datetime | None = None
    """A fixed instant for ``$now``/``$today`` (tests, replays); ``None`` means the wall clock."""
    preview: bool = False
    """Editor preview: ``$fromAI()`` without model input returns a placeholder instead of failing."""
    additional_keys: dict[str, Any] | None = None
    """n8n's ``additionalKeys`` of a declarative node's requests (``$value``, ``$credentials``, ``$response``,
    ``$responseItem``, ``$request``, ``$parent``, ``$index``, ``$version``): JSON values the evaluation sees as
    those variables (:mod:`weft.nodes.routing`); ``None`` elsewhere, where they are ``undefined``."""
