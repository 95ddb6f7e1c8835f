"""The credential types Weft knows: :mod:`weft.nodes.credential_types` (the node layer reads them too, for
declarative nodes' ``authenticate`` recipes), re-exported for the use cases."""

from __future__ import annotations

from weft.nodes.credential_types import (
    credential_type,
    credential_types,
    json_schema,
    public_description,
    type_properties,
)

__all__ = ["credential_type", "credential_types", "json_schema", "public_description", "type_properties"]
