"""Use cases (L7): what the CLI commands and the server's routes call.

The names below are imported on first use (PEP 562): importing one module of the package does not import
the others (``weft execute`` needs only a few).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from weft._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS = {
    "export_workflow": "weft.services.import_export",
    "import_credentials_file": "weft.services.import_export",
    "import_workflow_file": "weft.services.import_export",
    "instance_cipher": "weft.services.import_export",
    "open_store": "weft.services.import_export",
    "Instance": "weft.services.instance",
    "PreparedWorkflow": "weft.services.prepared",
    "ResumeSigner": "weft.services.signing",
    "RunResult": "weft.services.runner",
    "WorkflowRunner": "weft.services.runner",
    "claim_waiting": "weft.services.waiting",
    "prepare": "weft.services.prepared",
    "server_registry": "weft.services.prepared",
}


__getattr__ = lazy_exports(__name__, _EXPORTS, globals())

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
