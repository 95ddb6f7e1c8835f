"""The Error Trigger's type, which the host looks for: a workflow that starts with it is an error workflow, run
(:mod:`weft.services.error_workflow`) when an execution of a workflow naming it in ``settings.errorWorkflow``
fails."""

from __future__ import annotations

ERROR_TRIGGER_TYPE = "n8n-nodes-base.errorTrigger"

__all__ = ["ERROR_TRIGGER_TYPE"]
