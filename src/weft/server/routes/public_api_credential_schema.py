"""``GET /api/v1/credentials/schema/{credentialTypeName}``: the JSON schema of a credential type's data.

The schemas are n8n 2.41.1's answers (its ``toJsonSchema`` over the credential's properties), kept as the
``jsonSchema`` of :mod:`weft.services.credential_types` for the credential types Weft's database and API nodes use
and the HTTP auth types; any other type is ``404 Not Found``, as n8n answers for a type it does not know. Any valid
API key may ask (n8n checks no scope here).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from weft.server.routes.public_api import PublicApiError
from weft.services.credential_types import json_schema

router = APIRouter(tags=["public API"])


@router.get("/credentials/schema/{credential_type}")
async def credential_schema(credential_type: str) -> dict[str, Any]:
    schema = json_schema(credential_type)
    if schema is None:
        raise PublicApiError(404, "Not Found")
    return schema


__all__ = ["credential_schema", "router"]
