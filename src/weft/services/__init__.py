"""Use cases (L7): what the CLI commands and the server's routes call."""

from weft.services.import_export import (
    export_workflow,
    import_credentials_file,
    import_workflow_file,
    instance_cipher,
    open_store,
)

__all__ = ["export_workflow", "import_credentials_file", "import_workflow_file", "instance_cipher", "open_store"]
