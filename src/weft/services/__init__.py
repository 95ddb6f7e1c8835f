"""Use cases (L7): what the CLI commands and the server's routes call."""

from weft.services.import_export import (
    export_workflow,
    import_credentials_file,
    import_workflow_file,
    instance_cipher,
    open_store,
)
from weft.services.instance import Instance
from weft.services.prepared import PreparedWorkflow, prepare, server_registry
from weft.services.runner import RunResult, WorkflowRunner
from weft.services.signing import ResumeSigner
from weft.services.waiting import claim_waiting

__all__ = [
    "Instance",
    "PreparedWorkflow",
    "ResumeSigner",
    "RunResult",
    "WorkflowRunner",
    "claim_waiting",
    "export_workflow",
    "import_credentials_file",
    "import_workflow_file",
    "instance_cipher",
    "open_store",
    "prepare",
    "server_registry",
]
